//! The CMP-9 check: for every consumer, the names that two or more distinct
//! leaves of its flattened tool set share. Findings are stored by cause
//! (see `collisions`), so a check costs what its input costs, however many
//! (consumer, name) pairs it finds.

use crate::batch::{both, in_parallel};
use crate::collisions::{Clash, Class, ClassIx, Collisions, Group, GroupIx, List, Overlay, Part, View, ViewIx};
use crate::config::Config;
use crate::error::{locate_known, InputError};
use crate::fixes::{closest_edge_type, Renamer};
use crate::flatten::{new_map, CandidateNames, Map, NameIx, PathTree, Reach};
use crate::graph::{NodeIx, ToolGraph};
use crate::interrupt::Interrupt;
use crate::names::NameLoss;
use crate::parse::parse_with;
use crate::report::{EdgeTypeViolation, Report, Stats, Warnings};

/// Parses JSON text and checks it.
pub fn check_bytes(input: &[u8], config: &Config) -> Result<Report, InputError> {
    check_bytes_with(input, config, true, Interrupt::never())
}

/// `check_bytes`, on one thread unless `allow_thread`, stopping early (with
/// an error or a partial report, both to be discarded) on `interrupt`.
pub fn check_bytes_with(
    input: &[u8],
    config: &Config,
    allow_thread: bool,
    interrupt: Interrupt<'_>,
) -> Result<Report, InputError> {
    let graph = parse_with(input, config, allow_thread, interrupt)?;
    Ok(check_graph_with(graph, config, allow_thread, interrupt))
}

/// Checks a workflow a front end has read into a graph.
pub fn check_graph(graph: ToolGraph<'_>, config: &Config) -> Report {
    check_graph_with(graph, config, true, Interrupt::never())
}

/// `check_graph`, on one thread unless `allow_thread`, stopping between
/// consumers on `interrupt` (the report is then partial, to be discarded).
pub fn check_graph_with(graph: ToolGraph<'_>, config: &Config, allow_thread: bool, interrupt: Interrupt<'_>) -> Report {
    let recognised = config.recognised_edge_types();
    // Every place the report names, located in one sweep at the end.
    let mut offsets: Vec<Option<usize>> = Vec::new();
    let edge_violations: Vec<EdgeTypeViolation> = graph
        .unknown_edge_types
        .iter()
        .map(|e| {
            offsets.push(e.place.offset);
            let suggestion = closest_edge_type(&e.edge_type, &recognised);
            EdgeTypeViolation::new(e.place.index, e.id.as_deref(), &e.edge_type, &recognised, suggestion)
        })
        .collect();
    let warnings = warnings(&graph, &mut offsets);

    let mut consumers: Vec<NodeIx> = graph.consumers().collect();
    let stats = Stats {
        nodes: graph.declared,
        edges: graph.edge_count,
        tool_edges: graph.tool_edge_count,
        consumers: consumers.len(),
        passthroughs: graph.declared_passthroughs,
    };
    // The consumers in id order, as findings are reported: sorted on
    // another thread while the names are found, when a thread is allowed
    // (both only read the graph); else only when there is a name to check.
    let (names, consumers) = if allow_thread && consumers.len() >= SORT_BESIDE_FROM_CONSUMERS {
        let sort = || {
            graph.sort_by_id(&mut consumers);
            consumers
        };
        let (consumers, names) = both(true, sort, || CandidateNames::find(&graph, allow_thread));
        (names, consumers)
    } else {
        let names = CandidateNames::find(&graph, allow_thread);
        if names.any() {
            graph.sort_by_id(&mut consumers);
        }
        (names, consumers)
    };
    // With no name carried by two leaves anywhere, nothing can collide and
    // nothing needs flattening.
    let found = if names.any() {
        Found::of(&graph, &names, &consumers, allow_thread, interrupt)
    } else {
        Found::default()
    };

    let source = graph.source;
    let found = (found.total() > 0).then(|| found.into_collisions(graph, names));
    let wanted: Vec<NodeIx> = found.as_ref().map_or_else(Vec::new, |set| set.nodes_to_locate());
    let first_node = offsets.len();
    if let Some(set) = &found {
        offsets.extend(wanted.iter().map(|&n| set.graph.offset(n)));
    }

    let mut report = Report {
        edge_violations,
        collisions: Collisions::empty(),
        warnings,
        stats,
    };
    // Locating sweeps the text; choosing renames and keeping what the
    // findings name read only the graph: with a thread allowed, the sweep
    // runs beside them.
    let beside = allow_thread && source.is_some_and(|text| text.len() >= LOCATE_BESIDE_FROM_BYTES);
    let (located, collisions) = both(
        beside,
        || source.map(|text| locate_known(text, &offsets)),
        || found.map(|set| set.settled(&wanted, allow_thread)),
    );
    if let Some(collisions) = collisions {
        report.collisions = collisions;
    }
    if let Some(located) = located {
        for (v, at) in report.edge_violations.iter_mut().zip(&located) {
            v.location = *at;
        }
        report
            .warnings
            .locate(&located[report.edge_violations.len()..first_node]);
        // `wanted` is empty when nothing collides.
        for (&node, at) in wanted.iter().zip(&located[first_node..]) {
            if let Some(at) = at {
                report.collisions.locations.insert(node, *at);
            }
        }
    }
    report
}

