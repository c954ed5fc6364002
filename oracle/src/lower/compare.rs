//! The lowering law: evaluating the DWARF gives the same location
//! description as evaluating the DIOp expression (the same storage bits,
//! implicit values and undefined bits, compared bit by bit over the
//! expression's result), in the same context.
//!
//! Where the reference evaluation fails (an evaluation error: reading
//! undefined bits, dividing by zero, an offset out of its storage...), the
//! DWARF fails too or gives some location: a lowering may be more defined
//! than its source (DECISION (D-lower-refines): a debugger shows a value
//! where the spec says the expression is not well-formed in that context;
//! it never shows a different one). Those cases are counted apart, never as
//! agreement. The same holds bit by bit: bits past the end of an implicit
//! value of the reference (reading them fails) may be defined in the DWARF,
//! whose implicit values are whole bytes (an `i65` constant is 72 bits).
//!
//! `dioptra dwarf-equiv` compares DWARF from elsewhere in the same way:
//! [`parse_dwarf`] reads it as hex bytes or a listing, [`described`] says
//! which bits of the expression's result it claims to describe.

use crate::lower::Lowered;
use dioptra_semantics::context::{ConcreteContext, Context, Watched};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::dwarf::eval::{evaluate, Env};
use dioptra_semantics::dwarf::unit::Listing;
use dioptra_semantics::dwarf::{decode, Encoding};
use dioptra_semantics::eval::{eval, eval_checked, Evaluated};
use dioptra_semantics::location::{refines_places, same_places, LocDesc};
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::wellformed::{check, Checked};
use num_bigint::BigInt;

/// How the DWARF and the reference compare in one context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// Both give the same location.
    Same(LocDesc),
    /// Both fail with an evaluation error.
    BothFail { reference: Diag, dwarf: Diag },
    /// The reference fails; the DWARF gives a location (D-lower-refines).
    MoreDefined { reference: Diag, dwarf: LocDesc },
    /// Different locations, or the DWARF fails where the reference does not.
    Differ {
        reference: Result<LocDesc, Diag>,
        dwarf: Result<LocDesc, Diag>,
    },
    /// Either side needed something the context lacks, or hit a limit.
    NotCompared(Diag),
}

impl Agreement {
    /// Does the DWARF respect the law here (same, both fail, or more
    /// defined)?
    pub fn holds(&self) -> bool {
        matches!(
            self,
            Agreement::Same(_) | Agreement::BothFail { .. } | Agreement::MoreDefined { .. }
        )
    }
    pub fn word(&self) -> &'static str {
        match self {
            Agreement::Same(_) => "same",
            Agreement::BothFail { .. } => "both-fail",
            Agreement::MoreDefined { .. } => "more-defined",
            Agreement::Differ { .. } => "differ",
            Agreement::NotCompared(_) => "not-compared",
        }
    }
    pub fn describe(&self) -> String {
        let show = |r: &Result<LocDesc, Diag>| match r {
            Ok(l) => l.to_string(),
            Err(d) => d.to_string(),
        };
        match self {
            Agreement::Same(l) => format!("both give {l}"),
            Agreement::BothFail { reference, dwarf } => {
                format!("both fail: reference `{reference}`, DWARF `{dwarf}`")
            }
            Agreement::MoreDefined { reference, dwarf } => {
                format!("the reference fails (`{reference}`), the DWARF gives {dwarf}")
            }
            Agreement::Differ { reference, dwarf } => {
                format!("reference {}, DWARF {}", show(reference), show(dwarf))
            }
            Agreement::NotCompared(d) => format!("not compared: {d}"),
        }
    }
}

/// Compares the DWARF of `lowered` (describing `bits` bits from bit
/// `offset` of its location) with `expr` in `ctx`.
pub fn compare(expr: &Expr, lowered: &Lowered, ctx: &ConcreteContext, enc: Encoding) -> Agreement {
    compare_result(expr, lowered, ctx, dwarf_in(lowered, ctx, enc))
}

/// dioptra's evaluation of `lowered`'s DWARF in `ctx`.
fn dwarf_in(lowered: &Lowered, ctx: &dyn Context, enc: Encoding) -> Result<LocDesc, Diag> {
    let env = Env {
        enc,
        ..Env::new(ctx, &lowered.listing.unit)
    };
    evaluate(&lowered.listing.ops, env)
}

