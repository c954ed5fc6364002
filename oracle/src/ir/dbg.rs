//! What each debug record of a module says, checked: its expression
//! well-formed over its operands' types (read from the IR) and for its
//! variable's type (read from the `DILocalVariable`, through typedefs,
//! qualifiers and composite types); its fragment inside the variable.
//!
//! Classic `!DIExpression(DW_OP_...)` is checked by the classic rules
//! (`classic::wellformed`), AMD's `!DIExpression(DIOp...)` by the DIOp
//! rules (`wellformed`). `llvm.dbg.def`/`llvm.dbg.kill` are checked by the
//! lifetime rules over the whole module (see `dioptra ir`).
//!
//! DECISION (D-ir-diop-records): in a `dbg_value`/`dbg_declare`/`dbg_assign`
//! written with DIOps, the record's operands are the expression's
//! arguments (`DIOpArg(0, T)` is the first; a `DIArgList` gives more) and
//! there is no referrer (`DIOpReferrer` is `DIOpReferrer: not-bounded`, as
//! in a computed segment): the spec gives DIOps meaning only in
//! `DILifetime`s, and the ROCm fork writes records this way.
//!
//! DECISION (D-ir-killed-records): a record whose only operand is `undef`
//! or `poison` (or an empty `!{}`) says the variable has no location from
//! there on; its expression is still checked (LLVM keeps it, and a
//! salvage may bring the operand back), and the verdict says `killed`.

use super::{InstKind, Md, Module, Operand, Record, RecordKind};
use dioptra_semantics::classic::wellformed::check_classic;
use dioptra_semantics::classic::{parse_classic, Intrinsic, Params};
use dioptra_semantics::context::Signature;
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::text::{parse_expr, parse_type};
use dioptra_semantics::types::{DataLayout, Type};
use std::collections::BTreeMap;

/// How deep a type chain (typedef of const of typedef ...) is followed.
pub const MAX_TYPE_DEPTH: usize = 64;

/// The verdict on one record.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub function: String,
    /// The record's line and column in the file.
    pub line: u32,
    pub col: u32,
    pub kind: RecordKind,
    /// The variable's (or label's) name, as the metadata gives it.
    pub variable: Option<String>,
    /// The variable's size in bits, when its type says.
    pub variable_bits: Option<u64>,
    /// The line the variable is declared on (its `line:`).
    pub source_line: Option<u64>,
    /// The expression as written.
    pub expr: Option<String>,
    /// Is the location gone (`undef`, `poison`, `!{}`)?
    pub killed: bool,
    /// `None`: well-formed.
    pub diag: Option<Diag>,
}

impl Verdict {
    /// `well-formed`, or the outcome word of the diagnostic.
    pub fn word(&self) -> &'static str {
        match &self.diag {
            None => "well-formed",
            Some(d) => d.outcome.word(),
        }
    }
}

/// The size in bits of the debug-info type `ty` (a `DIBasicType`,
/// `DIDerivedType`, `DICompositeType` or a reference to one): its `size`,
/// or the size of the type a typedef or qualifier names. `Ok(None)`: the
/// type says no size (a declaration, a subroutine type, `void`).
pub fn type_bits(m: &Module, ty: &Md, pointer_bits: u64) -> Result<Option<u64>, Diag> {
    let mut cur = ty.clone();
    for _ in 0..MAX_TYPE_DEPTH {
        if let Md::Word(w) = &cur {
            if w == "null" {
                return Ok(None);
            }
        }
        let Some(n) = m.resolve(&cur) else {
            return Err(Diag::ill(
                "DIType",
                "unknown-type",
                format!("`{cur:?}` is not a type node the module defines"),
            ));
        };
        if let Some(s) = n.int("size") {
            return Ok(Some(s));
        }
        let tag = match n.field("tag") {
            Some(Md::Word(t)) => t.as_str(),
            _ => "",
        };
        match (n.kind.as_str(), tag) {
            (
                "DIDerivedType",
                "DW_TAG_pointer_type" | "DW_TAG_reference_type" | "DW_TAG_rvalue_reference_type",
            ) => return Ok(Some(pointer_bits)),
            ("DIDerivedType", _) => match n.field("baseType") {
                Some(b) => cur = b.clone(),
                None => return Ok(None),
            },
            // Any other type node without a size (a declaration, a
            // subroutine type, kinds newer LLVMs add such as
            // DISubrangeType): its size is unknown.
            (k, _) if k.starts_with("DI") && k.ends_with("Type") => return Ok(None),
            (k, _) => {
                return Err(Diag::ill(
                    "DIType",
                    "not-a-type",
                    format!("a `{k}` node is not a type"),
                ))
            }
        }
    }
    Err(Diag::ill(
        "DIType",
        "too-deep",
        format!("a type chain longer than {MAX_TYPE_DEPTH} (a cycle?)"),
    ))
}

