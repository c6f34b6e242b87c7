//! What each consumer will see: its whole flattened tool set (SEMANTICS 4),
//! each tool with its name, label and a shortest path. The check only
//! tracks names that could collide; this answers "which tools does this
//! agent actually get?", so it flattens everything it is asked about.

use crate::error::Error;
use crate::flatten::{box_labels, PathTree, Reach, TreePath};
use crate::graph::{NodeIx, ToolGraph};
use crate::locate::{LineIndex, Location};
use crate::names::normalize_name;

/// One consumer's flattened tool set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsumerView {
    pub consumer: String,
    pub location: Option<Location>,
    /// By name, then id.
    pub tools: Vec<SeenTool>,
    /// `(id, data.label)` of the toolboxes on the paths, as in CMP-9
    /// violations.
    pub boxes: Vec<(String, String)>,
    /// The node is a passthrough: its tools are what it forwards, and a
    /// name shared among them is no violation here (CMP-9 exempts
    /// passthroughs) but at each consumer they reach together.
    pub forwards: bool,
}

/// A leaf tool as one consumer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenTool {
    pub name: String,
    pub id: String,
    pub label: String,
    /// A shortest chain `[tool, box, ..., consumer]`, as in CMP-9 reports.
    pub path: Vec<String>,
    pub location: Option<Location>,
    /// Another tool in this view has the same name (a CMP-9 violation).
    pub collides: bool,
}

/// The views of every consumer, by id; or of the one node `only` names
/// (any node, including a passthrough, whose view is then what it
/// forwards). Naming a node that does not exist is an error.
pub fn explain(graph: &ToolGraph<'_>, only: Option<&str>) -> Result<Vec<ConsumerView>, Error> {
    Ok(views(graph, only)?.collect())
}

/// `explain`, one view at a time, each made only when asked for: the
/// first is ready as soon as the graph is, and no view is kept once it has
/// been handed over.
///
/// The cost of a view is its own: one walk upstream from its consumer over
/// the passthroughs it reaches (`Reach`), the sort of its leaves by name,
/// and its paths; nothing is rescanned per consumer. What all views share
/// is made once: the graph, and the index that turns offsets into lines
/// and columns.
pub fn views<'g, 'a>(graph: &'g ToolGraph<'a>, only: Option<&str>) -> Result<Views<'g, 'a>, Error> {
    let mut consumers: Vec<NodeIx> = match only {
        Some(id) => vec![find_node(graph, id)?],
        None => graph.consumers().collect(),
    };
    graph.sort_by_id(&mut consumers);
    Ok(Views {
        graph,
        consumers: consumers.into_iter(),
        lines: graph.source.map(LineIndex::new),
    })
}

/// The views `views` makes, in consumer order.
pub struct Views<'g, 'a> {
    graph: &'g ToolGraph<'a>,
    consumers: std::vec::IntoIter<NodeIx>,
    lines: Option<LineIndex<'a>>,
}

impl Iterator for Views<'_, '_> {
    type Item = ConsumerView;

    fn next(&mut self) -> Option<ConsumerView> {
        let consumer = self.consumers.next()?;
        Some(view_of(self.graph, consumer, self.lines.as_ref()))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.consumers.size_hint()
    }
}

impl ExactSizeIterator for Views<'_, '_> {}

fn find_node(graph: &ToolGraph<'_>, id: &str) -> Result<NodeIx, Error> {
    // Asked once per run, so a scan is fine.
    (0..graph.node_count() as NodeIx)
        .find(|&n| graph.id(n) == id)
        .ok_or_else(|| Error::UnknownNode(id.to_owned()))
}

