//! Which low bits of a value a function reads: a small form of LLVM's
//! demanded-bits analysis over the straight-line functions the campaign
//! generates, for telling a code generator that kept only those bits in a
//! register (SelectionDAG's `SimplifyDemandedBits`) from one that wrote
//! anything else there.
//!
//! A use demands, of its operand:
//! * the shift amount of `shl`/`lshr`/`ashr iN`: its low log2(N) bits (a
//!   larger amount is poison, so the target's masking is free to drop the
//!   rest);
//! * `trunc` to `iK`: the low K bits;
//! * `and` with a constant: the bits up to the constant's highest set bit;
//!   `or` with a constant: the bits up to the highest bit it leaves clear;
//! * the shifted operand of `shl` by a constant C: the low k - C bits of
//!   the k its result demands;
//! * `add`, `sub`, `mul`, `and`, `or`, `xor`, and the shifted operand of a
//!   `shl` by a value: the bits the instruction's own result has demanded
//!   (the low bits of their result depend on the low bits of their
//!   operands only);
//! * anything else (a comparison, a right shift's shifted operand, a
//!   division, a `ret`, a call): every bit.
//!
//! Debug records demand nothing: they are what is being checked.

use crate::ir::{Function, InstKind};
use dioptra_semantics::classic::ir::{parse_inst, BinOp, CastOp, Inst};
use dioptra_semantics::types::DataLayout;
use num_bigint::BigInt;

/// How deep uses are followed before every bit counts as demanded.
const MAX_DEPTH: usize = 16;

/// The number of low bits of `value` (`%v0`, of `bits` bits) that `f`'s
/// instructions read: `bits` when they read them all, 0 when nothing reads
/// it.
pub fn demanded_low_bits(f: &Function, value: &str, bits: u64, layout: &DataLayout) -> u64 {
    demanded(f, value, bits, layout, 0)
}

fn demanded(f: &Function, value: &str, bits: u64, layout: &DataLayout, depth: usize) -> u64 {
    if depth > MAX_DEPTH {
        return bits;
    }
    let mut most = 0;
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        if matches!(i.kind, InstKind::Record(_)) {
            continue;
        }
        let Some((result, text)) = super::execute::named_instruction(i) else {
            if mentions(&i.text, value) {
                // A `ret`, a store, a call without a result: all bits.
                return bits;
            }
            continue;
        };
        if !mentions(text, value) {
            continue;
        }
        let Ok(parsed) = parse_inst(text, layout) else {
            return bits;
        };
        let at: Vec<usize> = (0..parsed.operands.len())
            .filter(|&k| parsed.operands[k] == value)
            .collect();
        let of_result = |w: u64| demanded(f, &result, w, layout, depth + 1);
        // A result nothing but records reads demands nothing of its
        // operands (an `icmp` left dead after a pass). A scan, not a
        // recursion: the walk's cost stays what it was.
        if !read_by_code(f, &result) {
            continue;
        }
        let wanted = match parsed.inst {
            Inst::Binary { op, bits: n, .. } => {
                let amount_only = at == [1];
                match op {
                    BinOp::Shl | BinOp::LShr | BinOp::AShr if amount_only => {
                        u64::from(64 - (n - 1).leading_zeros()).max(1)
                    }
                    // `shl %v, C`: the result's low k bits are the
                    // operand's low k - C.
                    BinOp::Shl => match constant(&parsed.operands[1]) {
                        Some(c) => of_result(n).saturating_sub(c.try_into().unwrap_or(n)),
                        None => of_result(n),
                    },
                    // `or %v, C`: the bits C sets are the result's whatever
                    // %v holds there.
                    BinOp::Or if at == [0] || at == [1] => {
                        match constant(&parsed.operands[1 - at[0]]) {
                            Some(c) => high_bit(&!c, n).min(of_result(n)),
                            None => of_result(n),
                        }
                    }
                    BinOp::And if at == [0] => match constant(&parsed.operands[1]) {
                        Some(mask) => high_bit(&mask, n).min(of_result(n)),
                        None => of_result(n),
                    },
                    BinOp::And if at == [1] => match constant(&parsed.operands[0]) {
                        Some(mask) => high_bit(&mask, n).min(of_result(n)),
                        None => of_result(n),
                    },
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor => {
                        of_result(n)
                    }
                    // `urem %v, 2^k` is `and %v, 2^k - 1`.
                    BinOp::URem if at == [0] => match constant(&parsed.operands[1]) {
                        Some(c)
                            if c.sign() == num_bigint::Sign::Plus
                                && c.magnitude().count_ones() == 1 =>
                        {
                            (c.bits() - 1).min(of_result(n))
                        }
                        _ => bits,
                    },
                    _ => bits,
                }
            }
            Inst::Cast {
                op: CastOp::Trunc,
                to,
                ..
            } => of_result(to),
            // The index of `getelementptr T, ptr %p, iN %v` (N the pointer
            // width): the address's low k bits read the index's low k - s,
            // for elements of 2^s bytes.
            Inst::Gep {
                elt_bytes,
                ptr_bits,
                index_bits,
            } if at == [1] && index_bits == ptr_bits && elt_bytes.is_power_of_two() => {
                of_result(ptr_bits).saturating_sub(u64::from(elt_bytes.trailing_zeros()))
            }
            _ => bits,
        };
        most = most.max(wanted.min(bits));
        if most >= bits {
            return bits;
        }
    }
    most
}

/// Does an instruction other than a debug record name `value`?
fn read_by_code(f: &Function, value: &str) -> bool {
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| !matches!(i.kind, InstKind::Record(_)))
        .any(|i| {
            let text = super::execute::named_instruction(i).map_or(i.text.as_str(), |(_, t)| t);
            mentions(text, value)
        })
}

