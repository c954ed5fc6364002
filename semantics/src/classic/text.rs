//! The text of classic expressions: `!DIExpression(DW_OP_constu, 4,
//! DW_OP_plus, DW_OP_stack_value)`, or the bare op list. Operands are
//! decimal or `0x` hexadecimal; `DW_OP_consts` also takes a negative one.

use super::{COp, ClassicExpr, Encoding};
use crate::diag::Diag;
use std::fmt;

/// The most operations a classic expression may have (a bound on what the
/// input can make dioptra do).
pub const MAX_CLASSIC_OPS: usize = 4096;

/// Operations LLVM's `DIExpression` accepts that dioptra parses but does
/// not model, with their operand counts.
const UNMODELLED: &[(&str, usize)] = &[
    ("DW_OP_xderef", 0),
    ("DW_OP_push_object_address", 0),
    ("DW_OP_regx", 1),
    ("DW_OP_bregx", 2),
    ("DW_OP_LLVM_user", 1),
];

fn malformed(reason: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
    Diag::malformed("DIExpression", reason, msg)
}

/// Is `text` a classic expression (rather than a DIOp one)?
///
/// DECISION (D-classic-spelling): `!DIExpression(...)` whose first element
/// is a `DW_OP_` name, `!DIExpression()`, and a bare list starting with a
/// `DW_OP_` name are classic. The empty `!DIExpression()` is upstream's
/// empty expression (the operand itself); an empty DIOp expression is
/// written `!DIExpr()`.
pub fn is_classic(text: &str) -> bool {
    let t = text.trim_start();
    if let Some(rest) = t.strip_prefix("!DIExpression") {
        let rest = rest.trim_start();
        if let Some(inner) = rest.strip_prefix('(') {
            let inner = inner.trim_start();
            return inner.starts_with("DW_OP_") || inner.starts_with(')');
        }
        return false;
    }
    t.starts_with("DW_OP_")
}

fn number(item: &str, what: &str) -> Result<u64, Diag> {
    let s = item.trim();
    let parsed = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else {
        s.parse::<u64>()
    };
    parsed.map_err(|_| {
        malformed(
            "bad-operand",
            format!("`{s}` is not an unsigned 64-bit number ({what})"),
        )
    })
}

fn signed_number(item: &str, what: &str) -> Result<i64, Diag> {
    let s = item.trim();
    if let Some(m) = s.strip_prefix('-') {
        let v = number(m, what)?;
        return if v <= 1u64 << 63 {
            Ok((v as i64).wrapping_neg())
        } else {
            Err(malformed(
                "bad-operand",
                format!("`{s}` does not fit in 64 bits ({what})"),
            ))
        };
    }
    // LLVM prints `DW_OP_consts` operands as unsigned 64-bit numbers.
    Ok(number(s, what)? as i64)
}

