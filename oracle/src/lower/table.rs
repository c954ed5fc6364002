//! The per-op proof table: the lowering of every DIOp, on both targets, at
//! every integer width in a range, for each place its main input can be in
//! (a register, memory in address space 0 or 5, an implicit value, a
//! composite of a register and memory), and the floating-point formats and
//! vectors the ops take, proven with [`super::prove`].
//!
//! An instance is one expression, one context (which says where the inputs
//! are; their contents stay open in the proof) and one target. Its outcome
//! is the prover's verdict, or why there was no proof: the lowering is not
//! expressible for the target, or the encoding does not model it.

use super::prove::{prove, Proof};
use super::{lower, Target};
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::diag::Diag;
use dioptra_semantics::dwarf::Encoding;
use dioptra_semantics::text::expr::parse_expr;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Where an instance's main input (`DIOpArg(0, ...)`, the referrer or the
/// type object) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Placement {
    /// The op takes no input.
    None,
    Register,
    Memory(u32),
    Implicit,
    /// The low half in a register, the rest in memory.
    Composite,
}

impl Placement {
    pub fn name(self) -> String {
        match self {
            Placement::None => "none".into(),
            Placement::Register => "register".into(),
            Placement::Memory(a) => format!("memory({a})"),
            Placement::Implicit => "implicit".into(),
            Placement::Composite => "composite".into(),
        }
    }
    const ALL: [Placement; 5] = [
        Placement::Register,
        Placement::Memory(0),
        Placement::Memory(5),
        Placement::Implicit,
        Placement::Composite,
    ];
}

/// The expression of a row at width `w` (`T` is `iw`), and the types of its
/// inputs, main input first.
type Make = Box<dyn Fn(u64) -> (String, Vec<String>) + Send + Sync>;

/// One row of the table: an op and the form of its instances.
pub struct Row {
    /// The op (and, where an op has several rows, the variant).
    pub op: String,
    /// Does the row vary with the integer width?
    pub widths: bool,
    /// Does the row's main input have a place?
    pub placed: bool,
    make: Make,
}

fn int(w: u64) -> String {
    format!("i{w}")
}

/// `DIOpArg(0, T), DIOpArg(1, T), OP` over `T`.
fn binary(op: &'static str, t: impl Fn(u64) -> String + Send + Sync + 'static) -> Make {
    Box::new(move |w| {
        let t = t(w);
        (
            format!("DIOpArg(0, {t}), DIOpArg(1, {t}), DIOp{op}()"),
            vec![t.clone(), t],
        )
    })
}

/// A row whose inputs are all `T = iw`, main input first: `text` with `$T`
/// replaced (and `$W` by `w`).
fn of_width(text: &'static str, inputs: usize) -> Make {
    Box::new(move |w| (text.replace("$T", &int(w)), vec![int(w); inputs]))
}

const FLOATS: [&str; 6] = ["half", "bfloat", "float", "double", "x86_fp80", "fp128"];

