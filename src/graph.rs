//! The tool-wiring graph, built while the input is read: every declared
//! node, every node that appears only as a tool-edge endpoint, and the tool
//! edges between them, as compact adjacency arrays over `u32` node numbers.
//!
//! Front ends (the JSON parser, the Python walker) feed a [`GraphBuilder`]
//! one node and one edge at a time, so no intermediate copy of the workflow
//! is ever held: ids are interned as they arrive, and a tool edge is two
//! numbers.
//!
//! One module, though long: [`GraphBuilder`] is how a [`ToolGraph`] is first
//! made, and it fills the graph's private parts (`Texts`, the offsets, what
//! each label loses) that the graph's readers rely on. Split, what those fields
//! promise would be kept in one file and relied on in another. The tests are
//! about a sixth of the file.

use std::borrow::Cow;
use std::hash::BuildHasher;

use foldhash::fast::RandomState;

use crate::error::InputError;
use crate::head::Head;
use crate::ids::{IdTable, MAX_ENTRY};
use crate::input::{DuplicateKey, Field, Place, UnknownEdgeType};
use crate::maps::Map;
use crate::names::{name_into, NameLoss};
use crate::threads::both;

pub type NodeIx = u32;

/// Adjacency in compressed sparse row form: the neighbours of node `n` are
/// `targets[starts[n]..starts[n + 1]]`, in edge order.
#[derive(Debug, Default)]
pub struct Adjacency {
    starts: Vec<u32>,
    targets: Vec<NodeIx>,
}

impl Adjacency {
    fn build(
        node_count: usize,
        edges: &[(NodeIx, NodeIx)],
        key: impl Fn(&(NodeIx, NodeIx)) -> (NodeIx, NodeIx),
    ) -> Self {
        // Counting sort by `from` keeps edges in document order within a
        // node, so every walk over it is deterministic.
        let mut starts = vec![0u32; node_count + 1];
        for edge in edges {
            starts[key(edge).0 as usize + 1] += 1;
        }
        for i in 0..node_count {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut targets = vec![0; edges.len()];
        for edge in edges {
            let (from, to) = key(edge);
            let slot = &mut fill[from as usize];
            targets[*slot as usize] = to;
            *slot += 1;
        }
        Adjacency { starts, targets }
    }

    pub fn of(&self, node: NodeIx) -> &[NodeIx] {
        let n = node as usize;
        &self.targets[self.starts[n] as usize..self.starts[n + 1] as usize]
    }

    pub fn degree(&self, node: NodeIx) -> usize {
        self.of(node).len()
    }

    /// How many edges it holds, over all nodes.
    pub fn entries(&self) -> usize {
        self.targets.len()
    }
}

/// The tool edges `edges` (provider, receiver) by receiver, by provider,
/// and by provider keeping only receivers that are passthroughs, each in
/// the order of `edges` within a node; the first on one thread and the
/// other two on another when a thread is allowed and the edges are many.
fn adjacencies(
    node_count: usize,
    edges: &[(NodeIx, NodeIx)],
    passthrough: &[bool],
    allow_thread: bool,
) -> (Adjacency, Adjacency, Adjacency) {
    let into_passthroughs: Vec<(NodeIx, NodeIx)> = edges
        .iter()
        .copied()
        .filter(|&(_, to)| passthrough[to as usize])
        .collect();
    let providers = || Adjacency::build(node_count, edges, |&(from, to)| (to, from));
    let receivers = || {
        (
            Adjacency::build(node_count, edges, |&e| e),
            Adjacency::build(node_count, &into_passthroughs, |&e| e),
        )
    };
    let two = allow_thread && edges.len() >= ADJACENCY_ON_TWO_THREADS_FROM_EDGES;
    let (providers, (receivers, passthrough_receivers)) = both(two, providers, receivers);
    (providers, receivers, passthrough_receivers)
}

/// A node used as a tool-edge endpoint without being declared (R8): allowed,
/// and reported as a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undeclared {
    pub node: NodeIx,
    /// The first tool edge that names it (where the node is located).
    pub edge_index: usize,
}

/// Offsets of things that did not come from JSON text.
pub const NO_OFFSET: usize = usize::MAX;

/// A node with no type (none given, or undeclared), in `NodeTypes::of_node`.
pub const NO_TYPE: u32 = u32::MAX;

/// Node types and tool edges as CMP-10 needs them (SEMANTICS 11), kept only
/// when a catalogue is given: each distinct type once, a number per node,
/// and each tool edge's ends, index and id.
#[derive(Debug, Default)]
pub struct NodeTypes<'a> {
    /// The distinct types, in the order first met.
    pub names: Vec<Cow<'a, str>>,
    /// Per node: its type's number in `names`, or `NO_TYPE`.
    pub of_node: Vec<u32>,
    /// Every tool edge, in document order: (source, target).
    pub edges: Vec<(NodeIx, NodeIx)>,
    /// Per tool edge, in the same order: its index in `edges` and its id.
    pub places: Vec<(usize, Option<Cow<'a, str>>)>,
}

impl NodeTypes<'_> {
    pub fn type_of(&self, node: NodeIx) -> Option<&str> {
        let t = *self.of_node.get(node as usize)?;
        self.names.get(t as usize).map(|name| &**name)
    }
}

