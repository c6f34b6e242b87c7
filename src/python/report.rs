//! The report as Python reads it: `CoreReport`, answering on demand for a
//! check made here or a snapshot shipped from a dask worker, and the small
//! frozen classes (`CoreViolation`, `CoreTool`, ...) its answers come in.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::at;
use super::run::run;
use crate::report::UnacceptedToolsViolation;
use crate::snapshot::{self, Shipped, ShippedViolation};
use crate::{Collision, EdgeTypeViolation, Rename, Report, Violation, Warning};

/// A workflow's report, read on demand (python/toolwire/_report.py wraps
/// what it answers in the public classes). Either a check's own report,
/// whose CMP-9 violations are stored by cause and built here one at a time
/// when asked for, or a snapshot decoded from bytes that toolwire.dask
/// sent from a worker; both answer every method the same way.
#[pyclass(frozen, module = "toolwire._toolwire")]
pub(super) struct CoreReport {
    findings: Findings,
}

/// Both boxed: a report is four times the size of a snapshot's index, and
/// the Python object need not hold the larger of the two.
enum Findings {
    Checked(Box<Report>),
    Shipped(Box<Shipped>),
}

impl CoreReport {
    pub(super) fn new(report: Report) -> Self {
        CoreReport {
            findings: Findings::Checked(Box::new(report)),
        }
    }
}

fn out_of_range(what: &str) -> impl FnOnce() -> PyErr + '_ {
    move || PyIndexError::new_err(format!("{what} index out of range"))
}

fn no_tools() -> PyErr {
    PyIndexError::new_err("only a CMP-9 violation has tools")
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

fn unaccepted_tools(u: &UnacceptedToolsViolation) -> CoreViolation {
    CoreViolation {
        rule: "CMP-10",
        message: u.message.clone(),
        location: at(u.location),
        consumer: Some(u.node.clone()),
        node_type: Some(u.node_type.clone()),
        defined_at: Some(u.defined_at.clone()),
        wired_edges: (u.edges.iter())
            .map(|e| (e.edge, e.edge_id.clone(), e.source.clone()))
            .collect(),
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
    /// EDGE-5 violations first, then CMP-10 ones, then CMP-9 ones.
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
                Violation::UnacceptedTools(u) => unaccepted_tools(u),
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
                ShippedViolation::UnacceptedTools(u) => unaccepted_tools(&u),
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
                Violation::UnrecognisedEdgeType(_) | Violation::UnacceptedTools(_) => Err(no_tools()),
            },
            Findings::Shipped(shipped) => match shipped.violation(index).ok_or_else(out_of_range("violation"))? {
                ShippedViolation::ToolNameCollision(c) => {
                    let t = c.tools.get(tool).ok_or_else(out_of_range("tool"))?;
                    Ok(owned(shipped.path(t, start, stop).ok_or_else(out_of_range("path"))?))
                }
                ShippedViolation::UnrecognisedEdgeType(_) | ShippedViolation::UnacceptedTools(_) => Err(no_tools()),
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

    /// Whether CMP-10 was checked (only against a node-type catalogue).
    #[getter]
    fn node_types_checked(&self) -> bool {
        match &self.findings {
            Findings::Checked(report) => report.node_types_checked,
            Findings::Shipped(shipped) => shipped.node_types_checked(),
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
                    first: g.first() + report.violations_before_cmp9(),
                }
            }
            Findings::Shipped(shipped) => {
                let g = shipped.group(group).ok_or_else(out_of_range("group"))?;
                CoreGroup {
                    name: g.name.to_owned(),
                    through: g.through.map(str::to_owned),
                    count: g.count,
                    first: g.first + shipped.violations_before_cmp9() as u64,
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