/// Every row, in the spec's order of ops.
pub fn rows() -> Vec<Row> {
    let r = |op: &str, widths, placed, make| Row {
        op: op.to_string(),
        widths,
        placed,
        make,
    };
    let mut v = vec![
        r("Referrer", true, true, of_width("DIOpReferrer($T)", 1)),
        r("Arg", true, true, of_width("DIOpArg(0, $T)", 1)),
        r("TypeObject", true, true, of_width("DIOpTypeObject($T)", 1)),
        r("Constant", true, false, of_width("DIOpConstant($T 1)", 0)),
        r(
            "Convert(int)",
            true,
            true,
            Box::new(|w| {
                (
                    format!(
                        "DIOpArg(0, {}), DIOpConvert({})",
                        int(w),
                        int(w.div_ceil(2))
                    ),
                    vec![int(w)],
                )
            }),
        ),
        r(
            "ZExt",
            true,
            true,
            Box::new(|w| {
                (
                    format!("DIOpArg(0, {}), DIOpZExt({})", int(w), int(w + 8)),
                    vec![int(w)],
                )
            }),
        ),
        r(
            "SExt",
            true,
            true,
            Box::new(|w| {
                (
                    format!("DIOpArg(0, {}), DIOpSExt({})", int(w), int(w + 8)),
                    vec![int(w)],
                )
            }),
        ),
        r(
            "Reinterpret",
            true,
            true,
            Box::new(|w| {
                (
                    format!("DIOpArg(0, {}), DIOpReinterpret(<{w} x i1>)", int(w)),
                    vec![int(w)],
                )
            }),
        ),
        r(
            "BitOffset",
            true,
            true,
            of_width("DIOpArg(0, $T), DIOpArg(1, $T), DIOpBitOffset(i8)", 2),
        ),
        r(
            "ByteOffset",
            true,
            true,
            Box::new(|w| {
                (
                    format!(
                        "DIOpArg(0, i64), DIOpArg(1, {}), DIOpByteOffset(i8)",
                        int(w)
                    ),
                    vec!["i64".into(), int(w)],
                )
            }),
        ),
        r(
            "Composite",
            true,
            true,
            Box::new(|w| {
                let t = int(w);
                (
                    format!(
                        "DIOpArg(0, {t}), DIOpArg(1, {t}), DIOpComposite(2, {})",
                        int(2 * w)
                    ),
                    vec![t.clone(), t],
                )
            }),
        ),
        r(
            "Extend",
            true,
            true,
            of_width("DIOpArg(0, $T), DIOpExtend(4)", 1),
        ),
        r(
            "Select",
            true,
            true,
            Box::new(|w| {
                let v = format!("<4 x {}>", int(w));
                (
                    format!("DIOpArg(0, {v}), DIOpArg(1, {v}), DIOpArg(2, i4), DIOpSelect()"),
                    vec![v.clone(), v, "i4".into()],
                )
            }),
        ),
        r(
            "AddrOf",
            true,
            true,
            of_width("DIOpArg(0, $T), DIOpAddrOf(0)", 1),
        ),
        r(
            "AddrOf+Deref",
            true,
            true,
            of_width("DIOpArg(0, $T), DIOpAddrOf(0), DIOpDeref($T)", 1),
        ),
        r(
            "Deref",
            true,
            true,
            Box::new(|w| {
                (
                    format!("DIOpArg(0, ptr), DIOpDeref({})", int(w)),
                    vec!["ptr".into()],
                )
            }),
        ),
        r(
            "Read",
            true,
            true,
            of_width("DIOpArg(0, $T), DIOpRead()", 1),
        ),
    ];
    for op in ["Add", "Sub", "Mul", "Div", "LShr", "AShr", "Shl"] {
        v.push(r(op, true, true, binary(op, int)));
    }
    v.push(r("PushLane", true, false, of_width("DIOpPushLane($T)", 0)));
    v.push(r(
        "Fragment",
        true,
        true,
        of_width("DIOpArg(0, $T), DIOpFragment(8, $W)", 1),
    ));
    for op in ["And", "Or", "Xor", "Mod"] {
        v.push(r(op, true, true, binary(op, int)));
    }
    // The floating-point formats: conversions at every width, arithmetic
    // once per format.
    for f in FLOATS {
        v.push(r(
            &format!("Convert({f}->int)"),
            true,
            true,
            Box::new(move |w| float_to_int(f, w)),
        ));
        v.push(r(
            &format!("Convert(int->{f})"),
            true,
            true,
            Box::new(move |w| int_to_float(f, w)),
        ));
    }
    for f in FLOATS {
        for op in ["Add", "Sub", "Mul", "Div"] {
            v.push(r(
                &format!("{op}({f})"),
                false,
                true,
                binary(op, move |_| f.to_string()),
            ));
        }
    }
    v
}

fn float_to_int(f: &str, w: u64) -> (String, Vec<String>) {
    (
        format!("DIOpArg(0, {f}), DIOpConvert({})", int(w)),
        vec![f.into()],
    )
}

