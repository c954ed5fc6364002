//! The DWARF `llc` wrote, compared with the record it was compiled from
//! for every input, at the one point where the machine state is known in
//! terms of the inputs: the function's first instruction. There the
//! arguments sit where the ABI puts them, with the extension bits the ABI
//! guarantees and nothing more, and every other register holds whatever
//! the caller left.
//!
//! Each variable's location at the entry pc is translated into a classic
//! record over the argument registers ([`classic_of`]) and checked, as a
//! rule, against the *input's* record of the variable (the value the
//! function gives it, as the run under gdb compares with): the same
//! checker, the same verdicts as the passes' records ([`super::validate`]),
//! and a wrong one comes with a counterexample input and upper bits. Where
//! the run under gdb samples inputs, this covers them all; where gdb shows
//! what a debugger makes of the DWARF, this judges the DWARF alone.

use super::readback::{EntryDwarf, Program};
use super::target::Arch;
use super::validate::{self, side, verdict_of, Unstated};
use super::Verdict;
use crate::ir::Module;
use crate::rules::{Expected, Rule, Upper};
use dioptra_semantics::classic::{High, Intrinsic};
use dioptra_semantics::dwarf::op::{DwarfOp, Operand};
use dioptra_semantics::dwarf::unit::BaseType;
use gimli::constants as c;
use std::collections::{BTreeMap, HashMap};

/// One variable's DWARF at its function's entry, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtEntry {
    /// The expression there, as `llvm-dwarfdump` prints it (empty when
    /// there is none).
    pub ops: String,
    /// The rule checked, in `dioptra rule` syntax.
    pub rule: Option<String>,
    /// `Same`, `Refines`, `Wrong` (a counterexample input),
    /// `Dropped` (no location at the entry: legal), `NotCompared` (the
    /// DWARF or the record has no classic form here).
    pub verdict: Verdict,
    /// For a wrong one, the known code generator bug it is, where the
    /// DWARF it should have been shows it ([`FunctionEntry::explain`]).
    pub class: Option<&'static str>,
}

/// The width a `DW_OP_convert` converts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widths {
    /// Its base type's `DW_AT_byte_size`, in bits: what DWARF says.
    Bytes,
    /// The width LLVM names its base type for (`DW_ATE_unsigned_1`), the
    /// value then held in the base type's bytes: what the record asked
    /// for, as a base type with `DW_AT_bit_size` gives it.
    Named,
}

/// A classic record: its operands and its `!DIExpression(...)`.
pub type Classic = (Vec<String>, String);

