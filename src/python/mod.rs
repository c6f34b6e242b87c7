//! The one place Python and the Rust core meet. It converts arguments into
//! core types, runs the core (without the GIL for text and file input), and
//! converts reports and errors back. No rule lives here.
//!
//! This file is the module, its check functions and the argument
//! conversion; run.rs runs core work off the GIL and turns its errors into
//! Python's, report.rs holds `CoreReport` and the classes it answers in,
//! explain.rs the explain entry points and their `ViewStream`, site.rs the
//! site check's, walk.rs the walk of an already-parsed workflow.

mod explain;
mod report;
mod run;
mod site;
mod walk;

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::catalogue::Catalogue;
use crate::{engine, names, snapshot, Budget, Config, Error, Format, InputError, Location};
use explain::ViewStream;
use report::{CoreGroup, CoreRename, CoreReport, CoreStats, CoreTool, CoreViolation, CoreWarning};
use run::{run, to_py_error, workflow_error};

/// Below this, text is checked with the GIL held: a thread costs more than
/// the check.
const LARGE_TEXT_BYTES: usize = 64 << 10;

fn config(passthrough_types: Vec<String>, edge_types: Vec<String>, node_types: Option<&NodeTypeCatalogue>) -> Config {
    let config = Config {
        passthrough_types,
        edge_types,
        catalogue: None,
    };
    match node_types {
        Some(catalogue) => config.with_catalogue(catalogue.inner.clone()),
        None => config,
    }
}

/// A node-type catalogue read by `load_node_types`, for CMP-10; opaque to
/// Python but for what `types` lists.
#[pyclass(frozen, module = "toolwire._toolwire")]
struct NodeTypeCatalogue {
    inner: Arc<Catalogue>,
}

#[pymethods]
impl NodeTypeCatalogue {
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Every type by id: (id, accepts_tools, passthrough, file, line, column).
    fn types(&self) -> Vec<(String, bool, bool, String, usize, usize)> {
        (self.inner.iter())
            .map(|(id, t)| {
                let (file, at) = (t.file.clone(), t.location);
                (id.to_owned(), t.accepts_tools, t.passthrough, file, at.line, at.column)
            })
            .collect()
    }
}

/// Reads node-type catalogue files (the editor's node list as JSON, Drupal
/// `flowdrop_node_type` config as YAML) into one catalogue, without the GIL.
/// A file that cannot be read or used raises `CatalogueError` naming it.
#[pyfunction]
fn load_node_types(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<NodeTypeCatalogue> {
    match run(py, true, |_| Catalogue::load(&paths))? {
        Ok(catalogue) => Ok(NodeTypeCatalogue {
            inner: Arc::new(catalogue),
        }),
        Err(e) => Err(run::catalogue_error(py, &e)),
    }
}

/// `input_format` as given to a file check: `None` (by the file's name),
/// `"json"` or `"yaml"`.
fn format_of(input_format: Option<&str>) -> PyResult<Option<Format>> {
    input_format
        .map(|name| {
            Format::parse_name(name).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "input_format must be 'json', 'yaml' or None, got {name:?}"
                ))
            })
        })
        .transpose()
}

/// The UTF-8 bytes of JSON text given as `str` or `bytes`.
fn text_of<'a>(py: Python<'_>, data: &'a Bound<'_, PyAny>) -> PyResult<&'a [u8]> {
    text_in(py, data, Format::Json)
}

/// The UTF-8 bytes of text of `format` given as `str` or `bytes`.
fn text_in<'a>(py: Python<'_>, data: &'a Bound<'_, PyAny>, format: Format) -> PyResult<&'a [u8]> {
    if let Ok(s) = data.cast::<PyString>() {
        let text = s.to_str().map_err(|_| {
            let message = format!("invalid {}: the text contains a lone surrogate", format.name());
            workflow_error(py, &InputError::new(message, None), None)
        })?;
        Ok(text.as_bytes())
    } else if let Ok(b) = data.cast::<PyBytes>() {
        Ok(b.as_bytes())
    } else {
        Err(PyTypeError::new_err("expected str or bytes"))
    }
}

/// Checks JSON text given as `str` or `bytes`, without the GIL.
#[pyfunction]
#[pyo3(signature = (data, passthrough_types, edge_types, node_types=None))]
fn check_json(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<CoreReport> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let text = text_of(py, data)?;
    let large = text.len() >= LARGE_TEXT_BYTES;
    let result = run(py, large, |stop| {
        engine::check_text(text, &config, Budget::new(true, stop))
    })?;
    result.map(CoreReport::new).map_err(|e| to_py_error(py, e, None))
}

