//! The rule checker's SMT column: the rule language's constant
//! expressions and preconditions as z3 terms, the symbolic constants of an
//! instance, the encoding of classic records over IR values, and the
//! queries that look for a difference. The parsers and drivers beside it
//! (`mod.rs`, `classic.rs`) never build a solver term themselves.

use super::classic::{Operand, Prepared, Record};
use super::{CExpr, InstanceVerdict};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::classic::encode::{encode_classic_with, Holes};
use dioptra_semantics::classic::ir::{Inst, FROZEN_POISON};
use dioptra_semantics::classic::High;
use dioptra_semantics::diag::Diag;
use dioptra_semantics::smt::ir::encode_inst;
use dioptra_semantics::smt::loc::{
    offset_by, read as sread, same_location as s_same, SLoc, SStorage,
};
use dioptra_semantics::smt::term::{
    ashr, ff, lshr, numeral_bits, off_u, resize, resize_signed, sdiv, shl, srem, tt, udiv, urem,
};
use dioptra_semantics::smt::world::SInput;
use dioptra_semantics::smt::{all, disagree, solve, Answer, Encoded, World};
use dioptra_semantics::types::Type;
use num_bigint::BigInt;
use std::collections::BTreeMap;
use z3::ast::{Ast, Bool, BV};
use z3::Model;

/// A constant expression's value: a number (and whether it reads as
/// signed: `signed(C)` and what is computed from it) or a condition.
pub(super) enum Z {
    N(BV, bool),
    B(Bool),
}

/// The symbolic constants of an instantiation: name to its bit-vector.
pub(super) type Consts = BTreeMap<String, BV>;

/// Evaluates a constant expression in `cw`-bit two's complement.
///
/// DECISION (D-rule-constants): a symbolic constant reads unsigned unless
/// wrapped in `signed(...)`; `/`, `%`, `>>` and the comparisons are signed
/// when an operand is, unsigned otherwise; a target constant is computed at
/// its own type's width, wrapping as LLVM's constant folding does (so
/// `C1 + C2` folds an overflowing sum to its low bits), and a precondition
/// in arithmetic wide enough that nothing wraps (`C1 + C2 < width(T)` means
/// the mathematical sum).
pub(super) fn encode_cexpr(e: &CExpr, consts: &Consts, cw: u32) -> Result<Z, String> {
    let num = |e: &CExpr| -> Result<(BV, bool), String> {
        match encode_cexpr(e, consts, cw)? {
            Z::N(v, s) => Ok((v, s)),
            Z::B(_) => Err("a condition where a number is needed".into()),
        }
    };
    let cond = |e: &CExpr| -> Result<Bool, String> {
        match encode_cexpr(e, consts, cw)? {
            Z::B(b) => Ok(b),
            Z::N(..) => Err("a number where a condition is needed".into()),
        }
    };
    let constant = |c: &str| {
        consts
            .get(c)
            .ok_or_else(|| format!("unknown constant `{c}`"))
    };
    Ok(match e {
        CExpr::Num(n) => Z::N(
            dioptra_semantics::smt::term::bv_big(cw, &Bits::from_bigint(cw as u64, n).unsigned()),
            n.sign() == num_bigint::Sign::Minus,
        ),
        CExpr::Width(w) => Z::N(BV::from_u64(*w, cw), false),
        CExpr::Const(c) => Z::N(resize(constant(c)?, cw), false),
        CExpr::Call("signed", x) => match &**x {
            CExpr::Const(c) => Z::N(resize_signed(constant(c)?, cw), true),
            _ => return Err("signed(C) takes a constant".into()),
        },
        CExpr::Call("isPowerOf2", x) => {
            let (v, _) = num(x)?;
            let zero = BV::from_u64(0, cw);
            Z::B(Bool::and(&[
                &v.eq(&zero).not(),
                &v.bvand(v.bvsub(BV::from_u64(1, cw))).eq(&zero),
            ]))
        }
        CExpr::Call(_, x) => {
            // log2: the index of the highest set bit (0 for 0).
            let (v, _) = num(x)?;
            let mut r = BV::from_u64(0, cw);
            for i in 0..cw {
                r = v
                    .extract(i, i)
                    .eq(BV::from_u64(1, 1))
                    .ite(&BV::from_u64(i as u64, cw), &r);
            }
            Z::N(r, false)
        }
        CExpr::Unary("-", x) => Z::N(num(x)?.0.bvneg(), true),
        CExpr::Unary("~", x) => {
            let (v, s) = num(x)?;
            Z::N(v.bvnot(), s)
        }
        CExpr::Unary(_, x) => Z::B(cond(x)?.not()),
        CExpr::Binary(op, a, b) if ["&&", "||"].contains(op) => {
            let (a, b) = (cond(a)?, cond(b)?);
            Z::B(if *op == "&&" {
                Bool::and(&[&a, &b])
            } else {
                Bool::or(&[&a, &b])
            })
        }
        CExpr::Binary(op, a, b) => {
            let ((a, sa), (b, sb)) = (num(a)?, num(b)?);
            let s = sa || sb;
            match *op {
                "==" => Z::B(a.eq(&b)),
                "!=" => Z::B(a.eq(&b).not()),
                "<" => Z::B(if s { a.bvslt(&b) } else { a.bvult(&b) }),
                "<=" => Z::B(if s { a.bvsle(&b) } else { a.bvule(&b) }),
                ">" => Z::B(if s { a.bvsgt(&b) } else { a.bvugt(&b) }),
                ">=" => Z::B(if s { a.bvsge(&b) } else { a.bvuge(&b) }),
                "|" => Z::N(a.bvor(&b), s),
                "^" => Z::N(a.bvxor(&b), s),
                "&" => Z::N(a.bvand(&b), s),
                "<<" => Z::N(shl(&a, &b), sa),
                ">>" => Z::N(if sa { ashr(&a, &b) } else { lshr(&a, &b) }, sa),
                "+" => Z::N(a.bvadd(&b), s),
                "-" => Z::N(a.bvsub(&b), s),
                "*" => Z::N(a.bvmul(&b), s),
                "/" => Z::N(if s { sdiv(&a, &b) } else { udiv(&a, &b) }, s),
                _ => Z::N(if s { srem(&a, &b) } else { urem(&a, &b) }, s),
            }
        }
    })
}

