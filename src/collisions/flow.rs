//! The part of the wiring that can hold a clash, reduced to classes.
//!
//! Every step here is one pass over the nodes or the tool edges it looks
//! at, so the whole reduction is O(N + E):
//!
//! 1. **Final leaves.** A tool can only clash if it reaches a consumer
//!    (through passthroughs, or wired straight in) and another tool that
//!    reaches some consumer has its name. Tools are first narrowed to the
//!    names two tools share anywhere (`CandidateNames`); a forward walk
//!    from those marks the boxes they reach, a backward walk from the
//!    consumers so reached marks which of those boxes are *live*, and the
//!    names still shared by two live tools are final. (A box of clashing
//!    tools that reaches no consumer, or a tool whose only twin sits in
//!    such a box, costs nothing further.)
//! 2. **Relevant nodes**: the live boxes a final leaf reaches, and the
//!    consumers they or a final leaf are wired into. Nothing else can be
//!    on a path of a clash or hold one.
//! 3. **Units**: the relevant boxes condensed into strongly connected
//!    components (iterative Tarjan, no recursion), in topological order.
//!    A cycle of boxes forwards the union of what flows into it.
//! 4. **Classes**: units and relevant consumers that see the same final
//!    leaves. A node that has no leaf of its own and whose inputs all see
//!    the same (one class) *is* that class: chains of boxes, a private box
//!    per agent, agents that only forward a box, all collapse into the
//!    class they forward. Nodes with the same own leaves and the same input
//!    classes are one class too (many agents wired alike). Only classes
//!    carry sets (see `build`).
//!
//! Beside the classes, the reduction keeps what shortest paths need: each
//! relevant node's relevant provider boxes, and its *path parent* when it
//! has exactly one relevant provider box (every path of a clash to it,
//! but from a tool wired straight in, then ends `..., parent, node`).
//! Twins that vanish (`twins`) are in the classes like any box, but in
//! none of these: no path steps into one; nor are near twins among the
//! providers of boxes, or of consumers their kept twins feed too (no path
//! takes those edges).
//!
//! One module, though long: the four steps are one reduction, each reading the
//! marks and numbering the step before left, and the path facts are made from
//! the same relevant nodes. Split, those arrays would travel between files, and
//! the O(N + E) argument above would be spread over them.

use crate::graph::{NodeIx, ToolGraph};
use crate::maps::{new_map, Map};
use crate::names::{CandidateNames, NameIx, NOT_A_CANDIDATE};

use super::twins::Twins;

pub(crate) type ClassIx = u32;
/// What makes a class: its own leaves and its input classes, sorted.
type ClassKey = (Box<[NodeIx]>, Box<[ClassIx]>);
pub(crate) const NONE: u32 = u32::MAX;

/// Nodes that share a class see the same final leaves.
pub(crate) struct Class {
    /// Final leaves wired straight into the class's nodes, by node number.
    pub own: Box<[NodeIx]>,
    /// The classes wired into it, sorted; made before it.
    pub inputs: Box<[ClassIx]>,
    /// Whether some other class has it as an input.
    pub forwards: bool,
    /// The box that made the class, when one box alone did (not a cycle
    /// of boxes, not a consumer): where what forms in the class forms.
    pub origin: Option<NodeIx>,
    /// How many units and consumers made it (forwarding ones aside).
    pub origins: u32,
}

/// Per relevant node (box or consumer), what paths are read from.
pub(crate) struct PathFacts {
    /// The relevant nodes, by ordinal.
    pub nodes: Vec<NodeIx>,
    /// Per ordinal: its relevant provider boxes (node numbers), deduplicated,
    /// in CSR form.
    pub provider_starts: Vec<u32>,
    pub providers: Vec<NodeIx>,
    /// Per ordinal of a root with several provider boxes: see
    /// `carriers_of`, in CSR form.
    pub carrier_starts: Vec<u32>,
    pub carriers: Vec<(u32, bool)>,
    /// Per ordinal: its path parent (its one relevant provider box), or
    /// NONE for a path root (none, or several).
    pub parent: Vec<u32>,
    /// Per ordinal: steps to its path root.
    pub depth: Vec<u32>,
    /// Per ordinal: an ancestor further up (skew-binary jump pointers), so
    /// the ancestor at any depth is found in O(log depth) steps.
    pub jump: Vec<u32>,
    /// Per ordinal: its nearest proper ancestor that has final leaves of
    /// its own or is the root (only those can be where a tool enters).
    pub own_up: Vec<u32>,
    /// Per ordinal: how many steps along `own_up` reach the root.
    pub own_rank: Vec<u32>,
    /// Per ordinal: its root, and where a walk down the forest enters and
    /// leaves it (see `is_ancestor`).
    pub root_of: Vec<u32>,
    pub enter: Vec<u32>,
    pub leave: Vec<u32>,
}

