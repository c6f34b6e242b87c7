//! CMP-9 violations stored by cause, never copied per consumer.
//!
//! A violation is a pair (consumer, name) (SEMANTICS 6), and a workflow can
//! have far more of them than it has bytes: one toolbox holding 1,000 pairs
//! of clashing tools, wired into 10,000 agents, makes 10,000,000 from a
//! 2 MB file. So nothing here is per violation:
//!
//! - each toolbox wired straight into a consumer (a *root*) has one
//!   [`View`]: the clashes inside it, and one tree of shortest paths;
//! - consumers wired the same way (the same roots, the same candidate
//!   tools wired straight in) form one [`Class`], whose clashes are a
//!   parent list (a root's clashes, or a *kit*: the class of the roots it
//!   shares with other consumers) shared by reference, plus an overlay of
//!   what its other sources add. A consumer with a toolbox of its own
//!   beside shared ones thus pays only for its own toolbox;
//! - violation `i` is found by binary search over the consumers' running
//!   counts, then by rank in the class's merged list, and built on access;
//! - clashes with the same tools, name and toolbox form one [`Group`] with
//!   its consumers counted exactly, for reports that show them once.
//!
//! Memory is the views, the classes and the overlays: linear in the input
//! for the shapes measured in the benchmark suite. (Many different sets of
//! shared toolboxes, each combining several clashing ones, pay one overlay
//! each.)

use std::sync::{Arc, Mutex};

use crate::error::Location;
use crate::flatten::{
    box_labels, new_map, CandidateNames, Map, NameIx, PathTree, Reach, TreePath, LABELLED_PATH_NODES,
};
use crate::graph::{NodeIx, ToolGraph};
use crate::report::Rename;

pub(crate) type ViewIx = u32;
pub(crate) type ClassIx = u32;
pub type GroupIx = u32;

/// Two or more distinct tools with one name, somewhere.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Clash {
    pub name: NameIx,
    /// Sorted by id.
    pub leaves: Box<[NodeIx]>,
}

/// A root: a toolbox wired straight into some consumer.
pub(crate) struct View {
    pub tree: PathTree,
    /// The clashes inside this toolbox alone, by name.
    pub clashes: Vec<Clash>,
    /// `groups[k]`: the group of `clashes[k]`.
    pub groups: Vec<GroupIx>,
}

impl View {
    pub fn root(&self) -> NodeIx {
        self.tree.reach.start
    }
}

/// A sorted list of clashes that consumers see: a view's own, or a
/// class's (its parent list merged with its overlay).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum List {
    View(ViewIx),
    Class(ClassIx),
}

/// What a class adds to, or changes in, its parent list.
pub(crate) struct Overlay {
    pub clash: Clash,
    /// Its position in the class's merged list.
    pub at: u32,
    /// Entries up to and including this one that are new names (not
    /// replacing one of the parent's).
    pub inserted: u32,
    pub group: GroupIx,
}

/// Consumers wired the same way, which therefore see the same clashes.
#[derive(Default)]
pub(crate) struct Class {
    /// The roots, by node number.
    pub roots: Box<[ViewIx]>,
    /// The list the overlay is merged into: the largest root's, or the
    /// class of the roots shared with other consumers; None for consumers
    /// with no root.
    pub parent: Option<List>,
    /// By name.
    pub overlay: Vec<Overlay>,
    /// Violations per consumer of the class.
    pub count: u32,
    /// By id; none for a class that only parents others.
    pub consumers: Vec<NodeIx>,
    /// The roots' upstream toolboxes are disjoint, so every path follows
    /// one root's shared tree (its first step is the closest over all
    /// roots). Otherwise the class's paths need a tree of their own.
    pub separate_roots: bool,
}

impl Class {
    /// The parent's names that the overlay replaces (with more tools).
    pub fn replaced_names(&self) -> impl Iterator<Item = NameIx> + '_ {
        let mut inserted_before = 0;
        self.overlay.iter().filter_map(move |o| {
            let replaces = o.inserted == inserted_before;
            inserted_before = o.inserted;
            replaces.then_some(o.clash.name)
        })
    }

    /// New names in the overlay before `name`.
    pub fn inserted_before(&self, names: &CandidateNames, name: &str) -> u32 {
        let j = self.overlay.partition_point(|o| names.name(o.clash.name) < name);
        if j > 0 {
            self.overlay[j - 1].inserted
        } else {
            0
        }
    }
}

