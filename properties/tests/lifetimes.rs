//! The multi-location law is not vacuous. (The lifetime laws are entries
//! of the law table: `tests/laws.rs`.)

use dioptra_generators::programs::arb_program;
use dioptra_properties::laws::law_multiloc_translation_agrees;
use proptest::prelude::*;

/// The law is not vacuous: over a fixed sweep most generated listings keep
/// added or removed locations after dropping the calls that break the
/// thread's invariants, and the points compared are many.
#[test]
fn multiloc_law_compares_listings_with_additions_and_removals() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    let (mut points, mut with_more) = (0, 0);
    for _ in 0..200 {
        let p = arb_program().new_tree(&mut runner).unwrap().current();
        let keys = p.render_multiloc().matches("value.new").count();
        let (n, calls) = law_multiloc_translation_agrees(&p).unwrap();
        points += n;
        with_more += (calls > keys) as usize;
    }
    assert!(points > 2000, "{points} points");
    assert!(
        with_more > 40,
        "{with_more} listings keep an addition or a removal"
    );
}
