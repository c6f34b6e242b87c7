//! A report's findings as owned data ([`Snapshot`]) and as bytes: what
//! toolwire.dask sends from the worker that checked a file to the client.
//!
//! A [`Report`] stores CMP-9 violations by cause and builds them when read,
//! pointing into the checked graph, so it cannot leave the process. A
//! snapshot reads every finding once into plain owned values (with each
//! tool's whole path), which encode to a compact byte string and decode back
//! to an equal snapshot, with no Python object per finding on either side.
//!
//! A snapshot holds every id a report's findings name, which can be far more
//! than its file holds (one clashing toolbox wired into a million agents,
//! paths through a 100,000-box chain); [`Snapshot::of`] stops at a budget
//! of ids instead of building something huge.
//!
//! # Format, version 1
//!
//! ```text
//! snapshot   := MAGIC VERSION stats warnings edge5 cmp9 groups   (nothing after)
//! MAGIC      := b"TWRS"          VERSION := 0x01
//! stats      := nodes edges tool_edges consumers passthroughs     (uint each)
//! warnings   := list of (code:str node:str edge:opt<uint> message:str location:opt<loc>)
//! edge5      := list of (edge:uint edge_id:opt<str> edge_type:str message:str
//!                        location:opt<loc> suggestion:opt<str>)
//! cmp9       := list of (consumer:str name:str message:str location:opt<loc> group:uint
//!                        tools:list<tool> fix:list<rename> box_labels:list<(str str)>)
//! tool       := id:str label:str location:opt<loc> path:list<str>
//! rename     := node:str label:str new_label:str new_name:str
//! groups     := list of (name:str through:opt<str> first:uint consumers:list<str>)
//! uint       := unsigned LEB128: 7 bits a byte, least significant first (little-endian)
//! str        := uint byte length, then that many bytes of UTF-8
//! list<T>    := uint count, then the items;  opt<T> := 0x00 | 0x01 T;  loc := line:uint column:uint
//! ```
//!
//! A group's `first` is its first violation by index among the CMP-9 ones;
//! its count is its number of consumers. Decoding checks everything: the
//! magic and version, every length against the bytes left (before
//! allocating), UTF-8, warning codes, and that groups and violations point
//! at each other, so malformed or foreign bytes are an error, never a panic.

use std::fmt;

use crate::collisions::GroupIx;
use crate::error::Location;
use crate::report::{EdgeTypeViolation, Rename, Report, Stats, Violation, Warning};

const MAGIC: &[u8; 4] = b"TWRS";
const VERSION: u8 = 1;

/// A colliding tool with its whole path, `[tool, box, ..., consumer]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippedTool {
    pub id: String,
    pub label: String,
    pub location: Option<Location>,
    pub path: Vec<String>,
}

/// One CMP-9 violation with everything a reader of it is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippedCollision {
    pub consumer: String,
    pub name: String,
    pub message: String,
    pub location: Option<Location>,
    /// The group it is reported in, by index in [`Snapshot::groups`].
    pub group: GroupIx,
    pub tools: Vec<ShippedTool>,
    pub fix: Vec<Rename>,
    pub box_labels: Vec<(String, String)>,
}

/// One CMP-9 group (see [`crate::GroupRef`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippedGroup {
    pub name: String,
    pub through: Option<String>,
    /// Its first violation, by index among the CMP-9 violations.
    pub first: u64,
    /// Its consumers, by id: one per violation of the group.
    pub consumers: Vec<String>,
}

/// Every finding of a report, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub stats: Stats,
    pub warnings: Vec<Warning>,
    /// EDGE-5 violations, in edge order.
    pub edge_violations: Vec<EdgeTypeViolation>,
    /// CMP-9 violations, by consumer id and name.
    pub collisions: Vec<ShippedCollision>,
    /// CMP-9 groups, in the order of their first violations.
    pub groups: Vec<ShippedGroup>,
}

/// A report whose findings name more ids than the budget allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    /// The report's exact number of violations.
    pub violation_count: u64,
}

/// Bytes that are not a snapshot this version of toolwire wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub what: &'static str,
    /// Where in the bytes it was noticed.
    pub offset: usize,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a toolwire report snapshot: {} at byte {}",
            self.what, self.offset
        )
    }
}

impl std::error::Error for DecodeError {}