/// Checks YAML text (a Drupal config export) given as `str` or `bytes`,
/// without the GIL.
#[pyfunction]
#[pyo3(signature = (data, passthrough_types, edge_types, node_types=None))]
fn check_yaml(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<CoreReport> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let text = text_in(py, data, Format::Yaml)?;
    // YAML reads slower than JSON: worth a thread from smaller texts.
    let large = text.len() >= LARGE_TEXT_BYTES / 4;
    let result = run(py, large, |stop| {
        engine::check_text_as(text, Format::Yaml, &config, Budget::new(true, stop))
    })?;
    result.map(CoreReport::new).map_err(|e| to_py_error(py, e, None))
}

/// Reads and checks a file, without the GIL: as `input_format` (`"json"`
/// or `"yaml"`), or by its name when `None`.
#[pyfunction]
#[pyo3(signature = (path, passthrough_types, edge_types, input_format=None, node_types=None))]
fn check_file(
    py: Python<'_>,
    path: PathBuf,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    input_format: Option<&str>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<CoreReport> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let format = format_of(input_format)?;
    // Reading a file is I/O, so the GIL is always released for it.
    let outcome = run(py, true, |stop| {
        engine::check_file(&path, format, &config, Budget::new(true, stop))
    })?;
    outcome
        .map(CoreReport::new)
        .map_err(|e| to_py_error(py, e, Some(&path)))
}

/// Checks many files on `jobs` threads (0: one per core), without the GIL.
/// Returns, per path and in order, a report or the exception that
/// `check_file` would have raised for it.
#[pyfunction]
#[pyo3(signature = (paths, passthrough_types, edge_types, jobs, input_format=None, node_types=None))]
fn check_files<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    jobs: usize,
    input_format: Option<&str>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<Bound<'py, PyList>> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let format = format_of(input_format)?;
    let outcomes = run(py, true, |stop| {
        engine::check_files(&paths, format, &config, jobs, stop)
    })?;
    report_list(py, outcomes, &paths)
}

/// Per path, in order, its report or the exception `check_file` would
/// have raised for it; an interruption raises `KeyboardInterrupt`.
fn report_list<'py>(
    py: Python<'py>,
    outcomes: Vec<Result<crate::Report, Error>>,
    paths: &[PathBuf],
) -> PyResult<Bound<'py, PyList>> {
    let results = PyList::empty(py);
    for (outcome, path) in outcomes.into_iter().zip(paths) {
        match outcome {
            Ok(report) => results.append(CoreReport::new(report))?,
            Err(Error::Interrupted) => return Err(PyKeyboardInterrupt::new_err(())),
            Err(error) => results.append(to_py_error(py, error, Some(path)).into_value(py))?,
        }
    }
    Ok(results)
}

/// `check_files` for toolwire.dask's workers: each report is encoded
/// (src/snapshot/mod.rs) on the checking thread, without the GIL, and no report
/// object is made. Per path, in order: the bytes; the exact violation
/// count, when the findings name more than `budget` ids; or the exception
/// `check_file` would have raised.
#[pyfunction]
#[pyo3(signature = (paths, passthrough_types, edge_types, jobs, budget, node_types=None))]
fn check_files_encoded<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    jobs: usize,
    budget: u64,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<Bound<'py, PyList>> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let outcomes = run(py, true, |stop| {
        engine::check_files(&paths, None, &config, jobs, stop)
            .into_iter()
            .map(|outcome| outcome.map(|report| snapshot::encode(&report, budget)))
            .collect::<Vec<_>>()
    })?;
    encoded_list(py, outcomes, &paths)
}

/// Per path, in order, its encoded report (src/snapshot/mod.rs), its exact
/// violation count when the findings are too large to ship, or the
/// exception `check_file` would have raised for it.
fn encoded_list<'py>(
    py: Python<'py>,
    outcomes: Vec<Result<Result<Vec<u8>, snapshot::TooLarge>, Error>>,
    paths: &[PathBuf],
) -> PyResult<Bound<'py, PyList>> {
    let results = PyList::empty(py);
    for (outcome, path) in outcomes.into_iter().zip(paths) {
        match outcome {
            Ok(Ok(bytes)) => results.append(PyBytes::new(py, &bytes))?,
            Ok(Err(too_large)) => results.append(too_large.violation_count)?,
            Err(Error::Interrupted) => return Err(PyKeyboardInterrupt::new_err(())),
            Err(error) => results.append(to_py_error(py, error, Some(path)).into_value(py))?,
        }
    }
    Ok(results)
}

