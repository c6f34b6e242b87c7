//! Twin boxes, and the ones no path steps into (CMP-9, SEMANTICS 6).
//!
//! Two live boxes are *twins* when the same live boxes feed them and they
//! feed the same live boxes and consumers. Each is then exactly as near
//! every consumer as the other, so the walk a path is (at each step the
//! receiver nearest the consumer, the smallest id among equals) never
//! steps from a box into any twin but the one of smallest id, the *kept*
//! one: a box that feeds one feeds all of them. A tool starts at another
//! twin only when it is wired into it and not into a twin of smaller id;
//! so a twin whose every final leaf is also wired straight into the kept
//! twin is on no path at all. Such a twin *vanishes* from what paths read:
//! its edges are cut out of the graph once the reduction (`flow`) has made
//! the classes, and the path facts never list it. Nothing a check reports
//! changes:
//!
//! - no consumer's set, no clash, no group's `through`: the classes are
//!   made from the whole graph, before the cut;
//! - no distance and no path: every path's edges are kept, so no node is
//!   further from a consumer than before, and nowhere is there a new way
//!   to be nearer; at each step the walk's choice is among what is left,
//!   and still the same one. What a box carries is still its class's set:
//!   taking a vanished twin away takes from no other box's set, since the
//!   kept twin holds all it held and feeds all it fed.
//!
//! What it buys: ties that no structure of paths reads as one go. A
//! lattice of levels two wide, each box fed by both above, is a chain of
//! its smaller boxes; a cycle of boxes each with a twin of the same
//! providers, receivers and tools is the cycle alone. Both were read off
//! trees or searched per tool until session 35 (docs/RELIABILITY.md,
//! "Worst cases"). A twin with a tool of its own stays, with every edge:
//! it is where that tool starts, and a box it feeds is then fed by a
//! source beside the kept twin, which breaks what a ladder of diamonds is
//! read as (`rungs`: a root whose providers all hang below one box).
//!
//! Cost: one read of each live box's providers and receivers, O(N + E).
//! Boxes are grouped by a fingerprint of their live box providers and live
//! receivers, sums of mixed node numbers (no list sorted); only boxes that
//! share a fingerprint have their lists sorted and compared whole, and a
//! twin's final leaves are looked up in the kept twin's by binary search.
//! Nothing is copied when no twin vanishes (a check of a workflow with no
//! twins pays the one read).

use crate::graph::{NodeIx, ToolGraph};

use super::flow::Finals;

/// Mixes a node number into a fingerprint's sum.
fn mix(node: NodeIx) -> u64 {
    let mut h = u64::from(node)
        .wrapping_add(0x9E37_79B9_7F4A_7C15)
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 31;
    h.wrapping_mul(0x94D0_49BB_1331_11EB)
}

/// A box's live box providers, live receivers and final leaves, each
/// sorted without repeats.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Wiring {
    up: Vec<NodeIx>,
    down: Vec<NodeIx>,
    leaves: Vec<NodeIx>,
}

/// Whether every item of sorted `small` is in sorted `large`: a binary
/// search each, so that many twins of one tool each beside a kept twin of
/// many cost their own tools, not the kept twin's each.
fn within(small: &[NodeIx], large: &[NodeIx], steps: &mut u64) -> bool {
    small.iter().all(|x| {
        *steps += u64::from(usize::BITS - large.len().leading_zeros()) + 1;
        large.binary_search(x).is_ok()
    })
}

