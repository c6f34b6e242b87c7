//! CMP-9: the inputs of a class that another of its inputs holds whole,
//! found from the classes alone, before any set is made, so that they are
//! never joined (issue 20, family 37 `held-bases` of docs/RELIABILITY.md).
//!
//! A class's set is the union of its own tokens and its inputs' sets, so
//! every class holds whole the set of each class that reaches it. An
//! input `i` of class `c` that reaches another input `j` of `c` adds
//! nothing to `c`'s union, and nothing forms at `c` that it would have
//! settled: a clash `c` holds, `i` holding exactly its tokens, is held
//! with exactly those tokens by `j` too (`j` holds what `i` holds, and no
//! more than `c`). So `i` is left out of `c`'s inputs, which changes no
//! answer and skips a union that visits every word `i` holds where `j`'s
//! nodes are not `i`'s (agents wired to two big boxes and to a box of
//! their own that holds both whole: n / 64 words per agent).
//!
//! # Cost model
//!
//! Whether a class reaches another is a transitive closure, too dear to
//! know in full; a short walk up from the inputs finds what matters here.
//! Only an input that another class uses too can reach another input of the
//! class (it is an input of some class on the way there); a class of two
//! inputs or more with such an input walks up the inputs of its inputs, and
//! of theirs, looking for it, and stops when it has found every such input
//! below the highest one that has inputs, or after `WALK` steps. Classes
//! are numbered in topological order, so nothing numbered below the lowest
//! such input can reach one: the walk neither enters nor reads those (input
//! lists are sorted, read from the top down). A chain of classes that each
//! keep one input and feed nothing else (boxes of their own, each holding a
//! clashing pair, and each also fed by a box every one of them holds) is
//! one step: climbed once, its top kept (`Climbs`; what an input left out
//! reaches, the input that holds it reaches too, so the kept inputs are
//! enough to climb by). A walk that runs out of steps with inputs
//! still unfound asks instead what is above each input it started from
//! (`Above`): per class, the classes above it that two classes or more
//! use, at most `KNOWN` of them (the most used), made from its kept
//! inputs' entries once for all walks, and read in one step by any later
//! walk that enters the class, which climbs no further when the entry is
//! complete. So agents each below a long chain of boxes of two inputs
//! (each also fed by a box of its own) pay the chain once, not once each.
//! In all: O(inputs + `WALK`) per class, O(classes) for the plain chains,
//! and O(kept inputs x `KNOWN`) for the entries, made only above walks
//! that ran out; read, an entry costs its length (`KNOWN` at most) per
//! input list entry a walk reads. Counted as probes: the inputs looked at,
//! every input list entry a walk or an entry reads, every class climbed
//! past, every entry's classes. What is found is always right (a path of
//! inputs from one class to the other); what is not found is joined as
//! before: only the old cost, never a wrong answer. Not found: an input
//! reached only past the walk and cut from the entry above (more than
//! `KNOWN` classes used at least as much as it between them).

use super::flow::{Class, ClassIx, NONE};

/// The most input-list entries one class's walk reads.
const WALK: u64 = 32;

