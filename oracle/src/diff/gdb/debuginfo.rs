//! The debug information gdb reads, written with `gimli::write`: one
//! compile unit with one subprogram (the stub) whose local variables are the
//! cases' variables, each an `unsigned char[N]` so that gdb reports
//! availability byte by byte; each case's base types as `DW_TAG_base_type`
//! DIEs of the unit; a location expression or a location list per variable.

use dioptra_semantics::dwarf::unit::Unit;
use dioptra_semantics::dwarf::{encode, DwarfOp, Encoding, Operand};
use gimli::constants as c;
use gimli::write::{
    Address, AttributeValue, DwarfUnit, EndianVec, Expression, Location, LocationList, Sections,
    UnitEntryId,
};
use gimli::{LittleEndian, Register};
use std::collections::BTreeMap;

/// Where a variable is, in real program addresses.
pub enum Where {
    Expr(Vec<DwarfOp>),
    /// Bounded entries `[lo, hi)` and the default entry.
    List {
        bounded: Vec<(u64, u64, Vec<DwarfOp>)>,
        default: Option<Vec<DwarfOp>>,
    },
}

/// A variable of the stub's subprogram.
pub struct Var {
    pub name: String,
    pub bytes: u64,
    pub at: Where,
}

/// The ops the harness leaves out, and why: `None` when gdb can be asked
/// about `ops` in the stub. Each reason is what the stub or the variable's
/// declaration lacks, not a guess about gdb.
pub fn excluded_op(ops: &[DwarfOp]) -> Option<String> {
    for op in ops {
        let why = match op {
            DwarfOp::Amd { .. } => "gdb rejects vendor opcodes (dwarf-facts.md)",
            DwarfOp::Std { code, operands } => match c::DwOp(*code) {
                c::DW_OP_entry_value | c::DW_OP_GNU_entry_value => {
                    "the stub has no caller, so gdb has no call site to take an entry value from"
                }
                c::DW_OP_implicit_pointer | c::DW_OP_GNU_implicit_pointer => {
                    "the variables are byte arrays; gdb follows implicit pointers only through pointer-typed values"
                }
                c::DW_OP_call2 | c::DW_OP_call4 | c::DW_OP_call_ref => {
                    "the harness writes no DWARF procedures"
                }
                c::DW_OP_push_object_address => {
                    "the variables have no object address (no dynamic type property)"
                }
                c::DW_OP_call_frame_cfa | c::DW_OP_fbreg => {
                    "the stub has no call frame information and no frame base"
                }
                c::DW_OP_form_tls_address | c::DW_OP_GNU_push_tls_address => {
                    "the stub has no thread-local storage"
                }
                c::DW_OP_xderef | c::DW_OP_xderef_size | c::DW_OP_xderef_type => {
                    "gdb rejects DW_OP_xderef* (dwarf-facts.md)"
                }
                c::DW_OP_addrx
                | c::DW_OP_constx
                | c::DW_OP_GNU_addr_index
                | c::DW_OP_GNU_const_index => "the harness writes no address table",
                c::DW_OP_GNU_parameter_ref | c::DW_OP_GNU_uninit => "GNU extension",
                _ => match operands.iter().find_map(|o| match o {
                    Operand::Expr(inner) => excluded_op(inner),
                    _ => None,
                }) {
                    Some(why) => return Some(why),
                    None => continue,
                },
            },
        };
        return Some(format!("{}: {why}", op.static_name()));
    }
    None
}

fn uleb(o: Option<&Operand>) -> Result<u64, String> {
    match o {
        Some(Operand::U(v) | Operand::Uleb(v)) => Ok(*v),
        other => Err(format!("expected an unsigned operand, found {other:?}")),
    }
}

fn sleb(o: Option<&Operand>) -> Result<i64, String> {
    match o {
        Some(Operand::S(v)) => Ok(*v),
        other => Err(format!("expected a signed operand, found {other:?}")),
    }
}