#[derive(Debug)]
pub struct ToolGraph<'a> {
    /// The JSON text the graph was read from, for locating findings; None
    /// when a front end read something else.
    pub source: Option<&'a [u8]>,
    hasher: RandomState,
    texts: Texts<'a>,
    /// Per node: the byte offset of its object in `source`, or for a node
    /// that is never declared the offset of the first tool edge naming it;
    /// `NO_OFFSET` without a source.
    offsets: Vec<usize>,
    /// Per node: what its label loses on the way to its name.
    name_loss: Vec<NameLoss>,
    /// Per node, a hash of its tool name (SEMANTICS 5); 0 for passthroughs,
    /// which never are tools. See `names::CandidateNames`.
    pub name_hashes: Vec<u64>,
    pub passthrough: Vec<bool>,
    /// Declared nodes (undeclared ones are in `undeclared`).
    pub declared: usize,
    pub declared_passthroughs: usize,
    pub undeclared: Vec<Undeclared>,
    /// Tool edges by receiver: the providers wired into each node.
    pub providers: Adjacency,
    /// Tool edges by provider: the receivers each node is wired into.
    pub receivers: Adjacency,
    /// The same, keeping only receivers that are passthroughs: a toolbox
    /// wired into 20k agents has 20k receivers but few or no passthrough
    /// ones, and paths only ever step through passthroughs.
    pub passthrough_receivers: Adjacency,
    pub tool_edge_count: usize,
    /// Every edge, tool wiring or not.
    pub edge_count: usize,
    pub unknown_edge_types: Vec<UnknownEdgeType<'a>>,
    /// Keys read more than once in one object, as the parser met them
    /// (DUPLICATE-KEY warnings).
    pub duplicate_keys: Vec<DuplicateKey<'a>>,
    /// Node types, when the reader was asked to keep them (CMP-10).
    pub node_types: Option<Box<NodeTypes<'a>>>,
    /// The workflow's `id` and tool input ports, for a site check
    /// (SEMANTICS 12); a check of the workflow alone never reads it.
    pub head: Head<'a>,
}

/// Each node's id and `data.label`: borrowed from the input where they
/// have no escapes while the input is at hand, or, once it is gone, those
/// of the nodes findings name, packed into one buffer each.
#[derive(Debug)]
enum Texts<'a> {
    Read {
        ids: Vec<Cow<'a, str>>,
        labels: Vec<Option<Cow<'a, str>>>,
    },
    Packed {
        node_count: usize,
        ids: Packed,
        labels: Packed,
    },
}

/// Some nodes' strings, one after another in one buffer. Findings that
/// outlive their input name tens of thousands of a million nodes: a
/// string each would cost an allocation to copy and a free to drop, and a
/// slot for every node would cost more than the strings.
#[derive(Debug, Default)]
struct Packed {
    text: String,
    /// The nodes with a string, ascending, each with where its string
    /// starts and ends in `text`.
    spans: Vec<(NodeIx, usize, usize)>,
}

impl Packed {
    /// The strings `string_of` gives for `nodes` (ascending).
    fn of<'s>(nodes: &[NodeIx], string_of: impl Fn(NodeIx) -> Option<&'s str>) -> Packed {
        let mut packed = Packed::default();
        for &node in nodes {
            if let Some(string) = string_of(node) {
                let start = packed.text.len();
                packed.text.push_str(string);
                packed.spans.push((node, start, packed.text.len()));
            }
        }
        packed
    }

    fn get(&self, node: NodeIx) -> Option<&str> {
        let at = self.spans.binary_search_by_key(&node, |&(n, ..)| n).ok()?;
        let (_, start, end) = self.spans[at];
        // Both ends were the buffer's length after whole strings were added.
        self.text.get(start..end)
    }
}

impl<'a> ToolGraph<'a> {
    pub fn node_count(&self) -> usize {
        match &self.texts {
            Texts::Read { ids, .. } => ids.len(),
            Texts::Packed { node_count, .. } => *node_count,
        }
    }

    pub fn is_passthrough(&self, node: NodeIx) -> bool {
        self.passthrough[node as usize]
    }

    pub fn id(&self, node: NodeIx) -> &str {
        match &self.texts {
            Texts::Read { ids, .. } => &ids[node as usize],
            Texts::Packed { ids, .. } => ids.get(node).unwrap_or(""),
        }
    }

    /// What a tool is called before naming: `data.label`, or the id.
    pub fn label(&self, node: NodeIx) -> &str {
        self.explicit_label(node).unwrap_or(self.id(node))
    }

    /// `data.label` when the node has one.
    pub fn explicit_label(&self, node: NodeIx) -> Option<&str> {
        match &self.texts {
            Texts::Read { labels, .. } => labels[node as usize].as_deref(),
            Texts::Packed { labels, .. } => labels.get(node),
        }
    }

    /// Where the node is in the source text (see `offsets`).
    pub fn offset(&self, node: NodeIx) -> Option<usize> {
        Some(self.offsets[node as usize]).filter(|&o| o != NO_OFFSET)
    }

    pub fn name_loss(&self, node: NodeIx) -> NameLoss {
        self.name_loss[node as usize]
    }

    /// The hash `name_hashes` holds for a node named `name` (already a
    /// tool name, not a label).
    pub fn hash_of_name(&self, name: &str) -> u64 {
        self.hasher.hash_one(name)
    }

