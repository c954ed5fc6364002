//! Laws of the text syntax.

use dioptra_generators::arb_any_expr;
use dioptra_semantics::text::parse_expr;
use proptest::prelude::*;

proptest! {
    /// prop_print_parse_round_trip: parsing the printed form of any expression gives it back.
    #[test]
    fn prop_print_parse_round_trip(e in arb_any_expr()) {
        let text = e.to_string();
        let back = parse_expr(&text).map_err(|d| TestCaseError::fail(format!("{text}\n{d}")))?;
        prop_assert_eq!(&back, &e, "{}", text);
        prop_assert_eq!(back.to_string(), text);
    }
}
