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
//! Only an input that another class uses too can reach another input of
//! the class (it is an input of some class on the way there); a class of
//! two inputs or more with such an input walks up the inputs of its
//! inputs, and of theirs, looking for it. Classes are numbered in
//! topological order, so nothing numbered below the lowest such input
//! can reach one: the walk neither enters nor reads those (input lists
//! are sorted, read from the top down). And it stops after `WALK` steps.
//! So O(inputs) per class, counted as probes: the inputs looked at, and
//! every input list entry the walk reads. What is found is always right
//! (a path of inputs from one class to the other); what is not found is
//! joined as before: only the old cost, never a wrong answer.

use super::flow::{ClassIx, Flow, NONE};

/// The most input-list entries one class's walk reads.
const WALK: u64 = 32;

/// Every class's inputs, without those another of its inputs is known to
/// hold whole (in the order of `Class::inputs`), one class after another:
/// class `c`'s are `kept[starts[c]..starts[c + 1]]`. `uses[i]`: how many
/// classes have class `i` as an input. Adds its steps to `probes`.
pub(super) fn kept_inputs(flow: &Flow, uses: &[u32], probes: &mut u64) -> (Vec<ClassIx>, Vec<usize>) {
    let classes = &flow.classes;
    let mut kept: Vec<ClassIx> = Vec::new();
    let mut starts: Vec<usize> = Vec::with_capacity(classes.len() + 1);
    starts.push(0);
    // Per class, the last class that marked it as one of its inputs that
    // another class uses too, and the last whose walk entered it.
    let mut mark: Vec<ClassIx> = vec![NONE; classes.len()];
    let mut seen: Vec<ClassIx> = vec![NONE; classes.len()];
    let mut walk: Vec<ClassIx> = Vec::new();
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
        let fed = inputs.iter().rposition(|&j| !classes[j as usize].inputs.is_empty());
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
                if mark[a as usize] == here {
                    mark[a as usize] = NONE;
                    marked -= 1;
                }
                if a > lowest && seen[a as usize] != here {
                    seen[a as usize] = here;
                    walk.push(a);
                }
            }
        }
        // Kept: every input not found, each looked at once more.
        steps += WALK - left + inputs.len() as u64;
        let found =
            |i: ClassIx| mark[i as usize] != here && uses[i as usize] >= 2 && (lowest..inputs[fed]).contains(&i);
        kept.extend(inputs.iter().copied().filter(|&i| !found(i)));
        starts.push(kept.len());
    }
    *probes += steps;
    (kept, starts)
}
