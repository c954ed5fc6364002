//! Laws of well-formedness and evaluation.

use dioptra_generators::{arb_context, arb_wellformed_expr, FIXED_CONTEXT};
use dioptra_properties::law_wellformed_evaluates_to_its_static_type;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { max_shrink_iters: 2000, ..ProptestConfig::default() })]

    /// prop_wellformed_evaluates_to_its_static_type: a well-formed expression (and every well-formed prefix of it) never panics, and its evaluated type is its static type.
    #[test]
    fn prop_wellformed_evaluates_to_its_static_type(e in arb_wellformed_expr(40), ctx in arb_context()) {
        law_wellformed_evaluates_to_its_static_type(&e, &ctx).map_err(TestCaseError::fail)?;
    }

    /// prop_fixed_context_evaluates_to_its_static_type: the same law in the fixed context the builder targets.
    #[test]
    fn prop_fixed_context_evaluates_to_its_static_type(e in arb_wellformed_expr(40)) {
        law_wellformed_evaluates_to_its_static_type(&e, FIXED_CONTEXT).map_err(TestCaseError::fail)?;
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
    let missing: Vec<_> = dioptra_semantics::syntax::Op::NAMES
        .iter()
        .filter(|n| !seen.contains(*n))
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
