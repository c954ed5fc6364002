//! Lifetimes to DWARF: a module's objects as DIEs with location lists.
//!
//! Spec, `DILifetime`: "A computed lifetime segment corresponds to the DWARF
//! `loclist` default location description", and a bounded segment is active
//! over the instructions its `llvm.dbg.def` reaches; when several are active
//! "the location description is comprised of all of the location
//! descriptions of all active bounded lifetime segments" (DWARF 5's
//! overlapping location list entries). `DIFragment`: "In DWARF a
//! `DIFragment` can be represented using a `DW_TAG_dwarf_procedure` DIE."
//! "Divergent Lane PC": the `activeLanePC` fragment's location list "is used
//! as the value of the `DW_AT_LLVM_lane_pc` attribute on the subprogram's
//! debugger information entry."
//!
//! DECISION (D-loclist-addresses): a listing has no machine addresses; the
//! instruction on listing line `L` is at address `L`. A bounded segment
//! becomes one entry `[first, last + 1)` per run of consecutive active
//! instructions; entries of different segments may overlap.
//!
//! DECISION (D-loclist-calls): every argObject that has lifetime segments is
//! a DIE the expression calls with `DW_OP_call4` (a variable's own DIE, a
//! fragment's `DW_TAG_dwarf_procedure`), shared by several argObjects or
//! not: the callee's list is evaluated at the caller's pc, so the caller's
//! entries need not split wherever an argument's location changes. A call
//! that pushes a location description is the extensions' (`--target
//! amdgpu`); plain DWARF 5 reports `not-expressible: call-of-location`.
//! argObjects without segments (code locations, global variable fragments,
//! objects undefined by default) do not depend on the pc: their location is
//! an input from the context, as a referrer's is.
//!
//! DECISION (D-loclist-fragment): a segment whose expression has a
//! `DIOpFragment` is `not-expressible: fragment-in-lifetime`: the
//! extensions describe parts of an object with `DIFragment` objects and
//! composites, and a list entry describes the whole object.

use super::compare::{classify, variants, Tally};
use crate::lower::{lower_in, Target};
use dioptra_semantics::context::{ConcreteContext, Input};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::dwarf::eval::{evaluate_list, Env};
use dioptra_semantics::dwarf::unit::{ListEntry, ListTag, Unit};
use dioptra_semantics::lifetime::listing::{Kind, Module};
use dioptra_semantics::lifetime::locate::{referrer_input, Analysis, SegmentCache};
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::lifetime::wellformed::check_module;
use dioptra_semantics::location::LocDesc;
use dioptra_semantics::syntax::Op;
use dioptra_semantics::types::Type;
use std::collections::BTreeMap;

/// A module lowered to DWARF.
#[derive(Clone, Debug)]
pub struct LoweredModule {
    /// Every list DIE, with the base types and DIEs their expressions use.
    pub unit: Unit,
    /// The DIE of each object (variable or fragment) by metadata id.
    pub die_of: BTreeMap<String, u64>,
    /// The objects that have no DIE: a segment is not expressible for the
    /// target (or needs what the context lacks), or calls such an object.
    pub not_expressible: BTreeMap<String, Diag>,
}

/// The address of instruction `i` (D-loclist-addresses).
pub fn address(m: &Module, i: usize) -> u64 {
    m.insts[i].line as u64
}

