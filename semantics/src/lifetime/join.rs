//! LiveDebugValues' join rule (../shared/spec/codegen-variable-location-
//! transformation.txt, "LiveDebugValues expansion of variable locations"),
//! executable: "when control flow merges, if a variable has the same
//! location in all predecessors then that location is propagated into the
//! successor. If the predecessor locations disagree, the location becomes
//! undefined."
//!
//! The input is a listing with classic `llvm.dbg.value` calls (or MIR
//! `DBG_VALUE`s): each sets its variable's location until the next one. The
//! model is the dataflow LiveDebugValues runs: a variable's location at a
//! block entry is the meet of its locations at the ends of the
//! predecessors, where a predecessor not yet reached says nothing (so a
//! location that goes around a loop unchanged survives it), equal
//! locations meet to themselves and different ones to "undefined"; at the
//! function entry every variable is undefined. Iterated to its fixpoint.
//!
//! DECISION (D-join-loops): a predecessor the dataflow has not reached yet
//! says nothing (the optimistic start LiveDebugValues' VarLoc
//! implementation uses), so a location that no instruction of a loop
//! changes survives the loop's back edge; one the loop changes meets its
//! old self at the header and becomes undefined there. Two locations are
//! the same when operand and expression are written the same.

use super::listing::{parse_module, InstKind, Module};
use crate::diag::Diag;
use crate::text::split_top_level;
use std::collections::BTreeMap;

/// One `llvm.dbg.value` / `DBG_VALUE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbgValue {
    pub inst: usize,
    pub line: u32,
    pub var: String,
    /// The location, as written (`i32 %input, !DIExpression()`); `None`
    /// for an undefined one (`undef`, `poison`, `$noreg`).
    pub loc: Option<String>,
}

/// A listing of `llvm.dbg.value`s.
#[derive(Clone, Debug)]
pub struct Listing {
    pub module: Module,
    pub values: Vec<DbgValue>,
}

/// A variable's state in the dataflow.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    /// No predecessor reached yet: the identity of the meet.
    Unknown,
    At(String),
    Undefined,
}

fn meet(a: &State, b: &State) -> State {
    match (a, b) {
        (State::Unknown, x) | (x, State::Unknown) => x.clone(),
        (State::At(x), State::At(y)) if x == y => State::At(x.clone()),
        _ => State::Undefined,
    }
}

fn undefined(v: &str) -> bool {
    let last = v.split_whitespace().last().unwrap_or("");
    ["undef", "poison", "$noreg"].contains(&last)
}

/// Parses one line, if it is a `llvm.dbg.value` or a `DBG_VALUE`.
fn parse_value(text: &str, inst: usize, line: u32) -> Result<Option<DbgValue>, Diag> {
    let t = text.trim();
    let bad = |m: &str| Diag::malformed("llvm.dbg.value", "bad-call", format!("line {line}: {m}"));
    if let Some(at) = t.find("@llvm.dbg.value(") {
        let inner = t[at + "@llvm.dbg.value(".len()..]
            .rsplit_once(')')
            .map(|(a, _)| a)
            .ok_or_else(|| bad("an unclosed argument list"))?;
        let a = split_top_level(inner);
        let [v, var, e] = &a[..] else {
            return Err(bad(
                "llvm.dbg.value(metadata V, metadata !var, metadata !expr)",
            ));
        };
        let md = |s: &str| s.strip_prefix("metadata").unwrap_or(s).trim().to_string();
        let v = md(v);
        return Ok(Some(DbgValue {
            inst,
            line,
            var: md(var),
            loc: (!undefined(&v)).then(|| format!("{v}, {}", md(e))),
        }));
    }
    if let Some(rest) = t.strip_prefix("DBG_VALUE ") {
        let a = split_top_level(rest);
        let [v, indirect, var, e] = &a[..] else {
            return Err(bad("DBG_VALUE LOC, $noreg | 0, !var, !expr"));
        };
        return Ok(Some(DbgValue {
            inst,
            line,
            var: var.clone(),
            loc: (!undefined(v)).then(|| format!("{v}, {indirect}, {e}")),
        }));
    }
    Ok(None)
}

/// Parses a listing with `llvm.dbg.value`s.
pub fn parse_listing(text: &str) -> Result<Listing, Diag> {
    let module = parse_module(text)?;
    let lines: Vec<&str> = text.lines().collect();
    let mut values = Vec::new();
    for (i, inst) in module.insts.iter().enumerate() {
        if inst.kind != InstKind::Other {
            continue;
        }
        let t = lines.get(inst.line as usize - 1).copied().unwrap_or("");
        if let Some(v) = parse_value(t, i, inst.line)? {
            values.push(v);
        }
    }
    let mut vars: Vec<&str> = values.iter().map(|d| d.var.as_str()).collect();
    vars.sort_unstable();
    vars.dedup();
    // The join rule's states hold every variable of the module in each
    // block, so each function is bounded by all of them.
    let all = vec![vars.len(); module.functions.len()];
    super::check_dataflow_size(&module, "llvm.dbg.value", &all)?;
    Ok(Listing { module, values })
}

/// The variables' states.
type Vars = BTreeMap<String, State>;

/// A block's instructions acting on `s`; `record` sees the state after
/// each instruction.
fn transfer(
    m: &Module,
    f: usize,
    b: usize,
    by_inst: &BTreeMap<usize, &DbgValue>,
    mut s: Vars,
    record: &mut dyn FnMut(usize, &Vars),
) -> Vars {
    let block = &m.functions[f].blocks[b];
    for i in block.first..block.end {
        if let Some(d) = by_inst.get(&i) {
            s.insert(
                d.var.clone(),
                d.loc.clone().map_or(State::Undefined, State::At),
            );
        }
        record(i, &s);
    }
    s
}

