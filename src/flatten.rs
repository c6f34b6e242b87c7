//! Flattening tool wiring through passthroughs (CMP-9): one breadth-first
//! walk upstream ([`Reach`]), shared by the check and by `explain`, and the
//! shortest paths it implies, kept as one tree of successor links per walk
//! ([`PathTree`]) rather than copied per tool.
//!
//! Two observations keep the check linear in practice:
//! - a name carried by only one leaf in the whole workflow can never collide,
//!   so only leaves whose name occurs at least twice (candidates) are tracked;
//! - a consumer's view is the union of its direct leaves and of the views of
//!   the passthroughs wired into it ("roots"); each root's view is computed
//!   once, by one walk upstream, and then shared.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use foldhash::fast::RandomState;

use crate::batch::both;
use crate::graph::{NodeIx, ToolGraph};
use crate::names::{normalize_into, normalize_name};

pub type NameIx = u32;
pub const NOT_A_CANDIDATE: NameIx = NameIx::MAX;

pub type Map<K, V> = HashMap<K, V, RandomState>;

pub fn new_map<K, V>() -> Map<K, V> {
    HashMap::with_hasher(RandomState::default())
}

/// The crate's set: `Map`'s hasher, so no set pays for SipHash. Labels come
/// from the input, but foldhash's per-process random seed already keeps an
/// input from being built to collide, as for every `Map`.
pub type Set<T> = HashSet<T, RandomState>;

/// Tool names of the leaves that could collide somewhere.
pub struct CandidateNames {
    pub names: Vec<Box<str>>,
    /// Every tool as (name hash, node), sorted: which names are taken.
    pub by_hash: Vec<(u64, NodeIx)>,
    /// Per node: its name when it is a candidate leaf, else `NOT_A_CANDIDATE`.
    pub of_node: Vec<NameIx>,
}

impl CandidateNames {
    /// Names every node that provides a tool (a non-passthrough source of a
    /// tool edge) and keeps the names shared by two or more such nodes.
    ///
    /// Most names in a large workflow are unique, so names are first only
    /// hashed and sorted by hash, with no allocation; the strings are built
    /// and compared only within groups of equal hashes, so a hash collision
    /// can never make two different names look alike. Each tool of a group
    /// is compared with the group's first name in node order (see
    /// [`runs_named_apart`]). On two threads when `allow_thread` and there
    /// are many tools.
    pub fn find(g: &ToolGraph<'_>, allow_thread: bool) -> CandidateNames {
        let hashed: Vec<(u64, NodeIx)> = (0..g.node_count() as NodeIx)
            .filter(|&n| g.is_tool(n))
            .map(|n| (g.name_hashes[n as usize], n))
            .collect();
        let in_halves = allow_thread && hashed.len() >= IN_HALVES_FROM_TOOLS;
        let hashed = if in_halves {
            sorted_in_halves(hashed)
        } else {
            let mut hashed = hashed;
            hashed.sort_unstable();
            hashed
        };

        // Runs of tools whose names hash alike: each nearly always one
        // shared name, named once from its first tool.
        let runs: Vec<&[(u64, NodeIx)]> = hashed.chunk_by(|a, b| a.0 == b.0).filter(|run| run.len() > 1).collect();
        let firsts: Vec<Box<str>> = runs
            .iter()
            .map(|run| normalize_name(g.label(run[0].1)).into())
            .collect();
        // Until the runs are settled below, `of_node` holds each other
        // tool's run.
        let mut of_node = vec![NOT_A_CANDIDATE; g.node_count()];
        for (at, run) in runs.iter().enumerate() {
            for &(_, n) in &run[1..] {
                of_node[n as usize] = at as NameIx;
            }
        }
        let split = if in_halves { of_node.len() / 2 } else { of_node.len() };
        let (low, high) = both(
            in_halves,
            || runs_named_apart(g, &of_node[..split], 0, &firsts),
            || runs_named_apart(g, &of_node[split..], split, &firsts),
        );
        let mut apart = vec![false; runs.len()];
        low.into_iter().chain(high).for_each(|run| apart[run as usize] = true);

        let mut names: Vec<Box<str>> = Vec::with_capacity(runs.len());
        let mut group: Vec<(String, NodeIx)> = Vec::new();
        for ((run, first), apart) in runs.iter().zip(firsts).zip(apart) {
            if !apart {
                let ix = names.len() as NameIx;
                names.push(first);
                for &(_, n) in *run {
                    of_node[n as usize] = ix;
                }
                continue;
            }
            // Two names with one hash: sorted apart, and only those shared
            // by two tools or more kept.
            group.clear();
            group.extend(run.iter().map(|&(_, n)| (normalize_name(g.label(n)), n)));
            group.sort_unstable();
            for same in group.chunk_by(|a, b| a.0 == b.0) {
                let ix = if same.len() > 1 {
                    names.push(same[0].0.as_str().into());
                    (names.len() - 1) as NameIx
                } else {
                    NOT_A_CANDIDATE
                };
                for &(_, n) in same {
                    of_node[n as usize] = ix;
                }
            }
        }
        CandidateNames {
            names,
            by_hash: hashed,
            of_node,
        }
    }

