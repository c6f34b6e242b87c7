//! A report's findings as bytes, and those bytes read back: what
//! toolwire.dask sends from the worker that checked a file to the client.
//!
//! A [`Report`] stores CMP-9 violations by cause and builds them when read,
//! pointing into the checked graph, so it cannot leave the process.
//! [`encode`] reads every finding once (each tool with its whole path) into
//! a compact byte string; [`Shipped`] owns such bytes, checked whole when
//! made, and answers what a report answers by reading the item asked for,
//! so a client that receives thousands of reports makes nothing per
//! finding until a finding is read.
//!
//! The findings can name far more ids than the file holds (one clashing
//! toolbox wired into a million agents, paths through a 100,000-box chain),
//! so [`encode`] stops at a budget of ids instead of writing something huge.
//!
//! # Format, version 2
//!
//! ```text
//! snapshot   := MAGIC VERSION stats warnings edge5 cmp9 groups checked cmp10   (nothing after)
//! MAGIC      := b"TWRS"          VERSION := 0x02
//! stats      := nodes edges tool_edges consumers passthroughs     (uint each)
//! warnings   := list of (code:str node:str edge:opt<uint> message:str location:opt<loc>)
//! edge5      := list of (edge:uint edge_id:opt<str> edge_type:str message:str
//!                        location:opt<loc> suggestion:opt<str>)
//! cmp9       := list of (consumer:str name:str message:str location:opt<loc> group:uint
//!                        tools:list<tool> fix:list<rename> box_labels:list<(str str)>)
//! tool       := id:str label:str location:opt<loc> path:list<str>
//! rename     := node:str label:str new_label:str new_name:str
//! groups     := list of through:opt<str>
//! checked    := 0x00 | 0x01      (whether CMP-10 was checked against a catalogue)
//! cmp10      := list of (node:str node_type:str defined_at:str message:str location:opt<loc>
//!                        edges:list<(edge:uint edge_id:opt<str> source:str)>)
//! uint       := unsigned LEB128: 7 bits a byte, least significant first (little-endian),
//!               in its shortest form
//! str        := uint byte length, then that many bytes of UTF-8
//! list<T>    := uint count, then the items;  opt<T> := 0x00 | 0x01 T;  loc := line:uint column:uint
//! ```
//!
//! A group is written as its `through` alone: its violations say the rest.
//! They are those whose `group` is its index; its name is theirs, its
//! consumers are theirs (violations come by consumer id, so in the order a
//! group lists them), and its first violation is the first of them.
//!
//! [`Shipped::decode`] checks everything: magic and version, every length
//! against the bytes left (before allocating), UTF-8, warning codes, that
//! each CMP-9 violation has two tools or more and a group that exists, and
//! that every group has violations, in the order of their first ones. So
//! malformed or foreign bytes are an error, never a panic, and each report
//! has one encoding.
//!
//! One module, though long (a third of it tests): the writer and the reader
//! follow the one grammar above, a change to the format changes both, and the
//! tests read back what the writer wrote. Split, the grammar would be in one
//! file and half its readers in another.

use std::fmt;

use crate::collisions::GroupIx;
use crate::locate::Location;
use crate::report::{
    EdgeTypeViolation, Rename, Report, Stats, UnacceptedToolsViolation, Violation, Warning, WiredEdge,
};

const MAGIC: &[u8; 4] = b"TWRS";
/// 2: CMP-10 (its violations, and whether it was checked) after the groups.
const VERSION: u8 = 2;

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

