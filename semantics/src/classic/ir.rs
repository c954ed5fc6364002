//! The LLVM IR instructions whose results LLVM's salvaging rewrites into
//! classic expressions (`salvageDebugInfo`): integer binary operators,
//! casts, `icmp` and single-index `getelementptr`, and the `freeze` and
//! `select` LLVM's passes put between them. One instruction is
//! enough to state a salvage rule: `%y = lshr i8 %x, 3` feeding
//! `dbg.value(%y, …)` becomes `dbg.value(%x, DW_OP_constu 3, DW_OP_shr, …)`.
//!
//! Two columns, in the order of [`Inst`]: [`eval_inst`] over concrete
//! [`Bits`] here, and `encode_inst` over z3 terms in `crate::smt::ir`. Both give the result and
//! whether it is poison (LangRef: wrapping under `nuw`/`nsw`, a shift by
//! the width or more, an inexact `exact` division or shift, a `disjoint`
//! `or` with common bits, a negative `zext nneg` operand, a `trunc nuw`/`nsw`
//! that loses bits, `icmp samesign` of operands of different signs).
//! `freeze` and `select` look past a poison operand, so their callers
//! decide what one gives ([`FROZEN_POISON`]; the picked operand). Division by zero
//! and `INT_MIN / -1` are immediate undefined behaviour: the instruction
//! never produces a value, which a debug record sees as poison too.

use crate::bits::Bits;
use crate::diag::Diag;
use crate::types::{DataLayout, Type};
use num_bigint::BigInt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    PtrToInt,
    IntToPtr,
    BitCast,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

/// The poison-generating flags an instruction carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub nuw: bool,
    pub nsw: bool,
    pub exact: bool,
    pub disjoint: bool,
    pub nneg: bool,
    /// `icmp samesign` (LLVM 20): poison when the operands' sign bits
    /// differ.
    pub samesign: bool,
    /// `getelementptr inbounds`, `nusw` (LLVM 20): accepted, their poison
    /// not modelled (see [`Inst::Gep`]).
    pub inbounds: bool,
}

/// One instruction, its operand widths resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inst {
    /// `OP [flags] iN A, B`.
    Binary { op: BinOp, flags: Flags, bits: u64 },
    /// `OP [flags] FROM A to TO`.
    Cast {
        op: CastOp,
        flags: Flags,
        from: u64,
        to: u64,
    },
    /// `icmp [samesign] PRED iN A, B`: an `i1`.
    Icmp { pred: Pred, flags: Flags, bits: u64 },
    /// `getelementptr [inbounds] ELT, ptr P, iN I`: `P + I * sizeof(ELT)`,
    /// the index sign-extended or truncated to the pointer's width.
    /// (`inbounds` adds poison conditions dioptra does not model; a rule
    /// checked without them is checked for more source values, never
    /// fewer.)
    Gep {
        elt_bytes: u64,
        ptr_bits: u64,
        index_bits: u64,
    },
    /// `freeze iN A`: `A`, or when `A` is poison a fixed value of the
    /// compiler's choosing; never poison. Its evaluator sees only defined
    /// operands: what a poison one becomes is the callers' (they pass
    /// [`FROZEN_POISON`]).
    Freeze { bits: u64 },
    /// `select i1 C, iN A, iN B`: `A` where `C` is 1, else `B`; poison
    /// where `C` is, or where the operand it picks is (LangRef: the other
    /// may be poison). Its evaluator sees only defined operands: the
    /// callers pick.
    Select { bits: u64 },
}

/// What `freeze` of a poison value gives.
///
/// DECISION (D-freeze-zero): LangRef lets `freeze poison` be any fixed
/// value; dioptra's columns (the interpreter, the encoding, witnesses)
/// take zero, so a counterexample through a `freeze` is an execution
/// LLVM may take, and a proof through one holds for that choice.
pub const FROZEN_POISON: u64 = 0;

/// A parsed instruction and the text of its operands, in order.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub inst: Inst,
    pub operands: Vec<String>,
}

fn malformed(msg: impl Into<crate::diag::Message>) -> Diag {
    Diag::malformed("Instruction", "bad-instruction", msg)
}

