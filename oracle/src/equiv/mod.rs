//! The equivalence prover: do two expressions over the same inputs describe
//! the same location in every context? Built on the SMT encoding: a
//! counterexample is a model of the symbolic
//! world, turned into a concrete context, re-run through the interpreter
//! before it is shown, and printed as corpus cases.

pub mod classic;

use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::eval::{eval, Evaluated};
use dioptra_semantics::location::same_location;
use dioptra_semantics::smt::loc::same_location as smt_same_location;
use dioptra_semantics::smt::{disagree, encode, not_refined, solve, Answer, Encoded, World};
use dioptra_semantics::syntax::{Expr, Op};
use dioptra_semantics::types::Type;
use dioptra_semantics::wellformed::check;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// What the prover concluded.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Same definedness, and where defined the same location, in every
    /// context.
    Equivalent,
    /// Not equivalent (the counterexample shows where), but the target
    /// refines the source: wherever the target is defined, the source is
    /// defined with the same location.
    Refines(Counterexample),
    /// Not equivalent, and the target does not refine the source.
    NotEquivalent(Counterexample),
    /// The two results differ in type or fragment: no context needed.
    Different(String),
    /// The solver gave up; never a proof.
    Unknown(String),
}

/// A context where the two expressions differ, confirmed by the
/// interpreter.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub context: ConcreteContext,
    pub source: Result<Evaluated, Diag>,
    pub target: Result<Evaluated, Diag>,
}

/// The answer and the time the solver took.
pub struct Proved {
    pub verdict: Verdict,
    pub solver_time: Duration,
}