impl PathFacts {
    /// The distinct classes of a path root's provider boxes, each as one
    /// of those boxes (by ordinal) and whether it is the only one of its
    /// class; nothing for a node with one provider box or none.
    pub fn carriers_of(&self, ordinal: u32) -> &[(u32, bool)] {
        let o = ordinal as usize;
        &self.carriers[self.carrier_starts[o] as usize..self.carrier_starts[o + 1] as usize]
    }

    pub fn providers_of(&self, ordinal: u32) -> &[NodeIx] {
        let o = ordinal as usize;
        &self.providers[self.provider_starts[o] as usize..self.provider_starts[o + 1] as usize]
    }

    /// The ancestor of `ordinal` that is `up` steps closer to its root
    /// (`up` at most its depth).
    pub fn ancestor(&self, mut ordinal: u32, up: u32, steps: &mut u64) -> u32 {
        let target = self.depth[ordinal as usize] - up;
        while self.depth[ordinal as usize] > target {
            *steps += 1;
            let jump = self.jump[ordinal as usize];
            ordinal = if self.depth[jump as usize] >= target {
                jump
            } else {
                self.parent[ordinal as usize]
            };
        }
        ordinal
    }

    /// The path root of `ordinal`.
    pub fn root(&self, ordinal: u32, steps: &mut u64) -> u32 {
        *steps += 1;
        self.root_of[ordinal as usize]
    }

    /// Whether `a` is `b` or one of its ancestors: `b` was entered while
    /// `a` was, in one walk down the parent forest.
    pub fn is_ancestor(&self, a: u32, b: u32, steps: &mut u64) -> bool {
        *steps += 1;
        let (a, b) = (a as usize, b as usize);
        self.enter[a] <= self.enter[b] && self.enter[b] < self.leave[a]
    }
}

/// Where each node is entered and left in one depth-first walk down the
/// parent forest (preorder numbers: a node's descendants are entered after
/// it and before it is left), and each node's root.
fn euler(parent: &[u32]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let count = parent.len();
    let mut starts = vec![0u32; count + 1];
    for &p in parent.iter().filter(|&&p| p != NONE) {
        starts[p as usize + 1] += 1;
    }
    for i in 0..count {
        starts[i + 1] += starts[i];
    }
    let mut children = vec![0u32; starts[count] as usize];
    let mut fill = starts.clone();
    for (o, &p) in parent.iter().enumerate() {
        if p != NONE {
            children[fill[p as usize] as usize] = o as u32;
            fill[p as usize] += 1;
        }
    }
    let (mut enter, mut leave, mut root_of) = (vec![0u32; count], vec![0u32; count], vec![0u32; count]);
    let mut next = 0u32;
    let mut walk: Vec<(u32, u32)> = Vec::new(); // (node, next child position)
    for top in (0..count as u32).filter(|&o| parent[o as usize] == NONE) {
        enter[top as usize] = next;
        root_of[top as usize] = top;
        next += 1;
        walk.push((top, starts[top as usize]));
        while let Some(&mut (node, ref mut at)) = walk.last_mut() {
            if *at < starts[node as usize + 1] {
                let child = children[*at as usize];
                *at += 1;
                enter[child as usize] = next;
                root_of[child as usize] = top;
                next += 1;
                walk.push((child, starts[child as usize]));
            } else {
                leave[node as usize] = next;
                walk.pop();
            }
        }
    }
    (enter, leave, root_of)
}