/// The graph of an already-parsed workflow (a `Mapping`), walked with the
/// GIL; a Python error met on the way is raised as it is.
fn walked(py: Python<'_>, workflow: &Bound<'_, PyAny>, config: &Config) -> PyResult<crate::ToolGraph<'static>> {
    walk::walk(workflow, config).map_err(|e| match e {
        walk::WalkError::Python(e) => e,
        walk::WalkError::Input(e) => workflow_error(py, &e, None),
    })
}

/// Checks an already-parsed workflow (a `Mapping`), walking it directly.
#[pyfunction]
#[pyo3(signature = (workflow, passthrough_types, edge_types, node_types=None))]
fn check_mapping(
    py: Python<'_>,
    workflow: &Bound<'_, PyAny>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<CoreReport> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let graph = walked(py, workflow, &config)?;
    // The walk copied every string it needs, so the Python objects are no
    // longer touched; releasing the GIL only pays off on large workflows.
    let release = graph.node_count() + graph.tool_edge_count > 10_000;
    let result = run(py, release, |stop| {
        engine::check_graph(graph, &config, Budget::new(true, stop))
    })?;
    result.map(CoreReport::new).map_err(|e| to_py_error(py, e, None))
}

/// Where the time of `check_file` goes, in seconds: reading the file,
/// parsing it into the graph, and checking. For the benchmark suite.
#[pyfunction]
fn phase_times<'py>(
    py: Python<'py>,
    path: PathBuf,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config(passthrough_types, edge_types, None);
    let timed = run(py, true, |_| engine::phase_times(&path, &config))?;
    let [read, parse, check] = timed.map_err(|e| to_py_error(py, e, Some(&path)))?;
    let out = PyDict::new(py);
    out.set_item("read", read.as_secs_f64())?;
    out.set_item("parse", parse.as_secs_f64())?;
    out.set_item("check", check.as_secs_f64())?;
    Ok(out)
}

#[pyfunction]
fn normalize_name(label: &str) -> String {
    names::normalize_name(label)
}

fn at(location: Option<Location>) -> Option<(usize, usize)> {
    location.map(|l| (l.line, l.column))
}

#[pymodule]
fn _toolwire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_mapping, m)?)?;
    m.add_function(wrap_pyfunction!(check_json, m)?)?;
    m.add_function(wrap_pyfunction!(check_yaml, m)?)?;
    m.add_function(wrap_pyfunction!(check_file, m)?)?;
    m.add_function(wrap_pyfunction!(check_files, m)?)?;
    m.add_function(wrap_pyfunction!(check_files_encoded, m)?)?;
    m.add_function(wrap_pyfunction!(site::check_site, m)?)?;
    m.add_function(wrap_pyfunction!(site::check_site_encoded, m)?)?;
    m.add_function(wrap_pyfunction!(site::read_site, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain_json, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain_file, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain_mapping, m)?)?;
    m.add_function(wrap_pyfunction!(normalize_name, m)?)?;
    m.add_function(wrap_pyfunction!(phase_times, m)?)?;
    m.add_function(wrap_pyfunction!(load_node_types, m)?)?;
    m.add_class::<NodeTypeCatalogue>()?;
    m.add_class::<CoreReport>()?;
    m.add_class::<CoreViolation>()?;
    m.add_class::<CoreTool>()?;
    m.add_class::<CoreRename>()?;
    m.add_class::<CoreWarning>()?;
    m.add_class::<CoreStats>()?;
    m.add_class::<CoreGroup>()?;
    m.add_class::<ViewStream>()?;
    m.add_class::<site::SiteFacts>()?;
    m.add(
        "DEFAULT_PASSTHROUGH_TYPES",
        crate::config::DEFAULT_PASSTHROUGH_TYPES.to_vec(),
    )?;
    m.add("DEFAULT_EDGE_TYPES", crate::config::DEFAULT_EDGE_TYPES.to_vec())?;
    Ok(())
}
