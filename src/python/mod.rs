//! The one place Python and the Rust core meet. It converts arguments into
//! core types, runs the core (without the GIL for text and file input), and
//! converts reports and errors back. No rule lives here.

mod walk;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::{
    PyIndexError, PyKeyboardInterrupt, PyLookupError, PyOSError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyType};

use crate::explain::{ConsumerView, Views};
use crate::snapshot::{self, Shipped, ShippedViolation};
use crate::{
    engine, names, Collision, Config, EdgeTypeViolation, Error, InputError, Interrupt, Location, Rename, Report,
    Violation, Warning,
};

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

/// The Python exception for a core error: `WorkflowError` for bad input,
/// `OSError` (with errno, so Python picks `FileNotFoundError` and the
/// like), `LookupError` for an unknown node, `KeyboardInterrupt`.
fn to_py_error(py: Python<'_>, error: Error, path: Option<&Path>) -> PyErr {
    match error {
        Error::Input(e, location) => workflow_error_at(py, &e.message, location),
        Error::UnknownNode(_) => PyLookupError::new_err(error.to_string()),
        Error::Interrupted => PyKeyboardInterrupt::new_err(()),
        Error::Io(io) => {
            let filename = path.map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
            match io.raw_os_error() {
                // Python's own words for errno, as its `open()` would say them.
                Some(errno) => match os_strerror(py, errno) {
                    Ok(strerror) => PyOSError::new_err((errno, strerror, filename)),
                    Err(e) => e,
                },
                None => PyOSError::new_err(format!("{io}: {filename:?}")),
            }
        }
    }
}

fn os_strerror(py: Python<'_>, errno: i32) -> PyResult<String> {
    py.import("os")?.call_method1("strerror", (errno,))?.extract()
}

