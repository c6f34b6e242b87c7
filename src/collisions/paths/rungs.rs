//! Rungs (see the cost model of `paths`): a root whose provider boxes all
//! hang below one box passes every tool that reaches that box, and is
//! wired into none of them, on to the same provider, so a run of such
//! roots a tool climbs is found by jumps and laid as one link.

use super::{Paths, Wiring, FEW_RECEIVERS};
use crate::collisions::flow::NONE;
use crate::graph::NodeIx;
use crate::maps::Map;

/// A path root whose provider boxes (two or more) all hang below one box,
/// their common path parent: a *rung*. Every route into the root from
/// above that box passes it, then one of them, all as near the consumer,
/// so a tool that reaches the box and is wired straight into none of them
/// is passed on to the one with the smallest id (`star`), whatever the
/// tool: the tie at a rung is decided alike for every tool passing it
/// (the diamonds of `diamond-ladder`, family 54). Each rung's step is the
/// chain from `up` (the box's path root) down to `star`; rungs whose `up`
/// is a rung again make a forest, with depths, skew-binary jumps and the
/// nodes of the chains above, so that a run of rungs a tool climbs is found
/// and laid in O(log) steps (`Paths::run`), and read only where asked.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rung {
    /// The root above (NONE when the root is not a rung).
    pub(super) up: u32,
    /// The provider the tie goes to, by ordinal (NONE when not a rung).
    pub(super) star: u32,
    /// Rungs from this one up, itself included (0 when not a rung).
    pub(super) depth: u32,
    /// Nodes of the chains of those rungs.
    pub(super) weight: u32,
    /// A rung further up (Myers' skew-binary jump; itself when not a rung).
    pub(super) jump: u32,
}

/// A run is laid only past this many rungs: one rung is passed on as
/// before, as cheaply.
const RUN_AT_LEAST: u32 = 2;

/// The rung of `r` and of every root above it, by the depths in `rungs`:
/// the ancestor of rung `r` at depth `depth` (at most `r`'s), found by
/// jumps in O(log) steps.
pub(super) fn rung_ancestor(rungs: &Map<u32, Rung>, mut r: u32, depth: u32, steps: &mut u64) -> u32 {
    while rungs[&r].depth > depth {
        *steps += 1;
        let at = rungs[&r];
        r = if rungs[&at.jump].depth >= depth { at.jump } else { at.up };
    }
    r
}

/// Whether path root `r` is a rung: its up and its star.
fn rung_of(w: Wiring<'_, '_>, r: u32, steps: &mut u64) -> Option<(u32, u32)> {
    let facts = w.facts;
    let providers = facts.providers_of(r);
    *steps += 1;
    if providers.len() < 2 {
        return None;
    }
    let (mut parent, mut star) = (NONE, providers[0]);
    for &p in providers {
        // Each provider looked at counted: a root that is no rung is
        // mostly told by its first two.
        *steps += 1;
        let o = w.ordinal[p as usize];
        if o == NONE {
            return None;
        }
        let q = facts.parent[o as usize];
        if q == NONE || (parent != NONE && q != parent) {
            return None;
        }
        parent = q;
        if w.g.id(p) < w.g.id(star) {
            star = p;
        }
    }
    let up = facts.root_of[parent as usize];
    // Ordinals follow the units' topological order: a rung's up is above it.
    (up < r).then(|| (up, w.ordinal[star as usize]))
}

