//! Static rules of classic expressions: where the terminators may stand,
//! which operands exist, and the type of every stack value (a classic
//! expression has no branches, so DWARF's dynamic type rules are static
//! here). One `check_<op>` per op.

use super::{COp, CTy, ClassicExpr, Encoding, Intrinsic, Num, Params};
use crate::context::Signature;
use crate::diag::Diag;
use crate::types::Type;

/// What a well-formed classic expression describes.
///
/// DECISION (D-classic-location-kind): as LLVM's backend turns the
/// expression into DWARF (`DwarfExpression`), and as the rule says:
/// an expression describes a memory location unless it ends in
/// `DW_OP_stack_value`. In detail, for `dbg.value`: an empty expression
/// (fragment aside) describes the operand itself (its register or value);
/// one ending in `DW_OP_stack_value` the value on top of the stack; one
/// ending in `DW_OP_LLVM_memory` (the RFC) the memory at the address on
/// top; one ending in `DW_OP_deref` the memory at the address the deref
/// would read (LLVM folds a trailing deref into a memory location
/// description, and LangRef's "direct value" reading gives the same
/// place); any other the memory at the address on top (DWARF's default).
/// For `dbg.declare` / `dbg.addr` the operand is an address, the
/// expression always describes memory, and a trailing deref is a deref.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The operand's own location.
    Operand(u32),
    /// No operand and no operation: the undefined location.
    Undefined,
    /// An implicit value of this type.
    Implicit(CTy),
    /// Memory in address space 0 at the address on top of the stack.
    Memory,
}

/// The result of the static check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub kind: Kind,
    /// How many leading operations are evaluated (the terminator, a folded
    /// trailing deref and the fragment are not).
    pub body: usize,
    /// Is operand 0 pushed before the first operation (the non-variadic
    /// form)?
    pub implicit_push: bool,
    pub fragment: Option<(u64, u64)>,
    /// The address size: the generic type's width.
    pub w: u64,
    /// The type the result is read as: the variable's (or its fragment's).
    pub result: Type,
}

/// The widest base type `DW_OP_LLVM_convert` may make (a bound).
pub const MAX_BASE_BITS: u64 = 128;

/// The static checker's state.
pub struct Checker<'a> {
    pub sig: &'a Signature,
    pub w: u64,
    pub stack: Vec<CTy>,
    op: &'static str,
}

impl Checker<'_> {
    fn ill(&self, reason: &'static str, msg: impl Into<String>) -> Diag {
        Diag::ill(self.op, reason, msg)
    }
    fn pop(&mut self) -> Result<CTy, Diag> {
        self.stack
            .pop()
            .ok_or_else(|| self.ill("stack-underflow", "the stack is empty"))
    }
    fn push(&mut self, t: CTy) {
        self.stack.push(t);
    }
    fn generic(&self) -> CTy {
        CTy::generic(self.w)
    }
    fn pop_generic(&mut self, what: &str) -> Result<CTy, Diag> {
        let t = self.pop()?;
        if t.num != Num::Generic {
            return Err(self.ill(
                "address-not-generic",
                format!("{what} is of base type `{t}`; an address is generic"),
            ));
        }
        Ok(t)
    }
    /// Two operands of one type (DWARF 5, Section 2.5.1.4).
    fn pop_pair(&mut self) -> Result<CTy, Diag> {
        let top = self.pop()?;
        let second = self.pop()?;
        if top != second {
            return Err(self.ill(
                "type-mismatch",
                format!("operands of types `{second}` and `{top}`"),
            ));
        }
        Ok(top)
    }
}

