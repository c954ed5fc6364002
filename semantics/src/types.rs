//! LLVM types as the expression language uses them, and the data layout that
//! gives pointers their size.
//!
//! The spec uses types for two things only: `bitsizeof(T)` and the kind of
//! `T` (integral, floating point, pointer, vector). Both are defined here.

use crate::diag::Diag;
use crate::limits::*;
use smallvec::SmallVec;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// An LLVM type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `iN`, `1 <= N <= 2^23 - 1`.
    Int(u64),
    /// `half` (IEEE binary16).
    Half,
    /// `bfloat` (brain float: the top half of a binary32).
    BFloat,
    /// `float` (IEEE binary32).
    Float,
    /// `double` (IEEE binary64).
    Double,
    /// `x86_fp80` (x87 extended precision: 64-bit significand with an
    /// explicit integer bit).
    X86Fp80,
    /// `fp128` (IEEE binary128).
    Fp128,
    /// `ppc_fp128` (IBM double-double: two `double`s whose sum is the value).
    PpcFp128,
    /// `ptr addrspace(N)` (opaque, `pointee: None`) or the typed spelling
    /// `T addrspace(N)*` (`pointee: Some(T)`).
    Ptr {
        addrspace: u32,
        pointee: Option<Arc<Type>>,
    },
    /// `<N x T>`.
    Vector { count: u64, elem: Arc<Type> },
    /// `[N x T]`.
    Array { count: u64, elem: Arc<Type> },
    /// `{ T, ... }` or, packed, `<{ T, ... }>`.
    Struct { packed: bool, fields: Arc<[Type]> },
    /// `%name`: an identified struct type, sigil included. Its body is a
    /// definition (`%name = type { ... }`) the data layout holds, as an
    /// LLVM module holds it beside its `target datalayout`
    /// ([`DataLayout::define_types`]).
    Named(Arc<str>),
}

/// Every LLVM floating-point type, narrowest first.
pub const FLOAT_TYPES: [Type; 7] = [
    Type::Half,
    Type::BFloat,
    Type::Float,
    Type::Double,
    Type::X86Fp80,
    Type::Fp128,
    Type::PpcFp128,
];

/// `<count x elem>`, sharing its element with the vector types this
/// thread made last (an interpreter and the checker make `DIOpExtend`'s
/// vector type at every evaluation and check: allocating the element each
/// time was ten allocations per case of the pipeline's expression cases).
/// At most `KEPT` are kept per thread, the oldest replaced first.
pub fn vector_type(count: u64, elem: &Type) -> Type {
    const KEPT: usize = 16;
    thread_local! {
        static RECENT: std::cell::RefCell<(Vec<Type>, usize)> =
            const { std::cell::RefCell::new((Vec::new(), 0)) };
    }
    RECENT.with(|recent| {
        let (kept, next) = &mut *recent.borrow_mut();
        let same = |v: &&Type| matches!(v, Type::Vector { count: c, elem: e } if *c == count && **e == *elem);
        if let Some(v) = kept.iter().find(same) {
            return v.clone();
        }
        let v = Type::Vector {
            count,
            elem: Arc::new(elem.clone()),
        };
        if kept.len() < KEPT {
            kept.push(v.clone());
        } else {
            kept[*next] = v.clone();
            *next = (*next + 1) % KEPT;
        }
        v
    })
}

impl Type {
    pub fn ptr(addrspace: u32) -> Type {
        Type::Ptr {
            addrspace,
            pointee: None,
        }
    }
    /// An integral type (`iN`). Pointers are not integral types in LLVM.
    pub fn is_integral(&self) -> bool {
        matches!(self, Type::Int(_))
    }
    pub fn is_float(&self) -> bool {
        matches!(
            self,
            Type::Half
                | Type::BFloat
                | Type::Float
                | Type::Double
                | Type::X86Fp80
                | Type::Fp128
                | Type::PpcFp128
        )
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Ptr { .. })
    }
    /// Integral, floating point or pointer: the element types `DIOpExtend`
    /// and `DIOpSelect` accept.
    pub fn is_scalar(&self) -> bool {
        self.is_integral() || self.is_float() || self.is_pointer()
    }
    /// The address space of a pointer type.
    pub fn addrspace(&self) -> Option<u32> {
        match self {
            Type::Ptr { addrspace, .. } => Some(*addrspace),
            _ => None,
        }
    }
    /// Type identity as the spec's meta-syntactic variables assert it.
    ///
    /// DECISION (D-typed-pointer-same): a typed pointer `T addrspace(N)*` is the same type as the
    /// opaque `ptr addrspace(N)` (and as any other typed pointer into N):
    /// LLVM has moved to opaque pointers, both spellings must be accepted,
    /// and no rule of the spec depends on a pointee type.
    pub fn same(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::Ptr { addrspace: a, .. }, Type::Ptr { addrspace: b, .. }) => a == b,
            (
                Type::Vector {
                    count: n1,
                    elem: e1,
                },
                Type::Vector {
                    count: n2,
                    elem: e2,
                },
            ) => n1 == n2 && e1.same(e2),
            (
                Type::Array {
                    count: n1,
                    elem: e1,
                },
                Type::Array {
                    count: n2,
                    elem: e2,
                },
            ) => n1 == n2 && e1.same(e2),
            (
                Type::Struct {
                    packed: p1,
                    fields: f1,
                },
                Type::Struct {
                    packed: p2,
                    fields: f2,
                },
            ) => {
                p1 == p2 && f1.len() == f2.len() && f1.iter().zip(f2.iter()).all(|(a, b)| a.same(b))
            }
            _ => self == other,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int(w) => write!(f, "i{w}"),
            Type::Half => f.write_str("half"),
            Type::BFloat => f.write_str("bfloat"),
            Type::Float => f.write_str("float"),
            Type::Double => f.write_str("double"),
            Type::X86Fp80 => f.write_str("x86_fp80"),
            Type::Fp128 => f.write_str("fp128"),
            Type::PpcFp128 => f.write_str("ppc_fp128"),
            Type::Ptr {
                addrspace,
                pointee: None,
            } => {
                if *addrspace == 0 {
                    f.write_str("ptr")
                } else {
                    write!(f, "ptr addrspace({addrspace})")
                }
            }
            Type::Ptr {
                addrspace,
                pointee: Some(t),
            } => {
                if *addrspace == 0 {
                    write!(f, "{t}*")
                } else {
                    write!(f, "{t} addrspace({addrspace})*")
                }
            }
            Type::Vector { count, elem } => write!(f, "<{count} x {elem}>"),
            Type::Array { count, elem } => write!(f, "[{count} x {elem}]"),
            Type::Named(name) => f.write_str(name),
            Type::Struct { packed, fields } => {
                f.write_str(if *packed { "<{" } else { "{" })?;
                for (i, t) in fields.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { ", " })?;
                    write!(f, "{t}")?;
                }
                f.write_str(if *packed { " }>" } else { " }" })
            }
        }
    }
}

