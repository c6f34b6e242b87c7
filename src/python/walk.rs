//! Walking an already-parsed workflow (what `json.loads` returns: dicts,
//! lists, strings) into the core's [`GraphBuilder`], reading only the keys
//! SEMANTICS.md names (the head's `id` and `input_ports` among them).
//! Strings are copied, so nothing here outlives the call or depends on the
//! objects staying unchanged.

use std::borrow::Cow;

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString};

use crate::classify::{self, EdgeClass};
use crate::head::{self, Head};
use crate::input::{Field, Kind, Place, UnknownEdgeType};
use crate::{Config, GraphBuilder, InputError, ToolGraph};

pub enum WalkError {
    /// Python itself failed (a Mapping whose `__getitem__` raised).
    Python(PyErr),
    /// The workflow cannot be checked.
    Input(InputError),
}

impl From<PyErr> for WalkError {
    fn from(e: PyErr) -> Self {
        WalkError::Python(e)
    }
}

type Walked<T> = Result<T, WalkError>;

pub fn walk(workflow: &Bound<'_, PyAny>, config: &Config) -> Walked<ToolGraph<'static>> {
    let kind = kind_of(workflow);
    if kind != Kind::Object {
        return Err(WalkError::Input(InputError::top_level(kind, None)));
    }
    let mut builder = GraphBuilder::new().keeping_types(config.keeps_node_types());
    // Nodes before edges, like the JSON parser, so errors come in one order.
    match list(get(workflow, "nodes")?, "nodes")? {
        Ok(nodes) => {
            for (index, node) in nodes.iter().enumerate() {
                walk_node(node, Place { index, offset: None }, &mut builder, config)?;
            }
        }
        Err(e) => builder.node_shape_error(e),
    }
    match list(get(workflow, "edges")?, "edges")? {
        Ok(edges) => {
            for (index, edge) in edges.iter().enumerate() {
                walk_edge(edge, Place { index, offset: None }, &mut builder, config)?;
            }
        }
        Err(e) => builder.edge_shape_error(e),
    }
    // Last, so a Python error met on `nodes` or `edges` comes first, as
    // before heads were read.
    builder.head(walk_head(workflow));
    builder.finish(true).map_err(WalkError::Input)
}

/// The workflow's `id` and `input_ports` (SEMANTICS 12). Only data for a
/// site check: whatever goes wrong here, a Python error included (a
/// Mapping whose `__getitem__` raised), is a problem of the head and never
/// stops the check of the workflow itself.
fn walk_head(workflow: &Bound<'_, PyAny>) -> Head<'static> {
    let mut head = Head::default();
    let as_problem = |e: WalkError, what: &str| match e {
        WalkError::Input(e) => e,
        WalkError::Python(e) => InputError::new(format!("{what}: reading it raised {e}"), None),
    };
    let id = get(workflow, "id")
        .map_err(WalkError::from)
        .and_then(|id| field(id, || "the workflow's `id`".to_owned()));
    match id {
        Ok(Field::Str(id)) => head.id = Some(id),
        Ok(Field::Missing) => {}
        Ok(Field::Other(kind)) => head.problems.push(head::id_problem(kind, None)),
        Err(e) => head.problems.push(as_problem(e, "the workflow's `id`")),
    }
    let ports = match get(workflow, "input_ports") {
        Ok(ports) => ports,
        Err(e) => {
            head.problems.push(as_problem(e.into(), "`input_ports`"));
            return head;
        }
    };
    let Some(ports) = ports.filter(|p| !p.is_none()) else {
        return head;
    };
    match kind_of(&ports) {
        Kind::Array => {
            // kind_of said it is a list.
            for (index, entry) in ports
                .cast::<PyList>()
                .into_iter()
                .flat_map(|list| list.iter())
                .enumerate()
            {
                match walk_port(&entry, index) {
                    Ok(entry) => head.push(entry),
                    Err(e) => head.problems.push(as_problem(e, &format!("`input_ports[{index}]`"))),
                }
            }
        }
        Kind::Object if ports.len().is_ok_and(|n| n == 0) => {}
        kind => head.problems.push(head::ports_shape_problem(kind, None)),
    }
    head
}

/// Entry `index` of `input_ports`.
fn walk_port(entry: &Bound<'_, PyAny>, index: usize) -> Walked<head::Entry<'static>> {
    let kind = kind_of(entry);
    if kind != Kind::Object {
        return Ok(head::Entry::Problem(head::port_shape_problem(index, kind, None)));
    }
    let at = |key: &'static str| move || format!("`input_ports[{index}]`: `{key}`");
    let port = match field(get(entry, "port")?, at("port")) {
        // A str that is not text is not `tool` either.
        Err(WalkError::Input(_)) => return Ok(head::Entry::Other),
        port => port?,
    };
    if port.as_str() != Some("tool") {
        return Ok(head::Entry::Other); // `node_id` is not read: not a tool port
    }
    let node_id = field(get(entry, "node_id")?, at("node_id"))?;
    Ok(head::entry(index, None, &port, node_id))
}

fn kind_of(value: &Bound<'_, PyAny>) -> Kind {
    if value.is_none() {
        Kind::Null
    } else if value.is_instance_of::<PyString>() {
        Kind::String
    } else if value.is_instance_of::<PyBool>() {
        Kind::Bool
    } else if value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>() {
        Kind::Number
    } else if value.is_instance_of::<PyList>() {
        Kind::Array
    } else if value.is_instance_of::<PyDict>() || value.is_instance_of::<PyMapping>() {
        Kind::Object
    } else {
        Kind::Foreign
    }
}

/// `mapping[key]`, or None when absent. Dicts take the fast path.
fn get<'py>(mapping: &Bound<'py, PyAny>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    if let Ok(dict) = mapping.cast::<PyDict>() {
        return dict.get_item(key);
    }
    match mapping.get_item(key) {
        Ok(value) => Ok(Some(value)),
        Err(e) if e.is_instance_of::<PyKeyError>(mapping.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A field that should be a string. `what` names it for the one error that
/// can arise: a str holding a lone surrogate, which is not text.
fn field(value: Option<Bound<'_, PyAny>>, what: impl FnOnce() -> String) -> Walked<Field<'static>> {
    let Some(value) = value else {
        return Ok(Field::Missing);
    };
    let Ok(s) = value.cast::<PyString>() else {
        return Ok(Field::Other(kind_of(&value)));
    };
    match s.to_str() {
        Ok(text) => Ok(Field::Str(Cow::Owned(text.to_owned()))),
        Err(_) => Err(WalkError::Input(InputError::new(
            format!("{} is not valid Unicode: it contains a lone surrogate", what()),
            None,
        ))),
    }
}

fn string(value: Option<Bound<'_, PyAny>>, what: impl FnOnce() -> String) -> Walked<Option<Cow<'static, str>>> {
    Ok(field(value, what)?.into_string())
}

/// `value` when it is a mapping (a JSON object), else None.
fn object(value: Option<Bound<'_, PyAny>>) -> Option<Bound<'_, PyAny>> {
    value.filter(|v| kind_of(v) == Kind::Object)
}

/// `nodes`/`edges`: a list; None (absent or null) and an empty mapping are
/// empty (EDGE-2); anything else is a shape error.
fn list<'py>(value: Option<Bound<'py, PyAny>>, key: &str) -> PyResult<Result<Vec<Bound<'py, PyAny>>, InputError>> {
    let Some(value) = value else {
        return Ok(Ok(Vec::new()));
    };
    Ok(match kind_of(&value) {
        Kind::Null => Ok(Vec::new()),
        Kind::Array => Ok(value.cast::<PyList>()?.iter().collect()),
        Kind::Object if value.len()? == 0 => Ok(Vec::new()),
        kind => Err(InputError::list_shape(key, kind, None)),
    })
}

fn walk_node(
    node: &Bound<'_, PyAny>,
    place: Place,
    builder: &mut GraphBuilder<'static>,
    config: &Config,
) -> Walked<()> {
    let kind = kind_of(node);
    if kind != Kind::Object {
        builder.node_shape_error(InputError::node_shape(place, kind));
        return Ok(());
    }
    let at = |key: &'static str| move || format!("node {}: `{key}`", place.index);
    let id = field(get(node, "id")?, at("id"))?;
    let type_ = string(get(node, "type")?, at("type"))?;
    let (mut label, mut metadata_node_type_id, mut metadata_id) = (None, None, None);
    if let Some(data) = object(get(node, "data")?) {
        label = string(get(&data, "label")?, at("data.label"))?.filter(|l| !l.is_empty());
        if let Some(metadata) = object(get(&data, "metadata")?) {
            metadata_node_type_id = string(get(&metadata, "node_type_id")?, at("data.metadata.node_type_id"))?;
            metadata_id = string(get(&metadata, "id")?, at("data.metadata.id"))?;
        }
    }
    let passthrough = classify::is_passthrough_node(
        config,
        type_.as_deref(),
        metadata_node_type_id.as_deref(),
        metadata_id.as_deref(),
    );
    let node_type = match config.keeps_node_types() {
        true => classify::owned_node_type(type_, metadata_node_type_id, metadata_id),
        false => None,
    };
    builder.node(place, id, label, node_type, passthrough);
    Ok(())
}

fn walk_edge(
    edge: &Bound<'_, PyAny>,
    place: Place,
    builder: &mut GraphBuilder<'static>,
    config: &Config,
) -> Walked<()> {
    let kind = kind_of(edge);
    if kind != Kind::Object {
        builder.edge_shape_error(InputError::edge_shape(place, kind));
        return Ok(());
    }
    let at = |key: &'static str| move || format!("edge {}: `{key}`", place.index);
    let declared = match object(get(edge, "data")?) {
        Some(data) => string(get(&data, "edgeType")?, at("data.edgeType"))?,
        None => None,
    };
    let target_handle = string(get(edge, "targetHandle")?, at("targetHandle"))?;
    // Non-tool edges are classified and counted, never read further.
    match classify::classify_edge(declared.as_deref(), target_handle.as_deref(), config) {
        EdgeClass::NotTool => builder.other_edge(),
        EdgeClass::Tool => {
            let id = string(get(edge, "id")?, at("id"))?;
            let source = field(get(edge, "source")?, at("source"))?;
            let target = field(get(edge, "target")?, at("target"))?;
            builder.tool_edge(place, id, source, target);
        }
        EdgeClass::Unrecognised => {
            let id = string(get(edge, "id")?, at("id"))?;
            builder.unknown_edge_type(UnknownEdgeType {
                place,
                id,
                edge_type: declared.unwrap_or_default(),
            });
        }
    }
    Ok(())
}
