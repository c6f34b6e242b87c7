//! Shortest paths of clashing tools to their consumers (SEMANTICS 6): from
//! the tool, at each step to the receiver nearest the consumer, and among
//! equals to the smallest id (the reference implementation's walk).
//!
//! A path ends in *chains*. A node with one relevant provider box (its
//! path parent, see `flow`) is reached only through that box, but from a
//! tool wired straight into it; following parents from a consumer up to
//! its *path root* gives a chain every path to the consumer ends with,
//! shared by every tool, whose nodes skew-binary jump pointers find in
//! O(log length) steps. A tool wired into a node of the chain enters
//! there (nearest the consumer: any other route is longer), found among
//! the fewer of the tool's receivers and the chain's nodes with leaves of
//! their own, or, when both are many, as the innermost of the tool's
//! receivers' ranges of the parent forest (`Nested`). Otherwise it
//! comes through the root, which has no provider box or several: when
//! only one of those carries the tool (its class holds the tool's token;
//! each distinct class of the providers is asked once), every route from
//! the tool to the root ends through it, and the path is the path to that
//! provider, then the chain; repeated, this gives a path as a few chains,
//! in O(log) steps each. That is free for the first 16 roots of a path
//! whose providers are of at most 16 classes. Past them, or at a root of
//! more classes, passing on is paid for: the work of the rest of the path
//! is rent, paid to the first such root of the path, the root's tree is
//! grown by all the rent paid each time that doubles, and once the tree
//! is whole it decides instead. So passing on at a root costs about what
//! its whole tree does, and a ladder of roots that many tools climb is
//! soon read off one tree, shared by every path that climbs it, not a
//! step per root for each path; a root few paths climb past never needs
//! its tree. A path's rent is at most its own work and the trees it grows
//! at most twice that (a root's growths sum to twice its rent, whether
//! its tree was kept or made again), so rent never costs more than the
//! passing on it pays for. (Until session 26 the first, second, fourth...
//! such root were each paid the rest of the path: log L times a climb of
//! L roots, and below a ladder of n diamonds, every rung a root two
//! providers bring every tool above into, as near (family 54,
//! `diamond-ladder`), every consumer's rungs grew trees through the whole
//! ladder above, n x n for n paths, 5 steps a path node read at n =
//! 12,000.) Those rungs are not passed one by one any more: a root whose
//! providers (two or more) all hang below one box is a *rung* (`Rung`), and
//! the tie there goes to the provider of smallest id for every tool that
//! reaches the box and is wired straight into none of the providers. Once
//! a tie has passed a path on, the rungs above are climbed as one *run*
//! (`Paths::run`): the tool's few receivers placed in the forest of rungs
//! by jumps tell where the run stops, O(receivers x log rungs), and the
//! run is one link of the path, its length known, a position in it found
//! by jumps over the rungs' nodes above (O(log)), its middle produced only
//! when read. The forest is made as roots are first asked about, each root
//! once (its providers looked at, a step each). So reading a path down
//! such a ladder costs O(log) plus the nodes read, whatever its rungs
//! (family 54 read in report order: 44M steps at 4,000, now 1.3M).
//!
//! A path is held as a persistent list of its chains from the consumer's
//! side (`Link`), with skew-binary jumps towards the tool, so a position
//! or a root is found in O(log chains). When a path is passed on at a
//! root, what lies above the root (the path to the provider) is
//! remembered per tool and root (`Paths::above`); the next path of that
//! tool through that root is one chain laid on it, in O(1), however many
//! roots lie above. So paths cost their number, not the sum of their
//! chains: agents below every rung of a ladder of n roots have paths
//! climbing 1 to n roots, each the one above's plus a rung (family 40,
//! `ladder-taps`: n x n / 2 chains before), and read in any order, the
//! first read climbs the ladder once and every other lays one chain.
//! Reading positions `from..to` of a path costs O(log chains) to find the
//! last, plus the nodes read. What is remembered is bounded by the
//! workflow (`REMEMBERED_PER_NODE` per relevant node, then forgotten at
//! once: never more work than without it, one step per chain laid again).
//!
//! When several providers of a root carry the tool from different boxes
//! above (no one box they all hang below decides), each carrying
//! provider's own path is found (`Paths::nearest_carrier`), and the walk
//! takes the shortest, and among the shortest the first by ids node by
//! node from the tool: the walk takes the nearest receiver, the smallest
//! id among equals, so its path is the first by ids of the shortest. Two
//! such paths are compared chain by chain (`walked_before`), so this costs
//! their chains, not their lengths. A provider's path read off a tree (a
//! descent first, then chains: its own root's tree decided) is compared
//! too (`Paths::taken_before`): the shorter is taken whatever it is made
//! of, and of two as long, the nodes read off trees, at most 64 from the
//! tool (`DESCENT_COMPARED`) one by one, past them where the two part
//! found by halving (`Paths::parted`), then the chains as above. Halving
//! is sound: each of the two is the first by ids of the shortest paths
//! to its provider, so its part up to any node is the first by ids of
//! the shortest paths to that node, and two alike at a position are
//! alike before it. Each node halving looks at is found by jumps, so a
//! comparison costs the two paths' chains, 64 nodes and O(log^2 length)
//! steps, however long the two stay alike; a search compares each
//! carrying provider's path with the best so far, once per provider
//! looked at (at most 64 for free, past that for the root's rent). (Two
//! as long alike for more than 64 nodes read off trees were left to the
//! root's tree until `parted`, session 26: a chain of 70 boxes above
//! `hub-taps`' team boxes, each agent's other provider a box of its own
//! below the chain, `tie`, grew each agent's tree through the hub's n
//! providers, n x n. Before that, any such path
//! handed the root to its tree: below a hub box F of n carrying
//! providers, whose tree rent had made whole, n agents each wired to F,
//! to a box of its own and to a tool of its own, `hub-taps`, each grew
//! its own tree through F's n providers for its tool's path, n x n in
//! all. Now F's search is paid for once, by rent, until F's tree is
//! whole; then each tool's path to F is read off it, from the tool's own
//! few receivers, and set against the agent's other provider's in
//! O(chains + 64 + log^2 length): reading a path there costs its length
//! plus a log, amortised.) A path searches so at most 32 roots,
//! nested searches included (`CARRIER_SEARCHES`): a lattice of such roots
//! cannot make it exponential, and a root searched whole is remembered
//! with the path above it, so a lattice's roots are searched once per
//! tool, not once per path. (The budget counted paths found until family
//! 43, `wide-splits`: agents fed by 33 boxes below 33 chains, one more
//! than it allowed, were read off trees grown up all 33 chains, n x 33n.)
//! A search of more than 64 providers (`PROVIDERS_LOOKED_AT`) is paid for
//! as rent, like passing on past the free passes: a path per provider for
//! each tool costs more than one tree shared by all once many tools come
//! through the root, so the search's work grows the root's tree, and once
//! the tree is whole it decides (family 44, `wider-splits`, 65 chains, was
//! read off trees until then). Two carrying providers' paths laid on one
//! path above a root share its links: they are alike from the leaf
//! through them, so only the chains after them are compared
//! (`shared_links`, a step a link not shared). When the 32 searches run
//! out at a root, the roots above it that its search needs are *warmed
//! up* (`Paths::warm_up`): found by a walk up through carrying providers
//! and searched one by one, each after those its providers hang below,
//! each then remembered, so the search at the root finds its providers'
//! paths at once. A warm-up is paid for as rent to that root, and
//! capped per leaf (doubled each time one runs past it, what it found
//! kept), so a leaf pays at most O(log) trees on the way to warm-ups that
//! cost twice its region, and leaves whose trees would stop near them
//! pay their first cap. It stops once the root's tree, grown alongside,
//! reaches the leaf: for a leaf of more than `FEW_RECEIVERS` receivers
//! told by the boxes the tree grew since it last looked, each looked for
//! in a set of the leaf's receivers made once per leaf, so a step a box
//! grown, not a step a receiver each time (such a leaf had no warm-up
//! until session 34). (A lattice of levels, each box fed by both above,
//! `lattice-ladder`: compared chain by chain, the paths to a level's two
//! boxes cost the levels above, n x n read from the top; read from the
//! bottom, each level's root handed to a tree of its own, grown to the
//! top, n x n again.)
//!
//! Only past that (a cycle of boxes, a warm-up refused), or once a
//! root's tree is whole, is the root's
//! *tree* read: the relevant boxes upstream of the
//! root by distance, found breadth first and only as far as a path asks
//! for. Trees are kept for the few roots read most recently and made again
//! when needed (a tree rent made whole is kept for good: its boxes were
//! paid for), so such a path costs its length plus, the first time its
//! root is read, the part of the root's tree it needs. Each step through
//! a tree looks at the smaller of a box's receivers and the boxes one
//! step nearer the root, so a box wired into many others, or a tool wired
//! into many boxes, costs one lookup per step, not its degree. Trees are
//! not shared between roots, and a tree grows box by box, a chain
//! included: n roots each read off its own tree below one region of m
//! boxes would cost n x m. No family reaches that since rent decides
//! when a tree is grown; trees over chains and roots, crossing a chain in
//! one step, would rule it out; they are not built. (A hub's tree read
//! for each agent's tool, alike with the agent's other path for more than
//! 64 nodes, reached it until `Paths::parted`, see above.) What remains:
//! a search spent and its warm-up refused, or a cycle of
//! boxes still hands the root to its own tree, but for a *cycle of roots*
//! (`Cycle`: members each fed by the one before and otherwise only by
//! boxes with no provider box, families 55 and 56). There a tool enters
//! only where it is wired into a member or into such a source, so its few
//! receivers place it on the cycle, and inside every route to a member
//! passes the one before: the path to a member is the shortest way in,
//! then round, laid as one link (an *arc*, `Paths::arc`) in
//! O(receivers) steps, its members read by their place in the cycle, a
//! step a node, and `contains` told by a box's place. It is asked where
//! the walk would go round the cycle (a provider's root not above the
//! root), and at the 16th, 32nd, 64th... root a walk passes, so no other
//! path pays for it; the cycle is found once, each root looked at once
//! (its providers, a step each). (Until session 27 a path inside such a
//! cycle was passed on root by root and, where the ordinals did not
//! follow the cycle, read off the tree of its root, grown out to the
//! tool and not shared: family 55 read n paths half round a cycle of n
//! at 12 steps a node, n x n / 2.) A *ring of roots* (`Ring`: members
//! each fed by the two beside it and otherwise only by sources, a cycle
//! fed both ways round, family 61) is read alike: a route to a member runs
//! round one way or the other, so a member's distance to the member the
//! path ends at is their distance round the ring the shorter way, and the
//! path is an arc of the ring one way round or the other, the walk's ties
//! decided where the walk decides them (the leaf's nearest receiver, a
//! source's nearest member, the smaller id of two as near; half round an
//! even ring, the smaller id of the two beside the member the path enters
//! at), in O(receivers) steps (`Paths::ring_arc`). It is asked where
//! several providers of a root carry the leaf and no one box above them
//! decides, before the search among them (which would go round the ring
//! root by root, then hand each root to its own tree); the ring is found
//! once, each root looked at once. (Until session 28 such a path was read
//! off the tree of the root it ended at, grown out to the tool and not
//! shared: family 61 read n paths half round a ring of n at 1,128 us a
//! tool at n = 1,000, n x n / 2 steps in all.) A cycle of roots may be
//! joined by *chains* (a root fed by the one before down boxes of one
//! provider box each, families 62 and 69): the chain boxes are members
//! of the cycle at their places round it, found once (the chain crossed
//! to its root in one step while the cycle is looked for, its boxes
//! listed a step each once it is one), so positions and distances round
//! count them, and an arc may end at a root reached from below by its
//! chain (the rest of that chain laid under it, found by jumps). A tool
//! wired into more than `FEW_RECEIVERS` boxes (family 72: 17 that feed
//! nothing; family 75: 17 that lead to an agent elsewhere) has its ways
//! into the cycle (members it is wired into, members its sources feed)
//! picked out once per leaf and cycle, a step a receiver, sorted by place
//! round it, and an arc finds the nearest by binary searches. A ring's
//! roots may be joined by chains each way round too (family 76: the chain
//! boxes members of the ring one way round, their places counted; boxes
//! the two chains below a root share, both ways round: until session 34
//! read off trees, a ring of boxes each split in two in series at 4.2x to
//! 4.9x per doubling), and
//! a ring may miss one edge one way round (that way round then does not
//! wrap past it; until session 32 read off trees: family 105 at 4.6x to
//! 6.8x).
//! (Until session 28 chains and family 72 were read off trees: families
//! 62, 69 and 72 read n paths half round a cycle of n at 3.9x to 4.1x the
//! work for twice the file, 6.2M steps at 1,000; until session 29,
//! families 75 and 76 too, at 3.9x to 4.4x.) A *skip cycle* (`Skips`:
//! roots each fed by the two before it one way round, family 71) is read
//! alike: from a member `g` before the one the path ends at, the walk is
//! `ceil(g / 2)` steps away, so it steps two at a time, and where `g` is
//! odd (a step of one as near as a step of two) the smaller id of the
//! two next decides; after one step of one, `g` is even. So the path is
//! steps of two up to its *turn*, the first member, an even number of
//! places on, whose next has the smaller id of the next two, then steps
//! of two after one of one: the first turn on from each place is found
//! for the whole cycle once (O(members)), and the path is one link, laid
//! in O(receivers), its members read by place (`Paths::skip_arc`, asked
//! where a ring's arc is, at the same root). (Until session 30 such a path
//! was read off the tree of its root, grown out to the tool: families 71,
//! 74, 78, 79 and 80 read their clashes' paths at 3.3x to 4.5x the work
//! for twice the file, 1.84 billion steps at 4,000.) Its roots may be
//! joined by chains of one length, each step then as many edges more, a
//! tie decided where the two chains below a member part (until session 34
//! read off trees: families 114 to 116 at 4.4x to 6.3x). A one-way cycle's
//! members may be fed down chains below sources too (*fed sides*, family
//! 70): a leaf wired into a box of a source's tree enters down the tree
//! to a fed side, the fed sides below a box one range of the forest's
//! walk (until session 30 read off trees: family 70 at 3.3x to 4.5x the
//! work for twice the file); so may a ring's and a skip cycle's, the
//! walk's ties down them decided where its nearest ways part (until
//! session 31 one fed side made either none, its paths read off trees:
//! families 86 and 87 at 4.3x to 5.3x), and a tool of many receivers
//! goes down them too (88 to 90); below a box with more than
//! `FEW_ENTRIES` of them, the walk's way is the least by distance and
//! the walk's order of the sides, ranked once per cycle (until session
//! 32 read off trees: families 94 to 98 at 4.8x to 6.9x). Where ways into
//! a one-way cycle are as short, the walk's choice among them is found as
//! in a skip cycle (until session 33 read off trees: families 106 to 108
//! at 3.6x to 4.1x). A member fed by two boxes that have providers of
//! their own and are not a ring's (a chord, or a box beside a chain), a
//! tool of more than `FEW_RECEIVERS` receivers wired straight into a
//! chain box of a ring, are passed on and read off trees as before.
//!
//! One module, though long: the three ways a path is found (along a chain,
//! passed on at a root, read off a root's tree) hand a path from one to the
//! next mid-walk and share the rent that decides when a tree grows. The cost
//! argument above holds only for the three together; split, each file would
//! hold a part of it that cannot be checked alone. The two shortcuts past
//! roots that stand alone are children: `rungs` (a run of tied rungs found
//! by jumps) and `arcs` (a stretch of a cycle of roots), each a link of a
//! path this module lays and reads.

