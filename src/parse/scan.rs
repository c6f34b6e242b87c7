//! A strict JSON (RFC 8259) pull scanner over a validated UTF-8 buffer.
//!
//! The parser reads a handful of fields and skips everything else, so the
//! scanner's job is mostly to validate and skip fast. It never recurses:
//! skipping nested values uses an explicit stack, so depth is bounded only by
//! memory. Strings without escapes are borrowed from the buffer.
//!
//! Over 600 lines only with its tests (the code is under 600): the one scanner.

use std::borrow::Cow;

use super::Result;
use crate::error::InputError;
use crate::input::{Field, Kind};

/// Bytes that end the fast path of a string scan: the closing quote, a
/// backslash, or a control character (which JSON forbids raw in strings).
static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// The first position at or after `from` holding a byte that cannot stand
/// unescaped in a JSON string (`"`, `\\`, or a control character), or the end.
/// Most strings in real exports are plain text, and short (keys, ids), so
/// this is where the parser spends much of its time: on x86-64 it looks at
/// sixteen bytes at a time with SSE2 (part of every x86-64 CPU, so nothing
/// to detect), which covers most strings in one step.
#[inline(always)]
fn plain_run_end(buf: &[u8], from: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        let mut i = from;
        while i + 16 <= buf.len() {
            // SAFETY: the sixteen bytes from `i` are inside `buf` (tested
            // above), the load needs no alignment, and SSE2 is part of the
            // x86-64 baseline.
            let stops = unsafe {
                let bytes = _mm_loadu_si128(buf.as_ptr().add(i).cast());
                let quote = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\\' as i8));
                // Below 0x20, unsigned: the byte is its own minimum with 0x1F.
                let control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1F)), bytes);
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control))
            };
            if stops != 0 {
                return i + stops.trailing_zeros() as usize;
            }
            i += 16;
        }
        plain_run_end_by_words(buf, i)
    }
    #[cfg(not(target_arch = "x86_64"))]
    plain_run_end_by_words(buf, from)
}

/// `plain_run_end`, eight bytes at a time (SWAR), then byte by byte: the
/// end of the buffer, and CPUs without SSE2.
#[inline]
fn plain_run_end_by_words(buf: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    while let Some(chunk) = buf.get(i..i + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        // For each test, the lowest flagged byte is exact (higher ones may
        // be false alarms), so the lowest flag overall is the stop.
        let quote = word ^ (ONES * b'"' as u64);
        let backslash = word ^ (ONES * b'\\' as u64);
        let flags = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(ONES * 0x20) & !word);
        let flags = flags & HIGHS;
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < buf.len() && !STRING_STOP[buf[i] as usize] {
        i += 1;
    }
    i
}

