//! The multi-location proposal (../shared/spec/multi-location-debug-info-
//! proposal.txt) given meaning through lifetimes.
//!
//! A listing in the proposal's form has three calls, spelled as the thread
//! settles on them or in its original token form:
//!
//! * a *key call*, `%t = call token @llvm.dbg.value.new(metadata V, metadata
//!   !var, metadata !expr)` (or `@llvm.dbg.value(token undef, …)`, or a
//!   plain `call void @llvm.dbg.value(metadata V, metadata !var, metadata
//!   !expr)`): the variable takes a new value, at `V`;
//! * an *added location*, `%u = call token @llvm.dbg.value.add(token %t,
//!   metadata V, metadata !expr)` (or `@llvm.dbg.value(token %t, …)`): the
//!   same value is also at `V`;
//! * a *removed location*, `call token @llvm.dbg.value.delete(token %u)` (or
//!   `@llvm.dbg.value(token %u, metadata token undef, …)`): that location no
//!   longer holds the value.
//!
//! [`current`] is the proposal's rule, executable: "The current set of
//! locations for a variable at a given instruction are all those
//! llvm.dbg.value instructions that dominate this location …, except that
//! if more than one key call is dominating, only the most recent one and all
//! calls associated to it by first argument count", with removals and with
//! key calls of pieces independent ("Key calls describing pieces of
//! variables are independent").
//!
//! [`translate`] turns the listing into one with `llvm.dbg.def` and
//! `llvm.dbg.kill` (one `DILifetime` per call, plus copies where dominance
//! brings a location back that control flow had ended), and [`agreement`]
//! checks at every reachable instruction that the segments the lifetime
//! rules make active are exactly the calls the proposal makes current.

use super::listing::{parse_module, InstKind, Module};
use super::ranges::{all_ranges, Intrinsics, Reading, Sweep};
use crate::classic::{parse_classic, COp, Params};
use crate::context::Signature;
use crate::diag::Diag;
use crate::syntax::Op;
use crate::text::parse_type;
use crate::text::split_top_level;
use crate::types::Type;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallKind {
    Key,
    /// An added location for the key call that made `token`.
    Add {
        token: String,
    },
    /// The removal of the location `token` made.
    Delete {
        token: String,
    },
}

/// One call of the proposal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The instruction (index into the module's instructions).
    pub inst: usize,
    pub line: u32,
    /// The token the call defines (`%t = call token …`), if named.
    pub name: Option<String>,
    pub kind: CallKind,
    /// The variable (`!3`).
    pub var: String,
    /// The location operand: its type and value (`i32 %x`); empty for a
    /// removal.
    pub ty: Option<Type>,
    pub value: String,
    /// The classic expression.
    pub expr: String,
    /// The bits of the variable it describes (`None`: all).
    pub piece: Option<(u64, u64)>,
}

/// A parsed multi-location listing.
#[derive(Clone, Debug)]
pub struct Listing {
    pub module: Module,
    pub calls: Vec<Call>,
    lines: Vec<String>,
}

fn ill(reason: &'static str, line: u32, msg: impl Into<String>) -> Diag {
    Diag::ill(
        "llvm.dbg.value",
        reason,
        format!("line {line}: {}", msg.into()),
    )
}

fn mal(reason: &'static str, line: u32, msg: impl Into<String>) -> Diag {
    Diag::malformed(
        "llvm.dbg.value",
        reason,
        format!("line {line}: {}", msg.into()),
    )
}

/// `metadata i32 %x` to its type and the value text.
fn location(arg: &str, line: u32) -> Result<(Type, String), Diag> {
    let a = arg.strip_prefix("metadata").unwrap_or(arg).trim();
    let (t, v) = a
        .rsplit_once(' ')
        .ok_or_else(|| mal("bad-operand", line, format!("`{arg}`: metadata TYPE VALUE")))?;
    Ok((parse_type(t.trim())?, v.trim().to_string()))
}

fn metadata(arg: &str) -> String {
    arg.strip_prefix("metadata")
        .unwrap_or(arg)
        .trim()
        .to_string()
}

fn token(arg: &str) -> Option<String> {
    let t = arg.strip_prefix("token")?.trim();
    (t != "undef" && t != "%undef" && t != "poison").then(|| t.to_string())
}

/// The expression text: `!()` is the empty expression.
fn expression(arg: &str) -> String {
    let e = metadata(arg);
    if e == "!()" {
        "!DIExpression()".into()
    } else {
        e
    }
}