use std::sync::{Arc, Mutex};

use crate::flatten::wired_directly;
use crate::graph::{NodeIx, ToolGraph};
use crate::maps::{new_map, Map, Set};

use super::flow::{PathFacts, NONE};

mod arcs;
mod rungs;

use arcs::{Cycle, CycleKey, Entered, FedPlaces, Found, Ring, Skips, Start, WaysIn};
use rungs::{rung_ancestor, Rung};

/// What a path is read from: the graph, the reduction's path facts, each
/// node's relevant ordinal, and whether a leaf reaches a relevant node
/// (given by its ordinal).
#[derive(Clone, Copy)]
pub(crate) struct Wiring<'w, 'a> {
    pub g: &'w ToolGraph<'a>,
    pub facts: &'w PathFacts,
    pub ordinal: &'w [u32],
    pub carries: &'w dyn Fn(NodeIx, u32) -> bool,
}

/// One tool's path to one consumer, as positions; its nodes are found when
/// read.
#[derive(Debug, Clone)]
pub(crate) struct TreePath {
    leaf: NodeIx,
    /// The first box after the leaf and its distance to `origin`, when
    /// the leaf enters through that root's tree.
    first: Option<(NodeIx, u32)>,
    /// The top of the chain nearest the leaf.
    origin: u32,
    /// The chains, from the consumer's side: the head ends at the
    /// consumer, and each chain's top is a provider's path root whose
    /// provider is the bottom of the next.
    head: Arc<Link>,
}

/// One chain of a path and those nearer its leaf: a persistent list, so
/// that paths passed on through one root share what lies above it (each
/// agent below a ladder of roots is the path above plus a chain, not a
/// copy of it), with skew-binary jumps towards the leaf (Myers), so that a
/// position or a root is found in O(log chains).
#[derive(Debug)]
struct Link {
    /// The nodes from `top` down to `bottom` along parents, as ordinals.
    top: u32,
    bottom: u32,
    /// The path root of the chain: roots fall strictly from the consumer's
    /// side (ordinals follow the units' topological order). Of a run of
    /// rungs, the root of its top chain (the smallest of its roots).
    root: u32,
    /// The root of its chain nearest the consumer: `root`, but for a run.
    near_root: u32,
    /// A run of rungs (`Rung`), as its rungs nearest the consumer and
    /// nearest the leaf, (low, high): one chain per rung, from `up(high)`
    /// down to `star(low)`, read only when asked for.
    run: Option<(u32, u32)>,
    /// An arc of a cycle of roots (`Cycle`), as the cycle and where it
    /// starts (its top's place, and in a skip cycle its turn): its nodes
    /// are the cycle's members from there on (`Cycle::place`), read only
    /// when asked for.
    arc: Option<(Arc<Cycle>, Start)>,
    /// Whether this link or one nearer the leaf is an arc.
    arcs: bool,
    /// Nodes of this chain and of every chain nearer the leaf.
    nodes: u32,
    /// Chains from this one to the leaf's side, this one included.
    count: u32,
    /// The next chain towards the leaf.
    rest: Option<Arc<Link>>,
    /// A chain further towards the leaf; None on the last.
    jump: Option<Arc<Link>>,
}

impl Drop for Link {
    /// Unlinks the chains it alone holds one by one: a list of a million
    /// chains must not be dropped by a million nested calls.
    fn drop(&mut self) {
        // A jump lands on a chain `rest` still holds, so dropping it
        // first never frees anything.
        drop(self.jump.take());
        let mut next = self.rest.take();
        while let Some(link) = next {
            match Arc::try_unwrap(link) {
                Ok(mut only) => {
                    drop(only.jump.take());
                    next = only.rest.take();
                }
                Err(_) => break,
            }
        }
    }
}

/// A chain met by `Paths::path_within`: (top, bottom, root, None), or a
/// run of rungs, (its top, NONE, its top, (low, high)).
type Piece = (u32, u32, u32, Option<(u32, u32)>);

/// What a path holds below one of its chains (nearer the leaf): the path
/// to a path root, remembered per leaf and root (`Paths::above`).
#[derive(Debug, Clone)]
struct Below {
    first: Option<(NodeIx, u32)>,
    /// The top of the chain nearest the leaf, when there are chains.
    origin: u32,
    links: Option<Arc<Link>>,
}

impl Below {
    /// Nothing yet: the chain laid on it is the one nearest the leaf,
    /// entered from `first` or straight from the leaf.
    fn start(first: Option<(NodeIx, u32)>) -> Below {
        Below {
            first,
            origin: NONE,
            links: None,
        }
    }

    /// This, with the chain from `top` down to `bottom` (of path root
    /// `root`) laid on it, as a path of `leaf`.
    fn with(&self, facts: &PathFacts, leaf: NodeIx, (top, bottom): (u32, u32), root: u32) -> TreePath {
        let head = Link::on(
            self.links.as_ref(),
            (top, bottom),
            root,
            chain_len(facts, top, bottom) as u32,
        );
        TreePath {
            leaf,
            first: self.first,
            origin: if self.links.is_some() { self.origin } else { top },
            head,
        }
    }

    /// This, with the arc of `cycle` from `start`, `len` members, laid on
    /// it, as a path of `leaf`: one link, however long.
    fn with_arc(&self, leaf: NodeIx, cycle: &Arc<Cycle>, start: Start, len: u32) -> TreePath {
        let head = Link::arc_on(self.links.as_ref(), cycle, start, len);
        TreePath {
            leaf,
            first: self.first,
            origin: if self.links.is_some() { self.origin } else { head.top },
            head,
        }
    }

    /// This, with the run of rungs from `low` (nearest the consumer) up to
    /// `high` laid on it (its top `up(high)`, its bottom `star(low)`), as a
    /// path of `leaf`: one link, however many rungs.
    fn with_run(&self, rungs: &Map<u32, Rung>, leaf: NodeIx, (low, high): (u32, u32)) -> TreePath {
        let (l, h) = (rungs[&low], rungs[&high]);
        let top = h.up;
        let len = l.weight - rungs[&top].weight;
        let head = Link::laid(self.links.as_ref(), (top, l.star), (top, l.up), Some((low, high)), len);
        TreePath {
            leaf,
            first: self.first,
            origin: if self.links.is_some() { self.origin } else { top },
            head,
        }
    }
}

impl Link {
    /// An arc of `cycle` from `start`, `len` members, laid on `rest`: its
    /// root the cycle's smallest (roots still fall: those nearer the leaf
    /// are above the cycle, those nearer the consumer below it).
    fn arc_on(rest: Option<&Arc<Link>>, cycle: &Arc<Cycle>, start: Start, len: u32) -> Arc<Link> {
        let (top, bottom) = (cycle.node(start, 0), cycle.node(start, len - 1));
        let link = Link::laid(rest, (top, bottom), (cycle.min, bottom), None, len);
        let mut link = Arc::try_unwrap(link).expect("a link just made");
        link.arc = Some((Arc::clone(cycle), start));
        link.arcs = true;
        Arc::new(link)
    }

    /// The chain from `top` down to `bottom` (of path root `root`, `len`
    /// nodes), laid on `rest`.
    fn on(rest: Option<&Arc<Link>>, (top, bottom): (u32, u32), root: u32, len: u32) -> Arc<Link> {
        Link::laid(rest, (top, bottom), (root, root), None, len)
    }

    /// A chain, or a run of rungs (`run`), of `len` nodes from `top` down
    /// to `bottom`, its roots from `roots.0` (its top's) to `roots.1`
    /// (nearest the consumer), laid on `rest`.
    fn laid(
        rest: Option<&Arc<Link>>,
        (top, bottom): (u32, u32),
        (root, near_root): (u32, u32),
        run: Option<(u32, u32)>,
        len: u32,
    ) -> Arc<Link> {
        let (nodes, count) = rest.map_or((0, 0), |l| (l.nodes, l.count));
        let jump = rest.map(|p| {
            // Myers' skew-binary jump: two equal spans make one.
            let j = p.jump.as_ref().unwrap_or(p);
            let jj = j.jump.as_ref().unwrap_or(j);
            if p.count - j.count == j.count - jj.count {
                Arc::clone(jj)
            } else {
                Arc::clone(p)
            }
        });
        Arc::new(Link {
            top,
            bottom,
            root,
            near_root,
            run,
            arc: None,
            arcs: rest.is_some_and(|l| l.arcs),
            nodes: nodes + len,
            count: count + 1,
            rest: rest.cloned(),
            jump,
        })
    }
}

impl TreePath {
    /// Its whole self, to lay another chain on.
    fn as_below(&self) -> Below {
        Below {
            first: self.first,
            origin: self.origin,
            links: Some(Arc::clone(&self.head)),
        }
    }

    /// Its chains from the leaf's side, (top, bottom), runs of rungs laid
    /// out rung by rung, from the chain after `shared` (a link of its list,
    /// or None: all); `steps` counts them.
    fn chains_after(&self, shared: Option<&Arc<Link>>, rungs: &Map<u32, Rung>, steps: &mut u64) -> Vec<(u32, u32)> {
        let mut out = Vec::with_capacity(self.head.count as usize);
        let mut at = Some(&self.head);
        while let Some(link) = at.filter(|&l| !shared.is_some_and(|s| Arc::ptr_eq(l, s))) {
            *steps += 1;
            match link.run {
                None if link.arc.is_some() => {
                    // An arc, member by member (each counted): read so
                    // only where two paths as long are told apart.
                    let (cycle, start) = link.arc.as_ref().expect("an arc");
                    for t in (0..link.len() as u32).rev() {
                        *steps += 1;
                        let o = cycle.node(*start, t);
                        out.push((o, o));
                    }
                }
                None => out.push((link.top, link.bottom)),
                Some((low, high)) => {
                    let mut r = low;
                    loop {
                        *steps += 1;
                        let rung = rungs[&r];
                        out.push((rung.up, rung.star));
                        if r == high {
                            break;
                        }
                        r = rung.up;
                    }
                }
            }
            at = link.rest.as_ref();
        }
        out.reverse();
        out
    }

    /// The chain that holds position `position` (past the leaf and the
    /// descent), found by jumps from the consumer's side; `base` is the
    /// position of the first chain's top.
    fn link_at(&self, base: usize, position: usize, steps: &mut u64) -> &Link {
        // A chain's end (one past its bottom's position) and its start
        // (the end of the chain nearer the leaf); both fall towards the
        // leaf.
        let end = |l: &Link| base + l.nodes as usize;
        let start = |l: &Link| base + l.rest.as_ref().map_or(0, |r| r.nodes as usize);
        let mut at: &Link = &self.head;
        loop {
            if start(at) <= position {
                return at;
            }
            *steps += 1;
            at = match (&at.jump, &at.rest) {
                (Some(j), _) if end(j) > position => j,
                (_, Some(r)) => r,
                _ => return at, // not reached: the last chain starts at `base`
            };
        }
    }

    /// The chain of path root `root`, if the path crosses its tree: roots
    /// fall from the consumer's side, so jumps find it.
    fn link_of_root(&self, root: u32, steps: &mut u64) -> Option<&Link> {
        let mut at: &Link = &self.head;
        while at.root > root {
            *steps += 1;
            at = match (&at.jump, &at.rest) {
                (Some(j), _) if j.root > root => j,
                (_, Some(r)) => r,
                _ => return None,
            };
        }
        // A run holds the root if it is the top of one of its rungs
        // (`Paths::chain_of_root` tells).
        // An arc holds every root of its cycle it may hold: the cycle's
        // roots lie between its own root and those nearer the consumer.
        (at.root == root || (at.run.is_some() && root <= at.near_root) || at.arc.is_some()).then_some(at)
    }
}

/// Whether box `o` is on the chain of a skip cycle the leaf came down into
/// the arc `arc` of `cycle` by (laid just above the arc, held as a root
/// above the cycle's: `Paths::lay`).
fn entered_down(facts: &PathFacts, arc: &Link, cycle: &Cycle, o: u32, steps: &mut u64) -> bool {
    let Some(chain) = arc.rest.as_deref() else {
        return false;
    };
    chain.arc.is_none()
        && chain.run.is_none()
        && chain.root <= cycle.min
        && facts.root_of[chain.top as usize] == facts.root_of[o as usize]
        && cycle.pos.contains_key(&facts.root_of[o as usize])
        && facts.depth[o as usize] >= facts.depth[chain.top as usize]
        && facts.is_ancestor(o, chain.bottom, steps)
}

impl Link {
    /// Its own nodes (those of the links nearer the leaf aside).
    fn len(&self) -> usize {
        (self.nodes - self.rest.as_ref().map_or(0, |r| r.nodes)) as usize
    }
}

/// The relevant boxes upstream of one path root, by distance.
struct Tree {
    root: u32,
    /// Distance to the root of every box found; the root's is 0.
    dist: Map<NodeIx, u32>,
    /// The boxes found, level by level: level `l` is
    /// `order[levels[l]..levels[l + 1]]` (the last level may be partial
    /// only while it is being made).
    order: Vec<NodeIx>,
    levels: Vec<usize>,
    /// Whether no box lies beyond the last level.
    exhausted: bool,
    /// Where the breadth-first walk resumes: the box of `order` whose
    /// providers are being looked at, and how many of them were.
    cursor: (usize, usize),
    /// The step after a box towards the root, once found.
    next: Map<NodeIx, NodeIx>,
    /// Skew-binary jumps along `next`, once found.
    jump: Map<NodeIx, NodeIx>,
}

