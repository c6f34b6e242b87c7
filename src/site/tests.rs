//! The site check on small sites built by hand: each test is one sentence
//! of SEMANTICS 12. (The differential tests against the inlining reference
//! are in tests/test_site.py.) Long, as a list of such sentences is: each
//! test stands alone on the one toy notation at the top.

use std::sync::Arc;

use super::{check_site, facts, ChainCount, Head, PortRef, SiteReport, Workflow};
use crate::catalogue::{Catalogue, Form};
use crate::config::Config;
use crate::parse::parse;

/// Node types: `agent` accepts tools, `kit` is a Tool Box, `run_<w>` runs
/// workflow `<w>` for each name given.
fn catalogue(runs: &[&str]) -> Arc<Catalogue> {
    let mut c = Catalogue::default();
    let mut add = |id: &str, body: &str| {
        let text = format!("id: {id}\nparameters:\n  tool:\n    connectable: true\n{body}");
        c.add(&format!("{id}.yml"), text.as_bytes(), Form::DrupalYaml).unwrap();
    };
    add("agent", "executor_plugin: 'flowdrop_node_processor:agent'\n");
    add("kit", "executor_plugin: 'flowdrop_node_processor:toolbox'\n");
    for w in runs {
        add(
            &format!("run_{w}"),
            &format!("executor_plugin: 'flowdrop_workflow_executor:flowdrop_workflow:{w}'\n"),
        );
    }
    Arc::new(c)
}

/// A workflow in the toy notation: nodes `id:type:label` (type and label
/// optional), tool edges `source>target`, tool ports naming nodes.
struct Toy {
    id: &'static str,
    nodes: &'static [&'static str],
    edges: &'static [&'static str],
    ports: &'static [&'static str],
}