/// The reduced wiring of one workflow.
pub(crate) struct Flow {
    /// Per node: its name when it is a final leaf, else NOT_A_CANDIDATE.
    pub leaf_name: Vec<NameIx>,
    /// Per node: its relevant ordinal (see `PathFacts`), or NONE.
    pub ordinal: Vec<u32>,
    /// Per relevant ordinal: its class.
    pub class_of: Vec<ClassIx>,
    /// In topological order: every class after its inputs.
    pub classes: Vec<Class>,
    pub paths: PathFacts,
    /// Steps taken, for the work counters: (edges read, items handled).
    pub edges: u64,
    pub items: u64,
}

const REACHED: u8 = 1;
const LIVE: u8 = 2;
const RELEVANT: u8 = 4;
const CONSUMER: u8 = 8;

impl Flow {
    /// The reduction of a workflow where nothing clashes.
    pub fn empty() -> Flow {
        Flow {
            leaf_name: Vec::new(),
            ordinal: Vec::new(),
            class_of: Vec::new(),
            classes: Vec::new(),
            paths: PathFacts {
                nodes: Vec::new(),
                provider_starts: vec![0],
                providers: Vec::new(),
                carrier_starts: vec![0],
                carriers: Vec::new(),
                parent: Vec::new(),
                depth: Vec::new(),
                jump: Vec::new(),
                own_up: Vec::new(),
                own_rank: Vec::new(),
                root_of: Vec::new(),
                enter: Vec::new(),
                leave: Vec::new(),
            },
            edges: 0,
            items: 0,
        }
    }

