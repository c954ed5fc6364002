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
use crate::limits::{MAX_EVAL_WORK, MAX_LOCATION_DEPTH};
use crate::location::{composite, read, LocDesc, Part, ReadFail, Single, Storage};
use crate::syntax::{Expr, Literal, Op};
use crate::types::{vector_type, DataLayout, Type};
use crate::value::{fits_signed, float_binop, float_value, literal_bits};
use crate::wellformed::{check, Checked};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::borrow::Cow;

/// What a stack element's location description is.
///
/// Nearly every op pushes "one implicit location description `IL` [with]
/// offset 0", whose storage holds exactly `bitsizeof(T)` bits: the value
/// itself. Such an element keeps the value and becomes a location
/// description only when an op uses it as one (an offset, a part of a
/// composite, the result), so arithmetic on values allocates no storage.
/// Either form denotes the same location description.
///
/// `DIOpExtend` and `DIOpSelect` of such values make composites whose parts
/// are all implicit: their bits are known, and they too are kept as their
/// value, with what it takes to build the composite the spec describes
/// when an op needs the location itself (`Lanes`). They live in the
/// machine's `made` list, so that making one allocates nothing of its own.
#[derive(Clone, Debug)]
enum Held {
    /// `LocDesc::implicit(v)`.
    Value(Bits),
    Loc(LocDesc),
    /// `Machine::made[i]`.
    Lanes(usize),
}

/// A composite of implicit parts, by its value.
#[derive(Clone, Debug)]
struct Lanes {
    /// The composite's bits (`bitsizeof(T)` of them).
    value: Bits,
    /// The depth of the composite `make` builds.
    depth: u32,
    make: Make,
}

/// How a [`Lanes`] composite is built: exactly as `eval_extend` and
/// `eval_select` build it from locations.
#[derive(Clone, Debug)]
enum Make {
    /// `n` parts, each the implicit location holding `part`.
    Extend { part: Bits, n: u32 },
    /// Lane `i` (`size` bits) is lane `i` of `l1` where bit `i` of `mask`
    /// is set, of `l0` where it is clear.
    Select {
        mask: Bits,
        l1: Held,
        l0: Held,
        count: u64,
        size: u64,
    },
}

impl Held {
    /// The location description held (`made`: the machine's composites).
    fn loc(self, made: &[Lanes]) -> LocDesc {
        match self {
            Held::Value(v) => LocDesc::implicit(v),
            Held::Loc(l) => l,
            Held::Lanes(i) => made[i].make.composite(made),
        }
    }
    /// The value, when this is one implicit storage or composite of
    /// implicit parts at offset 0 of exactly `n` bits.
    fn value<'h>(&'h self, n: u64, made: &'h [Lanes]) -> Option<&'h Bits> {
        match self {
            Held::Value(v) if v.width() == n => Some(v),
            Held::Lanes(i) if made[*i].value.width() == n => Some(&made[*i].value),
            _ => None,
        }
    }
    /// The nesting depth of the location held.
    fn depth(&self, made: &[Lanes]) -> u32 {
        match self {
            Held::Value(_) => 0,
            Held::Loc(l) => l.depth(),
            Held::Lanes(i) => made[*i].depth,
        }
    }
}

impl Make {
    /// The composite location description, at offset 0.
    fn composite(&self, made: &[Lanes]) -> LocDesc {
        let parts = match self {
            Make::Extend { part, n } => {
                let loc = LocDesc::implicit(part.clone());
                (0..*n)
                    .map(|_| Part {
                        bits: part.width(),
                        loc: loc.clone(),
                    })
                    .collect()
            }
            Make::Select {
                mask,
                l1,
                l0,
                count,
                size,
            } => {
                // Each input is one storage at offset 0 at least
                // `count * size` bits long, so lane `i` is that storage at
                // offset `i * size` (what `offset_by` gives, in bounds).
                let (count, size) = (*count, *size);
                let (l1, l0) = (l1.clone().loc(made), l0.clone().loc(made));
                let lane = |l: &LocDesc, i: u64| {
                    let s = &l.singles()[0];
                    LocDesc::new(vec![Single {
                        storage: s.storage.clone(),
                        offset: s.offset + u128::from(i * size),
                    }])
                };
                (0..count)
                    .map(|i| Part {
                        bits: size,
                        loc: lane(if mask.bit(i) { &l1 } else { &l0 }, i),
                    })
                    .collect()
            }
        };
        LocDesc::single(Storage::composite(parts), 0)
    }
}

