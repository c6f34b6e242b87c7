//! Persistent sets of tokens, shared between the classes that hold them.
//!
//! A set is a trie over 64-bit words: word `w` holds tokens `64w..64w+63`
//! (or, for a word the layout says so, an id that stands for a larger set;
//! see `tokens`). Inner nodes have 16 children; a missing child is the
//! empty set, node 0 of either arena. Nodes are never changed once made,
//! and equal sets are one node (a node is looked up by what it holds
//! before one is made), so:
//!
//! - a class that forwards what another holds holds the same node;
//! - `union(a, b)` returns `a` or `b` itself wherever one contains the
//!   other, returns at once where they are equal, and makes new nodes only
//!   where they differ; it visits only subtrees where both are non-empty
//!   and different, at most the smaller operand's nodes;
//! - every node knows how many clashes its words hold, so the `k`th clash
//!   of a set, or how many come before a word, is found in one walk from
//!   the root (`depth * 16` steps), whatever the set's size; so is the
//!   `k`th clash of a union never made of sets that share no token and no
//!   segment (a class held as parts), all walked down at once.
//!
//! `push_down` then counts, for every leaf, the consumers whose sets hold
//! it, in one pass over the nodes made. A leaf made as the union of two
//! leaves that share no token and no segment (a *sum*) hands its count on
//! to both, so a clash is counted at the leaves it comes from, not again
//! at every union that carries it.
//!
//! What a word's value means, and how many clashes it holds, is the
//! business of a [`Words`] implementation; this module only stores.
//!
//! One module, though long (a sixth of it tests): the trie's functions all make
//! or read nodes under the one rule that equal sets are one node keeping its
//! clash counts, and `Consumers`, `Above` and `Held` are what `push_down`,
//! `above` and a class's unions carry. Split, the rule would be kept in one file and
//! relied on in another.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::maps::{new_map, Map};

use super::intern::{NodeIds, FAN};

/// A node of the arena of its level: leaves at level 0, inner nodes above.
pub(crate) type SetId = u32;
pub(crate) const EMPTY: SetId = 0;

const FAN_BITS: u32 = 4;

/// What the words of a set mean.
pub(crate) trait Words {
    /// The union of two different, non-empty values of word `w`.
    fn union(&mut self, w: u32, a: u64, b: u64) -> u64;
    /// How many clashes value `value` of word `w` holds.
    fn clashes(&self, w: u32, value: u64) -> u32;
    /// Whether values `a` and `b` of word `w` share a token or a segment
    /// (their union may then hold a clash that neither holds).
    fn interact(&self, w: u32, a: u64, b: u64) -> bool;
    /// An operand of a union holds words `lo..hi` exactly as the other
    /// does (one node of the sets for both), so the union does not look
    /// at them; `value_of` gives their values. A meaning that tracks
    /// what each union adds is told here that this operand holds whole
    /// whatever it holds there; one that does not has nothing to do.
    fn held_whole(&mut self, _lo: u64, _hi: u64, _value_of: &dyn Fn(u32) -> u64) {}
}

#[derive(Clone, Copy)]
struct Leaf {
    value: u64,
    /// A leaf is only ever used at the word it was made for.
    word: u32,
    clashes: u32,
    /// For a leaf that is the union of two leaves sharing no token and no
    /// segment: those two. Its clashes are theirs, each from one of them,
    /// so what is counted of it is counted of them (see `push_down`).
    sum_of: (SetId, SetId),
}

struct Inner {
    children: [SetId; FAN],
    clashes: u64,
    /// How many words (leaves) it holds: what listing them, or a walk
    /// over them, costs.
    words: u32,
    /// 1 when the children are leaves.
    level: u8,
}

pub(crate) struct Sets {
    leaves: Vec<Leaf>,
    inner: Vec<Inner>,
    /// The level of every root: 0 when one word holds every token.
    depth: u32,
    /// Every node by what it holds: equal sets are one node, however they
    /// were made, so a union of two equal sets (two routes to the same
    /// tools) returns at once, and the same word is never stored twice.
    leaf_ids: Map<(u32, u64), SetId>,
    inner_ids: NodeIds,
    /// Nodes visited or made, for the work counters.
    pub(crate) steps: u64,
    /// Nodes visited by reads (`find`, `nth`), which only borrow the sets.
    pub(crate) reads: AtomicU64,
}

impl Sets {
    /// Sets over `words` words.
    pub(crate) fn new(words: u32) -> Sets {
        let mut depth = 0;
        while (FAN as u64).pow(depth) < u64::from(words.max(1)) {
            depth += 1;
        }
        Sets {
            leaves: vec![Leaf {
                value: 0,
                word: 0,
                clashes: 0,
                sum_of: (EMPTY, EMPTY),
            }],
            inner: vec![Inner {
                children: [EMPTY; FAN],
                clashes: 0,
                words: 0,
                level: 0,
            }],
            depth,
            leaf_ids: new_map(),
            inner_ids: NodeIds::default(),
            steps: 0,
            reads: AtomicU64::new(0),
        }
    }

    /// Words under one child of a node at `level`.
    fn span(level: u32) -> u64 {
        1u64 << (FAN_BITS * (level - 1))
    }

    fn count(&self, id: SetId, level: u32) -> u64 {
        if level == 0 {
            u64::from(self.leaves[id as usize].clashes)
        } else {
            self.inner[id as usize].clashes
        }
    }

    /// How many clashes set `root` holds.
    pub(crate) fn clashes(&self, root: SetId) -> u64 {
        self.count(root, self.depth)
    }

