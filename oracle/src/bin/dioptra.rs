//! The `dioptra` command line (DESIGN.md, "CLI contract").
//!
//! Exit codes: 0 holds / success, 1 the checked thing fails (ill-formed,
//! evaluation error, unsupported, failing cases), 2 usage or malformed input,
//! 3 unknown.

use clap::{Args, Parser, Subcommand};
use dioptra_oracle::protocol::answer_line;
use dioptra_oracle::render::value_text;
use dioptra_oracle::script::{run_files, External, Reference, Responder};
use dioptra_properties::{run_law, LAWS};
use dioptra_semantics::classic::any::{parse_any, prove_any, AnyExpr};
use dioptra_semantics::classic::Params;
use dioptra_semantics::context::Context as _;
use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::dwarf::{encode, Encoding};
use dioptra_semantics::lifetime::locate::Analysis;
use dioptra_semantics::lifetime::parse_module;
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::lifetime::wellformed::check_module;
use dioptra_semantics::text::parse_type;
use dioptra_semantics::types::DataLayout;
use serde_json::json;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "dioptra",
    version,
    about = "Reference semantics and conformance oracle for LLVM debug-information location expressions"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Well-formedness: prints the result type or the diagnostic.
    Check {
        /// Expression text, or @FILE.
        expr: String,
        #[command(flatten)]
        sig: SigArgs,
        #[command(flatten)]
        classic: ClassicArgs,
        /// For a DIOp expression: also print the classic DW_OP expression
        /// describing the same location, where one exists.
        #[arg(long = "to-classic")]
        to_classic: bool,
        #[arg(long)]
        json: bool,
    },
    /// SMT: do SOURCE and TARGET describe the same location in every context?
    /// Exit 0 equivalent (or, with --refines, TARGET refines SOURCE), 1 not,
    /// 3 unknown (the solver gave up).
    Equiv {
        /// The source expression, or @FILE.
        source: String,
        /// The target expression, or @FILE.
        target: String,
        #[command(flatten)]
        sig: SigArgs,
        /// Succeed when TARGET refines SOURCE (may be undefined where SOURCE
        /// is defined, never a different location).
        #[arg(long)]
        refines: bool,
        /// Time limit per solver query, in milliseconds.
        #[arg(long, default_value_t = dioptra_semantics::smt::DEFAULT_TIMEOUT_MS)]
        timeout_ms: u32,
        #[command(flatten)]
        classic: ClassicArgs,
        #[arg(long)]
        json: bool,
    },
    /// Canonicalizes an expression with the proven rule table; prints the
    /// canonical expression (and, with --verbose, each rewrite).
    Canon {
        /// Expression text, or @FILE.
        expr: String,
        #[command(flatten)]
        sig: SigArgs,
        /// Print each rewrite (rule and op index).
        #[arg(long)]
        verbose: bool,
        #[command(flatten)]
        classic: ClassicArgs,
        #[arg(long)]
        json: bool,
    },
    /// Checks rewrite rules (corpus/rules/README.md) for every instantiation:
    /// one line per rule, valid / invalid + counterexample / unknown.
    Rule {
        /// Rule files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print every counterexample and reason in full.
        #[arg(long)]
        verbose: bool,
        /// Time limit per solver query, in milliseconds.
        #[arg(long, default_value_t = dioptra_semantics::smt::DEFAULT_TIMEOUT_MS)]
        timeout_ms: u32,
        /// Worker threads (each with its own solver context).
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long)]
        json: bool,
    },
    /// Lowers to DWARF (AMD's extensions or plain DWARF 5): prints the listing in llvm-dwarfdump style.
    Lower {
        /// Expression text, or @FILE.
        expr: String,
        /// Where the inputs are (a (context ...) file); also checks the lowering law there.
        #[arg(long)]
        context: Option<PathBuf>,
        /// amdgpu (DWARF 5 + AMD's extensions) or dwarf5 (plain DWARF 5).
        #[arg(long, default_value = "amdgpu")]
        target: String,
        /// Print the expression as hex bytes.
        #[arg(long)]
        hex: bool,
        /// Encode AMD's operations with the older single-byte opcodes.
        #[arg(long = "single-byte")]
        single_byte: bool,
        /// Contexts (variants of --context) in which the law is checked (at most 100 000).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(0..=100_000))]
        variants: u32,
        #[command(flatten)]
        classic: ClassicArgs,
        #[arg(long)]
        json: bool,
    },
    /// Does some DWARF (hex bytes or a listing, or @FILE) describe the same location as an expression?
    DwarfEquiv {
        /// Expression text, or @FILE.
        expr: String,
        /// DWARF as hex bytes (`91 08`), or an llvm-dwarfdump-style listing, or @FILE.
        dwarf: String,
        /// Where the inputs are (a (context ...) file).
        #[arg(long)]
        context: PathBuf,
        /// Variants of the context (other register and memory contents) to compare in (at most 100 000).
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(0..=100_000))]
        variants: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Read AMD's operations in the older single-byte encoding.
        #[arg(long = "single-byte")]
        single_byte: bool,
        #[command(flatten)]
        classic: ClassicArgs,
        #[arg(long)]
        json: bool,
    },
    /// Evaluates in a context: prints the location description and, where readable, the value.
    Eval {
        /// Expression text, or @FILE.
        expr: String,
        /// A context file: one (context ...) form (see corpus/README.md).
        #[arg(long)]
        context: PathBuf,
        #[command(flatten)]
        classic: ClassicArgs,
        #[arg(long)]
        json: bool,
    },
    /// Runs conformance scripts against the reference or an external implementation.
    Run {
        /// Script files or directories (searched for *.dioptra).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// An implementation speaking the line protocol on stdin/stdout.
        #[arg(long = "impl")]
        imp: Option<String>,
        /// Seconds to wait for each answer of an external implementation.
        #[arg(long, default_value_t = 10)]
        timeout: u64,
        /// Print every case, not only the failures.
        #[arg(long)]
        verbose: bool,
        #[arg(long)]
        json: bool,
    },
    /// Checks a module listing with lifetimes; prints each object's location at each program point.
    Lifetimes {
        /// The listing: LLVM IR with llvm.dbg.def/kill/label, or pseudo MIR with DBG_DEF/DBG_KILL/DBG_LABEL.
        file: PathBuf,
        /// Only this program point: the listing line of an instruction.
        #[arg(long)]
        at: Option<u32>,
        /// A context file: memory, registers, and (bind "%x" "LOC") for LLVM entities.
        #[arg(long)]
        context: Option<PathBuf>,
        /// Defs are local to their block (the reading after LiveDebugValues).
        #[arg(long = "block-local")]
        block_local: bool,
        /// Lower to DWARF location lists for this target (amdgpu or dwarf5) and
        /// check them at every point against the listing's locations.
        #[arg(long)]
        lower: Option<String>,
        /// With --lower: context variants to check in besides the context (at most 100000).
        #[arg(long, default_value_t = 16)]
        variants: usize,
        #[arg(long)]
        json: bool,
    },
    /// Gives a listing in the multi-location proposal's form (key, added and
    /// removed locations) meaning through lifetimes: prints the translation
    /// to llvm.dbg.def/kill and checks that the proposal's current locations
    /// and the active segments agree at every program point.
    Multiloc {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Runs the laws with the generators; prints any counterexample as corpus cases.
    Fuzz {
        /// The law (a name from the README's table of laws, e.g.
        /// lowering-preserves-location), `all` (every law but gdb), or `gdb`
        /// (generated cases through a real gdb, as `dioptra gdb --generated`).
        #[arg(long, default_value = "all")]
        property: String,
        #[arg(long, default_value_t = 1000)]
        cases: u32,
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Answers the line protocol on stdin/stdout as the reference implementation.
    Serve,
    /// Real-debugger conformance: builds one x86-64 program holding every
    /// case's machine state, attaches the cases' plain DWARF 5, and checks
    /// that gdb reads, byte by byte, what dioptra says. Exit 0 agreement, 1
    /// differences, 3 not checked (no gdb or toolchain, or no lldb with
    /// --lldb).
    Gdb {
        /// Script files or directories: every case that lowers to plain
        /// DWARF 5 in its context, hand-written DWARF and modules.
        paths: Vec<PathBuf>,
        /// Also this many generated expressions (and an eighth as many
        /// generated lifetime programs).
        #[arg(long, default_value_t = 0)]
        generated: u32,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Keep the program, the DWARF and gdb's transcript in this directory.
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Ask lldb too, as a third opinion on the basic subset (no bit
        /// pieces, typed operations or DW_OP_mod).
        #[arg(long)]
        lldb: bool,
        #[arg(long)]
        json: bool,
    },
}

fn exit_for(o: Outcome) -> u8 {
    match o {
        Outcome::Malformed => 2,
        _ => 1,
    }
}

/// Reads `@FILE` or returns the text itself.
fn expr_text(arg: &str) -> Result<String, Diag> {
    match arg.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| Diag::malformed("Input", "unreadable", format!("{path}: {e}"))),
        None => Ok(arg.to_string()),
    }
}

