//! YAML text to [`ToolGraph`]: workflows stored as Drupal configuration
//! (SEMANTICS.md section 10), read through the strict event layer in
//! [`events`] and fed to the same field logic as JSON (`super::Source`),
//! so a node or edge means the same in both formats. Everything but
//! `nodes` and `edges` is skipped unread; every place is a byte offset
//! into the YAML text.
//!
//! The core schema decides what is a string: a plain `true`, `1.5` or `~`
//! where an id, type, label, edge type or handle belongs is a non-string,
//! as a non-string is in JSON. A repeated key is an input error here (the
//! event layer's), not JSON's DUPLICATE-KEY warning.

use std::borrow::Cow;

use super::{utf8_of, Format, Reader, Result, Source, PIPELINE_FROM_BYTES};
use crate::config::Config;
use crate::error::InputError;
use crate::graph::{GraphBuilder, Sink, ToolGraph};
use crate::input::{Field, Kind};
use crate::interrupt::Interrupt;
use crate::parse::threaded::on_two_threads;
use events::{Event, Events};

pub mod events;

/// Parses a workflow from bytes, which must be UTF-8 YAML text holding one
/// mapping. Large inputs build the graph on a second thread when
/// `allow_thread`; `interrupt` stops the read with an error.
pub fn parse_with<'a>(
    input: &'a [u8],
    config: &Config,
    allow_thread: bool,
    interrupt: Interrupt<'_>,
) -> Result<ToolGraph<'a>> {
    let text = utf8_of(input, allow_thread, Format::Yaml)?;
    let reader = Reader { config, interrupt };
    // YAML spends more bytes per node than JSON (indentation, one key a
    // line): guessing low only means the table grows once or twice.
    let expected_nodes = (text.len() / 768).min(1 << 26);
    let keep_types = config.keeps_node_types(); // for CMP-10
    let builder = if allow_thread && text.len() >= PIPELINE_FROM_BYTES {
        let (outcome, builder) = on_two_threads(expected_nodes, keep_types, |sink| reader.yaml(text, sink));
        outcome?;
        builder
    } else {
        let mut builder = GraphBuilder::with_capacity(expected_nodes).keeping_types(keep_types);
        reader.yaml(text, &mut builder)?;
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
    fn yaml<'a>(self, text: &'a str, sink: &mut dyn Sink<'a>) -> Result<()> {
        let mut s = Yaml(Events::new(text));
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
        s.object(|s, key| match key.as_ref() {
            "nodes" => self.nodes(s, sink),
            "edges" => self.edges(s, sink),
            _ => s.skip_value(),
        })?;
        s.0.finish()
    }
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

/// The event layer as a [`Source`] for the shared field logic.
struct Yaml<'a>(Events<'a>);

impl<'a> Yaml<'a> {
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

impl<'a> Source<'a> for Yaml<'a> {
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
        self.expect(&Event::SequenceStart)?;
        let mut index = 0;
        loop {
            if self.0.peek()?.event == Event::SequenceEnd {
                self.0.next()?;
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