    fn words_at(&self, id: SetId, level: u32) -> u32 {
        match (id, level) {
            (EMPTY, _) => 0,
            (_, 0) => 1,
            _ => self.inner[id as usize].words,
        }
    }

    /// How many words set `root` holds (what `words_of` lists), kept in
    /// every node as it is made.
    pub(crate) fn words(&self, root: SetId) -> u64 {
        u64::from(self.words_at(root, self.depth))
    }

    /// The most nodes `nth_of` visits for `parts` parts.
    pub(crate) fn nth_of_cost(&self, parts: usize) -> u64 {
        parts as u64 * u64::from(self.depth + 1)
    }

    /// Forgets which node holds what: once every set is made, only reads
    /// follow, and the tables that made equal sets one node are as big as
    /// the sets (`ring-crowd`, 73: 105 MB of a 342 MB report at 1,000).
    pub(crate) fn made(&mut self) {
        self.leaf_ids = new_map();
        self.inner_ids = NodeIds::default();
    }

    fn leaf(&mut self, word: u32, value: u64, clashes: u32, sum_of: (SetId, SetId)) -> SetId {
        self.steps += 1;
        let next = self.leaves.len() as SetId;
        let id = *self.leaf_ids.entry((word, value)).or_insert(next);
        if id == next {
            self.leaves.push(Leaf {
                value,
                word,
                clashes,
                sum_of,
            });
        }
        id
    }

    fn node(&mut self, children: [SetId; FAN], level: u32) -> SetId {
        self.steps += 1;
        if children.iter().all(|&c| c == EMPTY) {
            return EMPTY;
        }
        let inner = &self.inner;
        let stored = |id: u32| (u64::from(inner[id as usize].level), inner[id as usize].children);
        let print = match self.inner_ids.find(u64::from(level), &children, stored) {
            Ok(id) => return id,
            Err(print) => print,
        };
        let id = self.inner.len() as SetId;
        let clashes = children.iter().map(|&c| self.count(c, level - 1)).sum();
        let words = children.iter().map(|&c| self.words_at(c, level - 1)).sum();
        self.inner.push(Inner {
            children,
            clashes,
            words,
            level: level as u8,
        });
        self.inner_ids.insert(print, u64::from(level), &children, id);
        id
    }

    /// The set of `words`: (word, value) pairs, sorted by word, values
    /// non-zero.
    pub(crate) fn of_words(&mut self, words: &[(u32, u64)], meaning: &impl Words) -> SetId {
        self.build(words, self.depth, 0, meaning)
    }

    fn build(&mut self, words: &[(u32, u64)], level: u32, base: u64, meaning: &impl Words) -> SetId {
        if words.is_empty() {
            return EMPTY;
        }
        if level == 0 {
            let (w, value) = words[0];
            return self.leaf(w, value, meaning.clashes(w, value), (EMPTY, EMPTY));
        }
        let span = Self::span(level);
        let mut children = [EMPTY; FAN];
        let mut rest = words;
        // Only the children that get words are built (most sets built are
        // a class's own word or two): each found from its first word.
        while let Some(&(w, _)) = rest.first() {
            let i = ((u64::from(w) - base) / span) as usize;
            let end = base + span * (i as u64 + 1);
            let split = rest.partition_point(|&(w, _)| u64::from(w) < end);
            children[i] = self.build(&rest[..split], level - 1, base + span * i as u64, meaning);
            rest = &rest[split..];
        }
        self.node(children, level)
    }

    /// `a` ∪ `b`, sharing every node that does not change.
    pub(crate) fn union(&mut self, a: SetId, b: SetId, meaning: &mut impl Words) -> SetId {
        self.union_at(a, b, self.depth, 0, meaning)
    }

    fn union_at(&mut self, a: SetId, b: SetId, level: u32, base: u64, meaning: &mut impl Words) -> SetId {
        if a == b && a != EMPTY {
            let words = if level == 0 { 1 } else { Self::span(level) * FAN as u64 };
            meaning.held_whole(base, base + words, &|w| self.value_in(a, level, base, w).0);
            return a;
        }
        if a == b || b == EMPTY {
            return a;
        }
        if a == EMPTY {
            return b;
        }
        // A pair of nodes, both there and different, visited.
        self.steps += 1;
        if level == 0 {
            let (va, vb) = (self.leaves[a as usize].value, self.leaves[b as usize].value);
            let value = meaning.union(base as u32, va, vb);
            return if value == va {
                a
            } else if value == vb {
                b
            } else {
                let w = base as u32;
                let sum_of = if meaning.interact(w, va, vb) {
                    (EMPTY, EMPTY)
                } else {
                    (a, b)
                };
                self.leaf(w, value, meaning.clashes(w, value), sum_of)
            };
        }
        let (ca, cb) = (self.inner[a as usize].children, self.inner[b as usize].children);
        let span = Self::span(level);
        let mut children = [EMPTY; FAN];
        for i in 0..FAN {
            // A child missing from one side is the other's, as the call
            // would say at once (most of a node's sixteen are).
            children[i] = match (ca[i], cb[i]) {
                (x, EMPTY) | (EMPTY, x) => x,
                (x, y) => self.union_at(x, y, level - 1, base + span * i as u64, meaning),
            };
        }
        if children == ca {
            a
        } else if children == cb {
            b
        } else {
            self.node(children, level)
        }
    }