/// `ops` as a `gimli::write::Expression`: base-type operands become
/// references to the DIEs in `base` (by dioptra's DIE offset), branch
/// offsets become operation indices. gimli may pick a shorter equivalent
/// encoding of a constant (`DW_OP_lit5` for `DW_OP_constu 5`), which means
/// the same.
pub fn to_gimli(ops: &[DwarfOp], base: &BTreeMap<u64, UnitEntryId>) -> Result<Expression, String> {
    let enc = Encoding::default();
    let die = |o: Option<&Operand>| -> Result<UnitEntryId, String> {
        let k = uleb(o)?;
        base.get(&k)
            .copied()
            .ok_or_else(|| format!("no base type DIE 0x{k:x}"))
    };
    // Byte position of every op, to turn branch offsets into indices.
    let mut starts = Vec::with_capacity(ops.len() + 1);
    let mut pos = 0i64;
    for op in ops {
        starts.push(pos);
        pos += encode(std::slice::from_ref(op), enc)
            .map_err(|d| d.to_string())?
            .len() as i64;
    }
    starts.push(pos);
    let mut e = Expression::new();
    let mut branches = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let DwarfOp::Std { code, operands } = op else {
            return Err(format!("{} is not plain DWARF", op.static_name()));
        };
        let o = |k: usize| operands.get(k);
        let d = c::DwOp(*code);
        match d {
            c::DW_OP_addr => e.op_addr(Address::Constant(uleb(o(0))?)),
            c::DW_OP_const1u
            | c::DW_OP_const2u
            | c::DW_OP_const4u
            | c::DW_OP_const8u
            | c::DW_OP_constu => e.op_constu(uleb(o(0))?),
            c::DW_OP_const1s
            | c::DW_OP_const2s
            | c::DW_OP_const4s
            | c::DW_OP_const8s
            | c::DW_OP_consts => e.op_consts(sleb(o(0))?),
            c::DW_OP_pick => e.op_pick(uleb(o(0))? as u8),
            c::DW_OP_deref_size => e.op_deref_size(uleb(o(0))? as u8),
            c::DW_OP_deref_type => e.op_deref_type(uleb(o(0))? as u8, die(o(1))?),
            c::DW_OP_plus_uconst => e.op_plus_uconst(uleb(o(0))?),
            c::DW_OP_skip | c::DW_OP_bra => {
                let target = starts[i + 1] + sleb(o(0))?;
                let index = starts
                    .iter()
                    .position(|&s| s == target)
                    .ok_or_else(|| format!("{} lands inside an op", op.static_name()))?;
                let at = if d == c::DW_OP_skip {
                    e.op_skip()
                } else {
                    e.op_bra()
                };
                branches.push((at, index));
            }
            c::DW_OP_regx => e.op_reg(Register(uleb(o(0))? as u16)),
            c::DW_OP_bregx => e.op_breg(Register(uleb(o(0))? as u16), sleb(o(1))?),
            c::DW_OP_piece => e.op_piece(uleb(o(0))?),
            c::DW_OP_bit_piece => e.op_bit_piece(uleb(o(0))?, uleb(o(1))?),
            c::DW_OP_implicit_value => match o(0) {
                Some(Operand::Block(b)) => e.op_implicit_value(b.clone().into_boxed_slice()),
                other => return Err(format!("implicit_value operand {other:?}")),
            },
            c::DW_OP_regval_type => e.op_regval_type(Register(uleb(o(0))? as u16), die(o(1))?),
            c::DW_OP_const_type => match o(1) {
                Some(Operand::Block(b)) => {
                    e.op_const_type(die(o(0))?, b.clone().into_boxed_slice())
                }
                other => return Err(format!("const_type operand {other:?}")),
            },
            c::DW_OP_convert | c::DW_OP_reinterpret => {
                let k = uleb(o(0))?;
                let t = if k == 0 { None } else { Some(die(o(0))?) };
                if d == c::DW_OP_convert {
                    e.op_convert(t)
                } else {
                    e.op_reinterpret(t)
                }
            }
            _ if (0x50..=0x6f).contains(code) => e.op_reg(Register((code - 0x50) as u16)),
            _ if (0x70..=0x8f).contains(code) => {
                e.op_breg(Register((code - 0x70) as u16), sleb(o(0))?)
            }
            _ if operands.is_empty() => e.op(d),
            _ => {
                return Err(format!(
                    "{} is not written by the harness",
                    op.static_name()
                ))
            }
        }
    }
    for (at, index) in branches {
        e.set_target(at, index);
    }
    Ok(e)
}

