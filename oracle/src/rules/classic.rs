//! Classic rules: LLVM's own rewrites of classic debug records (constant
//! folding, salvaging, fragments, offsets), checked like DIOp rules for
//! every instantiation, for `W` = 32 and 64 and for each upper-bit
//! parameter (grammar: corpus/rules/README.md, "Classic rules").
//!
//! A classic rule compares two debug records, `OPERANDS, !DIExpression(…)`,
//! over IR values: the inputs `%x` and the values `let` computes from them,
//! one LLVM instruction each ([`dioptra_semantics::classic::ir`]). A
//! literal of `DW_OP_constu`, `DW_OP_consts` or `DW_OP_plus_uconst` may be a
//! constant expression over the rule's symbolic constants: the encoder
//! takes it as a hole ([`Holes`]), the interpreter as the literal the
//! counterexample chose.
//!
//! DECISION (D-classic-rule-operands): each IR value of a classic rule is
//! an SSA value in a register of its own, any of which may be poison; a
//! `let` value is an implicit value (the instruction's result), poison when
//! the instruction is or an operand is. A record with a poison operand is a
//! kill location (LLVM's `isKillLocation`), so a target that kills where
//! the source does not is wrong; a source with a poison operand shows
//! anything, so any target refines it (Alive's reading of poison). The
//! upper bits of a narrow value under `high any` are one unknown per IR
//! value, the same in both records.

use super::smt::{
    constant_value, encode_records, find_classic_difference, inapplicable, model_values,
    precondition, symbolic_constants, value_precondition, Consts,
};
use super::{instances, parse_cexpr, CExpr, Instance, InstanceVerdict, Rule, Upper};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::classic::eval::eval_classic_with;
use dioptra_semantics::classic::ir::{eval_inst_poison, parse_inst, Inst};
use dioptra_semantics::classic::wellformed::check_classic;
use dioptra_semantics::classic::{parse_classic, COp, ClassicExpr, High, Intrinsic, Params};
use dioptra_semantics::context::{ConcreteContext, Input, Signature};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::eval::Evaluated;
use dioptra_semantics::location::{read, same_location, LocDesc, Storage};
use dioptra_semantics::smt::loc::{SLoc, SStorage};
use dioptra_semantics::smt::term::bv_of;
use dioptra_semantics::smt::World;
use dioptra_semantics::text::{parse_type, split_top_level};
use dioptra_semantics::types::{DataLayout, Type};
use num_bigint::BigInt;
use std::collections::BTreeMap;
use z3::ast::{Ast, Bool};

/// An operand of a `let` instruction.
pub(super) enum Operand {
    Value(String),
    Const(CExpr),
}

pub(super) struct Let {
    pub(super) name: String,
    pub(super) inst: Inst,
    pub(super) operands: Vec<Operand>,
    pub(super) ty: Type,
}

/// One debug record: its operands (IR value names) and its expression,
/// with the literals that are constant expressions left as holes (by
/// operation index; the expression holds 0 there).
pub(super) struct Record {
    pub(super) operands: Vec<String>,
    pub(super) expr: ClassicExpr,
    pub(super) holes: BTreeMap<usize, CExpr>,
}

/// A classic rule made concrete for one instance.
pub(super) struct Prepared {
    pub(super) layout: DataLayout,
    pub(super) w: u64,
    pub(super) inputs: Vec<(String, Type)>,
    pub(super) lets: Vec<Let>,
    /// The symbolic constants and their widths.
    pub(super) consts: Vec<(String, u32)>,
    pub(super) pre: Vec<CExpr>,
    /// The `upper` clauses: what the register bits above an input hold.
    pub(super) upper: Vec<(String, Vec<Upper>)>,
    pub(super) source: Record,
    pub(super) target: Record,
    pub(super) params: Params,
    /// The bits of the variable each record describes: (first, count).
    pub(super) source_bits: (u64, u64),
    pub(super) target_bits: (u64, u64),
}

/// Why an instance is not checked, or how it fails statically.
enum Prep {
    Ready(Box<Prepared>),
    NotApplicable(String),
    Invalid(String),
}