/// The classic record a DWARF expression at a function's entry is: its
/// operands (the parameters and other registers it reads, in order of
/// first use) and its `!DIExpression(...)`. `regs` maps each argument
/// register to its parameter; any other register but the stack pointer
/// and the argument registers past the ones it maps is an input of its
/// own, `%rN`, that holds anything (what the caller left there).
///
/// DECISION (D-llvm-entry-register-value): a register location
/// (`DW_OP_reg5`) is compared by the value it holds, as the register's
/// contents pushed and made a stack value: a debugger reads the variable's
/// bits from its low end, and whether it could write them there is not
/// what the record says. The other operations map one to one (`DW_OP_bregN
/// off` is the register's value plus `off`; `DW_OP_entry_value(DW_OP_regN)`
/// at the entry is the register's value; `DW_OP_convert` converts to the
/// base type's byte size, which is what DWARF says, whatever the width the
/// record asked for); memory, pieces and the rest are not compared.
pub fn classic_of(
    ops: &[DwarfOp],
    base_types: &BTreeMap<u64, BaseType>,
    regs: &Registers,
    widths: Widths,
) -> Result<Classic, String> {
    let mut operands: Vec<String> = Vec::new();
    let mut items: Vec<String> = Vec::new();
    let mut arg = |reg: u32, items: &mut Vec<String>| -> Result<(), String> {
        let name = match regs.args.get(&reg) {
            Some(name) => name.clone(),
            None if reg == regs.stack_pointer => {
                return Err("it reads the stack pointer".into())
            }
            None if regs.unmapped.contains(&reg) => {
                return Err(format!(
                    "it reads register {reg}, where a parameter dioptra does not map (wider than 64 bits) may be"
                ))
            }
            None => format!("%r{reg}"),
        };
        let k = match operands.iter().position(|o| *o == name) {
            Some(k) => k,
            None => {
                operands.push(name);
                operands.len() - 1
            }
        };
        items.push(format!("DW_OP_LLVM_arg, {k}"));
        Ok(())
    };
    let int = |o: &Operand| match o {
        Operand::U(v) | Operand::Uleb(v) => Some(*v),
        Operand::S(v) => Some(*v as u64),
        _ => None,
    };
    let register_alone = |code: u8, operands: &[Operand]| match code {
        0x50..=0x6f => Some(u32::from(code - 0x50)),
        0x90 => operands.first().and_then(int).map(|r| r as u32),
        _ => None,
    };
    for (k, op) in ops.iter().enumerate() {
        let DwarfOp::Std { code, operands: o } = op else {
            return Err(format!("`{}` is an extension operation", name_of(op)));
        };
        let first = o.first().and_then(int);
        if let Some(reg) = register_alone(*code, o) {
            if ops.len() != 1 {
                return Err("a register location inside a longer expression".into());
            }
            arg(reg, &mut items)?;
            items.push("DW_OP_stack_value".into());
            continue;
        }
        let item = match *code {
            0x30..=0x4f => format!("DW_OP_constu, {}", code - 0x30),
            0x08..=0x11 => format!("DW_OP_constu, {}", first.unwrap_or(0)),
            0x70..=0x8f | 0x92 => {
                let (reg, off) = if *code == 0x92 {
                    (first.unwrap_or(0) as u32, o.get(1).and_then(int))
                } else {
                    (u32::from(code - 0x70), first)
                };
                arg(reg, &mut items)?;
                match off {
                    Some(0) | None => continue,
                    Some(off) => format!("DW_OP_constu, {off}, DW_OP_plus"),
                }
            }
            0xa3 => match o.first() {
                Some(Operand::Expr(inner)) if inner.len() == 1 => {
                    let DwarfOp::Std { code, operands } = &inner[0] else {
                        return Err("an entry value of an extension operation".into());
                    };
                    let Some(reg) = register_alone(*code, operands) else {
                        return Err("an entry value of more than a register".into());
                    };
                    arg(reg, &mut items)?;
                    continue;
                }
                _ => return Err("an entry value of more than a register".into()),
            },
            0xa8 => {
                let Some(t) = first.and_then(|off| base_types.get(&off)) else {
                    return Err("a conversion to the generic type or an unknown base type".into());
                };
                let enc = match t.encoding {
                    c::DW_ATE_signed | c::DW_ATE_signed_char => "DW_ATE_signed",
                    c::DW_ATE_unsigned | c::DW_ATE_unsigned_char | c::DW_ATE_boolean => {
                        "DW_ATE_unsigned"
                    }
                    other => {
                        return Err(format!("a conversion to a base type of encoding {other}"))
                    }
                };
                let named = t
                    .name
                    .rsplit('_')
                    .next()
                    .and_then(|n| n.parse::<u64>().ok());
                let bytes = t.byte_size * 8;
                match (widths, named) {
                    // The value of the named width, held in the base
                    // type's bytes (extended as its encoding says).
                    (Widths::Named, Some(n)) if n < bytes => format!(
                        "DW_OP_LLVM_convert, {n}, {enc}, DW_OP_LLVM_convert, {bytes}, {enc}"
                    ),
                    _ => format!("DW_OP_LLVM_convert, {bytes}, {enc}"),
                }
            }
            0x23 => format!("DW_OP_plus_uconst, {}", first.unwrap_or(0)),
            0x9f if k + 1 == ops.len() => "DW_OP_stack_value".to_string(),
            code => match simple(code) {
                Some(n) => n.to_string(),
                None => return Err(format!("`{}` has no classic form here", name_of(op))),
            },
        };
        items.push(item);
    }
    if items.last().is_some_and(|i| i != "DW_OP_stack_value") {
        return Err(
            "a memory location (memory at the entry holds no argument dioptra knows)".into(),
        );
    }
    Ok((operands, format!("!DIExpression({})", items.join(", "))))
}

/// The operations without operands that classic expressions have under
/// the same name.
fn simple(code: u8) -> Option<&'static str> {
    Some(match code {
        0x12 => "DW_OP_dup",
        0x13 => "DW_OP_drop",
        0x14 => "DW_OP_over",
        0x16 => "DW_OP_swap",
        0x1a => "DW_OP_and",
        0x1b => "DW_OP_div",
        0x1c => "DW_OP_minus",
        0x1d => "DW_OP_mod",
        0x1e => "DW_OP_mul",
        0x1f => "DW_OP_neg",
        0x20 => "DW_OP_not",
        0x21 => "DW_OP_or",
        0x22 => "DW_OP_plus",
        0x24 => "DW_OP_shl",
        0x25 => "DW_OP_shr",
        0x26 => "DW_OP_shra",
        0x27 => "DW_OP_xor",
        0x29 => "DW_OP_eq",
        0x2a => "DW_OP_ge",
        0x2b => "DW_OP_gt",
        0x2c => "DW_OP_le",
        0x2d => "DW_OP_lt",
        0x2e => "DW_OP_ne",
        _ => return None,
    })
}

fn name_of(op: &DwarfOp) -> String {
    match op {
        DwarfOp::Std { code, .. } => c::DwOp(*code)
            .static_string()
            .map_or_else(|| format!("DW_OP_0x{code:02x}"), str::to_string),
        DwarfOp::Amd { op, .. } => op.name().to_string(),
    }
}

/// Where a function's parameters are at its entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registers {
    /// The parameter each argument register holds.
    pub args: BTreeMap<u32, String>,
    /// Argument registers that may hold a parameter dioptra does not map.
    pub unmapped: Vec<u32>,
    pub stack_pointer: u32,
}

