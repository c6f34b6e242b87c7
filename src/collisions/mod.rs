//! CMP-9: which names two or more distinct leaves of a consumer's
//! flattened tool set share (SEMANTICS 4-6), found once per cause and read
//! on demand.
//!
//! # Cost model
//!
//! A workflow of N nodes and E tool edges can have far more violations
//! (one per consumer and name) than bytes: one toolbox of 1,000 clashing
//! pairs wired into 10,000 agents is 10,000,000 from 2 MB. What is made is
//! never per violation; it is per *clash* (a name and the set of leaves
//! that share it, counted once however many consumers see it):
//!
//! 1. [`flow`]: the leaves that can clash, the boxes and consumers that can
//!    be on their paths, cycles of boxes condensed, and *classes* (nodes
//!    that see the same leaves: chains, private boxes, agents wired alike
//!    collapse into one). O(N + E).
//! 2. [`tokens`]: every name that can clash as tokens, in name order; a
//!    name whose leaves all enter at one class is one token per place it
//!    forms (whatever the number of names a box holds, 64 to a word).
//!    O(L log L) for L leaves that can clash.
//! 3. [`sets`]: each class's set of tokens, a persistent trie made by one
//!    union per input class, in topological order, sharing every node that
//!    does not change. A class that forwards another holds its very set; a
//!    union costs the nodes where its operands differ, at most the smaller
//!    operand's nodes times the depth.
//! 4. [`build`]: consumers counted down the tries to their leaves, and
//!    each leaf's clashes counted once: every distinct clash with its exact
//!    number of consumers and its first violation. O(trie nodes + clashes).
//!
//! So a check costs O(N + E + S + C) where C is the size of the distinct
//! clashes (their leaves) and S the trie nodes made, which is O(N + E) on
//! every shape where classes do not each combine many different clashing
//! inputs. The bound S reaches in general is the sum over class inputs of
//! the smaller operand's trie nodes times the depth (log16 of the tokens):
//! a batch of reachability questions, at worst (classes x tokens / 64).
//! That worst case needs many classes that each join a different
//! combination of inputs that each hold many tokens (docs/RELIABILITY.md,
//! "Worst cases", lists the shapes measured).
//!
//! Reading: violation `i` is a binary search over the consumers' running
//! counts, then the `k`th clash of the consumer's set, O(log C + 16 *
//! depth). A tool's path (see [`paths`]) is read in time proportional to
//! its length, plus, the first time its root is read, the part of the
//! root's tree the path needs. A clash's consumers are read by id from its
//! first one, one set lookup each.

mod build;
mod flow;
mod giants;
mod intern;
mod paths;
mod read;
mod sets;
mod tokens;

use crate::error::Location;
use crate::flatten::{CandidateNames, Map, NameIx};
use crate::graph::{NodeIx, ToolGraph};
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
    /// Sorted by id.
    pub leaves: Box<[NodeIx]>,
    /// The segment of tokens that stands for it, and what it holds there.
    pub segment: u32,
    pub held: u64,
    /// The set word that holds it.
    pub word: u32,
    /// Consumers that see it (= its violations).
    pub count: u64,
    /// Its first consumers (all of them, or as many as reports show), as
    /// places among the consumers with a violation, in order.
    pub first_consumers: Box<[u32]>,
    /// Its first violation, by index.
    pub first: u64,
    /// The box every tool of the clash is wired into, when there is one.
    pub through: Option<NodeIx>,
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
    /// The words of classes held as parts, combined when a consumer of one
    /// is read by index (the few read last).
    part_words: std::sync::Mutex<Vec<(flow::ClassIx, std::sync::Arc<PartWords>)>>,
    /// Consumers with a violation, by id: (relevant ordinal, class).
    consumers: Vec<(u32, flow::ClassIx)>,
    /// `starts[i]`: violations before `consumers[i]`; one more entry, the
    /// total.
    starts: Vec<u64>,
    /// In the order of their first violations.
    clashes: Vec<Clash>,
    clash_of: Map<(u32, u64), ClashIx>,
    /// Each clash by the index of its first violation, which is how
    /// reports that show each clash once read it.
    first_of: Map<u64, ClashIx>,
    pub(crate) renames: Map<NodeIx, Rename>,
    pub(crate) locations: Map<NodeIx, Location>,
    paths: paths::Paths,
    pub(crate) work: Work,
}