    /// `root` with the bits of `masks` ((word, bits), sorted by word)
    /// cleared at those words: their paths made anew, a word left with
    /// nothing dropped. O(masks x depth) nodes.
    pub(crate) fn masked(&mut self, root: SetId, masks: &[(u32, u64)], meaning: &impl Words) -> SetId {
        self.masked_at(root, self.depth, 0, masks, meaning)
    }

    fn masked_at(&mut self, id: SetId, level: u32, base: u64, masks: &[(u32, u64)], meaning: &impl Words) -> SetId {
        if id == EMPTY || masks.is_empty() {
            return id;
        }
        self.steps += 1;
        if level == 0 {
            let (w, value) = (base as u32, self.leaves[id as usize].value & !masks[0].1);
            return match value {
                0 => EMPTY,
                _ if value == self.leaves[id as usize].value => id,
                _ => self.leaf(w, value, meaning.clashes(w, value), (EMPTY, EMPTY)),
            };
        }
        let span = Self::span(level);
        let mut children = self.inner[id as usize].children;
        let mut rest = masks;
        for (i, child) in children.iter_mut().enumerate() {
            let end = base + span * (i as u64 + 1);
            let split = rest.partition_point(|&(w, _)| u64::from(w) < end);
            *child = self.masked_at(*child, level - 1, base + span * i as u64, &rest[..split], meaning);
            rest = &rest[split..];
        }
        if children == self.inner[id as usize].children {
            return id;
        }
        self.node(children, level)
    }

    /// Every word both `a` and `b` hold: (word, value in `a`, value in
    /// `b`), in order. Visits only the nodes both hold, and stops (false)
    /// at the first that is one node in both.
    pub(crate) fn shared_words(&self, a: SetId, b: SetId, out: &mut Vec<(u32, u64, u64)>) -> bool {
        self.shared_at(a, b, self.depth, 0, out)
    }

    fn shared_at(&self, a: SetId, b: SetId, level: u32, base: u64, out: &mut Vec<(u32, u64, u64)>) -> bool {
        if a == EMPTY || b == EMPTY {
            return true;
        }
        self.reads.fetch_add(1, Relaxed);
        if a == b {
            return false;
        }
        if level == 0 {
            out.push((
                base as u32,
                self.leaves[a as usize].value,
                self.leaves[b as usize].value,
            ));
            return true;
        }
        let (ca, cb) = (&self.inner[a as usize].children, &self.inner[b as usize].children);
        let span = Self::span(level);
        (0..FAN).all(|i| self.shared_at(ca[i], cb[i], level - 1, base + span * i as u64, out))
    }

    /// `root` without the words `words` (sorted): their paths made anew.
    pub(crate) fn without(&mut self, root: SetId, words: &[u32]) -> SetId {
        self.without_at(root, self.depth, 0, words)
    }

    fn without_at(&mut self, id: SetId, level: u32, base: u64, words: &[u32]) -> SetId {
        if id == EMPTY || words.is_empty() {
            return id;
        }
        self.steps += 1;
        if level == 0 {
            return EMPTY;
        }
        let span = Self::span(level);
        let mut children = self.inner[id as usize].children;
        let mut rest = words;
        for (i, child) in children.iter_mut().enumerate() {
            let end = base + span * (i as u64 + 1);
            let split = rest.partition_point(|&w| u64::from(w) < end);
            *child = self.without_at(*child, level - 1, base + span * i as u64, &rest[..split]);
            rest = &rest[split..];
        }
        self.node(children, level)
    }

    /// Where `a` and `b` meet: how many words both have (the leaves their
    /// union would make, at most), and those where `interact` holds (a
    /// word both hold alike among them), listed up to `most + 1`: past
    /// that, `overflow` is set and `shared_words` no longer counted (a
    /// caller lists at most `most` contested words, and gives up past
    /// them). A subtree both hold alike is not walked: its words are all
    /// shared and contested, so it costs the words listed of it, at most
    /// `most + 1`, not its size (L_i and R_i of `diamond-ladder`, family
    /// 54, share B_i's whole set: walked, n x n / 64 words for n rungs).
    pub(crate) fn contested(
        &self,
        a: SetId,
        b: SetId,
        most: usize,
        interact: &impl Fn(u32, u64, u64) -> bool,
    ) -> Meeting {
        let mut meeting = Meeting::default();
        // Visits counted here and added to `reads` once: an atomic add per
        // node visited costs more than the visit.
        let mut visits = 0;
        let walk = (&mut meeting, &mut visits);
        self.contested_at(a, b, self.depth, 0, most, interact, walk);
        self.reads.fetch_add(visits, Relaxed);
        meeting
    }

