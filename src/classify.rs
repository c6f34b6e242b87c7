//! Classifying what was read in the graph's terms: a node's type and
//! whether it forwards tools (SEMANTICS 2, CMP-9), and whether an edge is a
//! tool edge (EDGE-1, EDGE-5). Both front ends call these, so a workflow
//! means the same whether it arrived as text or as Python objects.

use std::borrow::Cow;

use crate::config::{Config, TOOL_EDGE_TYPE};

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

/// `node_type`, keeping the string it picks (for CMP-10, which reports it).
pub fn owned_node_type<'s>(
    type_: Option<Cow<'s, str>>,
    metadata_node_type_id: Option<Cow<'s, str>>,
    metadata_id: Option<Cow<'s, str>>,
) -> Option<Cow<'s, str>> {
    match type_ {
        Some(t) if t != "universalNode" => Some(t),
        _ => metadata_node_type_id.or(metadata_id),
    }
}

/// Whether a node forwards every tool wired into it (a CMP-9 passthrough),
/// from the fields that give its type.
pub fn is_passthrough_node(
    config: &Config,
    type_: Option<&str>,
    metadata_node_type_id: Option<&str>,
    metadata_id: Option<&str>,
) -> bool {
    node_type(type_, metadata_node_type_id, metadata_id).is_some_and(|t| config.is_passthrough_type(t))
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

#[cfg(test)]
mod tests {
    use super::*;

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
