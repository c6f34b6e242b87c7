//! Deterministic work counters: how many basic steps a check and the
//! reading of its findings took. Times depend on the machine; these counts
//! depend only on the input, so a test can build a shape at two sizes and
//! assert that the work grows no faster than the input (the doubling tests
//! of docs/RELIABILITY.md, "Worst cases").
//!
//! Each phase counts in a local variable and adds its total once, so the
//! counters cost nothing measurable in the hot loops.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A kind of basic step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// An entry of an adjacency list read (a tool edge looked at).
    Edge,
    /// A node of a token set visited or made (see `collisions::sets`).
    SetNode,
    /// A hash table probe, or an item sorted.
    Probe,
    /// A node of a path found or read.
    PathStep,
    /// A tool named, or a token placed.
    Item,
}

impl Step {
    pub const ALL: [Step; 5] = [Step::Edge, Step::SetNode, Step::Probe, Step::PathStep, Step::Item];

    pub fn name(self) -> &'static str {
        match self {
            Step::Edge => "edges",
            Step::SetNode => "set_nodes",
            Step::Probe => "probes",
            Step::PathStep => "path_steps",
            Step::Item => "items",
        }
    }
}

/// The counters of one report: the check's steps, then those of every
/// read of its findings.
#[derive(Debug, Default)]
pub struct Work {
    counts: [AtomicU64; 5],
}

impl Work {
    pub fn add(&self, step: Step, n: u64) {
        self.counts[step as usize].fetch_add(n, Relaxed);
    }

    pub fn get(&self, step: Step) -> u64 {
        self.counts[step as usize].load(Relaxed)
    }

    pub fn total(&self) -> u64 {
        Step::ALL.iter().map(|&s| self.get(s)).sum()
    }

    /// Every counter by name, then `total`.
    pub fn named(&self) -> Vec<(&'static str, u64)> {
        let mut named: Vec<(&'static str, u64)> = Step::ALL.iter().map(|&s| (s.name(), self.get(s))).collect();
        named.push(("total", self.total()));
        named
    }
}

/// Test helper: the work at twice the size, `twice`, is at most 2.2 times
/// the work at the size, `once` (the doubling bound of the unit tests that
/// count the work of a shape; `what` names the case in the message).
#[cfg(test)]
pub(crate) fn assert_at_most_doubles(once: u64, twice: u64, what: &str) {
    assert!(
        twice <= 2 * once + once / 5,
        "{what}{once} then {twice} steps: {:.2}x",
        twice as f64 / once as f64
    );
}
