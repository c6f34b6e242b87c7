//! Edges a shorter way passes by (CMP-9, SEMANTICS 6).
//!
//! An edge `p -> r` between boxes, where `p` feeds every receiver of `r`
//! too (in the graph twins, `entered` and `shadows` leave), is never
//! walked: a walk at `p` steps into the receiver nearest its consumer, and
//! every receiver of `r` is fed by `p` and nearer than `r` (a consumer
//! `r` feeds is the walk's end, one step from `p`). So the edge can go
//! without changing any walk: the walk's own steps are all left, so no
//! node on it is further from its consumer, and no other node is nearer.
//!
//! It is cut only when `r` is still reached by what `p` brings it, by a
//! *witness*: a box `q` that `p` feeds and that feeds `r`, both edges
//! kept or proved (below). Paths read the classes, made before the cut,
//! as what reaches each node; with a witness every way through a cut edge
//! has a way round it, so every node is still reached by exactly the
//! leaves it was. A box
//! onto which twins' leaves were moved, or that is a moved leaf's first
//! box (`twins::Moved`), is at neither end of a cut edge: where its tools
//! start is not the graph's to tell.
//!
//! Which are cut: a candidate is cut once one of its witnesses has both
//! edges settled, each no candidate or cut before it. So the cuts come in
//! an order in which each is proved by edges kept or proved before it:
//! what reaches `p` reaches `q`, then `r`. A candidate no witness proves
//! (its witnesses wait on each other, or on it) is kept. Along a chain
//! into which one box feeds every box, each edge is proved by the one
//! above. (A box fed by a box holding a clashing pair and wired into every
//! box of a cycle split in two, the session 37 attack's `split+hub1`,
//! made every half of the cycle a root and every side's half one of two
//! providers, no way down a chain from a source: each tool's path round
//! the cycle was read root by root. Its edges into the boxes of the cycle
//! and into the sides' halves are cut, each witnessed by the box before:
//! the cycle is an arc again.)
//!
//! Cost: per box that feeds boxes, its receivers stamped (a step each),
//! and per box it feeds, that box's receivers looked up in the stamps,
//! stopping at the first not fed; a candidate's witnesses are read off
//! the providers of `r`. Finding a box's candidates stops at an allowance
//! of its own, `BUDGET_PER_STEP` reads of its edges, so no part of a
//! workflow spends what another's cuts need (one budget for the whole
//! workflow was spent by 40 boxes each into every box of a part of its
//! own and their agents, each edge a candidate of 40 providers, and
//! nothing was cut beside them: the pass's attack). Proving them costs two
//! steps a witness and one a cut told. So the pass costs at most
//! `BUDGET_PER_STEP` reads of the graph.

use crate::graph::{NodeIx, ToolGraph};
use crate::maps::Map;

use super::entered::Cut;
use super::flow::Finals;
use super::twins::Twins;

/// How many times one read of its edges finding a box's candidates may
/// cost.
const BUDGET_PER_STEP: u64 = 16;

/// An edge `p -> r` that no walk takes, with its witnesses
/// `witnesses[from..to]`: the boxes `p` feeds that feed `r`.
struct Candidate {
    p: NodeIx,
    r: NodeIx,
    from: u32,
    to: u32,
}

