//! Real-debugger conformance: gdb reads, byte by byte, what dioptra's
//! reference semantics says (issue 9). These tests need gdb, gcc, nm and
//! objcopy; `.ci/run` installs gdb when it is missing, and a missing gdb is
//! a failure here, never a pass.

use dioptra_oracle::diff::gdb::{
    self, check, listing_case, machine::mmap_min_addr, Byte, Expected,
};
use dioptra_properties::gdb::generated_cases;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::dwarf::unit::Listing;
use dioptra_semantics::dwarf::Encoding;
use std::path::PathBuf;

fn workdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dioptra-gdb-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// How many generated expressions the bounded test draws (an eighth as many
/// lifetime programs): `DIOPTRA_GDB_CASES`, default 400. Long campaigns:
/// `dioptra fuzz --property gdb --cases N --seed S`.
fn generated() -> u32 {
    std::env::var("DIOPTRA_GDB_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400)
}

/// prop_gdb_reads_what_dioptra_says: for generated expressions lowered to
/// plain DWARF 5 in machine-shaped contexts, and generated lifetime
/// programs lowered to location lists, gdb reads every byte of every
/// variable at every point as dioptra's DWARF evaluator does (itself held
/// to the DIOp semantics by the lowering law in the same machine state), or
/// the difference is a listed gdb limitation; and lldb, asked the basic
/// subset of the same program, reads it as dioptra does or shows a listed
/// lldb limitation.
#[test]
fn prop_gdb_reads_what_dioptra_says() {
    let (cases, skipped) = generated_cases(generated(), 0, mmap_min_addr());
    let dir = workdir("generated");
    let r = check(&cases, &dir, true).unwrap_or_else(|e| panic!("NOT CHECKED: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let lldb = match &r.lldb {
        Some(Ok(o)) => o,
        Some(Err(e)) => panic!("NOT CHECKED: {e}"),
        None => panic!("lldb was not asked"),
    };
    let mut text = String::new();
    for f in r.law.iter().chain(&r.differ).chain(&lldb.differ) {
        text += &format!("\n{}: {}\n{}\n{}\n", f.label, f.what, f.listing, f.context);
    }
    assert!(r.holds(), "{}\nlldb: {}{text}", r.summary(), lldb.summary());
    assert!(lldb.agree * 4 >= lldb.readings, "{}", lldb.summary());
    // Not vacuous: most cases are compared, most readings agree outright,
    // and location lists (several points) are among them.
    assert!(
        cases.len() as u32 * 3 >= generated(),
        "only {} of {} generated cases reach gdb: {skipped:?}",
        cases.len(),
        generated()
    );
    assert!(r.agree * 10 >= r.readings * 9, "{}", r.summary());
    assert!(
        cases
            .iter()
            .any(|c| c.points.len() > 1 && !c.vars.is_empty()),
        "no lifetime program reached gdb: {skipped:?}"
    );
}

fn listing(src: &str) -> Listing {
    Listing::parse(src, Encoding::default()).unwrap()
}

/// A wrong reference is caught: the harness compares, it does not echo.
#[test]
fn a_wrong_expectation_is_a_difference() {
    let ctx = ConcreteContext::parse(
        r#"(context (register 3 "01 02 03 04 05 06 07 08") (memory 0 0x10000 "aa bb cc dd"))"#,
    )
    .unwrap();
    let reg = listing_case("reg3", &listing("DW_OP_reg3"), 0, 32, &ctx, 4096).unwrap();
    let mem = listing_case("mem", &listing("DW_OP_constu 0x10000"), 0, 32, &ctx, 4096).unwrap();
    let piece = listing_case(
        "piece",
        &listing("DW_OP_piece 0x2, DW_OP_reg3, DW_OP_piece 0x2"),
        0,
        32,
        &ctx,
        4096,
    )
    .unwrap();
    let bytes = |v: &[u8]| {
        v.iter()
            .map(|&b| Byte::Value {
                bits: b,
                mask: 0xff,
            })
            .collect::<Vec<_>>()
    };
    // What the reference says, independently of the code under test.
    assert_eq!(reg.expected[0][0], Expected::Bytes(bytes(&[1, 2, 3, 4])));
    assert_eq!(
        mem.expected[0][0],
        Expected::Bytes(bytes(&[0xaa, 0xbb, 0xcc, 0xdd]))
    );
    let Expected::Bytes(p) = &piece.expected[0][0] else {
        panic!("{:?}", piece.expected)
    };
    assert_eq!(p[..2], [Byte::Optimized, Byte::Optimized]);
    let mut wrong = reg.clone();
    wrong.label = "wrong".into();
    wrong.expected[0][0] = Expected::Bytes(bytes(&[1, 2, 3, 5]));
    let dir = workdir("wrong");
    let r = check(&[reg, mem, piece, wrong], &dir, false)
        .unwrap_or_else(|e| panic!("NOT CHECKED: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r.agree, 3, "{}", r.summary());
    assert_eq!(r.differ.len(), 1, "{}", r.summary());
    assert_eq!(r.differ[0].label, "wrong");
    assert!(
        r.differ[0].what.contains("gdb: 01 02 03 04"),
        "{}",
        r.differ[0].what
    );
}

/// The stub really puts each case's state in place: two cases with the same
/// register and memory but other contents read differently.
#[test]
fn each_case_has_its_own_machine_state() {
    let make = |v: &str| {
        let ctx = ConcreteContext::parse(&format!(
            r#"(context (register 17 "{v} 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00") (memory 0 0x30000 "{v}"))"#
        ))
        .unwrap();
        (
            listing_case(v, &listing("DW_OP_reg17"), 0, 8, &ctx, 4096).unwrap(),
            listing_case(
                v,
                &listing("DW_OP_addr 0x30000, DW_OP_deref_size 0x1, DW_OP_stack_value"),
                0,
                8,
                &ctx,
                4096,
            )
            .unwrap(),
        )
    };
    let (a, b) = make("11");
    let (c, d) = make("22");
    let dir = workdir("state");
    let r = check(&[a, b, c, d], &dir, false).unwrap_or_else(|e| panic!("NOT CHECKED: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(r.holds() && r.agree == 4, "{}", r.summary());
}

/// The known gdb limitations are recognised only where they apply: a
/// difference without the limitation's signature stays a difference.
#[test]
fn known_limitations_are_narrow() {
    use gdb::session::{Answer, Seen};
    use gdb::{known_limitation, At};
    let l = listing("DW_OP_lit1, DW_OP_stack_value");
    let at = At::Expr(l.ops.clone());
    let e = Expected::Bytes(vec![Byte::Value {
        bits: 1,
        mask: 0xff,
    }]);
    // No wide base type: the wide-arithmetic message alone is not enough.
    let a =
        Answer::Error("That operation is not available on integers of more than 8 bytes.".into());
    assert_eq!(known_limitation(&l.unit, &at, &e, &a), None);
    // No 2-byte float: a flipped sign bit is a difference.
    let two = Expected::Bytes(vec![
        Byte::Value {
            bits: 0,
            mask: 0xff,
        },
        Byte::Value {
            bits: 0xbc,
            mask: 0xff,
        },
    ]);
    let flipped = Answer::Bytes(vec![Seen::Value(0), Seen::Value(0x3c)]);
    assert_eq!(known_limitation(&l.unit, &at, &two, &flipped), None);
    let h = listing("DW_OP_lit1, DW_OP_convert 0x1, DW_OP_stack_value\n0x1: DW_TAG_base_type DW_ATE_float 2 \"half\"");
    assert!(
        known_limitation(&h.unit, &At::Expr(h.ops.clone()), &two, &flipped)
            .is_some_and(|k| k.contains("E-gdb-half-sign"))
    );
    // A default entry is not involved: gdb's error stays a difference.
    let c = Answer::Error("dwarf2_find_location_expression: Corrupted DWARF expression.".into());
    assert_eq!(known_limitation(&l.unit, &at, &e, &c), None);
}
