//! CMP-9 across the workflows of a site (SEMANTICS 12): the tools wired to
//! a node that runs another workflow reach that workflow's nodes its `tool`
//! input ports name, and clash there with its own tools, calls nested to
//! any depth.
//!
//! SEMANTICS 12 defines the findings by inlining every call (a fresh copy
//! per call). Nothing is inlined here. What a consumer inside a called
//! workflow sees along one chain of calls `P:N -> W1:M1 -> ... -> X` is
//! the union of a few *own sets*: the tools of P that reach N, those of W1
//! that reach M1, ..., those of X that reach the consumer (each taken from
//! its workflow's graph once, in [`facts`]). A finding of P needs one of
//! P's tools, so only P's names matter along P's chains: the *state* a
//! chain carries into a workflow is, for each name of P's tools at the
//! first call, the tools of that name met so far. Chains that carry the
//! same state into the same workflow see the same things from there on,
//! so each distinct (workflow, state) is expanded once, with the number of
//! chains that reach it and one shortest chain, in one pass over the
//! workflows in call order (calls between the workflows of a cycle are not
//! followed, and the cycle is an error of the site). Findings that several
//! states give (the same tools meeting at the same consumer) are one, with
//! the sum of their chain counts.
//!
//! Cost model. Reading the facts costs one walk over passthroughs per
//! distinct list of providers among the call nodes and port endpoints
//! ([`facts`]; paths are read from the walks' trees only for findings).
//! Only names carried by tools of two workflows or more are kept. Then,
//! per calling workflow P, the work is the sum over the distinct states
//! its chains carry of (the state's size times the groups of followed
//! calls of the workflow it enters: calls running one workflow from one
//! list of providers carry a state once, their chains multiplied) plus the
//! findings those states give: never the number of chains (a million
//! chains of the same state are one state). Distinct states are few unless
//! the calls of one workflow bring different tools of one of P's names;
//! each distinct state is a distinct set of clashing tools, that is a
//! distinct finding. The work is counted in [`SiteWork`]; the limits are
//! in docs/RELIABILITY.md, "Sites".

use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::maps::{new_map, Map};

pub mod count;
pub mod facts;
mod findings;
mod order;
pub mod views;

pub use count::ChainCount;
pub use facts::{facts, Head, PortRef, SiteWarning, Workflow};
pub use findings::{CallFinding, CallStep, CallTool, NodePlace, PathPart, SiteError, SiteReport, SiteWork};
use order::{call_targets, ids, CallOrder};
pub use views::{call_views, CallIndex, CallSeenTool, CallView, CallViews};

/// A tool of the site: (workflow number << 32) | fact-node number.
type Leaf = u64;
type NameIx = u32;
/// Tools by name, both ascending.
type ByName = Vec<(NameIx, Vec<Leaf>)>;

fn leaf(workflow: usize, node: u32) -> Leaf {
    ((workflow as u64) << 32) | node as u64
}

fn workflow_of(leaf: Leaf) -> usize {
    (leaf >> 32) as usize
}

fn node_of(leaf: Leaf) -> u32 {
    leaf as u32
}

/// One workflow, ready for the walk: its own sets by candidate name.
struct Ready {
    /// Per call node: the workflow it runs, when that call is followed.
    follows: Vec<Option<usize>>,
    /// Per upstream of the facts: its tools of candidate names.
    own: Vec<ByName>,
    /// Per call node and per endpoint: its upstream.
    call_own: Vec<u32>,
    end_own: Vec<u32>,
    /// Endpoints that are consumers (not a passthrough that runs a
    /// workflow, which only hands tools on).
    consumers: Vec<u32>,
    /// Consumer endpoints by the candidate names of their own tools.
    by_name: Map<NameIx, Vec<u32>>,
    /// Endpoints that are call nodes whose call is followed, grouped by
    /// the workflow they run and their upstream: the calls of a group
    /// carry any state on alike, so each state is carried once per group
    /// (many calls fed by one box are one step, not one per call).
    passing: Vec<Passing>,
    /// Per call node, its endpoint when it is one.
    endpoint_of_call: Vec<Option<u32>>,
}