    /// Rewires the tool edges: each edge `provider -> receiver` becomes
    /// `provider -> rewired(provider, receiver)`, or is dropped for None;
    /// an edge that would repeat one of the same provider is dropped too.
    /// The edges `added`, none of them there before, come after.
    /// For a check that has shown no path needs what changes and no
    /// consumer's set does (`collisions::twins`); `tool_edge_count` stays
    /// what was read.
    pub(crate) fn rewire_tool_edges(
        &mut self,
        rewired: impl Fn(NodeIx, NodeIx) -> Option<NodeIx>,
        added: &[(NodeIx, NodeIx)],
    ) {
        let node_count = self.node_count();
        let mut edges: Vec<(NodeIx, NodeIx)> = Vec::with_capacity(self.receivers.entries() + added.len());
        // Per receiver, the provider that last had an edge into it.
        let mut last = vec![NodeIx::MAX; node_count];
        for from in 0..node_count as NodeIx {
            for &to in self.receivers.of(from) {
                if let Some(to) = rewired(from, to) {
                    if last[to as usize] != from {
                        last[to as usize] = from;
                        edges.push((from, to));
                    }
                }
            }
        }
        edges.extend_from_slice(added);
        (self.providers, self.receivers, self.passthrough_receivers) =
            adjacencies(node_count, &edges, &self.passthrough, false);
    }

    /// Drops every tool edge from a passthrough to itself: it forwards to
    /// itself what it holds, which changes no consumer's set and is on no
    /// shortest path, but would make the box its own provider, never a
    /// link of a chain (an agent wired to itself is a leaf of itself,
    /// SEMANTICS 4, and keeps it). Returns the edges looked at.
    pub(crate) fn drop_passthrough_self_loops(&mut self) -> usize {
        let looks = self.passthrough_receivers.entries();
        let looped = |v: NodeIx| self.passthrough_receivers.of(v).contains(&v);
        if !(0..self.node_count() as NodeIx).any(|v| self.is_passthrough(v) && looped(v)) {
            return looks;
        }
        let passthrough = self.passthrough.clone();
        self.rewire_tool_edges(
            |from, to| (from != to || !passthrough[from as usize]).then_some(to),
            &[],
        );
        looks + self.receivers.entries()
    }

    /// Nodes that provide tools: not passthroughs, and the source of at
    /// least one tool edge.
    pub fn is_tool(&self, node: NodeIx) -> bool {
        !self.is_passthrough(node) && self.receivers.degree(node) > 0
    }

    /// A graph with no nodes.
    pub fn empty() -> ToolGraph<'static> {
        GraphBuilder::new().finish(false).expect("an empty graph has no errors")
    }

    /// The same graph without its source text, owning the ids and labels
    /// of the nodes `keep` names; every other node keeps its place and its
    /// wiring but has an empty id and no label. For findings read after the
    /// input is gone, which name a small part of a large workflow. With
    /// `allow_thread`, the labels of a large graph are packed on a thread
    /// beside the ids.
    pub fn into_owned(self, keep: impl Fn(NodeIx) -> bool, allow_thread: bool) -> ToolGraph<'static> {
        fn own(s: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(s.into_owned())
        }
        let node_count = self.node_count();
        let two = allow_thread && node_count >= OWNED_ON_TWO_THREADS_FROM_NODES;
        let kept: Vec<NodeIx> = (0..node_count as NodeIx).filter(|&n| keep(n)).collect();
        let kept = kept.as_slice();
        let texts = match self.texts {
            Texts::Read { ids, labels } => {
                // Moved in, so each thread also frees what it read.
                let (labels, ids) = both(
                    two,
                    move || Packed::of(kept, |n| labels[n as usize].as_deref()),
                    move || Packed::of(kept, |n| Some(&*ids[n as usize])),
                );
                Texts::Packed {
                    node_count,
                    ids,
                    labels,
                }
            }
            Texts::Packed { ids, labels, .. } => Texts::Packed {
                node_count,
                ids: Packed::of(kept, |n| ids.get(n)),
                labels: Packed::of(kept, |n| labels.get(n)),
            },
        };
        ToolGraph {
            source: None,
            hasher: self.hasher,
            texts,
            offsets: self.offsets,
            name_loss: self.name_loss,
            name_hashes: self.name_hashes,
            passthrough: self.passthrough,
            declared: self.declared,
            declared_passthroughs: self.declared_passthroughs,
            undeclared: self.undeclared,
            providers: self.providers,
            receivers: self.receivers,
            passthrough_receivers: self.passthrough_receivers,
            tool_edge_count: self.tool_edge_count,
            edge_count: self.edge_count,
            unknown_edge_types: self
                .unknown_edge_types
                .into_iter()
                .map(|u| UnknownEdgeType {
                    place: u.place,
                    id: u.id.map(own),
                    edge_type: own(u.edge_type),
                })
                .collect(),
            duplicate_keys: self
                .duplicate_keys
                .into_iter()
                .map(|d| DuplicateKey { id: d.id.map(own), ..d })
                .collect(),
            // CMP-10 is decided before the input is let go of.
            node_types: None,
            head: self.head.into_owned(),
        }
    }

    /// Sorts `nodes` by id. Ids lie scattered over the input, so comparing
    /// two costs two cache misses, and a sort compares each id about log n
    /// times: each id is read once for its first sixteen bytes, the nodes
    /// are sorted by those, and only nodes whose ids share them are then
    /// compared whole. Ids are unique, so the order is the same either way.
    pub fn sort_by_id(&self, nodes: &mut [NodeIx]) {
        // A few nodes (a clash's leaves, mostly two) are compared whole, in
        // place: each id is read about as often, and nothing is allocated.
        if nodes.len() <= SORTED_IN_PLACE {
            nodes.sort_unstable_by_key(|&n| self.id(n));
            return;
        }
        let head = |node: NodeIx| {
            let id = self.id(node).as_bytes();
            let mut bytes = [0u8; 16];
            let kept = id.len().min(16);
            bytes[..kept].copy_from_slice(&id[..kept]);
            u128::from_be_bytes(bytes)
        };
        let mut keyed: Vec<(u128, NodeIx)> = nodes.iter().map(|&n| (head(n), n)).collect();
        keyed.sort_unstable_by_key(|&(head, _)| head);
        for run in keyed.chunk_by_mut(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
            run.sort_unstable_by_key(|&(_, node)| self.id(node));
        }
        for (slot, (_, node)) in nodes.iter_mut().zip(keyed) {
            *slot = node;
        }
    }

    /// CMP-9 consumers: nodes that are not passthroughs and receive at least
    /// one tool edge, declared or not.
    pub fn consumers(&self) -> impl Iterator<Item = NodeIx> + '_ {
        (0..self.node_count() as NodeIx).filter(|&n| !self.is_passthrough(n) && self.providers.degree(n) > 0)
    }
}

