//! JSON text to [`ToolGraph`]: reads the fields SEMANTICS.md names, feeds
//! them straight to a [`GraphBuilder`], and skips everything else without
//! building it.
//!
//! Duplicate keys: the last one wins, as in Python's `json` module (and
//! JavaScript and PHP), so `check_json(text)` and `check(json.loads(text))`
//! reach the same verdict. Inside a node or edge that is a matter of
//! overwriting a field; a repeated top-level `nodes` or `edges` (rare) makes
//! the parser read the document a second time, taking only the last value of
//! each. Every key toolwire reads that is repeated is also told to the sink
//! (a DUPLICATE-KEY warning), noticed by a bit per key in each object read.
//!
//! Over 600 lines only with its tests (the code is under 600): one reader of
//! the fields SEMANTICS.md names, with the duplicate-key rule it applies to
//! them.

use std::borrow::Cow;

use crate::budget::{Budget, Interrupt};
use crate::classify::{self, classify_edge, EdgeClass};
use crate::config::Config;
use crate::error::InputError;
use crate::graph::{GraphBuilder, Sink, ToolGraph};
use crate::input::{DuplicateKey, Field, Kind, Place, UnknownEdgeType, Within};
use crate::threads::both;
use head::HeadReading;
use scan::Scanner;
use threaded::on_two_threads;

mod head;
pub(crate) mod scan;
pub(crate) mod threaded;
pub mod yaml;

pub type Result<T> = std::result::Result<T, InputError>;

/// What the field logic below needs from a front end's text: the JSON
/// scanner and the YAML reader both give it, so nodes and edges are read
/// by one routine whatever the format (SEMANTICS.md sections 1-4, 10).
pub(crate) trait Source<'a> {
    /// The byte offset where the next value starts.
    fn pos(&mut self) -> Result<usize>;
    fn peek_kind(&mut self) -> Result<Kind>;
    fn skip_value(&mut self) -> Result<()>;
    /// A field that should be a string: the string, or the kind found
    /// instead (the value is consumed either way).
    fn field(&mut self) -> Result<Field<'a>>;
    /// Each member of the object that starts here, to `member` with its key
    /// while positioned at the value, which `member` must consume.
    fn object(&mut self, member: impl FnMut(&mut Self, Cow<'a, str>) -> Result<()>) -> Result<()>;
    /// Each element of the array that starts here, with its index.
    fn array(&mut self, element: impl FnMut(&mut Self, usize) -> Result<()>) -> Result<()>;
    /// After `peek_kind` said object: true, with the object consumed, when
    /// it is empty; false, with nothing consumed, otherwise.
    fn empty_object(&mut self) -> Result<bool>;
}

impl<'a> Source<'a> for Scanner<'a> {
    #[inline]
    fn pos(&mut self) -> Result<usize> {
        Ok(Scanner::pos(self))
    }
    #[inline]
    fn peek_kind(&mut self) -> Result<Kind> {
        Scanner::peek_kind(self)
    }
    #[inline]
    fn skip_value(&mut self) -> Result<()> {
        Scanner::skip_value(self)
    }
    #[inline]
    fn field(&mut self) -> Result<Field<'a>> {
        Scanner::field(self)
    }
    #[inline]
    fn object(&mut self, member: impl FnMut(&mut Self, Cow<'a, str>) -> Result<()>) -> Result<()> {
        Scanner::object(self, member)
    }
    #[inline]
    fn array(&mut self, element: impl FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        Scanner::array(self, element)
    }
    #[inline]
    fn empty_object(&mut self) -> Result<bool> {
        Ok(Scanner::empty_object(self))
    }
}

/// The two lists of a workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum List {
    Nodes,
    Edges,
}

impl List {
    pub(crate) fn key(self) -> &'static str {
        match self {
            List::Nodes => "nodes",
            List::Edges => "edges",
        }
    }
}

/// Inputs at least this large are read on two threads (see `threaded`);
/// below it, starting a thread costs more than it saves.
const PIPELINE_FROM_BYTES: usize = 4 << 20;

/// The text formats a workflow can be read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    /// Drupal configuration (SEMANTICS.md section 10).
    Yaml,
}

impl Format {
    /// The format of a file by its name: YAML when it ends `.yml` or
    /// `.yaml` (any case), JSON otherwise (SEMANTICS.md section 10).
    pub fn of_path(path: &std::path::Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml") => Format::Yaml,
            _ => Format::Json,
        }
    }

    /// `json` or `yaml`, as the CLI and the API spell them.
    pub fn parse_name(name: &str) -> Option<Format> {
        match name {
            "json" => Some(Format::Json),
            "yaml" => Some(Format::Yaml),
            _ => None,
        }
    }

    /// `JSON` or `YAML`, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Yaml => "YAML",
        }
    }
}

