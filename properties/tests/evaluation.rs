//! Laws of well-formedness and evaluation.

use dioptra_generators::{arb_wellformed_expr, fixed_context};
use dioptra_semantics::context::Context;
use dioptra_semantics::diag::Outcome;
use dioptra_semantics::eval::eval;
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::wellformed::check;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { max_shrink_iters: 2000, ..ProptestConfig::default() })]

    /// prop_wellformed_evaluates_to_its_static_type: a well-formed expression (and every well-formed prefix of it) never panics, and its evaluated type is its static type.
    #[test]
    fn prop_wellformed_evaluates_to_its_static_type(e in arb_wellformed_expr(40)) {
        let ctx = fixed_context();
        check(&e, &ctx.signature()).map_err(|d| TestCaseError::fail(format!("generator made an ill-formed expression: {e}\n{d}")))?;
        for n in 1..=e.ops.len() {
            let prefix = Expr { spelling: e.spelling, ops: e.ops[..n].to_vec() };
            let Ok(checked) = check(&prefix, &ctx.signature()) else { continue };
            match eval(&prefix, &ctx) {
                Ok(r) => {
                    prop_assert_eq!(&r.ty, &checked.result, "{}", prefix);
                    prop_assert_eq!(r.fragment, checked.fragment);
                    // Reading the result either works or fails with a dynamic outcome.
                    if let Err(d) = r.value(&ctx) {
                        prop_assert!(matches!(d.outcome, Outcome::EvalError | Outcome::Unsupported), "{}: {}", prefix, d);
                    }
                }
                Err(d) => prop_assert!(
                    matches!(d.outcome, Outcome::EvalError | Outcome::Unsupported) && d.reason != "internal-error",
                    "{}: {}", prefix, d
                ),
            }
        }
    }
}

/// The generator reaches every op (a law about the generator itself).
#[test]
fn generated_expressions_reach_every_buildable_op() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = arb_wellformed_expr(40);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let e = strategy.new_tree(&mut runner).unwrap().current();
        for op in &e.ops {
            seen.insert(op.name());
        }
    }
    // DIOpTypeObject needs a type-property context, which the fixed context
    // does not have; every other op must appear.
    let missing: Vec<_> = dioptra_semantics::syntax::Op::NAMES
        .iter()
        .filter(|n| **n != "DIOpTypeObject" && !seen.contains(*n))
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
