//! Static checks of a DWARF expression: what can be told without a machine
//! state. The stack is followed abstractly (each entry a value of the
//! generic type or of a base type, a location description, or an incomplete
//! composite) along every path the branches allow, with the rules the
//! evaluator (`eval.rs`) applies dynamically:
//!
//! * `stack-underflow`: an operation pops more than the stack holds;
//! * `type-mismatch`: DWARF 5, Section 2.5.1.4: the two operands of an
//!   arithmetic or relational operation have the same type (shift amounts
//!   excepted);
//! * `integral-required`: bitwise operations, shifts, `DW_OP_mod`,
//!   `DW_OP_not` and `DW_OP_plus_uconst` need integral operands (a
//!   floating-point base type is not);
//! * `value-required`: arithmetic on a location description (the
//!   extensions' model: locations are stack entries, values convert to
//!   memory locations, never back; D-dwarf-value-required);
//! * `unknown-base-type`: a typed operation names a DIE that is not a base
//!   type of the unit;
//! * `not-standalone`: DWARF 5, Section 2.6.1.1.3-4: a register location,
//!   an implicit value (`DW_OP_implicit_value`, `DW_OP_stack_value`) or an
//!   implicit pointer "must stand alone as the entire description of an
//!   object or a piece of an object": only a piece may follow it. Under
//!   the extensions' rules ([`Model::Extensions`]) location descriptions
//!   are ordinary stack entries and any operation that takes a location
//!   may follow one;
//! * `bad-branch`: a branch to the middle of an operation or outside the
//!   expression;
//! * `inconsistent-stack`: two paths reach an operation with stacks of
//!   different shapes;
//! * `no-incomplete-composite`: `DW_OP_LLVM_piece_end` without a composite;
//! * `not-last`: `DW_OP_GNU_uninit` anywhere but last (gdb's rule,
//!   D-dwarf-gnu-uninit).
//!
//! * `not-in-dwarf4`: an operation DWARF 5 added, in a DWARF 4 unit.
//!
//! `DW_OP_call2`/`call4`/`call_ref` run another DIE's expression on the same
//! stack; the check stops there and says it did not finish.
//!
//! Bounded (`limit-exceeded`): a stack of at most `MAX_DWARF_STACK` entries,
//! as the evaluator's, and at most [`MAX_STACK_COPIES`] entries copied at
//! branches. The stack is kept only where a branch goes: every op kept a
//! copy of it, and 60 000 `DW_OP_lit1`s (a 60 KB expression) needed 28 GB.

use super::eval::MAX_DWARF_STACK;
use super::op::{encode, AmdOp, DwarfOp, Encoding, Operand};
use super::unit::Unit;
use crate::diag::Diag;
use gimli::constants as c;
use std::collections::BTreeMap;

/// Most stack entries the check copies where paths split and join (the
/// stacks kept at branch targets and taken along each branch).
pub const MAX_STACK_COPIES: usize = 1 << 22;

fn limit(msg: String) -> Diag {
    Diag::unsupported("DWARF", "limit-exceeded", msg)
}

/// An abstract stack entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Abs {
    /// A value of the generic type (`0`) or of the base type at this DIE.
    Value(u64),
    /// A location description.
    Loc,
    /// An incomplete composite (pieces so far).
    Incomplete,
}

/// Which rules a location description follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// DWARF 5's: a register location, implicit value or implicit pointer
    /// stands alone (only a piece may follow it).
    Dwarf5,
    /// AMD's extensions': locations are stack entries like values.
    Extensions,
    /// DWARF 4's: DWARF 5's rules without the operations DWARF 5 added
    /// (typed operations, `DW_OP_entry_value`, `DW_OP_addrx`,
    /// `DW_OP_implicit_pointer`...; their GNU forms are DWARF 4's), so
    /// every value has the generic type.
    Dwarf4,
}

/// The operations DWARF 5 added (DWARF 5, Section 7.7.1, 0xa0..=0xa9).
fn new_in_dwarf5(code: u8) -> bool {
    (c::DW_OP_implicit_pointer.0..=c::DW_OP_reinterpret.0).contains(&code)
}

