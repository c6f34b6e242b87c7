//! A strict YAML 1.2 event reader over `&str`: what the workflow reader and
//! the node-type catalogue reader (CMP-10) build on, so both refuse the same
//! documents in the same words (SEMANTICS.md section 10).
//!
//! ```text
//! let mut events = Events::new(text);        // or Events::with_limits
//! match events.next()?.event { ... }         // or events.peek()?
//! events.skip_value()?;                      // a whole value, aliases unread
//! events.finish()?;                          // after the root value
//! ```
//!
//! [`Events::next`] yields the root value as a stream of [`Item`]s: mapping
//! and sequence starts and ends, and scalars ([`Scalar`]: the value as a
//! `Cow<str>`, borrowed unless escapes or line folding changed it, and
//! whether it was plain, so [`Scalar::kind`] can resolve it by the core
//! schema). Every item carries the byte offset of its start in the text
//! (the parser counts characters; this layer turns them into bytes), so
//! `locate.rs` gives lines and columns. Keys are scalars like any other: in
//! a mapping, items alternate key, value.
//!
//! What it refuses, as an [`InputError`] at a byte offset:
//!
//! - invalid YAML (the parser's own message, prefixed `invalid YAML: `),
//!   and what the parser lets through but YAML forbids: characters outside
//!   the printable set, `|` or `>` starting a value in flow content;
//! - YAML 1.1: a `%YAML` directive other than 1.2, and a plain merge key
//!   `<<` (never merged here, so reading it as a key would change what
//!   the document means without a word);
//! - a key repeated in any mapping, read or skipped, at the second key
//!   (YAML 1.2 requires unique keys; Symfony's parser, which Drupal uses,
//!   refuses them too). Keys compare by their core-schema value: `y` and
//!   `'y'` are one key, `1` and `'1'` are not, `1` and `0x1` are;
//! - a mapping or sequence used as a key, and any tag other than `!!str`,
//!   `!!map` and `!!seq` (Drupal writes neither; refusing them keeps the
//!   meaning of every accepted document plain);
//! - a second document in the stream, naming its line;
//! - nesting deeper than [`Limits::depth`];
//! - aliases whose expansions add up to more than [`Limits::alias_events`]
//!   events. Each alias is charged the size of what it names when the
//!   parser meets it, counted from sizes recorded with each anchor, so a
//!   "billion laughs" document is refused after reading its own bytes,
//!   never after expanding anything; and aliases standing for more scalar
//!   bytes than [`Limits::alias_bytes_per_byte`] times the text (many
//!   aliases to one large scalar), likewise.
//!
//! Aliases are never copied into a tree: an anchored value's events are
//! kept once (borrowed strings, so memory follows the anchored bytes), and
//! [`Events::next`] replays them where an alias stands, each replayed item
//! at the offset of the anchored original. [`Events::skip_value`] passes
//! over an alias without replaying it. Keeping costs some 50 bytes per
//! event of an anchored value (strings stay borrowed where the text spells
//! them as they are), so a document that anchors most of itself costs a
//! few times its size; real Drupal exports anchor nothing.
//!
//! One module, though long (over a quarter of it tests): the refusals and the
//! alias replay act on each event as it passes, on the same open frames and the
//! same budgets, in the order the parser yields them; split, each would need
//! the other's state. What a scalar means (the core schema, keys compared by
//! value) is in `schema.rs`.

use std::borrow::Cow;
use std::collections::VecDeque;

use saphyr_parser::{Event as Raw, Parser, ScalarStyle, ScanError, Span, StrInput, Tag};

use crate::error::InputError;
use crate::input::Kind;
use crate::maps::Set;

use super::schema::{key_of, Key, LONGEST_NUMBER_KEY};
// Public at the path it had before `schema` was split off (`events` is public).
pub use super::schema::core_schema;

pub type Result<T> = std::result::Result<T, InputError>;

/// Bounds on what one document may cost beyond its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Open mappings and sequences at once, replayed aliases included.
    pub depth: usize,
    /// Events that aliases may stand for, over the whole document.
    pub alias_events: u64,
    /// Bytes of scalars that aliases may stand for, over the whole
    /// document, per byte of its text: each replay of an alias hands its
    /// scalars out again, so this bounds the work and memory of replays by
    /// a fixed multiple of the text (aliases to one large scalar would
    /// otherwise cost aliases x scalar).
    pub alias_bytes_per_byte: u64,
    /// ... but never less than this, so a small file may still share a
    /// few labels by alias.
    pub alias_bytes_floor: u64,
}

impl Default for Limits {
    fn default() -> Self {
        // Drupal config nests about ten deep and uses no aliases at all:
        // both bounds leave real documents far inside and keep a hostile
        // one to milliseconds.
        Limits {
            depth: 1_000,
            alias_events: 1_000_000,
            alias_bytes_per_byte: 10,
            alias_bytes_floor: 1 << 20,
        }
    }
}

/// A scalar's value and how it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar<'a> {
    pub value: Cow<'a, str>,
    /// Plain (unquoted, not a block scalar, no `!!str` tag): only a plain
    /// scalar can be anything but a string.
    pub plain: bool,
}

impl Scalar<'_> {
    /// What the YAML 1.2 core schema makes of it: a string unless plain and
    /// spelled as null, a boolean or a number.
    pub fn kind(&self) -> Kind {
        if self.plain {
            core_schema(&self.value)
        } else {
            Kind::String
        }
    }
}

/// One event of the document's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<'a> {
    MappingStart,
    MappingEnd,
    SequenceStart,
    SequenceEnd,
    Scalar(Scalar<'a>),
}

/// An event and the byte offset where it starts in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item<'a> {
    pub event: Event<'a>,
    pub at: usize,
}

impl Item<'_> {
    /// The kind of the value this item starts (`Kind::Object` for a
    /// mapping); an end event has none and says `Kind::Foreign`.
    pub fn kind(&self) -> Kind {
        match &self.event {
            Event::MappingStart => Kind::Object,
            Event::SequenceStart => Kind::Array,
            Event::Scalar(s) => s.kind(),
            Event::MappingEnd | Event::SequenceEnd => Kind::Foreign,
        }
    }
}

/// Character offsets (what the parser's markers count) to byte offsets,
/// with a cursor: markers arrive nearly in order, so each step is short.
struct Offsets<'a> {
    text: &'a [u8],
    ascii: bool,
    chars: usize,
    bytes: usize,
    /// Characters before the piece the parser reads (its positions count
    /// from the piece's start).
    piece_chars: usize,
}

impl<'a> Offsets<'a> {
    /// Offsets into `text` of a parser that reads it from byte `start`,
    /// which is character `start_chars`.
    fn new(text: &'a str, start: usize, start_chars: usize) -> Self {
        Offsets {
            text: text.as_bytes(),
            ascii: text.is_ascii(),
            chars: start_chars,
            bytes: start,
            piece_chars: start_chars,
        }
    }

