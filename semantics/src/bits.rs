//! Fixed-width bit strings: the contents of location storages and the values
//! read from them. Bit 0 is the least significant bit; storages are
//! little-endian (byte `k` of memory holds bits `8k..8k+8`).
//!
//! Why not the `bitvec` crate: every value here is also an integer that the
//! arithmetic ops need at any width, and `num-bigint` gives both the bit
//! access (shift and mask) and the arithmetic with one representation.

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Zero};
use std::fmt;

/// A bit string of a fixed `width`, stored as an unsigned integer below
/// `2^width`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits {
    width: u64,
    value: BigUint,
}

fn mask(width: u64) -> BigUint {
    (BigUint::one() << width) - BigUint::one()
}

impl Bits {
    /// The value `v` truncated to `width` bits.
    pub fn new(width: u64, v: BigUint) -> Bits {
        let value = if v.bits() > width { v & mask(width) } else { v };
        Bits { width, value }
    }
    pub fn zero(width: u64) -> Bits {
        Bits {
            width,
            value: BigUint::zero(),
        }
    }
    pub fn from_u64(width: u64, v: u64) -> Bits {
        Bits::new(width, BigUint::from(v))
    }
    /// Two's complement encoding of `v` in `width` bits (wrapping).
    pub fn from_bigint(width: u64, v: &BigInt) -> Bits {
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
        Bits::new(width, BigUint::from_bytes_le(bytes))
    }
    pub fn width(&self) -> u64 {
        self.width
    }
    /// The bits as an unsigned integer.
    pub fn unsigned(&self) -> &BigUint {
        &self.value
    }
    /// The bits as a two's complement signed integer.
    pub fn signed(&self) -> BigInt {
        if self.width > 0 && self.bit(self.width - 1) {
            BigInt::from(self.value.clone()) - (BigInt::one() << self.width)
        } else {
            BigInt::from(self.value.clone())
        }
    }
    pub fn bit(&self, i: u64) -> bool {
        i < self.width && self.value.bit(i)
    }
    pub fn is_zero(&self) -> bool {
        self.value.is_zero()
    }
    /// The unsigned value if it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        if self.value.bits() > 128 {
            return None;
        }
        let digits = self.value.to_u64_digits();
        let lo = digits.first().copied().unwrap_or(0) as u128;
        let hi = digits.get(1).copied().unwrap_or(0) as u128;
        Some(lo | (hi << 64))
    }
    /// The low 64 bits.
    pub fn low_u64(&self) -> u64 {
        self.value.iter_u64_digits().next().unwrap_or(0)
    }
    /// `len` bits starting at bit `offset` (bits past the end read as zero;
    /// callers check bounds first).
    pub fn extract(&self, offset: u64, len: u64) -> Bits {
        Bits::new(len, &self.value >> offset)
    }
    /// `self` in the low bits, `high` above it.
    pub fn concat(&self, high: &Bits) -> Bits {
        Bits {
            width: self.width + high.width,
            value: &self.value | (&high.value << self.width),
        }
    }
    /// Zero-extend or truncate to `width`.
    pub fn zext(&self, width: u64) -> Bits {
        Bits::new(width, self.value.clone())
    }
    /// Sign-extend or truncate to `width`.
    pub fn sext(&self, width: u64) -> Bits {
        Bits::from_bigint(width, &self.signed())
    }
    /// Hex digits, most significant first, exactly `ceil(width / 4)` of them.
    pub fn hex(&self) -> String {
        // Padded by hand: `format!` widths stop at 65535.
        let digits = self.width.div_ceil(4).max(1) as usize;
        let s = self.value.to_str_radix(16);
        let mut out = "0".repeat(digits.saturating_sub(s.len()));
        out.push_str(&s);
        out
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

    #[test]
    fn twos_complement_round_trip() {
        let b = Bits::from_bigint(8, &BigInt::from(-1));
        assert_eq!(b.low_u64(), 0xff);
        assert_eq!(b.signed(), BigInt::from(-1));
        let b = Bits::from_bigint(8, &BigInt::from(-256));
        assert!(b.is_zero());
        let b = Bits::from_bigint(65, &BigInt::from(-2));
        assert_eq!(b.unsigned(), &((BigUint::one() << 65u32) - 2u32));
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

    #[test]
    fn sext_of_negative() {
        assert_eq!(Bits::from_u64(4, 0b1000).sext(8).low_u64(), 0xf8);
        assert_eq!(Bits::from_u64(4, 0b0111).sext(8).low_u64(), 0x07);
    }
}
