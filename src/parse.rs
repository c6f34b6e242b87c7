//! JSON text to [`RawWorkflow`]: reads the fields SEMANTICS.md names and
//! skips everything else without building it.
//!
//! Duplicate keys: the last one wins, as in Python's `json` module, so
//! `check_json(text)` and `check(json.loads(text))` always agree.

use std::borrow::Cow;

use crate::config::Config;
use crate::error::InputError;
use crate::json::{Result, Scanner};
use crate::model::{
    self, EdgeClass, Field, Kind, RawNode, RawToolEdge, RawUnknownEdgeType, RawWorkflow,
};

/// Parses a workflow from bytes, which must be UTF-8 JSON text.
pub fn parse<'a>(
    input: &'a [u8],
    config: &Config,
) -> std::result::Result<RawWorkflow<'a>, InputError> {
    let text = utf8(input)?;
    let mut scanner = Scanner::new(text);
    let workflow = document(&mut scanner, config)?;
    scanner.finish()?;
    workflow.into_result()
}

fn utf8(input: &[u8]) -> std::result::Result<&str, InputError> {
    if input.starts_with(b"\xEF\xBB\xBF") {
        return Err(InputError::new(
            "invalid JSON: the document starts with a UTF-8 byte order mark, which JSON does not allow",
            Some(0),
        ));
    }
    std::str::from_utf8(input).map_err(|e| {
        InputError::new(
            "invalid JSON: the document is not valid UTF-8",
            Some(e.valid_up_to()),
        )
    })
}

/// A list of nodes or edges, or the first shape error found in it. Shape
/// errors do not stop the scan: the rest of the document must still be valid
/// JSON, and a later duplicate key may replace the whole list.
type Shaped<T> = std::result::Result<T, InputError>;

#[derive(Default)]
struct Edges<'a> {
    tool: Vec<RawToolEdge<'a>>,
    unknown: Vec<RawUnknownEdgeType<'a>>,
    count: usize,
}

struct Document<'a> {
    nodes: Shaped<Vec<RawNode<'a>>>,
    edges: Shaped<Edges<'a>>,
}

impl<'a> Document<'a> {
    /// Shape errors in `nodes` are reported before those in `edges`.
    fn into_result(self) -> Shaped<RawWorkflow<'a>> {
        let nodes = self.nodes?;
        let edges = self.edges?;
        Ok(RawWorkflow {
            nodes,
            tool_edges: edges.tool,
            unknown_edge_types: edges.unknown,
            edge_count: edges.count,
        })
    }
}

fn document<'a>(s: &mut Scanner<'a>, config: &Config) -> Result<Document<'a>> {
    let kind = s.peek_kind()?;
    if kind != Kind::Object {
        // Still require valid JSON, so that "not JSON" wins over "wrong shape".
        let at = s.pos();
        s.skip_value()?;
        s.finish()?;
        return Err(model::err_top_level(kind, Some(at)));
    }
    let mut doc = Document {
        nodes: Ok(Vec::new()),
        edges: Ok(Edges::default()),
    };
    s.object(|s, key| {
        match key.as_ref() {
            "nodes" => doc.nodes = list(s, "nodes", |s, index| node(s, index, config))?,
            "edges" => {
                let mut edges = Edges::default();
                let shaped = list(s, "edges", |s, index| {
                    edges.count += 1;
                    edge(s, index, config, &mut edges)
                })?;
                doc.edges = shaped.map(|()| edges);
            }
            _ => s.skip_value()?,
        }
        Ok(())
    })?;
    Ok(doc)
}

