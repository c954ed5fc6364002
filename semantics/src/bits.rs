//! Fixed-width bit strings: the contents of location storages and the values
//! read from them. Bit 0 is the least significant bit; storages are
//! little-endian (byte `k` of memory holds bits `8k..8k+8`).
//!
//! Why not the `bitvec` crate: every value here is also an integer that the
//! arithmetic ops need at any width, and `num-bigint` gives both the bit
//! access (shift and mask) and the arithmetic with one representation.
//!
//! Why two representations: nearly every value an expression computes is at
//! most 128 bits wide (LLVM's integers, pointers and floats of real
//! programs), and a `BigUint` costs an allocation per value. Values up to 128
//! bits are kept inline in a `u128`; wider ones in a `BigUint`. Which one a
//! value uses is fixed by its width alone, so equality, ordering and hashing
//! are those of `(width, value)` either way.

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, ToPrimitive, Zero};
use std::borrow::Cow;
use std::fmt;

/// The widest value kept inline.
const INLINE: u64 = 128;

/// The value below `2^width`: inline up to `INLINE` bits, a `BigUint` above.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    Small(u128),
    Big(BigUint),
}

/// A bit string of a fixed `width`, stored as an unsigned integer below
/// `2^width`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits {
    width: u64,
    repr: Repr,
}

fn mask(width: u64) -> BigUint {
    (BigUint::one() << width) - BigUint::one()
}

/// The low `width` bits set (`width <= 128`).
#[inline]
fn mask128(width: u64) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The low 128 bits of `v`.
fn low128(v: &BigUint) -> u128 {
    let mut d = v.iter_u64_digits();
    let lo = d.next().unwrap_or(0) as u128;
    let hi = d.next().unwrap_or(0) as u128;
    lo | (hi << 64)
}

