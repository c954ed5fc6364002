//! DWARF as object files hold it: ELF relocatable objects (`.o`),
//! executables and shared objects, read with the `object` crate and gimli.
//!
//! * [`load`]: the debug sections, with a relocatable object's relocations
//!   applied (the way a linker would place its sections);
//! * [`variables`]: every variable and parameter with its location
//!   expression or location list, its function and its type's size;
//! * [`frame`]: the canonical frame address at a pc, from `.debug_frame` or
//!   `.eh_frame`;
//! * [`at`]: a variable's location at a pc in a machine state.
//!
//! Why the relocations by hand: gimli reads sections as bytes and leaves
//! relocations to its caller, and `object` lists them without applying them.
//! A relocatable object's debug sections are full of them (string offsets,
//! addresses, location list offsets), so without this nothing but the
//! structure of a `.o` could be read.

pub mod at;
pub mod frame;
pub mod variables;

use dioptra_semantics::diag::Diag;
use gimli::{EndianSlice, LittleEndian, SectionId};
use object::{Object as _, ObjectSection as _, ObjectSymbol as _, RelocationTarget};
use std::collections::HashMap;
use std::path::Path;

/// The largest object file read (bytes).
pub const MAX_OBJECT_BYTES: u64 = 1 << 28;

/// The reader gimli reads through.
pub type Reader<'a> = EndianSlice<'a, LittleEndian>;

/// An object file's DWARF: its debug sections (relocated), its call frame
/// information, and where its sections are.
pub struct Object {
    /// Section contents by name, relocated.
    sections: HashMap<String, Vec<u8>>,
    /// The address of each allocated section: the file's own for linked
    /// files, a layout of the sections one after another for relocatable
    /// objects (so that functions in different sections get different pcs).
    addresses: HashMap<String, u64>,
    /// Is this a relocatable object (addresses laid out by dioptra)?
    pub relocatable: bool,
    /// `x86-64`, `i386`, ...: the machine the file is for.
    pub machine: String,
    /// Relocations of the debug sections left as the compiler wrote them
    /// (kinds other than absolute and pc-relative, e.g. thread-local
    /// offsets).
    pub unapplied: usize,
    /// The file it was read from ([`read`]; `None` from [`load`]): where a
    /// split-DWARF skeleton's `.dwo` is looked for.
    pub path: Option<std::path::PathBuf>,
}

fn bad(reason: &'static str, msg: impl Into<dioptra_semantics::diag::Message>) -> Diag {
    Diag::malformed("Object", reason, msg)
}

/// Reads and loads the object file at `path` (at most
/// [`MAX_OBJECT_BYTES`]).
pub fn read(path: &Path) -> Result<Object, Diag> {
    use std::io::Read;
    let f = std::fs::File::open(path)
        .map_err(|e| bad("unreadable", format!("{}: {e}", path.display())))?;
    let too_large = || {
        bad(
            "too-large",
            format!("{} is larger than {MAX_OBJECT_BYTES} bytes", path.display()),
        )
    };
    if f.metadata()
        .is_ok_and(|m| m.is_file() && m.len() > MAX_OBJECT_BYTES)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    f.take(MAX_OBJECT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad("unreadable", format!("{}: {e}", path.display())))?;
    if bytes.len() as u64 > MAX_OBJECT_BYTES {
        return Err(too_large());
    }
    let mut obj = load(&bytes)?;
    obj.path = Some(path.to_path_buf());
    Ok(obj)
}

