//! The laws, one `law_*` function each: given one generated case, the
//! reason the law fails on it, or what was checked ([`Checked`]: compared,
//! or not compared and why -- never a pass). [`crate::table`] names each law
//! once, with its strategy and its one-line statement.

use dioptra_generators::classic::CLASSIC_ARGS;
use dioptra_generators::mutate::mutant;
use dioptra_generators::programs::{MultiProgram, Program};
use dioptra_generators::transform::{self, instance, Form, Transform};
use dioptra_generators::{arb_context, fixed_context, fixed_signature};
use dioptra_oracle::lower::compare::Contexts;
use dioptra_semantics::classic::{ClassicExpr, Params};
use dioptra_semantics::context::Context;
use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::eval::{eval, eval_prefixes_checked, eval_reference};
use dioptra_semantics::lifetime::locate::Analysis;
use dioptra_semantics::lifetime::parse_module;
use dioptra_semantics::lifetime::ranges::{all_ranges, Intrinsics, Reading, Sweep};
use dioptra_semantics::lifetime::wellformed::check_module;
use dioptra_semantics::location::{read, same_location, LocDesc, Storage};
use dioptra_semantics::narrow::eval_narrow;
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::text::parse_expr;
use dioptra_semantics::wellformed::{check, check_prefixes};
use proptest::prelude::*;
use std::rc::Rc;

/// The multi-location listing of a generated program, the calls that
/// break one of the thread's invariants replaced by ordinary instructions
/// one at a time.
pub fn multiloc_listing(p: &Program) -> Result<String, String> {
    use dioptra_semantics::lifetime::multiloc::parse_listing;
    let mut text = p.render_multiloc();
    for dropped in 0..=64 {
        match parse_listing(&text) {
            Ok(_) => return Ok(text),
            Err(d) if d.outcome == Outcome::IllFormed => {
                // `line N: ...`: drop that call.
                let line: usize = d
                    .message
                    .strip_prefix("line ")
                    .and_then(|m| m.split(':').next())
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| format!("a rejection without a line: {d}"))?;
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                lines[line - 1] = format!("  %dropped{dropped} = add i8 1, 2");
                text = lines.join("\n") + "\n";
            }
            Err(d) => return Err(format!("{d}\n{text}")),
        }
    }
    Err(format!("more than 64 calls dropped\n{text}"))
}

/// The multi-location proposal's listing of a generated program (its
/// calls whose token does not dominate them, or that break another of the
/// thread's invariants, replaced by ordinary instructions one at a time)
/// translates to lifetimes that agree with the proposal's current
/// locations at every reachable point. Gives (points compared, calls kept).
pub fn law_multiloc_translation_agrees(p: &Program) -> Result<(usize, usize), String> {
    use dioptra_semantics::lifetime::multiloc::{agreement, parse_listing};
    let text = multiloc_listing(p)?;
    let listing = parse_listing(&text).map_err(|d| format!("{d}\n{text}"))?;
    let (_, a) = agreement(&listing).map_err(|d| format!("{d}\n{text}"))?;
    match a.difference {
        None => Ok((a.points, listing.calls.len())),
        Some((line, want, got)) => Err(format!(
            "line {line}: the proposal makes current the calls on lines {want:?}, the lifetimes those on {got:?}\n{text}"
        )),
    }
}

/// Parsing the printed form of any expression gives it back.
pub fn law_print_parse_round_trip(e: &Expr) -> Result<(), String> {
    let text = e.to_string();
    let back = parse_expr(&text).map_err(|d| format!("does not parse: {d}"))?;
    if &back != e {
        return Err(format!("parses to a different expression: {back:?}"));
    }
    if back.to_string() != text {
        return Err(format!("prints differently: {back}"));
    }
    Ok(())
}

/// A context's text parsed, the last two texts each thread parsed kept:
/// the laws take contexts as text, and a campaign passes the same one (the
/// fixed context) to every case, whose parse cost a fifth of the pipeline;
/// the transformation law reads the contexts before and after a store, for
/// the source and then for the target. Shared, not copied: a copy of a
/// context costs its maps.
fn parse_context(text: &str) -> Result<Rc<ConcreteContext>, dioptra_semantics::Diag> {
    parse_context_signed(text).map(|(c, _)| c)
}

/// [`parse_context`] with the context's signature, made once with it (a
/// signature is a copy of the layout: making one per case for three laws
/// was 0.8% of the pipeline's instructions).
fn parse_context_signed(
    text: &str,
) -> Result<(Rc<ConcreteContext>, Rc<Signature>), dioptra_semantics::Diag> {
    type Parsed = Option<(String, Rc<ConcreteContext>, Rc<Signature>)>;
    thread_local! {
        static LAST: std::cell::RefCell<[Parsed; 2]> =
            const { std::cell::RefCell::new([None, None]) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some(k) = last
            .iter()
            .position(|p| p.as_ref().is_some_and(|(t, _, _)| t == text))
        {
            // The most recent first.
            last.swap(0, k);
            let (_, c, s) = last[0].as_ref().expect("found");
            return Ok((Rc::clone(c), Rc::clone(s)));
        }
        let c = Rc::new(ConcreteContext::parse(text)?);
        let s = Rc::new(c.signature());
        last.swap(0, 1);
        last[0] = Some((text.to_string(), Rc::clone(&c), Rc::clone(&s)));
        Ok((c, s))
    })
}