/// Compares `dwarf`, what some evaluator made of `lowered`'s DWARF in
/// `ctx` (dioptra's, or an implementation's under test), with `expr` there.
pub fn compare_result(
    expr: &Expr,
    lowered: &Lowered,
    ctx: &ConcreteContext,
    dwarf: Result<LocDesc, Diag>,
) -> Agreement {
    against(reference(expr, ctx), lowered, ctx, dwarf)
}

/// The reference side of a comparison: `expr`'s location in `ctx`, or its
/// evaluation error; `Err` when it cannot be compared at all (the context
/// lacks what it reads, or a limit).
type Reference = Result<Result<LocDesc, Diag>, Diag>;

fn reference(expr: &Expr, ctx: &ConcreteContext) -> Reference {
    as_reference(eval(expr, ctx))
}

/// The reference side of an evaluation's result.
fn as_reference(r: Result<Evaluated, Diag>) -> Reference {
    match r {
        Ok(e) => Ok(Ok(e.loc)),
        Err(d) if d.outcome == Outcome::EvalError => Ok(Err(d)),
        Err(d) => Err(d),
    }
}

/// Compares `dwarf` with the reference `r` in `ctx`.
fn against(
    r: Reference,
    lowered: &Lowered,
    ctx: &ConcreteContext,
    dwarf: Result<LocDesc, Diag>,
) -> Agreement {
    let reference = match r {
        Ok(r) => r,
        Err(d) => return Agreement::NotCompared(d),
    };
    let dwarf = match dwarf {
        Ok(l) if lowered.offset > 0 => l
            .offset_by(ctx, &BigInt::from(lowered.offset))
            .map_err(|f| f.at("DWARF")),
        other => other,
    };
    classify(ctx, reference, dwarf, lowered.bits)
}

/// How the DWARF's result compares with the reference's over `bits` bits;
/// a reference that needs what the context lacks is for the caller to
/// leave out.
pub fn classify(
    ctx: &dyn Context,
    reference: Result<LocDesc, Diag>,
    dwarf: Result<LocDesc, Diag>,
    bits: u64,
) -> Agreement {
    match (reference, dwarf) {
        (Err(d), _) | (_, Err(d)) if d.outcome == Outcome::Unsupported => Agreement::NotCompared(d),
        (Ok(r), Ok(d)) if same_places(&r, &d, bits) => Agreement::Same(r),
        (Ok(r), Ok(d)) if refines_places(ctx, &r, &d, bits) => Agreement::MoreDefined {
            reference: Diag::eval(
                "read",
                "past-end-of-storage",
                format!(
                    "bits of {r} past the end of their storage (or of an implicit pointer's target, D-lower-refines-targets)"
                ),
            ),
            dwarf: d,
        },
        (Err(r), Err(d)) => Agreement::BothFail {
            reference: r,
            dwarf: d,
        },
        (Err(r), Ok(d)) => Agreement::MoreDefined {
            reference: r,
            dwarf: d,
        },
        (r, d) => Agreement::Differ {
            reference: r,
            dwarf: d,
        },
    }
}

/// Variants of a context with the same inputs and layout and other contents:
/// each declared register and memory byte is redrawn with probability 1/4
/// (so pointers often survive), becomes undefined with probability 1/64,
/// and the lane is redrawn below 64. Deterministic in `seed`.
pub fn variants(ctx: &ConcreteContext, n: usize, seed: u64) -> Vec<ConcreteContext> {
    let mut state = seed ^ crate::sample::GAMMA;
    let mut next = move || {
        let r = crate::sample::splitmix64(state);
        state = state.wrapping_add(crate::sample::GAMMA);
        r
    };
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut v = ctx.clone();
        let mut redraw = |bytes: &mut Vec<Option<u8>>| {
            for b in bytes.iter_mut() {
                let r = next();
                if r % 64 == 0 {
                    *b = None;
                } else if r % 4 == 1 {
                    *b = Some((r >> 8) as u8);
                }
            }
        };
        for bytes in v.registers.values_mut() {
            redraw(bytes);
        }
        for bytes in v.memory.values_mut() {
            redraw(bytes);
        }
        if v.lane.is_some() {
            v.lane = Some(next() % 64);
        }
        out.push(v);
    }
    out
}

