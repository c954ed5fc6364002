//! What a DWARF expression may refer to outside itself: the base type DIEs
//! of the typed operations (`DW_OP_const_type`, `DW_OP_convert`,
//! `DW_OP_deref_type`, `DW_OP_regval_type`, `DW_OP_reinterpret`), and the
//! DIEs whose location expressions `DW_OP_call2`/`DW_OP_call4` run
//! (`DW_TAG_dwarf_procedure`) or `DW_OP_implicit_pointer` points at.
//!
//! A lowering writes these beside its expression, and a listing prints them
//! after it, one per line:
//!
//! ```text
//! DW_OP_const_type 0x1 0x4 0x00 0x00 0x80 0x3f, DW_OP_stack_value
//! 0x1: DW_TAG_base_type DW_ATE_float 4 "float"
//! 0x2: DW_TAG_dwarf_procedure DW_OP_regx 0x3
//! ```
//!
//! DIE offsets are small numbers local to the listing: a producer places the
//! DIEs in its compilation unit and rewrites the operands.

use super::op::{DwarfOp, Encoding};
use super::text;
use crate::diag::Diag;
use gimli::constants as c;
use std::collections::BTreeMap;

/// A `DW_TAG_base_type` DIE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseType {
    pub encoding: c::DwAte,
    pub byte_size: u64,
    pub name: String,
}

/// The kind of DIE an expression can call or point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DieKind {
    /// `DW_TAG_dwarf_procedure`: an expression `DW_OP_call*` runs on the
    /// caller's stack.
    Procedure,
    /// `DW_TAG_variable` (artificial): the object an implicit pointer points
    /// at, with its location.
    Variable,
}

/// One entry of a location list (DWARF 5 Section 2.6.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListEntry {
    /// Applies where `lo <= pc < hi`; entries may overlap (the object is in
    /// several places at once).
    Bounded { lo: u64, hi: u64, ops: Vec<DwarfOp> },
    /// `DW_LLE_default_location`: applies where no bounded entry does.
    Default(Vec<DwarfOp>),
}

impl ListEntry {
    /// The entry's location expression.
    pub fn ops(&self) -> &[DwarfOp] {
        match self {
            ListEntry::Bounded { ops, .. } | ListEntry::Default(ops) => ops,
        }
    }
}

/// What a location list belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListTag {
    /// `DW_TAG_variable`, `DW_AT_location`.
    Variable,
    /// `DW_TAG_dwarf_procedure`, `DW_AT_location`: a `DIFragment` that
    /// expressions call with `DW_OP_call4`.
    Procedure,
    /// `DW_TAG_subprogram`, `DW_AT_LLVM_lane_pc`.
    SubprogramLanePc,
}

/// A DIE whose attribute is a location list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListDie {
    pub tag: ListTag,
    /// The source name, or the metadata id of a fragment.
    pub name: String,
    pub entries: Vec<ListEntry>,
}

/// Base types and located DIEs by DIE offset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unit {
    pub base_types: BTreeMap<u64, BaseType>,
    pub dies: BTreeMap<u64, (DieKind, Vec<DwarfOp>)>,
    /// DIEs located by a location list (a module's variables, fragments
    /// and lane PCs).
    pub lists: BTreeMap<u64, ListDie>,
}

/// The largest base type dioptra reads (bytes).
pub const MAX_BASE_TYPE_BYTES: u64 = 1 << 16;

impl Unit {
    /// Removes every DIE at `start` or above (what a failed lowering added).
    pub fn forget_from(&mut self, start: u64) {
        self.base_types.retain(|&k, _| k < start);
        self.dies.retain(|&k, _| k < start);
        self.lists.retain(|&k, _| k < start);
    }

    /// The offset the next DIE gets.
    pub fn next_offset(&self) -> u64 {
        let a = self.base_types.keys().next_back().copied().unwrap_or(0);
        let b = self.dies.keys().next_back().copied().unwrap_or(0);
        let l = self.lists.keys().next_back().copied().unwrap_or(0);
        a.max(b).max(l) + 1
    }

