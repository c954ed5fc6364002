//! DWARF expressions: operations as bytes and as llvm-dwarfdump-style text,
//! and an evaluator with the extensions' location-description model. The
//! lowering of DIOp expressions to DWARF is a tool on this meaning and lives
//! in `dioptra_oracle::lower`.
//!
//! * [`op`]: the decoder and encoder of DWARF 5 operations and AMD's
//!   extension operations, in the current `DW_OP_LLVM_user` (0xe9 + ULEB
//!   sub-opcode) encoding and the older single-byte 0xe1..0xec encoding;
//! * [`text`]: the printer and parser of the llvm-dwarfdump text form;
//! * [`unit`]: the base types and DIEs an expression refers to, and the
//!   listing that prints them after it;
//! * [`eval`]: the evaluator;
//! * `smt`: the SMT twin of the evaluator, over `crate::smt`'s world (with
//!   the `smt` feature);
//! * [`check`]: static checks (stack discipline, typed-stack rules, what
//!   may follow a location that stands alone);
//!
//! Standard opcodes and their names are gimli's (`gimli::constants`); this
//! module adds only what gimli lacks: the operand layout of every opcode as
//! data (gimli's `Operation` decodes to meanings, and rejects vendor
//! opcodes), the AMD extensions, the text form, and an evaluator whose stack
//! holds location descriptions (gimli's holds values and returns pieces).

pub mod check;
pub mod eval;
pub mod op;
#[cfg(feature = "smt")]
pub mod smt;
pub mod text;
pub mod unit;

pub use op::{decode, encode, AmdOp, DwarfOp, Encoding, Operand};