/// The parameters of a function by the register they arrive in on `arch`,
/// and what the ABI guarantees of the bits above each narrow one.
///
/// DECISION (D-llvm-entry-abi): an `i1`, `i8` or `i16` parameter with
/// `signext` or `zeroext` arrives extended that way to 32 bits, and its
/// register's bits above 31 hold anything; one without an attribute, and a
/// 32-bit one, has nothing above its width guaranteed. That is what LLVM's
/// x86-64 and AArch64 callers write (the psABI promises the 32 bits;
/// AAPCS64 promises less, and LLVM's caller-side extension is what its
/// callees rely on). Integer and pointer parameters of at most 64 bits
/// take the argument registers in order; the first one that does not
/// (an `i128`, a vector) ends the mapping, so a register past it is not
/// a parameter's.
pub fn abi(arch: Arch, f: &crate::ir::Function) -> (Registers, Vec<(String, Vec<Upper>)>) {
    let mut regs = Registers {
        stack_pointer: arch.stack_pointer() as u32,
        ..Registers::default()
    };
    let mut upper = Vec::new();
    let decls = super::codegen::param_decls(f);
    let free = arch.argument_registers();
    for (k, ((name, ty), decl)) in validate::params(f).into_iter().zip(decls).enumerate() {
        let width = if ty.starts_with("ptr") {
            Some(arch.pointer_bits() as u64)
        } else {
            ty.strip_prefix('i').and_then(|w| w.parse::<u64>().ok())
        };
        let Some(width) = width.filter(|w| *w <= 64) else {
            regs.unmapped = free.get(k..).unwrap_or_default().to_vec();
            break;
        };
        let Some(reg) = free.get(k) else {
            break;
        };
        regs.args.insert(*reg, name.clone());
        if width < 32 {
            let kind = if decl.contains("signext") {
                Some(High::Sign)
            } else if decl.contains("zeroext") {
                Some(High::Zero)
            } else {
                None
            };
            if let Some(kind) = kind {
                upper.push((name, vec![Upper { kind, to: 32 }]));
            }
        }
    }
    (regs, upper)
}

/// Each variable of each function of `before` that its input describes
/// with one record, at its function's entry in `program`: its DWARF there
/// checked against that record. Verdicts are cached by rule text.
pub fn check(
    before: &Module,
    program: &Program,
    arch: Arch,
    timeout_ms: u32,
    cache: &mut HashMap<String, Verdict>,
) -> BTreeMap<(String, String), AtEntry> {
    let mut out = BTreeMap::new();
    for f in &before.functions {
        let function = FunctionEntry {
            arch,
            abi: abi(arch, f),
            params: validate::params(f),
            defs: validate::definitions(f),
        };
        let records = validate::records(before, f);
        for (var, r) in &records {
            if records.iter().filter(|(v, _)| v == var).count() != 1 {
                continue;
            }
            let Some(dwarf) = program.at_entry(&f.name, var) else {
                continue;
            };
            let name = format!("{}-{var}-at-entry", f.name);
            // Cached by the rule's text without its name: functions alike
            // share their verdicts.
            let mut judge = |rule: &Rule| {
                let text = validate::rule_text(rule);
                let key = text.split_once('\n').map_or("", |(_, k)| k).to_string();
                let v = cache
                    .entry(key)
                    .or_insert_with(|| verdict_of(rule, timeout_ms))
                    .clone();
                (text, v)
            };
            let judged = function.judge(&name, r, dwarf, &mut judge);
            out.insert((f.name.clone(), var.clone()), judged);
        }
    }
    out
}

/// What the entry check knows of one function.
struct FunctionEntry {
    arch: Arch,
    abi: (Registers, Vec<(String, Vec<Upper>)>),
    params: Vec<(String, String)>,
    defs: HashMap<String, String>,
}

