//! The workflow as the front ends hand it to the checker: only the fields
//! SEMANTICS.md names, already reduced to what the check needs. The JSON
//! parser borrows strings from the input buffer; the Python front end owns
//! copies. Both call the same helpers here, so the rules for node types, edge
//! classification and input-error wording exist once.

use std::borrow::Cow;

use crate::config::{Config, TOOL_EDGE_TYPE};
use crate::error::InputError;
use crate::json::plain_run_end;

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

    fn describe(&self) -> &'static str {
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

/// The node type (SEMANTICS 2): `type` when it is a string other than
/// `universalNode`; otherwise (an enriched node, SCH-25, or no `type`) the
/// first string among `data.metadata.node_type_id` and `data.metadata.id`.
pub fn node_type<'s>(
    type_: Option<&'s str>,
    metadata_node_type_id: Option<&'s str>,
    metadata_id: Option<&'s str>,
) -> Option<&'s str> {
    match type_ {
        Some(t) if t != "universalNode" => Some(t),
        _ => metadata_node_type_id.or(metadata_id),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeClass {
    Tool,
    NotTool,
    /// A non-empty declaration nobody recognises: an EDGE-5 violation, and
    /// not a tool edge.
    Unrecognised,
}

/// The port suffix of a tool handle; matched exactly at the end (EDGE-1).
pub const TOOL_HANDLE_SUFFIX: &str = "-input-tool";

/// EDGE-5: a recognised declaration decides; an absent, empty or non-string
/// one falls back to the target handle's exact suffix (EDGE-1).
pub fn classify_edge(declared: Option<&str>, target_handle: Option<&str>, config: &Config) -> EdgeClass {
    match declared {
        Some(TOOL_EDGE_TYPE) => EdgeClass::Tool,
        Some(d) if !d.is_empty() => {
            if config.is_recognised_edge_type(d) {
                EdgeClass::NotTool
            } else {
                EdgeClass::Unrecognised
            }
        }
        _ => match target_handle {
            Some(h) if h.ends_with(TOOL_HANDLE_SUFFIX) => EdgeClass::Tool,
            _ => EdgeClass::NotTool,
        },
    }
}

// Input-error wording, shared by every front end so a message does not
// depend on how the workflow arrived.

pub fn err_top_level(kind: Kind, offset: Option<usize>) -> InputError {
    InputError::new(
        format!("the workflow must be a JSON object, got {}", kind.article_name()),
        offset,
    )
}

/// `key` is "nodes" or "edges".
pub fn err_list_shape(key: &str, kind: Kind, offset: Option<usize>) -> InputError {
    let got = if kind == Kind::Object {
        "a non-empty object"
    } else {
        kind.article_name()
    };
    InputError::new(format!("`{key}` must be an array, got {got}"), offset)
}

pub fn err_node_shape(place: Place, kind: Kind) -> InputError {
    InputError::new(
        format!("node {}: must be an object, got {}", place.index, kind.article_name()),
        place.offset,
    )
}

pub fn err_edge_shape(place: Place, kind: Kind) -> InputError {
    InputError::new(
        format!("edge {}: must be an object, got {}", place.index, kind.article_name()),
        place.offset,
    )
}

pub fn err_node_id(place: Place, id: &Field<'_>) -> InputError {
    InputError::new(
        format!(
            "node {}: `id` must be a non-empty string, got {}",
            place.index,
            id.describe()
        ),
        place.offset,
    )
}

pub fn err_duplicate_id(id: &str, first: usize, second: Place) -> InputError {
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
pub fn err_tool_edge_end(place: Place, edge_id: Option<&str>, end: &str, value: &Field<'_>) -> InputError {
    InputError::new(
        format!(
            "{}: a tool edge needs a non-empty string `{end}`, got {}",
            edge_name(place.index, edge_id),
            value.describe()
        ),
        place.offset,
    )
}

/// `text` as a JSON string literal, the way Python's
/// `json.dumps(text, ensure_ascii=False)` writes it: ids and labels come from
/// JSON, so messages quote them as JSON does. Only `"`, `\\` and control
/// characters are escaped; everything else is shown as it is.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let bytes = text.as_bytes();
    let mut at = 0;
    loop {
        // Escapes are rare: copy the plain run up to the next one whole.
        let stop = plain_run_end(bytes, at);
        out.push_str(&text[at..stop]);
        let Some(&byte) = bytes.get(stop) else { break };
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => out.push_str(&format!("\\u{byte:04x}")),
        }
        at = stop + 1;
    }
    out.push('"');
    out
}

/// "edge 3" or "edge 3 (id \"e4\")".
pub fn edge_name(index: usize, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("edge {index} (id {})", quote(id)),
        None => format!("edge {index}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_writes_json_string_literals() {
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quote("\n\t\u{1}\u{7f}é\u{301}"), "\"\\n\\t\\u0001\u{7f}é\u{301}\"");
    }

    #[test]
    fn node_type_prefers_type_unless_universal_node() {
        assert_eq!(node_type(Some("toolbox"), Some("x"), Some("y")), Some("toolbox"));
        assert_eq!(node_type(Some("universalNode"), None, Some("toolbox")), Some("toolbox"));
        assert_eq!(node_type(None, Some("a"), Some("b")), Some("a"));
        assert_eq!(node_type(None, None, None), None);
    }

    #[test]
    fn edge5_declaration_wins_over_handle() {
        let c = Config::default();
        assert_eq!(
            classify_edge(Some("tool_availability"), Some("x-input-data"), &c),
            EdgeClass::Tool
        );
        assert_eq!(
            classify_edge(Some("data"), Some("x-input-tool"), &c),
            EdgeClass::NotTool
        );
        assert_eq!(
            classify_edge(Some("tool_availabilty"), None, &c),
            EdgeClass::Unrecognised
        );
        assert_eq!(classify_edge(Some(""), Some("x-input-tool"), &c), EdgeClass::Tool);
    }

    #[test]
    fn edge1_handle_suffix_is_exact() {
        let c = Config::default();
        assert_eq!(classify_edge(None, Some("a-input-tool"), &c), EdgeClass::Tool);
        assert_eq!(classify_edge(None, Some("a-input-tools"), &c), EdgeClass::NotTool);
        assert_eq!(classify_edge(None, Some("a-input-tool-2"), &c), EdgeClass::NotTool);
        assert_eq!(classify_edge(None, None, &c), EdgeClass::NotTool);
    }
}
