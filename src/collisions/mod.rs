//! CMP-9: which names two or more distinct leaves of a consumer's
//! flattened tool set share (SEMANTICS 4-6), found once per cause and read
//! on demand.
//!
//! # Cost model
//!
//! A workflow of N nodes and E tool edges can have far more violations
//! (one per consumer and name) than bytes: one toolbox of 1,000 clashing
//! pairs wired into 10,000 agents is 10,000,000 from 2 MB. Nothing here is
//! made per violation; what is made is per *clash* (a name and the set of
//! leaves that share it, counted once however many consumers see it):
//!
//! 1. `flow`: the leaves that can clash (names shared by two tools that
//!    reach a consumer), the boxes and consumers that can be on their
//!    paths, cycles of boxes condensed (iterative Tarjan), and *classes*:
//!    nodes that see the same leaves (chains of boxes, a private box per
//!    agent, agents that only forward a box, agents wired alike) are one.
//!    O(N + E). Twins (`twins`: boxes fed by the same boxes and feeding
//!    the same nodes) that hold no tool the twin of smallest id does not
//!    are on no path: the path facts leave them out and, once the classes
//!    are made, their edges are cut out of the graph paths read; near
//!    twins (the same boxes feeding them and fed, consumers apart) lose
//!    the edges no path takes, into boxes and into their kept twin's
//!    consumers. O(N + E). Ties wider than twins (`entered`): boxes that
//!    feed alike nodes are alike, and the walk enters only the one of
//!    smallest id among alike receivers; a box no walk enters is cut too,
//!    where what the nodes it feeds carry stays brought by others. O(N +
//!    E) to find which are alike (within a budget of a few reads of the
//!    graph), O(E log E) to mark the entered ones. Boxes in another's
//!    shadow (`shadows`: every box feeding one feeds the other, first by
//!    id, or is in the shadow of a box that does, and every tool feeding
//!    it does so too or clashes only below it; near twins down a chain)
//!    lose their edges into what that box feeds too. O(N + E), the pairs
//!    asked within a budget of a few reads of the graph. An edge from a
//!    box into a box all of whose receivers it feeds too (`shortcuts`) is
//!    never walked, and is cut where a box between keeps bringing what it
//!    carries. O(N + E) within a budget of a few reads of the graph.
//! 2. `tokens`: the names that can clash as tokens, in name order. A
//!    name whose leaves all enter at one class (or only at classes that
//!    forward nothing) is one token per class where it forms: a box of a
//!    thousand clashing pairs is a thousand tokens, 64 to a word, whatever
//!    the number of its consumers. Any other name is a *segment* of tokens,
//!    one per group of leaves that enter at the same classes; more than 64
//!    groups make a *giant*, whose content is a trie of its own
//!    (`giants`). O(L log L) for the L leaves that can clash.
//! 3. `sets`: each class's tokens, a persistent trie of 64-bit words
//!    whose equal nodes are one (`intern`), made by one union per input
//!    in topological order. A class that forwards another holds its very
//!    set; a union visits only where its operands differ, and may make at
//!    most a few leaves per input and per word of the class's own tokens:
//!    beyond that, inputs that share no token and no segment are held as
//!    *parts* and never unioned (agents each wired to a different handful
//!    of big boxes whose tokens interleave), so what unions make is
//!    O(classes' inputs + own tokens). Where parts meet is found without
//!    walking parts that cannot meet (two classes' own tokens share
//!    nothing): pairs with another part compared, each pair once (where
//!    the two differ, and of what they hold alike only the few words a
//!    class can take as contested: a subtree both hold is not walked), or the
//!    small parts' words looked up in the largest, or a shared base's walk
//!    kept and only the class's other inputs walked; a contested word is
//!    counted, combined and taken out once per part that holds it (see
//!    `build`). A class's inputs are joined once
//!    per distinct combination of them (agents wired to the same boxes,
//!    each with tools of its own, join those boxes once), then its own
//!    tokens are joined to that. An input that another input of the class
//!    reaches is left out first: that one holds it whole, so it adds
//!    nothing and settles nothing (`upstream`: a walk up from the other
//!    inputs, at most 32 steps per class, a chain of boxes that each keep
//!    one input climbed once, and past that, per class, the 8 classes
//!    above it most used by others, made once for all walks; then a walk
//!    down from each input still not found, through the classes that pass
//!    its set on, at most 32 steps per class, to meet what the walk up
//!    found: a team box held whole through a hub box of many inputs;
//!    classes that pass it on only to classes that pass nothing on (last
//!    classes, above no input) are read only as the class's own inputs, a
//!    binary search each, and an input whose walk down is cut short is
//!    looked up in the input list the walk up ran out in, or among the
//!    tops of the chains of plain classes into it, made once per hub;
//!    O(inputs + classes)). So agents wired to two big boxes and to a box
//!    of their own fed by both join nothing (family
//!    37 of docs/RELIABILITY.md; its agents paid n / 64 words each).
//!    An input whose own leaves and inputs are all among another input's
//!    is left out too (`covered`: a box beside its near twin that holds a
//!    tool more), its covers looked for once, among the classes made of
//!    its rarest element when they are at most 16: O(16 x its size) per
//!    input class, O(16 x inputs) per class. A box that adds a few tools
//!    of its own to the one input it forwards (a cover) is held, where
//!    the parts of a class meet, as that input and those tools (`pieces`;
//!    its own tools with the input's of the names where the two meet), so
//!    the covers of one box are held by it, not each as a part: O(its own
//!    words) once per cover, O(10) per part, however deep the covers of
//!    covers.
//!    Combinations that differ only by a few inputs of their own (agents
//!    wired to the same big boxes and each to a small box of their own)
//!    share a base: the leading run of the inputs, most used first, that
//!    leads another class's too is joined once, and each class adds only
//!    the inputs after it (while what the base formed and is still pending
//!    has been told again at most a few times over: an input after the base
//!    may hold all of it whole, so it never settles; the classes then join
//!    their inputs at once, which costs the words of those inputs each time
//!    when the input that holds the rest whole is not found by `upstream`).
//! 4. `build`: each class's consumers (their number and the first ten)
//!    pushed down the tries, once per node made; a leaf made of two apart
//!    leaves hands on what it got, so each leaf's clashes are counted where
//!    they come from: every distinct clash with its exact consumer count,
//!    first consumers and first violation. O(trie nodes + clashes).
//!
//! So a check costs O(N + E + L log L + S + C), where S is the trie nodes
//! visited and made and C the size of the distinct clashes (their
//! leaves). S is linear on every shape the work-counter tests double
//! (docs/RELIABILITY.md, "Worst cases"). The general bound S reaches is
//! the batch of reachability questions CMP-9 is: when classes join inputs
//! that *do* share tokens or segments, in many different combinations, a
//! union costs the smaller operand's differing nodes, up to (classes x
//! tokens / 64) words in all. That is the worst case, not the common one:
//! it needs many classes each combining, differently, inputs that each
//! hold many tokens of names that meet only there. Inputs that meet in
//! every word but are few (agents each wired to a different 8 of 16 boxes
//! whose neighbours share a name in every word) no longer reach it: where
//! two parts meet is made once per pair of parts, and each part's rest
//! once per part and the pairs taken from it, and a class holds those
//! (a lookup per pair and part; see `build`), so the words are paid per
//! distinct pair and rest, not per class.
//!
//! Reading: violation `i` is a binary search over the consumers' running
//! counts, then the `k`th clash of the consumer's set (O(16 x depth)). A
//! class held as parts is walked down all its parts at once (at most 16,
//! so O(16 x 16 x depth)); their words are combined (every word of every
//! part, then a binary search per read) only once walks down the same
//! parts have cost as many steps since the words were last combined, so
//! combining costs at most the walks it saves and a read stays
//! O(16 x depth) amortised, however many words the parts hold (n agents
//! each seeing a hub box's parts, read once each, no longer pay those
//! words each). The last few words found by walking down are kept, so a
//! violation read again (for each tool, for each path) or the next
//! clash of the same word is not walked down again.
//! A clash's first violation and its first ten consumers are kept; further
//! ones are scanned for, one set lookup per consumer with a violation,
//! resuming where the last read of the clash stopped; when that scan
//! finds fewer than one in four, the first 128 consumers of every clash
//! are pushed down the tries at once (O(trie nodes x 128), once). A
//! tool's path (see `paths`) costs its length to read, plus O(log) to
//! find where it enters its consumer's chain (a tool wired into many
//! boxes: its receivers as nested ranges, made once per tool), plus a
//! question per distinct provider class at each root it is passed through
//! up to the first whose path above it is remembered for the tool (a
//! path is a persistent list of chains, so the next path through that root
//! is one chain laid on it), or, the first time a root is read, the part
//! of the root's tree (boxes by distance) the path needs, which rent
//! grows (see `paths`). Trees are not shared between roots and grow box
//! by box: the gap that leaves is in docs/RELIABILITY.md, "Known limits".
//!
//! Renames (CONFORMANCE 15) are chosen by the check, once per clash at its
//! first violation: each tool renamed there asks whether the box it comes
//! through is on the kept tool's path. At a consumer of several provider
//! boxes that is first asked of the box, the consumer and their few
//! providers (`renames`, `on_path_told`: whether the kept tool reaches the
//! box, whether the boxes feeding it step elsewhere, whether one box that
//! steps to it is on every way), a bounded number of probes, then of a
//! search from both ends for each box feeding it (`off_every_shortest_way`:
//! the box is on no shortest way when every box feeding it that the kept
//! tool reaches is as near the consumer as it; first reads of a box's
//! lists charged to their entries, 256 entries a question besides); only
//! when they cannot tell is the kept tool's path found, once per clash. So a
//! kept tool far round a cycle of boxes, which no rename needs the path
//! of, is not found by the check at all (`cycle-far`: n agents, each a
//! path m / 2 boxes long, read off a tree of its own root, n x m / 2).

