//! Ill-formed expressions made by single mutations of well-formed ones.
//!
//! Each mutation changes one place of a well-formed expression so that the
//! op at that place breaks one well-formedness rule, and says which reason
//! code the checker must report. Checking stops at the first error and the
//! ops before the place are unchanged, so that is the diagnostic expected.

use dioptra_semantics::context::Signature;
use dioptra_semantics::syntax::{Expr, Literal, Op};
use dioptra_semantics::types::Type;
use dioptra_semantics::wellformed::{type_stacks, StackTy, StackView, TypeStacks};

/// A mutated expression, the `Construct: reason` it must be rejected with,
/// and the mutation's name.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub expr: Expr,
    pub expect: Expect,
    pub mutation: &'static str,
}

/// A mutant's expression, built only when it is wanted: most callers
/// want one mutant of many, and building each copies the expression. A
/// reference to the builder on the caller's stack, not a box: `mutant`
/// goes through every mutant twice, and a box each was 2% of the pipeline.
type Lazy<'a> = &'a mut dyn FnMut() -> Expr;

/// The builder of `e` with `f` applied to its ops, for one call.
fn with<'a>(e: &'a Expr, f: impl FnOnce(&mut Vec<Op>) + 'a) -> impl FnMut() -> Expr + 'a {
    let mut f = Some(f);
    move || {
        let mut ops = e.ops.clone();
        (f.take().expect("each mutant is built at most once"))(&mut ops);
        Expr {
            spelling: e.spelling,
            ops,
        }
    }
}

fn int_plus(bits: u64, k: u64) -> Type {
    Type::Int(bits + k)
}

/// Every applicable single mutation of the well-formed `e` under `sig`:
/// those that break the stack at the start or the end, then those of each
/// op in turn.
pub fn mutants(e: &Expr, sig: &Signature) -> Vec<Mutant> {
    let stacks = stacks_of(e, sig);
    let mut out = Vec::new();
    each_mutant(e, sig, &stacks, &mut |expr, expect, mutation| {
        out.push(Mutant {
            expr: expr(),
            expect,
            mutation,
        })
    });
    out
}

/// `mutants(e, sig)[pick % n]` (`n` of them), building that one only.
pub fn mutant(e: &Expr, sig: &Signature, pick: usize) -> Mutant {
    let stacks = stacks_of(e, sig);
    let mut n = 0;
    each_mutant(e, sig, &stacks, &mut |_, _, _| n += 1);
    let (want, mut k, mut found) = (pick % n, 0, None);
    each_mutant(e, sig, &stacks, &mut |expr, expect, mutation| {
        if k == want {
            found = Some(Mutant {
                expr: expr(),
                expect,
                mutation,
            });
        }
        k += 1;
    });
    found.expect("the same mutants both times")
}

/// The type stack before each op of the well-formed `e`.
fn stacks_of<'a>(e: &'a Expr, sig: &'a Signature) -> TypeStacks<'a> {
    let (stacks, err) = type_stacks(e, sig);
    assert!(
        err.is_none(),
        "mutants() takes a well-formed expression: {e}"
    );
    stacks
}

/// Every mutant, in `mutants`' order, to `push`.
fn each_mutant(e: &Expr, sig: &Signature, stacks: &TypeStacks, push: &mut Push) {
    stack_mutants(e, push);
    for (i, op) in e.ops.iter().enumerate() {
        let st = stacks.get(i).expect("checking reached every op");
        op_mutants(e, sig, i, op, st, push);
        addr_of_mutant(e, i, op, st.top(), push);
    }
}

/// Where a mutant goes: the expression (built when called), its expected
/// `Construct: reason` and the mutation's name.
type Push<'a> = dyn for<'l> FnMut(Lazy<'l>, Expect, &'static str) + 'a;

/// A mutant's expected diagnostic, `Construct: reason`, kept as its two
/// parts: the mutation law compares them with the checker's diagnostic
/// for every case, and the text is made only when it is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expect(pub &'static str, pub &'static str);

impl Expect {
    /// Is `d` this diagnostic (its construct and reason; any message)?
    pub fn is(self, d: &dioptra_semantics::diag::Diag) -> bool {
        d.construct == self.0 && d.reason == self.1
    }
}

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.0, self.1)
    }
}

/// Stack effects at the start and the end: an op with too few inputs, a
/// deref of a non-pointer, a fragment not last, an extra result, a
/// zero-size fragment.
fn stack_mutants(e: &Expr, push: &mut Push) {
    let has_fragment = matches!(e.ops.last(), Some(Op::Fragment(..)));
    let body_end = e.ops.len() - has_fragment as usize;
    // Stack effects at the start: an op with too few inputs.
    push(
        &mut with(e, |o| o.insert(0, Op::Add)),
        Expect("DIOpAdd", "stack-underflow"),
        "underflow",
    );
    push(
        &mut with(e, |o| {
            o.splice(
                0..0,
                [
                    Op::Constant(Type::Int(32), Literal::Int(0.into())),
                    Op::Deref(Type::Int(8)),
                ],
            );
        }),
        Expect("DIOpDeref", "not-a-pointer"),
        "deref-non-pointer",
    );
    push(
        &mut with(e, |o| o.insert(0, Op::Fragment(0, 8))),
        Expect("DIOpFragment", "not-last"),
        "fragment-not-last",
    );
    push(
        &mut with(e, |o| {
            o.insert(body_end, Op::Constant(Type::Int(8), Literal::Int(0.into())))
        }),
        Expect("DIExpr", "result-stack-size"),
        "extra-result",
    );
    if !has_fragment {
        push(
            &mut with(e, |o| o.push(Op::Fragment(0, 0))),
            Expect("DIOpFragment", "zero-size"),
            "fragment-zero",
        );
    }
}