/// Checks JSON text given as `str` or `bytes`, without the GIL.
#[pyfunction]
fn check_json(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<CoreReport> {
    let config = config(passthrough_types, edge_types);
    let text = text_of(py, data)?;
    let large = text.len() >= LARGE_TEXT_BYTES;
    let result = run(py, large, |stop| engine::check_text(text, &config, true, stop))?;
    result.map(CoreReport::new).map_err(|e| to_py_error(py, e, None))
}

/// Reads and checks a file, without the GIL.
#[pyfunction]
fn check_file(
    py: Python<'_>,
    path: PathBuf,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<CoreReport> {
    let config = config(passthrough_types, edge_types);
    // Reading a file is I/O, so the GIL is always released for it.
    let outcome = run(py, true, |stop| engine::check_file(&path, &config, true, stop))?;
    outcome
        .map(CoreReport::new)
        .map_err(|e| to_py_error(py, e, Some(&path)))
}

/// Checks many files on `jobs` threads (0: one per core), without the GIL.
/// Returns, per path and in order, a report or the exception that
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
    let outcomes = run(py, true, |stop| engine::check_files(&paths, &config, jobs, stop))?;
    let results = PyList::empty(py);
    for (outcome, path) in outcomes.into_iter().zip(&paths) {
        match outcome {
            Ok(report) => results.append(CoreReport::new(report))?,
            Err(Error::Interrupted) => return Err(PyKeyboardInterrupt::new_err(())),
            Err(error) => results.append(to_py_error(py, error, Some(path)).into_value(py))?,
        }
    }
    Ok(results)
}

/// `check_files` for toolwire.dask's workers: each report is encoded
/// (src/snapshot.rs) on the checking thread, without the GIL, and no report
/// object is made. Per path, in order: the bytes; the exact violation
/// count, when the findings name more than `budget` ids; or the exception
/// `check_file` would have raised.
#[pyfunction]
fn check_files_encoded<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    jobs: usize,
    budget: u64,
) -> PyResult<Bound<'py, PyList>> {
    let config = config(passthrough_types, edge_types);
    let outcomes = run(py, true, |stop| {
        engine::check_files(&paths, &config, jobs, stop)
            .into_iter()
            .map(|outcome| outcome.map(|report| snapshot::encode(&report, budget)))
            .collect::<Vec<_>>()
    })?;
    let results = PyList::empty(py);
    for (outcome, path) in outcomes.into_iter().zip(&paths) {
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
fn check_mapping(
    py: Python<'_>,
    workflow: &Bound<'_, PyAny>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
) -> PyResult<CoreReport> {
    let config = config(passthrough_types, edge_types);
    let graph = walked(py, workflow, &config)?;
    // The walk copied every string it needs, so the Python objects are no
    // longer touched; releasing the GIL only pays off on large workflows.
    let release = graph.node_count() + graph.tool_edge_count > 10_000;
    let result = run(py, release, |stop| engine::check_graph(graph, &config, stop))?;
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
    let config = config(passthrough_types, edge_types);
    let timed = run(py, true, |_| engine::phase_times(&path, &config))?;
    let [read, parse, check] = timed.map_err(|e| to_py_error(py, e, Some(&path)))?;
    let out = PyDict::new(py);
    out.set_item("read", read.as_secs_f64())?;
    out.set_item("parse", parse.as_secs_f64())?;
    out.set_item("check", check.as_secs_f64())?;
    Ok(out)
}

/// What each consumer (or only the node `consumer`) sees, from JSON text
/// given as `str` or `bytes`: a stream of its views (`ViewStream`). The
/// text is copied, for the thread that makes the views to own.
#[pyfunction]
fn explain_json(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    consumer: Option<String>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    chunk_tools: usize,
) -> PyResult<ViewStream> {
    let text = text_of(py, data)?.to_vec();
    let config = config(passthrough_types, edge_types);
    ViewStream::start(py, None, chunk_tools, move |stop, feed| {
        engine::explain_text(&text, consumer.as_deref(), &config, stop, |views| {
            feed.pour(views, stop)
        })
    })
}

/// `explain_json` of a file's contents, read on the stream's thread.
#[pyfunction]
fn explain_file(
    py: Python<'_>,
    path: PathBuf,
    consumer: Option<String>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    chunk_tools: usize,
) -> PyResult<ViewStream> {
    let config = config(passthrough_types, edge_types);
    let read_from = path.clone();
    ViewStream::start(py, Some(path), chunk_tools, move |stop, feed| {
        engine::explain_file(&read_from, consumer.as_deref(), &config, stop, |views| {
            feed.pour(views, stop)
        })
    })
}

/// `explain_json` of an already-parsed workflow (a `Mapping`), walked here
/// with the GIL; the views are made without it. They have no locations.
#[pyfunction]
fn explain_mapping(
    py: Python<'_>,
    workflow: &Bound<'_, PyAny>,
    consumer: Option<String>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    chunk_tools: usize,
) -> PyResult<ViewStream> {
    let config = config(passthrough_types, edge_types);
    let graph = walked(py, workflow, &config)?;
    ViewStream::start(py, None, chunk_tools, move |stop, feed| {
        engine::explain_graph(&graph, consumer.as_deref(), |views| feed.pour(views, stop))
    })
}

/// What a stream's thread sends: the number of views, then the views in
/// chunks; or why there are none.
enum Made {
    Count(usize),
    Views(Vec<ConsumerView>),
    Failed(Error),
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Views in flight between the thread and Python: with one chunk being
/// read and one being made, the memory a stream holds beyond its graph is
/// bounded by a few chunks, whatever the number of views.
const CHUNKS_AHEAD: usize = 2;

/// The sending end of a stream, on its thread.
struct Feed {
    sender: mpsc::SyncSender<Made>,
    made: Arc<AtomicUsize>,
    chunk_tools: usize,
}

impl Feed {
    /// Sends how many views there are, then the views in chunks of at
    /// least `chunk_tools` tools (a view counting as one more), each chunk
    /// as soon as it is full. Stops early when the stream was dropped or
    /// interrupted.
    fn pour(&self, views: Views<'_, '_>, stop: Interrupt<'_>) {
        if self.sender.send(Made::Count(views.len())).is_err() {
            return;
        }
        let mut chunk = Vec::new();
        let mut tools = 0;
        for view in views {
            if stop.requested() {
                return;
            }
            tools += view.tools.len() + 1;
            chunk.push(view);
            self.made.fetch_add(1, Ordering::Relaxed);
            if tools >= self.chunk_tools {
                tools = 0;
                if self.sender.send(Made::Views(std::mem::take(&mut chunk))).is_err() {
                    return;
                }
            }
        }
        if !chunk.is_empty() {
            let _ = self.sender.send(Made::Views(chunk));
        }
    }
}

/// The views of one workflow, made on a thread of their own (which owns
/// the input and the graph) while Python reads the chunks already made:
/// iterating yields lists of views, each a tuple (`_ViewTuple` in the
/// stub). Errors in the input are raised when the stream is made, before
/// any view. Dropping the stream stops the thread.
#[pyclass(frozen, module = "toolwire._toolwire")]
struct ViewStream {
    count: usize,
    made: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    receiver: Mutex<mpsc::Receiver<Made>>,
    path: Option<PathBuf>,
}

/// A view as it crosses into Python: (consumer, location, tools,
/// box_labels, forwards), each tool (name, id, label, path, location,
/// collides).
type ViewTuple = (
    String,
    Option<(usize, usize)>,
    Vec<(String, String, String, Vec<String>, Option<(usize, usize)>, bool)>,
    Vec<(String, String)>,
    bool,
);

fn view_tuple(view: ConsumerView) -> ViewTuple {
    let tools = view.tools.into_iter();
    (
        view.consumer,
        at(view.location),
        tools
            .map(|t| (t.name, t.id, t.label, t.path, at(t.location), t.collides))
            .collect(),
        view.boxes,
        view.forwards,
    )
}

impl ViewStream {
    /// Starts `explain` on a thread of its own and waits for the number of
    /// views, or for why there are none (raised here, as the error of
    /// `path` when given).
    fn start(
        py: Python<'_>,
        path: Option<PathBuf>,
        chunk_tools: usize,
        explain: impl FnOnce(Interrupt<'_>, &Feed) -> Result<(), Error> + Send + 'static,
    ) -> PyResult<ViewStream> {
        let (sender, receiver) = mpsc::sync_channel(CHUNKS_AHEAD);
        let made = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let feed = Feed {
            sender,
            made: Arc::clone(&made),
            chunk_tools: chunk_tools.max(1),
        };
        let stop_thread = Arc::clone(&stop);
        std::thread::Builder::new()
            .name("toolwire-explain".into())
            .spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| explain(Interrupt::on(&stop_thread), &feed)));
                let failed = match outcome {
                    Ok(Ok(())) => return,
                    Ok(Err(error)) => Made::Failed(error),
                    Err(panic) => Made::Panicked(panic),
                };
                let _ = feed.sender.send(failed);
            })
            .map_err(|e| PyRuntimeError::new_err(format!("toolwire: cannot start a thread to explain: {e}")))?;
        let mut stream = ViewStream {
            count: 0,
            made,
            stop,
            receiver: Mutex::new(receiver),
            path,
        };
        stream.count = match stream.receive(py)? {
            Some(Made::Count(count)) => count,
            Some(other) => return Err(stream.failure(py, other)),
            None => return Err(vanished()),
        };
        Ok(stream)
    }

    /// The next message from the thread, None once it has finished. Waits
    /// without the GIL, waking every 50 ms for Python to handle signals: on
    /// Ctrl-C the thread is told to stop and `KeyboardInterrupt` raised.
    fn receive(&self, py: Python<'_>) -> PyResult<Option<Made>> {
        loop {
            let waited = py.detach(|| {
                let receiver = self.receiver.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                receiver.recv_timeout(Duration::from_millis(50))
            });
            match waited {
                Ok(made) => return Ok(Some(made)),
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        self.stop.store(true, Ordering::Relaxed);
                        return Err(signal);
                    }
                }
            }
        }
    }

    fn failure(&self, py: Python<'_>, made: Made) -> PyErr {
        match made {
            Made::Failed(error) => to_py_error(py, error, self.path.as_deref()),
            Made::Panicked(panic) => internal_error(panic),
            Made::Count(_) | Made::Views(_) => {
                PyRuntimeError::new_err("toolwire internal error (please report it): views out of order")
            }
        }
    }
}