impl FunctionEntry {
    /// The variable whose input record is `r`, with `dwarf` at the entry.
    fn judge(
        &self,
        name: &str,
        r: &crate::ir::Record,
        dwarf: EntryDwarf<'_>,
        judge: &mut dyn FnMut(&Rule) -> (String, Verdict),
    ) -> AtEntry {
        let w = self.arch.pointer_bits();
        let not = |ops: String, verdict: Verdict| AtEntry {
            ops,
            rule: None,
            verdict,
            class: None,
        };
        let mut source = match side(r, &self.defs, &self.params, "b") {
            Ok(s) => s,
            Err(Unstated::Dropped(why) | Unstated::NotCompared(why)) => {
                return not(String::new(), Verdict::NotCompared(why))
            }
        };
        byte_of_bool(&mut source, r);
        let rule = |(operands, expr): &Classic| {
            entry_rule(name, &self.params, &self.abi.1, operands, expr, &source, w)
        };
        let (ops, text, base_types) = match dwarf {
            EntryDwarf::NoLocation => {
                return not(
                    String::new(),
                    Verdict::Dropped("no location at the entry".into()),
                )
            }
            EntryDwarf::Unread(why) => return not(String::new(), Verdict::NotCompared(why)),
            EntryDwarf::Constant(_) if wider_than(r, w) => {
                return not(
                    String::new(),
                    Verdict::NotCompared(format!(
                        "a constant value of a variable wider than the {w}-bit generic type a classic constant has"
                    )),
                )
            }
            EntryDwarf::Constant(v) => {
                // The generic type's width: the pattern cut to it.
                let expr = format!(
                    "!DIExpression(DW_OP_constu, {}, DW_OP_stack_value)",
                    v & (u64::MAX >> (64 - w))
                );
                let (key, verdict) = judge(&rule(&(Vec::new(), expr)));
                return AtEntry {
                    ops: format!("DW_AT_const_value {v:#x}"),
                    rule: Some(key),
                    verdict,
                    class: None,
                };
            }
            EntryDwarf::Expr { text, .. } if self.arch.argument_registers().is_empty() => {
                return not(
                    text,
                    Verdict::NotCompared("the arguments are on the stack".into()),
                )
            }
            EntryDwarf::Expr {
                ops,
                text,
                base_types,
            } => (ops, text, base_types),
        };
        let translated = match classic_of(&ops, base_types, &self.abi.0, Widths::Bytes) {
            Ok(t) => t,
            Err(why) => return not(text, Verdict::NotCompared(why)),
        };
        let (key, verdict) = judge(&rule(&translated));
        let class = match verdict {
            Verdict::Wrong { ref detail, .. }
                if convert_then_generic(detail, &translated.1, &validate::record_text(r)) =>
            {
                Some("isel-convert-then-generic")
            }
            Verdict::Wrong { .. } => self.explain(&ops, base_types, &translated, &rule, judge),
            _ => None,
        };
        AtEntry {
            ops: text,
            rule: Some(key),
            verdict,
            class,
        }
    }

    /// The known code generator bug a wrong entry is, each shown by the
    /// DWARF it should have been: the same, where the DWARF was wrong, with
    /// that one thing changed.
    ///
    /// * `location-before-value`: it reads a register that holds no
    ///   argument at the entry (what the caller left there);
    /// * `convert-without-bit-size`: with each conversion to the width its
    ///   base type is named for (`DW_ATE_unsigned_1`), not its byte size,
    ///   it is the same;
    /// * `isel-salvage-ashr`, `isel-salvage-lshr`: the record's value is
    ///   a narrow `ashr` (`lshr`) the DWARF does as `DW_OP_shra`
    ///   (`DW_OP_shr`), and with each narrow parameter's register sign-
    ///   (zero-) extended from the parameter's width first, it is the same:
    ///   the register's upper bits shifted into the value are the error;
    /// * `i1-upper-bits`: with its value masked to bit 0, it is the same.
    fn explain(
        &self,
        ops: &[DwarfOp],
        base_types: &BTreeMap<u64, BaseType>,
        translated: &Classic,
        rule: &dyn Fn(&Classic) -> Rule,
        judge: &mut dyn FnMut(&Rule) -> (String, Verdict),
    ) -> Option<&'static str> {
        // The parameters the record's value depends on.
        let plain = rule(translated);
        let depends: Vec<String> = plain
            .lets
            .iter()
            .flat_map(|(_, t)| validate::value_names(t))
            .filter(|n| self.params.iter().any(|(p, _)| p == n))
            .collect();
        if !translated.0.iter().all(|o| depends.contains(o)) {
            return Some("location-before-value");
        }
        let same = |t: &Classic, judge: &mut dyn FnMut(&Rule) -> (String, Verdict)| {
            judge(&rule(t)).1 == Verdict::Same
        };
        if let Ok(named) = classic_of(ops, base_types, &self.abi.0, Widths::Named) {
            if named != *translated && same(&named, judge) {
                return Some("convert-without-bit-size");
            }
        }
        for (shift, dwarf, kind) in [
            ("ashr", "DW_OP_shra", High::Sign),
            ("lshr", "DW_OP_shr", High::Zero),
        ] {
            let narrow = |t: &String| {
                t.strip_prefix(shift)
                    .and_then(|r| r.split_whitespace().find(|w| w.starts_with('i')))
                    .and_then(|w| w[1..].parse::<u32>().ok())
                    .is_some_and(|w| w < 64)
            };
            if plain.lets.iter().any(|(_, t)| narrow(t))
                && translated.1.contains(&format!("{dwarf},"))
                && same(&self.extended(translated, kind), judge)
            {
                return Some(if shift == "ashr" {
                    "isel-salvage-ashr"
                } else {
                    "isel-salvage-lshr"
                });
            }
        }
        if let Some(e) = translated.1.strip_suffix("DW_OP_stack_value)") {
            let masked = (
                translated.0.clone(),
                format!("{e}DW_OP_constu, 1, DW_OP_and, DW_OP_stack_value)"),
            );
            let a_bool = plain.source.ends_with("!DIExpression()")
                && plain
                    .lets
                    .last()
                    .is_some_and(|(_, t)| t.starts_with("zext i1 "));
            if a_bool && same(&masked, judge) {
                return Some("i1-upper-bits");
            }
        }
        None
    }
}

