//! The SMT twin of `eval.rs`: one `encode_<op>` per operation, in the
//! spec's order, each the same rule as its `eval_<op>` over z3 terms.
//!
//! Evaluation of a well-formed expression either fails (an evaluation
//! error) or gives a location. The encoding gives a location and `ok`, the
//! condition under which no op fails: the twin of "evaluation succeeds",
//! kept beside the location the way Alive2 keeps poison beside values.

use super::loc::{composite, offset_by, read, unsupported, SLoc, SPart, SStorage};
use super::term::{
    and, ashr, bv_big, bv_of, bv_u, float_bits, float_from_bits, float_from_signed, lshr, off_u,
    resize, resize_signed, sdiv, shl, srem, OFF,
};
use super::world::{check_width, World};
use crate::diag::Diag;
use crate::limits::MAX_LOCATION_DEPTH;
use crate::syntax::{Expr, Literal, Op};
use crate::types::Type;
use crate::value::literal_bits;
use crate::wellformed::check;
use num_traits::One;
use z3::ast::{Bool, Float, BV};

/// The most ops an encoded expression may have.
pub const MAX_SMT_OPS: usize = 512;

/// One stack element: a type and a symbolic location.
#[derive(Clone, Debug)]
pub struct SEntry {
    pub ty: Type,
    pub loc: SLoc,
}

/// An encoded expression.
pub struct Encoded {
    pub ty: Type,
    pub loc: SLoc,
    /// Evaluation succeeds exactly when this holds.
    pub ok: Bool,
    pub fragment: Option<(u64, u64)>,
}

/// The encoding state: the twin of `eval::Machine`.
pub struct SMachine<'a> {
    pub world: &'a World,
    pub stack: Vec<SEntry>,
    pub ok: Bool,
    op: &'static str,
}

impl SMachine<'_> {
    fn pop(&mut self) -> Result<SEntry, Diag> {
        self.stack.pop().ok_or_else(|| {
            Diag::eval(
                self.op,
                "internal-error",
                "stack underflow after a successful check (a dioptra bug)",
            )
        })
    }
    fn push(&mut self, ty: Type, loc: SLoc) {
        self.stack.push(SEntry { ty, loc });
    }
    fn bits(&self, t: &Type) -> u64 {
        self.world.layout.bitsizeof(t)
    }
    /// Adds a condition evaluation needs.
    fn require(&mut self, c: &Bool) {
        self.ok = and(&self.ok, c);
    }
    /// `read(L, T)`; its failure condition joins `ok`.
    fn read(&mut self, e: &SEntry) -> Result<BV, Diag> {
        let n = self.bits(&e.ty);
        check_width(n)?;
        let r = read(self.world, &e.loc, n)?;
        self.require(&r.ok);
        Ok(r.value)
    }
    fn push_implicit(&mut self, ty: Type, v: BV) {
        self.push(ty, SLoc::start(SStorage::Implicit(v)));
    }
    fn input(&self, i: Option<&super::world::SInput>, what: &str) -> Result<SLoc, Diag> {
        match i {
            None => Err(Diag::eval(
                self.op,
                "internal-error",
                format!("no {what} after a successful check"),
            )),
            Some(i) => i.loc.clone(),
        }
    }
}