fn vanished() -> PyErr {
    PyRuntimeError::new_err("toolwire internal error: the worker thread vanished")
}

impl Drop for ViewStream {
    fn drop(&mut self) {
        // The thread also stops at its next send, which now fails; this
        // stops it between views too.
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[pymethods]
impl ViewStream {
    /// How many views the stream yields in all.
    #[getter]
    fn count(&self) -> usize {
        self.count
    }

    /// How many views the thread has made so far: those yielded, those
    /// waiting to be, and those of the chunk being filled.
    #[getter]
    fn made(&self) -> usize {
        self.made.load(Ordering::Relaxed)
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next chunk of views; StopIteration after the last.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<ViewTuple>>> {
        match self.receive(py)? {
            Some(Made::Views(views)) => Ok(Some(views.into_iter().map(view_tuple).collect())),
            Some(other) => Err(self.failure(py, other)),
            None => Ok(None),
        }
    }
}

#[pyfunction]
fn normalize_name(label: &str) -> String {
    names::normalize_name(label)
}

fn at(location: Option<Location>) -> Option<(usize, usize)> {
    location.map(|l| (l.line, l.column))
}

/// A workflow's report, read on demand (python/toolwire/_report.py wraps
/// what it answers in the public classes). Either a check's own report,
/// whose CMP-9 violations are stored by cause and built here one at a time
/// when asked for, or a snapshot decoded from bytes that toolwire.dask
/// sent from a worker; both answer every method the same way.
#[pyclass(frozen, module = "toolwire._toolwire")]
struct CoreReport {
    findings: Findings,
}

/// Both boxed: a report is four times the size of a snapshot's index, and
/// the Python object need not hold the larger of the two.
enum Findings {
    Checked(Box<Report>),
    Shipped(Box<Shipped>),
}

impl CoreReport {
    fn new(report: Report) -> Self {
        CoreReport {
            findings: Findings::Checked(Box::new(report)),
        }
    }
}

fn out_of_range(what: &str) -> impl FnOnce() -> PyErr + '_ {
    move || PyIndexError::new_err(format!("{what} index out of range"))
}

fn no_tools() -> PyErr {
    PyIndexError::new_err("an EDGE-5 violation has no tools")
}

fn edge_violation(e: &EdgeTypeViolation) -> CoreViolation {
    CoreViolation {
        rule: "EDGE-5",
        message: e.message.clone(),
        location: at(e.location),
        edge: Some(e.edge),
        edge_id: e.edge_id.clone(),
        edge_type: Some(e.edge_type.clone()),
        suggestion: e.suggestion.clone(),
        ..CoreViolation::default()
    }
}

fn core_warning(w: Warning) -> CoreWarning {
    CoreWarning {
        code: w.code,
        node: w.node,
        edge: w.edge,
        message: w.message,
        location: at(w.location),
    }
}

fn owned(ids: Vec<&str>) -> Vec<String> {
    ids.into_iter().map(str::to_owned).collect()
}

#[pymethods]
impl CoreReport {
    /// EDGE-5 violations first, then CMP-9 ones.
    #[getter]
    fn violation_count(&self) -> u64 {
        match &self.findings {
            Findings::Checked(report) => report.violation_count(),
            Findings::Shipped(shipped) => shipped.violation_count(),
        }
    }

    fn violation(&self, index: u64) -> PyResult<CoreViolation> {
        Ok(match &self.findings {
            Findings::Checked(report) => match report.violation(index).ok_or_else(out_of_range("violation"))? {
                Violation::UnrecognisedEdgeType(e) => edge_violation(e),
                Violation::ToolNameCollision(c) => {
                    let tools = c.tools();
                    CoreViolation {
                        rule: "CMP-9",
                        message: c.message(),
                        location: at(c.location()),
                        consumer: Some(c.consumer().to_owned()),
                        name: Some(c.name().to_owned()),
                        tools: (tools.iter())
                            .map(|t| CoreTool {
                                id: t.id().to_owned(),
                                label: t.label().to_owned(),
                                location: at(t.location()),
                                path_len: t.path_len(),
                            })
                            .collect(),
                        fix: c.fix().into_iter().map(CoreRename::of).collect(),
                        box_labels: (Collision::box_labels_of(&tools).into_iter())
                            .map(|(b, l)| (b.to_owned(), l.to_owned()))
                            .collect(),
                        group: Some(c.group()),
                        ..CoreViolation::default()
                    }
                }
            },
            Findings::Shipped(shipped) => match shipped.violation(index).ok_or_else(out_of_range("violation"))? {
                ShippedViolation::UnrecognisedEdgeType(e) => edge_violation(&e),
                ShippedViolation::ToolNameCollision(c) => CoreViolation {
                    rule: "CMP-9",
                    message: c.message.to_owned(),
                    location: at(c.location),
                    consumer: Some(c.consumer.to_owned()),
                    name: Some(c.name.to_owned()),
                    tools: c
                        .tools
                        .iter()
                        .map(|t| CoreTool {
                            id: t.id.to_owned(),
                            label: t.label.to_owned(),
                            location: at(t.location),
                            path_len: t.path_len,
                        })
                        .collect(),
                    fix: c.fix.iter().map(CoreRename::of).collect(),
                    box_labels: c
                        .box_labels
                        .iter()
                        .map(|(b, l)| (b.to_string(), l.to_string()))
                        .collect(),
                    group: Some(c.group),
                    ..CoreViolation::default()
                },
            },
        })
    }

    /// Ids `start..stop` of the path of tool `tool` of violation `index`.
    fn tool_path(&self, index: u64, tool: usize, start: usize, stop: usize) -> PyResult<Vec<String>> {
        match &self.findings {
            Findings::Checked(report) => match report.violation(index).ok_or_else(out_of_range("violation"))? {
                Violation::ToolNameCollision(c) => {
                    let t = c.tool(tool).ok_or_else(out_of_range("tool"))?;
                    Ok(owned(t.path_ids(start, stop)))
                }
                Violation::UnrecognisedEdgeType(_) => Err(no_tools()),
            },
            Findings::Shipped(shipped) => match shipped.violation(index).ok_or_else(out_of_range("violation"))? {
                ShippedViolation::ToolNameCollision(c) => {
                    let t = c.tools.get(tool).ok_or_else(out_of_range("tool"))?;
                    Ok(owned(shipped.path(t, start, stop).ok_or_else(out_of_range("path"))?))
                }
                ShippedViolation::UnrecognisedEdgeType(_) => Err(no_tools()),
            },
        }
    }

    /// The deterministic work counters (src/work.rs) of a check made here,
    /// by name, with `total`: the check's steps plus every read since.
    /// Empty for a report shipped from elsewhere.
    #[getter]
    fn work(&self) -> std::collections::BTreeMap<&'static str, u64> {
        match &self.findings {
            Findings::Checked(report) => report.collisions.work().into_iter().collect(),
            Findings::Shipped(_) => Default::default(),
        }
    }

    #[getter]
    fn warning_count(&self) -> usize {
        match &self.findings {
            Findings::Checked(report) => report.warnings.len(),
            Findings::Shipped(shipped) => shipped.warning_count(),
        }
    }

    /// Warnings `start` to `stop` (exclusive, clamped): a workflow with a
    /// lossy label on each of its 100,000 tools has as many warnings, which
    /// Python reads as they are asked for.
    fn warnings(&self, start: usize, stop: usize) -> Vec<CoreWarning> {
        let stop = stop.min(self.warning_count());
        let start = start.min(stop);
        let warning = |i| match &self.findings {
            Findings::Checked(report) => report.warnings.get(i),
            Findings::Shipped(shipped) => shipped.warning(i),
        };
        (start..stop).filter_map(warning).map(core_warning).collect()
    }

    #[getter]
    fn stats(&self) -> CoreStats {
        let s = match &self.findings {
            Findings::Checked(report) => report.stats,
            Findings::Shipped(shipped) => shipped.stats(),
        };
        CoreStats {
            nodes: s.nodes,
            edges: s.edges,
            tool_edges: s.tool_edges,
            consumers: s.consumers,
            passthroughs: s.passthroughs,
        }
    }

    /// CMP-9 groups, in the order of their first violations.
    #[getter]
    fn group_count(&self) -> usize {
        match &self.findings {
            Findings::Checked(report) => report.collisions.group_count(),
            Findings::Shipped(shipped) => shipped.group_count(),
        }
    }

    fn group(&self, group: u32) -> PyResult<CoreGroup> {
        if group as usize >= self.group_count() {
            return Err(out_of_range("group")());
        }
        Ok(match &self.findings {
            Findings::Checked(report) => {
                let g = report.collisions.group(group);
                CoreGroup {
                    name: g.name().to_owned(),
                    through: g.through().map(str::to_owned),
                    count: g.count(),
                    first: g.first() + report.edge_violations.len() as u64,
                }
            }
            Findings::Shipped(shipped) => {
                let g = shipped.group(group).ok_or_else(out_of_range("group"))?;
                CoreGroup {
                    name: g.name.to_owned(),
                    through: g.through.map(str::to_owned),
                    count: g.count,
                    first: g.first + shipped.edge_violation_count() as u64,
                }
            }
        })
    }

    /// Consumer ids `start..stop` of a group, by id.
    fn group_consumers(&self, group: u32, start: usize, stop: usize) -> PyResult<Vec<String>> {
        if group as usize >= self.group_count() {
            return Err(out_of_range("group")());
        }
        Ok(match &self.findings {
            Findings::Checked(report) => owned(report.collisions.group(group).consumers(start, stop)),
            Findings::Shipped(shipped) => owned(
                shipped
                    .group_consumers(group, start, stop)
                    .ok_or_else(out_of_range("group"))?,
            ),
        })
    }

    /// The findings as bytes for toolwire.dask to send back from a worker
    /// (src/snapshot.rs has the format), or, when they name more than `budget`
    /// ids, the exact violation count instead.
    fn encode<'py>(&self, py: Python<'py>, budget: u64) -> PyResult<Bound<'py, PyAny>> {
        // A copy of shipped bytes, for a report sent on again (tests).
        let encoded = run(py, false, |_| match &self.findings {
            Findings::Checked(report) => snapshot::encode(report, budget).map_err(|e| e.violation_count),
            Findings::Shipped(shipped) if shipped.id_count() <= budget => Ok(shipped.bytes().to_vec()),
            Findings::Shipped(shipped) => Err(shipped.violation_count()),
        })?;
        match encoded {
            Ok(bytes) => Ok(PyBytes::new(py, &bytes).into_any()),
            Err(violation_count) => Ok(violation_count.into_pyobject(py)?.into_any()),
        }
    }

    /// The report `encode` made bytes of; ValueError for bytes that are
    /// not one.
    #[staticmethod]
    fn decode(py: Python<'_>, data: &[u8]) -> PyResult<CoreReport> {
        match run(py, false, |_| Shipped::decode(data))? {
            Ok(shipped) => Ok(CoreReport {
                findings: Findings::Shipped(Box::new(shipped)),
            }),
            Err(e) => Err(PyValueError::new_err(e.to_string())),
        }
    }
}

