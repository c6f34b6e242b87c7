//! Per-call views on small sites written to files and read as `explain`
//! reads them (`engine::read_site`): a parent calling a shared agent
//! workflow with a clash, a box behind the port, two callers, a nested
//! call, `--consumer`, cycles and what a view costs.

use std::path::PathBuf;
use std::sync::Arc;

use super::{call_views, CallIndex, CallView};
use crate::catalogue::{Catalogue, Form};
use crate::config::Config;
use crate::engine::read_site;
use crate::site::Workflow;
use crate::Interrupt;

/// `agent` accepts tools, `kit` is a Tool Box, `run_<w>` runs workflow `<w>`,
/// `toolbox` is a passthrough that runs `v`.
fn catalogue(runs: &[&str]) -> Arc<Catalogue> {
    let mut c = Catalogue::default();
    let mut add = |id: &str, executor: &str| {
        let text = format!("id: {id}\nparameters:\n  tool:\n    connectable: true\nexecutor_plugin: '{executor}'\n");
        c.add(&format!("{id}.yml"), text.as_bytes(), Form::DrupalYaml).unwrap();
    };
    add("agent", "flowdrop_node_processor:agent");
    add("kit", "flowdrop_node_processor:toolbox");
    for w in runs {
        add(
            &format!("run_{w}"),
            &format!("flowdrop_workflow_executor:flowdrop_workflow:{w}"),
        );
    }
    // A passthrough by its (default) id whose executor runs workflow v.
    add("toolbox", "flowdrop_workflow_executor:flowdrop_workflow:v");
    Arc::new(c)
}

/// A workflow `id`: nodes `id:type:label` (type `tool` and label the id
/// when left out), tool edges `source>target`, tool ports naming nodes.
fn workflow(id: &str, nodes: &[&str], edges: &[&str], ports: &[&str]) -> String {
    let nodes: Vec<String> = nodes
        .iter()
        .map(|spec| {
            let mut parts = spec.split(':');
            let node = parts.next().unwrap();
            let ty = parts.next().filter(|t| !t.is_empty()).unwrap_or("tool");
            let label = parts.next().unwrap_or(node);
            format!("  {{\"id\": \"{node}\", \"type\": \"{ty}\", \"data\": {{\"label\": \"{label}\"}}}}")
        })
        .collect();
    let edges: Vec<String> = edges
        .iter()
        .map(|e| {
            let (s, t) = e.split_once('>').unwrap();
            format!("  {{\"source\": \"{s}\", \"target\": \"{t}\", \"data\": {{\"edgeType\": \"tool_availability\"}}}}")
        })
        .collect();
    let ports: Vec<String> = ports
        .iter()
        .map(|n| format!("{{\"name\": \"tools\", \"node_id\": \"{n}\", \"port\": \"tool\"}}"))
        .collect();
    format!(
        "{{\"id\": \"{id}\",\n\"input_ports\": [{}],\n\"nodes\": [\n{}\n],\n\"edges\": [\n{}\n]}}\n",
        ports.join(", "),
        nodes.join(",\n"),
        edges.join(",\n")
    )
}

/// The site of `files` (name, text), written to a directory of its own
/// and read back.
struct Site {
    directory: PathBuf,
    facts: Vec<Option<Workflow>>,
    index: CallIndex,
}

