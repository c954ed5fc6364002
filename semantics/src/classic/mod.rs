//! The classic `DW_OP`-based `DIExpression` that upstream LLVM uses today in
//! `dbg.value`, `dbg.declare` and `dbg.addr` (and the `#dbg_value` /
//! `#dbg_declare` records): its syntax, static rules, evaluation, SMT
//! encoding, and its translation to DIOp expressions.
//!
//! A classic expression is a DWARF stack program over the *values* of the
//! intrinsic's operands; what it describes depends on how it ends (see
//! [`wellformed::Kind`]). Its values are DWARF's: the generic type (as wide
//! as an address, `W` bits: the pointer size of address space 0) or a base
//! type made by `DW_OP_LLVM_convert`. An operand narrower than `W` is pushed
//! with its upper bits per [`High`], a parameter because many of LLVM's
//! rewrites are right under some choices only.
//!
//! Modules, one column per op in each (the order of [`COp`]):
//!
//! * [`text`]: parser and printer (`!DIExpression(DW_OP_plus_uconst, 4)`);
//! * [`wellformed`]: static typing, `check_<op>`;
//! * [`eval`]: evaluation in a concrete context, `eval_<op>`;
//! * [`encode`]: the SMT encoding, `encode_<op>`;
//! * [`translate`]: the DIOp expression describing the same location,
//!   `translate_<op>`;
//! * [`reverse`]: the classic expression of a DIOp expression, where one
//!   exists, `reverse_<op>`;
//! * [`ir`]: the LLVM IR instructions salvaging folds into expressions,
//!   evaluated and encoded (for the rule checker);
//! * [`any`]: either spelling, told apart by its text.
//!
//! The prover that compares a classic expression with a DIOp one (and so
//! proves every translation) is a tool: `dioptra_oracle::equiv::classic`.

pub mod any;
#[cfg(feature = "smt")]
pub mod encode;
pub mod eval;
pub mod ir;
pub mod reverse;
pub mod text;
pub mod translate;
pub mod wellformed;

pub use text::{is_classic, parse_classic};

use std::fmt;

/// A `DW_ATE_*` encoding of `DW_OP_LLVM_convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Signed,
    Unsigned,
}

/// One operation of a classic expression, in the order of LLVM's
/// `DIExpression` vocabulary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum COp {
    /// `DW_OP_LLVM_arg, N`: push the value of operand `N`.
    Arg(u32),
    /// `DW_OP_lit0` .. `DW_OP_lit31`.
    Lit(u8),
    /// `DW_OP_constu, C`.
    Constu(u64),
    /// `DW_OP_consts, C`.
    Consts(i64),
    Dup,
    Drop,
    Swap,
    Over,
    Deref,
    /// `DW_OP_deref_size, N` (bytes).
    DerefSize(u8),
    Plus,
    /// `DW_OP_plus_uconst, C`.
    PlusUconst(u64),
    Minus,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Not,
    Neg,
    Shl,
    Shr,
    Shra,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `DW_OP_LLVM_convert, BITS, DW_ATE_signed|DW_ATE_unsigned`.
    Convert(u64, Encoding),
    /// `DW_OP_LLVM_extract_bits_zext|sext, OFFSET, LEN`.
    ExtractBits {
        offset: u64,
        len: u64,
        signed: bool,
    },
    /// `DW_OP_LLVM_tag_offset, N`: the memory tag (HWASan) derived from
    /// offset `N` that may be applied to the variable's pointer.
    ///
    /// DECISION (D-tag-offset): a tag offset is not part of the location.
    /// LangRef says the tag "should be optionally applied to the pointer"
    /// in an implementation-defined manner; LLVM's DWARF writer emits no
    /// bytes for it (it becomes `DW_AT_LLVM_tag_offset`), and a tagged
    /// pointer (AArch64 top-byte tags, ignored by the hardware) addresses the
    /// same memory. Every column treats it as no operation, and its
    /// translation to DIOps, which have no tags, leaves it out.
    TagOffset(u64),
    /// `DW_OP_LLVM_entry_value, N`: the operand's value on entry to the
    /// function, in place of its value now (D-classic-entry-value).
    EntryValue(u64),
    /// `DW_OP_LLVM_implicit_pointer`: the variable is a pointer, optimized
    /// out, to the operand (D-classic-implicit-pointer).
    ImplicitPointer,
    /// `DW_OP_stack_value`: the result is the value on top of the stack.
    StackValue,
    /// `DW_OP_LLVM_memory` (proposed in the `DW_OP_LLVM_memory` RFC): the
    /// result is the memory at the address on top of the stack.
    Memory,
    /// `DW_OP_LLVM_fragment, OFFSET, SIZE` (bits of the variable).
    Fragment(u64, u64),
    /// An operation LLVM accepts that dioptra parses but does not model
    /// (`DW_OP_regx`, `DW_OP_LLVM_user`, ...): its name and operands.
    Other(&'static str, Vec<u64>),
}

