//! Reading findings: violations by index, each clash once (a group), and
//! each tool's path, built when asked for.
//!
//! One module, though long: a violation, its tools with their paths, and a
//! group are three views read by index off the same stored clashes and classes,
//! each defined by the others (a group is the violations of one clash, a
//! violation's tools are its clash's), and all three use the same small lookups
//! (`clash`, `node`, `wired`). Split, no one file would show how the views
//! agree.
//!
//! Renames are chosen in `renames`, before the findings keep only what
//! they name (`settled`).

use crate::flatten::{box_labels, LABELLED_PATH_NODES};
use crate::graph::{NodeIx, ToolGraph};
use crate::locate::Location;
use crate::maps::{new_map, Map};
use crate::quote::quote;
use crate::report::Rename;
use crate::work::{Step, Work};

use std::sync::Arc;

use super::flow::{ClassIx, Flow};
use super::paths::{Paths, TreePath, Wiring};
use super::sets::{FirstRanks, Held, SetId, Sets, Words};
use super::tokens::Layout;
use super::{Clash, ClashIx, Clashes, Collisions, GroupIx, PartWords};

/// How many classes held as parts keep their combined words at once.
const PART_WORDS_KEPT: usize = 4;

/// What reading classes held as parts keeps (see `Collisions::nth`).
#[derive(Default)]
pub(crate) struct PartReads {
    /// The combined words of the few combinations of parts read last.
    kept: Vec<(Box<[SetId]>, Arc<PartWords>)>,
    /// Per combination of parts whose words are not kept, the nodes the
    /// walks down them could have visited since the words were last made.
    rent: Map<Box<[SetId]>, u64>,
    /// The words found last by walking down parts: a violation's tools,
    /// and each of their paths, read one at a time read the violation
    /// again each time, and violations read in order are the clashes of
    /// one word after another.
    recent: Vec<Found>,
}

/// A word of a class held as parts, found by walking down its parts: the
/// class's clashes `first..end` are the word's.
struct Found {
    class: ClassIx,
    first: u64,
    end: u64,
    word: u32,
    value: u64,
}

/// How many clashes found by walking down parts are remembered.
const RECENT_KEPT: usize = 8;

/// One CMP-9 violation, read from [`Collisions`] on demand.
#[derive(Clone, Copy)]
pub struct Collision<'r> {
    set: &'r Collisions<'r>,
    /// The consumer's relevant ordinal.
    pub(super) consumer: u32,
    clash: ClashIx,
}

/// One tool of a violation.
#[derive(Clone)]
pub struct CollidingTool<'r> {
    set: &'r Collisions<'r>,
    path: TreePath,
}

/// A clash, reported once for every consumer that sees it.
#[derive(Clone, Copy)]
pub struct GroupRef<'r> {
    set: &'r Collisions<'r>,
    clash: ClashIx,
}

impl Collisions<'static> {
    pub(crate) fn empty() -> Collisions<'static> {
        Collisions {
            graph: ToolGraph::empty(),
            names: crate::names::CandidateNames {
                names: Vec::new(),
                by_hash: Vec::new(),
                of_node: Vec::new(),
            },
            flow: Flow::empty(),
            layout: Layout::empty(),
            sets: Sets::new(0),
            held: Vec::new(),
            part_words: Default::default(),
            carried: Default::default(),
            listing: Default::default(),
            consumers: Vec::new(),
            starts: vec![0],
            clashes: Clashes::default(),
            renames: new_map(),
            locations: new_map(),
            paths: Paths::default(),
            moved: Default::default(),
            work: Work::default(),
        }
    }
}

