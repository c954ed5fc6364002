//! `dioptra ir FILE.ll`: every debug record of a real LLVM IR module,
//! each with a verdict (its expression well-formed over its operands' IR
//! types and for its variable's type), and a count per reason.
//!
//! DECISION (D-ir-exit): exit 0 when every record is well-formed; 1 when
//! some record is ill-formed or its expression malformed (the module is
//! what is checked); 3 when the only refusals are `unsupported` (dioptra
//! could not check those records: not a pass); 2 when the file is not a
//! module dioptra can read. A module with no debug record exits 0 and says
//! so in its first line: it was read, and there was nothing to check.

use crate::common::*;
use dioptra_oracle::ir::dbg::{check_records, record_counts, summary, Verdict};
use dioptra_oracle::ir::listing::{to_listing, Dialect};
use dioptra_oracle::ir::{parse, Module};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::lifetime::parse_module;
use dioptra_semantics::lifetime::wellformed::check_module;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// The lifetime rules over a module of `llvm.dbg.def`/`kill`: the
/// diagnostics, each with the line it names (if any).
fn lifetime_diags(m: &Module) -> Result<Vec<Diag>, Diag> {
    let l = to_listing(m)?;
    if l.dialect != Dialect::Lifetimes {
        return Ok(Vec::new());
    }
    Ok(check_module(&parse_module(&l.text)?))
}

fn line_of(d: &Diag) -> Option<u32> {
    let r = d.message.strip_prefix("line ")?;
    r.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

fn verdict_json(v: &Verdict) -> serde_json::Value {
    json!({
        "function": v.function, "line": v.line, "column": v.col,
        "record": v.kind.name(), "variable": v.variable, "variable_bits": v.variable_bits,
        "source_line": v.source_line, "expression": v.expr, "killed": v.killed,
        "verdict": v.word(),
        "diagnostic": v.diag.as_ref().map(|d| json!({"construct": d.construct, "reason": d.reason, "message": d.message})),
    })
}

/// A record's verdict on one line: a refusal as a diagnostic
/// (`Construct: reason: line N: ...`), as every command prints them.
fn verdict_line(v: &Verdict) -> String {
    let var = v.variable.as_deref().unwrap_or("?");
    let declared = v
        .source_line
        .map(|l| format!(" (declared line {l})"))
        .unwrap_or_default();
    let killed = if v.killed { ", killed" } else { "" };
    let place = if v.kind == dioptra_oracle::ir::RecordKind::GlobalExpression {
        if v.function.is_empty() {
            "a compile unit's globals".to_string()
        } else {
            v.function.clone()
        }
    } else {
        v.function.clone()
    };
    let what = format!("{} {var}{declared} in {place}", v.kind.name());
    match &v.diag {
        None => format!("line {}: {what}: well-formed{killed}", v.line),
        Some(d) => format!(
            "{}: {}: line {}: {what}{killed}: {}",
            d.construct, d.reason, v.line, d.message
        ),
    }
}

pub fn cmd_ir(file: &Path, all: bool, json_out: bool) -> ExitCode {
    let m = match read_text(file, "Module").and_then(|t| parse(&t)) {
        Ok(m) => m,
        Err(d) => return report(&d, json_out),
    };
    let verdicts = match check_records(&m) {
        Ok(v) => v,
        Err(d) => return report(&d, json_out),
    };
    let lifetime = match lifetime_diags(&m) {
        Ok(d) => d,
        Err(d) => return report(&d, json_out),
    };
    let mut counts = record_counts(&m);
    let globals = verdicts
        .iter()
        .filter(|v| v.kind == dioptra_oracle::ir::RecordKind::GlobalExpression)
        .count();
    if globals > 0 {
        counts.insert("global_expression", globals);
    }
    let total: usize = counts.values().sum();
    let mut sum = summary(&verdicts);
    // def/kill records: their verdict is the lifetime rules' on their line.
    for (_, inst, r) in m.records() {
        use dioptra_oracle::ir::RecordKind::{Def, Kill};
        if matches!(r.kind, Def | Kill) {
            let hit = lifetime.iter().find(|d| line_of(d) == Some(inst.line));
            let key = match hit {
                None => "well-formed".to_string(),
                Some(d) => format!("{} {}: {}", d.outcome.word(), d.construct, d.reason),
            };
            *sum.entry(key).or_default() += 1;
        }
    }
    let refused = |o: Outcome| {
        dioptra_oracle::ir::dbg::any(&verdicts, o) || lifetime.iter().any(|d| d.outcome == o)
    };
    let outcome = if refused(Outcome::IllFormed)
        || refused(Outcome::Malformed)
        || refused(Outcome::EvalError)
    {
        "ill-formed"
    } else if refused(Outcome::Unsupported) {
        "unsupported"
    } else {
        "well-formed"
    };
    let functions = m.functions.len();
    if json_out {
        outln!(
            "{}",
            json!({
                "outcome": outcome,
                "functions": functions,
                "records": counts,
                "metadata_nodes": m.metadata.len(),
                "summary": sum,
                "verdicts": verdicts.iter().map(verdict_json).collect::<Vec<_>>(),
                "lifetime_diagnostics": lifetime.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            })
        );
    } else {
        outln!("{outcome}");
        let kinds: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        outln!(
            "{}: {functions} functions, {total} debug records{}, {} metadata nodes",
            file.display(),
            if kinds.is_empty() {
                String::new()
            } else {
                format!(" ({})", kinds.join(", "))
            },
            m.metadata.len()
        );
        for v in &verdicts {
            if all || v.diag.is_some() {
                outln!("{}", verdict_line(v));
            }
        }
        for d in &lifetime {
            outln!("lifetime rules: {d}");
        }
        for (k, n) in &sum {
            outln!("  {n:>6}  {k}");
        }
    }
    match outcome {
        "well-formed" => ExitCode::SUCCESS,
        "unsupported" => ExitCode::from(3),
        _ => ExitCode::from(1),
    }
}