    /// The offset of a base type with this encoding and size, added if new.
    pub fn base_type(&mut self, encoding: c::DwAte, byte_size: u64, name: &str) -> u64 {
        if let Some((&k, _)) = self
            .base_types
            .iter()
            .find(|(_, b)| b.encoding == encoding && b.byte_size == byte_size && b.name == name)
        {
            return k;
        }
        let k = self.next_offset();
        self.base_types.insert(
            k,
            BaseType {
                encoding,
                byte_size,
                name: name.to_string(),
            },
        );
        k
    }

    /// Adds a DIE with a location expression; returns its offset.
    pub fn add_die(&mut self, kind: DieKind, ops: Vec<DwarfOp>) -> u64 {
        if let Some((&k, _)) = self.dies.iter().find(|(_, d)| d.0 == kind && d.1 == ops) {
            return k;
        }
        let k = self.next_offset();
        self.dies.insert(k, (kind, ops));
        k
    }

    /// Adds a DIE located by a list (entries filled in later); returns its
    /// offset.
    pub fn add_list(&mut self, tag: ListTag, name: &str) -> u64 {
        let k = self.next_offset();
        self.lists.insert(
            k,
            ListDie {
                tag,
                name: name.to_string(),
                entries: Vec::new(),
            },
        );
        k
    }

    pub fn is_empty(&self) -> bool {
        self.base_types.is_empty() && self.dies.is_empty() && self.lists.is_empty()
    }

    /// The lines a listing prints after its expression.
    pub fn lines(&self, enc: Encoding) -> Vec<String> {
        let mut out: Vec<(u64, String)> = Vec::new();
        for (k, b) in &self.base_types {
            out.push((
                *k,
                format!(
                    "0x{k:x}: DW_TAG_base_type {} {} {:?}",
                    b.encoding.static_string().unwrap_or("DW_ATE_?"),
                    b.byte_size,
                    b.name
                ),
            ));
        }
        for (k, (kind, ops)) in &self.dies {
            let tag = match kind {
                DieKind::Procedure => "DW_TAG_dwarf_procedure",
                DieKind::Variable => "DW_TAG_variable",
            };
            out.push((*k, format!("0x{k:x}: {tag} {}", text::print(ops, enc))));
        }
        for (k, d) in &self.lists {
            let (tag, attr) = match d.tag {
                ListTag::Variable => ("DW_TAG_variable", "DW_AT_location"),
                ListTag::Procedure => ("DW_TAG_dwarf_procedure", "DW_AT_location"),
                ListTag::SubprogramLanePc => ("DW_TAG_subprogram", "DW_AT_LLVM_lane_pc"),
            };
            let mut s = format!("0x{k:x}: {tag} {:?} {attr}", d.name);
            for e in &d.entries {
                s += &match e {
                    ListEntry::Bounded { lo, hi, ops } => {
                        format!("\n  [0x{lo:x}, 0x{hi:x}): {}", text::print(ops, enc))
                    }
                    ListEntry::Default(ops) => format!("\n  <default>: {}", text::print(ops, enc)),
                };
            }
            out.push((*k, s));
        }
        out.sort();
        out.into_iter().map(|(_, s)| s).collect()
    }