/// R8 for undeclared nodes, then the name warnings by node id (so that the
/// order does not depend on whether `nodes` or `edges` came first).
fn warnings(graph: &ToolGraph<'_>, offsets: &mut Vec<Option<usize>>) -> Warnings {
    let mut warnings = Warnings::default();
    for u in &graph.undeclared {
        warnings.push_undeclared(graph.id(u.node), u.edge_index);
        offsets.push(graph.offset(u.node));
    }
    let mut lossy: Vec<NodeIx> = (0..graph.node_count() as NodeIx)
        .filter(|&n| graph.name_loss(n) != NameLoss::None && graph.is_tool(n))
        .collect();
    graph.sort_by_id(&mut lossy);
    for n in lossy {
        warnings.push_lossy(graph.id(n), graph.label(n), graph.name_loss(n));
        offsets.push(graph.offset(n));
    }
    warnings
}

/// What the check finds, before it is stored for reading.
#[derive(Default)]
struct Found {
    views: Vec<View>,
    /// Per view: its candidate leaves by name (only while classes are built).
    by_name: Vec<Map<NameIx, Vec<NodeIx>>>,
    classes: Vec<Class>,
    /// Every consumer with its class, by consumer id.
    members: Vec<(NodeIx, ClassIx)>,
}

/// Whether a toolbox is wired into more than one node that is not a
/// toolbox (a consumer wired twice counts twice: that only costs sharing).
fn wired_into_several(g: &ToolGraph<'_>, root: NodeIx) -> bool {
    g.receivers
        .of(root)
        .iter()
        .filter(|&&r| !g.is_passthrough(r))
        .nth(1)
        .is_some()
}

/// How a consumer is wired: its roots and the candidate tools wired
/// straight into it, each sorted. Consumers wired alike see alike.
type Wiring = (Box<[NodeIx]>, Box<[NodeIx]>);

/// The wiring of `consumer`.
fn wiring(g: &ToolGraph<'_>, names: &CandidateNames, consumer: NodeIx) -> Wiring {
    let mut roots: Vec<NodeIx> = Vec::new();
    let mut direct: Vec<NodeIx> = Vec::new();
    for &provider in g.providers.of(consumer) {
        if g.is_passthrough(provider) {
            roots.push(provider);
        } else if names.of(provider).is_some() {
            direct.push(provider);
        }
    }
    roots.sort_unstable();
    roots.dedup();
    direct.sort_unstable();
    direct.dedup();
    (roots.into(), direct.into())
}

/// Below this many views or classes to make, one thread makes them faster
/// than two can start.
const PARALLEL_FROM_ITEMS: usize = 512;
/// Below this many consumers, sorting them takes less than starting a
/// thread to do it beside finding the names.
const SORT_BESIDE_FROM_CONSUMERS: usize = 1 << 13;
/// Below this much text, locating findings takes less than starting a
/// thread to do it beside the renames.
const LOCATE_BESIDE_FROM_BYTES: usize = 4 << 20;
/// Consumers whose wiring one task reads: enough to outweigh handing out
/// the task, few enough to share the work evenly.
const WIRING_BLOCK: usize = 1024;

impl Found {
    fn total(&self) -> u64 {
        self.classes
            .iter()
            .map(|c| u64::from(c.count) * c.consumers.len() as u64)
            .sum()
    }