/// How many trees are kept at once.
const TREES_KEPT: usize = 8;

/// The rent a root first grows its tree by (see `Paths::pay_rent`).
const FIRST_RENT: u64 = 64;

/// The steps of a warm-up between two growths of the root's tree
/// (`Paths::warm_up`).
const WARM_SLICE: u64 = 64;

/// How many steps a warm-up may take for each step the root's tree is
/// grown alongside it: searching a root costs some tens of steps where
/// the tree crosses a box in one or two, so a warm-up through a region
/// is let run that much ahead of the tree growing through it.
const WARM_AHEAD: u64 = 128;

/// Path trees, shared by every read of a report's paths.
pub(crate) struct Paths {
    /// The trees read most recently, the last the latest.
    trees: Mutex<Vec<Arc<Mutex<Tree>>>>,
    /// Trees rent made whole, kept for good: their boxes were paid for by
    /// the work of the paths passed on at their roots, and a root whose
    /// tree decides is never again passed on (whatever order roots are
    /// read in).
    whole: Mutex<Map<u32, Arc<Mutex<Tree>>>>,
    /// Per root that passed paths on for rent (`Paths::path`): the rent
    /// paid, and the rent at which its tree is grown next.
    rent: Mutex<Map<u32, (u64, u64)>>,
    /// Per tool wired into many boxes, those boxes as nested ranges of the
    /// parent forest (see `Nested`), made when first asked for.
    nested: Mutex<Map<NodeIx, Arc<Nested>>>,
    /// Per leaf and path root a path was passed on at, the path up to the
    /// root (`Below`): the next path passed on there is one chain laid on
    /// it. Emptied when it holds more than `REMEMBERED_PER_NODE` per
    /// relevant node, so that reading paths never holds more than the
    /// workflow does.
    above: Mutex<Map<(NodeIx, u32), Below>>,
    /// Per path root a path reached, and every root above it: whether it
    /// is a rung, and where (see `Rung`), made when first asked for.
    rungs: Mutex<Map<u32, Rung>>,
    /// Per path root asked about, the cycle of roots it is a member of
    /// (`Cycle`), or None; made when first asked for, each root once.
    cycles: Mutex<Map<u32, Option<Arc<Cycle>>>>,
    /// Per path root asked about, the ring of roots it is a member of
    /// (`Ring`), or None; made when first asked for, each root once.
    rings: Mutex<Map<u32, Option<Arc<Ring>>>>,
    /// Per path root asked about, the cycle of roots each fed by the two
    /// before it that it is a member of (`Paths::skip_cycle`), or None;
    /// each root once.
    skips: Mutex<Skips>,
    /// Per leaf of more than `FEW_RECEIVERS` receivers an arc was asked
    /// about, the boxes it may enter a cycle or ring of roots by (see
    /// `Paths::entered`), made when first asked for, each leaf once.
    entrances: Mutex<Map<NodeIx, Entered>>,
    /// Per leaf of more than `FEW_RECEIVERS` receivers a warm-up was asked
    /// for, its receivers, for the warm-up to tell whether the root's tree
    /// has reached it a step per box the tree grew (`Paths::warm_up`).
    receiver_sets: Mutex<Map<NodeIx, Arc<Set<NodeIx>>>>,
    /// Per such leaf and cycle an arc was asked about (`Cycle::key`: a
    /// ring's two ways round are two), the leaf's ways into it by place
    /// (`WaysIn`), each once.
    ways_in: Mutex<Map<(NodeIx, CycleKey), Arc<WaysIn>>>,
    /// Per source of more than `FEW_ENTRIES` receivers an arc was asked
    /// about, its relevant receivers' ordinals, sorted (see
    /// `Paths::fed_places`), each source once.
    fed: Mutex<Map<u32, Arc<[u32]>>>,
    /// Per such source and cycle, the places of the members it feeds,
    /// sorted, each once.
    fed_places: Mutex<FedPlaces>,
}

impl Default for Paths {
    fn default() -> Self {
        Paths {
            trees: Mutex::new(Vec::new()),
            whole: Mutex::new(new_map()),
            rent: Mutex::new(new_map()),
            nested: Mutex::new(new_map()),
            above: Mutex::new(new_map()),
            rungs: Mutex::new(new_map()),
            cycles: Mutex::new(new_map()),
            rings: Mutex::new(new_map()),
            skips: Mutex::new(Skips::default()),
            entrances: Mutex::new(new_map()),
            receiver_sets: Mutex::new(new_map()),
            ways_in: Mutex::new(new_map()),
            fed: Mutex::new(new_map()),
            fed_places: Mutex::new(new_map()),
        }
    }
}

impl Paths {
    /// The tree of path root `root`, from those kept or made anew.
    fn tree(&self, facts: &PathFacts, root: u32) -> Arc<Mutex<Tree>> {
        if let Some(tree) = self.whole.lock().unwrap_or_else(|e| e.into_inner()).get(&root) {
            return Arc::clone(tree);
        }
        let mut kept = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = kept
            .iter()
            .position(|t| t.lock().unwrap_or_else(|e| e.into_inner()).root == root)
        {
            let tree = kept.remove(at);
            kept.push(Arc::clone(&tree));
            return tree;
        }
        let node = facts.nodes[root as usize];
        let mut dist = new_map();
        dist.insert(node, 0);
        let tree = Arc::new(Mutex::new(Tree {
            root,
            dist,
            order: vec![node],
            levels: vec![0, 1],
            exhausted: false,
            cursor: (0, 0),
            next: new_map(),
            jump: new_map(),
        }));
        if kept.len() == TREES_KEPT {
            kept.remove(0);
        }
        kept.push(Arc::clone(&tree));
        tree
    }

    /// `root` passed a path on for `rent` steps: once its rent paid
    /// reaches the next threshold, its tree is grown by all of it (from
    /// where it stood, if still kept) and the threshold doubles. Growing
    /// costs at most twice the rent paid, and a tree whose boxes the rent
    /// covers becomes whole.
    fn pay_rent(&self, w: Wiring<'_, '_>, root: u32, rent: u64, steps: &mut u64) {
        let due = {
            let mut rents = self.rent.lock().unwrap_or_else(|e| e.into_inner());
            let (paid, next) = rents.entry(root).or_insert((0, FIRST_RENT));
            *paid += rent;
            if *paid < *next {
                return;
            }
            *next = 2 * *paid;
            *paid
        };
        let tree = self.tree(w.facts, root);
        let whole = {
            let mut grown = tree.lock().unwrap_or_else(|e| e.into_inner());
            grown.grow_by(w, due, steps);
            grown.exhausted
        };
        if whole {
            self.whole.lock().unwrap_or_else(|e| e.into_inner()).insert(root, tree);
        }
    }

    /// Whether the tree of `root` is kept and whole (every box above the
    /// root found).
    fn tree_whole(&self, root: u32) -> bool {
        if self.whole.lock().unwrap_or_else(|e| e.into_inner()).contains_key(&root) {
            return true;
        }
        let kept = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter().any(|t| {
            let t = t.lock().unwrap_or_else(|e| e.into_inner());
            t.root == root && t.exhausted
        })
    }

    /// The path of `leaf` to the consumer of ordinal `consumer`; `steps`
    /// counts the work.
    pub fn path(&self, w: Wiring<'_, '_>, leaf: NodeIx, consumer: u32, steps: &mut u64) -> TreePath {
        let mut budget = Searches::new(false);
        self.path_within(w, leaf, consumer, steps, &mut budget)
    }

    /// `path`, finding at most `budget` more paths to the providers of
    /// roots that several carry the leaf into (`nearest_carrier`).
    fn path_within(
        &self,
        w: Wiring<'_, '_>,
        leaf: NodeIx,
        consumer: u32,
        steps: &mut u64,
        budget: &mut Searches,
    ) -> TreePath {
        let facts = w.facts;
        // The chains met, from the consumer's side: (top, bottom, root,
        // None), or a run of rungs (up(high), NONE, up(high), (low, high)),
        // the last the one nearest the leaf unless what lies above it was
        // known (`below`).
        let mut chains: Vec<Piece> = Vec::new();
        let mut bottom = consumer;
        // The first root that passed the path on beyond the free passes,
        // with the steps counted when it did: the rest of the path's work
        // is its rent (once per path, so rent never exceeds the path's
        // work; see `Paths::pay_rent`).
        let mut rented: Option<(u32, u64)> = None;
        // What lies above the last chain, when found whole: a path to a
        // root passed on at before, or the path to the root's provider.
        let mut below: Option<Below> = None;
        // Whether the last root passed the path on at a tie (`passed_to`).
        let mut tied = false;
        // An arc of a cycle of roots, (its piece in `chains`, the cycle,
        // its top's position, its members), at most one: it ends the walk.
        let mut arc: Option<(usize, Arc<Cycle>, Start, u32)> = None;
        let first = loop {
            if let Some(entry) = self.entry(w, leaf, bottom, steps) {
                // Its root looked up, as everything below, in the time of
                // the steps that found the chain.
                chains.push((entry, bottom, facts.root_of[entry as usize], None));
                break None;
            }
            let root = facts.root(bottom, steps);
            chains.push((root, bottom, root, None));
            // A root passed on at before: the path above it is known, and
            // the same whatever chain below it the path ends in.
            if let Some(known) = self.remembered(leaf, root) {
                below = Some(known);
                break None;
            }
            // A root of a cycle of roots, reached from below as a
            // provider (its chain itself): the path inside the cycle is an
            // arc back to where the leaf enters it, found from the leaf's
            // few receivers in O(receivers) steps (`Paths::arc`), laid as
            // one link, its members read only when asked for. Asked only
            // once the free passes are spent, and then at the 32nd, 64th...
            // root: a path of fewer roots costs no more than before, and a
            // longer one asks O(log) times, about a cycle it passes 16 to
            // 2x roots into (its walk so far) at most.
            if chains.len() >= ROOTS_PASSED
                && chains.len().is_power_of_two()
                && self.lay_arc(w, leaf, root, &mut chains, &mut arc, steps)
            {
                break None;
            }
            // Rungs the leaf climbs alike, a run of them laid as one link
            // in O(log) steps (`Paths::run`); the path goes on from the
            // root above the run. Only once a tie below one box passed the
            // path on to this root (so no other shape pays for asking), and
            // never at the consumer's own root: that first pass, as cheap
            // as before, finds the path above the next root when it is
            // remembered (the paths of one tool at the agents below each
            // rung in turn, each the one above's and a rung).
            let root = match tied.then(|| self.run(w, leaf, root, steps)).flatten() {
                Some((low, high)) => {
                    let up = self.rung(w, high, steps).up;
                    chains.push((up, NONE, up, Some((low, high))));
                    if let Some(known) = self.remembered(leaf, up) {
                        below = Some(known);
                        break None;
                    }
                    up
                }
                None => root,
            };
            // The one provider of the root that carries the leaf, if only
            // one does (and it does not lead back to a root met already):
            // free for a few roots of few classes, then while the root's
            // tree is not whole, for rent.
            let free = facts.carriers_of(root).len() <= CARRIERS_LOOKED_UP && chains.len() <= ROOTS_PASSED;
            // Whether the one provider carrying the leaf leads round a
            // cycle of boxes (to a root not above this one).
            let mut round = false;
            if free || !self.tree_whole(root) {
                let at = *steps;
                let pay = |rented: &mut Option<(u32, u64)>, charged: bool| {
                    if (!free || charged) && rented.is_none() {
                        *rented = Some((root, at));
                    }
                };
                // Ordinals follow the units' topological order, so a root
                // further up has a smaller one: the walk cannot go round a
                // cycle of boxes (there, the tree decides).
                match passed_to(w, leaf, root, steps) {
                    Some((p, tie)) if facts.root(p, steps) < root => {
                        pay(&mut rented, false);
                        bottom = p;
                        tied = tie;
                        continue;
                    }
                    Some(_) => round = true,
                    None => {
                        // A member of a ring of roots (a cycle fed both
                        // ways round): the path inside it is an arc, one
                        // way round or the other, the walk's ties decided
                        // where it decides them (`Paths::ring_arc`), laid
                        // as one link in O(receivers) steps. Asked only
                        // here, where several providers carry the leaf
                        // and a search would follow: the search would go
                        // round the ring root by root, and then hand each
                        // root to its own tree, grown out to the leaf.
                        // At the root's own chain, whether the path ends
                        // at the root or below it (a consumer hanging
                        // below a member: every route to it passes the
                        // root, the rest of the chain laid under the arc).
                        // Alike a member of a cycle of roots each fed by the
                        // two before it (`Paths::skip_arc`): the walk's ties
                        // there decided by ids, in O(receivers) steps.
                        if chains.last().is_some_and(|c| c.0 == root && c.3.is_none()) {
                            let found = self.ring_arc(w, leaf, root, steps);
                            if Self::lay(facts, found, root, &mut chains, &mut arc, steps) {
                                break None;
                            }
                            let found = self.skip_arc(w, leaf, root, steps);
                            if Self::lay(facts, found, root, &mut chains, &mut arc, steps) {
                                break None;
                            }
                        }
                        // A root of more providers than a search looks at
                        // for free is searched for rent, while its tree is
                        // not whole: the search costs a path per provider
                        // for each tool, the tree is shared by all.
                        let many = facts.providers_of(root).len() > PROVIDERS_LOOKED_AT;
                        let searched = !(many && self.tree_whole(root));
                        if let Some(path) = searched
                            .then(|| self.nearest_carrier(w, leaf, root, steps, budget))
                            .flatten()
                        {
                            pay(&mut rented, many);
                            below = Some(path.as_below());
                            break None;
                        }
                    }
                }
            }
            // Before handing the root to its tree where the walk would go
            // round a cycle of boxes (its ordinals not following the
            // cycle), an arc, if the root is a member of a cycle of roots:
            // trees are not shared between roots, and each would grow out
            // to the leaf. Only there: no other root pays for asking.
            if round && self.lay_arc(w, leaf, root, &mut chains, &mut arc, steps) {
                break None;
            }
            let tree = self.tree(facts, root);
            let mut tree = tree.lock().unwrap_or_else(|e| e.into_inner());
            break tree.first_step(w, leaf, steps);
        };
        // Rent: the first root that passed the path on for rent grows its
        // tree by the work done since, so passing on there costs about
        // what its whole tree would before the tree decides instead: a
        // ladder many consumers climb from one rung is soon read off that
        // rung's tree. Only the first is paid: paying the first, second,
        // fourth... of L such roots each the rest of the climb (until
        // session 26) paid log L times the path's work, and grew a tree
        // for each consumer's rungs, each through the whole ladder above
        // (`diamond-ladder`: n consumers x n boxes). Paid once, a path's
        // rent is at most its own work, and what rent grows at most twice
        // that.
        let end = *steps;
        if let Some((root, at)) = rented {
            self.pay_rent(w, root, end - at, steps);
        }
        // The chains laid one on another from the leaf's side, each root
        // remembered with the path above it.
        let mut below = below.unwrap_or_else(|| Below::start(first));
        let mut path = None;
        let rungs =
            (chains.iter().any(|c| c.3.is_some())).then(|| self.rungs.lock().unwrap_or_else(|e| e.into_inner()));
        for (i, &(top, bottom, root, run)) in chains.iter().enumerate().rev() {
            if let Some((_, cycle, from, len)) = arc.as_ref().filter(|a| a.0 == i) {
                let laid = below.with_arc(leaf, cycle, *from, *len);
                below = laid.as_below();
                path = Some(laid);
                continue;
            }
            if top == root && (i + 1 < chains.len() || below.links.is_some() || below.first.is_some()) {
                self.remember(w, leaf, root, &below);
            }
            let laid = match (run, &rungs) {
                (Some(run), Some(rungs)) => below.with_run(rungs, leaf, run),
                _ => below.with(facts, leaf, (top, bottom), root),
            };
            below = laid.as_below();
            path = Some(laid);
        }
        path.expect("a path has a chain")
    }

