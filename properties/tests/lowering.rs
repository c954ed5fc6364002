//! Laws of the lowering to DWARF (issue "Lowering to DWARF"): the lowered
//! DWARF describes the reference's location, and gimli, a second DWARF
//! evaluator, agrees on the plain DWARF 5 output. The case count is
//! proptest's `PROPTEST_CASES`; `dioptra fuzz --property
//! lowering-preserves-location` runs long campaigns.

use dioptra_generators::{arb_context, arb_laneless_expr, arb_wellformed_expr};
use dioptra_properties::{
    arb_lowering_context, law_bytes_evaluation_matches_decoded, law_gimli_agrees_on_plain_dwarf5,
    law_lowering_preserves_location, Checked, GIMLI_CHOICES,
};
use proptest::prelude::*;
use std::collections::BTreeMap;

proptest! {
    /// prop_lowering_preserves_location: for both targets, the lowered DWARF of a well-formed expression gives the reference's location (or fails where it fails, or is more defined: D-lower-refines) in random contexts and variants of them.
    #[test]
    fn prop_lowering_preserves_location(e in arb_wellformed_expr(40), ctx in arb_lowering_context()) {
        law_lowering_preserves_location(&e, &ctx).map_err(TestCaseError::fail)?;
    }

    /// prop_bytes_evaluation_matches_decoded: evaluating DWARF from its bytes gives the location or diagnostic that decoding and then evaluating gives, on lowered expressions and on them with one byte replaced or cut short.
    #[test]
    fn prop_bytes_evaluation_matches_decoded(
        e in arb_wellformed_expr(40),
        ctx in arb_context(),
        m in any::<(usize, u8)>(),
    ) {
        law_bytes_evaluation_matches_decoded(&e, &ctx, m).map_err(TestCaseError::fail)?;
    }

    /// prop_gimli_agrees_on_plain_dwarf5: gimli and dioptra's DWARF evaluator give the same location for the dwarf5 lowering of a well-formed expression, both fail, or differ in a listed, understood way.
    #[test]
    fn prop_gimli_agrees_on_plain_dwarf5(e in arb_laneless_expr(GIMLI_CHOICES), ctx in arb_lowering_context()) {
        law_gimli_agrees_on_plain_dwarf5(&e, &ctx).map_err(TestCaseError::fail)?;
    }
}

/// Runs a law on `n` deterministic cases drawn from `s`; returns how many
/// were compared and the others by the first words of why.
fn tally(
    n: usize,
    s: impl Strategy<Value = (dioptra_semantics::syntax::Expr, String)>,
    law: fn(&dioptra_semantics::syntax::Expr, &str) -> Result<Checked, String>,
) -> (usize, BTreeMap<String, usize>) {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut compared, mut other) = (0, BTreeMap::new());
    for _ in 0..n {
        let (e, c) = s.new_tree(&mut runner).unwrap().current();
        match law(&e, &c) {
            Ok(Checked::Compared) => compared += 1,
            Ok(Checked::Unsupported(why) | Checked::Unknown(why)) => {
                let key: String = why.split(':').take(4).collect::<Vec<_>>().join(":");
                *other.entry(key).or_default() += 1;
            }
            Err(why) => panic!("{why}"),
        }
    }
    (compared, other)
}

/// The laws are not vacuous: most generated expressions are lowered and
/// compared (amdgpu lowers every op; plain DWARF 5 and gimli less).
#[test]
fn generated_expressions_are_lowered_and_compared() {
    let n = 300;
    let (lowered, skipped) = tally(
        n,
        (arb_wellformed_expr(40), arb_lowering_context()),
        law_lowering_preserves_location,
    );
    eprintln!("lowering law: {lowered} of {n} compared; skipped: {skipped:#?}");
    assert!(lowered * 10 >= n * 8, "only {lowered} of {n} compared");
    let (gimli, skipped) = tally(
        n,
        (arb_laneless_expr(GIMLI_CHOICES), arb_lowering_context()),
        law_gimli_agrees_on_plain_dwarf5,
    );
    eprintln!("gimli law: {gimli} of {n} compared; skipped: {skipped:#?}");
    // More than half: a campaign is then CHECKED by the majority rule.
    assert!(gimli * 10 >= n * 6, "only {gimli} of {n} compared");
}

proptest! {
    /// prop_lifetime_lowering_preserves_locations: the location lists of a generated, transformed lifetime program give every object's location at every instruction, for both targets.
    #[test]
    fn prop_lifetime_lowering_preserves_locations(
        p in dioptra_generators::programs::arb_program(),
        f in dioptra_generators::transform::arb_forms(),
        t in dioptra_generators::transform::arb_transform(),
    ) {
        let n = dioptra_properties::law_lifetime_lowering_preserves_locations(&p, &f, t)
            .map_err(TestCaseError::fail)?;
        prop_assert!(n > 0, "nothing compared");
    }
}

/// The lifetime law is not vacuous: almost every generated program has
/// objects the lowering expresses, compared at their instructions.
#[test]
fn generated_programs_are_lowered_and_compared() {
    use proptest::strategy::ValueTree;
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
        let c = dioptra_properties::law_lifetime_lowering_preserves_locations(&p, &f, t).unwrap();
        total += c;
        if c > 0 {
            with += 1;
        }
    }
    eprintln!("lifetime lowering: {with} of {n} programs compared, {total} comparisons");
    assert!(with * 10 >= n * 9, "only {with} of {n} programs compared");
}
