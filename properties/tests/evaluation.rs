//! The evaluation laws are not vacuous: the generator reaches every op.
//! (The laws are entries of the law table: `tests/laws.rs`.)

use dioptra_generators::arb_wellformed_expr;

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