    /// The reduction of `g`, from its final leaves. The path facts leave
    /// out the twins that vanish (see `twins`), which no path steps into,
    /// and hold a kept twin that leaves were moved onto as a node with
    /// leaves of its own, whose class alone does not say what it carries;
    /// the classes are made of every relevant node.
    pub fn of(g: &ToolGraph<'_>, finals: Finals, twins: Option<&Twins>) -> Flow {
        let Finals {
            state,
            leaf_name,
            boxes,
            consumers,
            mut edges,
        } = finals;
        let n = g.node_count();

        // 3. Units, in topological order.
        let mut ordinal = vec![NONE; n];
        for (i, &b) in boxes.iter().enumerate() {
            ordinal[b as usize] = i as u32;
        }
        let (unit_of_box, unit_count) = units(g, &boxes, &ordinal, &mut edges);

        // Relevant ordinals: boxes by unit (topological), then consumers.
        // By unit (a counting sort: units are numbered), then by node.
        let mut unit_starts = vec![0u32; unit_count as usize + 1];
        for &u in &unit_of_box {
            unit_starts[u as usize + 1] += 1;
        }
        for u in 0..unit_count as usize {
            unit_starts[u + 1] += unit_starts[u];
        }
        let mut by_unit = vec![0u32; boxes.len()];
        let mut fill = unit_starts.clone();
        for (i, &u) in unit_of_box.iter().enumerate() {
            by_unit[fill[u as usize] as usize] = i as u32;
            fill[u as usize] += 1;
        }
        for u in 0..unit_count as usize {
            let members = &mut by_unit[unit_starts[u] as usize..unit_starts[u + 1] as usize];
            if members.len() > 1 {
                members.sort_unstable_by_key(|&i| boxes[i as usize]);
            }
        }
        let mut nodes: Vec<NodeIx> = by_unit.iter().map(|&i| boxes[i as usize]).collect();
        let mut unit_of: Vec<u32> = by_unit.iter().map(|&i| unit_of_box[i as usize]).collect();
        let box_count = nodes.len();
        nodes.extend_from_slice(&consumers);
        unit_of.extend((0..consumers.len() as u32).map(|i| unit_count + i));
        for (o, &node) in nodes.iter().enumerate() {
            ordinal[node as usize] = o as u32;
        }
        let flow_count = unit_count as usize + consumers.len();

        // Each relevant node's relevant provider boxes and own leaves.
        let mut provider_starts = Vec::with_capacity(nodes.len() + 1);
        let mut providers: Vec<NodeIx> = Vec::new();
        let mut own_starts = Vec::with_capacity(nodes.len() + 1);
        let mut own: Vec<NodeIx> = Vec::new();
        for &node in &nodes {
            provider_starts.push(providers.len() as u32);
            own_starts.push(own.len() as u32);
            let (p_from, o_from) = (providers.len(), own.len());
            for &p in g.providers.of(node) {
                edges += 1;
                if state[p as usize] & RELEVANT != 0 && g.is_passthrough(p) {
                    providers.push(p);
                } else if leaf_name[p as usize] != NOT_A_CANDIDATE {
                    own.push(p);
                }
            }
            for list in [&mut providers[p_from..], &mut own[o_from..]] {
                list.sort_unstable();
            }
            dedup_tail(&mut providers, p_from);
            dedup_tail(&mut own, o_from);
        }
        provider_starts.push(providers.len() as u32);
        own_starts.push(own.len() as u32);

        // 4. Classes, flow node by flow node (a unit's boxes are adjacent).
        let mut class_of_flow = vec![NONE; flow_count];
        let mut classes: Vec<Class> = Vec::new();
        // Classes by a fingerprint of what makes them; two different ones
        // with one fingerprint, the later kept whole in `more`.
        let mut by_print: Map<u64, ClassIx> = new_map();
        let mut more: Map<ClassKey, ClassIx> = new_map();
        let mut items = 0u64;
        let mut start = 0;
        // One unit's own leaves and inputs, their buffers kept from unit to
        // unit: a class copies them out exactly sized.
        let mut own_leaves: Vec<NodeIx> = Vec::new();
        let mut inputs: Vec<ClassIx> = Vec::new();
        while start < nodes.len() {
            let unit = unit_of[start];
            let end = start + unit_of[start..].iter().take_while(|&&u| u == unit).count();
            own_leaves.clear();
            inputs.clear();
            for o in start..end {
                own_leaves.extend_from_slice(&own[own_starts[o] as usize..own_starts[o + 1] as usize]);
                for &p in &providers[provider_starts[o] as usize..provider_starts[o + 1] as usize] {
                    let from = unit_of[ordinal[p as usize] as usize];
                    if from != unit {
                        inputs.push(class_of_flow[from as usize]);
                    }
                }
            }
            own_leaves.sort_unstable();
            own_leaves.dedup();
            inputs.sort_unstable();
            inputs.dedup();
            items += (own_leaves.len() + inputs.len()) as u64;
            class_of_flow[unit as usize] = if own_leaves.is_empty() && inputs.len() == 1 {
                inputs[0]
            } else {
                let single_box = (end - start == 1 && start < box_count).then(|| nodes[start]);
                let print = class_print(&own_leaves, &inputs);
                let same = |c: ClassIx| {
                    *classes[c as usize].own == own_leaves[..] && *classes[c as usize].inputs == inputs[..]
                };
                let found = match by_print.get(&print) {
                    Some(&c) if same(c) => Some(c),
                    Some(_) => more.get(&(own_leaves[..].into(), inputs[..].into())).copied(),
                    None => None,
                };
                let class = found.unwrap_or_else(|| {
                    for &input in &inputs {
                        classes[input as usize].forwards = true;
                    }
                    let class = classes.len() as ClassIx;
                    if let std::collections::hash_map::Entry::Vacant(at) = by_print.entry(print) {
                        at.insert(class);
                    } else {
                        more.insert((own_leaves[..].into(), inputs[..].into()), class);
                    }
                    classes.push(Class {
                        own: own_leaves[..].into(),
                        inputs: inputs[..].into(),
                        forwards: false,
                        origin: single_box,
                        origins: 0,
                    });
                    class
                });
                classes[class as usize].origins += 1;
                class
            };
            start = end;
        }
        let class_of: Vec<ClassIx> = unit_of.iter().map(|&u| class_of_flow[u as usize]).collect();
        let gains = |node: NodeIx| twins.is_some_and(|t| t.gains[node as usize]);
        if let Some(twins) = twins {
            let gone = |node: NodeIx| twins.vanished[node as usize];
            let mut kept = 0;
            for o in 0..nodes.len() {
                let (from, to) = (provider_starts[o] as usize, provider_starts[o + 1] as usize);
                provider_starts[o] = kept as u32;
                items += (to - from) as u64;
                if !gone(nodes[o]) {
                    let into_box = g.is_passthrough(nodes[o]);
                    for i in from..to {
                        if !gone(providers[i]) && !twins.cuts(providers[i], nodes[o], into_box) {
                            providers[kept] = providers[i];
                            kept += 1;
                        }
                    }
                }
            }
            provider_starts[nodes.len()] = kept as u32;
            providers.truncate(kept);
        }

        // Path parents: a node's one relevant provider box. Boxes come
        // before consumers and units in topological order, but inside a
        // unit a parent may come later: depths are settled by walking up to
        // a node already settled.
        let relevant_count = nodes.len();
        let mut parent = vec![NONE; relevant_count];
        for o in 0..relevant_count {
            let list = &providers[provider_starts[o] as usize..provider_starts[o + 1] as usize];
            if list.len() == 1 {
                parent[o] = ordinal[list[0] as usize];
            }
        }
        // Per root with several provider boxes, their distinct classes:
        // whether a tool reaches a box is a question about its class.
        let mut carrier_starts = Vec::with_capacity(relevant_count + 1);
        let mut carriers: Vec<(u32, bool)> = Vec::new();
        // A kept twin that leaves were moved onto carries them beside its
        // class: it is a class apart.
        let mut of_class: Vec<(ClassIx, u32, u32)> = Vec::new();
        for o in 0..relevant_count {
            carrier_starts.push(carriers.len() as u32);
            let list = &providers[provider_starts[o] as usize..provider_starts[o + 1] as usize];
            if list.len() < 2 {
                continue;
            }
            of_class.clear();
            of_class.extend(list.iter().map(|&p| {
                let o = ordinal[p as usize];
                (class_of[o as usize], if gains(p) { o } else { NONE }, o)
            }));
            of_class.sort_unstable();
            items += list.len() as u64;
            for same in of_class.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
                carriers.push((same[0].2, same.len() == 1));
            }
        }
        carrier_starts.push(carriers.len() as u32);
        let has_own = |o: u32| own_starts[o as usize] != own_starts[o as usize + 1] || gains(nodes[o as usize]);
        let (depth, jump, own_up, own_rank) = depths(&mut parent, has_own, &mut items);
        let (enter, leave, root_of) = euler(&parent);
        items += parent.len() as u64;

