//! YAML text to [`ToolGraph`](crate::graph::ToolGraph): workflows stored as
//! Drupal configuration (SEMANTICS.md section 10), read through the strict
//! event layer in [`events`].

pub mod events;
