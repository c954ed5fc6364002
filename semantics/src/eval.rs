//! Evaluation: one `eval_<op>` per operation, in the spec's order.
//!
//! Spec, `DIExpr`: "The evaluation of the expression is performed on an
//! initially empty stack where each stack element is a tuple of a type and a
//! location description. The expression is evaluated by evaluating each of its
//! operations sequentially." Evaluation runs only on expressions that passed
//! `wellformed::check` against the context's signature, so the stack shapes
//! and types are known to be right here.

use crate::bits::Bits;
use crate::context::Context;
use crate::diag::Diag;
use crate::float::{self, FloatOp};
use crate::limits::MAX_EVAL_WORK;
use crate::location::{composite, read, LocDesc, Part, ReadFail, Storage};
use crate::syntax::{Expr, Literal, Op};
use crate::types::Type;
use crate::value::{fits_signed, float_binop, float_value, literal_bits};
use crate::wellformed::check;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

/// A typed location description: one stack element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub ty: Type,
    pub loc: LocDesc,
}

/// The result of evaluating an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluated {
    pub ty: Type,
    pub loc: LocDesc,
    /// `DIOpFragment(O, S)`, if present.
    pub fragment: Option<(u64, u64)>,
}

impl Evaluated {
    /// `read(L, T)` of the result, when every bit is readable.
    pub fn value(&self, ctx: &dyn Context) -> Result<Bits, Diag> {
        let n = ctx.layout().bitsizeof(&self.ty);
        read(ctx, &self.loc, n).map_err(|e| e.at("read"))
    }
}

/// The evaluation stack and what evaluating an op needs.
pub struct Machine<'a> {
    pub ctx: &'a dyn Context,
    pub stack: Vec<Entry>,
    op: &'static str,
    /// Work done so far (see `limits::MAX_EVAL_WORK`).
    work: u64,
}

impl Machine<'_> {
    fn pop(&mut self) -> Result<Entry, Diag> {
        // Well-formedness guarantees the entry; a failure here is a bug in
        // dioptra, reported rather than panicking.
        self.stack.pop().ok_or_else(|| {
            Diag::eval(
                self.op,
                "internal-error",
                "stack underflow after a successful check (a dioptra bug)",
            )
        })
    }
    fn push(&mut self, ty: Type, loc: LocDesc) {
        self.stack.push(Entry { ty, loc });
    }
    /// Counts `units` of work against the budget.
    fn charge(&mut self, units: u64) -> Result<(), Diag> {
        self.work = self.work.saturating_add(units);
        if self.work > MAX_EVAL_WORK {
            return Err(Diag::unsupported(
                self.op,
                "limit-exceeded",
                format!("the evaluation needs more than {MAX_EVAL_WORK} units of work (dioptra's bound)"),
            ));
        }
        Ok(())
    }
    fn bits(&self, t: &Type) -> u64 {
        self.ctx.layout().bitsizeof(t)
    }
    /// `read(L, T)`; failures are reported against the current op.
    fn read(&mut self, e: &Entry) -> Result<Bits, Diag> {
        let n = self.bits(&e.ty);
        self.charge(n)?;
        // Most entries are the value an op pushed: one implicit location
        // at offset 0 holding exactly `n` bits, whose read is that value
        // (what `read` gives, without its general path).
        if let [s] = e.loc.singles() {
            if let (0, Storage::Implicit(v)) = (s.offset, &*s.storage) {
                if v.width() == n {
                    return Ok(v.clone());
                }
            }
        }
        read(self.ctx, &e.loc, n).map_err(|f| f.at(self.op))
    }
    fn fail(&self, f: ReadFail) -> Diag {
        f.at(self.op)
    }
    fn err(&self, reason: &'static str, msg: impl Into<String>) -> Diag {
        Diag::eval(self.op, reason, msg)
    }
    /// Pushes an implicit location description holding `v`: "`L` comprises
    /// one implicit location description `IL`. `IL` specifies implicit
    /// location storage `ILS` and offset 0."
    fn push_implicit(&mut self, ty: Type, v: Bits) {
        self.push(ty, LocDesc::implicit(v));
    }
}