fn is_number(s: &str) -> bool {
    let t = s.strip_prefix('-').unwrap_or(s);
    !t.is_empty() && t.chars().all(|c| c.is_ascii_digit())
        || s.strip_prefix("0x")
            .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The names a constant expression reads: symbolic constants and, in a
/// classic rule's precondition, IR values (`%x`).
pub(super) fn cexpr_names(e: &CExpr, out: &mut Vec<String>) {
    match e {
        CExpr::Const(c) => out.push(c.clone()),
        CExpr::Unary(_, x) | CExpr::Call(_, x) => cexpr_names(x, out),
        CExpr::Binary(_, a, b) => {
            cexpr_names(a, out);
            cexpr_names(b, out);
        }
        CExpr::Num(_) | CExpr::Width(_) => {}
    }
}

/// The register bits above a `value` of `bits` bits, `high` (`w - bits`
/// of them), with the ranges of an `upper` clause imposed: zeros, copies of
/// the value's sign bit, or `high`'s own bits.
pub(super) fn impose_upper(value: &Bits, high: &Bits, segs: &[Upper], w: u64) -> Bits {
    let bits = value.width();
    let sign = value.bit(bits - 1);
    let mut out = BigInt::from(0);
    for j in 0..w.saturating_sub(bits) {
        let r = bits + j;
        let kind = segs.iter().find(|u| r < u.to).map_or(High::Any, |u| u.kind);
        let set = match kind {
            High::Zero => false,
            High::Sign => sign,
            High::Any => high.bit(j),
        };
        if set {
            out |= BigInt::from(1) << j;
        }
    }
    Bits::from_bigint(w.saturating_sub(bits), &out)
}

/// Does a precondition name an IR value?
fn names_a_value(e: &CExpr) -> bool {
    let mut names = Vec::new();
    cexpr_names(e, &mut names);
    names.iter().any(|n| n.starts_with('%'))
}

/// `record` (`OPERANDS, !DIExpression(ITEMS)`) with its items put where
/// `around`'s `...` stands: the same operation in an enclosing expression.
fn enclosed(record: &str, around: &str) -> Result<String, String> {
    let at = record
        .find("!DIExpression(")
        .ok_or("a record is `OPERANDS, !DIExpression(...)`")?;
    let inner = record[at + "!DIExpression(".len()..]
        .trim_end()
        .strip_suffix(')')
        .ok_or("an unclosed !DIExpression(")?;
    let items: Vec<String> = split_top_level(around)
        .into_iter()
        .flat_map(|i| {
            if i.trim() == "..." {
                split_top_level(inner)
            } else {
                vec![i]
            }
        })
        .map(|i| i.trim().to_string())
        .filter(|i| !i.is_empty())
        .collect();
    Ok(format!(
        "{}!DIExpression({})",
        &record[..at],
        items.join(", ")
    ))
}

/// Parses `OPERANDS, !DIExpression(…)`: `%x`, `!DIArgList(%x, %y)` or
/// nothing before the expression.
fn parse_record(
    text: &str,
    layout: &DataLayout,
    consts: &mut Vec<(String, u32)>,
) -> Result<Record, String> {
    let at = text
        .find("!DIExpression(")
        .ok_or("a record is `OPERANDS, !DIExpression(...)`")?;
    let before = text[..at].trim().trim_end_matches(',').trim();
    let operands: Vec<String> = if before.is_empty() {
        Vec::new()
    } else if let Some(inner) = before
        .strip_prefix("!DIArgList(")
        .and_then(|b| b.strip_suffix(')'))
    {
        inner
            .split(',')
            .map(|o| o.trim().to_string())
            .filter(|o| !o.is_empty())
            .collect()
    } else {
        vec![before.to_string()]
    };
    if let Some(o) = operands.iter().find(|o| !o.starts_with('%')) {
        return Err(format!("`{o}`: an operand is a %name"));
    }
    let inner = text[at + "!DIExpression(".len()..]
        .trim_end()
        .strip_suffix(')')
        .ok_or("an unclosed !DIExpression(")?;
    let mut items = Vec::new();
    let mut holes = BTreeMap::new();
    let mut ops = 0usize;
    let mut current = "";
    for item in split_top_level(inner) {
        if item.starts_with("DW_OP_") {
            ops += 1;
            current = if item.starts_with("DW_OP_constu") {
                "constu"
            } else if item.starts_with("DW_OP_consts") {
                "consts"
            } else if item.starts_with("DW_OP_plus_uconst") {
                "plus_uconst"
            } else {
                ""
            };
            items.push(item);
            continue;
        }
        if is_number(&item) || item.starts_with("DW_ATE_") || ops == 0 {
            items.push(item);
            continue;
        }
        let e = parse_cexpr(&item, layout)?;
        let mut names = Vec::new();
        cexpr_names(&e, &mut names);
        if names.is_empty() {
            // Only numbers and widths: a literal of this instance.
            items.push(
                constant_value(&e, &BTreeMap::new(), 64)?
                    .unsigned()
                    .to_string(),
            );
            continue;
        }
        if current.is_empty() {
            return Err(format!(
                "`{item}`: only DW_OP_constu, DW_OP_consts and DW_OP_plus_uconst take a symbolic literal"
            ));
        }
        // A constant first met in a literal is as wide as the literal.
        for c in names {
            if !consts.iter().any(|(n, _)| *n == c) {
                consts.push((c, 64));
            }
        }
        holes.insert(ops - 1, e);
        items.push("0".to_string());
    }
    let expr = parse_classic(&format!("!DIExpression({})", items.join(", ")))
        .map_err(|d| d.to_string())?;
    if expr.ops.len() != ops {
        return Err("an operation of the expression is not a DW_OP_ name".into());
    }
    Ok(Record {
        operands,
        expr,
        holes,
    })
}

/// The type of IR value `name`.
fn value_type<'a>(p: &'a Prepared, name: &str) -> Option<&'a Type> {
    p.inputs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t)
        .or_else(|| p.lets.iter().find(|l| l.name == name).map(|l| &l.ty))
}