fn json(toy: &Toy) -> String {
    let nodes: Vec<String> = toy
        .nodes
        .iter()
        .map(|spec| {
            let mut parts = spec.split(':');
            let id = parts.next().unwrap();
            let ty = parts.next().filter(|t| !t.is_empty()).unwrap_or("tool");
            let label = parts.next().unwrap_or(id);
            format!(r#"{{"id": "{id}", "type": "{ty}", "data": {{"label": "{label}"}}}}"#)
        })
        .collect();
    let edges: Vec<String> = toy
        .edges
        .iter()
        .map(|e| {
            let (s, t) = e.split_once('>').unwrap();
            format!(r#"{{"source": "{s}", "target": "{t}", "data": {{"edgeType": "tool_availability"}}}}"#)
        })
        .collect();
    format!(
        r#"{{"nodes": [{}], "edges": [{}]}}"#,
        nodes.join(", "),
        edges.join(", ")
    )
}

fn site(toys: &[Toy], runs: &[&str]) -> SiteReport {
    site_with(toys, catalogue(runs))
}

fn site_with(toys: &[Toy], catalogue: Arc<Catalogue>) -> SiteReport {
    let config = Config::default().with_catalogue(catalogue);
    let texts: Vec<String> = toys.iter().map(json).collect();
    let workflows: Vec<Option<Workflow>> = toys
        .iter()
        .zip(&texts)
        .map(|(toy, text)| {
            let graph = parse(text.as_bytes(), &config).unwrap();
            let ports: Vec<PortRef<'_>> = toy
                .ports
                .iter()
                .enumerate()
                .map(|(index, &node_id)| PortRef {
                    node_id,
                    node: (0..graph.node_count() as u32).find(|&n| graph.id(n) == node_id),
                    index,
                    offset: None,
                })
                .collect();
            let head = Head {
                id: Some(toy.id),
                tool_ports: &ports,
                problems: &[],
            };
            Some(facts(
                &graph,
                &format!("{}.json", toy.id),
                head,
                config.catalogue.as_ref().unwrap(),
            ))
        })
        .collect();
    check_site(&workflows)
}

/// (name, chains, consumer workflow:node, tools as workflow:node) per finding.
fn summary(report: &SiteReport, w: usize) -> Vec<(String, u64, String, Vec<String>)> {
    report.calls[w]
        .iter()
        .map(|f| {
            (
                f.name.clone(),
                f.chains.to_u64().unwrap(),
                format!("{}:{}", f.consumer.workflow, f.consumer.node),
                f.tools
                    .iter()
                    .map(|t| format!("{}:{}", t.place.workflow, t.place.node))
                    .collect(),
            )
        })
        .collect()
}

const SHARED_AGENT: Toy = Toy {
    id: "w",
    nodes: &["inner:agent", "s::Search"],
    edges: &["s>inner"],
    ports: &["inner"],
};

#[test]
fn cmp9_a_parent_tool_meets_a_tool_inside_at_the_consumer_inside() {
    let parent = Toy {
        id: "p",
        nodes: &["t::search", "other::Other", "n:run_w"],
        edges: &["t>n", "other>n"],
        ports: &[],
    };
    let report = site(&[parent, SHARED_AGENT], &["w"]);
    assert_eq!(
        summary(&report, 0),
        vec![("search".into(), 1, "w:inner".into(), vec!["p:t".into(), "w:s".into()])]
    );
    let f = &report.calls[0][0];
    assert_eq!(f.chain.len(), 1);
    assert_eq!((f.chain[0].place.node.as_str(), f.chain[0].runs.as_str()), ("n", "w"));
    let paths: Vec<Vec<Vec<&str>>> = f
        .tools
        .iter()
        .map(|t| {
            t.path
                .iter()
                .map(|part| part.nodes.iter().map(|(id, _)| id.as_str()).collect())
                .collect()
        })
        .collect();
    assert_eq!(
        paths,
        vec![vec![vec!["t", "n"], vec!["inner"]], vec![vec!["s", "inner"]]]
    );
    assert!(report.calls[1].is_empty(), "W alone is fine");
    assert!(report.errors.is_empty());
}

#[test]
fn cmp9_a_clash_among_the_called_workflows_own_tools_is_not_the_callers() {
    let inner_clash = Toy {
        id: "w",
        nodes: &["inner:agent", "a::Fetch", "b::fetch"],
        edges: &["a>inner", "b>inner"],
        ports: &["inner"],
    };
    let parent = Toy {
        id: "p",
        nodes: &["t::other", "n:run_w"],
        edges: &["t>n"],
        ports: &[],
    };
    let report = site(&[parent, inner_clash], &["w"]);
    assert!(report.calls.iter().all(Vec::is_empty));
}

#[test]
fn cmp9_tools_pass_through_a_box_the_port_names_and_meet_every_agent_behind_it() {
    let boxed = Toy {
        id: "w",
        nodes: &["kit:kit", "a1:agent", "a2:agent", "s::search", "lonely:agent"],
        edges: &["kit>a1", "kit>a2", "s>a2"],
        ports: &["kit"],
    };
    let parent = Toy {
        id: "p",
        nodes: &["t::search", "q::Search", "n:run_w"],
        edges: &["t>n"],
        ports: &[],
    };
    let report = site(&[parent, boxed], &["w"]);
    // Only a2 has a tool of W named search: one finding, at a2.
    assert_eq!(
        summary(&report, 0),
        vec![("search".into(), 1, "w:a2".into(), vec!["p:t".into(), "w:s".into()])]
    );
    let paths: Vec<Vec<&str>> = report.calls[0][0].tools[0]
        .path
        .iter()
        .map(|part| part.nodes.iter().map(|(id, _)| id.as_str()).collect())
        .collect();
    assert_eq!(paths, vec![vec!["t", "n"], vec!["kit", "a2"]]);
}

#[test]
fn cmp9_tools_of_caller_and_middle_workflow_meet_at_every_consumer_below() {
    // P's "x" and M's "x" both enter L, which has no "x" of its own: they
    // meet at M's call node (a consumer in the copy) and at L's agent.
    let p = Toy {
        id: "p",
        nodes: &["t::x", "n:run_m"],
        edges: &["t>n"],
        ports: &[],
    };
    let m = Toy {
        id: "m",
        nodes: &["k:run_l", "u::X"],
        edges: &["u>k"],
        ports: &["k"],
    };
    let l = Toy {
        id: "l",
        nodes: &["agent:agent"],
        edges: &[],
        ports: &["agent"],
    };
    let report = site(&[p, m, l], &["m", "l"]);
    assert_eq!(
        summary(&report, 0),
        vec![
            ("x".into(), 1, "l:agent".into(), vec!["m:u".into(), "p:t".into()]),
            ("x".into(), 1, "m:k".into(), vec!["m:u".into(), "p:t".into()]),
        ]
    );
    assert!(report.calls[1].is_empty(), "M's x alone meets nothing of L");
    let chain: Vec<&str> = report.calls[0][0].chain.iter().map(|s| s.place.node.as_str()).collect();
    assert_eq!(chain, vec!["n", "k"]);
}

/// Levels L0..L{depth}: each of L0..L{depth-1} calls the next from two
/// nodes that its port passes tools on to; L0 has a tool "x", the last
/// level an agent with a tool "X".
fn doubling_site(depth: usize) -> SiteReport {
    let mut toys = Vec::new();
    let mut runs = Vec::new();
    let names: Vec<&'static str> = (0..=depth)
        .map(|i| &*Box::leak(format!("l{i}").into_boxed_str()))
        .collect();
    for (i, &name) in names.iter().enumerate() {
        if i == depth {
            toys.push(Toy {
                id: name,
                nodes: &["agent:agent", "u::X"],
                edges: &["u>agent"],
                ports: &["agent"],
            });
            continue;
        }
        runs.push(names[i + 1]);
        let call = Box::leak(format!("run_{}", names[i + 1]).into_boxed_str());
        let nodes: &'static [&'static str] = Box::leak(
            vec![
                &*Box::leak(format!("c1:{call}").into_boxed_str()),
                &*Box::leak(format!("c2:{call}").into_boxed_str()),
                "kit:kit",
                "t::x",
            ]
            .into_boxed_slice(),
        );
        let (edges, ports): (&'static [&'static str], &'static [&'static str]) = if i == 0 {
            (&["t>c1", "t>c2"], &[])
        } else {
            (&["kit>c1", "kit>c2"], &["kit"])
        };
        toys.push(Toy {
            id: name,
            nodes,
            edges,
            ports,
        });
    }
    site(&toys, &runs)
}

