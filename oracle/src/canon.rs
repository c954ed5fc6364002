//! The canonicalizer: one table of named rewrite rules, applied to a
//! fixpoint.
//!
//! Every rule here is an entry of `corpus/rules/canon.rules` of the same
//! name, which `dioptra rule` proves valid for every instantiation (a test
//! fails if an entry is missing or not valid). A rule is applied only inside
//! the domain its proof covers: integer types `i1`..`i64`, the address
//! spaces the proof instantiates, stack inputs that are not implicit
//! addresses (D-smt-input-shapes).
//!
//! Termination: every rule makes the expression shorter, except
//! `mul-power-of-two`, which keeps its length and replaces a `DIOpMul` by a
//! `DIOpShl`; no rule adds a `DIOpMul`. So (number of ops, number of
//! `DIOpMul`) decreases lexicographically with every rewrite, and there are
//! at most `2 * len` rewrites.

use dioptra_semantics::bits::Bits;
use dioptra_semantics::context::Signature;
use dioptra_semantics::diag::Diag;
use dioptra_semantics::syntax::{Expr, Literal, Op};
use dioptra_semantics::types::Type;
use dioptra_semantics::value::literal_bits;
use dioptra_semantics::wellformed::{check_with_tops, type_stacks, StackId, StackTy, TypeStacks};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use std::borrow::Cow;

/// A rule: its name (the law it states, and its entry in
/// corpus/rules/canon.rules) and its rewrite of a window of ops starting at
/// some position, given the stack types before the window.
pub struct Rule {
    pub name: &'static str,
    /// The name of the op every window the rule rewrites starts with: the
    /// canonicalizer tries only the rules whose window starts with the op
    /// at hand (most start with a `DIOpConstant`).
    pub starts: &'static str,
    /// The name of the op every window the rule rewrites has second, if the
    /// rule looks at one: most windows that start with a `DIOpConstant`
    /// are left alone by all but a rule or two, which are the only ones
    /// tried.
    pub then: Option<&'static str>,
    pub rewrite: Rewrite,
}

/// A rule's rewrite: given the ops from some position on and the top entry
/// of the stack before them (no rule looks deeper), how many ops to
/// replace and with what.
pub type Rewrite = fn(&[&Op], Option<&StackTy>, &Signature) -> Option<(usize, Vec<Op>)>;

/// The address spaces `canon.rules` instantiates address-space variables
/// with (the checker's default set); pointers there are proven 32 and 64
/// bits wide.
const PROVEN_ADDRSPACES: [u32; 2] = [0, 5];

/// The most ops a rule looks at: a rule sees the window of at most this
/// many ops from its position (and the stack before it), never more, which
/// is what lets the canonicalizer look again only near a rewrite.
pub const MAX_WINDOW: usize = 3;

/// What fills the slots of a window past the last op (never looked at).
static FILLER: Op = Op::Read;

