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
    json: bool,
) -> ExitCode {
    use dioptra_oracle::lower::compare::{dwarf_equiv, parse_dwarf};
    let enc = encoding(single_byte);
    let run = || -> Result<_, Diag> {
        let ctx = read_context(context)?;
        let e = parse_any(&expr_text(expr)?)?.to_diop(&ctx.signature(), &classic.params()?)?;
        let listing = parse_dwarf(&expr_text(dwarf)?, enc)?;
        dwarf_equiv(&e, listing, &ctx, enc, variants, seed)
    };
    let t = match run() {
        Ok(t) => t,
        Err(d) => return report(&d, json),
    };
    use dioptra_oracle::lower::compare::Verdict;
    let verdict = t.verdict();
    let code = match verdict {
        Verdict::Same => 0,
        Verdict::Differ | Verdict::DwarfError => 1,
        Verdict::Unknown => 3,
    };
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
                "difference": cex.as_ref().map(|(d, _)| d), "counterexample": cex.as_ref().map(|(_, c)| c)})
        );
    } else {
        outln!("{word}");
        outln!(
            "{} (tested in {} contexts, not proved)",
            t.summary(),
            t.compared() + t.not_compared
        );
        if let Some(w) = &why {
            outln!("nothing compared: {w}");
        }
        if let Some((d, c)) = cex {
            outln!("{d}\n{c}");
        }
    }
    ExitCode::from(code)
}
