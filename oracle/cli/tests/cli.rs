//! The CLI contract: outputs, `--json`, and exit codes (0 holds, 1 fails,
//! 2 usage or malformed input).

use std::io::Write;
use std::process::{Command, Output};

fn dioptra(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dioptra"))
        .args(args)
        .output()
        .unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `dioptra serve` given `input` on stdin, to the end.
fn serve(input: &[u8]) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_dioptra"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("dioptra-cli-{}-{name}", std::process::id()));
    std::fs::File::create(&p)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    p
}

#[test]
fn check_prints_the_type_or_the_diagnostic() {
    let o = dioptra(&[
        "check",
        "!DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64))",
        "--referrer",
        "ptr addrspace(5)",
    ]);
    assert_eq!((code(&o), stdout(&o).trim()), (0, "i64"));
    let o = dioptra(&[
        "check",
        "DIOpArg(0, i32), DIOpArg(1, i64), DIOpAdd()",
        "--arg",
        "i32",
        "--arg",
        "i64",
    ]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o).lines().next(), Some("ill-formed"));
    assert!(
        stderr(&o).starts_with("DIOpAdd: type-mismatch: "),
        "{}",
        stderr(&o)
    );
    let o = dioptra(&["check", "DIOpFoo()"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Parse: unknown-op: line 1, column 1"),
        "{}",
        stderr(&o)
    );
    let o = dioptra(&["check", "DIOpPushLane(i32)", "--no-simt"]);
    assert_eq!(code(&o), 1);
    let o = dioptra(&[
        "check",
        "DIOpReferrer(i64)",
        "--referrer",
        "ptr addrspace(5)",
        "--datalayout",
        "p5:64",
    ]);
    assert_eq!(code(&o), 0);
    let o = dioptra(&[
        "check",
        "DIOpReferrer(i64)",
        "--referrer",
        "ptr addrspace(5)",
    ]);
    assert_eq!(code(&o), 1);
}

/// `--to-classic`: a DIOp expression's classic form, or why it has none.
#[test]
fn check_prints_the_classic_form_of_a_diop_expression() {
    let o = dioptra(&[
        "check",
        "DIOpArg(0, i8), DIOpConstant(i8 1), DIOpAdd()",
        "--arg",
        "i8",
        "--to-classic",
    ]);
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o).lines().nth(1),
        Some("translation: !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_constu, 1, DW_OP_plus, DW_OP_constu, 255, DW_OP_and, DW_OP_stack_value)")
    );
    let o = dioptra(&[
        "check",
        "DIOpArg(0, i8), DIOpArg(0, i8), DIOpDiv()",
        "--arg",
        "i8",
        "--to-classic",
    ]);
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).contains("translation: none: DIOpDiv: no-classic-form"),
        "{}",
        stdout(&o)
    );
}

