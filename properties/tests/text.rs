//! The print-parse law over quickcheck's and `arbitrary`'s generators
//! (proptest's is the law table's entry: `tests/laws.rs`).

use dioptra_properties::laws::law_print_parse_round_trip;

/// The same law over quickcheck's generator (`quickcheck::Arbitrary for Expr`).
#[test]
fn quickcheck_print_parse_round_trip() {
    fn law(e: dioptra_semantics::syntax::Expr) -> bool {
        law_print_parse_round_trip(&e).is_ok()
    }
    quickcheck::QuickCheck::new()
        .tests(300)
        .quickcheck(law as fn(dioptra_semantics::syntax::Expr) -> bool);
}

/// The same law over `arbitrary::Arbitrary for Expr`, from pseudo-random bytes.
#[test]
fn arbitrary_print_parse_round_trip() {
    let mut seed: u64 = 0x853C_49E6_748F_EA9B;
    for _ in 0..500 {
        let bytes: Vec<u8> = (0..256)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        let mut u = arbitrary::Unstructured::new(&bytes);
        let e: dioptra_semantics::syntax::Expr = arbitrary::Arbitrary::arbitrary(&mut u).unwrap();
        if let Err(m) = law_print_parse_round_trip(&e) {
            panic!("{e}: {m}");
        }
    }
}