#[test]
fn cmp9_a_million_chains_are_one_finding_with_their_exact_count_and_linear_work() {
    let report = doubling_site(20);
    assert_eq!(
        summary(&report, 0),
        vec![(
            "x".into(),
            1 << 20,
            "l20:agent".into(),
            vec!["l0:t".into(), "l20:u".into()]
        )]
    );
    let f = &report.calls[0][0];
    assert_eq!(f.chain.len(), 20);
    assert_eq!(f.chain[0].place.node, "c1", "ties go to the smaller ids");
    // One state per level reached: the work follows the site, not 2^20.
    assert_eq!(report.work.states, 20);
    // Past u64 and u128 the count stays exact.
    let deep = doubling_site(130);
    let mut expected = ChainCount::one();
    for _ in 0..130 {
        let copy = expected.clone();
        expected.add(&copy);
    }
    assert_eq!(deep.calls[0][0].chains, expected);
    assert_eq!(deep.work.states, 130);
}

#[test]
fn cmp9_a_cycle_of_calls_is_one_site_error_and_the_rest_is_checked() {
    let w = Toy {
        id: "w",
        nodes: &["a:agent", "k:run_v", "s::search"],
        edges: &["s>a"],
        ports: &["a", "k"],
    };
    let v = Toy {
        id: "v",
        nodes: &["k:run_w"],
        edges: &[],
        ports: &["k"],
    };
    let parent = Toy {
        id: "p",
        nodes: &["t::Search", "n:run_w"],
        edges: &["t>n"],
        ports: &[],
    };
    let report = site(&[w, v, parent], &["v", "w"]);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].workflows, vec!["v", "w"]);
    assert!(
        report.errors[0].message.contains("cycle"),
        "{}",
        report.errors[0].message
    );
    // P's call into the cycle is still followed (W's calls within it are not).
    assert_eq!(
        summary(&report, 2),
        vec![("search".into(), 1, "w:a".into(), vec!["p:t".into(), "w:s".into()])]
    );
}