impl Prepared {
    fn signature(&self, r: &Record) -> Signature {
        Signature {
            layout: self.layout.clone(),
            args: r
                .operands
                .iter()
                .map(|o| value_type(self, o).cloned().unwrap_or(Type::Int(1)))
                .collect(),
            ..Signature::default()
        }
    }
    pub(super) fn bits(&self, t: &Type) -> u64 {
        self.layout.bitsizeof(t)
    }
}

fn prepare(rule: &Rule, inst: &Instance) -> Result<Prep, Diag> {
    let bad = |m: String| inst.bad_pattern(rule, m);
    let sub = |t: &str| inst.substitute(t);
    let layout = inst.layout.clone();
    let w = layout.pointer_bits(0) as u64;
    let inputs: Vec<(String, Type)> = rule
        .inputs
        .iter()
        .map(|(n, t)| Ok((n.clone(), parse_type(&sub(t))?)))
        .collect::<Result<_, Diag>>()?;
    let mut consts: Vec<(String, u32)> = Vec::new();
    let mut lets: Vec<Let> = Vec::new();
    for (name, text) in &rule.lets {
        let parsed = parse_inst(&sub(text), &layout).map_err(|d| bad(d.to_string()))?;
        if let Err(d) = parsed.inst.check() {
            return Ok(Prep::NotApplicable(format!(
                "`{name}` is ill-typed here: {d}"
            )));
        }
        let widths = parsed.inst.operand_bits();
        let mut operands = Vec::new();
        for (o, &ow) in parsed.operands.iter().zip(&widths) {
            if o.starts_with('%') {
                let known = inputs
                    .iter()
                    .find(|(n, _)| n == o)
                    .map(|(_, t)| t.clone())
                    .or_else(|| lets.iter().find(|l| &l.name == o).map(|l| l.ty.clone()))
                    .ok_or_else(|| bad(format!("`{o}` is not an input or an earlier let")))?;
                if layout.bitsizeof(&known) != ow {
                    return Err(bad(format!(
                        "`{o}` is a `{known}`; the instruction takes {ow} bits"
                    )));
                }
                operands.push(Operand::Value(o.clone()));
            } else {
                let e = parse_cexpr(o, &layout).map_err(bad)?;
                if let CExpr::Const(c) = &e {
                    if !consts.iter().any(|(n, _)| n == c) {
                        consts.push((c.clone(), ow as u32));
                    }
                }
                operands.push(Operand::Const(e));
            }
        }
        let rb = parsed.inst.result_bits();
        let ty = if matches!(parsed.inst, Inst::Gep { .. })
            || sub(text).trim_start().starts_with("inttoptr")
        {
            Type::ptr(0)
        } else {
            Type::Int(rb)
        };
        lets.push(Let {
            name: name.clone(),
            inst: parsed.inst,
            operands,
            ty,
        });
    }
    let enclose = |record: String| match inst.around(rule) {
        Some(around) => enclosed(&record, &sub(around)),
        None => Ok(record),
    };
    let source = enclose(sub(&rule.source))
        .and_then(|r| parse_record(&r, &layout, &mut consts))
        .map_err(bad)?;
    let target = enclose(sub(&rule.target))
        .and_then(|r| parse_record(&r, &layout, &mut consts))
        .map_err(bad)?;
    let pre = rule
        .pre
        .iter()
        .map(|t| parse_cexpr(&sub(t), &layout))
        .collect::<Result<Vec<_>, _>>()
        .map_err(bad)?;
    for e in &pre {
        let mut names = Vec::new();
        cexpr_names(e, &mut names);
        for n in names.iter().filter(|n| n.starts_with('%')) {
            if !inputs.iter().any(|(i, _)| i == n) && !lets.iter().any(|l| &l.name == n) {
                return Err(bad(format!(
                    "the precondition names `{n}`, which is not an input or a let"
                )));
            }
        }
    }
    for (n, _) in &rule.upper {
        if !inputs.iter().any(|(i, _)| i == n) {
            return Err(bad(format!(
                "upper names `{n}`, which is not an input (the registers an input arrives in)"
            )));
        }
    }
    let mut p = Prepared {
        layout,
        w,
        inputs,
        lets,
        consts,
        pre,
        upper: rule.upper.clone(),
        source,
        target,
        params: Params {
            intrinsic: rule.classic.unwrap_or_default(),
            high: inst.high.unwrap_or_default(),
            variable: None,
        },
        source_bits: (0, 0),
        target_bits: (0, 0),
    };
    for r in [&p.source, &p.target] {
        if let Some(o) = r.operands.iter().find(|o| value_type(&p, o).is_none()) {
            return Err(bad(format!("`{o}` is not an input or a let")));
        }
    }
    // The variable: declared; or, for dbg.value, the type of the source's
    // first operand (the value it describes); or what the source describes.
    let first = p
        .source
        .operands
        .first()
        .and_then(|o| value_type(&p, o))
        .cloned();
    p.params.variable = match (&rule.variable, first) {
        (Some(t), _) => Some(parse_type(&sub(t)).map_err(|d| bad(d.to_string()))?),
        (None, Some(t)) if p.params.intrinsic == Intrinsic::Value => Some(t),
        (None, _) => match check_classic(&p.source.expr, &p.signature(&p.source), &p.params) {
            Ok(c) if c.fragment.is_none() => Some(c.result),
            Ok(_) => None,
            Err(d) => {
                return Ok(Prep::NotApplicable(format!(
                    "the source is ill-formed: {d}"
                )))
            }
        },
    };
    let s = match check_classic(&p.source.expr, &p.signature(&p.source), &p.params) {
        Ok(c) => c,
        Err(d) => {
            return Ok(Prep::NotApplicable(format!(
                "the source is ill-formed: {d}"
            )))
        }
    };
    let t = match check_classic(&p.target.expr, &p.signature(&p.target), &p.params) {
        Ok(c) => c,
        Err(d) => return Ok(Prep::Invalid(format!("the target is ill-formed: {d}"))),
    };
    let layout = p.layout.clone();
    let range = |c: &dioptra_semantics::classic::wellformed::Checked| {
        c.fragment.unwrap_or((0, layout.bitsizeof(&c.result)))
    };
    p.source_bits = range(&s);
    p.target_bits = range(&t);
    let ((so, sn), (to, tn)) = (p.source_bits, p.target_bits);
    if to < so || to + tn > so + sn {
        return Ok(Prep::Invalid(format!(
            "the target describes bits [{to}, {}) of the variable, the source only [{so}, {})",
            to + tn,
            so + sn
        )));
    }
    Ok(Prep::Ready(Box::new(p)))
}

