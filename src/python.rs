//! The one place Python and the Rust core meet. It converts arguments into
//! core types, runs the core (without the GIL for text and file input), and
//! converts reports and errors back. No rule lives here.

use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyType};

use crate::model::{
    self, EdgeClass, Field, Kind, RawNode, RawToolEdge, RawUnknownEdgeType, RawWorkflow,
};
use crate::{batch, check, names, Config, InputError, Location, Report, Violation};

/// `toolwire.WorkflowError`, defined in Python so it can subclass
/// `ValueError` and carry fields.
static WORKFLOW_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn workflow_error(py: Python<'_>, error: &InputError, text: Option<&[u8]>) -> PyErr {
    workflow_error_at(py, &error.message, text.and_then(|t| error.location(t)))
}

fn workflow_error_at(py: Python<'_>, message: &str, location: Option<Location>) -> PyErr {
    let (line, column) = location.map_or((None, None), |l| (Some(l.line), Some(l.column)));
    match WORKFLOW_ERROR.import(py, "toolwire._errors", "WorkflowError") {
        Ok(class) => match class.call1((message, line, column)) {
            Ok(instance) => PyErr::from_value(instance),
            Err(e) => e,
        },
        Err(e) => e,
    }
}

/// Runs the core, optionally without the GIL, and keeps a panic (a bug) from
/// reaching the caller as anything but an ordinary exception that says so.
fn run<T: Send>(py: Python<'_>, release_gil: bool, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let guarded = move || catch_unwind(AssertUnwindSafe(work));
    let outcome = if release_gil {
        py.detach(guarded)
    } else {
        guarded()
    };
    outcome.map_err(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        PyRuntimeError::new_err(format!(
            "toolwire internal error (please report it): {what}"
        ))
    })
}

fn config(passthrough_types: Vec<String>, edge_types: Vec<String>) -> Config {
    Config {
        passthrough_types,
        edge_types,
    }
}

/// Checks JSON text given as `str` or `bytes`, without the GIL.
#[pyfunction]
fn check_json<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config(passthrough_types, edge_types);
    let text: &[u8] = if let Ok(s) = data.cast::<PyString>() {
        s.to_str()
            .map_err(|_| {
                workflow_error(
                    py,
                    &InputError::new("invalid JSON: the text contains a lone surrogate", None),
                    None,
                )
            })?
            .as_bytes()
    } else if let Ok(b) = data.cast::<PyBytes>() {
        b.as_bytes()
    } else {
        return Err(PyTypeError::new_err("check_json() takes str or bytes"));
    };
    let result = run(py, true, || check::check_bytes(text, &config))?;
    result
        .map(|report| report_to_py(py, &report))
        .map_err(|e| workflow_error(py, &e, Some(text)))?
}

/// Reads and checks a file, without the GIL.
#[pyfunction]
fn check_file<'py>(
    py: Python<'py>,
    path: PathBuf,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config(passthrough_types, edge_types);
    let outcome = run(py, true, || batch::check_path(&path, &config))?;
    outcome_to_py(py, outcome, &path)
}

/// Checks many files on `jobs` threads (0: one per core), without the GIL.
/// Returns, per path and in order, a report dict or the exception that
/// `check_file` would have raised for it.
#[pyfunction]
fn check_files<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    jobs: usize,
) -> PyResult<Bound<'py, PyList>> {
    let config = config(passthrough_types, edge_types);
    let outcomes = run(py, true, || batch::check_paths(&paths, &config, jobs))?;
    let results = PyList::empty(py);
    for (outcome, path) in outcomes.into_iter().zip(&paths) {
        match outcome_to_py(py, outcome, path) {
            Ok(report) => results.append(report)?,
            Err(error) => results.append(error.into_value(py))?,
        }
    }
    Ok(results)
}

fn outcome_to_py<'py>(py: Python<'py>, outcome: batch::FileOutcome, path: &Path) -> PyResult<Bound<'py, PyDict>> {
    match outcome {
        Ok(report) => report_to_py(py, &report),
        Err(batch::FileError::Io(io)) => Err(os_error(&io, path)),
        Err(batch::FileError::Input(error, location)) => Err(workflow_error_at(py, &error.message, location)),
    }
}

/// `OSError(errno, strerror, filename)`: Python picks the subclass
/// (`FileNotFoundError`, `PermissionError`, `IsADirectoryError`) from errno.
fn os_error(error: &std::io::Error, path: &Path) -> PyErr {
    let filename = path.to_string_lossy().into_owned();
    match error.raw_os_error() {
        Some(errno) => {
            let text = error.to_string();
            let strerror = text.split(" (os error").next().unwrap_or(&text).to_owned();
            PyOSError::new_err((errno, strerror, filename))
        }
        None => PyOSError::new_err(format!("{error}: {filename:?}")),
    }
}