/// The findings of `report` as bytes, if they name at most `budget` ids:
/// one per violation, plus one per colliding tool and one per id of its
/// path, plus one per tool edge a CMP-10 violation lists. The budget is checked before each tool's path is read, so a report
/// over it costs what was written up to that point.
pub fn encode(report: &Report, budget: u64) -> Result<Vec<u8>, TooLarge> {
    let violation_count = report.violation_count();
    let too_large = TooLarge { violation_count };
    let mut left = budget.checked_sub(violation_count).ok_or(too_large)?;
    let mut w = Writer(Vec::with_capacity(256));
    w.0.extend_from_slice(MAGIC);
    w.0.push(VERSION);
    let s = &report.stats;
    for n in [s.nodes, s.edges, s.tool_edges, s.consumers, s.passthroughs] {
        w.uint(n as u64);
    }
    // Worded one at a time as they are written, never all held at once.
    w.streamed(report.warnings.iter(), |w, warning| {
        w.str(warning.code);
        w.str(&warning.node);
        w.opt(warning.edge, |w, edge| w.uint(edge as u64));
        w.str(&warning.message);
        w.location(warning.location);
    });
    w.list(&report.edge_violations, |w, e| {
        w.uint(e.edge as u64);
        w.opt(e.edge_id.as_deref(), Writer::str);
        w.str(&e.edge_type);
        w.str(&e.message);
        w.location(e.location);
        w.opt(e.suggestion.as_deref(), Writer::str);
    });
    w.uint(report.collisions.len());
    for violation in report.violations() {
        let Violation::ToolNameCollision(c) = violation else {
            continue; // EDGE-5, written above
        };
        w.str(c.consumer());
        w.str(c.name());
        w.str(&c.message());
        w.location(c.location());
        w.uint(u64::from(c.group()));
        let tools = c.tools();
        w.uint(tools.len() as u64);
        for tool in &tools {
            let ids = 1 + tool.path_len() as u64;
            left = left.checked_sub(ids).ok_or(too_large)?;
            w.str(tool.id());
            w.str(tool.label());
            w.location(tool.location());
            let path = tool.path();
            w.list(&path, |w, id| w.str(id));
        }
        w.list(&c.fix(), |w, r| {
            for s in [&r.node, &r.label, &r.new_label, &r.new_name] {
                w.str(s);
            }
        });
        w.list(&c.box_labels(), |w, (id, label)| {
            w.str(id);
            w.str(label);
        });
    }
    let groups = report.collisions.group_count();
    w.uint(groups as u64);
    for g in 0..groups as GroupIx {
        w.opt(report.collisions.group(g).through(), Writer::str);
    }
    w.0.push(u8::from(report.node_types_checked));
    w.uint(report.unaccepted_tools.len() as u64);
    for u in &report.unaccepted_tools {
        left = left.checked_sub(u.edges.len() as u64).ok_or(too_large)?;
        for s in [&u.node, &u.node_type, &u.defined_at, &u.message] {
            w.str(s);
        }
        w.location(u.location);
        w.list(&u.edges, |w, e| {
            w.uint(e.edge as u64);
            w.opt(e.edge_id.as_deref(), Writer::str);
            w.str(&e.source);
        });
    }
    Ok(w.0)
}

/// A snapshot: bytes [`encode`] wrote, checked whole, read an item at a
/// time. Item readers return None only for an index out of range: the
/// bytes were read whole by [`Shipped::decode`], so reading them again
/// cannot fail.
pub struct Shipped {
    bytes: Vec<u8>,
    stats: Stats,
    ids: u64,
    /// Where each warning, EDGE-5 violation, CMP-9 violation and group
    /// starts in `bytes`.
    warnings: Vec<usize>,
    edge_violations: Vec<usize>,
    collisions: Vec<usize>,
    groups: Vec<usize>,
    node_types_checked: bool,
    unaccepted_tools: Vec<usize>,
    /// The CMP-9 violations of each group, by index: those of group `g` are
    /// `members[member_starts[g]..member_starts[g + 1]]`, in order.
    members: Vec<u32>,
    member_starts: Vec<u32>,
}

/// A violation read from a [`Shipped`] snapshot.
pub enum ShippedViolation<'s> {
    UnrecognisedEdgeType(EdgeTypeViolation),
    ToolNameCollision(ShippedCollision<'s>),
    UnacceptedTools(UnacceptedToolsViolation),
}

/// A CMP-9 violation read from a [`Shipped`] snapshot; the paths of its
/// tools are read by [`Shipped::path`].
#[derive(Debug, PartialEq, Eq)]
pub struct ShippedCollision<'s> {
    pub consumer: &'s str,
    pub name: &'s str,
    pub message: &'s str,
    pub location: Option<Location>,
    pub group: GroupIx,
    pub tools: Vec<ShippedTool<'s>>,
    pub fix: Vec<Rename>,
    pub box_labels: Vec<(&'s str, &'s str)>,
}