/// The operands' types, as dioptra's types.
fn operand_types(ops: &[Operand]) -> Result<Vec<Type>, Diag> {
    ops.iter()
        .map(|o| {
            parse_type(&o.opaque_type()).map_err(|d| {
                Diag::unsupported(
                    "Operand",
                    "operand-type",
                    format!("`{} {}`: {}", o.ty, o.value, d),
                )
            })
        })
        .collect()
}

/// Checks one record; `Ok(())` is well-formed.
fn check_record(
    m: &Module,
    r: &Record,
    layout: &DataLayout,
    var_bits: Option<u64>,
) -> Result<(), Diag> {
    if matches!(r.kind, RecordKind::Label) {
        return match r.variable.as_ref().and_then(|v| m.resolve(v)) {
            Some(n) if n.kind == "DILabel" => Ok(()),
            _ => Err(Diag::ill(
                "dbg_label",
                "not-a-label",
                "the operand is not a DILabel",
            )),
        };
    }
    let expr = r
        .expr
        .as_ref()
        .and_then(|e| m.resolve(e))
        .filter(|n| n.kind == "DIExpression")
        .ok_or_else(|| {
            Diag::malformed(
                r.kind.name(),
                "not-an-expression",
                "the expression operand is not a DIExpression",
            )
        })?;
    let is_diop = expr
        .fields
        .iter()
        .any(|(_, v)| matches!(v, Md::Word(w) if w.starts_with("DIOp")));
    let args = operand_types(&r.operands)?;
    let sig = Signature {
        layout: layout.clone(),
        args,
        ..Signature::default()
    };
    let fragment = if is_diop {
        let e = parse_expr(&expr.text)?;
        let c = dioptra_semantics::wellformed::check(&e, &sig)?;
        c.fragment
    } else {
        let e = parse_classic(&expr.text)?;
        let params = Params {
            intrinsic: match r.kind {
                RecordKind::Declare => Intrinsic::Declare,
                _ => Intrinsic::Value,
            },
            variable: var_bits.filter(|&b| b > 0).map(Type::Int),
            ..Params::default()
        };
        // With no operand (`!{}`, a global's constant) nothing is pushed
        // first: the operations stand alone.
        check_classic(&e, &sig, &params)?.fragment
    };
    // LLVM's verifier (verifyFragmentExpression): a fragment is smaller
    // than the variable (that it lies inside it the classic rules check,
    // given the variable's type).
    if let (Some((off, size)), Some(vb)) = (fragment, var_bits) {
        if off == 0 && size == vb {
            return Err(Diag::ill(
                "DW_OP_LLVM_fragment",
                "fragment-is-whole-variable",
                format!("the fragment covers all {vb} bits of the variable"),
            ));
        }
    }
    if let (Some(ae), Some(_)) = (&r.address_expr, &r.address) {
        let n = m
            .resolve(ae)
            .filter(|n| n.kind == "DIExpression")
            .ok_or_else(|| {
                Diag::malformed(
                    "dbg_assign",
                    "not-an-expression",
                    "the address expression is not a DIExpression",
                )
            })?;
        parse_classic(&n.text)?;
    }
    Ok(())
}

/// The verdict on every `dbg_value`, `dbg_declare`, `dbg_assign` and
/// `dbg_label` of the module, and on every `DIGlobalVariableExpression`
/// (see [`global_expressions`]), in file order. `def`/`kill` are left to
/// the lifetime rules.
pub fn check_records(m: &Module) -> Result<Vec<Verdict>, Diag> {
    let layout = m.layout()?;
    let ptr = layout.pointer_bits(0) as u64;
    let mut out = Vec::new();
    for (f, inst, r) in m.records() {
        if matches!(r.kind, RecordKind::Def | RecordKind::Kill) {
            continue;
        }
        let var = r.variable.as_ref().and_then(|v| m.resolve(v));
        let mut v = Verdict {
            function: f.name.clone(),
            line: inst.line,
            col: inst.col,
            kind: r.kind,
            variable: var.and_then(|n| n.string("name")).map(str::to_string),
            variable_bits: None,
            source_line: var.and_then(|n| n.int("line")),
            expr: r
                .expr
                .as_ref()
                .and_then(|e| m.resolve(e))
                .map(|n| n.text.clone()),
            killed: r.kind != RecordKind::Label && r.operands.iter().all(Operand::is_undef),
            diag: None,
        };
        let bits = match var {
            _ if r.kind == RecordKind::Label => Ok(None),
            Some(n) if n.kind == "DILocalVariable" || n.kind == "DIGlobalVariable" => {
                match n.field("type") {
                    Some(t) => type_bits(m, t, ptr),
                    None => Ok(None),
                }
            }
            _ => Err(Diag::ill(
                r.kind.name(),
                "not-a-variable",
                "the variable operand is not a DILocalVariable",
            )),
        };
        let checked = bits.and_then(|b| {
            v.variable_bits = b;
            check_record(m, r, &layout, b)
        });
        v.diag = checked.err();
        out.push(v);
    }
    out.extend(global_expressions(m, &layout)?);
    out.sort_by_key(|v| v.line);
    Ok(out)
}

