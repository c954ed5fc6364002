//! The canonicalizer's table and its proofs, and the rule checker.

use dioptra_oracle::canon::RULES;
use dioptra_oracle::rules::{check_rule, parse_rules, Expected};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every rule of the canonicalizer's table is an entry of
/// corpus/rules/canon.rules, and the checker proves each valid for every
/// instantiation; the file has no entry the table lacks.
#[test]
fn every_canonicalization_rule_is_proven() {
    let path = root().join("corpus/rules/canon.rules");
    let text = std::fs::read_to_string(&path).unwrap();
    let rules = parse_rules("canon.rules", &text).unwrap();
    let names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
    let table: Vec<&str> = RULES.iter().map(|r| r.name).collect();
    assert_eq!(
        names, table,
        "canon.rules and the canonicalizer's table differ"
    );
    for r in &rules {
        assert_eq!(r.expect, Expected::Valid, "{}", r.name);
        let rep = check_rule(r, 10_000, 2).unwrap();
        assert_eq!(rep.verdict, "valid", "{}: {:?}", r.name, rep.detail);
        assert!(rep.applicable > 0);
    }
}

/// Bad rule files get a diagnostic, not a stack overflow or hours of work.
#[test]
fn rule_files_are_bounded() {
    let deep = format!(
        "rule deep\n  types T: int(8)\n  pre {}C{} == 0\n  source DIOpConstant(T C)\n  target DIOpConstant(T C)\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let r = &parse_rules("deep.rules", &deep).unwrap()[0];
    let d = check_rule(r, 1000, 1).unwrap_err();
    assert!(d.matches("Rule: bad-pattern"), "{d}");
    let many = "rule many\n  types A: int, B: int, C: int\n  source DIOpConstant(A 1)\n  target DIOpConstant(A 1)\n";
    let r = &parse_rules("many.rules", many).unwrap()[0];
    let d = check_rule(r, 1000, 1).unwrap_err();
    assert!(d.matches("Rule: too-many-instances"), "{d}");
}

/// corpus/rules/llvm: every rule LLVM's rewrites get wrong carries the
/// paragraph a bug report quotes, and a witness the interpreter confirms
/// (the corpus run checks the witnesses) unless its invalidity is static.
#[test]
fn every_invalid_llvm_rule_is_explained_and_witnessed() {
    let dir = root().join("corpus/rules/llvm");
    let mut invalid = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        for r in parse_rules(&p.display().to_string(), &text).unwrap() {
            assert!(r.classic.is_some(), "{}: not a classic rule", r.name);
            if r.expect != Expected::Invalid {
                continue;
            }
            invalid += 1;
            assert!(
                r.explain.len() >= 60,
                "{}: no explanation paragraph",
                r.name
            );
            if r.witnesses.is_empty() {
                let rep = check_rule(&r, 10_000, 2).unwrap();
                let d = rep.detail.unwrap_or_default();
                assert!(
                    rep.verdict == "invalid" && !d.contains("\nwitness "),
                    "{}: invalid in some context but no witness clause: {d}",
                    r.name
                );
            }
        }
    }
    assert!(invalid >= 12, "{invalid} invalid rules");
}

fn one_rule(text: &str) -> dioptra_oracle::rules::Rule {
    parse_rules("test", text).unwrap().remove(0)
}

/// A witness is checked by the interpreter: one at which the two records
/// agree is an error, not a pass.
#[test]
fn a_witness_where_the_records_agree_is_rejected() {
    let r = one_rule(
        "rule t\n classic value\n types T: int(8)\n pre C < width(T)\n inputs %x: T\n let %y = lshr T %x, C\n source %y, !DIExpression(DW_OP_stack_value)\n target %x, !DIExpression(DW_OP_constu, C, DW_OP_shr, DW_OP_stack_value)\n expect invalid\n witness T = i8, pointers = 64, high = sign, C = 1, %x = 0x10\n",
    );
    let d = check_rule(&r, 10_000, 2).unwrap_err();
    assert_eq!(d.reason, "witness-agrees", "{d}");
    let r = one_rule(
        "rule t\n classic value\n types T: int(8)\n inputs %x: T\n let %y = lshr T %x, C\n source %y, !DIExpression(DW_OP_stack_value)\n target %x, !DIExpression(DW_OP_constu, C, DW_OP_shr, DW_OP_stack_value)\n expect invalid\n witness T = i16, pointers = 64, high = sign, C = 1, %x = 0x10\n",
    );
    let d = check_rule(&r, 10_000, 2).unwrap_err();
    assert_eq!(d.reason, "bad-witness", "{d}");
}

/// A poison operand kills the target's record (so a rewrite that adds
/// poison is wrong) and lets the source show anything (so one that drops
/// poison is right): D-classic-rule-operands.
#[test]
fn poison_operands_kill_the_target_and_free_the_source() {
    let drop_nsw = one_rule(
        "rule t\n classic value\n types T: int(8, 32)\n inputs %x: T\n let %y = add nsw T %x, 1\n source %y, !DIExpression(DW_OP_stack_value)\n target %x, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)\n",
    );
    assert_eq!(check_rule(&drop_nsw, 10_000, 2).unwrap().verdict, "valid");
    let add_nsw = one_rule(
        "rule t\n classic value\n types T: int(8, 32)\n inputs %x: T\n let %y = add nsw T %x, 1\n source %x, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)\n target %y, !DIExpression(DW_OP_stack_value)\n",
    );
    let rep = check_rule(&add_nsw, 10_000, 2).unwrap();
    assert_eq!(rep.verdict, "invalid");
    assert!(
        rep.detail.unwrap().contains("a kill location"),
        "the counterexample shows the target killed"
    );
}

