//! Small helpers over z3 terms: constants from `Bits`, numerals back to
//! `Bits`, and the two floating-point conversions the `z3` crate does not
//! wrap.

use crate::bits::Bits;
use crate::types::Type;
use num_bigint::BigUint;
use num_traits::Num;
use z3::ast::{Ast, Bool, Float, BV};
use z3::{DeclKind, Sort};

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
    // Any other term would be printed whole only to be refused.
    if v.kind() != z3::AstKind::Numeral {
        return None;
    }
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

/// The exponent and significand widths (the latter with the leading bit)
/// of the z3 floating-point sort of a floating-point type.
///
/// `x86_fp80` is `(15, 64)`: its 64-bit significand writes the leading bit
/// out, which z3's IEEE-style sorts keep implicit; [`float_from_bits`] and
/// [`float_bits`] translate. `ppc_fp128` (a pair of doubles) has no z3
/// sort: `encode` refuses it before any term is made, and this answers
/// `double`'s widths for it so that nothing here panics.
pub fn float_fields(t: &Type) -> (u32, u32) {
    match t {
        Type::Half => (5, 11),
        Type::BFloat => (8, 8),
        Type::Float => (8, 24),
        Type::X86Fp80 => (15, 64),
        Type::Fp128 => (15, 113),
        _ => (11, 53),
    }
}

/// The z3 floating-point sort of a floating-point type.
pub fn float_sort(t: &Type) -> Sort {
    let (e, m) = float_fields(t);
    Sort::float(e, m)
}

/// The float of sort `(e, m)` whose IEEE-style encoding (sign, `e`
/// exponent bits, `m - 1` fraction bits) is `bits`.
fn float_of_ieee(bits: &BV, e: u32, m: u32) -> Float {
    let sort = Sort::float(e, m);
    let ctx = bits.get_ctx();
    // SAFETY: `Z3_mk_fpa_to_fp_bv` is the documented constructor of a float
    // from its IEEE bits; the `z3` crate does not wrap it. Both arguments are
    // live terms of the thread's context, the bit-vector has exactly
    // `e + m` bits (every caller builds it so), and the result is wrapped
    // (reference-counted) at once.
    unsafe {
        let raw =
            z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), bits.get_z3_ast(), sort.get_z3_sort())
                .expect("z3 returned no term for fp.to_fp of a bit-vector");
        Float::wrap(ctx, raw)
    }
}