/// Lowers a well-formed module: every object with lifetime segments
/// becomes a DIE with a location list, and every subprogram with an
/// `activeLanePC` a `DW_TAG_subprogram` whose `DW_AT_LLVM_lane_pc` is that
/// fragment's list. Where entities are (referrers, labels, globals) comes
/// from the context's bindings, as a code generator knows it. An object
/// with a segment the target cannot express is listed, with the reason, in
/// `not_expressible` (and gets no DIE) rather than failing the module; an
/// ill-formed module is an error.
pub fn lower_module(
    m: &Module,
    ctx: &ConcreteContext,
    target: Target,
) -> Result<LoweredModule, Diag> {
    if let Some(d) = check_module(m).into_iter().next() {
        return Err(d);
    }
    let a = Analysis::new(m, Reading::ControlFlow);
    let mut unit = Unit::default();
    let mut die_of = BTreeMap::new();
    // DIEs first, so that calls can name them.
    for object in a.objects_with_segments() {
        let Some(node) = m.nodes.get(object) else {
            continue;
        };
        let tag = if node.is_variable() {
            ListTag::Variable
        } else {
            ListTag::Procedure
        };
        let name = node.display_name().unwrap_or(object).to_string();
        die_of.insert(object.to_string(), unit.add_list(tag, &name));
    }
    let mut lane_pcs = Vec::new();
    for node in m.nodes.values() {
        if let Kind::Subprogram {
            active_lane_pc: Some(f),
            ..
        } = &node.kind
        {
            let name = m
                .functions
                .iter()
                .find(|f| f.subprogram.as_deref() == Some(&node.id))
                .map_or(node.id.clone(), |f| f.name.clone());
            lane_pcs.push((unit.add_list(ListTag::SubprogramLanePc, &name), f.clone()));
        }
    }
    let mut lists: BTreeMap<String, Vec<ListEntry>> = BTreeMap::new();
    let mut not_expressible = BTreeMap::new();
    'objects: for object in a.objects_with_segments() {
        let mut entries = Vec::new();
        let mut default_done = false;
        for (lt, active) in a.segment_ranges(object).into_iter().flatten() {
            let bounded = a.x.is_bounded(lt);
            if !bounded && default_done {
                continue; // `locate` takes the first computed segment
            }
            let ops = match lower_segment(&a, ctx, target, object, lt, &mut unit, &die_of) {
                Ok(x) => x,
                Err(d) if d.outcome == Outcome::Unsupported => {
                    not_expressible.insert(object.to_string(), d);
                    continue 'objects;
                }
                Err(d) => return Err(d),
            };
            if bounded {
                for (lo, hi) in runs(m, active) {
                    entries.push(ListEntry::Bounded {
                        lo,
                        hi,
                        ops: ops.clone(),
                    });
                }
            } else {
                entries.push(ListEntry::Default(ops));
                default_done = true;
            }
        }
        lists.insert(object.to_string(), entries);
    }
    // An object that calls one without a DIE has none either.
    loop {
        let more: Vec<(String, String)> = lists
            .keys()
            .filter_map(|o| {
                let callee = a.segments_of(o)?.find_map(|lt| match &m.nodes[lt].kind {
                    Kind::Lifetime { args, .. } => args
                        .iter()
                        .find(|x| not_expressible.contains_key(*x))
                        .cloned(),
                    _ => None,
                })?;
                Some((o.clone(), callee))
            })
            .collect();
        if more.is_empty() {
            break;
        }
        for (o, callee) in more {
            lists.remove(&o);
            let why = Diag::unsupported(
                "DILifetime",
                "not-expressible",
                format!("calls `{callee}`, which has no location list"),
            );
            not_expressible.insert(o, why);
        }
    }
    for o in not_expressible.keys() {
        if let Some(die) = die_of.remove(o) {
            unit.lists.remove(&die);
        }
    }
    // Bounded entries by address, the default entry last.
    for entries in lists.values_mut() {
        entries.sort_by_key(|e| match e {
            ListEntry::Bounded { lo, hi, .. } => (0, *lo, *hi),
            ListEntry::Default(_) => (1, 0, 0),
        });
    }
    for (object, entries) in &lists {
        if let Some(d) = unit.lists.get_mut(&die_of[object]) {
            d.entries = entries.clone();
        }
    }
    for (die, fragment) in lane_pcs {
        if not_expressible.contains_key(&fragment) {
            unit.lists.remove(&die);
            continue;
        }
        let entries = lists.get(&fragment).cloned().unwrap_or_default();
        if let Some(d) = unit.lists.get_mut(&die) {
            d.entries = entries;
        }
    }
    Ok(LoweredModule {
        unit,
        die_of,
        not_expressible,
    })
}

/// The address ranges of a segment's runs of instructions (in order): one
/// per run, split where it crosses into another function.
fn runs(m: &Module, active: &[(usize, usize)]) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &(start, end) in active {
        // A run of instructions is one address range unless it crosses
        // into another function.
        let mut from = start;
        for i in start + 1..=end {
            if i == end || m.insts[i].func != m.insts[from].func {
                out.push((address(m, from), address(m, i - 1) + 1));
                from = i;
            }
        }
    }
    out
}

