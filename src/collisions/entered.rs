//! Boxes no walk enters: ties that are not twins (CMP-9, SEMANTICS 6).
//!
//! Twins (`twins`) are told by their own lists: the same boxes feed them,
//! they feed the same nodes. A tie can be wider than a pair of lists. Give
//! every box a twin, then split every box in two in series (`b -> b~`, `b~`
//! feeding all `b` fed): `b~` and its twin's `~` feed the same nodes, but
//! are fed by different boxes; `b` and its twin are fed alike, but feed
//! different boxes. Neither pair is twins, yet each half is as near every
//! consumer as the other, and the walk never steps into the second copy.
//!
//! Two boxes are *alike* here when they feed alike nodes: the same
//! consumers, and boxes alike in turn. Alike boxes are exactly as near
//! every consumer (a shortest way from one is matched step by step from the
//! other). The walk a path is steps, at each node, to the receiver nearest
//! the consumer and the smallest id among equals; so from any node it never
//! steps into a receiver when an alike receiver of a smaller id is there
//! too. A box is *entered* when a final leaf or an entered box feeds it and
//! it is, among that node's receivers alike with it, the one of smallest
//! id. A box that is not entered is on no path: like a vanished twin, it
//! leaves the path facts and its edges are cut, and nothing a check reports
//! changes (no class is made differently, no walk from an entered node
//! meets anything but entered nodes, so no distance and no choice the walk
//! makes changes).
//!
//! Alike is found from below: every box alone at first, then boxes whose
//! receivers are of the same classes are joined, again and again as joins
//! relabel the receivers of other boxes. Each join is sound whenever it is
//! made (boxes whose receivers are pairwise alike are alike), so stopping
//! early only finds fewer ties. This is the least such partition, not the
//! coarsest: two cycles alike only by going round each other are not
//! joined (no shape needs them; they are not found).
//!
//! Cost: the graph twins left, read once with a fingerprint per box (a sum
//! of mixed class numbers, each once); when no two boxes share one, no
//! box joins and nothing more is done, O(N + E). A join relabels the
//! smaller class, and the boxes feeding a relabeled box are fingerprinted
//! again, each once per round; boxes whose fingerprints meet have their
//! classes' lists sorted and compared. All of it stops at a budget of
//! `BUDGET_PER_STEP` times the first read: O(N + E) whatever the shape,
//! and past the budget the classes found so far are used. Marking the
//! entered boxes sorts each entered node's receivers once, O(E log E).

use crate::graph::{NodeIx, ToolGraph};
use crate::maps::{new_map, Map};

use super::flow::Finals;
use super::twins::{mix, Twins};

/// How many times the first read of the graph the joining may cost.
const BUDGET_PER_STEP: u64 = 8;

/// The graph paths read once twins are cut: which edges are left.
struct Cut<'a, 'g> {
    g: &'a ToolGraph<'g>,
    finals: &'a Finals,
    twins: &'a Twins,
}

impl Cut<'_, '_> {
    /// Whether `v` is a relevant box twins left.
    fn live_box(&self, v: NodeIx) -> bool {
        self.finals.is_relevant_box(self.g, v) && !self.twins.vanished[v as usize]
    }

    /// Whether the edge from live box `b` into `r` is left, and `r` is a
    /// consumer or a live box.
    fn onward(&self, b: NodeIx, r: NodeIx) -> bool {
        let into_box = self.g.is_passthrough(r);
        (!into_box || self.live_box(r)) && !self.twins.cuts_near(b, r, into_box)
    }
}

/// Classes of alike nodes, found from below: `label[v]` is the class of
/// `v`, a node of it; `members` lists the classes of two or more.
struct Alike {
    label: Vec<NodeIx>,
    members: Map<NodeIx, Vec<NodeIx>>,
}

impl Alike {
    /// Joins the classes of `x` and `y`, relabeling the smaller; the
    /// relabeled nodes are pushed onto `relabeled`.
    fn join(&mut self, x: NodeIx, y: NodeIx, relabeled: &mut Vec<NodeIx>) {
        let (lx, ly) = (self.label[x as usize], self.label[y as usize]);
        let size = |l: NodeIx, members: &Map<NodeIx, Vec<NodeIx>>| members.get(&l).map_or(1, Vec::len);
        let (big, small) = if size(lx, &self.members) >= size(ly, &self.members) {
            (lx, ly)
        } else {
            (ly, lx)
        };
        let moved = self.members.remove(&small).unwrap_or_else(|| vec![small]);
        for &m in &moved {
            self.label[m as usize] = big;
        }
        relabeled.extend_from_slice(&moved);
        self.members.entry(big).or_insert_with(|| vec![big]).extend(moved);
    }
}

