//! `dioptra dwarf FILE`: every variable and parameter of an object file's
//! DWARF with its location, each expression decoded; with `--at PC
//! --context FILE`, each variable in scope there located in that machine
//! state.
//!
//! DECISION (D-dwarf-reader-exit): exit 0 when every location expression
//! decodes and passes the static check (and, with `--at`, every variable asked for evaluates or is
//! legitimately unavailable there); 1 when some expression does not decode
//! or does not evaluate (the file's DWARF is what is checked); 2 when the
//! file is not an object with DWARF; 3 when nothing failed but some unit is
//! a split-DWARF skeleton whose `.dwo` file was not found (its variables
//! were not read; D-dwarf-split).

use crate::common::*;
use dioptra_oracle::objfile::at::{at_pc, AtPc};
use dioptra_oracle::objfile::variables::{variables, Location, Variable, Variables};
use dioptra_oracle::objfile::{read, Object};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::dwarf::check::{check, Model};
use dioptra_semantics::dwarf::op::decode;
use dioptra_semantics::dwarf::text::print;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

/// What to show.
pub struct DwarfArgs<'a> {
    pub file: &'a Path,
    pub at: Option<&'a str>,
    pub context: Option<&'a Path>,
    pub var: Option<&'a str>,
    pub json: bool,
}

pub fn cmd_dwarf(a: DwarfArgs) -> ExitCode {
    let loaded = read(a.file).and_then(|obj| Ok((variables(&obj)?, obj)));
    let (vars, obj) = match loaded {
        Ok(v) => v,
        Err(d) => return report(&d, a.json),
    };
    match (a.at, a.context) {
        (None, None) => listing(&obj, &vars, a),
        (Some(pc), Some(ctx)) => {
            let pc = match parse_pc(pc) {
                Ok(pc) => pc,
                Err(d) => return report(&d, a.json),
            };
            match read_context(ctx) {
                Ok(ctx) => located(&obj, &vars, pc, &ctx, a),
                Err(d) => report(&d, a.json),
            }
        }
        _ => report(
            &Diag::malformed(
                "Dwarf",
                "bad-arguments",
                "--at PC and --context FILE go together",
            ),
            a.json,
        ),
    }
}

/// The split-DWARF skeletons, each said on stderr (D-dwarf-split): their
/// variables are in their `.dwo` files, which are not read. Returns their
/// `.dwo` names.
fn skeletons(vars: &Variables) -> Vec<&str> {
    let mut out = Vec::new();
    for (k, u) in vars.units.iter().enumerate() {
        if let (Some(dwo), Some(why)) = (&u.dwo, &u.dwo_missing) {
            errln!(
                "Dwarf: split-dwarf: unit {k} \"{}\" is a split-DWARF skeleton whose variables are in `{dwo}`, not read: {why}; they are not listed nor checked",
                u.name
            );
            out.push(dwo.as_str());
        }
    }
    out
}

/// D-dwarf-reader-exit: 1 when something failed, else 3 when a skeleton's
/// variables were not read, else 0.
fn exit_code(failed: usize, skeletons: &[&str]) -> ExitCode {
    ExitCode::from(match (failed, skeletons.is_empty()) {
        (0, true) => 0,
        (0, false) => 3,
        _ => 1,
    })
}

/// The JSON outcome beside [`exit_code`]: `failed_word` when something
/// failed.
fn outcome<'w>(failed: usize, skeletons: &[&str], failed_word: &'w str) -> &'w str {
    match (failed, skeletons.is_empty()) {
        (0, true) => "ok",
        (0, false) => "not-checked",
        _ => failed_word,
    }
}

fn parse_pc(s: &str) -> Result<u64, Diag> {
    let t = s.trim();
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    };
    v.map_err(|_| Diag::malformed("Dwarf", "bad-pc", format!("`{s}` is not an address")))
}

fn wanted(v: &Variable, var: Option<&str>) -> bool {
    var.is_none_or(|n| {
        v.name == n
            || v.function
                .as_deref()
                .map(|f| format!("{f}::{}", v.name))
                .as_deref()
                == Some(n)
    })
}

/// A variable's heading: `function: parameter name (line, type, size)`.
fn heading(v: &Variable) -> String {
    let mut facts = Vec::new();
    if let Some(l) = v.line {
        facts.push(format!("line {l}"));
    }
    if let Some(t) = &v.type_name {
        facts.push(t.clone());
    }
    if let Some(n) = v.byte_size {
        facts.push(format!("{n} bytes"));
    }
    format!(
        "{}: {} {} ({})",
        v.function.as_deref().unwrap_or("(global)"),
        if v.parameter { "parameter" } else { "variable" },
        v.name,
        facts.join(", ")
    )
}

