//! Lowering DIOp expressions to DWARF: one `lower_<op>` per op, in the order
//! of `check_<op>`, `eval_<op>` and `encode_<op>`.
//!
//! A lowering happens where the code generator knows where the inputs are: the
//! referrer and the `argObjects` are in registers, in memory, or constants.
//! So `lower` takes a context and reads the inputs' locations from it (their
//! contents are not looked at). Each DIOp stack entry becomes a [`Frag`]: the
//! DWARF that produces it, in one of a few forms (a value, an address, a
//! register, a composite of fragments...). An op combines its operands'
//! fragments, so the DWARF stack never needs shuffling; only the final
//! location is assembled from the form.
//!
//! Two targets:
//! * `amdgpu`: DWARF 5 plus AMD's extensions (`DW_OP_LLVM_user` ops), where a
//!   location can be on the stack mid-expression. Every op lowers, including
//!   those AMD's fork does not lower today (Referrer, TypeObject, AddrOf,
//!   Extend, Select, floating point, parts that are not whole bytes).
//! * `dwarf5`: plain DWARF 5: locations only at the end (registers, memory
//!   in address space 0, implicit values, implicit pointers, and a top-level
//!   composite of those). Anything else is `not-expressible`, with the reason.
//!
//! Values: integers, pointers and other types of at most 64 bits use the
//! generic type (the address size is 8 bytes) and are kept masked to their
//! width; floating point and wider types use base types (`DW_OP_const_type`,
//! `DW_OP_deref_type`, `DW_OP_convert`, `DW_OP_reinterpret`), which the
//! listing declares after the expression.
//!
//! * [`compare`]: does DWARF (a lowering, or bytes or a listing from
//!   elsewhere) describe the same location as a DIOp expression?
//! * [`loclist`]: lifetimes to DWARF location lists.
//! * [`prove`]: proves a lowering for every context with its inputs' places.

mod code;
pub mod compare;
pub mod loclist;
pub mod prove;
pub mod table;

use code::Code;
use dioptra_semantics::bits::Bits;
use dioptra_semantics::context::{ConcreteContext, Context};
use dioptra_semantics::diag::{Diag, Message};
use dioptra_semantics::dwarf::op::{AmdOp, DwarfOp, Encoding, Operand};
use dioptra_semantics::dwarf::unit::{DieKind, Listing, Unit};
use dioptra_semantics::limits::{MAX_REPEATED_DWARF_OPS, STACK_ROOM};
use dioptra_semantics::location::{LocDesc, Storage};
use dioptra_semantics::syntax::{Expr, Op};
use dioptra_semantics::types::Type;
use dioptra_semantics::value::literal_bits;
use dioptra_semantics::wellformed::{check, Checked};
use gimli::constants as c;
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Which DWARF the lowering may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// DWARF 5 with AMD's extensions.
    Amdgpu,
    /// Plain DWARF 5.
    Dwarf5,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Amdgpu => "amdgpu",
            Target::Dwarf5 => "dwarf5",
        }
    }
    pub fn parse(s: &str) -> Option<Target> {
        match s {
            "amdgpu" => Some(Target::Amdgpu),
            "dwarf5" => Some(Target::Dwarf5),
            _ => None,
        }
    }
}

/// The DWARF of an expression, and how its location compares with the DIOp
/// result: `bits` bits from bit `offset` of the DWARF location (a fragment
/// `DIOpFragment(O, S)` lowers to a composite whose bits `O..O+S` are the
/// expression's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowered {
    pub listing: Listing,
    pub offset: u64,
    pub bits: u64,
}

/// One DIOp stack entry, as DWARF.
#[derive(Clone, Debug)]
struct Frag {
    ty: Type,
    form: Form,
    /// The value, when it is a constant known at lowering time.
    known_value: Option<Bits>,
}

#[derive(Clone, Debug)]
enum Form {
    /// `code` pushes `read(L, T)` in `T`'s representation ([`Repr`]).
    Value(Code),
    /// `code` pushes a generic byte address; the location is memory in
    /// `aspace` there, from bit `bit` (0..8) of that byte.
    Address {
        aspace: u32,
        code: Code,
        bit: u64,
    },
    /// Register `n` from bit `offset`.
    Register {
        n: u32,
        offset: u64,
    },
    Undefined,
    /// Parts from offset 0 up: (bits, fragment).
    Composite(Vec<(u64, Frag)>),
    /// The implicit address `DIOpAddrOf(N)` makes (`bits` wide, in address
    /// space `aspace`), to the fragment's location. A `DIOpDeref` cancels
    /// it; only materializing it needs an implicit pointer.
    ImplicitAddress {
        target: Box<Frag>,
        aspace: u32,
        bits: u64,
    },
    /// `code` pushes a location description (extensions only).
    Location(Code),
}

impl Frag {
    /// The DWARF operations the fragment holds (a register or the undefined
    /// location as one, a composite as its parts' and a piece each).
    fn ops(&self) -> usize {
        match &self.form {
            Form::Value(code) | Form::Address { code, .. } | Form::Location(code) => code.len(),
            Form::Register { .. } | Form::Undefined => 1,
            Form::Composite(parts) => parts.iter().map(|(_, p)| p.ops() + 1).sum(),
            Form::ImplicitAddress { target, .. } => target.ops() + 1,
        }
    }
}

/// How a value of a DIOp type is held on the DWARF stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Repr {
    /// The generic type, holding the value zero-extended from `w` bits.
    Generic { w: u64 },
    /// An unsigned base type of `bytes` bytes (and its signed twin), holding
    /// the value zero-extended from `w` bits.
    Wide { w: u64, bytes: u64, u: u64, s: u64 },
    /// A floating-point base type.
    Float { bytes: u64, die: u64 },
}

impl Repr {
    fn bits(self) -> u64 {
        match self {
            Repr::Generic { .. } => 64,
            Repr::Wide { bytes, .. } | Repr::Float { bytes, .. } => bytes * 8,
        }
    }
}

fn op(code: c::DwOp) -> DwarfOp {
    DwarfOp::op(code)
}
fn with(code: c::DwOp, v: u64) -> DwarfOp {
    DwarfOp::with(code, [Operand::Uleb(v)])
}
fn amd(a: AmdOp) -> DwarfOp {
    DwarfOp::amd(a, [])
}
fn amd2(a: AmdOp, x: u64, y: u64) -> DwarfOp {
    DwarfOp::amd(a, [Operand::Uleb(x), Operand::Uleb(y)])
}

/// The shortest push of a generic constant.
fn constu(v: u64) -> DwarfOp {
    if v < 32 {
        op(c::DwOp(c::DW_OP_lit0.0 + v as u8))
    } else {
        with(c::DW_OP_constu, v)
    }
}
fn consts(v: i64) -> DwarfOp {
    if v >= 0 {
        constu(v as u64)
    } else {
        DwarfOp::with(c::DW_OP_consts, [Operand::S(v)])
    }
}

fn not_expressible(construct: &str, why: &str, msg: impl std::fmt::Display) -> Diag {
    Diag::unsupported(construct, "not-expressible", format!("{why}: {msg}"))
}

struct Lowerer<'a> {
    ctx: &'a dyn Context,
    target: Target,
    unit: Unit,
    /// Inputs (`DIOpArg` index) that are DIEs called with `DW_OP_call4`.
    calls: &'a BTreeMap<u32, u64>,
    /// The op being lowered, for diagnostics.
    at: &'static str,
    /// The DWARF operations made so far by repeating a fragment
    /// ([`Lowerer::repeat`]).
    repeated: usize,
    /// The DIOp stack, as DWARF: each `lower_<op>` pops its operands (as
    /// `check_<op>`, `eval_<op>` and `encode_<op>` do) and returns the
    /// entry it pushes.
    stack: Vec<Frag>,
}

/// Lowers `expr` for `target`, with the inputs where `ctx` puts them.
pub fn lower(expr: &Expr, ctx: &dyn Context, target: Target) -> Result<Lowered, Diag> {
    let checked = check(expr, &ctx.signature())?;
    lower_checked(expr, &checked, ctx, target)
}

/// `lower` of an expression the caller has checked: `checked` is
/// `check(expr, &ctx.signature())`.
pub fn lower_checked(
    expr: &Expr,
    checked: &Checked,
    ctx: &dyn Context,
    target: Target,
) -> Result<Lowered, Diag> {
    let mut unit = Unit::default();
    let (ops, offset, bits) =
        lower_checked_in(expr, checked, ctx, target, &mut unit, &BTreeMap::new())?;
    Ok(Lowered {
        listing: Listing { ops, unit },
        offset,
        bits,
    })
}