#[test]
fn a_call_to_a_workflow_not_in_the_site_is_a_warning() {
    let parent = Toy {
        id: "p",
        nodes: &["t::search", "n:run_gone"],
        edges: &["t>n"],
        ports: &[],
    };
    let report = site(&[parent], &["gone"]);
    assert!(report.calls[0].is_empty());
    let codes: Vec<&str> = report.warnings[0].iter().map(|w| w.code).collect();
    assert_eq!(codes, vec!["CMP-9-CALL-UNKNOWN"]);
}

#[test]
fn a_workflow_id_defined_twice_is_a_site_error_and_its_calls_unknown() {
    let parent = Toy {
        id: "p",
        nodes: &["t::search", "n:run_w"],
        edges: &["t>n"],
        ports: &[],
    };
    let report = site(&[parent, SHARED_AGENT, SHARED_AGENT], &["w"]);
    assert_eq!(report.errors.len(), 1);
    assert!(report.errors[0].message.contains("defined by 2 files"));
    assert!(report.calls[0].is_empty());
}

/// The parts of each tool's path in finding `f` of workflow `w`, as ids.
fn paths_of(report: &SiteReport, w: usize, f: usize) -> Vec<Vec<Vec<String>>> {
    report.calls[w][f]
        .tools
        .iter()
        .map(|t| {
            t.path
                .iter()
                .map(|part| part.nodes.iter().map(|(id, _)| id.clone()).collect())
                .collect()
        })
        .collect()
}

#[test]
fn cmp9_a_call_node_wired_to_itself_is_one_of_the_tools_it_hands_on() {
    // SEMANTICS 4: a node fed back to itself (directly, or through boxes)
    // is in its own flattened set, so the call node "Search" reaches W's
    // agent as a tool and meets W's "Search" there.
    for edges in [&["n>n"][..], &["n>kit", "kit>n"][..]] {
        let parent = Toy {
            id: "p",
            nodes: &["n:run_w:Search", "kit:kit"],
            edges,
            ports: &[],
        };
        let report = site(&[parent, SHARED_AGENT], &["w"]);
        assert_eq!(
            summary(&report, 0),
            vec![("search".into(), 1, "w:inner".into(), vec!["p:n".into(), "w:s".into()])]
        );
        let loop_back: Vec<String> = std::iter::once("n")
            .chain(edges.iter().map(|e| e.split_once('>').unwrap().1))
            .map(str::to_owned)
            .collect();
        assert_eq!(paths_of(&report, 0, 0)[0], vec![loop_back, vec!["inner".to_owned()]]);
    }
}

#[test]
fn cmp9_a_consumer_inside_wired_to_itself_is_one_of_its_own_tools() {
    let inner = Toy {
        id: "w",
        nodes: &["inner:agent:Search", "kit:kit"],
        edges: &["inner>kit", "kit>inner"],
        ports: &["inner"],
    };
    let parent = Toy {
        id: "p",
        nodes: &["t::search", "n:run_w"],
        edges: &["t>n"],
        ports: &[],
    };
    let report = site(&[parent, inner], &["w"]);
    assert_eq!(
        summary(&report, 0),
        vec![(
            "search".into(),
            1,
            "w:inner".into(),
            vec!["p:t".into(), "w:inner".into()]
        )]
    );
    assert_eq!(paths_of(&report, 0, 0)[1], vec![vec!["inner", "kit", "inner"]]);
}

