//! Flattening one consumer's tool wiring through passthroughs (CMP-9), as
//! `explain` shows it: one breadth-first walk upstream ([`Reach`]) and the
//! shortest paths it implies, kept as one tree of successor links per walk
//! ([`PathTree`]) rather than copied per tool. The check flattens every
//! consumer at once in `collisions/`, which shares only [`box_labels`] and
//! [`wired_directly`] from here.

use std::sync::OnceLock;

use crate::graph::{NodeIx, ToolGraph};
use crate::maps::{new_map, Map};

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
    // Each box once by its index first: n paths through one box of a long
    // label would otherwise compare that label n log n times (the attack
    // of session 33). Ids are unique, so sorting by id alone orders them.
    let mut nodes: Vec<NodeIx> = (paths.iter().filter(|p| p.len() <= LABELLED_PATH_NODES))
        .flat_map(|path| path[1..path.len() - 1].iter().copied())
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    let mut boxes: Vec<(&str, &str)> = (nodes.into_iter())
        .filter_map(|node| (g.explicit_label(node).filter(|&l| l != g.id(node))).map(|label| (g.id(node), label)))
        .collect();
    boxes.sort_unstable_by_key(|&(id, _)| id);
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