impl FunctionEntry {
    /// `translated` with each parameter narrower than 64 bits extended
    /// from its width (`High::Sign`, `High::Zero`) where it is pushed, in
    /// generic arithmetic: `x & m` to zero-extend, `((x & m) ^ s) - s` to
    /// sign-extend (`m` the width's mask, `s` its sign bit).
    fn extended(&self, translated: &Classic, kind: High) -> Classic {
        let width = |k: usize| {
            let name = translated.0.get(k)?;
            let (_, ty) = self.params.iter().find(|(p, _)| p == name)?;
            ty.strip_prefix('i')?
                .parse::<u32>()
                .ok()
                .filter(|w| *w < 64)
        };
        let inner = translated
            .1
            .strip_prefix("!DIExpression(")
            .and_then(|e| e.strip_suffix(')'))
            .unwrap_or_default();
        let words: Vec<&str> = inner.split(", ").collect();
        let mut out: Vec<String> = Vec::new();
        let mut k = 0;
        while k < words.len() {
            out.push(words[k].to_string());
            if words[k] == "DW_OP_LLVM_arg" && k + 1 < words.len() {
                out.push(words[k + 1].to_string());
                if let Some(w) = words[k + 1].parse::<usize>().ok().and_then(width) {
                    let mask = u64::MAX >> (64 - w);
                    out.push(format!("DW_OP_constu, {mask}, DW_OP_and"));
                    if kind == High::Sign {
                        let sign = 1u64 << (w - 1);
                        out.push(format!(
                            "DW_OP_constu, {sign}, DW_OP_xor, DW_OP_constu, {sign}, DW_OP_minus"
                        ));
                    }
                }
                k += 1;
            }
            k += 1;
        }
        (
            translated.0.clone(),
            format!("!DIExpression({})", out.join(", ")),
        )
    }
}

/// `isel-convert-then-generic` at the entry: the DWARF is ill-formed by a
/// typed value and a generic one in one operation (DWARF 5, 2.5.1.4),
/// after a `DW_OP_convert` the input's record (`record`) does not have:
/// instruction selection's salvage of a cast put its conversions before
/// the record's generic operations.
fn convert_then_generic(detail: &str, dwarf: &str, record: &str) -> bool {
    detail.contains("type-mismatch")
        && dwarf.contains("DW_OP_LLVM_convert")
        && !record.contains("DW_OP_LLVM_convert")
}

/// Does a record have an operand wider than `w` bits?
fn wider_than(r: &crate::ir::Record, w: u32) -> bool {
    r.operands.iter().any(|o| {
        o.ty.strip_prefix('i')
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n > w)
    })
}

/// A record of an `i1` alone is read by a debugger as the byte DWARF's
/// boolean is (as the run under gdb compares it): its value zero-extended
/// to 8 bits.
fn byte_of_bool(source: &mut validate::Side, record: &crate::ir::Record) {
    let plain = record.expr.as_ref().is_none_or(|e| match e {
        crate::ir::Md::Node(n) => n.text == "!DIExpression()",
        _ => false,
    });
    if !(plain && record.operands.len() == 1 && record.operands[0].ty == "i1") {
        return;
    }
    let Some((operand, _)) = source.record.split_once(", ") else {
        return;
    };
    let name = format!("%b{}", source.lets.len());
    let zext = format!("zext i1 {operand} to i8");
    source.lets.push((name.clone(), zext));
    source.record = format!("{name}, !DIExpression()");
}

