//! Laws of lifetimes.

use dioptra_generators::programs::arb_program;
use dioptra_properties::law_ranges_match_the_path_model;
use proptest::prelude::*;

proptest! {
    /// prop_ranges_match_the_path_model: a segment is active at a point exactly when some path from the entry reaches the point with the segment's last def/kill event a def (and, block-local, when its def precedes the point in its block with no kill between).
    #[test]
    fn prop_ranges_match_the_path_model(p in arb_program()) {
        law_ranges_match_the_path_model(&p).map_err(|(m, ..)| TestCaseError::fail(format!("{m}\n{p}")))?;
    }
}
