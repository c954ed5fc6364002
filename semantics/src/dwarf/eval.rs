//! A DWARF expression evaluator with the location-description model of the
//! "DWARF Extensions For Heterogeneous Debugging": the stack holds values and
//! location descriptions; a location description is a set of single
//! locations (storage + bit offset) over the storages of [`crate::location`]
//! (memory per address space, registers, implicit values, implicit pointers,
//! undefined, composites). Incomplete composites live on the stack until
//! `DW_OP_LLVM_piece_end` or the end of the expression completes them.
//!
//! Standard DWARF 5 is the special case where locations only appear at the
//! end: a value left on the stack is a memory address in the default address
//! space (DWARF 5, Section 2.6.1.1.2), an empty expression is undefined, and
//! pieces build a composite (Section 2.6.1.2).
//!
//! Where DWARF 5 is silent and dioptra must pick, the choice carries a
//! decision mark with a `D-dwarf-` id and is listed in the README.

use super::op::{
    decode_op, read_op, read_op_into, AmdOp, Arg, DwarfOp, Encoding, OpRef, Which, BINARY_OPS,
};
use super::unit::{ListEntry, Unit};
use crate::bits::Bits;
use crate::context::Context;
use crate::diag::Diag;
use crate::float::FloatOp;
use crate::float::{float_to_int, int_to_float};
use crate::location::{LocDesc, Part, ReadFail, Storage};
use crate::types::Type;
use crate::value::{float_binop, float_value};
use gimli::constants as c;
use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, ToPrimitive, Zero};
use std::sync::atomic::{AtomicU8, Ordering};

/// Operations executed, over all calls, before evaluation gives up.
pub const MAX_DWARF_STEPS: u64 = 1 << 20;
/// Nested `DW_OP_call*`, `DW_OP_entry_value` and implicit-pointer targets.
pub const MAX_DWARF_CALL_DEPTH: u32 = 64;
/// Stack entries.
pub const MAX_DWARF_STACK: usize = 1 << 16;

/// What a DWARF expression is evaluated against.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// Registers, memory, the lane, and the object (`DW_OP_push_object_address`
    /// pushes the context's type object).
    pub ctx: &'a dyn Context,
    pub unit: &'a Unit,
    pub enc: Encoding,
    /// The machine state on entry to the subprogram, for `DW_OP_entry_value`
    /// and `DW_OP_LLVM_call_frame_entry_reg`.
    pub entry: Option<&'a dyn Context>,
    /// The program counter, for location lists (the unit's list DIEs that
    /// `DW_OP_call*` reaches, and [`evaluate_list`]).
    pub pc: Option<u64>,
    /// What the program around the expression supplies: the frame base, the
    /// canonical frame address and the unit's address table.
    pub frame: Frame<'a>,
}

/// What an expression taken from a program may ask of the program itself
/// (DWARF 5 Section 2.5.1): each is `None` where the caller cannot tell,
/// and the operation that needs it is then `unsupported`.
#[derive(Clone, Copy, Default)]
pub struct Frame<'a> {
    /// The address `DW_OP_fbreg` offsets from: the current function's
    /// `DW_AT_frame_base`, already evaluated.
    pub frame_base: Option<u64>,
    /// The canonical frame address `DW_OP_call_frame_cfa` pushes (from the
    /// call frame information at the pc).
    pub cfa: Option<u64>,
    /// Entry `i` of the unit's `.debug_addr` contribution, for
    /// `DW_OP_addrx` and `DW_OP_constx`.
    pub address: Option<&'a dyn Fn(u64) -> Option<u64>>,
}

impl<'a> Env<'a> {
    /// The usual environment: `ctx` (with its entry state, if any) and
    /// `unit`, the default encoding, no pc.
    pub fn new(ctx: &'a dyn Context, unit: &'a Unit) -> Env<'a> {
        Env {
            ctx,
            unit,
            enc: Encoding::default(),
            entry: ctx.entry(),
            pc: None,
            frame: Frame::default(),
        }
    }
}

/// The type of a value: the generic type or a base type DIE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValTy {
    /// The base type's DIE offset; 0 for the generic type.
    pub die: u64,
    pub num: Num,
    /// Size in bits.
    pub bits: u64,
}

/// How a value's bits are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    /// The generic type: address-sized, integral, of unspecified signedness.
    Generic,
    Signed,
    Unsigned,
    /// A floating-point base type.
    Float(FloatFormat),
}

/// The floating-point formats a base type can have (kept apart from
/// [`Type`] so that a value's type is `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatFormat {
    Half,
    BFloat,
    Float,
    Double,
    /// x87 extended precision (`x86_fp80`).
    X87,
    /// IEEE binary128 (`fp128`).
    Quad,
}

impl FloatFormat {
    /// The LLVM type with this format.
    pub fn ty(self) -> Type {
        match self {
            FloatFormat::Half => Type::Half,
            FloatFormat::BFloat => Type::BFloat,
            FloatFormat::Float => Type::Float,
            FloatFormat::Double => Type::Double,
            FloatFormat::X87 => Type::X86Fp80,
            FloatFormat::Quad => Type::Fp128,
        }
    }
}

/// A typed value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub ty: ValTy,
    pub bits: Bits,
}

/// A stack entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Value(Value),
    Loc(LocDesc),
    /// An incomplete composite: its parts so far.
    Incomplete(Vec<Part>),
}

/// Evaluates a location expression: the location description it gives.
pub fn evaluate(ops: &[DwarfOp], env: Env) -> Result<LocDesc, Diag> {
    let mut m = Machine {
        env,
        stack: Vec::with_capacity(8),
        steps: 0,
        last: false,
        depth: 0,
    };
    m.run(ops)?;
    m.result()
}

/// Evaluates the encoded expression `bytes`: the same result as [`decode`]
/// followed by [`evaluate`], but each operation is read from the bytes when
/// it runs (as gimli evaluates), so no list of operations is built.
///
/// Decoding errors come first, as they do for [`decode`]: the bytes the run
/// did not reach (after an evaluation error, or skipped by a branch) are
/// checked before an evaluation error is reported, and a nested expression
/// is checked before it runs.
///
/// [`decode`]: super::op::decode
pub fn evaluate_bytes(bytes: &[u8], env: Env) -> Result<LocDesc, Diag> {
    let mut code = Encoded {
        bytes,
        checked: 0,
        starts: Vec::new(),
    };
    let mut m = Machine {
        env,
        stack: Vec::with_capacity(8),
        steps: 0,
        last: false,
        depth: 0,
    };
    let run = m.run_code(&mut code);
    code.check_rest(env.enc)?;
    run?;
    m.result()
}

/// Where the machine fetches operations from: a decoded list or the bytes.
trait Code<'c> {
    /// Reads the operation at `pc` into `out`: the `pc` of the next one, or
    /// `None` past the end.
    fn fetch(
        &mut self,
        pc: usize,
        enc: Encoding,
        out: &mut OpRef<'c>,
    ) -> Result<Option<usize>, Diag>;
    /// The `pc` that a branch by `off` bytes from the operation before `next`
    /// reaches; `None` if that is not the start of an operation or the end.
    fn branch(&mut self, next: usize, off: i64, enc: Encoding) -> Result<Option<usize>, Diag>;
    /// `pc` is past the last operation.
    fn ends_at(&self, pc: usize) -> bool;
}

/// Decoded operations; `pc` is an index.
struct Decoded<'c> {
    ops: &'c [DwarfOp],
    /// The byte position of every operation and of the end: computed at the
    /// first taken branch (most expressions have none).
    pos: Vec<i64>,
}

impl<'c> Code<'c> for Decoded<'c> {
    fn fetch(
        &mut self,
        pc: usize,
        _: Encoding,
        out: &mut OpRef<'c>,
    ) -> Result<Option<usize>, Diag> {
        Ok(self.ops.get(pc).map(|op| {
            *out = op.view();
            pc + 1
        }))
    }
    fn ends_at(&self, pc: usize) -> bool {
        pc >= self.ops.len()
    }
    fn branch(&mut self, next: usize, off: i64, enc: Encoding) -> Result<Option<usize>, Diag> {
        if self.pos.is_empty() {
            self.pos.reserve(self.ops.len() + 1);
            let mut at = 0i64;
            for op in self.ops {
                self.pos.push(at);
                at += super::op::encode(std::slice::from_ref(op), enc)
                    .map(|b| b.len() as i64)
                    .unwrap_or(1);
            }
            self.pos.push(at);
        }
        Ok(self.pos[next]
            .checked_add(off)
            .and_then(|target| self.pos.binary_search(&target).ok()))
    }
}

/// Encoded operations; `pc` is a byte position.
struct Encoded<'c> {
    bytes: &'c [u8],
    /// The bytes before this position are known to decode.
    checked: usize,
    /// The byte position of every operation and of the end: computed at the
    /// first taken branch.
    starts: Vec<usize>,
}

impl<'c> Encoded<'c> {
    /// Reads the operation at `at` into `out`, decoding a nested expression
    /// to check it.
    fn check_op(&self, at: usize, enc: Encoding, out: &mut OpRef<'c>) -> Result<usize, Diag> {
        let next = read_op_into(self.bytes, at, enc, out)?;
        if out.args.iter().any(|a| matches!(a, Arg::Bytes(_))) {
            decode_op(self.bytes, at, enc, 0)?;
        }
        Ok(next)
    }
    /// Checks that the rest of the bytes decode: the first error, as
    /// [`decode`](super::op::decode) reports it.
    fn check_rest(&mut self, enc: Encoding) -> Result<(), Diag> {
        let mut op = OpRef::EMPTY;
        while self.checked < self.bytes.len() {
            self.checked = self.check_op(self.checked, enc, &mut op)?;
        }
        Ok(())
    }
}

