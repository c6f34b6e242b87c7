//! Making a workflow's CMP-9 findings: the reduction (`flow`), the tokens
//! (`tokens`), one union per class input in topological order (`sets`),
//! then each distinct clash with its consumers counted, in one pass over
//! the sets' leaves that consumers see, a word at a time.
//!
//! # Joining inputs held as parts
//!
//! Where a class's parts meet (`meeting_words`) is found without walking
//! what cannot meet: sets that are classes' own tokens where no roaming name
//! enters share nothing (*known apart*), so only pairs with another part
//! are compared, each pair once in the whole check; when all parts but the
//! largest are small, their words are looked up in it; when its first
//! inputs are a shared base held as parts (`join_keyed`), the base's walk
//! is made once and kept, and each class walks only its other inputs'
//! words, as it would add them to a base held as one set. Only a class
//! with more than `PAIRS_LOOKED_AT` pairs not known apart, of parts not
//! small, and no such base walks every word of its parts, once per
//! distinct combination of inputs. A shared base held as parts whose
//! classes' parts must be united all the same (they meet in every word,
//! by a name too crowded to follow) is united once, as a combination of
//! its own (`united_base`), and each class joins its other inputs to
//! that, as to a base held as one set: agents each wired to the same
//! three big boxes and a box of their own no longer unite the three
//! each. A contested word counts once per part
//! that holds it and meets the parts before it there (what combining it
//! costs), never once per pair of parts, and is combined over, and taken
//! out of, only the parts that hold it (`join`). So joining a class costs
//! O(parts + pairs not known apart (at most 64) + its own inputs' words
//! past a shared base + the words where parts meet (at most 4 per part)),
//! and each shared base's words once; plus, for the last kind, its parts'
//! words: that is what is left of the worst case (many classes each
//! combining, differently, many big inputs that are not boxes of their own
//! tokens).
//!
//! # Parts that meet in every word: holders' meetings
//!
//! When parts meet at too many words to carve them out (boxes whose
//! neighbours share a name in every word, each agent wired to a different
//! 8 of 16: `ring-parts`, session 27; names held by three neighbours, 12
//! or 18 boxes per agent: session 28), a class of no own tokens is held by
//! segment instead (`paired`). A segment's clashes at a class depend only
//! on which of the class's parts hold it, so segments are grouped by their
//! *holders* (the parts, of all those walked, that hold tokens of them:
//! each part walked once in the whole check, O(its words), `Holders`). Per
//! holder set two or more of the class's parts are in, their *meeting*
//! (those parts' tokens of its segments, united), and per part its *rest*
//! (the part without its meetings' segments). A meeting is a function of
//! the holder set (as it stands) and the class's parts in it, made once in
//! the whole check: O(its segments x those parts x depth). A rest is a
//! function of the part and the meetings taken from it, made once per
//! such combination: O(their words x depth). A class then pays a lookup
//! per holder set each of its parts but the one in most is in (O(parts)
//! for ring shapes, however many parts), whatever its parts hold, and the
//! clashes its meetings form are told once per meeting (classes with own
//! tokens look up those not yet known to form in two classes: at most two
//! each, plus one per own token that grew one). A class with own tokens
//! that meet such inputs at many words carves each own word out of the
//! parts holding it: O(own words x parts x depth), never their union.
//!
//! A box that adds a few tools of its own to the one input it forwards
//! (a cover of another box) would be a part of its own in every class it
//! reaches, and many covers of one box would all hold its names: too many
//! holders to follow. So a set made of a class's own set and its one input
//! is remembered as those two, and a class holds it as them: the
//! covers of a box are held by the box, whose meetings are made once
//! (`pieces`). A set united from a few others is remembered as made of
//! them, so that a cover added to it, when it holds the cover's input
//! already, adds only its own tools.
//!
//! What is left: parts in many holder sets at many classes (each class
//! looks up all of them), many distinct holder sets or class parts in them
//! (each meeting made once, O(its segments)), two parts holding one
//! segment of more than `HOLDERS_MOST` holders, two parts holding one
//! node of the sets (looked at while a class has at most
//! `PAIRS_LOOKED_AT` pairs), and classes of more than 4 x `HOLDERS_MOST`
//! parts: those classes unite their parts, as before.
//!
//! One module, though long: the joining of a class's inputs (`SharedBases`,
//! `join_keyed`, `join`) exists only for the loop in `collisions`, which
//! tallies what each join said formed and settles what the next class with the
//! same inputs is told again (`tally`, `Inner::settle`). Split, the loop's
//! bookkeeping would be kept in one file and relied on in the other.

use crate::graph::{NodeIx, ToolGraph};
use crate::maps::{new_map, Map};
use crate::names::CandidateNames;

use crate::budget::Interrupt;
use crate::work::{Step, Work};

use super::covered;
use super::flow::{ClassIx, Finals, Flow, NONE};
use super::paths::Paths;
use super::pieces::Pieces;
use super::sets::{Consumers, Firsts, Held, Meeting, Pushed, SetId, Sets, Spilled, Words, EMPTY, FIRSTS};
use super::tokens::Layout;
use super::twins;
use super::upstream;
use super::{Clashes, Collisions, NewClash};

/// Classes whose sets are made between two looks at the interrupt.
const CLASSES_PER_LOOK: usize = 4096;

/// The findings of `g`, or only the work done when nothing clashes (or
/// the check was interrupted: its findings are discarded anyway).
pub(crate) fn collisions<'a>(
    mut g: ToolGraph<'a>,
    names: CandidateNames,
    consumers_by_id: &[NodeIx],
    interrupt: Interrupt<'_>,
    work: Work,
) -> Result<Collisions<'a>, Work> {
    // Edges read outside the reduction: self-loops and twins cut out.
    let mut cut_steps = g.drop_passthrough_self_loops() as u64;
    let Some(finals) = Finals::of(&g, &names) else {
        work.add(Step::Edge, cut_steps);
        return Err(work);
    };
    let twin_cut = twins::vanishing(&g, &finals, &mut cut_steps);
    let flow = Flow::of(&g, finals, twin_cut.as_ref());
    if let Some(cut) = &twin_cut {
        twins::cut_out(&mut g, cut, &mut cut_steps);
    }
    work.add(Step::Edge, flow.edges + cut_steps);
    work.add(Step::Item, flow.items);
    let mut layout = Layout::of(&names, &flow);
    work.add(Step::Item, layout.steps);
    layout.steps = 0;

    // Each class's set: its own tokens, and the union of its inputs'.
    let mut sets = Sets::new(layout.word_count());
    let mut held: Vec<Held> = Vec::with_capacity(flow.classes.len());
    // Per clash, the first class where it forms (none of its inputs holds
    // it) and whether it forms anywhere else too.
    let mut formed: Map<(u32, u64), (ClassIx, bool)> = new_map();
    let mut joins = Joins::default();
    // Per (word, segment), what the unions of one class said formed there.
    // (what it holds there, whether it formed here, whether the inputs
    // formed it between them).
    let mut here: Map<(u32, u32), (u64, bool, bool)> = new_map();
    let mut probes = 0u64;
    let bases = SharedBases::of(&flow, &mut probes);
    for c in 0..flow.classes.len() {
        if c % CLASSES_PER_LOOK == 0 && interrupt.requested() {
            return Err(work);
        }
        let own = std::mem::take(&mut layout.own_words[c]);
        // Every clash of the class's own tokens forms here, unless an input
        // holds it too (a tool wired here and also upstream): said when the
        // own set is joined to the inputs', so its words are watched from
        // then on (the inputs' unions only watch what they form).
        let mut own_formed_words: Vec<u32> = Vec::new();
        for &(word, value) in &own {
            // Said straight into `events` (taken out while the word's
            // clashes are read): no list made per word.
            let mut events = std::mem::take(&mut layout.events);
            let before = events.len();
            events.extend((layout.clashes_in(word, value)).map(|(s, held)| (word, s as u32, held, true)));
            if events.len() > before {
                own_formed_words.push(word);
            }
            layout.events = events;
        }
        let own = (sets.of_words(&own, &layout), own.len());
        if !layout.roams[c] && own.0 != EMPTY {
            joins.own_formed.insert(own.0, c as ClassIx);
        }
        // The inputs joined (once for each distinct combination of them),
        // then the class's own set joined to that.
        let (order, shared) = bases.of_class(c);
        let inputs: Vec<&Held> = order.iter().map(|&i| &held[i as usize]).collect();
        let inner_start = layout.events.len();
        let inner = join_inputs(&mut sets, &mut layout, &mut joins, &inputs, shared, &mut probes);
        let inner_end = layout.events.len();
        layout.watched.extend(own_formed_words);
        let this = match own.0 {
            EMPTY => inner.held.clone(),
            _ => join(&mut sets, &mut layout, &mut joins, own, &[&inner.held], 0, &mut probes),
        };
        // What the unions say formed here, in the order they said it: a
        // clash made of tokens of two operands, unless an input was later
        // found to hold it whole. What the inputs formed between them
        // stands, whatever the class's own set adds (it only tells whether
        // what the own tokens formed was held whole by the inputs already).
        probes += tally(&layout.events, inner_start..inner_end, &mut here);
        layout.events.clear();
        layout.watched.clear();
        for (&(word, segment), &(tokens, formed_here, _)) in &here {
            if !formed_here {
                continue;
            }
            // Held at the end, not grown by a later union.
            probes += 1;
            let value = this.value_at(&sets, word);
            if value == 0 || layout.held(segment as usize, value) != tokens {
                continue;
            }
            formed
                .entry((segment, tokens))
                .and_modify(|(first, elsewhere)| *elsewhere |= *first != c as ClassIx)
                .or_insert((c as ClassIx, false));
        }
        // What the inputs form is told again by the next class with the
        // same inputs only while it is not known to form in two classes.
        let settled =
            |&(_, segment, tokens): &Formed| formed.get(&(segment, tokens)).is_some_and(|&(_, elsewhere)| elsewhere);
        probes += inner.settle(&mut joins, settled);
        // Where inputs meet, held as their meeting (`paired`): what it
        // formed forms here too. A class of no own tokens holds it as it
        // is, so the meeting notes the class, once per class (its clashes
        // are told once per meeting, below). Own tokens may grow a clash it formed,
        // so then its clashes not yet known to form in two classes are
        // looked up at the end, as unions' are: each is found held at most
        // twice before it is known so; one not held is one the own tokens
        // grew (at most one per own token).
        let c = c as ClassIx;
        // `used` is emptied for the next class, its buffer kept.
        let mut used = std::mem::take(&mut joins.used);
        for m in used.drain(..) {
            probes += 1;
            let meeting = &mut joins.meetings[m as usize];
            if own.0 == EMPTY {
                match meeting.first {
                    NONE => meeting.first = c,
                    first => meeting.elsewhere |= first != c,
                }
                continue;
            }
            if meeting.elsewhere {
                continue; // all of them form in two classes
            }
            let (formed, at, first) = (&meeting.formed, &mut meeting.at, meeting.first);
            meeting.pending.retain(|&k| {
                probes += 1;
                let (word, segment, tokens) = formed[k as usize];
                let value = this.value_at(&sets, word);
                if value == 0 || layout.held(segment as usize, value) != tokens {
                    return true;
                }
                let (held_first, elsewhere) = &mut at[k as usize];
                match *held_first {
                    NONE => *held_first = c,
                    f => *elsewhere |= f != c,
                }
                *elsewhere |= first != NONE && first != c;
                !*elsewhere
            });
        }
        joins.used = used;
        held.push(this);
    }
    // What the holders' meetings formed, once per meeting: where it is held at
    // the end, by classes of no own tokens or of some.
    for meeting in &joins.meetings {
        for (k, &(_, segment, tokens)) in meeting.formed.iter().enumerate() {
            probes += 1;
            let (first, elsewhere) = match (meeting.at[k], meeting.first) {
                ((NONE, _), NONE) => continue,
                ((NONE, _), first) => (first, meeting.elsewhere),
                ((held_first, elsewhere), NONE) => (held_first, elsewhere),
                ((held_first, elsewhere), first) => (held_first, elsewhere || meeting.elsewhere || held_first != first),
            };
            formed
                .entry((segment, tokens))
                .and_modify(|(f, e)| *e |= *f != first || elsewhere)
                .or_insert((first, elsewhere));
        }
    }

    // Every set is made: what made them is not held while clashes are.
    drop(joins);
    sets.made();
    // A clash forms where its tools first meet; shown when that is one
    // box, and only one. Where it is not, what formed it is not kept
    // while clashes are made (in `ring-crowd` at 1,000, not one of
    // 991,000 clashes: a 52 MB table).
    let through = |&(class, elsewhere): &(ClassIx, bool)| {
        let class = &flow.classes[class as usize];
        class.origin.filter(|_| !elsewhere && class.origins == 1)
    };
    formed.retain(|_, formed| through(formed).is_some());
    formed.shrink_to_fit();

    // The consumers that see a clash, by id, with their class.
    let mut listed: Vec<(u32, ClassIx)> = Vec::new();
    let mut starts: Vec<u64> = vec![0];
    for &consumer in consumers_by_id {
        let o = flow.ordinal[consumer as usize];
        if o == NONE {
            continue;
        }
        let class = flow.class_of[o as usize];
        let count = held[class as usize].clashes(&sets);
        if count > 0 {
            listed.push((o, class));
            starts.push(starts.last().copied().unwrap_or(0) + count);
        }
    }
    work.add(Step::Item, consumers_by_id.len() as u64);

    // Every clash held where a consumer sees it: the consumers of each
    // class pushed down the sets to the leaves, then each leaf's clashes
    // counted once per consumer that holds it.
    let mut at_class: Map<ClassIx, (u32, Vec<u32>)> = new_map();
    for (rank, &(_, class)) in listed.iter().enumerate() {
        let entry = at_class.entry(class).or_default();
        entry.0 += 1;
        if entry.1.len() < FIRSTS {
            entry.1.push(rank as u32);
        }
    }
    // A class made of parts holds each of its tokens in exactly one part.
    let mut spilled = Spilled::default();
    let mut pushed: Vec<(SetId, Consumers)> = Vec::new();
    for (&class, (count, ranks)) in &at_class {
        let consumers = Consumers::of(*count, ranks, &mut spilled);
        pushed.extend((held[class as usize].parts().iter()).map(|&part| (part, consumers)));
    }
    let at_leaf = sets.push_down(pushed, None, &mut spilled);
    // The leaves some consumer sees, by word and then by id: a clash is of
    // one word, so each word's clashes are counted, and made, before the
    // next word's, and no table of every clash is held (one, and the
    // tallies it pointed into, were 154 MB of `ring-crowd`'s peak at
    // 1,000).
    let mut seen_leaves: Vec<(u32, SetId, u64, Consumers)> = (sets.leaf_words())
        .filter(|&(id, _, _)| !at_leaf[id].is_empty())
        .map(|(id, word, value)| (word, id as SetId, value, at_leaf[id]))
        .collect();
    drop(at_leaf);
    seen_leaves.sort_unstable_by_key(|&(word, id, _, _)| (word, id));
    let mut clashes = Clashes::default();
    let mut items = 0u64;
    // Per clash of the word: its consumers and its first ones.
    let mut tallies: Vec<(u32, u64, u64, Firsts)> = Vec::new();
    for of_word in seen_leaves.chunk_by(|a, b| a.0 == b.0) {
        let word = of_word[0].0;
        // Made anew for each word: clearing a table costs its capacity,
        // which one word of many clashes would leave to all the others.
        let mut seen: Map<(u32, u64), u32> = new_map();
        for (_, _, value, consumers) in of_word {
            let firsts = consumers.firsts(&spilled);
            for (segment, held) in layout.clashes_in(word, *value) {
                probes += 1 + firsts.len() as u64;
                let at = *seen.entry((segment as u32, held)).or_insert_with(|| {
                    tallies.push((segment as u32, held, 0, Firsts::default()));
                    (tallies.len() - 1) as u32
                });
                let tally = &mut tallies[at as usize];
                tally.2 += u64::from(consumers.count());
                tally.3.merge(firsts);
            }
        }
        // Each clash once, with its first violation: the first consumer's
        // place plus the clash's rank among what that consumer sees.
        for (segment, tokens, count, firsts) in tallies.drain(..) {
            let rank = firsts.as_slice()[0];
            let (_, class) = listed[rank as usize];
            let (value, before) = held[class as usize].find(&sets, word);
            let in_word = layout
                .clashes_in(word, value)
                .take_while(|&(s, _)| s != segment as usize)
                .count() as u64;
            let mut leaves = layout.leaves_of(segment as usize, tokens);
            items += leaves.len() as u64;
            g.sort_by_id(&mut leaves);
            let clash = NewClash {
                name: layout.segments[segment as usize].name,
                segment,
                held: tokens,
                word,
                count,
                first: starts[rank as usize] + before + in_word,
            };
            clashes.push(clash, &leaves, firsts.as_slice());
        }
    }
    drop(seen_leaves);
    drop(spilled);
    work.add(Step::Probe, probes);

    clashes.sort_by_first();
    for clash in clashes.iter_mut() {
        clash.through = formed.get(&(clash.segment, clash.held)).and_then(through);
    }
    work.add(Step::Item, items);
    work.add(Step::SetNode, sets.steps);
    work.add(Step::Item, layout.steps);

    Ok(Collisions {
        graph: g,
        names,
        flow,
        layout,
        sets,
        held,
        part_words: Default::default(),
        consumers: listed,
        starts,
        clashes,
        renames: new_map(),
        locations: new_map(),
        paths: Paths::default(),
        moved: twin_cut.as_ref().map(twins::Moved::of).unwrap_or_default(),
        carried: Default::default(),
        listing: Default::default(),
        work,
    })
}

