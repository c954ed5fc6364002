//! Every classic operation's translation to DIOp, proven by the SMT prover
//! for both upper-bit parameters, both address sizes and both intrinsics.

use dioptra_oracle::equiv::classic::prove_translation;
use dioptra_oracle::equiv::Verdict;
use dioptra_semantics::classic::{parse_classic, High, Intrinsic, Params};
use dioptra_semantics::context::Signature;
use dioptra_semantics::text::parse_type;
use dioptra_semantics::types::DataLayout;

fn sig(w: u32, args: &[&str]) -> Signature {
    let mut layout = DataLayout::default();
    layout.set_pointer_bits(0, w);
    Signature {
        layout,
        args: args.iter().map(|t| parse_type(t).unwrap()).collect(),
        ..Signature::default()
    }
}

/// (expression, operand types, intrinsic)
const CASES: &[(&str, &[&str], Intrinsic)] = &[
    ("!DIExpression()", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_plus_uconst, 4, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_constu, 7, DW_OP_minus, DW_OP_stack_value)", &["i16"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_mul, DW_OP_stack_value)", &["i32", "i8"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 1, DW_OP_LLVM_arg, 0, DW_OP_div, DW_OP_stack_value)", &["i32", "i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 1, DW_OP_LLVM_arg, 0, DW_OP_mod, DW_OP_stack_value)", &["i32", "i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_dup, DW_OP_and, DW_OP_lit3, DW_OP_or, DW_OP_lit5, DW_OP_xor, DW_OP_stack_value)", &["i8"], Intrinsic::Value),
    ("!DIExpression(DW_OP_not, DW_OP_neg, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_lit3, DW_OP_shl, DW_OP_lit1, DW_OP_shr, DW_OP_lit2, DW_OP_shra, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_shl, DW_OP_stack_value)", &["i16", "i64"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_lt, DW_OP_stack_value)", &["i32", "i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_le, DW_OP_stack_value)", &["i32", "i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_gt, DW_OP_stack_value)", &["i32", "i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_ge, DW_OP_stack_value)", &["i8", "i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_eq, DW_OP_stack_value)", &["i32", "i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_ne, DW_OP_stack_value)", &["i32", "i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_convert, 8, DW_ATE_signed, DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_convert, 16, DW_ATE_unsigned, DW_OP_dup, DW_OP_lt, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    // D-classic-wide-operand: LLVM's salvage of a `trunc` of an i128.
    ("!DIExpression(DW_OP_LLVM_convert, 128, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value)", &["i128"], Intrinsic::Value),
    // D-classic-implicit-pointer.
    ("!DIExpression(DW_OP_LLVM_implicit_pointer)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_convert, 16, DW_ATE_unsigned, DW_OP_dup, DW_OP_div, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_extract_bits_zext, 4, 8, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_extract_bits_sext, 0, 3, DW_OP_stack_value)", &["i32"], Intrinsic::Value),
    ("!DIExpression(DW_OP_lit1, DW_OP_lit2, DW_OP_swap, DW_OP_drop, DW_OP_stack_value)", &[], Intrinsic::Value),
    ("!DIExpression(DW_OP_lit1, DW_OP_lit2, DW_OP_over, DW_OP_minus, DW_OP_plus, DW_OP_stack_value)", &[], Intrinsic::Value),
    ("!DIExpression(DW_OP_deref)", &["ptr"], Intrinsic::Value),
    ("!DIExpression(DW_OP_plus_uconst, 8)", &["ptr"], Intrinsic::Value),
    ("!DIExpression(DW_OP_deref_size, 2, DW_OP_stack_value)", &["ptr"], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_memory)", &["ptr"], Intrinsic::Value),
    ("!DIExpression()", &["ptr"], Intrinsic::Declare),
    ("!DIExpression(DW_OP_deref, DW_OP_plus_uconst, 4)", &["ptr"], Intrinsic::Declare),
    ("!DIExpression(DW_OP_constu, 1, DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 16)", &[], Intrinsic::Value),
    ("!DIExpression(DW_OP_LLVM_fragment, 32, 32)", &["i32"], Intrinsic::Value),
];

#[test]
fn every_translation_is_proven_equivalent() {
    for (text, args, intrinsic) in CASES {
        let e = parse_classic(text).unwrap();
        for w in [32, 64] {
            if args.contains(&"i64") && w == 32 {
                continue;
            }
            // A dereference of a dereferenced 64-bit address: z3 gives up
            // after 20 s (two reads of a 64-bit-indexed array through the
            // input shapes); proven at W = 32, and checked at W = 64 by the
            // concrete agreement law only.
            if w == 64 && text.contains("DW_OP_deref, DW_OP_plus_uconst") {
                continue;
            }
            for high in [High::Zero, High::Sign] {
                let p = Params {
                    intrinsic: *intrinsic,
                    high,
                    variable: None,
                };
                let (d, proved) = prove_translation(&e, &sig(w, args), &p, 20_000)
                    .unwrap_or_else(|d| panic!("{text} (W={w}, {high:?}): {d}"));
                if text.contains("DW_OP_div") && !text.contains("unsigned") {
                    // D-classic-div-wrap: DWARF wraps `INT_MIN / -1`, DIOp
                    // fails; operands narrower than W never reach it.
                    let cex = match &proved.verdict {
                        Verdict::Refines(cex) if w == 32 => cex,
                        Verdict::Equivalent if w == 64 => continue,
                        v => panic!("{text} (W={w}): {v:?}"),
                    };
                    assert!(cex.source.is_ok());
                    assert!(cex
                        .target
                        .as_ref()
                        .unwrap_err()
                        .matches("DIOpDiv: signed-overflow"));
                    continue;
                }
                assert!(
                    matches!(proved.verdict, Verdict::Equivalent),
                    "{text} (W={w}, {high:?}) -> {}: {:?}",
                    d,
                    proved.verdict
                );
            }
        }
    }
}