fn report(d: &Diag, json: bool) -> ExitCode {
    if json {
        println!(
            "{}",
            json!({"outcome": d.outcome.word(), "diagnostics": [{
                "construct": d.construct, "reason": d.reason, "message": d.message, "text": d.to_string()}]})
        );
    } else {
        eprintln!("{d}");
    }
    ExitCode::from(exit_for(d.outcome))
}

/// The static signature flags shared by `check`, `equiv` and `canon`.
/// The parameters of a classic `!DIExpression(DW_OP_...)` (ignored for
/// DIOp expressions).
#[derive(Args, Debug, Default)]
struct ClassicArgs {
    /// The intrinsic the classic expression belongs to: value, declare, addr.
    #[arg(long, default_value = "value")]
    intrinsic: String,
    /// What the bits above a narrow operand hold when pushed: zero, sign.
    #[arg(long, default_value = "zero")]
    high: String,
    /// The variable's (or fragment's) type: what the result is read as.
    #[arg(long)]
    variable: Option<String>,
}

impl ClassicArgs {
    fn params(&self) -> Result<Params, Diag> {
        Params::from_words(
            Some(&self.intrinsic),
            Some(&self.high),
            self.variable.as_deref(),
        )
    }
}

#[derive(Args, Debug)]
struct SigArgs {
    /// The referrer's type (the expression belongs to a bounded lifetime segment).
    #[arg(long)]
    referrer: Option<String>,
    /// An input's type (argObjects), repeated in order.
    #[arg(long = "arg")]
    args: Vec<String>,
    /// The type whose property is evaluated (DIOpTypeObject).
    #[arg(long = "type-object")]
    type_object: Option<String>,
    /// The target is not SIMD/SIMT (DIOpPushLane is then ill-formed).
    #[arg(long = "no-simt")]
    no_simt: bool,
    /// LLVM data layout string; only pointer sizes are read (default: AMDGPU's).
    #[arg(long)]
    datalayout: Option<String>,
}