    /// Reads one location list entry line (`[0xLO, 0xHI): OPS` or
    /// `<default>: OPS`) of the last list DIE.
    fn parse_entry(&mut self, line: &str, enc: Encoding) -> Result<(), Diag> {
        let bad = |m: String| Diag::malformed("DWARF", "bad-list-entry", m);
        let Some((_, d)) = self.lists.iter_mut().next_back() else {
            return Err(bad(format!(
                "`{line}`: an entry before any location list DIE"
            )));
        };
        let num = |t: &str| {
            let t = t.trim();
            match t.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => t.parse().ok(),
            }
        };
        let entry = if let Some(ops) = line.strip_prefix("<default>:") {
            ListEntry::Default(text::parse(ops.trim(), enc)?)
        } else {
            let (range, ops) = line
                .strip_prefix('[')
                .and_then(|r| r.split_once("):"))
                .ok_or_else(|| bad(format!("`{line}`: expected `[LO, HI): OPS`")))?;
            let (lo, hi) = range
                .split_once(',')
                .and_then(|(a, b)| Some((num(a)?, num(b)?)))
                .ok_or_else(|| bad(format!("`{range}`: expected `LO, HI`")))?;
            if lo >= hi {
                return Err(bad(format!("`[{range})` is an empty range")));
            }
            ListEntry::Bounded {
                lo,
                hi,
                ops: text::parse(ops.trim(), enc)?,
            }
        };
        d.entries.push(entry);
        Ok(())
    }

    /// Reads one line that [`Unit::lines`] writes.
    pub fn parse_line(&mut self, line: &str, enc: Encoding) -> Result<(), Diag> {
        let line = line.trim();
        if line.starts_with('[') || line.starts_with("<default>") {
            return self.parse_entry(line, enc);
        }
        let bad = |m: String| Diag::malformed("DWARF", "bad-die", m);
        let (off, rest) = line
            .split_once(':')
            .ok_or_else(|| bad(format!("`{line}`: expected `OFFSET: DW_TAG_...`")))?;
        let off = off.trim();
        let k = match off.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16),
            None => off.parse(),
        }
        .map_err(|_| bad(format!("`{off}` is not a DIE offset")))?;
        if self.base_types.contains_key(&k)
            || self.dies.contains_key(&k)
            || self.lists.contains_key(&k)
        {
            return Err(bad(format!("DIE 0x{k:x} is defined twice")));
        }
        let rest = rest.trim();
        let (tag, body) = rest.split_once(' ').unwrap_or((rest, ""));
        let list_tag = match (tag, body.rsplit(' ').next()) {
            ("DW_TAG_variable", Some("DW_AT_location")) => Some(ListTag::Variable),
            ("DW_TAG_dwarf_procedure", Some("DW_AT_location")) => Some(ListTag::Procedure),
            ("DW_TAG_subprogram", Some("DW_AT_LLVM_lane_pc")) => Some(ListTag::SubprogramLanePc),
            _ => None,
        };
        if let Some(t) = list_tag {
            // Entries belong to the list DIE above them: the last one.
            if self.lists.keys().next_back().is_some_and(|&l| l > k) {
                return Err(bad(format!(
                    "DIE 0x{k:x}: location list DIEs come in increasing offset order"
                )));
            }
            let name = body
                .rsplit_once(' ')
                .map_or("", |(n, _)| n)
                .trim()
                .trim_matches('"');
            self.lists.insert(
                k,
                ListDie {
                    tag: t,
                    name: name.to_string(),
                    entries: Vec::new(),
                },
            );
            return Ok(());
        }
        match tag {
            "DW_TAG_base_type" => {
                let mut w = body.splitn(3, ' ');
                let (ate, size) = (w.next().unwrap_or(""), w.next().unwrap_or(""));
                let name = w.next().unwrap_or("").trim().trim_matches('"').to_string();
                let encoding = (0..=0xffu8)
                    .map(c::DwAte)
                    .find(|a| a.static_string() == Some(ate))
                    .ok_or_else(|| bad(format!("`{ate}` is not a DW_ATE_ encoding")))?;
                let byte_size = size
                    .parse::<u64>()
                    .ok()
                    .filter(|s| (1..=MAX_BASE_TYPE_BYTES).contains(s))
                    .ok_or_else(|| {
                        bad(format!(
                            "`{size}` is not a byte size in 1..={MAX_BASE_TYPE_BYTES}"
                        ))
                    })?;
                self.base_types.insert(
                    k,
                    BaseType {
                        encoding,
                        byte_size,
                        name,
                    },
                );
            }
            "DW_TAG_dwarf_procedure" | "DW_TAG_variable" => {
                let kind = if tag == "DW_TAG_variable" {
                    DieKind::Variable
                } else {
                    DieKind::Procedure
                };
                self.dies.insert(k, (kind, text::parse(body, enc)?));
            }
            _ => {
                return Err(bad(format!(
                    "`{tag}`: expected a base type, dwarf procedure or variable"
                )))
            }
        }
        Ok(())
    }
}