/// What `events` (of one class's unions, in order) say formed, per (word,
/// segment): a clash made of tokens of two operands, unless an operand
/// said after it holds it whole; but what the unions of the inputs
/// (`by_inputs`) formed between them stands against what is said after
/// them. Entries: (tokens held, formed, formed by the inputs). Returns the
/// events looked at.
fn tally(
    events: &[(u32, u32, u64, bool)],
    by_inputs: std::ops::Range<usize>,
    here: &mut Map<(u32, u32), (u64, bool, bool)>,
) -> u64 {
    here.clear();
    for (i, &(word, segment, tokens, formed)) in events.iter().enumerate() {
        if formed {
            here.insert((word, segment), (tokens, true, by_inputs.contains(&i)));
            continue;
        }
        // An operand holding a clash whole only takes back what was said
        // to form there before: where nothing was, an entry saying nothing
        // formed would read as no entry at all, so none is made (most
        // events say an input holds what it held: a box's pairs, class
        // after class).
        if here.is_empty() {
            continue;
        }
        if let Some((held, formed, kept)) = here.get_mut(&(word, segment)) {
            if *held == tokens && !(*kept && i >= by_inputs.end) {
                *formed = false;
            }
        }
    }
    events.len() as u64
}

/// A clash said to form: (word, segment, tokens held).
type Formed = (u32, u32, u64);

/// A class's inputs joined: what they hold, and the combinations of
/// inputs joined to make it (see `Joins::inputs`): the whole, and the
/// shared base it was made from, if any.
struct Inner {
    held: Held,
    combinations: Vec<usize>,
}

impl Inner {
    /// Forgets, of what the combinations formed, what `settled` says is
    /// known to form in two classes. Returns the entries looked at.
    fn settle(&self, joins: &mut Joins, settled: impl Fn(&Formed) -> bool) -> u64 {
        let mut looked_at = 0;
        for &at in &self.combinations {
            let pending = &mut joins.combinations[at].1;
            looked_at += pending.len() as u64;
            pending.retain(|e| !settled(e));
        }
        looked_at
    }
}

/// Per class, its inputs in the order that puts shared ones first, and
/// how many of them lead the inputs of some other class too.
///
/// Classes often share most of their inputs and differ by one or two of
/// their own (agents wired to the same big boxes, each also to a small
/// box of its own). Their combinations are all distinct, so each would be
/// joined anew, and the big inputs united again in every class. Instead
/// the inputs shared with another class (a leading run of the inputs in
/// this order, found by counting every leading run of every class) are
/// joined once, as a combination of their own, and each class adds only
/// the inputs after them. Inputs another input of the class is known to
/// hold whole are not among them (`upstream`).
struct SharedBases {
    /// Every class's inputs, most used first (then by class), one class
    /// after another: class `c`'s are `order[starts[c]..starts[c + 1]]`.
    order: Vec<ClassIx>,
    starts: Vec<usize>,
    /// Per class, how many of its inputs lead another class's inputs too
    /// (0 when fewer than two, or all).
    shared: Vec<usize>,
}

impl SharedBases {
    /// Two passes over the classes' inputs: their order and the leading
    /// runs counted, then each class's longest run that another class
    /// has too. A print that matches by accident only makes a base that
    /// is not shared: joined once more, never a wrong answer.
    fn of(flow: &Flow, probes: &mut u64) -> SharedBases {
        let mut uses = vec![0u32; flow.classes.len()];
        for class in &flow.classes {
            for &i in class.inputs.iter() {
                uses[i as usize] += 1;
            }
        }
        // Inputs another input holds whole are not joined (`upstream`).
        let (order, starts) = upstream::kept_inputs(&flow.classes, &uses, probes);
        // Nor those another input covers (`covered`).
        let (mut order, starts) = covered::drop_covered(&flow.classes, order, starts, probes);
        let mut runs: Map<u64, u32> = new_map();
        for run in starts.windows(2) {
            let inputs = &mut order[run[0]..run[1]];
            inputs.sort_unstable_by_key(|&i| (std::cmp::Reverse(uses[i as usize]), i));
            for print in run_prints(inputs) {
                *runs.entry(print).or_default() += 1;
            }
        }
        *probes += 2 * order.len() as u64;
        let shared = (starts.windows(2))
            .map(|run| {
                (run_prints(&order[run[0]..run[1]]).enumerate())
                    .filter(|&(_, print)| runs.get(&print).is_some_and(|&n| n >= 2))
                    .map(|(at, _)| at + 2)
                    .last()
                    .unwrap_or(0)
            })
            .collect();
        SharedBases { order, starts, shared }
    }

    /// Class `c`'s inputs in order, and how many of them lead another
    /// class's inputs too.
    fn of_class(&self, c: usize) -> (&[ClassIx], usize) {
        (&self.order[self.starts[c]..self.starts[c + 1]], self.shared[c])
    }
}

/// Prints of the leading runs of `order` of two or more inputs, short of
/// all of them, shortest first.
fn run_prints(order: &[ClassIx]) -> impl Iterator<Item = u64> + '_ {
    let mut print = 0x243F_6A88_85A3_08D3u64;
    let runs = order.len().saturating_sub(1);
    order[..runs].iter().enumerate().filter_map(move |(at, &i)| {
        print = (print ^ u64::from(i))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
        (at >= 1).then_some(print)
    })
}

/// The inputs of a class joined: made once per distinct combination of
/// inputs (many classes have the same inputs and only their own tools
/// apart), and for a combination met again, what its unions said formed
/// (its pending clashes) told again as events, instead of the unions.
/// When the first `shared` inputs lead other classes' inputs too, they
/// are joined first, as a combination of their own, and the rest added
/// to what they hold, as a class's own set is (each union adds an input).
fn join_inputs(
    sets: &mut Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    inputs: &[&Held],
    shared: usize,
    probes: &mut u64,
) -> Inner {
    if inputs.len() < 2 {
        let held = inputs.first().map_or(Held::One(EMPTY), |&h| h.clone());
        return Inner {
            held,
            combinations: Vec::new(),
        };
    }
    let key = combination_key(inputs);
    *probes += key.len() as u64;
    join_keyed(sets, layout, joins, inputs, key, shared, probes)
}