impl SigArgs {
    fn signature(self) -> Result<Signature, Diag> {
        let layout = match self.datalayout {
            Some(s) => DataLayout::parse(&s)?,
            None => DataLayout::default(),
        };
        let ty = |s: &str| -> Result<_, Diag> {
            let t = parse_type(s)?;
            layout.check_size(&t)?;
            Ok(t)
        };
        Ok(Signature {
            referrer: self.referrer.as_deref().map(ty).transpose()?,
            args: self.args.iter().map(|a| ty(a)).collect::<Result<_, _>>()?,
            type_object: self.type_object.as_deref().map(ty).transpose()?,
            simt: !self.no_simt,
            layout,
        })
    }
}

fn cmd_check(
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
                println!(
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
                    Some((o, s)) => println!("{ty} (fragment: bits {o}..{})", o + s),
                    None => println!("{ty}"),
                }
                match translation {
                    Some(Ok(d)) => println!("translation: {d}"),
                    Some(Err(d)) => println!("translation: none: {d}"),
                    None => {}
                }
            }
            ExitCode::SUCCESS
        }
        Err(d) => report(&d, json),
    }
}

fn cmd_canon(
    expr: &str,
    sig: Result<Signature, Diag>,
    classic: &ClassicArgs,
    verbose: bool,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::canon::canonicalize;
    let run = || -> Result<_, Diag> {
        let sig = sig?;
        let e = parse_any(&expr_text(expr)?)?.to_diop(&sig, &classic.params()?)?;
        canonicalize(&e, &sig)
    };
    match run() {
        Ok((c, steps)) => {
            if json {
                let steps: Vec<_> = steps
                    .iter()
                    .map(|s| json!({"rule": s.rule, "at": s.at}))
                    .collect();
                println!(
                    "{}",
                    json!({"outcome": "ok", "canonical": c.to_string(), "steps": steps})
                );
            } else {
                if verbose {
                    for s in &steps {
                        println!("{} at op {}", s.rule, s.at);
                    }
                }
                println!("{c}");
            }
            ExitCode::SUCCESS
        }
        Err(d) => report(&d, json),
    }
}