/// Constant expressions compute in two's complement bit-vectors: a target
/// constant of `w` bits at exactly `w` bits (LLVM's constant folding: it
/// wraps, and the term is the one the encoding of the folded op builds, so
/// the solver sees they are equal), a precondition at `2 * wmax + 4` bits,
/// where sums and products of the constants and of widths do not wrap.
pub(super) fn precondition_width(consts: &Consts) -> u32 {
    let wmax = consts.values().map(BV::get_size).max().unwrap_or(8).max(8);
    2 * wmax + 4
}

/// One unknown bit-vector per symbolic constant, of its width.
pub(super) fn symbolic_constants<'a>(
    widths: impl IntoIterator<Item = (&'a String, u32)>,
) -> Consts {
    widths
        .into_iter()
        .map(|(name, w)| (name.clone(), BV::new_const(name.as_str(), w)))
        .collect()
}

/// The conjunction of the preconditions `pre`, computed wide enough that
/// nothing wraps ([`precondition_width`]).
pub(super) fn precondition(pre: &[CExpr], consts: &Consts) -> Result<Bool, String> {
    let mut assume = Vec::new();
    for p in pre {
        match encode_cexpr(p, consts, precondition_width(consts))? {
            Z::B(b) => assume.push(b),
            Z::N(..) => return Err("a precondition is a condition".into()),
        }
    }
    Ok(all(&assume))
}

/// The preconditions of a classic rule that name IR values (`pre
/// signed(%x) >= 0`), over the values' encodings (`values`: the value and
/// when it is poison) and the symbolic constants.
///
/// DECISION (D-rule-value-pre): a precondition over IR values reads each
/// value's bits (unsigned; `signed(%x)` reads them signed) and holds only
/// where every value it names is not poison: a rule that assumes a fact
/// about a value (correlated-value propagation's `%x >= 0`) says nothing
/// where the value is poison.
pub(super) fn value_precondition(
    pre: &[CExpr],
    consts: &Consts,
    values: &BTreeMap<String, (BV, Bool)>,
) -> Result<Bool, String> {
    let mut all = consts.clone();
    let mut defined = Vec::new();
    for e in pre {
        let mut names = Vec::new();
        super::classic::cexpr_names(e, &mut names);
        for n in names.iter().filter(|n| n.starts_with('%')) {
            let (v, poison) = values
                .get(n)
                .ok_or_else(|| format!("`{n}` is not an input or a let"))?;
            all.insert(n.clone(), v.clone());
            defined.push(poison.not());
        }
    }
    let holds = precondition(pre, &all)?;
    defined.push(holds);
    Ok(all_of(&defined))
}