/// Loads an object file from its bytes.
pub fn load(bytes: &[u8]) -> Result<Object, Diag> {
    let file = object::File::parse(bytes).map_err(|e| bad("not-an-object", e.to_string()))?;
    if file.format() != object::BinaryFormat::Elf {
        return Err(Diag::unsupported(
            "Object",
            "format",
            format!("{:?} files are not read (ELF only)", file.format()),
        ));
    }
    if !file.is_little_endian() {
        return Err(Diag::unsupported(
            "Object",
            "big-endian",
            "dioptra models little-endian targets only",
        ));
    }
    let relocatable = file.kind() == object::ObjectKind::Relocatable;
    let machine = format!("{:?}", file.architecture()).to_lowercase();
    // Where each section is: a relocatable object's allocated sections are
    // laid out one after another at their alignment, as a linker would;
    // debug sections stay at 0 (references into them are offsets).
    let mut by_index = HashMap::new();
    let mut addresses = HashMap::new();
    let mut next = 0u64;
    for s in file.sections() {
        let name = s.name().unwrap_or("").to_string();
        // SHF_ALLOC: the section occupies memory when the program runs.
        let allocated = matches!(
            s.flags(),
            object::SectionFlags::Elf { sh_flags } if sh_flags & u64::from(object::elf::SHF_ALLOC) != 0
        );
        let address = if !relocatable {
            s.address()
        } else if allocated {
            let align = s.align().max(1);
            next = next.div_ceil(align).saturating_mul(align);
            let a = next;
            next = next.saturating_add(s.size());
            a
        } else {
            0
        };
        by_index.insert(s.index(), address);
        if allocated || !relocatable {
            addresses.insert(name, address);
        }
    }
    let mut sections: HashMap<String, Vec<u8>> = HashMap::new();
    let mut unapplied = 0usize;
    let riscv = matches!(
        file.architecture(),
        object::Architecture::Riscv32 | object::Architecture::Riscv64
    );
    // Debug sections of one name are laid end to end, as a linker does:
    // a relocatable object has one `.debug_info` per COMDAT group when
    // type units are in their own (`-fdebug-types-section`). Each starts
    // where the ones before it end, so that a relocation against it (its
    // section symbol) points into the whole. Before, the last one read
    // replaced the others and the type units were lost.
    // The sections outside COMDAT groups come first, so the compile
    // unit's offsets are those of its own section (what llvm-dwarfdump
    // prints), the groups' type units after it.
    let mut contents = Vec::new();
    let mut budget = MAX_OBJECT_BYTES;
    for s in file.sections() {
        let name = s.name().unwrap_or("").to_string();
        if !(name.starts_with(".debug_") || name == ".eh_frame") {
            continue;
        }
        // A compressed section says how large it becomes, and that is
        // what decompressing it allocates: a 418-byte `.debug_info` that
        // said 2^40 took 24 GB before the kernel killed dioptra. The
        // sections' sizes, decompressed, are held to MAX_OBJECT_BYTES in
        // all before any is decompressed (D-size-bounds).
        let compressed = s
            .compressed_data()
            .map_err(|e| bad("bad-section", format!("{name}: {e}")))?;
        if compressed.uncompressed_size > budget {
            return Err(bad(
                "too-large",
                format!(
                    "{name}: {} bytes once decompressed, past the {MAX_OBJECT_BYTES} bytes an object's debug sections may hold in all",
                    compressed.uncompressed_size
                ),
            ));
        }
        budget -= compressed.uncompressed_size;
        let data = compressed
            .decompress()
            .map_err(|e| bad("bad-section", format!("{name}: {e}")))?
            .into_owned();
        let grouped = matches!(
            s.flags(),
            object::SectionFlags::Elf { sh_flags } if sh_flags & u64::from(object::elf::SHF_GROUP) != 0
        );
        contents.push((grouped, s, name, data));
    }
    contents.sort_by_key(|c| c.0);
    let mut ends: HashMap<String, u64> = HashMap::new();
    for (_, s, name, data) in &contents {
        if relocatable && name.starts_with(".debug_") {
            let end = ends.entry(name.clone()).or_insert(0);
            by_index.insert(s.index(), *end);
            *end = end.saturating_add(data.len() as u64);
        }
    }
    for (_, s, name, mut data) in contents {
        if relocatable {
            let place = by_index.get(&s.index()).copied().unwrap_or(0);
            for (offset, r) in s.relocations() {
                let symbol_value = match r.target() {
                    RelocationTarget::Symbol(i) => {
                        let sym = file
                            .symbol_by_index(i)
                            .map_err(|e| bad("bad-relocation", format!("{name}: {e}")))?;
                        let base = sym
                            .section_index()
                            .and_then(|si| by_index.get(&si).copied())
                            .unwrap_or(0);
                        base.wrapping_add(sym.address())
                    }
                    RelocationTarget::Section(si) => by_index.get(&si).copied().unwrap_or(0),
                    _ => 0,
                };
                let applied = match (riscv, r.flags()) {
                    (true, object::RelocationFlags::Elf { r_type }) => {
                        let v = symbol_value.wrapping_add(r.addend() as u64);
                        apply_riscv(&mut data, &name, offset, r_type, v)?
                    }
                    _ => None,
                };
                let applied = match applied {
                    Some(a) => a,
                    None => apply(&mut data, &name, offset, &r, symbol_value, place)?,
                };
                if !applied {
                    unapplied += 1;
                }
            }
        }
        match sections.entry(name) {
            std::collections::hash_map::Entry::Occupied(mut e) => e.get_mut().extend(data),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(data);
            }
        }
    }
    // A `.dwo` (split DWARF) has its units in `.debug_info.dwo`.
    if !sections.contains_key(".debug_info") && !sections.contains_key(".debug_info.dwo") {
        return Err(bad("no-debug-info", "the file has no .debug_info section"));
    }
    Ok(Object {
        sections,
        addresses,
        relocatable,
        machine,
        unapplied,
        path: None,
    })
}