#[test]
fn cmp9_a_passthrough_that_runs_a_workflow_hands_tools_on_and_is_never_checked() {
    // `toolbox` is a default passthrough id; a site may still give a type
    // of that id a workflow executor. Named by W's port, such a node hands
    // P's tools on into V (and to its receivers in W) and is no consumer.
    let mut c = (*catalogue(&["w"])).clone();
    let text = "id: toolbox\nexecutor_plugin: 'flowdrop_workflow_executor:flowdrop_workflow:v'\n";
    c.add("toolbox.yml", text.as_bytes(), Form::DrupalYaml).unwrap();
    let p = Toy {
        id: "p",
        nodes: &["t::search", "n:run_w"],
        edges: &["t>n"],
        ports: &[],
    };
    let w = Toy {
        id: "w",
        nodes: &["k:toolbox:Search", "a:agent", "s::Search"],
        edges: &["k>a", "s>k"],
        ports: &["k"],
    };
    let v = Toy {
        id: "v",
        nodes: &["inner:agent", "u::SEARCH"],
        edges: &["u>inner"],
        ports: &["inner"],
    };
    let report = site_with(&[p, w, v], Arc::new(c));
    assert_eq!(
        summary(&report, 0),
        vec![
            (
                "search".into(),
                1,
                "v:inner".into(),
                vec!["p:t".into(), "v:u".into(), "w:s".into()]
            ),
            ("search".into(), 1, "w:a".into(), vec!["p:t".into(), "w:s".into()]),
        ]
    );
    let chain: Vec<&str> = report.calls[0][0].chain.iter().map(|s| s.place.node.as_str()).collect();
    assert_eq!(chain, vec!["n", "k"]);
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

fn leak_all(texts: Vec<String>) -> &'static [&'static str] {
    Box::leak(texts.into_iter().map(leak).collect::<Vec<_>>().into_boxed_slice())
}

/// W: `n` tools into a chain of `n` boxes that feeds `n` agents, its port
/// naming the first box; P calls W with a tool of a name W has too.
fn box_chain_site(n: usize) -> SiteReport {
    let mut nodes: Vec<String> = (0..n).map(|k| format!("t{k}::Tool {k}")).collect();
    nodes.extend((0..n).map(|k| format!("b{k}:kit")));
    nodes.extend((0..n).map(|k| format!("a{k}:agent")));
    let mut edges: Vec<String> = (0..n).map(|k| format!("t{k}>b0")).collect();
    edges.extend((1..n).map(|k| format!("b{}>b{k}", k - 1)));
    edges.extend((0..n).map(|k| format!("b{}>a{k}", n - 1)));
    let w = Toy {
        id: "w",
        nodes: leak_all(nodes),
        edges: leak_all(edges),
        ports: &["b0"],
    };
    let parent = Toy {
        id: "p",
        nodes: &["t::tool 0", "n:run_w"],
        edges: &["t>n"],
        ports: &[],
    };
    site(&[parent, w], &["w"])
}

#[test]
fn cmp9_site_cost_a_box_chain_between_many_tools_and_endpoints_is_walked_once_per_walk() {
    // Every agent gets P's "tool 0" and W's: n findings. The facts once
    // kept a path per tool per endpoint (n^3 for n tools, boxes, agents).
    let (small, large) = (box_chain_site(100), box_chain_site(200));
    assert_eq!(small.calls[0].len(), 100);
    assert_eq!(large.calls[0].len(), 200);
    // The agents share one list of providers: one walk for them all.
    assert!(
        large.work.walked <= 2 * small.work.walked + 16,
        "{} then {}",
        small.work.walked,
        large.work.walked
    );
    // The paths are still whole: [t0, b0, ..., b199, a7].
    let f = large.calls[0].iter().find(|f| f.consumer.node == "a7").unwrap();
    let w_tool = f.tools.iter().find(|t| t.place.workflow == "w").unwrap();
    assert_eq!(w_tool.path[0].nodes.len(), 202);
    assert_eq!(w_tool.path[0].nodes[201].0, "a7");
}

/// P: `n` tools into one box that feeds `n` calls of W; W's agent has its
/// own tool of each of those names.
fn one_box_many_calls_site(n: usize) -> SiteReport {
    let mut nodes: Vec<String> = (0..n).map(|k| format!("t{k}::Tool {k}")).collect();
    nodes.push("kit:kit".into());
    nodes.extend((0..n).map(|k| format!("c{k}:run_w")));
    let mut edges: Vec<String> = (0..n).map(|k| format!("t{k}>kit")).collect();
    edges.extend((0..n).map(|k| format!("kit>c{k}")));
    let parent = Toy {
        id: "p",
        nodes: leak_all(nodes),
        edges: leak_all(edges),
        ports: &[],
    };
    let w = Toy {
        id: "w",
        nodes: leak_all(
            std::iter::once("inner:agent".to_owned())
                .chain((0..n).map(|k| format!("u{k}::tool {k}")))
                .collect(),
        ),
        edges: leak_all((0..n).map(|k| format!("u{k}>inner")).collect()),
        ports: &["inner"],
    };
    site(&[parent, w], &["w"])
}

