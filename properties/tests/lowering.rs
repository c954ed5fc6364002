//! The lifetime-lowering law is not vacuous (the law itself, and the
//! expression-lowering and gimli laws, are entries of the law table, run
//! by `tests/laws.rs`).

/// The lifetime law is not vacuous: almost every generated program has
/// objects the lowering expresses, compared at their instructions.
#[test]
fn generated_programs_are_lowered_and_compared() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let s = (
        dioptra_generators::programs::arb_program(),
        dioptra_generators::transform::arb_forms(),
        dioptra_generators::transform::arb_transform(),
    );
    let (n, mut with, mut total) = (200, 0, 0);
    for _ in 0..n {
        let (p, f, t) = s.new_tree(&mut runner).unwrap().current();
        let c =
            dioptra_properties::laws::law_lifetime_lowering_preserves_locations(&p, &f, t).unwrap();
        total += c;
        if c > 0 {
            with += 1;
        }
    }
    eprintln!("lifetime lowering: {with} of {n} programs compared, {total} comparisons");
    assert!(with * 10 >= n * 9, "only {with} of {n} programs compared");
}
