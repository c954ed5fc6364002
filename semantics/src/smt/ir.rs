//! The SMT column of the LLVM IR instructions of `crate::classic::ir`: one
//! `encode_*` per instruction kind, the twin of its `eval_*`, in the order
//! of [`Inst`]. The result and the condition under which it is poison.

#[cfg(doc)]
use crate::classic::ir::eval_inst;
use crate::classic::ir::{BinOp, CastOp, Flags, Inst, Pred};
use z3::ast::{Bool, BV};

/// The result of `inst` on `args` and the condition under which it is
/// poison: the twin of [`eval_inst`].
pub fn encode_inst(inst: &Inst, args: &[BV]) -> (BV, Bool) {
    match *inst {
        Inst::Binary { op, flags, bits } => encode_binary(op, flags, bits, &args[0], &args[1]),
        Inst::Cast { op, flags, to, .. } => encode_cast(op, flags, to, &args[0]),
        Inst::Icmp { pred, flags, .. } => encode_icmp(pred, flags, &args[0], &args[1]),
        Inst::Gep {
            elt_bytes,
            ptr_bits,
            ..
        } => encode_gep(elt_bytes, ptr_bits, &args[0], &args[1]),
        Inst::Freeze { .. } => (args[0].clone(), Bool::from_bool(false)),
        Inst::Select { .. } => (
            args[0].eq(BV::from_u64(1, 1)).ite(&args[1], &args[2]),
            Bool::from_bool(false),
        ),
    }
}

fn encode_binary(op: BinOp, f: Flags, n: u64, a: &BV, b: &BV) -> (BV, Bool) {
    let n32 = n as u32;
    let zero = BV::from_u64(0, n32);
    let mut poison = Vec::new();
    // Overflow of a product by a value: computed twice as wide and compared
    // with the wrapped result. Sums, differences and products by a
    // constant have exact tests without wider arithmetic (below).
    let wide = |x: &BV, signed: bool, w: u32| {
        if signed {
            x.sign_ext(w - n32)
        } else {
            x.zero_ext(w - n32)
        }
    };
    let overflows = |signed: bool, w: u32, f: fn(&BV, &BV) -> BV| {
        let exact = f(&wide(a, signed, w), &wide(b, signed, w));
        let r = f(a, b);
        exact.eq(wide(&r, signed, w)).not()
    };
    let r = match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            let (w, g): (u32, fn(&BV, &BV) -> BV) = match op {
                BinOp::Add => (n32 + 1, |x, y| x.bvadd(y)),
                BinOp::Sub => (n32 + 1, super::term::sub),
                _ => (2 * n32, |x, y| x.bvmul(y)),
            };
            // A product by a constant overflows past a bound on the other
            // factor: a comparison, not a multiplier twice as wide.
            let factor = match op {
                BinOp::Mul if n <= 128 => super::term::const_u128(b)
                    .map(|c| (a, c))
                    .or_else(|| super::term::const_u128(a).map(|c| (b, c))),
                _ => None,
            };
            let r = g(a, b);
            let sign = |x: &BV| x.extract(n32 - 1, n32 - 1);
            if f.nuw {
                poison.push(match (op, factor) {
                    // A sum wraps exactly when it is below an operand, a
                    // difference when it borrows.
                    (BinOp::Add, _) => r.bvult(a),
                    (BinOp::Sub, _) => a.bvult(b),
                    (_, Some((x, c))) => super::term::mul_overflows_unsigned(x, c),
                    _ => overflows(false, w, g),
                });
            }
            if f.nsw {
                // A sum overflows when its operands have one sign and it
                // has the other; a difference when its operands' signs
                // differ and its own is not the first operand's (Hacker's
                // Delight, 2-13). Bits the simplifier reads off zero and
                // sign extensions, where a subtraction one bit wider asked
                // z3 for a search (correlated-propagation's `sub nsw` of
                // two zero-extended values took 250 ms at `i64`).
                poison.push(match (op, factor) {
                    (BinOp::Add, _) => {
                        Bool::and(&[&sign(a).eq(sign(b)), &sign(&r).eq(sign(a)).not()])
                    }
                    (BinOp::Sub, _) => {
                        Bool::and(&[&sign(a).eq(sign(b)).not(), &sign(&r).eq(sign(a)).not()])
                    }
                    (_, Some((x, c))) => super::term::mul_overflows_signed(x, c),
                    _ => overflows(true, w, g),
                });
            }
            r
        }
        BinOp::UDiv | BinOp::URem => {
            poison.push(b.eq(&zero));
            if op == BinOp::UDiv && f.exact {
                poison.push(super::term::urem(a, b).eq(&zero).not());
            }
            if op == BinOp::UDiv {
                super::term::udiv(a, b)
            } else {
                super::term::urem(a, b)
            }
        }
        BinOp::SDiv | BinOp::SRem => {
            let min = BV::from_u64(1, n32).bvshl(BV::from_u64(n - 1, n32));
            let m1 = BV::from_i64(-1, n32);
            poison.push(b.eq(&zero));
            poison.push(Bool::and(&[&a.eq(&min), &b.eq(&m1)]));
            if op == BinOp::SDiv && f.exact {
                poison.push(super::term::srem(a, b).eq(&zero).not());
            }
            if op == BinOp::SDiv {
                super::term::sdiv(a, b)
            } else {
                super::term::srem(a, b)
            }
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            poison.push(b.bvuge(BV::from_u64(n, n32)));
            match op {
                BinOp::Shl => {
                    let r = super::term::shl(a, b);
                    if f.nuw {
                        poison.push(r.bvlshr(b).eq(a).not());
                    }
                    if f.nsw {
                        poison.push(r.bvashr(b).eq(a).not());
                    }
                    r
                }
                _ => {
                    if f.exact {
                        poison.push(a.bvlshr(b).bvshl(b).eq(a).not());
                    }
                    if op == BinOp::LShr {
                        super::term::lshr(a, b)
                    } else {
                        super::term::ashr(a, b)
                    }
                }
            }
        }
        BinOp::And => a.bvand(b),
        BinOp::Or => {
            if f.disjoint {
                poison.push(a.bvand(b).eq(&zero).not());
            }
            a.bvor(b)
        }
        BinOp::Xor => a.bvxor(b),
    };
    (r, Bool::or(&poison.iter().collect::<Vec<_>>()))
}