/// Parses one line, if it is a call of the proposal.
fn parse_call(text: &str, inst: usize, line: u32) -> Result<Option<Call>, Diag> {
    let t = text.trim();
    let (name, rest) = match t.split_once('=') {
        Some((n, r)) if n.trim().starts_with('%') && r.trim_start().starts_with("call") => {
            (Some(n.trim().to_string()), r.trim())
        }
        _ => (None, t),
    };
    let Some(at) = rest.find("@llvm.dbg.value") else {
        return Ok(None);
    };
    let after = &rest[at + "@llvm.dbg.value".len()..];
    let (which, after) = if let Some(a) = after.strip_prefix(".new") {
        ("new", a)
    } else if let Some(a) = after.strip_prefix(".add") {
        ("add", a)
    } else if let Some(a) = after.strip_prefix(".delete") {
        ("delete", a)
    } else {
        ("", after)
    };
    let inner = after
        .trim()
        .strip_prefix('(')
        .and_then(|a| a.rfind(')').map(|k| &a[..k]))
        .ok_or_else(|| mal("bad-call", line, "an unclosed argument list"))?;
    let a = split_top_level(inner);
    let call = |kind, var: String, loc: Option<(Type, String)>, expr: String| {
        let (ty, value) = match loc {
            Some((t, v)) => (Some(t), v),
            None => (None, String::new()),
        };
        Call {
            inst,
            line,
            name: name.clone(),
            kind,
            var,
            ty,
            value,
            expr,
            piece: None,
        }
    };
    let need = |n: usize| {
        if a.len() == n {
            Ok(())
        } else {
            Err(mal(
                "bad-call",
                line,
                format!("{} arguments, expected {n}", a.len()),
            ))
        }
    };
    let c = match which {
        "new" => {
            need(3)?;
            call(
                CallKind::Key,
                metadata(&a[1]),
                Some(location(&a[0], line)?),
                expression(&a[2]),
            )
        }
        "add" => {
            need(3)?;
            let t = token(&a[0]).ok_or_else(|| mal("bad-call", line, "add takes `token %t`"))?;
            call(
                CallKind::Add { token: t },
                String::new(),
                Some(location(&a[1], line)?),
                expression(&a[2]),
            )
        }
        "delete" => {
            need(1)?;
            let t = token(&a[0]).ok_or_else(|| mal("bad-call", line, "delete takes `token %t`"))?;
            call(
                CallKind::Delete { token: t },
                String::new(),
                None,
                String::new(),
            )
        }
        _ if a.len() == 3 => call(
            CallKind::Key,
            metadata(&a[1]),
            Some(location(&a[0], line)?),
            expression(&a[2]),
        ),
        _ => {
            need(4)?;
            let var = metadata(&a[2]);
            match token(&a[0]) {
                None => call(
                    CallKind::Key,
                    var,
                    Some(location(&a[1], line)?),
                    expression(&a[3]),
                ),
                Some(t) if metadata(&a[1]) == "token undef" => {
                    let e = expression(&a[3]);
                    if e != "!DIExpression()" {
                        return Err(ill(
                            "delete-with-expression",
                            line,
                            "a removal's expression must be empty",
                        ));
                    }
                    call(CallKind::Delete { token: t }, var, None, String::new())
                }
                Some(t) => call(
                    CallKind::Add { token: t },
                    var,
                    Some(location(&a[1], line)?),
                    expression(&a[3]),
                ),
            }
        }
    };
    Ok(Some(c))
}

/// The predecessors of each block of one function.
fn predecessors(m: &Module, f: usize) -> Vec<Vec<usize>> {
    let blocks = &m.functions[f].blocks;
    let mut preds = vec![Vec::new(); blocks.len()];
    for (b, bl) in blocks.iter().enumerate() {
        if !bl.exit {
            for &s in &bl.succs {
                preds[s].push(b);
            }
        }
    }
    preds
}

/// Dominators of each block of one function: `dom[b]` holds the blocks
/// dominating `b` (itself included); unreachable blocks are `None`.
fn dominators(m: &Module, f: usize) -> Vec<Option<BTreeSet<usize>>> {
    let blocks = &m.functions[f].blocks;
    let n = blocks.len();
    let preds = predecessors(m, f);
    let mut reach = vec![false; n];
    let mut work = vec![0usize];
    while let Some(b) = work.pop() {
        if n == 0 || reach[b] {
            continue;
        }
        reach[b] = true;
        if !blocks[b].exit {
            work.extend(blocks[b].succs.iter().copied());
        }
    }
    let all: BTreeSet<usize> = (0..n).filter(|&b| reach[b]).collect();
    let mut dom: Vec<Option<BTreeSet<usize>>> =
        (0..n).map(|b| reach[b].then(|| all.clone())).collect();
    if n > 0 {
        dom[0] = Some([0].into());
    }
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..n {
            if !reach[b] {
                continue;
            }
            let mut d: Option<BTreeSet<usize>> = None;
            for &p in &preds[b] {
                if let Some(pd) = &dom[p] {
                    d = Some(match d {
                        None => pd.clone(),
                        Some(x) => x.intersection(pd).copied().collect(),
                    });
                }
            }
            let mut d = d.unwrap_or_default();
            d.insert(b);
            if dom[b].as_ref() != Some(&d) {
                dom[b] = Some(d);
                changed = true;
            }
        }
    }
    dom
}

/// Does instruction `a` dominate instruction `b` (both reachable, `a`
/// dominating itself)?
fn dominates(m: &Module, doms: &[Vec<Option<BTreeSet<usize>>>], a: usize, b: usize) -> bool {
    let (ia, ib) = (&m.insts[a], &m.insts[b]);
    if ia.func != ib.func {
        return false;
    }
    if ia.block == ib.block {
        return a <= b;
    }
    doms[ia.func][ib.block]
        .as_ref()
        .is_some_and(|d| d.contains(&ia.block))
}

fn overlaps(a: Option<(u64, u64)>, b: Option<(u64, u64)>) -> bool {
    match (a, b) {
        (Some((ao, asz)), Some((bo, bsz))) => ao < bo + bsz && bo < ao + asz,
        _ => true,
    }
}