    #[allow(clippy::too_many_arguments)] // one walk's state, passed down
    fn contested_at(
        &self,
        a: SetId,
        b: SetId,
        level: u32,
        base: u64,
        most: usize,
        interact: &impl Fn(u32, u64, u64) -> bool,
        (out, visits): (&mut Meeting, &mut u64),
    ) {
        if a == EMPTY || b == EMPTY || out.overflow {
            return;
        }
        *visits += 1;
        if level == 0 {
            let (va, vb) = (self.leaves[a as usize].value, self.leaves[b as usize].value);
            out.shared_words += 1;
            if a == b || interact(base as u32, va, vb) {
                out.push(base as u32, most);
            }
            return;
        }
        if a == b {
            // Every word of it shared, and contested: counted at once,
            // listed until the list overflows.
            let words = self.inner[a as usize].words;
            if out.contested.len() + words as usize > most {
                let mut listed = Vec::new();
                self.collect_upto(a, level, base, most + 1 - out.contested.len(), &mut listed);
                *visits += listed.len() as u64;
                for w in listed {
                    out.push(w, most);
                }
                out.overflow = true;
                return;
            }
            out.shared_words += words;
            let mut listed = Vec::new();
            self.collect(a, level, base, &mut listed);
            *visits += listed.len() as u64;
            out.contested.extend(listed.into_iter().map(|(w, _)| w));
            return;
        }
        let (ca, cb) = (&self.inner[a as usize].children, &self.inner[b as usize].children);
        let span = Self::span(level);
        for i in 0..FAN {
            // A child missing from either side meets nothing: not visited.
            if ca[i] != EMPTY && cb[i] != EMPTY {
                let walk = (&mut *out, &mut *visits);
                self.contested_at(ca[i], cb[i], level - 1, base + span * i as u64, most, interact, walk);
            }
        }
    }

    /// The first `upto` words of node `id` at `level` (whose words start
    /// at `base`), in order.
    fn collect_upto(&self, id: SetId, level: u32, base: u64, upto: usize, out: &mut Vec<u32>) {
        if id == EMPTY || out.len() >= upto {
            return;
        }
        if level == 0 {
            out.push(base as u32);
            return;
        }
        let span = Self::span(level);
        for (i, &child) in self.inner[id as usize].children.iter().enumerate() {
            self.collect_upto(child, level - 1, base + span * i as u64, upto, out);
        }
    }

    /// Every word of `root`: (word, value), in order.
    pub(crate) fn words_of(&self, root: SetId, out: &mut Vec<(u32, u64)>) {
        self.collect(root, self.depth, 0, out);
    }

    fn collect(&self, id: SetId, level: u32, base: u64, out: &mut Vec<(u32, u64)>) {
        if id == EMPTY {
            return;
        }
        if level == 0 {
            out.push((base as u32, self.leaves[id as usize].value));
            return;
        }
        let span = Self::span(level);
        for (i, &child) in self.inner[id as usize].children.iter().enumerate() {
            self.collect(child, level - 1, base + span * i as u64, out);
        }
    }

    /// The value of word `w` in `root` (0 when absent), and how many
    /// clashes the words before it hold.
    pub(crate) fn find(&self, root: SetId, w: u32) -> (u64, u64) {
        let (mut id, mut level, mut base, mut before) = (root, self.depth, 0u64, 0u64);
        let mut visited = 1;
        while level > 0 && id != EMPTY {
            let span = Self::span(level);
            let i = ((u64::from(w) - base) / span) as usize;
            visited += 1;
            let node = &self.inner[id as usize];
            before += node.children[..i]
                .iter()
                .map(|&c| self.count(c, level - 1))
                .sum::<u64>();
            id = node.children[i];
            base += span * i as u64;
            level -= 1;
        }
        self.reads.fetch_add(visited, Relaxed);
        let value = if id == EMPTY { 0 } else { self.leaves[id as usize].value };
        (value, before)
    }

    /// The value of word `w` in `root` (0 when absent): one walk down.
    pub(crate) fn value_at(&self, root: SetId, w: u32) -> u64 {
        let (value, visited) = self.value_in(root, self.depth, 0, w);
        self.reads.fetch_add(visited, Relaxed);
        value
    }

    /// The value of word `w` in the node `id` at `level` whose words start
    /// at `base` (`w` among them), and the nodes visited.
    fn value_in(&self, mut id: SetId, mut level: u32, mut base: u64, w: u32) -> (u64, u64) {
        let mut visited = 1;
        while level > 0 && id != EMPTY {
            let span = Self::span(level);
            let i = ((u64::from(w) - base) / span) as usize;
            visited += 1;
            id = self.inner[id as usize].children[i];
            base += span * i as u64;
            level -= 1;
        }
        let value = if id == EMPTY { 0 } else { self.leaves[id as usize].value };
        (value, visited)
    }

    /// The word holding the `k`th clash of `root` (k below its count): the
    /// word, its value, and the clash's place among those of the word.
    pub(crate) fn nth(&self, root: SetId, mut k: u64) -> (u32, u64, u32) {
        let (mut id, mut level, mut base) = (root, self.depth, 0u64);
        let mut visited = 1;
        while level > 0 {
            let span = Self::span(level);
            let node = &self.inner[id as usize];
            let mut next = None;
            visited += 1;
            for (i, &child) in node.children.iter().enumerate() {
                let c = self.count(child, level - 1);
                if k < c {
                    next = Some((i, child));
                    break;
                }
                k -= c;
            }
            let (i, child) = next.expect("k is below the set's count");
            id = child;
            base += span * i as u64;
            level -= 1;
        }
        self.reads.fetch_add(visited, Relaxed);
        (base as u32, self.leaves[id as usize].value, k as u32)
    }

