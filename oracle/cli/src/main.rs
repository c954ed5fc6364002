//! The `dioptra` command line (DESIGN.md, "CLI contract"): the clap
//! definitions here, one module per command beside them, and what they
//! share in `common`. The commands render what the oracle's tools and the
//! properties' campaigns answer; no meaning, tool or law is defined here.
//!
//! Exit codes: 0 holds / success, 1 the checked thing fails (ill-formed,
//! evaluation error, unsupported, failing cases), 2 usage or malformed input,
//! 3 unknown.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The allocator: the interpreters, the lowering and the comparisons
/// allocate and free small blocks (bit strings, location descriptions,
/// stacks) at a high rate, and mimalloc serves them in about half the
/// instructions of glibc's malloc: `bench pipeline` runs ~10% more cases a
/// second with it (issue 24's note); `dioptra_alloc` says why it is not the
/// `mimalloc` crate's own. The benches use it too, so that they measure
/// what this command runs.
#[global_allocator]
static ALLOCATOR: dioptra_alloc::Mimalloc = dioptra_alloc::Mimalloc;

/// `println!` for the commands' output. When the reader has gone
/// (`dioptra check ... | head -1`), the command stops quietly with exit 0,
/// as ripgrep and other filters do: nothing was lost
/// that the reader wanted, and a panic on a closed pipe is not an answer.
/// Any other write error is reported with `Output: unwritable:` and exit 2.
macro_rules! outln {
    () => { $crate::common::write_out(format_args!("\n")) };
    ($($t:tt)*) => { $crate::common::write_out(format_args!("{}\n", format_args!($($t)*))) };
}

/// `eprintln!` for the commands' diagnostics and remarks, with what
/// [`outln!`] does when the reader has gone: `dioptra lifetimes x.ll 2>&1 |
/// head -1` panicked (exit 101) writing its second diagnostic into the
/// closed pipe.
macro_rules! errln {
    ($($t:tt)*) => { $crate::common::write_err(format_args!("{}\n", format_args!($($t)*))) };
}

/// `print!` for the commands' output, like [`outln!`].
macro_rules! out {
    ($($t:tt)*) => { $crate::common::write_out(format_args!($($t)*)) };
}

mod canon;
mod check;
mod common;
mod dwarf;
mod dwarf_equiv;
mod equiv;
mod eval;
mod fuzz;
mod gdb;
mod ir;
mod lifetimes;
mod llvm;
mod lower;
mod lower_table;
mod multiloc;
mod rule;
mod run;
mod serve;

