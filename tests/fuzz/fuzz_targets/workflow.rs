//! Structured workflows (boxes in all three dialects, cycles, diamonds,
//! agents as tools, decoy edges, colliding labels) checked against a naive
//! flattening written here: same violations, valid shortest paths, and the
//! same answer on one thread and two.
#![no_main]

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::json;
use toolwire::engine::check_text;
use toolwire::{Budget, Config, Violation};

mod outline;
use outline::outline;

const LABELS: &[&str] = &[
    "Search",
    "search",
    "Web Search",
    "web-search",
    "Café",
    "caf",
    "日本語",
    "",
    "Get (Admin)",
    "get_admin",
];

#[derive(Arbitrary, Debug)]
enum NodeKind {
    Toolbox,
    EnrichedToolbox,
    DrupalToolbox,
    Agent,
    Tool,
    Untyped,
}

#[derive(Arbitrary, Debug)]
struct Node {
    id: u8,
    kind: NodeKind,
    label: Option<u8>,
}

#[derive(Arbitrary, Debug)]
enum Wiring {
    Declared,
    Handle,
    PluralHandle,
    DataWithToolHandle,
    Typo,
}

#[derive(Arbitrary, Debug)]
struct Edge {
    source: u8,
    target: u8,
    wiring: Wiring,
}

#[derive(Arbitrary, Debug)]
struct Workflow {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

/// A label's tool name, as docs/SEMANTICS.md section 5 says, written here
/// apart from the crate's `normalize_name` so the model does not share its
/// mistakes: ASCII capitals lowered, each run of anything but `a`-`z` and
/// `0`-`9` one `_`, `_` trimmed from both ends, `unnamed_tool` if empty.
fn model_name(label: &str) -> String {
    let mut name = String::new();
    let mut in_run = false;
    for c in label.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            name.push(c);
            in_run = false;
        } else if !in_run {
            name.push('_');
            in_run = true;
        }
    }
    let name = name.trim_matches('_');
    if name.is_empty() {
        "unnamed_tool".to_owned()
    } else {
        name.to_owned()
    }
}

fn id(n: u8) -> String {
    format!("n{}", n % 12)
}

