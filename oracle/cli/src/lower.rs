//! `dioptra lower`: the DWARF of an expression, and the lowering law in a context.

use crate::common::*;
use dioptra_semantics::classic::any::parse_any;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::context::Context as _;
use dioptra_semantics::diag::Diag;
use dioptra_semantics::dwarf::encode;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

#[allow(clippy::too_many_arguments)]
pub fn cmd_lower(
    expr: &str,
    classic: &ClassicArgs,
    context: Option<&Path>,
    target: &str,
    hex: bool,
    single_byte: bool,
    variants: usize,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::lower::compare::compare_many;
    use dioptra_oracle::lower::{lower, Target};
    let enc = encoding(single_byte);
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
        let tally = ctx.map(|c| compare_many(&e, &l, &c, enc, variants, 1));
        Ok((l, bytes, tally))
    };
    let (l, bytes, tally) = match run() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    let hex_text = bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ");
    let differ = tally.as_ref().is_some_and(|t| t.differ > 0);
    if json {
        outln!(
            "{}",
            json!({"outcome": "ok", "listing": l.listing.print(enc), "hex": hex_text,
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
                eprintln!(
                    "law: NOT CHECKED: {}{}",
                    t.summary(),
                    t.first_not_compared
                        .as_ref()
                        .map(|d| format!(" (first: {d})"))
                        .unwrap_or_default()
                );
            } else {
                eprintln!("law: {}", t.summary());
            }
            if let Some((c, a)) = &t.first_difference {
                eprintln!("{}\n{}", a.describe(), c.to_script("cex"));
            }
        }
    }
    // A law that compared nothing was not checked: exit 3, never a pass.
    let unchecked = tally.as_ref().is_some_and(|t| t.compared() == 0);
    ExitCode::from(if differ {
        1
    } else if unchecked {
        3
    } else {
        0
    })
}