    /// When the path of `leaf` to member `root` of a cycle of roots is an
    /// arc (`Paths::arc`), the walk's last piece (the root's own chain)
    /// made that arc, and the source the leaf comes through added; true
    /// then: the walk ends there.
    fn lay_arc(
        &self,
        w: Wiring<'_, '_>,
        leaf: NodeIx,
        root: u32,
        chains: &mut Vec<Piece>,
        arc: &mut Option<(usize, Arc<Cycle>, Start, u32)>,
        steps: &mut u64,
    ) -> bool {
        // Only at the root's own chain (not at the top of a run of rungs
        // just climbed: its rungs are no cycle's).
        if !chains.last().is_some_and(|c| c.0 == root && c.3.is_none()) {
            return false;
        }
        let found = self.arc(w, leaf, root, steps);
        Self::lay(w.facts, found, root, chains, arc, steps)
    }

    /// The walk's last piece (the chain of `root`, from the root down to
    /// its bottom) made the arc `found` ends at `root` with, if any, and
    /// the rest of the chain below the root (found by jumps) and the
    /// source the leaf comes through (or the chain of a source's tree down
    /// to a fed side, `arcs::Via`) added; true then: the walk ends there.
    fn lay(
        facts: &PathFacts,
        found: Found,
        root: u32,
        chains: &mut Vec<Piece>,
        arc: &mut Option<(usize, Arc<Cycle>, Start, u32)>,
        steps: &mut u64,
    ) -> bool {
        let Some((cycle, from, len, via)) = found else {
            return false;
        };
        let (_, bottom, _, _) = chains.pop().expect("the root's own chain");
        if bottom != root {
            // The root's chain below it: from the node under the root.
            let depth = facts.depth[bottom as usize];
            let top = facts.ancestor(bottom, depth - 1, steps);
            chains.push((top, bottom, root, None));
        }
        let min = cycle.min;
        let inside = via.is_some_and(|(top, _)| cycle.pos.contains_key(&facts.root_of[top as usize]));
        *arc = Some((chains.len(), cycle, from, len));
        chains.push((NONE, root, NONE, None));
        if let Some((top, side)) = via {
            // The source the leaf comes through, or the chain from the box
            // it is wired into down to the fed side (family 70), or down
            // a chain of a skip cycle to the member after (its root a
            // member: held as a root above the cycle's, so that roots
            // still fall along the path, `TreePath::link_of_root`;
            // `Paths::contains` finds it next to the arc).
            let root = if inside {
                min.saturating_sub(1)
            } else {
                facts.root_of[top as usize]
            };
            chains.push((top, side, root, None));
        }
        true
    }

    /// The path of `leaf` up to path root `root`, if remembered.
    fn remembered(&self, leaf: NodeIx, root: u32) -> Option<Below> {
        let above = self.above.lock().unwrap_or_else(|e| e.into_inner());
        above.get(&(leaf, root)).cloned()
    }

    /// Remembers the path of `leaf` up to path root `root`; forgets all
    /// once they are more than the relevant nodes allow.
    fn remember(&self, w: Wiring<'_, '_>, leaf: NodeIx, root: u32, below: &Below) {
        let mut above = self.above.lock().unwrap_or_else(|e| e.into_inner());
        if above.len() >= REMEMBERED_PER_NODE * w.facts.nodes.len() + REMEMBERED_AT_LEAST {
            above.clear();
        }
        above.insert((leaf, root), below.clone());
    }

    /// When several providers of path root `root` carry `leaf` from
    /// different boxes above (so no one box decides), the path to the one
    /// the walk takes, found without the root's tree: each carrying
    /// provider's own path, the shortest kept, and among the shortest the
    /// one whose ids come first, node by node from the leaf (the walk
    /// takes the nearest receiver, the smallest id among equals, so its
    /// path is the first by ids of the shortest), whatever each is made of
    /// (chains, or a descent off a tree first). None, for the tree to
    /// decide, when one leads round a cycle or the budget of such paths is
    /// spent.
    fn nearest_carrier(
        &self,
        w: Wiring<'_, '_>,
        leaf: NodeIx,
        root: u32,
        steps: &mut u64,
        budget: &mut Searches,
    ) -> Option<TreePath> {
        let facts = w.facts;
        let providers = facts.providers_of(root);
        // A provider the leaf is wired into is one step away, as near as
        // any can be: then the nearest are those, the smallest id first.
        let direct = (providers.iter().copied())
            .filter(|&p| {
                *steps += 1 + w.g.providers.degree(p).min(w.g.receivers.of(leaf).len()) as u64;
                wired_directly(w.g, leaf, p)
            })
            .min_by(|&a, &b| w.g.id(a).cmp(w.g.id(b)));
        if let Some(p) = direct {
            let o = w.ordinal[p as usize];
            let above = facts.root(o, steps);
            // Roots fall strictly along a path (`TreePath::link_of_root`
            // finds a chain by them): a provider round a cycle of boxes,
            // of a root not above this one, leaves it to the tree, as a
            // searched one does below. (Laid on the path, it hid the
            // chains below it from `Paths::contains`, which then said a
            // box on the path was not: a rename qualified by a box the
            // kept tool comes through too.)
            if above >= root {
                return None;
            }
            return Some(Below::start(None).with(facts, leaf, (o, o), above));
        }
        // One search more of the path's few: each finds at most
        // `PROVIDERS_LOOKED_AT` paths, and only searches nested in them
        // can multiply (a lattice of such roots), never past the budget;
        // a root searched before is remembered (`Paths::above`), so a
        // search is made once per leaf and root while it is.
        if budget.left == 0 {
            if !self.warm_up(w, leaf, root, budget.warming, steps) {
                return None;
            }
        } else {
            budget.left -= 1;
        }
        // Carrying providers hanging straight below one root (none of them
        // wired from the leaf: `direct` above) each come by the path to
        // that root and then themselves, all as long, parting only there:
        // of those below one root only the smallest id can be the walk's,
        // and only it is searched (`renames-twice`: an agent fed by 260
        // boxes below the box before its own, each set against the path
        // by its own box of the cycle, by halving, O(log^2) steps each).
        let mut first_below: Map<u32, NodeIx> = new_map();
        for &p in providers {
            let o = w.ordinal[p as usize];
            if facts.depth[o as usize] == 1 {
                *steps += 1;
                let first = first_below.entry(facts.parent[o as usize]).or_insert(p);
                if w.g.id(p) < w.g.id(*first) {
                    *first = p;
                }
            }
        }
        let mut best: Option<TreePath> = None;
        for &p in providers {
            let o = w.ordinal[p as usize];
            *steps += 1;
            if !(w.carries)(leaf, o) {
                continue;
            }
            if facts.root(o, steps) >= root {
                return None;
            }
            if facts.depth[o as usize] == 1 && first_below.get(&facts.parent[o as usize]) != Some(&p) {
                continue;
            }
            let path = self.path_within(w, leaf, o, steps, budget);
            // Each carrying provider is set against the best so far, in
            // O(their chains + DESCENT_COMPARED + log^2 length) steps
            // (`taken_before`): once per provider looked at, which are at
            // most `PROVIDERS_LOOKED_AT` for free, and past that paid for
            // as the root's rent, comparisons included, until its tree is
            // whole and decides.
            best = match best {
                None => Some(path),
                Some(kept) if self.taken_before(w, &path, &kept, steps) => Some(path),
                kept => kept,
            };
        }
        best
    }

    /// When the searches a path may nest are spent at `root`: the paths of
    /// `leaf` to the roots above it that its search needs (the roots of
    /// its carrying providers, and theirs in turn, not remembered yet),
    /// found one by one, each root after those its providers hang below
    /// (a walk up through carrying providers, in post-order), each with
    /// searches of its own and then remembered, so that the search at
    /// `root` finds its providers' paths at once. A provider round a cycle
    /// of boxes is not followed (its root's own search leaves it to its
    /// tree). False, for the tree to decide, while warming up already, or
    /// once the root's tree reaches the leaf: for a leaf of at most
    /// `FEW_RECEIVERS` receivers, told by looking for each in the tree
    /// each time; for one of more, by the boxes the tree grew since the
    /// last look, each looked for among the leaf's receivers (a set made
    /// once per leaf), or the first time, whichever of those and the
    /// receivers are fewer. (Until session 34 a leaf of more receivers had
    /// no warm-up, the tree decided: n clashing pairs wired into the top of
    /// a lattice of n levels two wide, each tool also into 16 boxes that
    /// feed nothing, grew 3.9x to 4.0x for twice n, the attack of session
    /// 33, finding 11.)
    ///
    /// Read from the bottom up, a lattice of levels deeper than the
    /// searches, each box fed by both above (`lattice-ladder`), handed
    /// each level's root to its own tree, grown out to the tool: n x n
    /// for the paths to n levels. Warmed up, each root above is searched
    /// once per leaf while remembered. The root's tree is grown alongside,
    /// a step for every `WARM_AHEAD` the warm-up takes (`WARM_SLICE` at a
    /// time), and paid as much rent; the warm-up stops once the tree
    /// reaches the leaf: so a warm-up costs at most `WARM_AHEAD` times what
    /// the tree it stands in for would, and many leaves warming up through
    /// one region soon have its tree whole, read off it instead (a root
    /// whose tree would stop a few boxes up, below a region its search
    /// could climb, `near-roots`, attack of session 30: each tool walked
    /// the whole region, n x n), and what it found stays remembered.
    fn warm_up(&self, w: Wiring<'_, '_>, leaf: NodeIx, root: u32, warming: bool, steps: &mut u64) -> bool {
        let receivers = w.g.passthrough_receivers.of(leaf);
        if warming || self.tree_whole(root) {
            return false;
        }
        let facts = w.facts;
        let wide = (receivers.len() > FEW_RECEIVERS).then(|| {
            let mut sets = self.receiver_sets.lock().unwrap_or_else(|e| e.into_inner());
            let set = sets.entry(leaf).or_insert_with(|| {
                *steps += receivers.len() as u64;
                Arc::new(receivers.iter().copied().collect())
            });
            Arc::clone(set)
        });
        // The tree last looked at (held, so a tree made again is told
        // apart), and how many of its boxes were.
        let mut looked: Option<(Arc<Mutex<Tree>>, usize)> = None;
        // Grows the root's tree by a step for every `WARM_AHEAD` the
        // warm-up took since the last call, and pays the root as much
        // rent (which regrows a tree made again, and keeps it for good
        // once whole: many leaves warming up through one region soon
        // have it decide); whether the tree reaches the leaf.
        let mut raced = *steps;
        let mut tree_reaches = |steps: &mut u64| {
            let due = ((*steps - raced) / WARM_AHEAD).max(1);
            {
                let tree = self.tree(facts, root);
                tree.lock().unwrap_or_else(|e| e.into_inner()).grow_by(w, due, steps);
            }
            self.pay_rent(w, root, due, steps);
            raced = *steps;
            if self.tree_whole(root) {
                return true;
            }
            let tree = self.tree(facts, root);
            let grown = tree.lock().unwrap_or_else(|e| e.into_inner());
            let Some(wide) = &wide else {
                *steps += receivers.len() as u64;
                return receivers.iter().any(|r| grown.dist.contains_key(r));
            };
            // A tree made again since is looked at whole.
            let from = match &looked {
                Some((last, seen)) if Arc::ptr_eq(last, &tree) => *seen,
                _ => 0,
            };
            // The first look, at a tree already grown past the leaf's
            // receivers: those looked for.
            let new = &grown.order[from..];
            let reached = if from == 0 && receivers.len() < new.len() {
                *steps += receivers.len() as u64;
                receivers.iter().any(|r| grown.dist.contains_key(r))
            } else {
                *steps += new.len() as u64;
                new.iter().any(|b| wide.contains(b))
            };
            let seen = grown.order.len();
            drop(grown);
            looked = Some((tree, seen));
            reached
        };
        if tree_reaches(steps) {
            return false;
        }
        let mut seen: Set<u32> = Set::default();
        seen.insert(root);
        let mut order = Vec::new();
        let mut stack = vec![(root, 0usize)];
        let mut slice = *steps;
        while let Some((x, next)) = stack.last_mut() {
            if *steps - slice >= WARM_SLICE {
                if tree_reaches(steps) {
                    return false;
                }
                slice = *steps;
            }
            let (x, providers) = (*x, facts.providers_of(*x));
            let Some(&p) = providers.get(*next) else {
                stack.pop();
                order.push(x);
                continue;
            };
            *next += 1;
            *steps += 1;
            let o = w.ordinal[p as usize];
            if !(w.carries)(leaf, o) {
                continue;
            }
            let above = facts.root(o, steps);
            if above < x && seen.insert(above) && self.remembered(leaf, above).is_none() {
                stack.push((above, 0));
            }
        }
        order.pop(); // `root` itself, searched by the caller
        for x in order {
            if *steps - slice >= WARM_SLICE {
                if tree_reaches(steps) {
                    return false;
                }
                slice = *steps;
            }
            self.path_within(w, leaf, x, steps, &mut Searches::new(true));
        }
        true
    }

