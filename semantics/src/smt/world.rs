//! The symbolic context an expression is encoded against: memory per
//! address space as arrays of bytes (with a definedness array beside them),
//! registers as bit-vectors (with definedness per byte), the referrer, the
//! inputs and the type object as symbolic locations, the lane id.
//!
//! A world is either built from a concrete context (every term a constant:
//! the agreement law) or fully symbolic over a signature (equivalence), and a
//! model of a symbolic world turns back into a concrete context, so a
//! counterexample can be re-run through the interpreter and pasted into the
//! corpus.

use super::loc::{unsupported, Read, SLoc, SPart, SStorage};
use super::term::{bv_big, bv_of, bv_u, numeral_bits, off_u, resize, tt, OFF};
use crate::bits::Bits;
use crate::context::{ConcreteContext, Input, Signature};
use crate::diag::Diag;
use crate::location::{LocDesc, Part, Single, Storage};
use crate::types::{DataLayout, Type};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use z3::ast::{Array, Bool, BV};
use z3::{Model, Sort};

/// The widest value dioptra encodes (bit-vectors of thousands of bits make
/// the solver crawl).
pub const MAX_SMT_BITS: u64 = 1024;

struct Memory {
    bytes: Array,
    defined: Array,
}

struct Register {
    value: BV,
    /// One bit per byte.
    defined: BV,
}

/// A typed input: its location, or why it cannot be encoded.
#[derive(Clone, Debug)]
pub struct SInput {
    pub ty: Type,
    pub loc: Result<SLoc, Diag>,
}

pub struct World {
    pub layout: DataLayout,
    pub referrer: Option<SInput>,
    pub args: Vec<SInput>,
    pub type_object: Option<SInput>,
    /// The lane id (64 bits) on a SIMT target.
    pub lane: Option<BV>,
    symbolic: bool,
    memory: RefCell<BTreeMap<u32, Memory>>,
    registers: RefCell<BTreeMap<u32, Register>>,
    /// Every memory read: address space, first byte address, byte count.
    reads: RefCell<Vec<(u32, BV, u64)>>,
    /// What is left of [`MAX_ENCODING_WORK`] for this world's encodings.
    work: Cell<u64>,
    /// What the world's choices must satisfy to be a context at all
    /// ([`World::domain`]).
    domain: RefCell<Vec<Bool>>,
}

/// The most terms the location encodings of one world may build: reading
/// and comparing locations under symbolic offsets into composites splits
/// into a case per offset, and nested composites multiply the cases, so an
/// expression of twenty ops can ask for billions of terms (and z3 for
/// gigabytes). Past this bound an encoding is `unsupported`
/// (`encoding-too-large`), never a partial formula.
pub const MAX_ENCODING_WORK: u64 = 1 << 18;

impl World {
    fn empty(layout: DataLayout, symbolic: bool) -> World {
        World {
            layout,
            referrer: None,
            args: Vec::new(),
            type_object: None,
            lane: None,
            symbolic,
            memory: RefCell::new(BTreeMap::new()),
            registers: RefCell::new(BTreeMap::new()),
            reads: RefCell::new(Vec::new()),
            work: Cell::new(MAX_ENCODING_WORK),
            domain: RefCell::new(Vec::new()),
        }
    }

    /// The condition under which the world's symbolic choices are a
    /// context D-smt-input-shapes allows (every input in memory lies wholly
    /// inside its address space); a query asks its question under it.
    pub fn domain(&self) -> Bool {
        let d = self.domain.borrow();
        Bool::and(&d.iter().collect::<Vec<_>>())
    }

    /// Spends `n` of the world's encoding work ([`MAX_ENCODING_WORK`]).
    pub fn charge(&self, n: u64) -> Result<(), Diag> {
        let left = self.work.get();
        if n > left {
            self.work.set(0);
            return Err(unsupported(
                "encoding-too-large",
                format!(
                    "the locations' encoding needs more than {MAX_ENCODING_WORK} terms (symbolic offsets into nested composites)"
                ),
            ));
        }
        self.work.set(left - n);
        Ok(())
    }

    /// The signature the world was built over.
    pub fn signature(&self) -> Signature {
        Signature {
            layout: self.layout.clone(),
            referrer: self.referrer.as_ref().map(|i| i.ty.clone()),
            args: self.args.iter().map(|i| i.ty.clone()).collect(),
            type_object: self.type_object.as_ref().map(|i| i.ty.clone()),
            simt: self.lane.is_some(),
        }
    }

