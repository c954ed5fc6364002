//! `dioptra lower-table`: proves the lowering of every DIOp on both targets
//! at every integer width in a range, for each place its main input can be
//! in, and prints a line per op with what is proven, what refines, and
//! every exception.

use crate::common::*;
use dioptra_oracle::lower::table::{instances, median, run_all, summarize, Outcome};
use dioptra_oracle::lower::Target;
use dioptra_semantics::diag::Diag;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// What `lower-table` proves.
pub struct TableOpts {
    /// `A..B` or `A,B,C`.
    pub widths: String,
    /// `amdgpu`, `dwarf5` or `both`.
    pub target: String,
    /// Only rows whose op starts with this.
    pub op: Option<String>,
    pub jobs: usize,
    pub timeout_ms: u32,
    pub json: bool,
}

fn parse_widths(s: &str) -> Result<Vec<u64>, Diag> {
    let bad = || {
        Diag::malformed(
            "LowerTable",
            "bad-widths",
            format!("`{s}`: widths as A..B or A,B,C, each 1 to 64"),
        )
    };
    let ws: Vec<u64> = if let Some((a, b)) = s.split_once("..") {
        let (a, b): (u64, u64) = (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        );
        (a..=b).collect()
    } else {
        s.split(',')
            .map(|w| w.trim().parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?
    };
    if ws.is_empty() || ws.iter().any(|&w| !(1..=64).contains(&w)) {
        return Err(bad());
    }
    Ok(ws)
}

pub fn cmd_lower_table(o: &TableOpts) -> ExitCode {
    let setup = || -> Result<_, Diag> {
        let widths = parse_widths(&o.widths)?;
        let targets = match o.target.as_str() {
            "both" => vec![Target::Amdgpu, Target::Dwarf5],
            t => vec![Target::parse(t).ok_or_else(|| {
                Diag::malformed(
                    "LowerTable",
                    "bad-target",
                    format!("`{t}`: amdgpu, dwarf5 or both"),
                )
            })?],
        };
        let mut all = instances(&widths, &targets)?;
        if let Some(op) = &o.op {
            all.retain(|i| i.op.starts_with(op.as_str()));
        }
        Ok(all)
    };
    let all = match setup() {
        Ok(a) => a,
        Err(d) => return report(&d, o.json),
    };
    let bar = ProgressBar::with_draw_target(Some(all.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} proofs ({per_sec}, {eta} left)",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    let started = Instant::now();
    let results = run_all(&all, o.timeout_ms, o.jobs, &|_| bar.inc(1));
    bar.finish_and_clear();
    let wall = started.elapsed();
    let s = summarize(&all, &results);
    let total = |word: &str| -> usize {
        s.counts
            .values()
            .map(|m| m.get(word).copied().unwrap_or(0))
            .sum()
    };
    let words = [
        "proven",
        "refines",
        "not-proven",
        "unknown",
        "not-expressible",
        "not-encoded",
    ];
    if o.json {
        let rows: Vec<_> = s
            .counts
            .iter()
            .map(|((op, t), m)| {
                let secs = s
                    .row_time
                    .get(&(op.clone(), *t))
                    .map_or(0.0, |d| d.as_secs_f64());
                json!({"op": op, "target": t, "counts": m, "seconds": secs})
            })
            .collect();
        let exceptions: Vec<_> = s
            .exceptions
            .iter()
            .map(|(i, out)| {
                json!({"op": i.op, "target": i.target.name(), "width": i.width,
                "placement": i.placement.name(), "expr": i.expr, "outcome": out.word(),
                "detail": detail(out)})
            })
            .collect();
        outln!(
            "{}",
            json!({"instances": all.len(), "rows": rows, "exceptions": exceptions,
                "totals": words.iter().map(|w| (w.to_string(), total(w))).collect::<std::collections::BTreeMap<_, _>>(),
                "median_solver_ms": median(&s.times).as_secs_f64() * 1e3,
                "wall_s": wall.as_secs_f64(), "jobs": o.jobs})
        );
    } else {
        outln!("{:<24} {:<7} {} seconds", "op", "target", words.join(" "));
        for ((op, t), m) in &s.counts {
            let cells: Vec<String> = words
                .iter()
                .map(|w| format!("{:>w$}", m.get(w).copied().unwrap_or(0), w = w.len()))
                .collect();
            let secs = s
                .row_time
                .get(&(op.clone(), *t))
                .map_or(0.0, |d| d.as_secs_f64());
            outln!("{op:<24} {t:<7} {} {secs:>7.1}", cells.join(" "));
        }
        for (i, out) in &s.exceptions {
            outln!(
                "{} {} width {} {}: {}: {}: {}",
                out.word(),
                i.target.name(),
                i.width.map_or("-".into(), |w| w.to_string()),
                i.placement.name(),
                i.op,
                i.expr,
                detail(out)
            );
        }
        outln!(
            "{} instances: {} proven, {} refine, {} not proven, {} unknown, {} not expressible, {} not encoded; median solver time {:.1} ms; {:.1} s on {} jobs ({:.0} proofs/s)",
            all.len(),
            total("proven"),
            total("refines"),
            total("not-proven"),
            total("unknown"),
            total("not-expressible"),
            total("not-encoded"),
            median(&s.times).as_secs_f64() * 1e3,
            wall.as_secs_f64(),
            o.jobs,
            all.len() as f64 / wall.as_secs_f64().max(1e-9)
        );
    }
    ExitCode::from(if total("not-proven") > 0 {
        1
    } else if total("unknown") + total("not-encoded") > 0 {
        3
    } else {
        0
    })
}

fn detail(o: &Outcome) -> String {
    match o {
        Outcome::NotProven(s)
        | Outcome::Unknown(s)
        | Outcome::NotExpressible(s)
        | Outcome::NotEncoded(s) => s.clone(),
        Outcome::Proven | Outcome::Refines => String::new(),
    }
}