/// Parses a classic expression.
pub fn parse_classic(text: &str) -> Result<ClassicExpr, Diag> {
    let t = text.trim();
    let body = if let Some(rest) = t.strip_prefix("!DIExpression") {
        let rest = rest.trim_start();
        let Some(inner) = rest
            .strip_prefix('(')
            .and_then(|r| r.trim_end().strip_suffix(')'))
        else {
            return Err(malformed(
                "bad-syntax",
                "`!DIExpression(` ... `)` is not closed",
            ));
        };
        inner
    } else {
        t
    };
    let items: Vec<&str> = if body.trim().is_empty() {
        Vec::new()
    } else {
        body.split(',').map(str::trim).collect()
    };
    if items.len() > 3 * MAX_CLASSIC_OPS {
        return Err(malformed(
            "too-long",
            format!("more than {MAX_CLASSIC_OPS} operations"),
        ));
    }
    let mut ops = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let name = items[i];
        i += 1;
        if name.is_empty() {
            return Err(malformed("bad-syntax", "an empty element between commas"));
        }
        let mut operand = |what: &str| -> Result<&str, Diag> {
            let v = items.get(i).copied().ok_or_else(|| {
                malformed(
                    "missing-operand",
                    format!("`{name}` needs its {what} operand"),
                )
            })?;
            i += 1;
            Ok(v)
        };
        let op = match name {
            "DW_OP_LLVM_arg" => {
                let n = number(operand("index")?, "operand index")?;
                COp::Arg(u32::try_from(n).map_err(|_| {
                    malformed("bad-operand", format!("operand index {n} is too large"))
                })?)
            }
            "DW_OP_constu" => COp::Constu(number(operand("constant")?, "DW_OP_constu")?),
            "DW_OP_consts" => COp::Consts(signed_number(operand("constant")?, "DW_OP_consts")?),
            "DW_OP_dup" => COp::Dup,
            "DW_OP_drop" => COp::Drop,
            "DW_OP_swap" => COp::Swap,
            "DW_OP_over" => COp::Over,
            "DW_OP_deref" => COp::Deref,
            "DW_OP_deref_size" => {
                let n = number(operand("size")?, "DW_OP_deref_size")?;
                COp::DerefSize(u8::try_from(n).map_err(|_| {
                    malformed("bad-operand", format!("DW_OP_deref_size {n}: a byte count"))
                })?)
            }
            "DW_OP_plus" => COp::Plus,
            "DW_OP_plus_uconst" => {
                COp::PlusUconst(number(operand("constant")?, "DW_OP_plus_uconst")?)
            }
            "DW_OP_minus" => COp::Minus,
            "DW_OP_mul" => COp::Mul,
            "DW_OP_div" => COp::Div,
            "DW_OP_mod" => COp::Mod,
            "DW_OP_and" => COp::And,
            "DW_OP_or" => COp::Or,
            "DW_OP_xor" => COp::Xor,
            "DW_OP_not" => COp::Not,
            "DW_OP_neg" => COp::Neg,
            "DW_OP_shl" => COp::Shl,
            "DW_OP_shr" => COp::Shr,
            "DW_OP_shra" => COp::Shra,
            "DW_OP_eq" => COp::Eq,
            "DW_OP_ne" => COp::Ne,
            "DW_OP_lt" => COp::Lt,
            "DW_OP_le" => COp::Le,
            "DW_OP_gt" => COp::Gt,
            "DW_OP_ge" => COp::Ge,
            "DW_OP_LLVM_convert" => {
                let bits = number(operand("size")?, "DW_OP_LLVM_convert")?;
                let enc = match operand("encoding")? {
                    "DW_ATE_signed" | "DW_ATE_signed_char" => Encoding::Signed,
                    "DW_ATE_unsigned" | "DW_ATE_unsigned_char" | "DW_ATE_boolean" => {
                        Encoding::Unsigned
                    }
                    other => {
                        return Err(malformed(
                            "bad-operand",
                            format!(
                            "`{other}`: DW_OP_LLVM_convert takes DW_ATE_signed or DW_ATE_unsigned"
                        ),
                        ))
                    }
                };
                COp::Convert(bits, enc)
            }
            "DW_OP_LLVM_extract_bits_zext" | "DW_OP_LLVM_extract_bits_sext" => {
                let offset = number(operand("offset")?, name)?;
                let len = number(operand("length")?, name)?;
                COp::ExtractBits {
                    offset,
                    len,
                    signed: name.ends_with("sext"),
                }
            }
            "DW_OP_LLVM_tag_offset" => COp::TagOffset(number(operand("tag offset")?, name)?),
            "DW_OP_LLVM_entry_value" => COp::EntryValue(number(operand("count")?, name)?),
            "DW_OP_LLVM_implicit_pointer" => COp::ImplicitPointer,
            "DW_OP_stack_value" => COp::StackValue,
            "DW_OP_LLVM_memory" => COp::Memory,
            "DW_OP_LLVM_fragment" => {
                let offset = number(operand("offset")?, name)?;
                let size = number(operand("size")?, name)?;
                COp::Fragment(offset, size)
            }
            lit if lit.starts_with("DW_OP_lit") => match lit["DW_OP_lit".len()..].parse::<u8>() {
                Ok(n) if n < 32 && !lit.ends_with('+') => COp::Lit(n),
                _ => return Err(malformed("unknown-op", format!("`{lit}`"))),
            },
            other => match UNMODELLED.iter().find(|(n, _)| *n == other) {
                Some(&(n, k)) => {
                    let mut args = Vec::new();
                    for _ in 0..k {
                        args.push(number(operand("")?, n)?);
                    }
                    COp::Other(n, args)
                }
                None if other.starts_with("DW_OP_") => {
                    return Err(malformed(
                        "unknown-op",
                        format!("`{other}` is not an operation of LLVM's DIExpression"),
                    ))
                }
                None => {
                    return Err(malformed(
                        "bad-syntax",
                        format!("`{other}` where an operation was expected"),
                    ))
                }
            },
        };
        ops.push(op);
        if ops.len() > MAX_CLASSIC_OPS {
            return Err(malformed(
                "too-long",
                format!("more than {MAX_CLASSIC_OPS} operations"),
            ));
        }
    }
    Ok(ClassicExpr { ops })
}

