//! The one place Python and the Rust core meet. It converts arguments into
//! core types, runs the core (without the GIL for text and file input), and
//! converts reports and errors back. No rule lives here.

mod walk;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::{PyLookupError, PyOSError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};

use crate::{batch, check, explain, names, Config, InputError, Interrupt, Location, Report, Violation};

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

/// The one way into the core. Small work runs right here, with the GIL.
/// Large work runs on a scoped thread without the GIL, while this thread
/// wakes every 50 ms to let Python handle signals: on Ctrl-C the core is
/// told to stop (it does within milliseconds), and `KeyboardInterrupt` is
/// raised. Either way a panic (a bug) becomes an ordinary `RuntimeError`
/// that says so, never an abort.
fn run<T: Send>(py: Python<'_>, large: bool, work: impl FnOnce(Interrupt<'_>) -> T + Send) -> PyResult<T> {
    if !large {
        return catch_unwind(AssertUnwindSafe(|| work(Interrupt::never()))).map_err(internal_error);
    }
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (done, mut finished) = mpsc::channel();
        let stop = &stop;
        scope.spawn(move || {
            let _ = done.send(catch_unwind(AssertUnwindSafe(|| work(Interrupt::on(stop)))));
        });
        loop {
            // The receiver is moved in and out because `detach` only takes
            // closures that may cross threads, which a borrowed one may not.
            let (receiver, waited) = py.detach(move || {
                let waited = finished.recv_timeout(Duration::from_millis(50));
                (finished, waited)
            });
            finished = receiver;
            match waited {
                Ok(outcome) => return outcome.map_err(internal_error),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        // Wait for the core to notice; it checks often.
                        let _ = py.detach(move || finished.recv());
                        return Err(signal);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "toolwire internal error: the worker thread vanished",
                    ))
                }
            }
        }
    })
}

fn internal_error(panic: Box<dyn std::any::Any + Send>) -> PyErr {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    PyRuntimeError::new_err(format!("toolwire internal error (please report it): {what}"))
}

/// Below this, text is checked with the GIL held: a thread costs more than
/// the check.
const LARGE_TEXT_BYTES: usize = 64 << 10;

fn config(passthrough_types: Vec<String>, edge_types: Vec<String>) -> Config {
    Config {
        passthrough_types,
        edge_types,
    }
}

/// The UTF-8 bytes of JSON text given as `str` or `bytes`.
fn text_of<'a>(py: Python<'_>, data: &'a Bound<'_, PyAny>) -> PyResult<&'a [u8]> {
    if let Ok(s) = data.cast::<PyString>() {
        let text = s.to_str().map_err(|_| {
            workflow_error(
                py,
                &InputError::new("invalid JSON: the text contains a lone surrogate", None),
                None,
            )
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
fn check_json<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<Bound<'py, PyTuple>> {
    let config = config(passthrough_types, edge_types);
    let text = text_of(py, data)?;
    let large = text.len() >= LARGE_TEXT_BYTES;
    let result = run(py, large, |stop| check::check_bytes_with(text, &config, true, stop))?;
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
) -> PyResult<Bound<'py, PyTuple>> {
    let config = config(passthrough_types, edge_types);
    // Reading a file is I/O, so the GIL is always released for it.
    let outcome = run(py, true, |stop| batch::check_path(&path, &config, true, stop))?;
    outcome_to_py(py, outcome, &path)
}

/// Checks many files on `jobs` threads (0: one per core), without the GIL.
/// Returns, per path and in order, a report (tuples) or the exception that
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
    let outcomes = run(py, true, |stop| batch::check_paths(&paths, &config, jobs, stop))?;
    let results = PyList::empty(py);
    for (outcome, path) in outcomes.into_iter().zip(&paths) {
        match outcome_to_py(py, outcome, path) {
            Ok(report) => results.append(report)?,
            Err(error) => results.append(error.into_value(py))?,
        }
    }
    Ok(results)
}

fn outcome_to_py<'py>(py: Python<'py>, outcome: batch::FileOutcome, path: &Path) -> PyResult<Bound<'py, PyTuple>> {
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
) -> PyResult<Bound<'py, PyTuple>> {
    let config = config(passthrough_types, edge_types);
    let graph = match walk::walk(workflow, &config) {
        Ok(graph) => graph,
        Err(walk::WalkError::Python(e)) => return Err(e),
        Err(walk::WalkError::Input(e)) => return Err(workflow_error(py, &e, None)),
    };
    // The walk copied every string it needs, so the Python objects are no
    // longer touched; releasing the GIL only pays off on large workflows.
    let release = graph.node_count() + graph.tool_edge_count > 10_000;
    let report = run(py, release, |stop| check::check_graph_with(&graph, &config, stop))?;
    report_to_py(py, &report)
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
    let config = config(passthrough_types, edge_types);
    let timed = run(py, true, |_| {
        let start = std::time::Instant::now();
        let bytes = batch::read_file(&path)?;
        let read = start.elapsed();
        let graph = crate::parse::parse(&bytes, &config).map_err(|e| std::io::Error::other(e.message))?;
        let parsed = start.elapsed();
        let report = check::check_graph(&graph, &config);
        let checked = start.elapsed();
        drop((report, graph));
        Ok::<_, std::io::Error>([read, parsed - read, checked - parsed])
    })?;
    let [read, parse, check] = timed.map_err(|e| os_error(&e, &path))?;
    let out = PyDict::new(py);
    out.set_item("read", read.as_secs_f64())?;
    out.set_item("parse", parse.as_secs_f64())?;
    out.set_item("check", check.as_secs_f64())?;
    Ok(out)
}

