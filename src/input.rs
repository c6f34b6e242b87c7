//! What a front end reads from a workflow, before the graph builder sees it:
//! the JSON type of a value, a field that should hold a string, and where a
//! node or edge sits in the input. Both front ends (the JSON parser and the
//! Python walker) speak this vocabulary, so it depends on nothing else.

use std::borrow::Cow;

/// The JSON type of a value, for messages about wrong shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
    /// A Python object JSON cannot produce (a tuple, a set, ...).
    Foreign,
}

impl Kind {
    pub fn article_name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
            Kind::Foreign => "a value JSON cannot hold",
        }
    }
}

/// A field that must be a string: the string, or what was there instead.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Field<'a> {
    #[default]
    Missing,
    Str(Cow<'a, str>),
    Other(Kind),
}

impl<'a> Field<'a> {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Field::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The string when it is a non-empty one, else the field itself back.
    pub fn into_non_empty(self) -> Result<Cow<'a, str>, Field<'a>> {
        match self {
            Field::Str(s) if !s.is_empty() => Ok(s),
            other => Err(other),
        }
    }

    /// Keeps the string, forgets anything else (for fields where a
    /// non-string counts as absent).
    pub fn into_string(self) -> Option<Cow<'a, str>> {
        match self {
            Field::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn describe(&self) -> &'static str {
        match self {
            Field::Missing => "missing",
            Field::Str(s) if s.is_empty() => "an empty string",
            Field::Str(_) => "a string",
            Field::Other(kind) => kind.article_name(),
        }
    }
}

/// Where a node or edge sits in the input: its index in `nodes` or `edges`,
/// and the byte offset of its object when the input was JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub index: usize,
    pub offset: Option<usize>,
}

/// An edge whose `data.edgeType` nobody recognises (EDGE-5 violation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownEdgeType<'a> {
    pub place: Place,
    pub id: Option<Cow<'a, str>>,
    pub edge_type: Cow<'a, str>,
}

/// The object a key was repeated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Within {
    /// The top-level object (`nodes`, `edges`).
    Workflow,
    /// Node `index` of `nodes`, or its `data` or `data.metadata`.
    Node(usize),
    /// Edge `index` of `edges`, or its `data`.
    Edge(usize),
}

/// A key read more than once in one object (DUPLICATE-KEY warning): the
/// last value is the one read, as in JavaScript and PHP, and this says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey<'a> {
    pub within: Within,
    /// The node's or edge's `id`, when it has a string one (the last).
    pub id: Option<Cow<'a, str>>,
    /// The key as a path from the node or edge: `id`, `data.label`, ...
    pub key: &'static str,
    /// The offset of the repeated key's value (only JSON text has
    /// repeated keys); the key is located by reading back from it
    /// (`parse::key_before`), so the parser records nothing per key.
    pub value_at: usize,
}