impl Bits {
    /// The value `v` truncated to `width` bits.
    pub fn new(width: u64, v: BigUint) -> Bits {
        if width <= INLINE {
            return Bits::from_u128(width, low128(&v));
        }
        let value = if v.bits() > width { v & mask(width) } else { v };
        Bits {
            width,
            repr: Repr::Big(value),
        }
    }
    /// The value `v` truncated to `width` bits, without a `BigUint`.
    #[inline]
    pub fn from_u128(width: u64, v: u128) -> Bits {
        if width <= INLINE {
            Bits {
                width,
                repr: Repr::Small(v & mask128(width)),
            }
        } else {
            Bits {
                width,
                repr: Repr::Big(BigUint::from(v)),
            }
        }
    }
    pub fn zero(width: u64) -> Bits {
        Bits::from_u128(width, 0)
    }
    pub fn from_u64(width: u64, v: u64) -> Bits {
        Bits::from_u128(width, v as u128)
    }
    /// Two's complement encoding of `v` in `width` bits (wrapping).
    pub fn from_i128(width: u64, v: i128) -> Bits {
        if width <= INLINE {
            Bits::from_u128(width, v as u128)
        } else {
            Bits::from_bigint(width, &BigInt::from(v))
        }
    }
    /// Two's complement encoding of `v` in `width` bits (wrapping).
    pub fn from_bigint(width: u64, v: &BigInt) -> Bits {
        if width <= INLINE {
            if let Some(i) = v.to_i128() {
                return Bits::from_u128(width, i as u128);
            }
        }
        match v.sign() {
            Sign::Minus => {
                let m = BigUint::one() << width;
                let mag = v.magnitude() % &m;
                if mag.is_zero() {
                    Bits::zero(width)
                } else {
                    Bits::new(width, m - mag)
                }
            }
            _ => Bits::new(width, v.magnitude().clone()),
        }
    }
    /// Little-endian bytes, truncated or zero-padded to `width` bits.
    pub fn from_le_bytes(width: u64, bytes: &[u8]) -> Bits {
        if width <= INLINE {
            let mut b = [0u8; 16];
            let n = bytes.len().min(16);
            b[..n].copy_from_slice(&bytes[..n]);
            return Bits::from_u128(width, u128::from_le_bytes(b));
        }
        Bits::new(width, BigUint::from_bytes_le(bytes))
    }
    /// The bits as `n` little-endian bytes, truncated or zero-padded (the
    /// inverse of [`Bits::from_le_bytes`] for `n = ceil(width / 8)`).
    pub fn to_le_bytes(&self, n: usize) -> Vec<u8> {
        let mut v = match &self.repr {
            Repr::Small(x) => x.to_le_bytes()[..n.min(16)].to_vec(),
            Repr::Big(x) => x.to_bytes_le(),
        };
        v.resize(n, 0);
        v
    }
    pub fn width(&self) -> u64 {
        self.width
    }
    /// The bits as an unsigned integer (borrowed when the value is wider
    /// than 128 bits, made when it is inline).
    pub fn unsigned(&self) -> Cow<'_, BigUint> {
        match &self.repr {
            Repr::Small(v) => Cow::Owned(BigUint::from(*v)),
            Repr::Big(v) => Cow::Borrowed(v),
        }
    }
    /// The bits as an unsigned integer, as a `BigInt`.
    pub fn unsigned_int(&self) -> BigInt {
        match &self.repr {
            Repr::Small(v) => BigInt::from(*v),
            Repr::Big(v) => BigInt::from(v.clone()),
        }
    }
    /// The value, when it is at most 128 bits wide.
    #[inline]
    pub fn small(&self) -> Option<u128> {
        match self.repr {
            Repr::Small(v) => Some(v),
            Repr::Big(_) => None,
        }
    }
    /// The value read as a two's complement integer, when it is at most 128
    /// bits wide.
    #[inline]
    pub fn small_signed(&self) -> Option<i128> {
        let v = self.small()?;
        let w = self.width;
        Some(if w == 0 {
            0
        } else if w >= 128 {
            v as i128
        } else {
            ((v << (128 - w)) as i128) >> (128 - w)
        })
    }
    /// The bits as a two's complement signed integer.
    pub fn signed(&self) -> BigInt {
        if let Some(i) = self.small_signed() {
            return BigInt::from(i);
        }
        let u = BigInt::from(self.unsigned().into_owned());
        if self.width > 0 && self.bit(self.width - 1) {
            u - (BigInt::one() << self.width)
        } else {
            u
        }
    }
    pub fn bit(&self, i: u64) -> bool {
        if i >= self.width {
            return false;
        }
        match &self.repr {
            Repr::Small(v) => (v >> i) & 1 == 1,
            Repr::Big(v) => v.bit(i),
        }
    }
    pub fn is_zero(&self) -> bool {
        match &self.repr {
            Repr::Small(v) => *v == 0,
            Repr::Big(v) => v.is_zero(),
        }
    }
    /// The unsigned value if it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        match &self.repr {
            Repr::Small(v) => Some(*v),
            Repr::Big(v) => (v.bits() <= 128).then(|| low128(v)),
        }
    }
    /// The unsigned value if it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|v| v.to_u64())
    }
    /// The low 64 bits.
    pub fn low_u64(&self) -> u64 {
        match &self.repr {
            Repr::Small(v) => *v as u64,
            Repr::Big(v) => v.iter_u64_digits().next().unwrap_or(0),
        }
    }
    /// `len` bits starting at bit `offset` (bits past the end read as zero;
    /// callers check bounds first).
    pub fn extract(&self, offset: u64, len: u64) -> Bits {
        match &self.repr {
            Repr::Small(v) => Bits::from_u128(len, if offset >= 128 { 0 } else { v >> offset }),
            Repr::Big(v) => Bits::new(len, v >> offset),
        }
    }
    /// `self` in the low bits, `high` above it.
    pub fn concat(&self, high: &Bits) -> Bits {
        let width = self.width + high.width;
        if let (Repr::Small(lo), Repr::Small(hi), true) = (&self.repr, &high.repr, width <= INLINE)
        {
            let hi = if self.width >= 128 {
                0
            } else {
                hi << self.width
            };
            return Bits::from_u128(width, lo | hi);
        }
        Bits::new(width, &*self.unsigned() | (&*high.unsigned() << self.width))
    }
    /// The concatenation of `parts`, the first in the low bits: what
    /// folding [`Bits::concat`] over them gives, built in one pass over
    /// their words (folding copies the growing value once per part).
    pub fn concat_all(parts: &[Bits]) -> Bits {
        let width: u64 = parts.iter().map(|p| p.width).sum();
        if width <= INLINE {
            return parts.iter().fold(Bits::zero(0), |acc, p| acc.concat(p));
        }
        let mut words = vec![0u64; width.div_ceil(64) as usize];
        let mut at = 0u64;
        for p in parts {
            let digits: Vec<u64> = match &p.repr {
                Repr::Small(v) => vec![*v as u64, (*v >> 64) as u64],
                Repr::Big(v) => v.iter_u64_digits().collect(),
            };
            for (k, d) in digits.into_iter().enumerate() {
                let bit = at + 64 * k as u64;
                let (i, sh) = ((bit / 64) as usize, bit % 64);
                if d == 0 || i >= words.len() {
                    continue;
                }
                words[i] |= d << sh;
                if sh > 0 && i + 1 < words.len() {
                    words[i + 1] |= d >> (64 - sh);
                }
            }
            at += p.width;
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        Bits::new(width, BigUint::from_bytes_le(&bytes))
    }
    /// Zero-extend or truncate to `width`.
    pub fn zext(&self, width: u64) -> Bits {
        match &self.repr {
            Repr::Small(v) => Bits::from_u128(width, *v),
            Repr::Big(v) => Bits::new(width, v.clone()),
        }
    }
    /// Sign-extend or truncate to `width`.
    pub fn sext(&self, width: u64) -> Bits {
        match self.small_signed() {
            Some(i) => Bits::from_i128(width, i),
            None => Bits::from_bigint(width, &self.signed()),
        }
    }
    /// Hex digits, most significant first, exactly `ceil(width / 4)` of them.
    pub fn hex(&self) -> String {
        // Padded by hand: `format!` widths stop at 65535.
        let digits = self.width.div_ceil(4).max(1) as usize;
        let s = match &self.repr {
            Repr::Small(v) => format!("{v:x}"),
            Repr::Big(v) => v.to_str_radix(16),
        };
        let mut out = "0".repeat(digits.saturating_sub(s.len()));
        out.push_str(&s);
        out
    }
}

