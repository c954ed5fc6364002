//! A module written as a lifetime listing, line for line: what
//! `dioptra lifetimes` and `dioptra multiloc` read.
//!
//! Each entity the listing grammar knows is written on the line where it
//! begins in the module (so every diagnostic and every program point names
//! the module's own line): metadata definitions, globals with their
//! `!dbg.def`, `define` headers, labels, terminators (joined to one line)
//! and instructions; everything else is a blank line. Debug records
//! become the intrinsic calls the multi-location translation reads:
//!
//! * `#dbg_value(V, !var, !expr, !loc)` is `llvm.dbg.value(V, !var, !expr)`;
//! * DECISION (D-ir-declare-as-value): `dbg_declare(ptr %a, !var, !expr)`
//!   is a key call at its own position of `%a` with `DW_OP_deref` appended
//!   (before a fragment): the variable is in memory at `%a`, as LLVM's own
//!   `LowerDbgDeclare` rewrites it. A declare holds from its position on
//!   (LLVM puts it in the entry block, after the `alloca`), and a later
//!   `dbg_value` of the variable supersedes it;
//! * DECISION (D-ir-assign-as-value): `dbg_assign(V, !var, !expr, !id,
//!   ptr %a, !aexpr)` is a key call of `V` (the value the assignment gives
//!   the variable); when `V` is `undef`/`poison` (the value is known only
//!   through the linked store), of `%a` with `!aexpr`'s operations and
//!   `DW_OP_deref`, the memory the store wrote;
//! * DECISION (D-ir-arglist-lifetimes): a location of several values (a
//!   `DIArgList` of two or more) has no lifetime form, a `DILifetime`
//!   having one referrer; it is written as no location (`poison`) and
//!   counted in [`Notes::several_values`], which the commands print. So is
//!   a constant-expression operand (`ptrtoint (ptr @g to i64)`), which the
//!   listing has no referrer for ([`Notes::constant_expressions`]).
//! * DECISION (D-ir-labels): a `DILabel` that a compiler's module labels
//!   at no block (optimized out) or at several (duplicated by unrolling or
//!   tail duplication) has no single block address: it is written as no
//!   code location (its node is not a `DICode` to the lifetime rules and its
//!   `dbg_label` records are left out), counted in
//!   [`Notes::unplaced_labels`]. Upstream LLVM allows both; the
//!   extensions' "exactly one call" rule is theirs.
//! * DECISION (D-ir-refused-records): a record `dioptra ir` refuses (its
//!   expression ill-formed or beyond what dioptra models) describes no
//!   location: it is written as `poison` with its fragment kept (a record
//!   whose expression is malformed makes the module unreadable)
//!   ([`Notes::refused`]). A variable whose pieces overlap, or that is
//!   described both whole and in pieces, has no composition of its pieces
//!   in the translation: its records are left out, so it has no location
//!   anywhere ([`Notes::left_out`]). Both are counted, never silent: the
//!   rest of the module is still read.

use super::{Form, InstKind, Md, Module, Operand, Record, RecordKind};
use dioptra_semantics::classic::{parse_classic, COp};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::text::parse_type;
use dioptra_semantics::types::DataLayout;

/// What the writing changed, for the commands to say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Records of several values written as no location.
    pub several_values: usize,
    /// Records of a constant expression written as no location.
    pub constant_expressions: usize,
    /// `dbg_declare` records written as key calls.
    pub declares: usize,
    /// `dbg_assign` records written from their address.
    pub assigns_from_memory: usize,
    /// Records `dioptra ir` refuses (ill-formed or unsupported), written
    /// as no location (D-ir-refused-records).
    pub refused: usize,
    /// Variables whose pieces the translation cannot compose (overlapping,
    /// or whole and in pieces): their records left out, so they have no
    /// location (D-ir-refused-records), with the reason.
    pub left_out: Vec<(String, String)>,
    /// Labels a compiler's module places at no block or at several
    /// (D-ir-labels), with their number of `dbg_label` records.
    pub unplaced_labels: Vec<(String, usize)>,
}

