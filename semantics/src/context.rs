//! The evaluation context: what evaluating an expression may ask for.
//!
//! Spec, "LLVM Expression Evaluation Context": the context of the DWARF
//! extensions, less the current result kind, object and initial stack. What a
//! DIOp expression can ask for is: memory per address space, registers, the
//! referrer's location and type (bounded lifetime segments), the inputs'
//! (`argObjects`) locations and types, the type object (type property
//! fragments), the lane id (SIMT targets), and the data layout.

use crate::bits::Bits;
use crate::diag::Diag;
use crate::limits::MAX_CONTEXT_BYTES;
use crate::location::{LocDesc, ReadFail};
use crate::text::lex::parse_u64;
use crate::text::sexpr::Node;
use crate::text::{parse_location, parse_type};
use crate::types::{DataLayout, Type};
use std::collections::BTreeMap;

/// A typed location supplied by the context: the referrer, an input, the
/// type object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub ty: Type,
    pub loc: LocDesc,
}

/// What evaluation may ask of its context.
pub trait Context {
    fn layout(&self) -> &DataLayout;
    /// The referrer of a bounded lifetime segment; `None` when the expression
    /// belongs to a computed segment.
    fn referrer(&self) -> Option<&Input>;
    /// The inputs (`argObjects`), in order.
    fn args(&self) -> &[Input];
    /// The object whose type property is being evaluated, if any.
    fn type_object(&self) -> Option<&Input>;
    /// The current lane, on a SIMD/SIMT target; `None` otherwise.
    fn lane(&self) -> Option<u64>;
    /// The size in bits of register `n`, if the context has it.
    fn register_bits(&self, n: u32) -> Option<u64>;
    /// `len` bits of register `n` from bit `offset` (in bounds).
    fn read_register(&self, n: u32, offset: u64, len: u64) -> Result<Bits, ReadFail>;
    /// `len` bits of memory in `addrspace` from bit `offset` (in bounds).
    fn read_memory(&self, addrspace: u32, offset: u128, len: u64) -> Result<Bits, ReadFail>;
    /// The machine state on entry to the function, if the context has one
    /// (DWARF's `DW_OP_entry_value`, LLVM's `DW_OP_LLVM_entry_value`).
    fn entry(&self) -> Option<&dyn Context> {
        None
    }

    /// The static view of this context that well-formedness needs.
    fn signature(&self) -> Signature {
        Signature {
            layout: self.layout().clone(),
            referrer: self.referrer().map(|i| i.ty.clone()),
            args: self.args().iter().map(|i| i.ty.clone()).collect(),
            type_object: self.type_object().map(|i| i.ty.clone()),
            simt: self.lane().is_some(),
        }
    }
}

/// What well-formedness depends on: the types of the inputs, and whether the
/// target is SIMD/SIMT.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Signature {
    pub layout: DataLayout,
    /// The referrer's type; `None` for a computed lifetime segment.
    pub referrer: Option<Type>,
    pub args: Vec<Type>,
    /// The type whose property is evaluated; `None` outside type properties.
    pub type_object: Option<Type>,
    /// Is the source language implemented with a SIMD/SIMT model?
    pub simt: bool,
}

/// Bytes with per-byte definedness: `None` is an undefined byte.
///
/// DECISION (D-missing-context-unsupported): a byte the context declares
/// undefined (`??`) is undefined (`undefined-bits`); a byte or register the
/// context does not declare at all is `unsupported`: the context, not the
/// expression, is incomplete.
type Bytes = Vec<Option<u8>>;

/// A concrete context, usually read from a file.
#[derive(Clone, Debug, Default)]
pub struct ConcreteContext {
    pub layout: DataLayout,
    pub referrer: Option<Input>,
    pub args: Vec<Input>,
    pub type_object: Option<Input>,
    pub lane: Option<u64>,
    /// Register contents, little-endian bytes.
    pub registers: BTreeMap<u32, Bytes>,
    /// Memory segments: (address space, start address) to bytes.
    pub memory: BTreeMap<(u32, u64), Bytes>,
    /// Where LLVM entities of a module listing are (`%x`, `$r0`, `@g`,
    /// `^block`): used by the lifetimes evaluation for referrers, global
    /// variable fragments and code locations.
    pub bindings: BTreeMap<String, LocDesc>,
    /// The machine state on entry to the subprogram (registers and memory),
    /// for DWARF's `DW_OP_entry_value` and `DW_OP_LLVM_call_frame_entry_reg`.
    pub entry: Option<Box<ConcreteContext>>,
    declared_bytes: u64,
}