use common::{ClassicArgs, SigArgs};

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
        /// Worker threads (each with its own solver context), 1 to 256.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
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
        /// Prove the lowering with the SMT solver: the DWARF describes the
        /// expression's location in every context with the inputs where
        /// --context places them (proven, refines, not-proven or unknown).
        #[arg(long)]
        prove: bool,
        /// With --prove: time limit per solver query, in milliseconds.
        #[arg(long, default_value_t = dioptra_semantics::smt::DEFAULT_TIMEOUT_MS)]
        timeout_ms: u32,
        #[command(flatten)]
        classic: ClassicArgs,
        #[arg(long)]
        json: bool,
    },
    /// Proves the lowering of every DIOp on both targets at every integer
    /// width in --widths, for each place its main input can be in (register,
    /// memory in address spaces 0 and 5, implicit value, composite), and the
    /// floating-point formats: a line per op (proven, refines, not proven,
    /// unknown, not expressible, not encoded) and every exception.
    LowerTable {
        /// Integer widths: A..B or A,B,C (1 to 64).
        #[arg(long, default_value = "1..64")]
        widths: String,
        /// amdgpu, dwarf5 or both.
        #[arg(long, default_value = "both")]
        target: String,
        /// Only the rows whose op starts with this (e.g. Div, Convert).
        #[arg(long)]
        op: Option<String>,
        /// Worker threads (each with its own solver context), 1 to 256.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: u16,
        /// Time limit per solver query, in milliseconds.
        #[arg(long, default_value_t = 2_000)]
        timeout_ms: u32,
        #[arg(long)]
        json: bool,
    },
    /// Reads an object file's DWARF: every variable and parameter with its location, each expression decoded; with --at and --context, each variable in scope at a pc located in a machine state.
    Dwarf {
        /// An ELF object file, executable or shared object.
        file: PathBuf,
        /// A pc (hex with 0x, or decimal): locate the variables in scope there.
        #[arg(long)]
        at: Option<String>,
        /// The machine state at the pc: a (context ...) file, registers by DWARF number.
        #[arg(long)]
        context: Option<PathBuf>,
        /// Only this variable (`name` or `function::name`).
        #[arg(long)]
        var: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Reads an LLVM IR module (.ll, LLVM 14 to 22) and checks every debug record: each expression well-formed over its operands' types and for its variable's type, with a count per reason.
    Ir {
        /// A textual LLVM IR module.
        file: PathBuf,
        /// Print every record's verdict, not only the refused ones.
        #[arg(long)]
        all: bool,
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
        /// Also prove it with the SMT solver for every context with the
        /// inputs where --context places them (proven, refines, not-proven
        /// or unknown).
        #[arg(long)]
        prove: bool,
        /// With --prove: time limit per solver query, in milliseconds.
        #[arg(long, default_value_t = dioptra_semantics::smt::DEFAULT_TIMEOUT_MS)]
        timeout_ms: u32,
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
        /// With --lower: also prove each segment's list entry with the SMT
        /// solver, for every context with the segment's inputs where they
        /// are (the entries' address ranges stay a tested law).
        #[arg(long)]
        prove: bool,
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
        /// Cases per law (each drawn from its own seed, derived from
        /// --seed and its index).
        #[arg(long, default_value_t = 1000, conflicts_with = "time")]
        cases: u32,
        /// Run for this long instead (`90s`, `5m`, `1h`, or seconds): each
        /// law gets an equal share; the summary says how many cases each ran.
        #[arg(long)]
        time: Option<String>,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: every core). The cases and the verdict
        /// do not depend on it.
        #[arg(long)]
        jobs: Option<usize>,
        /// Time limit of each solver query of the SMT laws (a case makes at
        /// most two); a case that reaches it counts as unknown, never as a
        /// pass.
        #[arg(long, default_value_t = 1000)]
        solver_ms: u32,
        /// Print the laws (name and what each says) and exit.
        #[arg(long)]
        list: bool,
    },
    /// Answers the line protocol on stdin/stdout as the reference implementation.
    Serve,
    /// LLVM's passes under test: generated functions with `#dbg_value`
    /// records through `opt`, and every record of the output proved to
    /// describe the value its input record did (translation validation).
    /// Exit 0 when no record is wrong, 1 on a wrong record or an opt
    /// failure, 3 not checked (no opt, or most records not compared).
    Llvm {
        /// How many functions to generate.
        #[arg(long, default_value_t = 200)]
        generated: u64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The index of the first function (`f7099`): with `--generated 1`,
        /// one function of a campaign of the same seed, alone.
        #[arg(long, default_value_t = 0)]
        first: u64,
        /// Passes, comma-separated (`instcombine,early-cse`; `O1`/`O2` are
        /// the pipelines). Default: instcombine, early-cse, dce,
        /// correlated-propagation, sroa, simplifycfg, O1, O2.
        #[arg(long)]
        passes: Option<String>,
        /// The target triple the module is written for.
        #[arg(long, default_value = "x86_64-pc-linux-gnu")]
        target: String,
        /// The LLVM major version whose opt to use (default: the newest).
        #[arg(long)]
        llvm: Option<u32>,
        /// Functions per opt run.
        #[arg(long, default_value_t = 100)]
        batch: u64,
        /// Worker threads (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Time limit of each solver query.
        #[arg(long, default_value_t = 2000)]
        solver_ms: u32,
        /// Keep the modules before and after each pass in this directory.
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Write a bundle for each known bug found (its smallest record)
        /// and each unclassified wrong record: the function alone, the opt
        /// command and its output, the rule with its witness, and what
        /// LLVM function is responsible; and, where the program runs,
        /// the llc output, its DWARF and a gdb session printing the wrong
        /// value.
        #[arg(long)]
        emit_repro: Option<PathBuf>,
        /// Sampled inputs each function is called on under gdb (the
        /// witnesses of its wrong records come on top).
        #[arg(long, default_value_t = 4)]
        inputs: usize,
        /// Do not compile the output with llc and run it under gdb.
        #[arg(long)]
        no_run: bool,
        /// Generate `i128` arguments too, wider than any target's address
        /// (64-bit targets only: i686 has no 128-bit division to link).
        /// Other functions of the same seed are the default campaign's.
        #[arg(long)]
        i128: bool,
        #[arg(long)]
        json: bool,
    },
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
        } => check::cmd_check(&expr, sig.signature(), &classic, to_classic, json),
        Cmd::Eval {
            expr,
            context,
            classic,
            json,
        } => eval::cmd_eval(&expr, &context, &classic, json),
        Cmd::Lower {
            expr,
            context,
            target,
            hex,
            single_byte,
            variants,
            prove,
            timeout_ms,
            classic,
            json,
        } => lower::cmd_lower(
            &expr,
            &classic,
            context.as_deref(),
            &lower::LowerOpts {
                target,
                hex,
                single_byte,
                variants: variants as usize,
                prove: prove.then_some(timeout_ms),
                json,
            },
        ),
        Cmd::Dwarf {
            file,
            at,
            context,
            var,
            json,
        } => dwarf::cmd_dwarf(dwarf::DwarfArgs {
            file: &file,
            at: at.as_deref(),
            context: context.as_deref(),
            var: var.as_deref(),
            json,
        }),
        Cmd::Ir { file, all, json } => ir::cmd_ir(&file, all, json),
        Cmd::DwarfEquiv {
            expr,
            dwarf,
            context,
            variants,
            seed,
            single_byte,
            prove,
            timeout_ms,
            classic,
            json,
        } => dwarf_equiv::cmd_dwarf_equiv(
            &expr,
            &classic,
            &dwarf,
            &context,
            variants as usize,
            seed,
            single_byte,
            prove.then_some(timeout_ms),
            json,
        ),
        Cmd::Canon {
            expr,
            sig,
            verbose,
            classic,
            json,
        } => canon::cmd_canon(&expr, sig.signature(), &classic, verbose, json),
        Cmd::LowerTable {
            widths,
            target,
            op,
            jobs,
            timeout_ms,
            json,
        } => lower_table::cmd_lower_table(&lower_table::TableOpts {
            widths,
            target,
            op,
            jobs: jobs.into(),
            timeout_ms,
            json,
        }),
        Cmd::Rule {
            files,
            verbose,
            timeout_ms,
            threads,
            json,
        } => rule::cmd_rule(&files, verbose, timeout_ms, threads.into(), json),
        Cmd::Equiv {
            source,
            target,
            sig,
            refines,
            timeout_ms,
            classic,
            json,
        } => equiv::cmd_equiv(
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
        } => run::cmd_run(&paths, imp, timeout, verbose, json),
        Cmd::Lifetimes {
            file,
            lower: Some(target),
            context,
            variants,
            prove,
            json,
            ..
        } => lifetimes::cmd_lower_module(&file, &target, context.as_deref(), variants, prove, json),
        Cmd::Lifetimes {
            file,
            at,
            context,
            block_local,
            json,
            ..
        } => lifetimes::cmd_lifetimes(&file, at, context.as_deref(), block_local, json),
        Cmd::Multiloc { file, json } => multiloc::cmd_multiloc(&file, json),
        Cmd::Fuzz {
            property,
            cases,
            time,
            seed,
            jobs,
            solver_ms,
            list,
        } => fuzz::cmd_fuzz(&fuzz::Options {
            property,
            cases,
            time,
            seed,
            jobs,
            solver_ms,
            list,
        }),
        Cmd::Serve => serve::cmd_serve(),
        Cmd::Gdb {
            paths,
            generated,
            seed,
            keep,
            lldb,
            json,
        } => gdb::cmd_gdb(&paths, generated, seed, keep, lldb, json),
        Cmd::Llvm {
            generated,
            seed,
            first,
            passes,
            target,
            llvm,
            batch,
            jobs,
            solver_ms,
            keep,
            emit_repro,
            inputs,
            no_run,
            i128,
            json,
        } => llvm::cmd_llvm(&llvm::Options {
            generated,
            seed,
            first,
            passes,
            target,
            llvm,
            batch,
            jobs,
            solver_ms,
            keep,
            emit_repro,
            inputs,
            run: !no_run,
            i128,
            json,
        }),
    }
}