/// A colliding tool of a [`ShippedCollision`].
#[derive(Debug, PartialEq, Eq)]
pub struct ShippedTool<'s> {
    pub id: &'s str,
    pub label: &'s str,
    pub location: Option<Location>,
    pub path_len: usize,
    /// Where its path's first id starts in the snapshot's bytes.
    path_at: usize,
}

/// A CMP-9 group read from a [`Shipped`] snapshot.
#[derive(Debug, PartialEq, Eq)]
pub struct ShippedGroup<'s> {
    pub name: &'s str,
    pub through: Option<&'s str>,
    /// Its violations, and so its consumers.
    pub count: u64,
    /// Its first violation, by index among the CMP-9 violations.
    pub first: u64,
}

impl Shipped {
    /// The snapshot `bytes` hold (copied), or why they do not hold one.
    pub fn decode(bytes: &[u8]) -> Result<Shipped, DecodeError> {
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
        let warnings = r.starts(Reader::warning)?;
        let edge_violations = r.starts(Reader::edge_violation)?;
        let mut ids = 0u64;
        let mut groups_of = Vec::new();
        let collisions = r.starts(|r| {
            let c = r.collision()?;
            if c.tools.len() < 2 {
                return Err(r.error("a CMP-9 violation with fewer than two tools"));
            }
            ids += 1 + c.tools.iter().map(|t| 1 + t.path_len as u64).sum::<u64>();
            groups_of.push(c.group);
            Ok(())
        })?;
        let groups = r.starts(|r| r.opt(Reader::str))?;
        let node_types_checked = match r.byte()? {
            0 => false,
            1 => true,
            _ => return Err(r.error_at(r.at - 1, "a flag that is neither 0 nor 1")),
        };
        let unaccepted_tools = r.starts(|r| {
            let u = r.unaccepted_tools()?;
            ids += 1 + u.edges.len() as u64;
            Ok(())
        })?;
        if !node_types_checked && !unaccepted_tools.is_empty() {
            return Err(r.error("CMP-10 violations in a report that did not check CMP-10"));
        }
        if r.at != bytes.len() {
            return Err(r.error("bytes after the end of the snapshot"));
        }
        // Groups index their violations by u32, as the core numbers groups.
        if u32::try_from(collisions.len()).is_err() {
            return Err(r.error("more CMP-9 violations than a snapshot holds"));
        }
        let (members, member_starts) =
            members_by_group(&groups_of, groups.len()).map_err(|what| r.error_at(bytes.len(), what))?;
        Ok(Shipped {
            bytes: bytes.to_vec(),
            stats,
            ids: ids + edge_violations.len() as u64,
            warnings,
            edge_violations,
            collisions,
            groups,
            node_types_checked,
            unaccepted_tools,
            members,
            member_starts,
        })
    }