impl Notes {
    /// What the writing changed, as lines for stderr (empty when nothing).
    pub fn remarks(&self) -> Vec<String> {
        let n = self;
        let mut out = Vec::new();
        if n.declares > 0 {
            out.push(format!("{} dbg_declare records read as memory locations from their position (D-ir-declare-as-value)", n.declares));
        }
        if n.assigns_from_memory > 0 {
            out.push(format!(
                "{} dbg_assign records read from their store's address (D-ir-assign-as-value)",
                n.assigns_from_memory
            ));
        }
        if n.several_values > 0 {
            out.push(format!("{} records of several values have no lifetime form: read as no location (D-ir-arglist-lifetimes)", n.several_values));
        }
        if !n.unplaced_labels.is_empty() {
            let shown: Vec<String> = n
                .unplaced_labels
                .iter()
                .map(|(l, c)| format!("{l} ({c} dbg_label)"))
                .collect();
            out.push(format!(
                "{} labels placed at no block or at several read as no code location (D-ir-labels): {}",
                n.unplaced_labels.len(),
                shown.join(", ")
            ));
        }
        if n.refused > 0 {
            out.push(format!("{} records dioptra ir refuses read as no location (D-ir-refused-records; `dioptra ir` says why)", n.refused));
        }
        for (v, why) in &n.left_out {
            out.push(format!("{v} has no location: {why}, which the translation cannot compose (D-ir-refused-records)"));
        }
        if n.constant_expressions > 0 {
            out.push(format!(
                "{} records of a constant expression read as no location (D-ir-arglist-lifetimes)",
                n.constant_expressions
            ));
        }
        out
    }
}

/// Which listing the module makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `llvm.dbg.def` / `llvm.dbg.kill`: lifetimes as written.
    Lifetimes,
    /// `dbg_value` / `dbg_declare` / `dbg_assign`: the multi-location
    /// proposal's key calls, to be translated.
    Values,
    /// No debug record at all.
    None,
}

/// The listing and what writing it changed.
#[derive(Clone, Debug)]
pub struct Listing {
    pub text: String,
    pub dialect: Dialect,
    pub notes: Notes,
}

fn quoted_name(sigil: char, n: &str) -> String {
    if !n.is_empty()
        && n.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_'))
    {
        format!("{sigil}{n}")
    } else {
        format!("{sigil}\"{n}\"")
    }
}

fn md_text(m: &Md) -> Result<String, Diag> {
    match m {
        Md::Ref(r) => Ok(r.clone()),
        Md::Node(n) => Ok(n.text.clone()),
        other => Err(Diag::unsupported(
            "Module",
            "bad-record",
            format!("a record operand `{other:?}` is neither a node nor a reference"),
        )),
    }
}

/// Is `v` one token the listing reads as a referrer (a name or a literal)?
fn simple_value(v: &str) -> bool {
    !v.contains(' ')
}

/// The expression's text with `DW_OP_deref` appended before its
/// fragment, and `prefix`'s operations before it all.
fn with_deref(m: &Module, expr: &Md, prefix: Option<&Md>, line: u32) -> Result<String, Diag> {
    let text = |e: &Md| -> Result<String, Diag> {
        Ok(m.resolve(e).map(|n| n.text.clone()).unwrap_or(md_text(e)?))
    };
    let e = parse_classic(&text(expr)?).map_err(|d| d.at_place(format!("line {line}")))?;
    let mut ops = match prefix {
        Some(p) => {
            parse_classic(&text(p)?)
                .map_err(|d| d.at_place(format!("line {line}")))?
                .ops
        }
        None => Vec::new(),
    };
    let frag = e.ops.iter().position(|o| matches!(o, COp::Fragment(..)));
    let mut body = e.ops.clone();
    let tail: Vec<COp> = match frag {
        Some(k) => body.split_off(k),
        None => Vec::new(),
    };
    ops.extend(body);
    ops.push(COp::Deref);
    ops.extend(tail);
    Ok(dioptra_semantics::classic::ClassicExpr::new(ops).to_string())
}

