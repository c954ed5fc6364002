//! The reverse direction: a classic expression describing the same location
//! as a DIOp expression, where one exists. One `reverse_<op>` per DIOp, in
//! the order of [`Op`]; the ops with no classic form are `unsupported`
//! (`Construct: no-classic-form`).
//!
//! Each value is kept as a generic value holding it zero-extended (the
//! form LLVM emits): operands are pushed with zero upper bits
//! (`High::Zero`), and an operation that may set bits above the DIOp
//! type's width is followed by a mask (`DW_OP_constu, 2^N - 1,
//! DW_OP_and`); a signed operation first sign-extends to the address size
//! with `(x ^ 2^(N-1)) - 2^(N-1)`. What exists:
//!
//! * `DIOpArg` of an integer or pointer no wider than the address size:
//!   the operand itself (an empty expression) when it is the whole
//!   expression, else its value (`DW_OP_LLVM_arg`);
//! * `DIOpConstant` of an integer of at most 64 bits, `DIOpRead`,
//!   `DIOpZExt`, `DIOpSExt`, `DIOpConvert` between integers,
//!   `DIOpReinterpret` between integers and pointers, `DIOpAdd`,
//!   `DIOpSub`, `DIOpMul`, the shifts, `DIOpAnd`, `DIOpOr`, `DIOpXor`;
//! * `DIOpFragment` (`DW_OP_LLVM_fragment`);
//! * `DIOpDeref` of a pointer into address space 0 (memory at its value,
//!   `DW_OP_LLVM_memory`), also of one read from memory (`DW_OP_deref`);
//! * `DIOpAddrOf(0)` of an operand, the whole expression
//!   (`DW_OP_LLVM_implicit_pointer`).
//!
//! Not: `DIOpDiv` and `DIOpMod` (they fail at `INT_MIN / -1`, where DWARF
//! wraps: no classic expression fails there), `DIOpByteOffset` and
//! `DIOpBitOffset` (they fail past the end of the address space, where
//! `DW_OP_plus_uconst` wraps: the prover finds `0xfffffff8 + 8` at `W` =
//! 32), registers, composites,
//! selects, other implicit addresses, lanes, the referrer and type objects.

use super::{COp, ClassicExpr, High, Intrinsic, Params};
use crate::context::Signature;
use crate::diag::Diag;
use crate::syntax::{Expr, Literal, Op};
use crate::types::Type;
use num_traits::ToPrimitive;

/// A DIOp stack entry, as classic operations.
#[derive(Clone, Debug)]
enum Entry {
    /// `DIOpArg(N, T)` untouched: the operand's own location.
    Operand(u32, Type),
    /// A value of `bits` bits, zero-extended in a generic value.
    Value { bits: u64, ops: Vec<COp> },
    /// Memory in address space 0 at the generic address the ops compute,
    /// of type `ty`.
    Memory { ops: Vec<COp>, ty: Type },
    /// `DIOpAddrOf(0)` of operand N's own location: an implicit pointer to
    /// it (`DW_OP_LLVM_implicit_pointer`, D-classic-implicit-pointer).
    ImplicitPointer(u32),
}

/// The reverse translation's state.
pub struct Reverser<'a> {
    sig: &'a Signature,
    w: u64,
    stack: Vec<Entry>,
    op: &'static str,
}

fn none(op: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
    Diag::unsupported(op, "no-classic-form", msg)
}

