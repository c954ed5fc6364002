//! # dioptra-oracle
//!
//! The tools built on the semantics: the conformance-script runner, the line
//! protocol for external implementations, and the `dioptra` CLI.

pub mod canon;
pub mod equiv;
pub mod fuzzing;
pub mod gdb;
pub use dioptra_properties::gimli_diff;
pub mod lowering;
pub mod protocol;
pub mod render;
pub mod rules;
pub mod script;
