//! Static well-formedness: the type stack of the spec's stack signatures.
//!
//! One `check_<op>` per operation, in the spec's order. Each pops and pushes
//! types as the op's `{ inputs -> outputs }` specification says and reports
//! every "not well-formed" sentence of the op with its own reason code. The
//! rules that depend on the context's contents (reading undefined bits,
//! offsets outside a storage, overlapping composite parts) are evaluation
//! errors instead; see `eval`.

use crate::context::Signature;
use crate::diag::{Diag, Message};
use crate::limits::{MAX_TYPE_BITS, MAX_TYPE_DEPTH, MAX_VECTOR_COUNT, STACK_ROOM};
use crate::syntax::{Expr, Literal, Op};
use crate::types::{vector_type, Type};
use crate::value::literal_bits;
use std::borrow::Cow;

mod stacks;
pub use stacks::{type_stacks, StackId, StackView, TypeStacks};

/// The result of a successful check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The type of the single resulting stack element.
    pub result: Type,
    /// `DIOpFragment(O, S)`, if the expression ends with one.
    pub fragment: Option<(u64, u64)>,
}

/// An entry of the abstract stack: a type, and whether the location will be
/// the implicit address made by `DIOpAddrOf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackTy<'t> {
    /// Borrowed from the op that wrote it where it can be (owned for the
    /// types an op makes: `DIOpExtend`'s vector, `DIOpAddrOf`'s pointer).
    pub ty: Cow<'t, Type>,
    pub addr_of: bool,
}

impl StackTy<'_> {
    /// The entry with a type of its own.
    pub fn into_owned(self) -> StackTy<'static> {
        StackTy {
            ty: Cow::Owned(self.ty.into_owned()),
            addr_of: self.addr_of,
        }
    }
}

/// The abstract stack and what checking an op needs.
pub struct TypeStack<'a> {
    pub sig: &'a Signature,
    pub entries: Vec<StackTy<'a>>,
    /// The op being checked, for messages.
    op: &'static str,
    index: usize,
    /// The fewest entries the stack held since [`TypeStack::kept`] last
    /// asked: the entries below are the ones it held then.
    low: usize,
}

impl<'a> TypeStack<'a> {
    /// The stack `entries` under `sig` (empty: before an expression's first op).
    pub fn new(sig: &'a Signature, entries: Vec<StackTy<'a>>) -> TypeStack<'a> {
        TypeStack {
            sig,
            low: entries.len(),
            entries,
            op: "DIExpr",
            index: 0,
        }
    }
    /// How many entries from the bottom are the ones the stack held when
    /// this was last asked (or when it was made): none of them was popped
    /// since. Starts counting again.
    pub fn kept(&mut self) -> usize {
        std::mem::replace(&mut self.low, self.entries.len())
    }
}

