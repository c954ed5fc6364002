//! # dioptra-generators
//!
//! proptest strategies (`arb_*`) for dioptra's types, literals and
//! expressions, and a fixed evaluation context that generated expressions are
//! built for.
//!
//! Well-formed expressions are built forward from the type stack, so they are
//! well-formed by construction: the strategy draws a list of choices and a
//! builder turns each choice into an op applicable to the current stack.
//! Shrinking shrinks the choice list, and rebuilding keeps the result
//! well-formed.
//!
//! * [`classic`]: classic `DW_OP` expressions and their contexts;
//! * [`llvm`]: small LLVM IR functions with debug records, for LLVM's passes;
//! * [`mutate`]: single ill-formed mutations, each naming its reason code;
//! * [`narrow`]: expressions whose every type is at most 128 bits wide;
//! * [`programs`]: module listings with lifetimes, of one to three functions;
//! * [`transform`]: compiler transformations of those programs.
//!
//! The `arbitrary::Arbitrary` and `quickcheck::Arbitrary` implementations
//! are in `dioptra_semantics::arb` (features `arbitrary`, `quickcheck`),
//! beside the types they build. This crate sits on the semantics alone: no
//! tool (oracle) and no law (properties) is used here.

pub mod classic;
pub mod llvm;
pub mod mutate;
pub mod narrow;
pub mod programs;
pub mod transform;

use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::syntax::{Expr, Literal, Op, Spelling};
use dioptra_semantics::types::{DataLayout, Type};
use num_bigint::BigInt;
use proptest::prelude::*;

/// Integer widths that exercise the boundaries (1, 8, 63, 64, 65, 128).
pub const WIDTHS: &[u64] = &[1, 2, 7, 8, 16, 32, 63, 64, 65, 128];

/// The binary ops of two operands of one type.
pub const BINARY_OPS: [Op; 11] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Div,
    Op::LShr,
    Op::AShr,
    Op::Shl,
    Op::And,
    Op::Or,
    Op::Xor,
    Op::Mod,
];

pub fn arb_int_type() -> impl Strategy<Value = Type> {
    prop::sample::select(WIDTHS).prop_map(Type::Int)
}

pub fn arb_float_type() -> impl Strategy<Value = Type> {
    prop_oneof![
        2 => Just(Type::Half),
        2 => Just(Type::BFloat),
        2 => Just(Type::Float),
        2 => Just(Type::Double),
        1 => Just(Type::X86Fp80),
        1 => Just(Type::Fp128),
        1 => Just(Type::PpcFp128),
    ]
}

pub fn arb_ptr_type() -> impl Strategy<Value = Type> {
    (
        prop::sample::select(&[0u32, 1, 3, 5][..]),
        prop::option::of(arb_int_type()),
    )
        .prop_map(|(a, p)| Type::Ptr {
            addrspace: a,
            pointee: p.map(std::sync::Arc::new),
        })
}

pub fn arb_scalar_type() -> impl Strategy<Value = Type> {
    prop_oneof![4 => arb_int_type(), 2 => arb_float_type(), 1 => arb_ptr_type()]
}

/// Any type, with bounded nesting (vectors of scalars, small structs and
/// arrays).
pub fn arb_type() -> impl Strategy<Value = Type> {
    arb_scalar_type().prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            (1u64..=8, arb_scalar_type()).prop_map(|(count, e)| vector_of(count, e)),
            (any::<bool>(), prop::collection::vec(inner.clone(), 1..4)).prop_map(
                |(packed, fields)| Type::Struct {
                    packed,
                    fields: fields.into(),
                }
            ),
            (0u64..=4, inner).prop_map(|(count, e)| Type::Array {
                count,
                elem: std::sync::Arc::new(e)
            }),
        ]
    })
}

