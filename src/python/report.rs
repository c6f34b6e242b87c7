//! The report as Python reads it: `CoreReport`, answering on demand for a
//! check made here or a snapshot shipped from a dask worker, both read
//! through `ReadFindings` (src/findings.rs), and the small frozen classes
//! (`CoreViolation`, `CoreTool`, ...) its answers come in.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::at;
use super::run::run;
use crate::findings::{Finding, Missing, ReadFindings};
use crate::snapshot::{self, Shipped};
use crate::{Rename, Report, Warning};

/// A workflow's report, read on demand (python/toolwire/_report.py wraps
/// what it answers in the public classes). Either a check's own report,
/// whose CMP-9 violations are stored by cause and built one at a time when
/// asked for, or a snapshot decoded from bytes that toolwire.dask sent from
/// a worker: both read through `ReadFindings` (src/findings.rs), so every
/// method below is written once for both.
#[pyclass(frozen, module = "toolwire._toolwire")]
pub(super) struct CoreReport {
    findings: Box<dyn ReadFindings + Send + Sync>,
}

impl CoreReport {
    pub(super) fn new(report: Report) -> Self {
        CoreReport {
            findings: Box::new(report),
        }
    }
}

fn out_of_range(what: &str) -> impl FnOnce() -> PyErr + '_ {
    move || PyIndexError::new_err(format!("{what} index out of range"))
}

/// A violation as Python reads it: the one place its fields cross over.
fn core_violation(finding: Finding<'_>) -> CoreViolation {
    let rule = finding.rule();
    match finding {
        Finding::UnrecognisedEdgeType(e) => {
            let e = e.into_owned();
            CoreViolation {
                rule,
                message: e.message,
                location: at(e.location),
                edge: Some(e.edge),
                edge_id: e.edge_id,
                edge_type: Some(e.edge_type),
                suggestion: e.suggestion,
                ..CoreViolation::default()
            }
        }
        Finding::UnacceptedTools(u) => {
            let u = u.into_owned();
            CoreViolation {
                rule,
                message: u.message,
                location: at(u.location),
                consumer: Some(u.node),
                node_type: Some(u.node_type),
                defined_at: Some(u.defined_at),
                wired_edges: (u.edges.into_iter()).map(|e| (e.edge, e.edge_id, e.source)).collect(),
                ..CoreViolation::default()
            }
        }
        Finding::ToolNameCollision(c) => CoreViolation {
            rule,
            message: c.message.into_owned(),
            location: at(c.location),
            consumer: Some(c.consumer.to_owned()),
            name: Some(c.name.to_owned()),
            tools: (c.tools.iter())
                .map(|t| CoreTool {
                    id: t.id.to_owned(),
                    label: t.label.to_owned(),
                    location: at(t.location),
                    path_len: t.path_len,
                })
                .collect(),
            fix: c.fix.iter().map(|r| CoreRename::of(r)).collect(),
            box_labels: (c.box_labels.iter())
                .map(|&(b, l)| (b.to_owned(), l.to_owned()))
                .collect(),
            group: Some(c.group),
            ..CoreViolation::default()
        },
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
    /// EDGE-5 violations first, then CMP-10 ones, then CMP-9 ones.
    #[getter]
    fn violation_count(&self) -> u64 {
        self.findings.violation_count()
    }

    fn violation(&self, index: u64) -> PyResult<CoreViolation> {
        let finding = self.findings.violation(index).ok_or_else(out_of_range("violation"))?;
        Ok(core_violation(finding))
    }

    /// Ids `start..stop` of the path of tool `tool` of violation `index`.
    fn tool_path(&self, index: u64, tool: usize, start: usize, stop: usize) -> PyResult<Vec<String>> {
        match self.findings.tool_path(index, tool, start, stop) {
            Ok(ids) => Ok(owned(ids)),
            Err(Missing::Violation) => Err(out_of_range("violation")()),
            Err(Missing::Tool) => Err(out_of_range("tool")()),
            Err(Missing::Tools) => Err(PyIndexError::new_err("only a CMP-9 violation has tools")),
        }
    }

    /// The deterministic work counters (src/work.rs) of a check made here,
    /// by name, with `total`: the check's steps plus every read since.
    /// Empty for a report shipped from elsewhere.
    #[getter]
    fn work(&self) -> std::collections::BTreeMap<&'static str, u64> {
        self.findings.work().into_iter().collect()
    }

    /// Whether CMP-10 was checked (only against a node-type catalogue).
    #[getter]
    fn node_types_checked(&self) -> bool {
        self.findings.node_types_checked()
    }

    #[getter]
    fn warning_count(&self) -> usize {
        self.findings.warning_count()
    }

    /// Warnings `start` to `stop` (exclusive, clamped): a workflow with a
    /// lossy label on each of its 100,000 tools has as many warnings, which
    /// Python reads as they are asked for.
    fn warnings(&self, start: usize, stop: usize) -> Vec<CoreWarning> {
        let stop = stop.min(self.warning_count());
        let start = start.min(stop);
        (start..stop)
            .filter_map(|i| self.findings.warning(i))
            .map(core_warning)
            .collect()
    }

    #[getter]
    fn stats(&self) -> CoreStats {
        let s = self.findings.stats();
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
        self.findings.group_count()
    }

    fn group(&self, group: u32) -> PyResult<CoreGroup> {
        let g = self.findings.group(group).ok_or_else(out_of_range("group"))?;
        Ok(CoreGroup {
            name: g.name.to_owned(),
            through: g.through.map(str::to_owned),
            count: g.count,
            first: g.first,
        })
    }

    /// Consumer ids `start..stop` of a group, by id.
    fn group_consumers(&self, group: u32, start: usize, stop: usize) -> PyResult<Vec<String>> {
        let consumers = (self.findings.group_consumers(group, start, stop)).ok_or_else(out_of_range("group"))?;
        Ok(owned(consumers))
    }

    /// The findings as bytes for toolwire.dask to send back from a worker
    /// (src/snapshot has the format), or, when they name more than `budget`
    /// ids, the exact violation count instead. A shipped report is read
    /// and written again like a checked one (a report sent on: tests).
    fn encode<'py>(&self, py: Python<'py>, budget: u64) -> PyResult<Bound<'py, PyAny>> {
        let encoded = run(py, false, |_| snapshot::encode(&*self.findings, budget))?;
        match encoded {
            Ok(bytes) => Ok(PyBytes::new(py, &bytes).into_any()),
            Err(too_large) => Ok(too_large.violation_count.into_pyobject(py)?.into_any()),
        }
    }

    /// The report `encode` made bytes of; ValueError for bytes that are
    /// not one.
    #[staticmethod]
    fn decode(py: Python<'_>, data: &[u8]) -> PyResult<CoreReport> {
        match run(py, false, |_| Shipped::decode(data))? {
            Ok(shipped) => Ok(CoreReport {
                findings: Box::new(shipped),
            }),
            Err(e) => Err(PyValueError::new_err(e.to_string())),
        }
    }
}