/// Checks an already-parsed workflow (a `Mapping`), walking it directly.
#[pyfunction]
fn check_mapping<'py>(
    py: Python<'py>,
    workflow: &Bound<'py, PyAny>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config(passthrough_types, edge_types);
    let raw = match walk_workflow(workflow, &config)? {
        Ok(raw) => raw,
        Err(e) => return Err(workflow_error(py, &e, None)),
    };
    // The walk copied every string it needs, so the Python objects are no
    // longer touched; releasing the GIL only pays off on large workflows.
    let release = raw.nodes.len() + raw.tool_edges.len() > 10_000;
    let result = run(py, release, || check::check_raw(&raw, &config))?;
    result
        .map(|report| report_to_py(py, &report))
        .map_err(|e| workflow_error(py, &e, None))?
}

#[pyfunction]
fn normalize_name(label: &str) -> String {
    names::normalize_name(label)
}

// Walking Python objects into the core's RawWorkflow. Errors come in two
// layers: PyErr for Python failures (a Mapping whose __getitem__ raises),
// InputError for workflows of the wrong shape.

type Walked<T> = PyResult<Result<T, InputError>>;

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
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyError>(mapping.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

fn field(value: Option<Bound<'_, PyAny>>) -> PyResult<Field<'static>> {
    let Some(value) = value else {
        return Ok(Field::Missing);
    };
    match value.cast::<PyString>() {
        Ok(s) => Ok(Field::Str(Cow::Owned(s.to_str()?.to_owned()))),
        Err(_) => Ok(Field::Other(kind_of(&value))),
    }
}

fn string(value: Option<Bound<'_, PyAny>>) -> PyResult<Option<Cow<'static, str>>> {
    Ok(field(value)?.into_string())
}

/// `value` when it is a mapping (a JSON object), else None.
fn object<'py>(value: Option<Bound<'py, PyAny>>) -> Option<Bound<'py, PyAny>> {
    value.filter(|v| kind_of(v) == Kind::Object)
}

fn walk_workflow(workflow: &Bound<'_, PyAny>, config: &Config) -> Walked<RawWorkflow<'static>> {
    let kind = kind_of(workflow);
    if kind != Kind::Object {
        return Ok(Err(model::err_top_level(kind, None)));
    }
    // Same order of input errors as the JSON parser: `nodes` and each node,
    // then `edges` and each edge.
    let mut raw = RawWorkflow::default();
    let nodes = match list(get(workflow, "nodes")?, "nodes")? {
        Ok(items) => items,
        Err(e) => return Ok(Err(e)),
    };
    for (index, node) in nodes.iter().enumerate() {
        match walk_node(node, index, config)? {
            Ok(n) => raw.nodes.push(n),
            Err(e) => return Ok(Err(e)),
        }
    }
    let edges = match list(get(workflow, "edges")?, "edges")? {
        Ok(items) => items,
        Err(e) => return Ok(Err(e)),
    };
    raw.edge_count = edges.len();
    for (index, edge) in edges.iter().enumerate() {
        if let Err(e) = walk_edge(edge, index, config, &mut raw)? {
            return Ok(Err(e));
        }
    }
    Ok(Ok(raw))
}

/// `nodes`/`edges`: a list; None (absent or null) and an empty mapping are
/// empty (EDGE-2).
fn list<'py>(value: Option<Bound<'py, PyAny>>, key: &str) -> Walked<Vec<Bound<'py, PyAny>>> {
    let Some(value) = value else {
        return Ok(Ok(Vec::new()));
    };
    match kind_of(&value) {
        Kind::Null => Ok(Ok(Vec::new())),
        Kind::Array => Ok(Ok(value.cast::<PyList>()?.iter().collect())),
        Kind::Object if value.len()? == 0 => Ok(Ok(Vec::new())),
        kind => Ok(Err(model::err_list_shape(key, kind, None))),
    }
}

