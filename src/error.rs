//! Input errors: the workflow cannot be checked at all (not JSON, wrong
//! shapes, missing or duplicate ids). Findings about a checkable workflow are
//! never errors; they are violations in the report.

use std::fmt;

use crate::input::{Field, Kind, Place};
use crate::locate::Location;
use crate::quote::{edge_name, quote};

/// What is wrong with the input, and where: `message` names the node or edge
/// (index, and id where it has one); `offset` is the byte offset in the JSON
/// text when the input was text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub message: String,
    pub offset: Option<usize>,
}

impl InputError {
    pub fn new(message: impl Into<String>, offset: Option<usize>) -> Self {
        InputError {
            message: message.into(),
            offset,
        }
    }

    // The wording of input errors about shapes and ids, shared by every front
    // end so a message does not depend on how the workflow arrived.

    pub fn top_level(kind: Kind, offset: Option<usize>) -> Self {
        InputError::new(
            format!("the workflow must be a JSON object, got {}", kind.article_name()),
            offset,
        )
    }

    /// `key` is "nodes" or "edges".
    pub fn list_shape(key: &str, kind: Kind, offset: Option<usize>) -> Self {
        let got = if kind == Kind::Object {
            "a non-empty object"
        } else {
            kind.article_name()
        };
        InputError::new(format!("`{key}` must be an array, got {got}"), offset)
    }

    pub fn node_shape(place: Place, kind: Kind) -> Self {
        InputError::new(
            format!("node {}: must be an object, got {}", place.index, kind.article_name()),
            place.offset,
        )
    }

    pub fn edge_shape(place: Place, kind: Kind) -> Self {
        InputError::new(
            format!("edge {}: must be an object, got {}", place.index, kind.article_name()),
            place.offset,
        )
    }

    pub fn node_id(place: Place, id: &Field<'_>) -> Self {
        InputError::new(
            format!(
                "node {}: `id` must be a non-empty string, got {}",
                place.index,
                id.describe()
            ),
            place.offset,
        )
    }

    /// R2: `first` is the index of the node that had the id first.
    pub fn duplicate_id(id: &str, first: usize, second: Place) -> Self {
        InputError::new(
            format!(
                "duplicate node id {}: nodes {first} and {} (R2)",
                quote(id),
                second.index
            ),
            second.offset,
        )
    }

    /// `end` is "source" or "target".
    pub fn tool_edge_end(place: Place, edge_id: Option<&str>, end: &str, value: &Field<'_>) -> Self {
        InputError::new(
            format!(
                "{}: a tool edge needs a non-empty string `{end}`, got {}",
                edge_name(place.index, edge_id),
                value.describe()
            ),
            place.offset,
        )
    }

    pub fn location(&self, text: &[u8]) -> Option<Location> {
        self.offset.map(|offset| Location::of(text, offset))
    }

    /// The message with its location appended, for text input.
    pub fn describe(&self, text: &[u8]) -> String {
        match self.location(text) {
            Some(at) => format!("{} at line {}, column {}", self.message, at.line, at.column),
            None => self.message.clone(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

/// Why the core could not answer: the one error type of its entry points
/// (`engine`), so that a front end maps each kind once.
#[derive(Debug)]
pub enum Error {
    /// The workflow cannot be checked; located when the input was text.
    Input(InputError, Option<Location>),
    /// `explain` was asked about a node the workflow does not have.
    UnknownNode(String),
    /// The caller asked the work to stop.
    Interrupted,
    /// The file could not be read.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(e, _) => f.write_str(&e.message),
            Error::UnknownNode(id) => write!(f, "there is no node {} in the workflow", quote(id)),
            Error::Interrupted => f.write_str("interrupted"),
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}