/// `join_inputs`, the combination's key made.
fn join_keyed(
    sets: &mut Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    inputs: &[&Held],
    key: Vec<SetId>,
    shared: usize,
    probes: &mut u64,
) -> Inner {
    if let Some(&at) = joins.inputs.get(&key[..]) {
        let (held, pending, met) = &joins.combinations[at];
        for &(word, segment, tokens) in pending {
            layout.watched.insert(word);
            layout.events.push((word, segment, tokens, true));
        }
        joins.used.extend_from_slice(met);
        return Inner {
            held: held.clone(),
            combinations: vec![at],
        };
    }
    let start = layout.events.len();
    let used = joins.used.len();
    let mut combinations = Vec::new();
    let mut held = None;
    // A base held as parts joined again with the rest: its first inputs.
    let mut parts_base = 0;
    let base_key = (2..inputs.len())
        .contains(&shared)
        .then(|| combination_key(&inputs[..shared]));
    if let Some(base_key) = base_key.filter(|k| base_affordable(joins, k, probes)) {
        let base = join_keyed(sets, layout, joins, &inputs[..shared], base_key, 0, probes);
        combinations = base.combinations;
        // Added to a base held as parts, a part holding a clash the base
        // formed would read as an input holding it whole: the inputs are
        // joined at once instead, and what the base said is taken back.
        match base.held {
            Held::One(set) => held = Some(join(sets, layout, joins, (set, 0), &inputs[shared..], 0, probes)),
            Held::Parts(_) => {
                layout.events.truncate(start);
                joins.used.truncate(used);
                parts_base = shared;
            }
        }
    }
    let held = match held {
        Some(held) => held,
        None if parts_base > 0 => {
            match join_unless_united(sets, layout, joins, (EMPTY, 0), inputs, parts_base, true, probes) {
                Some(held) => held,
                // Its parts meet where they cannot be held apart: the
                // base's inputs united once for every class that shares
                // it, and the rest joined to that, as to a base held as
                // one set (else each class would unite them all anew).
                None => {
                    layout.events.truncate(start);
                    joins.used.truncate(used);
                    match united_base(sets, layout, joins, &inputs[..parts_base], probes) {
                        Some(base) => {
                            combinations.extend(base.combinations);
                            join(
                                sets,
                                layout,
                                joins,
                                (base.held.parts()[0], 0),
                                &inputs[parts_base..],
                                0,
                                probes,
                            )
                        }
                        None => join(sets, layout, joins, (EMPTY, 0), inputs, 0, probes),
                    }
                }
            }
        }
        None => join(sets, layout, joins, (EMPTY, 0), inputs, 0, probes),
    };
    let at = remember(sets, layout, joins, held.clone(), start, used, probes);
    joins.inputs.insert(key.into(), at);
    combinations.push(at);
    Inner { held, combinations }
}

/// Records a combination just joined (what it holds, made by the joins
/// whose events start at `start` and whose meetings used start at `used`):
/// what formed, in the order it was said, if still held at the end, is
/// its pending clashes. Returns its place in `Joins::combinations`.
fn remember(
    sets: &Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    held: Held,
    start: usize,
    used: usize,
    probes: &mut u64,
) -> usize {
    // (The map is kept from join to join: taken here, put back below.)
    let mut here = std::mem::take(&mut joins.here);
    *probes += tally(&layout.events[start..], 0..0, &mut here);
    let mut pending = Vec::new();
    for &(word, segment, tokens, _) in &layout.events[start..] {
        if here
            .get(&(word, segment))
            .is_some_and(|&(t, formed, _)| formed && t == tokens)
        {
            here.remove(&(word, segment));
            *probes += 1;
            let value = held.value_at(sets, word);
            if value != 0 && layout.held(segment as usize, value) == tokens {
                pending.push((word, segment, tokens));
            }
        }
    }
    // Clearing a table costs its size: a big one is not kept for the
    // small joins after it.
    if here.capacity() <= HERE_KEPT {
        joins.here = here;
    }
    let at = joins.combinations.len();
    let met = joins.used[used..].into();
    joins.combinations.push((held, pending, met));
    at
}

/// A shared base's inputs united into one set, once for all the classes
/// that share it, as a combination of its own; for a class after the
/// first, what it formed that is still pending told again, while the base
/// may (`replays_affordable`). None when it may not: the class unites its
/// inputs at once.
fn united_base(
    sets: &mut Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    inputs: &[&Held],
    probes: &mut u64,
) -> Option<Inner> {
    let key = combination_key(inputs);
    *probes += key.len() as u64;
    if let Some(&at) = joins.united.get(&key[..]) {
        if !replays_affordable(joins, at) {
            return None;
        }
        let (held, pending, _) = &joins.combinations[at];
        for &(word, segment, tokens) in pending {
            layout.watched.insert(word);
            layout.events.push((word, segment, tokens, true));
        }
        return Some(Inner {
            held: held.clone(),
            combinations: vec![at],
        });
    }
    let (start, used) = (layout.events.len(), joins.used.len());
    let mut parts: Vec<SetId> = inputs
        .iter()
        .flat_map(|h| h.parts().iter().copied())
        .filter(|&p| p != EMPTY)
        .collect();
    parts.sort_unstable();
    parts.dedup();
    // The largest first: a union with a set it already holds makes nothing.
    parts.sort_by_key(|&p| std::cmp::Reverse(sets.clashes(p)));
    let mut root = parts.first().copied().unwrap_or(EMPTY);
    for &part in parts.iter().skip(1) {
        root = sets.union(part, root, layout);
    }
    joins.pieces.remember_made_of(root, parts.iter().copied());
    let at = remember(sets, layout, joins, Held::One(root), start, used, probes);
    joins.united.insert(key.into(), at);
    Some(Inner {
        held: Held::One(root),
        combinations: vec![at],
    })
}

/// The key of a combination of inputs: their parts, input by input (each
/// list ended by EMPTY), the lists sorted.
fn combination_key(inputs: &[&Held]) -> Vec<SetId> {
    let mut lists: Vec<&[SetId]> = inputs.iter().map(|h| h.parts()).collect();
    lists.sort_unstable();
    let mut key: Vec<SetId> = Vec::new();
    for list in lists {
        key.extend_from_slice(list);
        key.push(EMPTY);
    }
    key
}

/// Whether a class may start from the shared base of key `key` (and pay to
/// tell again what it formed that is still pending), charging that to the
/// base. What a base formed stays pending while the classes that use it
/// do not form it too, which the inputs after the base can see to at no
/// cost (one box holding all of it whole); so each base may tell again at
/// most a few times what it first formed. Past that, its classes join
/// their inputs at once, as without a base.
fn base_affordable(joins: &mut Joins, key: &[SetId], probes: &mut u64) -> bool {
    *probes += key.len() as u64;
    match joins.inputs.get(key) {
        Some(&at) => replays_affordable(joins, at),
        None => true, // made now: what it forms is said as it forms, once
    }
}

/// Whether combination `at` may tell again what it formed that is still
/// pending, charged to it (see `base_affordable`).
fn replays_affordable(joins: &mut Joins, at: usize) -> bool {
    let pending = joins.combinations[at].1.len() as u64;
    let left = joins.replays_left.entry(at).or_insert(BASE_REPLAYS * (pending + 16));
    if pending > *left {
        return false;
    }
    *left -= pending;
    true
}

/// The largest tally `join_keyed` keeps for the next join (entries).
const HERE_KEPT: usize = 256;

/// How many times over a shared base may tell again what it formed.
const BASE_REPLAYS: u64 = 4;

/// Leaves a union of a class's inputs may make before the class is held as
/// parts instead: a few per input (where their words meet), and two per
/// word of its own tokens. So what unions make is bounded by the classes'
/// inputs and own tokens: linear, whatever the inputs hold.
fn leaf_budget(parts: usize, own_words: usize) -> u64 {
    4 * parts as u64 + 2 * own_words as u64
}

/// The most parts a class is held as: beyond, the two smallest are united
/// (they share nothing, so their union only adds up what they hold).
const MAX_PARTS: usize = 16;

/// What `join` keeps between classes: which sets are a class's own tokens
/// where no roaming name enters (two such sets of two classes share
/// nothing), and the words where two sets were found to meet.
#[derive(Default)]
pub(crate) struct Joins {
    pub own_formed: Map<SetId, ClassIx>,
    met: Map<(SetId, SetId), Meeting>,
    values: Map<(SetId, u32), u64>,
    remainders: Map<(SetId, Box<[u32]>), SetId>,
    /// Each distinct combination of inputs joined (their parts, input by
    /// input, each list ended by EMPTY), as a place in `combinations`:
    /// what they hold, and what their unions formed that is not yet known
    /// to form in two classes.
    inputs: Map<Box<[SetId]>, usize>,
    /// and the holders' meetings it holds (`paired`).
    combinations: Vec<(Held, Vec<Formed>, Box<[u32]>)>,
    /// Walks over big parts' words, by the parts (`walked_on`).
    walks: Map<Box<[SetId]>, Walk>,
    /// Parts united for being too many, by the two parts.
    merged: Map<(SetId, SetId), SetId>,
    /// Shared bases held as parts whose inputs were united all the same
    /// (`united_base`), by their key, as a place in `combinations`.
    united: Map<Box<[SetId]>, usize>,
    /// Per combination used as a shared base, how many more of its
    /// pending clashes it may tell again (`base_affordable`).
    replays_left: Map<usize, u64>,
    /// The segments of the parts `paired` walked, by their holders.
    holders: Holders,
    /// Per pair of parts `paired` looked at, whether they hold one node.
    whole: Map<(SetId, SetId), bool>,
    /// Where parts meet (see `paired`), each made once.
    meetings: Vec<PartsMeeting>,
    /// A part without the segments its meetings (places in `meetings`,
    /// sorted) took: None when two of them took one segment (never, as
    /// meetings are of different holder sets: kept as a check).
    rests: Map<(SetId, Box<[u32]>), Option<SetId>>,
    /// The meetings the class being made holds, as its joins said.
    used: Vec<u32>,
    /// Parts made by `paired` (the value unused: EMPTY).
    paired: Map<Box<[SetId]>, SetId>,
    /// `join_keyed`'s tally, kept so that its table is not made anew for
    /// every combination.
    here: Map<(u32, u32), (u64, bool, bool)>,
    /// How sets were made: covers as their box and own set, unions as
    /// what they were united from.
    pieces: Pieces,
}

/// Where parts of a class meet: the segments of one holder set (`Holders`),
/// word by word, and the class's parts in it.
struct PartsMeeting {
    /// Their tokens of those segments, united; EMPTY when there are none.
    set: SetId,
    /// Per word where they meet, the bits of those segments.
    masks: Box<[(u32, u64)]>,
    /// The clashes of `set` none of the parts holds whole: they form where
    /// the parts are joined.
    formed: Box<[Formed]>,
    /// The first class that holds `set` as it is (no own tokens; NONE
    /// before one does), and whether another does too.
    first: ClassIx,
    elsewhere: bool,
    /// Per clash of `formed`, the first class of own tokens that holds it
    /// at the end (NONE before one does), and whether another class does;
    /// and those not yet known to form in two classes (places in `formed`).
    at: Vec<(ClassIx, bool)>,
    pending: Vec<u32>,
}