    pub fn any(&self) -> bool {
        self.of_node.iter().any(|&n| n != NOT_A_CANDIDATE)
    }

    pub fn of(&self, node: NodeIx) -> Option<NameIx> {
        Some(self.of_node[node as usize]).filter(|&n| n != NOT_A_CANDIDATE)
    }

    pub fn name(&self, name: NameIx) -> &str {
        &self.names[name as usize]
    }
}

/// The runs (indexes into `firsts`) holding a tool whose name is not its
/// run's first name: a hash collision. `of_run` is a stretch of nodes,
/// from node `from` on, each with its run or `NOT_A_CANDIDATE`. Tools are
/// named again in node order, which reads their labels in about the order
/// they sit in the input; in hash order each would be a cache miss, and
/// on a workflow of few names shared by many tools that is most of the
/// check.
fn runs_named_apart(g: &ToolGraph<'_>, of_run: &[NameIx], from: usize, firsts: &[Box<str>]) -> Vec<NameIx> {
    let mut name = String::new();
    let mut apart = Vec::new();
    for (n, &run) in (from..).zip(of_run) {
        if run != NOT_A_CANDIDATE {
            normalize_into(g.label(n as NodeIx), &mut name);
            if *name != *firsts[run as usize] {
                apart.push(run);
            }
        }
    }
    apart
}

/// Below this many tools, one thread sorts and confirms their names
/// faster than two can start.
const IN_HALVES_FROM_TOOLS: usize = 1 << 16;

/// `hashed` sorted, on two threads: split first by the top bit of the
/// hash, every hash of the lower part is below every hash of the upper
/// one, so each part sorted on a thread of its own sorts the whole, with
/// no merge and no second buffer. Name hashes are uniform, so the parts
/// are near equal. The tools of a large workflow (a million on `large`)
/// are sorted so while the other core would otherwise wait.
fn sorted_in_halves(mut hashed: Vec<(u64, NodeIx)>) -> Vec<(u64, NodeIx)> {
    let (mut low, mut high) = (0, hashed.len());
    while low < high {
        if hashed[low].0 >> 63 == 0 {
            low += 1;
        } else {
            high -= 1;
            hashed.swap(low, high);
        }
    }
    let (lower, upper) = hashed.split_at_mut(low);
    both(true, || lower.sort_unstable(), || upper.sort_unstable());
    hashed
}

/// Everything upstream of one node over tool edges through passthroughs
/// (SEMANTICS 4): the one breadth-first walk both the check and `explain`
/// make.
pub struct Reach {
    /// The node walked from. It is never a step on a path, even when it is
    /// a passthrough inside a cycle.
    pub start: NodeIx,
    /// The passthroughs upstream of `start` (not `start` itself), in the
    /// order the walk met them, which is by hops.
    pub order: Vec<NodeIx>,
    /// `hops[i]`: tool edges from `order[i]` to `start`.
    pub hops: Vec<u32>,
    /// Where each passthrough is in `order`.
    pub slot: Map<NodeIx, u32>,
    /// The non-passthrough providers of `start` and of every passthrough
    /// upstream: the leaves of `start`'s flattened set, each once, by number.
    pub leaves: Vec<NodeIx>,
}

