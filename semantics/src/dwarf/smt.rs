//! The SMT twin of [`super::eval`]: DWARF evaluation over the symbolic world
//! the DIOp encoding uses (`crate::smt`), one function per section of DWARF 5
//! in the evaluator's order (`literal_op`, `register_value_op`, `stack_op`,
//! `arithmetic_op`, `control_flow_op`, `special_op`, `conversion_op`,
//! `location_op`, `composite_op`, then `amd_op`), each the same rule over z3
//! terms.
//!
//! As in the DIOp encoding, evaluation failure is a condition (`ok`) kept
//! beside the location. The shape of the stack (which entries are values,
//! locations or incomplete composites) is known when the formula is built,
//! so an error the evaluator reports from the shape alone (an underflow, a
//! location where a value is needed, operands of different base types)
//! makes `ok` false on that path. A `DW_OP_bra` whose condition depends on
//! the context forks the machine: both continuations run to the end and
//! their results are joined under the condition (at most
//! [`MAX_DWARF_PATHS`] paths, each at most [`MAX_DWARF_PATH_STEPS`]
//! operations; past either bound the encoding is `unsupported`, never a
//! partial formula).
//!
//! What the symbolic world has no counterpart for (an entry state, a frame
//! base, a canonical frame address, an address table, a program counter for
//! location lists) is `SMT: unsupported`, as the evaluator reports it
//! `unsupported` in a context that lacks it.

use super::eval::{base_type, FloatFormat, Num, ValTy, MAX_DWARF_CALL_DEPTH};
use super::op::{AmdOp, Arg, DwarfOp, Encoding, OpRef, Which, BINARY_OPS};
use super::unit::Unit;
use crate::diag::{Diag, Outcome};
use crate::limits::MAX_LOCATION_DEPTH;
use crate::smt::loc::{offset_by, read, unsupported, SLoc, SPart, SStorage};
use crate::smt::term::{
    and, bv_big, bv_u, const_u128, ff, float_bits, float_from_bits, float_from_signed, off_u,
    resize, resize_signed, tt, OFF,
};
use crate::smt::term::{ashr, float_to_int, lshr, sdiv, shl, srem, udiv, urem};
use crate::smt::world::{check_width, World};
use crate::types::Type;
use gimli::constants as c;
use num_bigint::BigUint;
use std::cell::Cell;
use z3::ast::{Ast, Bool, Float, BV};

/// The most paths a `DW_OP_bra` on context-dependent conditions may fork
/// one encoding into.
pub const MAX_DWARF_PATHS: u32 = 64;
/// The most operations one path may execute (a loop whose exit depends on
/// the context is unrolled this far, then the encoding is `unsupported`).
pub const MAX_DWARF_PATH_STEPS: u64 = 4096;
/// The most parts `DW_OP_LLVM_extend` and `DW_OP_LLVM_select_bit_piece` may
/// make in an encoding.
pub const MAX_SMT_PARTS: u64 = 1024;

/// An encoded DWARF expression: the location it describes and the
/// condition under which its evaluation succeeds.
pub struct DwarfEncoded {
    pub loc: SLoc,
    pub ok: Bool,
}

/// A typed value on the symbolic stack.
#[derive(Clone, Debug)]
struct SValue {
    ty: ValTy,
    bits: BV,
    /// Facts about the bits that hold in every context, kept so that
    /// division, remainder and conversion to floating point can be encoded
    /// at the width the value really has (see [`narrow`]).
    ext: Ext,
}

/// The value is the sign extension of its low `sext` bits, or the zero
/// extension of its low `zext` bits (each `None` when not known).
#[derive(Clone, Copy, Debug, Default)]
struct Ext {
    sext: Option<u32>,
    zext: Option<u32>,
}

impl SValue {
    fn new(ty: ValTy, bits: BV) -> SValue {
        SValue {
            ty,
            bits,
            ext: Ext::default(),
        }
    }
    fn with(mut self, ext: Ext) -> SValue {
        self.ext = ext;
        self
    }
}

/// The twin of `eval::Entry`.
#[derive(Clone, Debug)]
enum SEntry {
    Value(SValue),
    Loc(SLoc),
    Incomplete(Vec<SPart>),
}

/// What one operation did to the flow of control.
enum Flow {
    Next,
    /// A branch taken whatever the context (`DW_OP_skip`, or `DW_OP_bra`
    /// of a known condition).
    Jump(i64),
    /// `DW_OP_bra` whose condition depends on the context: the branch is
    /// taken exactly when it holds.
    Fork(Bool, i64),
}

/// An error on this path: a failure of evaluation (the path's `ok` is
/// false) or something the encoding does not model.
enum Stop {
    Fails,
    Unsupported(Diag),
}

impl From<Diag> for Stop {
    fn from(d: Diag) -> Stop {
        if d.outcome == Outcome::EvalError {
            Stop::Fails
        } else {
            Stop::Unsupported(d)
        }
    }
}

type Step<T> = Result<T, Stop>;

fn fails<T>() -> Step<T> {
    Err(Stop::Fails)
}

/// One operation sequence being run, and the position of the next one.
#[derive(Clone)]
struct Frame<'a> {
    ops: &'a [DwarfOp],
    pc: usize,
}

/// The symbolic machine: the twin of `eval::Machine` on one path.
#[derive(Clone)]
struct SMachine<'a> {
    world: &'a World,
    unit: &'a Unit,
    enc: Encoding,
    stack: Vec<SEntry>,
    /// The path so far evaluates without error exactly when this holds.
    ok: Bool,
    frames: Vec<Frame<'a>>,
    steps: u64,
    /// Implicit pointers being evaluated around this machine (each runs
    /// its DIE's expression in a machine of its own).
    depth: u32,
    /// How many more forks the whole encoding may make.
    forks_left: &'a Cell<u32>,
}

/// Encodes `ops` (with the base types and DIEs of `unit`) over `world`.
pub fn encode_dwarf(
    ops: &[DwarfOp],
    unit: &Unit,
    enc: Encoding,
    world: &World,
) -> Result<DwarfEncoded, Diag> {
    let forks_left = Cell::new(MAX_DWARF_PATHS);
    encode_nested(ops, unit, enc, world, 0, &forks_left)
}

/// [`encode_dwarf`] inside `depth` implicit pointers, sharing the fork
/// budget of the outermost encoding.
fn encode_nested<'a>(
    ops: &'a [DwarfOp],
    unit: &'a Unit,
    enc: Encoding,
    world: &'a World,
    depth: u32,
    forks_left: &'a Cell<u32>,
) -> Result<DwarfEncoded, Diag> {
    let m = SMachine {
        world,
        unit,
        enc,
        stack: Vec::new(),
        ok: tt(),
        frames: vec![Frame { ops, pc: 0 }],
        steps: 0,
        depth,
        forks_left,
    };
    let (loc, ok) = run(m)?;
    Ok(DwarfEncoded { loc, ok })
}