/// One part of a group: entry `at` of a list's own (a view's clash `at`,
/// or a class's overlay entry `at`), for every class that sees it there.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Part {
    pub owner: List,
    pub at: u32,
}

/// Violations with the same clashing tools and name, reached through the
/// same toolbox: reported once, naming their consumers.
pub(crate) struct Group {
    pub name: NameIx,
    pub through: Option<NodeIx>,
    pub parts: Vec<Part>,
    /// Consumers (= violations) in the group.
    pub count: u64,
    /// Its first violation, by index.
    pub first: u64,
}

/// The CMP-9 findings of one workflow, with the graph they point into. A
/// report holds `Collisions<'static>`: the ids and labels the findings name,
/// copied out of the input text, which is gone by the time they are read
/// (see `into_owned`).
pub struct Collisions<'a> {
    pub(crate) graph: ToolGraph<'a>,
    pub(crate) names: CandidateNames,
    pub(crate) views: Vec<View>,
    pub(crate) classes: Vec<Class>,
    /// Per list (a view, or a class that parents others): the classes
    /// that see it, itself and below, that have consumers, by first consumer.
    pub(crate) under: Map<List, Vec<ClassIx>>,
    /// Per list: the consumers of the classes in `under`.
    pub(crate) consumers_under: Map<List, u64>,
    /// Per class: its consumers and those of the classes it parents.
    pub(crate) subtree_consumers: Vec<u64>,
    /// The classes (sorted) whose overlay replaces a list's own clash of a
    /// name, where that list is where the clash comes from.
    pub(crate) replaced: Map<(List, NameIx), Vec<ClassIx>>,
    /// Consumers with a violation, by id, with their class.
    pub(crate) consumers: Vec<(NodeIx, ClassIx)>,
    /// `starts[i]`: violations before `consumers[i]`; one more entry, the total.
    pub(crate) starts: Vec<u64>,
    pub(crate) groups: Vec<Group>,
    pub(crate) renames: Map<NodeIx, Rename>,
    pub(crate) locations: Map<NodeIx, Location>,
    /// Path trees of classes whose roots overlap, most recently used last:
    /// a few at a time, made again when needed, so reading every path of
    /// many such classes costs time but never holds all their trees.
    pub(crate) class_trees: Mutex<Vec<(ClassIx, Arc<PathTree>)>>,
}

/// How many classes' own path trees are kept at once.
const CLASS_TREES_KEPT: usize = 4;

/// The tree a path is read from: a root's, shared by the whole report, or
/// a class's own, shared while it is in use.
#[derive(Clone)]
enum TreeRef<'r> {
    Root(&'r PathTree),
    Class(Arc<PathTree>),
}

impl TreeRef<'_> {
    fn get(&self) -> &PathTree {
        match self {
            TreeRef::Root(tree) => tree,
            TreeRef::Class(tree) => tree,
        }
    }
}

/// One CMP-9 violation, read from [`Collisions`] on demand.
#[derive(Clone, Copy)]
pub struct Collision<'r> {
    set: &'r Collisions<'r>,
    consumer: NodeIx,
    class: ClassIx,
    clash: &'r Clash,
    group: GroupIx,
}

/// One tool of a violation.
#[derive(Clone)]
pub struct CollidingTool<'r> {
    set: &'r Collisions<'r>,
    node: NodeIx,
    path: TreePath,
    tree: TreeRef<'r>,
}