fn walk_node(node: &Bound<'_, PyAny>, index: usize, config: &Config) -> Walked<RawNode<'static>> {
    let kind = kind_of(node);
    if kind != Kind::Object {
        return Ok(Err(model::err_node_shape(index, kind, None)));
    }
    let id = field(get(node, "id")?)?;
    let type_ = string(get(node, "type")?)?;
    let (mut label, mut metadata_node_type_id, mut metadata_id) = (None, None, None);
    if let Some(data) = object(get(node, "data")?) {
        label = string(get(&data, "label")?)?.filter(|l| !l.is_empty());
        if let Some(metadata) = object(get(&data, "metadata")?) {
            metadata_node_type_id = string(get(&metadata, "node_type_id")?)?;
            metadata_id = string(get(&metadata, "id")?)?;
        }
    }
    let resolved = model::node_type(
        type_.as_deref(),
        metadata_node_type_id.as_deref(),
        metadata_id.as_deref(),
    );
    let passthrough = resolved.is_some_and(|t| config.is_passthrough_type(t));
    Ok(Ok(RawNode {
        index,
        offset: None,
        id,
        label,
        passthrough,
    }))
}

fn walk_edge(
    edge: &Bound<'_, PyAny>,
    index: usize,
    config: &Config,
    raw: &mut RawWorkflow<'static>,
) -> Walked<()> {
    let kind = kind_of(edge);
    if kind != Kind::Object {
        return Ok(Err(model::err_edge_shape(index, kind, None)));
    }
    let declared = match object(get(edge, "data")?) {
        Some(data) => string(get(&data, "edgeType")?)?,
        None => None,
    };
    let target_handle = string(get(edge, "targetHandle")?)?;
    match model::classify_edge(declared.as_deref(), target_handle.as_deref(), config) {
        EdgeClass::NotTool => {}
        EdgeClass::Tool => raw.tool_edges.push(RawToolEdge {
            index,
            offset: None,
            id: string(get(edge, "id")?)?,
            source: field(get(edge, "source")?)?,
            target: field(get(edge, "target")?)?,
        }),
        EdgeClass::Unrecognised => raw.unknown_edge_types.push(RawUnknownEdgeType {
            index,
            offset: None,
            id: string(get(edge, "id")?)?,
            edge_type: declared.unwrap_or_default(),
        }),
    }
    Ok(Ok(()))
}

// Reports go back as plain dicts; python/toolwire/_report.py wraps them.

fn report_to_py<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyDict>> {
    let violations = PyList::empty(py);
    for violation in &report.violations {
        let v = PyDict::new(py);
        v.set_item("rule", violation.rule())?;
        v.set_item("message", violation.message())?;
        match violation {
            Violation::ToolNameCollision {
                consumer,
                name,
                tools,
                ..
            } => {
                v.set_item("consumer", consumer)?;
                v.set_item("name", name)?;
                let listed = PyList::empty(py);
                for tool in tools {
                    let t = PyDict::new(py);
                    t.set_item("id", &tool.id)?;
                    t.set_item("label", &tool.label)?;
                    t.set_item("path", &tool.path)?;
                    listed.append(t)?;
                }
                v.set_item("tools", listed)?;
            }
            Violation::UnrecognisedEdgeType {
                edge,
                edge_id,
                edge_type,
                ..
            } => {
                v.set_item("edge", edge)?;
                v.set_item("edge_id", edge_id)?;
                v.set_item("edge_type", edge_type)?;
            }
        }
        violations.append(v)?;
    }
    let warnings = PyList::empty(py);
    for warning in &report.warnings {
        let w = PyDict::new(py);
        w.set_item("code", warning.code)?;
        w.set_item("node", &warning.node)?;
        w.set_item("edge", warning.edge)?;
        w.set_item("message", &warning.message)?;
        warnings.append(w)?;
    }
    let s = &report.stats;
    let stats = PyDict::new(py);
    stats.set_item("nodes", s.nodes)?;
    stats.set_item("edges", s.edges)?;
    stats.set_item("tool_edges", s.tool_edges)?;
    stats.set_item("consumers", s.consumers)?;
    stats.set_item("passthroughs", s.passthroughs)?;
    let out = PyDict::new(py);
    out.set_item("violations", violations)?;
    out.set_item("warnings", warnings)?;
    out.set_item("stats", stats)?;
    Ok(out)
}

#[pymodule]
fn _toolwire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_mapping, m)?)?;
    m.add_function(wrap_pyfunction!(check_json, m)?)?;
    m.add_function(wrap_pyfunction!(check_file, m)?)?;
    m.add_function(wrap_pyfunction!(check_files, m)?)?;
    m.add_function(wrap_pyfunction!(normalize_name, m)?)?;
    m.add(
        "DEFAULT_PASSTHROUGH_TYPES",
        crate::config::DEFAULT_PASSTHROUGH_TYPES.to_vec(),
    )?;
    m.add(
        "DEFAULT_EDGE_TYPES",
        crate::config::DEFAULT_EDGE_TYPES.to_vec(),
    )?;
    Ok(())
}
