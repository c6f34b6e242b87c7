//! A check, start to end: EDGE-5, CMP-10 (against a node-type catalogue)
//! and the warnings, the candidate names, the CMP-9 findings (made in `collisions`, whose cost model says what a
//! check costs), then one sweep of the text to locate everything named.
//!
//! Over 600 lines only with its tests (the code is under 300 lines): one check
//! from start to end, which is what a reader opening this file looks for.

use crate::budget::Budget;
use crate::collisions::{self, Collisions};
use crate::config::Config;
use crate::fixes::EdgeTypes;
use crate::graph::{NodeIx, ToolGraph, NO_TYPE};
use crate::locate::locate_known;
use crate::maps::{new_map, Map};
use crate::names::CandidateNames;
use crate::names::NameLoss;
use crate::parse::key_before;
use crate::quote::quote;
use crate::report::{EdgeTypeViolation, Report, Stats, UnacceptedToolsViolation, Warnings, WiredEdge};
use crate::threads::both;
use crate::work::{Step, Work};

/// Checks a workflow read into a graph: the whole check, on one thread
/// unless the budget allows a second, stopping early on its interrupt (the
/// report is then partial, to be discarded). The way in from outside is
/// `engine` (`check_text`, `check_graph`, `check_file`...), which turns an
/// interruption into `Error::Interrupted`.
pub(crate) fn check(graph: ToolGraph<'_>, config: &Config, budget: Budget<'_>) -> Report {
    let Budget {
        allow_thread,
        interrupt,
    } = budget;
    let recognised = config.recognised_edge_types();
    // Every place the report names, located in one sweep at the end.
    let mut offsets: Vec<Option<usize>> = Vec::new();
    // The recognised type each unknown one was probably meant to be, worked
    // out once per distinct unknown type (a typo is usually made again).
    let mut suggested: Map<&str, Option<&str>> = new_map();
    let edge_types = EdgeTypes::new(&recognised);
    let listed = recognised.join(", ");
    let edge_violations: Vec<EdgeTypeViolation> = graph
        .unknown_edge_types
        .iter()
        .map(|e| {
            offsets.push(e.place.offset);
            let suggestion = *(suggested.entry(&e.edge_type)).or_insert_with(|| edge_types.closest(&e.edge_type));
            EdgeTypeViolation::new(e.place.index, e.id.as_deref(), &e.edge_type, &listed, suggestion)
        })
        .collect();
    let edge_work = (graph.unknown_edge_types.len() + suggested.len() * recognised.len()) as u64;
    let mut warnings = warnings(&graph, &mut offsets);
    let unaccepted_tools = unaccepted_tools(&graph, config, &mut warnings, &mut offsets);
    let first_cmp10 = offsets.len();
    offsets.extend(unaccepted_tools.iter().map(|(node, _)| graph.offset(*node)));
    let unaccepted_tools: Vec<UnacceptedToolsViolation> = unaccepted_tools.into_iter().map(|(_, v)| v).collect();

    let mut consumers: Vec<NodeIx> = graph.consumers().collect();
    let stats = Stats {
        nodes: graph.declared,
        edges: graph.edge_count,
        tool_edges: graph.tool_edge_count,
        consumers: consumers.len(),
        passthroughs: graph.declared_passthroughs,
    };
    // The consumers in id order, as findings are reported: sorted on
    // another thread while the names are found, when a thread is allowed
    // (both only read the graph); else only when there is a name to check.
    let (names, consumers) = if allow_thread && consumers.len() >= SORT_BESIDE_FROM_CONSUMERS {
        let sort = || {
            graph.sort_by_id(&mut consumers);
            consumers
        };
        let (consumers, names) = both(true, sort, || CandidateNames::find(&graph, allow_thread));
        (names, consumers)
    } else {
        let names = CandidateNames::find(&graph, allow_thread);
        if names.any() {
            graph.sort_by_id(&mut consumers);
        }
        (names, consumers)
    };
    let work = Work::default();
    work.add(Step::Item, (names.by_hash.len() + consumers.len()) as u64 + edge_work);

    let source = graph.source;
    // With no name carried by two tools anywhere, nothing can collide and
    // nothing needs flattening.
    let found = if names.any() {
        collisions::collisions(graph, names, &consumers, interrupt, work)
    } else {
        Err(work)
    };
    let found = match found {
        Ok(set) if !set.is_empty() => Ok(set),
        Ok(set) => Err(set.work),
        Err(work) => Err(work),
    };
    let wanted: Vec<NodeIx> = found.as_ref().map_or_else(|_| Vec::new(), |set| set.nodes_to_locate());
    let first_node = offsets.len();
    if let Ok(set) = &found {
        offsets.extend(wanted.iter().map(|&n| set.graph.offset(n)));
    }

    let mut report = Report {
        edge_violations,
        unaccepted_tools,
        node_types_checked: config.catalogue.is_some(),
        collisions: Collisions::empty(),
        warnings,
        stats,
    };
    // Locating sweeps the text; choosing renames and keeping what the
    // findings name read only the graph: with a thread allowed, the sweep
    // runs beside them.
    let beside = allow_thread && source.is_some_and(|text| text.len() >= LOCATE_BESIDE_FROM_BYTES);
    let (located, collisions) = both(
        beside,
        || source.map(|text| locate_known(text, &offsets)),
        || found.map(|set| set.settled(&wanted, allow_thread)),
    );
    match collisions {
        Ok(collisions) => report.collisions = collisions,
        Err(work) => report.collisions.work = work,
    }
    if let Some(located) = located {
        for (v, at) in report.edge_violations.iter_mut().zip(&located) {
            v.location = *at;
        }
        report
            .warnings
            .locate(&located[report.edge_violations.len()..first_cmp10]);
        for (v, at) in report
            .unaccepted_tools
            .iter_mut()
            .zip(&located[first_cmp10..first_node])
        {
            v.location = *at;
        }
        // `wanted` is empty when nothing collides.
        for (&node, at) in wanted.iter().zip(&located[first_node..]) {
            if let Some(at) = at {
                report.collisions.locations.insert(node, *at);
            }
        }
    }
    report
}

