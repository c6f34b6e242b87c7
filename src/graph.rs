//! The tool-wiring graph: every declared node, every node that appears only
//! as a tool-edge endpoint, and the tool edges between them, as compact
//! adjacency arrays indexed by `u32` node numbers.

use std::collections::HashMap;

use foldhash::fast::RandomState;

use crate::error::InputError;
use crate::model::{self, RawWorkflow};

pub type NodeIx = u32;

/// Adjacency in compressed sparse row form: the neighbours of node `n` are
/// `targets[starts[n]..starts[n + 1]]`, in edge order.
#[derive(Debug, Default)]
pub struct Adjacency {
    starts: Vec<u32>,
    targets: Vec<NodeIx>,
}

impl Adjacency {
    fn build(node_count: usize, edges: &[(NodeIx, NodeIx)]) -> Adjacency {
        // Counting sort by source keeps edges in document order within a node,
        // so every walk over it is deterministic.
        let mut starts = vec![0u32; node_count + 1];
        for &(from, _) in edges {
            starts[from as usize + 1] += 1;
        }
        for i in 0..node_count {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut targets = vec![0; edges.len()];
        for &(from, to) in edges {
            let slot = &mut fill[from as usize];
            targets[*slot as usize] = to;
            *slot += 1;
        }
        Adjacency { starts, targets }
    }

    pub fn of(&self, node: NodeIx) -> &[NodeIx] {
        let n = node as usize;
        &self.targets[self.starts[n] as usize..self.starts[n + 1] as usize]
    }

    pub fn degree(&self, node: NodeIx) -> usize {
        self.of(node).len()
    }
}

/// A node used as a tool-edge endpoint without being declared (R8): allowed,
/// and reported as a warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undeclared {
    pub node: NodeIx,
    /// The first tool edge that names it.
    pub edge_index: usize,
}

#[derive(Debug)]
pub struct ToolGraph<'w> {
    /// Node ids; declared nodes first, in document order, then undeclared.
    pub ids: Vec<&'w str>,
    /// What a tool is called before naming: `data.label`, or the id.
    pub labels: Vec<&'w str>,
    pub passthrough: Vec<bool>,
    pub declared: usize,
    pub undeclared: Vec<Undeclared>,
    /// Tool edges by receiver: the providers wired into each node.
    pub providers: Adjacency,
    /// Tool edges by provider: the receivers each node is wired into.
    pub receivers: Adjacency,
    pub tool_edge_count: usize,
}

impl<'w> ToolGraph<'w> {
    /// Validates ids (non-empty strings, unique: R2) and tool-edge endpoints,
    /// and builds the graph. Input errors come in document order: nodes
    /// first, then edges.
    pub fn build(raw: &'w RawWorkflow<'_>) -> Result<ToolGraph<'w>, InputError> {
        let node_count = raw.nodes.len();
        let mut index: HashMap<&'w str, NodeIx, RandomState> =
            HashMap::with_capacity_and_hasher(node_count, RandomState::default());
        let mut ids = Vec::with_capacity(node_count);
        let mut labels = Vec::with_capacity(node_count);
        let mut passthrough = Vec::with_capacity(node_count);
        for node in &raw.nodes {
            let Some(id) = node.id.non_empty() else {
                return Err(model::err_node_id(node));
            };
            let ix = to_ix(ids.len())?;
            if let Some(&first) = index.get(id) {
                return Err(model::err_duplicate_id(
                    id,
                    raw.nodes[first as usize].index,
                    node,
                ));
            }
            index.insert(id, ix);
            ids.push(id);
            labels.push(node.label.as_deref().unwrap_or(id));
            passthrough.push(node.passthrough);
        }
        let declared = ids.len();

        let mut undeclared = Vec::new();
        let mut edges = Vec::with_capacity(raw.tool_edges.len());
        for edge in &raw.tool_edges {
            let mut endpoint = |field: &'w model::Field<'_>, end: &str| {
                let Some(id) = field.non_empty() else {
                    return Err(model::err_tool_edge_end(edge, end, field));
                };
                if let Some(&ix) = index.get(id) {
                    return Ok(ix);
                }
                let ix = to_ix(ids.len())?;
                index.insert(id, ix);
                ids.push(id);
                labels.push(id);
                passthrough.push(false);
                undeclared.push(Undeclared {
                    node: ix,
                    edge_index: edge.index,
                });
                Ok(ix)
            };
            let source = endpoint(&edge.source, "source")?;
            let target = endpoint(&edge.target, "target")?;
            edges.push((source, target));
        }

