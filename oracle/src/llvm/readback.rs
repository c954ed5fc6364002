//! The DWARF read back: where gdb stopped, the machine state (registers
//! and the stack around the stack pointer) is dumped, and dioptra evaluates
//! the variable's own DWARF there ([`crate::objfile::at`]), the location
//! list entry that covers the pc, with its own DWARF evaluator.
//!
//! So a value gdb shows wrong is told apart three ways: the DWARF itself
//! gives the wrong value (the code generator wrote wrong debug
//! information), the DWARF gives the right value and gdb does not (the
//! debugger reads it wrong), or the DWARF does not evaluate at all
//! (ill-formed, with dioptra's reason code).

use crate::objfile::at::{at_pc, AtPc};
use crate::objfile::variables::{Location, Variable, Variables};
use crate::objfile::{self, Object};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::dwarf::op::{decode, DwarfOp};
use dioptra_semantics::dwarf::text::print;
use dioptra_semantics::dwarf::unit::BaseType;
use std::collections::BTreeMap;
use std::path::Path;

/// The register an expression reads its value from, when it starts by
/// naming or reading one (`DW_OP_reg3`, `DW_OP_breg3 0, ...`).
pub fn register_read(ops: &str) -> Option<u32> {
    let first = ops.split(", ").next()?.split_whitespace().next()?;
    first
        .strip_prefix("DW_OP_breg")
        .or_else(|| first.strip_prefix("DW_OP_reg"))
        .and_then(|n| n.parse().ok())
}

/// Every register an expression names or reads (`DW_OP_regN`,
/// `DW_OP_bregN`), in order, repeats kept.
pub fn registers_read(ops: &str) -> Vec<u32> {
    ops.split(", ").filter_map(register_read).collect()
}

/// The stack gdb dumps: from this many bytes below the stack pointer (the
/// x86-64 red zone a leaf function may use) ...
pub const STACK_BELOW: u64 = 128;
/// ... for this many bytes (an i686 function's arguments and the spill
/// slots of these small functions are within it).
pub const STACK_BYTES: u64 = 384;

/// The machine state at one stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Each register of [`super::target::Arch::registers`], in order.
    pub registers: Vec<u64>,
    /// Where the dumped stack starts, and its bytes.
    pub memory_start: u64,
    pub memory: Vec<u8>,
}

/// Reads a state as the gdb script writes it: the registers in hex joined
/// by commas, the stack's start in hex, its bytes in hex (`-` when gdb
/// could not read it).
pub fn parse_state(regs: &str, start: &str, bytes: &str) -> Option<State> {
    let registers = regs
        .split(',')
        .map(|r| u64::from_str_radix(r, 16).ok())
        .collect::<Option<Vec<u64>>>()?;
    let memory = if bytes == "-" {
        Vec::new()
    } else {
        (0..bytes.len() / 2)
            .map(|k| u8::from_str_radix(bytes.get(2 * k..2 * k + 2)?, 16).ok())
            .collect::<Option<Vec<u8>>>()?
    };
    Some(State {
        registers,
        memory_start: u64::from_str_radix(start, 16).ok()?,
        memory,
    })
}

/// The context dioptra evaluates in: `state`'s registers at their machine
/// width and its stack in address space 0, with `entry` (the state at the
/// function's first instruction) as the entry state `DW_OP_entry_value`
/// reads.
pub fn context(state: &State, entry: Option<&State>, pointer_bits: u32) -> ConcreteContext {
    let mut ctx = ConcreteContext::default();
    ctx.layout = super::execute::layout(pointer_bits);
    let width = (pointer_bits / 8) as usize;
    for (n, r) in state.registers.iter().enumerate() {
        let bytes = r.to_le_bytes()[..width].iter().map(|b| Some(*b)).collect();
        // The numbers are distinct and the widths small: neither error of
        // `add_register` can happen.
        let _ = ctx.add_register(n as u32, bytes);
    }
    if !state.memory.is_empty() {
        let bytes = state.memory.iter().map(|b| Some(*b)).collect();
        let _ = ctx.add_memory(0, state.memory_start, bytes);
    }
    if let Some(e) = entry {
        ctx.entry = Some(Box::new(context(e, None, pointer_bits)));
    }
    ctx
}

/// A linked program's DWARF.
pub struct Program {
    obj: Object,
    vars: Variables,
}

impl Program {
    pub fn read(path: &Path) -> Result<Program, String> {
        let obj = objfile::read(path).map_err(|d| d.to_string())?;
        let vars = objfile::variables::variables(&obj).map_err(|d| d.to_string())?;
        Ok(Program { obj, vars })
    }

