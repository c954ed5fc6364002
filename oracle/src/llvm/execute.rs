//! The values a function's variables take on one input: the function run
//! instruction by instruction with dioptra's IR semantics
//! (`dioptra_semantics::classic::ir`), and each `dbg_value` record's value
//! read off. This is the value a debugger must show for the variable: the
//! code generator's and the debugger's answers (`super::codegen`) are
//! compared with it.
//!
//! Only straight-line functions of the instructions the IR semantics
//! models are run; a record whose value depends on anything else has no
//! expected value (`None`), and is not compared.

use crate::ir::{Function, InstKind, Module, RecordKind};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::classic::ir::{eval_inst_poison, parse_inst, BinOp, Inst};
use dioptra_semantics::types::DataLayout;
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};

/// A variable's value on one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The value's width in bits (the record's operand type).
    pub bits: u64,
    /// `None`: poison, so any value a debugger shows is right.
    pub value: Option<Bits>,
}

/// The layout instructions are read with: LLVM's default with pointers of
/// `pointer_bits`.
pub fn layout(pointer_bits: u32) -> DataLayout {
    let mut l = DataLayout::llvm_default();
    l.set_pointer_bits(0, pointer_bits);
    l
}

/// A constant operand of `bits` bits as IR writes it (`-7`, `true`,
/// `null`), or `None` for anything else.
fn constant(text: &str, bits: u64) -> Option<Bits> {
    let v: BigInt = match text {
        "true" => 1.into(),
        "false" | "null" | "zeroinitializer" => 0.into(),
        t => t.parse().ok()?,
    };
    Some(Bits::from_bigint(bits, &v))
}

/// The value of operand `text` (`%v1`, a constant) of `bits` bits:
/// `Err(())` when it is neither a known value nor a constant.
fn operand(text: &str, bits: u64, env: &HashMap<String, Option<Bits>>) -> Result<Option<Bits>, ()> {
    if text.starts_with('%') {
        env.get(text).cloned().ok_or(())
    } else {
        constant(text, bits).map(Some).ok_or(())
    }
}

/// One run of a function on one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// Each variable's value, by name, as the function's first
    /// `dbg_value` record of it with an empty expression gives it.
    /// Variables whose value cannot be computed are left out.
    pub records: BTreeMap<String, Expected>,
    /// Every value the function computed (parameters and instruction
    /// results, by `%name`), with its width; `None` is poison.
    pub values: BTreeMap<String, Expected>,
    /// The first instruction that is immediate undefined behaviour on this
    /// input (LangRef: a division by zero or by poison, `INT_MIN / -1`):
    /// the program may trap there, and nothing after it is defined.
    pub undefined: Option<String>,
}

