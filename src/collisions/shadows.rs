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
    // Per fingerprint of what feeds them, the first boxes by id.
    let mut by_print: Map<u64, Vec<NodeIx>> = new_map();
    for &b in &boxes {
        by_print.entry(print[b as usize]).or_default().push(b);
    }
    // A box shadowed at first is fed as another is (a), and every other
    // is fed by a shadowed one (b).
    if by_print.len() == boxes.len() {
        return Vec::new();
    }
    for group in by_print.values_mut() {
        *steps += group.len() as u64;
        group.sort_unstable_by(|&x, &y| g.id(x).cmp(g.id(y)));
        group.truncate(SHADOWS_PER_PRINT + 1);
    }
    // Boxes of one fingerprint looked for again as boxes feeding them are
    // shadowed; each box's fingerprint counts a shadowed provider as its
    // shadow from then on.
    let wired = cut.wired(&boxes, steps);
    let mut shadow = vec![NONE; n];
    let mut checks = vec![0u8; n];
    let mut queued = vec![false; n];
    let mut work: VecDeque<NodeIx> = boxes.iter().copied().collect();
    for &b in &boxes {
        queued[b as usize] = true;
    }
    let firsts: Set<NodeIx> = twins.moved.iter().map(|&(_, _, first)| first).collect();
    while let Some(x) = work.pop_front() {
        queued[x as usize] = false;
        *steps += 1;
        if shadow[x as usize] != NONE || twins.gains[x as usize] || firsts.contains(&x) {
            continue;
        }
        let Some(group) = by_print.get(&print[x as usize]) else {
            continue;
        };
        for &y in group {
            if y == x || checks[x as usize] >= CHECKS_PER_BOX {
                continue;
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
