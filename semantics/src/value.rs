//! Values: literals to bits, and the integer and IEEE floating-point
//! arithmetic the ops use.

use crate::bits::Bits;
use crate::diag::Diag;
use crate::syntax::Literal;
use crate::types::{DataLayout, Type};
use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};

/// The bits of literal `lit` of type `t`, or `None` for `undef` / `poison`.
///
/// DECISION (D-poison-is-undef): `poison` is treated like `undef` (the
/// undefined location description): a debugger cannot tell them apart.
///
/// DECISION (D-partially-undef-literal): a vector or struct literal with some
/// `undef` elements is `unsupported` (`literal-partially-undef`): it would need
/// a composite of implicit and undefined parts, which the spec does not
/// describe for `DIOpConstant`.
///
/// DECISION (D-pointer-integer-literal): an integer literal for a pointer type
/// is an address (`ptr addrspace(1) 4096`), since a debug expression has no
/// `inttoptr`.
///
/// Integer literals may be written signed or unsigned (`i8 -1` and `i8 255`
/// are the same bits), as in LLVM.
#[inline]
pub fn literal_bits(t: &Type, lit: &Literal, dl: &DataLayout) -> Result<Option<Bits>, Diag> {
    // The common case, an integer of at most 64 bits written in range,
    // without the big integer's general conversion (inlined where the
    // check and the evaluation read constants; the rest is not).
    if let (Literal::Int(v), Type::Int(w @ 1..=64)) = (lit, t) {
        let magnitude = v.magnitude();
        if magnitude.bits() <= 64 {
            let m = i128::from(magnitude.iter_u64_digits().next().unwrap_or(0));
            let i = if v.sign() == num_bigint::Sign::Minus {
                -m
            } else {
                m
            };
            if (-(1i128 << (w - 1))..(1i128 << w)).contains(&i) {
                return Ok(Some(Bits::from_u128(*w, i as u128)));
            }
        }
    }
    any_literal_bits(t, lit, dl)
}

/// Is `v` in `-2^(w-1) ..= 2^w - 1` (`signed`, an integer type: written
/// signed or unsigned) or in `0 ..= 2^w - 1` (a pointer), for `w >= 1`?
fn int_literal_fits(v: &BigInt, signed: bool, w: u64) -> bool {
    let m = v.magnitude();
    match v.sign() {
        // `|v| <= 2^(w-1)`: below it, or exactly that power of two.
        num_bigint::Sign::Minus => {
            signed && (m.bits() < w || (m.bits() == w && m.trailing_zeros() == Some(w - 1)))
        }
        _ => m.bits() <= w,
    }
}