/// The register location of input `k`.
fn register_loc(k: usize, bits: u64) -> SLoc {
    SLoc::start(SStorage::Register {
        number: k as u32,
        bits: bits.div_ceil(8) * 8,
    })
}

/// Checks one instance of a classic rule.
pub(super) fn check_instance(
    rule: &Rule,
    inst: &Instance,
    timeout_ms: u32,
) -> Result<InstanceVerdict, Diag> {
    let p = match prepare(rule, inst)? {
        Prep::Ready(p) => p,
        Prep::NotApplicable(why) => return Ok(InstanceVerdict::NotApplicable(why)),
        Prep::Invalid(why) => {
            return Ok(InstanceVerdict::Invalid(format!(
                "{}: {why}",
                inst.describe()
            )))
        }
    };
    let bad = |m: String| inst.bad_pattern(rule, m);
    let consts = symbolic_constants(p.consts.iter().map(|(n, w)| (n, *w)));
    let (on_values, on_constants): (Vec<CExpr>, Vec<CExpr>) =
        p.pre.iter().cloned().partition(names_a_value);
    let pre_holds = precondition(&on_constants, &consts).map_err(bad)?;
    if let Some(v) = inapplicable(&pre_holds, timeout_ms) {
        return Ok(v);
    }
    let sig = Signature {
        layout: p.layout.clone(),
        args: p.inputs.iter().map(|(_, t)| t.clone()).collect(),
        ..Signature::default()
    };
    let mut world = World::symbolic(&sig, &[0])?;
    for (k, (_, ty)) in p.inputs.iter().enumerate() {
        world.args[k].loc = Ok(register_loc(k, p.bits(ty)));
    }
    let enc = encode_records(&p, &mut world, &consts)?;
    let pre_holds = Bool::and(&[
        &pre_holds,
        &value_precondition(&on_values, &consts, &enc.values).map_err(bad)?,
        &enc.upper_holds,
    ]);
    let found = find_classic_difference(
        &world,
        &enc,
        p.source_bits,
        p.target_bits,
        &pre_holds,
        timeout_ms,
    )?;
    let model = match found {
        Ok(m) => m,
        Err(verdict) => return Ok(verdict),
    };
    // The counterexample, re-run by the interpreter.
    let ctx = world.concretize(&model)?;
    let const_values = model_values(&model, &consts);
    let high_values = model_values(&model, &enc.high);
    let r = replay(&p, &const_values, &ctx, &high_values)?;
    if !r.differ {
        return Err(Diag::unsupported(
            "SMT",
            "unconfirmed-counterexample",
            format!(
                "a dioptra bug: rule {} ({}): the interpreter does not confirm the counterexample:\n{}",
                rule.name,
                inst.describe(),
                r.text
            ),
        ));
    }
    let witness = witness_line(inst, &p, &const_values, &ctx, &high_values);
    Ok(InstanceVerdict::Invalid(format!(
        "{}\nwitness {witness}\n{}",
        inst.describe(),
        r.text
    )))
}

