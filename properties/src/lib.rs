//! # dioptra-properties
//!
//! The laws of dioptra: what the semantics and the tools built on it
//! (`dioptra-oracle`) must satisfy on generated input (`dioptra-generators`).
//!
//! * [`laws`]: one `law_*` function per law, given one case;
//! * [`table`]: every law once -- name, one-line statement, strategy, law,
//!   how a failure is written as corpus text, and its test budget. The
//!   property tests (`tests/laws.rs`) and `dioptra fuzz` both run it;
//! * [`agreement`]: the SMT encoding against the interpreter on one case;
//! * [`gdb`]: generated cases for the gdb harness (`dioptra_oracle::diff`);
//! * [`llvm`]: generated functions for LLVM's passes (`dioptra_oracle::llvm`).
//!
//! Corpus-level laws (every corpus expression through the encoding, the
//! lowering, gimli) are tests under `tests/corpus_*.rs`.
//!
//! Not here: the tools themselves (oracle), the strategies (generators),
//! the command line (`oracle/cli`).

pub mod agreement;
pub mod gdb;
pub mod laws;
pub mod llvm;
pub mod table;

pub use laws::Checked;
pub use table::{law, AnyLaw, Campaign, LAWS};
