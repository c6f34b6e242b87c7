//! Stage 2 of the parse: a pull parser over the structural index. It reads
//! the fields the parser asks for and skips every other value by walking
//! its structurals, checking the grammar as it goes (each key a string
//! followed by `:`, values separated by `,`, every container closed by its
//! own closer, numbers and literals well formed), so the whole document is
//! still validated, but the inside of a skipped string is never read.
//!
//! It does not word errors. On any refusal the parse is redone by the byte
//! scanner (`scan`), which says exactly what is wrong and where; this one
//! only has to agree with it on what is valid and on what the fields hold.

use std::borrow::Cow;

use super::index::{Indexer, Refused};
use super::scan::Scanner;
use super::{Pull, Result};
use crate::error::InputError;
use crate::input::{Field, Kind};

/// Bytes that may follow a number or literal: whitespace, an operator, or
/// the end of the text.
static ENDS_SCALAR: [bool; 256] = {
    let mut table = [false; 256];
    let ends = b" \t\n\r{}[]:,";
    let mut i = 0;
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    table
};

pub struct Cursor<'a> {
    text: &'a str,
    buf: &'a [u8],
    indexer: Indexer<'a>,
    /// Offsets of the structurals of the current window.
    tokens: Vec<u32>,
    /// The current structural: `tokens[at]`.
    at: usize,
    /// Closers of the containers being skipped; reused between skips.
    stack: Vec<u8>,
}

/// The message of every refusal, which only `is_refusal` reads: the parse
/// is then redone by the byte scanner, whose errors all say more.
const REFUSAL: &str = "invalid JSON (refused by the structural index)";

/// The refusal every grammar error becomes.
fn refused<T>() -> Result<T> {
    Err(InputError::new(REFUSAL, None))
}

/// Whether `error` is a refusal of this cursor (or of stage 1), not an
/// error the parser worded.
pub fn is_refusal(error: &InputError) -> bool {
    error.message == REFUSAL && error.offset.is_none()
}

impl From<Refused> for InputError {
    fn from(_: Refused) -> Self {
        InputError::new(REFUSAL, None)
    }
}

impl<'a> Cursor<'a> {
    /// A cursor at the first structural of `text`; `indexer` indexes it.
    pub fn new(text: &'a str, indexer: Indexer<'a>) -> Result<Self> {
        let mut cursor = Cursor {
            text,
            buf: text.as_bytes(),
            indexer,
            tokens: Vec::with_capacity(super::index::WINDOW + 64),
            at: 0,
            stack: Vec::new(),
        };
        cursor.refill()?;
        Ok(cursor)
    }

    /// Indexes windows until one has a structural past `at`, or the text
    /// ends. Offsets already read are dropped.
    #[cold]
    fn refill(&mut self) -> Result<()> {
        self.tokens.drain(..self.at.min(self.tokens.len()));
        self.at = 0;
        while self.tokens.len() < 2 && !self.indexer.is_done() {
            self.indexer.fill(&mut self.tokens)?;
        }
        Ok(())
    }

    /// The offset of the current structural, if any is left.
    #[inline(always)]
    fn peek(&mut self) -> Result<Option<usize>> {
        if self.at + 1 >= self.tokens.len() && !self.indexer.is_done() {
            self.refill()?;
        }
        Ok(self.tokens.get(self.at).map(|&t| t as usize))
    }

    /// The current structural's offset and byte; refused at the end.
    #[inline(always)]
    fn current(&mut self) -> Result<(usize, u8)> {
        match self.peek()? {
            Some(at) => Ok((at, self.buf[at])),
            None => refused(),
        }
    }

    /// The offset after the current structural's token: the next
    /// structural's, or the end of the text. `peek` keeps it in the window.
    #[inline(always)]
    fn next_offset(&self) -> usize {
        self.tokens.get(self.at + 1).map_or(self.buf.len(), |&t| t as usize)
    }

    #[inline(always)]
    fn advance(&mut self) {
        self.at += 1;
    }

    /// Moves past the current structural, which must be `byte`.
    #[inline(always)]
    fn expect(&mut self, byte: u8) -> Result<()> {
        if self.current()?.1 != byte {
            return refused();
        }
        self.advance();
        Ok(())
    }

    /// The text of the string that opens at `open`, up to its closing quote:
    /// the last byte before the next structural that is not whitespace.
    #[inline(always)]
    fn string_body(&self, open: usize) -> &'a str {
        let mut close = self.next_offset();
        loop {
            close -= 1;
            if !matches!(self.buf[close], b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
        }
        // SAFETY: `open` and `close` hold quotes (ASCII), so both ends of
        // the range are character boundaries of `text`, and `open < close`.
        unsafe { self.text.get_unchecked(open + 1..close) }
    }