impl<'c> Code<'c> for Encoded<'c> {
    fn fetch(
        &mut self,
        pc: usize,
        enc: Encoding,
        out: &mut OpRef<'c>,
    ) -> Result<Option<usize>, Diag> {
        if pc >= self.bytes.len() {
            return Ok(None);
        }
        if pc < self.checked {
            return read_op_into(self.bytes, pc, enc, out).map(Some);
        }
        // Runs go forward one operation at a time until a branch, which
        // checks everything, so `pc` is where checking stopped.
        self.checked = self.check_op(pc, enc, out)?;
        Ok(Some(self.checked))
    }
    fn ends_at(&self, pc: usize) -> bool {
        pc >= self.bytes.len()
    }
    fn branch(&mut self, next: usize, off: i64, enc: Encoding) -> Result<Option<usize>, Diag> {
        if self.starts.is_empty() {
            self.check_rest(enc)?;
            let mut at = 0;
            while at < self.bytes.len() {
                self.starts.push(at);
                at = read_op(self.bytes, at, enc)?.1;
            }
            self.starts.push(at);
        }
        Ok(i64::try_from(next)
            .ok()
            .and_then(|n| n.checked_add(off))
            .and_then(|t| usize::try_from(t).ok())
            .filter(|t| self.starts.binary_search(t).is_ok()))
    }
}

/// Evaluates a location list at `env.pc` (DWARF 5 Section 2.6.2, with the
/// extensions' reading of overlapping entries): the union of the locations
/// of every bounded entry whose range holds the pc; where none does, the
/// default entry's; with neither, the undefined location.
pub fn evaluate_list(entries: &[ListEntry], env: Env) -> Result<LocDesc, Diag> {
    let mut m = Machine {
        env,
        stack: Vec::new(),
        steps: 0,
        last: false,
        depth: 0,
    };
    m.list("DW_AT_location", entries)
}

/// The evaluator of one section of DWARF 5's operations.
type Section<'m> = for<'b> fn(&mut Machine<'m>, &str, c::DwOp, &OpRef<'b>) -> Result<Step, Diag>;

/// What a section's function did with a standard operation.
enum Step {
    /// Evaluated it; go on with the next operation.
    Next,
    /// Evaluated a taken branch by this many bytes.
    Branch(i64),
    /// Not an operation of this section. Which section an operation is of
    /// depends on its opcode alone (every section answers this in the
    /// catch-all arm of a `match` on the opcode, before doing anything), so
    /// `std_op` remembers it per opcode.
    NotMine,
}

/// Per opcode, which of `std_op`'s sections evaluates it, as its index plus
/// one; 0 until an operation with that opcode was first evaluated, and
/// [`NO_SECTION`] when none does. Shared by every evaluation: the answer is
/// a fact about DWARF, not about an expression.
static SECTION_OF: [AtomicU8; 256] = [const { AtomicU8::new(0) }; 256];
const NO_SECTION: u8 = u8::MAX;

struct Machine<'a> {
    env: Env<'a>,
    stack: Vec<Entry>,
    steps: u64,
    depth: u32,
    /// The operation being evaluated is its expression's last.
    last: bool,
}

fn err(op: &str, reason: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
    Diag::eval(op, reason, msg)
}

fn uleb(op: &OpRef, i: usize) -> u64 {
    match op.args[i] {
        Arg::Int(v) => v,
        _ => 0,
    }
}

fn sleb(op: &OpRef, i: usize) -> i64 {
    uleb(op, i) as i64
}

fn block<'o>(op: &OpRef<'o>, i: usize) -> &'o [u8] {
    match op.args[i] {
        Arg::Block(b) => b,
        _ => &[],
    }
}

impl<'a> Machine<'a> {
    fn generic_bits(&self) -> u64 {
        8 * self.env.enc.address_size as u64
    }
    fn generic(&self) -> ValTy {
        ValTy {
            die: 0,
            num: Num::Generic,
            bits: self.generic_bits(),
        }
    }
    fn push_generic(&mut self, v: &BigInt) {
        let g = self.generic();
        let w = g.bits;
        self.stack.push(Entry::Value(Value {
            ty: g,
            bits: Bits::from_bigint(w, v),
        }));
    }
    /// A generic value from its low 64 bits (two's complement, truncated to
    /// the address size), without a big-integer detour.
    fn push_generic_u64(&mut self, v: u64) {
        let g = self.generic();
        let w = g.bits;
        self.stack.push(Entry::Value(Value {
            ty: g,
            bits: Bits::from_u64(w, v),
        }));
    }
    fn push(&mut self, op: &str, e: Entry) -> Result<(), Diag> {
        if self.stack.len() >= MAX_DWARF_STACK {
            return Err(Diag::unsupported(
                op,
                "limit-exceeded",
                format!("more than {MAX_DWARF_STACK} stack entries"),
            ));
        }
        self.stack.push(e);
        Ok(())
    }
    fn pop(&mut self, op: &str) -> Result<Entry, Diag> {
        self.stack
            .pop()
            .ok_or_else(|| err(op, "stack-underflow", "the stack is empty"))
    }

    /// The base type at `die` (0: the generic type).
    fn base(&self, op: &str, die: u64) -> Result<ValTy, Diag> {
        base_type(self.env.unit, self.env.enc, op, die)
    }

    fn pop_value(&mut self, op: &str) -> Result<Value, Diag> {
        match self.pop(op)? {
            Entry::Value(v) => Ok(v),
            // DECISION (D-dwarf-value-required): a location description where
            // an operation needs a value is an error (`value-required`); the
            // extensions convert only values to locations, never back.
            _ => Err(err(
                op,
                "value-required",
                "the entry is a location description, not a value",
            )),
        }
    }

    /// A value as a location: DWARF 5, Section 2.6.1.1.2: a generic value is
    /// the address of a memory location in the default address space.
    fn as_location(&self, op: &str, e: Entry) -> Result<LocDesc, Diag> {
        match e {
            Entry::Loc(l) => Ok(l),
            Entry::Value(v) if v.ty.num == Num::Generic => Ok(LocDesc::single(
                Storage::Memory { addrspace: 0 },
                v.bits.unsigned().to_u128().unwrap_or(0).saturating_mul(8),
            )),
            Entry::Value(_) => Err(err(
                op,
                "typed-value-as-location",
                "a typed value is not a memory address (use DW_OP_stack_value)",
            )),
            Entry::Incomplete(parts) => complete(op, parts),
        }
    }
    fn pop_location(&mut self, op: &str) -> Result<LocDesc, Diag> {
        let e = self.pop(op)?;
        self.as_location(op, e)
    }

    fn result(mut self) -> Result<LocDesc, Diag> {
        match self.stack.pop() {
            None => Ok(LocDesc::undefined()),
            Some(e) => self.as_location("DWARF", e),
        }
    }

    fn read(&self, op: &str, loc: &LocDesc, bits: u64) -> Result<Bits, Diag> {
        crate::location::read(self.env.ctx, loc, bits).map_err(|f: ReadFail| f.at(op))
    }

    fn run(&mut self, ops: &[DwarfOp]) -> Result<(), Diag> {
        self.run_code(&mut Decoded {
            ops,
            pos: Vec::new(),
        })
    }

    /// Runs operations fetched from `code` until it has none left.
    fn run_code<'c, C: Code<'c>>(&mut self, code: &mut C) -> Result<(), Diag> {
        let mut pc = 0;
        let mut op = OpRef::EMPTY;
        while let Some(next) = code.fetch(pc, self.env.enc, &mut op)? {
            self.steps += 1;
            if self.steps > MAX_DWARF_STEPS {
                return Err(Diag::unsupported(
                    "DWARF",
                    "limit-exceeded",
                    format!("more than {MAX_DWARF_STEPS} operations executed"),
                ));
            }
            let name = op.static_name();
            self.last = code.ends_at(next);
            let jump = match op.which {
                Which::Std(code) => self.std_op(name, c::DwOp(code), &op)?,
                Which::Amd(a) => {
                    self.amd_op(name, a, &op)?;
                    None
                }
            };
            pc = match jump {
                None => next,
                Some(off) => code.branch(next, off, self.env.enc)?.ok_or_else(|| {
                    err(
                        name,
                        "bad-branch",
                        format!("branch by {off} bytes, not to the start of an operation"),
                    )
                })?,
            };
        }
        Ok(())
    }

    /// A standard operation; `Some(offset)` for a taken branch. One
    /// function per section of DWARF 5, asked in the standard's order; an
    /// opcode none of them evaluates is `unsupported`.
    fn std_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Option<i64>, Diag> {
        let sections: [Section<'_>; 9] = [
            Self::literal_op,
            Self::register_value_op,
            Self::stack_op,
            Self::arithmetic_op,
            Self::control_flow_op,
            Self::special_op,
            Self::conversion_op,
            Self::location_op,
            Self::composite_op,
        ];
        let known = &SECTION_OF[usize::from(code.0)];
        // The sections before the one that evaluates the opcode answer
        // `NotMine` without looking further, so asking only that one gives
        // what asking them in order gives.
        let was = known.load(Ordering::Relaxed);
        let first = match was {
            0 => 0,
            NO_SECTION => sections.len(),
            k => usize::from(k - 1),
        };
        // Written once per opcode, not per operation: the threads of a
        // campaign share the table and would otherwise keep taking its
        // cache line from each other.
        let remember = |k: u8| {
            if was != k {
                known.store(k, Ordering::Relaxed);
            }
        };
        for (k, section) in sections.iter().enumerate().skip(first) {
            match section(self, name, code, op)? {
                Step::NotMine => continue,
                Step::Next => {
                    remember(k as u8 + 1);
                    return Ok(None);
                }
                Step::Branch(offset) => {
                    remember(k as u8 + 1);
                    return Ok(Some(offset));
                }
            }
        }
        remember(NO_SECTION);
        Err(Diag::unsupported(
            name,
            "opcode",
            format!("{name} is not evaluated by dioptra"),
        ))
    }