/// Parses a workflow from text of `format`: `parse_with` or
/// `yaml::parse_with`.
pub fn parse_format<'a>(input: &'a [u8], format: Format, config: &Config, budget: Budget<'_>) -> Result<ToolGraph<'a>> {
    match format {
        Format::Json => parse_with(input, config, budget),
        Format::Yaml => yaml::parse_with(input, config, budget),
    }
}

/// Parses a workflow from bytes, which must be UTF-8 JSON text. Large inputs
/// use a second thread.
pub fn parse<'a>(input: &'a [u8], config: &Config) -> Result<ToolGraph<'a>> {
    parse_with(input, config, Budget::full())
}

/// `parse`, on one thread unless the budget allows a second, and stopping
/// with an error when its interrupt is requested.
pub fn parse_with<'a>(input: &'a [u8], config: &Config, budget: Budget<'_>) -> Result<ToolGraph<'a>> {
    let text = utf8(input, budget.allow_thread)?;
    let reader = Reader { config, budget };
    reader.read(text).map(|mut graph| {
        graph.source = Some(input);
        graph
    })
}

/// Below this, one thread validates UTF-8 faster than two can start.
const UTF8_IN_HALVES_FROM_BYTES: usize = 32 << 20;

fn utf8(input: &[u8], allow_thread: bool) -> Result<&str> {
    utf8_of(input, allow_thread, Format::Json)
}

/// `input` as text of `format`: UTF-8, and for JSON without a byte order
/// mark (YAML allows one).
fn utf8_of(input: &[u8], allow_thread: bool, format: Format) -> Result<&str> {
    if format == Format::Json && input.starts_with(b"\xEF\xBB\xBF") {
        return Err(InputError::new(
            "invalid JSON: the document starts with a UTF-8 byte order mark, which JSON does not allow",
            Some(0),
        ));
    }
    let valid = if allow_thread && input.len() >= UTF8_IN_HALVES_FROM_BYTES {
        // Split where a character starts, so each half holds whole
        // characters when the text is valid (and a broken one shows in
        // a half when it is not).
        let mut half = input.len() / 2;
        while input[half] & 0xC0 == 0x80 && half > input.len() / 2 - 3 {
            half -= 1;
        }
        let (low, high) = input.split_at(half);
        let valid = |half: &[u8]| simdutf8::basic::from_utf8(half).is_ok();
        let (low_valid, high_valid) = both(true, || valid(low), || valid(high));
        low_valid && high_valid
    } else {
        simdutf8::basic::from_utf8(input).is_ok()
    };
    if valid {
        // SAFETY: validated above, whole or as two halves that each hold
        // whole characters (a half that began or ended inside a character
        // would not be valid), so the whole is valid UTF-8 too.
        return Ok(unsafe { std::str::from_utf8_unchecked(input) });
    }
    // Only for the error: where the valid text ends.
    std::str::from_utf8(input).map_err(|e| {
        InputError::new(
            format!("invalid {}: the document is not valid UTF-8", format.name()),
            Some(e.valid_up_to()),
        )
    })
}

/// Starts a document: it must be valid JSON, and an object.
fn top_level(s: &mut Scanner<'_>) -> Result<()> {
    let kind = s.peek_kind()?;
    if kind != Kind::Object {
        // Still require valid JSON, so that "not JSON" wins over "wrong shape".
        let at = s.pos();
        s.skip_value()?;
        s.finish()?;
        return Err(InputError::top_level(kind, Some(at)));
    }
    Ok(())
}

/// What reading needs besides the text: the settings, whether a second
/// thread may help, and whether to stop.
#[derive(Clone, Copy)]
struct Reader<'c> {
    config: &'c Config,
    budget: Budget<'c>,
}