impl<'a> TypeStack<'a> {
    #[cold]
    fn ill(&self, reason: &'static str, msg: impl Into<Message>) -> Diag {
        let (index, msg) = (self.index, msg.into());
        Diag::ill(
            self.op,
            reason,
            Message::later(move || format!("op {index}: {msg}")),
        )
    }
    /// "If evaluation can result in a stack with fewer entries than required
    /// by an operation, then the expression is not well-formed."
    #[inline]
    fn pop_any(&mut self) -> Result<StackTy<'a>, Diag> {
        let e = self
            .entries
            .pop()
            .ok_or_else(|| self.ill("stack-underflow", "the stack has too few entries"))?;
        self.low = self.low.min(self.entries.len());
        Ok(e)
    }
    /// Pops an entry that is not an implicit address. Spec, `DIOpAddrOf`: "If
    /// `DIOpDeref(T)` is applied to the resulting `(L':ptr addrspace(N))`, then
    /// it will result in `(L:T)`. If any other operation is applied, then the
    /// expression is not well-formed."
    ///
    /// DECISION (D-addrof-strict): taken at its word: any op but `DIOpDeref`
    /// that consumes an implicit address (`DIOpComposite`, `DIOpReinterpret`,
    /// `DIOpRead`, another `DIOpAddrOf`, ...) is not well-formed
    /// (`addrof-operand`), even where a meaning could be guessed (a struct
    /// holding an implicit pointer). The implicit address may be the result
    /// of the expression: that is an implicit pointer variable.
    #[inline]
    fn pop(&mut self) -> Result<Cow<'a, Type>, Diag> {
        let e = self.pop_any()?;
        if e.addr_of {
            return Err(self.addrof_operand(&e.ty));
        }
        Ok(e.ty)
    }
    #[cold]
    fn addrof_operand(&self, t: &Type) -> Diag {
        let t = t.clone();
        self.ill(
            "addrof-operand",
            Message::later(move || {
                format!("the `{t}` entry was made by DIOpAddrOf; only DIOpDeref may use it")
            }),
        )
    }
    #[inline]
    fn push(&mut self, ty: Cow<'a, Type>) {
        self.entries.push(StackTy { ty, addr_of: false });
    }
    fn bits(&self, t: &Type) -> u64 {
        self.sig.layout.bitsizeof(t)
    }
    /// A type written in the op must be within dioptra's size bounds.
    #[inline]
    fn sized(&self, t: &Type) -> Result<u64, Diag> {
        // An integer within the bounds, inlined (most ops' types).
        match t {
            Type::Int(w @ 1..=MAX_TYPE_BITS) => Ok(*w),
            _ => self.sized_any(t),
        }
    }
    #[inline(never)]
    fn sized_any(&self, t: &Type) -> Result<u64, Diag> {
        self.sig
            .layout
            .check_size(t)
            .map_err(|e| e.at_place(format!("op {}", self.index)))
    }
    /// Pops `(L1:T) (L2:T)` of a binary op and returns `T`.
    fn pop_same_pair(&mut self) -> Result<Cow<'a, Type>, Diag> {
        let t1 = self.pop()?;
        let t2 = self.pop()?;
        if !t1.same(&t2) {
            let (t1, t2) = (t1.into_owned(), t2.into_owned());
            return Err(self.ill(
                "type-mismatch",
                Message::later(move || {
                    format!("both inputs must have the same type, found `{t1}` (top) and `{t2}`")
                }),
            ));
        }
        Ok(t1)
    }
}

fn type_depth(t: &Type) -> usize {
    match t {
        Type::Vector { elem, .. } | Type::Array { elem, .. } => 1 + type_depth(elem),
        Type::Struct { fields, .. } => 1 + fields.iter().map(type_depth).max().unwrap_or(0),
        Type::Ptr {
            pointee: Some(p), ..
        } => 1 + type_depth(p),
        _ => 0,
    }
}

/// Checks an expression against a signature, returning the result type.
///
/// Spec, `DIExpr`: "Represents an expression, which is a sequence of one or
/// more operations" and "If the stack does not have a single element after
/// evaluation, then the expression is not well-formed."
pub fn check(expr: &Expr, sig: &Signature) -> Result<Checked, Diag> {
    check_ops(&expr.ops, sig)
}

/// `check` of the expression made of `ops` (a prefix of another, say),
/// without building it.
pub fn check_ops(ops: &[Op], sig: &Signature) -> Result<Checked, Diag> {
    check_observed(ops, sig, &mut |_, _, _| {})
}

/// `check`, calling `before(i, top)` with the top entry of the stack
/// before op `i` is checked (`None`: empty), for a caller that looks at
/// each op with the type under it (the canonicalizer's rules) and needs
/// no more of the stacks.
pub fn check_with_tops<'a>(
    ops: &'a [Op],
    sig: &'a Signature,
    before: &mut dyn FnMut(usize, Option<&StackTy<'a>>),
) -> Result<Checked, Diag> {
    check_observed(ops, sig, &mut |i, entries, _| before(i, entries.last()))
}

