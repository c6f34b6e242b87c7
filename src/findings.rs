//! One read interface for a report's findings, whichever kind holds them:
//! a check made here ([`Report`]: CMP-9 violations stored by cause, built
//! when read) or a snapshot shipped from a Dask worker
//! ([`crate::snapshot::Shipped`]: items read from bytes). Both implement
//! [`ReadFindings`] and answer in the same item types, so the binding reads
//! either in one way, and [`crate::snapshot::encode`] writes exactly what
//! this trait reads (a shipped report encodes to the bytes it came from).
//!
//! The item types are the snapshot's items too: they derive serde, and
//! postcard writes and reads them (src/snapshot). A violation's fields are
//! spelled here once for both kinds of report; a check's lazy CMP-9
//! violation ([`Collision`]) becomes one in [`FoundCollision::of`].

use std::borrow::Cow;
use std::fmt;

use serde::de::Deserializer;
use serde::ser::{Error as _, SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

use crate::collisions::{CollidingTool, Collision, GroupIx};
use crate::locate::Location;
use crate::report::{EdgeTypeViolation, Rename, Report, Stats, UnacceptedToolsViolation, Violation, Warning};

/// What a report answers, read an item at a time. Every reader returns
/// `Some` for every index below its count (so an encoder may trust the
/// counts), `None` past them.
pub trait ReadFindings {
    fn stats(&self) -> Stats;

    /// Whether CMP-10 was checked: only against a node-type catalogue.
    fn node_types_checked(&self) -> bool;

    fn warning_count(&self) -> usize;

    fn warning(&self, index: usize) -> Option<Warning>;

    /// EDGE-5 violations first, then CMP-10 ones, then CMP-9 ones
    /// (SEMANTICS 6).
    fn violation_count(&self) -> u64;

    /// Violation `index` in the order of `violation_count`.
    fn violation(&self, index: u64) -> Option<Finding<'_>>;

    /// Ids `from..to` (clamped) of the path of tool `tool` of violation
    /// `index`. This reads the violation whole; a check's report
    /// overrides it to find the one path asked for.
    fn tool_path(&self, index: u64, tool: usize, from: usize, to: usize) -> Result<Vec<&str>, Missing> {
        match self.violation(index).ok_or(Missing::Violation)? {
            Finding::ToolNameCollision(c) => {
                let tool = c.tools.into_iter().nth(tool).ok_or(Missing::Tool)?;
                Ok(tool.path.ids(from, to))
            }
            Finding::UnrecognisedEdgeType(_) | Finding::UnacceptedTools(_) => Err(Missing::Tools),
        }
    }

    /// CMP-9 groups (clashes), in the order of their first violations.
    fn group_count(&self) -> usize;

    fn group(&self, group: GroupIx) -> Option<FoundGroup<'_>>;

    /// The ids of a group's consumers from position `from` to `to`
    /// (exclusive, clamped), by id.
    fn group_consumers(&self, group: GroupIx, from: usize, to: usize) -> Option<Vec<&str>>;

    /// The deterministic work counters (src/work.rs) of a check made here,
    /// by name; none for findings read from elsewhere.
    fn work(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
}

/// Why `tool_path` has no path to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// No violation of that index.
    Violation,
    /// The violation is not a CMP-9 one, so it has no tools.
    Tools,
    /// The violation has fewer tools.
    Tool,
}

/// One violation. The order of the variants is the rules' order in a
/// report and part of the snapshot format (postcard writes a variant as
/// its index; `snapshot` reads a CMP-9 item's first fields by it).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Finding<'a> {
    /// EDGE-5: a `data.edgeType` nobody recognises.
    UnrecognisedEdgeType(Cow<'a, EdgeTypeViolation>),
    /// CMP-10: tools wired to a node whose type does not accept them.
    UnacceptedTools(Cow<'a, UnacceptedToolsViolation>),
    /// CMP-9: two or more distinct tools reaching a consumer share a name.
    ToolNameCollision(#[serde(borrow)] FoundCollision<'a>),
}

impl Finding<'_> {
    pub fn rule(&self) -> &'static str {
        match self {
            Finding::UnrecognisedEdgeType(_) => "EDGE-5",
            Finding::UnacceptedTools(_) => "CMP-10",
            Finding::ToolNameCollision(_) => "CMP-9",
        }
    }
}

/// A CMP-9 violation, read.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundCollision<'a> {
    /// First, then `name`: a snapshot reads a group's consumers and name
    /// from an item's first two fields without the rest.
    pub consumer: &'a str,
    pub name: &'a str,
    /// Built when read from a check, so owned there.
    #[serde(borrow)]
    pub message: Cow<'a, str>,
    /// The consumer's node object (or first tool edge into it).
    pub location: Option<Location>,
    /// The group (the clash) it is reported in.
    pub group: GroupIx,
    /// By id, each with its path to the consumer.
    #[serde(borrow)]
    pub tools: Vec<FoundTool<'a>>,
    /// The renames of its tools that the workflow's fix makes.
    pub fix: Vec<Cow<'a, Rename>>,
    /// `(id, data.label)` of the toolboxes on the tools' paths whose label
    /// is not their id, by id; only paths of readable length are read.
    #[serde(borrow)]
    pub box_labels: Vec<(&'a str, &'a str)>,
}

