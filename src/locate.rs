//! Where a byte offset is in JSON or YAML text, as line and column: one
//! place ([`Location::of`]) or many at once in one sweep ([`locate_all`]),
//! for every report that points into the text (errors, violations,
//! warnings).
//!
//! Lines end at LF, CRLF or a bare CR: YAML's line breaks, and what
//! editors show for JSON too (JSON reads a bare CR as whitespace, so no
//! meaning changes). A text with no CR at all, most of them, is found so
//! by one memchr and then only LF is counted. Columns count characters as
//! an editor shows them: a byte order mark at the start is not one.

use crate::threads::joined;

/// A place in the text, both 1-based. The column counts characters, as
/// Python's `json` module does, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

impl Location {
    /// Locates a byte offset in `text`. For one offset when reporting, so a
    /// linear scan is fine; many offsets of one text go through `locate_all`
    /// or `LineIndex`, which read it once. Offsets past the end are clamped
    /// to the end.
    pub fn of(text: &[u8], offset: usize) -> Location {
        let offset = offset.min(text.len());
        reading(offset + 1);
        // Only a CR before the offset, or at it (half of a CRLF), matters.
        let lines = Lines::upto(text, (offset + 1).min(text.len()));
        let line_start = lines.last_line_start(0, offset).unwrap_or(0);
        let line = lines.breaks(0, offset) + 1;
        let column = lines.chars(line_start, offset) + 1;
        Location { line, column }
    }
}

/// Locates many byte offsets of `text` at once (in any order, repeats
/// allowed), in one forward sweep: each stretch of text is read once, so a
/// report with 100,000 findings in a one-line 500 MB document costs one pass,
/// not 100,000. Newlines are counted with SIMD; characters only in the part
/// of a line before an offset. On large texts the two halves of the sweep
/// run on two threads: it is bound by memory bandwidth, which one core does
/// not exhaust.
pub fn locate_all(text: &[u8], offsets: &[usize]) -> Vec<Location> {
    locate_all_splitting_from(text, offsets, PARALLEL_SWEEP_FROM_BYTES)
}

/// `locate_all`, splitting the sweep from texts of `split_from` bytes.
fn locate_all_splitting_from(text: &[u8], offsets: &[usize], split_from: usize) -> Vec<Location> {
    reading(text.len());
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let sorted: Vec<usize> = order.iter().map(|&i| offsets[i].min(text.len())).collect();
    let lines = Lines::upto(text, text.len());
    let found = if text.len() >= split_from && sorted.len() >= 2 {
        let (first, second) = sorted.split_at(sorted.len() / 2);
        let split = second[0];
        std::thread::scope(|scope| {
            let late = scope.spawn(|| sweep(lines, second, split).0);
            let (mut early, at) = sweep(lines, first, 0);
            // Line breaks before `split`: those up to the last early
            // offset, and those after it.
            let newlines_before = early.last().map_or(0, |l| l.line - 1) + lines.breaks(at, split);
            let late = joined(late);
            early.extend(late.into_iter().map(|l| Location {
                line: l.line + newlines_before,
                ..l
            }));
            early
        })
    } else {
        sweep(lines, &sorted, 0).0
    };
    let mut located = vec![Location { line: 1, column: 1 }; offsets.len()];
    for (i, location) in order.into_iter().zip(found) {
        located[i] = location;
    }
    located
}

/// `locate_all` for the offsets that are known, in their order: what a
/// report needs, whose findings may come from text or not.
pub fn locate_known(text: &[u8], offsets: &[Option<usize>]) -> Vec<Option<Location>> {
    let known: Vec<usize> = offsets.iter().flatten().copied().collect();
    let mut found = locate_all(text, &known).into_iter();
    offsets.iter().map(|o| o.and_then(|_| found.next())).collect()
}