/// A well-formed expression (and every well-formed prefix of it) never
/// panics, and its evaluated type is its static type, in any context with
/// the generator's signature (`ctx` is context-file text).
///
/// The prefixes are checked (`check_prefixes`, whose last answer is the
/// whole expression's check) and evaluated (`eval_prefixes_checked`) in
/// one pass each, and each well-formed one must have
/// left exactly one entry, of its static type, or have stopped at an
/// evaluation error.
pub fn law_wellformed_evaluates_to_its_static_type(e: &Expr, ctx: &str) -> Result<(), String> {
    let (ctx, sig) = parse_context_signed(ctx)
        .map_err(|d| format!("the generated context does not parse: {d}"))?;
    // `checks[n - 1]`: the check of the first `n` ops; the last is `check`
    // of the whole expression.
    let mut checks = Vec::with_capacity(e.ops.len());
    let mut whole = None;
    check_prefixes(&e.ops, &sig, &mut |n, r| {
        if n == e.ops.len() {
            whole = Some(r.as_ref().map(Clone::clone).map_err(|p| p.diag()));
        }
        checks.push(r.ok())
    });
    let whole = match whole {
        Some(Ok(c)) => c,
        Some(Err(d)) => return Err(format!("the generator made an ill-formed expression: {d}")),
        None => return Err("the generator made an empty expression".to_string()),
    };
    // `tops[n]`: the stack's single entry after the first `n` ops; the
    // prefixes past the end of `tops` stopped at `failed`.
    let mut tops = Vec::with_capacity(e.ops.len() + 1);
    tops.push(None);
    let failed = eval_prefixes_checked(e, &whole, &*ctx, &mut |_, top| tops.push(top)).err();
    let prefix = |n: usize| Expr {
        spelling: e.spelling,
        ops: e.ops[..n].to_vec(),
    };
    for (n, checked) in (1..).zip(checks) {
        let Some(checked) = checked else {
            continue;
        };
        match (tops.get(n), &failed) {
            (Some(Some(r)), _) => {
                if r.ty != checked.result || r.fragment != checked.fragment {
                    return Err(format!(
                        "{}: evaluated type {} but static type {}",
                        prefix(n),
                        r.ty,
                        checked.result
                    ));
                }
                if let Err(d) = r.value(&*ctx) {
                    if !matches!(d.outcome, Outcome::EvalError | Outcome::Unsupported) {
                        return Err(format!("{}: reading the result: {d}", prefix(n)));
                    }
                }
            }
            (Some(None), _) => {
                return Err(format!(
                    "{}: well-formed, but its evaluation leaves a stack of another size",
                    prefix(n)
                ))
            }
            (None, Some(d))
                if matches!(d.outcome, Outcome::EvalError | Outcome::Unsupported)
                    && d.reason != "internal-error" => {}
            (None, Some(d)) => return Err(format!("{}: {d}", prefix(n))),
            (None, None) => return Err(format!("{}: not evaluated", prefix(n))),
        }
    }
    Ok(())
}

/// Every single ill-formed mutation of a well-formed expression is rejected
/// with the reason code the mutation names. Returns the mutant on failure.
pub fn law_mutation_rejected_with_its_reason(
    e: &Expr,
    pick: usize,
) -> Result<(), (String, Expr, String)> {
    let sig = fixed_signature();
    let m = mutant(e, sig, pick);
    match check(&m.expr, sig) {
        Ok(c) => Err((
            format!("{}: accepted with type {}", m.mutation, c.result),
            m.expr,
            m.expect.to_string(),
        )),
        Err(d) if d.outcome == Outcome::IllFormed && m.expect.is(&d) => Ok(()),
        Err(d) => Err((
            format!("{}: expected {}, got {d}", m.mutation, m.expect),
            m.expr,
            m.expect.to_string(),
        )),
    }
}

/// Narrow evaluation answers only what the reference answers: for a
/// well-formed expression, in a random context and in the fixed one,
/// where `eval_narrow` gives a result `eval_reference` gives exactly that
/// `Evaluated`, and where the reference fails narrow evaluation declines;
/// and one ill-formed mutation of the expression, when it is well-formed
/// (in the fixed context, against whose signature the mutation is
/// ill-formed), is declined.
/// Compared when narrow evaluation answered in one of the contexts, or the
/// reference failed in both; `Unsupported` (counted, not passed) when it
/// declined an expression the reference evaluates.
pub fn law_narrow_evaluation_is_the_reference(
    e: &Expr,
    ctx: &str,
    pick: usize,
) -> Result<Checked, String> {
    let fixed = fixed_context();
    let sig = fixed.signature();
    // A mutation of a well-formed expression (an ill-formed one is itself
    // the case that must be declined).
    if check(e, &sig).is_ok() {
        let m = mutant(e, &sig, pick);
        if let Some(r) = eval_narrow(&m.expr, &fixed) {
            return Err(format!(
                "the ill-formed {} ({}) evaluates narrowly to {} : {}",
                m.expr, m.mutation, r.loc, r.ty
            ));
        }
    }
    let ctx =
        parse_context(ctx).map_err(|d| format!("the generated context does not parse: {d}"))?;
    let (mut answered, mut evaluated) = (false, false);
    for c in [&*ctx, &fixed] {
        match (eval_narrow(e, c), eval_reference(e, c)) {
            (Some(a), Ok(b)) if a == b => answered = true,
            (Some(a), b) => {
                return Err(format!(
                    "{e}: narrow evaluation gives {a:?}, the reference {b:?}"
                ))
            }
            (None, r) => evaluated |= r.is_ok(),
        }
    }
    if answered || !evaluated {
        return Ok(Checked::Compared);
    }
    Ok(Checked::Unsupported(
        "narrow evaluation declined (a type wider than 128 bits, floating point, DIOpAddrOf, or lanes used as a location)".into(),
    ))
}