/// The edges between boxes that a shorter way passes by and that a
/// witness keeps reaching what they reach (see the module docs), sorted.
pub(crate) fn bypassed_edges(
    g: &ToolGraph<'_>,
    finals: &Finals,
    twins: &Twins,
    steps: &mut u64,
) -> Vec<(NodeIx, NodeIx)> {
    let n = g.node_count();
    let cut = Cut { g, finals, twins };
    let firsts = twins.first_boxes();
    let apart = |v: NodeIx| twins.gains[v as usize] || firsts.contains(&v);
    let boxes: Vec<NodeIx> = (finals.relevant_boxes().iter().copied())
        .filter(|&b| !twins.vanished[b as usize])
        .collect();
    *steps += boxes.len() as u64;
    let mut spent = 0u64;

    // Per box `p`: what it feeds, stamped `p`; each box it feeds looked at
    // once (a second stamp), its receivers all fed by `p` or not.
    let (mut fed, mut looked) = (vec![NodeIx::MAX; n], vec![NodeIx::MAX; n]);
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut witnesses: Vec<NodeIx> = Vec::new();
    for &p in boxes.iter().filter(|&&p| !apart(p)) {
        let boxes_fed = g.passthrough_receivers.of(p);
        spent += 1;
        if boxes_fed.is_empty() {
            continue;
        }
        let receivers = g.receivers.of(p);
        let allowance = BUDGET_PER_STEP * (1 + receivers.len() as u64);
        let mut spent_on_p = receivers.len() as u64;
        for &s in receivers {
            if cut.onward(p, s) {
                fed[s as usize] = p;
            }
        }
        for &r in boxes_fed {
            if spent_on_p > allowance {
                break;
            }
            if fed[r as usize] != p || r == p || looked[r as usize] == p || apart(r) {
                continue;
            }
            looked[r as usize] = p;
            let onward = g.receivers.of(r);
            spent_on_p += 1;
            let mut passed_by = true;
            for &s in onward {
                spent_on_p += 1;
                if cut.onward(r, s) && fed[s as usize] != p {
                    passed_by = false;
                    break;
                }
            }
            if !passed_by {
                continue;
            }
            let from = witnesses.len() as u32;
            let providers = g.providers.of(r);
            spent_on_p += providers.len() as u64;
            witnesses.extend(
                (providers.iter().copied())
                    .filter(|&q| q != p && q != r && g.is_passthrough(q) && fed[q as usize] == p && cut.onward(q, r)),
            );
            witnesses[from as usize..].sort_unstable();
            super::flow::dedup_tail(&mut witnesses, from as usize);
            let to = witnesses.len() as u32;
            if to > from {
                candidates.push(Candidate { p, r, from, to });
            }
        }
        spent += spent_on_p;
    }
    if candidates.is_empty() {
        *steps += spent;
        return Vec::new();
    }

    // Cut in an order that proves each cut: a candidate is cut once one of
    // its witnesses has both edges settled, each no candidate or cut
    // before it, so what reaches `p` reaches `r` by edges kept, or cut
    // earlier and so proved in turn. Each witness counts the candidate
    // edges it waits for, and a cut tells those waiting for it.
    let index: Map<(NodeIx, NodeIx), u32> = (candidates.iter().enumerate())
        .map(|(i, c)| ((c.p, c.r), i as u32))
        .collect();
    let mut waiting = vec![0u8; witnesses.len()];
    let mut owner = vec![0u32; witnesses.len()];
    let mut waited_by: Vec<Vec<u32>> = vec![Vec::new(); candidates.len()];
    let mut cut = vec![false; candidates.len()];
    let mut proved: Vec<u32> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        for at in c.from..c.to {
            let q = witnesses[at as usize];
            owner[at as usize] = i as u32;
            for edge in [(c.p, q), (q, c.r)] {
                spent += 1;
                if let Some(&j) = index.get(&edge) {
                    waiting[at as usize] += 1;
                    waited_by[j as usize].push(at);
                }
            }
            if waiting[at as usize] == 0 && !cut[i] {
                cut[i] = true;
                proved.push(i as u32);
            }
        }
    }
    while let Some(j) = proved.pop() {
        for &at in &waited_by[j as usize] {
            spent += 1;
            waiting[at as usize] -= 1;
            let i = owner[at as usize] as usize;
            if waiting[at as usize] == 0 && !cut[i] {
                cut[i] = true;
                proved.push(i as u32);
            }
        }
    }
    *steps += spent;
    let mut bypassed: Vec<(NodeIx, NodeIx)> = (candidates.iter().zip(&cut))
        .filter(|(_, &cut)| cut)
        .map(|(c, _)| (c.p, c.r))
        .collect();
    bypassed.sort_unstable();
    bypassed
}

#[cfg(test)]
mod tests {
    use super::super::entered::tests::{check, cycle, paths, paths_but, work_to_read_every_path, Shape};
    use super::super::paths::hub_tests::node;
    use super::super::shadows::tests::boxes_fed;

