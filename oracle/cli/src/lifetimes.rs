//! `dioptra lifetimes`: a module listing checked, its objects located, or lowered to location lists.

use crate::common::*;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::diag::Diag;
use dioptra_semantics::dwarf::Encoding;
use dioptra_semantics::lifetime::locate::Analysis;
use dioptra_semantics::lifetime::parse_module;
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::lifetime::wellformed::check_module;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// `lifetimes FILE --lower TARGET`: the module's location lists, and the
/// lifetime law at every point in the context and its variants.
pub fn cmd_lower_module(
    file: &Path,
    target: &str,
    context: Option<&Path>,
    variants: usize,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::lower::loclist::{compare_module, lower_module};
    use dioptra_oracle::lower::Target;
    let setup = || -> Result<_, Diag> {
        let t = Target::parse(target).ok_or_else(|| {
            Diag::malformed(
                "Usage",
                "bad-target",
                format!("`{target}`: the target is amdgpu or dwarf5"),
            )
        })?;
        if variants > 100_000 {
            return Err(Diag::malformed(
                "Usage",
                "too-many-variants",
                format!("--variants {variants}: at most 100000"),
            ));
        }
        let m = parse_module(&read_text(file, "Module")?)?;
        let ctx = match context {
            Some(c) => ConcreteContext::parse(&read_text(c, "Context")?)?,
            None => ConcreteContext::default(),
        };
        Ok((t, m, ctx))
    };
    let (t, m, ctx) = match setup() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    let lowered = match lower_module(&m, &ctx, t) {
        Ok(l) => l,
        Err(d) => return report(&d, json),
    };
    let listing = lowered.unit.lines(Encoding::default()).join("\n");
    let (tally, first) = match compare_module(&m, &lowered, &ctx, variants, 1) {
        Ok(x) => x,
        Err(d) => {
            // The listing stands; the law was not checked: exit 3, never a pass.
            if json {
                outln!(
                    "{}",
                    json!({"outcome": "unknown", "listing": listing, "law": d.to_string()})
                );
            } else {
                outln!("{listing}");
                eprintln!("law: NOT CHECKED: {d}");
            }
            return ExitCode::from(3);
        }
    };
    // A law that compared fewer than half of what it looked at has not
    // been checked (the context lacks what the rest read): exit 3, as a
    // campaign where most cases are not compared is NOT CHECKED.
    let unchecked = tally.not_compared > tally.compared();
    let outcome = if tally.differ > 0 {
        "differ"
    } else if unchecked {
        "unknown"
    } else if !lowered.not_expressible.is_empty() {
        "not-expressible"
    } else {
        "ok"
    };
    if json {
        let ne: serde_json::Map<String, serde_json::Value> = lowered
            .not_expressible
            .iter()
            .map(|(o, d)| (o.clone(), json!(d.to_string())))
            .collect();
        outln!(
            "{}",
            json!({"outcome": outcome, "listing": listing, "not_expressible": ne,
                "law": tally.summary(), "difference": first})
        );
    } else {
        outln!("{listing}");
        for (o, d) in &lowered.not_expressible {
            eprintln!("{o}: {d}");
        }
        if unchecked {
            eprintln!(
                "law: NOT CHECKED: {}: most comparisons need what the context does not give",
                tally.summary()
            );
        } else {
            eprintln!("law: {}", tally.summary());
        }
        if let Some(f) = &first {
            eprintln!("{f}");
        }
    }
    ExitCode::from(match outcome {
        "ok" => 0,
        "unknown" => 3,
        _ => 1,
    })
}

pub fn cmd_lifetimes(
    file: &Path,
    at: Option<u32>,
    context: Option<&Path>,
    block_local: bool,
    json: bool,
) -> ExitCode {
    let setup = || -> Result<_, Diag> {
        let m = parse_module(&read_text(file, "Module")?)?;
        let ctx = match context {
            Some(c) => ConcreteContext::parse(&read_text(c, "Context")?)?,
            None => ConcreteContext::default(),
        };
        let point = match at {
            Some(line) => Some(m.inst_at_line(line).ok_or_else(|| {
                Diag::malformed(
                    "Lifetimes",
                    "no-instruction",
                    format!("line {line} holds no instruction"),
                )
            })?),
            None => None,
        };
        Ok((m, ctx, point))
    };
    let (m, ctx, point) = match setup() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    let ds = check_module(&m);
    if !ds.is_empty() {
        if json {
            let list: Vec<_> = ds
                .iter()
                .map(|d| json!({"construct": d.construct, "reason": d.reason, "message": d.message, "text": d.to_string()}))
                .collect();
            outln!("{}", json!({"outcome": "ill-formed", "diagnostics": list}));
        } else {
            for d in &ds {
                eprintln!("{d}");
            }
        }
        return ExitCode::from(1);
    }
    let reading = if block_local {
        Reading::BlockLocal
    } else {
        Reading::ControlFlow
    };
    let a = Analysis::new(&m, reading);
    let points: Vec<usize> = match point {
        Some(p) => vec![p],
        None => (0..m.insts.len()).collect(),
    };
    let mut objects_json = Vec::new();
    for o in a.objects() {
        let name = m.nodes[&o]
            .display_name()
            .map(|n| format!(" \"{n}\""))
            .unwrap_or_default();
        let rows: Vec<(u32, usize, String)> = points
            .iter()
            .map(|&p| {
                let text = match a.locate(&ctx, &o, p) {
                    Ok(l) => {
                        let segs = if l.segments.is_empty() {
                            "default".to_string()
                        } else {
                            l.segments.join(" ")
                        };
                        format!("{}  [{segs}]", l.loc)
                    }
                    Err(d) => format!("error: {d}"),
                };
                (m.insts[p].line, m.insts[p].func, text)
            })
            .collect();
        if json {
            let pts: Vec<_> = points
                .iter()
                .map(|&p| match a.locate(&ctx, &o, p) {
                    Ok(l) => json!({"line": m.insts[p].line, "location": l.loc.to_string(),
                        "type": l.ty.map(|t| t.to_string()), "segments": l.segments}),
                    Err(d) => json!({"line": m.insts[p].line, "error": d.to_string()}),
                })
                .collect();
            objects_json
                .push(json!({"object": o, "name": m.nodes[&o].display_name(), "points": pts}));
            continue;
        }
        outln!("{o}{name}:");
        // Consecutive points of one function with the same answer share a row.
        let mut k = 0;
        while k < rows.len() {
            let mut e = k;
            while e + 1 < rows.len() && rows[e + 1].1 == rows[k].1 && rows[e + 1].2 == rows[k].2 {
                e += 1;
            }
            let lines = if e == k {
                format!("line {}", rows[k].0)
            } else {
                format!("lines {}-{}", rows[k].0, rows[e].0)
            };
            outln!("  {lines}: {}", rows[k].2);
            k = e + 1;
        }
    }
    if json {
        outln!("{}", json!({"outcome": "ok", "objects": objects_json}));
    }
    ExitCode::SUCCESS
}