fn cmd_rule(
    files: &[PathBuf],
    verbose: bool,
    timeout_ms: u32,
    threads: usize,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::rules::{check_rule, parse_rules};
    let mut reports = Vec::new();
    for f in files {
        let rules = std::fs::read_to_string(f)
            .map_err(|e| Diag::malformed("Rule", "unreadable", format!("{}: {e}", f.display())))
            .and_then(|text| parse_rules(&f.display().to_string(), &text));
        let rules = match rules {
            Ok(r) => r,
            Err(d) => return report(&d, json),
        };
        for r in &rules {
            match check_rule(r, timeout_ms, threads) {
                Ok(rep) => {
                    if !json {
                        println!(
                            "{:<8} {}  ({} of {} instances apply, {:.1} s)",
                            rep.verdict,
                            rep.name,
                            rep.applicable,
                            rep.instances,
                            rep.time.as_secs_f64()
                        );
                        if let Some(d) = &rep.detail {
                            if verbose {
                                for l in d.lines() {
                                    println!("    {l}");
                                }
                                if rep.verdict == "invalid" && !r.explain.is_empty() {
                                    println!("    why: {}", r.explain);
                                }
                            } else {
                                println!("    {}", d.lines().next().unwrap_or(""));
                            }
                        }
                    }
                    reports.push(rep);
                }
                Err(d) => return report(&d, json),
            }
        }
    }
    if json {
        let rules: Vec<_> = reports
            .iter()
            .map(|r| {
                json!({"rule": r.name, "verdict": r.verdict, "instances": r.instances,
                    "applicable": r.applicable, "detail": r.detail, "explain": r.explain,
                    "witnesses": r.witnessed, "seconds": r.time.as_secs_f64()})
            })
            .collect();
        println!("{}", json!({ "rules": rules }));
    }
    let code = if reports.iter().any(|r| r.verdict == "invalid") {
        1
    } else if reports.iter().any(|r| r.verdict == "unknown") {
        3
    } else {
        0
    };
    ExitCode::from(code)
}

fn cmd_equiv(
    source: &str,
    target: &str,
    sig: Result<Signature, Diag>,
    classic: &ClassicArgs,
    refines: bool,
    timeout_ms: u32,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::equiv::{counterexample_script, Verdict};
    let run = || -> Result<_, Diag> {
        let sig = sig?;
        let p = classic.params()?;
        let (st, tt) = (expr_text(source)?, expr_text(target)?);
        let (s, t) = (parse_any(&st)?, parse_any(&tt)?);
        Ok((prove_any(&s, &t, &sig, &p, timeout_ms)?, st, tt))
    };
    let (proved, st, tt) = match run() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    let v = &proved.verdict;
    let (detail, cex) = match v {
        Verdict::Equivalent => (String::new(), None),
        Verdict::Refines(c) => (
            "the target refines the source: it is undefined in some contexts where the source is defined, never a different location".to_string(),
            Some(counterexample_script(c, &st, &tt)),
        ),
        Verdict::NotEquivalent(c) => (String::new(), Some(counterexample_script(c, &st, &tt))),
        Verdict::Different(why) | Verdict::Unknown(why) => (why.clone(), None),
    };
    let code = match v {
        Verdict::Equivalent => 0,
        Verdict::Refines(_) if refines => 0,
        Verdict::Unknown(_) => 3,
        _ => 1,
    };
    if json {
        println!(
            "{}",
            json!({"outcome": v.word(), "detail": detail, "counterexample": cex,
                "solver_ms": proved.solver_time.as_secs_f64() * 1e3})
        );
    } else {
        println!("{}", v.word());
        if !detail.is_empty() {
            println!("{detail}");
        }
        if let Some(c) = cex {
            println!("counterexample (confirmed by the interpreter):\n{c}");
        }
    }
    ExitCode::from(code)
}