/// The relevant boxes twins left that no walk enters (see the module docs),
/// sorted; empty when no two boxes are alike. `steps` counts the edges and
/// list entries looked at.
pub(crate) fn unentered(g: &ToolGraph<'_>, finals: &Finals, twins: &Twins, steps: &mut u64) -> Vec<NodeIx> {
    let n = g.node_count();
    let cut = Cut { g, finals, twins };
    let boxes: Vec<NodeIx> = (0..n as NodeIx).filter(|&b| cut.live_box(b)).collect();
    let mut alike = Alike {
        label: (0..n as NodeIx).collect(),
        members: new_map(),
    };
    // Per box, its fingerprint when last taken; per class, the visit that
    // last counted it (each class once in a fingerprint).
    let mut print = vec![0u64; n];
    let mut counted = vec![u32::MAX; n];
    let mut visit = 0u32;
    // Per fingerprint, the box last given it, and that box's classes once
    // sorted: a box of many receivers that many boxes of few meet is
    // sorted once, not once each. Lists sorted before a relabeling hold
    // a class no more, so they meet no list sorted since: a join missed.
    let mut by_print: Map<u64, (NodeIx, Option<Vec<NodeIx>>)> = new_map();
    let budget = BUDGET_PER_STEP * boxes.iter().map(|&b| 1 + g.receivers.of(b).len() as u64).sum::<u64>();
    let mut spent = 0u64;
    let mut dirty = boxes.clone();
    let mut relabeled: Vec<NodeIx> = Vec::new();
    // The sorted classes of `b`'s receivers left, each once.
    let classes_of = |b: NodeIx, label: &[NodeIx], spent: &mut u64| {
        let list = g.receivers.of(b);
        let mut classes: Vec<NodeIx> = (list.iter())
            .filter(|&&r| cut.onward(b, r))
            .map(|&r| label[r as usize])
            .collect();
        classes.sort_unstable();
        classes.dedup();
        *spent += 1 + list.len() as u64;
        classes
    };
    'rounds: while !dirty.is_empty() {
        for &b in &dirty {
            if spent > budget {
                break 'rounds;
            }
            let list = g.receivers.of(b);
            spent += 1 + list.len() as u64;
            visit = visit.wrapping_add(1);
            let mut h = 0u64;
            for &r in list {
                let l = alike.label[r as usize];
                if cut.onward(b, r) && counted[l as usize] != visit {
                    counted[l as usize] = visit;
                    h = h.wrapping_add(mix(l));
                }
            }
            print[b as usize] = h;
            let (x, x_classes) = by_print.entry(h).or_insert((b, None));
            let x = *x;
            if x == b || alike.label[x as usize] == alike.label[b as usize] {
                continue;
            }
            if print[x as usize] != h {
                // Fingerprinted before its receivers were relabeled: this
                // box takes its place.
                by_print.insert(h, (b, None));
                continue;
            }
            let x_classes = x_classes.get_or_insert_with(|| classes_of(x, &alike.label, &mut spent));
            if *x_classes == classes_of(b, &alike.label, &mut spent) {
                alike.join(x, b, &mut relabeled);
            }
        }
        // Next, the boxes feeding a relabeled box, each once, in order.
        visit = visit.wrapping_add(1);
        dirty.clear();
        for &m in &relabeled {
            let providers = g.providers.of(m);
            spent += providers.len() as u64;
            for &p in providers {
                if cut.live_box(p) && counted[p as usize] != visit && cut.onward(p, m) {
                    counted[p as usize] = visit;
                    dirty.push(p);
                }
            }
        }
        relabeled.clear();
        dirty.sort_unstable();
    }
    *steps += spent;
    if alike.members.is_empty() {
        return Vec::new();
    }
    entered_marks(&cut, &alike.label, steps)
        .into_iter()
        .zip(0..)
        .filter(|&(entered, b)| !entered && cut.live_box(b) && !twins.gains[b as usize])
        .map(|(_, b)| b)
        .collect()
}

