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
use num_bigint::{BigInt, Sign};
use num_traits::{ToPrimitive, Zero};
use rustc_apfloat::ieee::{BFloat, Double, Half, IeeeFloat, Quad, Single, X87DoubleExtended};
use rustc_apfloat::ppc::{DoubleDouble, FallbackS};
use rustc_apfloat::{ExpInt, Float, FloatConvert, Round};
use std::cmp::Ordering;

/// LLVM's `semPPCDoubleDoubleLegacy`: an IEEE-like format of 106 bits of
/// precision and `double`'s exponent range. `APFloat` converts a
/// `ppc_fp128` to and from other formats, divides it and converts it to
/// integers through this format (`DoubleAPFloat::bitcastToIEEE`).
type Legacy = IeeeFloat<FallbackS<Double>>;

const RNE: Round = Round::NearestTiesToEven;

/// A floating-point operation of `DIOpAdd`/`Sub`/`Mul`/`Div` and of DWARF's
/// `DW_OP_plus`/`minus`/`mul`/`div` on floating-point values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// The number of bits of a value of floating-point type `t`.
pub fn format_bits(t: &Type) -> u32 {
    match t {
        Type::Half | Type::BFloat => 16,
        Type::Float => 32,
        Type::X86Fp80 => 80,
        Type::Fp128 | Type::PpcFp128 => 128,
        _ => 64,
    }
}

/// The canonical quiet NaN of `t`: positive, quiet, zero payload (for
/// `x86_fp80` with its explicit integer bit set; for `ppc_fp128` a NaN
/// high part and a `+0.0` low part, as `APFloat` makes one).
pub fn canonical_nan(t: &Type) -> u128 {
    match t {
        Type::Half => 0x7E00,
        Type::BFloat => 0x7FC0,
        Type::Float => 0x7FC0_0000,
        Type::X86Fp80 => 0x7FFF_C000_0000_0000_0000,
        Type::Fp128 => 0x7FFF_8000_0000_0000_0000_0000_0000_0000,
        _ => 0x7FF8_0000_0000_0000,
    }
}

/// Runs `$body` with `$F` bound to the APFloat type of `t`, for every
/// format `APFloat` keeps in IEEE form (all but `ppc_fp128`).
macro_rules! with_ieee {
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
            Type::X86Fp80 => {
                type $F = X87DoubleExtended;
                $body
            }
            Type::Fp128 => {
                type $F = Quad;
                $body
            }
            _ => {
                type $F = Double;
                $body
            }
        }
    };
}

/// Is the float of type `t` with these bits a NaN? A `ppc_fp128` is one
/// when either of its `double`s is.
///
/// DECISION (D-ppc-fp128-parts): `APFloat` reads a `ppc_fp128` by its high
/// `double` alone when that is zero, infinite or NaN, and adds the low one
/// otherwise; a NaN low part under a finite high part makes that sum a
/// NaN, so the value is a NaN.
fn is_nan(t: &Type, bits: u128) -> bool {
    match t {
        Type::PpcFp128 => {
            Double::from_bits(bits & u128::from(u64::MAX)).is_nan()
                || Double::from_bits(bits >> 64).is_nan()
        }
        _ => with_ieee!(t, F => F::from_bits(bits).is_nan()),
    }
}

fn bits_of<F: Float>(t: &Type, x: F) -> u128 {
    if x.is_nan() {
        canonical_nan(t)
    } else {
        x.to_bits()
    }
}

/// A `ppc_fp128` in LLVM's legacy form (`bitcastToIEEE`): the sum of its
/// two `double`s rounded to 106 bits. Not for NaNs.
fn to_legacy(bits: u128) -> Legacy {
    Legacy::from(DoubleDouble::from_bits(bits))
}

/// A legacy-form value split into a `ppc_fp128` (`bitcastToAPInt`): the
/// high `double` is the value rounded, the low one the rest.
///
/// `rustc_apfloat` asserts that rounding to the high `double` does not
/// overflow, which a value within half an ulp of `2^1024` breaks; LLVM
/// (whose assert is off in release builds) then keeps the infinity and a
/// zero low part, and so does this.
fn from_legacy(x: Legacy) -> u128 {
    if x.is_nan() {
        return canonical_nan(&Type::PpcFp128);
    }
    // The least magnitude that rounds to infinity as a `double`:
    // 2^1024 - 2^970, 54 ones from 2^1023 down.
    let overflow = Legacy::from_u128((1u128 << 54) - 1).value.scalbn(1023 - 53);
    if x.is_finite() && x.abs() >= overflow {
        let inf = Double::INFINITY.copy_sign(Double::from_bits(u128::from(x.is_negative()) << 63));
        return inf.to_bits();
    }
    DoubleDouble::from(x).to_bits()
}