    /// The world of a concrete context: every term is a constant.
    pub fn concrete(ctx: &ConcreteContext) -> World {
        let mut w = World::empty(ctx.layout.clone(), false);
        for (&n, bytes) in &ctx.registers {
            let value = Bits::from_le_bytes(
                bytes.len() as u64 * 8,
                &bytes.iter().map(|b| b.unwrap_or(0)).collect::<Vec<_>>(),
            );
            let defined: Vec<bool> = bytes.iter().map(|b| b.is_some()).collect();
            w.registers.get_mut().insert(
                n,
                Register {
                    value: bv_of(&value),
                    defined: BV::from_bits(&defined).expect("registers are not empty"),
                },
            );
        }
        let mut spaces: BTreeMap<u32, Memory> = BTreeMap::new();
        for (&(a, start), bytes) in &ctx.memory {
            let p = ctx.layout.pointer_bits(a);
            let m = spaces.entry(a).or_insert_with(|| Memory {
                bytes: Array::const_array(&Sort::bitvector(p), &bv_u(8, 0)),
                defined: Array::const_array(&Sort::bitvector(p), &Bool::from_bool(false)),
            });
            for (k, b) in bytes.iter().enumerate() {
                let addr = bv_u(p, start + k as u64);
                m.bytes = m.bytes.store(&addr, &bv_u(8, b.unwrap_or(0) as u64));
                m.defined = m.defined.store(&addr, &Bool::from_bool(b.is_some()));
            }
        }
        *w.memory.get_mut() = spaces;
        w.place_inputs(ctx);
        w.lane = ctx.lane.map(|l| bv_u(64, l));
        w
    }

    /// The inputs where `ctx` puts them (after the world's registers).
    fn place_inputs(&mut self, ctx: &ConcreteContext) {
        let input = |w: &World, i: &Input| SInput {
            ty: i.ty.clone(),
            loc: w.loc_of(&i.loc),
        };
        self.referrer = ctx.referrer.as_ref().map(|i| input(self, i));
        self.args = ctx.args.iter().map(|i| input(self, i)).collect();
        self.type_object = ctx.type_object.as_ref().map(|i| input(self, i));
    }

    /// The world a code generator lowers in: every input exactly where
    /// `ctx` places it (the same registers, addresses, implicit values and
    /// composites), and everything else symbolic.
    ///
    /// DECISION (D-lower-proof-contexts): a lowering is proven for every
    /// context with its inputs' places, which is what the code generator
    /// knows: the contents and definedness of every register `ctx` declares
    /// (at its declared size), of all memory in every address space, and the
    /// lane are universally quantified; registers `ctx` does not declare are
    /// not part of the world (`register-not-supplied`).
    pub fn placed(ctx: &ConcreteContext) -> World {
        let mut w = World::empty(ctx.layout.clone(), true);
        for (&n, bytes) in &ctx.registers {
            let k = bytes.len() as u32;
            w.registers.get_mut().insert(
                n,
                Register {
                    value: BV::new_const(format!("reg{n}"), 8 * k),
                    defined: BV::new_const(format!("reg{n}.defined"), k),
                },
            );
        }
        w.place_inputs(ctx);
        w.lane = ctx.lane.map(|_| BV::new_const("lane", 64));
        w
    }

    /// The size in bits of register `n`, if the world has it.
    pub fn register_bits(&self, n: u32) -> Option<u64> {
        self.registers
            .borrow()
            .get(&n)
            .map(|r| r.value.get_size() as u64)
    }

    /// A symbolic world over `sig`: each input is, as the solver chooses, in
    /// a register of its own, in memory in one of `spaces`, an implicit
    /// value, or undefined.
    ///
    /// DECISION (D-smt-input-shapes): "for every context" ranges over
    /// contexts where each input is one of those four shapes (memory
    /// locations byte-aligned, a register exactly as wide as the input's
    /// type rounded up to bytes, fully defined implicit values). Inputs that
    /// are composites or several places at once are not generated; every
    /// memory and register byte may be undefined. An input in memory lies
    /// wholly inside its address space ([`World::domain`]): an object that
    /// does not fit in its storage is not a real input, and without this
    /// `equiv` refuted real equivalences (an all-zero `DIOpSelect` mask and
    /// its `L0`) with inputs straddling the end of memory. What happens at
    /// that boundary stays covered by concrete corpus cases.
    pub fn symbolic(sig: &Signature, spaces: &[u32]) -> Result<World, Diag> {
        let mut w = World::empty(sig.layout.clone(), true);
        let mut next = 0u32;
        let mut make = |w: &mut World, name: &str, t: &Type| -> SInput {
            let number = next;
            next += 1;
            SInput {
                ty: t.clone(),
                loc: w.input_shapes(name, number, t, spaces),
            }
        };
        w.referrer = sig.referrer.as_ref().map(|t| make(&mut w, "referrer", t));
        let args: Vec<SInput> = sig
            .args
            .iter()
            .enumerate()
            .map(|(i, t)| make(&mut w, &format!("arg{i}"), t))
            .collect();
        w.args = args;
        w.type_object = sig
            .type_object
            .as_ref()
            .map(|t| make(&mut w, "typeobject", t));
        if sig.simt {
            w.lane = Some(BV::new_const("lane", 64));
        }
        Ok(w)
    }