impl Collisions<'static> {
    pub(crate) fn empty() -> Collisions<'static> {
        Collisions {
            graph: ToolGraph::empty(),
            names: CandidateNames {
                names: Vec::new(),
                by_hash: Vec::new(),
                of_node: Vec::new(),
            },
            views: Vec::new(),
            classes: Vec::new(),
            under: new_map(),
            consumers_under: new_map(),
            subtree_consumers: Vec::new(),
            replaced: new_map(),
            consumers: Vec::new(),
            starts: vec![0],
            groups: Vec::new(),
            renames: new_map(),
            locations: new_map(),
            class_trees: Mutex::default(),
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
        Some(self.nth_of_class(consumer, class, (index - self.starts[at]) as u32))
    }

    /// The `k`th violation (`k` below the class's count) of `consumer`, of
    /// class `class`.
    pub(crate) fn nth_of_class(&self, consumer: NodeIx, class: ClassIx, k: u32) -> Collision<'_> {
        let (clash, group) = self.nth(List::Class(class), k);
        Collision {
            set: self,
            consumer,
            class,
            clash,
            group,
        }
    }

    /// The `k`th clash of a list, and its group: an overlay entry where one
    /// stands at that position, else the parent's clash below it.
    fn nth(&self, list: List, k: u32) -> (&Clash, GroupIx) {
        match list {
            List::View(v) => {
                let view = &self.views[v as usize];
                (&view.clashes[k as usize], view.groups[k as usize])
            }
            List::Class(c) => {
                let class = &self.classes[c as usize];
                let j = class.overlay.partition_point(|o| o.at <= k);
                if j > 0 && class.overlay[j - 1].at == k {
                    let o = &class.overlay[j - 1];
                    return (&o.clash, o.group);
                }
                let inserted = if j > 0 { class.overlay[j - 1].inserted } else { 0 };
                let parent = class.parent.expect("a class without a parent has only overlay entries");
                self.nth(parent, k - inserted)
            }
        }
    }

    /// The groups, in the order of their first violations.
    pub fn group_count(&self) -> usize {
        self.groups.len()
    }

    pub fn group(&self, group: GroupIx) -> GroupRef<'_> {
        GroupRef { set: self, group }
    }

    /// The index of the violation (`consumer`, `clash` of `class`), by rank.
    fn index_of(&self, consumer: NodeIx, class: ClassIx, rank: u32) -> u64 {
        let g = &self.graph;
        let key = g.id(consumer);
        let at = self.consumers.partition_point(|&(c, _)| g.id(c) < key);
        debug_assert_eq!(self.consumers[at], (consumer, class));
        self.starts[at] + u64::from(rank)
    }

    /// The clash a part stands for.
    pub(crate) fn clash_of(&self, part: Part) -> &Clash {
        match part.owner {
            List::View(v) => &self.views[v as usize].clashes[part.at as usize],
            List::Class(c) => &self.classes[c as usize].overlay[part.at as usize].clash,
        }
    }

    /// The position of a part's clash in `list`, which sees it.
    fn position(&self, list: List, part: Part) -> u32 {
        if list == part.owner {
            return match list {
                List::View(_) => part.at,
                List::Class(c) => self.classes[c as usize].overlay[part.at as usize].at,
            };
        }
        let List::Class(c) = list else {
            unreachable!("a view sees only its own clashes")
        };
        let class = &self.classes[c as usize];
        let parent = class.parent.expect("a list that sees another's clash has a parent");
        let name = self.names.name(self.clash_of(part).name);
        self.position(parent, part) + class.inserted_before(&self.names, name)
    }

    /// The classes that see a part's clash as it is: those under its list,
    /// less those whose overlay (or whose parent's) replaces it.
    fn part_classes(&self, part: Part) -> impl Iterator<Item = ClassIx> + '_ {
        let name = self.clash_of(part).name;
        let replaced = self.replaced.get(&(part.owner, name)).map_or(&[][..], |r| &r[..]);
        let is_replaced = |class: ClassIx| replaced.binary_search(&class).is_ok();
        self.under
            .get(&part.owner)
            .into_iter()
            .flatten()
            .copied()
            .filter(move |&class| {
                let parent_replaced = match self.classes[class as usize].parent {
                    Some(List::Class(p)) if List::Class(p) != part.owner => is_replaced(p),
                    _ => false,
                };
                !is_replaced(class) && !parent_replaced
            })
    }

    /// The first violation of a part, as (consumer, class, rank), if the
    /// part has any consumer.
    pub(crate) fn first_of(&self, part: Part) -> Option<(NodeIx, ClassIx, u32)> {
        let class = self.part_classes(part).next()?;
        let rank = self.position(List::Class(class), part);
        Some((self.classes[class as usize].consumers[0], class, rank))
    }

    pub(crate) fn violation_index(&self, first: (NodeIx, ClassIx, u32)) -> u64 {
        self.index_of(first.0, first.1, first.2)
    }

    /// The consumers (= violations) of a part: those under its list less
    /// those below a class that replaces it.
    pub(crate) fn part_count(&self, part: Part) -> u64 {
        let name = self.clash_of(part).name;
        let all = self.consumers_under.get(&part.owner).copied().unwrap_or(0);
        let replaced: u64 = self
            .replaced
            .get(&(part.owner, name))
            .map_or(0, |r| r.iter().map(|&c| self.subtree_consumers[c as usize]).sum());
        all - replaced
    }

    /// The shortest path of `leaf` to `consumer`, of class `class`, and the
    /// tree to read it from.
    fn path_of(&self, class: ClassIx, leaf: NodeIx, consumer: NodeIx) -> (TreePath, TreeRef<'_>) {
        let c = &self.classes[class as usize];
        let found = if c.separate_roots {
            // The first step closest to the consumer, smallest id among
            // equals (SEMANTICS 6), then that root's own tree.
            c.roots
                .iter()
                .map(|&v| &self.views[v as usize].tree)
                .filter_map(|tree| Some((tree.path(&self.graph, leaf, consumer)?, TreeRef::Root(tree))))
                .min_by(|(a, at), (b, bt)| {
                    let second = |p: &TreePath, t: &TreeRef<'_>| self.graph.id(p.second(&self.graph, t.get()));
                    (a.len(), second(a, at)).cmp(&(b.len(), second(b, bt)))
                })
        } else {
            let tree = self.class_tree(class);
            tree.path(&self.graph, leaf, consumer)
                .map(|p| (p, TreeRef::Class(tree)))
        };
        // Every leaf of a violation reaches its consumer, so a path exists.
        found.unwrap_or_else(|| (TreePath::direct(leaf, consumer), TreeRef::Class(self.class_tree(class))))
    }

    /// The path tree of a class whose roots overlap, from the few kept or
    /// made anew.
    fn class_tree(&self, class: ClassIx) -> Arc<PathTree> {
        let mut kept = self.class_trees.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = kept.iter().position(|(c, _)| *c == class) {
            let entry = kept.remove(at);
            kept.push(entry);
        } else {
            let consumer = self.classes[class as usize].consumers[0];
            let tree = Arc::new(PathTree::new(Reach::from(&self.graph, consumer)));
            if kept.len() == CLASS_TREES_KEPT {
                kept.remove(0);
            }
            kept.push((class, tree));
        }
        Arc::clone(&kept[kept.len() - 1].1)
    }

    pub fn location_of(&self, node: NodeIx) -> Option<Location> {
        self.locations.get(&node).copied()
    }
}