impl Reverser<'_> {
    fn pop(&mut self) -> Result<Entry, Diag> {
        self.stack.pop().ok_or_else(|| {
            Diag::eval(
                self.op,
                "internal-error",
                "stack underflow after a successful check (a dioptra bug)",
            )
        })
    }
    /// `bits` no wider than the address size.
    fn fits(&self, bits: u64) -> Result<(), Diag> {
        if bits > self.w {
            return Err(none(
                self.op,
                format!(
                    "a {bits}-bit value (classic values are at most {} bits)",
                    self.w
                ),
            ));
        }
        Ok(())
    }
    /// Clears the bits above `bits` (none to clear at the address size).
    fn mask(&self, ops: &mut Vec<COp>, bits: u64) {
        if bits < self.w {
            ops.push(COp::Constu((1u64 << bits) - 1));
            ops.push(COp::And);
        }
    }
    /// Sign-extends a zero-extended `bits`-bit value to the address size.
    fn sign_extend(&self, ops: &mut Vec<COp>, bits: u64) {
        if bits < self.w {
            let m = 1u64 << (bits - 1);
            ops.extend([COp::Constu(m), COp::Xor, COp::Constu(m), COp::Minus]);
        }
    }
    /// An entry as a value: its bits and the ops computing it.
    fn value(&self, e: Entry) -> Result<(u64, Vec<COp>), Diag> {
        match e {
            Entry::Value { bits, ops } => Ok((bits, ops)),
            Entry::Operand(n, t) => Ok((self.sig.layout.bitsizeof(&t), vec![COp::Arg(n)])),
            Entry::Memory { mut ops, ty } => {
                let bits = self.sig.layout.bitsizeof(&ty);
                if !bits.is_multiple_of(8) || bits > self.w {
                    return Err(none(
                        self.op,
                        format!("reading {bits} bits of memory: DW_OP_deref_size reads whole bytes, at most W"),
                    ));
                }
                ops.push(if bits == self.w {
                    COp::Deref
                } else {
                    COp::DerefSize((bits / 8) as u8)
                });
                Ok((bits, ops))
            }
            Entry::ImplicitPointer(_) => Err(none(
                self.op,
                "an implicit pointer is the whole of a classic expression",
            )),
        }
    }
}

/// The classic expression (and its parameters) describing the location
/// `e` describes over the operands `sig.args`.
pub fn reverse(e: &Expr, sig: &Signature) -> Result<(ClassicExpr, Params), Diag> {
    let checked = crate::wellformed::check(e, sig)?;
    let mut r = Reverser {
        sig,
        w: sig.layout.pointer_bits(0) as u64,
        stack: Vec::new(),
        op: "DIExpr",
    };
    for op in &e.ops {
        r.op = op.name();
        reverse_op(&mut r, op)?;
    }
    r.op = "DIExpr";
    let top = r.pop()?;
    let params = Params {
        intrinsic: Intrinsic::Value,
        high: High::Zero,
        // With a fragment the result is the fragment's bits; the
        // variable's own type is not known.
        variable: checked.fragment.is_none().then(|| checked.result.clone()),
    };
    let mut ops = match top {
        Entry::Operand(0, _) if sig.args.len() == 1 => Vec::new(),
        Entry::Operand(n, t) => {
            return Err(none(
                "DIOpArg",
                format!("operand {n} ({t}) as a location among several operands"),
            ))
        }
        Entry::Value { mut ops, .. } => {
            ops.push(COp::StackValue);
            ops
        }
        Entry::Memory { mut ops, .. } => {
            ops.push(COp::Memory);
            ops
        }
        Entry::ImplicitPointer(0) if sig.args.len() == 1 => vec![COp::ImplicitPointer],
        Entry::ImplicitPointer(n) => {
            return Err(none(
                "DIOpAddrOf",
                format!("an implicit pointer to operand {n} among several operands"),
            ))
        }
    };
    // A record with operands and no DW_OP_LLVM_arg reads operand 0 (or is
    // ill-formed with several, D-classic-implicit-operand): an expression
    // that uses none of its operands has no classic form over them.
    let names_operand = ops
        .iter()
        .any(|o| matches!(o, COp::Arg(_) | COp::ImplicitPointer));
    if !sig.args.is_empty() && !names_operand && !ops.is_empty() {
        return Err(none(
            "DIExpr",
            "an expression that uses none of its operands (a classic record with operands reads one)",
        ));
    }
    if let Some((o, s)) = checked.fragment {
        ops.push(COp::Fragment(o, s));
    }
    Ok((ClassicExpr { ops }, params))
}

