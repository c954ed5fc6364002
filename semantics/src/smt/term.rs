//! Small helpers over z3 terms: constants from `Bits`, numerals back to
//! `Bits`, and the two floating-point conversions the `z3` crate does not
//! wrap.

use crate::bits::Bits;
use crate::types::Type;
use num_bigint::BigUint;
use num_traits::Num;
use z3::ast::{Ast, Bool, Float, BV};
use z3::Sort;

/// Width of a bit offset. Memory is at most `2^64` bytes, `2^67` bits; an
/// offset operand is at most 64 bits, so `B * 8` needs 67 bits with its sign.
/// Offsets are checked against the storage after every op, so 80 bits never
/// wrap.
pub const OFF: u32 = 80;

/// The bit-vector constant with these bits.
pub fn bv_of(b: &Bits) -> BV {
    bv_big(b.width() as u32, &b.unsigned())
}

/// The `w`-bit constant `v` (reduced modulo `2^w`).
pub fn bv_big(w: u32, v: &BigUint) -> BV {
    BV::from_str(w, &v.to_str_radix(10)).expect("a decimal numeral is a valid z3 numeral")
}

/// The `w`-bit constant `v`.
pub fn bv_u(w: u32, v: u64) -> BV {
    BV::from_u64(v, w)
}

/// A bit offset constant.
pub fn off_u(v: u128) -> BV {
    bv_big(OFF, &BigUint::from(v))
}

pub fn tt() -> Bool {
    Bool::from_bool(true)
}
pub fn ff() -> Bool {
    Bool::from_bool(false)
}

/// `a ∧ b`.
pub fn and(a: &Bool, b: &Bool) -> Bool {
    Bool::and(&[a, b])
}

/// Zero-extends or truncates `v` to `w` bits.
pub fn resize(v: &BV, w: u32) -> BV {
    let n = v.get_size();
    match n.cmp(&w) {
        std::cmp::Ordering::Less => v.zero_ext(w - n),
        std::cmp::Ordering::Greater => v.extract(w - 1, 0),
        std::cmp::Ordering::Equal => v.clone(),
    }
}

/// Sign-extends or truncates `v` to `w` bits.
pub fn resize_signed(v: &BV, w: u32) -> BV {
    let n = v.get_size();
    match n.cmp(&w) {
        std::cmp::Ordering::Less => v.sign_ext(w - n),
        std::cmp::Ordering::Greater => v.extract(w - 1, 0),
        std::cmp::Ordering::Equal => v.clone(),
    }
}

/// The constant value of a term after simplification, if it is one.
pub fn const_u128(v: &BV) -> Option<u128> {
    let s = v.simplify();
    numeral_bits(&s).and_then(|b| b.to_u128())
}

/// A bit-vector numeral as `Bits` (z3 prints numerals as `#x..` or `#b..`).
pub fn numeral_bits(v: &BV) -> Option<Bits> {
    let text = v.to_string();
    let w = v.get_size() as u64;
    let value = if let Some(h) = text.strip_prefix("#x") {
        BigUint::from_str_radix(h, 16).ok()?
    } else if let Some(b) = text.strip_prefix("#b") {
        BigUint::from_str_radix(b, 2).ok()?
    } else {
        return None;
    };
    Some(Bits::new(w, value))
}

/// The z3 floating-point sort of a floating-point type (exponent bits,
/// significand bits with the hidden one).
pub fn float_sort(t: &Type) -> Sort {
    match t {
        Type::Half => Sort::float(5, 11),
        Type::BFloat => Sort::float(8, 8),
        Type::Float => Sort::float(8, 24),
        _ => Sort::float(11, 53),
    }
}

/// The float whose IEEE encoding is `bits`.
pub fn float_from_bits(bits: &BV, t: &Type) -> Float {
    let sort = float_sort(t);
    let ctx = bits.get_ctx();
    // SAFETY: `Z3_mk_fpa_to_fp_bv` is the documented constructor of a float
    // from its IEEE bits; the `z3` crate does not wrap it. Both arguments are
    // live terms of the thread's context, the bit-vector has exactly
    // `ebits + sbits` bits (the caller passes a value of type `t`), and the
    // result is wrapped (reference-counted) at once.
    unsafe {
        let raw =
            z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), bits.get_z3_ast(), sort.get_z3_sort())
                .expect("z3 returned no term for fp.to_fp of a bit-vector");
        Float::wrap(ctx, raw)
    }
}