/// Every class's inputs (`classes` in topological order, as `Flow`
/// has them), without those another of its inputs is known to hold whole,
/// in the order of `Class::inputs`, one class after another: class `c`'s
/// are `kept[starts[c]..starts[c + 1]]`. `uses[i]`: how many classes have
/// class `i` as an input. Adds its steps to `probes`.
pub(super) fn kept_inputs(classes: &[Class], uses: &[u32], probes: &mut u64) -> (Vec<ClassIx>, Vec<usize>) {
    let mut kept: Vec<ClassIx> = Vec::new();
    let mut starts: Vec<usize> = Vec::with_capacity(classes.len() + 1);
    starts.push(0);
    // Per class, the last class that marked it as one of its inputs that
    // another class uses too, and the last whose walk entered it.
    let mut mark: Vec<ClassIx> = vec![NONE; classes.len()];
    let mut seen: Vec<ClassIx> = vec![NONE; classes.len()];
    let mut walk: Vec<ClassIx> = Vec::new();
    let mut climbs = Climbs {
        top: vec![NONE; classes.len()],
        chain: Vec::new(),
    };
    let mut above = Above::new(classes.len());
    let mut steps = 0u64;
    for (c, class) in classes.iter().enumerate() {
        let here = c as ClassIx;
        let inputs = &class.inputs[..];
        if inputs.len() < 2 {
            kept.extend_from_slice(inputs);
            starts.push(kept.len());
            continue;
        }
        // The highest input that has inputs of its own, and the lowest
        // below it that another class uses too: a walk can only find
        // something between the two, when there are both (a walk only
        // enters classes below where it starts).
        let fed = inputs
            .iter()
            .rposition(|&j| starts[j as usize + 1] > starts[j as usize]);
        let low = fed.and_then(|fed| inputs[..fed].iter().position(|&i| uses[i as usize] >= 2));
        steps += match (fed, low) {
            (Some(fed), Some(low)) => inputs.len() - fed + low + 1,
            _ => inputs.len(),
        } as u64;
        let (Some(fed), Some(low)) = (fed, low) else {
            kept.extend_from_slice(inputs);
            starts.push(kept.len());
            continue;
        };
        let lowest = inputs[low];
        let mut marked = 0usize;
        for &i in inputs[low..fed].iter().filter(|&&i| uses[i as usize] >= 2) {
            mark[i as usize] = here;
            marked += 1;
        }
        // Up from the inputs above the lowest marked one, until none is
        // left marked; a marked input the walk enters is held whole by
        // the input the walk started from.
        walk.clear();
        walk.extend_from_slice(&inputs[low + 1..=fed]);
        steps += (fed - low) as u64;
        let mut left = WALK;
        'walk: while let Some(x) = walk.pop() {
            for &a in classes[x as usize].inputs.iter().rev() {
                if left == 0 || marked == 0 {
                    break 'walk;
                }
                left -= 1;
                if a < lowest {
                    break;
                }
                // Past a chain of classes that only pass one input on.
                let a = climbs.top((&kept, &starts), uses, a, &mut steps);
                if a < lowest {
                    continue;
                }
                if mark[a as usize] == here {
                    mark[a as usize] = NONE;
                    marked -= 1;
                }
                // What is known above `a` found in one step; when that is
                // all that is there, the walk need not climb past it.
                let complete = match above.known(a) {
                    Some((found, complete)) => {
                        steps += found.len() as u64;
                        marked -= unmark(&mut mark, here, found);
                        complete
                    }
                    None => false,
                };
                if a > lowest && !complete && seen[a as usize] != here {
                    seen[a as usize] = here;
                    walk.push(a);
                }
            }
        }
        steps += WALK - left;
        // Out of steps with inputs still marked: what is above the inputs
        // the walk started from, each class's once for all walks.
        if marked > 0 && left == 0 {
            for &j in inputs[low + 1..=fed].iter().rev() {
                let (found, _) = above.of(j, (&kept, &starts), uses, &mut steps);
                steps += found.len() as u64;
                marked -= unmark(&mut mark, here, found);
                if marked == 0 {
                    break;
                }
            }
        }
        // Kept: every input not found, each looked at once more.
        steps += inputs.len() as u64;
        let found =
            |i: ClassIx| mark[i as usize] != here && uses[i as usize] >= 2 && (lowest..inputs[fed]).contains(&i);
        kept.extend(inputs.iter().copied().filter(|&i| !found(i)));
        starts.push(kept.len());
    }
    *probes += steps;
    (kept, starts)
}

/// Unmarks those of `found` marked by class `here`; returns how many.
fn unmark(mark: &mut [ClassIx], here: ClassIx, found: &[ClassIx]) -> usize {
    let mut unmarked = 0;
    for &f in found {
        if mark[f as usize] == here {
            mark[f as usize] = NONE;
            unmarked += 1;
        }
    }
    unmarked
}

/// The most classes used by others a class's entry in `Above` keeps.
const KNOWN: usize = 8;