impl ConcreteContext {
    fn byte(&self, addrspace: u32, addr: u64) -> Option<Option<u8>> {
        let (&(a, start), bytes) = self.memory.range(..=(addrspace, addr)).next_back()?;
        if a != addrspace {
            return None;
        }
        let k = addr.checked_sub(start)?;
        bytes.get(usize::try_from(k).ok()?).copied()
    }

    /// Adds a memory segment; overlapping segments are an error.
    pub fn add_memory(&mut self, addrspace: u32, start: u64, bytes: Bytes) -> Result<(), Diag> {
        let n = bytes.len() as u64;
        let p = self.layout.memory_pointer_bits(addrspace)?;
        let limit = if p >= 64 { u64::MAX } else { (1u64 << p) - 1 };
        if n == 0 || start.checked_add(n - 1).is_none_or(|end| end > limit) {
            return Err(Diag::malformed(
                "Context",
                "memory-out-of-range",
                format!("{n} bytes at 0x{start:x} do not fit in address space {addrspace} ({p}-bit pointers)"),
            ));
        }
        let end = start + (n - 1);
        // Segments are disjoint, so only the last one that starts at or
        // before `end` can reach `start` (the ones before it end before it
        // starts): one look-up, not a scan (a context of 200 000 segments
        // loads in linear time).
        let clash = self
            .memory
            .range((addrspace, 0)..=(addrspace, end))
            .next_back()
            .is_some_and(|(&(_, s), b)| s + (b.len() as u64 - 1) >= start);
        if clash {
            return Err(Diag::malformed(
                "Context",
                "overlapping-memory",
                format!("memory at 0x{start:x} in address space {addrspace} is declared twice"),
            ));
        }
        self.count(n)?;
        self.memory.insert((addrspace, start), bytes);
        Ok(())
    }

    pub fn add_register(&mut self, n: u32, bytes: Bytes) -> Result<(), Diag> {
        if bytes.is_empty() || self.registers.contains_key(&n) {
            return Err(Diag::malformed(
                "Context",
                "bad-register",
                format!("register {n} is empty or declared twice"),
            ));
        }
        self.count(bytes.len() as u64)?;
        self.registers.insert(n, bytes);
        Ok(())
    }

    fn count(&mut self, n: u64) -> Result<(), Diag> {
        self.declared_bytes += n;
        if self.declared_bytes > MAX_CONTEXT_BYTES {
            return Err(Diag::malformed(
                "Context",
                "too-large",
                format!("a context declares at most {MAX_CONTEXT_BYTES} bytes"),
            ));
        }
        Ok(())
    }
}

/// `len` bits from bit `offset` of `bytes` when they span at most 16 bytes,
/// every one of them present and defined: `None` otherwise, and the caller
/// reads byte by byte ([`bits_from_bytes`]), which names the byte that
/// fails. Nearly every read of a register or a memory segment is this one,
/// and copying the span at once costs a fraction of a call per byte.
fn bits_from_defined(bytes: &[Option<u8>], offset: u128, len: u64) -> Option<Bits> {
    if len == 0 {
        return None;
    }
    let first = usize::try_from(offset / 8).ok()?;
    // A span that would end past bit 2^128 is not this fast path's either.
    let last = usize::try_from(offset.checked_add(u128::from(len) - 1)? / 8).ok()?;
    if last - first >= 16 {
        return None;
    }
    let mut buf = [0u8; 16];
    for (slot, b) in buf.iter_mut().zip(bytes.get(first..=last)?) {
        *slot = (*b)?;
    }
    // `first..=last` holds every bit read, so `len <= 128 - offset % 8`.
    Some(Bits::from_u128(
        len,
        u128::from_le_bytes(buf) >> (offset % 8),
    ))
}

