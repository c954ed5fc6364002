//! Narrow evaluation: a second, typed interpreter for the expressions whose
//! every type is at most 128 bits wide (integers, pointers without a pointee
//! type, vectors of them), with their values held inline.
//!
//! `eval` asks it first. It checks and evaluates each op in one pass, with
//! types it can compare in a few instructions and values in a `u128`,
//! where the reference (`wellformed::check` over the whole expression, then
//! `eval`'s machine) keeps every type as a `Type` and every value as `Bits`.
//! Locations are handled by the reference's own functions
//! ([`crate::location`]: `read`, `offset_by_small`, `composite`), so what a
//! location is, and how it is read or moved, is written once.
//!
//! It answers only when it is sure: on anything outside its subset (a
//! floating-point or wider type, `DIOpAddrOf`, an `undef` read, an
//! offset that needs a big integer, a composite of lanes that would have to
//! be built as a location) and on every error, well-formedness or
//! evaluation, it declines, and the reference evaluates the expression
//! from the start and gives the diagnostic. So it never decides an
//! outcome; it only finds a successful result faster. The property
//! `narrow-evaluation-is-the-reference` holds it to the reference on
//! generated expressions, contexts and ill-formed mutations: where it
//! answers, the reference gives exactly that `Evaluated`, and where the
//! reference fails, it declines.
//!
//! One `narrow_<op>` per op, in the spec's order, each doing what
//! `check_<op>` and `eval_<op>` do for narrow types and quoting neither:
//! the rules are theirs.

use crate::bits::Bits;
use crate::context::Context;
use crate::eval::Evaluated;
use crate::limits::{MAX_EVAL_WORK, MAX_LOCATION_DEPTH, MAX_OPS, MAX_VECTOR_COUNT};
use crate::location::{composite, read, LocDesc, Part, Storage};
use crate::syntax::{Expr, Literal, Op};
use crate::types::{DataLayout, Type};
use crate::value::literal_bits;
use smallvec::SmallVec;
use std::sync::Arc;

/// The widest type (and value) narrow evaluation holds.
const WIDEST: u64 = 128;

/// The reference charges each op at most a few hundred units of work for
/// types of at most `WIDEST` bits (its bits for a constant, a read of each
/// input, `width * width / 64` for a multiplication, a lane per vector
/// element): an expression of at most `MAX_OPS` such ops cannot exceed
/// `MAX_EVAL_WORK`, so narrow evaluation does not count work.
const _: () = assert!(MAX_OPS as u64 * 1024 <= MAX_EVAL_WORK);

/// Narrow evaluation handed the expression back to the reference. Not a
/// diagnostic: the reference gives that.
#[derive(Debug)]
struct Declined;

type Step = Result<(), Declined>;

/// A stack entry's type: one written in an op, or the vector `<N x T>`
/// that `DIOpExtend` makes of one (built as a `Type` only for the result).
#[derive(Clone, Copy)]
enum Ty<'e> {
    Op(&'e Type),
    /// `count` is at most `WIDEST`: the vector has at most that many bits.
    Vector {
        count: u32,
        elem: &'e Type,
    },
}

impl<'e> Ty<'e> {
    /// `<N x T>` as `(N, T)`.
    fn vector(self) -> Option<(u64, &'e Type)> {
        match self {
            Ty::Op(Type::Vector { count, elem }) => Some((*count, elem)),
            Ty::Op(_) => None,
            Ty::Vector { count, elem } => Some((u64::from(count), elem)),
        }
    }
    fn is_integral(self) -> bool {
        matches!(self, Ty::Op(Type::Int(_)))
    }
    /// Integral or a pointer: the narrow scalars (floating-point types are
    /// not narrow).
    fn is_scalar(self) -> bool {
        matches!(self, Ty::Op(Type::Int(_) | Type::Ptr { .. }))
    }
    /// [`Type::same`].
    #[inline]
    fn same(self, other: Ty) -> bool {
        if let (Ty::Op(Type::Int(a)), Ty::Op(Type::Int(b))) = (self, other) {
            return a == b;
        }
        match (self.vector(), other.vector(), self, other) {
            (Some((n1, e1)), Some((n2, e2)), ..) => n1 == n2 && same_scalar(e1, e2),
            (None, None, Ty::Op(a), Ty::Op(b)) => same_scalar(a, b),
            _ => false,
        }
    }
    fn to_type(self) -> Type {
        match self {
            Ty::Op(t) => t.clone(),
            Ty::Vector { count, elem } => Type::Vector {
                count: u64::from(count),
                elem: Arc::new(elem.clone()),
            },
        }
    }
}