    fn input_shapes(
        &mut self,
        name: &str,
        number: u32,
        t: &Type,
        spaces: &[u32],
    ) -> Result<SLoc, Diag> {
        let bits = self.layout.bitsizeof(t);
        check_width(bits)?;
        let bytes = bits.div_ceil(8);
        self.registers.get_mut().insert(
            number,
            Register {
                value: BV::new_const(format!("{name}.reg"), (bytes * 8) as u32),
                defined: BV::new_const(format!("{name}.reg.defined"), bytes as u32),
            },
        );
        let mut shapes = vec![SLoc::start(SStorage::Register {
            number,
            bits: bytes * 8,
        })];
        let shape = BV::new_const(format!("{name}.shape"), 8);
        for &a in spaces {
            let p = self.layout.pointer_bits(a);
            let addr = BV::new_const(format!("{name}.addr{a}"), p);
            // The last address at which the input's bytes all fit.
            let size = 1u128.checked_shl(p).unwrap_or(u128::MAX);
            let fits = match size.checked_sub(bytes as u128) {
                Some(last) => addr.bvule(bv_big(p, &num_bigint::BigUint::from(last))),
                None => Bool::from_bool(false),
            };
            let k = shapes.len() as u64;
            self.domain
                .get_mut()
                .push(shape.eq(bv_u(8, k)).implies(&fits));
            shapes.push(SLoc::at(
                SStorage::Memory { addrspace: a },
                resize(&addr, OFF).bvshl(off_u(3)),
            ));
        }
        shapes.push(SLoc::start(SStorage::Implicit(BV::new_const(
            format!("{name}.value"),
            bits as u32,
        ))));
        shapes.push(SLoc::start(SStorage::Undefined));
        let mut loc = shapes.pop().expect("four shapes at least");
        while let Some(s) = shapes.pop() {
            let k = shapes.len() as u64;
            loc = SLoc::ite(&shape.eq(bv_u(8, k)), s, loc);
        }
        Ok(loc)
    }

    /// A concrete location as a symbolic one.
    pub fn loc_of(&self, l: &LocDesc) -> Result<SLoc, Diag> {
        match l.singles() {
            [s] => self.single_of(s),
            many => Ok(SLoc::Multi(std::rc::Rc::new(
                many.iter()
                    .map(|s| self.single_of(s))
                    .collect::<Result<_, _>>()?,
            ))),
        }
    }

    fn single_of(&self, s: &Single) -> Result<SLoc, Diag> {
        let off = off_u(s.offset);
        let st = match &*s.storage {
            Storage::Memory { addrspace } => SStorage::Memory {
                addrspace: *addrspace,
            },
            Storage::Register { number } => {
                let regs = self.registers.borrow();
                let r = regs.get(number).ok_or_else(|| {
                    Diag::unsupported(
                        "SMT",
                        "register-not-supplied",
                        format!("the context does not declare register {number}"),
                    )
                })?;
                SStorage::Register {
                    number: *number,
                    bits: r.value.get_size() as u64,
                }
            }
            Storage::Implicit(b) => {
                check_width(b.width())?;
                SStorage::Implicit(bv_of(b))
            }
            Storage::ImplicitAddress {
                addrspace,
                bits,
                target,
                ..
            } => SStorage::ImplicitAddress {
                addrspace: *addrspace,
                bits: *bits,
                target: self.loc_of(target)?,
            },
            Storage::Undefined => SStorage::Undefined,
            Storage::Composite { parts, .. } => SStorage::Composite {
                parts: parts
                    .iter()
                    .map(|p| {
                        Ok(SPart {
                            bits: p.bits,
                            loc: self.loc_of(&p.loc)?,
                        })
                    })
                    .collect::<Result<_, Diag>>()?,
            },
            Storage::Entity { name, .. } => {
                return Err(unsupported(
                    "entity",
                    format!("the SMT encoding does not model the LLVM entity `{name}`"),
                ))
            }
        };
        Ok(SLoc::at(st, off))
    }

