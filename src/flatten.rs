//! Flattening tool wiring through passthroughs (CMP-9), done so that each
//! toolbox is resolved once however many consumers share it, and so that
//! most of a large workflow is never flattened at all.
//!
//! Two observations keep it linear in practice:
//! - a name carried by only one leaf in the whole workflow can never collide,
//!   so only leaves whose name occurs at least twice (candidates) are tracked;
//! - a consumer's view is the union of its direct leaves and of the views of
//!   the passthroughs wired into it ("roots"); each root's view is computed
//!   once, by one breadth-first walk upstream, and then shared.

use std::collections::HashMap;

use foldhash::fast::RandomState;

use crate::graph::{NodeIx, ToolGraph};
use crate::names::normalize_name;

pub type NameIx = u32;
pub const NOT_A_CANDIDATE: NameIx = NameIx::MAX;

pub type Map<K, V> = HashMap<K, V, RandomState>;

pub fn new_map<K, V>() -> Map<K, V> {
    HashMap::with_hasher(RandomState::default())
}

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
    /// can never make two different names look alike.
    pub fn find(g: &ToolGraph<'_>) -> CandidateNames {
        let mut hashed: Vec<(u64, NodeIx)> = (0..g.node_count() as NodeIx)
            .filter(|&n| g.is_tool(n))
            .map(|n| (g.name_hashes[n as usize], n))
            .collect();
        hashed.sort_unstable();

        let mut names: Vec<Box<str>> = Vec::new();
        let mut of_node = vec![NOT_A_CANDIDATE; g.node_count()];
        let mut group: Vec<(String, NodeIx)> = Vec::new();
        for run in hashed.chunk_by(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
            group.clear();
            group.extend(run.iter().map(|&(_, n)| (normalize_name(g.label(n)), n)));
            group.sort_unstable();
            for same in group.chunk_by(|a, b| a.0 == b.0).filter(|same| same.len() > 1) {
                let ix = names.len() as NameIx;
                names.push(same[0].0.as_str().into());
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

/// The shortest chain `[leaf, P1, ..., Pk, consumer]` over tool edges with
/// every Pi a passthrough, given `distance(p)`, the hops from passthrough `p`
/// to the consumer (1: wired straight into it; None: it does not get there).
/// Among several, each step takes the next node with the smallest id, which
/// makes the choice independent of hashing and of edge order.
///
/// A step never scans all receivers of a node (a toolbox may feed 20k
/// agents): the consumer is next exactly when the current passthrough is at
/// distance 1 or the leaf is wired straight into it, and otherwise only
/// passthrough receivers can be next.
pub fn shortest_path(
    g: &ToolGraph<'_>,
    leaf: NodeIx,
    consumer: NodeIx,
    distance: impl Fn(NodeIx) -> Option<u32>,
) -> Vec<NodeIx> {
    let mut path = vec![leaf];
    if wired_directly(g, leaf, consumer) {
        path.push(consumer);
        return path;
    }
    let mut current = leaf;
    loop {
        let mut best: Option<(u32, &str, NodeIx)> = None;
        for &next in g.passthrough_receivers.of(current) {
            let Some(d) = distance(next) else {
                continue;
            };
            let candidate = (d, g.id(next), next);
            if best.is_none_or(|b| (candidate.0, candidate.1) < (b.0, b.1)) {
                best = Some(candidate);
            }
        }
        // Every leaf handed here reaches the consumer, so a next step
        // exists; stopping short keeps a broken invariant from looping.
        let Some((d, _, next)) = best else {
            debug_assert!(false, "leaf {leaf} does not reach consumer {consumer}");
            return path;
        };
        path.push(next);
        if d == 1 {
            path.push(consumer);
            return path;
        }
        current = next;
    }
}

/// The longest path whose toolboxes' labels a report carries.
pub const LABELLED_PATH_NODES: usize = 64;

/// `(id, data.label)` of the passthroughs on `paths` whose label is not
/// their id, by id, for showing paths in words. Labels are for a person, who
/// is shown only the ends of a long path (a chain of a million toolboxes is
/// not read hop by hop), so only paths of readable length are looked at.
pub fn box_labels(g: &ToolGraph<'_>, paths: &[Vec<NodeIx>]) -> Vec<(String, String)> {
    let mut boxes = Vec::new();
    for path in paths.iter().filter(|p| p.len() <= LABELLED_PATH_NODES) {
        for &node in &path[1..path.len() - 1] {
            if let Some(label) = g.explicit_label(node).filter(|&l| l != g.id(node)) {
                boxes.push((g.id(node).to_owned(), label.to_owned()));
            }
        }
    }
    boxes.sort_unstable();
    boxes.dedup();
    boxes
}

/// Whether a tool edge runs from `leaf` to `consumer`, looking through the
/// shorter of the two adjacency lists.
fn wired_directly(g: &ToolGraph<'_>, leaf: NodeIx, consumer: NodeIx) -> bool {
    let (out, into) = (g.receivers.of(leaf), g.providers.of(consumer));
    if out.len() <= into.len() {
        out.contains(&consumer)
    } else {
        into.contains(&leaf)
    }
}

/// What a passthrough forwards: its candidate leaves by name, and how far
/// each passthrough upstream of it is (for shortest paths).
pub struct BoxView {
    /// Hops from each passthrough upstream of the root to the root (root: 0).
    pub hops: Map<NodeIx, u32>,
    /// Candidate leaves by name, each list without repeats.
    pub leaves: Map<NameIx, Vec<NodeIx>>,
    /// Names with two or more leaves: collisions inside this box alone.
    pub colliding: Vec<NameIx>,
    pub leaf_count: usize,
}

impl BoxView {
    /// Walks upstream from `root` over passthroughs only; cycles end the walk
    /// because each passthrough is entered once.
    pub fn of(g: &ToolGraph<'_>, names: &CandidateNames, root: NodeIx) -> BoxView {
        let mut hops: Map<NodeIx, u32> = new_map();
        let mut leaves: Map<NameIx, Vec<NodeIx>> = new_map();
        hops.insert(root, 0);
        let mut queue = vec![root];
        let mut head = 0;
        while let Some(&current) = queue.get(head) {
            head += 1;
            let distance = hops[&current];
            for &provider in g.providers.of(current) {
                if g.is_passthrough(provider) {
                    if let std::collections::hash_map::Entry::Vacant(slot) = hops.entry(provider) {
                        slot.insert(distance + 1);
                        queue.push(provider);
                    }
                } else if let Some(name) = names.of(provider) {
                    leaves.entry(name).or_default().push(provider);
                }
            }
        }
        let mut colliding = Vec::new();
        let mut leaf_count = 0;
        for (&name, list) in leaves.iter_mut() {
            list.sort_unstable();
            list.dedup();
            leaf_count += list.len();
            if list.len() > 1 {
                colliding.push(name);
            }
        }
        BoxView {
            hops,
            leaves,
            colliding,
            leaf_count,
        }
    }
}