/// AMDGPU's data layout string (`amdgcn-amd-amdhsa`, LLVM 17 and later):
/// the layout dioptra uses when none is given (D-default-layout).
pub const AMDGPU_DATALAYOUT: &str = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9";

/// A pointer's size in bits and ABI alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PointerSpec {
    bits: u32,
    abi: u32,
}

/// An alignment specification: a bit width and its ABI alignment in bytes.
type AlignSpec = (u32, u32);
/// A sorted list of them (AMDGPU's has twelve vector specs).
type AlignSpecs = SmallVec<[AlignSpec; 12]>;

/// A layout's specification lists (see [`DataLayout`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Specs {
    /// Address spaces other than 0 whose pointers differ from address space
    /// 0's, sorted. Small inline vectors, not maps: every `bitsizeof` of a
    /// pointer looks here.
    pointers: SmallVec<[(u32, PointerSpec); 10]>,
    /// `i<size>:<abi>`, sorted by size.
    ints: AlignSpecs,
    /// `f<size>:<abi>`, sorted by size.
    floats: AlignSpecs,
    /// `v<size>:<abi>`, sorted by size.
    vectors: AlignSpecs,
    /// `ni:...`: address spaces whose pointers are not integers.
    non_integral: SmallVec<[u32; 4]>,
}

/// What LLVM's `DataLayout` says about types: pointer sizes, ABI alignments
/// and, from them, the size of every type (`bitsizeof`).
///
/// DECISION (D-default-layout): with no data layout string the layout is
/// AMDGPU's real one, [`AMDGPU_DATALAYOUT`]: 32-bit pointers in address
/// spaces 2, 3, 5 and 6, 160-, 128- and 192-bit buffer pointers in 7, 8 and
/// 9 (non-integral), 64-bit pointers elsewhere, `i64` 64-bit aligned. A
/// data layout string (`--datalayout`, `(layout "...")` in a context, a
/// module's `target datalayout`) is read as LLVM reads it: on LLVM's own
/// defaults (64-bit pointers; `i1:8 i8:8 i16:16 i32:32 i64:32:64 f16:16
/// f32:32 f64:64 f128:128 v64:64 v128:128 a:0:64`), and an address space
/// the string does not name has the size and alignment of address space 0
/// (LangRef: `p[n]`, "n defaults to 0"; `DataLayout` falls back to the
/// address-space-0 entry). So `"e-p:32:32"` makes every pointer 32 bits and
/// `"e"` every pointer 64.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataLayout {
    /// The specifications read from the string, shared by every clone: a
    /// layout is cloned into every signature, and they are written only
    /// while a layout string is read.
    specs: Arc<Specs>,
    pointer0: PointerSpec,
    /// `a:<abi>`: the least ABI alignment of a (non-packed) struct, bytes.
    aggregate: u32,
    /// The identified struct types, with their sizes under this layout.
    structs: Arc<StructTable>,
}

/// Identified struct types: each name's body (`None`: `type opaque`) and,
/// computed once when they are defined or the layout changes, its size and
/// alignment (so that a `bitsizeof` of nested named structs is a look-up,
/// not a walk).
#[derive(Clone, Debug, Default)]
struct StructTable {
    defs: BTreeMap<Arc<str>, NamedStruct>,
    /// Each name's size, as in `defs`, when the table is laid out and has
    /// at most [`StructTable::BY_ADDRESS`] definitions (empty otherwise):
    /// a flat list that [`StructTable::sized`] searches by address.
    sizes: Vec<(Arc<str>, Option<Sized>)>,
}

/// Tables are equal by their definitions (`sizes` is made from them).
impl PartialEq for StructTable {
    fn eq(&self, other: &Self) -> bool {
        self.defs == other.defs
    }
}
impl Eq for StructTable {}

impl StructTable {
    /// The most definitions [`StructTable::sizes`] lists.
    const BY_ADDRESS: usize = 8;

    /// The size of `name` in a laid-out table (a layout's own: a table
    /// being laid out is read through `defs`), `None` for a name that is
    /// not defined or has no size (opaque, unmodelled). Names are shared
    /// ([`type_name`]): in a small table the name is found by its address,
    /// without comparing names (sizing named types compared them a million
    /// times in the pipeline's 20 000 expression cases); a name not shared,
    /// or a larger table, by comparing.
    #[inline]
    fn sized(&self, name: &Arc<str>) -> Option<Sized> {
        if let Some((_, s)) = self.sizes.iter().find(|(k, _)| Arc::ptr_eq(k, name)) {
            return *s;
        }
        self.defs.get(name).and_then(|d| d.sized)
    }

    /// Lists the sizes for [`StructTable::sized`], once the table is laid
    /// out.
    fn list_sizes(&mut self) {
        self.sizes.clear();
        if self.defs.len() <= Self::BY_ADDRESS {
            self.sizes = self
                .defs
                .iter()
                .map(|(k, d)| (Arc::clone(k), d.sized))
                .collect();
        }
    }
}

/// The name of an identified struct type (`%name`, sigil included),
/// shared: the types and the definitions that spell the same name hold one
/// `Arc`, so that a layout finds a definition by address
/// ([`StructTable::sized`]). The process keeps at most
/// [`MAX_SHARED_TYPE_NAMES`] names of at most [`MAX_SHARED_TYPE_NAME_BYTES`]
/// bytes; any other name gets an `Arc` of its own, which works the same,
/// found by comparing names.
pub fn type_name(name: &str) -> Arc<str> {
    if name.len() > MAX_SHARED_TYPE_NAME_BYTES {
        return name.into();
    }
    let mut names = shared_names();
    if let Some(n) = names.get(name) {
        return Arc::clone(n);
    }
    let n: Arc<str> = name.into();
    if names.len() < MAX_SHARED_TYPE_NAMES {
        names.insert(Arc::clone(&n));
    }
    n
}

/// The names [`type_name`] shares.
fn shared_names() -> std::sync::MutexGuard<'static, std::collections::HashSet<Arc<str>>> {
    use std::collections::HashSet;
    use std::sync::{LazyLock, Mutex};
    static NAMES: LazyLock<Mutex<HashSet<Arc<str>>>> = LazyLock::new(Default::default);
    // A poisoned lock (a thread panicked holding it) holds a valid set.
    NAMES.lock().unwrap_or_else(|p| p.into_inner())
}

/// A named struct's body: packed or not, and its fields.
type Body = (bool, Vec<Type>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct NamedStruct {
    body: Option<Body>,
    sized: Option<Sized>,
    /// Why a body dioptra cannot model (a field of an unsupported type) is
    /// not read: the name stays usable behind pointers, as in a real module
    /// where such a struct is one of many.
    unsupported: Option<Diag>,
}

/// The layout every string is read on, shared so that `default()` does not
/// parse.
fn amdgpu_layout() -> &'static DataLayout {
    static AMDGPU: std::sync::OnceLock<DataLayout> = std::sync::OnceLock::new();
    AMDGPU.get_or_init(|| DataLayout::parse(AMDGPU_DATALAYOUT).expect("AMDGPU's layout parses"))
}

