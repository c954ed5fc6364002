//! The SMT encoding: DIOp expressions as z3 formulas over a symbolic
//! context, and a thin wrapper around the solver.
//!
//! * [`encode`]: one `encode_<op>` per op, beside `eval`'s `eval_<op>`;
//! * [`loc`]: symbolic location descriptions, `read`, offsets, composites
//!   and the comparison of two locations;
//! * [`world`]: the symbolic context (memory, registers, inputs, lane), built
//!   from a concrete context or over a signature, and turned back into a
//!   concrete context from a model;
//! * [`ir`]: the LLVM IR instructions salvages fold, over z3 terms;
//! * [`term`]: helpers over z3 terms.
//!
//! What cannot be encoded is `SMT: <reason>` with the `unsupported`
//! outcome, never an approximation.

pub mod encode;
pub mod ir;
pub mod loc;
pub mod term;
pub mod world;

pub use encode::{encode, Encoded};
pub use world::World;
/// A model of a satisfiable query (what [`Answer::Sat`] holds).
pub use z3::Model;

use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

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

thread_local! {
    /// The thread's reused solver for queries whose whole limit is at most
    /// `QUICK_MS`, with that limit.
    static SHORT: std::cell::RefCell<Option<(u32, Solver)>> = const { std::cell::RefCell::new(None) };
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
/// A query whose whole limit is at most `QUICK_MS` goes to a reused
/// solver of the thread with that limit, and its answer stands: a fresh
/// solver per query cost `dioptra llvm --solver-ms 200` a third of its
/// checking time (300 functions through instcombine, one core: 10.1 s
/// checking before, 7.1 s after; 13 and 15 of 1 815 records unknown).
///
/// A longer query goes first to the thread's reused solver for at most
/// `QUICK_MS`; z3 runs it there with its incremental engine, which answers
/// most queries in microseconds but is several times slower on hard
/// bit-vector arithmetic. If it gives up, a fresh solver (z3's
/// non-incremental tactics) gets the query with the full time limit.
pub fn solve(facts: &[&Bool], timeout_ms: u32) -> Answer {
    if timeout_ms <= QUICK_MS {
        let short = SHORT.with(|cell| {
            let mut cell = cell.borrow_mut();
            if cell.as_ref().map(|(t, _)| *t) != Some(timeout_ms) {
                let solver = Solver::new();
                let mut p = Params::new();
                p.set_u32("timeout", timeout_ms.max(1));
                solver.set_params(&p);
                *cell = Some((timeout_ms, solver));
            }
            let (_, solver) = cell.as_ref()?;
            solver.push();
            for f in facts {
                solver.assert(*f);
            }
            let a = answer(solver);
            solver.pop(1);
            Some(a)
        });
        if let Some(a) = short {
            return a;
        }
    }
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

/// Runs `f`, which builds and solves z3 queries, turning a panic of the
/// z3 crate (z3 handing back no term: out of memory, an internal error)
/// into this query's `SMT: solver-error`, not a crash of the whole run.
/// The encodings are bounded (`world::MAX_ENCODING_WORK`), so this is the
/// last line of defence.
pub fn guarded<T>(
    f: impl FnOnce() -> Result<T, crate::diag::Diag>,
) -> Result<T, crate::diag::Diag> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".into());
        Err(crate::diag::Diag::unsupported(
            "SMT",
            "solver-error",
            format!("z3 failed while the query was built or solved: {why}"),
        ))
    })
}

/// The condition under which a source and a target differ: one is defined
/// where the other is not, or both are and `same` (their locations agree)
/// is false. Unsatisfiable exactly when the two are equivalent.
pub fn disagree(source_ok: &Bool, target_ok: &Bool, same: &Bool) -> Bool {
    Bool::and(&[&source_ok.eq(target_ok), &source_ok.implies(same)]).not()
}

/// The condition under which a target does not refine a source: the
/// target is defined where the source is not, or at a different location.
/// Unsatisfiable exactly when the target refines the source.
pub fn not_refined(source_ok: &Bool, target_ok: &Bool, same: &Bool) -> Bool {
    Bool::and(&[target_ok, &Bool::and(&[source_ok, same]).not()])
}

/// All of `conditions` (true when there are none).
pub fn all(conditions: &[Bool]) -> Bool {
    Bool::and(&conditions.iter().collect::<Vec<_>>())
}
