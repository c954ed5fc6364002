//! Expressions whose every type is at most 128 bits wide (integers,
//! pointers, vectors of them): the expressions
//! `dioptra_semantics::narrow` evaluates, built for the fixed context's
//! signature so that most of them evaluate there and in `arb_context`'s
//! contexts.
//!
//! An expression is built as a tree, from a list of choices: a value of
//! `iN` is a constant at a boundary value, an input read (the referrer, an
//! argument, the type object, a pointer dereferenced into the context's
//! memory, moved by an offset), the lane, an integral binary op of two
//! values (`DIOpDiv` and `DIOpMod` of `INT_MIN` by -1 and by 0 among them),
//! an extension or conversion of a value of another width, a composite of
//! two values read back, a `DIOpSelect` of two `DIOpExtend`s read back, or a
//! value reinterpreted as a vector and back. The whole is such a value, or a
//! location (an input, a dereferenced pointer, a composite) with an offset,
//! and ends with a fragment now and then. Now and then an op narrow
//! evaluation declines is mixed in (an implicit address, a 129-bit value
//! on the way), and some choices reach errors (a zero divisor, an
//! undefined byte, an offset out of its storage, overlapping parts, a
//! fragment of the wrong size), which it must decline too.

use dioptra_semantics::syntax::{Expr, Literal, Op, Spelling};
use dioptra_semantics::types::Type;
use num_bigint::BigInt;
use proptest::prelude::*;
use std::sync::Arc;

/// Narrow expressions built from up to `max_choices` choices.
pub fn arb_narrow_expr(max_choices: usize) -> impl Strategy<Value = Expr> {
    prop::collection::vec(any::<u32>(), 1..max_choices).prop_map(|c| build_narrow(&c))
}

/// The narrow expression `choices` build.
pub fn build_narrow(choices: &[u32]) -> Expr {
    let mut b = Builder {
        choices,
        next: 0,
        ops: Vec::new(),
    };
    let c = b.choice();
    let w = b.width();
    match c % 8 {
        0..=4 => b.value(w, 4),
        5 => drop(b.location()),
        6 => {
            // A location moved by a constant number of bits or bytes.
            drop(b.location());
            let k = b.choice() % 40;
            b.ops.push(constant(8, BigInt::from(k)));
            let to = Type::Int(u64::from(1 + b.choice() % 32));
            b.ops.push(if c & 0x100 == 0 {
                Op::BitOffset(to)
            } else {
                Op::ByteOffset(to)
            });
        }
        _ => {
            // A composite of two locations (whose parts may overlap).
            // (Sizes as the choices fall: a composite of the wrong size is
            // ill-formed, and declined.)
            let bits = |t: Type| match t {
                Type::Int(b) => b,
                _ => 32,
            };
            let n = bits(b.location()) + bits(b.location());
            b.ops.push(Op::Composite(2, Type::Int(n)));
        }
    }
    if c & 0x600 == 0 {
        // The result's size is what the value or location was built for;
        // a wrong one is ill-formed, which is declined too.
        let size = match c % 8 {
            0..=4 => w,
            _ => u64::from(b.choice() % 3) * 32 + 32,
        };
        b.ops.push(Op::Fragment(0, size));
    }
    Expr {
        spelling: Spelling::DIExpr,
        ops: b.ops,
    }
}

struct Builder<'c> {
    choices: &'c [u32],
    next: usize,
    ops: Vec<Op>,
}

/// The widths values are built at: the boundaries of narrow evaluation's
/// `u128` (1, 63, 64, 65, 127, 128) and common sizes.
const WIDTHS: &[u64] = &[1, 3, 8, 16, 32, 63, 64, 65, 127, 128];

fn constant(w: u64, v: BigInt) -> Op {
    Op::Constant(Type::Int(w), Literal::Int(v))
}

fn vector(count: u64, w: u64) -> Type {
    Type::Vector {
        count,
        elem: Arc::new(Type::Int(w)),
    }
}