impl<'a> Collisions<'a> {
    /// The number of violations: exact, however many.
    pub fn len(&self) -> u64 {
        *self.starts.last().unwrap_or(&0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Violation `index`, in SEMANTICS order (by consumer id, then name).
    pub fn get(&self, index: u64) -> Option<Collision<'_>> {
        if index >= self.len() {
            return None;
        }
        let at = self.starts.partition_point(|&s| s <= index) - 1;
        let (consumer, class) = self.consumers[at];
        self.work.add(Step::Probe, 1);
        if let Some(clash) = self.clashes.first_at(index) {
            return Some(self.first_violation(clash));
        }
        let (word, value, k) = self.nth(class, index - self.starts[at]);
        let (segment, held) = (self.layout.clashes_in(word, value))
            .nth(k as usize)
            .expect("a word holds as many clashes as its count says");
        self.work.add(Step::Probe, 1);
        let clash = (self.clashes.of(segment as u32, held)).expect("every clash a word holds is a clash");
        Some(Collision {
            set: self,
            consumer,
            clash,
        })
    }

    /// The word holding the `k`th clash of `class`, its value, and the
    /// clash's place among the word's (see `Sets::nth`).
    ///
    /// A class held as parts: its parts walked down together
    /// (`Sets::nth_of`, at most 16 parts x depth nodes), unless their
    /// combined words are kept. Those are made (every word of every part)
    /// once the walks down the same parts have cost as much since they
    /// were last made: reading a class's many violations in order pays
    /// for its words once, and reading one violation each of many classes
    /// holding many words that clash little (parts of a hub box seen by
    /// every agent) never pays for them. So the words made cost at most
    /// the walks they save, and a read O(16 x depth) amortised.
    fn nth(&self, class: ClassIx, k: u64) -> (u32, u64, u32) {
        let parts = match &self.held[class as usize] {
            Held::One(root) => return self.sets.nth(*root, k),
            Held::Parts(parts) => parts,
        };
        let mut reads = self.part_words.lock().unwrap_or_else(|e| e.into_inner());
        let kept = reads.kept.iter().find(|(p, _)| **p == **parts);
        let words = match kept {
            Some((_, words)) => Arc::clone(words),
            None => {
                let recent = reads
                    .recent
                    .iter()
                    .find(|r| r.class == class && (r.first..r.end).contains(&k));
                if let Some(r) = recent {
                    return (r.word, r.value, (k - r.first) as u32);
                }
                self.work.add(Step::Probe, 1);
                let walk = self.sets.nth_of_cost(parts.len());
                let all: u64 = parts.iter().map(|&p| self.sets.words(p)).sum();
                let rent = reads.rent.entry(parts.clone()).or_insert(0);
                *rent += walk;
                if *rent < all {
                    let (word, value, place) = self.sets.nth_of(parts, k);
                    if reads.recent.len() == RECENT_KEPT {
                        reads.recent.remove(0);
                    }
                    let first = k - u64::from(place);
                    let end = first + u64::from(self.layout.clashes(word, value));
                    reads.recent.push(Found {
                        class,
                        first,
                        end,
                        word,
                        value,
                    });
                    return (word, value, place);
                }
                reads.rent.remove(parts);
                let made = Arc::new(self.part_words(parts));
                if reads.kept.len() == PART_WORDS_KEPT {
                    reads.kept.remove(0);
                }
                reads.kept.push((parts.clone(), Arc::clone(&made)));
                made
            }
        };
        drop(reads);
        let at = words.before.partition_point(|&b| b <= k) - 1;
        let (word, value) = words.words[at];
        (word, value, (k - words.before[at]) as u32)
    }

    /// The combined words of a class held as parts, with the clashes
    /// before each: every word of every part listed (and counted).
    fn part_words(&self, parts: &[SetId]) -> PartWords {
        let mut all = Vec::new();
        for &part in parts {
            self.sets.words_of(part, &mut all);
        }
        self.work.add(Step::SetNode, all.len() as u64);
        all.sort_unstable_by_key(|&(w, _)| w);
        let mut words: Vec<(u32, u64)> = Vec::with_capacity(all.len());
        for (w, v) in all {
            match words.last_mut() {
                Some(last) if last.0 == w => last.1 |= v,
                _ => words.push((w, v)),
            }
        }
        let mut before = Vec::with_capacity(words.len());
        let mut total = 0u64;
        for &(w, v) in &words {
            before.push(total);
            total += u64::from(self.layout.clashes(w, v));
        }
        PartWords { words, before }
    }

    /// The first violation of a clash: at its first consumer.
    pub(super) fn first_violation(&self, clash: ClashIx) -> Collision<'_> {
        let rank = self.clashes.first_consumers(self.clash(clash))[0];
        Collision {
            set: self,
            consumer: self.consumers[rank as usize].0,
            clash,
        }
    }