fn all_of(b: &[Bool]) -> Bool {
    Bool::and(&b.iter().collect::<Vec<_>>())
}

/// `Some(verdict)` when the precondition decides the instance: it never
/// holds (often one over widths only, which simplifies to false), or the
/// solver gives up on it.
pub(super) fn inapplicable(pre_holds: &Bool, timeout_ms: u32) -> Option<InstanceVerdict> {
    let never = || {
        Some(InstanceVerdict::NotApplicable(
            "the precondition never holds".into(),
        ))
    };
    match pre_holds.simplify().as_bool() {
        Some(false) => never(),
        Some(true) => None,
        None => match solve(&[pre_holds], timeout_ms) {
            Answer::Unsat => never(),
            Answer::Unknown(r) => Some(InstanceVerdict::Unknown(r)),
            Answer::Sat(_) => None,
        },
    }
}

/// A constant expression's value as a `w`-bit term.
pub(super) fn constant_term(e: &CExpr, consts: &Consts, w: u32) -> Result<BV, String> {
    match encode_cexpr(e, consts, w)? {
        Z::N(v, _) => Ok(v),
        Z::B(_) => Err("a condition where a number is needed".into()),
    }
}

/// A constant expression's value at `w` bits, given numeral constants.
///
/// A number or a width is its value wrapped to `w` bits, as
/// [`encode_cexpr`] encodes it, without building and simplifying a z3 term:
/// the rule checker's concrete search and the LLVM campaign's replays ask
/// for a literal operand once per sample.
pub(super) fn constant_value(e: &CExpr, consts: &Consts, w: u32) -> Result<Bits, String> {
    match e {
        CExpr::Num(n) => return Ok(Bits::from_bigint(w as u64, n)),
        CExpr::Width(k) => return Ok(Bits::from_bigint(w as u64, &BigInt::from(*k))),
        // `-x` and `~x` wrap as `bvneg` and `bvnot` do: LLVM's negative
        // literals (`srem i64 %x, -1`) are `-` of a number, and asking z3
        // to fold them was a tenth of a campaign's checking time.
        CExpr::Unary(op @ ("-" | "~"), x) if matches!(**x, CExpr::Num(_) | CExpr::Width(_)) => {
            let v = BigInt::from(constant_value(x, consts, w)?.unsigned().into_owned());
            let r = if *op == "-" { -v } else { -v - 1 };
            return Ok(Bits::from_bigint(w as u64, &r));
        }
        _ => {}
    }
    numeral_bits(&constant_term(e, consts, w)?.simplify())
        .ok_or_else(|| "a constant expression that does not fold".to_string())
}

/// The value a model gives a term.
pub(super) fn model_value(model: &Model, v: &BV) -> Option<Bits> {
    model.eval(v, true).and_then(|x| numeral_bits(&x))
}

/// The values a model gives named terms.
pub(super) fn model_values(model: &Model, terms: &BTreeMap<String, BV>) -> BTreeMap<String, Bits> {
    terms
        .iter()
        .filter_map(|(n, v)| model_value(model, v).map(|b| (n.clone(), b)))
        .collect()
}

/// Looks for a context, under the precondition, where the source and the
/// target of a DIOp rule differ (`n` bits of their results): `Ok(model)`
/// of one, or the verdict when there is none or the solver gave up.
pub(super) fn find_difference(
    world: &World,
    s: &Encoded,
    t: &Encoded,
    n: u64,
    pre_holds: &Bool,
    timeout_ms: u32,
) -> Result<Result<Model, InstanceVerdict>, Diag> {
    let same = s_same(world, &s.loc, &t.loc, n)?;
    Ok(
        match solve(&[pre_holds, &disagree(&s.ok, &t.ok, &same)], timeout_ms) {
            Answer::Unsat => Err(InstanceVerdict::Valid),
            Answer::Unknown(r) => Err(InstanceVerdict::Unknown(r)),
            Answer::Sat(m) => Ok(m),
        },
    )
}

