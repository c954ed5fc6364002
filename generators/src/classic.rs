//! Classic `DW_OP` expressions, built forward from the type stack (so they
//! are well-formed by construction, and shrinking the choice list keeps
//! them so), and contexts for their operands.
//!
//! Operands ([`CLASSIC_ARGS`]): `i8`, `i32`, `ptr`, `i64`, named with
//! `DW_OP_LLVM_arg`. The generic type is 64 bits wide (the default data
//! layout).

use dioptra_semantics::classic::{COp, ClassicExpr, Encoding, High, Intrinsic, Params};
use proptest::prelude::*;

/// The operand types of [`arb_classic_context`].
pub const CLASSIC_ARGS: &[&str] = &["i8", "i32", "ptr", "i64"];

/// A value's type on the builder's stack: generic, or a base type of this
/// many bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum T {
    Generic,
    Base(u64, bool),
}

struct Builder {
    ops: Vec<COp>,
    stack: Vec<T>,
}

impl Builder {
    fn top(&self) -> Option<T> {
        self.stack.last().copied()
    }
    fn push(&mut self, op: COp, t: T) {
        self.ops.push(op);
        self.stack.push(t);
    }
    /// One op from the choice `c`, applicable to the current stack.
    fn step(&mut self, c: u32) {
        let n = self.stack.len();
        let pair = n >= 2 && self.stack[n - 1] == self.stack[n - 2];
        let generic_top = self.top() == Some(T::Generic);
        match c % 23 {
            0..=3 => self.push(COp::Arg((c / 23) % 4), T::Generic),
            4 => self.push(COp::Lit((c / 23 % 32) as u8), T::Generic),
            5 => self.push(COp::Constu(constant(c)), T::Generic),
            6 => self.push(COp::Consts(constant(c) as i64), T::Generic),
            7 if n >= 1 => {
                let t = self.top().expect("n >= 1");
                self.push(COp::Dup, t);
            }
            8 if n >= 2 => {
                self.ops.push(COp::Swap);
                self.stack.swap(n - 1, n - 2);
            }
            9 if n >= 2 => {
                let t = self.stack[n - 2];
                self.push(COp::Over, t);
            }
            10 if n >= 2 => {
                self.ops.push(COp::Drop);
                self.stack.pop();
            }
            11 if generic_top => {
                self.stack.pop();
                let op = if (c / 23).is_multiple_of(2) {
                    COp::Deref
                } else {
                    COp::DerefSize((c / 46 % 8 + 1) as u8)
                };
                self.push(op, T::Generic);
            }
            12..=15 if pair => {
                const BIN: &[COp] = &[
                    COp::Plus,
                    COp::Minus,
                    COp::Mul,
                    COp::Div,
                    COp::Mod,
                    COp::And,
                    COp::Or,
                    COp::Xor,
                ];
                self.stack.pop();
                self.ops
                    .push(BIN[(c / 23 % BIN.len() as u32) as usize].clone());
            }
            16 if n >= 1 => {
                const UN: &[fn(u64) -> COp] = &[|k| COp::PlusUconst(k), |_| COp::Not, |_| COp::Neg];
                self.ops.push(UN[(c / 23 % 3) as usize](constant(c)));
            }
            17 if n >= 2 => {
                const SH: &[COp] = &[COp::Shl, COp::Shr, COp::Shra];
                self.stack.pop();
                self.ops.push(SH[(c / 23 % 3) as usize].clone());
            }
            18 if pair => {
                const REL: &[COp] = &[COp::Eq, COp::Ne, COp::Lt, COp::Le, COp::Gt, COp::Ge];
                self.stack.pop();
                self.stack.pop();
                self.push(REL[(c / 23 % 6) as usize].clone(), T::Generic);
            }
            19 if n >= 1 => {
                const BITS: &[u64] = &[1, 8, 16, 32, 64, 65, 128];
                let bits = BITS[(c / 23 % BITS.len() as u32) as usize];
                let signed = (c / 161).is_multiple_of(2);
                let enc = if signed {
                    Encoding::Signed
                } else {
                    Encoding::Unsigned
                };
                self.stack.pop();
                self.push(COp::Convert(bits, enc), T::Base(bits, signed));
            }
            20 if n >= 1 => {
                let w = match self.top().expect("n >= 1") {
                    T::Generic => 64,
                    T::Base(b, _) => b,
                };
                let offset = (c / 23) as u64 % w;
                let len = (c / 97) as u64 % (w - offset) + 1;
                self.ops.push(COp::ExtractBits {
                    offset,
                    len,
                    signed: c.is_multiple_of(2),
                });
            }
            _ => self.push(COp::Arg((c / 7) % 4), T::Generic),
        }
    }
}

