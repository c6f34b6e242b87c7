//! Tokens: what the sets of `sets` hold, and which clashes they make.
//!
//! Every final name (see `flow`) becomes tokens in one of two ways:
//!
//! - **Settled**: its leaves all enter at one class, or only at classes
//!   that forward nothing. Then where its leaves meet is known at once:
//!   at each such class, the leaves entering there, if two or more, are a
//!   *formed* clash, one token, held by that class and every class
//!   downstream of it, and never joined by another leaf of its name. Most
//!   clashes are of this kind (a toolbox with two tools of one name; tools
//!   wired straight into their agent), and however many names a box holds,
//!   they travel as tokens of one word per 64 of them.
//! - **Roaming**: its leaves enter at several classes, some of which
//!   forward. Its leaves are grouped by the classes they enter at (leaves
//!   that enter at the same classes travel together), one token per
//!   group, and the name's tokens are a *segment*: at a class, the name
//!   clashes when the tokens it holds of the segment stand for two leaves
//!   or more.
//!
//! Tokens are laid out in name order, a segment never across two words, so
//! a set's clashes in word order are its clashes by name, the order of a
//! report. A roaming name of more than 64 groups (a *giant*) takes one word
//! whose value is an id standing for the groups held (`Contents`), made
//! unique by hashing, so a union of two of them costs the giant's size once
//! per new combination.

use std::collections::BTreeSet;

use crate::graph::NodeIx;
use crate::maps::{new_map, Map};
use crate::names::{CandidateNames, NameIx};

use super::flow::{ClassIx, Flow};
use super::giants::{alone_marks, ContentId, Giants};
use super::sets::Words;

/// A name's tokens in one word (small) or one giant word.
pub(crate) struct Segment {
    pub name: NameIx,
    /// The first bit of a small segment in its word; unused for a giant.
    pub shift: u32,
    /// Tokens: `first_token..first_token + tokens`.
    pub first_token: u32,
    pub tokens: u32,
    /// Of a small segment: the tokens that alone stand for two leaves or
    /// more (a formed clash, or a group of several), as bits from bit 0.
    pub alone: u64,
    /// The giant's number (see `giants`), for a giant segment.
    pub giant: Option<u32>,
}

enum Word {
    /// Segments `first..first + count` of `Layout::segments`, by bit. When
    /// `singles`, each segment is one token at bit `i` standing for a clash
    /// alone, so the word's clashes are its set bits.
    Bits { first: u32, count: u32, singles: bool },
    /// One giant segment.
    Giant(u32),
}

/// Where every token is, and what each stands for.
pub(crate) struct Layout {
    words: Vec<Word>,
    pub segments: Vec<Segment>,
    /// Per token, its leaves: `leaves[token_starts[t]..token_starts[t + 1]]`.
    token_starts: Vec<u32>,
    leaves: Vec<NodeIx>,
    giants: Giants,
    /// Per class, its own tokens as set words: (word, value), by word.
    pub own_words: Vec<Vec<(u32, u64)>>,
    /// Per class, whether a roaming name enters there. The own tokens of a
    /// class where none does are clashes formed there and held as own by
    /// no other class: two such sets of two classes share nothing.
    pub roams: Vec<bool>,
    /// Every leaf's tokens: (leaf, word, slot), by leaf (sorted once laid
    /// out), the slot a bit of a word or a giant's group.
    tokens_of_leaves: Vec<(NodeIx, u32, u32)>,
    /// What unions found, in order: (word, segment, tokens, formed), where
    /// `formed` is a clash neither operand held, and not formed a clash the
    /// first operand (an input) held whole. Where a clash forms is read off
    /// these (see `build`).
    pub events: Vec<(u32, u32, u64, bool)>,
    /// The words where something formed in the class being made: only
    /// there do later unions say which input holds what.
    pub watched: BTreeSet<u32>,
    /// Steps taken, for the work counters.
    pub steps: u64,
}

impl Layout {
    pub fn word_count(&self) -> u32 {
        self.words.len() as u32
    }

    /// No tokens.
    pub fn empty() -> Layout {
        Layout {
            words: Vec::new(),
            segments: Vec::new(),
            token_starts: vec![0],
            leaves: Vec::new(),
            giants: Giants::default(),
            own_words: Vec::new(),
            roams: Vec::new(),
            tokens_of_leaves: Vec::new(),
            events: Vec::new(),
            watched: BTreeSet::new(),
            steps: 0,
        }
    }

