//! CMP-9: what `build`'s joins remember of how a set was made, so that a
//! class can hold a set as the pieces it was made of (issue 20, session
//! 41; sets that meet their input, session 42).
//!
//! A box that adds a few tools of its own to the one input it forwards (a
//! *cover* of another box) has a set of its own in every class it reaches.
//! Many covers of one box would each be a part holding the box's names:
//! more holders than `build`'s `paired` follows, and the class's parts
//! united anew per combination of covers. So a cover's set is remembered
//! as its *box* (the input) and its own set (`Based`), and a class whose
//! parts go to `paired` holds it as those (`Pieces::expanded`): the covers
//! of a box are then held by the box itself, whose meetings are made once.
//! Any class, not only agents (session 41 held them so in agents only):
//! covers reaching agents through a box of their own (`via` in the session
//! 42 attack) were united in that box, once per combination of covers. The
//! classes downstream then join parts where they would have joined one
//! set: on `lattice-renames` with near twins of own tools, 2.46x the
//! work from 250 to 500, then 1.54x and 1.57x to 2,000, where it does
//! 1.18x the work it did when agents alone held covers so.
//!
//! An own set that meets its input (a cover's own tool named like one of
//! the box's) is remembered with the box's tokens of the segments where
//! they meet added to it: the two pieces then hold the cover's tokens
//! exactly, and each clash the cover formed is held whole by its own
//! piece, as it was by the cover. The segments, not the words: 15 covers
//! each taking a whole word of the box would all hold its other names,
//! and crowd them.
//!
//! A set united from a few others is remembered as made of them
//! (`Pieces::made_of`), so that a cover joined to a set that holds its box
//! already adds only its own piece (`Pieces::without_held_inputs`).
//!
//! # Cost model
//!
//! Remembering a cover costs its own set's words (once per class, as its
//! union did), and O(64) per word where it meets its box. A class holds a
//! cover as each level's own set down to `BASED_DEPTH` levels (the own
//! sets of lower covers are shared: a box's own tools, by all its
//! covers), then the rest as its box and the own sets of every level
//! united (`flat`: remembered with each cover, one union of its own set
//! more, O(its words x depth)). So a class pays at most 10 pieces per
//! cover, however deep (session 41 followed a part down 8 covers and
//! left the rest a part of its own: ten deep, 116 million steps at 4,000,
//! 4.1x per doubling).
//!
//! Of two own pieces added to one box, one within the other is left out:
//! looked at for own sets of at most `WITHIN_WORDS` words, among at most
//! `WITHIN_RUN` added to one box, each pair once in the whole check
//! (O(its words x depth)).

use crate::maps::Map;

use super::sets::{SetId, Sets, Words, EMPTY};
use super::tokens::Layout;

/// A set made of a class's own set and the one input it forwards (or, in
/// `Pieces::flat`, of the box at the bottom of a cover of a cover of ...,
/// and the own sets added on the way up, united).
#[derive(Clone, Copy)]
pub(super) struct Based {
    /// The input's set: the box the class covers.
    pub input: SetId,
    /// The own set, with the input's tokens of the segments where the two
    /// meet: `input` ∪ `own` is the set.
    pub own: SetId,
    /// Whether an own set met its input (shared a token or a segment):
    /// then the two pieces are not apart as pieces of one part are.
    pub meets: bool,
}

/// How sets were made, as far as classes may hold them as their pieces.
#[derive(Default)]
pub(super) struct Pieces {
    based: Map<SetId, Based>,
    /// The same sets as the box at the bottom and every own set above it:
    /// what a class holds a cover as past `BASED_DEPTH` levels.
    flat: Map<SetId, Based>,
    /// Sets united from a few others, with them and, as far as
    /// `MADE_OF_MOST` allows, what those were united from: sorted.
    made_of: Map<SetId, Box<[SetId]>>,
    /// Per pair of own sets looked at, whether the first is within the
    /// second.
    within: Map<(SetId, SetId), bool>,
}

/// How many covers deep a part is held as each level's own set: the own
/// sets of lower covers are shared by many (a box's own tools, by all its
/// covers), but a class pays a piece per level. Past this, the rest is
/// held as its box and its own sets united (`Pieces::flat`).
const BASED_DEPTH: usize = 8;

/// The most sets a union is remembered as made of, at every level.
const MADE_OF_MOST: usize = 64;

/// The most words an own set may have to be looked up in another.
const WITHIN_WORDS: u64 = 16;

/// The most own sets added to one box that are looked up in each other: a
/// class's pairs of them, at most this squared, not those of a hub of many
/// boxes each adding tools of its own to one box.
const WITHIN_RUN: usize = 8;