/// Checks and evaluates `expr` in `ctx`.
pub fn eval(expr: &Expr, ctx: &dyn Context) -> Result<Evaluated, Diag> {
    let checked = check(expr, &ctx.signature())?;
    let mut m = Machine {
        ctx,
        stack: Vec::new(),
        op: "DIExpr",
        work: 0,
    };
    for op in &expr.ops {
        m.op = op.name();
        m.charge(1)?;
        match op {
            Op::Referrer(t) => eval_referrer(&mut m, t)?,
            Op::Arg(n, t) => eval_arg(&mut m, *n, t)?,
            Op::TypeObject(t) => eval_type_object(&mut m, t)?,
            Op::Constant(t, v) => eval_constant(&mut m, t, v)?,
            Op::Convert(t) => eval_convert(&mut m, t)?,
            Op::ZExt(t) => eval_zext(&mut m, t)?,
            Op::SExt(t) => eval_sext(&mut m, t)?,
            Op::Reinterpret(t) => eval_reinterpret(&mut m, t)?,
            Op::BitOffset(t) => eval_bit_offset(&mut m, t)?,
            Op::ByteOffset(t) => eval_byte_offset(&mut m, t)?,
            Op::Composite(n, t) => eval_composite(&mut m, *n, t)?,
            Op::Extend(n) => eval_extend(&mut m, *n)?,
            Op::Select => eval_select(&mut m)?,
            Op::AddrOf(n) => eval_addr_of(&mut m, *n)?,
            Op::Deref(t) => eval_deref(&mut m, t)?,
            Op::Read => eval_read(&mut m)?,
            Op::Add => eval_add(&mut m)?,
            Op::Sub => eval_sub(&mut m)?,
            Op::Mul => eval_mul(&mut m)?,
            Op::Div => eval_div(&mut m)?,
            Op::LShr => eval_lshr(&mut m)?,
            Op::AShr => eval_ashr(&mut m)?,
            Op::Shl => eval_shl(&mut m)?,
            Op::PushLane(t) => eval_push_lane(&mut m, t)?,
            Op::Fragment(o, s) => eval_fragment(&mut m, *o, *s)?,
            Op::And => eval_and(&mut m)?,
            Op::Or => eval_or(&mut m)?,
            Op::Xor => eval_xor(&mut m)?,
            Op::Mod => eval_mod(&mut m)?,
        }
    }
    m.op = "DIExpr";
    let e = m.pop()?;
    Ok(Evaluated {
        ty: e.ty,
        loc: e.loc,
        fragment: checked.fragment,
    })
}

/// `DIOpReferrer(T:type) { -> (L:T) }`
///
/// "`L` is the location description of the referrer `R` of the associated
/// lifetime segment `LS`."
pub fn eval_referrer(m: &mut Machine, t: &Type) -> Result<(), Diag> {
    let r = m
        .ctx
        .referrer()
        .ok_or_else(|| m.err("internal-error", "no referrer after a successful check"))?;
    m.push(t.clone(), r.loc.clone());
    Ok(())
}

/// `DIOpArg(N:unsigned, T:type) { -> (L:T) }`
///
/// "`L` is the location description of the `N`th zero-based input `I` to the
/// expression."
pub fn eval_arg(m: &mut Machine, n: u32, t: &Type) -> Result<(), Diag> {
    let i = m
        .ctx
        .args()
        .get(n as usize)
        .ok_or_else(|| m.err("internal-error", "missing input after a successful check"))?;
    m.push(t.clone(), i.loc.clone());
    Ok(())
}

/// `DIOpTypeObject(T:type) { -> (L:T) }`
///
/// "`L` is the location description of the instance `O` of an object of type
/// `LT` for which the type property `TP` is being evaluated."
pub fn eval_type_object(m: &mut Machine, t: &Type) -> Result<(), Diag> {
    let o = m
        .ctx
        .type_object()
        .ok_or_else(|| m.err("internal-error", "no type object after a successful check"))?;
    m.push(t.clone(), o.loc.clone());
    Ok(())
}