/// Lowers `expr` as a code generator places its inputs: where `ctx` puts
/// them, or, when an input is in several places at once (which no DWARF
/// operation names), in its first place only. Returns the context the
/// lowering used.
pub fn lower_placed<'c>(
    expr: &Expr,
    ctx: &'c ConcreteContext,
    target: Target,
) -> (Cow<'c, ConcreteContext>, Result<Lowered, Diag>) {
    match check(expr, &ctx.signature()) {
        Ok(checked) => lower_placed_checked(expr, &checked, ctx, target),
        Err(d) => (Cow::Borrowed(ctx), Err(d)),
    }
}

/// `lower_placed` of an expression the caller has checked against `ctx`'s
/// signature (which placing the inputs does not change: it moves them,
/// not their types).
pub fn lower_placed_checked<'c>(
    expr: &Expr,
    checked: &Checked,
    ctx: &'c ConcreteContext,
    target: Target,
) -> (Cow<'c, ConcreteContext>, Result<Lowered, Diag>) {
    let lowered = lower_checked(expr, checked, ctx, target);
    if !matches!(&lowered, Err(d) if d.message.begins_with("multi-location-input")) {
        return (Cow::Borrowed(ctx), lowered);
    }
    let first = |i: &mut dioptra_semantics::context::Input| {
        i.loc = LocDesc::new(vec![i.loc.singles()[0].clone()]);
    };
    let mut c = ctx.clone();
    c.referrer.iter_mut().for_each(first);
    c.args.iter_mut().for_each(first);
    c.type_object.iter_mut().for_each(first);
    let lowered = lower_checked(expr, checked, &c, target);
    (Cow::Owned(c), lowered)
}

/// Lowers `expr` into `unit` (its base types and DIEs are shared, its DIE
/// offsets stay valid; on failure it is as it was); the inputs in `calls`
/// are the locations of DIEs, pushed by `DW_OP_call4` (a module's
/// argObjects, extensions only). Returns the ops, and the bit offset and
/// size of what they describe (as [`Lowered`]).
pub fn lower_in(
    expr: &Expr,
    ctx: &dyn Context,
    target: Target,
    unit: &mut Unit,
    calls: &BTreeMap<u32, u64>,
) -> Result<(Vec<DwarfOp>, u64, u64), Diag> {
    let checked = check(expr, &ctx.signature())?;
    lower_checked_in(expr, &checked, ctx, target, unit, calls)
}

/// `lower_in` of an expression `checked` against `ctx`'s signature.
fn lower_checked_in(
    expr: &Expr,
    checked: &Checked,
    ctx: &dyn Context,
    target: Target,
    unit: &mut Unit,
    calls: &BTreeMap<u32, u64>,
) -> Result<(Vec<DwarfOp>, u64, u64), Diag> {
    let start = unit.next_offset();
    let mut l = Lowerer {
        ctx,
        target,
        unit: std::mem::take(unit),
        calls,
        at: "DIExpr",
        repeated: 0,
        stack: Vec::with_capacity(expr.ops.len().min(STACK_ROOM)),
    };
    let r = lower_ops(&mut l, expr, checked);
    *unit = l.unit;
    if r.is_err() {
        unit.forget_from(start);
    }
    r
}

/// The body of [`lower_in`]: every op, then the final location or fragment.
fn lower_ops(
    l: &mut Lowerer,
    expr: &Expr,
    checked: &Checked,
) -> Result<(Vec<DwarfOp>, u64, u64), Diag> {
    for o in &expr.ops {
        l.at = o.name();
        let f = match o {
            Op::Referrer(t) => l.lower_referrer(t)?,
            Op::Arg(n, t) => l.lower_arg(*n, t)?,
            Op::TypeObject(t) => l.lower_type_object(t)?,
            Op::Constant(t, v) => l.lower_constant(t, v)?,
            Op::Convert(t) => l.lower_convert(t)?,
            Op::ZExt(t) => l.lower_zext(t)?,
            Op::SExt(t) => l.lower_sext(t)?,
            Op::Reinterpret(t) => l.lower_reinterpret(t)?,
            Op::BitOffset(t) => l.lower_bit_offset(t)?,
            Op::ByteOffset(t) => l.lower_byte_offset(t)?,
            Op::Composite(n, t) => l.lower_composite(*n, t)?,
            Op::Extend(n) => l.lower_extend(*n)?,
            Op::Select => l.lower_select()?,
            Op::AddrOf(n) => l.lower_addr_of(*n)?,
            Op::Deref(t) => l.lower_deref(t)?,
            Op::Read => l.lower_read()?,
            Op::Add => l.lower_add()?,
            Op::Sub => l.lower_sub()?,
            Op::Mul => l.lower_mul()?,
            Op::Div => l.lower_div()?,
            Op::LShr => l.lower_lshr()?,
            Op::AShr => l.lower_ashr()?,
            Op::Shl => l.lower_shl()?,
            Op::PushLane(t) => l.lower_push_lane(t)?,
            Op::Fragment(..) => continue, // lower_fragment, below
            Op::And => l.lower_and()?,
            Op::Or => l.lower_or()?,
            Op::Xor => l.lower_xor()?,
            Op::Mod => l.lower_mod()?,
        };
        l.stack.push(f);
    }
    l.at = "DIExpr";
    let bits = l.bits(&checked.result);
    let (ops, offset, bits) = match checked.fragment {
        Some((o, s)) => {
            l.at = "DIOpFragment";
            (l.lower_fragment(o, s)?, o, s)
        }
        None => {
            let result = l.pop()?;
            (l.final_location(result)?, 0, bits)
        }
    };
    Ok((ops.into_vec(), offset, bits))
}