        Flow {
            leaf_name,
            ordinal,
            class_of,
            classes,
            paths: PathFacts {
                nodes,
                provider_starts,
                providers,
                carrier_starts,
                carriers,
                parent,
                depth,
                jump,
                own_up,
                own_rank,
                root_of,
                enter,
                leave,
            },
            edges,
            items,
        }
    }
}

/// A workflow's final leaves (step 1 of the reduction), with the marks
/// that found them.
pub(crate) struct Finals {
    /// Per node: REACHED, LIVE (see `is_live_box`).
    state: Vec<u8>,
    /// Per node: its name when it is a final leaf, else NOT_A_CANDIDATE.
    leaf_name: Vec<NameIx>,
    /// The relevant boxes, as a final leaf's walk found them, and the
    /// relevant consumers, sorted.
    boxes: Vec<NodeIx>,
    consumers: Vec<NodeIx>,
    /// Edges read.
    pub edges: u64,
}

impl Finals {
    /// The final leaves of `g`, or None when no two tools that reach a
    /// consumer share a name (then nothing can clash).
    pub fn of(g: &ToolGraph<'_>, names: &CandidateNames) -> Option<Finals> {
        let n = g.node_count();
        let mut edges = 0u64;
        let mut state = vec![0u8; n];
        let candidates: Vec<NodeIx> = (0..n as NodeIx).filter(|&v| names.of(v).is_some()).collect();

        // 1. Boxes the candidates reach, and the consumers they reach.
        let mut queue: Vec<NodeIx> = Vec::new();
        let mut reached_consumers: Vec<NodeIx> = Vec::new();
        let mut forward = |from: NodeIx, state: &mut [u8], queue: &mut Vec<NodeIx>, edges: &mut u64| {
            for &r in g.receivers.of(from) {
                *edges += 1;
                let s = &mut state[r as usize];
                if g.is_passthrough(r) {
                    if *s & REACHED == 0 {
                        *s |= REACHED;
                        queue.push(r);
                    }
                } else if *s & CONSUMER == 0 {
                    *s |= CONSUMER;
                    reached_consumers.push(r);
                }
            }
        };
        for &leaf in &candidates {
            forward(leaf, &mut state, &mut queue, &mut edges);
        }
        while let Some(b) = queue.pop() {
            forward(b, &mut state, &mut queue, &mut edges);
        }
        // Which of those boxes reach one of those consumers.
        let backward = |to: NodeIx, state: &mut [u8], queue: &mut Vec<NodeIx>, edges: &mut u64| {
            for &p in g.providers.of(to) {
                *edges += 1;
                let s = &mut state[p as usize];
                if *s & (REACHED | LIVE) == REACHED {
                    *s |= LIVE;
                    queue.push(p);
                }
            }
        };
        for &c in &reached_consumers {
            backward(c, &mut state, &mut queue, &mut edges);
        }
        while let Some(b) = queue.pop() {
            backward(b, &mut state, &mut queue, &mut edges);
        }
        // The names still shared by two tools that reach a consumer.
        let live = |leaf: NodeIx, edges: &mut u64| {
            g.receivers.of(leaf).iter().any(|&r| {
                *edges += 1;
                !g.is_passthrough(r) || state[r as usize] & LIVE != 0
            })
        };
        let mut live_count = vec![0u32; names.names.len()];
        let live_leaves: Vec<NodeIx> = (candidates.iter().copied())
            .filter(|&leaf| live(leaf, &mut edges))
            .collect();
        for &leaf in &live_leaves {
            live_count[names.of_node[leaf as usize] as usize] += 1;
        }
        let mut leaf_name = vec![NOT_A_CANDIDATE; n];
        let mut leaves = Vec::new();
        for &leaf in &live_leaves {
            let name = names.of_node[leaf as usize];
            if live_count[name as usize] >= 2 {
                leaf_name[leaf as usize] = name;
                leaves.push(leaf);
            }
        }
        if leaves.is_empty() {
            return None;
        }

        // 2. Relevant boxes and consumers.
        let mut boxes: Vec<NodeIx> = Vec::new();
        let mut consumers: Vec<NodeIx> = Vec::new();
        let mut relevant = |from: NodeIx, state: &mut [u8], boxes: &mut Vec<NodeIx>, edges: &mut u64| {
            for &r in g.receivers.of(from) {
                *edges += 1;
                let s = &mut state[r as usize];
                if *s & RELEVANT != 0 {
                    continue;
                }
                if !g.is_passthrough(r) {
                    *s |= RELEVANT;
                    consumers.push(r);
                } else if *s & LIVE != 0 {
                    *s |= RELEVANT;
                    boxes.push(r);
                }
            }
        };
        for &leaf in &leaves {
            relevant(leaf, &mut state, &mut boxes, &mut edges);
        }
        let mut next = 0;
        while next < boxes.len() {
            let b = boxes[next];
            next += 1;
            relevant(b, &mut state, &mut boxes, &mut edges);
        }
        consumers.sort_unstable();
        Some(Finals {
            state,
            leaf_name,
            boxes,
            consumers,
            edges,
        })
    }

