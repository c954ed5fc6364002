//! The location model: location storages, single location descriptions
//! (storage + bit offset), location descriptions (sets of single location
//! descriptions), and `read(L, T)`.
//!
//! Spec, "Location Description": "A location description can consist of one
//! or more single location descriptions. A single location description
//! specifies a location storage and bit offset. A location storage is a linear
//! stream of bits with a fixed size."

use crate::bits::Bits;
use crate::context::Context;
use crate::diag::{Diag, Message};
use crate::limits::{MAX_LOCATION_DEPTH, MAX_OVERLAP_LEAVES};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use smallvec::SmallVec;
use std::fmt;
use std::sync::{Arc, LazyLock};

/// A location storage.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Storage {
    /// The memory of one address space: `2^p` bytes for `p`-bit pointers.
    Memory { addrspace: u32 },
    /// A register, by DWARF register number; its size comes from the context.
    Register { number: u32 },
    /// An implicit location storage holding a value (read-only).
    Implicit(Bits),
    /// The implicit address storage made by `DIOpAddrOf`: `bits` wide,
    /// "conceptually holds a reference to the storage that `L` denotes".
    ImplicitAddress {
        addrspace: u32,
        bits: u64,
        target: LocDesc,
        depth: u32,
    },
    /// The undefined location storage.
    Undefined,
    /// A complete composite: parts concatenated from offset 0, no padding.
    /// Made by [`Storage::composite`], which computes `depth` and `stores`
    /// from the parts.
    Composite {
        parts: Vec<Part>,
        depth: u32,
        /// Does some part reach a storage that is not implicit (memory, a
        /// register, a writable entity)? Only such parts can overlap.
        stores: bool,
    },
    /// The storage of an abstract LLVM entity (spec, "Location Descriptions
    /// Of LLVM Entities"): an SSA value `%x`, a MIR register `$r0`, a stack
    /// slot `%frame.index.0`, a global `@g` (holding its address), or a code
    /// location `^block`. Its contents are unknown unless a context binds the
    /// entity to a concrete location (`(bind "%x" "reg(3)")`).
    Entity { name: String, bits: u64 },
}

/// One part of a composite: `bits` bits starting at location `loc`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Part {
    pub bits: u64,
    pub loc: LocDesc,
}

/// A single location description: a storage and a bit offset into it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Single {
    pub storage: Arc<Storage>,
    pub offset: u128,
}

/// The storages nearly every location uses (the undefined storage, memory of
/// address space 0, registers 0 to 63), made once: a location in one of them
/// shares it instead of allocating its own.
static COMMON: LazyLock<Vec<Arc<Storage>>> = LazyLock::new(|| {
    let mut v = vec![
        Arc::new(Storage::Undefined),
        Arc::new(Storage::Memory { addrspace: 0 }),
    ];
    v.extend((0..64).map(|number| Arc::new(Storage::Register { number })));
    v
});

#[inline]
fn shared(storage: Storage) -> Arc<Storage> {
    match storage {
        Storage::Undefined => COMMON[0].clone(),
        Storage::Memory { addrspace: 0 } => COMMON[1].clone(),
        Storage::Register { number } if number < 64 => COMMON[2 + number as usize].clone(),
        other => Arc::new(other),
    }
}

/// A location description: a non-empty set of single location descriptions,
/// kept sorted and without duplicates so that equality is set equality.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocDesc(SmallVec<[Single; 1]>);

impl Clone for LocDesc {
    /// One single location, inline, copied as itself: `SmallVec`'s clone
    /// goes through its general extend (an evaluation copies the inputs'
    /// locations from the context, 20 per case of the pipeline).
    #[inline]
    fn clone(&self) -> LocDesc {
        match self.0.as_slice() {
            [s] => LocDesc(smallvec::smallvec![s.clone()]),
            many => LocDesc(many.iter().cloned().collect()),
        }
    }
}

/// Why a read failed; the op that read turns it into a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadFail {
    pub reason: &'static str,
    pub message: Message,
    /// The context did not supply the bits (an `unsupported` outcome).
    pub unsupported: bool,
}

impl ReadFail {
    pub fn eval(reason: &'static str, message: impl Into<Message>) -> ReadFail {
        ReadFail {
            reason,
            message: message.into(),
            unsupported: false,
        }
    }
    pub fn missing(reason: &'static str, message: impl Into<Message>) -> ReadFail {
        ReadFail {
            reason,
            message: message.into(),
            unsupported: true,
        }
    }
    /// The diagnostic for `construct` (the op that read).
    pub fn at(self, construct: &str) -> Diag {
        if self.unsupported {
            Diag::unsupported(construct, self.reason, self.message)
        } else {
            Diag::eval(construct, self.reason, self.message)
        }
    }
}

impl Storage {
    /// The composite of `parts`, concatenated from offset 0.
    pub fn composite(parts: Vec<Part>) -> Storage {
        let depth = 1 + parts.iter().map(|p| p.loc.depth()).max().unwrap_or(0);
        let stores = parts
            .iter()
            .any(|p| p.loc.singles().iter().any(|s| s.storage.stores()));
        Storage::Composite {
            parts,
            depth,
            stores,
        }
    }

    /// Does this storage hold, or reach through a composite's parts, bits
    /// of a storage that is not implicit?
    pub fn stores(&self) -> bool {
        match self {
            Storage::Composite { stores, .. } => *stores,
            other => !other.is_implicit(),
        }
    }

    /// The nesting depth: 0 for leaves, 1 + the deepest part for composites
    /// and implicit addresses.
    pub fn depth(&self) -> u32 {
        match self {
            Storage::Composite { depth, .. } | Storage::ImplicitAddress { depth, .. } => *depth,
            _ => 0,
        }
    }

    /// Is this an implicit storage (read-only, so parts may repeat its bits)?
    /// DECISION (D-implicit-parts): the implicit address storage of `DIOpAddrOf` counts as
    /// implicit, and so does the undefined storage (it holds no bits a
    /// debugger could assign).
    ///
    /// DECISION (D-entity-kinds): an unbound code location `^label` and a
    /// global's address `@g` are implicit values (the spec: a `DICode`'s
    /// location is "a single implicit location description with a value that
    /// is the address", a global variable fragment's "an implicit location
    /// description that has a pointer value"); SSA values `%x`, MIR registers
    /// `$r` and stack slots are storages that can be written.
    pub fn is_implicit(&self) -> bool {
        match self {
            Storage::Implicit(_) | Storage::ImplicitAddress { .. } | Storage::Undefined => true,
            Storage::Entity { name, .. } => name.starts_with('^') || name.starts_with('@'),
            _ => false,
        }
    }

    /// The size in bits, `None` for the undefined storage (unbounded).
    pub fn size(&self, ctx: &dyn Context) -> Result<Option<u128>, ReadFail> {
        Ok(Some(match self {
            Storage::Memory { addrspace } => 1u128 << (ctx.layout().pointer_bits(*addrspace) + 3),
            Storage::Register { number } => ctx.register_bits(*number).ok_or_else(|| {
                ReadFail::missing(
                    "register-not-supplied",
                    format!("the context does not declare register {number}"),
                )
            })? as u128,
            Storage::Implicit(b) => b.width() as u128,
            Storage::ImplicitAddress { bits, .. } => *bits as u128,
            Storage::Undefined => return Ok(None),
            Storage::Composite { parts, .. } => parts.iter().map(|p| p.bits as u128).sum(),
            Storage::Entity { bits, .. } => *bits as u128,
        }))
    }
}

