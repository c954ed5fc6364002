//! The DWARF a fragment's lowering has assembled so far.
//!
//! An op puts its operands' code one after the other, and an operand's code
//! can be the long one: `N` constants then `N - 1` additions put each
//! constant in front of the code of all the additions after it, and a chain
//! of `DIOpDeref`s in a non-default address space puts the address space in
//! front of the code of every deref before it. In a `Vec` each of those
//! copied the long code (40 000 ops took 2 s, 200 000 took 100 s). Here
//! code can grow at either end, and joining two codes moves the shorter,
//! so the lowering costs `N log N` moves at most.

use dioptra_semantics::dwarf::op::DwarfOp;
use std::collections::VecDeque;

/// DWARF operations, in order. Not iterable by value on purpose: code is
/// joined to other code with [`Code::append`] (which moves the shorter),
/// never copied into it op by op.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Code(VecDeque<DwarfOp>);

impl Code {
    pub fn new() -> Code {
        Code(VecDeque::new())
    }
    pub fn push(&mut self, op: DwarfOp) {
        self.0.push_back(op);
    }
    /// `op`, then this code.
    pub fn push_front(&mut self, op: DwarfOp) {
        self.0.push_front(op);
    }
    /// This code, then `other`: moves the shorter of the two.
    pub fn append(&mut self, mut other: Code) {
        if other.0.len() > self.0.len() {
            while let Some(op) = self.0.pop_back() {
                other.0.push_front(op);
            }
            *self = other;
        } else {
            self.0.append(&mut other.0);
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = &DwarfOp> {
        self.0.iter()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn into_vec(self) -> Vec<DwarfOp> {
        self.0.into()
    }
}

impl Extend<DwarfOp> for Code {
    fn extend<I: IntoIterator<Item = DwarfOp>>(&mut self, ops: I) {
        self.0.extend(ops);
    }
}

impl<const N: usize> From<[DwarfOp; N]> for Code {
    fn from(ops: [DwarfOp; N]) -> Code {
        Code(VecDeque::from(ops))
    }
}

impl From<Vec<DwarfOp>> for Code {
    fn from(ops: Vec<DwarfOp>) -> Code {
        Code(VecDeque::from(ops))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dioptra_semantics::dwarf::op::Operand;
    use gimli::constants as c;

    fn lits(r: std::ops::Range<u64>) -> Code {
        let mut code = Code::new();
        code.extend(r.map(|v| DwarfOp::with(c::DW_OP_constu, [Operand::Uleb(v)])));
        code
    }

    /// Appending keeps the order whichever side is moved.
    #[test]
    fn appending_keeps_the_order() {
        for (a, b) in [(0..3, 3..10), (0..7, 7..9), (0..0, 0..4), (0..4, 4..4)] {
            let mut code = lits(a.clone());
            code.append(lits(b.clone()));
            assert_eq!(code, lits(a.start..b.end), "{a:?} then {b:?}");
        }
        let mut code = lits(1..3);
        code.push_front(DwarfOp::with(c::DW_OP_constu, [Operand::Uleb(0)]));
        code.push(DwarfOp::with(c::DW_OP_constu, [Operand::Uleb(3)]));
        assert_eq!(code.into_vec(), lits(0..4).into_vec());
    }
}