/// [`Type::same`], integers compared first (nearly every comparison).
fn same_scalar(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Int(x), Type::Int(y)) => x == y,
        _ => a.same(b),
    }
}

/// `bitsizeof(t)` of a narrow scalar: `iN` or a pointer without a pointee
/// type, of 1 to `WIDEST` bits.
fn scalar_bits(layout: &DataLayout, t: &Type) -> Option<u64> {
    let b = match t {
        Type::Int(w) => *w,
        Type::Ptr { pointee: None, .. } => layout.bitsizeof(t),
        _ => return None,
    };
    (1..=WIDEST).contains(&b).then_some(b)
}

/// `bitsizeof(t)` of a narrow type: a narrow scalar, or a vector of them of
/// at most `WIDEST` bits. Every such type passes `DataLayout::check_size`.
#[inline]
fn narrow_bits(layout: &DataLayout, t: Ty) -> Result<u64, Declined> {
    if let Ty::Op(Type::Int(w @ 1..=WIDEST)) = t {
        return Ok(*w);
    }
    let Some((count, elem)) = t.vector() else {
        let Ty::Op(t) = t else { return Err(Declined) };
        return scalar_bits(layout, t).ok_or(Declined);
    };
    scalar_bits(layout, elem)
        .and_then(|b| b.checked_mul(count))
        .filter(|b| (1..=WIDEST).contains(b))
        .ok_or(Declined)
}

/// The low `w` bits set (`1 <= w <= 128`: every narrow width).
#[inline]
fn mask(w: u64) -> u128 {
    debug_assert!((1..=WIDEST).contains(&w));
    u128::MAX >> (128 - w)
}

/// `v` (`w` bits) read as a two's complement integer.
fn signed(v: u128, w: u64) -> i128 {
    if w >= 128 {
        v as i128
    } else {
        ((v << (128 - w)) as i128) >> (128 - w)
    }
}

/// What an entry's location description is, as in `eval`'s `Held`.
/// Small, so that pushing and popping entries copies little: a location
/// lives in the machine's list of them.
enum Held<'e> {
    /// One implicit location description holding this value, of the
    /// entry's bits.
    Value(u128),
    /// A composite of implicit parts made by `DIOpExtend` or `DIOpSelect`,
    /// by its value. Read, it is the value; used as a location, it would
    /// have to be built as the reference builds it, so narrow evaluation
    /// declines instead.
    Lanes(u128),
    /// `Narrow::locs[i]`.
    Loc(usize),
    /// An input's location description, in the context.
    Input(&'e LocDesc),
}

struct Entry<'e> {
    ty: Ty<'e>,
    /// `bitsizeof(ty)`.
    bits: u64,
    held: Held<'e>,
}

/// The stack and what evaluating an op needs.
struct Narrow<'e> {
    ctx: &'e dyn Context,
    layout: &'e DataLayout,
    stack: SmallVec<[Entry<'e>; 8]>,
    /// The location descriptions of `Held::Loc` entries; an entry's is
    /// taken (left `None`) when the entry is used as a location.
    locs: SmallVec<[Option<LocDesc>; 8]>,
    /// The inputs read so far, by the address of their location
    /// description in the context, with the bits read and the value: the
    /// context does not change while an expression is evaluated, so an
    /// input read again (`x * x + x`) reads the same bits.
    input_reads: SmallVec<[(*const LocDesc, u64, u128); 2]>,
    /// `DIOpExtend` and `DIOpSelect` ops evaluated: each composite of lanes
    /// is at most this deep, so while it is at most `MAX_LOCATION_DEPTH`
    /// none is too deep.
    made: u32,
}

