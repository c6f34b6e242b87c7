//! How a label becomes the tool name a model sees. No rule of the spec
//! defines it; this reproduces the reference runtime's `sanitizeName`
//! (SEMANTICS 5):
//!
//! 1. lowercase ASCII `A`-`Z` only (PHP `strtolower`);
//! 2. replace every maximal run of characters outside `[a-z0-9]` by `_`;
//! 3. trim leading and trailing `_`;
//! 4. an empty result becomes `unnamed_tool`.

/// The name given to a label with no ASCII letter or digit in it.
pub const UNNAMED_TOOL: &str = "unnamed_tool";

/// Writes the tool name of `label` into `out` (cleared first), so callers
/// that name many labels reuse one buffer.
pub fn normalize_into(label: &str, out: &mut String) {
    out.clear();
    let bytes = label.as_bytes();
    let mut at = 0;
    // Alternate between a run of separators (skipped) and a run of name
    // characters (copied whole, then lowercased in place). Working on bytes
    // is exact: every byte of a non-ASCII character is >= 0x80, so it is a
    // separator; and runs start and end on ASCII bytes, so slicing `label`
    // there is always on a character boundary.
    while at < bytes.len() {
        while at < bytes.len() && !bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        if start < at {
            if !out.is_empty() {
                out.push('_');
            }
            let from = out.len();
            out.push_str(&label[start..at]);
            out[from..].make_ascii_lowercase();
        }
    }
    if out.is_empty() {
        out.push_str(UNNAMED_TOOL);
    }
}

/// What a label loses on the way to its name, beyond case and separators:
/// the reason for the NAME-LOSSY and NAME-UNNAMED warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NameLoss {
    #[default]
    None,
    /// Non-ASCII characters were dropped (`"Café" -> caf`). Any of them,
    /// not only letters: which characters count as letters depends on the
    /// Unicode version, and a dropped emoji can tell tools apart as much as
    /// a dropped letter.
    NonAscii,
    /// Nothing was left: the name is `unnamed_tool`.
    Everything,
}

impl NameLoss {
    /// Compares `label` with `name`, the name it became. Cheap for the
    /// common case, an ASCII label with a real name.
    pub fn of(label: &str, name: &str) -> NameLoss {
        if name == UNNAMED_TOOL && !label.bytes().any(|b| b.is_ascii_alphanumeric()) {
            NameLoss::Everything
        } else if !label.is_ascii() {
            NameLoss::NonAscii
        } else {
            NameLoss::None
        }
    }
}

/// The tool name of `label` (SEMANTICS 5).
pub fn normalize_name(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    normalize_into(label, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::normalize_name as name;

    #[test]
    fn semantics_5_examples() {
        assert_eq!(name("Web Search"), "web_search");
        assert_eq!(name("web-search"), "web_search");
        assert_eq!(name("WEB_SEARCH!"), "web_search");
        assert_eq!(name("Get User (Admin)"), "get_user_admin");
        assert_eq!(name("GetWeatherData"), "getweatherdata");
        assert_eq!(name("Café Search"), "caf_search");
        assert_eq!(name("日本語"), "unnamed_tool");
    }

    #[test]
    fn name_loss_tells_dropped_letters_from_nothing_left() {
        use super::NameLoss;
        let loss = |label: &str| NameLoss::of(label, &name(label));
        assert_eq!(loss("Web Search"), NameLoss::None);
        assert_eq!(loss("unnamed_tool"), NameLoss::None, "named so on purpose");
        assert_eq!(loss("Café"), NameLoss::NonAscii);
        assert_eq!(loss("Search 🔍"), NameLoss::NonAscii);
        assert_eq!(loss("日本語"), NameLoss::Everything);
        assert_eq!(loss("🔍"), NameLoss::Everything);
        assert_eq!(loss(""), NameLoss::Everything);
    }

    #[test]
    fn runs_collapse_and_ends_trim() {
        assert_eq!(name("__a -- b__"), "a_b");
        assert_eq!(name(""), "unnamed_tool");
        assert_eq!(name("___"), "unnamed_tool");
        assert_eq!(name("a\u{130}b"), "a_b"); // only ASCII changes case
        assert_eq!(name("x2Y"), "x2y");
    }
}
