//! The site check's entry point (SEMANTICS 12): `check_site` runs
//! `engine::check_site` off the GIL and hands its findings over as plain
//! tuples (their layout is `_toolwire.pyi`'s `_CallTuple` and friends),
//! which `toolwire._report` turns into records. `read_site` keeps a
//! site's facts for `explain` to ask, per workflow, what its consumers see
//! in each call into it (`SiteFacts.call_views`).

use std::path::PathBuf;

use pyo3::exceptions::{PyIndexError, PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyTuple};

use super::run::{run, to_py_error};
use super::{config, encoded_list, format_of, report_list, NodeTypeCatalogue};
use crate::site::{
    call_views, CallFinding, CallIndex, CallView, ChainCount, NodePlace, PathPart, SiteReport, SiteWarning, Workflow,
};
use crate::{engine, snapshot, Error, Location};

type At = Option<(usize, usize)>;
type PlaceTuple = (String, String, String, At);
type StepTuple = (String, String, String, At, String);
type PartTuple = (String, String, Vec<(String, At)>);

fn at(location: Option<Location>) -> At {
    location.map(|l| (l.line, l.column))
}

fn place(p: NodePlace) -> PlaceTuple {
    (p.workflow, p.file, p.node, at(p.location))
}

fn part(p: PathPart) -> PartTuple {
    let nodes = p.nodes.into_iter().map(|(id, location)| (id, at(location))).collect();
    (p.workflow, p.file, nodes)
}

/// A chain count as a Python int, however large.
fn count<'py>(py: Python<'py>, chains: &ChainCount) -> PyResult<Bound<'py, PyAny>> {
    match chains.to_u64() {
        Some(small) => Ok(small.into_pyobject(py)?.into_any()),
        None => py.get_type::<PyInt>().call1((chains.to_decimal(),)),
    }
}

fn finding<'py>(py: Python<'py>, f: CallFinding) -> PyResult<Bound<'py, PyTuple>> {
    let chains = count(py, &f.chains)?;
    let chain: Vec<StepTuple> = f
        .chain
        .into_iter()
        .map(|s| {
            let (workflow, file, node, at) = place(s.place);
            (workflow, file, node, at, s.runs)
        })
        .collect();
    let tools: Vec<(String, String, String, String, At, Vec<PartTuple>)> = f
        .tools
        .into_iter()
        .map(|t| {
            let (workflow, file, id, at) = place(t.place);
            (workflow, file, id, t.label, at, t.path.into_iter().map(part).collect())
        })
        .collect();
    (f.name, chains, chain, place(f.consumer), tools).into_pyobject(py)
}

type WarningTuple = (String, String, String, At);

fn warning(w: SiteWarning) -> WarningTuple {
    (w.code.to_owned(), w.node, w.message, at(w.location))
}

/// Checks many files as one site on `jobs` threads (0: one per core),
/// without the GIL. Returns `(outcomes, calls, warnings, site_errors)`: per
/// path a report or the exception `check_file` would have raised, per path
/// its call findings and its site warnings as tuples, and the errors of
/// the site as `(message, workflows, files)`.
#[pyfunction]
#[pyo3(signature = (paths, passthrough_types, edge_types, jobs, input_format=None, node_types=None))]
pub(super) fn check_site<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    jobs: usize,
    input_format: Option<&str>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let format = format_of(input_format)?;
    let outcome = run(py, true, |stop| {
        engine::check_site(&paths, None, format, &config, jobs, stop)
    })?;
    let reports = report_list(py, outcome.reports, &paths)?;
    let (calls, warnings, errors) = site_tuples(py, outcome.site)?;
    (reports, calls, warnings, errors).into_pyobject(py)
}

/// `check_site` for toolwire.dask's workers (issue 22: a site is one task):
/// each report is encoded (src/snapshot/mod.rs) without the GIL, as
/// `check_files_encoded` encodes it, so the first item holds per path the
/// bytes, the exact violation count when the findings name more than
/// `budget` ids, or the exception. `names`: what the site's findings and
/// errors call each file (the paths as the client was given them; the
/// worker reads them by `paths`). The other three items are `check_site`'s.
#[pyfunction]
#[pyo3(signature = (paths, names, passthrough_types, edge_types, jobs, budget, node_types=None))]
#[allow(clippy::too_many_arguments)] // the binding's flat signature, as check_files_encoded's
pub(super) fn check_site_encoded<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    names: Vec<String>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    jobs: usize,
    budget: u64,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<Bound<'py, PyTuple>> {
    if names.len() != paths.len() {
        return Err(PyValueError::new_err(format!(
            "check_site_encoded() takes one name per path: {} paths, {} names",
            paths.len(),
            names.len()
        )));
    }
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let (encoded, site) = run(py, true, |stop| {
        let outcome = engine::check_site(&paths, Some(&names), None, &config, jobs, stop);
        let encoded: Vec<_> = outcome
            .reports
            .into_iter()
            .map(|report| report.map(|report| snapshot::encode(&report, budget)))
            .collect();
        (encoded, outcome.site)
    })?;
    let results = encoded_list(py, encoded, &paths)?;
    let (calls, warnings, errors) = site_tuples(py, site)?;
    (results, calls, warnings, errors).into_pyobject(py)
}