/// [`literal_bits`] of any literal.
#[inline(never)]
fn any_literal_bits(t: &Type, lit: &Literal, dl: &DataLayout) -> Result<Option<Bits>, Diag> {
    let c = "DIOpConstant";
    let mismatch = || {
        Diag::ill(
            c,
            "literal-type-mismatch",
            format!("`{lit}` is not a literal of type `{t}`"),
        )
    };
    let width = dl.bitsizeof(t);
    match lit {
        Literal::Undef | Literal::Poison => Ok(None),
        Literal::ZeroInit => Ok(Some(Bits::zero(width))),
        Literal::Int(v) => {
            // Up to 126 bits the range check and the encoding fit in `i128`.
            let small = match t {
                Type::Int(w @ 1..=126) => Some((-(1i128 << (w - 1)), (1i128 << w) - 1)),
                Type::Ptr { .. } if width <= 126 => Some((0, (1i128 << width) - 1)),
                _ => None,
            };
            if let (Some(i), Some((lo, hi))) = (v.to_i128(), small) {
                if (lo..=hi).contains(&i) {
                    return Ok(Some(Bits::from_i128(width, i)));
                }
            }
            // Wider: in range by the magnitude's bit count, without
            // building the bounds (they are made for the message only).
            let (signed, w) = match t {
                Type::Int(w) => (true, *w),
                Type::Ptr { .. } => (false, width),
                _ => return Err(mismatch()),
            };
            if !int_literal_fits(v, signed, w) {
                let lo = if signed {
                    -(BigInt::one() << (w - 1))
                } else {
                    BigInt::zero()
                };
                let hi = (BigInt::one() << w) - 1;
                return Err(Diag::ill(
                    c,
                    "literal-out-of-range",
                    format!("{v} does not fit in `{t}` ({lo}..={hi})"),
                ));
            }
            Ok(Some(Bits::from_bigint(width, v)))
        }
        Literal::Bool(b) => match t {
            Type::Int(1) => Ok(Some(Bits::from_u64(1, *b as u64))),
            _ => Err(mismatch()),
        },
        Literal::Float(bits) if t.is_float() => Ok(Some(Bits::from_u128(width, *bits))),
        Literal::Float(_) => Err(mismatch()),
        Literal::Null if t.is_pointer() => Ok(Some(Bits::zero(width))),
        Literal::Null => Err(mismatch()),
        Literal::Vector(elems) => {
            let Type::Vector { count, elem } = t else {
                return Err(mismatch());
            };
            sequence_bits(t, elem, *count, elems, dl.bitsizeof(elem), dl)
        }
        Literal::Array(elems) => {
            let Type::Array { count, elem } = t else {
                return Err(mismatch());
            };
            sequence_bits(t, elem, *count, elems, dl.alloc_bits(elem), dl)
        }
        Literal::Struct {
            packed: written_packed,
            fields: elems,
        } => {
            // A named struct's literal is its body's.
            let (packed, fields): (bool, &[Type]) = match t {
                Type::Struct { fields, packed } => (*packed, fields),
                Type::Named(name) => dl.struct_body(name).ok_or_else(mismatch)?,
                _ => return Err(mismatch()),
            };
            // LLVM: "packed'ness of initializer and type don't match".
            if elems.len() != fields.len() || packed != *written_packed {
                return Err(mismatch());
            }
            let layout = dl.struct_layout(packed, fields);
            aggregate_bits(
                t,
                fields
                    .iter()
                    .zip(elems)
                    .zip(layout.offsets)
                    .map(|((ft, (et, v)), o)| (ft, et, v, o)),
                dl,
            )
        }
    }
}

/// A vector or array literal of `count` elements of type `elem`, `step`
/// bits apart.
fn sequence_bits(
    t: &Type,
    elem: &Type,
    count: u64,
    elems: &[(Type, Literal)],
    step: u64,
    dl: &DataLayout,
) -> Result<Option<Bits>, Diag> {
    if elems.len() as u64 != count {
        return Err(Diag::ill(
            "DIOpConstant",
            "literal-type-mismatch",
            format!(
                "`{t}` needs {count} elements, the literal has {}",
                elems.len()
            ),
        ));
    }
    let at = (0..).map(|i| i * step);
    let placed = elems.iter().zip(at).map(|((et, v), o)| (elem, et, v, o));
    aggregate_bits(t, placed, dl)
}

/// The bits of an aggregate literal from its elements, each at its bit
/// offset.
///
/// DECISION (D-aggregate-literal-order): element 0 (field 0) is in the low
/// bits, as `DIOpComposite` concatenates parts and as little-endian memory
/// holds an array; each element lies where LLVM's layout puts it (vector
/// elements bit-packed, array elements one allocation size apart, struct
/// fields at their `StructLayout` offsets).
///
/// DECISION (D-literal-padding-zero): the padding bits of a struct or
/// array literal (between fields, after an element narrower than its
/// allocation size, at the end) are zero, as LLVM's AsmPrinter writes a
/// constant aggregate into an object file.
fn aggregate_bits<'a>(
    t: &Type,
    elems: impl Iterator<Item = (&'a Type, &'a Type, &'a Literal, u64)>,
    dl: &DataLayout,
) -> Result<Option<Bits>, Diag> {
    let mut acc = Bits::zero(0);
    for (want, got, v, offset) in elems {
        if !want.same(got) {
            return Err(Diag::ill(
                "DIOpConstant",
                "literal-type-mismatch",
                format!("element of type `{got}` in a literal of type `{t}`"),
            ));
        }
        match literal_bits(want, v, dl)? {
            Some(b) => acc = acc.concat(&Bits::zero(offset - acc.width())).concat(&b),
            None => {
                return Err(Diag::unsupported(
                    "DIOpConstant",
                    "literal-partially-undef",
                    format!("`{t}` literal with undef elements"),
                ))
            }
        }
    }
    let pad = dl.bitsizeof(t) - acc.width();
    Ok(Some(acc.concat(&Bits::zero(pad))))
}