/// The DWARF of one segment's expression, lowered into `unit`.
fn lower_segment(
    a: &Analysis,
    ctx: &ConcreteContext,
    target: Target,
    object: &str,
    lt: &str,
    unit: &mut Unit,
    die_of: &BTreeMap<String, u64>,
) -> Result<Vec<dioptra_semantics::dwarf::DwarfOp>, Diag> {
    let s = segment(a, ctx, object, lt, die_of)?;
    let (ops, _, _) = lower_in(&s.expr, &s.context, target, unit, &s.calls)
        .map_err(|d| d.at_place(format!("in `{lt}`")))?;
    Ok(ops)
}

/// One segment as the code generator lowers it: its expression, the
/// context with its inputs where they are at the segment (the referrer of
/// its def, each argObject's location or, for an argObject with a list of
/// its own, a `DW_OP_call4` of that list's DIE), and those calls.
struct Segment {
    expr: dioptra_semantics::syntax::Expr,
    context: ConcreteContext,
    calls: BTreeMap<u32, u64>,
}

fn segment(
    a: &Analysis,
    ctx: &ConcreteContext,
    object: &str,
    lt: &str,
    die_of: &BTreeMap<String, u64>,
) -> Result<Segment, Diag> {
    let m = a.m;
    let at = |d: Diag| d.at_place(format!("in `{lt}`"));
    let node = &m.nodes[lt];
    let Kind::Lifetime { args, .. } = &node.kind else {
        return Err(Diag::ill(
            "DILifetime",
            "bad-location",
            format!("`{lt}` is not a lifetime"),
        ));
    };
    let e = m.lifetime_expr(node).ok_or_else(|| {
        Diag::ill(
            "DILifetime",
            "bad-location",
            format!("`{lt}` has no expression"),
        )
    })?;
    if e.ops.iter().any(|o| matches!(o, Op::Fragment(..))) {
        return Err(at(Diag::unsupported(
            "DIOpFragment",
            "not-expressible",
            "fragment-in-lifetime: a list entry describes the whole object (D-loclist-fragment)",
        )));
    }
    let declared = |k: usize| {
        e.ops.iter().find_map(|o| match o {
            Op::Arg(n, t) if *n as usize == k => Some(t.clone()),
            _ => None,
        })
    };
    let mut c = ctx.clone();
    c.referrer = match a.x.first_referrer(lt) {
        Some(referrer) => {
            let expr_ty = e.ops.iter().find_map(|o| match o {
                Op::Referrer(t) => Some(t.clone()),
                _ => None,
            });
            Some(referrer_input(ctx, referrer, expr_ty, &ctx.layout).map_err(at)?)
        }
        None => None,
    };
    let mut calls = BTreeMap::new();
    c.args.clear();
    for (k, arg) in args.iter().enumerate() {
        let ty = declared(k)
            .or_else(|| a.types.get(arg).cloned())
            .unwrap_or(Type::Int(64));
        if let Some(&die) = die_of.get(arg) {
            calls.insert(k as u32, die);
            c.args.push(Input {
                ty,
                loc: LocDesc::undefined(),
            });
        } else {
            // Not pc-dependent: a code location, a global variable
            // fragment, or an object undefined by default.
            let l = a.locate(ctx, arg, 0).map_err(at)?;
            c.args.push(Input { ty, loc: l.loc });
        }
    }
    if !a.type_props.contains_key(object) {
        c.type_object = None;
    }
    Ok(Segment {
        expr: e.clone(),
        context: c,
        calls,
    })
}

/// What the prover says of one segment's list entry.
#[derive(Debug)]
pub struct SegmentProof {
    pub object: String,
    pub lifetime: String,
    /// The proof, or why there is none: the entry calls another object's
    /// list (a location list needs a pc, which the encoding does not have),
    /// or the encoding does not model it.
    pub proof: Result<super::prove::Proof, Diag>,
}

