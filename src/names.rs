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

/// Each byte's character in a tool name: ASCII letters lowercased, digits
/// kept, and 0 for everything else (a separator; every byte of a non-ASCII
/// character is one, as it is >= 0x80).
const NAME_BYTE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_digit() || c.is_ascii_lowercase() {
            table[b] = c;
        } else if c.is_ascii_uppercase() {
            table[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    table
};

/// Writes the tool name of `label` into `out` (cleared first), so callers
/// that name many labels reuse one buffer. One pass over the bytes: a name
/// character is copied (lowercased), and a run of separators becomes one
/// `_` when a name character follows it and another came before it, which
/// collapses runs and trims both ends at once. Every label of a large
/// workflow is named this way, so it is kept to a table lookup a byte, and
/// without a branch on the byte (labels mix letters and separators in no
/// order a CPU can predict): each step writes both a `_` and the character,
/// and moves on past only those that belong to the name.
pub fn normalize_into(label: &str, out: &mut String) {
    name_into(label, out);
}

/// `normalize_into`, telling also what the label loses on the way (as
/// [`NameLoss::of`] would), from the same pass.
pub fn name_into(label: &str, out: &mut String) -> NameLoss {
    let bytes = label.as_bytes();
    let mut name = std::mem::take(out).into_bytes();
    name.clear();
    // A name is never longer than its label; a step may write one byte
    // past the name so far, which is at most the label's length.
    name.resize(bytes.len() + 1, 0);
    let (mut len, mut pending, mut any_byte) = (0usize, false, 0u8);
    for &b in bytes {
        let c = NAME_BYTE[b as usize];
        let keep = c != 0;
        name[len] = b'_';
        len += usize::from(pending & keep);
        name[len] = c;
        len += usize::from(keep);
        // A separator after a name character leaves a `_` owed.
        pending = !keep & (len > 0);
        any_byte |= b;
    }
    let loss = if len == 0 {
        NameLoss::Everything
    } else if any_byte >= 0x80 {
        NameLoss::NonAscii
    } else {
        NameLoss::None
    };
    name.truncate(len);
    if name.is_empty() {
        name.extend_from_slice(UNNAMED_TOOL.as_bytes());
    }
    // SAFETY: only ASCII bytes were written: `_`, and `NAME_BYTE`'s
    // entries that are not 0 (lowercase letters and digits), so `name` is
    // UTF-8. Checking would be one more pass over every name.
    *out = unsafe { String::from_utf8_unchecked(name) };
    loss
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
    // `name_into` may write one byte past the name as it goes.
    let mut out = String::with_capacity(label.len() + 1);
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
    fn naming_tells_the_loss_that_comparing_label_and_name_tells() {
        use super::{name_into, NameLoss};
        let mut out = String::from("left over from an earlier label");
        for label in [
            "",
            "_",
            "unnamed_tool",
            "Web Search",
            "Café",
            "日本語",
            "🔍",
            "a",
            "A-B",
            "Search 🔍",
            "é1",
            "  x  ",
        ] {
            let loss = name_into(label, &mut out);
            assert_eq!(out, name(label), "{label:?}");
            assert_eq!(loss, NameLoss::of(label, &out), "{label:?}");
        }
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
