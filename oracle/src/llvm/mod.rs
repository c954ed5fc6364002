//! LLVM as the implementation under test: its passes rewrite functions
//! with debug records, and every record of the output is checked against
//! the input's (translation validation, [`validate`]).
//!
//! * [`tools`]: `opt`, `llc` and `llvm-dwarfdump` found by version;
//! * [`module`]: functions written as one module with debug metadata;
//! * [`validate`]: a module before and after a pass, record by record;
//! * [`entry`]: the DWARF `llc` wrote, at each function's entry, against
//!   the records, for every input;
//! * [`known`]: LLVM's known wrong-debug-info bugs, recognised by pattern;
//! * [`target`]: the targets the code generator is run on, and their tools;
//! * [`run_batch`]: one batch of functions through one pass of `opt`.
//!
//! Functions are batched, many to a module, because `opt`'s start-up costs
//! more than a small function's passes.

pub mod codegen;
pub mod demanded;
pub mod entry;
pub mod execute;
pub mod known;
pub mod module;
pub mod readback;
pub mod target;
pub mod tools;
pub mod validate;

use dioptra_semantics::classic::High;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use tools::Tool;
use validate::Compared;

/// What a record of the output says of its variable, against the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The same value for every input, under every upper-bit model.
    Same,
    /// The same wherever the input's record had a value, and a value where
    /// it had none (poison): legal.
    Refines,
    /// A different value for some input: `models` are the upper-bit models
    /// it fails under, `detail` the confirmed counterexample.
    Wrong { models: Vec<High>, detail: String },
    /// LLVM gave the location up (legal; counted).
    Dropped(String),
    /// dioptra cannot state the comparison (an instruction it does not
    /// model): not a pass.
    NotCompared(String),
    /// The solver gave up: not a pass.
    Unknown(String),
}

impl Verdict {
    /// The verdict's word: `same`, `refines`, `wrong`, `dropped`,
    /// `not-compared`, `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Refines => "refines",
            Verdict::Wrong { .. } => "wrong",
            Verdict::Dropped(_) => "dropped",
            Verdict::NotCompared(_) => "not-compared",
            Verdict::Unknown(_) => "unknown",
        }
    }
    /// Why, for the verdicts that have a reason.
    pub fn reason(&self) -> Option<String> {
        match self {
            Verdict::Same | Verdict::Refines => None,
            Verdict::Wrong { models, detail } => {
                let m: Vec<&str> = models.iter().map(|h| h.word()).collect();
                Some(format!("under high {}: {detail}", m.join(", ")))
            }
            Verdict::Dropped(w) | Verdict::NotCompared(w) | Verdict::Unknown(w) => Some(w.clone()),
        }
    }
}

/// The passes `dioptra llvm` runs by default: each alone, then the `-O1`
/// and `-O2` pipelines.
pub const DEFAULT_PASSES: &[&str] = &[
    "instcombine",
    "early-cse",
    "dce",
    "correlated-propagation",
    "sroa",
    "simplifycfg",
    "O1",
    "O2",
];

/// A pass name as `opt -passes=` takes it (`O2` is `default<O2>`).
pub fn pass_pipeline(name: &str) -> String {
    match name {
        "O0" | "O1" | "O2" | "O3" | "Os" | "Oz" => format!("default<{name}>"),
        other => other.to_string(),
    }
}

/// The target's pointer size, from its triple.
pub fn pointer_bits(triple: &str) -> u32 {
    let arch = triple.split('-').next().unwrap_or("");
    match arch {
        "i386" | "i486" | "i586" | "i686" | "arm" | "armv7" | "thumbv7" | "riscv32" | "wasm32"
        | "x86_64_gnux32" => 32,
        _ => 64,
    }
}

/// Does `opt` know `pass`? Runs it on an empty module: the reason when it
/// does not (`unknown pass name 'x'`).
pub fn check_pass(opt: &Tool, pass: &str, work: &std::path::Path) -> Result<(), String> {
    let input = work.join("empty.ll");
    std::fs::write(&input, "").map_err(|e| format!("cannot write {}: {e}", input.display()))?;
    let mut cmd = Command::new(&opt.path);
    cmd.arg("-S")
        .arg(format!("-passes={}", pass_pipeline(pass)))
        .arg(&input);
    let ran = tools::run(cmd, &work.join("empty.out.ll"), Duration::from_secs(30))?;
    if ran.success {
        Ok(())
    } else {
        Err(ran
            .stderr
            .lines()
            .next()
            .unwrap_or("opt failed")
            .to_string())
    }
}

/// What a campaign runs with.
#[derive(Clone, Debug)]
pub struct Setup {
    pub opt: Tool,
    pub triple: String,
    /// Each record comparison's solver limit per query.
    pub timeout_ms: u32,
    /// Where modules are written (kept with `--keep`).
    pub work: PathBuf,
    /// The most `opt` may take on one batch.
    pub opt_limit: Duration,
    /// The code generator and gdb, when the output is also compiled and
    /// run ([`codegen`]).
    pub codegen: Option<codegen::Codegen>,
    /// The campaign's seed (the sampled inputs derive from it).
    pub seed: u64,
    /// Keep each batch's compiled program and gdb files (`--keep`);
    /// otherwise they are removed once read, so a long campaign's disk use
    /// does not grow with its length.
    pub keep: bool,
}

