//! A workflow's head: its own `id` and the `tool` entries of its
//! `input_ports` (SEMANTICS.md section 12), which a site check needs to
//! follow a call into the workflow. Read in the same pass as `nodes` and
//! `edges` by every front end, but only data: what cannot be read here is a
//! problem kept beside the head, never an input error of the file, so a
//! workflow checked alone gets exactly the report it got before heads were
//! read (the single-file check never looks at the head).

use std::borrow::Cow;

use crate::error::InputError;
use crate::graph::NodeIx;
use crate::input::{Field, Kind};

/// The document's `id` and its `tool` input ports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Head<'a> {
    /// The top-level `id` when it is a string; None when absent or of
    /// another kind (then `problems` says so).
    pub id: Option<Cow<'a, str>>,
    /// Where the `id` value starts in the text, when the key is there and
    /// the head was read from text (a non-string `id` too).
    pub id_offset: Option<usize>,
    /// Each `input_ports` entry whose `port` is the string `tool`, in order.
    pub tool_ports: Vec<ToolPort<'a>>,
    /// What could not be read: the `id`'s first, then `input_ports`' in
    /// the order of the entries.
    pub problems: Vec<InputError>,
}

/// One entry of `input_ports` with `port: tool`: every tool wired to a node
/// that runs this workflow reaches node `node_id` inside it (section 12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolPort<'a> {
    pub node_id: Cow<'a, str>,
    /// Its position in `input_ports`.
    pub index: usize,
    /// Where the entry starts in the text, when it was read from text.
    pub offset: Option<usize>,
    /// The node `node_id` names, once the graph is finished: None before,
    /// and when no node with that id is declared or wired.
    pub node: Option<NodeIx>,
}

impl<'a> Head<'a> {
    /// Adds what an `input_ports` entry gave.
    pub fn push(&mut self, entry: Entry<'a>) {
        match entry {
            Entry::Tool(port) => self.tool_ports.push(port),
            Entry::Problem(problem) => self.problems.push(problem),
            Entry::Other => {}
        }
    }

    /// The same head owning its strings, for a graph that outlives its input.
    pub fn into_owned(self) -> Head<'static> {
        Head {
            id: self.id.map(|id| Cow::Owned(id.into_owned())),
            id_offset: self.id_offset,
            tool_ports: (self.tool_ports.into_iter())
                .map(|p| ToolPort {
                    node_id: Cow::Owned(p.node_id.into_owned()),
                    index: p.index,
                    offset: p.offset,
                    node: p.node,
                })
                .collect(),
            problems: self.problems,
        }
    }
}

// The wording of head problems, shared by every front end so a message does
// not depend on how the workflow arrived.

/// A top-level `id` that is not a string.
pub fn id_problem(kind: Kind, offset: Option<usize>) -> InputError {
    InputError::new(
        format!("the workflow's `id` must be a string, got {}", kind.article_name()),
        offset,
    )
}

/// An `input_ports` value that is neither an array nor empty.
pub fn ports_shape_problem(kind: Kind, offset: Option<usize>) -> InputError {
    InputError::list_shape("input_ports", kind, offset)
}

/// Entry `index` of `input_ports` is not an object.
pub fn port_shape_problem(index: usize, kind: Kind, offset: Option<usize>) -> InputError {
    InputError::new(
        format!("`input_ports[{index}]` must be an object, got {}", kind.article_name()),
        offset,
    )
}

/// Entry `index` is a `tool` port whose `node_id` is not a string.
pub fn port_node_id_problem(index: usize, node_id: &Field<'_>, offset: Option<usize>) -> InputError {
    InputError::new(
        format!(
            "`input_ports[{index}]`: a `tool` port needs a string `node_id`, got {}",
            node_id.describe()
        ),
        offset,
    )
}

/// What reading one `input_ports` entry gives, whatever the front end.
pub enum Entry<'a> {
    /// A `tool` port.
    Tool(ToolPort<'a>),
    /// A `tool` port that cannot be used.
    Problem(InputError),
    /// Another port: not a tool port, nothing to keep.
    Other,
}

/// Entry `index` (at `offset`), from its `port` and `node_id` fields.
pub fn entry<'a>(index: usize, offset: Option<usize>, port: &Field<'_>, node_id: Field<'a>) -> Entry<'a> {
    if port.as_str() != Some("tool") {
        return Entry::Other;
    }
    match node_id {
        Field::Str(node_id) => Entry::Tool(ToolPort {
            node_id,
            index,
            offset,
            node: None,
        }),
        other => Entry::Problem(port_node_id_problem(index, &other, offset)),
    }
}