/// The same for a classic rule's two records: where the source's operands
/// are not poison, the target (a kill location where one of its operands
/// is poison) must agree with the source on its bits (`source_bits` and
/// `target_bits`: offset and size within the variable).
pub(super) fn find_classic_difference(
    world: &World,
    enc: &Encodings,
    source_bits: (u64, u64),
    target_bits: (u64, u64),
    pre_holds: &Bool,
    timeout_ms: u32,
) -> Result<Result<Model, InstanceVerdict>, Diag> {
    let ((s, s_poison), (t, t_poison)) = (&enc.source, &enc.target);
    // The target kills where an operand of it is poison.
    let t_ok = t_poison.ite(&tt(), &t.ok);
    let t_loc = SLoc::ite(t_poison, SLoc::start(SStorage::Undefined), t.loc.clone());
    let ((so, _), (to, tn)) = (source_bits, target_bits);
    let (s_loc, inside) = offset_by(world, &s.loc, &off_u((to - so) as u128), &tt());
    let same = Bool::and(&[&inside, &s_same(world, &s_loc, &t_loc, tn)?]);
    let differ = disagree(&s.ok, &t_ok, &same);
    Ok(
        match solve(&[pre_holds, &s_poison.not(), &differ], timeout_ms) {
            Answer::Unsat => Err(InstanceVerdict::Valid),
            Answer::Unknown(r) => Err(InstanceVerdict::Unknown(r)),
            Answer::Sat(m) => Ok(m),
        },
    )
}

/// An IR value in the solver: its value and when it is poison.
struct SValue {
    v: BV,
    poison: Bool,
    ty: Type,
}

/// The records' encodings and poison conditions.
pub(super) struct Encodings {
    pub source: (Encoded, Bool),
    pub target: (Encoded, Bool),
    /// The upper bits of each narrow IR value (`high any`).
    pub high: BTreeMap<String, BV>,
    /// Each IR value (input or let) and when it is poison.
    pub values: BTreeMap<String, (BV, Bool)>,
    /// The `upper` clauses hold of the upper bits.
    pub upper_holds: Bool,
}