/// A `nodes` or `edges` value: an array, or `null`/`{}` for an empty one
/// (EDGE-2, and Drupal's empty PHP arrays); anything else is a shape error.
/// Elements go to `element`, which returns the element's own shape error.
fn list<'a, T: Default + Extend<U>, U>(
    s: &mut Scanner<'a>,
    key: &str,
    mut element: impl FnMut(&mut Scanner<'a>, usize) -> Result<Shaped<Option<U>>>,
) -> Result<Shaped<T>> {
    let at = s.pos();
    let kind = s.peek_kind()?;
    match kind {
        Kind::Null => {
            s.skip_value()?;
            return Ok(Ok(T::default()));
        }
        Kind::Object if s.empty_object() => return Ok(Ok(T::default())),
        Kind::Array => {}
        _ => {
            s.skip_value()?;
            return Ok(Err(model::err_list_shape(key, kind, Some(at))));
        }
    }
    let mut items = T::default();
    let mut first_error = None;
    s.array(|s, index| {
        match element(s, index)? {
            Ok(item) if first_error.is_none() => items.extend(item),
            Ok(_) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
        Ok(())
    })?;
    Ok(match first_error {
        Some(e) => Err(e),
        None => Ok(items),
    })
}

fn node<'a>(
    s: &mut Scanner<'a>,
    index: usize,
    config: &Config,
) -> Result<Shaped<Option<RawNode<'a>>>> {
    let offset = s.pos();
    let kind = s.peek_kind()?;
    if kind != Kind::Object {
        s.skip_value()?;
        return Ok(Err(model::err_node_shape(index, kind, Some(offset))));
    }
    let mut id = Field::Missing;
    let mut type_ = None;
    let mut label = None;
    let mut metadata_node_type_id = None;
    let mut metadata_id = None;
    s.object(|s, key| {
        match key.as_ref() {
            "id" => id = s.field()?,
            "type" => type_ = s.field()?.into_string(),
            "data" => {
                // A later `data` replaces everything an earlier one said.
                label = None;
                metadata_node_type_id = None;
                metadata_id = None;
                if s.peek_kind()? != Kind::Object {
                    return s.skip_value();
                }
                s.object(|s, key| {
                    match key.as_ref() {
                        "label" => label = s.field()?.into_string().filter(|l| !l.is_empty()),
                        "metadata" => {
                            metadata_node_type_id = None;
                            metadata_id = None;
                            if s.peek_kind()? != Kind::Object {
                                return s.skip_value();
                            }
                            s.object(|s, key| {
                                match key.as_ref() {
                                    "node_type_id" => {
                                        metadata_node_type_id = s.field()?.into_string()
                                    }
                                    "id" => metadata_id = s.field()?.into_string(),
                                    _ => s.skip_value()?,
                                }
                                Ok(())
                            })?;
                        }
                        _ => s.skip_value()?,
                    }
                    Ok(())
                })?;
            }
            _ => s.skip_value()?,
        }
        Ok(())
    })?;
    let resolved = model::node_type(
        type_.as_deref(),
        metadata_node_type_id.as_deref(),
        metadata_id.as_deref(),
    );
    let passthrough = resolved.is_some_and(|t| config.is_passthrough_type(t));
    Ok(Ok(Some(RawNode {
        index,
        offset: Some(offset),
        id,
        label,
        passthrough,
    })))
}

