//! CMP-9: the inputs of a class that are made of part of what another of
//! its inputs is made of, left out of its union like those `upstream`
//! finds held whole (issue 20, session 40).
//!
//! A class's set is the tokens of its own leaves and the union of its
//! inputs' sets. A leaf's token is the same at every class it enters
//! (`tokens`: a roaming name's leaves are grouped by the classes they
//! enter at, one token per group, held by each of those classes; a
//! settled name enters at one forwarding class only). So when class `x`'s
//! own leaves are among class `y`'s and its inputs among `y`'s inputs, `y`
//! holds every token `x` holds: `x` is *covered* by `y`. An input of a
//! class covered by another of its inputs adds nothing to the union and
//! settles nothing, as an input another reaches (see `upstream`): a clash
//! `x` holds with exactly some tokens, `y` holds with exactly those too,
//! `y` holding what `x` holds and no more than the class.
//!
//! The shape: a box and a near twin of it holding one tool more, both
//! wired into the same agents (`near_twins(own_tools=True)` in
//! tests/test_worst_cases.py). Neither reaches the other, and each agent
//! had twice the inputs: on `ring-three`, 16 parts meeting in every word,
//! which `build` unites per class, n / 64 words each.
//!
//! An input is left out for any cover, however few classes use it. Left
//! out for covers each shared by a few agents, a box every agent shares
//! no longer leads the agents' inputs (`build`'s shared bases); each
//! agent's covers are then held by the box they cover (`build`'s
//! `based_parts`), so no cost comes of it. Session 40 kept such a box for
//! covers fewer classes use, which left a box and its cover in one class,
//! holding one node of the sets: united once per combination of covers.
//!
//! Two distinct classes are never made of the same (`flow` makes one
//! class per distinct own leaves and inputs), so covering is a strict
//! order: of inputs covered by others, at least one that covers is never
//! covered itself, and is kept.
//!
//! # Cost model
//!
//! A class `x` that is a kept input of a class of two kept inputs or more
//! has its *covers* found once: the users of its rarest element (an input
//! class, or an own leaf, whichever the fewest classes are made of) are
//! the only classes that can cover it; when they are more than
//! `COVER_USERS`, none is looked for and `x` is kept (the answer is the
//! same, only the union dearer). Each candidate is checked by a binary
//! search per element of `x`: O(`COVER_USERS` x |x| log) per class, once.
//! Then each class's kept inputs are stamped and each one's covers looked
//! up: O(`COVER_USERS` x inputs). The users of every class and leaf are
//! indexed once, O(classes' inputs and own leaves), and only when some
//! class keeps two inputs or more.

use crate::graph::NodeIx;

use super::flow::{Class, ClassIx, NONE};

/// The most classes an element may be used by for a class made of it to
/// be looked at: more would make finding its covers cost their number per
/// class.
const COVER_USERS: usize = 16;

/// `order` and `starts` (each class's kept inputs, as `upstream` gives
/// them) without the inputs another kept input of the class covers. Adds
/// its steps to `probes`.
pub(super) fn drop_covered(
    classes: &[Class],
    order: Vec<ClassIx>,
    starts: Vec<usize>,
    probes: &mut u64,
) -> (Vec<ClassIx>, Vec<usize>) {
    if !starts.windows(2).any(|run| run[1] - run[0] >= 2) {
        return (order, starts);
    }
    let users = Users::of(classes, probes);
    let mut covers = Covers {
        at: vec![None; classes.len()],
        found: Vec::new(),
    };
    let mut stamp: Vec<ClassIx> = vec![NONE; classes.len()];
    let mut kept: Vec<ClassIx> = Vec::with_capacity(order.len());
    let mut kept_starts: Vec<usize> = Vec::with_capacity(starts.len());
    kept_starts.push(0);
    for (c, run) in starts.windows(2).enumerate() {
        let inputs = &order[run[0]..run[1]];
        if inputs.len() >= 2 {
            for &i in inputs {
                stamp[i as usize] = c as ClassIx;
            }
            *probes += inputs.len() as u64;
            for &i in inputs {
                let of_i = covers.of(i, classes, &users, probes);
                *probes += of_i.len() as u64;
                if !of_i.iter().any(|&y| stamp[y as usize] == c as ClassIx) {
                    kept.push(i);
                }
            }
        } else {
            kept.extend_from_slice(inputs);
        }
        kept_starts.push(kept.len());
    }
    (kept, kept_starts)
}