impl Snapshot {
    /// The findings of `report`, if they name at most `budget` ids: one
    /// per violation, plus one per colliding tool and one per id of its
    /// path. The budget is checked before each tool's path is read, so a
    /// report over it costs what was read up to that point.
    pub fn of(report: &Report, budget: u64) -> Result<Snapshot, TooLarge> {
        let violation_count = report.violation_count();
        let too_large = TooLarge { violation_count };
        let mut left = budget.checked_sub(violation_count).ok_or(too_large)?;
        let mut collisions = Vec::with_capacity(report.collisions.len() as usize);
        for violation in report.violations() {
            let Violation::ToolNameCollision(c) = violation else {
                continue; // EDGE-5 ones are copied whole below
            };
            let mut tools = Vec::new();
            for tool in c.tools() {
                let ids = 1 + tool.path_len() as u64;
                left = left.checked_sub(ids).ok_or(too_large)?;
                tools.push(ShippedTool {
                    id: tool.id().to_owned(),
                    label: tool.label().to_owned(),
                    location: tool.location(),
                    path: tool.path().into_iter().map(str::to_owned).collect(),
                });
            }
            collisions.push(ShippedCollision {
                consumer: c.consumer().to_owned(),
                name: c.name().to_owned(),
                message: c.message(),
                location: c.location(),
                group: c.group(),
                tools,
                fix: c.fix().into_iter().cloned().collect(),
                box_labels: c
                    .box_labels()
                    .into_iter()
                    .map(|(b, l)| (b.to_owned(), l.to_owned()))
                    .collect(),
            });
        }
        // A group's consumers are one per violation of it: the violations,
        // counted above, bound them.
        let groups = (0..report.collisions.group_count() as GroupIx)
            .map(|g| {
                let group = report.collisions.group(g);
                ShippedGroup {
                    name: group.name().to_owned(),
                    through: group.through().map(str::to_owned),
                    first: group.first(),
                    consumers: group
                        .consumers(0, group.count() as usize)
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                }
            })
            .collect();
        Ok(Snapshot {
            stats: report.stats,
            warnings: report.warnings.clone(),
            edge_violations: report.edge_violations.clone(),
            collisions,
            groups,
        })
    }

    /// EDGE-5 violations first, then CMP-9 ones, as in a [`Report`].
    pub fn violation_count(&self) -> u64 {
        (self.edge_violations.len() + self.collisions.len()) as u64
    }

    /// The ids its findings name, counted as [`Snapshot::of`] counts them.
    pub fn id_count(&self) -> u64 {
        let tools: usize = self
            .collisions
            .iter()
            .flat_map(|c| &c.tools)
            .map(|t| 1 + t.path.len())
            .sum();
        self.violation_count() + tools as u64
    }

