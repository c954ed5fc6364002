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
    /// An implicit pointer to the operand's location, `levels` deep.
    ImplicitPointer(u32),
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
    fn ill(&self, reason: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
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
    /// Two operands of one type (DWARF 5, Section 2.5.1.4: "the operands
    /// of an arithmetic or logical operation ... must be of the same
    /// type").
    ///
    /// LLVM's salvages break this rule (a `DW_OP_LLVM_convert` of one
    /// operand and a generic other): the verdict stays `type-mismatch`,
    /// and the diagnostic says how each DWARF version reads it.
    fn pop_pair(&mut self) -> Result<CTy, Diag> {
        let top = self.pop()?;
        let second = self.pop()?;
        if top != second {
            return Err(self.ill(
                "type-mismatch",
                format!(
                    "operands of types `{second}` and `{top}`. DWARF 5 (Section 2.5.1.4) wants \
                     both operands of a binary operation of one type, so a DWARF 5 consumer \
                     (gdb, gimli) stops here; for DWARF 4, and where DW_OP_convert is disabled \
                     (lldb tuning), LLVM writes each DW_OP_LLVM_convert as a zero or sign \
                     extension of a generic value, and a consumer computes the operation on \
                     generic values"
                ),
            ));
        }
        Ok(top)
    }
}

/// The bits of operand `i` as it is pushed: its type's size.
pub fn operand_bits(sig: &Signature, i: u32) -> Result<u64, Diag> {
    let t = sig.args.get(i as usize).ok_or_else(|| {
        Diag::ill(
            "DW_OP_LLVM_arg",
            "no-such-operand",
            format!("operand {i} of {}", sig.args.len()),
        )
    })?;
    match t {
        Type::Int(_)
        | Type::Ptr { .. }
        | Type::Half
        | Type::BFloat
        | Type::Float
        | Type::Double
        | Type::X86Fp80
        | Type::Fp128
        | Type::PpcFp128 => {
            let n = sig.layout.bitsizeof(t);
            if n > MAX_BASE_BITS {
                return Err(Diag::unsupported(
                    "DW_OP_LLVM_arg",
                    "operand-too-wide",
                    format!("operand {i} of type `{t}` is wider than the widest base type, {MAX_BASE_BITS} bits"),
                ));
            }
            Ok(n)
        }
        other => Err(Diag::unsupported(
            "DW_OP_LLVM_arg",
            "operand-type",
            format!("an operand of type `{other}` is not pushed as a DWARF value"),
        )),
    }
}

/// The type operand `i` is pushed with: generic if it fits the generic
/// type, else a base type of its own size.
///
/// DECISION (D-classic-wide-operand): an operand wider than the generic
/// type (an `i128` on a 64-bit target) is pushed when the next operation
/// is `DW_OP_LLVM_convert`, which gives it a base type: it is pushed as a
/// value of an unsigned base type of its own size, and the convert
/// re-types it (`DW_OP_LLVM_convert, 128, DW_ATE_signed,
/// DW_OP_LLVM_convert, 64, ...` is how LLVM salvages a `trunc` of it,
/// and LLVM writes it with a base type of that size). Used any other way
/// it does not fit a generic value and stays `operand-too-wide`
/// (`unsupported`): which bits a 64-bit operation on a 128-bit value
/// would see is not something DWARF or LLVM says. Operands up to 128 bits,
/// the widest base type, are pushed.
pub fn operand_type(sig: &Signature, i: u32, w: u64) -> Result<CTy, Diag> {
    let bits = operand_bits(sig, i)?;
    Ok(if bits > w {
        CTy {
            bits,
            num: Num::Unsigned,
        }
    } else {
        CTy::generic(w)
    })
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
            COp::EntryValue(n) => check_entry_value_place(e, p, sig, i, *n)?,
            COp::ImplicitPointer => check_implicit_pointer_place(e, p, sig)?,
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
    let pointer_levels = body
        .iter()
        .filter(|op| matches!(op, COp::ImplicitPointer))
        .count() as u32;
    let entry_value = matches!(body.first(), Some(COp::EntryValue(_)));
    // The entry value pushes the operand itself; an implicit pointer does
    // not read it.
    let implicit_push =
        !variadic && n_args == 1 && !describes_operand && pointer_levels == 0 && !entry_value;
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
        wide_operand_converted(&c, body.first())?;
    }
    // The kind, and how many operations are evaluated.
    let (kind, evaluated) = if no_global {
        (Kind::Undefined, 0)
    } else if pointer_levels > 0 {
        (Kind::ImplicitPointer(pointer_levels), 0)
    } else if entry_value && body.len() == 1 && p.intrinsic == Intrinsic::Value {
        // LLVM writes a lone entry value as `DW_OP_entry_value(...),
        // DW_OP_stack_value`: the value (D-classic-entry-value).
        (Kind::Implicit(CTy::generic(w)), 1)
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
    for (i, op) in body[..evaluated].iter().enumerate() {
        c.op = op.name();
        check_op(&mut c, op)?;
        let pushes_operand = matches!(op, COp::Arg(_) | COp::EntryValue(_));
        if pushes_operand {
            wide_operand_converted(&c, body.get(i + 1))?;
        }
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
    if matches!(kind, Kind::ImplicitPointer(_)) && sig.layout.bitsizeof(&result) != w {
        return Err(Diag::ill(
            "DW_OP_LLVM_implicit_pointer",
            "size-mismatch",
            format!("the variable `{result}` is not a {w}-bit pointer"),
        ));
    }
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
        Kind::ImplicitPointer(_) => Type::ptr(0),
        Kind::Memory | Kind::Undefined => Type::Int(w),
    })
}

