//! The head of a workflow (`id`, `input_ports`: [`crate::head`]) read from
//! text, by the same [`Source`] logic for JSON and YAML. The reader meets
//! the two keys in any order among the others and hands the head to the
//! sink once the top-level object is read.

use std::borrow::Cow;

use super::{is_array, Reader, Result, Source};
use crate::error::InputError;
use crate::head::{self, Head};
use crate::input::{Field, Kind};

/// The head as far as the top-level object has been read. A key met again
/// replaces what the earlier one gave (JSON keeps the last value; YAML
/// refuses a repeat before this matters), so each part is kept apart until
/// the end.
#[derive(Default)]
pub(crate) struct HeadReading<'a> {
    id: Option<Cow<'a, str>>,
    id_offset: Option<usize>,
    id_problem: Option<InputError>,
    /// The tool ports and the problems of the last `input_ports` read.
    ports: Head<'a>,
}

impl<'a> HeadReading<'a> {
    /// Reads the value of the top-level key `key` when it is part of the
    /// head; false, with nothing consumed, when it is not.
    pub(crate) fn member<S: Source<'a>>(&mut self, reader: Reader<'_>, s: &mut S, key: &str) -> Result<bool> {
        match key {
            "id" => self.id(s)?,
            "input_ports" => self.ports = reader.input_ports(s)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn id<S: Source<'a>>(&mut self, s: &mut S) -> Result<()> {
        let at = s.pos()?;
        self.id_offset = Some(at);
        (self.id, self.id_problem) = match s.field()? {
            Field::Str(id) => (Some(id), None),
            // `field` says missing only of a key it never met.
            Field::Missing => (None, None),
            Field::Other(kind) => (None, Some(head::id_problem(kind, Some(at)))),
        };
        Ok(())
    }

    /// This head and `later`'s, read from two pieces of one mapping that
    /// share no key: each part is taken from the piece that read it.
    pub(crate) fn joined(mut self, later: HeadReading<'a>) -> HeadReading<'a> {
        if later.id_offset.is_some() {
            (self.id, self.id_offset, self.id_problem) = (later.id, later.id_offset, later.id_problem);
        }
        if !later.ports.tool_ports.is_empty() || !later.ports.problems.is_empty() {
            self.ports = later.ports;
        }
        self
    }

    /// The head read: the `id`'s problem before those of `input_ports`.
    pub(crate) fn finish(self) -> Head<'a> {
        let mut problems = Vec::with_capacity(self.ports.problems.len() + 1);
        problems.extend(self.id_problem);
        problems.extend(self.ports.problems);
        Head {
            id: self.id,
            id_offset: self.id_offset,
            tool_ports: self.ports.tool_ports,
            problems,
        }
    }
}

impl Reader<'_> {
    /// The `input_ports` value: its tool ports, and its problems. `null`
    /// and an empty object are empty, as for `nodes`.
    fn input_ports<'a, S: Source<'a>>(self, s: &mut S) -> Result<Head<'a>> {
        let mut ports = Head::default();
        match is_array(s, "input_ports")? {
            Ok(true) => s.array(|s, index| {
                self.go_on()?;
                let at = s.pos()?;
                let entry = port_entry(s, index, at)?;
                ports.push(entry);
                Ok(())
            })?,
            Ok(false) => {}
            Err(e) => ports.problems.push(e),
        }
        Ok(ports)
    }
}

/// Entry `index` of `input_ports`, which starts at `at`: only `port` and
/// `node_id` are read; the last of a repeated key counts, as everywhere.
fn port_entry<'a, S: Source<'a>>(s: &mut S, index: usize, at: usize) -> Result<head::Entry<'a>> {
    let kind = s.peek_kind()?;
    if kind != Kind::Object {
        s.skip_value()?;
        return Ok(head::Entry::Problem(head::port_shape_problem(index, kind, Some(at))));
    }
    let (mut port, mut node_id) = (Field::Missing, Field::Missing);
    s.object(|s, key| {
        match key.as_ref() {
            "port" => port = s.field()?,
            "node_id" => node_id = s.field()?,
            _ => s.skip_value()?,
        }
        Ok(())
    })?;
    Ok(head::entry(index, Some(at), &port, node_id))
}

#[cfg(test)]
mod tests {
    use crate::budget::Budget;
    use crate::config::Config;
    use crate::error::InputError;
    use crate::graph::ToolGraph;
    use crate::head::{Head, ToolPort};
    use crate::parse::{parse, parse_with, yaml};

