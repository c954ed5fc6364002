//! Laws of lifetimes.

use dioptra_generators::programs::{arb_multi_program, arb_program};
use dioptra_properties::{law_multiloc_translation_agrees, law_ranges_match_the_path_model};
use proptest::prelude::*;

proptest! {
    /// prop_ranges_match_the_path_model: in modules of one to three functions, a segment is active at a point exactly when some path from its function's entry reaches the point with the segment's last def/kill event a def (and, block-local, when its def precedes the point in its block with no kill between).
    #[test]
    fn prop_ranges_match_the_path_model(p in arb_multi_program()) {
        law_ranges_match_the_path_model(&p).map_err(|(m, ..)| TestCaseError::fail(format!("{m}\n{p}")))?;
    }

    /// prop_multiloc_translation_agrees: a multi-location listing's translation to lifetimes makes active, at every reachable point, exactly the calls the proposal makes current.
    #[test]
    fn prop_multiloc_translation_agrees(p in arb_program()) {
        law_multiloc_translation_agrees(&p).map_err(TestCaseError::fail)?;
    }
}

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
