//! Evaluation of classic expressions in a concrete context: the operands
//! are the context's inputs (`(arg TYPE LOCATION)`), `DW_OP_deref` reads
//! the memory of address space 0. One `eval_<op>` per op; the arithmetic
//! is the one dioptra's DWARF evaluator gives the same DWARF operations
//! (D-dwarf-shift-amount, D-dwarf-convert), since a classic expression
//! means what its DWARF means.

use super::wellformed::{check_classic, operand_bits, operand_type, Checked, Kind};
use super::{COp, CTy, ClassicExpr, Encoding, High, Num, Params};
use crate::bits::Bits;
use crate::context::Context;
use crate::diag::Diag;
use crate::eval::Evaluated;
use crate::location::{read, LocDesc, Storage};
use num_bigint::{BigInt, BigUint};
use num_traits::{ToPrimitive, Zero};
use std::collections::BTreeMap;

/// A value on the stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CVal {
    pub ty: CTy,
    pub bits: Bits,
}

impl CVal {
    /// The value as an integer: signed for signed base types, unsigned
    /// otherwise.
    fn int(&self) -> BigInt {
        if self.ty.num == Num::Signed {
            self.bits.signed()
        } else {
            self.bits.unsigned_int()
        }
    }
    /// The value as the signed or unsigned integer an operation reads.
    fn read_as(&self, signed: bool) -> BigInt {
        if signed {
            self.bits.signed()
        } else {
            self.bits.unsigned_int()
        }
    }
}

/// The evaluation state.
pub struct CMachine<'a> {
    pub ctx: &'a dyn Context,
    pub params: &'a Params,
    pub w: u64,
    pub stack: Vec<CVal>,
    /// Under `High::Any`: the upper bits of each narrow operand (the
    /// values a rule checker's counterexample chose).
    high: &'a BTreeMap<u32, Bits>,
    op: &'static str,
}

impl CMachine<'_> {
    /// An underflow after a successful check: a dioptra bug.
    fn underflow(&self) -> Diag {
        Diag::eval(
            self.op,
            "internal-error",
            "stack underflow after a successful check (a dioptra bug)",
        )
    }
    fn err(&self, reason: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
        Diag::eval(self.op, reason, msg)
    }
    fn pop(&mut self) -> Result<CVal, Diag> {
        self.stack.pop().ok_or_else(|| self.underflow())
    }
    fn push(&mut self, ty: CTy, v: &BigInt) {
        self.stack.push(CVal {
            ty,
            bits: Bits::from_bigint(ty.bits, v),
        });
    }
    fn push_generic(&mut self, v: &BigInt) {
        self.push(CTy::generic(self.w), v);
    }
}

/// Evaluates `e` in `ctx`: the location it describes, read as the
/// variable's type.
pub fn eval_classic(e: &ClassicExpr, ctx: &dyn Context, p: &Params) -> Result<Evaluated, Diag> {
    eval_classic_with(e, ctx, p, &BTreeMap::new())
}

/// [`eval_classic`] under `High::Any` with the upper bits of the narrow
/// operands given (by operand number, `W - width` bits each).
pub fn eval_classic_with(
    e: &ClassicExpr,
    ctx: &dyn Context,
    p: &Params,
    high: &BTreeMap<u32, Bits>,
) -> Result<Evaluated, Diag> {
    let sig = ctx.signature();
    let checked = check_classic(e, &sig, p)?;
    let mut m = CMachine {
        ctx,
        params: p,
        w: checked.w,
        stack: Vec::new(),
        high,
        op: "DW_OP_LLVM_arg",
    };
    if checked.implicit_push {
        eval_arg(&mut m, 0)?;
    }
    for op in &e.ops[..checked.body] {
        m.op = op.name();
        eval_op(&mut m, op)?;
    }
    m.op = "DIExpression";
    finish(&mut m, &checked)
}

/// The location the expression ends with.
fn finish(m: &mut CMachine, c: &Checked) -> Result<Evaluated, Diag> {
    let loc = match c.kind {
        Kind::Operand(i) => m.ctx.args()[i as usize].loc.clone(),
        Kind::Undefined => LocDesc::undefined(),
        Kind::Implicit(_) => LocDesc::implicit(m.pop()?.bits),
        Kind::Memory => {
            let a = m.pop()?;
            memory_at(&a.bits.unsigned())
        }
        Kind::ImplicitPointer(levels) => implicit_pointer(m.ctx.args()[0].loc.clone(), levels, m.w),
    };
    Ok(Evaluated {
        ty: c.result.clone(),
        loc,
        fragment: c.fragment,
    })
}

