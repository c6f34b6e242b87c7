//! How a check may run: whether it may start threads of its own, and what
//! tells it to stop. The Python binding sets the stop flag when the user
//! presses Ctrl-C; the core looks at it between nodes, edges, consumers
//! and files, so a check of any size stops within milliseconds. What was
//! done is then dropped.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::InputError;

/// The two things every step of a check is told about how to run, as one
/// value: `allow_thread` (may the step put work on a second thread of its
/// own; off when the caller already keeps every core busy, as a many-file
/// check does) and `interrupt` (when to stop).
///
/// The rule for signatures: a function takes a `Budget` when it uses both
/// fields or hands the budget on (the entry points in `engine`, parsing,
/// reading a file, the check in `check`). A step that needs only one field,
/// and calls nothing that needs the other, takes that field alone: `bool`
/// for one that only chooses between one thread and two
/// (`GraphBuilder::finish`, `CandidateNames::find`), [`Interrupt`] for one
/// that only stops (`collisions::collisions`) or whose threads a `jobs`
/// count sets (`engine::check_files` and the site entry points).
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    pub allow_thread: bool,
    pub interrupt: Interrupt<'a>,
}

impl<'a> Budget<'a> {
    pub fn new(allow_thread: bool, interrupt: Interrupt<'a>) -> Self {
        Budget {
            allow_thread,
            interrupt,
        }
    }

    /// Threads allowed, never interrupted: a check run to its end (tests,
    /// benchmarks, fuzzers).
    pub fn full() -> Budget<'static> {
        Budget::new(true, Interrupt::never())
    }

    /// The same budget on the caller's thread only.
    pub fn one_thread(self) -> Self {
        Budget::new(false, self.interrupt)
    }
}

/// What tells a check to stop early: a flag another thread may set, or
/// nothing.
#[derive(Clone, Copy, Default)]
pub struct Interrupt<'a>(Option<&'a AtomicBool>);

impl<'a> Interrupt<'a> {
    /// An interrupt that never comes.
    pub fn never() -> Self {
        Interrupt(None)
    }

    pub fn on(flag: &'a AtomicBool) -> Self {
        Interrupt(Some(flag))
    }

    pub fn requested(&self) -> bool {
        self.0.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// The error that unwinds a parse when the caller asked to stop; the
    /// caller discards it.
    pub fn error() -> InputError {
        InputError::new("the check was interrupted", None)
    }
}
