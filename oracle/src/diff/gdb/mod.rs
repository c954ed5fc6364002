//! Real-debugger conformance: gdb evaluates dioptra's plain DWARF 5 in a
//! real program and must read, byte by byte, what dioptra's reference
//! semantics says each variable holds.
//!
//! Many cases go into one run. Each case is a machine state (a context made
//! concrete: [`machine::machine_context`]), the DWARF 5 of one or more
//! variables (an expression's lowering, a hand-written listing, or a
//! module's location lists) and its program points. The harness
//!
//! 1. builds one x86-64 stub ([`stub`]) that, case after case, puts the
//!    case's bytes in memory and registers and stops at an `int3` per
//!    point;
//! 2. writes the variables with `gimli::write` ([`debuginfo`]): locals of
//!    the stub's subprogram, each `unsigned char[N]`, and attaches them with
//!    objcopy;
//! 3. runs gdb once ([`session`]), which reads every variable at every stop
//!    byte by byte (a value, or optimized out);
//! 4. compares each byte with the reference: dioptra's DWARF evaluator in
//!    the same machine state, itself checked against the DIOp semantics
//!    there (the lowering law), so gdb is compared with the DIOp meaning.
//!
//! Every disagreement is classified: agreement, both fail, a known and
//! listed gdb limitation ([`known_limitation`]), or a difference, which is a
//! failure until it is understood.

pub mod corpus;
pub mod debuginfo;
pub mod known;
pub mod lldb;
pub mod machine;
pub mod session;
pub mod stub;

use crate::lower::compare::{compare, Agreement};
use crate::lower::loclist::{address, compare_module, lower_module};
use crate::lower::{lower_placed, Target};
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::dwarf::eval::{evaluate, evaluate_list, Env};
use dioptra_semantics::dwarf::unit::{ListEntry, ListTag, Listing, Unit};
use dioptra_semantics::dwarf::{DwarfOp, Encoding};
use dioptra_semantics::lifetime::listing::Module;
use dioptra_semantics::lifetime::locate::Analysis;
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::location::{read, LocDesc, Storage};
use dioptra_semantics::syntax::Expr;
pub use known::known_limitation;
use num_bigint::BigInt;
use session::{Answer, Seen};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the reference says one byte of a variable is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Byte {
    /// The bits of `mask` are `bits`; the others are past the end of the
    /// object (its last byte when its size is not a whole number of bytes).
    Value { bits: u8, mask: u8 },
    /// Some bit of the byte is in the undefined location storage.
    Optimized,
}

/// What the reference says a variable is at one point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    Bytes(Vec<Byte>),
    /// Evaluating the DWARF, or reading a byte, is an error.
    Error(String),
}

/// Where a case's variable is.
#[derive(Clone, Debug)]
pub enum At {
    Expr(Vec<DwarfOp>),
    List(Vec<ListEntry>),
}