impl<'e> Narrow<'e> {
    fn pop(&mut self) -> Result<Entry<'e>, Declined> {
        self.stack.pop().ok_or(Declined)
    }
    fn bits(&self, t: Ty) -> Result<u64, Declined> {
        narrow_bits(self.layout, t)
    }
    fn push(&mut self, ty: Ty<'e>, bits: u64, held: Held<'e>) {
        self.stack.push(Entry { ty, bits, held });
    }
    /// Pushes `(L:T)` for a location description `L`.
    fn push_loc(&mut self, ty: Ty<'e>, bits: u64, loc: LocDesc) {
        self.locs.push(Some(loc));
        let held = Held::Loc(self.locs.len() - 1);
        self.push(ty, bits, held);
    }
    /// `read(L, T)` of an entry.
    #[inline]
    fn read(&mut self, e: &Entry) -> Result<u128, Declined> {
        match &e.held {
            Held::Value(v) | Held::Lanes(v) => Ok(*v),
            Held::Loc(i) => self.read_loc(self.locs[*i].as_ref().ok_or(Declined)?, e.bits),
            Held::Input(l) => {
                let key = (*l as *const LocDesc, e.bits);
                if let Some(&(.., v)) = self.input_reads.iter().find(|r| (r.0, r.1) == key) {
                    return Ok(v);
                }
                let v = self.read_loc(l, e.bits)?;
                self.input_reads.push((key.0, key.1, v));
                Ok(v)
            }
        }
    }
    fn read_loc(&self, l: &LocDesc, bits: u64) -> Result<u128, Declined> {
        read(self.ctx, l, bits)
            .ok()
            .and_then(|b| b.small())
            .ok_or(Declined)
    }
    /// The location description of an entry.
    fn loc(&mut self, e: Entry) -> Result<LocDesc, Declined> {
        match e.held {
            Held::Value(v) => Ok(LocDesc::implicit(Bits::from_u128(e.bits, v))),
            Held::Lanes(_) => Err(Declined),
            // The last location made is usually the first used: its slot
            // is freed for the next.
            Held::Loc(i) if i + 1 == self.locs.len() => self.locs.pop().flatten().ok_or(Declined),
            Held::Loc(i) => self.locs[i].take().ok_or(Declined),
            Held::Input(l) => Ok(l.clone()),
        }
    }
    /// Pops `(L1:T) (L2:T)` of an integral binary op: `(T, its bits,
    /// read(L1, T), read(L2, T))`.
    fn pop_integral_pair(&mut self) -> Result<(Ty<'e>, u64, u128, u128), Declined> {
        let e1 = self.pop()?;
        let e2 = self.pop()?;
        if !e1.ty.same(e2.ty) || !e1.ty.is_integral() {
            return Err(Declined);
        }
        let (v1, v2) = (self.read(&e1)?, self.read(&e2)?);
        Ok((e1.ty, e1.bits, v1, v2))
    }
    /// Pushes the value `v` (truncated to `w` bits) of an integral binary op.
    fn push_value(&mut self, t: Ty<'e>, w: u64, v: u128) -> Step {
        self.push(t, w, Held::Value(v & mask(w)));
        Ok(())
    }
}

/// Evaluates `expr` in `ctx` when every type in it is narrow, giving
/// exactly what `eval` gives; `None` when it declines (outside its subset,
/// or an error of any kind). See the module's documentation.
pub fn eval_narrow(expr: &Expr, ctx: &dyn Context) -> Option<Evaluated> {
    run(expr, ctx).ok()
}

fn run<'e>(expr: &'e Expr, ctx: &'e dyn Context) -> Result<Evaluated, Declined> {
    if expr.ops.is_empty() || expr.ops.len() > MAX_OPS {
        return Err(Declined);
    }
    let mut m = Narrow {
        ctx,
        layout: ctx.layout(),
        stack: SmallVec::new(),
        locs: SmallVec::new(),
        input_reads: SmallVec::new(),
        made: 0,
    };
    let last = expr.ops.len() - 1;
    let mut fragment = None;
    for (i, op) in expr.ops.iter().enumerate() {
        narrow_op(&mut m, op, i == last)?;
        if let Op::Fragment(o, s) = op {
            fragment = Some((*o, *s));
        }
    }
    // "If the stack does not have a single element after evaluation, then
    // the expression is not well-formed", and a fragment's size is the
    // result's (D-fragment).
    let (Some(e), true) = (m.stack.pop(), m.stack.is_empty()) else {
        return Err(Declined);
    };
    if fragment.is_some_and(|(_, s)| s != e.bits) {
        return Err(Declined);
    }
    Ok(Evaluated {
        ty: e.ty.to_type(),
        loc: m.loc(e)?,
        fragment,
    })
}