/// What a class holds, from its own set and its inputs'. Usually one set,
/// their union. But inputs that each hold many tokens, interleaved word by
/// word with the others' (agents each wired to a different handful of big
/// boxes), would make a union per class as large as its inputs, and as
/// many such unions as classes. So when the union would make more than a
/// few leaves, the class holds its inputs as parts, never united: the
/// words where two of them meet (a token of both, or a name both hold
/// tokens of, where a clash may form) are taken out of them and made into
/// one more part, their union. When inputs meet at many words, a class of
/// no own tokens is held by holders' meetings (`paired`), and own tokens
/// meeting such inputs are carved out of them; only when that cannot be is
/// the union made whatever it costs: that is the worst case of the cost
/// model.
fn join(
    sets: &mut Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    own: (SetId, usize),
    inputs: &[&Held],
    base: usize,
    probes: &mut u64,
) -> Held {
    join_unless_united(sets, layout, joins, own, inputs, base, false, probes).expect("united when not deferred")
}

/// `join`, or None where parts that meet at many words would be united
/// whatever it costs and `defer_unite` says the caller has a cheaper way
/// to unite them (a shared base united once, see `join_keyed`).
#[allow(clippy::too_many_arguments)]
fn join_unless_united(
    sets: &mut Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    (own, own_words): (SetId, usize),
    inputs: &[&Held],
    base: usize,
    defer_unite: bool,
    probes: &mut u64,
) -> Option<Held> {
    // Each part with the input it comes from: an input's parts are apart.
    let mut parts: Vec<(SetId, usize)> = Vec::new();
    for (i, h) in inputs.iter().enumerate() {
        parts.extend(h.parts().iter().map(|&p| (p, i + 1)));
    }
    // An input that holds exactly the own set holds whole whatever formed
    // in it so far; the two are one part below, never united, so that is
    // said here.
    if own != EMPTY && parts.iter().any(|&(p, _)| p == own) {
        layout.held_whole(0, u64::from(u32::MAX) + 1, &|w| sets.value_at(own, w));
    }
    parts.push((own, 0));
    parts.retain(|&(p, _)| p != EMPTY);
    parts.sort_unstable();
    parts.dedup_by_key(|p| p.0);
    if joins.pieces.without_held_inputs(&mut parts, probes) {
        parts.sort_unstable();
        parts.dedup_by_key(|p| p.0);
    }
    match parts.len() {
        0 => return Some(Held::One(EMPTY)),
        1 => return Some(Held::One(parts[0].0)),
        _ => {}
    }
    // The class's own set first, so that every union adds an input (the
    // unions' events tell inputs from what forms here); then the largest
    // input, since a union with a set it already holds makes nothing.
    parts.sort_by_key(|&(p, _)| (p != own, std::cmp::Reverse(sets.clashes(p))));
    let met = meeting_words(sets, layout, joins, &parts, base, probes);
    // United when that makes few leaves (where the parts meet), unless an
    // input was already too big to unite; as parts when they meet at few
    // words; else united whatever it costs.
    let unite = |sets: &mut Sets, layout: &mut Layout, joins: &mut Joins| {
        let mut root = parts[0].0;
        for &(part, _) in &parts[1..] {
            root = sets.union(part, root, layout);
        }
        joins.pieces.remember_made_of(root, parts.iter().map(|p| p.0));
        Held::One(root)
    };
    // United, and remembered as a cover when it is one.
    let unite_cover = |sets: &mut Sets, layout: &mut Layout, joins: &mut Joins, met, probes: &mut u64| {
        let held = unite(sets, layout, joins);
        let own = (own, own_words);
        remember_cover(sets, layout, joins, &held, &parts, own, inputs.len(), met, probes);
        held
    };
    let small = met
        .as_ref()
        .is_some_and(|m| m.shared_words as u64 <= leaf_budget(parts.len(), own_words));
    let inputs_parts = inputs.iter().any(|h| matches!(h, Held::Parts(_)));
    let (met, holders) = match met {
        _ if small && !inputs_parts => {
            let met = met.as_ref().map(|m| &m.contested[..]);
            return Some(unite_cover(sets, layout, joins, met, probes));
        }
        // No own tokens; or a shared base joined as one (`join_keyed`) to
        // covers, which the holders walk once: a cover of its own per
        // class, meeting the base in every word, was united with it in
        // each. (Any base so held, `ring-three` grows 2.5x per doubling.)
        None if own == EMPTY || (own_words == 0 && parts.iter().any(|p| joins.pieces.is_based(p.0))) => {
            let expanded = joins.pieces.expanded(sets, layout, &parts, probes);
            let held = paired(
                sets,
                layout,
                joins,
                expanded.as_deref().unwrap_or(&parts),
                parts.len(),
                probes,
            );
            return if held.is_none() && defer_unite {
                None
            } else {
                Some(held.unwrap_or_else(|| unite(sets, layout, joins)))
            };
        }
        None => {
            // Own tokens that meet inputs held by meetings (`paired`) at
            // many words: each of the own set's words carved out of the
            // parts that hold it, as where parts meet at few words. The
            // parts share no segment, so no more is contested: O(own words
            // x parts x depth), never their union.
            let [Held::Parts(held)] = inputs else {
                // Where they meet is not known: at any of the own words.
                return Some(unite_cover(sets, layout, joins, None, probes));
            };
            *probes += 1;
            if !joins.paired.contains_key(held) {
                return Some(unite(sets, layout, joins));
            }
            let mut words = Vec::new();
            sets.words_of(own, &mut words);
            let mut holders = Vec::with_capacity(words.len());
            for &(word, _) in &words {
                let mut at = Vec::new();
                for (i, &(p, _)) in parts.iter().enumerate() {
                    *probes += 1;
                    let v = sets.value_at(p, word);
                    if v != 0 {
                        at.push((i, v));
                    }
                }
                holders.push(at);
            }
            (words.iter().map(|w| w.0).collect(), Some(holders))
        }
        Some(met) => (met.contested, met.holders),
    };
    let mut held: Vec<SetId> = parts.iter().map(|&(p, _)| p).collect();
    if !met.is_empty() {
        // The words where parts meet, united, as a part of their own; the
        // parts without them. Each word is combined over the parts that hold
        // it, and each part gives up only the words it holds: O(the parts'
        // values at those words), not words x parts (the same few sets
        // combined in many ways: each part's remainder is found once).
        let mut united: Vec<(u32, u64)> = Vec::with_capacity(met.len());
        let mut taken: Vec<Vec<u32>> = vec![Vec::new(); held.len()];
        // Found by comparing pairs (few parts): each part's value looked up.
        let holders = holders.unwrap_or_else(|| {
            let mut holders = Vec::with_capacity(met.len());
            for &word in &met {
                let mut at = Vec::new();
                for (i, &p) in held.iter().enumerate() {
                    *probes += 1;
                    let v = *joins.values.entry((p, word)).or_insert_with(|| sets.value_at(p, word));
                    if v != 0 {
                        at.push((i, v));
                    }
                }
                holders.push(at);
            }
            holders
        });
        // Each holder's value was found with a step of its own (a word
        // walked or looked up), and is combined once.
        for (&word, holders) in met.iter().zip(&holders) {
            let mut value = 0u64;
            for &(i, v) in holders {
                value = if value == 0 { v } else { layout.union(word, v, value) };
                taken[i].push(word);
            }
            united.push((word, value));
        }
        for (p, words) in held.iter_mut().zip(taken) {
            if words.is_empty() {
                continue;
            }
            *probes += 1;
            let key = (*p, words.into_boxed_slice());
            *p = match joins.remainders.get(&key) {
                Some(&rest) => rest,
                None => {
                    let rest = sets.without(*p, &key.1);
                    joins.remainders.insert(key, rest);
                    rest
                }
            };
        }
        held.push(sets.of_words(&united, layout));
        held.retain(|&p| p != EMPTY);
    }
    // Not too many parts: the smallest united, two at a time (the same two
    // sets, met again in another class, united once).
    while held.len() > MAX_PARTS {
        held.sort_unstable_by_key(|&p| (std::cmp::Reverse(sets.clashes(p)), p));
        let (a, b) = (held.pop().expect("over MAX_PARTS"), held.pop().expect("over MAX_PARTS"));
        *probes += 1;
        let united = match joins.merged.get(&(a, b)) {
            Some(&united) => united,
            None => {
                let united = sets.union(a, b, layout);
                joins.merged.insert((a, b), united);
                united
            }
        };
        held.push(united);
    }
    Some(match held.len() {
        0 => Held::One(EMPTY),
        1 => Held::One(held[0]),
        _ => {
            held.sort_unstable();
            Held::Parts(held.into())
        }
    })
}

/// A box's own tokens added to the one input it forwards, united into
/// `held`: remembered as that input and the own set (`pieces`), so that
/// `paired` sees the input itself in the classes downstream. Where they
/// meet (`met`, or any own word when not known), the own set is made anew,
/// at a cost of its words: only a class's own tokens (`own_words`), not a
/// shared base joined as one (`join_keyed`), which would be made anew per
/// class.
#[allow(clippy::too_many_arguments)]
fn remember_cover(
    sets: &mut Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    held: &Held,
    parts: &[(SetId, usize)],
    (own, own_words): (SetId, usize),
    inputs: usize,
    met: Option<&[u32]>,
    probes: &mut u64,
) {
    let (Held::One(root), [_, (input, 1)]) = (held, parts) else {
        return;
    };
    let met_nowhere = met.is_some_and(|m| m.is_empty());
    if own == EMPTY || inputs != 1 || (own_words == 0 && !met_nowhere) {
        return;
    }
    let every_own_word: Vec<u32>;
    let met = match met {
        Some(met) => met,
        None => {
            let mut words = Vec::new();
            sets.words_of(own, &mut words);
            *probes += words.len() as u64;
            every_own_word = words.into_iter().map(|(w, _)| w).collect();
            &every_own_word
        }
    };
    joins
        .pieces
        .remember_based(sets, layout, *root, *input, own, met, probes);
}

/// Where the parts of a class meet (see `meeting_words`): how many words
/// two of them hold (the leaves uniting them would make, at most; `u32::MAX`
/// when two are known apart, which are then never united), and the words
/// where two share a token or a segment, sorted, each once, with the parts
/// (places in `parts`, in order) that hold the word and their values there
/// when the walk found them (else `join` looks them up, only if it needs
/// them).
#[derive(Default)]
struct Met {
    shared_words: u32,
    contested: Vec<u32>,
    /// Per contested word, the parts that hold it, when a walk found them.
    holders: Option<Vec<Vec<(usize, u64)>>>,
}