/// The DWARF sections (name, bytes) describing `groups` (each case's unit,
/// for its base types, and its variables) in a subprogram spanning
/// `[low, high)`.
pub fn sections(
    low: u64,
    high: u64,
    groups: &[(&Unit, Vec<Var>)],
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let encoding = gimli::Encoding {
        format: gimli::Format::Dwarf32,
        version: 5,
        address_size: 8,
    };
    let mut dwarf = DwarfUnit::new(encoding);
    let unit = &mut dwarf.unit;
    let root = unit.root();
    let s = |v: &str| AttributeValue::String(v.as_bytes().to_vec());
    {
        let cu = unit.get_mut(root);
        cu.set(c::DW_AT_producer, s("dioptra gdb harness"));
        cu.set(c::DW_AT_name, s("dioptra-gdb.s"));
        cu.set(c::DW_AT_language, AttributeValue::Language(c::DW_LANG_C11));
        cu.set(
            c::DW_AT_low_pc,
            AttributeValue::Address(Address::Constant(low)),
        );
        cu.set(c::DW_AT_high_pc, AttributeValue::Udata(high - low));
    }
    let uchar = unit.add(root, c::DW_TAG_base_type);
    {
        let t = unit.get_mut(uchar);
        t.set(c::DW_AT_name, s("unsigned char"));
        t.set(
            c::DW_AT_encoding,
            AttributeValue::Encoding(c::DW_ATE_unsigned_char),
        );
        t.set(c::DW_AT_byte_size, AttributeValue::Udata(1));
    }
    let sub = unit.add(root, c::DW_TAG_subprogram);
    {
        let f = unit.get_mut(sub);
        f.set(c::DW_AT_name, s("dioptra_stub"));
        f.set(c::DW_AT_external, AttributeValue::Flag(true));
        f.set(
            c::DW_AT_low_pc,
            AttributeValue::Address(Address::Constant(low)),
        );
        f.set(c::DW_AT_high_pc, AttributeValue::Udata(high - low));
    }
    let mut arrays: BTreeMap<u64, UnitEntryId> = BTreeMap::new();
    for (case_unit, vars) in groups {
        let mut base = BTreeMap::new();
        for (&k, b) in &case_unit.base_types {
            let id = unit.add(root, c::DW_TAG_base_type);
            let t = unit.get_mut(id);
            t.set(c::DW_AT_name, s(&b.name));
            t.set(c::DW_AT_encoding, AttributeValue::Encoding(b.encoding));
            t.set(c::DW_AT_byte_size, AttributeValue::Udata(b.byte_size));
            base.insert(k, id);
        }
        for v in vars {
            let array = match arrays.get(&v.bytes) {
                Some(&a) => a,
                None => {
                    let a = unit.add(root, c::DW_TAG_array_type);
                    unit.get_mut(a)
                        .set(c::DW_AT_type, AttributeValue::UnitRef(uchar));
                    let r = unit.add(a, c::DW_TAG_subrange_type);
                    unit.get_mut(r)
                        .set(c::DW_AT_count, AttributeValue::Udata(v.bytes));
                    arrays.insert(v.bytes, a);
                    a
                }
            };
            let location = match &v.at {
                Where::Expr(ops) => AttributeValue::Exprloc(to_gimli(ops, &base)?),
                Where::List { bounded, default } => {
                    let mut list = Vec::new();
                    for (lo, hi, ops) in bounded {
                        list.push(Location::StartEnd {
                            begin: Address::Constant(*lo),
                            end: Address::Constant(*hi),
                            data: to_gimli(ops, &base)?,
                        });
                    }
                    if let Some(ops) = default {
                        list.push(Location::DefaultLocation {
                            data: to_gimli(ops, &base)?,
                        });
                    }
                    AttributeValue::LocationListRef(unit.locations.add(LocationList(list)))
                }
            };
            let id = unit.add(sub, c::DW_TAG_variable);
            let var = unit.get_mut(id);
            var.set(c::DW_AT_name, s(&v.name));
            var.set(c::DW_AT_type, AttributeValue::UnitRef(array));
            var.set(c::DW_AT_location, location);
        }
    }
    let mut out = Sections::new(EndianVec::new(LittleEndian));
    dwarf
        .write(&mut out)
        .map_err(|e| format!("gimli::write: {e}"))?;
    let mut sections = Vec::new();
    out.for_each(|id, data| -> Result<(), ()> {
        if !data.slice().is_empty() {
            sections.push((id.name().to_string(), data.slice().to_vec()));
        }
        Ok(())
    })
    .map_err(|_| "gimli::write: a section could not be read back".to_string())?;
    Ok(sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dioptra_semantics::dwarf::unit::Listing;

    /// The variable's `DW_AT_location`, read back from the written
    /// sections with gimli's reader.
    /// Also: the offsets of the float base type DIEs.
    fn written_location(listing: &str) -> (Vec<u8>, Vec<u8>, Vec<u64>) {
        let l = Listing::parse(listing, Encoding::default()).unwrap();
        let var = Var {
            name: "v".into(),
            bytes: 4,
            at: Where::Expr(l.ops.clone()),
        };
        let secs = sections(0x1000, 0x2000, &[(&l.unit, vec![var])]).unwrap();
        let get = |n: &str| {
            secs.iter()
                .find(|(name, _)| name == n)
                .map(|(_, b)| b.clone())
                .unwrap_or_default()
        };
        let (info, abbrev) = (get(".debug_info"), get(".debug_abbrev"));
        let dwarf = gimli::Dwarf {
            debug_info: gimli::DebugInfo::new(&info, LittleEndian),
            debug_abbrev: gimli::DebugAbbrev::new(&abbrev, LittleEndian),
            ..Default::default()
        };
        let header = dwarf.units().next().unwrap().unwrap();
        let unit = dwarf.unit(header).unwrap();
        let mut entries = unit.entries();
        let (mut floats, mut expr) = (Vec::new(), None);
        while let Some(e) = entries.next_dfs().unwrap() {
            if e.tag() == c::DW_TAG_base_type
                && e.attr_value(c::DW_AT_encoding)
                    == Some(gimli::AttributeValue::Encoding(c::DW_ATE_float))
            {
                floats.push(e.offset().0 as u64);
            }
            if e.tag() == c::DW_TAG_variable {
                let Some(gimli::AttributeValue::Exprloc(x)) = e.attr_value(c::DW_AT_location)
                else {
                    panic!("no exprloc")
                };
                expr = Some(x.0.slice().to_vec());
            }
        }
        let ours = encode(&l.ops, Encoding::default()).unwrap();
        (expr.expect("a variable is written"), ours, floats)
    }

    #[test]
    fn expressions_are_written_as_given() {
        let (written, ours, _) = written_location(
            "DW_OP_lit0, DW_OP_skip 1, DW_OP_lit1, DW_OP_lit2, DW_OP_bra -4, DW_OP_breg3 +4, DW_OP_plus, DW_OP_stack_value",
        );
        assert_eq!(written, ours);
        let (written, ours, _) = written_location(
            "DW_OP_reg17, DW_OP_piece 4, DW_OP_implicit_value 0x2 0x01 0x02, DW_OP_piece 2",
        );
        assert_eq!(written, ours);
    }

    #[test]
    fn base_types_are_referenced_by_their_written_offsets() {
        let (written, _, floats) = written_location(
            "DW_OP_lit1, DW_OP_convert 0x1, DW_OP_stack_value\n0x1: DW_TAG_base_type DW_ATE_float 4 \"float\"",
        );
        let ops = dioptra_semantics::dwarf::decode(&written, Encoding::default()).unwrap();
        let DwarfOp::Std { operands, .. } = &ops[1] else {
            panic!("{ops:?}")
        };
        assert_eq!(operands[..], [Operand::Uleb(floats[0])]);
    }

    #[test]
    fn what_gdb_cannot_be_asked_is_named() {
        let l = Listing::parse(
            "DW_OP_entry_value(DW_OP_reg3), DW_OP_stack_value",
            Encoding::default(),
        )
        .unwrap();
        assert!(excluded_op(&l.ops)
            .unwrap()
            .starts_with("DW_OP_entry_value"));
        let l = Listing::parse("DW_OP_breg3 +4, DW_OP_stack_value", Encoding::default()).unwrap();
        assert_eq!(excluded_op(&l.ops), None);
    }
}