/// A typed location description: one stack element. The type is borrowed
/// from the op that wrote it where it can be.
#[derive(Clone, Debug)]
pub struct Entry<'e> {
    pub ty: Cow<'e, Type>,
    held: Held,
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
pub struct Machine<'a, 'e> {
    pub ctx: &'a dyn Context,
    layout: &'a DataLayout,
    pub stack: Vec<Entry<'e>>,
    op: &'static str,
    /// Work done so far (see `limits::MAX_EVAL_WORK`).
    work: u64,
    /// Keep composites of implicit values as their value (`Held::Lanes`);
    /// off only in the tests that compare both ways.
    lanes: bool,
    /// The composites kept as their value, by `Held::Lanes` index.
    made: Vec<Lanes>,
}

impl<'e> Machine<'_, 'e> {
    #[inline]
    fn pop(&mut self) -> Result<Entry<'e>, Diag> {
        // Well-formedness guarantees the entry; a failure here is a bug in
        // dioptra, reported rather than panicking.
        match self.stack.pop() {
            Some(e) => Ok(e),
            None => Err(self.underflow()),
        }
    }
    #[cold]
    fn underflow(&self) -> Diag {
        Diag::eval(
            self.op,
            "internal-error",
            "stack underflow after a successful check (a dioptra bug)",
        )
    }
    #[inline]
    fn push(&mut self, ty: Cow<'e, Type>, loc: LocDesc) {
        self.stack.push(Entry {
            ty,
            held: Held::Loc(loc),
        });
    }
    /// Counts `units` of work against the budget.
    #[inline]
    fn charge(&mut self, units: u64) -> Result<(), Diag> {
        self.work = self.work.saturating_add(units);
        if self.work > MAX_EVAL_WORK {
            return Err(self.over_budget());
        }
        Ok(())
    }
    #[cold]
    fn over_budget(&self) -> Diag {
        Diag::unsupported(
            self.op,
            "limit-exceeded",
            format!(
                "the evaluation needs more than {MAX_EVAL_WORK} units of work (dioptra's bound)"
            ),
        )
    }
    fn bits(&self, t: &Type) -> u64 {
        match t {
            Type::Int(w) => *w,
            _ => self.layout.bitsizeof(t),
        }
    }
    /// `read(L, T)` of a popped entry; failures are reported against the
    /// current op.
    fn read(&mut self, e: &Entry) -> Result<Bits, Diag> {
        let n = self.bits(&e.ty);
        self.charge(n)?;
        // An implicit storage (or composite of them) of exactly `n` bits
        // at offset 0: its read is the value.
        if let Some(v) = e.held.value(n, &self.made) {
            return Ok(v.clone());
        }
        let r = match &e.held {
            Held::Loc(l) => read(self.ctx, l, n),
            other => read(self.ctx, &other.clone().loc(&self.made), n),
        };
        r.map_err(|f| f.at(self.op))
    }
    #[cold]
    fn fail(&self, f: ReadFail) -> Diag {
        f.at(self.op)
    }
    #[cold]
    fn err(&self, reason: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
        Diag::eval(self.op, reason, msg)
    }
    /// Pushes an implicit location description holding `v`: "`L` comprises
    /// one implicit location description `IL`. `IL` specifies implicit
    /// location storage `ILS` and offset 0."
    #[inline]
    fn push_implicit(&mut self, ty: Cow<'e, Type>, v: Bits) {
        self.stack.push(Entry {
            ty,
            held: Held::Value(v),
        });
    }
    /// Pushes a composite of implicit parts kept as its value.
    fn push_lanes(&mut self, ty: Cow<'e, Type>, lanes: Lanes) {
        self.made.push(lanes);
        let held = Held::Lanes(self.made.len() - 1);
        self.stack.push(Entry { ty, held });
    }
    /// The location description of a popped entry.
    fn loc(&self, e: Entry) -> LocDesc {
        e.held.loc(&self.made)
    }
}

/// Checks and evaluates `expr` in `ctx`: by narrow evaluation when it
/// answers (every type in the expression at most 128 bits wide, and no
/// error; [`crate::narrow`]), which gives what [`eval_reference`] gives,
/// and by the reference otherwise.
pub fn eval(expr: &Expr, ctx: &dyn Context) -> Result<Evaluated, Diag> {
    if let Some(r) = crate::narrow::eval_narrow(expr, ctx) {
        return Ok(r);
    }
    eval_reference(expr, ctx)
}

/// Checks `expr` against `ctx`'s signature and, if it is well-formed,
/// evaluates it op by op: the reference semantics, one `eval_<op>` per op.
pub fn eval_reference(expr: &Expr, ctx: &dyn Context) -> Result<Evaluated, Diag> {
    eval_with(expr, ctx, true)
}

fn eval_with(expr: &Expr, ctx: &dyn Context, lanes: bool) -> Result<Evaluated, Diag> {
    let checked = check(expr, &ctx.signature())?;
    run(expr, &checked, ctx, lanes)
}

