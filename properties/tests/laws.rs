//! The laws of `dioptra_properties::table`, one test each. A test runs its
//! law's budget (cheap laws: proptest's `PROPTEST_CASES`, bounded in CI;
//! solver laws: `DIOPTRA_SMT_CASES`) and fails on a counterexample, printed
//! as corpus text, or when fewer cases than the law's floor were compared.
//! `dioptra fuzz --property NAME` runs the same law as a long campaign.

use dioptra_properties::table::{law, names};

macro_rules! law_tests {
    ($($test:ident: $name:literal,)*) => {
        $(
            #[test]
            fn $test() {
                law($name).expect("the law is in the table").test(file!());
            }
        )*
        /// The laws with a test above.
        const TESTED: &[&str] = &[$($name),*];
    };
}

law_tests! {
    prop_print_parse_round_trip: "print-parse-round-trip",
    prop_wellformed_evaluates_to_its_static_type: "wellformed-evaluates-to-its-static-type",
    prop_fixed_context_evaluates_to_its_static_type: "fixed-context-evaluates-to-its-static-type",
    prop_mutation_rejected_with_its_reason: "mutation-rejected-with-its-reason",
    prop_narrow_evaluation_is_the_reference: "narrow-evaluation-is-the-reference",
    prop_ranges_match_the_path_model: "ranges-match-the-path-model",
    prop_smt_agrees_with_interpreter: "smt-agrees-with-interpreter",
    prop_dwarf_smt_agrees_with_evaluator: "dwarf-smt-agrees-with-evaluator",
    prop_lowering_is_proven: "lowering-is-proven",
    prop_equiv_verdicts_are_confirmed: "equiv-verdicts-are-confirmed",
    prop_canonicalization_preserves_location: "canonicalization-preserves-location",
    prop_canonicalization_preserves_location_of_rewritable_windows: "canonicalization-preserves-location-of-rewritable-windows",
    prop_lowering_preserves_location: "lowering-preserves-location",
    prop_gimli_agrees_on_plain_dwarf5: "gimli-agrees-on-plain-dwarf5",
    prop_bytes_evaluation_matches_decoded: "bytes-evaluation-matches-decoded",
    prop_lifetime_lowering_preserves_locations: "lifetime-lowering-preserves-locations",
    prop_classic_translation_agrees: "classic-translation-agrees",
    prop_multiloc_translation_agrees: "multiloc-translation-agrees",
    prop_classic_reverse_agrees: "classic-reverse-agrees",
    prop_classic_translation_proven: "classic-translation-proven",
    prop_transformation_preserves_values: "transformation-preserves-values",
}

/// Every law of the table has its test, and every test its law.
#[test]
fn every_law_has_a_test() {
    let mut tested = TESTED.to_vec();
    let mut table = names();
    tested.sort_unstable();
    table.sort_unstable();
    assert_eq!(tested, table);
}

/// The README's table of laws lists exactly the table's laws (and `gdb`,
/// which runs through a real debugger: `properties/tests/gdb.rs`, and
/// `llvm`, which runs LLVM's opt: `oracle/cli/tests/llvm.rs`).
#[test]
fn the_readme_lists_every_law() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    let start = readme
        .find("## Laws and long campaigns")
        .expect("the README has a laws section");
    let mut listed: Vec<&str> = readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| law |"))
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('`').nth(1))
        .filter(|n| *n != "gdb" && *n != "llvm")
        .collect();
    let mut table = names();
    listed.sort_unstable();
    table.sort_unstable();
    assert_eq!(listed, table, "README laws table vs the law table");
}

/// `dioptra fuzz --property equiv-verdicts-are-confirmed --seed 35`, case
/// 8047: the prover's inputs lie only in the memory of address spaces the
/// expressions name, and the fixed context's type object is in address
/// space 1, which these do not name. There the prover's type object is a
/// register or a value, and an offset far past its end fails in both
/// expressions ("equivalent"), while in address space 1's memory it does
/// not: the fixed context is outside the verdict's domain, not a
/// counterexample to it.
#[test]
fn equivalence_is_not_judged_in_a_context_outside_its_domain() {
    use dioptra_properties::laws::law_equiv_verdicts_are_confirmed;
    let e = dioptra_semantics::text::parse_expr(
        "DIOpTypeObject(<2 x i32>), DIOpReferrer(i32), DIOpConstant(i65 14), DIOpComposite(2, i97), DIOpBitOffset(fp128)",
    )
    .unwrap();
    // Variant 2 adds 1 to the first integer constant.
    assert!(law_equiv_verdicts_are_confirmed(&e, 2).is_ok());
}