/// Per class, the classes above it that two or more classes use (the
/// only ones a walk looks for), as far as known: at most `KNOWN` of them,
/// the most used first, and whether that is all of them. Made only where
/// a walk ran out of steps, from the entries of the class's kept inputs,
/// each class's once: O(kept inputs x `KNOWN`) in all. Each entry found
/// is a class above (a path of inputs leads to it), so what it says is
/// always right; one cut short only finds less, and a walk that meets it
/// climbs on as before.
struct Above {
    /// Per class, its entry in `found` (start, length) and whether it is
    /// complete; `NONE` when not made.
    at: Vec<(u32, u32, bool)>,
    found: Vec<ClassIx>,
    /// Classes whose entries are being made, in the order they are.
    stack: Vec<ClassIx>,
    gather: Vec<ClassIx>,
}

impl Above {
    fn new(classes: usize) -> Above {
        Above {
            at: vec![(NONE, 0, false); classes],
            found: Vec::new(),
            stack: Vec::new(),
            gather: Vec::new(),
        }
    }

    /// Class `x`'s entry, when made.
    fn known(&self, x: ClassIx) -> Option<(&[ClassIx], bool)> {
        let (start, len, complete) = self.at[x as usize];
        (start != NONE).then(|| (&self.found[start as usize..(start + len) as usize], complete))
    }

    /// Class `x`'s entry, made first (and the entries of the classes above
    /// it not made yet) from the inputs kept so far (`kept_inputs`): every
    /// class above `x` has its inputs kept by then, as `x` is below the
    /// class whose walk asks. Adds the entries read to `steps`.
    fn of(
        &mut self,
        x: ClassIx,
        (kept, starts): (&[ClassIx], &[usize]),
        uses: &[u32],
        steps: &mut u64,
    ) -> (&[ClassIx], bool) {
        let inputs = |y: ClassIx| &kept[starts[y as usize]..starts[y as usize + 1]];
        self.stack.push(x);
        while let Some(&y) = self.stack.last() {
            if self.at[y as usize].0 != NONE {
                self.stack.pop();
                continue;
            }
            // An input of a class is numbered below it: each class is
            // looked at twice at most, before and after its inputs' entries.
            let before = self.stack.len();
            for &a in inputs(y) {
                *steps += 1;
                if self.at[a as usize].0 == NONE {
                    self.stack.push(a);
                }
            }
            if self.stack.len() > before {
                continue;
            }
            self.stack.pop();
            self.gather.clear();
            let mut complete = true;
            for &a in inputs(y) {
                if uses[a as usize] >= 2 {
                    self.gather.push(a);
                }
                let (start, len, whole) = self.at[a as usize];
                self.gather
                    .extend_from_slice(&self.found[start as usize..(start + len) as usize]);
                complete &= whole;
            }
            *steps += self.gather.len() as u64;
            self.gather
                .sort_unstable_by_key(|&a| (std::cmp::Reverse(uses[a as usize]), a));
            self.gather.dedup();
            if self.gather.len() > KNOWN {
                self.gather.truncate(KNOWN);
                complete = false;
            }
            let start = self.found.len() as u32;
            self.found.extend_from_slice(&self.gather);
            self.at[y as usize] = (start, self.gather.len() as u32, complete);
        }
        let (start, len, complete) = self.at[x as usize];
        (&self.found[start as usize..(start + len) as usize], complete)
    }
}

/// Chains of *plain* classes: one input kept, and no other class uses them
/// (a box of its own below one box, holding a clashing pair), which a walk
/// passes through in one step. A plain class is never an input found held
/// whole (no other class uses it), and the only way up from it is its one
/// kept input, so a walk that reaches it may go on from the first class
/// above it that is not plain.
struct Climbs {
    /// Per plain class met so far, the first class above it that is not.
    top: Vec<ClassIx>,
    chain: Vec<ClassIx>,
}

