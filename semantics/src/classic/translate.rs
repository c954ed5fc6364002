//! Translation of classic expressions to DIOp expressions over the same
//! inputs: the classic operand `N` is `DIOpArg(N, T)`, the generic type is
//! `iW`. DIOp has no stack manipulation, so each classic stack entry is
//! carried as the DIOp ops that compute it, and `DW_OP_dup` / `over` copy
//! those ops (DIOp expressions have no side effects). One
//! `translate_<op>` per op.
//!
//! Each translation is a claim, checked by the prover
//! ([`super::equiv::prove_translation`]): the DIOp expression describes
//! the same location as the classic one in every context, with the same
//! definedness.

use super::wellformed::{check_classic, Kind};
use super::{COp, CTy, ClassicExpr, Encoding, High, Num, Params};
use crate::context::Signature;
use crate::diag::Diag;
use crate::syntax::{Expr, Literal, Op};
use crate::types::Type;
use num_bigint::BigInt;

/// The most DIOp ops a translation may have (copies made by `DW_OP_dup`
/// and `DW_OP_over` grow it).
pub const MAX_TRANSLATED_OPS: usize = 20_000;

/// A classic stack entry: the DIOp ops that push it, its type, and whether
/// those ops end in a computed value (rather than a location to read).
#[derive(Clone, Debug)]
pub struct TEntry {
    pub ops: Vec<Op>,
    pub ty: CTy,
    pub value: bool,
}

/// The translation state.
pub struct Translator<'a> {
    pub sig: &'a Signature,
    pub params: &'a Params,
    pub w: u64,
    pub stack: Vec<TEntry>,
    /// Entries the classic expression pushed (so read) but the result does
    /// not use: dropped, or left below the result.
    pub unused: Vec<TEntry>,
    op: &'static str,
}

fn int(bits: u64) -> Type {
    Type::Int(bits)
}

fn constant(bits: u64, v: impl Into<BigInt>) -> Op {
    let v: BigInt = v.into();
    let m = BigInt::from(1u8) << bits;
    let v = ((v % &m) + &m) % &m;
    Op::Constant(int(bits), Literal::Int(v))
}

/// Ops that resize an integer value of `from` bits to `to` bits: truncate,
/// or extend (signed or not).
fn resize(from: u64, to: u64, signed: bool) -> Vec<Op> {
    use std::cmp::Ordering::*;
    match to.cmp(&from) {
        Less => vec![Op::Convert(int(to))],
        Equal => vec![],
        Greater if signed => vec![Op::SExt(int(to))],
        Greater => vec![Op::ZExt(int(to))],
    }
}

impl Translator<'_> {
    /// An underflow after a successful check: a dioptra bug.
    fn underflow(&self) -> Diag {
        Diag::eval(
            self.op,
            "internal-error",
            "stack underflow after a successful check (a dioptra bug)",
        )
    }
    fn pop(&mut self) -> Result<TEntry, Diag> {
        self.stack.pop().ok_or_else(|| self.underflow())
    }
    fn push(&mut self, ops: Vec<Op>, ty: CTy) -> Result<(), Diag> {
        self.stack.push(TEntry {
            ops,
            ty,
            value: true,
        });
        self.check_size()
    }
    /// Every entry's ops together (copies included): what the translation
    /// can grow to.
    fn check_size(&self) -> Result<(), Diag> {
        let total: usize = self
            .stack
            .iter()
            .chain(&self.unused)
            .map(|e| e.ops.len())
            .sum();
        if total > MAX_TRANSLATED_OPS {
            return Err(Diag::unsupported(
                self.op,
                "translation-too-large",
                format!("the DIOp translation would exceed {MAX_TRANSLATED_OPS} ops"),
            ));
        }
        Ok(())
    }
    fn pop_pair(&mut self) -> Result<(TEntry, TEntry), Diag> {
        let top = self.pop()?;
        let second = self.pop()?;
        Ok((second, top))
    }
}