impl Model {
    /// The extensions' model for an expression that uses AMD's operations,
    /// DWARF 5's otherwise (what a reader can tell without a unit).
    pub fn of(ops: &[DwarfOp]) -> Model {
        Model::in_unit(ops, 5)
    }
    /// [`Model::of`] in a unit of DWARF `version`: DWARF 4's rules in a
    /// version 2-4 unit.
    pub fn in_unit(ops: &[DwarfOp], version: u16) -> Model {
        if ops.iter().any(|o| matches!(o, DwarfOp::Amd { .. })) {
            Model::Extensions
        } else if version <= 4 {
            Model::Dwarf4
        } else {
            Model::Dwarf5
        }
    }
}

/// What the check could tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// Every path was followed to the end.
    Complete,
    /// A `DW_OP_call*` runs an expression this check does not see: the
    /// operations before it are checked, the rest is not.
    StoppedAtCall,
}

fn ill(op: &str, reason: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
    Diag::ill(op, reason, msg)
}

/// Checks `ops` (with the base types of `unit`) by the rules of `model`.
pub fn check(ops: &[DwarfOp], unit: &Unit, enc: Encoding, model: Model) -> Result<Checked, Diag> {
    // Where each operation starts, for branch targets.
    let mut starts = Vec::with_capacity(ops.len() + 1);
    let mut at = 0usize;
    for op in ops {
        starts.push(at);
        at += encode(std::slice::from_ref(op), enc)?.len();
    }
    starts.push(at);
    let index_of: BTreeMap<usize, usize> =
        starts.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    // Where branches go (and the start): the stacks are kept there only.
    // Any other op is reached from the op before it alone, once per time
    // the block it is in is entered, which is once.
    let target_of = |i: usize, op: &DwarfOp| -> Option<usize> {
        let DwarfOp::Std { code, operands } = op else {
            return None;
        };
        if !matches!(c::DwOp(*code), c::DW_OP_skip | c::DW_OP_bra) {
            return None;
        }
        let t = (starts[i + 1] as i64).checked_add(sleb(operands, 0))?;
        index_of.get(&usize::try_from(t).ok()?).copied()
    };
    let mut joins = vec![false; ops.len() + 1];
    joins[0] = true;
    for (i, op) in ops.iter().enumerate() {
        if let Some(t) = target_of(i, op) {
            joins[t] = true;
        }
    }
    let mut copies = 0usize;
    let mut copied = |n: usize| {
        copies = copies.saturating_add(n);
        if copies > MAX_STACK_COPIES {
            return Err(limit(format!(
                "the paths of its branches copy more than {MAX_STACK_COPIES} stack entries"
            )));
        }
        Ok(())
    };
    let mut seen: Vec<Option<Vec<Abs>>> = vec![None; ops.len() + 1];
    let mut work = vec![(0usize, Vec::new())];
    let mut stopped = false;
    let extensions = model == Model::Extensions;
    if model == Model::Dwarf4 {
        if let Some(op) = ops
            .iter()
            .find(|o| matches!(o, DwarfOp::Std { code, .. } if new_in_dwarf5(*code)))
        {
            return Err(ill(
                &op.name(),
                "not-in-dwarf4",
                "an operation DWARF 5 added, in a DWARF 4 unit (its GNU form, if any, is DWARF 4's)",
            ));
        }
    }
    while let Some((i, stack)) = work.pop() {
        if joins[i] {
            match &seen[i] {
                Some(s) if *s == stack => continue,
                Some(s) => {
                    let name = ops.get(i).map_or("DWARF".to_string(), DwarfOp::name);
                    return Err(ill(
                        &name,
                        "inconsistent-stack",
                        format!("reached with stacks {s:?} and {stack:?}"),
                    ));
                }
                None => {
                    copied(stack.len())?;
                    seen[i] = Some(stack.clone());
                }
            }
        }
        let Some(op) = ops.get(i) else { continue };
        let mut st = Stack {
            entries: stack,
            name: op.name(),
            unit,
        };
        // Under the extensions' rules anything may follow a location.
        let next = if extensions { None } else { ops.get(i + 1) };
        let flow = step(&mut st, op, next)?;
        if st.entries.len() > MAX_DWARF_STACK {
            return Err(limit(format!("more than {MAX_DWARF_STACK} stack entries")));
        }
        match flow {
            Flow::Next => work.push((i + 1, st.entries)),
            Flow::Stop => stopped = true,
            Flow::Branch {
                offset,
                fallthrough,
            } => {
                let target = (starts[i + 1] as i64).checked_add(offset);
                let t = target
                    .and_then(|t| usize::try_from(t).ok())
                    .and_then(|t| index_of.get(&t).copied())
                    .ok_or_else(|| {
                        ill(
                            &st.name,
                            "bad-branch",
                            format!(
                                "a branch by {offset} bytes is not to the start of an operation"
                            ),
                        )
                    })?;
                copied(st.entries.len())?;
                work.push((t, st.entries.clone()));
                if fallthrough {
                    work.push((i + 1, st.entries));
                }
            }
        }
    }
    Ok(if stopped {
        Checked::StoppedAtCall
    } else {
        Checked::Complete
    })
}