impl Climbs {
    /// `a`, or the first class above it that is not plain when it is,
    /// given the inputs kept so far (`kept_inputs`). Each plain class is
    /// climbed past once, its top then kept: O(classes) over all walks,
    /// added to `steps`.
    fn top(&mut self, (kept, starts): (&[ClassIx], &[usize]), uses: &[u32], a: ClassIx, steps: &mut u64) -> ClassIx {
        let only = |x: ClassIx| match kept[starts[x as usize]..starts[x as usize + 1]] {
            [only] if uses[x as usize] < 2 => Some(only),
            _ => None,
        };
        let mut x = a;
        while let (Some(up), NONE) = (only(x), self.top[x as usize]) {
            *steps += 1;
            self.chain.push(x);
            x = up;
        }
        let top = if only(x).is_some() { self.top[x as usize] } else { x };
        for &c in &self.chain {
            self.top[c as usize] = top;
        }
        self.chain.clear();
        top
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Classes with these inputs, in topological order.
    fn classes(inputs: &[&[ClassIx]]) -> Vec<Class> {
        let mut classes: Vec<Class> = (inputs.iter())
            .map(|&inputs| Class {
                own: Box::new([]),
                inputs: inputs.into(),
                forwards: false,
                origin: None,
                origins: 1,
            })
            .collect();
        for i in inputs.iter().flat_map(|i| i.iter()) {
            classes[*i as usize].forwards = true;
        }
        classes
    }

    /// Each class's kept inputs, and the steps taken.
    fn kept(classes: &[Class]) -> (Vec<Vec<ClassIx>>, u64) {
        let mut uses = vec![0u32; classes.len()];
        for &i in classes.iter().flat_map(|c| c.inputs.iter()) {
            uses[i as usize] += 1;
        }
        let mut probes = 0;
        let (kept, starts) = kept_inputs(classes, &uses, &mut probes);
        (
            starts.windows(2).map(|run| kept[run[0]..run[1]].to_vec()).collect(),
            probes,
        )
    }

    #[test]
    fn cmp9_big_boxes_an_input_holds_through_another_box_are_not_joined() {
        // Family 37: I1 (0) and I2 (1) into F (2); each agent wired to
        // both and to a box of its own fed by F (3 and 5).
        let (kept, _) = kept(&classes(&[&[], &[], &[0, 1], &[2], &[0, 1, 3], &[2], &[0, 1, 5]]));
        assert_eq!(kept[2], [0, 1], "F's inputs hold nothing of each other");
        assert_eq!(kept[4], [3]);
        assert_eq!(kept[6], [5]);
    }

    #[test]
    fn cmp9_inputs_that_reach_no_other_input_are_all_kept() {
        // Two agents wired to the same three boxes, and an agent wired to
        // a box and to a box fed by another (not the first).
        let shape = classes(&[&[], &[], &[], &[0, 1, 2], &[0, 1, 2], &[1], &[0, 5]]);
        let (kept, _) = kept(&shape);
        assert_eq!(kept[3], [0, 1, 2]);
        assert_eq!(kept[6], [0, 5]);
    }

    /// Box 0 atop a chain of `links` boxes, each with one more input of
    /// its own (a side box, used by `side_uses` classes: the others are
    /// boxes of their own below it), then `agents` agents each wired to
    /// box 0 and to a box of its own below the chain's end. Each agent's
    /// kept inputs, and the steps taken.
    fn agents_below(links: usize, side_uses: usize, agents: usize) -> (Vec<Vec<ClassIx>>, u64) {
        let mut inputs: Vec<Vec<ClassIx>> = vec![vec![]];
        let mut last = 0;
        for _ in 0..links {
            let side = inputs.len() as ClassIx;
            inputs.push(vec![]);
            inputs.extend((1..side_uses).map(|_| vec![side]));
            inputs.push(vec![last, side]);
            last = inputs.len() as ClassIx - 1;
        }
        for _ in 0..agents {
            let own = inputs.len() as ClassIx;
            inputs.push(vec![last]);
            inputs.push(vec![0, own]);
        }
        let refs: Vec<&[ClassIx]> = inputs.iter().map(|i| &i[..]).collect();
        let (kept, steps) = kept(&classes(&refs));
        (
            kept[kept.len() - 2 * agents..]
                .iter()
                .skip(1)
                .step_by(2)
                .cloned()
                .collect(),
            steps,
        )
    }

    #[test]
    fn cmp9_an_input_reached_past_the_walk_is_found_by_what_is_known_above() {
        // Found by the walk while the chain is short, by what is known
        // above the agent's box past it.
        for links in [8, 100] {
            let (kept, steps) = agents_below(links, 1, 1);
            assert_eq!(kept[0].len(), 1, "box 0 reaches the chain's end: {kept:?}");
            // Each class of two inputs or more looks at them (twice at
            // most) and walks at most WALK steps; what is known above is
            // made once per class, from each kept input's entry.
            let classes = (2 * links + 3) as u64;
            assert!(
                steps <= classes * (4 + WALK) + classes * 2 * (KNOWN as u64 + 2),
                "{steps} steps"
            );
        }
    }

    #[test]
    fn cmp9_walks_past_the_walk_stop_where_it_is_known_what_is_above() {
        // The chain of boxes climbed once for all agents: each agent more
        // costs a few steps, not the chain's length (family 37 with a chain
        // of boxes each fed by a box of its own between F and each agent's
        // box: tests/test_worst_cases.py).
        let (kept, few) = agents_below(100, 1, 100);
        assert!(kept.iter().all(|k| k.len() == 1), "{kept:?}");
        let (kept, more) = agents_below(100, 1, 200);
        assert!(kept.iter().all(|k| k.len() == 1), "{kept:?}");
        assert!(more - few <= 100 * 12, "{} steps per agent more", (more - few) / 100);
    }

    #[test]
    fn cmp9_an_input_past_what_is_known_above_is_joined_as_before() {
        // Side boxes each used more than box 0 fill what is known above
        // the chain's end: box 0 is not found, and both inputs are kept
        // (only the old cost, never a wrong answer).
        let (kept, _) = agents_below(100, 3, 1);
        assert_eq!(kept[0].len(), 2, "past the walk and past what is known: {kept:?}");
        let (kept, _) = agents_below(3, 3, 1);
        assert_eq!(kept[0].len(), 1, "found by the walk: {kept:?}");
    }

    #[test]
    fn cmp9_a_chain_of_boxes_of_their_own_is_climbed_once() {
        // Family 37 with 1,000 boxes of their own between F (2) and each
        // agent's box: each agent's walk climbs the chain in one step, the
        // chain climbed once in all.
        let mut inputs: Vec<Vec<ClassIx>> = vec![vec![], vec![], vec![0, 1]];
        for link in 0..1_000 {
            inputs.push(vec![2 + link]);
        }
        let end = inputs.len() as ClassIx - 1;
        for _ in 0..100 {
            let own = inputs.len() as ClassIx;
            inputs.push(vec![end]);
            inputs.push(vec![0, 1, own]);
        }
        let refs: Vec<&[ClassIx]> = inputs.iter().map(|i| &i[..]).collect();
        let (kept, steps) = kept(&classes(&refs));
        for agent in (end as usize + 2..inputs.len()).step_by(2) {
            assert_eq!(kept[agent], [agent as ClassIx - 1]);
        }
        assert!(steps <= 1_000 + 100 * (10 + WALK), "{steps} steps");
    }

    #[test]
    fn cmp9_a_box_every_box_of_a_chain_holds_leaves_the_chain_plain() {
        // Family 37 with 100 boxes between F (2) and each agent's box, each
        // also fed by one box Q (3): each keeps only the box above it (which
        // holds Q whole), so the chain is climbed as one step.
        let mut inputs: Vec<Vec<ClassIx>> = vec![vec![], vec![], vec![0, 1], vec![]];
        let mut above = 2;
        for _ in 0..100 {
            inputs.push(vec![above.min(3), above.max(3)]);
            above = inputs.len() as ClassIx - 1;
        }
        for _ in 0..10 {
            let own = inputs.len() as ClassIx;
            inputs.push(vec![above]);
            inputs.push(vec![0, 1, own]);
        }
        let refs: Vec<&[ClassIx]> = inputs.iter().map(|i| &i[..]).collect();
        let (kept, _) = kept(&classes(&refs));
        assert_eq!(kept[5], [4], "Q is held whole by the box above");
        assert_eq!(kept[4], [2, 3], "the first box keeps F and Q");
        assert_eq!(kept[inputs.len() - 1], [inputs.len() as ClassIx - 2]);
    }
}