/// The ops of an address entry, then its view as a pointer in address
/// space 0: a pointer operand viewed as `iW` is taken as it was (the
/// reinterpretation round trip is the identity).
fn as_pointer(mut ops: Vec<Op>, w: u64) -> Vec<Op> {
    let n = ops.len();
    let round_trip = n >= 2
        && ops[n - 1] == Op::Reinterpret(int(w))
        && matches!(&ops[n - 2], Op::Arg(_, t) if t.same(&Type::ptr(0)));
    if round_trip {
        ops.pop();
    } else {
        ops.push(Op::Reinterpret(Type::ptr(0)));
    }
    ops
}

fn cat(parts: &[&[Op]]) -> Vec<Op> {
    parts.iter().flat_map(|p| p.iter().cloned()).collect()
}

/// The DIOp expression describing the same location as `e`.
pub fn translate(e: &ClassicExpr, sig: &Signature, p: &Params) -> Result<Expr, Diag> {
    let checked = check_classic(e, sig, p)?;
    let mut t = Translator {
        sig,
        params: p,
        w: checked.w,
        stack: Vec::new(),
        unused: Vec::new(),
        op: "DW_OP_LLVM_arg",
    };
    if checked.implicit_push {
        translate_arg(&mut t, 0)?;
    }
    for op in &e.ops[..checked.body] {
        t.op = op.name();
        translate_op(&mut t, op)?;
    }
    t.op = "DIExpression";
    let r = checked.result.clone();
    let rbits = sig.layout.bitsizeof(&r);
    let mut ops = match checked.kind {
        Kind::Operand(i) => {
            let ty = &sig.args[i as usize];
            let mut ops = vec![Op::Arg(i, ty.clone())];
            if !ty.same(&r) {
                if sig.layout.bitsizeof(ty) != rbits {
                    return Err(Diag::unsupported(
                        "DIExpression",
                        "translation-size-mismatch",
                        format!("operand of type `{ty}` read as `{r}`: DIOp has no such view"),
                    ));
                }
                ops.push(Op::Reinterpret(r.clone()));
            }
            ops
        }
        Kind::Undefined => vec![Op::Constant(r.clone(), Literal::Undef)],
        // One level is `DIOpAddrOf` of the operand; a second `DIOpAddrOf`
        // of the implicit address it makes is ill-formed (D-addrof-strict).
        Kind::ImplicitPointer(1) if r.same(&Type::ptr(0)) => {
            vec![Op::Arg(0, sig.args[0].clone()), Op::AddrOf(0)]
        }
        Kind::ImplicitPointer(levels) => {
            return Err(Diag::unsupported(
                "DW_OP_LLVM_implicit_pointer",
                "no-translation",
                format!(
                "{levels} levels read as `{r}`: DIOp has one level of `DIOpAddrOf`, of type `ptr`"
            ),
            ))
        }
        Kind::Implicit(_) => {
            let top = t.pop()?;
            let unused = std::mem::take(&mut t.stack);
            let (mut ops, value) = guarded(top.ops, top.ty.bits, top.value, &t.unused, &unused);
            if !value {
                ops.push(Op::Read);
            }
            if rbits > top.ty.bits {
                return Err(Diag::unsupported(
                    "DIExpression",
                    "translation-beyond-value",
                    format!(
                        "a {}-bit value read as `{r}`: DIOp has no location past an implicit value's end",
                        top.ty.bits
                    ),
                ));
            }
            ops.extend(resize(top.ty.bits, rbits, false));
            if !r.same(&int(rbits)) {
                ops.push(Op::Reinterpret(r.clone()));
            }
            ops
        }
        Kind::Memory => {
            let top = t.pop()?;
            let unused = std::mem::take(&mut t.stack);
            let (ops, _) = guarded(top.ops, top.ty.bits, top.value, &t.unused, &unused);
            let mut ops = as_pointer(ops, t.w);
            ops.push(Op::Deref(r.clone()));
            ops
        }
    };
    if let Some((o, s)) = checked.fragment {
        ops.push(Op::Fragment(o, s));
    }
    Ok(Expr::new(ops))
}

