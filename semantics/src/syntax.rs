//! The abstract syntax of DIOp expressions: one `Op` enum with every
//! operation, in the spec's order, followed by the ROCm dialect's additions.

use crate::types::Type;
use num_bigint::BigInt;
use std::fmt;

/// A literal value expression (`V:literal` of `DIOpConstant`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    /// An integer, as written (`-1` and `255` are both valid `i8` literals).
    Int(BigInt),
    /// `true` / `false` (`i1`).
    Bool(bool),
    /// A floating-point literal, kept as the bits of its type's format.
    Float(u128),
    /// `null` (pointers).
    Null,
    /// `undef`.
    Undef,
    /// `poison`.
    Poison,
    /// `zeroinitializer`.
    ZeroInit,
    /// `<T v, T v, ...>`.
    Vector(Vec<(Type, Literal)>),
    /// `[T v, T v, ...]`.
    Array(Vec<(Type, Literal)>),
    /// `{ T v, ... }` or, packed, `<{ T v, ... }>` (LLVM requires the
    /// literal's packedness to be its type's).
    Struct {
        packed: bool,
        fields: Vec<(Type, Literal)>,
    },
}

/// One operation. The order is the spec's: the well-formedness, evaluation,
/// SMT and lowering functions of each op appear in this order too.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `DIOpReferrer(T:type)  { -> (L:T) }`
    Referrer(Type),
    /// `DIOpArg(N:unsigned, T:type)  { -> (L:T) }`
    Arg(u32, Type),
    /// `DIOpTypeObject(T:type)  { -> (L:T) }`
    TypeObject(Type),
    /// `DIOpConstant(T:type V:literal)  { -> (L:T) }`
    Constant(Type, Literal),
    /// `DIOpConvert(T':type)  { (L:T) -> (L':T') }`
    Convert(Type),
    /// `DIOpZExt(T':type)  { (L:T) -> (L':T') }`
    ZExt(Type),
    /// `DIOpSExt(T':type)  { (L:T) -> (L':T') }`
    SExt(Type),
    /// `DIOpReinterpret(T':type)  { (L:T) -> (L:T') }`
    Reinterpret(Type),
    /// `DIOpBitOffset(T':type)  { (B:I) (L:T) -> (L':T') }`
    BitOffset(Type),
    /// `DIOpByteOffset(T':type)  { (B:I) (L:T) -> (L':T') }`
    ByteOffset(Type),
    /// `DIOpComposite(N:unsigned, T:type)  { (L1:T1) ... (LN:TN) -> (L:T) }`
    Composite(u32, Type),
    /// `DIOpExtend(N:unsigned)  { (L:T) -> (L':<N x T>) }`
    Extend(u32),
    /// `DIOpSelect()  { (LM:TM) (L1:<N x T>) (L0:<N x T>) -> (L:<N x T>) }`
    Select,
    /// `DIOpAddrOf(N:addrspace)  { (L:T) -> (L':ptr addrspace(N)) }`
    AddrOf(u32),
    /// `DIOpDeref(T:type)  { (L:ptr addrspace(N)) -> (L':T) }`
    Deref(Type),
    /// `DIOpRead()  { (L:T) -> (L':T) }`
    Read,
    /// `DIOpAdd()  { (L1:T) (L2:T) -> (L:T) }`
    Add,
    /// `DIOpSub()  { (L1:T) (L2:T) -> (L:T) }`
    Sub,
    /// `DIOpMul()  { (L1:T) (L2:T) -> (L:T) }`
    Mul,
    /// `DIOpDiv()  { (L1:T) (L2:T) -> (L:T) }`
    Div,
    /// `DIOpLShr()  { (L1:T) (L2:T) -> (L:T) }`
    LShr,
    /// `DIOpAShr()  { (L1:T) (L2:T) -> (L:T) }`
    AShr,
    /// `DIOpShl()  { (L1:T) (L2:T) -> (L:T) }`
    Shl,
    /// `DIOpPushLane(T:type)  { -> (L:T) }`
    PushLane(Type),
    /// `DIOpFragment(O:unsigned, S:unsigned)  { -> }`
    Fragment(u64, u64),
    /// ROCm: `DIOpAnd()  { (L1:T) (L2:T) -> (L:T) }`
    And,
    /// ROCm: `DIOpOr()  { (L1:T) (L2:T) -> (L:T) }`
    Or,
    /// ROCm: `DIOpXor()  { (L1:T) (L2:T) -> (L:T) }`
    Xor,
    /// ROCm: `DIOpMod()  { (L1:T) (L2:T) -> (L:T) }`
    Mod,
}

impl Op {
    /// The op's name as spelled in LLVM IR (`DIOpAdd`).
    /// The type the op names, if it names one.
    pub fn ty(&self) -> Option<&Type> {
        match self {
            Op::Referrer(t)
            | Op::Arg(_, t)
            | Op::TypeObject(t)
            | Op::Constant(t, _)
            | Op::Convert(t)
            | Op::ZExt(t)
            | Op::SExt(t)
            | Op::Reinterpret(t)
            | Op::BitOffset(t)
            | Op::ByteOffset(t)
            | Op::Composite(_, t)
            | Op::Deref(t)
            | Op::PushLane(t) => Some(t),
            _ => None,
        }
    }

    /// Is this one of the binary operations (`{ (L1:T) (L2:T) -> (L:T) }`,
    /// shifts included), which take two values of one type?
    pub fn is_binary(&self) -> bool {
        matches!(
            self,
            Op::Add
                | Op::Sub
                | Op::Mul
                | Op::Div
                | Op::LShr
                | Op::AShr
                | Op::Shl
                | Op::And
                | Op::Or
                | Op::Xor
                | Op::Mod
        )
    }

