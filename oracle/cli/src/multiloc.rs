//! `dioptra multiloc`: the multi-location proposal translated to lifetimes and checked.

use crate::common::*;
use dioptra_semantics::diag::Diag;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

pub fn cmd_multiloc(file: &Path, json: bool) -> ExitCode {
    use dioptra_semantics::lifetime::multiloc::{agreement, parse_listing};
    let run = || -> Result<_, Diag> {
        let (text, notes) =
            dioptra_oracle::ir::lifetimes::multiloc_text(&read_text(file, "Module")?)?;
        let l = parse_listing(&text)?;
        Ok((agreement(&l)?, notes))
    };
    let ((t, a), notes) = match run() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    for r in notes.remarks() {
        errln!("{r}");
    }
    let verdict = match &a.difference {
        None => format!("agrees at {} program points", a.points),
        Some((line, want, got)) => format!(
            "differs at line {line}: the proposal makes current the calls on lines {want:?}, the lifetimes those on lines {got:?}"
        ),
    };
    if json {
        outln!(
            "{}",
            json!({"translation": t.text, "points": a.points, "agrees": a.difference.is_none(), "verdict": verdict})
        );
    } else {
        out!("{}", t.text);
        outln!("; {verdict}");
    }
    ExitCode::from(if a.difference.is_none() { 0 } else { 1 })
}