        let node_count = ids.len();
        let reversed: Vec<(NodeIx, NodeIx)> = edges.iter().map(|&(s, t)| (t, s)).collect();
        Ok(ToolGraph {
            providers: Adjacency::build(node_count, &reversed),
            receivers: Adjacency::build(node_count, &edges),
            ids,
            labels,
            passthrough,
            declared,
            undeclared,
            tool_edge_count: edges.len(),
        })
    }

    pub fn node_count(&self) -> usize {
        self.ids.len()
    }

    pub fn is_passthrough(&self, node: NodeIx) -> bool {
        self.passthrough[node as usize]
    }

    pub fn id(&self, node: NodeIx) -> &'w str {
        self.ids[node as usize]
    }

    /// CMP-9 consumers: nodes that are not passthroughs and receive at least
    /// one tool edge, declared or not.
    pub fn consumers(&self) -> impl Iterator<Item = NodeIx> + '_ {
        (0..self.node_count() as NodeIx)
            .filter(|&n| !self.is_passthrough(n) && self.providers.degree(n) > 0)
    }
}

fn to_ix(n: usize) -> Result<NodeIx, InputError> {
    NodeIx::try_from(n)
        .ok()
        .filter(|&ix| ix < NodeIx::MAX)
        .ok_or_else(|| InputError::new("the workflow has more than 4,294,967,294 nodes", None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse::parse, Config};

    #[test]
    fn r2_duplicate_ids_are_refused_naming_the_id() {
        let raw = parse(
            br#"{"nodes": [{"id": "a"}, {"id": "b"}, {"id": "a"}]}"#,
            &Config::default(),
        )
        .unwrap();
        let e = ToolGraph::build(&raw).unwrap_err();
        assert_eq!(e.message, "duplicate node id \"a\": nodes 0 and 2 (R2)");
    }

    #[test]
    fn node_ids_must_be_non_empty_strings() {
        for (doc, got) in [
            (r#"{"nodes": [{"id": ""}]}"#, "an empty string"),
            (r#"{"nodes": [{"id": 7}]}"#, "a number"),
            (r#"{"nodes": [{}]}"#, "missing"),
        ] {
            let raw = parse(doc.as_bytes(), &Config::default()).unwrap();
            let e = ToolGraph::build(&raw).unwrap_err();
            assert_eq!(
                e.message,
                format!("node 0: `id` must be a non-empty string, got {got}")
            );
        }
    }

    #[test]
    fn undeclared_endpoints_become_nodes_labelled_by_id() {
        let doc = r#"{"nodes": [{"id": "t", "data": {"label": "T"}}],
                      "edges": [{"source": "t", "target": "agent", "data": {"edgeType": "tool_availability"}}]}"#;
        let raw = parse(doc.as_bytes(), &Config::default()).unwrap();
        let g = ToolGraph::build(&raw).unwrap();
        assert_eq!(g.ids, ["t", "agent"]);
        assert_eq!(g.labels, ["T", "agent"]);
        assert_eq!(
            g.undeclared,
            [Undeclared {
                node: 1,
                edge_index: 0
            }]
        );
        assert_eq!(g.providers.of(1), [0]);
        assert_eq!(g.consumers().collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn tool_edge_without_endpoint_is_refused_naming_the_edge() {
        let doc = r#"{"edges": [{"id": "e0", "source": "a", "data": {"edgeType": "tool_availability"}}]}"#;
        let raw = parse(doc.as_bytes(), &Config::default()).unwrap();
        let e = ToolGraph::build(&raw).unwrap_err();
        assert_eq!(
            e.message,
            "edge 0 (id \"e0\"): a tool edge needs a non-empty string `target`, got missing"
        );
    }
}