/// The rule table, in the order rules are tried.
pub const RULES: &[Rule] = &[
    Rule {
        name: "addrof-deref-cancel",
        starts: "DIOpAddrOf",
        then: Some("DIOpDeref"),
        rewrite: addrof_deref_cancel,
    },
    Rule {
        name: "bitoffset-zero",
        starts: "DIOpConstant",
        then: Some("DIOpBitOffset"),
        rewrite: bitoffset_zero,
    },
    Rule {
        name: "byteoffset-zero",
        starts: "DIOpConstant",
        then: Some("DIOpByteOffset"),
        rewrite: byteoffset_zero,
    },
    Rule {
        name: "reinterpret-same",
        starts: "DIOpReinterpret",
        then: None,
        rewrite: reinterpret_same,
    },
    Rule {
        name: "read-read",
        starts: "DIOpRead",
        then: Some("DIOpRead"),
        rewrite: read_read,
    },
    Rule {
        name: "read-constant",
        starts: "DIOpConstant",
        then: Some("DIOpRead"),
        rewrite: read_constant,
    },
    Rule {
        name: "constant-fold-add",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::Add), |a, b, _| Some(a + b)),
    },
    Rule {
        name: "constant-fold-sub",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::Sub), |a, b, _| Some(a - b)),
    },
    Rule {
        name: "constant-fold-mul",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::Mul), |a, b, _| Some(a * b)),
    },
    Rule {
        name: "constant-fold-div",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::Div), fold_div),
    },
    Rule {
        name: "constant-fold-mod",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::Mod), fold_mod),
    },
    Rule {
        name: "constant-fold-and",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::And), |a, b, _| Some(a & b)),
    },
    Rule {
        name: "constant-fold-or",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::Or), |a, b, _| Some(a | b)),
    },
    Rule {
        name: "constant-fold-xor",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::Xor), |a, b, _| Some(a ^ b)),
    },
    Rule {
        name: "constant-fold-shl",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::Shl), fold_shl),
    },
    Rule {
        name: "constant-fold-lshr",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::LShr), fold_lshr),
    },
    Rule {
        name: "constant-fold-ashr",
        starts: "DIOpConstant",
        then: Some("DIOpConstant"),
        rewrite: |w, _, s| fold2(w, s, |o| matches!(o, Op::AShr), fold_ashr),
    },
    Rule {
        name: "constant-fold-zext",
        starts: "DIOpConstant",
        then: Some("DIOpZExt"),
        rewrite: constant_fold_zext,
    },
    Rule {
        name: "constant-fold-sext",
        starts: "DIOpConstant",
        then: Some("DIOpSExt"),
        rewrite: constant_fold_sext,
    },
    Rule {
        name: "add-zero",
        starts: "DIOpConstant",
        then: Some("DIOpAdd"),
        rewrite: |w, st, s| identity(w, st, s, |o| matches!(o, Op::Add), 0),
    },
    Rule {
        name: "mul-one",
        starts: "DIOpConstant",
        then: Some("DIOpMul"),
        rewrite: |w, st, s| identity(w, st, s, |o| matches!(o, Op::Mul), 1),
    },
    Rule {
        name: "shift-zero",
        starts: "DIOpConstant",
        then: Some("DIOpShl"),
        rewrite: |w, st, s| identity(w, st, s, |o| matches!(o, Op::Shl), 0),
    },
    Rule {
        name: "mul-power-of-two",
        starts: "DIOpConstant",
        then: Some("DIOpMul"),
        rewrite: mul_power_of_two,
    },
];

/// An integer type of 1 to 64 bits (the widths every rule is proven for).
fn proven_int(t: &Type) -> Option<u64> {
    match t {
        Type::Int(w) if (1..=64).contains(w) => Some(*w),
        _ => None,
    }
}

/// The top stack entry, when it is a proven integer and not an implicit
/// address.
fn top_int<'s>(top: Option<&'s StackTy>) -> Option<&'s Type> {
    let e = top?;
    (!e.addr_of && proven_int(&e.ty).is_some()).then_some(&*e.ty)
}

/// The value of an integer constant, unsigned, if `op` is one.
fn int_constant(op: &Op, sig: &Signature) -> Option<(Type, u64, BigUint)> {
    let Op::Constant(t, lit @ Literal::Int(_)) = op else {
        return None;
    };
    let w = proven_int(t)?;
    let bits = literal_bits(t, lit, &sig.layout).ok()??;
    Some((t.clone(), w, bits.unsigned().into_owned()))
}

fn constant(t: &Type, w: u64, v: &BigInt) -> Op {
    Op::Constant(
        t.clone(),
        Literal::Int(BigInt::from(
            Bits::from_bigint(w, v).unsigned().into_owned(),
        )),
    )
}

fn signed(v: &BigUint, w: u64) -> BigInt {
    Bits::new(w, v.clone()).signed()
}

/// `addrof-deref-cancel`: `%l, DIOpAddrOf(N), DIOpDeref(T)` => `%l`.
fn addrof_deref_cancel(
    w: &[&Op],
    st: Option<&StackTy>,
    sig: &Signature,
) -> Option<(usize, Vec<Op>)> {
    let [Op::AddrOf(n), Op::Deref(t), ..] = w else {
        return None;
    };
    let top = top_int(st)?;
    let proven_size = [32, 64].contains(&sig.layout.pointer_bits(*n));
    (PROVEN_ADDRSPACES.contains(n) && proven_size && top == t).then(|| (2, vec![]))
}

fn offset_zero(
    w: &[&Op],
    st: Option<&StackTy>,
    sig: &Signature,
    bytes: bool,
) -> Option<(usize, Vec<Op>)> {
    let [c, op, ..] = w else { return None };
    let t = match (op, bytes) {
        (Op::BitOffset(t), false) | (Op::ByteOffset(t), true) => t,
        _ => return None,
    };
    let (_, iw, v) = int_constant(c, sig)?;
    let top = top_int(st)?;
    ([8, 32, 64].contains(&iw) && v.is_zero() && top == t).then(|| (2, vec![]))
}

/// `bitoffset-zero`: `%l, DIOpConstant(I 0), DIOpBitOffset(T)` => `%l`.
fn bitoffset_zero(w: &[&Op], st: Option<&StackTy>, sig: &Signature) -> Option<(usize, Vec<Op>)> {
    offset_zero(w, st, sig, false)
}