/// One violation, as it crosses into Python.
#[pyclass(frozen, get_all, module = "toolwire._toolwire")]
#[derive(Default)]
struct CoreViolation {
    rule: &'static str,
    message: String,
    location: Option<(usize, usize)>,
    consumer: Option<String>,
    name: Option<String>,
    tools: Vec<CoreTool>,
    fix: Vec<CoreRename>,
    box_labels: Vec<(String, String)>,
    /// The CMP-9 group it is reported in.
    group: Option<u32>,
    edge: Option<usize>,
    edge_id: Option<String>,
    edge_type: Option<String>,
    suggestion: Option<String>,
}

/// A colliding tool; its path is read through `CoreReport.tool_path`.
#[pyclass(frozen, get_all, skip_from_py_object, module = "toolwire._toolwire")]
#[derive(Clone)]
struct CoreTool {
    id: String,
    label: String,
    location: Option<(usize, usize)>,
    path_len: usize,
}

#[pyclass(frozen, get_all, skip_from_py_object, module = "toolwire._toolwire")]
#[derive(Clone)]
struct CoreRename {
    node: String,
    label: String,
    new_label: String,
    new_name: String,
}

impl CoreRename {
    fn of(r: &Rename) -> CoreRename {
        CoreRename {
            node: r.node.clone(),
            label: r.label.clone(),
            new_label: r.new_label.clone(),
            new_name: r.new_name.clone(),
        }
    }
}

