//! The SMT agreement law on one case: the encoding of an expression over a
//! concrete context, solved, says what the interpreter says. The law
//! `smt-agrees-with-interpreter` runs it on generated cases, and the corpus
//! test `tests/smt_agreement.rs` on every corpus expression with a context.

/// How the encoding and the interpreter compare on one expression and one
/// concrete context.
#[derive(Debug)]
pub enum Agreement {
    /// Same outcome; on success the same location and the same value.
    Agree,
    /// The encoding (or the interpreter) does not handle this case.
    Unsupported(dioptra_semantics::Diag),
    /// They differ: a bug in one of them.
    Disagree(String),
}

/// The agreement law on one case: the model of the formula of `expr` over
/// the world of `ctx` says what the interpreter says (succeeds or fails; on
/// success the same location, and the same value or the same read failure).
pub fn agreement(
    expr: &dioptra_semantics::syntax::Expr,
    ctx: &dioptra_semantics::context::ConcreteContext,
    timeout_ms: u32,
) -> Agreement {
    use dioptra_semantics::diag::Outcome;
    use dioptra_semantics::location::same_location;
    let interp = dioptra_semantics::eval::eval(expr, ctx);
    if let Err(d) = &interp {
        if d.outcome == Outcome::Unsupported {
            return Agreement::Unsupported(d.clone());
        }
    }
    let world = dioptra_semantics::smt::World::concrete(ctx);
    let enc = match dioptra_semantics::smt::encode(expr, &world) {
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
    let read = if dioptra_semantics::smt::world::check_width(n).is_ok() {
        match dioptra_semantics::smt::loc::read(&world, &enc.loc, n) {
            Ok(r) => Some(r),
            Err(d) => return Agreement::Unsupported(d),
        }
    } else {
        None
    };
    let model = match ground_model(timeout_ms) {
        Ok(m) => m,
        Err(a) => return a,
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
    let smt_loc = match dioptra_semantics::smt::world::concrete_loc(&model, &enc.loc) {
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
                .and_then(|x| dioptra_semantics::smt::term::numeral_bits(&x));
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

/// The DWARF agreement law on one case: the model of the DWARF encoding
/// (`dwarf::smt::encode_dwarf`) over the world of `ctx` says what the DWARF
/// evaluator says: both fail, or both give a location and the two are the
/// same over the `bits` bits from bit 0 (and each `DW_OP_deref*` the
/// location needed read the same bytes, which the location's agreement
/// implies for the value it ends in).
pub fn dwarf_agreement(
    listing: &dioptra_semantics::dwarf::unit::Listing,
    ctx: &dioptra_semantics::context::ConcreteContext,
    bits: u64,
    timeout_ms: u32,
) -> Agreement {
    use dioptra_semantics::diag::Outcome;
    use dioptra_semantics::dwarf::eval::{evaluate, Env};
    use dioptra_semantics::dwarf::smt::encode_dwarf;
    use dioptra_semantics::dwarf::Encoding;
    use dioptra_semantics::location::same_location;
    let enc = Encoding::default();
    let env = Env {
        enc,
        ..Env::new(ctx, &listing.unit)
    };
    let interp = evaluate(&listing.ops, env);
    if let Err(d) = &interp {
        if d.outcome == Outcome::Unsupported {
            return Agreement::Unsupported(d.clone());
        }
    }
    let world = dioptra_semantics::smt::World::concrete(ctx);
    let encoded = match encode_dwarf(&listing.ops, &listing.unit, enc, &world) {
        Ok(e) => e,
        Err(d) => return Agreement::Unsupported(d),
    };
    let model = match ground_model(timeout_ms) {
        Ok(m) => m,
        Err(a) => return a,
    };
    let ok = model
        .eval(&encoded.ok, true)
        .and_then(|b| b.as_bool())
        .unwrap_or(false);
    let loc = match (&interp, ok) {
        (Ok(loc), true) => loc,
        (Err(_), false) => return Agreement::Agree,
        (Err(d), true) => {
            return Agreement::Disagree(format!(
                "the evaluator fails with `{d}`, the encoding says evaluation succeeds"
            ))
        }
        (Ok(loc), false) => {
            return Agreement::Disagree(format!(
                "the evaluator gives {loc} but the encoding says evaluation fails"
            ))
        }
    };
    let smt_loc = match dioptra_semantics::smt::world::concrete_loc(&model, &encoded.loc) {
        Ok(l) => l,
        Err(d) => return Agreement::Unsupported(d),
    };
    if !same_location(loc, &smt_loc, bits) {
        return Agreement::Disagree(format!(
            "the evaluator gives {loc} but the encoding {smt_loc}"
        ));
    }
    Agreement::Agree
}

/// A model of the solver's empty assertion set (the formulas of a concrete
/// world are ground: evaluating them in any model gives their value), or
/// the agreement to report when there is none.
fn ground_model(timeout_ms: u32) -> Result<dioptra_semantics::smt::Model, Agreement> {
    match dioptra_semantics::smt::solve(&[], timeout_ms) {
        dioptra_semantics::smt::Answer::Sat(m) => Ok(m),
        dioptra_semantics::smt::Answer::Unsat => {
            Err(Agreement::Disagree("no model of a ground formula".into()))
        }
        dioptra_semantics::smt::Answer::Unknown(r) => Err(Agreement::Unsupported(
            dioptra_semantics::smt::loc::unsupported("unknown", r),
        )),
    }
}