/// The bits of operand `i` pushed as a generic value: its type's size,
/// at most `W`.
pub fn operand_bits(sig: &Signature, i: u32, w: u64) -> Result<u64, Diag> {
    let t = sig.args.get(i as usize).ok_or_else(|| {
        Diag::ill(
            "DW_OP_LLVM_arg",
            "no-such-operand",
            format!("operand {i} of {}", sig.args.len()),
        )
    })?;
    let n = match t {
        Type::Int(_)
        | Type::Ptr { .. }
        | Type::Half
        | Type::BFloat
        | Type::Float
        | Type::Double => sig.layout.bitsizeof(t),
        other => {
            return Err(Diag::unsupported(
                "DW_OP_LLVM_arg",
                "operand-type",
                format!("an operand of type `{other}` is not pushed as a DWARF value"),
            ))
        }
    };
    if n > w {
        return Err(Diag::unsupported(
            "DW_OP_LLVM_arg",
            "operand-too-wide",
            format!("operand {i} of type `{t}` is wider than the {w}-bit generic type"),
        ));
    }
    Ok(n)
}

/// Checks `e` for `p.intrinsic` over the operand types `sig.args`.
pub fn check_classic(e: &ClassicExpr, sig: &Signature, p: &Params) -> Result<Checked, Diag> {
    // Classic expressions address memory in address space 0 with generic
    // values of its pointer size (D-wide-pointers).
    let w = u64::from(sig.layout.memory_pointer_bits(0)?);
    // Where the fragment and the terminators may stand.
    let mut end = e.ops.len();
    let mut fragment = None;
    for (i, op) in e.ops.iter().enumerate() {
        match op {
            COp::Fragment(o, s) => {
                if i + 1 != e.ops.len() {
                    return Err(Diag::ill(
                        op.name(),
                        "not-last",
                        "the fragment is the last operation",
                    ));
                }
                if *s == 0 {
                    return Err(Diag::ill(op.name(), "zero-size", "a fragment of no bits"));
                }
                if o.checked_add(*s).is_none() {
                    return Err(Diag::ill(
                        op.name(),
                        "out-of-range",
                        "offset + size overflows",
                    ));
                }
                fragment = Some((*o, *s));
                end = i;
            }
            COp::StackValue | COp::Memory => {
                let last = i + 1 == e.ops.len()
                    || (i + 2 == e.ops.len() && matches!(e.ops[i + 1], COp::Fragment(..)));
                if !last {
                    return Err(Diag::ill(
                        op.name(),
                        "not-last",
                        "only DW_OP_LLVM_fragment may follow it",
                    ));
                }
                if p.intrinsic == Intrinsic::Declare {
                    return Err(Diag::ill(
                        op.name(),
                        "in-declare",
                        "dbg.declare and dbg.addr describe memory: no DW_OP_stack_value or DW_OP_LLVM_memory",
                    ));
                }
            }
            COp::Arg(_) if p.intrinsic == Intrinsic::Declare => {
                return Err(Diag::ill(
                    op.name(),
                    "in-declare",
                    "dbg.declare and dbg.addr take one address, not a DIArgList",
                ))
            }
            COp::Arg(_) if p.intrinsic == Intrinsic::Global => return Err(Diag::ill(
                op.name(),
                "in-global",
                "a global variable's expression applies to the global's address, not a DIArgList",
            )),
            COp::Other(name, _) => {
                return Err(Diag::unsupported(
                    *name,
                    "not-modelled",
                    "dioptra parses this operation but does not model it",
                ))
            }
            _ => {}
        }
    }
    let body = &e.ops[..end];
    let variadic = e.is_variadic();
    let n_args = sig.args.len();
    // DECISION (D-classic-implicit-operand): operand 0 is pushed before the
    // first operation exactly when the expression names no operand with
    // `DW_OP_LLVM_arg` and there is one operand (LLVM's non-variadic
    // form); several operands need `DW_OP_LLVM_arg`. An empty `dbg.value`
    // expression describes the operand without pushing (so without
    // reading) it.
    let describes_operand = body.is_empty() && p.intrinsic == Intrinsic::Value;
    let implicit_push = !variadic && n_args == 1 && !describes_operand;
    if !variadic && n_args > 1 {
        return Err(Diag::ill(
            "DIExpression",
            "operand-count",
            format!("{n_args} operands, but the expression names none with DW_OP_LLVM_arg"),
        ));
    }
    if p.intrinsic == Intrinsic::Declare && n_args != 1 {
        return Err(Diag::ill(
            "DIExpression",
            "operand-count",
            "dbg.declare and dbg.addr take exactly one address",
        ));
    }
    // DECISION (D-classic-global): a `DIGlobalVariableExpression`'s
    // expression is applied to the global's address, as LLVM's DWARF writer
    // does (`DW_OP_addr` of the global, then the expression): its operand,
    // if any, is that address, pushed before the first operation; the
    // result is an implicit value after `DW_OP_stack_value` and otherwise
    // the memory at the address on top, after every operation (a trailing
    // `DW_OP_deref` reads, as in any DWARF location expression, unlike
    // `dbg.value`'s). Without a global the expression is a constant
    // (GlobalOpt's folded globals), and an empty one is no location.
    if p.intrinsic == Intrinsic::Global && n_args > 1 {
        return Err(Diag::ill(
            "DIExpression",
            "operand-count",
            "a global variable's expression has at most one operand, the global's address",
        ));
    }
    let no_global = p.intrinsic == Intrinsic::Global && n_args == 0 && body.is_empty();
    let mut c = Checker {
        sig,
        w,
        stack: Vec::new(),
        op: "DIExpression",
    };
    if implicit_push {
        c.op = "DW_OP_LLVM_arg";
        check_arg(&mut c, 0)?;
    }
    // The kind, and how many operations are evaluated.
    let (kind, evaluated) = if no_global {
        (Kind::Undefined, 0)
    } else if describes_operand {
        if n_args == 0 {
            (Kind::Undefined, 0)
        } else {
            (Kind::Operand(0), 0)
        }
    } else {
        match body.last() {
            Some(COp::StackValue) => (Kind::Implicit(CTy::generic(w)), body.len() - 1),
            Some(COp::Memory) => (Kind::Memory, body.len() - 1),
            Some(COp::Deref) if p.intrinsic == Intrinsic::Value => (Kind::Memory, body.len() - 1),
            _ => (Kind::Memory, body.len()),
        }
    };
    for op in &body[..evaluated] {
        c.op = op.name();
        check_op(&mut c, op)?;
    }
    c.op = "DIExpression";
    let kind = match kind {
        Kind::Implicit(_) => Kind::Implicit(
            *c.stack
                .last()
                .ok_or_else(|| c.ill("empty-stack", "DW_OP_stack_value with an empty stack"))?,
        ),
        Kind::Memory => {
            if c.stack.is_empty() {
                return Err(c.ill("empty-stack", "no address on the stack at the end"));
            }
            c.pop_generic("the address at the end")?;
            Kind::Memory
        }
        k => k,
    };
    let result = result_type(sig, p, kind, fragment, w)?;
    // D-size-bounds: the variable (or fragment) is a type like any other.
    sig.layout.check_size(&result)?;
    Ok(Checked {
        kind,
        body: evaluated,
        implicit_push,
        fragment,
        w,
        result,
    })
}