    /// The bytes of the format above.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(256));
        w.0.extend_from_slice(MAGIC);
        w.0.push(VERSION);
        let s = &self.stats;
        for n in [s.nodes, s.edges, s.tool_edges, s.consumers, s.passthroughs] {
            w.uint(n as u64);
        }
        w.list(&self.warnings, |w, warning| {
            w.str(warning.code);
            w.str(&warning.node);
            w.opt(warning.edge, |w, edge| w.uint(edge as u64));
            w.str(&warning.message);
            w.location(warning.location);
        });
        w.list(&self.edge_violations, |w, e| {
            w.uint(e.edge as u64);
            w.opt(e.edge_id.as_deref(), Writer::str);
            w.str(&e.edge_type);
            w.str(&e.message);
            w.location(e.location);
            w.opt(e.suggestion.as_deref(), Writer::str);
        });
        w.list(&self.collisions, |w, c| {
            w.str(&c.consumer);
            w.str(&c.name);
            w.str(&c.message);
            w.location(c.location);
            w.uint(u64::from(c.group));
            w.list(&c.tools, |w, t| {
                w.str(&t.id);
                w.str(&t.label);
                w.location(t.location);
                w.list(&t.path, |w, id| w.str(id));
            });
            w.list(&c.fix, |w, r| {
                for s in [&r.node, &r.label, &r.new_label, &r.new_name] {
                    w.str(s);
                }
            });
            w.list(&c.box_labels, |w, (id, label)| {
                w.str(id);
                w.str(label);
            });
        });
        w.list(&self.groups, |w, g| {
            w.str(&g.name);
            w.opt(g.through.as_deref(), Writer::str);
            w.uint(g.first);
            w.list(&g.consumers, |w, id| w.str(id));
        });
        w.0
    }

    /// The snapshot `bytes` encode, or why they are not one.
    pub fn decode(bytes: &[u8]) -> Result<Snapshot, DecodeError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len()).ok() != Some(&MAGIC[..]) {
            return Err(r.error_at(0, "no snapshot magic"));
        }
        if r.byte()? != VERSION {
            return Err(r.error_at(MAGIC.len(), "a format version this toolwire does not read"));
        }
        let stats = Stats {
            nodes: r.usize()?,
            edges: r.usize()?,
            tool_edges: r.usize()?,
            consumers: r.usize()?,
            passthroughs: r.usize()?,
        };
        let warnings = r.list(|r| {
            Ok(Warning {
                code: r.warning_code()?,
                node: r.string()?,
                edge: r.opt(Reader::usize)?,
                message: r.string()?,
                location: r.location()?,
            })
        })?;
        let edge_violations = r.list(|r| {
            Ok(EdgeTypeViolation {
                edge: r.usize()?,
                edge_id: r.opt(Reader::string)?,
                edge_type: r.string()?,
                message: r.string()?,
                location: r.location()?,
                suggestion: r.opt(Reader::string)?,
            })
        })?;
        let collisions = r.list(|r| {
            Ok(ShippedCollision {
                consumer: r.string()?,
                name: r.string()?,
                message: r.string()?,
                location: r.location()?,
                group: GroupIx::try_from(r.uint()?).map_err(|_| r.error("a group index out of range"))?,
                tools: r.list(|r| {
                    Ok(ShippedTool {
                        id: r.string()?,
                        label: r.string()?,
                        location: r.location()?,
                        path: r.list(Reader::string)?,
                    })
                })?,
                fix: r.list(|r| {
                    Ok(Rename {
                        node: r.string()?,
                        label: r.string()?,
                        new_label: r.string()?,
                        new_name: r.string()?,
                    })
                })?,
                box_labels: r.list(|r| Ok((r.string()?, r.string()?)))?,
            })
        })?;
        let groups = r.list(|r| {
            Ok(ShippedGroup {
                name: r.string()?,
                through: r.opt(Reader::string)?,
                first: r.uint()?,
                consumers: r.list(Reader::string)?,
            })
        })?;
        if r.at != bytes.len() {
            return Err(r.error("bytes after the end of the snapshot"));
        }
        let snapshot = Snapshot {
            stats,
            warnings,
            edge_violations,
            collisions,
            groups,
        };
        snapshot.check_links().map_err(|what| r.error_at(bytes.len(), what))?;
        Ok(snapshot)
    }

    /// What a reader relies on beyond the shape: a CMP-9 violation names
    /// two tools or more, its group exists, and each group's first
    /// violation exists and is in that group, which has consumers.
    fn check_links(&self) -> Result<(), &'static str> {
        for c in &self.collisions {
            if c.tools.len() < 2 {
                return Err("a CMP-9 violation with fewer than two tools");
            }
            if c.group as usize >= self.groups.len() {
                return Err("a CMP-9 violation in a group that does not exist");
            }
        }
        for (g, group) in self.groups.iter().enumerate() {
            let first = usize::try_from(group.first)
                .ok()
                .and_then(|first| self.collisions.get(first));
            if first.is_none_or(|c| c.group as usize != g) {
                return Err("a group whose first violation is not in it");
            }
            if group.consumers.is_empty() {
                return Err("a group without consumers");
            }
        }
        Ok(())
    }
}

struct Writer(Vec<u8>);

impl Writer {
    fn uint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    fn opt<T>(&mut self, value: Option<T>, write: impl FnOnce(&mut Writer, T)) {
        match value {
            None => self.0.push(0),
            Some(value) => {
                self.0.push(1);
                write(self, value);
            }
        }
    }

    fn location(&mut self, location: Option<Location>) {
        self.opt(location, |w, l| {
            w.uint(l.line as u64);
            w.uint(l.column as u64);
        });
    }

    fn list<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Writer, &T)) {
        self.uint(items.len() as u64);
        for item in items {
            write(self, item);
        }
    }
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

type Read<T> = Result<T, DecodeError>;

impl<'b> Reader<'b> {
    fn error(&self, what: &'static str) -> DecodeError {
        self.error_at(self.at, what)
    }