    pub fn is_final_leaf(&self, node: NodeIx) -> bool {
        self.leaf_name[node as usize] != NOT_A_CANDIDATE
    }

    /// The relevant boxes (`is_relevant_box`), in the order found.
    pub fn relevant_boxes(&self) -> &[NodeIx] {
        &self.boxes
    }

    /// The name of final leaf `node`; NOT_A_CANDIDATE for any other node.
    pub fn name_of(&self, node: NodeIx) -> NameIx {
        self.leaf_name[node as usize]
    }

    /// Whether `node` is a relevant box: one a final leaf reaches, that
    /// reaches a consumer. Only such boxes can be on a path of a clash.
    pub fn is_relevant_box(&self, g: &ToolGraph<'_>, node: NodeIx) -> bool {
        g.is_passthrough(node) && self.state[node as usize] & RELEVANT != 0
    }
}

/// A fingerprint of a class's own leaves and input classes.
fn class_print(own: &[NodeIx], inputs: &[ClassIx]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ own.len() as u64;
    for &x in own.iter().chain(inputs) {
        h = (h ^ u64::from(x)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
}

/// Drops repeats from the sorted `list[from..]`.
pub(super) fn dedup_tail(list: &mut Vec<NodeIx>, from: usize) {
    let mut kept = from;
    for i in from..list.len() {
        if kept == from || list[i] != list[kept - 1] {
            list[kept] = list[i];
            kept += 1;
        }
    }
    list.truncate(kept);
}

/// The strongly connected components of the relevant boxes over tool
/// edges between them (iterative Tarjan): per box (by its index in
/// `boxes`), its component, numbered in topological order; and how many.
fn units(g: &ToolGraph<'_>, boxes: &[NodeIx], ordinal: &[u32], edges: &mut u64) -> (Vec<u32>, u32) {
    let count = boxes.len();
    let mut index = vec![NONE; count];
    let mut low = vec![0u32; count];
    let mut on_stack = vec![false; count];
    let mut stack: Vec<u32> = Vec::new();
    let mut component = vec![NONE; count];
    let mut found = 0u32;
    let mut next_index = 0u32;
    // The walk: (box, position in its receiver list).
    let mut walk: Vec<(u32, usize)> = Vec::new();
    for root in 0..count as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        walk.push((root, 0));
        index[root as usize] = next_index;
        low[root as usize] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut at)) = walk.last_mut() {
            let receivers = g.passthrough_receivers.of(boxes[v as usize]);
            if let Some(&r) = receivers.get(*at) {
                *at += 1;
                *edges += 1;
                let w = ordinal[r as usize];
                if w == NONE {
                    continue; // not relevant
                }
                if index[w as usize] == NONE {
                    index[w as usize] = next_index;
                    low[w as usize] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    walk.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            walk.pop();
            if let Some(&(u, _)) = walk.last() {
                low[u as usize] = low[u as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w as usize] = false;
                    component[w as usize] = found;
                    if w == v {
                        break;
                    }
                }
                found += 1;
            }
        }
    }
    // Tarjan finds a component after every component it reaches: reverse.
    for c in &mut component {
        *c = found - 1 - *c;
    }
    (component, found)
}