    /// DWARF 5 Section 2.5.1.1, literal encodings.
    fn literal_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            _ if (c::DW_OP_lit0.0..=c::DW_OP_lit31.0).contains(&code.0) => {
                self.push_generic_u64((code.0 - c::DW_OP_lit0.0) as u64)
            }
            c::DW_OP_addr
            | c::DW_OP_const1u
            | c::DW_OP_const2u
            | c::DW_OP_const4u
            | c::DW_OP_const8u
            | c::DW_OP_constu => self.push_generic_u64(uleb(op, 0)),
            c::DW_OP_const1s
            | c::DW_OP_const2s
            | c::DW_OP_const4s
            | c::DW_OP_const8s
            | c::DW_OP_consts => self.push_generic_u64(sleb(op, 0) as u64),
            // "a zero-based index into the .debug_addr section", relative
            // to the unit's DW_AT_addr_base.
            c::DW_OP_addrx | c::DW_OP_constx => {
                let i = uleb(op, 0);
                let lookup = self.env.frame.address.ok_or_else(|| {
                    Diag::unsupported(
                        name,
                        "no-address-table",
                        "the unit's address table (.debug_addr) is not known here",
                    )
                })?;
                let a = lookup(i).ok_or_else(|| {
                    err(
                        name,
                        "bad-address-index",
                        format!("index {i} is past the unit's address table"),
                    )
                })?;
                self.push_generic_u64(a)
            }
            c::DW_OP_const_type | c::DW_OP_GNU_const_type => {
                let ty = self.base(name, uleb(op, 0))?;
                let b = block(op, 1);
                if b.len() as u64 * 8 != ty.bits {
                    return Err(err(
                        name,
                        "size-mismatch",
                        format!("{} bytes for a {}-bit base type", b.len(), ty.bits),
                    ));
                }
                let bits = Bits::from_le_bytes(ty.bits, b);
                self.push(name, Entry::Value(Value { ty, bits }))?;
            }
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    /// DWARF 5 Section 2.5.1.2, register values.
    fn register_value_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            _ if (c::DW_OP_breg0.0..=c::DW_OP_breg31.0).contains(&code.0) => {
                self.breg(name, (code.0 - c::DW_OP_breg0.0) as u32, sleb(op, 0))?
            }
            c::DW_OP_bregx => self.breg(name, uleb(op, 0) as u32, sleb(op, 1))?,
            c::DW_OP_regval_type | c::DW_OP_GNU_regval_type => {
                let ty = self.base(name, uleb(op, 1))?;
                let bits = self.register_low(name, self.env.ctx, uleb(op, 0) as u32, ty.bits)?;
                self.push(name, Entry::Value(Value { ty, bits }))?;
            }
            // "provides a signed LEB128 offset from the address specified by
            // the location description in the DW_AT_frame_base attribute of
            // the current function": a generic value, as `DW_OP_bregN` gives.
            c::DW_OP_fbreg => {
                let base = self.env.frame.frame_base.ok_or_else(|| {
                    Diag::unsupported(
                        name,
                        "no-frame-base",
                        "the frame base is not known here (evaluate the variable in its function: `dioptra dwarf --at PC`)",
                    )
                })?;
                self.push_generic(&(BigInt::from(base) + sleb(op, 0)))
            }
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    /// DWARF 5 Section 2.5.1.3, stack operations (and the memory reads among them).
    fn stack_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            c::DW_OP_dup => {
                let e = self.peek(name, 0)?;
                self.push(name, e)?;
            }
            c::DW_OP_drop => {
                self.pop(name)?;
            }
            c::DW_OP_pick => {
                let e = self.peek(name, uleb(op, 0) as usize)?;
                self.push(name, e)?;
            }
            c::DW_OP_over => {
                let e = self.peek(name, 1)?;
                self.push(name, e)?;
            }
            c::DW_OP_swap => {
                let a = self.pop(name)?;
                let b = self.pop(name)?;
                self.stack.push(a);
                self.stack.push(b);
            }
            c::DW_OP_rot => {
                let a = self.pop(name)?;
                let b = self.pop(name)?;
                let cc = self.pop(name)?;
                self.stack.push(a);
                self.stack.push(cc);
                self.stack.push(b);
            }
            c::DW_OP_deref => self.deref(name, self.env.enc.address_size as u64, 0)?,
            c::DW_OP_deref_size => {
                let n = uleb(op, 0);
                if n > self.env.enc.address_size as u64 {
                    return Err(err(
                        name,
                        "size-too-large",
                        format!("{n} bytes is more than the address size"),
                    ));
                }
                self.deref(name, n, 0)?
            }
            c::DW_OP_deref_type | c::DW_OP_GNU_deref_type => {
                self.deref(name, uleb(op, 0), uleb(op, 1))?
            }
            c::DW_OP_xderef | c::DW_OP_xderef_size | c::DW_OP_xderef_type => {
                let (n, die) = match code {
                    c::DW_OP_xderef => (self.env.enc.address_size as u64, 0),
                    c::DW_OP_xderef_size => (uleb(op, 0), 0),
                    _ => (uleb(op, 0), uleb(op, 1)),
                };
                let addr = self.pop_value(name)?;
                let space = self.pop_value(name)?;
                let a = address_space(name, &space, self.env.ctx.layout())?;
                let loc = LocDesc::single(
                    Storage::Memory { addrspace: a },
                    addr.bits
                        .unsigned()
                        .to_u128()
                        .unwrap_or(0)
                        .saturating_mul(8),
                );
                self.push(name, Entry::Loc(loc))?;
                self.deref(name, n, die)?
            }
            // DECISION (D-dwarf-object-address): `DW_OP_push_object_address`
            // pushes the object's address, a generic value, when the object
            // is one memory location in address space 0 at a whole byte
            // whose address fits a generic value (DWARF 5, Section 2.5.1.3);
            // otherwise its location description (the extensions' reading,
            // for objects outside memory). A generic value converts to that
            // same memory location wherever a location is needed, so the two
            // readings agree on every expression the extensions' reading
            // evaluates; DWARF 5's also lets the address be used as a value
            // (`DW_OP_plus_uconst`, `DW_OP_deref_size` then `DW_OP_plus`), as
            // plain DWARF 5 producers and consumers (gimli, gdb) do.
            c::DW_OP_push_object_address => {
                let o = self.env.ctx.type_object().ok_or_else(|| {
                    err(name, "no-object", "the context has no object (type-object)")
                })?;
                let address = match o.loc.singles() {
                    [s] if matches!(*s.storage, Storage::Memory { addrspace: 0 })
                        && s.offset % 8 == 0
                        && (s.offset / 8) >> self.generic_bits() == 0 =>
                    {
                        Some((s.offset / 8) as u64)
                    }
                    _ => None,
                };
                match address {
                    Some(a) => self.push_generic_u64(a),
                    None => self.push(name, Entry::Loc(o.loc.clone()))?,
                }
            }
            // "pushes the value of the CFA, obtained from the Call Frame
            // Information".
            c::DW_OP_call_frame_cfa => {
                let cfa = self.env.frame.cfa.ok_or_else(|| {
                    Diag::unsupported(
                        name,
                        "no-frame-state",
                        "the canonical frame address is not known here (it comes from the call frame information at a pc: `dioptra dwarf --at PC`)",
                    )
                })?;
                self.push_generic_u64(cfa)
            }
            c::DW_OP_form_tls_address => {
                return Err(Diag::unsupported(
                    name,
                    "no-frame-state",
                    "contexts have no thread-local storage",
                ))
            }
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    /// DWARF 5 Section 2.5.1.4, arithmetic and logical operations (and 2.5.1.5's relational ones).
    fn arithmetic_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            c::DW_OP_abs | c::DW_OP_neg | c::DW_OP_not => self.unary(name, code)?,
            c::DW_OP_plus_uconst => {
                let v = self.pop_value(name)?;
                let k = Value {
                    ty: v.ty,
                    bits: Bits::from_u64(v.ty.bits, uleb(op, 0)),
                };
                if !matches!(v.ty.num, Num::Generic | Num::Signed | Num::Unsigned) {
                    return Err(err(name, "integral-required", "plus_uconst of a float"));
                }
                let r = self.binary(name, c::DW_OP_plus, v, k)?;
                self.push(name, r)?;
            }
            d if BINARY_OPS.contains(&d) => {
                let top = self.pop_value(name)?;
                let second = self.pop_value(name)?;
                let r = self.binary(name, code, second, top)?;
                self.push(name, r)?;
            }
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    /// DWARF 5 Section 2.5.1.5, control flow.
    fn control_flow_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            c::DW_OP_skip => return Ok(Step::Branch(sleb(op, 0))),
            c::DW_OP_bra => {
                let v = self.pop_value(name)?;
                if !v.bits.is_zero() {
                    return Ok(Step::Branch(sleb(op, 0)));
                }
            }
            c::DW_OP_call2 | c::DW_OP_call4 | c::DW_OP_call_ref => {
                let die = uleb(op, 0);
                if let Some(d) = self.env.unit.lists.get(&die) {
                    // The extensions' call of a DIE whose location is a
                    // list: the list evaluated at the current pc, pushed
                    // as a location description.
                    self.enter(name)?;
                    let loc = self.list(name, &d.entries)?;
                    self.depth -= 1;
                    return self.push(name, Entry::Loc(loc)).map(|()| Step::Next);
                }
                let ops = self
                    .env
                    .unit
                    .dies
                    .get(&die)
                    .map(|d| d.1.clone())
                    .ok_or_else(|| {
                        err(
                            name,
                            "unknown-die",
                            format!("no DIE with a location at 0x{die:x}"),
                        )
                    })?;
                self.enter(name)?;
                self.run(&ops)?;
                self.depth -= 1;
            }
            c::DW_OP_nop => {}
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    /// DWARF 5 Section 2.5.1.7, special operations (entry values).
    fn special_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            c::DW_OP_entry_value | c::DW_OP_GNU_entry_value => self.entry_value(name, op)?,
            c::DW_OP_GNU_uninit => self.gnu_uninit(name)?,
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    /// `DW_OP_GNU_uninit` (0xf0, a GNU extension gcc writes after a
    /// register location or an implicit value): gdb's evaluator takes it
    /// only as "the very last op" and then marks the object's value
    /// uninitialized, the location unchanged.
    ///
    /// DECISION (D-dwarf-gnu-uninit): the same here: the last operation
    /// leaves the location as it is (dioptra's locations carry no
    /// initialized mark; `dioptra dwarf --at` says it beside the value),
    /// anywhere else `not-last`. Like a piece it may follow a location
    /// that must otherwise stand alone (DWARF 5), as gdb allows.
    fn gnu_uninit(&mut self, name: &str) -> Result<(), Diag> {
        if self.last {
            return Ok(());
        }
        Err(err(
            name,
            "not-last",
            "it marks the value uninitialized and must be the expression's last operation (gdb's rule)",
        ))
    }