#[pyclass(frozen, get_all, module = "toolwire._toolwire")]
struct CoreWarning {
    code: &'static str,
    node: String,
    edge: Option<usize>,
    message: String,
    location: Option<(usize, usize)>,
}

#[pyclass(frozen, get_all, module = "toolwire._toolwire")]
struct CoreStats {
    nodes: usize,
    edges: usize,
    tool_edges: usize,
    consumers: usize,
    passthroughs: usize,
}

#[pyclass(frozen, get_all, module = "toolwire._toolwire")]
struct CoreGroup {
    name: String,
    through: Option<String>,
    count: u64,
    /// Its first violation, by index among all the report's violations.
    first: u64,
}

#[pymodule]
fn _toolwire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_mapping, m)?)?;
    m.add_function(wrap_pyfunction!(check_json, m)?)?;
    m.add_function(wrap_pyfunction!(check_file, m)?)?;
    m.add_function(wrap_pyfunction!(check_files, m)?)?;
    m.add_function(wrap_pyfunction!(check_files_encoded, m)?)?;
    m.add_function(wrap_pyfunction!(explain_json, m)?)?;
    m.add_function(wrap_pyfunction!(explain_file, m)?)?;
    m.add_function(wrap_pyfunction!(explain_mapping, m)?)?;
    m.add_function(wrap_pyfunction!(normalize_name, m)?)?;
    m.add_function(wrap_pyfunction!(phase_times, m)?)?;
    m.add_class::<CoreReport>()?;
    m.add_class::<CoreViolation>()?;
    m.add_class::<CoreTool>()?;
    m.add_class::<CoreRename>()?;
    m.add_class::<CoreWarning>()?;
    m.add_class::<CoreStats>()?;
    m.add_class::<CoreGroup>()?;
    m.add_class::<ViewStream>()?;
    m.add(
        "DEFAULT_PASSTHROUGH_TYPES",
        crate::config::DEFAULT_PASSTHROUGH_TYPES.to_vec(),
    )?;
    m.add("DEFAULT_EDGE_TYPES", crate::config::DEFAULT_EDGE_TYPES.to_vec())?;
    Ok(())
}