fn read_context(path: &PathBuf) -> Result<ConcreteContext, Diag> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Diag::malformed("Context", "unreadable", format!("{}: {e}", path.display()))
    })?;
    ConcreteContext::parse(&text)
}

fn encoding(single_byte: bool) -> Encoding {
    Encoding {
        amd_single_byte: single_byte,
        ..Encoding::default()
    }
}

#[allow(clippy::too_many_arguments)]
fn cmd_lower(
    expr: &str,
    classic: &ClassicArgs,
    context: Option<&PathBuf>,
    target: &str,
    hex: bool,
    single_byte: bool,
    variants: usize,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::lowering::{compare_many, lower, Target};
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
        println!(
            "{}",
            json!({"outcome": "ok", "listing": l.listing.print(enc), "hex": hex_text,
                "dies": l.listing.unit.lines(enc), "offset": l.offset, "bits": l.bits,
                "law": tally.as_ref().map(|t| json!({"same": t.same, "both_fail": t.both_fail,
                    "more_defined": t.more_defined, "differ": t.differ, "not_compared": t.not_compared}))})
        );
    } else {
        if hex {
            println!("{hex_text}");
            for line in l.listing.unit.lines(enc) {
                println!("{line}");
            }
        } else {
            println!("{}", l.listing.print(enc));
        }
        if let Some(t) = &tally {
            eprintln!("law: {}", t.summary());
            if let Some((c, a)) = &t.first_difference {
                eprintln!("{}\n{}", a.describe(), c.to_script("cex"));
            }
        }
    }
    ExitCode::from(if differ { 1 } else { 0 })
}

#[allow(clippy::too_many_arguments)]
fn cmd_dwarf_equiv(
    expr: &str,
    classic: &ClassicArgs,
    dwarf: &str,
    context: &PathBuf,
    variants: usize,
    seed: u64,
    single_byte: bool,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::lowering::{dwarf_equiv, parse_dwarf};
    let enc = encoding(single_byte);
    let run = || -> Result<_, Diag> {
        let ctx = read_context(context)?;
        let e = parse_any(&expr_text(expr)?)?.to_diop(&ctx.signature(), &classic.params()?)?;
        let listing = parse_dwarf(&expr_text(dwarf)?, enc)?;
        dwarf_equiv(&e, listing, &ctx, enc, variants, seed)
    };
    let t = match run() {
        Ok(t) => t,
        Err(d) => return report(&d, json),
    };
    let (word, code) = if t.differ > 0 {
        ("differ", 1)
    } else if t.compared() == 0 {
        ("unknown", 3)
    } else {
        ("same", 0)
    };
    let cex = t
        .first_difference
        .as_ref()
        .map(|(c, a)| (a.describe(), c.to_script("cex")));
    if json {
        println!(
            "{}",
            json!({"outcome": word, "same": t.same, "both_fail": t.both_fail,
                "more_defined": t.more_defined, "differ": t.differ, "not_compared": t.not_compared,
                "difference": cex.as_ref().map(|(d, _)| d), "counterexample": cex.as_ref().map(|(_, c)| c)})
        );
    } else {
        println!("{word}");
        println!(
            "{} (tested in {} contexts, not proved)",
            t.summary(),
            t.compared() + t.not_compared
        );
        if let Some((d, c)) = cex {
            println!("{d}\n{c}");
        }
    }
    ExitCode::from(code)
}

fn cmd_eval(expr: &str, context: &PathBuf, classic: &ClassicArgs, json: bool) -> ExitCode {
    let run = || -> Result<_, Diag> {
        let text = std::fs::read_to_string(context).map_err(|e| {
            Diag::malformed(
                "Context",
                "unreadable",
                format!("{}: {e}", context.display()),
            )
        })?;
        let ctx = ConcreteContext::parse(&text)?;
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
                println!(
                    "{}",
                    json!({"outcome": "ok", "type": r.ty.to_string(), "location": r.loc.to_string(),
                        "value": v, "fragment": r.fragment.map(|(o, s)| json!({"offset": o, "size": s}))})
                );
            } else {
                println!("type: {}", r.ty);
                println!("location: {}", r.loc);
                match &value {
                    Ok(b) => println!("value: {}", value_text(&r.ty, b)),
                    Err(d) => println!("value: not readable: {d}"),
                }
                if let Some((o, s)) = r.fragment {
                    println!("fragment: bits {o}..{}", o + s);
                }
            }
            ExitCode::SUCCESS
        }
        Err(d) => report(&d, json),
    }
}

