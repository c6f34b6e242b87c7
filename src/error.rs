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

/// Counts lines while a document is being read, for the places of nodes
/// and edges: asked for offsets in increasing order (as a reader meets
/// them), it counts only the newlines since the previous one, in text the
/// reader has just touched and that is still in cache. That keeps
/// locations free on large inputs, where counting afterwards would read the
/// whole document from memory again.
#[derive(Debug, Clone, Copy)]
pub struct LineCounter<'a> {
    text: &'a [u8],
    at: usize,
    line: u32,
}

impl<'a> LineCounter<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        LineCounter { text, at: 0, line: 1 }
    }

    /// The 1-based line of `offset`. An offset before the previous one
    /// (a document read twice) counts again from the start.
    pub fn line(&mut self, offset: usize) -> u32 {
        let offset = offset.min(self.text.len());
        if offset < self.at {
            *self = LineCounter::new(self.text);
        }
        let newlines = count_newlines(&self.text[self.at..offset]);
        self.line = self.line.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        self.at = offset;
        self.line
    }
}

/// A place in a document whose line is already known (see [`LineCounter`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: u32,
}

/// Locates many places of `text` at once (in any order, repeats allowed).
/// Lines are known; columns are counted in one forward pass in which only
/// the stretch of a line before each place is read: for pretty-printed text
/// a few bytes each, for a one-line document one pass over it whatever the
/// number of places.
pub fn locate_all(text: &[u8], positions: &[Position]) -> Vec<Location> {
    let mut order: Vec<usize> = (0..positions.len()).collect();
    order.sort_unstable_by_key(|&i| positions[i].offset);
    let mut located = vec![Location { line: 1, column: 1 }; positions.len()];
    let mut previous: Option<(Position, usize)> = None;
    for i in order {
        let place = Position {
            offset: positions[i].offset.min(text.len()),
            line: positions[i].line,
        };
        let column = match previous {
            Some((before, column)) if before.line == place.line => {
                column + count_chars(&text[before.offset..place.offset])
            }
            _ => {
                let line_start = memchr::memrchr(b'\n', &text[..place.offset]).map_or(0, |n| n + 1);
                count_chars(&text[line_start..place.offset]) + 1
            }
        };
        previous = Some((place, column));
        located[i] = Location {
            line: place.line as usize,
            column,
        };
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
    fn counted_lines_and_swept_columns_agree_with_one_at_a_time() {
        for text in [
            "{\n  \"é\": [1,\n\n 2, \"ü\"], \"x\": 3}".repeat(40),
            "{\"日本\": [1, 2, \"💡\"], \"x\": 3}".repeat(40),
            "{\r\n\"a\": 1}\r\n".repeat(20),
        ] {
            let bytes = text.as_bytes();
            let offsets: Vec<usize> = (0..=bytes.len()).step_by(3).chain([7, 7, 0]).collect();
            let mut counter = LineCounter::new(bytes);
            let mut positions: Vec<Position> = Vec::new();
            for &offset in &offsets {
                positions.push(Position {
                    offset,
                    line: counter.line(offset),
                });
            }
            positions.reverse();
            let one_by_one: Vec<Location> = positions.iter().map(|p| Location::of(bytes, p.offset)).collect();
            assert_eq!(locate_all(bytes, &positions), one_by_one);
        }
    }
}