enum Flow {
    Next,
    Stop,
    Branch { offset: i64, fallthrough: bool },
}

struct Stack<'a> {
    entries: Vec<Abs>,
    name: String,
    unit: &'a Unit,
}

impl Stack<'_> {
    fn pop(&mut self) -> Result<Abs, Diag> {
        self.entries
            .pop()
            .ok_or_else(|| ill(&self.name, "stack-underflow", "the stack is empty"))
    }
    fn peek(&self, k: usize) -> Result<Abs, Diag> {
        let n = self.entries.len();
        (k < n).then(|| self.entries[n - 1 - k]).ok_or_else(|| {
            ill(
                &self.name,
                "stack-underflow",
                format!("entry {k} below the top of a stack of {n}"),
            )
        })
    }
    /// A value: its type (0 generic, or a base type DIE).
    fn pop_value(&mut self) -> Result<u64, Diag> {
        match self.pop()? {
            Abs::Value(t) => Ok(t),
            Abs::Loc | Abs::Incomplete => Err(ill(
                &self.name,
                "value-required",
                "the entry is a location description, not a value",
            )),
        }
    }
    fn pop_integral(&mut self) -> Result<u64, Diag> {
        let t = self.pop_value()?;
        self.integral(t)?;
        Ok(t)
    }
    /// A location (a value converts to a memory location).
    fn pop_location(&mut self) -> Result<(), Diag> {
        match self.pop()? {
            Abs::Value(_) | Abs::Loc => Ok(()),
            Abs::Incomplete => Err(ill(
                &self.name,
                "incomplete-composite",
                "an incomplete composite where a location is needed",
            )),
        }
    }
    fn base(&self, die: u64) -> Result<u64, Diag> {
        if die == 0 || self.unit.base_types.contains_key(&die) {
            Ok(die)
        } else {
            Err(ill(
                &self.name,
                "unknown-base-type",
                format!("DIE 0x{die:x} is not a base type of the unit"),
            ))
        }
    }
    fn integral(&self, t: u64) -> Result<(), Diag> {
        let float = self
            .unit
            .base_types
            .get(&t)
            .is_some_and(|b| b.encoding == c::DW_ATE_float);
        if float {
            return Err(ill(
                &self.name,
                "integral-required",
                format!("a floating-point operand (base type 0x{t:x})"),
            ));
        }
        Ok(())
    }
    fn same(&self, a: u64, b: u64) -> Result<(), Diag> {
        if a != b {
            return Err(ill(
                &self.name,
                "type-mismatch",
                format!("operands of base types 0x{a:x} and 0x{b:x}"),
            ));
        }
        Ok(())
    }
    fn push(&mut self, a: Abs) {
        self.entries.push(a);
    }
}