    /// The clashes (groups), in the order of their first violations.
    pub fn group_count(&self) -> usize {
        self.clashes.len()
    }

    pub fn group(&self, group: GroupIx) -> GroupRef<'_> {
        GroupRef {
            set: self,
            clash: group,
        }
    }

    pub fn location_of(&self, node: NodeIx) -> Option<Location> {
        self.locations.get(&node).copied()
    }

    /// Every deterministic work counter, by name, then their total.
    pub fn work(&self) -> Vec<(&'static str, u64)> {
        self.work.add(
            Step::SetNode,
            self.sets.reads.swap(0, std::sync::atomic::Ordering::Relaxed),
        );
        self.work.named()
    }

    fn clash(&self, clash: ClashIx) -> &Clash {
        self.clashes.get(clash)
    }

    /// The clash's leaves, sorted by id.
    fn leaves(&self, clash: ClashIx) -> &[NodeIx] {
        self.clashes.leaves(self.clash(clash))
    }

    pub(super) fn node(&self, ordinal: u32) -> NodeIx {
        self.flow.paths.nodes[ordinal as usize]
    }

    /// Whether `leaf` reaches the relevant node of ordinal `o`: its class
    /// holds a token of the leaf.
    pub(super) fn carries(&self, leaf: NodeIx, o: u32) -> bool {
        let class = self.flow.class_of[o as usize];
        self.work.add(Step::Probe, 1);
        if self.moved.onto(leaf, self.node(o)) {
            return true;
        }
        let mut known = self.carried.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&carries) = known.get(&(leaf, class)) {
            return carries;
        }
        let held = &self.held[class as usize];
        let carries = self.layout.holds_leaf(leaf, |word| held.value_at(&self.sets, word));
        known.insert((leaf, class), carries);
        carries
    }

    /// `read` with what paths are read from; its steps counted.
    fn wired<R>(&self, read: impl FnOnce(Wiring<'_, '_>, &mut u64) -> R) -> R {
        let carries = |leaf: NodeIx, o: u32| self.carries(leaf, o);
        let wiring = Wiring {
            g: &self.graph,
            facts: &self.flow.paths,
            ordinal: &self.flow.ordinal,
            carries: &carries,
        };
        let mut steps = 0;
        let result = read(wiring, &mut steps);
        self.work.add(Step::PathStep, steps);
        result
    }

    fn path(&self, leaf: NodeIx, consumer: u32) -> TreePath {
        self.wired(|w, steps| self.paths.path(w, leaf, consumer, steps))
    }

    /// Nodes `from..to` of `path`; a leaf moved onto a kept twin has its
    /// first box put back where the path steps into the kept twin first
    /// (see `twins`).
    fn path_nodes(&self, path: &TreePath, from: usize, to: usize) -> Vec<NodeIx> {
        let mut nodes = self.wired(|w, steps| self.paths.nodes(w, path, from, to, steps));
        if (from..to).contains(&1) {
            if let Some((kept, first)) = self.moved.of_leaf(path.leaf()) {
                if nodes[1 - from] == kept {
                    nodes[1 - from] = first;
                }
            }
        }
        nodes
    }

    /// Whether consumer number `rank` (among those with a violation) sees
    /// `clash`.
    fn sees(&self, rank: usize, clash: &Clash) -> bool {
        let (_, class) = self.consumers[rank];
        let value = self.held[class as usize].value_at(&self.sets, clash.word);
        value != 0 && self.layout.held(clash.segment as usize, value) == clash.held
    }

    /// The nodes the violations name (consumers and tools), each once, in
    /// order: marked, not gathered and sorted (gathered, the clashes' tools
    /// were a second copy of their list, 39 MB of `ring-crowd` at 1,000).
    pub(crate) fn nodes_to_locate(&self) -> Vec<NodeIx> {
        let mut named = vec![false; self.graph.node_count()];
        for &(o, _) in &self.consumers {
            named[self.node(o) as usize] = true;
        }
        for clash in self.clashes.iter() {
            for &leaf in self.clashes.leaves(clash) {
                named[leaf as usize] = true;
            }
        }
        (0..named.len() as NodeIx).filter(|&n| named[n as usize]).collect()
    }

    /// Renames chosen, then only what the findings name kept. Renames look
    /// at every tool's name, so they are chosen while the whole graph is
    /// still at hand.
    pub(crate) fn settled(mut self, named: &[NodeIx], allow_thread: bool) -> Collisions<'static> {
        self.settle_renames();
        self.into_owned(named, allow_thread)
    }

    /// The findings with their own copy of what they name: the ids of
    /// `named` (the consumers and tools of the violations) and of every box
    /// a path can step through, with their labels. Nothing else of the
    /// workflow is copied, and the candidate names' hash table, which only
    /// choosing renames needed, is dropped.
    fn into_owned(self, named: &[NodeIx], allow_thread: bool) -> Collisions<'static> {
        let mut keep = vec![false; self.graph.node_count()];
        for &node in named.iter().chain(&self.flow.paths.nodes) {
            keep[node as usize] = true;
        }
        let mut names = self.names;
        names.by_hash = Vec::new();
        Collisions {
            graph: self.graph.into_owned(|node| keep[node as usize], allow_thread),
            names,
            flow: self.flow,
            layout: self.layout,
            sets: self.sets,
            held: self.held,
            part_words: Default::default(),
            carried: self.carried,
            listing: self.listing,
            consumers: self.consumers,
            starts: self.starts,
            clashes: self.clashes,
            renames: self.renames,
            locations: self.locations,
            paths: Paths::default(),
            moved: self.moved,
            work: self.work,
        }
    }
}