/// `eval` of an expression the caller has checked: `checked` is
/// `check(expr, sig)` for `ctx`'s signature (a law that checks an
/// expression once and then evaluates it in several contexts and lowers it).
pub fn eval_checked(expr: &Expr, checked: &Checked, ctx: &dyn Context) -> Result<Evaluated, Diag> {
    match crate::narrow::eval_narrow(expr, ctx) {
        Some(r) => Ok(r),
        None => run(expr, checked, ctx, true),
    }
}

/// Evaluates `expr`, which `checked` says is well-formed under `ctx`'s
/// signature.
fn run(expr: &Expr, checked: &Checked, ctx: &dyn Context, lanes: bool) -> Result<Evaluated, Diag> {
    let mut m = Machine::new(ctx, lanes, &expr.ops);
    for op in &expr.ops {
        eval_op(&mut m, op)?;
    }
    m.op = "DIExpr";
    let Entry { ty, held } = m.pop()?;
    Ok(Evaluated {
        ty: ty.into_owned(),
        loc: held.loc(&m.made),
        fragment: checked.fragment,
    })
}

/// Checks `expr` and evaluates it once, calling `each(n, top)` after its
/// first `n` ops: `top` is what `eval` of those `n` ops alone gives when
/// they leave one entry on the stack, `None` when they leave another
/// number. The first `n` ops of a well-formed expression are evaluated
/// exactly as they are when they are the whole expression, so this is
/// `eval` of every prefix in one pass. An evaluation error at op `k` is
/// returned; it is what `eval` gives for every prefix longer than `k`.
pub fn eval_prefixes(
    expr: &Expr,
    ctx: &dyn Context,
    each: &mut dyn FnMut(usize, Option<Evaluated>),
) -> Result<(), Diag> {
    let checked = check(expr, &ctx.signature())?;
    eval_prefixes_checked(expr, &checked, ctx, each)
}

/// `eval_prefixes` of an expression the caller has checked: `_checked` is
/// `check(expr, &ctx.signature())` (asked for so that no caller forgets:
/// evaluation assumes a well-formed expression).
pub fn eval_prefixes_checked(
    expr: &Expr,
    _checked: &Checked,
    ctx: &dyn Context,
    each: &mut dyn FnMut(usize, Option<Evaluated>),
) -> Result<(), Diag> {
    let mut m = Machine::new(ctx, true, &expr.ops);
    for (i, op) in expr.ops.iter().enumerate() {
        eval_op(&mut m, op)?;
        let top = match m.stack.as_slice() {
            [e] => Some(Evaluated {
                ty: e.ty.clone().into_owned(),
                loc: e.held.clone().loc(&m.made),
                fragment: match op {
                    Op::Fragment(o, s) => Some((*o, *s)),
                    _ => None,
                },
            }),
            _ => None,
        };
        each(i + 1, top);
    }
    Ok(())
}

impl<'a, 'e> Machine<'a, 'e> {
    /// A machine for evaluating `ops`.
    fn new(ctx: &'a dyn Context, lanes: bool, ops: &[Op]) -> Machine<'a, 'e> {
        // Each `DIOpExtend` and `DIOpSelect` may keep one composite: room
        // for all of them at once, rather than growing (and copying) the
        // list as they come; for at most `MADE_AT_ONCE`, so that a long
        // expression whose composites are locations does not reserve room
        // it never uses (the list grows past it as needed).
        const MADE_AT_ONCE: usize = 64;
        let composites = ops
            .iter()
            .filter(|op| matches!(op, Op::Extend(_) | Op::Select))
            .take(MADE_AT_ONCE)
            .count();
        Machine {
            ctx,
            layout: ctx.layout(),
            stack: Vec::with_capacity(ops.len().min(crate::limits::STACK_ROOM)),
            op: "DIExpr",
            work: 0,
            lanes,
            made: Vec::with_capacity(if lanes { composites } else { 0 }),
        }
    }
}