impl Paths {
    /// The rung facts of root `r`, made for it and the roots above it that
    /// have none yet (each root once: its providers looked at).
    pub(super) fn rung(&self, w: Wiring<'_, '_>, r: u32, steps: &mut u64) -> Rung {
        let mut rungs = self.rungs.lock().unwrap_or_else(|e| e.into_inner());
        *steps += 1;
        if let Some(&known) = rungs.get(&r) {
            return known;
        }
        let mut pending: Vec<(u32, u32, u32)> = Vec::new();
        let mut at = r;
        let mut above = loop {
            if let Some(&known) = rungs.get(&at) {
                break known;
            }
            match rung_of(w, at, steps) {
                Some((up, star)) => {
                    pending.push((at, up, star));
                    at = up;
                }
                None => {
                    let top = Rung {
                        up: NONE,
                        star: NONE,
                        depth: 0,
                        weight: 0,
                        jump: at,
                    };
                    rungs.insert(at, top);
                    break top;
                }
            }
        };
        while let Some((at, up, star)) = pending.pop() {
            *steps += 1;
            let j = rungs[&above.jump];
            let jj = rungs[&j.jump];
            let rung = Rung {
                up,
                star,
                depth: above.depth + 1,
                weight: above.weight + w.facts.depth[star as usize] + 1,
                jump: if above.depth - j.depth == j.depth - jj.depth {
                    j.jump
                } else {
                    up
                },
            };
            rungs.insert(at, rung);
            above = rung;
        }
        above
    }

    /// The run of rungs `leaf` climbs from path root `r0` (which the leaf
    /// reaches, with no entry of the leaf below it), as its rungs nearest
    /// the consumer and nearest the leaf, when at least `RUN_AT_LEAST`: the
    /// steps from `r0`, `up(r0)`, ... while each root is a rung and the
    /// leaf is wired straight into none of its providers, nor into a node
    /// of the chain its step adds (then it reaches the rung's box, and the
    /// tie goes to the star). Each receiver of the leaf is placed by jumps
    /// in the rung forest, so this costs O(receivers x log rungs) steps,
    /// however many rungs, for a leaf of at most `FEW_RECEIVERS` receivers
    /// (others are passed on root by root, as before).
    pub(super) fn run(&self, w: Wiring<'_, '_>, leaf: NodeIx, r0: u32, steps: &mut u64) -> Option<(u32, u32)> {
        let (g, facts) = (w.g, w.facts);
        let receivers = g.receivers.of(leaf);
        if receivers.len() > FEW_RECEIVERS {
            return None;
        }
        let base = self.rung(w, r0, steps);
        if base.depth < RUN_AT_LEAST {
            return None;
        }
        // Step j (0-based) goes from the rung at depth `base.depth - j`.
        // The leaf reaches each rung it climbs to (the first, r0, as the
        // path does), and a rung's providers only through their box or
        // straight: so a step whose box the leaf does not reach is one
        // whose providers it is wired into, and the leaf's receivers alone
        // tell where the run stops. A receiver stops it at the step whose
        // chain or providers hold it: the step from the rung just below
        // the receiver's root, if the run climbs to that root.
        let rungs = self.rungs.lock().unwrap_or_else(|e| e.into_inner());
        let mut allowed = base.depth;
        for &q in receivers {
            *steps += 1;
            let o = w.ordinal[q as usize];
            if o == NONE {
                continue;
            }
            let Some(&top) = rungs.get(&facts.root_of[o as usize]) else {
                continue;
            };
            if top.depth >= base.depth || base.depth - top.depth > allowed {
                continue;
            }
            let below = rung_ancestor(&rungs, r0, top.depth + 1, steps);
            let rung = rungs[&below];
            if rung.up != facts.root_of[o as usize] {
                continue;
            }
            let parent = facts.parent[rung.star as usize];
            let stops = facts.is_ancestor(o, parent, steps)
                || (facts.parent[o as usize] == parent && facts.providers_of(below).binary_search(&q).is_ok());
            if stops {
                allowed = base.depth - top.depth - 1;
            }
        }
        (allowed >= RUN_AT_LEAST).then(|| (r0, rung_ancestor(&rungs, r0, base.depth - (allowed - 1), steps)))
    }
}

#[cfg(test)]
mod tests {
    //! Paths down a ladder of diamonds, every rung a root two providers
    //! bring every tool above into, as near (family 54, `diamond-ladder`).

