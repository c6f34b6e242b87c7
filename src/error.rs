//! Input errors: the workflow cannot be checked at all (not JSON, wrong
//! shapes, missing or duplicate ids). Findings about a checkable workflow are
//! never errors; they are violations in the report.

use std::fmt;

/// A place in JSON text, both 1-based. The column counts characters, as
/// Python's `json` module does, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

impl Location {
    /// Locates a byte offset in `text`. Only called when reporting, so a
    /// linear scan is fine. Offsets past the end are clamped to the end.
    pub fn of(text: &[u8], offset: usize) -> Location {
        let offset = offset.min(text.len());
        let before = &text[..offset];
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        // Count characters, not bytes: every byte that does not continue a
        // UTF-8 sequence starts a character (invalid bytes count as one each).
        let column = before[line_start..].iter().filter(|&&b| (b & 0xC0) != 0x80).count() + 1;
        Location { line, column }
    }
}

/// What is wrong with the input, and where: `message` names the node or edge
/// (index, and id where it has one); `offset` is the byte offset in the JSON
/// text when the input was text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub message: String,
    pub offset: Option<usize>,
}

impl InputError {
    pub fn new(message: impl Into<String>, offset: Option<usize>) -> Self {
        InputError {
            message: message.into(),
            offset,
        }
    }

    pub fn location(&self, text: &[u8]) -> Option<Location> {
        self.offset.map(|offset| Location::of(text, offset))
    }

    /// The message with its location appended, for text input.
    pub fn describe(&self, text: &[u8]) -> String {
        match self.location(text) {
            Some(at) => format!("{} at line {}, column {}", self.message, at.line, at.column),
            None => self.message.clone(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_counts_lines_and_characters() {
        let text = "{\n  \"é\": x".as_bytes();
        let x = text.iter().position(|&b| b == b'x').unwrap();
        assert_eq!(Location::of(text, x), Location { line: 2, column: 8 });
        assert_eq!(Location::of(text, 0), Location { line: 1, column: 1 });
    }
}