/// `DIOpConstant(T:type V:literal) { -> (L:T) }`
///
/// "If `V` is the `undef` value, then `L` comprises one undefined location
/// description `IL`. Otherwise, `L` comprises one implicit location
/// description `IL`. `IL` specifies implicit location storage `ILS` and offset
/// 0. `ILS` has value `V` and size `bitsizeof(T)`."
pub fn eval_constant(m: &mut Machine, t: &Type, v: &Literal) -> Result<(), Diag> {
    m.charge(m.bits(t))?;
    match literal_bits(t, v, m.ctx.layout())? {
        None => m.push(t.clone(), LocDesc::undefined()),
        Some(b) => m.push_implicit(t.clone(), b),
    }
    Ok(())
}

/// `DIOpConvert(T':type) { (L:T) -> (L':T') }`
///
/// "`V` is the value `read(L, T)` converted to type `T'`."
///
/// DECISION (D-convert-semantics): integral to integral truncates (keeps the low bits); integral to
/// floating point reads the integer as signed and rounds to nearest-even;
/// floating point to integral truncates toward zero to a signed integer, and
/// NaN, infinities and values out of the signed range of `T'` are an
/// evaluation error (`out-of-range`); floating point to floating point rounds
/// to nearest-even; pointers convert as unsigned integers (zero-extended or
/// truncated).
pub fn eval_convert(m: &mut Machine, to: &Type) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    let w = m.bits(to);
    let out = if e.ty.is_float() && to.is_float() {
        Bits::from_u128(w, float::convert(&e.ty, to, float_value(&v)))
    } else if e.ty.is_float() {
        let i = float::float_to_int(&e.ty, float_value(&v))
            .filter(|i| fits_signed(i, w))
            .ok_or_else(|| {
                m.err(
                    "out-of-range",
                    format!(
                        "{} is not a value of `{to}`",
                        float::text(&e.ty, float_value(&v))
                    ),
                )
            })?;
        Bits::from_bigint(w, &i)
    } else if to.is_float() {
        Bits::from_u128(w, float::int_to_float(to, &v.signed()))
    } else {
        v.zext(w)
    };
    m.push_implicit(to.clone(), out);
    Ok(())
}

/// `DIOpZExt(T':type) { (L:T) -> (L':T') }`
///
/// "`V` is the value `read(L, T)` zero-extended to type `T'`."
pub fn eval_zext(m: &mut Machine, to: &Type) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    m.push_implicit(to.clone(), v.zext(m.bits(to)));
    Ok(())
}

/// `DIOpSExt(T':type) { (L:T) -> (L':T') }`
///
/// "`V` is the value `read(L, T)` sign-extended to type `T'`."
pub fn eval_sext(m: &mut Machine, to: &Type) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    m.push_implicit(to.clone(), v.sext(m.bits(to)));
    Ok(())
}

/// `DIOpReinterpret(T':type) { (L:T) -> (L:T') }`
///
/// The location is unchanged; only its type is.
pub fn eval_reinterpret(m: &mut Machine, to: &Type) -> Result<(), Diag> {
    let e = m.pop()?;
    m.push(to.clone(), e.loc);
    Ok(())
}

/// Moves `l` by `delta` bits.
fn offset(m: &mut Machine, to: &Type, delta: BigInt) -> Result<(), Diag> {
    let l = m.pop()?;
    let moved = l.loc.offset_by(m.ctx, &delta).map_err(|f| m.fail(f))?;
    m.push(to.clone(), moved);
    Ok(())
}

/// `DIOpBitOffset(T':type) { (B:I) (L:T) -> (L':T') }`
///
/// "`L'` is `L`, but updated by adding `read(B, I)` to its bit offset."
///
/// DECISION (D-offset-signed): `read(B, I)` is read as a signed (two's complement) integer: the
/// note says `I` "may be a signed or unsigned integral type", but LLVM integer
/// types carry no signedness, and negative displacements are what lets an
/// expression step back from a field to its container. An `i8` offset of
/// `255` therefore moves back one bit.
pub fn eval_bit_offset(m: &mut Machine, to: &Type) -> Result<(), Diag> {
    let b = m.pop()?;
    let d = m.read(&b)?.signed();
    offset(m, to, d)
}

