//! Decoding and encoding DWARF expression operations.

use crate::diag::Diag;
use gimli::constants as c;
use smallvec::SmallVec;
use std::sync::LazyLock;

/// How vendor opcodes and sizes are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Bytes in an address (`DW_OP_addr`): 4 or 8.
    pub address_size: u8,
    /// Bytes in a section offset (`DW_OP_call_ref`, implicit pointers): 4
    /// (32-bit DWARF) or 8 (64-bit DWARF).
    pub offset_size: u8,
    /// Read 0xe1..0xec as AMD's older single-byte extension opcodes (they
    /// collide with HP and Intel vendor opcodes); otherwise AMD's opcodes are
    /// `DW_OP_LLVM_user` (0xe9) + a ULEB128 sub-opcode.
    pub amd_single_byte: bool,
}

impl Default for Encoding {
    fn default() -> Self {
        Encoding {
            address_size: 8,
            offset_size: 4,
            amd_single_byte: false,
        }
    }
}

/// AMD's extension operations ("DWARF Extensions For Heterogeneous Debugging").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AmdOp {
    Nop,
    FormAspaceAddress,
    PushLane,
    Offset,
    OffsetUconst,
    BitOffset,
    CallFrameEntryReg,
    Undefined,
    AspaceBregx,
    AspaceImplicitPointer,
    PieceEnd,
    Extend,
    SelectBitPiece,
}

impl AmdOp {
    pub const ALL: [AmdOp; 13] = [
        AmdOp::Nop,
        AmdOp::FormAspaceAddress,
        AmdOp::PushLane,
        AmdOp::Offset,
        AmdOp::OffsetUconst,
        AmdOp::BitOffset,
        AmdOp::CallFrameEntryReg,
        AmdOp::Undefined,
        AmdOp::AspaceBregx,
        AmdOp::AspaceImplicitPointer,
        AmdOp::PieceEnd,
        AmdOp::Extend,
        AmdOp::SelectBitPiece,
    ];

    /// The `DW_OP_LLVM_user` sub-opcode; `None` where none is assigned yet
    /// (`aspace_implicit_pointer`).
    pub fn user_code(self) -> Option<u64> {
        Some(match self {
            AmdOp::Nop => 0x01,
            AmdOp::FormAspaceAddress => 0x02,
            AmdOp::PushLane => 0x03,
            AmdOp::Offset => 0x04,
            AmdOp::OffsetUconst => 0x05,
            AmdOp::BitOffset => 0x06,
            AmdOp::CallFrameEntryReg => 0x07,
            AmdOp::Undefined => 0x08,
            AmdOp::AspaceBregx => 0x09,
            AmdOp::PieceEnd => 0x0a,
            AmdOp::Extend => 0x0b,
            AmdOp::SelectBitPiece => 0x0c,
            AmdOp::AspaceImplicitPointer => return None,
        })
    }

    /// The older single-byte opcode; `None` for `nop`, which had none.
    pub fn single_byte(self) -> Option<u8> {
        Some(match self {
            AmdOp::FormAspaceAddress => 0xe1,
            AmdOp::PushLane => 0xe2,
            AmdOp::Offset => 0xe3,
            AmdOp::OffsetUconst => 0xe4,
            AmdOp::BitOffset => 0xe5,
            AmdOp::CallFrameEntryReg => 0xe6,
            AmdOp::Undefined => 0xe7,
            AmdOp::AspaceBregx => 0xe8,
            AmdOp::AspaceImplicitPointer => 0xe9,
            AmdOp::PieceEnd => 0xea,
            AmdOp::Extend => 0xeb,
            AmdOp::SelectBitPiece => 0xec,
            AmdOp::Nop => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            AmdOp::Nop => "DW_OP_LLVM_nop",
            AmdOp::FormAspaceAddress => "DW_OP_LLVM_form_aspace_address",
            AmdOp::PushLane => "DW_OP_LLVM_push_lane",
            AmdOp::Offset => "DW_OP_LLVM_offset",
            AmdOp::OffsetUconst => "DW_OP_LLVM_offset_uconst",
            AmdOp::BitOffset => "DW_OP_LLVM_bit_offset",
            AmdOp::CallFrameEntryReg => "DW_OP_LLVM_call_frame_entry_reg",
            AmdOp::Undefined => "DW_OP_LLVM_undefined",
            AmdOp::AspaceBregx => "DW_OP_LLVM_aspace_bregx",
            AmdOp::AspaceImplicitPointer => "DW_OP_LLVM_aspace_implicit_pointer",
            AmdOp::PieceEnd => "DW_OP_LLVM_piece_end",
            AmdOp::Extend => "DW_OP_LLVM_extend",
            AmdOp::SelectBitPiece => "DW_OP_LLVM_select_bit_piece",
        }
    }

    /// The operand layout.
    pub(crate) fn layout(self) -> &'static [Kind] {
        use Kind::*;
        match self {
            AmdOp::OffsetUconst | AmdOp::CallFrameEntryReg => &[Uleb],
            AmdOp::AspaceBregx => &[Uleb, Sleb],
            AmdOp::AspaceImplicitPointer => &[SecOffset, Sleb],
            AmdOp::Extend | AmdOp::SelectBitPiece => &[Uleb, Uleb],
            _ => &[],
        }
    }
}

