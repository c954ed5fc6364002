//! Floating-point conversions and arithmetic with LLVM's own semantics.
//!
//! Both interpreters (DIOps and DWARF) compute floating point here, on
//! `rustc_apfloat`, a port of LLVM's `APFloat`: every result is rounded once,
//! to nearest-even, in the destination format, on every host. The host's
//! `f32`/`f64` and the `half` crate are not used for results: `half`'s
//! `f16::from_f64` goes through `f32` on x86 with F16C (rounding twice, so
//! `double 0x3FF0020000001000` became `half 0x3C00`, not `0x3C01`) and
//! truncates elsewhere.
//!
//! NaN results are the canonical quiet NaN of their format
//! (D-nan-canonical), where APFloat would keep the operand's payload.

use crate::types::Type;
use rustc_apfloat::ieee::{BFloat, Double, Half, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

/// A floating-point operation of `DIOpAdd`/`Sub`/`Mul`/`Div` and of DWARF's
/// `DW_OP_plus`/`minus`/`mul`/`div` on floating-point values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// The canonical quiet NaN of `t` (positive, zero payload).
pub fn canonical_nan(t: &Type) -> u64 {
    match t {
        Type::Half => 0x7E00,
        Type::BFloat => 0x7FC0,
        Type::Float => 0x7FC0_0000,
        _ => 0x7FF8_0000_0000_0000,
    }
}

/// Runs `$body` with `$F` bound to the APFloat type of `$t`.
macro_rules! with_format {
    ($t:expr, $F:ident => $body:expr) => {
        match $t {
            Type::Half => {
                type $F = Half;
                $body
            }
            Type::BFloat => {
                type $F = BFloat;
                $body
            }
            Type::Float => {
                type $F = Single;
                $body
            }
            _ => {
                type $F = Double;
                $body
            }
        }
    };
}

fn bits_of<F: Float>(t: &Type, x: F) -> u64 {
    if x.is_nan() {
        canonical_nan(t)
    } else {
        x.to_bits() as u64
    }
}

/// The float of `from` with these bits, rounded to nearest-even in `to`
/// (LLVM's `APFloat::convert`, `fpext`/`fptrunc`).
pub fn convert(from: &Type, to: &Type, bits: u64) -> u64 {
    fn into<F: Float + FloatConvert<G>, G: Float>(to: &Type, bits: u64) -> u64 {
        let mut loses_info = false;
        let r = F::from_bits(bits as u128).convert_r(Round::NearestTiesToEven, &mut loses_info);
        bits_of(to, r.value)
    }
    with_format!(from, F => with_format!(to, G => into::<F, G>(to, bits)))
}

/// `a op b` in the format of `t`, rounded to nearest-even (IEEE 754, as
/// LLVM's constant folder computes it).
pub fn binop(t: &Type, op: FloatOp, a: u64, b: u64) -> u64 {
    fn run<F: Float>(t: &Type, op: FloatOp, a: u64, b: u64) -> u64 {
        let (x, y) = (F::from_bits(a as u128), F::from_bits(b as u128));
        let rne = Round::NearestTiesToEven;
        let r = match op {
            FloatOp::Add => x.add_r(y, rne),
            FloatOp::Sub => x.sub_r(y, rne),
            FloatOp::Mul => x.mul_r(y, rne),
            FloatOp::Div => x.div_r(y, rne),
        };
        bits_of(t, r.value)
    }
    with_format!(t, F => run::<F>(t, op, a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The double rounding the `half` crate did on x86: a double just above
    /// the half-way point between two halves rounds up, once.
    #[test]
    fn a_double_is_rounded_once_to_half() {
        assert_eq!(
            convert(&Type::Double, &Type::Half, 0x3FF0_0200_0000_1000),
            0x3C01
        );
        // Exactly half-way: ties to even (down to 0x3C00).
        assert_eq!(
            convert(&Type::Double, &Type::Half, 0x3FF0_0200_0000_0000),
            0x3C00
        );
        // bfloat keeps the round-up hint in the low bits too.
        assert_eq!(
            convert(&Type::Double, &Type::BFloat, 0x3FF0_1000_0000_0001),
            0x3F81
        );
    }

    #[test]
    fn nan_results_are_canonical() {
        // A signalling NaN with a payload, converted and added.
        assert_eq!(
            convert(&Type::Float, &Type::Double, 0xFF80_0001),
            0x7FF8_0000_0000_0000
        );
        assert_eq!(binop(&Type::Half, FloatOp::Add, 0x7C01, 0x3C00), 0x7E00);
        // inf - inf is invalid: a NaN.
        assert_eq!(
            binop(&Type::Float, FloatOp::Sub, 0x7F80_0000, 0x7F80_0000),
            0x7FC0_0000
        );
    }

    #[test]
    fn arithmetic_rounds_in_the_operands_format() {
        // 1 + 2^-11 in half: a tie, to even (1.0).
        assert_eq!(binop(&Type::Half, FloatOp::Add, 0x3C00, 0x1000), 0x3C00);
        // 1 / 3 in float.
        assert_eq!(
            binop(&Type::Float, FloatOp::Div, 0x3F80_0000, 0x4040_0000),
            0x3EAA_AAAB
        );
        // bfloat 1 + 1 = 2.
        assert_eq!(binop(&Type::BFloat, FloatOp::Add, 0x3F80, 0x3F80), 0x4000);
    }
}

/// The interpreters' floating point against the SMT encoding's (z3's
/// floating-point theory, exact by construction): every `half` and
/// `bfloat` input through every conversion out of it, and a sample of
/// `float` and `double` inputs and of operations in every format.
#[cfg(all(test, feature = "smt"))]
mod against_z3 {
    use super::*;
    use crate::smt::term::{bv_u, float_bits, float_from_bits, float_sort, numeral_bits};
    use crate::value::{fits_signed, float_to_int};
    use z3::ast::{Ast, Float as ZFloat};

    const FORMATS: [Type; 4] = [Type::Half, Type::BFloat, Type::Float, Type::Double];

    fn width(t: &Type) -> u32 {
        match t {
            Type::Half | Type::BFloat => 16,
            Type::Float => 32,
            _ => 64,
        }
    }

    /// The bits a value of `t` has.
    fn mask(t: &Type) -> u64 {
        u64::MAX >> (64 - width(t))
    }

    fn numeral(v: &z3::ast::BV) -> u64 {
        let s = v.simplify();
        numeral_bits(&s)
            .and_then(|b| b.to_u64())
            .unwrap_or_else(|| panic!("z3 left {s} unevaluated"))
    }

    fn z3_float(t: &Type, bits: u64) -> ZFloat {
        float_from_bits(&bv_u(width(t), bits), t)
    }

    fn z3_convert(from: &Type, to: &Type, bits: u64) -> u64 {
        let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
        let x = z3_float(from, bits).to_fp_with_rounding_mode(&rne, &float_sort(to));
        numeral(&float_bits(&x, to))
    }

    /// The z3 twin of `value::float_to_int` into a signed `w`-bit integer:
    /// the bits where the value fits, `None` where it does not.
    fn z3_to_int(from: &Type, bits: u64, w: u32) -> Option<u64> {
        let (v, fits) = crate::smt::term::float_to_int(&z3_float(from, bits), from, w, true);
        match fits.simplify().as_bool() {
            Some(true) => Some(numeral(&v)),
            Some(false) => None,
            None => panic!("z3 left the range check of {bits:#x} unevaluated"),
        }
    }

    fn to_int(from: &Type, bits: u64, w: u32) -> Option<u64> {
        float_to_int(from, bits)
            .filter(|i| fits_signed(i, w as u64))
            .map(|i| crate::bits::Bits::from_bigint(w as u64, &i).low_u64())
    }

    /// Every half and bfloat, to every other format and to i8, i16, i17
    /// and i32 (i64 holds every value i32 does not miss).
    #[test]
    fn every_half_and_bfloat_conversion_agrees() {
        for from in [Type::Half, Type::BFloat] {
            for bits in 0..=0xFFFFu64 {
                for to in FORMATS.iter().filter(|t| **t != from) {
                    assert_eq!(
                        convert(&from, to, bits),
                        z3_convert(&from, to, bits),
                        "{from} {bits:#06x} to {to}"
                    );
                }
                for w in [8, 16, 17, 32] {
                    assert_eq!(
                        to_int(&from, bits, w),
                        z3_to_int(&from, bits, w),
                        "{from} {bits:#06x} to i{w}"
                    );
                }
            }
        }
    }

    /// splitmix64: deterministic samples without a dependency.
    fn samples(seed: u64, n: usize) -> Vec<u64> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect()
    }

    /// Random float and double inputs (and the values next to the halves'
    /// rounding boundaries), to every other format.
    #[test]
    fn sampled_float_and_double_conversions_agree() {
        for from in [Type::Float, Type::Double] {
            let mask = mask(&from);
            for r in samples(width(&from) as u64, 20_000) {
                // Half the samples near 1.0, where the narrow formats round.
                let bits = if r & 1 == 0 {
                    r & mask
                } else if from == Type::Float {
                    0x3F80_0000 | (r >> 40 & 0x7F_FFFF)
                } else {
                    0x3FF0_0000_0000_0000 | (r >> 12)
                };
                for to in FORMATS.iter().filter(|t| **t != from) {
                    assert_eq!(
                        convert(&from, to, bits),
                        z3_convert(&from, to, bits),
                        "{from} {bits:#x} to {to}"
                    );
                }
            }
        }
    }

    /// Float-to-integer conversions at the edges of every range: the
    /// limits, their neighbours and half-way points, for widths where
    /// `lo - 1` is a double and where it is not.
    #[test]
    fn conversions_to_integers_agree_at_the_range_edges() {
        for w in [8u32, 17, 32, 52, 53, 54, 63, 64] {
            let lim = 2f64.powi(w as i32 - 1);
            let mut values = vec![0.0, -0.0, 0.5, -0.5, f64::INFINITY, f64::NAN];
            for edge in [-lim, lim] {
                for d in [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0] {
                    values.push(edge + d);
                }
                let b = edge.to_bits();
                values.extend([f64::from_bits(b - 1), f64::from_bits(b + 1)]);
            }
            for v in values {
                for from in [Type::Double, Type::Float] {
                    let bits = convert(&Type::Double, &from, v.to_bits());
                    assert_eq!(
                        to_int(&from, bits, w),
                        z3_to_int(&from, bits, w),
                        "{from} {v} to i{w}"
                    );
                }
            }
        }
    }

    /// `+ - * /` in every format on random operands.
    #[test]
    fn sampled_arithmetic_agrees() {
        let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
        for t in FORMATS {
            let mask = mask(&t);
            let s = samples(7 + width(&t) as u64, 8_000);
            for pair in s.chunks(2) {
                let (a, b) = (pair[0] & mask, pair[1] & mask);
                let (x, y) = (z3_float(&t, a), z3_float(&t, b));
                for (op, z) in [
                    (FloatOp::Add, x.add_with_rounding_mode(y.clone(), &rne)),
                    (FloatOp::Sub, x.sub_with_rounding_mode(y.clone(), &rne)),
                    (FloatOp::Mul, x.mul_with_rounding_mode(y.clone(), &rne)),
                    (FloatOp::Div, x.div_with_rounding_mode(y.clone(), &rne)),
                ] {
                    assert_eq!(
                        binop(&t, op, a, b),
                        numeral(&float_bits(&z, &t)),
                        "{t} {a:#x} {op:?} {b:#x}"
                    );
                }
            }
        }
    }
}
