//! Explain from Python: the `explain_*` entry points and `ViewStream`,
//! which makes a workflow's views on a thread of its own while Python reads
//! them in chunks.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use super::run::{internal_error, to_py_error};
use super::{at, config, format_of, text_in, walked, NodeTypeCatalogue};
use crate::explain::{ConsumerView, Views};
use crate::{engine, Budget, Error, Format, Interrupt};

/// What each consumer (or only the node `consumer`) sees, from JSON text
/// given as `str` or `bytes`: a stream of its views (`ViewStream`). The
/// text is copied, for the thread that makes the views to own.
/// YAML text when `input_format` is `"yaml"`. A node-type catalogue
/// counts here for which types forward their tools (a type run by the
/// Tool Box is a passthrough).
#[pyfunction]
#[pyo3(signature = (data, consumer, passthrough_types, edge_types, chunk_tools, input_format=None, node_types=None))]
#[allow(clippy::too_many_arguments)] // each is one argument of the Python API
pub(super) fn explain_json(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    consumer: Option<String>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    chunk_tools: usize,
    input_format: Option<&str>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<ViewStream> {
    let format = format_of(input_format)?.unwrap_or(Format::Json);
    let text = text_in(py, data, format)?.to_vec();
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    ViewStream::start(py, None, chunk_tools, move |stop, feed| {
        engine::explain_text(
            &text,
            format,
            consumer.as_deref(),
            &config,
            Budget::new(true, stop),
            |views| feed.pour(views, stop),
        )
    })
}

/// `explain_json` of a file's contents, read on the stream's thread: as
/// `input_format` (`"json"` or `"yaml"`), or by the file's name when `None`.
#[pyfunction]
#[pyo3(signature = (path, consumer, passthrough_types, edge_types, chunk_tools, input_format=None, node_types=None))]
#[allow(clippy::too_many_arguments)] // each is one argument of the Python API
pub(super) fn explain_file(
    py: Python<'_>,
    path: PathBuf,
    consumer: Option<String>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    chunk_tools: usize,
    input_format: Option<&str>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<ViewStream> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let format = format_of(input_format)?;
    let read_from = path.clone();
    ViewStream::start(py, Some(path), chunk_tools, move |stop, feed| {
        engine::explain_file(
            &read_from,
            format,
            consumer.as_deref(),
            &config,
            Budget::new(true, stop),
            |views| feed.pour(views, stop),
        )
    })
}

/// `explain_json` of an already-parsed workflow (a `Mapping`), walked here
/// with the GIL; the views are made without it. They have no locations.
#[pyfunction]
#[pyo3(signature = (workflow, consumer, passthrough_types, edge_types, chunk_tools, node_types=None))]
pub(super) fn explain_mapping(
    py: Python<'_>,
    workflow: &Bound<'_, PyAny>,
    consumer: Option<String>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    chunk_tools: usize,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<ViewStream> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
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
pub(super) struct ViewStream {
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