/// An operation's operands. No operation has more than two, so they are
/// kept inline: decoding an expression then allocates once (the op list),
/// not once per operation (`smallvec` because std has no inline vector).
pub type Operands = SmallVec<[Operand; 2]>;

/// `operands` pushed one by one (`SmallVec`'s `collect` reserves through
/// its general path first: 90 instructions an operation, 1% of the
/// pipeline's 20 000 expression cases, whose lowerings make 330 000).
#[inline]
fn inline_operands<const N: usize>(operands: [Operand; N]) -> Operands {
    let mut v = Operands::new();
    for o in operands {
        v.push(o);
    }
    v
}

/// An operation: a standard opcode or an AMD one, with its operands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DwarfOp {
    Std { code: u8, operands: Operands },
    Amd { op: AmdOp, operands: Operands },
}

/// One operand, as encoded.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// Fixed-size unsigned (1, 2, 4 or 8 bytes), an address, or a section offset.
    U(u64),
    /// Fixed-size signed, or SLEB128.
    S(i64),
    /// ULEB128.
    Uleb(u64),
    /// A block of bytes (`implicit_value`, `const_type`).
    Block(Vec<u8>),
    /// A nested expression (`entry_value`).
    Expr(Vec<DwarfOp>),
}

/// How an operand is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    U1,
    U2,
    U4,
    U8,
    S1,
    S2,
    S4,
    S8,
    Uleb,
    Sleb,
    Addr,
    SecOffset,
    /// ULEB128 length, then that many bytes.
    Block,
    /// One byte of length, then that many bytes (`const_type`).
    Block1,
    /// ULEB128 length, then a nested expression of that many bytes.
    SubExpr,
}

/// A standard opcode's operand layout (`None`: unknown) and name.
type Standard = (Option<&'static [Kind]>, &'static str);

/// Every standard opcode's layout and name, looked up once: the decoder and
/// the evaluator ask for them at every operation.
static STANDARD: LazyLock<[Standard; 256]> = LazyLock::new(|| {
    std::array::from_fn(|code| {
        let code = code as u8;
        (
            layout_of(code),
            c::DwOp(code).static_string().unwrap_or("DW_OP_unknown"),
        )
    })
});

/// The operand layout of a standard opcode (DWARF 5, Section 7.7.1, Table
/// 7.9, and the GNU opcodes gimli knows); `None` for an unknown opcode.
pub(crate) fn layout(code: u8) -> Option<&'static [Kind]> {
    STANDARD[code as usize].0
}

/// A standard opcode's name (gimli's); `DW_OP_unknown` where gimli has none.
pub(crate) fn std_name(code: u8) -> &'static str {
    STANDARD[code as usize].1
}

/// The binary operations (DWARF 5 Sections 2.5.1.4 and 2.5.1.5): each pops
/// two values and pushes one, and has no operands.
pub const BINARY_OPS: [c::DwOp; 17] = [
    c::DW_OP_and,
    c::DW_OP_div,
    c::DW_OP_minus,
    c::DW_OP_mod,
    c::DW_OP_mul,
    c::DW_OP_or,
    c::DW_OP_plus,
    c::DW_OP_shl,
    c::DW_OP_shr,
    c::DW_OP_shra,
    c::DW_OP_xor,
    c::DW_OP_eq,
    c::DW_OP_ge,
    c::DW_OP_gt,
    c::DW_OP_le,
    c::DW_OP_lt,
    c::DW_OP_ne,
];