/// A literal that prints as valid text for `t` (not necessarily of the right
/// range or kind: the checker decides that).
pub fn arb_literal(t: &Type) -> BoxedStrategy<Literal> {
    let common = prop_oneof![
        Just(Literal::Undef),
        Just(Literal::Poison),
        Just(Literal::ZeroInit)
    ];
    match t {
        Type::Int(_) => prop_oneof![
            4 => any::<i64>().prop_map(|v| Literal::Int(BigInt::from(v))),
            1 => any::<bool>().prop_map(Literal::Bool),
            1 => common,
        ]
        .boxed(),
        Type::Half | Type::BFloat => {
            prop_oneof![any::<u16>().prop_map(|b| Literal::Float(b.into())), common].boxed()
        }
        Type::Float => {
            let t = t.clone();
            prop_oneof![
                any::<u32>().prop_map(move |b| {
                    Literal::Float(
                        dioptra_semantics::value::round_f64(&t, f32::from_bits(b) as f64).into(),
                    )
                }),
                common
            ]
            .boxed()
        }
        Type::Double => prop_oneof![
            any::<u64>().prop_map(|b| Literal::Float(
                dioptra_semantics::value::round_f64(&Type::Double, f64::from_bits(b)).into()
            )),
            common
        ]
        .boxed(),
        // Their hexadecimal forms read back any bits.
        Type::X86Fp80 | Type::Fp128 | Type::PpcFp128 => {
            let mask = u128::MAX >> (128 - dioptra_semantics::float::format_bits(t));
            prop_oneof![
                any::<u128>().prop_map(move |b| Literal::Float(b & mask)),
                common
            ]
            .boxed()
        }
        Type::Ptr { .. } => prop_oneof![
            Just(Literal::Null),
            (0u64..1 << 20).prop_map(|v| Literal::Int(v.into())),
            common
        ]
        .boxed(),
        Type::Vector { count, elem } => {
            let n = *count as usize;
            let e = (**elem).clone();
            prop_oneof![
                prop::collection::vec(arb_literal(&e), n).prop_map(move |v| Literal::Vector(
                    v.into_iter().map(|l| (e.clone(), l)).collect()
                )),
                common
            ]
            .boxed()
        }
        Type::Array { count, elem } => {
            let n = *count as usize;
            let e = (**elem).clone();
            prop_oneof![
                prop::collection::vec(arb_literal(&e), n).prop_map(move |v| Literal::Array(
                    v.into_iter().map(|l| (e.clone(), l)).collect()
                )),
                common
            ]
            .boxed()
        }
        // Generated types name no struct.
        Type::Named(_) => common.boxed(),
        Type::Struct { fields, packed } => {
            let (fs, packed) = (fields.clone(), *packed);
            let parts: Vec<_> = fs.iter().map(arb_literal).collect();
            prop_oneof![
                parts.prop_map(move |v| Literal::Struct {
                    packed,
                    fields: fs.iter().cloned().zip(v).collect()
                }),
                common
            ]
            .boxed()
        }
    }
}

/// Any single op with arbitrary parameters (not necessarily well-formed).
pub fn arb_op() -> impl Strategy<Value = Op> {
    let t = arb_type;
    prop_oneof![
        t().prop_map(Op::Referrer),
        (0u32..4, t()).prop_map(|(n, t)| Op::Arg(n, t)),
        t().prop_map(Op::TypeObject),
        t().prop_flat_map(|t| arb_literal(&t).prop_map(move |l| Op::Constant(t.clone(), l))),
        t().prop_map(Op::Convert),
        t().prop_map(Op::ZExt),
        t().prop_map(Op::SExt),
        t().prop_map(Op::Reinterpret),
        t().prop_map(Op::BitOffset),
        t().prop_map(Op::ByteOffset),
        (0u32..5, t()).prop_map(|(n, t)| Op::Composite(n, t)),
        (0u32..70).prop_map(Op::Extend),
        Just(Op::Select),
        (0u32..8).prop_map(Op::AddrOf),
        t().prop_map(Op::Deref),
        Just(Op::Read),
        prop::sample::select(BINARY_OPS.to_vec()),
        t().prop_map(Op::PushLane),
        (any::<u64>(), any::<u64>()).prop_map(|(o, s)| Op::Fragment(o, s)),
    ]
}

pub fn arb_spelling() -> impl Strategy<Value = Spelling> {
    prop_oneof![
        Just(Spelling::DIExpr),
        Just(Spelling::DIExpression),
        Just(Spelling::Bare)
    ]
}

/// Any expression of up to 12 arbitrary ops (for the text round trip).
pub fn arb_any_expr() -> impl Strategy<Value = Expr> {
    (arb_spelling(), prop::collection::vec(arb_op(), 1..12))
        .prop_map(|(spelling, ops)| Expr { spelling, ops })
}

