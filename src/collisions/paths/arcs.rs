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

/// A ring of path roots each fed by the two beside it and otherwise only by
/// sources, boxes with no provider box (family 61, `two-way-cycle`): a
/// cycle of boxes fed both ways round. As in a `Cycle`, a tool reaches the
/// ring only where it is wired into a member or a source of one, and the
/// ring is its unit of boxes whole; inside, a route to a member runs round
/// one way or the other. The ring is held as two `Cycle`s, its members one
/// way round and the other, so a path inside it is an arc of one of them,
/// read by position as any arc is.
#[derive(Debug)]
pub(super) struct Ring {
    /// The members, each fed by the one before (and by the one after).
    pub(super) forward: Arc<Cycle>,
    /// The members the other way round (`forward` reversed).
    pub(super) backward: Arc<Cycle>,
}

/// The two members of a ring beside member `x`, if `x` can be one: a path
/// root whose relevant providers are all sources but two, those two with
/// providers of their own. Its providers are looked at, a step each.
fn beside(w: Wiring<'_, '_>, x: u32, steps: &mut u64) -> Option<(u32, u32)> {
    let facts = w.facts;
    if facts.root_of[x as usize] != x {
        return None;
    }
    let mut two = [NONE; 2];
    let mut found = 0;
    for &p in facts.providers_of(x) {
        *steps += 1;
        let o = w.ordinal[p as usize];
        if o == NONE {
            return None;
        }
        if !facts.providers_of(o).is_empty() {
            if found == 2 {
                return None;
            }
            two[found] = o;
            found += 1;
        }
    }
    (found == 2).then_some((two[0], two[1]))
}

impl Paths {
    /// The ring of roots (`Ring`) path root `r` is a member of, if any:
    /// from `r` to one member beside it, then on to the one beside that
    /// the walk did not come from, until back at `r`, each box met
    /// checked to have the one before beside it (so every box is fed by
    /// both its neighbours, and the ring is fed both ways round). Each
    /// root is looked at once (its providers, a step each) and
    /// remembered, whatever it turns out to be: a walk that fails leaves
    /// every box it met outside any ring (had one been a member, the
    /// walk, which can only follow members beside each other, would have
    /// gone round its ring), so those are remembered as none.
    pub(super) fn ring(&self, w: Wiring<'_, '_>, r: u32, steps: &mut u64) -> Option<Arc<Ring>> {
        let mut rings = self.rings.lock().unwrap_or_else(|e| e.into_inner());
        *steps += 1;
        if let Some(known) = rings.get(&r) {
            return known.clone();
        }
        let mut members = vec![r];
        let closed = (|| {
            let (first, last) = beside(w, r, steps)?;
            let (mut before, mut x) = (r, first);
            while x != r {
                // A box already known is in no ring: were it in one, `r`
                // beside it would be too, and known.
                if rings.contains_key(&x) || members.len() > w.facts.nodes.len() {
                    return None;
                }
                let (a, b) = beside(w, x, steps)?;
                let next = match (a == before, b == before) {
                    (true, _) => b,
                    (_, true) => a,
                    _ => return None,
                };
                members.push(x);
                (before, x) = (x, next);
            }
            // Back at `r`: the box that led back must be the other one
            // feeding `r`, so that `r` too is fed by both beside it. (It
            // is fed by `r`, but may not feed it: C1 -> C2 -> C3 -> C2,
            // C3 fed by C1 too, leads from C1 back to C1, yet C3 does not
            // feed C1, and the path from C3 to C1 goes round by C2.)
            (before == last).then_some(())
        })();
        let ring = closed.filter(|_| members.len() >= 3).map(|_| {
            let cycle = |members: Vec<u32>| {
                let pos = (members.iter().enumerate()).map(|(t, &o)| (o, t as u32)).collect();
                let min = *members.iter().min().expect("a ring has members");
                Arc::new(Cycle { members, pos, min })
            };
            let backward: Vec<u32> = members.iter().rev().copied().collect();
            Arc::new(Ring {
                forward: cycle(members.clone()),
                backward: cycle(backward),
            })
        });
        for &x in &members {
            rings.insert(x, ring.clone());
        }
        ring
    }