mod build;
mod covered;
mod entered;
mod flow;
mod giants;
mod intern;
mod paths;
mod pieces;
mod read;
mod renames;
mod sets;
mod shadows;
mod shortcuts;
mod tokens;
mod twins;
mod upstream;

use crate::graph::{NodeIx, ToolGraph};
use crate::locate::Location;
use crate::maps::Map;
use crate::names::{CandidateNames, NameIx};
use crate::report::Rename;
use crate::work::Work;

pub(crate) use build::collisions;
pub use read::{CollidingTool, Collision, GroupRef};

/// A clash by number, in the order of first violations; also the number
/// of the group that reports it.
pub type GroupIx = u32;
pub(crate) type ClashIx = u32;

/// Two or more distinct leaves with one name, seen by at least one
/// consumer.
pub(crate) struct Clash {
    pub name: NameIx,
    /// Its leaves, sorted by id: where they are in `Clashes::leaves`.
    leaves: Span,
    /// The segment of tokens that stands for it, and what it holds there.
    pub segment: u32,
    pub held: u64,
    /// The set word that holds it.
    pub word: u32,
    /// Consumers that see it (= its violations).
    pub count: u64,
    /// Its first consumers (all of them, or as many as reports show), as
    /// places among the consumers with a violation, in order: where they
    /// are in `Clashes::firsts`.
    first_consumers: Span,
    /// Its first violation, by index.
    pub first: u64,
    /// The box every tool of the clash is wired into, when there is one.
    pub through: Option<NodeIx>,
}