/// Evaluates one op: the one `eval_<op>` per operation, in the spec's order.
fn eval_op<'e>(m: &mut Machine<'_, 'e>, op: &'e Op) -> Result<(), Diag> {
    m.op = op.name();
    m.charge(1)?;
    match op {
        Op::Referrer(t) => eval_referrer(m, t),
        Op::Arg(n, t) => eval_arg(m, *n, t),
        Op::TypeObject(t) => eval_type_object(m, t),
        Op::Constant(t, v) => eval_constant(m, t, v),
        Op::Convert(t) => eval_convert(m, t),
        Op::ZExt(t) => eval_zext(m, t),
        Op::SExt(t) => eval_sext(m, t),
        Op::Reinterpret(t) => eval_reinterpret(m, t),
        Op::BitOffset(t) => eval_bit_offset(m, t),
        Op::ByteOffset(t) => eval_byte_offset(m, t),
        Op::Composite(n, t) => eval_composite(m, *n, t),
        Op::Extend(n) => eval_extend(m, *n),
        Op::Select => eval_select(m),
        Op::AddrOf(n) => eval_addr_of(m, *n),
        Op::Deref(t) => eval_deref(m, t),
        Op::Read => eval_read(m),
        Op::Add => eval_add(m),
        Op::Sub => eval_sub(m),
        Op::Mul => eval_mul(m),
        Op::Div => eval_div(m),
        Op::LShr => eval_lshr(m),
        Op::AShr => eval_ashr(m),
        Op::Shl => eval_shl(m),
        Op::PushLane(t) => eval_push_lane(m, t),
        Op::Fragment(o, s) => eval_fragment(m, *o, *s),
        Op::And => eval_and(m),
        Op::Or => eval_or(m),
        Op::Xor => eval_xor(m),
        Op::Mod => eval_mod(m),
    }
}

/// `DIOpReferrer(T:type) { -> (L:T) }`
///
/// "`L` is the location description of the referrer `R` of the associated
/// lifetime segment `LS`."
pub fn eval_referrer<'e>(m: &mut Machine<'_, 'e>, t: &'e Type) -> Result<(), Diag> {
    let r = m
        .ctx
        .referrer()
        .ok_or_else(|| m.err("internal-error", "no referrer after a successful check"))?;
    m.push(Cow::Borrowed(t), r.loc.clone());
    Ok(())
}

/// `DIOpArg(N:unsigned, T:type) { -> (L:T) }`
///
/// "`L` is the location description of the `N`th zero-based input `I` to the
/// expression."
pub fn eval_arg<'e>(m: &mut Machine<'_, 'e>, n: u32, t: &'e Type) -> Result<(), Diag> {
    let i = m
        .ctx
        .args()
        .get(n as usize)
        .ok_or_else(|| m.err("internal-error", "missing input after a successful check"))?;
    m.push(Cow::Borrowed(t), i.loc.clone());
    Ok(())
}

/// `DIOpTypeObject(T:type) { -> (L:T) }`
///
/// "`L` is the location description of the instance `O` of an object of type
/// `LT` for which the type property `TP` is being evaluated."
pub fn eval_type_object<'e>(m: &mut Machine<'_, 'e>, t: &'e Type) -> Result<(), Diag> {
    let o = m
        .ctx
        .type_object()
        .ok_or_else(|| m.err("internal-error", "no type object after a successful check"))?;
    m.push(Cow::Borrowed(t), o.loc.clone());
    Ok(())
}

/// `DIOpConstant(T:type V:literal) { -> (L:T) }`
///
/// "If `V` is the `undef` value, then `L` comprises one undefined location
/// description `IL`. Otherwise, `L` comprises one implicit location
/// description `IL`. `IL` specifies implicit location storage `ILS` and offset
/// 0. `ILS` has value `V` and size `bitsizeof(T)`."
pub fn eval_constant<'e>(m: &mut Machine<'_, 'e>, t: &'e Type, v: &Literal) -> Result<(), Diag> {
    m.charge(m.bits(t))?;
    match literal_bits(t, v, m.ctx.layout())? {
        None => m.push(Cow::Borrowed(t), LocDesc::undefined()),
        Some(b) => m.push_implicit(Cow::Borrowed(t), b),
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
pub fn eval_convert<'e>(m: &mut Machine<'_, 'e>, to: &'e Type) -> Result<(), Diag> {
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
    m.push_implicit(Cow::Borrowed(to), out);
    Ok(())
}

/// `DIOpZExt(T':type) { (L:T) -> (L':T') }`
///
/// "`V` is the value `read(L, T)` zero-extended to type `T'`."
pub fn eval_zext<'e>(m: &mut Machine<'_, 'e>, to: &'e Type) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    let w = m.bits(to);
    m.push_implicit(Cow::Borrowed(to), v.zext(w));
    Ok(())
}

/// `DIOpSExt(T':type) { (L:T) -> (L':T') }`
///
/// "`V` is the value `read(L, T)` sign-extended to type `T'`."
pub fn eval_sext<'e>(m: &mut Machine<'_, 'e>, to: &'e Type) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    let w = m.bits(to);
    m.push_implicit(Cow::Borrowed(to), v.sext(w));
    Ok(())
}

/// `DIOpReinterpret(T':type) { (L:T) -> (L:T') }`
///
/// The location is unchanged; only its type is.
pub fn eval_reinterpret<'e>(m: &mut Machine<'_, 'e>, to: &'e Type) -> Result<(), Diag> {
    let e = m.pop()?;
    m.stack.push(Entry {
        ty: Cow::Borrowed(to),
        held: e.held,
    });
    Ok(())
}