/// A counterexample as a `witness` clause.
fn witness_line(
    inst: &Instance,
    p: &Prepared,
    consts: &BTreeMap<String, Bits>,
    ctx: &ConcreteContext,
    high: &BTreeMap<String, Bits>,
) -> String {
    let mut parts: Vec<String> = inst
        .assignment
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    for (n, b) in consts {
        parts.push(format!("{n} = {}", b.unsigned()));
    }
    for (k, (name, ty)) in p.inputs.iter().enumerate() {
        let v = read(ctx, &ctx.args[k].loc, p.bits(ty)).ok();
        parts.push(match v {
            Some(b) => format!("{name} = 0x{}", b.unsigned().to_str_radix(16)),
            None => format!("{name} = poison"),
        });
    }
    if p.params.high == High::Any {
        for (n, b) in high {
            parts.push(format!("high({n}) = 0x{}", b.unsigned().to_str_radix(16)));
        }
    }
    for (&(_, start), bytes) in &ctx.memory {
        let text: Vec<String> = bytes
            .iter()
            .map(|b| b.map_or("??".into(), |v| format!("{v:02x}")))
            .collect();
        parts.push(format!("mem(0x{start:x}) = {}", text.join(" ")));
    }
    parts.join(", ")
}

/// The reason a replay refuses an input outside the precondition over
/// values: no counterexample, and a sample the search skips.
const OUTSIDE_PRE: &str = "witness-outside-pre";

/// The interpreter's view of a counterexample.
struct Replay {
    differ: bool,
    text: String,
}

/// What a record describes in a concrete context.
enum Outcome {
    /// An operand is poison: a kill location.
    Poison,
    Described(Result<Evaluated, Diag>, Box<ConcreteContext>),
}

/// Re-runs both records on concrete values: the IR values by
/// [`eval_inst`], the records by [`eval_classic_with`].
fn replay(
    p: &Prepared,
    consts: &BTreeMap<String, Bits>,
    ctx: &ConcreteContext,
    high: &BTreeMap<String, Bits>,
) -> Result<Replay, Diag> {
    replay_with(p, consts, ctx, high, true)
}