/// The signed integer `v` rounded to nearest-even in float type `t`.
pub fn float_from_signed(v: &BV, t: &Type) -> Float {
    let sort = float_sort(t);
    let ctx = v.get_ctx();
    let rm = z3::ast::RoundingMode::round_nearest_ties_to_even();
    // SAFETY: `Z3_mk_fpa_to_fp_signed` converts a two's complement
    // bit-vector to a float; the `z3` crate does not wrap it. The rounding
    // mode, the bit-vector and the sort are live objects of the thread's
    // context, and the result is wrapped (reference-counted) at once.
    unsafe {
        let raw = z3_sys::Z3_mk_fpa_to_fp_signed(
            ctx.get_z3_context(),
            rm.get_z3_ast(),
            v.get_z3_ast(),
            sort.get_z3_sort(),
        )
        .expect("z3 returned no term for fp.to_fp of a signed bit-vector");
        Float::wrap(ctx, raw)
    }
}

/// The IEEE bits of `f`, with every NaN the canonical one (D-nan-canonical).
pub fn float_bits(f: &Float, t: &Type) -> BV {
    let w = match t {
        Type::Half | Type::BFloat => 16,
        Type::Float => 32,
        _ => 64,
    };
    let nan = bv_u(w, crate::float::canonical_nan(t));
    f.is_nan().ite(&nan, &f.to_ieee_bv())
}

/// `f` (of floating-point type `t`) truncated toward zero to a `w`-bit
/// integer, signed or unsigned, and the condition that it fits: not NaN,
/// not infinite, and the truncated value in the integer's range (the twin of
/// `value::float_to_int` and the range checks of D-convert-semantics and
/// D-dwarf-convert).
///
/// Formats narrower than `double` are widened to `double` first, which is
/// exact and keeps every comparison in one format: z3 4.8 fails ("invalid
/// zero_extend application") on some `bfloat` conversions done in place.
/// The bits are only meaningful where the value fits (`fits`).
pub fn float_to_int(f: &Float, t: &Type, w: u32, signed: bool) -> (BV, Bool) {
    let rtz = z3::ast::RoundingMode::round_towards_zero();
    let x = if matches!(t, Type::Double) {
        f.clone()
    } else {
        let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
        f.to_fp_with_rounding_mode(&rne, &Sort::float(11, 53))
    };
    // The truncation toward zero is in `[lo, hi)` exactly when `x` is in
    // `(lo - 1, hi)`: no `roundToIntegral` circuit, and NaN and the
    // infinities fail one of the two comparisons. `lo - 1` is a double up
    // to `w = 53`; past that the doubles next to `lo` are at least 2 apart,
    // so `x > lo - 1` is `x >= lo`.
    let lim = |e: u32| 2f64.powi(e as i32);
    let (above, hi) = if signed {
        let lo = -lim(w - 1);
        let above = if w - 1 <= 52 {
            x.gt(Float::from_f64(lo - 1.0))
        } else {
            x.ge(Float::from_f64(lo))
        };
        (above, lim(w - 1))
    } else {
        (x.gt(Float::from_f64(-1.0)), lim(w))
    };
    let fits = Bool::and(&[&above, &x.lt(Float::from_f64(hi))]);
    // Where the value fits, its `w` bits are the low bits of its 64-bit
    // (or wider) two's complement conversion. Every width converts through
    // that one term, so an expression and a DWARF that convert to different
    // widths (`i17` and a whole-byte `__s24`) share it and the solver
    // bit-blasts one conversion, not two.
    let bits = if signed || w < 64 {
        x.to_sbv_with_rounding_mode(&rtz, w.max(64))
            .extract(w - 1, 0)
    } else {
        x.to_ubv_with_rounding_mode(&rtz, w)
    };
    (bits, fits)
}