    /// The path of `leaf` inside the ring of roots member `k` belongs to
    /// (`Ring`), when it is an arc of at least `ARC_AT_LEAST` members
    /// ending at `k`: (the ring one way round, the position of the arc's
    /// top in it, its members, the source the leaf comes through, if not
    /// wired straight into the top). The walk's own choices (SEMANTICS 6:
    /// at each step the receiver nearest the consumer, among equals the
    /// smallest id), made where they are made: every route from the ring
    /// to the consumer passes `k`, so a member's distance is its distance
    /// round the ring to `k`, the shorter way, and a source's one more
    /// than its nearest member's. The leaf steps to its nearest receiver
    /// (a member, or a source), a source to its nearest member; from a
    /// member the walk goes round the shorter way, and when both ways are
    /// as long (half round an even ring) to the smaller id of the two
    /// beside it, after which one way is shorter. O(receivers) steps, the
    /// receivers of each source looked at too, for a leaf of at most
    /// `FEW_RECEIVERS` receivers, each source of at most `FEW_ENTRIES`;
    /// None past those (the search and trees decide, as before).
    pub(super) fn ring_arc(
        &self,
        w: Wiring<'_, '_>,
        leaf: NodeIx,
        k: u32,
        steps: &mut u64,
    ) -> Option<(Arc<Cycle>, u32, u32, Option<u32>)> {
        let (g, facts) = (w.g, w.facts);
        let ring = self.ring(w, k, steps)?;
        let receivers = g.receivers.of(leaf);
        if receivers.len() > FEW_RECEIVERS {
            return None;
        }
        let forward = &ring.forward;
        let m = forward.members.len() as u32;
        let at = forward.pos[&k];
        // Edges from the member at position `p` to `k`, the shorter way.
        let to_k = |p: u32| {
            let ahead = (at + m - p) % m;
            ahead.min(m - ahead)
        };
        let id = |o: u32| g.id(facts.nodes[o as usize]);
        // The member a source steps to: its nearest, the smallest id among
        // equals, as (edges to `k`, position); None if it feeds none.
        let nearest_fed = |s: NodeIx, steps: &mut u64| -> Option<Option<(u32, u32)>> {
            let fed = g.receivers.of(s);
            if fed.len() > FEW_ENTRIES {
                return None;
            }
            let mut best: Option<(u32, u32)> = None;
            for &r in fed {
                *steps += 1;
                let ro = w.ordinal[r as usize];
                let Some(&p) = (ro != NONE).then(|| forward.pos.get(&ro)).flatten() else {
                    continue;
                };
                let better = best.is_none_or(|(d, bp)| {
                    (to_k(p), id(forward.members[p as usize])) < (d, id(forward.members[bp as usize]))
                });
                if better {
                    best = Some((to_k(p), p));
                }
            }
            Some(best)
        };
        // The leaf's step: (distance to `k`, the receiver's ordinal, the
        // member the path enters at, the source it comes through).
        let mut best: Option<(u32, u32, u32, Option<u32>)> = None;
        for &q in receivers {
            *steps += 1;
            let o = w.ordinal[q as usize];
            if o == NONE {
                continue;
            }
            let step = if let Some(&p) = forward.pos.get(&o) {
                (to_k(p), o, p, None)
            } else if facts.providers_of(o).is_empty() {
                // A box with providers of its own feeds no member (it is
                // no source, and only sources and members do).
                match nearest_fed(q, steps)? {
                    Some((d, p)) => (d + 1, o, p, Some(o)),
                    None => continue,
                }
            } else {
                continue;
            };
            if best.is_none_or(|(d, bo, _, _)| (step.0, id(step.1)) < (d, id(bo))) {
                best = Some(step);
            }
        }
        let (_, _, p, via) = best?;
        // Round from `p`: the way it is shorter, or at a tie the way whose
        // first member has the smaller id.
        let ahead = (at + m - p) % m;
        let behind = m - ahead;
        let forwards = match ahead.cmp(&behind) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => {
                *steps += 1;
                let (next, previous) = ((p + 1) % m, (p + m - 1) % m);
                id(forward.members[next as usize]) < id(forward.members[previous as usize])
            }
        };
        let len = ahead.min(behind) + 1;
        if len < ARC_AT_LEAST {
            return None;
        }
        Some(if forwards {
            (Arc::clone(&ring.forward), p, len, via)
        } else {
            (Arc::clone(&ring.backward), m - 1 - p, len, via)
        })
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