/// [`replay`], writing its text only when `explain` (a search runs many
/// inputs and explains only the one that differs).
fn replay_with(
    p: &Prepared,
    consts: &BTreeMap<String, Bits>,
    ctx: &ConcreteContext,
    high: &BTreeMap<String, Bits>,
    explain: bool,
) -> Result<Replay, Diag> {
    let bad = |m: String| Diag::malformed("Rule", "bad-pattern", m);
    let cmap: Consts = consts.iter().map(|(n, b)| (n.clone(), bv_of(b))).collect();
    let mut values: BTreeMap<String, Option<Bits>> = BTreeMap::new();
    for (k, (name, ty)) in p.inputs.iter().enumerate() {
        values.insert(name.clone(), read(ctx, &ctx.args[k].loc, p.bits(ty)).ok());
    }
    let mut text = String::new();
    for l in &p.lets {
        let mut args = Vec::new();
        for (o, &ow) in l.operands.iter().zip(&l.inst.operand_bits()) {
            args.push(match o {
                Operand::Value(n) => values[n].clone(),
                Operand::Const(e) => Some(constant_value(e, &cmap, ow as u32).map_err(bad)?),
            });
        }
        // A frozen poison is FROZEN_POISON (D-freeze-zero); a select is
        // poison where its condition is, or the operand it picks.
        let v = eval_inst_poison(&l.inst, &args);
        if explain {
            text += &format!(
                ";; {} = {}\n",
                l.name,
                v.as_ref().map_or("poison".into(), |b| format!(
                    "0x{}",
                    b.unsigned().to_str_radix(16)
                ))
            );
        }
        values.insert(l.name.clone(), v);
    }
    // Upper bits outside an `upper` clause are no counterexample either.
    for (name, segs) in &p.upper {
        if let (Some(Some(v)), Some(h)) = (values.get(name), high.get(name)) {
            if impose_upper(v, h, segs, p.w) != *h {
                return Err(Diag::malformed(
                    "Rule",
                    "witness-outside-upper",
                    format!("the upper bits of {name} are not what the rule's upper clause says"),
                ));
            }
        }
    }
    // A witness outside a precondition over values is no counterexample.
    let on_values: Vec<CExpr> = p.pre.iter().filter(|e| names_a_value(e)).cloned().collect();
    if !on_values.is_empty() {
        let mut vmap = cmap.clone();
        let mut defined = true;
        for (n, v) in &values {
            match v {
                Some(b) => {
                    vmap.insert(n.clone(), bv_of(b));
                }
                None => {
                    defined &= !on_values.iter().any(|e| {
                        let mut names = Vec::new();
                        cexpr_names(e, &mut names);
                        names.contains(n)
                    })
                }
            }
        }
        let holds = defined
            && precondition(&on_values, &vmap)
                .map_err(bad)?
                .simplify()
                .as_bool()
                == Some(true);
        if !holds {
            return Err(Diag::malformed(
                "Rule",
                OUTSIDE_PRE,
                "the witness does not meet the precondition over values",
            ));
        }
    }
    let record = |r: &Record| -> Result<(Outcome, ClassicExpr), Diag> {
        let mut e = r.expr.clone();
        for (&i, h) in &r.holes {
            let v = constant_value(h, &cmap, 64).map_err(bad)?.low_u64();
            e.ops[i] = match e.ops[i] {
                COp::Constu(_) => COp::Constu(v),
                COp::Consts(_) => COp::Consts(v as i64),
                _ => COp::PlusUconst(v),
            };
        }
        let mut args = Vec::new();
        let mut hmap = BTreeMap::new();
        for (k, o) in r.operands.iter().enumerate() {
            let Some(v) = values[o].clone() else {
                return Ok((Outcome::Poison, e));
            };
            if let Some(h) = high.get(o) {
                hmap.insert(k as u32, h.clone());
            }
            args.push(match p.inputs.iter().position(|(n, _)| n == o) {
                Some(j) => ctx.args[j].clone(),
                None => Input {
                    ty: value_type(p, o).cloned().unwrap_or(Type::Int(1)),
                    loc: LocDesc::implicit(v),
                },
            });
        }
        let mut side = ctx.clone();
        side.args = args;
        let ev = eval_classic_with(&e, &side, &p.params, &hmap);
        Ok((Outcome::Described(ev, Box::new(side)), e))
    };
    let (s, se) = record(&p.source)?;
    let (t, te) = record(&p.target)?;
    let show = |o: &Outcome| match o {
        Outcome::Poison => "a kill location (an operand is poison)".to_string(),
        Outcome::Described(Ok(ev), _) => format!("location {}", ev.loc),
        Outcome::Described(Err(d), _) => format!("error `{}: {}`", d.construct, d.reason),
    };
    if explain {
        text += &format!(
            ";; source: {}{se}\n;;   gives {}\n;; target: {}{te}\n;;   gives {}",
            operands_text(&p.source.operands),
            show(&s),
            operands_text(&p.target.operands),
            show(&t)
        );
    }
    let ((so, _), (to, tn)) = (p.source_bits, p.target_bits);
    let differ = match (&s, &t) {
        (Outcome::Poison, _) => false,
        (Outcome::Described(Ok(_), _), Outcome::Poison) => true,
        (Outcome::Described(Err(_), _), Outcome::Poison) => true,
        (Outcome::Described(Ok(a), sctx), Outcome::Described(Ok(b), _)) => {
            match a.loc.offset_by(&**sctx, &BigInt::from(to - so)) {
                Ok(moved) => !same_location(&moved, &b.loc, tn),
                Err(_) => true,
            }
        }
        (Outcome::Described(Err(_), _), Outcome::Described(Err(_), _)) => false,
        _ => true,
    };
    Ok(Replay { differ, text })
}

fn operands_text(ops: &[String]) -> String {
    match ops {
        [] => String::new(),
        [one] => format!("{one}, "),
        many => format!("!DIArgList({}), ", many.join(", ")),
    }
}

