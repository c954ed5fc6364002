//! The recorded type stacks (`type_stacks`, which share their entries) are
//! the checker's own: the stack before each op is the one `check_op` leaves
//! after the ops before it, and checking an op on a recorded stack
//! (`TypeStacks::check_op_on`) answers what `check_op` answers on the
//! whole stack, on generated expressions and on their ill-formed mutants.

use dioptra_generators::mutate::mutants;
use dioptra_generators::{arb_wellformed_expr, fixed_context};
use dioptra_semantics::context::{Context, Signature};
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::wellformed::{check_op, type_stacks, StackTy, TypeStack};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

/// Each prefix's stack by checking it op by op on a stack of its own (top
/// last), as far as checking gets.
fn reference_stacks<'a>(e: &'a Expr, sig: &'a Signature) -> Vec<Vec<StackTy<'a>>> {
    let mut st = TypeStack::new(sig, Vec::new());
    let mut out = vec![st.entries.clone()];
    for (i, op) in e.ops.iter().enumerate() {
        if check_op(&mut st, op, i, i + 1 == e.ops.len()).is_err() {
            break;
        }
        out.push(st.entries.clone());
    }
    out
}

/// What the test saw: expressions, ops checked on a recorded stack, the
/// errors among them, and the deepest stack.
#[derive(Default, Debug)]
struct Seen {
    exprs: usize,
    checked: usize,
    errors: usize,
    deepest: usize,
}

fn compare(e: &Expr, sig: &Signature, seen: &mut Seen) {
    let reference = reference_stacks(e, sig);
    let (mut stacks, _) = type_stacks(e, sig);
    seen.exprs += 1;
    for (i, op) in e.ops.iter().enumerate() {
        let Some(view) = stacks.get(i) else {
            // Checking stopped before op `i`: the reference did too.
            assert!(reference.len() <= i, "{e}: no stack before op {i}");
            break;
        };
        let mut recorded: Vec<StackTy> = view.iter().cloned().collect();
        recorded.reverse();
        assert_eq!(recorded, reference[i], "{e}: the stack before op {i}");
        assert_eq!(view.len(), reference[i].len());
        assert_eq!(view.top(), reference[i].last());
        seen.deepest = seen.deepest.max(view.len());
        // The op on the recorded stack, and on the whole stack.
        let id = view.id();
        let last = i + 1 == e.ops.len();
        let mut whole = TypeStack::new(sig, reference[i].clone());
        let want = check_op(&mut whole, op, i, last).map(|()| whole.entries);
        let got = stacks.check_op_on(id, op, i, last, sig);
        seen.checked += 1;
        match (got, want) {
            (Ok(after), Ok(want)) => {
                let mut after: Vec<StackTy> = stacks.view(after).iter().cloned().collect();
                after.reverse();
                assert_eq!(after, want, "{e}: the stack after op {i}");
            }
            (Err(d), Err(w)) => {
                seen.errors += 1;
                assert_eq!(
                    (d.construct, d.reason, d.message.to_string()),
                    (w.construct, w.reason, w.message.to_string()),
                    "{e}: op {i}"
                );
            }
            (got, want) => panic!("{e}: op {i}: {got:?} against {want:?}"),
        }
    }
}

#[test]
fn recorded_stacks_are_the_checkers() {
    let mut runner = TestRunner::deterministic();
    let strategy = arb_wellformed_expr(40);
    let sig = fixed_context().signature();
    let mut seen = Seen::default();
    for _ in 0..400 {
        let e = strategy.new_tree(&mut runner).unwrap().current();
        compare(&e, &sig, &mut seen);
        for m in mutants(&e, &sig) {
            compare(&m.expr, &sig, &mut seen);
        }
    }
    // Deep stacks, and a composite of many parts at their top.
    let deep = |n: usize, tail: &str| {
        let mut ops = vec!["DIOpConstant(i8 1)"; n];
        ops.push(tail);
        dioptra_semantics::text::parse_expr(&format!("DIExpr({})", ops.join(", "))).unwrap()
    };
    let sig = Signature::default();
    for (n, tail) in [
        (300, "DIOpComposite(300, [300 x i8])"),
        (300, "DIOpComposite(299, [299 x i8])"),
        (300, "DIOpComposite(301, [301 x i8])"),
        (300, "DIOpComposite(300, [301 x i8])"),
        (300, "DIOpAdd()"),
        (1, "DIOpAdd()"),
        (2, "DIOpSelect()"),
    ] {
        compare(&deep(n, tail), &sig, &mut seen);
    }
    // Not vacuous: ill-formed ops, and stacks deeper than an op pops.
    assert!(seen.exprs > 2_000, "{seen:?}");
    assert!(seen.errors > 500, "{seen:?}");
    assert!(seen.deepest >= 300, "{seen:?}");
}
