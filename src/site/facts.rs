//! What one workflow tells the site check (SEMANTICS 12), taken from its
//! graph before the graph is checked and dropped: the nodes that run other
//! workflows (call nodes) with the tools that reach each, and the nodes the
//! workflow's `tool` input ports hand a caller's tools to (its *endpoints*),
//! with the workflow's own tools that reach each and the path from the port.
//!
//! Only these nodes are looked at, each by one breadth-first walk over
//! passthroughs, so the cost is the sum of their walks: what the per-consumer
//! flattening costs for these nodes alone (docs/RELIABILITY.md states it as
//! the site check's bound). Everything is owned, so a site's facts outlive
//! the files they were read from.

use crate::catalogue::Catalogue;
use crate::graph::{NodeIx, ToolGraph};
use crate::locate::{locate_known, Location};
use crate::maps::{new_map, Map};
use crate::names::name_into;
use crate::quote::quote;

/// A node the facts name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactNode {
    pub id: String,
    /// `data.label`, or the id.
    pub label: String,
    /// The tool name of the label (SEMANTICS 5).
    pub name: String,
    pub location: Option<Location>,
}

/// A tool (a leaf of SEMANTICS 4) that reaches a node, and a shortest path
/// `[leaf, box, ..., node]` of fact-node numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    pub leaf: u32,
    pub path: Vec<u32>,
}

/// A node whose type runs another workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallNode {
    pub node: u32,
    /// The id of the workflow it runs.
    pub runs: String,
    /// This workflow's tools that reach it, by leaf id.
    pub own: Vec<Reach>,
}

/// A node a `tool` input port hands a caller's tools to: the port's node
/// itself when it is not a passthrough, or a non-passthrough node the
/// port's passthrough forwards to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub node: u32,
    /// A shortest path `[port node, box, ..., node]`.
    pub from_port: Vec<u32>,
    /// This workflow's tools that reach it, by leaf id.
    pub own: Vec<Reach>,
    /// Its number in `calls` when it runs a workflow itself.
    pub call: Option<u32>,
}

/// A note about the workflow that only a site check makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteWarning {
    pub code: &'static str,
    pub node: String,
    pub message: String,
    pub location: Option<Location>,
}

/// One `tool` entry of the workflow's `input_ports`, as the reader found it.
#[derive(Debug, Clone, Copy)]
pub struct PortRef<'g> {
    pub node_id: &'g str,
    pub node: Option<NodeIx>,
    pub index: usize,
    pub offset: Option<usize>,
}

/// What the reader found in the document besides nodes and edges.
#[derive(Debug, Clone, Copy)]
pub struct Head<'g> {
    pub id: Option<&'g str>,
    pub tool_ports: &'g [PortRef<'g>],
    /// `input_ports` entries that cannot be read: message and offset.
    pub problems: &'g [(&'g str, Option<usize>)],
}

/// One workflow's facts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Workflow {
    pub id: Option<String>,
    pub file: String,
    pub nodes: Vec<FactNode>,
    pub calls: Vec<CallNode>,
    pub endpoints: Vec<Endpoint>,
    pub warnings: Vec<SiteWarning>,
}

/// Reads the facts of `graph`, stored in `file`, under `catalogue`.
pub fn facts(graph: &ToolGraph<'_>, file: &str, head: Head<'_>, catalogue: &Catalogue) -> Workflow {
    // Each distinct type looked up once, not once per node.
    let mut called: Vec<(NodeIx, String)> = Vec::new();
    if let Some(types) = &graph.node_types {
        let runs: Vec<Option<&String>> = types
            .names
            .iter()
            .map(|t| catalogue.get(t).and_then(|t| t.runs.as_ref()))
            .collect();
        for (node, &t) in types.of_node.iter().enumerate() {
            if let Some(Some(workflow)) = runs.get(t as usize) {
                called.push((node as NodeIx, (*workflow).clone()));
            }
        }
    }
    if called.is_empty() && head.tool_ports.is_empty() && head.problems.is_empty() {
        // Nothing here for calls to cross: the usual case, at no cost.
        return Workflow {
            id: head.id.map(str::to_owned),
            file: file.to_owned(),
            ..Workflow::default()
        };
    }
    let mut made = Maker {
        graph,
        numbers: new_map(),
        nodes: Vec::new(),
        offsets: Vec::new(),
        seen: Stamps::new(graph.node_count()),
        problems: Vec::new(),
    };
    let mut calls = Vec::new();
    let mut call_of: Map<NodeIx, u32> = new_map();
    for (node, runs) in called {
        call_of.insert(node, calls.len() as u32);
        let own = made.own(node);
        let node = made.number(node);
        calls.push(CallNode { node, runs, own });
    }
    let mut endpoints = Vec::new();
    for (node, from_port) in made.endpoints(head) {
        let own = made.own(node);
        let call = call_of.get(&node).copied();
        let from_port = from_port.into_iter().map(|n| made.number(n)).collect();
        endpoints.push(Endpoint {
            node: made.number(node),
            from_port,
            own,
            call,
        });
    }
    let mut warnings: Vec<(SiteWarning, Option<usize>)> = head
        .problems
        .iter()
        .map(|&(message, offset)| {
            (
                SiteWarning {
                    // The head reader's messages name what they are about.
                    code: if message.contains("input_ports") {
                        "CMP-9-PORT"
                    } else {
                        "CMP-9-ID"
                    },
                    node: String::new(),
                    message: message.to_owned(),
                    location: None,
                },
                offset,
            )
        })
        .collect();
    warnings.append(&mut made.problems);
    let located = graph.source.map(|text| {
        let mut offsets = made.offsets.clone();
        offsets.extend(warnings.iter().map(|(_, o)| *o));
        locate_known(text, &offsets)
    });
    let mut nodes = made.nodes;
    if let Some(located) = located {
        for (node, at) in nodes.iter_mut().zip(&located) {
            node.location = *at;
        }
        for ((warning, _), at) in warnings.iter_mut().zip(&located[nodes.len()..]) {
            warning.location = *at;
        }
    }
    Workflow {
        id: head.id.map(str::to_owned),
        file: file.to_owned(),
        nodes,
        calls,
        endpoints,
        warnings: warnings.into_iter().map(|(w, _)| w).collect(),
    }
}

