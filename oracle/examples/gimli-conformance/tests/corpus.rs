//! The conformance corpus against gimli, through dioptra's public API: the
//! test another project would write for its own DWARF evaluator.

use dioptra_example_gimli::Gimli;
use dioptra_oracle::script::api::{run_corpus, Question, Verdict};
use std::path::PathBuf;

/// Where gimli 0.34 differs from DWARF 5 on the corpus (the README's gimli
/// table). Each must still fail, so the list cannot go stale.
const KNOWN: &[(&str, u32, &str)] = &[
    (
        "corpus/ops/convert.dioptra",
        14,
        "gimli converts a negative signed integer to float as if it were unsigned",
    ),
    (
        "corpus/lowering/dwarf-equiv.dioptra",
        190,
        "gimli converts a negative signed integer to float as if it were unsigned",
    ),
    (
        "corpus/ops/convert.dioptra",
        53,
        "gimli keeps a NaN's payload through a conversion (0xff800001 to 0xfff8000020000000, as APFloat and the x86 FPU do); DWARF's result here is the canonical quiet NaN (D-nan-canonical)",
    ),
    (
        "corpus/ops/div.dioptra",
        23,
        "gimli's 0/0 is the machine's NaN (0xffc00000); DWARF's result here is the canonical quiet NaN (D-nan-canonical)",
    ),
];

#[test]
fn gimli_reads_the_plain_dwarf5_part_of_the_corpus() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../corpus");
    let report = run_corpus(&[corpus], &mut Gimli);
    eprintln!("gimli on the corpus: {report}");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let known = |file: &str, line: u32| {
        KNOWN
            .iter()
            .find(|(f, l, _)| file.ends_with(f) && line == *l)
    };
    let mut unexplained = Vec::new();
    let mut seen = Vec::new();
    for r in &report.results {
        // gimli evaluates DWARF only: it is asked nothing else.
        assert_eq!(r.question, Question::EvalDwarf, "{}:{}", r.file, r.line);
        if let Verdict::Fail(why) = &r.verdict {
            match known(&r.file, r.line) {
                Some(k) => seen.push(k),
                None => unexplained.push(format!("{}:{}: {why}\n    {}", r.file, r.line, r.expr)),
            }
        }
    }
    assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
    for k in KNOWN {
        assert!(
            seen.contains(&k),
            "a known gimli difference no longer shows: {k:?}"
        );
    }
    // Not vacuous: most of the plain DWARF 5 cases are compared (the others
    // need what gimli does not do: 2-byte floats, values wider than 8
    // bytes, address spaces, implicit pointers).
    assert!(report.passed() >= 200, "only {} passed", report.passed());
    assert!(report.skipped() * 2 < report.asked(Question::EvalDwarf));
}