fn int_to_float(f: &str, w: u64) -> (String, Vec<String>) {
    (
        format!("DIOpArg(0, {}), DIOpConvert({f})", int(w)),
        vec![int(w)],
    )
}

/// One instance of a row.
#[derive(Clone, Debug)]
pub struct Instance {
    pub op: String,
    pub width: Option<u64>,
    pub placement: Placement,
    pub target: Target,
    pub expr: String,
    pub context: String,
}

/// The context text that puts the inputs `types` (main input first) where
/// `p` says, the others each in a register of its own; SIMT (a lane).
fn context_text(
    types: &[String],
    p: Placement,
    layout: &dioptra_semantics::types::DataLayout,
) -> Result<String, Diag> {
    let mut out = String::from("(context t\n  (lane 0)");
    let zeros = |bits: u64| vec!["00"; bits.div_ceil(8) as usize].join(" ");
    for (i, t) in types.iter().enumerate() {
        let ty = dioptra_semantics::text::expr::parse_type(t)?;
        let bits = layout.bitsizeof(&ty);
        let reg = 10 + i as u32;
        let loc = match (i, p) {
            (0, Placement::Memory(a)) => format!("mem({a}, 0x1000)"),
            (0, Placement::Implicit) => {
                format!("imp({bits}, 0x{})", "0".repeat(bits.div_ceil(4) as usize))
            }
            (0, Placement::Composite) if bits >= 2 => {
                let low = bits / 2;
                out += &format!("\n  (register {reg} \"{}\")", zeros(low));
                format!("comp({low}: reg({reg}), {}: mem(0, 0x2000))", bits - low)
            }
            _ => {
                out += &format!("\n  (register {reg} \"{}\")", zeros(bits));
                format!("reg({reg})")
            }
        };
        out += &format!("\n  (arg \"{t}\" \"{loc}\")");
        if i == 0 {
            out += &format!("\n  (referrer \"{t}\" \"{loc}\")\n  (typeobject \"{t}\" \"{loc}\")");
        }
    }
    out += ")";
    Ok(out)
}

