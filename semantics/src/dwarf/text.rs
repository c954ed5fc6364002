//! DWARF expressions as text, in llvm-dwarfdump's style:
//! `DW_OP_breg5 -8, DW_OP_deref_size 0x4, DW_OP_stack_value`.
//!
//! Unsigned operands print in hex (`0x4`), signed ones in decimal (`-8`),
//! blocks as their length then their bytes, `DW_OP_entry_value(...)` with its
//! nested expression in parentheses, and AMD's operations as
//! `DW_OP_LLVM_user DW_OP_LLVM_offset` (or, in the single-byte encoding, just
//! `DW_OP_LLVM_offset`). The parser takes what the printer writes, with
//! numbers in hex or decimal either way, and AMD names with or without the
//! `DW_OP_LLVM_user` word.

use super::op::{layout, AmdOp, DwarfOp, Encoding, Kind, Operand};
use crate::diag::Diag;
use gimli::constants::{self as c, DwOp};

fn std_name(code: u8) -> String {
    DwOp(code)
        .static_string()
        .map(str::to_string)
        .unwrap_or_else(|| format!("DW_OP_0x{code:02x}"))
}

fn operand_text(o: &Operand, enc: Encoding) -> String {
    match o {
        Operand::U(v) | Operand::Uleb(v) => format!("0x{v:x}"),
        Operand::S(v) => format!("{v}"),
        Operand::Block(b) => {
            let mut s = format!("0x{:x}", b.len());
            for x in b {
                s += &format!(" 0x{x:02x}");
            }
            s
        }
        Operand::Expr(e) => format!("({})", print(e, enc)),
    }
}

/// Prints operations, separated by `, `.
pub fn print(ops: &[DwarfOp], enc: Encoding) -> String {
    ops.iter()
        .map(|op| {
            let (name, operands) = match op {
                DwarfOp::Std { code, operands } => (std_name(*code), operands),
                DwarfOp::Amd { op, operands } if enc.amd_single_byte => {
                    (op.name().to_string(), operands)
                }
                DwarfOp::Amd { op, operands } => {
                    (format!("DW_OP_LLVM_user {}", op.name()), operands)
                }
            };
            let mut s = name;
            for o in operands {
                match o {
                    Operand::Expr(_) => s += &operand_text(o, enc),
                    _ => {
                        s.push(' ');
                        s += &operand_text(o, enc);
                    }
                }
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn bad(reason: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
    Diag::malformed("DWARF", reason, msg)
}

/// Splits at top-level commas.
fn split(s: &str) -> Result<Vec<&str>, Diag> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err(bad("unbalanced", format!("`)` without `(` at {i}")));
                }
            }
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(bad("unbalanced", "`(` is never closed"));
    }
    let last = s[start..].trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    Ok(out)
}

fn unsigned(t: &str) -> Result<u64, Diag> {
    let r = match t.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse::<u64>(),
    };
    r.map_err(|_| bad("bad-operand", format!("`{t}` is not an unsigned number")))
}

fn signed(t: &str) -> Result<i64, Diag> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let mag = unsigned(body)? as i128;
    let v = if neg { -mag } else { mag };
    i64::try_from(v).map_err(|_| bad("bad-operand", format!("`{t}` does not fit in 64 bits")))
}

/// Parses the text form; `depth` bounds nested entry values.
pub fn parse(text: &str, enc: Encoding) -> Result<Vec<DwarfOp>, Diag> {
    parse_at(text, enc, 0)
}

fn parse_at(text: &str, enc: Encoding, depth: usize) -> Result<Vec<DwarfOp>, Diag> {
    if depth > 16 {
        return Err(bad("too-deep", "entry_value expressions nested too deeply"));
    }
    split(text)?
        .into_iter()
        .map(|one| parse_op(one, enc, depth))
        .collect()
}

/// DWARF register names as llvm-dwarfdump prints them for x86-64 (DWARF
/// numbers 0..=48: System V psABI, Figure 3.36).
const X86_64_REGISTERS: [&str; 49] = [
    "RAX", "RDX", "RCX", "RBX", "RSI", "RDI", "RBP", "RSP", "R8", "R9", "R10", "R11", "R12", "R13",
    "R14", "R15", "RIP", "XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7", "XMM8",
    "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15", "ST0", "ST1", "ST2", "ST3",
    "ST4", "ST5", "ST6", "ST7", "MM0", "MM1", "MM2", "MM3", "MM4", "MM5", "MM6", "MM7",
];

