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
        let line = count_newlines(before) + 1;
        let column = count_chars(&before[line_start..]) + 1;
        Location { line, column }
    }
}

/// Locates many byte offsets of `text` at once (in any order, repeats
/// allowed), in one forward sweep: each stretch of text is read once, so a
/// report with 100,000 findings in a one-line 500 MB document costs one pass,
/// not 100,000. Newlines are counted with SIMD; characters only in the part
/// of a line before an offset.
pub fn locate_all(text: &[u8], offsets: &[usize]) -> Vec<Location> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let mut located = vec![Location { line: 1, column: 1 }; offsets.len()];
    // The sweep's position, and the location found there.
    let (mut at, mut line, mut column) = (0, 1, 1);
    for i in order {
        let offset = offsets[i].min(text.len());
        let stretch = &text[at..offset];
        match memchr::memrchr(b'\n', stretch) {
            Some(last) => {
                line += count_newlines(stretch);
                column = count_chars(&stretch[last + 1..]) + 1;
            }
            None => column += count_chars(stretch),
        }
        at = offset;
        located[i] = Location { line, column };
    }
    located
}

/// Newlines in `bytes`.
fn count_newlines(bytes: &[u8]) -> usize {
    bytecount::count(bytes, b'\n')
}

/// Characters in `bytes`: every byte that does not continue a UTF-8
/// sequence starts one (invalid bytes count as one each).
fn count_chars(bytes: &[u8]) -> usize {
    bytecount::num_chars(bytes)
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

    #[test]
    fn locate_all_agrees_with_one_at_a_time_in_any_order() {
        let text = "{\n  \"é\": [1,\n\n 2, \"ü\"], \"x\": 3}".repeat(40);
        let bytes = text.as_bytes();
        let mut offsets: Vec<usize> = (0..=bytes.len()).rev().step_by(3).collect();
        offsets.extend([7, 7, 0, bytes.len() + 5]);
        let one_by_one: Vec<Location> = offsets.iter().map(|&o| Location::of(bytes, o)).collect();
        assert_eq!(locate_all(bytes, &offsets), one_by_one);
    }
}
