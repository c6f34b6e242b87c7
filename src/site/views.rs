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
//! caller is one pass over the site's calls; each view then costs the
//! tools it lists (and their sort), and is made only when asked for
//! ([`CallViews`] is an iterator).

use super::facts::Reach;
use super::{ids, place, workflow_name, CallOrder, CallStep, NodePlace, PathPart, Workflow};

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

/// The per-call views of workflow `explained` of `workflows` (None: a file
/// that could not be read), by consumer id and then by calling workflow
/// and node; only those of the consumer `consumer` when given. A workflow
/// that has no id, or is not called, has none.
pub fn call_views<'s>(workflows: &'s [Option<Workflow>], explained: usize, consumer: Option<&str>) -> CallViews<'s> {
    let mut endpoints: Vec<u32> = Vec::new();
    let mut calls: Vec<(usize, u32)> = Vec::new();
    let mut outer: Vec<u64> = Vec::new();
    if let Some(w) = workflows.get(explained).and_then(Option::as_ref) {
        let targets = followed(workflows);
        // Calls into each workflow, for the callers' `outer_calls`.
        let mut into = vec![0u64; workflows.len()];
        for target in targets.iter().flatten().flatten() {
            into[*target] += 1;
        }
        for (p, wf) in workflows.iter().enumerate() {
            let Some(wf) = wf else { continue };
            for (c, target) in targets[p].iter().enumerate() {
                if *target == Some(explained) {
                    calls.push((p, c as u32));
                    let through_ports = wf.endpoints.iter().any(|e| e.call == Some(c as u32));
                    outer.push(if through_ports { into[p] } else { 0 });
                }
            }
        }
        let mut order: Vec<usize> = (0..calls.len()).collect();
        order.sort_by_cached_key(|&i| {
            let (p, c) = calls[i];
            let wf = workflows[p].as_ref().map(|wf| {
                (
                    workflow_name(wf),
                    wf.nodes[wf.calls[c as usize].node as usize].id.clone(),
                )
            });
            (wf, p, c)
        });
        calls = order.iter().map(|&i| calls[i]).collect();
        outer = order.iter().map(|&i| outer[i]).collect();
        if !calls.is_empty() {
            endpoints = (0..w.endpoints.len() as u32)
                .filter(|&e| consumer.is_none_or(|id| w.nodes[w.endpoints[e as usize].node as usize].id == id))
                .collect();
        }
    }
    CallViews {
        workflows,
        explained,
        endpoints,
        calls,
        outer,
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
    /// (calling workflow, call node number), in the order shown.
    calls: Vec<(usize, u32)>,
    outer: Vec<u64>,
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
        let (p, c) = self.calls[call];
        let pf = self.workflows[p].as_ref().expect("calls are from read workflows");
        let end = &w.endpoints[endpoint as usize];
        let call_node = &pf.calls[c as usize];
        let part = |wf: &Workflow, nodes: &[u32]| PathPart {
            workflow: workflow_name(wf),
            file: wf.file.clone(),
            nodes: nodes
                .iter()
                .map(|&n| (wf.nodes[n as usize].id.clone(), wf.nodes[n as usize].location))
                .collect(),
        };
        let tool = |wf: &Workflow, reach: &Reach, path: Vec<PathPart>| CallSeenTool {
            name: wf.nodes[reach.leaf as usize].name.clone(),
            place: place(wf, reach.leaf),
            label: wf.nodes[reach.leaf as usize].label.clone(),
            path,
            collides: false,
        };
        let mut tools: Vec<CallSeenTool> = end
            .own
            .iter()
            .map(|r| tool(w, r, vec![part(w, &r.path)]))
            .chain(
                call_node
                    .own
                    .iter()
                    .map(|r| tool(pf, r, vec![part(pf, &r.path), part(w, &end.from_port)])),
            )
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
            outer_calls: self.outer[call],
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