/// `DIOpByteOffset(T':type) { (B:I) (L:T) -> (L':T') }`
///
/// "`(L':T')` is as if `DIOpBitOffset(T')` was evaluated with a stack
/// containing `(B * 8:I) (L:T)`."
///
/// DECISION (D-byteoffset-exact): `B * 8` is exact, not wrapped to the width of `I`: read
/// literally, an `i8` byte offset of 32 would wrap to a bit offset of 0, which
/// no producer means (see the errata register). `B` is signed as in
/// `DIOpBitOffset`.
pub fn eval_byte_offset(m: &mut Machine, to: &Type) -> Result<(), Diag> {
    let b = m.pop()?;
    let d = m.read(&b)?.signed() * 8;
    offset(m, to, d)
}

/// `DIOpComposite(N:unsigned, T:type) { (L1:T1) (L2:T2) ... (LN:TN) -> (L:T) }`
///
/// "`L` comprises one complete composite location description `CL` with
/// offset 0. The location storage associated with `CL` is comprised of `N`
/// parts each of bit size `bitsizeof(TM)` starting at the location storage
/// specified by `LM`. The parts are concatenated starting at offset 0 in the
/// order with `M` from `N` to 1 and no padding between the parts."
///
/// DECISION (D-stack-order): the normative text wins over the examples:
/// `LN`, the deepest input (pushed first), is at offset 0, even though the
/// SROA examples read the other way (errata register, E-sroa-composite-order).
pub fn eval_composite(m: &mut Machine, n: u32, t: &Type) -> Result<(), Diag> {
    let mut parts = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let e = m.pop()?; // L1 first, LN last
        parts.push(Part {
            bits: m.bits(&e.ty),
            loc: e.loc,
        });
    }
    parts.reverse(); // LN at offset 0
    let loc = composite(parts).map_err(|f| m.fail(f))?;
    m.push(t.clone(), loc);
    Ok(())
}

/// `DIOpExtend(N:unsigned) { (L:T) -> (L':<N x T>) }`
///
/// "`(L':<N x T>)` is as if `DIOpComposite(N, <N x T>)` was applied to a stack
/// containing `N` copies of `(L:T)`."
///
/// DECISION (D-extend-overlap): taken at its word, so by `DIOpComposite`'s
/// overlap rule extending a memory or register location with `N > 1` is an
/// evaluation error (`overlapping-parts`); only implicit and undefined
/// locations (all the spec's examples use) can be extended. Use `DIOpRead`
/// first to extend a value.
pub fn eval_extend(m: &mut Machine, n: u32) -> Result<(), Diag> {
    m.charge(n as u64)?;
    let e = m.pop()?;
    let bits = m.bits(&e.ty);
    let parts = (0..n)
        .map(|_| Part {
            bits,
            loc: e.loc.clone(),
        })
        .collect();
    let loc = composite(parts).map_err(|f| m.fail(f))?;
    let ty = Type::Vector {
        count: n as u64,
        elem: Box::new(e.ty),
    };
    m.push(ty, loc);
    Ok(())
}

/// `DIOpSelect() { (LM:TM) (L1:<N x T>) (L0:<N x T>) -> (L:<N x T>) }`
///
/// "`M` is a bit mask with the value `read(LM, TM)`. [...] `(L:<N x T>)` is as
/// if `DIOpComposite(N, <N x T>)` was applied to a stack containing `N`
/// entries `(LI:T)` ordered in descending `I` from `N - 1` to 0 inclusive.
/// Each `LI` is as if `DIOpBitOffset(T)` was applied to a stack containing
/// `(I * bitsizeof(T):TI) (PLI:T)`. `PLI` is the same as `L0` if the `I`th
/// least significant bit of `M` is zero, otherwise it is the same as `L1`."
///
/// So lane `I` is at offset `I * bitsizeof(T)` of the result.
pub fn eval_select(m: &mut Machine) -> Result<(), Diag> {
    let lm = m.pop()?;
    let l1 = m.pop()?;
    let l0 = m.pop()?;
    let mask = m.read(&lm)?;
    let Type::Vector { count, elem } = &l1.ty else {
        return Err(m.err(
            "internal-error",
            "select of a non-vector after a successful check",
        ));
    };
    let (count, size) = (*count, m.bits(elem));
    m.charge(count)?;
    let mut parts = Vec::with_capacity(count as usize);
    for i in 0..count {
        let pl = if mask.bit(i) { &l1.loc } else { &l0.loc };
        let li = pl
            .offset_by(m.ctx, &BigInt::from(i * size))
            .map_err(|f| m.fail(f))?;
        parts.push(Part {
            bits: size,
            loc: li,
        });
    }
    let loc = composite(parts).map_err(|f| m.fail(f))?;
    m.push(l1.ty.clone(), loc);
    Ok(())
}