/// An implicit pointer (address space 0, `w` bits) to `target`, `levels`
/// deep.
pub fn implicit_pointer(target: LocDesc, levels: u32, w: u64) -> LocDesc {
    (0..levels).fold(target, |target, _| {
        let depth = target.depth() + 1;
        LocDesc::single(
            Storage::ImplicitAddress {
                addrspace: 0,
                bits: w,
                target,
                depth,
            },
            0,
        )
    })
}

/// The memory location in address space 0 at byte address `a`.
pub fn memory_at(a: &BigUint) -> LocDesc {
    let bit = a.to_u128().unwrap_or(u128::MAX) * 8;
    LocDesc::single(Storage::Memory { addrspace: 0 }, bit)
}

fn eval_op(m: &mut CMachine, op: &COp) -> Result<(), Diag> {
    match op {
        COp::Arg(n) => eval_arg(m, *n),
        COp::Lit(n) => eval_constant(m, &BigInt::from(*n)),
        COp::Constu(c) => eval_constant(m, &BigInt::from(*c)),
        COp::Consts(c) => eval_constant(m, &BigInt::from(*c)),
        COp::Dup => eval_dup(m),
        COp::Drop => eval_drop(m),
        COp::Swap => eval_swap(m),
        COp::Over => eval_over(m),
        COp::Deref => eval_deref(m),
        COp::DerefSize(n) => eval_deref_size(m, *n),
        COp::Plus => eval_plus(m),
        COp::PlusUconst(c) => eval_plus_uconst(m, *c),
        COp::Minus => eval_minus(m),
        COp::Mul => eval_mul(m),
        COp::Div => eval_div(m),
        COp::Mod => eval_mod(m),
        COp::And => eval_bitwise(m, |a, b| a & b),
        COp::Or => eval_bitwise(m, |a, b| a | b),
        COp::Xor => eval_bitwise(m, |a, b| a ^ b),
        COp::Not => eval_not(m),
        COp::Neg => eval_neg(m),
        COp::Shl | COp::Shr | COp::Shra => eval_shift(m, op),
        COp::Eq | COp::Ne | COp::Lt | COp::Le | COp::Gt | COp::Ge => eval_relational(m, op),
        COp::Convert(bits, enc) => eval_convert(m, *bits, *enc),
        COp::ExtractBits {
            offset,
            len,
            signed,
        } => eval_extract_bits(m, *offset, *len, *signed),
        COp::TagOffset(_) => eval_tag_offset(m),
        COp::EntryValue(_) => eval_entry_value(m),
        COp::StackValue
        | COp::Memory
        | COp::Fragment(..)
        | COp::ImplicitPointer
        | COp::Other(..) => Err(m.err(
            "internal-error",
            "a terminator inside the body (a dioptra bug)",
        )),
    }
}

/// `DW_OP_LLVM_arg, N`: the operand's value, read from its location at its
/// type's width, its upper bits per [`High`].
///
/// DECISION (D-classic-high-bits): the bits above a narrower operand are a
/// parameter: zeros, copies of the sign bit, or anything. Concrete
/// evaluation and translation take zeros or sign bits; `any` is modelled by
/// the SMT rule checker only, where it ranges over every choice.
pub fn eval_arg(m: &mut CMachine, n: u32) -> Result<(), Diag> {
    push_operand(m, n, m.ctx)
}

/// Pushes operand `n`, read from its location in the machine state `state`
/// (the context, or its entry state).
fn push_operand(m: &mut CMachine, n: u32, state: &dyn Context) -> Result<(), Diag> {
    let sig = m.ctx.signature();
    let bits = operand_bits(&sig, n)?;
    let ty = operand_type(&sig, n, m.w)?;
    let input = &m.ctx.args()[n as usize];
    let v = read(state, &input.loc, bits).map_err(|f| f.at(m.op))?;
    let wide = match m.params.high {
        _ if bits >= m.w => v,
        High::Zero => v.zext(m.w),
        High::Sign => v.sext(m.w),
        High::Any if bits == m.w => v,
        High::Any if m.high.contains_key(&n) => v.concat(&m.high[&n]),
        High::Any => {
            return Err(Diag::unsupported(
                m.op,
                "high-bits-any",
                "concrete evaluation needs the upper bits of a narrow operand known (zero or sign); `any` is for the rule checker",
            ))
        }
    };
    m.stack.push(CVal { ty, bits: wide });
    Ok(())
}