/// Per class and per own leaf, the classes made of it, in CSR form.
struct Users {
    of_class_starts: Vec<u32>,
    of_class: Vec<ClassIx>,
    /// Per leaf node number (up to the highest own leaf).
    of_leaf_starts: Vec<u32>,
    of_leaf: Vec<ClassIx>,
}

impl Users {
    fn of(classes: &[Class], probes: &mut u64) -> Users {
        let leaves = classes
            .iter()
            .flat_map(|c| c.own.iter())
            .map(|&l| l as usize + 1)
            .max()
            .unwrap_or(0);
        let (of_class_starts, of_class) = csr(classes.len(), classes, |c| &c.inputs);
        let (of_leaf_starts, of_leaf) = csr(leaves, classes, |c| &c.own);
        *probes += (of_class.len() + of_leaf.len()) as u64;
        Users {
            of_class_starts,
            of_class,
            of_leaf_starts,
            of_leaf,
        }
    }

    fn of_class(&self, a: ClassIx) -> &[ClassIx] {
        let a = a as usize;
        &self.of_class[self.of_class_starts[a] as usize..self.of_class_starts[a + 1] as usize]
    }

    fn of_leaf(&self, leaf: NodeIx) -> &[ClassIx] {
        let l = leaf as usize;
        &self.of_leaf[self.of_leaf_starts[l] as usize..self.of_leaf_starts[l + 1] as usize]
    }
}

/// Per key `0..keys`, the classes whose `made_of` list holds it.
fn csr(keys: usize, classes: &[Class], made_of: impl Fn(&Class) -> &[u32]) -> (Vec<u32>, Vec<ClassIx>) {
    let mut starts = vec![0u32; keys + 1];
    for class in classes {
        for &k in made_of(class) {
            starts[k as usize + 1] += 1;
        }
    }
    for k in 0..keys {
        starts[k + 1] += starts[k];
    }
    let mut next = starts.clone();
    let mut users = vec![NONE; starts[keys] as usize];
    for (c, class) in classes.iter().enumerate() {
        for &k in made_of(class) {
            users[next[k as usize] as usize] = c as ClassIx;
            next[k as usize] += 1;
        }
    }
    (starts, users)
}

/// Per class, once asked: the classes that cover it (see the module docs),
/// or none when its rarest element has more than `COVER_USERS` users.
struct Covers {
    at: Vec<Option<(u32, u32)>>,
    found: Vec<ClassIx>,
}

impl Covers {
    fn of(&mut self, x: ClassIx, classes: &[Class], users: &Users, probes: &mut u64) -> &[ClassIx] {
        let (from, to) = match self.at[x as usize] {
            Some(range) => range,
            None => {
                let from = self.found.len() as u32;
                self.find(x, classes, users, probes);
                let range = (from, self.found.len() as u32);
                self.at[x as usize] = Some(range);
                range
            }
        };
        &self.found[from as usize..to as usize]
    }