/// Runs `f` on `args` (one per parameter, in order, each of its
/// parameter's width), instruction by instruction, until the end or the
/// first undefined behaviour.
pub fn run(m: &Module, f: &Function, args: &[Bits], pointer_bits: u32) -> Run {
    let layout = layout(pointer_bits);
    let mut env: HashMap<String, Option<Bits>> = HashMap::new();
    let mut out = Run::default();
    for ((name, _), v) in super::validate::params(f).iter().zip(args) {
        env.insert(name.clone(), Some(v.clone()));
        out.values.insert(
            name.clone(),
            Expected {
                bits: v.width(),
                value: Some(v.clone()),
            },
        );
    }
    for b in &f.blocks {
        for i in &b.insts {
            match (&i.result, &i.kind) {
                (Some(_), InstKind::Plain) => {
                    let Some((name, text)) = named_instruction(i) else {
                        continue;
                    };
                    match run_inst(text, &layout, &env) {
                        Step::Value(bits, v) => {
                            out.values.insert(
                                name.clone(),
                                Expected {
                                    bits,
                                    value: v.clone(),
                                },
                            );
                            env.insert(name, v);
                        }
                        Step::Undefined => {
                            out.undefined = Some(i.text.trim().to_string());
                            return out;
                        }
                        Step::Unknown => {}
                    }
                }
                (None, InstKind::Record(r)) if r.kind == RecordKind::Value => {
                    let empty = match &r.expr {
                        Some(crate::ir::Md::Node(n)) => {
                            n.text.replace(' ', "") == "!DIExpression()"
                        }
                        _ => true,
                    };
                    let Some(var) = r
                        .variable
                        .as_ref()
                        .and_then(|v| m.resolve(v))
                        .and_then(|n| n.string("name"))
                    else {
                        continue;
                    };
                    if !empty || r.operands.len() != 1 || out.records.contains_key(var) {
                        continue;
                    }
                    let o = &r.operands[0];
                    let Ok(ty) = dioptra_semantics::text::parse_type(&o.opaque_type()) else {
                        continue;
                    };
                    let bits = layout.bitsizeof(&ty);
                    if let Ok(value) = operand(&o.value, bits, &env) {
                        out.records
                            .insert(var.to_string(), Expected { bits, value });
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// An instruction's result (`%v1`) and its text after the `=`, without
/// its metadata attachments (`add i32 %x, 1`).
pub(super) fn named_instruction(i: &crate::ir::Inst) -> Option<(String, &str)> {
    let r = i.result.as_deref()?;
    let name = if r.starts_with('%') {
        r.to_string()
    } else {
        format!("%{r}")
    };
    let text = i.text.split_once('=').map_or("", |(_, t)| t).trim();
    Some((name, text.split(", !").next().unwrap_or(text).trim()))
}

/// What one instruction did.
enum Step {
    /// A result of this many bits (`None`: poison).
    Value(u64, Option<Bits>),
    /// Immediate undefined behaviour.
    Undefined,
    /// Not computed: an instruction the semantics does not model, or an
    /// unknown operand.
    Unknown,
}

/// Is a division of `a` by `b` (`None`: poison) immediate undefined
/// behaviour? LangRef: "division by zero is undefined behavior" (and a
/// poison divisor may be zero); for `sdiv`/`srem`, "overflow also leads to
/// undefined behavior" (`INT_MIN / -1`).
fn division_is_undefined(op: BinOp, a: &Option<Bits>, b: &Option<Bits>) -> bool {
    let Some(b) = b else {
        return true;
    };
    if b.is_zero() {
        return true;
    }
    let signed = matches!(op, BinOp::SDiv | BinOp::SRem);
    let minus_one = b.signed() == BigInt::from(-1);
    let int_min = |a: &Bits| a.signed() == -(BigInt::from(1) << (a.width() - 1));
    // A poison dividend may be INT_MIN.
    signed && minus_one && a.as_ref().is_none_or(int_min)
}

/// The result of one instruction `text` over `env`.
fn run_inst(text: &str, layout: &DataLayout, env: &HashMap<String, Option<Bits>>) -> Step {
    let Ok(parsed) = parse_inst(text, layout) else {
        return Step::Unknown;
    };
    if parsed.inst.check().is_err() {
        return Step::Unknown;
    }
    let widths = parsed.inst.operand_bits();
    let mut args = Vec::with_capacity(widths.len());
    for (o, &w) in parsed.operands.iter().zip(&widths) {
        match operand(o, w, env) {
            Ok(v) => args.push(v),
            Err(()) => return Step::Unknown,
        }
    }
    let bits = parsed.inst.result_bits();
    let value = match parsed.inst {
        Inst::Binary { op, .. }
            if matches!(op, BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem)
                && division_is_undefined(op, &args[0], &args[1]) =>
        {
            return Step::Undefined
        }
        ref inst => eval_inst_poison(inst, &args),
    };
    Step::Value(bits, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(body: &str, args: &[Bits]) -> BTreeMap<String, Expected> {
        let text = format!(
            "define void @f(i8 signext %x0, i32 %x1) !dbg !0 {{\nentry:\n{body}  ret void\n}}\n\
             !0 = distinct !DISubprogram(name: \"f\")\n\
             !1 = !DILocalVariable(name: \"a\", scope: !0)\n\
             !2 = !DILocalVariable(name: \"b\", scope: !0)\n\
             !3 = !DILocalVariable(name: \"c\", scope: !0)\n"
        );
        let m = crate::ir::parse(&text).unwrap();
        run(&m, &m.functions[0], args, 64).records
    }

    #[test]
    fn records_take_the_values_the_function_computes() {
        let v = values(
            "  %v0 = sext i8 %x0 to i32\n    #dbg_value(i32 %v0, !1, !DIExpression(), !0)\n  \
             %v1 = lshr i32 %v0, %x1\n    #dbg_value(i32 %v1, !2, !DIExpression(), !0)\n  \
             %v2 = icmp ult i32 %v0, 7\n    #dbg_value(i1 %v2, !3, !DIExpression(), !0)\n",
            &[Bits::from_u64(8, 0x80), Bits::from_u64(32, 4)],
        );
        assert_eq!(v["a"].value, Some(Bits::from_u64(32, 0xffff_ff80)));
        assert_eq!(v["b"].value, Some(Bits::from_u64(32, 0x0fff_fff8)));
        assert_eq!(
            v["c"],
            Expected {
                bits: 1,
                value: Some(Bits::from_u64(1, 0))
            }
        );
    }

    #[test]
    fn poison_and_unmodelled_values_are_told_apart() {
        // A shift past the width is poison: any shown value is right.
        let v = values(
            "  %v0 = shl i32 %x1, 40\n    #dbg_value(i32 %v0, !1, !DIExpression(), !0)\n  \
             %v1 = call i32 @g()\n    #dbg_value(i32 %v1, !2, !DIExpression(), !0)\n    \
             #dbg_value(i32 %x1, !3, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !0)\n",
            &[Bits::from_u64(8, 1), Bits::from_u64(32, 1)],
        );
        assert_eq!(v["a"].value, None);
        // A call is not modelled, nor is a record with an expression.
        assert!(!v.contains_key("b") && !v.contains_key("c"), "{v:?}");
    }
}
