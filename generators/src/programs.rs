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
    /// Successor blocks; empty for the exit. Forward edges, plus back-edges
    /// (loops) to earlier blocks.
    pub succs: Vec<usize>,
}

/// A generated function with `lifetimes` segments `!l0..`, each of object `!v0..`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub blocks: Vec<PBlock>,
    pub lifetimes: usize,
}

/// Programs of 1..=6 blocks, each with 1..=5 instructions; every block but the
/// last falls through or branches to one or two later blocks, and some blocks
/// also branch back to an earlier one (a loop); each segment is defined at
/// most once (kills may be anywhere).
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
    .prop_flat_map(|p| {
        let n = p.blocks.len();
        // A back-edge from some block b > 0 with one successor to a block <= b.
        (Just(p), prop::collection::vec((0..n.max(1), 0..n.max(1)), 0..=2))
    })
    .prop_map(|(mut p, loops)| {
        for (b, to) in loops {
            let n = p.blocks.len();
            if b > 0 && b + 1 < n && to <= b && p.blocks[b].succs.len() == 1 {
                p.blocks[b].succs.push(to);
            }
        }
        p
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
        let defs = |l: usize| {
            vec![format!(
                "call void @llvm.dbg.def(metadata !l{l}, metadata i8 %v{l})"
            )]
        };
        let kills = |l: usize| vec![format!("call void @llvm.dbg.kill(metadata !l{l})")];
        let mut md = String::new();
        for l in 0..self.lifetimes {
            md += &format!("!v{l} = !DILocalVariable(\"v{l}\")\n");
            md += &format!("!l{l} = distinct !DILifetime(object: !v{l}, location: !DIExpr(DIOpReferrer(i8)))\n");
        }
        f.write_str(&self.render(&defs, &kills, &md))
    }
}

impl Program {
    /// The listing with each def and kill of segment `l` replaced by the
    /// lines `defs(l)` / `kills(l)`, and `metadata` appended. Opaque
    /// instructions are named `%p0, %p1, ...` in order, so the same point can
    /// be found in listings rendered differently (see `opaque_lines`).
    pub fn render(
        &self,
        defs: &dyn Fn(usize) -> Vec<String>,
        kills: &dyn Fn(usize) -> Vec<String>,
        metadata: &str,
    ) -> String {
        self.render_function("f", defs, kills) + metadata
    }

    /// The function `@name` alone (no metadata).
    pub fn render_function(
        &self,
        name: &str,
        defs: &dyn Fn(usize) -> Vec<String>,
        kills: &dyn Fn(usize) -> Vec<String>,
    ) -> String {
        let mut f = format!("define void @{name}() {{\n");
        let mut n = 0;
        for (b, block) in self.blocks.iter().enumerate() {
            f += &format!("b{b}:\n");
            for i in &block.insts {
                let lines = match i {
                    PInst::Def(l) => defs(*l),
                    PInst::Kill(l) => kills(*l),
                    PInst::Other => {
                        n += 1;
                        vec![format!("%p{} = add i8 1, 2", n - 1)]
                    }
                };
                for l in lines {
                    f += &format!("  {l}\n");
                }
            }
            f += &match block.succs.as_slice() {
                [] => "  ret void\n".to_string(),
                [s] => format!("  br label %b{s}\n"),
                [s, t, ..] => format!("  br i1 %c, label %b{s}, label %b{t}\n"),
            };
        }
        f += "}\n";
        f
    }