/// One op: the one `narrow_<op>` per operation, in the spec's order.
fn narrow_op<'e>(m: &mut Narrow<'e>, op: &'e Op, last: bool) -> Step {
    match op {
        Op::Referrer(t) => narrow_referrer(m, t),
        Op::Arg(n, t) => narrow_arg(m, *n, t),
        Op::TypeObject(t) => narrow_type_object(m, t),
        Op::Constant(t, v) => narrow_constant(m, t, v),
        Op::Convert(t) => narrow_convert(m, t),
        Op::ZExt(t) => narrow_zext(m, t),
        Op::SExt(t) => narrow_sext(m, t),
        Op::Reinterpret(t) => narrow_reinterpret(m, t),
        Op::BitOffset(t) => narrow_bit_offset(m, t),
        Op::ByteOffset(t) => narrow_byte_offset(m, t),
        Op::Composite(n, t) => narrow_composite(m, *n, t),
        Op::Extend(n) => narrow_extend(m, *n),
        Op::Select => narrow_select(m),
        Op::AddrOf(_) => Err(Declined),
        Op::Deref(t) => narrow_deref(m, t),
        Op::Read => narrow_read(m),
        Op::Add => narrow_add(m),
        Op::Sub => narrow_sub(m),
        Op::Mul => narrow_mul(m),
        Op::Div => narrow_div(m),
        Op::LShr => narrow_lshr(m),
        Op::AShr => narrow_ashr(m),
        Op::Shl => narrow_shl(m),
        Op::PushLane(t) => narrow_push_lane(m, t),
        Op::Fragment(o, s) => narrow_fragment(*o, *s, last),
        Op::And => narrow_and(m),
        Op::Or => narrow_or(m),
        Op::Xor => narrow_xor(m),
        Op::Mod => narrow_mod(m),
    }
}

/// An input of the expression (the referrer, an argument, the type
/// object) as `(L:T)`: `T` has the input's bits.
fn input<'e>(m: &mut Narrow<'e>, t: &'e Type, input: Option<&'e crate::context::Input>) -> Step {
    let bits = m.bits(Ty::Op(t))?;
    let i = input.ok_or(Declined)?;
    if m.layout.bitsizeof(&i.ty) != bits {
        return Err(Declined);
    }
    m.push(Ty::Op(t), bits, Held::Input(&i.loc));
    Ok(())
}

/// `DIOpReferrer(T:type) { -> (L:T) }`
fn narrow_referrer<'e>(m: &mut Narrow<'e>, t: &'e Type) -> Step {
    input(m, t, m.ctx.referrer())
}

/// `DIOpArg(N:unsigned, T:type) { -> (L:T) }`
fn narrow_arg<'e>(m: &mut Narrow<'e>, n: u32, t: &'e Type) -> Step {
    input(m, t, m.ctx.args().get(n as usize))
}

/// `DIOpTypeObject(T:type) { -> (L:T) }`
fn narrow_type_object<'e>(m: &mut Narrow<'e>, t: &'e Type) -> Step {
    input(m, t, m.ctx.type_object())
}

/// `DIOpConstant(T:type V:literal) { -> (L:T) }`: `undef` is the undefined
/// location description, any other literal an implicit one.
fn narrow_constant<'e>(m: &mut Narrow<'e>, t: &'e Type, v: &Literal) -> Step {
    let bits = m.bits(Ty::Op(t))?;
    match literal_bits(t, v, m.layout).map_err(|_| Declined)? {
        None => m.push_loc(Ty::Op(t), bits, LocDesc::undefined()),
        Some(b) => m.push(Ty::Op(t), bits, Held::Value(b.small().ok_or(Declined)?)),
    }
    Ok(())
}