#[test]
fn copies_that_would_grow_the_translation_without_bound_are_unsupported() {
    // 2^12 copies of the operand in one entry, then that entry copied
    // thousands of times: each copy is kept (its reads are the expression's),
    // so the total is bounded, not each entry.
    let mut ops = vec!["DW_OP_LLVM_arg, 0"];
    ops.extend(std::iter::repeat_n("DW_OP_dup, DW_OP_plus", 12));
    ops.extend(std::iter::repeat_n("DW_OP_dup", 4000));
    ops.push("DW_OP_stack_value");
    let e = parse_classic(&format!("!DIExpression({})", ops.join(", "))).unwrap();
    let d = dioptra_semantics::classic::translate::translate(
        &e,
        &sig(64, &["i32"]),
        &Params::default(),
    )
    .unwrap_err();
    assert!(d.matches("DW_OP_dup: translation-too-large"), "{d}");
}

/// (DIOp expression, operand types): each with a classic form.
const REVERSE: &[(&str, &[&str])] = &[
    ("DIOpArg(0, i32)", &["i32"]),
    ("DIOpArg(0, i32), DIOpRead()", &["i32"]),
    ("DIOpArg(0, i8), DIOpConstant(i8 200), DIOpAdd()", &["i8"]),
    ("DIOpArg(0, i16), DIOpArg(1, i16), DIOpSub(), DIOpConstant(i16 3), DIOpMul()", &["i16", "i16"]),
    ("DIOpArg(0, i32), DIOpConstant(i32 5), DIOpShl(), DIOpConstant(i32 3), DIOpLShr()", &["i32"]),
    ("DIOpArg(0, i8), DIOpConstant(i8 2), DIOpAShr()", &["i8"]),
    ("DIOpArg(0, i8), DIOpArg(1, i8), DIOpAShr()", &["i8", "i8"]),
    ("DIOpArg(0, i32), DIOpConstant(i32 255), DIOpAnd(), DIOpConstant(i32 16), DIOpOr(), DIOpConstant(i32 1), DIOpXor()", &["i32"]),
    ("DIOpArg(0, i8), DIOpZExt(i32)", &["i8"]),
    ("DIOpArg(0, i8), DIOpSExt(i32)", &["i8"]),
    ("DIOpArg(0, i16), DIOpSExt(i32), DIOpConstant(i32 1), DIOpAdd()", &["i16"]),
    ("DIOpArg(0, i32), DIOpFragment(0, 32)", &["i32"]),
    ("DIOpArg(0, i32), DIOpConstant(i32 3), DIOpAdd(), DIOpFragment(32, 32)", &["i32"]),
    ("DIOpArg(0, ptr), DIOpDeref(i32)", &["ptr"]),
    ("DIOpArg(0, ptr), DIOpDeref(i16), DIOpRead(), DIOpConstant(i16 1), DIOpAdd()", &["ptr"]),
    ("DIOpConstant(i32 7)", &[]),
    // D-classic-implicit-pointer: `DW_OP_LLVM_implicit_pointer`.
    ("DIOpArg(0, i32), DIOpAddrOf(0)", &["i32"]),
];

/// The reverse direction: each DIOp expression with a classic form is
/// proven equivalent to it, at both address sizes (a pointer read from
/// memory and dereferenced at W = 32 only: at 64 bits z3 runs out of its
/// 20 s, as for the forward direction).
#[test]
fn every_reverse_translation_is_proven_equivalent() {
    let cases = REVERSE
        .iter()
        .flat_map(|&(t, a)| [(t, a, 32), (t, a, 64)])
        .chain([(
            "DIOpArg(0, ptr), DIOpDeref(ptr), DIOpDeref(i32)",
            &["ptr"][..],
            32,
        )]);
    use dioptra_oracle::equiv::classic::Classic;
    use dioptra_oracle::equiv::prove_sides;
    use dioptra_semantics::classic::reverse::reverse;
    use dioptra_semantics::text::parse_expr;
    for (text, args, w) in cases {
        {
            let s = sig(w, args);
            let e = parse_expr(text).unwrap();
            let (c, params) = reverse(&e, &s).unwrap_or_else(|d| panic!("{text}: {d}"));
            let classic = Classic {
                expr: c.clone(),
                params,
            };
            let proved = prove_sides(&e, &classic, &s, 20_000).unwrap();
            assert!(
                matches!(proved.verdict, Verdict::Equivalent),
                "{text} (W = {w}) and {c}: {:?}",
                proved.verdict
            );
        }
    }
}

/// Where no classic form exists, the answer says so.
#[test]
fn ops_without_a_classic_form_are_unsupported() {
    use dioptra_semantics::classic::reverse::reverse;
    use dioptra_semantics::text::parse_expr;
    for (text, args) in [
        ("DIOpArg(0, i32), DIOpArg(0, i32), DIOpDiv()", &["i32"][..]),
        ("DIOpArg(0, i32), DIOpAddrOf(5)", &["i32"]),
        ("DIOpArg(0, ptr), DIOpDeref(i32), DIOpAddrOf(0)", &["ptr"]),
        (
            "DIOpArg(0, ptr), DIOpDeref(i32), DIOpConstant(i64 8), DIOpByteOffset(i32)",
            &["ptr"],
        ),
        ("DIOpArg(0, i128)", &["i128"]),
        (
            "DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)",
            &["i32", "i32"],
        ),
    ] {
        let d = reverse(&parse_expr(text).unwrap(), &sig(64, args)).unwrap_err();
        assert_eq!(d.reason, "no-classic-form", "{text}: {d}");
    }
}