/// DECISION (D-dwarf-gnu-typed): gcc's DWARF 4 typed operations,
/// `DW_OP_GNU_const_type`, `DW_OP_GNU_regval_type`, `DW_OP_GNU_deref_type`,
/// `DW_OP_GNU_convert` and `DW_OP_GNU_reinterpret` (0xf4-0xf7, 0xf9), are the
/// DWARF 5 operations they became (0xa4-0xa9): the same operands, read,
/// checked, evaluated and encoded for the solver as those, as gdb and gimli
/// read them, and printed with their GNU names. gcc -gdwarf-4 writes them
/// for arithmetic the generic type cannot do (an unsigned division).
fn layout_of(code: u8) -> Option<&'static [Kind]> {
    use Kind::*;
    let d = c::DwOp(code);
    Some(match d {
        c::DW_OP_addr => &[Addr],
        c::DW_OP_const1u | c::DW_OP_pick | c::DW_OP_deref_size | c::DW_OP_xderef_size => &[U1],
        c::DW_OP_const1s => &[S1],
        c::DW_OP_const2u | c::DW_OP_call2 => &[U2],
        c::DW_OP_const2s | c::DW_OP_bra | c::DW_OP_skip => &[S2],
        c::DW_OP_const4u | c::DW_OP_call4 => &[U4],
        c::DW_OP_const4s => &[S4],
        c::DW_OP_const8u => &[U8],
        c::DW_OP_const8s => &[S8],
        c::DW_OP_constu
        | c::DW_OP_plus_uconst
        | c::DW_OP_regx
        | c::DW_OP_piece
        | c::DW_OP_addrx
        | c::DW_OP_constx
        | c::DW_OP_convert
        | c::DW_OP_reinterpret
        | c::DW_OP_GNU_convert
        | c::DW_OP_GNU_reinterpret
        | c::DW_OP_GNU_addr_index
        | c::DW_OP_GNU_const_index => &[Uleb],
        c::DW_OP_consts | c::DW_OP_fbreg => &[Sleb],
        c::DW_OP_bregx => &[Uleb, Sleb],
        c::DW_OP_bit_piece | c::DW_OP_regval_type | c::DW_OP_GNU_regval_type => &[Uleb, Uleb],
        c::DW_OP_deref_type | c::DW_OP_GNU_deref_type | c::DW_OP_xderef_type => &[U1, Uleb],
        c::DW_OP_call_ref => &[SecOffset],
        c::DW_OP_implicit_value => &[Block],
        c::DW_OP_implicit_pointer | c::DW_OP_GNU_implicit_pointer => &[SecOffset, Sleb],
        c::DW_OP_entry_value | c::DW_OP_GNU_entry_value => &[SubExpr],
        c::DW_OP_const_type | c::DW_OP_GNU_const_type => &[Uleb, Block1],
        c::DW_OP_GNU_parameter_ref => &[U4],
        _ if (0x30..=0x4f).contains(&code) || (0x50..=0x6f).contains(&code) => &[],
        _ if (0x70..=0x8f).contains(&code) => &[Sleb],
        d if BINARY_OPS.contains(&d) => &[],
        c::DW_OP_deref
        | c::DW_OP_dup
        | c::DW_OP_drop
        | c::DW_OP_over
        | c::DW_OP_swap
        | c::DW_OP_rot
        | c::DW_OP_xderef
        | c::DW_OP_abs
        | c::DW_OP_neg
        | c::DW_OP_not
        | c::DW_OP_nop
        | c::DW_OP_push_object_address
        | c::DW_OP_form_tls_address
        | c::DW_OP_call_frame_cfa
        | c::DW_OP_stack_value
        | c::DW_OP_GNU_push_tls_address
        | c::DW_OP_GNU_uninit => &[],
        _ => return None,
    })
}

/// `DW_OP_LLVM_user`.
pub const DW_OP_LLVM_USER: u8 = 0xe9;

/// The most nested `entry_value` expressions read.
const MAX_NESTING: usize = 16;

fn bad(reason: &'static str, at: usize, msg: impl Into<String>) -> Diag {
    Diag::malformed("DWARF", reason, format!("byte {at}: {}", msg.into()))
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, Diag> {
        let v = *self.b.get(self.i).ok_or_else(|| {
            bad(
                "truncated",
                self.i,
                "the expression ends inside an operation",
            )
        })?;
        self.i += 1;
        Ok(v)
    }
    fn fixed(&mut self, n: usize) -> Result<u64, Diag> {
        if self.i + n > self.b.len() {
            return Err(bad("truncated", self.i, format!("{n} more bytes needed")));
        }
        let mut v = 0u64;
        for k in 0..n {
            v |= (self.b[self.i + k] as u64) << (8 * k);
        }
        self.i += n;
        Ok(v)
    }
    fn uleb(&mut self) -> Result<u64, Diag> {
        let start = self.i;
        let (mut v, mut shift) = (0u64, 0u32);
        loop {
            let b = self.byte()?;
            if shift >= 64 || (shift == 63 && b & 0x7e != 0) {
                return Err(bad(
                    "leb128-overflow",
                    start,
                    "a ULEB128 wider than 64 bits",
                ));
            }
            v |= ((b & 0x7f) as u64) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
    }
    fn sleb(&mut self) -> Result<i64, Diag> {
        let start = self.i;
        let (mut v, mut shift) = (0i64, 0u32);
        loop {
            let b = self.byte()?;
            if shift >= 64 {
                return Err(bad(
                    "leb128-overflow",
                    start,
                    "an SLEB128 wider than 64 bits",
                ));
            }
            v |= ((b & 0x7f) as i64) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                if shift < 64 && b & 0x40 != 0 {
                    v |= -1i64 << shift;
                }
                return Ok(v);
            }
        }
    }
    fn bytes(&mut self, n: u64) -> Result<&'a [u8], Diag> {
        let n = usize::try_from(n)
            .ok()
            .filter(|n| self.i.checked_add(*n).is_some_and(|e| e <= self.b.len()))
            .ok_or_else(|| {
                bad(
                    "truncated",
                    self.i,
                    format!("a block of {n} bytes runs past the end"),
                )
            })?;
        let v = &self.b[self.i..self.i + n];
        self.i += n;
        Ok(v)
    }
}