const NOT_DECLARED: u32 = u32::MAX;

/// Ids at least this long are not copied (see `GraphBuilder::id_copies`).
const COPIED_BELOW_BYTES: usize = 16 << 20;
/// The length a copy's header gives for an id that was not copied.
const NOT_COPIED: u32 = u32::MAX;
/// A copy's header: its node, then its length (both `u32`, little-endian).
const COPY_HEADER: usize = 8;

/// The node and length in the header of the copy at `at`.
#[inline(always)]
fn copy_header(copies: &[u8], at: u64) -> (NodeIx, u32) {
    let h = &copies[at as usize..at as usize + COPY_HEADER];
    (
        u32::from_le_bytes([h[0], h[1], h[2], h[3]]),
        u32::from_le_bytes([h[4], h[5], h[6], h[7]]),
    )
}

/// Whether the copy at `at` is of `id`: compared with the copy, or with the
/// id where it is when it was too long to copy.
#[inline]
fn is_id(ids: &[Cow<'_, str>], copies: &[u8], at: u64, id: &str) -> bool {
    match copy_header(copies, at) {
        (node, NOT_COPIED) => ids[node as usize] == id,
        (_, len) => {
            let start = at as usize + COPY_HEADER;
            len as usize == id.len() && copies.get(start..start + id.len()) == Some(id.as_bytes())
        }
    }
}

/// Hashes ids as the [`GraphBuilder`] it came from does.
#[derive(Clone)]
pub struct IdHasher(RandomState);

impl IdHasher {
    /// The hash of a field's string; 0 for a field that is none, which is
    /// never interned.
    #[inline]
    pub fn hash(&self, field: &Field<'_>) -> u64 {
        field.as_str().map_or(0, |id| self.0.hash_one(id))
    }
}

/// Below this many nodes, one thread copies what findings name faster
/// than two can start.
const OWNED_ON_TWO_THREADS_FROM_NODES: usize = 1 << 16;

/// Below this many tool edges, one thread builds the adjacency faster than
/// two can start.
pub(crate) const ADJACENCY_ON_TWO_THREADS_FROM_EDGES: usize = 1 << 16;

/// A hash of the tool name `label` becomes, and what the label loses on the
/// way; `buffer` is scratch space.
#[inline]
fn name_hash(hasher: &RandomState, buffer: &mut String, label: &str) -> (u64, NameLoss) {
    let loss = name_into(label, buffer);
    (hasher.hash_one(buffer.as_str()), loss)
}

/// Input errors by kind, reported in this order whatever the order of the
/// input (SEMANTICS decision: shapes first, then ids, then endpoints).
#[derive(Clone, Copy)]
enum Stage {
    NodeShape = 0,
    EdgeShape = 1,
    NodeId = 2,
    EdgeEnd = 3,
}

#[derive(Default)]
pub struct GraphBuilder<'a> {
    hasher: RandomState,
    /// Node numbers, hashed by id; the ids themselves live in `ids` once.
    table: IdTable,
    ids: Vec<Cow<'a, str>>,
    /// The hash of each id, so growing the table never rereads the ids
    /// (scattered across the input, so each reread would miss the cache).
    hashes: Vec<u64>,
    /// Each id again, one after another, each after a header with its
    /// node and length, so a lookup compares with a copy in a few
    /// megabytes, not with the id where it first appeared in the input
    /// (behind a pointer, hundreds of megabytes away). The table points at
    /// a copy, not at a node: the header then gives the node, so a lookup
    /// does not miss the cache on a per-node index before it reaches the
    /// copy. An id of 16 MiB or more gets a header but no copy (its length
    /// there is `NOT_COPIED`), and is compared where it is.
    id_copies: Vec<u8>,
    /// Tool-name hashes, computed here because on large inputs this runs on
    /// the builder thread, which has time to spare while the parser works.
    name_hashes: Vec<u64>,
    name_buffer: String,
    labels: Vec<Option<Cow<'a, str>>>,
    offsets: Vec<usize>,
    name_loss: Vec<NameLoss>,
    passthrough: Vec<bool>,
    /// Per node: its index in `nodes`, or NOT_DECLARED.
    declared_as: Vec<u32>,
    declared: usize,
    /// Nodes first named by a tool edge, with that edge's index.
    named_by_edge: Vec<Undeclared>,
    edges: Vec<(NodeIx, NodeIx)>,
    edge_count: usize,
    unknown_edge_types: Vec<UnknownEdgeType<'a>>,
    duplicate_keys: Vec<DuplicateKey<'a>>,
    /// Whether node types and tool-edge places are kept (CMP-10).
    keep_types: bool,
    /// Each distinct node type's number in `types.names`.
    type_numbers: Map<Cow<'a, str>, u32>,
    types: NodeTypes<'a>,
    /// The head, as the front end read it; its ports name their nodes in
    /// `finish`.
    head: Head<'a>,
    /// The first error of each stage.
    errors: [Option<InputError>; 4],
}