    fn find(&mut self, x: ClassIx, classes: &[Class], users: &Users, probes: &mut u64) {
        let made = &classes[x as usize];
        *probes += (made.inputs.len() + made.own.len()) as u64;
        let rarest = (made.inputs.iter().map(|&a| users.of_class(a)))
            .chain(made.own.iter().map(|&leaf| users.of_leaf(leaf)))
            .min_by_key(|users| users.len());
        let Some(candidates) = rarest.filter(|users| users.len() <= COVER_USERS) else {
            return;
        };
        for &y in candidates {
            let other = &classes[y as usize];
            if y == x || other.inputs.len() < made.inputs.len() || other.own.len() < made.own.len() {
                continue;
            }
            *probes += (made.inputs.len() + made.own.len()) as u64;
            let within = |part: &[u32], whole: &[u32]| part.iter().all(|e| whole.binary_search(e).is_ok());
            if within(&made.inputs, &other.inputs) && within(&made.own, &other.own) {
                self.found.push(y);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Classes made of these own leaves and inputs, in topological order.
    fn classes(made: &[(&[NodeIx], &[ClassIx])]) -> Vec<Class> {
        (made.iter())
            .map(|&(own, inputs)| Class {
                own: own.into(),
                inputs: inputs.into(),
                forwards: true,
                origin: None,
                origins: 1,
            })
            .collect()
    }

    /// Each class's inputs left once covered ones are dropped, and the
    /// steps taken; every class keeps all its inputs going in.
    fn inputs_kept(classes: &[Class]) -> (Vec<Vec<ClassIx>>, u64) {
        let order: Vec<ClassIx> = classes.iter().flat_map(|c| c.inputs.iter().copied()).collect();
        let starts: Vec<usize> = std::iter::once(0)
            .chain(classes.iter().scan(0, |at, c| {
                *at += c.inputs.len();
                Some(*at)
            }))
            .collect();
        let mut probes = 0;
        let (kept, starts) = drop_covered(classes, order, starts, &mut probes);
        let kept = starts.windows(2).map(|run| kept[run[0]..run[1]].to_vec()).collect();
        (kept, probes)
    }

    #[test]
    fn cmp9_a_box_its_near_twin_holds_with_a_tool_more_is_not_joined() {
        // Box 0 of tools 10 and 11; its near twin 1 fed by both and by
        // tool 12; agent 2 wired to both.
        let (kept, _) = inputs_kept(&classes(&[(&[10, 11], &[]), (&[10, 11, 12], &[]), (&[], &[0, 1])]));
        assert_eq!(kept[2], [1]);
    }

    #[test]
    fn cmp9_inputs_that_each_hold_something_the_other_does_not_are_both_joined() {
        let (kept, _) = inputs_kept(&classes(&[(&[10, 11], &[]), (&[10, 12], &[]), (&[], &[0, 1])]));
        assert_eq!(kept[2], [0, 1], "tool 11 is only in 0, tool 12 only in 1");
        let (kept, _) = inputs_kept(&classes(&[
            (&[10], &[]),
            (&[11], &[]),
            (&[12], &[0]),
            (&[12], &[1]),
            (&[], &[2, 3]),
        ]));
        assert_eq!(kept[4], [2, 3], "the same own tool, inputs apart");
    }

    #[test]
    fn cmp9_an_input_more_classes_use_than_its_cover_is_not_joined() {
        // Box 0 in every agent (3 to 6), each also wired to one of its
        // covers 1 and 2, which holds all of it.
        let (kept, _) = inputs_kept(&classes(&[
            (&[10], &[]),
            (&[10, 11], &[]),
            (&[10, 12], &[]),
            (&[], &[0, 1]),
            (&[], &[0, 1]),
            (&[], &[0, 2]),
            (&[], &[0, 2]),
        ]));
        assert_eq!(kept[3], [1]);
        assert_eq!(kept[5], [2]);
    }

    #[test]
    fn cmp9_of_a_chain_of_covers_only_the_widest_is_joined() {
        // 0 within 1 within 2, and 3 beside them: the agent keeps 2 and 3.
        let (kept, _) = inputs_kept(&classes(&[
            (&[10], &[]),
            (&[10, 11], &[]),
            (&[10, 11, 12], &[]),
            (&[13], &[]),
            (&[], &[0, 1, 2, 3]),
        ]));
        assert_eq!(kept[4], [2, 3]);
    }

    #[test]
    fn cmp9_an_input_covered_through_its_inputs_is_not_joined() {
        // Boxes 0 and 1; 2 fed by 0, 3 fed by 0 and 1 and a tool: 2 is in 3.
        let (kept, _) = inputs_kept(&classes(&[
            (&[10], &[]),
            (&[11], &[]),
            (&[12], &[0]),
            (&[12, 13], &[0, 1]),
            (&[], &[2, 3]),
        ]));
        assert_eq!(kept[4], [3]);
    }

    #[test]
    fn cmp9_a_class_of_an_element_used_by_many_is_kept_and_costs_no_more() {
        // Tool 10 into boxes 0..40, each with a tool of its own; box 40
        // holds 10 and box 0's tool too, so it covers box 0, but box 0's
        // rarest element (its own tool 100) is used by two: found. Boxes
        // fed by 10 alone would be looked for among 41 users: not looked.
        let mut made: Vec<(Vec<NodeIx>, Vec<ClassIx>)> = (0..40).map(|i| (vec![10, 100 + i], vec![])).collect();
        made.push((vec![10, 100, 999], vec![]));
        made.push((vec![10], vec![]));
        made.push((vec![], (0..42).collect()));
        let refs: Vec<(&[NodeIx], &[ClassIx])> = made.iter().map(|(o, i)| (&o[..], &i[..])).collect();
        let (kept, probes) = inputs_kept(&classes(&refs));
        let agent = &kept[42];
        assert!(!agent.contains(&0), "box 0 is within box 40");
        assert!(
            agent.contains(&41),
            "box 41 (tool 10 alone, used by 42 classes) is not looked at"
        );
        assert_eq!(agent.len(), 41);
        // Each class's elements, the users indexed, and the agent's 42
        // inputs, each with at most 16 candidates checked.
        let elements: u64 = refs.iter().map(|(o, i)| (o.len() + i.len()) as u64).sum();
        assert!(probes <= 2 * elements + 42 * (2 + 16 * 3), "{probes} steps");
    }
}