impl Lowerer<'_> {
    /// The top of the DIOp stack (`check` has made sure there is one).
    fn pop(&mut self) -> Result<Frag, Diag> {
        self.stack.pop().ok_or_else(|| {
            Diag::eval(
                self.at,
                "internal-error",
                "stack underflow after a successful check",
            )
        })
    }

    fn bits(&self, t: &Type) -> u64 {
        self.ctx.layout().bitsizeof(t)
    }
    fn amd_only(&self, why: &'static str, msg: &'static str) -> Result<(), Diag> {
        if self.target == Target::Dwarf5 {
            // Written when read: a law lowering every case for plain DWARF
            // 5 only counts it.
            return Err(Diag::unsupported(
                self.at,
                "not-expressible",
                Message::joined(why, msg),
            ));
        }
        Ok(())
    }

    /// How a value of type `t` is held on the DWARF stack: generic, as a
    /// wide integer base type, or as a floating-point base type. A base
    /// type of more than 255 bytes is not expressible: DWARF 5's typed
    /// operations (`DW_OP_const_type`, `DW_OP_deref_type`) give the size in
    /// one byte.
    fn repr(&mut self, t: &Type) -> Result<Repr, Diag> {
        let w = self.bits(t);
        if w.div_ceil(8) > 255 {
            return Err(not_expressible(
                self.at,
                "value-too-wide",
                format!("a {w}-bit `{t}` value: DWARF 5's typed operations hold at most 255 bytes"),
            ));
        }
        let float = |l: &mut Self, bytes: u64, name: &str| Repr::Float {
            bytes,
            die: l.unit.base_type(c::DW_ATE_float, bytes, name),
        };
        Ok(match t {
            Type::Half => float(self, 2, "half"),
            Type::BFloat => float(self, 2, "__bf16"),
            Type::Float => float(self, 4, "float"),
            Type::Double => float(self, 8, "double"),
            // The names gdb reads as these formats (D-dwarf-wide-floats).
            Type::X86Fp80 => float(self, 10, "__float80"),
            Type::Fp128 => float(self, 16, "__float128"),
            // DECISION (D-dwarf-wide-floats): no DWARF base type is read as
            // a double-double on every consumer (a 16-byte float is x87 on
            // x86-64 gdb), so a `ppc_fp128` value has no typed DWARF form.
            Type::PpcFp128 => {
                return Err(not_expressible(
                    self.at,
                    "float-format",
                    "a `ppc_fp128` value: no DWARF base type is read as a double-double by every consumer",
                ))
            }
            _ if w <= 64 => Repr::Generic { w },
            _ => {
                let bytes = w.div_ceil(8);
                let u = self.unsigned_die(bytes);
                let s = self.signed_die(bytes);
                Repr::Wide { w, bytes, u, s }
            }
        })
    }

    /// An unsigned base type of `bytes` bytes.
    fn unsigned_die(&mut self, bytes: u64) -> u64 {
        self.unit
            .base_type(c::DW_ATE_unsigned, bytes, &int_type_name('u', bytes))
    }
    fn signed_die(&mut self, bytes: u64) -> u64 {
        self.unit
            .base_type(c::DW_ATE_signed, bytes, &int_type_name('s', bytes))
    }

    /// A constant in a representation, with room for the ops that follow
    /// it in most code (a `DW_OP_stack_value`, an operation): made with
    /// room for one, the code grew at its next op.
    fn konst_code(&mut self, r: Repr, b: &Bits) -> Vec<DwarfOp> {
        let mut v = Vec::with_capacity(4);
        v.push(match r {
            Repr::Generic { .. } => constu(b.low_u64()),
            Repr::Wide { bytes, u: die, .. } | Repr::Float { bytes, die } => {
                let le = b.to_le_bytes(bytes as usize);
                DwarfOp::with(
                    c::DW_OP_const_type,
                    [Operand::Uleb(die), Operand::Block(le)],
                )
            }
        });
        v
    }

    /// Keeps the low `w` bits of an integer representation.
    fn mask(&mut self, r: Repr) -> Vec<DwarfOp> {
        match r {
            Repr::Generic { w } if w < 64 => vec![
                constu(if w == 0 { 0 } else { u64::MAX >> (64 - w) }),
                op(c::DW_OP_and),
            ],
            Repr::Wide { w, bytes, .. } if w < bytes * 8 => {
                let m = Bits::from_bigint(w, &BigInt::from(-1));
                let mut v = self.konst_code(r, &m);
                v.push(op(c::DW_OP_and));
                v
            }
            _ => Vec::new(),
        }
    }

    /// Sign-extends the low `w` bits to the whole representation.
    fn sext(&mut self, r: Repr) -> Vec<DwarfOp> {
        let (w, total) = match r {
            Repr::Generic { w } => (w, 64),
            Repr::Wide { w, bytes, .. } => (w, bytes * 8),
            Repr::Float { .. } => return Vec::new(),
        };
        if w == total {
            return Vec::new();
        }
        let s = Bits::from_u64(total, total - w);
        let mut k = self.konst_code(r, &s);
        let mut v = k.clone();
        v.push(op(c::DW_OP_shl));
        v.append(&mut k);
        v.push(op(c::DW_OP_shra));
        v
    }

    /// A generic value holding the bits of a value of `r` (floats of up to 8
    /// bytes): the reverse of [`Self::generic_to`].
    fn generic_of(&mut self, r: Repr) -> Vec<DwarfOp> {
        match r {
            Repr::Float { bytes: 8, .. } => vec![with(c::DW_OP_reinterpret, 0)],
            Repr::Float { bytes, .. } => {
                let u = self.unsigned_die(bytes);
                vec![with(c::DW_OP_reinterpret, u), with(c::DW_OP_convert, 0)]
            }
            _ => Vec::new(),
        }
    }
    /// A value of `r` from a generic value holding its bits.
    fn generic_to(&mut self, r: Repr) -> Vec<DwarfOp> {
        match r {
            Repr::Float { bytes: 8, die } => vec![with(c::DW_OP_reinterpret, die)],
            Repr::Float { bytes, die } => {
                let u = self.unsigned_die(bytes);
                vec![with(c::DW_OP_convert, u), with(c::DW_OP_reinterpret, die)]
            }
            _ => Vec::new(),
        }
    }

    /// Reads a value of `t` from the location or address on top of the stack
    /// (`bit`: the bit offset an address carries).
    fn read_ops(&mut self, t: &Type, at_location: bool, bit: u64) -> Result<Vec<DwarfOp>, Diag> {
        let r = self.repr(t)?;
        let w = self.bits(t);
        if bit != 0 {
            let k = (bit + w).div_ceil(8);
            if let (Repr::Generic { .. }, true) = (r, k <= 8) {
                // `DW_OP_deref_size` takes a 1-byte operand (found by the gdb
                // harness: `with` gave a ULEB operand that does not encode).
                let mut v = vec![
                    DwarfOp::with(c::DW_OP_deref_size, [Operand::U(k)]),
                    constu(bit),
                    op(c::DW_OP_shr),
                ];
                v.extend(self.mask(r));
                return Ok(v);
            }
            self.amd_only(
                "unaligned-wide-read",
                "a value that is not byte aligned and spans more than 8 bytes",
            )?;
            let mut v = vec![consts(bit as i64), amd(AmdOp::BitOffset)];
            v.extend(self.read_ops(t, true, 0)?);
            return Ok(v);
        }
        let bytes = w.div_ceil(8);
        let mut v = Vec::new();
        if at_location && !w.is_multiple_of(8) {
            // Exactly `w` bits: a composite of the location's first `w` bits
            // and zero bits up to the byte, so reading whole bytes cannot run
            // past the end of the storage where `read(L, T)` would not.
            v.extend([
                DwarfOp::with(c::DW_OP_bit_piece, [Operand::Uleb(w), Operand::Uleb(0)]),
                constu(0),
                op(c::DW_OP_stack_value),
                DwarfOp::with(
                    c::DW_OP_bit_piece,
                    [Operand::Uleb(bytes * 8 - w), Operand::Uleb(0)],
                ),
                amd(AmdOp::PieceEnd),
            ]);
        }
        match r {
            Repr::Generic { .. } => {
                // deref_size zero-extends: whole bytes need no mask.
                v.push(DwarfOp::with(c::DW_OP_deref_size, [Operand::U(bytes)]));
                if !w.is_multiple_of(8) {
                    v.extend(self.mask(r));
                }
            }
            Repr::Wide { u, .. } => {
                v.push(DwarfOp::with(
                    c::DW_OP_deref_type,
                    [Operand::U(bytes), Operand::Uleb(u)],
                ));
                v.extend(self.mask(r));
            }
            Repr::Float { bytes, die } => v.push(DwarfOp::with(
                c::DW_OP_deref_type,
                [Operand::U(bytes), Operand::Uleb(die)],
            )),
        }
        Ok(v)
    }

    /// The value of a composite, an implicit pointer or a computed
    /// location: read back from its location (extensions only).
    fn read_back(&mut self, f: Frag) -> Result<Code, Diag> {
        self.amd_only(
            "read-of-composite",
            "plain DWARF 5 cannot read a value back from a composite or implicit pointer",
        )?;
        let ty = f.ty.clone();
        let mut v = self.location(f)?;
        v.extend(self.read_ops(&ty, true, 0)?);
        Ok(v)
    }

    /// DWARF that pushes `read(L, T)` of a fragment. The fragment is used
    /// up: a value's or an address's code is moved, not copied (copying made
    /// a chain of N ops cost N^2/2).
    fn value(&mut self, f: Frag) -> Result<Code, Diag> {
        let Frag { ty, form, .. } = f;
        match form {
            Form::Value(code) => Ok(code),
            Form::Address {
                aspace,
                code: mut v,
                bit,
            } => {
                if aspace != 0 {
                    if self.target == Target::Dwarf5 {
                        // DW_OP_xderef*: address space below the address.
                        v.push_front(constu(aspace as u64));
                        let r = self.repr(&ty)?;
                        let w = self.bits(&ty);
                        let k = (bit + w).div_ceil(8);
                        match r {
                            Repr::Generic { .. } if k <= 8 => {
                                v.push(DwarfOp::with(c::DW_OP_xderef_size, [Operand::U(k)]));
                                if bit != 0 {
                                    v.extend([constu(bit), op(c::DW_OP_shr)]);
                                }
                                v.extend(self.mask(r));
                            }
                            Repr::Float { bytes, die } if bit == 0 => v.push(DwarfOp::with(
                                c::DW_OP_xderef_type,
                                [Operand::U(bytes), Operand::Uleb(die)],
                            )),
                            _ => {
                                return Err(not_expressible(
                                    self.at,
                                    "wide-read-in-address-space",
                                    "a read of more than 8 bytes from a non-default address space",
                                ))
                            }
                        }
                        return Ok(v);
                    }
                    v.extend([constu(aspace as u64), amd(AmdOp::FormAspaceAddress)]);
                }
                v.extend(self.read_ops(&ty, false, bit)?);
                Ok(v)
            }
            Form::Register { n, offset } => {
                if self.target == Target::Amdgpu {
                    // Exactly the value's bits: the register location, moved.
                    let mut v = self.location(Frag {
                        ty: ty.clone(),
                        form: Form::Register { n, offset },
                        known_value: None,
                    })?;
                    v.extend(self.read_ops(&ty, true, 0)?);
                    return Ok(v);
                }
                // DECISION (D-lower-register-value): plain DWARF 5 reads a
                // register's value from bit 0 (DW_OP_regval_type), so a value
                // at a bit offset within a register is not expressible, and
                // one at offset 0 is read with a base type of just its bytes
                // (DW_OP_bregx would read all 8 bytes, and fail where bytes
                // the value does not use are undefined).
                if offset != 0 {
                    return Err(not_expressible(
                        self.at,
                        "register-sub-value",
                        "plain DWARF 5 reads register values from bit 0",
                    ));
                }
                let r = self.repr(&ty)?;
                let w = self.bits(&ty);
                let bytes = w.div_ceil(8);
                Ok(match r {
                    Repr::Float { die, .. } => Code::from([regval(n, die)]),
                    Repr::Wide { u, .. } => {
                        let mut v = Code::from([regval(n, u)]);
                        v.extend(self.mask(r));
                        v
                    }
                    Repr::Generic { .. } => {
                        let u = self.unsigned_die(bytes);
                        let mut v = Code::from([regval(n, u), with(c::DW_OP_convert, 0)]);
                        if !w.is_multiple_of(8) {
                            v.extend(self.mask(r));
                        }
                        v
                    }
                })
            }
            Form::Undefined => {
                self.amd_only(
                    "read-of-undefined",
                    "the expression reads the undefined location",
                )?;
                let mut v = Code::from([amd(AmdOp::Undefined)]);
                v.extend(self.read_ops(&ty, true, 0)?);
                Ok(v)
            }
            form @ (Form::Composite(_) | Form::ImplicitAddress { .. } | Form::Location(_)) => self
                .read_back(Frag {
                    ty,
                    form,
                    known_value: None,
                }),
        }
    }

    /// DWARF (extensions) that pushes the fragment's location description.
    /// The fragment is used up: its code is moved into the DWARF, not
    /// copied (a caller that keeps the fragment passes a copy).
    fn location(&mut self, f: Frag) -> Result<Code, Diag> {
        Ok(match f.form {
            Form::Value(mut v) => {
                v.push(op(c::DW_OP_stack_value));
                v
            }
            Form::Address {
                aspace,
                code: mut v,
                bit,
            } => {
                if aspace != 0 {
                    v.extend([constu(aspace as u64), amd(AmdOp::FormAspaceAddress)]);
                }
                if bit != 0 {
                    v.extend([constu(bit), amd(AmdOp::BitOffset)]);
                }
                v
            }
            Form::Register { n, offset } => {
                let mut v = Code::from([reg(n)]);
                v.extend(offset_ops(offset as i64));
                v
            }
            Form::Undefined => Code::from([amd(AmdOp::Undefined)]),
            Form::Composite(parts) => {
                let bits: Vec<u64> = parts.iter().map(|(b, _)| *b).collect();
                let codes = parts
                    .into_iter()
                    .map(|(_, p)| self.location(p))
                    .collect::<Result<Vec<_>, _>>()?;
                let nested = codes.iter().skip(1).any(|c| c.iter().any(is_piece));
                // Room for the parts, a piece or pick each, and the end.
                let ops = codes.iter().map(Code::len).sum::<usize>();
                let mut v = Code::with_capacity(ops + 4 * codes.len() + 1);
                if !nested {
                    for (bits, code) in bits.iter().zip(codes) {
                        v.append(code);
                        v.push(piece(*bits, 0));
                    }
                } else {
                    // A part builds a composite of its own: push every part
                    // first, so no incomplete composite is on the stack while
                    // a part runs, then pick them in order.
                    let n = codes.len() as u64;
                    for code in codes {
                        v.append(code);
                    }
                    for (i, bits) in bits.iter().enumerate() {
                        let depth = if i == 0 { n - 1 } else { n - i as u64 };
                        v.push(DwarfOp::with(c::DW_OP_pick, [Operand::U(depth)]));
                        v.push(piece(*bits, 0));
                    }
                    v.push(amd(AmdOp::PieceEnd));
                    for _ in 0..n {
                        v.extend([op(c::DW_OP_swap), op(c::DW_OP_drop)]);
                    }
                    return Ok(v);
                }
                v.push(amd(AmdOp::PieceEnd));
                v
            }
            Form::ImplicitAddress {
                target,
                aspace,
                bits,
            } => {
                if aspace != 0 || bits != 64 {
                    return Err(not_expressible(
                        "DIOpAddrOf",
                        "aspace-implicit-pointer",
                        "an implicit pointer outside address space 0 needs DW_OP_LLVM_aspace_implicit_pointer, which has no encoding yet",
                    ));
                }
                let ops = self.pointee_location(*target)?;
                let die = self.unit.add_die(DieKind::Variable, ops.into_vec());
                Code::from([DwarfOp::with(
                    c::DW_OP_implicit_pointer,
                    [Operand::U(die), Operand::S(0)],
                )])
            }
            Form::Location(code) => code,
        })
    }

    /// The location an implicit pointer's DIE has: the target's location,
    /// but a generic value of `w < 64` bits (a whole number of bytes) is
    /// converted to a `w`-bit base type before `DW_OP_stack_value`, so the
    /// implicit value is `w` bits wide as the reference's is: an implicit
    /// address refers to its target structurally (D-address-identity), and
    /// a 64-bit stack value is a different storage. (Found by `lower-table`:
    /// `DIOpArg(0, i8), DIOpAddrOf(0)` with the input an implicit value.)
    fn pointee_location(&mut self, f: Frag) -> Result<Code, Diag> {
        let w = self.bits(&f.ty);
        if let (Form::Value(code), Repr::Generic { .. }) = (&f.form, self.repr(&f.ty)?) {
            if w < 64 && w.is_multiple_of(8) {
                let die = self.unsigned_die(w / 8);
                let mut v = code.clone();
                v.push(DwarfOp::with(c::DW_OP_convert, [Operand::Uleb(die)]));
                v.push(op(c::DW_OP_stack_value));
                return Ok(v);
            }
        }
        self.final_location(f)
    }

    /// The whole expression's location, as the end of the expression.
    fn final_location(&mut self, f: Frag) -> Result<Code, Diag> {
        if self.target == Target::Amdgpu {
            return match f.form {
                // The conventional DWARF 5 spellings, which mean the same.
                Form::Undefined => Ok(Code::new()),
                Form::Composite(parts) => {
                    let w = self.bits(&f.ty);
                    self.pieces(object_sized(parts, w))
                }
                _ => self.location(f),
            };
        }
        let w = self.bits(&f.ty);
        match f.form {
            Form::Value(mut code) => {
                code.push(op(c::DW_OP_stack_value));
                Ok(code)
            }
            Form::Address {
                aspace: 0,
                code,
                bit: 0,
            } => Ok(code),
            Form::Register { n, offset: 0 } => Ok(Code::from([reg(n)])),
            Form::Undefined => Ok(Code::new()),
            Form::Composite(parts) => self.pieces(object_sized(parts, w)),
            Form::ImplicitAddress { .. } => self.location(f),
            Form::Address { aspace: 0, .. } | Form::Register { .. } => self.pieces(vec![(w, f)]),
            Form::Address { .. } => Err(not_expressible(
                self.at,
                "address-space",
                "plain DWARF 5 has memory locations in the default address space only",
            )),
            Form::Location(_) => Err(not_expressible(
                self.at,
                "location-on-stack",
                "the location is computed with operations plain DWARF 5 does not have",
            )),
        }
    }

    /// A top-level composite: each part's location then its piece.
    fn pieces(&mut self, parts: Vec<(u64, Frag)>) -> Result<Code, Diag> {
        let mut flat = Vec::with_capacity(parts.len());
        flatten(parts, &mut flat);
        // Room for a part's location and its piece, most of them: growing
        // from empty copied the code three or four times a composite.
        let mut v = Code::with_capacity(3 * flat.len());
        for (bits, p) in flat {
            match (p.form, self.target) {
                (Form::Register { n, offset }, _) => {
                    v.push(reg(n));
                    v.push(piece(bits, offset));
                }
                (
                    Form::Address {
                        aspace: 0,
                        code,
                        bit,
                    },
                    _,
                ) => {
                    v.append(code);
                    v.push(piece(bits, bit));
                }
                (Form::Undefined, _) => v.push(piece(bits, 0)),
                (Form::Composite(_), Target::Dwarf5) => {
                    return Err(not_expressible(
                        self.at,
                        "nested-composite",
                        "a composite part whose size is not its composite's",
                    ))
                }
                (form, Target::Dwarf5) => {
                    v.append(self.final_location(Frag { form, ..p })?);
                    v.push(piece(bits, 0));
                }
                (form, Target::Amdgpu) => {
                    let code = self.location(Frag { form, ..p })?;
                    if !v.is_empty() && code.iter().any(is_piece) {
                        // The part builds a composite of its own while this
                        // one is incomplete on the stack: its first piece
                        // would be appended here. A value pushed underneath
                        // separates them, and is dropped afterwards.
                        v.push(op(c::DW_OP_lit0));
                        v.append(code);
                        v.extend([op(c::DW_OP_swap), op(c::DW_OP_drop)]);
                    } else {
                        v.append(code);
                    }
                    v.push(piece(bits, 0));
                }
            }
        }
        Ok(v)
    }

    /// A fragment from an input's location in the context.
    fn input_frag(&mut self, loc: &LocDesc, ty: &Type) -> Result<Frag, Diag> {
        let [s] = loc.singles() else {
            return Err(not_expressible(
                self.at,
                "multi-location-input",
                "an input in several places at once (a location list, not one expression)",
            ));
        };
        let frag = |form| Frag {
            ty: ty.clone(),
            form,
            known_value: None,
        };
        // A memory location's bit offset is its address times 8, up to
        // 2^67: kept whole (truncating it to 64 bits lost the address's top
        // three bits, so an input at 0xfffffffffffffffd became
        // `DW_OP_addr 0x1ffffffffffffffd`). Other storages are far smaller.
        let too_large = || {
            not_expressible(
                self.at,
                "offset-too-large",
                format!("an input at bit {} of its storage", s.offset),
            )
        };
        if let Storage::Memory { addrspace } = &*s.storage {
            let a = u64::try_from(s.offset / 8).map_err(|_| too_large())?;
            let code = if *addrspace == 0 {
                vec![DwarfOp::with(c::DW_OP_addr, [Operand::U(a)])]
            } else {
                vec![constu(a)]
            };
            return Ok(frag(Form::Address {
                aspace: *addrspace,
                code: code.into(),
                bit: (s.offset % 8) as u64,
            }));
        }
        let off = u64::try_from(s.offset)
            .ok()
            .filter(|&o| i64::try_from(o).is_ok())
            .ok_or_else(too_large)?;
        Ok(match &*s.storage {
            Storage::Memory { .. } => unreachable!("lowered above"),
            Storage::Register { number } => frag(Form::Register {
                n: *number,
                offset: off,
            }),
            Storage::Implicit(b) if off == 0 && b.width() == self.bits(ty) => {
                let r = self.repr(ty)?;
                Frag {
                    ty: ty.clone(),
                    form: Form::Value(self.konst_code(r, b).into()),
                    known_value: Some(b.clone()),
                }
            }
            Storage::Implicit(b) => {
                self.amd_only(
                    "implicit-input-width",
                    "an input whose implicit value is not the width of its type",
                )?;
                let bytes = b.width().div_ceil(8);
                let le = b.to_le_bytes(bytes as usize);
                let mut v = vec![DwarfOp::with(c::DW_OP_implicit_value, [Operand::Block(le)])];
                if b.width() % 8 != 0 {
                    v.extend([piece(b.width(), 0), amd(AmdOp::PieceEnd)]);
                }
                v.extend(offset_ops(off as i64));
                frag(Form::Location(v.into()))
            }
            Storage::Undefined => frag(Form::Undefined),
            Storage::Composite { parts, .. } => {
                let mut fs = Vec::new();
                for p in parts {
                    fs.push((p.bits, self.input_frag(&p.loc, &Type::Int(p.bits.max(1)))?));
                }
                let whole = frag(Form::Composite(fs));
                self.offset_const(whole, off as i64)?
            }
            Storage::ImplicitAddress {
                addrspace,
                bits,
                target,
                ..
            } if off == 0 => {
                let t = Type::Int(8);
                let f = self.input_frag(target, &t)?;
                frag(Form::ImplicitAddress {
                    target: Box::new(f),
                    aspace: *addrspace,
                    bits: *bits,
                })
            }
            Storage::ImplicitAddress { .. } => {
                return Err(not_expressible(
                    self.at,
                    "implicit-pointer-offset",
                    "an offset into an implicit address has no DWARF form",
                ))
            }
            Storage::Entity { name, .. } => {
                return Err(Diag::unsupported(
                    self.at,
                    "entity-not-bound",
                    format!("`{name}` has no location in the context"),
                ))
            }
        })
    }

    /// The fragment moved by a constant number of bits.
    fn offset_const(&mut self, f: Frag, d: i64) -> Result<Frag, Diag> {
        if d == 0 {
            return Ok(f);
        }
        let ty = f.ty.clone();
        let form = match f.form {
            Form::Address {
                aspace,
                mut code,
                bit,
            } => {
                let total = (bit as i64)
                    .checked_add(d)
                    .ok_or_else(|| self.too_large())?;
                let (bytes, bit) = (total.div_euclid(8), total.rem_euclid(8) as u64);
                if bytes > 0 {
                    code.push(with(c::DW_OP_plus_uconst, bytes as u64));
                } else if bytes < 0 {
                    code.extend([constu(bytes.unsigned_abs()), op(c::DW_OP_minus)]);
                }
                Form::Address { aspace, code, bit }
            }
            Form::Register { n, offset } => {
                let size = self.ctx.register_bits(n);
                let new = i64::try_from(offset)
                    .ok()
                    .and_then(|o| o.checked_add(d))
                    .ok_or_else(|| self.too_large())?;
                match size {
                    Some(size) if new >= 0 && new as u64 <= size => Form::Register {
                        n,
                        offset: new as u64,
                    },
                    _ => {
                        self.amd_only("offset-outside-register", "the offset leaves the register")?;
                        let mut v = vec![reg(n)];
                        v.extend(offset_ops(new));
                        Form::Location(v.into())
                    }
                }
            }
            Form::Undefined => Form::Undefined,
            Form::Composite(parts) if d > 0 && self.target == Target::Dwarf5 => {
                // Drop the first `d` bits.
                let mut out = Vec::new();
                let mut start = 0i64;
                for (bits, p) in parts {
                    let end = start.saturating_add(i64::try_from(bits).unwrap_or(i64::MAX));
                    if end > d {
                        let skip = (d - start).max(0);
                        out.push(((end - start - skip) as u64, self.offset_const(p, skip)?));
                    }
                    start = end;
                }
                if start < d {
                    return Err(not_expressible(
                        self.at,
                        "offset-outside-composite",
                        "the offset leaves the composite",
                    ));
                }
                Form::Composite(out)
            }
            form => {
                self.amd_only(
                    "offset-into-value",
                    "moving into an implicit value or composite",
                )?;
                let mut v = self.location(Frag {
                    ty: ty.clone(),
                    form,
                    known_value: None,
                })?;
                v.extend(offset_ops(d));
                Form::Location(v)
            }
        };
        Ok(Frag {
            ty,
            form,
            known_value: None,
        })
    }

    /// Counts `times` copies of `f` against `MAX_REPEATED_DWARF_OPS`:
    /// repeating fragments is the one way a lowering's DWARF can grow
    /// faster than its expression (`DIOpExtend(65536)` of the code of
    /// 40 000 additions asked for 2.9 GB and aborted).
    fn repeat(&mut self, f: &Frag, times: u64) -> Result<(), Diag> {
        let more = (f.ops() as u64).saturating_mul(times);
        self.repeated = self
            .repeated
            .saturating_add(usize::try_from(more).unwrap_or(usize::MAX));
        if self.repeated > MAX_REPEATED_DWARF_OPS {
            return Err(Diag::unsupported(
                self.at,
                "limit-exceeded",
                format!(
                    "plain DWARF 5 repeats a location per element here, and this lowering's repeated locations hold more than {MAX_REPEATED_DWARF_OPS} operations"
                ),
            ));
        }
        Ok(())
    }

    fn too_large(&self) -> Diag {
        not_expressible(self.at, "too-large", "an offset past 2^63 bits")
    }

    fn value_frag(&self, ty: &Type, code: Code) -> Frag {
        Frag {
            ty: ty.clone(),
            form: Form::Value(code),
            known_value: None,
        }
    }

    /// The integer representation of an integral or pointer type.
    fn int_repr(&mut self, t: &Type) -> Result<Repr, Diag> {
        match self.repr(t)? {
            Repr::Float { .. } => Err(Diag::eval(
                self.at,
                "internal-error",
                "integer op on a float",
            )),
            r => Ok(r),
        }
    }

    // ---- one lower_<op> per op, in the order of check_<op> and eval_<op> ----

    /// `DIOpReferrer(T)`: the referrer's location, where the context puts it.
    fn lower_referrer(&mut self, t: &Type) -> Result<Frag, Diag> {
        let ctx = self.ctx;
        let r = ctx.referrer().ok_or_else(|| {
            Diag::eval(
                self.at,
                "internal-error",
                "no referrer after a successful check",
            )
        })?;
        self.input_frag(&r.loc, t)
    }

    /// `DIOpArg(N, T)`: input `N`'s location, where the context puts it.
    fn lower_arg(&mut self, n: u32, t: &Type) -> Result<Frag, Diag> {
        if let Some(&die) = self.calls.get(&n) {
            self.amd_only(
                "call-of-location",
                "plain DWARF 5 has no call that pushes a location description",
            )?;
            return Ok(Frag {
                ty: t.clone(),
                form: Form::Location(Code::from([DwarfOp::with(
                    c::DW_OP_call4,
                    [Operand::U(die)],
                )])),
                known_value: None,
            });
        }
        let ctx = self.ctx;
        let i = ctx.args().get(n as usize).ok_or_else(|| {
            Diag::eval(
                self.at,
                "internal-error",
                "missing input after a successful check",
            )
        })?;
        self.input_frag(&i.loc, t)
    }

    /// `DIOpTypeObject(T)`: `DW_OP_push_object_address`, the object whose
    /// type property is evaluated. Plain DWARF 5 pushes its address, so the
    /// object must be in memory (address space 0, whole bytes). The
    /// extensions push its location description, which is never used as a
    /// value: for `amdgpu` the object stays a location wherever it is, so the
    /// output means the same under both readings (D-dwarf-object-address).
    fn lower_type_object(&mut self, t: &Type) -> Result<Frag, Diag> {
        let code = vec![op(c::DW_OP_push_object_address)];
        let in_memory = self.ctx.type_object().is_some_and(|o| {
            matches!(o.loc.singles(), [s] if matches!(*s.storage, Storage::Memory { addrspace: 0 }) && s.offset % 8 == 0)
        });
        let form = if in_memory && self.target == Target::Dwarf5 {
            Form::Address {
                aspace: 0,
                code: code.into(),
                bit: 0,
            }
        } else {
            self.amd_only(
                "object-not-in-memory",
                "DW_OP_push_object_address pushes an address in plain DWARF 5",
            )?;
            Form::Location(code.into())
        };
        Ok(Frag {
            ty: t.clone(),
            form,
            known_value: None,
        })
    }

    /// `DIOpConstant(T V)`: a generic constant, `DW_OP_const_type` for
    /// floating point and wide types; `undef` is the undefined location.
    fn lower_constant(
        &mut self,
        t: &Type,
        v: &dioptra_semantics::syntax::Literal,
    ) -> Result<Frag, Diag> {
        match literal_bits(t, v, self.ctx.layout())? {
            None => Ok(Frag {
                ty: t.clone(),
                form: Form::Undefined,
                known_value: None,
            }),
            Some(b) => {
                let r = self.repr(t)?;
                let code = self.konst_code(r, &b);
                Ok(Frag {
                    ty: t.clone(),
                    form: Form::Value(code.into()),
                    known_value: Some(b),
                })
            }
        }
    }

    /// `DIOpConvert(T')`: `DW_OP_convert` through signed base types for the
    /// conversions between integers and floating point (D-convert-semantics).
    fn lower_convert(&mut self, to: &Type) -> Result<Frag, Diag> {
        let f = self.pop()?;
        let ty = f.ty.clone();
        let mut v = self.value(f)?;
        let (r, r2) = (self.repr(&ty)?, self.repr(to)?);
        match (r, r2) {
            (Repr::Float { .. }, Repr::Float { die, .. }) => v.push(with(c::DW_OP_convert, die)),
            (Repr::Float { .. }, _) => {
                let w2 = self.bits(to);
                let bytes = w2.div_ceil(8);
                let s = self.signed_die(bytes);
                let u = self.unsigned_die(bytes);
                v.push(with(c::DW_OP_convert, s));
                v.push(with(c::DW_OP_reinterpret, u));
                if let Repr::Generic { .. } = r2 {
                    v.push(with(c::DW_OP_convert, 0));
                } else if let Repr::Wide { u: u2, .. } = r2 {
                    if u2 != u {
                        v.push(with(c::DW_OP_convert, u2));
                    }
                }
                v.extend(self.mask(r2));
            }
            (_, Repr::Float { die, .. }) => {
                v.extend(self.sext(r));
                v.extend(self.signed_for_convert(r));
                v.push(with(c::DW_OP_convert, die));
            }
            _ => {
                v.extend(self.change_int_repr(r, r2));
                v.extend(self.mask(r2));
            }
        }
        Ok(self.value_frag(to, v))
    }

    /// `DIOpZExt(T')`: the value is kept zero-extended, so only the
    /// representation may change.
    fn lower_zext(&mut self, to: &Type) -> Result<Frag, Diag> {
        let f = self.pop()?;
        let ty = f.ty.clone();
        let mut v = self.value(f)?;
        let (r, r2) = (self.int_repr(&ty)?, self.int_repr(to)?);
        v.extend(self.change_int_repr(r, r2));
        Ok(self.value_frag(to, v))
    }

    /// `DIOpSExt(T')`: sign-extend to the representation, change it, mask.
    fn lower_sext(&mut self, to: &Type) -> Result<Frag, Diag> {
        let f = self.pop()?;
        let ty = f.ty.clone();
        let mut v = self.value(f)?;
        let (r, r2) = (self.int_repr(&ty)?, self.int_repr(to)?);
        v.extend(self.sext(r));
        if r.bits() != r2.bits() {
            v.extend(self.signed_for_convert(r));
            let target = match r2 {
                Repr::Wide { u, .. } => u,
                _ => 0,
            };
            v.push(with(c::DW_OP_convert, target));
        }
        v.extend(self.mask(r2));
        Ok(self.value_frag(to, v))
    }

    /// `DIOpReinterpret(T')`: the location is unchanged; a value changes
    /// representation without changing bits.
    fn lower_reinterpret(&mut self, to: &Type) -> Result<Frag, Diag> {
        let f = self.pop()?;
        let Form::Value(mut v) = f.form else {
            return Ok(Frag {
                ty: to.clone(),
                form: f.form,
                known_value: None,
            });
        };
        let (r, r2) = (self.repr(&f.ty)?, self.repr(to)?);
        if r != r2 {
            match (r, r2) {
                (Repr::Wide { .. }, Repr::Wide { .. }) => {}
                (Repr::Float { .. }, Repr::Wide { u, .. })
                | (Repr::Wide { u, .. }, Repr::Float { .. })
                    if matches!(r2, Repr::Wide { .. }) =>
                {
                    v.push(with(c::DW_OP_reinterpret, u))
                }
                (Repr::Wide { .. }, Repr::Float { die, .. }) => {
                    v.push(with(c::DW_OP_reinterpret, die))
                }
                _ => {
                    v.extend(self.generic_of(r));
                    v.extend(self.generic_to(r2));
                }
            }
        }
        Ok(Frag {
            ty: to.clone(),
            form: Form::Value(v),
            known_value: f.known_value,
        })
    }

    /// `DIOpBitOffset(T')`: a constant offset moves the static location;
    /// otherwise `DW_OP_LLVM_bit_offset` (extensions only).
    fn lower_bit_offset(&mut self, to: &Type) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let l = self.pop()?;
        self.offset_by(l, b, to, 1)
    }

    /// `DIOpByteOffset(T')`: as `DIOpBitOffset` with `B * 8`; a byte offset
    /// of memory is address arithmetic, which plain DWARF 5 has.
    fn lower_byte_offset(&mut self, to: &Type) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let l = self.pop()?;
        self.offset_by(l, b, to, 8)
    }

    fn offset_by(&mut self, l: Frag, b: Frag, to: &Type, scale: i64) -> Result<Frag, Diag> {
        if let Some(k) = b.known_value.as_ref().and_then(|k| k.signed().to_i64()) {
            if let Some(d) = k.checked_mul(scale) {
                let f = self.offset_const(l, d)?;
                return self.retype(f, to);
            }
        }
        let r = self.int_repr(&b.ty)?;
        if !matches!(r, Repr::Generic { .. }) {
            return Err(not_expressible(
                self.at,
                "wide-offset",
                "an offset wider than the address size",
            ));
        }
        let mut delta = self.value(b)?;
        delta.extend(self.sext(r));
        let form = match l.form {
            Form::Address {
                aspace,
                mut code,
                bit: 0,
            } if scale == 8 => {
                code.append(delta);
                code.push(op(c::DW_OP_plus));
                Form::Address {
                    aspace,
                    code,
                    bit: 0,
                }
            }
            form => {
                self.amd_only(
                    "dynamic-offset",
                    "an offset known only at run time into a location that is not a memory address",
                )?;
                let mut v = self.location(Frag {
                    ty: l.ty.clone(),
                    form,
                    known_value: None,
                })?;
                v.append(delta);
                v.push(amd(if scale == 8 {
                    AmdOp::Offset
                } else {
                    AmdOp::BitOffset
                }));
                Form::Location(v)
            }
        };
        Ok(Frag {
            ty: to.clone(),
            form,
            known_value: None,
        })
    }

    /// `DIOpComposite(N, T)`: pieces, `LN` (pushed first) at offset 0.
    fn lower_composite(&mut self, n: u32, t: &Type) -> Result<Frag, Diag> {
        let mut parts = Vec::with_capacity(self.stack.len().min(n as usize));
        for _ in 0..n {
            let p = self.pop()?;
            parts.push((self.bits(&p.ty), p));
        }
        parts.reverse();
        Ok(Frag {
            ty: t.clone(),
            form: Form::Composite(parts),
            known_value: None,
        })
    }

    /// `DIOpExtend(N)`: `DW_OP_LLVM_extend`; in plain DWARF 5, `N` pieces of
    /// the same location.
    fn lower_extend(&mut self, n: u32) -> Result<Frag, Diag> {
        let f = self.pop()?;
        let bits = self.bits(&f.ty);
        let ty = Type::Vector {
            count: n as u64,
            elem: std::sync::Arc::new(f.ty.clone()),
        };
        let form = if self.target == Target::Amdgpu {
            let mut v = self.location(f)?;
            v.push(amd2(AmdOp::Extend, bits, n as u64));
            Form::Location(v)
        } else {
            self.repeat(&f, n.into())?;
            Form::Composite((0..n).map(|_| (bits, f.clone())).collect())
        };
        Ok(Frag {
            ty,
            form,
            known_value: None,
        })
    }

    /// `DIOpSelect()`: `DW_OP_LLVM_select_bit_piece`; in plain DWARF 5 only
    /// with a constant mask, as pieces.
    fn lower_select(&mut self) -> Result<Frag, Diag> {
        let m = self.pop()?;
        let l1 = self.pop()?;
        let l0 = self.pop()?;
        let Type::Vector { count, elem } = &l1.ty else {
            return Err(Diag::eval(
                self.at,
                "internal-error",
                "select of a non-vector",
            ));
        };
        let (count, size) = (*count, self.bits(elem));
        let ty = l1.ty.clone();
        if self.target == Target::Amdgpu {
            let mut v = self.location(l0)?;
            v.append(self.location(l1)?);
            v.append(self.value(m)?);
            v.push(amd2(AmdOp::SelectBitPiece, size, count));
            return Ok(Frag {
                ty,
                form: Form::Location(v),
                known_value: None,
            });
        }
        let Some(mask) = m.known_value.clone() else {
            return Err(not_expressible(
                self.at,
                "dynamic-select",
                "the mask is known only at run time, and plain DWARF 5 cannot choose between locations",
            ));
        };
        let ones = (0..count).filter(|&i| mask.bit(i)).count() as u64;
        self.repeat(&l1, ones)?;
        self.repeat(&l0, count - ones)?;
        let mut parts = Vec::new();
        for i in 0..count {
            let from = if mask.bit(i) { &l1 } else { &l0 };
            let d = i64::try_from(i * size).map_err(|_| self.too_large())?;
            parts.push((size, self.offset_const(from.clone(), d)?));
        }
        Ok(Frag {
            ty,
            form: Form::Composite(parts),
            known_value: None,
        })
    }

    /// `DIOpAddrOf(N)`: `DW_OP_implicit_pointer` to an artificial variable
    /// whose location is `L`, made only where the address itself is needed
    /// (a `DIOpDeref` of it is `L` again, as `eval_deref`). Only address
    /// space 0 with address-sized pointers can be materialized:
    /// `DW_OP_LLVM_aspace_implicit_pointer` has no encoding yet.
    fn lower_addr_of(&mut self, n: u32) -> Result<Frag, Diag> {
        let f = self.pop()?;
        let ty = Type::ptr(n);
        Ok(Frag {
            form: Form::ImplicitAddress {
                target: Box::new(f),
                aspace: n,
                bits: self.bits(&ty),
            },
            ty,
            known_value: None,
        })
    }

    /// `DIOpDeref(T)`: the pointer's value is the address (an implicit
    /// pointer's target directly, as `eval_deref`).
    fn lower_deref(&mut self, t: &Type) -> Result<Frag, Diag> {
        let p = self.pop()?;
        if let Form::ImplicitAddress { target, .. } = p.form {
            return self.retype(*target, t);
        }
        let aspace = p.ty.addrspace().unwrap_or(0);
        let code = self.value(p)?;
        Ok(Frag {
            ty: t.clone(),
            form: Form::Address {
                aspace,
                code,
                bit: 0,
            },
            known_value: None,
        })
    }

    /// The location of `f` seen with type `t` (D-deref-addrof-type). A value
    /// held in the DWARF representation of another type is its implicit
    /// location again, read as `t` (extensions only).
    fn retype(&mut self, f: Frag, t: &Type) -> Result<Frag, Diag> {
        if matches!(f.form, Form::Value(_)) && self.repr(&f.ty)? != self.repr(t)? {
            self.amd_only(
                "retyped-value",
                "a value seen with another type needs its implicit location",
            )?;
            let code = self.location(f)?;
            return Ok(Frag {
                ty: t.clone(),
                form: Form::Location(code),
                known_value: None,
            });
        }
        Ok(Frag {
            ty: t.clone(),
            form: f.form,
            known_value: None,
        })
    }

    /// `DIOpRead()`: the value.
    fn lower_read(&mut self) -> Result<Frag, Diag> {
        let f = self.pop()?;
        let (ty, known_value) = (f.ty.clone(), f.known_value.clone());
        let code = self.value(f)?;
        Ok(Frag {
            ty,
            form: Form::Value(code),
            known_value,
        })
    }

    /// `a OP b` for `L2 = a`, `L1 = b`, with `ops` after both values.
    fn arith(
        &mut self,
        a: Frag,
        b: Frag,
        pre: bool,
        ops: &[DwarfOp],
        mask: bool,
    ) -> Result<Frag, Diag> {
        let ty = a.ty.clone();
        let r = self.repr(&ty)?;
        let mut v = self.value(a)?;
        if pre {
            v.extend(self.sext(r));
            v.extend(self.signed_twin(r));
        }
        v.append(self.value(b)?);
        if pre {
            v.extend(self.sext(r));
            v.extend(self.signed_twin(r));
        }
        v.extend(ops.iter().cloned());
        if pre {
            v.extend(self.unsigned_twin(r));
        }
        if mask {
            v.extend(self.mask(r));
        }
        Ok(self.value_frag(&ty, v))
    }

    /// `DIOpAdd()`: `DW_OP_plus`, masked to the width (D-integer-wrap).
    fn lower_add(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        let m = !a.ty.is_float();
        self.arith(a, b, false, &[op(c::DW_OP_plus)], m)
    }

    /// `DIOpSub()`: `DW_OP_minus` (`L2 - L1`, D-binary-operand-order).
    fn lower_sub(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        let m = !a.ty.is_float();
        self.arith(a, b, false, &[op(c::DW_OP_minus)], m)
    }

    /// `DIOpMul()`: `DW_OP_mul`, masked.
    fn lower_mul(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        let m = !a.ty.is_float();
        self.arith(a, b, false, &[op(c::DW_OP_mul)], m)
    }

    /// `DIOpDiv()`: signed `DW_OP_div` of the sign-extended operands
    /// (D-div-signed).
    fn lower_div(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        if a.ty.is_float() {
            return self.arith(a, b, false, &[op(c::DW_OP_div)], false);
        }
        self.arith(a, b, true, &[op(c::DW_OP_div)], true)
    }

    /// `DIOpLShr()`: `DW_OP_shr` with the amount clamped (D-shift-amounts).
    fn lower_lshr(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        self.shift(a, b, c::DW_OP_shr)
    }

    /// `DIOpAShr()`: `DW_OP_shra` of the sign-extended value, masked.
    fn lower_ashr(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        self.shift(a, b, c::DW_OP_shra)
    }

    /// `DIOpShl()`: `DW_OP_shl`, masked.
    fn lower_shl(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        self.shift(a, b, c::DW_OP_shl)
    }

    fn shift(&mut self, a: Frag, b: Frag, code: c::DwOp) -> Result<Frag, Diag> {
        let ty = a.ty.clone();
        let r = self.int_repr(&ty)?;
        let mut v = self.value(a)?;
        if code == c::DW_OP_shra {
            v.extend(self.sext(r));
        }
        let known_value = b.known_value.as_ref().and_then(|k| k.to_u128());
        match (r, known_value) {
            (Repr::Generic { w }, Some(k)) => {
                // A constant amount of at least the width gives the width's
                // result (D-shift-amounts).
                let k = k.min(w as u128) as u64;
                if k < 64 {
                    v.extend([constu(k), op(code)]);
                } else if code == c::DW_OP_shra {
                    v.extend([constu(63), op(code)]);
                } else {
                    v.extend([op(c::DW_OP_drop), constu(0)]);
                }
            }
            (Repr::Generic { w }, None) if w < 64 => {
                // amount < w ? amount : w   (DW_OP_lt is signed; the amount
                // is below 2^w <= 2^63, so not negative)
                v.append(self.value(b)?);
                v.extend([op(c::DW_OP_dup), constu(w), op(c::DW_OP_lt)]);
                let tail = vec![op(c::DW_OP_drop), constu(w)];
                v.push(bra(len(&tail)));
                v.extend(tail);
                v.push(op(code));
            }
            (Repr::Generic { .. }, None) => {
                // 64 bits: an amount of 64 or more (amount >> 6 != 0) gives 0,
                // or all sign bits for DW_OP_shra.
                v.append(self.value(b)?);
                let big = if code == c::DW_OP_shra {
                    vec![op(c::DW_OP_drop), constu(63), op(code)]
                } else {
                    vec![op(c::DW_OP_drop), op(c::DW_OP_drop), constu(0)]
                };
                let small = vec![op(code), skip(len(&big))];
                v.extend([op(c::DW_OP_dup), constu(6), op(c::DW_OP_shr)]);
                v.push(bra(len(&small)));
                v.extend(small);
                v.extend(big);
            }
            _ => {
                // Base types: DWARF 5 does not say what shifting by the width
                // or more gives; dioptra's evaluator shifts every bit out
                // (D-dwarf-shift-amount).
                v.append(self.value(b)?);
                v.push(op(code));
            }
        }
        v.extend(self.mask(r));
        Ok(self.value_frag(&ty, v))
    }

    /// `DIOpPushLane(T)`: `DW_OP_LLVM_push_lane`, masked to `T`.
    fn lower_push_lane(&mut self, t: &Type) -> Result<Frag, Diag> {
        self.amd_only(
            "lane",
            "plain DWARF 5 has no operation for the current lane",
        )?;
        let r = self.int_repr(t)?;
        let mut v = Code::from([amd(AmdOp::PushLane)]);
        if let Repr::Wide { u, .. } = r {
            v.push(with(c::DW_OP_convert, u));
        }
        v.extend(self.mask(r));
        Ok(self.value_frag(t, v))
    }

    /// `DIOpFragment(O, S)`: the expression describes bits `O..O+S` of the
    /// variable: an undefined piece of `O` bits, then the location as a
    /// piece of `S` bits.
    fn lower_fragment(&mut self, o: u64, s: u64) -> Result<Code, Diag> {
        let f = self.pop()?;
        let mut parts = Vec::new();
        if o > 0 {
            parts.push((
                o,
                Frag {
                    ty: Type::Int(o),
                    form: Form::Undefined,
                    known_value: None,
                },
            ));
        }
        parts.push((s, f));
        self.pieces(parts)
    }

    /// `DIOpAnd()`: `DW_OP_and`.
    fn lower_and(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        self.arith(a, b, false, &[op(c::DW_OP_and)], false)
    }

    /// `DIOpOr()`: `DW_OP_or`.
    fn lower_or(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        self.arith(a, b, false, &[op(c::DW_OP_or)], false)
    }

    /// `DIOpXor()`: `DW_OP_xor`.
    fn lower_xor(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        self.arith(a, b, false, &[op(c::DW_OP_xor)], false)
    }

    /// `DIOpMod()`: the signed remainder (D-mod-signed) as
    /// `a - (a / b) * b` with the signed `DW_OP_div`, because `DW_OP_mod` is
    /// unsigned on generic values.
    fn lower_mod(&mut self) -> Result<Frag, Diag> {
        let b = self.pop()?;
        let a = self.pop()?;
        self.arith(
            a,
            b,
            true,
            &[
                op(c::DW_OP_over),
                op(c::DW_OP_over),
                op(c::DW_OP_div),
                op(c::DW_OP_mul),
                op(c::DW_OP_minus),
            ],
            true,
        )
    }

    // ---- helpers of the integer representations ----

    /// The signed twin of a wide representation, for `DW_OP_div` (which is
    /// already signed on generic values).
    fn signed_twin(&mut self, r: Repr) -> Vec<DwarfOp> {
        match r {
            Repr::Wide { s, .. } => vec![with(c::DW_OP_reinterpret, s)],
            _ => Vec::new(),
        }
    }
    /// A signed base type holding the same bits, for `DW_OP_convert`, which
    /// reads generic values as unsigned (D-dwarf-convert).
    fn signed_for_convert(&mut self, r: Repr) -> Vec<DwarfOp> {
        match r {
            Repr::Wide { s, .. } => vec![with(c::DW_OP_reinterpret, s)],
            Repr::Generic { .. } => {
                let s = self.signed_die(8);
                vec![with(c::DW_OP_reinterpret, s)]
            }
            Repr::Float { .. } => Vec::new(),
        }
    }
    fn unsigned_twin(&mut self, r: Repr) -> Vec<DwarfOp> {
        match r {
            Repr::Wide { u, .. } => vec![with(c::DW_OP_reinterpret, u)],
            _ => Vec::new(),
        }
    }
    /// Changes the representation of a zero-extended integer.
    fn change_int_repr(&mut self, r: Repr, r2: Repr) -> Vec<DwarfOp> {
        match (r, r2) {
            (Repr::Generic { .. }, Repr::Generic { .. }) => Vec::new(),
            (Repr::Wide { u, .. }, Repr::Wide { u: u2, .. }) if u == u2 => Vec::new(),
            (_, Repr::Wide { u, .. }) => vec![with(c::DW_OP_convert, u)],
            (_, _) => vec![with(c::DW_OP_convert, 0)],
        }
    }
}

