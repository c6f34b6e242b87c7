//! Boxes in another's shadow: near twins down a chain (CMP-9, SEMANTICS 6).
//!
//! A near twin (`twins`) is fed by the boxes that feed its kept twin, so
//! the walk a path is (at each node the receiver nearest the consumer,
//! the smallest id among equals) steps into it only toward a consumer it
//! is nearer than the kept twin is. Split every box in two in series
//! (`b -> b~`, `b~` feeding all `b` fed): the near twin's second half is
//! fed by the near twin alone, and the kept twin's by the kept twin, so
//! the halves are no near twins, and every box after them is tied with
//! another as near, toward every consumer but the near twin's own.
//!
//! Box `x` is *in the shadow of* box `y` when every final leaf and box
//! feeding `x` (in the graph twins and `entered` leave)
//!
//! - (a) feeds `y` too, and `y` is of a smaller id than `x`; or
//! - (b) is itself in the shadow of a box that feeds `y`.
//!
//! Then a walk is at `x` only heading for a consumer `c` that `x` is
//! strictly nearer than `y`: `d(x, c) < d(y, c)`. By induction along the
//! walk: from a node that feeds both (a), the walk takes `y` whenever `y`
//! is as near, being first by id (a tool's first box is chosen so too);
//! from a box `p` in the shadow of `q` (b), the walk is at `p` only when
//! `d(p, c) < d(q, c)`, and steps into `x` only when `d(x, c) = d(p, c) -
//! 1`, so `d(x, c) < d(q, c) - 1 <= d(y, c)` as `q` feeds `y`. Nothing
//! asks that `y` be of a smaller id in (b): the walk never compares the
//! two there.
//!
//! So no walk takes an edge from `x` into a node `v` that `y` feeds too:
//! it would need `d(x, c) = d(v, c) + 1 >= d(y, c)`. Such edges are cut.
//! Every walk is the same without them: the walk's own steps are all
//! left, so no node on it is further from its consumer, and no other node
//! is nearer than before. And every node is still reached by exactly the
//! leaves it was, which is what paths read of the classes: what reaches
//! `x` reaches `y` (by induction on the length of the way, the same two
//! cases), and `y` still feeds `v`, when `y` is in the shadow of no box
//! (no edge of `y` is cut). So only edges of boxes shadowed by such a box
//! are cut. A box onto which twins' leaves were moved, or that is a moved
//! leaf's first box (`twins::Moved`), is shadowed by none: what it carries
//! and where its tools start are not the graph's to tell.
//!
//! Every box of every near twin's chain hangs from the chain it shadows
//! then, and ties that no pair of lists and no class of alike boxes shows
//! go: a cycle whose every box has a near twin, then every box split in
//! two, was read off trees, n x n (near twins split in two, session 38).
//!
//! Which box shadows which is found from above. Each box's fingerprint is
//! the sum of its providers' mixed numbers, a provider in the shadow of a
//! box counted as that box; a box whose fingerprint is the providers' sum
//! of others is checked against the first two of them by id (every
//! provider looked up in the edges), and when one is a shadow it is kept,
//! and the fingerprints of the boxes it feeds move. A box is checked at
//! most `CHECKS_PER_BOX` times. So a shadow found is a shadow for good,
//! and one missed only leaves edges that no walk takes.
//!
//! Cost: O(N + E) to fingerprint and, when two boxes share a
//! fingerprint, O(E) more with the graph's edges in a hash set: each box
//! is shadowed once, which moves the fingerprints of the boxes it feeds
//! once, and is checked at most `CHECKS_PER_BOX` times against its
//! providers.

use std::collections::VecDeque;

use crate::graph::{NodeIx, ToolGraph};
use crate::maps::{new_map, Map, Set};

use super::entered::Cut;
use super::flow::Finals;
use super::twins::{mix, Twins};

/// How many times one box is checked against a box that may shadow it.
const CHECKS_PER_BOX: u8 = 4;

/// How many boxes of one fingerprint are kept as the ones that may shadow
/// a box of that fingerprint: the first by id.
const SHADOWS_PER_PRINT: usize = 2;

/// No shadow.
const NONE: NodeIx = NodeIx::MAX;

/// Puts box `b` among the first boxes by id of its fingerprint, those
/// whose fingerprint moved since dropped; whether another box of it was
/// there.
fn stand(by_print: &mut Map<u64, Vec<NodeIx>>, print: &[u64], b: NodeIx, g: &ToolGraph<'_>, steps: &mut u64) -> bool {
    let h = print[b as usize];
    let first = by_print.entry(h).or_default();
    *steps += 1 + first.len() as u64;
    first.retain(|&y| y != b && print[y as usize] == h);
    let others = !first.is_empty();
    let at = first.partition_point(|&y| g.id(y) < g.id(b));
    if at <= SHADOWS_PER_PRINT {
        first.insert(at, b);
        first.truncate(SHADOWS_PER_PRINT + 1);
    }
    others
}

