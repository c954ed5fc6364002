//! The lowering law on the corpus: every expression of the corpus evaluated
//! in a context is lowered for both targets, and the DWARF, evaluated by
//! dioptra's DWARF evaluator in the same context and in variants of it
//! (other register and memory contents), gives the same location as the
//! reference (or fails where it fails, or is more defined: D-lower-refines).
//! Not-expressible lowerings for plain DWARF 5 are counted by reason.

use dioptra_oracle::lower::compare::{Contexts, References};
use dioptra_oracle::lower::{lower, Target};
use dioptra_oracle::script::expressions_in_contexts;
use dioptra_semantics::dwarf::Encoding;
use std::collections::BTreeMap;
use std::path::Path;

#[test]
fn lowered_dwarf_describes_the_same_location_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let cases = expressions_in_contexts(&root).unwrap();
    for target in [Target::Amdgpu, Target::Dwarf5] {
        let (mut lowered, mut compared, mut same, mut reference_fails) = (0, 0, 0, 0);
        let mut not_expressible: BTreeMap<String, usize> = BTreeMap::new();
        let mut other_failures = Vec::new();
        let mut differ = Vec::new();
        for c in &cases {
            let (case, expr, ctx) = (&c.case, &c.expr, &c.context);
            if dioptra_semantics::wellformed::check(
                expr,
                &dioptra_semantics::context::Context::signature(ctx),
            )
            .is_err()
            {
                continue;
            }
            let l = match lower(expr, ctx, target) {
                Ok(l) => l,
                Err(d) if d.reason == "not-expressible" => {
                    let why = d.message.split(':').next().unwrap_or("").to_string();
                    *not_expressible
                        .entry(format!("{}: {why}", d.construct))
                        .or_default() += 1;
                    continue;
                }
                Err(d) => {
                    other_failures.push(format!("{}:{}: {}: {d}", case.file, case.line, case.expr));
                    continue;
                }
            };
            lowered += 1;
            let contexts = Contexts::new(ctx, 16, case.line as u64);
            let references = References::new(expr, &contexts);
            let t = references.compare(&l, Encoding::default());
            // The law's comparison, which does not evaluate the DWARF where
            // the reference fails, counts what the full one counts, those
            // contexts aside.
            let w = references.compare_where_defined(&l, Encoding::default());
            let at = format!("{}:{}: {}", case.file, case.line, case.expr);
            assert_eq!(
                (w.same, w.differ, w.dwarf_errors),
                (t.same, t.differ, t.dwarf_errors),
                "{at}"
            );
            assert_eq!(w.both_fail, 0, "{at}");
            assert_eq!(
                w.reference_fails + w.more_defined,
                t.both_fail + t.more_defined,
                "{at}"
            );
            assert_eq!(
                (w.compared(), w.not_compared),
                (t.compared(), t.not_compared),
                "{at}"
            );
            reference_fails += w.reference_fails;
            compared += t.compared();
            same += t.same;
            if t.differ > 0 {
                let (c, a) = t.first_difference.unwrap();
                differ.push(format!(
                    "{}:{}: {}\n    DWARF: {}\n    {}\n{}",
                    case.file,
                    case.line,
                    case.expr,
                    l.listing
                        .print(Encoding::default())
                        .replace('\n', "\n           "),
                    a.describe(),
                    c.to_script("cex")
                ));
            }
        }
        eprintln!(
            "{}: {lowered} lowered, {compared} comparisons ({same} same, {reference_fails} where the reference fails), {} differ; not expressible: {not_expressible:?}",
            target.name(),
            differ.len()
        );
        assert!(other_failures.is_empty(), "{}", other_failures.join("\n"));
        assert!(
            differ.is_empty(),
            "{} cases differ:\n{}",
            differ.len(),
            differ.join("\n")
        );
        assert!(lowered >= 200, "only {lowered} corpus cases were lowered");
        assert!(
            reference_fails > 0,
            "no corpus context where the reference fails: the law's shortcut is not exercised"
        );
    }
}