/// An expression and the DIEs it refers to: what `dioptra lower` prints and
/// `dioptra dwarf-equiv` reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    pub ops: Vec<DwarfOp>,
    pub unit: Unit,
}

impl Listing {
    pub fn print(&self, enc: Encoding) -> String {
        let mut s = text::print(&self.ops, enc);
        for l in self.unit.lines(enc) {
            s.push('\n');
            s += &l;
        }
        s
    }

    /// Reads a listing: the expression on the first line (possibly empty),
    /// DIEs on the following ones.
    pub fn parse(src: &str, enc: Encoding) -> Result<Listing, Diag> {
        let src = src.trim();
        // `DW_AT_location	(...)` as llvm-dwarfdump prints the attribute.
        let src = match src.strip_prefix("DW_AT_location") {
            Some(rest) => {
                let rest = rest.trim_start();
                rest.strip_prefix('(')
                    .and_then(|r| r.strip_suffix(')'))
                    .unwrap_or(rest)
            }
            None => src,
        };
        let mut lines = src.lines().map(str::trim).filter(|l| !l.is_empty());
        let first = lines.next().unwrap_or("");
        let (first, named) = named_dies(first);
        let first = first.as_str();
        // An expression line never starts with a DIE offset.
        let not_ops = ["0x", "[", "<default>"]
            .iter()
            .any(|p| first.starts_with(p));
        let (ops, dies): (Vec<DwarfOp>, Vec<&str>) = if not_ops {
            (Vec::new(), std::iter::once(first).chain(lines).collect())
        } else {
            (text::parse(first, enc)?, lines.collect())
        };
        let mut unit = Unit::default();
        for l in dies {
            unit.parse_line(l, enc)?;
        }
        for (off, name) in named {
            if unit.base_types.contains_key(&off) || unit.dies.contains_key(&off) {
                continue;
            }
            let ty = base_type_named(&name).ok_or_else(|| {
                Diag::malformed(
                    "DWARF",
                    "bad-die",
                    format!("DIE 0x{off:x} (\"{name}\") is not in the listing: add a line `0x{off:x}: DW_TAG_base_type ENCODING BYTES \"{name}\"`"),
                )
            })?;
            unit.base_types.insert(off, ty);
        }
        Ok(Listing { ops, unit })
    }
}