/// Depth to the path root and skew-binary jump pointers for each node of
/// the parent forest. A parent cycle cannot occur among relevant nodes (a
/// cycle of boxes that a leaf reaches has a box with a second input or a
/// leaf of its own); should one occur anyway, the node that closes it
/// becomes a root.
/// Also each node's nearest proper ancestor that `has_own` leaves or is a
/// root (`PathFacts::own_up`), and how many such steps reach the root.
fn depths(parent: &mut [u32], has_own: impl Fn(u32) -> bool, items: &mut u64) -> Forest {
    let count = parent.len();
    let mut depth = vec![NONE; count];
    let mut jump = vec![NONE; count];
    let mut own_up = vec![NONE; count];
    let mut own_rank = vec![0; count];
    let mut on_chain = vec![false; count];
    let mut chain: Vec<u32> = Vec::new();
    for start in 0..count as u32 {
        let mut v = start;
        while depth[v as usize] == NONE {
            *items += 1;
            on_chain[v as usize] = true;
            chain.push(v);
            let p = parent[v as usize];
            if p == NONE {
                break;
            }
            if on_chain[p as usize] {
                parent[v as usize] = NONE; // a cycle: v becomes a root
                break;
            }
            v = p;
        }
        while let Some(v) = chain.pop() {
            on_chain[v as usize] = false;
            let p = parent[v as usize];
            if p == NONE {
                depth[v as usize] = 0;
                jump[v as usize] = v;
                continue;
            }
            depth[v as usize] = depth[p as usize] + 1;
            own_up[v as usize] = if has_own(p) || parent[p as usize] == NONE {
                p
            } else {
                own_up[p as usize]
            };
            own_rank[v as usize] = own_rank[own_up[v as usize] as usize] + 1;
            // Myers' skew-binary jumps: jump twice as far when the parent's
            // two jumps span equal distances.
            let j = jump[p as usize];
            let jj = jump[j as usize];
            jump[v as usize] = if depth[p as usize] - depth[j as usize] == depth[j as usize] - depth[jj as usize] {
                jj
            } else {
                p
            };
        }
    }
    (depth, jump, own_up, own_rank)
}

/// Depth, jumps, `own_up` and `own_rank` of each node of a parent forest.
type Forest = (Vec<u32>, Vec<u32>, Vec<u32>, Vec<u32>);