/// Moves the popped location by `read(B, I) * scale` bits, `B` read as a
/// signed integer.
fn offset<'e>(m: &mut Machine<'_, 'e>, to: &'e Type, b: &Bits, scale: i128) -> Result<(), Diag> {
    let l = m.pop()?;
    let l = m.loc(l);
    let moved = match b.small_signed().and_then(|d| d.checked_mul(scale)) {
        Some(d) => l.offset_by_small(m.ctx, d),
        None => l.offset_by(m.ctx, &(b.signed() * scale)),
    }
    .map_err(|f| m.fail(f))?;
    m.push(Cow::Borrowed(to), moved);
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
pub fn eval_bit_offset<'e>(m: &mut Machine<'_, 'e>, to: &'e Type) -> Result<(), Diag> {
    let b = m.pop()?;
    let b = m.read(&b)?;
    offset(m, to, &b, 1)
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
pub fn eval_byte_offset<'e>(m: &mut Machine<'_, 'e>, to: &'e Type) -> Result<(), Diag> {
    let b = m.pop()?;
    let b = m.read(&b)?;
    offset(m, to, &b, 8)
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
pub fn eval_composite<'e>(m: &mut Machine<'_, 'e>, n: u32, t: &'e Type) -> Result<(), Diag> {
    let mut parts = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let e = m.pop()?; // L1 first, LN last
        parts.push(Part {
            bits: m.bits(&e.ty),
            loc: m.loc(e),
        });
    }
    parts.reverse(); // LN at offset 0
    let loc = composite(parts).map_err(|f| m.fail(f))?;
    m.push(Cow::Borrowed(t), loc);
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
pub fn eval_extend<'e>(m: &mut Machine<'_, 'e>, n: u32) -> Result<(), Diag> {
    m.charge(n as u64)?;
    let e = m.pop()?;
    let bits = m.bits(&e.ty);
    let ty = vector_type(u64::from(n), &e.ty);
    let narrow = m.lanes && bits * u64::from(n) <= LANES_BITS;
    let value = e.held.value(bits, &m.made).filter(|_| narrow);
    if let Some((v, x)) = value.and_then(|v| Some((v, v.small()?))) {
        // Copies of an implicit value: the composite's bits are `n`
        // copies of it, lowest first.
        let lanes = Lanes {
            value: replicate(x, bits, n),
            depth: 1,
            make: Make::Extend { part: v.clone(), n },
        };
        m.push_lanes(Cow::Owned(ty), lanes);
        return Ok(());
    }
    let l = m.loc(e);
    let parts = (0..n)
        .map(|_| Part {
            bits,
            loc: l.clone(),
        })
        .collect();
    let loc = composite(parts).map_err(|f| m.fail(f))?;
    m.push(Cow::Owned(ty), loc);
    Ok(())
}

/// The widest composite kept as its value (`Held::Lanes`): one inline
/// `Bits`, so that building its value is a few machine operations; wider
/// ones are built as locations.
const LANES_BITS: u64 = 128;

/// `n` copies of `v` (`n * width <= LANES_BITS`), the first in the low
/// bits.
fn replicate(v: u128, width: u64, n: u32) -> Bits {
    let acc = (0..u64::from(n)).fold(0u128, |acc, i| acc | v << (i * width));
    Bits::from_u128(width * u64::from(n), acc)
}

