//! Laws of the canonicalizer.

use dioptra_generators::{arb_context, arb_rewritable_expr, arb_wellformed_expr};
use dioptra_properties::law_canonicalization_preserves_location;
use proptest::prelude::*;

proptest! {
    /// prop_canonicalization_preserves_location: the canonical form evaluates to the same location (or fails where the expression fails) in random contexts, and canonicalizing it again changes nothing.
    #[test]
    fn prop_canonicalization_preserves_location(e in arb_wellformed_expr(40), ctx in arb_context()) {
        law_canonicalization_preserves_location(&e, &ctx).map_err(TestCaseError::fail)?;
    }

    /// prop_canonicalization_preserves_location_of_rewritable_windows: the same law on expressions made of windows the rules rewrite.
    #[test]
    fn prop_canonicalization_preserves_location_of_rewritable_windows(e in arb_rewritable_expr(), ctx in arb_context()) {
        law_canonicalization_preserves_location(&e, &ctx).map_err(TestCaseError::fail)?;
    }
}

/// The law is not vacuous: the generator's expressions give the rules work.
#[test]
fn generated_expressions_get_rewritten() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let s = (arb_wellformed_expr(40), arb_context());
    let (mut rewritten, n) = (0, 300);
    for _ in 0..n {
        let (e, c) = s.new_tree(&mut runner).unwrap().current();
        if law_canonicalization_preserves_location(&e, &c).unwrap() > 0 {
            rewritten += 1;
        }
    }
    eprintln!("{rewritten} of {n} generated expressions were rewritten");
    assert!(rewritten * 10 >= n, "only {rewritten} of {n} rewritten");
}