/// The shortest text that reads back as the same bits: a decimal when one
/// exists (`1.5`), otherwise LLVM's hexadecimal form (`0x7FF0000000000000`
/// for `float`/`double`, `0xH7C00` for `half`, `0xR7F80` for `bfloat`).
/// The 80- and 128-bit formats are always hexadecimal, as LLVM writes and
/// reads them: `0xK` + 20 digits (`x86_fp80`, most significant first),
/// `0xL` + 32 (`fp128`) and `0xM` + 32 (`ppc_fp128`), the low 64 bits
/// first.
pub fn float_literal_text(t: &Type, bits: u128) -> String {
    let (lo, hi) = (bits as u64, (bits >> 64) as u64);
    match t {
        Type::X86Fp80 => return format!("0xK{hi:04X}{lo:016X}"),
        Type::Fp128 => return format!("0xL{lo:016X}{hi:016X}"),
        Type::PpcFp128 => return format!("0xM{lo:016X}{hi:016X}"),
        _ => {}
    }
    let value = float_to_f64(t, lo);
    if value.is_finite() {
        let mut s = format!("{value:?}");
        if let Some(e) = s.find('e') {
            if !s[..e].contains('.') {
                s.insert_str(e, ".0");
            }
        }
        if f64_to_float(t, value) == Some(lo) {
            return s;
        }
    }
    match t {
        Type::Half => format!("0xH{lo:04X}"),
        Type::BFloat => format!("0xR{lo:04X}"),
        _ => format!("0x{:016X}", value.to_bits()),
    }
}