/// Runs one path to its end, forking at context-dependent branches: the
/// location and success condition of all paths from here, joined.
fn run(mut m: SMachine) -> Result<(SLoc, Bool), Diag> {
    loop {
        let Some(frame) = m.frames.last() else {
            return Ok(match m.result() {
                Ok(l) => (l, m.ok),
                Err(Stop::Fails) => (SLoc::start(SStorage::Undefined), ff()),
                Err(Stop::Unsupported(d)) => return Err(d),
            });
        };
        let Some(op) = frame.ops.get(frame.pc) else {
            m.frames.pop();
            continue;
        };
        let (ops, next) = (frame.ops, frame.pc + 1);
        m.steps += 1;
        if m.steps > MAX_DWARF_PATH_STEPS {
            return Err(unsupported(
                "encoding-too-large",
                format!("a path of more than {MAX_DWARF_PATH_STEPS} operations (a loop whose exit depends on the context)"),
            ));
        }
        m.frames.last_mut().expect("a frame").pc = next;
        let view = op.view();
        let name = op.static_name();
        let flow = match view.which {
            Which::Std(code) => m.std_op(name, c::DwOp(code), &view),
            Which::Amd(a) => m.amd_op(name, a, &view).map(|()| Flow::Next),
        };
        let flow = match flow {
            Ok(f) => f,
            Err(Stop::Fails) => return Ok((SLoc::start(SStorage::Undefined), ff())),
            Err(Stop::Unsupported(d)) => return Err(d),
        };
        match flow {
            Flow::Next => {}
            Flow::Jump(off) => match branch(ops, next, off, m.enc) {
                Some(to) => m.frames.last_mut().expect("a frame").pc = to,
                None => return Ok((SLoc::start(SStorage::Undefined), ff())),
            },
            Flow::Fork(cond, off) => {
                let left = m.forks_left.get();
                if left == 0 {
                    return Err(unsupported(
                        "encoding-too-large",
                        format!("more than {MAX_DWARF_PATHS} paths through DW_OP_bra"),
                    ));
                }
                m.forks_left.set(left - 1);
                let mut taken = m.clone();
                let (lt, ot) = match branch(ops, next, off, m.enc) {
                    Some(to) => {
                        taken.frames.last_mut().expect("a frame").pc = to;
                        run(taken)?
                    }
                    None => (SLoc::start(SStorage::Undefined), ff()),
                };
                let (lf, of) = run(m)?;
                return Ok((SLoc::ite(&cond, lt, lf), cond.ite(&ot, &of)));
            }
        }
    }
}