impl Reader<'_> {
    /// Reads `text`, on two threads when the budget allows it and the text
    /// is large.
    fn read<'a>(self, text: &'a str) -> Result<ToolGraph<'a>> {
        let allow_thread = self.budget.allow_thread;
        // Real exports spend a few hundred bytes per node; guessing low only
        // means the table grows once or twice.
        let expected_nodes = (text.len() / 512).min(1 << 26);
        let keep_types = self.config.keeps_node_types();
        let first = if allow_thread && text.len() >= PIPELINE_FROM_BYTES {
            let (outcome, builder) = on_two_threads(expected_nodes, keep_types, |sink| {
                self.single_pass(&mut Scanner::new(text), sink)
            });
            outcome?.then_some(builder)
        } else {
            let mut builder = GraphBuilder::with_capacity(expected_nodes).keeping_types(keep_types);
            self.single_pass(&mut Scanner::new(text), &mut builder)?
                .then_some(builder)
        };
        let builder = match first {
            Some(builder) => builder,
            None => self.last_keys_only(text)?,
        };
        builder.finish(allow_thread)
    }

    /// Reads the document in one go into `sink`. False when `nodes` or
    /// `edges` is repeated: then what the sink received must be discarded.
    fn single_pass<'a>(self, s: &mut Scanner<'a>, sink: &mut dyn Sink<'a>) -> Result<bool> {
        top_level(s)?;
        let (mut seen_nodes, mut seen_edges, mut repeated) = (false, false, false);
        let mut head = HeadReading::default();
        s.object(|s, key| match key.as_ref() {
            "nodes" if !repeated && !seen_nodes => {
                seen_nodes = true;
                self.nodes(s, sink)
            }
            "edges" if !repeated && !seen_edges => {
                seen_edges = true;
                self.edges(s, sink)
            }
            "nodes" | "edges" => {
                repeated = true;
                s.skip_value()
            }
            key => match head.member(self, s, key)? {
                true => Ok(()),
                false => s.skip_value(),
            },
        })?;
        s.finish()?;
        sink.head(head.finish());
        Ok(!repeated)
    }

    /// Reads only the last `nodes` and `edges` values of a document already
    /// known to be valid JSON.
    fn last_keys_only<'a>(self, text: &'a str) -> Result<GraphBuilder<'a>> {
        let mut s = Scanner::new(text);
        let (mut nodes_at, mut edges_at) = (None, None);
        let mut repeats = Vec::new();
        // The head is read as met: a repeated `id` or `input_ports` replaces
        // the earlier one's reading, so the last counts here too.
        let mut head = HeadReading::default();
        s.object(|s, key| {
            let (at, name) = match key.as_ref() {
                "nodes" => (&mut nodes_at, "nodes"),
                "edges" => (&mut edges_at, "edges"),
                key => {
                    return match head.member(self, s, key)? {
                        true => Ok(()),
                        false => s.skip_value(),
                    }
                }
            };
            let value_at = s.pos();
            if at.replace(value_at).is_some() {
                repeats.push((name, value_at));
            }
            s.skip_value()
        })?;
        let mut builder = GraphBuilder::new().keeping_types(self.config.keeps_node_types());
        tell_repeats(&mut builder, Within::Workflow, None, repeats);
        if let Some(at) = nodes_at {
            self.nodes(&mut Scanner::at(text, at), &mut builder)?;
        }
        if let Some(at) = edges_at {
            self.edges(&mut Scanner::at(text, at), &mut builder)?;
        }
        builder.head(head.finish());
        Ok(builder)
    }

    /// Between elements: stop when asked to. A relaxed load is cheap enough
    /// to make on every element.
    fn go_on(self) -> Result<()> {
        if self.budget.interrupt.requested() {
            return Err(Interrupt::error());
        }
        Ok(())
    }

    fn nodes<'a, S: Source<'a>>(self, s: &mut S, builder: &mut dyn Sink<'a>) -> Result<()> {
        self.list(s, builder, List::Nodes, 0)
    }

    fn edges<'a, S: Source<'a>>(self, s: &mut S, builder: &mut dyn Sink<'a>) -> Result<()> {
        self.list(s, builder, List::Edges, 0)
    }

    /// The `nodes` or `edges` value, or (a YAML text read in pieces) the
    /// rest of it from item `first_index` on: each element read, or its
    /// shape error told.
    fn list<'a, S: Source<'a>>(
        self,
        s: &mut S,
        builder: &mut dyn Sink<'a>,
        list: List,
        first_index: usize,
    ) -> Result<()> {
        type Read<'a, S> = fn(&mut S, Place, &mut dyn Sink<'a>, &Config) -> Result<()>;
        type ShapeError<'a> = fn(&mut dyn Sink<'a>, InputError);
        let (read, shape_error): (Read<'a, S>, ShapeError<'a>) = match list {
            List::Nodes => (node, |b, e| b.node_shape_error(e)),
            List::Edges => (edge, |b, e| b.edge_shape_error(e)),
        };
        match is_array(s, list.key())? {
            Ok(true) => s.array(|s, index| {
                self.go_on()?;
                let place = Place {
                    index: first_index + index,
                    offset: Some(s.pos()?),
                };
                read(s, place, builder, self.config)
            }),
            Ok(false) => Ok(()),
            Err(e) => {
                shape_error(builder, e);
                Ok(())
            }
        }
    }
}