/// Where a clash's list is in a list all clashes share. Eight bytes, not
/// sixteen: a clash is 64 bytes, not 80 (16 MB of `ring-crowd` at 1,000).
/// A list of more than 2^32 entries, 16 GB of them, is far past any
/// workflow the memory target allows.
#[derive(Clone, Copy)]
struct Span {
    start: u32,
    len: u32,
}

// What `Span` says a clash costs.
const _: () = assert!(std::mem::size_of::<Clash>() == 64);

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }
}

/// The clashes, in the order of their first violations, and their lists
/// in two lists they share: a million clashes of a few tools each are
/// two lists, not two million (`ring-crowd`, 73).
#[derive(Default)]
pub(crate) struct Clashes {
    clashes: Vec<Clash>,
    leaves: Vec<NodeIx>,
    firsts: Vec<u32>,
    /// The clashes by (segment, what it holds there): four bytes a clash,
    /// where a table was some eighty (`of`).
    by_tokens: Vec<ClashIx>,
}

impl Clashes {
    /// Adds a clash of `leaves` (sorted by id) whose first consumers are
    /// `first_consumers`; its other fields as given.
    pub fn push(&mut self, clash: NewClash, leaves: &[NodeIx], first_consumers: &[u32]) {
        let span = |start: usize, len: usize| Span {
            start: u32::try_from(start).expect("the clashes' lists fit in u32"),
            len: u32::try_from(len).expect("a clash's list fits in u32"),
        };
        let clash = Clash {
            name: clash.name,
            leaves: span(self.leaves.len(), leaves.len()),
            segment: clash.segment,
            held: clash.held,
            word: clash.word,
            count: clash.count,
            first_consumers: span(self.firsts.len(), first_consumers.len()),
            first: clash.first,
            through: None,
        };
        self.leaves.extend_from_slice(leaves);
        self.firsts.extend_from_slice(first_consumers);
        self.clashes.push(clash);
    }