/// A classic expression: `!DIExpression(...)`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ClassicExpr {
    pub ops: Vec<COp>,
}

/// The debug intrinsic (or record) the expression belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Intrinsic {
    /// `dbg.value` / `#dbg_value`: the operands are values.
    #[default]
    Value,
    /// `dbg.declare` / `#dbg_declare`, and `dbg.addr`: the operand is the
    /// variable's address.
    Declare,
    /// A `DIGlobalVariableExpression`'s expression: the operand, if any, is
    /// the global's address (D-classic-global).
    Global,
}

/// What the bits of an operand above its own width hold when it is pushed
/// as a `W`-bit generic value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum High {
    /// Zeros (the value is zero-extended).
    #[default]
    Zero,
    /// Copies of the sign bit (the value is sign-extended).
    Sign,
    /// Anything: only the SMT rule checker models it (every choice).
    Any,
}

/// The parameters of a classic expression's meaning.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Params {
    pub intrinsic: Intrinsic,
    pub high: High,
    /// The variable's type (or its fragment's), when it matters: the
    /// number of bits compared, and the result type of a translation.
    pub variable: Option<crate::types::Type>,
}

impl Intrinsic {
    pub fn parse(s: &str) -> Option<Intrinsic> {
        match s {
            "value" | "dbg.value" | "dbg_value" => Some(Intrinsic::Value),
            "declare" | "dbg.declare" | "dbg_declare" | "addr" | "dbg.addr" => {
                Some(Intrinsic::Declare)
            }
            "global" | "DIGlobalVariableExpression" => Some(Intrinsic::Global),
            _ => None,
        }
    }
}

impl High {
    pub fn parse(s: &str) -> Option<High> {
        match s {
            "zero" => Some(High::Zero),
            "sign" => Some(High::Sign),
            "any" => Some(High::Any),
            _ => None,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            High::Zero => "zero",
            High::Sign => "sign",
            High::Any => "any",
        }
    }
}

/// How a value's bits are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    /// DWARF's generic type: address-sized, of unspecified signedness.
    Generic,
    Signed,
    Unsigned,
}

/// The type of a stack value: the generic type or a base type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CTy {
    pub bits: u64,
    pub num: Num,
}

impl CTy {
    pub fn generic(w: u64) -> CTy {
        CTy {
            bits: w,
            num: Num::Generic,
        }
    }
    /// Comparisons and `DW_OP_div` read generic values as signed, base
    /// types by their encoding (DWARF 5, Section 2.5.1.4).
    pub fn signed_ops(self) -> bool {
        self.num != Num::Unsigned
    }
}

impl fmt::Display for CTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.num {
            Num::Generic => write!(f, "generic"),
            Num::Signed => write!(f, "signed {}", self.bits),
            Num::Unsigned => write!(f, "unsigned {}", self.bits),
        }
    }
}

