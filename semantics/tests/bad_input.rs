//! Bad input gets a diagnostic: never a panic, a stack overflow or a hang.

use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::diag::Outcome;
use dioptra_semantics::eval::eval;
use dioptra_semantics::text::{parse_expr, parse_location};
use dioptra_semantics::types::DataLayout;
use dioptra_semantics::wellformed::check;
use std::panic::catch_unwind;

fn empty() -> ConcreteContext {
    ConcreteContext::parse(
        "(context (lane 3) (register 1 \"00 01 00 00\") (referrer \"i32\" \"reg(1)\"))",
    )
    .unwrap()
}

#[test]
fn a_hundred_thousand_ops_evaluate() {
    let mut text = String::from("!DIExpr(DIOpConstant(i32 1)");
    for _ in 1..50_000 {
        text.push_str(", DIOpConstant(i32 1), DIOpAdd()");
    }
    text.push(')');
    let e = parse_expr(&text).unwrap();
    assert_eq!(e.ops.len(), 99_999);
    let r = eval(&e, &empty()).unwrap();
    assert_eq!(r.value(&empty()).unwrap().low_u64(), 50_000);
}

#[test]
fn a_hundred_thousand_unbalanced_ops_are_ill_formed() {
    let text = vec!["DIOpAdd()"; 100_000].join(", ");
    let d = check(&parse_expr(&text).unwrap(), &Signature::default()).unwrap_err();
    assert!(d.matches("DIOpAdd: stack-underflow"), "{d}");
    let text = vec!["DIOpConstant(i8 0)"; 100_000].join(", ");
    let d = check(&parse_expr(&text).unwrap(), &Signature::default()).unwrap_err();
    assert!(d.matches("DIExpr: result-stack-size"), "{d}");
}

#[test]
fn deeply_nested_composites_stop_at_the_bound() {
    let mut text = String::from("DIOpConstant(i8 7)");
    for _ in 0..100_000 {
        text.push_str(", DIOpComposite(1, i8)");
    }
    let d = eval(&parse_expr(&text).unwrap(), &empty()).unwrap_err();
    assert_eq!(d.outcome, Outcome::Unsupported);
    assert!(d.matches("DIOpComposite: limit-exceeded"), "{d}");
    // Just inside the bound, reading through every level works.
    let mut text = String::from("DIOpConstant(i8 7)");
    for _ in 0..255 {
        text.push_str(", DIOpComposite(1, i8)");
    }
    let r = eval(&parse_expr(&text).unwrap(), &empty()).unwrap();
    assert_eq!(r.value(&empty()).unwrap().low_u64(), 7);
}

#[test]
fn long_addrof_deref_chains_stay_flat() {
    let mut text = String::from("DIOpReferrer(i32)");
    for _ in 0..50_000 {
        text.push_str(", DIOpAddrOf(5), DIOpDeref(i32)");
    }
    let r = eval(&parse_expr(&text).unwrap(), &empty()).unwrap();
    assert_eq!(r.loc.to_string(), "reg(1)");
}

#[test]
fn work_on_huge_integers_is_bounded() {
    let w = "i8388607";
    let mut text = format!("DIOpConstant({w} 3)");
    for _ in 0..10_000 {
        text.push_str(&format!(", DIOpConstant({w} 3), DIOpMul()"));
    }
    let d = eval(&parse_expr(&text).unwrap(), &empty()).unwrap_err();
    assert!(d.matches("DIOpMul: limit-exceeded"), "{d}");
    let digits = "9".repeat(50_000);
    let d = parse_expr(&format!("DIOpConstant(i8388607 {digits})")).unwrap_err();
    assert!(d.matches("DIOpConstant: bad-literal"), "{d}");
}

#[test]
fn absurd_types_and_literals_are_diagnosed() {
    for (text, prefix) in [
        ("DIOpReferrer(i99999999999999999999)", "Type: too-wide"),
        (
            "DIOpConstant(<65536 x i8388607> zeroinitializer)",
            "Type: too-large",
        ),
        (
            "DIOpConstant({ i8388607, i8388607, i8388607 } zeroinitializer)",
            "Type: too-large",
        ),
        (
            "DIOpComposite(4294967295, i8)",
            "DIOpComposite: stack-underflow",
        ),
        ("DIOpExtend(4294967295)", "DIOpExtend: stack-underflow"),
        (
            "DIOpConstant(i8 0), DIOpExtend(4294967295)",
            "DIOpExtend: too-large",
        ),
        ("DIOpArg(4294967295, i8)", "DIOpArg: index-out-of-range"),
    ] {
        let d = parse_expr(text)
            .and_then(|e| check(&e, &Signature::default()))
            .unwrap_err();
        assert!(d.matches(prefix), "{text}: {d}");
    }
}