/// The context generated expressions are built for, in context-file syntax
/// (so counterexamples can print it as a corpus context).
pub const FIXED_CONTEXT: &str = r#"(context fuzz
  (types "%gen.pair = type { i8, i32 }" "%gen.packed = type <{ i8, i32 }>" "%gen.node = type { %gen.pair, [2 x i16], %gen.node addrspace(5)* }")
  (register 3 "78 56 34 12")
  (register 4 "01 02 03 04 05 06 07 08")
  (memory 5 0x100 "2a 00 00 00 ff ff ff ff 10 20 30 40 ?? ?? 00 01")
  (memory 1 0x1000 "01 23 45 67 89 ab cd ef 00 00 00 00 00 00 00 80")
  (referrer "i32" "reg(3)")
  (arg "i64" "mem(1, 0x1000)")
  (arg "ptr addrspace(5)" "imp(ptr addrspace(5) 256)")
  (arg "<4 x i8>" "{reg(3) | reg(3)}")
  (arg "i64" "reg(4)")
  (typeobject "<2 x i32>" "mem(1, 0x1008)")
  (lane 7))"#;

/// The named struct types of every generated context (the `(types ...)`
/// clause of `FIXED_CONTEXT`): a padded struct, a packed one and one that
/// nests the first and points at itself. Their sizes are 64, 40 and 128
/// bits under AMDGPU's layout.
pub const GENERATED_TYPES: &str = r#"(types "%gen.pair = type { i8, i32 }" "%gen.packed = type <{ i8, i32 }>" "%gen.node = type { %gen.pair, [2 x i16], %gen.node addrspace(5)* }")"#;

/// `FIXED_CONTEXT`: a referrer, inputs of different kinds, memory behind the
/// pointer input, and a lane.
pub fn fixed_context() -> ConcreteContext {
    // Parsed once: strategies ask for it per case.
    static PARSED: std::sync::LazyLock<ConcreteContext> = std::sync::LazyLock::new(|| {
        ConcreteContext::parse(FIXED_CONTEXT).expect("the fixed context parses")
    });
    PARSED.clone()
}

/// `fixed_context().signature()`, made once and shared: a law that needs
/// only the signature per case then copies nothing (a copy of the fixed
/// context is its register and memory maps, of a signature its layout).
pub fn fixed_signature() -> &'static Signature {
    static SIGNATURE: std::sync::LazyLock<Signature> = std::sync::LazyLock::new(|| {
        use dioptra_semantics::context::Context;
        fixed_context().signature()
    });
    &SIGNATURE
}

/// A well-formed expression for `fixed_context()`, built from `choices`.
pub fn build_wellformed(choices: &[u32]) -> Expr {
    build_with(choices, types())
}

/// A well-formed expression from `choices` that names only `types`.
fn build_with(choices: &[u32], types: &'static [Type]) -> Expr {
    // An expression has about as many ops as choices (16 from 20 on
    // average): room for them up front, not a copy per doubling.
    let mut b = Builder {
        stack: Vec::with_capacity(16),
        ops: Vec::with_capacity(choices.len() + 8),
        dl: generated_layout(),
        types,
    };
    for &c in choices {
        b.step(c);
    }
    b.finish(choices.first().copied().unwrap_or(0));
    Expr {
        spelling: Spelling::DIExpr,
        ops: b.ops,
    }
}

/// Well-formed expressions of up to `max_choices` steps.
pub fn arb_wellformed_expr(max_choices: usize) -> impl Strategy<Value = Expr> {
    prop::collection::vec(any::<u32>(), 1..max_choices).prop_map(|c| build_wellformed(&c))
}

/// Well-formed expressions of up to `max_choices` steps that never push the
/// lane (`DIOpPushLane`), which plain DWARF 5 has no operation for: the
/// choice that would push it makes a unary conversion instead. For laws about
/// plain DWARF 5, where a lane only makes a case not expressible. They name
/// no type wider than 8 bytes, the widest value gimli (the DWARF 5
/// consumer those laws ask) holds.
pub fn arb_laneless_expr(max_choices: usize) -> impl Strategy<Value = Expr> {
    prop::collection::vec(any::<u32>(), 1..max_choices).prop_map(|c| {
        let c: Vec<u32> = c
            .into_iter()
            .map(|c| if c % 16 == 4 { c.wrapping_add(1) } else { c })
            .collect();
        build_with(&c, narrow_types())
    })
}

