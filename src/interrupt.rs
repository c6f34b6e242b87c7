//! Stopping a long check early. The Python binding sets the flag when the
//! user presses Ctrl-C; the core looks at it between nodes, edges, consumers
//! and files, so a check of any size stops within milliseconds. What was
//! done is then dropped.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::InputError;

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