impl Reach {
    /// Walks upstream from `start`; cycles end the walk because each
    /// passthrough is entered once.
    pub fn from(g: &ToolGraph<'_>, start: NodeIx) -> Reach {
        let mut reach = Reach {
            start,
            order: Vec::new(),
            hops: Vec::new(),
            slot: new_map(),
            leaves: Vec::new(),
        };
        let mut head = 0;
        let mut current = (start, 0);
        loop {
            let (node, distance) = current;
            for &provider in g.providers.of(node) {
                if !g.is_passthrough(provider) {
                    reach.leaves.push(provider);
                } else if provider != start && !reach.slot.contains_key(&provider) {
                    reach.slot.insert(provider, reach.order.len() as u32);
                    reach.order.push(provider);
                    reach.hops.push(distance + 1);
                }
            }
            let Some(&next) = reach.order.get(head) else { break };
            current = (next, reach.hops[head]);
            head += 1;
        }
        reach.leaves.sort_unstable();
        reach.leaves.dedup();
        reach
    }
}

/// Jump links go to the nearest ancestor whose hops are a multiple of this,
/// so any node of a path is found in `depth / JUMP + JUMP` steps.
const JUMP: u32 = 64;
const NONE: u32 = u32::MAX;

/// The shortest paths of a [`Reach`] as successor links: from each
/// passthrough, the next step towards the start. A path is a walk along
/// them, so every consumer that shares a toolbox shares its paths, however
/// long.
///
/// Among several shortest next steps, the one with the smallest id is taken
/// (SEMANTICS 6), which makes paths independent of hashing and edge order.
///
/// The links are made when a path through the tree is first read: most
/// toolboxes of a large workflow are never on a path a report shows.
pub struct PathTree {
    pub reach: Reach,
    links: OnceLock<Links>,
}

struct Links {
    /// `next[i]`: the slot of the step after `order[i]`, or NONE when the
    /// step after it is the start.
    next: Vec<u32>,
    /// `jump[i]`: the slot of the nearest node after `order[i]` whose hops
    /// are a multiple of JUMP, or NONE.
    jump: Vec<u32>,
}

impl PathTree {
    pub fn new(reach: Reach) -> PathTree {
        PathTree {
            reach,
            links: OnceLock::new(),
        }
    }

    fn links(&self, g: &ToolGraph<'_>) -> &Links {
        self.links.get_or_init(|| {
            let reach = &self.reach;
            let mut next = vec![NONE; reach.order.len()];
            let mut jump = vec![NONE; reach.order.len()];
            // In walk order, so a node's successor (one hop closer) is done first.
            for (i, &node) in reach.order.iter().enumerate() {
                if reach.hops[i] > 1 {
                    next[i] = reach.best_step(g, node).unwrap_or(NONE);
                }
                let after = next[i];
                if after != NONE {
                    jump[i] = if reach.hops[after as usize] % JUMP == 0 {
                        after
                    } else {
                        jump[after as usize]
                    };
                }
            }
            Links { next, jump }
        })
    }

    /// The shortest path from `leaf` to `consumer`: a node the start (a
    /// toolbox) is wired straight into, or the start itself, or (when the
    /// start is a consumer) any consumer wired exactly as the start is:
    /// `[leaf, P1, ..., Pk, (start box,) consumer]`; None when the leaf does
    /// not get there through this tree. Cheap to make: the nodes are found
    /// when they are read.
    pub fn path(&self, g: &ToolGraph<'_>, leaf: NodeIx, consumer: NodeIx) -> Option<TreePath> {
        let start = self.reach.start;
        let via_start = start != consumer && g.is_passthrough(start);
        if wired_directly(g, leaf, consumer) {
            return Some(TreePath::direct(leaf, consumer));
        }
        let mut path = TreePath {
            leaf,
            first: NONE,
            steps: 0,
            start: via_start.then_some(start),
            consumer,
        };
        if !(via_start && wired_directly(g, leaf, start)) {
            path.first = self.reach.best_step(g, leaf)?;
            path.steps = self.reach.hops[path.first as usize] as usize;
        }
        Some(path)
    }

    /// The node in `slot`'s chain whose hops are `hops` (no more than its own).
    fn ancestor(&self, links: &Links, mut slot: u32, hops: u32) -> u32 {
        let hops_of = |s: u32| self.reach.hops[s as usize];
        while hops_of(slot) > hops {
            let jump = links.jump[slot as usize];
            slot = if jump != NONE && hops_of(jump) >= hops {
                jump
            } else {
                links.next[slot as usize]
            };
        }
        slot
    }
}

