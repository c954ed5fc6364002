//! `dioptra eval`: an expression evaluated in a context.

use crate::common::*;
use dioptra_oracle::render::value_text;
use dioptra_semantics::classic::any::parse_any;
use dioptra_semantics::diag::Diag;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

pub fn cmd_eval(expr: &str, context: &Path, classic: &ClassicArgs, json: bool) -> ExitCode {
    let run = || -> Result<_, Diag> {
        let ctx = read_context(context)?;
        let e = parse_any(&expr_text(expr)?)?;
        let r = e.eval(&ctx, &classic.params()?)?;
        Ok((r, ctx))
    };
    match run() {
        Ok((r, ctx)) => {
            let value = r.value(&ctx);
            if json {
                let v = match &value {
                    Ok(b) => {
                        json!({"readable": true, "hex": format!("0x{}", b.hex()), "text": value_text(&r.ty, b)})
                    }
                    Err(d) => json!({"readable": false, "diagnostic": d.to_string()}),
                };
                outln!(
                    "{}",
                    json!({"outcome": "ok", "type": r.ty.to_string(), "location": r.loc.to_string(),
                        "value": v, "fragment": r.fragment.map(|(o, s)| json!({"offset": o, "size": s}))})
                );
            } else {
                outln!("type: {}", r.ty);
                outln!("location: {}", r.loc);
                match &value {
                    Ok(b) => outln!("value: {}", value_text(&r.ty, b)),
                    Err(d) => outln!("value: not readable: {d}"),
                }
                if let Some((o, s)) = r.fragment {
                    outln!("fragment: bits {o}..{}", o + s);
                }
            }
            ExitCode::SUCCESS
        }
        Err(d) => report(&d, json),
    }
}