impl At {
    /// Every location expression: the one, or each list entry's.
    pub fn expressions(&self) -> Vec<&[DwarfOp]> {
        match self {
            At::Expr(ops) => vec![ops],
            At::List(entries) => entries.iter().map(ListEntry::ops).collect(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Variable {
    /// The source name (a module's object) or `-`.
    pub name: String,
    /// The object's size in bits; gdb reads it as `unsigned char[bytes]`.
    pub bits: u64,
    pub bytes: u64,
    pub at: At,
}

/// One machine state and the variables read in it.
#[derive(Clone, Debug)]
pub struct Case {
    /// Where the case comes from (a corpus file and line, a seed).
    pub label: String,
    /// What the DWARF was made from, for reports: the DIOp expression or
    /// the module listing; empty for hand-written DWARF.
    pub source: String,
    /// The DWARF, as a listing, for reports.
    pub listing: String,
    pub machine: ConcreteContext,
    /// The base types the variables' DWARF uses.
    pub unit: Unit,
    pub vars: Vec<Variable>,
    /// The module addresses of the points (an expression has one point).
    pub points: Vec<u64>,
    /// `expected[point][var]`.
    pub expected: Vec<Vec<Expected>>,
    /// The lowering law, checked in the machine state: the first
    /// difference, when there is one (a dioptra bug).
    pub law: Option<String>,
}

impl Case {
    /// A finding about this case, with what reproduces it.
    fn finding(&self, what: String) -> Finding {
        Finding {
            label: self.label.clone(),
            what,
            source: self.source.clone(),
            listing: self.listing.clone(),
            context: self.machine.to_script("machine"),
        }
    }

    /// A difference in reading `v` at the case's point `p`.
    fn difference(&self, v: &Variable, p: usize, what: String) -> Finding {
        self.finding(if self.points.len() > 1 {
            format!("`{}` at address {}: {what}", v.name, self.points[p])
        } else {
            what
        })
    }
}

/// Why a candidate is not a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Not expressible in plain DWARF 5 (or not lowerable at all).
    NotLowered(String),
    /// The stub cannot reproduce the context ([`machine::machine_context`]).
    Machine(String),
    /// The DWARF uses what the harness does not set up
    /// ([`debuginfo::excluded_op`]).
    Excluded(String),
    /// The reference needs what the context does not supply.
    Unsupported(String),
}

impl Skip {
    pub fn category(&self) -> &'static str {
        match self {
            Skip::NotLowered(_) => "not lowered to plain DWARF 5",
            Skip::Machine(_) => "context not reproducible by the stub",
            Skip::Excluded(_) => "DWARF outside the harness",
            Skip::Unsupported(_) => "reference unsupported",
        }
    }
    pub fn detail(&self) -> &str {
        match self {
            Skip::NotLowered(s) | Skip::Machine(s) | Skip::Excluded(s) | Skip::Unsupported(s) => s,
        }
    }
}

/// The first `bits` bits of `loc` in `ctx`, byte by byte.
fn expected(
    ctx: &ConcreteContext,
    loc: Result<LocDesc, Diag>,
    bits: u64,
) -> Result<Expected, Skip> {
    let loc = match loc {
        Ok(l) => l,
        Err(d) if d.outcome == Outcome::Unsupported => {
            return Err(Skip::Unsupported(d.to_string()))
        }
        Err(d) => return Ok(Expected::Error(d.to_string())),
    };
    let mut out = Vec::with_capacity(bits.div_ceil(8) as usize);
    for k in 0..bits.div_ceil(8) {
        let len = (bits - 8 * k).min(8);
        let at = loc.offset_by(ctx, &BigInt::from(8 * k));
        match at.and_then(|l| read(ctx, &l, len)) {
            Ok(b) => out.push(Byte::Value {
                bits: b.low_u64() as u8,
                mask: (0xffu16 >> (8 - len)) as u8,
            }),
            // The machine has no undefined contents: only the undefined
            // storage is unreadable.
            Err(f) if f.reason == "undefined-bits" => out.push(Byte::Optimized),
            Err(f) if f.unsupported => return Err(Skip::Unsupported(f.at("read").to_string())),
            Err(f) => return Ok(Expected::Error(format!("byte {k}: {}", f.at("read")))),
        }
    }
    Ok(Expected::Bytes(out))
}

fn excluded(ops: &[DwarfOp]) -> Result<(), Skip> {
    match debuginfo::excluded_op(ops) {
        Some(why) => Err(Skip::Excluded(why)),
        None => Ok(()),
    }
}

/// A case for the plain DWARF 5 lowering of `expr` in `ctx`. An input in
/// several places is lowered with each input in its first place (a code
/// generator would emit a location list). `min_addr` is the lowest address
/// the stub can map.
pub fn expr_case(
    label: &str,
    expr: &Expr,
    ctx: &ConcreteContext,
    min_addr: u64,
) -> Result<Case, Skip> {
    let (ctx, lowered) = lower_placed(expr, ctx, Target::Dwarf5);
    let l = lowered.map_err(|d| Skip::NotLowered(d.to_string()))?;
    let mut case = listing_case(label, &l.listing, l.offset, l.bits, &ctx, min_addr)?;
    case.source = expr.to_string();
    case.law = match compare(expr, &l, &case.machine, Encoding::default()) {
        a @ Agreement::Differ { .. } => Some(format!("{expr}: {}", a.describe())),
        _ => None,
    };
    Ok(case)
}

/// A case for a DWARF 5 `listing` whose bits `offset..offset+bits` are the
/// expression's (a fragment, when `offset > 0`), in `ctx`. The variable gdb
/// reads is the whole object: its first `offset + bits` bits.
pub fn listing_case(
    label: &str,
    listing: &Listing,
    offset: u64,
    bits: u64,
    ctx: &ConcreteContext,
    min_addr: u64,
) -> Result<Case, Skip> {
    excluded(&listing.ops)?;
    let machine = machine::machine_context(ctx, min_addr).map_err(Skip::Machine)?;
    let bits = (offset + bits).max(1);
    let bytes = bits.div_ceil(8);
    let loc = evaluate(&listing.ops, Env::new(&machine, &listing.unit));
    let e = expected(&machine, loc, bits)?;
    Ok(Case {
        label: label.to_string(),
        source: String::new(),
        listing: listing.print(Encoding::default()),
        unit: listing.unit.clone(),
        vars: vec![Variable {
            name: "-".into(),
            bits,
            bytes,
            at: At::Expr(listing.ops.clone()),
        }],
        points: vec![0],
        expected: vec![vec![e]],
        machine,
        law: None,
    })
}

/// A case for the location lists of module `m`'s variables (plain DWARF 5)
/// in `ctx`, read at every instruction. Its [`Case::source`] is left to the
/// caller, which has the module's text. Objects the target cannot express,
/// or whose DWARF the harness leaves out, are not variables of the case.
pub fn module_case(
    label: &str,
    m: &Module,
    ctx: &ConcreteContext,
    min_addr: u64,
) -> Result<Case, Skip> {
    let lowered =
        lower_module(m, ctx, Target::Dwarf5).map_err(|d| Skip::NotLowered(d.to_string()))?;
    let machine = machine::machine_context(ctx, min_addr).map_err(Skip::Machine)?;
    let a = Analysis::new(m, Reading::ControlFlow);
    let points: Vec<u64> = (0..m.insts.len()).map(|i| address(m, i)).collect();
    let mut vars = Vec::new();
    let mut last_skip = None;
    for (object, die) in &lowered.die_of {
        let list = &lowered.unit.lists[die];
        if list.tag != ListTag::Variable {
            continue;
        }
        let ops: Vec<DwarfOp> = list
            .entries
            .iter()
            .flat_map(|e| e.ops().iter().cloned())
            .collect();
        if let Err(s) = excluded(&ops) {
            last_skip = Some(s);
            continue;
        }
        // The object's type, or the composite its fragments make.
        let bits = (0..m.insts.len())
            .filter_map(|i| a.locate(&machine, object, i).ok()?.ty)
            .map(|t| machine.layout.bitsizeof(&t))
            .chain(points.iter().filter_map(|&pc| {
                let env = Env {
                    pc: Some(pc),
                    ..Env::new(&machine, &lowered.unit)
                };
                match evaluate_list(&list.entries, env).ok()?.singles() {
                    [s] => match &*s.storage {
                        Storage::Composite { parts, .. } => {
                            Some(parts.iter().map(|p| p.bits).sum())
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }))
            .max();
        let Some(bits) = bits.filter(|&b| b > 0) else {
            continue;
        };
        vars.push(Variable {
            name: object.clone(),
            bits,
            bytes: bits.div_ceil(8),
            at: At::List(list.entries.clone()),
        });
    }
    if vars.is_empty() {
        return Err(last_skip.unwrap_or_else(|| {
            Skip::NotLowered("no variable of the module has a plain DWARF 5 location list".into())
        }));
    }
    let mut expected_at = Vec::new();
    for &pc in &points {
        let mut row = Vec::new();
        for v in &vars {
            let At::List(entries) = &v.at else {
                unreachable!("module variables have lists")
            };
            let env = Env {
                pc: Some(pc),
                ..Env::new(&machine, &lowered.unit)
            };
            row.push(expected(&machine, evaluate_list(entries, env), v.bits)?);
        }
        expected_at.push(row);
    }
    let law = match compare_module(m, &lowered, &machine, 0, 0) {
        Ok((_, first)) => first,
        Err(d) => return Err(Skip::Unsupported(d.to_string())),
    };
    Ok(Case {
        label: label.to_string(),
        source: String::new(),
        listing: lowered.unit.lines(Encoding::default()).join("\n"),
        unit: lowered.unit,
        vars,
        points,
        expected: expected_at,
        machine,
        law,
    })
}

/// How gdb's reading of one variable at one point compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Agree,
    BothFail,
    /// A listed gdb limitation ([`known_limitation`]).
    Known(&'static str),
    Differ(String),
}

fn show_expected(e: &Expected) -> String {
    match e {
        Expected::Error(m) => format!("error ({m})"),
        Expected::Bytes(b) => b
            .iter()
            .map(|b| match b {
                Byte::Value { bits, .. } => format!("{bits:02x}"),
                Byte::Optimized => "--".into(),
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn show_answer(a: &Answer) -> String {
    match a {
        Answer::Error(m) => format!("error ({m})"),
        Answer::Bytes(b) => b
            .iter()
            .map(|b| match b {
                Seen::Value(v) => format!("{v:02x}"),
                Seen::Optimized => "--".into(),
                Seen::Error => "!!".into(),
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Compares gdb's answer with the reference.
pub fn verdict(unit: &Unit, at: &At, expected: &Expected, answer: Option<&Answer>) -> Verdict {
    verdict_with("gdb", expected, answer, |a| {
        known_limitation(unit, at, expected, a)
    })
}

/// Compares a debugger's (`who`'s) answer with the reference; `known`
/// recognises the debugger's listed behaviours.
fn verdict_with(
    who: &str,
    expected: &Expected,
    answer: Option<&Answer>,
    known: impl Fn(&Answer) -> Option<&'static str>,
) -> Verdict {
    let Some(answer) = answer else {
        return Verdict::Differ(format!("{who} never stopped there"));
    };
    let same = match (expected, answer) {
        (Expected::Bytes(e), Answer::Bytes(g)) => {
            e.len() == g.len()
                && e.iter().zip(g).all(|(e, g)| match (e, g) {
                    (Byte::Value { bits, mask }, Seen::Value(b)) => b & mask == *bits,
                    (Byte::Optimized, Seen::Optimized) => true,
                    _ => false,
                })
        }
        (Expected::Error(_), Answer::Error(_)) => return Verdict::BothFail,
        (Expected::Error(_), Answer::Bytes(g)) if g.iter().all(|s| *s == Seen::Error) => {
            return Verdict::BothFail
        }
        _ => false,
    };
    if same {
        return Verdict::Agree;
    }
    if let Some(k) = known(answer) {
        return Verdict::Known(k);
    }
    Verdict::Differ(format!(
        "dioptra: {}\n    {who}: {}",
        show_expected(expected),
        show_answer(answer)
    ))
}

/// A difference, with what reproduces it.
#[derive(Clone, Debug)]
pub struct Finding {
    pub label: String,
    pub what: String,
    /// [`Case::source`].
    pub source: String,
    pub listing: String,
    pub context: String,
}

/// What a check of many cases found.
#[derive(Debug, Default)]
pub struct Report {
    pub gdb: String,
    pub cases: usize,
    /// (point, variable) readings compared.
    pub readings: usize,
    pub agree: usize,
    pub both_fail: usize,
    pub known: BTreeMap<&'static str, usize>,
    /// gdb and dioptra differ, unexplained.
    pub differ: Vec<Finding>,
    /// dioptra bugs met on the way: the lowering law fails in a machine
    /// state, or dioptra's DWARF does not encode.
    pub law: Vec<Finding>,
    /// gdb runs, and the wall time of the whole check (building included).
    pub runs: usize,
    pub elapsed: Duration,
    /// lldb's opinion, when it was asked ([`lldb`]): `Err` says why it
    /// could not be.
    pub lldb: Option<Result<Opinion, String>>,
}

/// What a third opinion (lldb) said on the readings it was asked.
#[derive(Debug, Default)]
pub struct Opinion {
    pub version: String,
    pub readings: usize,
    pub agree: usize,
    pub both_fail: usize,
    pub known: BTreeMap<&'static str, usize>,
    pub differ: Vec<Finding>,
    /// Readings not asked, by reason ([`lldb::outside_basic`]).
    pub left_out: BTreeMap<&'static str, usize>,
}

impl Opinion {
    /// Adds another batch's opinion to this one.
    fn add(&mut self, o: Opinion) {
        self.readings += o.readings;
        self.agree += o.agree;
        self.both_fail += o.both_fail;
        for (k, n) in o.known {
            *self.known.entry(k).or_default() += n;
        }
        self.differ.extend(o.differ);
        for (k, n) in o.left_out {
            *self.left_out.entry(k).or_default() += n;
        }
    }

    pub fn summary(&self) -> String {
        let list = |m: &BTreeMap<&'static str, usize>| -> String {
            m.iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "{} readings: {} agree, {} both fail, {} known lldb limitations{}, {} differ; {} readings not asked ({}); {}",
            self.readings,
            self.agree,
            self.both_fail,
            self.known.values().sum::<usize>(),
            if self.known.is_empty() { String::new() } else { format!(" ({})", list(&self.known)) },
            self.differ.len(),
            self.left_out.values().sum::<usize>(),
            list(&self.left_out),
            self.version
        )
    }
}

impl Report {
    /// Adds another batch's report to this one (its readings, verdicts,
    /// findings, gdb run and lldb opinion).
    fn add(&mut self, part: Report) {
        self.readings += part.readings;
        self.agree += part.agree;
        self.both_fail += part.both_fail;
        for (k, n) in part.known {
            *self.known.entry(k).or_default() += n;
        }
        self.differ.extend(part.differ);
        self.law.extend(part.law);
        self.runs += 1;
        match (&mut self.lldb, part.lldb) {
            (Some(Ok(mine)), Some(Ok(theirs))) => mine.add(theirs),
            (Some(Ok(_)), Some(Err(e))) => self.lldb = Some(Err(e)),
            _ => {}
        }
    }

    /// gdb agrees, and lldb too when it was asked and could answer.
    pub fn holds(&self) -> bool {
        self.differ.is_empty()
            && self.law.is_empty()
            && !matches!(&self.lldb, Some(Ok(o)) if !o.differ.is_empty())
    }
    /// Readings per second of wall time, building included.
    pub fn rate(&self) -> f64 {
        self.readings as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    pub fn summary(&self) -> String {
        let known: Vec<String> = self.known.iter().map(|(k, n)| format!("{n} {k}")).collect();
        format!(
            "{} cases, {} readings: {} agree, {} both fail, {} known gdb limitations{}, {} differ, {} lowering-law failures; {} gdb run(s), {:.2} s ({:.0} readings/s) with {}",
            self.cases,
            self.readings,
            self.agree,
            self.both_fail,
            self.known.values().sum::<usize>(),
            if known.is_empty() { String::new() } else { format!(" ({})", known.join(", ")) },
            self.differ.len(),
            self.law.len(),
            self.runs,
            self.elapsed.as_secs_f64(),
            self.rate(),
            self.gdb
        )
    }
}

/// The most cases one program and one gdb run hold.
pub const BATCH: usize = 2000;

/// Checks `cases` with gdb, in batches ([`batches`]) run one gdb per core,
/// working in `dir`;
/// with `ask_lldb`, lldb reads the basic subset of the same programs too.
/// An error is about the environment (no gdb, no toolchain, the stub could
/// not map its memory), never a verdict; lldb's absence is recorded in
/// [`Report::lldb`].
pub fn check(cases: &[Case], dir: &Path, ask_lldb: bool) -> Result<Report, String> {
    let start = Instant::now();
    // The debuggers run in their batch's directory: paths must be absolute.
    let dir = &std::fs::canonicalize(dir)
        .map_err(|e| format!("gdb-harness: no-workdir: {}: {e}", dir.display()))?;
    let gdb = session::gdb_version("gdb").ok_or("gdb-harness: no-gdb: gdb is not installed")?;
    let mut report = Report {
        gdb,
        cases: cases.len(),
        ..Report::default()
    };
    let lldb = ask_lldb.then(|| lldb::find(dir));
    report.lldb = lldb.as_ref().map(|l| match l {
        Ok(l) => Ok(Opinion {
            version: l.version.clone(),
            ..Opinion::default()
        }),
        Err(e) => Err(format!("gdb-harness: no-lldb: {e}")),
    });
    let lldb = lldb.and_then(Result::ok);
    let mut writable = Vec::with_capacity(cases.len());
    for c in cases {
        match unencodable(c) {
            Some(why) => report
                .law
                .push(c.finding(format!("dioptra's DWARF does not encode: {why}"))),
            None => writable.push(c.clone()),
        }
    }
    let batches = batches(writable);
    // The batches run at once, one gdb per core; each fills a report of
    // its own, and they are added up in batch order, so the verdicts and
    // the order of the findings do not depend on the cores.
    let parts: Vec<Mutex<Option<Result<Report, String>>>> =
        batches.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(batches.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                let Some(batch) = batches.get(b) else { break };
                let mut part = Report {
                    lldb: report.lldb.as_ref().map(|o| match o {
                        Ok(o) => Ok(Opinion {
                            version: o.version.clone(),
                            ..Opinion::default()
                        }),
                        Err(e) => Err(e.clone()),
                    }),
                    ..Report::default()
                };
                let sub = dir.join(format!("batch{b}"));
                let done = std::fs::create_dir_all(&sub)
                    .map_err(|e| format!("cannot create {}: {e}", sub.display()))
                    .and_then(|()| check_batch(batch, &sub, lldb.as_ref(), &mut part))
                    .map(|()| part);
                *parts[b].lock().unwrap_or_else(|e| e.into_inner()) = Some(done);
            });
        }
    });
    for part in parts {
        let part = part
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .ok_or("gdb-harness: internal-error: a batch was not run")??;
        report.add(part);
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// The most stops one program holds: a lifetime program's case has a stop
/// per point, and gdb's time grows with the stops, not the cases.
const MAX_STOPS: usize = 5_000;

/// The cases in batches of at most [`BATCH`] cases and [`MAX_STOPS`] stops,
/// in order; the cases with a `DW_OP_bra` go last, in batches of their own.
/// gdb 13 aborts on some branches (E-gdb-read-needs-assert), and a batch
/// gdb aborts on is run again in halves until the case is found: kept
/// apart, that search runs over the few cases that branch, not over 2 000.
fn batches(cases: Vec<Case>) -> Vec<Vec<Case>> {
    let (plain, branching): (Vec<Case>, Vec<Case>) = cases.into_iter().partition(|c| !branches(c));
    let mut out: Vec<Vec<Case>> = Vec::new();
    for group in [plain, branching] {
        let mut stops = 0;
        let mut current: Vec<Case> = Vec::new();
        for c in group {
            let n = c.points.len();
            if !current.is_empty() && (current.len() >= BATCH || stops + n > MAX_STOPS) {
                out.push(std::mem::take(&mut current));
                stops = 0;
            }
            stops += n;
            current.push(c);
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

/// Why some DWARF of `case` cannot be encoded, if it cannot.
fn unencodable(case: &Case) -> Option<String> {
    let enc = Encoding::default();
    case.vars.iter().find_map(|v| {
        v.at.expressions()
            .into_iter()
            .find_map(|ops| dioptra_semantics::dwarf::encode(ops, enc).err())
            .map(|d| d.to_string())
    })
}

/// The program for `cases`, with their DWARF attached, and what to read at
/// each stop.
type Built = (stub::Program, PathBuf, BTreeMap<u64, Vec<(String, u64)>>);

fn build(cases: &[Case], dir: &Path) -> Result<Built, String> {
    let pages = machine::page_runs(cases.iter().map(|c| &c.machine));
    let shapes: Vec<(&ConcreteContext, usize)> =
        cases.iter().map(|c| (&c.machine, c.points.len())).collect();
    let asm = stub::assembly(&shapes, &pages);
    let points: Vec<usize> = cases.iter().map(|c| c.points.len()).collect();
    let program = stub::build(dir, &asm, &points)?;
    let mut groups = Vec::new();
    let mut vars_at: BTreeMap<u64, Vec<(String, u64)>> = BTreeMap::new();
    for (k, case) in cases.iter().enumerate() {
        let stops = &program.stops[k];
        let mut vars = Vec::new();
        for (j, v) in case.vars.iter().enumerate() {
            let name = format!("v{k}_{j}");
            let at = match &v.at {
                At::Expr(ops) => debuginfo::Where::Expr(ops.clone()),
                At::List(entries) => real_list(entries, &case.points, stops),
            };
            for &pc in stops {
                vars_at.entry(pc).or_default().push((name.clone(), v.bytes));
            }
            vars.push(debuginfo::Var {
                name,
                bytes: v.bytes,
                at,
            });
        }
        groups.push((&case.unit, vars));
    }
    let sections = debuginfo::sections(program.low, program.high, &groups)?;
    let with_dwarf = dir.join("stub.debug");
    stub::attach(&program.path, &sections, &with_dwarf)?;
    Ok((program, with_dwarf, vars_at))
}

/// Does some DWARF of `case` branch (`DW_OP_bra`)?
fn branches(case: &Case) -> bool {
    case.vars.iter().any(|v| {
        v.at.expressions().iter().any(|ops| {
            ops.iter()
                .any(|op| matches!(op, DwarfOp::Std { code, .. } if *code == gimli::DW_OP_bra.0))
        })
    })
}

/// The most gdb crashes one batch survives: each crash's case is taken
/// out and the rest run again.
const MAX_CRASHES: usize = 16;

/// The known gdb crash: gdb 13 walks a location expression's branches to
/// see what reading it needs, and asserts when a `DW_OP_bra`'s target is
/// reached by falling through as well.
fn known_crash(message: &str, case: &Case) -> Option<&'static str> {
    (branches(case) && message.contains("dwarf2_get_symbol_read_needs"))
        .then_some("gdb bug E-gdb-read-needs-assert: gdb aborts on a DW_OP_bra whose target the fall-through also reaches")
}

/// Runs gdb on `cases`; `Ok(Err(message))` when gdb crashed.
fn run_gdb(
    cases: &[Case],
    dir: &Path,
) -> Result<Result<(stub::Program, PathBuf, session::Transcript), String>, String> {
    let (program, with_dwarf, vars_at) = build(cases, dir)?;
    let readings: usize = cases.iter().map(|c| c.points.len() * c.vars.len()).sum();
    // gdb starts in about 0.3 s and reads a variable in well under 1 ms.
    let limit = Duration::from_secs(60) + Duration::from_millis(5 * readings as u64);
    match session::run(&with_dwarf, dir, &vars_at, limit) {
        Ok(t) => Ok(Ok((program, with_dwarf, t))),
        Err(e) => match session::crash(dir, "gdb") {
            Some(message) => Ok(Err(message)),
            None => Err(e),
        },
    }
}

/// The cases of `cases` (indices) that crash gdb on their own, found by
/// bisection: gdb may crash reading another variable than the one whose
/// DWARF it cannot handle. At most `budget` crashers are looked for.
fn crashers(
    cases: &[Case],
    dir: &Path,
    budget: &mut usize,
) -> Result<Vec<(usize, String)>, String> {
    let message = match run_gdb(cases, dir)? {
        Ok(_) => return Ok(Vec::new()),
        Err(m) => m,
    };
    if *budget == 0 {
        return Err(format!(
            "gdb-harness: gdb-crashed: more than {MAX_CRASHES} times in one batch: {message}"
        ));
    }
    if cases.len() == 1 {
        *budget -= 1;
        return Ok(vec![(0, message)]);
    }
    let mid = cases.len() / 2;
    let mut found = crashers(&cases[..mid], dir, budget)?;
    found.extend(
        crashers(&cases[mid..], dir, budget)?
            .into_iter()
            .map(|(k, m)| (k + mid, m)),
    );
    if found.is_empty() {
        // Only the whole crashes: no case to blame.
        return Err(format!(
            "gdb-harness: gdb-crashed: on the batch but on no part of it: {message}"
        ));
    }
    Ok(found)
}

fn check_batch(
    cases: &[Case],
    dir: &Path,
    lldb: Option<&lldb::Lldb>,
    report: &mut Report,
) -> Result<(), String> {
    let mut cases = std::borrow::Cow::Borrowed(cases);
    let (program, with_dwarf, t) = match run_gdb(&cases, dir)? {
        Ok(run) => run,
        Err(_) => {
            // Each case that crashes gdb is a finding; the rest run again.
            let mut budget = MAX_CRASHES;
            let found = crashers(&cases, dir, &mut budget)?;
            for (k, message) in found.iter().rev() {
                let case = &cases[*k];
                let n = case.points.len() * case.vars.len();
                report.readings += n;
                match known_crash(message, case) {
                    Some(why) => *report.known.entry(why).or_default() += n,
                    None => report
                        .differ
                        .push(case.finding(format!("gdb crashed reading this case: {message}"))),
                }
                cases.to_mut().remove(*k);
            }
            run_gdb(&cases, dir)?.map_err(|m| {
                format!("gdb-harness: gdb-crashed: again without the crashing cases: {m}")
            })?
        }
    };
    let cases = &cases[..];
    if t.exit != Some(0) {
        return Err(format!(
            "gdb-harness: stub-failed: the stub exited with {:?} (status {} means an mmap failed)",
            t.exit,
            stub::MMAP_FAILED
        ));
    }
    // lldb failing (a crash, a launch failure) does not lose gdb's
    // verdicts: its opinion becomes the reason it could not be had.
    if let (Some(l), Some(Ok(opinion))) = (lldb, &mut report.lldb) {
        if let Err(e) = ask_lldb(l, cases, &program, &with_dwarf, dir, opinion) {
            report.lldb = Some(Err(format!("gdb-harness: lldb-failed: {e}")));
        }
    }
    for (k, case) in cases.iter().enumerate() {
        if let Some(l) = &case.law {
            report.law.push(case.finding(l.clone()));
        }
        for (p, &pc) in program.stops[k].iter().enumerate() {
            for (j, v) in case.vars.iter().enumerate() {
                report.readings += 1;
                let answer = t.answers.get(&(pc, format!("v{k}_{j}")));
                match verdict(&case.unit, &v.at, &case.expected[p][j], answer) {
                    Verdict::Agree => report.agree += 1,
                    Verdict::BothFail => report.both_fail += 1,
                    Verdict::Known(why) => *report.known.entry(why).or_default() += 1,
                    Verdict::Differ(what) => report.differ.push(case.difference(v, p, what)),
                }
            }
        }
    }
    Ok(())
}

/// lldb reads the variables of `cases` in the basic subset
/// ([`lldb::outside_basic`]) in the program gdb read.
fn ask_lldb(
    lldb: &lldb::Lldb,
    cases: &[Case],
    program: &stub::Program,
    with_dwarf: &Path,
    dir: &Path,
    opinion: &mut Opinion,
) -> Result<(), String> {
    let mut vars_at: BTreeMap<u64, Vec<(String, u64)>> = BTreeMap::new();
    let mut asked = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        for (j, v) in case.vars.iter().enumerate() {
            let ops: Vec<DwarfOp> = v.at.expressions().concat();
            let why = lldb::outside_basic(&ops).or_else(|| {
                matches!(&v.at, At::List(e) if e.iter().any(|e| matches!(e, ListEntry::Default(_))))
                    .then_some("DW_LLE_default_location")
            });
            if let Some(why) = why {
                *opinion.left_out.entry(why).or_default() += case.points.len();
                continue;
            }
            for &pc in &program.stops[k] {
                vars_at
                    .entry(pc)
                    .or_default()
                    .push((format!("v{k}_{j}"), v.bytes));
            }
            asked.push((k, j));
        }
    }
    if asked.is_empty() {
        return Ok(());
    }
    let stops: usize = program.stops.iter().map(Vec::len).sum();
    let limit = Duration::from_secs(60) + Duration::from_millis(5 * (stops + asked.len()) as u64);
    let t = lldb::run(lldb, with_dwarf, dir, &vars_at, stops, limit)?;
    if t.exit != Some(0) {
        return Err(format!(
            "gdb-harness: stub-failed: under lldb, the stub exited with {:?}",
            t.exit
        ));
    }
    for (k, j) in asked {
        let (case, v) = (&cases[k], &cases[k].vars[j]);
        for (p, &pc) in program.stops[k].iter().enumerate() {
            opinion.readings += 1;
            let answer = t.answers.get(&(pc, format!("v{k}_{j}")));
            match verdict_with("lldb", &case.expected[p][j], answer, |a| {
                lldb::known_limitation(&v.at, &case.expected[p][j], a)
            }) {
                Verdict::Agree => opinion.agree += 1,
                Verdict::BothFail => opinion.both_fail += 1,
                Verdict::Known(why) => *opinion.known.entry(why).or_default() += 1,
                Verdict::Differ(what) => opinion.differ.push(case.difference(v, p, what)),
            }
        }
    }
    Ok(())
}

/// A module location list in real addresses: each bounded entry covers the
/// stops of the points in its range (points are in address order, so they
/// are consecutive); an entry that covers no point is dropped.
fn real_list(entries: &[ListEntry], points: &[u64], stops: &[u64]) -> debuginfo::Where {
    let mut bounded = Vec::new();
    let mut default = None;
    for e in entries {
        match e {
            ListEntry::Bounded { lo, hi, ops } => {
                let inside: Vec<usize> = (0..points.len())
                    .filter(|&i| *lo <= points[i] && points[i] < *hi)
                    .collect();
                if let (Some(&f), Some(&l)) = (inside.first(), inside.last()) {
                    bounded.push((stops[f], stops[l] + 1, ops.clone()));
                }
            }
            ListEntry::Default(ops) => default = Some(ops.clone()),
        }
    }
    debuginfo::Where::List { bounded, default }
}

/// Context text (as the generators write it) with every register renamed to
/// one the stub can set: the general registers but `%rsp`, then `%xmm0`-
/// `%xmm15`, in order of first appearance. Generated lifetime programs put
/// values in registers such as 10, 40 or 90; renaming is consistent
/// (`(register N ...)` and `reg(N)` alike), so the program means the same on
/// the x86-64 machine. `None` when there are more registers than that.
pub fn on_machine_registers(text: &str) -> Option<String> {
    let settable: Vec<u32> = (0..=32)
        .filter(|&n| machine::x86_register(n).is_some())
        .collect();
    let mut map: BTreeMap<u32, u32> = BTreeMap::new();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let hit = ["(register ", "reg("]
            .iter()
            .filter_map(|p| rest.find(p).map(|i| (i, p.len())))
            .min();
        let Some((i, plen)) = hit else {
            out += rest;
            break;
        };
        out += &rest[..i + plen];
        rest = &rest[i + plen..];
        let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            continue;
        }
        let n: u32 = rest[..digits].parse().ok()?;
        let next = map.len();
        let m = *map
            .entry(n)
            .or_insert_with(|| settable.get(next).copied().unwrap_or(u32::MAX));
        if m == u32::MAX {
            return None;
        }
        out += &m.to_string();
        rest = &rest[digits..];
    }
    Some(out)
}

#[cfg(test)]
mod batching_tests {
    use super::*;

    fn case(label: &str, points: usize, code: u8) -> Case {
        Case {
            label: label.into(),
            source: String::new(),
            listing: String::new(),
            machine: ConcreteContext::default(),
            unit: Unit::default(),
            vars: vec![Variable {
                name: "-".into(),
                bits: 8,
                bytes: 1,
                at: At::Expr(vec![DwarfOp::Std {
                    code,
                    operands: Default::default(),
                }]),
            }],
            points: vec![0; points],
            expected: Vec::new(),
            law: None,
        }
    }

    /// Batches keep the cases' order, hold at most BATCH cases and
    /// MAX_STOPS stops (a case larger than that alone), and put the cases
    /// that branch after the rest, apart from them.
    #[test]
    fn batches_bound_cases_and_stops_and_keep_branches_apart() {
        let lit0 = gimli::DW_OP_lit0.0;
        let bra = gimli::DW_OP_bra.0;
        let mut cases: Vec<Case> = (0..BATCH + 10)
            .map(|k| case(&format!("e{k}"), 1, if k == 7 { bra } else { lit0 }))
            .collect();
        cases.push(case("big", MAX_STOPS + 1, lit0));
        cases.push(case("l1", MAX_STOPS / 2, lit0));
        cases.push(case("l2", MAX_STOPS / 2 + 1, lit0));
        let out = batches(cases);
        let labels: Vec<Vec<&str>> = out
            .iter()
            .map(|b| b.iter().map(|c| c.label.as_str()).collect())
            .collect();
        for b in &out {
            assert!(b.len() <= BATCH);
            let stops: usize = b.iter().map(|c| c.points.len()).sum();
            assert!(stops <= MAX_STOPS || b.len() == 1, "{stops} stops");
        }
        assert_eq!(
            labels.last().unwrap(),
            &vec!["e7"],
            "the branch apart, last"
        );
        let plain: Vec<&str> = labels[..labels.len() - 1].concat();
        assert_eq!(plain.len(), BATCH + 9 + 3);
        assert_eq!(&plain[..3], &["e0", "e1", "e2"]);
        assert!(!plain.contains(&"e7"));
        assert!(labels.iter().any(|b| b == &vec!["big"]));
        // l1 and l2 together are one stop too many.
        assert!(!labels
            .iter()
            .any(|b| b.contains(&"l1") && b.contains(&"l2")));
    }
}