/// The float whose encoding in type `t` is `bits`.
///
/// DECISION (D-x87-encodings): an `x86_fp80` is read as `APFloat` reads it: exponent 0 with the
/// integer bit set (a pseudo-denormal) is the value with exponent 1; an
/// all-ones exponent is an infinity only with exactly the integer bit set
/// and is a NaN otherwise; a nonzero exponent with the integer bit clear
/// (an unnormal) is a NaN.
pub fn float_from_bits(bits: &BV, t: &Type) -> Float {
    let (e, m) = float_fields(t);
    if *t != Type::X86Fp80 {
        return float_of_ieee(bits, e, m);
    }
    let sign = bits.extract(79, 79);
    let exp = bits.extract(78, 64);
    let int = bits.extract(63, 63);
    let frac = bits.extract(62, 0);
    let (zero, one) = (bv_u(15, 0), bv_u(1, 1));
    let pseudo_denormal = and(&exp.eq(&zero), &int.eq(&one));
    let exp = pseudo_denormal.ite(&bv_u(15, 1), &exp);
    let value = float_of_ieee(&sign.concat(&exp).concat(&frac), e, m);
    let all_ones = exp.eq(bv_u(15, 0x7FFF));
    let infinity = Bool::and(&[&int.eq(&one), &frac.eq(bv_u(63, 0))]);
    let unnormal = Bool::and(&[&exp.eq(&zero).not(), &int.eq(bv_u(1, 0))]);
    let nan = Bool::or(&[&and(&all_ones, &infinity.not()), &unnormal]);
    let qnan = float_of_ieee(&bv_big(79, &(BigUint::from(0xFFFFu32) << 62)), e, m);
    nan.ite(&qnan, &value)
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

/// The encoding in type `t` of `f`, with every NaN the canonical one
/// (D-nan-canonical). An `x86_fp80` gets its integer bit written out: set
/// exactly when the exponent is not zero.
pub fn float_bits(f: &Float, t: &Type) -> BV {
    let w = crate::float::format_bits(t);
    let nan = bv_big(w, &BigUint::from(crate::float::canonical_nan(t)));
    let ieee = f.to_ieee_bv();
    let bits = if *t == Type::X86Fp80 {
        // 79 bits: sign [78], exponent [77:63], fraction [62:0].
        let sign_exp = ieee.extract(78, 63);
        let int = ieee
            .extract(77, 63)
            .eq(bv_u(15, 0))
            .ite(&bv_u(1, 0), &bv_u(1, 1));
        sign_exp.concat(&int).concat(ieee.extract(62, 0))
    } else {
        ieee
    };
    f.is_nan().ite(&nan, &bits)
}

/// `-(2^k + 1)` (with `plus_one`, which needs `k < m`) or `±2^k` as a float
/// of sort `(e, m)`, or `None` when `2^k` is past the sort's largest
/// exponent.
fn power_of_two(e: u32, m: u32, k: u64, negative: bool, plus_one: bool) -> Option<Float> {
    let bias = (1u64 << (e - 1)) - 1;
    if k > bias {
        return None;
    }
    // The `+ 1` is fraction bit `m - 1 - k`; at `k = 0` it carries into the
    // exponent, and `2^0 + 1 = 2^1` as it should.
    let one = if plus_one {
        BigUint::from(1u8) << (u64::from(m) - 1 - k)
    } else {
        BigUint::from(0u8)
    };
    let word = (BigUint::from(u8::from(negative)) << (e + m - 1))
        + (BigUint::from(k + bias) << (m - 1))
        + one;
    Some(float_of_ieee(&bv_big(e + m, &word), e, m))
}

/// `f` (of floating-point type `t`) truncated toward zero to a `w`-bit
/// integer, signed or unsigned, and the condition that it fits: not NaN,
/// not infinite, and the truncated value in the integer's range (the twin of
/// `float::float_to_int` and the range checks of D-convert-semantics and
/// D-dwarf-convert).
///
/// Formats narrower than `double` are widened to `double` first, which is
/// exact and keeps every comparison in one format: z3 4.8 fails ("invalid
/// zero_extend application") on some `bfloat` conversions done in place.
/// The bits are only meaningful where the value fits (`fits`).
pub fn float_to_int(f: &Float, t: &Type, w: u32, signed: bool) -> (BV, Bool) {
    let rtz = z3::ast::RoundingMode::round_towards_zero();
    let (e, m) = float_fields(t);
    let (x, e, m) = if e + m >= 64 {
        (f.clone(), e, m)
    } else {
        let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
        (
            f.to_fp_with_rounding_mode(&rne, &Sort::float(11, 53)),
            11,
            53,
        )
    };
    // The truncation toward zero is in `[lo, hi)` exactly when `x` is in
    // `(lo - 1, hi)`: no `roundToIntegral` circuit, and NaN and the
    // infinities fail one of the two comparisons. `lo - 1` is a value of
    // the format while `lo`'s ulp is 1 or less (`w <= m`); past that the
    // values next to `lo` are at least 2 apart, so `x > lo - 1` is
    // `x >= lo`. A bound past the format's largest exponent is no bound:
    // only NaN and the infinities fail it.
    let finite = Bool::and(&[&x.is_nan().not(), &x.is_infinite().not()]);
    let above = if signed {
        let k = u64::from(w) - 1;
        let bound = if k < u64::from(m) {
            power_of_two(e, m, k, true, true).map(|lo_minus_one| x.gt(&lo_minus_one))
        } else {
            power_of_two(e, m, k, true, false).map(|lo| x.ge(&lo))
        };
        bound.unwrap_or_else(|| finite.clone())
    } else {
        let minus_one = power_of_two(e, m, 0, true, false).expect("1 is a value of every format");
        x.gt(&minus_one)
    };
    let k = if signed { w - 1 } else { w };
    let below = match power_of_two(e, m, u64::from(k), false, false) {
        Some(hi) => x.lt(&hi),
        None => finite,
    };
    let fits = Bool::and(&[&above, &below]);
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
/// A constant divisor takes the form [`sdiv`] gives its quotient, and the
/// remainder is written in the bits it can have: by `c` (or `-c`), its
/// magnitude is below `c`, so it is the sign extension of its low
/// `bitlen(c - 1) + 1` bits.
///
/// Why the bits: `srem i32 %x, 7` compared with `16` (`icmp sle`) is true
/// for every `%x`, which z3 4.8 found only by searching the divider's
/// circuit, and such records ran to `dioptra llvm`'s 200 ms limit (430 of
/// the 1 462 unknown records of a 10 000-function campaign had a `srem`
/// and no other division). With the sign bits in the term, the comparison
/// folds. A lowering that spells the remainder out (`DIOpMod` as
/// `x - (x / y) * y` in DWARF) builds the same term through [`sub`].
pub fn srem(a: &BV, b: &BV) -> BV {
    let w = a.get_size();
    if a == b {
        // `a - a * (a sdiv a)`: 0 for every `a` (see [`same_operand`]).
        return bv_u(w, 0);
    }
    let non_negative = |x: &BV| const_u128(&x.extract(w - 1, w - 1)) == Some(0);
    if non_negative(a) && non_negative(b) {
        return urem(a, b);
    }
    let r = a.bvsub(b.bvmul(sdiv(a, b)));
    match constant_divisor(b).map(|c| remainder_bits(c, w)) {
        Some(k) if k < w => r.extract(k - 1, 0).sign_ext(w - k),
        _ => r,
    }
}

/// The bits a signed remainder by the `w`-bit constant `c` (not 0) needs:
/// `bitlen(|c| - 1) + 1`, `|c|` the magnitude of `c` read as signed.
fn remainder_bits(c: u128, w: u32) -> u32 {
    let sign = 1u128 << (w - 1);
    let magnitude = if c & sign == 0 {
        c
    } else if w == 128 {
        c.wrapping_neg()
    } else {
        (1u128 << w) - c
    };
    129 - (magnitude - 1).leading_zeros()
}

/// `a - b`, and [`srem`] of `a` by `c` where `b` is `c` times `a`'s
/// quotient by the constant `c` ([`sdiv`]; in either order): the remainder
/// spelled out, as a DWARF consumer computes `DIOpMod`'s lowering `x - (x /
/// y) * y` and as LLVM expands a `srem`, is the remainder's own term.
pub fn sub(a: &BV, b: &BV) -> BV {
    match times_quotient(a, b) {
        Some(c) => srem(a, &c),
        None => a.bvsub(b),
    }
}

/// The constant `c` when `b` is `c * sdiv(a, c)` or `sdiv(a, c) * c`.
fn times_quotient(a: &BV, b: &BV) -> Option<BV> {
    if b.safe_decl().ok()?.kind() != DeclKind::Bmul || b.num_children() != 2 {
        return None;
    }
    let (u, v) = (b.nth_child(0)?.as_bv()?, b.nth_child(1)?.as_bv()?);
    for (c, q) in [(&u, &v), (&v, &u)] {
        if constant_divisor(c).is_some() && *q == sdiv(a, c) {
            return Some(c.clone());
        }
    }
    None
}

/// The divisor, when it is a constant other than 0 that a divider need not
/// be built for (at most 128 bits wide).
fn constant_divisor(b: &BV) -> Option<u128> {
    if b.get_size() > 128 {
        return None;
    }
    const_u128(b).filter(|&c| c != 0)
}

/// `x` divided by the constant `c` (`2 < c < 2^(w-1)`, not a power of two),
/// without a divider: `(x * m) >> (w + l)` in `2w + 2` bits, where
/// `l = ceil(log2 c)` and `m = floor(2^(w+l) / c) + 1`.
///
/// Granlund and Montgomery, "Division by invariant integers using
/// multiplication" (1994), theorem 4.2: the quotient is exact for every
/// `w`-bit `x` when `2^(w+l) <= m * c <= 2^(w+l) + 2^l`, which this `m`
/// meets (`m * c` exceeds `2^(w+l)` by at most `c <= 2^l`).
///
/// Why: z3 4.8 bit-blasts `bvudiv` by a constant as a whole divider, and
/// proofs about one (LLVM's `srem i64 %x, -1` against 0, `sdiv exact i32
/// %x, -128` against `sub nsw 0, (ashr exact %x, 7)`) ran to the 200 ms
/// limit of `dioptra llvm`; a product by a constant is a chain of adders
/// the SAT solver sees through.
fn udiv_by_multiplying(x: &BV, c: u128) -> BV {
    let w = x.get_size();
    let l = 128 - (c - 1).leading_zeros();
    let m = (BigUint::from(1u8) << (w + l)) / BigUint::from(c) + 1u8;
    // `m < 2^(w+2)`, so the product fits in `2w + 2` bits, and the
    // quotient in the `w + 2 - l` above bit `w + l`.
    let wide = 2 * w + 2;
    let q = x
        .zero_ext(wide - w)
        .bvmul(bv_big(wide, &m))
        .extract(wide - 1, w + l);
    match q.get_size() {
        n if n >= w => q.extract(w - 1, 0),
        n => q.zero_ext(w - n),
    }
}

/// `x / b`, unsigned, as `bvudiv` (all ones for a zero divisor). A constant
/// divisor is a shift (a power of two), a comparison (at least `2^(w-1)`),
/// the narrow quotient of a zero-extended dividend ([`narrow_dividend`]) or
/// a product ([`udiv_by_multiplying`]); a value divided by itself is
/// [`same_operand`].
pub fn udiv(x: &BV, b: &BV) -> BV {
    let w = x.get_size();
    match constant_divisor(b) {
        Some(1) => x.clone(),
        Some(c) if c.is_power_of_two() => lshr(x, &bv_u(w, c.trailing_zeros() as u64)),
        // At least half the range: the quotient is 1 or 0.
        Some(c) if c >> (w - 1) == 1 => x.bvuge(bv_big(w, &c.into())).ite(&bv_u(w, 1), &bv_u(w, 0)),
        Some(c) => match narrow_dividend(x, c) {
            Some(y) => {
                let n = y.get_size();
                udiv(&y, &bv_big(n, &c.into())).zero_ext(w - n)
            }
            None => udiv_by_multiplying(x, c),
        },
        None if x == b => same_operand(x),
        None => x.bvudiv(b),
    }
}

/// The dividend's low `n` bits, when the rest are zero in the term itself
/// (a zero extension, a mask) and the divisor `c` is below `2^n`, for the
/// least of the widths 8, 16, 32 and 64 where that holds: the quotient and
/// the remainder by `c` are then those of the low bits, zero-extended.
///
/// Why: correlated-propagation narrows such a division
/// (`narrowUDivOrURem`): `udiv i64 (zext i32 %x), 3` becomes `zext (udiv
/// i32 %x, 3)`. Written at the width it was found in, each side had a
/// multiplier of its own width, and z3 did not prove them equal within
/// `dioptra llvm`'s 200 ms; computed at the narrowest width, both sides are
/// one term.
fn narrow_dividend(x: &BV, c: u128) -> Option<BV> {
    let w = x.get_size();
    [8u32, 16, 32, 64]
        .into_iter()
        .filter(|&n| n < w && c >> n == 0)
        .find(|&n| const_u128(&x.extract(w - 1, n)) == Some(0))
        .map(|n| x.extract(n - 1, 0))
}

/// `x / x`, signed or unsigned: 1, and all ones for `x = 0` (SMT-LIB:
/// "`bvudiv s t` ... all ones if `t` is zero", and `bvsdiv` of two
/// non-negative operands is their `bvudiv`, of two negative ones the
/// `bvudiv` of their negations). The remainders `x % x` are 0: `bvurem s t`
/// is `s` for a zero `t`, and the signed remainder is written through the
/// quotient (`x - x * 1`, `0 - 0 * q`).
///
/// Why: z3 4.8 does not rewrite `bvurem x x`, and bit-blasts a whole
/// divider for it. LLVM's instcombine leaves such divisions for the
/// salvage to describe (`srem i8 %b0, %b0` after a shift, `urem i32 %x1,
/// %x1`), and 6 of the 7 records of 300 generated functions that ran to
/// `dioptra llvm`'s 200 ms limit were one.
fn same_operand(x: &BV) -> BV {
    let w = x.get_size();
    x.eq(bv_u(w, 0)).ite(&BV::from_i64(-1, w), &bv_u(w, 1))
}

/// `x % b`, unsigned, as `bvurem` (`x` for a zero divisor). A constant
/// divisor is a mask (a power of two), a select (at least `2^(w-1)`), the
/// narrow remainder of a zero-extended dividend ([`narrow_dividend`]) or
/// `x - c * (x / c)` in the bits a remainder below `c` can have; `x % x`
/// is 0.
pub fn urem(x: &BV, b: &BV) -> BV {
    let w = x.get_size();
    match constant_divisor(b) {
        Some(c) if c.is_power_of_two() => {
            let k = c.trailing_zeros();
            if k == 0 {
                bv_u(w, 0)
            } else {
                x.extract(k - 1, 0).zero_ext(w - k)
            }
        }
        // At least half the range: the quotient is 1 or 0, so the remainder
        // is `x - c` or `x`, the select correlated-propagation writes for
        // such a `urem` (`icmp ult`, `sub nuw`, `select`).
        Some(c) if c >> (w - 1) == 1 => x.bvuge(b).ite(&x.bvsub(b), x),
        // The remainder is below `c`, so only its low `k` bits (`c <= 2^k`)
        // can be set: written as their zero extension, the bits above are
        // zero in the term itself, and a comparison that depends on them
        // (`icmp slt` of a remainder against `icmp ult`, as
        // correlated-propagation rewrites it) is decided without search.
        Some(c) => {
            if let Some(y) = narrow_dividend(x, c) {
                let n = y.get_size();
                return urem(&y, &bv_big(n, &c.into())).zero_ext(w - n);
            }
            let r = x.bvsub(b.bvmul(udiv(x, b)));
            let k = 128 - (c - 1).leading_zeros();
            if k < w {
                r.extract(k - 1, 0).zero_ext(w - k)
            } else {
                r
            }
        }
        // `x % x` (see [`same_operand`]).
        None if x == b => bv_u(w, 0),
        None => x.bvurem(b),
    }
}

/// `x / b`, signed, rounded toward zero, as `bvsdiv` (`MIN / -1` wraps to
/// `MIN`; a zero divisor gives `bvsdiv`'s answer). A constant divisor `c` is
/// the unsigned quotient of the magnitudes ([`udiv`]) with the sign put
/// back: `-x` for `c = -1`, `x == MIN` for `c = MIN`, and the negated
/// quotient by `-c` for any other negative `c`.
pub fn sdiv(x: &BV, b: &BV) -> BV {
    let w = x.get_size();
    let Some(c) = constant_divisor(b) else {
        if x == b {
            return same_operand(x);
        }
        return x.bvsdiv(b);
    };
    let sign = 1u128 << (w - 1);
    let all = if w == 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    if c == sign {
        // `MIN`: 1 for `MIN` itself, 0 for everything else (`w = 1`: -1 / -1).
        return x.eq(bv_big(w, &sign.into())).ite(&bv_u(w, 1), &bv_u(w, 0));
    }
    if c == 1 {
        return x.clone();
    }
    if c == all {
        return x.bvneg();
    }
    let negative_c = c & sign != 0;
    if negative_c {
        // `x / -d = -(x / d)`, written so: the quotients by `c` and by `-c`
        // then share their term, and so do the remainders `x - c * q` (z3
        // folds `-c * -q` to `c * q`), which LLVM swaps freely (`srem i32
        // %x, -7` and `srem i32 %x, 7` are the same number).
        return sdiv(x, &bv_big(w, &((all - c + 1) & all).into())).bvneg();
    }
    let negative_x = x.extract(w - 1, w - 1).eq(bv_u(1, 1));
    let magnitude = negative_x.ite(&x.bvneg(), x);
    let q = udiv(&magnitude, b);
    negative_x.ite(&q.bvneg(), &q)
}

/// Does `x * c` overflow `w` unsigned bits, for a constant `c`? Exactly when
/// `x > floor((2^w - 1) / c)` (never for `c = 0`): the largest `x` whose
/// product fits.
///
/// Why: LLVM's `mul nuw` by a constant (correlated-propagation adds the flag
/// to `mul i64 %z, 7` of a narrow `%z`) was encoded through the product in
/// `2w` bits, a 128-bit multiplier at `i64` that ran to `dioptra llvm`'s
/// 200 ms limit; a comparison with a constant is decided at once.
pub fn mul_overflows_unsigned(x: &BV, c: u128) -> Bool {
    let w = x.get_size();
    if c == 0 {
        return ff();
    }
    let max = if w == 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    x.bvugt(bv_big(w, &(max / c).into()))
}

/// Does `x * c` overflow `w` signed bits, for a constant `c` (`w`-bit two's
/// complement)? With `MIN = -2^(w-1)` and `MAX = 2^(w-1) - 1`, and Rust's
/// division rounding toward zero:
///
/// * `c > 0`: when `x > MAX / c` or `x < MIN / c` (the quotients are the
///   floor and the ceiling of the exact ones);
/// * `c = -1`: when `x = MIN` (the one value whose negation does not fit);
/// * `c < -1`: when `x < MAX / c` or `x > MIN / c` (dividing by a negative
///   turns the bounds round);
/// * `c = 0`: never.
///
/// Why: as [`mul_overflows_unsigned`], for `mul nsw`.
pub fn mul_overflows_signed(x: &BV, c: u128) -> Bool {
    let w = x.get_size();
    let all = if w == 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    let c = c & all;
    // `c` and the bounds as signed numbers (`w <= 128`).
    let signed = |v: u128| -> i128 {
        if w < 128 && v >> (w - 1) & 1 == 1 {
            (v | !all) as i128
        } else {
            v as i128
        }
    };
    let (min, max) = if w == 128 {
        (i128::MIN, i128::MAX)
    } else {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    };
    let bv = |v: i128| bv_big(w, &((v as u128) & all).into());
    match signed(c) {
        0 => ff(),
        -1 => x.eq(bv(min)),
        c if c > 0 => Bool::or(&[&x.bvsgt(bv(max / c)), &x.bvslt(bv(min / c))]),
        c => Bool::or(&[&x.bvslt(bv(max / c)), &x.bvsgt(bv(min / c))]),
    }
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
    use num_bigint::BigInt;

    /// Does z3 prove `mine` equal to `theirs` wherever `guard` holds,
    /// within `ms`?
    fn proven_equal(mine: &BV, theirs: &BV, guard: &Bool, ms: u32) -> bool {
        let differ = Bool::and(&[guard, &mine.eq(theirs).not()]);
        matches!(solve(&[&differ], ms), Answer::Unsat)
    }

    /// The remainder through the quotient is `bvsrem` wherever the divisor
    /// is not zero.
    #[test]
    fn srem_is_the_smt_lib_remainder() {
        let (a, b) = (BV::new_const("a", 8), BV::new_const("b", 8));
        let nonzero = b.eq(bv_u(8, 0)).not();
        assert!(proven_equal(&srem(&a, &b), &a.bvsrem(&b), &nonzero, 20_000));
    }

    /// A remainder spelled out as `x - c * (x / c)`, in either order, is
    /// [`srem`]'s own term, and its bits let a comparison that depends on
    /// its range be decided at once: `srem i32 %x, 7 <= 16` (signed) at 32
    /// and 64 bits, which z3 4.8 searched a divider for until the 200 ms
    /// limit. Anything else subtracted is a subtraction.
    #[test]
    fn a_remainder_spelled_out_is_the_remainder() {
        for w in [8u32, 32, 64] {
            let x = BV::new_const("x", w);
            for c in [3i64, 7, -7, 100] {
                let c = BV::from_i64(c, w);
                let q = sdiv(&x, &c);
                assert_eq!(sub(&x, &c.bvmul(&q)), srem(&x, &c), "w {w}, {c}");
                assert_eq!(sub(&x, &q.bvmul(&c)), srem(&x, &c), "w {w}, {c}");
                let other = sdiv(&x, &bv_u(w, 5));
                assert_eq!(sub(&x, &c.bvmul(&other)), x.bvsub(c.bvmul(&other)));
            }
            let within = srem(&x, &bv_u(w, 7)).bvsle(bv_u(w, 16));
            assert!(
                matches!(solve(&[&within.not()], 200), Answer::Unsat),
                "w {w}: the remainder by 7 is at most 16"
            );
        }
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
                assert!(
                    proven_equal(&mine, &theirs, &tt(), 5_000),
                    "{mine} against {theirs}"
                );
            }
        }
    }

    /// The constant-divisor forms are `bvudiv`, `bvurem`, `bvsdiv` and
    /// `bvsrem` for every constant and every dividend, proven at the widths
    /// where every constant can be tried (the zero divisor included: the
    /// forms leave it to z3).
    #[test]
    fn constant_divisions_are_the_smt_lib_divisions() {
        for w in [1u32, 2, 3, 4, 6, 7] {
            let x = BV::new_const("x", w);
            for c in 0..(1u64 << w) {
                let c = bv_u(w, c);
                let nonzero = c.eq(bv_u(w, 0)).not();
                for (mine, theirs, guard) in [
                    (udiv(&x, &c), x.bvudiv(&c), tt()),
                    (urem(&x, &c), x.bvurem(&c), tt()),
                    (sdiv(&x, &c), x.bvsdiv(&c), tt()),
                    (srem(&x, &c), x.bvsrem(&c), nonzero.clone()),
                ] {
                    assert!(
                        proven_equal(&mine, &theirs, &guard, 5_000),
                        "w {w}, {c}: {mine} against {theirs}"
                    );
                }
            }
        }
    }

    /// A division of a value by itself is `bvudiv`, `bvurem`, `bvsdiv` and
    /// `bvsrem` of the value by itself, for every value (zero included),
    /// proven at the widths where z3 decides the divider; and the forms do
    /// not contain a divider, at every width (that is what they are for).
    #[test]
    fn divisions_of_a_value_by_itself_are_the_smt_lib_divisions() {
        for w in [1u32, 2, 3, 8, 13] {
            let x = BV::new_const("x", w);
            for (name, mine, theirs) in [
                ("udiv", udiv(&x, &x), x.bvudiv(&x)),
                ("urem", urem(&x, &x), x.bvurem(&x)),
                ("sdiv", sdiv(&x, &x), x.bvsdiv(&x)),
                ("srem", srem(&x, &x), x.bvsrem(&x)),
            ] {
                assert!(
                    proven_equal(&mine, &theirs, &tt(), 20_000),
                    "w {w}: {name}: {mine} against {theirs}"
                );
            }
        }
        for w in [8u32, 64, 200] {
            let x = BV::new_const("x", w);
            for mine in [udiv(&x, &x), urem(&x, &x), sdiv(&x, &x), srem(&x, &x)] {
                let text = mine.to_string();
                for divider in ["bvudiv", "bvurem", "bvsdiv", "bvsrem"] {
                    assert!(!text.contains(divider), "w {w}: {text}");
                }
            }
        }
    }

    /// The constant-factor overflow tests are the product in `2w` bits
    /// compared with the wrapped one, for every constant and every `x`,
    /// proven at 1 to 6 bits; and at 64 and 128 bits, on numerals, they
    /// say whether the exact product leaves each width's range.
    #[test]
    fn constant_factor_overflow_is_the_wide_product_test() {
        for w in 1u32..=6 {
            let x = BV::new_const("x", w);
            for c in 0..(1u64 << w) {
                let cb = bv_u(w, c);
                let r = x.bvmul(&cb);
                let wide_u = x.zero_ext(w).bvmul(cb.zero_ext(w));
                let wide_s = x.sign_ext(w).bvmul(cb.sign_ext(w));
                for (name, mine, theirs) in [
                    (
                        "nuw",
                        mul_overflows_unsigned(&x, c as u128),
                        wide_u.eq(r.zero_ext(w)).not(),
                    ),
                    (
                        "nsw",
                        mul_overflows_signed(&x, c as u128),
                        wide_s.eq(r.sign_ext(w)).not(),
                    ),
                ] {
                    let differ = mine.xor(&theirs);
                    assert!(
                        matches!(solve(&[&differ], 5_000), Answer::Unsat),
                        "w {w}, c {c}: {name}: {mine} against {theirs}"
                    );
                }
            }
        }
        let samples: [i128; 12] = [
            0,
            1,
            -1,
            2,
            -2,
            7,
            -7,
            1000,
            i64::MAX as i128,
            i64::MIN as i128,
            1 << 40,
            -(1 << 33) + 5,
        ];
        // The exact product as a big integer, against each width's range.
        let overflows = |w: u32, x: i128, c: i128| {
            let (min, max) = (
                -(BigInt::from(1) << (w - 1)),
                (BigInt::from(1) << (w - 1)) - 1,
            );
            let m = BigInt::from(1) << w;
            let unsigned = |v: i128| ((BigInt::from(v) % &m) + &m) % &m;
            let signed = BigInt::from(x) * BigInt::from(c);
            (signed < min || signed > max, unsigned(x) * unsigned(c) >= m)
        };
        for &c in &samples {
            for &x in &samples {
                // At 64 bits the samples themselves, at 128 bits values
                // spread over the upper half too.
                let wide = (
                    c.wrapping_mul(c).wrapping_add(c),
                    x.wrapping_mul(1 << 64).wrapping_add(x),
                );
                for (w, x, c) in [(64u32, x, c), (128, wide.1, wide.0)] {
                    let all = if w == 128 {
                        u128::MAX
                    } else {
                        (1u128 << w) - 1
                    };
                    let xb = bv_big(w, &((x as u128) & all).into());
                    let cu = (c as u128) & all;
                    let got = (
                        mul_overflows_signed(&xb, cu).simplify().as_bool(),
                        mul_overflows_unsigned(&xb, cu).simplify().as_bool(),
                    );
                    let (s, u) = overflows(w, x, c);
                    assert_eq!(got, (Some(s), Some(u)), "{w} bits: {x} * {c}");
                }
            }
        }
    }

    /// A negative constant divisor gives the negated quotient of its
    /// magnitude, so the quotients by `c` and `-c` share their term, and the
    /// remainders simplify to one term (z3 folds `-c * -q`): LLVM swaps
    /// `srem i32 %x, -7` and `srem i32 %x, 7`, and proving the two equal
    /// through two multipliers took 25-120 ms at 32 bits, and over 5 s for
    /// 1000.
    #[test]
    fn a_negative_divisor_shares_the_terms_of_its_magnitude() {
        for w in [8u32, 32, 64] {
            let x = BV::new_const("x", w);
            for c in [3i64, 7, 8, 100] {
                let (neg, pos) = (BV::from_i64(-c, w), BV::from_i64(c, w));
                assert!(sdiv(&x, &neg) == sdiv(&x, &pos).bvneg(), "w {w}, c {c}");
                assert!(
                    srem(&x, &neg).simplify() == srem(&x, &pos).simplify(),
                    "w {w}, c {c}: {} against {}",
                    srem(&x, &neg).simplify(),
                    srem(&x, &pos).simplify()
                );
            }
        }
    }

    /// A zero-extended dividend is divided at the narrowest width that holds
    /// it and the divisor: the forms are `bvudiv` and `bvurem` of the wide
    /// values, proven for a spread of divisors; the quotient of `zext i8`
    /// by a constant is the zero extension of the 8-bit quotient term, the
    /// same term LLVM's narrowed division gives; and a dividend whose high
    /// bits are not zero is not narrowed.
    #[test]
    fn a_zero_extended_dividend_is_divided_at_its_width() {
        let y = BV::new_const("y", 8);
        for wide in [16u32, 64] {
            let x = y.zero_ext(wide - 8);
            for c in [3u64, 5, 7, 10, 100, 127, 200, 255, 256, 1000] {
                let cb = bv_u(wide, c);
                for (name, mine, theirs) in [
                    ("udiv", udiv(&x, &cb), x.bvudiv(&cb)),
                    ("urem", urem(&x, &cb), x.bvurem(&cb)),
                ] {
                    assert!(
                        proven_equal(&mine, &theirs, &tt(), 20_000),
                        "{name} of zext to {wide} by {c}"
                    );
                }
                if c < 256 {
                    let narrow = udiv(&y, &bv_u(8, c)).zero_ext(wide - 8);
                    assert!(
                        udiv(&x, &cb).simplify() == narrow.simplify(),
                        "{c} at {wide}"
                    );
                }
            }
        }
        let z = BV::new_const("z", 16);
        assert!(udiv(&z, &bv_u(16, 3)) == udiv_by_multiplying(&z, 3));
        let masked = z.bvand(bv_u(16, 0xff));
        assert!(udiv(&masked, &bv_u(16, 3)) != udiv_by_multiplying(&masked, 3));
    }

    /// At 33, 64 and 128 bits the forms, on numerals, give what Rust's own
    /// division gives, for divisors and dividends at the edges (0, 1, the
    /// powers of two and their neighbours, the signed minimum, all ones)
    /// and pseudo-random ones.
    #[test]
    fn wide_constant_divisions_compute_rusts_quotients() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for w in [33u32, 64, 128] {
            let all = if w == 128 {
                u128::MAX
            } else {
                (1u128 << w) - 1
            };
            let signed = |v: u128| -> i128 {
                if w < 128 && v >> (w - 1) & 1 == 1 {
                    (v | !all) as i128
                } else {
                    v as i128
                }
            };
            let mut values = vec![
                0,
                1,
                2,
                3,
                7,
                10,
                1000,
                all,
                all - 1,
                1 << (w - 1),
                (1 << (w - 1)) - 1,
            ];
            values.push((1 << (w - 1)) + 1);
            for _ in 0..12 {
                values.push(((next() as u128) << 64 | next() as u128) & all);
                values.push((next() as u128 & 0xffff) & all);
            }
            for &c in &values {
                if c == 0 {
                    continue;
                }
                let cb = bv_big(w, &c.into());
                for &x in &values {
                    let xb = bv_big(w, &x.into());
                    let (sx, sc) = (signed(x), signed(c));
                    // MIN / -1 wraps, as in bvsdiv.
                    let sq = sx.checked_div(sc).unwrap_or(sx) as u128 & all;
                    let sr = sx.checked_rem(sc).unwrap_or(0) as u128 & all;
                    for (name, mine, want) in [
                        ("udiv", udiv(&xb, &cb), x / c),
                        ("urem", urem(&xb, &cb), x % c),
                        ("sdiv", sdiv(&xb, &cb), sq),
                        ("srem", srem(&xb, &cb), sr),
                    ] {
                        assert_eq!(
                            const_u128(&mine),
                            Some(want),
                            "w {w}: {name} {x:#x} by {c:#x}"
                        );
                    }
                }
            }
        }
    }
}
