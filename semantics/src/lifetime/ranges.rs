//! Where each bounded lifetime segment is active.
//!
//! Spec, `DILifetime`: "A bounded lifetime segment is termed active if the
//! current program location's instruction is in the range covered. The call to
//! the `llvm.dbg.def` intrinsic which specifies the `DILifetime` is the start
//! of the range, which extends along all forward control flow paths until
//! either a call to a `llvm.dbg.kill` intrinsic which specifies the same
//! `DILifetime`, or to the end of an exit basic block."
//!
//! DECISION (D-range-half-open): the range includes its `llvm.dbg.def` and
//! excludes the `llvm.dbg.kill` that ends it: at the def the segment is
//! active, at the kill it no longer is.
//!
//! Each range is found by a walk from its def that stops at the segment's
//! kills, visiting each block entry once; the work is proportional to the size
//! of the range, so computing every range is linear in the output.

use super::listing::{InstKind, Module};
use std::collections::{BTreeMap, BTreeSet};

/// How far a def extends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reading {
    /// Along all forward control-flow paths (the normative rule).
    #[default]
    ControlFlow,
    /// After LiveDebugValues (the spec's TODO on `DILifetime`).
    ///
    /// DECISION (D-block-local): the TODO says a def "extends either to
    /// exactly one `llvm.dbg.def` in the same basic block, or to the end of the
    /// basic block"; read as: to the first kill of the segment later in the
    /// same block, or to the end of the block, without following control flow
    /// (errata register, E-livedebugvalues-todo).
    BlockLocal,
}

/// The defs and kills of each lifetime, by instruction index.
#[derive(Clone, Debug, Default)]
pub struct Intrinsics {
    pub defs: BTreeMap<String, Vec<usize>>,
    pub kills: BTreeMap<String, Vec<usize>>,
    pub labels: BTreeMap<String, Vec<usize>>,
}

impl Intrinsics {
    pub fn of(m: &Module) -> Intrinsics {
        let mut x = Intrinsics::default();
        for (i, inst) in m.insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Def { lifetime, .. } => {
                    x.defs.entry(lifetime.clone()).or_default().push(i)
                }
                InstKind::Kill { lifetime } => x.kills.entry(lifetime.clone()).or_default().push(i),
                InstKind::Label { code } => x.labels.entry(code.clone()).or_default().push(i),
                _ => {}
            }
        }
        x
    }
    /// Is the lifetime bounded (referenced by a def or a kill)?
    pub fn is_bounded(&self, lifetime: &str) -> bool {
        self.defs.contains_key(lifetime) || self.kills.contains_key(lifetime)
    }
}

/// A walk of the range of one segment.
pub struct Walk {
    /// The instructions where the segment is active.
    pub active: Vec<usize>,
    /// The kills the walk stopped at (reached without passing another kill).
    pub kills_reached: BTreeSet<usize>,
}

/// Reusable scratch space for walks (a stamp per block entry).
pub struct Walker {
    stamp: Vec<u32>,
    inst_stamp: Vec<u32>,
    round: u32,
    block_base: Vec<usize>,
}

impl Walker {
    pub fn new(m: &Module) -> Walker {
        let mut block_base = Vec::with_capacity(m.functions.len());
        let mut n = 0;
        for f in &m.functions {
            block_base.push(n);
            n += f.blocks.len();
        }
        Walker {
            stamp: vec![0; n],
            inst_stamp: vec![0; m.insts.len()],
            round: 0,
            block_base,
        }
    }

    /// The range of a segment defined at `def` and killed at `kills`.
    pub fn walk(&mut self, m: &Module, def: usize, kills: &[usize], reading: Reading) -> Walk {
        self.round += 1;
        let round = self.round;
        let kill_set: BTreeSet<usize> = kills.iter().copied().collect();
        let mut w = Walk {
            active: Vec::new(),
            kills_reached: BTreeSet::new(),
        };
        let f = &m.functions[m.insts[def].func];
        let base = self.block_base[m.insts[def].func];
        let mut work = vec![(m.insts[def].block, def)];
        while let Some((b, start)) = work.pop() {
            let block = &f.blocks[b];
            let mut killed = false;
            for i in start..block.end {
                if kill_set.contains(&i) && i != def {
                    w.kills_reached.insert(i);
                    killed = true;
                    break;
                }
                if self.inst_stamp[i] != round {
                    self.inst_stamp[i] = round;
                    w.active.push(i);
                }
            }
            if killed || block.exit || reading == Reading::BlockLocal {
                continue;
            }
            for &s in &block.succs {
                if self.stamp[base + s] != round {
                    self.stamp[base + s] = round;
                    work.push((s, f.blocks[s].first));
                }
            }
        }
        w.active.sort_unstable();
        w
    }

    /// Plain control-flow reachability from `from` (ignoring kills).
    pub fn reachable(&mut self, m: &Module, from: usize, to: usize) -> bool {
        if m.insts[from].func != m.insts[to].func {
            return false;
        }
        let (fb, tb) = (m.insts[from].block, m.insts[to].block);
        if fb == tb && to >= from {
            return true;
        }
        self.round += 1;
        let round = self.round;
        let f = &m.functions[m.insts[from].func];
        let base = self.block_base[m.insts[from].func];
        let mut work: Vec<usize> = if f.blocks[fb].exit {
            Vec::new()
        } else {
            f.blocks[fb].succs.clone()
        };
        while let Some(b) = work.pop() {
            if self.stamp[base + b] == round {
                continue;
            }
            self.stamp[base + b] = round;
            if b == tb {
                return true;
            }
            if !f.blocks[b].exit {
                work.extend(f.blocks[b].succs.iter().copied());
            }
        }
        false
    }
}

/// Every bounded segment's active instructions.
pub fn all_ranges(m: &Module, x: &Intrinsics, reading: Reading) -> BTreeMap<String, Vec<usize>> {
    let mut walker = Walker::new(m);
    let mut out = BTreeMap::new();
    for (lt, defs) in &x.defs {
        let kills = x.kills.get(lt).map(Vec::as_slice).unwrap_or(&[]);
        let mut active: Vec<usize> = Vec::new();
        for &d in defs {
            active.extend(walker.walk(m, d, kills, reading).active);
        }
        active.sort_unstable();
        active.dedup();
        out.insert(lt.clone(), active);
    }
    out
}

/// For each instruction, the bounded segments active there.
pub fn active_at(m: &Module, ranges: &BTreeMap<String, Vec<usize>>) -> Vec<Vec<String>> {
    let mut at = vec![Vec::new(); m.insts.len()];
    for (lt, r) in ranges {
        for &i in r {
            at[i].push(lt.clone());
        }
    }
    at
}