/// The context where input `k` holds `values[k]` (poison for `None`) in a
/// register of its own, as a counterexample's and a witness's inputs are.
fn register_context(p: &Prepared, values: &[Option<Bits>]) -> Result<ConcreteContext, Diag> {
    let mut ctx = ConcreteContext::default();
    ctx.layout = p.layout.clone();
    for (k, ((_, ty), v)) in p.inputs.iter().zip(values).enumerate() {
        let bits = p.bits(ty);
        let bytes: Vec<Option<u8>> = match v {
            Some(b) => (0..bits.div_ceil(8))
                .map(|j| Some(b.zext(bits.div_ceil(8) * 8).extract(8 * j, 8).low_u64() as u8))
                .collect(),
            None => vec![None; bits.div_ceil(8) as usize],
        };
        ctx.add_register(k as u32, bytes)?;
        ctx.args.push(Input {
            ty: ty.clone(),
            loc: LocDesc::single(Storage::Register { number: k as u32 }, 0),
        });
    }
    Ok(ctx)
}

/// Bit patterns that sit on the edges of integer arithmetic, as a
/// fraction of the width: 0, 1, 2, 3, 7, 8, 127, 128, 255, the sign bit
/// and its neighbours, all ones and its neighbour, alternating bits.
fn edge_value(bits: u64, k: u64) -> Bits {
    let ones = Bits::from_bigint(bits, &BigInt::from(-1));
    let sign = Bits::from_bigint(bits, &(BigInt::from(1) << (bits - 1)));
    let small = |v: u64| Bits::from_u64(bits, v);
    match k % 16 {
        0 => small(0),
        1 => small(1),
        2 => small(2),
        3 => small(3),
        4 => small(7),
        5 => small(8),
        6 => small(127),
        7 => small(128),
        8 => small(255),
        9 => sign.clone(),
        10 => Bits::from_bigint(bits, &(sign.unsigned_int() - 1)),
        11 => Bits::from_bigint(bits, &(sign.unsigned_int() + 1)),
        12 => ones,
        13 => Bits::from_bigint(bits, &BigInt::from(-2)),
        14 => Bits::from_bigint(bits, &BigInt::from(0x5555_5555_5555_5555u64)),
        _ => Bits::from_bigint(bits, &BigInt::from(-8)),
    }
}

/// A value of `bits` bits for sample `s` of input `j`: the edge patterns
/// in rotation for the first samples, then pseudo-random ones.
fn sample_value(bits: u64, s: u64, j: u64) -> Bits {
    if s < 48 {
        return edge_value(
            bits,
            s.wrapping_mul(7).wrapping_add(j.wrapping_mul(5)) + s / 16,
        );
    }
    let mut v = BigInt::from(0);
    for w in 0..bits.div_ceil(64) {
        v |= BigInt::from(crate::sample::splitmix64(s ^ (j << 32) ^ (w << 48))) << (64 * w);
    }
    Bits::from_bigint(bits, &v)
}

/// Looks for a difference without the solver: both records on `samples`
/// inputs (edge values, then pseudo-random ones; under `high any` the upper
/// bits zero, ones or pseudo-random). Gives the invalid verdict with its
/// witness, as [`check_instance`] would, when one differs. A rule with
/// symbolic constants, or a precondition that names no IR value (one over
/// widths, which decides whether the instance applies), is left to the
/// solver; an input outside a precondition over values is skipped, as the
/// replay refuses it.
pub(super) fn search_instance(
    rule: &Rule,
    inst: &Instance,
    samples: u64,
) -> Result<Option<InstanceVerdict>, Diag> {
    let p = match prepare(rule, inst)? {
        Prep::Ready(p) => p,
        Prep::NotApplicable(_) => return Ok(None),
        Prep::Invalid(why) => {
            return Ok(Some(InstanceVerdict::Invalid(format!(
                "{}: {why}",
                inst.describe()
            ))))
        }
    };
    if !p.consts.is_empty() || !p.pre.iter().all(names_a_value) {
        return Ok(None);
    }
    let narrow: Vec<(String, u64)> = p
        .inputs
        .iter()
        .cloned()
        .chain(p.lets.iter().map(|l| (l.name.clone(), l.ty.clone())))
        .map(|(n, t)| (n, p.bits(&t)))
        .filter(|(_, b)| *b < p.w)
        .collect();
    let consts = BTreeMap::new();
    for s in 0..samples {
        let values: Vec<Option<Bits>> = p
            .inputs
            .iter()
            .enumerate()
            .map(|(j, (_, ty))| Some(sample_value(p.bits(ty), s, j as u64)))
            .collect();
        let ctx = register_context(&p, &values)?;
        let mut high = BTreeMap::new();
        if p.params.high == High::Any {
            for (j, (name, bits)) in narrow.iter().enumerate() {
                let up = p.w - bits;
                let mut v = match (s + j as u64) % 3 {
                    0 => Bits::from_u64(up, 0),
                    1 => Bits::from_bigint(up, &BigInt::from(-1)),
                    _ => sample_value(up, 48 + s, 100 + j as u64),
                };
                let input = p.inputs.iter().position(|(n, _)| n == name);
                let upper = p.upper.iter().find(|(n, _)| n == name);
                if let (Some(k), Some((_, segs))) = (input, upper) {
                    if let Some(value) = &values[k] {
                        v = impose_upper(value, &v, segs, p.w);
                    }
                }
                high.insert(name.clone(), v);
            }
        }
        let replayed = match replay_with(&p, &consts, &ctx, &high, false) {
            Err(d) if d.reason == OUTSIDE_PRE => continue,
            r => r?,
        };
        if replayed.differ {
            let r = replay(&p, &consts, &ctx, &high)?;
            let witness = witness_line(inst, &p, &consts, &ctx, &high);
            return Ok(Some(InstanceVerdict::Invalid(format!(
                "{}\nwitness {witness}\n{}",
                inst.describe(),
                r.text
            ))));
        }
    }
    Ok(None)
}