    /// The variable `variable` of `function`.
    fn variable(&self, function: &str, variable: &str) -> Option<&Variable> {
        self.vars
            .variables
            .iter()
            .find(|v| v.function.as_deref() == Some(function) && v.name == variable)
    }

    /// What `variable` of `function` is at the function's first
    /// instruction; `None` when the program has no such variable.
    pub fn at_entry(&self, function: &str, variable: &str) -> Option<EntryDwarf<'_>> {
        let v = self.variable(function, variable)?;
        let unit = &self.vars.units[v.unit];
        let bytes = match (&v.location, v.function_range) {
            (Location::Expr(b), _) => b.as_slice(),
            (Location::List(list), Some((entry, _))) => {
                match list.iter().find(|(lo, hi, _)| (*lo..*hi).contains(&entry)) {
                    Some((_, _, b)) => b.as_slice(),
                    None => return Some(EntryDwarf::NoLocation),
                }
            }
            (Location::List(_), None) => {
                return Some(EntryDwarf::Unread(
                    "the function's DIE has no address range".into(),
                ))
            }
            (Location::Constant(Some(v)), _) => return Some(EntryDwarf::Constant(*v)),
            (Location::Constant(None), _) => {
                return Some(EntryDwarf::Unread(
                    "a constant value (DW_AT_const_value) of a block".into(),
                ))
            }
            (Location::None, _) => return Some(EntryDwarf::NoLocation),
        };
        if bytes.is_empty() {
            return Some(EntryDwarf::NoLocation);
        }
        Some(match decode(bytes, unit.enc) {
            Ok(ops) => EntryDwarf::Expr {
                text: name_base_types(&print(&ops, unit.enc), &unit.base_types),
                ops,
                base_types: &unit.base_types,
            },
            Err(d) => EntryDwarf::Unread(d.to_string()),
        })
    }
}

/// A variable's DWARF at its function's first instruction.
#[derive(Debug)]
pub enum EntryDwarf<'p> {
    /// The expression of the location that covers it.
    Expr {
        ops: Vec<DwarfOp>,
        /// As `llvm-dwarfdump` prints it.
        text: String,
        /// The unit's base types (what `DW_OP_convert` names).
        base_types: &'p BTreeMap<u64, BaseType>,
    },
    /// `DW_AT_const_value`: the value, everywhere in its scope, as a
    /// 64-bit pattern.
    Constant(u64),
    /// No location covers it.
    NoLocation,
    /// Not an expression dioptra reads there: why.
    Unread(String),
}

/// What the DWARF says a variable is at a pc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Says {
    /// Its value, of the type's size.
    Value(Bits),
    /// No location there (optimized out).
    Unavailable(String),
    /// It does not evaluate, or its bits cannot be read: the diagnostic.
    Failed(String),
}

/// The variable's DWARF at a pc and what dioptra makes of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DwarfReading {
    /// The expression of the location list entry covering the pc (or the
    /// variable's one expression), as `llvm-dwarfdump` spells it.
    pub ops: String,
    /// The bits the expression's `DW_OP_piece`s add up to, if it has any.
    pub piece_bits: Option<u64>,
    /// The variable's type's size in bits, where its DIE gives one.
    pub type_bits: Option<u64>,
    pub says: Says,
}

/// `variable` of `function` at `pc` in the machine state `ctx`; `None`
/// when the program has no such variable.
///
/// DECISION (D-llvm-partial-location): a location that holds fewer bits
/// than the variable's type (`DW_OP_reg0, DW_OP_piece 4` for an `i64` on
/// i686, or an implicit value of the 32-bit generic type) gives the
/// variable no value: the bits no piece describes are unavailable
/// (`offset-outside-storage`), never zero. A debugger that prints them as
/// zeros shows a value the DWARF does not give.
pub fn read_at(
    p: &Program,
    function: &str,
    variable: &str,
    pc: u64,
    ctx: &ConcreteContext,
) -> Option<DwarfReading> {
    let v = p.variable(function, variable)?;
    let unit = &p.vars.units[v.unit];
    let enc = unit.enc;
    let bytes: Option<&[u8]> = match &v.location {
        Location::Expr(b) => Some(b),
        Location::List(list) => list
            .iter()
            .find(|(lo, hi, _)| (*lo..*hi).contains(&pc))
            .map(|(_, _, b)| b.as_slice()),
        Location::Constant(_) | Location::None => None,
    };
    let ops = bytes
        .map(|b| decode(b, enc).map_or_else(|d| d.to_string(), |ops| print(&ops, enc)))
        .unwrap_or_default();
    let ops = name_base_types(&ops, &unit.base_types);
    let says = match at_pc(&p.obj, &p.vars, v, pc, ctx) {
        AtPc::Located {
            value: Some(Ok(b)), ..
        } => Says::Value(b),
        AtPc::Located {
            value: Some(Err(d)),
            ..
        } => Says::Failed(d.to_string()),
        AtPc::Located { value: None, .. } => Says::Failed("the type has no size".into()),
        AtPc::Unavailable(why) => Says::Unavailable(why),
        AtPc::Failed(d) => Says::Failed(d.to_string()),
    };
    Some(DwarfReading {
        piece_bits: piece_bits(&ops),
        type_bits: v.byte_size.map(|b| b * 8),
        ops,
        says,
    })
}