    /// Whether the walk takes `a` rather than `b`, two paths of one leaf
    /// to two providers of one root (`nearest_carrier`), whatever they are
    /// made of: the shorter; of two as long, the first by ids node by node
    /// from the leaf. The nodes read off trees (`first`) are compared
    /// first: up to `DESCENT_COMPARED` of them one by one, and past that,
    /// where the two part is found by halving (`Paths::parted`), then the
    /// chains chain by chain (`walked_before`), or where either holds an
    /// arc, halving again. So a comparison costs its chains, at most
    /// `DESCENT_COMPARED` nodes, and O(log^2 length) past them, however
    /// long the two stay alike.
    fn taken_before(&self, w: Wiring<'_, '_>, a: &TreePath, b: &TreePath, steps: &mut u64) -> bool {
        let facts = w.facts;
        // Lengths are held whole: told apart in the step that found them.
        let (la, lb) = (a.len(facts), b.len(facts));
        if la != lb {
            return la < lb;
        }
        let descent = |p: &TreePath| p.first.map_or(0, |(_, d)| d as usize);
        let d = descent(a).max(descent(b));
        if d > 0 {
            // Positions 1..=d, a descent on one side at least, up to
            // `DESCENT_COMPARED` of them (counted by `nodes`, a step a
            // node): where they part decides.
            let upto = d.min(DESCENT_COMPARED) + 1;
            let (na, nb) = (self.nodes(w, a, 1, upto, steps), self.nodes(w, b, 1, upto, steps));
            if let Some((&x, &y)) = na.iter().zip(&nb).find(|(x, y)| x != y) {
                return w.g.id(x) < w.g.id(y);
            }
            if d > DESCENT_COMPARED {
                if let Some((x, y)) = self.parted(w, a, b, DESCENT_COMPARED, d, steps) {
                    return w.g.id(x) < w.g.id(y);
                }
            }
        }
        // An arc on either (a cycle, ring or skip cycle of roots) would be
        // read member by member chain by chain: where the two part is
        // found by halving instead, past the descent up to the providers
        // (which differ), each node by its place in O(log chains) steps.
        // (Two paths as long into a skip cycle's member and the member
        // before it, `renames-twice`: each compared read both arcs, some
        // n / 4 members each, for each of n agents' 260 boxes' ties.)
        if a.head.arcs || b.head.arcs {
            if let Some((x, y)) = self.parted(w, a, b, d, la - 1, steps) {
                return w.g.id(x) < w.g.id(y);
            }
        }
        let rungs = self.rungs.lock().unwrap_or_else(|e| e.into_inner());
        walked_before(w, &rungs, a, b, d, steps)
    }

    /// The nodes where `a` and `b`, two paths of one leaf as long to two
    /// providers of one root, first part among positions `alike + 1..=to`
    /// (alike up to `alike`; `to` before either provider), found by
    /// halving; None when they are alike up to `to`.
    ///
    /// Halving is sound because two such paths alike at a position are
    /// alike before it: each is the first by ids of the shortest paths
    /// from the leaf to its provider, so its part up to any node `v` is
    /// the first by ids of the shortest paths from the leaf to `v` (any
    /// other, with the rest of the path, would give a path to the provider
    /// as short and first by ids), the same for both. Each node looked at
    /// is found by jumps (`nodes`: a tree's, or a chain's), in O(log)
    /// steps, so this costs O(log^2 length) steps, counted, however long
    /// the two paths stay alike (a chain of 70 boxes above a hub box and
    /// a box of each agent's own, `tie`: 71 nodes alike, more than
    /// `DESCENT_COMPARED`).
    fn parted(
        &self,
        w: Wiring<'_, '_>,
        a: &TreePath,
        b: &TreePath,
        alike: usize,
        to: usize,
        steps: &mut u64,
    ) -> Option<(NodeIx, NodeIx)> {
        let at = |p: &TreePath, position: usize, steps: &mut u64| self.nodes(w, p, position, position + 1, steps)[0];
        // Alike up to `lo`; parted at `hi` when `hi <= to`.
        let (mut lo, mut hi) = (alike, to + 1);
        let mut parted = None;
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let (x, y) = (at(a, mid, steps), at(b, mid, steps));
            if x == y {
                lo = mid;
            } else {
                hi = mid;
                parted = Some((x, y));
            }
        }
        // Set each time `hi` falls: the nodes at `hi`, if it ever did.
        parted
    }

    /// Nodes `from..to` of `path`.
    pub fn nodes(&self, w: Wiring<'_, '_>, path: &TreePath, from: usize, to: usize, steps: &mut u64) -> Vec<NodeIx> {
        let facts = w.facts;
        let to = to.min(path.len(facts));
        let mut out = Vec::with_capacity(to.saturating_sub(from));
        if from >= to {
            return out;
        }
        let descent = path.first.map_or(0, |(_, d)| d as usize); // boxes before the first top
        let mut position = from;
        if position == 0 {
            out.push(path.leaf);
            position = 1;
        }
        if position <= descent && position < to {
            let (first, first_dist) = path.first.expect("a descent starts at a first box");
            let tree = self.tree(facts, path.origin);
            let mut tree = tree.lock().unwrap_or_else(|e| e.into_inner());
            tree.reach(w, first_dist, steps);
            // Position p (1..=descent) holds the box at distance
            // first_dist - (p - 1) from the top.
            let mut node = tree.at_distance(w, first, first_dist - (position as u32 - 1), steps);
            while position <= descent && position < to {
                out.push(node);
                *steps += 1;
                position += 1;
                if position <= descent && position < to {
                    node = tree.next_of(w, node, steps);
                }
            }
        }
        // Each chain from its top down: a stretch's last node found by its
        // jumps, the others by walking up from it. The chains that hold
        // the positions asked for are found from the consumer's side: the
        // one of the last position by jumps, then the others one by one.
        if position < to {
            let base = descent + 1; // where the first chain begins
            let mut held: Vec<&Link> = Vec::new();
            let mut at = Some(path.link_at(base, to - 1, steps));
            while let Some(link) = at {
                // Each chain gives a node at least, counted below.
                held.push(link);
                let start = base + link.nodes as usize - link.len();
                at = if start <= position { None } else { link.rest.as_deref() };
            }
            let rungs =
                (held.iter().any(|l| l.run.is_some())).then(|| self.rungs.lock().unwrap_or_else(|e| e.into_inner()));
            for link in held.into_iter().rev() {
                let end = base + link.nodes as usize;
                let last = to.min(end) - 1;
                let at = out.len();
                if let Some((cycle, start)) = &link.arc {
                    // An arc: the member at each position, by its place
                    // in the cycle, from `last` back (one step a node).
                    let first = end - link.len();
                    for p in (position..=last).rev() {
                        *steps += 1;
                        out.push(facts.nodes[cycle.node(*start, (p - first) as u32) as usize]);
                    }
                    out[at..].reverse();
                    position = last + 1;
                    continue;
                }
                match (link.run, &rungs) {
                    (Some((low, _)), Some(rungs)) => {
                        // The rung whose chain holds `last`, by the nodes of
                        // the chains above each (found by jumps), then up
                        // from there, rung by rung.
                        let reach = rungs[&link.top].weight + (last - (end - link.len())) as u32;
                        let mut r = low;
                        while rungs[&rungs[&r].up].weight > reach {
                            *steps += 1;
                            let j = rungs[&r].jump;
                            r = if rungs[&j].weight > reach { j } else { rungs[&r].up };
                        }
                        let mut rung = rungs[&r];
                        let mut o = facts.ancestor(rung.star, rung.weight - 1 - reach, steps);
                        for _ in position..=last {
                            *steps += 1;
                            out.push(facts.nodes[o as usize]);
                            if o == rung.up {
                                rung = rungs[&rung.up];
                                o = rung.star;
                            } else {
                                o = facts.parent[o as usize];
                            }
                        }
                    }
                    _ => {
                        let mut o = facts.ancestor(link.bottom, (end - 1 - last) as u32, steps);
                        for _ in position..=last {
                            *steps += 1;
                            out.push(facts.nodes[o as usize]);
                            o = facts.parent[o as usize];
                        }
                    }
                }
                out[at..].reverse();
                position = last + 1;
            }
        }
        out
    }

    /// Whether `node` is on `path`, without reading the path.
    pub fn contains(&self, w: Wiring<'_, '_>, path: &TreePath, node: NodeIx, steps: &mut u64) -> bool {
        let facts = w.facts;
        if node == path.leaf {
            return true;
        }
        let o = w.ordinal[node as usize];
        if o == NONE {
            return false;
        }
        // A path crosses each tree of the parent forest at most once (roots
        // fall along it), so only the chain of the node's own root can
        // hold it (found by jumps, each counted).
        let root = facts.root_of[o as usize];
        let on_chain = path.link_of_root(root, steps).is_some_and(|l| {
            // Of a run, the chain of the rung just below `root`, if the
            // run climbs from it (found by jumps).
            if let Some((cycle, start)) = &l.arc {
                // Of an arc, the members from its top on: the node's
                // place in the cycle tells; or the chain of a skip cycle
                // the leaf came down into it, just above it.
                *steps += 1;
                return cycle.holds_node(*start, l.len() as u32, o) || entered_down(facts, l, cycle, o, steps);
            }
            let chain = match l.run {
                None => Some((l.top, l.bottom)),
                Some((low, _)) => {
                    let rungs = self.rungs.lock().unwrap_or_else(|e| e.into_inner());
                    rungs.get(&root).map(|r| r.depth).and_then(|depth| {
                        let below = rungs[&rung_ancestor(&rungs, low, depth + 1, steps)];
                        (below.up == root).then_some((root, below.star))
                    })
                }
            };
            chain.is_some_and(|(top, bottom)| {
                facts.depth[o as usize] >= facts.depth[top as usize] && facts.is_ancestor(o, bottom, steps)
            })
        });
        if on_chain {
            return true;
        }
        // A member of a cycle of roots the path crosses as an arc: the
        // members the walk passed root by root before the arc (nearer the
        // consumer, their roots falling) may stop the jumps above before
        // the arc, whose root is the cycle's smallest; found by that.
        // Alike a member of a ring of roots, held one way round or the
        // other: the arc is of one of its two cycles; and of a skip cycle.
        let cycles = path.head.arcs.then(|| {
            *steps += 3;
            let cycle = self
                .cycles
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&root)
                .cloned()
                .flatten();
            let ring = self
                .rings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&root)
                .cloned()
                .flatten();
            let ways = ring.map(|r| [Arc::clone(&r.forward), Arc::clone(&r.backward)]);
            let skip = self.skips.lock().unwrap_or_else(|e| e.into_inner()).known(root);
            (cycle.into_iter())
                .chain(ways.into_iter().flatten())
                .chain(skip)
                .collect::<Vec<_>>()
        });
        for cycle in cycles.into_iter().flatten() {
            // The arc, or the rest of the chain of the root it ends at,
            // laid just below it, when that root is the cycle's smallest
            // (the arc then lies next).
            let link = path.link_of_root(cycle.min, steps);
            let link = link.and_then(|l| if l.arc.is_some() { Some(l) } else { l.rest.as_deref() });
            let on_arc = link.is_some_and(|l| {
                matches!(&l.arc, Some((c, start)) if Arc::ptr_eq(c, &cycle)
                    && (cycle.holds_node(*start, l.len() as u32, o) || entered_down(facts, l, &cycle, o, steps)))
            });
            if on_arc {
                return true;
            }
        }
        let Some((first, first_dist)) = path.first else {
            return false;
        };
        let tree = self.tree(facts, path.origin);
        let mut tree = tree.lock().unwrap_or_else(|e| e.into_inner());
        tree.reach(w, first_dist, steps);
        match tree.dist.get(&node).copied() {
            Some(d) if d >= 1 && d <= first_dist => tree.at_distance(w, first, d, steps) == node,
            _ => false,
        }
    }
}

/// Up to this many receivers, a tool's are looked at one by one.
const FEW_RECEIVERS: usize = 16;

/// Up to this many distinct classes of a root's provider boxes, each is
/// asked whether it carries a tool; beyond, the root's tree decides.
const CARRIERS_LOOKED_UP: usize = 16;

/// A path is passed on from a root to the one provider carrying its tool
/// at most this many times; then the tree of the root reached decides
/// (one tree, shared by every path that gets there, instead of a step per
/// root for each).
const ROOTS_PASSED: usize = 16;

/// Paths up to roots remembered (`Paths::above`), per relevant node of
/// the workflow, and at least; past that, all are forgotten.
const REMEMBERED_PER_NODE: usize = 2;
const REMEMBERED_AT_LEAST: usize = 4096;

/// How many times one path may search the paths to a root's carrying
/// providers (`Paths::nearest_carrier`), nested searches included;
/// beyond, the roots above are warmed up (`Paths::warm_up`), or trees
/// decide.
const CARRIER_SEARCHES: u32 = 32;

/// The searches a path may still nest (`Paths::nearest_carrier`), and
/// whether it is found to warm up the roots above another's (then none
/// is warmed up again: no nesting past two budgets).
#[derive(Clone, Copy)]
struct Searches {
    left: u32,
    warming: bool,
}

impl Searches {
    fn new(warming: bool) -> Searches {
        Searches {
            left: CARRIER_SEARCHES,
            warming,
        }
    }
}

/// Up to this many provider boxes of a root, when several carry a tool,
/// each is looked at for free; beyond, for rent, until the root's tree is
/// whole and decides (`Paths::path_within`).
const PROVIDERS_LOOKED_AT: usize = 64;

/// Up to this many nodes read off trees at the start of two paths as
/// long, each is compared one by one (`Paths::taken_before`); beyond,
/// where the two part is found by halving (`Paths::parted`).
const DESCENT_COMPARED: usize = 64;

