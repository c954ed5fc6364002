//! `dioptra ir`, and `lifetimes`/`multiloc` on compilers' modules. The
//! expected counts and verdicts are read off the modules by hand (record
//! kinds counted with grep, rules from LangRef, LLVM's verifier and DWARF
//! 5), not taken from dioptra's output.

use serde_json::Value;
mod common;
use common::{dioptra, real};

/// A module written to a temporary file.
fn module(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dioptra-ir-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// A module of one function with `records` in its entry block and `md`
/// after it.
fn with_records(name: &str, records: &str, md: &str) -> String {
    module(
        name,
        &format!(
            "source_filename = \"t.c\"\ndefine void @f(i32 %a, <4 x i32> %v) {{\nentry:\n{records}  ret void\n}}\n{md}"
        ),
    )
}

const VARS: &str = "!1 = !DILocalVariable(name: \"x\", type: !3)
!2 = !DILocation(line: 1, scope: !4)
!3 = !DIDerivedType(tag: DW_TAG_typedef, name: \"myint\", baseType: !5)
!4 = distinct !DISubprogram(name: \"f\")
!5 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !6)
!6 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)
!7 = !DILocalVariable(name: \"l\", type: !8)
!8 = !DIBasicType(name: \"long\", size: 64, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: \"r\", type: !10)
!10 = !DISubrangeType(name: \"small\", baseType: !6)
";

#[test]
fn every_record_of_a_real_module_gets_a_verdict() {
    // grep -c '@llvm.dbg.value(' and '@llvm.dbg.declare(' in c/vars.ll
    // (their declarations excluded): 23 and 1.
    let (code, out, err) = dioptra(&["ir", &real("c/vars.ll"), "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["outcome"], "well-formed");
    assert_eq!(v["records"]["dbg_value"], 23);
    assert_eq!(v["records"]["dbg_declare"], 1);
    // One DIGlobalVariableExpression (grep -c), @counter's.
    assert_eq!(v["records"]["global_expression"], 1);
    assert_eq!(v["verdicts"].as_array().unwrap().len(), 25);
    assert_eq!(v["functions"], 5);
    // rustc's #dbg_value records: grep -c '#dbg_value(' rust/lib.ll is 137.
    let (code, out, _) = dioptra(&["ir", &real("rust/lib.ll"), "--json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["records"]["dbg_value"], 137);
}

#[test]
fn exit_codes_follow_the_worst_verdict() {
    // Line 10 of hand/records.ll uses DIOpReferrer outside a lifetime.
    let (code, out, _) = dioptra(&["ir", &real("hand/records.ll")]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.lines().next(), Some("ill-formed"));
    assert!(
        out.lines()
            .any(|l| l.starts_with("DIOpReferrer: not-bounded: line 10: dbg_value x")),
        "{out}"
    );
    // A vector is not a DWARF stack value: the record cannot be checked.
    let f = with_records(
        "vector.ll",
        "  #dbg_value(<4 x i32> %v, !1, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !2)\n",
        VARS,
    );
    let (code, out, _) = dioptra(&["ir", &f]);
    assert_eq!(code, 3, "{out}");
    assert_eq!(out.lines().next(), Some("unsupported"));
    // No records: read, nothing to check, said so.
    let f = module(
        "none.ll",
        "source_filename = \"t.c\"\ndefine void @f() {\n  ret void\n}\n",
    );
    let (code, out, _) = dioptra(&["ir", &f]);
    assert_eq!(code, 0);
    assert!(out.contains("1 functions, 0 debug records"), "{out}");
}

#[test]
fn fragments_must_lie_inside_the_variable_through_its_typedefs() {
    // x is a typedef of const int: 32 bits (LLVM's verifier rule).
    let f = with_records(
        "frag.ll",
        "  #dbg_value(i32 %a, !1, !DIExpression(DW_OP_LLVM_fragment, 16, 32), !2)
  #dbg_value(i32 %a, !1, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !2)
  #dbg_value(i32 %a, !7, !DIExpression(DW_OP_LLVM_fragment, 32, 32), !2)
  #dbg_value(i32 %a, !9, !DIExpression(DW_OP_LLVM_fragment, 0, 16), !2)
",
        VARS,
    );
    let (code, out, _) = dioptra(&["ir", &f, "--json"]);
    assert_eq!(code, 1, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let reason = |k: usize| v["verdicts"][k]["diagnostic"]["reason"].clone();
    assert_eq!(reason(0), "out-of-range");
    assert_eq!(reason(1), "fragment-is-whole-variable");
    assert_eq!(v["verdicts"][2]["verdict"], "well-formed");
    assert_eq!(v["verdicts"][0]["variable_bits"], 32);
    assert_eq!(v["verdicts"][2]["variable_bits"], 64);
    // A type kind newer LLVMs write, with no size: the size is unknown,
    // and the fragment is not checked against it.
    assert_eq!(v["verdicts"][3]["verdict"], "well-formed");
    assert_eq!(v["verdicts"][3]["variable_bits"], Value::Null);
}

#[test]
fn unreadable_modules_are_malformed_with_their_place() {
    let f = module(
        "bad.ll",
        "source_filename = \"t.c\"\ndefine void @f() {\n  ret void ` \n}\n",
    );
    let (code, out, err) = dioptra(&["ir", &f]);
    assert_eq!(code, 2);
    assert_eq!(out.lines().next(), Some("malformed"));
    assert!(
        err.starts_with("Module: bad-token: line 3, column 12"),
        "{err}"
    );
    let f = module("top.ll", "source_filename = \"t.c\"\nthis is not IR\n");
    let (code, _, err) = dioptra(&["ir", &f]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("Module: unexpected-token: line 2, column 1"),
        "{err}"
    );
    // A record with the wrong number of operands.
    let f = with_records("arity.ll", "  #dbg_value(i32 %a, !1, !2)\n", VARS);
    let (code, _, err) = dioptra(&["ir", &f]);
    assert_eq!(code, 2);
    assert!(err.starts_with("Module: wrong-arity: line 4"), "{err}");
}

#[test]
fn lifetimes_and_multiloc_answer_on_real_modules() {
    for m in [
        "c/vars.ll",
        "c/vars-O0.ll",
        "c/control.ll",
        "cpp/flow.ll",
        "rust/lib.ll",
        "rust/salvage.ll",
        "rust/itoa-u16.ll",
    ] {
        let (code, out, err) = dioptra(&["lifetimes", &real(m)]);
        assert_eq!(code, 0, "lifetimes {m}: {out}{err}");
        assert!(err.contains("multi-location translation"), "{m}: {err}");
        let (code, out, err) = dioptra(&["multiloc", &real(m)]);
        assert_eq!(code, 0, "multiloc {m}: {err}");
        assert!(
            out.trim_end()
                .lines()
                .last()
                .unwrap()
                .starts_with("; agrees at"),
            "{m}: {out}"
        );
    }
    // itoa's ill-formed records are read as no location, and said so.
    let (_, _, err) = dioptra(&["lifetimes", &real("rust/itoa-u16.ll")]);
    assert!(
        err.contains("records dioptra ir refuses read as no location"),
        "{err}"
    );
    // x of vars-O0.ll's add (clang -O0: `%a.addr` and a dbg.declare): at
    // the declare's line and after, memory at %a.addr.
    let text = std::fs::read_to_string(real("c/vars-O0.ll")).unwrap();
    let declare = text
        .lines()
        .position(|l| l.contains("@llvm.dbg.declare(metadata i32* %3"))
        .expect("add's first declare")
        + 1;
    let (code, out, err) = dioptra(&[
        "lifetimes",
        &real("c/vars-O0.ll"),
        "--at",
        &declare.to_string(),
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let located: Vec<&Value> = v["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["name"] == "a")
        .flat_map(|o| o["points"].as_array().unwrap())
        .filter(|p| p["line"] == declare)
        .collect();
    assert!(!located.is_empty(), "{out}");
    assert!(
        located
            .iter()
            .any(|p| p["error"].as_str().is_some_and(|e| e.contains("%3"))),
        "a's location reads %3, which the default context does not bind: {out}"
    );
}
