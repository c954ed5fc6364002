//! Laws of the text syntax.

use dioptra_generators::arb_any_expr;
use dioptra_properties::law_print_parse_round_trip;
use proptest::prelude::*;

proptest! {
    /// prop_print_parse_round_trip: parsing the printed form of any expression gives it back.
    #[test]
    fn prop_print_parse_round_trip(e in arb_any_expr()) {
        law_print_parse_round_trip(&e).map_err(|m| TestCaseError::fail(format!("{e}: {m}")))?;
    }
}