impl Single {
    #[inline]
    pub fn new(storage: Storage, offset: u128) -> Single {
        Single {
            storage: shared(storage),
            offset,
        }
    }

    /// The single location moved by `delta` bits.
    ///
    /// DECISION (D-offset-bounds): as `DW_OP_LLVM_bit_offset` in the DWARF
    /// extensions, a bit offset that leaves the storage (negative, or past its
    /// end) is an evaluation error at the offset op (`offset-outside-storage`);
    /// an offset equal to the size is allowed (an empty tail).
    ///
    /// DECISION (D-undefined-offset): the undefined storage has no size and
    /// offsets leave it unchanged (as `DW_OP_LLVM_undefined`).
    pub fn offset_by(&self, ctx: &dyn Context, delta: &BigInt) -> Result<Single, ReadFail> {
        match delta.to_i128() {
            Some(d) => self.offset_by_small(ctx, d),
            None => self.offset_by_big(ctx, delta),
        }
    }

    /// [`Single::offset_by`] for a delta that fits an `i128` (nearly every
    /// one), without a big integer.
    pub fn offset_by_small(&self, ctx: &dyn Context, delta: i128) -> Result<Single, ReadFail> {
        let Some(size) = self.storage.size(ctx)? else {
            return Ok(self.clone());
        };
        // Offsets and sizes fit a u128; the sum is formed in i128 where it
        // fits one and as a big integer otherwise.
        let new = i128::try_from(self.offset)
            .ok()
            .and_then(|o| o.checked_add(delta))
            .filter(|n| *n >= 0 && (*n as u128) <= size);
        match new {
            Some(offset) => Ok(Single {
                storage: self.storage.clone(),
                offset: offset as u128,
            }),
            None => self.offset_by_big(ctx, &BigInt::from(delta)),
        }
    }

    /// [`Single::offset_by`] with the sum as a big integer.
    fn offset_by_big(&self, ctx: &dyn Context, delta: &BigInt) -> Result<Single, ReadFail> {
        let Some(size) = self.storage.size(ctx)? else {
            return Ok(self.clone());
        };
        let new = BigInt::from(self.offset) + delta;
        if new.is_negative() || new > BigInt::from(size) {
            let (at, delta) = (self.offset, delta.clone());
            let storage = Single {
                storage: Arc::clone(&self.storage),
                offset: 0,
            };
            return Err(ReadFail::eval(
                "offset-outside-storage",
                Message::later(move || {
                    format!("bit offset {at} + {delta} is outside {storage} ({size} bits)")
                }),
            ));
        }
        Ok(Single {
            storage: self.storage.clone(),
            offset: new.to_u128().expect("checked against a u128 size"),
        })
    }
}

impl LocDesc {
    /// A location description from its single locations (sorted, deduplicated).
    pub fn new(singles: Vec<Single>) -> LocDesc {
        let mut singles = SmallVec::from_vec(singles);
        assert!(
            !singles.is_empty(),
            "a location description has at least one single location"
        );
        singles.sort();
        singles.dedup();
        LocDesc(singles)
    }
    /// Most location descriptions hold one single location, kept inline
    /// (`smallvec`: std has no inline vector); sets of several allocate.
    #[inline]
    pub fn single(storage: Storage, offset: u128) -> LocDesc {
        LocDesc(smallvec::smallvec![Single::new(storage, offset)])
    }
    pub fn undefined() -> LocDesc {
        LocDesc::single(Storage::Undefined, 0)
    }
    #[inline]
    pub fn implicit(value: Bits) -> LocDesc {
        LocDesc::single(Storage::Implicit(value), 0)
    }
    pub fn singles(&self) -> &[Single] {
        &self.0
    }
    pub fn depth(&self) -> u32 {
        self.0.iter().map(|s| s.storage.depth()).max().unwrap_or(0)
    }

    /// Every single location moved by `delta` bits.
    pub fn offset_by(&self, ctx: &dyn Context, delta: &BigInt) -> Result<LocDesc, ReadFail> {
        self.each_moved(|s| s.offset_by(ctx, delta))
    }

    /// [`LocDesc::offset_by`] for a delta that fits an `i128`.
    pub fn offset_by_small(&self, ctx: &dyn Context, delta: i128) -> Result<LocDesc, ReadFail> {
        self.each_moved(|s| s.offset_by_small(ctx, delta))
    }

    fn each_moved(
        &self,
        moved: impl Fn(&Single) -> Result<Single, ReadFail>,
    ) -> Result<LocDesc, ReadFail> {
        if let [s] = &self.0[..] {
            return Ok(LocDesc(smallvec::smallvec![moved(s)?]));
        }
        let singles = self.0.iter().map(moved).collect::<Result<Vec<_>, _>>()?;
        Ok(LocDesc::new(singles))
    }
}

/// A composite location description with offset 0 from parts listed from
/// offset 0 upward, after the overlap rule of `DIOpComposite`.
pub fn composite(parts: Vec<Part>) -> Result<LocDesc, ReadFail> {
    let st = Storage::composite(parts);
    if st.depth() > MAX_LOCATION_DEPTH {
        return Err(ReadFail::missing(
            "limit-exceeded",
            format!("composites nested deeper than {MAX_LOCATION_DEPTH}"),
        ));
    }
    if let Storage::Composite {
        parts,
        stores: true,
        ..
    } = &st
    {
        check_parts_disjoint(parts)?;
    }
    Ok(LocDesc::single(st, 0))
}

/// `read(L, T)` for `len = bitsizeof(T)` bits.
///
/// Spec: "computes the value of type `T` obtained by retrieving
/// `bitsizeof(T)` bits from location description `L`. If any bit of the value
/// retrieved is from the undefined location storage or the offset of any bit
/// exceeds the size of the location storage specified by any single location
/// description of `L`, then the expression is not well-formed."
///
/// DECISION (D-dynamic-rules): these two "not well-formed" cases depend on
/// the context, so they are evaluation errors (`undefined-bits`,
/// `offset-outside-storage`).
///
/// DECISION (D-multi-location-read): every single location of `L` is read; when they hold different bits the read is
/// an evaluation error (`conflicting-locations`): the spec says a multi-location
/// description means the object is in all of them with the same value, so a
/// context where they differ is contradictory, and reporting it beats picking
/// one arbitrarily.
pub fn read(ctx: &dyn Context, loc: &LocDesc, len: u64) -> Result<Bits, ReadFail> {
    read_at(ctx, loc, 0, len)
}

