//! `arbitrary::Arbitrary` (for coverage-guided fuzzers) and
//! `quickcheck::Arbitrary` for types, literals, ops and expressions, behind
//! the `arbitrary` and `quickcheck` features. Both draw from the same small
//! choice functions so the two agree on what an expression can be: any op
//! with bounded parameters, well-formed or not, printable and re-parsable.

use crate::syntax::{Expr, Literal, Op, Spelling};
use crate::types::Type;
use num_bigint::BigInt;

/// A source of choices: `pick(n)` is in `0..n` (n > 0).
pub trait Chooser {
    fn pick(&mut self, n: usize) -> usize;
    fn int(&mut self) -> i64;
}

const WIDTHS: [u64; 9] = [1, 7, 8, 16, 32, 63, 64, 65, 128];

/// A type of nesting at most `depth`.
pub fn choose_type(c: &mut dyn Chooser, depth: u32) -> Type {
    let k = if depth == 0 { c.pick(6) } else { c.pick(8) };
    match k {
        0 | 1 => Type::Int(WIDTHS[c.pick(WIDTHS.len())]),
        2 => crate::types::FLOAT_TYPES[c.pick(7)].clone(),
        3 => Type::ptr([0, 1, 3, 5][c.pick(4)]),
        4 => Type::Ptr {
            addrspace: [0, 5][c.pick(2)],
            pointee: Some(std::sync::Arc::new(Type::Int(WIDTHS[c.pick(WIDTHS.len())]))),
        },
        5 => Type::Int(8),
        6 => Type::Vector {
            count: 1 + c.pick(8) as u64,
            elem: std::sync::Arc::new(choose_type(c, 0)),
        },
        7 if c.pick(2) == 0 => Type::Array {
            count: c.pick(4) as u64,
            elem: std::sync::Arc::new(choose_type(c, depth - 1)),
        },
        _ => Type::Struct {
            packed: c.pick(2) == 1,
            fields: (0..1 + c.pick(3))
                .map(|_| choose_type(c, depth - 1))
                .collect(),
        },
    }
}

/// A literal that prints as valid text for `t`.
pub fn choose_literal(c: &mut dyn Chooser, t: &Type) -> Literal {
    match c.pick(8) {
        0 => return Literal::Undef,
        1 => return Literal::ZeroInit,
        _ => {}
    }
    match t {
        Type::Int(_) => Literal::Int(BigInt::from(c.int())),
        Type::Half | Type::BFloat => Literal::Float(u128::from(c.int() as u16)),
        Type::Float => {
            Literal::Float(crate::value::round_f64(t, f32::from_bits(c.int() as u32) as f64).into())
        }
        Type::Double => {
            Literal::Float(crate::value::round_f64(t, f64::from_bits(c.int() as u64)).into())
        }
        // The hexadecimal forms of the wide formats read back any bits.
        Type::X86Fp80 | Type::Fp128 | Type::PpcFp128 => {
            let raw = u128::from(c.int() as u64) | u128::from(c.int() as u64) << 64;
            Literal::Float(raw & (u128::MAX >> (128 - crate::float::format_bits(t))))
        }
        Type::Ptr { .. } => Literal::Null,
        Type::Vector { count, elem } => Literal::Vector(
            (0..*count)
                .map(|_| ((**elem).clone(), choose_literal(c, elem)))
                .collect(),
        ),
        Type::Array { count, elem } => Literal::Array(
            (0..*count)
                .map(|_| ((**elem).clone(), choose_literal(c, elem)))
                .collect(),
        ),
        // Generated types name no struct; a named one gets `zeroinitializer`.
        Type::Named(_) => Literal::ZeroInit,
        Type::Struct { fields, packed } => Literal::Struct {
            packed: *packed,
            fields: fields
                .iter()
                .map(|f| (f.clone(), choose_literal(c, f)))
                .collect(),
        },
    }
}

