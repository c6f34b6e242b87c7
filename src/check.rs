//! The CMP-9 check: for every consumer, the names that two or more distinct
//! leaves of its flattened tool set share, with a shortest path per leaf.

use crate::config::Config;
use crate::error::locate_known;
use crate::error::InputError;
use crate::fixes::{closest_edge_type, Renamer};
use crate::flatten::{box_labels, new_map, shortest_path, BoxView, CandidateNames, Map, NameIx};
use crate::graph::{NodeIx, ToolGraph};
use crate::interrupt::Interrupt;
use crate::names::{normalize_name, NameLoss};
use crate::parse::parse_with;
use crate::report::{Report, Stats, Tool, Violation, Warning};

/// Parses JSON text and checks it.
pub fn check_bytes(input: &[u8], config: &Config) -> Result<Report, InputError> {
    check_bytes_with(input, config, true, Interrupt::never())
}

/// `check_bytes`, on one thread unless `allow_thread`, stopping early (with
/// an error or a partial report, both to be discarded) on `interrupt`.
pub fn check_bytes_with(
    input: &[u8],
    config: &Config,
    allow_thread: bool,
    interrupt: Interrupt<'_>,
) -> Result<Report, InputError> {
    let graph = parse_with(input, config, allow_thread, interrupt)?;
    Ok(check_graph_with(&graph, config, interrupt))
}

/// Checks a workflow a front end has read into a graph.
pub fn check_graph(graph: &ToolGraph<'_>, config: &Config) -> Report {
    check_graph_with(graph, config, Interrupt::never())
}

/// `check_graph`, stopping between consumers on `interrupt` (the report is
/// then partial, to be discarded).
pub fn check_graph_with(graph: &ToolGraph<'_>, config: &Config, interrupt: Interrupt<'_>) -> Report {
    let recognised = config.recognised_edge_types();
    let mut located = Locations::default();
    let mut violations: Vec<Violation> = Vec::new();
    for e in &graph.unknown_edge_types {
        let suggestion = closest_edge_type(&e.edge_type, &recognised);
        let v = Violation::unknown_edge_type(e.place.index, e.id.as_deref(), &e.edge_type, &recognised, suggestion);
        located.want(e.place.offset);
        violations.push(v);
    }

    let mut consumers: Vec<NodeIx> = graph.consumers().collect();
    let names = CandidateNames::find(graph);
    // With no name carried by two leaves anywhere, nothing can collide and
    // nothing needs flattening.
    if names.any() {
        consumers.sort_unstable_by_key(|&c| graph.id(c));
        let mut checker = Checker {
            graph,
            names: &names,
            views: new_map(),
        };
        let mut renamer = Renamer::new(graph, &names.by_hash);
        for &consumer in &consumers {
            if interrupt.requested() {
                break;
            }
            for found in checker.check_consumer(consumer) {
                violations.push(found.into_violation(graph, &names, &mut renamer, &mut located));
            }
        }
    }

    let mut warnings = Vec::new();
    for u in &graph.undeclared {
        warnings.push(Warning::undeclared(graph.id(u.node), u.edge_index));
        located.want(graph.offset(u.node));
    }
    // By id, so that the order does not depend on whether `nodes` or
    // `edges` came first in the text.
    let mut lossy: Vec<NodeIx> = (0..graph.node_count() as NodeIx)
        .filter(|&n| graph.name_loss(n) != NameLoss::None && graph.is_tool(n))
        .collect();
    lossy.sort_unstable_by_key(|&n| graph.id(n));
    for n in lossy {
        let label = graph.label(n);
        if let Some(w) = Warning::lossy_name(graph.id(n), label, &normalize_name(label), graph.name_loss(n)) {
            warnings.push(w);
            located.want(graph.offset(n));
        }
    }

    let stats = Stats {
        nodes: graph.declared,
        edges: graph.edge_count,
        tool_edges: graph.tool_edge_count,
        consumers: consumers.len(),
        passthroughs: graph.declared_passthroughs,
    };
    let mut report = Report {
        violations,
        warnings,
        stats,
    };
    if let Some(text) = graph.source {
        located.fill(text, &mut report);
    }
    report
}

/// The byte offsets of everything in a report that has a place, in report
/// order: each violation, then its tools; then each warning. They are
/// turned into lines and columns all at once, at the end.
#[derive(Default)]
struct Locations {
    offsets: Vec<Option<usize>>,
}

impl Locations {
    fn want(&mut self, offset: Option<usize>) {
        self.offsets.push(offset);
    }

    fn fill(self, text: &[u8], report: &mut Report) {
        let mut places = locate_known(text, &self.offsets).into_iter();
        let mut next = || places.next().flatten();
        for v in &mut report.violations {
            match v {
                Violation::UnrecognisedEdgeType { location, .. } => *location = next(),
                Violation::ToolNameCollision { location, tools, .. } => {
                    *location = next();
                    for tool in tools {
                        tool.location = next();
                    }
                }
            }
        }
        for w in &mut report.warnings {
            w.location = next();
        }
    }
}