fn read_at(ctx: &dyn Context, loc: &LocDesc, rel: u128, len: u64) -> Result<Bits, ReadFail> {
    let mut first: Option<(Bits, &Single)> = None;
    for s in &loc.0 {
        let b = read_single(ctx, &s.storage, s.offset + rel, len)?;
        match &first {
            None => first = Some((b, s)),
            Some((a, sa)) if *a != b => {
                let (a, sa, s) = (a.clone(), (*sa).clone(), s.clone());
                return Err(ReadFail::eval(
                    "conflicting-locations",
                    Message::later(move || {
                        format!(
                            "{sa} holds 0x{} but {s} holds 0x{} for the same {len} bits",
                            a.hex(),
                            b.hex()
                        )
                    }),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(first.expect("location descriptions are non-empty").0)
}

fn read_single(
    ctx: &dyn Context,
    st: &Arc<Storage>,
    off: u128,
    len: u64,
) -> Result<Bits, ReadFail> {
    if let Some(size) = st.size(ctx)? {
        if off + len as u128 > size {
            let storage = Single {
                storage: Arc::clone(st),
                offset: 0,
            };
            return Err(ReadFail::eval(
                "offset-outside-storage",
                Message::later(move || {
                    format!(
                        "reading bits {off}..{} of {storage} ({size} bits)",
                        off + len as u128
                    )
                }),
            ));
        }
    }
    match &**st {
        Storage::Memory { addrspace } => ctx.read_memory(*addrspace, off, len),
        Storage::Register { number } => ctx.read_register(*number, off as u64, len),
        Storage::Implicit(v) => Ok(v.extract(off as u64, len)),
        Storage::ImplicitAddress { .. } => Err(ReadFail::eval(
            "implicit-address",
            "the bits of an implicit address (made by DIOpAddrOf) cannot be read; only DIOpDeref may use it",
        )),
        Storage::Entity { name, .. } => Err(ReadFail::missing(
            "entity-not-bound",
            format!("the contents of `{name}` are unknown: bind it to a location in the context"),
        )),
        Storage::Undefined if len == 0 => Ok(Bits::zero(0)),
        Storage::Undefined => Err(ReadFail::eval(
            "undefined-bits",
            format!("{len} bits from the undefined location storage"),
        )),
        Storage::Composite { parts, .. } => {
            let read = covered(parts, off, len as u128)
                .map(|(p, at, n)| read_at(ctx, &p.loc, at, n))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Bits::concat_all(&read))
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Memory(u32),
    Register(u32),
    Entity(String),
}

/// A storage the overlap check sorts intervals by ([`Key`], borrowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Covered<'s> {
    Memory(u32),
    Register(u32),
    Entity(&'s str),
}

impl Covered<'_> {
    fn owned(self) -> Key {
        match self {
            Covered::Memory(a) => Key::Memory(a),
            Covered::Register(r) => Key::Register(r),
            Covered::Entity(n) => Key::Entity(n.to_string()),
        }
    }
}

/// The intervals of storage the parts of a composite cover, each with its
/// part; most composites have a few, kept inline.
type Intervals<'s> = SmallVec<[(Covered<'s>, u128, u128, usize); 8]>;

/// Spec, `DIOpComposite`: "If there are multiple parts that ultimately, after
/// expanding referenced composites, refer to the same bits of a non-implicit
/// location storage, then the expression in not well-formed."
///
/// DECISION (D-dynamic-rules): this depends on the locations, so it is an
/// evaluation error (`overlapping-parts`).
///
/// DECISION (D-addrspaces-distinct): distinct address spaces are distinct
/// storages (dioptra does not model aliasing between them). Two
/// single locations of the same part (a multi-location part) may overlap each
/// other: they are alternatives, not different parts.
fn check_parts_disjoint(parts: &[Part]) -> Result<(), ReadFail> {
    let mut leaves = Intervals::new();
    for (i, p) in parts.iter().enumerate() {
        for s in p.loc.singles() {
            collect_leaves(&s.storage, s.offset, p.bits as u128, i, &mut leaves)?;
        }
    }
    if leaves.len() < 2 {
        return Ok(());
    }
    leaves.sort_unstable();
    // Sweep each storage's intervals in start order. With no clash so far,
    // the earlier intervals that reach past `start` all contain the point
    // `start`, so they overlap each other and belong to one part: the one with
    // the furthest end. A clash is an interval of another part reaching past.
    let mut i = 0;
    while i < leaves.len() {
        let key = leaves[i].0;
        let (mut best_end, mut best_part) = (0u128, usize::MAX);
        while i < leaves.len() && leaves[i].0 == key {
            let (_, start, end, part) = leaves[i];
            if part != best_part && start < best_end {
                // The message is made when shown: a campaign meets this
                // error often (35 000 times in the pipeline's 20 000
                // expression cases) and discards it.
                let key = key.owned();
                return Err(ReadFail::eval(
                    "overlapping-parts",
                    Message::later(move || {
                        let what = match &key {
                            Key::Memory(a) => format!("memory address space {a}"),
                            Key::Register(r) => format!("register {r}"),
                            Key::Entity(n) => format!("`{n}`"),
                        };
                        format!("two parts refer to the same bits (from bit {start}) of {what}")
                    }),
                ));
            }
            if end > best_end {
                best_end = end;
                best_part = part;
            }
            i += 1;
        }
    }
    Ok(())
}

fn collect_leaves<'s>(
    st: &'s Storage,
    off: u128,
    len: u128,
    part: usize,
    out: &mut Intervals<'s>,
) -> Result<(), ReadFail> {
    if out.len() >= MAX_OVERLAP_LEAVES {
        return Err(ReadFail::missing(
            "limit-exceeded",
            format!("more than {MAX_OVERLAP_LEAVES} storage pieces to compare for overlap"),
        ));
    }
    match st {
        Storage::Memory { addrspace } => {
            out.push((Covered::Memory(*addrspace), off, off + len, part))
        }
        Storage::Register { number } => {
            out.push((Covered::Register(*number), off, off + len, part))
        }
        Storage::Entity { name, .. } if !st.is_implicit() => {
            out.push((Covered::Entity(name), off, off + len, part))
        }
        Storage::Entity { .. } | Storage::Composite { stores: false, .. } => {}
        Storage::Composite { parts, .. } => {
            for (p, at, n) in covered(parts, off, len) {
                for s in p.loc.singles() {
                    collect_leaves(&s.storage, s.offset + at, n as u128, part, out)?;
                }
            }
        }
        Storage::Implicit(_) | Storage::ImplicitAddress { .. } | Storage::Undefined => {}
    }
    Ok(())
}

impl fmt::Display for Single {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut off = self.offset;
        match &*self.storage {
            Storage::Memory { addrspace } => {
                write!(f, "mem({addrspace}, 0x{:x})", off / 8)?;
                off %= 8;
            }
            Storage::Register { number } => write!(f, "reg({number})")?,
            Storage::Implicit(b) => write!(f, "imp({}, 0x{})", b.width(), b.hex())?,
            Storage::ImplicitAddress {
                addrspace, target, ..
            } => write!(f, "addr({addrspace}, {target})")?,
            Storage::Undefined => f.write_str("undef")?,
            Storage::Entity { name, bits } => write!(f, "ent({bits}, {name})")?,
            Storage::Composite { parts, .. } => {
                f.write_str("comp(")?;
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}: {}", p.bits, p.loc)?;
                }
                f.write_str(")")?;
            }
        }
        if off != 0 {
            write!(f, "+{off}")?;
        }
        Ok(())
    }
}

impl fmt::Display for LocDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.len() == 1 {
            return write!(f, "{}", self.0[0]);
        }
        f.write_str("{")?;
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{s}")?;
        }
        f.write_str("}")
    }
}

/// What one bit of a location is, for comparing two locations.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum BitLeaf {
    /// Bit `offset` of memory, a register or an entity's storage.
    Store(Key, u128),
    /// A bit of an implicit value.
    Value(bool),
    Undefined,
    /// Bit `offset` of an implicit address to `target` (D-address-identity).
    Address {
        addrspace: u32,
        bits: u64,
        target: LocDesc,
        offset: u128,
    },
    /// Past the end of an implicit value or a composite.
    Beyond,
}

/// Consecutive bits of a location that continue one another, for
/// comparing two locations without listing them bit by bit: [`BitLeaf`]s
/// merged into runs. Runs are kept maximal (a run never continues the one
/// before it), so two lists of bits are equal exactly when their runs are.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Run {
    /// Bits `start..start + len` of memory, a register or an entity.
    Store(Key, u128, u128),
    /// Bits of implicit values, lowest first.
    Value(Bits),
    Undefined(u128),
    /// Bits `offset..offset + len` of an implicit address to `target`.
    Address {
        addrspace: u32,
        bits: u64,
        target: LocDesc,
        offset: u128,
        len: u128,
    },
    /// Past the end of an implicit value or a composite.
    Beyond(u128),
}