/// Per node of the graph, the walk that last saw it: resetting costs
/// nothing between walks.
struct Stamps {
    stamp: u32,
    seen: Vec<u32>,
    parent: Vec<NodeIx>,
}

impl Stamps {
    fn new(nodes: usize) -> Stamps {
        Stamps {
            stamp: 0,
            seen: vec![0; nodes],
            parent: vec![0; nodes],
        }
    }

    fn next_walk(&mut self) {
        self.stamp += 1;
    }

    /// Marks `node` seen from `parent`; false when this walk saw it already.
    fn visit(&mut self, node: NodeIx, parent: NodeIx) -> bool {
        let n = node as usize;
        if self.seen[n] == self.stamp {
            return false;
        }
        self.seen[n] = self.stamp;
        self.parent[n] = parent;
        true
    }

    /// `[node, parent, parent's parent, ..., root]`, the root being the node
    /// that is its own parent.
    fn path_from(&self, mut node: NodeIx) -> Vec<NodeIx> {
        let mut path = vec![node];
        while self.parent[node as usize] != node {
            node = self.parent[node as usize];
            path.push(node);
        }
        path
    }
}

struct Maker<'m, 'g> {
    graph: &'m ToolGraph<'g>,
    numbers: Map<NodeIx, u32>,
    nodes: Vec<FactNode>,
    offsets: Vec<Option<usize>>,
    seen: Stamps,
    problems: Vec<(SiteWarning, Option<usize>)>,
}

impl Maker<'_, '_> {
    /// The fact-node number of `node`, naming it the first time.
    fn number(&mut self, node: NodeIx) -> u32 {
        if let Some(&n) = self.numbers.get(&node) {
            return n;
        }
        let n = self.nodes.len() as u32;
        let label = self.graph.label(node).to_owned();
        let mut name = String::new();
        name_into(&label, &mut name);
        self.nodes.push(FactNode {
            id: self.graph.id(node).to_owned(),
            label,
            name,
            location: None,
        });
        self.offsets.push(self.graph.offset(node));
        self.numbers.insert(node, n);
        n
    }

    /// The tools that reach `node`: one breadth-first walk back over tool
    /// edges, through passthroughs only, so each leaf's path is shortest and
    /// a leaf met by two routes is one leaf (SEMANTICS 4).
    fn own(&mut self, node: NodeIx) -> Vec<Reach> {
        let g = self.graph;
        self.seen.next_walk();
        self.seen.visit(node, node);
        let mut queue = vec![node];
        let mut leaves = Vec::new();
        let mut at = 0;
        while at < queue.len() {
            let here = queue[at];
            at += 1;
            for &provider in g.providers.of(here) {
                if !self.seen.visit(provider, here) {
                    continue;
                }
                if g.is_passthrough(provider) {
                    queue.push(provider);
                } else {
                    leaves.push(provider);
                }
            }
        }
        g.sort_by_id(&mut leaves);
        leaves
            .into_iter()
            .map(|leaf| {
                let path = self.seen.path_from(leaf);
                let path: Vec<u32> = path.into_iter().map(|n| self.number(n)).collect();
                Reach { leaf: path[0], path }
            })
            .collect()
    }

    /// The nodes the tool ports hand tools to, each with a shortest path
    /// from a port: one breadth-first walk from every port at once, on
    /// through passthroughs. A port naming no node is a warning.
    fn endpoints(&mut self, head: Head<'_>) -> Vec<(NodeIx, Vec<NodeIx>)> {
        let g = self.graph;
        self.seen.next_walk();
        let mut queue = Vec::new();
        for port in head.tool_ports {
            match port.node {
                Some(node) => {
                    if self.seen.visit(node, node) {
                        queue.push(node);
                    }
                }
                None => self.problems.push((
                    SiteWarning {
                        code: "CMP-9-PORT",
                        node: port.node_id.to_owned(),
                        message: format!(
                            "input_ports[{}] hands tools to node {}, which the workflow does not have: \
                             a caller's tools reach nothing there",
                            port.index,
                            quote(port.node_id)
                        ),
                        location: None,
                    },
                    port.offset,
                )),
            }
        }
        let mut found = Vec::new();
        let mut at = 0;
        while at < queue.len() {
            let here = queue[at];
            at += 1;
            if !g.is_passthrough(here) {
                found.push(here);
                continue;
            }
            for &receiver in g.receivers.of(here) {
                if self.seen.visit(receiver, here) {
                    queue.push(receiver);
                }
            }
        }
        g.sort_by_id(&mut found);
        found
            .into_iter()
            .map(|node| {
                let mut path = self.seen.path_from(node);
                path.reverse();
                (node, path)
            })
            .collect()
    }
}