/// `DIOpConvert(T':type) { (L:T) -> (L':T') }` between narrow scalars:
/// integral to integral truncates, and pointers convert as unsigned
/// integers (D-convert-semantics); a wider integral `T'` is ill-formed.
fn narrow_convert<'e>(m: &mut Narrow<'e>, to: &'e Type) -> Step {
    let to = Ty::Op(to);
    let w = m.bits(to)?;
    let e = m.pop()?;
    if !e.ty.is_scalar() || !to.is_scalar() || e.ty.is_integral() && to.is_integral() && w > e.bits
    {
        return Err(Declined);
    }
    let v = m.read(&e)?;
    m.push_value(to, w, v)
}

/// `DIOpZExt` and `DIOpSExt`: both types integral, `T'` wider.
fn extension<'e>(m: &mut Narrow<'e>, to: &'e Type) -> Result<(Ty<'e>, u64, Entry<'e>), Declined> {
    let to = Ty::Op(to);
    let w = m.bits(to)?;
    let e = m.pop()?;
    if !e.ty.is_integral() || !to.is_integral() || w <= e.bits {
        return Err(Declined);
    }
    Ok((to, w, e))
}

/// `DIOpZExt(T':type) { (L:T) -> (L':T') }`
fn narrow_zext<'e>(m: &mut Narrow<'e>, to: &'e Type) -> Step {
    let (to, w, e) = extension(m, to)?;
    let v = m.read(&e)?;
    m.push_value(to, w, v)
}

/// `DIOpSExt(T':type) { (L:T) -> (L':T') }`
fn narrow_sext<'e>(m: &mut Narrow<'e>, to: &'e Type) -> Step {
    let (to, w, e) = extension(m, to)?;
    let v = m.read(&e)?;
    m.push_value(to, w, signed(v, e.bits) as u128)
}

/// `DIOpReinterpret(T':type) { (L:T) -> (L:T') }`: the same bits.
fn narrow_reinterpret<'e>(m: &mut Narrow<'e>, to: &'e Type) -> Step {
    let to = Ty::Op(to);
    let w = m.bits(to)?;
    let e = m.pop()?;
    if e.bits != w {
        return Err(Declined);
    }
    m.push(to, w, e.held);
    Ok(())
}

/// Moves the location under the offset by `read(B, I) * scale` bits, `B`
/// signed (D-offset-signed), by the reference's `offset_by_small`.
fn offset<'e>(m: &mut Narrow<'e>, to: &'e Type, scale: i128) -> Step {
    let to = Ty::Op(to);
    let w = m.bits(to)?;
    let b = m.pop()?;
    if !b.ty.is_integral() {
        return Err(Declined);
    }
    let l = m.pop()?;
    let d = signed(m.read(&b)?, b.bits)
        .checked_mul(scale)
        .ok_or(Declined)?;
    let moved = m.loc(l)?.offset_by_small(m.ctx, d).map_err(|_| Declined)?;
    m.push_loc(to, w, moved);
    Ok(())
}

/// `DIOpBitOffset(T':type) { (B:I) (L:T) -> (L':T') }`
fn narrow_bit_offset<'e>(m: &mut Narrow<'e>, to: &'e Type) -> Step {
    offset(m, to, 1)
}

/// `DIOpByteOffset(T':type) { (B:I) (L:T) -> (L':T') }`: `B * 8` exact
/// (D-byteoffset-exact).
fn narrow_byte_offset<'e>(m: &mut Narrow<'e>, to: &'e Type) -> Step {
    offset(m, to, 8)
}

/// `DIOpComposite(N:unsigned, T:type) { (L1:T1) ... (LN:TN) -> (L:T) }`:
/// the parts' bits add up to `T`'s, `LN` at offset 0 (D-stack-order), by
/// the reference's `composite`.
fn narrow_composite<'e>(m: &mut Narrow<'e>, n: u32, t: &'e Type) -> Step {
    let t = Ty::Op(t);
    let w = m.bits(t)?;
    if n == 0 || n as usize > m.stack.len() {
        return Err(Declined);
    }
    let mut parts = Vec::with_capacity(n as usize);
    let mut sum = 0u64;
    for _ in 0..n {
        let e = m.pop()?;
        sum += e.bits;
        parts.push(Part {
            bits: e.bits,
            loc: m.loc(e)?,
        });
    }
    if sum != w {
        return Err(Declined);
    }
    parts.reverse();
    let loc = composite(parts).map_err(|_| Declined)?;
    m.push_loc(t, w, loc);
    Ok(())
}