/// A deterministic generator of op-shaped token soup: every string must parse
/// or be rejected, and whatever parses must check and evaluate without
/// panicking.
#[test]
fn token_soup_never_panics() {
    const OPS: &[&str] = &dioptra_semantics::syntax::Op::NAMES;
    const ARGS: &[&str] = &[
        "i32",
        "i1",
        "i65",
        "i8",
        "float",
        "half",
        "ptr",
        "ptr addrspace(5)",
        "<2 x i16>",
        "{ i8, i32 }",
        "0",
        "1",
        "2",
        "5",
        "-1",
        "255",
        "32",
        "i32 7",
        "i8 -1",
        "i32 undef",
        "float 1.5",
        "i64 u0xFFFFFFFFFFFFFFFF",
        "<2 x i16> <i16 1, i16 2>",
        "double 0x7FF8000000000000",
        "half 0xH3C00",
        ",",
        "(",
        ")",
        "*",
        "x",
    ];
    let ctx = empty();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut parsed, mut wellformed) = (0, 0);
    for _ in 0..20_000 {
        let mut parts = Vec::new();
        for _ in 0..1 + next() % 6 {
            let op = OPS[(next() % OPS.len() as u64) as usize];
            let nargs = next() % 3;
            let args: Vec<&str> = (0..nargs)
                .map(|_| ARGS[(next() % ARGS.len() as u64) as usize])
                .collect();
            parts.push(format!("{op}({})", args.join(", ")));
        }
        let mut text = parts.join(", ");
        if next() % 4 == 0 {
            text = format!("!DIExpr({text})");
        }
        let res = catch_unwind(|| match parse_expr(&text) {
            Ok(e) => {
                let ok = check(&e, &ctx_signature()).is_ok();
                let _ = eval(&e, &ctx).map(|r| r.value(&ctx));
                (true, ok)
            }
            Err(_) => (false, false),
        });
        match res {
            Ok((p, w)) => {
                parsed += p as usize;
                wellformed += w as usize;
            }
            Err(_) => panic!("panic on input: {text}"),
        }
    }
    assert!(
        parsed > 300 && wellformed > 10,
        "parsed {parsed}, well-formed {wellformed}"
    );
}

fn ctx_signature() -> Signature {
    use dioptra_semantics::context::Context;
    empty().signature()
}

#[test]
fn location_and_context_text_is_bounded() {
    let dl = DataLayout::default();
    for text in [
        "",
        "{",
        "{reg(1) |",
        "comp()",
        "comp(0: reg(1))",
        "mem(5)",
        "imp(0, 0)",
        "imp(8, 256)",
        "addr(5)",
    ] {
        assert!(parse_location(text, &dl).is_err(), "{text:?}");
    }
    for text in [
        "",
        "(context",
        "(context (memory 1 0 \"zz\"))",
        "(context (register 1 \"\"))",
        "(a) (b)",
    ] {
        assert!(ConcreteContext::parse(text).is_err(), "{text:?}");
    }
}

#[test]
fn lone_sigils_are_rejected_not_looped_on() {
    for text in ["%", "@", "^", "$", "%%%", "DIOpReferrer(%)", "ent(8, %)"] {
        assert!(parse_expr(text).is_err(), "{text}");
        assert!(
            parse_location(text, &DataLayout::default()).is_err(),
            "{text}"
        );
    }
}