    /// DWARF 5 Section 2.5.1.6, type conversions.
    fn conversion_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            c::DW_OP_convert | c::DW_OP_GNU_convert => {
                let v = self.pop_value(name)?;
                let to = self.base(name, uleb(op, 0))?;
                let r = convert(name, v, to)?;
                self.push(name, Entry::Value(r))?;
            }
            c::DW_OP_reinterpret | c::DW_OP_GNU_reinterpret => {
                let v = self.pop_value(name)?;
                let to = self.base(name, uleb(op, 0))?;
                if to.bits != v.ty.bits {
                    return Err(err(
                        name,
                        "size-mismatch",
                        format!("reinterpreting {} bits as {} bits", v.ty.bits, to.bits),
                    ));
                }
                self.push(
                    name,
                    Entry::Value(Value {
                        ty: to,
                        bits: v.bits,
                    }),
                )?;
            }
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    /// DWARF 5 Section 2.6.1.1, single location descriptions.
    fn location_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            _ if (c::DW_OP_reg0.0..=c::DW_OP_reg31.0).contains(&code.0) => {
                let n = (code.0 - c::DW_OP_reg0.0) as u32;
                self.push(
                    name,
                    Entry::Loc(LocDesc::single(Storage::Register { number: n }, 0)),
                )?
            }
            c::DW_OP_regx => {
                let n = uleb(op, 0) as u32;
                self.push(
                    name,
                    Entry::Loc(LocDesc::single(Storage::Register { number: n }, 0)),
                )?
            }
            c::DW_OP_implicit_value => {
                let b = block(op, 0);
                let v = Bits::from_le_bytes(b.len() as u64 * 8, b);
                self.push(name, Entry::Loc(LocDesc::implicit(v)))?
            }
            c::DW_OP_stack_value => {
                let v = self.pop_value(name)?;
                self.push(name, Entry::Loc(LocDesc::implicit(v.bits)))?
            }
            c::DW_OP_implicit_pointer => self.implicit_pointer(name, uleb(op, 0), sleb(op, 1))?,
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    /// DWARF 5 Section 2.6.1.2, composite location descriptions.
    fn composite_op(&mut self, name: &str, code: c::DwOp, op: &OpRef) -> Result<Step, Diag> {
        match code {
            c::DW_OP_piece => self.piece(name, uleb(op, 0).saturating_mul(8), 0)?,
            c::DW_OP_bit_piece => self.piece(name, uleb(op, 0), uleb(op, 1))?,
            _ => return Ok(Step::NotMine),
        }
        Ok(Step::Next)
    }

    fn amd_op(&mut self, name: &str, a: AmdOp, op: &OpRef) -> Result<(), Diag> {
        match a {
            AmdOp::Nop => {}
            AmdOp::FormAspaceAddress => {
                let space = self.pop_value(name)?;
                let addr = self.pop_value(name)?;
                let s = address_space(name, &space, self.env.ctx.layout())?;
                let off = addr
                    .bits
                    .unsigned()
                    .to_u128()
                    .unwrap_or(0)
                    .saturating_mul(8);
                self.push(
                    name,
                    Entry::Loc(LocDesc::single(Storage::Memory { addrspace: s }, off)),
                )?;
            }
            AmdOp::PushLane => {
                let lane = self.env.ctx.lane().ok_or_else(|| {
                    err(
                        name,
                        "no-lane",
                        "the context has no lane (not a SIMT context)",
                    )
                })?;
                self.push_generic(&BigInt::from(lane));
            }
            AmdOp::Offset | AmdOp::BitOffset => {
                let d = self.pop_value(name)?;
                let delta = signed_value(&d);
                let delta = if a == AmdOp::Offset { delta * 8 } else { delta };
                self.offset(name, delta)?;
            }
            AmdOp::OffsetUconst => self.offset(name, BigInt::from(uleb(op, 0)) * 8)?,
            AmdOp::CallFrameEntryReg => {
                let entry = self.entry_ctx(name)?;
                let n = uleb(op, 0) as u32;
                let bits = entry.register_bits(n).ok_or_else(|| {
                    Diag::unsupported(
                        name,
                        "register-not-supplied",
                        format!("the entry state does not declare register {n}"),
                    )
                })?;
                let v = entry.read_register(n, 0, bits).map_err(|f| f.at(name))?;
                // The location holding a register's value on entry is an
                // implicit location with that value (contexts have no call
                // frame information to say where it was saved).
                self.push(name, Entry::Loc(LocDesc::implicit(v)))?;
            }
            AmdOp::Undefined => self.push(name, Entry::Loc(LocDesc::undefined()))?,
            AmdOp::AspaceBregx => {
                let space = self.pop_value(name)?;
                let s = address_space(name, &space, self.env.ctx.layout())?;
                let n = uleb(op, 0) as u32;
                let g = self.generic_bits();
                let r = self.register_low(name, self.env.ctx, n, g)?;
                let addr = Bits::from_bigint(g, &(r.unsigned_int() + sleb(op, 1)));
                let off = addr.unsigned().to_u128().unwrap_or(0).saturating_mul(8);
                self.push(
                    name,
                    Entry::Loc(LocDesc::single(Storage::Memory { addrspace: s }, off)),
                )?;
            }
            AmdOp::AspaceImplicitPointer => {
                return Err(Diag::unsupported(
                    name,
                    "no-encoding",
                    "DW_OP_LLVM_aspace_implicit_pointer has no assigned encoding yet",
                ))
            }
            AmdOp::PieceEnd => match self.pop(name)? {
                Entry::Incomplete(parts) => {
                    let l = complete(name, parts)?;
                    self.push(name, Entry::Loc(l))?;
                }
                _ => {
                    return Err(err(
                        name,
                        "no-incomplete-composite",
                        "the top of the stack is not an incomplete composite",
                    ))
                }
            },
            AmdOp::Extend => {
                let (size, count) = (uleb(op, 0), uleb(op, 1));
                let l = self.pop_location(name)?;
                self.charge(name, count)?;
                let parts = (0..count)
                    .map(|_| Part {
                        bits: size,
                        loc: l.clone(),
                    })
                    .collect();
                let l = complete(name, parts)?;
                self.push(name, Entry::Loc(l))?;
            }
            AmdOp::SelectBitPiece => {
                let (size, count) = (uleb(op, 0), uleb(op, 1));
                let mask = self.pop_value(name)?;
                let l1 = self.pop_location(name)?;
                let l0 = self.pop_location(name)?;
                self.charge(name, count)?;
                let mut parts = Vec::new();
                for i in 0..count {
                    let from = if mask.bits.bit(i) { &l1 } else { &l0 };
                    let loc = from
                        .offset_by(self.env.ctx, &BigInt::from(i.saturating_mul(size)))
                        .map_err(|f| f.at(name))?;
                    parts.push(Part { bits: size, loc });
                }
                let l = complete(name, parts)?;
                self.push(name, Entry::Loc(l))?;
            }
        }
        Ok(())
    }