impl<'a> GraphBuilder<'a> {
    pub fn new() -> Self {
        Self::default()
    }

    /// This builder, keeping node types and tool-edge places when `keep`
    /// (for CMP-10; `Config::keeps_node_types`).
    pub fn keeping_types(mut self, keep: bool) -> Self {
        self.keep_types = keep;
        self
    }

    /// The number of a node type, interned: few distinct types, many nodes.
    fn type_number(&mut self, node_type: Cow<'a, str>) -> u32 {
        if let Some(&n) = self.type_numbers.get(&node_type) {
            return n;
        }
        let n = self.types.names.len() as u32;
        self.types.names.push(node_type.clone());
        self.type_numbers.insert(node_type, n);
        n
    }

    /// A builder with room for about `nodes` nodes, so the id table does not
    /// have to grow (and rehash) while a large input is read.
    pub fn with_capacity(nodes: usize) -> Self {
        GraphBuilder {
            table: IdTable::with_capacity(nodes),
            ids: Vec::with_capacity(nodes),
            hashes: Vec::with_capacity(nodes),
            ..Self::default()
        }
    }

    fn fail(&mut self, stage: Stage, error: InputError) {
        self.errors[stage as usize].get_or_insert(error);
    }

    /// True when an error of `stage` or an earlier one is already known:
    /// then nothing later in that stage can be the error reported.
    fn failed_by(&self, stage: Stage) -> bool {
        self.errors[..=stage as usize].iter().any(Option::is_some)
    }

    pub fn node_shape_error(&mut self, error: InputError) {
        self.fail(Stage::NodeShape, error);
    }

    pub fn edge_shape_error(&mut self, error: InputError) {
        self.fail(Stage::EdgeShape, error);
    }

    /// The hashes ids are interned by. A front end on another thread uses
    /// it to hash each id while the id's bytes are still in its cache.
    pub fn id_hasher(&self) -> IdHasher {
        IdHasher(self.hasher.clone())
    }

    /// The node numbered for `id`, whose hash is `hash`, and whether it is new.
    fn intern(&mut self, id: Cow<'a, str>, hash: u64) -> Result<(NodeIx, bool), InputError> {
        let ids = &self.ids;
        let hashes = &self.hashes;
        let copies = &self.id_copies;
        let next = ids.len();
        let (at, new) = self.table.find_or_insert(
            hash,
            |at| is_id(ids, copies, at, &id),
            || {
                if NodeIx::try_from(next).map_or(true, |ix| ix == NodeIx::MAX) {
                    return Err(InputError::new("the workflow has more than 4,294,967,294 nodes", None));
                }
                Some(copies.len() as u64)
                    .filter(|&at| at <= MAX_ENTRY)
                    .ok_or_else(|| InputError::new("the workflow's ids take more than 1 TiB", None))
            },
            |at| hashes[copy_header(copies, at).0 as usize],
        )?;
        if !new {
            return Ok((copy_header(&self.id_copies, at).0, false));
        }
        let node = next as NodeIx;
        let copied = id.len() < COPIED_BELOW_BYTES;
        let len = if copied { id.len() as u32 } else { NOT_COPIED };
        self.id_copies.extend_from_slice(&node.to_le_bytes());
        self.id_copies.extend_from_slice(&len.to_le_bytes());
        if copied {
            self.id_copies.extend_from_slice(id.as_bytes());
        }
        self.ids.push(id);
        self.hashes.push(hash);
        self.name_hashes.push(0);
        self.labels.push(None);
        self.offsets.push(NO_OFFSET);
        self.name_loss.push(NameLoss::None);
        self.passthrough.push(false);
        self.declared_as.push(NOT_DECLARED);
        if self.keep_types {
            self.types.of_node.push(NO_TYPE);
        }
        Ok((node, true))
    }

    /// Starts loading the table slot interning an id of hash `hash` will
    /// read: the builder thread calls it some records ahead.
    pub fn prefetch(&self, hash: u64) {
        self.table.prefetch(hash);
    }