/// `DIOpAddrOf(N:addrspace) { (L:T) -> (L':ptr addrspace(N)) }`
///
/// "`L'` comprises one implicit address location description `IAL`. `IAL`
/// specifies implicit address location storage `IALS` and offset 0. `IALS` is
/// `bitsizeof(ptr addrspace(N))` bits and conceptually holds a reference to
/// the storage that `L` denotes."
pub fn eval_addr_of(m: &mut Machine, n: u32) -> Result<(), Diag> {
    let e = m.pop()?;
    let depth = e.loc.depth() + 1;
    if depth > crate::limits::MAX_LOCATION_DEPTH {
        return Err(Diag::unsupported(
            m.op,
            "limit-exceeded",
            "locations nested too deeply",
        ));
    }
    let ty = Type::ptr(n);
    let bits = m.bits(&ty);
    let st = Storage::ImplicitAddress {
        addrspace: n,
        bits,
        target: e.loc,
        depth,
    };
    m.push(ty, LocDesc::single(st, 0));
    Ok(())
}

/// `DIOpDeref(T:type) { (L:ptr addrspace(N)) -> (L':T) }`
///
/// "If `(L:ptr addrspace(N))` was produced by a `DIOpAddrOf` operation, then
/// see `DIOpAddrOf`. Otherwise, `L'` comprises one memory location description
/// `MLD`. `MLD` specifies bit offset `read(L, ptr addrspace(N)) * 8` and the
/// memory location storage corresponding to address space `N`."
///
/// DECISION (D-deref-addrof-type): `DIOpDeref(T')` of an implicit address made from `(L:T)` gives
/// `(L:T')` for any `T'`, as dereferencing a memory address does not depend on
/// the type the address was taken with; reading more bits than `L` has is a
/// read error later, as it would be for memory.
pub fn eval_deref(m: &mut Machine, t: &Type) -> Result<(), Diag> {
    let p = m.pop()?;
    if let [s] = p.loc.singles() {
        if let (Storage::ImplicitAddress { target, .. }, 0) = (&*s.storage, s.offset) {
            m.push(t.clone(), target.clone());
            return Ok(());
        }
    }
    let n = p.ty.addrspace().unwrap_or(0);
    let addr = m.read(&p)?;
    let off = addr.to_u128().expect("pointers have at most 64 bits") * 8;
    m.push(
        t.clone(),
        LocDesc::single(Storage::Memory { addrspace: n }, off),
    );
    Ok(())
}

/// `DIOpRead() { (L:T) -> (L':T) }`
///
/// "`L'` comprises one implicit location description `IL`. `IL` specifies
/// implicit location storage `ILS` and offset 0. `ILS` has value `read(L, T)`
/// and size `bitsizeof(T)`."
pub fn eval_read(m: &mut Machine) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    m.push_implicit(e.ty, v);
    Ok(())
}

/// Pops `(L1:T) (L2:T)` and reads `V1 = read(L1, T)` (top) and
/// `V2 = read(L2, T)`.
fn pop_pair(m: &mut Machine) -> Result<(Type, Bits, Bits), Diag> {
    pop_pair_costing(m, false)
}

/// As `pop_pair`, charging `width * width / 64` for the quadratic ops.
fn pop_pair_costing(m: &mut Machine, quadratic: bool) -> Result<(Type, Bits, Bits), Diag> {
    if quadratic {
        let w = m.stack.last().map(|e| m.bits(&e.ty)).unwrap_or(0);
        m.charge(w.saturating_mul(w.div_ceil(64)))?;
    }
    let e1 = m.pop()?;
    let e2 = m.pop()?;
    let v1 = m.read(&e1)?;
    let v2 = m.read(&e2)?;
    Ok((e1.ty, v1, v2))
}