fn result_type(
    sig: &Signature,
    p: &Params,
    kind: Kind,
    fragment: Option<(u64, u64)>,
    w: u64,
) -> Result<Type, Diag> {
    if let Some((o, s)) = fragment {
        if let Some(v) = &p.variable {
            let bits = sig.layout.bitsizeof(v);
            if o + s > bits {
                return Err(Diag::ill(
                    "DW_OP_LLVM_fragment",
                    "out-of-range",
                    format!("bits [{o}, {}) of a variable of type `{v}`", o + s),
                ));
            }
        }
        return Ok(Type::Int(s));
    }
    if let Some(v) = &p.variable {
        return Ok(v.clone());
    }
    Ok(match kind {
        Kind::Operand(i) => sig.args[i as usize].clone(),
        Kind::Implicit(t) => Type::Int(t.bits),
        Kind::Memory | Kind::Undefined => Type::Int(w),
    })
}

/// One operation of the body.
fn check_op(c: &mut Checker, op: &COp) -> Result<(), Diag> {
    match op {
        COp::Arg(n) => check_arg(c, *n),
        COp::Lit(_) | COp::Constu(_) | COp::Consts(_) => check_constant(c),
        COp::Dup => check_dup(c),
        COp::Drop => check_drop(c),
        COp::Swap => check_swap(c),
        COp::Over => check_over(c),
        COp::Deref => check_deref(c),
        COp::DerefSize(n) => check_deref_size(c, *n),
        COp::Plus => check_plus(c),
        COp::PlusUconst(_) => check_plus_uconst(c),
        COp::Minus => check_minus(c),
        COp::Mul => check_mul(c),
        COp::Div => check_div(c),
        COp::Mod => check_mod(c),
        COp::And | COp::Or | COp::Xor => check_bitwise(c),
        COp::Not => check_not(c),
        COp::Neg => check_neg(c),
        COp::Shl | COp::Shr | COp::Shra => check_shift(c),
        COp::Eq | COp::Ne | COp::Lt | COp::Le | COp::Gt | COp::Ge => check_relational(c),
        COp::Convert(bits, enc) => check_convert(c, *bits, *enc),
        COp::ExtractBits { offset, len, .. } => check_extract_bits(c, *offset, *len),
        COp::TagOffset(_) => check_tag_offset(c),
        COp::StackValue | COp::Memory | COp::Fragment(..) | COp::Other(..) => Err(c.ill(
            "internal-error",
            "a terminator inside the body (a dioptra bug)",
        )),
    }
}

