//! The mutation law is not vacuous: every mutation kind is produced. (The
//! law is an entry of the law table: `tests/laws.rs`.)

use dioptra_generators::mutate::{mutant, mutants};
use dioptra_generators::{arb_wellformed_expr, fixed_context};
use dioptra_semantics::context::Context;

/// Every mutation kind is produced by the generator (a law about the generator).
#[test]
fn every_mutation_kind_is_reached() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let sig = fixed_context().signature();
    let mut runner = TestRunner::deterministic();
    let strategy = arb_wellformed_expr(30);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..3000 {
        let e = strategy.new_tree(&mut runner).unwrap().current();
        for m in mutants(&e, &sig) {
            seen.insert(m.mutation);
        }
    }
    let all = [
        "underflow",
        "deref-non-pointer",
        "fragment-not-last",
        "extra-result",
        "fragment-zero",
        "referrer-size",
        "arg-index",
        "arg-size",
        "composite-size",
        "extend-zero",
        "reinterpret-size",
        "extension-not-wider",
        "convert-extends",
        "offset-float",
        "select-mask-narrow",
        "binary-type-mismatch",
        "shift-float",
        "addrof-consumed",
    ];
    let missing: Vec<_> = all.iter().filter(|m| !seen.contains(*m)).collect();
    assert!(missing.is_empty(), "never produced: {missing:?}");
}

/// `mutant(e, sig, pick)`, which builds one mutant, is `mutants(e,
/// sig)[pick % n]` for every pick, past the end included.
#[test]
fn one_mutant_is_the_one_picked_from_all() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let sig = fixed_context().signature();
    let mut runner = TestRunner::deterministic();
    let strategy = arb_wellformed_expr(30);
    let mut compared = 0;
    for _ in 0..200 {
        let e = strategy.new_tree(&mut runner).unwrap().current();
        let all = mutants(&e, &sig);
        for pick in 0..all.len() + 3 {
            let one = mutant(&e, &sig, pick);
            let want = &all[pick % all.len()];
            assert_eq!(
                (&one.expr, &one.expect, one.mutation),
                (&want.expr, &want.expect, want.mutation),
                "pick {pick} of {e}"
            );
            compared += 1;
        }
    }
    assert!(compared > 2000, "{compared} picks");
}