/// The state at a block's entry: every variable undefined at the function
/// entry, else the meet of the reached predecessors' ends (`None` when no
/// predecessor is reached yet).
fn entry_of(
    b: usize,
    preds: &[Vec<usize>],
    ends: &[Option<Vars>],
    vars: &[String],
) -> Option<Vars> {
    if b == 0 {
        return Some(vars.iter().map(|v| (v.clone(), State::Undefined)).collect());
    }
    let reached: Vec<&Vars> = preds[b].iter().filter_map(|&p| ends[p].as_ref()).collect();
    if reached.is_empty() {
        return None;
    }
    let mut s: Vars = vars.iter().map(|v| (v.clone(), State::Unknown)).collect();
    for e in reached {
        for (v, st) in e {
            let cur = s.get(v).cloned().unwrap_or(State::Unknown);
            s.insert(v.clone(), meet(&cur, st));
        }
    }
    Some(s)
}

/// Each variable's location at each instruction (after it acts), by the
/// join rule: `Some(location)` or `None` for undefined. Unreachable
/// instructions have no entry.
pub fn locations(l: &Listing) -> Vec<Option<BTreeMap<String, Option<String>>>> {
    let m = &l.module;
    let mut vars: Vec<String> = l.values.iter().map(|d| d.var.clone()).collect();
    vars.sort();
    vars.dedup();
    let by_inst: BTreeMap<usize, &DbgValue> = l.values.iter().map(|d| (d.inst, d)).collect();
    let mut out = vec![None; m.insts.len()];
    for (fi, f) in m.functions.iter().enumerate() {
        let n = f.blocks.len();
        let mut preds = vec![Vec::new(); n];
        for (b, bl) in f.blocks.iter().enumerate() {
            if !bl.exit {
                for &s in &bl.succs {
                    preds[s].push(b);
                }
            }
        }
        let mut ends: Vec<Option<Vars>> = vec![None; n];
        // Iterate to the fixpoint: a state only goes down (unknown, a
        // location, undefined), so this ends.
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..n {
                let Some(s) = entry_of(b, &preds, &ends, &vars) else {
                    continue;
                };
                let end = transfer(m, fi, b, &by_inst, s, &mut |_, _| {});
                if ends[b].as_ref() != Some(&end) {
                    ends[b] = Some(end);
                    changed = true;
                }
            }
        }
        for b in 0..n {
            let Some(s) = entry_of(b, &preds, &ends, &vars) else {
                continue;
            };
            transfer(m, fi, b, &by_inst, s, &mut |i, s| {
                out[i] = Some(
                    s.iter()
                        .map(|(v, st)| {
                            let loc = match st {
                                State::At(x) => Some(x.clone()),
                                _ => None,
                            };
                            (v.clone(), loc)
                        })
                        .collect(),
                );
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's example: `!30` keeps `%input` into `%bb1`, `!23`
    /// (1 on one path, 2 on the other) becomes undefined there.
    /// Past the bounds: a diagnostic, not a long fixpoint.
    #[test]
    fn too_many_blocks_is_unsupported() {
        let mut text = String::from("define void @f() {\n");
        for b in 0..2_001 {
            text += &format!("b{b}:\n  call void @llvm.dbg.value(metadata i32 {b}, metadata !1, metadata !DIExpression())\n  br label %b{}\n", b + 1);
        }
        text += "b2001:\n  ret void\n}\n";
        let d = parse_listing(&text).unwrap_err();
        assert_eq!(
            (d.construct.as_str(), d.reason),
            ("llvm.dbg.value", "limit-exceeded"),
            "{d}"
        );
        let d = super::super::multiloc::parse_listing(&text).unwrap_err();
        assert_eq!(d.reason, "limit-exceeded", "{d}");
    }

    #[test]
    fn the_documents_merge() {
        let text = "define i32 @foo(i1 %cond, i32 %input) {
entry:
  br i1 %cond, label %truebr, label %falsebr
bb1:
  %value = phi i32 [ %value1, %truebr ], [ %value2, %falsebr ]
  br label %exit
truebr:
  call void @llvm.dbg.value(metadata i32 %input, metadata !30, metadata !DIExpression())
  call void @llvm.dbg.value(metadata i32 1, metadata !23, metadata !DIExpression())
  %value1 = add i32 %input, 1
  br label %bb1
falsebr:
  call void @llvm.dbg.value(metadata i32 %input, metadata !30, metadata !DIExpression())
  call void @llvm.dbg.value(metadata i32 2, metadata !23, metadata !DIExpression())
  %value2 = add i32 %input, 2
  br label %bb1
exit:
  ret i32 %value
}";
        let l = parse_listing(text).unwrap();
        let at = locations(&l);
        let line = |n: u32| at[l.module.inst_at_line(n).unwrap()].clone().unwrap();
        assert_eq!(
            line(5)["!30"].as_deref(),
            Some("i32 %input, !DIExpression()")
        );
        assert_eq!(line(5)["!23"], None);
        assert_eq!(line(9)["!23"].as_deref(), Some("i32 1, !DIExpression()"));
        assert_eq!(
            line(18)["!30"].as_deref(),
            Some("i32 %input, !DIExpression()")
        );
    }
}
