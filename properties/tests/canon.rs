//! The canonicalization law is not vacuous: generated expressions give the
//! rules work. (The law is an entry of the law table: `tests/laws.rs`.)

use dioptra_generators::{arb_context, arb_wellformed_expr};
use dioptra_properties::laws::law_canonicalization_preserves_location;
use proptest::prelude::*;

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