fn edge<'a>(
    s: &mut Scanner<'a>,
    index: usize,
    config: &Config,
    out: &mut Edges<'a>,
) -> Result<Shaped<Option<()>>> {
    let offset = s.pos();
    let kind = s.peek_kind()?;
    if kind != Kind::Object {
        s.skip_value()?;
        return Ok(Err(model::err_edge_shape(index, kind, Some(offset))));
    }
    let mut id: Option<Cow<'a, str>> = None;
    let mut source = Field::Missing;
    let mut target = Field::Missing;
    let mut target_handle = None;
    let mut declared = None;
    s.object(|s, key| {
        match key.as_ref() {
            "id" => id = s.field()?.into_string(),
            "source" => source = s.field()?,
            "target" => target = s.field()?,
            "targetHandle" => target_handle = s.field()?.into_string(),
            "data" => {
                declared = None;
                if s.peek_kind()? != Kind::Object {
                    return s.skip_value();
                }
                s.object(|s, key| {
                    match key.as_ref() {
                        "edgeType" => declared = s.field()?.into_string(),
                        _ => s.skip_value()?,
                    }
                    Ok(())
                })?;
            }
            _ => s.skip_value()?,
        }
        Ok(())
    })?;
    match model::classify_edge(declared.as_deref(), target_handle.as_deref(), config) {
        EdgeClass::Tool => out.tool.push(RawToolEdge {
            index,
            offset: Some(offset),
            id,
            source,
            target,
        }),
        EdgeClass::NotTool => {}
        EdgeClass::Unrecognised => out.unknown.push(RawUnknownEdgeType {
            index,
            offset: Some(offset),
            id,
            edge_type: declared.unwrap_or_default(),
        }),
    }
    Ok(Ok(Some(())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> std::result::Result<RawWorkflow<'_>, InputError> {
        parse(text.as_bytes(), &Config::default())
    }

    #[test]
    fn edge2_absent_null_and_empty_object_are_empty_lists() {
        for doc in [
            "{}",
            r#"{"nodes": null, "edges": null}"#,
            r#"{"nodes": {}, "edges": { }}"#,
        ] {
            let w = parse_str(doc).unwrap();
            assert!(
                w.nodes.is_empty() && w.tool_edges.is_empty() && w.edge_count == 0,
                "{doc}"
            );
        }
    }

    #[test]
    fn wrong_shapes_are_input_errors_with_offsets() {
        let e = parse_str(r#"{"nodes": {"a": 1}}"#).unwrap_err();
        assert_eq!(
            e.message,
            "`nodes` must be an array, got a non-empty object"
        );
        assert_eq!(e.offset, Some(10));
        let e = parse_str(r#"{"nodes": [{"id": "a"}, 3]}"#).unwrap_err();
        assert_eq!(e.message, "node 1: must be an object, got a number");
        let e = parse_str("[]").unwrap_err();
        assert_eq!(
            e.message,
            "the workflow must be a JSON object, got an array"
        );
    }

    #[test]
    fn syntax_errors_win_over_shape_errors() {
        let e = parse_str(r#"{"nodes": 3, "edges": [}"#).unwrap_err();
        assert!(e.message.starts_with("invalid JSON"), "{}", e.message);
    }

    #[test]
    fn duplicate_keys_last_wins() {
        let w = parse_str(
            r#"{"nodes": 5, "nodes": [{"id": "a", "id": "b", "data": {"label": "x"}, "data": 1}]}"#,
        )
        .unwrap();
        assert_eq!(w.nodes[0].id, Field::Str("b".into()));
        assert_eq!(w.nodes[0].label, None);
    }

    #[test]
    fn reads_the_three_dialects_node_types() {
        let doc = r#"{"nodes": [
            {"id": "a", "type": "toolbox"},
            {"id": "b", "type": "universalNode", "data": {"metadata": {"id": "toolbox"}}},
            {"id": "c", "data": {"metadata": {"node_type_id": "flowdrop_node_processor_toolbox", "id": "x"}}},
            {"id": "d", "type": "universalNode", "data": {"metadata": {"id": "agent"}}}
        ]}"#;
        let w = parse_str(doc).unwrap();
        let passthrough: Vec<bool> = w.nodes.iter().map(|n| n.passthrough).collect();
        assert_eq!(passthrough, [true, true, true, false]);
    }

    #[test]
    fn keeps_only_tool_edges_and_unknown_declarations() {
        let doc = r#"{"edges": [
            {"source": "a", "target": "b", "data": {"edgeType": "tool_availability"}},
            {"source": "a", "target": "b", "targetHandle": "b-input-tool", "data": {"edgeType": "data"}},
            {"id": "e3", "source": "a", "target": "b", "data": {"edgeType": "tool_availabilty"}},
            {"source": 1, "targetHandle": "b-input-tools"}
        ]}"#;
        let w = parse_str(doc).unwrap();
        assert_eq!(w.edge_count, 4);
        assert_eq!(w.tool_edges.len(), 1);
        assert_eq!(w.unknown_edge_types[0].index, 2);
        assert_eq!(w.unknown_edge_types[0].edge_type, "tool_availabilty");
    }

    #[test]
    fn bom_and_invalid_utf8_are_refused() {
        assert!(parse(b"\xEF\xBB\xBF{}", &Config::default()).is_err());
        let e = parse(b"{\"a\": \"\xFF\"}", &Config::default()).unwrap_err();
        assert_eq!(e.offset, Some(7));
    }
}