    /// The byte offset in the text of the parser's character `chars`.
    fn byte(&mut self, chars: usize) -> usize {
        let chars = chars + self.piece_chars;
        let len = self.text.len();
        if self.ascii {
            return chars.min(len);
        }
        let continuation = |b: u8| b & 0xC0 == 0x80;
        // Most stretches between two markers are ASCII even in a text that
        // is not: then characters are bytes, and one check covers them.
        if self.chars < chars {
            let end = (self.bytes + (chars - self.chars)).min(len);
            if self.text[self.bytes..end].is_ascii() {
                self.chars += end - self.bytes;
                self.bytes = end;
            }
        }
        while self.chars < chars && self.bytes < len {
            self.bytes += 1;
            while self.bytes < len && continuation(self.text[self.bytes]) {
                self.bytes += 1;
            }
            self.chars += 1;
        }
        while self.chars > chars {
            self.bytes -= 1;
            while self.bytes > 0 && continuation(self.text[self.bytes]) {
                self.bytes -= 1;
            }
            self.chars -= 1;
        }
        self.bytes
    }
}

/// A stretch of the text that a parser reads on its own: bytes
/// `start..end`, `start` being character `start_chars` of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Piece {
    pub start: usize,
    pub end: usize,
    pub start_chars: usize,
}

impl Piece {
    pub fn whole(text: &str) -> Self {
        Piece {
            start: 0,
            end: text.len(),
            start_chars: 0,
        }
    }
}

/// What the checks below the replay see: a content item, or an alias.
enum Shallow<'a> {
    Item(Item<'a>),
    /// An alias of anchor `id`, at its offset.
    Alias(usize, usize),
}

/// A kept event of an anchored value.
#[derive(Clone)]
enum Kept<'a> {
    Item(Item<'a>),
    Alias(usize),
}

/// An anchor's kept events (`start..end` in `Events::kept`), and how many
/// events it stands for with its own aliases expanded.
#[derive(Clone, Copy)]
struct Anchor {
    start: usize,
    end: usize,
    size: u64,
    /// Bytes of the scalars it stands for, its aliases expanded.
    bytes: u64,
}

/// An anchored collection whose events are being kept.
struct Keeping {
    id: usize,
    start: usize,
    /// `Events::kept_weight` and `Events::kept_bytes` when it started.
    weight: u64,
    bytes: u64,
    /// The depth inside it: it is complete when the depth drops below this.
    depth: usize,
    /// A scalar: complete as soon as it is kept.
    scalar: bool,
}

/// An open mapping or sequence.
#[derive(Default)]
struct Frame<'a> {
    mapping: bool,
    /// In a mapping: the next item is a key.
    expect_key: bool,
    /// The keys seen, while few (compared one by one) ...
    keys: Vec<Key<'a>>,
    /// ... and all of them in a set once many.
    set: Option<Set<Key<'a>>>,
}

/// Keys compared one by one up to this many per mapping.
const FEW_KEYS: usize = 16;

/// What the parser yields: an event and its span, or its error; `None`
/// past the end.
pub type RawEvent<'a> = Option<std::result::Result<(Raw<'a>, Span), ScanError>>;

/// Where [`Events`] gets the parser's events: the parser itself, or (for
/// large texts) a parser running on another thread that hands its events
/// over in batches, so checking and reading them overlaps parsing.
pub trait RawEvents<'a> {
    fn next_raw(&mut self) -> RawEvent<'a>;

    /// A string of the parser's that is no longer needed. Dropped here,
    /// unless the parser runs on another thread: freeing there what that
    /// thread allocated keeps the two threads off one allocator lock.
    fn discard(&mut self, value: String) {
        drop(value);
    }
}

impl<'a> RawEvents<'a> for Parser<'a, StrInput<'a>> {
    fn next_raw(&mut self) -> RawEvent<'a> {
        self.next_event()
    }
}

/// The strict reader (see the module doc).
pub struct Events<'a, R: RawEvents<'a> = Parser<'a, StrInput<'a>>> {
    parser: R,
    text: &'a str,
    offsets: Offsets<'a>,
    limits: Limits,
    /// Where the stream is: before the document, in it, after its root.
    started: bool,
    root_done: bool,
    finished: bool,
    /// Open collections of the parsed text (`frames[..depth]`; frames past
    /// `depth` are kept only for their allocations).
    frames: Vec<Frame<'a>>,
    depth: usize,
    /// Open collections as yielded, replays included.
    out_depth: usize,
    kept: Vec<Kept<'a>>,
    /// Events the kept ones stand for, aliases expanded (saturating).
    kept_weight: u64,
    /// Scalar bytes the kept ones stand for, aliases expanded (saturating).
    kept_bytes: u64,
    keeping: Vec<Keeping>,
    /// By anchor id (the parser numbers anchors from 1); `None` while the
    /// anchored value is still being read.
    anchors: Vec<Option<Anchor>>,
    alias_events: u64,
    /// Scalar bytes the aliases met so far stand for, and the bound on them.
    alias_bytes: u64,
    alias_bytes_budget: u64,
    /// The first character YAML does not allow in a text, if any: found in
    /// one pass before reading, reported before anything else.
    unprintable: Option<usize>,
    /// Kept events being replayed: (next, end), innermost last.
    replay: Vec<(usize, usize)>,
    /// Items read ahead (at most two), already counted in `out_depth`.
    peeked: VecDeque<Item<'a>>,
}

impl<'a> Events<'a> {
    pub fn new(text: &'a str) -> Self {
        Events::with_limits(text, Limits::default())
    }

    pub fn with_limits(text: &'a str, limits: Limits) -> Self {
        Events::from_raw(text, limits, Parser::new_from_str(text))
    }
}

