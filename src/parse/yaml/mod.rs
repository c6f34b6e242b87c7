//! YAML text to [`ToolGraph`]: workflows stored as Drupal configuration
//! (SEMANTICS.md section 10), read through the strict event layer in
//! [`events`] and fed to the same field logic as JSON (`super::Source`),
//! so a node or edge means the same in both formats. Everything but
//! `nodes`, `edges` and the head (`id`, `input_ports`) is skipped unread;
//! every place is a byte offset into the YAML text.
//!
//! The core schema decides what is a string: a plain `true`, `1.5` or `~`
//! where an id, type, label, edge type or handle belongs is a non-string,
//! as a non-string is in JSON. A repeated key is an input error here (the
//! event layer's), not JSON's DUPLICATE-KEY warning.

use std::borrow::Cow;

use super::head::HeadReading;
use super::{utf8_of, Format, Reader, Result, Source, PIPELINE_FROM_BYTES};
use crate::budget::Budget;
use crate::config::Config;
use crate::error::InputError;
use crate::graph::{GraphBuilder, Sink, ToolGraph};
use crate::input::{Field, Kind};
use crate::threads::joined;
use events::{Event, Events, Limits, RawEvents};

pub mod events;
mod pieces;
mod piped;
mod schema;

/// Parses a workflow from bytes, which must be UTF-8 YAML text holding one
/// mapping. Large texts are read in two halves at once when `allow_thread`
/// (see `pieces`), or else parsed on a second thread (see `piped`); the
/// budget's interrupt stops the read with an error.
pub fn parse_with<'a>(input: &'a [u8], config: &Config, budget: Budget<'_>) -> Result<ToolGraph<'a>> {
    let allow_thread = budget.allow_thread;
    let text = utf8_of(input, allow_thread, Format::Yaml)?;
    let reader = Reader { config, budget };
    // YAML spends more bytes per node than JSON (indentation, one key a
    // line): guessing low only means the table grows once or twice.
    let keep_types = config.keeps_node_types(); // for CMP-10
    let new_builder = || GraphBuilder::with_capacity((text.len() / 768).min(1 << 26)).keeping_types(keep_types);
    let builder = if allow_thread && text.len() >= PIPELINE_FROM_BYTES {
        // The parser is two thirds of the time. A Drupal workflow is read
        // in two pieces at once when they prove the cut sound (`pieces`);
        // otherwise the parser runs on a thread of its own, and this one
        // checks its events, reads the fields and builds the graph
        // meanwhile (with two cores, a third thread for the builder would
        // only take turns with these).
        match pieces::read(reader, text, new_builder) {
            Some(builder) => builder,
            None => {
                let mut builder = new_builder();
                std::thread::scope(|scope| {
                    let (events, parser) = piped::pipe(text);
                    let parsing = scope.spawn(parser);
                    let outcome = reader.yaml(Events::from_raw(text, Limits::default(), events), &mut builder);
                    joined(parsing);
                    outcome
                })?;
                builder
            }
        }
    } else {
        let mut builder = new_builder();
        reader.yaml(Events::new(text), &mut builder)?;
        builder
    };
    builder.finish(allow_thread).map(|mut graph| {
        graph.source = Some(input);
        graph
    })
}

impl Reader<'_> {
    /// Reads the document's `nodes` and `edges` into `sink`; the event
    /// layer refuses repeated keys, so each is met at most once.
    fn yaml<'a, R: RawEvents<'a>>(self, events: Events<'a, R>, sink: &mut dyn Sink<'a>) -> Result<()> {
        let document = self.document(&mut Yaml::new(events), sink)?;
        sink.head(document.head.finish());
        Ok(())
    }

    /// Reads the whole document into `sink`, but its head, which it
    /// returns as read (a piece's head is joined to the other's first).
    fn document<'a, R: RawEvents<'a>>(self, s: &mut Yaml<'a, R>, sink: &mut dyn Sink<'a>) -> Result<Document<'a>> {
        let kind = s.peek_kind()?;
        if kind != Kind::Object {
            // Still require valid YAML, so that "not YAML" wins over
            // "wrong shape".
            let at = s.pos()?;
            s.0.skip_value()?;
            s.0.finish()?;
            return Err(InputError::new(
                format!("the workflow must be a YAML mapping, got {}", yaml_name(kind)),
                Some(at),
            ));
        }
        let mut head = HeadReading::default();
        let mut last = None;
        s.object(|s, key| {
            last = Some((key.clone(), s.pos()?));
            match key.as_ref() {
                "nodes" => self.nodes(s, sink),
                "edges" => self.edges(s, sink),
                key => match head.member(self, s, key)? {
                    true => Ok(()),
                    false => s.skip_value(),
                },
            }
        })?;
        s.0.finish()?;
        Ok(Document { head, last })
    }
}