/// The piece of the variable a record's expression describes (`None`:
/// all of it); `Err` when the expression does not parse.
fn piece(m: &Module, r: &Record) -> Option<Option<(u64, u64)>> {
    let e = r.expr.as_ref().and_then(|e| m.resolve(e))?;
    let e = parse_classic(&e.text).ok()?;
    Some(e.ops.iter().find_map(|o| match o {
        COp::Fragment(off, size) => Some((*off, *size)),
        _ => None,
    }))
}

/// The variables whose pieces overlap or are described whole and in
/// pieces, with the reason.
fn uncomposable(m: &Module) -> std::collections::BTreeMap<String, String> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut pieces: BTreeMap<String, BTreeSet<Option<(u64, u64)>>> = BTreeMap::new();
    for (_, _, r) in m.records() {
        if !matches!(
            r.kind,
            RecordKind::Value | RecordKind::Declare | RecordKind::Assign
        ) {
            continue;
        }
        if let (Some(Md::Ref(v)), Some(p)) = (&r.variable, piece(m, r)) {
            pieces.entry(v.clone()).or_default().insert(p);
        }
    }
    let mut out = BTreeMap::new();
    for (v, ps) in pieces {
        let some: Vec<(u64, u64)> = ps.iter().filter_map(|p| *p).collect();
        if ps.contains(&None) && !some.is_empty() {
            out.insert(v, "described both whole and in pieces".to_string());
            continue;
        }
        let mut end = 0;
        for &(o, s) in &some {
            if o < end {
                out.insert(v.clone(), format!("its pieces overlap at bit {o}"));
                break;
            }
            end = end.max(o + s);
        }
    }
    out
}

/// A piece whose value is gone (`poison`, `undef`): the call that says
/// so with the piece's own width, `iN poison` and the fragment alone
/// (D-multiloc-piece-value).
/// rustc ends a piece with `ptr poison` whatever its width (`#dbg_value(ptr
/// poison, !v, !DIExpression(DW_OP_LLVM_fragment, 0, 32))`); the
/// translation makes a piece's segments of the piece's bits, so a 64-bit
/// `ptr` there would not be one of them, and with no value the
/// expression's other operations locate nothing.
fn gone_piece(layout: &DataLayout, loc: &str, expr: &str) -> Option<(String, String)> {
    let (ty, value) = loc.rsplit_once(' ')?;
    if !matches!(value, "poison" | "undef") {
        return None;
    }
    let e = parse_classic(expr).ok()?;
    let (o, sz) = e.ops.iter().find_map(|op| match op {
        COp::Fragment(o, sz) => Some((*o, *sz)),
        _ => None,
    })?;
    // As written where the widths agree and nothing else is done to it.
    let agrees = parse_type(ty).is_ok_and(|t| layout.bitsizeof(&t) == sz);
    if agrees && e.ops.len() == 1 {
        return None;
    }
    Some((
        format!("i{sz} poison"),
        format!("!DIExpression(DW_OP_LLVM_fragment, {o}, {sz})"),
    ))
}