#[test]
fn classic_clauses_need_a_classic_rule() {
    let e = parse_rules(
        "t",
        "rule t\n inputs %x: i8\n let %y = add i8 %x, 1\n source %x\n target %x\n",
    )
    .unwrap_err();
    assert_eq!(e.reason, "bad-form");
    let e = parse_rules(
        "t",
        "rule t\n classic value\n source !DIExpression()\n target !DIExpression()\n witness pointers = 32\n",
    )
    .unwrap_err();
    assert_eq!(e.reason, "bad-form", "a witness on a rule expected valid");
}

/// More threads than the machine starts are capped, not a panic; a rule
/// that applies nowhere says why in words, not as a Rust value.
#[test]
fn threads_are_capped_and_verdicts_read_as_words() {
    let valid = "rule sub-self\n  types T: int(8, 32)\n  source DIOpConstant(T C), DIOpConstant(T C), DIOpSub()\n  target DIOpConstant(T 0)\n";
    let r = &parse_rules("t", valid).unwrap()[0];
    let rep = check_rule(r, 5_000, 3000).unwrap();
    assert_eq!((rep.verdict, rep.instances), ("valid", 2));
    let never = "rule never\n  types T: int(8)\n  pre width(T) > 8\n  source DIOpConstant(T 1)\n  target DIOpConstant(T 1)\n";
    let r = &parse_rules("t", never).unwrap()[0];
    let d = check_rule(r, 5_000, 2).unwrap_err().to_string();
    assert!(
        d.starts_with("Rule: never-applicable:")
            && d.contains("T = i8")
            && d.contains("not applicable: the precondition never holds"),
        "{d}"
    );
    assert!(!d.contains("NotApplicable("), "{d}");
}

/// An `around` clause checks a rule inside an enclosing expression, each
/// clause one instance: a rewrite that is wrong only in bits a fragment
/// drops is right inside that fragment and wrong in the plain record; a
/// witness names its context; the clause needs one `...` and a classic
/// rule.
#[test]
fn around_clauses_check_a_rule_inside_enclosing_expressions() {
    let rule = |around: &str, expect: &str| {
        one_rule(&format!(
            "rule t\n classic value\n high zero\n pointers 64\n inputs %x: i32\n{around} source %x, !DIExpression(DW_OP_constu, 65536, DW_OP_plus)\n target %x, !DIExpression()\n{expect}"
        ))
    };
    let fragment = " around ..., DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 16\n";
    let plain = " around ..., DW_OP_stack_value\n";
    assert_eq!(
        check_rule(&rule(fragment, ""), 10_000, 2).unwrap().verdict,
        "valid"
    );
    let both = check_rule(&rule(&format!("{fragment}{plain}"), ""), 10_000, 2).unwrap();
    assert_eq!((both.verdict, both.instances), ("invalid", 2));
    assert!(
        both.detail.unwrap().contains("around = 2"),
        "the plain record is the counterexample"
    );
    // A witness is re-run in the context it names.
    let witnessed = |k: u32| {
        rule(
            &format!("{fragment}{plain}"),
            &format!(
                " expect invalid\n witness around = {k}, pointers = 64, high = zero, %x = 0x1\n"
            ),
        )
    };
    assert!(check_rule(&witnessed(2), 10_000, 2).is_ok());
    assert_eq!(
        check_rule(&witnessed(1), 10_000, 2).unwrap_err().reason,
        "witness-agrees"
    );
    for bad in [
        " around DW_OP_stack_value\n",
        " around ..., ..., DW_OP_stack_value\n",
    ] {
        let e = parse_rules(
            "t",
            &format!(
                "rule t\n classic value\n{bad} source !DIExpression()\n target !DIExpression()\n"
            ),
        );
        assert_eq!(e.unwrap_err().reason, "bad-form", "{bad}");
    }
    let e = parse_rules(
        "t",
        "rule t\n around ..., DIOpRead()\n source DIOpConstant(i8 1)\n target DIOpConstant(i8 1)\n",
    );
    assert_eq!(e.unwrap_err().reason, "bad-form", "around in a DIOp rule");
}

/// Values, `let` constants and preconditions of a classic rule are as wide
/// as their type, past 64 bits: a sum with a constant that is a multiple of
/// 2^64 truncates to the value's low half, one that is not does not, and
/// the counterexample's constant is printed whole.
#[test]
fn constants_wider_than_64_bits_are_exact() {
    let rule = |pre: &str| {
        one_rule(&format!(
            "rule t\n classic value\n high zero\n pointers 64\n pre {pre}\n inputs %x: i128\n let %y = add i128 %x, C\n let %z = trunc i128 %y to i64\n source %z, !DIExpression()\n target %x, !DIExpression(DW_OP_LLVM_convert, 128, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)\n"
        ))
    };
    let multiple = check_rule(&rule("C % 18446744073709551616 == 0"), 10_000, 2).unwrap();
    assert_eq!(multiple.verdict, "valid");
    let above = check_rule(&rule("C > 18446744073709551616"), 10_000, 2).unwrap();
    assert_eq!(above.verdict, "invalid");
    let detail = above.detail.unwrap();
    let c: u128 = detail
        .split("C = ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no constant in {detail}"));
    assert!(c > 1 << 64 && !c.is_multiple_of(1 << 64), "{c}");
}