/// Does instruction text name `value` as a whole word?
fn mentions(text: &str, value: &str) -> bool {
    text.match_indices(value).any(|(k, _)| {
        let after = text[k + value.len()..].chars().next();
        !after.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
    })
}

fn constant(text: &str) -> Option<BigInt> {
    text.parse().ok()
}

/// The position above the highest set bit of `mask` as an `n`-bit value.
fn high_bit(mask: &BigInt, n: u64) -> u64 {
    let m = dioptra_semantics::bits::Bits::from_bigint(n, mask).unsigned_int();
    m.bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn low_bits(body: &str, value: &str, bits: u64) -> u64 {
        let text = format!("define i32 @f(i32 %x0, i16 %x1) {{\nentry:\n{body}}}\n");
        let m = crate::ir::parse(&text).unwrap();
        demanded_low_bits(&m.functions[0], value, bits, &DataLayout::llvm_default())
    }

    #[test]
    fn a_shift_amount_demands_its_low_bits_only() {
        let body = "  %v0 = srem i32 %x0, 127\n  %v1 = ashr i32 %x0, %v0\n  ret i32 %v1\n";
        assert_eq!(low_bits(body, "%v0", 32), 5);
        // The shifted operand of a right shift is read whole.
        assert_eq!(low_bits(body, "%x0", 32), 32);
    }

    #[test]
    fn masks_and_truncations_narrow_what_is_read() {
        let body = "  %v1 = sext i16 %x1 to i32\n  %v3 = and i32 %v1, 127\n  %v4 = add i32 %v3, 1\n  %v5 = trunc i32 %v4 to i8\n  %v6 = zext i8 %v5 to i32\n  ret i32 %v6\n";
        assert_eq!(low_bits(body, "%v1", 32), 7);
        assert_eq!(low_bits(body, "%v4", 32), 8);
        // A value a comparison reads is read whole; %v10 is not %v1.
        let body = "  %v1 = add i32 %x0, 1\n  %v10 = icmp ult i32 %v1, 9\n  %v11 = zext i1 %v10 to i32\n  ret i32 %v11\n";
        assert_eq!(low_bits(body, "%v1", 32), 32);
        assert!(!mentions("%v10 = add i32 %v10, 1", "%v1"));
        // `or` with -128 sets bits 7 and up: 7 bits of %v1 are read
        // (f1712 of the seed-2026 campaign); `shl` by 2 of an i8 reads 6.
        let body = "  %v1 = ashr exact i32 %x0, 25\n  %v2 = or i32 %v1, -128\n  ret i32 %v2\n";
        assert_eq!(low_bits(body, "%v1", 32), 7);
        let body = "  %v3 = trunc i32 %x0 to i8\n  %v4 = shl i8 %v3, 2\n  %v5 = zext i8 %v4 to i32\n  ret i32 %v5\n";
        assert_eq!(low_bits(body, "%v3", 8), 6);
        // Nothing reads a dead value.
        assert_eq!(
            low_bits("  %v1 = add i32 %x0, 1\n  ret i32 0\n", "%v1", 32),
            0
        );
    }

    /// The seed-2026 campaign's last unexplained registers: f1712 under
    /// simplifycfg (a dead `icmp` beside the `or`), f8386 (`urem` by 8),
    /// f6276 (a `getelementptr` of `i16`s).
    #[test]
    fn dead_users_remainders_by_powers_of_two_and_scaled_indices() {
        let body = "  %v1 = ashr exact i32 %x0, 25\n  %v2 = or i32 %v1, -128\n  %v3 = icmp sle i32 %v1, 128\n  ret i32 %v2\n";
        assert_eq!(low_bits(body, "%v1", 32), 7);
        // The same icmp used: the comparison reads all of %v1.
        let body = "  %v1 = ashr exact i32 %x0, 25\n  %v2 = or i32 %v1, -128\n  %v3 = icmp sle i32 %v1, 128\n  %v4 = zext i1 %v3 to i32\n  %v5 = add i32 %v2, %v4\n  ret i32 %v5\n";
        assert_eq!(low_bits(body, "%v1", 32), 32);
        let body = "  %v0 = ashr i32 %x0, 13\n  %v1 = add nsw i32 %v0, 7\n  %v3 = urem i32 %v1, 8\n  ret i32 %v3\n";
        assert_eq!(low_bits(body, "%v0", 32), 3);
        // Not a power of two: every bit counts.
        let body = "  %v1 = add i32 %x0, 7\n  %v3 = urem i32 %v1, 6\n  ret i32 %v3\n";
        assert_eq!(low_bits(body, "%v1", 32), 32);
        // The divisor of a urem is read whole.
        let body = "  %v1 = add i32 %x0, 7\n  %v3 = urem i32 8, %v1\n  ret i32 %v3\n";
        assert_eq!(low_bits(body, "%v1", 32), 32);
        let gep = |elt: &str| {
            let text = format!("define ptr @f(ptr %p, i64 %x1) {{\nentry:\n  %v4 = sdiv i64 %x1, 5\n  %v6 = getelementptr inbounds {elt}, ptr %p, i64 %v4\n  ret ptr %v6\n}}\n");
            let m = crate::ir::parse(&text).unwrap();
            demanded_low_bits(&m.functions[0], "%v4", 64, &DataLayout::llvm_default())
        };
        assert_eq!(gep("i16"), 63);
        assert_eq!(gep("i64"), 61);
        assert_eq!(gep("i8"), 64);
        assert_eq!(gep("[3 x i8]"), 64);
    }
}