fn sign(v: u64, bytes: u32) -> i64 {
    let bits = 8 * bytes;
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

/// One operand read in place (a nested expression as its bytes).
fn arg<'a>(r: &mut Reader<'a>, k: Kind, enc: Encoding) -> Result<Arg<'a>, Diag> {
    Ok(match k {
        Kind::U1 => Arg::Int(r.fixed(1)?),
        Kind::U2 => Arg::Int(r.fixed(2)?),
        Kind::U4 => Arg::Int(r.fixed(4)?),
        Kind::U8 => Arg::Int(r.fixed(8)?),
        Kind::S1 => Arg::Int(sign(r.fixed(1)?, 1) as u64),
        Kind::S2 => Arg::Int(sign(r.fixed(2)?, 2) as u64),
        Kind::S4 => Arg::Int(sign(r.fixed(4)?, 4) as u64),
        Kind::S8 => Arg::Int(r.fixed(8)?),
        Kind::Uleb => Arg::Int(r.uleb()?),
        Kind::Sleb => Arg::Int(r.sleb()? as u64),
        Kind::Addr => Arg::Int(r.fixed(enc.address_size as usize)?),
        Kind::SecOffset => Arg::Int(r.fixed(enc.offset_size as usize)?),
        Kind::Block => {
            let n = r.uleb()?;
            Arg::Block(r.bytes(n)?)
        }
        Kind::Block1 => {
            let n = r.byte()? as u64;
            Arg::Block(r.bytes(n)?)
        }
        Kind::SubExpr => {
            let n = r.uleb()?;
            Arg::Bytes(r.bytes(n)?)
        }
    })
}

/// An operand as decoded: the in-place reading `a` of an operand laid out as
/// `k` that ends at byte `end`, owned (a nested expression decoded, `depth`
/// deep).
fn owned(a: Arg, k: Kind, end: usize, enc: Encoding, depth: usize) -> Result<Operand, Diag> {
    Ok(match (a, k) {
        (Arg::Int(v), Kind::Uleb) => Operand::Uleb(v),
        (Arg::Int(v), Kind::S1 | Kind::S2 | Kind::S4 | Kind::S8 | Kind::Sleb) => {
            Operand::S(v as i64)
        }
        (Arg::Int(v), _) => Operand::U(v),
        (Arg::Block(b), _) => Operand::Block(b.to_vec()),
        (Arg::Bytes(inner), _) => {
            let at = end - inner.len();
            if depth >= MAX_NESTING {
                return Err(bad(
                    "too-deep",
                    at,
                    "entry_value expressions nested too deeply",
                ));
            }
            Operand::Expr(
                decode_at(inner, enc, depth + 1)
                    .map_err(|d| d.at_place(format!("in the entry_value at byte {at}")))?,
            )
        }
        (Arg::Ops(ops), _) => Operand::Expr(ops.to_vec()),
    })
}

/// Decodes a whole expression.
pub fn decode(bytes: &[u8], enc: Encoding) -> Result<Vec<DwarfOp>, Diag> {
    decode_at(bytes, enc, 0)
}

fn decode_at(bytes: &[u8], enc: Encoding, depth: usize) -> Result<Vec<DwarfOp>, Diag> {
    // One allocation: an expression has at most one op per byte.
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let (op, next) = decode_op(bytes, at, enc, depth)?;
        out.push(op);
        at = next;
    }
    Ok(out)
}

