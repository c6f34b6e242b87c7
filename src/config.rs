//! What the caller may configure: which node types forward tools, which
//! `data.edgeType` declarations are recognised (EDGE-5), and the node-type
//! catalogue CMP-10 is checked against.

use std::sync::Arc;

use crate::catalogue::Catalogue;

/// Node types that forward every tool wired into them (CMP-9 passthroughs).
pub const DEFAULT_PASSTHROUGH_TYPES: &[&str] = &["toolbox", "flowdrop_node_processor_toolbox"];

/// Edge type declarations recognised by default (EDGE-5).
pub const DEFAULT_EDGE_TYPES: &[&str] = &["data", "trigger", "loopback", "error", "tool_availability"];

/// The declaration that makes an edge a tool edge whatever its handles say.
pub const TOOL_EDGE_TYPE: &str = "tool_availability";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub passthrough_types: Vec<String>,
    /// Recognised declarations. `tool_availability` is always recognised,
    /// listed here or not: EDGE-5 makes it a tool edge before anything else.
    pub edge_types: Vec<String>,
    /// The node types CMP-10 is checked against; None: CMP-10 is not
    /// checked (SEMANTICS 11). Shared, as one catalogue serves many files.
    pub catalogue: Option<Arc<Catalogue>>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            passthrough_types: DEFAULT_PASSTHROUGH_TYPES.iter().map(|s| s.to_string()).collect(),
            edge_types: DEFAULT_EDGE_TYPES.iter().map(|s| s.to_string()).collect(),
            catalogue: None,
        }
    }
}

impl Config {
    /// This configuration checking CMP-10 against `catalogue`, whose types
    /// run by the Tool Box join the passthroughs whatever their ids (sites
    /// choose their own; SEMANTICS 11).
    pub fn with_catalogue(mut self, catalogue: Arc<Catalogue>) -> Config {
        for id in catalogue.passthrough_ids() {
            if !self.is_passthrough_type(id) {
                self.passthrough_types.push(id.to_owned());
            }
        }
        self.catalogue = Some(catalogue);
        self
    }

    /// Whether node types are kept while reading (only CMP-10 needs them).
    pub fn keeps_node_types(&self) -> bool {
        self.catalogue.is_some()
    }

    /// The lists are short, so a linear scan beats hashing here.
    pub fn is_passthrough_type(&self, node_type: &str) -> bool {
        self.passthrough_types.iter().any(|t| t == node_type)
    }

    pub fn is_recognised_edge_type(&self, edge_type: &str) -> bool {
        edge_type == TOOL_EDGE_TYPE || self.edge_types.iter().any(|t| t == edge_type)
    }

    /// The recognised declarations, sorted and without repeats, for messages.
    pub fn recognised_edge_types(&self) -> Vec<&str> {
        let mut all: Vec<&str> = self.edge_types.iter().map(String::as_str).collect();
        all.push(TOOL_EDGE_TYPE);
        all.sort_unstable();
        all.dedup();
        all
    }
}