/// `byteoffset-zero`: `%l, DIOpConstant(I 0), DIOpByteOffset(T)` => `%l`.
fn byteoffset_zero(w: &[&Op], st: Option<&StackTy>, sig: &Signature) -> Option<(usize, Vec<Op>)> {
    offset_zero(w, st, sig, true)
}

/// `reinterpret-same`: `%l, DIOpReinterpret(T)` => `%l` when `%l: T`.
fn reinterpret_same(w: &[&Op], st: Option<&StackTy>, _: &Signature) -> Option<(usize, Vec<Op>)> {
    let [Op::Reinterpret(t), ..] = w else {
        return None;
    };
    (top_int(st)? == t).then(|| (1, vec![]))
}

/// `read-read`: `%l, DIOpRead(), DIOpRead()` => `%l, DIOpRead()`.
fn read_read(w: &[&Op], st: Option<&StackTy>, _: &Signature) -> Option<(usize, Vec<Op>)> {
    let [Op::Read, Op::Read, ..] = w else {
        return None;
    };
    top_int(st)?;
    Some((2, vec![Op::Read]))
}

/// `read-constant`: `DIOpConstant(T C), DIOpRead()` => `DIOpConstant(T C)`.
fn read_constant(w: &[&Op], _: Option<&StackTy>, sig: &Signature) -> Option<(usize, Vec<Op>)> {
    let [c, Op::Read, ..] = w else { return None };
    int_constant(c, sig)?;
    Some((2, vec![(*c).clone()]))
}

/// `constant-fold-<op>`: `DIOpConstant(T C1), DIOpConstant(T C2), <op>` =>
/// `DIOpConstant(T f(C1, C2))`, with `f` on the unsigned values (results are
/// reduced modulo `2^width`); `None` where the rule's precondition fails.
fn fold2(
    w: &[&Op],
    sig: &Signature,
    is: fn(&Op) -> bool,
    f: fn(BigInt, BigInt, u64) -> Option<BigInt>,
) -> Option<(usize, Vec<Op>)> {
    let [c1, c2, op, ..] = w else { return None };
    if !is(op) {
        return None;
    }
    let (t, width, a) = int_constant(c1, sig)?;
    let (t2, _, b) = int_constant(c2, sig)?;
    if t != t2 {
        return None;
    }
    let r = f(BigInt::from(a), BigInt::from(b), width)?;
    Some((3, vec![constant(&t, width, &r)]))
}

fn as_signed(v: &BigInt, w: u64) -> BigInt {
    signed(&Bits::from_bigint(w, v).unsigned(), w)
}

/// `constant-fold-div`: pre `C2 != 0`, not `INT_MIN / -1`; signed,
/// truncating.
fn fold_div(a: BigInt, b: BigInt, w: u64) -> Option<BigInt> {
    let (a, b) = (as_signed(&a, w), as_signed(&b, w));
    let min = -(BigInt::one() << (w - 1));
    (!(b.is_zero() || a == min && b == -BigInt::one())).then(|| &a / &b)
}

/// `constant-fold-mod`: pre `C2 != 0`; the sign of the dividend.
fn fold_mod(a: BigInt, b: BigInt, w: u64) -> Option<BigInt> {
    let (a, b) = (as_signed(&a, w), as_signed(&b, w));
    (!b.is_zero()).then(|| &a % &b)
}

/// `constant-fold-shl`: amounts of at least the width give 0.
fn fold_shl(a: BigInt, b: BigInt, w: u64) -> Option<BigInt> {
    Some(if b >= BigInt::from(w) {
        BigInt::zero()
    } else {
        a << usize::try_from(b).ok()?
    })
}

/// `constant-fold-lshr`: amounts of at least the width give 0.
fn fold_lshr(a: BigInt, b: BigInt, w: u64) -> Option<BigInt> {
    Some(if b >= BigInt::from(w) {
        BigInt::zero()
    } else {
        a >> usize::try_from(b).ok()?
    })
}

/// `constant-fold-ashr`: `signed(C1) >> C2`; amounts of at least the width
/// give the sign.
fn fold_ashr(a: BigInt, b: BigInt, w: u64) -> Option<BigInt> {
    let a = as_signed(&a, w);
    let s = if b >= BigInt::from(w) {
        w as usize
    } else {
        usize::try_from(b).ok()?
    };
    Some(a >> s)
}