impl Default for DataLayout {
    fn default() -> Self {
        amdgpu_layout().clone()
    }
}

/// The least power of two at least `n` (1 for 0), as LLVM's `PowerOf2Ceil`
/// is used for alignments.
fn pow2_ceil(n: u64) -> u64 {
    n.max(1).checked_next_power_of_two().unwrap_or(1 << 63)
}

fn align_to(n: u64, align: u64) -> u64 {
    n.div_ceil(align).saturating_mul(align)
}

/// The size of a type in bits and its ABI alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sized {
    bits: u64,
    abi: u64,
}

impl Sized {
    /// LLVM's `getTypeStoreSize`: the bytes a value occupies.
    fn store_bytes(self) -> u64 {
        self.bits.div_ceil(8)
    }
    /// LLVM's `getTypeAllocSize`: the store size rounded up to the ABI
    /// alignment, the distance between array elements.
    fn alloc_bits(self) -> u64 {
        align_to(self.store_bytes(), self.abi).saturating_mul(8)
    }
}

impl DataLayout {
    /// LLVM's layout before a data layout string is read: every pointer 64
    /// bits.
    pub fn llvm_default() -> DataLayout {
        DataLayout {
            specs: Arc::new(Specs {
                pointers: SmallVec::new(),
                ints: [(1, 1), (8, 1), (16, 2), (32, 4), (64, 4)]
                    .into_iter()
                    .collect(),
                floats: [(16, 2), (32, 4), (64, 8), (128, 16)].into_iter().collect(),
                vectors: [(64, 8), (128, 16)].into_iter().collect(),
                non_integral: SmallVec::new(),
            }),
            pointer0: PointerSpec { bits: 64, abi: 8 },
            aggregate: 1,
            structs: Arc::default(),
        }
    }

    fn pointer(&self, n: u32) -> PointerSpec {
        self.specs
            .pointers
            .iter()
            .find(|(space, _)| *space == n)
            .map_or(self.pointer0, |(_, p)| *p)
    }

    /// Pointer size in bits for address space `n`.
    pub fn pointer_bits(&self, n: u32) -> u32 {
        self.pointer(n).bits
    }

    /// Sets the pointer size of address space `n` (its ABI alignment
    /// becomes the size's natural alignment).
    pub fn set_pointer_bits(&mut self, n: u32, bits: u32) {
        let spec = PointerSpec {
            bits,
            abi: pow2_ceil(u64::from(bits).div_ceil(8)) as u32,
        };
        self.set_pointer(n, spec);
        self.relayout();
    }

    fn set_pointer(&mut self, n: u32, spec: PointerSpec) {
        if n == 0 {
            self.pointer0 = spec;
            return;
        }
        let pointers = &mut Arc::make_mut(&mut self.specs).pointers;
        match pointers.binary_search_by_key(&n, |(space, _)| *space) {
            Ok(i) => pointers[i].1 = spec,
            Err(i) => pointers.insert(i, (n, spec)),
        }
    }

    /// Whether pointers into address space `n` are integers (LangRef: a
    /// space listed in `ni:` is non-integral).
    pub fn is_integral(&self, n: u32) -> bool {
        !self.specs.non_integral.contains(&n)
    }

    /// The pointer size of an address space whose memory dioptra models.
    ///
    /// DECISION (D-wide-pointers): pointers may have any size LLVM accepts
    /// (1 to 2^24 - 1 bits) and are values like any other; memory, though,
    /// is modelled only in an integral address space with pointers of
    /// 8..=64 bits, where a byte address times 8 is an exact bit offset.
    /// AMDGPU's buffer pointers (address spaces 7, 8 and 9: 160, 128 and
    /// 192 bits, non-integral) address buffer resources, not flat memory:
    /// a memory location in one is `unsupported`.
    pub fn memory_pointer_bits(&self, n: u32) -> Result<u32, Diag> {
        let bits = self.pointer_bits(n);
        if !self.is_integral(n) {
            return Err(Diag::unsupported(
                "DataLayout",
                "non-integral-memory",
                format!("address space {n} is non-integral (`ni:`); dioptra models memory only where pointers are integers"),
            ));
        }
        if !(8..=64).contains(&bits) {
            return Err(Diag::unsupported(
                "DataLayout",
                "wide-pointer-memory",
                format!("address space {n} has {bits}-bit pointers; dioptra models memory only where pointers have 8..=64 bits"),
            ));
        }
        Ok(bits)
    }

    /// Reads an LLVM data layout string, on LLVM's defaults
    /// (D-default-layout): pointer specs `p[n]:size[:abi[:pref[:idx]]]`,
    /// alignment specs `i`, `f`, `v` `<size>:<abi>[:<pref>]`, `a:<abi>`,
    /// `ni:` and the endianness. The components that do not change a type's
    /// size (`m:`, `n`, `S`, `A`, `P`, `G`, `F`) are checked for their
    /// letter and otherwise skipped.
    ///
    /// DECISION (D-little-endian): only little-endian (`e`) targets are
    /// modelled; `E` is rejected.
    ///
    /// DECISION (D-pointer-abi-optional): a pointer spec without an ABI
    /// alignment (`p5:16`; LLVM 14 refuses it) gets its size's natural
    /// alignment, as `DataLayout` gives types it has no spec for.
    pub fn parse(s: &str) -> Result<DataLayout, Diag> {
        let mut dl = DataLayout::llvm_default();
        for comp in s.split('-').map(str::trim).filter(|c| !c.is_empty()) {
            dl.component(comp)?;
        }
        // One spelling per layout: a pointer entry equal to the fallback is
        // none.
        let fallback = dl.pointer0;
        Arc::make_mut(&mut dl.specs)
            .pointers
            .retain(|(_, p)| *p != fallback);
        Ok(dl)
    }