    /// Classes and views in two steps. First, on one thread, which classes
    /// and views there are, in what order, and which consumers each class
    /// has: hash lookups, cheap. Then the views, and the classes (kits
    /// before the classes made on them), which hold nearly all the work and
    /// do not depend on one another, on every core when `allow_thread`.
    fn of(
        g: &ToolGraph<'_>,
        names: &CandidateNames,
        consumers: &[NodeIx],
        allow_thread: bool,
        interrupt: Interrupt<'_>,
    ) -> Found {
        let threads = if allow_thread { 0 } else { 1 };
        let jobs = |items: usize| if items >= PARALLEL_FROM_ITEMS { threads } else { 1 };
        // Each consumer's wiring and the roots of it wired into other
        // consumers too, which read the graph (the plan's costly part), in
        // blocks on every core.
        let blocks: Vec<&[NodeIx]> = consumers.chunks(WIRING_BLOCK).collect();
        let wirings = in_parallel(&blocks, jobs(consumers.len()), |block| {
            let shared = |key: &Wiring| -> Box<[NodeIx]> {
                key.0
                    .iter()
                    .copied()
                    .filter(|&root| wired_into_several(g, root))
                    .collect()
            };
            (block.iter())
                .map(|&c| wiring(g, names, c))
                .map(|key| (shared(&key), key))
                .collect::<Vec<_>>()
        });
        let mut roots: Vec<NodeIx> = Vec::new();
        let mut view_of: Map<NodeIx, ViewIx> = new_map();
        let mut class_of: Map<Wiring, ClassIx> = new_map();
        // Per class, in the order made: the kit it is made on, its consumers.
        let mut planned: Vec<(Option<ClassIx>, Vec<NodeIx>)> = Vec::new();
        let mut members = Vec::with_capacity(consumers.len());
        for (&consumer, (shared, key)) in consumers.iter().zip(wirings.into_iter().flatten()) {
            if interrupt.requested() {
                return Found::default();
            }
            if let Some(&class) = class_of.get(&key) {
                planned[class as usize].1.push(consumer);
                members.push((consumer, class));
                continue;
            }
            for &root in key.0.iter() {
                view_of.entry(root).or_insert_with(|| {
                    roots.push(root);
                    (roots.len() - 1) as ViewIx
                });
            }
            // Roots wired into other consumers too are a kit: its class is
            // made once and parents this one, which adds only its own.
            let own_too = shared.len() < key.0.len() || !key.1.is_empty();
            let kit = if !shared.is_empty() && own_too {
                let kit: Wiring = (shared, Box::default());
                Some(*class_of.entry(kit).or_insert_with(|| {
                    planned.push((None, Vec::new()));
                    (planned.len() - 1) as ClassIx
                }))
            } else {
                None
            };
            planned.push((kit, vec![consumer]));
            let at = (planned.len() - 1) as ClassIx;
            members.push((consumer, at));
            class_of.insert(key, at);
        }

        let (views, by_name) = in_parallel(&roots, jobs(roots.len()), |&root| View::of(g, names, root))
            .into_iter()
            .unzip();
        let mut found = Found {
            views,
            by_name,
            classes: Vec::new(),
            members,
        };
        let mut wirings: Vec<Wiring> = vec![Wiring::default(); planned.len()];
        for (wiring, at) in class_of {
            wirings[at as usize] = wiring;
        }
        found.classes = planned.iter().map(|_| Class::default()).collect();
        // Two rounds: the classes made on no kit (every kit among them, as
        // a kit is made on none), then those made on a kit, which read it.
        for on_kit in [false, true] {
            let round: Vec<usize> = (0..planned.len())
                .filter(|&c| planned[c].0.is_some() == on_kit)
                .collect();
            let classes = in_parallel(&round, jobs(round.len()), |&c| {
                let roots: Vec<ViewIx> = wirings[c].0.iter().map(|r| view_of[r]).collect();
                Class::of(g, names, &found, roots, &wirings[c].1, planned[c].0)
            });
            for (c, class) in round.into_iter().zip(classes) {
                found.classes[c] = class;
            }
            if interrupt.requested() {
                return Found::default();
            }
        }
        for (class, (_, consumers)) in found.classes.iter_mut().zip(planned) {
            class.consumers = consumers;
        }
        found
    }