fn int_result(m: &mut Machine, t: Type, v: BigInt) {
    let w = m.bits(&t);
    m.push_implicit(t, Bits::from_bigint(w, &v));
}

/// `DIOpAdd() { (L1:T) (L2:T) -> (L:T) }`
///
/// "`ILS` has value `read(L1, T) + read(L2, T)` and size `bitsizeof(T)`."
/// DECISION (D-integer-wrap): integer `DIOpAdd`, `DIOpSub` and `DIOpMul`
/// wrap modulo `2^bitsizeof(T)` (the spec's implicit storage has exactly
/// `bitsizeof(T)` bits); floating point is IEEE, nearest-even.
pub fn eval_add(m: &mut Machine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    if t.is_float() {
        let r = float_binop(&t, &v2, &v1, FloatOp::Add);
        m.push_implicit(t, r);
    } else {
        m.push_implicit(t, v2.wrapping_add(&v1));
    }
    Ok(())
}

/// `DIOpSub() { (L1:T) (L2:T) -> (L:T) }`
///
/// "`ILS` has value `read(V2, T) - read(V1, T)`".
///
/// DECISION (D-binary-operand-order): `V1` and `V2` are
/// read as `L1` (top) and `L2` (below), so the result is `L2 - L1`, the order
/// of `DW_OP_minus` (see the errata register for the unbound names).
pub fn eval_sub(m: &mut Machine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    if t.is_float() {
        let r = float_binop(&t, &v2, &v1, FloatOp::Sub);
        m.push_implicit(t, r);
    } else {
        m.push_implicit(t, v2.wrapping_sub(&v1));
    }
    Ok(())
}

/// `DIOpMul() { (L1:T) (L2:T) -> (L:T) }`
///
/// "`ILS` has value `read(V2, T) * read(V1, T)`" (`V1` = `L1`, `V2` = `L2`).
pub fn eval_mul(m: &mut Machine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair_costing(m, true)?;
    if t.is_float() {
        let r = float_binop(&t, &v2, &v1, FloatOp::Mul);
        m.push_implicit(t, r);
    } else {
        m.push_implicit(t, v2.wrapping_mul(&v1));
    }
    Ok(())
}

/// `DIOpDiv() { (L1:T) (L2:T) -> (L:T) }`
///
/// "`ILS` has value `read(V2, T) / read(V1, T)`" (`V1` = `L1`, `V2` = `L2`).
///
/// DECISION (D-div-signed): integer division is signed and truncates toward zero, as
/// `DW_OP_div` (which is signed) and C's `/` on `int`; a zero divisor is an
/// evaluation error (`division-by-zero`), and so is the one quotient that does
/// not fit, `INT_MIN / -1` (`signed-overflow`). Floating-point division is
/// IEEE (dividing by zero gives an infinity or NaN).
pub fn eval_div(m: &mut Machine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair_costing(m, true)?;
    if t.is_float() {
        let r = float_binop(&t, &v2, &v1, FloatOp::Div);
        m.push_implicit(t, r);
        return Ok(());
    }
    let (a, b) = (v2.signed(), v1.signed());
    if b.is_zero() {
        return Err(m.err("division-by-zero", format!("{a} / 0")));
    }
    let q = &a / &b; // truncates toward zero
    if !fits_signed(&q, v1.width()) {
        return Err(m.err(
            "signed-overflow",
            format!("{a} / {b} does not fit in `{t}`"),
        ));
    }
    int_result(m, t, q);
    Ok(())
}

/// The shift amount, saturated at the width (amounts are read unsigned).
fn shift_amount(v: &Bits) -> u64 {
    v.to_u64().unwrap_or(u64::MAX).min(v.width())
}

/// `DIOpLShr() { (L1:T) (L2:T) -> (L:T) }`
///
/// "`ILS` has value `read(V2, T) >> read(V1, T)` [...] The higher order bits
/// are filled with zeros."
///
/// DECISION (D-shift-amounts): the amount is unsigned, and an amount of at least the width
/// shifts every bit out (result 0), as the sentence reads literally.
pub fn eval_lshr(m: &mut Machine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    let s = shift_amount(&v1);
    m.push_implicit(t, v2.lshr(s));
    Ok(())
}

