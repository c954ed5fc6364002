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

/// Base types and located DIEs by DIE offset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unit {
    pub base_types: BTreeMap<u64, BaseType>,
    pub dies: BTreeMap<u64, (DieKind, Vec<DwarfOp>)>,
}

/// The largest base type dioptra reads (bytes).
pub const MAX_BASE_TYPE_BYTES: u64 = 1 << 16;

impl Unit {
    fn next_offset(&self) -> u64 {
        let a = self.base_types.keys().next_back().copied().unwrap_or(0);
        let b = self.dies.keys().next_back().copied().unwrap_or(0);
        a.max(b) + 1
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

    pub fn is_empty(&self) -> bool {
        self.base_types.is_empty() && self.dies.is_empty()
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
        out.sort();
        out.into_iter().map(|(_, s)| s).collect()
    }

    /// Reads one line that [`Unit::lines`] writes.
    pub fn parse_line(&mut self, line: &str, enc: Encoding) -> Result<(), Diag> {
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
        if self.base_types.contains_key(&k) || self.dies.contains_key(&k) {
            return Err(bad(format!("DIE 0x{k:x} is defined twice")));
        }
        let rest = rest.trim();
        let (tag, body) = rest.split_once(' ').unwrap_or((rest, ""));
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
        let mut lines = src.lines().map(str::trim).filter(|l| !l.is_empty());
        let first = lines.next().unwrap_or("");
        // An expression line never starts with a DIE offset.
        let (ops, dies): (Vec<DwarfOp>, Vec<&str>) = if first.starts_with("0x") {
            (Vec::new(), std::iter::once(first).chain(lines).collect())
        } else {
            (text::parse(first, enc)?, lines.collect())
        };
        let mut unit = Unit::default();
        for l in dies {
            unit.parse_line(l, enc)?;
        }
        Ok(Listing { ops, unit })
    }
}