/// The same for i386 (DWARF numbers 0..=8: i386 psABI).
const I386_REGISTERS: [&str; 9] = [
    "EAX", "ECX", "EDX", "EBX", "ESP", "EBP", "ESI", "EDI", "EIP",
];

/// Is `name` (as llvm-dwarfdump prints it) a name of DWARF register `n`?
/// Names of x86-64 and i386 registers are checked; a name neither table
/// knows (another target's) is taken on trust, as the number is in the
/// opcode.
fn register_name_fits(name: &str, n: u64) -> bool {
    let up = name.to_ascii_uppercase();
    let known = |t: &[&str]| t.iter().position(|r| *r == up);
    match (known(&X86_64_REGISTERS), known(&I386_REGISTERS)) {
        (None, None) => true,
        (a, b) => a == Some(n as usize) || b == Some(n as usize),
    }
}

/// The DWARF number of an x86-64 register name (what llvm-dwarfdump prints
/// in place of `DW_OP_regx`'s and `DW_OP_bregx`'s number).
fn register_number(name: &str) -> Option<u64> {
    let up = name.to_ascii_uppercase();
    X86_64_REGISTERS
        .iter()
        .position(|r| *r == up)
        .map(|n| n as u64)
}

fn is_register_name(w: &str) -> bool {
    w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// llvm-dwarfdump's spelling of register operands, rewritten to numbers:
/// `DW_OP_reg5 RDI` (the name after the number the opcode holds),
/// `DW_OP_breg7 RSP+8`, `DW_OP_regx XMM0`, `DW_OP_bregx XMM0+0`.
fn register_operands<'a>(
    name: &str,
    code: u8,
    rest: Vec<&'a str>,
) -> Result<Vec<std::borrow::Cow<'a, str>>, Diag> {
    use std::borrow::Cow;
    let reg = |c: DwOp| c.0;
    let wrong = |w: &str, n: u64| {
        bad(
            "bad-operand",
            format!("`{w}` is not DWARF register {n} in `{name}`"),
        )
    };
    let split_offset = |w: &'a str| -> Option<(&'a str, &'a str)> {
        let at = w.find(['+', '-'])?;
        Some((&w[..at], &w[at..]))
    };
    match (code, rest.as_slice()) {
        (c, [w])
            if (reg(c::DW_OP_reg0)..=reg(c::DW_OP_reg31)).contains(&c) && is_register_name(w) =>
        {
            let n = (c - reg(c::DW_OP_reg0)) as u64;
            if !register_name_fits(w, n) {
                return Err(wrong(w, n));
            }
            Ok(vec![])
        }
        (c, [w]) if (reg(c::DW_OP_breg0)..=reg(c::DW_OP_breg31)).contains(&c) => {
            match split_offset(w).filter(|(r, _)| is_register_name(r)) {
                Some((r, off)) => {
                    let n = (c - reg(c::DW_OP_breg0)) as u64;
                    if !register_name_fits(r, n) {
                        return Err(wrong(r, n));
                    }
                    Ok(vec![Cow::Borrowed(off.strip_prefix('+').unwrap_or(off))])
                }
                None => Ok(vec![Cow::Borrowed(*w)]),
            }
        }
        (c, [w]) if c == reg(c::DW_OP_regx) && is_register_name(w) => {
            let n = register_number(w).ok_or_else(|| {
                bad(
                    "bad-operand",
                    format!("`{w}` is not a register name dioptra knows (use its DWARF number)"),
                )
            })?;
            Ok(vec![Cow::Owned(n.to_string())])
        }
        (c, [w]) if c == reg(c::DW_OP_bregx) => {
            match split_offset(w).filter(|(r, _)| is_register_name(r)) {
                Some((r, off)) => {
                    let n = register_number(r).ok_or_else(|| {
                        bad(
                            "bad-operand",
                            format!(
                                "`{r}` is not a register name dioptra knows (use its DWARF number)"
                            ),
                        )
                    })?;
                    Ok(vec![
                        Cow::Owned(n.to_string()),
                        Cow::Borrowed(off.strip_prefix('+').unwrap_or(off)),
                    ])
                }
                None => Ok(vec![Cow::Borrowed(*w)]),
            }
        }
        _ => Ok(rest.into_iter().map(Cow::Borrowed).collect()),
    }
}