/// The bits of lanes `0..count` (`size` bits each, `count * size <=
/// LANES_BITS`) taken from `v1` where bit `i` of `chosen` (the mask's
/// low `count` bits) is set and from `v0` where it is clear.
fn select_lanes(chosen: u128, v1: u128, v0: u128, count: u64, size: u64) -> Bits {
    let lane = if size >= 128 {
        u128::MAX
    } else {
        (1u128 << size) - 1
    };
    let (mut m, mut rest) = (0u128, chosen);
    while rest != 0 {
        let i = u64::from(rest.trailing_zeros());
        m |= lane << (i * size);
        rest &= rest - 1;
    }
    Bits::from_u128(count * size, (v1 & m) | (v0 & !m))
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
pub fn eval_select<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
    let lm = m.pop()?;
    let l1 = m.pop()?;
    let l0 = m.pop()?;
    let mask = m.read(&lm)?;
    let Type::Vector { count, elem } = &*l1.ty else {
        return Err(m.err(
            "internal-error",
            "select of a non-vector after a successful check",
        ));
    };
    let (count, size) = (*count, m.bits(elem));
    m.charge(count)?;
    let ty = l1.ty.clone();
    let w = count * size;
    let made = &m.made;
    let narrow = |h: &Held| {
        h.value(w, made)
            .and_then(Bits::small)
            .filter(|_| w <= LANES_BITS)
    };
    if let (Some(v1), Some(v0), true) = (narrow(&l1.held), narrow(&l0.held), m.lanes) {
        // Both inputs are implicit values (or composites of them): so is
        // every lane, and the result's bits are the lanes chosen.
        // `count <= LANES_BITS` lanes: the mask's low `count` bits say
        // which input each lane comes from, and the composite is one
        // deeper than the deepest input a lane comes from.
        let all = u128::MAX >> (128 - count);
        let chosen = mask.extract(0, count).small().unwrap_or(0);
        let from1 = if chosen != 0 { l1.held.depth(made) } else { 0 };
        let from0 = if chosen != all {
            l0.held.depth(made)
        } else {
            0
        };
        let depth = 1 + from1.max(from0);
        if depth > MAX_LOCATION_DEPTH {
            let f = ReadFail::missing(
                "limit-exceeded",
                format!("composites nested deeper than {MAX_LOCATION_DEPTH}"),
            );
            return Err(m.fail(f));
        }
        let lanes = Lanes {
            value: select_lanes(chosen, v1, v0, count, size),
            depth,
            make: Make::Select {
                mask,
                l1: l1.held,
                l0: l0.held,
                count,
                size,
            },
        };
        m.push_lanes(ty, lanes);
        return Ok(());
    }
    let (l1, l0) = (m.loc(l1), m.loc(l0));
    let mut parts = Vec::with_capacity(count as usize);
    for i in 0..count {
        let pl = if mask.bit(i) { &l1 } else { &l0 };
        let li = pl
            .offset_by_small(m.ctx, i128::from(i) * i128::from(size))
            .map_err(|f| m.fail(f))?;
        parts.push(Part {
            bits: size,
            loc: li,
        });
    }
    let loc = composite(parts).map_err(|f| m.fail(f))?;
    m.push(ty, loc);
    Ok(())
}

/// `DIOpAddrOf(N:addrspace) { (L:T) -> (L':ptr addrspace(N)) }`
///
/// "`L'` comprises one implicit address location description `IAL`. `IAL`
/// specifies implicit address location storage `IALS` and offset 0. `IALS` is
/// `bitsizeof(ptr addrspace(N))` bits and conceptually holds a reference to
/// the storage that `L` denotes."
pub fn eval_addr_of<'e>(m: &mut Machine<'_, 'e>, n: u32) -> Result<(), Diag> {
    let e = m.pop()?;
    let e = m.loc(e);
    let depth = e.depth() + 1;
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
        target: e,
        depth,
    };
    m.push(Cow::Owned(ty), LocDesc::single(st, 0));
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
pub fn eval_deref<'e>(m: &mut Machine<'_, 'e>, t: &'e Type) -> Result<(), Diag> {
    let p = m.pop()?;
    if let Held::Loc(l) = &p.held {
        if let [s] = l.singles() {
            if let (Storage::ImplicitAddress { target, .. }, 0) = (&*s.storage, s.offset) {
                m.push(Cow::Borrowed(t), target.clone());
                return Ok(());
            }
        }
    }
    let n = p.ty.addrspace().unwrap_or(0);
    let addr = m.read(&p)?;
    let off = addr.to_u128().expect("pointers have at most 64 bits") * 8;
    m.push(
        Cow::Borrowed(t),
        LocDesc::single(Storage::Memory { addrspace: n }, off),
    );
    Ok(())
}

/// `DIOpRead() { (L:T) -> (L':T) }`
///
/// "`L'` comprises one implicit location description `IL`. `IL` specifies
/// implicit location storage `ILS` and offset 0. `ILS` has value `read(L, T)`
/// and size `bitsizeof(T)`."
pub fn eval_read<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
    let e = m.pop()?;
    let v = m.read(&e)?;
    m.push_implicit(e.ty, v);
    Ok(())
}

/// Pops `(L1:T) (L2:T)` and reads `V1 = read(L1, T)` (top) and
/// `V2 = read(L2, T)`.
fn pop_pair<'e>(m: &mut Machine<'_, 'e>) -> Result<(Cow<'e, Type>, Bits, Bits), Diag> {
    pop_pair_costing(m, false)
}

/// As `pop_pair`, charging `width * width / 64` for the quadratic ops.
fn pop_pair_costing<'e>(
    m: &mut Machine<'_, 'e>,
    quadratic: bool,
) -> Result<(Cow<'e, Type>, Bits, Bits), Diag> {
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

fn int_result<'e>(m: &mut Machine<'_, 'e>, t: Cow<'e, Type>, v: BigInt) {
    let w = m.bits(&t);
    m.push_implicit(t, Bits::from_bigint(w, &v));
}