/// One batch through one pass.
#[derive(Debug)]
pub struct Batch {
    pub pass: String,
    pub compared: Vec<Compared>,
    /// Time in `opt` and in the comparison.
    pub opt_time: Duration,
    pub check_time: Duration,
    /// The module files (before, after).
    pub files: (PathBuf, PathBuf),
    /// The output compiled and run under gdb, when the setup asks for it.
    pub codegen: Option<Result<codegen::Outcome, String>>,
}

/// Runs batch `index` (the module text `before`) through `pass` and
/// compares every record.
pub fn run_batch(
    setup: &Setup,
    before: &str,
    index: usize,
    pass: &str,
    cache: &mut HashMap<String, Verdict>,
) -> Result<Batch, String> {
    let tag = pass.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
    // Each pass writes the batch anew (through a rename, so a worker on
    // another pass of the same batch never reads half a file): a kept
    // directory may hold an older campaign's.
    let input = setup.work.join(format!("batch{index}.ll"));
    let fresh = setup.work.join(format!("batch{index}.{tag}.tmp"));
    std::fs::write(&fresh, before)
        .and_then(|()| std::fs::rename(&fresh, &input))
        .map_err(|e| format!("cannot write {}: {e}", input.display()))?;
    let output = setup.work.join(format!("batch{index}.{tag}.ll"));
    let mut cmd = Command::new(&setup.opt.path);
    cmd.arg("-S")
        .arg(format!("-passes={}", pass_pipeline(pass)))
        .arg(&input);
    let ran = tools::run(cmd, &output, setup.opt_limit)?;
    if !ran.success {
        return Err(format!(
            "Llvm: opt-failed: {} -passes={} failed on {}: {}",
            setup.opt.path.display(),
            pass_pipeline(pass),
            input.display(),
            ran.stderr.trim()
        ));
    }
    let started = std::time::Instant::now();
    let after_text = std::fs::read_to_string(&output)
        .map_err(|e| format!("cannot read {}: {e}", output.display()))?;
    let b = crate::ir::parse(before).map_err(|d| format!("the input module: {d}"))?;
    let a = crate::ir::parse(&after_text).map_err(|d| {
        format!(
            "{} wrote a module dioptra cannot read: {d}",
            setup.opt.version
        )
    })?;
    let compared =
        validate::compare_modules(&b, &a, pointer_bits(&setup.triple), setup.timeout_ms, cache);
    let check_time = started.elapsed();
    let codegen = setup.codegen.as_ref().map(|cg| {
        let calls = batch_calls(cg, &b, &compared, &setup.triple, setup.seed);
        let dir = setup.work.join(format!("batch{index}.{tag}.run"));
        let entry = codegen::EntryCheck {
            timeout_ms: setup.timeout_ms,
            cache: &mut *cache,
        };
        let outcome = codegen::check(cg, &b, &output, &calls, &setup.triple, &dir, entry);
        if !setup.keep {
            let _ = std::fs::remove_dir_all(&dir);
        }
        outcome
    });
    Ok(Batch {
        pass: pass.to_string(),
        compared,
        opt_time: ran.time,
        check_time,
        files: (input, output),
        codegen,
    })
}

/// The calls a batch's program makes: each function on the witness of
/// each of its wrong records, then on `cg.inputs` sampled inputs (the same
/// for every pass, so the passes are compared on the same inputs). An
/// input on which the input function has immediate undefined behaviour (a
/// division by zero) is not called: the program may trap, and nothing it
/// shows is wrong.
pub fn batch_calls(
    cg: &codegen::Codegen,
    before: &crate::ir::Module,
    compared: &[Compared],
    triple: &str,
    seed: u64,
) -> Vec<codegen::Call> {
    let bits = pointer_bits(triple);
    let mut calls: Vec<codegen::Call> = Vec::new();
    for f in &before.functions {
        let mut inputs: Vec<Vec<dioptra_semantics::bits::Bits>> = Vec::new();
        for c in compared.iter().filter(|c| c.function == f.name) {
            let Verdict::Wrong { detail, .. } = &c.verdict else {
                continue;
            };
            let witness = detail.lines().find(|l| l.starts_with("witness "));
            if let Some(args) = witness.and_then(|w| codegen::witness_input(f, w, bits)) {
                inputs.push(args);
            }
        }
        let salt = f
            .name
            .bytes()
            .fold(seed, |h, b| crate::sample::splitmix64(h ^ u64::from(b)));
        inputs.extend(codegen::sample_inputs(f, bits, salt, cg.inputs));
        let mut seen = std::collections::HashSet::new();
        for args in inputs {
            let defined = || execute::run(before, f, &args, bits).undefined.is_none();
            if seen.insert(args.clone()) && defined() {
                calls.push(codegen::Call {
                    function: f.name.clone(),
                    args,
                });
            }
        }
    }
    calls
}
