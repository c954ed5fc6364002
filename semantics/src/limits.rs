//! Bounds on what input can make dioptra do. Each is a documented limit: an
//! input beyond it gets a diagnostic, never a panic, a stack overflow or a hang.
//!
//! DECISION (D-size-bounds): inputs beyond these bounds are `unsupported`
//! (a limit of dioptra, not a rule of the spec) where they are well-formed
//! LLVM, and `malformed` where LLVM itself would reject them.

/// Widest integer type, as in LLVM (`IntegerType::MAX_INT_BITS`).
pub const MAX_INT_WIDTH: u64 = (1 << 23) - 1;
/// Largest bit size of any type dioptra evaluates (2 MiB of bits).
pub const MAX_TYPE_BITS: u64 = 1 << 24;
/// Most elements of a vector type `<N x T>`.
pub const MAX_VECTOR_COUNT: u64 = 1 << 16;
/// Most fields of a literal struct type.
pub const MAX_STRUCT_FIELDS: usize = 1 << 12;
/// Most identified struct types (`%struct.foo = type ...`) one layout holds.
pub const MAX_NAMED_TYPES: usize = 1 << 16;
/// Most identified struct names the process shares one copy of
/// ([`crate::types::type_name`]), and the longest name shared; others get
/// a copy of their own (found by comparing names, not by address).
pub const MAX_SHARED_TYPE_NAMES: usize = 1 << 12;
pub const MAX_SHARED_TYPE_NAME_BYTES: usize = 128;
/// Deepest nesting of a type (`<2 x <2 x ...>>`, `{ { ... } }`, `i8***`).
pub const MAX_TYPE_DEPTH: usize = 64;
/// Largest address space number (LLVM limits it to 24 bits).
pub const MAX_ADDRSPACE: u64 = (1 << 24) - 1;
/// Most operations in one expression.
pub const MAX_OPS: usize = 1 << 20;
/// Deepest nesting of composite location descriptions, statically (in an
/// expression) and in context files.
pub const MAX_LOCATION_DEPTH: u32 = 256;
/// Most single locations visited when checking a composite for overlapping
/// parts (expanding nested composites and multi-location parts).
pub const MAX_OVERLAP_LEAVES: usize = 1 << 20;
/// Most DWARF operations one lowering makes by repeating a fragment's
/// (plain DWARF 5 has a piece per element for `DIOpExtend` and a constant
/// `DIOpSelect`, each with its own copy of the element's location).
pub const MAX_REPEATED_DWARF_OPS: usize = 1 << 22;
/// The most stack entries an interpreter, the checker or the lowering
/// makes room for up front (an expression's stack is at most as deep as it
/// has ops; deeper stacks grow).
pub const STACK_ROOM: usize = 32;
/// Largest text input accepted (expressions, contexts, scripts).
pub const MAX_INPUT_BYTES: usize = 64 << 20;
/// Most bytes of memory or register contents one context may declare.
pub const MAX_CONTEXT_BYTES: u64 = 1 << 28;
/// Work one evaluation may do, in bit-units: every value read or made costs
/// its width, and `DIOpMul`, `DIOpDiv`, `DIOpMod` cost `width * width / 64`.
/// Ordinary expressions (a million ops at 128 bits) stay far below it; a chain
/// of multiplications of 2^23-bit integers does not.
pub const MAX_EVAL_WORK: u64 = 1 << 31;
/// Longest decimal integer literal, in digits (decimal conversion is
/// quadratic); hexadecimal `u0x` literals may be as wide as any type.
pub const MAX_DECIMAL_DIGITS: usize = 40_000;