/// `check`, calling `before(i, stack, kept)` before op `i` is checked:
/// the lowest `kept` entries of `stack` are those it had before op `i - 1`
/// (none of them was popped since).
fn check_observed<'a>(
    ops: &'a [Op],
    sig: &'a Signature,
    before: &mut dyn FnMut(usize, &[StackTy<'a>], usize),
) -> Result<Checked, Diag> {
    if ops.is_empty() {
        return Err(Diag::ill(
            "DIExpr",
            "empty",
            "an expression has one or more operations",
        ));
    }
    let mut st = TypeStack::new(sig, Vec::with_capacity(ops.len().min(STACK_ROOM)));
    let mut fragment = None;
    let last = ops.len() - 1;
    for (i, op) in ops.iter().enumerate() {
        let kept = st.kept();
        before(i, &st.entries, kept);
        check_op(&mut st, op, i, i == last)?;
        if let Op::Fragment(o, s) = op {
            fragment = Some((*o, *s));
        }
    }
    finish(&st, fragment)
}

/// The rules on the stack the last op leaves: "If the stack does not have
/// a single element after evaluation, then the expression is not
/// well-formed", and a fragment's size is the result's (D-fragment).
fn finish(st: &TypeStack, fragment: Option<(u64, u64)>) -> Result<Checked, Diag> {
    finish_unformatted(st, fragment).map_err(|e| e.diag())
}

/// [`finish`] with the common failure, a stack of another size, not yet
/// written as a diagnostic (most prefixes of an expression end so, and a
/// campaign discards them).
fn finish_unformatted(
    st: &TypeStack,
    fragment: Option<(u64, u64)>,
) -> Result<Checked, PrefixError<'static>> {
    let [entry] = st.entries.as_slice() else {
        return Err(PrefixError::StackSize(st.entries.len()));
    };
    let result = entry.ty.clone().into_owned();
    if let Some((_, s)) = fragment {
        let b = st.bits(&result);
        if b != s {
            return Err(PrefixError::Owned(Diag::ill(
                "DIOpFragment",
                "size-mismatch",
                format!("the fragment is {s} bits but the expression's result `{result}` has {b}"),
            )));
        }
    }
    Ok(Checked { result, fragment })
}

/// Why a prefix is not well-formed ([`check_prefixes`]), its diagnostic
/// written only when asked for: [`PrefixError::diag`] is what
/// `check_ops` of the prefix returns.
#[derive(Debug)]
pub enum PrefixError<'d> {
    /// It leaves this many entries, not one.
    StackSize(usize),
    Owned(Diag),
    /// The first error of a shorter prefix, every longer one's.
    Shorter(&'d Diag),
}

impl PrefixError<'_> {
    pub fn diag(&self) -> Diag {
        match self {
            PrefixError::StackSize(n) => Diag::ill(
                "DIExpr",
                "result-stack-size",
                format!(
                    "the stack must hold exactly one entry after the last operation, it holds {n}"
                ),
            ),
            PrefixError::Owned(d) => d.clone(),
            PrefixError::Shorter(d) => (*d).clone(),
        }
    }
}

/// `check_ops` of every prefix of `ops` in one pass: `each(n, r)` gets
/// what `check_ops(&ops[..n], sig)` returns (its diagnostic as a
/// [`PrefixError`]), for `n` from 1 to `ops.len()` in turn. Only
/// `DIOpFragment` is checked differently as the last op and as an inner one
/// ("not-last"); every other op's rules do not depend on what follows it,
/// so the stack after op `n - 1` is the same for every prefix that
/// contains it, and the first error is every longer prefix's.
pub fn check_prefixes<'a>(
    ops: &'a [Op],
    sig: &'a Signature,
    each: &mut dyn FnMut(usize, Result<Checked, PrefixError<'_>>),
) {
    let mut st = TypeStack::new(sig, Vec::with_capacity(ops.len().min(STACK_ROOM)));
    let mut failed: Option<Diag> = None;
    for (i, op) in ops.iter().enumerate() {
        if let Some(d) = &failed {
            each(i + 1, Err(PrefixError::Shorter(d)));
            continue;
        }
        let fragment = match op {
            Op::Fragment(o, s) => Some((*o, *s)),
            _ => None,
        };
        match check_op(&mut st, op, i, true) {
            Ok(()) => each(i + 1, finish_unformatted(&st, fragment)),
            Err(d) => {
                each(i + 1, Err(PrefixError::Shorter(&d)));
                failed = Some(d);
            }
        }
        if fragment.is_some() && failed.is_none() {
            // In a longer prefix the fragment is not the last op.
            failed = check_op(&mut st, op, i, false).err();
        }
    }
}

