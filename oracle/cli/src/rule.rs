//! `dioptra rule`: rewrite rules checked for every instantiation.

use crate::common::*;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn cmd_rule(
    files: &[PathBuf],
    verbose: bool,
    timeout_ms: u32,
    threads: usize,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::rules::{check_rule, parse_rules};
    let mut reports = Vec::new();
    for f in files {
        let rules =
            read_text(f, "Rule").and_then(|text| parse_rules(&f.display().to_string(), &text));
        let rules = match rules {
            Ok(r) => r,
            Err(d) => return report(&d, json),
        };
        for r in &rules {
            match check_rule(r, timeout_ms, threads) {
                Ok(rep) => {
                    if !json {
                        outln!(
                            "{:<8} {}  ({} of {} instances apply, {:.1} s)",
                            rep.verdict,
                            rep.name,
                            rep.applicable,
                            rep.instances,
                            rep.time.as_secs_f64()
                        );
                        if let Some(d) = &rep.detail {
                            if verbose {
                                for l in d.lines() {
                                    outln!("    {l}");
                                }
                                if rep.verdict == "invalid" && !r.explain.is_empty() {
                                    outln!("    why: {}", r.explain);
                                }
                            } else {
                                outln!("    {}", d.lines().next().unwrap_or(""));
                            }
                        }
                    }
                    reports.push(rep);
                }
                Err(d) => return report(&d, json),
            }
        }
    }
    if json {
        let rules: Vec<_> = reports
            .iter()
            .map(|r| {
                json!({"rule": r.name, "verdict": r.verdict, "instances": r.instances,
                    "applicable": r.applicable, "detail": r.detail, "explain": r.explain,
                    "witnesses": r.witnessed, "seconds": r.time.as_secs_f64()})
            })
            .collect();
        outln!("{}", json!({ "rules": rules }));
    }
    let code = if reports.iter().any(|r| r.verdict == "invalid") {
        1
    } else if reports.iter().any(|r| r.verdict == "unknown") {
        3
    } else {
        0
    };
    ExitCode::from(code)
}
