//! The transformation law can fail. (The law is an entry of the law table:
//! `tests/laws.rs`.)

use dioptra_generators::programs::arb_program;
use dioptra_generators::transform::{Form, Transform};
use dioptra_properties::laws::law_transformation_preserves_values;

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
