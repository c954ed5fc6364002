//! Laws of compiler transformations.

use dioptra_generators::programs::arb_program;
use dioptra_generators::transform::{arb_forms, arb_transform, Form, Transform};
use dioptra_properties::law_transformation_preserves_values;
use proptest::prelude::*;

proptest! {
    /// prop_transformation_preserves_values: every transformation preserves, at every program point, each source variable's readable value where the original had one, never invents one where the original had none, and never makes a read-only location writable.
    #[test]
    fn prop_transformation_preserves_values(p in arb_program(), forms in arb_forms(), t in arb_transform()) {
        law_transformation_preserves_values(&p, &forms, t).map_err(TestCaseError::fail)?;
    }
}

/// The law can fail: the SROA split as the spec's example writes it (halves
/// in the wrong order, E-sroa-composite-order) changes values.
#[test]
fn the_spec_example_sroa_order_breaks_the_law() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let programs = arb_program();
    let failure = (0..500).find_map(|_| {
        let p = programs.new_tree(&mut runner).unwrap().current();
        law_transformation_preserves_values(&p, &[Form::Ssa], Transform::SroaSplitAsInSpec).err()
    });
    let msg = failure.expect("some program shows the swapped halves");
    assert!(msg.contains("value 0x"), "{msg}");
}