/// Calls of one workflow that run the same workflow fed by the same tools.
struct Passing {
    target: usize,
    upstream: u32,
    /// The call with the smallest node id: the one a shortest chain takes.
    first: u32,
    calls: u64,
}

/// Checks the calls between `workflows` (None: a file that could not be
/// read, which no call reaches).
pub fn check_site(workflows: &[Option<Workflow>]) -> SiteReport {
    let count = workflows.len();
    let mut report = SiteReport {
        calls: vec![Vec::new(); count],
        warnings: workflows
            .iter()
            .map(|w| w.as_ref().map_or_else(Vec::new, |w| w.warnings.clone()))
            .collect(),
        errors: Vec::new(),
        work: SiteWork {
            walked: workflows.iter().flatten().map(|w| w.walked).sum(),
            ..SiteWork::default()
        },
    };
    let by_id = ids(workflows, &mut report.errors);
    let targets = call_targets(workflows, &by_id, &mut report.warnings);
    let order = CallOrder::new(&targets);
    order.cycle_errors(workflows, &targets, &mut report.errors);
    let names = Names::of(workflows);
    let ready: Vec<Option<Ready>> = workflows
        .iter()
        .enumerate()
        .map(|(w, wf)| wf.as_ref().map(|wf| Ready::new(w, wf, &targets[w], &order, &names)))
        .collect();
    let site = Site {
        workflows,
        ready: &ready,
        order: &order,
        names: &names,
    };
    for (p, wf) in workflows.iter().enumerate() {
        if wf.is_some() {
            report.calls[p] = site.findings_of(p, &mut report.work);
        }
    }
    report
}

/// Tool names of the site, numbered; a name matters to calls only when
/// tools of two workflows or more carry it.
struct Names {
    numbers: Map<String, NameIx>,
    text: Vec<String>,
    /// Per name: carried by tools of two workflows or more.
    shared: Vec<bool>,
}

impl Names {
    fn of(workflows: &[Option<Workflow>]) -> Names {
        let mut names = Names {
            numbers: new_map(),
            text: Vec::new(),
            shared: Vec::new(),
        };
        let mut last_workflow: Vec<usize> = Vec::new();
        for (w, wf) in workflows.iter().enumerate() {
            let Some(wf) = wf else { continue };
            for reach in wf.upstreams.iter().flat_map(|u| &u.reaches) {
                let name = &wf.nodes[reach.leaf as usize].name;
                let n = match names.numbers.get(name) {
                    Some(&n) => n,
                    None => {
                        let n = names.text.len() as NameIx;
                        names.numbers.insert(name.clone(), n);
                        names.text.push(name.clone());
                        names.shared.push(false);
                        last_workflow.push(w);
                        n
                    }
                };
                if last_workflow[n as usize] != w {
                    names.shared[n as usize] = true;
                    last_workflow[n as usize] = w;
                }
            }
        }
        names
    }

    /// The shared-name tools of `own`, by name.
    fn by_name(&self, w: usize, wf: &Workflow, own: &[facts::Reach]) -> ByName {
        let mut pairs: Vec<(NameIx, Leaf)> = own
            .iter()
            .filter_map(|reach| {
                let n = self.numbers[&wf.nodes[reach.leaf as usize].name];
                self.shared[n as usize].then_some((n, leaf(w, reach.leaf)))
            })
            .collect();
        pairs.sort_unstable();
        let mut grouped: ByName = Vec::new();
        for (n, l) in pairs {
            match grouped.last_mut() {
                Some((last, leaves)) if *last == n => leaves.push(l),
                _ => grouped.push((n, vec![l])),
            }
        }
        grouped
    }
}