/// Constants that exercise the boundaries.
fn constant(c: u32) -> u64 {
    const K: &[u64] = &[
        0,
        1,
        2,
        3,
        7,
        8,
        63,
        64,
        255,
        0x1000,
        0x1008,
        u64::MAX,
        1 << 63,
    ];
    K[(c as usize / 5) % K.len()]
}

/// How the expression ends.
#[derive(Clone, Copy, Debug)]
enum End {
    StackValue,
    Memory,
    /// A trailing `DW_OP_deref` (folded for `dbg.value`).
    Deref,
    /// Nothing: memory at the address on top.
    Nothing,
}

/// A well-formed classic `dbg.value` expression over [`CLASSIC_ARGS`] of
/// at most `max` operations (before its ending), with its parameters.
pub fn arb_classic_expr(max: usize) -> impl Strategy<Value = (ClassicExpr, Params)> {
    (
        prop::collection::vec(any::<u32>(), 1..=max),
        0u32..4,
        prop::bool::ANY,
        0u32..6,
    )
        .prop_map(|(choices, end, sign, frag)| {
            let mut b = Builder {
                ops: Vec::new(),
                stack: Vec::new(),
            };
            for c in choices {
                b.step(c);
            }
            let end = [End::StackValue, End::Memory, End::Deref, End::Nothing][end as usize];
            let generic_top = b.top() == Some(T::Generic);
            let value_bits = match b.top() {
                Some(T::Base(bits, _)) => bits,
                _ => 64,
            };
            let mut ops = b.ops;
            // Four operands need `DW_OP_LLVM_arg` (D-classic-implicit-operand).
            if !ops.iter().any(|o| matches!(o, COp::Arg(_))) {
                ops.splice(0..0, [COp::Arg(0), COp::Drop]);
            }
            match end {
                End::StackValue => ops.push(COp::StackValue),
                End::Memory if generic_top => ops.push(COp::Memory),
                End::Deref if generic_top => ops.push(COp::Deref),
                End::Nothing if generic_top => {}
                _ => ops.push(COp::StackValue),
            }
            if frag == 0 && matches!(ops.last(), Some(COp::StackValue)) {
                ops.push(COp::Fragment(8, value_bits.min(32)));
            }
            (
                ClassicExpr::new(ops),
                Params {
                    intrinsic: Intrinsic::Value,
                    high: if sign { High::Sign } else { High::Zero },
                    variable: None,
                },
            )
        })
}

/// A context for [`arb_classic_expr`]: the operands `i8`, `i32`, `ptr`,
/// `i64` in registers, in memory of address space 0, or implicit; the
/// pointer near the 32 bytes of memory at `0x1000` (some undefined), or
/// anywhere. Context-file text.
pub fn arb_classic_context() -> impl Strategy<Value = String> {
    let byte = prop_oneof![15 => any::<u8>().prop_map(|b| format!("{b:02x}")), 1 => Just("??".to_string())];
    let bytes = |n: usize| prop::collection::vec(byte.clone(), n).prop_map(|v| v.join(" "));
    let near = (0u64..0x20).prop_map(|a| a + 0x1000);
    let ptr = prop_oneof![
        4 => near.clone().prop_map(|a| format!("imp(ptr {a})")),
        1 => any::<u64>().prop_map(|a| format!("imp(ptr {a})")),
        2 => Just("reg(2)".to_string()),
    ];
    let i8l = prop_oneof![
        Just("reg(0)".to_string()),
        any::<u8>().prop_map(|v| format!("imp(8, 0x{v:x})")),
    ];
    let i32l = prop_oneof![
        Just("reg(1)".to_string()),
        Just("mem(0, 0x1004)".to_string()),
        any::<u32>().prop_map(|v| format!("imp(32, 0x{v:x})")),
    ];
    let i64l = prop_oneof![
        Just("reg(3)".to_string()),
        Just("mem(0, 0x1008)".to_string()),
        any::<u64>().prop_map(|v| format!("imp(64, 0x{v:x})")),
    ];
    (bytes(4), bytes(4), near, bytes(8), bytes(32), i8l, i32l, ptr, i64l).prop_map(
        |(r0, r1, p, r3, m, a0, a1, a2, a3)| {
            let r2 = p
                .to_le_bytes()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<Vec<_>>()
                .join(" ");
            format!(
                "(context classic\n  (register 0 \"{r0}\")\n  (register 1 \"{r1}\")\n  (register 2 \"{r2}\")\n  \
                 (register 3 \"{r3}\")\n  (memory 0 0x1000 \"{m}\")\n  (arg \"i8\" \"{a0}\")\n  \
                 (arg \"i32\" \"{a1}\")\n  (arg \"ptr\" \"{a2}\")\n  (arg \"i64\" \"{a3}\"))"
            )
        },
    )
}