/// Assembles `len` bits from bit `offset` of a byte source.
fn bits_from_bytes(
    offset: u128,
    len: u64,
    mut byte: impl FnMut(u128) -> Result<u8, ReadFail>,
) -> Result<Bits, ReadFail> {
    if len == 0 {
        return Ok(Bits::zero(0));
    }
    let first = offset / 8;
    let last = (offset + len as u128 - 1) / 8;
    let shift = (offset % 8) as u64;
    // Up to 16 bytes (nearly every read) are gathered without allocating.
    if last - first < 16 {
        let mut buf = [0u8; 16];
        for (slot, k) in buf.iter_mut().zip(first..=last) {
            *slot = byte(k)?;
        }
        // `first..=last` holds every bit read, so `len <= 128 - shift`.
        return Ok(Bits::from_u128(len, u128::from_le_bytes(buf) >> shift));
    }
    let mut buf = Vec::with_capacity((last - first + 1) as usize);
    for k in first..=last {
        buf.push(byte(k)?);
    }
    Ok(Bits::from_le_bytes(len + 8, &buf).extract(shift, len))
}

impl Context for ConcreteContext {
    fn layout(&self) -> &DataLayout {
        &self.layout
    }
    fn entry(&self) -> Option<&dyn Context> {
        self.entry.as_deref().map(|e| e as &dyn Context)
    }
    fn referrer(&self) -> Option<&Input> {
        self.referrer.as_ref()
    }
    fn args(&self) -> &[Input] {
        &self.args
    }
    fn type_object(&self) -> Option<&Input> {
        self.type_object.as_ref()
    }
    fn lane(&self) -> Option<u64> {
        self.lane
    }
    fn register_bits(&self, n: u32) -> Option<u64> {
        self.registers.get(&n).map(|b| b.len() as u64 * 8)
    }
    fn read_register(&self, n: u32, offset: u64, len: u64) -> Result<Bits, ReadFail> {
        let bytes = self.registers.get(&n).ok_or_else(|| {
            ReadFail::missing(
                "register-not-supplied",
                format!("the context does not declare register {n}"),
            )
        })?;
        if let Some(b) = bits_from_defined(bytes, offset.into(), len) {
            return Ok(b);
        }
        // A read past the register's declared bytes (a caller that took a
        // wider register than the context has) is an error, not a panic.
        bits_from_bytes(offset as u128, len, |k| match bytes.get(k as usize) {
            Some(Some(b)) => Ok(*b),
            Some(None) => Err(ReadFail::eval(
                "undefined-bits",
                format!("byte {k} of register {n} is undefined"),
            )),
            None => Err(ReadFail::missing(
                "register-not-supplied",
                format!(
                    "the context declares {} bytes of register {n}, not byte {k}",
                    bytes.len()
                ),
            )),
        })
    }
    fn read_memory(&self, addrspace: u32, offset: u128, len: u64) -> Result<Bits, ReadFail> {
        // The segment that holds the first byte usually holds them all: it
        // is looked up once, and a byte outside it the slow way.
        let segment = self
            .memory
            .range(..=(addrspace, (offset / 8) as u64))
            .next_back()
            .filter(|((a, _), _)| *a == addrspace);
        if let Some(((_, start), bytes)) = segment {
            if let Some(rel) = offset.checked_sub(u128::from(*start) * 8) {
                if let Some(b) = bits_from_defined(bytes, rel, len) {
                    return Ok(b);
                }
            }
        }
        let byte = |k: u128| match segment {
            Some(((_, start), bytes)) if k as u64 >= *start => bytes
                .get((k as u64 - start) as usize)
                .copied()
                .or_else(|| self.byte(addrspace, k as u64)),
            _ => self.byte(addrspace, k as u64),
        };
        bits_from_bytes(offset, len, |k| match byte(k) {
            Some(Some(b)) => Ok(b),
            Some(None) => Err(ReadFail::eval(
                "undefined-bits",
                format!("memory byte 0x{k:x} of address space {addrspace} is undefined"),
            )),
            None => Err(ReadFail::missing(
                "memory-not-supplied",
                format!(
                    "the context does not supply memory byte 0x{k:x} of address space {addrspace}"
                ),
            )),
        })
    }
}