impl<'r> Collision<'r> {
    pub fn consumer(&self) -> &'r str {
        self.set.graph.id(self.consumer)
    }

    pub fn name(&self) -> &'r str {
        self.set.names.name(self.clash.name)
    }

    /// The consumer's node object (or first tool edge into it).
    pub fn location(&self) -> Option<Location> {
        self.set.location_of(self.consumer)
    }

    /// The group this violation is reported in.
    pub fn group(&self) -> GroupIx {
        self.group
    }

    /// The colliding tools, by id, each with its path to the consumer.
    pub fn tools(&self) -> Vec<CollidingTool<'r>> {
        self.clash
            .leaves
            .iter()
            .map(|&leaf| {
                let (path, tree) = self.set.path_of(self.class, leaf, self.consumer);
                CollidingTool {
                    set: self.set,
                    node: leaf,
                    path,
                    tree,
                }
            })
            .collect()
    }

    /// `"N tools reaching C share the name n: t1 (label), ..."`.
    pub fn message(&self) -> String {
        let g = &self.set.graph;
        let listed: Vec<String> = self
            .clash
            .leaves
            .iter()
            .map(|&t| format!("{} ({})", crate::quote::quote(g.id(t)), crate::quote::quote(g.label(t))))
            .collect();
        format!(
            "{} tools reaching {} share the name {}: {}",
            listed.len(),
            crate::quote::quote(self.consumer()),
            crate::quote::quote(self.name()),
            listed.join(", ")
        )
    }

    /// The renames of this violation's tools that the workflow's fix makes:
    /// every tool but (at most) one.
    pub fn fix(&self) -> Vec<&'r Rename> {
        self.clash
            .leaves
            .iter()
            .filter_map(|leaf| self.set.renames.get(leaf))
            .collect()
    }

    /// `(id, data.label)` of the toolboxes on the tools' paths whose label
    /// is not their id, by id; only paths of readable length are read.
    pub fn box_labels(&self) -> Vec<(&'r str, &'r str)> {
        let paths: Vec<Vec<NodeIx>> = self
            .tools()
            .iter()
            .filter(|t| t.path.len() <= LABELLED_PATH_NODES)
            .map(|t| t.path.all(&self.set.graph, t.tree.get()))
            .collect();
        box_labels(&self.set.graph, &paths)
    }
}