/// `DW_OP_LLVM_entry_value, 1`: operand 0 read at its place in the
/// context's entry state (D-classic-entry-value).
pub fn eval_entry_value(m: &mut CMachine) -> Result<(), Diag> {
    let entry = m.ctx.entry().ok_or_else(|| {
        Diag::unsupported(
            m.op,
            "no-entry-state",
            "the context declares no (entry ...) state to read the value on entry from",
        )
    })?;
    push_operand(m, 0, entry)
}

/// `DW_OP_lit<n>`, `DW_OP_constu`, `DW_OP_consts`: a generic constant
/// (modulo the address size).
pub fn eval_constant(m: &mut CMachine, v: &BigInt) -> Result<(), Diag> {
    m.push_generic(v);
    Ok(())
}

pub fn eval_dup(m: &mut CMachine) -> Result<(), Diag> {
    super::shuffle::dup(&mut m.stack).ok_or_else(|| m.underflow())
}

pub fn eval_drop(m: &mut CMachine) -> Result<(), Diag> {
    m.pop().map(|_| ())
}

pub fn eval_swap(m: &mut CMachine) -> Result<(), Diag> {
    super::shuffle::swap(&mut m.stack).ok_or_else(|| m.underflow())
}

pub fn eval_over(m: &mut CMachine) -> Result<(), Diag> {
    super::shuffle::over(&mut m.stack).ok_or_else(|| m.underflow())
}

/// `DW_OP_deref`: the address-sized value at the address on top, in the
/// memory of address space 0.
pub fn eval_deref(m: &mut CMachine) -> Result<(), Diag> {
    let w = m.w;
    deref_bits(m, w)
}

/// `DW_OP_deref_size, N`: `N` bytes at the address, zero-extended.
pub fn eval_deref_size(m: &mut CMachine, n: u8) -> Result<(), Diag> {
    deref_bits(m, n as u64 * 8)
}

fn deref_bits(m: &mut CMachine, bits: u64) -> Result<(), Diag> {
    let a = m.pop()?;
    let v = read(m.ctx, &memory_at(&a.bits.unsigned()), bits).map_err(|f| f.at(m.op))?;
    m.push_generic(&v.unsigned_int());
    Ok(())
}

fn pop_pair(m: &mut CMachine) -> Result<(CVal, CVal), Diag> {
    let top = m.pop()?;
    let second = m.pop()?;
    Ok((second, top))
}

/// `DW_OP_plus`: `second + top`, wrapping at the type's width.
pub fn eval_plus(m: &mut CMachine) -> Result<(), Diag> {
    let (a, b) = pop_pair(m)?;
    m.push(a.ty, &(a.int() + b.int()));
    Ok(())
}

/// `DW_OP_plus_uconst, C`: `top + C`, wrapping.
pub fn eval_plus_uconst(m: &mut CMachine, c: u64) -> Result<(), Diag> {
    let a = m.pop()?;
    m.push(a.ty, &(a.int() + BigInt::from(c)));
    Ok(())
}

/// `DW_OP_minus`: `second - top`, wrapping.
pub fn eval_minus(m: &mut CMachine) -> Result<(), Diag> {
    let (a, b) = pop_pair(m)?;
    m.push(a.ty, &(a.int() - b.int()));
    Ok(())
}

/// `DW_OP_mul`: `second * top`, wrapping.
pub fn eval_mul(m: &mut CMachine) -> Result<(), Diag> {
    let (a, b) = pop_pair(m)?;
    m.push(a.ty, &(a.int() * b.int()));
    Ok(())
}

/// `DW_OP_div`: "divides the former second entry by the former top of the
/// stack using signed division" (DWARF 5); unsigned base types divide
/// unsigned. Truncating; the one quotient that does not fit
/// (`INT_MIN / -1`) wraps, as dioptra's DWARF evaluator; a zero divisor is
/// an error.
pub fn eval_div(m: &mut CMachine) -> Result<(), Diag> {
    let (a, b) = pop_pair(m)?;
    let s = a.ty.signed_ops();
    let (x, y) = (a.read_as(s), b.read_as(s));
    if y.is_zero() {
        return Err(m.err("division-by-zero", format!("{x} / 0")));
    }
    m.push(a.ty, &(&x / &y));
    Ok(())
}

/// `DW_OP_mod`: the remainder; generic and unsigned values are read
/// unsigned, signed base types signed (the sign of the dividend). A zero
/// divisor is an error.
pub fn eval_mod(m: &mut CMachine) -> Result<(), Diag> {
    let (a, b) = pop_pair(m)?;
    let s = a.ty.num == Num::Signed;
    let (x, y) = (a.read_as(s), b.read_as(s));
    if y.is_zero() {
        return Err(m.err("division-by-zero", format!("{x} mod 0")));
    }
    m.push(a.ty, &(&x - (&x / &y) * &y));
    Ok(())
}