impl COp {
    /// The operation's name as LLVM prints it.
    pub fn name(&self) -> &'static str {
        match self {
            COp::Arg(_) => "DW_OP_LLVM_arg",
            COp::Lit(_) => "DW_OP_lit",
            COp::Constu(_) => "DW_OP_constu",
            COp::Consts(_) => "DW_OP_consts",
            COp::Dup => "DW_OP_dup",
            COp::Drop => "DW_OP_drop",
            COp::Swap => "DW_OP_swap",
            COp::Over => "DW_OP_over",
            COp::Deref => "DW_OP_deref",
            COp::DerefSize(_) => "DW_OP_deref_size",
            COp::Plus => "DW_OP_plus",
            COp::PlusUconst(_) => "DW_OP_plus_uconst",
            COp::Minus => "DW_OP_minus",
            COp::Mul => "DW_OP_mul",
            COp::Div => "DW_OP_div",
            COp::Mod => "DW_OP_mod",
            COp::And => "DW_OP_and",
            COp::Or => "DW_OP_or",
            COp::Xor => "DW_OP_xor",
            COp::Not => "DW_OP_not",
            COp::Neg => "DW_OP_neg",
            COp::Shl => "DW_OP_shl",
            COp::Shr => "DW_OP_shr",
            COp::Shra => "DW_OP_shra",
            COp::Eq => "DW_OP_eq",
            COp::Ne => "DW_OP_ne",
            COp::Lt => "DW_OP_lt",
            COp::Le => "DW_OP_le",
            COp::Gt => "DW_OP_gt",
            COp::Ge => "DW_OP_ge",
            COp::Convert(..) => "DW_OP_LLVM_convert",
            COp::ExtractBits { signed: false, .. } => "DW_OP_LLVM_extract_bits_zext",
            COp::ExtractBits { signed: true, .. } => "DW_OP_LLVM_extract_bits_sext",
            COp::TagOffset(_) => "DW_OP_LLVM_tag_offset",
            COp::EntryValue(_) => "DW_OP_LLVM_entry_value",
            COp::ImplicitPointer => "DW_OP_LLVM_implicit_pointer",
            COp::StackValue => "DW_OP_stack_value",
            COp::Memory => "DW_OP_LLVM_memory",
            COp::Fragment(..) => "DW_OP_LLVM_fragment",
            COp::Other(name, _) => name,
        }
    }
}

/// The stack shuffles, the same in every column (`check_`, `eval_`,
/// `encode_`, `translate_`): `None` when the stack is too short.
pub(crate) mod shuffle {
    /// `DW_OP_dup`: copies the top entry.
    pub fn dup<V: Clone>(s: &mut Vec<V>) -> Option<()> {
        let a = s.last()?.clone();
        s.push(a);
        Some(())
    }
    /// `DW_OP_swap`: exchanges the top two entries.
    pub fn swap<V>(s: &mut [V]) -> Option<()> {
        let n = s.len();
        (n >= 2).then(|| s.swap(n - 1, n - 2))
    }
    /// `DW_OP_over`: copies the second entry to the top.
    pub fn over<V: Clone>(s: &mut Vec<V>) -> Option<()> {
        let b = s.get(s.len().checked_sub(2)?)?.clone();
        s.push(b);
        Some(())
    }
}

impl ClassicExpr {
    pub fn new(ops: Vec<COp>) -> ClassicExpr {
        ClassicExpr { ops }
    }
    /// Does the expression name its operands with `DW_OP_LLVM_arg` (the
    /// `DIArgList` form)?
    pub fn is_variadic(&self) -> bool {
        self.ops.iter().any(|o| matches!(o, COp::Arg(_)))
    }
    /// `DW_OP_LLVM_fragment`'s offset and size, if present.
    pub fn fragment(&self) -> Option<(u64, u64)> {
        self.ops.iter().find_map(|o| match o {
            COp::Fragment(a, b) => Some((*a, *b)),
            _ => None,
        })
    }
}