/// Decodes the operation starting at byte `at` of `bytes`: the operation and
/// the position after it. [`decode`] is this applied from byte 0 until the
/// end.
pub(crate) fn decode_op(
    bytes: &[u8],
    at: usize,
    enc: Encoding,
    depth: usize,
) -> Result<(DwarfOp, usize), Diag> {
    let (op, next) = read_op(bytes, at, enc)?;
    let kinds = op.kinds();
    let mut operands = Operands::new();
    for (a, k) in op.args[..kinds.len()].iter().zip(kinds) {
        operands.push(owned(*a, *k, next, enc, depth)?);
    }
    let op = match op.which {
        Which::Std(code) => DwarfOp::Std { code, operands },
        Which::Amd(op) => DwarfOp::Amd { op, operands },
    };
    Ok((op, next))
}

/// Reads the operation starting at byte `at` of `bytes` in place, without
/// allocating: the operation and the position after it. A nested expression
/// is left as bytes (its errors are [`decode_op`]'s to find).
pub(crate) fn read_op(bytes: &[u8], at: usize, enc: Encoding) -> Result<(OpRef<'_>, usize), Diag> {
    let mut op = OpRef::EMPTY;
    let next = read_op_into(bytes, at, enc, &mut op)?;
    Ok((op, next))
}

/// [`read_op`] into `out`, returning the position after the operation. The
/// evaluator reads every operation into one `OpRef` this way: built where it
/// is used, its fields are read back as they were written (copying a freshly
/// written `OpRef` as a whole stalls the processor's store forwarding, which
/// measured as a third of the time of evaluating from bytes).
pub(crate) fn read_op_into<'a>(
    bytes: &'a [u8],
    at: usize,
    enc: Encoding,
    out: &mut OpRef<'a>,
) -> Result<usize, Diag> {
    let mut r = Reader { b: bytes, i: at };
    let code = r.byte()?;
    let amd = if enc.amd_single_byte {
        AmdOp::ALL
            .iter()
            .copied()
            .find(|a| a.single_byte() == Some(code))
    } else if code == DW_OP_LLVM_USER {
        let sub = r.uleb()?;
        Some(
            AmdOp::ALL
                .iter()
                .copied()
                .find(|a| a.user_code() == Some(sub))
                .ok_or_else(|| {
                    bad(
                        "unknown-opcode",
                        at,
                        format!("DW_OP_LLVM_user sub-opcode 0x{sub:x}"),
                    )
                })?,
        )
    } else {
        None
    };
    let (which, kinds) = match amd {
        Some(op) => (Which::Amd(op), op.layout()),
        None => (
            Which::Std(code),
            layout(code)
                .ok_or_else(|| bad("unknown-opcode", at, format!("opcode 0x{code:02x}")))?,
        ),
    };
    out.which = which;
    out.args[0] = Arg::Int(0);
    out.args[1] = Arg::Int(0);
    for (slot, &k) in out.args.iter_mut().zip(kinds) {
        *slot = arg(&mut r, k, enc)?;
    }
    Ok(r.i)
}

/// Which operation: a standard opcode or an AMD one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Std(u8),
    Amd(AmdOp),
}

/// An operation read in place, as the evaluator consumes it: integers by
/// value, blocks and nested expressions borrowed. An operand the operation
/// lacks reads as `Int(0)`.
#[derive(Clone, Copy, Debug)]
pub struct OpRef<'a> {
    pub which: Which,
    pub args: [Arg<'a>; 2],
}

/// One operand of an [`OpRef`].
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// Any integer operand, as its 64-bit pattern (a signed one as two's
    /// complement).
    Int(u64),
    /// A block of bytes (`implicit_value`, `const_type`).
    Block(&'a [u8]),
    /// A nested expression, decoded.
    Ops(&'a [DwarfOp]),
    /// A nested expression, still encoded.
    Bytes(&'a [u8]),
}

impl OpRef<'_> {
    /// A placeholder (`DW_OP_nop`) to read operations into.
    pub const EMPTY: OpRef<'static> = OpRef {
        which: Which::Std(0x96),
        args: [Arg::Int(0); 2],
    };
    /// The operand layout.
    fn kinds(&self) -> &'static [Kind] {
        match self.which {
            Which::Std(code) => layout(code).unwrap_or(&[]),
            Which::Amd(op) => op.layout(),
        }
    }
    /// The name, as llvm-dwarfdump prints it.
    pub fn static_name(&self) -> &'static str {
        match self.which {
            Which::Std(code) => std_name(code),
            Which::Amd(op) => op.name(),
        }
    }
}

