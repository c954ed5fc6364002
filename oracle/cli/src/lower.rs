//! `dioptra lower`: the DWARF of an expression, and the lowering law in a context.

use crate::common::*;
use dioptra_oracle::lower::prove::{Counterexample, Proof, Proved};
use dioptra_oracle::lower::Lowered;
use dioptra_semantics::classic::any::parse_any;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::context::Context as _;
use dioptra_semantics::diag::Diag;
use dioptra_semantics::dwarf::encode;
use dioptra_semantics::dwarf::Encoding;
use dioptra_semantics::syntax::Expr;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// How `dioptra lower` lowers and what it checks.
pub struct LowerOpts {
    pub target: String,
    pub hex: bool,
    pub single_byte: bool,
    /// Context variants the law is tested in.
    pub variants: usize,
    /// Prove the lowering, with this time limit per query (ms).
    pub prove: Option<u32>,
    pub json: bool,
}

pub fn cmd_lower(
    expr: &str,
    classic: &ClassicArgs,
    context: Option<&Path>,
    o: &LowerOpts,
) -> ExitCode {
    use dioptra_oracle::lower::compare::compare_many;
    use dioptra_oracle::lower::prove::prove;
    use dioptra_oracle::lower::{lower, Target};
    let (target, hex, json, variants) = (o.target.as_str(), o.hex, o.json, o.variants);
    let enc = encoding(o.single_byte);
    let run = || -> Result<_, Diag> {
        let target = Target::parse(target).ok_or_else(|| {
            Diag::malformed(
                "Lower",
                "bad-target",
                format!("`{target}`: amdgpu or dwarf5"),
            )
        })?;
        let ctx = match context {
            Some(p) => Some(read_context(p)?),
            None => None,
        };
        let empty = ConcreteContext::default();
        let c = ctx.as_ref().unwrap_or(&empty);
        let e = parse_any(&expr_text(expr)?)?.to_diop(&c.signature(), &classic.params()?)?;
        let l = lower(&e, c, target)?;
        let bytes = encode(&l.listing.ops, enc)?;
        let tally = ctx
            .as_ref()
            .map(|c| compare_many(&e, &l, c, enc, variants, 1));
        let proof = match o.prove {
            Some(ms) => Some(prove(&e, &l, c, enc, ms)?),
            None => None,
        };
        Ok((e, l, bytes, tally, proof))
    };
    let (e, l, bytes, tally, proof) = match run() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    let hex_text = bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ");
    let differ = tally.as_ref().is_some_and(|t| t.differ > 0);
    let proof_json = proof.as_ref().map(|p| {
        json!({"verdict": p.proof.word(), "solver_ms": p.solver_time.as_millis() as u64,
            "unknown": match &p.proof { Proof::Unknown(r) => Some(r.clone()), _ => None },
            "counterexample": p.proof.counterexample().map(|c| counterexample_cases(&e, &l, c, enc))})
    });
    if json {
        outln!(
            "{}",
            json!({"outcome": "ok", "listing": l.listing.print(enc), "hex": hex_text, "proof": proof_json,
                "dies": l.listing.unit.lines(enc), "offset": l.offset, "bits": l.bits,
                "law": tally.as_ref().map(|t| json!({"same": t.same, "both_fail": t.both_fail,
                    "more_defined": t.more_defined, "differ": t.differ, "not_compared": t.not_compared,
                    "checked": t.compared() > 0,
                    "first_not_compared": t.first_not_compared.as_ref().map(|d| d.to_string())}))})
        );
    } else {
        if hex {
            outln!("{hex_text}");
            for line in l.listing.unit.lines(enc) {
                outln!("{line}");
            }
        } else {
            outln!("{}", l.listing.print(enc));
        }
        if let Some(t) = &tally {
            if t.compared() == 0 {
                errln!(
                    "law: NOT CHECKED: {}{}",
                    t.summary(),
                    t.first_not_compared
                        .as_ref()
                        .map(|d| format!(" (first: {d})"))
                        .unwrap_or_default()
                );
            } else {
                errln!("law: {}", t.summary());
            }
            if let Some((c, a)) = &t.first_difference {
                errln!("{}\n{}", a.describe(), c.to_script("cex"));
            }
        }
        if let Some(p) = &proof {
            print_proof(&e, &l, p, enc);
        }
    }
    // A law that compared nothing was not checked: exit 3, never a pass.
    let unchecked = tally.as_ref().is_some_and(|t| t.compared() == 0);
    let not_proven = proof
        .as_ref()
        .is_some_and(|p| matches!(p.proof, Proof::NotProven(_)));
    let unknown = proof
        .as_ref()
        .is_some_and(|p| matches!(p.proof, Proof::Unknown(_)));
    ExitCode::from(if differ || not_proven {
        1
    } else if unchecked || unknown {
        3
    } else {
        0
    })
}

/// Prints a proof's verdict (stdout) and, for a counterexample, the corpus
/// cases that pin it down.
pub fn print_proof(e: &Expr, l: &Lowered, p: &Proved, enc: Encoding) {
    let ms = p.solver_time.as_millis();
    match &p.proof {
        Proof::Proven => outln!("proof: proven (solver {ms} ms)"),
        Proof::Unknown(r) => outln!("proof: unknown: {r} (solver {ms} ms)"),
        Proof::Refines(c) | Proof::NotProven(c) => {
            outln!(
                "proof: {} (solver {ms} ms): {}",
                p.proof.word(),
                c.agreement.describe()
            );
            outln!("{}", counterexample_cases(e, l, c, enc));
        }
    }
}

/// The corpus cases of a lowering counterexample: its context and the
/// DWARF compared with the expression there.
pub fn counterexample_cases(e: &Expr, l: &Lowered, c: &Counterexample, enc: Encoding) -> String {
    let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let verdict = if c.agreement.holds() {
        "same"
    } else {
        "differ"
    };
    format!(
        "{}\n(assert_dwarf_equiv \"{}\" (in cex) (dwarf \"{}\") (verdict \"{verdict}\"))",
        c.context.to_script("cex"),
        quote(&e.to_string()),
        quote(&l.listing.print(enc))
    )
}