/// Repeated keys in the order of the text, R8 for undeclared nodes, then
/// the name warnings by node id (so that the order does not depend on
/// whether `nodes` or `edges` came first).
fn warnings(graph: &ToolGraph<'_>, offsets: &mut Vec<Option<usize>>) -> Warnings {
    let mut warnings = Warnings::default();
    let mut repeats: Vec<_> = graph.duplicate_keys.iter().collect();
    repeats.sort_by_key(|d| d.value_at);
    for d in repeats {
        warnings.push_duplicate_key(d.within, d.id.as_deref(), d.key);
        offsets.push(graph.source.map(|text| key_before(text, d.value_at)));
    }
    for u in &graph.undeclared {
        warnings.push_undeclared(graph.id(u.node), u.edge_index);
        offsets.push(graph.offset(u.node));
    }
    let mut lossy: Vec<NodeIx> = (0..graph.node_count() as NodeIx)
        .filter(|&n| graph.name_loss(n) != NameLoss::None && graph.is_tool(n))
        .collect();
    graph.sort_by_id(&mut lossy);
    for n in lossy {
        warnings.push_lossy(graph.id(n), graph.label(n), graph.name_loss(n));
        offsets.push(graph.offset(n));
    }
    warnings
}

/// What the catalogue says of one node type (SEMANTICS 11).
#[derive(Clone, Copy)]
enum Verdict<'c> {
    Accepts,
    /// Does not accept tools; where the catalogue defines it.
    Refuses(&'c crate::catalogue::NodeType),
    Unknown,
}

/// Ids a CMP-10-UNKNOWN message names before it says how many more.
const UNKNOWN_NODES_NAMED: usize = 5;