fn uleb(operands: &[Operand], i: usize) -> u64 {
    match operands.get(i) {
        Some(Operand::Uleb(v) | Operand::U(v)) => *v,
        Some(Operand::S(v)) => *v as u64,
        _ => 0,
    }
}

fn sleb(operands: &[Operand], i: usize) -> i64 {
    match operands.get(i) {
        Some(Operand::S(v)) => *v,
        Some(Operand::Uleb(v) | Operand::U(v)) => *v as i64,
        _ => 0,
    }
}

/// May `next` follow a location that must stand alone (DWARF 5)?
fn may_follow_standalone(next: Option<&DwarfOp>) -> bool {
    match next {
        None | Some(DwarfOp::Amd { .. }) => true,
        Some(DwarfOp::Std { code, .. }) => {
            // gdb allows `DW_OP_GNU_uninit` there too (D-dwarf-gnu-uninit).
            *code == c::DW_OP_piece.0
                || *code == c::DW_OP_bit_piece.0
                || *code == c::DW_OP_GNU_uninit.0
        }
    }
}

fn step(st: &mut Stack, op: &DwarfOp, next: Option<&DwarfOp>) -> Result<Flow, Diag> {
    let (code, operands) = match op {
        DwarfOp::Amd { op, operands } => {
            amd(st, *op)?;
            let _ = operands;
            return Ok(Flow::Next);
        }
        DwarfOp::Std { code, operands } => (c::DwOp(*code), operands.as_slice()),
    };
    let standalone = |st: &Stack| {
        if may_follow_standalone(next) {
            Ok(())
        } else {
            Err(ill(
                &st.name,
                "not-standalone",
                format!(
                    "only a piece may follow it (DWARF 5, Section 2.6.1.1), not {}",
                    next.map_or(String::new(), DwarfOp::name)
                ),
            ))
        }
    };
    let k = code.0;
    match code {
        _ if (c::DW_OP_lit0.0..=c::DW_OP_lit31.0).contains(&k)
            || (c::DW_OP_breg0.0..=c::DW_OP_breg31.0).contains(&k) =>
        {
            st.push(Abs::Value(0))
        }
        _ if (c::DW_OP_reg0.0..=c::DW_OP_reg31.0).contains(&k) => {
            standalone(st)?;
            st.push(Abs::Loc)
        }
        c::DW_OP_addr
        | c::DW_OP_const1u
        | c::DW_OP_const1s
        | c::DW_OP_const2u
        | c::DW_OP_const2s
        | c::DW_OP_const4u
        | c::DW_OP_const4s
        | c::DW_OP_const8u
        | c::DW_OP_const8s
        | c::DW_OP_constu
        | c::DW_OP_consts
        | c::DW_OP_addrx
        | c::DW_OP_constx
        | c::DW_OP_GNU_addr_index
        | c::DW_OP_GNU_const_index
        | c::DW_OP_bregx
        | c::DW_OP_fbreg
        | c::DW_OP_call_frame_cfa
        | c::DW_OP_push_object_address
        | c::DW_OP_GNU_parameter_ref
        | c::DW_OP_entry_value
        | c::DW_OP_GNU_entry_value => st.push(Abs::Value(0)),
        c::DW_OP_const_type | c::DW_OP_GNU_const_type => {
            let t = st.base(uleb(operands, 0))?;
            st.push(Abs::Value(t))
        }
        c::DW_OP_regval_type | c::DW_OP_GNU_regval_type => {
            let t = st.base(uleb(operands, 1))?;
            st.push(Abs::Value(t))
        }
        c::DW_OP_regx => {
            standalone(st)?;
            st.push(Abs::Loc)
        }
        c::DW_OP_dup => {
            let top = st.peek(0)?;
            st.push(top)
        }
        c::DW_OP_drop => {
            st.pop()?;
        }
        c::DW_OP_pick => {
            let e = st.peek(uleb(operands, 0) as usize)?;
            st.push(e)
        }
        c::DW_OP_over => {
            let e = st.peek(1)?;
            st.push(e)
        }
        c::DW_OP_swap => {
            let (a, b) = (st.pop()?, st.pop()?);
            st.push(a);
            st.push(b)
        }
        c::DW_OP_rot => {
            let (a, b, cc) = (st.pop()?, st.pop()?, st.pop()?);
            st.push(a);
            st.push(cc);
            st.push(b)
        }
        c::DW_OP_deref | c::DW_OP_deref_size => {
            st.pop_location()?;
            st.push(Abs::Value(0))
        }
        c::DW_OP_deref_type | c::DW_OP_GNU_deref_type => {
            let t = st.base(uleb(operands, 1))?;
            st.pop_location()?;
            st.push(Abs::Value(t))
        }
        c::DW_OP_xderef | c::DW_OP_xderef_size | c::DW_OP_xderef_type => {
            let t = if code == c::DW_OP_xderef_type {
                st.base(uleb(operands, 1))?
            } else {
                0
            };
            st.pop_integral()?;
            st.pop_integral()?;
            st.push(Abs::Value(t))
        }
        c::DW_OP_form_tls_address | c::DW_OP_GNU_push_tls_address => {
            st.pop_integral()?;
            st.push(Abs::Value(0))
        }
        c::DW_OP_abs | c::DW_OP_neg => {
            let t = st.pop_value()?;
            st.push(Abs::Value(t))
        }
        c::DW_OP_not | c::DW_OP_plus_uconst => {
            let t = st.pop_integral()?;
            st.push(Abs::Value(t))
        }
        c::DW_OP_plus | c::DW_OP_minus | c::DW_OP_mul | c::DW_OP_div => {
            let (b, a) = (st.pop_value()?, st.pop_value()?);
            st.same(a, b)?;
            st.push(Abs::Value(a))
        }
        c::DW_OP_and | c::DW_OP_or | c::DW_OP_xor | c::DW_OP_mod => {
            let (b, a) = (st.pop_value()?, st.pop_value()?);
            st.same(a, b)?;
            st.integral(a)?;
            st.push(Abs::Value(a))
        }
        c::DW_OP_shl | c::DW_OP_shr | c::DW_OP_shra => {
            st.pop_integral()?;
            let a = st.pop_integral()?;
            st.push(Abs::Value(a))
        }
        c::DW_OP_eq | c::DW_OP_ge | c::DW_OP_gt | c::DW_OP_le | c::DW_OP_lt | c::DW_OP_ne => {
            let (b, a) = (st.pop_value()?, st.pop_value()?);
            st.same(a, b)?;
            st.push(Abs::Value(0))
        }
        c::DW_OP_skip => {
            return Ok(Flow::Branch {
                offset: sleb(operands, 0),
                fallthrough: false,
            })
        }
        c::DW_OP_bra => {
            st.pop_value()?;
            return Ok(Flow::Branch {
                offset: sleb(operands, 0),
                fallthrough: true,
            });
        }
        c::DW_OP_nop => {}
        c::DW_OP_GNU_uninit if next.is_some() => {
            return Err(ill(
                &st.name,
                "not-last",
                "it marks the value uninitialized and must be the expression's last operation (gdb's rule; D-dwarf-gnu-uninit)",
            ))
        }
        c::DW_OP_GNU_uninit => {}
        c::DW_OP_call2 | c::DW_OP_call4 | c::DW_OP_call_ref => return Ok(Flow::Stop),
        c::DW_OP_convert
        | c::DW_OP_reinterpret
        | c::DW_OP_GNU_convert
        | c::DW_OP_GNU_reinterpret => {
            let t = st.base(uleb(operands, 0))?;
            st.pop_value()?;
            st.push(Abs::Value(t))
        }
        c::DW_OP_implicit_value | c::DW_OP_implicit_pointer | c::DW_OP_GNU_implicit_pointer => {
            standalone(st)?;
            st.push(Abs::Loc)
        }
        c::DW_OP_stack_value => {
            standalone(st)?;
            st.pop_value()?;
            st.push(Abs::Loc)
        }
        c::DW_OP_piece | c::DW_OP_bit_piece => {
            // The part is the top entry, or undefined when the stack is
            // empty or holds only the composite so far.
            if !matches!(st.entries.last(), None | Some(Abs::Incomplete)) {
                st.pop_location()?;
            }
            if st.entries.last() != Some(&Abs::Incomplete) {
                st.push(Abs::Incomplete)
            }
        }
        _ => {
            return Err(Diag::unsupported(
                &st.name,
                "opcode",
                format!("{} is not checked by dioptra", st.name),
            ))
        }
    }
    Ok(Flow::Next)
}