    fn error_at(&self, offset: usize, what: &'static str) -> DecodeError {
        DecodeError { what, offset }
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize) -> Read<&'b [u8]> {
        if n > self.left() {
            return Err(self.error("a length longer than the bytes left"));
        }
        let taken = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(taken)
    }

    fn byte(&mut self) -> Read<u8> {
        Ok(self.take(1)?[0])
    }

    fn uint(&mut self) -> Read<u64> {
        let start = self.at;
        let mut n: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7f);
            // The tenth byte holds the top bit of a u64 and nothing more.
            if shift == 63 && bits > 1 {
                return Err(self.error_at(start, "an integer over 64 bits"));
            }
            n |= bits << shift;
            if b & 0x80 == 0 {
                // A last byte of 0 after others is a padded form: refused,
                // so that each value has one encoding.
                if b == 0 && shift > 0 {
                    return Err(self.error_at(start, "an integer not in its shortest form"));
                }
                return Ok(n);
            }
        }
        Err(self.error_at(start, "an integer over 64 bits"))
    }

    fn usize(&mut self) -> Read<usize> {
        let start = self.at;
        usize::try_from(self.uint()?).map_err(|_| self.error_at(start, "an integer too large for this machine"))
    }

    fn string(&mut self) -> Read<String> {
        let len = self.usize()?;
        let start = self.at;
        let bytes = self.take(len)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(_) => Err(self.error_at(start, "a string that is not UTF-8")),
        }
    }

    fn warning_code(&mut self) -> Read<&'static str> {
        let start = self.at;
        let code = self.string()?;
        Warning::CODES
            .into_iter()
            .find(|known| *known == code)
            .ok_or_else(|| self.error_at(start, "an unknown warning code"))
    }

    fn location(&mut self) -> Read<Option<Location>> {
        self.opt(|r| {
            Ok(Location {
                line: r.usize()?,
                column: r.usize()?,
            })
        })
    }

    fn opt<T>(&mut self, read: impl FnOnce(&mut Self) -> Read<T>) -> Read<Option<T>> {
        match self.byte()? {
            0 => Ok(None),
            1 => read(self).map(Some),
            _ => Err(self.error_at(self.at - 1, "an option tag other than 0 or 1")),
        }
    }

    /// Every item takes a byte at least, so a count over the bytes left is
    /// refused before anything is allocated for it.
    fn list<T>(&mut self, mut read: impl FnMut(&mut Self) -> Read<T>) -> Read<Vec<T>> {
        let count = self.usize()?;
        if count > self.left() {
            return Err(self.error("a count larger than the bytes left"));
        }
        let mut items = Vec::with_capacity(count);
        for _ in 0..count {
            items.push(read(self)?);
        }
        Ok(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check_bytes, Config};

    fn check(doc: &str) -> Report {
        check_bytes(doc.as_bytes(), &Config::default()).unwrap()
    }

    fn tool_edge(from: &str, to: &str) -> String {
        format!(r#"{{"source": "{from}", "target": "{to}", "data": {{"edgeType": "tool_availability"}}}}"#)
    }

    fn node(id: &str, ty: &str, label: &str) -> String {
        format!(r#"{{"id": "{id}", "type": "{ty}", "data": {{"label": "{label}"}}}}"#)
    }

    fn workflow(nodes: &[String], edges: &[String]) -> String {
        format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
    }

    /// Two same-named tools in one toolbox wired into `agents` agents: one
    /// cause, one group of `agents` CMP-9 violations.
    fn fanout(agents: usize) -> String {
        let mut nodes = vec![
            node("t1", "http", "Web Search"),
            node("t2", "http", "web-search"),
            node("box", "toolbox", "Kit"),
        ];
        let mut edges = vec![tool_edge("t1", "box"), tool_edge("t2", "box")];
        for a in 0..agents {
            nodes.push(node(&format!("agent{a:03}"), "agent", "Agent"));
            edges.push(tool_edge("box", &format!("agent{a:03}")));
        }
        workflow(&nodes, &edges)
    }

    /// A tool reaching an agent through a chain of `boxes` toolboxes, next
    /// to a same-named tool wired in directly: one violation whose paths
    /// are `boxes + 2` and 2 ids long.
    fn chain(boxes: usize) -> String {
        let mut nodes = vec![
            node("deep", "http", "Lookup"),
            node("near", "http", "lookup"),
            node("agent", "agent", "A"),
        ];
        let mut edges = vec![tool_edge("deep", "b0"), tool_edge("near", "agent")];
        for b in 0..boxes {
            nodes.push(node(&format!("b{b}"), "toolbox", &format!("Box {b}")));
            let next = if b + 1 == boxes {
                "agent".to_owned()
            } else {
                format!("b{}", b + 1)
            };
            edges.push(tool_edge(&format!("b{b}"), &next));
        }
        workflow(&nodes, &edges)
    }

    fn examples() -> Vec<Report> {
        vec![
            check(include_str!("../tests/data/spec-cmp9-refused.json")),
            check(include_str!("../tests/data/spec-cmp9-accepted.json")),
            check(include_str!("../tests/data/multi-violation.json")),
            check(include_str!("../tests/data/shared-toolbox.json")),
            check(&fanout(40)),
            check(&chain(70)),
        ]
    }

    /// What the report says, read through its own API, for comparing with
    /// a snapshot made independently of it.
    fn snapshot_matches(report: &Report, snapshot: &Snapshot) {
        assert_eq!(snapshot.stats, report.stats);
        assert_eq!(snapshot.warnings, report.warnings);
        assert_eq!(snapshot.edge_violations, report.edge_violations);
        assert_eq!(snapshot.violation_count(), report.violation_count());
        let mut cmp9 = snapshot.collisions.iter();
        for v in report.violations() {
            let Violation::ToolNameCollision(c) = v else { continue };
            let shipped = cmp9.next().unwrap();
            assert_eq!(
                (shipped.consumer.as_str(), shipped.name.as_str()),
                (c.consumer(), c.name())
            );
            assert_eq!(shipped.message, c.message());
            assert_eq!(shipped.group, c.group());
            let paths: Vec<Vec<&str>> = c.tools().iter().map(|t| t.path()).collect();
            let shipped_paths: Vec<Vec<&str>> = shipped
                .tools
                .iter()
                .map(|t| t.path.iter().map(String::as_str).collect())
                .collect();
            assert_eq!(shipped_paths, paths);
        }
        assert_eq!(snapshot.groups.len(), report.collisions.group_count());
        for (g, shipped) in snapshot.groups.iter().enumerate() {
            let group = report.collisions.group(g as GroupIx);
            assert_eq!(shipped.consumers.len() as u64, group.count());
            assert_eq!(shipped.first, group.first());
        }
    }

    #[test]
    fn every_example_round_trips_through_bytes() {
        for report in examples() {
            let snapshot = Snapshot::of(&report, u64::MAX).unwrap();
            snapshot_matches(&report, &snapshot);
            assert_eq!(Snapshot::decode(&snapshot.encode()).unwrap(), snapshot);
        }
    }

    #[test]
    fn the_examples_hold_every_kind_of_finding() {
        // Otherwise the round trip above would leave some field untried.
        let snapshots: Vec<Snapshot> = examples().iter().map(|r| Snapshot::of(r, u64::MAX).unwrap()).collect();
        let codes: Vec<&str> = snapshots.iter().flat_map(|s| &s.warnings).map(|w| w.code).collect();
        for code in Warning::CODES {
            assert!(codes.contains(&code), "no {code} warning");
        }
        let edge5 = snapshots.iter().flat_map(|s| &s.edge_violations);
        assert!(edge5.clone().any(|e| e.suggestion.is_some() && e.location.is_some()));
        let cmp9: Vec<&ShippedCollision> = snapshots.iter().flat_map(|s| &s.collisions).collect();
        assert!(cmp9.iter().any(|c| !c.fix.is_empty() && !c.box_labels.is_empty()));
        assert!(cmp9.iter().any(|c| c.tools.iter().any(|t| t.path.len() == 72)));
        let groups = snapshots.iter().flat_map(|s| &s.groups);
        assert!(groups
            .clone()
            .any(|g| g.consumers.len() == 40 && g.through.as_deref() == Some("box")));
    }

    #[test]
    fn the_warning_codes_a_check_makes_are_known_to_the_decoder() {
        let lossy = Warning::lossy_name("t", "Café", "caf", crate::names::NameLoss::NonAscii).unwrap();
        let unnamed = Warning::lossy_name("t", "??", "unnamed_tool", crate::names::NameLoss::Everything).unwrap();
        for warning in [Warning::undeclared("t", 0), lossy, unnamed] {
            assert!(Warning::CODES.contains(&warning.code), "{}", warning.code);
        }
    }

    #[test]
    fn the_budget_counts_violations_tools_and_path_ids() {
        // One violation; tools with paths of 72 and 2 ids: 1 + 73 + 3.
        let report = check(&chain(70));
        assert_eq!(Snapshot::of(&report, 77).unwrap().id_count(), 77);
        assert_eq!(Snapshot::of(&report, 76), Err(TooLarge { violation_count: 1 }));
        // 40 violations, each with two tools of 3-id paths: 40 * 9.
        let report = check(&fanout(40));
        assert!(Snapshot::of(&report, 360).is_ok());
        assert_eq!(Snapshot::of(&report, 359), Err(TooLarge { violation_count: 40 }));
        // Fewer ids than violations: refused before any is read.
        assert_eq!(Snapshot::of(&report, 39), Err(TooLarge { violation_count: 40 }));
    }

    #[test]
    fn foreign_and_newer_bytes_are_refused_by_name() {
        let bytes = Snapshot::of(&examples()[0], u64::MAX).unwrap().encode();
        let error = |bytes: &[u8]| Snapshot::decode(bytes).unwrap_err().what;
        assert_eq!(error(b""), "no snapshot magic");
        assert_eq!(error(b"{\"nodes\": []}"), "no snapshot magic");
        let mut newer = bytes.clone();
        newer[MAGIC.len()] = VERSION + 1;
        assert_eq!(error(&newer), "a format version this toolwire does not read");
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(error(&longer), "bytes after the end of the snapshot");
    }

    #[test]
    fn a_count_past_the_end_is_refused_before_allocating() {
        // Stats, then a warning count of 2^62: refused, not reserved.
        let mut bytes = MAGIC.to_vec();
        bytes.push(VERSION);
        bytes.extend([0; 5]);
        let mut w = Writer(Vec::new());
        w.uint(1 << 62);
        bytes.extend(w.0);
        assert_eq!(
            Snapshot::decode(&bytes).unwrap_err().what,
            "a count larger than the bytes left"
        );
    }

    #[test]
    fn integers_round_trip_and_overlong_ones_are_refused() {
        for n in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX - 1, u64::MAX] {
            let mut w = Writer(Vec::new());
            w.uint(n);
            let mut r = Reader { bytes: &w.0, at: 0 };
            assert_eq!(r.uint(), Ok(n));
            assert_eq!(r.at, w.0.len());
        }
        let mut r = Reader {
            bytes: &[0xff; 10],
            at: 0,
        };
        assert_eq!(r.uint().unwrap_err().what, "an integer over 64 bits");
        let mut r = Reader {
            bytes: &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02],
            at: 0,
        };
        assert_eq!(r.uint().unwrap_err().what, "an integer over 64 bits");
        let mut r = Reader {
            bytes: &[0x85, 0x00],
            at: 0,
        };
        assert_eq!(r.uint().unwrap_err().what, "an integer not in its shortest form");
    }

    #[test]
    fn broken_links_between_groups_and_violations_are_refused() {
        let good = Snapshot::of(&check(&fanout(3)), u64::MAX).unwrap();
        let mut no_group = good.clone();
        no_group.collisions[1].group = 7;
        let mut first_elsewhere = good.clone();
        first_elsewhere.groups[0].first = 9;
        let mut one_tool = good.clone();
        one_tool.collisions[0].tools.pop();
        for broken in [no_group, first_elsewhere, one_tool] {
            assert!(Snapshot::decode(&broken.encode()).is_err());
        }
    }

    #[test]
    fn every_truncation_and_every_changed_byte_decodes_or_fails_cleanly() {
        for report in [
            check(include_str!("../tests/data/multi-violation.json")),
            check(&fanout(3)),
        ] {
            let bytes = Snapshot::of(&report, u64::MAX).unwrap().encode();
            for end in 0..bytes.len() {
                assert!(
                    Snapshot::decode(&bytes[..end]).is_err(),
                    "a snapshot cut at {end} decoded"
                );
            }
            let mut changed = bytes.clone();
            for at in 0..bytes.len() {
                for value in [0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff, bytes[at] ^ 0x20] {
                    changed[at] = value;
                    // Ok or Err, never a panic; a decoded one encodes back
                    // to the same bytes, so nothing was read loosely.
                    if let Ok(snapshot) = Snapshot::decode(&changed) {
                        assert_eq!(snapshot.encode(), changed);
                    }
                }
                changed[at] = bytes[at];
            }
        }
    }
}