impl fmt::Display for COp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            COp::Arg(n) => write!(f, "DW_OP_LLVM_arg, {n}"),
            COp::Lit(n) => write!(f, "DW_OP_lit{n}"),
            COp::Constu(c) | COp::PlusUconst(c) | COp::TagOffset(c) => {
                write!(f, "{}, {c}", self.name())
            }
            COp::Consts(c) => write!(f, "DW_OP_consts, {c}"),
            COp::DerefSize(n) => write!(f, "DW_OP_deref_size, {n}"),
            COp::Convert(b, e) => write!(
                f,
                "DW_OP_LLVM_convert, {b}, {}",
                match e {
                    Encoding::Signed => "DW_ATE_signed",
                    Encoding::Unsigned => "DW_ATE_unsigned",
                }
            ),
            COp::ExtractBits { offset, len, .. } => write!(f, "{}, {offset}, {len}", self.name()),
            COp::Fragment(o, s) => write!(f, "DW_OP_LLVM_fragment, {o}, {s}"),
            COp::EntryValue(n) => write!(f, "DW_OP_LLVM_entry_value, {n}"),
            COp::Other(n, args) => {
                write!(f, "{n}")?;
                for a in args {
                    write!(f, ", {a}")?;
                }
                Ok(())
            }
            _ => write!(f, "{}", self.name()),
        }
    }
}

impl fmt::Display for ClassicExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "!DIExpression(")?;
        for (i, op) in self.ops.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{op}")?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_text_round_trips_and_is_told_apart_from_diop() {
        for t in [
            "!DIExpression()",
            "!DIExpression(DW_OP_plus_uconst, 4, DW_OP_stack_value)",
            "!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)",
            "!DIExpression(DW_OP_LLVM_convert, 8, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_stack_value)",
            "!DIExpression(DW_OP_lit31, DW_OP_consts, -5, DW_OP_LLVM_fragment, 0, 32)",
            "!DIExpression(DW_OP_LLVM_extract_bits_sext, 3, 5, DW_OP_LLVM_memory)",
            "!DIExpression(DW_OP_LLVM_entry_value, 1)",
        ] {
            assert!(is_classic(t), "{t}");
            let e = parse_classic(t).unwrap();
            assert_eq!(e.to_string(), t);
        }
        assert!(!is_classic("!DIExpression(DIOpArg(0, i32))"));
        assert!(!is_classic("!DIExpr()"));
        assert!(is_classic("DW_OP_deref"));
        assert_eq!(
            parse_classic("DW_OP_constu, 0x10").unwrap().ops,
            vec![COp::Constu(16)]
        );
    }

    #[test]
    fn bad_classic_text_is_malformed_with_a_reason() {
        for (t, reason) in [
            ("!DIExpression(DW_OP_constu)", "missing-operand"),
            ("!DIExpression(DW_OP_constu, x)", "bad-operand"),
            ("!DIExpression(DW_OP_frobnicate)", "unknown-op"),
            ("!DIExpression(DW_OP_lit32)", "unknown-op"),
            ("!DIExpression(DW_OP_plus,, DW_OP_plus)", "bad-syntax"),
            ("!DIExpression(DW_OP_plus", "bad-syntax"),
            ("!DIExpression(DW_OP_deref_size, 300)", "bad-operand"),
            (
                "!DIExpression(DW_OP_LLVM_convert, 8, DW_ATE_float)",
                "bad-operand",
            ),
            (
                "!DIExpression(DW_OP_consts, -9223372036854775809)",
                "bad-operand",
            ),
        ] {
            let d = parse_classic(t).unwrap_err();
            assert!(d.matches(&format!("DIExpression: {reason}")), "{t}: {d}");
        }
    }
}