/// The signed remainder `a - b * (a sdiv b)`, which is `bvsrem` for every
/// non-zero `b` (at `MIN / -1` the quotient wraps to `MIN` and the remainder
/// is 0).
///
/// Every encoding writes the remainder this way (`DIOpMod`, LLVM's `srem`,
/// the rule language's signed `%`, the DWARF twin): it is the form a DWARF
/// consumer computes from `DW_OP_div` (`DW_OP_mod` is unsigned in DWARF 5),
/// so a lowering or a rule that spells it out is the same term, proven
/// without bit-blasting two dividers.
///
/// Operands whose sign bits are known zero (zero extensions: a classic
/// `DW_OP_mod`'s unsigned operands translated to DIOps) take `bvurem`,
/// which is the same number there and the term the unsigned side has.
pub fn srem(a: &BV, b: &BV) -> BV {
    let w = a.get_size();
    let non_negative = |x: &BV| const_u128(&x.extract(w - 1, w - 1)) == Some(0);
    if non_negative(a) && non_negative(b) {
        return a.bvurem(b);
    }
    a.bvsub(b.bvmul(a.bvsdiv(b)))
}

/// `x << k`, as `bvshl`: zero past the width.
///
/// A constant amount is written out as `concat`/`extract`, which z3's
/// simplifier sees through (an `extract` of a `bvshl` by a numeral it does
/// not); an expression and its DWARF that mask and shift the same bits then
/// become one term, proven without search.
pub fn shl(x: &BV, k: &BV) -> BV {
    let w = x.get_size();
    match const_u128(k) {
        Some(0) => x.clone(),
        Some(k) if k >= w as u128 => bv_u(w, 0),
        Some(k) => {
            let k = k as u32;
            x.extract(w - 1 - k, 0).concat(bv_u(k, 0))
        }
        None => x.bvshl(k),
    }
}

/// `x >> k` zero-filled, as `bvlshr`: zero past the width (see [`shl`]).
pub fn lshr(x: &BV, k: &BV) -> BV {
    let w = x.get_size();
    match const_u128(k) {
        Some(0) => x.clone(),
        Some(k) if k >= w as u128 => bv_u(w, 0),
        Some(k) => x.extract(w - 1, k as u32).zero_ext(k as u32),
        None => x.bvlshr(k),
    }
}

/// `x >> k` sign-filled, as `bvashr`: all sign bits past the width (see
/// [`shl`]).
pub fn ashr(x: &BV, k: &BV) -> BV {
    let w = x.get_size();
    match const_u128(k) {
        Some(0) => x.clone(),
        Some(k) => {
            let k = k.min(w as u128 - 1) as u32;
            x.extract(w - 1, k).sign_ext(k)
        }
        None => x.bvashr(k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::{solve, Answer};

    /// The remainder through the quotient is `bvsrem` wherever the divisor
    /// is not zero.
    #[test]
    fn srem_is_the_smt_lib_remainder() {
        let (a, b) = (BV::new_const("a", 8), BV::new_const("b", 8));
        let differ = Bool::and(&[
            &b.eq(bv_u(8, 0)).not(),
            &srem(&a, &b).eq(a.bvsrem(&b)).not(),
        ]);
        assert!(matches!(solve(&[&differ], 20_000), Answer::Unsat));
    }

    /// The constant-amount forms are `bvshl`, `bvlshr` and `bvashr` for
    /// every amount, in range or past the width.
    #[test]
    fn constant_shifts_are_the_smt_lib_shifts() {
        let x = BV::new_const("x", 8);
        for k in 0..=10u64 {
            let k = bv_u(8, k);
            for (mine, theirs) in [
                (shl(&x, &k), x.bvshl(&k)),
                (lshr(&x, &k), x.bvlshr(&k)),
                (ashr(&x, &k), x.bvashr(&k)),
            ] {
                let differ = mine.eq(&theirs).not();
                assert!(matches!(solve(&[&differ], 5_000), Answer::Unsat));
            }
        }
    }
}