    fn into_collisions(self, graph: ToolGraph<'_>, names: CandidateNames) -> Collisions<'_> {
        let Found {
            views,
            classes,
            members,
            ..
        } = self;
        // Where each class's first consumer stands among all, by id.
        let mut first_rank = vec![u32::MAX; classes.len()];
        for (rank, &(_, class)) in members.iter().enumerate().rev() {
            first_rank[class as usize] = rank as u32;
        }
        let consumers_of = |c: usize| classes[c].consumers.len() as u64;
        let mut subtree_consumers: Vec<u64> = (0..classes.len()).map(consumers_of).collect();
        let mut under: Map<List, Vec<ClassIx>> = new_map();
        let mut replaced: Map<(List, NameIx), Vec<ClassIx>> = new_map();
        // Only lists that own a clash have parts to count: views, and
        // classes with an overlay.
        let owns_clashes = |list: List| match list {
            List::View(_) => true,
            List::Class(c) => !classes[c as usize].overlay.is_empty(),
        };
        for (c, class) in classes.iter().enumerate() {
            let at = c as ClassIx;
            let mut list = Some(List::Class(at));
            while let Some(current) = list {
                if !class.consumers.is_empty() && owns_clashes(current) {
                    under.entry(current).or_default().push(at);
                }
                list = match current {
                    List::Class(p) => {
                        if p != at {
                            subtree_consumers[p as usize] += consumers_of(c);
                        }
                        classes[p as usize].parent
                    }
                    List::View(_) => None,
                };
            }
            if let Some(parent) = class.parent {
                for name in class.replaced_names() {
                    replaced
                        .entry((origin(&classes, &names, parent, name), name))
                        .or_default()
                        .push(at);
                }
            }
        }
        // By first consumer, so the first class that sees a clash holds its
        // first violation.
        for classes_under in under.values_mut() {
            classes_under.sort_unstable_by_key(|&c| first_rank[c as usize]);
        }
        let consumers_under = under
            .iter()
            .map(|(&list, under)| (list, under.iter().map(|&c| consumers_of(c as usize)).sum()))
            .collect();
        let listed: Vec<(NodeIx, ClassIx)> = members
            .into_iter()
            .filter(|&(_, class)| classes[class as usize].count > 0)
            .collect();
        let mut starts = Vec::with_capacity(listed.len() + 1);
        let mut total = 0u64;
        for &(_, class) in &listed {
            starts.push(total);
            total += u64::from(classes[class as usize].count);
        }
        starts.push(total);
        let mut set = Collisions {
            graph,
            names,
            views,
            classes,
            under,
            consumers_under,
            subtree_consumers,
            replaced,
            consumers: listed,
            starts,
            groups: Vec::new(),
            renames: new_map(),
            locations: new_map(),
            class_trees: Default::default(),
        };
        set.groups = groups(&mut set);
        set
    }
}

/// The list a clash of `name` in `list` comes from: the class whose
/// overlay holds it, or the view below.
fn origin(classes: &[Class], names: &CandidateNames, list: List, name: NameIx) -> List {
    match list {
        List::View(_) => list,
        List::Class(c) => {
            let class = &classes[c as usize];
            let key = names.name(name);
            if class
                .overlay
                .binary_search_by(|o| names.name(o.clash.name).cmp(key))
                .is_ok()
            {
                list
            } else {
                origin(
                    classes,
                    names,
                    class
                        .parent
                        .expect("a class's clash it does not hold comes from its parent"),
                    name,
                )
            }
        }
    }
}

impl View {
    /// A root's view, and its candidate leaves by name (needed only while
    /// classes are being built).
    fn of(g: &ToolGraph<'_>, names: &CandidateNames, root: NodeIx) -> (View, Map<NameIx, Vec<NodeIx>>) {
        let reach = Reach::from(g, root);
        let mut by_name: Map<NameIx, Vec<NodeIx>> = new_map();
        for &leaf in &reach.leaves {
            if let Some(name) = names.of(leaf) {
                by_name.entry(name).or_default().push(leaf);
            }
        }
        let mut clashes: Vec<Clash> = by_name
            .iter()
            .filter(|(_, leaves)| leaves.len() > 1)
            .map(|(&name, leaves)| clash(g, name, leaves.clone()))
            .collect();
        clashes.sort_unstable_by(|a, b| names.name(a.name).cmp(names.name(b.name)));
        let view = View {
            tree: PathTree::new(reach),
            groups: vec![GroupIx::MAX; clashes.len()],
            clashes,
        };
        (view, by_name)
    }
}

/// Whether no toolbox is upstream of two of `roots` (nor is a root
/// upstream of another): then a consumer's paths through each root are that
/// root's own (see `Class::separate_roots`). At least one root is needed.
fn separate(views: &[View], roots: &[ViewIx]) -> bool {
    let upstream = |v: ViewIx| &views[v as usize].tree.reach;
    !roots.is_empty()
        && roots.iter().enumerate().all(|(i, &a)| {
            roots[i + 1..].iter().all(|&b| {
                let (small, large) = if upstream(a).order.len() <= upstream(b).order.len() {
                    (upstream(a), upstream(b))
                } else {
                    (upstream(b), upstream(a))
                };
                let in_large = |n: &NodeIx| *n == large.start || large.slot.contains_key(n);
                !in_large(&small.start) && !small.slot.contains_key(&large.start) && !small.order.iter().any(in_large)
            })
        })
}

/// A clash of `leaves` (distinct) sorted by id.
fn clash(g: &ToolGraph<'_>, name: NameIx, mut leaves: Vec<NodeIx>) -> Clash {
    leaves.sort_unstable_by(|&a, &b| g.id(a).cmp(g.id(b)));
    Clash {
        name,
        leaves: leaves.into(),
    }
}

impl Found {
    /// The position `name` would have in a list.
    fn rank_in(&self, names: &CandidateNames, list: List, name: &str) -> u32 {
        match list {
            List::View(v) => self.views[v as usize]
                .clashes
                .partition_point(|c| names.name(c.name) < name) as u32,
            List::Class(c) => {
                let class = &self.classes[c as usize];
                let parent = class.parent.map_or(0, |p| self.rank_in(names, p, name));
                parent + class.inserted_before(names, name)
            }
        }
    }

