//! `dioptra canon`: the canonical form of an expression.

use crate::common::*;
use dioptra_semantics::classic::any::parse_any;
use dioptra_semantics::context::Signature;
use dioptra_semantics::diag::Diag;
use serde_json::json;
use std::process::ExitCode;

pub fn cmd_canon(
    expr: &str,
    sig: Result<Signature, Diag>,
    classic: &ClassicArgs,
    verbose: bool,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::canon::canonicalize;
    let run = || -> Result<_, Diag> {
        let sig = sig?;
        let e = parse_any(&expr_text(expr)?)?.to_diop(&sig, &classic.params()?)?;
        canonicalize(&e, &sig).map(|(c, steps)| (c.into_owned(), steps))
    };
    match run() {
        Ok((c, steps)) => {
            if json {
                let steps: Vec<_> = steps
                    .iter()
                    .map(|s| json!({"rule": s.rule, "at": s.at}))
                    .collect();
                outln!(
                    "{}",
                    json!({"outcome": "ok", "canonical": c.to_string(), "steps": steps})
                );
            } else {
                if verbose {
                    for s in &steps {
                        outln!("{} at op {}", s.rule, s.at);
                    }
                }
                outln!("{c}");
            }
            ExitCode::SUCCESS
        }
        Err(d) => report(&d, json),
    }
}