/// Counts of a comparison over many contexts.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub same: usize,
    pub both_fail: usize,
    pub more_defined: usize,
    pub not_compared: usize,
    /// The first context where they differ, and how.
    pub first_difference: Option<(ConcreteContext, Agreement)>,
    /// Every difference: different locations, and the DWARF failing where
    /// the reference gives a location (`dwarf_errors` of them).
    pub differ: usize,
    /// Differences where the DWARF fails to evaluate and the reference
    /// gives a location.
    pub dwarf_errors: usize,
    /// The first context where both give a location and the locations
    /// differ.
    pub first_location_difference: Option<(ConcreteContext, Agreement)>,
    /// Why the first context left out was left out.
    pub first_not_compared: Option<Diag>,
    /// Contexts where the reference fails with an evaluation error and the
    /// DWARF was not evaluated ([`References::compare_where_defined`]):
    /// whatever it gives there holds.
    pub reference_fails: usize,
}

/// The verdict on some DWARF against an expression over a tally (what
/// `dwarf-equiv` prints and `assert_dwarf_equiv` checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Compared somewhere, and the same (or more defined) everywhere compared.
    Same,
    /// Different locations somewhere.
    Differ,
    /// No different locations, but the DWARF fails to evaluate somewhere the
    /// reference gives a location.
    DwarfError,
    /// Nothing was compared (the context lacks what either side reads).
    Unknown,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Differ => "differ",
            Verdict::DwarfError => "dwarf-error",
            Verdict::Unknown => "unknown",
        }
    }
}

impl Tally {
    pub fn add(&mut self, ctx: &ConcreteContext, a: Agreement) {
        match a {
            Agreement::Same(_) => self.same += 1,
            Agreement::BothFail { .. } => self.both_fail += 1,
            Agreement::MoreDefined { .. } => self.more_defined += 1,
            Agreement::NotCompared(d) => {
                self.not_compared += 1;
                self.first_not_compared.get_or_insert(d);
            }
            Agreement::Differ {
                ref reference,
                ref dwarf,
            } => {
                self.differ += 1;
                if reference.is_ok() && dwarf.is_err() {
                    self.dwarf_errors += 1;
                } else if self.first_location_difference.is_none() {
                    self.first_location_difference = Some((ctx.clone(), a.clone()));
                }
                if self.first_difference.is_none() {
                    self.first_difference = Some((ctx.clone(), a));
                }
            }
        }
    }
    /// The verdict over everything added.
    pub fn verdict(&self) -> Verdict {
        if self.differ > self.dwarf_errors {
            Verdict::Differ
        } else if self.dwarf_errors > 0 {
            Verdict::DwarfError
        } else if self.compared() == 0 {
            Verdict::Unknown
        } else {
            Verdict::Same
        }
    }
    pub fn compared(&self) -> usize {
        self.same + self.both_fail + self.more_defined + self.differ + self.reference_fails
    }
    pub fn summary(&self) -> String {
        let fails = match self.reference_fails {
            0 => String::new(),
            n => format!(", {n} where the reference fails (the DWARF not evaluated)"),
        };
        format!(
            "{} same, {} both fail, {} more defined, {} differ ({} of them DWARF errors){fails}, {} not compared",
            self.same,
            self.both_fail,
            self.more_defined,
            self.differ,
            self.dwarf_errors,
            self.not_compared
        )
    }
}

/// Compares in `ctx` and in `n` variants of it.
pub fn compare_many(
    expr: &Expr,
    lowered: &Lowered,
    ctx: &ConcreteContext,
    enc: Encoding,
    n: usize,
    seed: u64,
) -> Tally {
    let contexts = Contexts::new(ctx, n, seed);
    References::new(expr, &contexts).compare(lowered, enc)
}

/// The contexts `compare_many` compares in: `ctx` first, then its `n`
/// [`variants`]. Built once, they serve any number of expressions (a
/// campaign compares every case in the same context; copying a context's
/// maps five times per case was 4.3% of the instructions of the pipeline's
/// expression cases).
///
/// The variants differ from `ctx` in state alone (register and memory
/// bytes, the lane), so an evaluation that reads no state in `ctx` gives
/// the same result in each of them ([`Watched`]).
pub struct Contexts(Vec<ConcreteContext>);