/// The types the builder's `DIOpReferrer` names, each of the 32 bits of
/// the fixed context's referrer (`i32`), made once.
static REFERRER_TYPES: std::sync::LazyLock<[Type; 3]> =
    std::sync::LazyLock::new(|| [Type::Int(32), Type::Float, vector_of(4, Type::Int(8))]);

/// The types the builder's `DIOpTypeObject` names, made once.
static TYPE_OBJECT_TYPES: std::sync::LazyLock<[Type; 3]> =
    std::sync::LazyLock::new(|| [Type::Int(64), Type::Double, vector_of(2, Type::Int(32))]);

/// `<count x elem>`.
fn vector_of(count: u64, elem: Type) -> Type {
    Type::Vector {
        count,
        elem: std::sync::Arc::new(elem),
    }
}

struct Builder {
    /// (type, made by DIOpAddrOf)
    stack: Vec<(Type, bool)>,
    ops: Vec<Op>,
    dl: &'static DataLayout,
    /// The types it names.
    types: &'static [Type],
}

/// The default layout with the generated named types defined (made once).
fn generated_layout() -> &'static DataLayout {
    static LAYOUT: std::sync::OnceLock<DataLayout> = std::sync::OnceLock::new();
    LAYOUT.get_or_init(|| fixed_signature().layout.clone())
}

/// The types the builder names: integers, every floating-point format z3
/// has a sort for, and the generated named structs.
fn types() -> &'static [Type] {
    static TYPES: std::sync::OnceLock<Vec<Type>> = std::sync::OnceLock::new();
    TYPES.get_or_init(|| {
        let mut v = SCALAR_TYPES.to_vec();
        v.extend(
            ["%gen.pair", "%gen.packed", "%gen.node"]
                .map(|n| Type::Named(dioptra_semantics::types::type_name(n))),
        );
        v
    })
}

/// [`types`] of at most 64 bits.
fn narrow_types() -> &'static [Type] {
    static NARROW: std::sync::OnceLock<Vec<Type>> = std::sync::OnceLock::new();
    NARROW.get_or_init(|| {
        let dl = generated_layout();
        types()
            .iter()
            .filter(|t| dl.bitsizeof(t) <= 64)
            .cloned()
            .collect()
    })
}

const SCALAR_TYPES: &[Type] = &[
    Type::Int(1),
    Type::Int(8),
    Type::Int(16),
    Type::Int(32),
    Type::Int(63),
    Type::Int(64),
    Type::Int(65),
    Type::Int(128),
    Type::Half,
    Type::Float,
    Type::Double,
    Type::X86Fp80,
    Type::Fp128,
];

impl Builder {
    fn bits(&self, t: &Type) -> u64 {
        self.dl.bitsizeof(t)
    }
    fn push(&mut self, op: Op, t: Type) {
        self.ops.push(op);
        self.stack.push((t, false));
    }
    fn top(&self, k: usize) -> Option<&(Type, bool)> {
        self.stack.len().checked_sub(k + 1).map(|i| &self.stack[i])
    }
    fn constant(t: &Type, c: u32) -> Literal {
        match t {
            _ if c.is_multiple_of(17) => Literal::Undef,
            Type::Int(w) => {
                // In -40..260; kept when it fits `iN` signed (`-2^(w-1) <=
                // v < 2^(w-1)`), else 0 or 1.
                let v = (c >> 8) as i64 % 300 - 40;
                let fits = *w > 64 || {
                    let lim = 1i128 << (*w - 1);
                    (-lim..lim).contains(&i128::from(v))
                };
                Literal::Int(BigInt::from(if fits { v } else { i64::from((c >> 8) % 2) }))
            }
            t if t.is_float() => {
                let v = ((c >> 8) % 1000) as f64 / 8.0 - 20.0;
                Literal::Float(dioptra_semantics::float::convert(
                    &Type::Double,
                    t,
                    v.to_bits().into(),
                ))
            }
            _ => Literal::ZeroInit,
        }
    }