    /// A register's value and per-bit definedness.
    pub fn register(&self, number: u32, bits: u64) -> Result<(BV, BV), Diag> {
        let regs = self.registers.borrow();
        let r = regs.get(&number).ok_or_else(|| {
            Diag::unsupported(
                "SMT",
                "register-not-supplied",
                format!("the context does not declare register {number}"),
            )
        })?;
        debug_assert_eq!(r.value.get_size() as u64, bits);
        let n = r.defined.get_size();
        let mut per_bit: Option<BV> = None;
        for j in 0..n {
            let bit = r.defined.extract(j, j);
            let byte = (0..7).fold(bit.clone(), |acc, _| bit.concat(&acc));
            per_bit = Some(match per_bit {
                None => byte,
                Some(low) => byte.concat(&low),
            });
        }
        Ok((r.value.clone(), per_bit.expect("registers are not empty")))
    }

    fn memory(&self, a: u32) -> (Array, Array) {
        let p = self.layout.pointer_bits(a);
        let mut mem = self.memory.borrow_mut();
        let m = mem.entry(a).or_insert_with(|| {
            if self.symbolic {
                Memory {
                    bytes: Array::new_const(
                        format!("mem{a}"),
                        &Sort::bitvector(p),
                        &Sort::bitvector(8),
                    ),
                    defined: Array::new_const(
                        format!("mem{a}.defined"),
                        &Sort::bitvector(p),
                        &Sort::bool(),
                    ),
                }
            } else {
                Memory {
                    bytes: Array::const_array(&Sort::bitvector(p), &bv_u(8, 0)),
                    defined: Array::const_array(&Sort::bitvector(p), &Bool::from_bool(false)),
                }
            }
        });
        (m.bytes.clone(), m.defined.clone())
    }

    /// `n` bits of memory in address space `a` from bit offset `off` (the
    /// caller checks the range).
    pub fn read_memory(&self, a: u32, off: &BV, n: u64) -> Read {
        let p = self.layout.pointer_bits(a);
        let (bytes, defined) = self.memory(a);
        let addr = off.extract(p + 2, 3);
        let bit = off.extract(2, 0);
        let k = (n + 14) / 8; // bytes covering bits [bit, bit + n) for any bit < 8
        self.reads.borrow_mut().push((a, addr.clone(), k));
        let mut value: Option<BV> = None;
        let mut ok = tt();
        for j in 0..k {
            let idx = addr.bvadd(bv_u(p, j));
            let byte = bytes.select(&idx).as_bv().expect("memory holds bytes");
            value = Some(match value {
                None => byte,
                Some(low) => byte.concat(&low),
            });
            let d = defined
                .select(&idx)
                .as_bool()
                .expect("definedness is boolean");
            // Byte j holds bits [8j, 8j + 8); it is read when bit + n > 8j.
            let needed = if 8 * j < n {
                tt()
            } else if 8 * j >= n + 7 {
                continue;
            } else {
                resize(&bit, 8).bvugt(bv_u(8, 8 * j - n))
            };
            ok = Bool::and(&[&ok, &needed.implies(&d)]);
        }
        let value = value.expect("at least one byte");
        let shifted = value.bvlshr(resize(&bit, (8 * k) as u32));
        Read {
            value: shifted.extract(n as u32 - 1, 0),
            ok,
        }
    }