    fn charge(&mut self, name: &str, n: u64) -> Result<(), Diag> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > MAX_DWARF_STEPS {
            return Err(Diag::unsupported(
                name,
                "limit-exceeded",
                format!("more than {MAX_DWARF_STEPS} units of work"),
            ));
        }
        Ok(())
    }

    fn enter(&mut self, name: &str) -> Result<(), Diag> {
        self.depth += 1;
        if self.depth > MAX_DWARF_CALL_DEPTH {
            return Err(Diag::unsupported(
                name,
                "limit-exceeded",
                format!("calls nested deeper than {MAX_DWARF_CALL_DEPTH}"),
            ));
        }
        Ok(())
    }

    fn peek(&self, name: &str, k: usize) -> Result<Entry, Diag> {
        let n = self.stack.len();
        if k >= n {
            return Err(err(
                name,
                "stack-underflow",
                format!("entry {k} of a stack of {n}"),
            ));
        }
        Ok(self.stack[n - 1 - k].clone())
    }

    fn entry_ctx(&self, name: &str) -> Result<&'a dyn Context, Diag> {
        self.env.entry.ok_or_else(|| {
            Diag::unsupported(
                name,
                "no-entry-state",
                "the context has no entry state (add an (entry ...) clause)",
            )
        })
    }

    /// The low `bits` bits of register `n` (zero-extended when the register
    /// is narrower).
    fn register_low(&self, name: &str, ctx: &dyn Context, n: u32, bits: u64) -> Result<Bits, Diag> {
        let size = ctx.register_bits(n).ok_or_else(|| {
            Diag::unsupported(
                name,
                "register-not-supplied",
                format!("the context does not declare register {n}"),
            )
        })?;
        let v = ctx
            .read_register(n, 0, size.min(bits))
            .map_err(|f| f.at(name))?;
        Ok(v.zext(bits))
    }

    /// `DW_OP_breg*`: "the contents of the register plus the offset" as a
    /// generic value (the register's low address-size bytes).
    fn breg(&mut self, name: &str, n: u32, off: i64) -> Result<(), Diag> {
        let g = self.generic_bits();
        let r = self.register_low(name, self.env.ctx, n, g)?;
        self.push_generic(&(r.unsigned_int() + off));
        Ok(())
    }

    /// `DW_OP_deref*`: pops a location (or an address) and pushes `n` bytes
    /// read from it, as the base type `die` (0: generic, zero-extended).
    fn deref(&mut self, name: &str, n: u64, die: u64) -> Result<(), Diag> {
        let ty = self.base(name, die)?;
        if die != 0 && ty.bits != n * 8 {
            return Err(err(
                name,
                "size-mismatch",
                format!("{n} bytes for a {}-bit base type", ty.bits),
            ));
        }
        let loc = self.pop_location(name)?;
        let v = self.read(name, &loc, n * 8)?;
        let bits = v.zext(ty.bits);
        self.push(name, Entry::Value(Value { ty, bits }))
    }

    fn unary(&mut self, name: &str, code: c::DwOp) -> Result<(), Diag> {
        let v = self.pop_value(name)?;
        let w = v.ty.bits;
        let bits = match (&v.ty.num, code) {
            (Num::Float(_), c::DW_OP_neg) => {
                Bits::new(w, &*v.bits.unsigned() ^ (BigUint::from(1u8) << (w - 1)))
            }
            (Num::Float(_), c::DW_OP_abs) => v.bits.extract(0, w - 1).zext(w),
            (Num::Float(_), _) => return Err(err(name, "integral-required", "not of a float")),
            (_, c::DW_OP_neg) => Bits::from_bigint(w, &-signed_value(&v)),
            (_, c::DW_OP_abs) => Bits::from_bigint(w, &signed_value(&v).abs()),
            _ => Bits::new(w, &*v.bits.unsigned() ^ ((BigUint::from(1u8) << w) - 1u8)),
        };
        self.push(name, Entry::Value(Value { ty: v.ty, bits }))
    }

    /// A binary operation, `second OP top`.
    ///
    /// DWARF 5, Section 2.5.1.4: both operands have the same type (shifts
    /// excepted: their amount is any integral value); generic arithmetic
    /// wraps at the address size; `DW_OP_div` is signed; `DW_OP_mod` of
    /// generic values is unsigned; relational operations on generic values
    /// are signed and push generic 1 or 0.
    fn binary(&mut self, name: &str, code: c::DwOp, a: Value, b: Value) -> Result<Entry, Diag> {
        let shift = matches!(code, c::DW_OP_shl | c::DW_OP_shr | c::DW_OP_shra);
        if !shift && a.ty != b.ty {
            return Err(err(
                name,
                "type-mismatch",
                format!(
                    "operands of base types 0x{:x} and 0x{:x}",
                    a.ty.die, b.ty.die
                ),
            ));
        }
        let w = a.ty.bits;
        let relational = matches!(
            code,
            c::DW_OP_eq | c::DW_OP_ge | c::DW_OP_gt | c::DW_OP_le | c::DW_OP_lt | c::DW_OP_ne
        );
        if let Num::Float(t) = a.ty.num {
            let t = &t.ty();
            if relational {
                let ord = crate::float::compare(t, float_value(&a.bits), float_value(&b.bits));
                let r = compare(code, ord);
                self.push_generic(&BigInt::from(r as u8));
                return Ok(self.stack.pop().expect("just pushed"));
            }
            let f = match code {
                c::DW_OP_plus => FloatOp::Add,
                c::DW_OP_minus => FloatOp::Sub,
                c::DW_OP_mul => FloatOp::Mul,
                c::DW_OP_div => FloatOp::Div,
                _ => return Err(err(name, "integral-required", "of floating-point values")),
            };
            let bits = float_binop(t, &a.bits, &b.bits, f);
            return Ok(Entry::Value(Value { ty: a.ty, bits }));
        }
        if matches!(b.ty.num, Num::Float(_)) {
            return Err(err(
                name,
                "integral-required",
                "a floating-point shift amount",
            ));
        }
        let signed = match a.ty.num {
            Num::Signed => true,
            Num::Unsigned => false,
            _ => matches!(code, c::DW_OP_div) || relational,
        };
        let r = match int_binary_small(code, signed, &a, &b, w) {
            Some(r) => r,
            None => int_binary(name, code, signed, &a, &b, w)?,
        };
        match r {
            IntBinary::Flag(f) => {
                self.push_generic_u64(f as u64);
                Ok(self.stack.pop().expect("just pushed"))
            }
            IntBinary::Bits(bits) => Ok(Entry::Value(Value { bits, ty: a.ty })),
        }
    }

    fn implicit_pointer(&mut self, name: &str, die: u64, off: i64) -> Result<(), Diag> {
        let ops = match self.env.unit.dies.get(&die) {
            Some((_, ops)) => ops.clone(),
            None => {
                return Err(err(
                    name,
                    "unknown-die",
                    format!("no DIE with a location at 0x{die:x}"),
                ))
            }
        };
        self.enter(name)?;
        let mut inner = Machine {
            env: self.env,
            stack: Vec::new(),
            steps: self.steps,
            last: false,
            depth: self.depth,
        };
        inner.run(&ops)?;
        self.steps = inner.steps;
        let target = inner.result()?;
        self.depth -= 1;
        let target = target
            .offset_by(self.env.ctx, &(BigInt::from(off) * 8))
            .map_err(|f| f.at(name))?;
        let depth = target.depth() + 1;
        // DECISION (D-dwarf-implicit-pointer): the implicit pointer of
        // DW_OP_implicit_pointer is an address-size pointer in address space
        // 0 whose target is the location of the DIE it names, evaluated in
        // the same context: the same storage as `DIOpAddrOf(0)` makes.
        let st = Storage::ImplicitAddress {
            addrspace: 0,
            bits: self.generic_bits(),
            target,
            depth,
        };
        self.push(name, Entry::Loc(LocDesc::single(st, 0)))
    }

    /// `DW_OP_piece`/`DW_OP_bit_piece` as the extensions define them: the
    /// piece's location is the top entry, or undefined when the stack is
    /// empty or its top is an incomplete composite (DWARF 5's empty piece);
    /// it is appended to the incomplete composite below, or starts one.
    fn piece(&mut self, name: &str, bits: u64, offset: u64) -> Result<(), Diag> {
        let loc = match self.stack.last() {
            None | Some(Entry::Incomplete(_)) => LocDesc::undefined(),
            Some(_) => {
                let l = self.pop_location(name)?;
                l.offset_by(self.env.ctx, &BigInt::from(offset))
                    .map_err(|f| f.at(name))?
            }
        };
        self.charge(name, 1)?;
        let part = Part { bits, loc };
        match self.stack.last_mut() {
            Some(Entry::Incomplete(parts)) => parts.push(part),
            _ => {
                let mut parts = Vec::with_capacity(4);
                parts.push(part);
                self.push(name, Entry::Incomplete(parts))?
            }
        }
        Ok(())
    }

    fn offset(&mut self, name: &str, delta: BigInt) -> Result<(), Diag> {
        let l = self.pop_location(name)?;
        let moved = l.offset_by(self.env.ctx, &delta).map_err(|f| f.at(name))?;
        self.push(name, Entry::Loc(moved))
    }

    /// A location list at the current pc (see [`evaluate_list`]); each entry
    /// runs on a stack of its own.
    fn list(&mut self, name: &str, entries: &[ListEntry]) -> Result<LocDesc, Diag> {
        let pc = self.env.pc.ok_or_else(|| {
            Diag::unsupported(name, "no-pc", "a location list needs a program counter")
        })?;
        let run = |m: &mut Self, ops: &[DwarfOp]| -> Result<LocDesc, Diag> {
            let mut sub = Machine {
                env: Env { ..m.env },
                stack: Vec::new(),
                steps: m.steps,
                last: false,
                depth: m.depth,
            };
            sub.run(ops)?;
            m.steps = sub.steps;
            sub.result()
        };
        let mut singles = Vec::new();
        for e in entries {
            if let ListEntry::Bounded { lo, hi, ops } = e {
                if (*lo..*hi).contains(&pc) {
                    singles.extend(run(self, ops)?.singles().iter().cloned());
                }
            }
        }
        if !singles.is_empty() {
            return Ok(LocDesc::new(singles));
        }
        match entries.iter().find_map(|e| match e {
            ListEntry::Default(ops) => Some(ops),
            _ => None,
        }) {
            Some(ops) => run(self, ops),
            None => Ok(LocDesc::undefined()),
        }
    }

    /// `DW_OP_entry_value(E)`: `E` evaluated in the entry state; a register
    /// location gives the register's value (generic), a value is pushed as is.
    fn entry_value(&mut self, name: &str, op: &OpRef) -> Result<(), Diag> {
        let entry = self.entry_ctx(name)?;
        if !matches!(op.args[0], Arg::Ops(_) | Arg::Bytes(_)) {
            return Err(err(name, "bad-operand", "no nested expression"));
        }
        self.enter(name)?;
        // The frame base is a register of the current state, not the
        // entry state's; the CFA and the address table are the frame's.
        let env = Env {
            ctx: entry,
            entry: None,
            pc: None,
            frame: Frame {
                frame_base: None,
                ..self.env.frame
            },
            ..self.env
        };
        let mut m = Machine {
            env,
            stack: Vec::new(),
            steps: self.steps,
            last: false,
            depth: self.depth,
        };
        match op.args[0] {
            Arg::Ops(inner) => m.run(inner)?,
            Arg::Bytes(bytes) => m.run_code(&mut Encoded {
                bytes,
                checked: 0,
                starts: Vec::new(),
            })?,
            // Rejected above.
            Arg::Int(_) | Arg::Block(_) => {}
        }
        self.steps = m.steps;
        self.depth -= 1;
        let v = match m.stack.pop() {
            Some(Entry::Value(v)) => v,
            Some(Entry::Loc(l)) => match l.singles().first().map(|s| (&*s.storage, s.offset)) {
                Some((Storage::Register { number }, 0)) if l.singles().len() == 1 => {
                    let g = self.generic_bits();
                    Value {
                        ty: self.generic(),
                        bits: self.register_low(name, entry, *number, g)?,
                    }
                }
                _ => {
                    return Err(err(
                        name,
                        "entry-value-location",
                        "the entry expression gives a location that is not a register",
                    ))
                }
            },
            _ => {
                return Err(err(
                    name,
                    "entry-value-location",
                    "the entry expression gives nothing",
                ))
            }
        };
        self.push(name, Entry::Value(v))
    }
}