fn encode_cast(op: CastOp, f: Flags, to: u64, a: &BV) -> (BV, Bool) {
    let from = a.get_size();
    let to = to as u32;
    let fit = |x: &BV| {
        if to <= from {
            x.extract(to - 1, 0)
        } else {
            x.zero_ext(to - from)
        }
    };
    match op {
        CastOp::SExt => (a.sign_ext(to - from), Bool::from_bool(false)),
        CastOp::ZExt if f.nneg => (fit(a), a.extract(from - 1, from - 1).eq(BV::from_u64(1, 1))),
        CastOp::Trunc if f.nuw || f.nsw => {
            let r = fit(a);
            let mut lost = Vec::new();
            if f.nuw {
                lost.push(r.zero_ext(from - to).eq(a).not());
            }
            if f.nsw {
                lost.push(r.sign_ext(from - to).eq(a).not());
            }
            (r, Bool::or(&lost.iter().collect::<Vec<_>>()))
        }
        _ => (fit(a), Bool::from_bool(false)),
    }
}

fn encode_icmp(p: Pred, f: Flags, a: &BV, b: &BV) -> (BV, Bool) {
    let top = a.get_size() - 1;
    let poison = if f.samesign {
        a.extract(top, top).eq(b.extract(top, top)).not()
    } else {
        Bool::from_bool(false)
    };
    let c = match p {
        Pred::Eq => a.eq(b),
        Pred::Ne => a.eq(b).not(),
        Pred::Ugt => a.bvugt(b),
        Pred::Uge => a.bvuge(b),
        Pred::Ult => a.bvult(b),
        Pred::Ule => a.bvule(b),
        Pred::Sgt => a.bvsgt(b),
        Pred::Sge => a.bvsge(b),
        Pred::Slt => a.bvslt(b),
        Pred::Sle => a.bvsle(b),
    };
    (c.ite(&BV::from_u64(1, 1), &BV::from_u64(0, 1)), poison)
}