fn put_uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn put_sleb(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if (v == 0 && b & 0x40 == 0) || (v == -1 && b & 0x40 != 0) {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// An operand as a diagnostic shows it: a block or a sub-expression by its
/// size, not its contents (a 64 KiB constant is not an error message).
fn brief(o: &Operand) -> String {
    match o {
        Operand::Block(b) if b.len() > 16 => format!("a block of {} bytes", b.len()),
        Operand::Expr(e) if e.len() > 4 => format!("an expression of {} operations", e.len()),
        other => format!("{other:?}"),
    }
}

fn put(out: &mut Vec<u8>, k: Kind, o: &Operand, enc: Encoding) -> Result<(), Diag> {
    let mismatch = || {
        Diag::malformed(
            "DWARF",
            "bad-operand",
            format!("operand {} does not fit {k:?}", brief(o)),
        )
    };
    let fixed = |out: &mut Vec<u8>, v: u64, n: usize| out.extend_from_slice(&v.to_le_bytes()[..n]);
    match (k, o) {
        (Kind::U1, Operand::U(v)) if *v <= 0xff => fixed(out, *v, 1),
        (Kind::U2, Operand::U(v)) if *v <= 0xffff => fixed(out, *v, 2),
        (Kind::U4, Operand::U(v)) if *v <= 0xffff_ffff => fixed(out, *v, 4),
        (Kind::U8, Operand::U(v)) => fixed(out, *v, 8),
        (Kind::S1, Operand::S(v)) if i8::try_from(*v).is_ok() => fixed(out, *v as u64, 1),
        (Kind::S2, Operand::S(v)) if i16::try_from(*v).is_ok() => fixed(out, *v as u64, 2),
        (Kind::S4, Operand::S(v)) if i32::try_from(*v).is_ok() => fixed(out, *v as u64, 4),
        (Kind::S8, Operand::S(v)) => fixed(out, *v as u64, 8),
        (Kind::Uleb, Operand::Uleb(v)) => put_uleb(out, *v),
        (Kind::Sleb, Operand::S(v)) => put_sleb(out, *v),
        (Kind::Addr, Operand::U(v))
            if enc.address_size == 8 || *v >> (8 * enc.address_size as u32) == 0 =>
        {
            fixed(out, *v, enc.address_size as usize)
        }
        (Kind::SecOffset, Operand::U(v)) if enc.offset_size == 8 || *v >> 32 == 0 => {
            fixed(out, *v, enc.offset_size as usize)
        }
        (Kind::Block, Operand::Block(b)) => {
            put_uleb(out, b.len() as u64);
            out.extend_from_slice(b);
        }
        (Kind::Block1, Operand::Block(b)) if b.len() <= 0xff => {
            out.push(b.len() as u8);
            out.extend_from_slice(b);
        }
        (Kind::SubExpr, Operand::Expr(e)) => {
            let inner = encode(e, enc)?;
            put_uleb(out, inner.len() as u64);
            out.extend_from_slice(&inner);
        }
        _ => return Err(mismatch()),
    }
    Ok(())
}

/// Encodes operations (AMD opcodes in the encoding `enc` selects).
pub fn encode(ops: &[DwarfOp], enc: Encoding) -> Result<Vec<u8>, Diag> {
    let mut out = Vec::new();
    for op in ops {
        let (kinds, operands): (&[Kind], &[Operand]) = match op {
            DwarfOp::Std { code, operands } => {
                let k = layout(*code).ok_or_else(|| {
                    Diag::malformed("DWARF", "unknown-opcode", format!("opcode 0x{code:02x}"))
                })?;
                out.push(*code);
                (k, operands)
            }
            DwarfOp::Amd { op, operands } => {
                if enc.amd_single_byte {
                    out.push(op.single_byte().ok_or_else(|| {
                        Diag::unsupported(
                            "DWARF",
                            "no-encoding",
                            format!("{} has no single-byte opcode", op.name()),
                        )
                    })?);
                } else {
                    let sub = op.user_code().ok_or_else(|| {
                        Diag::unsupported(
                            "DWARF",
                            "no-encoding",
                            format!("{} has no DW_OP_LLVM_user sub-opcode yet", op.name()),
                        )
                    })?;
                    out.push(DW_OP_LLVM_USER);
                    put_uleb(&mut out, sub);
                }
                (op.layout(), operands)
            }
        };
        if kinds.len() != operands.len() {
            return Err(Diag::malformed(
                "DWARF",
                "bad-operand",
                format!("{op:?} needs {} operands", kinds.len()),
            ));
        }
        for (k, o) in kinds.iter().zip(operands) {
            put(&mut out, *k, o, enc)?;
        }
    }
    Ok(out)
}

impl DwarfOp {
    /// A standard operation without operands.
    pub fn op(code: c::DwOp) -> DwarfOp {
        DwarfOp::Std {
            code: code.0,
            operands: Operands::new(),
        }
    }
    /// A standard operation with operands.
    pub fn with<const N: usize>(code: c::DwOp, operands: [Operand; N]) -> DwarfOp {
        DwarfOp::Std {
            code: code.0,
            operands: inline_operands(operands),
        }
    }
    /// An AMD operation with operands.
    pub fn amd<const N: usize>(op: AmdOp, operands: [Operand; N]) -> DwarfOp {
        DwarfOp::Amd {
            op,
            operands: inline_operands(operands),
        }
    }
    /// The operation read in place (see [`OpRef`]).
    pub fn view(&self) -> OpRef<'_> {
        let (which, operands) = match self {
            DwarfOp::Std { code, operands } => (Which::Std(*code), operands),
            DwarfOp::Amd { op, operands } => (Which::Amd(*op), operands),
        };
        let mut args = [Arg::Int(0); 2];
        for (slot, o) in args.iter_mut().zip(operands.iter()) {
            *slot = match o {
                Operand::U(v) | Operand::Uleb(v) => Arg::Int(*v),
                Operand::S(v) => Arg::Int(*v as u64),
                Operand::Block(b) => Arg::Block(b),
                Operand::Expr(ops) => Arg::Ops(ops),
            };
        }
        OpRef { which, args }
    }
    /// The operation's name, as llvm-dwarfdump prints it.
    /// The name without allocating; an opcode gimli does not name (which the
    /// decoder rejects) is `DW_OP_unknown`.
    pub fn static_name(&self) -> &'static str {
        match self {
            DwarfOp::Std { code, .. } => std_name(*code),
            DwarfOp::Amd { op, .. } => op.name(),
        }
    }

    pub fn name(&self) -> String {
        match self {
            DwarfOp::Std { code, .. } => c::DwOp(*code)
                .static_string()
                .map(str::to_string)
                .unwrap_or_else(|| format!("DW_OP_0x{code:02x}")),
            DwarfOp::Amd { op, .. } => op.name().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    /// An operand that does not fit its kind is named by its size: a large
    /// block is not copied into the message.
    #[test]
    fn a_misfit_operand_is_shown_briefly() {
        let big = super::DwarfOp::with(
            gimli::constants::DW_OP_const_type,
            [
                super::Operand::Uleb(1),
                super::Operand::Block(vec![0; 70_000]),
            ],
        );
        let d = super::encode(&[big], super::Encoding::default()).unwrap_err();
        let text = d.to_string();
        assert!(text.starts_with("DWARF: bad-operand:"), "{text}");
        assert!(
            text.contains("a block of 70000 bytes") && text.len() < 200,
            "{text}"
        );
    }

    use super::*;

    fn rt(bytes: &[u8], enc: Encoding) -> Vec<DwarfOp> {
        let ops = decode(bytes, enc).unwrap();
        assert_eq!(encode(&ops, enc).unwrap(), bytes, "{ops:?}");
        ops
    }

    #[test]
    fn standard_operations_round_trip() {
        let enc = Encoding::default();
        // DW_OP_breg5 -8, DW_OP_deref_size 4, DW_OP_lit3, DW_OP_plus, DW_OP_stack_value
        let ops = rt(&[0x75, 0x78, 0x94, 0x04, 0x33, 0x22, 0x9f], enc);
        assert_eq!(ops.len(), 5);
        assert_eq!(
            ops[0],
            DwarfOp::Std {
                code: 0x75,
                operands: smallvec::smallvec![Operand::S(-8)]
            }
        );
        // DW_OP_implicit_value 2 [0xab 0xcd], DW_OP_piece 2, DW_OP_bit_piece 3 1
        rt(&[0x9e, 0x02, 0xab, 0xcd, 0x93, 0x02, 0x9d, 0x03, 0x01], enc);
        // DW_OP_entry_value (DW_OP_reg5), DW_OP_stack_value
        let ops = rt(&[0xa3, 0x01, 0x55, 0x9f], enc);
        assert_eq!(
            ops[0],
            DwarfOp::Std {
                code: 0xa3,
                operands: smallvec::smallvec![Operand::Expr(vec![DwarfOp::Std {
                    code: 0x55,
                    operands: smallvec::smallvec![]
                }])]
            }
        );
        // DW_OP_addr (8 bytes), DW_OP_const_type 0x10 4 [1 2 3 4], DW_OP_bra -3
        rt(
            &[
                0x03, 1, 2, 3, 4, 5, 6, 7, 8, 0xa4, 0x10, 0x04, 1, 2, 3, 4, 0x28, 0xfd, 0xff,
            ],
            enc,
        );
    }

    #[test]
    fn amd_operations_in_both_encodings() {
        let user = Encoding::default();
        // DW_OP_lit5, DW_OP_LLVM_user form_aspace_address, DW_OP_LLVM_user offset_uconst 16,
        // DW_OP_LLVM_user extend 32 4, DW_OP_LLVM_user piece_end
        let ops = rt(
            &[
                0x35, 0xe9, 0x02, 0xe9, 0x05, 0x10, 0xe9, 0x0b, 0x20, 0x04, 0xe9, 0x0a,
            ],
            user,
        );
        assert_eq!(
            ops[1],
            DwarfOp::Amd {
                op: AmdOp::FormAspaceAddress,
                operands: smallvec::smallvec![]
            }
        );
        assert_eq!(
            ops[3],
            DwarfOp::Amd {
                op: AmdOp::Extend,
                operands: smallvec::smallvec![Operand::Uleb(32), Operand::Uleb(4)]
            }
        );
        let old = Encoding {
            amd_single_byte: true,
            ..user
        };
        let bytes = encode(&ops, old).unwrap();
        assert_eq!(bytes, vec![0x35, 0xe1, 0xe4, 0x10, 0xeb, 0x20, 0x04, 0xea]);
        assert_eq!(decode(&bytes, old).unwrap(), ops);
        // aspace_implicit_pointer has only the old opcode; nop only the new one.
        let p = vec![DwarfOp::Amd {
            op: AmdOp::AspaceImplicitPointer,
            operands: smallvec::smallvec![Operand::U(0x40), Operand::S(-2)],
        }];
        assert_eq!(encode(&p, old).unwrap(), vec![0xe9, 0x40, 0, 0, 0, 0x7e]);
        assert!(encode(&p, user).unwrap_err().matches("DWARF: no-encoding"));
    }

    #[test]
    fn bad_bytes_are_malformed() {
        let enc = Encoding::default();
        for (bytes, reason) in [
            (&[0x0c, 0x01][..], "DWARF: truncated"),
            (&[0x10, 0x80][..], "DWARF: truncated"),
            (&[0x9e, 0x05, 0x01][..], "DWARF: truncated"),
            (&[0x01][..], "DWARF: unknown-opcode"),
            (&[0xe9, 0x7f][..], "DWARF: unknown-opcode"),
            (
                &[
                    0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
                ][..],
                "DWARF: leb128-overflow",
            ),
        ] {
            let e = decode(bytes, enc).unwrap_err();
            assert!(e.matches(reason), "{bytes:x?}: {e}");
        }
        // entry_value nested 100 deep: bounded, no stack overflow.
        let mut b = vec![0x9f];
        for _ in 0..100 {
            let mut outer = vec![0xa3];
            put_uleb(&mut outer, b.len() as u64);
            outer.extend_from_slice(&b);
            b = outer;
        }
        assert!(decode(&b, enc).unwrap_err().matches("DWARF: too-deep"));
    }

    /// gimli decodes every standard operation to the same length as we do.
    #[test]
    fn operand_lengths_agree_with_gimli() {
        use gimli::{EndianSlice, LittleEndian};
        let enc = Encoding::default();
        let genc = gimli::Encoding {
            address_size: 8,
            format: gimli::Format::Dwarf32,
            version: 5,
        };
        let samples: Vec<Vec<u8>> = vec![
            vec![0x03, 1, 2, 3, 4, 5, 6, 7, 8],
            vec![0x08, 7],
            vec![0x0b, 0xff, 0x7f],
            vec![0x0e, 1, 2, 3, 4, 5, 6, 7, 8],
            vec![0x10, 0xe5, 0x8e, 0x26],
            vec![0x11, 0x7f],
            vec![0x23, 0x10],
            vec![0x28, 0x00, 0x00],
            vec![0x77, 0x10],
            vec![0x90, 0x21],
            vec![0x91, 0x68],
            vec![0x92, 0x21, 0x08],
            vec![0x93, 0x04],
            vec![0x94, 0x04],
            vec![0x98, 0x10, 0x00],
            vec![0x99, 0x10, 0x00, 0x00, 0x00],
            vec![0x9d, 0x08, 0x00],
            vec![0x9e, 0x02, 0xaa, 0xbb],
            vec![0xa0, 0x10, 0x00, 0x00, 0x00, 0x04],
            vec![0xa1, 0x03],
            vec![0xa3, 0x01, 0x55],
            vec![0xa4, 0x10, 0x02, 0x01, 0x02],
            vec![0xa5, 0x05, 0x10],
            vec![0xa6, 0x04, 0x10],
            vec![0xa8, 0x10],
            vec![0xa9, 0x10],
        ];
        for s in samples {
            let ours = decode(&s, enc).unwrap();
            assert_eq!(ours.len(), 1, "{s:x?}");
            let mut r = EndianSlice::new(&s, LittleEndian);
            gimli::Operation::parse(&mut r, genc)
                .unwrap_or_else(|e| panic!("gimli rejects {s:x?}: {e}"));
            assert!(r.is_empty(), "gimli left {} bytes of {s:x?}", r.len());
        }
    }
}