fn cmd_run(
    paths: &[PathBuf],
    imp: Option<String>,
    timeout: u64,
    verbose: bool,
    json: bool,
) -> ExitCode {
    let mut external;
    let mut reference = Reference;
    let responder: &mut dyn Responder = match &imp {
        Some(cmd) => match External::start(cmd, Duration::from_secs(timeout)) {
            Ok(e) => {
                external = e;
                &mut external
            }
            Err(m) => {
                eprintln!("{m}");
                return ExitCode::from(2);
            }
        },
        None => &mut reference,
    };
    let s = run_files(paths, responder);
    if json {
        println!(
            "{}",
            json!({"scripts": s.scripts, "passed": s.passed, "failed": s.failed, "failures": s.failures,
                "rules": s.rules, "rules_skipped": s.rules_skipped, "in_process_skipped": s.in_process_skipped})
        );
    } else {
        if verbose {
            for (c, o) in &s.cases {
                println!("{}:{}: {:?}", c.file, c.line, o);
            }
        }
        for f in &s.failures {
            println!("FAIL {f}");
        }
        println!("{} scripts", s.scripts);
        if s.rules > 0 {
            println!("{} of the cases are rewrite rules (corpus/rules)", s.rules);
        }
        if s.rules_skipped > 0 {
            println!(
                "{} rewrite rules not checked: only the reference checks rules",
                s.rules_skipped
            );
        }
        if s.in_process_skipped > 0 {
            println!(
                "{} DWARF, multi-location and join cases not checked: only the reference checks them",
                s.in_process_skipped
            );
        }
        println!("{} passed, {} failed", s.passed, s.failed);
    }
    if s.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn read_text(path: &PathBuf, construct: &str) -> Result<String, Diag> {
    std::fs::read_to_string(path).map_err(|e| {
        Diag::malformed(
            construct.to_string(),
            "unreadable",
            format!("{}: {e}", path.display()),
        )
    })
}

/// `lifetimes FILE --lower TARGET`: the module's location lists, and the
/// lifetime law at every point in the context and its variants.
fn cmd_lower_module(
    file: &PathBuf,
    target: &str,
    context: Option<&PathBuf>,
    variants: usize,
    json: bool,
) -> ExitCode {
    use dioptra_semantics::dwarf::loclist::{compare_module, lower_module};
    use dioptra_semantics::dwarf::lower::Target;
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
                println!(
                    "{}",
                    json!({"outcome": "unknown", "listing": listing, "law": d.to_string()})
                );
            } else {
                println!("{listing}");
                eprintln!("law: NOT CHECKED: {d}");
            }
            return ExitCode::from(3);
        }
    };
    let outcome = if tally.differ > 0 {
        "differ"
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
        println!(
            "{}",
            json!({"outcome": outcome, "listing": listing, "not_expressible": ne,
                "law": tally.summary(), "difference": first})
        );
    } else {
        println!("{listing}");
        for (o, d) in &lowered.not_expressible {
            eprintln!("{o}: {d}");
        }
        eprintln!("law: {}", tally.summary());
        if let Some(f) = &first {
            eprintln!("{f}");
        }
    }
    ExitCode::from(if outcome == "ok" { 0 } else { 1 })
}

fn cmd_multiloc(file: &PathBuf, json: bool) -> ExitCode {
    use dioptra_semantics::lifetime::multiloc::{agreement, parse_listing};
    let run = || -> Result<_, Diag> {
        let l = parse_listing(&read_text(file, "Module")?)?;
        agreement(&l)
    };
    let (t, a) = match run() {
        Ok(x) => x,
        Err(d) => return report(&d, json),
    };
    let verdict = match &a.difference {
        None => format!("agrees at {} program points", a.points),
        Some((line, want, got)) => format!(
            "differs at line {line}: the proposal makes current the calls on lines {want:?}, the lifetimes those on lines {got:?}"
        ),
    };
    if json {
        println!(
            "{}",
            json!({"translation": t.text, "points": a.points, "agrees": a.difference.is_none(), "verdict": verdict})
        );
    } else {
        print!("{}", t.text);
        println!("; {verdict}");
    }
    ExitCode::from(if a.difference.is_none() { 0 } else { 1 })
}