impl Verdict {
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Equivalent => "equivalent",
            Verdict::Refines(_) => "refines",
            Verdict::NotEquivalent(_) | Verdict::Different(_) => "not-equivalent",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// The address spaces an input held in memory may be in: those the
/// expressions or the inputs' types name and whose memory is modelled, or 0.
pub fn address_spaces(sig: &Signature, exprs: &[&Expr]) -> Vec<u32> {
    fn of(t: &Type, out: &mut BTreeSet<u32>) {
        match t {
            Type::Ptr { addrspace, .. } => {
                out.insert(*addrspace);
            }
            Type::Vector { elem, .. } | Type::Array { elem, .. } => of(elem, out),
            Type::Struct { fields, .. } => fields.iter().for_each(|f| of(f, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for t in sig.referrer.iter().chain(&sig.args).chain(&sig.type_object) {
        of(t, &mut out);
    }
    for e in exprs {
        for op in &e.ops {
            if let Op::AddrOf(n) = op {
                out.insert(*n);
            }
            if let Some(t) = op.ty() {
                of(t, &mut out);
            }
        }
    }
    // Inputs lie only in memory dioptra models (D-wide-pointers).
    out.retain(|&n| sig.layout.memory_pointer_bits(n).is_ok());
    if out.is_empty() {
        out.insert(0);
    }
    out.into_iter().collect()
}

/// One side of an equivalence: anything with a static result, an SMT
/// encoding and an interpreter (a DIOp expression, or a classic one with
/// its parameters, `classic::Classic`).
pub trait Side {
    /// The result type and fragment, or why the side is not well-formed.
    fn checked(&self, sig: &Signature) -> Result<(Type, Option<(u64, u64)>), Diag>;
    fn encode(&self, world: &World) -> Result<Encoded, Diag>;
    fn eval(&self, ctx: &ConcreteContext) -> Result<Evaluated, Diag>;
    /// The DIOp expression, if the side is one (for the address spaces).
    fn diop(&self) -> Option<&Expr> {
        None
    }
}

impl Side for Expr {
    fn checked(&self, sig: &Signature) -> Result<(Type, Option<(u64, u64)>), Diag> {
        let c = check(self, sig)?;
        Ok((c.result, c.fragment))
    }
    fn encode(&self, world: &World) -> Result<Encoded, Diag> {
        encode(self, world)
    }
    fn eval(&self, ctx: &ConcreteContext) -> Result<Evaluated, Diag> {
        eval(self, ctx)
    }
    fn diop(&self) -> Option<&Expr> {
        Some(self)
    }
}

/// Proves `source` and `target` equivalent over `sig`, or finds a
/// counterexample context, within `timeout_ms` per solver query.
pub fn prove(
    source: &Expr,
    target: &Expr,
    sig: &Signature,
    timeout_ms: u32,
) -> Result<Proved, Diag> {
    prove_sides(source, target, sig, timeout_ms)
}

/// [`prove`] for any two sides; a panic of the z3 crate is this query's
/// `solver-error` (`smt::guarded`).
pub fn prove_sides(
    source: &dyn Side,
    target: &dyn Side,
    sig: &Signature,
    timeout_ms: u32,
) -> Result<Proved, Diag> {
    dioptra_semantics::smt::guarded(|| prove_unguarded(source, target, sig, timeout_ms))
}

fn prove_unguarded(
    source: &dyn Side,
    target: &dyn Side,
    sig: &Signature,
    timeout_ms: u32,
) -> Result<Proved, Diag> {
    let (ts, fs) = source.checked(sig)?;
    let (tt, ft) = target.checked(sig)?;
    let mut solver_time = Duration::ZERO;
    let done = |verdict, solver_time| {
        Ok(Proved {
            verdict,
            solver_time,
        })
    };
    if !ts.same(&tt) {
        return done(
            Verdict::Different(format!("the results have types `{ts}` and `{tt}`")),
            solver_time,
        );
    }
    if fs != ft {
        return done(
            Verdict::Different(format!("the fragments differ: {fs:?} and {ft:?}")),
            solver_time,
        );
    }
    let diop: Vec<&Expr> = [source.diop(), target.diop()]
        .into_iter()
        .flatten()
        .collect();
    let mut spaces = address_spaces(sig, &diop);
    if diop.len() < 2 && !spaces.contains(&0) {
        // A classic expression reads the memory of address space 0.
        spaces.insert(0, 0);
    }
    let world = World::symbolic(sig, &spaces)?;
    let s = source.encode(&world)?;
    let t = target.encode(&world)?;
    let n = sig.layout.bitsizeof(&s.ty);
    let same = smt_same_location(&world, &s.loc, &t.loc, n)?;
    // Equivalent: the same definedness, and where defined the same location.
    let differ = disagree(&s.ok, &t.ok, &same);
    let domain = world.domain();
    let started = Instant::now();
    let answer = solve(&[&differ, &domain], timeout_ms);
    solver_time += started.elapsed();
    let model = match answer {
        Answer::Unsat => return done(Verdict::Equivalent, solver_time),
        Answer::Unknown(r) => return done(Verdict::Unknown(r), solver_time),
        Answer::Sat(m) => m,
    };
    let cex = confirm(source, target, &world.concretize(&model)?, n)?;
    // Refinement: wherever the target is defined, the source is defined
    // with the same location.
    let bad = not_refined(&s.ok, &t.ok, &same);
    let started = Instant::now();
    let answer = solve(&[&bad, &domain], timeout_ms);
    solver_time += started.elapsed();
    match answer {
        Answer::Unsat => done(Verdict::Refines(cex), solver_time),
        Answer::Unknown(r) => done(
            Verdict::Unknown(format!("not equivalent; refinement unknown: {r}")),
            solver_time,
        ),
        Answer::Sat(m) => {
            let worse = confirm(source, target, &world.concretize(&m)?, n)?;
            done(Verdict::NotEquivalent(worse), solver_time)
        }
    }
}

/// Re-runs a counterexample through the interpreter. One it does not
/// confirm is a bug in dioptra, reported as such.
fn confirm(
    source: &dyn Side,
    target: &dyn Side,
    ctx: &ConcreteContext,
    n: u64,
) -> Result<Counterexample, Diag> {
    let a = source.eval(ctx);
    let b = target.eval(ctx);
    let bug = |why: String| {
        Err(Diag::new(
            Outcome::Unsupported,
            "SMT",
            "unconfirmed-counterexample",
            format!(
                "a dioptra bug: the solver's counterexample is not one for the interpreter ({why}); context:\n{}",
                ctx.to_script("cex")
            ),
        ))
    };
    for r in [&a, &b] {
        if let Err(d) = r {
            if d.outcome == Outcome::Unsupported {
                return bug(format!("the interpreter says `{d}`"));
            }
        }
    }
    let differ = match (&a, &b) {
        (Ok(x), Ok(y)) => !same_location(&x.loc, &y.loc, n),
        (Err(_), Err(_)) => false,
        _ => true,
    };
    if !differ {
        return bug("both expressions give the same outcome".into());
    }
    Ok(minimize(
        source,
        target,
        Counterexample {
            context: ctx.clone(),
            source: a,
            target: b,
        },
        n,
    ))
}

/// Drops the memory segments and registers the counterexample does not
/// need (the model also fixes bytes of branches not taken), keeping the
/// two outcomes exactly as they are.
pub fn minimize(
    source: &dyn Side,
    target: &dyn Side,
    mut cex: Counterexample,
    n: u64,
) -> Counterexample {
    let same = |x: &Result<Evaluated, Diag>, y: &Result<Evaluated, Diag>| match (x, y) {
        (Ok(a), Ok(b)) => a.ty.same(&b.ty) && same_location(&a.loc, &b.loc, n) && a.loc == b.loc,
        (Err(a), Err(b)) => a.outcome == b.outcome && a.reason == b.reason,
        _ => false,
    };
    let keeps = |c: &ConcreteContext, cex: &Counterexample| {
        same(&source.eval(c), &cex.source) && same(&target.eval(c), &cex.target)
    };
    let keys: Vec<(u32, u64)> = cex.context.memory.keys().copied().collect();
    for k in keys {
        let mut c = cex.context.clone();
        c.memory.remove(&k);
        if keeps(&c, &cex) {
            cex.context = c;
        }
    }
    let regs: Vec<u32> = cex.context.registers.keys().copied().collect();
    for r in regs {
        let mut c = cex.context.clone();
        c.registers.remove(&r);
        if keeps(&c, &cex) {
            cex.context = c;
        }
    }
    cex
}

/// The corpus cases that pin a counterexample down: the context and one
/// assertion per expression.
pub fn counterexample_script(cex: &Counterexample, source: &str, target: &str) -> String {
    let mut out = cex.context.to_script("cex");
    for (text, r) in [(source, &cex.source), (target, &cex.target)] {
        let quoted = text.replace('\\', "\\\\").replace('"', "\\\"");
        out += &match r {
            Ok(ev) => format!(
                "\n(assert_location \"{quoted}\" (in cex) (location \"{}\") (type \"{}\"))",
                ev.loc, ev.ty
            ),
            Err(d) => format!(
                "\n(assert_eval_error \"{quoted}\" (in cex) (reason \"{}: {}\"))",
                d.construct, d.reason
            ),
        };
    }
    out
}