    /// The bytes it was decoded from: [`encode`] of the same report.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The ids its findings name, as [`encode`] counts them for its budget.
    pub fn id_count(&self) -> u64 {
        self.ids
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// EDGE-5 violations first, then CMP-10 ones, then CMP-9 ones, as in
    /// a [`Report`].
    pub fn violation_count(&self) -> u64 {
        (self.edge_violations.len() + self.collisions.len() + self.unaccepted_tools.len()) as u64
    }

    /// Whether CMP-10 was checked (`Report::node_types_checked`).
    pub fn node_types_checked(&self) -> bool {
        self.node_types_checked
    }

    pub fn edge_violation_count(&self) -> usize {
        self.edge_violations.len()
    }

    /// How many violations come before the first CMP-9 one (EDGE-5, CMP-10).
    pub fn violations_before_cmp9(&self) -> usize {
        self.edge_violations.len() + self.unaccepted_tools.len()
    }

    pub fn warning_count(&self) -> usize {
        self.warnings.len()
    }

    pub fn group_count(&self) -> usize {
        self.groups.len()
    }

    fn read<'s, T>(&'s self, at: usize, read: impl FnOnce(&mut Reader<'s>) -> Read<T>) -> Option<T> {
        let read = read(&mut Reader { bytes: &self.bytes, at });
        debug_assert!(
            read.is_ok(),
            "bytes checked by decode read again: {:?}",
            read.as_ref().err()
        );
        read.ok()
    }

    pub fn warning(&self, index: usize) -> Option<Warning> {
        self.read(*self.warnings.get(index)?, Reader::warning)
    }

    /// Violation `index` in the order of [`Shipped::violation_count`].
    pub fn violation(&self, index: u64) -> Option<ShippedViolation<'_>> {
        let index = usize::try_from(index).ok()?;
        match index.checked_sub(self.edge_violations.len()) {
            None => self
                .read(self.edge_violations[index], Reader::edge_violation)
                .map(ShippedViolation::UnrecognisedEdgeType),
            Some(cmp10) if cmp10 < self.unaccepted_tools.len() => self
                .read(self.unaccepted_tools[cmp10], Reader::unaccepted_tools)
                .map(ShippedViolation::UnacceptedTools),
            Some(later) => self
                .collision(later - self.unaccepted_tools.len())
                .map(ShippedViolation::ToolNameCollision),
        }
    }

    /// CMP-9 violation `index`, by index among the CMP-9 ones.
    fn collision(&self, index: usize) -> Option<ShippedCollision<'_>> {
        self.read(*self.collisions.get(index)?, Reader::collision)
    }

    /// Ids `from..to` (clamped) of a tool's path.
    pub fn path(&self, tool: &ShippedTool<'_>, from: usize, to: usize) -> Option<Vec<&str>> {
        let to = to.min(tool.path_len);
        self.read(tool.path_at, |r| {
            for _ in 0..from.min(to) {
                r.str()?;
            }
            (from..to).map(|_| r.str()).collect()
        })
    }

    /// Group `group`, in the order of first violations.
    pub fn group(&self, group: GroupIx) -> Option<ShippedGroup<'_>> {
        let at = *self.groups.get(group as usize)?;
        let members = self.members_of(group)?;
        let first = *members.first()?;
        Some(ShippedGroup {
            // A violation starts with its consumer, then its name.
            name: self.read(self.collisions[first as usize], |r| r.str().and_then(|_| r.str()))?,
            through: self.read(at, |r| r.opt(Reader::str))?,
            count: members.len() as u64,
            first: u64::from(first),
        })
    }

    /// The ids of a group's consumers from position `from` to `to`
    /// (exclusive, clamped), by id.
    pub fn group_consumers(&self, group: GroupIx, from: usize, to: usize) -> Option<Vec<&str>> {
        let members = self.members_of(group)?;
        let to = to.min(members.len());
        members[from.min(to)..to]
            .iter()
            // A violation starts with its consumer.
            .map(|&m| self.read(self.collisions[m as usize], Reader::str))
            .collect()
    }

    fn members_of(&self, group: GroupIx) -> Option<&[u32]> {
        let g = group as usize;
        let (start, stop) = (*self.member_starts.get(g)?, *self.member_starts.get(g + 1)?);
        Some(&self.members[start as usize..stop as usize])
    }
}

