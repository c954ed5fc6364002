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

use super::listing::{id_prefix, IdMap, InstKind, Module, Tag};
use std::collections::BTreeSet;

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
    pub defs: IdMap<Vec<usize>>,
    pub kills: IdMap<Vec<usize>>,
    pub labels: IdMap<Vec<usize>>,
}

impl Intrinsics {
    pub fn of(m: &Module) -> Intrinsics {
        // Room for a def and a kill per lifetime and a label per code, the
        // common case (see `NodeMap::count_of`).
        let lifetimes = m.nodes.count_of(&[Tag::Lifetime]);
        let (mut defs, mut kills, mut labels) = (
            Vec::with_capacity(lifetimes),
            Vec::with_capacity(lifetimes),
            Vec::with_capacity(m.nodes.count_of(Tag::CODES)),
        );
        for (i, inst) in m.insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Def { lifetime, .. } => defs.push((lifetime.as_str(), i)),
                InstKind::Kill { lifetime } => kills.push((lifetime.as_str(), i)),
                InstKind::Label { code } => labels.push((code.as_str(), i)),
                _ => {}
            }
        }
        Intrinsics {
            defs: grouped(defs),
            kills: grouped(kills),
            labels: grouped(labels),
        }
    }
    /// Is the lifetime bounded (referenced by a def or a kill)?
    pub fn is_bounded(&self, lifetime: &str) -> bool {
        self.bounded_defs(lifetime).is_some()
    }
    /// The defs of a bounded lifetime (none when only kills name it);
    /// `None` when it is not bounded. One look-up for a def's lifetime,
    /// where `is_bounded` and then the defs would be two.
    pub fn bounded_defs(&self, lifetime: &str) -> Option<&[usize]> {
        match self.defs.get(lifetime) {
            Some(d) => Some(d),
            None => self.kills.contains_key(lifetime).then_some(&[]),
        }
    }
}

/// (name, instruction) pairs as each name's instructions, in order: sorted
/// once (by [`id_prefix`] first) and built in one pass (an entry per pair,
/// each allocating its key, cost more than the rest of the analysis at
/// 100 000 instructions).
fn grouped(pairs: Vec<(&str, usize)>) -> IdMap<Vec<usize>> {
    let mut pairs: Vec<(u64, &str, usize)> = pairs
        .into_iter()
        .map(|(name, i)| (id_prefix(name), name, i))
        .collect();
    pairs.sort_unstable();
    let mut out: Vec<(String, Vec<usize>)> = Vec::with_capacity(pairs.len());
    let mut last = None;
    for (key, name, i) in pairs {
        match out.last_mut() {
            Some((n, v)) if last == Some(key) && n == name => v.push(i),
            _ => out.push((name.to_string(), vec![i])),
        }
        last = Some(key);
    }
    out.into_iter().collect()
}

/// A walk of the range of one segment.
pub struct Walk {
    /// Where the segment is active, as runs.
    pub runs: Runs,
    /// The kills the walk stopped at (reached without passing another kill).
    pub kills_reached: BTreeSet<usize>,
}