/// A segment is active at a point exactly when some path from the entry
/// reaches the point with the segment's last def/kill event a def (and,
/// block-local, when its def precedes the point in the block with no kill
/// between). On failure: the message, the line, the segments the model says.
pub fn law_ranges_match_the_path_model(
    p: &MultiProgram,
) -> Result<(), (String, u32, Reading, Vec<String>)> {
    let text = p.to_string();
    let m = parse_module(&text).map_err(|d| {
        (
            format!("does not parse: {d}"),
            0,
            Reading::ControlFlow,
            Vec::new(),
        )
    })?;
    let x = Intrinsics::of(&m);
    let lines = p.lines();
    for reading in [Reading::ControlFlow, Reading::BlockLocal] {
        let ranges = all_ranges(&m, &x, reading);
        let mut active = Sweep::new(&ranges);
        for (k, f) in p.functions.iter().enumerate() {
            let models: Vec<_> = (0..f.lifetimes)
                .map(|l| {
                    if reading == Reading::BlockLocal {
                        f.model_block_local(l)
                    } else {
                        f.model_active(l)
                    }
                })
                .collect();
            for (b, row) in lines[k].iter().enumerate() {
                for (i, &line) in row.iter().enumerate() {
                    let point = m.inst_at_line(line).ok_or_else(|| {
                        (
                            format!("line {line} is not an instruction"),
                            line,
                            reading,
                            Vec::new(),
                        )
                    })?;
                    // A function's segments only: another function's are
                    // never active here (the model has none).
                    let want: Vec<String> = (0..f.lifetimes)
                        .filter(|&l| models[l][b][i])
                        .map(|l| MultiProgram::segment(k, l))
                        .collect();
                    let got: Vec<String> = active.at(point).iter().map(|s| s.to_string()).collect();
                    if got != want {
                        return Err((format!("{reading:?} at line {line}: dioptra says {got:?}, the path model {want:?}"), line, reading, want));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Can a debugger assign through this location? Memory, registers and
/// writable entities can; implicit values, implicit addresses and the
/// undefined location cannot; a composite can when all its parts can.
pub fn writable(loc: &LocDesc) -> bool {
    loc.singles().iter().all(|s| match &*s.storage {
        Storage::Memory { .. } | Storage::Register { .. } => true,
        Storage::Entity { .. } => !s.storage.is_implicit(),
        Storage::Composite { parts, .. } => parts.iter().all(|p| writable(&p.loc)),
        Storage::Implicit(_) | Storage::ImplicitAddress { .. } | Storage::Undefined => false,
    })
}

/// Every transformation preserves, at every program point, each source
/// variable's readable value where the original had one, never invents one
/// where the original had none, and never makes a read-only location
/// writable. A pointer that becomes an implicit pointer keeps its pointee:
/// dereferencing it gives the value dereferencing the source pointer gave.
pub fn law_transformation_preserves_values(
    p: &Program,
    forms: &[Form],
    t: Transform,
) -> Result<(), String> {
    let p = p.well_formed();
    let src = instance(&p, forms, None);
    let tgt = instance(&p, forms, Some(t));
    // The module, and the contexts before and after the store to `d` in
    // the last block (memory changes there).
    type Loaded = (
        dioptra_semantics::lifetime::Module,
        Rc<ConcreteContext>,
        Rc<ConcreteContext>,
    );
    let load = |i: &transform::Instance| -> Result<Loaded, String> {
        let m = parse_module(&i.listing).map_err(|d| format!("{d}\n{}", i.listing))?;
        if let Some(d) = check_module(&m).first() {
            return Err(format!("ill-formed: {d}\n{}", i.listing));
        }
        let parse = |c: &str| parse_context(c).map_err(|d| format!("{d}\n{c}"));
        Ok((m, parse(&i.context)?, parse(&i.context_after)?))
    };
    let (ms, cs_before, cs_after) = load(&src)?;
    let (mt, ct_before, ct_after) = load(&tgt)?;
    let (as_, at) = (
        Analysis::new(&ms, Reading::ControlFlow),
        Analysis::new(&mt, Reading::ControlFlow),
    );
    let (ls, lt) = (
        Program::opaque_lines(&src.listing),
        Program::opaque_lines(&tgt.listing),
    );
    if ls.len() != lt.len() {
        return Err("the transformation changed the opaque instructions".into());
    }
    for (&a, &b) in ls.iter().zip(&lt) {
        let (ps, pt) = (
            ms.inst_at_line(a).ok_or("no point")?,
            mt.inst_at_line(b).ok_or("no point")?,
        );
        let cs = if a > src.after_line {
            &cs_after
        } else {
            &cs_before
        };
        let ct = if b > tgt.after_line {
            &ct_after
        } else {
            &ct_before
        };
        let objects = p
            .defined()
            .into_iter()
            .map(|l| format!("!v{l}"))
            .chain(["!g", "!x", "!p", "!d"].map(String::from));
        for obj in objects {
            let look = |an: &Analysis, c: &ConcreteContext, point: usize| {
                an.locate(c, &obj, point).ok().map(|x| {
                    (
                        read(
                            c,
                            &x.loc,
                            x.ty.as_ref().map(|t| c.layout.bitsizeof(t)).unwrap_or(64),
                        )
                        .ok(),
                        writable(&x.loc),
                        x.loc,
                    )
                })
            };
            let s = look(&as_, cs, ps);
            let t2 = look(&at, ct, pt);
            let (sv, sw) = s
                .as_ref()
                .map(|x| (x.0.clone(), x.1))
                .unwrap_or((None, false));
            let (tv, tw) = t2
                .as_ref()
                .map(|x| (x.0.clone(), x.1))
                .unwrap_or((None, false));
            let at_ = |what: &str| {
                format!(
                    "{t:?} at %p (source line {a}, target line {b}), {obj}: {what}; source {:?}, target {:?}\n{}",
                    s.as_ref().map(|x| x.2.to_string()),
                    t2.as_ref().map(|x| x.2.to_string()),
                    tgt.listing
                )
            };
            // An implicit pointer has no address to show, but dereferencing
            // it must give what dereferencing the source pointer gave.
            if let Some((None, _, tl)) = &t2 {
                if let [single] = tl.singles() {
                    if let Storage::ImplicitAddress {
                        addrspace, target, ..
                    } = &*single.storage
                    {
                        let Some(addr) = sv.as_ref().and_then(|v| v.to_u128()) else {
                            return Err(at_(
                                "an implicit pointer where the source had no pointer value",
                            ));
                        };
                        let src_pointee = read(
                            &**cs,
                            &LocDesc::single(
                                Storage::Memory {
                                    addrspace: *addrspace,
                                },
                                addr * 8,
                            ),
                            64,
                        )
                        .ok();
                        let tgt_pointee = read(&**ct, target, 64).ok();
                        if src_pointee.is_none() || src_pointee != tgt_pointee {
                            return Err(at_(
                                "the implicit pointer does not point at the same value",
                            ));
                        }
                        continue;
                    }
                }
            }
            match (&sv, &tv) {
                (Some(x), Some(y)) if x != y => {
                    return Err(at_(&format!("value 0x{} became 0x{}", x.hex(), y.hex())))
                }
                (Some(_), None) => return Err(at_("a readable value was lost")),
                (None, Some(_)) => return Err(at_("a value was invented")),
                _ => {}
            }
            if tw && !sw {
                return Err(at_("a read-only location became writable"));
            }
        }
    }
    Ok(())
}

/// Per-query solver time limit of the SMT laws, in milliseconds, unless
/// [`set_solver_ms`] says otherwise.
pub const SMT_TIMEOUT_MS: u32 = 5_000;

static SOLVER_MS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(SMT_TIMEOUT_MS);

/// Sets the time limit of each solver query the SMT laws make (a case
/// makes at most two), for every thread: a campaign's per-case budget. A
/// query that reaches it is the case's `unknown`, never a pass.
pub fn set_solver_ms(ms: u32) {
    SOLVER_MS.store(ms.max(1), std::sync::atomic::Ordering::Relaxed);
}

/// The time limit of each solver query of the SMT laws.
pub fn solver_ms() -> u32 {
    SOLVER_MS.load(std::sync::atomic::Ordering::Relaxed)
}

/// What an SMT law did with one case: compared it, or could not (the
/// encoding does not handle it, or the solver gave up) -- never a pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    Compared,
    Unsupported(String),
    Unknown(String),
}

/// The model of the SMT formula of a well-formed expression over a concrete
/// context says what the interpreter says: success or failure, and on
/// success the same location and the same value (or the same read failure).
pub fn law_smt_agrees_with_interpreter(e: &Expr, ctx: &str) -> Result<Checked, String> {
    use crate::agreement::{agreement, Agreement};
    let ctx =
        parse_context(ctx).map_err(|d| format!("the generated context does not parse: {d}"))?;
    match agreement(e, &ctx, solver_ms()) {
        Agreement::Agree => Ok(Checked::Compared),
        Agreement::Unsupported(d) if d.reason == "unknown" => Ok(Checked::Unknown(d.to_string())),
        Agreement::Unsupported(d) => Ok(Checked::Unsupported(d.to_string())),
        Agreement::Disagree(why) => Err(why),
    }
}

/// The generated context, and `e` lowered for each target with the inputs
/// where that context puts them (their first place, `lower_placed`).
#[allow(clippy::type_complexity)]
fn both_lowerings(
    e: &Expr,
    ctx: &str,
) -> Result<
    Vec<(
        dioptra_oracle::lower::Target,
        ConcreteContext,
        Result<dioptra_oracle::lower::Lowered, dioptra_semantics::Diag>,
    )>,
    String,
> {
    use dioptra_oracle::lower::{lower_placed, Target};
    let given =
        parse_context(ctx).map_err(|d| format!("the generated context does not parse: {d}"))?;
    Ok([Target::Amdgpu, Target::Dwarf5]
        .into_iter()
        .map(|t| {
            let (c, l) = lower_placed(e, &given, t);
            (t, c.into_owned(), l)
        })
        .collect())
}

/// The DWARF encoding agrees with the DWARF evaluator: on both targets'
/// lowerings of a generated expression, and on them with operation `cut`
/// (modulo their length) removed (which reaches the evaluator's failures:
/// underflows, values where locations are needed, a branch to nowhere), the
/// model of the encoding over the concrete world of the context says what
/// `dwarf::eval` says: both fail, or both give the same location over the
/// expression's bits.
pub fn law_dwarf_smt_agrees_with_evaluator(
    e: &Expr,
    ctx: &str,
    cut: usize,
) -> Result<Checked, String> {
    use crate::agreement::{dwarf_agreement, Agreement};
    use dioptra_semantics::dwarf::Encoding;
    let mut compared = false;
    let mut skipped = Vec::new();
    for (target, ctx, lowered) in both_lowerings(e, ctx)? {
        let Ok(l) = lowered else {
            skipped.push(format!("{}: not lowered", target.name()));
            continue;
        };
        let bits = l.offset + l.bits;
        let mut cut_listing = l.listing.clone();
        if !cut_listing.ops.is_empty() {
            let k = cut % cut_listing.ops.len();
            cut_listing.ops.remove(k);
        }
        for listing in [&l.listing, &cut_listing] {
            match dwarf_agreement(listing, &ctx, bits, solver_ms()) {
                Agreement::Agree => compared = true,
                Agreement::Unsupported(d) if d.reason == "unknown" => {
                    return Ok(Checked::Unknown(d.to_string()))
                }
                Agreement::Unsupported(d) => skipped.push(format!("{}: {d}", target.name())),
                Agreement::Disagree(why) => {
                    return Err(format!(
                        "{e}: on the {} DWARF\n{}\n{why}\nin {}",
                        target.name(),
                        listing.print(Encoding::default()),
                        ctx.to_script("cex")
                    ))
                }
            }
        }
    }
    if compared {
        Ok(Checked::Compared)
    } else {
        Ok(Checked::Unsupported(skipped.join("; ")))
    }
}

/// Lowering is proven on generated expressions of a few ops: for both
/// targets, `lower::prove::prove` finds the DWARF the same as the expression
/// (or refining it, D-lower-refines) for every context with the inputs
/// where the generated context puts them. A `not-proven` verdict fails with
/// its counterexample (confirmed by both interpreters before it is
/// reported).
pub fn law_lowering_is_proven(e: &Expr, ctx: &str) -> Result<Checked, String> {
    use dioptra_oracle::lower::prove::{prove, Proof};
    use dioptra_semantics::dwarf::Encoding;
    let mut proven = false;
    let mut skipped = Vec::new();
    for (target, ctx, lowered) in both_lowerings(e, ctx)? {
        let Ok(l) = lowered else {
            skipped.push(format!("{}: not lowered", target.name()));
            continue;
        };
        match prove(e, &l, &ctx, Encoding::default(), solver_ms()) {
            Ok(p) => match p.proof {
                Proof::Proven | Proof::Refines(_) => proven = true,
                Proof::Unknown(r) => return Ok(Checked::Unknown(r)),
                Proof::NotProven(c) => {
                    let why = c.agreement.describe();
                    return Err(format!(
                        "{e}: the {} DWARF\n{}\nis not proven: {why}\nin {}",
                        target.name(),
                        l.listing.print(Encoding::default()),
                        c.context.to_script("cex")
                    ));
                }
            },
            Err(d) if d.reason == "unconfirmed-counterexample" => return Err(d.to_string()),
            Err(d) => skipped.push(format!("{}: {d}", target.name())),
        }
    }
    if proven {
        Ok(Checked::Compared)
    } else {
        Ok(Checked::Unsupported(skipped.join("; ")))
    }
}

/// The equivalence prover is sound on itself: every expression is
/// equivalent to itself, and for a variant (a no-op offset, a read, a
/// changed constant) any counterexample it reports is confirmed by the
/// interpreter (`prove` fails with `SMT: unconfirmed-counterexample`
/// otherwise) and an `equivalent` verdict holds in the fixed context too.
pub fn law_equiv_verdicts_are_confirmed(e: &Expr, variant: usize) -> Result<Checked, String> {
    use dioptra_oracle::equiv::{prove, Verdict};
    use dioptra_semantics::syntax::{Literal, Op};
    let ctx = fixed_context();
    let sig = ctx.signature();
    let fail = |d: dioptra_semantics::Diag| -> Result<Checked, String> {
        match d.outcome {
            Outcome::Unsupported if d.reason != "unconfirmed-counterexample" => {
                Ok(Checked::Unsupported(d.to_string()))
            }
            _ => Err(d.to_string()),
        }
    };
    let ty = match check(e, &sig) {
        Ok(c) => c.result,
        Err(d) => return Err(format!("the generator made an ill-formed expression: {d}")),
    };
    match prove(e, e, &sig, solver_ms()) {
        Ok(p) => match p.verdict {
            Verdict::Equivalent => {}
            Verdict::Unknown(r) => return Ok(Checked::Unknown(r)),
            v => return Err(format!("an expression is {} to itself", v.word())),
        },
        Err(d) => return fail(d),
    }
    let mut ops = e.ops.clone();
    match variant % 3 {
        0 => ops.extend([
            Op::Constant(
                dioptra_semantics::types::Type::Int(32),
                Literal::Int(0.into()),
            ),
            Op::BitOffset(ty.clone()),
        ]),
        1 => ops.push(Op::Read),
        _ => {
            let k = ops
                .iter()
                .position(|o| matches!(o, Op::Constant(_, Literal::Int(_))));
            match k.map(|k| &mut ops[k]) {
                Some(Op::Constant(_, Literal::Int(v))) => *v += 1,
                _ => ops.push(Op::Read),
            }
        }
    }
    let v = Expr {
        spelling: e.spelling,
        ops,
    };
    if check(&v, &sig).is_err() {
        return Ok(Checked::Unsupported("the variant is ill-formed".into()));
    }
    match prove(e, &v, &sig, solver_ms()) {
        Ok(p) => match p.verdict {
            Verdict::Unknown(r) => Ok(Checked::Unknown(r)),
            Verdict::Equivalent => {
                // Equivalent in every context of the input shapes
                // (D-smt-input-shapes); the fixed context's inputs have those
                // shapes, except that input 2 shares register 3 with the
                // referrer, where each input has a register of its own.
                let (a, b) = (eval(e, &ctx), eval(&v, &ctx));
                let n = ctx.layout.bitsizeof(&ty);
                let same = match (&a, &b) {
                    (Ok(x), Ok(y)) => dioptra_semantics::location::same_location(&x.loc, &y.loc, n),
                    (Err(x), Err(y)) => x.outcome == y.outcome,
                    _ => false,
                };
                let unsupported = [&a, &b]
                    .iter()
                    .any(|r| matches!(r, Err(d) if d.outcome == Outcome::Unsupported));
                // Nor has an input in memory of an address space the
                // expressions do not name (the fixed context's `DIOpArg(0)`
                // and type object are in address space 1): the prover's
                // inputs lie only in the memory they name, so there such
                // an input is a register or a value and an offset far past
                // its end fails in both (seed 35, case 8047).
                let spaces = dioptra_oracle::equiv::address_spaces(&sig, &[e, &v]);
                let elsewhere = |i: Option<&dioptra_semantics::context::Input>| {
                    i.is_some_and(|i| {
                        i.loc.singles().iter().any(|s| {
                            matches!(&*s.storage,
                                Storage::Memory { addrspace } if !spaces.contains(addrspace))
                        })
                    })
                };
                let outside = e.ops.iter().chain(&v.ops).any(|o| match o {
                    Op::Referrer(_) => elsewhere(ctx.referrer.as_ref()),
                    Op::Arg(n, _) => elsewhere(ctx.args.get(*n as usize)),
                    Op::TypeObject(_) => elsewhere(ctx.type_object.as_ref()),
                    _ => false,
                });
                if same
                    || unsupported
                    || outside
                    || e.ops.iter().any(|o| matches!(o, Op::Arg(2, _)))
                {
                    Ok(Checked::Compared)
                } else {
                    Err(format!(
                        "proved equivalent, but they differ in the fixed context: {a:?} and {b:?}"
                    ))
                }
            }
            _ => Ok(Checked::Compared),
        },
        Err(d) => fail(d),
    }
}

/// Canonicalization preserves the location: in a random context the
/// canonical form evaluates to the same location as the expression (or
/// fails where it fails), and canonicalizing again changes nothing.
/// Returns how many rewrites were made.
pub fn law_canonicalization_preserves_location(e: &Expr, ctx: &str) -> Result<usize, String> {
    use dioptra_oracle::canon::canonicalize;
    use dioptra_semantics::location::same_location;
    let (ctx, sig) = parse_context_signed(ctx)
        .map_err(|d| format!("the generated context does not parse: {d}"))?;
    let (c, steps) = canonicalize(e, &sig).map_err(|d| format!("canonicalize fails: {d}"))?;
    // No rewrite: the canonical form is the expression itself, so
    // canonicalizing it again is the call just made, and it evaluates as
    // the expression does (both are deterministic); nothing more to check.
    // (Borrowed, the canonical form is the expression without comparing.)
    if steps.is_empty() && (matches!(c, std::borrow::Cow::Borrowed(_)) || *c == *e) {
        return Ok(0);
    }
    let (again, more) = canonicalize(&c, &sig).map_err(|d| format!("the canonical form: {d}"))?;
    if again != c || !more.is_empty() {
        return Err(format!("not idempotent: {c} becomes {again} ({more:?})"));
    }
    match (eval(e, &*ctx), eval(&c, &*ctx)) {
        (Ok(a), Ok(b)) => {
            let n = ctx.layout.bitsizeof(&a.ty);
            if !a.ty.same(&b.ty) || !same_location(&a.loc, &b.loc, n) {
                return Err(format!(
                    "{e} gives {} but its canonical form {c} gives {} ({steps:?})",
                    a.loc, b.loc
                ));
            }
        }
        (Err(_), Err(_)) => {}
        (a, b) => {
            return Err(format!(
                "{e} gives {a:?} but its canonical form {c} gives {b:?} ({steps:?})"
            ))
        }
    }
    Ok(steps.len())
}

/// Context variants each lowering law also compares in (registers and
/// memory redrawn, some bytes undefined, the lane redrawn).
const LOWERING_VARIANTS: usize = 4;

/// The contexts the lowering law compares in: `given` and its
/// `LOWERING_VARIANTS` variants (seed 1), made once per context a thread
/// sees in turn (`given` is [`parse_context`]'s shared copy, so a campaign
/// in one context makes them once).
fn lowering_contexts(given: &Rc<ConcreteContext>) -> Rc<Contexts> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(Rc<ConcreteContext>, Rc<Contexts>)>> =
            const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        // The pair keeps `given` alive, so another context cannot take its
        // address and be mistaken for it.
        if let Some((_, v)) = last.as_ref().filter(|(c, _)| Rc::ptr_eq(c, given)) {
            return Rc::clone(v);
        }
        let v = Rc::new(Contexts::new(given, LOWERING_VARIANTS, 1));
        *last = Some((Rc::clone(given), Rc::clone(&v)));
        v
    })
}

/// Lowering preserves the location: for both targets, the DWARF of a
/// well-formed expression, evaluated by dioptra's DWARF evaluator in the
/// context and in variants of it, gives the same location over the result's
/// bits as the reference, fails where the reference fails, or is more defined
/// where the reference fails (D-lower-refines); where the reference fails,
/// whatever the DWARF gives holds, so it is not evaluated there
/// (`References::compare_where_defined`). A not-expressible lowering
/// (or a context that lacks what evaluation needs) is `Unsupported`, never a
/// pass; a lowering that fails otherwise is a failure. An input in several
/// places is a location list for a code generator, not one expression: such
/// a case is compared in the context whose inputs keep their first place.
pub fn law_lowering_preserves_location(e: &Expr, ctx: &str) -> Result<Checked, String> {
    use dioptra_oracle::lower::compare::References;
    use dioptra_oracle::lower::{lower_placed_checked, Target};
    use dioptra_semantics::dwarf::Encoding;
    use std::borrow::Cow;
    let (given, sig) = parse_context_signed(ctx)
        .map_err(|d| format!("the generated context does not parse: {d}"))?;
    // Checked once: lowering for each target and evaluating in each context
    // need the same check (the contexts share the signature).
    let checked = check(e, &sig).map_err(|d| format!("{e}: {d}"))?;
    // Why a target was not compared: its lowering's diagnostic, or the
    // comparison's summary; made into text only when no target compared.
    let mut skipped: Vec<(&str, Result<Diag, String>)> = Vec::new();
    let mut compared = false;
    // The expression's side of the comparison depends on the context only:
    // evaluated once for both targets when both lower in the given one.
    let contexts = lowering_contexts(&given);
    let mut in_given: Option<References> = None;
    for target in [Target::Amdgpu, Target::Dwarf5] {
        let (ctx, lowered) = lower_placed_checked(e, &checked, &given, target);
        let l = match lowered {
            Ok(l) => l,
            Err(d) if d.outcome == Outcome::Unsupported => {
                skipped.push((target.name(), Ok(d)));
                continue;
            }
            Err(d) => return Err(format!("{e}: lowering for {} fails: {d}", target.name())),
        };
        let t = match &ctx {
            Cow::Borrowed(_) => in_given
                .get_or_insert_with(|| References::new_checked(e, &checked, &contexts))
                .compare_where_defined(&l, Encoding::default()),
            Cow::Owned(c) => {
                References::new_checked(e, &checked, &Contexts::new(c, LOWERING_VARIANTS, 1))
                    .compare_where_defined(&l, Encoding::default())
            }
        };
        if let Some((c, a)) = &t.first_difference {
            return Err(format!(
                "{e}: the {} DWARF\n{}\ndiffers: {}\nin {}",
                target.name(),
                l.listing.print(Encoding::default()),
                a.describe(),
                c.to_script("cex")
            ));
        }
        compared |= t.compared() > 0;
        if t.compared() == 0 {
            skipped.push((target.name(), Err(t.summary())));
        }
    }
    if compared {
        return Ok(Checked::Compared);
    }
    let why: Vec<String> = skipped
        .iter()
        .map(|(target, why)| match why {
            Ok(d) => format!("{target}: {d}"),
            Err(summary) => format!("{target}: nothing compared ({summary})"),
        })
        .collect();
    Ok(Checked::Unsupported(why.join("; ")))
}

/// Evaluating DWARF from its bytes (`evaluate_bytes`, which reads each
/// operation in place as it runs) gives what decoding the bytes and
/// evaluating the operations gives: the same location or the same
/// diagnostic. Checked on the amdgpu and dwarf5 lowerings of a well-formed
/// expression in both encodings of AMD's operations, and on those bytes with
/// byte `at` replaced by `byte` and cut before byte `at` (malformed
/// operations, branches into an operation, truncations). Returns how many
/// byte strings were compared.
pub fn law_bytes_evaluation_matches_decoded(
    e: &Expr,
    ctx: &str,
    (at, byte): (usize, u8),
) -> Result<usize, String> {
    use dioptra_oracle::lower::{lower_placed, Target};
    use dioptra_semantics::dwarf::eval::{evaluate, evaluate_bytes, Env};
    use dioptra_semantics::dwarf::{decode, encode, Encoding};
    let given =
        parse_context(ctx).map_err(|d| format!("the generated context does not parse: {d}"))?;
    let mut compared = 0;
    for target in [Target::Amdgpu, Target::Dwarf5] {
        let (ctx, lowered) = lower_placed(e, &given, target);
        let Ok(l) = lowered else { continue };
        for amd_single_byte in [false, true] {
            let enc = Encoding {
                amd_single_byte,
                ..Encoding::default()
            };
            let Ok(bytes) = encode(&l.listing.ops, enc) else {
                continue;
            };
            let mut replaced = bytes.clone();
            if let Some(b) = replaced.get_mut(at % bytes.len().max(1)) {
                *b = byte;
            }
            let cut = &bytes[..at % (bytes.len() + 1)];
            for b in [&bytes[..], &replaced[..], cut] {
                let env = Env {
                    enc,
                    ..Env::new(&*ctx, &l.listing.unit)
                };
                let streamed = evaluate_bytes(b, env);
                let decoded = decode(b, enc).and_then(|ops| evaluate(&ops, env));
                if streamed != decoded {
                    return Err(format!(
                        "{e}: the {} bytes {} ({enc:?}) evaluate from bytes to {} but decoded to {}",
                        target.name(),
                        hex(b),
                        shown(&streamed),
                        shown(&decoded)
                    ));
                }
                compared += 1;
            }
        }
    }
    Ok(compared)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn shown(r: &Result<LocDesc, dioptra_semantics::diag::Diag>) -> String {
    match r {
        Ok(l) => l.to_string(),
        Err(d) => d.to_string(),
    }
}

/// The lowering laws' contexts: half the usual generated contexts (inputs
/// also in address spaces 1 and 5, which plain DWARF 5 cannot name) and half
/// machine-shaped ones (memory in address space 0 only, where plain DWARF 5
/// can say where the object is and use its address as a value), so that most
/// gimli cases are compared and both kinds of object are lowered.
pub fn arb_lowering_context() -> impl Strategy<Value = String> {
    prop_oneof![arb_context(), dioptra_generators::arb_machine_context()]
}

/// How many generator choices the gimli law's expressions get: short ones,
/// because a long expression almost always uses an op plain DWARF 5 cannot
/// express (the current lane, the object in a register).
pub const GIMLI_CHOICES: usize = 6;

/// gimli agrees with dioptra's DWARF evaluator on plain DWARF 5: the
/// `--target dwarf5` lowering of a well-formed expression, evaluated by both
/// in the context and in variants of it, gives the same location, or both
/// fail, or the difference is one of the listed, understood ones
/// ([`dioptra_oracle::diff::gimli::known_difference`]). Outside gimli's limits, or not
/// expressible, is `Unsupported`.
pub fn law_gimli_agrees_on_plain_dwarf5(e: &Expr, ctx: &str) -> Result<Checked, String> {
    use dioptra_oracle::diff::gimli::{differential, Differential};
    use dioptra_oracle::lower::compare::variants;
    use dioptra_oracle::lower::{lower_placed, Target};
    use dioptra_semantics::dwarf::Encoding;
    let given =
        parse_context(ctx).map_err(|d| format!("the generated context does not parse: {d}"))?;
    let (ctx, lowered) = lower_placed(e, &given, Target::Dwarf5);
    let l = match lowered {
        Ok(l) => l,
        Err(d) if d.outcome == Outcome::Unsupported => {
            return Ok(Checked::Unsupported(d.to_string()))
        }
        Err(d) => return Err(format!("{e}: lowering fails: {d}")),
    };
    let mut ctxs = vec![ctx.clone().into_owned()];
    ctxs.extend(variants(&ctx, LOWERING_VARIANTS, 1));
    let mut compared = false;
    let mut limit = None;
    for c in &ctxs {
        match differential(&l, c) {
            Differential::Agree | Differential::BothFail | Differential::Known(_) => {
                compared = true
            }
            Differential::Limit(why) => limit = Some(why),
            Differential::Unsupported => {}
            Differential::Disagree { dioptra, gimli } => {
                return Err(format!(
                    "{e}: on\n{}\ndioptra gives {dioptra}, gimli {gimli}\nin {}",
                    l.listing.print(Encoding::default()),
                    c.to_script("cex")
                ))
            }
        }
    }
    if compared {
        Ok(Checked::Compared)
    } else {
        Ok(Checked::Unsupported(
            limit.unwrap_or_else(|| "nothing compared".into()),
        ))
    }
}

/// Lowering a lifetime program preserves every object's location: the
/// location lists of a generated (and transformed) program, evaluated at
/// each instruction's address in its context and variants of it, give the
/// locations the lifetime semantics gives, for both targets (objects the
/// target cannot express have no list and are not compared). Returns how
/// many comparisons were made.
pub fn law_lifetime_lowering_preserves_locations(
    p: &Program,
    forms: &[Form],
    t: Transform,
) -> Result<usize, String> {
    use dioptra_oracle::lower::loclist::{compare_module, lower_module};
    use dioptra_oracle::lower::Target;
    let p = p.well_formed();
    let i = instance(&p, forms, Some(t));
    let m = parse_module(&i.listing).map_err(|d| format!("{d}\n{}", i.listing))?;
    let c = ConcreteContext::parse(&i.context).map_err(|d| format!("{d}\n{}", i.context))?;
    let mut compared = 0;
    for target in [Target::Amdgpu, Target::Dwarf5] {
        let lowered = lower_module(&m, &c, target)
            .map_err(|d| format!("{}: {d}\n{}", target.name(), i.listing))?;
        let (tally, first) = compare_module(&m, &lowered, &c, LOWERING_VARIANTS, 1)
            .map_err(|d| format!("{}: {d}", target.name()))?;
        if let Some(f) = first {
            return Err(format!(
                "{}: {f}\n{}\n{}",
                target.name(),
                lowered
                    .unit
                    .lines(dioptra_semantics::dwarf::Encoding::default())
                    .join("\n"),
                i.listing
            ));
        }
        compared += tally.compared();
    }
    Ok(compared)
}

/// A classic expression and its DIOp translation agree in a concrete
/// context: the classic interpreter and the DIOp interpreter of the
/// translation give the same outcome and, on success, the same type and
/// location over the result's bits. The one allowed difference is
/// D-classic-div-wrap (DWARF wraps `INT_MIN / -1`, `DIOpDiv` fails).
/// A DIOp expression and its classic form (`reverse`) give the same
/// outcome and location in a random context. `Unsupported` when it has no
/// classic form or the context lacks bytes.
pub fn law_classic_reverse_agrees(d: &Expr, ctx: &str) -> Result<Checked, String> {
    use dioptra_semantics::classic::eval::eval_classic;
    use dioptra_semantics::classic::reverse::reverse;
    let ctx =
        parse_context(ctx).map_err(|d| format!("the generated context does not parse: {d}"))?;
    let sig = ctx.signature();
    let (c, cp) = match reverse(d, &sig) {
        Ok(x) => x,
        Err(x) if x.outcome == Outcome::Unsupported => {
            return Ok(Checked::Unsupported(x.to_string()))
        }
        Err(x) => return Err(format!("`{d}` does not reverse: {x}")),
    };
    let a = eval(d, &*ctx);
    let b = eval_classic(&c, &*ctx, &cp);
    same_outcome(
        (&format!("`{d}`"), &a),
        (&format!("its classic form `{c}`"), &b),
        &ctx,
        |_, _| false,
    )
}

/// Two evaluations of one location agree: both succeed with the same type,
/// fragment and location, or both fail (`Unsupported` when a failure is the
/// context's lack of bytes, which says nothing; which failure comes first
/// depends on the order of reads: DIOp reads a location when it is used,
/// DWARF when it is pushed). `excused` lets a known difference pass.
fn same_outcome(
    (an, a): (
        &str,
        &Result<dioptra_semantics::eval::Evaluated, dioptra_semantics::diag::Diag>,
    ),
    (bn, b): (
        &str,
        &Result<dioptra_semantics::eval::Evaluated, dioptra_semantics::diag::Diag>,
    ),
    ctx: &ConcreteContext,
    excused: impl Fn(
        &Result<dioptra_semantics::eval::Evaluated, dioptra_semantics::diag::Diag>,
        &Result<dioptra_semantics::eval::Evaluated, dioptra_semantics::diag::Diag>,
    ) -> bool,
) -> Result<Checked, String> {
    match (a, b) {
        (Ok(x), Ok(y)) => {
            let n = ctx.layout.bitsizeof(&x.ty);
            if !x.ty.same(&y.ty) || x.fragment != y.fragment || !same_location(&x.loc, &y.loc, n) {
                return Err(format!(
                    "{an} gives `{}` ({}), {bn} gives `{}` ({})",
                    x.loc, x.ty, y.loc, y.ty
                ));
            }
            Ok(Checked::Compared)
        }
        (Err(x), Err(y))
            if x.outcome == Outcome::Unsupported || y.outcome == Outcome::Unsupported =>
        {
            Ok(Checked::Unsupported(format!("{x} / {y}")))
        }
        (Err(_), Err(_)) => Ok(Checked::Compared),
        _ if excused(a, b) => Ok(Checked::Compared),
        _ => Err(format!("{an} gives {}, {bn} gives {}", show(a), show(b))),
    }
}

pub fn law_classic_translation_agrees(
    e: &ClassicExpr,
    p: &Params,
    ctx: &str,
) -> Result<Checked, String> {
    use dioptra_semantics::classic::eval::eval_classic;
    use dioptra_semantics::classic::translate::translate;
    let ctx =
        parse_context(ctx).map_err(|d| format!("the generated context does not parse: {d}"))?;
    let d = match translate(e, &ctx.signature(), p) {
        Ok(d) => d,
        Err(x) if x.outcome == Outcome::Unsupported => {
            return Ok(Checked::Unsupported(x.to_string()))
        }
        Err(x) => return Err(format!("a generated expression does not translate: {x}")),
    };
    let a = eval_classic(e, &*ctx, p);
    let b = eval(&d, &*ctx);
    // D-classic-div-wrap: DWARF wraps INT_MIN / -1, DIOpDiv fails there.
    same_outcome(
        ("classic", &a),
        (&format!("its translation `{d}`"), &b),
        &ctx,
        |a, b| matches!((a, b), (Ok(_), Err(y)) if y.matches("DIOpDiv: signed-overflow")),
    )
}

fn show(r: &Result<dioptra_semantics::eval::Evaluated, dioptra_semantics::diag::Diag>) -> String {
    match r {
        Ok(x) => format!("`{}` ({})", x.loc, x.ty),
        Err(d) => format!("`{d}`"),
    }
}

/// The prover proves the translation of a classic expression: equivalent
/// in every context, or refining only where a full-width `DW_OP_div` meets
/// `INT_MIN / -1` (D-classic-div-wrap).
pub fn law_classic_translation_proven(e: &ClassicExpr, p: &Params) -> Result<Checked, String> {
    use dioptra_oracle::equiv::classic::prove_translation;
    use dioptra_oracle::equiv::Verdict;
    let sig = ConcreteContext::parse(&classic_sig_context())
        .map_err(|d| format!("the fixed context does not parse: {d}"))?
        .signature();
    let (d, proved) = match prove_translation(e, &sig, p, solver_ms()) {
        Ok(x) => x,
        Err(x) if x.outcome == Outcome::Unsupported => {
            return Ok(Checked::Unsupported(x.to_string()))
        }
        Err(x) => return Err(format!("the prover fails: {x}")),
    };
    match proved.verdict {
        Verdict::Equivalent => Ok(Checked::Compared),
        Verdict::Refines(c)
            if c.target
                .as_ref()
                .is_err_and(|d| d.matches("DIOpDiv: signed-overflow")) =>
        {
            Ok(Checked::Compared)
        }
        Verdict::Unknown(why) => Ok(Checked::Unknown(why)),
        v => Err(format!("the translation `{d}` is not proven: {v:?}")),
    }
}

/// A context with [`CLASSIC_ARGS`]' types (only its signature is used).
fn classic_sig_context() -> String {
    let args: String = CLASSIC_ARGS
        .iter()
        .map(|t| format!(" (arg \"{t}\" \"undef\")"))
        .collect();
    format!("(context sig{args})")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lowering law's contexts are those of the context it is given:
    /// made again when another context comes, shared while the same one
    /// does.
    #[test]
    fn lowering_contexts_are_the_given_contexts_variants() {
        let a = parse_context(dioptra_generators::FIXED_CONTEXT).unwrap();
        let b = Rc::new(
            ConcreteContext::parse(
                r#"(context other (register 0 "01 02 03 04 05 06 07 08") (lane 3))"#,
            )
            .unwrap(),
        );
        let expect = |c: &ConcreteContext| {
            format!("{:?}", Contexts::new(c, LOWERING_VARIANTS, 1).as_slice())
        };
        let got = |c: &Rc<ConcreteContext>| format!("{:?}", lowering_contexts(c).as_slice());
        let first = lowering_contexts(&a);
        assert!(
            Rc::ptr_eq(&first, &lowering_contexts(&a)),
            "shared while the context stays"
        );
        assert_eq!(first.as_slice().len(), LOWERING_VARIANTS + 1);
        assert_eq!(got(&a), expect(&a));
        assert_eq!(got(&b), expect(&b));
        assert_ne!(got(&b), expect(&a));
        assert_eq!(got(&a), expect(&a));
    }
}
