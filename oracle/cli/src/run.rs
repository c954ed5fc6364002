//! `dioptra run`: conformance scripts against the reference or an external implementation.

use dioptra_oracle::script::{run_files, External, Reference, Responder};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

pub fn cmd_run(
    paths: &[PathBuf],
    imp: Option<String>,
    timeout: u64,
    verbose: bool,
    json: bool,
) -> ExitCode {
    let mut external;
    let mut reference = Reference;
    let responder: &mut dyn Responder = match &imp {
        Some(cmd) => match External::start(cmd, Duration::from_secs(timeout)) {
            Ok(e) => {
                external = e;
                &mut external
            }
            Err(m) => {
                errln!("{m}");
                return ExitCode::from(2);
            }
        },
        None => &mut reference,
    };
    let s = run_files(paths, responder);
    if json {
        outln!(
            "{}",
            json!({"scripts": s.scripts, "passed": s.passed, "failed": s.failed, "failures": s.failures,
                "rules": s.rules, "rules_skipped": s.rules_skipped, "in_process_skipped": s.in_process_skipped})
        );
    } else {
        if verbose {
            for (c, o) in &s.cases {
                outln!("{}:{}: {:?}", c.file, c.line, o);
            }
        }
        for f in &s.failures {
            outln!("FAIL {f}");
        }
        outln!("{} scripts", s.scripts);
        if s.rules > 0 {
            outln!("{} of the cases are rewrite rules (corpus/rules)", s.rules);
        }
        if s.rules_skipped > 0 {
            outln!(
                "{} rewrite rules not checked: only the reference checks rules",
                s.rules_skipped
            );
        }
        if s.in_process_skipped > 0 {
            outln!(
                "{} DWARF, multi-location and join cases not checked: only the reference checks them",
                s.in_process_skipped
            );
        }
        outln!("{} passed, {} failed", s.passed, s.failed);
    }
    if s.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