    fn component(&mut self, comp: &str) -> Result<(), Diag> {
        let bad = |reason: &'static str, why: String| {
            Diag::malformed("DataLayout", reason, format!("`{comp}`: {why}"))
        };
        let number = |text: &str, what: &str, max: u64| -> Result<u64, Diag> {
            match text.parse::<u64>() {
                Ok(n) if n <= max => Ok(n),
                _ => Err(bad(
                    "bad-component",
                    format!("{what} `{text}` is not a number up to {max}"),
                )),
            }
        };
        // An alignment in bits: a power of two times 8 (0 only where LLVM
        // allows it); returned in bytes.
        let alignment = |text: Option<&str>, zero_ok: bool| -> Result<u32, Diag> {
            let Some(text) = text else {
                return Err(bad(
                    "missing-alignment",
                    "an ABI alignment is required".into(),
                ));
            };
            let bits = number(text, "alignment", 1 << 16)?;
            if bits == 0 && zero_ok {
                return Ok(1);
            }
            if bits == 0 || bits % 8 != 0 || !(bits / 8).is_power_of_two() {
                return Err(bad(
                    "bad-alignment",
                    format!("alignment {bits} is not a power of two times 8"),
                ));
            }
            Ok((bits / 8) as u32)
        };
        if comp == "E" {
            return Err(Diag::unsupported(
                "DataLayout",
                "big-endian",
                "dioptra models little-endian targets only",
            ));
        }
        if comp == "e" {
            return Ok(());
        }
        if let Some(rest) = comp.strip_prefix("ni:") {
            for n in rest.split(':') {
                let n = number(n, "address space", MAX_ADDRSPACE)? as u32;
                if n == 0 {
                    return Err(bad(
                        "bad-component",
                        "address space 0 cannot be non-integral".into(),
                    ));
                }
                if !self.specs.non_integral.contains(&n) {
                    Arc::make_mut(&mut self.specs).non_integral.push(n);
                }
            }
            return Ok(());
        }
        // The first character, whatever its width (a non-ASCII one is an
        // unknown component, not a panic).
        let first = comp.chars().next().map_or(0, char::len_utf8);
        let (letter, rest) = comp.split_at(first);
        let mut parts = rest.split(':');
        match letter {
            "p" => {
                let space = parts.next().unwrap_or("");
                let space = if space.is_empty() {
                    0
                } else {
                    number(space, "address space", MAX_ADDRSPACE)? as u32
                };
                let bits = match parts.next().map(str::parse::<u64>) {
                    Some(Ok(b)) if (1..=MAX_INT_WIDTH).contains(&b) => b as u32,
                    _ => {
                        return Err(bad(
                            "bad-pointer-size",
                            format!("pointer size must be 1..={MAX_INT_WIDTH} bits"),
                        ))
                    }
                };
                let abi = match parts.next() {
                    None => pow2_ceil(u64::from(bits).div_ceil(8)) as u32,
                    a => alignment(a, false)?,
                };
                for extra in parts {
                    number(extra, "preferred alignment or index size", MAX_INT_WIDTH)?;
                }
                self.set_pointer(space, PointerSpec { bits, abi });
            }
            "i" | "f" | "v" => {
                let bits = number(parts.next().unwrap_or(""), "size", MAX_INT_WIDTH)?;
                if bits == 0 {
                    return Err(bad("bad-component", "size 0".into()));
                }
                let abi = alignment(parts.next(), false)?;
                if let Some(pref) = parts.next() {
                    number(pref, "preferred alignment", 1 << 16)?;
                }
                if letter == "i" && bits == 8 && abi != 1 {
                    return Err(bad("bad-alignment", "i8 must be naturally aligned".into()));
                }
                let all = Arc::make_mut(&mut self.specs);
                let specs = match letter {
                    "i" => &mut all.ints,
                    "f" => &mut all.floats,
                    _ => &mut all.vectors,
                };
                let bits = bits as u32;
                match specs.binary_search_by_key(&bits, |(b, _)| *b) {
                    Ok(i) => specs[i].1 = abi,
                    Err(i) => specs.insert(i, (bits, abi)),
                }
            }
            "a" => {
                // `a:<abi>[:<pref>]`, or the old `a0:<abi>:<pref>`.
                if !matches!(parts.next(), Some("" | "0")) {
                    return Err(bad("bad-component", "expected `a:<abi>`".into()));
                }
                self.aggregate = alignment(parts.next(), true)?;
            }
            "m" | "n" | "S" | "A" | "P" | "G" | "F" | "s" => {}
            _ => {
                return Err(bad(
                    "unknown-component",
                    "not a data layout specification LLVM knows".into(),
                ))
            }
        }
        Ok(())
    }

    /// `bitsizeof(T)`: LLVM's `DataLayout::getTypeSizeInBits`.
    ///
    /// A struct is laid out as LLVM lays it out: each field at the next
    /// offset that is a multiple of its ABI alignment (packed structs
    /// `<{ ... }>` have none), the whole rounded up to the struct's
    /// alignment, so `{ i8, i32 }` has 64 bits and `<{ i8, i32 }>` 40. An
    /// array `[N x T]` is `N` times `T`'s allocation size (`[3 x i33]` is
    /// 192 bits); a vector `<N x T>` is `N * bitsizeof(T)`, bit-packed.
    ///
    /// This replaces D-struct-no-padding: the spec's `bitsizeof` is the
    /// size of an LLVM type, and LLVM's is this.
    ///
    /// Types are bounded at parse time; sizes saturate (and
    /// [`DataLayout::check_size`] refuses them) rather than overflow.
    #[inline]
    pub fn bitsizeof(&self, t: &Type) -> u64 {
        // An integer's, inlined where asked (the checker and the
        // interpreters ask this for nearly every op: 4 million calls in the
        // pipeline's 20 000 expression cases).
        match t {
            Type::Int(w) => *w,
            _ => self.bitsizeof_any(t),
        }
    }

    /// [`DataLayout::bitsizeof`] of any type.
    #[inline(never)]
    fn bitsizeof_any(&self, t: &Type) -> u64 {
        // The scalars without their alignment: the interpreters ask this
        // for every value they push.
        match t {
            Type::Int(w) => *w,
            Type::Ptr { addrspace, .. } => u64::from(self.pointer(*addrspace).bits),
            _ if t.is_float() => u64::from(crate::float::format_bits(t)),
            // A vector's elements are packed: `count` times the element's
            // bits (as `sized_in` says), the alignment aside.
            Type::Vector { count, elem } if elem.is_scalar() => {
                count.saturating_mul(self.bitsizeof(elem))
            }
            _ => self.sized(t).bits,
        }
    }

    /// `getTypeAllocSizeInBits`: the bits from one array element to the
    /// next.
    pub fn alloc_bits(&self, t: &Type) -> u64 {
        self.sized(t).alloc_bits()
    }

    /// Size and alignment together, so that nested structs are laid out
    /// once each (computing them apart is exponential in the nesting).
    fn sized(&self, t: &Type) -> Sized {
        if let Type::Named(name) = t {
            // The laid-out table's own look-up (by address first).
            return self
                .structs
                .sized(name)
                .unwrap_or(Sized { bits: 0, abi: 1 });
        }
        self.sized_in(t, &self.structs)
    }

    /// [`DataLayout::sized`] with the named structs of `table` (while a
    /// table is being laid out, the part of it laid out so far).
    fn sized_in(&self, t: &Type, table: &StructTable) -> Sized {
        let float = |bits: u64| Sized {
            bits,
            abi: self
                .specs
                .floats
                .iter()
                .find(|(b, _)| u64::from(*b) == bits)
                .map_or_else(|| pow2_ceil(bits / 8), |(_, a)| u64::from(*a)),
        };
        match t {
            Type::Int(w) => Sized {
                bits: *w,
                abi: self.int_abi(*w),
            },
            Type::Half | Type::BFloat => float(16),
            Type::Float => float(32),
            Type::Double => float(64),
            Type::X86Fp80 => float(80),
            Type::Fp128 | Type::PpcFp128 => float(128),
            Type::Ptr { addrspace, .. } => {
                let p = self.pointer(*addrspace);
                Sized {
                    bits: u64::from(p.bits),
                    abi: u64::from(p.abi),
                }
            }
            Type::Vector { count, elem } => {
                let bits = count.saturating_mul(self.sized_in(elem, table).bits);
                let abi = self
                    .specs
                    .vectors
                    .iter()
                    .find(|(b, _)| u64::from(*b) == bits)
                    .map_or_else(|| pow2_ceil(bits.div_ceil(8)), |(_, a)| u64::from(*a));
                Sized { bits, abi }
            }
            Type::Array { count, elem } => {
                let e = self.sized_in(elem, table);
                Sized {
                    bits: count.saturating_mul(e.alloc_bits()),
                    abi: e.abi,
                }
            }
            Type::Struct { packed, fields } => self.struct_sized(*packed, fields, table),
            // Undefined and opaque structs have no size; `check_size` says
            // which.
            Type::Named(name) => table
                .defs
                .get(name)
                .and_then(|d| d.sized)
                .unwrap_or(Sized { bits: 0, abi: 1 }),
        }
    }

    fn struct_sized(&self, packed: bool, fields: &[Type], table: &StructTable) -> Sized {
        let l = self.struct_layout_in(packed, fields, table);
        Sized {
            bits: l.bits,
            abi: if packed {
                1
            } else {
                l.align.max(u64::from(self.aggregate))
            },
        }
    }

    /// `i<N>`'s ABI alignment: the spec for the least width at least `N`,
    /// or, past the widest, the widest's (LangRef: "the smallest integer
    /// type that is larger than the bitwidth ... If none ... the largest").
    fn int_abi(&self, w: u64) -> u64 {
        let ints = &self.specs.ints;
        let spec = ints
            .iter()
            .find(|(b, _)| u64::from(*b) >= w)
            .or(ints.last());
        spec.map_or(1, |(_, a)| u64::from(*a))
    }

    /// LLVM's `StructLayout`: each field's bit offset, the size in bits
    /// (rounded up to the alignment) and the alignment of the fields.
    pub fn struct_layout(&self, packed: bool, fields: &[Type]) -> StructLayout {
        self.struct_layout_in(packed, fields, &self.structs)
    }

    fn struct_layout_in(&self, packed: bool, fields: &[Type], table: &StructTable) -> StructLayout {
        let mut offsets = Vec::with_capacity(fields.len());
        let mut bytes = 0u64;
        let mut align = 1u64;
        for f in fields {
            let s = self.sized_in(f, table);
            if !packed {
                bytes = align_to(bytes, s.abi);
                align = align.max(s.abi);
            }
            offsets.push(bytes.saturating_mul(8));
            bytes = bytes.saturating_add(s.alloc_bits() / 8);
        }
        if !packed {
            bytes = align_to(bytes, align);
        }
        StructLayout {
            offsets,
            bits: bytes.saturating_mul(8),
            align,
        }
    }

    /// The data layout string that [`DataLayout::parse`] reads back as this
    /// layout: what differs from LLVM's defaults.
    pub fn to_layout_string(&self) -> String {
        let base = DataLayout::llvm_default();
        let mut out = vec!["e".to_string()];
        if self.pointer0 != base.pointer0 {
            out.push(format!(
                "p:{}:{}",
                self.pointer0.bits,
                self.pointer0.abi * 8
            ));
        }
        for (n, p) in &self.specs.pointers {
            out.push(format!("p{n}:{}:{}", p.bits, p.abi * 8));
        }
        for (letter, specs, defaults) in [
            ("i", &self.specs.ints, &base.specs.ints),
            ("f", &self.specs.floats, &base.specs.floats),
            ("v", &self.specs.vectors, &base.specs.vectors),
        ] {
            for spec in specs.iter().filter(|s| !defaults.contains(s)) {
                out.push(format!("{letter}{}:{}", spec.0, spec.1 * 8));
            }
        }
        if self.aggregate != base.aggregate {
            out.push(format!("a:{}", self.aggregate * 8));
        }
        if !self.specs.non_integral.is_empty() {
            let spaces: Vec<String> = self.specs.non_integral.iter().map(u32::to_string).collect();
            out.push(format!("ni:{}", spaces.join(":")));
        }
        out.join("-")
    }

    /// Checks that `bitsizeof(t)` is within dioptra's bounds (it depends on
    /// the layout for pointers, so it is checked where the layout is known).
    #[inline]
    pub fn check_size(&self, t: &Type) -> Result<u64, Diag> {
        // The common case, an integer within the bounds, inlined.
        match t {
            Type::Int(w @ 1..=MAX_TYPE_BITS) => Ok(*w),
            _ => self.check_any_size(t),
        }
    }

    /// [`DataLayout::check_size`] of any type.
    #[inline(never)]
    fn check_any_size(&self, t: &Type) -> Result<u64, Diag> {
        match t {
            // A pointer without a pointee and a float name no struct: only
            // their size is left to check.
            Type::Ptr { pointee: None, .. } => {}
            _ if t.is_float() => {}
            Type::Vector { elem, .. }
                if matches!(**elem, Type::Int(_) | Type::Ptr { pointee: None, .. })
                    || elem.is_float() => {}
            _ => self.check_named(t)?,
        }
        let b = self.bitsizeof(t);
        if b == 0 {
            return Err(Diag::ill("Type", "zero-size", format!("`{t}` has no bits")));
        }
        if b > MAX_TYPE_BITS {
            return Err(Diag::unsupported(
                "Type",
                "too-large",
                format!(
                    "`{t}` has {b} bits; dioptra evaluates types of at most {MAX_TYPE_BITS} bits"
                ),
            ));
        }
        Ok(b)
    }
}

