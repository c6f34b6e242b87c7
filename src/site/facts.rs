//! What one workflow tells the site check (SEMANTICS 12), taken from its
//! graph before the graph is checked and dropped: the nodes that run other
//! workflows (call nodes) with the tools that reach each, and the nodes the
//! workflow's `tool` input ports hand a caller's tools to (its *endpoints*),
//! with the workflow's own tools that reach each and the path from the port.
//!
//! Only these nodes are looked at, by breadth-first walks over passthroughs:
//! one per distinct list of providers among them (call nodes fed by the same
//! box share one), and one from all the ports at once. So the cost is the sum
//! of those walks: what the per-consumer flattening costs for these nodes
//! alone (docs/RELIABILITY.md states it as the site check's bound). A walk
//! keeps its tree of steps, not a path per tool: a path is read from the
//! tree only when a finding shows it, so a long chain of boxes between many
//! tools and many endpoints costs its length once per walk, never once per
//! tool. Everything is owned, so a site's facts outlive the files they were
//! read from.

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

/// No node: the end of a walk's steps.
pub const END: u32 = u32::MAX;

/// A tool (a leaf of SEMANTICS 4) that reaches the nodes of an [`Upstream`],
/// met as a provider of `via` (a box of the walk; [`END`]: of the node
/// itself). Numbers are fact-node numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pub leaf: u32,
    pub via: u32,
}

/// The tools that reach every node with one list of providers (one walk):
/// each leaf once, sorted by fact-node number (a finding looks its tools
/// up), and the walk's tree of shortest steps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Upstream {
    pub reaches: Vec<Reach>,
    /// Each box the walk entered, with its next step towards the node
    /// ([`END`]: the node), sorted by box.
    steps: Vec<(u32, u32)>,
}

impl Upstream {
    /// A shortest path `[leaf, box, ..., node]` of the tool `leaf`, when it
    /// is one of these.
    pub fn path(&self, leaf: u32, node: u32) -> Option<Vec<u32>> {
        let reach = &self.reaches[self.reaches.binary_search_by_key(&leaf, |r| r.leaf).ok()?];
        let mut path = vec![leaf];
        let mut at = reach.via;
        while at != END {
            path.push(at);
            at = self.steps[self.steps.binary_search_by_key(&at, |s| s.0).ok()?].1;
        }
        path.push(node);
        Some(path)
    }
}

/// A node whose type runs another workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallNode {
    pub node: u32,
    /// The id of the workflow it runs.
    pub runs: String,
    /// This workflow's tools that reach it: its number in `upstreams`.
    pub own: u32,
}

/// A node a `tool` input port hands a caller's tools to: the port's node
/// itself when it is not a passthrough, or a non-passthrough node the
/// port's passthrough forwards to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub node: u32,
    /// This workflow's tools that reach it: its number in `upstreams`.
    pub own: u32,
    /// Its number in `calls` when it runs a workflow itself.
    pub call: Option<u32>,
    /// False for a passthrough that runs a workflow (a type can be both:
    /// passthrough ids are configured, executors are the site's): it hands
    /// tools on, into its call and to its receivers, and is never checked.
    pub consumer: bool,
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
    /// The tools reaching call nodes and endpoints, one per walk.
    pub upstreams: Vec<Upstream>,
    /// The ports' walk: each node it entered with the step it came from
    /// ([`END`]: a port's own node), sorted by node.
    port_steps: Vec<(u32, u32)>,
    pub warnings: Vec<SiteWarning>,
    /// Work of the walks: tool edges followed, plus path steps stored.
    pub walked: u64,
}

