//! What a site check finds (SEMANTICS 12), as plain data for the front
//! ends: clashes across calls with their chains and paths, errors of the
//! site, and the counted work.

use super::{ChainCount, SiteWarning};
use crate::locate::Location;

/// A node in a workflow of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodePlace {
    /// The workflow's id (its file when it has none).
    pub workflow: String,
    pub file: String,
    pub node: String,
    pub location: Option<Location>,
}

/// One call of a chain: `place` runs the workflow `runs`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallStep {
    pub place: NodePlace,
    pub runs: String,
}

/// The stretch of a tool's path inside one workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPart {
    pub workflow: String,
    pub file: String,
    pub nodes: Vec<(String, Option<Location>)>,
}

/// A tool of a call finding, with its path across workflows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallTool {
    pub place: NodePlace,
    pub label: String,
    pub path: Vec<PathPart>,
}

/// A CMP-9 violation inside a called workflow, belonging to the report of
/// the workflow that starts the chain of calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallFinding {
    pub name: String,
    /// How many chains of calls bring this clash.
    pub chains: ChainCount,
    /// A shortest chain; `chain[0]` is in the calling workflow.
    pub chain: Vec<CallStep>,
    pub consumer: NodePlace,
    /// Sorted by workflow, then id.
    pub tools: Vec<CallTool>,
}

/// An error of the site as a whole: a cycle of calls, or a workflow id
/// defined twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteError {
    pub message: String,
    pub workflows: Vec<String>,
    pub files: Vec<String>,
}

/// Counted work of a site check (deterministic: see `work.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SiteWork {
    /// Distinct (workflow, state) pairs expanded, over every caller.
    pub states: u64,
    /// Names carried by those states, summed.
    pub state_names: u64,
    /// Findings made by a state (before equal ones are merged).
    pub contributions: u64,
    /// Chains carried into a state, a group of alike calls at a time.
    pub arrivals: u64,
    /// The facts' walks: tool edges followed and path steps kept, summed
    /// over the workflows (see `facts`).
    pub walked: u64,
}

/// What a site check finds, per workflow in the order given.
#[derive(Debug, Clone, Default)]
pub struct SiteReport {
    pub calls: Vec<Vec<CallFinding>>,
    pub warnings: Vec<Vec<SiteWarning>>,
    pub errors: Vec<SiteError>,
    pub work: SiteWork,
}
