//! Arcs (see the cost model of `paths`): inside a cycle of roots each fed
//! by the one before it and otherwise only by boxes with no providers, a
//! path is the shortest way in, then round, laid as one link read by its
//! place in the cycle.

use std::sync::Arc;

use super::{Paths, Wiring, FEW_ENTRIES, FEW_RECEIVERS};
use crate::collisions::flow::NONE;
use crate::graph::NodeIx;
use crate::maps::{new_map, Map};

/// A cycle of path roots each fed by the one before it and otherwise only
/// by *sources*, boxes with no provider box (families 55 and 56,
/// `cycle-far`, `cycle-sides`): a tool reaches the cycle only where it is
/// wired into a member or into a source, so its few receivers tell where
/// it enters, and inside, every route to a member passes the member
/// before it. The cycle is then its unit of boxes whole (a box upstream of
/// a member is a member or a source), so its members' ordinals lie
/// together, after every box above it and before every one below.
#[derive(Debug)]
pub(super) struct Cycle {
    /// The members, by ordinal, each fed by the one before (the first by
    /// the last).
    pub(super) members: Vec<u32>,
    /// Each member's place in `members`.
    pub(super) pos: Map<u32, u32>,
    /// The smallest member ordinal.
    pub(super) min: u32,
}

/// Up to this many members of a cycle, the path inside it is passed on
/// root by root, as before; an arc is laid from this many on.
const ARC_AT_LEAST: u32 = 3;

impl Paths {
    /// The cycle of roots (`Cycle`) path root `r` is a member of, if any:
    /// the roots before it followed, each looked at once (its providers,
    /// a step each) and remembered, whatever it turns out to be.
    fn cycle(&self, w: Wiring<'_, '_>, r: u32, steps: &mut u64) -> Option<Arc<Cycle>> {
        let facts = w.facts;
        let mut cycles = self.cycles.lock().unwrap_or_else(|e| e.into_inner());
        *steps += 1;
        if let Some(known) = cycles.get(&r) {
            return known.clone();
        }
        // Roots met, each followed by the one box feeding it that has
        // providers of its own.
        let mut seen: Vec<u32> = Vec::new();
        let mut at_of: Map<u32, usize> = new_map();
        let mut x = r;
        let found = loop {
            if let Some(&i) = at_of.get(&x) {
                // Round to a root met: those from it on make a cycle
                // (those before it lead into it, members of none).
                break Some(i);
            }
            if cycles.contains_key(&x) {
                break None;
            }
            let providers = facts.providers_of(x);
            let mut before = NONE;
            let mut member = providers.len() >= 2 && facts.root_of[x as usize] == x;
            for &p in providers {
                *steps += 1;
                let o = w.ordinal[p as usize];
                if o == NONE {
                    member = false;
                    break;
                }
                if !facts.providers_of(o).is_empty() {
                    if before != NONE {
                        member = false;
                        break;
                    }
                    before = o;
                }
            }
            at_of.insert(x, seen.len());
            seen.push(x);
            if !member || before == NONE {
                break None;
            }
            x = before;
        };
        let cycle = found.map(|i| {
            // Met following feeders up: the cycle's order is the reverse.
            let members: Vec<u32> = seen[i..].iter().rev().copied().collect();
            let pos = (members.iter().enumerate()).map(|(t, &o)| (o, t as u32)).collect();
            let min = *members.iter().min().expect("a cycle has members");
            Arc::new(Cycle { members, pos, min })
        });
        for (t, &x) in seen.iter().enumerate() {
            let of = cycle.as_ref().filter(|_| found.is_some_and(|i| t >= i));
            cycles.insert(x, of.cloned());
        }
        cycles.get(&r).cloned().flatten()
    }

    /// The path of `leaf` inside the cycle of roots member `k` belongs to
    /// (`Cycle`), when it is an arc of at least `ARC_AT_LEAST` members
    /// ending at `k`: (the cycle, the position of its top, its members,
    /// the source the leaf comes through, if not wired straight into the
    /// top). The leaf enters where it is wired into a member, or into a
    /// source of one, nothing else upstream of the cycle feeding it; from
    /// there each member passes it on to the next (the member before is
    /// the only route into a member the leaf is not wired into, straight
    /// or through a source). So the path to `k` is the shortest way in,
    /// then round to `k`; when two ways in are as short, None (the walk
    /// decides, by ids, as before). O(receivers) steps, the receivers of
    /// each source looked at too, for a leaf of at most `FEW_RECEIVERS`
    /// receivers, each source of at most `FEW_ENTRIES`.
    pub(super) fn arc(
        &self,
        w: Wiring<'_, '_>,
        leaf: NodeIx,
        k: u32,
        steps: &mut u64,
    ) -> Option<(Arc<Cycle>, u32, u32, Option<u32>)> {
        let (g, facts) = (w.g, w.facts);
        let cycle = self.cycle(w, k, steps)?;
        let receivers = g.receivers.of(leaf);
        if receivers.len() > FEW_RECEIVERS {
            return None;
        }
        let m = cycle.members.len() as u32;
        let at = cycle.pos[&k];
        // The best way in: (edges to `k`, position, source), and whether
        // another is as short.
        let mut best: Option<(u32, u32, Option<u32>)> = None;
        let mut tie = false;
        let mut consider = |edges: u32, p: u32, via: Option<u32>| match best {
            Some((e, bp, bv)) if e == edges => tie |= (bp, bv) != (p, via),
            Some((e, _, _)) if e < edges => {}
            _ => {
                best = Some((edges, p, via));
                tie = false;
            }
        };
        for &q in receivers {
            *steps += 1;
            let o = w.ordinal[q as usize];
            if o == NONE {
                continue;
            }
            if let Some(&p) = cycle.pos.get(&o) {
                consider((at + m - p) % m + 1, p, None);
                continue;
            }
            // A box with providers of its own feeds no member (it is no
            // source, and only sources and members do).
            if !facts.providers_of(o).is_empty() {
                continue;
            }
            let fed = g.receivers.of(q);
            if fed.len() > FEW_ENTRIES {
                return None;
            }
            for &r in fed {
                *steps += 1;
                let ro = w.ordinal[r as usize];
                if let Some(&p) = (ro != NONE).then(|| cycle.pos.get(&ro)).flatten() {
                    consider((at + m - p) % m + 2, p, Some(o));
                }
            }
        }
        let (edges, p, via) = best.filter(|_| !tie)?;
        let len = edges - if via.is_some() { 1 } else { 0 };
        (len >= ARC_AT_LEAST).then_some((cycle, p, len, via))
    }
}