impl<'a> FoundCollision<'a> {
    /// A check's violation, read whole: each tool's path is found once
    /// (for its length and the box labels) and its ids read when asked.
    pub fn of(c: &Collision<'a>) -> FoundCollision<'a> {
        let tools = c.tools();
        FoundCollision {
            consumer: c.consumer(),
            name: c.name(),
            message: Cow::Owned(c.message()),
            location: c.location(),
            group: c.group(),
            box_labels: Collision::box_labels_of(&tools),
            tools: tools.into_iter().map(FoundTool::of).collect(),
            fix: c.fix().into_iter().map(Cow::Borrowed).collect(),
        }
    }
}

/// A colliding tool of a [`FoundCollision`].
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundTool<'a> {
    pub id: &'a str,
    pub label: &'a str,
    pub location: Option<Location>,
    /// The ids on its path, `[tool, box, ..., consumer]`.
    pub path_len: usize,
    #[serde(borrow)]
    pub path: ToolPath<'a>,
}

impl<'a> FoundTool<'a> {
    fn of(tool: CollidingTool<'a>) -> FoundTool<'a> {
        FoundTool {
            id: tool.id(),
            label: tool.label(),
            location: tool.location(),
            path_len: tool.path_len(),
            path: ToolPath(PathOf::Checked(tool)),
        }
    }
}

/// A tool's path, read a stretch at a time: a path can be 100,000 ids
/// long, and reports show its ends.
pub struct ToolPath<'a>(PathOf<'a>);

enum PathOf<'a> {
    /// Found in the checked graph; its ids read when asked for.
    Checked(CollidingTool<'a>),
    /// Its ids, as postcard writes strings, one after another (`path_len`
    /// says how many): checked when the snapshot was decoded.
    Shipped(&'a [u8]),
}

impl<'a> ToolPath<'a> {
    /// Ids `from..to` of the path (clamped). A shipped path skips the
    /// `from` ids before, so reading its end costs its length.
    pub fn ids(&self, from: usize, to: usize) -> Vec<&'a str> {
        match &self.0 {
            PathOf::Checked(tool) => tool.path_ids(from, to),
            PathOf::Shipped(bytes) => {
                let mut ids = Vec::new();
                let mut rest = *bytes;
                for position in 0..to {
                    if rest.is_empty() {
                        break;
                    }
                    let Ok((id, after)) = postcard::take_from_bytes::<&str>(rest) else {
                        debug_assert!(false, "a path checked by decode read again");
                        break;
                    };
                    if position >= from {
                        ids.push(id);
                    }
                    rest = after;
                }
                ids
            }
        }
    }

    /// How many ids a shipped path holds, if its bytes are ids and
    /// nothing else (for the snapshot's decoder).
    pub(crate) fn shipped_len(&self) -> Option<usize> {
        let PathOf::Shipped(mut rest) = self.0 else {
            return None;
        };
        let mut count = 0;
        while !rest.is_empty() {
            rest = postcard::take_from_bytes::<&str>(rest).ok()?.1;
            count += 1;
        }
        Some(count)
    }
}