/// CMP-10 (SEMANTICS 11), for every node that is the target of a tool
/// edge, passthroughs included: none when no catalogue was given. Each
/// violation (one per node, by id, with the node) lists every tool edge
/// into it; a type the catalogue does not know (or no type) is a
/// CMP-10-UNKNOWN warning, one per type naming its nodes, added to
/// `warnings` with its place in `offsets`. The catalogue is asked once
/// per distinct type, so the cost is O(nodes + tool edges + types).
fn unaccepted_tools(
    graph: &ToolGraph<'_>,
    config: &Config,
    warnings: &mut Warnings,
    offsets: &mut Vec<Option<usize>>,
) -> Vec<(NodeIx, UnacceptedToolsViolation)> {
    let (Some(catalogue), Some(types)) = (&config.catalogue, &graph.node_types) else {
        return Vec::new();
    };
    let verdicts: Vec<Verdict<'_>> = (types.names.iter())
        .map(|name| match catalogue.get(name) {
            Some(t) if t.accepts_tools => Verdict::Accepts,
            Some(t) => Verdict::Refuses(t),
            None => Verdict::Unknown,
        })
        .collect();
    let mut refused: Vec<NodeIx> = Vec::new();
    // Per type number (NO_TYPE for none), the receivers it leaves unchecked.
    let mut unknown: Map<u32, Vec<NodeIx>> = new_map();
    for node in (0..graph.node_count() as NodeIx).filter(|&n| graph.providers.degree(n) > 0) {
        let number = types.of_node[node as usize];
        match verdicts.get(number as usize).copied().unwrap_or(Verdict::Unknown) {
            Verdict::Accepts => {}
            Verdict::Refuses(_) => refused.push(node),
            Verdict::Unknown => unknown.entry(number).or_default().push(node),
        }
    }
    let mut unknown: Vec<(Option<&str>, Vec<NodeIx>)> = (unknown.into_iter())
        .map(|(number, nodes)| (types.names.get(number as usize).map(|n| &**n), nodes))
        .collect();
    // By type; nodes with no type last.
    unknown.sort_unstable_by_key(|&(node_type, _)| (node_type.is_none(), node_type));
    for (node_type, mut nodes) in unknown {
        graph.sort_by_id(&mut nodes);
        let mut shown: Vec<String> = (nodes.iter().take(UNKNOWN_NODES_NAMED))
            .map(|&n| quote(graph.id(n)))
            .collect();
        if nodes.len() > UNKNOWN_NODES_NAMED {
            shown.push(format!("and {} more", nodes.len() - UNKNOWN_NODES_NAMED));
        }
        debug_assert!(node_type.is_some() || nodes.iter().all(|&n| types.of_node[n as usize] == NO_TYPE));
        warnings.push_unknown_type(node_type, nodes.len() as u64, graph.id(nodes[0]), &shown.join(", "));
        offsets.push(graph.offset(nodes[0]));
    }
    if refused.is_empty() {
        return Vec::new();
    }
    graph.sort_by_id(&mut refused);
    let slot_of: Map<NodeIx, usize> = refused.iter().enumerate().map(|(slot, &n)| (n, slot)).collect();
    let mut wired: Vec<Vec<WiredEdge>> = vec![Vec::new(); refused.len()];
    for (&(source, target), (index, id)) in types.edges.iter().zip(&types.places) {
        if let Some(&slot) = slot_of.get(&target) {
            wired[slot].push(WiredEdge {
                edge: *index,
                edge_id: id.as_deref().map(str::to_owned),
                source: graph.id(source).to_owned(),
            });
        }
    }
    (refused.into_iter().zip(wired))
        .filter_map(|(node, edges)| {
            // Only nodes of a refusing type were listed, so this finds one.
            let number = types.of_node[node as usize] as usize;
            let (Some(Verdict::Refuses(entry)), Some(node_type)) =
                (verdicts.get(number).copied(), types.names.get(number))
            else {
                return None;
            };
            let defined_at = format!("{}:{}:{}", entry.file, entry.location.line, entry.location.column);
            Some((
                node,
                UnacceptedToolsViolation::new(graph.id(node), node_type, edges, defined_at),
            ))
        })
        .collect()
}

