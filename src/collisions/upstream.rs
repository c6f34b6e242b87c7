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
//! know in full. Each class that forwards keeps instead at most `KEPT`
//! classes known to reach it, the most used first: only a class that is
//! an input of two classes or more can be an input of a class and reach
//! another of its inputs (it is an input of some class on the way there
//! too), and the more classes use one, the more may skip it. The lists
//! are made in topological order, a class's from its inputs and their
//! lists; a class with one input that no other class uses shares that
//! input's list. Then a class of two inputs or more looks up every input's
//! list once. O(KEPT x inputs) in all, counted as probes. What is found is
//! always right (a path of inputs from one class to the other); what is
//! not found is joined as before: only the old cost, never a wrong answer.

use std::cmp::Reverse;

use super::flow::{ClassIx, Flow, NONE};

/// The most classes a class keeps as known to reach it.
const KEPT: usize = 8;

/// Every class's inputs, without those another of its inputs is known to
/// hold whole (in the order of `Class::inputs`), one class after another:
/// class `c`'s are `kept[starts[c]..starts[c + 1]]`. `uses[i]`: how many
/// classes have class `i` as an input. Adds its steps to `probes`.
pub(super) fn kept_inputs(flow: &Flow, uses: &[u32], probes: &mut u64) -> (Vec<ClassIx>, Vec<usize>) {
    let classes = &flow.classes;
    let mut kept: Vec<ClassIx> = Vec::new();
    let mut starts: Vec<usize> = Vec::with_capacity(classes.len() + 1);
    starts.push(0);
    // Per class, the classes known to reach it: `above[at.0..at.1]`.
    let mut above: Vec<ClassIx> = Vec::new();
    let mut above_at: Vec<(u32, u32)> = vec![(0, 0); classes.len()];
    // Per class, the last class that marked it as one of its inputs, and
    // the last that found it reaching one of its inputs.
    let mut mark: Vec<ClassIx> = vec![NONE; classes.len()];
    let mut seen: Vec<ClassIx> = vec![NONE; classes.len()];
    let mut found: Vec<ClassIx> = Vec::new();
    let mut steps = 0u64;
    for (c, class) in classes.iter().enumerate() {
        let here = c as ClassIx;
        let inputs = &class.inputs[..];
        if inputs.len() >= 2 {
            // Inputs marked, then unmarked when another input's list
            // holds them: what stays marked is kept.
            for &i in inputs {
                mark[i as usize] = here;
            }
            for &j in inputs {
                let range = list(&above_at, j);
                steps += 1 + range.len() as u64;
                for &a in &above[range] {
                    if mark[a as usize] == here {
                        mark[a as usize] = NONE;
                    }
                }
            }
            kept.extend(inputs.iter().filter(|&&i| mark[i as usize] == here));
            steps += inputs.len() as u64;
        } else {
            kept.extend_from_slice(inputs);
        }
        starts.push(kept.len());
        if !class.forwards {
            continue;
        }
        // The classes known to reach this one: its inputs that another
        // class uses too, and what reaches its inputs, each once, the
        // most used first, at most KEPT of them.
        if let [only] = inputs {
            if uses[*only as usize] < 2 {
                above_at[c] = above_at[*only as usize];
                continue;
            }
        }
        found.clear();
        for &i in inputs {
            let range = list(&above_at, i);
            steps += 1 + range.len() as u64;
            let reaching = std::iter::once(i).filter(|&i| uses[i as usize] >= 2);
            for a in reaching.chain(above[range].iter().copied()) {
                if seen[a as usize] != here {
                    seen[a as usize] = here;
                    found.push(a);
                }
            }
        }
        let rank = |&a: &ClassIx| (Reverse(uses[a as usize]), a);
        if found.len() > KEPT {
            found.select_nth_unstable_by_key(KEPT, rank);
            found.truncate(KEPT);
        }
        found.sort_unstable_by_key(rank);
        steps += found.len() as u64;
        let lo = above.len() as u32;
        above.extend_from_slice(&found);
        above_at[c] = (lo, above.len() as u32);
    }
    *probes += steps;
    (kept, starts)
}

/// Where class `i`'s list of the classes known to reach it is.
fn list(above_at: &[(u32, u32)], i: ClassIx) -> std::ops::Range<usize> {
    let (lo, hi) = above_at[i as usize];
    lo as usize..hi as usize
}
