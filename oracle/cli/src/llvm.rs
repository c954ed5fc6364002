//! `dioptra llvm`: generated functions with debug records through LLVM's
//! own passes (`opt`), every record of the output checked against the
//! input's (`dioptra_oracle::llvm`).

use dioptra_oracle::llvm::codegen::{self, Codegen, Difference, Phases, Seen};
use dioptra_oracle::llvm::entry::AtEntry;
use dioptra_oracle::llvm::known::{self, Known};
use dioptra_oracle::llvm::readback::Says;
use dioptra_oracle::llvm::validate::{self, Compared};
use dioptra_oracle::llvm::{self, tools, Setup, Verdict};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Options {
    pub generated: u64,
    pub seed: u64,
    /// The index of the first function generated.
    pub first: u64,
    pub passes: Option<String>,
    pub target: String,
    pub llvm: Option<u32>,
    pub batch: u64,
    pub jobs: Option<usize>,
    pub solver_ms: u32,
    pub keep: Option<PathBuf>,
    pub emit_repro: Option<PathBuf>,
    /// Sampled inputs per function under gdb.
    pub inputs: usize,
    /// Compile the output with llc and run it under gdb.
    pub run: bool,
    /// Arguments of `i128` too ([`dioptra_properties::llvm::Wide`]).
    pub i128: bool,
    pub json: bool,
}

impl Options {
    /// Which arguments are generated `i128`.
    fn wide(&self) -> dioptra_properties::llvm::Wide {
        if self.i128 {
            dioptra_properties::llvm::Wide::Some
        } else {
            dioptra_properties::llvm::Wide::No
        }
    }
}

/// A compared record and the pass that wrote it.
type PassRecord = (String, Compared);
/// A record gdb showed wrong, with what it showed.
type ShownRecord<'a> = (&'a PassRecord, &'a Seen);

/// The words of the verdicts, in the order the summary gives them.
const WORDS: &[&str] = &[
    "same",
    "refines",
    "wrong",
    "dropped",
    "not-compared",
    "unknown",
];

/// What the workers share.
struct Shared {
    compared: Mutex<Vec<(String, Compared)>>,
    errors: Mutex<Vec<String>>,
    opt_time: Mutex<Duration>,
    check_time: Mutex<Duration>,
    /// What gdb showed, by (pass, function, variable).
    seen: Mutex<BTreeMap<(String, String, String), Seen>>,
    /// Each variable's DWARF at its function's entry, judged, by (pass,
    /// function, variable).
    entry: Mutex<BTreeMap<(String, String, String), AtEntry>>,
    /// Time compiling, under gdb and comparing; calls made; values read.
    run: Mutex<(Phases, usize, usize)>,
}

/// What gdb showed of a record's variable, if the program ran.
fn seen_of<'a>(
    seen: &'a BTreeMap<(String, String, String), Seen>,
    pass: &str,
    c: &Compared,
) -> Option<&'a Seen> {
    seen.get(&(pass.to_string(), c.function.clone(), c.variable.clone()))
}

/// A variable's DWARF at its function's entry, after a pass.
type EntryKey = (String, String, String);

/// The entry checks of a campaign: counts per verdict, and each wrong one
/// by what explains it.
struct Entries<'a> {
    counts: BTreeMap<&'static str, usize>,
    /// Wrong where a record of the variable was judged wrong after the
    /// same pass: the pass's bug, which the DWARF carries on.
    after_wrong_record: usize,
    /// Wrong where a record of the variable after the same pass was not
    /// decided (the solver's limit): whether opt's record already was
    /// wrong is not known, so the DWARF's error is put down to no one.
    after_unknown_record: usize,
    /// Wrong where gdb showed the variable wrong and a known code
    /// generator bug explains it: by the bug's id.
    by_run_bug: BTreeMap<&'static str, usize>,
    /// Wrong with neither: a finding to read.
    unexplained: Vec<(&'a EntryKey, &'a AtEntry)>,
}

/// Judges the entry checks against the records' verdicts and the known
/// bugs gdb's readings were put down to.
fn judge_entries<'a>(
    entry: &'a BTreeMap<EntryKey, AtEntry>,
    compared: &[PassRecord],
    run_bugs: &BTreeMap<&'static str, (&Known, Vec<ShownRecord>)>,
) -> Entries<'a> {
    let mut e = Entries {
        counts: WORDS.iter().map(|w| (*w, 0)).collect(),
        after_wrong_record: 0,
        after_unknown_record: 0,
        by_run_bug: BTreeMap::new(),
        unexplained: Vec::new(),
    };
    for (key, at) in entry {
        *e.counts.entry(at.verdict.word()).or_default() += 1;
        if !matches!(at.verdict, Verdict::Wrong { .. }) {
            continue;
        }
        let (pass, f, v) = key;
        let of_it = |c: &Compared| c.function == *f && c.variable == *v;
        if compared
            .iter()
            .any(|(p, c)| p == pass && of_it(c) && matches!(c.verdict, Verdict::Wrong { .. }))
        {
            e.after_wrong_record += 1;
            continue;
        }
        // The bug the DWARF it should have been shows, else the one gdb's
        // readings of the variable were put down to.
        let bug = at.class.or_else(|| {
            run_bugs
                .iter()
                .find(|(_, (_, ws))| ws.iter().any(|((p, c), _)| p == pass && of_it(c)))
                .map(|(id, _)| *id)
        });
        let undecided = || {
            compared
                .iter()
                .any(|(p, c)| p == pass && of_it(c) && matches!(c.verdict, Verdict::Unknown(_)))
        };
        match bug {
            Some(id) => *e.by_run_bug.entry(id).or_default() += 1,
            None if undecided() => e.after_unknown_record += 1,
            None => e.unexplained.push((key, at)),
        }
    }
    e
}