/// The provider of path root `root` through which the walk from `leaf`
/// enters it, when the providers' classes tell (as an ordinal, and whether
/// the providers tied, several carrying it below one box): the one
/// provider that carries the leaf; or, when several do, all of them one
/// step below one box (their common path parent) and none with the leaf
/// wired straight in, the one with the smallest id. Every route of the
/// leaf to the root then passes that box, then one of them, all equally
/// near the consumer (every route to it passes the root), so the walk
/// takes the smallest id there.
fn passed_to(w: Wiring<'_, '_>, leaf: NodeIx, root: u32, steps: &mut u64) -> Option<(u32, bool)> {
    let facts = w.facts;
    let carriers = facts.carriers_of(root);
    let mut carrying = carriers.iter().filter(|&&(p, _)| {
        *steps += 1;
        (w.carries)(leaf, p)
    });
    let &(first, sole) = carrying.next()?;
    if carrying.next().is_none() {
        return sole.then_some((first, false));
    }
    let providers = facts.providers_of(root);
    if providers.len() > PROVIDERS_LOOKED_AT {
        return None;
    }
    let (mut above, mut smallest): (Option<u32>, Option<NodeIx>) = (None, None);
    for &p in providers {
        let o = w.ordinal[p as usize];
        *steps += 1;
        if !(w.carries)(leaf, o) {
            continue;
        }
        let parent = facts.parent[o as usize];
        *steps += w.g.providers.degree(p).min(w.g.receivers.of(leaf).len()) as u64;
        if parent == NONE || above.is_some_and(|a| a != parent) || wired_directly(w.g, leaf, p) {
            return None;
        }
        above = Some(parent);
        if smallest.is_none_or(|s| w.g.id(p) < w.g.id(s)) {
            smallest = Some(p);
        }
    }
    smallest.map(|p| (w.ordinal[p as usize], true))
}

/// The nodes from `top` down to `bottom` along parents, counted.
fn chain_len(facts: &PathFacts, top: u32, bottom: u32) -> usize {
    (facts.depth[bottom as usize] - facts.depth[top as usize]) as usize + 1
}

/// Up to this many, a tool's receivers, or the nodes of a chain that have
/// leaves of their own, are looked at one by one to find where the tool
/// enters the chain; beyond, the tool's receivers as nested ranges.
const FEW_ENTRIES: usize = 16;

/// `Paths::entry` when the leaf's receivers or the chain's nodes with
/// leaves are few: whichever is fewer is looked at, the receivers each
/// asked whether they are on the chain, or the chain's nodes that have
/// leaves of their own (the only ones a tool can be wired into), nearest
/// first.
fn entry_among_few(w: Wiring<'_, '_>, leaf: NodeIx, consumer: u32, steps: &mut u64) -> Option<u32> {
    let (g, facts) = (w.g, w.facts);
    let receivers = g.receivers.of(leaf);
    let chain_nodes = facts.own_rank[consumer as usize] as usize + 1;
    if receivers.len() <= chain_nodes {
        let mut best: Option<u32> = None;
        for &r in receivers {
            *steps += 1;
            let o = w.ordinal[r as usize];
            if o == NONE || !facts.is_ancestor(o, consumer, steps) {
                continue;
            }
            if best.is_none_or(|b| facts.depth[o as usize] > facts.depth[b as usize]) {
                best = Some(o);
            }
        }
        return best;
    }
    let mut at = consumer;
    loop {
        let node = facts.nodes[at as usize];
        *steps += 1 + g.providers.degree(node).min(receivers.len()) as u64;
        if wired_directly(g, leaf, node) {
            return Some(at);
        }
        at = facts.own_up[at as usize];
        if at == NONE {
            return None;
        }
    }
}

impl Paths {
    /// The node of the consumer's chain (the consumer and its ancestors)
    /// that `leaf` is wired into, nearest the consumer; None when there is
    /// none. When the leaf's receivers and the chain's nodes with leaves
    /// are both many, the innermost of the receivers' ranges of the parent
    /// forest that holds the consumer (`Nested`, made once per leaf).
    fn entry(&self, w: Wiring<'_, '_>, leaf: NodeIx, consumer: u32, steps: &mut u64) -> Option<u32> {
        let receivers = w.g.receivers.of(leaf).len();
        let chain_nodes = w.facts.own_rank[consumer as usize] as usize + 1;
        if receivers.min(chain_nodes) <= FEW_ENTRIES {
            return entry_among_few(w, leaf, consumer, steps);
        }
        let nested = {
            let mut kept = self.nested.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(kept.entry(leaf).or_insert_with(|| Arc::new(Nested::of(w, leaf, steps))))
        };
        nested.innermost(w.facts, consumer, steps)
    }
}

/// A tool's relevant receivers as ranges of one walk down the parent
/// forest (`PathFacts::enter`, `leave`): the receivers that are a node's
/// ancestors are the ranges that hold the node's `enter`, nested one in
/// another, so the nearest is the innermost. Ranges of a forest nest or
/// are apart, so the innermost holding a point is found from the last
/// range that starts at or before it, climbing the ranges that hold that
/// one (by skew-binary jumps) to the first that reaches past the point.
/// O(k log k) to make for k receivers; O(log k) to ask.
struct Nested {
    /// (enter, leave, ordinal), by enter.
    ranges: Vec<(u32, u32, u32)>,
    /// Per range: the innermost range holding it, or NONE.
    outer: Vec<u32>,
    /// Per range: a range further out (skew-binary jumps along `outer`).
    jump: Vec<u32>,
}

impl Nested {
    fn of(w: Wiring<'_, '_>, leaf: NodeIx, steps: &mut u64) -> Nested {
        let facts = w.facts;
        let mut ranges: Vec<(u32, u32, u32)> = (w.g.receivers.of(leaf).iter())
            .map(|&r| w.ordinal[r as usize])
            .filter(|&o| o != NONE)
            .map(|o| (facts.enter[o as usize], facts.leave[o as usize], o))
            .collect();
        ranges.sort_unstable();
        ranges.dedup();
        *steps += ranges.len() as u64 * (1 + ranges.len().max(2).ilog2() as u64);
        // `level`: how many ranges hold each.
        let (mut outer, mut jump, mut level) = (Vec::new(), Vec::new(), Vec::<u32>::new());
        let mut open: Vec<u32> = Vec::new();
        for (i, &(enter, _, _)) in ranges.iter().enumerate() {
            while open.last().is_some_and(|&j| ranges[j as usize].1 <= enter) {
                open.pop();
            }
            let parent = open.last().copied().unwrap_or(NONE);
            let (l, j) = if parent == NONE {
                (0, i as u32)
            } else {
                let p = parent as usize;
                let (jp, jjp) = (jump[p] as usize, jump[jump[p] as usize] as usize);
                let skew = jp != p && level[p] - level[jp] == level[jp] - level[jjp];
                (level[p] + 1, if skew { jjp as u32 } else { parent })
            };
            outer.push(parent);
            jump.push(j);
            level.push(l);
            open.push(i as u32);
        }
        Nested { ranges, outer, jump }
    }

    /// The innermost range that holds node `o`'s enter, as an ordinal.
    fn innermost(&self, facts: &PathFacts, o: u32, steps: &mut u64) -> Option<u32> {
        let point = facts.enter[o as usize];
        let holds = |i: u32| self.ranges[i as usize].1 > point;
        let mut i = self.ranges.partition_point(|r| r.0 <= point).checked_sub(1)? as u32;
        *steps += 1 + self.ranges.len().max(2).ilog2() as u64;
        while !holds(i) {
            *steps += 1;
            let j = self.jump[i as usize];
            i = if j != i && !holds(j) { j } else { self.outer[i as usize] };
            if i == NONE {
                return None;
            }
        }
        Some(self.ranges[i as usize].2)
    }
}

/// Whether the walk takes `a` rather than `b`, two paths of one leaf
/// alike up to position `skip` (past the leaf; every node read off a tree
/// at or before it): `a` is shorter, or as long and its ids come first,
/// node by node from there. Runs the two shares go together are passed in a
/// step (a common ancestor found by halving, over skew-binary jumps), so
/// it costs their chains, not their lengths.
fn walked_before(
    w: Wiring<'_, '_>,
    rungs: &Map<u32, Rung>,
    a: &TreePath,
    b: &TreePath,
    skip: usize,
    steps: &mut u64,
) -> bool {
    let facts = w.facts;
    let (la, lb) = (a.len(facts), b.len(facts));
    if la != lb {
        return la < lb;
    }
    let id = |o: u32| w.g.id(facts.nodes[o as usize]);
    let (a_path, b_path) = (a, b);
    // The chains nearest the leaf that the two share, laid once (one path
    // to a root, two chains laid on it): alike, so only the chains after
    // them are compared (a lattice of levels, each box fed by both above:
    // the paths to the two boxes of a level, each the path above plus a
    // box, were compared chain by chain all the way up, `lattice-ladder`).
    let shared = shared_links(a_path, b_path, steps);
    let shared_nodes = shared.map_or(0, |l| l.nodes as usize);
    let (a, b) = (
        a.chains_after(shared, rungs, steps),
        b.chains_after(shared, rungs, steps),
    );
    let (a, b) = (&a, &b);
    // A place on a path: its chain and how far below the chain's top.
    let at = |p: &Vec<(u32, u32)>, (chain, down): (usize, u32), steps: &mut u64| -> u32 {
        let (top, bottom) = p[chain];
        facts.ancestor(
            bottom,
            facts.depth[bottom as usize] - facts.depth[top as usize] - down,
            steps,
        )
    };
    let step = |p: &Vec<(u32, u32)>, (chain, down): (usize, u32), by: u32| -> (usize, u32) {
        let (top, bottom) = p[chain];
        let left = facts.depth[bottom as usize] - facts.depth[top as usize] - down; // nodes below this one
        if by <= left {
            (chain, down + by)
        } else {
            (chain + 1, by - left - 1)
        }
    };
    // Where each compares from: position `skip + 1`, the first chain
    // starting at its descent's end (each chain passed counted).
    let from = |p: &Vec<(u32, u32)>, descent: usize, steps: &mut u64| -> (usize, u32) {
        let (mut chain, mut left) = (0, (skip - descent).saturating_sub(shared_nodes));
        while chain < p.len() {
            let (top, bottom) = p[chain];
            let len = chain_len(facts, top, bottom);
            if left < len {
                break;
            }
            *steps += 1;
            left -= len;
            chain += 1;
        }
        (chain, left as u32)
    };
    let descent = |p: &TreePath| p.first.map_or(0, |(_, d)| d as usize);
    let (da, db) = (descent(a_path), descent(b_path));
    let (mut pa, mut pb) = (from(a, da, steps), from(b, db, steps));
    while pa.0 < a.len() && pb.0 < b.len() {
        let (na, nb) = (at(a, pa, steps), at(b, pb, steps));
        if na != nb {
            return id(na) < id(nb);
        }
        // The same node: both go down their chains together as far as
        // both chains go and their bottoms share ancestors.
        let (ba, bb) = (a[pa.0].1, b[pb.0].1);
        let here = facts.depth[na as usize];
        let room = (facts.depth[ba as usize] - here).min(facts.depth[bb as usize] - here);
        let (mut together, mut apart) = (0, room + 1); // together: shared; apart: not, or past the room
        while apart - together > 1 {
            let mid = together + (apart - together) / 2;
            let d = here + mid;
            let shared = facts.ancestor(ba, facts.depth[ba as usize] - d, steps)
                == facts.ancestor(bb, facts.depth[bb as usize] - d, steps);
            if shared {
                together = mid;
            } else {
                apart = mid;
            }
        }
        if together < room {
            // They part inside both chains: the next nodes decide.
            let d = here + together + 1;
            let (xa, xb) = (
                facts.ancestor(ba, facts.depth[ba as usize] - d, steps),
                facts.ancestor(bb, facts.depth[bb as usize] - d, steps),
            );
            return id(xa) < id(xb);
        }
        pa = step(a, pa, together + 1);
        pb = step(b, pb, together + 1);
    }
    false
}

/// The link nearest the consumer that `a` and `b`, two paths of one leaf,
/// both hold (the same one, laid once), if any: the two are alike from the
/// leaf through its chain. Found walking both lists from the consumer's
/// side, the one with more chains to go first, a step a link.
fn shared_links<'p>(a: &'p TreePath, b: &'p TreePath, steps: &mut u64) -> Option<&'p Arc<Link>> {
    if a.leaf != b.leaf || a.first != b.first {
        return None;
    }
    let (mut x, mut y) = (Some(&a.head), Some(&b.head));
    while let (Some(l), Some(m)) = (x, y) {
        *steps += 1;
        if Arc::ptr_eq(l, m) {
            return Some(l);
        }
        if l.count >= m.count {
            x = l.rest.as_ref();
        }
        if m.count >= l.count {
            y = m.rest.as_ref();
        }
    }
    None
}

impl TreePath {
    #[allow(clippy::len_without_is_empty)] // a path has at least two nodes
    pub fn len(&self, _facts: &PathFacts) -> usize {
        let descent = self.first.map_or(0, |(_, d)| d as usize);
        1 + descent + self.head.nodes as usize
    }

    pub fn leaf(&self) -> NodeIx {
        self.leaf
    }
}

impl Tree {
    /// Completes the next level; false when there is none.
    fn grow(&mut self, w: Wiring<'_, '_>, steps: &mut u64) -> bool {
        let levels = self.levels.len();
        self.walk(w, u64::MAX, steps);
        self.levels.len() > levels
    }

    /// Completes the levels up to distance `d`: a path read off a tree
    /// since made again (the few kept are the latest, and a path up to a
    /// root is remembered with its descent) finds its boxes there, at the
    /// cost of the levels the path's own finding grew.
    fn reach(&mut self, w: Wiring<'_, '_>, d: u32, steps: &mut u64) {
        while self.levels.len() - 1 <= d as usize && self.grow(w, steps) {}
    }

    /// Walks on breadth first for `budget` steps, or until no box is left.
    fn grow_by(&mut self, w: Wiring<'_, '_>, budget: u64, steps: &mut u64) {
        let mut left = budget;
        while left > 0 && !self.exhausted {
            let before = *steps;
            self.walk(w, left, steps);
            left = left.saturating_sub(*steps - before);
        }
    }