fn translate_op(t: &mut Translator, op: &COp) -> Result<(), Diag> {
    match op {
        COp::Arg(n) => translate_arg(t, *n),
        COp::Lit(n) => translate_constant(t, BigInt::from(*n)),
        COp::Constu(c) => translate_constant(t, BigInt::from(*c)),
        COp::Consts(c) => translate_constant(t, BigInt::from(*c)),
        COp::Dup => translate_dup(t),
        COp::Drop => translate_drop(t),
        COp::Swap => translate_swap(t),
        COp::Over => translate_over(t),
        COp::Deref => translate_deref(t),
        COp::DerefSize(n) => translate_deref_size(t, *n),
        COp::Plus => translate_plus(t),
        COp::PlusUconst(c) => translate_plus_uconst(t, *c),
        COp::Minus => translate_minus(t),
        COp::Mul => translate_mul(t),
        COp::Div => translate_div(t),
        COp::Mod => translate_mod(t),
        COp::And => translate_bitwise(t, Op::And),
        COp::Or => translate_bitwise(t, Op::Or),
        COp::Xor => translate_bitwise(t, Op::Xor),
        COp::Not => translate_not(t),
        COp::Neg => translate_neg(t),
        COp::Shl => translate_shift(t, Op::Shl, false),
        COp::Shr => translate_shift(t, Op::LShr, false),
        COp::Shra => translate_shift(t, Op::AShr, true),
        COp::Eq | COp::Ne | COp::Lt | COp::Le | COp::Gt | COp::Ge => translate_relational(t, op),
        COp::Convert(bits, enc) => translate_convert(t, *bits, *enc),
        COp::ExtractBits {
            offset,
            len,
            signed,
        } => translate_extract_bits(t, *offset, *len, *signed),
        COp::TagOffset(_) => translate_tag_offset(t),
        COp::EntryValue(_) => translate_entry_value(t),
        COp::StackValue
        | COp::Memory
        | COp::Fragment(..)
        | COp::ImplicitPointer
        | COp::Other(..) => Err(Diag::eval(
            op.name(),
            "internal-error",
            "a terminator inside the body (a dioptra bug)",
        )),
    }
}

/// `DW_OP_LLVM_arg, N`: `DIOpArg(N, T)`, viewed as an integer
/// (`DIOpReinterpret`) and extended to `iW` per the upper-bits parameter.
pub fn translate_arg(t: &mut Translator, n: u32) -> Result<(), Diag> {
    let ty =
        t.sig.args.get(n as usize).cloned().ok_or_else(|| {
            Diag::ill("DW_OP_LLVM_arg", "no-such-operand", format!("operand {n}"))
        })?;
    let bits = super::wellformed::operand_bits(t.sig, n)?;
    let cty = super::wellformed::operand_type(t.sig, n, t.w)?;
    let mut ops = vec![Op::Arg(n, ty.clone())];
    if !ty.is_integral() {
        ops.push(Op::Reinterpret(int(bits)));
    }
    let value = bits < t.w;
    if value {
        match t.params.high {
            High::Zero => ops.push(Op::ZExt(int(t.w))),
            High::Sign => ops.push(Op::SExt(int(t.w))),
            High::Any => return Err(Diag::unsupported(
                "DW_OP_LLVM_arg",
                "high-bits-any",
                "a DIOp translation needs the upper bits of a narrow operand known (zero or sign)",
            )),
        }
    }
    t.stack.push(TEntry {
        ops,
        ty: cty,
        value,
    });
    Ok(())
}

/// `DW_OP_LLVM_entry_value, 1`: the DIOp language has no entry values
/// (D-classic-entry-value).
pub fn translate_entry_value(t: &mut Translator) -> Result<(), Diag> {
    Err(Diag::unsupported(
        t.op,
        "no-translation",
        "DIOp expressions have no operation for a value on entry to the function",
    ))
}

/// `DW_OP_lit<n>`, `DW_OP_constu`, `DW_OP_consts`: `DIOpConstant(iW C)`.
pub fn translate_constant(t: &mut Translator, v: BigInt) -> Result<(), Diag> {
    let w = t.w;
    t.push(vec![constant(w, v)], CTy::generic(w))
}