    fn count_of(&self, list: List) -> u32 {
        match list {
            List::View(v) => self.views[v as usize].clashes.len() as u32,
            List::Class(c) => self.classes[c as usize].count,
        }
    }
}

impl Class {
    /// The clashes of consumers wired to `roots` and to the candidate tools
    /// `direct`, as a parent list shared by reference (the kit's when
    /// given, else the largest root's) with an overlay of what the other
    /// roots and the direct tools add.
    fn of(
        g: &ToolGraph<'_>,
        names: &CandidateNames,
        found: &Found,
        roots: Vec<ViewIx>,
        direct: &[NodeIx],
        kit: Option<ClassIx>,
    ) -> Class {
        let views = &found.views;
        // The parent list, and the roots whose leaves make it.
        let (parent, inherited): (Option<List>, Vec<ViewIx>) = match kit {
            Some(k) => (Some(List::Class(k)), found.classes[k as usize].roots.to_vec()),
            None => {
                let base = roots.iter().copied().max_by_key(|&v| {
                    let view = &views[v as usize];
                    (view.tree.reach.leaves.len(), std::cmp::Reverse(view.root()))
                });
                (base.map(List::View), base.into_iter().collect())
            }
        };
        let mut merged: Map<NameIx, Vec<NodeIx>> = new_map();
        for &leaf in direct {
            if let Some(name) = names.of(leaf) {
                merged.entry(name).or_default().push(leaf);
            }
        }
        for &v in roots.iter().filter(|v| !inherited.contains(v)) {
            for (&name, leaves) in &found.by_name[v as usize] {
                merged.entry(name).or_default().extend_from_slice(leaves);
            }
        }
        let mut entries: Vec<(Clash, bool)> = Vec::new();
        for (name, mut leaves) in merged {
            // The tools of this name the parent list's consumers get.
            let mut from_parent: Vec<NodeIx> = inherited
                .iter()
                .filter_map(|&v| found.by_name[v as usize].get(&name))
                .flatten()
                .copied()
                .collect();
            from_parent.sort_unstable();
            from_parent.dedup();
            leaves.extend_from_slice(&from_parent);
            leaves.sort_unstable();
            leaves.dedup();
            if leaves.len() < 2 || leaves.len() == from_parent.len() {
                continue; // no clash, or exactly the parent's own
            }
            entries.push((clash(g, name, leaves), from_parent.len() > 1));
        }
        entries.sort_unstable_by(|a, b| names.name(a.0.name).cmp(names.name(b.0.name)));
        let mut overlay = Vec::with_capacity(entries.len());
        let mut inserted = 0u32;
        for (clash, replaces) in entries {
            let rank = parent.map_or(0, |p| found.rank_in(names, p, names.name(clash.name)));
            let at = rank + inserted;
            if !replaces {
                inserted += 1;
            }
            overlay.push(Overlay {
                clash,
                at,
                inserted,
                group: GroupIx::MAX,
            });
        }
        Class {
            count: parent.map_or(0, |p| found.count_of(p)) + inserted,
            separate_roots: separate(views, &roots),
            roots: roots.into(),
            parent,
            overlay,
            consumers: Vec::new(),
        }
    }
}

/// Groups every clash that has consumers, merging those with the same
/// name, tools and toolbox; numbers them in the order of their first
/// violations and records each clash's group.
fn groups(set: &mut Collisions<'_>) -> Vec<Group> {
    // Same name, same tools, same toolbox: one group.
    type Key = (NameIx, Box<[NodeIx]>, Option<NodeIx>);
    let mut by_key: Map<Key, usize> = new_map();
    let mut parts: Vec<(NameIx, Option<NodeIx>, Vec<Part>)> = Vec::new();
    let mut add = |clash: &Clash, through: Option<NodeIx>, part: Part| {
        let key = (clash.name, clash.leaves.clone(), through);
        let at = *by_key.entry(key).or_insert_with(|| {
            parts.push((clash.name, through, Vec::new()));
            parts.len() - 1
        });
        parts[at].2.push(part);
    };
    for (v, view) in set.views.iter().enumerate() {
        let owner = List::View(v as ViewIx);
        if !set.under.contains_key(&owner) {
            continue;
        }
        for (k, clash) in view.clashes.iter().enumerate() {
            let part = Part { owner, at: k as u32 };
            if set.part_count(part) > 0 {
                add(clash, Some(view.root()), part);
            }
        }
    }
    for (c, class) in set.classes.iter().enumerate() {
        for (j, entry) in class.overlay.iter().enumerate() {
            // The toolbox that alone forwards every tool of the clash, if any.
            let through = class
                .roots
                .iter()
                .map(|&v| &set.views[v as usize])
                .find(|view| {
                    let reach = &view.tree.reach;
                    entry.clash.leaves.iter().all(|l| reach.leaves.binary_search(l).is_ok())
                })
                .map(|view| view.root());
            let part = Part {
                owner: List::Class(c as ClassIx),
                at: j as u32,
            };
            if set.part_count(part) > 0 {
                add(&entry.clash, through, part);
            }
        }
    }
    let mut made: Vec<Group> = parts
        .into_iter()
        .map(|(name, through, parts)| {
            let first = parts
                .iter()
                .filter_map(|&p| set.first_of(p))
                .min_by(|a, b| set.graph.id(a.0).cmp(set.graph.id(b.0)).then(a.2.cmp(&b.2)))
                .map_or(0, |f| set.violation_index(f));
            let count = parts.iter().map(|&p| set.part_count(p)).sum();
            Group {
                name,
                through,
                parts,
                count,
                first,
            }
        })
        .collect();
    made.sort_unstable_by_key(|group| group.first);
    for (ix, group) in made.iter().enumerate() {
        for &part in &group.parts {
            match part.owner {
                List::View(v) => set.views[v as usize].groups[part.at as usize] = ix as GroupIx,
                List::Class(c) => set.classes[c as usize].overlay[part.at as usize].group = ix as GroupIx,
            }
        }
    }
    made
}

impl<'a> Collisions<'a> {
    /// The nodes the violations name (consumers and tools), each once.
    fn nodes_to_locate(&self) -> Vec<NodeIx> {
        let mut nodes: Vec<NodeIx> = self.consumers.iter().map(|&(n, _)| n).collect();
        for view in &self.views {
            for clash in &view.clashes {
                nodes.extend_from_slice(&clash.leaves);
            }
        }
        for class in &self.classes {
            for entry in &class.overlay {
                nodes.extend_from_slice(&entry.clash.leaves);
            }
        }
        nodes.sort_unstable();
        nodes.dedup();
        nodes
    }