    /// The concrete context a model of this (symbolic) world describes: the
    /// inputs where the model puts them, the registers, every memory byte an
    /// encoded read touched, the lane.
    pub fn concretize(&self, model: &Model) -> Result<ConcreteContext, Diag> {
        let mut ctx = ConcreteContext::default();
        ctx.layout = self.layout.clone();
        let input = |i: &Option<SInput>| -> Result<Option<Input>, Diag> {
            match i {
                None => Ok(None),
                Some(SInput { loc: Err(e), .. }) => Err(e.clone()),
                Some(SInput { ty, loc: Ok(l) }) => Ok(Some(Input {
                    ty: ty.clone(),
                    loc: concrete_loc(model, l)?,
                })),
            }
        };
        ctx.referrer = input(&self.referrer)?;
        for a in &self.args {
            ctx.args.push(input(&Some(a.clone()))?.expect("present"));
        }
        ctx.type_object = input(&self.type_object)?;
        ctx.lane = match &self.lane {
            None => None,
            Some(l) => Some(model_bits(model, l)?.low_u64()),
        };
        for (&n, r) in self.registers.borrow().iter() {
            let v = model_bits(model, &r.value)?;
            let d = model_bits(model, &r.defined)?;
            let bytes = (0..d.width())
                .map(|j| d.bit(j).then(|| v.extract(8 * j, 8).low_u64() as u8))
                .collect();
            ctx.add_register(n, bytes)?;
        }
        let mut bytes: BTreeMap<(u32, u64), Option<u8>> = BTreeMap::new();
        for (a, addr, k) in self.reads.borrow().iter() {
            let p = self.layout.pointer_bits(*a);
            let (mem, defined) = self.memory(*a);
            let base = model_bits(model, addr)?.low_u64();
            for j in 0..*k {
                let Some(at) = base.checked_add(j).filter(|&x| p >= 64 || x >> p == 0) else {
                    break;
                };
                let idx = bv_u(p, at);
                let b = model_bits(model, &mem.select(&idx).as_bv().expect("bytes"))?;
                let d = model
                    .eval(&defined.select(&idx).as_bool().expect("bool"), true)
                    .and_then(|d| d.as_bool())
                    .unwrap_or(false);
                bytes.insert((*a, at), d.then_some(b.low_u64() as u8));
            }
        }
        let mut run: Option<(u32, u64, Vec<Option<u8>>)> = None;
        for ((a, at), b) in bytes {
            match &mut run {
                Some((ra, start, v)) if *ra == a && *start + v.len() as u64 == at => v.push(b),
                _ => {
                    if let Some((ra, start, v)) = run.take() {
                        ctx.add_memory(ra, start, v)?;
                    }
                    run = Some((a, at, vec![b]));
                }
            }
        }
        if let Some((ra, start, v)) = run {
            ctx.add_memory(ra, start, v)?;
        }
        Ok(ctx)
    }
}

/// Values wider than `MAX_SMT_BITS` are not encoded.
pub fn check_width(bits: u64) -> Result<(), Diag> {
    if bits == 0 || bits > MAX_SMT_BITS {
        return Err(unsupported(
            "width",
            format!("the SMT encoding handles values of 1 to {MAX_SMT_BITS} bits, not {bits}"),
        ));
    }
    Ok(())
}

fn model_bits(model: &Model, v: &BV) -> Result<Bits, Diag> {
    model
        .eval(v, true)
        .and_then(|x| numeral_bits(&x))
        .ok_or_else(|| unsupported("model", "the solver's model has no value for a term"))
}

fn model_bool(model: &Model, b: &Bool) -> bool {
    model
        .eval(b, true)
        .and_then(|x| x.as_bool())
        .unwrap_or(false)
}

/// The concrete location a model gives a symbolic one.
pub fn concrete_loc(model: &Model, l: &SLoc) -> Result<LocDesc, Diag> {
    match l {
        SLoc::Ite(c, a, b) => concrete_loc(model, if model_bool(model, c) { a } else { b }),
        SLoc::Multi(v) => {
            let mut singles = Vec::new();
            for l in v.iter() {
                singles.extend(concrete_loc(model, l)?.singles().iter().cloned());
            }
            Ok(LocDesc::new(singles))
        }
        SLoc::One(s, off) => {
            let o = model_bits(model, off)?;
            let Some(o) = o.to_u128() else {
                return Err(unsupported("model", "an offset outside 128 bits"));
            };
            let st = match &**s {
                SStorage::Memory { addrspace } => Storage::Memory {
                    addrspace: *addrspace,
                },
                SStorage::Register { number, .. } => Storage::Register { number: *number },
                SStorage::Implicit(v) => Storage::Implicit(model_bits(model, v)?),
                SStorage::ImplicitAddress {
                    addrspace,
                    bits,
                    target,
                } => {
                    let target = concrete_loc(model, target)?;
                    let depth = target.depth() + 1;
                    Storage::ImplicitAddress {
                        addrspace: *addrspace,
                        bits: *bits,
                        target,
                        depth,
                    }
                }
                SStorage::Undefined => Storage::Undefined,
                SStorage::Composite { parts } => {
                    let parts: Vec<Part> = parts
                        .iter()
                        .map(|p| {
                            Ok(Part {
                                bits: p.bits,
                                loc: concrete_loc(model, &p.loc)?,
                            })
                        })
                        .collect::<Result<_, Diag>>()?;
                    Storage::composite(parts)
                }
            };
            Ok(LocDesc::new(vec![Single::new(st, o)]))
        }
    }
}