impl Reach {
    /// The passthrough receiver of `node` closest to the start, smallest id
    /// first among equals.
    fn best_step(&self, g: &ToolGraph<'_>, node: NodeIx) -> Option<u32> {
        let mut best: Option<(u32, &str, u32)> = None;
        for &receiver in g.passthrough_receivers.of(node) {
            let Some(&slot) = self.slot.get(&receiver) else {
                continue;
            };
            let candidate = (self.hops[slot as usize], g.id(receiver), slot);
            if best.is_none_or(|b| (candidate.0, candidate.1) < (b.0, b.1)) {
                best = Some(candidate);
            }
        }
        best.map(|b| b.2)
    }
}

/// One tool's path, as positions along a [`PathTree`]: the leaf, `steps`
/// passthroughs of the tree, the tree's start when it is a toolbox wired
/// into the consumer, and the consumer.
#[derive(Debug, Clone, Copy)]
pub struct TreePath {
    leaf: NodeIx,
    /// The first passthrough after the leaf, or NONE.
    first: u32,
    steps: usize,
    start: Option<NodeIx>,
    consumer: NodeIx,
}

impl TreePath {
    /// `[leaf, consumer]`: a tool wired straight into its consumer.
    pub fn direct(leaf: NodeIx, consumer: NodeIx) -> TreePath {
        TreePath {
            leaf,
            first: NONE,
            steps: 0,
            start: None,
            consumer,
        }
    }

    #[allow(clippy::len_without_is_empty)] // a path has at least two nodes
    pub fn len(&self) -> usize {
        2 + self.steps + usize::from(self.start.is_some())
    }

    /// The nodes from position `from` up to (not including) `to`, walking
    /// only that stretch of the tree (after a jump search to reach it).
    pub fn nodes(&self, g: &ToolGraph<'_>, tree: &PathTree, from: usize, to: usize) -> Vec<NodeIx> {
        let to = to.min(self.len());
        let mut out = Vec::with_capacity(to.saturating_sub(from));
        let mut slot = NONE;
        for i in from..to {
            let node = if i == 0 {
                self.leaf
            } else if i == 1 && self.steps > 0 {
                slot = self.first; // the first step needs no links
                tree.reach.order[slot as usize]
            } else if i <= self.steps {
                // Position i holds the passthrough with hops `hops(first) - (i - 1)`.
                let links = tree.links(g);
                slot = if slot == NONE {
                    let first_hops = tree.reach.hops[self.first as usize];
                    tree.ancestor(links, self.first, first_hops - (i as u32 - 1))
                } else {
                    links.next[slot as usize]
                };
                tree.reach.order[slot as usize]
            } else if let Some(start) = self.start.filter(|_| i == self.steps + 1) {
                start
            } else {
                self.consumer
            };
            out.push(node);
        }
        out
    }

    /// The whole path.
    pub fn all(&self, g: &ToolGraph<'_>, tree: &PathTree) -> Vec<NodeIx> {
        self.nodes(g, tree, 0, self.len())
    }
}

/// The longest path whose toolboxes' labels a report carries.
pub const LABELLED_PATH_NODES: usize = 64;

/// `(id, data.label)` of the passthroughs on `paths` whose label is not
/// their id, by id, for showing paths in words. Labels are for a person, who
/// is shown only the ends of a long path (a chain of a million toolboxes is
/// not read hop by hop), so only paths of readable length are looked at.
pub fn box_labels<'g>(g: &'g ToolGraph<'_>, paths: &[Vec<NodeIx>]) -> Vec<(&'g str, &'g str)> {
    let mut boxes = Vec::new();
    for path in paths.iter().filter(|p| p.len() <= LABELLED_PATH_NODES) {
        for &node in &path[1..path.len() - 1] {
            if let Some(label) = g.explicit_label(node).filter(|&l| l != g.id(node)) {
                boxes.push((g.id(node), label));
            }
        }
    }
    boxes.sort_unstable();
    boxes.dedup();
    boxes
}

/// Whether a tool edge runs from `leaf` to `consumer`, looking through the
/// shorter of the two adjacency lists.
pub fn wired_directly(g: &ToolGraph<'_>, leaf: NodeIx, consumer: NodeIx) -> bool {
    let (out, into) = (g.receivers.of(leaf), g.providers.of(consumer));
    if out.len() <= into.len() {
        out.contains(&consumer)
    } else {
        into.contains(&leaf)
    }
}