type SiteErrorTuple = (String, Vec<String>, Vec<String>);
type SiteTuples<'py> = (Bound<'py, PyList>, Vec<Vec<WarningTuple>>, Vec<SiteErrorTuple>);

/// What the site check found, as the contract's tuples: per path its call
/// findings and its site warnings, and the site's errors.
fn site_tuples(py: Python<'_>, site: SiteReport) -> PyResult<SiteTuples<'_>> {
    let calls = PyList::empty(py);
    for findings in site.calls {
        let tuples = PyList::empty(py);
        for f in findings {
            tuples.append(finding(py, f)?)?;
        }
        calls.append(tuples)?;
    }
    let warnings = site
        .warnings
        .into_iter()
        .map(|ws| ws.into_iter().map(warning).collect())
        .collect();
    let errors = site
        .errors
        .into_iter()
        .map(|e| (e.message, e.workflows, e.files))
        .collect();
    Ok((calls, warnings, errors))
}

/// The facts of every workflow of a site (`engine::read_site`), kept so
/// that `explain` reads a site once however many of its workflows it
/// explains.
#[pyclass(frozen, module = "toolwire._toolwire")]
pub(super) struct SiteFacts {
    workflows: Vec<Option<Workflow>>,
    /// The calls into each workflow, found once for the site.
    index: CallIndex,
}

/// A file of the site that could not be read: its index and exception.
type Failed = (usize, Py<PyAny>);

/// Reads the facts of `paths` as one site on `jobs` threads (0: one per
/// core), without the GIL. Returns `(facts, failed)`: `failed` lists
/// `(index, exception)` for each file that could not be read or parsed
/// (no call from it is known).
#[pyfunction]
#[pyo3(signature = (paths, passthrough_types, edge_types, jobs, input_format=None, node_types=None))]
pub(super) fn read_site(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    passthrough_types: Vec<String>,
    edge_types: Vec<String>,
    jobs: usize,
    input_format: Option<&str>,
    node_types: Option<PyRef<'_, NodeTypeCatalogue>>,
) -> PyResult<(SiteFacts, Vec<Failed>)> {
    let config = config(passthrough_types, edge_types, node_types.as_deref());
    let format = format_of(input_format)?;
    let read = run(py, true, |stop| engine::read_site(&paths, format, &config, jobs, stop))?;
    let mut workflows = Vec::with_capacity(read.len());
    let mut failed = Vec::new();
    for (i, (outcome, path)) in read.into_iter().zip(&paths).enumerate() {
        match outcome {
            Ok(facts) => workflows.push(Some(facts)),
            Err(Error::Interrupted) => return Err(PyKeyboardInterrupt::new_err(())),
            Err(error) => {
                failed.push((i, to_py_error(py, error, Some(path)).into_value(py).into_any()));
                workflows.push(None);
            }
        }
    }
    let index = py.detach(|| CallIndex::new(&workflows));
    Ok((SiteFacts { workflows, index }, failed))
}

/// A per-call view as it crosses into Python: (consumer, call, tools,
/// outer_calls), each tool (name, workflow, file, id, label, at, parts,
/// collides).
type CallViewTuple = (
    PlaceTuple,
    StepTuple,
    Vec<(String, String, String, String, String, At, Vec<PartTuple>, bool)>,
    u64,
);

fn call_view(view: CallView) -> CallViewTuple {
    let (workflow, file, node, at) = place(view.call.place);
    let tools = view
        .tools
        .into_iter()
        .map(|t| {
            let (workflow, file, id, at) = place(t.place);
            let parts = t.path.into_iter().map(part).collect();
            (t.name, workflow, file, id, t.label, at, parts, t.collides)
        })
        .collect();
    (
        place(view.consumer),
        (workflow, file, node, at, view.call.runs),
        tools,
        view.outer_calls,
    )
}

#[pymethods]
impl SiteFacts {
    /// How many workflows the site has (read or not).
    fn __len__(&self) -> usize {
        self.workflows.len()
    }

    /// What each consumer inside workflow `explained` (its index in the
    /// paths read) that a tool port reaches sees in each call into it, or
    /// only the consumer `consumer` (`site::call_views`).
    #[pyo3(signature = (explained, consumer=None))]
    fn call_views(&self, py: Python<'_>, explained: usize, consumer: Option<&str>) -> PyResult<Vec<CallViewTuple>> {
        if explained >= self.workflows.len() {
            return Err(PyIndexError::new_err(format!(
                "call_views: workflow {explained} of a site of {}",
                self.workflows.len()
            )));
        }
        let views: Vec<CallView> =
            py.detach(|| call_views(&self.workflows, &self.index, explained, consumer).collect());
        Ok(views.into_iter().map(call_view).collect())
    }
}