impl Ready {
    fn new(w: usize, wf: &Workflow, targets: &[Option<usize>], order: &CallOrder, names: &Names) -> Ready {
        let follows: Vec<Option<usize>> = targets.iter().map(|t| t.filter(|&t| order.follows(w, t))).collect();
        let own: Vec<ByName> = wf.upstreams.iter().map(|u| names.by_name(w, wf, &u.reaches)).collect();
        let call_own = wf.calls.iter().map(|c| c.own).collect();
        let end_own: Vec<u32> = wf.endpoints.iter().map(|e| e.own).collect();
        let consumers: Vec<u32> = (0..wf.endpoints.len() as u32)
            .filter(|&e| wf.endpoints[e as usize].consumer)
            .collect();
        let mut by_name: Map<NameIx, Vec<u32>> = new_map();
        for &e in &consumers {
            for (n, _) in &own[end_own[e as usize] as usize] {
                by_name.entry(*n).or_default().push(e);
            }
        }
        let mut endpoint_of_call = vec![None; wf.calls.len()];
        let mut passing: Vec<Passing> = Vec::new();
        let mut group: Map<(usize, u32), usize> = new_map();
        for (e, endpoint) in wf.endpoints.iter().enumerate() {
            let Some(c) = endpoint.call else { continue };
            endpoint_of_call[c as usize] = Some(e as u32);
            let Some(target) = follows[c as usize] else { continue };
            let upstream = wf.calls[c as usize].own;
            let id = |c: u32| &wf.nodes[wf.calls[c as usize].node as usize].id;
            match group.get(&(target, upstream)) {
                Some(&g) => {
                    let g = &mut passing[g];
                    g.calls += 1;
                    if id(c) < id(g.first) {
                        g.first = c;
                    }
                }
                None => {
                    group.insert((target, upstream), passing.len());
                    passing.push(Passing {
                        target,
                        upstream,
                        first: c,
                        calls: 1,
                    });
                }
            }
        }
        Ready {
            follows,
            own,
            call_own,
            end_own,
            consumers,
            by_name,
            passing,
            endpoint_of_call,
        }
    }
}

struct Site<'s> {
    workflows: &'s [Option<Workflow>],
    ready: &'s [Option<Ready>],
    order: &'s CallOrder,
    names: &'s Names,
}

/// A chain of calls: (workflow, call node number) from the caller on.
type Chain = Vec<(u32, u32)>;

/// Chains of calls carrying the same tools into the same workflow.
struct State {
    workflow: usize,
    carried: ByName,
    chains: ChainCount,
    shortest: Chain,
}

/// A finding before it is written out: (workflow, endpoint, name, tools).
type FindingKey = (usize, u32, NameIx, Vec<Leaf>);