/// The float of `from` with these bits, rounded to nearest-even in `to`
/// (LLVM's `APFloat::convert`, `fpext`/`fptrunc`).
pub fn convert(from: &Type, to: &Type, bits: u128) -> u128 {
    fn into<F: Float + FloatConvert<G>, G: Float>(to: &Type, bits: u128) -> u128 {
        let mut loses_info = false;
        bits_of(to, F::from_bits(bits).convert_r(RNE, &mut loses_info).value)
    }
    if is_nan(from, bits) {
        return canonical_nan(to);
    }
    let mut loses_info = false;
    match (from, to) {
        (Type::PpcFp128, Type::PpcFp128) => bits,
        (Type::PpcFp128, _) => with_ieee!(to, G => bits_of::<G>(
            to,
            to_legacy(bits).convert_r(RNE, &mut loses_info).value
        )),
        (_, Type::PpcFp128) => with_ieee!(from, F => from_legacy(
            F::from_bits(bits).convert_r(RNE, &mut loses_info).value
        )),
        _ => with_ieee!(from, F => with_ieee!(to, G => into::<F, G>(to, bits))),
    }
}

/// `a op b` in the format of `t`, rounded to nearest-even (IEEE 754, as
/// LLVM's constant folder computes it; `ppc_fp128` as `APFloat`'s
/// double-double arithmetic, division in the legacy form).
pub fn binop(t: &Type, op: FloatOp, a: u128, b: u128) -> u128 {
    fn run<F: Float>(t: &Type, op: FloatOp, x: F, y: F) -> u128 {
        let r = match op {
            FloatOp::Add => x.add_r(y, RNE),
            FloatOp::Sub => x.sub_r(y, RNE),
            FloatOp::Mul => x.mul_r(y, RNE),
            FloatOp::Div => x.div_r(y, RNE),
        };
        bits_of(t, r.value)
    }
    if is_nan(t, a) || is_nan(t, b) {
        return canonical_nan(t);
    }
    match (t, op) {
        (Type::PpcFp128, FloatOp::Div) => from_legacy(to_legacy(a).div_r(to_legacy(b), RNE).value),
        (Type::PpcFp128, _) => run(
            t,
            op,
            DoubleDouble::from_bits(a),
            DoubleDouble::from_bits(b),
        ),
        _ => with_ieee!(t, F => run(t, op, F::from_bits(a), F::from_bits(b))),
    }
}

/// How two floats of type `t` compare (`None` when either is a NaN), as
/// `APFloat::compare` (a `ppc_fp128` by its high part, then its low part).
pub fn compare(t: &Type, a: u128, b: u128) -> Option<Ordering> {
    if is_nan(t, a) || is_nan(t, b) {
        return None;
    }
    match t {
        Type::PpcFp128 => DoubleDouble::from_bits(a).partial_cmp(&DoubleDouble::from_bits(b)),
        _ => with_ieee!(t, F => F::from_bits(a).partial_cmp(&F::from_bits(b))),
    }
}

/// The integer `v` rounded to nearest-even in the floating-point type `t`
/// (overflow gives an infinity), rounded once, on the exact integer
/// (`APFloat::convertFromAPInt`, `sitofp`/`uitofp`).
pub fn int_to_float(t: &Type, v: &BigInt) -> u128 {
    match t {
        Type::PpcFp128 => from_legacy(from_int::<Legacy>(v)),
        _ => with_ieee!(t, F => bits_of(t, from_int::<F>(v))),
    }
}

/// `v` rounded once to `F`. An integer of more than 128 bits is first cut
/// to its top 127 bits with the rest folded into the lowest one ("round to
/// odd"): with at least two bits more than `F`'s precision (113 at most)
/// that rounds as the whole integer would, and the scaling back is exact.
fn from_int<F: Float>(v: &BigInt) -> F {
    let mag = v.magnitude();
    let n = mag.bits();
    let x = if n <= 128 {
        F::from_u128_r(mag.to_u128().unwrap_or(0), RNE).value
    } else {
        let shift = n - 127;
        let top = (mag >> shift).to_u128().unwrap_or(0);
        let sticky = mag.trailing_zeros().is_some_and(|z| z < shift);
        let scale = ExpInt::try_from(shift).unwrap_or(ExpInt::MAX);
        F::from_u128_r(top | u128::from(sticky), RNE)
            .value
            .scalbn(scale)
    };
    if v.sign() == Sign::Minus {
        -x
    } else {
        x
    }
}