impl<'r> CollidingTool<'r> {
    pub(crate) fn node(&self) -> NodeIx {
        self.node
    }

    /// The node after the tool on its path.
    pub(crate) fn second(&self) -> NodeIx {
        self.path.second(&self.set.graph, self.tree.get())
    }

    /// The nodes of the tool's path.
    pub(crate) fn path_nodes(&self) -> Vec<NodeIx> {
        self.path.all(&self.set.graph, self.tree.get())
    }

    pub fn id(&self) -> &'r str {
        self.set.graph.id(self.node)
    }

    pub fn label(&self) -> &'r str {
        self.set.graph.label(self.node)
    }

    pub fn location(&self) -> Option<Location> {
        self.set.location_of(self.node)
    }

    pub fn path_len(&self) -> usize {
        self.path.len()
    }

    /// Ids of the path from position `from` to `to` (exclusive).
    pub fn path_ids(&self, from: usize, to: usize) -> Vec<&'r str> {
        let g = &self.set.graph;
        self.path
            .nodes(g, self.tree.get(), from, to)
            .into_iter()
            .map(|n| g.id(n))
            .collect()
    }

    /// The whole path, `[tool, box, ..., consumer]`.
    pub fn path(&self) -> Vec<&'r str> {
        self.path_ids(0, self.path.len())
    }
}

/// A group of violations, read on demand.
#[derive(Clone, Copy)]
pub struct GroupRef<'r> {
    set: &'r Collisions<'r>,
    group: GroupIx,
}

impl<'r> GroupRef<'r> {
    fn inner(&self) -> &'r Group {
        &self.set.groups[self.group as usize]
    }

    pub fn name(&self) -> &'r str {
        self.set.names.name(self.inner().name)
    }

    /// The toolbox that forwards the whole clash to every consumer of the
    /// group, when there is one.
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
    /// by id. Reading the first few is cheap however many there are.
    pub fn consumers(&self, from: usize, to: usize) -> Vec<&'r str> {
        let set = self.set;
        let g = &set.graph;
        let mut lists: Vec<&[NodeIx]> = Vec::new();
        for &part in &self.inner().parts {
            lists.extend(
                set.part_classes(part)
                    .map(|class| &set.classes[class as usize].consumers[..]),
            );
        }
        // A k-way merge by id, over lists sorted by id and disjoint.
        let mut heads = vec![0usize; lists.len()];
        let mut out = Vec::new();
        let mut position = 0;
        while position < to {
            let next = (0..lists.len())
                .filter(|&l| heads[l] < lists[l].len())
                .min_by_key(|&l| g.id(lists[l][heads[l]]));
            let Some(l) = next else { break };
            if position >= from {
                out.push(g.id(lists[l][heads[l]]));
            }
            heads[l] += 1;
            position += 1;
        }
        out
    }
}
