//! Bad module listings get diagnostics: never a panic, a stack overflow or a hang.

use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::diag::Outcome;
use dioptra_semantics::lifetime::locate::Analysis;
use dioptra_semantics::lifetime::parse_module;
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::lifetime::wellformed::check_module;
use std::fmt::Write;
use std::panic::catch_unwind;

/// A chain of 1 000 fragments, each computed from the next: checking is
/// iterative, locating stops at the input-depth bound.
#[test]
fn deep_input_chains_stop_at_the_bound() {
    let n = 1000;
    let mut t = String::from("ret void\n!v = !DILocalVariable(\"x\")\n");
    writeln!(t, "!lv = distinct !DILifetime(object: !v, location: !DIExpr(DIOpArg(0, i8)), argObjects: {{!f0}})").unwrap();
    for k in 0..n {
        writeln!(t, "!f{k} = distinct !DIFragment()").unwrap();
        if k + 1 < n {
            writeln!(t, "!l{k} = distinct !DILifetime(object: !f{k}, location: !DIExpr(DIOpArg(0, i8)), argObjects: {{!f{}}})", k + 1).unwrap();
        } else {
            writeln!(t, "!l{k} = distinct !DILifetime(object: !f{k}, location: !DIExpr(DIOpConstant(i8 5)))").unwrap();
        }
    }
    let m = parse_module(&t).unwrap();
    assert!(
        check_module(&m).is_empty(),
        "{:?}",
        check_module(&m).first()
    );
    let a = Analysis::new(&m, Reading::ControlFlow);
    let d = a.locate(&ConcreteContext::default(), "!v", 0).unwrap_err();
    assert_eq!(d.outcome, Outcome::Unsupported);
    assert!(d.matches("DIObject: limit-exceeded"), "{d}");
    // By stretches the same, at each point.
    let ctx = ConcreteContext::default();
    let cache = dioptra_semantics::lifetime::locate::SegmentCache::new(&ctx);
    let mut pieces = a.pieces(&cache, "!v", 8);
    assert!(pieces
        .at(0)
        .as_ref()
        .unwrap_err()
        .matches("DIObject: limit-exceeded"));
    // A short chain works.
    let a2 = Analysis::new(&m, Reading::ControlFlow);
    let l = a2.locate(&ConcreteContext::default(), "!f995", 0).unwrap();
    assert_eq!(l.loc.to_string(), "imp(8, 0x05)");
}

#[test]
fn long_cycles_are_reported() {
    let n = 20_000;
    let mut t = String::from("!v = !DILocalVariable(\"x\")\n!lv = distinct !DILifetime(object: !v, location: !DIExpr(DIOpArg(0, i8)), argObjects: {!f0})\n");
    for k in 0..n {
        writeln!(t, "!f{k} = distinct !DIFragment()").unwrap();
        writeln!(t, "!l{k} = distinct !DILifetime(object: !f{k}, location: !DIExpr(DIOpArg(0, i8)), argObjects: {{!f{}}})", (k + 1) % n).unwrap();
    }
    let m = parse_module(&t).unwrap();
    let ds = check_module(&m);
    assert!(
        ds.iter().any(|d| d.matches("lifetime-graph: cycle")),
        "{:?}",
        ds.first()
    );
    // Locating in the ill-formed module is bounded too.
    let a = Analysis::new(&m, Reading::ControlFlow);
    assert!(a.locate(&ConcreteContext::default(), "!v", 0).is_err());
}