impl Site {
    fn read(test: &str, files: &[(&str, String)], runs: &[&str]) -> Site {
        let directory = std::env::temp_dir().join(format!("toolwire-views-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let paths: Vec<PathBuf> = files
            .iter()
            .map(|(name, text)| {
                let path = directory.join(name);
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect();
        let config = Config::default().with_catalogue(catalogue(runs));
        let facts: Vec<Option<Workflow>> = read_site(&paths, None, &config, 1, Interrupt::never())
            .into_iter()
            .map(Result::ok)
            .collect();
        let index = CallIndex::new(&facts);
        Site {
            directory,
            facts,
            index,
        }
    }

    fn views(&self, explained: usize, consumer: Option<&str>) -> Vec<CallView> {
        call_views(&self.facts, &self.index, explained, consumer).collect()
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.directory);
    }
}

/// Per tool: `workflow:id name [collides]` and its path parts joined by ` => `.
fn shown(view: &CallView) -> Vec<String> {
    view.tools
        .iter()
        .map(|t| {
            let parts: Vec<String> = t
                .path
                .iter()
                .map(|part| {
                    let ids: Vec<&str> = part.nodes.iter().map(|(id, _)| id.as_str()).collect();
                    format!("{}: {}", part.workflow, ids.join(" "))
                })
                .collect();
            let mark = if t.collides { " !" } else { "" };
            format!(
                "{}:{} {}{mark} via {}",
                t.place.workflow,
                t.place.node,
                t.name,
                parts.join(" => ")
            )
        })
        .collect()
}

fn shared_agent() -> String {
    workflow("w", &["inner:agent", "s::Search"], &["s>inner"], &["inner"])
}

#[test]
fn cmp9_a_parent_calling_a_shared_agent_workflow_shows_what_its_agent_sees_with_the_clash() {
    let parent = workflow("p", &["t::search", "f::Fetch", "n:run_w"], &["t>n", "f>n"], &[]);
    let site = Site::read("clash", &[("p.json", parent), ("w.json", shared_agent())], &["w"]);
    let views = site.views(1, None);
    assert_eq!(views.len(), 1);
    let view = &views[0];
    assert_eq!(
        (view.consumer.workflow.as_str(), view.consumer.node.as_str()),
        ("w", "inner")
    );
    assert_eq!(
        (view.call.place.workflow.as_str(), view.call.place.node.as_str()),
        ("p", "n")
    );
    assert_eq!(view.call.runs, "w");
    assert_eq!(view.outer_calls, 0);
    assert_eq!(
        shown(view),
        [
            "p:f fetch via p: f n => w: inner",
            "p:t search ! via p: t n => w: inner",
            "w:s search ! via w: s inner",
        ]
    );
    // Each side is located in its own file.
    let t = &view.tools[1];
    assert!(t.path[0].file.ends_with("p.json") && t.path[1].file.ends_with("w.json"));
    assert_eq!(t.place.location.map(|l| l.line), Some(4));
    assert_eq!(t.path[1].nodes[0].1.map(|l| l.line), Some(4));
    // The parent has no port and is not called: it has no per-call view.
    assert!(site.views(0, None).is_empty());
}

#[test]
fn cmp9_a_box_behind_the_port_hands_the_callers_tools_to_every_agent_behind_it() {
    let boxed = workflow(
        "w",
        &["kit:kit", "a1:agent", "a2:agent", "s::search", "lonely:agent"],
        &["kit>a1", "kit>a2", "s>kit"],
        &["kit"],
    );
    let parent = workflow("p", &["t::Search", "n:run_w"], &["t>n"], &[]);
    let site = Site::read("box", &[("p.json", parent), ("w.json", boxed)], &["w"]);
    let views = site.views(1, None);
    let consumers: Vec<&str> = views.iter().map(|v| v.consumer.node.as_str()).collect();
    assert_eq!(consumers, ["a1", "a2"], "lonely is not behind the port");
    for view in &views {
        let c = &view.consumer.node;
        assert_eq!(
            shown(view),
            [
                format!("p:t search ! via p: t n => w: kit {c}"),
                format!("w:s search ! via w: s kit {c}"),
            ]
        );
    }
}

#[test]
fn cmp9_each_call_into_the_workflow_is_a_view_of_its_own_by_caller() {
    let first = workflow("p1", &["t::search", "n:run_w"], &["t>n"], &[]);
    let second = workflow("p2", &["b:run_w", "a:run_w", "u::Other"], &["u>a"], &[]);
    let site = Site::read(
        "two",
        &[("w.json", shared_agent()), ("p2.json", second), ("p1.json", first)],
        &["w"],
    );
    let views = site.views(0, None);
    let calls: Vec<String> = views
        .iter()
        .map(|v| format!("{}:{} {}", v.call.place.workflow, v.call.place.node, v.tools.len()))
        .collect();
    assert_eq!(calls, ["p1:n 2", "p2:a 2", "p2:b 1"]);
    assert!(views[0].tools.iter().all(|t| t.collides));
    assert!(views[1].tools.iter().all(|t| !t.collides));
    assert_eq!(
        shown(&views[2]),
        ["w:s search via w: s inner"],
        "a call with nothing wired to it"
    );
}

#[test]
fn cmp9_a_call_node_the_callers_own_port_reaches_counts_the_calls_further_out() {
    // q calls p twice; p's port hands q's tools to its call node n, which
    // runs w. Explaining w lists p's tools at n and counts q's two calls.
    let p = workflow("p", &["kit:kit", "n:run_w", "t::Fetch"], &["kit>n", "t>kit"], &["kit"]);
    let q = workflow("q", &["c1:run_p", "c2:run_p", "x::search"], &["x>c1"], &[]);
    let site = Site::read(
        "nested",
        &[("w.json", shared_agent()), ("p.json", p), ("q.json", q)],
        &["w", "p"],
    );
    let views = site.views(0, None);
    assert_eq!(views.len(), 1);
    assert_eq!(views[0].outer_calls, 2);
    assert_eq!(
        shown(&views[0]),
        ["p:t fetch via p: t kit n => w: inner", "w:s search via w: s inner"],
        "q's tools are one level further out: not listed"
    );
    // One level up, p's own view of the call from q shows q's tool at n.
    let at_p = site.views(1, None);
    assert_eq!(at_p.len(), 2);
    assert_eq!(at_p[0].consumer.node, "n");
    assert_eq!(shown(&at_p[0])[1], "q:x search via q: x c1 => p: kit n");
}

#[test]
fn cmp9_consumer_limits_the_views_to_one_node_inside() {
    let two = workflow("w", &["a1:agent", "a2:agent", "s::Search"], &["s>a2"], &["a1", "a2"]);
    let parent = workflow("p", &["t::search", "n:run_w"], &["t>n"], &[]);
    let site = Site::read("consumer", &[("p.json", parent), ("w.json", two)], &["w"]);
    assert_eq!(site.views(1, None).len(), 2);
    let only = site.views(1, Some("a2"));
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].consumer.node, "a2");
    assert!(site.views(1, Some("s")).is_empty(), "not a node the ports reach");
}

#[test]
fn cmp9_calls_the_site_check_does_not_follow_have_no_view() {
    // w and v run each other (a cycle group); u runs w from outside it.
    let w = workflow("w", &["inner:agent", "back:run_v"], &[], &["inner"]);
    let v = workflow("v", &["inner:agent", "on:run_w"], &[], &["inner"]);
    let u = workflow("u", &["t::Search", "n:run_w"], &["t>n"], &[]);
    let site = Site::read("cycle", &[("w.json", w), ("v.json", v), ("u.json", u)], &["w", "v"]);
    let views = site.views(0, None);
    let calls: Vec<&str> = views.iter().map(|v| v.call.place.workflow.as_str()).collect();
    assert_eq!(calls, ["u"], "v's call is inside the cycle");
    assert!(site.views(1, None).is_empty());
}

#[test]
fn cmp9_views_are_made_one_at_a_time_each_listing_its_tools() {
    let callers: Vec<(String, String)> = (0..50)
        .map(|i| {
            let text = workflow(&format!("p{i:02}"), &["t::Tool", "n:run_w"], &["t>n"], &[]);
            (format!("p{i:02}.json"), text)
        })
        .collect();
    let mut files: Vec<(&str, String)> = vec![("w.json", shared_agent())];
    files.extend(callers.iter().map(|(name, text)| (name.as_str(), text.clone())));
    let site = Site::read("lazy", &files, &["w"]);
    let mut views = call_views(&site.facts, &site.index, 0, None);
    assert_eq!(views.call_count(), 50);
    assert_eq!(site.index.calls_into(0), 50);
    assert_eq!(site.index.calls_into(1), 0);
    assert_eq!(views.len(), 50);
    let first = views.next().unwrap();
    assert_eq!(views.len(), 49, "the others are not made yet");
    assert_eq!(first.call.place.workflow, "p00");
    assert_eq!(first.tools.len(), 2);
    assert_eq!(views.map(|v| v.tools.len()).sum::<usize>(), 49 * 2);
}

#[test]
fn cmp9_a_passthrough_that_runs_a_workflow_hands_tools_on_and_has_no_view() {
    let v = workflow("v", &["inner:agent"], &[], &["inner"]);
    let w = workflow("w", &["tb:toolbox", "a:agent", "s::Search"], &["tb>a", "s>a"], &["tb"]);
    let p = workflow("p", &["t::search", "n:run_w"], &["t>n"], &[]);
    let site = Site::read("passing", &[("v.json", v), ("w.json", w), ("p.json", p)], &["w"]);
    let views = site.views(1, None);
    let consumers: Vec<&str> = views.iter().map(|v| v.consumer.node.as_str()).collect();
    assert_eq!(consumers, ["a"], "tb forwards: only the agent behind it sees the call");
    assert_eq!(
        shown(&views[0]),
        ["p:t search ! via p: t n => w: tb a", "w:s search ! via w: s a"]
    );
}