fn reg(n: u32) -> DwarfOp {
    if n < 32 {
        op(c::DwOp(c::DW_OP_reg0.0 + n as u8))
    } else {
        with(c::DW_OP_regx, n as u64)
    }
}

fn regval(n: u32, die: u64) -> DwarfOp {
    DwarfOp::with(
        c::DW_OP_regval_type,
        [Operand::Uleb(n as u64), Operand::Uleb(die)],
    )
}

fn piece(bits: u64, offset: u64) -> DwarfOp {
    if bits.is_multiple_of(8) && offset == 0 {
        with(c::DW_OP_piece, bits / 8)
    } else {
        DwarfOp::with(
            c::DW_OP_bit_piece,
            [Operand::Uleb(bits), Operand::Uleb(offset)],
        )
    }
}

fn is_piece(o: &DwarfOp) -> bool {
    matches!(o, DwarfOp::Std { code, .. } if *code == c::DW_OP_piece.0 || *code == c::DW_OP_bit_piece.0)
}

/// `DW_OP_LLVM_offset_uconst` for whole bytes forward, else a bit offset.
fn offset_ops(d: i64) -> Vec<DwarfOp> {
    if d == 0 {
        Vec::new()
    } else if d > 0 && d % 8 == 0 {
        vec![DwarfOp::amd(
            AmdOp::OffsetUconst,
            [Operand::Uleb(d as u64 / 8)],
        )]
    } else {
        vec![consts(d), amd(AmdOp::BitOffset)]
    }
}