impl<'r> Collision<'r> {
    pub fn consumer(&self) -> &'r str {
        self.set.graph.id(self.set.node(self.consumer))
    }

    pub fn name(&self) -> &'r str {
        self.set.names.name(self.set.clash(self.clash).name)
    }

    /// The consumer's node object (or first tool edge into it).
    pub fn location(&self) -> Option<Location> {
        self.set.location_of(self.set.node(self.consumer))
    }

    /// The group (the clash) this violation is reported in.
    pub fn group(&self) -> GroupIx {
        self.clash
    }

    /// The colliding tools, by id, each with its path to the consumer.
    pub fn tools(&self) -> Vec<CollidingTool<'r>> {
        (self.set.leaves(self.clash).iter())
            .map(|&leaf| CollidingTool {
                set: self.set,
                path: self.set.path(leaf, self.consumer),
            })
            .collect()
    }

    /// Colliding tool `i` (by id), with its path: one path found, not all.
    pub fn tool(&self, i: usize) -> Option<CollidingTool<'r>> {
        let leaf = *self.set.leaves(self.clash).get(i)?;
        Some(CollidingTool {
            set: self.set,
            path: self.set.path(leaf, self.consumer),
        })
    }

    /// `"N tools reaching C share the name n: t1 (label), ..."`.
    pub fn message(&self) -> String {
        let g = &self.set.graph;
        let leaves = self.set.leaves(self.clash);
        let listed: Vec<String> = leaves
            .iter()
            .map(|&t| format!("{} ({})", quote(g.id(t)), quote(g.label(t))))
            .collect();
        format!(
            "{} tools reaching {} share the name {}: {}",
            listed.len(),
            quote(self.consumer()),
            quote(self.name()),
            listed.join(", ")
        )
    }

    /// The renames of this violation's tools that the workflow's fix makes:
    /// every tool but (at most) one.
    pub fn fix(&self) -> Vec<&'r Rename> {
        (self.set.leaves(self.clash).iter())
            .filter_map(|leaf| self.set.renames.get(leaf))
            .collect()
    }

    /// `(id, data.label)` of the toolboxes on the paths of `tools` (a
    /// collision's, already read) whose label is not their id, by id; only
    /// paths of readable length are read.
    pub fn box_labels_of(tools: &[CollidingTool<'r>]) -> Vec<(&'r str, &'r str)> {
        let Some(first) = tools.first() else { return Vec::new() };
        let paths: Vec<Vec<NodeIx>> = (tools.iter())
            .filter(|t| t.path_len() <= LABELLED_PATH_NODES)
            .map(|t| t.path_nodes())
            .collect();
        box_labels(&first.set.graph, &paths)
    }
}

impl<'r> CollidingTool<'r> {
    pub(crate) fn node(&self) -> NodeIx {
        self.path.leaf()
    }

    /// The node after the tool on its path.
    pub(crate) fn second(&self) -> NodeIx {
        self.set.path_nodes(&self.path, 1, 2)[0]
    }