/// Parses a listing with the proposal's calls and checks its rules (the
/// thread's verifier invariants): a token names a key call (for an
/// addition) or a location-making call (for a removal) that dominates the
/// use, describes the same variable, and is still the current key of its
/// piece; an added location's piece lies inside its key's.
pub fn parse_listing(text: &str) -> Result<Listing, Diag> {
    let module = parse_module(text)?;
    super::check_dataflow_size(&module, "llvm.dbg.value", &[])?;
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut calls: Vec<Call> = Vec::new();
    for (i, inst) in module.insts.iter().enumerate() {
        if inst.kind != InstKind::Other {
            if matches!(inst.kind, InstKind::Def { .. } | InstKind::Kill { .. }) {
                return Err(ill(
                    "mixed-forms",
                    inst.line,
                    "a multi-location listing has no llvm.dbg.def or llvm.dbg.kill of its own",
                ));
            }
            continue;
        }
        let text = lines.get(inst.line as usize - 1).map_or("", String::as_str);
        if let Some(c) = parse_call(text, i, inst.line)? {
            calls.push(c);
        }
    }
    super::check_dataflow_size(
        &module,
        "llvm.dbg.value",
        &calls_per_function_of(&module, calls.iter().map(|c| c.inst)),
    )?;
    let doms: Vec<_> = (0..module.functions.len())
        .map(|f| dominators(&module, f))
        .collect();
    let by_name: BTreeMap<String, usize> = calls
        .iter()
        .enumerate()
        .filter_map(|(k, c)| c.name.clone().map(|n| (n, k)))
        .collect();
    for k in 0..calls.len() {
        let line = calls[k].line;
        // The piece.
        if !calls[k].expr.is_empty() {
            calls[k].piece = expr_piece(&calls[k].expr)?;
        }
        let tok = match &calls[k].kind {
            CallKind::Key => {
                let v = &calls[k].var;
                if !module.nodes.get(v).is_some_and(|n| n.is_variable()) {
                    return Err(ill(
                        "unknown-variable",
                        line,
                        format!("`{v}` is not a variable the listing defines"),
                    ));
                }
                continue;
            }
            CallKind::Add { token } | CallKind::Delete { token } => token.clone(),
        };
        let &t = by_name
            .get(&tok)
            .ok_or_else(|| ill("unknown-token", line, format!("`{tok}` is made by no call")))?;
        if matches!(calls[t].kind, CallKind::Delete { .. }) {
            return Err(ill(
                "token-of-removal",
                line,
                format!("`{tok}` is a removal's token"),
            ));
        }
        if !dominates(&module, &doms, calls[t].inst, calls[k].inst) || t == k {
            return Err(ill(
                "token-not-dominating",
                line,
                format!("the call making `{tok}` does not dominate this one"),
            ));
        }
        if !calls[k].var.is_empty() && calls[k].var != calls[t].var {
            return Err(ill(
                "other-variable",
                line,
                format!(
                    "`{tok}` is of {}, this call names {}",
                    calls[t].var, calls[k].var
                ),
            ));
        }
        calls[k].var = calls[t].var.clone();
        if let CallKind::Add { .. } = calls[k].kind {
            if calls[t].kind != CallKind::Key {
                return Err(ill(
                    "add-of-add",
                    line,
                    format!("`{tok}` is an added location; add to the key call's token"),
                ));
            }
            if let (Some((ko, ks)), Some((ao, asz))) = (calls[t].piece, calls[k].piece) {
                if ao < ko || ao + asz > ko + ks {
                    return Err(ill(
                        "piece-outside-key",
                        line,
                        format!(
                            "bits [{ao}, {}) outside the key's [{ko}, {})",
                            ao + asz,
                            ko + ks
                        ),
                    ));
                }
            }
            if calls[t].piece.is_some() && calls[k].piece.is_none() {
                return Err(ill(
                    "piece-outside-key",
                    line,
                    "the whole variable added to a key call of one piece",
                ));
            }
            // Invariant d: no later key call of the piece in between.
            let stale = calls.iter().any(|c| {
                c.kind == CallKind::Key
                    && c.var == calls[t].var
                    && c.inst != calls[t].inst
                    && overlaps(c.piece, calls[t].piece)
                    && dominates(&module, &doms, calls[t].inst, c.inst)
                    && dominates(&module, &doms, c.inst, calls[k].inst)
            });
            if stale {
                return Err(ill(
                    "stale-token",
                    line,
                    format!("a later key call of the same piece dominates this use of `{tok}`"),
                ));
            }
        }
    }
    Ok(Listing {
        module,
        calls,
        lines,
    })
}

/// The proposal's fold: the current calls after `c` (indices into
/// `calls`); returns the calls it ended.
fn apply(calls: &[Call], current: &mut Vec<usize>, c: usize) -> Vec<usize> {
    let key_of = |k: usize| match &calls[k].kind {
        CallKind::Add { token } => calls
            .iter()
            .position(|x| x.name.as_deref() == Some(token.as_str())),
        _ => Some(k),
    };
    let mut ended = Vec::new();
    let mut keep = |current: &mut Vec<usize>, stays: &dyn Fn(usize) -> bool| {
        current.retain(|&k| {
            let s = stays(k);
            if !s {
                ended.push(k);
            }
            s
        })
    };
    match &calls[c].kind {
        CallKind::Key => {
            // DECISION (D-multiloc-pieces): a key call ends the earlier key
            // calls of its variable whose piece overlaps its own, and the
            // locations added to them; key calls of disjoint pieces are
            // independent.
            keep(current, &|k| {
                let Some(key) = key_of(k) else { return true };
                calls[key].var != calls[c].var || !overlaps(calls[key].piece, calls[c].piece)
            });
            current.push(c);
        }
        CallKind::Add { .. } => current.push(c),
        CallKind::Delete { token } => keep(current, &|k| {
            calls[k].name.as_deref() != Some(token.as_str())
        }),
    }
    ended
}