pub fn check_op<'a>(
    st: &mut TypeStack<'a>,
    op: &'a Op,
    index: usize,
    last: bool,
) -> Result<(), Diag> {
    st.op = op.name();
    st.index = index;
    match op {
        Op::Referrer(t) => check_referrer(st, t)?,
        Op::Arg(n, t) => check_arg(st, *n, t)?,
        Op::TypeObject(t) => check_type_object(st, t)?,
        Op::Constant(t, v) => check_constant(st, t, v)?,
        Op::Convert(t) => check_convert(st, t)?,
        Op::ZExt(t) => check_zext(st, t)?,
        Op::SExt(t) => check_sext(st, t)?,
        Op::Reinterpret(t) => check_reinterpret(st, t)?,
        Op::BitOffset(t) => check_bit_offset(st, t)?,
        Op::ByteOffset(t) => check_byte_offset(st, t)?,
        Op::Composite(n, t) => check_composite(st, *n, t)?,
        Op::Extend(n) => check_extend(st, *n)?,
        Op::Select => check_select(st)?,
        Op::AddrOf(n) => check_addr_of(st, *n)?,
        Op::Deref(t) => check_deref(st, t)?,
        Op::Read => check_read(st)?,
        Op::Add => check_add(st)?,
        Op::Sub => check_sub(st)?,
        Op::Mul => check_mul(st)?,
        Op::Div => check_div(st)?,
        Op::LShr => check_lshr(st)?,
        Op::AShr => check_ashr(st)?,
        Op::Shl => check_shl(st)?,
        Op::PushLane(t) => check_push_lane(st, t)?,
        Op::Fragment(o, s) => check_fragment(st, *o, *s, last)?,
        Op::And => check_and(st)?,
        Op::Or => check_or(st)?,
        Op::Xor => check_xor(st)?,
        Op::Mod => check_mod(st)?,
    }
    Ok(())
}

/// `DIOpReferrer(T:type) { -> (L:T) }`
///
/// "If `LS` is not a bounded lifetime segment, then the expression is not
/// well-formed. If `bitsizeof(T)` is not equal to `bitsizeof(R)`, then the
/// expression is not well-formed."
pub fn check_referrer<'a>(st: &mut TypeStack<'a>, t: &'a Type) -> Result<(), Diag> {
    st.sized(t)?;
    let Some(r) = st.sig.referrer.clone() else {
        return Err(st.ill(
            "not-bounded",
            "there is no referrer: the expression does not belong to a bounded lifetime segment",
        ));
    };
    if st.bits(t) != st.bits(&r) {
        return Err(st.ill(
            "size-mismatch",
            format!(
                "`{t}` has {} bits but the referrer `{r}` has {}",
                st.bits(t),
                st.bits(&r)
            ),
        ));
    }
    st.push(Cow::Borrowed(t));
    Ok(())
}

/// `DIOpArg(N:unsigned, T:type) { -> (L:T) }`
///
/// "If there are fewer than `N + 1` inputs to the expression, then the
/// expression is not well-formed. If `bitsizeof(T)` is not equal to
/// `bitsizeof(I)`, then the expression is not well-formed."
pub fn check_arg<'a>(st: &mut TypeStack<'a>, n: u32, t: &'a Type) -> Result<(), Diag> {
    st.sized(t)?;
    let Some(i) = st.sig.args.get(n as usize).cloned() else {
        return Err(st.ill(
            "index-out-of-range",
            format!(
                "input {n} does not exist; there are {} inputs",
                st.sig.args.len()
            ),
        ));
    };
    if st.bits(t) != st.bits(&i) {
        return Err(st.ill(
            "size-mismatch",
            format!(
                "`{t}` has {} bits but input {n} `{i}` has {}",
                st.bits(t),
                st.bits(&i)
            ),
        ));
    }
    st.push(Cow::Borrowed(t));
    Ok(())
}

/// `DIOpTypeObject(T:type) { -> (L:T) }`
///
/// "If `LS` can be evaluated other than to obtain the location description of
/// a type property fragment, then the expression is not well-formed. [...] If
/// `bitsizeof(T)` is not equal to `bitsizeof(LT)`, then the expression is not
/// well-formed."
pub fn check_type_object<'a>(st: &mut TypeStack<'a>, t: &'a Type) -> Result<(), Diag> {
    st.sized(t)?;
    let Some(lt) = st.sig.type_object.clone() else {
        return Err(st.ill(
            "not-type-property",
            "there is no type object: the expression is not evaluated for a type property",
        ));
    };
    if st.bits(t) != st.bits(&lt) {
        return Err(st.ill(
            "size-mismatch",
            format!(
                "`{t}` has {} bits but the type object `{lt}` has {}",
                st.bits(t),
                st.bits(&lt)
            ),
        ));
    }
    st.push(Cow::Borrowed(t));
    Ok(())
}