/// The gimli differential: every plain-DWARF-5 lowering of the corpus,
/// evaluated by gimli and by dioptra's DWARF evaluator in the case's context
/// and 16 variants. gimli's documented limits are counted by kind;
/// every disagreement is listed.
#[test]
fn gimli_agrees_with_the_dwarf_evaluator_on_plain_dwarf5() {
    use dioptra_oracle::diff::gimli::{differential, Differential};
    use dioptra_oracle::lower::compare::variants;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let cases = expressions_in_contexts(&root).unwrap();
    let (mut agree, mut both_fail) = (0, 0);
    let mut limits: BTreeMap<String, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    let mut float_causes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut float_cases = Vec::new();
    for c in &cases {
        let (case, expr, ctx) = (&c.case, &c.expr, &c.context);
        let Ok(l) = lower(expr, ctx, Target::Dwarf5) else {
            continue;
        };
        let mut ctxs = vec![ctx.clone()];
        ctxs.extend(variants(ctx, 16, case.line as u64));
        for c in &ctxs {
            match differential(&l, c) {
                Differential::Agree => agree += 1,
                Differential::BothFail => both_fail += 1,
                Differential::Limit(why) => *limits.entry(why).or_default() += 1,
                Differential::Unsupported => {}
                Differential::Known(cause) => {
                    *float_causes.entry(cause).or_default() += 1;
                    float_cases.push(format!("{}:{}", case.file, case.line));
                }
                Differential::Disagree { dioptra, gimli } => disagreements.push(format!(
                    "{}:{}: {}\n    {}\n    dioptra: {dioptra}\n    gimli:   {gimli}",
                    case.file,
                    case.line,
                    case.expr,
                    l.listing.print(Encoding::default()).replace('\n', "\n    "),
                )),
            }
        }
    }
    float_cases.dedup();
    eprintln!(
        "gimli differential: {agree} agree, {both_fail} both fail, {} unexplained; known gimli differences {float_causes:?} in {float_cases:?}; gimli limits: {limits:?}",
        disagreements.len(),
    );
    for d in &disagreements {
        eprintln!("{d}");
    }
    assert!(agree >= 1000, "only {agree} agreements");
    assert!(
        disagreements.is_empty(),
        "{} disagreements",
        disagreements.len()
    );
}

/// `lower --prove` on the corpus: the lowering of every corpus expression
/// evaluated in a context, for both targets, is proven (or refines, by
/// D-lower-refines) for every context with its inputs' places. A
/// counterexample fails the test with the corpus cases that show it; what
/// the solver leaves unknown or the encoding does not model is counted and
/// printed, never passed.
#[test]
fn lowered_dwarf_is_proven_on_the_corpus() {
    use dioptra_oracle::lower::prove::{prove, Proof};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let cases = expressions_in_contexts(&root).unwrap();
    for target in [Target::Amdgpu, Target::Dwarf5] {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let mut unproven = Vec::new();
        for c in &cases {
            let (case, expr, ctx) = (&c.case, &c.expr, &c.context);
            let Ok(l) = lower(expr, ctx, target) else {
                continue;
            };
            let word = match prove(expr, &l, ctx, Encoding::default(), 5_000) {
                Ok(p) => {
                    if let Proof::NotProven(cex) = &p.proof {
                        unproven.push(format!(
                            "{}:{}: {}\n    DWARF: {}\n    {}\n{}",
                            case.file,
                            case.line,
                            case.expr,
                            l.listing.print(Encoding::default()),
                            cex.agreement.describe(),
                            cex.context.to_script("cex")
                        ));
                    }
                    if let Proof::Unknown(r) = &p.proof {
                        eprintln!("unknown: {}:{}: {}: {r}", case.file, case.line, case.expr);
                    }
                    p.proof.word().to_string()
                }
                Err(d) => {
                    eprintln!(
                        "not encoded: {}:{}: {}: {d}",
                        case.file, case.line, case.expr
                    );
                    format!("not encoded ({})", d.reason)
                }
            };
            *counts.entry(word).or_default() += 1;
        }
        eprintln!("{}: {counts:?}", target.name());
        assert!(
            unproven.is_empty(),
            "{} lowerings are not proven:\n{}",
            unproven.len(),
            unproven.join("\n")
        );
        assert!(
            counts.get("proven").copied().unwrap_or(0) >= 150,
            "only {counts:?}"
        );
    }
}