/// `DW_OP_dup`: the top entry's ops, copied.
pub fn translate_dup(t: &mut Translator) -> Result<(), Diag> {
    super::shuffle::dup(&mut t.stack).ok_or_else(|| t.underflow())?;
    t.check_size()
}

/// `DW_OP_drop`: the entry's ops are kept aside; the result reads them
/// (see [`guarded`]).
pub fn translate_drop(t: &mut Translator) -> Result<(), Diag> {
    let a = t.pop()?;
    t.unused.push(a);
    Ok(())
}

/// The result's ops followed by `+ u * 0` for every unused entry `u`
/// (resized to the result's width): the same value, but failing where
/// reading `u` fails, as the classic expression fails where pushing it
/// does (an operand is read when it is pushed). Returns the ops and
/// whether they end in a computed value.
fn guarded(
    mut ops: Vec<Op>,
    bits: u64,
    value: bool,
    dropped: &[TEntry],
    below: &[TEntry],
) -> (Vec<Op>, bool) {
    let mut value = value;
    for u in dropped.iter().chain(below) {
        ops.extend(u.ops.iter().cloned());
        ops.extend(resize(u.ty.bits, bits, false));
        ops.extend([constant(bits, 0), Op::Mul, Op::Add]);
        value = true;
    }
    (ops, value)
}

pub fn translate_swap(t: &mut Translator) -> Result<(), Diag> {
    super::shuffle::swap(&mut t.stack).ok_or_else(|| t.underflow())
}

/// `DW_OP_over`: the second entry's ops, copied.
pub fn translate_over(t: &mut Translator) -> Result<(), Diag> {
    super::shuffle::over(&mut t.stack).ok_or_else(|| t.underflow())?;
    t.check_size()
}

/// `DW_OP_deref`: see [`deref_bits`].
pub fn translate_deref(t: &mut Translator) -> Result<(), Diag> {
    let w = t.w;
    deref_bits(t, w)
}

/// `DW_OP_deref_size, N`: see [`deref_bits`].
pub fn translate_deref_size(t: &mut Translator, n: u8) -> Result<(), Diag> {
    deref_bits(t, n as u64 * 8)
}

/// The address as a pointer in address space 0, `DIOpDeref(i<bits>)`,
/// zero-extended to `iW`.
fn deref_bits(t: &mut Translator, bits: u64) -> Result<(), Diag> {
    let a = t.pop()?;
    let mut ops = as_pointer(a.ops, t.w);
    ops.push(Op::Deref(int(bits)));
    let value = bits < t.w;
    ops.extend(resize(bits, t.w, false));
    let g = CTy::generic(t.w);
    t.push(ops, g)?;
    t.stack.last_mut().expect("pushed").value = value;
    Ok(())
}

/// Two operands of one type, one DIOp op that wraps as DWARF does.
fn same_op(t: &mut Translator, op: Op) -> Result<(), Diag> {
    let (a, b) = t.pop_pair()?;
    t.push(cat(&[&a.ops, &b.ops, &[op]]), a.ty)
}

/// `DW_OP_plus`: `DIOpAdd()`.
pub fn translate_plus(t: &mut Translator) -> Result<(), Diag> {
    same_op(t, Op::Add)
}

/// `DW_OP_plus_uconst, C`: `DIOpConstant(iB C)`, `DIOpAdd()`.
pub fn translate_plus_uconst(t: &mut Translator, c: u64) -> Result<(), Diag> {
    let a = t.pop()?;
    let b = a.ty.bits;
    t.push(cat(&[&a.ops, &[constant(b, c), Op::Add]]), a.ty)
}

/// `DW_OP_minus`: `DIOpSub()` (second minus top, D-binary-operand-order).
pub fn translate_minus(t: &mut Translator) -> Result<(), Diag> {
    same_op(t, Op::Sub)
}