/// `DIOpConstant(T:type V:literal) { -> (L:T) }`
///
/// "`V` is a literal value of type `T` or the `undef` value."
pub fn check_constant<'a>(st: &mut TypeStack<'a>, t: &'a Type, v: &Literal) -> Result<(), Diag> {
    st.sized(t)?;
    literal_bits(t, v, &st.sig.layout).map_err(|e| e.at_place(format!("op {}", st.index)))?;
    st.push(Cow::Borrowed(t));
    Ok(())
}

/// The conversions `DIOpConvert` accepts.
///
/// DECISION (D-convert-set): the spec limits conversions to "those supported by the target
/// debug format" (`DW_OP_convert`: between base types). dioptra accepts
/// conversions between integral, floating-point and pointer types, except
/// between pointers and floating point; pointers convert as unsigned integers
/// of their size. Vectors and structs are `unsupported-conversion`.
fn convertible(from: &Type, to: &Type) -> bool {
    let ok = |t: &Type| t.is_scalar();
    ok(from)
        && ok(to)
        && !(from.is_pointer() && to.is_float() || from.is_float() && to.is_pointer())
}

/// `DIOpConvert(T':type) { (L:T) -> (L':T') }`
///
/// "If `bitsizeof(T')` is greater than `bitsizeof(T)` and `T'` and `T` are
/// both integral types, then the expression is not well-formed."
pub fn check_convert<'a>(st: &mut TypeStack<'a>, to: &'a Type) -> Result<(), Diag> {
    st.sized(to)?;
    let from = st.pop()?;
    if from.is_integral() && to.is_integral() && st.bits(to) > st.bits(&from) {
        return Err(st.ill(
            "integral-extension",
            format!("`{from}` to the wider `{to}`: use DIOpZExt or DIOpSExt"),
        ));
    }
    if !convertible(&from, to) {
        return Err(st.ill(
            "unsupported-conversion",
            format!("no conversion from `{from}` to `{to}`"),
        ));
    }
    st.push(Cow::Borrowed(to));
    Ok(())
}

fn check_extension<'a>(st: &mut TypeStack<'a>, to: &'a Type) -> Result<(), Diag> {
    st.sized(to)?;
    let from = st.pop()?;
    if !from.is_integral() || !to.is_integral() {
        return Err(st.ill(
            "not-integral",
            format!("both types must be integral, found `{from}` to `{to}`"),
        ));
    }
    if st.bits(to) <= st.bits(&from) {
        return Err(st.ill("not-wider", format!("`{to}` is not wider than `{from}`")));
    }
    st.push(Cow::Borrowed(to));
    Ok(())
}

/// `DIOpZExt(T':type) { (L:T) -> (L':T') }`
///
/// "If `T` and `T'` are not integral types, or if `bitsizeof(T')` is less than
/// or equal to `bitsizeof(T)` then the expression is not well-formed."
pub fn check_zext<'a>(st: &mut TypeStack<'a>, to: &'a Type) -> Result<(), Diag> {
    check_extension(st, to)
}

/// `DIOpSExt(T':type) { (L:T) -> (L':T') }`
///
/// "If `T` and `T'` are not integral types, or if `bitsizeof(T')` is less than
/// or equal to `bitsizeof(T)` then the expression is not well-formed."
pub fn check_sext<'a>(st: &mut TypeStack<'a>, to: &'a Type) -> Result<(), Diag> {
    check_extension(st, to)
}

/// `DIOpReinterpret(T':type) { (L:T) -> (L:T') }`
///
/// "If `bitsizeof(T)` is not equal to `bitsizeof(T')`, then the expression is
/// not well-formed."
pub fn check_reinterpret<'a>(st: &mut TypeStack<'a>, to: &'a Type) -> Result<(), Diag> {
    st.sized(to)?;
    let from = st.pop()?;
    if st.bits(&from) != st.bits(to) {
        return Err(st.ill(
            "size-mismatch",
            format!(
                "`{from}` has {} bits, `{to}` has {}",
                st.bits(&from),
                st.bits(to)
            ),
        ));
    }
    st.push(Cow::Borrowed(to));
    Ok(())
}

fn check_offset<'a>(st: &mut TypeStack<'a>, to: &'a Type) -> Result<(), Diag> {
    st.sized(to)?;
    let i = st.pop()?;
    if !i.is_integral() {
        return Err(st.ill(
            "offset-not-integral",
            format!("the offset has type `{i}`, which is not integral"),
        ));
    }
    st.pop()?;
    st.push(Cow::Borrowed(to));
    Ok(())
}