fn len(ops: &[DwarfOp]) -> i64 {
    dioptra_semantics::dwarf::op::encode(ops, Encoding::default())
        .map(|b| b.len() as i64)
        .unwrap_or(0)
}
fn bra(off: i64) -> DwarfOp {
    DwarfOp::with(c::DW_OP_bra, [Operand::S(off)])
}
fn skip(off: i64) -> DwarfOp {
    DwarfOp::with(c::DW_OP_skip, [Operand::S(off)])
}

/// The name of the integer base type of `bytes` bytes: `__u<bits>` or
/// `__s<bits>`. Made once for the sizes a typed operation holds (at most
/// 255 bytes): every wide value's lowering asks for both, and formatting
/// them each time was 1% of the pipeline's instructions.
fn int_type_name(sign: char, bytes: u64) -> std::borrow::Cow<'static, str> {
    static NAMES: std::sync::LazyLock<[Vec<String>; 2]> = std::sync::LazyLock::new(|| {
        ['u', 's'].map(|sign| (0..256).map(|b| format!("__{sign}{}", b * 8)).collect())
    });
    match NAMES[usize::from(sign == 's')].get(bytes as usize) {
        Some(name) => std::borrow::Cow::Borrowed(name),
        None => std::borrow::Cow::Owned(format!("__{sign}{}", bytes * 8)),
    }
}

