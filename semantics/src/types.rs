//! LLVM types as the expression language uses them, and the data layout that
//! gives pointers their size.
//!
//! The spec uses types for two things only: `bitsizeof(T)` and the kind of
//! `T` (integral, floating point, pointer, vector). Both are defined here.

use crate::diag::Diag;
use crate::limits::*;
use smallvec::SmallVec;
use std::fmt;

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
    /// `ptr addrspace(N)` (opaque, `pointee: None`) or the typed spelling
    /// `T addrspace(N)*` (`pointee: Some(T)`).
    Ptr {
        addrspace: u32,
        pointee: Option<Box<Type>>,
    },
    /// `<N x T>`.
    Vector { count: u64, elem: Box<Type> },
    /// `{ T, ... }` or, packed, `<{ T, ... }>`.
    Struct { packed: bool, fields: Vec<Type> },
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
        matches!(self, Type::Half | Type::BFloat | Type::Float | Type::Double)
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
                Type::Struct {
                    packed: p1,
                    fields: f1,
                },
                Type::Struct {
                    packed: p2,
                    fields: f2,
                },
            ) => p1 == p2 && f1.len() == f2.len() && f1.iter().zip(f2).all(|(a, b)| a.same(b)),
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

/// The pointer bit size of each address space.
///
/// DECISION (D-default-layout): with no data layout string the layout is
/// AMDGPU's (`amdgcn`): address spaces 2, 3, 5 and 6 (region, local,
/// private, 32-bit constant) have 32-bit pointers, every other address space
/// 64-bit pointers. AMDGPU's buffer pointers (7, 8, 9: 160, 128, 192 bits)
/// are not flat memory and are not modelled. A data layout string
/// (`--datalayout "e-p:32:32"`, `(layout "...")` in a context, a module's
/// `target datalayout`) is read as LLVM reads it: on LLVM's own defaults
/// (64-bit pointers), and an address space the string does not name has
/// the size of address space 0 (LangRef: `p[n]`, "n defaults to 0";
/// `DataLayout` falls back to the address-space-0 entry). So `"e-p:32:32"`
/// makes every pointer 32 bits and `"e"` every pointer 64. Only the
/// `p[n]:size` components and the endianness are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataLayout {
    /// `(address space, bits)`, sorted by address space. A small inline
    /// vector, not a map: every `bitsizeof` of a pointer looks here, and a
    /// layout is cloned into every signature, so neither may allocate.
    pointer_bits: SmallVec<[(u32, u32); 10]>,
    default_pointer_bits: u32,
}

impl Default for DataLayout {
    fn default() -> Self {
        let pointer_bits = [(2, 32), (3, 32), (5, 32), (6, 32)].into_iter().collect();
        DataLayout {
            pointer_bits,
            default_pointer_bits: 64,
        }
    }
}

impl DataLayout {
    /// LLVM's layout before a data layout string is read: every pointer 64
    /// bits.
    pub fn llvm_default() -> DataLayout {
        DataLayout {
            pointer_bits: SmallVec::new(),
            default_pointer_bits: 64,
        }
    }

    /// Pointer size in bits for address space `n`.
    pub fn pointer_bits(&self, n: u32) -> u32 {
        self.pointer_bits
            .iter()
            .find(|(space, _)| *space == n)
            .map_or(self.default_pointer_bits, |(_, bits)| *bits)
    }
    pub fn set_pointer_bits(&mut self, n: u32, bits: u32) {
        match self
            .pointer_bits
            .binary_search_by_key(&n, |(space, _)| *space)
        {
            Ok(i) => self.pointer_bits[i].1 = bits,
            Err(i) => self.pointer_bits.insert(i, (n, bits)),
        }
    }