    /// Lays out the tokens of every final name of `flow`.
    pub fn of(names: &CandidateNames, flow: &Flow) -> Layout {
        let mut steps = 0u64;
        // Per final leaf, the classes it enters at: (leaf, class), by leaf
        // (a counting sort over node numbers; classes come in order).
        let pairs: usize = flow.classes.iter().map(|c| c.own.len()).sum();
        let mut starts = vec![0u32; flow.leaf_name.len() + 1];
        for class in &flow.classes {
            for &leaf in class.own.iter() {
                starts[leaf as usize + 1] += 1;
            }
        }
        for i in 0..flow.leaf_name.len() {
            starts[i + 1] += starts[i];
        }
        let mut entries: Vec<(NodeIx, ClassIx)> = vec![(0, 0); pairs];
        let mut fill = starts.clone();
        for (c, class) in flow.classes.iter().enumerate() {
            for &leaf in class.own.iter() {
                entries[fill[leaf as usize] as usize] = (leaf, c as ClassIx);
                fill[leaf as usize] += 1;
            }
        }
        drop(fill);
        steps += 2 * pairs as u64;
        let entries_of = |leaf: NodeIx| -> &[(NodeIx, ClassIx)] {
            &entries[starts[leaf as usize] as usize..starts[leaf as usize + 1] as usize]
        };
        // Final leaves by name, names in the order of a report: names are
        // ranked once, so that leaves are sorted by numbers.
        let mut by_name: Vec<(NameIx, NodeIx)> = (entries.chunk_by(|a, b| a.0 == b.0))
            .map(|run| (flow.leaf_name[run[0].0 as usize], run[0].0))
            .collect();
        let mut ranked: Vec<NameIx> = by_name.iter().map(|&(name, _)| name).collect();
        ranked.sort_unstable();
        ranked.dedup();
        ranked.sort_unstable_by(|&a, &b| names.name(a).cmp(names.name(b)));
        let mut rank_of: Map<NameIx, u32> = new_map();
        for (rank, &name) in ranked.iter().enumerate() {
            rank_of.insert(name, rank as u32);
        }
        for entry in &mut by_name {
            entry.0 = rank_of[&entry.0];
        }
        by_name.sort_unstable();
        for entry in &mut by_name {
            entry.0 = ranked[entry.0 as usize];
        }
        steps += by_name.len() as u64;

        let mut layout = Layout {
            own_words: vec![Vec::new(); flow.classes.len()],
            roams: vec![false; flow.classes.len()],
            ..Layout::empty()
        };
        // Per class: its tokens, as (word, bit or giant group).
        let mut own_tokens: Vec<(ClassIx, u32, u32)> = Vec::new();
        let mut used = 64u32; // bits used in the last word: none yet
                              // A name's leaves, and (class, leaf) for every class a leaf of the
                              // name enters at; then a token's leaves: buffers kept from name to
                              // name (most names are a pair of tools, placed in a few steps).
        let (mut leaves, mut at, mut here) = (Vec::new(), Vec::new(), Vec::new());
        for run in by_name.chunk_by(|a, b| a.0 == b.0) {
            let name = run[0].0;
            leaves.clear();
            leaves.extend(run.iter().map(|&(_, leaf)| leaf));
            at.clear();
            at.extend((leaves.iter()).flat_map(|&leaf| entries_of(leaf).iter().map(move |e| (e.1, leaf))));
            at.sort_unstable();
            steps += at.len() as u64;
            let mut entered = at.chunk_by(|a: &(ClassIx, NodeIx), b| a.0 == b.0).map(|run| run[0].0);
            let (first, second) = (entered.next(), entered.next());
            let settled = second.is_none()
                || (first.into_iter().chain(second).chain(entered)).all(|c| !flow.classes[c as usize].forwards);
            if settled {
                // Each formed clash is a segment of one token: at most one
                // of them is held anywhere.
                for run in at.chunk_by(|a, b| a.0 == b.0).filter(|run| run.len() >= 2) {
                    here.clear();
                    here.extend(run.iter().map(|&(_, leaf)| leaf));
                    layout.place(name, &[([run[0].0], &here[..])], &mut used, &mut own_tokens);
                }
                continue;
            }
            // (the classes it is held at, its leaves)
            let tokens: Vec<(Vec<ClassIx>, Vec<NodeIx>)> = {
                // Leaves sorted by the classes they enter at: each run is a
                // group, then groups by their first leaf.
                let mut by_entries: Vec<(&[(NodeIx, ClassIx)], NodeIx)> =
                    leaves.iter().map(|&leaf| (entries_of(leaf), leaf)).collect();
                by_entries.sort_unstable_by(|a, b| {
                    (a.0.iter().map(|e| e.1))
                        .cmp(b.0.iter().map(|e| e.1))
                        .then(a.1.cmp(&b.1))
                });
                steps += by_entries.len() as u64;
                let same = |a: &(&[(NodeIx, ClassIx)], NodeIx), b: &(&[(NodeIx, ClassIx)], NodeIx)| {
                    a.0.iter().map(|e| e.1).eq(b.0.iter().map(|e| e.1))
                };
                let mut groups: Vec<(Vec<ClassIx>, Vec<NodeIx>)> = (by_entries.chunk_by(same))
                    .map(|run| {
                        (
                            run[0].0.iter().map(|e| e.1).collect(),
                            run.iter().map(|r| r.1).collect(),
                        )
                    })
                    .collect();
                groups.sort_unstable_by(|a, b| a.1[0].cmp(&b.1[0]));
                groups
            };
            for (at, _) in &tokens {
                for &c in at {
                    layout.roams[c as usize] = true;
                }
            }
            layout.place(name, &tokens, &mut used, &mut own_tokens);
        }
        // Each class's own words.
        own_tokens.sort_unstable();
        steps += own_tokens.len() as u64;
        for run in own_tokens.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1) {
            let (class, word) = (run[0].0, run[0].1);
            let value = match layout.words[word as usize] {
                Word::Bits { .. } => run.iter().fold(0u64, |v, &(_, _, bit)| v | 1 << bit),
                Word::Giant(segment) => {
                    let g = layout.segments[segment as usize]
                        .giant
                        .expect("a giant word's segment is a giant");
                    let groups: Vec<u32> = run.iter().map(|&(_, _, i)| i).collect();
                    u64::from(layout.giants.of_groups(g, &groups)) + 1
                }
            };
            layout.own_words[class as usize].push((word, value));
        }
        layout.tokens_of_leaves.sort_unstable();
        layout.steps += steps + layout.tokens_of_leaves.len() as u64;
        layout
    }

    /// Places a name's tokens as one segment (small or giant), noting each
    /// token's leaves and the classes that hold it.
    fn place<A: AsRef<[ClassIx]>, L: AsRef<[NodeIx]>>(
        &mut self,
        name: NameIx,
        tokens: &[(A, L)],
        used: &mut u32,
        own_tokens: &mut Vec<(ClassIx, u32, u32)>,
    ) {
        let count = tokens.len() as u32;
        let giant = count > 64;
        if giant || *used + count > 64 {
            self.words.push(Word::Bits {
                first: self.segments.len() as u32,
                count: 0,
                singles: true,
            });
            *used = 0;
        }
        let word = (self.words.len() - 1) as u32;
        let segment = self.segments.len() as u32;
        let first_token = (self.token_starts.len() - 1) as u32;
        for (i, (at, leaves)) in tokens.iter().enumerate() {
            let (at, leaves) = (at.as_ref(), leaves.as_ref());
            self.steps += (at.len() + leaves.len()) as u64;
            self.leaves.extend_from_slice(leaves);
            self.token_starts.push(self.leaves.len() as u32);
            let slot = if giant { i as u32 } else { *used + i as u32 };
            own_tokens.extend(at.iter().map(|&c| (c, word, slot)));
            self.tokens_of_leaves
                .extend(leaves.iter().map(|&leaf| (leaf, word, slot)));
        }
        let alone = alone_marks(
            tokens.len(),
            (tokens.iter().enumerate())
                .filter(|(_, t)| t.1.as_ref().len() >= 2)
                .map(|(i, _)| i),
        );
        self.segments.push(Segment {
            name,
            shift: if giant { 0 } else { *used },
            first_token,
            tokens: count,
            alone: if giant { 0 } else { alone[0] },
            giant: giant.then(|| self.giants.add(alone)),
        });
        if giant {
            self.words[word as usize] = Word::Giant(segment);
            *used = 64; // the next segment starts a word of its own
        } else {
            if let Word::Bits {
                count: segments,
                singles,
                ..
            } = &mut self.words[word as usize]
            {
                *segments += 1;
                *singles &= count == 1;
            }
            *used += count;
        }
    }

    fn segments_of(&self, word: u32) -> std::ops::Range<usize> {
        match self.words[word as usize] {
            Word::Bits { first, count, .. } => first as usize..(first + count) as usize,
            Word::Giant(segment) => segment as usize..segment as usize + 1,
        }
    }

    /// The tokens segment `s` holds in value `value` of its word, as bits
    /// from bit 0 (a small segment), or the giant's content id.
    pub fn held(&self, s: usize, value: u64) -> u64 {
        let seg = &self.segments[s];
        if seg.giant.is_some() {
            value.saturating_sub(1)
        } else if seg.tokens == 64 {
            value
        } else {
            (value >> seg.shift) & ((1u64 << seg.tokens) - 1)
        }
    }

    /// Whether segment `s` clashes when it holds `held` (see `held`).
    pub fn clashes_with(&self, s: usize, held: u64) -> bool {
        let seg = &self.segments[s];
        if let Some(g) = seg.giant {
            self.giants.clash(g, held as ContentId)
        } else {
            held.count_ones() >= 2 || held & seg.alone != 0
        }
    }

    /// The clashing segments of `value` of `word`, in order, each with what
    /// it holds: the clashes of a set's word, by name.
    pub fn clashes_in(&self, word: u32, value: u64) -> impl Iterator<Item = (usize, u64)> + '_ {
        let (singles, all) = match self.words[word as usize] {
            Word::Bits {
                first, singles: true, ..
            } => (Some(ones(value).map(move |b| (first as usize + b as usize, 1))), None),
            _ => (None, Some(self.segments_of(word))),
        };
        let all = all.into_iter().flatten().map(move |s| (s, self.held(s, value)));
        singles
            .into_iter()
            .flatten()
            .chain(all.filter(move |&(s, held)| held != 0 && self.clashes_with(s, held)))
    }

    /// Whether values `a` and `b` of `word` may not be held as parts of
    /// one class: they share a token, or a segment holds tokens of both
    /// (their union could make a clash neither holds).
    pub fn interact_at(&self, word: u32, a: u64, b: u64) -> bool {
        match self.words[word as usize] {
            Word::Bits { singles: true, .. } => a & b != 0,
            Word::Bits { .. } => {
                a & b != 0 || (self.segments_of(word)).any(|s| self.held(s, a) != 0 && self.held(s, b) != 0)
            }
            Word::Giant(_) => true,
        }
    }

    /// Whether value `a` of `word` holds no token value `b` does not. A
    /// giant's values are ids of contents, made unique: only the same id
    /// is known to be within (false otherwise, which only costs a part).
    pub fn within_at(&self, word: u32, a: u64, b: u64) -> bool {
        match self.words[word as usize] {
            Word::Bits { .. } => a & b == a,
            Word::Giant(_) => a == b,
        }
    }

    /// The bits of each segment of `word` that `value` holds tokens of,
    /// one mask per segment (per token for a word of singles: each is a
    /// segment of its own), in `out`; false for a giant's word (its value
    /// is an id: no bits to split). One look at a word, as
    /// `shared_segments` is.
    pub fn held_segments(&self, word: u32, value: u64, out: &mut Vec<u64>) -> bool {
        match self.words[word as usize] {
            Word::Bits { singles: true, .. } => out.extend(ones(value).map(|b| 1u64 << b)),
            Word::Bits { .. } => {
                for s in self.segments_of(word) {
                    if self.held(s, value) != 0 {
                        let seg = &self.segments[s];
                        out.push(match seg.tokens {
                            64 => u64::MAX,
                            t => ((1u64 << t) - 1) << seg.shift,
                        });
                    }
                }
            }
            Word::Giant(_) => return false,
        }
        true
    }

    /// Values `a` and `b` of `word` combined, nothing said of what forms
    /// (see `Words::union`): their bits, or a giant's contents united.
    pub fn combined(&mut self, word: u32, a: u64, b: u64) -> u64 {
        match self.words[word as usize] {
            Word::Bits { .. } => a | b,
            Word::Giant(segment) => {
                let g = self.segments[segment as usize]
                    .giant
                    .expect("a giant word's segment is a giant");
                let before = self.giants.steps;
                let id = self.giants.union(g, (a - 1) as ContentId, (b - 1) as ContentId);
                self.steps += self.giants.steps - before;
                u64::from(id) + 1
            }
        }
    }

    /// Whether a set whose word values `value_at` gives holds a token of
    /// `leaf` (whether the leaf reaches the set's class).
    pub fn holds_leaf(&self, leaf: NodeIx, value_at: impl Fn(u32) -> u64) -> bool {
        let start = self.tokens_of_leaves.partition_point(|t| t.0 < leaf);
        (self.tokens_of_leaves[start..].iter())
            .take_while(|t| t.0 == leaf)
            .any(|&(_, word, slot)| {
                let value = value_at(word);
                match self.words[word as usize] {
                    _ if value == 0 => false,
                    Word::Bits { .. } => value >> slot & 1 != 0,
                    Word::Giant(segment) => {
                        let g = self.segments[segment as usize]
                            .giant
                            .expect("a giant word's segment is a giant");
                        self.giants.contains(g, (value - 1) as ContentId, slot)
                    }
                }
            })
    }

    /// The leaves segment `s` stands for when it holds `held`, sorted by
    /// node number.
    pub fn leaves_of(&self, s: usize, held: u64) -> Vec<NodeIx> {
        let seg = &self.segments[s];
        let mut leaves: Vec<NodeIx> = Vec::new();
        let add = |t: u32| {
            let t = (seg.first_token + t) as usize;
            leaves.extend_from_slice(&self.leaves[self.token_starts[t] as usize..self.token_starts[t + 1] as usize]);
        };
        // A small segment's tokens read off its bits, with no list made.
        match seg.giant {
            Some(g) => self.giants.groups(g, held as ContentId).into_iter().for_each(add),
            None => ones(held).for_each(add),
        }
        leaves.sort_unstable();
        leaves.dedup();
        leaves
    }
}