/// A context that notes what anything evaluated against it read of the
/// machine state: registers, memory, the lane or the entry state. What
/// else a context gives (the layout, the inputs, the referrer, the type
/// object, register sizes) is fixed for a function's contexts, so an
/// evaluation that read no state gives the same result in every context
/// that differs from this one in state alone, and a caller evaluating in
/// many such contexts (the variants of a comparison) evaluates once.
///
/// More generally ([`Watched::reads_agree`]): an evaluation is a function
/// of what its context answers, and asks its next question from the
/// answers so far. Where another such context answers each of the state
/// reads noted here as this one did, the evaluation there asks the same
/// questions, gets the same answers, and gives the same result.
pub struct Watched<'a> {
    ctx: &'a dyn Context,
    /// The state reads, in order.
    reads: std::cell::RefCell<Vec<StateRead>>,
}

/// A read of machine state [`Watched`] noted.
#[derive(Clone, Copy, Debug)]
enum StateRead {
    Register {
        n: u32,
        offset: u64,
        len: u64,
    },
    Memory {
        addrspace: u32,
        offset: u128,
        len: u64,
    },
    Lane,
    /// The entry state was handed out: what was read of it is not known.
    Entry,
}

impl<'a> Watched<'a> {
    pub fn new(ctx: &'a dyn Context) -> Watched<'a> {
        Watched {
            ctx,
            reads: std::cell::RefCell::new(Vec::new()),
        }
    }
    /// Did anything read the machine state since [`Watched::new`]?
    pub fn read_state(&self) -> bool {
        !self.reads.borrow().is_empty()
    }
    fn note(&self, r: StateRead) {
        self.reads.borrow_mut().push(r);
    }
    /// Does `other`, a context that differs from this one in state alone,
    /// answer every state read noted so far as this one does (so that an
    /// evaluation that made them gives the same result there)? Not where
    /// the entry state was handed out.
    pub fn reads_agree(&self, other: &dyn Context) -> bool {
        self.reads.borrow().iter().all(|r| match *r {
            StateRead::Register { n, offset, len } => {
                self.ctx.read_register(n, offset, len) == other.read_register(n, offset, len)
            }
            StateRead::Memory {
                addrspace,
                offset,
                len,
            } => {
                self.ctx.read_memory(addrspace, offset, len)
                    == other.read_memory(addrspace, offset, len)
            }
            StateRead::Lane => self.ctx.lane() == other.lane(),
            StateRead::Entry => false,
        })
    }
}

impl Context for Watched<'_> {
    fn layout(&self) -> &DataLayout {
        self.ctx.layout()
    }
    /// Whether there is a lane is the signature's, not state.
    fn signature(&self) -> Signature {
        self.ctx.signature()
    }
    /// The entry state is state: handing it out counts as reading it.
    fn entry(&self) -> Option<&dyn Context> {
        let e = self.ctx.entry();
        if e.is_some() {
            self.note(StateRead::Entry);
        }
        e
    }
    fn referrer(&self) -> Option<&Input> {
        self.ctx.referrer()
    }
    fn args(&self) -> &[Input] {
        self.ctx.args()
    }
    fn type_object(&self) -> Option<&Input> {
        self.ctx.type_object()
    }
    fn lane(&self) -> Option<u64> {
        self.note(StateRead::Lane);
        self.ctx.lane()
    }
    fn register_bits(&self, n: u32) -> Option<u64> {
        self.ctx.register_bits(n)
    }
    fn read_register(&self, n: u32, offset: u64, len: u64) -> Result<Bits, ReadFail> {
        self.note(StateRead::Register { n, offset, len });
        self.ctx.read_register(n, offset, len)
    }
    fn read_memory(&self, addrspace: u32, offset: u128, len: u64) -> Result<Bits, ReadFail> {
        self.note(StateRead::Memory {
            addrspace,
            offset,
            len,
        });
        self.ctx.read_memory(addrspace, offset, len)
    }
}