/// Every instance of the table for integer widths `widths` and `targets`.
pub fn instances(widths: &[u64], targets: &[Target]) -> Result<Vec<Instance>, Diag> {
    let layout = dioptra_semantics::types::DataLayout::default();
    let mut out = Vec::new();
    for row in rows() {
        let ws: Vec<Option<u64>> = if row.widths {
            widths.iter().map(|&w| Some(w)).collect()
        } else {
            vec![None]
        };
        let places: &[Placement] = if row.placed {
            &Placement::ALL
        } else {
            &[Placement::None]
        };
        for &w in &ws {
            let (expr, types) = (row.make)(w.unwrap_or(32));
            let expr = expr.replace("$W", &w.unwrap_or(32).to_string());
            for &p in places {
                let context = context_text(&types, p, &layout)?;
                for &target in targets {
                    out.push(Instance {
                        op: row.op.clone(),
                        width: w,
                        placement: p,
                        target,
                        expr: expr.clone(),
                        context: context.clone(),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// What became of one instance.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Proven,
    Refines,
    /// A counterexample (the corpus cases that show it).
    NotProven(String),
    Unknown(String),
    /// The lowering is not expressible for the target (the diagnostic).
    NotExpressible(String),
    /// The expression is not well-formed in the instance's context, or the
    /// encoding does not model it (the diagnostic).
    NotEncoded(String),
}

impl Outcome {
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Proven => "proven",
            Outcome::Refines => "refines",
            Outcome::NotProven(_) => "not-proven",
            Outcome::Unknown(_) => "unknown",
            Outcome::NotExpressible(_) => "not-expressible",
            Outcome::NotEncoded(_) => "not-encoded",
        }
    }
}

/// Lowers and proves one instance; the outcome and the solver's time.
pub fn run_instance(i: &Instance, timeout_ms: u32) -> (Outcome, Duration) {
    let go = || -> Result<(Outcome, Duration), Diag> {
        let ctx = ConcreteContext::parse(&i.context)?;
        let expr = parse_expr(&i.expr)?;
        let l = match lower(&expr, &ctx, i.target) {
            Ok(l) => l,
            Err(d) if d.reason == "not-expressible" => {
                return Ok((Outcome::NotExpressible(d.to_string()), Duration::ZERO))
            }
            Err(d) => return Err(d),
        };
        let p = prove(&expr, &l, &ctx, Encoding::default(), timeout_ms)?;
        let o = match &p.proof {
            Proof::Proven => Outcome::Proven,
            Proof::Refines(_) => Outcome::Refines,
            Proof::Unknown(r) => Outcome::Unknown(r.clone()),
            Proof::NotProven(c) => Outcome::NotProven(format!(
                "{}\n{}\n(assert_dwarf_equiv \"{}\" (in cex) (dwarf \"{}\") (verdict \"differ\"))",
                c.agreement.describe(),
                c.context.to_script("cex"),
                i.expr,
                l.listing.print(Encoding::default()).replace('"', "\\\"")
            )),
        };
        Ok((o, p.solver_time))
    };
    go().unwrap_or_else(|d| (Outcome::NotEncoded(d.to_string()), Duration::ZERO))
}

/// What became of one instance, with the solver's time and the whole
/// instance's (lowering, encoding, solving, confirming a counterexample).
#[derive(Clone, Debug)]
pub struct Ran {
    pub outcome: Outcome,
    pub solver: Duration,
    pub total: Duration,
}

/// The outcomes of `instances` on `jobs` threads (each with its own solver
/// context), in the instances' order; `progress` is called after each.
pub fn run_all(
    instances: &[Instance],
    timeout_ms: u32,
    jobs: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Ran> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Ran>>> = Mutex::new(vec![None; instances.len()]);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(i) = instances.get(k) else { break };
                let started = Instant::now();
                let (outcome, solver) = run_instance(i, timeout_ms);
                let r = Ran {
                    outcome,
                    solver,
                    total: started.elapsed(),
                };
                results.lock().expect("no worker panics holding the lock")[k] = Some(r);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    results
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|r| r.expect("every instance ran"))
        .collect()
}

/// Counts per (op, target) and outcome word, and the solver times.
#[derive(Default)]
pub struct Summary {
    pub counts: BTreeMap<(String, &'static str), BTreeMap<&'static str, usize>>,
    /// Solver time of every instance that reached the solver.
    pub times: Vec<Duration>,
    /// Instances that are not proven or unknown, with their outcome.
    pub exceptions: Vec<(Instance, Outcome)>,
    /// The whole time of each row's instances on one core, per (op, target).
    pub row_time: BTreeMap<(String, &'static str), Duration>,
}

pub fn summarize(instances: &[Instance], results: &[Ran]) -> Summary {
    let mut s = Summary::default();
    for (i, r) in instances.iter().zip(results) {
        let (o, t) = (&r.outcome, &r.solver);
        *s.row_time
            .entry((i.op.clone(), i.target.name()))
            .or_default() += r.total;
        *s.counts
            .entry((i.op.clone(), i.target.name()))
            .or_default()
            .entry(o.word())
            .or_default() += 1;
        if matches!(
            o,
            Outcome::Proven | Outcome::Refines | Outcome::NotProven(_) | Outcome::Unknown(_)
        ) {
            s.times.push(*t);
        }
        if matches!(
            o,
            Outcome::NotProven(_) | Outcome::Unknown(_) | Outcome::NotEncoded(_)
        ) {
            s.exceptions.push((i.clone(), o.clone()));
        }
    }
    s.times.sort();
    s
}

/// How long a run took, and the median solver time.
pub fn median(times: &[Duration]) -> Duration {
    times.get(times.len() / 2).copied().unwrap_or_default()
}