/// Checks `expr` against the world's signature and encodes it.
pub fn encode(expr: &Expr, world: &World) -> Result<Encoded, Diag> {
    let checked = check(expr, &world.signature())?;
    if expr.ops.len() > MAX_SMT_OPS {
        return Err(unsupported(
            "limit-exceeded",
            format!("the SMT encoding takes at most {MAX_SMT_OPS} ops"),
        ));
    }
    let mut m = SMachine {
        world,
        stack: Vec::new(),
        ok: Bool::from_bool(true),
        op: "DIExpr",
    };
    for op in &expr.ops {
        m.op = op.name();
        match op {
            Op::Referrer(t) => encode_referrer(&mut m, t)?,
            Op::Arg(n, t) => encode_arg(&mut m, *n, t)?,
            Op::TypeObject(t) => encode_type_object(&mut m, t)?,
            Op::Constant(t, v) => encode_constant(&mut m, t, v)?,
            Op::Convert(t) => encode_convert(&mut m, t)?,
            Op::ZExt(t) => encode_zext(&mut m, t)?,
            Op::SExt(t) => encode_sext(&mut m, t)?,
            Op::Reinterpret(t) => encode_reinterpret(&mut m, t)?,
            Op::BitOffset(t) => encode_bit_offset(&mut m, t)?,
            Op::ByteOffset(t) => encode_byte_offset(&mut m, t)?,
            Op::Composite(n, t) => encode_composite(&mut m, *n, t)?,
            Op::Extend(n) => encode_extend(&mut m, *n)?,
            Op::Select => encode_select(&mut m)?,
            Op::AddrOf(n) => encode_addr_of(&mut m, *n)?,
            Op::Deref(t) => encode_deref(&mut m, t)?,
            Op::Read => encode_read(&mut m)?,
            Op::Add => encode_add(&mut m)?,
            Op::Sub => encode_sub(&mut m)?,
            Op::Mul => encode_mul(&mut m)?,
            Op::Div => encode_div(&mut m)?,
            Op::LShr => encode_lshr(&mut m)?,
            Op::AShr => encode_ashr(&mut m)?,
            Op::Shl => encode_shl(&mut m)?,
            Op::PushLane(t) => encode_push_lane(&mut m, t)?,
            Op::Fragment(o, s) => encode_fragment(&mut m, *o, *s)?,
            Op::And => encode_and(&mut m)?,
            Op::Or => encode_or(&mut m)?,
            Op::Xor => encode_xor(&mut m)?,
            Op::Mod => encode_mod(&mut m)?,
        }
    }
    m.op = "DIExpr";
    let e = m.pop()?;
    Ok(Encoded {
        ty: e.ty,
        loc: e.loc,
        ok: m.ok,
        fragment: checked.fragment,
    })
}

/// `DIOpReferrer(T:type) { -> (L:T) }`: the referrer's location.
pub fn encode_referrer(m: &mut SMachine, t: &Type) -> Result<(), Diag> {
    let l = m.input(m.world.referrer.as_ref(), "referrer")?;
    m.push(t.clone(), l);
    Ok(())
}

/// `DIOpArg(N:unsigned, T:type) { -> (L:T) }`: the `N`th input's location.
pub fn encode_arg(m: &mut SMachine, n: u32, t: &Type) -> Result<(), Diag> {
    let l = m.input(m.world.args.get(n as usize), "input")?;
    m.push(t.clone(), l);
    Ok(())
}

/// `DIOpTypeObject(T:type) { -> (L:T) }`: the type object's location.
pub fn encode_type_object(m: &mut SMachine, t: &Type) -> Result<(), Diag> {
    let l = m.input(m.world.type_object.as_ref(), "type object")?;
    m.push(t.clone(), l);
    Ok(())
}

/// `DIOpConstant(T:type V:literal) { -> (L:T) }`: undefined for `undef`,
/// otherwise an implicit location holding `V`.
pub fn encode_constant(m: &mut SMachine, t: &Type, v: &Literal) -> Result<(), Diag> {
    check_width(m.bits(t))?;
    match literal_bits(t, v, &m.world.layout)? {
        None => m.push(t.clone(), SLoc::start(SStorage::Undefined)),
        Some(b) => m.push_implicit(t.clone(), bv_of(&b)),
    }
    Ok(())
}

/// `DIOpConvert(T':type) { (L:T) -> (L':T') }`: `read(L, T)` converted to
/// `T'`, with the rules of D-convert-semantics.
pub fn encode_convert(m: &mut SMachine, to: &Type) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    let w = m.bits(to) as u32;
    check_width(w as u64)?;
    let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
    encodable_float(&e.ty)?;
    encodable_float(to)?;
    let out = if e.ty.is_float() && to.is_float() {
        let f = float_from_bits(&v, &e.ty);
        float_bits(
            &f.to_fp_with_rounding_mode(&rne, &super::term::float_sort(to)),
            to,
        )
    } else if e.ty.is_float() {
        // Truncate toward zero; NaN, infinities and values outside the
        // signed range of `T'` fail (`out-of-range`).
        let f = float_from_bits(&v, &e.ty);
        let (bits, fits) = super::term::float_to_int(&f, &e.ty, w, true);
        m.require(&fits);
        bits
    } else if to.is_float() {
        float_bits(&float_from_signed(&v, to), to)
    } else {
        resize(&v, w)
    };
    m.push_implicit(to.clone(), out);
    Ok(())
}