/// `DIOpBitOffset(T':type) { (B:I) (L:T) -> (L':T') }`
///
/// "If `I` is not an integral type, then the expression is not well-defined."
/// (Read as "not well-formed"; see the errata register.)
pub fn check_bit_offset<'a>(st: &mut TypeStack<'a>, to: &'a Type) -> Result<(), Diag> {
    check_offset(st, to)
}

/// `DIOpByteOffset(T':type) { (B:I) (L:T) -> (L':T') }`
///
/// "`(L':T')` is as if `DIOpBitOffset(T')` was evaluated with a stack
/// containing `(B * 8:I) (L:T)`." (So `I` must be integral as there.)
pub fn check_byte_offset<'a>(st: &mut TypeStack<'a>, to: &'a Type) -> Result<(), Diag> {
    check_offset(st, to)
}

/// `DIOpComposite(N:unsigned, T:type) { (L1:T1) (L2:T2) ... (LN:TN) -> (L:T) }`
///
/// "If the sum of `bitsizeof(TM)` for `M` from 1 to `N` does not equal
/// `bitsizeof(T)`, then the expression is not well-formed."
///
/// DECISION (D-composite-zero-parts): `N = 0` is not well-formed (`zero-parts`): no type has zero bits,
/// so the size rule could never hold; the separate code says why.
pub fn check_composite<'a>(st: &mut TypeStack<'a>, n: u32, t: &'a Type) -> Result<(), Diag> {
    let want = st.sized(t)?;
    if type_depth(t) > MAX_TYPE_DEPTH {
        return Err(st.ill("too-deep", format!("`{t}` is nested too deeply")));
    }
    if n == 0 {
        return Err(st.ill("zero-parts", "a composite has at least one part"));
    }
    if n as usize > st.entries.len() {
        return Err(st.ill(
            "stack-underflow",
            format!("{n} parts but the stack has {} entries", st.entries.len()),
        ));
    }
    let mut sum = 0u64;
    for _ in 0..n {
        let tm = st.pop()?;
        sum = sum.saturating_add(st.bits(&tm));
    }
    if sum != want {
        return Err(st.ill(
            "size-mismatch",
            format!("the parts have {sum} bits in all, `{t}` has {want}"),
        ));
    }
    st.push(Cow::Borrowed(t));
    Ok(())
}

/// `DIOpExtend(N:unsigned) { (L:T) -> (L':<N x T>) }`
///
/// "If `T` is not an integral type, floating point type, or pointer type, then
/// the expression is not well-formed."
///
/// DECISION (D-extend-zero): `N = 0` is not well-formed (`zero-count`): `<0 x T>` is not an
/// LLVM type.
pub fn check_extend(st: &mut TypeStack, n: u32) -> Result<(), Diag> {
    let t = st.pop()?;
    if !t.is_scalar() {
        return Err(st.ill(
            "invalid-element-type",
            format!("`{t}` is not an integral, floating-point or pointer type"),
        ));
    }
    if n == 0 {
        return Err(st.ill("zero-count", "`<0 x T>` is not a type"));
    }
    if n as u64 > MAX_VECTOR_COUNT {
        return Err(Diag::unsupported(
            "DIOpExtend",
            "too-large",
            format!(
                "op {}: dioptra evaluates vectors of at most {MAX_VECTOR_COUNT} elements",
                st.index
            ),
        ));
    }
    let v = vector_type(u64::from(n), &t);
    st.sized(&v)?;
    st.push(Cow::Owned(v));
    Ok(())
}

