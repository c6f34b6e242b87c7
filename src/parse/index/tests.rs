//! Stage 1 against a byte-at-a-time statement of what it computes, on every
//! kernel this CPU runs, over random texts dense in the bytes that matter
//! (quotes, backslash runs, operators, control characters, `\u` escapes)
//! and long enough to cross block and window boundaries.

use super::*;

/// A small deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "\"",
    "\"",
    "\"",
    "\\",
    "\\",
    "\\\\",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    " ",
    "\n",
    "\t",
    "\r",
    "a",
    "id",
    "true",
    "-1.5e3",
    "0",
    "é",
    "💡",
    "\u{1}",
    "\u{1f}",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\ud800",
    "\\udc00",
    "\\uZZ",
    "\\n",
    "\\/",
    "\\x",
    "u",
    "null",
    "\"key\": ",
    "[1, 2]",
    "{\"a\": \"b\"}",
];

/// Pieces that keep a text valid more often, so that refusals are not all
/// the corpus tests.
const CALM: &[&str] = &[
    "\"ab\"",
    "\"k\": ",
    " ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "1",
    "\"\\u00e9\\\\\"",
];

fn random_text(rng: &mut Rng, pieces: usize) -> String {
    (0..pieces)
        .map(|_| {
            if rng.below(10) < 8 {
                CALM[rng.below(CALM.len())]
            } else {
                PIECES[rng.below(PIECES.len())]
            }
        })
        .collect()
}

fn hex4(text: &[u8], at: usize) -> Option<u32> {
    let digits = std::str::from_utf8(text.get(at..at + 4)?).ok()?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

/// What stage 1 computes, one byte at a time: the offsets of the
/// structurals, or `None` when the text is refused.
fn by_hand(text: &[u8]) -> Option<Vec<u32>> {
    let n = text.len();
    // A byte is escaped when the run of backslashes before it is odd.
    let mut escaped = vec![false; n + 1];
    let mut pending = false;
    for i in 0..n {
        escaped[i] = pending;
        // Runs pair off from their left end: a backslash that is itself
        // escaped starts no escape.
        pending = text[i] == b'\\' && !escaped[i];
    }
    if pending {
        return None; // a backslash escaping the end of the text
    }
    let mut paired_low = usize::MAX;
    for q in 0..n {
        if !escaped[q] {
            continue;
        }
        match text[q] {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
            b'u' => match hex4(text, q + 1)? {
                0xD800..=0xDBFF => {
                    if text.get(q + 5..q + 7) != Some(b"\\u") || !matches!(hex4(text, q + 7), Some(0xDC00..=0xDFFF)) {
                        return None;
                    }
                    paired_low = q + 6;
                }
                0xDC00..=0xDFFF if paired_low != q => return None,
                _ => {}
            },
            _ => return None,
        }
    }
    let is_op = |b: u8| b"{}[]:,".contains(&b);
    let is_space = |b: u8| b" \t\n\r".contains(&b);
    let mut in_string = false;
    let mut previous_bare = false;
    let mut out = Vec::new();
    for i in 0..n {
        let b = text[i];
        let quote = b == b'"' && !escaped[i];
        if quote {
            in_string = !in_string;
        }
        // `in_string` now covers the opening quote, not the closing one.
        if in_string && b < 0x20 {
            return None;
        }
        let scalar = !is_op(b) && !is_space(b);
        let bare = scalar && !quote;
        let start = is_op(b) || (scalar && !previous_bare);
        let string_tail = in_string != quote;
        if start && !string_tail {
            out.push(i as u32);
        }
        previous_bare = bare;
    }
    (!in_string).then_some(out)
}

fn indexed(text: &[u8], kernel: Kernel) -> Option<Vec<u32>> {
    let mut indexer = Indexer::with_kernel(text, kernel);
    let mut out = Vec::new();
    while !indexer.is_done() {
        indexer.fill(&mut out).ok()?;
    }
    // The end check of an empty text.
    if text.is_empty() {
        indexer.fill(&mut out).ok()?;
    }
    Some(out)
}

#[test]
fn every_kernel_finds_what_the_byte_by_byte_statement_finds() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let kernels = Kernel::supported();
    assert!(kernels.contains(&Kernel::Scalar));
    let mut refused = 0;
    for case in 0..6_000 {
        let text = random_text(&mut rng, 1 + case % 120);
        let expected = by_hand(text.as_bytes());
        refused += usize::from(expected.is_none());
        for &kernel in &kernels {
            assert_eq!(indexed(text.as_bytes(), kernel), expected, "{kernel:?} on {text:?}");
        }
    }
    // The corpus exercises both outcomes.
    assert!(refused > 600 && refused < 5_400, "{refused} refused");
}

#[test]
fn valid_json_is_never_refused_and_kernels_agree_across_windows() {
    // Long valid documents: every kernel indexes them alike, window after
    // window, and never refuses them.
    let mut rng = Rng(42);
    let mut doc = String::from("[");
    while doc.len() < 3 * WINDOW + 77 {
        let item = match rng.below(6) {
            0 => "{\"id\": \"a\\\"b\\\\\", \"x\": [1, -2.5e3, true, null]}",
            1 => "\"\\ud83d\\ude00 é \\u00e9\\n\"",
            2 => "  {\"label\":\"\\\\\\\\\\\"\"}\n",
            3 => "[[[[{}]]]]",
            4 => "\"\\\\\"",
            _ => "12345678901234567890",
        };
        if doc.len() > 1 {
            doc.push(',');
        }
        doc.push_str(item);
    }
    doc.push(']');
    let expected = by_hand(doc.as_bytes()).expect("a valid document");
    for kernel in Kernel::supported() {
        assert_eq!(
            indexed(doc.as_bytes(), kernel).as_deref(),
            Some(&expected[..]),
            "{kernel:?}"
        );
    }
}

#[test]
fn backslash_runs_escape_by_parity_across_blocks() {
    // A run of k backslashes ending just before a quote, placed across the
    // boundary of the first block: the quote is escaped exactly when k is odd.
    for k in 1..=70 {
        for start in 50..70 {
            let mut text = vec![b'"'];
            text.resize(start, b'a');
            text.extend(std::iter::repeat_n(b'\\', k));
            text.extend_from_slice(b"\"\" ");
            for kernel in Kernel::supported() {
                assert_eq!(
                    indexed(&text, kernel),
                    by_hand(&text),
                    "{kernel:?}, {k} backslashes from {start}"
                );
            }
        }
    }
}

#[test]
fn kernels_are_named_and_the_scalar_one_is_always_there() {
    for kernel in Kernel::ALL {
        assert_eq!(Kernel::from_name(kernel.name()), Some(kernel));
    }
    assert!(Kernel::Scalar.is_supported());
    assert_eq!(Kernel::from_name("avx512"), None);
}
