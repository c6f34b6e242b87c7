//! The order of a site's calls (SEMANTICS 12): which workflow each id
//! names (an id two files define names none), which workflow each call
//! runs, and the workflows in call order by their strongly connected
//! components, so that the walk by states sees every chain into a workflow
//! before it leaves it; a component with a cycle is an error of the site
//! (CONFORMANCE decision 22) and no call inside it is followed.

use std::collections::BTreeMap;

use super::{SiteError, SiteWarning, Workflow};
use crate::maps::{new_map, Map};
use crate::quote::quote;

/// The workflow each id names; an id defined twice names none, and is an
/// error of the site.
pub(super) fn ids<'w>(workflows: &'w [Option<Workflow>], errors: &mut Vec<SiteError>) -> Map<&'w str, usize> {
    let mut all: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (w, wf) in workflows.iter().enumerate() {
        if let Some(id) = wf.as_ref().and_then(|wf| wf.id.as_deref()) {
            all.entry(id).or_default().push(w);
        }
    }
    let mut by_id = new_map();
    for (id, defined) in all {
        if let [only] = defined[..] {
            by_id.insert(id, only);
            continue;
        }
        let files: Vec<String> = defined
            .iter()
            .filter_map(|&w| workflows[w].as_ref().map(|wf| wf.file.clone()))
            .collect();
        errors.push(SiteError {
            message: format!(
                "workflow id {} is defined by {} files ({}): calls to it are not followed",
                quote(id),
                files.len(),
                files.join(", ")
            ),
            workflows: vec![id.to_owned()],
            files,
        });
    }
    by_id
}

/// Per workflow, per call node: the workflow it runs, when it is in the
/// site; a call out of the site is a warning on the caller.
pub(super) fn call_targets(
    workflows: &[Option<Workflow>],
    by_id: &Map<&str, usize>,
    warnings: &mut [Vec<SiteWarning>],
) -> Vec<Vec<Option<usize>>> {
    workflows
        .iter()
        .enumerate()
        .map(|(w, wf)| {
            let Some(wf) = wf else { return Vec::new() };
            wf.calls
                .iter()
                .map(|call| {
                    let target = by_id.get(call.runs.as_str()).copied();
                    if target.is_none() {
                        let node = &wf.nodes[call.node as usize];
                        warnings[w].push(SiteWarning {
                            code: "CMP-9-CALL-UNKNOWN",
                            node: node.id.clone(),
                            message: format!(
                                "node {} runs workflow {}, which is not among the workflows checked \
                                 (or is defined twice): tools wired to it are not checked against it",
                                quote(&node.id),
                                quote(&call.runs)
                            ),
                            location: node.location,
                        });
                    }
                    target
                })
                .collect()
        })
        .collect()
}

/// The workflows in call order: the strongly connected components of the
/// call graph (Tarjan's algorithm, without recursion), callers first.
pub(super) struct CallOrder {
    /// Per workflow, its component; components are numbered callers first,
    /// so a followed call always goes to a higher number.
    pub(super) component: Vec<usize>,
    /// Components with a cycle (two workflows or more, or a self-call).
    pub(super) cyclic: Vec<bool>,
    pub(super) members: Vec<Vec<usize>>,
}

impl CallOrder {
    pub(super) fn new(targets: &[Vec<Option<usize>>]) -> CallOrder {
        let n = targets.len();
        let succ = |w: usize| targets[w].iter().flatten().copied();
        const NONE: usize = usize::MAX;
        let (mut index, mut low, mut on_stack) = (vec![NONE; n], vec![0; n], vec![false; n]);
        let mut stack = Vec::new();
        let mut found: Vec<Vec<usize>> = Vec::new();
        let mut next = 0;
        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            // (workflow, how many of its call nodes were looked at): an
            // index, not a count of successors, so that resuming is one
            // step and a workflow with many calls is not rescanned per call.
            let mut frames = vec![(root, 0usize)];
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (w, ref mut at)) = frames.last_mut() {
                let calls = &targets[w];
                while *at < calls.len() && calls[*at].is_none() {
                    *at += 1;
                }
                if let Some(&Some(t)) = calls.get(*at) {
                    *at += 1;
                    if index[t] == NONE {
                        index[t] = next;
                        low[t] = next;
                        next += 1;
                        stack.push(t);
                        on_stack[t] = true;
                        frames.push((t, 0));
                    } else if on_stack[t] {
                        low[w] = low[w].min(index[t]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    low[parent] = low[parent].min(low[w]);
                }
                if low[w] == index[w] {
                    let mut members = Vec::new();
                    while let Some(m) = stack.pop() {
                        on_stack[m] = false;
                        members.push(m);
                        if m == w {
                            break;
                        }
                    }
                    members.sort_unstable();
                    found.push(members);
                }
            }
        }
        // Tarjan finds callees first: reversed, callers come first.
        found.reverse();
        let mut component = vec![0; n];
        for (c, members) in found.iter().enumerate() {
            for &m in members {
                component[m] = c;
            }
        }
        let cyclic = found
            .iter()
            .map(|members| members.len() > 1 || succ(members[0]).any(|t| t == members[0]))
            .collect();
        CallOrder {
            component,
            cyclic,
            members: found,
        }
    }

    /// A call from `from` to `to` is followed unless it stays in a cycle.
    pub(super) fn follows(&self, from: usize, to: usize) -> bool {
        self.component[from] != self.component[to]
    }

    /// One error per cycle of calls, naming its workflows.
    pub(super) fn cycle_errors(
        &self,
        workflows: &[Option<Workflow>],
        targets: &[Vec<Option<usize>>],
        errors: &mut Vec<SiteError>,
    ) {
        for (c, members) in self.members.iter().enumerate() {
            if !self.cyclic[c] {
                continue;
            }
            let named = |w: usize| {
                workflows[w].as_ref().map_or((String::new(), String::new()), |wf| {
                    (wf.id.clone().unwrap_or_else(|| wf.file.clone()), wf.file.clone())
                })
            };
            let mut on: Vec<(String, String)> = members.iter().map(|&w| named(w)).collect();
            on.sort();
            let (ids, files): (Vec<String>, Vec<String>) = on.into_iter().unzip();
            let calls = members
                .iter()
                .map(|&w| targets[w].iter().flatten().filter(|&&t| self.component[t] == c).count())
                .sum::<usize>();
            let listed: Vec<String> = ids.iter().map(|id| quote(id)).collect();
            errors.push(SiteError {
                message: format!(
                    "calls form a cycle through workflow{} {}: the {} call{} between them {} not followed \
                     (a workflow that runs itself, directly or not, never finishes)",
                    if ids.len() == 1 { "" } else { "s" },
                    listed.join(", "),
                    calls,
                    if calls == 1 { "" } else { "s" },
                    if calls == 1 { "is" } else { "are" },
                ),
                workflows: ids,
                files,
            });
        }
    }
}