/// `DIOpSelect() { (LM:TM) (L1:<N x T>) (L0:<N x T>) -> (L:<N x T>) }`
///
/// "If `bitsizeof(TM)` is less than `N`, then the expression is not
/// well-formed. [...] If `T` is not an integral type, floating point type, or
/// pointer type, then the expression is not well-formed."
///
/// DECISION (D-select-mask-bits): the mask type `TM` is an integral type or
/// a vector of integral elements (`<N x i1>`, LLVM's own mask type: its
/// lane `I` is bit `I` of `read(LM, TM)`, as vector lane 0 is in the low
/// bits); the spec limits only its size. A floating-point, pointer or
/// struct mask (or a vector of them) is ill-formed (`mask-not-integral`):
/// the spec calls `M` "a bit mask", and such a mask is a type confusion
/// worth reporting.
pub fn check_select(st: &mut TypeStack) -> Result<(), Diag> {
    let tm = st.pop()?;
    let t1 = st.pop()?;
    let t0 = st.pop()?;
    let (Type::Vector { count, elem }, Type::Vector { .. }) = (&*t1, &*t0) else {
        return Err(st.ill(
            "not-a-vector",
            format!("the two sources must be vectors `<N x T>`, found `{t1}` and `{t0}`"),
        ));
    };
    if !t1.same(&t0) {
        return Err(st.ill(
            "type-mismatch",
            format!("the two sources must have the same type, found `{t1}` and `{t0}`"),
        ));
    }
    if !elem.is_scalar() {
        return Err(st.ill(
            "invalid-element-type",
            format!("`{elem}` is not an integral, floating-point or pointer type"),
        ));
    }
    let bit_string = match &*tm {
        Type::Vector { elem, .. } => elem.is_integral(),
        t => t.is_integral(),
    };
    if !bit_string {
        return Err(st.ill("mask-not-integral", format!("the mask has type `{tm}`")));
    }
    if st.bits(&tm) < *count {
        return Err(st.ill(
            "mask-too-narrow",
            format!("the mask `{tm}` has fewer than {count} bits"),
        ));
    }
    st.push(t1);
    Ok(())
}

/// `DIOpAddrOf(N:addrspace) { (L:T) -> (L':ptr addrspace(N)) }`
///
/// "If `DIOpDeref(T)` is applied to the resulting `(L':ptr addrspace(N))`,
/// then it will result in `(L:T)`. If any other operation is applied, then the
/// expression is not well-formed." (Enforced by `TypeStack::pop`.)
pub fn check_addr_of(st: &mut TypeStack, n: u32) -> Result<(), Diag> {
    st.pop()?;
    st.entries.push(StackTy {
        ty: Cow::Owned(Type::ptr(n)),
        addr_of: true,
    });
    Ok(())
}

/// `DIOpDeref(T:type) { (L:ptr addrspace(N)) -> (L':T) }`
///
/// The input must be a pointer (the stack signature binds `ptr addrspace(N)`),
/// and, unless it is an implicit address, into memory dioptra models
/// (D-wide-pointers).
pub fn check_deref<'a>(st: &mut TypeStack<'a>, t: &'a Type) -> Result<(), Diag> {
    st.sized(t)?;
    let p = st.pop_any()?;
    let Some(space) = p.ty.addrspace() else {
        return Err(st.ill(
            "not-a-pointer",
            format!("the input has type `{}`, not `ptr addrspace(N)`", p.ty),
        ));
    };
    if !p.addr_of {
        st.sig
            .layout
            .memory_pointer_bits(space)
            .map_err(|e| e.at_place(format!("op {}", st.index)))?;
    }
    st.push(Cow::Borrowed(t));
    Ok(())
}

/// `DIOpRead() { (L:T) -> (L':T) }`
pub fn check_read(st: &mut TypeStack) -> Result<(), Diag> {
    let t = st.pop()?;
    st.push(t);
    Ok(())
}

/// DECISION (D-arithmetic-types): `DIOpAdd`, `DIOpSub`, `DIOpMul` and `DIOpDiv` take integral or
/// floating-point operands (`not-arithmetic` otherwise). The spec puts no type
/// rule on them, but arithmetic on pointers, vectors or structs has no
/// meaning the spec gives; offsets into memory use `DIOpByteOffset`.
fn check_arithmetic(st: &mut TypeStack) -> Result<(), Diag> {
    let t = st.pop_same_pair()?;
    if !t.is_integral() && !t.is_float() {
        return Err(st.ill(
            "not-arithmetic",
            format!("`{t}` is not an integral or floating-point type"),
        ));
    }
    st.push(t);
    Ok(())
}

/// Shifts and the ROCm bitwise ops: "If `T` is not an integral type, then the
/// expression is not well-formed."
fn check_integral_binary(st: &mut TypeStack) -> Result<(), Diag> {
    let t = st.pop_same_pair()?;
    if !t.is_integral() {
        return Err(st.ill("not-integral", format!("`{t}` is not an integral type")));
    }
    st.push(t);
    Ok(())
}

/// `DIOpAdd() { (L1:T) (L2:T) -> (L:T) }`
pub fn check_add(st: &mut TypeStack) -> Result<(), Diag> {
    check_arithmetic(st)
}

/// `DIOpSub() { (L1:T) (L2:T) -> (L:T) }`
pub fn check_sub(st: &mut TypeStack) -> Result<(), Diag> {
    check_arithmetic(st)
}