    /// The string at the current structural, decoded; moves past it.
    #[inline(always)]
    fn read_string(&mut self, open: usize) -> Result<Cow<'a, str>> {
        let body = self.string_body(open);
        self.advance();
        if !has_backslash(body.as_bytes()) {
            return Ok(Cow::Borrowed(body));
        }
        // Escapes are rare; stage 1 has checked them, the byte scanner
        // decodes them.
        Scanner::at(self.text, open).string()
    }

    /// Checks the number or literal at `at`: its grammar, and that
    /// whitespace, an operator or the end follows it.
    #[inline(always)]
    fn scalar(&self, at: usize) -> Result<()> {
        let buf = self.buf;
        let end = match buf[at] {
            b't' if buf[at..].starts_with(b"true") => at + 4,
            b'f' if buf[at..].starts_with(b"false") => at + 5,
            b'n' if buf[at..].starts_with(b"null") => at + 4,
            b'-' | b'0'..=b'9' => number_end(buf, at).ok_or(()).or_else(|()| refused())?,
            _ => return refused(),
        };
        match buf.get(end) {
            Some(&b) if !ENDS_SCALAR[b as usize] => refused(),
            _ => Ok(()),
        }
    }

    /// Skips the container that opens at the current structural, checking
    /// its grammar, without recursion.
    fn skip_container(&mut self) -> Result<()> {
        self.stack.clear();
        loop {
            // A value starts here.
            let (at, byte) = self.current()?;
            self.advance();
            match byte {
                b'{' | b'[' => {
                    let closer = byte + 2; // `}` is `{` + 2, `]` is `[` + 2
                    if self.current()?.1 == closer {
                        self.advance();
                    } else {
                        self.stack.push(closer);
                        if closer == b'}' {
                            self.skip_key()?;
                        }
                        continue;
                    }
                }
                b'"' => {}
                b'}' | b']' | b':' | b',' => return refused(),
                _ => self.scalar(at)?,
            }
            // A value ended: close containers until one goes on.
            loop {
                let Some(&closer) = self.stack.last() else {
                    return Ok(());
                };
                let (_, byte) = self.current()?;
                self.advance();
                if byte == b',' {
                    if closer == b'}' {
                        self.skip_key()?;
                    }
                    break;
                }
                if byte != closer {
                    return refused();
                }
                self.stack.pop();
            }
        }
    }

    /// Moves past `"key" :`.
    #[inline(always)]
    fn skip_key(&mut self) -> Result<()> {
        self.expect(b'"')?;
        self.expect(b':')
    }
}

/// Whether `bytes` holds a backslash. Eight bytes at a time: most strings
/// read are short keys and ids, too short for a SIMD search to pay off.
#[inline(always)]
fn has_backslash(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const BACKSLASHES: u64 = ONES * b'\\' as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().unwrap_or([0; 8])) ^ BACKSLASHES;
        if x.wrapping_sub(ONES) & !x & (ONES << 7) != 0 {
            return true;
        }
    }
    words.remainder().contains(&b'\\')
}

/// The end of the number at `at`:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, or `None`.
#[inline(always)]
fn number_end(buf: &[u8], mut at: usize) -> Option<usize> {
    let digits = |mut at: usize| {
        let start = at;
        while buf.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        (at > start).then_some(at)
    };
    if buf[at] == b'-' {
        at += 1;
    }
    at = match buf.get(at)? {
        b'0' => at + 1,
        b'1'..=b'9' => digits(at)?,
        _ => return None,
    };
    if buf.get(at) == Some(&b'.') {
        at = digits(at + 1)?;
    }
    if matches!(buf.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(buf.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        at = digits(at)?;
    }
    Some(at)
}

impl<'a> Pull<'a> for Cursor<'a> {
    fn pos(&mut self) -> usize {
        match self.peek() {
            Ok(Some(at)) => at,
            _ => self.buf.len(),
        }
    }

    fn peek_kind(&mut self) -> Result<Kind> {
        Ok(match self.current()?.1 {
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b'"' => Kind::String,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            b'-' | b'0'..=b'9' => Kind::Number,
            _ => return refused(),
        })
    }

    fn skip_value(&mut self) -> Result<()> {
        let (at, byte) = self.current()?;
        match byte {
            b'{' | b'[' => self.skip_container(),
            b'"' => {
                self.advance();
                Ok(())
            }
            b'}' | b']' | b':' | b',' => refused(),
            _ => {
                self.scalar(at)?;
                self.advance();
                Ok(())
            }
        }
    }

    fn finish(&mut self) -> Result<()> {
        match self.peek()? {
            None => Ok(()),
            Some(_) => refused(),
        }
    }

    fn string(&mut self) -> Result<Cow<'a, str>> {
        let (at, byte) = self.current()?;
        if byte != b'"' {
            return refused();
        }
        self.read_string(at)
    }

    fn field(&mut self) -> Result<Field<'a>> {
        let (at, byte) = self.current()?;
        if byte == b'"' {
            return Ok(Field::Str(self.read_string(at)?));
        }
        let kind = self.peek_kind()?;
        self.skip_value()?;
        Ok(Field::Other(kind))
    }

    fn empty_object(&mut self) -> Result<bool> {
        if self.current()?.1 != b'{' {
            return refused();
        }
        // `current` keeps the structural after this one in the window.
        let empty = self
            .tokens
            .get(self.at + 1)
            .is_some_and(|&t| self.buf[t as usize] == b'}');
        if empty {
            self.at += 2;
        }
        Ok(empty)
    }

    fn object(&mut self, mut member: impl FnMut(&mut Self, Cow<'a, str>) -> Result<()>) -> Result<()> {
        self.expect(b'{')?;
        if self.current()?.1 == b'}' {
            self.advance();
            return Ok(());
        }
        loop {
            let key = self.string()?;
            self.expect(b':')?;
            member(self, key)?;
            match self.current()?.1 {
                b',' => self.advance(),
                b'}' => {
                    self.advance();
                    return Ok(());
                }
                _ => return refused(),
            }
        }
    }

    fn array(&mut self, mut element: impl FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        self.expect(b'[')?;
        if self.current()?.1 == b']' {
            self.advance();
            return Ok(());
        }
        let mut index = 0;
        loop {
            element(self, index)?;
            index += 1;
            match self.current()?.1 {
                b',' => self.advance(),
                b']' => {
                    self.advance();
                    return Ok(());
                }
                _ => return refused(),
            }
        }
    }
}
