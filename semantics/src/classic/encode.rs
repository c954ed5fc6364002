//! The SMT encoding of classic expressions, beside [`super::eval`]: one
//! `encode_<op>` per op, over a symbolic [`World`]. The result is an
//! [`Encoded`] location, comparable with a DIOp expression's.
//!
//! With `High::Any`, each narrow operand's upper bits are a fresh
//! bit-vector `high<N>` (one per operand, the same each time it is
//! pushed): a proof then holds for every choice.

use super::wellformed::{check_classic, operand_bits, operand_type, Kind};
use super::{COp, CTy, ClassicExpr, Encoding, High, Num, Params};
use crate::diag::Diag;
use crate::smt::loc::{read, unsupported, SLoc, SStorage};
use crate::smt::term::{and, bv_big, bv_u, resize, resize_signed, sdiv, srem, udiv, urem, OFF};
use crate::smt::world::{check_width, World};
use crate::smt::Encoded;
use num_bigint::BigInt;
use std::collections::BTreeMap;
use z3::ast::{Bool, BV};

/// The most operations the SMT encoding takes.
pub const MAX_SMT_CLASSIC_OPS: usize = 512;

/// A symbolic stack value.
#[derive(Clone, Debug)]
pub struct SVal {
    pub ty: CTy,
    pub v: BV,
}

/// What a caller may leave open in an expression: the rule checker's
/// symbolic literals (keyed by operation index, 64 bits wide as LLVM's
/// literal field, for `DW_OP_constu`, `DW_OP_consts` and
/// `DW_OP_plus_uconst`) and, under `High::Any`, the upper bits of an
/// operand (keyed by operand number, `W - width` bits), so that one IR
/// value carries the same upper bits in the two expressions a rule
/// compares.
#[derive(Default)]
pub struct Holes {
    pub literals: BTreeMap<usize, BV>,
    pub high: BTreeMap<u32, BV>,
}

/// The encoding state: the twin of [`super::eval::CMachine`].
pub struct CSMachine<'a> {
    pub world: &'a World,
    pub params: &'a Params,
    pub w: u64,
    pub stack: Vec<SVal>,
    pub ok: Bool,
    holes: &'a Holes,
    /// The index of the operation being encoded.
    at: usize,
    op: &'static str,
}

impl CSMachine<'_> {
    /// An underflow after a successful check: a dioptra bug.
    fn underflow(&self) -> Diag {
        Diag::eval(
            self.op,
            "internal-error",
            "stack underflow after a successful check (a dioptra bug)",
        )
    }
    fn pop(&mut self) -> Result<SVal, Diag> {
        self.stack.pop().ok_or_else(|| self.underflow())
    }
    fn pop_pair(&mut self) -> Result<(SVal, SVal), Diag> {
        let top = self.pop()?;
        let second = self.pop()?;
        Ok((second, top))
    }
    fn push(&mut self, ty: CTy, v: BV) {
        debug_assert_eq!(v.get_size() as u64, ty.bits);
        self.stack.push(SVal { ty, v });
    }
    fn require(&mut self, c: &Bool) {
        self.ok = and(&self.ok, c);
    }
    fn generic(&self) -> CTy {
        CTy::generic(self.w)
    }
    /// The current operation's literal `v` at `bits` bits, or its hole.
    fn literal(&self, bits: u64, v: &BigInt) -> BV {
        match self.holes.literals.get(&self.at) {
            Some(h) => resize(h, bits as u32),
            None => wrapped_constant(bits, v),
        }
    }
}

/// The `bits`-wide constant `v` modulo `2^bits`.
fn wrapped_constant(bits: u64, v: &BigInt) -> BV {
    let m = BigInt::from(1u8) << bits;
    let r = ((v % &m) + &m) % &m;
    bv_big(bits as u32, &r.to_biguint().expect("reduced modulo 2^bits"))
}

/// Checks `e` against the world's operands and encodes it.
pub fn encode_classic(e: &ClassicExpr, world: &World, p: &Params) -> Result<Encoded, Diag> {
    encode_classic_with(e, world, p, &Holes::default())
}