/// The words where two of `parts` meet (share a token, or hold tokens of
/// one segment), each with the parts that hold it; None when the parts
/// meet more than a class's worth (`most`: a few per part), counting each
/// contested word once per part beyond the first that holds it (what
/// combining it in `join` costs), not once per pair of parts.
///
/// Parts of one input never meet. Two sets that are classes' own tokens
/// where no roaming name enters (`Joins::own_formed`) share nothing: such
/// parts are *known apart*, and uniting them is not tried (`shared_words`
/// is `u32::MAX`). How they are found:
///
/// - few pairs (`PAIRS_LOOKED_AT`): compared, each pair's answer kept for
///   the whole check (the same sets meet again in other classes), known
///   apart ones not looked at;
/// - else, when all parts but the largest are small (their words, counted
///   in the sets' nodes, at most `most`): those words walked and looked up
///   in the largest, O(most x depth);
/// - else, when only few pairs are not known apart (a class wired to many
///   big boxes of their own and a few other inputs): those pairs compared
///   as above, O(parts + pairs), nothing walked;
/// - else, when the first `base` inputs are a shared base held as parts:
///   the base's walk kept for all its classes, each walking the words of
///   its other inputs (`walked_on`);
/// - else one walk over every word of every part, counting per word the
///   parts that hold it: O(the parts' words), once per distinct combination
///   of inputs (`join_keyed`). That is the walk's bound: classes that each
///   combine, differently, many big inputs that are not classes' own tokens
///   walk them each.
fn meeting_words(
    sets: &Sets,
    layout: &Layout,
    joins: &mut Joins,
    parts: &[(SetId, usize)],
    base: usize,
    probes: &mut u64,
) -> Option<Met> {
    let most = 4 * parts.len();
    let apart = known_apart(joins, parts);
    // Pairs of parts from different inputs (or one the class's own), and
    // those of them known apart.
    let cross = |of: &dyn Fn(usize) -> bool| {
        let mut from: Vec<usize> = (0..parts.len()).filter(|&i| of(i)).map(|i| parts[i].1).collect();
        let all = from.len() * from.len().saturating_sub(1) / 2;
        from.retain(|&f| f != 0);
        from.sort_unstable();
        let same: usize = from
            .chunk_by(|a, b| a == b)
            .map(|run| run.len() * (run.len() - 1) / 2)
            .sum();
        all - same
    };
    let pairs = cross(&|_| true);
    let known_apart = cross(&|i| apart[i]);
    if pairs <= PAIRS_LOOKED_AT {
        // Both owners looked up in each pair's step, as the pair is.
        return compared(sets, layout, joins, parts, &apart, known_apart > 0, probes);
    }
    // Owners looked up and pairs counted: a step per part.
    *probes += parts.len() as u64;
    // All but the largest small: their words looked up in it.
    let sizes: Vec<u64> = parts.iter().map(|p| sets.words(p.0)).collect();
    let largest = (0..parts.len()).max_by_key(|&i| (sizes[i], std::cmp::Reverse(i)))?;
    if sizes.iter().sum::<u64>() - sizes[largest] <= most as u64 {
        return walked_beside(sets, layout, parts, largest, probes);
    }
    if known_apart > 0 && pairs - known_apart <= PAIRS_LOOKED_AT {
        return compared(sets, layout, joins, parts, &apart, true, probes);
    }
    // Inputs all walked by `paired` already (none the class's own), but
    // for small ones, which it walks at once: their holders tell where
    // they meet, at a lookup per holder set each is in, not a walk of
    // their words per class (agents each wired to the same big boxes and
    // a box of their own, past `PAIRS_LOOKED_AT` pairs).
    // (A cover is walked as its pieces.)
    let walked_or_small = |i: usize| walked_by_paired(joins, parts[i].0) || sizes[i] <= most as u64;
    if (0..parts.len()).all(|i| parts[i].1 != 0 && walked_or_small(i)) {
        return None;
    }
    // A shared base held as parts (`join_keyed`: agents wired to the same
    // big boxes, each also to boxes of its own): the base's walk is kept
    // for every class that has it, and each walks only its other inputs'
    // words, as it would add them to a base held as one set.
    let others: Vec<usize> = (0..parts.len())
        .filter(|&i| parts[i].1 == 0 || parts[i].1 > base)
        .collect();
    if base < 2 || others.is_empty() || others.len() == parts.len() {
        return walked(sets, layout, parts, probes);
    }
    walked_on(sets, layout, joins, parts, &others, probes)
}

/// Whether `paired` walked part `p`, or every piece it holds a cover as,
/// down to a set it walked.
fn walked_by_paired(joins: &Joins, p: SetId) -> bool {
    let walked = |p: SetId| joins.holders.walked.contains_key(&p);
    walked(p)
        || (joins.pieces.down(p))
            .take_while(|based| walked(based.own))
            .any(|based| walked(based.input))
}

/// Which of `parts` are known apart (see `meeting_words`): a class's own
/// set, the only part of the class with its owner (one own set per class:
/// two parts with one owner are looked at).
fn known_apart(joins: &Joins, parts: &[(SetId, usize)]) -> Vec<bool> {
    let owners: Vec<Option<ClassIx>> = parts.iter().map(|p| joins.own_formed.get(&p.0).copied()).collect();
    if owners.iter().all(Option::is_none) {
        return vec![false; parts.len()]; // no own set among them (most joins)
    }
    let mut by_owner: Vec<ClassIx> = owners.iter().flatten().copied().collect();
    by_owner.sort_unstable();
    let lone = |o: ClassIx| {
        let at = by_owner.partition_point(|&x| x < o);
        by_owner.get(at + 1) != Some(&o)
    };
    owners.iter().map(|o| o.is_some_and(lone)).collect()
}

/// A class's parts (no own tokens among them) that meet at too many words
/// to be held as parts with those words carved out, held as parts by
/// segment instead. A segment's clashes at a class depend only on which of
/// the class's parts hold it; so segments are grouped by their *holders*,
/// the parts (of all those walked here, each walked once: `Holders`) that
/// hold tokens of them. A class with parts S holds, per holder set H that
/// two or more of its parts are in, a *meeting*: the tokens of H's
/// segments from the parts in H and S, united; and per part its *rest*,
/// the part without the segments its meetings took. A meeting is a
/// function of H and H n S alone, made once in the whole check (O(H's
/// segments x parts x depth)); a rest is a function of the part and the
/// meetings taken from it, made once per such combination (O(their words x
/// depth)). A class pays a lookup per holder set each of its parts is in,
/// whatever its parts hold and however many they are: agents each wired
/// to a different few of many big boxes whose neighbours share names in
/// every word (`ring-parts`, session 27; with names held by three boxes,
/// or many boxes per agent, session 28) no longer unite their boxes each.
///
/// Held this way, parts share no token and no segment, as a class held as
/// parts must: each segment's tokens are in one meeting or one rest (a
/// giant's word is one segment: its contents united). None (the parts are
/// united, as before) when a big part is seen for the first time (its walk
/// is paid only once a second class has it, or at once when it is small;
/// every part counts as big in a class that joins more than `MAX_PARTS`,
/// `joined`, as such a class was always united: its covers, held as their
/// pieces, count as one each), or two parts hold one node of the sets, or a
/// segment of more than `HOLDERS_MOST` holders, or the class has more than
/// 4 x `HOLDERS_MOST` parts.
fn paired(
    sets: &mut Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    parts: &[(SetId, usize)],
    joined: usize,
    probes: &mut u64,
) -> Option<Held> {
    if parts.len() > HOLDERS_MOST * 4 {
        return None;
    }
    let small = 4 * parts.len() as u64;
    let mut fresh = false;
    for &(p, _) in parts {
        *probes += 1;
        let holders = &mut joins.holders;
        let big = sets.words(p) > small || joined > MAX_PARTS;
        if !holders.walked.contains_key(&p) && big && holders.seen.insert(p, ()).is_none() {
            fresh = true;
        }
    }
    if fresh {
        return None;
    }
    // Two parts that hold one node of the sets (routes to the same tools:
    // a hub's box and a box feeding it) are united at once, as before; split
    // by holders, each class would take its share of every name they hold.
    // Looked at per pair, once in the whole check, while pairs are few.
    if parts.len() * (parts.len() - 1) / 2 <= PAIRS_LOOKED_AT {
        let apart = known_apart(joins, parts);
        let mut shared = Vec::new();
        for (i, &(a, from_a)) in parts.iter().enumerate() {
            for (j, &(b, from_b)) in parts.iter().enumerate().skip(i + 1) {
                if (apart[i] && apart[j]) || (from_a == from_b && from_a != 0) {
                    continue; // they share nothing
                }
                *probes += 1;
                let whole = *joins.whole.entry((a.min(b), a.max(b))).or_insert_with(|| {
                    shared.clear();
                    !sets.shared_words(a, b, &mut shared)
                });
                if whole {
                    return None;
                }
            }
        }
    }
    // A segment of more than `HOLDERS_MOST` holders is not followed: two
    // parts holding one are united, as before (so are two parts of which
    // one holds more such segments than are listed). One part holding it
    // keeps it in its rest, where no other part's tokens of it can be.
    // Told once every part is walked: walking a later part may crowd a
    // segment an earlier one holds (its 17th holder), which marks the
    // earlier one too.
    for &(p, _) in parts {
        joins.holders.walk(sets, layout, p, probes);
    }
    *probes += parts.len() as u64;
    let mut crowded: Vec<(u32, u8)> = Vec::new();
    let (mut crowded_parts, mut unlisted) = (0, false);
    for &(p, _) in parts {
        if let Some(segments) = joins.holders.crowded.get(&p) {
            *probes += segments.len() as u64;
            crowded_parts += 1;
            unlisted |= segments.len() > CROWDED_LISTED;
            crowded.extend_from_slice(segments);
        }
    }
    crowded.sort_unstable();
    if (unlisted && crowded_parts >= 2) || crowded.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    // Per holder set of two or more parts, the class's parts in it: found
    // through the holder sets of each part but the one in most (a hub whose
    // tools many boxes share is in as many holder sets: any of them the
    // class has two parts of holds another of its parts too).
    let listed = |p: SetId| joins.holders.by_part.get(&p).map_or(0, |v| v.len());
    let hub = (0..parts.len()).max_by_key(|&i| (listed(parts[i].0), std::cmp::Reverse(i)));
    let mut in_sets: Vec<(u32, usize)> = Vec::new();
    for (i, &(p, _)) in parts.iter().enumerate() {
        if Some(i) == hub {
            continue;
        }
        let slots = joins.holders.by_part.get(&p).map_or(&[][..], |v| v.as_slice());
        *probes += slots.len() as u64;
        in_sets.extend(slots.iter().map(|&slot| (slot, i)));
    }
    in_sets.sort_unstable();
    let mut meets: Vec<Vec<u32>> = vec![Vec::new(); parts.len()];
    let mut found: Vec<u32> = Vec::new();
    let mut run_parts: Vec<usize> = Vec::new();
    for run in in_sets.chunk_by(|a, b| a.0 == b.0) {
        let slot = run[0].0;
        run_parts.clear();
        run_parts.extend(run.iter().map(|&(_, i)| i));
        if let Some(h) = hub {
            *probes += 1;
            if joins.holders.slots[slot as usize]
                .parts
                .binary_search(&parts[h].0)
                .is_ok()
            {
                run_parts.push(h);
            }
        }
        if run_parts.len() < 2 {
            continue;
        }
        let mut group: Vec<SetId> = run_parts.iter().map(|&i| parts[i].0).collect();
        group.sort_unstable();
        let m = meeting_of(sets, layout, joins, slot, group.into(), probes);
        if joins.meetings[m as usize].set != EMPTY {
            for &i in &run_parts {
                meets[i].push(m);
            }
            found.push(m);
        }
    }
    if found.is_empty() {
        // No segment has two of them among its holders: they share
        // nothing, and are held as they are.
        let mut held: Vec<SetId> = parts.iter().map(|p| p.0).collect();
        held.sort_unstable();
        return (held.len() >= 2).then(|| Held::Parts(held.into()));
    }
    let mut held: Vec<SetId> = Vec::with_capacity(parts.len() + found.len());
    for (&(part, _), mut taken) in parts.iter().zip(meets) {
        if taken.is_empty() {
            held.push(part);
            continue;
        }
        taken.sort_unstable();
        *probes += taken.len() as u64;
        let key = (part, taken.into_boxed_slice());
        let rest = match joins.rests.get(&key) {
            Some(&rest) => rest,
            None => {
                let rest = rest_of(sets, layout, &joins.meetings, part, &key.1, probes);
                joins.rests.insert(key, rest);
                rest
            }
        }?;
        if rest != EMPTY {
            held.push(rest);
        }
    }
    held.extend(found.iter().map(|&m| joins.meetings[m as usize].set));
    if held.len() < 2 {
        return None;
    }
    joins.used.extend_from_slice(&found);
    held.sort_unstable();
    let held: Box<[SetId]> = held.into();
    joins.paired.entry(held.clone()).or_insert(EMPTY);
    Some(Held::Parts(held))
}