/// A document read, but for what only its caller can finish.
struct Document<'a> {
    head: HeadReading<'a>,
    /// The last key of the root mapping, and where its value starts.
    last: Option<(Cow<'a, str>, usize)>,
}

/// A kind in YAML's words, for the one message only YAML gives.
fn yaml_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Object => "a mapping",
        Kind::Array => "a sequence",
        Kind::String => "a string",
        other => other.article_name(),
    }
}

/// The event layer as a [`Source`] for the shared field logic, and where
/// the last sequence read whole started and how many items it held.
struct Yaml<'a, R: RawEvents<'a>>(Events<'a, R>, Option<(usize, usize)>);

impl<'a, R: RawEvents<'a>> Yaml<'a, R> {
    fn new(events: Events<'a, R>) -> Self {
        Yaml(events, None)
    }

    /// The next item, which must be `expected` (the caller peeked it).
    fn expect(&mut self, expected: &Event<'_>) -> Result<()> {
        let item = self.0.next()?;
        if &item.event == expected {
            Ok(())
        } else {
            Err(InputError::new(
                format!("expected {expected:?} in the YAML events (a reader's mistake)"),
                Some(item.at),
            ))
        }
    }
}

impl<'a, R: RawEvents<'a>> Source<'a> for Yaml<'a, R> {
    fn pos(&mut self) -> Result<usize> {
        self.0.pos()
    }

    fn peek_kind(&mut self) -> Result<Kind> {
        Ok(self.0.peek()?.kind())
    }

    fn skip_value(&mut self) -> Result<()> {
        self.0.skip_value()
    }