/// The SMT encoding bounds what an expression can make it build: ops,
/// lanes, widths; each beyond is `unsupported` with `SMT: ...`.
#[cfg(feature = "smt")]
#[test]
fn the_smt_encoding_is_bounded() {
    use dioptra_semantics::smt::{encode, World};
    let world = World::concrete(&empty());
    let mut text = String::from("DIOpConstant(i32 1)");
    for _ in 1..1000 {
        text.push_str(", DIOpConstant(i32 1), DIOpAdd()");
    }
    let cases = [
        (text, "SMT: limit-exceeded"),
        (
            "DIOpConstant(i8 1), DIOpExtend(60000)".to_string(),
            "SMT: limit-exceeded",
        ),
        (
            "DIOpConstant(i4096 1), DIOpRead()".to_string(),
            "SMT: width",
        ),
        (
            "DIOpReferrer(i32), DIOpConstant(i2000 1), DIOpBitOffset(i32)".to_string(),
            "SMT: width",
        ),
        // A double-double has no z3 sort (D-float-formats): arithmetic on
        // it and conversions into and out of it.
        (
            "DIOpConstant(ppc_fp128 0xM3FF00000000000000000000000000000), DIOpConvert(double)"
                .to_string(),
            "SMT: float-format",
        ),
        (
            "DIOpConstant(i32 1), DIOpConvert(ppc_fp128)".to_string(),
            "SMT: float-format",
        ),
        (
            "DIOpConstant(ppc_fp128 0xM3FF00000000000000000000000000000), DIOpConstant(ppc_fp128 0xM3FF00000000000000000000000000000), DIOpMul()"
                .to_string(),
            "SMT: float-format",
        ),
    ];
    for (text, want) in cases {
        let e = parse_expr(&text).unwrap();
        let d = match encode(&e, &world) {
            Ok(_) => panic!("encoded: {}", &text[..60.min(text.len())]),
            Err(d) => d,
        };
        assert_eq!(d.outcome, Outcome::Unsupported);
        assert!(d.matches(want), "{d}");
    }
}

/// A counterexample context prints as a `(context ...)` form that reads
/// back as the same context.
#[test]
fn contexts_print_as_corpus_syntax_and_read_back() {
    let text = r#"(context fuzz
  (layout "e-p5:64")
  (memory 5 0x100 "2a ?? 00 01")
  (register 3 "00 01 ?? 00")
  (referrer "i32" "reg(3)")
  (arg "ptr addrspace(5)" "addr(5, comp(8: imp(8, 0x01), 24: undef))")
  (typeobject "i8" "mem(5, 0x101)+3")
  (lane 7)
  (bind "%x" "{reg(3) | mem(5, 0x100)}"))"#;
    let c = ConcreteContext::parse(text).unwrap();
    let printed = c.to_script("fuzz");
    let back = ConcreteContext::parse(&printed).unwrap();
    assert_eq!(back.to_script("fuzz"), printed);
    assert_eq!(back.memory, c.memory);
    assert_eq!(back.registers, c.registers);
    assert_eq!(back.referrer, c.referrer);
    assert_eq!(back.args, c.args);
    assert_eq!(back.type_object, c.type_object);
    assert_eq!((back.lane, &back.bindings), (c.lane, &c.bindings));
    assert_eq!(back.layout, c.layout);
}

/// A context of many memory segments loads (each overlap check is one
/// look-up: issue 24, item 7), and overlaps are still found wherever the
/// earlier segment starts.
#[test]
fn many_memory_segments_load_and_overlaps_are_found() {
    let mut text = String::from("(context big\n");
    for i in 0..200_000u64 {
        text += &format!("  (memory 0 0x{:x} \"01 02\")\n", 0x1000 + i * 16);
    }
    text += ")";
    let c = ConcreteContext::parse(&text).unwrap();
    assert_eq!(c.memory.len(), 200_000);
    let last = 0x1000 + 199_999 * 16 + 1;
    assert_eq!(
        dioptra_semantics::context::Context::read_memory(&c, 0, last * 8, 8)
            .unwrap()
            .low_u64(),
        2
    );
    for (segments, why) in [
        ("(memory 0 0x10 \"01 02 03 04\") (memory 0 0x12 \"05\")", "inside"),
        ("(memory 0 0x12 \"05\") (memory 0 0x10 \"01 02 03 04\")", "around"),
        ("(memory 0 0x10 \"01 02 03 04 05 06 07 08\") (memory 0 0x20 \"01\") (memory 0 0x16 \"09\")", "behind a later one"),
    ] {
        let d = ConcreteContext::parse(&format!("(context c {segments})")).unwrap_err();
        assert!(d.matches("Context: overlapping-memory"), "{why}: {d}");
    }
    assert!(
        ConcreteContext::parse("(context c (memory 0 0x10 \"01 02\") (memory 0 0x12 \"03\"))")
            .is_ok()
    );
}