    /// Chooses the renames that fix every violation (CONFORMANCE 15), one
    /// group at a time in the order of their first violations, each at that
    /// violation: exactly what settling every violation in report order
    /// gives, since settling the same tools again changes nothing.
    fn settle_renames(&mut self) {
        let mut renamer = Renamer::new(&self.graph, &self.names.by_hash);
        for group in &self.groups {
            let Some(v) = self.get(group.first) else { continue };
            let tools = v.tools();
            let leaves: Vec<NodeIx> = tools.iter().map(|t| t.node()).collect();
            let seconds: Vec<NodeIx> = tools.iter().map(|t| t.second()).collect();
            // One tool keeps its name in a clash; its path is walked once.
            let kept_path = std::cell::OnceCell::new();
            renamer.settle(&leaves, &seconds, |kept, node| {
                kept_path.get_or_init(|| tools[kept].path_nodes()).contains(&node)
            });
        }
        self.renames = renamer.into_renames();
    }

    /// Renames chosen, then only what the findings name kept. Renames look
    /// at every tool's name, so they are chosen while the whole graph is
    /// still at hand.
    fn settled(mut self, named: &[NodeIx], allow_thread: bool) -> Collisions<'static> {
        self.settle_renames();
        self.into_owned(named, allow_thread)
    }