    fn json(text: &str) -> ToolGraph<'_> {
        parse(text.as_bytes(), &Config::default()).unwrap()
    }

    fn yaml(text: &str) -> ToolGraph<'_> {
        yaml::parse_with(text.as_bytes(), &Config::default(), Budget::full().one_thread()).unwrap()
    }

    /// A head without its offsets, which differ between JSON and YAML:
    /// the id, each port as (node_id, index, node's id), each problem's
    /// message.
    type Unplaced = (Option<String>, Vec<(String, usize, Option<String>)>, Vec<String>);

    fn unplaced(g: &ToolGraph<'_>) -> Unplaced {
        let h = &g.head;
        let ports = (h.tool_ports.iter())
            .map(|p| (p.node_id.to_string(), p.index, p.node.map(|n| g.id(n).to_owned())))
            .collect();
        let problems = h.problems.iter().map(|p| p.message.clone()).collect();
        (h.id.as_deref().map(str::to_owned), ports, problems)
    }

    /// The text each offset of the head points at, `len` bytes of it.
    fn pointed(text: &str, h: &Head<'_>, len: usize) -> Vec<String> {
        let at = |o: usize| text[o..(o + len).min(text.len())].to_owned();
        (h.id_offset.iter().copied())
            .chain(h.tool_ports.iter().filter_map(|p| p.offset))
            .chain(h.problems.iter().filter_map(|p| p.offset))
            .map(at)
            .collect()
    }

    const JSON: &str = r#"{"uuid": "u", "id": "agent_flow",
 "nodes": [{"id": "agent.1"}, {"id": "box.1", "type": "toolbox"}],
 "edges": [{"source": "t.1", "target": "agent.1", "targetHandle": "agent.1-input-tool"}],
 "input_ports": [
  {"name": "messages", "node_id": "agent.1", "port": "messages"},
  {"name": "tool", "node_id": "agent.1", "port": "tool"},
  {"port": "tool", "node_id": "box.1"},
  {"port": "tool", "node_id": "t.1"},
  {"port": "tool", "node_id": "nowhere"},
  "tool",
  {"port": "tool", "node_id": 7},
  {"port": "tool"},
  {"port": true, "node_id": 7},
  {"node_id": "agent.1"}
 ]}"#;

    const YAML: &str = "uuid: u\nid: agent_flow\nnodes:\n  -\n    id: agent.1\n  - {id: box.1, type: toolbox}\n\
edges:\n  - {source: t.1, target: agent.1, targetHandle: agent.1-input-tool}\ninput_ports:\n  -\n    name: messages\n    node_id: agent.1\n    port: messages\n  -\n    name: tool\n    node_id: agent.1\n    port: tool\n  - {port: tool, node_id: box.1}\n  - {port: tool, node_id: t.1}\n  - {port: tool, node_id: nowhere}\n  - tool\n  - {port: tool, node_id: 7}\n  - {port: tool}\n  - {port: true, node_id: 7}\n  - {node_id: agent.1}\n";

    #[test]
    fn cmp9_json_and_yaml_give_the_same_head_for_the_same_document() {
        let (j, y) = (json(JSON), yaml(YAML));
        let node = |id: &str| Some(id.to_owned());
        let expected = (
            Some("agent_flow".to_owned()),
            vec![
                ("agent.1".to_owned(), 1, node("agent.1")),
                ("box.1".to_owned(), 2, node("box.1")),
                // Wired but never declared: a node all the same.
                ("t.1".to_owned(), 3, node("t.1")),
                ("nowhere".to_owned(), 4, None),
            ],
            vec![
                "`input_ports[5]` must be an object, got a string".to_owned(),
                "`input_ports[6]`: a `tool` port needs a string `node_id`, got a number".to_owned(),
                "`input_ports[7]`: a `tool` port needs a string `node_id`, got missing".to_owned(),
            ],
        );
        assert_eq!(unplaced(&j), expected);
        assert_eq!(unplaced(&y), expected);
        // Each offset points at the id's value, the port's entry, the
        // problem's entry, in each text (a block mapping starts at its
        // first key, a flow one at its brace).
        assert_eq!(
            pointed(JSON, &j.head, 6),
            ["\"agent", "{\"name", "{\"port", "{\"port", "{\"port", "\"tool\"", "{\"port", "{\"port"]
        );
        assert_eq!(
            pointed(YAML, &y.head, 6),
            ["agent_", "name: ", "{port:", "{port:", "{port:", "tool\n ", "{port:", "{port:"]
        );
    }

    #[test]
    fn cmp9_head_problems_are_located_and_never_input_errors() {
        for (doc, message, at) in [
            (
                r#"{"id": 5, "nodes": []}"#,
                "the workflow's `id` must be a string, got a number",
                "5",
            ),
            (
                r#"{"id": null}"#,
                "the workflow's `id` must be a string, got null",
                "null",
            ),
            (
                r#"{"input_ports": "tool"}"#,
                "`input_ports` must be an array, got a string",
                "\"tool\"",
            ),
            (
                r#"{"input_ports": {"a": 1}}"#,
                "`input_ports` must be an array, got a non-empty object",
                "{\"a\"",
            ),
            (
                r#"{"input_ports": [[]]}"#,
                "`input_ports[0]` must be an object, got an array",
                "[]",
            ),
        ] {
            let g = json(doc);
            assert_eq!(g.head.problems.len(), 1, "{doc}");
            let problem: &InputError = &g.head.problems[0];
            assert_eq!(problem.message, message);
            assert!(doc[problem.offset.unwrap()..].starts_with(at), "{doc}");
            assert!(g.head.id.is_none() && g.head.tool_ports.is_empty());
        }
        // As for `nodes`: absent, null and empty objects are empty lists.
        for doc in [
            "{}",
            r#"{"input_ports": null}"#,
            r#"{"input_ports": {}}"#,
            r#"{"input_ports": []}"#,
        ] {
            assert_eq!(json(doc).head, Head::default(), "{doc}");
        }
        let y = yaml("id: 5\ninput_ports: {  }\n");
        assert_eq!(
            y.head.problems[0].message,
            "the workflow's `id` must be a string, got a number"
        );
        assert_eq!(y.head.problems.len(), 1);
    }

    #[test]
    fn cmp9_a_repeated_top_level_key_keeps_its_last_value_on_both_json_paths() {
        let head = r#""id": 1, "input_ports": [{"port": "tool", "node_id": "a"}, 3],
            "id": "second", "input_ports": [7, {"port": "tool", "node_id": "b"}]"#;
        // In one pass; and when a repeated `nodes` makes the parser read
        // the last values only.
        for doc in [
            format!(r#"{{{head}, "nodes": [{{"id": "a"}}, {{"id": "b"}}]}}"#),
            format!(r#"{{"nodes": [], {head}, "nodes": [{{"id": "a"}}, {{"id": "b"}}]}}"#),
        ] {
            let g = json(&doc);
            assert_eq!(
                unplaced(&g),
                (
                    Some("second".to_owned()),
                    vec![("b".to_owned(), 1, Some("b".to_owned()))],
                    vec!["`input_ports[0]` must be an object, got a number".to_owned()]
                ),
                "{doc}"
            );
            assert!(doc[g.head.id_offset.unwrap()..].starts_with("\"second\""));
        }
    }

    #[test]
    fn cmp9_the_head_survives_owning_and_an_empty_graph_has_none() {
        let g = json(JSON);
        let before = g.head.clone();
        let owned = g.into_owned(|_| false, false);
        assert_eq!(owned.head, before);
        assert_eq!(ToolGraph::empty().head, Head::default());
    }

    #[test]
    fn cmp9_a_large_text_read_on_two_threads_carries_the_head() {
        // Past the pipeline's threshold, with the head after the nodes, so
        // it crosses the channel last.
        let nodes: Vec<String> = (0..super::super::PIPELINE_FROM_BYTES / 40)
            .map(|i| format!(r#"{{"id": "n{i}", "data": {{"label": "L"}}}}"#))
            .collect();
        let doc = format!(
            r#"{{"nodes": [{}], "id": "big", "input_ports": [{{"port": "tool", "node_id": "n7"}}, 1]}}"#,
            nodes.join(",")
        );
        assert!(doc.len() > super::super::PIPELINE_FROM_BYTES);
        let config = Config::default();
        let two = parse_with(doc.as_bytes(), &config, Budget::full()).unwrap();
        let one = parse_with(doc.as_bytes(), &config, Budget::full().one_thread()).unwrap();
        assert_eq!(two.head, one.head);
        assert_eq!(
            unplaced(&two),
            (
                Some("big".to_owned()),
                vec![("n7".to_owned(), 0, Some("n7".to_owned()))],
                vec!["`input_ports[1]` must be an object, got a number".to_owned()]
            )
        );
    }

    #[test]
    fn cmp9_many_tool_ports_are_each_read_and_named_once() {
        // A hostile list: every entry a tool port, half naming a node.
        let count = 100_000;
        let ports: Vec<String> = (0..count)
            .map(|i| format!(r#"{{"port": "tool", "node_id": "n{}"}}"#, i % 200))
            .collect();
        let nodes: Vec<String> = (0..100).map(|i| format!(r#"{{"id": "n{i}"}}"#)).collect();
        let doc = format!(
            r#"{{"nodes": [{}], "input_ports": [{}]}}"#,
            nodes.join(","),
            ports.join(",")
        );
        let g = json(&doc);
        assert_eq!(g.head.tool_ports.len(), count);
        let named = g.head.tool_ports.iter().filter(|p| p.node.is_some()).count();
        assert_eq!(named, count / 2);
        assert!(g.head.tool_ports.iter().enumerate().all(|(i, p)| p.index == i));
    }

    /// `../shared/real-workflows/NAME` (beside the repository), or None when
    /// it is not there: the test is skipped then, except when
    /// TOOLWIRE_NEED_SHARED=1, as in tests/support.py.
    fn shared_workflow(name: &str) -> Option<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = root.parent()?.join("shared/real-workflows").join(name);
        match std::fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(e) if std::env::var("TOOLWIRE_NEED_SHARED").as_deref() != Ok("1") => {
                eprintln!("skipped: {} cannot be read ({e})", path.display());
                None
            }
            Err(e) => panic!("{} cannot be read ({e}) and TOOLWIRE_NEED_SHARED=1", path.display()),
        }
    }

    /// atelier__reason's head as Drupal's config export writes it (the
    /// JSON file is that entity's export in JSON), with the node the ports
    /// name; the rest of the entity is left out.
    const REASON_YAML: &str = "uuid: 0c3b1a94-6a35-4f0c-9f7e-1c0a4b1f2d3e\nlangcode: en\nstatus: true\ndependencies: {  }\nid: reason\nlabel: Reason\nnodes:\n  -\n    id: aincient_reason.1\n    type: universalNode\n    data:\n      label: Reason\n      metadata:\n        node_type_id: aincient_reason\nedges: {  }\ninput_ports:\n  -\n    name: operation_type\n    node_id: aincient_reason.1\n    port: operation_type\n  -\n    name: system_prompt\n    node_id: aincient_reason.1\n    port: systemPrompt\n  -\n    name: messages\n    node_id: aincient_reason.1\n    port: messages\n  -\n    name: tool\n    node_id: aincient_reason.1\n    port: tool\n  -\n    name: loop_back\n    node_id: aincient_reason.1\n    port: loop_back\noutput_ports: {  }\n";

    #[test]
    fn cmp9_real_workflow_reason_has_one_tool_port_in_json_and_yaml() {
        let expected = (
            Some("reason".to_owned()),
            vec![("aincient_reason.1".to_owned(), 3, Some("aincient_reason.1".to_owned()))],
            vec![],
        );
        let y = yaml(REASON_YAML);
        assert_eq!(unplaced(&y), expected);
        assert_eq!(pointed(REASON_YAML, &y.head, 11), ["reason\nlabe", "name: tool\n"]);
        let Some(text) = shared_workflow("atelier__reason.json") else {
            return;
        };
        let j = json(&text);
        assert_eq!(unplaced(&j), expected);
        let entry = &text[j.head.tool_ports[0].offset.unwrap()..];
        assert!(entry.starts_with('{') && entry[..entry.find('}').unwrap()].contains("\"port\": \"tool\""));
        // JSON is YAML too (flow style): read by the YAML reader, the same
        // head.
        assert_eq!(unplaced(&yaml(&text)), expected);
        let port = |g: &ToolGraph<'_>| -> ToolPort<'static> {
            let p = g.head.tool_ports[0].clone();
            ToolPort {
                node_id: p.node_id.into_owned().into(),
                ..p
            }
        };
        assert_eq!(
            port(&yaml(&text)).offset,
            port(&j).offset,
            "the same bytes, the same places"
        );
    }
}