/// [`encode_classic`] with some literals and upper bits left open.
pub fn encode_classic_with(
    e: &ClassicExpr,
    world: &World,
    p: &Params,
    holes: &Holes,
) -> Result<Encoded, Diag> {
    let sig = world.signature();
    let checked = check_classic(e, &sig, p)?;
    // The result is compared bit by bit: bounded like every encoded value.
    check_width(world.layout.bitsizeof(&checked.result))?;
    if e.ops.len() > MAX_SMT_CLASSIC_OPS {
        return Err(unsupported(
            "limit-exceeded",
            format!("the SMT encoding takes at most {MAX_SMT_CLASSIC_OPS} operations"),
        ));
    }
    let mut m = CSMachine {
        world,
        params: p,
        w: checked.w,
        stack: Vec::new(),
        ok: Bool::from_bool(true),
        holes,
        at: 0,
        op: "DW_OP_LLVM_arg",
    };
    if checked.implicit_push {
        encode_arg(&mut m, 0)?;
    }
    for (at, op) in e.ops[..checked.body].iter().enumerate() {
        m.at = at;
        m.op = op.name();
        encode_op(&mut m, op)?;
    }
    m.op = "DIExpression";
    let loc = match checked.kind {
        Kind::Operand(i) => world.args[i as usize].loc.clone()?,
        Kind::Undefined => SLoc::start(SStorage::Undefined),
        Kind::Implicit(_) => SLoc::start(SStorage::Implicit(m.pop()?.v)),
        Kind::Memory => memory_at(&m.pop()?.v),
        Kind::ImplicitPointer(levels) => {
            let target = world.args[0].loc.clone()?;
            (0..levels).fold(target, |target, _| {
                SLoc::start(SStorage::ImplicitAddress {
                    addrspace: 0,
                    bits: m.w,
                    target,
                })
            })
        }
    };
    Ok(Encoded {
        ty: checked.result,
        loc,
        ok: m.ok,
        fragment: checked.fragment,
    })
}

/// The memory location in address space 0 at the byte address `a`.
pub fn memory_at(a: &BV) -> SLoc {
    let bit = resize(a, OFF).bvshl(bv_u(OFF, 3));
    SLoc::at(SStorage::Memory { addrspace: 0 }, bit)
}