    /// Reads the `p[n]:size` components of an LLVM data layout string, on
    /// LLVM's defaults (D-default-layout).
    ///
    /// DECISION (D-little-endian): only little-endian (`e`) targets are modelled; `E` is
    /// rejected. Pointer sizes must be 8..=64 bits so that every memory bit
    /// offset (`address * 8`) is exact.
    pub fn parse(s: &str) -> Result<DataLayout, Diag> {
        let mut dl = DataLayout::llvm_default();
        for comp in s.split('-').map(str::trim).filter(|c| !c.is_empty()) {
            if comp == "E" {
                return Err(Diag::unsupported(
                    "DataLayout",
                    "big-endian",
                    "dioptra models little-endian targets only",
                ));
            }
            let Some(rest) = comp.strip_prefix('p') else {
                continue;
            };
            // `p[n]:size:abi...`; skip other p-like components (there are none
            // in LLVM's grammar, but be strict about what we read).
            let mut parts = rest.split(':');
            let space = parts.next().unwrap_or("");
            let space: u32 = if space.is_empty() {
                0
            } else {
                match space.parse::<u64>() {
                    Ok(n) if n <= MAX_ADDRSPACE => n as u32,
                    _ => {
                        return Err(Diag::malformed(
                            "DataLayout",
                            "bad-component",
                            format!("`{comp}`: address space is not a number below 2^24"),
                        ))
                    }
                }
            };
            let size = parts.next().and_then(|p| p.parse::<u32>().ok());
            match size {
                // Address space 0's size is also every unnamed space's.
                Some(b) if (8..=64).contains(&b) && space == 0 => dl.default_pointer_bits = b,
                Some(b) if (8..=64).contains(&b) => dl.set_pointer_bits(space, b),
                _ => {
                    return Err(Diag::malformed(
                        "DataLayout",
                        "bad-pointer-size",
                        format!("`{comp}`: pointer size must be 8..=64 bits"),
                    ))
                }
            }
        }
        // One spelling per layout: an entry equal to the fallback is none.
        let fallback = dl.default_pointer_bits;
        dl.pointer_bits.retain(|(_, bits)| *bits != fallback);
        Ok(dl)
    }

    /// `bitsizeof(T)`.
    ///
    /// DECISION (D-struct-no-padding): literal struct types are laid out without padding, packed or
    /// not: dioptra has no ABI alignment table, and the spec uses struct types
    /// only for the bit sizes of composites, which are concatenated "with no
    /// padding between the parts". Vectors are `N * bitsizeof(T)`.
    ///
    /// Types are bounded at parse time, so this cannot overflow.
    pub fn bitsizeof(&self, t: &Type) -> u64 {
        match t {
            Type::Int(w) => *w,
            Type::Half | Type::BFloat => 16,
            Type::Float => 32,
            Type::Double => 64,
            Type::Ptr { addrspace, .. } => self.pointer_bits(*addrspace) as u64,
            Type::Vector { count, elem } => count.saturating_mul(self.bitsizeof(elem)),
            Type::Struct { fields, .. } => fields
                .iter()
                .fold(0u64, |a, f| a.saturating_add(self.bitsizeof(f))),
        }
    }

    /// The data layout string that [`DataLayout::parse`] reads back as this
    /// layout: address space 0's size where it is not LLVM's 64, then every
    /// address space whose size differs from it (AMDGPU's default is
    /// `e-p2:32-p3:32-p5:32-p6:32`).
    pub fn to_layout_string(&self) -> String {
        let mut out = vec!["e".to_string()];
        let base = self.pointer_bits(0);
        if base != 64 {
            out.push(format!("p:{base}"));
        }
        for &(n, bits) in &self.pointer_bits {
            if n != 0 && bits != base {
                out.push(format!("p{n}:{bits}"));
            }
        }
        out.join("-")
    }

    /// Checks that `bitsizeof(t)` is within dioptra's bounds (it depends on
    /// the layout for pointers, so it is checked where the layout is known).
    pub fn check_size(&self, t: &Type) -> Result<u64, Diag> {
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
        assert!(DataLayout::parse("p5:128").is_err());
        assert!(DataLayout::parse("E").is_err());
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
        // AMDGPU's default spelled out, and read back as itself.
        let amd = DataLayout::default();
        assert_eq!(amd.to_layout_string(), "e-p2:32-p3:32-p5:32-p6:32");
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
            elem: Box::new(Type::Int(33)),
        };
        assert_eq!(dl.bitsizeof(&v), 132);
        let s = Type::Struct {
            packed: false,
            fields: vec![Type::Int(8), Type::Float, Type::ptr(5)],
        };
        assert_eq!(dl.bitsizeof(&s), 8 + 32 + 32);
    }

    #[test]
    fn typed_and_opaque_pointers_are_the_same_type() {
        let typed = Type::Ptr {
            addrspace: 5,
            pointee: Some(Box::new(Type::Int(64))),
        };
        assert!(typed.same(&Type::ptr(5)));
        assert!(!typed.same(&Type::ptr(1)));
        assert_ne!(typed, Type::ptr(5));
        assert_eq!(typed.to_string(), "i64 addrspace(5)*");
        assert_eq!(Type::ptr(5).to_string(), "ptr addrspace(5)");
    }
}