/// `DW_OP_LLVM_arg, N`: "the value of the N-th operand of the intrinsic's
/// DIArgList is pushed", as a generic value.
pub fn check_arg(c: &mut Checker, n: u32) -> Result<(), Diag> {
    operand_bits(c.sig, n, c.w)?;
    let g = c.generic();
    c.push(g);
    Ok(())
}

/// `DW_OP_lit<n>`, `DW_OP_constu`, `DW_OP_consts`: push a generic value.
pub fn check_constant(c: &mut Checker) -> Result<(), Diag> {
    let g = c.generic();
    c.push(g);
    Ok(())
}

/// `DW_OP_dup`: duplicates the top entry.
pub fn check_dup(c: &mut Checker) -> Result<(), Diag> {
    super::shuffle::dup(&mut c.stack)
        .ok_or_else(|| c.ill("stack-underflow", "the stack is too short"))
}

/// `DW_OP_drop`: pops the top entry.
pub fn check_drop(c: &mut Checker) -> Result<(), Diag> {
    c.pop().map(|_| ())
}

/// `DW_OP_swap`: swaps the top two entries.
pub fn check_swap(c: &mut Checker) -> Result<(), Diag> {
    super::shuffle::swap(&mut c.stack)
        .ok_or_else(|| c.ill("stack-underflow", "the stack is too short"))
}

/// `DW_OP_over`: copies the second entry to the top.
pub fn check_over(c: &mut Checker) -> Result<(), Diag> {
    super::shuffle::over(&mut c.stack)
        .ok_or_else(|| c.ill("stack-underflow", "the stack is too short"))
}

/// `DW_OP_deref`: pops a generic address, pushes the generic value there.
pub fn check_deref(c: &mut Checker) -> Result<(), Diag> {
    c.pop_generic("the address")?;
    let g = c.generic();
    c.push(g);
    Ok(())
}

/// `DW_OP_deref_size, N`: as `DW_OP_deref`, reading `N` bytes (at most an
/// address's), zero-extended.
pub fn check_deref_size(c: &mut Checker, n: u8) -> Result<(), Diag> {
    if n == 0 || n as u64 * 8 > c.w {
        return Err(c.ill(
            "bad-size",
            format!("{n} bytes: 1 to {} for a {}-bit address", c.w / 8, c.w),
        ));
    }
    check_deref(c)
}

/// Two operands of one type (DWARF 5, Section 2.5.1.4), a result of that
/// type.
fn same_type_pair(c: &mut Checker) -> Result<(), Diag> {
    let t = c.pop_pair()?;
    c.push(t);
    Ok(())
}

