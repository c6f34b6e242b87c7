//! A report's findings as bytes, and those bytes read back: what
//! toolwire.dask sends from the worker that checked a file to the client.
//!
//! A [`Report`](crate::Report) stores CMP-9 violations by cause and builds
//! them when read, pointing into the checked graph, so it cannot leave the
//! process. [`encode`] reads every finding once through [`ReadFindings`]
//! (each tool with its whole path) into a compact byte string; [`Shipped`]
//! owns such bytes, checked whole when made, and answers through the same
//! trait by reading the item asked for, so a client that receives
//! thousands of reports makes nothing per finding until a finding is read.
//!
//! The findings can name far more ids than the file holds (one clashing
//! toolbox wired into a million agents, paths through a 100,000-box chain),
//! so [`encode`] stops at a budget of ids instead of writing something huge.
//!
//! # Format, version 3
//!
//! ```text
//! snapshot   := MAGIC VERSION head warnings violations groups    (nothing after)
//! MAGIC      := b"TWRS"          VERSION := 0x03
//! head       := Head (stats, and whether CMP-10 was checked)
//! warnings   := count, then that many Warning
//! violations := count, then that many Finding: EDGE-5, then CMP-10, then CMP-9
//! groups     := count, then that many Option<&str>: each group's `through`
//! count      := a u64
//! ```
//!
//! Each item is its type's serde form as postcard writes it (varints,
//! length-prefixed UTF-8, a variant as its index; the types are in
//! src/findings.rs and src/report.rs). A tool's path is one byte string
//! holding its ids, so an item is read without its paths' ids, and a path
//! without the paths before it. Nothing but the counts is kept outside the
//! items: [`Shipped::decode`] reads each item once and keeps where it
//! starts (the offset table that makes later reads lazy).
//!
//! A group is written as its `through` alone: its violations say the rest.
//! They are those whose `group` is its index; its name is theirs, its
//! consumers are theirs (violations come by consumer id, so in the order a
//! group lists them), and its first violation is the first of them.
//!
//! [`Shipped::decode`] checks everything: magic and version, every count
//! against the bytes left (before allocating), every item (UTF-8, tags,
//! integers in range, known warning codes), violations in rule order, each
//! CMP-9 violation with two tools or more, paths that hold as many ids as
//! they say, a group that exists, and groups in the order of their first
//! violations. So malformed or foreign bytes are an error, never a panic,
//! and every read of a decoded snapshot answers.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::collisions::GroupIx;
use crate::findings::{Finding, FoundGroup, ReadFindings};
use crate::report::{Stats, Warning};

const MAGIC: &[u8; 4] = b"TWRS";
/// 2: CMP-10 (its violations, and whether it was checked) after the groups.
/// 3: items in postcard, the violations in one list in report order.
const VERSION: u8 = 3;

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
    /// The item it is in, when it is in one ("a warning", ...).
    pub within: Option<&'static str>,
    /// Where in the bytes it was noticed: the start of its item.
    pub offset: usize,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a toolwire report snapshot: {}", self.what)?;
        if let Some(within) = self.within {
            write!(f, " in {within}")?;
        }
        write!(f, " at byte {}", self.offset)
    }
}

impl std::error::Error for DecodeError {}

/// What a snapshot says before its lists.
#[derive(Debug, Serialize, Deserialize)]
struct Head {
    stats: Stats,
    node_types_checked: bool,
}

/// The start of a CMP-9 item: [`Finding`]'s variants in its order, the
/// last with the first two fields of a `FoundCollision` (consumer, name).
#[derive(Deserialize)]
enum FindingHead<'a> {
    UnrecognisedEdgeType,
    UnacceptedTools,
    ToolNameCollision(#[serde(borrow)] CollisionHead<'a>),
}

#[derive(Deserialize)]
struct CollisionHead<'a> {
    consumer: &'a str,
    name: &'a str,
}