/// `--types FILE`: named struct types as an LLVM module defines them; a
/// name the file does not define, or a bad file, is refused with its
/// reason.
#[test]
fn check_reads_named_types_from_a_file() {
    let types = temp(
        "types.ll",
        "%struct.foo = type { i8, i32 } ; 8 bytes with padding\n%node = type { i32, %node* }\n",
    );
    let t = types.to_str().unwrap();
    let o = dioptra(&[
        "check",
        "DIOpTypeObject(i64)",
        "--type-object",
        "%struct.foo",
        "--types",
        t,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = dioptra(&[
        "check",
        "DIOpTypeObject(i32)",
        "--type-object",
        "%struct.foo",
        "--types",
        t,
    ]);
    assert!(
        stderr(&o).contains("DIOpTypeObject: size-mismatch"),
        "{}",
        stderr(&o)
    );
    let o = dioptra(&[
        "check",
        "DIOpTypeObject(i64)",
        "--type-object",
        "%struct.foo",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Type: unknown-type:"),
        "{}",
        stderr(&o)
    );
    let bad = temp("rec.ll", "%a = type { %a }\n");
    let o = dioptra(&[
        "check",
        "DIOpTypeObject(i8)",
        "--type-object",
        "i8",
        "--types",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Type: recursive-type:"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_json_and_file_input() {
    let f = temp("expr", "!DIExpr(DIOpConstant(i32 1), DIOpFragment(32, 32))");
    let o = dioptra(&["check", &format!("@{}", f.display()), "--json"]);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], "well-formed");
    assert_eq!(v["type"], "i32");
    assert_eq!(v["fragment"]["offset"], 32);
    let o = dioptra(&["check", "DIOpRead()", "--json"]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], "ill-formed");
    assert_eq!(v["diagnostics"][0]["reason"], "stack-underflow");
    let o = dioptra(&["check", "@/nonexistent/file"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn eval_prints_location_and_value() {
    let ctx = temp(
        "ctx",
        r#"(context (memory 5 0x100 "2a 00 00 00 00 00 00 00") (register 3 "00 01 00 00")
           (referrer "i64 addrspace(5)*" "reg(3)"))"#,
    );
    let c = ctx.to_str().unwrap();
    let o = dioptra(&[
        "eval",
        "!DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64))",
        "--context",
        c,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "type: i64\nlocation: mem(5, 0x100)\nvalue: 0x000000000000002a (42)\n"
    );
    let o = dioptra(&["eval", "DIOpConstant(i32 undef)", "--context", c, "--json"]);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["location"], "undef");
    assert_eq!(v["value"]["readable"], false);
    let o = dioptra(&[
        "eval",
        "DIOpConstant(i32 1), DIOpConstant(i32 0), DIOpDiv()",
        "--context",
        c,
    ]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).starts_with("DIOpDiv: division-by-zero: "));
    let bad = temp("badctx", "(context (memory 1 0 \"zz\"))");
    let o = dioptra(&[
        "eval",
        "DIOpConstant(i32 1)",
        "--context",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Context: bad-bytes: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_reports_counts_and_fails_on_a_failing_case() {
    let good = temp(
        "good.dioptra",
        "(spec \"t\") (assert_wellformed \"DIOpConstant(i8 1)\" (type \"i8\"))",
    );
    let o = dioptra(&["run", good.to_str().unwrap()]);
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).ends_with("1 passed, 0 failed\n"),
        "{}",
        stdout(&o)
    );
    let bad = temp(
        "bad.dioptra",
        "(spec \"t\") (assert_wellformed \"DIOpConstant(i8 1)\" (type \"i16\"))",
    );
    let o = dioptra(&["run", bad.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("expected type `i16`, got `i8`"),
        "{}",
        stdout(&o)
    );
    let broken = temp("broken.dioptra", "(assert_wellformed");
    let o = dioptra(&["run", broken.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("Script: unclosed-list"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&dioptra(&[])), 2);
    assert_eq!(code(&dioptra(&["frobnicate"])), 2);
    assert_eq!(code(&dioptra(&["eval", "DIOpConstant(i8 1)"])), 2);
    assert_eq!(
        code(&dioptra(&[
            "run",
            "corpus",
            "--impl",
            "/nonexistent/impl-binary"
        ])),
        1
    );
    assert_eq!(code(&dioptra(&["--help"])), 0);
}

#[test]
fn lifetimes_prints_locations_by_point() {
    let listing = temp(
        "alloca.ll",
        "%x.addr = alloca i64, addrspace(5)\ncall void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x.addr)\nstore i64 0, ...\ncall void @llvm.dbg.kill(metadata !2)\n!1 = !DILocalVariable(\"x\")\n!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64)))\n",
    );
    let ctx = temp(
        "alloca.ctx",
        r#"(context (memory 5 0x100 "2a 00 00 00 00 00 00 00") (bind "%x.addr" "imp(ptr addrspace(5) 256)"))"#,
    );
    let (l, c) = (listing.to_str().unwrap(), ctx.to_str().unwrap());
    let o = dioptra(&["lifetimes", l, "--context", c]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "!1 \"x\":\n  line 1: undef  [default]\n  lines 2-3: mem(5, 0x100)  [!2]\n  line 4: undef  [default]\n"
    );
    let o = dioptra(&["lifetimes", l, "--context", c, "--at", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["objects"][0]["points"][0]["location"], "mem(5, 0x100)");
    assert_eq!(v["objects"][0]["points"][0]["type"], "i64");
    let o = dioptra(&["lifetimes", l, "--at", "5"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Lifetimes: no-instruction"),
        "{}",
        stderr(&o)
    );
    let bad = temp("bad.ll", "call void @llvm.dbg.kill(metadata !2)\n!1 = !DILocalVariable(\"x\")\n!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i8 1)))\n");
    let o = dioptra(&["lifetimes", bad.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).starts_with("DILifetime: kill-without-def"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn lifetimes_lower_prints_location_lists_and_checks_the_law() {
    let listing = temp(
        "alloca-lower.ll",
        "%x.addr = alloca i64, addrspace(5)\ncall void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x.addr)\nstore i64 0, ...\ncall void @llvm.dbg.kill(metadata !2)\n!1 = !DILocalVariable(\"x\")\n!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64)))\n",
    );
    let ctx = temp(
        "alloca-lower.ctx",
        r#"(context (memory 5 0x100 "2a 00 00 00 00 00 00 00") (bind "%x.addr" "imp(ptr addrspace(5) 256)"))"#,
    );
    let (l, c) = (listing.to_str().unwrap(), ctx.to_str().unwrap());
    let o = dioptra(&["lifetimes", l, "--context", c, "--lower", "amdgpu"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // The def on line 2 reaches line 3; the kill on line 4 ends it.
    assert_eq!(
        stdout(&o),
        "0x1: DW_TAG_variable \"x\" DW_AT_location\n  [0x2, 0x4): DW_OP_constu 0x100, DW_OP_lit5, DW_OP_LLVM_user DW_OP_LLVM_form_aspace_address\n"
    );
    assert!(stderr(&o).contains(" 0 differ"), "{}", stderr(&o));
    let o = dioptra(&[
        "lifetimes",
        l,
        "--context",
        c,
        "--lower",
        "dwarf5",
        "--json",
    ]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("not-expressible"), "{}", stdout(&o));
    // Past the law's budget the listing stands and the law is reported
    // as not checked (exit 3), never as a pass.
    let long = temp(
        "alloca-long.ll",
        &std::fs::read_to_string(&listing).unwrap().replacen(
            "store i64 0, ...\n",
            &"store i64 0, ...\n".repeat(30),
            1,
        ),
    );
    let o = dioptra(&[
        "lifetimes",
        long.to_str().unwrap(),
        "--context",
        c,
        "--lower",
        "amdgpu",
        "--variants",
        "100000",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stdout(&o).contains("DW_TAG_variable"), "{}", stdout(&o));
    assert!(stderr(&o).contains("law: NOT CHECKED"), "{}", stderr(&o));
    // A law that could compare only a minority of what it looked at (the
    // context lacks the memory the location reads) is not checked: exit 3.
    let reads = temp(
        "alloca-reads.ll",
        &std::fs::read_to_string(&long)
            .unwrap()
            .replace("DIOpDeref(i64)))", "DIOpDeref(i64), DIOpRead()))"),
    );
    let bare = temp(
        "alloca-bare.ctx",
        r#"(context (bind "%x.addr" "imp(ptr addrspace(5) 256)"))"#,
    );
    let o = dioptra(&[
        "lifetimes",
        reads.to_str().unwrap(),
        "--context",
        bare.to_str().unwrap(),
        "--lower",
        "amdgpu",
    ]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("law: NOT CHECKED:"), "{}", stderr(&o));
    // With the memory there, the same listing is checked.
    let o = dioptra(&[
        "lifetimes",
        reads.to_str().unwrap(),
        "--context",
        c,
        "--lower",
        "amdgpu",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = dioptra(&["lifetimes", l, "--context", c, "--lower", "x86"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Usage: bad-target"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn equiv_verdicts_and_exit_codes() {
    // Equivalent: exit 0.
    let o = dioptra(&[
        "equiv",
        "DIOpArg(0, i32), DIOpConstant(i32 4), DIOpMul()",
        "DIOpArg(0, i32), DIOpConstant(i32 2), DIOpShl()",
        "--arg",
        "i32",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "equivalent");
    // Not equivalent: exit 1 and a counterexample that the runner accepts as
    // corpus cases (the interpreter's own outcomes, pasted as a script).
    let (src, tgt) = (
        "DIOpArg(0, i32), DIOpArg(1, i32), DIOpSub()",
        "DIOpArg(1, i32), DIOpArg(0, i32), DIOpSub()",
    );
    let o = dioptra(&["equiv", src, tgt, "--arg", "i32", "--arg", "i32", "--json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], "not-equivalent");
    let cex = v["counterexample"].as_str().unwrap();
    assert!(cex.contains("(context cex") && cex.contains(src) && cex.contains(tgt));
    let script = temp("cex.dioptra", &format!("(spec \"test\")\n{cex}\n"));
    let r = dioptra(&["run", script.to_str().unwrap()]);
    assert_eq!(code(&r), 0, "{}{}", stdout(&r), stderr(&r));
    assert!(stdout(&r).contains("2 passed, 0 failed"), "{}", stdout(&r));
    // Refines: exit 1, or 0 with --refines.
    let args = [
        "equiv",
        "DIOpConstant(i32 0)",
        "DIOpArg(0, i32), DIOpConstant(i32 32), DIOpShl()",
        "--arg",
        "i32",
    ];
    let o = dioptra(&args);
    assert_eq!((code(&o), stdout(&o).lines().next()), (1, Some("refines")));
    let o = dioptra(&[&args[..], &["--refines"]].concat());
    assert_eq!(code(&o), 0);
    // Different result types need no solver.
    let o = dioptra(&[
        "equiv",
        "DIOpArg(0, i32)",
        "DIOpArg(0, i32), DIOpReinterpret(float)",
        "--arg",
        "i32",
    ]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("types"), "{}", stdout(&o));
    // Ill-formed: exit 1 with the diagnostic; malformed: exit 2.
    let o = dioptra(&[
        "equiv",
        "DIOpArg(0, i64)",
        "DIOpArg(0, i32)",
        "--arg",
        "i32",
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).starts_with("DIOpArg: size-mismatch"),
        "{}",
        stderr(&o)
    );
    let o = dioptra(&["equiv", "DIOpArg(0, i32", "DIOpArg(0, i32)", "--arg", "i32"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn equiv_unknown_is_exit_3_never_a_proof() {
    // Floating-point multiplication chains are slow for the solver: with a
    // 1 ms limit it gives up, and that is `unknown`, exit 3.
    let o = dioptra(&[
        "equiv",
        "DIOpArg(0, double), DIOpConstant(double 3.0), DIOpMul(), DIOpConstant(double 7.0), DIOpDiv()",
        "DIOpArg(0, double), DIOpConstant(double 7.0), DIOpDiv(), DIOpConstant(double 3.0), DIOpMul()",
        "--arg",
        "double",
        "--timeout-ms",
        "1",
        "--json",
    ]);
    assert_eq!(code(&o), 3, "{}{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], "unknown");
}

#[test]
fn lower_prints_a_listing_or_why_it_is_not_expressible() {
    let ctx = temp(
        "lower.ctx",
        "(context (register 3 \"10 00 00 00\") (arg \"i32\" \"reg(3)\") (lane 1))",
    );
    let c = ctx.to_str().unwrap();
    let o = dioptra(&[
        "lower",
        "DIOpArg(0, i32)",
        "--context",
        c,
        "--target",
        "dwarf5",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "DW_OP_reg3");
    assert!(stderr(&o).contains("0 differ"), "{}", stderr(&o));
    let o = dioptra(&["lower", "DIOpArg(0, i32)", "--context", c, "--hex"]);
    assert_eq!(stdout(&o).trim(), "53");
    let o = dioptra(&[
        "lower",
        "DIOpPushLane(i32)",
        "--context",
        c,
        "--target",
        "dwarf5",
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).starts_with("DIOpPushLane: not-expressible: lane:"),
        "{}",
        stderr(&o)
    );
    let o = dioptra(&[
        "lower",
        "DIOpPushLane(i32)",
        "--context",
        c,
        "--target",
        "x86",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Lower: bad-target:"),
        "{}",
        stderr(&o)
    );
}

/// A read at a bit offset lowers to `DW_OP_deref_size` with its 1-byte
/// operand, so `--hex` encodes it (the gdb harness found a ULEB operand
/// there that printed but did not encode).
#[test]
fn a_read_at_a_bit_offset_encodes() {
    let ctx = temp(
        "bitread.ctx",
        "(context (memory 0 0x10000 \"01 02 03 04 05 06 07 08\") (referrer \"i32\" \"mem(0, 0x10000)\"))",
    );
    let c = ctx.to_str().unwrap();
    let e = "DIOpReferrer(i32), DIOpConstant(i8 3), DIOpBitOffset(i8), DIOpRead()";
    for target in ["dwarf5", "amdgpu"] {
        let o = dioptra(&["lower", e, "--context", c, "--target", target, "--hex"]);
        assert_eq!(code(&o), 0, "{target}: {}", stderr(&o));
        // DW_OP_deref_size 2, DW_OP_lit3, DW_OP_shr
        assert!(
            stdout(&o).contains("94 02 33 25"),
            "{target}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn dwarf_equiv_exit_codes() {
    let ctx = temp(
        "dwarf-equiv.ctx",
        "(context (register 3 \"10 00 00 00\") (arg \"i32\" \"reg(3)\"))",
    );
    let c = ctx.to_str().unwrap();
    let same = dioptra(&["dwarf-equiv", "DIOpArg(0, i32)", "53", "--context", c]);
    assert_eq!(code(&same), 0, "{}", stdout(&same));
    assert!(stdout(&same).starts_with("same"));
    let differ = dioptra(&[
        "dwarf-equiv",
        "DIOpArg(0, i32)",
        "DW_OP_reg4",
        "--context",
        c,
    ]);
    assert_eq!(code(&differ), 1);
    assert!(
        stdout(&differ).contains("(context cex"),
        "{}",
        stdout(&differ)
    );
    let bad = dioptra(&[
        "dwarf-equiv",
        "DIOpArg(0, i32)",
        "DW_OP_bogus",
        "--context",
        c,
    ]);
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).starts_with("DWARF: unknown-opcode:"),
        "{}",
        stderr(&bad)
    );
    let truncated = dioptra(&["dwarf-equiv", "DIOpArg(0, i32)", "0c 01", "--context", c]);
    assert_eq!(code(&truncated), 2);
    assert!(
        stderr(&truncated).starts_with("DWARF: truncated:"),
        "{}",
        stderr(&truncated)
    );
}

#[test]
fn classic_expressions_are_accepted_with_their_parameters() {
    // check: the type and the DIOp translation.
    let o = dioptra(&[
        "check",
        "!DIExpression(DW_OP_plus_uconst, 4, DW_OP_stack_value)",
        "--arg",
        "i32",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("i64\n"), "{out}");
    assert!(
        out.contains(
            "translation: !DIExpr(DIOpArg(0, i32), DIOpZExt(i64), DIOpConstant(i64 4), DIOpAdd())"
        ),
        "{out}"
    );
    // The upper-bit parameter decides a salvage: lshr as DW_OP_shr.
    let salvage = |high: &str| {
        dioptra(&[
            "equiv",
            "!DIExpression(DW_OP_lit1, DW_OP_shr, DW_OP_stack_value)",
            "!DIExpr(DIOpArg(0, i8), DIOpConstant(i8 1), DIOpLShr())",
            "--arg",
            "i8",
            "--high",
            high,
        ])
    };
    let zero = salvage("zero");
    assert_eq!(code(&zero), 0, "{}", stdout(&zero));
    let sign = salvage("sign");
    assert_eq!(code(&sign), 1);
    assert!(
        stdout(&sign).contains("counterexample"),
        "{}",
        stdout(&sign)
    );
    // `any` has no concrete counterexample: equiv refuses it.
    let any = salvage("any");
    assert_eq!(code(&any), 1);
    assert!(
        stderr(&any).contains("Classic: high-bits-any"),
        "{}",
        stderr(&any)
    );
    // A fragment too wide for the solver is unsupported, at once.
    let wide = dioptra(&[
        "equiv",
        "!DIExpression(DW_OP_lit1, DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 16000000)",
        "!DIExpression(DW_OP_lit2, DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 16000000)",
    ]);
    assert_eq!(code(&wide), 1);
    assert!(stderr(&wide).contains("SMT: width"), "{}", stderr(&wide));
    // A bad parameter is a usage error.
    let bad = salvage("ones");
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("Classic: bad-parameter"),
        "{}",
        stderr(&bad)
    );
    // eval of dbg.declare: memory at the operand.
    let ctx = temp(
        "classic.ctx",
        r#"(context (register 1 "00 10 00 00 00 00 00 00") (arg "ptr" "reg(1)")
             (memory 0 0x1000 "2a 00 00 00"))"#,
    );
    let o = dioptra(&[
        "eval",
        "!DIExpression()",
        "--context",
        ctx.to_str().unwrap(),
        "--intrinsic",
        "declare",
        "--variable",
        "i32",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("location: mem(0, 0x1000)"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("value: 0x0000002a (42)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn serve_answers_classic_requests() {
    let req = r#"{"id":1,"command":"check","expr":"!DIExpression(DW_OP_stack_value)","signature":{"layout":"e","referrer":null,"args":["i32"],"typeobject":null,"simt":false},"classic":{"intrinsic":"declare"}}"#;
    let out = serve(format!("{req}\n").as_bytes());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"outcome\":\"ill-formed\""), "{text}");
    assert!(text.contains("DW_OP_stack_value: in-declare"), "{text}");
}

#[test]
fn rule_and_canon_commands() {
    let dir = std::env::temp_dir().join(format!("dioptra-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let valid = dir.join("valid.rules");
    std::fs::write(
        &valid,
        "rule sub-self\n  types T: int(8, 32)\n  source DIOpConstant(T C), DIOpConstant(T C), DIOpSub()\n  target DIOpConstant(T 0)\n",
    )
    .unwrap();
    let o = dioptra(&["rule", valid.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("valid    sub-self  (2 of 2"));
    let invalid = dir.join("invalid.rules");
    std::fs::write(
        &invalid,
        "rule add-self-is-shl-2\n  types T: int(8)\n  inputs %x: T\n  source %x, %x, DIOpAdd()\n  target %x, DIOpConstant(T 2), DIOpShl()\n",
    )
    .unwrap();
    let o = dioptra(&["rule", invalid.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["rules"][0]["verdict"], "invalid");
    let detail = v["rules"][0]["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("T = i8") && detail.contains("(context cex"),
        "{detail}"
    );
    let bad = dir.join("bad.rules");
    std::fs::write(&bad, "rule x\n  sauce DIOpConstant(i8 1)\n").unwrap();
    let o = dioptra(&["rule", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("Rule: bad-form:"));
    let o = dioptra(&[
        "canon",
        "DIOpConstant(i8 200), DIOpConstant(i8 100), DIOpAdd()",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["canonical"], "DIOpConstant(i8 44)");
    assert_eq!(v["steps"][0]["rule"], "constant-fold-add");
    let o = dioptra(&[
        "canon",
        "DIOpConstant(i8 1), DIOpConstant(i16 1), DIOpAdd()",
    ]);
    assert_eq!(o.status.code(), Some(1));
}

/// A reader that goes away (`dioptra ... | head -1`) ends the command
/// quietly: exit 0, nothing on stderr, no panic (`outln!` in main.rs). The
/// answers are far more than a pipe buffer holds, so the write fails.
#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_dioptra"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = r#"{"id":1,"command":"check","expr":"DIOpReferrer(i32)","signature":{"layout":"e","referrer":"i32","args":[],"typeobject":null,"simt":true}}"#;
        for _ in 0..20_000 {
            // The child stops reading once its stdout is gone.
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.contains(r#""outcome":"ok""#), "{first}");
    drop(out);
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

/// The same for standard error (`dioptra lifetimes x.ll 2>&1 | head -1`):
/// 5 000 shadowed kills are 600 KB of diagnostics, more than a pipe
/// holds; the command panicked (exit 101) writing into the closed pipe.
#[test]
fn a_closed_stderr_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("dioptra-closed-stderr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::from(
        "define void @f() {\nentry:\n  call void @llvm.dbg.def(metadata !l, metadata i32 %x)\n",
    );
    for b in 0..5_000 {
        text += &format!("  br label %b{b}\nb{b}:\n  call void @llvm.dbg.kill(metadata !l)\n");
    }
    text += "  ret void\n}\n!v = !DILocalVariable(name: \"v\")\n!l = distinct !DILifetime(object: !v, location: !DIExpr(DIOpReferrer(i32)))\n";
    let f = dir.join("kills.ll");
    std::fs::write(&f, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dioptra"))
        .arg("lifetimes")
        .arg(&f)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    assert!(first.contains("llvm.dbg.kill: shadowed"), "{first}");
    drop(err);
    let status = child.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(status.code(), Some(0));
}

/// `serve` answers every line, with its id where one can be read: a line
/// that is not UTF-8 and one that is not JSON get `malformed` answers, and
/// the lines after them are answered as usual.
#[test]
fn serve_answers_every_line_with_its_id() {
    let ok = br#"{"id":8,"command":"check","expr":"DIOpReferrer(i32)","signature":{"layout":"e","referrer":"i32","args":[],"typeobject":null,"simt":true}}"#;
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"id\":7,\"command\":\"check\",\"expr\":\"\xff\xfe\"}\n");
    input.extend_from_slice(b"not json, \"id\": 9 and more\n");
    input.extend_from_slice(b"{\"id\": 10, \"command\": 3}\n");
    input.extend_from_slice(ok);
    input.push(b'\n');
    let o = serve(&input);
    assert_eq!(code(&o), 0);
    let answers: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(u64, &str)> = answers
        .iter()
        .map(|a| (a["id"].as_u64().unwrap(), a["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (7, "malformed"),
            (9, "malformed"),
            (10, "malformed"),
            (8, "ok")
        ]
    );
    assert!(answers[0]["diagnostic"]
        .as_str()
        .unwrap()
        .starts_with("Protocol: not-utf8:"));
}

/// `rule --threads` takes 1 to 256: more is a usage error, not a panic.
#[test]
fn rule_threads_are_bounded() {
    let f = temp(
        "threads.rules",
        "rule sub-self\n  types T: int(8)\n  source DIOpConstant(T C), DIOpConstant(T C), DIOpSub()\n  target DIOpConstant(T 0)\n",
    );
    let o = dioptra(&["rule", f.to_str().unwrap(), "--threads", "3000"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    let o = dioptra(&["rule", f.to_str().unwrap(), "--threads", "256"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

/// Every file argument is read with a bound: an endless one is `too-large`
/// after 64 MiB, not read whole (issue 24, item 5).
#[test]
fn file_arguments_are_read_with_a_bound() {
    let o = dioptra(&["check", "@/dev/zero"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Input: too-large:"),
        "{}",
        stderr(&o)
    );
    let o = dioptra(&["eval", "DIOpConstant(i8 1)", "--context", "/dev/zero"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with("Context: too-large:"),
        "{}",
        stderr(&o)
    );
    let o = dioptra(&["multiloc", "/dev/zero"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("too-large"), "{}", stderr(&o));
}

/// A value too wide for DWARF 5's typed operations is not expressible, said
/// in one line, not a dump of its bytes (issue 24, item 11).
#[test]
fn a_value_too_wide_for_dwarf_is_not_expressible_in_one_line() {
    let ctx = temp("wide.ctx", "(context c (register 3 \"01\"))");
    for target in ["amdgpu", "dwarf5"] {
        let o = dioptra(&[
            "lower",
            "DIOpConstant(<65536 x i8> zeroinitializer)",
            "--context",
            ctx.to_str().unwrap(),
            "--target",
            target,
        ]);
        assert_eq!(code(&o), 1, "{}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.starts_with("DIOpConstant: not-expressible: value-too-wide:") && e.len() < 300,
            "{e}"
        );
    }
}

#[test]
fn fuzz_runs_for_a_time_on_several_jobs_and_says_how_many_cases() {
    let o = dioptra(&[
        "fuzz",
        "--property",
        "print-parse-round-trip",
        "--time",
        "1s",
        "--jobs",
        "2",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let n: u32 = out
        .lines()
        .find_map(|l| l.strip_prefix("print-parse-round-trip: "))
        .and_then(|l| l.strip_suffix(" cases held"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(n > 0);
}

#[test]
fn fuzz_prints_each_laws_share_of_the_time() {
    let o = dioptra(&["fuzz", "--cases", "2", "--jobs", "2", "--seed", "4"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let shares: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("time per law (2 jobs,"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    // Every law of the table is in `all`.
    assert_eq!(shares.len(), dioptra_properties::LAWS.len(), "{out}");
    assert!(
        shares
            .iter()
            .all(|l| l.contains(": 2 cases in ") && l.ends_with("%)")),
        "{out}"
    );
}

#[test]
fn fuzz_rejects_bad_durations_and_job_counts() {
    let law = "print-parse-round-trip";
    for (args, want) in [
        (&[law, "--time", "0"][..], "Fuzz: bad-duration:"),
        (&[law, "--time", "5x"][..], "Fuzz: bad-duration:"),
        (&[law, "--jobs", "0"][..], "Fuzz: bad-jobs:"),
        (&[law, "--jobs", "1000"][..], "Fuzz: bad-jobs:"),
        (&["gdb", "--jobs", "2"][..], "Fuzz: not-for-gdb:"),
    ] {
        let mut all = vec!["fuzz", "--property"];
        all.extend(args);
        let o = dioptra(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with(want), "{args:?}: {err}");
    }
}

/// A refusal names its outcome on stdout's first line, as a verdict does,
/// so `equiv`'s exit 1 for ill-formed input is told from its exit 1 for
/// `not-equivalent` without `--json` (issue 21).
#[test]
fn refusals_print_their_outcome_word_first() {
    // `check`'s ill-formed case: check_prints_the_type_or_the_diagnostic.
    let first = |o: &std::process::Output| stdout(o).lines().next().unwrap_or("").to_string();
    let o = dioptra(&["equiv", "DIOpAdd()", "DIOpConstant(i32 1)"]);
    assert_eq!((code(&o), first(&o).as_str()), (1, "ill-formed"));
    let o = dioptra(&[
        "equiv",
        "DIOpArg(0, i32)",
        "DIOpArg(0, i32), DIOpConstant(i32 1), DIOpAdd()",
        "--arg",
        "i32",
        "--no-simt",
    ]);
    assert_eq!((code(&o), first(&o).as_str()), (1, "not-equivalent"));
    let o = dioptra(&["check", "DIOpFoo()"]);
    assert_eq!((code(&o), first(&o).as_str()), (2, "malformed"));
    let o = dioptra(&["canon", "DIOpDeref(i32)"]);
    assert_eq!((code(&o), first(&o).as_str()), (1, "ill-formed"));
}

/// `lower --prove`: a proof, a refinement (exit 0 both), and the
/// `--json` form; `dwarf-equiv --prove` finds a DWARF that testing passes
/// wrong for one register value (exit 1, the counterexample as corpus
/// cases), and proves the right one.
#[test]
fn lower_and_dwarf_equiv_prove() {
    let ctx = temp(
        "prove.ctx",
        r#"(context (lane 5) (register 3 "78 56 34 12") (arg "i32" "reg(3)"))"#,
    );
    let c = ctx.to_str().unwrap();
    let o = dioptra(&["lower", "DIOpArg(0, i32)", "--context", c, "--prove"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("proof: proven"), "{}", stdout(&o));
    let o = dioptra(&["lower", "DIOpPushLane(i32)", "--context", c, "--prove"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("proof: refines"), "{}", stdout(&o));
    assert!(stdout(&o).contains("(context cex"), "{}", stdout(&o));
    let o = dioptra(&[
        "lower",
        "DIOpArg(0, i32)",
        "--context",
        c,
        "--prove",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["proof"]["verdict"], "proven");
    let trapdoor = "DW_OP_breg3 0, DW_OP_dup, DW_OP_constu 0x87654321, DW_OP_eq, DW_OP_plus, DW_OP_stack_value";
    let o = dioptra(&[
        "dwarf-equiv",
        "DIOpArg(0, i32), DIOpRead()",
        trapdoor,
        "--context",
        c,
    ]);
    assert_eq!(code(&o), 0, "testing alone passes it: {}", stdout(&o));
    let o = dioptra(&[
        "dwarf-equiv",
        "DIOpArg(0, i32), DIOpRead()",
        trapdoor,
        "--context",
        c,
        "--prove",
    ]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("proof: not-proven"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("(register 3 \"21 43 65 87\")"),
        "{}",
        stdout(&o)
    );
    let right = "DW_OP_breg3 0, DW_OP_constu 0xffffffff, DW_OP_and, DW_OP_stack_value";
    let o = dioptra(&[
        "dwarf-equiv",
        "DIOpArg(0, i32), DIOpRead()",
        right,
        "--context",
        c,
        "--prove",
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(stdout(&o).contains("proof: proven"), "{}", stdout(&o));
}

/// `lower-table` on a few rows: a line per op and target, and a closing
/// line with the counts; bad widths are a usage error.
#[test]
fn lower_table_proves_rows() {
    let o = dioptra(&["lower-table", "--widths", "8,13", "--op", "Arg"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\nArg                      amdgpu"), "{out}");
    assert!(out.contains("\nArg                      dwarf5"), "{out}");
    assert!(
        out.contains(
            "20 instances: 18 proven, 0 refine, 0 not proven, 0 unknown, 2 not expressible"
        ),
        "{out}"
    );
    let o = dioptra(&["lower-table", "--widths", "8", "--op", "AddrOf", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["totals"]["proven"].as_u64().unwrap() > 0, "{v}");
    for bad in ["0..3", "60..70", "x", ""] {
        let o = dioptra(&["lower-table", "--widths", bad]);
        assert_eq!(code(&o), 2, "{bad}");
        assert!(
            stderr(&o).starts_with("LowerTable: bad-widths"),
            "{}",
            stderr(&o)
        );
    }
}

/// `lifetimes --lower T --prove`: each segment's entry proven.
#[test]
fn lifetimes_lower_prove_proves_each_segment() {
    let listing = temp(
        "prove-lower.mir",
        "$r0 = MOV ...\nDBG_DEF !2, $r0\n$r1 = MOV ...\nDBG_DEF !3, $r1\nDBG_KILL !2\nDBG_KILL !3\nRETURN\n!1 = !DILocalVariable(\"x\", ...)\n!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))\n!3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32), DIOpRead()))\n",
    );
    let ctx = temp(
        "prove-lower.ctx",
        r#"(context (register 0 "07 00 00 00") (register 1 "07 00 00 00") (bind "$r0" "reg(0)") (bind "$r1" "reg(1)"))"#,
    );
    let (l, c) = (listing.to_str().unwrap(), ctx.to_str().unwrap());
    let o = dioptra(&[
        "lifetimes",
        l,
        "--context",
        c,
        "--lower",
        "amdgpu",
        "--prove",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("proofs: {\"proven\": 2}"),
        "{}",
        stderr(&o)
    );
}