/// A `nodes` or `edges` value: true when it is an array to read; `null` and
/// `{}` are empty (EDGE-2, and Drupal's empty PHP arrays); anything else is a
/// shape error.
fn is_array<'a>(s: &mut impl Source<'a>, key: &str) -> Result<std::result::Result<bool, InputError>> {
    let at = s.pos()?;
    let kind = s.peek_kind()?;
    match kind {
        Kind::Array => Ok(Ok(true)),
        Kind::Object if s.empty_object()? => Ok(Ok(false)),
        _ => {
            s.skip_value()?;
            Ok(if kind == Kind::Null {
                Ok(false)
            } else {
                Err(InputError::list_shape(key, kind, Some(at)))
            })
        }
    }
}

fn node<'a, S: Source<'a>>(s: &mut S, place: Place, builder: &mut dyn Sink<'a>, config: &Config) -> Result<()> {
    let kind = s.peek_kind()?;
    if kind != Kind::Object {
        builder.node_shape_error(InputError::node_shape(place, kind));
        return s.skip_value();
    }
    let mut id = Field::Missing;
    let mut type_ = None;
    let mut label = None;
    let mut metadata_node_type_id = None;
    let mut metadata_id = None;
    let mut repeats = Repeats::new();
    let mut seen = Seen::default();
    s.object(|s, key| {
        match key.as_ref() {
            "id" => {
                seen.note(s, 0, "id", &mut repeats)?;
                id = s.field()?
            }
            "type" => {
                seen.note(s, 1, "type", &mut repeats)?;
                type_ = s.field()?.into_string()
            }
            "data" => {
                seen.note(s, 2, "data", &mut repeats)?;
                // A later `data` replaces everything an earlier one said.
                label = None;
                metadata_node_type_id = None;
                metadata_id = None;
                if s.peek_kind()? != Kind::Object {
                    return s.skip_value();
                }
                let mut seen = Seen::default();
                s.object(|s, key| {
                    match key.as_ref() {
                        "label" => {
                            seen.note(s, 0, "data.label", &mut repeats)?;
                            label = s.field()?.into_string().filter(|l| !l.is_empty())
                        }
                        "metadata" => {
                            seen.note(s, 1, "data.metadata", &mut repeats)?;
                            metadata_node_type_id = None;
                            metadata_id = None;
                            if s.peek_kind()? != Kind::Object {
                                return s.skip_value();
                            }
                            let mut seen = Seen::default();
                            s.object(|s, key| {
                                match key.as_ref() {
                                    "node_type_id" => {
                                        seen.note(s, 0, "data.metadata.node_type_id", &mut repeats)?;
                                        metadata_node_type_id = s.field()?.into_string()
                                    }
                                    "id" => {
                                        seen.note(s, 1, "data.metadata.id", &mut repeats)?;
                                        metadata_id = s.field()?.into_string()
                                    }
                                    _ => s.skip_value()?,
                                }
                                Ok(())
                            })?;
                        }
                        _ => s.skip_value()?,
                    }
                    Ok(())
                })?;
            }
            _ => s.skip_value()?,
        }
        Ok(())
    })?;
    if !repeats.is_empty() {
        let id = match &id {
            Field::Str(id) => Some(id.clone()),
            _ => None,
        };
        tell_repeats(builder, Within::Node(place.index), id, repeats);
    }
    let passthrough = classify::is_passthrough_node(
        config,
        type_.as_deref(),
        metadata_node_type_id.as_deref(),
        metadata_id.as_deref(),
    );
    // The type is only kept when CMP-10 is checked; otherwise it costs nothing.
    let node_type = match config.keeps_node_types() {
        true => classify::owned_node_type(type_, metadata_node_type_id, metadata_id),
        false => None,
    };
    builder.node(place, id, label, node_type, passthrough);
    Ok(())
}