/// Identified struct types: their definitions, as an LLVM module writes them.
impl DataLayout {
    /// Adds the definitions in `text`, one per line, as LLVM writes them
    /// (`%struct.foo = type { i8, i32 }`, `%p = type <{ i8, i32 }>`,
    /// `%o = type opaque`; blank lines and `;` comments are skipped), and
    /// lays them out. Bodies may name types defined later or in another
    /// call, and themselves behind a pointer.
    ///
    /// "Identified types can be recursive" only through pointers: a struct
    /// that contains itself by value is refused (`Type: recursive-type`), as
    /// LLVM refuses it; so is a name defined twice with different bodies.
    pub fn define_types(&mut self, text: &str) -> Result<(), Diag> {
        let mut table = (*self.structs).clone();
        // Listed again once laid out.
        table.sizes.clear();
        for (i, line) in text.lines().enumerate() {
            let line = line.split(';').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |d: Diag| d.at_place(format!("type definition {}", i + 1));
            let (name, body, unsupported) = match parse_definition(line) {
                Ok((name, body)) => (name, body, None),
                Err(Unmodelled(name, d)) => (name, None, Some(d)),
                Err(Refused(d)) => return Err(at(d)),
            };
            let new = NamedStruct {
                body,
                sized: None,
                unsupported,
            };
            match table.defs.get(&name) {
                Some(old) if old.body != new.body => {
                    return Err(at(Diag::malformed(
                        "Type",
                        "redefined",
                        format!("`{name}` is defined twice, differently"),
                    )))
                }
                Some(_) => {}
                None if table.defs.len() >= MAX_NAMED_TYPES => {
                    return Err(Diag::unsupported(
                        "Type",
                        "too-many-types",
                        format!("more than {MAX_NAMED_TYPES} named types"),
                    ))
                }
                None => {
                    table.defs.insert(name, new);
                }
            }
        }
        self.structs = Arc::new(table);
        self.layout_structs()
    }