/// One violation, as it crosses into Python.
#[pyclass(frozen, get_all, module = "toolwire._toolwire")]
#[derive(Default)]
pub(super) struct CoreViolation {
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
    /// CMP-10: the receiving node's type (the node is `consumer`), where
    /// the catalogue defines it, and every tool edge into the node as
    /// (index, id, source).
    node_type: Option<String>,
    defined_at: Option<String>,
    wired_edges: Vec<(usize, Option<String>, String)>,
}

/// A colliding tool; its path is read through `CoreReport.tool_path`.
#[pyclass(frozen, get_all, skip_from_py_object, module = "toolwire._toolwire")]
#[derive(Clone)]
pub(super) struct CoreTool {
    id: String,
    label: String,
    location: Option<(usize, usize)>,
    path_len: usize,
}

#[pyclass(frozen, get_all, skip_from_py_object, module = "toolwire._toolwire")]
#[derive(Clone)]
pub(super) struct CoreRename {
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
pub(super) struct CoreWarning {
    code: &'static str,
    node: String,
    edge: Option<usize>,
    message: String,
    location: Option<(usize, usize)>,
}

#[pyclass(frozen, get_all, module = "toolwire._toolwire")]
pub(super) struct CoreStats {
    nodes: usize,
    edges: usize,
    tool_edges: usize,
    consumers: usize,
    passthroughs: usize,
}

#[pyclass(frozen, get_all, module = "toolwire._toolwire")]
pub(super) struct CoreGroup {
    name: String,
    through: Option<String>,
    count: u64,
    /// Its first violation, by index among all the report's violations.
    first: u64,
}