#[test]
fn cmp9_site_cost_many_calls_fed_by_one_box_share_one_walk_and_one_state() {
    let (small, large) = (one_box_many_calls_site(100), one_box_many_calls_site(200));
    // n findings (one per name), each brought by the n calls.
    assert_eq!(large.calls[0].len(), 200);
    assert!(large.calls[0].iter().all(|f| f.chains.to_u64() == Some(200)));
    assert_eq!(large.calls[0][0].chain[0].place.node, "c0");
    assert_eq!((large.work.states, large.work.arrivals), (1, 1));
    assert!(
        large.work.walked <= 2 * small.work.walked + 16,
        "{} then {}",
        small.work.walked,
        large.work.walked
    );
}

#[test]
fn cmp9_site_cost_a_state_crosses_many_alike_calls_in_one_step() {
    // P calls M; M's port box feeds n calls of W: P's state enters W once,
    // with n chains, not n times.
    for n in [10usize, 1000] {
        let m = Toy {
            id: "m",
            nodes: leak_all(
                std::iter::once("kit:kit".to_owned())
                    .chain((0..n).map(|k| format!("c{k:04}:run_w")))
                    .collect(),
            ),
            edges: leak_all((0..n).map(|k| format!("kit>c{k:04}")).collect()),
            ports: &["kit"],
        };
        let parent = Toy {
            id: "p",
            nodes: &["t::search", "n:run_m"],
            edges: &["t>n"],
            ports: &[],
        };
        let report = site(&[parent, m, SHARED_AGENT], &["m", "w"]);
        assert_eq!(
            summary(&report, 0),
            vec![(
                "search".into(),
                n as u64,
                "w:inner".into(),
                vec!["p:t".into(), "w:s".into()]
            )]
        );
        let chain: Vec<&str> = report.calls[0][0].chain.iter().map(|s| s.place.node.as_str()).collect();
        assert_eq!(chain, vec!["n", "c0000"]);
        assert_eq!((report.work.states, report.work.arrivals), (2, 2));
    }
}

/// `n` parents, each wiring a tool "search" into a node that runs the
/// shared agent workflow (which has a "Search" of its own).
fn fan_in(n: usize) -> SiteReport {
    let mut toys = vec![SHARED_AGENT];
    for i in 0..n {
        toys.push(Toy {
            id: Box::leak(format!("p{i}").into_boxed_str()),
            nodes: &["t::search", "n:run_w"],
            edges: &["t>n"],
            ports: &[],
        });
    }
    site(&toys, &["w"])
}

#[test]
fn cmp9_a_workflow_called_from_many_parents_costs_one_state_per_parent() {
    for n in [1_000, 2_000] {
        let report = fan_in(n);
        let found: usize = report.calls.iter().map(Vec::len).sum();
        assert_eq!(found, n, "each parent's own clash with the tool inside");
        assert_eq!(report.work.states, n as u64);
        assert_eq!(report.work.contributions, n as u64);
        assert_eq!(report.work.state_names, n as u64);
    }
}

#[test]
fn cmp9_a_tools_path_across_a_call_breaks_ties_by_the_smallest_ids_from_the_tool_on() {
    // Two equally short routes from t to n, through b2 (met first in edge
    // order) and b1: decision 7 shows [t, b1, n], as a single-file check does.
    let parent = Toy {
        id: "p",
        nodes: &["t::search", "b2:kit", "b1:kit", "n:run_w"],
        edges: &["b2>n", "b1>n", "t>b2", "t>b1"],
        ports: &[],
    };
    let report = site(&[parent, SHARED_AGENT], &["w"]);
    let tool = report.calls[0][0]
        .tools
        .iter()
        .find(|t| t.place.workflow == "p")
        .unwrap();
    let first: Vec<&str> = tool.path[0].nodes.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(first, vec!["t", "b1", "n"]);
}