/// The mutations of op `i`, whose input stack is `st`: each breaks the
/// rule of that op named by the mutation.
fn op_mutants(e: &Expr, sig: &Signature, i: usize, op: &Op, st: StackView, push: &mut Push) {
    let bits = |t: &Type| sig.layout.bitsizeof(t);
    let top = st.top();
    let name = op.name();
    match op {
        Op::Referrer(t) => push(
            &mut with(e, |o| o[i] = Op::Referrer(int_plus(bits(t), 8))),
            Expect("DIOpReferrer", "size-mismatch"),
            "referrer-size",
        ),
        Op::Arg(n, t) => {
            push(
                &mut with(e, |o| o[i] = Op::Arg(sig.args.len() as u32, t.clone())),
                Expect("DIOpArg", "index-out-of-range"),
                "arg-index",
            );
            push(
                &mut with(e, |o| o[i] = Op::Arg(*n, int_plus(bits(t), 1))),
                Expect("DIOpArg", "size-mismatch"),
                "arg-size",
            );
        }
        Op::Composite(n, t) => push(
            &mut with(e, |o| o[i] = Op::Composite(*n, int_plus(bits(t), 1))),
            Expect("DIOpComposite", "size-mismatch"),
            "composite-size",
        ),
        Op::Extend(_) => push(
            &mut with(e, |o| o[i] = Op::Extend(0)),
            Expect("DIOpExtend", "zero-count"),
            "extend-zero",
        ),
        Op::Reinterpret(t) => push(
            &mut with(e, |o| o[i] = Op::Reinterpret(int_plus(bits(t), 1))),
            Expect("DIOpReinterpret", "size-mismatch"),
            "reinterpret-size",
        ),
        Op::ZExt(_) | Op::SExt(_) => {
            if let Some(t) = top {
                let same = t.ty.clone().into_owned();
                let m = if matches!(op, Op::ZExt(_)) {
                    Op::ZExt(same)
                } else {
                    Op::SExt(same)
                };
                push(
                    &mut with(e, |o| o[i] = m),
                    Expect(name, "not-wider"),
                    "extension-not-wider",
                );
            }
        }
        Op::Convert(to) => {
            if let Some(t) = top.filter(|t| t.ty.is_integral() && to.is_integral()) {
                push(
                    &mut with(e, |o| o[i] = Op::Convert(int_plus(bits(&t.ty), 1))),
                    Expect("DIOpConvert", "integral-extension"),
                    "convert-extends",
                );
            }
        }
        Op::BitOffset(_) | Op::ByteOffset(_) if top.is_some_and(|t| t.ty.is_integral()) => {
            push(
                &mut with(e, |o| o.insert(i, Op::Convert(Type::Float))),
                Expect(name, "offset-not-integral"),
                "offset-float",
            );
        }
        Op::Select => {
            if let (Some(m), Some(Type::Vector { count, .. })) =
                (top, st.iter().nth(1).map(|s| &*s.ty))
            {
                if m.ty.is_integral() && *count > 1 {
                    push(
                        &mut with(e, |o| o.insert(i, Op::Convert(Type::Int(1)))),
                        Expect("DIOpSelect", "mask-too-narrow"),
                        "select-mask-narrow",
                    );
                }
            }
        }
        op if op.is_binary() => binary_mutants(e, i, name, top, &bits, push),
        _ => {}
    }
}

/// A binary op given operands of two types (one widened), and a shift
/// given floating point.
fn binary_mutants(
    e: &Expr,
    i: usize,
    name: &'static str,
    top: Option<&StackTy>,
    bits: &dyn Fn(&Type) -> u64,
    push: &mut Push,
) {
    if let Some(t) = top {
        let widen = if t.ty.is_integral() {
            Some(Op::ZExt(int_plus(bits(&t.ty), 1)))
        } else if t.ty.is_float() {
            Some(Op::Convert(if *t.ty == Type::Double {
                Type::Float
            } else {
                Type::Double
            }))
        } else {
            None
        };
        if let Some(w) = widen {
            push(
                &mut with(e, |o| o.insert(i, w)),
                Expect(name, "type-mismatch"),
                "binary-type-mismatch",
            );
        }
        if t.ty.is_float() {
            push(
                &mut with(e, |o| o[i] = Op::Shl),
                Expect("DIOpShl", "not-integral"),
                "shift-float",
            );
        }
    }
}

/// An implicit address consumed by anything but `DIOpDeref`.
fn addr_of_mutant(e: &Expr, i: usize, op: &Op, top: Option<&StackTy>, push: &mut Push) {
    let consumes = !matches!(
        op,
        Op::Referrer(_)
            | Op::Arg(..)
            | Op::TypeObject(_)
            | Op::Constant(..)
            | Op::PushLane(_)
            | Op::Fragment(..)
            | Op::Deref(_)
    );
    if consumes && top.is_some_and(|t| !t.addr_of) {
        push(
            &mut with(e, |o| o.insert(i, Op::AddrOf(5))),
            Expect(op.name(), "addrof-operand"),
            "addrof-consumed",
        );
    }
}