    /// Starts loading the copy of the id that slot most likely points to:
    /// the builder thread calls it a few records ahead, once `prefetch`
    /// has brought the slot in.
    pub fn prefetch_copy(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(at) = self.table.home_entry(hash) {
            let copy = self.id_copies.as_ptr().wrapping_add(at as usize);
            // SAFETY: a prefetch is only a hint: it never faults, whatever
            // the address, and SSE (which it needs) is part of every x86-64
            // CPU.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(copy.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// A declared node. Ids must be non-empty strings and unique (R2).
    pub fn node(
        &mut self,
        place: Place,
        id: Field<'a>,
        label: Option<Cow<'a, str>>,
        node_type: Option<Cow<'a, str>>,
        passthrough: bool,
    ) {
        let hash = self.id_hasher().hash(&id);
        self.hashed_node(place, id, hash, label, node_type, passthrough);
    }

    /// `node`, with the hash of its id already computed by `id_hasher`.
    pub fn hashed_node(
        &mut self,
        place: Place,
        id: Field<'a>,
        hash: u64,
        label: Option<Cow<'a, str>>,
        node_type: Option<Cow<'a, str>>,
        passthrough: bool,
    ) {
        self.declared += 1;
        let id = match id.into_non_empty() {
            Ok(id) => id,
            Err(other) => return self.fail(Stage::NodeId, InputError::node_id(place, &other)),
        };
        if self.failed_by(Stage::NodeId) {
            return; // The graph will not be used; only the first errors matter.
        }
        let ix = match self.intern(id, hash) {
            Ok((ix, _)) => ix,
            Err(e) => return self.fail(Stage::NodeId, e),
        };
        let slot = ix as usize;
        let first = self.declared_as[slot];
        if first != NOT_DECLARED {
            let e = InputError::duplicate_id(&self.ids[slot], first as usize, place);
            return self.fail(Stage::NodeId, e);
        }
        self.declared_as[slot] = u32::try_from(place.index).unwrap_or(NOT_DECLARED - 1);
        if !passthrough {
            let named = label.as_deref().unwrap_or(&self.ids[slot]);
            (self.name_hashes[slot], self.name_loss[slot]) = name_hash(&self.hasher, &mut self.name_buffer, named);
        }
        self.offsets[slot] = place.offset.unwrap_or(NO_OFFSET);
        self.labels[slot] = label;
        self.passthrough[slot] = passthrough;
        if self.keep_types {
            if let Some(node_type) = node_type {
                self.types.of_node[slot] = self.type_number(node_type);
            }
        }
    }

    /// An edge classified as tool wiring (EDGE-5). It needs both endpoints.
    pub fn tool_edge(&mut self, place: Place, id: Option<Cow<'a, str>>, source: Field<'a>, target: Field<'a>) {
        let hasher = self.id_hasher();
        let hashes = [hasher.hash(&source), hasher.hash(&target)];
        self.hashed_tool_edge(place, id, source, target, hashes);
    }

    /// `tool_edge`, with the hashes of its ends already computed by
    /// `id_hasher`.
    pub fn hashed_tool_edge(
        &mut self,
        place: Place,
        id: Option<Cow<'a, str>>,
        source: Field<'a>,
        target: Field<'a>,
        [source_hash, target_hash]: [u64; 2],
    ) {
        self.edge_count += 1;
        let source = source.into_non_empty();
        let target = target.into_non_empty();
        let (source, target) = match (source, target) {
            (Ok(s), Ok(t)) => (s, t),
            (Err(bad), _) => {
                let e = InputError::tool_edge_end(place, id.as_deref(), "source", &bad);
                return self.fail(Stage::EdgeEnd, e);
            }
            (_, Err(bad)) => {
                let e = InputError::tool_edge_end(place, id.as_deref(), "target", &bad);
                return self.fail(Stage::EdgeEnd, e);
            }
        };
        if self.failed_by(Stage::EdgeEnd) {
            return;
        }
        let ends = self
            .endpoint(source, source_hash, place)
            .and_then(|s| Ok((s, self.endpoint(target, target_hash, place)?)));
        match ends {
            Ok(edge) => {
                self.edges.push(edge);
                if self.keep_types {
                    self.types.places.push((place.index, id));
                }
            }
            Err(e) => self.fail(Stage::EdgeEnd, e),
        }
    }

    fn endpoint(&mut self, id: Cow<'a, str>, hash: u64, edge: Place) -> Result<NodeIx, InputError> {
        let (ix, new) = self.intern(id, hash)?;
        if new {
            // Where the node is, until (unless) it is declared.
            self.offsets[ix as usize] = edge.offset.unwrap_or(NO_OFFSET);
            self.named_by_edge.push(Undeclared {
                node: ix,
                edge_index: edge.index,
            });
        }
        Ok(ix)
    }

    /// An edge with an unrecognised `data.edgeType` (EDGE-5 violation).
    pub fn unknown_edge_type(&mut self, unknown: UnknownEdgeType<'a>) {
        self.edge_count += 1;
        self.unknown_edge_types.push(unknown);
    }

    /// Any other edge: counted, never inspected.
    pub fn other_edge(&mut self) {
        self.edge_count += 1;
    }

    /// A key read again in one object (a DUPLICATE-KEY warning).
    pub fn duplicate_key(&mut self, repeat: DuplicateKey<'a>) {
        self.duplicate_keys.push(repeat);
    }

    /// The workflow's head (SEMANTICS 12), once the front end has read it
    /// all; a later one replaces it.
    pub fn head(&mut self, head: Head<'a>) {
        self.head = head;
    }

    /// Each tool port's node, looked up in the id table as an edge's end
    /// is: one probe a port, so a hostile list of a million ports costs a
    /// million probes and nothing more.
    fn resolve_ports(&mut self) {
        let (ids, copies, table) = (&self.ids, &self.id_copies, &self.table);
        for port in &mut self.head.tool_ports {
            let hash = self.hasher.hash_one(&*port.node_id);
            port.node = table
                .find(hash, |at| is_id(ids, copies, at, &port.node_id))
                .map(|at| copy_header(copies, at).0);
        }
    }

    /// The graph, or the first input error. With `allow_thread`, the
    /// adjacency of a large graph is built on two threads.
    pub fn finish(mut self, allow_thread: bool) -> Result<ToolGraph<'a>, InputError> {
        if let Some(error) = std::mem::take(&mut self.errors).into_iter().flatten().next() {
            return Err(error);
        }
        self.resolve_ports();
        // Undeclared nodes are named by their id.
        for i in 0..self.named_by_edge.len() {
            let node = self.named_by_edge[i].node as usize;
            if self.declared_as[node] == NOT_DECLARED {
                (self.name_hashes[node], self.name_loss[node]) =
                    name_hash(&self.hasher, &mut self.name_buffer, &self.ids[node]);
            }
        }
        let declared_as = &self.declared_as;
        let undeclared = self
            .named_by_edge
            .into_iter()
            .filter(|u| declared_as[u.node as usize] == NOT_DECLARED)
            .collect();
        let declared_passthroughs = self
            .passthrough
            .iter()
            .zip(declared_as)
            .filter(|&(&p, &d)| p && d != NOT_DECLARED)
            .count();
        let node_count = self.ids.len();
        drop(self.table);
        drop(self.hashes);
        drop(self.id_copies);
        let (providers, receivers, passthrough_receivers) =
            adjacencies(node_count, &self.edges, &self.passthrough, allow_thread);
        let tool_edge_count = self.edges.len();
        let node_types = self.keep_types.then(|| {
            let mut types = std::mem::take(&mut self.types);
            types.edges = std::mem::take(&mut self.edges);
            Box::new(types)
        });
        Ok(ToolGraph {
            providers,
            receivers,
            passthrough_receivers,
            source: None,
            hasher: self.hasher,
            texts: Texts::Read {
                ids: self.ids,
                labels: self.labels,
            },
            offsets: self.offsets,
            name_loss: self.name_loss,
            name_hashes: self.name_hashes,
            passthrough: self.passthrough,
            declared: self.declared,
            declared_passthroughs,
            undeclared,
            tool_edge_count,
            edge_count: self.edge_count,
            unknown_edge_types: self.unknown_edge_types,
            duplicate_keys: self.duplicate_keys,
            node_types,
            head: self.head,
        })
    }
}

/// What a front end hands over as it reads a workflow.
pub trait Sink<'a> {
    fn node_shape_error(&mut self, error: InputError);
    fn edge_shape_error(&mut self, error: InputError);
    fn node(
        &mut self,
        place: Place,
        id: Field<'a>,
        label: Option<Cow<'a, str>>,
        node_type: Option<Cow<'a, str>>,
        passthrough: bool,
    );
    fn tool_edge(&mut self, place: Place, id: Option<Cow<'a, str>>, source: Field<'a>, target: Field<'a>);
    fn unknown_edge_type(&mut self, unknown: UnknownEdgeType<'a>);
    fn other_edge(&mut self);
    fn duplicate_key(&mut self, repeat: DuplicateKey<'a>);
    /// The workflow's head, once read whole (at most once a pass).
    fn head(&mut self, head: Head<'a>);
}

impl<'a> Sink<'a> for GraphBuilder<'a> {
    fn node_shape_error(&mut self, error: InputError) {
        GraphBuilder::node_shape_error(self, error)
    }
    fn edge_shape_error(&mut self, error: InputError) {
        GraphBuilder::edge_shape_error(self, error)
    }
    fn node(
        &mut self,
        place: Place,
        id: Field<'a>,
        label: Option<Cow<'a, str>>,
        node_type: Option<Cow<'a, str>>,
        passthrough: bool,
    ) {
        GraphBuilder::node(self, place, id, label, node_type, passthrough)
    }
    fn tool_edge(&mut self, place: Place, id: Option<Cow<'a, str>>, source: Field<'a>, target: Field<'a>) {
        GraphBuilder::tool_edge(self, place, id, source, target)
    }
    fn unknown_edge_type(&mut self, unknown: UnknownEdgeType<'a>) {
        GraphBuilder::unknown_edge_type(self, unknown)
    }
    fn other_edge(&mut self) {
        GraphBuilder::other_edge(self)
    }
    fn duplicate_key(&mut self, repeat: DuplicateKey<'a>) {
        GraphBuilder::duplicate_key(self, repeat)
    }
    fn head(&mut self, head: Head<'a>) {
        GraphBuilder::head(self, head)
    }
}

/// Up to this many nodes, `sort_by_id` compares ids whole, in place.
const SORTED_IN_PLACE: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse::parse, Config};

    fn build(doc: &str) -> Result<ToolGraph<'_>, InputError> {
        parse(doc.as_bytes(), &Config::default())
    }

