//! `dioptra check`: well-formedness of one expression.

use crate::common::*;
use dioptra_semantics::classic::any::{parse_any, AnyExpr};
use dioptra_semantics::context::Signature;
use dioptra_semantics::diag::Diag;
use serde_json::json;
use std::process::ExitCode;

pub fn cmd_check(
    expr: &str,
    sig: Result<Signature, Diag>,
    classic: &ClassicArgs,
    to_classic: bool,
    json: bool,
) -> ExitCode {
    let run = || -> Result<_, Diag> {
        let sig = sig?;
        let p = classic.params()?;
        let e = parse_any(&expr_text(expr)?)?;
        let (ty, fragment) = e.check(&sig, &p)?;
        // A classic expression also shows its DIOp translation, a DIOp one
        // asked for it its classic form (or why there is none).
        let translation = match &e {
            AnyExpr::Classic(_) => Some(e.to_diop(&sig, &p).map(|d| d.to_string())),
            AnyExpr::Diop(d) if to_classic => Some(
                dioptra_semantics::classic::reverse::reverse(d, &sig).map(|(c, _)| c.to_string()),
            ),
            AnyExpr::Diop(_) => None,
        };
        Ok((ty, fragment, translation, sig))
    };
    match run() {
        Ok((ty, fragment, translation, sig)) => {
            if json {
                outln!(
                    "{}",
                    json!({"outcome": "well-formed", "type": ty.to_string(),
                    "bits": sig.layout.bitsizeof(&ty),
                    "fragment": fragment.map(|(o, s)| json!({"offset": o, "size": s})),
                    "translation": translation.as_ref().map(|t| match t {
                        Ok(d) if d.starts_with("!DIExpression") => json!({"classic": d}),
                        Ok(d) => json!({"diop": d}),
                        Err(d) => json!({"diagnostic": d.to_string()}),
                    })})
                );
            } else {
                match fragment {
                    Some((o, s)) => outln!("{ty} (fragment: bits {o}..{})", o + s),
                    None => outln!("{ty}"),
                }
                match translation {
                    Some(Ok(d)) => outln!("translation: {d}"),
                    Some(Err(d)) => outln!("translation: none: {d}"),
                    None => {}
                }
            }
            ExitCode::SUCCESS
        }
        Err(d) => report(&d, json),
    }
}