/// The edges of boxes in another's shadow that no walk takes (see the
/// module docs), sorted; empty when no two boxes are fed alike.
pub(crate) fn cut_edges(g: &ToolGraph<'_>, finals: &Finals, twins: &Twins, steps: &mut u64) -> Vec<(NodeIx, NodeIx)> {
    let n = g.node_count();
    let cut = Cut { g, finals, twins };
    let boxes: Vec<NodeIx> = (0..n as NodeIx).filter(|&b| cut.live_box(b)).collect();
    // Each live box's providers left, each once: live boxes and final
    // leaves, a moved leaf wired into its kept twin.
    let mut moved_onto: Map<NodeIx, Vec<NodeIx>> = new_map();
    for &(leaf, kept, _) in &twins.moved {
        moved_onto.entry(kept).or_default().push(leaf);
    }
    let mut up_starts = vec![0u32; n + 1];
    let mut ups: Vec<NodeIx> = Vec::new();
    let mut print = vec![0u64; n];
    for v in 0..n as NodeIx {
        up_starts[v as usize] = ups.len() as u32;
        if !cut.live_box(v) {
            continue;
        }
        let from = ups.len();
        let providers = g.providers.of(v);
        *steps += 1 + providers.len() as u64;
        ups.extend(
            (providers.iter().copied()).filter(|&p| {
                (cut.live_box(p) && cut.onward(p, v)) || (finals.is_final_leaf(p) && !g.is_passthrough(p))
            }),
        );
        ups.extend(moved_onto.get(&v).into_iter().flatten().copied());
        ups[from..].sort_unstable();
        let mut kept = from;
        for i in from..ups.len() {
            if i == from || ups[i] != ups[kept - 1] {
                ups[kept] = ups[i];
                kept += 1;
            }
        }
        ups.truncate(kept);
        print[v as usize] = (ups[from..].iter()).fold(0u64, |h, &p| h.wrapping_add(mix(p)));
    }
    up_starts[n] = ups.len() as u32;
    let up = |v: NodeIx| &ups[up_starts[v as usize] as usize..up_starts[v as usize + 1] as usize];
    // Per fingerprint, the first boxes of it by id; a box whose
    // fingerprint moved since is passed over, and dropped when another
    // comes.
    let mut by_print: Map<u64, Vec<NodeIx>> = new_map();
    let mut shared = false;
    for &b in &boxes {
        shared |= stand(&mut by_print, &print, b, g, steps);
    }
    // A box shadowed at first is fed as another is (a), and every other
    // is fed by a shadowed one (b).
    if !shared {
        return Vec::new();
    }
    // Boxes are looked up again as boxes feeding them are shadowed: a
    // fingerprint counts a shadowed provider as its shadow from then on.
    let wired = cut.wired(&boxes, steps);
    let mut shadow = vec![NONE; n];
    let mut checks = vec![0u8; n];
    let mut queued = vec![false; n];
    let mut work: VecDeque<NodeIx> = boxes.iter().copied().collect();
    for &b in &boxes {
        queued[b as usize] = true;
    }
    let firsts: Set<NodeIx> = twins.moved.iter().map(|&(_, _, first)| first).collect();
    let mut candidates: Vec<NodeIx> = Vec::new();
    while let Some(x) = work.pop_front() {
        queued[x as usize] = false;
        *steps += 1;
        if shadow[x as usize] != NONE || twins.gains[x as usize] || firsts.contains(&x) {
            continue;
        }
        let h = print[x as usize];
        candidates.clear();
        candidates.extend((by_print.get(&h).into_iter().flatten()).filter(|&&y| y != x && print[y as usize] == h));
        for &y in &candidates {
            if checks[x as usize] >= CHECKS_PER_BOX {
                break;
            }
            checks[x as usize] += 1;
            let providers = up(x);
            *steps += 1 + providers.len() as u64;
            let before = g.id(y) < g.id(x);
            let shadows = providers.iter().all(|&p| {
                (before && wired.contains(&(p, y)))
                    || (shadow[p as usize] != NONE && wired.contains(&(shadow[p as usize], y)))
            });
            if !shadows {
                continue;
            }
            shadow[x as usize] = y;
            let receivers = g.receivers.of(x);
            *steps += receivers.len() as u64;
            for &r in receivers {
                if cut.live_box(r) && cut.onward(x, r) {
                    let at = &mut print[r as usize];
                    *at = at.wrapping_sub(mix(x)).wrapping_add(mix(y));
                    stand(&mut by_print, &print, r, g, steps);
                    if !queued[r as usize] {
                        queued[r as usize] = true;
                        work.push_back(r);
                    }
                }
            }
            break;
        }
    }
    // The edges of boxes shadowed by a box in no shadow into what that box
    // feeds too.
    let mut cuts: Vec<(NodeIx, NodeIx)> = Vec::new();
    for &x in &boxes {
        let y = shadow[x as usize];
        if y == NONE || shadow[y as usize] != NONE {
            continue;
        }
        let receivers = g.receivers.of(x);
        *steps += receivers.len() as u64;
        cuts.extend(
            (receivers.iter().copied())
                .filter(|&v| cut.onward(x, v) && wired.contains(&(y, v)))
                .map(|v| (x, v)),
        );
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::entered::tests::{check, cycle, paths, Shape};
    use super::super::paths::hub_tests::{node, total};
    use crate::report::Report;

    /// Every box `b` given a near twin `b!`, fed by what feeds `b` (and
    /// its near twin), feeding what `b` feeds (and its near twin) and an
    /// agent `b!a` of its own; with `own_tool`, the near twin also holds a
    /// tool "Own b" whose twin "own-b" is wired into that agent.
    fn near(shape: Shape, own_tool: bool) -> Shape {
        let is_box: BTreeSet<String> = shape.boxes.iter().cloned().collect();
        let both = |v: &String| {
            let mut copies = vec![v.clone()];
            if is_box.contains(v) {
                copies.push(format!("{v}!"));
            }
            copies
        };
        let mut edges: Vec<(String, String)> = (shape.edges.iter())
            .flat_map(|(p, r)| {
                both(p)
                    .into_iter()
                    .flat_map(move |p| both(r).into_iter().map(move |r| (p.clone(), r)))
            })
            .collect();
        let mut others = shape.others;
        for b in &shape.boxes {
            others.push(node(&format!("{b}!a"), "agent", &format!("{b}!a")));
            edges.push((format!("{b}!"), format!("{b}!a")));
            if own_tool {
                others.push(node(&format!("{b}!t"), "tool", &format!("Own {b}")));
                others.push(node(&format!("{b}!u"), "tool", &format!("own-{b}")));
                edges.push((format!("{b}!t"), format!("{b}!")));
                edges.push((format!("{b}!u"), format!("{b}!a")));
            }
        }
        let boxes = shape.boxes.iter().flat_map(&both).collect();
        Shape { boxes, others, edges }
    }

    /// The ids of the boxes `id` feeds in the graph paths read.
    fn boxes_fed(report: &Report, id: &str) -> Vec<String> {
        let g = &report.collisions.graph;
        let v = (0..g.node_count() as u32)
            .find(|&v| g.id(v) == id)
            .expect("a node of that id");
        (g.receivers.of(v).iter())
            .filter(|&&r| g.is_passthrough(r))
            .map(|&r| g.id(r).to_string())
            .collect()
    }

    #[test]
    fn cmp9_paths_a_cycle_of_near_twins_split_in_two_reads_as_the_cycle_split_its_halves_hanging() {
        // C0001! is C0001's near twin; split, C0001!~ is fed by C0001! and
        // C0001~ by C0001, so the halves are no near twins, and C0001!~ is
        // first by id. But the walk is at C0001! only toward C0001!a, which
        // C0001 is further from: C0001!~'s edges into what C0001~ feeds are
        // never taken, and cut.
        let report = check(&near(cycle(8), false).split().text());
        assert_eq!(paths(&report), paths(&check(&cycle(8).split().text())));
        assert_eq!(boxes_fed(&report, "C0001!~"), Vec::<String>::new());
        assert_eq!(boxes_fed(&report, "C0001!"), ["C0001!~"]);
        assert_eq!(boxes_fed(&report, "C0001~"), ["C0002", "C0002!"]);
    }

    #[test]
    fn cmp9_paths_a_cycle_of_near_twins_split_in_two_costs_what_the_cycle_does() {
        // Before session 38: 5.9x the work for twice the cycle from 124 on
        // two-way-cycle so made, 178 million steps to read at 248 (0.8
        // MB), every path read off trees of roots tied with a near twin's
        // chain toward every consumer but its own.
        let work = |n: usize| {
            let report = check(&near(cycle(n), false).split().text());
            let collisions = &report.collisions;
            for v in 0..collisions.len() {
                for tool in collisions.get(v).expect("a violation").tools() {
                    let len = tool.path_len();
                    assert_eq!(tool.path_ids(len - 1, len).len(), 1);
                }
            }
            total(&collisions.work())
        };
        crate::work::assert_at_most_doubles(work(200), work(400), "a cycle of near twins split in two: ");
    }

    #[test]
    fn cmp9_paths_a_near_twin_with_a_tool_of_its_own_is_in_no_shadow_and_keeps_its_edges() {
        // "Own C0001" starts at C0001! toward every consumer, and its walk
        // goes on through C0001!~: nothing is cut.
        let report = check(&near(cycle(8), true).split().text());
        assert_eq!(boxes_fed(&report, "C0001!~"), ["C0002", "C0002!"]);
        let own: Vec<Vec<String>> = paths(&report)
            .into_iter()
            .flatten()
            .filter(|p| p[0] == "C0001!t")
            .collect();
        assert_eq!(own, [["C0001!t", "C0001!", "C0001!~", "C0001!a"]]);
    }
}