/// A CMP-9 collision found at one consumer, by node number.
struct Collision {
    consumer: NodeIx,
    name: NameIx,
    /// Sorted by id.
    leaves: Vec<NodeIx>,
    /// `paths[i]` leads from `leaves[i]` to the consumer.
    paths: Vec<Vec<NodeIx>>,
}

impl Collision {
    fn into_violation(
        self,
        g: &ToolGraph<'_>,
        names: &CandidateNames,
        renamer: &mut Renamer<'_, '_>,
        located: &mut Locations,
    ) -> Violation {
        located.want(g.offset(self.consumer));
        let tools = self
            .leaves
            .iter()
            .zip(&self.paths)
            .map(|(&leaf, path)| {
                located.want(g.offset(leaf));
                Tool {
                    id: g.id(leaf).to_owned(),
                    label: g.label(leaf).to_owned(),
                    path: path.iter().map(|&n| g.id(n).to_owned()).collect(),
                    location: None,
                }
            })
            .collect();
        let boxes = box_labels(g, &self.paths);
        let fix = renamer.fix(&self.leaves, &self.paths);
        Violation::collision(g.id(self.consumer), names.name(self.name), tools, fix, boxes)
    }
}

struct Checker<'g, 'a> {
    graph: &'g ToolGraph<'a>,
    names: &'g CandidateNames,
    /// Views of the passthroughs wired straight into some consumer, each
    /// computed once.
    views: Map<NodeIx, BoxView>,
}