/// The runs of one place of a location, and how many bits they cover.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Runs {
    runs: Vec<Run>,
    len: u128,
}

impl Runs {
    /// Appends `r`, merged into the last run when it continues it.
    fn push(&mut self, r: Run) {
        let n = r.len();
        if n == 0 {
            return;
        }
        self.len += n;
        match (self.runs.last_mut(), r) {
            (Some(Run::Store(k, s, l)), Run::Store(k2, s2, l2)) if *k == k2 && *s + *l == s2 => {
                *l += l2
            }
            (Some(Run::Value(v)), Run::Value(w)) => *v = v.concat(&w),
            (Some(Run::Undefined(l)), Run::Undefined(l2)) => *l += l2,
            (Some(Run::Beyond(l)), Run::Beyond(l2)) => *l += l2,
            (
                Some(Run::Address {
                    addrspace,
                    bits,
                    target,
                    offset,
                    len,
                }),
                Run::Address {
                    addrspace: a2,
                    bits: b2,
                    target: t2,
                    offset: o2,
                    len: l2,
                },
            ) if (*addrspace, *bits, &*target, *offset + *len) == (a2, b2, &t2, o2) => *len += l2,
            (_, r) => self.runs.push(r),
        }
    }
}

/// What a location's bits are gathered into to be compared: one
/// [`BitLeaf`] per bit, or [`Runs`] of them. [`first_places`] and
/// [`alternatives`] walk composites the same way for both.
trait Leaves: Clone + Default {
    /// How many bits are gathered.
    fn count(&self) -> u128;
    /// Appends `n` bits from `off` of `st`, which is not a composite.
    fn leaf(&mut self, st: &Storage, off: u128, n: u64);
    /// Appends what `other` gathered.
    fn append(&mut self, other: &Self);
    /// Pads with bits past the end up to `n` bits.
    fn pad_to(&mut self, n: u128);
    /// The stretches `start..end` of the gathered bits, in order, that
    /// cannot be read in `ctx`: bits past the end (of an implicit value or
    /// a composite) and bits [`outside`] their storage.
    fn unreadable(&self, ctx: &dyn Context) -> Vec<(u128, u128)>;
    /// Makes the bits of `stretches` (in order, apart) bits past the end.
    fn mask(&mut self, stretches: &[(u128, u128)]);
}

/// D-lower-refines-outside: which of the bits `start..start + len` of
/// `key` lie outside their storage in `ctx` (past the end of the address
/// space's memory or of the register), as a stretch of those offsets.
fn outside(ctx: &dyn Context, key: &Key, start: u128, len: u128) -> Option<(u128, u128)> {
    let end_of_storage = match key {
        Key::Memory(a) => 1u128.checked_shl(ctx.layout().pointer_bits(*a) + 3)?,
        Key::Register(k) => ctx.register_bits(*k)? as u128,
        Key::Entity(_) => return None,
    };
    let from = start.max(end_of_storage);
    (from < start + len).then_some((from, start + len))
}

/// Appends the stretch `a..b` to `out` (nothing when it is empty), joined
/// to the last one when it continues it.
fn push_stretch(out: &mut Vec<(u128, u128)>, (a, b): (u128, u128)) {
    if a >= b {
        return;
    }
    match out.last_mut() {
        Some((_, end)) if *end == a => *end = b,
        _ => out.push((a, b)),
    }
}

impl Leaves for Runs {
    fn count(&self) -> u128 {
        self.len
    }
    fn leaf(&mut self, st: &Storage, off: u128, n: u64) {
        let n128 = n as u128;
        match st {
            Storage::Memory { addrspace } => {
                self.push(Run::Store(Key::Memory(*addrspace), off, n128))
            }
            Storage::Register { number } => {
                self.push(Run::Store(Key::Register(*number), off, n128))
            }
            Storage::Entity { name, .. } => {
                self.push(Run::Store(Key::Entity(name.clone()), off, n128))
            }
            Storage::Implicit(v) => {
                let inside = (v.width() as u128).saturating_sub(off).min(n128);
                if inside > 0 {
                    self.push(Run::Value(v.extract(off as u64, inside as u64)));
                }
                self.push(Run::Beyond(n128 - inside));
            }
            Storage::Undefined => self.push(Run::Undefined(n128)),
            Storage::ImplicitAddress {
                addrspace,
                bits,
                target,
                ..
            } => self.push(Run::Address {
                addrspace: *addrspace,
                bits: *bits,
                target: target.clone(),
                offset: off,
                len: n128,
            }),
            Storage::Composite { .. } => first_places(st, off, n, self),
        }
    }
    fn append(&mut self, other: &Self) {
        for r in &other.runs {
            self.push(r.clone());
        }
    }
    fn pad_to(&mut self, n: u128) {
        if n > self.len {
            self.push(Run::Beyond(n - self.len));
        }
    }
    fn unreadable(&self, ctx: &dyn Context) -> Vec<(u128, u128)> {
        let mut out = Vec::new();
        let mut at = 0;
        for r in &self.runs {
            let n = r.len();
            match r {
                Run::Beyond(_) => push_stretch(&mut out, (at, at + n)),
                Run::Store(k, start, _) => {
                    if let Some((a, b)) = outside(ctx, k, *start, n) {
                        push_stretch(&mut out, (at + a - start, at + b - start));
                    }
                }
                _ => {}
            }
            at += n;
        }
        out
    }
    fn mask(&mut self, stretches: &[(u128, u128)]) {
        let mut out = Runs::default();
        let mut at = 0;
        let mut rest = stretches;
        for r in std::mem::take(&mut self.runs) {
            let end = at + r.len();
            // Cut the run at the stretches that meet it: what lies before
            // each is kept, what lies in it is past the end.
            let mut from = at;
            while let Some(&(a, b)) = rest.first() {
                if a >= end {
                    break;
                }
                let (a, b) = (a.max(from), b.min(end));
                if a > from {
                    out.push(r.slice(from - at, a - from));
                }
                out.push(Run::Beyond(b - a));
                from = b;
                if b < end {
                    rest = &rest[1..];
                } else {
                    break;
                }
            }
            if from < end {
                out.push(r.slice(from - at, end - from));
            }
            at = end;
        }
        *self = out;
    }
}

impl Run {
    /// How many bits the run covers.
    fn len(&self) -> u128 {
        match self {
            Run::Store(_, _, n) | Run::Undefined(n) | Run::Beyond(n) => *n,
            Run::Address { len, .. } => *len,
            Run::Value(v) => v.width() as u128,
        }
    }

    /// Bits `from..from + len` of the run.
    fn slice(&self, from: u128, len: u128) -> Run {
        match self {
            Run::Store(k, start, _) => Run::Store(k.clone(), start + from, len),
            Run::Value(v) => Run::Value(v.extract(from as u64, len as u64)),
            Run::Undefined(_) => Run::Undefined(len),
            Run::Beyond(_) => Run::Beyond(len),
            Run::Address {
                addrspace,
                bits,
                target,
                offset,
                ..
            } => Run::Address {
                addrspace: *addrspace,
                bits: *bits,
                target: target.clone(),
                offset: offset + from,
                len,
            },
        }
    }
}