/// The twins of `g` that vanish (see the module docs), per node; None when
/// there are none. `steps` counts the edges and list entries looked at.
pub(crate) fn vanishing(g: &ToolGraph<'_>, finals: &Finals, steps: &mut u64) -> Option<Vec<bool>> {
    let n = g.node_count();
    let live_box = |v: NodeIx| finals.is_live_box(g, v);
    let live_receiver = |v: NodeIx| !g.is_passthrough(v) || live_box(v);
    // Each live box by a fingerprint of its live box providers and live
    // receivers: sums of mixed node numbers, so no list is sorted. An edge
    // written twice changes the sum, which can only hide twins.
    let mut prints: Vec<(u64, u64, NodeIx)> = Vec::new();
    for b in (0..n as NodeIx).filter(|&b| live_box(b)) {
        let (providers, receivers) = (g.providers.of(b), g.receivers.of(b));
        *steps += 1 + (providers.len() + receivers.len()) as u64;
        let up = (providers.iter())
            .filter(|&&p| live_box(p))
            .fold(0u64, |h, &p| h.wrapping_add(mix(p)));
        let down = (receivers.iter())
            .filter(|&&r| live_receiver(r))
            .fold(0u64, |h, &r| h.wrapping_add(mix(r)));
        prints.push((up, down, b));
    }
    prints.sort_unstable();
    *steps += prints.len() as u64;
    let sorted = |list: &[NodeIx], keep: &dyn Fn(NodeIx) -> bool| {
        let mut kept: Vec<NodeIx> = list.iter().copied().filter(|&v| keep(v)).collect();
        kept.sort_unstable();
        kept.dedup();
        kept
    };
    let mut vanished = vec![false; n];
    let mut any = false;
    for same_print in prints
        .chunk_by(|a, b| (a.0, a.1) == (b.0, b.1))
        .filter(|run| run.len() > 1)
    {
        // Boxes of one fingerprint, told apart by their lists.
        let mut boxes: Vec<(Wiring, NodeIx)> = (same_print.iter())
            .map(|&(_, _, b)| {
                let providers = g.providers.of(b);
                *steps += (providers.len() + g.receivers.of(b).len()) as u64;
                let wiring = Wiring {
                    up: sorted(providers, &|p| live_box(p)),
                    down: sorted(g.receivers.of(b), &|r| live_receiver(r)),
                    leaves: sorted(providers, &|p| finals.is_final_leaf(p)),
                };
                (wiring, b)
            })
            .collect();
        boxes.sort_unstable_by(|x, y| (&x.0.up, &x.0.down).cmp(&(&y.0.up, &y.0.down)));
        *steps += boxes.len() as u64;
        for group in boxes.chunk_by(|x, y| (&x.0.up, &x.0.down) == (&y.0.up, &y.0.down)) {
            let Some(kept) = group.iter().min_by(|x, y| g.id(x.1).cmp(g.id(y.1))) else {
                continue;
            };
            for (wiring, twin) in group.iter().filter(|(_, b)| *b != kept.1) {
                if within(&wiring.leaves, &kept.0.leaves, steps) {
                    vanished[*twin as usize] = true;
                    any = true;
                }
            }
        }
    }
    any.then_some(vanished)
}

/// Cuts every edge into or out of a vanished twin out of `g`: what paths
/// and renames read of the graph from then on. `steps` counts the edges
/// copied.
pub(crate) fn cut_out(g: &mut ToolGraph<'_>, vanished: &[bool], steps: &mut u64) {
    *steps += (g.providers.entries() + g.receivers.entries() + g.passthrough_receivers.entries()) as u64;
    g.drop_tool_edges(|from, to| vanished[from as usize] || vanished[to as usize]);
}

#[cfg(test)]
mod tests {
    use super::super::paths::hub_tests::{edge, node, total};
    use super::*;
    use crate::engine::check_text;
    use crate::names::CandidateNames;
    use crate::parse::parse;
    use crate::{Budget, Config};