    /// Applies one op chosen by `c` among those the stack allows.
    fn step(&mut self, c: u32) {
        if c % 16 != 13 {
            self.deref_top_address(c);
        }
        let pick = |n: usize| (c as usize / 7) % n;
        // The type from other bits of `c` than `pick`'s: with `pick`'s, a
        // type list whose length shares a factor with an arm's `pick(n)`
        // would tie that arm to a few of the types.
        let t = self.types[(c as usize / 131) % self.types.len()].clone();
        // The entries an arm looks at, copied for the arms that use them.
        let (top, below) = if matches!(c % 16, 0..=4 | 9 | 15) {
            (None, None)
        } else {
            (self.top(0).cloned(), self.top(1).cloned())
        };
        match c % 16 {
            0 => {
                let ty = REFERRER_TYPES[pick(3)].clone();
                self.push(Op::Referrer(ty.clone()), ty)
            }
            1 => {
                let (n, ty) = [
                    (0, Type::Int(64)),
                    (0, Type::Double),
                    (1, Type::ptr(5)),
                    (2, Type::Int(32)),
                    (3, Type::Int(64)),
                ][pick(5)]
                .clone();
                self.push(Op::Arg(n, ty.clone()), ty)
            }
            2 | 3 => {
                let lit = Self::constant(&t, c);
                self.push(Op::Constant(t.clone(), lit), t)
            }
            15 => {
                let ty = TYPE_OBJECT_TYPES[pick(3)].clone();
                self.push(Op::TypeObject(ty.clone()), ty)
            }
            4 => self.push(Op::PushLane(Type::Int(32)), Type::Int(32)),
            5 => match top {
                // Unary conversions of a value.
                Some((ty, false)) if ty.is_integral() || ty.is_float() => {
                    self.stack.pop();
                    let w = self.bits(&ty);
                    let (op, out) = match (pick(4), &ty) {
                        (0, Type::Int(_)) if w < 128 => (Op::ZExt(Type::Int(128)), Type::Int(128)),
                        (1, Type::Int(_)) if w < 128 => {
                            (Op::SExt(Type::Int(w + 1)), Type::Int(w + 1))
                        }
                        (2, _)
                            if (t.is_integral() || t.is_float())
                                && !(ty.is_integral() && t.is_integral() && self.bits(&t) > w) =>
                        {
                            (Op::Convert(t.clone()), t.clone())
                        }
                        _ => (Op::Read, ty.clone()),
                    };
                    self.push(op, out)
                }
                _ => {}
            },
            6 | 7 => match (top, below) {
                // Binary arithmetic on two values of one type.
                (Some((a, false)), Some((b, false)))
                    if a.same(&b) && (a.is_integral() || a.is_float()) =>
                {
                    let int_ops = [
                        Op::Add,
                        Op::Sub,
                        Op::Mul,
                        Op::Div,
                        Op::Mod,
                        Op::And,
                        Op::Or,
                        Op::Xor,
                        Op::Shl,
                        Op::LShr,
                        Op::AShr,
                    ];
                    let op = if a.is_integral() {
                        int_ops[pick(int_ops.len())].clone()
                    } else {
                        int_ops[pick(4)].clone()
                    };
                    self.stack.pop();
                    self.stack.pop();
                    self.push(op, a)
                }
                (Some((a, false)), _) if a.is_integral() || a.is_float() => {
                    // Make a partner of the same type.
                    let lit = Self::constant(&a, c.rotate_left(5));
                    self.push(Op::Constant(a.clone(), lit), a)
                }
                _ => {}
            },
            8 => match (top, below) {
                (Some((i, false)), Some((_, false))) if i.is_integral() => {
                    self.stack.pop();
                    self.stack.pop();
                    let op = if pick(2) == 0 {
                        Op::BitOffset(t.clone())
                    } else {
                        Op::ByteOffset(t.clone())
                    };
                    self.push(op, t)
                }
                _ => {}
            },
            9 => {
                // Composite of the top k entries.
                let k = 1 + pick(3);
                if self.stack.len() >= k
                    && self.stack[self.stack.len() - k..].iter().all(|(_, a)| !a)
                {
                    let sum: u64 = self.stack[self.stack.len() - k..]
                        .iter()
                        .map(|(t, _)| self.bits(t))
                        .sum();
                    self.stack.truncate(self.stack.len() - k);
                    self.push(Op::Composite(k as u32, Type::Int(sum)), Type::Int(sum))
                }
            }
            10 => match top {
                Some((ty, false)) if ty.is_scalar() && self.bits(&ty) <= 64 => {
                    let n = 1 + pick(4) as u32;
                    self.stack.pop();
                    let v = vector_of(n as u64, ty);
                    self.push(Op::Extend(n), v)
                }
                _ => {}
            },
            11 => match (top, below, self.top(2).cloned()) {
                (Some((m, false)), Some((v1, false)), Some((v0, false)))
                    if m.is_integral()
                        && matches!(&v1, Type::Vector { count, .. } if self.bits(&m) >= *count)
                        && v1.same(&v0) =>
                {
                    self.stack.truncate(self.stack.len() - 3);
                    self.push(Op::Select, v1)
                }
                _ => {}
            },
            12 => {
                if let Some((_, false)) = top {
                    self.stack.pop();
                    self.ops.push(Op::AddrOf(5));
                    self.stack.push((Type::ptr(5), true));
                }
            }
            13 => match top {
                Some((p, _)) if p.is_pointer() => {
                    self.stack.pop();
                    self.push(Op::Deref(t.clone()), t)
                }
                _ => {}
            },
            14 => {
                if let Some((ty, false)) = top {
                    let w = self.bits(&ty);
                    // Prefer a different type of the same size.
                    let mut candidates: Vec<&Type> = self
                        .types
                        .iter()
                        .filter(|x| self.bits(x) == w && **x != ty)
                        .collect();
                    if candidates.is_empty() {
                        candidates = self.types.iter().filter(|x| self.bits(x) == w).collect();
                    }
                    if let Some(x) = candidates.get(pick(candidates.len().max(1))) {
                        let x = (*x).clone();
                        self.stack.pop();
                        self.push(Op::Reinterpret(x.clone()), x)
                    }
                }
            }
            _ => {}
        }
    }