    pub fn name(&self) -> &'static str {
        Self::NAMES[self.index()]
    }

    /// The op's place in [`Op::NAMES`] (the spec's order): a small number
    /// to index per-op tables with.
    pub fn index(&self) -> usize {
        match self {
            Op::Referrer(_) => 0,
            Op::Arg(..) => 1,
            Op::TypeObject(_) => 2,
            Op::Constant(..) => 3,
            Op::Convert(_) => 4,
            Op::ZExt(_) => 5,
            Op::SExt(_) => 6,
            Op::Reinterpret(_) => 7,
            Op::BitOffset(_) => 8,
            Op::ByteOffset(_) => 9,
            Op::Composite(..) => 10,
            Op::Extend(_) => 11,
            Op::Select => 12,
            Op::AddrOf(_) => 13,
            Op::Deref(_) => 14,
            Op::Read => 15,
            Op::Add => 16,
            Op::Sub => 17,
            Op::Mul => 18,
            Op::Div => 19,
            Op::LShr => 20,
            Op::AShr => 21,
            Op::Shl => 22,
            Op::PushLane(_) => 23,
            Op::Fragment(..) => 24,
            Op::And => 25,
            Op::Or => 26,
            Op::Xor => 27,
            Op::Mod => 28,
        }
    }

    /// Every op name, in the spec's order.
    pub const NAMES: [&'static str; 29] = [
        "DIOpReferrer",
        "DIOpArg",
        "DIOpTypeObject",
        "DIOpConstant",
        "DIOpConvert",
        "DIOpZExt",
        "DIOpSExt",
        "DIOpReinterpret",
        "DIOpBitOffset",
        "DIOpByteOffset",
        "DIOpComposite",
        "DIOpExtend",
        "DIOpSelect",
        "DIOpAddrOf",
        "DIOpDeref",
        "DIOpRead",
        "DIOpAdd",
        "DIOpSub",
        "DIOpMul",
        "DIOpDiv",
        "DIOpLShr",
        "DIOpAShr",
        "DIOpShl",
        "DIOpPushLane",
        "DIOpFragment",
        "DIOpAnd",
        "DIOpOr",
        "DIOpXor",
        "DIOpMod",
    ];
}

/// How an expression was written; the printer writes it back the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spelling {
    /// Generation 1, the spec's: `!DIExpr(...)`.
    DIExpr,
    /// Generation 2, ROCm's: `!DIExpression(DIOp...)`.
    DIExpression,
    /// A bare op list, as accepted on the command line.
    Bare,
}

/// An expression: a sequence of operations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    pub spelling: Spelling,
    pub ops: Vec<Op>,
}

impl Expr {
    pub fn new(ops: Vec<Op>) -> Expr {
        Expr {
            spelling: Spelling::DIExpr,
            ops,
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Int(v) => write!(f, "{v}"),
            Literal::Bool(b) => write!(f, "{b}"),
            // Floats print through `Typed` (their spelling depends on the type).
            Literal::Float(bits) => write!(f, "0x{bits:016X}"),
            Literal::Null => f.write_str("null"),
            Literal::Undef => f.write_str("undef"),
            Literal::Poison => f.write_str("poison"),
            Literal::ZeroInit => f.write_str("zeroinitializer"),
            Literal::Vector(elems) => {
                f.write_str("<")?;
                write_elems(f, elems)?;
                f.write_str(">")
            }
            Literal::Array(elems) => {
                f.write_str("[")?;
                write_elems(f, elems)?;
                f.write_str("]")
            }
            Literal::Struct { packed, fields } => {
                f.write_str(if *packed { "<{ " } else { "{ " })?;
                write_elems(f, fields)?;
                f.write_str(if *packed { " }>" } else { " }" })
            }
        }
    }
}

fn write_elems(f: &mut fmt::Formatter<'_>, elems: &[(Type, Literal)]) -> fmt::Result {
    for (i, (t, v)) in elems.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", Typed(t, v))?;
    }
    Ok(())
}

/// A literal with its type, printed the way LLVM writes it (`float 1.5`,
/// `half 0xH3C00`, `i32 -1`).
pub struct Typed<'a>(pub &'a Type, pub &'a Literal);

impl fmt::Display for Typed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (t, v) = (self.0, self.1);
        match (t, v) {
            (_, Literal::Float(bits)) => {
                write!(f, "{t} {}", crate::value::float_literal_text(t, *bits))
            }
            _ => write!(f, "{t} {v}"),
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.name();
        match self {
            Op::Referrer(t)
            | Op::TypeObject(t)
            | Op::Convert(t)
            | Op::ZExt(t)
            | Op::SExt(t)
            | Op::Reinterpret(t)
            | Op::BitOffset(t)
            | Op::ByteOffset(t)
            | Op::Deref(t)
            | Op::PushLane(t) => write!(f, "{n}({t})"),
            Op::Arg(i, t) => write!(f, "{n}({i}, {t})"),
            Op::Constant(t, v) => write!(f, "{n}({})", Typed(t, v)),
            Op::Composite(c, t) => write!(f, "{n}({c}, {t})"),
            Op::Extend(c) => write!(f, "{n}({c})"),
            Op::AddrOf(a) => write!(f, "{n}({a})"),
            Op::Fragment(o, s) => write!(f, "{n}({o}, {s})"),
            Op::Select
            | Op::Read
            | Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::LShr
            | Op::AShr
            | Op::Shl
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Mod => write!(f, "{n}()"),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (open, close) = match self.spelling {
            Spelling::DIExpr => ("!DIExpr(", ")"),
            Spelling::DIExpression => ("!DIExpression(", ")"),
            Spelling::Bare => ("", ""),
        };
        f.write_str(open)?;
        for (i, op) in self.ops.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{op}")?;
        }
        f.write_str(close)
    }
}
