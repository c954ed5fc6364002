//! Ill-formed expressions made by single mutations of well-formed ones.
//!
//! Each mutation changes one place of a well-formed expression so that the
//! op at that place breaks one well-formedness rule, and says which reason
//! code the checker must report. Checking stops at the first error and the
//! ops before the place are unchanged, so that is the diagnostic expected.

use dioptra_semantics::context::Signature;
use dioptra_semantics::syntax::{Expr, Literal, Op};
use dioptra_semantics::types::Type;
use dioptra_semantics::wellformed::type_stacks;

/// A mutated expression, the `Construct: reason` it must be rejected with,
/// and the mutation's name.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub expr: Expr,
    pub expect: String,
    pub mutation: &'static str,
}

fn with(e: &Expr, f: impl FnOnce(&mut Vec<Op>)) -> Expr {
    let mut ops = e.ops.clone();
    f(&mut ops);
    Expr {
        spelling: e.spelling,
        ops,
    }
}

fn int_plus(bits: u64, k: u64) -> Type {
    Type::Int(bits + k)
}

/// Every applicable single mutation of the well-formed `e` under `sig`.
pub fn mutants(e: &Expr, sig: &Signature) -> Vec<Mutant> {
    let (stacks, err) = type_stacks(e, sig);
    assert!(
        err.is_none(),
        "mutants() takes a well-formed expression: {e}"
    );
    let dl = &sig.layout;
    let bits = |t: &Type| dl.bitsizeof(t);
    let mut out = Vec::new();
    let mut push = |expr: Expr, expect: String, mutation: &'static str| {
        out.push(Mutant {
            expr,
            expect,
            mutation,
        })
    };
    let has_fragment = matches!(e.ops.last(), Some(Op::Fragment(..)));
    let body_end = e.ops.len() - has_fragment as usize;

    // Stack effects at the start: an op with too few inputs.
    push(
        with(e, |o| o.insert(0, Op::Add)),
        "DIOpAdd: stack-underflow".into(),
        "underflow",
    );
    push(
        with(e, |o| {
            o.splice(
                0..0,
                [
                    Op::Constant(Type::Int(32), Literal::Int(0.into())),
                    Op::Deref(Type::Int(8)),
                ],
            );
        }),
        "DIOpDeref: not-a-pointer".into(),
        "deref-non-pointer",
    );
    push(
        with(e, |o| o.insert(0, Op::Fragment(0, 8))),
        "DIOpFragment: not-last".into(),
        "fragment-not-last",
    );
    push(
        with(e, |o| {
            o.insert(body_end, Op::Constant(Type::Int(8), Literal::Int(0.into())))
        }),
        "DIExpr: result-stack-size".into(),
        "extra-result",
    );
    if !has_fragment {
        push(
            with(e, |o| o.push(Op::Fragment(0, 0))),
            "DIOpFragment: zero-size".into(),
            "fragment-zero",
        );
    }

    for (i, op) in e.ops.iter().enumerate() {
        let st = &stacks[i];
        let top = st.last();
        let name = op.name();
        match op {
            Op::Referrer(t) => push(
                with(e, |o| o[i] = Op::Referrer(int_plus(bits(t), 8))),
                "DIOpReferrer: size-mismatch".into(),
                "referrer-size",
            ),
            Op::Arg(n, t) => {
                push(
                    with(e, |o| o[i] = Op::Arg(sig.args.len() as u32, t.clone())),
                    "DIOpArg: index-out-of-range".into(),
                    "arg-index",
                );
                push(
                    with(e, |o| o[i] = Op::Arg(*n, int_plus(bits(t), 1))),
                    "DIOpArg: size-mismatch".into(),
                    "arg-size",
                );
            }
            Op::Composite(n, t) => push(
                with(e, |o| o[i] = Op::Composite(*n, int_plus(bits(t), 1))),
                "DIOpComposite: size-mismatch".into(),
                "composite-size",
            ),
            Op::Extend(_) => push(
                with(e, |o| o[i] = Op::Extend(0)),
                "DIOpExtend: zero-count".into(),
                "extend-zero",
            ),
            Op::Reinterpret(t) => push(
                with(e, |o| o[i] = Op::Reinterpret(int_plus(bits(t), 1))),
                "DIOpReinterpret: size-mismatch".into(),
                "reinterpret-size",
            ),
            Op::ZExt(_) | Op::SExt(_) => {
                if let Some(t) = top {
                    let same = t.ty.clone();
                    let m = if matches!(op, Op::ZExt(_)) {
                        Op::ZExt(same)
                    } else {
                        Op::SExt(same)
                    };
                    push(
                        with(e, |o| o[i] = m),
                        format!("{name}: not-wider"),
                        "extension-not-wider",
                    );
                }
            }
            Op::Convert(to) => {
                if let Some(t) = top.filter(|t| t.ty.is_integral() && to.is_integral()) {
                    push(
                        with(e, |o| o[i] = Op::Convert(int_plus(bits(&t.ty), 1))),
                        "DIOpConvert: integral-extension".into(),
                        "convert-extends",
                    );
                }
            }
            Op::BitOffset(_) | Op::ByteOffset(_) if top.is_some_and(|t| t.ty.is_integral()) => {
                push(
                    with(e, |o| o.insert(i, Op::Convert(Type::Float))),
                    format!("{name}: offset-not-integral"),
                    "offset-float",
                );
            }
            Op::Select => {
                if let (Some(m), Some(Type::Vector { count, .. })) =
                    (top, st.iter().rev().nth(1).map(|s| &s.ty))
                {
                    if m.ty.is_integral() && *count > 1 {
                        push(
                            with(e, |o| o.insert(i, Op::Convert(Type::Int(1)))),
                            "DIOpSelect: mask-too-narrow".into(),
                            "select-mask-narrow",
                        );
                    }
                }
            }
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Mod
            | Op::Shl
            | Op::LShr
            | Op::AShr => {
                if let Some(t) = top {
                    let widen = if t.ty.is_integral() {
                        Some(Op::ZExt(int_plus(bits(&t.ty), 1)))
                    } else if t.ty.is_float() {
                        Some(Op::Convert(if t.ty == Type::Double {
                            Type::Float
                        } else {
                            Type::Double
                        }))
                    } else {
                        None
                    };
                    if let Some(w) = widen {
                        push(
                            with(e, |o| o.insert(i, w)),
                            format!("{name}: type-mismatch"),
                            "binary-type-mismatch",
                        );
                    }
                    if t.ty.is_float() {
                        push(
                            with(e, |o| o[i] = Op::Shl),
                            "DIOpShl: not-integral".into(),
                            "shift-float",
                        );
                    }
                }
            }
            _ => {}
        }
        // An implicit address consumed by anything but DIOpDeref.
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
                with(e, |o| o.insert(i, Op::AddrOf(5))),
                format!("{name}: addrof-operand"),
                "addrof-consumed",
            );
        }
    }
    out
}
