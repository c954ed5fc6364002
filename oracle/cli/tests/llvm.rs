//! `dioptra llvm`: a small bounded campaign of generated functions through
//! a real `opt`, which fails on any wrong record that is not a known LLVM
//! bug, and the harness's answer when no `opt` is installed.
//!
//! The campaign needs LLVM's `opt` (CI installs llvm-22). Without one it
//! says NOT CHECKED and exits 3; the test then fails when
//! `DIOPTRA_REQUIRE_LLVM` is set (as CI sets it) and otherwise reports the
//! skip on stderr rather than passing silently.

use serde_json::Value;
mod common;
use common::dioptra;

fn have_opt() -> bool {
    dioptra_oracle::llvm::tools::find("opt", None).is_ok()
}

fn skip_or_fail(what: &str) {
    if std::env::var_os("DIOPTRA_REQUIRE_LLVM").is_some() {
        panic!("{what}: no opt on this machine, and DIOPTRA_REQUIRE_LLVM is set");
    }
    eprintln!("NOT CHECKED: {what}: no opt on this machine (install llvm-22)");
}

#[test]
fn a_bounded_campaign_leaves_no_wrong_record_unexplained() {
    if !have_opt() {
        return skip_or_fail("a_bounded_campaign_leaves_no_wrong_record_unexplained");
    }
    let (code, out, err) = dioptra(&[
        "llvm",
        "--generated",
        "60",
        "--seed",
        "7",
        "--passes",
        "instcombine,O2",
        "--batch",
        "30",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    assert_eq!(v["errors"], serde_json::json!([]), "{err}");
    let unexplained: Vec<&Value> = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["verdict"] == "wrong" && r["bug"].is_null())
        .collect();
    assert!(
        unexplained.is_empty(),
        "wrong records that are no known LLVM bug:\n{unexplained:#?}"
    );
    assert_eq!(code, 0, "{err}");
    let n = |w: &str| v["counts"][w].as_u64().unwrap();
    let total: u64 = [
        "same",
        "refines",
        "wrong",
        "dropped",
        "not-compared",
        "unknown",
    ]
    .iter()
    .map(|w| n(w))
    .sum();
    // Most records are compared, and the compared ones are mostly right:
    // a harness that compared nothing, or called everything wrong, fails.
    assert!(total > 200, "{total} records");
    assert!(
        n("not-compared") + n("unknown") < total / 10,
        "{}",
        v["counts"]
    );
    assert!(n("same") > total / 2, "{}", v["counts"]);
    // LLVM 22 still has the salvage bugs: 60 functions find some of them.
    let bugs = v["bugs"].as_object().unwrap();
    assert!(bugs.len() >= 3, "{bugs:?}");
    // The version used is reported.
    assert!(v["version"].as_str().unwrap().contains("LLVM version"));
}

#[test]
fn a_record_of_a_deleted_lshr_is_found_wrong_and_bundled() {
    if !have_opt() {
        return skip_or_fail("a_record_of_a_deleted_lshr_is_found_wrong_and_bundled");
    }
    // Seed 0's functions include salvaged lshr of narrow values.
    let dir = std::env::temp_dir().join(format!("dioptra-llvm-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, out, err) = dioptra(&[
        "llvm",
        "--generated",
        "40",
        "--passes",
        "instcombine",
        "--emit-repro",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    let lshr = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bug"] == "salvage-lshr")
        .unwrap_or_else(|| panic!("no salvage-lshr record: {}", v["bugs"]));
    assert!(lshr["after"].as_str().unwrap().contains("DW_OP_shr"));
    let reason = lshr["reason"].as_str().unwrap();
    assert!(
        reason.contains("witness pointers = 64, high = sign"),
        "{reason}"
    );
    // Its bundle: the function alone, the opt command, opt's output (with
    // the salvaged record in it), and a rule `dioptra rule` finds invalid
    // on its own, its witness re-run.
    let b = dir.join("salvage-lshr");
    let before = std::fs::read_to_string(b.join("before.ll")).unwrap();
    assert_eq!(before.matches("define ").count(), 1, "{before}");
    let after = std::fs::read_to_string(b.join("after.ll")).unwrap();
    assert!(after.contains("DW_OP_shr"), "{after}");
    let command = std::fs::read_to_string(b.join("command")).unwrap();
    assert!(command.contains("-passes='instcombine'"), "{command}");
    let (code, out, err) = dioptra(&["rule", b.join("bug.rules").to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("invalid  salvage-lshr"), "{out}");
}

#[test]
fn an_unknown_pass_is_a_usage_error() {
    if !have_opt() {
        return skip_or_fail("an_unknown_pass_is_a_usage_error");
    }
    let (code, out, err) = dioptra(&[
        "llvm",
        "--generated",
        "2",
        "--passes",
        "instcombine,no-such-pass",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("Llvm: bad-pass: `no-such-pass`"), "{err}");
}

#[test]
fn without_opt_the_campaign_is_not_checked() {
    // A version no machine has: the harness says why and exits 3.
    let (code, out, _) = dioptra(&["llvm", "--generated", "2", "--llvm", "99"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("NOT CHECKED") && out.contains("LLVM 99"),
        "{out}"
    );
}

/// The known-bug table, the corpus errata rules, the errata register and
/// the README's table name the same bugs.
#[test]
fn every_known_bug_has_an_erratum_a_register_row_and_a_readme_row() {
    use dioptra_oracle::llvm::known::KNOWN;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let rules = std::fs::read_to_string(format!("{root}/corpus/errata/llvm.rules")).unwrap();
    let register = std::fs::read_to_string(format!("{root}/corpus/errata/README.md")).unwrap();
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    for k in KNOWN {
        assert!(
            rules.contains(&format!("\nrule {}\n", k.id)),
            "{}: no rule in corpus/errata/llvm.rules",
            k.id
        );
        assert!(
            register.contains(&format!("| E-llvm-{} |", k.id)),
            "{}: no row in the errata register",
            k.id
        );
        assert!(
            readme.contains(&format!("| `{}` |", k.id)),
            "{}: no row in the README's table",
            k.id
        );
        if let Some(n) = k.upstream {
            assert!(
                register.contains(&format!("llvm/llvm-project#{n}")),
                "{}",
                k.id
            );
        }
    }
    let rows = register.matches("| E-llvm-").count();
    assert_eq!(
        rows,
        KNOWN.len(),
        "errata rows for bugs the table does not know"
    );
}

/// On a 32-bit target the records of 64-bit values are their own bug, and
/// nothing is left unexplained.
#[test]
fn a_32_bit_target_has_its_own_bug_and_nothing_unexplained() {
    if !have_opt() {
        return skip_or_fail("a_32_bit_target_has_its_own_bug_and_nothing_unexplained");
    }
    let (code, out, err) = dioptra(&[
        "llvm",
        "--generated",
        "30",
        "--passes",
        "instcombine",
        "--target",
        "i686-pc-linux-gnu",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["unclassified"], 0);
    assert!(
        v["bugs"]["operand-wider-than-address"]["records"].as_u64() > Some(0),
        "{}",
        v["bugs"]
    );
}