/// Proves, for every segment of every object `lowered` has a list for, that
/// the entry's DWARF describes the segment's location for every context
/// with the segment's inputs where they are (`super::prove`); which
/// addresses an entry covers stays a tested law ([`compare_module`]).
pub fn prove_segments(
    m: &Module,
    lowered: &LoweredModule,
    ctx: &ConcreteContext,
    target: Target,
    timeout_ms: u32,
) -> Vec<SegmentProof> {
    let a = Analysis::new(m, Reading::ControlFlow);
    let mut out = Vec::new();
    for object in a.objects_with_segments() {
        if !lowered.die_of.contains_key(object) {
            continue;
        }
        for lt in a.segments_of(object).into_iter().flatten() {
            let proof = (|| {
                let s = segment(&a, ctx, object, lt, &lowered.die_of)?;
                if !s.calls.is_empty() {
                    return Err(Diag::unsupported(
                        "SMT",
                        "calls-a-list",
                        "the entry calls another object's location list (D-loclist-calls), which needs a pc",
                    ));
                }
                let mut unit = Unit::default();
                let (ops, offset, bits) =
                    lower_in(&s.expr, &s.context, target, &mut unit, &s.calls)?;
                let l = super::Lowered {
                    listing: dioptra_semantics::dwarf::unit::Listing { ops, unit },
                    offset,
                    bits,
                };
                Ok(super::prove::prove(
                    &s.expr,
                    &l,
                    &s.context,
                    dioptra_semantics::dwarf::Encoding::default(),
                    timeout_ms,
                )?
                .proof)
            })();
            out.push(SegmentProof {
                object: object.to_string(),
                lifetime: lt.to_string(),
                proof,
            });
        }
    }
    out
}

/// Most (object, instruction, context) comparisons [`compare_module`] makes.
pub const MAX_LAW_COMPARISONS: usize = 2_000_000;

/// The lifetime law: at every instruction, and in `n` variants of the
/// context, evaluating each object's location list at the instruction's
/// address gives the location `Analysis::locate` gives (D-lower-refines
/// applies). Returns the tally and, for the first difference, where; an
/// unsupported diagnostic (not a result) past [`MAX_LAW_COMPARISONS`].
pub fn compare_module(
    m: &Module,
    lowered: &LoweredModule,
    ctx: &ConcreteContext,
    n: usize,
    seed: u64,
) -> Result<(Tally, Option<String>), Diag> {
    use super::compare::Agreement;
    let total = (n.saturating_add(1))
        .saturating_mul(lowered.die_of.len())
        .saturating_mul(m.insts.len());
    if total > MAX_LAW_COMPARISONS {
        return Err(Diag::unsupported(
            "DWARF",
            "limit-exceeded",
            format!(
                "the lifetime law would compare {total} times (more than {MAX_LAW_COMPARISONS}); fewer variants or a smaller module"
            ),
        ));
    }
    let a = Analysis::new(m, Reading::ControlFlow);
    let mut ctxs = vec![ctx.clone()];
    ctxs.extend(variants(ctx, n, seed));
    let mut t = Tally::default();
    let mut first = None;
    for c in &ctxs {
        // One cache per context: its segments without inputs are evaluated
        // once, and what the comparisons locate is bounded
        // (`MAX_LOCATED_INPUTS`; past it the reference is unsupported and
        // the triple not compared).
        let cache = SegmentCache::new(c);
        for (object, die) in &lowered.die_of {
            let entries = &lowered.unit.lists[die].entries;
            for i in 0..m.insts.len() {
                let reference = a.locate_cached(&cache, object, i);
                let env = Env {
                    pc: Some(address(m, i)),
                    ..Env::new(c, &lowered.unit)
                };
                let dwarf = evaluate_list(entries, env);
                let bits = reference
                    .as_ref()
                    .ok()
                    .and_then(|r| r.ty.as_ref())
                    .map_or(1, |t| c.layout.bitsizeof(t));
                let agreement = classify(c, reference.map(|r| r.loc), dwarf, bits);
                if matches!(agreement, Agreement::Differ { .. }) && first.is_none() {
                    first = Some(format!(
                        "object `{object}` at line {} (address {}): {}\n{}",
                        m.insts[i].line,
                        address(m, i),
                        agreement.describe(),
                        c.to_script("cex")
                    ));
                }
                t.add(c, agreement);
            }
        }
    }
    Ok((t, first))
}
