//! `dioptra fuzz`: the laws of the law table (`dioptra_properties::table`)
//! as campaigns on every core, and `gdb` through a real debugger.

use dioptra_properties::laws::set_solver_ms;
use dioptra_properties::table::{law, names, AnyLaw, Campaign, Extent, Plan, LAWS};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub struct Options {
    pub property: String,
    pub cases: u32,
    pub time: Option<String>,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub solver_ms: u32,
    pub list: bool,
}

/// How long a run goes before it shows a progress line.
const QUIET_FOR: Duration = Duration::from_secs(2);

/// The most worker threads (`--jobs`).
const MAX_JOBS: usize = 256;

/// `90`, `90s`, `5m`, `1h`.
fn duration(text: &str) -> Option<Duration> {
    let t = text.trim();
    let (n, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(k) => (&t[..k], &t[k..]),
        None => (t, "s"),
    };
    let n: u64 = n.parse().ok()?;
    let secs = match unit {
        "s" => n,
        "m" => n.checked_mul(60)?,
        "h" => n.checked_mul(3600)?,
        _ => return None,
    };
    (secs > 0 && secs <= 7 * 24 * 3600).then(|| Duration::from_secs(secs))
}

pub fn cmd_fuzz(o: &Options) -> ExitCode {
    if o.list {
        for l in LAWS {
            outln!("{}\t{}", l.name(), l.says());
        }
        outln!("gdb\ta real gdb reads the plain DWARF 5 of generated cases as dioptra says (needs gdb)");
        outln!("llvm\tevery debug record LLVM's passes write describes the value its input record did, or is a known LLVM bug (needs opt)");
        return ExitCode::SUCCESS;
    }
    if o.property == "llvm" {
        // Generated functions through opt, as `dioptra llvm --generated N`:
        // the campaign batches its own cases.
        if o.time.is_some() {
            errln!("Fuzz: not-for-llvm: --time applies to the laws, not to --property llvm");
            return ExitCode::from(2);
        }
        return crate::llvm::cmd_llvm(&crate::llvm::Options {
            generated: u64::from(o.cases),
            seed: o.seed,
            first: 0,
            passes: None,
            target: "x86_64-pc-linux-gnu".into(),
            llvm: None,
            batch: 100,
            jobs: o.jobs,
            solver_ms: o.solver_ms,
            keep: None,
            emit_repro: None,
            inputs: 4,
            run: true,
            i128: false,
            json: false,
        });
    }
    if o.property == "gdb" {
        // The gdb harness builds one program of all its cases: it has no
        // workers, no deadline and no solver.
        if o.time.is_some() || o.jobs.is_some() {
            errln!("Fuzz: not-for-gdb: --time and --jobs apply to the laws, not to --property gdb");
            return ExitCode::from(2);
        }
        return crate::gdb::cmd_gdb(&[], o.cases, o.seed, None, false, false);
    }
    let laws: Vec<&dyn AnyLaw> = if o.property == "all" {
        LAWS.to_vec()
    } else if let Some(l) = law(&o.property) {
        vec![l]
    } else {
        errln!(
            "Fuzz: unknown-property: `{}`; the laws are {}, all, gdb and llvm",
            o.property,
            names().join(", ")
        );
        return ExitCode::from(2);
    };
    let time = match o.time.as_deref().map(|t| (t, duration(t))) {
        None => None,
        Some((_, Some(d))) => Some(d),
        Some((t, None)) => {
            errln!("Fuzz: bad-duration: `{t}`: write 90, 90s, 5m or 1h (at most a week)");
            return ExitCode::from(2);
        }
    };
    let jobs = match o.jobs {
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(j) if (1..=MAX_JOBS).contains(&j) => j,
        Some(j) => {
            errln!("Fuzz: bad-jobs: {j}: between 1 and {MAX_JOBS}");
            return ExitCode::from(2);
        }
    };
    set_solver_ms(o.solver_ms);
    let started = Instant::now();
    let bar = progress_bar(time, o.cases, laws.len());
    let shown = AtomicBool::new(false);
    let tick = || {
        if !shown.load(Ordering::Relaxed) && started.elapsed() > QUIET_FOR {
            shown.store(true, Ordering::Relaxed);
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.inc(1);
    };
    let (mut held, mut failed) = (0, 0);
    let mut spent = Vec::new();
    for (k, l) in laws.iter().enumerate() {
        bar.set_message(l.name());
        let extent = match time {
            // Each law its share of what is left.
            Some(t) => Extent::Until(
                Instant::now() + t.saturating_sub(started.elapsed()) / (laws.len() - k) as u32,
            ),
            None => Extent::Cases(o.cases),
        };
        let t = Instant::now();
        let c = l.run_plan(&Plan {
            extent,
            seed: o.seed,
            jobs,
            progress: Some(&tick),
        });
        spent.push((l.name(), c.cases, t.elapsed()));
        bar.suspend(|| {
            if verdict(&c) {
                held += 1;
            } else {
                failed += 1;
            }
        });
    }
    bar.finish_and_clear();
    let total = started.elapsed();
    if laws.len() > 1 {
        outln!(
            "time per law ({jobs} jobs, {:.1} s in all):",
            total.as_secs_f64()
        );
        for (name, cases, t) in &spent {
            outln!(
                "  {name}: {cases} cases in {:.1} s ({:.0}%)",
                t.as_secs_f64(),
                100.0 * t.as_secs_f64() / total.as_secs_f64().max(1e-9)
            );
        }
    }
    outln!("{held} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Cases done, rate and time left, on standard error once the run has
/// gone on for [`QUIET_FOR`] (indicatif draws nothing where standard
/// error is not a terminal).
fn progress_bar(time: Option<Duration>, cases: u32, laws: usize) -> ProgressBar {
    let bar = match time {
        Some(_) => ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
        None => ProgressBar::with_draw_target(
            Some(u64::from(cases) * laws as u64),
            ProgressDrawTarget::hidden(),
        ),
    };
    let template = match time {
        Some(t) => format!(
            "{{elapsed_precise}} of {} {{pos}} cases ({{per_sec}}) {{msg}}",
            humanize(t)
        ),
        None => "{elapsed_precise} [{bar:30}] {pos}/{len} cases ({per_sec}, {eta} left) {msg}"
            .to_string(),
    };
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn humanize(t: Duration) -> String {
    let s = t.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Prints a campaign's line; whether the law held. A law where most cases
/// were not compared has not held: it is NOT CHECKED.
fn verdict(c: &Campaign) -> bool {
    let not_compared = c.not_compared();
    match &c.counterexample {
        None if not_compared * 2 > c.cases => {
            outln!(
                "{}: NOT CHECKED: of {} cases {} are unsupported and {} unknown",
                c.law,
                c.cases,
                c.unsupported,
                c.unknown
            );
            false
        }
        None if not_compared > 0 => {
            outln!(
                "{}: {} of {} cases held; {} unsupported, {} unknown (neither counts as a pass)",
                c.law,
                c.cases - not_compared,
                c.cases,
                c.unsupported,
                c.unknown
            );
            true
        }
        None => {
            outln!("{}: {} cases held", c.law, c.cases);
            true
        }
        Some(text) => {
            outln!("{}: FAILED; paste into corpus/regressions/:\n{text}", c.law);
            false
        }
    }
}