    fn workflow(nodes: &[String], edges: &[String]) -> String {
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    /// A lattice of `levels` levels of two boxes, L_i and R_i, each fed by
    /// both boxes of the level above; `pairs` clashing pairs "Tool j" and
    /// "tool-j" wired into both boxes of the top level, the bottom level
    /// into one agent `a`.
    fn lattice(levels: usize, pairs: usize) -> String {
        let (mut nodes, mut edges) = (vec![node("a", "agent", "a")], Vec::new());
        for i in 0..levels {
            for side in ["L", "R"] {
                let b = format!("{side}{i:04}");
                nodes.push(node(&b, "toolbox", &b));
                if i == 0 {
                    continue;
                }
                edges.extend(["L", "R"].map(|above| edge(&format!("{above}{:04}", i - 1), &b)));
            }
        }
        let last = levels - 1;
        edges.extend(["L", "R"].map(|side| edge(&format!("{side}{last:04}"), "a")));
        for j in 0..pairs {
            for (tool, label) in [
                (format!("t{j:04}"), format!("Tool {j}")),
                (format!("u{j:04}"), format!("tool-{j}")),
            ] {
                nodes.push(node(&tool, "tool", &label));
                edges.extend([edge(&tool, "L0000"), edge(&tool, "R0000")]);
            }
        }
        workflow(&nodes, &edges)
    }

    /// The twins of `text` that vanish, by id, and the tool edges left
    /// once they are cut out, as (provider, receiver) ids, sorted.
    fn cut(text: &str) -> (Vec<String>, Vec<(String, String)>) {
        let mut g = parse(text.as_bytes(), &Config::default()).unwrap();
        let names = CandidateNames::find(&g, false);
        let finals = Finals::of(&g, &names).expect("a clash");
        let vanished = vanishing(&g, &finals, &mut 0).unwrap_or_default();
        let mut gone: Vec<String> = (0..g.node_count() as NodeIx)
            .filter(|&v| vanished.get(v as usize) == Some(&true))
            .map(|v| g.id(v).to_string())
            .collect();
        gone.sort();
        if !vanished.is_empty() {
            cut_out(&mut g, &vanished, &mut 0);
        }
        let edges: Vec<(NodeIx, NodeIx)> = (0..g.node_count() as NodeIx)
            .flat_map(|p| g.receivers.of(p).iter().map(move |&r| (p, r)))
            .collect();
        // Each adjacency lost the same edges.
        assert_eq!(g.providers.entries(), edges.len());
        let into_boxes = edges.iter().filter(|&&(_, r)| g.is_passthrough(r)).count();
        assert_eq!(g.passthrough_receivers.entries(), into_boxes);
        let mut kept: Vec<(String, String)> = (edges.iter())
            .map(|&(p, r)| (g.id(p).to_string(), g.id(r).to_string()))
            .collect();
        kept.sort();
        (gone, kept)
    }

    fn pair(p: &str, r: &str) -> (String, String) {
        (p.to_string(), r.to_string())
    }

    #[test]
    fn cmp9_paths_every_twin_but_the_smallest_vanishes_a_lattice_becomes_a_chain() {
        // R_i and L_i: fed by both boxes above (the top two by nothing),
        // into both below (the bottom two into a). The top two hold the
        // same tools.
        let (gone, kept) = cut(&lattice(4, 1));
        assert_eq!(gone, ["R0000", "R0001", "R0002", "R0003"]);
        let expected = [
            pair("L0000", "L0001"),
            pair("L0001", "L0002"),
            pair("L0002", "L0003"),
            pair("L0003", "a"),
            pair("t0000", "L0000"),
            pair("u0000", "L0000"),
        ];
        assert_eq!(kept, expected);
    }

    #[test]
    fn cmp9_paths_a_twin_with_a_tool_of_its_own_stays_where_the_tool_starts() {
        // Family 54's diamonds: B_i into L_i and R_i, each with a clashing
        // pair of its own, both into B_(i+1). R_i is where its pair starts.
        let mut nodes: Vec<String> = ["B0", "B1", "L0", "R0"].iter().map(|b| node(b, "toolbox", b)).collect();
        nodes.push(node("a", "agent", "a"));
        let mut edges: Vec<String> = [("B0", "L0"), ("B0", "R0"), ("L0", "B1"), ("R0", "B1"), ("B1", "a")]
            .iter()
            .map(|(p, r)| edge(p, r))
            .collect();
        for (tool, label, into) in [
            ("l", "L", "L0"),
            ("l2", "l!", "L0"),
            ("r", "R", "R0"),
            ("r2", "r!", "R0"),
        ] {
            nodes.push(node(tool, "tool", label));
            edges.push(edge(tool, into));
        }
        let (gone, kept) = cut(&workflow(&nodes, &edges));
        assert!(gone.is_empty());
        assert_eq!(kept.len(), edges.len());
    }

    #[test]
    fn cmp9_paths_a_box_that_feeds_only_dead_boxes_does_not_tell_twins_apart_a_consumer_does() {
        let mut nodes: Vec<String> = ["a", "b"].iter().map(|a| node(a, "agent", a)).collect();
        nodes.extend(["T", "B1", "B2", "C1", "C2", "dead"].map(|b| node(b, "toolbox", b)));
        nodes.extend([node("x", "tool", "X"), node("y", "tool", "x!")]);
        let mut edges: Vec<String> = [("x", "T"), ("y", "T")].iter().map(|(p, r)| edge(p, r)).collect();
        // B1 and B2: fed by T, into a; B2 also into a box that reaches no
        // consumer. C1 and C2: fed by T, into b; C2 also into agent a.
        for (p, r) in [("T", "B1"), ("T", "B2"), ("B1", "a"), ("B2", "a"), ("B2", "dead")] {
            edges.push(edge(p, r));
        }
        for (p, r) in [("T", "C1"), ("T", "C2"), ("C1", "b"), ("C2", "b"), ("C2", "a")] {
            edges.push(edge(p, r));
        }
        let (gone, kept) = cut(&workflow(&nodes, &edges));
        assert_eq!(gone, ["B2"]);
        assert!(kept.contains(&pair("T", "C1")) && kept.contains(&pair("T", "C2")));
    }

    #[test]
    fn cmp9_a_clash_formed_in_two_twins_still_has_no_through_box() {
        // Tools X and x! in boxes of their own, both into twins T1 and T2,
        // into agent a: the clash forms in two boxes, so no group names one
        // (CONFORMANCE 18), though T2 vanishes from what paths read.
        let mut nodes: Vec<String> = ["P", "Q", "T1", "T2"].iter().map(|b| node(b, "toolbox", b)).collect();
        nodes.extend([node("a", "agent", "a"), node("x", "tool", "X"), node("y", "tool", "x!")]);
        let edges: Vec<String> = [
            ("x", "P"),
            ("y", "Q"),
            ("P", "T1"),
            ("P", "T2"),
            ("Q", "T1"),
            ("Q", "T2"),
            ("T1", "a"),
            ("T2", "a"),
        ]
        .iter()
        .map(|(p, r)| edge(p, r))
        .collect();
        let text = workflow(&nodes, &edges);
        assert_eq!(cut(&text).0, ["T2"]);
        let report = check_text(text.as_bytes(), &Config::default(), Budget::full()).unwrap();
        assert_eq!(report.collisions.group(0).through(), None);
        for tool in report.collisions.get(0).expect("a violation").tools() {
            let first = if tool.id() == "x" { "P" } else { "Q" };
            assert_eq!(tool.path_ids(0, tool.path_len()), [tool.id(), first, "T1", "a"]);
        }
    }

    #[test]
    fn cmp9_paths_twins_keep_the_walks_path_and_every_clash() {
        // Read through a check: the same findings with the edges dropped as
        // the rule gives on the whole lattice (every path down the L boxes,
        // the tool's first step into L0000, the smaller id of two as near).
        let levels = 6;
        let report = check_text(lattice(levels, 3).as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        assert_eq!(collisions.len(), 3);
        for v in 0..collisions.len() {
            for tool in collisions.get(v).expect("a violation").tools() {
                let mut expected = vec![tool.id().to_string()];
                expected.extend((0..levels).map(|i| format!("L{i:04}")));
                expected.push("a".into());
                assert_eq!(tool.path_ids(0, tool.path_len()), expected);
            }
        }
    }

    #[test]
    fn cmp9_paths_reading_a_two_wide_lattice_of_clashing_pairs_at_most_doubles() {
        // n pairs atop n levels: before twins, each tool's path was found
        // by 32 nested searches and a warm-up, the work a tool growing
        // with the depth (2.75x for twice n at 200, 53 million steps at 800).
        let work = |n: usize| {
            let report = check_text(lattice(n, n).as_bytes(), &Config::default(), Budget::full()).unwrap();
            let collisions = &report.collisions;
            for v in 0..collisions.len() {
                for tool in collisions.get(v).expect("a violation").tools() {
                    let len = tool.path_len();
                    assert_eq!(tool.path_ids(len - 2, len), [format!("L{:04}", n - 1), "a".into()]);
                }
            }
            total(&collisions.work())
        };
        let (once, twice) = (work(200), work(400));
        assert!(
            twice <= 2 * once + once / 20,
            "{twice} steps at 400 levels, {once} at 200"
        );
    }

    #[test]
    fn cmp9_many_twins_of_one_tool_each_beside_a_twin_of_many_cost_their_own_tools() {
        // Box P of a clashing pair into K and into n twins T_j of K, all
        // into agent a; K holds n tools, T_j one of those and one of its
        // own. Looking each twin's tools up in K's by a merge cost n steps
        // a twin, n x n in all. (Every tool clashes with T_j's own.)
        let shape = |n: usize| {
            let mut nodes = vec![
                node("a", "agent", "a"),
                node("P", "toolbox", "P"),
                node("K", "toolbox", "K"),
            ];
            let mut edges = vec![edge("P", "K"), edge("K", "a")];
            for (tool, label) in [("x", "X"), ("y", "x!")] {
                nodes.push(node(tool, "tool", label));
                edges.push(edge(tool, "P"));
            }
            for j in 0..n {
                let (k, t, own) = (format!("k{j:05}"), format!("T{j:05}"), format!("o{j:05}"));
                let (label, twin) = (format!("Tool {j}"), format!("tool-{j}"));
                nodes.extend([
                    node(&k, "tool", &label),
                    node(&t, "toolbox", &t),
                    node(&own, "tool", &twin),
                ]);
                edges.extend([
                    edge(&k, "K"),
                    edge(&k, &t),
                    edge(&own, &t),
                    edge("P", &t),
                    edge(&t, "a"),
                ]);
            }
            workflow(&nodes, &edges)
        };
        let work = |n: usize| {
            let report = check_text(shape(n).as_bytes(), &Config::default(), Budget::full()).unwrap();
            assert_eq!(report.collisions.len(), n as u64 + 1);
            total(&report.collisions.work())
        };
        let (once, twice) = (work(2_000), work(4_000));
        assert!(twice * 10 <= 23 * once, "{twice} steps at 4,000 twins, {once} at 2,000");
    }
}