    /// Whether `node` is on the tool's path.
    pub(crate) fn path_contains(&self, node: NodeIx) -> bool {
        if let Some((kept, first)) = self.set.moved.of_leaf(self.node()) {
            if node == first || node == kept {
                // A path that steps into the kept twin first has the twin
                // put back there, and is as near as it from then on: the
                // kept twin is on it no more. One that steps into the twin
                // (a near twin, toward a consumer of its own) ends there.
                // One that steps elsewhere first never steps into the twin,
                // which vanished or is as near as the kept one.
                let second = (self.set).wired(|w, steps| self.set.paths.nodes(w, &self.path, 1, 2, steps))[0];
                if second == kept || second == first || node == first {
                    return (second == kept || second == first) && node == first;
                }
            }
        }
        (self.set).wired(|w, steps| self.set.paths.contains(w, &self.path, node, steps))
    }

    /// The nodes of the tool's path.
    pub(crate) fn path_nodes(&self) -> Vec<NodeIx> {
        self.set.path_nodes(&self.path, 0, self.path_len())
    }

    pub fn id(&self) -> &'r str {
        self.set.graph.id(self.node())
    }

    pub fn label(&self) -> &'r str {
        self.set.graph.label(self.node())
    }

    pub fn location(&self) -> Option<Location> {
        self.set.location_of(self.node())
    }

    pub fn path_len(&self) -> usize {
        self.path.len(&self.set.flow.paths)
    }

    /// Ids of the path from position `from` to `to` (exclusive).
    pub fn path_ids(&self, from: usize, to: usize) -> Vec<&'r str> {
        let g = &self.set.graph;
        (self.set.path_nodes(&self.path, from, to).into_iter())
            .map(|n| g.id(n))
            .collect()
    }

    /// The whole path, `[tool, box, ..., consumer]`.
    pub fn path(&self) -> Vec<&'r str> {
        self.path_ids(0, self.path_len())
    }
}

impl<'r> GroupRef<'r> {
    fn inner(&self) -> &'r Clash {
        self.set.clash(self.clash)
    }

    pub fn name(&self) -> &'r str {
        self.set.names.name(self.inner().name)
    }

    /// The toolbox every tool of the clash is wired into, when there is one:
    /// where the clash forms.
    pub fn through(&self) -> Option<&'r str> {
        self.inner().through.map(|n| self.set.graph.id(n))
    }

    /// The number of consumers (and of violations) in the group.
    pub fn count(&self) -> u64 {
        self.inner().count
    }

    /// Its first violation, by index in the report's CMP-9 violations.
    pub fn first(&self) -> u64 {
        self.inner().first
    }

    /// The ids of its consumers from position `from` to `to` (exclusive),
    /// by id (see `Collisions::consumer_ranks`).
    pub fn consumers(&self, from: usize, to: usize) -> Vec<&'r str> {
        let set = self.set;
        (set.consumer_ranks(self.clash, from, to).into_iter())
            .map(|rank| set.graph.id(set.node(set.consumers[rank as usize].0)))
            .collect()
    }
}

/// The most consumers of each clash listed from the sets at once; past
/// them, consumers are looked for one by one.
const LISTED: usize = 128;

/// A scan for a clash's consumers may look at this many consumers for
/// each one it finds, and a few more, before the first `LISTED` of every
/// clash are listed from the sets instead.
const SCAN_PER_FOUND: usize = 4;
const SCAN_SLACK: usize = 64;

/// Clashes' consumers past their first few, as far as they were read.
#[derive(Default)]
pub(crate) struct Listing {
    /// The first `LISTED` consumers (as ranks) of every clash with more
    /// than its first few, once a scan for them was too sparse.
    first: Option<Map<ClashIx, Box<[u32]>>>,
    /// Where the last scan stopped: (clash, position, next rank), so that
    /// reading a clash's consumers a stretch at a time looks at each
    /// consumer once.
    cursor: Option<(ClashIx, usize, usize)>,
}