/// Integer arithmetic on bit strings of one width, as LLVM's `APInt` does it:
/// results wrap modulo `2^width`. The operands have the width of `self`.
impl Bits {
    fn wrapping(
        &self,
        other: &Bits,
        small: fn(u128, u128) -> u128,
        big: fn(BigInt, BigInt) -> BigInt,
    ) -> Bits {
        match (self.small(), other.small()) {
            (Some(a), Some(b)) => Bits::from_u128(self.width, small(a, b)),
            _ => Bits::from_bigint(
                self.width,
                &big(
                    BigInt::from(self.unsigned().into_owned()),
                    BigInt::from(other.unsigned().into_owned()),
                ),
            ),
        }
    }
    /// `self + other`, wrapping.
    pub fn wrapping_add(&self, other: &Bits) -> Bits {
        self.wrapping(other, u128::wrapping_add, |a, b| a + b)
    }
    /// `self - other`, wrapping.
    pub fn wrapping_sub(&self, other: &Bits) -> Bits {
        self.wrapping(other, u128::wrapping_sub, |a, b| a - b)
    }
    /// `self * other`, wrapping.
    pub fn wrapping_mul(&self, other: &Bits) -> Bits {
        self.wrapping(other, u128::wrapping_mul, |a, b| a * b)
    }
    /// `self & other`.
    pub fn and(&self, other: &Bits) -> Bits {
        self.wrapping(other, |a, b| a & b, |a, b| a & b)
    }
    /// `self | other`.
    pub fn or(&self, other: &Bits) -> Bits {
        self.wrapping(other, |a, b| a | b, |a, b| a | b)
    }
    /// `self ^ other`.
    pub fn xor(&self, other: &Bits) -> Bits {
        self.wrapping(other, |a, b| a ^ b, |a, b| a ^ b)
    }
    /// Logical shift right by `s` bits (`s >= width` gives 0).
    pub fn lshr(&self, s: u64) -> Bits {
        match &self.repr {
            Repr::Small(v) => Bits::from_u128(self.width, if s >= 128 { 0 } else { v >> s }),
            Repr::Big(v) => Bits::new(self.width, v >> s),
        }
    }
    /// Shift left by `s` bits, zeros in (`s >= width` gives 0).
    pub fn shl(&self, s: u64) -> Bits {
        if s >= self.width {
            return Bits::zero(self.width);
        }
        match &self.repr {
            Repr::Small(v) => Bits::from_u128(self.width, v << s),
            Repr::Big(v) => Bits::new(self.width, v << s),
        }
    }
    /// Arithmetic shift right by `s` bits, sign bits in (`s >= width` gives
    /// all sign bits).
    pub fn ashr(&self, s: u64) -> Bits {
        match self.small_signed() {
            Some(i) => Bits::from_i128(self.width, i >> s.min(127)),
            None => Bits::from_bigint(self.width, &(self.signed() >> s)),
        }
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'0x{}", self.width, self.hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `to_le_bytes` gives the big integer's little-endian bytes, padded
    /// or cut to the length asked for, inline and not, and `from_le_bytes`
    /// reads them back.
    #[test]
    fn le_bytes_are_the_integers_bytes() {
        for width in [1u64, 7, 8, 63, 64, 65, 127, 128, 129, 200] {
            let v = (BigUint::one() << width) - 1u8 - (BigUint::one() << (width / 2));
            let b = Bits::new(width, v.clone());
            let whole = (width as usize).div_ceil(8);
            for n in [0, 1, whole.saturating_sub(1), whole, whole + 3, 20] {
                let mut want = v.to_bytes_le();
                want.resize(n, 0);
                assert_eq!(b.to_le_bytes(n), want, "width {width}, {n} bytes");
            }
            assert_eq!(Bits::from_le_bytes(width, &b.to_le_bytes(whole)), b);
        }
    }

    /// One pass over the words gives what folding `concat` gives, for
    /// parts of every size around the word and inline boundaries.
    #[test]
    fn concat_all_is_the_fold_of_concat() {
        let mut seed = 3u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed
        };
        for _ in 0..500 {
            let parts: Vec<Bits> = (0..1 + next() % 12)
                .map(|_| {
                    let w: u64 = [1, 7, 63, 64, 65, 127, 128, 129, 200][(next() % 9) as usize];
                    let bytes: Vec<u8> = (0..w.div_ceil(8)).map(|_| next() as u8).collect();
                    Bits::from_le_bytes(w, &bytes)
                })
                .collect();
            let folded = parts.iter().fold(Bits::zero(0), |acc, p| acc.concat(p));
            assert_eq!(Bits::concat_all(&parts), folded);
        }
    }