/// Below this many consumers, sorting them takes less than starting a
/// thread to do it beside finding the names.
const SORT_BESIDE_FROM_CONSUMERS: usize = 1 << 13;
/// Below this much text, locating findings takes less than starting a
/// thread to do it beside the renames.
const LOCATE_BESIDE_FROM_BYTES: usize = 4 << 20;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Interrupt;
    use crate::engine::check_text;
    use crate::report::Violation;

    fn check(doc: &str) -> Report {
        check_text(doc.as_bytes(), &Config::default(), Budget::full()).unwrap()
    }

    /// (consumer, name, [(tool, path)]) for one CMP-9 violation.
    type Collision = (String, String, Vec<(String, Vec<String>)>);

    fn collisions(report: &Report) -> Vec<Collision> {
        report
            .violations()
            .filter_map(|v| match v {
                Violation::ToolNameCollision(c) => Some((
                    c.consumer().to_owned(),
                    c.name().to_owned(),
                    c.tools()
                        .iter()
                        .map(|t| (t.id().to_owned(), t.path().iter().map(|s| s.to_string()).collect()))
                        .collect(),
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

    /// The work counters (`crate::work`) of checking `doc`, and of then
    /// reading every CMP-9 violation with its tools' paths.
    fn work_of(doc: &str) -> (u64, u64, Vec<Collision>) {
        let report = check(doc);
        let checked = report.collisions.work.total();
        let found = collisions(&report);
        (checked, report.collisions.work.total() - checked, found)
    }

    /// Work may grow by at most this much when the input doubles: linear,
    /// with room for sorting's logarithm; quadratic work would be 4x.
    const DOUBLED: f64 = 2.3;

    fn shared_box_of_two_clashing_tools(consumers: usize) -> String {
        let mut nodes = vec![
            ("t1", "x", "Web Search"),
            ("t2", "x", "web-search"),
            ("box", "toolbox", ""),
        ];
        let names: Vec<String> = (0..consumers).map(|c| format!("agent{c:05}")).collect();
        nodes.extend(names.iter().map(|n| (n.as_str(), "agent", "A")));
        let mut edges = vec![("t1", "box"), ("t2", "box")];
        edges.extend(names.iter().map(|n| ("box", n.as_str())));
        workflow(&nodes, &edges)
    }

    #[test]
    fn a_box_shared_by_many_consumers_costs_each_path_constant_time() {
        // Quadratic path finding took seconds here. Counted, not timed: twice
        // the consumers, twice the paths, and no more than twice the work to
        // check and to read every path.
        let consumers = 10_000;
        let (check_once, read_once, found) = work_of(&shared_box_of_two_clashing_tools(consumers));
        assert_eq!(found.len(), consumers);
        assert_eq!(found[7].2[1], ("t2".to_string(), strings(&["t2", "box", "agent00007"])));
        let (check_twice, read_twice, found) = work_of(&shared_box_of_two_clashing_tools(2 * consumers));
        assert_eq!(found.len(), 2 * consumers);
        assert!(read_once > 0 && check_once > 0);
        assert!(
            read_twice as f64 <= DOUBLED * read_once as f64,
            "reading: {read_once} steps, then {read_twice}"
        );
        assert!(
            check_twice as f64 <= DOUBLED * check_once as f64,
            "checking: {check_once} steps, then {check_twice}"
        );
    }

    #[test]
    fn cmp9_findings_on_two_threads_equal_those_on_one() {
        // Enough tools that names are sorted on two threads, and many
        // distinct wirings: shared boxes wired into several agents, boxes
        // of an agent's own, and direct tools, all with clashing names.
        let (agents, boxes) = (3_000, 900);
        let mut nodes: Vec<String> = Vec::new();
        let mut edges: Vec<String> = Vec::new();
        for b in 0..boxes {
            nodes.push(format!(r#"{{"id": "box{b}", "type": "toolbox"}}"#));
            for t in 0..3 {
                nodes.push(format!(
                    r#"{{"id": "bt{b}_{t}", "data": {{"label": "Tool {}"}}}}"#,
                    (b * 7 + t) % 40
                ));
                edges.push(tool_edge(&format!("bt{b}_{t}"), &format!("box{b}")));
            }
        }
        for a in 0..agents {
            nodes.push(format!(r#"{{"id": "agent{a}", "type": "agent"}}"#));
            nodes.push(format!(r#"{{"id": "own{a}", "data": {{"label": "tool {}"}}}}"#, a % 40));
            edges.push(tool_edge(&format!("own{a}"), &format!("agent{a}")));
            // Two shared boxes (kits) and, for some, a box of their own.
            edges.push(tool_edge(&format!("box{}", a % 50), &format!("agent{a}")));
            edges.push(tool_edge(&format!("box{}", 50 + a % 7), &format!("agent{a}")));
            if a % 3 == 0 {
                edges.push(tool_edge(
                    &format!("box{}", 57 + (a / 3) % (boxes - 57)),
                    &format!("agent{a}"),
                ));
            }
        }
        let doc = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let config = Config::default();
        let report =
            |allow_thread| check_text(doc.as_bytes(), &config, Budget::new(allow_thread, Interrupt::never())).unwrap();
        let (one, two) = (report(false), report(true));
        assert!(one.violation_count() > 1_000);
        assert_eq!(collisions(&one), collisions(&two));
        let groups = |r: &Report| {
            (0..r.collisions.group_count() as u32)
                .map(|g| {
                    let g = r.collisions.group(g);
                    (g.name().to_owned(), g.count(), g.first(), g.consumers(0, 3))
                })
                .map(|(n, c, f, cs)| (n, c, f, cs.into_iter().map(str::to_owned).collect::<Vec<_>>()))
                .collect::<Vec<_>>()
        };
        assert_eq!(groups(&one), groups(&two));
    }

    #[test]
    fn edge5_violations_come_first_in_edge_order_and_refuse() {
        // Three EDGE-5 edges between and after the tool edges of two CMP-9
        // clashes: every EDGE-5 violation, by edge, before every CMP-9 one.
        let mut edges = vec![
            tool_edge("t1", "agent"),
            r#"{"id": "e1", "source": "a", "target": "b", "data": {"edgeType": "tool_availabilty"}}"#.to_string(),
            tool_edge("t2", "agent"),
            tool_edge("u1", "agent"),
            r#"{"id": "e4", "source": "a", "target": "b", "data": {"edgeType": "datum"}}"#.to_string(),
            tool_edge("u2", "agent"),
        ];
        edges.push(r#"{"id": "e6", "source": "b", "target": "a", "data": {"edgeType": "Trigger"}}"#.to_string());
        let nodes = [("t1", "Search"), ("t2", "search"), ("u1", "Fetch"), ("u2", "fetch")]
            .map(|(id, label)| format!(r#"{{"id": "{id}", "data": {{"label": "{label}"}}}}"#));
        let doc = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let report = check(&doc);
        assert!(!report.ok());
        let found: Vec<(&str, String)> = report
            .violations()
            .map(|v| (v.rule(), v.message().to_owned()))
            .collect();
        let rules: Vec<&str> = found.iter().map(|(rule, _)| *rule).collect();
        assert_eq!(rules, ["EDGE-5", "EDGE-5", "EDGE-5", "CMP-9", "CMP-9"], "{found:?}");
        for (k, (edge, declared)) in [(1, "tool_availabilty"), (4, "datum"), (6, "Trigger")]
            .into_iter()
            .enumerate()
        {
            assert!(found[k].1.starts_with(&format!("edge {edge} ")), "{found:?}");
            assert!(found[k].1.contains(&format!("\"{declared}\"")), "{found:?}");
        }
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

    /// Family 40 (`ladder-taps`) in miniature: rungs `r0..` each fed by
    /// the one above and by a box `q` of a clashing pair, so each is a path
    /// root; a tool `t` atop; an agent under each of the `tapped` last
    /// rungs, with a twin of `t` of its own.
    fn ladder_of_roots(rungs: usize, tapped: usize) -> String {
        let mut nodes = vec![
            r#"{"id": "q", "type": "toolbox"}"#.to_string(),
            r#"{"id": "k0", "data": {"label": "Q k"}}"#.to_string(),
            r#"{"id": "k1", "data": {"label": "q-k"}}"#.to_string(),
            r#"{"id": "t", "data": {"label": "Key"}}"#.to_string(),
        ];
        let mut edges = vec![tool_edge("k0", "q"), tool_edge("k1", "q"), tool_edge("t", "r0")];
        for i in 0..rungs {
            nodes.push(format!(r#"{{"id": "r{i}", "type": "toolbox"}}"#));
            edges.push(tool_edge("q", &format!("r{i}")));
            if i > 0 {
                edges.push(tool_edge(&format!("r{}", i - 1), &format!("r{i}")));
            }
            if i + tapped >= rungs {
                nodes.push(format!(r#"{{"id": "a{i:07}", "type": "agent"}}"#));
                nodes.push(format!(r#"{{"id": "e{i}", "data": {{"label": "key"}}}}"#));
                edges.push(tool_edge(&format!("r{i}"), &format!("a{i:07}")));
                edges.push(tool_edge(&format!("e{i}"), &format!("a{i:07}")));
            }
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    #[test]
    fn cmp9_a_path_climbing_200000_roots_is_read_and_dropped_without_recursion() {
        // One path passed on at every rung: 200,000 chains, each laid on
        // the path above it, read whole and freed one by one.
        let n = 200_000;
        let report = check(&ladder_of_roots(n, 1));
        let found = collisions(&report);
        let key = found.iter().find(|c| c.1 == "key").expect("the agent's key clash");
        let path = &key.2[1].1;
        assert_eq!(key.2[1].0, "t");
        assert_eq!(path.len(), n + 2, "t -> r0 -> ... -> r{} -> agent", n - 1);
        assert_eq!(
            (path[1].as_str(), path[n].as_str()),
            ("r0", format!("r{}", n - 1).as_str())
        );
        drop(found);
        drop(report);
    }

    #[test]
    fn cmp9_paths_below_a_ladder_of_roots_cost_their_number_read_in_any_order() {
        // Each agent's path is the one above's plus a rung: laid on the
        // path remembered up to the rung above, read last agent first (the
        // first read climbs the whole ladder, the rest one rung each) or
        // first agent first, twice the agents cost at most twice the work.
        let read = |agents: usize, backwards: bool| {
            let report = check(&ladder_of_roots(agents, agents));
            let checked = report.collisions.work.total();
            let mut violations: Vec<_> = report.violations().collect();
            if backwards {
                violations.reverse();
            }
            let mut length = 0;
            for v in violations {
                if let Violation::ToolNameCollision(c) = v {
                    for tool in c.tools() {
                        length += tool.path_len();
                        assert_eq!(tool.path_ids(0, 1), [tool.id()]);
                        let _ = tool.path_ids(tool.path_len().saturating_sub(2), tool.path_len());
                    }
                }
            }
            (report.collisions.work.total() - checked, length)
        };
        for backwards in [false, true] {
            let (once, length) = read(2_000, backwards);
            let (twice, twice_length) = read(4_000, backwards);
            assert!(twice_length > 3 * length, "the paths' lengths grow as the square");
            assert!(
                twice as f64 <= DOUBLED * once as f64,
                "reading {}: {once} steps, then {twice}",
                if backwards { "backwards" } else { "forwards" }
            );
        }
    }

    fn shared_box_of_tools(tools: usize, consumers: usize) -> String {
        let mut nodes = vec![r#"{"id": "box", "type": "toolbox"}"#.to_string()];
        let mut edges = Vec::new();
        for i in 0..tools {
            nodes.push(format!(r#"{{"id": "t{i}", "data": {{"label": "tool {i}"}}}}"#));
            edges.push(tool_edge(&format!("t{i}"), "box"));
        }
        nodes.push(r#"{"id": "dup", "data": {"label": "Tool-7"}}"#.into());
        edges.push(tool_edge("dup", "box"));
        for c in 0..consumers {
            edges.push(tool_edge("box", &format!("agent{c:05}")));
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    fn catalogued(json: &str) -> Config {
        let mut catalogue = crate::catalogue::Catalogue::default();
        catalogue
            .add("nodes.json", json.as_bytes(), crate::catalogue::Form::EditorJson)
            .unwrap();
        Config::default().with_catalogue(std::sync::Arc::new(catalogue))
    }

    const CATALOGUE: &str = r#"[{"id": "agent", "inputs": [{"dataType": "tool"}]},
        {"id": "http", "inputs": [{"dataType": "string"}]},
        {"id": "kit", "executor_plugin": "flowdrop_node_processor:toolbox", "inputs": [{"dataType": "tool"}]}]"#;

    #[test]
    fn cmp10_tools_into_a_type_that_does_not_accept_them_refuse_at_the_node() {
        let doc = r#"{"nodes": [{"id": "t1", "type": "http", "data": {"label": "A"}},
            {"id": "t2", "type": "http", "data": {"label": "B"}},
            {"id": "h", "type": "http"}, {"id": "k", "type": "kit"}, {"id": "a", "type": "agent"}],
          "edges": [{"id": "e0", "source": "t1", "target": "h", "data": {"edgeType": "tool_availability"}},
            {"source": "t1", "target": "k", "data": {"edgeType": "tool_availability"}},
            {"source": "k", "target": "a", "data": {"edgeType": "tool_availability"}},
            {"id": "e3", "source": "t2", "target": "h", "targetHandle": "h-input-tool"}]}"#;
        let report = check_text(doc.as_bytes(), &catalogued(CATALOGUE), Budget::full()).unwrap();
        assert!(!report.ok() && report.node_types_checked);
        let v: Vec<_> = report.violations().collect();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].rule(), "CMP-10");
        let Violation::UnacceptedTools(u) = v[0] else { panic!() };
        assert_eq!((u.node.as_str(), u.node_type.as_str()), ("h", "http"));
        let edges: Vec<_> = u
            .edges
            .iter()
            .map(|e| (e.edge, e.edge_id.as_deref(), e.source.as_str()))
            .collect();
        assert_eq!(edges, [(0, Some("e0"), "t1"), (3, Some("e3"), "t2")]);
        assert_eq!(u.location, Some(crate::Location { line: 3, column: 13 }));
        assert!(u.message.contains("nodes.json:2:9"), "{}", u.message);
        assert!(report.warnings.is_empty(), "every receiver's type is known");
        // Without a catalogue: not checked, and accepted.
        let plain = check(doc);
        assert!(plain.ok() && !plain.node_types_checked);
    }

    #[test]
    fn cmp10_toolbox_executor_types_are_passthroughs_whatever_their_id() {
        let doc = r#"{"nodes": [{"id": "t1", "data": {"label": "Search"}}, {"id": "t2", "data": {"label": "search"}},
            {"id": "k", "type": "kit"}, {"id": "a", "type": "agent"}],
          "edges": [{"source": "t1", "target": "k", "data": {"edgeType": "tool_availability"}},
            {"source": "t2", "target": "k", "data": {"edgeType": "tool_availability"}},
            {"source": "k", "target": "a", "data": {"edgeType": "tool_availability"}}]}"#;
        // Without the catalogue `kit` is a consumer of its own.
        assert_eq!(collisions(&check(doc))[0].0, "k");
        let report = check_text(doc.as_bytes(), &catalogued(CATALOGUE), Budget::full()).unwrap();
        let rules: Vec<_> = report.violations().map(|v| v.rule()).collect();
        assert_eq!(rules, ["CMP-9"]);
        assert_eq!(collisions(&report)[0].0, "a");
    }

    #[test]
    fn cmp10_unknown_types_are_one_warning_each_naming_their_nodes() {
        let mut nodes = vec![r#"{"id": "t", "type": "http"}"#.to_string()];
        let mut edges = Vec::new();
        for i in 0..7 {
            nodes.push(format!(r#"{{"id": "m{i}", "type": "mystery"}}"#));
            edges.push(tool_edge("t", &format!("m{i}")));
        }
        edges.push(tool_edge("t", "ghost"));
        nodes.push(r#"{"id": "plain"}"#.into());
        edges.push(tool_edge("t", "plain"));
        let doc = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let report = check_text(doc.as_bytes(), &catalogued(CATALOGUE), Budget::full()).unwrap();
        assert!(report.ok(), "unknown is never a refusal");
        let unknown: Vec<_> = report.warnings.iter().filter(|w| w.code == "CMP-10-UNKNOWN").collect();
        assert_eq!(unknown.len(), 2);
        assert_eq!(unknown[0].node, "m0");
        assert!(unknown[0]
            .message
            .starts_with("node type \"mystery\" is not in the node-type catalogue"));
        assert!(
            unknown[0].message.contains(
                "the 7 nodes of that type receiving tool edges (\"m0\", \"m1\", \"m2\", \"m3\", \"m4\", and 2 more)"
            ),
            "{}",
            unknown[0].message
        );
        assert!(
            unknown[1].message.contains("(\"ghost\", \"plain\")"),
            "{}",
            unknown[1].message
        );
        assert!(unknown[0].location.is_some());
    }

    #[test]
    fn cmp10_a_node_with_many_tool_edges_is_one_violation_of_constant_message_size() {
        let n = 200_000;
        let mut edges: Vec<String> = (0..n).map(|i| tool_edge(&format!("t{i}"), "h")).collect();
        edges.push(tool_edge("t0", "a"));
        let doc = format!(
            r#"{{"nodes": [{{"id": "h", "type": "http"}}, {{"id": "a", "type": "agent"}}], "edges": [{}]}}"#,
            edges.join(",")
        );
        let report = check_text(doc.as_bytes(), &catalogued(CATALOGUE), Budget::full()).unwrap();
        assert_eq!(report.unaccepted_tools.len(), 1);
        let u = &report.unaccepted_tools[0];
        assert_eq!(u.edges.len(), n);
        assert_eq!(
            (u.edges[n - 1].edge, u.edges[n - 1].source.as_str()),
            (n - 1, "t199999")
        );
        assert!(
            u.message.len() < 1_000 && u.message.contains("and 199995 more"),
            "{}",
            u.message
        );
    }

    #[test]
    fn a_shared_box_is_flattened_once_and_reported_per_consumer() {
        // Flattened once, the box costs its tools plus its consumers;
        // flattened per consumer, their product. Doubling both would then
        // quadruple the check's work; counted, it at most doubles.
        let (tools, consumers) = (1_000, 2_000);
        let (once, _, found) = work_of(&shared_box_of_tools(tools, consumers));
        assert_eq!(found.len(), consumers);
        assert!(found
            .iter()
            .all(|(_, name, tools)| name == "tool_7" && tools.len() == 2));
        assert_eq!(found[0].0, "agent00000");
        let (twice, _, found) = work_of(&shared_box_of_tools(2 * tools, 2 * consumers));
        assert_eq!(found.len(), 2 * consumers);
        assert!(
            twice as f64 <= DOUBLED * once as f64,
            "{once} steps, then {twice} for twice the tools and consumers"
        );
    }
}
