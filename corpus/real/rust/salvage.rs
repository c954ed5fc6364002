//! Values LLVM's optimizer keeps only as expressions over other values
//! (salvaged debug values). Compiled by regenerate.sh.

/// A digit pair as itoa computes it: `n / 100` through a multiply.
#[inline(never)]
pub fn hundreds(n: u16) -> u32 {
    let wide = n as u32;
    let q = (wide * 5243) >> 19;
    let rest = wide - q * 100;
    q * 1000 + rest
}

/// A match that becomes a switch.
#[inline(never)]
pub fn weight(code: u8, v: i32) -> i32 {
    let w = match code {
        0 => 1,
        1 => 7,
        5 => v,
        _ => -1,
    };
    let doubled = w.wrapping_mul(2);
    doubled + 1
}

/// A slice walked by index, its length and pointer in fragments.
#[inline(never)]
pub fn total(xs: &[u16]) -> u64 {
    let mut t = 0u64;
    for (i, &x) in xs.iter().enumerate() {
        let bits = (x as u64) << (i % 4);
        t = t.wrapping_add(bits);
    }
    t
}

/// A quotient and remainder by 100 of a 16-bit value, as itoa splits
/// digits: the optimizer keeps `last` only as an expression over `n`.
#[inline(never)]
pub fn split(n: u16) -> u32 {
    let last = n as u32 / 100;
    let rest = n as u32 % 100;
    last * 7 + rest
}