/// `DIOpZExt(T':type) { (L:T) -> (L':T') }`: `read(L, T)` zero-extended.
pub fn encode_zext(m: &mut SMachine, to: &Type) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    let w = m.bits(to);
    check_width(w)?;
    m.push_implicit(to.clone(), resize(&v, w as u32));
    Ok(())
}

/// `DIOpSExt(T':type) { (L:T) -> (L':T') }`: `read(L, T)` sign-extended.
pub fn encode_sext(m: &mut SMachine, to: &Type) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    let w = m.bits(to);
    check_width(w)?;
    m.push_implicit(to.clone(), resize_signed(&v, w as u32));
    Ok(())
}

/// `DIOpReinterpret(T':type) { (L:T) -> (L:T') }`: the same location.
pub fn encode_reinterpret(m: &mut SMachine, to: &Type) -> Result<(), Diag> {
    let e = m.pop()?;
    m.push(to.clone(), e.loc);
    Ok(())
}

/// Moves the location on the stack by `delta` bits (a signed `OFF`-bit term).
fn offset(m: &mut SMachine, to: &Type, (delta, fits): (BV, Bool)) -> Result<(), Diag> {
    let l = m.pop()?;
    let (moved, ok) = offset_by(m.world, &l.loc, &delta, &fits);
    m.require(&ok);
    m.push(to.clone(), moved);
    Ok(())
}

/// The offset operand, read signed (D-offset-signed) and times 8 for
/// bytes, as an `OFF`-bit term, and whether it fits there: a displacement of
/// `2^79` bits or more leaves every storage (memory has at most `2^67`
/// bits), so only the condition survives.
fn offset_operand(m: &mut SMachine, bytes: bool) -> Result<(BV, Bool), Diag> {
    let b = m.pop()?;
    let v = m.read(&b)?;
    let wide = v.get_size().max(OFF) + 4;
    let mut d = resize_signed(&v, wide);
    if bytes {
        d = d.bvshl(bv_u(wide, 3));
    }
    let fits = d.eq(resize_signed(&resize(&d, OFF), wide));
    Ok((resize(&d, OFF), fits))
}

/// `DIOpBitOffset(T':type) { (B:I) (L:T) -> (L':T') }`: `L` with
/// `read(B, I)` added to its bit offset.
pub fn encode_bit_offset(m: &mut SMachine, to: &Type) -> Result<(), Diag> {
    let d = offset_operand(m, false)?;
    offset(m, to, d)
}

/// `DIOpByteOffset(T':type) { (B:I) (L:T) -> (L':T') }`: as `DIOpBitOffset`
/// with `B * 8`, exact (D-byteoffset-exact).
pub fn encode_byte_offset(m: &mut SMachine, to: &Type) -> Result<(), Diag> {
    let d = offset_operand(m, true)?;
    offset(m, to, d)
}

/// `DIOpComposite(N:unsigned, T:type) { (L1:T1) ... (LN:TN) -> (L:T) }`:
/// `LN` at offset 0 (D-stack-order), the overlap rule as a condition.
pub fn encode_composite(m: &mut SMachine, n: u32, t: &Type) -> Result<(), Diag> {
    let mut parts = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let e = m.pop()?;
        parts.push(SPart {
            bits: m.bits(&e.ty),
            loc: e.loc,
        });
    }
    parts.reverse();
    let (loc, ok) = composite(m.world, parts)?;
    m.require(&ok);
    m.push(t.clone(), loc);
    Ok(())
}

