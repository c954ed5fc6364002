//! The SMT encoding: DIOp expressions as z3 formulas over a symbolic
//! context, and a thin wrapper around the solver.
//!
//! * [`encode`]: one `encode_<op>` per op, beside `eval`'s `eval_<op>`;
//! * [`loc`]: symbolic location descriptions, `read`, offsets, composites
//!   and the comparison of two locations;
//! * [`world`]: the symbolic context (memory, registers, inputs, lane), built
//!   from a concrete context or over a signature, and turned back into a
//!   concrete context from a model;
//! * [`term`]: helpers over z3 terms.
//!
//! What cannot be encoded is `SMT: <reason>` with the `unsupported`
//! outcome, never an approximation.

pub mod encode;
pub mod equiv;
pub mod loc;
pub mod term;
pub mod world;

pub use encode::{encode, Encoded};
pub use world::World;

use z3::ast::Bool;
use z3::{Model, Params, SatResult, Solver};

/// The default per-query time limit, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u32 = 10_000;

/// What the solver said about a set of assertions.
pub enum Answer {
    Sat(Model),
    Unsat,
    /// The solver gave up (time limit, or its own reason).
    Unknown(String),
}

/// How long a query may take on the thread's reused solver before it is
/// asked again of a fresh one (milliseconds).
const QUICK_MS: u32 = 250;

thread_local! {
    /// One solver per thread, reused inside `push`/`pop`: creating a z3
    /// solver and setting its parameters costs more than most queries.
    static QUICK: Solver = {
        let solver = Solver::new();
        let mut p = Params::new();
        p.set_u32("timeout", QUICK_MS);
        solver.set_params(&p);
        solver
    };
}

fn answer(solver: &Solver) -> Answer {
    match solver.check() {
        SatResult::Sat => match solver.get_model() {
            Some(m) => Answer::Sat(m),
            None => Answer::Unknown("the solver found no model".into()),
        },
        SatResult::Unsat => Answer::Unsat,
        SatResult::Unknown => Answer::Unknown(
            solver
                .get_reason_unknown()
                .unwrap_or_else(|| "unknown".into()),
        ),
    }
}

/// Asks whether `facts` can all hold, within `timeout_ms`.
///
/// The query goes first to the thread's reused solver for at most
/// `QUICK_MS`; z3 runs it there with its incremental engine, which answers
/// most queries in microseconds but is several times slower on hard
/// bit-vector arithmetic. If it gives up, a fresh solver (z3's
/// non-incremental tactics) gets the query with the full time limit.
pub fn solve(facts: &[&Bool], timeout_ms: u32) -> Answer {
    if timeout_ms > QUICK_MS {
        let quick = QUICK.with(|solver| {
            solver.push();
            for f in facts {
                solver.assert(*f);
            }
            let a = answer(solver);
            solver.pop(1);
            a
        });
        if !matches!(quick, Answer::Unknown(_)) {
            return quick;
        }
    }
    let solver = Solver::new();
    let mut p = Params::new();
    p.set_u32("timeout", timeout_ms.max(1));
    solver.set_params(&p);
    for f in facts {
        solver.assert(*f);
    }
    answer(&solver)
}

/// How the encoding and the interpreter compare on one expression and one
/// concrete context.
#[derive(Debug)]
pub enum Agreement {
    /// Same outcome; on success the same location and the same value.
    Agree,
    /// The encoding (or the interpreter) does not handle this case.
    Unsupported(crate::Diag),
    /// They differ: a bug in one of them.
    Disagree(String),
}

/// The agreement law on one case: the model of the formula of `expr` over
/// the world of `ctx` says what the interpreter says (succeeds or fails; on
/// success the same location, and the same value or the same read failure).
pub fn agreement(
    expr: &crate::syntax::Expr,
    ctx: &crate::context::ConcreteContext,
    timeout_ms: u32,
) -> Agreement {
    use crate::diag::Outcome;
    use crate::location::same_location;
    let interp = crate::eval::eval(expr, ctx);
    if let Err(d) = &interp {
        if d.outcome == Outcome::Unsupported {
            return Agreement::Unsupported(d.clone());
        }
    }
    let world = World::concrete(ctx);
    let enc = match encode(expr, &world) {
        Ok(e) => e,
        Err(d) if d.outcome == Outcome::Unsupported => return Agreement::Unsupported(d),
        Err(d) => {
            return match &interp {
                Err(i) if i.outcome == d.outcome && i.reason == d.reason => Agreement::Agree,
                _ => Agreement::Disagree(format!(
                    "encoding failed with `{d}` where the interpreter gives {interp:?}"
                )),
            }
        }
    };
    let n = ctx.layout.bitsizeof(&enc.ty);
    let read = if world::check_width(n).is_ok() {
        match loc::read(&world, &enc.loc, n) {
            Ok(r) => Some(r),
            Err(d) => return Agreement::Unsupported(d),
        }
    } else {
        None
    };
    let model = match solve(&[], timeout_ms) {
        Answer::Sat(m) => m,
        Answer::Unsat => return Agreement::Disagree("no model of a ground formula".into()),
        Answer::Unknown(r) => return Agreement::Unsupported(loc::unsupported("unknown", r)),
    };
    let ok = model
        .eval(&enc.ok, true)
        .and_then(|b| b.as_bool())
        .unwrap_or(false);
    let ev = match (&interp, ok) {
        (Ok(ev), true) => ev,
        (Err(d), false) if d.outcome == Outcome::EvalError => return Agreement::Agree,
        (Err(d), _) => {
            return Agreement::Disagree(format!(
                "the interpreter fails with `{d}`, the encoding says evaluation {}",
                if ok {
                    "succeeds"
                } else {
                    "fails with another outcome"
                }
            ))
        }
        (Ok(ev), false) => {
            return Agreement::Disagree(format!(
                "the interpreter gives {} but the encoding says evaluation fails",
                ev.loc
            ))
        }
    };
    if !ev.ty.same(&enc.ty) {
        return Agreement::Disagree(format!("types differ: {} and {}", ev.ty, enc.ty));
    }
    let smt_loc = match world::concrete_loc(&model, &enc.loc) {
        Ok(l) => l,
        Err(d) => return Agreement::Unsupported(d),
    };
    if !same_location(&ev.loc, &smt_loc, n) {
        return Agreement::Disagree(format!(
            "the interpreter gives {} but the encoding {}",
            ev.loc, smt_loc
        ));
    }
    let Some(read) = read else {
        return Agreement::Agree;
    };
    let read_ok = model
        .eval(&read.ok, true)
        .and_then(|b| b.as_bool())
        .unwrap_or(false);
    match ev.value(ctx) {
        Ok(v) => {
            let smt_v = model
                .eval(&read.value, true)
                .and_then(|x| term::numeral_bits(&x));
            if !read_ok || smt_v.as_ref() != Some(&v) {
                return Agreement::Disagree(format!(
                    "the interpreter reads 0x{} but the encoding {} {:?}",
                    v.hex(),
                    if read_ok { "reads" } else { "fails to read" },
                    smt_v
                ));
            }
        }
        Err(d) if d.outcome == Outcome::EvalError && read_ok => {
            return Agreement::Disagree(format!(
                "the interpreter cannot read the result (`{d}`) but the encoding can"
            ))
        }
        Err(_) => {}
    }
    Agreement::Agree
}