fn fold_ext(w: &[&Op], sig: &Signature, sext: bool) -> Option<(usize, Vec<Op>)> {
    let [c, op, ..] = w else { return None };
    let u = match (op, sext) {
        (Op::ZExt(u), false) | (Op::SExt(u), true) => u,
        _ => return None,
    };
    let (_, tw, v) = int_constant(c, sig)?;
    let uw = proven_int(u)?;
    if uw < tw {
        return None;
    }
    let v = if sext {
        signed(&v, tw)
    } else {
        BigInt::from(v)
    };
    Some((2, vec![constant(u, uw, &v)]))
}

/// `constant-fold-zext`: `DIOpConstant(T C), DIOpZExt(U)` => `DIOpConstant(U C)`.
fn constant_fold_zext(w: &[&Op], _: Option<&StackTy>, sig: &Signature) -> Option<(usize, Vec<Op>)> {
    fold_ext(w, sig, false)
}

/// `constant-fold-sext`: `DIOpConstant(T C), DIOpSExt(U)` =>
/// `DIOpConstant(U signed(C))`.
fn constant_fold_sext(w: &[&Op], _: Option<&StackTy>, sig: &Signature) -> Option<(usize, Vec<Op>)> {
    fold_ext(w, sig, true)
}

/// `add-zero`, `mul-one`, `shift-zero`: `%x, DIOpConstant(T K), <op>` =>
/// `%x, DIOpRead()`.
fn identity(
    w: &[&Op],
    st: Option<&StackTy>,
    sig: &Signature,
    is: fn(&Op) -> bool,
    k: u32,
) -> Option<(usize, Vec<Op>)> {
    let [c, op, ..] = w else { return None };
    if !is(op) {
        return None;
    }
    let (t, _, v) = int_constant(c, sig)?;
    (top_int(st)? == &t && v == BigUint::from(k)).then(|| (2, vec![Op::Read]))
}

/// `mul-power-of-two`: `%x, DIOpConstant(T C), DIOpMul()` with
/// `isPowerOf2(C)` => `%x, DIOpConstant(T log2(C)), DIOpShl()`.
fn mul_power_of_two(w: &[&Op], st: Option<&StackTy>, sig: &Signature) -> Option<(usize, Vec<Op>)> {
    let [c, Op::Mul, ..] = w else { return None };
    let (t, width, v) = int_constant(c, sig)?;
    if top_int(st)? != &t || v.is_zero() || v.count_ones() != 1 {
        return None;
    }
    let log = BigInt::from(v.bits() - 1);
    Some((2, vec![constant(&t, width, &log), Op::Shl]))
}

/// The stack before op `k` of the canonicalizer's `done`: the checked
/// expression's while the first `same` ops are its own, else the one
/// recorded after a rewrite (`None` past an op that does not check).
fn stack_before(
    given: &TypeStacks,
    stacks: &[Option<StackId>],
    same: usize,
    k: usize,
) -> Option<StackId> {
    if k <= same {
        given.get(k).map(|v| v.id())
    } else {
        stacks[k]
    }
}

/// One rewrite: the rule and the op index it applied at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub rule: &'static str,
    pub at: usize,
}

/// The rules whose window starts with `op` and goes on with `next` (their
/// places in [`RULES`], in its order): the table split by [`Rule::starts`]
/// and [`Rule::then`] once, so that each position asks its ops' few rules
/// without comparing names.
fn rules_starting(op: &Op, next: Option<&Op>) -> &'static [usize] {
    static BY_START: std::sync::OnceLock<Vec<Vec<Vec<usize>>>> = std::sync::OnceLock::new();
    let by_start = BY_START.get_or_init(|| {
        // The second index: an op's, or `NAMES.len()` for a window of one op.
        let nexts = || Op::NAMES.iter().map(Some).chain([None]);
        Op::NAMES
            .iter()
            .map(|first| {
                nexts()
                    .map(|second| {
                        let fits = |r: &Rule| {
                            r.starts == *first && r.then.is_none_or(|then| second == Some(&then))
                        };
                        let rules = RULES.iter().enumerate().filter(|(_, r)| fits(r));
                        rules.map(|(k, _)| k).collect()
                    })
                    .collect()
            })
            .collect()
    });
    &by_start[op.index()][next.map_or(Op::NAMES.len(), Op::index)]
}

/// Does a rule rewrite the ops of `expr` from `i` on, with `before` the
/// top of the stack before op `i`?
fn rule_applies_at(expr: &Expr, i: usize, before: Option<&StackTy>, sig: &Signature) -> bool {
    let rules = rules_starting(&expr.ops[i], expr.ops.get(i + 1));
    if rules.is_empty() {
        return false;
    }
    let mut buf = [&FILLER; MAX_WINDOW];
    let k = (expr.ops.len() - i).min(MAX_WINDOW);
    for (slot, op) in buf.iter_mut().zip(&expr.ops[i..]) {
        *slot = op;
    }
    rules
        .iter()
        .any(|&r| (RULES[r].rewrite)(&buf[..k], before, sig).is_some())
}

