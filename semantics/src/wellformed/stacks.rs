//! The abstract stack before every op of an expression, kept as one
//! persistent stack: each entry is stored once, with the entry below it, and
//! a stack is its top entry. An op changes the top few entries of the stack
//! and leaves the rest, so the stacks of all the ops share their bottoms.
//!
//! Copying each stack (what [`type_stacks`] did before) costs the depth of
//! the stack per op: an expression of `N` constants then `N - 1` additions
//! holds `N^2 / 2` entries in all, and `dioptra canon` of 40 000 such ops
//! asked for 2.6 GB and aborted. Here it holds `2N - 1` entries, and
//! checking an op on a recorded stack ([`TypeStacks::check_op_on`]) costs
//! the entries the op pops and pushes.

use super::{check_observed, check_op, StackTy, TypeStack};
use crate::context::Signature;
use crate::diag::Diag;
use crate::syntax::{Expr, Op};

/// One of the stacks a [`TypeStacks`] holds (the empty stack included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackId(u32);

impl StackId {
    /// The stack with no entries.
    pub const EMPTY: StackId = StackId(u32::MAX);
}

/// An entry, the stack below it, and how many entries it and that stack
/// hold.
#[derive(Clone, Debug)]
struct Node<'a> {
    entry: StackTy<'a>,
    below: StackId,
    depth: u32,
}

/// The stacks an expression's check went through (see the module's doc).
#[derive(Clone, Debug)]
pub struct TypeStacks<'a> {
    nodes: Vec<Node<'a>>,
    /// The stack before op `i` of the expression, for each op checking
    /// reached.
    before: Vec<StackId>,
}

/// The abstract stack before each op of a well-formed prefix, as far as
/// checking gets; with the first diagnostic if it stops early.
pub fn type_stacks<'a>(expr: &'a Expr, sig: &'a Signature) -> (TypeStacks<'a>, Option<Diag>) {
    // An op pushes at most one entry.
    let mut stacks = TypeStacks {
        nodes: Vec::with_capacity(expr.ops.len()),
        before: Vec::with_capacity(expr.ops.len()),
    };
    // The recorded stack `entries` mirrors, entry by entry from the bottom.
    let mut path: Vec<StackId> = Vec::with_capacity(8);
    let r = check_observed(&expr.ops, sig, &mut |_, entries, kept| {
        path.truncate(kept);
        for entry in &entries[kept..] {
            let below = path.last().copied().unwrap_or(StackId::EMPTY);
            let id = stacks.push(entry.clone(), below);
            path.push(id);
        }
        stacks
            .before
            .push(path.last().copied().unwrap_or(StackId::EMPTY));
    });
    (stacks, r.err())
}

impl<'a> TypeStacks<'a> {
    /// The stack before op `i` of the expression, if checking reached it.
    pub fn get(&self, i: usize) -> Option<StackView<'_, 'a>> {
        Some(self.view(*self.before.get(i)?))
    }
    /// Stack `id` (of this `TypeStacks`).
    pub fn view(&self, id: StackId) -> StackView<'_, 'a> {
        StackView {
            nodes: &self.nodes,
            top: id,
        }
    }
    fn push(&mut self, entry: StackTy<'a>, below: StackId) -> StackId {
        let depth = self.view(below).len() as u32 + 1;
        let id = StackId(u32::try_from(self.nodes.len()).expect("fewer nodes than 2^32 - 1"));
        assert!(id != StackId::EMPTY, "fewer nodes than 2^32 - 1");
        self.nodes.push(Node {
            entry,
            below,
            depth,
        });
        id
    }
    /// `check_op` of `op` on stack `before`, recording the stack after it.
    /// The op is checked on a stack of the entries it can pop (the top
    /// three, or `N` for `DIOpComposite(N, T)`), so that this costs the
    /// entries it pops and pushes, not the depth of the stack. Should an op
    /// find that stack too short where the whole one is deeper, it is
    /// checked again on the whole stack: the answer is `check_op`'s on the
    /// whole stack either way.
    pub fn check_op_on(
        &mut self,
        before: StackId,
        op: &Op,
        index: usize,
        last: bool,
        sig: &Signature,
    ) -> Result<StackId, Diag> {
        let pops = match op {
            Op::Composite(n, _) => *n as usize,
            _ => 3,
        };
        self.check_op_popping(before, op, index, last, sig, pops)
    }
    /// [`Self::check_op_on`] on a stack of the top `pops` entries first.
    fn check_op_popping(
        &mut self,
        before: StackId,
        op: &Op,
        index: usize,
        last: bool,
        sig: &Signature,
        pops: usize,
    ) -> Result<StackId, Diag> {
        let depth = self.view(before).len();
        let k = pops.min(depth);
        match self.check_top(before, k, op, index, last, sig) {
            Err(d) if d.reason == "stack-underflow" && k < depth => {
                self.check_top(before, depth, op, index, last, sig)
            }
            r => r,
        }
    }
    /// `check_op` on the top `k` entries of `before`.
    fn check_top(
        &mut self,
        before: StackId,
        k: usize,
        op: &Op,
        index: usize,
        last: bool,
        sig: &Signature,
    ) -> Result<StackId, Diag> {
        // The top `k` entries, bottom first; `ids[j]`: the stack under the
        // top `j` of them.
        let view = self.view(before);
        let mut ids = Vec::with_capacity(k + 1);
        let mut entries: Vec<StackTy> = Vec::with_capacity(k + 1);
        let mut at = before;
        ids.push(at);
        for _ in 0..k {
            let n = view.node(at).expect("k is at most the depth");
            entries.push(n.entry.clone());
            at = n.below;
            ids.push(at);
        }
        entries.reverse();
        let mut st = TypeStack::new(sig, entries);
        check_op(&mut st, op, index, last)?;
        // The op left the lowest `kept` of the `k` entries in place, and the
        // stack under them.
        let kept = st.kept();
        let mut top = ids[k - kept];
        for entry in st.entries.drain(kept..) {
            top = self.push(entry.into_owned(), top);
        }
        Ok(top)
    }
}