    #[test]
    fn twos_complement_round_trip() {
        let b = Bits::from_bigint(8, &BigInt::from(-1));
        assert_eq!(b.low_u64(), 0xff);
        assert_eq!(b.signed(), BigInt::from(-1));
        let b = Bits::from_bigint(8, &BigInt::from(-256));
        assert!(b.is_zero());
        let b = Bits::from_bigint(65, &BigInt::from(-2));
        assert_eq!(*b.unsigned(), (BigUint::one() << 65u32) - 2u32);
    }

    #[test]
    fn extract_and_concat_are_little_endian() {
        let lo = Bits::from_u64(8, 0x34);
        let hi = Bits::from_u64(8, 0x12);
        let w = lo.concat(&hi);
        assert_eq!(w.low_u64(), 0x1234);
        assert_eq!(w.extract(4, 8).low_u64(), 0x23);
        assert_eq!(w.hex(), "1234");
        assert_eq!(Bits::from_u64(1, 1).hex(), "1");
        assert_eq!(Bits::zero(1 << 20).hex().len(), 1 << 18);
    }

    /// The reference: the operation on unbounded integers, then reduced
    /// modulo `2^width`, computed without `Bits`.
    fn reduce(width: u64, v: BigInt) -> BigUint {
        let m = BigInt::one() << width;
        let r = ((v % &m) + &m) % &m;
        r.to_biguint().unwrap()
    }