/// The float of type `t` with `bits`, truncated toward zero to an integer,
/// or `None` for NaN and infinities (`APFloat::convertToInteger` with
/// `rmTowardZero`, without its width limit).
pub fn float_to_int(t: &Type, bits: u128) -> Option<BigInt> {
    if is_nan(t, bits) {
        return None;
    }
    match t {
        Type::PpcFp128 => truncate(to_legacy(bits)),
        _ => with_ieee!(t, F => truncate(F::from_bits(bits))),
    }
}

/// `x` truncated toward zero, exactly: below `2^126` through `i128`; above,
/// scaled down to `[2^126, 2^127)` (exact: no format has more than 113 bits
/// of precision, so the scaled value is still an integer) and shifted back.
fn truncate<F: Float>(x: F) -> Option<BigInt> {
    if !x.is_finite() {
        return None;
    }
    let t = x.round_to_integral(Round::TowardZero).value;
    if t.is_zero() {
        return Some(BigInt::zero());
    }
    let e = t.ilogb();
    let mut exact = false;
    if e < 126 {
        return Some(BigInt::from(
            t.to_i128_r(128, Round::TowardZero, &mut exact).value,
        ));
    }
    let top = t
        .scalbn(126 - e)
        .to_i128_r(128, Round::TowardZero, &mut exact)
        .value;
    Some(BigInt::from(top) << (e - 126) as usize)
}