/// Random mixtures of listing lines: every one parses or is rejected, and
/// whatever parses is checked and located without panicking.
#[test]
fn line_soup_never_panics() {
    const LINES: &[&str] = &[
        "entry:",
        "a:",
        "b:",
        "br label %a",
        "br label %b",
        "br i1 %c, label %a, label %b",
        "br label %nowhere",
        "ret void",
        "%x = add i32 1, 2",
        "call void @llvm.dbg.def(metadata !2, metadata i32 %x)",
        "call void @llvm.dbg.def(metadata !3, metadata i32 undef)",
        "call void @llvm.dbg.def(metadata !1, metadata i32 %x)",
        "call void @llvm.dbg.kill(metadata !2)",
        "call void @llvm.dbg.kill(metadata !3)",
        "call void @llvm.dbg.label(metadata !5)",
        "DBG_DEF !2, $r0",
        "DBG_KILL !3",
        "DBG_LABEL !5",
        "!1 = !DILocalVariable(\"x\")",
        "!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))",
        "!3 = distinct !DILifetime(object: !4, location: !DIExpr(DIOpArg(0, i64)), argObjects: {!5})",
        "!4 = distinct !DIFragment()",
        "!5 = distinct !DIExprCode()",
        "!6 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32)), argObjects: {!4})",
        "!7 = !DICompositeType(tag: DW_TAG_array_type, dataLocation: !4)",
        "@g = i64 !dbg.def !4",
        "define void @f() {",
        "}",
        "!2 = distinct !DILifetime(",
        "  object: !1,",
        "  location: !DIExpr(DIOpReferrer(i32)))",
        "...",
        "; comment",
    ];
    let ctx = ConcreteContext::parse(
        "(context (bind \"%x\" \"imp(i32 1)\") (bind \"$r0\" \"imp(i32 2)\"))",
    )
    .unwrap();
    let mut seed: u64 = 0xA076_1D64_78BD_642F;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut parsed, mut wellformed) = (0, 0);
    for _ in 0..5_000 {
        let n = 1 + next() % 12;
        let text: Vec<&str> = (0..n)
            .map(|_| LINES[(next() % LINES.len() as u64) as usize])
            .collect();
        let text = text.join("\n");
        let r = catch_unwind(|| {
            let Ok(m) = parse_module(&text) else {
                return (false, false);
            };
            let ok = check_module(&m).is_empty();
            for reading in [Reading::ControlFlow, Reading::BlockLocal] {
                let a = Analysis::new(&m, reading);
                for o in a.objects() {
                    for p in 0..m.insts.len() {
                        let _ = a.locate(&ctx, o, p);
                    }
                }
            }
            (true, ok)
        });
        match r {
            Ok((p, w)) => {
                parsed += p as usize;
                wellformed += w as usize;
            }
            Err(_) => panic!("panic on listing:\n{text}"),
        }
    }
    assert!(
        parsed > 500 && wellformed > 50,
        "parsed {parsed}, well-formed {wellformed}"
    );
}

/// The multi-location translation's bound is each function's blocks times
/// its own calls: a module of many small functions (200 of one block with
/// 100 calls each, beside one of 100 blocks and no call: 20 000 calls in
/// all) is translated and agrees, where blocks times the module's calls
/// (2 000 000) refused it (mimalloc with clang 14: 81 blocks and 16 539
/// calls). One function of 1 001 blocks and 1 000 calls is still refused.
#[test]
fn the_translation_bound_counts_each_functions_own_calls() {
    use dioptra_semantics::lifetime::multiloc::{agreement, parse_listing};
    let mut t = String::from("define void @wide(i1 %c) {\n");
    for b in 0..100 {
        writeln!(
            t,
            "b{b}:\n  br i1 %c, label %b{}, label %b99",
            (b + 1).min(99)
        )
        .unwrap();
    }
    t += "}\n";
    for f in 0..200 {
        writeln!(t, "define void @f{f}(i32 %a) {{\nentry:").unwrap();
        for k in 0..100 {
            writeln!(t, "  call void @llvm.dbg.value(metadata i32 %a, metadata !{}, metadata !DIExpression())", 1 + k % 3).unwrap();
        }
        t += "  ret void\n}\n";
    }
    t += "!1 = !DILocalVariable(name: \"x\")\n!2 = !DILocalVariable(name: \"y\")\n!3 = !DILocalVariable(name: \"z\")\n";
    let l = parse_listing(&t).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(l.calls.len(), 20_000);
    let (_, a) = agreement(&l).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(a.difference, None);
    assert_eq!(a.points, 200 * 101 + 100);
    let mut big = String::from("define void @big(i32 %a) {\n");
    for b in 0..1_001 {
        writeln!(big, "b{b}:\n  call void @llvm.dbg.value(metadata i32 %a, metadata !1, metadata !DIExpression())\n  br label %b{}", b + 1).unwrap();
    }
    big += "b1001:\n  ret void\n}\n!1 = !DILocalVariable(name: \"x\")\n";
    let d = parse_listing(&big).unwrap_err();
    assert!(d.matches("llvm.dbg.value: limit-exceeded"), "{d}");
}