/// Every segment held by the parts walked so far (`paired`), grouped by
/// the parts that hold it (its *holders*). A part is walked once, O(its
/// words): each segment it holds moves to the holder set with it added.
/// A holder set keeps the segments it ever had, those moved on dropped
/// when a meeting is made of it; its version changes whenever one moves
/// on, so a meeting is never made of what it no longer holds.
#[derive(Default)]
struct Holders {
    walked: Map<SetId, ()>,
    /// Big parts seen once, not walked yet.
    seen: Map<SetId, ()>,
    /// Parts holding a segment of more than `HOLDERS_MOST` holders, with
    /// those segments (word, first bit): the first `CROWDED_LISTED` + 1.
    crowded: Map<SetId, Vec<(u32, u8)>>,
    /// Per segment (its word and first bit; 64 for a giant's word), its
    /// holder set.
    at: Map<(u32, u8), u32>,
    slots: Vec<HolderSet>,
    by_parts: Map<Box<[SetId]>, u32>,
    /// Per part, the holder sets of two or more parts it is in.
    by_part: Map<SetId, Vec<u32>>,
    /// Per holder set, version and parts of the class in it: a meeting.
    meetings: Map<(u32, u32, Box<[SetId]>), u32>,
}

/// The most holders a segment is followed with (`Holders`): a holder set
/// grows by a copy of its parts, so more would cost their square.
const HOLDERS_MOST: usize = 16;

/// In `Holders::at`, a segment of more than `HOLDERS_MOST` holders.
const CROWDED: u32 = u32::MAX;

/// The most crowded segments listed per part: a class may hold parts
/// that each hold a few, if no two hold one (covers of different boxes,
/// each with tools all covers of its box share: with 8 listed, ten such
/// tools made every agent unite). A class reads its parts' lists:
/// O(parts x this).
const CROWDED_LISTED: usize = 64;

/// Notes that `part` holds crowded segment `segment`, listing at most
/// `CROWDED_LISTED` + 1 (past that, "more than listed").
fn crowd(crowded: &mut Map<SetId, Vec<(u32, u8)>>, part: SetId, segment: (u32, u8)) {
    let listed = crowded.entry(part).or_default();
    if listed.len() <= CROWDED_LISTED {
        listed.push(segment);
    }
}

struct HolderSet {
    parts: Box<[SetId]>,
    /// (word, first bit, bits) of its segments, some maybe moved on.
    segments: Vec<(u32, u8, u64)>,
    version: u32,
}

impl Holders {
    fn walk(&mut self, sets: &Sets, layout: &Layout, part: SetId, probes: &mut u64) {
        if self.walked.insert(part, ()).is_some() {
            return;
        }
        let mut words = Vec::new();
        sets.words_of(part, &mut words);
        // Per holder set met, the one it becomes with `part` in it.
        let mut grown: Map<u32, u32> = new_map();
        let mut masks = Vec::new();
        for &(word, value) in &words {
            *probes += 1;
            masks.clear();
            let giant = !layout.held_segments(word, value, &mut masks);
            if giant {
                masks.push(u64::MAX);
            }
            for &mask in &masks {
                *probes += 1;
                let bit = if giant { 64 } else { mask.trailing_zeros() as u8 };
                let slot = match self.at.get(&(word, bit)) {
                    Some(&CROWDED) => {
                        crowd(&mut self.crowded, part, (word, bit));
                        continue;
                    }
                    Some(&old) if self.slots[old as usize].parts.len() >= HOLDERS_MOST => {
                        let old = &mut self.slots[old as usize];
                        old.version += 1;
                        *probes += old.parts.len() as u64;
                        for &p in old.parts.iter() {
                            crowd(&mut self.crowded, p, (word, bit));
                        }
                        crowd(&mut self.crowded, part, (word, bit));
                        self.at.insert((word, bit), CROWDED);
                        continue;
                    }
                    Some(&old) => match grown.get(&old) {
                        Some(&slot) => slot,
                        None => {
                            let mut parts = self.slots[old as usize].parts.to_vec();
                            parts.push(part);
                            parts.sort_unstable();
                            *probes += parts.len() as u64;
                            let slot = self.slot(parts.into());
                            grown.insert(old, slot);
                            slot
                        }
                    },
                    None => self.slot(Box::new([part])),
                };
                if let Some(old) = self.at.insert((word, bit), slot) {
                    self.slots[old as usize].version += 1;
                }
                self.slots[slot as usize].segments.push((word, bit, mask));
                self.slots[slot as usize].version += 1;
            }
        }
    }

    /// The holder set of `parts`, made if new.
    fn slot(&mut self, parts: Box<[SetId]>) -> u32 {
        if let Some(&slot) = self.by_parts.get(&parts) {
            return slot;
        }
        let slot = self.slots.len() as u32;
        if parts.len() >= 2 {
            for &p in parts.iter() {
                self.by_part.entry(p).or_default().push(slot);
            }
        }
        self.by_parts.insert(parts.clone(), slot);
        self.slots.push(HolderSet {
            parts,
            segments: Vec::new(),
            version: 0,
        });
        slot
    }
}

/// The meeting (a place in `Joins::meetings`) of the parts `group` of a
/// class in holder set `slot`: their tokens of its segments, united, made
/// once per version of the set and such parts. O(its segments x parts x
/// depth). A clash there none of them holds whole forms where they are
/// joined.
fn meeting_of(
    sets: &mut Sets,
    layout: &mut Layout,
    joins: &mut Joins,
    slot: u32,
    group: Box<[SetId]>,
    probes: &mut u64,
) -> u32 {
    let holders = &mut joins.holders;
    let version = holders.slots[slot as usize].version;
    let key = (slot, version, group);
    *probes += 1;
    if let Some(&m) = holders.meetings.get(&key) {
        return m;
    }
    let at = &holders.at;
    let set = &mut holders.slots[slot as usize];
    *probes += set.segments.len() as u64;
    set.segments
        .retain(|&(word, bit, _)| at.get(&(word, bit)) == Some(&slot));
    set.segments.sort_unstable();
    let mut masks: Vec<(u32, u64)> = Vec::new();
    for &(word, _, mask) in &set.segments {
        match masks.last_mut() {
            Some((w, bits)) if *w == word => *bits |= mask,
            _ => masks.push((word, mask)),
        }
    }
    let group = key.2.clone();
    let (mut words, mut formed) = (Vec::new(), Vec::new());
    let mut values = Vec::with_capacity(group.len());
    for &(word, mask) in &masks {
        values.clear();
        let mut value = 0u64;
        for &p in group.iter() {
            *probes += 1;
            let v = sets.value_at(p, word) & mask;
            if v != 0 {
                // A giant's word (all of it one segment): its contents
                // united, as a union of the parts would.
                value = if value == 0 { v } else { layout.combined(word, v, value) };
            }
            values.push(v);
        }
        if value == 0 {
            continue;
        }
        for (s, held) in layout.clashes_in(word, value) {
            *probes += 1;
            if values.iter().all(|&v| layout.held(s, v) != held) {
                formed.push((word, s as u32, held));
            }
        }
        words.push((word, value));
    }
    let set = sets.of_words(&words, layout);
    let m = joins.meetings.len() as u32;
    joins.meetings.push(PartsMeeting {
        set,
        masks: masks.into(),
        at: vec![(NONE, false); formed.len()],
        pending: (0..formed.len() as u32).collect(),
        formed: formed.into(),
        first: NONE,
        elsewhere: false,
    });
    joins.holders.meetings.insert(key, m);
    m
}

/// `part` without the segments the meetings `taken` took from it, or None
/// when two of them took bits of one word twice (a segment three parts
/// hold). O(their words x depth).
fn rest_of(
    sets: &mut Sets,
    layout: &Layout,
    meetings: &[PartsMeeting],
    part: SetId,
    taken: &[u32],
    probes: &mut u64,
) -> Option<SetId> {
    let mut masks: Vec<(u32, u64)> = Vec::new();
    for &m in taken {
        masks.extend_from_slice(&meetings[m as usize].masks);
    }
    *probes += masks.len() as u64;
    masks.sort_unstable_by_key(|m| m.0);
    let mut merged: Vec<(u32, u64)> = Vec::with_capacity(masks.len());
    for (word, mask) in masks {
        match merged.last_mut() {
            Some((w, bits)) if *w == word => {
                if *bits & mask != 0 {
                    return None;
                }
                *bits |= mask;
            }
            _ => merged.push((word, mask)),
        }
    }
    Some(sets.masked(part, &merged, layout))
}

/// `meeting_words` by pairs of parts: each pair not known apart (`apart`
/// both) compared once in the whole check, each contested word listed once;
/// the parts that hold them looked up only when the words are so many that
/// more than `most` parts could hold them.
fn compared(
    sets: &Sets,
    layout: &Layout,
    joins: &mut Joins,
    parts: &[(SetId, usize)],
    apart: &[bool],
    any_apart: bool,
    probes: &mut u64,
) -> Option<Met> {
    let most = 4 * parts.len();
    let interact = |w: u32, a: u64, b: u64| layout.interact_at(w, a, b);
    let mut met = Met::default();
    if any_apart {
        // Known apart, not looked at: held as parts, not united.
        met.shared_words = u32::MAX;
    }
    // At most `most + 1` words are listed (then it gives up): whether a
    // word is listed already is a look along them, with no table made.
    let mut contested: Vec<u32> = Vec::new();
    for (i, &(a, from_a)) in parts.iter().enumerate() {
        if apart[i] {
            continue; // looked at with the parts not known apart
        }
        for (j, &(b, from_b)) in parts.iter().enumerate() {
            if j == i || (j < i && !apart[j]) || (from_a == from_b && from_a != 0) {
                continue;
            }
            *probes += 1;
            let key = (a.min(b), a.max(b));
            // A meeting listed for fewer than `most` words and cut short
            // is listed again for this many (each pair once per `most`
            // it is asked for, at most the parts' count).
            let meeting = joins
                .met
                .entry(key)
                .or_insert_with(|| sets.contested(a, b, most, &interact));
            if meeting.overflow && meeting.contested.len() <= most {
                *meeting = sets.contested(a, b, most, &interact);
            }
            met.shared_words = met.shared_words.saturating_add(meeting.shared_words);
            for &word in &meeting.contested {
                *probes += 1;
                if !contested.contains(&word) {
                    contested.push(word);
                    if contested.len() > most {
                        return None;
                    }
                }
            }
        }
    }
    contested.sort_unstable();
    if contested.len() * (parts.len() - 1) > most {
        // Each part's value at each word (the same sets meet again in
        // other classes: each found once).
        let mut holders = Vec::with_capacity(contested.len());
        let mut meetings = 0;
        for &word in &contested {
            let mut at = Vec::new();
            for (i, &(p, _)) in parts.iter().enumerate() {
                *probes += 1;
                let v = *joins.values.entry((p, word)).or_insert_with(|| sets.value_at(p, word));
                if v != 0 {
                    at.push((i, v));
                }
            }
            meetings += at.len().saturating_sub(1);
            if meetings > most {
                return None;
            }
            holders.push(at);
        }
        met.holders = Some(holders);
    }
    met.contested = contested;
    Some(met)
}

/// `meeting_words` by the parts' words: per word, the parts that hold it, in
/// order; each that meets what those before it hold there counts (and the
/// walk stops once more than `most` do).
fn walked(sets: &Sets, layout: &Layout, parts: &[(SetId, usize)], probes: &mut u64) -> Option<Met> {
    let most = 4 * parts.len();
    let mut met = Met::default();
    // Per word: what the parts walked so far hold there, the first of them
    // (place, value), the others (an index into `more`, once there are),
    // and whether it is contested.
    let mut seen: Map<u32, (u64, (usize, u64), u32, bool)> = new_map();
    let mut more: Vec<Vec<(usize, u64)>> = Vec::new();
    let mut contested = Vec::new();
    let mut meetings = 0;
    let mut words = Vec::new();
    for (i, &(part, _)) in parts.iter().enumerate() {
        words.clear();
        sets.words_of(part, &mut words);
        for &(word, value) in &words {
            *probes += 1;
            let Some((held, first, others, is_contested)) = seen.get_mut(&word) else {
                seen.insert(word, (value, (i, value), u32::MAX, false));
                continue;
            };
            met.shared_words = met.shared_words.saturating_add(1);
            if *others == u32::MAX {
                *others = more.len() as u32;
                more.push(vec![*first]);
            }
            more[*others as usize].push((i, value));
            if layout.interact_at(word, *held, value) {
                meetings += 1;
                if meetings > most {
                    return None;
                }
                if !*is_contested {
                    *is_contested = true;
                    contested.push(word);
                }
            }
            *held |= value;
        }
    }
    contested.sort_unstable();
    let holders = (contested.iter())
        .map(|w| std::mem::take(&mut more[seen[w].2 as usize]))
        .collect();
    met.contested = contested;
    met.holders = Some(holders);
    Some(met)
}

