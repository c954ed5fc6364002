//! `dioptra lifetimes`: a module listing checked, its objects located, or lowered to location lists.

use crate::common::*;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::diag::Diag;
use dioptra_semantics::dwarf::Encoding;
use dioptra_semantics::lifetime::listing::Kind;
use dioptra_semantics::lifetime::locate::{
    Analysis, LocatedFirst, SegmentCache, MAX_LOCATED_INPUTS,
};
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::lifetime::wellformed::check_module;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// The most segments of one object at one point whose places a row shows
/// (and evaluates): past it a row names the first ones and counts the
/// rest, so that N segments of one object live at N points print N rows of
/// bounded length, not N^2 places.
const MAX_SHOWN: usize = 8;

/// `lifetimes FILE --lower TARGET`: the module's location lists, and the
/// lifetime law at every point in the context and its variants.
pub fn cmd_lower_module(
    file: &Path,
    target: &str,
    context: Option<&Path>,
    variants: usize,
    prove: bool,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::lower::loclist::{compare_module, lower_module, prove_segments};
    use dioptra_oracle::lower::prove::Proof;
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
        let m = dioptra_oracle::ir::lifetimes::read(&read_text(file, "Module")?)?.module;
        let ctx = match context {
            Some(c) => read_context(c)?,
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
                errln!("law: NOT CHECKED: {d}");
            }
            return ExitCode::from(3);
        }
    };
    let proofs = if prove {
        prove_segments(
            &m,
            &lowered,
            &ctx,
            t,
            dioptra_semantics::smt::DEFAULT_TIMEOUT_MS,
        )
    } else {
        Vec::new()
    };
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    let mut proof_lines = Vec::new();
    for p in &proofs {
        let word = match &p.proof {
            Ok(x) => x.word().to_string(),
            Err(d) => format!("not-encoded ({})", d.reason),
        };
        *counts.entry(word.clone()).or_default() += 1;
        let detail = match &p.proof {
            Ok(Proof::NotProven(c)) => format!(
                ": {}\n{}",
                c.agreement.describe(),
                c.context.to_script("cex")
            ),
            Ok(Proof::Unknown(r)) => format!(": {r}"),
            Err(d) => format!(": {d}"),
            Ok(_) => String::new(),
        };
        proof_lines.push(format!("{} {}: {word}{detail}", p.object, p.lifetime));
    }
    let not_proven = proofs
        .iter()
        .any(|p| matches!(p.proof, Ok(Proof::NotProven(_))));
    // A law that compared fewer than half of what it looked at has not
    // been checked (the context lacks what the rest read): exit 3, as a
    // campaign where most cases are not compared is NOT CHECKED.
    let unchecked = tally.not_compared > tally.compared();
    let outcome = if tally.differ > 0 || not_proven {
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
                "law": tally.summary(), "difference": first,
                "proofs": prove.then(|| json!({"counts": counts, "segments": proof_lines}))})
        );
    } else {
        outln!("{listing}");
        for (o, d) in &lowered.not_expressible {
            errln!("{o}: {d}");
        }
        if unchecked {
            errln!(
                "law: NOT CHECKED: {}: most comparisons need what the context does not give{}",
                tally.summary(),
                tally
                    .first_not_compared
                    .as_ref()
                    .map(|d| format!(" (first: {d})"))
                    .unwrap_or_default()
            );
        } else {
            errln!("law: {}", tally.summary());
        }
        if let Some(f) = &first {
            errln!("{f}");
        }
        if prove {
            for l in &proof_lines {
                errln!("proof: {l}");
            }
            errln!("proofs: {counts:?} (segments' entries; address ranges tested, not proved)");
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
        let lt = dioptra_oracle::ir::lifetimes::read(&read_text(file, "Module")?)?;
        let ctx = match context {
            Some(c) => read_context(c)?,
            None => ConcreteContext::default(),
        };
        let point = match at {
            Some(line) => Some(lt.inst_at_line(line).ok_or_else(|| {
                Diag::malformed(
                    "Lifetimes",
                    "no-instruction",
                    format!("line {line} holds no instruction"),
                )
            })?),
            None => None,
        };
        Ok((lt, ctx, point))
    };
    let (lt, ctx, point) = match setup() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    for r in lt.remarks() {
        errln!("{r}");
    }
    let m = &lt.module;
    let ds = check_module(m);
    if !ds.is_empty() {
        if json {
            let list: Vec<_> = ds
                .iter()
                .map(|d| json!({"construct": d.construct, "reason": d.reason, "message": d.message, "text": d.to_string()}))
                .collect();
            outln!("{}", json!({"outcome": "ill-formed", "diagnostics": list}));
        } else {
            for d in &ds {
                errln!("{d}");
            }
        }
        return ExitCode::from(1);
    }
    let reading = if block_local {
        Reading::BlockLocal
    } else {
        Reading::ControlFlow
    };
    let a = Analysis::new(m, reading);
    // The file's own instructions (a translation's inserted def/kill are
    // not points of the file).
    let points: Vec<usize> = match point {
        Some(p) => vec![p],
        None => (0..m.insts.len())
            .filter(|&i| lt.line(i).is_some())
            .collect(),
    };
    let mut objects_done = 0usize;
    if json {
        out!("{{\"objects\":[");
    }
    let cache = SegmentCache::new(&ctx);
    // A fragment an object's computed segment composes is named after
    // that object (the translation makes one per piece of a variable).
    let mut piece_of: std::collections::BTreeMap<&str, &str> = std::collections::BTreeMap::new();
    for n in m.nodes.values() {
        if let Kind::Lifetime {
            object: Some(obj),
            args,
            ..
        } = &n.kind
        {
            if let Some(name) = m.nodes.get(obj).and_then(|x| x.display_name()) {
                for arg in args {
                    piece_of.entry(arg.as_str()).or_insert(name);
                }
            }
        }
    }
    for at in a.objects_at() {
        let o = at.id;
        let name = match (m.nodes[o].display_name(), piece_of.get(o)) {
            (Some(n), _) => format!(" \"{n}\""),
            (None, Some(v)) => format!(" (a piece of \"{v}\")"),
            _ => String::new(),
        };
        if !json {
            outln!("{o}{name}:");
        }
        let mut pts = Vec::new();
        // An object whose segments are all bounded has no segment active in
        // a function none of them covers: its location there is the
        // default (undefined), and those functions are not listed (a
        // module of many functions would otherwise list every object in
        // every one). `--at` shows the point asked for regardless.
        //
        // The points shown, as runs of `points`: the instructions are
        // numbered function by function, so a function's points are one run
        // of them, found by two binary searches (filtering every point for
        // every object was 10^9 steps on 10 000 objects in 100 000
        // instructions).
        let functions = functions_of(&a, o);
        let runs: Vec<(usize, usize)> = match (&functions, point) {
            (Some(fs), None) => fs
                .iter()
                .map(|&f| {
                    (
                        points.partition_point(|&p| m.insts[p].func < f),
                        points.partition_point(|&p| m.insts[p].func <= f),
                    )
                })
                .filter(|(lo, hi)| lo < hi)
                .collect(),
            _ => vec![(0, points.len())],
        };
        if runs.is_empty() && !json {
            outln!("  no segment is active anywhere: undef  [default]");
        }
        // Consecutive points of one function with the same answer share a
        // row.
        let mut row: Option<Row> = None;
        // Each stretch between two boundaries is located and formatted once.
        let mut pieces = a.pieces_at(&cache, at, MAX_SHOWN);
        let mut formatted: Option<(usize, serde_json::Value, Vec<String>, String)> = None;
        for &(lo, hi) in &runs {
            let mut k = lo;
            while k < hi {
                let p = points[k];
                let (line, func) = (lt.line(p).unwrap_or(m.insts[p].line), m.insts[p].func);
                let piece = pieces.piece_of(p);
                if formatted.as_ref().is_none_or(|f| f.0 != piece) {
                    let (v, segments, shown) = format_located(pieces.at(p), json);
                    formatted = Some((piece, v, segments, shown));
                }
                let (_, v, segments, shown) = formatted.as_ref().expect("just formatted");
                if json {
                    let mut v = v.clone();
                    v["line"] = json!(line);
                    pts.push(v);
                    k += 1;
                    continue;
                }
                // The points of this run from `p` on that are in its
                // stretch and its function share its row: stepped over at
                // once, not point by point (every point for every object
                // was 10^9 steps for 10 000 objects in 100 000
                // instructions). They come first: the points are in
                // instruction order, and so in function order.
                let end = pieces.stretch_end(p);
                let n = points[k..hi].partition_point(|&q| q < end && m.insts[q].func == func);
                let last_p = points[k + n - 1];
                let last = lt.line(last_p).unwrap_or(m.insts[last_p].line);
                k += n;
                match &mut row {
                    Some(r) if r.func == func && r.segments == *segments && r.shown == *shown => {
                        r.last = last
                    }
                    _ => {
                        if let Some(r) = row.take() {
                            r.print();
                        }
                        row = Some(Row {
                            first: line,
                            last,
                            func,
                            segments: segments.clone(),
                            shown: shown.clone(),
                        });
                    }
                }
            }
        }
        if let Some(r) = row.take() {
            r.print();
        }
        if json {
            // Streamed an object at a time: the whole answer as one value
            // took 4.8 GB for rustc's memchr module (215 MB of output).
            // Keys in serde_json's order, so the bytes are the one value's.
            let sep = if objects_done == 0 { "" } else { "," };
            out!(
                "{sep}{}",
                json!({"object": o, "name": m.nodes[&o].display_name(), "points": pts})
            );
            objects_done += 1;
        }
    }
    // Rows past the bound on what locating does say so one by one; the
    // answer as a whole is then not complete.
    let complete = !cache.exhausted();
    if json {
        let outcome = if complete { "ok" } else { "limit-exceeded" };
        outln!("],\"outcome\":\"{outcome}\"}}");
    }
    if complete {
        ExitCode::SUCCESS
    } else {
        errln!(
            "DILifetime: limit-exceeded: locating stopped evaluating segments with inputs after {MAX_LOCATED_INPUTS} of their inputs; the rows after it are not evaluated"
        );
        ExitCode::from(3)
    }
}