/// The findings `findings` answers as bytes, if they name at most `budget`
/// ids: one per violation, plus one per colliding tool and one per id of
/// its path, plus one per tool edge a CMP-10 violation lists. The budget is
/// checked before each violation is written, so a report over it costs
/// what was written up to that point.
pub fn encode<F: ReadFindings + ?Sized>(findings: &F, budget: u64) -> Result<Vec<u8>, TooLarge> {
    let violation_count = findings.violation_count();
    let too_large = TooLarge { violation_count };
    let mut left = budget.checked_sub(violation_count).ok_or(too_large)?;
    let mut w = Writer(Vec::with_capacity(256));
    w.0.extend_from_slice(MAGIC);
    w.0.push(VERSION);
    w.item(&Head {
        stats: findings.stats(),
        node_types_checked: findings.node_types_checked(),
    });
    // Worded one at a time as they are written, never all held at once.
    let warnings = findings.warning_count();
    w.item(&(warnings as u64));
    for warning in (0..warnings).filter_map(|i| findings.warning(i)) {
        w.item(&warning);
    }
    w.item(&violation_count);
    for violation in (0..violation_count).filter_map(|i| findings.violation(i)) {
        let ids = match &violation {
            Finding::UnrecognisedEdgeType(_) => 0,
            Finding::UnacceptedTools(u) => u.edges.len() as u64,
            Finding::ToolNameCollision(c) => c.tools.iter().map(|t| 1 + t.path_len as u64).sum(),
        };
        left = left.checked_sub(ids).ok_or(too_large)?;
        w.item(&violation);
    }
    let groups = findings.group_count();
    w.item(&(groups as u64));
    for group in (0..groups as GroupIx).filter_map(|g| findings.group(g)) {
        w.item(&group.through);
    }
    Ok(w.0)
}

struct Writer(Vec<u8>);

impl Writer {
    fn item<T: Serialize + ?Sized>(&mut self, item: &T) {
        let bytes = std::mem::take(&mut self.0);
        // postcard fails only for a sequence of unknown length, a buffer
        // that fills up, or an error a type's own serializer makes: these
        // types know their lengths, a Vec grows, and none makes errors.
        self.0 = postcard::to_extend(item, bytes).expect("postcard writes a snapshot item to a Vec");
    }
}

/// A snapshot: bytes [`encode`] wrote, checked whole, read an item at a
/// time through [`ReadFindings`].
pub struct Shipped {
    bytes: Vec<u8>,
    stats: Stats,
    node_types_checked: bool,
    /// Where each warning, violation and group starts in `bytes`.
    warnings: Vec<usize>,
    violations: Vec<usize>,
    groups: Vec<usize>,
    /// How many violations come before the first CMP-9 one (EDGE-5, CMP-10).
    before_cmp9: usize,
    /// The CMP-9 violations of each group, by index among the CMP-9 ones:
    /// those of group `g` are `members[member_starts[g]..member_starts[g +
    /// 1]]`, in order.
    members: Vec<u32>,
    member_starts: Vec<u32>,
}

impl Shipped {
    /// The snapshot `bytes` hold (copied), or why they do not hold one.
    pub fn decode(bytes: &[u8]) -> Result<Shipped, DecodeError> {
        let refused = |what, offset| DecodeError {
            what,
            within: None,
            offset,
        };
        if !bytes.starts_with(MAGIC) {
            return Err(refused("no snapshot magic", 0));
        }
        if bytes.get(MAGIC.len()) != Some(&VERSION) {
            return Err(refused("a format version this toolwire does not read", MAGIC.len()));
        }
        let mut r = Reader {
            bytes,
            at: MAGIC.len() + 1,
        };
        let head: Head = r.item("the head")?;
        let warnings = r.starts("a warning", |_: Warning| Ok(()))?;
        let mut rules_seen = 0u8;
        let mut group_of = Vec::new();
        let violations = r.starts("a violation", |violation: Finding| {
            let rank = match &violation {
                Finding::UnrecognisedEdgeType(_) => 0,
                Finding::UnacceptedTools(_) if !head.node_types_checked => {
                    return Err("a CMP-10 violation in a report that did not check CMP-10");
                }
                Finding::UnacceptedTools(_) => 1,
                Finding::ToolNameCollision(c) => {
                    if c.tools.len() < 2 {
                        return Err("a CMP-9 violation with fewer than two tools");
                    }
                    if (c.tools.iter()).any(|t| t.path.shipped_len() != Some(t.path_len)) {
                        return Err("a tool path that does not hold as many ids as it says");
                    }
                    group_of.push(c.group);
                    2
                }
            };
            if rank < rules_seen {
                return Err("violations out of rule order (EDGE-5, CMP-10, CMP-9)");
            }
            rules_seen = rank;
            Ok(())
        })?;
        let groups = r.starts("a group", |_: Option<&str>| Ok(()))?;
        if r.at != bytes.len() {
            return Err(refused("bytes after the end of the snapshot", r.at));
        }
        // Groups index their violations by u32, as the core numbers groups.
        if u32::try_from(group_of.len()).is_err() {
            return Err(refused("more CMP-9 violations than a snapshot holds", bytes.len()));
        }
        let (members, member_starts) =
            members_by_group(&group_of, groups.len()).map_err(|what| refused(what, bytes.len()))?;
        Ok(Shipped {
            bytes: bytes.to_vec(),
            stats: head.stats,
            node_types_checked: head.node_types_checked,
            before_cmp9: violations.len() - group_of.len(),
            warnings,
            violations,
            groups,
            members,
            member_starts,
        })
    }