fn parse_op(s: &str, enc: Encoding, depth: usize) -> Result<DwarfOp, Diag> {
    // DW_OP_entry_value(...)
    if let Some(open) = s.find('(').filter(|&o| !s[o..].starts_with("(0x")) {
        let name = s[..open].trim();
        let inner = s[open + 1..]
            .trim_end()
            .strip_suffix(')')
            .ok_or_else(|| bad("unbalanced", format!("`{s}`")))?;
        let code = (0..=255u8)
            .find(|c| DwOp(*c).static_string() == Some(name))
            .filter(|c| matches!(layout(*c), Some([Kind::SubExpr])))
            .ok_or_else(|| {
                bad(
                    "unknown-opcode",
                    format!("`{name}` takes no nested expression"),
                )
            })?;
        return Ok(DwarfOp::Std {
            code,
            operands: smallvec::smallvec![Operand::Expr(parse_at(inner, enc, depth + 1)?)],
        });
    }
    let mut words = s.split_whitespace();
    let mut name = words
        .next()
        .ok_or_else(|| bad("empty", "an empty operation"))?;
    if name == "DW_OP_LLVM_user" {
        name = words
            .next()
            .ok_or_else(|| bad("bad-operand", "DW_OP_LLVM_user needs a sub-operation"))?;
    }
    let rest: Vec<&str> = words.collect();
    let (kinds, amd): (&[Kind], Option<AmdOp>) = match AmdOp::ALL.iter().find(|a| a.name() == name)
    {
        Some(a) => (a.layout(), Some(*a)),
        None => {
            let code = (0..=255u8)
                .find(|c| DwOp(*c).static_string() == Some(name) && layout(*c).is_some())
                .ok_or_else(|| bad("unknown-opcode", format!("`{name}`")))?;
            let k = layout(code).expect("filtered above");
            let rest = register_operands(name, code, rest)?;
            let rest: Vec<&str> = rest.iter().map(|w| w.as_ref()).collect();
            let operands = operands(k, &rest, name)?;
            return Ok(DwarfOp::Std {
                code,
                operands: operands.into(),
            });
        }
    };
    let operands = operands(kinds, &rest, name)?;
    Ok(DwarfOp::Amd {
        op: amd.expect("set above"),
        operands: operands.into(),
    })
}