fn reverse_op(r: &mut Reverser, op: &Op) -> Result<(), Diag> {
    let no_form = |why: &str| Err(none(op.name(), why.to_string()));
    match op {
        Op::Referrer(_) => no_form("a classic record has no referrer"),
        Op::Arg(n, t) => reverse_arg(r, *n, t),
        Op::TypeObject(_) => no_form("a classic record has no type object"),
        Op::Constant(t, l) => reverse_constant(r, t, l),
        Op::Convert(t) | Op::ZExt(t) => reverse_zext(r, t),
        Op::SExt(t) => reverse_sext(r, t),
        Op::Reinterpret(t) => reverse_reinterpret(r, t),
        Op::BitOffset(_) | Op::ByteOffset(_) => {
            no_form("it fails past the end of the address space, where DW_OP_plus_uconst wraps")
        }
        Op::Composite(..) => no_form("a classic expression has no composite locations"),
        Op::Extend(_) => no_form("a classic expression has no vectors of locations"),
        Op::Select => no_form("a classic expression has no vectors of locations"),
        Op::AddrOf(n) => reverse_addr_of(r, *n),
        Op::Deref(t) => reverse_deref(r, t),
        Op::Read => reverse_read(r),
        Op::Add => reverse_binary(r, COp::Plus, Upper::Masked),
        Op::Sub => reverse_binary(r, COp::Minus, Upper::Masked),
        Op::Mul => reverse_binary(r, COp::Mul, Upper::Masked),
        Op::Div => no_form("it fails at INT_MIN / -1, where DW_OP_div wraps"),
        Op::LShr => reverse_binary(r, COp::Shr, Upper::Kept),
        Op::AShr => reverse_binary(r, COp::Shra, Upper::Signed),
        Op::Shl => reverse_binary(r, COp::Shl, Upper::Masked),
        Op::PushLane(_) => no_form("a classic expression has no lanes"),
        // `DIOpFragment` acts on no stack entry: `reverse` makes it the
        // classic expression's last operation, DW_OP_LLVM_fragment.
        Op::Fragment(..) => Ok(()),
        Op::And => reverse_binary(r, COp::And, Upper::Kept),
        Op::Or => reverse_binary(r, COp::Or, Upper::Kept),
        Op::Xor => reverse_binary(r, COp::Xor, Upper::Kept),
        Op::Mod => no_form("it fails at INT_MIN / -1, where DW_OP_mod is unsigned"),
    }
}

/// `DIOpArg(N, T)`: the operand (an integer or a pointer as wide as the
/// address at most).
pub fn reverse_arg(r: &mut Reverser, n: u32, t: &Type) -> Result<(), Diag> {
    let bits = r.sig.layout.bitsizeof(t);
    let ok = matches!(t, Type::Int(_)) || matches!(t, Type::Ptr { addrspace: 0, .. });
    if !ok || bits > r.w {
        return Err(none(
            "DIOpArg",
            format!("an operand of type `{t}` (classic operands are integers or pointers of at most {} bits)", r.w),
        ));
    }
    r.stack.push(Entry::Operand(n, t.clone()));
    Ok(())
}

/// `DIOpConstant(iN V)`: `DW_OP_constu`.
pub fn reverse_constant(r: &mut Reverser, t: &Type, l: &Literal) -> Result<(), Diag> {
    let bits = r.sig.layout.bitsizeof(t);
    r.fits(bits)?;
    let v = match (t, l) {
        (Type::Int(_), Literal::Int(v)) => {
            let m = num_bigint::BigInt::from(1u8) << bits;
            ((v % &m + &m) % &m).to_u64()
        }
        (Type::Int(1), Literal::Bool(b)) => Some(*b as u64),
        _ => None,
    }
    .ok_or_else(|| none("DIOpConstant", format!("the constant `{t} {l}`")))?;
    r.stack.push(Entry::Value {
        bits,
        ops: vec![COp::Constu(v)],
    });
    Ok(())
}

/// `DIOpZExt(T')` and `DIOpConvert(T')` between integers: the same
/// zero-extended value, or its low bits.
pub fn reverse_zext(r: &mut Reverser, t: &Type) -> Result<(), Diag> {
    if !matches!(t, Type::Int(_)) {
        return Err(none(r.op, format!("a conversion to `{t}`")));
    }
    let to = r.sig.layout.bitsizeof(t);
    r.fits(to)?;
    let e = r.pop()?;
    let (bits, mut ops) = r.value(e)?;
    if to < bits {
        r.mask(&mut ops, to);
    }
    r.stack.push(Entry::Value { bits: to, ops });
    Ok(())
}