impl<'a, R: RawEvents<'a>> Events<'a, R> {
    /// A reader of `text` whose parser's events come from `parser`.
    pub fn from_raw(text: &'a str, limits: Limits, parser: R) -> Self {
        Events::of_piece(text, Piece::whole(text), limits, parser)
    }

    /// A reader of `piece` of `text`, whose parser reads the piece alone:
    /// the parser's positions count from the piece's start, and every
    /// offset this reader gives counts from the text's, as a reader of the
    /// whole text would give it at that place (see `super::pieces`).
    pub(super) fn of_piece(text: &'a str, piece: Piece, limits: Limits, parser: R) -> Self {
        let bytes = &text.as_bytes()[piece.start..piece.end];
        Events {
            parser,
            text,
            offsets: Offsets::new(text, piece.start, piece.start_chars),
            limits,
            started: false,
            root_done: false,
            finished: false,
            frames: Vec::new(),
            depth: 0,
            out_depth: 0,
            kept: Vec::new(),
            kept_weight: 0,
            kept_bytes: 0,
            keeping: Vec::new(),
            anchors: Vec::new(),
            alias_events: 0,
            alias_bytes: 0,
            alias_bytes_budget: (text.len() as u64)
                .saturating_mul(limits.alias_bytes_per_byte)
                .max(limits.alias_bytes_floor),
            unprintable: first_unprintable(bytes).map(|at| at + piece.start),
            replay: Vec::new(),
            peeked: VecDeque::with_capacity(2),
        }
    }

    /// The text being read.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Whether an anchor or an alias was met: their budget is the whole
    /// text's, so a text read in pieces that holds any is read again whole.
    pub(super) fn met_anchors(&self) -> bool {
        !self.anchors.is_empty() || self.alias_events > 0
    }

    /// The keys of the root mapping, once it is read (none if the root is
    /// not a mapping), as the repeated-key check compares them.
    pub(super) fn root_keys(&mut self) -> Vec<Key<'a>> {
        match self.frames.first_mut() {
            Some(root) if root.mapping => match root.set.take() {
                Some(set) => set.into_iter().collect(),
                None => std::mem::take(&mut root.keys),
            },
            _ => Vec::new(),
        }
    }

    /// The next item of the root value. An empty document (or none) is a
    /// null scalar; asking past the root value is an error.
    #[allow(clippy::should_implement_trait)] // fallible, and not an iterator
    pub fn next(&mut self) -> Result<Item<'a>> {
        match self.peeked.pop_front() {
            Some(item) => Ok(item),
            None => self.expanded(),
        }
    }

    /// The next item, left to be read again.
    pub fn peek(&mut self) -> Result<&Item<'a>> {
        self.peek_nth(0)
    }

    /// The item after the next one, both left to be read again (to see
    /// whether a mapping is empty before reading it).
    pub fn peek_second(&mut self) -> Result<&Item<'a>> {
        self.peek_nth(1)
    }

    fn peek_nth(&mut self, n: usize) -> Result<&Item<'a>> {
        while self.peeked.len() <= n {
            let item = self.expanded()?;
            self.peeked.push_back(item);
        }
        Ok(&self.peeked[n])
    }

    /// The next item, an alias replaced by a replay of its anchor's events.
    fn expanded(&mut self) -> Result<Item<'a>> {
        loop {
            match self.next_shallow()? {
                Shallow::Item(item) => {
                    self.count_out(&item)?;
                    return Ok(item);
                }
                Shallow::Alias(id, _) => self.start_replay(id),
            }
        }
    }

    /// The byte offset of the next item.
    pub fn pos(&mut self) -> Result<usize> {
        Ok(self.peek()?.at)
    }

    /// Skips one whole value (a scalar, an alias, or a collection to its
    /// end); every check above still applies to what it passes over, but
    /// an alias costs nothing to pass.
    pub fn skip_value(&mut self) -> Result<()> {
        // Signed: an end event where a value was expected (a reader's
        // mistake) ends the skip instead of wrapping around.
        let mut open: isize = 0;
        loop {
            let shallow = match self.peeked.pop_front() {
                Some(item) => {
                    self.count_back(&item);
                    Shallow::Item(item)
                }
                None => self.next_shallow()?,
            };
            if let Shallow::Item(item) = shallow {
                match item.event {
                    Event::MappingStart | Event::SequenceStart => open += 1,
                    Event::MappingEnd | Event::SequenceEnd => open -= 1,
                    Event::Scalar(_) => {}
                }
            }
            if open <= 0 {
                return Ok(());
            }
        }
    }

    /// After the root value: the stream must end here (no second document).
    pub fn finish(&mut self) -> Result<()> {
        self.replay.retain(|(next, end)| next != end);
        if !self.peeked.is_empty() || !self.replay.is_empty() || !self.root_done {
            let at = self.peeked.front().map_or(0, |i| i.at);
            return Err(InputError::new(
                "the YAML document was not read to its end (a reader's mistake)",
                Some(at),
            ));
        }
        while !self.finished {
            let (event, span) = self.raw()?;
            self.after_root(&event, span)?;
        }
        Ok(())
    }

    /// Yielded depth: counts what `next` hands out, replays included.
    fn count_out(&mut self, item: &Item<'a>) -> Result<()> {
        match item.event {
            Event::MappingStart | Event::SequenceStart => {
                self.out_depth += 1;
                if self.out_depth > self.limits.depth {
                    return Err(too_deep(self.limits.depth, item.at));
                }
            }
            Event::MappingEnd | Event::SequenceEnd => self.out_depth -= 1,
            Event::Scalar(_) => {}
        }
        Ok(())
    }

    /// A peeked item is skipped instead of read: undo its count.
    fn count_back(&mut self, item: &Item<'a>) {
        match item.event {
            Event::MappingStart | Event::SequenceStart => self.out_depth -= 1,
            Event::MappingEnd | Event::SequenceEnd => self.out_depth += 1,
            Event::Scalar(_) => {}
        }
    }

    fn start_replay(&mut self, id: usize) {
        if let Some(Some(anchor)) = self.anchors.get(id) {
            self.replay.push((anchor.start, anchor.end));
        }
    }

    /// The next item or alias: from a replay when one is open, otherwise
    /// from the parser, checked.
    fn next_shallow(&mut self) -> Result<Shallow<'a>> {
        while let Some((next, end)) = self.replay.last_mut() {
            if *next == *end {
                self.replay.pop();
                continue;
            }
            let kept = self.kept[*next].clone();
            *next += 1;
            return Ok(match kept {
                Kept::Item(item) => Shallow::Item(item),
                Kept::Alias(id) => Shallow::Alias(id, 0),
            });
        }
        self.parsed()
    }

    /// The parser's next event, with the parser's error turned into ours.
    fn raw(&mut self) -> Result<(Raw<'a>, Span)> {
        match self.parser.next_raw() {
            Some(Ok(pair)) => Ok(pair),
            Some(Err(e)) => Err(self.scan_error(&e)),
            None => Ok((Raw::StreamEnd, Span::default())),
        }
    }

    fn scan_error(&mut self, e: &ScanError) -> InputError {
        let at = self.offsets.byte(e.marker().index());
        InputError::new(format!("invalid YAML: {}", e.info()), Some(at))
    }

    /// The next content event of the parsed text, checked.
    fn parsed(&mut self) -> Result<Shallow<'a>> {
        if let Some(at) = self.unprintable {
            return Err(unprintable_error(self.text, at));
        }
        loop {
            if self.root_done {
                return Err(InputError::new(
                    "the YAML document has no more values here (a reader's mistake)",
                    Some(self.text.len()),
                ));
            }
            let (event, span) = self.raw()?;
            let at = self.offsets.byte(span.start.index());
            let shallow = match event {
                Raw::Nothing | Raw::StreamStart => continue,
                Raw::DocumentStart(explicit) if !self.started => {
                    self.started = true;
                    // Directives stand only before an explicit `---`, and
                    // the parser reads `%YAML` without saying which.
                    if explicit {
                        check_version(self.text, at)?;
                    }
                    continue;
                }
                Raw::DocumentStart(_) => return Err(self.second_document(at)),
                // No document at all, or one that ends before a value:
                // a null root.
                Raw::StreamEnd | Raw::DocumentEnd => {
                    self.finished = matches!(event, Raw::StreamEnd);
                    self.root_done = true;
                    return Ok(Shallow::Item(Item {
                        event: Event::Scalar(Scalar {
                            value: Cow::Borrowed(""),
                            plain: true,
                        }),
                        at: 0,
                    }));
                }
                Raw::Alias(id) => Shallow::Alias(id, at),
                Raw::Scalar(value, style, anchor, tag) => {
                    // The parser reads `|` and `>` in flow content as the
                    // start of a plain scalar, which YAML forbids (no plain
                    // scalar starts with an indicator; no block scalar
                    // stands in flow content).
                    if style == ScalarStyle::Plain && value.starts_with(['|', '>']) {
                        return Err(InputError::new(
                            "invalid YAML: a block scalar (`|` or `>`) inside a flow collection (`{...}` or `[...]`)",
                            Some(at),
                        ));
                    }
                    let value = self.borrowed(value, at, span);
                    let plain = match tag {
                        None => style == ScalarStyle::Plain,
                        Some(tag) if is_core(&tag, "str") => false,
                        Some(tag) => return Err(unsupported_tag(self.text, &tag, at)),
                    };
                    self.anchored(
                        anchor,
                        Item {
                            event: Event::Scalar(Scalar { value, plain }),
                            at,
                        },
                    )
                }
                Raw::MappingStart(anchor, ref tag) | Raw::SequenceStart(anchor, ref tag) => {
                    let mapping = matches!(event, Raw::MappingStart(..));
                    if let Some(tag) = tag {
                        if !is_core(tag, if mapping { "map" } else { "seq" }) {
                            return Err(unsupported_tag(self.text, tag, at));
                        }
                    }
                    let event = if mapping {
                        Event::MappingStart
                    } else {
                        Event::SequenceStart
                    };
                    self.anchored(anchor, Item { event, at })
                }
                Raw::MappingEnd => Shallow::Item(Item {
                    event: Event::MappingEnd,
                    at,
                }),
                Raw::SequenceEnd => Shallow::Item(Item {
                    event: Event::SequenceEnd,
                    at,
                }),
            };
            self.check(&shallow)?;
            return Ok(shallow);
        }
    }

    /// `value` borrowed from the text when the text spells it as it is,
    /// bare or between its quotes (a scalar without escapes, folding or
    /// doubled quotes): the parser builds every plain or quoted scalar as
    /// a new `String`, and a borrowed one costs nothing to keep as a key or
    /// hand to the graph (Drupal quotes most labels).
    fn borrowed(&mut self, value: Cow<'a, str>, at: usize, span: Span) -> Cow<'a, str> {
        if let Cow::Owned(owned) = value {
            let end = self.offsets.byte(span.end.index());
            if let Some(spelled) = self.text.get(at..end) {
                let quoted = |quote: char| {
                    spelled
                        .strip_prefix(quote)
                        .and_then(|inner| inner.strip_suffix(quote))
                        .filter(|inner| *inner == owned)
                };
                if let Some(same) = Some(spelled)
                    .filter(|s| *s == owned)
                    .or_else(|| quoted('\''))
                    .or_else(|| quoted('"'))
                {
                    self.parser.discard(owned);
                    return Cow::Borrowed(same);
                }
            }
            return Cow::Owned(owned);
        }
        value
    }

    /// Marks where an anchored value starts (a collection is kept from
    /// here to its end).
    fn anchored(&mut self, anchor: usize, item: Item<'a>) -> Shallow<'a> {
        if anchor > 0 {
            if self.anchors.len() <= anchor {
                self.anchors.resize(anchor + 1, None);
            }
            self.anchors[anchor] = None;
            self.keeping.push(Keeping {
                id: anchor,
                start: self.kept.len(),
                weight: self.kept_weight,
                bytes: self.kept_bytes,
                depth: self.depth + usize::from(starts(&item.event)),
                scalar: !starts(&item.event),
            });
        }
        Shallow::Item(item)
    }

    /// The checks on each parsed event: keys, depth, anchors and aliases.
    fn check(&mut self, shallow: &Shallow<'a>) -> Result<()> {
        let (item, alias) = match shallow {
            Shallow::Item(item) => (Some(item), None),
            Shallow::Alias(id, at) => (None, Some((*id, *at))),
        };
        // The alias's size: what it adds to the document's budget and to
        // every anchor being kept around it.
        let mut weight = 1;
        let mut bytes = match item.map(|i| &i.event) {
            Some(Event::Scalar(s)) => s.value.len() as u64,
            _ => 0,
        };
        if let Some((id, at)) = alias {
            let anchor = match self.anchors.get(id) {
                Some(Some(anchor)) => *anchor,
                _ => {
                    return Err(InputError::new(
                        "an alias inside the value its anchor names (a recursive alias)",
                        Some(at),
                    ))
                }
            };
            weight = anchor.size;
            bytes = anchor.bytes;
            self.alias_bytes = self.alias_bytes.saturating_add(anchor.bytes);
            if self.alias_bytes > self.alias_bytes_budget {
                return Err(InputError::new(
                    format!(
                        "the YAML document's aliases stand for more than {} bytes of scalars ({} times its size; a \"billion laughs\" document?)",
                        self.alias_bytes_budget, self.limits.alias_bytes_per_byte
                    ),
                    Some(at),
                ));
            }
            self.alias_events = self.alias_events.saturating_add(anchor.size);
            if self.alias_events > self.limits.alias_events {
                return Err(InputError::new(
                    format!(
                        "the YAML document's aliases stand for more than {} events (a \"billion laughs\" document?)",
                        self.limits.alias_events
                    ),
                    Some(at),
                ));
            }
        }
        let at = item.map_or_else(|| alias.map_or(0, |a| a.1), |i| i.at);
        self.place(item, alias.map(|a| a.0), at)?;
        if !self.keeping.is_empty() {
            self.kept.push(match shallow {
                Shallow::Item(item) => Kept::Item(item.clone()),
                Shallow::Alias(id, _) => Kept::Alias(*id),
            });
            self.kept_weight = self.kept_weight.saturating_add(weight);
            self.kept_bytes = self.kept_bytes.saturating_add(bytes);
        }
        // Anchors whose value just ended.
        while let Some(top) = self.keeping.last() {
            if !top.scalar && self.depth >= top.depth {
                break;
            }
            let done = self.keeping.pop().expect("just seen");
            self.anchors[done.id] = Some(Anchor {
                start: done.start,
                end: self.kept.len(),
                size: self.kept_weight - done.weight,
                bytes: self.kept_bytes - done.bytes,
            });
        }
        if self.depth == 0 {
            self.root_done = true;
        }
        Ok(())
    }

    /// Where an item or alias stands in the open collections: a key (checked
    /// for repeats) or a value; opens or closes a collection.
    fn place(&mut self, item: Option<&Item<'a>>, alias: Option<usize>, at: usize) -> Result<()> {
        let depth = self.depth;
        if depth > 0 && self.frames[depth - 1].mapping {
            let closing = matches!(
                item,
                Some(Item {
                    event: Event::MappingEnd,
                    ..
                })
            );
            if self.frames[depth - 1].expect_key && !closing {
                let key = match (item, alias) {
                    (
                        Some(Item {
                            event: Event::Scalar(s),
                            ..
                        }),
                        _,
                    ) => Some(s.clone()),
                    (None, Some(id)) => self.anchored_scalar(id),
                    _ => None,
                };
                let Some(key) = key else {
                    return Err(InputError::new(
                        "a mapping or sequence used as a key (not supported)",
                        Some(at),
                    ));
                };
                // CMP-9 reads labels that a merge would have changed:
                // refusing `<<` keeps YAML 1.1 documents from passing
                // unmerged (a quoted '<<' is a plain string key).
                if key.plain && key.value == "<<" {
                    return Err(InputError::new(
                        "a merge key `<<` is YAML 1.1, not YAML 1.2's core schema (Drupal never writes one): not supported; write the merged keys out",
                        Some(at),
                    ));
                }
                let Some(key) = key_of(key) else {
                    return Err(InputError::new(
                        format!("a number used as a key is longer than {LONGEST_NUMBER_KEY} characters (too long to compare by value)"),
                        Some(at),
                    ));
                };
                let frame = &mut self.frames[depth - 1];
                frame.expect_key = false;
                if !remember(frame, key) {
                    return Err(InputError::new(
                        "a key repeated in one mapping (YAML requires unique keys)",
                        Some(at),
                    ));
                }
                return Ok(());
            }
            self.frames[depth - 1].expect_key = true;
        }
        match item.map(|i| &i.event) {
            Some(Event::MappingStart) | Some(Event::SequenceStart) => {
                if depth >= self.limits.depth {
                    return Err(too_deep(self.limits.depth, at));
                }
                if self.frames.len() == depth {
                    self.frames.push(Frame::default());
                }
                let frame = &mut self.frames[depth];
                frame.mapping = matches!(item.map(|i| &i.event), Some(Event::MappingStart));
                frame.expect_key = true;
                frame.keys.clear();
                frame.set = None;
                self.depth += 1;
            }
            Some(Event::MappingEnd) | Some(Event::SequenceEnd) => self.depth -= 1,
            _ => {}
        }
        Ok(())
    }

    /// The scalar anchor `id` names, if it names a scalar.
    fn anchored_scalar(&self, id: usize) -> Option<Scalar<'a>> {
        let anchor = self.anchors.get(id).copied().flatten()?;
        match &self.kept[anchor.start] {
            Kept::Item(Item {
                event: Event::Scalar(s),
                ..
            }) => Some(s.clone()),
            _ => None,
        }
    }

    /// After the root value: the rest of the stream, which may end the
    /// document but not start another.
    fn after_root(&mut self, event: &Raw<'a>, span: Span) -> Result<()> {
        match event {
            Raw::DocumentEnd | Raw::Nothing => Ok(()),
            Raw::StreamEnd => {
                self.finished = true;
                Ok(())
            }
            _ => {
                let at = self.offsets.byte(span.start.index());
                Err(self.second_document(at))
            }
        }
    }

    fn second_document(&self, at: usize) -> InputError {
        let line = crate::locate::Location::of(self.text.as_bytes(), at).line;
        InputError::new(
            format!("a second YAML document starts at line {line}: a file holds one document"),
            Some(at),
        )
    }
}

