//! # dioptra-oracle
//!
//! The tools built on the meaning (`dioptra_semantics`), as a library. What
//! lives here uses the semantics and never defines meaning of its own; the
//! laws that check these tools live one layer up, in `dioptra-properties`,
//! and the `dioptra` binary one layer above that (`oracle/cli`).
//!
//! * [`canon`]: the canonicalizer (its rules proven by `dioptra rule`);
//! * [`equiv`]: the equivalence prover, for DIOp and classic expressions;
//! * [`lower`]: DIOp to DWARF for AMD's extensions or plain DWARF 5,
//!   location lists, and whether some DWARF describes the same location;
//! * [`rules`]: the rewrite-rule checker;
//! * [`script`]: the conformance-script parser and runner, the line
//!   protocol, and the public API an implementation under test implements
//!   ([`script::api`]);
//! * [`diff`]: differential harnesses that drive real implementations
//!   (gimli, gdb, lldb) against the reference;
//! * [`render`]: values as the CLI prints them;
//! * [`input`]: input files read with a bound;
//! * [`ir`]: LLVM IR modules as compilers write them, their debug records
//!   checked, and written as lifetime listings;
//! * [`objfile`]: DWARF as object files hold it (variables, location lists,
//!   call frame information) and a variable at a pc;
//! * [`llvm`]: LLVM's own passes under test: functions with debug records
//!   through `opt`, every output record checked against the input's;
//! * [`sample`]: splitmix64, the reproducible pseudo-random values the
//!   samplers draw;
//! * [`fuzzing`]: the bodies of the cargo-fuzz targets under `fuzz/`.
//!
//! Not here: generators (`dioptra-generators`), laws and campaigns
//! (`dioptra-properties`), command-line parsing (`oracle/cli`).

pub mod canon;
pub mod diff;
pub mod equiv;
pub mod fuzzing;
pub mod input;
pub mod ir;
pub mod llvm;
pub mod lower;
pub mod objfile;
pub mod render;
pub mod rules;
pub mod sample;
pub mod script;