/// `DIOpExtend(N:unsigned) { (L:T) -> (L':<N x T>) }`: `N` copies of `L`
/// composed (D-extend-overlap).
pub fn encode_extend(m: &mut SMachine, n: u32) -> Result<(), Diag> {
    if n as usize > MAX_SMT_OPS {
        return Err(unsupported(
            "limit-exceeded",
            "DIOpExtend of too many lanes",
        ));
    }
    let e = m.pop()?;
    let bits = m.bits(&e.ty);
    let parts = (0..n)
        .map(|_| SPart {
            bits,
            loc: e.loc.clone(),
        })
        .collect();
    let (loc, ok) = composite(m.world, parts)?;
    m.require(&ok);
    let ty = Type::Vector {
        count: n as u64,
        elem: std::sync::Arc::new(e.ty),
    };
    m.push(ty, loc);
    Ok(())
}

/// `DIOpSelect() { (LM:TM) (L1:<N x T>) (L0:<N x T>) -> (L:<N x T>) }`:
/// lane `I` is `L1` or `L0` (by bit `I` of the mask) moved by
/// `I * bitsizeof(T)`.
pub fn encode_select(m: &mut SMachine) -> Result<(), Diag> {
    let lm = m.pop()?;
    let l1 = m.pop()?;
    let l0 = m.pop()?;
    let mask = m.read(&lm)?;
    let Type::Vector { count, elem } = &l1.ty else {
        return Err(Diag::eval(
            m.op,
            "internal-error",
            "select of a non-vector after a successful check",
        ));
    };
    let (count, size) = (*count, m.bits(elem));
    if count as usize > MAX_SMT_OPS {
        return Err(unsupported(
            "limit-exceeded",
            "DIOpSelect of too many lanes",
        ));
    }
    let mut parts = Vec::with_capacity(count as usize);
    for i in 0..count {
        let bit = if i < mask.get_size() as u64 {
            mask.extract(i as u32, i as u32).eq(bv_u(1, 1))
        } else {
            Bool::from_bool(false)
        };
        let delta = off_u((i * size) as u128);
        let (a, oa) = offset_by(m.world, &l1.loc, &delta, &Bool::from_bool(true));
        let (b, ob) = offset_by(m.world, &l0.loc, &delta, &Bool::from_bool(true));
        m.require(&bit.ite(&oa, &ob));
        parts.push(SPart {
            bits: size,
            loc: SLoc::ite(&bit, a, b),
        });
    }
    let (loc, ok) = composite(m.world, parts)?;
    m.require(&ok);
    m.push(l1.ty.clone(), loc);
    Ok(())
}

/// `DIOpAddrOf(N:addrspace) { (L:T) -> (L':ptr addrspace(N)) }`: an implicit
/// address referring to `L`.
pub fn encode_addr_of(m: &mut SMachine, n: u32) -> Result<(), Diag> {
    let e = m.pop()?;
    if e.loc.depth() + 1 > MAX_LOCATION_DEPTH {
        return Err(unsupported("limit-exceeded", "locations nested too deeply"));
    }
    let ty = Type::ptr(n);
    let bits = m.bits(&ty);
    let st = SStorage::ImplicitAddress {
        addrspace: n,
        bits,
        target: e.loc,
    };
    m.push(ty, SLoc::start(st));
    Ok(())
}

/// `DIOpDeref(T:type) { (L:ptr addrspace(N)) -> (L':T) }`: the target of an
/// implicit address at offset 0 (D-deref-addrof-type), otherwise memory of
/// address space `N` at `read(L, ptr addrspace(N)) * 8`.
pub fn encode_deref(m: &mut SMachine, t: &Type) -> Result<(), Diag> {
    let p = m.pop()?;
    let n = p.ty.addrspace().unwrap_or(0);
    let bits = m.bits(&p.ty);
    let (loc, ok) = deref(m.world, &p.loc, n, bits)?;
    m.require(&ok);
    m.push(t.clone(), loc);
    Ok(())
}