/// `DIOpExtend(N:unsigned) { (L:T) -> (L':<N x T>) }` of a value: `N`
/// copies of it, the first in the low bits.
fn narrow_extend(m: &mut Narrow<'_>, n: u32) -> Step {
    let e = m.pop()?;
    let Ty::Op(elem) = e.ty else {
        return Err(Declined);
    };
    // `N` is at least 1 and at most `MAX_VECTOR_COUNT` (D-extend-zero), and
    // a narrow vector has at most `WIDEST` lanes of at least one bit each.
    if !e.ty.is_scalar() || n == 0 || u64::from(n) > MAX_VECTOR_COUNT.min(WIDEST) {
        return Err(Declined);
    }
    let ty = Ty::Vector { count: n, elem };
    let w = m.bits(ty)?;
    let (Held::Value(v) | Held::Lanes(v)) = e.held else {
        return Err(Declined);
    };
    m.made += 1;
    if m.made > MAX_LOCATION_DEPTH {
        return Err(Declined);
    }
    // Doubling the copies made so far: `log2(N)` steps.
    let (mut copies, mut filled) = (v, e.bits);
    while filled < w {
        copies |= copies << filled;
        filled *= 2;
    }
    m.push(ty, w, Held::Lanes(copies & mask(w)));
    Ok(())
}

/// `DIOpSelect() { (LM:TM) (L1:<N x T>) (L0:<N x T>) -> (L:<N x T>) }` of
/// two values: lane `I` from `L1` where bit `I` of the mask is set, from
/// `L0` where it is clear. The mask is integral or a vector of integral
/// elements of at least `N` bits (D-select-mask-bits).
fn narrow_select(m: &mut Narrow<'_>) -> Step {
    let lm = m.pop()?;
    let l1 = m.pop()?;
    let l0 = m.pop()?;
    let Some((count, elem)) = l1.ty.vector() else {
        return Err(Declined);
    };
    let integral_mask = match lm.ty.vector() {
        Some((_, e)) => e.is_integral(),
        None => lm.ty.is_integral(),
    };
    if l0.ty.vector().is_none()
        || !l1.ty.same(l0.ty)
        || !Ty::Op(elem).is_scalar()
        || !integral_mask
        || lm.bits < count
    {
        return Err(Declined);
    }
    let mask_bits = m.read(&lm)?;
    let (Held::Value(v1) | Held::Lanes(v1), Held::Value(v0) | Held::Lanes(v0)) =
        (&l1.held, &l0.held)
    else {
        return Err(Declined);
    };
    m.made += 1;
    if m.made > MAX_LOCATION_DEPTH {
        return Err(Declined);
    }
    let size = l1.bits / count;
    // The bits of the lanes taken from `L1`: one lane's mask at each set
    // bit of the mask's low `N` bits.
    let (mut rest, mut lanes) = (mask_bits & mask(count), 0u128);
    while rest != 0 {
        lanes |= mask(size) << (u64::from(rest.trailing_zeros()) * size);
        rest &= rest - 1;
    }
    let value = (v1 & lanes) | (v0 & !lanes);
    m.push(l1.ty, l1.bits, Held::Lanes(value));
    Ok(())
}

/// `DIOpDeref(T:type) { (L:ptr addrspace(N)) -> (L':T) }`: the memory
/// location at `read(L) * 8` in address space `N`, which must be memory
/// dioptra models (D-wide-pointers).
fn narrow_deref<'e>(m: &mut Narrow<'e>, t: &'e Type) -> Step {
    let t = Ty::Op(t);
    let w = m.bits(t)?;
    let p = m.pop()?;
    let Ty::Op(Type::Ptr { addrspace, .. }) = p.ty else {
        return Err(Declined);
    };
    m.layout
        .memory_pointer_bits(*addrspace)
        .map_err(|_| Declined)?;
    // An implicit address (made by `DIOpAddrOf`) cannot be read, so narrow
    // evaluation declines it here; the reference dereferences it to the
    // location it holds.
    let addr = m.read(&p)?;
    let loc = LocDesc::single(
        Storage::Memory {
            addrspace: *addrspace,
        },
        addr * 8,
    );
    m.push_loc(t, w, loc);
    Ok(())
}

