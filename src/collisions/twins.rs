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
//! Cost: O(N + E). Each live box's live box providers, live receivers and
//! final leaves are listed sorted without repeats by walking the nodes in
//! order (a counting sort, an edge a step); boxes are grouped by a hash of
//! the first two and compared whole within a hash; a twin's leaves are
//! looked up in the kept twin's by one merge.

use crate::graph::{NodeIx, ToolGraph};
use crate::maps::{new_map, Map};

use super::flow::Finals;

/// Per node, a sorted list without repeats, in CSR form (a node's list
/// may end before the next one's start: repeats left a gap).
struct Lists {
    starts: Vec<u32>,
    ends: Vec<u32>,
    items: Vec<NodeIx>,
}

impl Lists {
    /// For every `(owner, item)` pair `pairs` yields, `item` in `owner`'s
    /// list; the pairs must come in increasing order of item.
    fn of(node_count: usize, pairs: impl Fn(&mut dyn FnMut(NodeIx, NodeIx))) -> Lists {
        let mut starts = vec![0u32; node_count + 1];
        pairs(&mut |owner, _| starts[owner as usize + 1] += 1);
        for i in 0..node_count {
            starts[i + 1] += starts[i];
        }
        let mut ends = starts[..node_count].to_vec();
        let mut items = vec![0; starts[node_count] as usize];
        pairs(&mut |owner, item| {
            let (start, end) = (starts[owner as usize], &mut ends[owner as usize]);
            if *end == start || items[*end as usize - 1] != item {
                items[*end as usize] = item;
                *end += 1;
            }
        });
        Lists { starts, ends, items }
    }

    fn of_node(&self, node: NodeIx) -> &[NodeIx] {
        &self.items[self.starts[node as usize] as usize..self.ends[node as usize] as usize]
    }
}

/// Whether every item of sorted `small` is in sorted `large`.
fn within(small: &[NodeIx], large: &[NodeIx], steps: &mut u64) -> bool {
    let mut rest = large.iter();
    small.iter().all(|x| {
        rest.by_ref().find(|&y| {
            *steps += 1;
            y >= x
        }) == Some(x)
    })
}

/// The twins of `g` that vanish (see the module docs), per node; None when
/// there are none. `steps` counts the edges and list entries looked at.
pub(crate) fn vanishing(g: &ToolGraph<'_>, finals: &Finals, steps: &mut u64) -> Option<Vec<bool>> {
    let n = g.node_count();
    let live: Vec<bool> = (0..n as NodeIx).map(|v| finals.is_live_box(g, v)).collect();
    let live_box = |v: NodeIx| live[v as usize];
    // A live box's live box providers, its live receivers, its final leaves.
    let fed_by = Lists::of(n, |push| {
        for p in (0..n as NodeIx).filter(|&p| live_box(p)) {
            for &r in g.passthrough_receivers.of(p) {
                if live_box(r) {
                    push(r, p);
                }
            }
        }
    });
    let feeds = Lists::of(n, |push| {
        for r in (0..n as NodeIx).filter(|&r| !g.is_passthrough(r) || live_box(r)) {
            for &p in g.providers.of(r) {
                if live_box(p) {
                    push(p, r);
                }
            }
        }
    });
    let leaves = Lists::of(n, |push| {
        for x in (0..n as NodeIx).filter(|&x| finals.is_final_leaf(x)) {
            for &r in g.receivers.of(x) {
                if live_box(r) {
                    push(r, x);
                }
            }
        }
    });
    *steps += (n + g.passthrough_receivers.entries() + g.providers.entries() + g.receivers.entries()) as u64;

    // Live boxes grouped by what feeds them and what they feed: per
    // fingerprint, the groups of that fingerprint, each by its first box.
    let mut groups_of: Map<u64, Vec<u32>> = new_map();
    let mut groups: Vec<Vec<NodeIx>> = Vec::new();
    for b in (0..n as NodeIx).filter(|&b| live_box(b)) {
        let (up, down) = (fed_by.of_node(b), feeds.of_node(b));
        *steps += (up.len() + down.len()) as u64;
        let same_print = groups_of.entry(fingerprint(up, down)).or_default();
        let same = same_print.iter().copied().find(|&group| {
            let other = groups[group as usize][0];
            *steps += (up.len() + down.len()) as u64;
            fed_by.of_node(other) == up && feeds.of_node(other) == down
        });
        match same {
            Some(group) => groups[group as usize].push(b),
            None => {
                same_print.push(groups.len() as u32);
                groups.push(vec![b]);
            }
        }
    }
    let mut vanished = vec![false; n];
    let mut any = false;
    for group in groups.iter().filter(|group| group.len() > 1) {
        *steps += group.len() as u64;
        let kept = (group.iter().copied())
            .min_by(|&a, &b| g.id(a).cmp(g.id(b)))
            .expect("a group of two or more");
        for &twin in group.iter().filter(|&&b| b != kept) {
            if within(leaves.of_node(twin), leaves.of_node(kept), steps) {
                vanished[twin as usize] = true;
                any = true;
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

/// A fingerprint of a box's providers and receivers.
fn fingerprint(up: &[NodeIx], down: &[NodeIx]) -> u64 {
    let mut h = 0x1319_8A2E_0370_7344u64 ^ (((up.len() as u64) << 32) | down.len() as u64);
    for &x in up.iter().chain(down) {
        h = (h ^ u64::from(x)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
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
}
