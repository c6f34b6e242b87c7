//! What a check finds. Findings are data: a refused workflow is a report with
//! violations, never an error.

use crate::model::{edge_name, quote};

/// One tool that reaches a consumer, with how it gets there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    pub id: String,
    /// The label as written (`data.label`, or the id when there is none).
    pub label: String,
    /// A shortest chain of node ids over tool edges: `[tool, box, ..., consumer]`.
    pub path: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// CMP-9: two or more distinct tools reaching `consumer` share `name`.
    ToolNameCollision {
        consumer: String,
        name: String,
        tools: Vec<Tool>,
        message: String,
    },
    /// EDGE-5: a `data.edgeType` nobody recognises.
    UnrecognisedEdgeType {
        edge: usize,
        edge_id: Option<String>,
        edge_type: String,
        message: String,
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

    pub(crate) fn collision(consumer: &str, name: &str, tools: Vec<Tool>) -> Violation {
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
        }
    }

    pub(crate) fn unknown_edge_type(
        edge: usize,
        edge_id: Option<&str>,
        edge_type: &str,
        recognised: &[&str],
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
        }
    }
}

/// Something worth knowing that never refuses a workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The rule the warning relates to (`R8`: an endpoint that is not declared).
    pub code: &'static str,
    pub node: String,
    pub edge: usize,
    pub message: String,
}

impl Warning {
    pub(crate) fn undeclared(node: &str, edge: usize) -> Warning {
        Warning {
            code: "R8",
            node: node.to_owned(),
            edge,
            message: format!(
                "node {} is wired by tool edge {edge} but never declared; it is checked with no type, named by its id",
                quote(node)
            ),
        }
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
