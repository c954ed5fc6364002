//! A small library whose variables rustc describes at opt-level 2.
//! Compiled by regenerate.sh.

#[inline(never)]
pub fn add(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

#[inline(never)]
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut acc: u64 = 0;
    for (i, b) in bytes.iter().enumerate() {
        acc = acc.rotate_left(5) ^ (*b as u64).wrapping_mul(i as u64 + 1);
    }
    acc
}

pub struct Pair {
    pub lo: i16,
    pub hi: i64,
}

#[inline(never)]
pub fn spread(p: Pair) -> i64 {
    let wide = p.hi - p.lo as i64;
    wide.abs()
}