fn encode_gep(elt_bytes: u64, ptr_bits: u64, p: &BV, i: &BV) -> (BV, Bool) {
    let pb = ptr_bits as u32;
    let ib = i.get_size();
    let idx = if ib >= pb {
        i.extract(pb - 1, 0)
    } else {
        i.sign_ext(pb - ib)
    };
    let scale = BV::from_u64(elt_bytes, 64);
    let scale = if pb <= 64 {
        scale.extract(pb - 1, 0)
    } else {
        scale.zero_ext(pb - 64)
    };
    (p.bvadd(idx.bvmul(&scale)), Bool::from_bool(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Bits;
    use crate::classic::ir::{eval_inst, parse_inst};
    use crate::smt::term::numeral_bits;
    use crate::types::DataLayout;
    use z3::ast::Ast;

    /// The sign-bit forms of `add`/`sub` `nsw` and the compare forms of
    /// `nuw` are the one-bit-wider arithmetic compared with the wrapped
    /// result, for every pair of operands, proven at 1, 2, 3, 8 and 64 bits.
    #[test]
    fn sum_and_difference_overflow_is_the_wider_arithmetic() {
        use crate::smt::{solve, Answer};
        for n in [1u32, 2, 3, 8, 64] {
            let (a, b) = (BV::new_const("a", n), BV::new_const("b", n));
            for op in [BinOp::Add, BinOp::Sub] {
                let g = |x: &BV, y: &BV| {
                    if op == BinOp::Add {
                        x.bvadd(y)
                    } else {
                        x.bvsub(y)
                    }
                };
                for signed in [false, true] {
                    let f = Flags {
                        nuw: !signed,
                        nsw: signed,
                        ..Flags::default()
                    };
                    let (_, poison) = encode_binary(op, f, u64::from(n), &a, &b);
                    let widen = |x: &BV| if signed { x.sign_ext(1) } else { x.zero_ext(1) };
                    let wider = g(&widen(&a), &widen(&b)).eq(widen(&g(&a, &b))).not();
                    let differ = poison.xor(&wider);
                    assert!(
                        matches!(solve(&[&differ], 20_000), Answer::Unsat),
                        "{op:?} at {n} bits, signed {signed}"
                    );
                }
            }
        }
    }

    /// Each instruction, on a sweep of 4-bit operands and every flag,
    /// gives the same result and poison in both columns.
    #[test]
    fn the_two_columns_agree_on_every_4_bit_input() {
        let dl = DataLayout::default();
        let texts = [
            "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and",
            "or", "xor",
        ];
        let flags = ["", "nuw ", "nsw ", "nuw nsw ", "exact ", "disjoint "];
        let mut insts = Vec::new();
        for t in texts {
            for f in flags {
                insts.push(format!("{t} {f}i4 %a, %b"));
            }
        }
        for p in [
            "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
        ] {
            insts.push(format!("icmp {p} i4 %a, %b"));
            insts.push(format!("icmp samesign {p} i4 %a, %b"));
        }
        for c in [
            "zext i4 %a to i6",
            "zext nneg i4 %a to i6",
            "sext i4 %a to i6",
            "trunc i4 %a to i2",
            "trunc nuw i4 %a to i2",
            "trunc nsw i4 %a to i2",
            "trunc nuw nsw i4 %a to i2",
        ] {
            insts.push(c.to_string());
        }
        insts.push("getelementptr i16, ptr %a, i4 %b".to_string());
        insts.push("freeze i4 %a".to_string());
        insts.push("select i1 %a, i4 %b, i4 %c".to_string());
        let mut layout = dl.clone();
        layout.set_pointer_bits(0, 8);
        let mut compared = 0;
        for text in &insts {
            let p = parse_inst(text, &layout).unwrap();
            let widths = p.inst.operand_bits();
            for a in 0..1u64 << widths[0] {
                for b in 0..widths.get(1).map_or(1, |w| 1u64 << w) {
                    let mut args = vec![Bits::from_u64(widths[0], a)];
                    if let Some(&w) = widths.get(1) {
                        args.push(Bits::from_u64(w, b));
                    }
                    // `select`'s third operand: another value than the
                    // second, so the choice shows.
                    if let Some(&w) = widths.get(2) {
                        args.push(Bits::from_u64(w, (b * 7 + 3) % (1 << w)));
                    }
                    let want = eval_inst(&p.inst, &args);
                    let bvs: Vec<BV> = args
                        .iter()
                        .map(|x| BV::from_u64(x.low_u64(), x.width() as u32))
                        .collect();
                    let (v, poison) = encode_inst(&p.inst, &bvs);
                    let poison = poison.simplify().as_bool().unwrap();
                    assert_eq!(poison, want.is_none(), "{text} on {a}, {b}");
                    if let Some(w) = want {
                        let got = numeral_bits(&v.simplify()).unwrap();
                        assert_eq!(got, w, "{text} on {a}, {b}");
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
    }
}