/// Did gdb show the variable wrong (a different value, or an error)?
fn shown_wrong(s: &Seen) -> bool {
    s.differ.is_some() || s.error.is_some()
}

/// The call a difference was seen on: `f(0x80, 0x1)`.
fn call_text(d: &Difference) -> String {
    let args: Vec<String> = d
        .call
        .args
        .iter()
        .map(|a| format!("0x{}", a.hex()))
        .collect();
    format!("{}({})", d.call.function, args.join(", "))
}

/// What dioptra made of the variable's DWARF where gdb showed it.
fn dwarf_text(d: &Difference) -> String {
    let Some(r) = &d.dwarf else {
        return String::new();
    };
    let says = match &r.says {
        Says::Value(v) => format!("0x{}", v.hex()),
        Says::Unavailable(why) => format!("no location ({why})"),
        Says::Failed(why) => format!("no value: {why}"),
    };
    let verdict = match d.dwarf_right {
        Some(true) => "right: gdb misreads it",
        Some(false) => "wrong in DWARF",
        None => "no value",
    };
    let register: String = d
        .register
        .iter()
        .chain(&d.later_registers)
        .map(|reg| {
            format!(
                "; DWARF register {} held {}{}{}",
                reg.number,
                reg.contents,
                if reg.holds_operand {
                    ", the record's operand".to_string()
                } else if reg.holds.is_empty() {
                    String::new()
                } else {
                    format!(", the value of {}", reg.holds.join(", "))
                },
                if reg.unchanged_since_entry {
                    ", as at the function's entry"
                } else {
                    ""
                }
            )
        })
        .collect();
    let sp = if d.stack_pointer_moved {
        "; the stack pointer is not the body's there"
    } else {
        ""
    };
    format!(
        "; its DWARF there, `{}`, evaluated by dioptra in that machine state gives {says} ({verdict}){register}{sp}",
        r.ops
    )
}

/// The line saying what gdb showed of a variable.
fn gdb_line(s: &Seen) -> String {
    match (&s.differ, &s.error) {
        (Some(d), _) => format!(
            "gdb printed {} at pc 0x{:x} on {}, where the input function gives {}{}{}",
            d.shown,
            d.pc,
            call_text(d),
            d.expected,
            if d.other_values.is_empty() {
                String::new()
            } else {
                format!(" (the value of {})", d.other_values.join(", "))
            },
            dwarf_text(d)
        ),
        (None, Some(e)) => format!(
            "gdb could not read it at pc 0x{:x} on {}: {}{}",
            e.pc,
            call_text(e),
            e.shown,
            dwarf_text(e)
        ),
        (None, None) if s.compared > 0 => format!(
            "gdb printed the right value all {} times it showed one",
            s.compared
        ),
        (None, None) => "gdb never showed a value (optimized out)".into(),
    }
}