    /// The findings with their own copy of what they name: the ids of
    /// `named` (the consumers and tools of the violations) and of every
    /// toolbox a path can step through, with their labels. Nothing else of
    /// the workflow is copied, and the candidate names' hash table, which
    /// only choosing renames needed, is dropped.
    fn into_owned(self, named: &[NodeIx], allow_thread: bool) -> Collisions<'static> {
        let mut keep = vec![false; self.graph.node_count()];
        for &node in named {
            keep[node as usize] = true;
        }
        for view in &self.views {
            keep[view.root() as usize] = true;
            for &node in &view.tree.reach.order {
                keep[node as usize] = true;
            }
        }
        let mut names = self.names;
        names.by_hash = Vec::new();
        Collisions {
            graph: self.graph.into_owned(|node| keep[node as usize], allow_thread),
            names,
            views: self.views,
            classes: self.classes,
            under: self.under,
            consumers_under: self.consumers_under,
            subtree_consumers: self.subtree_consumers,
            replaced: self.replaced,
            consumers: self.consumers,
            starts: self.starts,
            groups: self.groups,
            renames: self.renames,
            locations: self.locations,
            class_trees: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Violation;

    fn check(doc: &str) -> Report {
        check_bytes(doc.as_bytes(), &Config::default()).unwrap()
    }

    /// (consumer, name, [(tool, path)]) for one CMP-9 violation.
    type Collision = (String, String, Vec<(String, Vec<String>)>);

    fn collisions(report: &Report) -> Vec<Collision> {
        report
            .violations()
            .filter_map(|v| match v {
                Violation::ToolNameCollision(c) => Some((
                    c.consumer().to_owned(),
                    c.name().to_owned(),
                    c.tools()
                        .iter()
                        .map(|t| (t.id().to_owned(), t.path().iter().map(|s| s.to_string()).collect()))
                        .collect(),
                )),
                _ => None,
            })
            .collect()
    }

    fn tool_edge(from: &str, to: &str) -> String {
        format!(r#"{{"source": "{from}", "target": "{to}", "data": {{"edgeType": "tool_availability"}}}}"#)
    }

    fn workflow(nodes: &[(&str, &str, &str)], edges: &[(&str, &str)]) -> String {
        let nodes: Vec<String> = nodes
            .iter()
            .map(|(id, ty, label)| format!(r#"{{"id": "{id}", "type": "{ty}", "data": {{"label": "{label}"}}}}"#))
            .collect();
        let edges: Vec<String> = edges.iter().map(|(a, b)| tool_edge(a, b)).collect();
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    fn strings(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn cmp9_spec_example_is_refused_with_paths_through_the_box() {
        let report = check(include_str!("../tests/data/spec-cmp9-refused.json"));
        assert_eq!(
            collisions(&report),
            [(
                "agent_1".to_string(),
                "web_search".to_string(),
                vec![
                    ("tool_a".to_string(), strings(&["tool_a", "box_1", "agent_1"])),
                    ("tool_b".to_string(), strings(&["tool_b", "box_1", "agent_1"])),
                ]
            )]
        );
        assert!(check(include_str!("../tests/data/spec-cmp9-accepted.json")).ok());
    }

    #[test]
    fn cmp9_diamond_is_one_leaf() {
        let doc = workflow(
            &[
                ("t", "http", "Search"),
                ("b1", "toolbox", "B1"),
                ("b2", "toolbox", "B2"),
                ("a", "agent", "A"),
            ],
            &[("t", "b1"), ("t", "b2"), ("b1", "a"), ("b2", "a")],
        );
        assert!(check(&doc).ok());
    }

    #[test]
    fn cmp9_box_cycle_forwards_the_union() {
        let doc = workflow(
            &[
                ("t1", "http", "Search"),
                ("t2", "http", "search"),
                ("b1", "toolbox", ""),
                ("b2", "toolbox", ""),
            ],
            &[("t1", "b1"), ("t2", "b2"), ("b1", "b2"), ("b2", "b1"), ("b1", "agent")],
        );
        let found = collisions(&check(&doc));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].2[0], ("t1".to_string(), strings(&["t1", "b1", "agent"])));
        assert_eq!(found[0].2[1], ("t2".to_string(), strings(&["t2", "b2", "b1", "agent"])));
    }

    #[test]
    fn cmp9_collision_across_a_box_and_a_direct_wire() {
        let doc = workflow(
            &[("t1", "http", "Lookup"), ("t2", "http", "LOOKUP"), ("b", "toolbox", "")],
            &[("t1", "b"), ("b", "a1"), ("t2", "a1"), ("b", "a2")],
        );
        let found = collisions(&check(&doc));
        assert_eq!(found.len(), 1, "only a1 sees both tools");
        assert_eq!(found[0].0, "a1");
    }

    #[test]
    fn cmp9_shortest_path_ties_take_the_smallest_id() {
        let doc = workflow(
            &[
                ("t1", "x", "S"),
                ("t2", "x", "S"),
                ("bz", "toolbox", ""),
                ("ba", "toolbox", ""),
            ],
            &[
                ("t1", "bz"),
                ("t1", "ba"),
                ("bz", "agent"),
                ("ba", "agent"),
                ("t2", "agent"),
            ],
        );
        let found = collisions(&check(&doc));
        assert_eq!(found[0].2[0].1, strings(&["t1", "ba", "agent"]));
        assert_eq!(found[0].2[1].1, strings(&["t2", "agent"]));
    }

    #[test]
    fn cmp9_agent_as_tool_is_a_leaf_and_does_not_forward() {
        let doc = workflow(
            &[("t1", "x", "Search"), ("sub", "agent", "Search"), ("t2", "x", "Other")],
            &[("t1", "sub"), ("sub", "main"), ("t2", "main")],
        );
        // `main` sees `sub` and `t2`; `sub` sees `t1`. No view holds two "search".
        assert!(check(&doc).ok());
    }

    #[test]
    fn a_box_shared_by_many_consumers_costs_each_path_constant_time() {
        // Quadratic path finding took seconds here; now it is instant. The
        // test pins the result; the benchmark suite watches the time.
        let consumers = 20_000;
        let mut nodes = vec![
            ("t1", "x", "Web Search"),
            ("t2", "x", "web-search"),
            ("box", "toolbox", ""),
        ];
        let names: Vec<String> = (0..consumers).map(|c| format!("agent{c:05}")).collect();
        nodes.extend(names.iter().map(|n| (n.as_str(), "agent", "A")));
        let mut edges = vec![("t1", "box"), ("t2", "box")];
        edges.extend(names.iter().map(|n| ("box", n.as_str())));
        let found = collisions(&check(&workflow(&nodes, &edges)));
        assert_eq!(found.len(), consumers);
        assert_eq!(found[7].2[1], ("t2".to_string(), strings(&["t2", "box", "agent00007"])));
    }

    #[test]
    fn cmp9_classes_made_on_two_threads_equal_those_made_on_one() {
        // Enough boxes and distinct wirings that views and classes are made
        // in parallel: shared kits (boxes wired into several agents), boxes
        // of an agent's own, and direct tools, all with clashing names.
        let (agents, boxes) = (3_000, 900);
        let mut nodes: Vec<String> = Vec::new();
        let mut edges: Vec<String> = Vec::new();
        for b in 0..boxes {
            nodes.push(format!(r#"{{"id": "box{b}", "type": "toolbox"}}"#));
            for t in 0..3 {
                nodes.push(format!(
                    r#"{{"id": "bt{b}_{t}", "data": {{"label": "Tool {}"}}}}"#,
                    (b * 7 + t) % 40
                ));
                edges.push(tool_edge(&format!("bt{b}_{t}"), &format!("box{b}")));
            }
        }
        for a in 0..agents {
            nodes.push(format!(r#"{{"id": "agent{a}", "type": "agent"}}"#));
            nodes.push(format!(r#"{{"id": "own{a}", "data": {{"label": "tool {}"}}}}"#, a % 40));
            edges.push(tool_edge(&format!("own{a}"), &format!("agent{a}")));
            // Two shared boxes (kits) and, for some, a box of their own.
            edges.push(tool_edge(&format!("box{}", a % 50), &format!("agent{a}")));
            edges.push(tool_edge(&format!("box{}", 50 + a % 7), &format!("agent{a}")));
            if a % 3 == 0 {
                edges.push(tool_edge(
                    &format!("box{}", 57 + (a / 3) % (boxes - 57)),
                    &format!("agent{a}"),
                ));
            }
        }
        let doc = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let config = Config::default();
        let report =
            |allow_thread| check_bytes_with(doc.as_bytes(), &config, allow_thread, Interrupt::never()).unwrap();
        let (one, two) = (report(false), report(true));
        assert!(
            one.collisions.views.len() >= PARALLEL_FROM_ITEMS,
            "views are made in parallel"
        );
        assert!(
            one.collisions.classes.len() >= PARALLEL_FROM_ITEMS,
            "classes are made in parallel"
        );
        assert!(one
            .collisions
            .classes
            .iter()
            .any(|c| c.parent.is_some_and(|p| matches!(p, List::Class(_)))));
        assert!(one.violation_count() > 1_000);
        assert_eq!(collisions(&one), collisions(&two));
        let groups = |r: &Report| {
            (0..r.collisions.group_count() as u32)
                .map(|g| {
                    let g = r.collisions.group(g);
                    (g.name().to_owned(), g.count(), g.first(), g.consumers(0, 3))
                })
                .map(|(n, c, f, cs)| (n, c, f, cs.into_iter().map(str::to_owned).collect::<Vec<_>>()))
                .collect::<Vec<_>>()
        };
        assert_eq!(groups(&one), groups(&two));
    }

    #[test]
    fn edge5_violation_comes_first_and_refuses() {
        let doc =
            r#"{"edges": [{"id": "e0", "source": "a", "target": "b", "data": {"edgeType": "tool_availabilty"}}]}"#;
        let report = check(doc);
        assert!(!report.ok());
        assert_eq!(report.violation(0).unwrap().rule(), "EDGE-5");
        assert!(report.violation(0).unwrap().message().contains("\"tool_availabilty\""));
    }

    #[test]
    fn a_million_box_chain_needs_no_recursion() {
        let n = 1_000_000;
        let mut edges = Vec::with_capacity(n + 2);
        for i in 1..n {
            edges.push(tool_edge(&format!("b{i}"), &format!("b{}", i - 1)));
        }
        edges.push(tool_edge("t1", &format!("b{}", n - 1)));
        edges.push(tool_edge("t2", "b0"));
        edges.push(tool_edge("b0", "agent"));
        let mut nodes: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"id": "b{i}", "type": "toolbox"}}"#))
            .collect();
        nodes.push(r#"{"id": "t1", "data": {"label": "Deep"}}"#.into());
        nodes.push(r#"{"id": "t2", "data": {"label": "deep"}}"#.into());
        let doc = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let found = collisions(&check(&doc));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].2[0].1.len(), n + 2, "t1 -> b{} -> ... -> b0 -> agent", n - 1);
    }

    #[test]
    fn a_shared_box_is_flattened_once_and_reported_per_consumer() {
        let consumers = 2_000;
        let mut nodes = vec![r#"{"id": "box", "type": "toolbox"}"#.to_string()];
        let mut edges = Vec::new();
        for i in 0..1_000 {
            nodes.push(format!(r#"{{"id": "t{i}", "data": {{"label": "tool {i}"}}}}"#));
            edges.push(tool_edge(&format!("t{i}"), "box"));
        }
        nodes.push(r#"{"id": "dup", "data": {"label": "Tool-7"}}"#.into());
        edges.push(tool_edge("dup", "box"));
        for c in 0..consumers {
            edges.push(tool_edge("box", &format!("agent{c:05}")));
        }
        let doc = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let found = collisions(&check(&doc));
        assert_eq!(found.len(), consumers);
        assert!(found
            .iter()
            .all(|(_, name, tools)| name == "tool_7" && tools.len() == 2));
        assert_eq!(found[0].0, "agent00000");
    }
}