/// Per node, whether the walk may step into it: a live box that a final
/// leaf or an entered box feeds and that is, among that node's live
/// receivers of its class, the one of smallest id. A moved leaf feeds its
/// kept twin.
fn entered_marks(cut: &Cut<'_, '_>, label: &[NodeIx], steps: &mut u64) -> Vec<bool> {
    let g = cut.g;
    let n = g.node_count();
    let mut entered = vec![false; n];
    let mut stack: Vec<NodeIx> = Vec::new();
    let mut candidates: Vec<NodeIx> = Vec::new();
    // Enters the first by id of each class among `candidates`.
    let enter = |candidates: &mut Vec<NodeIx>, entered: &mut [bool], stack: &mut Vec<NodeIx>, steps: &mut u64| {
        *steps += candidates.len() as u64;
        candidates.sort_unstable_by(|&x, &y| (label[x as usize].cmp(&label[y as usize])).then(g.id(x).cmp(g.id(y))));
        for same in candidates.chunk_by(|&x, &y| label[x as usize] == label[y as usize]) {
            let first = same[0];
            if !entered[first as usize] {
                entered[first as usize] = true;
                stack.push(first);
            }
        }
        candidates.clear();
    };
    for leaf in (0..n as NodeIx).filter(|&v| cut.finals.is_final_leaf(v)) {
        let receivers = g.receivers.of(leaf);
        *steps += receivers.len() as u64;
        candidates.extend(receivers.iter().copied().filter(|&r| cut.live_box(r)));
        if let Some(&(_, kept, _)) =
            (cut.twins.moved.binary_search_by_key(&leaf, |m| m.0).ok()).map(|at| &cut.twins.moved[at])
        {
            candidates.push(kept);
        }
        enter(&mut candidates, &mut entered, &mut stack, steps);
    }
    while let Some(b) = stack.pop() {
        let receivers = g.receivers.of(b);
        *steps += receivers.len() as u64;
        candidates.extend((receivers.iter().copied()).filter(|&r| g.is_passthrough(r) && cut.onward(b, r)));
        enter(&mut candidates, &mut entered, &mut stack, steps);
    }
    entered
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::paths::hub_tests::{edge, node, total};
    use crate::engine::check_text;
    use crate::report::Report;
    use crate::{Budget, Config};

    /// A workflow as boxes, the other nodes (written whole) and edges, to
    /// be twinned and split as the session 35 attack's `para+split` did.
    struct Shape {
        boxes: Vec<String>,
        others: Vec<String>,
        edges: Vec<(String, String)>,
    }

    impl Shape {
        /// Every box `b` given a twin `b^` fed by what feeds `b` (and its
        /// twin), feeding what `b` feeds (and its twin); tools wired into
        /// both.
        fn twinned(self) -> Shape {
            let is_box: BTreeSet<String> = self.boxes.iter().cloned().collect();
            let both = |v: &String| {
                let mut copies = vec![v.clone()];
                if is_box.contains(v) {
                    copies.push(format!("{v}^"));
                }
                copies
            };
            let edges = (self.edges.iter())
                .flat_map(|(p, r)| {
                    both(p)
                        .into_iter()
                        .flat_map(move |p| both(r).into_iter().map(move |r| (p.clone(), r)))
                })
                .collect();
            let boxes = self.boxes.iter().flat_map(&both).collect();
            Shape {
                boxes,
                others: self.others,
                edges,
            }
        }

        /// Every box `b` split in two in series: `b -> b~`, `b~` feeding
        /// all `b` fed.
        fn split(self) -> Shape {
            let is_box: BTreeSet<String> = self.boxes.iter().cloned().collect();
            let mut edges: Vec<(String, String)> = (self.edges.into_iter())
                .map(|(p, r)| {
                    if is_box.contains(&p) {
                        (format!("{p}~"), r)
                    } else {
                        (p, r)
                    }
                })
                .collect();
            edges.extend(self.boxes.iter().map(|b| (b.clone(), format!("{b}~"))));
            let boxes = self.boxes.iter().flat_map(|b| [b.clone(), format!("{b}~")]).collect();
            Shape {
                boxes,
                others: self.others,
                edges,
            }
        }

        fn text(&self) -> String {
            let nodes = (self.boxes.iter().map(|b| node(b, "toolbox", b))).chain(self.others.iter().cloned());
            let edges = self.edges.iter().map(|(p, r)| edge(p, r));
            format!(
                r#"{{"nodes": [{}], "edges": [{}]}}"#,
                nodes.collect::<Vec<_>>().join(","),
                edges.collect::<Vec<_>>().join(",")
            )
        }
    }

    /// A cycle of `n` boxes C_i, each fed by a box S_i holding tool U_i
    /// ("U i"); agent a_k fed by C_k and by tool u_k ("u j", j = k + n / 2
    /// mod n) straight: a clash a violation, its path half round the cycle.
    fn cycle(n: usize) -> Shape {
        let (mut boxes, mut others, mut edges) = (Vec::new(), Vec::new(), Vec::new());
        let mut wire = |p: String, r: String| edges.push((p, r));
        for i in 0..n {
            let (c, s, a) = (format!("C{i:04}"), format!("S{i:04}"), format!("a{i:04}"));
            let j = (i + n / 2) % n;
            others.extend([
                node(&format!("U{i:04}"), "tool", &format!("U {i}")),
                node(&format!("u{i:04}"), "tool", &format!("u {j}")),
                node(&a, "agent", &a),
            ]);
            wire(c.clone(), format!("C{:04}", (i + 1) % n));
            wire(s.clone(), c.clone());
            wire(format!("U{i:04}"), s.clone());
            wire(c.clone(), a.clone());
            wire(format!("u{i:04}"), a);
            boxes.extend([c, s]);
        }
        Shape { boxes, others, edges }
    }

    /// Every violation's tools' paths, by ids, in order.
    fn paths(report: &Report) -> Vec<Vec<Vec<String>>> {
        let collisions = &report.collisions;
        (0..collisions.len())
            .map(|v| {
                let tools = collisions.get(v).expect("a violation").tools();
                (tools.iter())
                    .map(|t| t.path_ids(0, t.path_len()).iter().map(|id| id.to_string()).collect())
                    .collect()
            })
            .collect()
    }

    fn check(text: &str) -> Report {
        check_text(text.as_bytes(), &Config::default(), Budget::full()).unwrap()
    }

    #[test]
    fn cmp9_paths_a_cycle_twinned_then_split_reads_as_the_cycle_split_its_twins_cut() {
        // b and b^ are fed alike but feed b~ and b^~; those feed alike but
        // are fed by b and b^: no two are twins, yet each half is alike its
        // twin's, and every walk takes the one of smaller id.
        let report = check(&cycle(8).twinned().split().text());
        assert_eq!(paths(&report), paths(&check(&cycle(8).split().text())));
        let g = &report.collisions.graph;
        let cut: Vec<&str> = (0..g.node_count() as u32)
            .filter(|&v| report.collisions.moved.unentered(v))
            .map(|v| g.id(v))
            .collect();
        assert_eq!(cut.len(), 32, "every twin and its half: {cut:?}");
        assert!(cut.iter().all(|id| id.contains('^')), "{cut:?}");
    }

    #[test]
    fn cmp9_paths_a_cycle_twinned_then_split_costs_what_the_cycle_does() {
        // Before session 37: 3.9x the work for twice the cycle, 875 million
        // steps at 1,000 boxes of family 56 so made (2 MB), every path read
        // off trees of roots that were ties no structure took as one.
        let work = |n: usize| {
            let report = check(&cycle(n).twinned().split().text());
            let collisions = &report.collisions;
            for v in 0..collisions.len() {
                for tool in collisions.get(v).expect("a violation").tools() {
                    let len = tool.path_len();
                    assert_eq!(tool.path_ids(len - 1, len).len(), 1);
                }
            }
            total(&collisions.work())
        };
        crate::work::assert_at_most_doubles(work(200), work(400), "a cycle twinned then split: ");
    }

    #[test]
    fn cmp9_paths_a_box_no_walk_enters_stays_when_a_box_it_feeds_would_carry_what_nothing_brings() {
        // t is wired into P and Q, alike (P into X, Q into Y, both into a
        // alone) and P first by id: no walk enters Q. But y enters Y, whose
        // class carries t through Q: cut, Q would leave Y carrying t with
        // no provider to bring it, and t's path read as t, Y, a.
        let mut nodes: Vec<String> = ["P", "Q", "X", "Y"].iter().map(|b| node(b, "toolbox", b)).collect();
        nodes.extend([
            node("a", "agent", "a"),
            node("t", "tool", "Key"),
            node("y", "tool", "KEY"),
        ]);
        let edges: Vec<String> = [
            ("t", "P"),
            ("t", "Q"),
            ("P", "X"),
            ("Q", "Y"),
            ("X", "a"),
            ("Y", "a"),
            ("y", "Y"),
        ]
        .iter()
        .map(|(p, r)| edge(p, r))
        .collect();
        let text = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let report = check(&text);
        assert_eq!(
            paths(&report),
            [[["t", "P", "X", "a"].to_vec(), ["y", "Y", "a"].to_vec()]]
        );
        let g = &report.collisions.graph;
        assert!((0..g.node_count() as u32).all(|v| !report.collisions.moved.unentered(v)));
    }
}