/// The value of a float of type `t`, for messages: as a decimal when it is
/// exactly a `double`, otherwise exactly as `M * 2^E` with an odd integer
/// `M` in hexadecimal (`0x1p16000`): a decimal expansion of a wide
/// format's large exponents costs milliseconds.
pub fn text(t: &Type, bits: u128) -> String {
    fn exact<F: Float + FloatConvert<Double>>(x: F) -> String {
        let mut loses_info = false;
        let d: Double = x.convert_r(RNE, &mut loses_info).value;
        if !loses_info || !x.is_finite_non_zero() {
            return format!("{:?}", f64::from_bits(d.to_bits() as u64));
        }
        // M * 2^E with M odd: at most 113 bits, so `i128` holds it.
        let e = x.ilogb() - (F::PRECISION as ExpInt - 1);
        let mut exact = false;
        let mut m = x
            .scalbn(-e)
            .to_i128_r(128, Round::TowardZero, &mut exact)
            .value;
        let mut e = e;
        while m != 0 && m % 2 == 0 {
            m /= 2;
            e += 1;
        }
        let sign = if m < 0 { "-" } else { "" };
        format!("{sign}0x{:X}p{e}", m.unsigned_abs())
    }
    if is_nan(t, bits) {
        return "NaN".into();
    }
    match t {
        Type::PpcFp128 => exact(to_legacy(bits)),
        _ => with_ieee!(t, F => exact(F::from_bits(bits))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::types::FLOAT_TYPES as FORMATS;

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
    fn int_to_float_rounds_once_to_nearest_even() {
        let f = |t: &Type, v: i64| int_to_float(t, &BigInt::from(v));
        // 2^24 + 1 is not a float; ties to even gives 2^24.
        assert_eq!(f(&Type::Float, 16_777_217), 0x4B80_0000);
        assert_eq!(f(&Type::Float, 16_777_219), 0x4B80_0002);
        assert_eq!(f(&Type::Double, -3), 0xC008_0000_0000_0000);
        assert_eq!(f(&Type::Half, 65520), 0x7C00); // rounds to inf
        assert_eq!(f(&Type::Half, 65504), 0x7BFF);
        assert_eq!(f(&Type::BFloat, 1), 0x3F80);
        // x87: 1.0 has its integer bit written out.
        assert_eq!(f(&Type::X86Fp80, 1), 0x3FFF_8000_0000_0000_0000);
        assert_eq!(
            f(&Type::Fp128, -2),
            0xC000_0000_0000_0000_0000_0000_0000_0000
        );
        // ppc_fp128: 2^53 + 1 is two doubles, 2^53 and 1.
        assert_eq!(
            f(&Type::PpcFp128, (1 << 53) + 1),
            0x3FF0_0000_0000_0000_4340_0000_0000_0000
        );
    }

    /// Integers wider than 128 bits round once: `2^200 + 2^87 + 1` is just
    /// above the half-way point between two `fp128`s (113 bits from
    /// `2^200`, the last one is `2^88`), so it rounds up.
    #[test]
    fn wide_integers_round_once() {
        let one = BigInt::from(1);
        let half = (&one << 200usize) + (&one << 87usize);
        let up = int_to_float(&Type::Fp128, &(&half + 1));
        let even = int_to_float(&Type::Fp128, &half);
        assert_eq!(up, even + 1, "above the tie rounds up, the tie to even");
        assert_eq!(float_to_int(&Type::Fp128, even), Some(&one << 200usize));
        assert_eq!(
            float_to_int(&Type::Fp128, up),
            Some((&one << 200usize) + (&one << 88usize))
        );
        // Past every finite value: infinity.
        assert_eq!(
            int_to_float(&Type::Double, &(&one << 1100usize)),
            0x7FF0_0000_0000_0000
        );
        assert_eq!(
            int_to_float(&Type::PpcFp128, &(&one << 1100usize)),
            0x7FF0_0000_0000_0000
        );
    }

    /// Truncation toward zero, exactly, in every format.
    #[test]
    fn float_to_int_truncates_toward_zero() {
        let f = |t: &Type, v: i64| float_to_int(t, int_to_float(t, &BigInt::from(v)));
        for t in FORMATS {
            assert_eq!(f(&t, -7), Some(BigInt::from(-7)), "{t}");
            let half = convert(&Type::Double, &t, 0xBFF8_0000_0000_0000); // -1.5
            assert_eq!(float_to_int(&t, half), Some(BigInt::from(-1)), "{t}");
            assert_eq!(float_to_int(&t, canonical_nan(&t)), None, "{t}");
        }
        // ppc_fp128 3 - 0.5 is 2.5: the sum truncates, not the parts.
        let bits = 0xBFE0_0000_0000_0000_4008_0000_0000_0000;
        assert_eq!(float_to_int(&Type::PpcFp128, bits), Some(BigInt::from(2)));
    }

    /// Double-double arithmetic keeps what a double loses: `1 + 2^-60` is
    /// the pair `(1, 2^-60)`, and back to `double` it rounds to 1.
    #[test]
    fn ppc_fp128_is_a_pair_of_doubles() {
        let one = 0x3FF0_0000_0000_0000u128;
        let tiny = 0x3C30_0000_0000_0000u128; // 2^-60
        let sum = binop(&Type::PpcFp128, FloatOp::Add, one, tiny);
        assert_eq!(sum, one | tiny << 64);
        assert_eq!(convert(&Type::PpcFp128, &Type::Double, sum), one);
        // fp128 holds it exactly.
        let q = convert(&Type::PpcFp128, &Type::Fp128, sum);
        assert_eq!(q, 0x3FFF_0000_0000_0000_0010_0000_0000_0000);
        assert_eq!(convert(&Type::Fp128, &Type::PpcFp128, q), sum);
        // A NaN low part makes the value a NaN (D-ppc-fp128-parts).
        let low_nan = one | 0x7FF8_0000_0000_0001u128 << 64;
        assert_eq!(convert(&Type::PpcFp128, &Type::Float, low_nan), 0x7FC0_0000);
        assert_eq!(compare(&Type::PpcFp128, sum, one), Some(Ordering::Greater));
        // The largest fp128 below 2^1024 rounds past the largest double:
        // infinity and a zero low part, where `rustc_apfloat` would assert.
        let near = 0x43FE_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF_FFFFu128;
        assert_eq!(
            convert(&Type::Fp128, &Type::PpcFp128, near),
            0x7FF0_0000_0000_0000
        );
    }

    /// No input makes any operation panic: random bits, and the special
    /// encodings, of every format through every operation.
    #[test]
    fn every_operation_takes_any_bits() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            u128::from(state) | u128::from(state.rotate_left(29)) << 64
        };
        let specials = [
            0u128,
            u128::MAX,
            0x7FF0_0000_0000_0000,
            0x7FEF_FFFF_FFFF_FFFF_7FEF_FFFF_FFFF_FFFF,
            0x7FEF_FFFF_FFFF_FFFF_FCA0_0000_0000_0000,
            0x0000_0000_0000_0001_0000_0000_0000_0001,
        ];
        for i in 0..20_000 {
            let (a, b) = if i < specials.len() {
                (specials[i], specials[(i + 1) % specials.len()])
            } else {
                (next(), next())
            };
            for t in FORMATS {
                let m = u128::MAX >> (128 - format_bits(&t));
                let (a, b) = (a & m, b & m);
                for op in [FloatOp::Add, FloatOp::Sub, FloatOp::Mul, FloatOp::Div] {
                    binop(&t, op, a, b);
                }
                for to in FORMATS {
                    convert(&t, &to, a);
                }
                let _ = (compare(&t, a, b), text(&t, a));
                if let Some(i) = float_to_int(&t, a) {
                    int_to_float(&t, &i);
                }
            }
        }
    }

    #[test]
    fn text_is_exact() {
        assert_eq!(
            text(&Type::Fp128, int_to_float(&Type::Fp128, &BigInt::from(3))),
            "3.0"
        );
        let one = BigInt::from(1);
        let big = int_to_float(&Type::Fp128, &((&one << 16000usize) * 3));
        assert_eq!(text(&Type::Fp128, big), "0x3p16000");
        assert_eq!(text(&Type::X86Fp80, canonical_nan(&Type::X86Fp80)), "NaN");
        // 1 + 2^-60 is no double: 0x1000000000000001 * 2^-60.
        let sum = 0x3C30_0000_0000_0000u128 << 64 | 0x3FF0_0000_0000_0000;
        assert_eq!(text(&Type::PpcFp128, sum), "0x1000000000000001p-60");
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
/// `float`, `double`, `x86_fp80` and `fp128` inputs and of operations in
/// every format z3 has (all but `ppc_fp128`).
#[cfg(all(test, feature = "smt"))]
mod against_z3 {
    use super::*;
    use crate::smt::term::{bv_big, float_bits, float_from_bits, float_sort, numeral_bits};
    use crate::value::fits_signed;
    use num_bigint::BigUint;
    use z3::ast::{Ast, Float as ZFloat};

    /// The formats z3 has a sort for: all but `ppc_fp128`, the last.
    const FORMATS: &[Type] = crate::types::FLOAT_TYPES.split_at(6).0;

    /// The bits a value of `t` has.
    fn mask(t: &Type) -> u128 {
        u128::MAX >> (128 - format_bits(t))
    }

    fn numeral(v: &z3::ast::BV) -> u128 {
        let s = v.simplify();
        numeral_bits(&s)
            .and_then(|b| b.to_u128())
            .unwrap_or_else(|| panic!("z3 left {s} unevaluated"))
    }

    fn z3_float(t: &Type, bits: u128) -> ZFloat {
        float_from_bits(&bv_big(format_bits(t), &BigUint::from(bits)), t)
    }

    fn z3_convert(from: &Type, to: &Type, bits: u128) -> u128 {
        let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
        let x = z3_float(from, bits).to_fp_with_rounding_mode(&rne, &float_sort(to));
        numeral(&float_bits(&x, to))
    }

    /// The z3 twin of `float_to_int` into a signed `w`-bit integer: the
    /// bits where the value fits, `None` where it does not.
    fn z3_to_int(from: &Type, bits: u128, w: u32) -> Option<BigUint> {
        let (v, fits) = crate::smt::term::float_to_int(&z3_float(from, bits), from, w, true);
        match fits.simplify().as_bool() {
            Some(true) => Some(
                numeral_bits(&v.simplify())
                    .map(|b| b.unsigned().into_owned())
                    .unwrap_or_else(|| panic!("z3 left {from} {bits:#x} to i{w} unevaluated")),
            ),
            Some(false) => None,
            None => panic!("z3 left the range check of {bits:#x} unevaluated"),
        }
    }

    fn to_int(from: &Type, bits: u128, w: u32) -> Option<BigUint> {
        float_to_int(from, bits)
            .filter(|i| fits_signed(i, w as u64))
            .map(|i| {
                crate::bits::Bits::from_bigint(w as u64, &i)
                    .unsigned()
                    .into_owned()
            })
    }

    /// Every half and bfloat, to every other format and to i8, i16, i17
    /// and i32 (i64 holds every value i32 does not miss).
    #[test]
    fn every_half_and_bfloat_conversion_agrees() {
        for from in [Type::Half, Type::BFloat] {
            for bits in 0..=0xFFFFu128 {
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
    fn samples(seed: u64, n: usize) -> Vec<u128> {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        (0..n)
            .map(|_| u128::from(next()) | u128::from(next()) << 64)
            .collect()
    }

    /// A sample input of `t`: half of them random bits, half near 1.0,
    /// where the narrow formats round (an `x86_fp80` near 1.0 has its
    /// integer bit set).
    fn sample(t: &Type, r: u128) -> u128 {
        let frac = |n: u32| (r >> 1) & ((1u128 << n) - 1);
        if r & 1 == 0 {
            return r & mask(t);
        }
        match t {
            Type::Float => 0x3F80_0000 | frac(23),
            Type::Double => 0x3FF0_0000_0000_0000 | frac(52),
            Type::X86Fp80 => 0x3FFF_8000_0000_0000_0000 | frac(63),
            Type::Fp128 => 0x3FFF_u128 << 112 | frac(112),
            _ => r & mask(t),
        }
    }

    /// Random float, double, x86_fp80 and fp128 inputs (and the values next
    /// to the narrow formats' rounding boundaries), to every other format.
    #[test]
    fn sampled_wide_conversions_agree() {
        for from in [Type::Float, Type::Double, Type::X86Fp80, Type::Fp128] {
            for r in samples(u64::from(format_bits(&from)), 10_000) {
                let bits = sample(&from, r);
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

    /// The x87 encodings IEEE formats do not have: pseudo-denormals (read
    /// as normal), unnormals, pseudo-infinities and pseudo-NaNs (read as
    /// NaN), with the two readings compared through every conversion.
    #[test]
    fn x87_special_encodings_agree() {
        let cases: [u128; 8] = [
            0x0000_8000_0000_0000_0001, // pseudo-denormal
            0x8000_C000_0000_0000_0000, // negative pseudo-denormal
            0x3FFF_0000_0000_0000_0001, // unnormal
            0x7FFF_0000_0000_0000_0000, // pseudo-infinity
            0x7FFF_4000_0000_0000_0000, // pseudo-NaN
            0x7FFF_8000_0000_0000_0000, // infinity
            0x0000_0000_0000_0000_0001, // smallest denormal
            0x7FFE_FFFF_FFFF_FFFF_FFFF, // largest finite
        ];
        for bits in cases {
            for to in FORMATS.iter() {
                assert_eq!(
                    convert(&Type::X86Fp80, to, bits),
                    z3_convert(&Type::X86Fp80, to, bits),
                    "x86_fp80 {bits:#x} to {to}"
                );
            }
        }
    }

    /// Float-to-integer conversions at the edges of every range: the
    /// limits, their neighbours and half-way points, for widths where
    /// `lo - 1` is a value of the format and where it is not, and widths
    /// past the narrow formats' range.
    #[test]
    fn conversions_to_integers_agree_at_the_range_edges() {
        let one = BigInt::from(1);
        for w in [
            8u32, 17, 32, 52, 53, 54, 63, 64, 65, 112, 113, 114, 127, 200,
        ] {
            let lim = &one << (w as usize - 1);
            let mut values: Vec<BigInt> = vec![BigInt::zero()];
            for edge in [-&lim, lim.clone()] {
                for d in [-2, -1, 0, 1, 2] {
                    values.push(&edge + d);
                }
            }
            for from in [Type::Double, Type::Float, Type::X86Fp80, Type::Fp128] {
                for v in &values {
                    let exact = int_to_float(&from, v);
                    // The value, and its neighbours in the format.
                    for bits in [exact, exact.wrapping_sub(1), exact + 1] {
                        let bits = bits & mask(&from);
                        assert_eq!(
                            to_int(&from, bits, w),
                            z3_to_int(&from, bits, w),
                            "{from} {bits:#x} to i{w}"
                        );
                    }
                }
                // Halves, NaN and infinities.
                let half = convert(&Type::Double, &from, 0xBFE0_0000_0000_0000);
                let inf = convert(&Type::Double, &from, 0x7FF0_0000_0000_0000);
                for bits in [half, inf, canonical_nan(&from)] {
                    assert_eq!(
                        to_int(&from, bits, w),
                        z3_to_int(&from, bits, w),
                        "{from} {bits:#x}"
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
            let t = t.clone();
            let s = samples(7 + u64::from(format_bits(&t)), 4_000);
            for pair in s.chunks(2) {
                let (a, b) = (sample(&t, pair[0]), sample(&t, pair[1]));
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