impl Collisions<'_> {
    /// The consumers of `clash` from position `from` to `to`, as ranks.
    ///
    /// Cost: the first few are known from the check. Past them, the
    /// consumers with a violation after the last one found are looked up
    /// in their sets, resuming where the last read of the clash stopped;
    /// when that finds fewer than one in `SCAN_PER_FOUND` (consumers of
    /// other clashes in between), the first `LISTED` consumers of every
    /// clash are pushed down the sets at once, in O(set nodes * LISTED).
    /// So listing up to `LISTED` consumers of every clash costs at most
    /// that, however the clashes interleave, and listing more of a clash
    /// at most one lookup per consumer with a violation.
    fn consumer_ranks(&self, c: ClashIx, from: usize, to: usize) -> Vec<u32> {
        let clash = self.clash(c);
        let to = to.min(clash.count as usize);
        let known = self.clashes.first_consumers(clash);
        let mut out: Vec<u32> = known.iter().take(to).skip(from).copied().collect();
        if to <= known.len() {
            return out;
        }
        let mut listing = self.listing.lock().unwrap_or_else(|e| e.into_inner());
        // Past the known, from the listed first ones if they were listed,
        // then from where the last scan of this clash stopped.
        let start = from.max(known.len());
        let (mut position, mut rank) = (known.len(), known[known.len() - 1] as usize + 1);
        if let Some(ranks) = listing.first.as_ref().and_then(|first| first.get(&c)) {
            out.extend(ranks.iter().take(to).skip(start));
            if ranks.len() > position {
                (position, rank) = (ranks.len(), ranks[ranks.len() - 1] as usize + 1);
            }
        }
        match listing.cursor {
            Some((at, p, r)) if at == c && p > position && p <= from => (position, rank) = (p, r),
            _ => {}
        }
        let budget = to.saturating_sub(position) * SCAN_PER_FOUND + SCAN_SLACK;
        let mut lookups = 0usize;
        while position < to && rank < self.consumers.len() {
            if lookups == budget && to <= LISTED && listing.first.is_none() {
                self.work.add(Step::SetNode, lookups as u64);
                listing.first = Some(self.list_first());
                drop(listing);
                return self.consumer_ranks(c, from, to);
            }
            lookups += 1;
            if self.sees(rank, clash) {
                if position >= from {
                    out.push(rank as u32);
                }
                position += 1;
            }
            rank += 1;
        }
        listing.cursor = Some((c, position, rank));
        self.work.add(Step::SetNode, lookups as u64);
        out
    }

    /// The first `LISTED` consumers of every clash that has more than its
    /// first few: each class's consumers pushed down the sets to the
    /// leaves that hold such a clash, at most `LISTED` through any node.
    fn list_first(&self) -> Map<ClashIx, Box<[u32]>> {
        let more = |c: ClashIx| {
            let clash = self.clash(c);
            clash.count as usize > self.clashes.first_consumers(clash).len()
        };
        let clashes_at = |word: u32, value: u64| {
            (self.layout.clashes_in(word, value)).filter_map(|(segment, held)| self.clashes.of(segment as u32, held))
        };
        let leaves: Vec<(usize, u32, u64)> = self.sets.leaf_words().collect();
        let wanted: Vec<bool> = (leaves.iter())
            .map(|&(_, word, value)| clashes_at(word, value).any(more))
            .collect();
        // Leaf ids count from 1.
        let above = self.sets.above(|id| wanted[id - 1]);
        let mut of_class: Map<ClassIx, Vec<u32>> = new_map();
        for (rank, &(_, class)) in self.consumers.iter().enumerate() {
            let ranks = of_class.entry(class).or_default();
            if ranks.len() < LISTED {
                ranks.push(rank as u32);
            }
        }
        let roots = of_class.iter().flat_map(|(&class, ranks)| {
            let carried = FirstRanks {
                ranks: ranks.clone(),
                limit: LISTED as u32,
            };
            (self.held[class as usize].parts().iter()).map(move |&part| (part, carried.clone()))
        });
        let at_leaf = self.sets.push_down(roots, Some(&above), &mut ());
        // A clash's consumers are those of its leaves (each consumer holds
        // one value of the clash's word): gathered, then the first kept,
        // sorting whenever twice as many as kept are gathered.
        let mut first: Map<ClashIx, Vec<u32>> = new_map();
        let mut probes = 0u64;
        let keep_first = |ranks: &mut Vec<u32>| {
            ranks.sort_unstable();
            ranks.truncate(LISTED);
        };
        for (&(id, word, value), _) in leaves.iter().zip(&wanted).filter(|(_, &w)| w) {
            for c in clashes_at(word, value).filter(|&c| more(c)) {
                let ranks = first.entry(c).or_default();
                ranks.extend_from_slice(&at_leaf[id].ranks);
                probes += 1 + at_leaf[id].ranks.len() as u64;
                if ranks.len() >= 2 * LISTED {
                    keep_first(ranks);
                }
            }
        }
        self.work.add(Step::Probe, probes + self.consumers.len() as u64);
        (first.into_iter())
            .map(|(c, mut ranks)| {
                keep_first(&mut ranks);
                (c, ranks.into())
            })
            .collect()
    }
}

