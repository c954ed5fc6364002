//! The lowering law on the corpus: every expression of the corpus evaluated
//! in a context is lowered for both targets, and the DWARF, evaluated by
//! dioptra's DWARF evaluator in the same context and in variants of it
//! (other register and memory contents), gives the same location as the
//! reference (or fails where it fails, or is more defined: D-lower-refines).
//! Not-expressible lowerings for plain DWARF 5 are counted by reason.

use dioptra_oracle::script::{parse_script, script_files, Env};
use dioptra_semantics::context::Context;
use dioptra_semantics::dwarf::law::compare_many;
use dioptra_semantics::dwarf::lower::{lower, Target};
use dioptra_semantics::dwarf::Encoding;
use dioptra_semantics::text::parse_expr;
use std::collections::BTreeMap;
use std::path::Path;

#[test]
fn lowered_dwarf_describes_the_same_location_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let files = script_files(&root);
    for target in [Target::Amdgpu, Target::Dwarf5] {
        let (mut lowered, mut compared, mut same) = (0, 0, 0);
        let mut not_expressible: BTreeMap<String, usize> = BTreeMap::new();
        let mut other_failures = Vec::new();
        let mut differ = Vec::new();
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let script = parse_script(&f.display().to_string(), &text).unwrap();
            for case in script.cases {
                let Env::Ctx(ctx) = &case.env else { continue };
                if case.expect.is_module() {
                    continue;
                }
                let Ok(expr) = parse_expr(&case.expr) else {
                    continue;
                };
                if dioptra_semantics::wellformed::check(
                    &expr,
                    &dioptra_semantics::context::Context::signature(&**ctx),
                )
                .is_err()
                {
                    continue;
                }
                let l = match lower(&expr, &**ctx, target) {
                    Ok(l) => l,
                    Err(d) if d.reason == "not-expressible" => {
                        let why = d.message.split(':').next().unwrap_or("").to_string();
                        *not_expressible
                            .entry(format!("{}: {why}", d.construct))
                            .or_default() += 1;
                        continue;
                    }
                    Err(d) => {
                        other_failures
                            .push(format!("{}:{}: {}: {d}", case.file, case.line, case.expr));
                        continue;
                    }
                };
                lowered += 1;
                let t = compare_many(&expr, &l, ctx, Encoding::default(), 16, case.line as u64);
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
        }
        eprintln!(
            "{}: {lowered} lowered, {compared} comparisons ({same} same), {} differ; not expressible: {not_expressible:?}",
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
    }
}