/// `DW_OP_mul`: `DIOpMul()`.
pub fn translate_mul(t: &mut Translator) -> Result<(), Diag> {
    same_op(t, Op::Mul)
}

/// `DW_OP_div`: generic and signed values divide with `DIOpDiv`, which is
/// signed too, except that `INT_MIN / -1` is an error in DIOp
/// (D-div-signed) where DWARF wraps: there the translation is less defined
/// than the classic expression, and the prover says `refines`.
///
/// DECISION (D-classic-div-wrap): the translation of a signed `DW_OP_div`
/// is allowed to refine (fail at `INT_MIN / -1` only): the exact
/// alternative, dividing in twice the width, takes z3 longer than any time
/// limit at 64 bits. Operands narrower than `W` never reach `INT_MIN /
/// -1`, so there the translation is exact. Unsigned base types divide in twice the width over
/// zero-extended operands, which is exact.
pub fn translate_div(t: &mut Translator) -> Result<(), Diag> {
    let (a, b) = t.pop_pair()?;
    if a.ty.signed_ops() {
        return t.push(cat(&[&a.ops, &b.ops, &[Op::Div]]), a.ty);
    }
    wide_binary(t, a, b, false, Op::Div)
}

/// `DW_OP_mod`: generic and unsigned values are unsigned, so the remainder
/// is taken in twice the width over zero-extended operands (`DIOpMod` is
/// signed); signed base types use `DIOpMod` directly.
pub fn translate_mod(t: &mut Translator) -> Result<(), Diag> {
    let (a, b) = t.pop_pair()?;
    if a.ty.num == Num::Signed {
        return t.push(cat(&[&a.ops, &b.ops, &[Op::Mod]]), a.ty);
    }
    wide_binary(t, a, b, false, Op::Mod)
}

fn wide_binary(t: &mut Translator, a: TEntry, b: TEntry, signed: bool, op: Op) -> Result<(), Diag> {
    let (n, k) = (a.ty.bits, 2 * a.ty.bits);
    let ext = resize(n, k, signed);
    t.push(
        cat(&[&a.ops, &ext, &b.ops, &ext, &[op], &resize(k, n, false)]),
        a.ty,
    )
}

/// `DW_OP_and`, `DW_OP_or`, `DW_OP_xor`: the ROCm `DIOpAnd`/`Or`/`Xor`.
pub fn translate_bitwise(t: &mut Translator, op: Op) -> Result<(), Diag> {
    same_op(t, op)
}

/// `DW_OP_not`: `x ^ (2^B - 1)`.
pub fn translate_not(t: &mut Translator) -> Result<(), Diag> {
    let a = t.pop()?;
    let b = a.ty.bits;
    let ones = (BigInt::from(1u8) << b) - 1;
    t.push(cat(&[&a.ops, &[constant(b, ones), Op::Xor]]), a.ty)
}

/// `DW_OP_neg`: `0 - x`.
pub fn translate_neg(t: &mut Translator) -> Result<(), Diag> {
    let a = t.pop()?;
    let b = a.ty.bits;
    t.push(cat(&[&[constant(b, 0)], &a.ops, &[Op::Sub]]), a.ty)
}

/// `DW_OP_shl`, `shr`, `shra`: DIOp shifts take one type, so a narrower
/// amount is zero-extended, and a value narrower than its amount is shifted
/// at the amount's width (zero- or, for `shra`, sign-extended) and
/// truncated back, which keeps the saturation at the value's width.
pub fn translate_shift(t: &mut Translator, op: Op, arithmetic: bool) -> Result<(), Diag> {
    let (a, s) = t.pop_pair()?;
    let (vb, sb) = (a.ty.bits, s.ty.bits);
    let ops = if sb <= vb {
        cat(&[&a.ops, &s.ops, &resize(sb, vb, false), &[op]])
    } else {
        cat(&[
            &a.ops,
            &resize(vb, sb, arithmetic),
            &s.ops,
            &[op],
            &resize(sb, vb, false),
        ])
    };
    t.push(ops, a.ty)
}