/// Exactly the value of a `half`, `bfloat`, `float` or `double` with these
/// bits, as an f64 (every half, bfloat and float is exactly a double).
/// The wider formats are not doubles: use `crate::float`.
pub fn float_to_f64(t: &Type, bits: u64) -> f64 {
    match t {
        Type::Half => half::f16::from_bits(bits as u16).to_f64(),
        Type::BFloat => half::bf16::from_bits(bits as u16).to_f64(),
        Type::Float => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

/// The bits of `v` in type `t` (`half` to `double`) if `v` is exactly
/// representable there.
pub fn f64_to_float(t: &Type, v: f64) -> Option<u64> {
    let bits = round_f64(t, v);
    let back = float_to_f64(t, bits);
    (back == v && back.is_sign_negative() == v.is_sign_negative() || v.is_nan() && back.is_nan())
        .then_some(bits)
}

/// `v` rounded to nearest-even in type `t` (`crate::float::convert` from
/// `double`), for `half` to `double`.
///
/// DECISION (D-nan-canonical): every NaN result is the positive quiet NaN
/// with a zero payload (`0x7FC00000` for `float`), so that results do not
/// depend on the host and can be compared bit for bit. LLVM's APFloat keeps
/// a NaN operand's payload (quieted) through conversions and arithmetic;
/// gdb computes on the host's FPU (x86 SSE keeps the first operand's
/// payload) and gimli on Rust's `f32`/`f64` (the host's), so a payload is
/// not something two consumers agree on.
pub fn round_f64(t: &Type, v: f64) -> u64 {
    crate::float::convert(&Type::Double, t, u128::from(v.to_bits())) as u64
}

/// An IEEE binary operation in the format of `t`, rounded to nearest-even
/// once (`crate::float::binop`, LLVM's APFloat).
///
/// DECISION (D-float-arithmetic): floating-point `DIOpAdd`, `DIOpSub`,
/// `DIOpMul` and `DIOpDiv` are IEEE 754 operations in the operands' own format
/// with round-to-nearest-even, the default of both LLVM and DWARF consumers.
pub fn float_binop(t: &Type, a: &Bits, b: &Bits, op: crate::float::FloatOp) -> Bits {
    Bits::from_u128(
        a.width(),
        crate::float::binop(t, op, float_value(a), float_value(b)),
    )
}

/// The bits of a floating-point value (at most 128).
pub fn float_value(v: &Bits) -> u128 {
    v.to_u128().unwrap_or(0)
}

/// Does `v` fit in a signed integer of `width` bits?
pub fn fits_signed(v: &BigInt, width: u64) -> bool {
    let lim = BigInt::one() << (width - 1);
    v >= &-lim.clone() && v < &lim
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The range of an integer literal at and around the widths where the
    /// `i128` fast path stops (126 bits), checked against powers of two.
    #[test]
    fn integer_literal_ranges_at_the_fast_path_boundary() {
        let dl = DataLayout::default();
        for w in [1u64, 8, 64, 125, 126, 127, 128, 129, 200] {
            let t = Type::Int(w);
            let lo = -(BigInt::one() << (w - 1));
            let hi = (BigInt::one() << w) - 1;
            let ok = |v: &BigInt| literal_bits(&t, &Literal::Int(v.clone()), &dl);
            assert_eq!(
                ok(&lo).unwrap().unwrap(),
                Bits::from_bigint(w, &lo),
                "i{w} min"
            );
            assert_eq!(
                *ok(&hi).unwrap().unwrap().unsigned(),
                hi.to_biguint().unwrap(),
                "i{w} max"
            );
            assert_eq!(
                ok(&(&lo - 1)).unwrap_err().reason,
                "literal-out-of-range",
                "i{w} below"
            );
            assert_eq!(
                ok(&(&hi + 1)).unwrap_err().reason,
                "literal-out-of-range",
                "i{w} above"
            );
            let minus_one = ok(&BigInt::from(-1)).unwrap().unwrap();
            assert!((0..w).all(|i| minus_one.bit(i)), "i{w} -1 is all ones");
            // Around both bounds and zero, against the comparison with them
            // (a pointer's range is `0 ..= hi`).
            for v in [&lo, &hi, &BigInt::zero(), &(&lo + &lo), &(&hi + &hi)] {
                for d in -3..=3 {
                    let v = v + d;
                    let signed = lo <= v && v <= hi;
                    assert_eq!(int_literal_fits(&v, true, w), signed, "i{w} {v}");
                    let unsigned = BigInt::zero() <= v && v <= hi;
                    assert_eq!(int_literal_fits(&v, false, w), unsigned, "p{w} {v}");
                    assert_eq!(ok(&v).is_ok(), signed, "i{w} {v}");
                }
            }
        }
    }

    #[test]
    fn float_text_round_trips() {
        for (t, bits) in [
            (Type::Float, 1.5f32.to_bits() as u64),
            (Type::Float, 0.1f32.to_bits() as u64),
            (Type::Double, 1e300f64.to_bits()),
            (Type::Half, 0x7C00),
            (Type::BFloat, 0x3F80),
            (Type::Double, f64::NAN.to_bits()),
        ] {
            let s = float_literal_text(&t, u128::from(bits));
            let back = if let Some(h) = s.strip_prefix("0xH").or(s.strip_prefix("0xR")) {
                u64::from_str_radix(h, 16).unwrap()
            } else if let Some(h) = s.strip_prefix("0x") {
                round_f64(&t, f64::from_bits(u64::from_str_radix(h, 16).unwrap()))
            } else {
                f64_to_float(&t, s.parse().unwrap()).unwrap()
            };
            assert_eq!(back, bits, "{t} {s}");
        }
    }

    #[test]
    fn half_arithmetic_rounds_in_half() {
        let one = Bits::from_u64(16, 0x3C00);
        let tiny = Bits::from_u64(16, 0x0001); // smallest subnormal
        let r = float_binop(&Type::Half, &one, &tiny, crate::float::FloatOp::Add);
        assert_eq!(r.low_u64(), 0x3C00);
        let nan = float_binop(
            &Type::Float,
            &Bits::from_u64(32, 0),
            &Bits::from_u64(32, 0),
            crate::float::FloatOp::Div,
        );
        assert_eq!(nan.low_u64(), 0x7FC0_0000);
    }
}