impl ConcreteContext {
    /// The context as a corpus `(context NAME ...)` form, which
    /// `from_clauses` reads back.
    pub fn to_script(&self, name: &str) -> String {
        let bytes = |b: &Bytes| {
            b.iter()
                .map(|x| x.map_or("??".to_string(), |v| format!("{v:02x}")))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut out = format!("(context {name}");
        out += &layout_clauses(&self.layout);
        for (&(a, start), b) in &self.memory {
            out += &format!("\n  (memory {a} 0x{start:x} \"{}\")", bytes(b));
        }
        for (n, b) in &self.registers {
            out += &format!("\n  (register {n} \"{}\")", bytes(b));
        }
        if let Some(i) = &self.referrer {
            out += &format!("\n  (referrer \"{}\" \"{}\")", i.ty, i.loc);
        }
        for i in &self.args {
            out += &format!("\n  (arg \"{}\" \"{}\")", i.ty, i.loc);
        }
        if let Some(i) = &self.type_object {
            out += &format!("\n  (typeobject \"{}\" \"{}\")", i.ty, i.loc);
        }
        if let Some(l) = self.lane {
            out += &format!("\n  (lane {l})");
        }
        for (e, l) in &self.bindings {
            out += &format!("\n  (bind \"{e}\" \"{l}\")");
        }
        if let Some(e) = &self.entry {
            out += "\n  (entry";
            for (&(a, start), b) in &e.memory {
                out += &format!("\n    (memory {a} 0x{start:x} \"{}\")", bytes(b));
            }
            for (n, b) in &e.registers {
                out += &format!("\n    (register {n} \"{}\")", bytes(b));
            }
            out += ")";
        }
        out + ")"
    }
}

fn cerr(node: &Node, reason: &'static str, msg: impl Into<String>) -> Diag {
    Diag::malformed("Context", reason, format!("{}: {}", node.pos(), msg.into()))
}

/// `(types "DEFINITION" ...)`: named struct types (`%s = type { i8, i32 }`),
/// defined in `layout` together, so that one may name another defined
/// after it, as in an LLVM module (and as `layout_clauses` prints them, by
/// name).
pub fn define_types(layout: &mut DataLayout, node: &Node, rest: &[Node]) -> Result<(), Diag> {
    let mut text = String::new();
    for def in rest {
        let line = def.str().ok_or_else(|| {
            cerr(
                node,
                "bad-clause",
                "(types \"%name = type { ... }\" ...): definitions are strings",
            )
        })?;
        text += line;
        text.push('\n');
    }
    layout.define_types(&text)
}

/// The `(layout ...)` and `(types ...)` clauses that give back `layout`
/// (none for AMDGPU's default layout without named types), each on a
/// line of its own.
pub fn layout_clauses(layout: &DataLayout) -> String {
    let mut out = String::new();
    let text = layout.to_layout_string();
    if text != DataLayout::default().to_layout_string() {
        out += &format!("\n  (layout \"{text}\")");
    }
    let defs = layout.type_definitions();
    if !defs.is_empty() {
        let quoted: Vec<String> = defs.iter().map(|d| format!("{d:?}")).collect();
        out += &format!("\n  (types {})", quoted.join(" "));
    }
    out
}

/// Parses hex bytes such as `"01 02 ?? ff"` (`??` is an undefined byte).
pub fn parse_bytes(node: &Node) -> Result<Bytes, Diag> {
    let s = node
        .str()
        .ok_or_else(|| cerr(node, "bad-bytes", "expected a string of hex bytes"))?;
    s.split_whitespace()
        .map(|b| {
            if b == "??" {
                Ok(None)
            } else if b.len() == 2 {
                u8::from_str_radix(b, 16)
                    .map(Some)
                    .map_err(|_| cerr(node, "bad-bytes", format!("`{b}` is not a hex byte")))
            } else {
                Err(cerr(
                    node,
                    "bad-bytes",
                    format!("`{b}` is not a hex byte (two digits or ??)"),
                ))
            }
        })
        .collect()
}

fn number(node: &Node, what: &str) -> Result<u64, Diag> {
    node.atom()
        .and_then(parse_u64)
        .ok_or_else(|| cerr(node, "bad-number", format!("expected {what} (a number)")))
}

fn typed_loc(rest: &[Node], dl: &DataLayout, form: &Node) -> Result<Input, Diag> {
    let [ty, loc] = rest else {
        return Err(cerr(form, "bad-clause", "expected \"TYPE\" \"LOCATION\""));
    };
    let ty_text = ty
        .str()
        .ok_or_else(|| cerr(ty, "bad-clause", "the type is a string"))?;
    let loc_text = loc
        .str()
        .ok_or_else(|| cerr(loc, "bad-clause", "the location is a string"))?;
    let ty = parse_type(ty_text)?;
    dl.check_size(&ty)
        .map_err(|e| cerr(form, "bad-type", e.to_string()))?;
    let loc = parse_location(loc_text, dl)?;
    Ok(Input { ty, loc })
}

impl ConcreteContext {
    /// Builds a context from the clauses of a `(context NAME? clause...)` form:
    ///
    /// ```text
    /// (layout "p5:32")                      ; first, if present
    /// (types "%s = type { i8, i32 }" ...)   ; named struct types, next
    /// (memory ADDRSPACE ADDRESS "01 02 ?? ff")
    /// (register DWARF-REGNO "00 11 22 33")
    /// (referrer "TYPE" "LOCATION")
    /// (arg "TYPE" "LOCATION")               ; once per input, in order
    /// (typeobject "TYPE" "LOCATION")
    /// (lane N)
    /// (bind "%x" "LOCATION")                ; an LLVM entity's location (lifetimes)
    /// (entry (register N "BYTES") (memory ...)) ; the state on entry (DWARF entry values)
    /// ```
    pub fn from_clauses(clauses: &[Node]) -> Result<ConcreteContext, Diag> {
        let mut c = ConcreteContext::default();
        // The layout first: locations depend on it.
        for cl in clauses {
            if let Some(("layout", rest)) = cl.form() {
                let s = rest
                    .first()
                    .and_then(Node::str)
                    .ok_or_else(|| cerr(cl, "bad-clause", "(layout \"DATALAYOUT\")"))?;
                c.layout = DataLayout::parse(s)?;
            }
        }
        // Then the named struct types, laid out under it.
        for cl in clauses {
            if let Some(("types", rest)) = cl.form() {
                define_types(&mut c.layout, cl, rest)?;
            }
        }
        for cl in clauses {
            let Some((head, rest)) = cl.form() else {
                return Err(cerr(cl, "bad-clause", "expected a (clause ...)"));
            };
            match head {
                "layout" | "types" => {}
                "memory" => {
                    let [a, addr, bytes] = rest else {
                        return Err(cerr(
                            cl,
                            "bad-clause",
                            "(memory ADDRSPACE ADDRESS \"BYTES\")",
                        ));
                    };
                    let a = number(a, "an address space")?;
                    let a = u32::try_from(a)
                        .map_err(|_| cerr(cl, "bad-number", "address space too large"))?;
                    c.add_memory(a, number(addr, "an address")?, parse_bytes(bytes)?)
                        .map_err(|e| cerr(cl, e.reason, e.message))?;
                }
                "register" => {
                    let [n, bytes] = rest else {
                        return Err(cerr(cl, "bad-clause", "(register N \"BYTES\")"));
                    };
                    let n = u32::try_from(number(n, "a register number")?)
                        .map_err(|_| cerr(cl, "bad-number", "register number too large"))?;
                    c.add_register(n, parse_bytes(bytes)?)
                        .map_err(|e| cerr(cl, e.reason, e.message))?;
                }
                "referrer" => {
                    if c.referrer.is_some() {
                        return Err(cerr(cl, "bad-clause", "the referrer is declared twice"));
                    }
                    c.referrer = Some(typed_loc(rest, &c.layout, cl)?);
                }
                "arg" => c.args.push(typed_loc(rest, &c.layout, cl)?),
                "typeobject" => {
                    if c.type_object.is_some() {
                        return Err(cerr(cl, "bad-clause", "the type object is declared twice"));
                    }
                    c.type_object = Some(typed_loc(rest, &c.layout, cl)?);
                }
                "bind" => {
                    let [name, loc] = rest else {
                        return Err(cerr(cl, "bad-clause", "(bind \"ENTITY\" \"LOCATION\")"));
                    };
                    let (Some(name), Some(loc)) = (name.str(), loc.str()) else {
                        return Err(cerr(
                            cl,
                            "bad-clause",
                            "(bind \"ENTITY\" \"LOCATION\"): two strings",
                        ));
                    };
                    let loc = parse_location(loc, &c.layout)?;
                    if c.bindings.insert(name.to_string(), loc).is_some() {
                        return Err(cerr(cl, "bad-clause", format!("`{name}` is bound twice")));
                    }
                }
                "entry" => {
                    if c.entry.is_some() {
                        return Err(cerr(cl, "bad-clause", "the entry state is declared twice"));
                    }
                    // The entry state has the context's layout and only
                    // registers and memory.
                    let mut sub: Vec<Node> = clauses
                        .iter()
                        .filter(|n| matches!(n.form(), Some(("layout" | "types", _))))
                        .cloned()
                        .collect();
                    for n in rest {
                        if !matches!(n.form(), Some(("register" | "memory", _))) {
                            return Err(cerr(
                                n,
                                "bad-clause",
                                "an (entry ...) state holds (register ...) and (memory ...) clauses",
                            ));
                        }
                        sub.push(n.clone());
                    }
                    let e = ConcreteContext::from_clauses(&sub)?;
                    c.entry = Some(Box::new(e));
                }
                "lane" => {
                    let [n] = rest else {
                        return Err(cerr(cl, "bad-clause", "(lane N)"));
                    };
                    c.lane = Some(number(n, "a lane id")?);
                }
                other => {
                    return Err(cerr(
                        cl,
                        "unknown-clause",
                        format!("`{other}` is not a context clause"),
                    ))
                }
            }
        }
        Ok(c)
    }