/// `DIOpRead() { (L:T) -> (L':T) }`: the value `read(L, T)`.
fn narrow_read(m: &mut Narrow<'_>) -> Step {
    let e = m.pop()?;
    let v = m.read(&e)?;
    m.push(e.ty, e.bits, Held::Value(v));
    Ok(())
}

/// `DIOpAdd() { (L1:T) (L2:T) -> (L:T) }`: `V2 + V1`, wrapping
/// (D-integer-wrap).
fn narrow_add(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    m.push_value(t, w, v2.wrapping_add(v1))
}

/// `DIOpSub() { (L1:T) (L2:T) -> (L:T) }`: `V2 - V1`
/// (D-binary-operand-order).
fn narrow_sub(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    m.push_value(t, w, v2.wrapping_sub(v1))
}

/// `DIOpMul() { (L1:T) (L2:T) -> (L:T) }`: `V2 * V1`, wrapping.
fn narrow_mul(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    m.push_value(t, w, v2.wrapping_mul(v1))
}

/// `DIOpDiv() { (L1:T) (L2:T) -> (L:T) }`: `V2 / V1`, signed, truncating;
/// a zero divisor or a quotient that does not fit `T` is an error
/// (D-div-signed), so narrow evaluation declines.
fn narrow_div(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    let q = signed(v2, w)
        .checked_div(signed(v1, w))
        .filter(|q| w >= 128 || (-(1i128 << (w - 1))..(1i128 << (w - 1))).contains(q))
        .ok_or(Declined)?;
    m.push_value(t, w, q as u128)
}

/// The shift amount, read unsigned and saturated at the width
/// (D-shift-amounts).
fn shift_amount(v: u128, w: u64) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX).min(w)
}

/// `DIOpLShr() { (L1:T) (L2:T) -> (L:T) }`: zeros in; an amount of at
/// least the width gives 0.
fn narrow_lshr(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    let s = shift_amount(v1, w);
    m.push_value(t, w, if s >= 128 { 0 } else { v2 >> s })
}

/// `DIOpAShr() { (L1:T) (L2:T) -> (L:T) }`: sign bits in.
fn narrow_ashr(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    let s = shift_amount(v1, w);
    m.push_value(t, w, (signed(v2, w) >> s.min(127)) as u128)
}

/// `DIOpShl() { (L1:T) (L2:T) -> (L:T) }`: zeros in; an amount of at least
/// the width gives 0.
fn narrow_shl(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    let s = shift_amount(v1, w);
    m.push_value(t, w, if s >= w { 0 } else { v2 << s })
}

/// `DIOpPushLane(T:type) { -> (L:T) }`: on a SIMD/SIMT target (D-simt),
/// the lane, which must fit `T` (D-lane-range).
fn narrow_push_lane<'e>(m: &mut Narrow<'e>, t: &'e Type) -> Step {
    let t = Ty::Op(t);
    let w = m.bits(t)?;
    let lane = m.ctx.lane().ok_or(Declined)?;
    if !t.is_integral() || w < 64 && lane >> w != 0 {
        return Err(Declined);
    }
    m.push(t, w, Held::Value(u128::from(lane)));
    Ok(())
}

/// `DIOpFragment(O:unsigned, S:unsigned) { -> }`: the last op, of at least
/// one bit (D-fragment; its size is checked against the result at the end).
fn narrow_fragment(o: u64, s: u64, last: bool) -> Step {
    if !last || s == 0 || o.checked_add(s).is_none() {
        return Err(Declined);
    }
    Ok(())
}

/// ROCm `DIOpAnd() { (L1:T) (L2:T) -> (L:T) }`: `V2 & V1`.
fn narrow_and(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    m.push_value(t, w, v2 & v1)
}

/// ROCm `DIOpOr() { (L1:T) (L2:T) -> (L:T) }`: `V2 | V1`.
fn narrow_or(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    m.push_value(t, w, v2 | v1)
}

/// ROCm `DIOpXor() { (L1:T) (L2:T) -> (L:T) }`: `V2 ^ V1`.
fn narrow_xor(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    m.push_value(t, w, v2 ^ v1)
}