/// The call a record becomes.
fn record_call(
    m: &Module,
    layout: &DataLayout,
    r: &Record,
    line: u32,
    notes: &mut Notes,
) -> Result<String, Diag> {
    let var = r
        .variable
        .as_ref()
        .map(md_text)
        .transpose()?
        .unwrap_or_default();
    let operand = |o: Option<&Operand>, notes: &mut Notes| -> String {
        match o {
            Some(o) if simple_value(&o.value) => format!("{} {}", o.opaque_type(), o.value),
            Some(o) => {
                notes.constant_expressions += 1;
                format!("{} poison", o.opaque_type())
            }
            None => "i64 poison".into(),
        }
    };
    let value_call = |loc: String, expr: String| {
        let (loc, expr) = gone_piece(layout, &loc, &expr).unwrap_or((loc, expr));
        format!("  call void @llvm.dbg.value(metadata {loc}, metadata {var}, metadata {expr})")
    };
    let expr_text = |e: &Option<Md>| -> Result<String, Diag> {
        match e {
            Some(e) => Ok(m.resolve(e).map(|n| n.text.clone()).unwrap_or(md_text(e)?)),
            None => Ok("!DIExpression()".into()),
        }
    };
    Ok(match r.kind {
        RecordKind::Value | RecordKind::Declare | RecordKind::Assign => {
            if r.operands.len() > 1 {
                notes.several_values += 1;
                let ty = r.operands[0].opaque_type();
                // The expression's DW_OP_LLVM_arg operations name operands
                // that are no longer there: keep only its fragment.
                let frag = parse_classic(&expr_text(&r.expr)?)
                    .ok()
                    .and_then(|e| e.ops.into_iter().find(|o| matches!(o, COp::Fragment(..))));
                let e = dioptra_semantics::classic::ClassicExpr::new(frag.into_iter().collect());
                return Ok(value_call(format!("{ty} poison"), e.to_string()));
            }
            match r.kind {
                RecordKind::Declare => {
                    notes.declares += 1;
                    let e = with_deref(
                        m,
                        r.expr.as_ref().unwrap_or(&Md::Word(String::new())),
                        None,
                        line,
                    )?;
                    value_call(operand(r.operands.first(), notes), e)
                }
                RecordKind::Assign
                    if r.operands.iter().all(Operand::is_undef)
                        && r.address.as_ref().is_some_and(|a| !a.is_undef()) =>
                {
                    notes.assigns_from_memory += 1;
                    let e = with_deref(
                        m,
                        r.expr.as_ref().unwrap_or(&Md::Word(String::new())),
                        r.address_expr.as_ref(),
                        line,
                    )?;
                    value_call(operand(r.address.as_ref(), notes), e)
                }
                _ => value_call(operand(r.operands.first(), notes), expr_text(&r.expr)?),
            }
        }
        RecordKind::Label => format!("  call void @llvm.dbg.label(metadata {var})"),
        RecordKind::Def => format!(
            "  call void @llvm.dbg.def(metadata {var}, metadata {})",
            match r.operands.first() {
                Some(o) if simple_value(&o.value) => format!("{} {}", o.opaque_type(), o.value),
                Some(o) => format!("{} poison", o.opaque_type()),
                None => "i64 poison".into(),
            }
        ),
        RecordKind::Kill => format!("  call void @llvm.dbg.kill(metadata {var})"),
        RecordKind::GlobalExpression => {
            return Err(Diag::unsupported(
                "Module",
                "bad-record",
                format!("line {line}: a global's expression is not an instruction"),
            ))
        }
    })
}