/// The proposal's current set of every reachable instruction, by
/// instruction.
///
/// DECISION (D-multiloc-dominance): the rule is taken as the thread writes
/// it, dominance and all: after a diamond whose two arms each make a key
/// call, the earlier key call (which dominates the join, where neither arm's
/// does) is current again, as the proposal's author notes ("cont would again
/// have %xold as the value"). The translation reproduces it with a copy of
/// the earlier segment started at the join. Unreachable instructions have
/// no current set (dominance says nothing useful there). Sets hold calls,
/// as indices into `listing.calls`.
///
/// The sets are visited, not returned: `visit(i, set, ended)` gets each
/// reachable instruction `i` in order of blocks, the current set after it
/// (unsorted) and the calls the instruction ended. A listing of N calls that
/// all stay current has sets of N^2 calls in all; visiting keeps memory
/// linear.
pub fn visit_current(l: &Listing, mut visit: impl FnMut(usize, &[usize], &[usize])) {
    let m = &l.module;
    let by_inst = calls_by_inst(l);
    for (fi, f) in m.functions.iter().enumerate() {
        let dom = dominators(m, fi);
        for (b, block) in f.blocks.iter().enumerate() {
            if dom[b].is_none() {
                continue;
            }
            let mut cur = entry_set(l, fi, b, &dom, &by_inst);
            for i in block.first..block.end {
                let ended = match by_inst.get(&i) {
                    Some(&c) => apply(&l.calls, &mut cur, c),
                    None => Vec::new(),
                };
                visit(i, &cur, &ended);
            }
        }
    }
}

/// The proposal's current set at instruction `i` (sorted), or `None`
/// where `i` is unreachable.
pub fn current_at(l: &Listing, i: usize) -> Option<Vec<usize>> {
    let mut out = None;
    visit_current(l, |k, cur, _| {
        if k == i {
            let mut s = cur.to_vec();
            s.sort_unstable();
            out = Some(s);
        }
    });
    out
}

/// How many of the listing's calls each function holds.
fn calls_per_function(l: &Listing) -> Vec<usize> {
    calls_per_function_of(&l.module, l.calls.iter().map(|c| c.inst))
}

/// How many of the instructions `insts` each function of `m` holds.
fn calls_per_function_of(m: &Module, insts: impl Iterator<Item = usize>) -> Vec<usize> {
    // A function's instructions are those of its blocks (in order).
    let mut starts: Vec<(usize, usize)> = m
        .functions
        .iter()
        .enumerate()
        .filter_map(|(fi, f)| f.blocks.first().map(|b| (b.first, fi)))
        .collect();
    starts.sort_unstable();
    let mut out = vec![0; m.functions.len()];
    for i in insts {
        let k = starts.partition_point(|&(first, _)| first <= i);
        if let Some(&(_, fi)) = k.checked_sub(1).and_then(|k| starts.get(k)) {
            out[fi] += 1;
        }
    }
    out
}

/// Each call by its instruction.
fn calls_by_inst(l: &Listing) -> BTreeMap<usize, usize> {
    l.calls
        .iter()
        .enumerate()
        .map(|(k, c)| (c.inst, k))
        .collect()
}

/// The translation of a multi-location listing into lifetimes.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The listing with `llvm.dbg.def` / `llvm.dbg.kill` (the proposal's
    /// calls kept as ordinary instructions, so every original point is a
    /// point of the translation).
    pub text: String,
    /// Each `DILifetime` and the call whose location it carries.
    pub segments: BTreeMap<String, usize>,
    /// Original instruction to translated instruction.
    pub points: Vec<usize>,
}

/// The piece a call's location describes: its key call's.
fn piece_of(l: &Listing, c: usize) -> Option<(u64, u64)> {
    match &l.calls[c].kind {
        CallKind::Add { token } => l
            .calls
            .iter()
            .find(|k| k.name.as_deref() == Some(token.as_str()))
            .and_then(|k| k.piece),
        _ => l.calls[c].piece,
    }
}

/// The fragment objects of variables described in pieces.
struct Objects {
    /// (variable, piece) to its `DIFragment` node.
    pieces: BTreeMap<(String, Option<(u64, u64)>), String>,
    /// The nodes: fragments and the variables' computed segments.
    text: String,
    /// Each computed segment and its variable.
    computed: Vec<(String, String)>,
}

/// DECISION (D-multiloc-pieces): in the translation, a variable whose key
/// calls name pieces gets one `DIFragment` per piece and a computed
/// `DILifetime` composing them, lowest bits first, from bit 0 to the end of
/// the highest piece; bits between pieces (and below the lowest) are
/// undefined (`DIOpConstant(iN undef)`). Overlapping pieces, and a variable
/// described both whole and in pieces, are `unsupported`; an added location
/// must describe its key call's whole piece.
fn piece_objects(l: &Listing, first: usize) -> Result<Objects, Diag> {
    let mut out = Objects {
        pieces: BTreeMap::new(),
        computed: Vec::new(),
        text: String::new(),
    };
    let mut next = first;
    let mut vars: BTreeMap<&str, BTreeSet<Option<(u64, u64)>>> = BTreeMap::new();
    for (k, c) in l.calls.iter().enumerate() {
        if matches!(c.kind, CallKind::Delete { .. }) {
            continue;
        }
        if let CallKind::Add { .. } = c.kind {
            if c.piece.is_some() && c.piece != piece_of(l, k) {
                return Err(Diag::unsupported(
                    "llvm.dbg.value",
                    "multiloc-pieces",
                    format!(
                        "line {}: an added location for part of its key call's piece",
                        c.line
                    ),
                ));
            }
        }
        vars.entry(c.var.as_str())
            .or_default()
            .insert(piece_of(l, k));
    }
    for (var, pieces) in vars {
        if pieces.iter().all(Option::is_none) {
            continue;
        }
        let mut ps: Vec<(u64, u64)> = pieces.iter().filter_map(|p| *p).collect();
        ps.sort_unstable();
        let mut end = 0;
        for &(o, sz) in &ps {
            if pieces.contains(&None) || o < end {
                return Err(Diag::unsupported(
                    "llvm.dbg.value",
                    "multiloc-pieces",
                    format!(
                        "the pieces of {var} overlap, or it is described both whole and in pieces"
                    ),
                ));
            }
            end = o + sz;
        }
        let mut args = Vec::new();
        let mut ops = Vec::new();
        let mut at = 0;
        let mut parts = 0;
        for (k, &(o, sz)) in ps.iter().enumerate() {
            // Bits no piece describes are undefined (D-multiloc-pieces).
            if o > at {
                ops.push(format!("DIOpConstant(i{} undef)", o - at));
                parts += 1;
            }
            let f = format!("!{next}");
            next += 1;
            out.text += &format!("{f} = distinct !DIFragment()\n");
            out.pieces
                .insert((var.to_string(), Some((o, sz))), f.clone());
            args.push(f);
            ops.push(format!("DIOpArg({k}, i{sz})"));
            parts += 1;
            at = o + sz;
        }
        out.computed.push((format!("!{next}"), var.to_string()));
        out.text += &format!(
            "!{next} = distinct !DILifetime(object: {var}, location: !DIExpr({}, DIOpComposite({parts}, i{end})), argObjects: {{{}}})\n",
            ops.join(", "),
            args.join(", ")
        );
        next += 1;
    }
    Ok(out)
}