fn bits_of(layout: &DataLayout, t: &str) -> Result<u64, Diag> {
    let ty = crate::text::parse_type(t.trim())?;
    match ty {
        Type::Int(_) | Type::Ptr { .. } => Ok(layout.bitsizeof(&ty)),
        other => Err(malformed(format!(
            "`{other}`: instructions here take integers and pointers"
        ))),
    }
}

/// Splits `TYPE OPERAND` at the last space (types such as `ptr
/// addrspace(1)` contain spaces, operands do not).
fn typed(s: &str) -> Result<(&str, &str), Diag> {
    s.trim()
        .rsplit_once(' ')
        .map(|(t, v)| (t.trim(), v.trim()))
        .ok_or_else(|| malformed(format!("`{s}`: TYPE OPERAND")))
}

/// Parses the right-hand side of `%y = …`: `lshr i8 %x, 3`, `add nsw i32
/// %x, C`, `zext i8 %x to i32`, `icmp ult i32 %x, %z`, `getelementptr
/// i32, ptr %p, i64 %i`.
pub fn parse_inst(text: &str, layout: &DataLayout) -> Result<Parsed, Diag> {
    let text = text.trim();
    let (opcode, rest) = text
        .split_once(char::is_whitespace)
        .ok_or_else(|| malformed(format!("`{text}`: OPCODE OPERANDS")))?;
    let mut rest = rest.trim();
    let mut flags = Flags::default();
    loop {
        let (word, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let flag = match word {
            "nuw" => &mut flags.nuw,
            "nsw" => &mut flags.nsw,
            "exact" => &mut flags.exact,
            "disjoint" => &mut flags.disjoint,
            "nneg" => &mut flags.nneg,
            "samesign" => &mut flags.samesign,
            // `nusw` is the part of `inbounds` about wrapping: neither is
            // modelled (a `getelementptr nuw` keeps `flags.nuw`, unmodelled
            // on a gep too).
            "inbounds" | "nusw" => &mut flags.inbounds,
            _ => break,
        };
        *flag = true;
        rest = after.trim();
    }
    let binary = match opcode {
        "add" => Some(BinOp::Add),
        "sub" => Some(BinOp::Sub),
        "mul" => Some(BinOp::Mul),
        "udiv" => Some(BinOp::UDiv),
        "sdiv" => Some(BinOp::SDiv),
        "urem" => Some(BinOp::URem),
        "srem" => Some(BinOp::SRem),
        "shl" => Some(BinOp::Shl),
        "lshr" => Some(BinOp::LShr),
        "ashr" => Some(BinOp::AShr),
        "and" => Some(BinOp::And),
        "or" => Some(BinOp::Or),
        "xor" => Some(BinOp::Xor),
        _ => None,
    };
    let cast = match opcode {
        "trunc" => Some(CastOp::Trunc),
        "zext" => Some(CastOp::ZExt),
        "sext" => Some(CastOp::SExt),
        "ptrtoint" => Some(CastOp::PtrToInt),
        "inttoptr" => Some(CastOp::IntToPtr),
        "bitcast" => Some(CastOp::BitCast),
        _ => None,
    };
    let two = |rest: &str| -> Result<(u64, Vec<String>), Diag> {
        let (a, b) = rest
            .split_once(',')
            .ok_or_else(|| malformed(format!("`{rest}`: TYPE A, B")))?;
        let (t, a) = typed(a)?;
        Ok((
            bits_of(layout, t)?,
            vec![a.to_string(), b.trim().to_string()],
        ))
    };
    if let Some(op) = binary {
        let (bits, operands) = two(rest)?;
        return Ok(Parsed {
            inst: Inst::Binary { op, flags, bits },
            operands,
        });
    }
    if let Some(op) = cast {
        let (from, to) = rest
            .rsplit_once(" to ")
            .ok_or_else(|| malformed(format!("`{rest}`: FROM A to TO")))?;
        let (ft, a) = typed(from)?;
        return Ok(Parsed {
            inst: Inst::Cast {
                op,
                flags,
                from: bits_of(layout, ft)?,
                to: bits_of(layout, to)?,
            },
            operands: vec![a.to_string()],
        });
    }
    match opcode {
        "select" => {
            let parts = crate::text::split_top_level(rest);
            let [c, a, b] = &parts[..] else {
                return Err(malformed("select i1 C, TYPE A, TYPE B".to_string()));
            };
            let (ct, c) = typed(c)?;
            let (at, a) = typed(a)?;
            let (bt, b) = typed(b)?;
            let (cb, ab, bb) = (bits_of(layout, ct)?, bits_of(layout, at)?, bits_of(layout, bt)?);
            if cb != 1 || ab != bb {
                return Err(malformed(format!(
                    "`select {rest}`: select i1 C, TYPE A, TYPE B"
                )));
            }
            Ok(Parsed {
                inst: Inst::Select { bits: ab },
                operands: vec![c.to_string(), a.to_string(), b.to_string()],
            })
        }
        "freeze" => {
            let (t, a) = typed(rest)?;
            Ok(Parsed {
                inst: Inst::Freeze {
                    bits: bits_of(layout, t)?,
                },
                operands: vec![a.to_string()],
            })
        }
        "icmp" => {
            let (p, rest) = rest
                .split_once(char::is_whitespace)
                .ok_or_else(|| malformed("icmp PRED TYPE A, B"))?;
            let pred = match p {
                "eq" => Pred::Eq,
                "ne" => Pred::Ne,
                "ugt" => Pred::Ugt,
                "uge" => Pred::Uge,
                "ult" => Pred::Ult,
                "ule" => Pred::Ule,
                "sgt" => Pred::Sgt,
                "sge" => Pred::Sge,
                "slt" => Pred::Slt,
                "sle" => Pred::Sle,
                other => return Err(malformed(format!("`{other}` is not an icmp predicate"))),
            };
            let (bits, operands) = two(rest)?;
            Ok(Parsed {
                inst: Inst::Icmp { pred, flags, bits },
                operands,
            })
        }
        "getelementptr" => {
            let parts: Vec<&str> = rest.split(',').collect();
            let [elt, ptr, index] = parts[..] else {
                return Err(malformed(
                    "getelementptr ELT, ptr P, iN I (one index)".to_string(),
                ));
            };
            let elt_ty = crate::text::parse_type(elt.trim())?;
            let (pt, p) = typed(ptr)?;
            let (it, i) = typed(index)?;
            Ok(Parsed {
                inst: Inst::Gep {
                    elt_bytes: layout.bitsizeof(&elt_ty).div_ceil(8),
                    ptr_bits: bits_of(layout, pt)?,
                    index_bits: bits_of(layout, it)?,
                },
                operands: vec![p.to_string(), i.to_string()],
            })
        }
        other => Err(malformed(format!(
            "`{other}`: dioptra models add, sub, mul, udiv, sdiv, urem, srem, shl, lshr, ashr, and, or, xor, trunc, zext, sext, ptrtoint, inttoptr, bitcast, icmp and getelementptr"
        ))),
    }
}

impl Inst {
    /// The width of each operand.
    pub fn operand_bits(&self) -> Vec<u64> {
        match *self {
            Inst::Binary { bits, .. } | Inst::Icmp { bits, .. } => vec![bits, bits],
            Inst::Freeze { bits } => vec![bits],
            Inst::Select { bits } => vec![1, bits, bits],
            Inst::Cast { from, .. } => vec![from],
            Inst::Gep {
                ptr_bits,
                index_bits,
                ..
            } => vec![ptr_bits, index_bits],
        }
    }
    /// The width of the result.
    pub fn result_bits(&self) -> u64 {
        match *self {
            Inst::Binary { bits, .. } => bits,
            Inst::Cast { to, .. } => to,
            Inst::Icmp { .. } => 1,
            Inst::Gep { ptr_bits, .. } => ptr_bits,
            Inst::Freeze { bits } | Inst::Select { bits } => bits,
        }
    }
    /// Is the instruction well-typed (a `trunc` narrows, an extension
    /// widens, a `bitcast` keeps the width)?
    pub fn check(&self) -> Result<(), Diag> {
        if let Inst::Cast { op, from, to, .. } = *self {
            let ok = match op {
                CastOp::Trunc => to < from,
                CastOp::ZExt | CastOp::SExt => to > from,
                CastOp::BitCast => to == from,
                CastOp::PtrToInt | CastOp::IntToPtr => true,
            };
            if !ok {
                return Err(Diag::ill(
                    "Instruction",
                    "cast-width",
                    format!("{op:?} from {from} to {to} bits"),
                ));
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Concrete evaluation

/// The result of `inst` on operands any of which may be poison (`None`),
/// or `None` for poison: `freeze` of poison is [`FROZEN_POISON`]
/// (D-freeze-zero), `select` is poison where its condition is or where the
/// operand it picks is, and every other instruction is poison where an
/// operand is (or where [`eval_inst`] says).
pub fn eval_inst_poison(inst: &Inst, args: &[Option<Bits>]) -> Option<Bits> {
    match *inst {
        Inst::Freeze { bits } => Some(
            args[0]
                .clone()
                .unwrap_or_else(|| Bits::from_u64(bits, FROZEN_POISON)),
        ),
        Inst::Select { .. } => match &args[0] {
            Some(c) if c.bit(0) => args[1].clone(),
            Some(_) => args[2].clone(),
            None => None,
        },
        _ => args
            .iter()
            .cloned()
            .collect::<Option<Vec<_>>>()
            .and_then(|a| eval_inst(inst, &a)),
    }
}

/// The result of `inst` on `args`, or `None` for poison (or immediate
/// undefined behaviour).
pub fn eval_inst(inst: &Inst, args: &[Bits]) -> Option<Bits> {
    match *inst {
        Inst::Binary { op, flags, bits } => eval_binary(op, flags, bits, &args[0], &args[1]),
        Inst::Cast { op, flags, to, .. } => eval_cast(op, flags, to, &args[0]),
        Inst::Icmp { pred, flags, .. } => eval_icmp(pred, flags, &args[0], &args[1]),
        Inst::Gep {
            elt_bytes,
            ptr_bits,
            ..
        } => eval_gep(elt_bytes, ptr_bits, &args[0], &args[1]),
        Inst::Freeze { .. } => Some(args[0].clone()),
        Inst::Select { .. } => Some(if args[0].bit(0) {
            args[1].clone()
        } else {
            args[2].clone()
        }),
    }
}

fn eval_binary(op: BinOp, f: Flags, n: u64, a: &Bits, b: &Bits) -> Option<Bits> {
    let (ua, ub) = (a.unsigned_int(), b.unsigned_int());
    let (sa, sb) = (a.signed(), b.signed());
    let fits_u = |v: &BigInt| *v >= BigInt::from(0) && *v < (BigInt::from(1) << n);
    let fits_s = |v: &BigInt| {
        let h = BigInt::from(1) << (n - 1);
        *v >= -h.clone() && *v < h
    };
    let wrap = |v: &BigInt| Bits::from_bigint(n, v);
    let min = -(BigInt::from(1) << (n - 1));
    let r = match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            let (u, s) = match op {
                BinOp::Add => (&ua + &ub, &sa + &sb),
                BinOp::Sub => (&ua - &ub, &sa - &sb),
                _ => (&ua * &ub, &sa * &sb),
            };
            if f.nuw && !fits_u(&u) || f.nsw && !fits_s(&s) {
                return None;
            }
            wrap(&u)
        }
        BinOp::UDiv | BinOp::URem => {
            if ub == BigInt::from(0) {
                return None;
            }
            let (q, r) = (&ua / &ub, &ua % &ub);
            if op == BinOp::UDiv && f.exact && r != BigInt::from(0) {
                return None;
            }
            wrap(if op == BinOp::UDiv { &q } else { &r })
        }
        BinOp::SDiv | BinOp::SRem => {
            if sb == BigInt::from(0) || sa == min && sb == BigInt::from(-1) {
                return None;
            }
            // BigInt's `/` and `%` truncate toward zero, as LLVM's do.
            let (q, r) = (&sa / &sb, &sa % &sb);
            if op == BinOp::SDiv && f.exact && r != BigInt::from(0) {
                return None;
            }
            wrap(if op == BinOp::SDiv { &q } else { &r })
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            if ub >= BigInt::from(n) {
                return None;
            }
            let k = b.low_u64() as usize;
            match op {
                BinOp::Shl => {
                    let u = &ua << k;
                    let s = &sa << k;
                    if f.nuw && !fits_u(&u) || f.nsw && !fits_s(&s) {
                        return None;
                    }
                    wrap(&u)
                }
                _ => {
                    let lost = &ua & ((BigInt::from(1) << k) - 1);
                    if f.exact && lost != BigInt::from(0) {
                        return None;
                    }
                    wrap(&if op == BinOp::LShr {
                        &ua >> k
                    } else {
                        &sa >> k
                    })
                }
            }
        }
        BinOp::And => wrap(&(&ua & &ub)),
        BinOp::Or => {
            if f.disjoint && (&ua & &ub) != BigInt::from(0) {
                return None;
            }
            wrap(&(&ua | &ub))
        }
        BinOp::Xor => wrap(&(&ua ^ &ub)),
    };
    Some(r)
}

fn eval_cast(op: CastOp, f: Flags, to: u64, a: &Bits) -> Option<Bits> {
    Some(match op {
        CastOp::SExt => a.sext(to),
        // LangRef (trunc): `nuw` is poison when a truncated bit is one,
        // `nsw` when one differs from the result's sign bit.
        CastOp::Trunc if f.nuw && a.zext(to).zext(a.width()) != *a => return None,
        CastOp::Trunc if f.nsw && a.zext(to).sext(a.width()) != *a => return None,
        CastOp::ZExt if f.nneg && a.bit(a.width() - 1) => return None,
        CastOp::Trunc | CastOp::ZExt | CastOp::PtrToInt | CastOp::IntToPtr | CastOp::BitCast => {
            a.zext(to)
        }
    })
}

fn eval_icmp(p: Pred, f: Flags, a: &Bits, b: &Bits) -> Option<Bits> {
    let top = a.width() - 1;
    if f.samesign && a.bit(top) != b.bit(top) {
        return None;
    }
    let (ua, ub) = (a.unsigned(), b.unsigned());
    let (sa, sb) = (a.signed(), b.signed());
    let r = match p {
        Pred::Eq => ua == ub,
        Pred::Ne => ua != ub,
        Pred::Ugt => ua > ub,
        Pred::Uge => ua >= ub,
        Pred::Ult => ua < ub,
        Pred::Ule => ua <= ub,
        Pred::Sgt => sa > sb,
        Pred::Sge => sa >= sb,
        Pred::Slt => sa < sb,
        Pred::Sle => sa <= sb,
    };
    Some(Bits::from_u64(1, r as u64))
}

fn eval_gep(elt_bytes: u64, ptr_bits: u64, p: &Bits, i: &Bits) -> Option<Bits> {
    let offset = i.signed() * BigInt::from(elt_bytes);
    Some(Bits::from_bigint(ptr_bits, &(p.unsigned_int() + offset)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_results_by_hand() {
        let dl = DataLayout::default();
        let run = |t: &str, a: u64, b: u64| {
            let p = parse_inst(t, &dl).unwrap();
            let w = p.inst.operand_bits();
            eval_inst(&p.inst, &[Bits::from_u64(w[0], a), Bits::from_u64(w[1], b)])
                .map(|r| r.low_u64())
        };
        assert_eq!(run("lshr i8 %x, 3", 0x80, 3), Some(0x10));
        assert_eq!(run("ashr i8 %x, 3", 0x80, 3), Some(0xf0));
        assert_eq!(run("shl i8 %x, 8", 1, 8), None);
        assert_eq!(run("add nsw i8 %x, 1", 127, 1), None);
        assert_eq!(run("add nuw i8 %x, 1", 127, 1), Some(128));
        assert_eq!(run("sdiv i8 %x, %y", 0x80, 0xff), None);
        assert_eq!(run("srem i8 %x, %y", 0xf9, 2), Some(0xff)); // -7 srem 2 = -1
        assert_eq!(run("icmp ult i8 %x, %y", 0xff, 0), Some(0));
        assert_eq!(run("icmp slt i8 %x, %y", 0xff, 0), Some(1));
        assert_eq!(
            run("getelementptr i32, ptr %p, i64 %i", 0x1000, u64::MAX),
            Some(0xffc)
        );
        assert!(parse_inst("fadd float %x, %y", &dl).is_err());
        assert!(parse_inst("zext i8 %x to i4", &dl)
            .unwrap()
            .inst
            .check()
            .is_err());
    }
}