/// The violations of each group (as `Shipped` keeps them), from the group
/// of each violation; refused unless every group has violations and groups
/// come in the order of their first ones.
fn members_by_group(group_of: &[GroupIx], groups: usize) -> Result<(Vec<u32>, Vec<u32>), &'static str> {
    let mut counts = vec![0u32; groups];
    let mut next_new = 0usize;
    for &g in group_of {
        let count = counts
            .get_mut(g as usize)
            .ok_or("a CMP-9 violation in a group that does not exist")?;
        if *count == 0 {
            if g as usize != next_new {
                return Err("groups out of the order of their first violations");
            }
            next_new += 1;
        }
        *count += 1;
    }
    if next_new != groups {
        return Err("a group without violations");
    }
    let mut starts = Vec::with_capacity(groups + 1);
    let mut total = 0u32;
    starts.push(0);
    for count in counts {
        total += count;
        starts.push(total);
    }
    let mut filled = starts.clone();
    let mut members = vec![0u32; group_of.len()];
    for (violation, &g) in group_of.iter().enumerate() {
        members[filled[g as usize] as usize] = violation as u32;
        filled[g as usize] += 1;
    }
    Ok((members, starts))
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

    /// A list of items made as they are written: the count comes first in
    /// the format, so the items go to a buffer of their own until it is
    /// known.
    fn streamed<T>(&mut self, items: impl Iterator<Item = T>, mut write: impl FnMut(&mut Writer, T)) {
        let mut written = Writer(Vec::new());
        let mut count = 0u64;
        for item in items {
            write(&mut written, item);
            count += 1;
        }
        self.uint(count);
        self.0.extend_from_slice(&written.0);
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

    fn str(&mut self) -> Read<&'b str> {
        let len = self.usize()?;
        let start = self.at;
        std::str::from_utf8(self.take(len)?).map_err(|_| self.error_at(start, "a string that is not UTF-8"))
    }

    fn string(&mut self) -> Read<String> {
        self.str().map(str::to_owned)
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

    /// A count of items that take a byte each at least: one over the bytes
    /// left is refused before anything is allocated for it.
    fn count(&mut self) -> Read<usize> {
        let count = self.usize()?;
        if count > self.left() {
            return Err(self.error("a count larger than the bytes left"));
        }
        Ok(count)
    }

    fn list<T>(&mut self, mut read: impl FnMut(&mut Self) -> Read<T>) -> Read<Vec<T>> {
        let count = self.count()?;
        (0..count).map(|_| read(self)).collect()
    }

    /// Reads a list, keeping where each item starts, not the items.
    fn starts<T>(&mut self, mut read: impl FnMut(&mut Self) -> Read<T>) -> Read<Vec<usize>> {
        self.list(|r| {
            let at = r.at;
            read(r)?;
            Ok(at)
        })
    }

    fn warning(&mut self) -> Read<Warning> {
        let start = self.at;
        let code = self.str()?;
        Ok(Warning {
            code: Warning::CODES
                .into_iter()
                .find(|known| *known == code)
                .ok_or_else(|| self.error_at(start, "an unknown warning code"))?,
            node: self.string()?,
            edge: self.opt(Reader::usize)?,
            message: self.string()?,
            location: self.location()?,
        })
    }

    fn edge_violation(&mut self) -> Read<EdgeTypeViolation> {
        Ok(EdgeTypeViolation {
            edge: self.usize()?,
            edge_id: self.opt(Reader::string)?,
            edge_type: self.string()?,
            message: self.string()?,
            location: self.location()?,
            suggestion: self.opt(Reader::string)?,
        })
    }

    fn unaccepted_tools(&mut self) -> Read<UnacceptedToolsViolation> {
        Ok(UnacceptedToolsViolation {
            node: self.string()?,
            node_type: self.string()?,
            defined_at: self.string()?,
            message: self.string()?,
            location: self.location()?,
            edges: self.list(|r| {
                Ok(WiredEdge {
                    edge: r.usize()?,
                    edge_id: r.opt(Reader::string)?,
                    source: r.string()?,
                })
            })?,
        })
    }

    fn collision(&mut self) -> Read<ShippedCollision<'b>> {
        Ok(ShippedCollision {
            consumer: self.str()?,
            name: self.str()?,
            message: self.str()?,
            location: self.location()?,
            group: GroupIx::try_from(self.uint()?).map_err(|_| self.error("a group index out of range"))?,
            tools: self.list(|r| {
                let (id, label, location) = (r.str()?, r.str()?, r.location()?);
                let path_len = r.count()?;
                let path_at = r.at;
                for _ in 0..path_len {
                    r.str()?;
                }
                Ok(ShippedTool {
                    id,
                    label,
                    location,
                    path_len,
                    path_at,
                })
            })?,
            fix: self.list(|r| {
                Ok(Rename {
                    node: r.string()?,
                    label: r.string()?,
                    new_label: r.string()?,
                    new_name: r.string()?,
                })
            })?,
            box_labels: self.list(|r| Ok((r.str()?, r.str()?)))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::check_text;
    use crate::{Budget, Config};

    fn check(doc: &str) -> Report {
        check_text(doc.as_bytes(), &Config::default(), Budget::full()).unwrap()
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

    /// Two same-named tools in one toolbox wired into `agents` agents (and
    /// one more wired in beside the box into every other agent): groups of
    /// many violations, and violations in two groups per consumer.
    fn fanout(agents: usize) -> String {
        let mut nodes = vec![
            node("t1", "http", "Web Search"),
            node("t2", "http", "web-search"),
            node("box", "toolbox", "Kit"),
            node("f1", "http", "Fetch"),
            node("f2", "http", "fetch"),
        ];
        let mut edges = vec![tool_edge("t1", "box"), tool_edge("t2", "box")];
        for a in 0..agents {
            let agent = format!("agent{a:03}");
            nodes.push(node(&agent, "agent", "Agent"));
            edges.push(tool_edge("box", &agent));
            if a % 2 == 1 {
                edges.push(tool_edge("f1", &agent));
                edges.push(tool_edge("f2", &agent));
            }
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
            check(
                r#"{"nodes": [{"id": "a", "id": "t"}], "edges": [{"source": "t", "source": "t", "target": "c", "targetHandle": "c-input-tool"}]}"#,
            ),
            cmp10_example(),
        ]
    }

    /// CMP-10 beside CMP-9: a tool wired into a type that does not accept
    /// tools, and one into a type the catalogue does not know.
    fn cmp10_example() -> Report {
        let mut catalogue = crate::catalogue::Catalogue::default();
        let types = br#"[{"id": "agent", "inputs": [{"dataType": "tool"}]}, {"id": "http"}]"#;
        catalogue
            .add("types.json", types, crate::catalogue::Form::EditorJson)
            .unwrap();
        let config = Config::default().with_catalogue(std::sync::Arc::new(catalogue));
        let nodes = [
            node("t1", "http", "Search"),
            node("t2", "http", "search"),
            node("a", "agent", "A"),
            node("m", "mystery", "M"),
        ];
        let mut edges = vec![tool_edge("t1", "a"), tool_edge("t2", "a"), tool_edge("t1", "m")];
        edges.push(r#"{"id": "e3", "source": "a", "target": "t2", "targetHandle": "t2-input-tool"}"#.to_owned());
        check_text(workflow(&nodes, &edges).as_bytes(), &config, Budget::full()).unwrap()
    }

    fn shipped(report: &Report) -> Shipped {
        Shipped::decode(&encode(report, u64::MAX).unwrap()).unwrap()
    }

    /// Everything a snapshot answers, beside what the report answers.
    fn assert_same(report: &Report, shipped: &Shipped) {
        assert_eq!(shipped.stats(), report.stats);
        let warnings: Vec<Warning> = (0..shipped.warning_count())
            .map(|i| shipped.warning(i).unwrap())
            .collect();
        assert_eq!(warnings, report.warnings.iter().collect::<Vec<_>>());
        assert_eq!(shipped.violation_count(), report.violation_count());
        for (index, v) in report.violations().enumerate() {
            match (v, shipped.violation(index as u64).unwrap()) {
                (Violation::UnrecognisedEdgeType(e), ShippedViolation::UnrecognisedEdgeType(s)) => assert_eq!(&s, e),
                (Violation::UnacceptedTools(u), ShippedViolation::UnacceptedTools(s)) => assert_eq!(&s, u),
                (Violation::ToolNameCollision(c), ShippedViolation::ToolNameCollision(s)) => {
                    assert_eq!(
                        (s.consumer, s.name, s.message.to_owned()),
                        (c.consumer(), c.name(), c.message())
                    );
                    assert_eq!((s.location, s.group), (c.location(), c.group()));
                    assert_eq!(s.fix.iter().collect::<Vec<_>>(), c.fix());
                    assert_eq!(s.box_labels, c.box_labels());
                    let tools = c.tools();
                    assert_eq!(s.tools.len(), tools.len());
                    for (shipped_tool, tool) in s.tools.iter().zip(&tools) {
                        assert_eq!((shipped_tool.id, shipped_tool.label), (tool.id(), tool.label()));
                        assert_eq!(shipped_tool.location, tool.location());
                        assert_eq!(shipped.path(shipped_tool, 0, usize::MAX).unwrap(), tool.path());
                        assert_eq!(shipped.path(shipped_tool, 1, 2).unwrap(), tool.path_ids(1, 2));
                    }
                }
                _ => panic!("violation {index} is of another rule"),
            }
        }
        assert!(shipped.violation(report.violation_count()).is_none());
        assert_eq!(shipped.node_types_checked(), report.node_types_checked);
        assert_eq!(shipped.group_count(), report.collisions.group_count());
        for g in 0..shipped.group_count() as GroupIx {
            let (group, shipped_group) = (report.collisions.group(g), shipped.group(g).unwrap());
            assert_eq!(
                (shipped_group.name, shipped_group.through),
                (group.name(), group.through())
            );
            assert_eq!(
                (shipped_group.count, shipped_group.first),
                (group.count(), group.first())
            );
            let count = group.count() as usize;
            assert_eq!(
                shipped.group_consumers(g, 0, count + 1).unwrap(),
                group.consumers(0, count)
            );
            assert_eq!(shipped.group_consumers(g, 1, 3).unwrap(), group.consumers(1, 3));
        }
        assert!(shipped.group(shipped.group_count() as GroupIx).is_none());
    }

    #[test]
    fn every_example_reads_back_as_the_report_said_it() {
        for report in examples() {
            let bytes = encode(&report, u64::MAX).unwrap();
            let shipped = Shipped::decode(&bytes).unwrap();
            assert_same(&report, &shipped);
            assert_eq!(shipped.bytes(), bytes);
        }
    }

    #[test]
    fn the_examples_hold_every_kind_of_finding() {
        // Otherwise the comparison above would leave some field untried.
        let reports = examples();
        let codes: Vec<&str> = reports.iter().flat_map(|r| r.warnings.iter()).map(|w| w.code).collect();
        for code in Warning::CODES {
            assert!(codes.contains(&code), "no {code} warning");
        }
        let edge5 = reports.iter().flat_map(|r| &r.edge_violations);
        assert!(edge5
            .clone()
            .any(|e| e.suggestion.is_some() && e.location.is_some() && e.edge_id.is_some()));
        let cmp9: Vec<_> = reports
            .iter()
            .flat_map(|r| r.violations())
            .filter_map(|v| match v {
                Violation::ToolNameCollision(c) => Some(c),
                _ => None,
            })
            .collect();
        assert!(cmp9.iter().any(|c| !c.fix().is_empty() && !c.box_labels().is_empty()));
        assert!(cmp9.iter().any(|c| c.tools().iter().any(|t| t.path_len() == 72)));
        assert!(reports
            .iter()
            .any(|r| r.node_types_checked && !r.unaccepted_tools.is_empty()));
        let fanout = &reports[4];
        let groups: Vec<_> = (0..fanout.collisions.group_count() as GroupIx)
            .map(|g| fanout.collisions.group(g))
            .collect();
        assert!(groups.iter().any(|g| g.count() == 40 && g.through() == Some("box")));
        assert!(groups.iter().any(|g| g.count() == 20 && g.through().is_none()));
    }

    #[test]
    fn the_warning_codes_a_check_makes_are_known_to_the_decoder() {
        use crate::names::NameLoss;
        let lossy = Warning::lossy_name("t", "Café", "caf", NameLoss::NonAscii).unwrap();
        let unnamed = Warning::lossy_name("t", "??", "unnamed_tool", NameLoss::Everything).unwrap();
        let repeated = Warning::duplicate_key(crate::input::Within::Workflow, None, "nodes");
        for warning in [repeated, Warning::undeclared("t", 0), lossy, unnamed] {
            assert!(Warning::CODES.contains(&warning.code), "{}", warning.code);
        }
    }

    #[test]
    fn the_budget_counts_violations_tools_and_path_ids() {
        // One violation; tools with paths of 72 and 2 ids: 1 + 73 + 3.
        let report = check(&chain(70));
        assert_eq!(shipped(&report).id_count(), 77);
        assert!(encode(&report, 77).is_ok());
        assert_eq!(encode(&report, 76), Err(TooLarge { violation_count: 1 }));
        // 60 violations, each with two tools of 3-id paths (the 20 beside
        // the box: 2 ids): 40 * 9 + 20 * 7.
        let report = check(&fanout(40));
        assert_eq!(shipped(&report).id_count(), 500);
        assert!(encode(&report, 500).is_ok());
        assert_eq!(encode(&report, 499), Err(TooLarge { violation_count: 60 }));
        // Fewer ids than violations: refused before any is read.
        assert_eq!(encode(&report, 59), Err(TooLarge { violation_count: 60 }));
    }

    #[test]
    fn foreign_and_newer_bytes_are_refused_by_name() {
        let bytes = encode(&examples()[0], u64::MAX).unwrap();
        let error = |bytes: &[u8]| Shipped::decode(bytes).err().unwrap().what;
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
        let mut w = Writer(MAGIC.to_vec());
        w.0.push(VERSION);
        w.0.extend([0; 5]);
        w.uint(1 << 62);
        assert_eq!(
            Shipped::decode(&w.0).err().unwrap().what,
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
        let error = |bytes: &[u8]| Reader { bytes, at: 0 }.uint().unwrap_err().what;
        assert_eq!(error(&[0xff; 10]), "an integer over 64 bits");
        assert_eq!(
            error(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]),
            "an integer over 64 bits"
        );
        assert_eq!(error(&[0x85, 0x00]), "an integer not in its shortest form");
    }

    #[test]
    fn groups_that_do_not_match_their_violations_are_refused() {
        // Four violations: groups 0, 1, 0, 2.
        assert_eq!(
            members_by_group(&[0, 1, 0, 2], 3),
            Ok((vec![0, 2, 1, 3], vec![0, 2, 3, 4]))
        );
        let refused = |groups: &[GroupIx], count| members_by_group(groups, count).unwrap_err();
        assert_eq!(refused(&[0, 3], 2), "a CMP-9 violation in a group that does not exist");
        assert_eq!(refused(&[1, 0], 2), "groups out of the order of their first violations");
        assert_eq!(refused(&[0, 0], 2), "a group without violations");
    }

    /// Reads every item, as the binding may: a snapshot that decoded
    /// answers every index in range.
    fn read_everything(shipped: &Shipped) {
        for i in 0..shipped.warning_count() {
            assert!(shipped.warning(i).is_some());
        }
        for i in 0..shipped.violation_count() {
            if let ShippedViolation::ToolNameCollision(c) = shipped.violation(i).unwrap() {
                for tool in &c.tools {
                    assert_eq!(shipped.path(tool, 0, usize::MAX).unwrap().len(), tool.path_len);
                }
            }
        }
        for g in 0..shipped.group_count() as GroupIx {
            let group = shipped.group(g).unwrap();
            assert_eq!(
                shipped.group_consumers(g, 0, usize::MAX).unwrap().len() as u64,
                group.count
            );
        }
    }

    #[test]
    fn every_truncation_and_every_changed_byte_decodes_or_fails_cleanly() {
        for report in [
            check(include_str!("../tests/data/multi-violation.json")),
            check(&fanout(3)),
        ] {
            let bytes = encode(&report, u64::MAX).unwrap();
            for end in 0..bytes.len() {
                assert!(
                    Shipped::decode(&bytes[..end]).is_err(),
                    "a snapshot cut at {end} decoded"
                );
            }
            let mut changed = bytes.clone();
            let mut decoded = 0;
            for at in 0..bytes.len() {
                for value in [0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff, bytes[at] ^ 0x20] {
                    changed[at] = value;
                    // Ok or Err, never a panic; what decoded reads whole.
                    if let Ok(shipped) = Shipped::decode(&changed) {
                        read_everything(&shipped);
                        decoded += 1;
                    }
                }
                changed[at] = bytes[at];
            }
            assert!(
                decoded > bytes.len(),
                "the sweep decoded only {decoded} changed snapshots"
            );
        }
    }
}
