//! The prover's encodings are bounded (issue 24, item 1): expressions whose
//! locations sit at symbolic offsets inside nested composites once drove z3
//! to 3.8 GB and a panic inside the z3 crate; now each query ends with a
//! verdict or `SMT: encoding-too-large`, within its work bound.

use dioptra_oracle::equiv::prove;
use dioptra_semantics::context::{ConcreteContext, Context};
use dioptra_semantics::diag::Outcome;
use dioptra_semantics::text::parse_expr;
use std::time::Instant;

/// The signature of the generators' fixed context (an i32 referrer; args
/// i64, ptr addrspace(5), <4 x i8>, i64; a <2 x i32> type object; SIMT).
fn signature() -> dioptra_semantics::context::Signature {
    ConcreteContext::parse(
        r#"(context (register 3 "78 56 34 12") (register 4 "01 02 03 04 05 06 07 08")
             (memory 5 0x100 "2a 00 00 00 ff ff ff ff") (memory 1 0x1000 "01 23 45 67 89 ab cd ef 00 00 00 00 00 00 00 80")
             (referrer "i32" "reg(3)") (arg "i64" "mem(1, 0x1000)")
             (arg "ptr addrspace(5)" "imp(ptr addrspace(5) 256)") (arg "<4 x i8>" "reg(3)")
             (arg "i64" "reg(4)") (typeobject "<2 x i32>" "mem(1, 0x1008)") (lane 7))"#,
    )
    .unwrap()
    .signature()
}

/// Found by `dioptra fuzz --property equiv-verdicts-are-confirmed --seed 3`
/// (case 730): 92 s and 3.7 GB before the bound.
const SEED3_CASE730: &str = "DIOpReferrer(i32), DIOpConstant(i32 -10), DIOpReinterpret(float), DIOpArg(0, double), DIOpTypeObject(double), DIOpAddrOf(5), DIOpDeref(double), DIOpReinterpret(i64), DIOpConstant(i128 199), DIOpConstant(i128 226), DIOpAdd(), DIOpComposite(2, i192), DIOpReferrer(i32), DIOpByteOffset(i65), DIOpPushLane(i32), DIOpComposite(5, i225)";

#[test]
fn a_composite_at_symbolic_offsets_is_proved_or_bounded() {
    let sig = signature();
    let e = parse_expr(SEED3_CASE730).unwrap();
    let v = parse_expr(&format!(
        "{SEED3_CASE730}, DIOpConstant(i32 0), DIOpBitOffset(i225)"
    ))
    .unwrap();
    let t = Instant::now();
    match prove(&e, &v, &sig, 10_000) {
        Ok(p) => eprintln!("verdict: {}", p.verdict.word()),
        Err(d) => {
            assert_eq!(d.outcome, Outcome::Unsupported, "{d}");
            assert!(d.matches("SMT: encoding-too-large"), "{d}");
        }
    }
    eprintln!("{:.2} s", t.elapsed().as_secs_f64());
}

/// Offsets that depend on the context, into composites nested three deep,
/// compared against themselves shifted: the comparison's cases multiply
/// past the bound, which is reported rather than built.
#[test]
fn nested_symbolic_offsets_exceed_the_bound_with_a_diagnostic() {
    let sig = signature();
    let mut text = String::from("DIOpConstant(i32 0), DIOpConstant(i32 1), DIOpComposite(2, i64)");
    for k in 0..3 {
        text += &format!(
            ", DIOpArg(0, i64), DIOpBitOffset(i{}), DIOpConstant(i32 2), DIOpComposite(2, i{})",
            64 + 32 * k,
            96 + 32 * k
        );
    }
    let e = parse_expr(&text).unwrap();
    let v = parse_expr(&format!("{text}, DIOpConstant(i8 1), DIOpBitOffset(i160)")).unwrap();
    let t = Instant::now();
    let d = match prove(&e, &v, &sig, 10_000) {
        Ok(p) => panic!(
            "a verdict ({}) from an unbounded encoding",
            p.verdict.word()
        ),
        Err(d) => d,
    };
    assert!(d.matches("SMT: encoding-too-large"), "{d}");
    eprintln!("{d} after {:.2} s", t.elapsed().as_secs_f64());
}