/// llvm-dwarfdump prints the DIE operand of `DW_OP_convert` and the other
/// typed operations as `(0x0000002b) "DW_ATE_unsigned_64"`: the offset and
/// the DIE's name. Rewrites each to the bare offset and returns the names.
fn named_dies(line: &str) -> (String, Vec<(u64, String)>) {
    let mut out = String::with_capacity(line.len());
    let mut named = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("(0x") {
        let after = &rest[at + 1..];
        let Some(close) = after.find(')') else { break };
        let hex = &after[2..close];
        let tail = after[close + 1..].trim_start();
        let quoted = tail
            .strip_prefix('"')
            .and_then(|t| t.find('"').map(|e| (&t[..e], &t[e + 1..])));
        match (u64::from_str_radix(hex, 16), quoted) {
            (Ok(off), Some((name, after_name))) => {
                out.push_str(&rest[..at]);
                out.push_str(&format!("0x{off:x}"));
                named.push((off, name.to_string()));
                rest = after_name;
            }
            _ => {
                out.push_str(&rest[..at + 1]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (out, named)
}

/// The base type LLVM names `DW_ATE_<encoding>_<bits>` (the base types it
/// makes for `DW_OP_convert`), e.g. `DW_ATE_unsigned_64`.
fn base_type_named(name: &str) -> Option<BaseType> {
    let (enc, bits) = name.rsplit_once('_')?;
    let bits: u64 = bits.parse().ok()?;
    let encoding = (0..=255u8)
        .map(c::DwAte)
        .find(|a| a.static_string() == Some(enc))?;
    (bits > 0 && bits.is_multiple_of(8) && bits / 8 <= MAX_BASE_TYPE_BYTES).then(|| BaseType {
        encoding,
        byte_size: bits / 8,
        name: name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `DW_OP_convert (0x0000002b) "DW_ATE_unsigned_64"` as llvm-dwarfdump
    /// prints it: the DIE named that way is LLVM's 8-byte unsigned base
    /// type, unless the listing defines the DIE itself.
    #[test]
    fn reads_typed_operations_as_llvm_dwarfdump_prints_them() {
        let enc = Encoding::default();
        let l = Listing::parse(
            "DW_AT_location\t(DW_OP_breg5 RDI+0, DW_OP_convert (0x0000002b) \"DW_ATE_unsigned_64\", DW_OP_convert (0x0000002f) \"DW_ATE_signed_16\", DW_OP_stack_value)",
            enc,
        )
        .unwrap();
        assert_eq!(
            l.ops,
            text::parse(
                "DW_OP_breg5 0, DW_OP_convert 0x2b, DW_OP_convert 0x2f, DW_OP_stack_value",
                enc
            )
            .unwrap()
        );
        let u = &l.unit.base_types[&0x2b];
        assert_eq!((u.encoding, u.byte_size), (c::DW_ATE_unsigned, 8));
        let s = &l.unit.base_types[&0x2f];
        assert_eq!((s.encoding, s.byte_size), (c::DW_ATE_signed, 2));
        // A DIE line wins over the name.
        let l = Listing::parse(
            "DW_OP_convert (0x2b) \"DW_ATE_unsigned_64\"\n0x2b: DW_TAG_base_type DW_ATE_signed 4 \"int\"",
            enc,
        )
        .unwrap();
        assert_eq!(l.unit.base_types[&0x2b].byte_size, 4);
        // A name that says nothing about the type needs its DIE line.
        let e = Listing::parse("DW_OP_convert (0x2b) \"int\"", enc).unwrap_err();
        assert!(e.matches("DWARF: bad-die"), "{e}");
    }

    const LISTS: &str = "0x1: DW_TAG_base_type DW_ATE_float 4 \"float\"
0x2: DW_TAG_variable \"x\" DW_AT_location
  [0x2, 0x8): DW_OP_reg0
  [0x5, 0x10): DW_OP_addr 0x40
  <default>: DW_OP_call4 0x3
0x3: DW_TAG_dwarf_procedure \"!10\" DW_AT_location
  [0x3, 0x7): DW_OP_reg3
0x4: DW_TAG_subprogram \"f\" DW_AT_LLVM_lane_pc";

    #[test]
    fn location_lists_print_and_parse_back() {
        let l = Listing::parse(LISTS, Encoding::default()).unwrap();
        assert!(l.ops.is_empty());
        assert_eq!(l.unit.lists.len(), 3);
        let x = &l.unit.lists[&2];
        assert_eq!(
            (x.tag, x.name.as_str(), x.entries.len()),
            (ListTag::Variable, "x", 3)
        );
        assert!(matches!(
            x.entries[1],
            ListEntry::Bounded { lo: 5, hi: 16, .. }
        ));
        assert!(matches!(x.entries[2], ListEntry::Default(_)));
        assert_eq!(l.unit.lists[&4].tag, ListTag::SubprogramLanePc);
        assert_eq!(l.unit.lines(Encoding::default()).join("\n"), LISTS);
    }

    #[test]
    fn bad_location_list_lines_are_malformed() {
        for (text, want) in [
            ("[0x1, 0x2): DW_OP_reg0", "DWARF: bad-list-entry"),
            ("0x1: DW_TAG_variable \"x\" DW_AT_location\n[0x2, 0x2): DW_OP_reg0", "DWARF: bad-list-entry"),
            ("0x1: DW_TAG_variable \"x\" DW_AT_location\n[0x2 0x3): DW_OP_reg0", "DWARF: bad-list-entry"),
            (
                "0x2: DW_TAG_variable \"x\" DW_AT_location\n0x1: DW_TAG_variable \"y\" DW_AT_location",
                "DWARF: bad-die",
            ),
        ] {
            let d = Listing::parse(text, Encoding::default()).unwrap_err();
            assert!(d.to_string().starts_with(want), "{text}: {d}");
        }
    }
}