impl Pieces {
    /// Remembers that `set` is `input` ∪ `own`, where `own` is a class's
    /// own set and `input` the one input it forwards, meeting at the words
    /// `met`; when `input` is so made, as its box and its own sets with
    /// `own` added. O(`own`'s words x depth + 64 per word of `met`), once
    /// per class: a cover of a cover of ... is one union more each, not
    /// its covers' own sets again.
    #[allow(clippy::too_many_arguments)]
    pub fn remember_based(
        &mut self,
        sets: &mut Sets,
        layout: &mut Layout,
        set: SetId,
        input: SetId,
        own: SetId,
        met: &[u32],
        probes: &mut u64,
    ) {
        if self.based.contains_key(&set) {
            return;
        }
        let own = if met.is_empty() {
            own
        } else {
            with_input_where_met(sets, layout, input, own, met, probes)
        };
        let based = Based {
            input,
            own,
            meets: !met.is_empty(),
        };
        let flat = match self.flat.get(&input) {
            Some(below) => Based {
                input: below.input,
                own: sets.union(below.own, own, &mut Quiet(layout)),
                meets: based.meets || below.meets,
            },
            None => based,
        };
        // Own sets that took all of the box are the set itself: no pieces
        // to hold it as.
        if own != set && flat.own != set {
            self.based.insert(set, based);
            self.flat.insert(set, flat);
        }
    }

    /// Remembers that `root` was united from `parts`, when they are at
    /// most `MADE_OF_MOST` and `root` is none of them, and what each was
    /// united from, while the whole stays within `MADE_OF_MOST`: a union
    /// of unions holds the boxes of the first (a base of a base).
    /// O(`MADE_OF_MOST`).
    pub fn remember_made_of(&mut self, root: SetId, parts: impl ExactSizeIterator<Item = SetId>) {
        if parts.len() > MADE_OF_MOST || self.made_of.contains_key(&root) {
            return;
        }
        let mut made_of: Vec<SetId> = parts.collect();
        for at in 0..made_of.len() {
            let below = self.made_of.get(&made_of[at]).map_or(&[][..], |m| &m[..]);
            if made_of.len() + below.len() <= MADE_OF_MOST {
                made_of.extend_from_slice(below);
            }
        }
        made_of.sort_unstable();
        made_of.dedup();
        if made_of.binary_search(&root).is_err() {
            self.made_of.insert(root, made_of.into());
        }
    }

    /// Whether `set` is remembered as a box and an own set.
    pub fn is_based(&self, set: SetId) -> bool {
        self.based.contains_key(&set)
    }