/// `ops` with each `DW_OP_convert` followed by the name of the base type
/// it names, as `llvm-dwarfdump` prints it (`DW_OP_convert 0x37
/// "DW_ATE_unsigned_1"`): LLVM names its base types by encoding and width
/// in bits.
fn name_base_types(ops: &str, base_types: &BTreeMap<u64, BaseType>) -> String {
    ops.split(", ")
        .map(|op| {
            let offset = op
                .strip_prefix("DW_OP_convert 0x")
                .and_then(|h| u64::from_str_radix(h, 16).ok());
            match offset.and_then(|o| base_types.get(&o)) {
                Some(t) => format!("{op} {:?}", t.name),
                None => op.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The bits the `DW_OP_piece` (bytes) and `DW_OP_bit_piece` (bits)
/// operations of a printed expression add up to.
fn piece_bits(ops: &str) -> Option<u64> {
    let mut total = None;
    for op in ops.split(", ") {
        let mut w = op.split_whitespace();
        let number = |n: &str| u64::from_str_radix(n.trim_start_matches("0x"), 16).ok();
        let n = match (w.next(), w.next().and_then(number)) {
            (Some("DW_OP_piece"), Some(n)) => n * 8,
            (Some("DW_OP_bit_piece"), Some(n)) => n,
            _ => continue,
        };
        total = Some(total.unwrap_or(0) + n);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dumped_state_becomes_a_context() {
        let s = parse_state("1,ff,10", "7ff0", "0102").unwrap();
        assert_eq!(s.registers, vec![1, 0xff, 0x10]);
        assert_eq!((s.memory_start, s.memory.clone()), (0x7ff0, vec![1, 2]));
        let ctx = context(&s, Some(&s), 32);
        assert_eq!(
            ctx.registers[&1],
            vec![Some(0xff), Some(0), Some(0), Some(0)]
        );
        assert_eq!(ctx.memory[&(0, 0x7ff0)], vec![Some(1), Some(2)]);
        assert!(ctx.entry.is_some());
        assert!(parse_state("1,zz", "0", "-").is_none());
        assert_eq!(parse_state("1", "0", "-").unwrap().memory, Vec::<u8>::new());
    }

    #[test]
    fn the_register_an_expression_reads() {
        assert_eq!(register_read("DW_OP_breg4 0, DW_OP_stack_value"), Some(4));
        assert_eq!(register_read("DW_OP_reg12"), Some(12));
        assert_eq!(register_read("DW_OP_fbreg 8"), None);
        assert_eq!(register_read(""), None);
        assert_eq!(
            registers_read(
                "DW_OP_breg0 0, DW_OP_constu 0xffff, DW_OP_and, DW_OP_breg0 0, DW_OP_mul"
            ),
            vec![0, 0]
        );
    }

    #[test]
    fn pieces_are_added_up() {
        assert_eq!(
            piece_bits("DW_OP_reg0, DW_OP_piece 0x4, DW_OP_reg2, DW_OP_bit_piece 0x3 0x0"),
            Some(35)
        );
        assert_eq!(piece_bits("DW_OP_breg0 +0, DW_OP_stack_value"), None);
    }

    #[test]
    fn conversions_name_their_base_type() {
        let mut types = BTreeMap::new();
        types.insert(
            0x37,
            BaseType {
                encoding: gimli::DW_ATE_unsigned,
                byte_size: 1,
                name: "DW_ATE_unsigned_1".into(),
            },
        );
        assert_eq!(
            name_base_types(
                "DW_OP_breg4 +0, DW_OP_convert 0x37, DW_OP_convert 0x40",
                &types
            ),
            "DW_OP_breg4 +0, DW_OP_convert 0x37 \"DW_ATE_unsigned_1\", DW_OP_convert 0x40"
        );
    }
}