    /// Reduces the stack to one entry and maybe adds a fragment.
    fn finish(&mut self, c: u32) {
        if self.stack.is_empty() {
            self.push(
                Op::Constant(Type::Int(8), Literal::Int(1.into())),
                Type::Int(8),
            );
        }
        if self.stack.len() > 1 {
            self.deref_top_address(c);
            let sum: u64 = self.stack.iter().map(|(t, _)| self.bits(t)).sum();
            let k = self.stack.len() as u32;
            self.stack.clear();
            self.push(Op::Composite(k, Type::Int(sum)), Type::Int(sum));
        }
        if c.is_multiple_of(5) {
            let bits = self.bits(&self.stack[0].0);
            self.ops.push(Op::Fragment(64, bits));
        }
    }

    /// An implicit address may only be consumed by `DIOpDeref`: dereference
    /// it before anything else uses the stack. So implicit addresses are only
    /// ever on top, and the final one may stay as the result.
    fn deref_top_address(&mut self, c: u32) {
        if let Some((_, true)) = self.top(0) {
            self.stack.pop();
            let t = self.types[(c as usize / 3) % self.types.len()].clone();
            self.push(Op::Deref(t.clone()), t);
        }
    }
}

/// A context with the signature of `FIXED_CONTEXT` (a referrer `i32`; inputs
/// `i64`, `ptr addrspace(5)`, `<4 x i8>`, `i64`; a lane) but random contents:
/// registers and memory with some undefined bytes, and each input in a
/// register, in memory, an implicit value, the undefined location, or in two
/// places at once. Returned as context-file text (so a counterexample can
/// print it) — parse it with `ConcreteContext::parse`.
pub fn arb_context() -> impl Strategy<Value = String> {
    let byte =
        prop_oneof![9 => any::<u8>().prop_map(|b| format!("{b:02x}")), 1 => Just("??".to_string())];
    let bytes = |n: usize| prop::collection::vec(byte.clone(), n).prop_map(|v| v.join(" "));
    let loc32 = prop_oneof![
        Just("reg(3)".to_string()),
        Just("mem(5, 0x100)".to_string()),
        Just("mem(5, 0x104)+0".to_string()),
        any::<u32>().prop_map(|v| format!("imp(32, 0x{v:x})")),
        Just("undef".to_string()),
        Just("{reg(3) | mem(5, 0x100)}".to_string()),
        Just("reg(4)+32".to_string()),
    ];
    let loc64 = prop_oneof![
        Just("reg(4)".to_string()),
        Just("mem(1, 0x1000)".to_string()),
        Just("mem(5, 0x100)".to_string()),
        any::<u64>().prop_map(|v| format!("imp(64, 0x{v:x})")),
        Just("undef".to_string()),
        Just("{reg(4) | mem(1, 0x1000)}".to_string()),
        Just("comp(32: reg(3), 32: mem(5, 0x108))".to_string()),
    ];
    let ptr = prop_oneof![
        (0u32..0x110).prop_map(|a| format!("imp(ptr addrspace(5) {a})")),
        Just("reg(3)".to_string()),
        Just("undef".to_string()),
    ];
    (bytes(4), bytes(8), bytes(16), bytes(16), loc32.clone(), loc64.clone(), ptr, loc32, loc64, 0u64..64).prop_map(
        |(r3, r4, m5, m1, referrer, a0, a1, a2, a3, lane)| {
            format!(
                "(context fuzz\n  {GENERATED_TYPES}\n  (register 3 \"{r3}\")\n  (register 4 \"{r4}\")\n  (memory 5 0x100 \"{m5}\")\n  (memory 1 0x1000 \"{m1}\")\n  \
                 (referrer \"i32\" \"{referrer}\")\n  (arg \"i64\" \"{a0}\")\n  (arg \"ptr addrspace(5)\" \"{a1}\")\n  \
                 (arg \"<4 x i8>\" \"{a2}\")\n  (arg \"i64\" \"{a3}\")\n  \
                 (typeobject \"<2 x i32>\" \"{a0}\")\n  (lane {lane}))"
            )
        },
    )
}