/// The set bits of `bits`, lowest first.
fn ones(mut bits: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            b
        })
    })
}

impl Words for Layout {
    /// `a` is what an input adds, `b` what the class holds so far: a clash
    /// that neither holds whole forms here; one that `a` holds whole is an
    /// input's (see `events`).
    fn union(&mut self, word: u32, a: u64, b: u64) -> u64 {
        let value = self.combined(word, a, b);
        let formed = value != a && value != b;
        if formed || self.watched.contains(&word) {
            // Said straight into `events` (taken out while the word's
            // clashes are read): no list made per union.
            let mut events = std::mem::take(&mut self.events);
            let before = events.len();
            match self.words[word as usize] {
                // Each bit a clash alone (a box's clashing pairs): a bit of
                // the union is one of `a`'s or of `b`'s, so nothing forms,
                // and what `a` holds, `a` holds whole: its bits, in order,
                // as the general case below says them.
                Word::Bits {
                    first, singles: true, ..
                } => events.extend(ones(a).map(|b| (word, first + b, 1, false))),
                _ => events.extend(self.clashes_in(word, value).filter_map(|(s, held)| {
                    let (by_a, by_b) = (held == self.held(s, a), held == self.held(s, b));
                    if !by_a && !by_b {
                        Some((word, s as u32, held, true))
                    } else {
                        by_a.then_some((word, s as u32, held, false))
                    }
                })),
            }
            if events[before..].iter().any(|e| e.3) {
                self.watched.insert(word);
            }
            self.events = events;
        }
        value
    }

