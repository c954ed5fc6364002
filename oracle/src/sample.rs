//! splitmix64, the oracle's source of reproducible pseudo-random values
//! (the variants of a test context, the inputs a rule's counterexample
//! search runs): six lines, so written here rather than taken as a
//! dependency, and written once.

/// The splitmix64 increment (the golden ratio in 64 bits).
pub const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The splitmix64 output for state `z` (the state advanced by [`GAMMA`],
/// then mixed).
pub fn splitmix64(z: u64) -> u64 {
    let mut z = z.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