/// One operand, a result of its type.
fn same_type(c: &mut Checker) -> Result<(), Diag> {
    let t = c.pop()?;
    c.push(t);
    Ok(())
}

/// `DW_OP_plus`: two operands of one type.
pub fn check_plus(c: &mut Checker) -> Result<(), Diag> {
    same_type_pair(c)
}

/// `DW_OP_plus_uconst`: any integral operand.
pub fn check_plus_uconst(c: &mut Checker) -> Result<(), Diag> {
    same_type(c)
}

/// `DW_OP_minus`: two operands of one type.
pub fn check_minus(c: &mut Checker) -> Result<(), Diag> {
    same_type_pair(c)
}

/// `DW_OP_mul`: two operands of one type.
pub fn check_mul(c: &mut Checker) -> Result<(), Diag> {
    same_type_pair(c)
}

/// `DW_OP_div`: two operands of one type.
pub fn check_div(c: &mut Checker) -> Result<(), Diag> {
    same_type_pair(c)
}

/// `DW_OP_mod`: two operands of one type.
pub fn check_mod(c: &mut Checker) -> Result<(), Diag> {
    same_type_pair(c)
}

/// `DW_OP_and`, `DW_OP_or`, `DW_OP_xor`: two operands of one type.
pub fn check_bitwise(c: &mut Checker) -> Result<(), Diag> {
    same_type_pair(c)
}

/// `DW_OP_not`: one operand.
pub fn check_not(c: &mut Checker) -> Result<(), Diag> {
    same_type(c)
}

/// `DW_OP_neg`: one operand.
pub fn check_neg(c: &mut Checker) -> Result<(), Diag> {
    same_type(c)
}

/// `DW_OP_shl`, `shr`, `shra`: the amount on top may be of any integral
/// type; the result has the shifted value's type.
pub fn check_shift(c: &mut Checker) -> Result<(), Diag> {
    c.pop()?;
    let t = c.pop()?;
    c.push(t);
    Ok(())
}

/// `DW_OP_eq`, `ne`, `lt`, `le`, `gt`, `ge`: two operands of one type, a
/// generic 1 or 0.
pub fn check_relational(c: &mut Checker) -> Result<(), Diag> {
    c.pop_pair()?;
    let g = c.generic();
    c.push(g);
    Ok(())
}

/// `DW_OP_LLVM_convert, BITS, ENCODING`: the top entry converted to a base
/// type of `BITS` bits.
pub fn check_convert(c: &mut Checker, bits: u64, enc: Encoding) -> Result<(), Diag> {
    if bits == 0 || bits > MAX_BASE_BITS {
        return Err(c.ill(
            "bad-size",
            format!("a base type of {bits} bits (1 to {MAX_BASE_BITS})"),
        ));
    }
    c.pop()?;
    c.push(CTy {
        bits,
        num: match enc {
            Encoding::Signed => Num::Signed,
            Encoding::Unsigned => Num::Unsigned,
        },
    });
    Ok(())
}

/// `DW_OP_LLVM_extract_bits_zext|sext, OFFSET, LEN`: bits `[OFFSET,
/// OFFSET + LEN)` of the top entry, extended back to its type.
pub fn check_extract_bits(c: &mut Checker, offset: u64, len: u64) -> Result<(), Diag> {
    let t = c.pop()?;
    if len == 0 || offset.checked_add(len).is_none_or(|e| e > t.bits) {
        return Err(c.ill(
            "out-of-range",
            format!(
                "bits [{offset}, {offset} + {len}) of a {}-bit value",
                t.bits
            ),
        ));
    }
    c.push(t);
    Ok(())
}

/// `DW_OP_LLVM_tag_offset, N`: "specifies that a memory tag should be
/// optionally applied to the pointer. The memory tag is derived from the
/// given tag offset in an implementation-defined manner" (LangRef). The
/// stack and the location are unchanged (D-tag-offset).
pub fn check_tag_offset(_c: &mut Checker) -> Result<(), Diag> {
    Ok(())
}