    fn field(&mut self) -> Result<Field<'a>> {
        let kind = self.0.peek()?.kind();
        if kind == Kind::String {
            // Only a scalar is a string, so this takes the whole value.
            if let Event::Scalar(scalar) = self.0.next()?.event {
                return Ok(Field::Str(scalar.value));
            }
        } else {
            self.0.skip_value()?;
        }
        Ok(Field::Other(kind))
    }

    fn object(&mut self, mut member: impl FnMut(&mut Self, Cow<'a, str>) -> Result<()>) -> Result<()> {
        self.expect(&Event::MappingStart)?;
        loop {
            let item = self.0.next()?;
            match item.event {
                Event::MappingEnd => return Ok(()),
                // Keys are scalars: the event layer refuses any other.
                Event::Scalar(key) => member(self, key.value)?,
                _ => {
                    return Err(InputError::new(
                        "a mapping or sequence used as a key (not supported)",
                        Some(item.at),
                    ))
                }
            }
        }
    }

    fn array(&mut self, mut element: impl FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        let start = self.0.pos()?;
        self.expect(&Event::SequenceStart)?;
        let mut index = 0;
        loop {
            if self.0.peek()?.event == Event::SequenceEnd {
                self.0.next()?;
                self.1 = Some((start, index));
                return Ok(());
            }
            element(self, index)?;
            index += 1;
        }
    }

    fn empty_object(&mut self) -> Result<bool> {
        if self.0.peek_second()?.event != Event::MappingEnd {
            return Ok(false);
        }
        self.0.next()?;
        self.0.next()?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Interrupt;

    /// What a graph holds, or the error, as text.
    fn outcome(text: &str, allow_thread: bool) -> std::result::Result<String, InputError> {
        parse_with(
            text.as_bytes(),
            &Config::default(),
            Budget::new(allow_thread, Interrupt::never()),
        )
        .map(|g| {
            let nodes: Vec<String> = (0..g.node_count() as u32)
                .map(|n| format!("{:?}", (g.id(n), g.explicit_label(n), g.offset(n), g.is_passthrough(n))))
                .collect();
            format!(
                "{nodes:?} {} {} {:?} {:?} {:?} {:?}",
                g.edge_count, g.tool_edge_count, g.unknown_edge_types, g.providers, g.receivers, g.head
            )
        })
    }

    /// A Drupal-style workflow of at least `bytes` bytes.
    fn large(bytes: usize) -> String {
        // The head first, so the nodes' events are in flight behind it.
        let mut text = String::from(
            "uuid: x\ndependencies: {  }\nid: large\ninput_ports:\n  - {port: tool, node_id: n4}\n  - 5\nnodes:\n",
        );
        let mut i = 0;
        while text.len() < bytes {
            text.push_str(&format!(
                "  -\n    id: n{i}\n    position: {{x: {i}, 'y': 2.5}}\n    data:\n      label: \"Lé {}\"\n      metadata:\n        node_type_id: {}\n",
                i % 1000,
                if i % 3 == 0 { "flowdrop_node_processor_toolbox" } else { "agent" }
            ));
            i += 1;
        }
        text.push_str("edges:\n");
        for e in 0..i / 2 {
            text.push_str(&format!(
                "  - {{source: n{}, target: n{}, targetHandle: n{}-input-tool}}\n",
                e * 2 + 1,
                e * 2,
                e * 2
            ));
        }
        text
    }

    #[test]
    fn a_large_text_parsed_on_a_second_thread_gives_the_answers_of_one() {
        let text = large(PIPELINE_FROM_BYTES + 100_000);
        // Read in two halves (`pieces`), which must prove the cut sound.
        let config = Config::default();
        let reader = Reader {
            config: &config,
            budget: Budget::full(),
        };
        assert!(pieces::read(reader, &text, || GraphBuilder::with_capacity(16)).is_some());
        let one = outcome(&text, false);
        assert!(one.is_ok());
        assert_eq!(outcome(&text, true), one);
        // Errors near the end, many batches in: worded and placed alike.
        for (broken, starts) in [
            (format!("{text}edges: []\n"), "a key repeated"),
            (format!("{text}---\nnodes: []\n"), "a second YAML document"),
            (format!("{text}  - [unclosed\n"), "invalid YAML"),
            (
                text.replacen("id: n7000\n", "id: n7000\n    id: again\n", 1),
                "a key repeated",
            ),
            (text.replacen("id: n7000\n", "id: 7000\n", 1), "node 7000: `id`"),
        ] {
            let one = outcome(&broken, false).unwrap_err();
            assert!(one.message.starts_with(starts), "{}", one.message);
            assert_eq!(outcome(&broken, true), Err(one));
        }
    }

    #[test]
    fn the_same_workflow_as_json_and_as_yaml_gives_the_same_graph_but_places() {
        let yaml = "nodes:\n  - {id: a, type: toolbox}\n  - id: b\n    data: {label: B, metadata: {id: agent}}\nedges:\n  - {source: a, target: b, data: {edgeType: tool_availability}}\n  - {id: e2, source: b, target: a, data: {edgeType: tool_availabilty}}\n";
        let json = r#"{"nodes": [{"id": "a", "type": "toolbox"}, {"id": "b", "data": {"label": "B", "metadata": {"id": "agent"}}}],
            "edges": [{"source": "a", "target": "b", "data": {"edgeType": "tool_availability"}},
                      {"id": "e2", "source": "b", "target": "a", "data": {"edgeType": "tool_availabilty"}}]}"#;
        let y = parse_with(yaml.as_bytes(), &Config::default(), Budget::full().one_thread()).unwrap();
        let j = super::super::parse(json.as_bytes(), &Config::default()).unwrap();
        assert_eq!(
            (y.node_count(), y.edge_count, y.tool_edge_count),
            (j.node_count(), j.edge_count, j.tool_edge_count)
        );
        assert_eq!(
            (y.id(1), y.label(1), y.is_passthrough(0)),
            (j.id(1), j.label(1), j.is_passthrough(0))
        );
        assert_eq!(y.unknown_edge_types[0].edge_type, "tool_availabilty");
        // Offsets point into the YAML: node 1 starts at its `id:` key.
        assert!(yaml[y.offset(1).unwrap()..].starts_with("id: b"));
    }
}