fn deref(w: &World, l: &SLoc, n: u32, bits: u64) -> Result<(SLoc, Bool), Diag> {
    match l {
        SLoc::Ite(c, a, b) => {
            let (a, oa) = deref(w, a, n, bits)?;
            let (b, ob) = deref(w, b, n, bits)?;
            Ok((SLoc::ite(c, a, b), c.ite(&oa, &ob)))
        }
        // Several places: only a single implicit address dereferences to
        // its target; the pointer value is read from every place.
        SLoc::Multi(_) => {
            let r = read(w, l, bits)?;
            let addr = resize(&r.value, OFF).bvshl(off_u(3));
            Ok((SLoc::at(SStorage::Memory { addrspace: n }, addr), r.ok))
        }
        SLoc::One(s, off) => {
            if let SStorage::ImplicitAddress { target, .. } = &**s {
                // At offset 0 the target; elsewhere the bits of an implicit
                // address are read, which fails.
                return Ok((target.clone(), off.eq(off_u(0))));
            }
            let r = read(w, l, bits)?;
            let addr = resize(&r.value, OFF).bvshl(off_u(3));
            Ok((SLoc::at(SStorage::Memory { addrspace: n }, addr), r.ok))
        }
    }
}

/// `DIOpRead() { (L:T) -> (L':T) }`: an implicit location holding
/// `read(L, T)`.
pub fn encode_read(m: &mut SMachine) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    m.push_implicit(e.ty, v);
    Ok(())
}

/// Pops `(L1:T) (L2:T)` and reads `V1 = read(L1, T)` (top), `V2 = read(L2, T)`.
fn pop_pair(m: &mut SMachine) -> Result<(Type, BV, BV), Diag> {
    let e1 = m.pop()?;
    let e2 = m.pop()?;
    let v1 = m.read(&e1)?;
    let v2 = m.read(&e2)?;
    Ok((e1.ty, v1, v2))
}

/// An IEEE operation `a op b` in the format of `t` (D-float-arithmetic).
fn float_op(t: &Type, a: &BV, b: &BV, op: fn(&Float, &Float) -> Float) -> Result<BV, Diag> {
    encodable_float(t)?;
    Ok(float_bits(
        &op(&float_from_bits(a, t), &float_from_bits(b, t)),
        t,
    ))
}

/// Every floating-point format but `ppc_fp128` is a z3 sort (D-float-formats):
/// a `ppc_fp128` is the unrounded sum of two doubles, which z3's IEEE
/// theory cannot hold, so arithmetic on it and conversions into or out of
/// it are `unsupported` here (the interpreter computes them).
fn encodable_float(t: &Type) -> Result<(), Diag> {
    if *t == Type::PpcFp128 {
        return Err(unsupported(
            "float-format",
            "`ppc_fp128` (a pair of doubles) has no z3 floating-point sort",
        ));
    }
    Ok(())
}

/// `DIOpAdd() { (L1:T) (L2:T) -> (L:T) }`: `V2 + V1`, wrapping
/// (D-integer-wrap) or IEEE.
pub fn encode_add(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    // In the spec's order, `V2 + V1`: IEEE addition commutes, but the
    // solver proves the two orders equal only by bit-blasting, so a twin
    // written in the other order (the DWARF encoding's `second + top`)
    // would cost seconds per query.
    let r = if t.is_float() {
        float_op(&t, &v2, &v1, |a, b| {
            a.add_with_rounding_mode(b, &z3::ast::RoundingMode::round_nearest_ties_to_even())
        })?
    } else {
        v2.bvadd(&v1)
    };
    m.push_implicit(t, r);
    Ok(())
}

/// `DIOpSub() { (L1:T) (L2:T) -> (L:T) }`: `V2 - V1` (D-binary-operand-order).
pub fn encode_sub(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    let r = if t.is_float() {
        float_op(&t, &v2, &v1, |a, b| {
            a.sub_with_rounding_mode(b, &z3::ast::RoundingMode::round_nearest_ties_to_even())
        })?
    } else {
        super::term::sub(&v2, &v1)
    };
    m.push_implicit(t, r);
    Ok(())
}

/// `DIOpMul() { (L1:T) (L2:T) -> (L:T) }`: `V2 * V1`.
pub fn encode_mul(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    let r = if t.is_float() {
        float_op(&t, &v2, &v1, |a, b| {
            a.mul_with_rounding_mode(b, &z3::ast::RoundingMode::round_nearest_ties_to_even())
        })?
    } else {
        v2.bvmul(&v1)
    };
    m.push_implicit(t, r);
    Ok(())
}