/// The base type at `die` of `unit` (0: the generic type, address-sized).
pub fn base_type(unit: &Unit, enc: Encoding, op: &str, die: u64) -> Result<ValTy, Diag> {
    if die == 0 {
        return Ok(ValTy {
            die: 0,
            num: Num::Generic,
            bits: 8 * enc.address_size as u64,
        });
    }
    let b = unit.base_types.get(&die).ok_or_else(|| {
        err(
            op,
            "unknown-base-type",
            format!("no DW_TAG_base_type at DIE 0x{die:x}"),
        )
    })?;
    let bits = b.byte_size * 8;
    let num = match b.encoding {
        c::DW_ATE_signed | c::DW_ATE_signed_char => Num::Signed,
        c::DW_ATE_unsigned | c::DW_ATE_unsigned_char | c::DW_ATE_boolean => Num::Unsigned,
        // DECISION (D-dwarf-bfloat): DWARF 5 has no encoding for bfloat;
        // a two-byte DW_ATE_float named `__bf16` (as clang names it) is
        // bfloat, any other two-byte float is IEEE half.
        //
        // DECISION (D-dwarf-wide-floats): a ten-byte DW_ATE_float is x87
        // extended precision (the only 80-bit format; gdb reads it so by
        // its size). A sixteen-byte one is IEEE binary128 when it is named
        // `__float128` or `_Float128`, as gdb's x86 and AArch64 targets
        // read those names; any other sixteen-byte float (`long double`) is
        // x87 in a 16-byte slot on x86-64, binary128 on AArch64 and a
        // double-double on PowerPC, which neither its name nor its size
        // tells apart: `unsupported` (`ambiguous-float`).
        c::DW_ATE_float => Num::Float(match (b.byte_size, b.name.as_str()) {
            (2, "__bf16") => FloatFormat::BFloat,
            (2, _) => FloatFormat::Half,
            (4, _) => FloatFormat::Float,
            (8, _) => FloatFormat::Double,
            (10, _) => FloatFormat::X87,
            (16, "__float128" | "_Float128") => FloatFormat::Quad,
            (16, name) => {
                return Err(Diag::unsupported(
                    op,
                    "ambiguous-float",
                    format!(
                        "a 16-byte float named `{name}` is x87, binary128 or double-double \
                         depending on the target (name it `__float128` for binary128)"
                    ),
                ))
            }
            (n, _) => {
                return Err(Diag::unsupported(
                    op,
                    "float-format",
                    format!("no {n}-byte floating-point format"),
                ))
            }
        }),
        e => {
            return Err(Diag::unsupported(
                op,
                "base-type-encoding",
                format!("base type encoding {e} is not evaluated"),
            ))
        }
    };
    Ok(ValTy { die, num, bits })
}

/// An integral binary operation's result: a relational operation's flag
/// (pushed as a generic value), or the other operations' bits (of the
/// first operand's type).
#[derive(Debug, PartialEq, Eq)]
enum IntBinary {
    Flag(bool),
    Bits(Bits),
}

/// An integral binary operation on operands of `w` bits (`b` may be
/// another type for the shifts), on big integers: every width. `signed`:
/// the operands are read as signed (DW_OP_div and the relational
/// operations on generic values, every operation on signed ones).
fn int_binary(
    name: &str,
    code: c::DwOp,
    signed: bool,
    a: &Value,
    b: &Value,
    w: u64,
) -> Result<IntBinary, Diag> {
    let val = |v: &Value| {
        if signed {
            signed_value(v)
        } else {
            v.bits.unsigned_int()
        }
    };
    let (x, y) = (val(a), val(b));
    let relational = matches!(
        code,
        c::DW_OP_eq | c::DW_OP_ge | c::DW_OP_gt | c::DW_OP_le | c::DW_OP_lt | c::DW_OP_ne
    );
    if relational {
        return Ok(IntBinary::Flag(compare(code, x.partial_cmp(&y))));
    }
    let ua = a.bits.unsigned_int();
    // DECISION (D-dwarf-shift-amount): an amount of at least the width
    // shifts every bit out (0, or all sign bits for `DW_OP_shra`); DWARF 5
    // does not say, and C leaves it undefined.
    let amount = b.bits.unsigned().to_u64().unwrap_or(u64::MAX).min(w);
    let r: BigInt = match code {
        c::DW_OP_plus => x + y,
        c::DW_OP_minus => x - y,
        c::DW_OP_mul => x * y,
        c::DW_OP_and => BigInt::from(&*a.bits.unsigned() & &*b.bits.unsigned()),
        c::DW_OP_or => BigInt::from(&*a.bits.unsigned() | &*b.bits.unsigned()),
        c::DW_OP_xor => BigInt::from(&*a.bits.unsigned() ^ &*b.bits.unsigned()),
        c::DW_OP_div | c::DW_OP_mod if y.is_zero() => {
            return Err(err(name, "division-by-zero", format!("{x} by 0")))
        }
        // Truncating, wrapping for the one quotient that does not fit.
        c::DW_OP_div => &x / &y,
        c::DW_OP_mod => &x - (&x / &y) * &y,
        c::DW_OP_shl if amount >= w => BigInt::zero(),
        c::DW_OP_shl => ua << amount,
        c::DW_OP_shr => ua >> amount,
        c::DW_OP_shra => a.bits.signed() >> amount,
        _ => return Err(err(name, "opcode", "not a binary operation")),
    };
    Ok(IntBinary::Bits(Bits::from_bigint(w, &r)))
}

/// [`int_binary`] in `i128` arithmetic, for operands of at most 64 bits
/// (the DWARF the lowerings make: a big integer per operation was 1% of
/// the pipeline's expression cases); `None` where it does not answer
/// (wider, a division by zero, not a binary operation), and `int_binary`
/// does. Sums, differences and products wrap modulo 2^128, a multiple of
/// 2^w, so their low `w` bits are exact; quotients and remainders of
/// operands below 2^64 in magnitude are exact.
fn int_binary_small(
    code: c::DwOp,
    signed: bool,
    a: &Value,
    b: &Value,
    w: u64,
) -> Option<IntBinary> {
    if w > 64 {
        return None;
    }
    let val = |v: &Value| {
        if signed && v.ty.num != Num::Unsigned {
            v.bits.small_signed()
        } else {
            v.bits.small().map(|u| u as i128)
        }
    };
    let (ua, ub) = (a.bits.small()?, b.bits.small()?);
    let (x, y) = (val(a)?, val(b)?);
    let amount = u64::try_from(ub).unwrap_or(u64::MAX).min(w);
    let r = match code {
        c::DW_OP_eq | c::DW_OP_ge | c::DW_OP_gt | c::DW_OP_le | c::DW_OP_lt | c::DW_OP_ne => {
            return Some(IntBinary::Flag(compare(code, Some(x.cmp(&y)))))
        }
        c::DW_OP_plus => x.wrapping_add(y),
        c::DW_OP_minus => x.wrapping_sub(y),
        c::DW_OP_mul => x.wrapping_mul(y),
        c::DW_OP_and => (ua & ub) as i128,
        c::DW_OP_or => (ua | ub) as i128,
        c::DW_OP_xor => (ua ^ ub) as i128,
        c::DW_OP_div => x.checked_div(y)?,
        c::DW_OP_mod => x.checked_rem(y)?,
        c::DW_OP_shl if amount >= w => 0,
        c::DW_OP_shl => (ua << amount) as i128,
        c::DW_OP_shr => (ua >> amount) as i128,
        c::DW_OP_shra => a.bits.small_signed()? >> amount,
        _ => return None,
    };
    Some(IntBinary::Bits(Bits::from_i128(w, r)))
}

fn compare(code: c::DwOp, o: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    match (code, o) {
        (_, None) => code == c::DW_OP_ne,
        (c::DW_OP_eq, Some(o)) => o == Equal,
        (c::DW_OP_ne, Some(o)) => o != Equal,
        (c::DW_OP_lt, Some(o)) => o == Less,
        (c::DW_OP_le, Some(o)) => o != Greater,
        (c::DW_OP_gt, Some(o)) => o == Greater,
        (_, Some(o)) => o != Less,
    }
}

/// An address space identifier (`DW_OP_xderef*`,
/// `DW_OP_LLVM_form_aspace_address`, `DW_OP_LLVM_aspace_bregx`).
/// An address space identifier whose memory is modelled (D-wide-pointers).
fn address_space(name: &str, v: &Value, layout: &crate::types::DataLayout) -> Result<u32, Diag> {
    let a = v.bits.unsigned().to_u32().ok_or_else(|| {
        err(
            name,
            "bad-address-space",
            "the address space does not fit 32 bits",
        )
    })?;
    layout
        .memory_pointer_bits(a)
        .map_err(|e| e.at_place(name))?;
    Ok(a)
}

/// The value as a signed integer (generic and unsigned values read as two's
/// complement too, for the operations that are signed on them).
fn signed_value(v: &Value) -> BigInt {
    match v.ty.num {
        Num::Unsigned => v.bits.unsigned_int(),
        _ => v.bits.signed(),
    }
}

/// Completes a composite. DWARF puts no overlap rule on pieces, so unlike
/// `DIOpComposite` the parts are not checked for overlap.
fn complete(name: &str, parts: Vec<Part>) -> Result<LocDesc, Diag> {
    let st = Storage::composite(parts);
    if st.depth() > crate::limits::MAX_LOCATION_DEPTH {
        return Err(Diag::unsupported(
            name,
            "limit-exceeded",
            "composites nested too deeply",
        ));
    }
    Ok(LocDesc::single(st, 0))
}

