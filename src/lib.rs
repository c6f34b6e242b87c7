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

pub mod catalogue;
mod catalogue_yaml;
pub mod check;
pub mod classify;
pub mod collisions;
pub mod config;
pub mod engine;
pub mod error;
pub mod explain;
pub mod files;
mod fixes;
mod flatten;
pub mod graph;
pub mod head;
mod ids;
pub mod input;
mod interrupt;
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

pub use check::{check_bytes, check_bytes_with, check_graph, check_graph_with};
pub use collisions::{CollidingTool, Collision, Collisions, GroupRef};
pub use config::Config;
pub use error::{Error, InputError};
pub use graph::{GraphBuilder, ToolGraph};
pub use interrupt::Interrupt;
pub use locate::Location;
pub use names::normalize_name;
pub use parse::Format;
pub use report::{EdgeTypeViolation, Rename, Report, Stats, Violation, Warning, Warnings};