/// What a walk over the parts of a shared base held as parts found, kept
/// for every class that joins that base again with inputs of its own
/// (`walked_on`).
struct Walk {
    /// Per word, the parts that hold it (places among the big parts, in
    /// order) and their values there.
    at: Map<u32, Vec<(usize, u64)>>,
    /// What the big parts alone count: words held twice or more, and
    /// meetings (at least as many with parts added: none then meets less).
    shared: u32,
    meetings: usize,
    /// The words where they meet, sorted.
    contested: Vec<u32>,
}

/// A word's parts, in order: how many hold it beyond the first, how many
/// of those meet what the parts before them hold there.
fn meetings_at(layout: &Layout, word: u32, values: impl Iterator<Item = u64>) -> (u32, usize) {
    let (mut held, mut shared, mut meetings) = (0u64, 0u32, 0usize);
    for value in values {
        if held != 0 {
            shared += 1;
            meetings += usize::from(layout.interact_at(word, held, value));
        }
        held |= value;
    }
    (shared, meetings)
}

/// `meeting_words` for a class that joins a shared base held as parts with
/// inputs of its own (`others`: places in `parts`, the rest the base's):
/// the base's walk (`Walk`) made once for all classes that have it, then
/// the other parts' words walked and, where the base has them too, each
/// such word's parts taken again in order. Answers as `walked` does, at the
/// cost, per class, of the base's parts (their number), the other parts'
/// words and the words where the parts meet: what adding those inputs to
/// a base held as one set costs. The base's words are walked once.
fn walked_on(
    sets: &Sets,
    layout: &Layout,
    joins: &mut Joins,
    parts: &[(SetId, usize)],
    others: &[usize],
    probes: &mut u64,
) -> Option<Met> {
    let most = 4 * parts.len();
    let mut big: Vec<usize> = Vec::with_capacity(parts.len() - others.len());
    let mut rest = others.iter().peekable();
    for i in 0..parts.len() {
        if rest.next_if_eq(&&i).is_none() {
            big.push(i);
        }
    }
    *probes += big.len() as u64;
    let key: Box<[SetId]> = big.iter().map(|&i| parts[i].0).collect();
    let walk = joins.walks.entry(key).or_insert_with(|| {
        let mut at: Map<u32, Vec<(usize, u64)>> = new_map();
        // Words held twice, in the order found (not the map's: the steps
        // counted must not depend on its seed).
        let mut twice = Vec::new();
        let mut words = Vec::new();
        for (k, &i) in big.iter().enumerate() {
            words.clear();
            sets.words_of(parts[i].0, &mut words);
            *probes += words.len() as u64;
            for &(word, value) in &words {
                let holders = at.entry(word).or_default();
                holders.push((k, value));
                if holders.len() == 2 {
                    twice.push(word);
                }
            }
        }
        let (mut shared, mut meetings, mut contested) = (0u32, 0usize, Vec::new());
        for &word in &twice {
            let holders = &at[&word];
            *probes += holders.len() as u64;
            let (s, m) = meetings_at(layout, word, holders.iter().map(|h| h.1));
            shared = shared.saturating_add(s);
            meetings += m;
            if m > 0 {
                contested.push(word);
            }
        }
        contested.sort_unstable();
        Walk {
            at,
            shared,
            meetings,
            contested,
        }
    });
    if walk.meetings > most {
        return None;
    }
    let (mut shared, mut meetings) = (walk.shared, walk.meetings);
    // The other parts' words, each with the parts that hold it, in order.
    let mut touched: Map<u32, Vec<(usize, u64)>> = new_map();
    let mut order = Vec::new();
    let mut words = Vec::new();
    for &i in others {
        words.clear();
        sets.words_of(parts[i].0, &mut words);
        for &(word, value) in &words {
            *probes += 1;
            let mine = touched.entry(word).or_insert_with(|| {
                order.push(word);
                Vec::new()
            });
            mine.push((i, value));
        }
    }
    let mut found: Vec<(u32, Vec<(usize, u64)>)> = Vec::new();
    for &word in &order {
        let mine = touched.get_mut(&word).expect("a word of another part");
        let theirs: Vec<(usize, u64)> = (walk.at.get(&word).into_iter().flatten())
            .map(|&(k, v)| (big[k], v))
            .collect();
        *probes += 1 + theirs.len() as u64;
        let (s, m) = meetings_at(layout, word, theirs.iter().map(|h| h.1));
        mine.extend_from_slice(&theirs);
        mine.sort_unstable_by_key(|h| h.0);
        let (s2, m2) = meetings_at(layout, word, mine.iter().map(|h| h.1));
        shared = shared.saturating_add(s2) - s;
        meetings += m2 - m;
        if meetings > most {
            return None;
        }
        if m2 > 0 {
            found.push((word, std::mem::take(mine)));
        }
    }
    // The base's own meetings, where no other part has words.
    for &word in &walk.contested {
        if touched.contains_key(&word) {
            continue;
        }
        let theirs = &walk.at[&word];
        *probes += theirs.len() as u64;
        found.push((word, theirs.iter().map(|&(k, v)| (big[k], v)).collect()));
    }
    found.sort_unstable_by_key(|f| f.0);
    let (contested, holders) = found.into_iter().unzip();
    Some(Met {
        shared_words: shared,
        contested,
        holders: Some(holders),
    })
}

/// `meeting_words` when all parts but `largest` are small: their words
/// walked, and looked up in it (what it holds elsewhere meets nothing), each
/// word's parts then taken in order as `walked` takes them.
fn walked_beside(
    sets: &Sets,
    layout: &Layout,
    parts: &[(SetId, usize)],
    largest: usize,
    probes: &mut u64,
) -> Option<Met> {
    let most = 4 * parts.len();
    let mut at: Map<u32, Vec<(usize, u64)>> = new_map();
    let mut order: Vec<u32> = Vec::new();
    let mut words = Vec::new();
    for (i, &(part, _)) in parts.iter().enumerate() {
        if i == largest {
            continue;
        }
        words.clear();
        sets.words_of(part, &mut words);
        for &(word, value) in &words {
            *probes += 1;
            let holders = at.entry(word).or_insert_with(|| {
                order.push(word);
                Vec::new()
            });
            holders.push((i, value));
        }
    }
    let mut met = Met::default();
    let mut meetings = 0;
    let mut contested = Vec::new();
    for word in order {
        let mut holders = at.remove(&word).unwrap_or_default();
        *probes += 1;
        let v = sets.value_at(parts[largest].0, word);
        if v != 0 {
            let place = holders.partition_point(|&(i, _)| i < largest);
            holders.insert(place, (largest, v));
        }
        let mut held = holders[0].1;
        let mut is_contested = false;
        for &(_, value) in &holders[1..] {
            met.shared_words = met.shared_words.saturating_add(1);
            if layout.interact_at(word, held, value) {
                meetings += 1;
                if meetings > most {
                    return None;
                }
                is_contested = true;
            }
            held |= value;
        }
        if is_contested {
            contested.push((word, holders));
        }
    }
    contested.sort_unstable_by_key(|c| c.0);
    let (words, holders) = contested.into_iter().unzip();
    met.contested = words;
    met.holders = Some(holders);
    Some(met)
}

/// Up to this many pairs of parts not known apart, pairs are compared (and
/// remembered); beyond, their words are.
const PAIRS_LOOKED_AT: usize = 64;

#[cfg(test)]
mod tests {
    //! The joining of classes held as parts, counted through whole checks
    //! (attack of session 26b: finds A, B and C).

    use crate::engine::check_text;
    use crate::{Budget, Config};

    /// A workflow being written: nodes and tool edges as JSON.
    #[derive(Default)]
    struct Doc {
        nodes: Vec<String>,
        edges: Vec<String>,
    }

    impl Doc {
        fn node(&mut self, id: &str, ty: &str, label: &str) {
            (self.nodes).push(format!(
                r#"{{"id": "{id}", "type": "{ty}", "data": {{"label": "{label}"}}}}"#
            ));
        }

        fn wire(&mut self, from: &str, to: &str) {
            self.edges.push(format!(
                r#"{{"source": "{from}", "target": "{to}", "data": {{"edgeType": "tool_availability"}}}}"#
            ));
        }

        /// A tool `id` labelled `label` into `into`.
        fn tool(&mut self, id: &str, label: &str, into: &str) {
            self.node(id, "tool", label);
            self.wire(id, into);
        }

        /// `boxes` boxes B{j} of `pairs` clashing pairs each, interleaved in
        /// name order (pair k of box j is "t{k} x{j}" / "T{k}-X{j}").
        fn pair_boxes(&mut self, boxes: usize, pairs: usize) -> Vec<String> {
            (0..boxes)
                .map(|j| {
                    let b = format!("B{j:02}");
                    self.node(&b, "toolbox", &b);
                    for k in 0..pairs {
                        self.tool(&format!("p{j:02}_{k:05}_0"), &format!("t{k:05} x{j:02}"), &b);
                        self.tool(&format!("p{j:02}_{k:05}_1"), &format!("T{k:05}-X{j:02}"), &b);
                    }
                    b
                })
                .collect()
        }

        fn text(&self) -> String {
            format!(
                r#"{{"nodes": [{}], "edges": [{}]}}"#,
                self.nodes.join(","),
                self.edges.join(",")
            )
        }
    }

    /// The violations of `doc`, and the work this module counts: probes,
    /// and the sets' nodes visited and made.
    fn counted(doc: &Doc) -> (u64, u64, u64) {
        let report = check_text(doc.text().as_bytes(), &Config::default(), Budget::full()).expect("a workflow");
        let collisions = &report.collisions;
        let work = collisions.work();
        let count = |name: &str| work.iter().find(|(n, _)| *n == name).map_or(0, |&(_, w)| w);
        (collisions.len(), count("probes"), count("set_nodes"))
    }

    /// The violations of `doc`, and its probes and sets' nodes together.
    fn joined(doc: &Doc) -> (u64, u64) {
        let (violations, probes, nodes) = counted(doc);
        (violations, probes + nodes)
    }

    /// Find A: 12 boxes of n / 4 interleaved pairs, each a box of its own
    /// tokens; n agents each wired to all 12 and to a box of its own
    /// holding a pair of its own. Each agent's 13 parts (78 pairs) are
    /// known apart: none is walked (before, all 12 boxes' words per agent).
    fn boxes_of_their_own(n: usize) -> Doc {
        let mut doc = Doc::default();
        let boxes = doc.pair_boxes(12, n / 4);
        for i in 0..n {
            let (a, p) = (format!("a{i:05}"), format!("P{i:05}"));
            doc.node(&a, "agent", &a);
            doc.node(&p, "toolbox", &p);
            doc.tool(&format!("o{i}a"), &format!("own {i}"), &p);
            doc.tool(&format!("o{i}b"), &format!("Own {i}"), &p);
            doc.wire(&p, &a);
            for b in &boxes {
                doc.wire(b, &a);
            }
        }
        doc
    }