/// The piece a call's expression describes: its `DW_OP_LLVM_fragment`
/// (classic) or `DIOpFragment` (DIOp), if any.
fn expr_piece(text: &str) -> Result<Option<(u64, u64)>, Diag> {
    if crate::classic::is_classic(text) {
        let e = parse_classic(text)?;
        return Ok(e.ops.iter().find_map(|op| match op {
            COp::Fragment(o, s) => Some((*o, *s)),
            _ => None,
        }));
    }
    let e = crate::text::parse_expr(text)?;
    Ok(e.ops.iter().find_map(|op| match op {
        Op::Fragment(o, s) => Some((*o, *s)),
        _ => None,
    }))
}

/// The `DILifetime` location of a call: its classic expression translated
/// to DIOp, the operand as the referrer.
///
/// DECISION (D-ir-diop-records): a call whose expression is written with
/// DIOps (as the ROCm fork writes records) keeps it, with `DIOpArg(0, T)`
/// (the operand) as the referrer and its `DIOpFragment` dropped (the
/// segment is of the piece's `DIFragment`).
fn lifetime_location(c: &Call, layout: &crate::types::DataLayout) -> Result<String, Diag> {
    let ty =
        c.ty.clone()
            .ok_or_else(|| ill("internal-error", c.line, "a removal has no location"))?;
    if !crate::classic::is_classic(&c.expr) {
        let e = crate::text::parse_expr(&c.expr)?;
        let ops: Vec<Op> = e
            .ops
            .into_iter()
            .filter(|op| !matches!(op, Op::Fragment(..)))
            .map(|op| match op {
                Op::Arg(0, t) => Op::Referrer(t),
                other => other,
            })
            .collect();
        return Ok(crate::syntax::Expr {
            spelling: e.spelling,
            ops,
        }
        .to_string());
    }
    let mut e = parse_classic(&c.expr)?;
    e.ops.retain(|op| !matches!(op, COp::Fragment(..)));
    let sig = Signature {
        layout: layout.clone(),
        args: vec![ty],
        ..Signature::default()
    };
    let d = crate::classic::translate::translate(&e, &sig, &Params::default())?;
    let mut ops: Vec<Op> = d
        .ops
        .iter()
        .cloned()
        .map(|op| match op {
            Op::Arg(0, t) => Op::Referrer(t),
            other => other,
        })
        .collect();
    // DECISION (D-multiloc-piece-value): a value wider than its piece is
    // the piece's low-order bits, as a DWARF piece takes them from a
    // larger register or implicit value: a computed one (`DW_OP_constu 4,
    // DW_OP_mul, DW_OP_stack_value` on an `i32`, on the 64-bit generic
    // type, for a 32-bit fragment) or a location (`i32 %x` for a 16-bit
    // fragment: `DW_OP_reg0, DW_OP_piece 2`). It is read and truncated to
    // the piece's width (`DIOpConvert(iN)`, after `DIOpReinterpret(iW)`
    // for a type that is not an integer), so that the piece's segments are
    // all of its bits: a location becomes an implicit value of the same
    // bits, as no DIOp takes part of a location narrower than its type.
    //
    // DECISION (D-multiloc-piece-narrow): a location in memory is the
    // piece's bits at its address whatever type the classic reading gave
    // it (a `dbg_declare` of `[21 x i8]* %p` for a 168-bit fragment is read
    // with the generic type's `DIOpDeref(i64)`): a memory location
    // narrower than its piece is dereferenced as `iN` of the piece. A
    // value or register narrower than its piece is `unsupported`
    // (`narrow-piece-value`), not translated: IR does not say what the
    // piece's bits above the value hold (a register piece reads what the
    // register holds there, a stack value is zero- or sign-extended on the
    // generic type), so no one segment is the record's.
    if let (Some((_, sz)), Ok(checked)) = (c.piece, crate::wellformed::check(&d, &sig)) {
        let w = layout.bitsizeof(&checked.result);
        if w < sz {
            if let Some(Op::Deref(t)) = ops.last_mut() {
                *t = Type::Int(sz);
                return Ok(crate::syntax::Expr {
                    spelling: d.spelling,
                    ops,
                }
                .to_string());
            }
            return Err(Diag::unsupported(
                "llvm.dbg.value",
                "narrow-piece-value",
                format!(
                    "line {}: the value is {w} bits (`{}`) but its piece {sz}: \
                     what the piece's other bits hold is not said",
                    c.line, checked.result
                ),
            ));
        }
        if w > sz {
            if !matches!(checked.result, Type::Int(_)) {
                ops.push(Op::Reinterpret(Type::Int(w)));
            }
            ops.push(Op::Convert(Type::Int(sz)));
        }
    }
    Ok(crate::syntax::Expr {
        spelling: d.spelling,
        ops,
    }
    .to_string())
}