pub fn cmd_llvm(o: &Options) -> ExitCode {
    let opt = match tools::find_opt_for_records(o.llvm) {
        Ok(t) => t,
        Err((true, e)) => {
            errln!("Llvm: usage: --llvm: {e}");
            return ExitCode::from(2);
        }
        Err((false, e)) => {
            outln!("llvm: NOT CHECKED: {e}");
            return ExitCode::from(3);
        }
    };
    let passes: Vec<String> = match &o.passes {
        Some(p) => p
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        None => llvm::DEFAULT_PASSES.iter().map(|s| s.to_string()).collect(),
    };
    if passes.is_empty() || o.generated == 0 {
        errln!("Llvm: usage: --generated N (at least 1) and --passes LIST (not empty)");
        return ExitCode::from(2);
    }
    if o.first.checked_add(o.generated).is_none() {
        errln!("Llvm: usage: --first + --generated must stay below 2^64");
        return ExitCode::from(2);
    }
    if o.i128 && llvm::pointer_bits(&o.target) < 64 {
        errln!(
            "Llvm: usage: --i128 needs a 64-bit target (`{}` links no 128-bit division)",
            o.target
        );
        return ExitCode::from(2);
    }
    let kept = o.keep.is_some();
    let work = o.keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("dioptra-llvm-{}", std::process::id()))
    });
    if let Err(e) = std::fs::create_dir_all(&work) {
        errln!("Llvm: unwritable: {}: {e}", work.display());
        return ExitCode::from(2);
    }
    for pass in &passes {
        if let Err(why) = llvm::check_pass(&opt, pass, &work) {
            errln!("Llvm: bad-pass: `{pass}`: {why}");
            if !kept {
                let _ = std::fs::remove_dir_all(&work);
            }
            return ExitCode::from(2);
        }
    }
    // The code generator and gdb: a campaign without them still validates
    // the passes, and says the programs were not run.
    let run_status: Result<Codegen, String> = if o.run {
        Codegen::find(o.llvm, o.inputs, &o.target)
    } else {
        Err("--no-run".into())
    };
    let setup = Setup {
        opt,
        triple: o.target.clone(),
        timeout_ms: o.solver_ms,
        work: work.clone(),
        opt_limit: Duration::from_secs(120),
        codegen: run_status.as_ref().ok().cloned(),
        seed: o.seed,
        keep: kept,
    };
    let batch = o.batch.max(1);
    let batches = o.generated.div_ceil(batch) as usize;
    let jobs = o
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 64)
        .min(batches);
    let started = Instant::now();
    let bar = ProgressBar::with_draw_target(
        Some((batches * passes.len()) as u64),
        ProgressDrawTarget::hidden(),
    );
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} batches ({eta} left) {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    let shared = Shared {
        compared: Mutex::new(Vec::new()),
        errors: Mutex::new(Vec::new()),
        opt_time: Mutex::new(Duration::ZERO),
        check_time: Mutex::new(Duration::ZERO),
        seen: Mutex::new(BTreeMap::new()),
        entry: Mutex::new(BTreeMap::new()),
        run: Mutex::new((Phases::default(), 0, 0)),
    };
    let next = AtomicUsize::new(0);
    // A worker takes a batch through every pass: the passes often leave a
    // record alike, and its cache answers the repeats.
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                let mut cache: HashMap<String, Verdict> = HashMap::new();
                loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= batches {
                        break;
                    }
                    let first = b as u64 * batch;
                    let n = batch.min(o.generated - first);
                    let specs = dioptra_properties::llvm::generated_specs(
                        o.seed,
                        o.first + first,
                        n,
                        o.wide(),
                    );
                    let module = llvm::module::render(&specs, &setup.triple, None);
                    for pass in &passes {
                        match llvm::run_batch(&setup, &module, b, pass, &mut cache) {
                            Ok(r) => {
                                *shared.opt_time.lock().unwrap_or_else(|e| e.into_inner()) +=
                                    r.opt_time;
                                *shared.check_time.lock().unwrap_or_else(|e| e.into_inner()) +=
                                    r.check_time;
                                match r.codegen {
                                    Some(Ok(out)) => {
                                        let mut run =
                                            shared.run.lock().unwrap_or_else(|e| e.into_inner());
                                        run.0 += out.time;
                                        run.1 += out.calls;
                                        run.2 += out.readings;
                                        let mut seen =
                                            shared.seen.lock().unwrap_or_else(|e| e.into_inner());
                                        for ((f, v), s) in out.seen {
                                            seen.insert((pass.clone(), f, v), s);
                                        }
                                        drop(seen);
                                        let mut entry =
                                            shared.entry.lock().unwrap_or_else(|e| e.into_inner());
                                        for ((f, v), e) in out.entry {
                                            entry.insert((pass.clone(), f, v), e);
                                        }
                                    }
                                    Some(Err(e)) => shared
                                        .errors
                                        .lock()
                                        .unwrap_or_else(|e| e.into_inner())
                                        .push(format!("batch {b} after {pass}: {e}")),
                                    None => {}
                                }
                                let mut all =
                                    shared.compared.lock().unwrap_or_else(|e| e.into_inner());
                                all.extend(r.compared.into_iter().map(|c| (pass.clone(), c)));
                            }
                            Err(e) => shared
                                .errors
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(e),
                        }
                        bar.inc(1);
                        if started.elapsed() > Duration::from_secs(2) && bar.is_hidden() {
                            bar.set_draw_target(ProgressDrawTarget::stderr());
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    if !kept {
        let _ = std::fs::remove_dir_all(&work);
    }
    let mut compared = shared
        .compared
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    compared.sort_by(|a, b| {
        let key = |c: &(String, Compared)| {
            (
                c.1.function
                    .trim_start_matches('f')
                    .parse::<u64>()
                    .unwrap_or(0),
                c.0.clone(),
                c.1.variable.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
    let errors = shared
        .errors
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let seen = shared.seen.into_inner().unwrap_or_else(|e| e.into_inner());
    let entry = shared.entry.into_inner().unwrap_or_else(|e| e.into_inner());
    // A record the solver did not decide at the campaign's limit, of a
    // variable the program shows wrong (under gdb, or at the entry for
    // every input): asked again with ten times the limit (at most 10 s
    // per query). The wrong value seen says there is something to find.
    let longer = o.solver_ms.saturating_mul(10).min(10_000);
    for (pass, c) in compared.iter_mut() {
        let Some(rule) = c
            .rule
            .as_ref()
            .filter(|_| matches!(c.verdict, Verdict::Unknown(_)))
        else {
            continue;
        };
        let key = (pass.clone(), c.function.clone(), c.variable.clone());
        let shown = seen.get(&key).is_some_and(shown_wrong)
            || entry
                .get(&key)
                .is_some_and(|e| matches!(e.verdict, Verdict::Wrong { .. }));
        if shown {
            c.verdict = validate::recheck(rule, longer);
        }
    }
    let mut counts: BTreeMap<&str, usize> = WORDS.iter().map(|w| (*w, 0)).collect();
    for (_, c) in &compared {
        *counts.entry(c.verdict.word()).or_default() += 1;
    }
    let rate = o.generated as f64 / elapsed.as_secs_f64().max(1e-9);
    let opt_time = *shared.opt_time.lock().unwrap_or_else(|e| e.into_inner());
    let check_time = *shared.check_time.lock().unwrap_or_else(|e| e.into_inner());
    let wrong: Vec<&(String, Compared)> = compared
        .iter()
        .filter(|(_, c)| matches!(c.verdict, Verdict::Wrong { .. }))
        .collect();
    let not_compared: Vec<&(String, Compared)> = compared
        .iter()
        .filter(|(_, c)| matches!(c.verdict, Verdict::NotCompared(_) | Verdict::Unknown(_)))
        .collect();
    let checked = counts["same"] + counts["refines"] + counts["wrong"];
    // Each wrong record by the known bug it is; the smallest example of
    // each (fewest instructions, then narrowest) is the one shown.
    let mut by_bug: BTreeMap<&str, (&Known, Vec<&PassRecord>)> = BTreeMap::new();
    let mut unclassified: Vec<&PassRecord> = Vec::new();
    for w in &wrong {
        match known::classify(&w.1) {
            Some(k) => by_bug.entry(k.id).or_insert((k, Vec::new())).1.push(w),
            None => unclassified.push(w),
        }
    }
    let size = |c: &Compared| (c.source_insts.len() + c.target_insts.len(), c.before.len());
    let (run_time, run_calls, run_readings) = *shared.run.lock().unwrap_or_else(|e| e.into_inner());
    // What gdb showed against what the records were judged: a variable
    // gdb shows wrong although none of its records was judged wrong is a
    // finding of its own (the code generator, gdb, or dioptra).
    let mut gdb_unexplained: Vec<ShownRecord> = Vec::new();
    for w in &compared {
        let (pass, c) = w;
        let Some(s) = seen_of(&seen, pass, c).filter(|s| shown_wrong(s)) else {
            continue;
        };
        let any_wrong = compared.iter().any(|(p, o)| {
            p == pass
                && o.function == c.function
                && o.variable == c.variable
                && matches!(o.verdict, Verdict::Wrong { .. })
        });
        let first = compared
            .iter()
            .find(|(p, o)| p == pass && o.function == c.function && o.variable == c.variable)
            .is_some_and(|f| std::ptr::eq(f, w));
        if !any_wrong && first {
            gdb_unexplained.push((w, s));
        }
    }
    // Those the code generator's known bugs explain.
    let mut run_bugs: BTreeMap<&str, (&Known, Vec<ShownRecord>)> = BTreeMap::new();
    gdb_unexplained.retain(|(w, s)| match known::classify_run(&w.1, s) {
        Some(k) => {
            run_bugs
                .entry(k.id)
                .or_insert((k, Vec::new()))
                .1
                .push((*w, *s));
            false
        }
        None => true,
    });
    // Those with a record after the same pass the solver did not decide:
    // whether opt's record was already wrong is not known.
    let undecided = |(p, c): &PassRecord| {
        compared.iter().any(|(q, o)| {
            q == p
                && o.function == c.function
                && o.variable == c.variable
                && matches!(o.verdict, Verdict::Unknown(_))
        })
    };
    let before = gdb_unexplained.len();
    gdb_unexplained.retain(|(w, _)| !undecided(w));
    let gdb_after_unknown = before - gdb_unexplained.len();
    let at_entry = judge_entries(&entry, &compared, &run_bugs);
    // Per known bug: its records gdb showed wrong, and of those gdb read.
    let reproduced = |ws: &[&PassRecord]| {
        let read: Vec<&Seen> = ws
            .iter()
            .filter_map(|(p, c)| seen_of(&seen, p, c))
            .collect();
        (read.iter().filter(|s| shown_wrong(s)).count(), read.len())
    };
    if o.json {
        let rows: Vec<serde_json::Value> = compared
            .iter()
            .map(|(pass, c)| {
                let bug = known::classify(c);
                json!({
                    "pass": pass, "function": c.function, "variable": c.variable,
                    "before": c.before, "after": c.after, "verdict": c.verdict.word(),
                    "reason": c.verdict.reason(), "rule": c.rule,
                    "bug": bug.map(|k| k.id),
                    "upstream": bug.and_then(|k| k.upstream),
                    "gdb": seen_of(&seen, pass, c).map(gdb_line),
                })
            })
            .collect();
        let bugs: serde_json::Map<String, serde_json::Value> = by_bug
            .iter()
            .map(|(id, (k, ws))| {
                (
                    id.to_string(),
                    json!({"records": ws.len(), "function": k.function,
                           "upstream": k.upstream, "what": k.what,
                           "shown_wrong_in_gdb": reproduced(ws).0,
                           "run_under_gdb": reproduced(ws).1}),
                )
            })
            .collect();
        outln!(
            "{}",
            json!({
                "opt": setup.opt.path, "version": setup.opt.version, "target": setup.triple,
                "functions": o.generated, "seed": o.seed, "passes": passes,
                "counts": counts, "bugs": bugs, "unclassified": unclassified.len(),
                "errors": errors, "records": rows,
                "run": match &run_status {
                    Ok(cg) => json!({"llc": cg.llc.version, "gdb": cg.gdb, "calls": run_calls,
                                     "readings": run_readings, "seconds": run_time.total().as_secs_f64(),
                                     "phases": json!({"build": run_time.build.as_secs_f64(),
                                         "gdb": run_time.gdb.as_secs_f64(),
                                         "compare": run_time.compare.as_secs_f64()}),
                                     "unexplained": gdb_unexplained.len(),
                                     "after_unknown_record": gdb_after_unknown,
                                     "entry": json!({"counts": at_entry.counts,
                                         "after_wrong_record": at_entry.after_wrong_record,
                                         "after_unknown_record": at_entry.after_unknown_record,
                                         "known_bugs": at_entry.by_run_bug,
                                         "unexplained": at_entry.unexplained.iter().map(|((p, f, v), e)| json!({
                                             "pass": p, "function": f, "variable": v, "dwarf": e.ops,
                                             "reason": e.verdict.reason(), "rule": e.rule})).collect::<Vec<_>>()}),
                                     "bugs": run_bugs.iter().map(|(id, (k, ws))| (id.to_string(), json!({
                                         "variables": ws.len(), "function": k.function,
                                         "upstream": k.upstream, "what": k.what}))).collect::<serde_json::Map<_, _>>()}),
                    Err(why) => json!({"not_checked": why}),
                },
                "seconds": elapsed.as_secs_f64(), "functions_per_second": rate,
                "opt_seconds": opt_time.as_secs_f64(), "check_seconds": check_time.as_secs_f64(),
            })
        );
    } else {
        let show = |pass: &str, c: &Compared| {
            outln!(
                "    {} after {pass}, variable {}\n      before: {}\n      after:  {}",
                c.function,
                c.variable,
                c.before,
                c.after
            );
            if let Some(w) = c.verdict.reason().and_then(|r| {
                r.lines()
                    .find(|l| l.starts_with("witness "))
                    .map(str::to_string)
            }) {
                outln!("      {w}");
            }
        };
        for (id, (k, ws)) in &by_bug {
            outln!(
                "{id}: {} wrong records ({}); {}\n  {}",
                ws.len(),
                known::upstream_text(k),
                k.function,
                k.what
            );
            if let Some((pass, c)) = ws.iter().min_by_key(|w| size(&w.1)).copied() {
                show(pass, c);
            }
            if run_status.is_ok() {
                let (wrong_in_gdb, read) = reproduced(ws);
                outln!("  under gdb: {wrong_in_gdb} of the {read} run show the wrong value");
                // The smallest record gdb showed wrong.
                if let Some((pass, c, s)) = ws
                    .iter()
                    .filter_map(|(p, c)| {
                        seen_of(&seen, p, c)
                            .filter(|s| shown_wrong(s))
                            .map(|s| (p, c, s))
                    })
                    .min_by_key(|(_, c, _)| size(c))
                {
                    outln!(
                        "    {} after {pass}, variable {}: {}",
                        c.function,
                        c.variable,
                        gdb_line(s)
                    );
                }
            }
        }
        for (id, (k, ws)) in &run_bugs {
            outln!(
                "{id}: {} variables shown wrong under gdb ({}); {}\n  {}",
                ws.len(),
                known::upstream_text(k),
                k.function,
                k.what
            );
            if let Some(((pass, c), s)) = ws.iter().min_by_key(|(w, _)| size(&w.1)) {
                outln!(
                    "    {} after {pass}, variable {} (judged {}): {}\n      after:  {}",
                    c.function,
                    c.variable,
                    c.verdict.word(),
                    gdb_line(s),
                    c.after
                );
            }
        }
        for ((pass, c), s) in &gdb_unexplained {
            outln!(
                "\nunexplained under gdb: {} after {pass}, variable {} (judged {}): {}\n  before: {}\n  after:  {}",
                c.function,
                c.variable,
                c.verdict.word(),
                gdb_line(s),
                c.before,
                c.after
            );
        }
        for (pass, c) in &unclassified {
            outln!(
                "\nunclassified wrong record: {} after {pass}: variable {}\n  before: {}\n  after:  {}\n  {}",
                c.function,
                c.variable,
                c.before,
                c.after,
                c.verdict.reason().unwrap_or_default()
            );
            if let Some(r) = &c.rule {
                outln!("{}", r.trim_end());
            }
        }
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for (_, c) in &not_compared {
            let r = c.verdict.reason().unwrap_or_default();
            let short: String = r.chars().take(100).collect();
            *reasons
                .entry(format!("{} ({short})", c.verdict.word()))
                .or_default() += 1;
        }
        for (r, n) in &reasons {
            outln!("  {n} {r}");
        }
        for ((pass, f, v), e) in &at_entry.unexplained {
            outln!(
                "\nunexplained at entry: {f} after {pass}, variable {v}: the DWARF {} {}",
                e.ops,
                e.verdict.reason().unwrap_or_default()
            );
            if let Some(r) = &e.rule {
                outln!("{}", r.trim_end());
            }
        }
        for e in &errors {
            outln!("{e}");
        }
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for e in entry.values() {
            if let Verdict::NotCompared(r) | Verdict::Unknown(r) = &e.verdict {
                let short: String = r.chars().take(100).collect();
                *reasons
                    .entry(format!("{} at entry ({short})", e.verdict.word()))
                    .or_default() += 1;
            }
        }
        for (r, n) in &reasons {
            outln!("  {n} {r}");
        }
        if run_status.is_ok() {
            let c = &at_entry.counts;
            let bugs: Vec<String> = at_entry
                .by_run_bug
                .iter()
                .map(|(id, n)| format!("{n} {id}"))
                .collect();
            outln!(
                "at entry: {} same, {} refines, {} wrong ({} after a wrong record, {} after a record the solver did not decide, {} of known code generator bugs{}{}, {} unexplained), {} without a location, {} not compared, {} unknown",
                c["same"],
                c["refines"],
                c["wrong"],
                at_entry.after_wrong_record,
                at_entry.after_unknown_record,
                at_entry.by_run_bug.values().sum::<usize>(),
                if bugs.is_empty() { "" } else { ": " },
                bugs.join(", "),
                at_entry.unexplained.len(),
                c["dropped"],
                c["not-compared"],
                c["unknown"],
            );
        }
        match &run_status {
            Ok(cg) => outln!(
                "run: {} and {}, {}: {run_calls} calls, {run_readings} values read; {} code generator bugs, {} variables shown wrong after a record the solver did not decide, {} variables shown wrong unexplained; {:.1} s compiling (llc, link), {:.1} s under gdb, {:.1} s comparing (DWARF read back and proven at the entry, gdb's readings); {:.0} functions/s through llc and the comparison",
                cg.llc.version,
                cg.gdb,
                setup.triple,
                run_bugs.len(),
                gdb_after_unknown,
                gdb_unexplained.len(),
                run_time.build.as_secs_f64(),
                run_time.gdb.as_secs_f64(),
                run_time.compare.as_secs_f64(),
                o.generated as f64 * passes.len() as f64
                    / (run_time.build + run_time.compare).as_secs_f64().max(1e-9)
            ),
            Err(why) => outln!("run: NOT CHECKED: {why}"),
        }
        let list: Vec<String> = WORDS.iter().map(|w| format!("{} {w}", counts[w])).collect();
        outln!(
            "llvm: {} ({}), {}, {} functions x {} passes: {} records: {}; {} known bugs, {} unclassified wrong; {:.0} functions/s ({:.1} s in opt, {:.1} s checking, {jobs} jobs)",
            setup.opt.version,
            setup.opt.path.display(),
            setup.triple,
            o.generated,
            passes.len(),
            compared.len(),
            list.join(", "),
            by_bug.len(),
            unclassified.len(),
            rate,
            opt_time.as_secs_f64(),
            check_time.as_secs_f64(),
        );
    }
    if let Some(dir) = &o.emit_repro {
        let mut bundles: Vec<(String, &PassRecord, Option<&Known>)> = by_bug
            .iter()
            .filter_map(|(id, (k, ws))| {
                // The smallest record gdb showed wrong, else the smallest.
                ws.iter()
                    .min_by_key(|w| {
                        let in_gdb = seen_of(&seen, &w.0, &w.1).is_some_and(shown_wrong);
                        (!in_gdb, size(&w.1))
                    })
                    .map(|w| (id.to_string(), *w, Some(*k)))
            })
            .collect();
        for w in &unclassified {
            bundles.push((
                format!("unclassified-{}-{}-{}", w.1.function, w.1.variable, w.0),
                w,
                None,
            ));
        }
        for (id, (k, ws)) in &run_bugs {
            if let Some((w, _)) = ws.iter().min_by_key(|(w, _)| size(&w.1)) {
                bundles.push((id.to_string(), w, Some(*k)));
            }
        }
        for (name, (pass, c), k) in bundles {
            let s = seen_of(&seen, pass, c);
            if let Err(e) = repro(dir, &name, pass, c, k, &setup, o, s) {
                if e.starts_with("Llvm: ") {
                    errln!("{e}");
                } else {
                    errln!("Llvm: unwritable: {e}");
                }
                return ExitCode::from(2);
            }
        }
        if !o.json {
            outln!("llvm: bundles in {}", dir.display());
        }
    }
    // A known bug is explained; an unclassified wrong record or an opt
    // failure is a finding to read.
    if !errors.is_empty()
        || !unclassified.is_empty()
        || !gdb_unexplained.is_empty()
        || !at_entry.unexplained.is_empty()
    {
        ExitCode::from(1)
    } else if checked == 0 || (counts["not-compared"] + counts["unknown"]) * 2 > compared.len() {
        outln!("llvm: NOT CHECKED: most records could not be compared");
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes the bundle `dir/name/` for the record `c` (after `pass`), wrong
/// in the IR or shown wrong under gdb: `before.ll` (its function alone),
/// `command` (the exact commands), `after.ll` (what opt wrote), for a
/// record wrong in the IR `bug.rules` (the rule with its witness: `dioptra
/// rule bug.rules` finds it invalid), where the program runs the llc
/// output, the variable's DWARF and the gdb session showing the wrong
/// value (`codegen::reproduce`), and `README.md`.
#[allow(clippy::too_many_arguments)]
fn repro(
    dir: &std::path::Path,
    name: &str,
    pass: &str,
    c: &Compared,
    k: Option<&Known>,
    setup: &Setup,
    o: &Options,
    seen: Option<&Seen>,
) -> Result<(), String> {
    let seed = o.seed;
    let d = dir.join(name);
    std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    let index: u64 = c.function.trim_start_matches('f').parse().unwrap_or(0);
    let spec = dioptra_properties::llvm::generated_specs(seed, index, 1, o.wide());
    let before = d.join("before.ll");
    let after = d.join("after.ll");
    std::fs::write(&before, llvm::module::render(&spec, &setup.triple, None))
        .map_err(|e| format!("{}: {e}", before.display()))?;
    let pipeline = llvm::pass_pipeline(pass);
    let command = format!(
        "{} -S -passes='{pipeline}' before.ll -o after.ll",
        setup.opt.path.display()
    );
    let mut cmd = std::process::Command::new(&setup.opt.path);
    cmd.arg("-S")
        .arg(format!("-passes={pipeline}"))
        .arg(&before);
    let ran = tools::run(cmd, &after, setup.opt_limit)?;
    let _ = std::fs::remove_file(after.with_extension("err"));
    if !ran.success {
        return Err(format!("{command}: {}", ran.stderr.trim()));
    }
    let witness = c
        .verdict
        .reason()
        .and_then(|r| {
            r.lines()
                .find(|l| l.starts_with("witness "))
                .map(str::to_string)
        })
        .unwrap_or_default();
    let mut rule = c.rule.clone().unwrap_or_default();
    rule = rule.replacen(
        &format!("rule {}-{}", c.function, c.variable),
        &format!(
            "rule {}",
            name.replace(|ch: char| !ch.is_ascii_alphanumeric() && ch != '-', "-")
        ),
        1,
    );
    rule += &format!("  expect invalid\n  {witness}\n");
    let wrong_in_ir = matches!(c.verdict, Verdict::Wrong { .. });
    if wrong_in_ir {
        std::fs::write(d.join("bug.rules"), &rule).map_err(|e| format!("{name}/bug.rules: {e}"))?;
    }
    // Under gdb: the witness, the input the campaign saw go wrong, then
    // samples.
    let mut run_text = String::new();
    let mut commands = vec![command.clone()];
    match &setup.codegen {
        None => {
            run_text += "Not run under gdb (no llc or gdb, an unsupported target, or --no-run).\n"
        }
        Some(cg) => {
            let before_module = dioptra_oracle::ir::parse(
                &std::fs::read_to_string(&before)
                    .map_err(|e| format!("{}: {e}", before.display()))?,
            )
            .map_err(|e| format!("{}: {e}", before.display()))?;
            let f = before_module
                .functions
                .iter()
                .find(|f| f.name == c.function)
                .ok_or_else(|| format!("{}: no function {}", before.display(), c.function))?;
            let bits = llvm::pointer_bits(&setup.triple);
            let mut candidates: Vec<Vec<dioptra_semantics::bits::Bits>> = Vec::new();
            if let Some(w) = codegen::witness_input(f, &witness, bits) {
                candidates.push(w);
            }
            if let Some(d) = seen.and_then(|s| s.differ.as_ref().or(s.error.as_ref())) {
                candidates.push(d.call.args.clone());
            }
            candidates.extend(codegen::sample_inputs(f, bits, seed, cg.inputs.max(8)));
            match codegen::reproduce(
                cg,
                &before_module,
                &after,
                &c.function,
                &c.variable,
                &candidates,
                &setup.triple,
                &d,
            )? {
                Some(r) => {
                    commands.extend(r.commands.iter().cloned());
                    let args: Vec<String> = r
                        .difference
                        .call
                        .args
                        .iter()
                        .map(|a| format!("0x{}", a.hex()))
                        .collect();
                    let whose = match (r.difference.dwarf_right, wrong_in_ir) {
                        (Some(true), _) => "The DWARF is right there: the wrong value is the debugger's.",
                        (Some(false), true) => "The DWARF itself gives the wrong value there, as the output's record does in the IR: opt's record, compiled faithfully.",
                        (Some(false), false) => "The DWARF itself gives the wrong value there, although the output's record is right in the IR: the code generator wrote it.",
                        (None, _) => "The DWARF gives no value there (dioptra's diagnostic above).",
                    };
                    run_text += &format!(
                        "Compiled (`llc -O2`, `after.s`; the variable's DWARF in `dwarfdump.txt`) and run: `program` calls `{}({})` (`driver.ll`). At the instruction 0x{:x} gdb shows `{}` as **{}**; the input function gives it **{}** there (dioptra's IR interpreter on `before.ll`){}.\n\n{whose}\n\n`gdb -nx -batch -readnow -x gdb.cmd ./program`:\n\n```text\n{}```\n",
                        c.function,
                        args.join(", "),
                        r.difference.pc,
                        c.variable,
                        r.difference.shown,
                        r.difference.expected,
                        dwarf_text(&r.difference),
                        r.transcript
                    );
                }
                None => {
                    run_text += &format!(
                        "Compiled and run under gdb on {} inputs (the witness among them): gdb showed the variable right on all of them, so on {} this record is wrong only in machine states this target's code did not reach.\n",
                        candidates.len(),
                        setup.triple
                    );
                }
            }
        }
    }
    std::fs::write(d.join("command"), commands.join("\n") + "\n")
        .map_err(|e| format!("{name}/command: {e}"))?;
    let who = match k {
        Some(k) => format!(
            "{}\n\nLLVM function: {}. Upstream: {}.",
            k.what,
            k.function,
            known::upstream_text(k)
        ),
        None => "No known bug explains it: read it by hand.".into(),
    };
    let ir_text = if wrong_in_ir {
        format!(
            "{}\n\n`dioptra rule bug.rules` proves the records differ and re-runs the witness:\n\n```text\n{}\n```",
            c.verdict.reason().unwrap_or_default().lines().next().unwrap_or(""),
            c.verdict.reason().unwrap_or_default(),
        )
    } else {
        format!(
            "In the IR the output's record is right (judged `{}`): the wrong value comes after opt, from the code generator or the debugger (below).",
            c.verdict.word()
        )
    };
    let text = format!(
        "# {name}\n\n{}, variable `{}`, after `{command}` ({}, {}).\n\nThe input's record:\n\n    {}\n\nthe output's:\n\n    {}\n\n{ir_text}\n\n{who}\n\n## Under gdb\n\n{run_text}",
        c.function,
        c.variable,
        setup.opt.version,
        setup.triple,
        c.before,
        c.after,
    );
    std::fs::write(d.join("README.md"), text).map_err(|e| format!("{name}/README.md: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(verdict: Verdict) -> PassRecord {
        (
            "O1".into(),
            Compared {
                function: "f1".into(),
                variable: "v0".into(),
                before: String::new(),
                after: String::new(),
                verdict,
                rule: None,
                source_insts: Vec::new(),
                target_insts: Vec::new(),
                rewritten: Vec::new(),
            },
        )
    }

    fn wrong() -> Verdict {
        Verdict::Wrong {
            models: Vec::new(),
            detail: String::new(),
        }
    }

    #[test]
    fn a_wrong_entry_is_put_down_to_its_record_a_class_or_no_one() {
        let key = ("O1".to_string(), "f1".to_string(), "v0".to_string());
        let at = |class| AtEntry {
            ops: "DW_OP_reg5".into(),
            rule: None,
            verdict: wrong(),
            class,
        };
        let judged = |compared: &[PassRecord], class| {
            let entry: BTreeMap<EntryKey, AtEntry> = [(key.clone(), at(class))].into();
            let e = judge_entries(&entry, compared, &BTreeMap::new());
            (
                e.after_wrong_record,
                e.after_unknown_record,
                e.by_run_bug.values().sum::<usize>(),
                e.unexplained.len(),
            )
        };
        assert_eq!(judged(&[record(wrong())], None), (1, 0, 0, 0));
        assert_eq!(
            judged(&[record(Verdict::Same)], Some("location-before-value")),
            (0, 0, 1, 0)
        );
        assert_eq!(
            judged(&[record(Verdict::Unknown("timeout".into()))], None),
            (0, 1, 0, 0),
            "a record the solver did not decide: no one's"
        );
        assert_eq!(
            judged(&[record(Verdict::Same)], None),
            (0, 0, 0, 1),
            "a record proven right and DWARF wrong: a finding"
        );
    }
}