/// What each consumer (or only the node `consumer`) sees, from JSON text
/// given as `str` or `bytes`.
#[pyfunction]
fn explain_json<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    consumer: Option<&str>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<Bound<'py, PyList>> {
    let text = text_of(py, data)?;
    explain_text(py, text, consumer, &config(passthrough_types, edge_types))
}

/// `explain_json` of a file's contents.
#[pyfunction]
fn explain_file<'py>(
    py: Python<'py>,
    path: PathBuf,
    consumer: Option<&str>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<Bound<'py, PyList>> {
    let bytes = run(py, true, |_| batch::read_file(&path))?.map_err(|e| os_error(&e, &path))?;
    explain_text(py, &bytes, consumer, &config(passthrough_types, edge_types))
}

// A view goes back as
//   (consumer, at, [(name, id, label, [path...], at, collides), ...], [(box, label), ...]).
fn explain_text<'py>(
    py: Python<'py>,
    text: &[u8],
    consumer: Option<&str>,
    config: &Config,
) -> PyResult<Bound<'py, PyList>> {
    let large = text.len() >= LARGE_TEXT_BYTES;
    // Ok(Err(..)): the workflow cannot be read. Err(..): it can, but the
    // node asked about is not in it, which is a question, not an input, error.
    let views = run(py, large, |stop| {
        let graph = crate::parse::parse_with(text, config, true, stop)?;
        Ok(explain::explain(&graph, consumer))
    })?;
    let views = match views {
        Ok(Ok(views)) => views,
        Ok(Err(unknown)) => return Err(PyLookupError::new_err(unknown.message)),
        Err(input) => return Err(workflow_error(py, &input, Some(text))),
    };
    let out = PyList::empty(py);
    for view in views {
        let tools = PyList::empty(py);
        for t in &view.tools {
            tools.append((&t.name, &t.id, &t.label, &t.path, at(t.location), t.collides))?;
        }
        out.append((view.consumer, at(view.location), tools, view.boxes))?;
    }
    Ok(out)
}

#[pyfunction]
fn normalize_name(label: &str) -> String {
    names::normalize_name(label)
}

// Reports go back as tuples, the cheapest Python containers to build;
// python/toolwire/_report.py turns them into the public classes. The shapes:
//   report    (violations, warnings, stats)
//   CMP-9     ("CMP-9", message, consumer, name, [tool...], at, [rename...], [(box, label)...])
//   tool      (id, label, [path...], at)
//   rename    (node, label, new_label, new_name)
//   EDGE-5    ("EDGE-5", message, edge, edge_id, edge_type, at, suggestion)
//   warning   (code, node, edge, message, at)
//   stats     (nodes, edges, tool_edges, consumers, passthroughs)
//   at        (line, column) or None

fn at(location: Option<Location>) -> Option<(usize, usize)> {
    location.map(|l| (l.line, l.column))
}

fn report_to_py<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyTuple>> {
    let violations = PyList::empty(py);
    for violation in &report.violations {
        let converted = match violation {
            Violation::ToolNameCollision {
                consumer,
                name,
                tools,
                message,
                location,
                fix,
                boxes,
            } => {
                let listed = PyList::empty(py);
                for tool in tools {
                    listed.append((&tool.id, &tool.label, &tool.path, at(tool.location)))?;
                }
                let renames = PyList::empty(py);
                for r in fix {
                    renames.append((&r.node, &r.label, &r.new_label, &r.new_name))?;
                }
                ("CMP-9", message, consumer, name, listed, at(*location), renames, boxes).into_pyobject(py)?
            }
            Violation::UnrecognisedEdgeType {
                edge,
                edge_id,
                edge_type,
                message,
                location,
                suggestion,
            } => ("EDGE-5", message, edge, edge_id, edge_type, at(*location), suggestion).into_pyobject(py)?,
        };
        violations.append(converted)?;
    }
    let warnings = PyList::empty(py);
    for w in &report.warnings {
        warnings.append((w.code, &w.node, w.edge, &w.message, at(w.location)))?;
    }
    let s = &report.stats;
    let stats = (s.nodes, s.edges, s.tool_edges, s.consumers, s.passthroughs);
    (violations, warnings, stats).into_pyobject(py)
}

#[pymodule]
fn _toolwire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_mapping, m)?)?;
    m.add_function(wrap_pyfunction!(check_json, m)?)?;
    m.add_function(wrap_pyfunction!(check_file, m)?)?;
    m.add_function(wrap_pyfunction!(check_files, m)?)?;
    m.add_function(wrap_pyfunction!(explain_json, m)?)?;
    m.add_function(wrap_pyfunction!(explain_file, m)?)?;
    m.add_function(wrap_pyfunction!(normalize_name, m)?)?;
    m.add_function(wrap_pyfunction!(phase_times, m)?)?;
    m.add(
        "DEFAULT_PASSTHROUGH_TYPES",
        crate::config::DEFAULT_PASSTHROUGH_TYPES.to_vec(),
    )?;
    m.add("DEFAULT_EDGE_TYPES", crate::config::DEFAULT_EDGE_TYPES.to_vec())?;
    Ok(())
}