/// A path's ids one after another: postcard writes a tuple as its
/// elements alone (the tool's `path_len` says how many there are).
struct Ids<'i>(&'i [&'i str]);

impl Serialize for Ids<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(self.0.len())?;
        for id in self.0 {
            tuple.serialize_element(id)?;
        }
        tuple.end()
    }
}

/// Two paths are equal when they hold the same ids.
impl PartialEq for ToolPath<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.ids(0, usize::MAX) == other.ids(0, usize::MAX)
    }
}

impl Eq for ToolPath<'_> {}

impl fmt::Debug for ToolPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.ids(0, usize::MAX)).finish()
    }
}

/// Written as one byte string holding the list of its ids, so a reader
/// finds each tool's path without reading the ids of the paths before it.
impl Serialize for ToolPath<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            PathOf::Shipped(bytes) => serializer.serialize_bytes(bytes),
            PathOf::Checked(tool) => {
                let ids = tool.path();
                // Each id's length as a varint (a byte per 7 bits), then the id.
                let varint = |n: usize| (usize::BITS - (n | 1).leading_zeros()).div_ceil(7) as usize;
                let size = ids.iter().map(|id| varint(id.len()) + id.len()).sum::<usize>();
                let bytes = postcard::to_extend(&Ids(&ids), Vec::with_capacity(size)).map_err(S::Error::custom)?;
                serializer.serialize_bytes(&bytes)
            }
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ToolPath<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&'de [u8]>::deserialize(deserializer).map(|bytes| ToolPath(PathOf::Shipped(bytes)))
    }
}

/// A CMP-9 group: one clash, reported once for every consumer that sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoundGroup<'a> {
    pub name: &'a str,
    /// The toolbox every tool of the clash is wired into, when there is one.
    pub through: Option<&'a str>,
    /// Its violations, and so its consumers.
    pub count: u64,
    /// Its first violation, by index among all the report's violations.
    pub first: u64,
}

impl ReadFindings for Report {
    fn stats(&self) -> Stats {
        self.stats
    }

    fn node_types_checked(&self) -> bool {
        self.node_types_checked
    }

    fn warning_count(&self) -> usize {
        self.warnings.len()
    }

    fn warning(&self, index: usize) -> Option<Warning> {
        self.warnings.get(index)
    }

    fn violation_count(&self) -> u64 {
        Report::violation_count(self)
    }

    fn violation(&self, index: u64) -> Option<Finding<'_>> {
        Some(match Report::violation(self, index)? {
            Violation::UnrecognisedEdgeType(e) => Finding::UnrecognisedEdgeType(Cow::Borrowed(e)),
            Violation::UnacceptedTools(u) => Finding::UnacceptedTools(Cow::Borrowed(u)),
            Violation::ToolNameCollision(c) => Finding::ToolNameCollision(FoundCollision::of(&c)),
        })
    }

    /// One path found, not every tool's.
    fn tool_path(&self, index: u64, tool: usize, from: usize, to: usize) -> Result<Vec<&str>, Missing> {
        match Report::violation(self, index).ok_or(Missing::Violation)? {
            Violation::ToolNameCollision(c) => Ok(c.tool(tool).ok_or(Missing::Tool)?.path_ids(from, to)),
            Violation::UnrecognisedEdgeType(_) | Violation::UnacceptedTools(_) => Err(Missing::Tools),
        }
    }

    fn group_count(&self) -> usize {
        self.collisions.group_count()
    }

    fn group(&self, group: GroupIx) -> Option<FoundGroup<'_>> {
        if group as usize >= self.collisions.group_count() {
            return None;
        }
        let g = self.collisions.group(group);
        Some(FoundGroup {
            name: g.name(),
            through: g.through(),
            count: g.count(),
            first: g.first() + self.violations_before_cmp9(),
        })
    }

    fn group_consumers(&self, group: GroupIx, from: usize, to: usize) -> Option<Vec<&str>> {
        ((group as usize) < self.collisions.group_count()).then(|| self.collisions.group(group).consumers(from, to))
    }

    fn work(&self) -> Vec<(&'static str, u64)> {
        self.collisions.work()
    }
}
