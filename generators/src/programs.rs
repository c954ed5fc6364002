//! Lifetime programs: functions of a few blocks with forward branches (and
//! so all blocks reachable from the entry), defs and kills of a few
//! lifetime segments, printed as listings the lifetimes parser reads.

use proptest::prelude::*;
use std::fmt;

/// One instruction of a generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PInst {
    Def(usize),
    Kill(usize),
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PBlock {
    pub insts: Vec<PInst>,
    /// Successor blocks (all later than this one); empty for the exit.
    pub succs: Vec<usize>,
}

/// A generated function with `lifetimes` segments `!l0..`, each of object `!v0..`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub blocks: Vec<PBlock>,
    pub lifetimes: usize,
}

/// Programs of 1..=6 blocks, each with 1..=5 instructions; every block but the
/// last falls through or branches to one or two later blocks; each segment is
/// defined at most once (kills may be anywhere).
pub fn arb_program() -> impl Strategy<Value = Program> {
    (1usize..=6, 1usize..=4).prop_flat_map(|(nb, nl)| {
        let block = |b: usize| {
            let insts = prop::collection::vec(
                prop_oneof![2 => Just(None), 1 => (0..nl).prop_map(|l| Some((true, l))), 1 => (0..nl).prop_map(|l| Some((false, l)))],
                1..=5,
            );
            let later = if b + 1 < nb { (b + 1..nb).collect::<Vec<_>>() } else { Vec::new() };
            let succs = if later.is_empty() {
                Just(Vec::new()).boxed()
            } else {
                let l2 = later.clone();
                prop_oneof![
                    prop::sample::select(later.clone()).prop_map(|s| vec![s]),
                    (prop::sample::select(l2.clone()), prop::sample::select(l2)).prop_map(|(a, b)| if a == b { vec![a] } else { vec![a, b] }),
                ]
                .boxed()
            };
            (insts, succs)
        };
        let blocks: Vec<_> = (0..nb).map(block).collect();
        blocks.prop_map(move |bs| {
            let mut defined = vec![false; nl];
            let blocks = bs
                .into_iter()
                .map(|(insts, succs)| PBlock {
                    insts: insts
                        .into_iter()
                        .map(|x| match x {
                            Some((true, l)) if !defined[l] => {
                                defined[l] = true;
                                PInst::Def(l)
                            }
                            Some((_, l)) => PInst::Kill(l),
                            None => PInst::Other,
                        })
                        .collect(),
                    succs,
                })
                .collect();
            Program { blocks, lifetimes: nl }
        })
    })
    .prop_map(|mut p| {
        // Keep every block reachable from the entry: block b also falls
        // through from b - 1 when nothing earlier branches to it.
        for b in 1..p.blocks.len() {
            if !(0..b).any(|a| p.blocks[a].succs.contains(&b)) {
                let prev = &mut p.blocks[b - 1].succs;
                if prev.len() < 2 {
                    prev.push(b);
                } else {
                    prev[1] = b;
                }
            }
        }
        p
    })
}

impl fmt::Display for Program {
    /// The listing: one line per instruction, a label per block, an explicit
    /// terminator per block (line numbers: see `lines`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "define void @f() {{")?;
        for (b, block) in self.blocks.iter().enumerate() {
            writeln!(f, "b{b}:")?;
            for i in &block.insts {
                match i {
                    PInst::Def(l) => writeln!(
                        f,
                        "  call void @llvm.dbg.def(metadata !l{l}, metadata i8 %v{l})"
                    )?,
                    PInst::Kill(l) => writeln!(f, "  call void @llvm.dbg.kill(metadata !l{l})")?,
                    PInst::Other => writeln!(f, "  %t = add i8 1, 2")?,
                }
            }
            match block.succs.as_slice() {
                [] => writeln!(f, "  ret void")?,
                [s] => writeln!(f, "  br label %b{s}")?,
                [s, t, ..] => writeln!(f, "  br i1 %c, label %b{s}, label %b{t}")?,
            }
        }
        writeln!(f, "}}")?;
        for l in 0..self.lifetimes {
            writeln!(f, "!v{l} = !DILocalVariable(\"v{l}\")")?;
            writeln!(
                f,
                "!l{l} = distinct !DILifetime(object: !v{l}, location: !DIExpr(DIOpReferrer(i8)))"
            )?;
        }
        Ok(())
    }
}

impl Program {
    /// The listing line of each instruction (including terminators), block by block.
    pub fn lines(&self) -> Vec<Vec<u32>> {
        let mut line = 2; // after `define`
        self.blocks
            .iter()
            .map(|b| {
                line += 1; // the label
                let v: Vec<u32> = (0..=b.insts.len()).map(|k| line + k as u32).collect();
                line += b.insts.len() as u32 + 1;
                v
            })
            .collect()
    }

    /// The model: segment `l` is active at instruction `k` of block `b` iff
    /// some path from the entry reaches it with `l`'s last def/kill event up
    /// to and including it a def. Enumerates every path (the blocks form a
    /// DAG, so there are finitely many).
    pub fn model_active(&self, l: usize) -> Vec<Vec<bool>> {
        let mut active: Vec<Vec<bool>> = self
            .blocks
            .iter()
            .map(|b| vec![false; b.insts.len() + 1])
            .collect();
        let mut stack = vec![(0usize, false)];
        while let Some((b, mut on)) = stack.pop() {
            let block = &self.blocks[b];
            for (k, i) in block.insts.iter().enumerate() {
                match i {
                    PInst::Def(x) if *x == l => on = true,
                    PInst::Kill(x) if *x == l => on = false,
                    _ => {}
                }
                active[b][k] |= on;
            }
            active[b][block.insts.len()] |= on; // the terminator
            for &s in &block.succs {
                stack.push((s, on));
            }
        }
        active
    }

    /// The model of the block-local reading: active from the def to the first
    /// kill after it in the same block, or the block's end.
    pub fn model_block_local(&self, l: usize) -> Vec<Vec<bool>> {
        self.blocks
            .iter()
            .map(|b| {
                let mut on = false;
                let mut v = Vec::with_capacity(b.insts.len() + 1);
                for i in &b.insts {
                    match i {
                        PInst::Def(x) if *x == l => on = true,
                        PInst::Kill(x) if *x == l => on = false,
                        _ => {}
                    }
                    v.push(on);
                }
                v.push(on);
                v
            })
            .collect()
    }
}
