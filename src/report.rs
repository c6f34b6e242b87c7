//! What a check finds. Findings are data: a refused workflow is a report with
//! violations, never an error.

use crate::error::Location;
use crate::model::{edge_name, quote};
use crate::names::{NameLoss, UNNAMED_TOOL};

/// One tool that reaches a consumer, with how it gets there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    pub id: String,
    /// The label as written (`data.label`, or the id when there is none).
    pub label: String,
    /// A shortest chain of node ids over tool edges: `[tool, box, ..., consumer]`.
    pub path: Vec<String>,
    /// The tool's node object in the source text (for a node that is never
    /// declared, the first tool edge naming it).
    pub location: Option<Location>,
}

/// One step of a suggested fix: give `node` the label `new_label`, whose
/// tool name is `new_name`, instead of `label`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    pub node: String,
    pub label: String,
    pub new_label: String,
    pub new_name: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// CMP-9: two or more distinct tools reaching `consumer` share `name`.
    ToolNameCollision {
        consumer: String,
        name: String,
        tools: Vec<Tool>,
        message: String,
        /// The consumer's node object (or first tool edge into it).
        location: Option<Location>,
        /// Renames that make every name unique wherever the tools arrive.
        fix: Vec<Rename>,
        /// `(id, data.label)` of the passthroughs on the tools' paths that
        /// have a label other than their id, by id: for showing paths.
        boxes: Vec<(String, String)>,
    },
    /// EDGE-5: a `data.edgeType` nobody recognises.
    UnrecognisedEdgeType {
        edge: usize,
        edge_id: Option<String>,
        edge_type: String,
        message: String,
        location: Option<Location>,
        /// The closest recognised edge type, when one is close.
        suggestion: Option<String>,
    },
}

impl Violation {
    pub fn rule(&self) -> &'static str {
        match self {
            Violation::ToolNameCollision { .. } => "CMP-9",
            Violation::UnrecognisedEdgeType { .. } => "EDGE-5",
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Violation::ToolNameCollision { message, .. } | Violation::UnrecognisedEdgeType { message, .. } => message,
        }
    }

    pub fn location(&self) -> Option<Location> {
        match self {
            Violation::ToolNameCollision { location, .. } | Violation::UnrecognisedEdgeType { location, .. } => {
                *location
            }
        }
    }

    pub(crate) fn collision(
        consumer: &str,
        name: &str,
        tools: Vec<Tool>,
        fix: Vec<Rename>,
        boxes: Vec<(String, String)>,
    ) -> Violation {
        let listed: Vec<String> = tools
            .iter()
            .map(|t| format!("{} ({})", quote(&t.id), quote(&t.label)))
            .collect();
        let message = format!(
            "{} tools reaching {} share the name {}: {}",
            tools.len(),
            quote(consumer),
            quote(name),
            listed.join(", ")
        );
        Violation::ToolNameCollision {
            consumer: consumer.to_owned(),
            name: name.to_owned(),
            tools,
            message,
            location: None,
            fix,
            boxes,
        }
    }

    pub(crate) fn unknown_edge_type(
        edge: usize,
        edge_id: Option<&str>,
        edge_type: &str,
        recognised: &[&str],
        suggestion: Option<&str>,
    ) -> Violation {
        let message = format!(
            "{} declares data.edgeType {}, which is not a recognised edge type (recognised: {})",
            edge_name(edge, edge_id),
            quote(edge_type),
            recognised.join(", ")
        );
        Violation::UnrecognisedEdgeType {
            edge,
            edge_id: edge_id.map(str::to_owned),
            edge_type: edge_type.to_owned(),
            message,
            location: None,
            suggestion: suggestion.map(str::to_owned),
        }
    }
}

/// Something worth knowing that never refuses a workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// `R8`: a tool edge names a node that is not declared. `NAME-LOSSY`: a
    /// tool's label drops letters on the way to its name. `NAME-UNNAMED`:
    /// nothing of it is left but `unnamed_tool`.
    pub code: &'static str,
    pub node: String,
    /// The tool edge, for R8.
    pub edge: Option<usize>,
    pub message: String,
    /// The edge (R8) or the node.
    pub location: Option<Location>,
}

impl Warning {
    pub(crate) fn undeclared(node: &str, edge: usize) -> Warning {
        Warning {
            code: "R8",
            node: node.to_owned(),
            edge: Some(edge),
            message: format!(
                "node {} is wired by tool edge {edge} but never declared; it is checked with no type, named by its id",
                quote(node)
            ),
            location: None,
        }
    }

    /// A tool whose label loses more than case and punctuation; None when
    /// it loses nothing.
    pub(crate) fn lossy_name(node: &str, label: &str, name: &str, loss: NameLoss) -> Option<Warning> {
        let (code, why) = match loss {
            NameLoss::None => return None,
            NameLoss::NonAscii => ("NAME-LOSSY", "non-ASCII characters are dropped from tool names"),
            NameLoss::Everything => (
                "NAME-UNNAMED",
                "it has no ASCII letter or digit, and every such tool is called the same",
            ),
        };
        debug_assert!(loss != NameLoss::Everything || name == UNNAMED_TOOL);
        Some(Warning {
            code,
            node: node.to_owned(),
            edge: None,
            message: format!(
                "tool {} is labelled {}, which becomes the name {}: {why}",
                quote(node),
                quote(label),
                quote(name)
            ),
            location: None,
        })
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Declared nodes.
    pub nodes: usize,
    /// All edges, tool wiring or not.
    pub edges: usize,
    pub tool_edges: usize,
    pub consumers: usize,
    /// Declared nodes whose type is a passthrough type.
    pub passthroughs: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// EDGE-5 violations in edge order, then CMP-9 violations by consumer id
    /// and name.
    pub violations: Vec<Violation>,
    pub warnings: Vec<Warning>,
    pub stats: Stats,
}

impl Report {
    /// Accepted: no violation of any rule.
    pub fn ok(&self) -> bool {
        self.violations.is_empty()
    }
}