/// AMD's operations ("DWARF Extensions For Heterogeneous Debugging").
fn amd(st: &mut Stack, a: AmdOp) -> Result<(), Diag> {
    match a {
        AmdOp::Nop => {}
        AmdOp::FormAspaceAddress => {
            st.pop_integral()?;
            st.pop_integral()?;
            st.push(Abs::Loc)
        }
        AmdOp::PushLane => st.push(Abs::Value(0)),
        AmdOp::Offset | AmdOp::BitOffset => {
            st.pop_integral()?;
            st.pop_location()?;
            st.push(Abs::Loc)
        }
        AmdOp::OffsetUconst => {
            st.pop_location()?;
            st.push(Abs::Loc)
        }
        AmdOp::CallFrameEntryReg | AmdOp::Undefined => st.push(Abs::Loc),
        AmdOp::AspaceBregx | AmdOp::AspaceImplicitPointer => {
            st.pop_integral()?;
            st.push(Abs::Loc)
        }
        AmdOp::PieceEnd => match st.pop()? {
            Abs::Incomplete => st.push(Abs::Loc),
            _ => {
                return Err(ill(
                    &st.name,
                    "no-incomplete-composite",
                    "the top of the stack is not an incomplete composite",
                ))
            }
        },
        AmdOp::Extend => {
            st.pop_location()?;
            st.push(Abs::Loc)
        }
        AmdOp::SelectBitPiece => {
            st.pop_integral()?;
            st.pop_location()?;
            st.pop_location()?;
            st.push(Abs::Loc)
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dwarf::unit::Listing;

    fn run(text: &str) -> Result<Checked, Diag> {
        let enc = Encoding::default();
        let l = Listing::parse(text, enc).unwrap();
        check(&l.ops, &l.unit, enc, Model::of(&l.ops))
    }

    /// Long and deep expressions are checked in time and memory in
    /// proportion to them, or refused at a bound: straight-line code keeps
    /// no stack per op (60 000 literals asked for 28 GB), the stack is as
    /// deep as the evaluator's at most, and branches that each copy a deep
    /// stack stop at `MAX_STACK_COPIES`.
    #[test]
    fn deep_stacks_and_many_branches_are_bounded() {
        let enc = Encoding::default();
        let lit = DwarfOp::op(c::DW_OP_lit1);
        let check_ops = |ops: &[DwarfOp]| check(ops, &Unit::default(), enc, Model::Dwarf5);
        // 60 000 values pushed and dropped, then one: passes.
        let n = 60_000;
        let mut ops = vec![lit.clone(); n];
        ops.extend(vec![DwarfOp::op(c::DW_OP_drop); n]);
        ops.extend([lit.clone(), DwarfOp::op(c::DW_OP_stack_value)]);
        assert_eq!(check_ops(&ops).unwrap(), Checked::Complete);
        // Deeper than the evaluator goes.
        let ops = vec![lit.clone(); MAX_DWARF_STACK + 1];
        let d = check_ops(&ops).unwrap_err();
        assert_eq!(
            (d.construct.as_str(), d.reason),
            ("DWARF", "limit-exceeded"),
            "{d}"
        );
        // A branch over nothing after each of 60 000 values: each copies
        // the stack.
        let mut ops = vec![lit.clone(); n];
        ops.extend(vec![DwarfOp::with(c::DW_OP_skip, [Operand::S(0)]); n]);
        let d = check_ops(&ops).unwrap_err();
        assert_eq!(
            (d.construct.as_str(), d.reason),
            ("DWARF", "limit-exceeded"),
            "{d}"
        );
        assert!(d.message.contains("copy more than"), "{d}");
        // A few branches on a shallow stack are followed as before.
        let mut ops = vec![lit.clone(); 4];
        ops.extend(vec![DwarfOp::with(c::DW_OP_skip, [Operand::S(0)]); 1000]);
        ops.extend(vec![DwarfOp::op(c::DW_OP_drop); 3]);
        ops.push(DwarfOp::op(c::DW_OP_stack_value));
        assert_eq!(check_ops(&ops).unwrap(), Checked::Complete);
    }

    #[test]
    fn what_compilers_write_passes() {
        for t in [
            "",
            "DW_OP_reg5",
            "DW_OP_fbreg -8",
            "DW_OP_entry_value(DW_OP_reg5), DW_OP_stack_value",
            "DW_OP_reg5, DW_OP_piece 0x4, DW_OP_breg5 0, DW_OP_constu 0x20, DW_OP_shr, DW_OP_convert (0x2b) \"DW_ATE_unsigned_64\", DW_OP_convert (0x2f) \"DW_ATE_unsigned_16\", DW_OP_stack_value, DW_OP_piece 0x2",
            "DW_OP_piece 0x8, DW_OP_reg4, DW_OP_piece 0x2",
            "DW_OP_breg4 0, DW_OP_consts 1, DW_OP_breg5 0, DW_OP_plus, DW_OP_plus, DW_OP_stack_value",
            "DW_OP_lit1, DW_OP_bra 4, DW_OP_lit2, DW_OP_skip 1, DW_OP_lit3, DW_OP_stack_value",
            "DW_OP_reg3, DW_OP_LLVM_user DW_OP_LLVM_offset_uconst 0x4",
            // The extensions' rules: a register location may be read.
            "DW_OP_reg3, DW_OP_deref_size 0x4, DW_OP_LLVM_user DW_OP_LLVM_push_lane, DW_OP_plus, DW_OP_stack_value",
        ] {
            assert_eq!(run(t).unwrap_or_else(|d| panic!("{t}: {d}")), Checked::Complete, "{t}");
        }
        assert_eq!(
            run("DW_OP_lit0, DW_OP_call4 0x1").unwrap(),
            Checked::StoppedAtCall
        );
        // A register location read as memory: the extensions' reading, not
        // DWARF 5's.
        let enc = Encoding::default();
        let l = Listing::parse("DW_OP_reg3, DW_OP_deref_size 0x4, DW_OP_stack_value", enc).unwrap();
        assert!(check(&l.ops, &l.unit, enc, Model::Extensions).is_ok());
        let d = check(&l.ops, &l.unit, enc, Model::Dwarf5).unwrap_err();
        assert!(d.matches("DW_OP_reg3: not-standalone"), "{d}");
        // DWARF 4 has the GNU entry value, not DWARF 5's.
        let v5 = Listing::parse("DW_OP_entry_value(DW_OP_reg5), DW_OP_stack_value", enc).unwrap();
        let d = check(&v5.ops, &v5.unit, enc, Model::Dwarf4).unwrap_err();
        assert!(d.matches("DW_OP_entry_value: not-in-dwarf4"), "{d}");
        // gcc's DW_OP_GNU_uninit after a register location, as gdb takes
        // it (D-dwarf-gnu-uninit); only last.
        let uninit = Listing::parse("DW_OP_reg8, DW_OP_GNU_uninit", enc).unwrap();
        assert!(check(&uninit.ops, &uninit.unit, enc, Model::Dwarf5).is_ok());
        let inner = Listing::parse("DW_OP_reg8, DW_OP_GNU_uninit, DW_OP_piece 0x8", enc).unwrap();
        let d = check(&inner.ops, &inner.unit, enc, Model::Dwarf5).unwrap_err();
        assert!(d.matches("DW_OP_GNU_uninit: not-last"), "{d}");
        let gnu =
            Listing::parse("DW_OP_GNU_entry_value(DW_OP_reg5), DW_OP_stack_value", enc).unwrap();
        assert!(check(&gnu.ops, &gnu.unit, enc, Model::Dwarf4).is_ok());
        assert!(check(&v5.ops, &v5.unit, enc, Model::Dwarf5).is_ok());
    }

    #[test]
    fn each_rule_has_its_reason() {
        let float = "\n0x1: DW_TAG_base_type DW_ATE_float 4 \"float\"\n0x2: DW_TAG_base_type DW_ATE_signed 4 \"int\"";
        for (t, reason) in [
            ("DW_OP_plus", "DW_OP_plus: stack-underflow"),
            ("DW_OP_lit1, DW_OP_rot", "DW_OP_rot: stack-underflow"),
            (
                "DW_OP_reg5, DW_OP_lit0, DW_OP_plus",
                "DW_OP_reg5: not-standalone",
            ),
            (
                "DW_OP_lit1, DW_OP_stack_value, DW_OP_lit0",
                "DW_OP_stack_value: not-standalone",
            ),
            (
                "DW_OP_reg5, DW_OP_LLVM_user DW_OP_LLVM_offset_uconst 0x4, DW_OP_lit0, DW_OP_plus",
                "DW_OP_plus: value-required",
            ),
            (
                "DW_OP_lit1, DW_OP_convert 0x9",
                "DW_OP_convert: unknown-base-type",
            ),
            (
                "DW_OP_lit1, DW_OP_convert 0x2, DW_OP_lit1, DW_OP_plus",
                "DW_OP_plus: type-mismatch",
            ),
            (
                "DW_OP_lit1, DW_OP_convert 0x1, DW_OP_lit1, DW_OP_convert 0x1, DW_OP_and",
                "DW_OP_and: integral-required",
            ),
            // D-dwarf-gnu-typed: gcc's DWARF 4 forms type their values as
            // the DWARF 5 operations do.
            (
                "DW_OP_lit1, DW_OP_GNU_convert 0x9",
                "DW_OP_GNU_convert: unknown-base-type",
            ),
            (
                "DW_OP_lit1, DW_OP_GNU_convert 0x2, DW_OP_lit1, DW_OP_plus",
                "DW_OP_plus: type-mismatch",
            ),
            (
                "DW_OP_GNU_regval_type 0x0 0x2, DW_OP_lit1, DW_OP_plus",
                "DW_OP_plus: type-mismatch",
            ),
            (
                "DW_OP_lit0, DW_OP_GNU_deref_type 0x4 0x2, DW_OP_lit1, DW_OP_plus",
                "DW_OP_plus: type-mismatch",
            ),
            (
                "DW_OP_GNU_const_type 0x2 0x4 0x01 0x00 0x00 0x00, DW_OP_lit1, DW_OP_plus",
                "DW_OP_plus: type-mismatch",
            ),
            (
                "DW_OP_lit1, DW_OP_GNU_reinterpret 0x2, DW_OP_lit1, DW_OP_plus",
                "DW_OP_plus: type-mismatch",
            ),
            ("DW_OP_lit1, DW_OP_skip 1", "DW_OP_skip: bad-branch"),
            (
                "DW_OP_lit1, DW_OP_bra 5, DW_OP_lit2",
                "DW_OP_bra: bad-branch",
            ),
            (
                "DW_OP_lit1, DW_OP_bra 1, DW_OP_lit2, DW_OP_lit3",
                "inconsistent-stack",
            ),
            (
                "DW_OP_lit1, DW_OP_LLVM_user DW_OP_LLVM_piece_end",
                "DW_OP_LLVM_piece_end: no-incomplete-composite",
            ),
        ] {
            let text = format!("{t}{float}");
            let d = run(&text).err().unwrap_or_else(|| panic!("{t} passed"));
            assert!(d.to_string().contains(reason), "{t}: {d}");
        }
    }
}