/// The view of `consumer`, flattened by the same walk and the same paths as
/// the check, located through `lines` when the graph was read from text.
fn view_of(g: &ToolGraph<'_>, consumer: NodeIx, lines: Option<&LineIndex<'_>>) -> ConsumerView {
    let locate = |node: NodeIx| lines.zip(g.offset(node)).map(|(lines, offset)| lines.locate(offset));
    let tree = PathTree::new(Reach::from(g, consumer));
    let mut tools: Vec<(String, NodeIx)> = tree
        .reach
        .leaves
        .iter()
        .map(|&l| (normalize_name(g.label(l)), l))
        .collect();
    tools.sort_unstable_by(|a, b| (&a.0, g.id(a.1)).cmp(&(&b.0, g.id(b.1))));
    let paths: Vec<Vec<NodeIx>> = tools
        .iter()
        .map(|&(_, leaf)| {
            // Every leaf of the walk reaches the consumer through its tree.
            let path = tree.path(g, leaf, consumer).unwrap_or(TreePath::direct(leaf, consumer));
            path.all(g, &tree)
        })
        .collect();
    let seen = tools
        .iter()
        .zip(&paths)
        .enumerate()
        .map(|(i, ((name, leaf), path))| {
            let same_name = |j: usize| tools.get(j).is_some_and(|(other, _)| other == name);
            SeenTool {
                name: name.clone(),
                id: g.id(*leaf).to_owned(),
                label: g.label(*leaf).to_owned(),
                path: path.iter().map(|&n| g.id(n).to_owned()).collect(),
                location: locate(*leaf),
                collides: (i > 0 && same_name(i - 1)) || same_name(i + 1),
            }
        })
        .collect();
    ConsumerView {
        consumer: g.id(consumer).to_owned(),
        location: locate(consumer),
        tools: seen,
        boxes: box_labels(g, &paths)
            .into_iter()
            .map(|(b, l)| (b.to_owned(), l.to_owned()))
            .collect(),
        forwards: g.is_passthrough(consumer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse::parse, Config};

    const SPEC_REFUSED: &str = include_str!("../tests/data/spec-cmp9-refused.json");
    const MULTI: &str = include_str!("../tests/data/multi-violation.json");

    #[test]
    fn explains_the_spec_example_with_paths_and_collisions() {
        let graph = parse(SPEC_REFUSED.as_bytes(), &Config::default()).unwrap();
        let views = explain(&graph, None).unwrap();
        assert_eq!(views.len(), 1);
        let view = &views[0];
        assert_eq!(view.consumer, "agent_1");
        let seen: Vec<(&str, &str, bool)> = view
            .tools
            .iter()
            .map(|t| (t.name.as_str(), t.id.as_str(), t.collides))
            .collect();
        assert_eq!(seen, [("web_search", "tool_a", true), ("web_search", "tool_b", true)]);
        assert_eq!(view.tools[1].path, ["tool_b", "box_1", "agent_1"]);
        assert_eq!(view.boxes, [("box_1".to_string(), "My Tools".to_string())]);
        assert!(view.tools[0].location.is_some());
    }

    #[test]
    fn views_are_made_one_at_a_time_and_located_as_one_offset_alone_is() {
        let doc = MULTI.as_bytes();
        let graph = parse(doc, &Config::default()).unwrap();
        let all = explain(&graph, None).unwrap();
        let mut views = views(&graph, None).unwrap();
        assert_eq!(views.len(), all.len());
        let first = views.next().unwrap();
        assert_eq!(views.len(), all.len() - 1, "the others are not made yet");
        assert_eq!(first, all[0]);
        for view in &all {
            let node = find_node(&graph, &view.consumer).unwrap();
            let offset = graph.offset(node).unwrap();
            assert_eq!(view.location, Some(Location::of(doc, offset)));
        }
    }

    #[test]
    fn a_passthrough_can_be_asked_what_it_forwards() {
        let graph = parse(SPEC_REFUSED.as_bytes(), &Config::default()).unwrap();
        let views = explain(&graph, Some("box_1")).unwrap();
        assert_eq!(views[0].tools[0].path, ["tool_a", "box_1"]);
        assert!(views[0].forwards);
        assert!(!explain(&graph, None).unwrap()[0].forwards, "agent_1 consumes");
        let e = explain(&graph, Some("nobody")).unwrap_err();
        assert_eq!(e.to_string(), "there is no node \"nobody\" in the workflow");
    }

    #[test]
    fn a_box_cycle_through_the_asked_box_ends_at_it() {
        let doc = r#"{"nodes": [{"id": "b1", "type": "toolbox"}, {"id": "b2", "type": "toolbox"}],
            "edges": [{"source": "t", "target": "b1", "data": {"edgeType": "tool_availability"}},
                      {"source": "b1", "target": "b2", "data": {"edgeType": "tool_availability"}},
                      {"source": "b2", "target": "b1", "data": {"edgeType": "tool_availability"}}]}"#;
        let graph = parse(doc.as_bytes(), &Config::default()).unwrap();
        let views = explain(&graph, Some("b2")).unwrap();
        assert_eq!(views[0].tools[0].path, ["t", "b1", "b2"]);
    }
}