/// Adds `key` to `frame`'s keys: false when it was there already.
fn remember<'a>(frame: &mut Frame<'a>, key: Key<'a>) -> bool {
    if let Some(set) = &mut frame.set {
        return set.insert(key);
    }
    if frame.keys.contains(&key) {
        return false;
    }
    frame.keys.push(key);
    if frame.keys.len() > FEW_KEYS {
        frame.set = Some(frame.keys.drain(..).collect());
    }
    true
}

fn starts(event: &Event<'_>) -> bool {
    matches!(event, Event::MappingStart | Event::SequenceStart)
}

/// Whether `tag` resolves to the core schema's `tag:yaml.org,2002:<suffix>`,
/// however written: `!!str`, or verbatim `!<tag:yaml.org,2002:str>`.
fn is_core(tag: &Tag, suffix: &str) -> bool {
    const CORE: &str = "tag:yaml.org,2002:";
    let full_len = tag.handle.len() + tag.suffix.len();
    if full_len != CORE.len() + suffix.len() {
        return false;
    }
    let full = format!("{}{}", tag.handle, tag.suffix);
    full.strip_prefix(CORE) == Some(suffix)
}

/// An unsupported tag, named as the text writes it (the parser's resolved
/// form, `tag:yaml.org,2002:!binary`, is not what the user typed).
fn unsupported_tag(text: &str, tag: &Tag, at: usize) -> InputError {
    let written = match written_tag(text, at) {
        Some(written) => written.to_owned(),
        None => format!("!<{}{}>", tag.handle, tag.suffix),
    };
    InputError::new(
        format!("the YAML tag {written} is not supported (only !!str, !!map and !!seq)"),
        Some(at),
    )
}