fn operands(kinds: &[Kind], words: &[&str], name: &str) -> Result<Vec<Operand>, Diag> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut next = |what: &str| -> Result<&str, Diag> {
        let w = words
            .get(i)
            .copied()
            .ok_or_else(|| bad("bad-operand", format!("`{name}` needs {what}")))?;
        i += 1;
        Ok(w)
    };
    for k in kinds {
        out.push(match k {
            Kind::S1 | Kind::S2 | Kind::S4 | Kind::S8 | Kind::Sleb => {
                Operand::S(signed(next("a signed operand")?)?)
            }
            Kind::Uleb => Operand::Uleb(unsigned(next("an unsigned operand")?)?),
            Kind::U1 | Kind::U2 | Kind::U4 | Kind::U8 | Kind::Addr | Kind::SecOffset => {
                Operand::U(unsigned(next("an unsigned operand")?)?)
            }
            Kind::Block | Kind::Block1 => {
                let n = unsigned(next("a block length")?)?;
                let mut b = Vec::new();
                for _ in 0..n.min(1 << 16) {
                    let v = unsigned(next("a block byte")?)?;
                    b.push(u8::try_from(v).map_err(|_| {
                        bad("bad-operand", format!("block byte {v} is not a byte"))
                    })?);
                }
                Operand::Block(b)
            }
            Kind::SubExpr => {
                return Err(bad(
                    "bad-operand",
                    format!("`{name}` takes its expression in parentheses"),
                ))
            }
        });
    }
    if i != words.len() {
        return Err(bad(
            "bad-operand",
            format!("too many operands for `{name}`"),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::op::{decode, encode};
    use super::*;

    #[test]
    fn print_parse_round_trip() {
        let enc = Encoding::default();
        for bytes in [
            vec![0x75, 0x78, 0x94, 0x04, 0x33, 0x22, 0x9f],
            vec![0x9e, 0x02, 0xab, 0xcd, 0x93, 0x02, 0x9d, 0x03, 0x01],
            vec![0xa3, 0x01, 0x55, 0x9f],
            vec![
                0x35, 0xe9, 0x02, 0xe9, 0x05, 0x10, 0xe9, 0x0b, 0x20, 0x04, 0xe9, 0x0a,
            ],
            vec![0x0b, 0x00, 0x80, 0x11, 0x7f, 0x03, 1, 2, 3, 4, 5, 6, 7, 8],
        ] {
            let ops = decode(&bytes, enc).unwrap();
            let text = print(&ops, enc);
            let back = parse(&text, enc).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back, ops, "{text}");
            assert_eq!(encode(&back, enc).unwrap(), bytes);
        }
    }

    #[test]
    fn prints_like_llvm_dwarfdump() {
        let enc = Encoding::default();
        let ops = decode(&[0x75, 0x78, 0x94, 0x04, 0x9f], enc).unwrap();
        assert_eq!(
            print(&ops, enc),
            "DW_OP_breg5 -8, DW_OP_deref_size 0x4, DW_OP_stack_value"
        );
        let ops = decode(&[0xa3, 0x01, 0x55, 0x9f], enc).unwrap();
        assert_eq!(
            print(&ops, enc),
            "DW_OP_entry_value(DW_OP_reg5), DW_OP_stack_value"
        );
        let ops = decode(&[0xe9, 0x0b, 0x20, 0x04], enc).unwrap();
        assert_eq!(
            print(&ops, enc),
            "DW_OP_LLVM_user DW_OP_LLVM_extend 0x20 0x4"
        );
        let old = Encoding {
            amd_single_byte: true,
            ..enc
        };
        assert_eq!(print(&ops, old), "DW_OP_LLVM_extend 0x20 0x4");
        // Decimal and bare AMD names are accepted too.
        assert_eq!(parse("DW_OP_LLVM_extend 32 4", enc).unwrap(), ops);
        assert_eq!(
            parse("DW_OP_constu 42, DW_OP_stack_value", enc).unwrap(),
            decode(&[0x10, 42, 0x9f], enc).unwrap()
        );
        assert_eq!(parse("", enc).unwrap(), vec![]);
    }

    /// Register operands as llvm-dwarfdump prints them: the name after a
    /// `DW_OP_regN`, `NAME+OFFSET` for `DW_OP_bregN`, the name in place of
    /// `DW_OP_regx`'s and `DW_OP_bregx`'s number; a name of another
    /// register is an error.
    #[test]
    fn reads_register_names_as_llvm_dwarfdump_prints_them() {
        let enc = Encoding::default();
        let same = |printed: &str, plain: &str| {
            assert_eq!(
                parse(printed, enc).unwrap(),
                parse(plain, enc).unwrap(),
                "{printed}"
            );
        };
        same("DW_OP_reg5 RDI", "DW_OP_reg5");
        same("DW_OP_breg7 RSP+8", "DW_OP_breg7 8");
        same("DW_OP_breg6 RBP-16", "DW_OP_breg6 -16");
        same(
            "DW_OP_breg5 RDI+0, DW_OP_stack_value",
            "DW_OP_breg5 0, DW_OP_stack_value",
        );
        same("DW_OP_regx XMM0", "DW_OP_regx 17");
        same("DW_OP_bregx XMM1+4", "DW_OP_bregx 18 4");
        same(
            "DW_OP_entry_value(DW_OP_reg4 RSI)",
            "DW_OP_entry_value(DW_OP_reg4)",
        );
        // i386 names, and names of targets dioptra has no table for.
        same("DW_OP_reg5 EBP", "DW_OP_reg5");
        same("DW_OP_reg0 W0", "DW_OP_reg0");
        for (t, reason) in [
            ("DW_OP_reg4 RDI", "DWARF: bad-operand"),
            ("DW_OP_breg7 RBP+8", "DWARF: bad-operand"),
            ("DW_OP_regx NOSUCH", "DWARF: bad-operand"),
        ] {
            let e = parse(t, enc).unwrap_err();
            assert!(e.matches(reason), "{t}: {e}");
        }
    }

    #[test]
    fn bad_text_is_malformed() {
        let enc = Encoding::default();
        for (t, reason) in [
            ("DW_OP_frobnicate", "DWARF: unknown-opcode"),
            ("DW_OP_constu", "DWARF: bad-operand"),
            ("DW_OP_constu 1 2", "DWARF: bad-operand"),
            ("DW_OP_constu x", "DWARF: bad-operand"),
            ("DW_OP_entry_value(DW_OP_reg5", "DWARF: unbalanced"),
            ("DW_OP_deref(DW_OP_reg5)", "DWARF: unknown-opcode"),
            ("DW_OP_consts 99999999999999999999", "DWARF: bad-operand"),
        ] {
            let e = parse(t, enc).unwrap_err();
            assert!(e.matches(reason), "{t}: {e}");
        }
        let deep = format!(
            "{}DW_OP_reg5{}",
            "DW_OP_entry_value(".repeat(100),
            ")".repeat(100)
        );
        assert!(parse(&deep, enc).unwrap_err().matches("DWARF: too-deep"));
    }
}