/// The rule: the input's record (`source`) against the DWARF at the entry
/// (`operands`, `expr`), under the ABI's upper bits alone.
fn entry_rule(
    name: &str,
    params: &[(String, String)],
    upper: &[(String, Vec<Upper>)],
    operands: &[String],
    expr: &str,
    source: &validate::Side,
    pointer_bits: u32,
) -> Rule {
    let mut inputs = params.to_vec();
    for o in operands {
        if !params.iter().any(|(p, _)| p == o) {
            inputs.push((o.clone(), format!("i{pointer_bits}")));
        }
    }
    let target = if operands.is_empty() {
        expr.to_string()
    } else {
        format!("!DIArgList({}), {expr}", operands.join(", "))
    };
    Rule {
        name: name.to_string(),
        line: 0,
        types: Vec::new(),
        // A register holds bits, never poison: each one the DWARF reads is
        // defined (a precondition naming a value asks that of it).
        pre: operands.iter().map(|o| format!("{o} >= 0")).collect(),
        inputs,
        source: source.record.clone(),
        target,
        expect: Expected::Valid,
        decisions: Vec::new(),
        classic: Some(Intrinsic::Value),
        highs: vec![High::Any],
        upper: upper.to_vec(),
        variable: None,
        pointers: vec![pointer_bits],
        lets: source.lets.clone(),
        witnesses: Vec::new(),
        around: Vec::new(),
        explain: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dioptra_semantics::dwarf::op::Operands;

    fn op(code: u8, operands: &[Operand]) -> DwarfOp {
        DwarfOp::Std {
            code,
            operands: Operands::from(operands.to_vec()),
        }
    }

    fn args() -> Registers {
        Registers {
            args: [(5, "%x0".to_string()), (4, "%x1".to_string())].into(),
            unmapped: vec![1],
            stack_pointer: 7,
        }
    }

    #[test]
    fn dwarf_becomes_a_classic_record_over_the_argument_registers() {
        let none = BTreeMap::new();
        // DW_OP_reg5: rdi's value.
        assert_eq!(
            classic_of(&[op(0x55, &[])], &none, &args(), Widths::Bytes),
            Ok((
                vec!["%x0".to_string()],
                "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_stack_value)".to_string()
            ))
        );
        // DW_OP_breg4 -3, DW_OP_breg5 0, DW_OP_minus, DW_OP_lit7, DW_OP_shr,
        // DW_OP_stack_value: operands in order of first use.
        let e = [
            op(0x74, &[Operand::S(-3)]),
            op(0x75, &[Operand::S(0)]),
            op(0x1c, &[]),
            op(0x37, &[]),
            op(0x25, &[]),
            op(0x9f, &[]),
        ];
        assert_eq!(
            classic_of(&e, &none, &args(), Widths::Bytes),
            Ok((
                vec!["%x1".to_string(), "%x0".to_string()],
                "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_constu, 18446744073709551613, DW_OP_plus, DW_OP_LLVM_arg, 1, DW_OP_minus, DW_OP_constu, 7, DW_OP_shr, DW_OP_stack_value)".to_string()
            ))
        );
        // A register no argument arrives in (rax) is an input of its own;
        // an entry value of rdi is rdi at the entry.
        let e = [
            op(0x70, &[Operand::S(0)]),
            op(0xa3, &[Operand::Expr(vec![op(0x55, &[])])]),
            op(0x1a, &[]),
            op(0x9f, &[]),
        ];
        assert_eq!(
            classic_of(&e, &none, &args(), Widths::Bytes).map(|(o, _)| o),
            Ok(vec!["%r0".to_string(), "%x0".to_string()])
        );
        // A conversion converts to its base type's size in bytes.
        let types: BTreeMap<u64, BaseType> = [(
            0x31,
            BaseType {
                encoding: c::DW_ATE_unsigned,
                byte_size: 1,
                name: "DW_ATE_unsigned_1".into(),
            },
        )]
        .into();
        let e = [
            op(0x75, &[Operand::S(0)]),
            op(0xa8, &[Operand::Uleb(0x31)]),
            op(0x9f, &[]),
        ];
        assert_eq!(
            classic_of(&e, &types, &args(), Widths::Bytes).map(|(_, e)| e),
            Ok("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_stack_value)".into())
        );
        // What LLVM meant: the value of 1 bit, held in the byte.
        assert_eq!(
            classic_of(&e, &types, &args(), Widths::Named).map(|(_, e)| e),
            Ok("!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_stack_value)".into())
        );
        assert!(
            classic_of(&e, &none, &args(), Widths::Bytes).is_err(),
            "an unknown base type"
        );
        // Not compared: memory, pieces, a register inside an expression,
        // the stack pointer, a register a parameter dioptra does not map
        // may occupy.
        for e in [
            vec![op(0x91, &[Operand::S(8)])],
            vec![op(0x77, &[Operand::S(8)]), op(0x9f, &[])],
            vec![op(0x51, &[])],
            vec![op(0x55, &[]), op(0x93, &[Operand::Uleb(4)])],
            vec![op(0x75, &[Operand::S(0)]), op(0x06, &[])],
            vec![op(0x75, &[Operand::S(8)])],
        ] {
            assert!(
                classic_of(&e, &none, &args(), Widths::Bytes).is_err(),
                "{e:?}"
            );
        }
    }

    #[test]
    fn a_conversion_before_generic_operations_is_isel_convert_then_generic() {
        // f1072's v1 (seed 2026, early-cse): `trunc i8 %x0 to i1` salvaged
        // at instruction selection, then the record's `or` with 0.
        let dwarf = "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_constu, 4294967295, DW_OP_and, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_constu, 0, DW_OP_or, DW_OP_stack_value)";
        let mismatch = "the target is ill-formed: DW_OP_or: type-mismatch: operands of types `unsigned 8` and `generic`";
        assert!(convert_then_generic(
            mismatch,
            dwarf,
            "i1 %v1, !DIExpression()"
        ));
        assert!(
            !convert_then_generic(mismatch, dwarf, "i8 %x0, !DIExpression(DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_LLVM_convert, 1, DW_ATE_unsigned, DW_OP_constu, 0, DW_OP_or, DW_OP_stack_value)"),
            "the record's own conversions: opt's convert-then-generic, not llc's"
        );
        assert!(
            !convert_then_generic("a different value", dwarf, "i1 %v1, !DIExpression()"),
            "wrong, but well-formed"
        );
    }

    #[test]
    fn a_constant_wider_than_the_generic_type_is_not_compared() {
        let m = crate::ir::parse(
            "define void @f(i64 %x) !dbg !0 {\nentry:\n    #dbg_value(i64 %x, !1, !DIExpression(), !0)\n  ret void\n}\n!0 = distinct !DISubprogram(name: \"f\")\n!1 = !DILocalVariable(name: \"x\", scope: !0)\n",
        )
        .unwrap();
        let r = validate::records(&m, &m.functions[0])[0].1;
        assert!(wider_than(r, 32), "an i64 on i686");
        assert!(!wider_than(r, 64));
    }

    fn function(header: &str) -> crate::ir::Function {
        let m = crate::ir::parse(&format!("{header} {{\nentry:\n  ret void\n}}\n")).unwrap();
        m.functions[0].clone()
    }

    #[test]
    fn the_abi_gives_registers_and_upper_bits() {
        let f = function("define void @f(i8 signext %a, i16 zeroext %b, i8 %c, i32 %d, ptr %e)");
        let (regs, upper) = abi(Arch::X86_64, &f);
        let names: Vec<&str> = [5, 4, 1, 2, 8]
            .iter()
            .map(|r| regs.args[r].as_str())
            .collect();
        assert_eq!(names, ["%a", "%b", "%c", "%d", "%e"]);
        assert_eq!(
            upper,
            vec![
                (
                    "%a".to_string(),
                    vec![Upper {
                        kind: High::Sign,
                        to: 32
                    }]
                ),
                (
                    "%b".to_string(),
                    vec![Upper {
                        kind: High::Zero,
                        to: 32
                    }]
                ),
            ],
            "no promise for %c, nothing above an i32 or a pointer"
        );
        let (regs, _) = abi(Arch::AArch64, &f);
        assert_eq!(
            regs.args.keys().copied().collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(regs.stack_pointer, 31);
        assert!(abi(Arch::I686, &f).0.args.is_empty(), "on the stack");
        // An i128 ends the mapping: the registers from it on may hold it.
        let f = function("define void @g(i64 %a, i128 %b, i32 %c)");
        let (regs, _) = abi(Arch::X86_64, &f);
        assert_eq!(regs.args.len(), 1);
        assert_eq!(regs.unmapped, [4, 1, 2, 8, 9]);
    }
}

#[cfg(test)]
mod on_real_objects {
    use super::*;
    use std::path::Path;

    /// The entry check of `corpus/real/llvm/NAME.{ll,o}`, the `.ll`
    /// standing as the input module (it is what `llc` compiled).
    fn judged(name: &str, arch: Arch) -> BTreeMap<(String, String), AtEntry> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/real/llvm");
        let text = std::fs::read_to_string(dir.join(format!("{name}.ll"))).unwrap();
        let module = crate::ir::parse(&text).unwrap();
        let program = Program::read(&dir.join(format!("{name}.o"))).unwrap();
        check(&module, &program, arch, 5_000, &mut HashMap::new())
    }

    fn word(j: &BTreeMap<(String, String), AtEntry>, f: &str, v: &str) -> &'static str {
        j[&(f.to_string(), v.to_string())].verdict.word()
    }

    #[test]
    fn a_dead_ashr_salvaged_by_llc_is_wrong_at_the_entry_for_some_input() {
        // E-run-isel-salvage-ashr: `DW_OP_breg0 0, DW_OP_lit30, DW_OP_shra`
        // for `ashr i32 %x0, 30` shifts the 64-bit register.
        let j = judged("isel-salvage-ashr-aarch64", Arch::AArch64);
        let v0 = &j[&("f18".to_string(), "v0".to_string())];
        assert_eq!(
            v0.ops,
            "DW_OP_breg0 0, DW_OP_lit30, DW_OP_shra, DW_OP_stack_value"
        );
        assert_eq!(v0.verdict.word(), "wrong", "{:?}", v0.verdict);
        assert!(v0
            .rule
            .as_deref()
            .is_some_and(|r| r.contains("pointers 64")));
        assert_eq!(word(&j, "f18", "x0"), "same");
        assert_eq!(word(&j, "f18", "x1"), "same");
        assert_eq!(word(&j, "f18", "v2"), "dropped", "no location at the entry");
        assert_eq!(v0.class, Some("isel-salvage-ashr"));
    }

    #[test]
    fn a_dead_lshr_salvaged_by_llc_reads_bits_the_abi_leaves_unspecified() {
        // E-run-isel-salvage-lshr: `DW_OP_breg0 0, DW_OP_lit6, DW_OP_shr`
        // for `lshr i8 %x0, 6`, an i8 without `zeroext`.
        let j = judged("isel-salvage-lshr-aarch64", Arch::AArch64);
        let v2 = &j[&("f38".to_string(), "v2".to_string())];
        assert_eq!(v2.verdict.word(), "wrong", "{:?}", v2.verdict);
        assert_eq!(v2.class, Some("isel-salvage-lshr"));
        assert!(v2.rule.as_deref().is_some_and(|r| !r.contains("upper")));
        assert_eq!(word(&j, "f38", "x0"), "same");
    }

    #[test]
    fn a_register_holding_another_argument_at_the_entry_is_location_before_value() {
        // E-run-location-before-value on aarch64: v0 (`trunc i16 %x1`) is
        // DW_OP_reg0, where the pointer %x0 still is at the entry.
        let j = judged("location-before-value-aarch64", Arch::AArch64);
        let v0 = &j[&("f4".to_string(), "v0".to_string())];
        assert_eq!(v0.verdict.word(), "wrong", "{:?}", v0.verdict);
        assert_eq!(v0.class, Some("location-before-value"));
        assert_eq!(word(&j, "f4", "x1"), "same");
    }

    #[test]
    fn a_register_holding_no_argument_at_the_entry_holds_anything() {
        // E-run-location-before-value: v0's location list names rax from
        // the entry, where `sete %al` has not run yet.
        let j = judged("location-before-value-arglist", Arch::X86_64);
        let v0 = &j[&("f7782".to_string(), "v0".to_string())];
        assert_eq!(v0.ops, "DW_OP_reg0");
        assert_eq!(v0.verdict.word(), "wrong");
        assert!(v0.verdict.reason().is_some_and(|r| r.contains("%r0 = ")));
        assert_eq!(v0.class, Some("location-before-value"));
        assert_eq!(word(&j, "f7782", "x0"), "same");
    }

    #[test]
    fn what_is_not_compared_says_why() {
        // An i128 in rsi:rdx: rsi is not mapped to a parameter.
        let j = judged("wide-i128-argument", Arch::X86_64);
        assert_eq!(word(&j, "f1", "x0"), "same");
        let x1 = &j[&("f1".to_string(), "x1".to_string())].verdict;
        assert!(
            x1.reason().is_some_and(|r| r.contains("register 4")),
            "{x1:?}"
        );
        // i686: the arguments are on the stack.
        let j = judged("location-before-value", Arch::I686);
        assert!(j.values().all(|e| e.verdict.word() == "not-compared"));
        // Memory: a spilled argument (`DW_OP_fbreg`).
        let j = judged("stack-value-narrower", Arch::X86_64);
        assert_eq!(word(&j, "f49", "x0"), "not-compared");
    }

    /// The entry check of `corpus/real/llvm/NAME.o` against an input
    /// module written here: one function `header` whose `body` defines
    /// `%vN`, with a plain record of each `(variable, type)`.
    fn judged_against(
        name: &str,
        header: &str,
        body: &str,
        vars: &[(&str, &str)],
    ) -> BTreeMap<(String, String), AtEntry> {
        let mut text = format!("{header} !dbg !0 {{\nentry:\n{body}");
        let mut md = String::from("!0 = distinct !DISubprogram(name: \"f\")\n");
        for (k, (v, ty)) in vars.iter().enumerate() {
            text += &format!(
                "    #dbg_value({ty} %{v}, !{}, !DIExpression(), !0)\n",
                k + 1
            );
            md += &format!("!{} = !DILocalVariable(name: \"{v}\", scope: !0)\n", k + 1);
        }
        text += &format!("  ret void\n}}\n{md}");
        let module = crate::ir::parse(&text).unwrap();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/real/llvm");
        let program = Program::read(&dir.join(format!("{name}.o"))).unwrap();
        check(&module, &program, Arch::X86_64, 5_000, &mut HashMap::new())
    }

    #[test]
    fn a_bool_converted_to_a_whole_byte_is_convert_without_bit_size() {
        // f16's v1 is `trunc i32 %x0 to i1`: LLVM's `DW_OP_LLVM_convert 1`
        // became a conversion to a one-byte base type.
        let j = judged_against(
            "convert-without-bit-size",
            "define void @f16(i32 %x0)",
            "  %v1 = trunc i32 %x0 to i1\n",
            &[("x0", "i32"), ("v1", "i1")],
        );
        let v1 = &j[&("f16".to_string(), "v1".to_string())];
        assert_eq!(v1.verdict.word(), "wrong", "{v1:?}");
        assert_eq!(v1.class, Some("convert-without-bit-size"));
        let x0 = &j[&("f16".to_string(), "x0".to_string())];
        assert_eq!((x0.verdict.word(), x0.class), ("same", None));
    }

    #[test]
    fn a_bool_or_true_as_all_ones_is_i1_upper_bits() {
        // f7's v4 is `or i1 (icmp ne i8 %x0, 5), true`: 1, described as
        // the comparison or'ed with all ones.
        let j = judged_against(
            "i1-upper-bits",
            "define void @f7(i8 signext %x0)",
            "  %v1 = icmp ne i8 %x0, 5\n  %v4 = or i1 %v1, true\n",
            &[("v1", "i1"), ("v4", "i1")],
        );
        let v4 = &j[&("f7".to_string(), "v4".to_string())];
        assert_eq!(v4.verdict.word(), "wrong", "{v4:?}");
        assert_eq!(v4.class, Some("i1-upper-bits"));
        // v1's DWARF is `(rdi & 0xffffffff) != 5`: 0 or 1, right for a
        // signext i8 whatever rdi's upper half holds.
        let v1 = &j[&("f7".to_string(), "v1".to_string())];
        assert_eq!(v1.verdict.word(), "same", "{v1:?}");
    }
}