/// The tag as written among the node properties (YAML 1.2 section 6.9: an
/// anchor `&a` and a tag `!t`, in either order) that start at `at`, where
/// the parser says a tagged node starts.
fn written_tag(text: &str, mut at: usize) -> Option<&str> {
    let b = text.as_bytes();
    while let Some(&first @ (b'&' | b'!')) = b.get(at) {
        let start = at;
        if first == b'!' && b.get(at + 1) == Some(&b'<') {
            // Verbatim: `!<...>`, whose URI may hold `,` and brackets.
            at = memchr::memchr(b'>', &b[at..]).map_or(b.len(), |i| at + i + 1);
        } else {
            at += 1;
            while at < b.len() && !matches!(b[at], b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b']' | b'{' | b'}') {
                at += 1;
            }
        }
        if first == b'!' {
            return text.get(start..at);
        }
        // The separation before the next property or the content: blanks,
        // line breaks and comments.
        while let Some(&c) = b.get(at) {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => at += 1,
                b'#' => at = memchr::memchr2(b'\n', b'\r', &b[at..]).map_or(b.len(), |i| at + i),
                _ => break,
            }
        }
    }
    None
}

/// Refuses a `%YAML` directive other than 1.2 in the prologue `text[..at]`
/// (before the first `---`): a 1.1 document resolves plain scalars
/// differently (`yes`, `0o17`), so reading it as 1.2 could change a
/// verdict without a word; YAML 1.2 itself rejects a higher major version.
fn check_version(text: &str, at: usize) -> Result<()> {
    let prologue = text.get(..at).unwrap_or(text);
    let mut line_start = 0;
    for line in prologue.split(['\n', '\r']) {
        let here = line_start;
        line_start += line.len() + 1;
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        let Some(rest) = line.strip_prefix("%YAML") else {
            continue;
        };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let version = rest.trim_start_matches([' ', '\t']);
        let version = &version[..version.find([' ', '\t', '#']).unwrap_or(version.len())];
        let number = |s: &str| s.parse::<u64>().ok();
        let (major, minor) = match version.split_once('.') {
            Some((major, minor)) => (number(major), number(minor)),
            None => (None, None),
        };
        if (major, minor) != (Some(1), Some(2)) {
            let at = here + text[here..].find('%').unwrap_or(0);
            return Err(InputError::new(
                format!("the document declares %YAML {version}: toolwire reads YAML 1.2 only (its core schema decides what a plain value is)"),
                Some(at),
            ));
        }
    }
    Ok(())
}

