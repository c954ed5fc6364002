//! DWARF expressions: operations as bytes and as llvm-dwarfdump-style text.
//!
//! * [`op`]: the decoder and encoder of DWARF 5 operations and AMD's
//!   extension operations, in the current `DW_OP_LLVM_user` (0xe9 + ULEB
//!   sub-opcode) encoding and the older single-byte 0xe1..0xec encoding;
//! * [`text`]: the printer and parser of the llvm-dwarfdump text form.
//!
//! Standard opcodes and their names are gimli's (`gimli::constants`); this
//! module adds only what gimli lacks: the operand layout of every opcode as
//! data (gimli's `Operation` decodes to meanings, and rejects vendor
//! opcodes), the AMD extensions, and the text form.
//!
//! This is the first part of the DWARF lowering work: the evaluator and the
//! lowering build on it.

pub mod op;
pub mod text;

pub use op::{decode, encode, AmdOp, DwarfOp, Encoding, Operand};