/// `x < y` as 0 or 1 in `i(2B)`: the sign of the difference of the two
/// values extended to twice their width.
fn less_than(a: &TEntry, b: &TEntry, signed: bool) -> (Vec<Op>, u64) {
    let (n, k) = (a.ty.bits, 2 * a.ty.bits);
    let ext = resize(n, k, signed);
    (
        cat(&[
            &a.ops,
            &ext,
            &b.ops,
            &ext,
            &[Op::Sub, constant(k, k - 1), Op::LShr],
        ]),
        k,
    )
}

/// `x != y` as 0 or 1 in `iB`: with `d = x ^ y`, the top bit of `d | -d`.
fn not_equal(a: &TEntry, b: &TEntry) -> (Vec<Op>, u64) {
    let n = a.ty.bits;
    let d = cat(&[&a.ops, &b.ops, &[Op::Xor]]);
    (
        cat(&[
            &d,
            &[constant(n, 0)],
            &d,
            &[Op::Sub, Op::Or, constant(n, n - 1), Op::LShr],
        ]),
        n,
    )
}

/// `DW_OP_eq` .. `DW_OP_ge`: DIOp has no comparisons; each is computed
/// with arithmetic (see [`less_than`], [`not_equal`]) and widened or
/// truncated to the generic type.
pub fn translate_relational(t: &mut Translator, op: &COp) -> Result<(), Diag> {
    let (a, b) = t.pop_pair()?;
    let s = a.ty.signed_ops();
    let flip = |(mut ops, k): (Vec<Op>, u64)| {
        ops.extend([constant(k, 1), Op::Xor]);
        (ops, k)
    };
    let (mut ops, k) = match op {
        COp::Eq => flip(not_equal(&a, &b)),
        COp::Ne => not_equal(&a, &b),
        COp::Lt => less_than(&a, &b, s),
        COp::Gt => less_than(&b, &a, s),
        COp::Le => flip(less_than(&b, &a, s)),
        _ => flip(less_than(&a, &b, s)),
    };
    ops.extend(resize(k, t.w, false));
    t.push(ops, CTy::generic(t.w))
}

/// `DW_OP_LLVM_convert, BITS, ENC`: truncate, or extend by the source's
/// signedness (D-dwarf-convert: generic reads as unsigned).
pub fn translate_convert(t: &mut Translator, bits: u64, enc: Encoding) -> Result<(), Diag> {
    let a = t.pop()?;
    let ops = cat(&[&a.ops, &resize(a.ty.bits, bits, a.ty.num == Num::Signed)]);
    let num = match enc {
        Encoding::Signed => Num::Signed,
        Encoding::Unsigned => Num::Unsigned,
    };
    let value = a.value || a.ty.bits != bits;
    t.push(ops, CTy { bits, num })?;
    t.stack.last_mut().expect("pushed").value = value;
    Ok(())
}

/// `DW_OP_LLVM_extract_bits_*, OFFSET, LEN`: shift right by the offset,
/// truncate to `LEN` bits, extend back.
pub fn translate_extract_bits(
    t: &mut Translator,
    offset: u64,
    len: u64,
    signed: bool,
) -> Result<(), Diag> {
    let a = t.pop()?;
    let n = a.ty.bits;
    let mut ops = a.ops;
    if offset > 0 {
        ops.extend([constant(n, offset), Op::LShr]);
    }
    if len < n {
        ops.push(Op::Convert(int(len)));
        ops.extend(resize(len, n, signed));
    }
    let value = a.value || offset > 0 || len < n;
    t.push(ops, a.ty)?;
    t.stack.last_mut().expect("pushed").value = value;
    Ok(())
}

/// `DW_OP_LLVM_tag_offset, N`: "specifies that a memory tag should be
/// optionally applied to the pointer. The memory tag is derived from the
/// given tag offset in an implementation-defined manner" (LangRef). DIOps
/// have no tag: the translation leaves it out, and the location is the same
/// (D-tag-offset).
pub fn translate_tag_offset(_t: &mut Translator) -> Result<(), Diag> {
    Ok(())
}