    /// The `k`th clash of the union of `parts` (sets that share no token
    /// and no segment, so a word's clashes are the sum of the parts'), as
    /// `nth` gives it for one set: the parts walked down together, the
    /// child taken where the parts' counts together pass `k`. Visits at
    /// most `nth_of_cost(parts.len())` nodes, whatever the sets' sizes.
    pub(crate) fn nth_of(&self, parts: &[SetId], mut k: u64) -> (u32, u64, u32) {
        let mut ids: Vec<SetId> = parts.iter().copied().filter(|&p| p != EMPTY).collect();
        let (mut level, mut base) = (self.depth, 0u64);
        let mut visited = 0;
        while level > 0 {
            visited += ids.len() as u64;
            let counts = |i: usize| -> u64 {
                (ids.iter())
                    .map(|&id| self.count(self.inner[id as usize].children[i], level - 1))
                    .sum()
            };
            let mut next = None;
            for i in 0..FAN {
                let c = counts(i);
                if k < c {
                    next = Some(i);
                    break;
                }
                k -= c;
            }
            let i = next.expect("k is below the parts' count");
            ids.retain_mut(|id| {
                *id = self.inner[*id as usize].children[i];
                *id != EMPTY
            });
            base += Self::span(level) * i as u64;
            level -= 1;
        }
        visited += ids.len() as u64;
        self.reads.fetch_add(visited, Relaxed);
        let value = ids.iter().fold(0, |value, &id| value | self.leaves[id as usize].value);
        (base as u32, value, k as u32)
    }

    /// Pushes what each root carries down to every leaf under it, added
    /// up where roots share a node (each root holds a leaf at most once):
    /// a leaf gets what every root whose set holds it carries. Nodes are
    /// made after their children, so in reverse order of making every node
    /// comes after all its parents. With `only`, nodes that hold none of
    /// its leaves get nothing. Reads one child slot per node that gets
    /// something.
    /// What does not fit in a value is kept in `spill`; a node's value is
    /// released once passed on.
    pub(crate) fn push_down<P: Pushed>(
        &self,
        roots: impl IntoIterator<Item = (SetId, P)>,
        only: Option<&Above>,
        spill: &mut P::Spill,
    ) -> Vec<P> {
        let mut leaves: Vec<P> = (0..self.leaves.len()).map(|_| P::default()).collect();
        let mut inner: Vec<P> = (0..self.inner.len()).map(|_| P::default()).collect();
        let wanted = |level: u32, id: SetId| only.is_none_or(|above| above.holds(level, id));
        let mut steps = 0u64;
        for (root, carried) in roots {
            if wanted(self.depth, root) {
                let top = if self.depth == 0 { &mut leaves } else { &mut inner };
                top[root as usize].add(&carried, spill);
            }
        }
        for id in (1..self.inner.len()).rev() {
            let carried = std::mem::take(&mut inner[id]);
            if carried.is_empty() {
                continue;
            }
            let node = &self.inner[id];
            let level = node.level as u32 - 1;
            let below = if level == 0 { &mut leaves } else { &mut inner };
            for &child in node.children.iter().filter(|&&c| c != EMPTY) {
                steps += 1;
                if wanted(level, child) {
                    below[child as usize].add(&carried, spill);
                }
            }
            carried.release(spill);
        }
        // A sum of two leaves hands what it got to both, and keeps nothing.
        for id in (1..self.leaves.len()).rev() {
            let (a, b) = self.leaves[id].sum_of;
            if a == EMPTY || leaves[id].is_empty() {
                continue;
            }
            let carried = std::mem::take(&mut leaves[id]);
            steps += 2;
            for part in [a, b] {
                if wanted(0, part) {
                    leaves[part as usize].add(&carried, spill);
                }
            }
            carried.release(spill);
        }
        self.reads.fetch_add(steps, Relaxed);
        leaves
    }

    /// The nodes that hold one of the leaves `wanted` picks (by id), for
    /// `push_down`. A sum of two leaves holds what its two parts hold.
    pub(crate) fn above(&self, wanted: impl Fn(usize) -> bool) -> Above {
        let mut leaves = vec![false; self.leaves.len()];
        for id in 1..self.leaves.len() {
            let (a, b) = self.leaves[id].sum_of;
            leaves[id] = wanted(id) || (a != EMPTY && (leaves[a as usize] || leaves[b as usize]));
        }
        let mut inner = vec![false; self.inner.len()];
        let mut looked_at = self.leaves.len() as u64;
        for id in 1..self.inner.len() {
            let node = &self.inner[id];
            let below = if node.level == 1 { &leaves } else { &inner };
            let slots = node.children.iter().position(|&c| c != EMPTY && below[c as usize]);
            looked_at += slots.map_or(FAN, |slot| slot + 1) as u64;
            inner[id] = slots.is_some();
        }
        self.reads.fetch_add(looked_at, Relaxed);
        Above { leaves, inner }
    }

    /// Every leaf made: (id, word, value). Leaf `id` is the index
    /// `push_down` answers for.
    pub(crate) fn leaf_words(&self) -> impl Iterator<Item = (usize, u32, u64)> + '_ {
        self.leaves
            .iter()
            .enumerate()
            .skip(1)
            .map(|(id, l)| (id, l.word, l.value))
    }

    /// Nodes made.
    #[cfg(test)]
    fn node_count(&self) -> usize {
        self.leaves.len() + self.inner.len() - 2
    }
}

/// Where two sets meet (see `Sets::contested`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Meeting {
    pub shared_words: u32,
    pub contested: Vec<u32>,
    /// More words are contested than listed (`Sets::contested`).
    pub overflow: bool,
}

impl Meeting {
    /// Lists contested word `w`, or past `most + 1` listed, overflows.
    fn push(&mut self, w: u32, most: usize) {
        if self.contested.len() > most {
            self.overflow = true;
        } else {
            self.contested.push(w);
        }
    }
}

/// How many of a clash's consumers are known from the sets alone: as many
/// as the report formats show.
pub(crate) const FIRSTS: usize = 10;