/// DIOp expressions over the operands of [`CLASSIC_ARGS`] (`i8`, `i32`,
/// `ptr`, `i64`) made of the ops that have a classic form
/// (`dioptra_semantics::classic::reverse`): operands and constants,
/// `DIOpRead`, the integer conversions, the arithmetic other than division,
/// and `DIOpDeref` of the pointer operand. Built forward from the typed
/// stack, so well-formed by construction, at most `max` steps.
pub fn arb_reversible_expr(max: usize) -> impl Strategy<Value = dioptra_semantics::syntax::Expr> {
    use dioptra_semantics::syntax::{Expr, Literal, Op, Spelling};
    use dioptra_semantics::types::Type;
    prop::collection::vec((any::<u32>(), any::<u64>()), 1..=max).prop_map(|steps| {
        let widths = [8u64, 32, 64];
        let int = |b: u64| Type::Int(b);
        let mut ops: Vec<Op> = Vec::new();
        let mut stack: Vec<u64> = Vec::new();
        for (c, v) in steps {
            let n = stack.len();
            let w = widths[(v % 3) as usize];
            match c % 9 {
                0 => {
                    let (k, b) = [(0u32, 8u64), (1, 32), (3, 64)][(v % 3) as usize];
                    ops.push(Op::Arg(k, int(b)));
                    stack.push(b);
                }
                1 => {
                    ops.push(Op::Arg(2, Type::ptr(0)));
                    ops.push(Op::Deref(int(w)));
                    stack.push(w);
                }
                2 => {
                    let lit = (v >> 8) % (1u64 << w.min(63));
                    ops.push(Op::Constant(int(w), Literal::Int(lit.into())));
                    stack.push(w);
                }
                3 if n >= 1 => ops.push(Op::Read),
                4 if n >= 1 && stack[n - 1] < 64 => {
                    let to = widths
                        .iter()
                        .copied()
                        .find(|&x| x > stack[n - 1])
                        .unwrap_or(64);
                    ops.push(if v % 2 == 0 {
                        Op::ZExt(int(to))
                    } else {
                        Op::SExt(int(to))
                    });
                    stack[n - 1] = to;
                }
                5 if n >= 1 && stack[n - 1] > 8 => {
                    let to = widths
                        .iter()
                        .copied()
                        .rev()
                        .find(|&x| x < stack[n - 1])
                        .unwrap_or(8);
                    ops.push(Op::Convert(int(to)));
                    stack[n - 1] = to;
                }
                _ if n >= 2 && stack[n - 1] == stack[n - 2] => {
                    let op = [
                        Op::Add,
                        Op::Sub,
                        Op::Mul,
                        Op::Shl,
                        Op::LShr,
                        Op::AShr,
                        Op::And,
                        Op::Or,
                        Op::Xor,
                    ][(v % 9) as usize]
                        .clone();
                    ops.push(op);
                    stack.pop();
                }
                _ => {
                    ops.push(Op::Arg(1, int(32)));
                    stack.push(32);
                }
            }
        }
        // Reduce to one entry: bring the top to the width of the one
        // under it and add.
        while stack.len() > 1 {
            let n = stack.len();
            let (a, b) = (stack[n - 2], stack[n - 1]);
            if b < a {
                ops.push(Op::ZExt(int(a)));
            } else if b > a {
                ops.push(Op::Convert(int(a)));
            }
            ops.push(Op::Add);
            stack.pop();
        }
        Expr {
            spelling: Spelling::DIExpr,
            ops,
        }
    })
}
