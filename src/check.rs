//! The CMP-9 check: for every consumer, the names that two or more distinct
//! leaves of its flattened tool set share, with a shortest path per leaf.

use crate::config::Config;
use crate::error::InputError;
use crate::flatten::{new_map, BoxView, CandidateNames, Map, NameIx};
use crate::graph::{NodeIx, ToolGraph};
use crate::model::RawWorkflow;
use crate::parse::parse;
use crate::report::{Report, Stats, Tool, Violation, Warning};

/// Parses JSON text and checks it.
pub fn check_bytes(input: &[u8], config: &Config) -> Result<Report, InputError> {
    let raw = parse(input, config)?;
    check_raw(&raw, config)
}

/// Checks a workflow a front end has already read.
pub fn check_raw(raw: &RawWorkflow<'_>, config: &Config) -> Result<Report, InputError> {
    let graph = ToolGraph::build(raw)?;
    let recognised = config.recognised_edge_types();
    let mut violations: Vec<Violation> = raw
        .unknown_edge_types
        .iter()
        .map(|e| Violation::unknown_edge_type(e.index, e.id.as_deref(), &e.edge_type, &recognised))
        .collect();

    let mut consumers: Vec<NodeIx> = graph.consumers().collect();
    let names = CandidateNames::find(&graph);
    // With no name carried by two leaves anywhere, nothing can collide and
    // nothing needs flattening.
    if names.any() {
        consumers.sort_unstable_by_key(|&c| graph.id(c));
        let mut checker = Checker { graph: &graph, names: &names, views: new_map() };
        for &consumer in &consumers {
            checker.check_consumer(consumer, &mut violations);
        }
    }

    let warnings = graph
        .undeclared
        .iter()
        .map(|u| Warning::undeclared(graph.id(u.node), u.edge_index))
        .collect();
    let stats = Stats {
        nodes: graph.declared,
        edges: raw.edge_count,
        tool_edges: graph.tool_edge_count,
        consumers: consumers.len(),
        passthroughs: graph.passthrough[..graph.declared].iter().filter(|&&p| p).count(),
    };
    Ok(Report { violations, warnings, stats })
}

struct Checker<'g, 'w> {
    graph: &'g ToolGraph<'w>,
    names: &'g CandidateNames,
    /// Views of the passthroughs wired straight into some consumer, each
    /// computed once.
    views: Map<NodeIx, BoxView>,
}

impl Checker<'_, '_> {
    fn check_consumer(&mut self, consumer: NodeIx, out: &mut Vec<Violation>) {
        let g = self.graph;
        let mut direct: Vec<(NameIx, NodeIx)> = Vec::new();
        let mut roots: Vec<NodeIx> = Vec::new();
        for &provider in g.providers.of(consumer) {
            if g.is_passthrough(provider) {
                roots.push(provider);
            } else if let Some(name) = self.names.of(provider) {
                direct.push((name, provider));
            }
        }
        roots.sort_unstable();
        roots.dedup();
        for &root in &roots {
            if !self.views.contains_key(&root) {
                let view = BoxView::of(g, self.names, root);
                self.views.insert(root, view);
            }
        }

        let mut found = self.collisions(&direct, &roots);
        if found.is_empty() {
            return;
        }
        found.sort_unstable_by_key(|&(name, _)| self.names.name(name));
        for (name, mut leaves) in found {
            leaves.sort_unstable_by_key(|&leaf| g.id(leaf));
            let tools = leaves
                .iter()
                .map(|&leaf| Tool {
                    id: g.id(leaf).to_owned(),
                    label: g.labels[leaf as usize].to_owned(),
                    path: self.shortest_path(leaf, consumer, &roots).iter().map(|&n| g.id(n).to_owned()).collect(),
                })
                .collect();
            out.push(Violation::collision(g.id(consumer), self.names.name(name), tools));
        }
    }

    /// Names with two or more distinct leaves among the direct leaves and the
    /// roots' views. The largest view is probed rather than copied, so a big
    /// toolbox shared by many consumers costs each of them only its own
    /// collisions plus the size of everything else they receive.
    fn collisions(&self, direct: &[(NameIx, NodeIx)], roots: &[NodeIx]) -> Vec<(NameIx, Vec<NodeIx>)> {
        let largest = roots
            .iter()
            .map(|r| (&self.views[r], *r))
            .max_by_key(|(view, root)| (view.leaf_count, std::cmp::Reverse(*root)))
            .filter(|(view, _)| view.leaf_count > direct.len());

        let mut merged: Map<NameIx, Vec<NodeIx>> = new_map();
        for &(name, leaf) in direct {
            merged.entry(name).or_default().push(leaf);
        }
        for root in roots {
            if largest.is_some_and(|(_, big)| big == *root) {
                continue;
            }
            for (&name, leaves) in &self.views[root].leaves {
                merged.entry(name).or_default().extend_from_slice(leaves);
            }
        }

        let mut found = Vec::new();
        if let Some((view, _)) = largest {
            for &name in &view.colliding {
                let mut leaves = view.leaves[&name].clone();
                if let Some(extra) = merged.remove(&name) {
                    leaves.extend(extra);
                }
                found.push((name, leaves));
            }
            for (name, mut leaves) in merged {
                if let Some(base) = view.leaves.get(&name) {
                    leaves.extend_from_slice(base);
                }
                found.push((name, leaves));
            }
        } else {
            found.extend(merged);
        }
        for (_, leaves) in &mut found {
            leaves.sort_unstable();
            leaves.dedup();
        }
        found.retain(|(_, leaves)| leaves.len() > 1);
        found
    }

    /// Hops from `node` (a passthrough) to `consumer` through its roots.
    fn distance(&self, node: NodeIx, roots: &[NodeIx]) -> Option<u32> {
        roots.iter().filter_map(|r| self.views[r].hops.get(&node)).min().map(|d| d + 1)
    }

    /// The shortest chain `[leaf, P1, ..., Pk, consumer]` over tool edges with
    /// every Pi a passthrough. Among several, each step takes the next node
    /// with the smallest id, which makes the choice independent of hashing and
    /// of edge order.
    fn shortest_path(&self, leaf: NodeIx, consumer: NodeIx, roots: &[NodeIx]) -> Vec<NodeIx> {
        let g = self.graph;
        let mut path = vec![leaf];
        let mut current = leaf;
        loop {
            let mut best: Option<(u32, &str, NodeIx)> = None;
            for &next in g.receivers.of(current) {
                let distance = if next == consumer {
                    0
                } else if g.is_passthrough(next) {
                    match self.distance(next, roots) {
                        Some(d) => d,
                        None => continue,
                    }
                } else {
                    continue;
                };
                let candidate = (distance, g.id(next), next);
                if best.is_none_or(|b| (candidate.0, candidate.1) < (b.0, b.1)) {
                    best = Some(candidate);
                }
            }
            // Every leaf handed here reaches the consumer, so a next step
            // exists; stopping short keeps a broken invariant from looping.
            let Some((_, _, next)) = best else {
                debug_assert!(false, "leaf {leaf} does not reach consumer {consumer}");
                return path;
            };
            path.push(next);
            if next == consumer {
                return path;
            }
            current = next;
        }
    }
}