    /// Parses a context file: one `(context ...)` form.
    pub fn parse(text: &str) -> Result<ConcreteContext, Diag> {
        let nodes = crate::text::sexpr::read_all(text, "Context")?;
        match nodes.as_slice() {
            [n] => match n.form() {
                Some(("context", rest)) => {
                    let rest = match rest.first() {
                        Some(Node::Atom(..)) => &rest[1..],
                        _ => rest,
                    };
                    ConcreteContext::from_clauses(rest)
                }
                _ => Err(cerr(
                    n,
                    "bad-file",
                    "a context file holds one (context ...) form",
                )),
            },
            _ => Err(Diag::malformed(
                "Context",
                "bad-file",
                "a context file holds exactly one (context ...) form",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The span read at once gives what reading byte by byte gives,
        /// and is taken whenever every byte is there and defined and the
        /// span is at most 16 bytes.
        #[test]
        fn a_span_read_at_once_is_the_bytes_read_one_by_one(
            bytes in proptest::collection::vec(proptest::option::weighted(0.9, proptest::num::u8::ANY), 0..24),
            offset in proptest::prop_oneof![0u128..200, (u128::MAX - 200)..=u128::MAX],
            len in 0u64..140,
        ) {
            if offset.checked_add(u128::from(len)).is_none() {
                // Past bit 2^128: no storage is that large (an address space
                // is at most 2^64 bytes); the fast path declines it.
                proptest::prop_assert!(bits_from_defined(&bytes, offset, len).is_none());
                return Ok(());
            }
            let slow = bits_from_bytes(offset, len, |k| {
                bytes.get(k as usize).copied().flatten().ok_or_else(|| ReadFail::eval("undefined-bits", "x"))
            });
            let fast = bits_from_defined(&bytes, offset, len);
            if let Some(b) = &fast {
                proptest::prop_assert_eq!(Some(b), slow.as_ref().ok());
            }
            let (first, last) = (offset / 8, (offset + u128::from(len)).saturating_sub(1) / 8);
            if len > 0 && last - first < 16 && slow.is_ok() {
                proptest::prop_assert!(fast.is_some(), "the span was read byte by byte");
            }
        }
    }

    #[test]
    fn an_entry_state_has_registers_and_memory_and_prints_back() {
        let text = r#"(context x
  (register 3 "09")
  (entry
    (memory 5 0x10 "01 ??")
    (register 3 "05 00")))"#;
        let c = ConcreteContext::parse(text).unwrap();
        let e = c.entry.as_deref().unwrap();
        assert_eq!(e.read_register(3, 0, 16).unwrap().low_u64(), 5);
        assert_eq!(e.read_memory(5, 0x10 * 8, 8).unwrap().low_u64(), 1);
        assert!(e.read_memory(5, 0x11 * 8, 8).is_err());
        assert_eq!(c.read_register(3, 0, 8).unwrap().low_u64(), 9);
        assert_eq!(c.to_script("x"), text);
    }

    #[test]
    fn a_context_with_types_naming_later_ones_prints_back_and_loads_again() {
        let text = r#"(context x
  (types "%b = type { i8, i32 }" "%a = type { %b, [2 x i16] }")
  (referrer "%a" "imp(96, 0x000000000000000000000000)"))"#;
        let c = ConcreteContext::parse(text).unwrap();
        let printed = c.to_script("x");
        // Printed by name: `%a` names `%b`, printed after it.
        assert!(printed.contains(r#"(types "%a = type { %b"#), "{printed}");
        let again = ConcreteContext::parse(&printed).unwrap();
        assert_eq!(again.to_script("x"), printed);
    }

    #[test]
    fn memory_reads_are_little_endian_and_track_definedness() {
        let c = ConcreteContext::parse(
            r#"(context (memory 1 0x10 "34 12 ?? 00") (register 3 "ff 00"))"#,
        )
        .unwrap();
        assert_eq!(c.read_memory(1, 0x10 * 8, 16).unwrap().low_u64(), 0x1234);
        assert_eq!(c.read_memory(1, 0x10 * 8 + 4, 8).unwrap().low_u64(), 0x23);
        assert_eq!(
            c.read_memory(1, 0x12 * 8, 8).unwrap_err().reason,
            "undefined-bits"
        );
        let e = c.read_memory(1, 0x14 * 8, 8).unwrap_err();
        assert!(e.unsupported && e.reason == "memory-not-supplied");
        assert_eq!(c.read_register(3, 4, 8).unwrap().low_u64(), 0x0f);
        assert_eq!(c.register_bits(3), Some(16));
        // A read past the register's two bytes is an error, not a panic.
        let e = c.read_register(3, 0, 64).unwrap_err();
        assert!(
            e.unsupported && e.reason == "register-not-supplied",
            "{e:?}"
        );
    }

    #[test]
    fn bad_contexts_are_malformed() {
        for (text, reason) in [
            (
                r#"(context (memory 5 0xffffffff "00 00"))"#,
                "Context: memory-out-of-range",
            ),
            (
                r#"(context (memory 1 0 "00 00") (memory 1 1 "00"))"#,
                "Context: overlapping-memory",
            ),
            (r#"(context (register 1 "0"))"#, "Context: bad-bytes"),
            (r#"(context (cpu 1))"#, "Context: unknown-clause"),
            (r#"(context (entry (lane 1)))"#, "Context: bad-clause"),
            (
                r#"(context (entry (register 1 "00")) (entry (register 1 "00")))"#,
                "Context: bad-clause",
            ),
            (
                r#"(context (entry (register 1 "00") (register 1 "01")))"#,
                "Context: bad-register",
            ),
            (
                r#"(context (referrer "i32" "reg(1)") (referrer "i32" "reg(1)"))"#,
                "Context: bad-clause",
            ),
        ] {
            let e = ConcreteContext::parse(text).unwrap_err();
            assert!(e.matches(reason), "{text}: {e}");
        }
    }
}