#[cfg(test)]
pub(super) mod tests {
    //! Reading every violation where the consumers are classes held as
    //! parts (attack of session 26, `parts_read_all`).

    use super::*;
    use crate::engine::check_text;
    use crate::{Budget, Config};

    pub(in crate::collisions) fn node(id: &str, ty: &str, label: &str) -> String {
        format!(r#"{{"id": "{id}", "type": "{ty}", "data": {{"label": "{label}"}}}}"#)
    }

    pub(in crate::collisions) fn edge(from: &str, to: &str) -> String {
        format!(r#"{{"source": "{from}", "target": "{to}", "data": {{"edgeType": "tool_availability"}}}}"#)
    }

    /// 16 boxes of n / 16 tools, their names interleaved, their twins in a
    /// box Z that agent zz sees with all 16; a hub H fed by 15 of the
    /// boxes; n agents, each wired to H, to a box C of a clashing pair all
    /// share, and to a box of its own holding a clashing pair: n classes
    /// held as parts, each of 15 n / 16 tokens and two clashes.
    fn parts_read_all(n: usize) -> String {
        let (mut nodes, mut edges) = (Vec::new(), Vec::new());
        for name in ["Z", "H", "C"] {
            nodes.push(node(name, "toolbox", name));
        }
        nodes.push(node("zz", "agent", "zz"));
        edges.push(edge("Z", "zz"));
        for j in 0..16 {
            let b = format!("B{j:02}");
            nodes.push(node(&b, "toolbox", &b));
            edges.push(edge(&b, "zz"));
            if j < 15 {
                edges.push(edge(&b, "H"));
            }
            for k in 0..n / 16 {
                let (u, v) = (format!("u{j}.{k}"), format!("v{j}.{k}"));
                nodes.push(node(&u, "tool", &format!("u{k:05} x{j:02}")));
                nodes.push(node(&v, "tool", &format!("U{k:05}-X{j:02}")));
                edges.extend([edge(&u, &b), edge(&v, "Z")]);
            }
        }
        for (t, label) in [("c0", "Common"), ("c1", "common")] {
            nodes.push(node(t, "tool", label));
            edges.push(edge(t, "C"));
        }
        for i in 0..n {
            let (a, p) = (format!("a{i:05}"), format!("P{i:05}"));
            nodes.push(node(&a, "agent", &a));
            nodes.push(node(&p, "toolbox", &p));
            edges.extend([edge("H", &a), edge("C", &a), edge(&p, &a)]);
            for (t, label) in [
                (format!("o{i}a"), format!("own {i}")),
                (format!("o{i}b"), format!("Own {i}")),
            ] {
                nodes.push(node(&t, "tool", &label));
                edges.push(edge(&t, &p));
            }
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    pub(in crate::collisions) fn total(work: &[(&'static str, u64)]) -> u64 {
        work.iter().find(|(name, _)| *name == "total").map_or(0, |&(_, w)| w)
    }

    /// The work of reading every violation's consumer and name, in order,
    /// and how many there are.
    fn read_all(n: usize) -> (u64, u64) {
        let report = check_text(parts_read_all(n).as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        let before = total(&collisions.work());
        for i in 0..collisions.len() {
            let violation = collisions.get(i).expect("a violation below the count");
            assert!(!violation.consumer().is_empty() && !violation.name().is_empty());
        }
        (total(&collisions.work()) - before, collisions.len())
    }

    #[test]
    fn cmp9_reading_every_violation_of_classes_held_as_parts_costs_their_number() {
        // Each agent's shared clash is found by walking down its parts,
        // not by listing their 15 n / 16 tokens' words, which would make
        // reading them all n x n / 64.
        let (once, count) = read_all(1_000);
        assert_eq!(count, 3 * 1_000 - 8, "zz's n - 8 and each agent's two");
        let (twice, _) = read_all(2_000);
        crate::work::assert_at_most_doubles(once, twice, "");
    }

    #[test]
    fn cmp9_a_path_that_enters_round_a_cycle_of_boxes_holds_each_of_its_boxes() {
        // tA14's path to a0 is tA14, D9, D2, z3, a0, where D9, D2 and z3 are
        // on the cycle D2 -> Q0 -> Q6 -> C1 -> D9 -> D2. tA14 is wired into
        // D9, a provider of D2 whose path root is not above D2's: laid on
        // the path as a chain, it broke the fall of roots that finds a
        // chain by its root, and `path_contains` missed D2 and z3, so tZ0
        // was qualified by D2, which the kept tool comes through too
        // (CONFORMANCE 15). A random attack on renames found it (session 27).
        let nodes = [
            ("tZ0", "tool", "Y"),
            ("tQ2", "tool", "X"),
            ("tZ6", "tool", "Y"),
            ("tA12", "tool", "x"),
            ("tA14", "tool", "y"),
            ("Q0", "toolbox", "LQ0"),
            ("C1", "toolbox", "C1"),
            ("D2", "toolbox", "LD2"),
            ("z3", "toolbox", "Lz3"),
            ("D5", "toolbox", "LD5"),
            ("Q6", "toolbox", "LQ6"),
            ("D7", "toolbox", "D7"),
            ("D9", "toolbox", "LD9"),
            ("a0", "agent", "a0"),
            ("a6", "agent", "a6"),
        ];
        let edges = [
            ("tZ0", "D2"),
            ("tQ2", "a6"),
            ("tZ6", "D7"),
            ("tA12", "D5"),
            ("tA14", "D9"),
            ("Q0", "D2"),
            ("Q0", "Q6"),
            ("C1", "D9"),
            ("D2", "z3"),
            ("D2", "Q0"),
            ("z3", "a0"),
            ("D5", "D9"),
            ("Q6", "C1"),
            ("D7", "z3"),
            ("D7", "a0"),
            ("D9", "D2"),
        ];
        let text = format!(
            r#"{{"nodes": [{}], "edges": [{}]}}"#,
            nodes.map(|(id, ty, label)| node(id, ty, label)).join(","),
            edges.map(|(from, to)| edge(from, to)).join(",")
        );
        let report = check_text(text.as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        let g = &collisions.graph;
        let boxes: Vec<NodeIx> = (0..g.node_count() as NodeIx).filter(|&n| g.is_passthrough(n)).collect();
        for i in 0..collisions.len() {
            for tool in collisions.get(i).expect("a violation").tools() {
                let path = tool.path_nodes();
                for &b in &boxes {
                    assert_eq!(
                        tool.path_contains(b),
                        path.contains(&b),
                        "{} on {:?}",
                        g.id(b),
                        tool.path()
                    );
                }
            }
        }
        let renamed = |id: &str| {
            collisions
                .renames
                .values()
                .find(|r| r.node == id)
                .map(|r| r.new_label.clone())
        };
        assert_eq!(
            renamed("tZ0").as_deref(),
            Some("Y (tZ0)"),
            "the kept tool comes through LD2 too"
        );
    }

    #[test]
    fn cmp9_a_clash_found_by_walking_down_parts_is_the_one_their_combined_words_give() {
        let report = check_text(parts_read_all(200).as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        let mut classes = 0;
        for held in &collisions.held {
            let Held::Parts(parts) = held else { continue };
            classes += 1;
            let words = collisions.part_words(parts);
            for k in 0..held.clashes(&collisions.sets) {
                let at = words.before.partition_point(|&b| b <= k) - 1;
                let (word, value) = words.words[at];
                let combined = (word, value, (k - words.before[at]) as u32);
                assert_eq!(collisions.sets.nth_of(parts, k), combined, "clash {k}");
            }
        }
        assert!(classes >= 200, "the agents are held as parts ({classes} classes)");
    }
}