pub struct Scanner<'a> {
    text: &'a str,
    buf: &'a [u8],
    pos: usize,
    /// Closers of the containers being skipped; reused between skips.
    stack: Vec<u8>,
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str) -> Self {
        Scanner {
            text,
            buf: text.as_bytes(),
            pos: 0,
            stack: Vec::new(),
        }
    }

    /// A scanner positioned at `pos`, which must start a value.
    pub fn at(text: &'a str, pos: usize) -> Self {
        Scanner {
            pos,
            ..Scanner::new(text)
        }
    }

    /// The offset of the next value, after whitespace.
    pub fn pos(&mut self) -> usize {
        self.skip_ws();
        self.pos
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(InputError::new(
            format!("invalid JSON: {}", message.into()),
            Some(self.pos),
        ))
    }

    #[cold]
    #[inline(never)]
    fn unexpected<T>(&self, wanted: &str) -> Result<T> {
        match self.buf.get(self.pos) {
            None => self.error(format!("unexpected end of input, expected {wanted}")),
            Some(_) => {
                let found = self.text[self.pos..].chars().next().unwrap_or('?');
                self.error(format!("expected {wanted}, found {found:?}"))
            }
        }
    }

    /// After the `,` at `comma`: the next member or element must follow, not
    /// the container's `closer`. A trailing comma is reported at the comma,
    /// where the mistake is, rather than at the closer after it.
    fn no_trailing_comma(&mut self, comma: usize, closer: u8) -> Result<()> {
        self.skip_ws();
        if self.buf.get(self.pos) == Some(&closer) {
            return Err(InputError::new(
                format!("invalid JSON: trailing comma before '{}'", closer as char),
                Some(comma),
            ));
        }
        Ok(())
    }

    /// Called before nearly every token, and most often where there is no
    /// whitespace at all, so the first test is one comparison: every JSON
    /// whitespace byte is at most a space.
    #[inline(always)]
    pub fn skip_ws(&mut self) {
        while let Some(&b) = self.buf.get(self.pos) {
            if b > b' ' || !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                break;
            }
            self.pos += 1;
        }
    }

    /// The kind of the next value, after whitespace.
    #[inline(always)]
    pub fn peek_kind(&mut self) -> Result<Kind> {
        self.skip_ws();
        match self.buf.get(self.pos) {
            Some(b'{') => Ok(Kind::Object),
            Some(b'[') => Ok(Kind::Array),
            Some(b'"') => Ok(Kind::String),
            Some(b't' | b'f') => Ok(Kind::Bool),
            Some(b'n') => Ok(Kind::Null),
            Some(b'-' | b'0'..=b'9') => Ok(Kind::Number),
            _ => self.unexpected("a value"),
        }
    }

    /// After the top-level value: only whitespace may follow.
    pub fn finish(&mut self) -> Result<()> {
        self.skip_ws();
        if self.pos < self.buf.len() {
            return self.error("unexpected data after the end of the document");
        }
        Ok(())
    }

    #[inline(always)]
    fn expect_byte(&mut self, byte: u8, wanted: &str) -> Result<()> {
        if self.buf.get(self.pos) == Some(&byte) {
            self.pos += 1;
            Ok(())
        } else {
            self.unexpected(wanted)
        }
    }

    /// Reads a string value, decoding escapes. Borrowed when it has none.
    /// Inlined: keys and ids are read this way, and nearly all of them are
    /// short and plain, so the call would cost more than the scan.
    #[inline(always)]
    pub fn string(&mut self) -> Result<Cow<'a, str>> {
        self.expect_byte(b'"', "a string")?;
        let start = self.pos;
        let stop = self.scan_plain();
        if self.buf.get(stop) == Some(&b'"') {
            self.pos = stop + 1;
            // SAFETY: `start` follows an opening quote and `stop` holds the
            // closing one; ASCII bytes always sit on character boundaries of
            // valid UTF-8 (which `text` is), so the slice is whole characters.
            // The checked slice would test both ends on every string read.
            return Ok(Cow::Borrowed(unsafe { self.text.get_unchecked(start..stop) }));
        }
        self.string_with_escapes(start, stop)
    }

    /// The rest of a string whose plain run from `start` stopped at `stop`
    /// on something other than its closing quote.
    #[inline(never)]
    fn string_with_escapes(&mut self, start: usize, stop: usize) -> Result<Cow<'a, str>> {
        let mut owned = String::with_capacity(stop - start + 16);
        owned.push_str(&self.text[start..stop]);
        self.pos = stop;
        loop {
            match self.buf.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(owned));
                }
                Some(b'\\') => {
                    let c = self.escape()?;
                    owned.push(c);
                }
                _ => {
                    let from = self.pos;
                    let to = self.scan_plain();
                    if to == from {
                        return self.string_stop_error();
                    }
                    owned.push_str(&self.text[from..to]);
                    self.pos = to;
                }
            }
        }
    }

    /// Validates and skips a string value without decoding it. The plain
    /// case is inlined, as in [`Scanner::string`].
    #[inline(always)]
    pub fn skip_string(&mut self) -> Result<()> {
        self.expect_byte(b'"', "a string")?;
        self.pos = self.scan_plain();
        if self.buf.get(self.pos) == Some(&b'"') {
            self.pos += 1;
            return Ok(());
        }
        self.skip_string_with_escapes()
    }

    #[inline(never)]
    fn skip_string_with_escapes(&mut self) -> Result<()> {
        loop {
            match self.buf.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.escape()?;
                }
                _ => return self.string_stop_error(),
            }
            self.pos = self.scan_plain();
        }
    }

    /// The first position at or after `pos` that stops a plain run.
    #[inline]
    fn scan_plain(&self) -> usize {
        plain_run_end(self.buf, self.pos)
    }

    fn string_stop_error<T>(&self) -> Result<T> {
        match self.buf.get(self.pos) {
            None => self.error("unterminated string"),
            Some(&b) => self.error(format!("control character U+{b:04X} in a string must be escaped")),
        }
    }

    /// Decodes one escape sequence at `pos` (which is at the backslash).
    fn escape(&mut self) -> Result<char> {
        let c = match self.buf.get(self.pos + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => return self.unicode_escape(),
            _ => return self.error("invalid escape sequence"),
        };
        self.pos += 2;
        Ok(c)
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.buf.get(at..at + 4)?;
        let mut value = 0u32;
        for &d in digits {
            value = value * 16 + (d as char).to_digit(16)?;
        }
        Some(value)
    }

    /// `\uXXXX`, pairing surrogates; a lone surrogate is not a character, so
    /// it is refused rather than smuggled through.
    fn unicode_escape(&mut self) -> Result<char> {
        let Some(first) = self.hex4(self.pos + 2) else {
            return self.error("\\u must be followed by four hex digits");
        };
        let code = match first {
            0xD800..=0xDBFF => {
                let low_at = self.pos + 6;
                let low = match (self.buf.get(low_at..low_at + 2), self.hex4(low_at + 2)) {
                    (Some(b"\\u"), Some(low @ 0xDC00..=0xDFFF)) => low,
                    _ => return self.error("lone surrogate in \\u escape (a high surrogate needs a low one)"),
                };
                self.pos += 6;
                0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
            }
            0xDC00..=0xDFFF => return self.error("lone surrogate in \\u escape (a low surrogate without a high one)"),
            other => other,
        };
        self.pos += 6;
        // Every value built above is a valid scalar value.
        Ok(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER))
    }

    fn literal(&mut self, word: &[u8]) -> Result<()> {
        if self.buf.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            self.unexpected("a value")
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.buf.get(self.pos), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Result<()> {
        if self.buf.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match self.buf.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.unexpected("a digit"),
        }
        if self.buf.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return self.unexpected("a digit after the decimal point");
            }
        }
        if matches!(self.buf.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.buf.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return self.unexpected("a digit in the exponent");
            }
        }
        Ok(())
    }

    /// Skips one scalar (string, number, literal); containers are handled
    /// by `skip_value`.
    fn skip_scalar(&mut self, kind: Kind) -> Result<()> {
        match kind {
            Kind::String => self.skip_string(),
            Kind::Number => self.number(),
            Kind::Null => self.literal(b"null"),
            Kind::Bool if self.buf[self.pos] == b't' => self.literal(b"true"),
            Kind::Bool => self.literal(b"false"),
            Kind::Array | Kind::Object | Kind::Foreign => {
                unreachable!("containers are skipped by skip_value")
            }
        }
    }

    /// Validates and skips any value, iteratively.
    pub fn skip_value(&mut self) -> Result<()> {
        self.stack.clear();
        loop {
            // A value is expected here.
            match self.peek_kind()? {
                kind @ (Kind::Object | Kind::Array) => {
                    let closer = if kind == Kind::Object { b'}' } else { b']' };
                    self.pos += 1;
                    self.skip_ws();
                    if self.buf.get(self.pos) == Some(&closer) {
                        self.pos += 1;
                    } else {
                        self.stack.push(closer);
                        if closer == b'}' {
                            self.object_key()?;
                        }
                        continue;
                    }
                }
                kind => self.skip_scalar(kind)?,
            }
            // A value just ended: close containers until one continues.
            loop {
                let Some(&closer) = self.stack.last() else {
                    return Ok(());
                };
                self.skip_ws();
                match self.buf.get(self.pos) {
                    Some(b',') => {
                        let comma = self.pos;
                        self.pos += 1;
                        self.no_trailing_comma(comma, closer)?;
                        if closer == b'}' {
                            self.object_key()?;
                        }
                        break;
                    }
                    Some(&b) if b == closer => {
                        self.pos += 1;
                        self.stack.pop();
                    }
                    _ => {
                        return self.unexpected(if closer == b'}' { "',' or '}'" } else { "',' or ']'" });
                    }
                }
            }
        }
    }

    /// Skips `"key" :` inside an object being skipped.
    fn object_key(&mut self) -> Result<()> {
        if self.buf.get(self.pos) != Some(&b'"') {
            return self.unexpected("a string key");
        }
        self.skip_string()?;
        self.skip_ws();
        self.expect_byte(b':', "':'")
    }

    /// Iterates over an object's members, calling `member` with each key while
    /// positioned at the value; `member` must consume exactly that value.
    /// The caller has checked that an object starts here.
    pub fn object(&mut self, mut member: impl FnMut(&mut Self, Cow<'a, str>) -> Result<()>) -> Result<()> {
        self.skip_ws();
        self.expect_byte(b'{', "'{'")?;
        self.skip_ws();
        if self.buf.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(());
        }
        // Whitespace before each key is already skipped: after the `{`
        // above, and after a `,` by `no_trailing_comma`.
        loop {
            if self.buf.get(self.pos) != Some(&b'"') {
                return self.unexpected("a string key");
            }
            let key = self.string()?;
            self.skip_ws();
            self.expect_byte(b':', "':'")?;
            self.skip_ws();
            member(self, key)?;
            self.skip_ws();
            match self.buf.get(self.pos) {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.no_trailing_comma(comma, b'}')?;
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return self.unexpected("',' or '}'"),
            }
        }
    }

    /// Iterates over an array's elements, calling `element` with each index
    /// while positioned at the element. The caller has checked that an array
    /// starts here.
    pub fn array(&mut self, mut element: impl FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        self.skip_ws();
        self.expect_byte(b'[', "'['")?;
        self.skip_ws();
        if self.buf.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(());
        }
        let mut index = 0;
        // Whitespace before each element is already skipped, as in `object`.
        loop {
            element(self, index)?;
            index += 1;
            self.skip_ws();
            match self.buf.get(self.pos) {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.no_trailing_comma(comma, b']')?;
                }
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return self.unexpected("',' or ']'"),
            }
        }
    }

    /// True when an empty object `{}` starts here (consumed if so).
    pub fn empty_object(&mut self) -> bool {
        let save = self.pos;
        self.pos += 1;
        self.skip_ws();
        if self.buf.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return true;
        }
        self.pos = save;
        false
    }

    /// Reads a field that should be a string; anything else is skipped and
    /// reported by kind.
    ///
    /// The string is read here rather than through `string`: each way out
    /// writes its field straight into the result. Moving a `Cow` from one
    /// temporary to another compiled to a 16-byte load of two 8-byte
    /// stores, which the CPU cannot forward, and that stall was a third of
    /// the time spent reading ids.
    #[inline]
    pub fn field(&mut self) -> Result<Field<'a>> {
        match self.peek_kind()? {
            Kind::String => {
                self.pos += 1; // the opening quote, which `peek_kind` saw
                let start = self.pos;
                let stop = self.scan_plain();
                if self.buf.get(stop) == Some(&b'"') {
                    self.pos = stop + 1;
                    // SAFETY: as in `string`: both ends are at ASCII quotes.
                    return Ok(Field::Str(Cow::Borrowed(unsafe {
                        self.text.get_unchecked(start..stop)
                    })));
                }
                self.string_with_escapes(start, stop).map(Field::Str)
            }
            kind => {
                self.skip_value()?;
                Ok(Field::Other(kind))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip_all(text: &str) -> Result<()> {
        let mut s = Scanner::new(text);
        s.skip_value()?;
        s.finish()
    }

    #[test]
    fn accepts_valid_documents() {
        for doc in [
            "0",
            "-0.5e+10",
            "1E3",
            "\"a\\u00e9\\ud83d\\ude00\\n\"",
            "true",
            "false",
            "null",
            "[]",
            "{}",
            " [1, {\"a\": [true, null]}, \"x\"] ",
            "{\"a\":{\"b\":{}}}",
        ] {
            assert!(skip_all(doc).is_ok(), "{doc}");
        }
    }

    #[test]
    fn refuses_invalid_documents() {
        for doc in [
            "",
            "01",
            "1.",
            "-",
            "1e",
            "NaN",
            "Infinity",
            "[1,]",
            "{\"a\":1,}",
            "{a:1}",
            "[1 2]",
            "\"a",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\u12\"",
            "\"a\u{1}\"",
            "{} x",
            "[",
            "{\"a\"}",
            "tru",
        ] {
            assert!(skip_all(doc).is_err(), "{doc:?}");
        }
    }

    /// The error's message and byte offset, checking that the offset is at a comma.
    fn trailing_comma_error(doc: &str, result: Result<()>) -> (String, usize) {
        let e = result.expect_err(doc);
        let offset = e.offset.expect("JSON errors have an offset");
        assert_eq!(doc.as_bytes().get(offset), Some(&b','), "{doc:?}: {}", e.message);
        (e.message, offset)
    }

    #[test]
    fn a_trailing_comma_is_reported_at_the_comma_when_skipped() {
        for (doc, message, comma) in [
            ("[1, 2,]", "invalid JSON: trailing comma before ']'", 5),
            ("{\"a\": 1,}", "invalid JSON: trailing comma before '}'", 7),
            ("[[1,\n ] ]", "invalid JSON: trailing comma before ']'", 3),
            (
                "{\"a\": {\"b\": [] , \t}}",
                "invalid JSON: trailing comma before '}'",
                15,
            ),
            ("[{}, [], \"x\",\r\n]", "invalid JSON: trailing comma before ']'", 12),
        ] {
            assert_eq!(
                trailing_comma_error(doc, skip_all(doc)),
                (message.to_string(), comma),
                "{doc:?}"
            );
        }
    }

    #[test]
    fn a_trailing_comma_is_reported_at_the_comma_when_read() {
        // `array` and `object`, which the parser reads fields through.
        let doc = "[1, 2 ,  ]";
        let result = Scanner::new(doc).array(|s, _| s.skip_value());
        assert_eq!(
            trailing_comma_error(doc, result),
            ("invalid JSON: trailing comma before ']'".to_string(), 6)
        );
        let doc = "{\"a\": 1,\n}";
        let result = Scanner::new(doc).object(|s, _| s.skip_value());
        assert_eq!(
            trailing_comma_error(doc, result),
            ("invalid JSON: trailing comma before '}'".to_string(), 7)
        );
    }

    #[test]
    fn a_comma_followed_by_anything_else_is_not_called_trailing() {
        // A missing value is still a missing value: `[1,,]` is not a trailing
        // comma at the first comma, and a comma before the wrong closer is
        // not one either.
        for doc in ["[1,,]", "{\"a\": 1,,}", "[1,}", "{\"a\": 1,]", "[1,"] {
            let e = skip_all(doc).expect_err(doc);
            assert!(!e.message.contains("trailing comma"), "{doc:?}: {}", e.message);
        }
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let depth = 200_000;
        let doc = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(skip_all(&doc).is_ok());
        assert!(skip_all(&doc[..doc.len() - 1]).is_err());
    }

    #[test]
    fn plain_run_scans_stop_where_a_byte_loop_stops() {
        // Every byte value at every offset of a run long enough to cross the
        // sixteen- and eight-byte steps and their tails, scanned from several
        // starts, by both scans: only `"`, `\\` and bytes below 0x20 stop
        // (not DEL, not the bytes of multi-byte characters).
        let naive = |buf: &[u8], from: usize| {
            (from..buf.len())
                .find(|&i| STRING_STOP[buf[i] as usize])
                .unwrap_or(buf.len())
        };
        let filler: Vec<u8> = "ab\u{7f}é!#]~ \u{21}".bytes().collect();
        for byte in 0..=255u8 {
            for at in 0..40 {
                for tail in [0, 1, 7, 15, 16, 17, 33] {
                    let mut buf: Vec<u8> = filler.iter().copied().cycle().take(at).collect();
                    buf.push(byte);
                    buf.extend(filler.iter().copied().cycle().take(tail));
                    for from in [0, 1, 5, at.min(9)].into_iter().filter(|&f| f <= buf.len()) {
                        let want = naive(&buf, from);
                        assert_eq!(plain_run_end(&buf, from), want, "{buf:?} from {from}");
                        assert_eq!(plain_run_end_by_words(&buf, from), want, "{buf:?} from {from}");
                    }
                }
            }
        }
        let plain = Scanner::new("no stop byte in this text at all é");
        assert_eq!(plain.scan_plain(), plain.buf.len());
    }

    #[test]
    fn strings_decode_escapes_and_borrow_plain_text() {
        let mut s = Scanner::new("\"plain\"");
        assert!(matches!(s.string().unwrap(), Cow::Borrowed("plain")));
        let mut s = Scanner::new(r#""a\"b\u00e9\ud83d\ude00""#);
        assert_eq!(s.string().unwrap(), "a\"bé😀");
    }

    #[test]
    fn agrees_with_serde_json_on_validity() {
        // A small deterministic corpus of mutations around valid documents.
        let base = r#"{"nodes":[{"id":"a","data":{"label":"x\u00e9"}}],"edges":[1,-2.5e3,true,null]}"#;
        let bytes = base.as_bytes();
        for i in 0..bytes.len() {
            for replacement in [b' ', b'"', b'{', b'}', b'[', b']', b',', b':', b'1', b'\\', b'e'] {
                let mut doc = bytes.to_vec();
                doc[i] = replacement;
                let Ok(text) = std::str::from_utf8(&doc) else {
                    continue;
                };
                let ours = skip_all(text).is_ok();
                let theirs = serde_json::from_str::<serde_json::Value>(text).is_ok();
                assert_eq!(ours, theirs, "{text}");
            }
        }
    }
}