    /// Looks at up to `budget` provider boxes (at least one), stopping
    /// when a level is complete.
    fn walk(&mut self, w: Wiring<'_, '_>, budget: u64, steps: &mut u64) {
        if self.exhausted {
            return;
        }
        let level = self.levels.len() - 1; // the level whose providers are looked at
        let end = self.levels[level];
        let mut spent = 0;
        while self.cursor.0 < end {
            let o = w.ordinal[self.order[self.cursor.0] as usize];
            let providers = w.facts.providers_of(o);
            while self.cursor.1 < providers.len() {
                if spent == budget {
                    return;
                }
                let p = providers[self.cursor.1];
                self.cursor.1 += 1;
                spent += 1;
                *steps += 1;
                if let std::collections::hash_map::Entry::Vacant(at) = self.dist.entry(p) {
                    at.insert(level as u32);
                    self.order.push(p);
                }
            }
            self.cursor = (self.cursor.0 + 1, 0);
            *steps += 1;
        }
        if self.order.len() == end {
            self.exhausted = true;
        } else {
            self.levels.push(self.order.len());
        }
    }

    /// The boxes at distance `d` (a level already made).
    fn level(&self, d: usize) -> &[NodeIx] {
        &self.order[self.levels[d]..self.levels[d + 1]]
    }

    /// The receiver of `leaf` nearest the root, smallest id among equals,
    /// with its distance; None when no box of the tree receives it (the
    /// leaf is then wired straight into the root).
    fn first_step(&mut self, w: Wiring<'_, '_>, leaf: NodeIx, steps: &mut u64) -> Option<(NodeIx, u32)> {
        let g = w.g;
        let receivers = g.passthrough_receivers.of(leaf);
        let best = |tree: &Tree, found: &mut dyn Iterator<Item = NodeIx>| {
            found
                .filter_map(|r| tree.dist.get(&r).map(|&d| (d, g.id(r), r)))
                .filter(|&(d, _, _)| d > 0)
                .min()
                .map(|(d, _, r)| (r, d))
        };
        // Whether a box receives the leaf: looked up in the leaf's
        // receivers when they are few, else in the box's providers.
        let few = receivers.len() <= FEW_RECEIVERS;
        let wanted: Map<NodeIx, ()> = if few {
            receivers.iter().map(|&r| (r, ())).collect()
        } else {
            new_map()
        };
        let receives = |node: NodeIx, steps: &mut u64| {
            *steps += 1;
            if few {
                wanted.contains_key(&node)
            } else {
                *steps += g.providers.degree(node).min(receivers.len()) as u64;
                wired_directly(g, leaf, node)
            }
        };
        // Among the levels made, the nearest receiver: exact when it lies
        // within the complete levels. Whichever is fewer is looked at: the
        // leaf's receivers, or the boxes of those levels.
        let complete = self.levels.len() - 1; // levels 0..complete are whole
        let known = if few || receivers.len() <= self.levels[complete] {
            *steps += receivers.len() as u64;
            best(self, &mut receivers.iter().copied())
        } else {
            let made = &self.order[..self.levels[complete]];
            let mut found = made.iter().copied().filter(|&r| receives(r, steps));
            best(self, &mut found)
        };
        if let Some((r, d)) = known {
            if (d as usize) < complete {
                return Some((r, d));
            }
        }
        // Grow level by level, looking at each new box once.
        let mut d = complete;
        loop {
            if d >= self.levels.len() - 1 && !self.grow(w, steps) {
                return None;
            }
            let level = self.level(d);
            let mut found = level.iter().copied().filter(|&r| receives(r, steps));
            let found = best(self, &mut found);
            if found.is_some() {
                return found;
            }
            d += 1;
        }
    }

    /// The step after `node` (at distance >= 1) towards the root.
    fn next_of(&mut self, w: Wiring<'_, '_>, node: NodeIx, steps: &mut u64) -> NodeIx {
        let (g, facts, ordinal) = (w.g, w.facts, w.ordinal);
        if let Some(&next) = self.next.get(&node) {
            return next;
        }
        let d = self.dist[&node] as usize;
        let next = if d == 1 {
            facts.nodes[self.root as usize]
        } else {
            let receivers = g.passthrough_receivers.of(node);
            let nearer = self.level(d - 1);
            let chosen = if receivers.len() <= nearer.len() {
                *steps += receivers.len() as u64;
                receivers
                    .iter()
                    .copied()
                    .filter(|r| self.dist.get(r) == Some(&(d as u32 - 1)))
                    .min_by(|&a, &b| g.id(a).cmp(g.id(b)))
            } else {
                *steps += nearer.len() as u64;
                nearer
                    .iter()
                    .copied()
                    .filter(|&z| facts.providers_of(ordinal[z as usize]).binary_search(&node).is_ok())
                    .min_by(|&a, &b| g.id(a).cmp(g.id(b)))
            };
            chosen.expect("a box of the tree has a receiver one step nearer the root")
        };
        self.next.insert(node, next);
        next
    }

    /// The box at distance `d` on the way from `node` (at distance at
    /// least `d`) to the root.
    fn at_distance(&mut self, w: Wiring<'_, '_>, mut node: NodeIx, d: u32, steps: &mut u64) -> NodeIx {
        while self.dist[&node] > d {
            *steps += 1;
            let jump = self.jump_of(w, node, steps);
            node = if self.dist[&jump] >= d {
                jump
            } else {
                self.next_of(w, node, steps)
            };
        }
        node
    }

    /// The skew-binary jump of `node` along `next` (Myers): made for every
    /// box between it and the first one that has one.
    fn jump_of(&mut self, w: Wiring<'_, '_>, node: NodeIx, steps: &mut u64) -> NodeIx {
        if let Some(&j) = self.jump.get(&node) {
            return j;
        }
        let root = w.facts.nodes[self.root as usize];
        let mut chain = vec![node];
        loop {
            let last = *chain.last().expect("the chain starts with a node");
            if last == root || self.jump.contains_key(&last) {
                break;
            }
            let next = self.next_of(w, last, steps);
            chain.push(next);
        }
        while let Some(v) = chain.pop() {
            *steps += 1;
            if self.jump.contains_key(&v) {
                continue;
            }
            if v == root {
                self.jump.insert(v, v);
                continue;
            }
            let p = self.next[&v];
            let j = self.jump[&p];
            let jj = self.jump[&j];
            let (dp, dj, djj) = (self.dist[&p], self.dist[&j], self.dist[&jj]);
            self.jump.insert(v, if dp - dj == dj - djj { jj } else { p });
        }
        self.jump[&node]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path of `chains` chains by hand, chain `i` from the leaf's side of
    /// `1 + i % 3` nodes and of path root `i`.
    fn path_of(chains: u32) -> TreePath {
        let mut head: Option<Arc<Link>> = None;
        for i in 0..chains {
            head = Some(Link::on(head.as_ref(), (i, i), i, 1 + i % 3));
        }
        TreePath {
            leaf: 0,
            first: None,
            origin: 0,
            head: head.expect("at least one chain"),
        }
    }

    #[test]
    fn a_position_and_a_root_are_found_in_logarithmic_steps_on_a_path_of_many_chains() {
        let chains = 100_000;
        let path = path_of(chains);
        // Positions from 1 (past the leaf); chain i starts after the
        // chains before it.
        let mut start = 1;
        let mut most = 0;
        for i in 0..chains {
            let len = (1 + i % 3) as usize;
            for position in [start, start + len - 1] {
                let mut steps = 0;
                assert_eq!(path.link_at(1, position, &mut steps).root, i, "position {position}");
                most = most.max(steps);
            }
            let mut steps = 0;
            assert_eq!(path.link_of_root(i, &mut steps).map(|l| l.root), Some(i));
            most = most.max(steps);
            start += len;
        }
        // Skew-binary jumps: at most about 3 log2 steps, never a walk.
        assert!(most <= 3 * 17, "{most} steps to find a chain among {chains}");
    }

    #[test]
    fn a_path_of_a_million_chains_is_dropped_without_recursion() {
        // A plain list of a million links dropped recursively overflows a
        // test thread's stack; `Link`'s drop unlinks them one by one.
        drop(path_of(1_000_000));
    }
}

#[cfg(test)]
pub(super) mod hub_tests {
    //! Paths through a hub box of many carrying providers, read whole
    //! through a check (attack of session 26, `hub-taps`).

    use crate::engine::check_text;
    use crate::{Budget, Config};