/// An expression as dioptra's DWARF text, or why it does not decode or
/// does not pass the static check (`dwarf::check`, by DWARF 5's rules, or
/// the extensions' where it uses AMD's operations).
fn shown(bytes: &[u8], vars: &Variables, v: &Variable) -> Result<String, Diag> {
    let info = &vars.units[v.unit];
    let enc = info.enc;
    let ops = decode(bytes, enc)?;
    let text = print(&ops, enc);
    check(
        &ops,
        &info.dwarf_unit(),
        enc,
        Model::in_unit(&ops, info.version),
    )
    .map_err(|d| {
        Diag::new(
            d.outcome,
            d.construct,
            d.reason,
            format!("{} (in `{text}`)", d.message),
        )
    })?;
    Ok(text)
}

fn listing(obj: &Object, vars: &Variables, a: DwarfArgs) -> ExitCode {
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let (mut expressions, mut decoded) = (0usize, 0usize);
    let (mut without, mut constants) = (0usize, 0usize);
    // Printed as it is made, text and JSON alike (a 31 MB libpython's
    // listing held 640 MB of rows and lines before its first line was
    // printed, 1.08 GB as JSON): the JSON object's counts come after its
    // rows.
    let mut listed = 0usize;
    if a.json {
        let head = json!({
            "machine": obj.machine, "relocatable": obj.relocatable, "relocations_not_applied": obj.unapplied,
            "units": vars.units.iter().map(|u| json!({"name": u.name, "version": u.version, "dwo": u.dwo, "dwo_not_read": u.dwo_missing,
                "address_size": u.enc.address_size})).collect::<Vec<_>>(),
        });
        let head = head.to_string();
        // `{...}` less its closing brace, then the rows.
        out!("{},\"variables\":[", &head[..head.len() - 1]);
    } else {
        outln!(
            "{}: {}{}{}; units: {}",
            a.file.display(),
            obj.machine,
            if obj.relocatable {
                ", relocatable (its sections laid out from address 0, in file order)"
            } else {
                ""
            },
            if obj.unapplied > 0 {
                format!(
                    ", {} relocations not applied (kinds dioptra does not apply, such as thread-local or GOT offsets; left as written)",
                    obj.unapplied
                )
            } else {
                String::new()
            },
            vars.units.len()
        );
    }
    let mut unit_shown = usize::MAX;
    for v in vars.variables.iter().filter(|v| wanted(v, a.var)) {
        listed += 1;
        if v.unit != unit_shown && !a.json {
            unit_shown = v.unit;
            let u = &vars.units[v.unit];
            let split = u
                .dwo
                .as_ref()
                .map_or(String::new(), |d| format!(", split DWARF read from `{d}`"));
            outln!(
                "unit {} \"{}\": DWARF {}, {}-byte addresses{split}",
                v.unit,
                u.name,
                u.version,
                u.enc.address_size
            );
        }
        let mut check = |bytes: &[u8]| {
            expressions += 1;
            let r = shown(bytes, vars, v);
            match &r {
                Ok(_) => decoded += 1,
                Err(d) => *reasons.entry(d.prefix()).or_default() += 1,
            }
            r
        };
        let entry = |r: &Result<String, Diag>| match r {
            Ok(t) => json!({"expression": t}),
            Err(d) => json!({"error": d.to_string()}),
        };
        let said = |r: &Result<String, Diag>| match r {
            Ok(t) => t.clone(),
            Err(d) => format!("fails: {d}"),
        };
        let (loc_json, loc_text): (Value, Vec<String>) = match &v.location {
            Location::None => {
                without += 1;
                (json!(null), vec!["no location".into()])
            }
            Location::Constant(_) => {
                constants += 1;
                (
                    json!("constant"),
                    vec!["a constant (DW_AT_const_value)".into()],
                )
            }
            Location::Expr(bytes) => {
                let r = check(bytes);
                (entry(&r), vec![said(&r)])
            }
            Location::List(list) => {
                let mut js = Vec::new();
                let mut lines = vec![format!(
                    "{} {}",
                    list.len(),
                    if list.len() == 1 { "entry" } else { "entries" }
                )];
                for (lo, hi, bytes) in list {
                    let r = check(bytes);
                    let mut e = entry(&r);
                    e["lo"] = json!(lo);
                    e["hi"] = json!(hi);
                    js.push(e);
                    lines.push(format!("  [{lo:#x}, {hi:#x}): {}", said(&r)));
                }
                (json!(js), lines)
            }
        };
        if !a.json {
            outln!("  {}: {}", heading(v), loc_text[0]);
            for l in &loc_text[1..] {
                outln!("  {l}");
            }
            continue;
        }
        if listed > 1 {
            out!(",");
        }
        out!(
            "{}",
            json!({
                "unit": v.unit, "die": v.die, "function": v.function, "name": v.name,
                "parameter": v.parameter, "line": v.line, "type": v.type_name,
                "byte_size": v.byte_size, "function_range": v.function_range.map(|(l, h)| [l, h]),
                "scope": v.scope.as_deref().map(|r| r.iter().map(|&(l, h)| [l, h]).collect::<Vec<_>>()),
                "location": loc_json,
            })
        );
    }
    let failed = expressions - decoded;
    let skipped = skeletons(vars);
    if a.json {
        let tail = json!({
            "outcome": outcome(failed, &skipped, "ill-formed"),
            "split_dwarf_not_read": skipped,
            "expressions": expressions, "passed": decoded,
            "reasons": reasons, "without_location": without, "constants": constants,
        })
        .to_string();
        // The rows' closing bracket, then the counts' members.
        outln!("],{}", &tail[1..]);
    } else {
        outln!(
            "variables: {listed} ({without} without a location, {constants} constants); expressions: {expressions}, {decoded} pass, {failed} fail"
        );
        for (r, n) in &reasons {
            outln!("  {n} {r}");
        }
        for dwo in &skipped {
            outln!("split DWARF: the variables in `{dwo}` are not read");
        }
    }
    exit_code(failed, &skipped)
}