/// A context with the signature of `FIXED_CONTEXT` shaped like a real
/// x86-64 machine, for the gdb harness: registers at their machine width
/// (`%rbx` = 3 and `%rsi` = 4 with 8 bytes, `%xmm0` = 17 with 16), memory in
/// address space 0 at addresses a process can map, and each input in a
/// register, in that memory, an implicit value, the undefined location, in
/// two places, or split between a register and memory. Inputs never sit in
/// address space 1 or 5, which plain DWARF 5 cannot name. Context-file text.
pub fn arb_machine_context() -> impl Strategy<Value = String> {
    let byte =
        prop_oneof![9 => any::<u8>().prop_map(|b| format!("{b:02x}")), 1 => Just("??".to_string())];
    let bytes = |n: usize| prop::collection::vec(byte.clone(), n).prop_map(|v| v.join(" "));
    let loc32 = prop_oneof![
        Just("reg(3)".to_string()),
        Just("reg(17)".to_string()),
        Just("mem(0, 0x10000)".to_string()),
        Just("mem(0, 0x10004)+0".to_string()),
        any::<u32>().prop_map(|v| format!("imp(32, 0x{v:x})")),
        Just("undef".to_string()),
        Just("{reg(3) | mem(0, 0x10000)}".to_string()),
        Just("reg(4)+32".to_string()),
        Just("reg(17)+96".to_string()),
    ];
    let loc64 = prop_oneof![
        Just("reg(4)".to_string()),
        Just("reg(17)+64".to_string()),
        Just("mem(0, 0x10008)".to_string()),
        Just("mem(0, 0x20000)".to_string()),
        any::<u64>().prop_map(|v| format!("imp(64, 0x{v:x})")),
        Just("undef".to_string()),
        Just("{reg(4) | mem(0, 0x10008)}".to_string()),
        Just("comp(32: reg(3), 32: mem(0, 0x10010))".to_string()),
        Just("comp(16: undef, 48: reg(4))".to_string()),
    ];
    let ptr = prop_oneof![
        (0u32..0x110).prop_map(|a| format!("imp(ptr addrspace(5) {a})")),
        Just("reg(3)".to_string()),
        Just("undef".to_string()),
    ];
    (
        (bytes(8), bytes(8), bytes(16), bytes(32), bytes(8)),
        (loc32.clone(), loc64.clone(), ptr, loc32, loc64, 0u64..64),
    )
        .prop_map(|((r3, r4, x0, m0, m1), (referrer, a0, a1, a2, a3, lane))| {
            format!(
                "(context machine\n  {GENERATED_TYPES}\n  (register 3 \"{r3}\")\n  (register 4 \"{r4}\")\n  (register 17 \"{x0}\")\n  \
                 (memory 0 0x10000 \"{m0}\")\n  (memory 0 0x20000 \"{m1}\")\n  \
                 (referrer \"i32\" \"{referrer}\")\n  (arg \"i64\" \"{a0}\")\n  (arg \"ptr addrspace(5)\" \"{a1}\")\n  \
                 (arg \"<4 x i8>\" \"{a2}\")\n  (arg \"i64\" \"{a3}\")\n  \
                 (typeobject \"<2 x i32>\" \"{a0}\")\n  (lane {lane}))"
            )
        })
}