/// `DW_OP_convert`: the value converted to type `to`.
///
/// DECISION (D-dwarf-convert): integer to integer keeps the value modulo the
/// target width (the source read as its signedness; generic as unsigned);
/// integer to floating point rounds to nearest-even; floating point to
/// integer truncates toward zero and is an error (`out-of-range`) when the
/// result does not fit; floating point to floating point rounds.
fn convert(name: &str, v: Value, to: ValTy) -> Result<Value, Diag> {
    let bits = match (v.ty.num, to.num) {
        (Num::Float(f), Num::Float(g)) => Bits::from_u128(
            to.bits,
            crate::float::convert(&f.ty(), &g.ty(), float_value(&v.bits)),
        ),
        (Num::Float(f), _) => {
            let i = float_to_int(&f.ty(), float_value(&v.bits))
                .ok_or_else(|| err(name, "out-of-range", "NaN or infinity to an integer"))?;
            let fits = match to.num {
                Num::Unsigned | Num::Generic => !i.is_negative() && i.bits() <= to.bits,
                _ => crate::value::fits_signed(&i, to.bits),
            };
            if !fits {
                return Err(err(
                    name,
                    "out-of-range",
                    format!("{i} does not fit {} bits", to.bits),
                ));
            }
            Bits::from_bigint(to.bits, &i)
        }
        (_, Num::Float(g)) => {
            let i = match v.ty.num {
                Num::Signed => v.bits.signed(),
                _ => v.bits.unsigned_int(),
            };
            Bits::from_u128(to.bits, int_to_float(&g.ty(), &i))
        }
        _ => {
            let i = match v.ty.num {
                Num::Signed => v.bits.signed(),
                _ => v.bits.unsigned_int(),
            };
            Bits::from_bigint(to.bits, &i)
        }
    };
    Ok(Value { ty: to, bits })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::ConcreteContext;
    use crate::dwarf::op::decode;
    use crate::dwarf::text::parse;

    /// The `i128` path of the integral binary operations gives what the
    /// big-integer path gives, wherever it answers: every operation, the
    /// three signednesses, widths up to 64, operands at and around zero,
    /// the sign bit and the top, random ones, and shift amounts past the
    /// width; shifts also by an amount of another, wider type.
    #[test]
    fn small_integer_operations_are_the_big_ones() {
        let codes = [
            c::DW_OP_plus,
            c::DW_OP_minus,
            c::DW_OP_mul,
            c::DW_OP_and,
            c::DW_OP_or,
            c::DW_OP_xor,
            c::DW_OP_div,
            c::DW_OP_mod,
            c::DW_OP_shl,
            c::DW_OP_shr,
            c::DW_OP_shra,
            c::DW_OP_eq,
            c::DW_OP_ne,
            c::DW_OP_lt,
            c::DW_OP_le,
            c::DW_OP_gt,
            c::DW_OP_ge,
        ];
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed
        };
        let (mut answered, mut declined) = (0, 0);
        for w in [1u64, 7, 8, 31, 32, 63, 64] {
            let top = u64::MAX >> (64 - w);
            let mut values = vec![0, 1, 2, 3, top, top - 1, top >> 1, (top >> 1) + 1, w, w + 3];
            values.extend((0..12).map(|_| next() & top));
            for num in [Num::Generic, Num::Signed, Num::Unsigned] {
                let ty = ValTy {
                    die: 0,
                    num,
                    bits: w,
                };
                let value = |v: u64| Value {
                    ty,
                    bits: Bits::from_u64(w, v),
                };
                for &code in &codes {
                    let signed = match num {
                        Num::Signed => true,
                        Num::Unsigned => false,
                        _ => {
                            code == c::DW_OP_div
                                || matches!(
                                    code,
                                    c::DW_OP_eq
                                        | c::DW_OP_ne
                                        | c::DW_OP_lt
                                        | c::DW_OP_le
                                        | c::DW_OP_gt
                                        | c::DW_OP_ge
                                )
                        }
                    };
                    for &x in &values {
                        for &y in &values {
                            let (a, b) = (value(x), value(y));
                            let big = int_binary("op", code, signed, &a, &b, w);
                            match int_binary_small(code, signed, &a, &b, w) {
                                Some(r) => {
                                    answered += 1;
                                    assert_eq!(Ok(r), big, "{code:?} {num:?} i{w} {x:#x} {y:#x}");
                                }
                                None => declined += 1,
                            }
                        }
                        // A shift by an amount of a wider unsigned type.
                        if matches!(code, c::DW_OP_shl | c::DW_OP_shr | c::DW_OP_shra) {
                            let wide = ValTy {
                                die: 1,
                                num: Num::Unsigned,
                                bits: 128,
                            };
                            let (a, b) = (
                                value(x),
                                Value {
                                    ty: wide,
                                    bits: Bits::from_u128(128, u128::MAX - 5),
                                },
                            );
                            let big = int_binary("op", code, signed, &a, &b, w);
                            if let Some(r) = int_binary_small(code, signed, &a, &b, w) {
                                assert_eq!(Ok(r), big, "{code:?} {num:?} i{w} {x:#x} by 2^128-6");
                            }
                        }
                    }
                }
            }
        }
        // Declined: only divisions by zero.
        assert!(
            answered > 50 * declined,
            "{answered} answered, {declined} declined"
        );
    }

    /// D-dwarf-gnu-typed: each of gcc's DWARF 4 typed operations evaluates
    /// as the DWARF 5 operation it became, from the listing and from its
    /// bytes. gcc's unsigned division (`DW_OP_GNU_convert` around
    /// `DW_OP_div`) of 2^63 by 2 is 2^62, where the generic type's signed
    /// division gives -2^62.
    #[test]
    fn gnu_typed_operations_are_their_dwarf5_forms() {
        let unit = "\n0x1: DW_TAG_base_type DW_ATE_unsigned 8 \"unsigned long\"";
        let c = ctx("(context (register 0 \"00 00 00 00 00 00 00 80\") (register 1 \"02 00 00 00 00 00 00 00\") (memory 0 0 \"02 00 00 00 00 00 00 00\"))");
        let at = |text: &str| {
            let l =
                super::super::unit::Listing::parse(&format!("{text}{unit}"), Encoding::default())
                    .unwrap();
            let env = Env::new(&c, &l.unit);
            let decoded = evaluate(&l.ops, env);
            let bytes = super::super::op::encode(&l.ops, Encoding::default()).unwrap();
            assert_eq!(evaluate_bytes(&bytes, env), decoded, "from bytes: {text}");
            decoded.map(|l| l.to_string())
        };
        for dwarf5 in [
            "DW_OP_breg0 0, DW_OP_convert 0x1, DW_OP_breg1 0, DW_OP_convert 0x1, DW_OP_div, DW_OP_convert 0x0, DW_OP_stack_value",
            "DW_OP_breg0 0, DW_OP_reinterpret 0x1, DW_OP_breg1 0, DW_OP_reinterpret 0x1, DW_OP_div, DW_OP_reinterpret 0x0, DW_OP_stack_value",
            "DW_OP_regval_type 0x0 0x1, DW_OP_regval_type 0x1 0x1, DW_OP_div, DW_OP_convert 0x0, DW_OP_stack_value",
            "DW_OP_regval_type 0x0 0x1, DW_OP_lit0, DW_OP_deref_type 0x8 0x1, DW_OP_div, DW_OP_convert 0x0, DW_OP_stack_value",
            "DW_OP_regval_type 0x0 0x1, DW_OP_const_type 0x1 0x8 0x02 0x00 0x00 0x00 0x00 0x00 0x00 0x00, DW_OP_div, DW_OP_convert 0x0, DW_OP_stack_value",
        ] {
            let gnu = dwarf5
                .replace("DW_OP_convert", "DW_OP_GNU_convert")
                .replace("DW_OP_reinterpret", "DW_OP_GNU_reinterpret")
                .replace("DW_OP_regval_type", "DW_OP_GNU_regval_type")
                .replace("DW_OP_deref_type", "DW_OP_GNU_deref_type")
                .replace("DW_OP_const_type", "DW_OP_GNU_const_type");
            assert_eq!(at(&gnu), at(dwarf5), "{gnu}");
            assert_eq!(at(&gnu).unwrap(), "imp(64, 0x4000000000000000)", "{gnu}");
        }
        // The generic type's division is signed.
        assert_eq!(
            at("DW_OP_breg0 0, DW_OP_breg1 0, DW_OP_div, DW_OP_stack_value").unwrap(),
            "imp(64, 0xc000000000000000)"
        );
    }

    /// DWARF 5 Section 2.6.2 with the extensions: overlapping bounded
    /// entries give every place, the default entry applies only where no
    /// bounded entry does, and with neither the object is undefined; a call
    /// of a list DIE pushes the list's location at the same pc.
    #[test]
    fn location_lists_union_overlaps_and_fall_back_to_the_default() {
        let l = super::super::unit::Listing::parse(
            "0x1: DW_TAG_variable \"x\" DW_AT_location
  [0x2, 0x8): DW_OP_reg0
  [0x5, 0x10): DW_OP_reg1
  <default>: DW_OP_lit7, DW_OP_stack_value
0x2: DW_TAG_variable \"y\" DW_AT_location
  [0x4, 0x6): DW_OP_call4 0x1",
            Encoding::default(),
        )
        .unwrap();
        let c = ctx("(context)");
        let at = |die: u64, pc| {
            let env = Env {
                ctx: &c,
                unit: &l.unit,
                enc: Encoding::default(),
                entry: None,
                pc: Some(pc),
                frame: Frame::default(),
            };
            evaluate_list(&l.unit.lists[&die].entries, env).map(|l| l.to_string())
        };
        assert_eq!(at(1, 2).unwrap(), "reg(0)");
        assert_eq!(at(1, 5).unwrap(), "{reg(0) | reg(1)}");
        assert_eq!(at(1, 8).unwrap(), "reg(1)");
        assert_eq!(at(1, 1).unwrap(), "imp(64, 0x0000000000000007)");
        assert_eq!(at(1, 16).unwrap(), "imp(64, 0x0000000000000007)");
        assert_eq!(at(2, 5).unwrap(), "{reg(0) | reg(1)}");
        assert_eq!(at(2, 6).unwrap(), "undef");
        let env = Env {
            ctx: &c,
            unit: &l.unit,
            enc: Encoding::default(),
            entry: None,
            pc: None,
            frame: Frame::default(),
        };
        let d = evaluate_list(&l.unit.lists[&1].entries, env).unwrap_err();
        assert_eq!(d.reason, "no-pc");
    }

    fn ctx(text: &str) -> ConcreteContext {
        ConcreteContext::parse(text).unwrap()
    }

    fn run(
        ops: &str,
        c: &ConcreteContext,
        entry: Option<&ConcreteContext>,
    ) -> Result<LocDesc, Diag> {
        let unit = Unit::default();
        let env = Env {
            ctx: c,
            unit: &unit,
            enc: Encoding::default(),
            entry: entry.map(|e| e as &dyn Context),
            pc: None,
            frame: Frame::default(),
        };
        let ops = parse(ops, Encoding::default()).unwrap();
        let decoded = evaluate(&ops, env);
        // Every test here also checks evaluation from the bytes.
        if let Ok(bytes) = super::super::op::encode(&ops, Encoding::default()) {
            assert_eq!(evaluate_bytes(&bytes, env), decoded, "from bytes: {ops:?}");
        }
        decoded
    }

    /// D-dwarf-wide-floats: the format of a float base type by its size,
    /// and by its name where the size does not say.
    #[test]
    fn wide_float_base_types_are_read_by_size_and_name() {
        let mut unit = Unit::default();
        let enc = Encoding::default();
        let mut format = |bytes: u64, name: &str| {
            let die = unit.base_type(c::DW_ATE_float, bytes, name);
            base_type(&unit, enc, "DW_OP_convert", die).map(|t| t.num)
        };
        assert_eq!(format(10, "long double"), Ok(Num::Float(FloatFormat::X87)));
        assert_eq!(format(16, "__float128"), Ok(Num::Float(FloatFormat::Quad)));
        assert_eq!(format(16, "_Float128"), Ok(Num::Float(FloatFormat::Quad)));
        let d = format(16, "long double").unwrap_err();
        assert_eq!(d.outcome, crate::diag::Outcome::Unsupported);
        assert!(d.matches("DW_OP_convert: ambiguous-float"), "{d}");
        assert!(format(12, "long double").is_err());
    }

    /// `DW_OP_fbreg`, `DW_OP_call_frame_cfa` and `DW_OP_addrx` take what
    /// the program supplies, and are `unsupported` without it.
    #[test]
    fn frame_base_cfa_and_address_table_come_from_the_frame() {
        let c = ctx("(context (register 6 \"00 10 00 00 00 00 00 00\"))");
        let unit = Unit::default();
        let table = |i: u64| [0x4000u64, 0x5000].get(i as usize).copied();
        let frame = Frame {
            frame_base: Some(0x1000),
            cfa: Some(0x2000),
            address: Some(&table),
        };
        let with = |ops: &str, frame: Frame| {
            let env = Env {
                frame,
                ..Env::new(&c, &unit)
            };
            evaluate(&parse(ops, Encoding::default()).unwrap(), env).map(|l| l.to_string())
        };
        assert_eq!(with("DW_OP_fbreg -8", frame).unwrap(), "mem(0, 0xff8)");
        assert_eq!(
            with("DW_OP_call_frame_cfa, DW_OP_consts -16, DW_OP_plus", frame).unwrap(),
            "mem(0, 0x1ff0)"
        );
        assert_eq!(with("DW_OP_addrx 1", frame).unwrap(), "mem(0, 0x5000)");
        assert_eq!(
            with("DW_OP_addrx 2", frame).unwrap_err().reason,
            "bad-address-index"
        );
        let none = Frame::default();
        assert_eq!(
            with("DW_OP_fbreg -8", none).unwrap_err().reason,
            "no-frame-base"
        );
        assert_eq!(
            with("DW_OP_call_frame_cfa", none).unwrap_err().reason,
            "no-frame-state"
        );
        assert_eq!(
            with("DW_OP_constx 0", none).unwrap_err().reason,
            "no-address-table"
        );
        // The entry state has registers of its own, so the current frame
        // base does not carry into it.
        let env = Env {
            frame,
            entry: Some(&c),
            ..Env::new(&c, &unit)
        };
        let ops = parse(
            "DW_OP_entry_value(DW_OP_fbreg 0), DW_OP_stack_value",
            Encoding::default(),
        );
        let d = evaluate(&ops.unwrap(), env).unwrap_err();
        assert_eq!(d.reason, "no-frame-base", "{d}");
    }

    /// `evaluate_bytes` reports what decoding reports, even for bytes it
    /// would never execute, and rejects a branch into an operation.
    #[test]
    fn evaluating_from_bytes_reports_what_decoding_reports() {
        let c = ctx("(context (register 3 \"01\"))");
        let unit = Unit::default();
        let env = Env {
            entry: Some(&c),
            ..Env::new(&c, &unit)
        };
        let cases: [(&[u8], &str); 4] = [
            // DW_OP_skip over an unknown opcode.
            (&[0x2f, 0x01, 0x00, 0xff, 0x31], "DWARF: unknown-opcode"),
            // DW_OP_skip over an entry value whose inner opcode is unknown.
            (
                &[0x2f, 0x03, 0x00, 0xa3, 0x01, 0xff, 0x31],
                "DWARF: unknown-opcode",
            ),
            // DW_OP_skip into the operand of DW_OP_const1u.
            (&[0x2f, 0x01, 0x00, 0x08, 0x30], "DW_OP_skip: bad-branch"),
            // An entry value of register 3, as a value.
            (&[0xa3, 0x01, 0x53, 0x9f], ""),
        ];
        for (bytes, want) in cases {
            let decoded = decode(bytes, Encoding::default()).and_then(|ops| evaluate(&ops, env));
            let streamed = evaluate_bytes(bytes, env);
            assert_eq!(streamed, decoded, "{bytes:02x?}");
            match streamed {
                Err(d) => assert!(d.matches(want), "{bytes:02x?}: {d}"),
                Ok(l) => assert!(
                    want.is_empty() && l == LocDesc::implicit(Bits::from_u64(64, 1)),
                    "{bytes:02x?}: {l}"
                ),
            }
        }
    }

    #[test]
    fn an_empty_expression_is_undefined() {
        assert_eq!(
            run("", &ctx("(context)"), None).unwrap(),
            LocDesc::undefined()
        );
    }

    #[test]
    fn a_branch_out_of_range_is_an_error_not_an_overflow() {
        let d = run(
            "DW_OP_lit1, DW_OP_skip 9223372036854775807",
            &ctx("(context)"),
            None,
        )
        .unwrap_err();
        assert!(d.matches("DW_OP_skip: bad-branch"), "{d}");
    }

    #[test]
    fn an_endless_loop_stops_at_the_step_bound() {
        let d = run("DW_OP_skip -3", &ctx("(context)"), None).unwrap_err();
        assert!(d.matches("DWARF: limit-exceeded"), "{d}");
    }

    #[test]
    fn a_piece_on_an_incomplete_composite_is_undefined() {
        // DW_OP_piece with an incomplete composite on top: an undefined part.
        let l = run(
            "DW_OP_reg3, DW_OP_piece 0x1, DW_OP_piece 0x1",
            &ctx("(context (register 3 \"01\"))"),
            None,
        )
        .unwrap();
        assert_eq!(l.to_string(), "comp(8: reg(3), 8: undef)");
    }

    /// D-dwarf-gnu-uninit: as the last operation `DW_OP_GNU_uninit`
    /// leaves the location as it is (gcc writes it after a register
    /// location); anywhere else it is `not-last`, as gdb says. From the
    /// bytes too (`run` compares).
    #[test]
    fn gnu_uninit_is_the_last_operation_and_changes_nothing() {
        let c = ctx("(context (register 5 \"2a 00 00 00 00 00 00 00\"))");
        for (with, without) in [
            ("DW_OP_reg5, DW_OP_GNU_uninit", "DW_OP_reg5"),
            (
                "DW_OP_lit7, DW_OP_stack_value, DW_OP_GNU_uninit",
                "DW_OP_lit7, DW_OP_stack_value",
            ),
            ("DW_OP_breg5 8, DW_OP_GNU_uninit", "DW_OP_breg5 8"),
        ] {
            assert_eq!(run(with, &c, None), run(without, &c, None), "{with}");
            assert!(run(with, &c, None).is_ok(), "{with}");
        }
        for t in [
            "DW_OP_GNU_uninit, DW_OP_reg5",
            "DW_OP_reg5, DW_OP_GNU_uninit, DW_OP_piece 0x8",
        ] {
            let d = run(t, &c, None).unwrap_err();
            assert!(d.matches("DW_OP_GNU_uninit: not-last"), "{t}: {d}");
        }
    }

    #[test]
    fn entry_values_come_from_the_entry_state() {
        let now = ctx("(context (register 3 \"01 00 00 00\"))");
        let entry = ctx("(context (register 3 \"2a 00 00 00\"))");
        let l = run(
            "DW_OP_entry_value(DW_OP_reg3), DW_OP_stack_value",
            &now,
            Some(&entry),
        )
        .unwrap();
        assert_eq!(l, LocDesc::implicit(Bits::from_u64(64, 42)));
        let l = run(
            "DW_OP_LLVM_user DW_OP_LLVM_call_frame_entry_reg 0x3",
            &now,
            Some(&entry),
        )
        .unwrap();
        assert_eq!(l, LocDesc::implicit(Bits::from_u64(32, 42)));
        let d = run("DW_OP_entry_value(DW_OP_reg3)", &now, None).unwrap_err();
        assert!(d.matches("DW_OP_entry_value: no-entry-state"), "{d}");
    }

    #[test]
    fn a_location_where_a_value_is_needed_is_an_error() {
        let d = run(
            "DW_OP_reg3, DW_OP_lit1, DW_OP_plus",
            &ctx("(context (register 3 \"01\"))"),
            None,
        )
        .unwrap_err();
        assert!(d.matches("DW_OP_plus: value-required"), "{d}");
    }
}