impl Leaves for Vec<BitLeaf> {
    fn count(&self) -> u128 {
        self.len() as u128
    }
    fn leaf(&mut self, st: &Storage, off: u128, n: u64) {
        let bits = 0..n as u128;
        match st {
            Storage::Memory { addrspace } => {
                self.extend(bits.map(|i| BitLeaf::Store(Key::Memory(*addrspace), off + i)))
            }
            Storage::Register { number } => {
                self.extend(bits.map(|i| BitLeaf::Store(Key::Register(*number), off + i)))
            }
            Storage::Entity { name, .. } => {
                self.extend(bits.map(|i| BitLeaf::Store(Key::Entity(name.clone()), off + i)))
            }
            Storage::Implicit(v) => self.extend(bits.map(|i| {
                let at = off + i;
                if at < v.width() as u128 {
                    BitLeaf::Value(v.bit(at as u64))
                } else {
                    BitLeaf::Beyond
                }
            })),
            Storage::Undefined => self.extend(bits.map(|_| BitLeaf::Undefined)),
            Storage::ImplicitAddress {
                addrspace,
                bits: size,
                target,
                ..
            } => self.extend(bits.map(|i| BitLeaf::Address {
                addrspace: *addrspace,
                bits: *size,
                target: target.clone(),
                offset: off + i,
            })),
            Storage::Composite { .. } => first_places(st, off, n, self),
        }
    }
    fn append(&mut self, other: &Self) {
        self.extend(other.iter().cloned());
    }
    fn pad_to(&mut self, n: u128) {
        if n > self.count() {
            self.resize(n as usize, BitLeaf::Beyond);
        }
    }
    fn unreadable(&self, ctx: &dyn Context) -> Vec<(u128, u128)> {
        let mut out = Vec::new();
        for (i, leaf) in self.iter().enumerate() {
            let unreadable = match leaf {
                BitLeaf::Beyond => true,
                BitLeaf::Store(k, off) => outside(ctx, k, *off, 1).is_some(),
                _ => false,
            };
            if unreadable {
                push_stretch(&mut out, (i as u128, i as u128 + 1));
            }
        }
        out
    }
    fn mask(&mut self, stretches: &[(u128, u128)]) {
        for &(a, b) in stretches {
            self[a as usize..b as usize].fill(BitLeaf::Beyond);
        }
    }
}

/// The parts of a composite that bits `off..off + n` of it cover, each
/// with the offset into the part and the number of bits covered, in order.
fn covered(parts: &[Part], off: u128, n: u128) -> impl Iterator<Item = (&Part, u128, u64)> {
    spans(parts, |p| p.bits, off, n).map(|(p, at, k)| (p, at, k as u64))
}

/// The parts of a sequence of parts `bits` wide each that bits `off..off +
/// n` of the whole cover, each with the offset into the part and the
/// number of bits covered, in order: [`covered`], and its SMT twin's walk.
pub(crate) fn spans<T>(
    parts: &[T],
    bits: impl Fn(&T) -> u64,
    off: u128,
    n: u128,
) -> impl Iterator<Item = (&T, u128, u128)> {
    let (lo, hi) = (off, off + n);
    parts
        .iter()
        .scan(0u128, move |start, p| {
            let (from, end) = (*start, *start + bits(p) as u128);
            *start = end;
            let (a, b) = (lo.max(from), hi.min(end));
            Some((a < b).then(|| (p, a - from, b - a)))
        })
        .flatten()
}

/// The bits of `n` bits from `off` of `st`, a composite part in several
/// places taken in its first place (the places hold the same bits by
/// D-multi-location-read).
fn first_places<L: Leaves>(st: &Storage, off: u128, n: u64, out: &mut L) {
    let Storage::Composite { parts, .. } = st else {
        return out.leaf(st, off, n);
    };
    let end_at = out.count() + n as u128;
    for (p, at, len) in covered(parts, off, n as u128) {
        let s = &p.loc.singles()[0];
        first_places(&s.storage, s.offset + at, len, out);
    }
    out.pad_to(end_at);
}

/// Is every part of `st`, at every depth, in one place?
fn one_place_each(st: &Storage) -> bool {
    match st {
        Storage::Composite { parts, .. } => parts.iter().all(|p| match p.loc.singles() {
            [s] => one_place_each(&s.storage),
            _ => false,
        }),
        _ => true,
    }
}

/// The bits of `n` bits from `off` of `st`, one list per choice of place
/// for the composite parts in several places; `None` past
/// [`MAX_ALTERNATIVES`].
fn alternatives<L: Leaves>(st: &Storage, off: u128, n: u64) -> Option<Vec<L>> {
    let Storage::Composite { parts, .. } = st else {
        let mut out = L::default();
        out.leaf(st, off, n);
        return Some(vec![out]);
    };
    let mut acc: Vec<L> = vec![L::default()];
    for (p, at, len) in covered(parts, off, n as u128) {
        let mut choices = Vec::new();
        for s in p.loc.singles() {
            choices.extend(alternatives::<L>(&s.storage, s.offset + at, len)?);
        }
        if acc.len() * choices.len() > MAX_ALTERNATIVES {
            return None;
        }
        if let [only] = choices.as_slice() {
            // One place for this part (the common case): every
            // alternative goes on with it, without copying what it has.
            acc.iter_mut().for_each(|v| v.append(only));
            continue;
        }
        acc = acc
            .iter()
            .flat_map(|prefix| {
                choices.iter().map(move |c| {
                    let mut v = prefix.clone();
                    v.append(c);
                    v
                })
            })
            .collect();
    }
    for v in &mut acc {
        v.pad_to(n as u128);
    }
    Some(acc)
}

/// The bits of `n` bits of each single of `l`, composites distributed over
/// their parts' places; `None` past [`MAX_ALTERNATIVES`].
fn places<L: Leaves>(l: &LocDesc, n: u64) -> Option<Vec<L>> {
    if !l.singles().iter().all(|s| one_place_each(&s.storage)) {
        return every_alternative(l, n);
    }
    if l.singles().len() > MAX_ALTERNATIVES {
        return None;
    }
    // Every part in one place: one alternative per single, which
    // `first_places` gathers without a list per part (what
    // `every_alternative` gives then, at a fraction of its allocations:
    // comparing places was 9% of the pipeline's instructions).
    Some(
        l.singles()
            .iter()
            .map(|s| {
                let mut out = L::default();
                first_places(&s.storage, s.offset, n, &mut out);
                out
            })
            .collect(),
    )
}

/// [`places`] by distributing every composite over its parts' places.
fn every_alternative<L: Leaves>(l: &LocDesc, n: u64) -> Option<Vec<L>> {
    let mut v = Vec::new();
    for s in l.singles() {
        v.extend(alternatives::<L>(&s.storage, s.offset, n)?);
        if v.len() > MAX_ALTERNATIVES {
            return None;
        }
    }
    Some(v)
}

/// Do `a` and `b` denote the same `n` bits: the same storage bits for
/// memory, registers and entities, the same value (and the same bits past
/// the end) for implicit values, structurally the same target for implicit
/// addresses (D-address-identity)? Locations in several places compare as
/// sets. The twin of `smt::loc::same_location`.
pub fn same_location(a: &LocDesc, b: &LocDesc, n: u64) -> bool {
    same_pieces(a, b, n) || first_place_set::<Runs>(a, n) == first_place_set::<Runs>(b, n)
}

/// A leaf of a location: `len` bits from `offset` of a storage that is not
/// a composite.
type Piece<'s> = (&'s Storage, u128, u128);