    /// The definitions, as [`DataLayout::define_types`] reads them.
    pub fn type_definitions(&self) -> Vec<String> {
        self.structs
            .defs
            .iter()
            .filter(|(_, d)| d.unsupported.is_none())
            .map(|(name, d)| match &d.body {
                None => format!("{name} = type opaque"),
                Some((packed, fields)) => format!(
                    "{name} = type {}",
                    Type::Struct {
                        packed: *packed,
                        fields: fields.clone().into()
                    }
                ),
            })
            .collect()
    }

    /// The body of the identified struct `name`: `(packed, fields)`.
    pub fn struct_body(&self, name: &str) -> Option<(bool, &[Type])> {
        let d = self.structs.defs.get(name)?;
        d.body.as_ref().map(|(p, f)| (*p, f.as_slice()))
    }

    /// Lays out every named struct again, after the layout changed.
    fn relayout(&mut self) {
        if !self.structs.defs.is_empty() {
            // The definitions were laid out once already: they are acyclic
            // and refer to defined names.
            let _ = self.layout_structs();
        }
    }

    /// Sizes every named struct, each after those it contains by value (a
    /// depth-first order, kept on an explicit stack so a long chain of
    /// definitions cannot overflow the call stack).
    fn layout_structs(&mut self) -> Result<(), Diag> {
        let mut table = (*self.structs).clone();
        for d in table.defs.values_mut() {
            d.sized = None;
        }
        let names: Vec<Arc<str>> = table.defs.keys().cloned().collect();
        let mut on_stack = std::collections::BTreeSet::new();
        for root in names {
            let mut stack = vec![(root.clone(), false)];
            while let Some((name, expanded)) = stack.pop() {
                if table.defs[&name].sized.is_some() {
                    continue;
                }
                let Some((packed, fields)) = table.defs[&name].body.clone() else {
                    continue; // opaque: no size
                };
                if expanded {
                    on_stack.remove(&name);
                    let mut inner = Vec::new();
                    fields.iter().for_each(|f| by_value_names(f, &mut inner));
                    // A struct that holds an unmodelled one is unmodelled
                    // too: it stays unsized.
                    let why = inner.iter().find_map(|n| table.defs[n].unsupported.clone());
                    let sized = why
                        .is_none()
                        .then(|| self.struct_sized(packed, &fields, &table));
                    let e = table.defs.get_mut(&name).expect("defined");
                    e.sized = sized;
                    if why.is_some() {
                        e.body = None;
                        e.unsupported = why;
                    }
                    continue;
                }
                on_stack.insert(name.clone());
                stack.push((name.clone(), true));
                let mut inner = Vec::new();
                for f in &fields {
                    by_value_names(f, &mut inner);
                }
                for n in inner {
                    match table.defs.get(&n) {
                        None => {
                            return Err(Diag::malformed(
                                "Type",
                                "unknown-type",
                                format!("`{name}` contains `{n}`, which is not defined"),
                            ))
                        }
                        Some(d) if d.unsupported.is_some() => {}
                        Some(d) if d.body.is_none() => {
                            return Err(Diag::malformed(
                                "Type",
                                "opaque-type",
                                format!("`{name}` contains the opaque `{n}` by value"),
                            ))
                        }
                        Some(d) if d.sized.is_some() => {}
                        Some(_) if on_stack.contains(&n) => {
                            return Err(Diag::malformed(
                                "Type",
                                "recursive-type",
                                format!("`{n}` contains itself by value (through `{name}`)"),
                            ))
                        }
                        Some(_) => stack.push((n, false)),
                    }
                }
            }
        }
        table.list_sizes();
        self.structs = Arc::new(table);
        Ok(())
    }

    /// A named struct `t` holds by value must be defined and not opaque.
    fn check_named(&self, t: &Type) -> Result<(), Diag> {
        // The names held by value, depth first (as `by_value_names` lists
        // them), checked where they are found.
        match t {
            Type::Named(n) => self.check_name(n),
            Type::Vector { elem, .. } | Type::Array { elem, .. } => self.check_named(elem),
            Type::Struct { fields, .. } => fields.iter().try_for_each(|f| self.check_named(f)),
            _ => Ok(()),
        }
    }

    /// A struct named by value must be defined, modelled and not opaque.
    fn check_name(&self, n: &Arc<str>) -> Result<(), Diag> {
        match self.structs.defs.get(n) {
            None => Err(Diag::malformed(
                "Type",
                "unknown-type",
                format!("`{n}` is not defined (define it with `--types FILE` or a `(types ...)` clause, or in the module)"),
            )),
            Some(NamedStruct {
                unsupported: Some(why),
                ..
            }) => Err(Diag::unsupported(
                "Type",
                "unmodelled-field",
                format!("`{n}` has a field dioptra does not model: {why}"),
            )),
            Some(d) if d.body.is_none() => Err(Diag::ill(
                "Type",
                "opaque-type",
                format!("`{n}` is opaque: it has no size"),
            )),
            Some(_) => Ok(()),
        }
    }
}

/// The named structs `t` holds by value (not behind a pointer).
fn by_value_names(t: &Type, out: &mut Vec<Arc<str>>) {
    match t {
        Type::Named(n) => out.push(n.clone()),
        Type::Vector { elem, .. } | Type::Array { elem, .. } => by_value_names(elem, out),
        Type::Struct { fields, .. } => fields.iter().for_each(|f| by_value_names(f, out)),
        _ => {}
    }
}

/// Why a definition is not read.
enum DefinitionError {
    /// Its body uses a type dioptra does not model (`x86_mmx`): the name
    /// is kept, unsized.
    Unmodelled(Arc<str>, Diag),
    /// It is not a definition.
    Refused(Diag),
}
use DefinitionError::{Refused, Unmodelled};

impl From<Diag> for DefinitionError {
    fn from(d: Diag) -> Self {
        Refused(d)
    }
}

