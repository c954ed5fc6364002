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

/// DWARF operations, in order: `front` reversed, then `back`. Most code
/// only grows at the back and never has a front: it is then a `Vec` as
/// before, and the front costs a word (a fragment's code is moved on every
/// op, and a wider `Code` made those moves cost more than the deque saved).
/// Not iterable by value on purpose: code is joined to other code with
/// [`Code::append`] (which moves the shorter), never copied into it op by
/// op.
#[derive(Clone, Debug, Default)]
pub(super) struct Code {
    back: Vec<DwarfOp>,
    // Boxed on purpose: one word where a `Vec` is three, and most code
    // never has a front (measured on the pipeline's lowerings: two `Vec`s
    // cost 18% more instructions than the one `Vec` before, a `VecDeque`
    // 10%, this 5%).
    #[allow(clippy::box_collection)]
    front: Option<Box<Vec<DwarfOp>>>,
}

impl Code {
    const SHORT: usize = 64;
    pub fn new() -> Code {
        Code::default()
    }
    /// Empty code with room for `n` ops at the back.
    pub fn with_capacity(n: usize) -> Code {
        Code::from(Vec::with_capacity(n))
    }
    pub fn push(&mut self, op: DwarfOp) {
        self.back.push(op);
    }
    /// `op`, then this code.
    pub fn push_front(&mut self, op: DwarfOp) {
        self.front.get_or_insert_default().push(op);
    }
    fn front_len(&self) -> usize {
        self.front.as_ref().map_or(0, |f| f.len())
    }
    /// This code, then `other`: moves the shorter of the two, or `other`
    /// when it is short (at most [`Code::SHORT`] ops: a move of a bounded
    /// length keeps the lowering linear, and keeps the common code of a
    /// few dozen ops without a front).
    pub fn append(&mut self, mut other: Code) {
        if other.len() > self.len().max(Self::SHORT) {
            // `self` goes in front of `other`: reversed onto its front.
            let front = other.front.get_or_insert_default();
            front.extend(self.back.drain(..).rev());
            if let Some(mine) = self.front.take() {
                front.extend(*mine);
            }
            *self = other;
        } else {
            if let Some(theirs) = other.front.take() {
                self.back.extend(theirs.into_iter().rev());
            }
            self.back.append(&mut other.back);
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = &DwarfOp> {
        let front = self.front.as_deref().map_or(&[][..], |f| &f[..]);
        front.iter().rev().chain(&self.back)
    }
    pub fn len(&self) -> usize {
        self.front_len() + self.back.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn into_vec(self) -> Vec<DwarfOp> {
        let Code { back, front } = self;
        let Some(front) = front else {
            return back;
        };
        let mut v = *front;
        v.reverse();
        v.extend(back);
        v
    }
}

impl Extend<DwarfOp> for Code {
    fn extend<I: IntoIterator<Item = DwarfOp>>(&mut self, ops: I) {
        self.back.extend(ops);
    }
}

impl<const N: usize> From<[DwarfOp; N]> for Code {
    /// With room for a few more ops: code made of one or two grows.
    fn from(ops: [DwarfOp; N]) -> Code {
        let mut v = Vec::with_capacity(N.max(4));
        v.extend(ops);
        Code::from(v)
    }
}

impl From<Vec<DwarfOp>> for Code {
    fn from(back: Vec<DwarfOp>) -> Code {
        Code { back, front: None }
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

    fn lit(v: u64) -> DwarfOp {
        DwarfOp::with(c::DW_OP_constu, [Operand::Uleb(v)])
    }

    /// Code with ops at its front too: `n` ops from `from`, every other one
    /// pushed at the front.
    fn mixed(from: u64, n: u64) -> Code {
        let mid = from + n / 2;
        let mut code = Code::new();
        for v in (from..mid).rev() {
            code.push_front(lit(v));
        }
        code.extend((mid..from + n).map(lit));
        code
    }

    /// Appending keeps the order whichever side is moved, with ops at
    /// either end of either side.
    #[test]
    fn appending_keeps_the_order() {
        for (a, b) in [(0..3, 3..10), (0..7, 7..9), (0..0, 0..4), (0..4, 4..4)] {
            let mut code = lits(a.clone());
            code.append(lits(b.clone()));
            assert_eq!(
                code.into_vec(),
                lits(a.start..b.end).into_vec(),
                "{a:?} then {b:?}"
            );
        }
        for (n, m) in [
            (3, 8),
            (8, 3),
            (5, 5),
            (0, 6),
            (6, 0),
            (1, 1),
            (3, 100),
            (100, 3),
            (90, 100),
        ] {
            let mut code = mixed(0, n);
            code.append(mixed(n, m));
            assert_eq!(code.len(), (n + m) as usize);
            let got: Vec<DwarfOp> = code.iter().cloned().collect();
            assert_eq!(got, lits(0..n + m).into_vec(), "{n} then {m}");
            assert_eq!(code.into_vec(), lits(0..n + m).into_vec(), "{n} then {m}");
        }
        let mut code = lits(1..3);
        code.push_front(lit(0));
        code.push(lit(3));
        assert_eq!(code.into_vec(), lits(0..4).into_vec());
    }
}
