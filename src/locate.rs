//! Where a byte offset is in JSON text, as line and column: one place
//! ([`Location::of`]) or many at once in one sweep ([`locate_all`]), for
//! every report that points into the text (errors, violations, warnings).

use crate::threads::joined;

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
/// of a line before an offset. On large texts the two halves of the sweep
/// run on two threads: it is bound by memory bandwidth, which one core does
/// not exhaust.
pub fn locate_all(text: &[u8], offsets: &[usize]) -> Vec<Location> {
    locate_all_splitting_from(text, offsets, PARALLEL_SWEEP_FROM_BYTES)
}

/// `locate_all`, splitting the sweep from texts of `split_from` bytes.
fn locate_all_splitting_from(text: &[u8], offsets: &[usize], split_from: usize) -> Vec<Location> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let sorted: Vec<usize> = order.iter().map(|&i| offsets[i].min(text.len())).collect();
    let found = if text.len() >= split_from && sorted.len() >= 2 {
        let (first, second) = sorted.split_at(sorted.len() / 2);
        let split = second[0];
        std::thread::scope(|scope| {
            let late = scope.spawn(|| sweep(text, second, split).0);
            let (mut early, at) = sweep(text, first, 0);
            // Newlines before `split`: those up to the last early offset,
            // and those after it.
            let newlines_before = early.last().map_or(0, |l| l.line - 1) + count_newlines(&text[at..split]);
            let late = joined(late);
            early.extend(late.into_iter().map(|l| Location {
                line: l.line + newlines_before,
                ..l
            }));
            early
        })
    } else {
        sweep(text, &sorted, 0).0
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
    text: &'a [u8],
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
        let mut blocks = Vec::with_capacity(text.len() / LINE_BLOCK + 1);
        let mut at = BlockStart {
            newlines: 0,
            chars: 0,
            line_start_chars: 0,
        };
        // One entry more than there are whole blocks, so the end of the
        // text (an offset clamped to it) has one too.
        for block in text.chunks(LINE_BLOCK).chain(std::iter::once(&[][..])) {
            blocks.push(at);
            if let Some(last) = memchr::memrchr(b'\n', block) {
                at.line_start_chars = at.chars + count_chars(&block[..=last]);
                at.newlines += count_newlines(block);
            }
            at.chars += count_chars(block);
        }
        LineIndex { text, blocks }
    }

    /// Where `offset` is; past the end is the end, as in `Location::of`.
    pub fn locate(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        let block = self.blocks[offset / LINE_BLOCK];
        let stretch = &self.text[offset - offset % LINE_BLOCK..offset];
        match memchr::memrchr(b'\n', stretch) {
            Some(last) => Location {
                line: block.newlines + count_newlines(stretch) + 1,
                column: count_chars(&stretch[last + 1..]) + 1,
            },
            None => Location {
                line: block.newlines + 1,
                column: block.chars + count_chars(stretch) - block.line_start_chars + 1,
            },
        }
    }
}

/// Below this, one thread sweeps faster than two can start.
const PARALLEL_SWEEP_FROM_BYTES: usize = 32 << 20;

/// Locations of the ascending `offsets`, with lines counted from `from`
/// (line 1 there); columns are exact. Also where the sweep stopped.
fn sweep(text: &[u8], offsets: &[usize], from: usize) -> (Vec<Location>, usize) {
    let mut located = Vec::with_capacity(offsets.len());
    let (mut at, mut line, mut column) = (from, 1, None);
    for &offset in offsets {
        let stretch = &text[at..offset];
        let newline = memchr::memrchr(b'\n', stretch);
        line += if newline.is_some() { count_newlines(stretch) } else { 0 };
        column = Some(match (newline, column) {
            (Some(last), _) => count_chars(&stretch[last + 1..]) + 1,
            (None, Some(column)) => column + count_chars(stretch),
            // The first offset: its line may start before `from`.
            (None, None) => {
                let line_start = memchr::memrchr(b'\n', &text[..offset]).map_or(0, |n| n + 1);
                count_chars(&text[line_start..offset]) + 1
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

/// Newlines in `bytes`.
fn count_newlines(bytes: &[u8]) -> usize {
    bytecount::count(bytes, b'\n')
}

/// Characters in `bytes`: every byte that does not continue a UTF-8
/// sequence starts one (invalid bytes count as one each).
fn count_chars(bytes: &[u8]) -> usize {
    bytecount::num_chars(bytes)
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
                    column: count_chars(&bytes[line_start..o]) + 1,
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
}
