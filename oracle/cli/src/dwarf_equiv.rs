//! `dioptra dwarf-equiv`: does some DWARF describe the same location as an expression?

use crate::common::*;
use dioptra_semantics::classic::any::parse_any;
use dioptra_semantics::context::Context as _;
use dioptra_semantics::diag::Diag;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

#[allow(clippy::too_many_arguments)]
pub fn cmd_dwarf_equiv(
    expr: &str,
    classic: &ClassicArgs,
    dwarf: &str,
    context: &Path,
    variants: usize,
    seed: u64,
    single_byte: bool,
    prove: Option<u32>,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::lower::compare::{described, dwarf_equiv, parse_dwarf};
    use dioptra_oracle::lower::prove::Proof;
    let enc = encoding(single_byte);
    let run = || -> Result<_, Diag> {
        let ctx = read_context(context)?;
        let e = parse_any(&expr_text(expr)?)?.to_diop(&ctx.signature(), &classic.params()?)?;
        let listing = parse_dwarf(&expr_text(dwarf)?, enc)?;
        let t = dwarf_equiv(&e, listing.clone(), &ctx, enc, variants, seed)?;
        let proof = match prove {
            Some(ms) => {
                let l = described(&e, &ctx, listing)?;
                let p = dioptra_oracle::lower::prove::prove(&e, &l, &ctx, enc, ms)?;
                Some((e, l, p))
            }
            None => None,
        };
        Ok((t, proof))
    };
    let (t, proof) = match run() {
        Ok(t) => t,
        Err(d) => return report(&d, json),
    };
    use dioptra_oracle::lower::compare::Verdict;
    let verdict = t.verdict();
    let mut code = match verdict {
        Verdict::Same => 0,
        Verdict::Differ | Verdict::DwarfError => 1,
        Verdict::Unknown => 3,
    };
    match proof.as_ref().map(|(_, _, p)| &p.proof) {
        Some(Proof::NotProven(_)) => code = 1,
        Some(Proof::Unknown(_)) if code == 0 => code = 3,
        _ => {}
    }
    let word = verdict.word();
    // What to show: the first different locations, the first DWARF
    // failure, or why nothing was compared.
    let shown = match verdict {
        Verdict::Differ => t.first_location_difference.as_ref(),
        Verdict::DwarfError => t.first_difference.as_ref(),
        _ => None,
    };
    let cex = shown.map(|(c, a)| (a.describe(), c.to_script("cex")));
    let why = match verdict {
        Verdict::Unknown => t.first_not_compared.as_ref().map(|d| d.to_string()),
        _ => None,
    };
    if json {
        outln!(
            "{}",
            json!({"outcome": word, "same": t.same, "both_fail": t.both_fail,
                "more_defined": t.more_defined, "differ": t.differ, "dwarf_errors": t.dwarf_errors,
                "not_compared": t.not_compared, "why": why,
                "proof": proof.as_ref().map(|(e, l, p)| json!({"verdict": p.proof.word(),
                    "solver_ms": p.solver_time.as_millis() as u64,
                    "unknown": match &p.proof { Proof::Unknown(r) => Some(r.clone()), _ => None },
                    "counterexample": p.proof.counterexample()
                        .map(|c| crate::lower::counterexample_cases(e, l, c, enc))})),
                "difference": cex.as_ref().map(|(d, _)| d), "counterexample": cex.as_ref().map(|(_, c)| c)})
        );
    } else {
        outln!("{word}");
        outln!(
            "{} (tested in {} contexts{})",
            t.summary(),
            t.compared() + t.not_compared,
            if proof.is_some() { "" } else { ", not proved" }
        );
        if let Some(w) = &why {
            outln!("nothing compared: {w}");
        }
        if let Some((d, c)) = cex {
            outln!("{d}\n{c}");
        }
        if let Some((e, l, p)) = &proof {
            crate::lower::print_proof(e, l, p, enc);
        }
    }
    ExitCode::from(code)
}