/// The verdict on each `DIGlobalVariableExpression`.
///
/// DECISION (D-ir-global-expressions): attached to a global (its `!dbg`),
/// the expression applies to the global's address, checked as a
/// `dbg_value` of one operand `ptr @g` (so GlobalOpt's `DW_OP_deref_size,
/// ..., DW_OP_stack_value` is allowed); listed by a compile unit with no
/// global (a constant such as `DW_OP_constu 5, DW_OP_stack_value`, or an
/// empty expression for a global optimized out), it has no operand and its
/// operations stand alone.
fn global_expressions(m: &Module, layout: &DataLayout) -> Result<Vec<Verdict>, Diag> {
    let ptr = layout.pointer_bits(0) as u64;
    let mut attached = std::collections::BTreeSet::new();
    let mut todo: Vec<(u32, String, Option<Operand>, String)> = Vec::new();
    for g in &m.globals {
        for (k, n) in &g.attachments {
            if k == "dbg" {
                attached.insert(n.clone());
                let op = Operand {
                    ty: "ptr".into(),
                    value: format!("@{}", g.name),
                };
                todo.push((g.line, format!("@{}", g.name), Some(op), n.clone()));
            }
        }
    }
    for n in m.metadata.values().filter(|n| n.kind == "DICompileUnit") {
        let Some(list) = n.field("globals") else {
            continue;
        };
        let elems: Vec<&Md> = match list {
            Md::Tuple(t) => t.iter().collect(),
            r => match m.resolve(r) {
                Some(t) => t.fields.iter().map(|(_, v)| v).collect(),
                None => Vec::new(),
            },
        };
        for e in elems {
            if let Md::Ref(r) = e {
                if !attached.contains(r) {
                    let line = m.node(r).map_or(n.line, |x| x.line);
                    attached.insert(r.clone());
                    todo.push((line, String::new(), None, r.clone()));
                }
            }
        }
    }
    let mut out = Vec::new();
    for (line, global, op, gve) in todo {
        let node = m.node(&gve);
        let var = node.and_then(|n| n.field("var")).and_then(|v| m.resolve(v));
        let rec = Record {
            kind: RecordKind::GlobalExpression,
            form: super::Form::Intrinsic,
            operands: op.into_iter().collect(),
            arglist: false,
            variable: node.and_then(|n| n.field("var")).cloned(),
            expr: node.and_then(|n| n.field("expr")).cloned(),
            address: None,
            address_expr: None,
            loc: None,
        };
        let expr = rec.expr.as_ref().and_then(|e| m.resolve(e));
        let mut v = Verdict {
            function: global,
            line,
            col: 1,
            kind: RecordKind::GlobalExpression,
            variable: var.and_then(|n| n.string("name")).map(str::to_string),
            variable_bits: None,
            source_line: var.and_then(|n| n.int("line")),
            expr: expr.map(|n| n.text.clone()),
            killed: rec.operands.is_empty() && expr.is_none_or(|e| e.fields.is_empty()),
            diag: None,
        };
        let checked = match node {
            Some(n) if n.kind == "DIGlobalVariableExpression" => match var {
                Some(vn) if vn.kind == "DIGlobalVariable" => match vn.field("type") {
                    Some(t) => type_bits(m, t, ptr),
                    None => Ok(None),
                }
                .and_then(|b| {
                    v.variable_bits = b;
                    check_record(m, &rec, layout, b)
                }),
                _ => Err(Diag::ill(
                    "DIGlobalVariableExpression",
                    "not-a-variable",
                    "its var is not a DIGlobalVariable",
                )),
            },
            _ => Err(Diag::ill(
                "DIGlobalVariableExpression",
                "not-an-expression",
                format!("`{gve}` is not a DIGlobalVariableExpression"),
            )),
        };
        v.diag = checked.err();
        out.push(v);
    }
    Ok(out)
}

/// Verdicts counted by outcome and reason (`well-formed`,
/// `ill-formed DW_OP_LLVM_fragment: out-of-range`, ...).
pub fn summary(vs: &[Verdict]) -> BTreeMap<String, usize> {
    let mut s = BTreeMap::new();
    for v in vs {
        let key = match &v.diag {
            None => "well-formed".to_string(),
            Some(d) => format!("{} {}: {}", d.outcome.word(), d.construct, d.reason),
        };
        *s.entry(key).or_default() += 1;
    }
    s
}

/// Is any verdict a refusal of the given outcome?
pub fn any(vs: &[Verdict], o: Outcome) -> bool {
    vs.iter()
        .any(|v| v.diag.as_ref().is_some_and(|d| d.outcome == o))
}

/// Records of each kind in the module (def and kill included).
pub fn record_counts(m: &Module) -> BTreeMap<&'static str, usize> {
    let mut c = BTreeMap::new();
    for f in &m.functions {
        for b in &f.blocks {
            for i in &b.insts {
                if let InstKind::Record(r) = &i.kind {
                    *c.entry(r.kind.name()).or_default() += 1;
                }
            }
        }
    }
    c
}