/// One stack of a [`TypeStacks`].
#[derive(Clone, Copy, Debug)]
pub struct StackView<'s, 'a> {
    nodes: &'s [Node<'a>],
    top: StackId,
}

impl<'s, 'a> StackView<'s, 'a> {
    /// Which stack this is.
    pub fn id(&self) -> StackId {
        self.top
    }
    fn node(&self, id: StackId) -> Option<&'s Node<'a>> {
        (id != StackId::EMPTY).then(|| &self.nodes[id.0 as usize])
    }
    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.node(self.top).map_or(0, |n| n.depth as usize)
    }
    pub fn is_empty(&self) -> bool {
        self.top == StackId::EMPTY
    }
    /// The top entry.
    pub fn top(&self) -> Option<&'s StackTy<'a>> {
        self.node(self.top).map(|n| &n.entry)
    }
    /// The entries from the top down.
    pub fn iter(&self) -> impl Iterator<Item = &'s StackTy<'a>> + 's {
        let nodes = self.nodes;
        let mut at = self.top;
        std::iter::from_fn(move || {
            let n = (at != StackId::EMPTY).then(|| &nodes[at.0 as usize])?;
            at = n.below;
            Some(&n.entry)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_expr;
    use crate::types::Type;

    /// An op that pops more entries than the stack it is first checked on
    /// holds is checked again on the whole stack: the same answer as with
    /// room for all its inputs.
    #[test]
    fn an_op_short_of_inputs_is_checked_again_on_the_whole_stack() {
        let sig = Signature::default();
        let e = parse_expr(
            "DIExpr(DIOpConstant(i8 1), DIOpConstant(i8 2), DIOpConstant(i8 3), \
             DIOpConstant(i8 4), DIOpComposite(3, i24))",
        )
        .unwrap();
        let (mut stacks, err) = type_stacks(&e, &sig);
        assert!(err.is_some(), "two entries are left: not an expression");
        let before = stacks.get(4).unwrap().id();
        let entries = |s: &TypeStacks, id| -> Vec<Type> {
            s.view(id)
                .iter()
                .map(|e| e.ty.clone().into_owned())
                .collect()
        };
        for pops in [0, 1, 2, 3, 9] {
            let after = stacks
                .check_op_popping(before, &e.ops[4], 4, false, &sig, pops)
                .unwrap_or_else(|d| panic!("popping {pops}: {d}"));
            // The composite on top of the one constant under its parts.
            assert_eq!(
                entries(&stacks, after),
                [Type::Int(24), Type::Int(8)],
                "popping {pops}"
            );
        }
        // Short of parts however it is checked.
        let add = parse_expr("DIExpr(DIOpConstant(i8 1), DIOpComposite(2, i16))").unwrap();
        let (mut stacks, _) = type_stacks(&add, &sig);
        let before = stacks.get(1).unwrap().id();
        for pops in [0, 1, 2] {
            let d = stacks
                .check_op_popping(before, &add.ops[1], 1, true, &sig, pops)
                .unwrap_err();
            assert_eq!(d.reason, "stack-underflow", "popping {pops}: {d}");
        }
    }
}
