//! Running core work from Python: small work with the GIL, large work on a
//! thread without it that Ctrl-C can stop, a panic caught as a
//! `RuntimeError`; and the core's errors as the Python exceptions they are.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyLookupError, PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::catalogue::CatalogueError;
use crate::{Error, InputError, Interrupt, Location};

/// `toolwire.WorkflowError`, defined in Python so it can subclass
/// `ValueError` and carry fields.
static WORKFLOW_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

pub(super) fn workflow_error(py: Python<'_>, error: &InputError, text: Option<&[u8]>) -> PyErr {
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

/// `toolwire.CatalogueError` (a `WorkflowError`) for a node-type catalogue
/// that cannot be used: its file, what is wrong, and where.
static CATALOGUE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

pub(super) fn catalogue_error(py: Python<'_>, error: &CatalogueError) -> PyErr {
    let (line, column) = error.location.map_or((None, None), |l| (Some(l.line), Some(l.column)));
    match CATALOGUE_ERROR.import(py, "toolwire._errors", "CatalogueError") {
        Ok(class) => match class.call1((&error.message, line, column, &error.file)) {
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
pub(super) fn run<T: Send>(py: Python<'_>, large: bool, work: impl FnOnce(Interrupt<'_>) -> T + Send) -> PyResult<T> {
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

pub(super) fn internal_error(panic: Box<dyn std::any::Any + Send>) -> PyErr {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    PyRuntimeError::new_err(format!("toolwire internal error (please report it): {what}"))
}

/// The Python exception for a core error: `WorkflowError` for bad input,
/// `OSError` (with errno, so Python picks `FileNotFoundError` and the
/// like), `LookupError` for an unknown node, `KeyboardInterrupt`.
pub(super) fn to_py_error(py: Python<'_>, error: Error, path: Option<&Path>) -> PyErr {
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