fuzz_target!(|w: Workflow| {
    let mut declared: BTreeMap<String, (bool, String)> = BTreeMap::new(); // id -> (passthrough, label)
    let mut nodes = Vec::new();
    for node in &w.nodes {
        let id = id(node.id);
        if declared.contains_key(&id) {
            continue; // duplicate ids are an input error; tested elsewhere
        }
        let label = node.label.map(|l| LABELS[l as usize % LABELS.len()]);
        let mut value = match node.kind {
            NodeKind::Toolbox => json!({"id": id, "type": "toolbox", "data": {}}),
            NodeKind::EnrichedToolbox => {
                json!({"id": id, "type": "universalNode", "data": {"metadata": {"id": "toolbox"}}})
            }
            NodeKind::DrupalToolbox => {
                json!({"id": id, "data": {"metadata": {"node_type_id": "flowdrop_node_processor_toolbox"}}})
            }
            NodeKind::Agent => json!({"id": id, "type": "ai_agent", "data": {}}),
            NodeKind::Tool => json!({"id": id, "type": "http_request", "data": {}}),
            NodeKind::Untyped => json!({"id": id, "data": {}}),
        };
        if let Some(label) = label {
            value["data"]["label"] = json!(label);
        }
        let passthrough = matches!(
            node.kind,
            NodeKind::Toolbox | NodeKind::EnrichedToolbox | NodeKind::DrupalToolbox
        );
        let shown = label.filter(|l| !l.is_empty()).map_or(id.clone(), str::to_owned);
        declared.insert(id, (passthrough, shown));
        nodes.push(value);
    }
    let mut edges = Vec::new();
    let mut tool_edges: Vec<(String, String)> = Vec::new();
    let mut typos = Vec::new();
    for (index, edge) in w.edges.iter().enumerate() {
        if matches!(edge.wiring, Wiring::Typo) {
            typos.push(index);
        }
        let (s, t) = (id(edge.source), id(edge.target));
        let (value, is_tool) = match edge.wiring {
            Wiring::Declared => (
                json!({"source": s, "target": t, "data": {"edgeType": "tool_availability"}}),
                true,
            ),
            Wiring::Handle => (
                json!({"source": s, "target": t, "targetHandle": format!("{t}-input-tool")}),
                true,
            ),
            Wiring::PluralHandle => (
                json!({"source": s, "target": t, "targetHandle": format!("{t}-input-tools")}),
                false,
            ),
            Wiring::DataWithToolHandle => (
                json!({"source": s, "target": t, "targetHandle": format!("{t}-input-tool"), "data": {"edgeType": "data"}}),
                false,
            ),
            Wiring::Typo => (
                json!({"source": s, "target": t, "data": {"edgeType": "tool_availabilty"}}),
                false,
            ),
        };
        if is_tool {
            tool_edges.push((s, t));
        }
        edges.push(value);
    }
    let text = serde_json::to_vec(&json!({"nodes": nodes, "edges": edges})).unwrap();
    let config = Config::default();
    let report = check_text(&text, &config, Budget::full().one_thread()).expect("a well-formed workflow");
    let two = check_text(&text, &config, Budget::full()).expect("a well-formed workflow");
    assert_eq!(outline(&report), outline(&two));

    // The naive model: every endpoint is a node; undeclared ones are plain.
    let passthrough = |n: &str| declared.get(n).is_some_and(|d| d.0);
    let label = |n: &str| declared.get(n).map_or(n.to_owned(), |d| d.1.clone());
    let mut providers: HashMap<&str, Vec<&str>> = HashMap::new();
    for (s, t) in &tool_edges {
        providers.entry(t.as_str()).or_default().push(s.as_str());
    }
    let mut expected: BTreeSet<(String, String, Vec<String>)> = BTreeSet::new();
    let mut distances: HashMap<String, HashMap<String, usize>> = HashMap::new();
    for consumer in providers.keys().filter(|c| !passthrough(c)) {
        // Breadth-first upstream through passthroughs: distances to the consumer.
        let mut distance: HashMap<String, usize> = HashMap::from([(consumer.to_string(), 0)]);
        let mut leaves = BTreeSet::new();
        let mut queue = VecDeque::from([consumer.to_string()]);
        while let Some(current) = queue.pop_front() {
            let d = distance[&current];
            for &p in providers.get(current.as_str()).into_iter().flatten() {
                if passthrough(p) {
                    if !distance.contains_key(p) {
                        distance.insert(p.to_owned(), d + 1);
                        queue.push_back(p.to_owned());
                    }
                } else {
                    leaves.insert(p.to_owned());
                }
            }
        }
        let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for leaf in leaves {
            by_name.entry(model_name(&label(&leaf))).or_default().push(leaf);
        }
        for (name, tools) in by_name.into_iter().filter(|(_, tools)| tools.len() > 1) {
            expected.insert((consumer.to_string(), name, tools));
        }
        distances.insert(consumer.to_string(), distance);
    }

    // EDGE-5: one violation per misspelt declaration, first, in edge order.
    let unrecognised: Vec<usize> = report
        .violations()
        .filter_map(|v| match v {
            Violation::UnrecognisedEdgeType(e) => Some(e.edge),
            _ => None,
        })
        .collect();
    assert_eq!(unrecognised, typos);
    let mut found = BTreeSet::new();
    for violation in report.violations().skip(typos.len()) {
        let Violation::ToolNameCollision(c) = violation else {
            panic!("EDGE-5 violations come first")
        };
        let (consumer, name) = (c.consumer().to_owned(), c.name().to_owned());
        let consumer = &consumer;
        let tools: Vec<(String, Vec<String>)> = c
            .tools()
            .iter()
            .map(|t| (t.id().to_owned(), t.path().iter().map(|s| s.to_string()).collect()))
            .collect();
        for (id, path) in &tools {
            assert_eq!((path.first(), path.last()), (Some(id), Some(consumer)));
            for pair in path.windows(2) {
                assert!(
                    tool_edges.iter().any(|(s, t)| s == &pair[0] && t == &pair[1]),
                    "{path:?}"
                );
            }
            assert!(path[1..path.len() - 1].iter().all(|p| passthrough(p)), "{path:?}");
            // Shortest: one more than the best distance of a first hop.
            let distance = &distances[consumer];
            let best = tool_edges
                .iter()
                .filter(|(s, t)| s == id && (t == consumer || passthrough(t)))
                .filter_map(|(_, t)| distance.get(t))
                .min()
                .expect("a leaf reaches its consumer");
            assert_eq!(path.len(), best + 2, "{path:?}");
        }
        found.insert((consumer.clone(), name, tools.into_iter().map(|t| t.0).collect()));
    }
    assert_eq!(found, expected);
    assert_eq!(report.violation_count(), (typos.len() + expected.len()) as u64);
});