/// The first few of some consumers, by rank (their place by id).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Firsts {
    ranks: [u32; FIRSTS],
    len: u8,
}

impl Firsts {
    pub(crate) fn as_slice(&self) -> &[u32] {
        &self.ranks[..self.len as usize]
    }

    /// The first of both: they name different consumers.
    pub(crate) fn merge(&mut self, other: &[u32]) {
        if other.is_empty() {
            return;
        }
        let mine = *self;
        self.len = 0;
        merge_first(mine.as_slice(), other, FIRSTS, |rank| {
            self.ranks[self.len as usize] = rank;
            self.len += 1;
        });
    }
}

/// What `Sets::push_down` carries from roots to leaves.
pub(crate) trait Pushed: Default {
    /// Where values keep what does not fit in them, shared by all.
    type Spill;
    fn is_empty(&self) -> bool;
    /// Adds what another root carries here: they name different consumers.
    fn add(&mut self, other: &Self, spill: &mut Self::Spill);
    /// It has been passed on and is not read again: what it keeps in
    /// `spill` may be reused.
    fn release(&self, _spill: &mut Self::Spill) {}
}

/// Ranks `Consumers` keeps in itself; more go to a slot of `Spilled`.
const INLINE: usize = 2;

/// How many consumers a root stands for, and the first `FIRSTS` of them
/// by rank, in 16 bytes: up to two ranks in itself, more in a slot of a
/// `Spilled` only it writes. `push_down` makes one per node of the sets,
/// and most leaves get one or two consumers: ten ranks in each, 56 bytes,
/// were 81 MB of `ring-crowd`'s peak at 1,000 (1.4 million leaves, none
/// with more than one).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Consumers {
    /// At most the consumers listed, whose ranks are u32 too.
    count: u32,
    len: u8,
    /// The ranks while `len <= INLINE`; past that, `[slot, _]`.
    ranks: [u32; INLINE],
}

/// The first ranks of `Consumers` that hold more than `INLINE`, a slot
/// each; a slot released is reused.
#[derive(Default)]
pub(crate) struct Spilled {
    slots: Vec<[u32; FIRSTS]>,
    free: Vec<u32>,
}

impl Consumers {
    /// `count` consumers, the first of them `ranks` (sorted).
    pub(crate) fn of(count: u32, ranks: &[u32], spilled: &mut Spilled) -> Consumers {
        let mut consumers = Consumers {
            count,
            ..Consumers::default()
        };
        consumers.set_firsts(&ranks[..ranks.len().min(FIRSTS)], spilled);
        consumers
    }

    pub(crate) fn count(&self) -> u32 {
        self.count
    }

    pub(crate) fn firsts<'a>(&'a self, spilled: &'a Spilled) -> &'a [u32] {
        let len = self.len as usize;
        if len <= INLINE {
            &self.ranks[..len]
        } else {
            &spilled.slots[self.ranks[0] as usize][..len]
        }
    }

    /// Its first ranks become `ranks`, which hold at least as many: they
    /// only grow, so one that has a slot keeps it.
    fn set_firsts(&mut self, ranks: &[u32], spilled: &mut Spilled) {
        if ranks.len() <= INLINE {
            self.ranks[..ranks.len()].copy_from_slice(ranks);
        } else {
            if self.len as usize <= INLINE {
                self.ranks[0] = match spilled.free.pop() {
                    Some(slot) => slot,
                    None => {
                        spilled.slots.push([0; FIRSTS]);
                        (spilled.slots.len() - 1) as u32
                    }
                };
            }
            spilled.slots[self.ranks[0] as usize][..ranks.len()].copy_from_slice(ranks);
        }
        self.len = ranks.len() as u8;
    }
}

impl Pushed for Consumers {
    type Spill = Spilled;

    fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn add(&mut self, other: &Self, spilled: &mut Spilled) {
        self.count += other.count;
        if other.len == 0 {
            return;
        }
        let (mut merged, mut len) = ([0; FIRSTS], 0);
        merge_first(self.firsts(spilled), other.firsts(spilled), FIRSTS, |rank| {
            merged[len] = rank;
            len += 1;
        });
        self.set_firsts(&merged[..len], spilled);
    }

    fn release(&self, spilled: &mut Spilled) {
        if self.len as usize > INLINE {
            spilled.free.push(self.ranks[0]);
        }
    }
}

/// The first `limit` of some consumers, by rank, in order; `limit` comes
/// with what is added.
#[derive(Debug, Clone, Default)]
pub(crate) struct FirstRanks {
    pub ranks: Vec<u32>,
    pub limit: u32,
}

impl Pushed for FirstRanks {
    type Spill = ();

    fn is_empty(&self) -> bool {
        self.ranks.is_empty()
    }

    fn add(&mut self, other: &Self, _: &mut ()) {
        self.limit = self.limit.max(other.limit);
        let mut merged = Vec::with_capacity((self.ranks.len() + other.ranks.len()).min(self.limit as usize));
        merge_first(&self.ranks, &other.ranks, self.limit as usize, |rank| merged.push(rank));
        self.ranks = merged;
    }
}

/// The first `limit` of two sorted lists of different ranks, in order.
pub(crate) fn merge_first(a: &[u32], b: &[u32], limit: usize, mut put: impl FnMut(u32)) {
    let (mut i, mut j) = (0, 0);
    while i + j < limit && (i < a.len() || j < b.len()) {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            put(a[i]);
            i += 1;
        } else {
            put(b[j]);
            j += 1;
        }
    }
}