impl Contexts {
    pub fn new(ctx: &ConcreteContext, n: usize, seed: u64) -> Contexts {
        let mut contexts = Vec::with_capacity(n + 1);
        contexts.push(ctx.clone());
        contexts.extend(variants(ctx, n, seed));
        Contexts(contexts)
    }
    /// The context, then its variants.
    pub fn as_slice(&self) -> &[ConcreteContext] {
        &self.0
    }
}

/// The reference side of `compare_many`, computed once for any number of
/// lowerings of the same expression: the expression's location (or error)
/// in each of the contexts.
pub struct References<'c> {
    contexts: &'c [ConcreteContext],
    /// The distinct evaluations: the first context's, then each variant's
    /// that could differ from it.
    references: Vec<Reference>,
    /// Which of `references` is each context's. A variant whose state
    /// answers the first evaluation's reads as the first context does gets
    /// the first context's result without evaluating ([`Watched`]): every
    /// variant when the evaluation read no state (7 018 of 20 000 generated
    /// expressions in the fixed context), and about a tenth of the others.
    /// Evaluating in the variants was 12% of the instructions of the
    /// pipeline's expression cases.
    which: Vec<usize>,
}

impl<'c> References<'c> {
    pub fn new(expr: &Expr, contexts: &'c Contexts) -> References<'c> {
        // The contexts share a signature: an ill-formed expression is
        // ill-formed in each of them.
        match check(expr, &contexts.0[0].signature()) {
            Ok(checked) => Self::new_checked(expr, &checked, contexts),
            Err(d) => References {
                contexts: &contexts.0,
                references: vec![as_reference(Err(d))],
                which: vec![0; contexts.0.len()],
            },
        }
    }
    /// `new` for an expression the caller has checked against the
    /// contexts' signature.
    pub fn new_checked(expr: &Expr, checked: &Checked, contexts: &'c Contexts) -> References<'c> {
        let (first, variants) = contexts
            .0
            .split_first()
            .expect("`Contexts::new` puts the given context first");
        let watched = Watched::new(first);
        let mut references = Vec::with_capacity(contexts.0.len());
        references.push(as_reference(eval_checked(expr, checked, &watched)));
        let mut which = Vec::with_capacity(contexts.0.len());
        which.push(0);
        for ctx in variants {
            if watched.reads_agree(ctx) {
                which.push(0);
            } else {
                which.push(references.len());
                references.push(as_reference(eval_checked(expr, checked, ctx)));
            }
        }
        References {
            contexts: &contexts.0,
            references,
            which,
        }
    }
    /// Each context with (the index of) the reference there.
    fn each(&self) -> impl Iterator<Item = (&'c ConcreteContext, usize, &Reference)> {
        self.contexts
            .iter()
            .zip(&self.which)
            .map(move |(ctx, &k)| (ctx, k, &self.references[k]))
    }
    /// What `compare_many` gives for `lowered`.
    pub fn compare(&self, lowered: &Lowered, enc: Encoding) -> Tally {
        let mut t = Tally::default();
        for (ctx, _, r) in self.each() {
            let dwarf = dwarf_in(lowered, ctx, enc);
            t.add(ctx, against(r.clone(), lowered, ctx, dwarf));
        }
        t
    }
    /// [`Self::compare`] for a law, which needs only what can fail: where
    /// the reference fails with an evaluation error, any result of the
    /// DWARF holds (it fails too, or is more defined: D-lower-refines), so
    /// the DWARF is not evaluated there and the context is counted in
    /// `reference_fails`, even where the DWARF would have needed something
    /// the context lacks (which `compare` leaves out as not compared: 8 of
    /// 20 000 generated cases of the lowering law at seed 7 had only such
    /// contexts). Two thirds of the generated expressions fail in the fixed
    /// context; evaluating their DWARF was a fifth of the pipeline's
    /// expression cases.
    ///
    /// The DWARF is evaluated again only in a context that answers its
    /// last evaluation's state reads differently ([`Watched::reads_agree`]):
    /// elsewhere the result is the same. So is whether the reference and
    /// the DWARF give the same places, where both are the ones compared
    /// last.
    pub fn compare_where_defined(&self, lowered: &Lowered, enc: Encoding) -> Tally {
        let mut t = Tally::default();
        // The DWARF's last evaluation, what it read, and which it was.
        let mut last: Option<(Watched, Result<LocDesc, Diag>, usize)> = None;
        let mut evaluations = 0;
        // `same_places` of the last reference and DWARF result compared.
        let mut same_last: Option<(usize, usize, bool)> = None;
        for (ctx, k, r) in self.each() {
            let reference = match r {
                Ok(Err(_)) => {
                    t.reference_fails += 1;
                    continue;
                }
                Ok(Ok(reference)) => reference,
                // The reference cannot be compared here, whatever the
                // DWARF gives (`against` would say so without looking).
                Err(d) => {
                    t.add(ctx, Agreement::NotCompared(d.clone()));
                    continue;
                }
            };
            if !last.as_ref().is_some_and(|(w, _, _)| w.reads_agree(ctx)) {
                let watched = Watched::new(ctx);
                let d = dwarf_in(lowered, &watched, enc);
                evaluations += 1;
                last = Some((watched, d, evaluations));
            }
            let (_, dwarf, d_at) = last.as_ref().expect("evaluated above");
            // `classify`'s two holding outcomes for a location on each
            // side, counted without copying the reference or building the
            // agreement's diagnostic; anything else goes through `against`
            // for its full account.
            if let (Ok(d), 0) = (dwarf, lowered.offset) {
                let same = match same_last {
                    Some((rk, dk, same)) if (rk, dk) == (k, *d_at) => same,
                    _ => {
                        let same = same_places(reference, d, lowered.bits);
                        same_last = Some((k, *d_at, same));
                        same
                    }
                };
                if same {
                    t.same += 1;
                    continue;
                }
                if refines_places(ctx, reference, d, lowered.bits) {
                    t.more_defined += 1;
                    continue;
                }
            }
            t.add(ctx, against(r.clone(), lowered, ctx, dwarf.clone()));
        }
        t
    }
}

/// Reads DWARF given as hex bytes (`91 08`, `0x91 0x08`, `9108`) or as an
/// llvm-dwarfdump-style listing (the expression, then DIE lines). DIEs can
/// only come with a listing.
pub fn parse_dwarf(text: &str, enc: Encoding) -> Result<Listing, Diag> {
    let t = text.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    let hexy = !words.is_empty()
        && !t.contains("DW_")
        && words.iter().all(|w| {
            let w = w.strip_prefix("0x").unwrap_or(w);
            !w.is_empty() && w.len() % 2 == 0 && w.chars().all(|c| c.is_ascii_hexdigit())
        });
    if !hexy {
        return Listing::parse(t, enc);
    }
    let digits: String = words
        .iter()
        .map(|w| w.strip_prefix("0x").unwrap_or(w))
        .collect();
    let bytes = (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|e| Diag::malformed("DWARF", "bad-hex", e.to_string()))?;
    Ok(Listing {
        ops: decode(&bytes, enc)?,
        unit: Default::default(),
    })
}

/// What an external listing claims to describe: the expression's result, or
/// for a `DIOpFragment(O, S)` bits `O..O+S` of the variable.
pub fn described(expr: &Expr, ctx: &dyn Context, listing: Listing) -> Result<Lowered, Diag> {
    let checked = check(expr, &ctx.signature())?;
    let (offset, bits) = match checked.fragment {
        Some((o, s)) => (o, s),
        None => (0, ctx.layout().bitsizeof(&checked.result)),
    };
    Ok(Lowered {
        listing,
        offset,
        bits,
    })
}

/// Compares a listing with an expression in `ctx` and `n` variants.
pub fn dwarf_equiv(
    expr: &Expr,
    listing: Listing,
    ctx: &ConcreteContext,
    enc: Encoding,
    n: usize,
    seed: u64,
) -> Result<Tally, Diag> {
    let l = described(expr, ctx, listing)?;
    Ok(compare_many(expr, &l, ctx, enc, n, seed))
}