#[cfg(test)]
mod tests {
    use super::super::hub_tests::{edge, node, total};
    use crate::engine::check_text;
    use crate::graph::NodeIx;
    use crate::{Budget, Config};

    /// Family 55 (`cycle-far`) at `n`, its box ids numbered from `n - 1`
    /// down when `reversed` (so ordinals fall the other way round the
    /// cycle): boxes C_i -> C_{i+1} round, C_i fed by a box S_i holding U_i
    /// "U i"; agent k fed by C_k and, through Q_k, by a twin u_i "u i",
    /// i = k + n / 2 mod n.
    fn cycle_far(n: usize, reversed: bool) -> String {
        let id = |i: usize| if reversed { n - 1 - i } else { i };
        let (mut nodes, mut edges) = (Vec::new(), Vec::new());
        for i in 0..n {
            let (c, s, u) = (
                format!("C{:04}", id(i)),
                format!("S{:04}", id(i)),
                format!("U{:04}", id(i)),
            );
            nodes.extend([
                node(&c, "toolbox", &c),
                node(&s, "toolbox", &s),
                node(&u, "tool", &format!("U {i}")),
            ]);
            edges.extend([
                edge(&c, &format!("C{:04}", id((i + 1) % n))),
                edge(&s, &c),
                edge(&u, &s),
            ]);
        }
        for k in 0..n {
            let i = (k + n / 2) % n;
            let (a, q, u) = (
                format!("a{:04}", id(k)),
                format!("Q{:04}", id(k)),
                format!("u{:04}", id(i)),
            );
            nodes.extend([
                node(&a, "agent", &a),
                node(&q, "toolbox", &q),
                node(&u, "tool", &format!("u {i}")),
            ]);
            edges.extend([edge(&format!("C{:04}", id(k)), &a), edge(&q, &a), edge(&u, &q)]);
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    /// The work of reading every violation's tools' paths as the formats
    /// do (length, first 32 and last 32 ids); each U_i's path checked.
    fn read_cycle_far(n: usize, reversed: bool) -> u64 {
        let report = check_text(cycle_far(n, reversed).as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        let before = total(&collisions.work());
        for v in 0..collisions.len() {
            for tool in collisions.get(v).expect("a violation").tools() {
                let len = tool.path_len();
                let (head, tail) = (tool.path_ids(0, 32), tool.path_ids(len.saturating_sub(32), len));
                if !tool.id().starts_with('U') {
                    continue;
                }
                // U_i, S_i, C_i .. C_k round the cycle, a_k: n / 2 + 1 boxes.
                assert_eq!(len, n / 2 + 4, "{}", tool.id());
                assert_eq!(head[1].replace('S', "U"), tool.id());
                assert_eq!(head[2].replace('C', "U"), tool.id());
                assert!(tail[tail.len() - 1].starts_with('a'));
            }
        }
        total(&collisions.work()) - before
    }

    #[test]
    fn cmp9_paths_round_a_cycle_of_roots_cost_their_ends_not_their_length() {
        for reversed in [false, true] {
            let (once, twice) = (read_cycle_far(200, reversed), read_cycle_far(400, reversed));
            crate::work::assert_at_most_doubles(once, twice, "reading paths half round a cycle: ");
        }
    }

    #[test]
    fn cmp9_an_arc_of_a_cycle_of_roots_holds_its_members_and_reads_as_the_walk() {
        // Every box asked about every path (`contains`, as renames ask),
        // against the path read whole, and the path read whole against its
        // stretches read one position at a time from the far end.
        for reversed in [false, true] {
            let text = cycle_far(40, reversed);
            let report = check_text(text.as_bytes(), &Config::default(), Budget::full()).unwrap();
            let collisions = &report.collisions;
            let g = &collisions.graph;
            let boxes: Vec<NodeIx> = (0..g.node_count() as NodeIx).filter(|&n| g.is_passthrough(n)).collect();
            for v in (0..collisions.len()).rev() {
                for tool in collisions.get(v).expect("a violation").tools() {
                    let len = tool.path_len();
                    let one_by_one: Vec<&str> = (0..len).rev().flat_map(|p| tool.path_ids(p, p + 1)).collect();
                    let path = tool.path_nodes();
                    let ids: Vec<&str> = path.iter().map(|&n| g.id(n)).collect();
                    assert_eq!(one_by_one.into_iter().rev().collect::<Vec<_>>(), ids);
                    for &b in &boxes {
                        assert_eq!(tool.path_contains(b), path.contains(&b), "{} on {:?}", g.id(b), ids);
                    }
                }
            }
        }
    }
}