/// `DW_OP_and`, `DW_OP_or`, `DW_OP_xor`: bitwise.
pub fn eval_bitwise(m: &mut CMachine, f: fn(&BigUint, &BigUint) -> BigUint) -> Result<(), Diag> {
    let (a, b) = pop_pair(m)?;
    let r = f(&a.bits.unsigned(), &b.bits.unsigned());
    m.push(a.ty, &BigInt::from(r));
    Ok(())
}

/// `DW_OP_not`: bitwise complement.
pub fn eval_not(m: &mut CMachine) -> Result<(), Diag> {
    let a = m.pop()?;
    m.push(a.ty, &(-a.int() - 1));
    Ok(())
}

/// `DW_OP_neg`: two's complement negation, wrapping.
pub fn eval_neg(m: &mut CMachine) -> Result<(), Diag> {
    let a = m.pop()?;
    m.push(a.ty, &-a.int());
    Ok(())
}

/// The shift amount: the top entry read unsigned, saturated at `w`
/// (D-dwarf-shift-amount).
fn amount(v: &CVal, w: u64) -> u64 {
    v.bits.unsigned().to_u64().unwrap_or(u64::MAX).min(w)
}

/// `DW_OP_shl` (amounts of at least the width give 0), `DW_OP_shr`
/// (logical), `DW_OP_shra` (arithmetic: amounts of at least the width give
/// all sign bits).
pub fn eval_shift(m: &mut CMachine, op: &COp) -> Result<(), Diag> {
    let (a, b) = pop_pair(m)?;
    let s = amount(&b, a.ty.bits);
    let r = match op {
        COp::Shl if s >= a.ty.bits => BigInt::zero(),
        COp::Shl => a.bits.unsigned_int() << s,
        COp::Shr => a.bits.lshr(s).unsigned_int(),
        _ => a.bits.signed() >> s,
    };
    m.push(a.ty, &r);
    Ok(())
}

/// `DW_OP_eq` .. `DW_OP_ge`: "comparisons are performed as signed
/// operations" on generic values (DWARF 5), by the encoding on base types;
/// a generic 1 or 0.
pub fn eval_relational(m: &mut CMachine, op: &COp) -> Result<(), Diag> {
    let (a, b) = pop_pair(m)?;
    let s = a.ty.signed_ops();
    let (x, y) = (a.read_as(s), b.read_as(s));
    let r = match op {
        COp::Eq => x == y,
        COp::Ne => x != y,
        COp::Lt => x < y,
        COp::Le => x <= y,
        COp::Gt => x > y,
        _ => x >= y,
    };
    m.push_generic(&BigInt::from(r as u8));
    Ok(())
}

/// `DW_OP_LLVM_convert, BITS, ENC`: the value (signed if its type is a
/// signed base type, unsigned otherwise) modulo `2^BITS` (D-dwarf-convert).
pub fn eval_convert(m: &mut CMachine, bits: u64, enc: Encoding) -> Result<(), Diag> {
    let a = m.pop()?;
    let ty = CTy {
        bits,
        num: match enc {
            Encoding::Signed => Num::Signed,
            Encoding::Unsigned => Num::Unsigned,
        },
    };
    m.push(ty, &a.int());
    Ok(())
}

/// `DW_OP_LLVM_extract_bits_zext|sext, OFFSET, LEN`: bits `[OFFSET, OFFSET +
/// LEN)` of the top entry, zero- or sign-extended to its type.
pub fn eval_extract_bits(
    m: &mut CMachine,
    offset: u64,
    len: u64,
    signed: bool,
) -> Result<(), Diag> {
    let a = m.pop()?;
    let field = a.bits.extract(offset, len);
    let bits = if signed {
        field.sext(a.ty.bits)
    } else {
        field.zext(a.ty.bits)
    };
    m.stack.push(CVal { ty: a.ty, bits });
    Ok(())
}

/// `DW_OP_LLVM_tag_offset, N`: "specifies that a memory tag should be
/// optionally applied to the pointer. The memory tag is derived from the
/// given tag offset in an implementation-defined manner" (LangRef). The
/// stack and the location are unchanged (D-tag-offset).
pub fn eval_tag_offset(_m: &mut CMachine) -> Result<(), Diag> {
    Ok(())
}