/// Reusable scratch space for walks (a stamp per block entry).
pub struct Walker {
    stamp: Vec<u32>,
    round: u32,
    block_base: Vec<usize>,
    /// The work list and the sorted kills of the walk under way, kept from
    /// one walk to the next instead of allocated and grown by each (with
    /// the graph check's edge lists, which it borrows now, 9% of the
    /// check's instructions on the bench's 10 000-instruction listing).
    work: Vec<(usize, usize)>,
    kill_set: Vec<usize>,
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
            round: 0,
            block_base,
            work: Vec::new(),
            kill_set: Vec::new(),
        }
    }

    /// The range of a segment defined at `def` and killed at `kills`.
    pub fn walk(&mut self, m: &Module, def: usize, kills: &[usize], reading: Reading) -> Walk {
        let mut runs = Vec::new();
        let kills_reached = self.traverse(m, def, kills, reading, Some(&mut runs));
        Walk {
            runs: normalize(runs),
            kills_reached,
        }
    }

    /// The kills a walk from `def` stops at ([`Walk::kills_reached`]),
    /// without listing the range.
    pub fn kills_reached(&mut self, m: &Module, def: usize, kills: &[usize]) -> BTreeSet<usize> {
        self.traverse(m, def, kills, Reading::ControlFlow, None)
    }

    /// The walk: each block entry visited once, stopping at kills; the
    /// stretch of each block the segment is active in pushed to `active`
    /// when it is given (a block entered twice, at the def and from a loop,
    /// gives two stretches that overlap).
    fn traverse(
        &mut self,
        m: &Module,
        def: usize,
        kills: &[usize],
        reading: Reading,
        mut active: Option<&mut Runs>,
    ) -> BTreeSet<usize> {
        self.round += 1;
        let round = self.round;
        let mut kill_set = std::mem::take(&mut self.kill_set);
        kill_set.clear();
        kill_set.extend_from_slice(kills);
        kill_set.sort_unstable();
        let mut reached = BTreeSet::new();
        let f = &m.functions[m.insts[def].func];
        let base = self.block_base[m.insts[def].func];
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        work.push((m.insts[def].block, def));
        while let Some((b, start)) = work.pop() {
            let block = &f.blocks[b];
            // The first kill of the segment at or after `start` in this
            // block (the def itself does not end its own range).
            let from = kill_set.partition_point(|&k| k < start);
            let kill = kill_set[from..]
                .iter()
                .copied()
                .find(|&k| k != def)
                .filter(|&k| k < block.end);
            if let Some(active) = active.as_deref_mut() {
                let end = kill.unwrap_or(block.end);
                if start < end {
                    active.push((start, end));
                }
            }
            if let Some(k) = kill {
                reached.insert(k);
                continue;
            }
            if block.exit || reading == Reading::BlockLocal {
                continue;
            }
            for &s in &block.succs {
                if self.stamp[base + s] != round {
                    self.stamp[base + s] = round;
                    work.push((s, f.blocks[s].first));
                }
            }
        }
        self.work = work;
        self.kill_set = kill_set;
        reached
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

/// Where one segment is active: half-open runs `[start, end)` of
/// instruction indices, sorted, disjoint and not touching. A segment's
/// range is kept as runs, not as the list of its instructions: a listing
/// where N segments are all active over N instructions would otherwise hold
/// N^2 entries (a 2 MB listing once needed gigabytes).
pub type Runs = Vec<(usize, usize)>;

/// Stretches `[start, end)` in any order, overlapping or touching, as
/// runs (sorted, disjoint, not touching).
fn normalize(mut stretches: Runs) -> Runs {
    stretches.sort_unstable();
    let mut out: Runs = Vec::with_capacity(stretches.len());
    for (a, b) in stretches {
        match out.last_mut() {
            Some(r) if r.1 >= a => r.1 = r.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// Every bounded segment's range, as runs.
pub fn all_ranges(m: &Module, x: &Intrinsics, reading: Reading) -> IdMap<Runs> {
    let mut walker = Walker::new(m);
    let mut out = IdMap::default();
    for (lt, defs) in &x.defs {
        let kills = x.kills.get(lt).map(Vec::as_slice).unwrap_or(&[]);
        let runs = if defs.len() == 1 {
            walker.walk(m, defs[0], kills, reading).runs
        } else {
            normalize(
                defs.iter()
                    .flat_map(|&d| walker.walk(m, d, kills, reading).runs)
                    .collect(),
            )
        };
        out.insert(lt.clone(), runs);
    }
    out
}

/// Is `point` inside `runs`?
pub fn is_active(runs: &[(usize, usize)], point: usize) -> bool {
    let k = runs.partition_point(|r| r.1 <= point);
    runs.get(k).is_some_and(|r| r.0 <= point)
}

/// The segments active at each instruction, visited in increasing order
/// of instruction: the set changes only where a run starts or ends, so a
/// visit of every point costs the number of points plus the number of runs
/// (plus what the caller does with each set), never a set per point.
pub struct Sweep<'a> {
    /// (point, starts?, segment), by point.
    events: Vec<(usize, bool, &'a str)>,
    next: usize,
    at: Option<usize>,
    active: BTreeSet<&'a str>,
}

impl<'a> Sweep<'a> {
    pub fn new(ranges: &'a IdMap<Runs>) -> Sweep<'a> {
        let mut events = Vec::new();
        for (lt, runs) in ranges {
            for &(a, b) in runs {
                events.push((a, true, lt.as_str()));
                events.push((b, false, lt.as_str()));
            }
        }
        events.sort_unstable();
        Sweep {
            events,
            next: 0,
            at: None,
            active: BTreeSet::new(),
        }
    }

    /// The segments active at `point`. Points asked for in increasing
    /// order cost their events only; a point below the last one restarts
    /// the sweep.
    pub fn at(&mut self, point: usize) -> &BTreeSet<&'a str> {
        if self.at.is_some_and(|p| p > point) {
            self.next = 0;
            self.active.clear();
        }
        self.at = Some(point);
        while let Some(&(p, starts, lt)) = self.events.get(self.next) {
            if p > point {
                break;
            }
            if starts {
                self.active.insert(lt);
            } else {
                self.active.remove(lt);
            }
            self.next += 1;
        }
        &self.active
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretches_become_runs_overlaps_included() {
        assert_eq!(normalize(vec![]), Vec::<(usize, usize)>::new());
        assert_eq!(
            normalize(vec![(7, 9), (1, 3), (2, 4), (5, 6), (7, 8)]),
            vec![(1, 4), (5, 6), (7, 9)]
        );
        // Touching stretches are one run.
        assert_eq!(normalize(vec![(3, 5), (1, 3)]), vec![(1, 5)]);
        let r = normalize(vec![(1, 4), (5, 6)]);
        let inside: Vec<usize> = (0..8).filter(|&p| is_active(&r, p)).collect();
        assert_eq!(inside, vec![1, 2, 3, 5]);
    }

    #[test]
    fn a_sweep_gives_each_points_set_in_either_direction() {
        let ranges: IdMap<Runs> = [
            ("!a".to_string(), vec![(0, 2), (4, 6)]),
            ("!b".to_string(), vec![(1, 5)]),
        ]
        .into_iter()
        .collect();
        let want = |p: usize| -> Vec<&str> {
            ranges
                .iter()
                .filter(|(_, r)| is_active(r, p))
                .map(|(l, _)| l.as_str())
                .collect()
        };
        let mut s = Sweep::new(&ranges);
        // Forward, then backward (a restart), then forward again.
        for p in (0..8).chain((0..8).rev()).chain(0..8) {
            let got: Vec<&str> = s.at(p).iter().copied().collect();
            assert_eq!(got, want(p), "at {p}");
        }
    }
}