    /// The covers `part` is made of, outermost first, down to its box (the
    /// last one's input): `BASED_DEPTH` levels, then the rest as one.
    pub fn down(&self, part: SetId) -> impl Iterator<Item = Based> + '_ {
        let mut at = part;
        (0..=BASED_DEPTH).map_while(move |level| {
            let of = if level < BASED_DEPTH { &self.based } else { &self.flat };
            let based = *of.get(&at)?;
            at = based.input;
            Some(based)
        })
    }

    /// `parts` (each with the input it comes from) with each cover held as
    /// its box and the own sets added on the way down to it (`down`); None
    /// when no part is a cover. Of two own sets added to one box, one
    /// within the other (a box and its cover, both wired to the class) is
    /// left out. An own piece that meets its box gets an input of its own
    /// (`fresh_from`, counting down), so that it is not taken to be apart
    /// from the box.
    pub fn expanded(
        &mut self,
        sets: &Sets,
        layout: &Layout,
        parts: &[(SetId, usize)],
        probes: &mut u64,
    ) -> Option<Vec<(SetId, usize)>> {
        if !parts.iter().any(|p| self.is_based(p.0)) {
            return None;
        }
        let mut expanded = Vec::with_capacity(parts.len() + 4);
        // (box, own set added to it, where it is in `expanded`).
        let mut owns: Vec<(SetId, SetId, usize)> = Vec::new();
        let mut fresh_from = usize::MAX;
        for &(p, from) in parts {
            let mut at = p;
            for based in self.down(p) {
                *probes += 1;
                owns.push((based.input, based.own, expanded.len()));
                let own_from = if based.meets {
                    fresh_from -= 1;
                    fresh_from
                } else {
                    from
                };
                expanded.push((based.own, own_from));
                at = based.input;
            }
            *probes += 1;
            expanded.push((at, from));
        }
        // By box, then largest own set first: each own set is looked up in
        // those kept before it.
        owns.sort_unstable_by_key(|&(input, own, _)| (input, std::cmp::Reverse(sets.words(own)), own));
        let mut left_out = Vec::new();
        let looked_at = |run: &&[(SetId, SetId, usize)]| (2..=WITHIN_RUN).contains(&run.len());
        for run in owns.chunk_by(|a, b| a.0 == b.0).filter(looked_at) {
            let mut kept: Vec<SetId> = Vec::new();
            for &(_, own, at) in run {
                let small = sets.words(own) <= WITHIN_WORDS;
                if small
                    && kept
                        .iter()
                        .any(|&wider| own == wider || self.within(sets, layout, own, wider, probes))
                {
                    left_out.push(at);
                } else {
                    kept.push(own);
                }
            }
        }
        for at in left_out {
            expanded[at].0 = EMPTY;
        }
        expanded.retain(|p| p.0 != EMPTY);
        expanded.sort_unstable();
        expanded.dedup_by_key(|p| p.0);
        Some(expanded)
    }

    /// Replaces each cover among `parts` that comes from an input by its
    /// own piece, where a part that is not a cover holds its box: it is
    /// the box, or was united from it or from a cover of it (`made_of`, at
    /// every level kept). Agents each wired to the boxes of a base united
    /// once and to a cover of one of them then add the cover's own tools
    /// to the base, not the cover, whose union with the base was as large
    /// as the box. Returns whether any part was replaced. O(parts x
    /// `MADE_OF_MOST`).
    pub fn without_held_inputs(&self, parts: &mut [(SetId, usize)], probes: &mut u64) -> bool {
        if !parts.iter().any(|&(p, from)| from != 0 && self.is_based(p)) {
            return false;
        }
        let mut held: Vec<SetId> = Vec::new();
        for &(q, _) in parts.iter().filter(|p| !self.is_based(p.0)) {
            held.push(q);
            for &m in self.made_of.get(&q).map_or(&[][..], |m| &m[..]) {
                held.push(m);
                held.extend(self.based.get(&m).map(|b| b.input));
            }
        }
        *probes += (parts.len() + held.len()) as u64;
        held.sort_unstable();
        let mut replaced = false;
        for (p, from) in parts.iter_mut() {
            let Some(based) = self.based.get(p) else {
                continue;
            };
            if *from != 0 && held.binary_search(&based.input).is_ok() {
                *p = based.own;
                replaced = true;
            }
        }
        replaced
    }

    /// Whether every token of `set` is in `wider`: O(`set`'s words x
    /// depth), once per pair in the whole check.
    fn within(&mut self, sets: &Sets, layout: &Layout, set: SetId, wider: SetId, probes: &mut u64) -> bool {
        if let Some(&answer) = self.within.get(&(set, wider)) {
            return answer;
        }
        let mut words = Vec::new();
        sets.words_of(set, &mut words);
        *probes += words.len() as u64;
        let answer = words
            .iter()
            .all(|&(w, v)| layout.within_at(w, v, sets.value_at(wider, w)));
        self.within.insert((set, wider), answer);
        answer
    }
}

/// `own` with `input`'s tokens of each segment `own` holds tokens of at the
/// words `met` (where the two meet) added.
fn with_input_where_met(
    sets: &mut Sets,
    layout: &mut Layout,
    input: SetId,
    own: SetId,
    met: &[u32],
    probes: &mut u64,
) -> SetId {
    let mut words = Vec::new();
    sets.words_of(own, &mut words);
    *probes += words.len() as u64;
    let mut masks = Vec::new();
    for (word, value) in words.iter_mut() {
        if met.binary_search(word).is_err() {
            continue;
        }
        *probes += 1;
        let theirs = sets.value_at(input, *word);
        masks.clear();
        // A giant's word is one segment: all of the input's there.
        let taken = if layout.held_segments(*word, *value, &mut masks) {
            theirs & masks.iter().fold(0, |all, m| all | m)
        } else {
            theirs
        };
        if taken != 0 {
            *value = layout.combined(*word, *value, taken);
        }
    }
    sets.of_words(&words, layout)
}

/// The layout's meaning of words, without telling what a union forms:
/// for sets made aside from the unions of the class being joined, whose
/// events say what formed in it.
struct Quiet<'a>(&'a mut Layout);

impl Words for Quiet<'_> {
    fn union(&mut self, word: u32, a: u64, b: u64) -> u64 {
        self.0.combined(word, a, b)
    }

    fn clashes(&self, word: u32, value: u64) -> u32 {
        self.0.clashes(word, value)
    }

    fn interact(&self, word: u32, a: u64, b: u64) -> bool {
        self.0.interact_at(word, a, b)
    }
}