/// Applies one relocation at `offset` of section `name`: `S + A` for an
/// absolute one, `S + A - P` for a pc-relative one (`P` the place's
/// address), at 32 or 64 bits. Any other kind (thread-local offsets, GOT
/// entries) is left as the compiler wrote it and reported as not applied
/// (`Ok(false)`): only the variables that use it depend on it, and those
/// need what dioptra does not evaluate anyway (`DW_OP_form_tls_address`).
fn apply(
    data: &mut [u8],
    name: &str,
    offset: u64,
    r: &object::Relocation,
    symbol: u64,
    section_address: u64,
) -> Result<bool, Diag> {
    let size = r.size() as usize / 8;
    let known = matches!(
        r.kind(),
        object::RelocationKind::Absolute | object::RelocationKind::Relative
    );
    if !known || !(size == 4 || size == 8) {
        return Ok(false);
    }
    let at = offset as usize;
    let Some(end) = at.checked_add(size).filter(|&e| e <= data.len()) else {
        return Err(bad(
            "bad-relocation",
            format!(
                "{name}+{offset:#x}: a {}-bit relocation past the end of the section",
                r.size()
            ),
        ));
    };
    let mut cur = [0u8; 8];
    cur[..size].copy_from_slice(&data[at..end]);
    let implicit = if r.has_implicit_addend() {
        let v = u64::from_le_bytes(cur);
        if size == 4 {
            v as u32 as i32 as i64
        } else {
            v as i64
        }
    } else {
        0
    };
    let a = r.addend().wrapping_add(implicit) as u64;
    let v = if r.kind() == object::RelocationKind::Absolute {
        symbol.wrapping_add(a)
    } else {
        symbol
            .wrapping_add(a)
            .wrapping_sub(section_address.wrapping_add(offset))
    };
    data[at..end].copy_from_slice(&v.to_le_bytes()[..size]);
    Ok(true)
}