    pub(in crate::collisions) fn node(id: &str, ty: &str, label: &str) -> String {
        format!(r#"{{"id": "{id}", "type": "{ty}", "data": {{"label": "{label}"}}}}"#)
    }

    pub(in crate::collisions) fn edge(from: &str, to: &str) -> String {
        format!(r#"{{"source": "{from}", "target": "{to}", "data": {{"edgeType": "tool_availability"}}}}"#)
    }

    /// A box I1 of `n` tools "K j" into `n` team boxes X_k (each with a
    /// clashing pair of its own), every X_k into a hub box `hub`; agent k
    /// wired to the hub, to the twin q_k "k-k" straight, and to X_k, or,
    /// with `step`, to a box Y_k fed by X_k (then its path through the hub
    /// is as long as through Y_k, and ids decide).
    fn hub_taps(n: usize, step: bool, hub: &str) -> String {
        let mut nodes = vec![node("I1", "toolbox", "I1"), node(hub, "toolbox", hub)];
        let mut edges = Vec::new();
        for k in 0..n {
            let (x, a) = (format!("X{k:04}"), format!("a{k:04}"));
            nodes.push(node(&format!("p{k:04}"), "tool", &format!("K {k:06}")));
            edges.push(edge(&format!("p{k:04}"), "I1"));
            nodes.push(node(&x, "toolbox", &x));
            edges.extend([edge("I1", &x), edge(&x, hub)]);
            for (tool, label) in [("x", "Z"), ("y", "z-")] {
                let t = format!("{tool}{k:04}");
                nodes.push(node(&t, "tool", &format!("{label} {k}")));
                edges.push(edge(&t, &x));
            }
            nodes.push(node(&a, "agent", &a));
            let below = if step {
                let y = format!("Y{k:04}");
                nodes.push(node(&y, "toolbox", &y));
                edges.push(edge(&x, &y));
                y
            } else {
                x
            };
            edges.extend([edge(&below, &a), edge(hub, &a)]);
            nodes.push(node(&format!("q{k:04}"), "tool", &format!("k-{k:06}")));
            edges.push(edge(&format!("q{k:04}"), &a));
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    pub(in crate::collisions) fn total(work: &[(&'static str, u64)]) -> u64 {
        work.iter().find(|(name, _)| *name == "total").map_or(0, |&(_, w)| w)
    }

    /// The work of reading every clash's first violation's tools' paths
    /// whole, and the path of tool p_k to agent k for each k.
    fn read_hub(n: usize, step: bool, hub: &str) -> (u64, Vec<Vec<String>>) {
        read_taps(&hub_taps(n, step, hub))
    }

    /// The work of checking `text` and reading every clash's first
    /// violation's tools' paths whole, and the paths of the tools whose id
    /// starts with p, in the order read.
    pub(super) fn read_taps(text: &str) -> (u64, Vec<Vec<String>>) {
        let report = check_text(text.as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        let before = total(&collisions.work());
        let mut taps = Vec::new();
        for g in 0..collisions.group_count() {
            let first = collisions.group(g as _).first();
            let violation = collisions.get(first).expect("a group's first violation");
            for tool in violation.tools() {
                let path: Vec<String> = tool.path().into_iter().map(String::from).collect();
                if tool.id().starts_with('p') {
                    taps.push(path);
                }
            }
        }
        (total(&collisions.work()) - before, taps)
    }

    #[test]
    fn cmp9_paths_through_a_hub_of_many_carriers_cost_their_number() {
        // Each p_k enters agent k by X_k (3 boxes and agents), not by F
        // (one more); F's search among its n carriers is paid for once,
        // by rent that makes F's tree whole, not again per tool, and
        // agent k's own tree (F's n providers) is never grown.
        let (once, taps) = read_hub(100, false, "F");
        assert_eq!(taps.len(), 100);
        for (k, path) in taps.iter().enumerate() {
            assert_eq!(
                path,
                &[format!("p{k:04}"), "I1".into(), format!("X{k:04}"), format!("a{k:04}")]
            );
        }
        let (twice, _) = read_hub(200, false, "F");
        crate::work::assert_at_most_doubles(once, twice, "");
    }

    #[test]
    fn cmp9_paths_as_long_through_a_hub_of_many_carriers_are_told_apart_by_ids_in_their_number() {
        // Through Y_k or through the hub, p_k's paths are as long: the one
        // through the hub is read off the hub's tree (its descent, I1 and
        // X_0), compared node by node with the other, not left to agent
        // k's own tree (the hub's n providers, for every k).
        for hub in ["F", "ZZ"] {
            let (once, taps) = read_hub(100, true, hub);
            for (k, path) in taps.iter().enumerate() {
                // X_0 comes first among the X_k; then Y_0 beside the hub.
                let through_y = k == 0 && hub == "ZZ";
                let (third, fourth) = if through_y {
                    ("X0000".to_string(), "Y0000".to_string())
                } else {
                    ("X0000".to_string(), hub.to_string())
                };
                assert_eq!(
                    path,
                    &[format!("p{k:04}"), "I1".into(), third, fourth, format!("a{k:04}")]
                );
            }
            let (twice, _) = read_hub(200, true, hub);
            crate::work::assert_at_most_doubles(once, twice, "");
        }
    }
}

#[cfg(test)]
mod tie_tests {
    //! Paths as long through a hub box and through a box of the agent's
    //! own, alike for more nodes read off the hub's tree than are compared
    //! one by one (attack of session 26, `tie`).

    use super::hub_tests::{edge, node, read_taps};

    /// A chain C0000..C(chain - 1) of boxes, `n` tools p_j "K j" into its
    /// top; its bottom feeds `n` team boxes `{team}j` (each with a
    /// clashing pair of its own), every one into the hub box `hub`, and
    /// a box Z_k for each agent k, into a box Y_k; agent k is fed by the
    /// hub, by Y_k, and by the twin q_k "k-k" straight. p_k's paths to
    /// agent k through the hub and through Y_k are as long, alike for
    /// the chain, and part below it: at the first team box or at Z_k.
    fn tie(n: usize, chain: usize, hub: &str, team: &str) -> String {
        let mut nodes = vec![node(hub, "toolbox", hub)];
        let mut edges = Vec::new();
        for c in 0..chain {
            let b = format!("C{c:04}");
            nodes.push(node(&b, "toolbox", &b));
            if c > 0 {
                edges.push(edge(&format!("C{:04}", c - 1), &b));
            }
        }
        let bottom = format!("C{:04}", chain - 1);
        for j in 0..n {
            let (p, x) = (format!("p{j:04}"), format!("{team}{j:04}"));
            nodes.push(node(&p, "tool", &format!("K {j:06}")));
            edges.push(edge(&p, "C0000"));
            nodes.push(node(&x, "toolbox", &x));
            edges.extend([edge(&bottom, &x), edge(&x, hub)]);
            for (tool, label) in [("u", "T "), ("v", "t-")] {
                let t = format!("{tool}{j:04}");
                nodes.push(node(&t, "tool", &format!("{label}{j:06}")));
                edges.push(edge(&t, &x));
            }
        }
        for k in 0..n {
            let (a, y, z, q) = (
                format!("a{k:04}"),
                format!("Y{k:04}"),
                format!("Z{k:04}"),
                format!("q{k:04}"),
            );
            nodes.push(node(&a, "agent", &a));
            nodes.push(node(&z, "toolbox", &z));
            nodes.push(node(&y, "toolbox", &y));
            nodes.push(node(&q, "tool", &format!("k-{k:06}")));
            edges.extend([
                edge(&bottom, &z),
                edge(&z, &y),
                edge(&y, &a),
                edge(hub, &a),
                edge(&q, &a),
            ]);
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    /// The work of reading every clash's first violation's tools' paths
    /// whole, and the path of tool p_k to agent k for each k.
    fn read_tie(n: usize, chain: usize, hub: &str, team: &str) -> (u64, Vec<Vec<String>>) {
        read_taps(&tie(n, chain, hub, team))
    }

    #[test]
    fn cmp9_paths_as_long_alike_past_the_nodes_compared_one_by_one_part_where_ids_decide() {
        // Through the hub, p_k's path is read off the hub's tree (a
        // descent of the chain and the first team box); through Y_k, it
        // is one chain. Alike for the chain's nodes, more than
        // `DESCENT_COMPARED`: where they part is found by halving, not
        // left to agent k's own tree (the hub's n providers, for every k).
        for (chain, hub, team) in [(70, "F", "X"), (70, "ZZ", "X"), (70, "F", "ax"), (200, "F", "X")] {
            let (once, taps) = read_tie(100, chain, hub, team);
            assert_eq!(taps.len(), 100);
            for (k, path) in taps.iter().enumerate() {
                let mut expected = vec![format!("p{k:04}")];
                expected.extend((0..chain).map(|c| format!("C{c:04}")));
                if team == "X" {
                    // "X" < "Z": through the first team box and the hub.
                    expected.extend([format!("X{:04}", 0), hub.to_string()]);
                } else {
                    // "Z" < "ax": through the agent's own boxes.
                    expected.extend([format!("Z{k:04}"), format!("Y{k:04}")]);
                }
                expected.push(format!("a{k:04}"));
                assert_eq!(path, &expected, "chain {chain}, hub {hub}, team boxes {team}");
            }
            let (twice, _) = read_tie(200, chain, hub, team);
            crate::work::assert_at_most_doubles(once, twice, &format!("chain {chain}, hub {hub}, team boxes {team}: "));
        }
    }
}

#[cfg(test)]
mod lattice_tests {
    //! Paths down a lattice of levels deeper than a path's nested searches
    //! (`lattice-ladder`, family 68).

    use super::hub_tests::{edge, node, total};
    use crate::engine::check_text;
    use crate::{Budget, Config};

    /// `n` levels of two boxes A_j, B_j, each fed by both boxes of the
    /// level above; a tool T "Top" into A_0 and B_0; agent a_j fed by A_j
    /// and by a twin t_j "top" of T: a clash at every agent, T's path to
    /// a_j down j + 1 levels, every box below the top a root of two
    /// providers that both carry T, as near. T is also wired into `dead`
    /// boxes D_k that feed nothing.
    fn lattice(n: usize, dead: usize) -> String {
        let mut nodes = vec![node("T", "tool", "Top")];
        let mut edges = Vec::new();
        for k in 0..dead {
            let d = format!("D{k:02}");
            nodes.push(node(&d, "toolbox", &d));
            edges.push(edge("T", &d));
        }
        for j in 0..n {
            let (a, b, agent, twin) = (
                format!("A{j:05}"),
                format!("B{j:05}"),
                format!("a{j:05}"),
                format!("t{j:05}"),
            );
            nodes.extend([
                node(&a, "toolbox", &a),
                node(&b, "toolbox", &b),
                node(&agent, "agent", &agent),
            ]);
            nodes.push(node(&twin, "tool", "top"));
            let above = match j {
                0 => vec!["T".to_string()],
                _ => vec![format!("A{:05}", j - 1), format!("B{:05}", j - 1)],
            };
            for from in &above {
                edges.extend([edge(from, &a), edge(from, &b)]);
            }
            edges.extend([edge(&a, &agent), edge(&twin, &agent)]);
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    /// The work of reading every violation's T path as the report formats
    /// do (its length and 32 nodes at each end), from the top level down
    /// or from the bottom up, each checked to be the walk's: T, A_0 to A_j
    /// (ties go to the smaller id), a_j.
    fn read_lattice(n: usize, bottom_up: bool, dead: usize) -> u64 {
        let text = lattice(n, dead);
        let report = check_text(text.as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        assert_eq!(collisions.len(), n as u64, "a clash at every agent");
        let before = total(&collisions.work());
        let mut levels: Vec<usize> = (0..n).collect();
        if bottom_up {
            levels.reverse();
        }
        for j in levels {
            let violation = collisions.get(j as u64).expect("a violation at agent j");
            let tool = violation
                .tools()
                .into_iter()
                .find(|t| t.id() == "T")
                .expect("T clashes");
            let walk: Vec<String> = std::iter::once("T".to_string())
                .chain((0..=j).map(|i| format!("A{i:05}")))
                .chain([format!("a{j:05}")])
                .collect();
            let len = tool.path_len();
            assert_eq!(len, walk.len(), "T's path to a{j:05}");
            let (head, tail) = (len.min(32), len.saturating_sub(32));
            assert_eq!(tool.path_ids(0, head), walk[..head], "T's path to a{j:05}, first nodes");
            assert_eq!(
                tool.path_ids(tail, len),
                walk[tail..],
                "T's path to a{j:05}, last nodes"
            );
        }
        total(&collisions.work()) - before
    }

    /// Boxes `{prefix}{l}_{c}`, `levels` levels of two, each fed by both
    /// boxes above, the first level by `top`; the last level's boxes.
    fn levels(nodes: &mut Vec<String>, edges: &mut Vec<String>, prefix: &str, levels: usize, top: &str) -> [String; 2] {
        let mut above = vec![top.to_string()];
        for l in 0..levels {
            let level = [format!("{prefix}{l:05}_0"), format!("{prefix}{l:05}_1")];
            for b in &level {
                nodes.push(node(b, "toolbox", b));
                edges.extend(above.iter().map(|a| edge(a, b)));
            }
            above = level.to_vec();
        }
        [above[0].clone(), above[1].clone()]
    }

    /// Warm-ups a tree would answer at once (attack of session 30). A
    /// lattice L of `n` levels below a box H; with `cycle_above`, one tool
    /// T into H, H and H2 a cycle of boxes (`cycle-top`), else `n` tools,
    /// each into H (`near-roots`). Per tool i (or per consumer i, of T),
    /// agent a_i fed by the twin and by C_i, a root of the bottom of a
    /// private lattice of 18 levels (36 roots: the tool's 32 nested
    /// searches spent there) fed by the tool, and of `roots` roots R_i_j,
    /// each fed by L's bottom and by the tool down two boxes D, E: each
    /// R's tree stops three boxes up, but its search, out of searches,
    /// would warm up through L.
    fn near_roots(n: usize, roots: usize, cycle_above: bool) -> String {
        let (mut nodes, mut edges) = (vec![node("H", "toolbox", "H")], Vec::new());
        let tool = |i: usize| {
            if cycle_above {
                "T".to_string()
            } else {
                format!("t{i:05}")
            }
        };
        if cycle_above {
            nodes.extend([node("T", "tool", "Top"), node("H2", "toolbox", "H2")]);
            edges.extend([edge("T", "H"), edge("H", "H2"), edge("H2", "H")]);
        }
        let bottom = levels(&mut nodes, &mut edges, "L", n, "H");
        for i in 0..n {
            if !cycle_above {
                nodes.push(node(&tool(i), "tool", &format!("Tool {i:05}")));
                edges.push(edge(&tool(i), "H"));
            }
            let private = levels(&mut nodes, &mut edges, &format!("G{i:05}_"), 18, &tool(i));
            let (c, a, u) = (format!("C{i:05}"), format!("a{i:05}"), format!("u{i:05}"));
            nodes.extend([node(&c, "toolbox", &c), node(&a, "agent", &a)]);
            let twin = if cycle_above {
                "top".to_string()
            } else {
                format!("tool-{i:05}")
            };
            nodes.push(node(&u, "tool", &twin));
            edges.extend([edge(&private[0], &c), edge(&c, &a), edge(&u, &a)]);
            for j in 0..roots {
                let (d, e, r) = (format!("D{i:05}_{j}"), format!("E{i:05}_{j}"), format!("R{i:05}_{j}"));
                for b in [&d, &e, &r] {
                    nodes.push(node(b, "toolbox", b));
                }
                edges.extend([edge(&tool(i), &d), edge(&d, &e), edge(&e, &r), edge(&r, &c)]);
                edges.extend(bottom.iter().map(|b| edge(b, &r)));
            }
        }
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    /// The work of reading every violation's tools' paths as the formats
    /// do, each tool's checked: down D, E and R_i_0 into C_i (three boxes
    /// where its private lattice is 18 levels), then the agent.
    fn read_near_roots(n: usize, roots: usize, cycle_above: bool) -> u64 {
        let text = near_roots(n, roots, cycle_above);
        let report = check_text(text.as_bytes(), &Config::default(), Budget::full()).unwrap();
        let collisions = &report.collisions;
        assert_eq!(collisions.len(), n as u64, "a clash at every agent");
        let before = total(&collisions.work());
        for i in 0..n {
            for tool in collisions.get(i as u64).expect("a violation").tools() {
                let len = tool.path_len();
                let (head, tail) = (
                    tool.path_ids(0, len.min(32)),
                    tool.path_ids(len.saturating_sub(32), len),
                );
                assert_eq!(head, tail, "a short path, read whole from either end");
                if tool.id().starts_with(['t', 'T']) {
                    let walk: Vec<String> = [tool.id().to_string()]
                        .into_iter()
                        .chain(["D", "E", "R"].map(|b| format!("{b}{i:05}_0")))
                        .chain([format!("C{i:05}"), format!("a{i:05}")])
                        .collect();
                    assert_eq!(head, walk, "the path through R_i_0 (the smallest id)");
                }
            }
        }
        total(&collisions.work()) - before
    }

    #[test]
    fn cmp9_warm_ups_cost_no_more_than_the_trees_they_stand_in_for() {
        // Each R's search, out of searches, warmed up through all of L
        // (capped per tool, doubled per overrun: each tool paid twice L,
        // 4x the work for twice n), or climbed L to the cycle atop it and
        // gave up, finding nothing to keep (3.2x to 3.7x). Raced against
        // R's own tree, which stops three boxes up, a warm-up stops there.
        for (roots, cycle_above) in [(8, false), (1, true)] {
            let (once, twice) = (
                read_near_roots(60, roots, cycle_above),
                read_near_roots(120, roots, cycle_above),
            );
            crate::work::assert_at_most_doubles(once, twice, "");
        }
    }

    #[test]
    fn cmp9_of_boxes_hanging_straight_below_one_root_the_walk_takes_the_smallest_id() {
        // T into X and Y, both into root R; R into P3, P1, P2 (listed so,
        // their node order not their ids'), each into agent a, with T's
        // twin: the walk takes X (a tie, the smaller id), R, then P1 (three
        // as near, the smallest id). Of the providers below one root only
        // the smallest id is searched (`Paths::nearest_carrier`).
        let mut nodes = vec![node("T", "tool", "T"), node("t", "tool", "t"), node("a", "agent", "a")];
        let mut edges = vec![
            edge("T", "X"),
            edge("T", "Y"),
            edge("X", "R"),
            edge("Y", "R"),
            edge("t", "a"),
        ];
        for b in ["X", "Y", "R", "P3", "P1", "P2"] {
            nodes.push(node(b, "toolbox", b));
        }
        for p in ["P3", "P1", "P2"] {
            edges.extend([edge("R", p), edge(p, "a")]);
        }
        let text = format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","));
        let report = check_text(text.as_bytes(), &Config::default(), Budget::full()).unwrap();
        let violation = report.collisions.get(0).expect("T and t clash at a");
        let tool = violation.tools().into_iter().find(|t| t.id() == "T").expect("T");
        assert_eq!(tool.path(), ["T", "X", "R", "P1", "a"]);
    }

    #[test]
    fn cmp9_paths_down_a_lattice_deeper_than_the_searches_cost_their_number_in_any_order() {
        // From the top down, each path is the level above's and a box: the
        // paths to a level's two boxes share all but their last chain, and
        // only that is compared (compared chain by chain, 3.7x the work
        // for twice the levels). From the bottom up, the first path's
        // searches ran out 32 levels down and each level's root was read
        // off a tree of its own, grown to the top (3.8x); the roots above
        // are warmed up once instead.
        for bottom_up in [false, true] {
            crate::work::assert_at_most_doubles(read_lattice(150, bottom_up, 0), read_lattice(300, bottom_up, 0), "");
        }
    }

    #[test]
    fn cmp9_a_tool_of_many_receivers_warms_up_a_lattice_deeper_than_the_searches() {
        // T also wired into 16 boxes that feed nothing (18 receivers, more
        // than `FEW_RECEIVERS`): until session 34 it had no warm-up, each
        // level's root read off a tree of its own grown to the top (the
        // attack of session 33, finding 11: 3.9x to 4.0x for twice the
        // levels). Now warmed up as a tool of few, the tree's reach told
        // by the boxes it grew: about the work with 14 such boxes.
        for bottom_up in [false, true] {
            let (few, many) = (read_lattice(150, bottom_up, 14), read_lattice(150, bottom_up, 16));
            assert!(
                many * 4 <= few * 5,
                "16 boxes more cost {many} steps, 14 cost {few} (bottom up: {bottom_up})"
            );
            crate::work::assert_at_most_doubles(many, read_lattice(300, bottom_up, 16), "16 boxes more: ");
        }
    }
}