/// `DIOpDiv() { (L1:T) (L2:T) -> (L:T) }`: `V2 / V1`, signed, truncating;
/// a zero divisor and `INT_MIN / -1` fail (D-div-signed).
pub fn encode_div(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    if t.is_float() {
        let r = float_op(&t, &v2, &v1, |a, b| {
            a.div_with_rounding_mode(b, &z3::ast::RoundingMode::round_nearest_ties_to_even())
        })?;
        m.push_implicit(t, r);
        return Ok(());
    }
    let w = v1.get_size();
    let zero = bv_u(w, 0);
    let min = bv_big(w, &(num_bigint::BigUint::one() << (w - 1)));
    let minus_one = BV::from_i64(-1, w);
    let overflow = and(&v2.eq(&min), &v1.eq(&minus_one));
    m.require(&Bool::and(&[&v1.eq(&zero).not(), &overflow.not()]));
    m.push_implicit(t, sdiv(&v2, &v1));
    Ok(())
}

/// `DIOpLShr() { (L1:T) (L2:T) -> (L:T) }`: `V2 >> V1`, zero-filled; an
/// amount of at least the width gives 0 (D-shift-amounts), as `bvlshr`.
pub fn encode_lshr(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    m.push_implicit(t, lshr(&v2, &v1));
    Ok(())
}

/// `DIOpAShr() { (L1:T) (L2:T) -> (L:T) }`: `V2 >> V1`, sign-filled; an
/// amount of at least the width gives all sign bits, as `bvashr`.
pub fn encode_ashr(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    m.push_implicit(t, ashr(&v2, &v1));
    Ok(())
}

/// `DIOpShl() { (L1:T) (L2:T) -> (L:T) }`: `V2 << V1`; an amount of at least
/// the width gives 0, as `bvshl`.
pub fn encode_shl(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    m.push_implicit(t, shl(&v2, &v1));
    Ok(())
}

/// `DIOpPushLane(T:type) { -> (L:T) }`: the lane id, which must fit in `T`
/// (D-lane-range).
pub fn encode_push_lane(m: &mut SMachine, t: &Type) -> Result<(), Diag> {
    let Some(lane) = m.world.lane.clone() else {
        return Err(Diag::eval(
            m.op,
            "internal-error",
            "no lane after a successful check",
        ));
    };
    let w = m.bits(t);
    check_width(w)?;
    if w < 64 {
        m.require(&lane.bvlshr(bv_u(64, w)).eq(bv_u(64, 0)));
    }
    m.push_implicit(t.clone(), resize(&lane, w as u32));
    Ok(())
}

/// `DIOpFragment(O:unsigned, S:unsigned) { -> }`: no effect.
pub fn encode_fragment(_m: &mut SMachine, _o: u64, _s: u64) -> Result<(), Diag> {
    Ok(())
}

/// ROCm `DIOpAnd() { (L1:T) (L2:T) -> (L:T) }`: `V2 & V1`.
pub fn encode_and(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    m.push_implicit(t, v2.bvand(&v1));
    Ok(())
}

/// ROCm `DIOpOr() { (L1:T) (L2:T) -> (L:T) }`: `V2 | V1`.
pub fn encode_or(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    m.push_implicit(t, v2.bvor(&v1));
    Ok(())
}

/// ROCm `DIOpXor() { (L1:T) (L2:T) -> (L:T) }`: `V2 ^ V1`.
pub fn encode_xor(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    m.push_implicit(t, v2.bvxor(&v1));
    Ok(())
}

/// ROCm `DIOpMod() { (L1:T) (L2:T) -> (L:T) }`: the signed remainder of
/// `V2 / V1` (sign of the dividend, `bvsrem`); a zero divisor fails
/// (D-mod-signed); written as `term::srem`.
pub fn encode_mod(m: &mut SMachine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    let w = v1.get_size();
    m.require(&v1.eq(bv_u(w, 0)).not());
    m.push_implicit(t, srem(&v2, &v1));
    Ok(())
}