impl Site<'_> {
    fn workflow(&self, w: usize) -> &Workflow {
        self.workflows[w].as_ref().expect("only read workflows are called")
    }

    fn ready(&self, w: usize) -> &Ready {
        self.ready[w].as_ref().expect("only read workflows are called")
    }

    /// The call findings of workflow `p`.
    fn findings_of(&self, p: usize, work: &mut SiteWork) -> Vec<CallFinding> {
        let ready = self.ready(p);
        let mut states: Vec<State> = Vec::new();
        let mut known: Map<(usize, ByName), usize> = new_map();
        // States waiting, by the component of their workflow: a followed
        // call always goes to a later component, so taking the lowest first
        // sees every chain into a state before the state is expanded.
        let mut waiting: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        // Calls of one workflow that share their upstream (fed by the same
        // box) carry the same state: its key is made once for them all.
        let mut by_upstream: Map<(usize, u32), usize> = new_map();
        for (c, &set) in ready.call_own.iter().enumerate() {
            let own = &ready.own[set as usize];
            let (Some(target), false) = (ready.follows[c], own.is_empty()) else {
                continue;
            };
            let chain = vec![(p as u32, c as u32)];
            if let Some(&s) = by_upstream.get(&(target, set)) {
                let state = &mut states[s];
                state.chains.add(&ChainCount::one());
                if self.shorter(&chain, &state.shortest) {
                    state.shortest = chain;
                }
                continue;
            }
            work.arrivals += 1;
            let s = self.arrive(
                (target, own.clone()),
                &ChainCount::one(),
                chain,
                &mut states,
                &mut known,
                &mut waiting,
            );
            by_upstream.insert((target, set), s);
        }
        let mut found: BTreeMap<FindingKey, (ChainCount, Chain)> = BTreeMap::new();
        while let Some((_, batch)) = waiting.pop_first() {
            for s in batch {
                work.states += 1;
                work.state_names += states[s].carried.len() as u64;
                self.expand(p, s, &mut states, &mut known, &mut waiting, &mut found, work);
            }
        }
        let mut findings: Vec<CallFinding> = found
            .into_iter()
            .map(|(key, (chains, chain))| self.written(key, chains, &chain))
            .collect();
        findings.sort_by(|a, b| {
            (&a.chain[0].place.node, &a.consumer.workflow, &a.consumer.node, &a.name)
                .cmp(&(&b.chain[0].place.node, &b.consumer.workflow, &b.consumer.node, &b.name))
                .then_with(|| tool_keys(a).cmp(tool_keys(b)))
        });
        findings
    }

    /// Chains `chains` arrive, the shortest being `chain`, in a state: its
    /// number.
    fn arrive(
        &self,
        key: (usize, ByName),
        chains: &ChainCount,
        chain: Chain,
        states: &mut Vec<State>,
        known: &mut Map<(usize, ByName), usize>,
        waiting: &mut BTreeMap<usize, Vec<usize>>,
    ) -> usize {
        if let Some(&s) = known.get(&key) {
            let state = &mut states[s];
            state.chains.add(chains);
            if self.shorter(&chain, &state.shortest) {
                state.shortest = chain;
            }
            return s;
        }
        let s = states.len();
        waiting.entry(self.order.component[key.0]).or_default().push(s);
        states.push(State {
            workflow: key.0,
            carried: key.1.clone(),
            chains: chains.clone(),
            shortest: chain,
        });
        known.insert(key, s);
        s
    }

    /// Fewer calls first; then by the ids of the workflows and nodes.
    fn shorter(&self, a: &Chain, b: &Chain) -> bool {
        let ids = |chain: &Chain| -> Vec<(&str, &str)> {
            chain
                .iter()
                .map(|&(w, c)| {
                    let wf = self.workflow(w as usize);
                    (
                        wf.id.as_deref().unwrap_or(&wf.file),
                        &*wf.nodes[wf.calls[c as usize].node as usize].id,
                    )
                })
                .collect()
        };
        a.len().cmp(&b.len()).then_with(|| ids(a).cmp(&ids(b))) == Ordering::Less
    }

    /// What the chains of state `s` find in its workflow, and the states
    /// they carry on into the workflows it calls.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        p: usize,
        s: usize,
        states: &mut Vec<State>,
        known: &mut Map<(usize, ByName), usize>,
        waiting: &mut BTreeMap<usize, Vec<usize>>,
        found: &mut BTreeMap<FindingKey, (ChainCount, Chain)>,
        work: &mut SiteWork,
    ) {
        let x = states[s].workflow;
        let ready = self.ready(x);
        let carried = std::mem::take(&mut states[s].carried);
        let chains = states[s].chains.clone();
        let shortest = states[s].shortest.clone();
        let mut note = |key: FindingKey| {
            work.contributions += 1;
            match found.get_mut(&key) {
                Some((count, best)) => {
                    count.add(&chains);
                    if self.shorter(&shortest, best) {
                        *best = shortest.clone();
                    }
                }
                None => {
                    found.insert(key, (chains.clone(), shortest.clone()));
                }
            }
        };
        for (name, above) in &carried {
            // Tools of another workflow already carried: they meet P's at
            // every endpoint; otherwise only where X's own tools of the name
            // are.
            let met_already = above.iter().any(|&l| workflow_of(l) != p);
            let endpoints: Box<dyn Iterator<Item = u32>> = if met_already {
                Box::new(ready.consumers.iter().copied())
            } else {
                Box::new(ready.by_name.get(name).into_iter().flatten().copied())
            };
            for e in endpoints {
                let own = own_of(&ready.own[ready.end_own[e as usize] as usize], *name);
                note((x, e, *name, union(above, own)));
            }
        }
        for group in &ready.passing {
            let own = &ready.own[group.upstream as usize];
            let next: ByName = carried
                .iter()
                .map(|(n, above)| (*n, union(above, own_of(own, *n))))
                .collect();
            let mut chain = shortest.clone();
            chain.push((x as u32, group.first));
            let through = chains.times(group.calls);
            work.arrivals += 1;
            self.arrive((group.target, next), &through, chain, states, known, waiting);
        }
        states[s].carried = carried;
    }

    /// A finding as it is reported.
    fn written(&self, key: FindingKey, chains: ChainCount, chain: &Chain) -> CallFinding {
        let (x, e, name, leaves) = key;
        let xf = self.workflow(x);
        let endpoint = &xf.endpoints[e as usize];
        let steps: Vec<CallStep> = chain
            .iter()
            .map(|&(w, c)| {
                let wf = self.workflow(w as usize);
                let call = &wf.calls[c as usize];
                CallStep {
                    place: place(wf, call.node),
                    runs: call.runs.clone(),
                }
            })
            .collect();
        let mut tools: Vec<CallTool> = leaves
            .iter()
            .map(|&l| {
                let (w, node) = (workflow_of(l), node_of(l));
                let wf = self.workflow(w);
                CallTool {
                    place: place(wf, node),
                    label: wf.nodes[node as usize].label.clone(),
                    path: self.path_of(l, chain, x, e),
                }
            })
            .collect();
        tools.sort_by(|a, b| (&a.place.workflow, &a.place.node).cmp(&(&b.place.workflow, &b.place.node)));
        CallFinding {
            name: self.names.text[name as usize].clone(),
            chains,
            chain: steps,
            consumer: place(xf, endpoint.node),
            tools,
        }
    }

    /// The path of tool `l` along `chain` to endpoint `e` of workflow `x`:
    /// from the tool to the call node in its own workflow, then from a port
    /// to the next call node (or to the consumer) in each workflow called.
    fn path_of(&self, l: Leaf, chain: &Chain, x: usize, e: u32) -> Vec<PathPart> {
        let (w, node) = (workflow_of(l), node_of(l));
        let reach_in =
            |wf: &Workflow, own: u32, to: u32| wf.upstreams[own as usize].path(node, to).unwrap_or_else(|| vec![node]);
        let mut parts = Vec::new();
        let start = chain.iter().position(|&(cw, _)| cw as usize == w);
        match start {
            Some(i) => {
                let wf = self.workflow(w);
                let call = &wf.calls[chain[i].1 as usize];
                parts.push(path_part(wf, &reach_in(wf, call.own, call.node)));
                for &(cw, c) in &chain[i + 1..] {
                    let cf = self.workflow(cw as usize);
                    let through = self.ready(cw as usize).endpoint_of_call[c as usize].expect("a passing call");
                    parts.push(path_part(cf, &cf.from_port(through as usize)));
                }
                let xf = self.workflow(x);
                parts.push(path_part(xf, &xf.from_port(e as usize)));
            }
            None => {
                let xf = self.workflow(x);
                let end = &xf.endpoints[e as usize];
                parts.push(path_part(xf, &reach_in(xf, end.own, end.node)));
            }
        }
        parts
    }
}

