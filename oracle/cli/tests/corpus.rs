//! The conformance corpus under `cargo test`: against the reference in
//! process, through the line protocol (`dioptra serve` as an external
//! implementation), and checked for coverage and for agreement with the
//! decision and errata registers.

use dioptra_oracle::script::{run_files, Expect, External, Reference, Summary};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The corpus against the reference, run once per test binary (the rule
/// files take most of a minute).
fn corpus() -> &'static Summary {
    static RUN: std::sync::OnceLock<Summary> = std::sync::OnceLock::new();
    RUN.get_or_init(|| run_files(&[root().join("corpus")], &mut Reference))
}

#[test]
fn corpus_passes_against_the_reference() {
    let s = corpus();
    assert!(
        s.failures.is_empty(),
        "{} failures:\n{}",
        s.failed,
        s.failures.join("\n")
    );
    assert!(
        s.scripts >= 31 && s.passed >= 500,
        "found {} scripts, {} cases",
        s.scripts,
        s.passed
    );
}

#[test]
fn corpus_passes_through_the_line_protocol() {
    let cmd = format!("{} serve", env!("CARGO_BIN_EXE_dioptra"));
    let mut ext = External::start(&cmd, Duration::from_secs(30)).unwrap();
    let s = run_files(&[root().join("corpus")], &mut ext);
    assert!(
        s.failures.is_empty(),
        "{} failures:\n{}",
        s.failed,
        s.failures.join("\n")
    );
    // Rules are checked by the reference only; everything else must pass
    // through the protocol too.
    assert!(s.rules == 0 && s.rules_skipped == corpus().rules);
    assert!(s.in_process_skipped > 0 && corpus().in_process_skipped == 0);
    assert_eq!(
        s.passed,
        corpus().passed - corpus().rules - s.in_process_skipped
    );
}

#[test]
fn a_wrong_implementation_fails_cases() {
    // An "implementation" that answers every request with ok/i32 must fail
    // most of the corpus: the runner is not a rubber stamp.
    let cmd = r#"while read -r line; do id=$(printf '%s' "$line" | sed 's/^{"id":\([0-9]*\).*/\1/'); printf '{"id":%s,"outcome":"ok","type":"i32"}\n' "$id"; done"#;
    let mut ext = External::start(cmd, Duration::from_secs(30)).unwrap();
    let s = run_files(&[root().join("corpus/ops/add.dioptra")], &mut ext);
    assert!(
        s.failed > s.passed,
        "passed {} failed {}",
        s.passed,
        s.failed
    );
}

#[test]
fn an_unresponsive_implementation_costs_one_timeout() {
    // Reads nothing and never answers: the first case times out, the rest
    // fail at once.
    let mut ext = External::start("sleep 30", Duration::from_millis(300)).unwrap();
    let t = std::time::Instant::now();
    let s = run_files(&[root().join("corpus/ops/add.dioptra")], &mut ext);
    assert_eq!(s.passed, 0);
    assert!(s.failed > 10);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "took {:?}",
        t.elapsed()
    );
    assert!(s.failures[0].contains("Impl: timeout"), "{}", s.failures[0]);
    assert!(s.failures[1].contains("Impl: dead"), "{}", s.failures[1]);
}

