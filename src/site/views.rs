//! What a consumer inside a called workflow sees, per call (issue 22, for
//! `explain`): for workflow W, each node a `tool` input port of W hands a
//! caller's tools to (an endpoint, `facts::Endpoint`) and each call N of
//! another workflow P that runs W, the endpoint's own tools together with
//! the tools of P that reach N. That is the consumer's set in one copy of
//! W in P's expansion (SEMANTICS 12), one level deep: when P's own tool
//! ports reach N too, the callers of P hand N more tools, which a view
//! only counts (`outer_calls`). Following every chain of calls would list
//! a number of views exponential in the nesting; one level, asked of each
//! workflow in turn, shows every step of every chain.
//!
//! Everything comes from the site facts: no graph is read again. Which
//! calls count is what the site check follows (a call between two
//! workflows of one cycle group is not, nor one to a workflow id that two
//! files define). Cost: finding the calls into W and the calls into each
//! caller is one pass over the site's calls, made once for the whole site
//! ([`CallIndex`]); each view then costs the tools it lists (and their
//! sort), and is made only when asked for ([`CallViews`] is an iterator).

use super::facts::Upstream;
use super::{ids, path_part, place, workflow_name, CallOrder, CallStep, NodePlace, PathPart, Workflow};

/// A tool as a consumer inside a called workflow sees it in one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSeenTool {
    /// The tool name (SEMANTICS 5).
    pub name: String,
    /// The tool's node, in its own workflow.
    pub place: NodePlace,
    pub label: String,
    /// One part per workflow the tool crosses: `[leaf, ..., consumer]` for a
    /// tool of the called workflow; `[leaf, ..., N]` then `[I, ..., C]` for
    /// one of the caller's.
    pub path: Vec<PathPart>,
    /// Another tool of the same view has the same name (CMP-9).
    pub collides: bool,
}

/// What one consumer inside the explained workflow sees in one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallView {
    /// The consumer, in the explained workflow.
    pub consumer: NodePlace,
    /// The call: a node of another workflow that runs the explained one.
    pub call: CallStep,
    /// By name, then workflow, then id.
    pub tools: Vec<CallSeenTool>,
    /// The calls into the caller's workflow whose tools reach the call
    /// node too, through the caller's own tool ports (0 when its ports do
    /// not reach it, or nothing calls the caller): their tools are not
    /// listed, only counted.
    pub outer_calls: u64,
}

/// The calls into each workflow of a site that the site check follows,
/// found once for every workflow `call_views` is asked about: one pass over
/// the site's calls and ports.
#[derive(Debug, Clone, Default)]
pub struct CallIndex {
    /// Per workflow: (calling workflow, call node number, outer calls), by
    /// calling workflow id, then call node id.
    into: Vec<Vec<(usize, u32, u64)>>,
}

impl CallIndex {
    pub fn new(workflows: &[Option<Workflow>]) -> CallIndex {
        let targets = followed(workflows);
        let mut into: Vec<Vec<(usize, u32, u64)>> = vec![Vec::new(); workflows.len()];
        let counts: Vec<u64> = {
            let mut counts = vec![0u64; workflows.len()];
            for target in targets.iter().flatten().flatten() {
                counts[*target] += 1;
            }
            counts
        };
        for (p, wf) in workflows.iter().enumerate() {
            let Some(wf) = wf else { continue };
            // The calls this workflow's own tool ports reach: callers of it
            // hand those nodes more tools.
            let mut through_ports = vec![false; wf.calls.len()];
            for c in wf.endpoints.iter().filter_map(|e| e.call) {
                through_ports[c as usize] = true;
            }
            for (c, target) in targets[p].iter().enumerate() {
                if let Some(w) = *target {
                    let outer = if through_ports[c] { counts[p] } else { 0 };
                    into[w].push((p, c as u32, outer));
                }
            }
        }
        for calls in &mut into {
            calls.sort_by_cached_key(|&(p, c, _)| {
                let wf = workflows[p].as_ref().expect("calls are from read workflows");
                (
                    workflow_name(wf),
                    wf.nodes[wf.calls[c as usize].node as usize].id.clone(),
                    p,
                    c,
                )
            });
        }
        CallIndex { into }
    }

    /// How many followed calls run workflow `w`.
    pub fn calls_into(&self, w: usize) -> usize {
        self.into.get(w).map_or(0, Vec::len)
    }
}