/// `DIOpAdd() { (L1:T) (L2:T) -> (L:T) }`
///
/// "`ILS` has value `read(L1, T) + read(L2, T)` and size `bitsizeof(T)`."
/// DECISION (D-integer-wrap): integer `DIOpAdd`, `DIOpSub` and `DIOpMul`
/// wrap modulo `2^bitsizeof(T)` (the spec's implicit storage has exactly
/// `bitsizeof(T)` bits); floating point is IEEE, nearest-even.
pub fn eval_add<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
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
pub fn eval_sub<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
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
pub fn eval_mul<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
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
pub fn eval_div<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair_costing(m, true)?;
    if t.is_float() {
        let r = float_binop(&t, &v2, &v1, FloatOp::Div);
        m.push_implicit(t, r);
        return Ok(());
    }
    let w = v1.width();
    if let (Some(a), Some(b)) = (v2.small_signed(), v1.small_signed()) {
        // Both fit an i128: a quotient that fits `T` needs no big integer
        // (a zero divisor or an overflow takes the general path, which
        // reports it).
        if let Some(q) = a.checked_div(b).filter(|q| fits_small(*q, w)) {
            m.push_implicit(t, Bits::from_i128(w, q));
            return Ok(());
        }
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

/// Does `q` fit a signed integer of `w` bits (`w <= 128`)?
fn fits_small(q: i128, w: u64) -> bool {
    w >= 128 || (w > 0 && q >= -(1i128 << (w - 1)) && q < (1i128 << (w - 1)))
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
pub fn eval_lshr<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
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
pub fn eval_ashr<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
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
pub fn eval_shl<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
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
pub fn eval_push_lane<'e>(m: &mut Machine<'_, 'e>, t: &'e Type) -> Result<(), Diag> {
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
    m.push_implicit(Cow::Borrowed(t), Bits::from_u64(w, lane));
    Ok(())
}

/// `DIOpFragment(O:unsigned, S:unsigned) { -> }`
///
/// "An operation with no effect".
pub fn eval_fragment(_m: &mut Machine, _o: u64, _s: u64) -> Result<(), Diag> {
    Ok(())
}

fn bitwise<'e>(m: &mut Machine<'_, 'e>, f: fn(&Bits, &Bits) -> Bits) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair(m)?;
    m.push_implicit(t, f(&v2, &v1));
    Ok(())
}

/// ROCm `DIOpAnd() { (L1:T) (L2:T) -> (L:T) }`: `read(L2, T) & read(L1, T)`.
pub fn eval_and<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
    bitwise(m, Bits::and)
}

/// ROCm `DIOpOr() { (L1:T) (L2:T) -> (L:T) }`: `read(L2, T) | read(L1, T)`.
pub fn eval_or<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
    bitwise(m, Bits::or)
}

/// ROCm `DIOpXor() { (L1:T) (L2:T) -> (L:T) }`: `read(L2, T) ^ read(L1, T)`.
pub fn eval_xor<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
    bitwise(m, Bits::xor)
}