fn encode_op(m: &mut CSMachine, op: &COp) -> Result<(), Diag> {
    match op {
        COp::Arg(n) => encode_arg(m, *n),
        COp::Lit(n) => encode_constant(m, &BigInt::from(*n)),
        COp::Constu(c) => encode_constant(m, &BigInt::from(*c)),
        COp::Consts(c) => encode_constant(m, &BigInt::from(*c)),
        COp::Dup => encode_dup(m),
        COp::Drop => encode_drop(m),
        COp::Swap => encode_swap(m),
        COp::Over => encode_over(m),
        COp::Deref => encode_deref(m),
        COp::DerefSize(n) => encode_deref_size(m, *n),
        COp::Plus => encode_plus(m),
        COp::PlusUconst(c) => encode_plus_uconst(m, *c),
        COp::Minus => encode_minus(m),
        COp::Mul => encode_mul(m),
        COp::Div => encode_div(m),
        COp::Mod => encode_mod(m),
        COp::And => encode_bitwise(m, |a, b| a.bvand(b)),
        COp::Or => encode_bitwise(m, |a, b| a.bvor(b)),
        COp::Xor => encode_bitwise(m, |a, b| a.bvxor(b)),
        COp::Not => encode_not(m),
        COp::Neg => encode_neg(m),
        COp::Shl => encode_shift(m, |a, s| a.bvshl(s)),
        COp::Shr => encode_shift(m, |a, s| a.bvlshr(s)),
        COp::Shra => encode_shift(m, |a, s| a.bvashr(s)),
        COp::Eq | COp::Ne | COp::Lt | COp::Le | COp::Gt | COp::Ge => encode_relational(m, op),
        COp::Convert(bits, enc) => encode_convert(m, *bits, *enc),
        COp::ExtractBits {
            offset,
            len,
            signed,
        } => encode_extract_bits(m, *offset, *len, *signed),
        COp::TagOffset(_) => encode_tag_offset(m),
        COp::EntryValue(_) => encode_entry_value(m),
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

/// `DW_OP_LLVM_arg, N`: the operand read at its width, its upper bits per
/// the parameter (D-classic-high-bits).
pub fn encode_arg(m: &mut CSMachine, n: u32) -> Result<(), Diag> {
    let sig = m.world.signature();
    let bits = operand_bits(&sig, n)?;
    let ty = operand_type(&sig, n, m.w)?;
    let loc = m.world.args[n as usize].loc.clone()?;
    let r = read(m.world, &loc, bits)?;
    m.require(&r.ok);
    let w = m.w as u32;
    let v = match m.params.high {
        _ if bits >= m.w => r.value,
        High::Zero => resize(&r.value, w),
        High::Sign => resize_signed(&r.value, w),
        High::Any if bits < m.w => match m.holes.high.get(&n) {
            Some(h) => h.concat(&r.value),
            None => BV::new_const(format!("high{n}"), w - bits as u32).concat(&r.value),
        },
        High::Any => r.value,
    };
    m.push(ty, v);
    Ok(())
}

/// `DW_OP_LLVM_entry_value, 1`: the symbolic world has no entry state
/// (D-classic-entry-value).
pub fn encode_entry_value(m: &mut CSMachine) -> Result<(), Diag> {
    Err(Diag::unsupported(
        m.op,
        "no-entry-state",
        "the SMT encoding has no machine state on entry to the function",
    ))
}

pub fn encode_constant(m: &mut CSMachine, v: &BigInt) -> Result<(), Diag> {
    let g = m.generic();
    let k = m.literal(m.w, v);
    m.push(g, k);
    Ok(())
}

pub fn encode_dup(m: &mut CSMachine) -> Result<(), Diag> {
    super::shuffle::dup(&mut m.stack).ok_or_else(|| m.underflow())
}

pub fn encode_drop(m: &mut CSMachine) -> Result<(), Diag> {
    m.pop().map(|_| ())
}

pub fn encode_swap(m: &mut CSMachine) -> Result<(), Diag> {
    super::shuffle::swap(&mut m.stack).ok_or_else(|| m.underflow())
}

pub fn encode_over(m: &mut CSMachine) -> Result<(), Diag> {
    super::shuffle::over(&mut m.stack).ok_or_else(|| m.underflow())
}

pub fn encode_deref(m: &mut CSMachine) -> Result<(), Diag> {
    let w = m.w;
    deref_bits(m, w)
}

pub fn encode_deref_size(m: &mut CSMachine, n: u8) -> Result<(), Diag> {
    deref_bits(m, n as u64 * 8)
}

fn deref_bits(m: &mut CSMachine, bits: u64) -> Result<(), Diag> {
    let a = m.pop()?;
    let r = read(m.world, &memory_at(&a.v), bits)?;
    m.require(&r.ok);
    let g = m.generic();
    m.push(g, resize(&r.value, m.w as u32));
    Ok(())
}

pub fn encode_plus(m: &mut CSMachine) -> Result<(), Diag> {
    let (a, b) = m.pop_pair()?;
    m.push(a.ty, a.v.bvadd(&b.v));
    Ok(())
}

pub fn encode_plus_uconst(m: &mut CSMachine, c: u64) -> Result<(), Diag> {
    let a = m.pop()?;
    let k = m.literal(a.ty.bits, &BigInt::from(c));
    m.push(a.ty, a.v.bvadd(&k));
    Ok(())
}

pub fn encode_minus(m: &mut CSMachine) -> Result<(), Diag> {
    let (a, b) = m.pop_pair()?;
    m.push(a.ty, crate::smt::term::sub(&a.v, &b.v));
    Ok(())
}

pub fn encode_mul(m: &mut CSMachine) -> Result<(), Diag> {
    let (a, b) = m.pop_pair()?;
    m.push(a.ty, a.v.bvmul(&b.v));
    Ok(())
}

/// `DW_OP_div`: `bvsdiv` (which wraps `INT_MIN / -1`) or, for unsigned
/// base types, `bvudiv`; a zero divisor fails.
pub fn encode_div(m: &mut CSMachine) -> Result<(), Diag> {
    let (a, b) = m.pop_pair()?;
    let zero = bv_u(b.v.get_size(), 0);
    m.require(&b.v.eq(&zero).not());
    let q = if a.ty.signed_ops() {
        sdiv(&a.v, &b.v)
    } else {
        udiv(&a.v, &b.v)
    };
    m.push(a.ty, q);
    Ok(())
}

/// `DW_OP_mod`: `bvsrem` for signed base types, `bvurem` otherwise; a zero
/// divisor fails.
pub fn encode_mod(m: &mut CSMachine) -> Result<(), Diag> {
    let (a, b) = m.pop_pair()?;
    let zero = bv_u(b.v.get_size(), 0);
    m.require(&b.v.eq(&zero).not());
    let r = if a.ty.num == Num::Signed {
        srem(&a.v, &b.v)
    } else {
        urem(&a.v, &b.v)
    };
    m.push(a.ty, r);
    Ok(())
}

pub fn encode_bitwise(m: &mut CSMachine, f: fn(&BV, &BV) -> BV) -> Result<(), Diag> {
    let (a, b) = m.pop_pair()?;
    m.push(a.ty, f(&a.v, &b.v));
    Ok(())
}

pub fn encode_not(m: &mut CSMachine) -> Result<(), Diag> {
    let a = m.pop()?;
    m.push(a.ty, a.v.bvnot());
    Ok(())
}

pub fn encode_neg(m: &mut CSMachine) -> Result<(), Diag> {
    let a = m.pop()?;
    m.push(a.ty, a.v.bvneg());
    Ok(())
}

/// Shifts: z3's shifts saturate at the width like DWARF's
/// (D-dwarf-shift-amount) when the amount has the value's width; a wider
/// amount is clamped to the width first.
pub fn encode_shift(m: &mut CSMachine, f: fn(&BV, &BV) -> BV) -> Result<(), Diag> {
    let (a, s) = m.pop_pair()?;
    let (vb, sb) = (a.ty.bits as u32, s.ty.bits as u32);
    let amount = if sb <= vb {
        resize(&s.v, vb)
    } else {
        let limit = bv_u(sb, vb as u64);
        s.v.bvuge(&limit).ite(&limit, &s.v).extract(vb - 1, 0)
    };
    m.push(a.ty, f(&a.v, &amount));
    Ok(())
}

pub fn encode_relational(m: &mut CSMachine, op: &COp) -> Result<(), Diag> {
    let (a, b) = m.pop_pair()?;
    let (x, y) = (&a.v, &b.v);
    let s = a.ty.signed_ops();
    let c = match (op, s) {
        (COp::Eq, _) => x.eq(y),
        (COp::Ne, _) => x.eq(y).not(),
        (COp::Lt, true) => x.bvslt(y),
        (COp::Lt, false) => x.bvult(y),
        (COp::Le, true) => x.bvsle(y),
        (COp::Le, false) => x.bvule(y),
        (COp::Gt, true) => x.bvsgt(y),
        (COp::Gt, false) => x.bvugt(y),
        (_, true) => x.bvsge(y),
        (_, false) => x.bvuge(y),
    };
    let w = m.w as u32;
    let g = m.generic();
    m.push(g, c.ite(&bv_u(w, 1), &bv_u(w, 0)));
    Ok(())
}

pub fn encode_convert(m: &mut CSMachine, bits: u64, enc: Encoding) -> Result<(), Diag> {
    let a = m.pop()?;
    let v = if a.ty.num == Num::Signed {
        resize_signed(&a.v, bits as u32)
    } else {
        resize(&a.v, bits as u32)
    };
    let num = match enc {
        Encoding::Signed => Num::Signed,
        Encoding::Unsigned => Num::Unsigned,
    };
    m.push(CTy { bits, num }, v);
    Ok(())
}

pub fn encode_extract_bits(
    m: &mut CSMachine,
    offset: u64,
    len: u64,
    signed: bool,
) -> Result<(), Diag> {
    let a = m.pop()?;
    let field = a.v.extract((offset + len - 1) as u32, offset as u32);
    let v = if signed {
        resize_signed(&field, a.ty.bits as u32)
    } else {
        resize(&field, a.ty.bits as u32)
    };
    m.push(a.ty, v);
    Ok(())
}

/// `DW_OP_LLVM_tag_offset, N`: "specifies that a memory tag should be
/// optionally applied to the pointer. The memory tag is derived from the
/// given tag offset in an implementation-defined manner" (LangRef). The
/// stack and the location are unchanged (D-tag-offset).
pub fn encode_tag_offset(_m: &mut CSMachine) -> Result<(), Diag> {
    Ok(())
}