fn tool_keys(f: &CallFinding) -> impl Iterator<Item = (&str, &str)> + '_ {
    f.tools.iter().map(|t| (&*t.place.workflow, &*t.place.node))
}

/// The nodes `nodes` of `wf` as one part of a path across workflows.
pub(crate) fn path_part(wf: &Workflow, nodes: &[u32]) -> PathPart {
    PathPart {
        workflow: workflow_name(wf),
        file: wf.file.clone(),
        nodes: nodes
            .iter()
            .map(|&n| (wf.nodes[n as usize].id.clone(), wf.nodes[n as usize].location))
            .collect(),
    }
}

fn workflow_name(wf: &Workflow) -> String {
    wf.id.clone().unwrap_or_else(|| wf.file.clone())
}

fn place(wf: &Workflow, node: u32) -> NodePlace {
    let n = &wf.nodes[node as usize];
    NodePlace {
        workflow: workflow_name(wf),
        file: wf.file.clone(),
        node: n.id.clone(),
        location: n.location,
    }
}

/// The tools of `own` named `name`.
fn own_of(own: &ByName, name: NameIx) -> &[Leaf] {
    own.binary_search_by_key(&name, |(n, _)| *n).map_or(&[], |i| &own[i].1)
}

/// Two ascending lists of tools as one.
fn union(a: &[Leaf], b: &[Leaf]) -> Vec<Leaf> {
    let mut all = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => {
                all.push(a[i]);
                i += 1;
            }
            Ordering::Greater => {
                all.push(b[j]);
                j += 1;
            }
            Ordering::Equal => {
                all.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    all.extend_from_slice(&a[i..]);
    all.extend_from_slice(&b[j..]);
    all
}

#[cfg(test)]
mod tests;