/// Splices composite parts that are composites themselves, keeping the
/// first `bits` bits of each (a part at least as large as its composite's
/// storage would read past it: left for `pieces` to reject). The parts are
/// moved, not copied: a part's code is moved into the DWARF.
fn flatten(parts: impl IntoIterator<Item = (u64, Frag)>, out: &mut Vec<(u64, Frag)>) {
    for (bits, p) in parts {
        match p.form {
            Form::Composite(inner) if inner.iter().map(|x| x.0).sum::<u64>() >= bits => {
                flatten(clip(inner, bits), out)
            }
            form => out.push((bits, Frag { form, ..p })),
        }
    }
}

/// The parts covering the first `bits` bits of a composite (the last one
/// shortened).
fn clip(parts: Vec<(u64, Frag)>, bits: u64) -> impl Iterator<Item = (u64, Frag)> {
    parts.into_iter().scan(bits, |left, (b, q)| {
        if *left == 0 {
            return None;
        }
        let taken = b.min(*left);
        *left -= taken;
        Some((taken, q))
    })
}

/// The composite a variable's location ends in, at the object's size.
///
/// DECISION (D-lower-composite-size): the final composite of an expression
/// whose storage is larger than its result type (`DIOpDeref(float)` of the
/// implicit address of a `double`'s composite, say) is lowered to the
/// pieces of the object's `bits` only, the last one shortened. The DIOp
/// object is the first `bits` bits of that storage either way, and DWARF 5
/// consumers take a piece composite to be the object: gdb refuses one that
/// is larger than the variable's type ("access outside bounds of object
/// referenced via synthetic pointer"). A composite smaller than its type
/// stays as it is (reading past it is the reference's error too).
fn object_sized(parts: Vec<(u64, Frag)>, bits: u64) -> Vec<(u64, Frag)> {
    if parts.iter().map(|p| p.0).sum::<u64>() > bits {
        clip(parts, bits).collect()
    } else {
        parts
    }
}