fn edge<'a, S: Source<'a>>(s: &mut S, place: Place, builder: &mut dyn Sink<'a>, config: &Config) -> Result<()> {
    let kind = s.peek_kind()?;
    if kind != Kind::Object {
        builder.edge_shape_error(InputError::edge_shape(place, kind));
        return s.skip_value();
    }
    let mut id: Option<Cow<'a, str>> = None;
    let mut source = Field::Missing;
    let mut target = Field::Missing;
    let mut target_handle = None;
    let mut declared = None;
    let mut repeats = Repeats::new();
    let mut seen = Seen::default();
    s.object(|s, key| {
        match key.as_ref() {
            "id" => {
                seen.note(s, 0, "id", &mut repeats)?;
                id = s.field()?.into_string()
            }
            "source" => {
                seen.note(s, 1, "source", &mut repeats)?;
                source = s.field()?
            }
            "target" => {
                seen.note(s, 2, "target", &mut repeats)?;
                target = s.field()?
            }
            "targetHandle" => {
                seen.note(s, 3, "targetHandle", &mut repeats)?;
                target_handle = s.field()?.into_string()
            }
            "data" => {
                seen.note(s, 4, "data", &mut repeats)?;
                declared = None;
                if s.peek_kind()? != Kind::Object {
                    return s.skip_value();
                }
                let mut seen = Seen::default();
                s.object(|s, key| {
                    match key.as_ref() {
                        "edgeType" => {
                            seen.note(s, 0, "data.edgeType", &mut repeats)?;
                            declared = s.field()?.into_string()
                        }
                        _ => s.skip_value()?,
                    }
                    Ok(())
                })?;
            }
            _ => s.skip_value()?,
        }
        Ok(())
    })?;
    if !repeats.is_empty() {
        tell_repeats(builder, Within::Edge(place.index), id.clone(), repeats);
    }
    match classify_edge(declared.as_deref(), target_handle.as_deref(), config) {
        EdgeClass::Tool => builder.tool_edge(place, id, source, target),
        EdgeClass::NotTool => builder.other_edge(),
        EdgeClass::Unrecognised => builder.unknown_edge_type(UnknownEdgeType {
            place,
            id,
            edge_type: declared.unwrap_or_default(),
        }),
    }
    Ok(())
}

/// Keys repeated in one node or edge (or the top level): each key's path
/// and the offset of its repeated value. Empty, and so never allocated,
/// unless a key is repeated.
type Repeats = Vec<(&'static str, usize)>;

/// The keys of one object that toolwire reads, a bit each: a key read again
/// costs a mask test to notice, and no key is hashed or kept.
#[derive(Default)]
struct Seen(u8);

impl Seen {
    /// Key number `bit` (below 8) of this object is read now: when it was
    /// read before, `path` and where its value starts go to `repeats`.
    fn note<'a>(&mut self, s: &mut impl Source<'a>, bit: u8, path: &'static str, repeats: &mut Repeats) -> Result<()> {
        let mask = 1 << bit;
        if self.0 & mask != 0 {
            repeats.push((path, s.pos()?));
        }
        self.0 |= mask;
        Ok(())
    }
}

/// Tells `sink` of every key repeated in one object: a DUPLICATE-KEY warning each.
fn tell_repeats<'a>(sink: &mut dyn Sink<'a>, within: Within, id: Option<Cow<'a, str>>, repeats: Repeats) {
    for (key, value_at) in repeats {
        sink.duplicate_key(DuplicateKey {
            within,
            id: id.clone(),
            key,
            value_at,
        });
    }
}