    /// Puts the clashes in the order of their first violations, and
    /// indexes them by their tokens.
    pub fn sort_by_first(&mut self) {
        self.clashes.sort_unstable_by_key(|c| c.first);
        let clashes = &self.clashes;
        self.by_tokens = (0..clashes.len() as ClashIx).collect();
        self.by_tokens
            .sort_unstable_by_key(|&c| (clashes[c as usize].segment, clashes[c as usize].held));
    }

    /// The clash that `held` stands for in `segment`, if it is one: a
    /// binary search.
    pub fn of(&self, segment: u32, held: u64) -> Option<ClashIx> {
        let key = |&c: &ClashIx| (self.clashes[c as usize].segment, self.clashes[c as usize].held);
        let at = self.by_tokens.binary_search_by_key(&(segment, held), key).ok()?;
        Some(self.by_tokens[at])
    }

    pub fn len(&self) -> usize {
        self.clashes.len()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Clash> {
        self.clashes.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Clash> {
        self.clashes.iter_mut()
    }

    pub fn get(&self, clash: ClashIx) -> &Clash {
        &self.clashes[clash as usize]
    }

    /// The clash's leaves, sorted by id.
    pub fn leaves(&self, clash: &Clash) -> &[NodeIx] {
        &self.leaves[clash.leaves.range()]
    }

    /// The clash's first consumers.
    pub fn first_consumers(&self, clash: &Clash) -> &[u32] {
        &self.firsts[clash.first_consumers.range()]
    }

    /// The clash whose first violation is `index`, if one is: a binary
    /// search, the clashes being in that order.
    pub fn first_at(&self, index: u64) -> Option<ClashIx> {
        let at = self.clashes.binary_search_by_key(&index, |c| c.first).ok()?;
        Some(at as ClashIx)
    }
}

/// A clash's fields but its lists, as `Clashes::push` takes them.
pub(crate) struct NewClash {
    pub name: NameIx,
    pub segment: u32,
    pub held: u64,
    pub word: u32,
    pub count: u64,
    pub first: u64,
}

/// A class held as parts, as one list: its words in order, each with the
/// clashes before it.
pub(crate) struct PartWords {
    words: Vec<(u32, u64)>,
    before: Vec<u64>,
}

/// The CMP-9 findings of one workflow, with the graph they point into. A
/// report holds `Collisions<'static>`: the ids and labels the findings name,
/// copied out of the input text, which is gone by the time they are read
/// (see `settled`).
pub struct Collisions<'a> {
    pub(crate) graph: ToolGraph<'a>,
    pub(crate) names: CandidateNames,
    flow: flow::Flow,
    layout: tokens::Layout,
    sets: sets::Sets,
    /// Per class, what it holds.
    held: Vec<sets::Held>,
    /// The words of classes held as parts, combined when the consumers of
    /// one are read by index often enough to pay for it (see `read`).
    part_words: std::sync::Mutex<read::PartReads>,
    /// Consumers with a violation, by id: (relevant ordinal, class).
    consumers: Vec<(u32, flow::ClassIx)>,
    /// `starts[i]`: violations before `consumers[i]`; one more entry, the
    /// total.
    starts: Vec<u64>,
    /// In the order of their first violations, which is how reports that
    /// show each clash once read them.
    clashes: Clashes,
    pub(crate) renames: Map<NodeIx, Rename>,
    pub(crate) locations: Map<NodeIx, Location>,
    paths: paths::Paths,
    /// Leaves moved onto kept twins, read as their paths' first boxes.
    moved: twins::Moved,
    /// Whether a leaf reaches a class, as asked by paths: a tool asked
    /// about at every agent a box feeds is looked up in the box's set once.
    carried: std::sync::Mutex<Map<(NodeIx, flow::ClassIx), bool>>,
    /// Clashes' consumers past the first few, as far as they were read.
    listing: std::sync::Mutex<read::Listing>,
    pub(crate) work: Work,
}