/// The per-call views of workflow `explained` of `workflows` (None: a file
/// that could not be read), whose calls `index` holds, by consumer id and
/// then by calling workflow and node; only those of the consumer
/// `consumer` when given. A workflow that has no id, or is not called, has
/// none.
pub fn call_views<'s>(
    workflows: &'s [Option<Workflow>],
    index: &'s CallIndex,
    explained: usize,
    consumer: Option<&str>,
) -> CallViews<'s> {
    let calls: &[(usize, u32, u64)] = index.into.get(explained).map_or(&[], Vec::as_slice);
    let endpoints = match workflows.get(explained).and_then(Option::as_ref) {
        // A passthrough that runs a workflow hands tools on and is never a
        // consumer: no view of its own.
        Some(w) if !calls.is_empty() => (0..w.endpoints.len() as u32)
            .filter(|&e| {
                let end = &w.endpoints[e as usize];
                end.consumer && consumer.is_none_or(|id| w.nodes[end.node as usize].id == id)
            })
            .collect(),
        _ => Vec::new(),
    };
    CallViews {
        workflows,
        explained,
        endpoints,
        calls,
        next: 0,
    }
}

/// Per workflow, per call node: the workflow it runs when the site check
/// follows that call (it is in the site, its id is defined once, and the
/// call leaves its cycle group).
fn followed(workflows: &[Option<Workflow>]) -> Vec<Vec<Option<usize>>> {
    // The site's errors and warnings are the check's to report.
    let by_id = ids(workflows, &mut Vec::new());
    let targets: Vec<Vec<Option<usize>>> = workflows
        .iter()
        .map(|wf| {
            wf.as_ref().map_or_else(Vec::new, |wf| {
                wf.calls
                    .iter()
                    .map(|call| by_id.get(call.runs.as_str()).copied())
                    .collect()
            })
        })
        .collect();
    let order = CallOrder::new(&targets);
    targets
        .iter()
        .enumerate()
        .map(|(from, ts)| ts.iter().map(|t| t.filter(|&to| order.follows(from, to))).collect())
        .collect()
}

/// The views `call_views` makes, each when asked for: per endpoint, per
/// call.
pub struct CallViews<'s> {
    workflows: &'s [Option<Workflow>],
    explained: usize,
    endpoints: Vec<u32>,
    /// (calling workflow, call node number, outer calls), in the order shown.
    calls: &'s [(usize, u32, u64)],
    next: usize,
}

impl CallViews<'_> {
    /// How many calls into the explained workflow are followed.
    pub fn call_count(&self) -> usize {
        self.calls.len()
    }

    fn view(&self, endpoint: u32, call: usize) -> CallView {
        let w = self.workflows[self.explained]
            .as_ref()
            .expect("views are of a read workflow");
        let (p, c, outer_calls) = self.calls[call];
        let pf = self.workflows[p].as_ref().expect("calls are from read workflows");
        let end = &w.endpoints[endpoint as usize];
        let call_node = &pf.calls[c as usize];
        let tool = |wf: &Workflow, leaf: u32, path: Vec<PathPart>| CallSeenTool {
            name: wf.nodes[leaf as usize].name.clone(),
            place: place(wf, leaf),
            label: wf.nodes[leaf as usize].label.clone(),
            path,
            collides: false,
        };
        // A tool's path in its own workflow, `[leaf, box, ..., node]`: every
        // reach of an upstream has one (the walk that found it kept it).
        let path_in = |wf: &Workflow, up: &Upstream, leaf: u32, node: u32| {
            path_part(wf, &up.path(leaf, node).unwrap_or_else(|| vec![leaf, node]))
        };
        let own = &w.upstreams[end.own as usize];
        let theirs = &pf.upstreams[call_node.own as usize];
        let from_port = path_part(w, &w.from_port(endpoint as usize));
        let mut tools: Vec<CallSeenTool> = own
            .reaches
            .iter()
            .map(|r| tool(w, r.leaf, vec![path_in(w, own, r.leaf, end.node)]))
            .chain(theirs.reaches.iter().map(|r| {
                let path = vec![path_in(pf, theirs, r.leaf, call_node.node), from_port.clone()];
                tool(pf, r.leaf, path)
            }))
            .collect();
        tools.sort_by(|a, b| {
            (&a.name, &a.place.workflow, &a.place.node).cmp(&(&b.name, &b.place.workflow, &b.place.node))
        });
        for i in 1..tools.len() {
            if tools[i].name == tools[i - 1].name {
                tools[i].collides = true;
                tools[i - 1].collides = true;
            }
        }
        CallView {
            consumer: place(w, end.node),
            call: CallStep {
                place: place(pf, call_node.node),
                runs: call_node.runs.clone(),
            },
            tools,
            outer_calls,
        }
    }
}

impl Iterator for CallViews<'_> {
    type Item = CallView;

    fn next(&mut self) -> Option<CallView> {
        let calls = self.calls.len();
        if calls == 0 || self.next >= self.endpoints.len() * calls {
            return None;
        }
        let (e, c) = (self.next / calls, self.next % calls);
        self.next += 1;
        Some(self.view(self.endpoints[e], c))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.endpoints.len() * self.calls.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for CallViews<'_> {}

#[cfg(test)]
mod tests;