/// RISC-V's label differences: with linker relaxation the assembler
/// cannot compute `end - start` (a function's `DW_AT_high_pc` length, a
/// list entry's length), so it writes 0 and a pair of relocations:
/// `R_RISCV_ADDn` adds `S + A` (`v`) to the n-bit word, `R_RISCV_SUBn`
/// subtracts it, `R_RISCV_SETn` sets it, and the ULEB128 pair does the
/// same to a ULEB128 written at its final length (RISC-V ELF psABI,
/// "Relocations"). `None` for any other type (the generic rules apply).
/// Left unapplied, every function of a clang object spanned no pc.
fn apply_riscv(
    data: &mut [u8],
    name: &str,
    offset: u64,
    r_type: u32,
    v: u64,
) -> Result<Option<bool>, Diag> {
    use object::elf::*;
    enum Op {
        Add,
        Sub,
        Set,
    }
    let (op, bits) = match r_type {
        R_RISCV_ADD8 => (Op::Add, 8),
        R_RISCV_ADD16 => (Op::Add, 16),
        R_RISCV_ADD32 => (Op::Add, 32),
        R_RISCV_ADD64 => (Op::Add, 64),
        R_RISCV_SUB6 => (Op::Sub, 6),
        R_RISCV_SUB8 => (Op::Sub, 8),
        R_RISCV_SUB16 => (Op::Sub, 16),
        R_RISCV_SUB32 => (Op::Sub, 32),
        R_RISCV_SUB64 => (Op::Sub, 64),
        R_RISCV_SET6 => (Op::Set, 6),
        R_RISCV_SET8 => (Op::Set, 8),
        R_RISCV_SET16 => (Op::Set, 16),
        R_RISCV_SET32 => (Op::Set, 32),
        R_RISCV_SET_ULEB128 => (Op::Set, 0),
        R_RISCV_SUB_ULEB128 => (Op::Sub, 0),
        _ => return Ok(None),
    };
    let at = offset as usize;
    let past = || {
        bad(
            "bad-relocation",
            format!("{name}+{offset:#x}: a RISC-V relocation (type {r_type}) past the end of the section"),
        )
    };
    let combine = |cur: u64| match op {
        Op::Add => cur.wrapping_add(v),
        Op::Sub => cur.wrapping_sub(v),
        Op::Set => v,
    };
    if bits == 0 {
        // A ULEB128 of as many bytes as it has: its bits are replaced,
        // its length kept (the value is cut to what the bytes hold).
        let len = data
            .get(at..)
            .and_then(|rest| rest.iter().take(10).position(|b| b & 0x80 == 0))
            .map(|k| k + 1)
            .ok_or_else(past)?;
        let mut cur = 0u64;
        for (k, b) in data[at..at + len].iter().enumerate() {
            cur |= u64::from(b & 0x7f) << (7 * k).min(63);
        }
        let mut new = combine(cur);
        for k in 0..len {
            let more = if k + 1 < len { 0x80 } else { 0 };
            data[at + k] = (new & 0x7f) as u8 | more;
            new >>= 7;
        }
        return Ok(Some(true));
    }
    let size = (bits as usize).div_ceil(8);
    let end = at
        .checked_add(size)
        .filter(|&e| e <= data.len())
        .ok_or_else(past)?;
    let mut cur = [0u8; 8];
    cur[..size].copy_from_slice(&data[at..end]);
    let old = u64::from_le_bytes(cur);
    let new = if bits == 6 {
        // The low 6 bits of a byte; the others are kept.
        (old & !0x3f) | (combine(old & 0x3f) & 0x3f)
    } else {
        combine(old)
    };
    data[at..end].copy_from_slice(&new.to_le_bytes()[..size]);
    Ok(Some(true))
}

impl Object {
    /// A section's (relocated) contents; empty if the file has none.
    pub fn section(&self, name: &str) -> &[u8] {
        self.sections.get(name).map_or(&[], Vec::as_slice)
    }

    /// The address of an allocated section (`.eh_frame`, `.text`), if any.
    pub fn address_of(&self, name: &str) -> Option<u64> {
        self.addresses.get(name).copied()
    }