/// Translates the listing: each call's location becomes a bounded
/// `DILifetime` segment defined at the call; at each block entry the
/// segments of calls no longer current are killed and those current by
/// dominance but not reaching the block by control flow are started again
/// (a copy of the call's segment); inside a block a key call kills the
/// segments it supersedes and a removal the segment it names.
pub fn translate(l: &Listing) -> Result<Translation, Diag> {
    let m = &l.module;
    // The input's own errors (a scope or unit that is not defined) are
    // input errors, reported at the input's lines, not a translation that
    // fails to check.
    if let Some(d) = super::wellformed::check_module(m)
        .into_iter()
        .find(|d| d.outcome == crate::diag::Outcome::Malformed)
    {
        return Err(d);
    }
    let by_inst = calls_by_inst(l);
    // What each call ended where it was reached, and which instructions
    // are reachable.
    let mut reachable = vec![false; m.insts.len()];
    let mut ended_at: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    visit_current(l, |i, _, ended| {
        reachable[i] = true;
        if !ended.is_empty() {
            ended_at.insert(i, ended.iter().copied().collect());
        }
    });
    // The calls current at each block entry, before its first instruction.
    let mut entry_cur: BTreeMap<(usize, usize), BTreeSet<usize>> = BTreeMap::new();
    for (fi, f) in m.functions.iter().enumerate() {
        let dom = dominators(m, fi);
        for (b, bl) in f.blocks.iter().enumerate() {
            if bl.first == bl.end || !reachable[bl.first] {
                continue;
            }
            let at_entry = entry_set(l, fi, b, &dom, &by_inst);
            entry_cur.insert((fi, b), at_entry.into_iter().collect());
        }
    }
    // Segments: each call's own, and copies started at block entries where
    // a current call's location reaches by no control-flow path (made when
    // the flow below first finds one missing, and kept: the flow only
    // grows, so it settles).
    let mut segments: Vec<usize> = (0..l.calls.len()).collect(); // segment -> call
    let mut revive: BTreeMap<(usize, usize), BTreeMap<usize, usize>> = BTreeMap::new();
    let mut out_active: BTreeMap<(usize, usize), BTreeSet<usize>> = BTreeMap::new();
    // Kills at a block entry (before the copies started there) and kills by
    // an instruction (after them), each by instruction.
    // Per function, recomputed each round it is walked. A function's flow
    // reads only its own blocks' sets, so one that did not change in a
    // round gives the same again: it is not walked again (its kills
    // stand), and the rounds cost what the functions still changing cost,
    // not every function each time one of them changes.
    type Kills = BTreeMap<usize, BTreeSet<usize>>;
    let mut kills: Vec<(Kills, Kills)> = vec![Default::default(); m.functions.len()];
    let mut dirty = vec![true; m.functions.len()];
    let per_function = calls_per_function(l);
    let preds: Vec<_> = (0..m.functions.len())
        .map(|fi| predecessors(m, fi))
        .collect();
    let mut rounds = 0;
    while dirty.contains(&true) {
        rounds += 1;
        for (fi, f) in m.functions.iter().enumerate() {
            if !std::mem::take(&mut dirty[fi]) {
                continue;
            }
            let n = f.blocks.len();
            if rounds > (n + 1) * (per_function[fi] + 1) * (n + 1) + 16 {
                return Err(Diag::unsupported(
                    "llvm.dbg.value",
                    "internal-error",
                    "the segment flow did not settle (a dioptra bug)",
                ));
            }
            let (entry_kills, kills_at) = &mut kills[fi];
            entry_kills.clear();
            kills_at.clear();
            let preds = &preds[fi];
            for (b, bl) in f.blocks.iter().enumerate() {
                let Some(want) = entry_cur.get(&(fi, b)) else {
                    continue;
                };
                let mut active: BTreeSet<usize> = preds[b]
                    .iter()
                    .filter_map(|&p| out_active.get(&(fi, p)))
                    .flatten()
                    .copied()
                    .collect();
                let dead: Vec<usize> = active
                    .iter()
                    .copied()
                    .filter(|&s| !want.contains(&segments[s]))
                    .collect();
                for s in dead {
                    active.remove(&s);
                    entry_kills.entry(bl.first).or_default().insert(s);
                }
                let started = revive.entry((fi, b)).or_default();
                for &c in want {
                    if !active.iter().any(|&s| segments[s] == c) && !started.contains_key(&c) {
                        segments.push(c);
                        started.insert(c, segments.len() - 1);
                    }
                }
                active.extend(started.values().copied());
                for i in bl.first..bl.end {
                    let Some(&c) = by_inst.get(&i) else { continue };
                    // The segments of the calls this one ended.
                    let ended = ended_at.get(&i);
                    let dead: Vec<usize> = match ended {
                        None => Vec::new(),
                        Some(e) => active
                            .iter()
                            .copied()
                            .filter(|&s| e.contains(&segments[s]))
                            .collect(),
                    };
                    for s in dead {
                        active.remove(&s);
                        kills_at.entry(i).or_default().insert(s);
                    }
                    if !matches!(l.calls[c].kind, CallKind::Delete { .. }) {
                        active.insert(c);
                    }
                }
                if out_active.get(&(fi, b)) != Some(&active) {
                    out_active.insert((fi, b), active);
                    dirty[fi] = true;
                }
            }
        }
    }
    let (mut entry_kills, mut kills_at) = (Kills::new(), Kills::new());
    for (e, k) in kills {
        entry_kills.extend(e);
        kills_at.extend(k);
    }
    // The text: the segments are numbered after the listing's own nodes.
    let base = l
        .lines
        .iter()
        .flat_map(|t| t.split('!').skip(1))
        .filter_map(|w| {
            let d: String = w.chars().take_while(char::is_ascii_digit).collect();
            d.parse::<usize>().ok()
        })
        .max()
        .map_or(0, |n| n + 1);
    let name = |s: usize| format!("!{}", base + s);
    let mut starts: BTreeMap<usize, Vec<usize>> = BTreeMap::new(); // inst -> segments started before it
    for ((fi, b), segs) in &revive {
        let first = m.functions[*fi].blocks[*b].first;
        starts
            .entry(first)
            .or_default()
            .extend(segs.values().copied());
    }
    let mut text = String::new();
    let mut points = vec![0usize; m.insts.len()];
    let inst_of_line: BTreeMap<u32, usize> = m
        .insts
        .iter()
        .enumerate()
        .map(|(i, x)| (x.line, i))
        .collect();
    let mut emitted = 0usize;
    let def_line = |s: usize| -> String {
        let c = &l.calls[segments[s]];
        format!(
            "  call void @llvm.dbg.def(metadata {}, metadata {} {})\n",
            name(s),
            c.ty.as_ref().map(ToString::to_string).unwrap_or_default(),
            c.value
        )
    };
    for (k, raw) in l.lines.iter().enumerate() {
        let line = k as u32 + 1;
        if let Some(&i) = inst_of_line.get(&line) {
            for s in entry_kills.get(&i).into_iter().flatten() {
                text += &format!("  call void @llvm.dbg.kill(metadata {})\n", name(*s));
                emitted += 1;
            }
            for &s in starts.get(&i).into_iter().flatten() {
                text += &def_line(s);
                emitted += 1;
            }
            for s in kills_at.get(&i).into_iter().flatten() {
                text += &format!("  call void @llvm.dbg.kill(metadata {})\n", name(*s));
                emitted += 1;
            }
            if let Some(&c) = by_inst.get(&i) {
                if !matches!(l.calls[c].kind, CallKind::Delete { .. }) {
                    text += &def_line(c);
                    emitted += 1;
                }
            }
            points[i] = emitted;
            emitted += 1;
        }
        text += raw;
        text.push('\n');
    }
    // The objects: the variable itself, or for a variable described in
    // pieces one `DIFragment` per piece and a computed segment of the
    // variable composing them (lowest bits first).
    let objects = piece_objects(l, base + segments.len())?;
    let mut seg_map = BTreeMap::new();
    for (s, &c) in segments.iter().enumerate() {
        let call = &l.calls[c];
        if matches!(call.kind, CallKind::Delete { .. }) {
            continue;
        }
        let loc = lifetime_location(call, &l.module.data_layout())?;
        let object = objects
            .pieces
            .get(&(call.var.clone(), piece_of(l, c)))
            .cloned()
            .unwrap_or_else(|| call.var.clone());
        text += &format!(
            "{} = distinct !DILifetime(object: {object}, location: {loc})\n",
            name(s)
        );
        seg_map.insert(name(s), c);
    }
    text += &objects.text;
    let text = retain_computed(l, text, &objects.computed);
    Ok(Translation {
        text,
        segments: seg_map,
        points,
    })
}