impl Checker<'_, '_> {
    fn check_consumer(&mut self, consumer: NodeIx) -> Vec<Collision> {
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
        found.sort_unstable_by_key(|&(name, _)| self.names.name(name));
        found
            .into_iter()
            .map(|(name, mut leaves)| {
                leaves.sort_unstable_by_key(|&leaf| g.id(leaf));
                let paths = leaves
                    .iter()
                    .map(|&leaf| shortest_path(g, leaf, consumer, |node| self.distance(node, &roots)))
                    .collect();
                Collision {
                    consumer,
                    name,
                    leaves,
                    paths,
                }
            })
            .collect()
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
        roots
            .iter()
            .filter_map(|r| self.views[r].hops.get(&node))
            .min()
            .map(|d| d + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(doc: &str) -> Report {
        check_bytes(doc.as_bytes(), &Config::default()).unwrap()
    }

    /// (consumer, name, [(tool, path)]) for one CMP-9 violation.
    type Collision = (String, String, Vec<(String, Vec<String>)>);

    fn collisions(report: &Report) -> Vec<Collision> {
        report
            .violations
            .iter()
            .filter_map(|v| match v {
                Violation::ToolNameCollision {
                    consumer, name, tools, ..
                } => Some((
                    consumer.clone(),
                    name.clone(),
                    tools.iter().map(|t| (t.id.clone(), t.path.clone())).collect(),
                )),
                _ => None,
            })
            .collect()
    }

    fn tool_edge(from: &str, to: &str) -> String {
        format!(r#"{{"source": "{from}", "target": "{to}", "data": {{"edgeType": "tool_availability"}}}}"#)
    }

    fn workflow(nodes: &[(&str, &str, &str)], edges: &[(&str, &str)]) -> String {
        let nodes: Vec<String> = nodes
            .iter()
            .map(|(id, ty, label)| format!(r#"{{"id": "{id}", "type": "{ty}", "data": {{"label": "{label}"}}}}"#))
            .collect();
        let edges: Vec<String> = edges.iter().map(|(a, b)| tool_edge(a, b)).collect();
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    fn strings(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn cmp9_spec_example_is_refused_with_paths_through_the_box() {
        let report = check(include_str!("../tests/data/spec-cmp9-refused.json"));
        assert_eq!(
            collisions(&report),
            [(
                "agent_1".to_string(),
                "web_search".to_string(),
                vec![
                    ("tool_a".to_string(), strings(&["tool_a", "box_1", "agent_1"])),
                    ("tool_b".to_string(), strings(&["tool_b", "box_1", "agent_1"])),
                ]
            )]
        );
        assert!(check(include_str!("../tests/data/spec-cmp9-accepted.json")).ok());
    }

    #[test]
    fn cmp9_diamond_is_one_leaf() {
        let doc = workflow(
            &[
                ("t", "http", "Search"),
                ("b1", "toolbox", "B1"),
                ("b2", "toolbox", "B2"),
                ("a", "agent", "A"),
            ],
            &[("t", "b1"), ("t", "b2"), ("b1", "a"), ("b2", "a")],
        );
        assert!(check(&doc).ok());
    }

    #[test]
    fn cmp9_box_cycle_forwards_the_union() {
        let doc = workflow(
            &[
                ("t1", "http", "Search"),
                ("t2", "http", "search"),
                ("b1", "toolbox", ""),
                ("b2", "toolbox", ""),
            ],
            &[("t1", "b1"), ("t2", "b2"), ("b1", "b2"), ("b2", "b1"), ("b1", "agent")],
        );
        let found = collisions(&check(&doc));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].2[0], ("t1".to_string(), strings(&["t1", "b1", "agent"])));
        assert_eq!(found[0].2[1], ("t2".to_string(), strings(&["t2", "b2", "b1", "agent"])));
    }

    #[test]
    fn cmp9_collision_across_a_box_and_a_direct_wire() {
        let doc = workflow(
            &[("t1", "http", "Lookup"), ("t2", "http", "LOOKUP"), ("b", "toolbox", "")],
            &[("t1", "b"), ("b", "a1"), ("t2", "a1"), ("b", "a2")],
        );
        let found = collisions(&check(&doc));
        assert_eq!(found.len(), 1, "only a1 sees both tools");
        assert_eq!(found[0].0, "a1");
    }

    #[test]
    fn cmp9_shortest_path_ties_take_the_smallest_id() {
        let doc = workflow(
            &[
                ("t1", "x", "S"),
                ("t2", "x", "S"),
                ("bz", "toolbox", ""),
                ("ba", "toolbox", ""),
            ],
            &[
                ("t1", "bz"),
                ("t1", "ba"),
                ("bz", "agent"),
                ("ba", "agent"),
                ("t2", "agent"),
            ],
        );
        let found = collisions(&check(&doc));
        assert_eq!(found[0].2[0].1, strings(&["t1", "ba", "agent"]));
        assert_eq!(found[0].2[1].1, strings(&["t2", "agent"]));
    }

    #[test]
    fn cmp9_agent_as_tool_is_a_leaf_and_does_not_forward() {
        let doc = workflow(
            &[("t1", "x", "Search"), ("sub", "agent", "Search"), ("t2", "x", "Other")],
            &[("t1", "sub"), ("sub", "main"), ("t2", "main")],
        );
        // `main` sees `sub` and `t2`; `sub` sees `t1`. No view holds two "search".
        assert!(check(&doc).ok());
    }

    #[test]
    fn a_box_shared_by_many_consumers_costs_each_path_constant_time() {
        // Quadratic path finding took seconds here; now it is instant. The
        // test pins the result; the benchmark suite watches the time.
        let consumers = 20_000;
        let mut nodes = vec![
            ("t1", "x", "Web Search"),
            ("t2", "x", "web-search"),
            ("box", "toolbox", ""),
        ];
        let names: Vec<String> = (0..consumers).map(|c| format!("agent{c:05}")).collect();
        nodes.extend(names.iter().map(|n| (n.as_str(), "agent", "A")));
        let mut edges = vec![("t1", "box"), ("t2", "box")];
        edges.extend(names.iter().map(|n| ("box", n.as_str())));
        let found = collisions(&check(&workflow(&nodes, &edges)));
        assert_eq!(found.len(), consumers);
        assert_eq!(found[7].2[1], ("t2".to_string(), strings(&["t2", "box", "agent00007"])));
    }

    #[test]
    fn edge5_violation_comes_first_and_refuses() {
        let doc =
            r#"{"edges": [{"id": "e0", "source": "a", "target": "b", "data": {"edgeType": "tool_availabilty"}}]}"#;
        let report = check(doc);
        assert!(!report.ok());
        assert_eq!(report.violations[0].rule(), "EDGE-5");
        assert!(report.violations[0].message().contains("\"tool_availabilty\""));
    }

    #[test]
    fn a_million_box_chain_needs_no_recursion() {
        let n = 1_000_000;
        let mut edges = Vec::with_capacity(n + 2);
        for i in 1..n {
            edges.push(tool_edge(&format!("b{i}"), &format!("b{}", i - 1)));
        }
        edges.push(tool_edge("t1", &format!("b{}", n - 1)));
        edges.push(tool_edge("t2", "b0"));
        edges.push(tool_edge("b0", "agent"));
        let mut nodes: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"id": "b{i}", "type": "toolbox"}}"#))
            .collect();
        nodes.push(r#"{"id": "t1", "data": {"label": "Deep"}}"#.into());
        nodes.push(r#"{"id": "t2", "data": {"label": "deep"}}"#.into());
        let doc = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let found = collisions(&check(&doc));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].2[0].1.len(), n + 2, "t1 -> b{} -> ... -> b0 -> agent", n - 1);
    }

    #[test]
    fn a_shared_box_is_flattened_once_and_reported_per_consumer() {
        let consumers = 2_000;
        let mut nodes = vec![r#"{"id": "box", "type": "toolbox"}"#.to_string()];
        let mut edges = Vec::new();
        for i in 0..1_000 {
            nodes.push(format!(r#"{{"id": "t{i}", "data": {{"label": "tool {i}"}}}}"#));
            edges.push(tool_edge(&format!("t{i}"), "box"));
        }
        nodes.push(r#"{"id": "dup", "data": {"label": "Tool-7"}}"#.into());
        edges.push(tool_edge("dup", "box"));
        for c in 0..consumers {
            edges.push(tool_edge("box", &format!("agent{c:05}")));
        }
        let doc = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let found = collisions(&check(&doc));
        assert_eq!(found.len(), consumers);
        assert!(found
            .iter()
            .all(|(_, name, tools)| name == "tool_7" && tools.len() == 2));
        assert_eq!(found[0].0, "agent00000");
    }
}