impl Builder<'_> {
    /// The next choice; 0 once they run out (so shrinking shortens).
    fn choice(&mut self) -> u32 {
        let c = self.choices.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        c
    }
    fn width(&mut self) -> u64 {
        WIDTHS[self.choice() as usize % WIDTHS.len()]
    }

    /// Ops that leave one location of an input or of memory; its type.
    fn location(&mut self) -> Type {
        let c = self.choice();
        let (op, t) = match c % 6 {
            0 => (Op::Referrer(Type::Int(32)), Type::Int(32)),
            1 => (Op::Arg(0, Type::Int(64)), Type::Int(64)),
            2 => (Op::Arg(2, vector(4, 8)), vector(4, 8)),
            3 => (Op::Arg(3, Type::Int(64)), Type::Int(64)),
            4 => (Op::TypeObject(vector(2, 32)), vector(2, 32)),
            _ => {
                // Memory: the pointer argument (0x100 in address space 5)
                // moved by a few bytes, dereferenced.
                self.ops.push(Op::Arg(1, Type::ptr(5)));
                self.ops.push(Op::Deref(Type::Int(32)));
                self.ops.push(constant(8, BigInt::from(c / 6 % 12)));
                (Op::ByteOffset(Type::Int(32)), Type::Int(32))
            }
        };
        self.ops.push(op);
        t
    }

    /// Ops that leave one value of type `iw` (`depth` bounds the nesting).
    fn value(&mut self, w: u64, depth: u32) {
        let c = self.choice();
        let arm = if depth == 0 { c % 3 } else { c % 14 };
        match arm {
            0 => self.ops.push(constant(w, boundary(w, c / 14))),
            1 => {
                // An input read, then brought to `iw`.
                let t = self.location();
                self.ops.push(Op::Read);
                let from = match t {
                    Type::Int(b) => b,
                    Type::Vector { count, elem } => {
                        let b = count * if let Type::Int(e) = *elem { e } else { 0 };
                        self.ops.push(Op::Reinterpret(Type::Int(b)));
                        b
                    }
                    _ => unreachable!("locations are of integers and vectors of them"),
                };
                self.resize(from, w);
            }
            2 if w >= 3 => {
                self.ops.push(Op::PushLane(Type::Int(w)));
            }
            2 => self.ops.push(constant(w, boundary(w, c / 14))),
            3..=6 => {
                let op = crate::BINARY_OPS[(c / 14) as usize % crate::BINARY_OPS.len()].clone();
                self.value(w, depth - 1);
                self.value(w, depth - 1);
                self.ops.push(op);
            }
            7 => {
                // A value of another width, extended or converted.
                let from = self.width();
                self.value(from, depth - 1);
                self.resize_signed(from, w, c & 0x4000 != 0);
            }
            8 if w >= 2 => {
                // A composite of two values, read back.
                let low = 1 + u64::from(c / 14) % (w - 1);
                self.value(low, depth - 1);
                self.value(w - low, depth - 1);
                self.ops.push(Op::Composite(2, Type::Int(w)));
                self.ops.push(Op::Read);
            }
            9 | 10 if w.is_multiple_of(2) => {
                // A select of two extends of lanes, read back as `iw`.
                let lanes = [2, 4, 8][(c / 14) as usize % 3].min(w);
                let lanes = if w.is_multiple_of(lanes) { lanes } else { 2 };
                let size = w / lanes;
                for _ in 0..2 {
                    self.value(size, depth - 1);
                    self.ops.push(Op::Extend(lanes as u32));
                }
                let mask = if c & 0x8000 == 0 {
                    Type::Int(lanes)
                } else {
                    vector(lanes, 1)
                };
                let lit = match mask {
                    Type::Int(m) => Literal::Int(boundary(m, c / 140)),
                    _ => Literal::ZeroInit,
                };
                self.ops.push(Op::Constant(mask, lit));
                self.ops.push(Op::Select);
                self.ops.push(Op::Read);
                self.ops.push(Op::Reinterpret(Type::Int(w)));
            }
            11 if w.is_multiple_of(8) && w > 8 => {
                // Reinterpreted as a vector of bytes and back.
                self.value(w, depth - 1);
                self.ops.push(Op::Reinterpret(vector(w / 8, 8)));
                self.ops.push(Op::Reinterpret(Type::Int(w)));
            }
            12 if c & 0x3_0000 == 0 => {
                // Declined: an implicit address, dereferenced.
                self.value(w, depth - 1);
                self.ops.push(Op::AddrOf(5));
                self.ops.push(Op::Deref(Type::Int(w)));
            }
            12 if c & 0x3_0000 == 0x1_0000 => {
                // Declined: wider than 128 bits on the way.
                self.value(w, depth - 1);
                self.ops.push(Op::ZExt(Type::Int(129)));
                self.ops.push(Op::Convert(Type::Int(w)));
            }
            _ => self.ops.push(constant(w, boundary(w, c / 14))),
        }
    }

    /// Brings the value on top from `iF` to `iT`.
    fn resize(&mut self, from: u64, to: u64) {
        self.resize_signed(from, to, false)
    }
    fn resize_signed(&mut self, from: u64, to: u64, signed: bool) {
        match from.cmp(&to) {
            std::cmp::Ordering::Less if signed => self.ops.push(Op::SExt(Type::Int(to))),
            std::cmp::Ordering::Less => self.ops.push(Op::ZExt(Type::Int(to))),
            std::cmp::Ordering::Greater => self.ops.push(Op::Convert(Type::Int(to))),
            std::cmp::Ordering::Equal => {}
        }
    }
}

/// An integer of `w` bits near a boundary: 0, 1, -1, the extreme values,
/// or a small number.
fn boundary(w: u64, c: u32) -> BigInt {
    let one = BigInt::from(1);
    let v = match c % 8 {
        0 => BigInt::from(0),
        1 => one.clone(),
        2 => BigInt::from(-1),
        3 => -(one.clone() << (w - 1)),
        4 => (one.clone() << (w - 1)) - 1,
        5 => (one << w) - 1,
        _ => BigInt::from(c / 8 % 300),
    };
    let fits = v >= -(BigInt::from(1) << (w - 1)) && v < (BigInt::from(1) << w);
    if fits {
        v
    } else {
        BigInt::from(c % 2)
    }
}