/// `DIOpMul() { (L1:T) (L2:T) -> (L:T) }`
pub fn check_mul(st: &mut TypeStack) -> Result<(), Diag> {
    check_arithmetic(st)
}

/// `DIOpDiv() { (L1:T) (L2:T) -> (L:T) }`
pub fn check_div(st: &mut TypeStack) -> Result<(), Diag> {
    check_arithmetic(st)
}

/// `DIOpLShr() { (L1:T) (L2:T) -> (L:T) }`
///
/// "If `T` is not an integral type, then the expression is not well-formed."
pub fn check_lshr(st: &mut TypeStack) -> Result<(), Diag> {
    check_integral_binary(st)
}

/// `DIOpAShr() { (L1:T) (L2:T) -> (L:T) }`
///
/// "If `T` is not an integral type, then the expression is not well-formed."
pub fn check_ashr(st: &mut TypeStack) -> Result<(), Diag> {
    check_integral_binary(st)
}

/// `DIOpShl() { (L1:T) (L2:T) -> (L:T) }`
///
/// "If `T` is not an integral type, then the expression is not well-formed."
pub fn check_shl(st: &mut TypeStack) -> Result<(), Diag> {
    check_integral_binary(st)
}

/// `DIOpPushLane(T:type) { -> (L:T) }`
///
/// DECISION (D-simt): whether the target is SIMD/SIMT is part of the
/// signature: a context is SIMT when it declares a lane, and `dioptra check`
/// assumes SIMT (the extensions are AMDGPU's) unless `--no-simt`.
///
/// "If `T` is not an integral type or the source language is not implemented
/// using a SIMD or SIMT execution model, then the expression is not
/// well-formed."
pub fn check_push_lane<'a>(st: &mut TypeStack<'a>, t: &'a Type) -> Result<(), Diag> {
    st.sized(t)?;
    if !t.is_integral() {
        return Err(st.ill("not-integral", format!("`{t}` is not an integral type")));
    }
    if !st.sig.simt {
        return Err(st.ill(
            "not-simt",
            "the target is not SIMD/SIMT (no lane in the context; `--no-simt`)",
        ));
    }
    st.push(Cow::Borrowed(t));
    Ok(())
}

/// `DIOpFragment(O:unsigned, S:unsigned) { -> }`
///
/// "An operation with no effect, used only as a means to encode the
/// "fragment" position of the debug intrinsic or metadata which refers to the
/// expression in terms of an bit offset `O` and bit size `S`."
///
/// DECISION (D-fragment): a fragment is the last operation (`not-last`; so there is at most
/// one), its size is not zero (`zero-size`) and equals the bit size of the
/// expression's result (`size-mismatch`, checked after the last op): it says
/// which bits of the variable the result describes.
pub fn check_fragment(st: &mut TypeStack, o: u64, s: u64, is_last: bool) -> Result<(), Diag> {
    if !is_last {
        return Err(st.ill("not-last", "DIOpFragment must be the last operation"));
    }
    if s == 0 {
        return Err(st.ill("zero-size", "a fragment has at least one bit"));
    }
    if o.checked_add(s).is_none() {
        return Err(st.ill("size-mismatch", "O + S overflows"));
    }
    Ok(())
}

/// ROCm `DIOpAnd() { (L1:T) (L2:T) -> (L:T) }`
///
/// DECISION (D-rocm-integral): the ROCm ops are not in the normative text;
/// as for the shifts, `T` must be integral (`not-integral`).
pub fn check_and(st: &mut TypeStack) -> Result<(), Diag> {
    check_integral_binary(st)
}

/// ROCm `DIOpOr() { (L1:T) (L2:T) -> (L:T) }`; `T` integral (D-rocm-integral).
pub fn check_or(st: &mut TypeStack) -> Result<(), Diag> {
    check_integral_binary(st)
}

/// ROCm `DIOpXor() { (L1:T) (L2:T) -> (L:T) }`; `T` integral (D-rocm-integral).
pub fn check_xor(st: &mut TypeStack) -> Result<(), Diag> {
    check_integral_binary(st)
}

/// ROCm `DIOpMod() { (L1:T) (L2:T) -> (L:T) }`; `T` integral (D-rocm-integral).
pub fn check_mod(st: &mut TypeStack) -> Result<(), Diag> {
    check_integral_binary(st)
}