/// The nodes of the sets that hold some chosen leaves (see `Sets::above`).
pub(crate) struct Above {
    leaves: Vec<bool>,
    inner: Vec<bool>,
}

impl Above {
    fn holds(&self, level: u32, id: SetId) -> bool {
        if level == 0 {
            self.leaves[id as usize]
        } else {
            self.inner[id as usize]
        }
    }
}

/// What a class holds: one set, or the union of several sets that share
/// no token and no segment, never made (see `build`).
#[derive(Clone)]
pub(crate) enum Held {
    One(SetId),
    Parts(Box<[SetId]>),
}

impl Held {
    pub(crate) fn parts(&self) -> &[SetId] {
        match self {
            Held::One(root) => std::slice::from_ref(root),
            Held::Parts(parts) => parts,
        }
    }

    /// How many clashes it holds.
    pub(crate) fn clashes(&self, sets: &Sets) -> u64 {
        self.parts().iter().map(|&p| sets.clashes(p)).sum()
    }

    /// The value of word `w`: the parts' values never overlap.
    pub(crate) fn value_at(&self, sets: &Sets, w: u32) -> u64 {
        self.parts().iter().fold(0, |value, &p| value | sets.value_at(p, w))
    }

    /// The value of word `w` and how many clashes the words before it
    /// hold: the parts' values never overlap, so theirs combine.
    pub(crate) fn find(&self, sets: &Sets, w: u32) -> (u64, u64) {
        self.parts().iter().fold((0, 0), |(value, before), &p| {
            let (v, b) = sets.find(p, w);
            (value | v, before + b)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain bits: every set bit is a clash.
    struct Bits;

    impl Words for Bits {
        fn union(&mut self, _: u32, a: u64, b: u64) -> u64 {
            a | b
        }
        fn clashes(&self, _: u32, value: u64) -> u32 {
            value.count_ones()
        }
        fn interact(&self, _: u32, a: u64, b: u64) -> bool {
            a & b != 0
        }
    }

    fn set_of(sets: &mut Sets, tokens: &[u32]) -> SetId {
        let mut words: Vec<(u32, u64)> = Vec::new();
        for &t in tokens {
            match words.last_mut() {
                Some((w, v)) if *w == t / 64 => *v |= 1 << (t % 64),
                _ => words.push((t / 64, 1 << (t % 64))),
            }
        }
        sets.of_words(&words, &Bits)
    }

    fn tokens_of(sets: &Sets, root: SetId) -> Vec<u32> {
        (0..sets.clashes(root))
            .map(|k| {
                let (w, value, i) = sets.nth(root, k);
                let mut bits = value;
                for _ in 0..i {
                    bits &= bits - 1;
                }
                w * 64 + bits.trailing_zeros()
            })
            .collect()
    }

    #[test]
    fn unions_hold_every_token_of_both_and_share_what_does_not_change() {
        let mut sets = Sets::new(5_000);
        let a = set_of(&mut sets, &[1, 70, 64 * 300, 64 * 4_999 + 63]);
        let b = set_of(&mut sets, &[2, 70, 64 * 1_000]);
        let ab = sets.union(a, b, &mut Bits);
        assert_eq!(tokens_of(&sets, ab), [1, 2, 70, 64 * 300, 64 * 1_000, 64 * 4_999 + 63]);
        assert_eq!(
            sets.union(ab, a, &mut Bits),
            ab,
            "a subset adds nothing and makes nothing"
        );
        let made = sets.node_count();
        assert_eq!(sets.union(a, ab, &mut Bits), ab);
        assert_eq!(sets.node_count(), made);
        assert_eq!(sets.find(ab, 300), (1, 3), "word 300 holds one token, after three");
        assert_eq!(sets.find(ab, 301), (0, 4));
    }

    /// Pushes `roots` (root, consumers, their first ranks) down; each
    /// leaf's consumers and first ranks by id.
    fn push_consumers(sets: &Sets, roots: &[(SetId, u32, &[u32])]) -> Vec<(u32, Vec<u32>)> {
        let mut spilled = Spilled::default();
        let roots: Vec<(SetId, Consumers)> = (roots.iter())
            .map(|&(root, count, ranks)| (root, Consumers::of(count, ranks, &mut spilled)))
            .collect();
        let at = sets.push_down(roots, None, &mut spilled);
        (at.iter()).map(|c| (c.count(), c.firsts(&spilled).to_vec())).collect()
    }

    fn pushed(weights: &[(u32, Vec<u32>)], id: usize) -> (u32, Vec<u32>) {
        weights[id].clone()
    }

    #[test]
    fn a_single_word_set_is_a_leaf_and_a_union_of_apart_leaves_hands_on_its_weight() {
        let mut sets = Sets::new(1);
        let a = set_of(&mut sets, &[3]);
        let b = set_of(&mut sets, &[5]);
        let ab = sets.union(a, b, &mut Bits);
        assert_eq!(tokens_of(&sets, ab), [3, 5]);
        let weights = push_consumers(&sets, &[(ab, 2, &[7, 8]), (a, 1, &[3])]);
        assert_eq!(
            pushed(&weights, ab as usize),
            (0, vec![]),
            "its tokens are counted where they came from"
        );
        assert_eq!(pushed(&weights, a as usize), (3, vec![3, 7, 8]));
        assert_eq!(pushed(&weights, b as usize), (2, vec![7, 8]));
    }

    #[test]
    fn weights_reach_each_leaf_once_per_root_that_holds_it() {
        let mut sets = Sets::new(1_000);
        let shared = set_of(&mut sets, &[640]);
        let left = set_of(&mut sets, &[0]);
        let right = set_of(&mut sets, &[64 * 999]);
        let l = sets.union(shared, left, &mut Bits);
        let r = sets.union(shared, right, &mut Bits);
        let weights = push_consumers(&sets, &[(l, 3, &[5]), (r, 4, &[2])]);
        let leaf_of = |root: SetId, w: u32| {
            let (value, _) = sets.find(root, w);
            let mut found = sets.leaf_words().filter(|&(_, word, v)| word == w && v == value);
            found.next().map(|(id, _, _)| id).unwrap()
        };
        assert_eq!(
            pushed(&weights, leaf_of(l, 10)),
            (7, vec![2, 5]),
            "both roots hold the shared leaf"
        );
        assert_eq!(pushed(&weights, leaf_of(l, 0)), (3, vec![5]));
        assert_eq!(pushed(&weights, leaf_of(r, 999)), (4, vec![2]));
    }

    #[test]
    fn consumers_past_two_keep_the_first_ten_of_all_roots_that_hold_a_leaf() {
        // Three roots of a shared word, each with several consumers: the
        // shared leaf keeps the first ten of all, as ten ranks in every
        // value did; a leaf of one root keeps that root's.
        let mut sets = Sets::new(1_000);
        let shared = set_of(&mut sets, &[640]);
        let roots: Vec<SetId> = (0..3)
            .map(|i| {
                let own = set_of(&mut sets, &[64 * (100 + i)]);
                sets.union(shared, own, &mut Bits)
            })
            .collect();
        let evens: Vec<u32> = (0..12).map(|r| 2 * r).collect();
        let weights = push_consumers(
            &sets,
            &[(roots[0], 12, &evens), (roots[1], 3, &[1, 3, 5]), (roots[2], 1, &[7])],
        );
        let leaf_at = |w: u32| sets.leaf_words().find(|&(_, word, _)| word == w).unwrap().0;
        assert_eq!(pushed(&weights, leaf_at(10)), (16, vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 10]));
        assert_eq!(pushed(&weights, leaf_at(100)), (12, evens[..FIRSTS].to_vec()));
        assert_eq!(pushed(&weights, leaf_at(101)), (3, vec![1, 3, 5]));
        assert_eq!(pushed(&weights, leaf_at(102)), (1, vec![7]));
    }

    #[test]
    fn first_ranks_reach_only_the_chosen_leaves_and_keep_the_first_of_all_roots() {
        let mut sets = Sets::new(1_000);
        let shared = set_of(&mut sets, &[640]);
        let left = set_of(&mut sets, &[0]);
        let l = sets.union(shared, left, &mut Bits);
        let right = set_of(&mut sets, &[64 * 999]);
        let r = sets.union(shared, right, &mut Bits);
        let shared_leaf = sets.leaf_words().find(|&(_, word, _)| word == 10).unwrap().0;
        let left_leaf = sets.leaf_words().find(|&(_, word, _)| word == 0).unwrap().0;
        let above = sets.above(|id| id == shared_leaf);
        let ranks = |ranks: &[u32]| FirstRanks {
            ranks: ranks.to_vec(),
            limit: 3,
        };
        let at = sets.push_down([(l, ranks(&[1, 4, 9])), (r, ranks(&[2, 3]))], Some(&above), &mut ());
        assert_eq!(at[shared_leaf].ranks, [1, 2, 3], "the first three of both roots");
        assert!(at[left_leaf].ranks.is_empty(), "a leaf not chosen gets nothing");
    }

    /// The steps of finding where two sets meet that share a set of
    /// `words` full words, each with one word of its own; with the meeting.
    fn meeting_of_alike(words: u32, most: usize) -> (u64, Meeting) {
        let mut sets = Sets::new(words + 4);
        let shared: Vec<u32> = (0..words * 64).collect();
        let base = set_of(&mut sets, &shared);
        let own_a = set_of(&mut sets, &[words * 64 + 1]);
        let own_b = set_of(&mut sets, &[words * 64 + 130]);
        let a = sets.union(base, own_a, &mut Bits);
        let b = sets.union(base, own_b, &mut Bits);
        let before = sets.reads.load(Relaxed);
        let meeting = sets.contested(a, b, most, &|_, x, y| x & y != 0);
        (sets.reads.load(Relaxed) - before, meeting)
    }

    #[test]
    fn cmp9_sets_alike_but_for_a_word_each_meet_in_the_words_listed_not_their_size() {
        // L_i and R_i of `diamond-ladder` share B_i's whole set: the shared
        // subtrees are not walked, only as many words listed as a caller
        // can use, so finding where they meet costs no more for twice the
        // words (it cost them all: n x n / 64 for n rungs).
        let (once, meeting) = meeting_of_alike(1_000, 8);
        assert_eq!(meeting.contested, (0..9).collect::<Vec<u32>>());
        assert!(meeting.overflow);
        let (twice, _) = meeting_of_alike(2_000, 8);
        crate::work::assert_at_most_doubles(once, twice, "");
        assert!(twice <= 64, "{twice} steps for 2,000 words alike");
        // Few enough: every shared word listed and counted, as before.
        let (_, small) = meeting_of_alike(6, 8);
        assert_eq!(small.contested, (0..6).collect::<Vec<u32>>());
        assert_eq!(small.shared_words, 6);
        assert!(!small.overflow);
    }
}