/// The first character outside YAML 1.2's printable set (section 5.1): C0
/// controls but tab, LF and CR; DEL; C1 controls but NEL; U+FFFE and
/// U+FFFF (`text` is UTF-8, so no surrogates). One pass: a chunk is looked
/// at byte by byte only when it holds a control byte or the lead byte of a
/// C1 control (0xC2) or of U+FFFE/U+FFFF (0xEF).
fn first_unprintable(text: &[u8]) -> Option<usize> {
    const CHUNK: usize = 64;
    let suspect =
        |c: u8| ((c < 0x20) & (c != b'\t') & (c != b'\n') & (c != b'\r')) | (c == 0x7f) | (c == 0xc2) | (c == 0xef);
    for (n, chunk) in text.chunks(CHUNK).enumerate() {
        if !chunk.iter().fold(false, |any, &c| any | suspect(c)) {
            continue;
        }
        for (i, &c) in chunk.iter().enumerate() {
            let at = n * CHUNK + i;
            let bad = match c {
                0xc2 => matches!(text.get(at + 1), Some(&(0x80..=0x84 | 0x86..=0x9f))),
                0xef => text.get(at + 1) == Some(&0xbf) && matches!(text.get(at + 2), Some(&(0xbe | 0xbf))),
                c => suspect(c),
            };
            if bad {
                return Some(at);
            }
        }
    }
    None
}

fn unprintable_error(text: &str, at: usize) -> InputError {
    let code = text.get(at..).and_then(|rest| rest.chars().next()).map_or(0, u32::from);
    InputError::new(
        format!(
            "invalid YAML: the character U+{code:04X} is not allowed (a YAML text holds printable characters only)"
        ),
        Some(at),
    )
}

