//! Differential harnesses: real implementations driven against the
//! reference semantics, every difference classified.
//!
//! * [`gimli`]: gimli's DWARF expression evaluator on plain DWARF 5;
//! * [`gdb`]: gdb (and lldb as a third opinion) reading variables of a real
//!   program whose DWARF is dioptra's lowering.
//!
//! The laws that run these harnesses on generated input are in
//! `dioptra-properties`; the harnesses themselves only need a case.

pub mod gdb;
pub mod gimli;