/// `%name = type { ... }` / `type <{ ... }>` / `type opaque`.
fn parse_definition(line: &str) -> Result<(Arc<str>, Option<Body>), DefinitionError> {
    let bad = || {
        Diag::malformed(
            "Type",
            "bad-definition",
            format!("`{line}` is not `%name = type {{ ... }}` or `%name = type opaque`"),
        )
    };
    let (name, rest) = line.split_once('=').ok_or_else(bad)?;
    let name = name.trim();
    let body = rest.trim().strip_prefix("type").ok_or_else(bad)?.trim();
    if !crate::text::is_type_name(name) {
        return Err(Refused(bad()));
    }
    if body == "opaque" {
        return Ok((type_name(name), None));
    }
    // D-empty-struct in a module's definitions: `%T = type {}` (rustc's
    // zero-sized types) names a type without bits. The module reads; a
    // use of the type where a location would have it is `unsupported`,
    // as for the other types dioptra does not model, rather than the
    // whole module refused.
    let bare: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    if bare == "{}" || bare == "<{}>" {
        return Err(Unmodelled(
            type_name(name),
            Diag::unsupported(
                "Type",
                "empty-struct",
                format!("`{name}` is the empty struct `{{}}`: no bits, so no location has its type (D-empty-struct)"),
            ),
        ));
    }
    let parsed = crate::text::parse_type(body).map_err(|d| match d.outcome {
        crate::diag::Outcome::Unsupported => Unmodelled(type_name(name), d),
        _ => Refused(d),
    })?;
    match parsed {
        Type::Struct { packed, fields } => Ok((type_name(name), Some((packed, fields.to_vec())))),
        other => Err(Refused(Diag::malformed(
            "Type",
            "bad-definition",
            format!("`{name}`: a named type is a struct, not `{other}`"),
        ))),
    }
}