    /// The line of each opaque instruction `%pK` in a rendered listing.
    pub fn opaque_lines(listing: &str) -> Vec<u32> {
        listing
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with("%p"))
            .map(|(i, _)| i as u32 + 1)
            .collect()
    }

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
    /// to and including it a def. Explores the product of the control-flow
    /// graph with the def/kill state machine, (block, active?) pairs from the
    /// entry: finite even with loops.
    pub fn model_active(&self, l: usize) -> Vec<Vec<bool>> {
        let mut active: Vec<Vec<bool>> = self
            .blocks
            .iter()
            .map(|b| vec![false; b.insts.len() + 1])
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![(0usize, false)];
        while let Some((b, mut on)) = stack.pop() {
            if !seen.insert((b, on)) {
                continue;
            }
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

    /// The program as a listing of the multi-location proposal's calls:
    /// each def of segment `l` a key call of variable `!(1 + l % 2)`, each
    /// kill of an even segment an added location for the key call rendered
    /// last, of an odd one the removal of the call rendered last. Tokens
    /// are `%t0, %t1, ...` in order; a token may not dominate its use (the
    /// law drops such calls, see `law_multiloc_translation_agrees`).
    pub fn render_multiloc(&self) -> String {
        use std::cell::RefCell;
        let state = RefCell::new((0usize, None::<usize>, None::<usize>)); // (next, last key, last call)
        let defs = |l: usize| {
            let mut st = state.borrow_mut();
            let t = st.0;
            st.0 += 1;
            st.1 = Some(t);
            st.2 = Some(t);
            vec![format!(
                "%t{t} = call token @llvm.dbg.value.new(metadata i32 %v{l}, metadata !{}, metadata !DIExpression())",
                1 + l % 2
            )]
        };
        let kills = |l: usize| {
            let mut st = state.borrow_mut();
            let t = st.0;
            st.0 += 1;
            if l.is_multiple_of(2) {
                let Some(k) = st.1 else { return Vec::new() };
                st.2 = Some(t);
                vec![format!(
                    "%t{t} = call token @llvm.dbg.value.add(token %t{k}, metadata i32 %w{l}, metadata !DIExpression(DW_OP_plus_uconst, {l}, DW_OP_stack_value))"
                )]
            } else {
                let Some(k) = st.2 else { return Vec::new() };
                vec![format!("call token @llvm.dbg.value.delete(token %t{k})")]
            }
        };
        self.render(
            &defs,
            &kills,
            "!1 = !DILocalVariable(name: \"x\")\n!2 = !DILocalVariable(name: \"y\")\n",
        )
    }
}

/// A module of several generated functions, each with its own segments
/// (`!f<K>l<L>` of objects `!f<K>v<L>`), printed one after the other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiProgram {
    pub functions: Vec<Program>,
}

/// Modules of 1..=3 functions as [`arb_program`] makes them.
pub fn arb_multi_program() -> impl Strategy<Value = MultiProgram> {
    prop::collection::vec(arb_program(), 1..=3).prop_map(|functions| MultiProgram { functions })
}

impl MultiProgram {
    /// The name of segment `l` of function `k`.
    pub fn segment(k: usize, l: usize) -> String {
        format!("!f{k}l{l}")
    }
    /// The listing line of each instruction, by function and block.
    pub fn lines(&self) -> Vec<Vec<Vec<u32>>> {
        let mut offset = 0;
        self.functions
            .iter()
            .map(|p| {
                let rows: Vec<Vec<u32>> = p
                    .lines()
                    .into_iter()
                    .map(|r| r.into_iter().map(|x| x + offset).collect())
                    .collect();
                // `define`, the blocks (label, instructions, terminator), `}`.
                offset += 2 + p
                    .blocks
                    .iter()
                    .map(|b| b.insts.len() as u32 + 2)
                    .sum::<u32>();
                rows
            })
            .collect()
    }
}

impl fmt::Display for MultiProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut md = String::new();
        for (k, p) in self.functions.iter().enumerate() {
            let defs = |l: usize| {
                vec![format!(
                    "call void @llvm.dbg.def(metadata {}, metadata i8 %v{l})",
                    MultiProgram::segment(k, l)
                )]
            };
            let kills = |l: usize| {
                vec![format!(
                    "call void @llvm.dbg.kill(metadata {})",
                    MultiProgram::segment(k, l)
                )]
            };
            f.write_str(&p.render_function(&format!("f{k}"), &defs, &kills))?;
            for l in 0..p.lifetimes {
                md += &format!("!f{k}v{l} = !DILocalVariable(\"v{l}\")\n");
                md += &format!(
                    "{} = distinct !DILifetime(object: !f{k}v{l}, location: !DIExpr(DIOpReferrer(i8)))\n",
                    MultiProgram::segment(k, l)
                );
            }
        }
        f.write_str(&md)
    }
}