    #[test]
    fn cmp9_agents_wired_to_many_boxes_of_their_own_walk_none_of_them() {
        // Probes: the walk was counted there; nothing is united either way.
        let (n, once, _) = counted(&boxes_of_their_own(100));
        assert_eq!(n, 100 * (12 * 25 + 1));
        let (n, twice, _) = counted(&boxes_of_their_own(200));
        assert_eq!(n, 200 * (12 * 50 + 1));
        // Before: 2.3x here, more at larger n (each agent walked the 12
        // boxes' words: n x 12 x n / 4 tokens).
        crate::work::assert_at_most_doubles(once, twice, "");
    }

    /// `boxes_of_their_own`, but each of the 12 boxes also holds a tool of a
    /// name that roams (its twin in a box Z, which an agent zz sees with all
    /// 12): none is a box of its own tokens, none known apart. The 12 are a
    /// shared base held as parts, joined again with each agent's own box:
    /// their walk is kept, and each agent walks only its own box's word.
    fn roaming_boxes(n: usize) -> Doc {
        let mut doc = boxes_of_their_own(n);
        doc.node("Z", "toolbox", "Z");
        doc.node("zz", "agent", "zz");
        for j in 0..12 {
            let b = format!("B{j:02}");
            doc.tool(&format!("r{j}"), &format!("Roam {j}"), &b);
            doc.tool(&format!("R{j}"), &format!("roam-{j}"), "Z");
            doc.wire(&b, "zz");
        }
        doc.wire("Z", "zz");
        doc
    }

    #[test]
    fn cmp9_agents_wired_to_a_base_of_many_roaming_boxes_walk_it_once() {
        let (n, once, _) = counted(&roaming_boxes(200));
        assert_eq!(n, 200 * (12 * 50 + 1) + 12 * 50 + 12);
        let (n, twice, _) = counted(&roaming_boxes(400));
        assert_eq!(n, 400 * (12 * 100 + 1) + 12 * 100 + 12);
        // Before: 2.6x (each agent walked the 12 boxes' words).
        crate::work::assert_at_most_doubles(once, twice, "");
    }

    /// Find B: 20 boxes of n / 4 interleaved pairs, each also holding a
    /// tool "Shared"; n agents each wired to a different 10 of them (drawn
    /// by a fixed generator). The 45 pairs of an agent's parts all meet at
    /// the one word of "Shared": counted once per part that holds it, it is
    /// 9 meetings, not 45 (which made each agent unite its 10 boxes).
    fn boxes_sharing_a_word(n: usize) -> Doc {
        let mut doc = Doc::default();
        let boxes = doc.pair_boxes(20, n / 4);
        for (j, b) in boxes.iter().enumerate() {
            doc.tool(&format!("s{j:02}"), "Shared", b);
        }
        let mut seed = 26u64;
        let mut seen = std::collections::HashSet::new();
        let mut i = 0;
        while i < n {
            let mut pick = 0u32;
            while pick.count_ones() < 10 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                pick |= 1 << ((seed >> 33) % 20);
            }
            if !seen.insert(pick) {
                continue;
            }
            let a = format!("a{i:05}");
            doc.node(&a, "agent", &a);
            for (j, b) in boxes.iter().enumerate() {
                if pick >> j & 1 != 0 {
                    doc.wire(b, &a);
                }
            }
            i += 1;
        }
        doc
    }

    #[test]
    fn cmp9_parts_that_all_meet_at_one_word_count_it_once_per_part() {
        // Each agent: its 10 boxes' pairs, and "Shared" (10 tools).
        let (n, once) = joined(&boxes_sharing_a_word(64));
        assert_eq!(n, 64 * (10 * 16 + 1));
        let (n, twice) = joined(&boxes_sharing_a_word(128));
        assert_eq!(n, 128 * (10 * 32 + 1));
        // Before: 3x (each agent's boxes united).
        crate::work::assert_at_most_doubles(once, twice, "");
    }

    /// Find C: one agent wired to n boxes; box j holds 5 clashing pairs,
    /// one in each of 5 blocks of names (the boxes interleave: held as
    /// parts), and a tool of a name it shares with box j + 1: the parts
    /// meet at about n / 5 words, each held by two of them.
    fn linked_boxes(n: usize) -> Doc {
        let mut doc = Doc::default();
        doc.node("agent", "agent", "agent");
        for j in 0..n {
            let b = format!("b{j}");
            doc.node(&b, "toolbox", &b);
            for q in 0..5 {
                doc.tool(&format!("p{j}.{q}"), &format!("t{q} b{j:06}"), &b);
                doc.tool(&format!("P{j}.{q}"), &format!("T{q}-B{j:06}"), &b);
            }
            doc.tool(&format!("l{j}"), &format!("t{} b{j:06} z", j % 5), &b);
            if j > 0 {
                doc.tool(&format!("m{j}"), &format!("T{}-B{:06}-Z", (j - 1) % 5, j - 1), &b);
            }
            doc.wire(&b, "agent");
        }
        doc
    }

    /// Session 27's ring: 16 boxes; name r * 16 + c (r < n / 16) is a tool
    /// in box c and one in box c - 1 (mod 16), so neighbouring boxes share
    /// a name in every row and every box holds tokens in every word. n
    /// agents each wired to a different 8 of the boxes (with `own`, also to
    /// a box of its own holding a pair of its own). With the violations
    /// that makes: per agent, a clash per row and pair of neighbours.
    fn ring_parts(n: usize, own: bool) -> (Doc, u64) {
        let mut doc = Doc::default();
        let rows = n / 16;
        let boxes: Vec<String> = (0..16).map(|j| format!("B{j:02}")).collect();
        for (j, b) in boxes.iter().enumerate() {
            doc.node(b, "toolbox", b);
            for r in 0..rows {
                for c in [j, (j + 1) % 16] {
                    let name = r * 16 + c;
                    doc.tool(&format!("b{j:02}.{name:07}"), &format!("N {name:07}"), b);
                }
            }
        }
        let subsets: Vec<u32> = (0u32..1 << 16).filter(|s| s.count_ones() == 8).collect();
        let mut violations = 0;
        for k in 0..n {
            let pick = subsets[k * 7919 % subsets.len()];
            let a = format!("a{k:05}");
            doc.node(&a, "agent", &a);
            for (j, b) in boxes.iter().enumerate() {
                if pick >> j & 1 != 0 {
                    doc.wire(b, &a);
                }
            }
            let neighbours = (0..16).filter(|&c| pick >> c & 1 != 0 && pick >> ((c + 15) % 16) & 1 != 0);
            violations += (rows * neighbours.count()) as u64;
            if own {
                let o = format!("O{k:05}");
                doc.node(&o, "toolbox", &o);
                doc.tool(&format!("o{k}a"), &format!("own {k}"), &o);
                doc.tool(&format!("o{k}b"), &format!("Own {k}"), &o);
                doc.wire(&o, &a);
                violations += 1;
            }
        }
        (doc, violations)
    }

    /// The violations of `doc` and the check's whole work.
    fn total(doc: &Doc) -> (u64, u64) {
        let report = check_text(doc.text().as_bytes(), &Config::default(), Budget::full()).expect("a workflow");
        let work = report.collisions.work();
        let total = work.iter().find(|(n, _)| *n == "total").map_or(0, |&(_, w)| w);
        (report.collisions.len(), total)
    }

    #[test]
    fn cmp9_parts_that_meet_in_every_word_are_held_by_pairs_met_once() {
        for own in [false, true] {
            let (doc, expected) = ring_parts(256, own);
            let (n, once) = total(&doc);
            assert_eq!(n, expected);
            let (doc, expected) = ring_parts(512, own);
            let (n, twice) = total(&doc);
            assert_eq!(n, expected);
            // Before: 4x (each agent united its 8 boxes: n x n / 32 words).
            crate::work::assert_at_most_doubles(once, twice, if own { "own: " } else { "" });
        }
    }

    /// Session 28's rings: `boxes` boxes; name r * boxes + c (r < n /
    /// boxes) is a tool in box c and in the `share - 1` boxes before it, so
    /// every box holds tokens in every word. n agents each wired to `pick`
    /// of the boxes (drawn by a fixed generator), and to `own` tools of
    /// their own named as ring names spread over the rows. With the
    /// violations that makes: per agent, one per name it holds twice.
    fn ring(n: usize, boxes: usize, share: usize, pick: usize, own: usize) -> (Doc, u64) {
        let mut doc = Doc::default();
        let rows = n / boxes;
        let boxes_named: Vec<String> = (0..boxes).map(|j| format!("B{j:02}")).collect();
        for (j, b) in boxes_named.iter().enumerate() {
            doc.node(b, "toolbox", b);
            for r in 0..rows {
                for d in 0..share {
                    let name = r * boxes + (j + d) % boxes;
                    doc.tool(&format!("b{j:02}.{name:07}"), &format!("N {name:07}"), b);
                }
            }
        }
        let mut seed = 28u64;
        let mut violations = 0;
        for k in 0..n {
            let mut pick_bits = 0u64;
            while (pick_bits.count_ones() as usize) < pick {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                pick_bits |= 1 << ((seed >> 33) % boxes as u64);
            }
            let a = format!("a{k:05}");
            doc.node(&a, "agent", &a);
            let mut held: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
            for (j, b) in boxes_named.iter().enumerate() {
                if pick_bits >> j & 1 != 0 {
                    doc.wire(b, &a);
                    for r in 0..rows {
                        for d in 0..share {
                            *held.entry(r * boxes + (j + d) % boxes).or_default() += 1;
                        }
                    }
                }
            }
            for t in 0..own {
                let name = (t * rows / own) * boxes + (k + t) % boxes;
                doc.tool(&format!("o{k:05}.{t:02}"), &format!("N {name:07}"), &a);
                *held.entry(name).or_default() += 1;
            }
            violations += held.values().filter(|&&count| count >= 2).count() as u64;
        }
        (doc, violations)
    }

    /// `ring` at n and 2n: the violations as expected, the check's work at
    /// most doubling.
    fn ring_doubles(n: usize, boxes: usize, share: usize, pick: usize, own: usize) {
        let (doc, expected) = ring(n, boxes, share, pick, own);
        let (found, once) = total(&doc);
        assert_eq!(found, expected);
        let (doc, expected) = ring(2 * n, boxes, share, pick, own);
        let (found, twice) = total(&doc);
        assert_eq!(found, expected);
        crate::work::assert_at_most_doubles(once, twice, "");
    }

    #[test]
    fn cmp9_a_name_held_by_three_parts_is_held_by_their_holders_meeting() {
        // Each agent holds 2 or 3 of a name's 3 boxes, or fewer. Before: 4x
        // (a segment three parts hold: each agent united its boxes).
        ring_doubles(512, 16, 3, 8, 0);
    }

    #[test]
    fn cmp9_more_than_64_pairs_of_parts_are_held_by_holders() {
        // 12 parts, 66 pairs. Before: 4x (past PAIRS_LOOKED_AT: united).
        ring_doubles(640, 20, 2, 12, 0);
    }

    #[test]
    fn cmp9_more_than_16_parts_are_held_by_holders() {
        // 18 parts of 24. Before: 4x (past MAX_PARTS: united).
        ring_doubles(768, 24, 2, 18, 0);
    }

    #[test]
    fn cmp9_own_tools_meeting_parts_held_by_holders_are_carved_out() {
        // 24 own tools per agent, named as ring names over the rows (many
        // agents' own tools of one name: giants' words). Before: 3.5x (the
        // inputs' union, once per combination).
        ring_doubles(512, 16, 2, 8, 24);
    }

    #[test]
    fn cmp9_a_contested_word_is_combined_over_the_parts_that_hold_it() {
        let (n, once) = joined(&linked_boxes(250));
        assert_eq!(n, 5 * 250 + 249);
        let (n, twice) = joined(&linked_boxes(500));
        assert_eq!(n, 5 * 500 + 499);
        // Before: 3x (every contested word over every part, and every
        // part's remainder keyed by all of them).
        crate::work::assert_at_most_doubles(once, twice, "");
    }
}