/// The gimli differential: every plain-DWARF-5 lowering of the corpus,
/// evaluated by gimli and by dioptra's DWARF evaluator in the case's context
/// and 16 variants. gimli's documented limits are counted by kind;
/// every disagreement is listed.
#[test]
fn gimli_agrees_with_the_dwarf_evaluator_on_plain_dwarf5() {
    use dioptra_oracle::gimli_diff::{evaluate as gimli_eval, GimliResult};
    use dioptra_semantics::diag::Outcome;
    use dioptra_semantics::dwarf::eval::{evaluate, Env as DwarfEnv};
    use dioptra_semantics::dwarf::law::variants;
    use dioptra_semantics::location::same_location;
    use num_bigint::BigInt;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let files = script_files(&root);
    let (mut agree, mut both_fail) = (0, 0);
    let mut limits: BTreeMap<String, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    let mut float_causes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut float_cases = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let script = parse_script(&f.display().to_string(), &text).unwrap();
        for case in script.cases {
            let Env::Ctx(ctx) = &case.env else { continue };
            let Ok(expr) = parse_expr(&case.expr) else {
                continue;
            };
            let Ok(l) = lower(&expr, &**ctx, Target::Dwarf5) else {
                continue;
            };
            let mut ctxs = vec![(**ctx).clone()];
            ctxs.extend(variants(ctx, 16, case.line as u64));
            for c in &ctxs {
                let env = DwarfEnv {
                    ctx: c,
                    unit: &l.listing.unit,
                    enc: Encoding::default(),
                    entry: c.entry.as_deref().map(|e| e as &dyn Context),
                };
                let ours = evaluate(&l.listing.ops, env);
                let theirs = gimli_eval(&l.listing, c);
                let at = |l: &dioptra_semantics::location::LocDesc| {
                    l.offset_by(c, &BigInt::from(0)).ok()
                };
                match (&ours, &theirs) {
                    // gimli's documented limit: an empty expression (DWARF 5's
                    // "undefined") is a stack underflow there.
                    (_, _) if l.listing.ops.is_empty() => {
                        *limits
                            .entry("gimli: an empty expression is an error".into())
                            .or_default() += 1;
                    }
                    (_, GimliResult::Limit(why)) => {
                        let key: String = why.split(':').take(2).collect::<Vec<_>>().join(":");
                        *limits.entry(key).or_default() += 1;
                    }
                    (Err(d), _) if d.outcome == Outcome::Unsupported => {}
                    (Ok(a), GimliResult::Location(b))
                        if at(a).is_some() && same_location(a, b, l.offset + l.bits) =>
                    {
                        agree += 1
                    }
                    (Err(_), GimliResult::Error(_)) => both_fail += 1,
                    // Known, listed gimli differences, each recognised by
                    // its symptom, never by the listing alone.
                    _ => match float_cause(&ours, &theirs, c, &l) {
                        Some(cause) => {
                            *float_causes.entry(cause).or_default() += 1;
                            float_cases.push(format!("{}:{}", case.file, case.line));
                        }
                        None => disagreements.push(format!(
                            "{}:{}: {}\n    {}\n    dioptra: {}\n    gimli:   {:?}",
                            case.file,
                            case.line,
                            case.expr,
                            l.listing.print(Encoding::default()).replace('\n', "\n    "),
                            match &ours {
                                Ok(l) => l.to_string(),
                                Err(d) => d.to_string(),
                            },
                            theirs
                        )),
                    },
                }
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

/// The understood floating-point differences between gimli and dioptra,
/// recognised from the two results:
///
/// * gimli's `Value::convert` turns every integer into floating point through
///   `to_u64` and `u64 as f32`/`as f64`, so a negative signed value converts
///   as if it were unsigned (-3 becomes 1.8e19). DWARF 5 converts the value
///   of the base type; this is a gimli bug.
/// * gimli saturates floating point to integer (Rust's `as`) where dioptra
///   reports `out-of-range` (D-dwarf-convert).
/// * gimli's 0/0 is the machine's NaN (0xffc00000 on x86) where dioptra's is
///   0x7fc00000 (D-nan-canonical).
fn float_cause(
    ours: &Result<dioptra_semantics::location::LocDesc, dioptra_semantics::Diag>,
    theirs: &dioptra_oracle::gimli_diff::GimliResult,
    c: &dioptra_semantics::context::ConcreteContext,
    l: &dioptra_semantics::dwarf::lower::Lowered,
) -> Option<&'static str> {
    use dioptra_oracle::gimli_diff::GimliResult;
    use dioptra_semantics::location::read;
    let has = |enc| {
        l.listing
            .unit
            .base_types
            .values()
            .any(|b| b.encoding == enc)
    };
    if !has(gimli::DW_ATE_float) {
        return None;
    }
    let float_of = |loc| -> Option<f64> {
        let bits = read(c, loc, l.offset + l.bits).ok()?.low_u64() >> l.offset;
        match l.bits {
            32 => Some(f32::from_bits(bits as u32) as f64),
            64 => Some(f64::from_bits(bits)),
            _ => None,
        }
    };
    match (ours, theirs) {
        (Err(d), GimliResult::Location(_)) if d.reason == "out-of-range" => {
            Some("gimli saturates float to integer (D-dwarf-convert)")
        }
        (Ok(a), GimliResult::Location(b)) => {
            let (x, y) = (float_of(a)?, float_of(b)?);
            if x.is_nan() && y.is_nan() {
                Some("NaN sign (D-nan-canonical)")
            } else if x < 0.0 && y >= 9.2e18 && has(gimli::DW_ATE_signed) {
                Some("gimli converts signed integers to float as unsigned")
            } else {
                None
            }
        }
        _ => None,
    }
}
