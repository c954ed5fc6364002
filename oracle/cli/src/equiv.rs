//! `dioptra equiv`: do two expressions describe the same location in every context?

use crate::common::*;
use dioptra_oracle::equiv::classic::prove_any;
use dioptra_semantics::classic::any::parse_any;
use dioptra_semantics::context::Signature;
use dioptra_semantics::diag::Diag;
use serde_json::json;
use std::process::ExitCode;

pub fn cmd_equiv(
    source: &str,
    target: &str,
    sig: Result<Signature, Diag>,
    classic: &ClassicArgs,
    refines: bool,
    timeout_ms: u32,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::equiv::{counterexample_script, Verdict};
    let run = || -> Result<_, Diag> {
        let sig = sig?;
        let p = classic.params()?;
        let (st, tt) = (expr_text(source)?, expr_text(target)?);
        let (s, t) = (parse_any(&st)?, parse_any(&tt)?);
        Ok((prove_any(&s, &t, &sig, &p, timeout_ms)?, st, tt))
    };
    let (proved, st, tt) = match run() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    let v = &proved.verdict;
    let (detail, cex) = match v {
        Verdict::Equivalent => (String::new(), None),
        Verdict::Refines(c) => (
            "the target refines the source: it is undefined in some contexts where the source is defined, never a different location".to_string(),
            Some(counterexample_script(c, &st, &tt)),
        ),
        Verdict::NotEquivalent(c) => (String::new(), Some(counterexample_script(c, &st, &tt))),
        Verdict::Different(why) | Verdict::Unknown(why) => (why.clone(), None),
    };
    let code = match v {
        Verdict::Equivalent => 0,
        Verdict::Refines(_) if refines => 0,
        Verdict::Unknown(_) => 3,
        _ => 1,
    };
    if json {
        outln!(
            "{}",
            json!({"outcome": v.word(), "detail": detail, "counterexample": cex,
                "solver_ms": proved.solver_time.as_secs_f64() * 1e3})
        );
    } else {
        outln!("{}", v.word());
        if !detail.is_empty() {
            outln!("{detail}");
        }
        if let Some(c) = cex {
            outln!("counterexample (confirmed by the interpreter):\n{c}");
        }
    }
    ExitCode::from(code)
}