/// Most leaves [`same_pieces`] lists of one location before it leaves the
/// question to the general comparison.
const MAX_PIECES: usize = 64;

/// A test that `a` and `b` denote the same `n` bits, enough for
/// [`same_location`] and [`same_places`] and without building their runs:
/// both in one place at every depth (no location sets), inside their
/// composites and implicit values, with the same storage bits, undefined
/// bits and implicit values chunk by chunk. `false` says nothing: the
/// general comparison decides. (In the lowering law most locations that
/// are the same differ only in the width of an implicit value, which
/// DWARF's stack values make 64 bits: building both sides' runs was 5% of
/// the pipeline's expression cases.)
fn same_pieces(a: &LocDesc, b: &LocDesc, n: u64) -> bool {
    let ([x], [y]) = (a.singles(), b.singles()) else {
        return false;
    };
    let (mut pa, mut pb) = (SmallVec::<[Piece; 8]>::new(), SmallVec::<[Piece; 8]>::new());
    if !pieces_of(&x.storage, x.offset, n as u128, &mut pa)
        || !pieces_of(&y.storage, y.offset, n as u128, &mut pb)
    {
        return false;
    }
    // Walk both lists in chunks that lie within one leaf on each side.
    let (mut i, mut j, mut da, mut db) = (0, 0, 0u128, 0u128);
    while let (Some(&(sa, oa, na)), Some(&(sb, ob, nb))) = (pa.get(i), pb.get(j)) {
        let k = (na - da).min(nb - db);
        if !same_leaf_bits(sa, oa + da, sb, ob + db, k) {
            return false;
        }
        (da, db) = (da + k, db + k);
        if da == na {
            (i, da) = (i + 1, 0);
        }
        if db == nb {
            (j, db) = (j + 1, 0);
        }
    }
    i == pa.len() && j == pb.len()
}

/// The leaves of `n` bits from `off` of `st`, in order, onto `out`; `false`
/// where [`same_pieces`] does not decide (a location set, bits past the
/// end of a composite or an implicit value, more than [`MAX_PIECES`]).
fn pieces_of<'s>(st: &'s Storage, off: u128, n: u128, out: &mut SmallVec<[Piece<'s>; 8]>) -> bool {
    match st {
        Storage::Composite { parts, .. } => {
            let size: u128 = parts.iter().map(|p| p.bits as u128).sum();
            off + n <= size
                && covered(parts, off, n).all(|(p, at, k)| match p.loc.singles() {
                    [s] => pieces_of(&s.storage, s.offset + at, k as u128, out),
                    _ => false,
                })
        }
        Storage::Implicit(v) if off + n > v.width() as u128 => false,
        _ if out.len() >= MAX_PIECES => false,
        _ => {
            out.push((st, off, n));
            true
        }
    }
}

/// Are `k` bits from `oa` of leaf `sa` and from `ob` of leaf `sb` the same
/// bits, as [`Runs`] tells them apart: the same memory, register or
/// entity bits, both undefined, or equal implicit bits (inside the value,
/// as [`pieces_of`] keeps them)? Other leaves are left to the runs.
fn same_leaf_bits(sa: &Storage, oa: u128, sb: &Storage, ob: u128, k: u128) -> bool {
    match (sa, sb) {
        (Storage::Implicit(x), Storage::Implicit(y)) => {
            x.extract(oa as u64, k as u64) == y.extract(ob as u64, k as u64)
        }
        (Storage::Memory { addrspace: x }, Storage::Memory { addrspace: y }) => x == y && oa == ob,
        (Storage::Register { number: x }, Storage::Register { number: y }) => x == y && oa == ob,
        (Storage::Entity { name: x, .. }, Storage::Entity { name: y, .. }) => x == y && oa == ob,
        (Storage::Undefined, Storage::Undefined) => true,
        _ => false,
    }
}