impl Workflow {
    /// A shortest path `[port node, box, ..., node]` to endpoint `e`.
    pub fn from_port(&self, e: usize) -> Vec<u32> {
        let mut path = Vec::new();
        let mut at = self.endpoints[e].node;
        while at != END {
            path.push(at);
            at = match self.port_steps.binary_search_by_key(&at, |s| s.0) {
                Ok(i) => self.port_steps[i].1,
                Err(_) => END,
            };
        }
        path.reverse();
        path
    }
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
        walks: new_map(),
        upstreams: Vec::new(),
        walked: 0,
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
    let (found, port_steps) = made.endpoints(head, &call_of);
    for node in found {
        let own = made.own(node);
        let call = call_of.get(&node).copied();
        endpoints.push(Endpoint {
            node: made.number(node),
            own,
            call,
            consumer: !graph.is_passthrough(node),
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
        upstreams: made.upstreams,
        walked: made.walked + port_steps.len() as u64,
        port_steps,
        warnings: warnings.into_iter().map(|(w, _)| w).collect(),
    }
}

/// Per node of the graph, the walk that last saw it: resetting costs
/// nothing between walks.
struct Stamps {
    stamp: u32,
    seen: Vec<u32>,
    parent: Vec<NodeIx>,
    /// Steps from the walk's start, for the walks that break ties.
    depth: Vec<u32>,
}

impl Stamps {
    fn new(nodes: usize) -> Stamps {
        Stamps {
            stamp: 0,
            seen: vec![0; nodes],
            parent: vec![0; nodes],
            depth: vec![0; nodes],
        }
    }

    /// Marks `node` seen from `parent` at `depth`; when this walk saw it
    /// already as far away, by a parent with a greater id than `parent`'s,
    /// `parent` becomes its parent: a path read back from the far end is
    /// then the one with the smallest ids compared from that end onwards
    /// (CONFORMANCE decision 7, as the single-file check's paths are). True
    /// when the node is new to the walk.
    fn visit_breaking_ties(&mut self, node: NodeIx, parent: NodeIx, depth: u32, id: impl Fn(NodeIx) -> bool) -> bool {
        let n = node as usize;
        if self.seen[n] != self.stamp {
            self.visit(node, parent);
            self.depth[n] = depth;
            return true;
        }
        if self.depth[n] == depth && id(self.parent[n]) {
            self.parent[n] = parent;
        }
        false
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

    /// The node `node` was seen from (itself: a root of the walk).
    fn parent(&self, node: NodeIx) -> NodeIx {
        self.parent[node as usize]
    }
}

struct Maker<'m, 'g> {
    graph: &'m ToolGraph<'g>,
    numbers: Map<NodeIx, u32>,
    nodes: Vec<FactNode>,
    offsets: Vec<Option<usize>>,
    seen: Stamps,
    problems: Vec<(SiteWarning, Option<usize>)>,
    /// The walk made for each list of providers (sorted, deduplicated),
    /// with the node walked from when it is a passthrough (which never is
    /// its own leaf, so its walk is its own).
    walks: Map<(Vec<NodeIx>, Option<NodeIx>), u32>,
    upstreams: Vec<Upstream>,
    walked: u64,
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

    /// The tools that reach `node` (its number in `upstreams`): one
    /// breadth-first walk back over tool edges from its providers, through
    /// passthroughs only, so each leaf's path is shortest and a leaf met by
    /// two routes is one leaf (SEMANTICS 4). What reaches a node depends
    /// only on its providers, so nodes with the same ones share the walk.
    /// A node fed back to itself, directly or through boxes, is met as one
    /// of its own leaves, as in the single-file check (SEMANTICS 4); a
    /// passthrough never is.
    fn own(&mut self, node: NodeIx) -> u32 {
        let g = self.graph;
        let mut providers = g.providers.of(node).to_vec();
        providers.sort_unstable();
        providers.dedup();
        let key = (providers, g.is_passthrough(node).then_some(node));
        if let Some(&known) = self.walks.get(&key) {
            return known;
        }
        self.seen.next_walk();
        if let Some(root) = key.1 {
            self.seen.visit(root, root);
            self.seen.depth[root as usize] = 0; // never a tie: the others are 1 or more away
        }
        // The walk's entered boxes; a provider of the node itself is seen
        // from NONE.
        const NONE: NodeIx = NodeIx::MAX;
        let mut queue = Vec::new();
        let mut leaves = Vec::new();
        let mut meet = |seen: &mut Stamps, provider: NodeIx, from: NodeIx, depth: u32, queue: &mut Vec<NodeIx>| {
            // A provider of the node itself (from NONE) has no tie to break:
            // its path goes on to the node.
            let smaller = |current: NodeIx| from != NONE && current != NONE && g.id(from) < g.id(current);
            if !seen.visit_breaking_ties(provider, from, depth, smaller) {
                return;
            }
            if g.is_passthrough(provider) {
                queue.push(provider);
            } else {
                leaves.push(provider);
            }
        };
        for &provider in &key.0 {
            meet(&mut self.seen, provider, NONE, 1, &mut queue);
        }
        let mut edges = key.0.len() as u64;
        let mut at = 0;
        while at < queue.len() {
            let here = queue[at];
            at += 1;
            edges += g.providers.of(here).len() as u64;
            let depth = self.seen.depth[here as usize] + 1;
            for &provider in g.providers.of(here) {
                meet(&mut self.seen, provider, here, depth, &mut queue);
            }
        }
        g.sort_by_id(&mut leaves);
        let step = |made: &mut Self, n: NodeIx| match n {
            NONE => END,
            n => made.number(n),
        };
        // Numbered in id order, so the numbers do not hang on edge order.
        let mut reaches: Vec<Reach> = leaves
            .iter()
            .map(|&leaf| {
                let via = self.seen.parent(leaf);
                Reach {
                    leaf: self.number(leaf),
                    via: step(self, via),
                }
            })
            .collect();
        reaches.sort_unstable_by_key(|r| r.leaf);
        let mut steps: Vec<(u32, u32)> = queue
            .iter()
            .map(|&b| {
                let next = self.seen.parent(b);
                (step(self, b), step(self, next))
            })
            .collect();
        steps.sort_unstable();
        self.walked += edges + (reaches.len() + steps.len()) as u64;
        let number = self.upstreams.len() as u32;
        self.upstreams.push(Upstream { reaches, steps });
        self.walks.insert(key, number);
        number
    }

    /// The nodes the tool ports hand tools to, each with a shortest path
    /// from a port: one breadth-first walk from every port at once, on
    /// through passthroughs (a passthrough that runs a workflow is met and
    /// passed through). A port naming no node is a warning. Returns the
    /// endpoints by id, and the walk's steps (see `Workflow::port_steps`)
    /// for the nodes on a path to one.
    fn endpoints(&mut self, head: Head<'_>, calls: &Map<NodeIx, u32>) -> (Vec<NodeIx>, Vec<(u32, u32)>) {
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
            if calls.contains_key(&here) {
                found.push(here);
            }
            self.walked += g.receivers.of(here).len() as u64;
            for &receiver in g.receivers.of(here) {
                if self.seen.visit(receiver, here) {
                    queue.push(receiver);
                }
            }
        }
        g.sort_by_id(&mut found);
        // Only the steps on a path to an endpoint, each once.
        let mut steps: Map<u32, u32> = new_map();
        for &end in &found {
            let mut node = end;
            loop {
                let n = self.number(node);
                if steps.contains_key(&n) {
                    break;
                }
                let parent = self.seen.parent(node);
                let from = if parent == node { END } else { self.number(parent) };
                steps.insert(n, from);
                if parent == node {
                    break;
                }
                node = parent;
            }
        }
        let mut steps: Vec<(u32, u32)> = steps.into_iter().collect();
        steps.sort_unstable();
        (found, steps)
    }
}
