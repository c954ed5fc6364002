//! Proving a lowering: does the DWARF describe the same location as the
//! DIOp expression in *every* context with the inputs where the code
//! generator put them?
//!
//! Both sides are encoded over one symbolic world (`World::placed`): the
//! inputs' places are those of the lowering's context (which register, which
//! address in which address space, which implicit value); the contents and
//! definedness of every register and of all memory, and the lane, are
//! universally quantified. The DIOp side is `smt::encode`, the DWARF side
//! `dwarf::smt::encode_dwarf`, the twin of the evaluator that
//! [`super::compare`] runs; a counterexample is a model of the world turned
//! into a concrete context, confirmed by both interpreters before it is
//! shown.

use super::compare::{compare, Agreement};
use super::Lowered;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::dwarf::smt::encode_dwarf;
use dioptra_semantics::dwarf::Encoding;
use dioptra_semantics::smt::loc::{offset_by, refines_location, same_location};
use dioptra_semantics::smt::term::{off_u, tt};
use dioptra_semantics::smt::{disagree, encode, solve, Answer, World};
use dioptra_semantics::syntax::Expr;
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool};

/// A context where the DWARF and the expression differ, and how (the
/// concrete comparison in that context).
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub context: ConcreteContext,
    pub agreement: Agreement,
}

/// What the prover concluded about a lowering.
#[derive(Clone, Debug)]
pub enum Proof {
    /// The same definedness, and where defined the same location, in every
    /// context with this placement.
    Proven,
    /// Not the same everywhere (the counterexample shows where), but
    /// wherever the expression gives a location the DWARF gives the same one
    /// (D-lower-refines: the DWARF may be defined where the expression is
    /// not, never different).
    Refines(Counterexample),
    /// Somewhere the expression gives a location and the DWARF fails or
    /// gives another.
    NotProven(Counterexample),
    /// The solver gave up; never a proof.
    Unknown(String),
}

impl Proof {
    pub fn word(&self) -> &'static str {
        match self {
            Proof::Proven => "proven",
            Proof::Refines(_) => "refines",
            Proof::NotProven(_) => "not-proven",
            Proof::Unknown(_) => "unknown",
        }
    }
    /// Does the lowering respect the law (proven, or refines)?
    pub fn holds(&self) -> bool {
        matches!(self, Proof::Proven | Proof::Refines(_))
    }
    pub fn counterexample(&self) -> Option<&Counterexample> {
        match self {
            Proof::Refines(c) | Proof::NotProven(c) => Some(c),
            _ => None,
        }
    }
}

/// The answer and the time the solver took.
pub struct Proved {
    pub proof: Proof,
    pub solver_time: Duration,
}

/// Proves that `lowered` (the DWARF of `expr` for the inputs' places in
/// `ctx`) describes the expression's location in every context with those
/// places, or finds a confirmed counterexample; `timeout_ms` per solver
/// query.
///
/// A panic of the z3 crate is this query's `solver-error`
/// (`smt::guarded`), as for `equiv`.
pub fn prove(
    expr: &Expr,
    lowered: &Lowered,
    ctx: &ConcreteContext,
    enc: Encoding,
    timeout_ms: u32,
) -> Result<Proved, Diag> {
    dioptra_semantics::smt::guarded(|| prove_unguarded(expr, lowered, ctx, enc, timeout_ms))
}

fn prove_unguarded(
    expr: &Expr,
    lowered: &Lowered,
    ctx: &ConcreteContext,
    enc: Encoding,
    timeout_ms: u32,
) -> Result<Proved, Diag> {
    let world = World::placed(ctx);
    let source = encode(expr, &world)?;
    let dwarf = encode_dwarf(&lowered.listing.ops, &lowered.listing.unit, enc, &world)?;
    // A fragment's DWARF describes the variable; the expression is bits
    // `offset..offset + bits` of it.
    let (dwarf_loc, dwarf_ok) = if lowered.offset > 0 {
        let (moved, ok) = offset_by(&world, &dwarf.loc, &off_u(lowered.offset as u128), &tt());
        (moved, Bool::and(&[&dwarf.ok, &ok]))
    } else {
        (dwarf.loc, dwarf.ok)
    };
    let n = lowered.bits;
    let same = same_location(&world, &source.loc, &dwarf_loc, n)?;
    let refines = refines_location(&world, &source.loc, &dwarf_loc, n)?;
    let mut solver_time = Duration::ZERO;
    let mut ask = |q: &Bool| {
        let started = Instant::now();
        let a = solve(&[q], timeout_ms);
        solver_time += started.elapsed();
        a
    };
    let differ = disagree(&source.ok, &dwarf_ok, &same).simplify();
    let first = match ask(&differ) {
        Answer::Unsat => Proof::Proven,
        Answer::Unknown(r) => Proof::Unknown(r),
        Answer::Sat(m) => {
            let c = world.concretize(&m)?;
            let cex = confirm(expr, lowered, &c, enc, false)?;
            // Wherever the expression is defined, the DWARF gives its
            // location (D-lower-refines)?
            let worse = Bool::and(&[&source.ok, &Bool::and(&[&dwarf_ok, &refines]).not()]);
            match ask(&worse) {
                Answer::Unsat => Proof::Refines(cex),
                Answer::Unknown(r) => {
                    Proof::Unknown(format!("not the same everywhere; refinement unknown: {r}"))
                }
                Answer::Sat(m) => {
                    let c = world.concretize(&m)?;
                    Proof::NotProven(confirm(expr, lowered, &c, enc, true)?)
                }
            }
        }
    };
    Ok(Proved {
        proof: first,
        solver_time,
    })
}

/// Re-runs a counterexample through both interpreters: a difference where
/// `strict`, any departure from "the same" otherwise. One they do not
/// confirm is a bug in dioptra, reported as such.
fn confirm(
    expr: &Expr,
    lowered: &Lowered,
    ctx: &ConcreteContext,
    enc: Encoding,
    strict: bool,
) -> Result<Counterexample, Diag> {
    let agreement = compare(expr, lowered, ctx, enc);
    let confirmed = match &agreement {
        Agreement::Differ { .. } => true,
        Agreement::MoreDefined { .. } => !strict,
        _ => false,
    };
    if !confirmed {
        return Err(Diag::new(
            Outcome::Unsupported,
            "SMT",
            "unconfirmed-counterexample",
            format!(
                "a dioptra bug: the solver's counterexample is not one for the interpreters ({}); context:\n{}",
                agreement.describe(),
                ctx.to_script("cex")
            ),
        ));
    }
    Ok(Counterexample {
        context: ctx.clone(),
        agreement,
    })
}