/// The index of the operation a branch by `off` bytes from the operation
/// before `next` reaches (`ops.len()` for the end); `None` if that is not
/// the start of an operation, as the evaluator's `bad-branch`.
fn branch(ops: &[DwarfOp], next: usize, off: i64, enc: Encoding) -> Option<usize> {
    let mut pos = Vec::with_capacity(ops.len() + 1);
    let mut at = 0i64;
    for op in ops {
        pos.push(at);
        at += super::op::encode(std::slice::from_ref(op), enc)
            .map(|b| b.len() as i64)
            .unwrap_or(1);
    }
    pos.push(at);
    let target = pos[next].checked_add(off)?;
    pos.binary_search(&target).ok()
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

/// The bit-vector of little-endian `bytes`.
fn bv_le(bytes: &[u8]) -> BV {
    bv_big(bytes.len() as u32 * 8, &BigUint::from_bytes_le(bytes))
}

/// The LLVM type of a floating-point base type, for the float helpers.
fn float_type(f: FloatFormat) -> Type {
    f.ty()
}

/// A value of `n` bits as a signed `OFF`-bit displacement (wrapping, with
/// the condition that it fits) — the twin of `signed_value` feeding
/// `LocDesc::offset_by`.
fn displacement(v: &SValue, times8: bool) -> (BV, Bool) {
    let wide = v.bits.get_size().max(OFF) + 4;
    let mut d = match v.ty.num {
        Num::Unsigned => resize(&v.bits, wide),
        _ => resize_signed(&v.bits, wide),
    };
    if times8 {
        d = d.bvshl(bv_u(wide, 3));
    }
    let fits = d.eq(resize_signed(&resize(&d, OFF), wide));
    (resize(&d, OFF), fits)
}

/// A generic value (an address) as the bit offset of that byte.
fn byte_address(v: &BV) -> BV {
    resize(v, OFF).bvshl(off_u(3))
}

impl<'a> SMachine<'a> {
    /// Calls and implicit pointers around the current operation (the
    /// evaluator's `depth`).
    fn nesting(&self) -> u32 {
        self.depth + self.frames.len() as u32
    }
    fn generic_bits(&self) -> u64 {
        8 * self.enc.address_size as u64
    }
    fn generic(&self) -> ValTy {
        ValTy {
            die: 0,
            num: Num::Generic,
            bits: self.generic_bits(),
        }
    }
    fn push_generic(&mut self, v: BV) {
        let ty = self.generic();
        let bits = resize(&v, ty.bits as u32);
        self.stack.push(SEntry::Value(SValue::new(ty, bits)));
    }
    fn push_generic_u64(&mut self, v: u64) {
        let w = self.generic_bits() as u32;
        self.push_generic(bv_u(w.max(64), v));
    }
    fn require(&mut self, c: &Bool) {
        self.ok = and(&self.ok, c);
    }
    fn pop(&mut self) -> Step<SEntry> {
        self.stack.pop().ok_or(Stop::Fails)
    }
    fn base(&self, name: &str, die: u64) -> Step<ValTy> {
        Ok(base_type(self.unit, self.enc, name, die)?)
    }
    fn pop_value(&mut self) -> Step<SValue> {
        match self.pop()? {
            SEntry::Value(v) => Ok(v),
            // D-dwarf-value-required.
            _ => fails(),
        }
    }
    /// The twin of `as_location`: a generic value is an address in the
    /// default address space (DWARF 5, Section 2.6.1.1.2).
    fn as_location(&self, e: SEntry) -> Step<SLoc> {
        match e {
            SEntry::Loc(l) => Ok(l),
            SEntry::Value(v) if v.ty.num == Num::Generic => Ok(SLoc::at(
                SStorage::Memory { addrspace: 0 },
                byte_address(&v.bits),
            )),
            SEntry::Value(_) => fails(),
            SEntry::Incomplete(parts) => complete(parts),
        }
    }
    fn pop_location(&mut self) -> Step<SLoc> {
        let e = self.pop()?;
        self.as_location(e)
    }
    fn result(&mut self) -> Step<SLoc> {
        match self.stack.pop() {
            None => Ok(SLoc::start(SStorage::Undefined)),
            Some(e) => self.as_location(e),
        }
    }
    fn peek(&self, k: usize) -> Step<SEntry> {
        let n = self.stack.len();
        if k >= n {
            return fails();
        }
        Ok(self.stack[n - 1 - k].clone())
    }
    fn known(&self, v: &BV, what: &str) -> Step<u128> {
        const_u128(v).ok_or_else(|| {
            Stop::Unsupported(unsupported(
                "symbolic-operand",
                format!("{what} that depends on the context"),
            ))
        })
    }
    /// An address space identifier: it decides the storage, so it must be
    /// known when the formula is built.
    fn address_space(&self, v: &SValue) -> Step<u32> {
        let a = self.known(&v.bits, "an address space")?;
        let a = u32::try_from(a).or_else(|_| fails())?;
        self.world
            .layout
            .memory_pointer_bits(a)
            .map_err(Stop::Unsupported)?;
        Ok(a)
    }
    fn register_size(&self, n: u32) -> Step<u64> {
        self.world.register_bits(n).ok_or_else(|| {
            Stop::Unsupported(Diag::unsupported(
                "SMT",
                "register-not-supplied",
                format!("the context does not declare register {n}"),
            ))
        })
    }

    /// The twin of `register_low`: the low `bits` bits of register `n`
    /// (zero-extended when the register is narrower); reading undefined
    /// bytes fails.
    fn register_low(&mut self, n: u32, bits: u64) -> Step<BV> {
        let size = self.register_size(n)?;
        let (value, defined) = self.world.register(n, size)?;
        let k = size.min(bits) as u32;
        let v = value.extract(k - 1, 0);
        let d = defined.extract(k - 1, 0);
        self.require(&d.eq(BV::from_i64(-1, k)));
        Ok(resize(&v, bits as u32))
    }

    /// A standard operation: one function per section of DWARF 5, asked in
    /// the evaluator's order.
    fn std_op(&mut self, name: &'static str, code: c::DwOp, op: &OpRef) -> Step<Flow> {
        type Section<'m, 'a> =
            fn(&mut SMachine<'a>, &'static str, c::DwOp, &OpRef) -> Step<Option<Flow>>;
        let sections: [Section<'_, 'a>; 9] = [
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
        for section in sections {
            if let Some(f) = section(self, name, code, op)? {
                return Ok(f);
            }
        }
        Err(Stop::Unsupported(Diag::unsupported(
            name,
            "opcode",
            format!("{name} is not evaluated by dioptra"),
        )))
    }

    /// DWARF 5 Section 2.5.1.1, literal encodings.
    fn literal_op(&mut self, name: &'static str, code: c::DwOp, op: &OpRef) -> Step<Option<Flow>> {
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
            c::DW_OP_addrx | c::DW_OP_constx => {
                return Err(Stop::Unsupported(unsupported(
                    "no-address-table",
                    format!("{name}: the encoding has no address table"),
                )))
            }
            c::DW_OP_const_type | c::DW_OP_GNU_const_type => {
                let ty = self.base(name, uleb(op, 0))?;
                let b = block(op, 1);
                if b.len() as u64 * 8 != ty.bits {
                    return fails();
                }
                check_width(ty.bits)?;
                self.stack.push(SEntry::Value(SValue::new(ty, bv_le(b))));
            }
            _ => return Ok(None),
        }
        Ok(Some(Flow::Next))
    }

    /// DWARF 5 Section 2.5.1.2, register values.
    fn register_value_op(
        &mut self,
        name: &'static str,
        code: c::DwOp,
        op: &OpRef,
    ) -> Step<Option<Flow>> {
        match code {
            _ if (c::DW_OP_breg0.0..=c::DW_OP_breg31.0).contains(&code.0) => {
                self.breg((code.0 - c::DW_OP_breg0.0) as u32, sleb(op, 0))?
            }
            c::DW_OP_bregx => self.breg(uleb(op, 0) as u32, sleb(op, 1))?,
            c::DW_OP_regval_type | c::DW_OP_GNU_regval_type => {
                let ty = self.base(name, uleb(op, 1))?;
                check_width(ty.bits)?;
                let bits = self.register_low(uleb(op, 0) as u32, ty.bits)?;
                self.stack.push(SEntry::Value(SValue::new(ty, bits)));
            }
            c::DW_OP_fbreg => {
                return Err(Stop::Unsupported(unsupported(
                    "no-frame-base",
                    "DW_OP_fbreg: the encoding has no frame base",
                )))
            }
            _ => return Ok(None),
        }
        Ok(Some(Flow::Next))
    }

    /// DWARF 5 Section 2.5.1.3, stack operations (and the memory reads among them).
    fn stack_op(&mut self, name: &'static str, code: c::DwOp, op: &OpRef) -> Step<Option<Flow>> {
        match code {
            c::DW_OP_dup => {
                let e = self.peek(0)?;
                self.stack.push(e);
            }
            c::DW_OP_drop => {
                self.pop()?;
            }
            c::DW_OP_pick => {
                let e = self.peek(uleb(op, 0) as usize)?;
                self.stack.push(e);
            }
            c::DW_OP_over => {
                let e = self.peek(1)?;
                self.stack.push(e);
            }
            c::DW_OP_swap => {
                let a = self.pop()?;
                let b = self.pop()?;
                self.stack.push(a);
                self.stack.push(b);
            }
            c::DW_OP_rot => {
                let a = self.pop()?;
                let b = self.pop()?;
                let cc = self.pop()?;
                self.stack.push(a);
                self.stack.push(cc);
                self.stack.push(b);
            }
            c::DW_OP_deref => self.deref(name, self.enc.address_size as u64, 0)?,
            c::DW_OP_deref_size => {
                let n = uleb(op, 0);
                if n > self.enc.address_size as u64 {
                    return fails();
                }
                self.deref(name, n, 0)?
            }
            c::DW_OP_deref_type | c::DW_OP_GNU_deref_type => {
                self.deref(name, uleb(op, 0), uleb(op, 1))?
            }
            c::DW_OP_xderef | c::DW_OP_xderef_size | c::DW_OP_xderef_type => {
                let (n, die) = match code {
                    c::DW_OP_xderef => (self.enc.address_size as u64, 0),
                    c::DW_OP_xderef_size => (uleb(op, 0), 0),
                    _ => (uleb(op, 0), uleb(op, 1)),
                };
                let addr = self.pop_value()?;
                let space = self.pop_value()?;
                let a = self.address_space(&space)?;
                let loc = SLoc::at(SStorage::Memory { addrspace: a }, byte_address(&addr.bits));
                self.stack.push(SEntry::Loc(loc));
                self.deref(name, n, die)?
            }
            // D-dwarf-object-address: the object's address as a generic
            // value when it is one whole byte of memory in address space 0
            // whose address fits one, otherwise its location.
            c::DW_OP_push_object_address => {
                let Some(o) = &self.world.type_object else {
                    return fails();
                };
                let loc = o.loc.clone()?;
                let address = match &loc {
                    SLoc::One(s, off) if matches!(**s, SStorage::Memory { addrspace: 0 }) => {
                        let off = self.known(off, "an object address")?;
                        (off % 8 == 0 && (off / 8) >> self.generic_bits() == 0)
                            .then_some((off / 8) as u64)
                    }
                    SLoc::One(..) => None,
                    _ => {
                        return Err(Stop::Unsupported(unsupported(
                            "object-shape",
                            "DW_OP_push_object_address of an object whose place depends on the context",
                        )))
                    }
                };
                match address {
                    Some(a) => self.push_generic_u64(a),
                    None => self.stack.push(SEntry::Loc(loc)),
                }
            }
            c::DW_OP_call_frame_cfa | c::DW_OP_form_tls_address => {
                return Err(Stop::Unsupported(unsupported(
                    "no-frame-state",
                    format!("{name}: the encoding has no call frame information or thread-local storage"),
                )))
            }
            _ => return Ok(None),
        }
        Ok(Some(Flow::Next))
    }

    /// DWARF 5 Section 2.5.1.4, arithmetic and logical operations (and 2.5.1.5's relational ones).
    fn arithmetic_op(&mut self, _: &'static str, code: c::DwOp, op: &OpRef) -> Step<Option<Flow>> {
        match code {
            c::DW_OP_abs | c::DW_OP_neg | c::DW_OP_not => self.unary(code)?,
            c::DW_OP_plus_uconst => {
                let v = self.pop_value()?;
                if !matches!(v.ty.num, Num::Generic | Num::Signed | Num::Unsigned) {
                    return fails();
                }
                let k = SValue::new(v.ty, resize(&bv_u(64, uleb(op, 0)), v.ty.bits as u32));
                let r = self.binary(c::DW_OP_plus, v, k)?;
                self.stack.push(r);
            }
            d if BINARY_OPS.contains(&d) => {
                let top = self.pop_value()?;
                let second = self.pop_value()?;
                let r = self.binary(code, second, top)?;
                self.stack.push(r);
            }
            _ => return Ok(None),
        }
        Ok(Some(Flow::Next))
    }

    /// DWARF 5 Section 2.5.1.5, control flow.
    fn control_flow_op(
        &mut self,
        name: &'static str,
        code: c::DwOp,
        op: &OpRef,
    ) -> Step<Option<Flow>> {
        Ok(Some(match code {
            c::DW_OP_skip => Flow::Jump(sleb(op, 0)),
            c::DW_OP_bra => {
                let v = self.pop_value()?;
                let taken = v.bits.eq(bv_u(v.bits.get_size(), 0)).not();
                match taken.simplify().as_bool() {
                    Some(true) => Flow::Jump(sleb(op, 0)),
                    Some(false) => Flow::Next,
                    None => Flow::Fork(taken, sleb(op, 0)),
                }
            }
            c::DW_OP_call2 | c::DW_OP_call4 | c::DW_OP_call_ref => {
                let die = uleb(op, 0);
                if self.unit.lists.contains_key(&die) {
                    return Err(Stop::Unsupported(unsupported(
                        "no-pc",
                        "a call of a DIE located by a location list needs a program counter",
                    )));
                }
                let Some((_, ops)) = self.unit.dies.get(&die) else {
                    return fails();
                };
                if self.nesting() > MAX_DWARF_CALL_DEPTH {
                    return Err(Stop::Unsupported(Diag::unsupported(
                        name,
                        "limit-exceeded",
                        format!("calls nested deeper than {MAX_DWARF_CALL_DEPTH}"),
                    )));
                }
                self.frames.push(Frame { ops, pc: 0 });
                Flow::Next
            }
            c::DW_OP_nop => Flow::Next,
            _ => return Ok(None),
        }))
    }

    /// DWARF 5 Section 2.5.1.7, special operations (entry values).
    fn special_op(&mut self, name: &'static str, code: c::DwOp, _: &OpRef) -> Step<Option<Flow>> {
        match code {
            c::DW_OP_entry_value | c::DW_OP_GNU_entry_value => Err(Stop::Unsupported(unsupported(
                "no-entry-state",
                format!("{name}: the encoding has no entry state"),
            ))),
            c::DW_OP_GNU_uninit => self.gnu_uninit(),
            _ => Ok(None),
        }
    }

    /// `DW_OP_GNU_uninit` (D-dwarf-gnu-uninit): as the last operation the
    /// location is unchanged; anywhere else evaluation fails. The frame's
    /// `pc` is already past it.
    fn gnu_uninit(&mut self) -> Step<Option<Flow>> {
        let frame = self.frames.last().expect("a frame runs the operation");
        if frame.pc < frame.ops.len() {
            return Err(Stop::Fails);
        }
        Ok(Some(Flow::Next))
    }

    /// DWARF 5 Section 2.5.1.6, type conversions.
    fn conversion_op(
        &mut self,
        name: &'static str,
        code: c::DwOp,
        op: &OpRef,
    ) -> Step<Option<Flow>> {
        match code {
            c::DW_OP_convert | c::DW_OP_GNU_convert => {
                let v = self.pop_value()?;
                let to = self.base(name, uleb(op, 0))?;
                check_width(to.bits)?;
                let r = self.convert(v, to)?;
                self.stack.push(SEntry::Value(r));
            }
            c::DW_OP_reinterpret | c::DW_OP_GNU_reinterpret => {
                let v = self.pop_value()?;
                let to = self.base(name, uleb(op, 0))?;
                if to.bits != v.ty.bits {
                    return fails();
                }
                // The same bits: what is known of them stays known.
                let ext = v.ext;
                self.stack
                    .push(SEntry::Value(SValue::new(to, v.bits).with(ext)));
            }
            _ => return Ok(None),
        }
        Ok(Some(Flow::Next))
    }

    /// DWARF 5 Section 2.6.1.1, single location descriptions.
    fn location_op(&mut self, _: &'static str, code: c::DwOp, op: &OpRef) -> Step<Option<Flow>> {
        match code {
            _ if (c::DW_OP_reg0.0..=c::DW_OP_reg31.0).contains(&code.0) => {
                self.register_location((code.0 - c::DW_OP_reg0.0) as u32)?
            }
            c::DW_OP_regx => self.register_location(uleb(op, 0) as u32)?,
            c::DW_OP_implicit_value => {
                let b = block(op, 0);
                check_width(b.len() as u64 * 8)?;
                self.stack
                    .push(SEntry::Loc(SLoc::start(SStorage::Implicit(bv_le(b)))));
            }
            c::DW_OP_stack_value => {
                let v = self.pop_value()?;
                self.stack
                    .push(SEntry::Loc(SLoc::start(SStorage::Implicit(v.bits))));
            }
            c::DW_OP_implicit_pointer => self.implicit_pointer(uleb(op, 0), sleb(op, 1))?,
            _ => return Ok(None),
        }
        Ok(Some(Flow::Next))
    }

    /// DWARF 5 Section 2.6.1.2, composite location descriptions.
    fn composite_op(&mut self, _: &'static str, code: c::DwOp, op: &OpRef) -> Step<Option<Flow>> {
        match code {
            c::DW_OP_piece => self.piece(uleb(op, 0).saturating_mul(8), 0)?,
            c::DW_OP_bit_piece => self.piece(uleb(op, 0), uleb(op, 1))?,
            _ => return Ok(None),
        }
        Ok(Some(Flow::Next))
    }

    /// The extensions' operations, in `AmdOp`'s order.
    fn amd_op(&mut self, name: &'static str, a: AmdOp, op: &OpRef) -> Step<()> {
        match a {
            AmdOp::Nop => {}
            AmdOp::FormAspaceAddress => {
                let space = self.pop_value()?;
                let addr = self.pop_value()?;
                let s = self.address_space(&space)?;
                self.stack.push(SEntry::Loc(SLoc::at(
                    SStorage::Memory { addrspace: s },
                    byte_address(&addr.bits),
                )));
            }
            AmdOp::PushLane => {
                let Some(lane) = self.world.lane.clone() else {
                    return fails();
                };
                self.push_generic(lane);
            }
            AmdOp::Offset | AmdOp::BitOffset => {
                let d = self.pop_value()?;
                let (delta, fits) = displacement(&d, a == AmdOp::Offset);
                self.offset(&delta, &fits)?;
            }
            AmdOp::OffsetUconst => {
                let delta = off_u(uleb(op, 0) as u128 * 8);
                self.offset(&delta, &tt())?;
            }
            AmdOp::CallFrameEntryReg => {
                return Err(Stop::Unsupported(unsupported(
                    "no-entry-state",
                    format!("{name}: the encoding has no entry state"),
                )))
            }
            AmdOp::Undefined => self
                .stack
                .push(SEntry::Loc(SLoc::start(SStorage::Undefined))),
            AmdOp::AspaceBregx => {
                let space = self.pop_value()?;
                let s = self.address_space(&space)?;
                let g = self.generic_bits();
                let r = self.register_low(uleb(op, 0) as u32, g)?;
                let addr = r.bvadd(resize_signed(&bv_u(64, sleb(op, 1) as u64), g as u32));
                self.stack.push(SEntry::Loc(SLoc::at(
                    SStorage::Memory { addrspace: s },
                    byte_address(&addr),
                )));
            }
            AmdOp::AspaceImplicitPointer => {
                return Err(Stop::Unsupported(Diag::unsupported(
                    name,
                    "no-encoding",
                    "DW_OP_LLVM_aspace_implicit_pointer has no assigned encoding yet",
                )))
            }
            AmdOp::PieceEnd => match self.pop()? {
                SEntry::Incomplete(parts) => {
                    let l = complete(parts)?;
                    self.stack.push(SEntry::Loc(l));
                }
                _ => return fails(),
            },
            AmdOp::Extend => {
                let (size, count) = (uleb(op, 0), uleb(op, 1));
                let l = self.pop_location()?;
                parts_bound(count)?;
                let parts = (0..count)
                    .map(|_| SPart {
                        bits: size,
                        loc: l.clone(),
                    })
                    .collect();
                let l = complete(parts)?;
                self.stack.push(SEntry::Loc(l));
            }
            AmdOp::SelectBitPiece => {
                let (size, count) = (uleb(op, 0), uleb(op, 1));
                let mask = self.pop_value()?;
                let l1 = self.pop_location()?;
                let l0 = self.pop_location()?;
                parts_bound(count)?;
                let mut parts = Vec::with_capacity(count as usize);
                for i in 0..count {
                    let bit = if i < mask.bits.get_size() as u64 {
                        mask.bits.extract(i as u32, i as u32).eq(bv_u(1, 1))
                    } else {
                        ff()
                    };
                    let delta = off_u(i as u128 * size as u128);
                    let (m1, ok1) = offset_by(self.world, &l1, &delta, &tt());
                    let (m0, ok0) = offset_by(self.world, &l0, &delta, &tt());
                    self.require(&bit.ite(&ok1, &ok0));
                    parts.push(SPart {
                        bits: size,
                        loc: SLoc::ite(&bit, m1, m0),
                    });
                }
                let l = complete(parts)?;
                self.stack.push(SEntry::Loc(l));
            }
        }
        Ok(())
    }

    /// `DW_OP_breg*`: the register's low address-size bytes plus the offset,
    /// a generic value.
    fn breg(&mut self, n: u32, off: i64) -> Step<()> {
        let g = self.generic_bits();
        let r = self.register_low(n, g)?;
        let v = r.bvadd(resize_signed(&bv_u(64, off as u64), g as u32));
        self.push_generic(v);
        Ok(())
    }

    fn register_location(&mut self, n: u32) -> Step<()> {
        let bits = self.register_size(n)?;
        self.stack.push(SEntry::Loc(SLoc::start(SStorage::Register {
            number: n,
            bits,
        })));
        Ok(())
    }

    /// `DW_OP_deref*`: pops a location (or an address) and pushes `n` bytes
    /// read from it, as the base type `die` (0: generic, zero-extended).
    fn deref(&mut self, name: &str, n: u64, die: u64) -> Step<()> {
        let ty = self.base(name, die)?;
        if die != 0 && ty.bits != n * 8 {
            return fails();
        }
        let loc = self.pop_location()?;
        check_width(ty.bits)?;
        let bits = if n == 0 {
            bv_u(ty.bits as u32, 0)
        } else {
            check_width(n * 8)?;
            let r = read(self.world, &loc, n * 8)?;
            self.require(&r.ok);
            resize(&r.value, ty.bits as u32)
        };
        let ext = Ext {
            sext: None,
            zext: (n > 0 && n * 8 < ty.bits).then_some((n * 8) as u32),
        };
        self.stack
            .push(SEntry::Value(SValue::new(ty, bits).with(ext)));
        Ok(())
    }

    fn unary(&mut self, code: c::DwOp) -> Step<()> {
        let v = self.pop_value()?;
        let w = v.ty.bits as u32;
        let x = &v.bits;
        let bits = match (v.ty.num, code) {
            (Num::Float(_), c::DW_OP_neg) => x.bvxor(bv_u(1, 1).concat(bv_u(w - 1, 0))),
            (Num::Float(_), c::DW_OP_abs) => x.extract(w - 2, 0).zero_ext(1),
            (Num::Float(_), _) => return fails(),
            (_, c::DW_OP_neg) => x.bvneg(),
            (Num::Unsigned, c::DW_OP_abs) => x.clone(),
            (_, c::DW_OP_abs) => x.bvslt(bv_u(w, 0)).ite(&x.bvneg(), x),
            _ => x.bvnot(),
        };
        self.stack.push(SEntry::Value(SValue::new(v.ty, bits)));
        Ok(())
    }

    /// A binary operation, `second OP top`, with the evaluator's rules
    /// (`eval::Machine::binary`): the same type for both operands but a
    /// shift's amount; generic arithmetic wraps; `DW_OP_div` is signed,
    /// `DW_OP_mod` of generic values unsigned; relational operations on
    /// generic values signed, pushing generic 1 or 0; a shift by the width
    /// or more shifts every bit out (D-dwarf-shift-amount).
    fn binary(&mut self, code: c::DwOp, a: SValue, b: SValue) -> Step<SEntry> {
        let shift = matches!(code, c::DW_OP_shl | c::DW_OP_shr | c::DW_OP_shra);
        if !shift && a.ty != b.ty {
            return fails();
        }
        let w = a.ty.bits as u32;
        let relational = matches!(
            code,
            c::DW_OP_eq | c::DW_OP_ge | c::DW_OP_gt | c::DW_OP_le | c::DW_OP_lt | c::DW_OP_ne
        );
        let truth = |m: &mut Self, r: Bool| {
            let g = m.generic_bits() as u32;
            SEntry::Value(SValue::new(m.generic(), r.ite(&bv_u(g, 1), &bv_u(g, 0))))
        };
        if let Num::Float(f) = a.ty.num {
            let t = float_type(f);
            let (x, y) = (float_from_bits(&a.bits, &t), float_from_bits(&b.bits, &t));
            if relational {
                let r = match code {
                    c::DW_OP_eq => x.eq_fpa(&y),
                    c::DW_OP_ne => x.eq_fpa(&y).not(),
                    c::DW_OP_lt => x.lt(&y),
                    c::DW_OP_le => x.le(&y),
                    c::DW_OP_gt => x.gt(&y),
                    _ => x.ge(&y),
                };
                return Ok(truth(self, r));
            }
            // D-float-arithmetic: IEEE operations rounded to nearest-even.
            let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
            let r: Float = match code {
                c::DW_OP_plus => x.add_with_rounding_mode(&y, &rne),
                c::DW_OP_minus => x.sub_with_rounding_mode(&y, &rne),
                c::DW_OP_mul => x.mul_with_rounding_mode(&y, &rne),
                c::DW_OP_div => x.div_with_rounding_mode(&y, &rne),
                _ => return fails(),
            };
            return Ok(SEntry::Value(SValue::new(a.ty, float_bits(&r, &t))));
        }
        if matches!(b.ty.num, Num::Float(_)) {
            return fails();
        }
        let signed = match a.ty.num {
            Num::Signed => true,
            Num::Unsigned => false,
            _ => matches!(code, c::DW_OP_div) || relational,
        };
        let (x, y) = (&a.bits, &b.bits);
        if relational {
            let r = match (code, signed) {
                (c::DW_OP_eq, _) => x.eq(y),
                (c::DW_OP_ne, _) => x.eq(y).not(),
                (c::DW_OP_lt, true) => x.bvslt(y),
                (c::DW_OP_lt, false) => x.bvult(y),
                (c::DW_OP_le, true) => x.bvsle(y),
                (c::DW_OP_le, false) => x.bvule(y),
                (c::DW_OP_gt, true) => x.bvsgt(y),
                (c::DW_OP_gt, false) => x.bvugt(y),
                (_, true) => x.bvsge(y),
                (_, false) => x.bvuge(y),
            };
            return Ok(truth(self, r));
        }
        let zero = bv_u(w, 0);
        let mut ext = Ext::default();
        let r = match code {
            c::DW_OP_plus => x.bvadd(y),
            c::DW_OP_minus => crate::smt::term::sub(x, y),
            c::DW_OP_mul => x.bvmul(y),
            c::DW_OP_and => {
                // `v & (2^m - 1)` is the zero extension of its low m bits.
                ext.zext = [x, y]
                    .iter()
                    .filter_map(|k| const_u128(k))
                    .filter(|k| k.checked_add(1).is_some_and(u128::is_power_of_two))
                    .map(|k| (k + 1).trailing_zeros())
                    .min();
                x.bvand(y)
            }
            c::DW_OP_or => x.bvor(y),
            c::DW_OP_xor => x.bvxor(y),
            c::DW_OP_div | c::DW_OP_mod => {
                self.require(&y.eq(&zero).not());
                let (r, e) = divide(code, signed, &a, &b);
                ext = e;
                r
            }
            c::DW_OP_shl | c::DW_OP_shr | c::DW_OP_shra => {
                let wb = y.get_size();
                let big = if wb >= 64 || (w as u64) >> wb == 0 {
                    y.bvuge(resize(&bv_u(64, w as u64), wb.max(64)).extract(wb - 1, 0))
                } else {
                    ff()
                };
                let amount = resize(y, w);
                // A shift right by a constant `k` leaves the extension of
                // the low `w - k` bits.
                if let Some(k) = const_u128(y) {
                    let keep = (w as u128).saturating_sub(k).max(1) as u32;
                    match code {
                        c::DW_OP_shra => ext.sext = Some(keep),
                        c::DW_OP_shr => ext.zext = Some(keep),
                        _ => {}
                    }
                }
                match code {
                    c::DW_OP_shl => big.ite(&zero, &shl(x, &amount)),
                    c::DW_OP_shr => big.ite(&zero, &lshr(x, &amount)),
                    _ => big.ite(&ashr(x, &bv_u(w, w as u64 - 1)), &ashr(x, &amount)),
                }
            }
            _ => return fails(),
        };
        Ok(SEntry::Value(SValue::new(a.ty, r).with(ext)))
    }

    /// `DW_OP_convert` with D-dwarf-convert's rules.
    fn convert(&mut self, v: SValue, to: ValTy) -> Step<SValue> {
        let w = to.bits as u32;
        let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
        let bits = match (v.ty.num, to.num) {
            (Num::Float(f), Num::Float(g)) => {
                let (f, g) = (float_type(f), float_type(g));
                let x = float_from_bits(&v.bits, &f);
                float_bits(
                    &x.to_fp_with_rounding_mode(&rne, &crate::smt::term::float_sort(&g)),
                    &g,
                )
            }
            (Num::Float(f), _) => {
                // Truncate toward zero; NaN, infinities and values that do
                // not fit the target fail (`out-of-range`).
                let f = float_type(f);
                let x = float_from_bits(&v.bits, &f);
                let signed = !matches!(to.num, Num::Unsigned | Num::Generic);
                let (bits, fits) = float_to_int(&x, &f, w, signed);
                self.require(&fits);
                bits
            }
            (_, Num::Float(g)) => {
                let g = float_type(g);
                // At the width the integer really has, when known: the
                // same number, and the same term as an encoding that
                // converts the narrow integer (see [`divide`]).
                let n = v.bits.get_size();
                let i = match (v.ty.num, v.ext) {
                    (Num::Signed, Ext { sext: Some(m), .. }) if m < n => v.bits.extract(m - 1, 0),
                    (Num::Signed, _) => v.bits.clone(),
                    (_, Ext { zext: Some(m), .. }) if m < n => v.bits.extract(m - 1, 0).zero_ext(1),
                    _ => v.bits.zero_ext(1),
                };
                float_bits(&float_from_signed(&i, &g), &g)
            }
            _ => match v.ty.num {
                Num::Signed => resize_signed(&v.bits, w),
                _ => resize(&v.bits, w),
            },
        };
        Ok(SValue::new(to, bits))
    }

    /// The twin of `implicit_pointer` (D-dwarf-implicit-pointer): an
    /// address-size implicit address in address space 0 whose target is the
    /// DIE's location, moved by `off` bytes.
    fn implicit_pointer(&mut self, die: u64, off: i64) -> Step<()> {
        let Some((_, ops)) = self.unit.dies.get(&die) else {
            return fails();
        };
        if self.nesting() > MAX_DWARF_CALL_DEPTH {
            return Err(Stop::Unsupported(unsupported(
                "limit-exceeded",
                format!("calls nested deeper than {MAX_DWARF_CALL_DEPTH}"),
            )));
        }
        let inner = encode_nested(
            ops,
            self.unit,
            self.enc,
            self.world,
            self.nesting(),
            self.forks_left,
        )?;
        self.require(&inner.ok);
        let delta = resize_signed(&bv_u(64, off as u64), OFF).bvshl(off_u(3));
        let (target, ok) = offset_by(self.world, &inner.loc, &delta, &tt());
        self.require(&ok);
        if target.depth() + 1 > MAX_LOCATION_DEPTH {
            return Err(Stop::Unsupported(unsupported(
                "limit-exceeded",
                "implicit pointers nested too deeply",
            )));
        }
        self.stack
            .push(SEntry::Loc(SLoc::start(SStorage::ImplicitAddress {
                addrspace: 0,
                bits: self.generic_bits(),
                target,
            })));
        Ok(())
    }

    /// `DW_OP_piece`/`DW_OP_bit_piece` as the extensions define them (see
    /// `eval::Machine::piece`).
    fn piece(&mut self, bits: u64, offset: u64) -> Step<()> {
        let loc = match self.stack.last() {
            None | Some(SEntry::Incomplete(_)) => SLoc::start(SStorage::Undefined),
            Some(_) => {
                let l = self.pop_location()?;
                let (moved, ok) = offset_by(self.world, &l, &off_u(offset as u128), &tt());
                self.require(&ok);
                moved
            }
        };
        let part = SPart { bits, loc };
        match self.stack.last_mut() {
            Some(SEntry::Incomplete(parts)) => {
                parts_bound(parts.len() as u64 + 1)?;
                parts.push(part)
            }
            _ => self.stack.push(SEntry::Incomplete(vec![part])),
        }
        Ok(())
    }

    fn offset(&mut self, delta: &BV, fits: &Bool) -> Step<()> {
        let l = self.pop_location()?;
        let (moved, ok) = offset_by(self.world, &l, delta, fits);
        self.require(&ok);
        self.stack.push(SEntry::Loc(moved));
        Ok(())
    }
}

/// `a / b` or `a % b` (`DW_OP_div`/`DW_OP_mod`, signed or not), computed at
/// the width the operands really have when their extensions are known.
///
/// A lowering sign- or zero-extends narrow operands to the address size
/// before dividing; the solver proves a 64-bit division of extended values
/// equal to the narrow division only by bit-blasting both circuits (seconds
/// a query). The narrow form is the same number: for `m`-bit sign
/// extensions `a`, `b`, the `w`-bit quotient is the sign extension of the
/// `m`-bit one except for `MIN / -1`, where it is `+2^(m-1)`, and the
/// remainder always is; zero extensions divide exactly.
fn divide(code: c::DwOp, signed: bool, a: &SValue, b: &SValue) -> (BV, Ext) {
    let (x, y) = (&a.bits, &b.bits);
    let w = x.get_size();
    let narrow = |p: Option<u32>, q: Option<u32>| match (p, q) {
        (Some(p), Some(q)) if p.max(q).max(1) < w => Some(p.max(q).max(1)),
        _ => None,
    };
    if signed {
        if let Some(m) = narrow(a.ext.sext, b.ext.sext) {
            let (xm, ym) = (
                x.extract(m - 1, 0).simplify(),
                y.extract(m - 1, 0).simplify(),
            );
            if code == c::DW_OP_mod {
                let ext = Ext {
                    sext: Some(m),
                    zext: None,
                };
                return (srem(&xm, &ym).sign_ext(w - m), ext);
            }
            // The low `m` bits are the narrow quotient in every case: at
            // `MIN / -1` `bvsdiv` wraps to `MIN`, whose bits are those of
            // `+2^(m-1)`. Only the high bits depend on the overflow (zero
            // there, the sign elsewhere), so a later truncation to `m` bits
            // leaves the narrow quotient alone.
            let min = bv_big(m, &(BigUint::from(1u8) << (m - 1)));
            let overflow = Bool::and(&[&xm.eq(&min), &ym.eq(BV::from_i64(-1, m))]);
            let q = sdiv(&xm, &ym);
            let high = overflow.ite(&bv_u(w - m, 0), &q.sign_ext(w - m).extract(w - 1, m));
            let ext = Ext {
                sext: Some(m + 1),
                zext: None,
            };
            return (high.concat(&q), ext);
        }
        let r = if code == c::DW_OP_div {
            sdiv(x, y)
        } else {
            srem(x, y)
        };
        return (r, Ext::default());
    }
    if let Some(m) = narrow(a.ext.zext, b.ext.zext) {
        let (xm, ym) = (
            x.extract(m - 1, 0).simplify(),
            y.extract(m - 1, 0).simplify(),
        );
        let r = if code == c::DW_OP_div {
            udiv(&xm, &ym)
        } else {
            urem(&xm, &ym)
        };
        return (
            r.zero_ext(w - m),
            Ext {
                sext: None,
                zext: Some(m),
            },
        );
    }
    let r = if code == c::DW_OP_div {
        udiv(x, y)
    } else {
        urem(x, y)
    };
    (r, Ext::default())
}

fn parts_bound(n: u64) -> Step<()> {
    if n > MAX_SMT_PARTS {
        return Err(Stop::Unsupported(unsupported(
            "limit-exceeded",
            format!("a composite of more than {MAX_SMT_PARTS} parts"),
        )));
    }
    Ok(())
}

/// The twin of `eval::complete`: no overlap rule on DWARF pieces.
fn complete(parts: Vec<SPart>) -> Step<SLoc> {
    let depth = 1 + parts.iter().map(|p| p.loc.depth()).max().unwrap_or(0);
    if depth > MAX_LOCATION_DEPTH {
        return Err(Stop::Unsupported(unsupported(
            "limit-exceeded",
            "composites nested too deeply",
        )));
    }
    Ok(SLoc::start(SStorage::Composite { parts }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::ConcreteContext;
    use crate::dwarf::unit::Listing;
    use crate::smt::loc::same_location;
    use crate::smt::{solve, Answer};

    fn encoded(listing: &str, world: &World) -> Result<DwarfEncoded, Diag> {
        let l = Listing::parse(listing, Encoding::default()).unwrap();
        encode_dwarf(&l.ops, &l.unit, Encoding::default(), world)
    }

    /// A world with registers `0..n`, 64 bits each, placed.
    fn placed_with(n: u32) -> World {
        let regs: String = (0..n)
            .map(|r| format!(" (register {r} \"00 00 00 00 00 00 00 00\")"))
            .collect();
        World::placed(&ConcreteContext::parse(&format!("(context c{regs})")).unwrap())
    }

    fn placed() -> World {
        placed_with(1)
    }

    /// A `DW_OP_bra` on a register's contents forks the machine; the joined
    /// result is, for every register value, the location the branch taken
    /// gives: 2 when the register is not zero, else 1.
    #[test]
    fn a_branch_on_the_context_is_joined_under_its_condition() {
        let w = placed();
        let e = encoded(
            "DW_OP_breg0 0, DW_OP_bra 4, DW_OP_lit1, DW_OP_skip 1, DW_OP_lit2, DW_OP_stack_value",
            &w,
        )
        .unwrap();
        let (r, defined) = w.register(0, 64).unwrap();
        let want = SLoc::ite(
            &r.eq(bv_u(64, 0)).not(),
            SLoc::start(SStorage::Implicit(bv_u(64, 2))),
            SLoc::start(SStorage::Implicit(bv_u(64, 1))),
        );
        let same = same_location(&w, &e.loc, &want, 64).unwrap();
        // Defined exactly when the register is, and then that location.
        let all_defined = defined.eq(BV::from_i64(-1, 64));
        let wrong = Bool::or(&[
            &e.ok.eq(&all_defined).not(),
            &Bool::and(&[&e.ok, &same.not()]),
        ]);
        assert!(matches!(solve(&[&wrong], 5_000), Answer::Unsat));
    }

    /// A loop whose exit depends on the context is unrolled to the path
    /// bound, then the encoding is `unsupported`, not a hang.
    #[test]
    fn a_loop_on_the_context_is_bounded() {
        let w = placed();
        let d = encoded("DW_OP_breg0 0, DW_OP_bra -5", &w).err().unwrap();
        assert_eq!(d.reason, "encoding-too-large");
    }

    /// An implicit pointer to its own DIE nests to the call-depth bound and
    /// stops there.
    #[test]
    fn an_implicit_pointer_to_itself_is_bounded() {
        let w = placed();
        let d = encoded(
            "DW_OP_implicit_pointer 0x1 0\n0x1: DW_TAG_variable DW_OP_implicit_pointer 0x1 0",
            &w,
        )
        .err()
        .unwrap();
        assert_eq!(d.reason, "limit-exceeded");
    }

    /// Errors the evaluator finds from the stack's shape alone make the
    /// path fail: the encoding's `ok` is false in every context.
    #[test]
    fn shape_errors_fail_in_every_context() {
        let w = placed();
        for text in [
            "DW_OP_plus",
            "DW_OP_reg0, DW_OP_lit1, DW_OP_plus",
            "DW_OP_lit0, DW_OP_skip 7",
        ] {
            let e = encoded(text, &w).unwrap();
            assert!(matches!(solve(&[&e.ok], 5_000), Answer::Unsat), "{text}");
        }
    }

    /// D-dwarf-gnu-uninit: last, `DW_OP_GNU_uninit` leaves the location
    /// as it is in every context; anywhere else the path fails in every
    /// context, as the evaluator's `not-last`.
    /// D-dwarf-gnu-typed: gcc's unsigned division with `DW_OP_GNU_convert`
    /// is the one with `DW_OP_convert` for every pair of register values,
    /// and differs from the generic type's signed division for some.
    #[test]
    fn gnu_convert_is_convert() {
        let w = placed_with(2);
        let unit = "\n0x1: DW_TAG_base_type DW_ATE_unsigned 8 \"unsigned long\"";
        let div = |convert: &str| {
            encoded(
                &format!("DW_OP_breg0 0, {convert} 0x1, DW_OP_breg1 0, {convert} 0x1, DW_OP_div, {convert} 0x0, DW_OP_stack_value{unit}"),
                &w,
            )
            .unwrap()
        };
        let (gnu, dwarf5) = (div("DW_OP_GNU_convert"), div("DW_OP_convert"));
        let differ = same_location(&w, &gnu.loc, &dwarf5.loc, 64).unwrap().not();
        assert!(matches!(
            solve(&[&gnu.ok, &dwarf5.ok, &differ], 5_000),
            Answer::Unsat
        ));
        let signed = encoded(
            &format!("DW_OP_breg0 0, DW_OP_breg1 0, DW_OP_div, DW_OP_stack_value{unit}"),
            &w,
        )
        .unwrap();
        let differ = same_location(&w, &gnu.loc, &signed.loc, 64).unwrap().not();
        assert!(matches!(
            solve(&[&gnu.ok, &signed.ok, &differ], 5_000),
            Answer::Sat(_)
        ));
    }

    #[test]
    fn gnu_uninit_last_changes_nothing_and_elsewhere_fails() {
        let w = placed();
        let with = encoded("DW_OP_reg0, DW_OP_GNU_uninit", &w).unwrap();
        let without = encoded("DW_OP_reg0", &w).unwrap();
        let differ = same_location(&w, &with.loc, &without.loc, 64)
            .unwrap()
            .not();
        assert!(matches!(solve(&[&with.ok, &differ], 5_000), Answer::Unsat));
        assert!(matches!(solve(&[&with.ok], 5_000), Answer::Sat(_)));
        let first = encoded("DW_OP_GNU_uninit, DW_OP_reg0", &w).unwrap();
        assert!(matches!(solve(&[&first.ok], 5_000), Answer::Unsat));
    }

    /// Dividing sign extensions of 8-bit values at 8 bits (`divide`) is the
    /// 64-bit signed division of the extended values in every context,
    /// `-128 / -1 = +128` included (the one case where the quotient is not
    /// the extension of an 8-bit value); the remainder likewise.
    #[test]
    fn narrowed_division_is_the_wide_division() {
        let w = placed_with(2);
        let sext8 = "DW_OP_constu 56, DW_OP_shl, DW_OP_constu 56, DW_OP_shra";
        let (r0, _) = w.register(0, 64).unwrap();
        let (r1, _) = w.register(1, 64).unwrap();
        let (a, b) = (r0.extract(7, 0).sign_ext(56), r1.extract(7, 0).sign_ext(56));
        // Signed remainder through the typed stack (DW_OP_mod of the generic
        // type is unsigned): the remainder is `a - (a / b) * b`.
        for (op, want) in [
            ("DW_OP_div", a.bvsdiv(&b)),
            (
                "DW_OP_over, DW_OP_over, DW_OP_div, DW_OP_mul, DW_OP_minus",
                a.bvsrem(&b),
            ),
        ] {
            let e = encoded(
                &format!("DW_OP_breg0 0, {sext8}, DW_OP_breg1 0, {sext8}, {op}, DW_OP_stack_value"),
                &w,
            )
            .unwrap();
            let same =
                same_location(&w, &e.loc, &SLoc::start(SStorage::Implicit(want)), 64).unwrap();
            let wrong = Bool::and(&[&e.ok, &same.not()]);
            assert!(matches!(solve(&[&wrong], 20_000), Answer::Unsat), "{op}");
            // And it is defined: the divisor's bits are all that can fail.
            let min_by_minus_one = Bool::and(&[
                &r0.extract(7, 0).eq(bv_u(8, 0x80)),
                &r1.extract(7, 0).eq(bv_u(8, 0xff)),
                &e.ok.not(),
            ]);
            let (_, d0) = w.register(0, 64).unwrap();
            let (_, d1) = w.register(1, 64).unwrap();
            let defined = Bool::and(&[
                &d0.eq(BV::from_i64(-1, 64)),
                &d1.eq(BV::from_i64(-1, 64)),
                &min_by_minus_one,
            ]);
            assert!(matches!(solve(&[&defined], 20_000), Answer::Unsat), "{op}");
        }
    }
}