/// ROCm `DIOpMod() { (L1:T) (L2:T) -> (L:T) }`: the signed remainder, with
/// the sign of the dividend (D-mod-signed); a zero divisor is an error.
fn narrow_mod(m: &mut Narrow<'_>) -> Step {
    let (t, w, v1, v2) = m.pop_integral_pair()?;
    let r = signed(v2, w).checked_rem(signed(v1, w)).ok_or(Declined)?;
    m.push_value(t, w, r as u128)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::ConcreteContext;
    use crate::eval::{eval, eval_reference};
    use crate::text::parse_expr;

    fn context() -> ConcreteContext {
        ConcreteContext::parse(
            r#"(context
                 (register 3 "00 01 00 00")
                 (memory 5 0x100 "2a 00 00 00 ff ff ff ff ?? ?? 30 40")
                 (referrer "ptr addrspace(5)" "reg(3)")
                 (arg "i64" "mem(5, 0x100)")
                 (lane 7))"#,
        )
        .unwrap()
    }

    /// What the module's documentation says it declines, it declines, and
    /// `eval` then gives the reference's answer, result or diagnostic.
    #[test]
    fn what_it_does_not_hold_is_declined_and_left_to_the_reference() {
        let ctx = context();
        for text in [
            // Outside the subset.
            "DIOpConstant(float 1.5)",
            "DIOpConstant(i129 1)",
            "DIOpConstant(i64 1), DIOpZExt(i129), DIOpConvert(i64)",
            "DIOpConstant(i32 1), DIOpAddrOf(5), DIOpDeref(i32)",
            "DIOpConstant(i8 1), DIOpExtend(2)",
            "DIOpConstant(i8 1), DIOpExtend(2), DIOpConstant(i8 0), DIOpBitOffset(i16)",
            // Errors: evaluation, then well-formedness.
            "DIOpConstant(i8 undef), DIOpRead()",
            "DIOpConstant(i8 1), DIOpConstant(i8 0), DIOpDiv()",
            "DIOpConstant(i8 -128), DIOpConstant(i8 -1), DIOpDiv()",
            "DIOpReferrer(ptr addrspace(5)), DIOpDeref(i32), DIOpConstant(i8 8), DIOpByteOffset(i32), DIOpRead()",
            "DIOpConstant(i8 1), DIOpConstant(i16 1), DIOpAdd()",
            "DIOpConstant(i8 1), DIOpConstant(i8 1)",
            "DIOpFragment(0, 8), DIOpConstant(i8 1)",
            "DIOpConstant(i8 1), DIOpFragment(0, 16)",
        ] {
            let e = parse_expr(text).unwrap();
            assert_eq!(eval_narrow(&e, &ctx), None, "{text}");
            assert_eq!(eval(&e, &ctx), eval_reference(&e, &ctx), "{text}");
        }
    }

    /// Narrow expressions of each kind are answered, with the reference's
    /// result.
    #[test]
    fn narrow_expressions_are_answered_with_the_references_result() {
        let ctx = context();
        for text in [
            "DIOpReferrer(ptr addrspace(5)), DIOpDeref(i64), DIOpConstant(i8 2), DIOpByteOffset(i16)",
            "DIOpArg(0, i64), DIOpArg(0, i64), DIOpMul(), DIOpConstant(i64 3), DIOpAShr()",
            "DIOpConstant(i128 -1), DIOpConstant(i128 -1), DIOpAdd(), DIOpFragment(0, 128)",
            "DIOpConstant(i8 undef)",
            "DIOpPushLane(i4), DIOpExtend(4), DIOpConstant(i4 2), DIOpExtend(4), DIOpConstant(i4 5), DIOpSelect(), DIOpRead()",
            "DIOpArg(0, i64), DIOpConstant(i32 9), DIOpComposite(2, i96), DIOpConstant(i8 32), DIOpBitOffset(i32)",
            "DIOpConstant(i8 -3), DIOpSExt(i65), DIOpReinterpret(<5 x i13>), DIOpRead()",
        ] {
            let e = parse_expr(text).unwrap();
            let r = eval_reference(&e, &ctx).unwrap_or_else(|d| panic!("{text}: {d}"));
            assert_eq!(eval_narrow(&e, &ctx), Some(r), "{text}");
        }
    }
}