/// Any op with bounded parameters.
pub fn choose_op(c: &mut dyn Chooser) -> Op {
    let mut t = || choose_type(c, 1);
    let k = t(); // drawn first so every arm can use it
    match c.pick(Op::NAMES.len()) {
        0 => Op::Referrer(k),
        1 => Op::Arg(c.pick(4) as u32, k),
        2 => Op::TypeObject(k),
        3 => {
            let v = choose_literal(c, &k);
            Op::Constant(k, v)
        }
        4 => Op::Convert(k),
        5 => Op::ZExt(k),
        6 => Op::SExt(k),
        7 => Op::Reinterpret(k),
        8 => Op::BitOffset(k),
        9 => Op::ByteOffset(k),
        10 => Op::Composite(c.pick(5) as u32, k),
        11 => Op::Extend(c.pick(70) as u32),
        12 => Op::Select,
        13 => Op::AddrOf(c.pick(8) as u32),
        14 => Op::Deref(k),
        15 => Op::Read,
        16 => Op::Add,
        17 => Op::Sub,
        18 => Op::Mul,
        19 => Op::Div,
        20 => Op::LShr,
        21 => Op::AShr,
        22 => Op::Shl,
        23 => Op::PushLane(k),
        24 => Op::Fragment(c.pick(256) as u64, c.pick(256) as u64),
        25 => Op::And,
        26 => Op::Or,
        27 => Op::Xor,
        _ => Op::Mod,
    }
}

/// An expression of 1..=16 ops in any spelling.
pub fn choose_expr(c: &mut dyn Chooser) -> Expr {
    let spelling = [Spelling::DIExpr, Spelling::DIExpression, Spelling::Bare][c.pick(3)];
    let n = 1 + c.pick(16);
    Expr {
        spelling,
        ops: (0..n).map(|_| choose_op(c)).collect(),
    }
}

#[cfg(feature = "arbitrary")]
mod with_arbitrary {
    use super::*;
    use arbitrary::{Arbitrary, Unstructured};

    /// Choices from the fuzzer's bytes; when they run out, the first option.
    struct Bytes<'a, 'b>(&'a mut Unstructured<'b>);

    impl Chooser for Bytes<'_, '_> {
        fn pick(&mut self, n: usize) -> usize {
            self.0.choose_index(n).unwrap_or(0)
        }
        fn int(&mut self) -> i64 {
            i64::arbitrary(self.0).unwrap_or(0)
        }
    }

    impl<'a> Arbitrary<'a> for Type {
        fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
            Ok(choose_type(&mut Bytes(u), 2))
        }
    }

    impl<'a> Arbitrary<'a> for Op {
        fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
            Ok(choose_op(&mut Bytes(u)))
        }
    }

    impl<'a> Arbitrary<'a> for Expr {
        fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
            Ok(choose_expr(&mut Bytes(u)))
        }
    }
}

#[cfg(feature = "quickcheck")]
mod with_quickcheck {
    use super::*;
    use quickcheck::{Arbitrary, Gen};

    struct G<'a>(&'a mut Gen);

    impl Chooser for G<'_> {
        fn pick(&mut self, n: usize) -> usize {
            usize::arbitrary(self.0) % n
        }
        fn int(&mut self) -> i64 {
            i64::arbitrary(self.0)
        }
    }

    impl Arbitrary for Type {
        fn arbitrary(g: &mut Gen) -> Self {
            choose_type(&mut G(g), 2)
        }
    }

    impl Arbitrary for Op {
        fn arbitrary(g: &mut Gen) -> Self {
            choose_op(&mut G(g))
        }
    }

    impl Arbitrary for Expr {
        fn arbitrary(g: &mut Gen) -> Self {
            choose_expr(&mut G(g))
        }
        /// Shrinks by dropping ops (keeping at least one).
        fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
            let e = self.clone();
            let n = if e.ops.len() > 1 { e.ops.len() } else { 0 };
            Box::new((0..n).map(move |k| {
                let mut ops = e.ops.clone();
                ops.remove(k);
                Expr {
                    spelling: e.spelling,
                    ops,
                }
            }))
        }
    }
}