/// `DIOpAShr() { (L1:T) (L2:T) -> (L:T) }`
///
/// "`ILS` has value `read(V2, T) >> read(V1, T)` [...] The higher order bits
/// are filled with the value of the sign bit."
///
/// DECISION (D-shift-amounts): an amount of at least the width gives all
/// sign bits.
pub fn eval_ashr(m: &mut Machine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    let s = shift_amount(&v1);
    m.push_implicit(t, v2.ashr(s));
    Ok(())
}

/// `DIOpShl() { (L1:T) (L2:T) -> (L:T) }`
///
/// "`ILS` has value `read(V2, T) << read(V1, T)` [...] The result is filled
/// with 0 bits."
///
/// DECISION (D-shift-amounts): an amount of at least the width gives 0.
pub fn eval_shl(m: &mut Machine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    let s = shift_amount(&v1);
    m.push_implicit(t, v2.shl(s));
    Ok(())
}

/// `DIOpPushLane(T:type) { -> (L:T) }`
///
/// "`ILS` has the value of the target architecture lane identifier of the
/// current source language thread of execution".
///
/// DECISION (D-lane-range): a lane id that does not fit in `T` (unsigned) is an evaluation
/// error (`lane-out-of-range`) rather than silently truncated.
pub fn eval_push_lane(m: &mut Machine, t: &Type) -> Result<(), Diag> {
    let lane = m
        .ctx
        .lane()
        .ok_or_else(|| m.err("internal-error", "no lane after a successful check"))?;
    let w = m.bits(t);
    if w < 64 && lane >> w != 0 {
        return Err(m.err(
            "lane-out-of-range",
            format!("lane {lane} does not fit in `{t}`"),
        ));
    }
    m.push_implicit(t.clone(), Bits::from_u64(w, lane));
    Ok(())
}

/// `DIOpFragment(O:unsigned, S:unsigned) { -> }`
///
/// "An operation with no effect".
pub fn eval_fragment(_m: &mut Machine, _o: u64, _s: u64) -> Result<(), Diag> {
    Ok(())
}

fn bitwise(m: &mut Machine, f: fn(&Bits, &Bits) -> Bits) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    m.push_implicit(t, f(&v2, &v1));
    Ok(())
}

/// ROCm `DIOpAnd() { (L1:T) (L2:T) -> (L:T) }`: `read(L2, T) & read(L1, T)`.
pub fn eval_and(m: &mut Machine) -> Result<(), Diag> {
    bitwise(m, Bits::and)
}

/// ROCm `DIOpOr() { (L1:T) (L2:T) -> (L:T) }`: `read(L2, T) | read(L1, T)`.
pub fn eval_or(m: &mut Machine) -> Result<(), Diag> {
    bitwise(m, Bits::or)
}

/// ROCm `DIOpXor() { (L1:T) (L2:T) -> (L:T) }`: `read(L2, T) ^ read(L1, T)`.
pub fn eval_xor(m: &mut Machine) -> Result<(), Diag> {
    bitwise(m, Bits::xor)
}

/// ROCm `DIOpMod() { (L1:T) (L2:T) -> (L:T) }`: `read(L2, T) mod read(L1, T)`.
///
/// DECISION (D-mod-signed): the signed remainder of `DIOpDiv`'s truncating division (the sign
/// of the dividend), so that `(a / b) * b + a mod b = a`; a zero divisor is an
/// evaluation error (`division-by-zero`). Note that `DW_OP_mod` is unsigned on
/// the generic type, so a lowering to it is only right for non-negative
/// operands.
pub fn eval_mod(m: &mut Machine) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair_costing(m, true)?;
    let (a, b) = (v2.signed(), v1.signed());
    if b.is_zero() {
        return Err(m.err("division-by-zero", format!("{a} mod 0")));
    }
    let r = &a - (&a / &b) * &b;
    debug_assert!(r.is_zero() || r.is_negative() == a.is_negative());
    int_result(m, t, r);
    Ok(())
}