/// Checks a `witness` clause: the instance it names, its constants, the
/// values of the inputs (each in a register of its own), the upper bits
/// under `high any` and memory; the interpreter must find the two
/// records different there. Gives the replay's text.
pub(super) fn check_witness(rule: &Rule, line: u32, text: &str) -> Result<String, Diag> {
    let err = |reason: &'static str, m: String| {
        Diag::ill(
            "Rule",
            reason,
            format!("{}: witness at line {line}: {m}", rule.name),
        )
    };
    let mut given: BTreeMap<String, String> = BTreeMap::new();
    for part in split_top_level(text) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| err("bad-witness", format!("`{part}`: NAME = VALUE")))?;
        given.insert(k.trim().to_string(), v.trim().to_string());
    }
    let inst = instances(rule)
        .into_iter()
        .find(|i| i.assignment.iter().all(|(k, v)| given.get(k) == Some(v)))
        .ok_or_else(|| {
            err(
                "bad-witness",
                "it names no instance of the rule (give every type variable, pointers and high)"
                    .into(),
            )
        })?;
    let p = match prepare(rule, &inst)? {
        Prep::Ready(p) => p,
        Prep::NotApplicable(why) | Prep::Invalid(why) => {
            return Err(err(
                "bad-witness",
                format!("its instance is not compared: {why}"),
            ))
        }
    };
    let number = |key: &str, bits: u64| -> Result<Option<Bits>, Diag> {
        let v = given
            .get(key)
            .ok_or_else(|| err("bad-witness", format!("no value for `{key}`")))?;
        if v == "poison" {
            return Ok(None);
        }
        let n = match v.strip_prefix("0x") {
            Some(h) => BigInt::parse_bytes(h.as_bytes(), 16),
            None => BigInt::parse_bytes(v.as_bytes(), 10),
        }
        .ok_or_else(|| err("bad-witness", format!("`{key} = {v}`: not a number")))?;
        Ok(Some(Bits::from_bigint(bits, &n)))
    };
    let mut consts = BTreeMap::new();
    for (n, w) in &p.consts {
        let v = number(n, *w as u64)?
            .ok_or_else(|| err("bad-witness", format!("constant `{n}` is poison")))?;
        consts.insert(n.clone(), v);
    }
    let values = p
        .inputs
        .iter()
        .map(|(name, ty)| number(name, p.bits(ty)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut ctx = register_context(&p, &values)?;
    let mut high = BTreeMap::new();
    let names: Vec<(String, Type)> = p
        .inputs
        .iter()
        .cloned()
        .chain(p.lets.iter().map(|l| (l.name.clone(), l.ty.clone())))
        .collect();
    for (name, ty) in &names {
        let bits = p.bits(ty);
        let key = format!("high({name})");
        if bits < p.w && given.contains_key(&key) {
            if let Some(b) = number(&key, p.w - bits)? {
                high.insert(name.clone(), b);
            }
        }
    }
    for (k, v) in &given {
        if let Some(addr) = k.strip_prefix("mem(").and_then(|a| a.strip_suffix(')')) {
            let start = u64::from_str_radix(addr.trim_start_matches("0x"), 16)
                .map_err(|_| err("bad-witness", format!("`{k}`: mem(0xADDRESS)")))?;
            let bytes = v
                .split_whitespace()
                .map(|b| {
                    if b == "??" {
                        Ok(None)
                    } else {
                        u8::from_str_radix(b, 16).map(Some)
                    }
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| err("bad-witness", format!("`{k}`: hex bytes or ??")))?;
            ctx.add_memory(0, start, bytes)?;
        }
    }
    let r = replay(&p, &consts, &ctx, &high)?;
    if !r.differ {
        return Err(err(
            "witness-agrees",
            format!("the interpreter finds the records agree there:\n{}", r.text),
        ));
    }
    Ok(r.text)
}