/// DECISION (D-multiloc-retainer): the computed segment composing a
/// variable's pieces is retained where the lifetime rules want it: by the
/// variable's subprogram (its scope, through lexical blocks) when every
/// call describing the variable is in that subprogram's function, and by
/// `!llvm.dbg.retainedNodes` otherwise (an inlined variable, whose scope
/// is the callee's subprogram). The subprogram's `retainedNodes` is
/// written in place with the segment added (a tuple it referred to is
/// copied, not changed: other subprograms may share it). So is every local
/// variable and label whose scope is a subprogram that does not list it:
/// upstream LLVM lists only the variables it must keep when optimized out
/// (clang -O0 lists none), the lifetime rules want all of them.
fn retain_computed(l: &Listing, text: String, computed: &[(String, String)]) -> String {
    use super::listing::Kind;
    let m = &l.module;
    let sps: Vec<&String> = m
        .nodes
        .iter()
        .filter(|(_, n)| matches!(n.kind, Kind::Subprogram { .. }))
        .map(|(id, _)| id)
        .collect();
    if sps.is_empty() && !m.named.contains_key("llvm.dbg.retainedNodes") {
        return text;
    }
    let sp_of_func = |f: usize| {
        m.functions[f]
            .subprogram
            .clone()
            .or_else(|| (sps.len() == 1 && m.functions.len() == 1).then(|| sps[0].clone()))
    };
    let mut by_sp: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut module = Vec::new();
    for (seg, var) in computed {
        let var_sp = match m.nodes.get(var).map(|n| &n.kind) {
            Some(Kind::LocalVariable { scope: Some(s), .. }) => m.enclosing_subprogram(s),
            _ => None,
        };
        let local = var_sp.filter(|sp| {
            l.calls
                .iter()
                .filter(|c| &c.var == var)
                .all(|c| sp_of_func(m.insts[c.inst].func).as_ref() == Some(sp))
        });
        match local {
            Some(sp) => by_sp.entry(sp).or_default().push(seg.clone()),
            None => module.push(seg.clone()),
        }
    }
    for (id, n) in m.nodes.iter() {
        if let Kind::LocalVariable {
            scope: Some(sc), ..
        }
        | Kind::Label {
            scope: Some(sc), ..
        } = &n.kind
        {
            if let Some(Kind::Subprogram { retained, .. }) = m.nodes.get(sc).map(|k| &k.kind) {
                if !retained.contains(id) {
                    by_sp.entry(sc.clone()).or_default().push(id.clone());
                }
            }
        }
    }
    if by_sp.is_empty() && module.is_empty() {
        return text;
    }
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (sp, segs) in &by_sp {
        let Some(k) = lines.iter().position(|t| {
            t.trim_start()
                .split_once('=')
                .is_some_and(|(id, _)| id.trim() == sp)
        }) else {
            continue;
        };
        let kept = match m.nodes.get(sp).map(|n| &n.kind) {
            Some(Kind::Subprogram { retained, .. }) => retained.clone(),
            _ => Vec::new(),
        };
        let mut all = kept;
        all.extend(segs.iter().cloned());
        let list = format!("retainedNodes: {{{}}}", all.join(", "));
        let t = &lines[k];
        lines[k] = match t.find("retainedNodes:") {
            Some(at) => {
                let rest = &t[at + "retainedNodes:".len()..];
                let value_len = rest.find([',', ')']).unwrap_or(rest.len());
                let value = rest.trim_start();
                let value_len = if value.starts_with('{') || value.starts_with("!{") {
                    rest.find('}').map_or(value_len, |c| c + 1)
                } else {
                    value_len
                };
                format!("{}{list}{}", &t[..at], &rest[value_len..])
            }
            None => t.replacen("DISubprogram(", &format!("DISubprogram({list}, "), 1),
        };
    }
    if !module.is_empty() {
        match lines
            .iter()
            .position(|t| t.trim_start().starts_with("!llvm.dbg.retainedNodes"))
        {
            Some(k) => {
                let t = &lines[k];
                let close = t.rfind('}').unwrap_or(t.len());
                let inner = t[..close].rsplit_once('{').map_or("", |(_, i)| i).trim();
                let sep = if inner.is_empty() { "" } else { ", " };
                lines[k] = format!("{}{sep}{}{}", &t[..close], module.join(", "), &t[close..]);
            }
            None => lines.push(format!(
                "!llvm.dbg.retainedNodes = !{{{}}}",
                module.join(", ")
            )),
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The current set on entry to block `b` (before its first instruction):
/// the calls of its strict dominators folded outermost first (a dominator
/// with more dominators of its own is nearer).
fn entry_set(
    l: &Listing,
    fi: usize,
    b: usize,
    dom: &[Option<BTreeSet<usize>>],
    by_inst: &BTreeMap<usize, usize>,
) -> Vec<usize> {
    let f = &l.module.functions[fi];
    let Some(d) = &dom[b] else { return Vec::new() };
    let mut chain: Vec<usize> = d.iter().copied().filter(|&x| x != b).collect();
    chain.sort_by_key(|&x| dom[x].as_ref().map_or(0, BTreeSet::len));
    let mut cur = Vec::new();
    for &x in &chain {
        for i in f.blocks[x].first..f.blocks[x].end {
            if let Some(&c) = by_inst.get(&i) {
                apply(&l.calls, &mut cur, c);
            }
        }
    }
    cur
}

/// Where the proposal and the translation differ, if anywhere.
#[derive(Clone, Debug)]
pub struct Agreement {
    /// Reachable instructions compared.
    pub points: usize,
    /// The first difference: the original line, the proposal's current
    /// calls (their lines) and the lines of the calls whose segments are
    /// active.
    pub difference: Option<(u32, Vec<u32>, Vec<u32>)>,
}

/// Translates `l` and compares, at every reachable instruction, the calls
/// the proposal makes current with those whose segments the lifetime rules
/// make active (the translated listing must also be well-formed).
pub fn agreement(l: &Listing) -> Result<(Translation, Agreement), Diag> {
    let t = translate(l)?;
    let tm = parse_module(&t.text)?;
    let ds = super::wellformed::check_module(&tm);
    if let Some(d) = ds.into_iter().next() {
        return Err(Diag::unsupported(
            "llvm.dbg.value",
            "internal-error",
            format!("the translation is not well-formed (a dioptra bug): {d}"),
        ));
    }
    let x = Intrinsics::of(&tm);
    let ranges = all_ranges(&tm, &x, Reading::ControlFlow);
    let mut active = Sweep::new(&ranges);
    // Each call's segments: its own, and the copies started at joins.
    let mut segments_of: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (name, &k) in &t.segments {
        segments_of.entry(k).or_default().push(name.as_str());
    }
    let mut a = Agreement {
        points: 0,
        difference: None,
    };
    visit_current(l, |i, c, _| {
        a.points += 1;
        if a.difference.is_some() {
            return;
        }
        let got = active.at(t.points[i]);
        // The same when each current call has an active segment and no
        // other segment is active (distinct calls have distinct segments).
        let same = got.len() == c.len()
            && c.iter().all(|k| {
                segments_of
                    .get(k)
                    .is_some_and(|v| v.iter().any(|s| got.contains(s)))
            });
        if !same {
            let want: BTreeSet<usize> = c.iter().copied().collect();
            let got: BTreeSet<usize> = got
                .iter()
                .filter_map(|s| t.segments.get(*s).copied())
                .collect();
            if want != got {
                let lines = |s: &BTreeSet<usize>| s.iter().map(|&k| l.calls[k].line).collect();
                a.difference = Some((l.module.insts[i].line, lines(&want), lines(&got)));
            }
        }
    });
    Ok((t, a))
}