/// A just-pushed operand wider than the generic type must be converted by
/// the next operation, `next` (D-classic-wide-operand).
fn wide_operand_converted(c: &Checker, next: Option<&COp>) -> Result<(), Diag> {
    let Some(top) = c.stack.last() else {
        return Ok(());
    };
    if top.num == Num::Generic || matches!(next, Some(COp::Convert(..))) {
        return Ok(());
    }
    Err(Diag::unsupported(
        "DW_OP_LLVM_arg",
        "operand-too-wide",
        format!(
            "a {}-bit operand is wider than the {}-bit generic type; it is pushed only for a DW_OP_LLVM_convert to follow",
            top.bits, c.w
        ),
    ))
}

/// Where `DW_OP_LLVM_entry_value, N` may stand.
///
/// DECISION (D-classic-entry-value): LangRef: it "refers to the value a
/// register had upon function entry", "may only appear at the beginning
/// of a DIExpression", and "currently, only N = 1 is supported", the one
/// operation after it being the operand's push. In a `dbg.value` with one
/// operand (the non-variadic form) it pushes the operand's value read in
/// the context's entry state, at the same place (`(entry ...)`), where the
/// operand would be pushed; the rest of the expression is evaluated as
/// usual, and a lone entry value describes that value, as LLVM writes it
/// (`DW_OP_entry_value(...)`, `DW_OP_stack_value`). A context without an
/// entry state makes evaluation `unsupported`; so do the SMT encoding and
/// the DIOp translation, which have no entry state.
fn check_entry_value_place(
    e: &ClassicExpr,
    p: &Params,
    sig: &Signature,
    i: usize,
    n: u64,
) -> Result<(), Diag> {
    let name = "DW_OP_LLVM_entry_value";
    if i != 0 {
        return Err(Diag::ill(
            name,
            "not-first",
            "an entry value is the first operation",
        ));
    }
    if n != 1 {
        return Err(Diag::ill(
            name,
            "bad-count",
            format!("`DW_OP_LLVM_entry_value, {n}`: LLVM supports a count of 1 only"),
        ));
    }
    if e.is_variadic() || sig.args.len() != 1 || p.intrinsic == Intrinsic::Global {
        return Err(Diag::unsupported(
            name,
            "form",
            "dioptra models an entry value of the one operand of a non-variadic dbg.value or dbg.declare",
        ));
    }
    Ok(())
}

/// Where `DW_OP_LLVM_implicit_pointer` may stand.
///
/// DECISION (D-classic-implicit-pointer): LangRef: it "specifies the
/// dereferenced value", for "pointer variables which are optimized out but
/// the value it points to is known": `dbg.value(i32 %v, !p,
/// !DIExpression(DW_OP_LLVM_implicit_pointer))` says `*p` is `%v`, and
/// each further `DW_OP_LLVM_implicit_pointer` adds a level (`int **`).
/// The variable's location is then an implicit pointer (the spec's
/// implicit address storage, as `DIOpAddrOf` makes) to the operand's own
/// location, `levels` deep; its type is a pointer. It stands only in a
/// `dbg.value` of one operand, and only with other implicit pointers (and a
/// fragment): the operand is a value, not an address to compute with.
fn check_implicit_pointer_place(e: &ClassicExpr, p: &Params, sig: &Signature) -> Result<(), Diag> {
    let name = "DW_OP_LLVM_implicit_pointer";
    if p.intrinsic != Intrinsic::Value {
        return Err(Diag::ill(
            name,
            "not-a-value",
            "an implicit pointer describes a dbg.value's variable",
        ));
    }
    if e.is_variadic() || sig.args.len() != 1 {
        return Err(Diag::ill(
            name,
            "operand-count",
            "an implicit pointer points to exactly one operand",
        ));
    }
    let alone = e
        .ops
        .iter()
        .all(|op| matches!(op, COp::ImplicitPointer | COp::Fragment(..)));
    if !alone {
        return Err(Diag::ill(
            name,
            "not-alone",
            "only further DW_OP_LLVM_implicit_pointer operations and a fragment may stand with it",
        ));
    }
    Ok(())
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
        COp::EntryValue(_) => check_entry_value(c),
        COp::StackValue
        | COp::Memory
        | COp::Fragment(..)
        | COp::ImplicitPointer
        | COp::Other(..) => Err(c.ill(
            "internal-error",
            "a terminator inside the body (a dioptra bug)",
        )),
    }
}

/// `DW_OP_LLVM_arg, N`: "the value of the N-th operand of the intrinsic's
/// DIArgList is pushed", as a generic value.
pub fn check_arg(c: &mut Checker, n: u32) -> Result<(), Diag> {
    let t = operand_type(c.sig, n, c.w)?;
    c.push(t);
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

/// `DW_OP_LLVM_entry_value, 1`: pushes operand 0 (its value on entry), as
/// `DW_OP_LLVM_arg, 0` pushes it now.
pub fn check_entry_value(c: &mut Checker) -> Result<(), Diag> {
    check_arg(c, 0)
}

/// `DW_OP_LLVM_tag_offset, N`: "specifies that a memory tag should be
/// optionally applied to the pointer. The memory tag is derived from the
/// given tag offset in an implementation-defined manner" (LangRef). The
/// stack and the location are unchanged (D-tag-offset).
pub fn check_tag_offset(_c: &mut Checker) -> Result<(), Diag> {
    Ok(())
}