/// Writes the module as a listing, line for line.
pub fn to_listing(m: &Module) -> Result<Listing, Diag> {
    // The widths of gone pieces' values (`gone_piece`); a module whose
    // types do not read is refused where they are needed.
    let layout = m.layout().unwrap_or_default();
    let mut lines: Vec<Option<String>> = vec![None; m.lines as usize + 1];
    let mut put = |line: u32, text: String| -> Result<(), Diag> {
        let slot = &mut lines[(line as usize).saturating_sub(1).min(m.lines as usize)];
        if slot.is_some() {
            return Err(Diag::unsupported(
                "Module",
                "several-per-line",
                format!("line {line}: two entities on one line (compilers write one per line; the listing needs that)"),
            ));
        }
        *slot = Some(text);
        Ok(())
    };
    let mut notes = Notes::default();
    let (mut defs, mut values) = (false, false);
    // A record that cannot be read (its expression malformed) makes the
    // module unreadable as lifetimes; one the rules refuse is read as no
    // location (D-ir-refused-records).
    let mut refused = std::collections::BTreeSet::new();
    for v in super::dbg::check_records(m)? {
        match v.diag {
            Some(d) if d.outcome == dioptra_semantics::diag::Outcome::Malformed => {
                return Err(d.at_place(format!("line {}", v.line)));
            }
            Some(_) => {
                refused.insert(v.line);
            }
            None => {}
        }
    }
    let left_out = uncomposable(m);
    notes.left_out = left_out
        .iter()
        .map(|(v, r)| (v.clone(), r.clone()))
        .collect();
    let mut label_calls: std::collections::BTreeMap<String, usize> = m
        .metadata
        .iter()
        .filter(|(_, n)| n.kind == "DILabel")
        .map(|(id, _)| (id.clone(), 0))
        .collect();
    for (_, _, r) in m.records() {
        if let (RecordKind::Label, Some(Md::Ref(l))) = (r.kind, &r.variable) {
            if let Some(c) = label_calls.get_mut(l) {
                *c += 1;
            }
        }
    }
    let unplaced: std::collections::BTreeSet<String> = label_calls
        .iter()
        .filter(|(_, &c)| c != 1)
        .map(|(l, _)| l.clone())
        .collect();
    notes.unplaced_labels = label_calls.into_iter().filter(|(_, c)| *c != 1).collect();
    if let Some(dl) = &m.datalayout {
        put(m.datalayout_line, format!("target datalayout = \"{dl}\""))?;
    }
    for (line, text) in &m.types {
        put(*line, text.clone())?;
    }
    for (line, text) in &m.metadata_text {
        let id = text.split(' ').next().unwrap_or("");
        if unplaced.contains(id) {
            put(*line, text.replacen("!DILabel(", "!DILabel.unplaced(", 1))?;
        } else {
            put(*line, text.clone())?;
        }
    }
    for g in &m.globals {
        let mut t = format!("{} = global", quoted_name('@', &g.name));
        if let Some((_, n)) = g.attachments.iter().find(|(k, _)| k == "dbg.def") {
            t += &format!(" !dbg.def {n}");
        }
        put(g.line, t)?;
    }
    for f in &m.functions {
        put(f.line, f.header.clone())?;
        for (k, b) in f.blocks.iter().enumerate() {
            if let Some(l) = &b.label {
                let named = quoted_name('%', l);
                put(b.line, format!("{}:", &named[1..]))?;
            } else if k > 0 {
                return Err(Diag::malformed(
                    "Module",
                    "unlabelled-block",
                    format!("line {}: a block after the first has no label", b.line),
                ));
            }
            for i in &b.insts {
                let text = match &i.kind {
                    InstKind::Record(r) => {
                        match r.kind {
                            RecordKind::Def | RecordKind::Kill => defs = true,
                            RecordKind::Label => {}
                            _ => values = true,
                        }
                        let var = r.variable.as_ref().and_then(Md::as_ref);
                        if r.form == Form::Intrinsic
                            && matches!(r.kind, RecordKind::Def | RecordKind::Kill)
                        {
                            format!("  {}", i.text)
                        } else if var.is_some_and(|v| left_out.contains_key(v))
                            || (r.kind == RecordKind::Label
                                && var.is_some_and(|v| unplaced.contains(v)))
                        {
                            String::new()
                        } else if refused.contains(&i.line) && r.kind != RecordKind::Label {
                            notes.refused += 1;
                            let frag = piece(m, r)
                                .flatten()
                                .map(|(o, s)| vec![COp::Fragment(o, s)])
                                .unwrap_or_default();
                            let ty = r
                                .operands
                                .first()
                                .map_or("i64".into(), Operand::opaque_type);
                            let (loc, expr) = (
                                format!("{ty} poison"),
                                dioptra_semantics::classic::ClassicExpr::new(frag).to_string(),
                            );
                            let (loc, expr) =
                                gone_piece(&layout, &loc, &expr).unwrap_or((loc, expr));
                            format!(
                                "  call void @llvm.dbg.value(metadata {loc}, metadata {}, metadata {expr})",
                                var.unwrap_or_default(),
                            )
                        } else {
                            record_call(m, &layout, r, i.line, &mut notes)?
                        }
                    }
                    _ => format!("  {}", i.text),
                };
                put(i.line, text)?;
            }
        }
        put(f.end_line, "}".into())?;
    }
    if defs && values {
        return Err(Diag::unsupported(
            "Module",
            "mixed-forms",
            "the module has both llvm.dbg.def/kill and dbg_value/declare/assign records: dioptra reads one form per module",
        ));
    }
    let mut text = String::new();
    for l in lines.iter().take(m.lines as usize) {
        if let Some(t) = l {
            text += t;
        }
        text.push('\n');
    }
    Ok(Listing {
        text,
        dialect: if defs {
            Dialect::Lifetimes
        } else if values {
            Dialect::Values
        } else {
            Dialect::None
        },
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_become_calls_on_their_own_lines() {
        let src = "define void @f(ptr %p, i32 %a) !dbg !1 {\n  #dbg_declare(ptr %p, !2, !DIExpression(DW_OP_plus_uconst, 4, DW_OP_LLVM_fragment, 0, 32), !3)\n  #dbg_value(!DIArgList(i32 %a, i32 %a), !4, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !3)\n  switch i32 %a, label %x [\n    i32 1, label %x\n  ]\n\"x\":\n  ret void\n}\n!2 = !DILocalVariable(name: \"v\")\n!4 = !DILocalVariable(name: \"w\")\n";
        let m = crate::ir::parse(src).unwrap();
        let l = to_listing(&m).unwrap();
        let lines: Vec<&str> = l.text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(
            lines[1],
            "  call void @llvm.dbg.value(metadata ptr %p, metadata !2, metadata !DIExpression(DW_OP_plus_uconst, 4, DW_OP_deref, DW_OP_LLVM_fragment, 0, 32))"
        );
        assert!(lines[2].contains("metadata i32 poison"), "{}", lines[2]);
        assert_eq!(lines[3], "  switch i32 %a, label %x [ i32 1, label %x ]");
        assert_eq!(lines[4], "");
        assert_eq!(lines[6], "x:");
        assert_eq!(l.dialect, Dialect::Values);
        assert_eq!(l.notes.several_values, 1);
        assert_eq!(l.notes.declares, 1);
        assert_eq!(l.notes.refused, 0);
    }

    #[test]
    fn refused_records_and_uncomposable_variables_are_counted() {
        let src = "define void @f(i32 %a) {\n  #dbg_value(i32 %a, !2, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_constu, 3, DW_OP_mul, DW_OP_stack_value), !3)\n  #dbg_value(i32 %a, !4, !DIExpression(), !3)\n  #dbg_value(i32 %a, !4, !DIExpression(DW_OP_LLVM_fragment, 0, 16), !3)\n  ret void\n}\n!2 = !DILocalVariable(name: \"v\")\n!4 = !DILocalVariable(name: \"w\")\n";
        let m = crate::ir::parse(src).unwrap();
        let l = to_listing(&m).unwrap();
        let lines: Vec<&str> = l.text.lines().collect();
        assert_eq!(l.notes.refused, 1);
        assert_eq!(
            lines[1],
            "  call void @llvm.dbg.value(metadata i32 poison, metadata !2, metadata !DIExpression())"
        );
        assert_eq!(
            l.notes.left_out,
            vec![(
                "!4".to_string(),
                "described both whole and in pieces".to_string()
            )]
        );
        assert_eq!((lines[2], lines[3]), ("", ""));
    }
}