    use super::super::hub_tests::{edge, node, total};
    use crate::engine::check_text;
    use crate::{Budget, Config};

    /// Tool t atop boxes B_0..B_n; B_i feeds L_i and R_i (each with a
    /// clashing pair), both feeding B_(i+1); agent k is fed by B_(k+1)
    /// and by t's twin w_k. With `swapped`, L_i holds the pair labelled
    /// R and R_i the one labelled L (the ties broken the other way round
    /// the clashes).
    fn diamond_ladder(n: usize, swapped: bool) -> String {
        let mut nodes = vec![node("t", "tool", "Top tool")];
        let mut edges = vec![edge("t", "B0000")];
        nodes.extend((0..=n).map(|i| node(&format!("B{i:04}"), "toolbox", "B")));
        for i in 0..n {
            let (b, below) = (format!("B{i:04}"), format!("B{:04}", i + 1));
            for (side, upper, lower) in [("L", "L", "l"), ("R", "R", "r")] {
                let (upper, lower) = match (swapped, side) {
                    (true, "L") => ("R", "r"),
                    (true, _) => ("L", "l"),
                    _ => (upper, lower),
                };
                let x = format!("{side}{i:04}");
                nodes.push(node(&x, "toolbox", &x));
                edges.extend([edge(&b, &x), edge(&x, &below)]);
                for (tool, label) in [("x", format!("{upper} {i:04}")), ("y", format!("{lower}-{i:04}"))] {
                    let t = format!("{x}{tool}");
                    nodes.push(node(&t, "tool", &label));
                    edges.push(edge(&t, &x));
                }
            }
        }
        for k in 0..n {
            let (a, w) = (format!("a{k:04}"), format!("w{k:04}"));
            nodes.extend([node(&a, "agent", &a), node(&w, "tool", "top-tool")]);
            edges.extend([edge(&w, &a), edge(&format!("B{:04}", k + 1), &a)]);
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    /// The path the walk takes from `tool` to agent `k`: down the ladder
    /// by the L boxes (the smallest ids at every tie).
    fn expected(tool: &str, k: usize) -> Vec<String> {
        let mut path = vec![tool.to_string()];
        let from = if tool == "t" {
            0
        } else if tool.starts_with('w') {
            return vec![tool.to_string(), format!("a{k:04}")];
        } else {
            let i: usize = tool[1..5].parse().expect("a pair's box number");
            path.push(tool[..5].to_string());
            i + 1
        };
        for i in from..=k {
            path.extend([format!("B{i:04}"), format!("L{i:04}")]);
        }
        path.extend([format!("B{:04}", k + 1), format!("a{k:04}")]);
        path
    }

    /// The work of reading `read` violations spread over the report as
    /// the formats read their tools' paths (length and both ends), each
    /// at a different place in its consumer's list; every path read whole
    /// afterwards is checked against `expected`.
    fn read_ladder(n: usize, swapped: bool, read: u64) -> u64 {
        let report = check_text(
            diamond_ladder(n, swapped).as_bytes(),
            &Config::default(),
            Budget::full(),
        )
        .unwrap();
        let collisions = &report.collisions;
        let count = collisions.len();
        let sample: Vec<u64> = (0..read)
            .map(|i| ((i * count) / read + (i * 7) % n as u64).min(count - 1))
            .collect();
        let before = total(&collisions.work());
        for &i in &sample {
            for tool in collisions.get(i).expect("a violation").tools() {
                let len = tool.path_len();
                tool.path_ids(0, 32.min(len));
                tool.path_ids(len.saturating_sub(32), len);
            }
        }
        let work = total(&collisions.work()) - before;
        for &i in sample.iter().step_by(7) {
            let violation = collisions.get(i).expect("a violation");
            let k: usize = violation.consumer()[1..].parse().expect("an agent's number");
            for tool in violation.tools() {
                let path: Vec<String> = tool.path().into_iter().map(String::from).collect();
                assert_eq!(path, expected(tool.id(), k), "swapped {swapped}");
            }
        }
        work
    }

    #[test]
    fn cmp9_paths_down_a_ladder_of_tied_roots_cost_their_length() {
        // Every rung passes the path on to L_i (both sides carry it, one
        // step below B_i, L the smaller id); past the free passes only the
        // first rung paid rent grows its tree, by at most twice the path's
        // own work, not log(rungs) rungs each by the rest of the climb.
        for swapped in [false, true] {
            let once = read_ladder(150, swapped, 1500);
            let twice = read_ladder(300, swapped, 1500);
            crate::work::assert_at_most_doubles(once, twice, &format!("swapped {swapped}: "));
        }
    }

    /// The work of reading `read` violations evenly spaced in report order
    /// as the formats read their tools' paths (length and both ends): at
    /// most one or two per agent, each tool's path its own climb.
    fn read_ladder_in_order(n: usize, read: u64) -> u64 {
        let report = check_text(diamond_ladder(n, false).as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        let count = collisions.len();
        let before = total(&collisions.work());
        for i in 0..read {
            for tool in collisions.get(i * count / read).expect("a violation").tools() {
                let len = tool.path_len();
                tool.path_ids(0, 32.min(len));
                tool.path_ids(len.saturating_sub(32), len);
            }
        }
        total(&collisions.work()) - before
    }

    #[test]
    fn cmp9_paths_down_a_ladder_of_tied_roots_read_in_report_order_cost_their_number() {
        // Each path climbs its rungs as one run (`Paths::run`): placing the
        // tool's one receiver in the rung forest, O(log rungs), and its two
        // ends read by jumps; before, a step per rung, each agent's paths
        // paying rent to a rung of their own (4x the work for twice the
        // rungs at 4,000, family 54). Twice the rungs, the same reads: the
        // work grows by a log, not by the rungs.
        let once = read_ladder_in_order(300, 1200);
        let twice = read_ladder_in_order(600, 1200);
        crate::work::assert_at_most_doubles(once, twice, "");
        assert!(
            twice * 10 <= once * 13,
            "twice the rungs, the same reads: {twice} steps against {once}"
        );
    }

    #[test]
    fn cmp9_a_run_of_rungs_reads_as_the_rungs_it_stands_for() {
        // Any stretch of a path laid as runs, and whether a box is on it,
        // as the ladder's walk gives them, both ways round the ties.
        for swapped in [false, true] {
            let n = 40;
            let report = check_text(
                diamond_ladder(n, swapped).as_bytes(),
                &Config::default(),
                Budget::full(),
            )
            .unwrap();
            let collisions = &report.collisions;
            let graph = &collisions.graph;
            let boxes: Vec<(crate::graph::NodeIx, String)> = (0..graph.node_count() as crate::graph::NodeIx)
                .filter(|&v| graph.is_passthrough(v))
                .map(|v| (v, graph.id(v).to_string()))
                .collect();
            for i in (0..collisions.len()).step_by(13) {
                let violation = collisions.get(i).expect("a violation");
                let k: usize = violation.consumer()[1..].parse().expect("an agent's number");
                for tool in violation.tools() {
                    let want = expected(tool.id(), k);
                    let len = tool.path_len();
                    assert_eq!(len, want.len(), "swapped {swapped}, violation {i}");
                    for width in [1, 2, 3, 5, 8] {
                        for from in (0..len).step_by(width + 1) {
                            let to = (from + width).min(len);
                            let got: Vec<String> = tool.path_ids(from, to).into_iter().map(String::from).collect();
                            assert_eq!(got, want[from..to], "swapped {swapped}, violation {i}, {from}..{to}");
                        }
                    }
                    for (v, id) in &boxes {
                        assert_eq!(
                            tool.path_contains(*v),
                            want.contains(id),
                            "swapped {swapped}, {id} on {want:?}"
                        );
                    }
                }
            }
        }
    }
}