/// Canonicalizes a well-formed expression: rules applied, leftmost first,
/// until none applies. The canonical form is the expression itself,
/// borrowed, where no rule applies (most expressions).
pub fn canonicalize<'e>(
    expr: &'e Expr,
    sig: &Signature,
) -> Result<(Cow<'e, Expr>, Vec<Step>), Diag> {
    // The check, looking for the first position where a rule applies (at
    // the expression's own ops, in place, with the type under each); none:
    // the expression is canonical, and nothing is copied or kept (five in
    // six generated expressions, whose stacks were kept and not used).
    let mut first = None;
    check_with_tops(&expr.ops, sig, &mut |i, before| {
        if first.is_none() && rule_applies_at(expr, i, before, sig) {
            first = Some(i);
        }
    })?;
    let Some(first) = first else {
        return Ok((Cow::Borrowed(expr), Vec::new()));
    };
    // The stack before each op: until a rewrite, the ops before the
    // current position are the expression's own, and so are their stacks.
    let (mut given, ill) = type_stacks(expr, sig);
    if let Some(d) = ill {
        return Err(d);
    }
    let mut steps = Vec::new();
    let bound = 2 * expr.ops.len() + 1;
    // A peephole pass: `done` holds the ops before the current position,
    // `todo` the ops from it on (reversed, the next op last), so a rewrite
    // costs the ops it touches, not a shift of the whole expression.
    // The stack before op `k` of `done` is `given`'s for `k <= same` (the
    // first `same` ops are the expression's), else `stacks[k]`, recorded
    // in `given` too (its stacks share their entries, so that a deep stack
    // is not copied per op); a rewrite leaves the stacks of `done` as they
    // were.
    // The pass starts where the first rule applies: the ops before it are
    // the expression's, in `done` as the pass would have left them.
    let mut same = expr.ops.len();
    let mut done: Vec<Op> = Vec::with_capacity(expr.ops.len());
    done.extend_from_slice(&expr.ops[..first]);
    let mut todo: Vec<Op> = expr.ops[first..].iter().rev().cloned().collect();
    let mut stacks: Vec<Option<StackId>> = Vec::with_capacity(expr.ops.len() + 1);
    stacks.resize(first + 1, None);
    while !todo.is_empty() {
        let i = done.len();
        // The window, borrowed: the next `MAX_WINDOW` ops (`todo` is
        // reversed).
        let mut buf = [&FILLER; MAX_WINDOW];
        let k = todo.len().min(MAX_WINDOW);
        for (slot, op) in buf.iter_mut().zip(todo.iter().rev()) {
            *slot = op;
        }
        let window = &buf[..k];
        let before = stack_before(&given, &stacks, same, i).and_then(|id| given.view(id).top());
        let hit = rules_starting(window[0], window.get(1).copied())
            .iter()
            .map(|&k| &RULES[k])
            .find_map(|r| (r.rewrite)(window, before, sig).map(|w| (r.name, w)));
        if let Some((rule, (len, with))) = hit {
            todo.truncate(todo.len() - len);
            todo.extend(with.into_iter().rev());
            steps.push(Step { rule, at: i });
            same = same.min(i);
            // The termination argument bounds the rewrites.
            if steps.len() > bound {
                return Err(Diag::unsupported(
                    "Canon",
                    "internal-error",
                    "more rewrites than the termination argument allows (a dioptra bug)",
                ));
            }
            // No window before `i - (MAX_WINDOW - 1)` reaches the ops that
            // changed, and their stacks did not change: nothing matches
            // there that did not before. Look again from there (the
            // leftmost match first, as a rescan from the start would).
            for _ in 0..(MAX_WINDOW - 1).min(done.len()) {
                todo.push(done.pop().expect("counted"));
            }
            stacks.truncate(done.len() + 1);
            continue;
        }
        let op = todo.pop().expect("not empty");
        let last = todo.is_empty();
        if i < same {
            // The expression's own op: `given` has the stack after it.
            done.push(op);
            stacks.push(None);
            continue;
        }
        let next = stack_before(&given, &stacks, same, i)
            .and_then(|before| given.check_op_on(before, &op, i, last, sig).ok());
        done.push(op);
        stacks.push(next);
    }
    Ok((
        Cow::Owned(Expr {
            spelling: expr.spelling,
            ops: done,
        }),
        steps,
    ))
}