fn cmd_lifetimes(
    file: &PathBuf,
    at: Option<u32>,
    context: Option<&PathBuf>,
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
            println!("{}", json!({"outcome": "ill-formed", "diagnostics": list}));
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
        println!("{o}{name}:");
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
            println!("  {lines}: {}", rows[k].2);
            k = e + 1;
        }
    }
    if json {
        println!("{}", json!({"outcome": "ok", "objects": objects_json}));
    }
    ExitCode::SUCCESS
}

/// `dioptra gdb`: the corpus (and generated cases) through a real gdb.
fn cmd_gdb(
    paths: &[PathBuf],
    generated: u32,
    seed: u64,
    keep: Option<PathBuf>,
    lldb: bool,
    json: bool,
) -> ExitCode {
    use dioptra_properties::gdb::{check, generated_cases, machine::mmap_min_addr};
    if paths.is_empty() && generated == 0 {
        eprintln!("Gdb: usage: name script paths, or --generated N");
        return ExitCode::from(2);
    }
    let min_addr = mmap_min_addr();
    let mut collected = match dioptra_oracle::gdb::corpus_cases(paths, min_addr) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if generated > 0 {
        let (cases, skipped) = generated_cases(generated, seed, min_addr);
        collected.cases.extend(cases);
        for (k, n) in skipped {
            collected
                .skipped
                .entry(k)
                .or_insert((0, "generated".into()))
                .0 += n;
        }
    }
    let kept = keep.is_some();
    let dir = keep.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("dioptra-gdb-{}", std::process::id()))
    });
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("Gdb: unwritable: {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let result = check(&collected.cases, &dir, lldb);
    if !kept {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            println!("gdb: NOT CHECKED: {e}");
            return ExitCode::from(3);
        }
    };
    if json {
        let skipped: serde_json::Map<String, serde_json::Value> = collected
            .skipped
            .iter()
            .map(|(k, (n, first))| (k.to_string(), json!({"count": n, "first": first})))
            .collect();
        let findings = |f: &[dioptra_properties::gdb::Finding]| {
            f.iter()
                .map(|f| json!({"case": f.label, "what": f.what, "source": f.source, "dwarf": f.listing, "context": f.context}))
                .collect::<Vec<_>>()
        };
        println!(
            "{}",
            json!({
                "outcome": if report.holds() { "agree" } else { "differ" },
                "gdb": report.gdb, "cases": report.cases, "readings": report.readings,
                "agree": report.agree, "both_fail": report.both_fail,
                "known": report.known, "differ": findings(&report.differ),
                "law": findings(&report.law), "skipped": skipped,
                "lldb": match &report.lldb {
                    None => serde_json::Value::Null,
                    Some(Err(e)) => json!({"not_checked": e}),
                    Some(Ok(o)) => json!({
                        "version": o.version, "readings": o.readings, "agree": o.agree,
                        "both_fail": o.both_fail, "known": o.known,
                        "differ": findings(&o.differ), "left_out": o.left_out,
                    }),
                },
                "seconds": report.elapsed.as_secs_f64(), "readings_per_second": report.rate(),
            })
        );
    } else {
        println!("gdb: {}", report.summary());
        for (k, (n, first)) in &collected.skipped {
            println!("  left out: {n} {k} (first: {first})");
        }
        match &report.lldb {
            Some(Ok(o)) => println!("lldb: {}", o.summary()),
            Some(Err(e)) => println!("lldb: NOT CHECKED: {e}"),
            None => {}
        }
        let lldb_differ = match &report.lldb {
            Some(Ok(o)) => &o.differ[..],
            _ => &[],
        };
        for f in report.law.iter().chain(&report.differ).chain(lldb_differ) {
            println!("\n{}: {}", f.label, f.what);
            if !f.source.is_empty() {
                println!("{}", f.source);
            }
            println!("{}\n{}", f.listing, f.context);
        }
    }
    if !report.holds() {
        ExitCode::from(1)
    } else if matches!(report.lldb, Some(Err(_))) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