/// Lines and columns of offsets into one text, asked for a few at a time
/// and in any order, each in constant time: `locate_all` sweeps the text
/// once per call, so locating a report's findings in batches (as `explain`
/// does, consumer by consumer) would sweep it once per batch. Built in one
/// pass; keeps, per block of `LINE_BLOCK` bytes, the newlines and
/// characters before it and the characters before the start of its first
/// line: about 24 bytes per 4 KB of text. Agrees with `Location::of`.
pub struct LineIndex<'a> {
    lines: Lines<'a>,
    blocks: Vec<BlockStart>,
}

#[derive(Clone, Copy)]
struct BlockStart {
    newlines: usize,
    chars: usize,
    /// Characters before the start of the line the block's first byte is on.
    line_start_chars: usize,
}

const LINE_BLOCK: usize = 4096;

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a [u8]) -> LineIndex<'a> {
        reading(text.len());
        let mut blocks = Vec::with_capacity(text.len() / LINE_BLOCK + 1);
        let mut at = BlockStart {
            newlines: 0,
            chars: 0,
            line_start_chars: 0,
        };
        let lines = Lines::upto(text, text.len());
        // One entry more than there are whole blocks, so the end of the
        // text (an offset clamped to it) has one too.
        for start in (0..text.len()).step_by(LINE_BLOCK).chain(std::iter::once(text.len())) {
            blocks.push(at);
            let end = (start + LINE_BLOCK).min(text.len());
            if let Some(line_start) = lines.last_line_start(start, end) {
                at.line_start_chars = at.chars + lines.chars(start, line_start);
                at.newlines += lines.breaks(start, end);
            }
            at.chars += lines.chars(start, end);
        }
        LineIndex { lines, blocks }
    }

    /// Where `offset` is; past the end is the end, as in `Location::of`.
    pub fn locate(&self, offset: usize) -> Location {
        let lines = self.lines;
        let offset = offset.min(lines.text.len());
        let block = self.blocks[offset / LINE_BLOCK];
        let start = offset - offset % LINE_BLOCK;
        match lines.last_line_start(start, offset) {
            Some(line_start) => Location {
                line: block.newlines + lines.breaks(start, offset) + 1,
                column: lines.chars(line_start, offset) + 1,
            },
            None => Location {
                line: block.newlines + 1,
                column: block.chars + lines.chars(start, offset) - block.line_start_chars + 1,
            },
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Bytes of text this thread asked to be located through: at most what
    /// was read, counted so a test can hold a caller to one pass (a caller
    /// locating n offsets one at a time reads n times as much).
    static BYTES_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The bytes this thread has asked to be located through so far.
#[cfg(test)]
pub(crate) fn bytes_read() -> usize {
    BYTES_READ.with(|read| read.get())
}

fn reading(_bytes: usize) {
    #[cfg(test)]
    BYTES_READ.with(|read| read.set(read.get() + _bytes));
}

/// Below this, one thread sweeps faster than two can start.
const PARALLEL_SWEEP_FROM_BYTES: usize = 32 << 20;

/// Locations of the ascending `offsets`, with lines counted from `from`
/// (line 1 there); columns are exact. Also where the sweep stopped.
fn sweep(lines: Lines<'_>, offsets: &[usize], from: usize) -> (Vec<Location>, usize) {
    let mut located = Vec::with_capacity(offsets.len());
    let (mut at, mut line, mut column) = (from, 1, None);
    for &offset in offsets {
        let line_start = lines.last_line_start(at, offset);
        if line_start.is_some() {
            line += lines.breaks(at, offset);
        }
        column = Some(match (line_start, column) {
            (Some(line_start), _) => lines.chars(line_start, offset) + 1,
            (None, Some(column)) => column + lines.chars(at, offset),
            // The first offset: its line may start before `from`.
            (None, None) => {
                let line_start = lines.last_line_start(0, offset).unwrap_or(0);
                lines.chars(line_start, offset) + 1
            }
        });
        at = offset;
        located.push(Location {
            line,
            column: column.unwrap_or(1),
        });
    }
    (located, at)
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Line breaks and characters in stretches of one text.
#[derive(Clone, Copy)]
struct Lines<'a> {
    text: &'a [u8],
    /// Whether the part of the text asked about holds a CR: if not, a line
    /// break is an LF and nothing else needs looking at.
    cr: bool,
    /// Whether the text starts with a byte order mark, which editors hide.
    bom: bool,
}

impl<'a> Lines<'a> {
    /// For stretches of `text` that end before `upto` (the byte at `upto`
    /// may be looked at: it tells whether a CR before it is half a CRLF).
    fn upto(text: &'a [u8], upto: usize) -> Lines<'a> {
        Lines {
            text,
            cr: memchr::memchr(b'\r', &text[..upto]).is_some(),
            bom: text.starts_with(BOM),
        }
    }

    /// Line breaks in `text[from..to]`: each LF, and each CR that no LF
    /// follows (a CR just before `to` whose LF is at `to` is not one: the
    /// pair is one break, counted at its LF).
    fn breaks(&self, from: usize, to: usize) -> usize {
        let stretch = &self.text[from..to];
        let lf = bytecount::count(stretch, b'\n');
        if !self.cr {
            return lf;
        }
        let cr = bytecount::count(stretch, b'\r');
        if cr == 0 {
            return lf;
        }
        let with_next = &self.text[from..(to + 1).min(self.text.len())];
        lf + cr - memchr::memmem::find_iter(with_next, b"\r\n").count()
    }

    /// Where the last line starting in `text[from..=to]` starts: just after
    /// the last line break in `text[from..to]`, if there is one.
    fn last_line_start(&self, from: usize, to: usize) -> Option<usize> {
        let stretch = &self.text[from..to];
        if !self.cr {
            return memchr::memrchr(b'\n', stretch).map(|i| from + i + 1);
        }
        let mut end = stretch.len();
        while let Some(i) = memchr::memrchr2(b'\n', b'\r', &stretch[..end]) {
            // Only the last byte can be a CR whose LF is past the stretch.
            if stretch[i] == b'\r' && self.text.get(from + i + 1) == Some(&b'\n') {
                end = i;
                continue;
            }
            return Some(from + i + 1);
        }
        None
    }

    /// Characters in `text[from..to]`: every byte that does not continue a
    /// UTF-8 sequence starts one (invalid bytes count as one each), but a
    /// byte order mark at the start of the text is no character.
    fn chars(&self, from: usize, to: usize) -> usize {
        let chars = bytecount::num_chars(&self.text[from..to]);
        if self.bom && from == 0 && to > 0 {
            chars - 1
        } else {
            chars
        }
    }
}

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
    fn the_line_index_agrees_with_locating_one_offset_at_a_time() {
        // Long and short lines, lines that span blocks and end on a block's
        // last byte, multi-byte characters split by block boundaries,
        // invalid bytes, and offsets past the end.
        let mut text: Vec<u8> = Vec::new();
        for i in 0..3_000 {
            text.extend_from_slice(format!("{{\"é{i}\": [{}]", "💡".repeat(i % 9)).as_bytes());
            if i % 97 == 0 {
                text.extend(std::iter::repeat_n(b'x', 9_000 + i));
                text.push(0xff);
            }
            text.push(b'\n');
        }
        let newline_at_block_end = LINE_BLOCK * 3 - 1;
        text[newline_at_block_end] = b'\n';
        let index = LineIndex::new(&text);
        let offsets = (0..text.len() + 3)
            .step_by(7)
            .chain([0, LINE_BLOCK, newline_at_block_end + 1]);
        for offset in offsets {
            assert_eq!(index.locate(offset), Location::of(&text, offset), "offset {offset}");
        }
        for text in [&b""[..], b"\n", b"abc", b"\n\n\xc3\xa9"] {
            let index = LineIndex::new(text);
            for offset in 0..=text.len() + 1 {
                assert_eq!(index.locate(offset), Location::of(text, offset));
            }
        }
    }

    #[test]
    fn the_two_threaded_sweep_agrees_with_one_at_a_time() {
        // Lines of varied length, multi-byte characters, and one very long
        // line across the split, so the second half's first column starts
        // before its sweep does.
        let mut text = String::new();
        for i in 0..4_000 {
            text.push_str(&format!("{{\"é{i}\": [{}],\n", "💡".repeat(i % 7)));
        }
        text.push_str(&"x".repeat(400_000));
        text.push('\n');
        let bytes = text.as_bytes();
        let offsets: Vec<usize> = (0..bytes.len())
            .step_by(bytes.len() / 997)
            .chain([bytes.len() - 3, 5])
            .collect();
        let mut one_by_one = Vec::new();
        let (mut line, mut line_start, mut at) = (1, 0, 0);
        let mut sorted = offsets.clone();
        sorted.sort_unstable();
        for &o in &sorted {
            for (i, &b) in bytes[at..o].iter().enumerate() {
                if b == b'\n' {
                    line += 1;
                    line_start = at + i + 1;
                }
            }
            at = o;
            one_by_one.push((
                o,
                Location {
                    line,
                    column: bytecount::num_chars(&bytes[line_start..o]) + 1,
                },
            ));
        }
        let located = locate_all_splitting_from(bytes, &offsets, 1024);
        for (o, l) in offsets.iter().zip(located) {
            let expected = one_by_one.iter().find(|(x, _)| x == o).unwrap().1;
            assert_eq!(l, expected, "offset {o}");
        }
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

    #[test]
    fn a_bare_cr_breaks_a_line_and_crlf_is_one_break() {
        let text = b"a\rbc\r\nd\n\re";
        let expect =
            |offset, line, column| assert_eq!(Location::of(text, offset), Location { line, column }, "{offset}");
        expect(0, 1, 1);
        expect(2, 2, 1); // b, after a bare CR
        expect(4, 2, 3); // the CR of CRLF is on its line
        expect(5, 2, 4); // and so is its LF
        expect(6, 3, 1); // d
        expect(8, 4, 1); // the CR after LF ends an empty line
        expect(9, 5, 1); // e
                         // Without any CR, exactly as LF-only counting gave.
        assert_eq!(Location::of(b"ab\ncd", 4), Location { line: 2, column: 2 });
    }

    #[test]
    fn a_byte_order_mark_is_not_a_column() {
        let text = "\u{feff}ab\ncd".as_bytes();
        assert_eq!(Location::of(text, 3), Location { line: 1, column: 1 });
        assert_eq!(Location::of(text, 4), Location { line: 1, column: 2 });
        assert_eq!(Location::of(text, 6), Location { line: 2, column: 1 });
    }

    #[test]
    fn every_way_of_locating_agrees_on_cr_crlf_and_a_bom() {
        // CRLF pairs split by the block size and by the two-thread split,
        // bare CRs, and a BOM, each against one offset at a time.
        let mut text = "\u{feff}".as_bytes().to_vec();
        for i in 0..3_000 {
            text.extend_from_slice(format!("é{i}: [{}]", "💡".repeat(i % 5)).as_bytes());
            text.extend_from_slice([&b"\r\n"[..], b"\r", b"\n"][i % 3]);
        }
        text[LINE_BLOCK - 1] = b'\r';
        text[LINE_BLOCK] = b'\n';
        let offsets: Vec<usize> = (0..=text.len() + 2)
            .step_by(5)
            .chain([LINE_BLOCK, LINE_BLOCK - 1, 3])
            .collect();
        let one_by_one: Vec<Location> = offsets.iter().map(|&o| Location::of(&text, o)).collect();
        let index = LineIndex::new(&text);
        for (&o, &expected) in offsets.iter().zip(&one_by_one) {
            assert_eq!(index.locate(o), expected, "offset {o}");
        }
        assert_eq!(locate_all(&text, &offsets), one_by_one);
        assert_eq!(locate_all_splitting_from(&text, &offsets, 1024), one_by_one);
        let cr_lines = text.iter().filter(|&&b| b == b'\r').count();
        assert_eq!(
            Location::of(&text, text.len()).line,
            cr_lines + 1 + text.iter().filter(|&&b| b == b'\n').count()
                - text.windows(2).filter(|w| w == b"\r\n").count()
        );
    }
}