    /// `shape` with a box `H` wired into every box, fed by a box `HS`
    /// holding "Hub Clash" and "hub-clash" (the session 37 attack's
    /// `hub1`).
    fn hub(mut shape: Shape) -> Shape {
        let wire = |p: &str, r: &str| (p.to_string(), r.to_string());
        shape.edges.extend(shape.boxes.iter().map(|b| wire("H", b)));
        shape
            .edges
            .extend([wire("HT", "HS"), wire("HU", "HS"), wire("HS", "H")]);
        shape.others.extend([
            node("H", "toolbox", "H"),
            node("HS", "toolbox", "HS"),
            node("HT", "tool", "Hub Clash"),
            node("HU", "tool", "hub-clash"),
        ]);
        shape
    }

    #[test]
    fn cmp9_paths_a_hub_into_every_box_of_a_cycle_split_in_two_keeps_the_edges_a_walk_may_take() {
        // H feeds C0001 and C0001~, which C0001 feeds alone: H -> C0001
        // is never walked, and C0000~ (fed by H) still brings what H
        // carries to C0001. So for S0001~, witnessed by S0001; H -> S0001
        // has no witness and stays, as does H -> C0001~ (C0001~ feeds
        // a0001, which H does not).
        let shape = hub(cycle(8).split());
        let kept: Vec<String> = (shape.boxes.iter())
            .filter(|b| (b.starts_with('C') && b.ends_with('~')) || (b.starts_with('S') && !b.ends_with('~')))
            .cloned()
            .collect();
        let report = check(&shape.text());
        assert_eq!(boxes_fed(&report, "H"), kept);
        let added = |id: &str| id.starts_with('H');
        assert_eq!(paths_but(&report, added), paths(&check(&cycle(8).split().text())));
    }

    #[test]
    fn cmp9_paths_a_hub_into_every_box_of_a_cycle_split_in_two_costs_what_the_cycle_does() {
        // Before session 39 every half of the cycle was a root (fed by H)
        // and every side's half one of two providers, no way down a chain
        // from a source: each group's first violation read the top tool's
        // path root by root, 3.6x then 3.8x the reading for twice the
        // cycle on family 56 so made (2.67 million steps at 500).
        let work = |n: usize| work_to_read_every_path(&hub(cycle(n).split()).text());
        crate::work::assert_at_most_doubles(work(200), work(400), "a hub into every box of a cycle split in two: ");
    }

    #[test]
    fn cmp9_paths_an_edge_a_shorter_way_passes_by_is_cut_only_with_a_witness() {
        // P feeds R and everything R feeds (A): P -> R is never walked.
        // Alone, it is the only way P's tool reaches R, and stays; with Q
        // between (fed by P, feeding R and an agent of its own), it goes.
        let text = |witness: bool| {
            let mut others = vec![
                node("t", "tool", "X"),
                node("u", "tool", "x"),
                node("A", "agent", "A"),
                node("B", "agent", "B"),
            ];
            let mut edges = vec![("t", "P"), ("u", "A"), ("P", "R"), ("P", "A"), ("R", "A")];
            let mut boxes = vec!["P", "R"];
            if witness {
                others.push(node("v", "tool", "Y"));
                edges.extend([("P", "Q"), ("Q", "R"), ("Q", "B"), ("v", "R")]);
                boxes.push("Q");
            }
            let owned = |list: Vec<&str>| list.into_iter().map(str::to_string).collect();
            let edges = edges.into_iter().map(|(p, r)| (p.to_string(), r.to_string())).collect();
            Shape {
                boxes: owned(boxes),
                others,
                edges,
            }
            .text()
        };
        assert_eq!(boxes_fed(&check(&text(false)), "P"), ["R"]);
        let report = check(&text(true));
        assert_eq!(boxes_fed(&report, "P"), ["Q"]);
        let ids = |path: &[&str]| path.iter().map(|id| id.to_string()).collect::<Vec<String>>();
        assert_eq!(paths(&report), [vec![ids(&["t", "P", "A"]), ids(&["u", "A"])]]);
    }
}