    fn value(width: u64, seed: &[u8]) -> BigUint {
        BigUint::from_bytes_le(seed) % (BigUint::one() << width)
    }

    fn signed_of(width: u64, u: &BigUint) -> BigInt {
        let v = BigInt::from(u.clone());
        if width > 0 && u.bit(width - 1) {
            v - (BigInt::one() << width)
        } else {
            v
        }
    }

    proptest::proptest! {
        /// Every operation agrees with unbounded arithmetic reduced modulo
        /// `2^width`, on both sides of the inline limit (128 bits).
        #[test]
        fn ops_agree_with_unbounded_arithmetic(
            width in proptest::prop_oneof![1u64..=130, 1u64..=300],
            a in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
            b in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
            s in 0u64..320,
        ) {
            let (ua, ub) = (value(width, &a), value(width, &b));
            let (x, y) = (Bits::new(width, ua.clone()), Bits::new(width, ub.clone()));
            let (ia, ib) = (BigInt::from(ua.clone()), BigInt::from(ub.clone()));
            proptest::prop_assert_eq!(&*x.unsigned(), &ua);
            proptest::prop_assert_eq!(x.signed(), signed_of(width, &ua));
            proptest::prop_assert_eq!(x.wrapping_add(&y).unsigned().into_owned(), reduce(width, &ia + &ib));
            proptest::prop_assert_eq!(x.wrapping_sub(&y).unsigned().into_owned(), reduce(width, &ia - &ib));
            proptest::prop_assert_eq!(x.wrapping_mul(&y).unsigned().into_owned(), reduce(width, &ia * &ib));
            proptest::prop_assert_eq!(x.and(&y).unsigned().into_owned(), &ua & &ub);
            proptest::prop_assert_eq!(x.or(&y).unsigned().into_owned(), &ua | &ub);
            proptest::prop_assert_eq!(x.xor(&y).unsigned().into_owned(), &ua ^ &ub);
            proptest::prop_assert_eq!(x.lshr(s).unsigned().into_owned(), &ua >> s);
            proptest::prop_assert_eq!(x.shl(s).unsigned().into_owned(), reduce(width, &ia << s));
            proptest::prop_assert_eq!(x.ashr(s).unsigned().into_owned(), reduce(width, signed_of(width, &ua) >> s));
            let narrow = s.min(width);
            proptest::prop_assert_eq!(x.extract(s % width, narrow).unsigned().into_owned(), (&ua >> (s % width)) % (BigUint::one() << narrow));
            proptest::prop_assert_eq!(x.zext(s + 1).unsigned().into_owned(), &ua % (BigUint::one() << (s + 1)));
            proptest::prop_assert_eq!(x.sext(s + 1).unsigned().into_owned(), reduce(s + 1, signed_of(width, &ua)));
            let c = x.concat(&y);
            proptest::prop_assert_eq!(c.width(), 2 * width);
            proptest::prop_assert_eq!(c.unsigned().into_owned(), &ua | (&ub << width));
            proptest::prop_assert_eq!(x.to_u128(), ua.to_u128());
            proptest::prop_assert_eq!(x.bit(s), ua.bit(s) && s < width);
            proptest::prop_assert_eq!(Bits::from_le_bytes(width, &a), x.clone());
            proptest::prop_assert_eq!(Bits::from_bigint(width, &signed_of(width, &ua)), x.clone());
            let hex = format!("{:0>w$}", ua.to_str_radix(16), w = width.div_ceil(4) as usize);
            proptest::prop_assert_eq!(x.hex(), hex);
        }
    }

    #[test]
    fn sext_of_negative() {
        assert_eq!(Bits::from_u64(4, 0b1000).sext(8).low_u64(), 0xf8);
        assert_eq!(Bits::from_u64(4, 0b0111).sext(8).low_u64(), 0x07);
    }
}