/// Expressions for `fixed_context()`'s signature made of snippets that the
/// canonicalizer's rules rewrite (constant pairs under every binary op,
/// identities on the referrer, zero offsets, address-of/deref pairs,
/// reinterprets, double reads, constant extensions), each pushing an `i32`,
/// summed with `DIOpAdd`. Random expressions rarely line such windows up.
pub fn arb_rewritable_expr() -> impl Strategy<Value = Expr> {
    use Literal as L;
    let int = |v: i64| L::Int(v.into());
    let i32t = Type::Int(32);
    let binop = prop_oneof![
        Just(Op::Add),
        Just(Op::Sub),
        Just(Op::Mul),
        Just(Op::Div),
        Just(Op::Mod),
        Just(Op::And),
        Just(Op::Or),
        Just(Op::Xor),
        Just(Op::Shl),
        Just(Op::LShr),
        Just(Op::AShr),
    ];
    let small = prop_oneof![
        Just(0i64),
        Just(1),
        Just(2),
        Just(4),
        Just(-1),
        Just(31),
        Just(32),
        any::<i32>().prop_map(i64::from)
    ];
    let t = i32t.clone();
    let snippet = prop_oneof![
        (small.clone(), small.clone(), binop).prop_map({
            let t = t.clone();
            move |(a, b, op)| {
                vec![
                    Op::Constant(t.clone(), int(a)),
                    Op::Constant(t.clone(), int(b)),
                    op,
                ]
            }
        }),
        (
            small.clone(),
            prop_oneof![Just(Op::Add), Just(Op::Mul), Just(Op::Shl)]
        )
            .prop_map({
                let t = t.clone();
                move |(k, op)| vec![Op::Referrer(t.clone()), Op::Constant(t.clone(), int(k)), op]
            }),
        Just(vec![
            Op::Referrer(t.clone()),
            Op::AddrOf(5),
            Op::Deref(t.clone())
        ]),
        (prop_oneof![Just(8u64), Just(32), Just(64)], any::<bool>()).prop_map({
            let t = t.clone();
            move |(w, bytes)| {
                let off = if bytes {
                    Op::ByteOffset(t.clone())
                } else {
                    Op::BitOffset(t.clone())
                };
                vec![
                    Op::Referrer(t.clone()),
                    Op::Constant(Type::Int(w), int(0)),
                    off,
                ]
            }
        }),
        Just(vec![Op::Referrer(t.clone()), Op::Reinterpret(t.clone())]),
        Just(vec![Op::Referrer(t.clone()), Op::Read, Op::Read]),
        (any::<i8>(), any::<bool>()).prop_map({
            let t = t.clone();
            move |(c, s)| {
                let ext = if s {
                    Op::SExt(t.clone())
                } else {
                    Op::ZExt(t.clone())
                };
                vec![Op::Constant(Type::Int(8), int(c as i64)), ext]
            }
        }),
        (small, any::<bool>()).prop_map({
            let t = t.clone();
            move |(c, read)| {
                let mut v = vec![Op::Constant(t.clone(), int(c))];
                if read {
                    v.push(Op::Read);
                }
                v
            }
        }),
    ];
    prop::collection::vec(snippet, 1..5).prop_map(|snips| {
        let mut ops = Vec::new();
        for (i, s) in snips.into_iter().enumerate() {
            ops.extend(s);
            if i > 0 {
                ops.push(Op::Add);
            }
        }
        Expr {
            spelling: Spelling::Bare,
            ops,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every generated context defines the named types the builder uses,
    /// with the sizes its doc comment gives.
    #[test]
    fn generated_contexts_define_the_named_types() {
        assert!(FIXED_CONTEXT.contains(GENERATED_TYPES));
        let dl = generated_layout();
        let sizes: Vec<u64> = types()
            .iter()
            .filter(|t| matches!(t, Type::Named(_)))
            .map(|t| dl.bitsizeof(t))
            .collect();
        assert_eq!(sizes, [64, 40, 128]);
        // The builder names them: some of 2 000 expressions use one.
        let named = (0..2000u32)
            .map(|i| build_wellformed(&[i.wrapping_mul(2_654_435_761), i, i >> 3, i ^ 0x55]))
            .filter(|e| e.to_string().contains("%gen."))
            .count();
        assert!(named > 0, "no expression names a generated struct");
    }
}