    /// The item at `at`, which decode read whole: reading it again cannot
    /// fail.
    fn read<'s, T: Deserialize<'s>>(&'s self, at: usize) -> Option<T> {
        let read = postcard::take_from_bytes(self.bytes.get(at..)?);
        debug_assert!(
            read.is_ok(),
            "an item checked by decode read again: {:?}",
            read.as_ref().err()
        );
        read.ok().map(|(item, _)| item)
    }

    /// The consumer and name of CMP-9 violation `index` (among the CMP-9
    /// ones), read without the rest of the item.
    fn head(&self, index: u32) -> Option<CollisionHead<'_>> {
        match self.read(*self.violations.get(self.before_cmp9 + index as usize)?)? {
            FindingHead::ToolNameCollision(head) => Some(head),
            FindingHead::UnrecognisedEdgeType | FindingHead::UnacceptedTools => None,
        }
    }

    fn members_of(&self, group: GroupIx) -> Option<&[u32]> {
        let g = group as usize;
        let (start, stop) = (*self.member_starts.get(g)?, *self.member_starts.get(g + 1)?);
        self.members.get(start as usize..stop as usize)
    }
}

impl ReadFindings for Shipped {
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
        self.read(*self.warnings.get(index)?)
    }

    fn violation_count(&self) -> u64 {
        self.violations.len() as u64
    }

    fn violation(&self, index: u64) -> Option<Finding<'_>> {
        self.read(*self.violations.get(usize::try_from(index).ok()?)?)
    }

    fn group_count(&self) -> usize {
        self.groups.len()
    }

    fn group(&self, group: GroupIx) -> Option<FoundGroup<'_>> {
        let through = self.read(*self.groups.get(group as usize)?)?;
        let members = self.members_of(group)?;
        let first = *members.first()?;
        Some(FoundGroup {
            name: self.head(first)?.name,
            through,
            count: members.len() as u64,
            first: (self.before_cmp9 as u64) + u64::from(first),
        })
    }

    fn group_consumers(&self, group: GroupIx, from: usize, to: usize) -> Option<Vec<&str>> {
        let members = self.members_of(group)?;
        let to = to.min(members.len());
        (members[from.min(to)..to].iter())
            .map(|&m| self.head(m).map(|head| head.consumer))
            .collect()
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

/// Reads a snapshot's items in order, each refused with where it starts.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn item<T: Deserialize<'b>>(&mut self, within: &'static str) -> Result<T, DecodeError> {
        let rest = &self.bytes[self.at..];
        match postcard::take_from_bytes(rest) {
            Ok((item, after)) => {
                self.at += rest.len() - after.len();
                Ok(item)
            }
            Err(e) => Err(DecodeError {
                what: unreadable(&e, within),
                within: Some(within),
                offset: self.at,
            }),
        }
    }

    /// A count of items that take a byte each at least: one over the bytes
    /// left is refused before anything is allocated for it.
    fn count(&mut self) -> Result<usize, DecodeError> {
        let at = self.at;
        let count: u64 = self.item("a count")?;
        match usize::try_from(count) {
            Ok(count) if count <= self.bytes.len() - self.at => Ok(count),
            _ => Err(DecodeError {
                what: "a count larger than the bytes left",
                within: None,
                offset: at,
            }),
        }
    }

    /// Reads a list, each item checked by `check`, keeping where each item
    /// starts, not the items.
    fn starts<T: Deserialize<'b>>(
        &mut self,
        within: &'static str,
        mut check: impl FnMut(T) -> Result<(), &'static str>,
    ) -> Result<Vec<usize>, DecodeError> {
        let count = self.count()?;
        let mut starts = Vec::with_capacity(count);
        for _ in 0..count {
            let at = self.at;
            let item = self.item(within)?;
            check(item).map_err(|what| DecodeError {
                what,
                within: Some(within),
                offset: at,
            })?;
            starts.push(at);
        }
        Ok(starts)
    }
}

/// Why postcard could not read an item, in words.
fn unreadable(error: &postcard::Error, within: &'static str) -> &'static str {
    use postcard::Error as E;
    match error {
        E::DeserializeUnexpectedEnd => "an item cut short by the end of the bytes",
        E::DeserializeBadVarint => "an integer too large for its field",
        E::DeserializeBadBool => "a flag that is neither 0 nor 1",
        E::DeserializeBadUtf8 => "a string that is not UTF-8",
        E::DeserializeBadOption => "an option tag other than 0 or 1",
        // Serde's own refusals: a value the type does not have.
        E::DeserializeBadEnum | E::SerdeDeCustom => match within {
            "a warning" => "an unknown warning code",
            "a violation" => "an unknown kind of violation",
            _ => "a value out of range",
        },
        _ => "bytes that do not hold the item",
    }
}

#[cfg(test)]
mod tests;