#[cfg(test)]
mod tests {
    use super::{sorted_in_halves, CandidateNames};
    use crate::{parse::parse, Config};

    /// A workflow of one agent and a tool `t{i}` labelled `labels[i]` for
    /// each label, every tool wired straight into the agent.
    fn tools_of_one_agent(labels: &[impl AsRef<str>]) -> String {
        let nodes: Vec<String> = (labels.iter().enumerate())
            .map(|(i, l)| format!(r#"{{"id": "t{i}", "data": {{"label": "{}"}}}}"#, l.as_ref()))
            .collect();
        let edges: Vec<String> = (0..labels.len())
            .map(|i| format!(r#"{{"source": "t{i}", "target": "agent", "targetHandle": "agent-input-tool"}}"#))
            .collect();
        format!(
            r#"{{"nodes": [{{"id": "agent"}}, {}], "edges": [{}]}}"#,
            nodes.join(", "),
            edges.join(", ")
        )
    }

    #[test]
    fn cmp9_names_that_share_a_hash_are_still_told_apart() {
        // Six tools wired into one agent: two named `x`, two named `y`, one
        // `z`, one `w`. Given one hash, as a collision of the hash would,
        // only equal names become candidates; given their own, the same.
        let labels = ["X", "x!", "Y", "y", "Z", "W"];
        let doc = tools_of_one_agent(&labels);
        let mut g = parse(doc.as_bytes(), &Config::default()).unwrap();
        let tool = |i: usize| {
            (0..g.node_count() as u32)
                .find(|&n| g.id(n) == format!("t{i}"))
                .unwrap()
        };
        let tools: Vec<u32> = (0..labels.len()).map(tool).collect();
        for one_hash in [false, true] {
            if one_hash {
                for &t in &tools {
                    g.name_hashes[t as usize] = 42;
                }
            }
            let names = CandidateNames::find(&g, false);
            let of = |i: usize| names.of(tools[i]).map(|n| names.name(n));
            assert_eq!(
                (0..labels.len()).map(of).collect::<Vec<_>>(),
                [Some("x"), Some("x"), Some("y"), Some("y"), None, None],
                "one hash: {one_hash}"
            );
        }
    }

    #[test]
    fn cmp9_names_that_share_a_hash_are_told_apart_on_two_threads_too() {
        // Enough tools that names are checked on two threads, each of 1,000
        // names shared by 70 tools spread over both halves, and two tools
        // named `late` at the very end. `late` is given the hash of `n1`,
        // as a collision of the hash would: only the second half can tell.
        let count = 70_000;
        let labels: Vec<String> = (0..count)
            .map(|i| format!("N{}", i % 1_000))
            .chain(["late".into(), "late".into()])
            .collect();
        let doc = tools_of_one_agent(&labels);
        let mut g = parse(doc.as_bytes(), &Config::default()).unwrap();
        let tools: Vec<u32> = (0..g.node_count() as u32).filter(|&n| g.id(n) != "agent").collect();
        let hash_of_n1 = g.name_hashes[tools[1] as usize];
        for &t in &tools[count..] {
            g.name_hashes[t as usize] = hash_of_n1;
        }
        for allow_thread in [false, true] {
            let names = CandidateNames::find(&g, allow_thread);
            let misnamed = (tools.iter())
                .filter(|&&t| names.of(t).map(|n| names.name(n)) != Some(&g.label(t).to_lowercase()))
                .count();
            assert_eq!(misnamed, 0, "allow_thread {allow_thread}");
            assert_eq!(names.names.len(), 1_001, "allow_thread {allow_thread}");
        }
    }

    #[test]
    fn sorting_in_halves_equals_sorting_whole() {
        for len in [0usize, 1, 2, 3, 1_000, 100_001] {
            // Hashes on both sides of the split, and many equal ones, so
            // the order among equal hashes is tested too.
            let items: Vec<(u64, u32)> = (0..len as u64)
                .map(|i| ((i * 2_654_435_761 % 977) << 54, (i * 40_503 % 65_537) as u32))
                .collect();
            assert!(len < 1_000 || items.iter().any(|h| h.0 >> 63 == 1) && items.iter().any(|h| h.0 >> 63 == 0));
            let mut expected = items.clone();
            expected.sort_unstable();
            assert_eq!(sorted_in_halves(items), expected, "{len} items");
        }
    }
}