/// Where a struct's fields lie (LLVM's `StructLayout`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructLayout {
    /// Each field's bit offset from the start of the struct.
    pub offsets: Vec<u64>,
    /// `bitsizeof` of the struct: padding included.
    pub bits: u64,
    /// The largest ABI alignment of a field, in bytes (1 if packed).
    pub align: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_layout_is_amdgpu() {
        let dl = DataLayout::default();
        assert_eq!(dl.bitsizeof(&Type::ptr(5)), 32);
        assert_eq!(dl.bitsizeof(&Type::ptr(1)), 64);
        assert_eq!(dl.bitsizeof(&Type::ptr(0)), 64);
        assert_eq!(dl.bitsizeof(&Type::ptr(3)), 32);
    }

    #[test]
    fn layout_string_sets_pointer_sizes() {
        let dl = DataLayout::parse("e-p:32:32-p5:64:64-i64:64").unwrap();
        assert_eq!(dl.pointer_bits(0), 32);
        assert_eq!(dl.pointer_bits(5), 64);
        assert_eq!(dl.pointer_bits(3), 32);
        assert_eq!(DataLayout::parse(&dl.to_layout_string()).unwrap(), dl);
        // D-wide-pointers: any size LLVM accepts is a pointer size; memory
        // is modelled where pointers are integers of 8..=64 bits.
        let wide = DataLayout::parse("p5:128:128-ni:7").unwrap();
        assert_eq!(wide.pointer_bits(5), 128);
        assert!(wide.memory_pointer_bits(5).is_err());
        assert!(wide.memory_pointer_bits(7).is_err());
        assert_eq!(wide.memory_pointer_bits(1).unwrap(), 64);
        for bad in [
            "E", "p5:0", "p5:32:12", "i32", "i8:16", "x", "ni:0", "a:7:8", "é", "pé:1",
        ] {
            assert!(DataLayout::parse(bad).is_err(), "{bad}");
        }
    }

    /// D-default-layout: a string is read on LLVM's defaults, not on
    /// AMDGPU's, and an address space it does not name takes address space
    /// 0's size (LangRef).
    #[test]
    fn unnamed_address_spaces_take_address_space_zero_s_size() {
        let narrow = DataLayout::parse("e-p:32:32").unwrap();
        for n in [0, 1, 3, 5, 7] {
            assert_eq!(narrow.pointer_bits(n), 32, "address space {n}");
        }
        let plain = DataLayout::parse("e").unwrap();
        assert_eq!(plain.pointer_bits(5), 64);
        assert_eq!(plain, DataLayout::llvm_default());
        let one = DataLayout::parse("e-p5:16").unwrap();
        assert_eq!((one.pointer_bits(5), one.pointer_bits(3)), (16, 64));
        // AMDGPU's default is its real layout string, and reads back as
        // itself from the spelling dioptra prints.
        let amd = DataLayout::default();
        assert_eq!(amd, DataLayout::parse(AMDGPU_DATALAYOUT).unwrap());
        assert_eq!(
            (
                amd.pointer_bits(7),
                amd.pointer_bits(8),
                amd.pointer_bits(9)
            ),
            (160, 128, 192)
        );
        assert!(!amd.is_integral(8) && amd.is_integral(5));
        assert_eq!(DataLayout::parse(&amd.to_layout_string()).unwrap(), amd);
        // The x86-64 layout clang writes: every address space 64 bits
        // except the ones it names.
        let x86 = DataLayout::parse(
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
        )
        .unwrap();
        assert_eq!((x86.pointer_bits(5), x86.pointer_bits(270)), (64, 32));
    }

    #[test]
    fn sizes_of_aggregates() {
        let dl = DataLayout::default();
        let v = Type::Vector {
            count: 4,
            elem: std::sync::Arc::new(Type::Int(33)),
        };
        assert_eq!(dl.bitsizeof(&v), 132);
        let s = Type::Struct {
            packed: false,
            fields: vec![Type::Int(8), Type::Float, Type::ptr(5)].into(),
        };
        assert_eq!(dl.bitsizeof(&s), 8 + 24 + 32 + 32);
        assert_eq!(
            dl.struct_layout(false, &[Type::Int(8), Type::Float])
                .offsets,
            [0, 32]
        );
    }

    /// Allocation sizes in bytes as LLVM 14 computes them
    /// (`opt-14 -passes=instcombine` folding `ptrtoint (getelementptr (T,
    /// ptr null, i32 1))`), under a plain layout and AMDGPU's. Each is
    /// `bitsizeof(T) / 8` here: these types' sizes are whole bytes and
    /// already aligned.
    #[test]
    fn struct_and_array_layout_is_llvm_s() {
        let table = [
            ("{ i8, i32 }", 8, 8),
            ("<{ i8, i32 }>", 5, 5),
            ("[3 x i33]", 24, 24),
            ("{ i8, i128 }", 20, 24),
            ("{ i8, <3 x i8> }", 8, 8),
            ("{ i8, ptr addrspace(5) }", 4, 8),
            ("{ i1, { i8, i64 }, i16 }", 20, 32),
            ("<{ i8, i33 }>", 9, 9),
            ("[2 x { i8, i16 }]", 8, 8),
            ("{ <3 x i1>, i8 }", 2, 2),
            ("{ i8, <4 x i33> }", 64, 64),
            ("{ i8, double, half }", 24, 24),
            ("{ i8, ptr addrspace(7) }", 16, 64),
            ("{ i8, [0 x i32] }", 4, 4),
            ("{ i64 }", 8, 8),
            ("{ i8, i64 }", 12, 16),
        ];
        let plain = DataLayout::parse("e-p5:16:16").unwrap();
        let amd = DataLayout::default();
        for (text, plain_bytes, amd_bytes) in table {
            let t = crate::text::parse_type(text).unwrap();
            assert_eq!(plain.alloc_bits(&t), plain_bytes * 8, "{text} (plain)");
            assert_eq!(amd.alloc_bits(&t), amd_bytes * 8, "{text} (AMDGPU)");
        }
    }

    /// Named structs: forward references, recursion through pointers,
    /// sizes that follow the layout, and the definitions LLVM refuses.
    #[test]
    fn named_structs_are_laid_out_as_their_bodies() {
        let named = |n: &str| Type::Named(n.into());
        let mut dl = DataLayout::parse("e").unwrap();
        dl.define_types(
            "%outer = type { i8, %inner } ; a forward reference\n\
             %inner = type { i8, i64 }\n\
             %list = type { i32, %list* }\n\
             %o = type opaque",
        )
        .unwrap();
        // LLVM's defaults: i64 is 4-byte aligned, so %inner is 12 bytes and
        // %outer 16.
        assert_eq!(dl.bitsizeof(&named("%inner")), 96);
        assert_eq!(dl.bitsizeof(&named("%outer")), 128);
        assert_eq!(dl.bitsizeof(&named("%list")), 128);
        assert!(dl.check_size(&named("%o")).is_err());
        assert!(dl.check_size(&named("%nowhere")).is_err());
        // The sizes follow the layout they are in.
        dl.set_pointer_bits(0, 32);
        assert_eq!(dl.bitsizeof(&named("%list")), 64);
        // Definitions read back as themselves.
        let mut again = DataLayout::parse("e").unwrap();
        again.set_pointer_bits(0, 32);
        again
            .define_types(&dl.type_definitions().join("\n"))
            .unwrap();
        assert_eq!(again, dl);
        // A body with a field dioptra does not model keeps its name, unsized
        // (and so does a struct holding it); pointers to it are pointers.
        // Function pointers are pointers too.
        let mut real = DataLayout::default();
        real.define_types(
            "%g = type { i8, %f }\n%f = type { x86_mmx }\n%h = type { %f*, i32 (...)** }",
        )
        .unwrap();
        let unmodelled = real.check_size(&named("%g")).unwrap_err();
        assert_eq!(unmodelled.outcome, crate::diag::Outcome::Unsupported);
        assert!(real.check_size(&named("%f")).is_err());
        assert_eq!(real.bitsizeof(&named("%h")), 128);
        // rustc's zero-sized types (`%T = type {}`, regex-syntax, shlex)
        // are defined and unmodelled: the module's other types read, and
        // a use of one is unsupported, saying `empty-struct`
        // (D-empty-struct).
        let mut zst = DataLayout::default();
        zst.define_types(
            "%zst = type {}
%packed = type <{}>
%real = type { i32, ptr }",
        )
        .unwrap();
        assert_eq!(zst.bitsizeof(&named("%real")), 128);
        for t in ["%zst", "%packed"] {
            let d = zst.check_size(&named(t)).unwrap_err();
            assert_eq!(d.outcome, crate::diag::Outcome::Unsupported);
            assert!(d.to_string().contains("empty-struct"), "{d}");
        }
        // Defining the same body twice is harmless; another body is not.
        dl.define_types("%inner = type { i8, i64 }").unwrap();
        for bad in [
            "%inner = type { i8 }",
            "%self = type { i8, %self }",
            "%a = type { %b }\n%b = type [2 x %a]",
            "%x = type { %o }",
            "%y = type { %undefined }",
            "%z = type i32",
            "z = type { i8 }",
        ] {
            let mut d = dl.clone();
            assert!(d.define_types(bad).is_err(), "{bad}");
        }
    }

    /// A long chain of definitions is laid out without deep recursion, and
    /// a wide tree of them in linear time.
    #[test]
    fn many_nested_named_structs() {
        let mut text = String::from("%t0 = type { i8 }\n");
        for i in 1..5000 {
            text += &format!("%t{i} = type {{ %t{}, %t{} }}\n", i - 1, i - 1);
        }
        let mut dl = DataLayout::default();
        dl.define_types(&text).unwrap();
        assert_eq!(dl.bitsizeof(&Type::Named("%t3".into())), 64);
        assert!(dl.check_size(&Type::Named("%t4999".into())).is_err());
    }

    /// A name spelled twice is one `Arc`, up to the longest shared name; a
    /// definition is found by address for a shared name and by comparing
    /// for one of its own, with the same size either way.
    #[test]
    fn type_names_are_shared_and_found_either_way() {
        let long = format!("%{}", "n".repeat(MAX_SHARED_TYPE_NAME_BYTES));
        // Shared until the process has shared its most names (another
        // test of this process defines thousands; once full, it stays so).
        assert!(
            Arc::ptr_eq(&type_name("%pair"), &type_name("%pair"))
                || shared_names().len() >= MAX_SHARED_TYPE_NAMES
        );
        assert!(!Arc::ptr_eq(&type_name(&long), &type_name(&long)));
        let mut dl = DataLayout::default();
        dl.define_types(&format!(
            "%pair = type {{ i8, i32 }}\n{long} = type {{ %pair, i16 }}"
        ))
        .unwrap();
        for name in ["%pair", long.as_str()] {
            let shared = Type::Named(type_name(name));
            let own = Type::Named(name.into());
            assert_eq!(dl.bitsizeof(&shared), dl.bitsizeof(&own), "{name}");
            assert!(dl.check_size(&own).is_ok(), "{name}");
        }
        assert_eq!(dl.bitsizeof(&Type::Named(type_name("%pair"))), 64);
        assert_eq!(dl.bitsizeof(&Type::Named(type_name(&long))), 96);
        assert!(dl
            .check_size(&Type::Named(type_name("%undefined")))
            .is_err());
    }

    /// A vector type made again shares its element while it is among the
    /// thread's last 16, and is the same type either way.
    #[test]
    fn vector_types_share_their_elements() {
        let elem = |v: &Type| match v {
            Type::Vector { elem, .. } => Arc::clone(elem),
            _ => unreachable!("a vector"),
        };
        let a = vector_type(4, &Type::Int(8));
        assert!(Arc::ptr_eq(
            &elem(&a),
            &elem(&vector_type(4, &Type::Int(8)))
        ));
        assert_eq!(a.to_string(), "<4 x i8>");
        for n in 1..=16 {
            assert_eq!(
                vector_type(n, &Type::Float).to_string(),
                format!("<{n} x float>")
            );
        }
        // Pushed out by the 16 since: made anew, the same type.
        let again = vector_type(4, &Type::Int(8));
        assert!(!Arc::ptr_eq(&elem(&a), &elem(&again)));
        assert_eq!(a, again);
    }

    #[test]
    fn typed_and_opaque_pointers_are_the_same_type() {
        let typed = Type::Ptr {
            addrspace: 5,
            pointee: Some(std::sync::Arc::new(Type::Int(64))),
        };
        assert!(typed.same(&Type::ptr(5)));
        assert!(!typed.same(&Type::ptr(1)));
        assert_ne!(typed, Type::ptr(5));
        assert_eq!(typed.to_string(), "i64 addrspace(5)*");
        assert_eq!(Type::ptr(5).to_string(), "ptr addrspace(5)");
    }
}