fn located(
    obj: &Object,
    vars: &Variables,
    pc: u64,
    ctx: &dioptra_semantics::context::ConcreteContext,
    a: DwarfArgs,
) -> ExitCode {
    // In scope where its innermost block with pcs is (a variable of an
    // inlined call or a nested block only there, as gdb and lldb list
    // them); a global everywhere.
    let in_scope = |v: &Variable| match (&v.scope, v.function_range) {
        (Some(ranges), _) => ranges.iter().any(|&(lo, hi)| (lo..hi).contains(&pc)),
        (None, Some((lo, hi))) => (lo..hi).contains(&pc),
        (None, None) => v.function.is_none(),
    };
    let mut rows = Vec::new();
    let mut failed = 0usize;
    for v in vars
        .variables
        .iter()
        .filter(|v| wanted(v, a.var) && in_scope(v))
    {
        let (word, loc, value, why) = match at_pc(obj, vars, v, pc, ctx) {
            AtPc::Located {
                loc,
                value,
                uninitialized,
            } => {
                let (value, mut why) = match value {
                    None => (None, Some("the type's size is not known".to_string())),
                    Some(Ok(b)) => (Some(format!("0x{}", b.hex())), None),
                    Some(Err(d)) => (None, Some(d.to_string())),
                };
                if uninitialized {
                    // As gdb prints `[uninitialized]` before the value.
                    let mark = "uninitialized: the expression ends with DW_OP_GNU_uninit";
                    why = Some(why.map_or(mark.to_string(), |w| format!("{mark}; {w}")));
                }
                ("located", Some(loc.to_string()), value, why)
            }
            AtPc::Unavailable(why) => ("unavailable", None, None, Some(why)),
            AtPc::Failed(d) => {
                failed += 1;
                ("failed", None, None, Some(d.to_string()))
            }
        };
        rows.push(
            json!({"function": v.function, "name": v.name, "parameter": v.parameter,
            "outcome": word, "location": loc, "value": value, "why": why}),
        );
        if !a.json {
            let mut line = format!("  {}: {word}", heading(v));
            if let Some(l) = &loc {
                line.push_str(&format!(" at {l}"));
            }
            if let Some(x) = &value {
                line.push_str(&format!(" = {x}"));
            }
            if let Some(w) = &why {
                line.push_str(&format!(" ({w})"));
            }
            outln!("{line}");
        }
    }
    let skipped = skeletons(vars);
    if a.json {
        outln!(
            "{}",
            json!({"outcome": outcome(failed, &skipped, "evaluation-error"), "pc": pc,
                "variables": rows, "split_dwarf_not_read": skipped})
        );
    } else {
        outln!(
            "at {pc:#x}: variables in scope: {}, failed to evaluate: {failed}",
            rows.len()
        );
    }
    exit_code(failed, &skipped)
}