    fn interact(&self, word: u32, a: u64, b: u64) -> bool {
        self.interact_at(word, a, b)
    }

    /// The words watched among `lo..hi` get, for each clash they hold, the
    /// event that an input holds it whole, as `union` would have said; then
    /// they are watched no more: whatever formed there is settled, until a
    /// union forms something there again. So each word is told once per
    /// time something forms there, however many skipped operands hold it
    /// (many inputs equal there would otherwise each tell every word).
    fn held_whole(&mut self, lo: u64, hi: u64, value_of: &dyn Fn(u32) -> u64) {
        if self.watched.is_empty() || lo > u64::from(u32::MAX) {
            return;
        }
        let hi = hi.min(u64::from(u32::MAX) + 1);
        let words: Vec<u32> = self
            .watched
            .range(lo as u32..)
            .take_while(|&&w| u64::from(w) < hi)
            .copied()
            .collect();
        for word in words {
            self.steps += 1;
            self.watched.remove(&word);
            let value = value_of(word);
            if value == 0 {
                continue;
            }
            let mut events = std::mem::take(&mut self.events);
            let before = events.len();
            events.extend((self.clashes_in(word, value)).map(|(s, held)| (word, s as u32, held, false)));
            self.steps += (events.len() - before) as u64;
            self.events = events;
        }
    }

    fn clashes(&self, word: u32, value: u64) -> u32 {
        match self.words[word as usize] {
            Word::Bits { singles: true, .. } => value.count_ones(),
            _ => self.clashes_in(word, value).count() as u32,
        }
    }
}
