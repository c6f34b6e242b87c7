//! Ids and labels in messages, written as JSON string literals the way
//! Python's `json.dumps(text, ensure_ascii=False)` writes them: they come
//! from JSON, so messages quote them as JSON does.

/// `text` as a JSON string literal. Only `"`, `\\` and control characters
/// are escaped; everything else is shown as it is.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut rest = text;
    // Escapes are rare: copy each plain run up to the next one whole.
    while let Some(at) = rest.bytes().position(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(&rest[..at]);
        match rest.as_bytes()[at] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            byte => out.push_str(&format!("\\u{byte:04x}")),
        }
        // The byte is ASCII, so the next one starts a character.
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out.push('"');
    out
}

/// "edge 3" or "edge 3 (id \"e4\")".
pub fn edge_name(index: usize, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("edge {index} (id {})", quote(id)),
        None => format!("edge {index}"),
    }
}

/// "node 3" or "node 3 (id \"a\")".
pub fn node_name(index: usize, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("node {index} (id {})", quote(id)),
        None => format!("node {index}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_writes_json_string_literals() {
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("\n\t\u{1}\u{7f}é\u{301}"), "\"\\n\\t\\u0001\u{7f}é\u{301}\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("plain"), "\"plain\"");
    }
}
