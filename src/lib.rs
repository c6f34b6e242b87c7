//! toolwire: enforces rule CMP-9 of the FlowDrop Workflow Specification
//! ("tool names are unique per consumer, checked at compile time") and the
//! edge rules it depends on (EDGE-1, EDGE-2, EDGE-5).
//!
//! The crate is a pure Rust core; the only module that names a PyO3 type is
//! `python`, compiled with the `python` feature. The pipeline is
//!
//! ```text
//! bytes --parse--> GraphBuilder --> ToolGraph --check/flatten--> Report
//! ```
//!
//! and the Python front end feeds the same [`GraphBuilder`] from already
//! parsed objects, so both paths share every rule after reading.
//!
//! The way in is [`engine`]: `check_text`, `check_text_as`, `check_file`,
//! `check_files`, `check_graph`, `check_site`, `read_site` and the
//! `explain_*` functions, each answering with a report or one [`Error`].
//! Each is told how it may run by a [`Budget`] (a second thread or not, and
//! the [`Interrupt`] that stops it), or by a `jobs` count and an
//! `Interrupt` when it checks many files. The other public modules hold
//! what those answers are made of and what a front end builds from.

mod budget;
pub mod catalogue;
mod catalogue_yaml;
mod check;
pub mod classify;
pub mod collisions;
pub mod config;
pub mod engine;
pub mod error;
pub mod explain;
pub mod files;
pub mod findings;
mod fixes;
mod flatten;
pub mod graph;
pub mod head;
mod ids;
pub mod input;
pub mod locate;
mod maps;
pub mod names;
pub mod parse;
mod quote;
pub mod report;
pub mod site;
pub mod snapshot;
pub mod threads;
pub mod work;

#[cfg(feature = "python")]
mod python;

pub use budget::{Budget, Interrupt};
pub use collisions::{CollidingTool, Collision, Collisions, GroupRef};
pub use config::Config;
pub use error::{Error, InputError};
pub use findings::{Finding, ReadFindings};
pub use graph::{GraphBuilder, ToolGraph};
pub use locate::Location;
pub use names::normalize_name;
pub use parse::Format;
pub use report::{EdgeTypeViolation, Rename, Report, Stats, Violation, Warning, Warnings};