/// ROCm `DIOpMod() { (L1:T) (L2:T) -> (L:T) }`: `read(L2, T) mod read(L1, T)`.
///
/// DECISION (D-mod-signed): the signed remainder of `DIOpDiv`'s truncating division (the sign
/// of the dividend), so that `(a / b) * b + a mod b = a`; a zero divisor is an
/// evaluation error (`division-by-zero`). Note that `DW_OP_mod` is unsigned on
/// the generic type, so a lowering to it is only right for non-negative
/// operands.
pub fn eval_mod<'e>(m: &mut Machine<'_, 'e>) -> Result<(), Diag> {
    let (t, v1, v2) = pop_pair_costing(m, true)?;
    if let (Some(a), Some(b)) = (v2.small_signed(), v1.small_signed()) {
        // Rust's `%` is this remainder (the sign of the dividend).
        if let Some(r) = a.checked_rem(b) {
            m.push_implicit(t, Bits::from_i128(v1.width(), r));
            return Ok(());
        }
    }
    let (a, b) = (v2.signed(), v1.signed());
    if b.is_zero() {
        return Err(m.err("division-by-zero", format!("{a} mod 0")));
    }
    let r = &a - (&a / &b) * &b;
    debug_assert!(r.is_zero() || r.is_negative() == a.is_negative());
    int_result(m, t, r);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::ConcreteContext;
    use crate::text::parse_expr;

    /// A small deterministic generator (the tests need no crate for it).
    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    /// A `<n x i8>` made of extends, selects and composites of constants,
    /// undefined values and a register argument, `depth` levels deep.
    fn lanes(r: &mut Lcg, n: u64, depth: u32) -> String {
        let leaf = |r: &mut Lcg| match r.below(4) {
            0 => "DIOpArg(0, i8)".to_string(),
            1 => "DIOpConstant(i8 undef)".to_string(),
            k => format!("DIOpConstant(i8 {})", r.below(256) + k - 2),
        };
        match if depth == 0 { r.below(2) } else { r.below(4) } {
            0 => format!("{}, DIOpExtend({n})", leaf(r)),
            1 => {
                let parts: Vec<String> = (0..n).map(|_| leaf(r)).collect();
                format!("{}, DIOpComposite({n}, <{n} x i8>)", parts.join(", "))
            }
            _ => format!(
                "{}, {}, DIOpConstant(i{n} {}), DIOpSelect()",
                lanes(r, n, depth - 1),
                lanes(r, n, depth - 1),
                r.below(1 << n)
            ),
        }
    }

    /// Keeping composites of implicit values as their value (`Held::Lanes`)
    /// gives exactly the location description, type and diagnostic that
    /// building the composites as the spec describes gives, whatever op
    /// uses the result.
    #[test]
    fn lanes_held_as_values_are_the_composites_they_stand_for() {
        let ctx = ConcreteContext::parse(r#"(context (register 3 "11 22") (arg "i8" "reg(3)"))"#)
            .unwrap();
        let mut r = Lcg(7);
        let (mut ok, mut lazy_seen) = (0, 0);
        for case in 0..3000 {
            let n = 2 + r.below(3);
            let depth = 1 + r.below(4) as u32;
            let v = lanes(&mut r, n, depth);
            let w = 8 * n;
            let suffix = match case % 7 {
                0 => String::new(),
                1 => ", DIOpRead()".into(),
                2 => format!(", DIOpConstant(i8 {}), DIOpBitOffset(i8)", r.below(w + 2)),
                3 => format!(", DIOpReinterpret(i{w})"),
                4 => format!(", DIOpAddrOf(0), DIOpDeref(<{n} x i8>)"),
                5 => format!(
                    ", {}, DIOpComposite(2, <{} x i8>)",
                    lanes(&mut r, n, 2),
                    2 * n
                ),
                _ => format!(", DIOpReinterpret(i{w}), DIOpRead(), DIOpFragment(0, {w})"),
            };
            let text = format!("{v}{suffix}");
            let e = parse_expr(&text).unwrap();
            let (a, b) = (eval_with(&e, &ctx, true), eval_with(&e, &ctx, false));
            assert_eq!(a, b, "{text}");
            if let Ok(x) = &a {
                ok += 1;
                lazy_seen += x.loc.to_string().contains("comp(") as u32;
            }
        }
        // Both outcomes occur, and many results are composites.
        assert!(
            ok > 1000 && lazy_seen > 300,
            "{ok} evaluated, {lazy_seen} composites"
        );
    }

    /// A wide composite (60 000 lanes of 200 bits, past `LANES_BITS`) is
    /// built and read part by part: every lane holds the value.
    #[test]
    fn a_wide_extend_reads_back_every_lane() {
        let ctx = ConcreteContext::default();
        let e = parse_expr("DIOpConstant(i200 5), DIOpExtend(60000), DIOpRead()").unwrap();
        let v = eval(&e, &ctx).unwrap().value(&ctx).unwrap();
        assert_eq!(v.width(), 60_000 * 200);
        let lane = Bits::from_u64(200, 5);
        // Built independently of `concat_all`: 25 bytes a lane, 5 first.
        let bytes: Vec<u8> = (0..60_000)
            .flat_map(|_| std::iter::once(5u8).chain([0u8; 24]))
            .collect();
        assert_eq!(v, Bits::from_le_bytes(60_000 * 200, &bytes));
        for k in [0, 1, 31_999, 59_999] {
            assert_eq!(v.extract(k * 200, 200), lane, "lane {k}");
        }
    }

    /// The depth bound holds for composites kept as values: a chain of
    /// selects deeper than `MAX_LOCATION_DEPTH` is refused at the same op.
    #[test]
    fn a_chain_of_selects_past_the_depth_bound_is_refused_both_ways() {
        let ctx = ConcreteContext::default();
        let mut text = String::from("DIOpConstant(i8 1), DIOpExtend(2)");
        for _ in 0..MAX_LOCATION_DEPTH + 2 {
            text.push_str(", DIOpConstant(i8 2), DIOpExtend(2), DIOpConstant(i2 2), DIOpSelect()");
        }
        let e = parse_expr(&text).unwrap();
        let a = eval_with(&e, &ctx, true).unwrap_err();
        assert_eq!(a.reason, "limit-exceeded");
        assert_eq!(Err(a), eval_with(&e, &ctx, false));
    }
}