fn cmd_fuzz(property: &str, cases: u32, seed: u64) -> ExitCode {
    if property == "gdb" {
        return cmd_gdb(&[], cases, seed, None, false, false);
    }
    let laws: Vec<&str> = if property == "all" {
        LAWS.to_vec()
    } else {
        vec![property]
    };
    let (mut held, mut failed) = (0, 0);
    for law in laws {
        let Some(c) = run_law(law, cases, seed) else {
            eprintln!(
                "Fuzz: unknown-property: `{law}`; the laws are {} and gdb",
                LAWS.join(", ")
            );
            return ExitCode::from(2);
        };
        let not_compared = c.unsupported + c.unknown;
        match c.counterexample {
            // An SMT law where most cases were not compared has not held.
            None if not_compared * 2 > c.cases => {
                failed += 1;
                println!(
                    "{}: NOT CHECKED: of {} cases {} are unsupported and {} unknown",
                    c.law, c.cases, c.unsupported, c.unknown
                );
            }
            None if not_compared > 0 => {
                held += 1;
                println!(
                    "{}: {} of {} cases held; {} unsupported, {} unknown (neither counts as a pass)",
                    c.law,
                    c.cases - not_compared,
                    c.cases,
                    c.unsupported,
                    c.unknown
                );
            }
            None => {
                held += 1;
                println!("{}: {} cases held", c.law, c.cases);
            }
            Some(text) => {
                failed += 1;
                println!("{}: FAILED; paste into corpus/regressions/:\n{text}", c.law);
            }
        }
    }
    println!("{held} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn cmd_serve() -> ExitCode {
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            return ExitCode::from(2);
        };
        if line.trim().is_empty() {
            continue;
        }
        let r = answer_line(&line);
        println!(
            "{}",
            serde_json::to_string(&r).unwrap_or_else(|_| "{}".into())
        );
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Cmd::Check {
            expr,
            sig,
            classic,
            to_classic,
            json,
        } => cmd_check(&expr, sig.signature(), &classic, to_classic, json),
        Cmd::Eval {
            expr,
            context,
            classic,
            json,
        } => cmd_eval(&expr, &context, &classic, json),
        Cmd::Lower {
            expr,
            context,
            target,
            hex,
            single_byte,
            variants,
            classic,
            json,
        } => cmd_lower(
            &expr,
            &classic,
            context.as_ref(),
            &target,
            hex,
            single_byte,
            variants as usize,
            json,
        ),
        Cmd::DwarfEquiv {
            expr,
            dwarf,
            context,
            variants,
            seed,
            single_byte,
            classic,
            json,
        } => cmd_dwarf_equiv(
            &expr,
            &classic,
            &dwarf,
            &context,
            variants as usize,
            seed,
            single_byte,
            json,
        ),
        Cmd::Canon {
            expr,
            sig,
            verbose,
            classic,
            json,
        } => cmd_canon(&expr, sig.signature(), &classic, verbose, json),
        Cmd::Rule {
            files,
            verbose,
            timeout_ms,
            threads,
            json,
        } => cmd_rule(&files, verbose, timeout_ms, threads, json),
        Cmd::Equiv {
            source,
            target,
            sig,
            refines,
            timeout_ms,
            classic,
            json,
        } => cmd_equiv(
            &source,
            &target,
            sig.signature(),
            &classic,
            refines,
            timeout_ms,
            json,
        ),
        Cmd::Run {
            paths,
            imp,
            timeout,
            verbose,
            json,
        } => cmd_run(&paths, imp, timeout, verbose, json),
        Cmd::Lifetimes {
            file,
            lower: Some(target),
            context,
            variants,
            json,
            ..
        } => cmd_lower_module(&file, &target, context.as_ref(), variants, json),
        Cmd::Lifetimes {
            file,
            at,
            context,
            block_local,
            json,
            ..
        } => cmd_lifetimes(&file, at, context.as_ref(), block_local, json),
        Cmd::Multiloc { file, json } => cmd_multiloc(&file, json),
        Cmd::Fuzz {
            property,
            cases,
            seed,
        } => cmd_fuzz(&property, cases, seed),
        Cmd::Serve => cmd_serve(),
        Cmd::Gdb {
            paths,
            generated,
            seed,
            keep,
            lldb,
            json,
        } => cmd_gdb(&paths, generated, seed, keep, lldb, json),
    }
}