    #[test]
    fn r2_duplicate_ids_are_refused_naming_the_id() {
        let e = build(r#"{"nodes": [{"id": "a"}, {"id": "b"}, {"id": "a"}]}"#).unwrap_err();
        assert_eq!(e.message, "duplicate node id \"a\": nodes 0 and 2 (R2)");
    }

    #[test]
    fn node_ids_must_be_non_empty_strings() {
        for (doc, got) in [
            (r#"{"nodes": [{"id": ""}]}"#, "an empty string"),
            (r#"{"nodes": [{"id": 7}]}"#, "a number"),
            (r#"{"nodes": [{}]}"#, "missing"),
        ] {
            let e = build(doc).unwrap_err();
            assert_eq!(e.message, format!("node 0: `id` must be a non-empty string, got {got}"));
        }
    }

    #[test]
    fn undeclared_endpoints_become_nodes_labelled_by_id() {
        let doc = r#"{"nodes": [{"id": "t", "data": {"label": "T"}}],
                      "edges": [{"source": "t", "target": "agent", "data": {"edgeType": "tool_availability"}}]}"#;
        let g = build(doc).unwrap();
        assert_eq!((g.id(1), g.label(0), g.label(1)), ("agent", "T", "agent"));
        assert_eq!(g.undeclared.len(), 1);
        assert_eq!((g.undeclared[0].node, g.undeclared[0].edge_index), (1, 0));
        assert_eq!(g.offset(1), Some(doc.find(r#"{"source""#).unwrap()));
        assert_eq!(g.providers.of(1), [0]);
        assert_eq!(g.consumers().collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn nodes_declared_after_the_edges_that_name_them_are_declared() {
        let doc = r#"{"edges": [{"source": "t", "target": "box", "targetHandle": "box-input-tool"}],
                      "nodes": [{"id": "box", "type": "toolbox"}, {"id": "t", "data": {"label": "T"}}]}"#;
        let g = build(doc).unwrap();
        assert!(g.undeclared.is_empty());
        assert_eq!((g.declared, g.declared_passthroughs, g.label(0)), (2, 1, "T"));
    }

    #[test]
    fn r2_ids_are_compared_whole_whether_copied_or_too_long_to_copy() {
        // Ids of 16 MiB and more are compared where they are, not copied.
        let long = "a".repeat(1 << 24);
        let ids = ["t".to_owned(), "tt".to_owned(), format!("{long}1"), format!("{long}2")];
        let mut b = GraphBuilder::new();
        for (i, id) in ids.iter().enumerate() {
            b.node(
                Place { index: i, offset: None },
                Field::Str(Cow::Borrowed(id)),
                None,
                None,
                false,
            );
        }
        // Each copy in turn: its header, then its bytes when copied.
        let mut copies = Vec::new();
        let mut at = 0;
        while at < b.id_copies.len() {
            let (node, len) = copy_header(&b.id_copies, at as u64);
            copies.push((at as u64, node, len));
            at += COPY_HEADER + if len == NOT_COPIED { 0 } else { len as usize };
        }
        let lens: Vec<u32> = copies.iter().map(|c| c.2).collect();
        assert_eq!(lens, [1, 2, NOT_COPIED, NOT_COPIED]);
        for &(at, node, _) in &copies {
            for (other, probe) in ids.iter().enumerate() {
                let same = is_id(&b.ids, &b.id_copies, at, probe);
                assert_eq!(same, node as usize == other, "node {node} against id {other}");
            }
        }
        let duplicated = format!(
            r#"{{"nodes": [{{"id": "{}"}}, {{"id": "{}"}}, {{"id": "{}"}}]}}"#,
            ids[2], ids[3], ids[2]
        );
        assert!(build(&duplicated).unwrap_err().message.contains("nodes 0 and 2 (R2)"));
    }

    #[test]
    fn an_owned_graph_keeps_the_ids_and_labels_of_the_nodes_asked_for_and_only_those() {
        let doc = r#"{"nodes": [{"id": "a", "data": {"label": "A"}}, {"id": "b\u00e9", "data": {"label": "B\n"}},
                                {"id": "c"}, {"id": "d", "data": {"label": "D"}}],
                      "edges": [{"source": "a", "target": "c"}, {"source": "u", "target": "c"}]}"#;
        let g = build(doc).unwrap();
        let texts = |g: &ToolGraph<'_>| -> Vec<(String, Option<String>)> {
            (0..g.node_count() as NodeIx)
                .map(|n| (g.id(n).to_owned(), g.explicit_label(n).map(str::to_owned)))
                .collect()
        };
        let all = texts(&g);
        assert_eq!(all[1], ("bé".to_owned(), Some("B\n".to_owned())), "escapes decoded");
        for keep in [vec![], vec![1, 2], vec![0, 1, 2, 3, 4]] {
            let kept = |n: NodeIx| keep.contains(&n);
            let owned = build(doc).unwrap().into_owned(kept, true);
            let expected: Vec<(String, Option<String>)> = (all.iter().enumerate())
                .map(|(n, text)| {
                    if kept(n as NodeIx) {
                        text.clone()
                    } else {
                        (String::new(), None)
                    }
                })
                .collect();
            assert_eq!(owned.node_count(), all.len());
            assert_eq!(texts(&owned), expected, "keeping {keep:?}");
            // Owning again keeps a subset of what was kept.
            let again = owned.into_owned(|n| n == 1, false);
            let once: Vec<_> = (expected.iter().enumerate())
                .map(|(n, text)| if n == 1 { text.clone() } else { (String::new(), None) })
                .collect();
            assert_eq!(texts(&again), once, "keeping {keep:?}, then node 1");
            assert_eq!(again.label(3), "", "a node not kept has neither label nor id");
        }
    }

    #[test]
    fn sort_by_id_orders_as_comparing_whole_ids_does() {
        // Ids that share their first sixteen bytes, that are prefixes of
        // one another, or that differ only by a trailing zero byte.
        let ids = [
            "agent_0000000000_b",
            "agent_0000000000_a",
            "agent_0000000000",
            "b",
            "a\\u0000",
            "a",
            "\\u00e9t\\u00e9",
            "z",
            "agent_0000000001",
            "agent_000000000",
        ];
        let nodes: Vec<String> = ids.iter().map(|id| format!(r#"{{"id": "{id}"}}"#)).collect();
        let doc = format!(r#"{{"nodes": [{}]}}"#, nodes.join(", "));
        let g = build(&doc).unwrap();
        // In document order, the ids sharing sixteen bytes are out of order.
        let mut sorted: Vec<NodeIx> = (0..g.node_count() as NodeIx).collect();
        g.sort_by_id(&mut sorted);
        let mut expected: Vec<NodeIx> = (0..g.node_count() as NodeIx).collect();
        expected.sort_by_key(|&n| g.id(n));
        assert_eq!(sorted, expected);
        assert_eq!(g.id(sorted[1]), "a\0");
    }

    #[test]
    fn tool_edge_without_endpoint_is_refused_naming_the_edge() {
        let doc = r#"{"edges": [{"id": "e0", "source": "a", "data": {"edgeType": "tool_availability"}}]}"#;
        let e = build(doc).unwrap_err();
        assert_eq!(
            e.message,
            "edge 0 (id \"e0\"): a tool edge needs a non-empty string `target`, got missing"
        );
    }
}