fn too_deep(limit: usize, at: usize) -> InputError {
    InputError::new(format!("the YAML document nests deeper than {limit} levels"), Some(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every item of the root value, as short text, then `finish`.
    fn read_all(text: &str) -> Result<Vec<String>> {
        let mut events = Events::new(text);
        let mut out = Vec::new();
        let mut open = 0usize;
        loop {
            let item = events.next()?;
            out.push(match &item.event {
                Event::MappingStart => {
                    open += 1;
                    format!("{{@{}", item.at)
                }
                Event::SequenceStart => {
                    open += 1;
                    format!("[@{}", item.at)
                }
                Event::MappingEnd | Event::SequenceEnd => {
                    open -= 1;
                    "end".to_owned()
                }
                Event::Scalar(s) => format!("{}:{:?}@{}", s.value, s.kind(), item.at),
            });
            if open == 0 {
                break;
            }
        }
        events.finish()?;
        Ok(out)
    }

    fn error(text: &str) -> InputError {
        read_all(text).expect_err(text)
    }

    #[test]
    fn offsets_are_bytes_after_non_ascii_text() {
        let text = "a: 'café €'\nb: [x, \"日本\", 3]\n";
        let items = read_all(text).unwrap();
        assert_eq!(
            items,
            [
                "{@0",
                "a:String@0",
                "café €:String@3",
                "b:String@15",
                "[@18",
                "x:String@19",
                "日本:String@22",
                "3:Number@32",
                "end",
                "end"
            ]
        );
        assert_eq!(&text[22..23], "\"");
        assert_eq!(&text[32..33], "3");
    }

    #[test]
    fn scalars_spelled_as_they_are_are_borrowed_from_the_text_quoted_or_not() {
        let text = "a: plain\nb: 'single'\nc: \"double\"\nd: 'it''s'\ne: \"tab\\t\"\nf: 'folded\n  line'\ng: ''\n";
        let mut events = Events::new(text);
        let mut values = Vec::new();
        loop {
            match events.next().unwrap().event {
                Event::Scalar(s) => values.push((s.value.to_string(), matches!(s.value, Cow::Borrowed(_)))),
                Event::MappingEnd => break,
                _ => {}
            }
        }
        let borrowed: Vec<(&str, bool)> = values.iter().map(|(v, b)| (v.as_str(), *b)).collect();
        assert_eq!(
            borrowed[1..].iter().step_by(2).copied().collect::<Vec<_>>(),
            [
                ("plain", true),
                ("single", true),
                ("double", true),
                ("it's", false),
                ("tab\t", false),
                ("folded line", false),
                ("", true)
            ]
        );
    }

    #[test]
    fn quoted_keys_and_empty_flow_mappings() {
        let items = read_all("'y': 260\nd: {  }\nn: null\n").unwrap();
        assert_eq!(
            items,
            [
                "{@0",
                "y:String@0",
                "260:Number@5",
                "d:String@9",
                "{@12",
                "end",
                "n:String@17",
                "null:Null@20",
                "end"
            ]
        );
    }

    #[test]
    fn a_repeated_key_is_an_error_at_the_second_key() {
        let text = "a:\n  x: 1\n  y: 2\n  x: 3\n";
        let e = error(text);
        assert_eq!(e.message, "a key repeated in one mapping (YAML requires unique keys)");
        assert_eq!(e.offset, Some(text.rfind('x').unwrap()));
        // `y` and `'y'` are one key; `1` and `'1'` are two; so are two nulls.
        assert!(read_all("y: 1\n'y': 2\n").is_err());
        assert!(read_all("1: a\n'1': b\n").is_ok());
        assert!(read_all("~: a\nnull: b\n").is_err());
        // Past the keys compared one by one, the set finds it too.
        let many: String = (0..40).map(|i| format!("k{i}: {i}\n")).collect();
        assert!(read_all(&many).is_ok());
        assert_eq!(error(&format!("{many}k33: x\n")).offset, Some(many.len()));
    }

    #[test]
    fn a_second_document_is_an_error_naming_its_line() {
        let e = error("a: 1\n---\nb: 2\n");
        assert_eq!(
            e.message,
            "a second YAML document starts at line 2: a file holds one document"
        );
        assert_eq!(e.offset, Some(5));
        // An end marker alone is fine.
        assert!(read_all("---\na: 1\n...\n").is_ok());
    }

    #[test]
    fn invalid_yaml_is_an_error_with_a_byte_offset() {
        let text = "é: [1, 2\nb: 3\n";
        let e = error(text);
        assert!(e.message.starts_with("invalid YAML: "), "{}", e.message);
        assert!(e.offset.unwrap() <= text.len());
        let e = error("a:\n\tb: 1\n");
        assert!(e.message.starts_with("invalid YAML: "), "{}", e.message);
    }

    #[test]
    fn an_empty_document_is_null() {
        for text in ["", "# only a comment\n", "---\n", "---\n...\n"] {
            let items = read_all(text).unwrap();
            assert_eq!(items.len(), 1, "{text:?}");
            assert!(items[0].starts_with(":Null@"), "{text:?}");
        }
    }

    #[test]
    fn aliases_replay_what_their_anchor_names() {
        let text = "a: &x {k: [1, 2]}\nb: *x\nc: &s word\nd: *s\n";
        let items = read_all(text).unwrap();
        let b = items.iter().position(|i| i.starts_with("b:")).unwrap();
        // The same events, at the anchored value's offsets.
        assert_eq!(items[b + 1..b + 7], items[2..8]);
        // An anchored scalar starts at its anchor.
        assert_eq!(items[items.len() - 2], "word:String@27");
        // An alias used as a key counts as its scalar for repeats.
        assert!(read_all("id: &k id\n*k : 1\n").is_err());
        assert!(read_all("a: &k id\n*k : 1\n").is_ok());
        assert!(read_all("a: &k [1]\n*k : 1\n").is_err());
    }

    #[test]
    fn skipping_passes_over_an_alias_without_replaying_it() {
        let text = "a: &x [1, 2, 3]\nb: *x\nc: 1\n";
        let mut events = Events::new(text);
        assert_eq!(events.next().unwrap().event, Event::MappingStart);
        for _ in 0..2 {
            events.next().unwrap(); // key
            events.skip_value().unwrap();
        }
        assert_eq!(events.peek().unwrap().at, text.find("c:").unwrap());
        events.next().unwrap();
        events.skip_value().unwrap();
        assert_eq!(events.next().unwrap().event, Event::MappingEnd);
        events.finish().unwrap();
        assert!(events.replay.is_empty() && events.kept.len() == 5);
    }

    /// The "billion laughs": ten levels of nine aliases to the level below.
    fn laughs(levels: usize) -> String {
        let mut text = String::from("l0: &l0 [lol]\n");
        for level in 1..levels {
            let aliases = vec![format!("*l{}", level - 1); 9].join(", ");
            text.push_str(&format!("l{level}: &l{level} [{aliases}]\n"));
        }
        text
    }

    #[test]
    fn a_billion_laughs_is_refused_from_its_sizes_not_by_expanding() {
        let text = laughs(10);
        let e = error(&text);
        assert!(e.message.contains("billion laughs"), "{}", e.message);
        // Refused at the first alias past the budget: levels 1 to 5 stand
        // for 215,883 events, each alias of level 6 for 191,909 more, so on
        // line 7 (level 6), at its fifth alias.
        let at = e.offset.unwrap();
        assert_eq!(crate::locate::Location::of(text.as_bytes(), at).line, 7);
        let line_start = text[..at].rfind('\n').unwrap() + 1;
        assert_eq!(text[line_start..at].matches('*').count(), 4);
        // Nothing was expanded: only the anchored events are kept, a few
        // per alias written.
        let mut events = Events::new(&text);
        while events.skip_value().is_ok() {}
        assert!(events.kept.len() < 100, "{}", events.kept.len());
        // Under the budget, the same shape reads, replayed.
        let small = laughs(4);
        let replayed = read_all(&small).unwrap();
        assert_eq!(
            replayed.iter().filter(|i| i.starts_with("lol:")).count(),
            1 + 9 + 81 + 729
        );
    }

    #[test]
    fn a_tight_budget_counts_each_alias_by_its_size() {
        let text = "a: &a [1, 2, 3]\nb: *a\nc: *a\n";
        // [1, 2, 3] is five events; two aliases stand for ten.
        let read = |budget| {
            let mut events = Events::with_limits(
                text,
                Limits {
                    depth: 10,
                    alias_events: budget,
                    ..Limits::default()
                },
            );
            events.skip_value().and_then(|()| events.finish())
        };
        assert!(read(10).is_ok());
        assert_eq!(read(9).unwrap_err().offset, Some(text.rfind('*').unwrap()));
    }

    #[test]
    fn nesting_is_bounded() {
        // Block sequences nest as deep as the text says: bounded here.
        let deep = format!("{}x\n", "- ".repeat(2_000));
        let e = error(&deep);
        assert_eq!(e.message, "the YAML document nests deeper than 1000 levels");
        assert_eq!(e.offset, Some(2_000));
        assert!(read_all(&format!("{}x\n", "- ".repeat(1_000))).is_ok());
        // Flow collections: the parser itself stops at 255 levels.
        let flow = format!("{}{}", "[".repeat(2_000), "]".repeat(2_000));
        assert!(error(&flow).message.starts_with("invalid YAML: "));
    }

    #[test]
    fn tags_other_than_the_plain_ones_are_refused() {
        assert_eq!(read_all("a: !!str 12\n").unwrap()[2], "12:String@3");
        assert!(read_all("a: !!map {b: 1}\n").is_ok());
        for text in ["a: !!int 12\n", "a: !custom x\n", "a: !!seq {b: 1}\n"] {
            assert!(error(text).message.contains("is not supported"), "{text}");
        }
    }

    #[test]
    fn a_byte_order_mark_is_allowed_and_offsets_count_its_bytes() {
        let text = "\u{feff}a: 1\n";
        assert_eq!(read_all(text).unwrap(), ["{@3", "a:String@3", "1:Number@6", "end"]);
    }

    #[test]
    fn a_plain_merge_key_is_refused_and_a_quoted_one_is_a_key() {
        let text = "a: &a {x: 1}\nb: {<<: *a, y: 2}\n";
        let e = error(text);
        assert!(e.message.starts_with("a merge key `<<` is YAML 1.1"), "{}", e.message);
        assert_eq!(e.offset, text.find("<<"));
        // Refused where skipped too: a merge changes what the value means.
        assert!(read_all("'<<': 1\n\"<<\": 2\n").is_err()); // one string key, twice
        assert!(read_all("'<<': 1\nb: 2\n").is_ok());
    }

    #[test]
    fn a_yaml_version_other_than_1_2_is_refused_at_its_directive() {
        for version in ["1.1", "2.0", "1.3", "1.20"] {
            let text = format!("# c\n%YAML {version}\n---\na: 1\n");
            let e = error(&text);
            assert!(e.message.contains(&format!("%YAML {version}")), "{}", e.message);
            assert_eq!(e.offset, Some(4));
        }
        for text in [
            "%YAML 1.2\n---\na: 1\n",
            "\u{feff}%YAML 1.2 # c\n---\na: 1\n",
            "%TAG !e! tag:e.org,2000:\n---\na: 1\n",
        ] {
            assert!(read_all(text).is_ok(), "{text:?}");
        }
        assert_eq!(error("\u{feff}%YAML 1.1\r---\na: 1\n").offset, Some(3));
    }

    #[test]
    fn number_keys_compare_by_value() {
        for (a, b) in [
            ("1", "0x1"),
            ("1", "+1"),
            ("1", "01"),
            ("8", "0o10"),
            ("-0", "0"),
            ("255", "0xFF"),
            // Past 64 bits: 2^70 in three bases.
            ("1180591620717411303424", "0x400000000000000000"),
            ("0o200000000000000000000000", "0x400000000000000000"),
            ("1.5", "15e-1"),
            ("1.", "1.0"),
            ("-0.0", "0.0"),
            (".inf", "+.INF"),
            (".nan", ".NaN"),
        ] {
            assert!(read_all(&format!("{a}: x\n{b}: y\n")).is_err(), "{a} {b}");
        }
        // An integer and a float are different tags; a string is not a number.
        for (a, b) in [("1", "1.0"), ("1", "'1'"), ("-.inf", ".inf"), ("2", "0x20")] {
            assert!(read_all(&format!("{a}: x\n{b}: y\n")).is_ok(), "{a} {b}");
        }
        let long = format!("? {}\n: x\n", "9".repeat(LONGEST_NUMBER_KEY + 1));
        assert!(error(&long).message.contains("too long to compare"));
    }

    #[test]
    fn a_block_scalar_indicator_in_flow_content_is_invalid_yaml() {
        for text in ["a: {b: |\n  x\n  }\n", "a: [>\n  x\n  ]\n", "a: [k: |-\n  x]\n"] {
            let e = error(text);
            assert!(e.message.contains("block scalar"), "{text:?}: {}", e.message);
            assert_eq!(e.offset, text.find(['|', '>']), "{text:?}");
        }
        assert!(read_all("a: |\n  x\nb: ['|', \"> y\"]\n").is_ok());
    }

    #[test]
    fn unprintable_characters_are_invalid_yaml_at_their_byte() {
        for bad in [
            "\u{1}", "\u{8}", "\u{b}", "\u{c}", "\u{1b}", "\u{7f}", "\u{80}", "\u{9f}", "\u{fffe}", "\u{ffff}",
        ] {
            // Past the first 64-byte chunk, so the chunked scan is used.
            let text = format!("{}a: 'x{bad}y'\n", "# pad\n".repeat(20));
            let e = error(&text);
            assert!(
                e.message.starts_with("invalid YAML: the character U+"),
                "{bad:?}: {}",
                e.message
            );
            assert_eq!(e.offset, text.find(bad), "{bad:?}");
        }
        // Tab, NEL, other C2/EF characters and the largest BMP ones are fine.
        assert!(read_all("a: \"x\ty\u{85}z ¢ \u{fffd} \u{feff}\"\nb: \u{10ffff}\n").is_ok());
    }

    #[test]
    fn tags_are_named_as_written_and_a_verbatim_str_is_str() {
        for (text, tag) in [
            ("a: !!binary x\n", "!!binary"),
            ("a: &k !!binary x\n", "!!binary"),
            ("a: !!int &k 1\n", "!!int"),
            ("a: ! x\n", "!"),
            ("a: !<tag:e.org,2000:t> x\n", "!<tag:e.org,2000:t>"),
            ("a: [!local x]\n", "!local"),
            ("a: !!set\n  ? b\n", "!!set"),
        ] {
            let e = error(text);
            assert_eq!(
                e.message,
                format!("the YAML tag {tag} is not supported (only !!str, !!map and !!seq)")
            );
        }
        assert_eq!(read_all("a: !<tag:yaml.org,2002:str> 12\n").unwrap()[2], "12:String@3");
        assert!(read_all("a: !<tag:yaml.org,2002:map> {b: 1}\n").is_ok());
    }

    #[test]
    fn aliases_are_charged_the_scalar_bytes_they_stand_for() {
        let big = "x".repeat(100_000);
        let limits = Limits {
            alias_bytes_floor: 0,
            ..Limits::default()
        };
        let text = |aliases: usize| format!("a: &a [{big}, {big}]\nb: [{}]\n", vec!["*a"; aliases].join(", "));
        let read = |text: &str| {
            let mut events = Events::with_limits(text, limits);
            events.skip_value().and_then(|()| events.finish())
        };
        // Each alias stands for 200,000 bytes; ten times the text is about
        // 2,000,000: nine aliases fit, eleven do not.
        assert!(read(&text(9)).is_ok());
        let long = text(11);
        let e = read(&long).unwrap_err();
        assert!(e.message.contains("bytes of scalars"), "{}", e.message);
        assert_eq!(long[e.offset.unwrap()..].matches('*').count(), 1);
        // The floor lets a small text share a label a few times.
        assert!(read_all(&format!(
            "a: &a {}\nb: [{}]\n",
            "y".repeat(1000),
            vec!["*a"; 500].join(", ")
        ))
        .is_ok());
    }

    #[test]
    fn truncations_never_panic() {
        let text =
            "a: &x {k: [1, 'two', \"thr\\u00e9e\"]}\nb: *x\nc: |\n  block\n  text\nd: >-\n  folded\ne: {f: [g, h]}\n";
        for end in 0..=text.len() {
            if text.is_char_boundary(end) {
                let _ = read_all(&text[..end]);
            }
        }
    }
}