/// A located object as a `--json` point (without its line) or as the
/// segments and text of a row.
fn format_located(located: &LocatedFirst, json: bool) -> (serde_json::Value, Vec<String>, String) {
    if json {
        let v = match located {
            Ok((l, left_out)) => {
                let total = l.segments.len();
                let mut v = json!({"location": l.loc.to_string(),
                    "type": l.ty.as_ref().map(|t| t.to_string()),
                    "segments": l.segments.iter().take(MAX_SHOWN).collect::<Vec<_>>()});
                if *left_out > 0 {
                    v["segments_total"] = json!(total);
                    v["segments_not_evaluated"] = json!(left_out);
                }
                v
            }
            Err(d) => json!({"error": d.to_string()}),
        };
        return (v, Vec::new(), String::new());
    }
    let (segments, shown) = match located {
        Ok((l, left_out)) => {
            let left_out = *left_out;
            let segs = if l.segments.is_empty() {
                "default".to_string()
            } else if left_out == 0 {
                l.segments.join(" ")
            } else {
                format!(
                    "{} and {left_out} more ({} segments)",
                    l.segments[..MAX_SHOWN].join(" "),
                    l.segments.len()
                )
            };
            let more = if left_out > 0 {
                format!(" and the places of {left_out} more segments")
            } else {
                String::new()
            };
            (l.segments.clone(), format!("{}{more}  [{segs}]", l.loc))
        }
        Err(d) => (Vec::new(), format!("error: {d}")),
    };
    (serde_json::Value::Null, segments, shown)
}

/// The functions in which some segment of `object` is active, or `None`
/// when it may be located anywhere (a computed segment, or a global
/// variable's fragment).
fn functions_of(a: &Analysis, object: &str) -> Option<std::collections::BTreeSet<usize>> {
    if a.global_of.contains_key(object) {
        return None;
    }
    let mut fs = std::collections::BTreeSet::new();
    for lt in a.segments_of(object)? {
        for &(start, end) in a.ranges.get(lt)? {
            // The instructions are numbered function by function: a run
            // spans the functions from its first instruction's to its
            // last's (each of its points inserted was quadratic for
            // variables live over a whole function).
            if start < end {
                fs.extend(a.m.insts[start].func..=a.m.insts[end - 1].func);
            }
        }
    }
    Some(fs)
}

/// Consecutive points of one function with the same answer: the segments
/// (all of them, not only those shown) and what is printed.
struct Row {
    first: u32,
    last: u32,
    func: usize,
    segments: Vec<String>,
    shown: String,
}

impl Row {
    fn print(&self) {
        let lines = if self.first == self.last {
            format!("line {}", self.first)
        } else {
            format!("lines {}-{}", self.first, self.last)
        };
        outln!("  {lines}: {}", self.shown);
    }
}