/// Every reason code each op can report, from the spec's "not well-formed"
/// sentences, dioptra's decisions and the dynamic rules.
const REASONS: &[(&str, &[&str])] = &[
    ("DIExpr", &["empty", "result-stack-size"]),
    (
        "DIOpReferrer",
        &["not-bounded", "size-mismatch", "wrong-arity"],
    ),
    (
        "DIOpArg",
        &["index-out-of-range", "size-mismatch", "wrong-arity"],
    ),
    ("DIOpTypeObject", &["not-type-property", "size-mismatch"]),
    (
        "DIOpConstant",
        &[
            "literal-out-of-range",
            "literal-type-mismatch",
            "literal-partially-undef",
            "inexact-literal",
            "bad-literal",
        ],
    ),
    (
        "DIOpConvert",
        &[
            "integral-extension",
            "unsupported-conversion",
            "stack-underflow",
            "out-of-range",
            "undefined-bits",
        ],
    ),
    (
        "DIOpZExt",
        &[
            "not-integral",
            "not-wider",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpSExt",
        &[
            "not-integral",
            "not-wider",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpReinterpret",
        &["size-mismatch", "stack-underflow", "addrof-operand"],
    ),
    (
        "DIOpBitOffset",
        &[
            "offset-not-integral",
            "stack-underflow",
            "addrof-operand",
            "offset-outside-storage",
            "undefined-bits",
        ],
    ),
    (
        "DIOpByteOffset",
        &[
            "offset-not-integral",
            "stack-underflow",
            "addrof-operand",
            "offset-outside-storage",
        ],
    ),
    (
        "DIOpComposite",
        &[
            "size-mismatch",
            "zero-parts",
            "stack-underflow",
            "addrof-operand",
            "overlapping-parts",
        ],
    ),
    (
        "DIOpExtend",
        &[
            "invalid-element-type",
            "zero-count",
            "too-large",
            "stack-underflow",
            "addrof-operand",
            "overlapping-parts",
        ],
    ),
    (
        "DIOpSelect",
        &[
            "mask-too-narrow",
            "mask-not-integral",
            "not-a-vector",
            "type-mismatch",
            "stack-underflow",
            "offset-outside-storage",
            "undefined-bits",
        ],
    ),
    ("DIOpAddrOf", &["addrof-operand", "stack-underflow"]),
    (
        "DIOpDeref",
        &["not-a-pointer", "stack-underflow", "undefined-bits"],
    ),
    (
        "DIOpRead",
        &[
            "stack-underflow",
            "addrof-operand",
            "undefined-bits",
            "offset-outside-storage",
            "conflicting-locations",
            "implicit-address",
            "memory-not-supplied",
            "register-not-supplied",
        ],
    ),
    (
        "DIOpAdd",
        &[
            "type-mismatch",
            "not-arithmetic",
            "stack-underflow",
            "undefined-bits",
            "addrof-operand",
        ],
    ),
    (
        "DIOpSub",
        &[
            "type-mismatch",
            "not-arithmetic",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpMul",
        &[
            "type-mismatch",
            "not-arithmetic",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpDiv",
        &[
            "type-mismatch",
            "not-arithmetic",
            "stack-underflow",
            "undefined-bits",
            "division-by-zero",
            "signed-overflow",
        ],
    ),
    (
        "DIOpLShr",
        &[
            "not-integral",
            "type-mismatch",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpAShr",
        &[
            "not-integral",
            "type-mismatch",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpShl",
        &[
            "not-integral",
            "type-mismatch",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpPushLane",
        &["not-integral", "not-simt", "lane-out-of-range"],
    ),
    ("DIOpFragment", &["not-last", "size-mismatch", "zero-size"]),
    (
        "DIOpAnd",
        &[
            "not-integral",
            "type-mismatch",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpOr",
        &[
            "not-integral",
            "type-mismatch",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpXor",
        &[
            "not-integral",
            "type-mismatch",
            "stack-underflow",
            "undefined-bits",
        ],
    ),
    (
        "DIOpMod",
        &[
            "not-integral",
            "type-mismatch",
            "stack-underflow",
            "undefined-bits",
            "division-by-zero",
        ],
    ),
];

/// Every reason code of the lifetime rules (issue: "each with its own reason code").
const MODULE_REASONS: &[&str] = &[
    "DILifetime: multiple-defs",
    "DILifetime: kill-without-def",
    "llvm.dbg.kill: unreachable-from-def",
    "llvm.dbg.kill: shadowed",
    "llvm.dbg.def: not-a-lifetime",
    "llvm.dbg.kill: not-a-lifetime",
    "llvm.dbg.label: not-a-code",
    "DILifetime: bad-object",
    "DILifetime: bad-location",
    "DILifetime: bad-arg",
    "lifetime-graph: cycle",
    "lifetime-graph: unreachable",
    "DIFragment: global-fragment-shared",
    "DIFragment: global-fragment-object",
    "Global: dbg-def-not-fragment",
    "DIFragment: type-property-in-args",
    "DIFragment: type-property-shared",
    "DICompositeType: property-not-fragment",
    "DICode: label-count",
    "DISubprogram: not-retained",
    "DILifetime: wrong-retainer",
    "DICompileUnit: global-not-listed",
    "DICompileUnit: not-in-llvm-dbg-cu",
    "DIObject: multiple-computed",
    "DIOpReferrer: not-bounded",
    "DIOpTypeObject: not-type-property",
    "Metadata: undefined-node",
    "Metadata: duplicate-node",
    "Metadata: unknown-node",
    "Metadata: bad-node",
    "Metadata: bad-field",
    "Function: unknown-label",
];

#[test]
fn every_lifetime_rule_has_a_case() {
    let s = corpus();
    let seen: BTreeSet<String> = s
        .cases
        .iter()
        .filter_map(|(c, _)| match &c.expect {
            Expect::ModuleIllFormed { reason } | Expect::ModuleMalformed { reason } => {
                Some(reason.trim().to_string())
            }
            _ => None,
        })
        .collect();
    let missing: Vec<_> = MODULE_REASONS
        .iter()
        .filter(|r| !seen.contains(**r))
        .collect();
    assert!(
        missing.is_empty(),
        "lifetime rules without a corpus case: {missing:?}"
    );
}

#[test]
fn every_reason_of_every_op_has_a_case() {
    let s = corpus();
    let seen: BTreeSet<String> = s
        .cases
        .iter()
        .filter_map(|(c, _)| match &c.expect {
            Expect::IllFormed { reason }
            | Expect::Malformed { reason }
            | Expect::EvalError { reason }
            | Expect::Unsupported { reason } => Some(reason.trim().to_string()),
            _ => None,
        })
        .collect();
    let missing: Vec<String> = REASONS
        .iter()
        .flat_map(|(op, rs)| rs.iter().map(move |r| format!("{op}: {r}")))
        .filter(|k| !seen.contains(k))
        .collect();
    assert!(
        missing.is_empty(),
        "reasons without a corpus case: {missing:?}"
    );
    // And every op has a file with happy paths.
    for op in dioptra_semantics::syntax::Op::NAMES {
        let ok = s.cases.iter().any(|(c, _)| {
            c.expr.contains(&format!("{op}(")) && matches!(c.expect, Expect::WellFormed { .. })
        });
        let evaluated = s.cases.iter().any(|(c, _)| {
            c.expr.contains(&format!("{op}("))
                && matches!(c.expect, Expect::Value { .. } | Expect::Location { .. })
        });
        assert!(
            ok && evaluated,
            "{op} lacks a well-formed or an evaluated case"
        );
    }
}

fn ids(text: &str, marker: &str) -> BTreeSet<String> {
    // `marker` is "DECISION (" or "| " followed by D-/E- ids.
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices(marker) {
        let rest = &text[i + marker.len()..];
        if rest.starts_with("D-") || rest.starts_with("E-") {
            let id: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            out.insert(id);
        }
    }
    out
}

fn source_text() -> String {
    let mut out = String::new();
    let mut stack: Vec<_> = [
        "semantics/src",
        "oracle/src",
        "oracle/cli/src",
        "generators/src",
        "properties/src",
    ]
    .iter()
    .map(|d| root().join(d))
    .collect();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out += &std::fs::read_to_string(p).unwrap();
            }
        }
    }
    out
}

#[test]
fn decision_register_code_and_corpus_agree() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let register = ids(&readme, "| ");
    let code = ids(&source_text(), "DECISION (");
    let s = corpus();
    let mut cases: BTreeMap<String, usize> = BTreeMap::new();
    for (c, _) in &s.cases {
        if let Some(d) = &c.decision {
            *cases.entry(d.clone()).or_default() += 1;
        }
    }
    // Rule files back decisions with `decision D-...` clauses.
    for f in dioptra_oracle::script::rule_files(&root().join("corpus")) {
        let text = std::fs::read_to_string(&f).unwrap();
        for r in dioptra_oracle::rules::parse_rules("rules", &text).unwrap() {
            for d in r.decisions {
                *cases.entry(d).or_default() += 1;
            }
        }
    }
    let register: BTreeSet<_> = register
        .into_iter()
        .filter(|i| i.starts_with("D-"))
        .collect();
    assert_eq!(
        code.difference(&register).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "decisions in code but not in the README register"
    );
    assert_eq!(
        register.difference(&code).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "decisions in the README register but not marked in code"
    );
    let unbacked: Vec<_> = register
        .iter()
        .filter(|d| !cases.contains_key(*d))
        .collect();
    assert!(
        unbacked.is_empty(),
        "decisions without a corpus case: {unbacked:?}"
    );
    let unknown: Vec<_> = cases.keys().filter(|d| !register.contains(*d)).collect();
    assert!(
        unknown.is_empty(),
        "corpus cases name unknown decisions: {unknown:?}"
    );
    // No unlabelled decision marks.
    let bare = source_text().matches("DECISION:").count();
    assert_eq!(bare, 0, "every DECISION in code carries its register id");
}

#[test]
fn errata_register_and_corpus_agree() {
    let readme = std::fs::read_to_string(root().join("corpus/errata/README.md")).unwrap();
    let s = corpus();
    let tagged: BTreeSet<String> = s
        .cases
        .iter()
        .filter_map(|(c, _)| c.erratum.clone())
        .collect();
    let mut listed = BTreeSet::new();
    for line in readme.lines().filter(|l| l.starts_with("| E-")) {
        let id = ids(line, "| ").into_iter().next().unwrap();
        if line.contains(".dioptra") {
            assert!(
                tagged.contains(&id),
                "{id} names a corpus file but no case is tagged with it"
            );
        }
        listed.insert(id);
    }
    let unknown: Vec<_> = tagged.difference(&listed).collect();
    assert!(
        unknown.is_empty(),
        "corpus cases name errata not in the register: {unknown:?}"
    );
}