    /// The DWARF sections, for gimli.
    pub fn dwarf(&self) -> gimli::Dwarf<Reader<'_>> {
        gimli::Dwarf::load(|id: SectionId| -> Result<Reader<'_>, ()> {
            Ok(EndianSlice::new(self.section(id.name()), LittleEndian))
        })
        .expect("loading from memory does not fail")
    }

    /// The DWARF of a split-DWARF `.dwo` file (its `.debug_*.dwo`
    /// sections), with what the skeleton's file supplies (its address
    /// table, relocated there) taken from `parent`.
    pub fn dwo_dwarf<'a>(&'a self, parent: &gimli::Dwarf<Reader<'a>>) -> gimli::Dwarf<Reader<'a>> {
        let mut d = gimli::Dwarf::load(|id: SectionId| -> Result<Reader<'_>, ()> {
            Ok(EndianSlice::new(
                id.dwo_name().map_or(&[][..], |n| self.section(n)),
                LittleEndian,
            ))
        })
        .expect("loading from memory does not fail");
        d.make_dwo(parent);
        d
    }

    /// The sections of the split unit `id` in this split-DWARF package
    /// (`.dwp`: the `.dwo` files of a program in one, indexed by
    /// `.debug_cu_index`), with `parent`'s address table, and where its
    /// contribution to the package's `.debug_info.dwo` starts (its DIE
    /// offsets are relative to that); `None` when the package has no such
    /// unit.
    pub fn dwp_dwarf<'a>(
        &'a self,
        id: gimli::DwoId,
        parent: &gimli::Dwarf<Reader<'a>>,
    ) -> Result<Option<(gimli::Dwarf<Reader<'a>>, u64)>, Diag> {
        let package = gimli::DwarfPackage::load(
            |id: SectionId| -> Result<Reader<'_>, gimli::Error> {
                Ok(EndianSlice::new(
                    id.dwo_name().map_or(&[][..], |n| self.section(n)),
                    LittleEndian,
                ))
            },
            EndianSlice::new(&[][..], LittleEndian),
        )
        .map_err(|e| gimli_error(".debug_cu_index", e))?;
        let index = |e| gimli_error(".debug_cu_index", e);
        let Some(row) = package.cu_index.find(id.0) else {
            return Ok(None);
        };
        let base = package
            .cu_index
            .sections(row)
            .map_err(index)?
            .find(|c| c.section == gimli::IndexSectionId::DebugInfo)
            .map_or(0, |c| u64::from(c.offset));
        let dwarf = package.cu_sections(row, parent).map_err(index)?;
        Ok(Some((dwarf, base)))
    }
}

/// A gimli error as a diagnostic.
pub fn gimli_error(what: &str, e: gimli::Error) -> Diag {
    bad("bad-dwarf", format!("{what}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::apply_riscv;
    use object::elf::*;

    /// `end - start` as RISC-V writes it: ADD of `end`, SUB of `start`, on
    /// words of each width, a 6-bit field and a ULEB128 of fixed length.
    #[test]
    fn riscv_pairs_write_the_difference() {
        let mut d = vec![0u8; 8];
        assert_eq!(
            apply_riscv(&mut d, "s", 0, R_RISCV_ADD32, 0x1a),
            Ok(Some(true))
        );
        assert_eq!(
            apply_riscv(&mut d, "s", 0, R_RISCV_SUB32, 0x4),
            Ok(Some(true))
        );
        assert_eq!(&d[..4], &[0x16, 0, 0, 0]);
        assert_eq!(
            apply_riscv(&mut d, "s", 4, R_RISCV_SET16, 0x1234),
            Ok(Some(true))
        );
        assert_eq!(
            apply_riscv(&mut d, "s", 4, R_RISCV_SUB16, 0x34),
            Ok(Some(true))
        );
        assert_eq!(&d[4..6], &[0x00, 0x12]);
        // SUB6 changes the low 6 bits and keeps the two above (an opcode).
        let mut b = vec![0b1100_0101u8];
        assert_eq!(apply_riscv(&mut b, "s", 0, R_RISCV_SUB6, 7), Ok(Some(true)));
        assert_eq!(b[0], 0b1111_1110);
        // A two-byte ULEB128 keeps its length: 300 - 100 = 200 = 0xc8 0x01.
        let mut u = vec![0x80u8, 0x00, 0xff];
        assert_eq!(
            apply_riscv(&mut u, "s", 0, R_RISCV_SET_ULEB128, 300),
            Ok(Some(true))
        );
        assert_eq!(
            apply_riscv(&mut u, "s", 0, R_RISCV_SUB_ULEB128, 100),
            Ok(Some(true))
        );
        assert_eq!(u, vec![0xc8, 0x01, 0xff]);
        // Other types are the generic rules', and a word past the end is a
        // diagnostic.
        assert_eq!(apply_riscv(&mut d, "s", 0, R_RISCV_64, 1), Ok(None));
        let e = apply_riscv(&mut d, "s", 6, R_RISCV_ADD32, 1).unwrap_err();
        assert!(e.matches("Object: bad-relocation"), "{e}");
        let e = apply_riscv(&mut [0x80u8; 3], "s", 0, R_RISCV_SET_ULEB128, 1).unwrap_err();
        assert!(e.matches("Object: bad-relocation"), "{e}");
    }
}
