//! Conformance scripts: the corpus format (grammar in corpus/README.md), its
//! parser and its runner.
//!
//! A script is a sequence of s-expressions. Contexts and signatures are
//! declared once and named; assertions name them with `(in NAME)`. The
//! expression under test is always a string in its native LLVM spelling, so an
//! implementation receives exactly that text and malformed text can be a case.

pub mod api;
mod parse;
pub mod protocol;
mod run;

pub use parse::{parse_script, Case, Env, Expect, Script};
pub use run::{
    check_case, expressions_in_contexts, prefix_matches, request, rule_files, run_files,
    script_files, External, InContext, Outcome as CaseOutcome, Reference, Responder, Summary,
};