/// The bits of `n` bits of each single of `l` (composites in their parts'
/// first places), as a set.
fn first_place_set<L: Leaves + Ord>(l: &LocDesc, n: u64) -> Vec<L> {
    let mut v: Vec<L> = l
        .singles()
        .iter()
        .map(|s| {
            let mut out = L::default();
            first_places(&s.storage, s.offset, n, &mut out);
            out
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// [`places`] as a set.
fn place_set<L: Leaves + Ord>(l: &LocDesc, n: u64) -> Option<Vec<L>> {
    let mut v = places::<L>(l, n)?;
    v.sort();
    v.dedup();
    Some(v)
}

/// Most alternatives [`same_places`] distributes a location into before it
/// falls back to [`same_location`]'s first place of each part.
const MAX_ALTERNATIVES: usize = 64;

/// As [`same_location`], but a composite part in several places counts as
/// several composites, one per place (`comp(8: {A | B})` is
/// `{comp(8: A) | comp(8: B)}`), so a location set that a lowering moved into
/// a composite still compares equal place by place. Past
/// [`MAX_ALTERNATIVES`] it is [`same_location`].
pub fn same_places(a: &LocDesc, b: &LocDesc, n: u64) -> bool {
    if a == b || same_pieces(a, b, n) {
        return true;
    }
    match (place_set::<Runs>(a, n), place_set::<Runs>(b, n)) {
        (Some(x), Some(y)) => x == y,
        _ => same_location(a, b, n),
    }
}

/// `dwarf` refines `reference` over `n` bits: the same as [`same_places`]
/// except at bits of the reference that cannot be read in any of its places
/// (where reading fails), which `dwarf` may define: bits past the end of an
/// implicit value or a composite (DWARF's implicit values are whole bytes,
/// so a 65-bit value becomes a 72-bit one) and bits outside their storage
/// (past the end of an address space's memory or of a register of `ctx`).
///
/// DECISION (D-lower-refines-outside): a location that runs past the end of
/// its storage is one the spec lets an expression give, but its bits there
/// cannot be read, so a lowering may describe them as anything: the DWARF of
/// `DIOpByteOffset` on a pointer read from memory wraps its address at the
/// end of the address space (DWARF 5's generic arithmetic is modulo the
/// address size) where the reference runs past the end.
pub fn refines_places(ctx: &dyn Context, reference: &LocDesc, dwarf: &LocDesc, n: u64) -> bool {
    // By runs first: the same places once the reference's unreadable bits
    // are masked on both sides is a refinement, and the common one.
    let (Some(r), Some(d)) = (places::<Runs>(reference, n), places::<Runs>(dwarf, n)) else {
        return false;
    };
    let beyond = unreadable_in_all(ctx, &r, n);
    if masked_set(r, &beyond) == masked_set(d, &beyond) {
        return true;
    }
    // Else bit by bit, where an implicit address of the DWARF may refine
    // the reference's (the runs of the two need not break alike there).
    let (Some(r), Some(d)) = (
        places::<Vec<BitLeaf>>(reference, n),
        places::<Vec<BitLeaf>>(dwarf, n),
    ) else {
        return false;
    };
    let (r, d) = (masked_set(r, &beyond), masked_set(d, &beyond));
    r.len() == d.len()
        && r.iter().zip(&d).all(|(x, y)| {
            x.iter()
                .zip(y)
                .all(|(a, b)| a == b || address_refines(a, b))
        })
}

/// The stretches of the `n` bits that cannot be read in any of the
/// `alternatives` (the places of a reference): those a refinement may
/// define.
fn unreadable_in_all<L: Leaves>(
    ctx: &dyn Context,
    alternatives: &[L],
    n: u64,
) -> Vec<(u128, u128)> {
    let mut all = vec![(0, n as u128)];
    for a in alternatives {
        let theirs = a.unreadable(ctx);
        let mut both = Vec::new();
        let (mut i, mut j) = (0, 0);
        while let (Some(&(a1, b1)), Some(&(a2, b2))) = (all.get(i), theirs.get(j)) {
            push_stretch(&mut both, (a1.max(a2), b1.min(b2)));
            if b1 < b2 {
                i += 1;
            } else {
                j += 1;
            }
        }
        all = both;
    }
    all
}

/// `alternatives` with the bits of `stretches` made bits past the end, as
/// a set.
fn masked_set<L: Leaves + Ord>(mut alternatives: Vec<L>, stretches: &[(u128, u128)]) -> Vec<L> {
    for a in &mut alternatives {
        a.mask(stretches);
    }
    alternatives.sort();
    alternatives.dedup();
    alternatives
}

/// DECISION (D-lower-refines-targets): D-lower-refines reaches through
/// implicit pointers. An implicit address of the DWARF refines one of the
/// reference when they agree in address space, size and offset and the
/// DWARF's target is the reference's implicit value widened: the
/// `DW_OP_implicit_pointer` of a lowering points at a DIE whose value is
/// whole bytes (a generic stack value for an `i5`), and a consumer reading
/// the pointee's `w` bits reads the reference's value; only bits the
/// reference's target does not have differ.
fn address_refines(reference: &BitLeaf, dwarf: &BitLeaf) -> bool {
    let (
        BitLeaf::Address {
            addrspace: s1,
            bits: b1,
            target: t1,
            offset: o1,
        },
        BitLeaf::Address {
            addrspace: s2,
            bits: b2,
            target: t2,
            offset: o2,
        },
    ) = (reference, dwarf)
    else {
        return false;
    };
    if (s1, b1, o1) != (s2, b2, o2) {
        return false;
    }
    match (t1.singles(), t2.singles()) {
        ([x], [y]) if x.offset == y.offset => match (&*x.storage, &*y.storage) {
            (Storage::Implicit(v1), Storage::Implicit(v2)) => {
                v2.width() >= v1.width() && v2.extract(0, v1.width()) == *v1
            }
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::location::parse_location;
    use crate::types::DataLayout;

    fn loc(s: &str) -> LocDesc {
        parse_location(s, &DataLayout::default()).unwrap()
    }

    /// Numbers below `n`, drawn by a linear congruential generator from
    /// `seed` (deterministic, so a failure is reproducible).
    fn below_from(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        }
    }

    /// A source of random numbers below its argument.
    type Below<'a> = &'a mut dyn FnMut(u64) -> u64;

    /// A composite of 1 to 3 parts of 4 to 12 bits, each located by
    /// `leaf`, at bit offset 0 or 4.
    fn composite_of(below: Below, leaf: &dyn Fn(Below) -> LocDesc) -> LocDesc {
        let parts = (0..1 + below(3))
            .map(|_| Part {
                bits: 4 * (1 + below(3)),
                loc: leaf(below),
            })
            .collect();
        LocDesc::single(Storage::composite(parts), u128::from(below(2)) * 4)
    }

    /// Comparing by runs gives what comparing bit by bit gives, on random
    /// pairs of composites drawn from a small family (so that many pairs
    /// are equal, and many differ in one bit or one run boundary).
    #[test]
    fn runs_compare_as_bits_do() {
        let mut below = below_from(11);
        let leaf = |below: &mut dyn FnMut(u64) -> u64| -> LocDesc {
            let k = u128::from(below(3)) * 4;
            match below(7) {
                0 => LocDesc::single(Storage::Register { number: 3 }, k),
                1 => LocDesc::single(Storage::Memory { addrspace: 0 }, 0x80 + k),
                2 => LocDesc::implicit(Bits::from_u64(4 + 4 * below(2), below(4))),
                3 => LocDesc::undefined(),
                4 => loc("addr(0, imp(8, 0x05))"),
                5 => loc("{reg(3) | mem(0, 0x10)}"),
                _ => LocDesc::single(
                    Storage::Register {
                        number: 3 + below(2) as u32,
                    },
                    k + 4,
                ),
            }
        };
        let make = |below: &mut dyn FnMut(u64) -> u64| composite_of(below, &leaf);
        let bitwise_same_places = |a: &LocDesc, b: &LocDesc, n: u64| {
            place_set::<Vec<BitLeaf>>(a, n) == place_set::<Vec<BitLeaf>>(b, n)
        };
        let bitwise_same_location = |a: &LocDesc, b: &LocDesc, n: u64| {
            first_place_set::<Vec<BitLeaf>>(a, n) == first_place_set::<Vec<BitLeaf>>(b, n)
        };
        let (mut equal, mut cases, mut by_pieces) = (0, 0, 0);
        for _ in 0..20_000 {
            let (a, b) = (make(&mut below), make(&mut below));
            let n = 4 * (1 + below(4));
            let same = same_places(&a, &b, n);
            assert_eq!(same, bitwise_same_places(&a, &b, n), "{a} {b} {n}");
            assert_eq!(
                same_location(&a, &b, n),
                bitwise_same_location(&a, &b, n),
                "{a} {b} {n}"
            );
            // The test without runs decides only where the bits agree.
            let decided = same_pieces(&a, &b, n);
            assert!(
                !decided || (bitwise_same_places(&a, &b, n) && bitwise_same_location(&a, &b, n)),
                "same_pieces: {a} {b} {n}"
            );
            equal += same as u32;
            by_pieces += decided as u32;
            cases += 1;
        }
        assert!(
            equal > 200 && equal < cases - 1000,
            "{equal} of {cases} equal"
        );
        assert!(
            by_pieces > equal / 4,
            "{by_pieces} of {equal} decided by pieces"
        );
    }

    /// `places` of a location whose parts are each in one place (gathered
    /// directly) is what distributing its composites over their parts'
    /// places gives, by runs and bit by bit; generated composites of
    /// registers, memory, implicit values and pointers, undefined parts and
    /// parts in two places (which must take the distributing path: a
    /// location taken for one in one place would differ there).
    #[test]
    fn places_in_one_place_each_are_every_alternative() {
        let mut below = below_from(31);
        let leaf = |below: &mut dyn FnMut(u64) -> u64| -> LocDesc {
            match below(7) {
                0 => LocDesc::single(Storage::Register { number: 3 }, u128::from(below(40))),
                1 => LocDesc::single(Storage::Memory { addrspace: 1 }, u128::from(below(99))),
                2 => LocDesc::implicit(Bits::from_u64(4 + 4 * below(3), below(64))),
                3 => LocDesc::undefined(),
                4 => loc("addr(0, imp(8, 0x05))"),
                5 => loc("{reg(3) | mem(0, 0x10)}"),
                _ => loc("{imp(16, 0x1234) | reg(5)}"),
            }
        };
        let (mut direct, mut distributed) = (0, 0);
        for _ in 0..20_000 {
            let a = composite_of(&mut below, &leaf);
            let n = 4 * (1 + below(8));
            assert_eq!(
                places::<Runs>(&a, n),
                every_alternative::<Runs>(&a, n),
                "{a} {n}"
            );
            assert_eq!(
                places::<Vec<BitLeaf>>(&a, n),
                every_alternative::<Vec<BitLeaf>>(&a, n),
                "{a} {n}"
            );
            if a.singles().iter().all(|s| one_place_each(&s.storage)) {
                direct += 1;
            } else {
                distributed += 1;
            }
        }
        assert!(
            direct > 2000 && distributed > 2000,
            "{direct} direct, {distributed} distributed"
        );
    }

    /// Refinement by runs gives what it gives bit by bit: on random pairs
    /// of composites whose parts run past the end of a register, of memory
    /// or of an implicit value, or are implicit pointers to a value and to
    /// it widened, the unreadable bits found by runs are those found bit by
    /// bit, and `refines_places` answers as the bit-by-bit definition (the
    /// reference's unreadable bits masked on both sides, the sets compared
    /// place by place with D-lower-refines-targets) does.
    #[test]
    fn refinement_by_runs_is_refinement_bit_by_bit() {
        let mut ctx = crate::context::ConcreteContext::default();
        ctx.add_register(3, vec![Some(0); 4]).unwrap();
        let mut below = below_from(29);
        let leaf = |below: &mut dyn FnMut(u64) -> u64| -> LocDesc {
            let k = u128::from(below(3)) * 4;
            match below(8) {
                // Register 3 is 32 bits wide.
                0 => LocDesc::single(Storage::Register { number: 3 }, 24 + k),
                // The last byte of address space 0 is at bit 2^67 - 8.
                1 => LocDesc::single(Storage::Memory { addrspace: 0 }, (1u128 << 67) - 8 + k),
                2 => LocDesc::implicit(Bits::from_u64(4 + 4 * below(2), below(4))),
                3 => LocDesc::undefined(),
                4 => loc("addr(0, imp(8, 0x05))"),
                5 => loc("addr(0, imp(64, 0x0000000000000005))"),
                6 => loc("{reg(3) | mem(0, 0x10)}"),
                _ => LocDesc::single(Storage::Register { number: 4 }, k),
            }
        };
        let make = |below: &mut dyn FnMut(u64) -> u64| composite_of(below, &leaf);
        // The definition, bit by bit.
        let bitwise_refines = |r: &LocDesc, d: &LocDesc, n: u64| {
            let (Some(r), Some(d)) = (places::<Vec<BitLeaf>>(r, n), places::<Vec<BitLeaf>>(d, n))
            else {
                return false;
            };
            let unreadable = |leaf: &BitLeaf| match leaf {
                BitLeaf::Beyond => true,
                BitLeaf::Store(k, off) => outside(&ctx, k, *off, 1).is_some(),
                _ => false,
            };
            let beyond: Vec<usize> = (0..n as usize)
                .filter(|&i| r.iter().all(|a| unreadable(&a[i])))
                .collect();
            let mask = |mut v: Vec<Vec<BitLeaf>>| {
                for a in &mut v {
                    for &i in &beyond {
                        a[i] = BitLeaf::Beyond;
                    }
                }
                v.sort();
                v.dedup();
                v
            };
            let (r, d) = (mask(r), mask(d));
            r.len() == d.len()
                && r.iter().zip(&d).all(|(x, y)| {
                    x.iter()
                        .zip(y)
                        .all(|(a, b)| a == b || address_refines(a, b))
                })
        };
        let (mut refined, mut unreadable, mut cases) = (0, 0, 0);
        for _ in 0..20_000 {
            let (a, b) = (make(&mut below), make(&mut below));
            let n = 4 * (1 + below(4));
            let (Some(runs), Some(bits)) = (places::<Runs>(&a, n), places::<Vec<BitLeaf>>(&a, n))
            else {
                continue;
            };
            let beyond = unreadable_in_all(&ctx, &runs, n);
            assert_eq!(beyond, unreadable_in_all(&ctx, &bits, n), "{a} {n}");
            let r = refines_places(&ctx, &a, &b, n);
            assert_eq!(r, bitwise_refines(&a, &b, n), "{a} {b} {n}");
            refined += (r && !same_places(&a, &b, n)) as u32;
            unreadable += !beyond.is_empty() as u32;
            cases += 1;
        }
        assert!(
            refined > 200 && unreadable > 2000,
            "{refined} strict refinements and {unreadable} references with unreadable bits of {cases}"
        );
    }

    #[test]
    fn a_composite_part_in_two_places_is_two_composites() {
        let set = loc("{reg(3) | mem(0, 0x10)}");
        let moved = loc("comp(8: undef, 8: {reg(3) | mem(0, 0x10)})+8");
        assert!(same_places(&set, &moved, 8));
        // The first-place comparison cannot see the second place.
        assert!(!same_location(&set, &moved, 8));
        assert!(!same_places(&loc("reg(3)"), &moved, 8));
        assert!(same_places(
            &loc("{comp(8: reg(3), 8: reg(4)) | comp(8: mem(0, 0x10), 8: reg(4))}"),
            &loc("comp(8: {reg(3) | mem(0, 0x10)}, 8: reg(4))"),
            16
        ));
    }

    #[test]
    fn bits_past_an_implicit_value_may_be_defined_by_a_refinement() {
        let reference = loc("imp(4, 0x5)");
        let dwarf = loc("imp(8, 0x05)");
        assert!(!same_places(&reference, &dwarf, 8));
        let ctx = crate::context::ConcreteContext::default();
        assert!(refines_places(&ctx, &reference, &dwarf, 8));
        // Not the other way round, and not where the values differ.
        assert!(!refines_places(&ctx, &dwarf, &reference, 8));
        assert!(!refines_places(&ctx, &reference, &loc("imp(8, 0x06)"), 8));
    }

    /// D-lower-refines-targets: an implicit pointer to a widened value
    /// refines one to the value itself; not to another value, not the other
    /// way round, and not with another offset.
    #[test]
    fn an_implicit_pointer_to_a_widened_value_is_a_refinement() {
        let ctx = crate::context::ConcreteContext::default();
        let reference = loc("addr(0, imp(5, 0x15))");
        let dwarf = loc("addr(0, imp(64, 0x0000000000000015))");
        assert!(!same_places(&reference, &dwarf, 64));
        assert!(refines_places(&ctx, &reference, &dwarf, 64));
        assert!(!refines_places(&ctx, &dwarf, &reference, 64));
        assert!(!refines_places(
            &ctx,
            &reference,
            &loc("addr(0, imp(64, 0x0000000000000005))"),
            64
        ));
        assert!(!refines_places(
            &ctx,
            &reference,
            &loc("addr(0, imp(64, 0x0000000000000015)+8)"),
            64
        ));
    }

    /// D-lower-refines-outside: bits past the end of memory or of a
    /// register cannot be read, so a refinement may define them; bits inside
    /// must still be the same.
    #[test]
    fn bits_outside_their_storage_may_be_defined_by_a_refinement() {
        let mut ctx = crate::context::ConcreteContext::default();
        ctx.add_register(3, vec![Some(0); 4]).unwrap();
        // One past the last byte of address space 0 (the text form cannot
        // write it: it reads byte addresses).
        let end = LocDesc::single(Storage::Memory { addrspace: 0 }, 1u128 << 67);
        assert!(!same_places(&end, &loc("mem(0, 0x0)"), 8));
        assert!(refines_places(&ctx, &end, &loc("mem(0, 0x0)"), 8));
        assert!(!refines_places(&ctx, &loc("mem(0, 0x0)"), &end, 8));
        // Straddling the end: the bits inside must match.
        let straddle = loc("mem(0, 0xffffffffffffffff)");
        assert!(!refines_places(&ctx, &straddle, &loc("mem(0, 0x0)"), 16));
        let past = LocDesc::single(Storage::Register { number: 3 }, 32);
        assert!(refines_places(&ctx, &past, &loc("reg(7)"), 8));
        let inside = LocDesc::single(Storage::Register { number: 3 }, 24);
        assert!(!refines_places(&ctx, &inside, &loc("reg(7)"), 16));
    }
}