pub(super) fn encode_records(
    p: &Prepared,
    world: &mut World,
    consts: &Consts,
) -> Result<Encodings, Diag> {
    let inputs = world.args.clone();
    let mut values: BTreeMap<String, SValue> = BTreeMap::new();
    for (k, (name, ty)) in p.inputs.iter().enumerate() {
        let loc = inputs[k].loc.clone()?;
        let r = sread(world, &loc, p.bits(ty))?;
        values.insert(
            name.clone(),
            SValue {
                v: r.value,
                poison: r.ok.not(),
                ty: ty.clone(),
            },
        );
    }
    let bad = |m: String| Diag::malformed("Rule", "bad-pattern", m);
    for l in &p.lets {
        let mut args = Vec::new();
        let mut poison = vec![];
        for (o, &ow) in l.operands.iter().zip(&l.inst.operand_bits()) {
            match o {
                Operand::Value(n) => {
                    let v = &values[n];
                    args.push(v.v.clone());
                    poison.push(v.poison.clone());
                }
                // A constant is never poison; its entry keeps `poison`
                // aligned with the operands (a select reads them by
                // position: without it, `select %c, -255, %p` took `%p`'s
                // poison for the constant's).
                Operand::Const(e) => match encode_cexpr(e, consts, ow as u32).map_err(bad)? {
                    Z::N(v, _) => {
                        args.push(v);
                        poison.push(ff());
                    }
                    Z::B(_) => return Err(bad("a condition as an operand".into())),
                },
            }
        }
        let (mut v, p0) = encode_inst(&l.inst, &args);
        if let Inst::Freeze { bits } = l.inst {
            // A frozen poison operand is FROZEN_POISON, and the result is
            // never poison (D-freeze-zero).
            let operand = Bool::or(&poison.iter().collect::<Vec<_>>());
            v = operand.ite(&BV::from_u64(FROZEN_POISON, bits as u32), &v);
            poison.clear();
        }
        if let (Inst::Select { .. }, [pc, pa, pb]) = (&l.inst, &poison[..]) {
            // Poison where the condition is, or the operand it picks.
            let picked = args[0].eq(BV::from_u64(1, 1)).ite(pa, pb);
            poison = vec![pc.clone(), picked];
        }
        poison.push(p0);
        values.insert(
            l.name.clone(),
            SValue {
                v,
                poison: Bool::or(&poison.iter().collect::<Vec<_>>()),
                ty: l.ty.clone(),
            },
        );
    }
    let mut high = BTreeMap::new();
    for (name, v) in &values {
        let bits = p.bits(&v.ty);
        if bits < p.w {
            high.insert(
                name.clone(),
                BV::new_const(format!("high.{name}"), (p.w - bits) as u32),
            );
        }
    }
    // `upper`: each range of the register above an input holds zeros,
    // copies of the value's sign bit, or anything.
    let mut upper = Vec::new();
    for (name, segs) in &p.upper {
        let (Some(h), Some(v)) = (high.get(name), values.get(name)) else {
            continue;
        };
        let bits = p.bits(&v.ty);
        let mut lo = bits;
        for u in segs {
            let to = u.to.min(p.w);
            if to > lo {
                let part = h.extract((to - bits - 1) as u32, (lo - bits) as u32);
                let n = (to - lo) as u32;
                match u.kind {
                    High::Zero => upper.push(part.eq(BV::from_u64(0, n))),
                    High::Sign => {
                        let sign = v.v.extract((bits - 1) as u32, (bits - 1) as u32);
                        let fill = if n > 1 { sign.sign_ext(n - 1) } else { sign };
                        upper.push(part.eq(&fill));
                    }
                    High::Any => {}
                }
            }
            lo = lo.max(u.to);
        }
    }
    let upper_holds = Bool::and(&upper.iter().collect::<Vec<_>>());
    let mut record = |r: &Record| -> Result<(Encoded, Bool), Diag> {
        world.args = r
            .operands
            .iter()
            .map(|o| match p.inputs.iter().position(|(n, _)| n == o) {
                Some(k) => inputs[k].clone(),
                None => SInput {
                    ty: values[o].ty.clone(),
                    loc: Ok(SLoc::start(SStorage::Implicit(values[o].v.clone()))),
                },
            })
            .collect();
        let mut holes = Holes::default();
        for (&i, e) in &r.holes {
            match encode_cexpr(e, consts, 64).map_err(bad)? {
                Z::N(v, _) => {
                    holes.literals.insert(i, v);
                }
                Z::B(_) => return Err(bad("a condition as a literal".into())),
            }
        }
        for (k, o) in r.operands.iter().enumerate() {
            if let Some(h) = high.get(o) {
                holes.high.insert(k as u32, h.clone());
            }
        }
        let e = encode_classic_with(&r.expr, world, &p.params, &holes)?;
        let poison: Vec<&Bool> = r.operands.iter().map(|o| &values[o].poison).collect();
        Ok((e, Bool::or(&poison)))
    };
    let source = record(&p.source)?;
    let target = record(&p.target)?;
    world.args = inputs;
    Ok(Encodings {
        source,
        target,
        high,
        values: values
            .into_iter()
            .map(|(n, v)| (n, (v.v, v.poison)))
            .collect(),
        upper_holds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The literal fast path of `constant_value` gives what the z3 term
    /// does, at every width, for numbers that fit, wrap and are negative.
    #[test]
    fn literal_constants_fold_as_their_terms_do() {
        let consts = Consts::new();
        let numbers: Vec<BigInt> = [
            "0",
            "1",
            "-1",
            "255",
            "256",
            "-129",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
            "340282366920938463463374607431768211457",
        ]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
        for w in [1u32, 7, 8, 16, 32, 64, 65, 128] {
            for n in &numbers {
                let e = CExpr::Num(n.clone());
                let slow = numeral_bits(&constant_term(&e, &consts, w).unwrap().simplify());
                assert_eq!(constant_value(&e, &consts, w).ok(), slow, "{n} at {w}");
            }
            for k in [0u64, 3, 64, 300] {
                let e = CExpr::Width(k);
                let slow = numeral_bits(&constant_term(&e, &consts, w).unwrap().simplify());
                assert_eq!(
                    constant_value(&e, &consts, w).ok(),
                    slow,
                    "width {k} at {w}"
                );
            }
            // `-x` and `~x` of a number or a width (how LLVM's negative
            // literals are read), folded without z3.
            let leaves = numbers.iter().map(|n| CExpr::Num(n.clone())).chain([
                CExpr::Width(0),
                CExpr::Width(3),
                CExpr::Width(300),
            ]);
            for leaf in leaves {
                for op in ["-", "~"] {
                    let e = CExpr::Unary(op, Box::new(leaf.clone()));
                    let slow = numeral_bits(&constant_term(&e, &consts, w).unwrap().simplify());
                    assert!(slow.is_some());
                    assert_eq!(constant_value(&e, &consts, w).ok(), slow, "{op} at {w}");
                }
            }
        }
    }
}