/// Where the key whose value starts at `value_at` starts: read back over
/// whitespace, the `:`, whitespace and the key's string. Quotes inside a
/// key are escaped, so its opening quote is the first quote found that is
/// not preceded by an odd run of backslashes. Done only for a repeated key,
/// so the parser keeps no key offsets. `value_at` itself if the text does
/// not read as a key there (it always does when the parser found one).
pub(crate) fn key_before(text: &[u8], value_at: usize) -> usize {
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let before = &text[..value_at.min(text.len())];
    let unspaced = |end: usize| end - before[..end].iter().rev().take_while(|b| space(b)).count();
    let colon = unspaced(before.len());
    if colon == 0 || before[colon - 1] != b':' {
        return value_at;
    }
    let close = unspaced(colon - 1);
    if close == 0 || before[close - 1] != b'"' {
        return value_at;
    }
    let mut end = close - 1;
    while let Some(quote) = memchr::memrchr(b'"', &before[..end]) {
        let backslashes = before[..quote].iter().rev().take_while(|&&b| b == b'\\').count();
        if backslashes % 2 == 0 {
            return quote;
        }
        end = quote;
    }
    value_at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<ToolGraph<'_>> {
        parse(text.as_bytes(), &Config::default())
    }

    #[test]
    fn edge2_absent_null_and_empty_object_are_empty_lists() {
        for doc in [
            "{}",
            r#"{"nodes": null, "edges": null}"#,
            r#"{"nodes": {}, "edges": { }}"#,
        ] {
            let g = parse_str(doc).unwrap();
            assert!(g.node_count() == 0 && g.edge_count == 0, "{doc}");
        }
    }

    #[test]
    fn wrong_shapes_are_input_errors_with_offsets() {
        let e = parse_str(r#"{"nodes": {"a": 1}}"#).unwrap_err();
        assert_eq!(e.message, "`nodes` must be an array, got a non-empty object");
        assert_eq!(e.offset, Some(10));
        let e = parse_str(r#"{"nodes": [{"id": "a"}, 3]}"#).unwrap_err();
        assert_eq!(e.message, "node 1: must be an object, got a number");
        let e = parse_str("[]").unwrap_err();
        assert_eq!(e.message, "the workflow must be a JSON object, got an array");
    }

    #[test]
    fn shape_errors_come_before_id_errors_whatever_the_key_order() {
        let e = parse_str(r#"{"edges": [7], "nodes": [{"id": ""}]}"#).unwrap_err();
        assert_eq!(e.message, "edge 0: must be an object, got a number");
        let doc =
            r#"{"edges": [{"source": "a", "targetHandle": "x-input-tool"}], "nodes": [{"id": "a"}, {"id": "a"}]}"#;
        assert_eq!(
            parse_str(doc).unwrap_err().message,
            "duplicate node id \"a\": nodes 0 and 1 (R2)"
        );
    }

    #[test]
    fn syntax_errors_win_over_shape_errors() {
        let e = parse_str(r#"{"nodes": 3, "edges": [}"#).unwrap_err();
        assert!(e.message.starts_with("invalid JSON"), "{}", e.message);
    }

    #[test]
    fn a_trailing_comma_is_located_at_the_comma_in_characters() {
        use crate::locate::Location;
        for (doc, closer, line, column) in [
            // In a node object the parser reads.
            ("{\"nodes\": [{\"id\": \"é\",}]}", '}', 1, 22),
            // In the `nodes` array, after a label with multi-byte characters.
            (
                "{\"nodes\": [\n  {\"id\": \"a\", \"data\": {\"label\": \"日本語\"}},\n]}",
                ']',
                2,
                40,
            ),
            // In a skipped field, and in the top-level object.
            ("{\"nodes\": [{\"id\": \"a\", \"position\": {\"x\": 1,}}]}", '}', 1, 43),
            ("{\"nodes\": [],\n\n }", '}', 1, 13),
        ] {
            let e = parse_str(doc).unwrap_err();
            assert_eq!(
                e.message,
                format!("invalid JSON: trailing comma before '{closer}'"),
                "{doc}"
            );
            assert_eq!(e.location(doc.as_bytes()), Some(Location { line, column }), "{doc}");
        }
    }

    #[test]
    fn duplicate_keys_last_wins() {
        let g = parse_str(r#"{"nodes": [{"id": "a", "id": "b", "data": {"label": "x"}, "data": 1}]}"#).unwrap();
        assert_eq!((g.id(0), g.label(0)), ("b", "b"));
        let doc = r#"{"nodes": 5, "edges": [1], "nodes": [{"id": "n"}], "edges": [], "x": 1}"#;
        let g = parse_str(doc).unwrap();
        assert_eq!((g.node_count(), g.edge_count), (1, 0));
    }

    /// The repeated keys a parse tells, as (object, id, key, text at the key).
    fn repeats(doc: &str) -> Vec<(Within, Option<String>, &'static str, String)> {
        let g = parse_str(doc).unwrap();
        let mut found: Vec<_> = g
            .duplicate_keys
            .iter()
            .map(|d| {
                let at = key_before(doc.as_bytes(), d.value_at);
                (
                    d.within,
                    d.id.as_deref().map(str::to_owned),
                    d.key,
                    doc[at..d.value_at].to_owned(),
                )
            })
            .collect();
        found.sort_by(|a, b| (a.2, &a.3).cmp(&(b.2, &b.3)));
        found
    }

    #[test]
    fn every_repeated_key_toolwire_reads_is_told_with_its_place() {
        let doc = r#"{"nodes": [{"id": "a", "id" : "b", "data": {"label": "x", "label":"y",
            "metadata": {"id": "m", "id": "n", "node_type_id": "p", "node_type_id": "q"}}, "data": {}, "type": "t", "type": "u",
            "position": 1, "position": 2}],
            "edges": [{"source": "b", "target": "c", "targetHandle": "h", "targetHandle": "c-input-tool", "target": "c",
            "id": "e", "data": {"edgeType": "x", "edgeType": "tool_availability"}, "data": 0, "id": "e2", "source": "b"}]}"#;
        let node = |key, text: &str| (Within::Node(0), Some("b".to_owned()), key, text.to_owned());
        let edge = |key, text: &str| (Within::Edge(0), Some("e2".to_owned()), key, text.to_owned());
        assert_eq!(
            repeats(doc),
            [
                node("data", "\"data\": "),
                edge("data", "\"data\": "),
                edge("data.edgeType", "\"edgeType\": "),
                node("data.label", "\"label\":"),
                node("data.metadata.id", "\"id\": "),
                node("data.metadata.node_type_id", "\"node_type_id\": "),
                node("id", "\"id\" : "),
                edge("id", "\"id\": "),
                edge("source", "\"source\": "),
                edge("target", "\"target\": "),
                edge("targetHandle", "\"targetHandle\": "),
                node("type", "\"type\": "),
            ],
            "keys toolwire does not read (position) are not told"
        );
        let g = parse_str(doc).unwrap();
        assert_eq!(
            (g.id(0), g.label(0), g.tool_edge_count),
            ("b", "b", 1),
            "the last value still wins"
        );
    }

    #[test]
    fn repeated_top_level_keys_are_told_once_each_repeat() {
        let doc = r#"{"nodes": [], "edges": [], "nodes": [{"id": "a", "id": "a"}], "nodes" : [{"id": "n"}]}"#;
        let found = repeats(doc);
        let told: Vec<_> = found.iter().map(|(w, _, k, t)| (*w, *k, t.as_str())).collect();
        assert_eq!(
            told,
            [
                (Within::Workflow, "nodes", "\"nodes\" : "),
                (Within::Workflow, "nodes", "\"nodes\": ")
            ],
            "only the objects read are looked at: the discarded nodes' repeated id is not"
        );
    }

    #[test]
    fn a_repeated_key_is_found_back_from_its_value_through_escapes() {
        let doc = r#"{"a\"\\": 1, "\u0069d"   :  "x"}"#;
        let at = doc.find("\"x\"").unwrap();
        assert_eq!(&doc[key_before(doc.as_bytes(), at)..at], r#""\u0069d"   :  "#);
        let at = doc.find('1').unwrap();
        assert_eq!(&doc[key_before(doc.as_bytes(), at)..at], r#""a\"\\": "#);
        assert_eq!(key_before(b"[1, 2]", 4), 4, "not after a key: the value's own place");
    }

    #[test]
    fn reads_the_three_dialects_node_types() {
        let doc = r#"{"nodes": [
            {"id": "a", "type": "toolbox"},
            {"id": "b", "type": "universalNode", "data": {"metadata": {"id": "toolbox"}}},
            {"id": "c", "data": {"metadata": {"node_type_id": "flowdrop_node_processor_toolbox", "id": "x"}}},
            {"id": "d", "type": "universalNode", "data": {"metadata": {"id": "agent"}}}
        ]}"#;
        let g = parse_str(doc).unwrap();
        assert_eq!(g.passthrough, [true, true, true, false]);
    }

    #[test]
    fn keeps_only_tool_edges_and_unknown_declarations() {
        let doc = r#"{"edges": [
            {"source": "a", "target": "b", "data": {"edgeType": "tool_availability"}},
            {"source": "a", "target": "b", "targetHandle": "b-input-tool", "data": {"edgeType": "data"}},
            {"id": "e3", "source": "a", "target": "b", "data": {"edgeType": "tool_availabilty"}},
            {"source": 1, "targetHandle": "b-input-tools"}
        ]}"#;
        let g = parse_str(doc).unwrap();
        assert_eq!(g.edge_count, 4);
        assert_eq!(g.tool_edge_count, 1);
        assert_eq!(g.unknown_edge_types[0].place.index, 2);
        assert_eq!(g.unknown_edge_types[0].edge_type, "tool_availabilty");
    }

    #[test]
    fn bom_and_invalid_utf8_are_refused() {
        assert!(parse(b"\xEF\xBB\xBF{}", &Config::default()).is_err());
        let e = parse(b"{\"a\": \"\xFF\"}", &Config::default()).unwrap_err();
        assert_eq!(e.offset, Some(7));
    }

    #[test]
    fn utf8_checked_in_halves_agrees_with_one_pass() {
        // Text large enough to be checked on two threads, with a character
        // of each width across the middle, and broken ones near it.
        let len = UTF8_IN_HALVES_FROM_BYTES + 10;
        for ch in ["é", "€", "😀"] {
            for shift in 0..4 {
                let mut text = vec![b' '; len];
                let at = len / 2 - shift;
                text[at..at + ch.len()].copy_from_slice(ch.as_bytes());
                assert!(utf8(&text, true).is_ok(), "{ch} at {shift} before the middle");
                // The same character cut short: invalid, wherever the cut falls.
                let mut broken = text.clone();
                broken[at + ch.len() - 1] = b' ';
                let one = utf8(&broken, false).unwrap_err();
                assert_eq!(utf8(&broken, true).unwrap_err(), one, "{ch} cut at {shift}");
                assert_eq!(one.offset, Some(at));
            }
        }
        let mut stray = vec![b' '; len];
        stray[len / 2] = 0x80; // a continuation byte alone, at the middle
        assert_eq!(utf8(&stray, true).unwrap_err().offset, Some(len / 2));
    }

    /// What a graph holds, hashes aside (each builder seeds its own).
    /// What a graph holds, as text: every place and index included.
    pub(crate) fn summary(g: &ToolGraph<'_>) -> String {
        let nodes: Vec<String> = (0..g.node_count() as u32)
            .map(|n| {
                format!(
                    "{:?}",
                    (
                        g.id(n),
                        g.explicit_label(n),
                        g.offset(n),
                        g.is_passthrough(n),
                        g.name_loss(n)
                    )
                )
            })
            .collect();
        format!(
            "{nodes:?} {} {} {:?} {:?} {:?} {:?} {:?} {:?}",
            g.edge_count,
            g.tool_edge_count,
            g.unknown_edge_types,
            g.providers,
            g.receivers,
            g.passthrough_receivers,
            g.head,
            g.node_types
        )
    }

    /// The outcome of reading `text`, on two threads when `allow_thread`
    /// and the text is large: the graph's summary, or the error.
    fn outcome(text: &str, allow_thread: bool) -> Result<String> {
        let config = Config::default();
        let reader = Reader {
            config: &config,
            budget: Budget::new(allow_thread, Interrupt::never()),
        };
        reader.read(text).map(|g| summary(&g))
    }

    #[test]
    fn a_graph_finished_on_two_threads_equals_one_finished_on_one() {
        // Enough tool edges that the adjacency is built on two threads;
        // edges into toolboxes too, which have an adjacency of their own.
        let edges: Vec<String> = (0..crate::graph::ADJACENCY_ON_TWO_THREADS_FROM_EDGES + 1_000)
            .map(|i| {
                let (source, target) = (format!("n{}", i * 7 % 5_000), format!("n{}", i % 3_000));
                format!(
                    r#"{{"source": "{source}", "target": "{target}", "data": {{"edgeType": "tool_availability"}}}}"#
                )
            })
            .collect();
        let nodes: Vec<String> = (0..5_000)
            .map(|i| {
                format!(
                    r#"{{"id": "n{i}", "type": "{}"}}"#,
                    if i % 4 == 0 { "toolbox" } else { "agent" }
                )
            })
            .collect();
        let doc = format!(r#"{{"edges": [{}], "nodes": [{}]}}"#, edges.join(","), nodes.join(","));
        assert_eq!(outcome(&doc, true), outcome(&doc, false));
    }

    #[test]
    fn large_texts_read_on_two_threads_give_the_answers_of_one() {
        // Past PIPELINE_FROM_BYTES the parse runs on two threads: the graph
        // must be the one a single thread builds, and an error near the end,
        // many chunks in, must be worded and placed as on one thread.
        let mut doc = String::from(
            "{\"id\": \"large\", \"input_ports\": [{\"port\": \"tool\", \"node_id\": \"n4\"}, 5],\n\"nodes\": [",
        );
        let mut i = 0;
        while doc.len() < PIPELINE_FROM_BYTES + 100_000 {
            if i > 0 {
                doc.push(',');
            }
            doc.push_str(&format!(
                "{{\"id\": \"n{i}\", \"type\": \"{}\", \"data\": {{\"label\": \"L\\u00e9 {}\", \"x\": [1, 2.5, null]}}}}\n",
                if i % 3 == 0 { "toolbox" } else { "agent" },
                i % 1000
            ));
            i += 1;
        }
        doc.push_str("], \"edges\": [{\"source\": \"n1\", \"target\": \"n0\", \"targetHandle\": \"n0-input-tool\"}]}");
        let one = outcome(&doc, false);
        assert!(one.is_ok());
        assert_eq!(outcome(&doc, true), one);
        for (broken, message) in [
            (
                format!("{doc} x"),
                "invalid JSON: unexpected data after the end of the document",
            ),
            (
                doc.replacen("n0-input-tool\"", "n0-input-tool", 1),
                "invalid JSON: unterminated string",
            ),
            (
                format!("{}\"", &doc[..doc.len() - 1]),
                "invalid JSON: expected ',' or '}', found '\"'",
            ),
            (
                doc.replacen("2.5", "2.", 7),
                "invalid JSON: expected a digit after the decimal point, found ','",
            ),
        ] {
            let e = outcome(&broken, true).unwrap_err();
            assert_eq!(e.message, message);
            assert_eq!(Err(e), outcome(&broken, false));
        }
    }
}