/// `DIOpSExt(T')`: sign-extend, then keep `T'`'s bits.
pub fn reverse_sext(r: &mut Reverser, t: &Type) -> Result<(), Diag> {
    let to = r.sig.layout.bitsizeof(t);
    r.fits(to)?;
    let e = r.pop()?;
    let (bits, mut ops) = r.value(e)?;
    r.sign_extend(&mut ops, bits);
    r.mask(&mut ops, to);
    r.stack.push(Entry::Value { bits: to, ops });
    Ok(())
}

/// `DIOpReinterpret(T')` between integers and address-space-0 pointers of
/// one width: the same bits, named by the new type.
pub fn reverse_reinterpret(r: &mut Reverser, t: &Type) -> Result<(), Diag> {
    let ok = matches!(t, Type::Int(_)) || matches!(t, Type::Ptr { addrspace: 0, .. });
    if !ok {
        return Err(none(
            "DIOpReinterpret",
            format!("a reinterpretation as `{t}`"),
        ));
    }
    let e = r.pop()?;
    r.stack.push(match e {
        Entry::Operand(n, _) => Entry::Operand(n, t.clone()),
        Entry::Memory { ops, .. } => Entry::Memory { ops, ty: t.clone() },
        // DIOp's checker refuses to reinterpret an implicit address
        // (D-addrof-strict); kept as it is.
        v @ (Entry::Value { .. } | Entry::ImplicitPointer(_)) => v,
    });
    Ok(())
}

/// `DIOpAddrOf(0)` of an operand's own location: `DW_OP_LLVM_implicit_pointer`
/// (D-classic-implicit-pointer); of anything else, or into another address
/// space, no classic form.
pub fn reverse_addr_of(r: &mut Reverser, n: u32) -> Result<(), Diag> {
    match r.pop()? {
        Entry::Operand(i, _) if n == 0 => {
            r.stack.push(Entry::ImplicitPointer(i));
            Ok(())
        }
        _ => Err(none(
            "DIOpAddrOf",
            "a classic implicit pointer points to an operand's own location, in address space 0",
        )),
    }
}

/// `DIOpDeref(T)` of an address-space-0 pointer: memory at its value.
pub fn reverse_deref(r: &mut Reverser, t: &Type) -> Result<(), Diag> {
    let e = r.pop()?;
    let pointer = |ty: &Type| matches!(ty, Type::Ptr { addrspace: 0, .. });
    let ops = match e {
        Entry::Operand(n, ty) if pointer(&ty) => vec![COp::Arg(n)],
        Entry::Memory { mut ops, ty } if pointer(&ty) => {
            ops.push(COp::Deref);
            ops
        }
        Entry::Value { bits, ops } if bits == r.w => ops,
        _ => {
            return Err(none(
                "DIOpDeref",
                "an address that is not an address-space-0 pointer",
            ))
        }
    };
    r.stack.push(Entry::Memory { ops, ty: t.clone() });
    Ok(())
}

/// `DIOpRead()`: the value.
pub fn reverse_read(r: &mut Reverser) -> Result<(), Diag> {
    let e = r.pop()?;
    let (bits, ops) = r.value(e)?;
    r.stack.push(Entry::Value { bits, ops });
    Ok(())
}

/// How a binary operation treats the upper bits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Upper {
    /// Zero in, zero out (`and`, `or`, `xor`, `shr`).
    Kept,
    /// May set them: mask after.
    Masked,
    /// Signed: sign-extend the first operand, mask after (`shra`).
    Signed,
}

/// The binary operations on zero-extended generic values.
pub fn reverse_binary(r: &mut Reverser, op: COp, upper: Upper) -> Result<(), Diag> {
    let b = r.pop()?;
    let a = r.pop()?;
    let (bits, mut ops) = r.value(a)?;
    r.fits(bits)?;
    if upper == Upper::Signed {
        r.sign_extend(&mut ops, bits);
    }
    let (_, b_ops) = r.value(b)?;
    ops.extend(b_ops);
    ops.push(op);
    if upper != Upper::Kept {
        r.mask(&mut ops, bits);
    }
    r.stack.push(Entry::Value { bits, ops });
    Ok(())
}
