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

use super::listing::{IdRefMap, IdRefSet, InstKind, Module, Named, Referrer};
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

/// The defs and kills of each lifetime and the labels of each code, by
/// instruction index.
///
/// Kept by node ([`Inst::target`]): each node's instructions of a kind are
/// a run of one array, found by the node's index, and grouped when the
/// listing is read. Its first form, a map keyed by id per kind built by
/// each check and each analysis, allocated a key per lifetime and, at every
/// look-up, hashed the id and read the key through its pointer: on a
/// 100 000-instruction listing, those reads missed the caches in every pass
/// that asks for a lifetime's defs (the check of the kills, of the
/// expressions, the ranges, locating). An id that names no node (a listing
/// that fails `undefined-node`) keeps its instructions by id.
///
/// [`Inst::target`]: super::listing::Inst::target
#[derive(Clone, Copy, Debug)]
pub struct Intrinsics<'m> {
    m: &'m Module,
}

impl<'m> Intrinsics<'m> {
    pub fn of(m: &'m Module) -> Intrinsics<'m> {
        Intrinsics { m }
    }
    /// The defs of `lifetime`, in order (empty when none).
    pub fn defs(&self, lifetime: &str) -> &[usize] {
        self.m.index.defs.of_id(&self.m.nodes, lifetime)
    }
    /// The kills of `lifetime`, in order (empty when none).
    pub fn kills(&self, lifetime: &str) -> &[usize] {
        self.m.index.kills.of_id(&self.m.nodes, lifetime)
    }
    /// The labels of `code`, in order (empty when none).
    pub fn labels(&self, code: &str) -> &[usize] {
        self.m.index.labels.of_id(&self.m.nodes, code)
    }
    /// Every lifetime some def names, with its node's index and its
    /// defs, in id order.
    pub fn each_defs(&self) -> impl Iterator<Item = Named<'m>> + 'm {
        self.m.index.defs.iter(&self.m.nodes)
    }
    /// Every lifetime some kill names, with its node's index and its
    /// kills, in id order.
    pub fn each_kills(&self) -> impl Iterator<Item = Named<'_>> + '_ {
        self.m.index.kills.iter(&self.m.nodes)
    }
    /// [`Intrinsics::each_kills`] in no particular order (see
    /// [`ByNode::iter_unordered`](super::listing::ByNode::iter_unordered)).
    pub fn each_kills_unordered(&self) -> impl Iterator<Item = Named<'_>> + '_ {
        self.m.index.kills.iter_unordered(&self.m.nodes)
    }
    /// Every code some label names, with its node's index and its labels,
    /// in id order.
    pub fn each_labels(&self) -> impl Iterator<Item = Named<'_>> + '_ {
        self.m.index.labels.iter(&self.m.nodes)
    }
    /// The defs of what `n` names (as [`Intrinsics::each_kills`] gives
    /// it), without a look-up.
    pub fn defs_of(&self, n: &Named) -> &[usize] {
        self.m.index.defs.of_named(n)
    }
    /// The kills of what `n` names (as [`Intrinsics::each_defs`] gives
    /// it), without a look-up.
    pub fn kills_of(&self, n: &Named) -> &[usize] {
        self.m.index.kills.of_named(n)
    }
    /// The referrer of the first def of `lifetime`, if it has a def.
    pub fn first_referrer(&self, lifetime: &str) -> Option<&'m Referrer> {
        let m = self.m;
        match m.nodes.index_of(lifetime) {
            Some(i) => m.first_referrer_at(i),
            None => {
                let &d = self.defs(lifetime).first()?;
                match &m.insts[d].kind {
                    InstKind::Def { referrer, .. } => Some(m.referrer(*referrer)),
                    _ => None,
                }
            }
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
        let (defs, kills) = (&self.m.index.defs, &self.m.index.kills);
        match self.m.nodes.index_of(lifetime) {
            Some(i) => bounded(defs.at(i), kills.at(i)),
            None => bounded(defs.lost(lifetime), kills.lost(lifetime)),
        }
    }
    /// The labels of the node at `i`, an index of `Module::nodes`.
    pub fn labels_at(&self, i: usize) -> &[usize] {
        self.m.index.labels.at(i)
    }
    /// [`Intrinsics::bounded_defs`] of the node at `i`.
    pub fn bounded_defs_at(&self, i: usize) -> Option<&[usize]> {
        let (defs, kills) = (&self.m.index.defs, &self.m.index.kills);
        bounded(defs.at(i), kills.at(i))
    }
}

/// A lifetime's defs when it is bounded (named by a def or a kill).
fn bounded<'a>(defs: &'a [usize], kills: &[usize]) -> Option<&'a [usize]> {
    (!defs.is_empty() || !kills.is_empty()).then_some(defs)
}

/// Kills a walk stopped at, in increasing order, without repeats: inline
/// for the common one or two (a `BTreeSet` was allocated by every walk,
/// tens of thousands of them in the check and the ranges of a large
/// listing, to hold one or two kills).
pub type Reached = smallvec::SmallVec<[usize; 2]>;

/// The walks of one module: its control flow, flat ([`Flow`]), and scratch
/// space reused from one walk to the next (a stamp per block entry).
pub struct Walker {
    stamp: Vec<u32>,
    round: u32,
    flow: Flow,
    /// The work list and the sorted kills of the walk under way, kept from
    /// one walk to the next instead of allocated and grown by each (with
    /// the graph check's edge lists, which it borrows now, 9% of the
    /// check's instructions on the bench's 10 000-instruction listing).
    work: Vec<(u32, u32)>,
    kill_set: Vec<usize>,
}

/// The control flow of a module's functions, flat: what a walk reads, in
/// three arrays of 4-byte numbers, built once per [`Walker`] from the
/// module's blocks.
///
/// A walk read each def's [`Inst`](super::listing::Inst) (56 bytes, for its
/// function and block), each block's [`Block`](super::listing::Block) (72
/// bytes) and its successors through their own allocation, made while the
/// listing was read among everything else it holds. On the bench's
/// 100 000-instruction listing those were three or more cache misses per
/// block of every walk, and the check of the kills grew 23-26 times for 10
/// times the input; on these arrays (480 KB of block numbers, 16 bytes a
/// block) it grows 12-14 times.
///
/// An instruction's block is found in two small tables ([`Flow::block_of`])
/// instead of one entry per instruction: each walk starts by looking up
/// its def's block, at a random place, and in a table of 480 KB that load
/// was a quarter of the walk's time on the 100 000-instruction listing
/// (perf annotate), against 30 + 24 KB for the two tables.
struct Flow {
    /// The block of every [`COARSE_STRIDE`]th instruction (the blocks
    /// numbered across the functions): where [`Flow::block_of`] starts.
    coarse: Vec<u32>,
    /// Each block's first instruction, and after them the number of
    /// instructions: block `b` holds `firsts[b]..firsts[b + 1]`. The
    /// blocks of the functions, in order, tile the instructions (the
    /// listing numbers them function by function, block by block; a block
    /// may be empty).
    firsts: Vec<u32>,
    blocks: Vec<FlatBlock>,
    /// Each block's successors (numbered across the functions), a run per
    /// block.
    succs: Vec<u32>,
}

/// A block of [`Flow`]: its instructions `first..end` and its successors
/// `succs[succ_from..succ_to & !EXIT]`.
#[derive(Clone, Copy)]
struct FlatBlock {
    first: u32,
    end: u32,
    succ_from: u32,
    /// The end of the block's successors, with [`EXIT`] set for an exit
    /// block.
    succ_to: u32,
}

/// Instructions per entry of [`Flow::coarse`]: 4 bytes per 16
/// instructions, and a look-up steps over at most 16 blocks.
const COARSE_STRIDE: usize = 16;

/// The bit of [`FlatBlock::succ_to`] that marks an exit block (a listing
/// of at most [`MAX_INPUT_BYTES`](crate::limits::MAX_INPUT_BYTES) cannot
/// have 2^31 successors).
const EXIT: u32 = 1 << 31;

impl FlatBlock {
    fn is_exit(&self) -> bool {
        self.succ_to & EXIT != 0
    }
}

impl Flow {
    fn of(m: &Module) -> Flow {
        // The listing is at most 64 MiB: fewer than 2^31 instructions,
        // blocks and successors, so every number fits in 31 bits.
        let count = m.functions.iter().map(|f| f.blocks.len()).sum::<usize>();
        let mut flow = Flow {
            coarse: Vec::with_capacity(m.insts.len().div_ceil(COARSE_STRIDE)),
            firsts: Vec::with_capacity(count + 1),
            blocks: Vec::with_capacity(count),
            succs: Vec::new(),
        };
        for f in &m.functions {
            let base = flow.blocks.len() as u32;
            for b in &f.blocks {
                debug_assert_eq!(
                    b.first,
                    flow.blocks.last().map_or(0, |l| l.end as usize),
                    "the blocks tile the instructions"
                );
                flow.firsts.push(b.first as u32);
                let succ_from = flow.succs.len() as u32;
                flow.succs.extend(b.succs.iter().map(|&s| base + s as u32));
                let exit = if b.exit { EXIT } else { 0 };
                flow.blocks.push(FlatBlock {
                    first: b.first as u32,
                    end: b.end as u32,
                    succ_from,
                    succ_to: flow.succs.len() as u32 | exit,
                });
            }
        }
        flow.firsts.push(m.insts.len() as u32);
        let mut b = 0;
        for i in (0..m.insts.len()).step_by(COARSE_STRIDE) {
            b = flow.advance(b, i);
            flow.coarse.push(b as u32);
        }
        flow
    }

    /// The block of instruction `i`, the last block that starts at or
    /// before it: found between the blocks of the instructions at the
    /// multiples of [`COARSE_STRIDE`] around it, stepping forward from the
    /// first. Those are at most `COARSE_STRIDE` blocks apart but for empty
    /// ones, of which a listing may have any number in a row: beyond twice
    /// the stride, a binary search, so that a look-up stays logarithmic in
    /// them (a walk per kill looks its def up again, so by steps a run of
    /// a million empty blocks before a def with a million kills would be
    /// 10^12 steps). (Searching always was 3-5% slower on the bench.)
    fn block_of(&self, i: usize) -> u32 {
        let g = i / COARSE_STRIDE;
        let lo = self.coarse.get(g).map_or(0, |&b| b as usize);
        let hi = self
            .coarse
            .get(g + 1)
            .map_or(self.blocks.len(), |&b| b as usize + 1);
        if hi.saturating_sub(lo) <= 2 * COARSE_STRIDE {
            return self.advance(lo, i) as u32;
        }
        let starts = self.firsts.get(lo..hi).unwrap_or(&[]);
        let at_or_before = starts.partition_point(|&f| f as usize <= i);
        (lo + at_or_before.saturating_sub(1)) as u32
    }

    /// The block of instruction `i`, found by stepping from block `b` at
    /// or before it.
    fn advance(&self, mut b: usize, i: usize) -> usize {
        // Stops at the last block at the latest: its end is the number of
        // instructions, past any instruction.
        while self
            .firsts
            .get(b + 1)
            .is_some_and(|&next| next as usize <= i)
        {
            b += 1;
        }
        b
    }

    /// The successors of block `b`: none for an exit block.
    fn succs(&self, b: u32) -> &[u32] {
        let block = self.blocks[b as usize];
        if block.is_exit() {
            return &[];
        }
        &self.succs[block.succ_from as usize..block.succ_to as usize]
    }
}

impl Walker {
    pub fn new(m: &Module) -> Walker {
        let flow = Flow::of(m);
        Walker {
            stamp: vec![0; flow.blocks.len()],
            round: 0,
            flow,
            work: Vec::new(),
            kill_set: Vec::new(),
        }
    }

    /// The range of a segment defined at `def` and killed at `kills`, as
    /// stretches pushed to `stretches` (in no order, and overlapping where
    /// a block is entered twice: [`merge_tail`] makes them runs).
    pub fn walk_into(
        &mut self,
        def: usize,
        kills: &[usize],
        reading: Reading,
        stretches: &mut Runs,
    ) {
        self.traverse(def, kills, reading, Some(stretches));
    }

    /// The kills a walk from `def` stops at (reached without passing
    /// another kill), without listing the range.
    pub fn kills_reached(&mut self, def: usize, kills: &[usize]) -> Reached {
        self.traverse(def, kills, Reading::ControlFlow, None)
    }

    /// The walk: each block entry visited once, stopping at kills; the
    /// stretch of each block the segment is active in pushed to `active`
    /// when it is given (a block entered twice, at the def and from a loop,
    /// gives two stretches that overlap).
    fn traverse(
        &mut self,
        def: usize,
        kills: &[usize],
        reading: Reading,
        mut active: Option<&mut Runs>,
    ) -> Reached {
        self.round += 1;
        let round = self.round;
        let mut kill_set = std::mem::take(&mut self.kill_set);
        kill_set.clear();
        kill_set.extend_from_slice(kills);
        kill_set.sort_unstable();
        let mut reached = Reached::new();
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        work.push((self.flow.block_of(def), def as u32));
        while let Some((b, start)) = work.pop() {
            let block = self.flow.blocks[b as usize];
            let (start, end) = (start as usize, block.end as usize);
            // The first kill of the segment at or after `start` in this
            // block (the def itself does not end its own range).
            let from = kill_set.partition_point(|&k| k < start);
            let kill = kill_set[from..]
                .iter()
                .copied()
                .find(|&k| k != def)
                .filter(|&k| k < end);
            if let Some(active) = active.as_deref_mut() {
                let end = kill.unwrap_or(end);
                if start < end {
                    active.push((start, end));
                }
            }
            if let Some(k) = kill {
                if let Err(at) = reached.binary_search(&k) {
                    reached.insert(at, k);
                }
                continue;
            }
            if reading == Reading::BlockLocal {
                continue;
            }
            for &s in self.flow.succs(b) {
                if self.stamp[s as usize] != round {
                    self.stamp[s as usize] = round;
                    work.push((s, self.flow.blocks[s as usize].first));
                }
            }
        }
        self.work = work;
        self.kill_set = kill_set;
        reached
    }

    /// Plain control-flow reachability from `from` (ignoring kills) of each
    /// of `tos`, in one walk from `from` (a walk per instruction asked was
    /// quadratic: 20 000 shadowed kills of one def, each walked to from the
    /// def over 20 000 blocks). (No edge joins the blocks of two
    /// functions.)
    pub fn reachable_each(&mut self, from: usize, tos: &[usize]) -> Vec<bool> {
        let fb = self.flow.block_of(from);
        self.round += 1;
        let round = self.round;
        let mut work: Vec<u32> = self.flow.succs(fb).to_vec();
        while let Some(b) = work.pop() {
            if self.stamp[b as usize] == round {
                continue;
            }
            self.stamp[b as usize] = round;
            work.extend_from_slice(self.flow.succs(b));
        }
        tos.iter()
            .map(|&to| {
                let tb = self.flow.block_of(to);
                (fb == tb && to >= from) || self.stamp[tb as usize] == round
            })
            .collect()
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
#[cfg(test)]
fn normalize(mut stretches: Runs) -> Runs {
    merge_tail(&mut stretches, 0);
    stretches
}

/// [`normalize`] of the stretches `v[from..]`, in place (what comes before
/// `from` is left as it is).
fn merge_tail(v: &mut Runs, from: usize) {
    let stretches = &mut v[from..];
    stretches.sort_unstable();
    let mut kept: usize = 0;
    for k in 0..stretches.len() {
        let (a, b) = stretches[k];
        match kept.checked_sub(1).map(|last| &mut stretches[last]) {
            Some(r) if r.1 >= a => r.1 = r.1.max(b),
            _ => {
                stretches[kept] = (a, b);
                kept += 1;
            }
        }
    }
    v.truncate(from + kept);
}

/// Every bounded segment's range, by its id (borrowed from the module),
/// kept flat: the runs of all segments in one array, a segment's a slice
/// of it.
///
/// Its first form, a map from each id to its own `Vec` of runs, allocated
/// and freed ten thousand lists per analysis of the bench's
/// 100 000-instruction listing, each copied out of the walker's scratch
/// list, and reading one was a cache miss.
#[derive(Clone, Debug, Default)]
pub struct Ranges<'m> {
    ids: IdRefSet<'m>,
    /// The runs of the segment at place `k` of `ids` are
    /// `runs[start[k]..start[k + 1]]`.
    start: Vec<u32>,
    runs: Runs,
}

impl<'m> Ranges<'m> {
    /// The runs of segment `id`; `None` when it has no def.
    pub fn get(&self, id: &str) -> Option<&[(usize, usize)]> {
        self.get_index(self.ids.get_index_of(id)?).map(|(_, r)| r)
    }
    /// The segment at place `k` (in the order the segments were found, the
    /// lifetimes with a def in id order) and its runs.
    pub fn get_index(&self, k: usize) -> Option<(&'m str, &[(usize, usize)])> {
        let id = *self.ids.get_index(k)?;
        let (a, b) = (self.start[k] as usize, self.start[k + 1] as usize);
        Some((id, &self.runs[a..b]))
    }
    /// Each segment with its runs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&'m str, &[(usize, usize)])> + '_ {
        (0..self.ids.len()).filter_map(|k| self.get_index(k))
    }
    pub fn len(&self) -> usize {
        self.ids.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// A table of the given segments' ranges, each made runs; a segment given
/// twice keeps the union of both.
impl<'m, S: IntoIterator<Item = (usize, usize)>> FromIterator<(&'m str, S)> for Ranges<'m> {
    fn from_iter<I: IntoIterator<Item = (&'m str, S)>>(segments: I) -> Ranges<'m> {
        let mut by_id: IdRefMap<'m, Runs> = IdRefMap::default();
        for (id, stretches) in segments {
            by_id.entry(id).or_default().extend(stretches);
        }
        let mut out = Ranges::default();
        out.start.push(0);
        for (id, stretches) in by_id {
            let from = out.runs.len();
            out.runs.extend(stretches);
            merge_tail(&mut out.runs, from);
            out.ids.insert(id);
            out.start.push(out.runs.len() as u32);
        }
        out
    }
}

/// Every bounded segment's range, by its id.
pub fn all_ranges<'m>(m: &'m Module, x: &Intrinsics<'m>, reading: Reading) -> Ranges<'m> {
    all_ranges_by_node(m, x, reading).0
}

/// [`all_ranges`], and for each node the place of its runs in the table
/// when it is a segment with a def (`u32::MAX` otherwise): what lets
/// [`Analysis`](super::locate::Analysis) pair each segment with its runs
/// without hashing its id.
pub(super) fn all_ranges_by_node<'m>(
    m: &'m Module,
    x: &Intrinsics<'m>,
    reading: Reading,
) -> (Ranges<'m>, Vec<u32>) {
    let mut walker = Walker::new(m);
    // At most one entry per lifetime: reserved, so the set is not copied
    // as it grows (on a large listing, copies that miss the caches).
    let lifetimes = m.nodes.count_of(&[super::listing::Tag::Lifetime]);
    let mut out = Ranges {
        ids: IdRefSet::with_capacity_and_hasher(lifetimes, Default::default()),
        start: Vec::with_capacity(lifetimes + 1),
        // Room for two runs per segment, so that a table of up to that
        // many is not copied as it grows.
        runs: Vec::with_capacity(2 * lifetimes),
    };
    out.start.push(0);
    let mut at_node = vec![u32::MAX; m.nodes.len()];
    for n in x.each_defs() {
        let (from, kills) = (out.runs.len(), x.kills_of(&n));
        for &d in n.insts {
            walker.walk_into(d, kills, reading, &mut out.runs);
        }
        // The union of the defs' ranges.
        merge_tail(&mut out.runs, from);
        // `each_defs` names each id once (a node's id, or an id no node
        // has), so each insertion is new and its runs are the last ones.
        let (k, new) = out.ids.insert_full(n.id());
        debug_assert!(new, "{} named twice", n.id());
        // The listing is at most 64 MiB: fewer than 2^32 runs.
        out.start.push(out.runs.len() as u32);
        if let Some(at) = n.node.and_then(|i| at_node.get_mut(i)) {
            *at = k as u32;
        }
    }
    (out, at_node)
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
    pub fn new(ranges: &Ranges<'a>) -> Sweep<'a> {
        let mut events = Vec::new();
        for (lt, runs) in ranges.iter() {
            for &(a, b) in runs {
                events.push((a, true, lt));
                events.push((b, false, lt));
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
    use crate::lifetime::listing::{id_prefix, InstKind};

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
    fn a_tail_is_merged_and_what_comes_before_it_is_kept() {
        let mut v = vec![(9, 12), (0, 1), (5, 6), (3, 5), (1, 2)];
        merge_tail(&mut v, 2);
        assert_eq!(v, vec![(9, 12), (0, 1), (1, 2), (3, 6)]);
    }

    #[test]
    fn a_flat_table_gives_each_segments_runs() {
        let ranges: Ranges = [
            ("!b", vec![(4, 6), (0, 2)]),
            ("!a", vec![]),
            ("!b", vec![(2, 3), (8, 9)]),
        ]
        .into_iter()
        .collect();
        assert_eq!(ranges.len(), 2);
        assert_eq!(ranges.get("!b"), Some(&[(0, 3), (4, 6), (8, 9)][..]));
        assert_eq!(ranges.get("!a"), Some(&[][..]));
        assert_eq!(ranges.get("!c"), None);
        assert_eq!(ranges.get_index(1), Some(("!a", &[][..])));
        assert_eq!(ranges.get_index(2), None);
        let all: Vec<_> = ranges.iter().collect();
        assert_eq!(
            all,
            vec![("!b", &[(0, 3), (4, 6), (8, 9)][..]), ("!a", &[][..])]
        );
    }

    /// A listing of one function per element of `functions`, each of
    /// blocks of the given numbers of instructions (the last block then
    /// returns).
    fn listing_of_blocks(functions: &[Vec<usize>]) -> Module {
        let mut text = String::new();
        for (fi, sizes) in functions.iter().enumerate() {
            text.push_str(&format!("define void @f{fi}() {{\n"));
            for (b, &size) in sizes.iter().enumerate() {
                text.push_str(&format!("b{b}:\n"));
                for k in 0..size {
                    text.push_str(&format!("  %t{b}.{k} = add i32 1, 2\n"));
                }
            }
            text.push_str("  ret void\n}\n");
        }
        crate::lifetime::parse_module(&text).unwrap()
    }

    /// A run of 200 000 empty blocks between two instructions of one
    /// stretch of the coarse table: each instruction is found in its
    /// block.
    #[test]
    fn a_long_run_of_empty_blocks_is_searched() {
        let mut sizes = vec![3];
        sizes.extend(std::iter::repeat_n(0, 200_000));
        sizes.push(5);
        let m = listing_of_blocks(&[sizes]);
        let flow = Flow::of(&m);
        let last = m.functions[0].blocks.len() as u32 - 1;
        assert_eq!(m.insts.len(), 9);
        for i in 0..3 {
            assert_eq!(flow.block_of(i), 0);
        }
        for i in 3..9 {
            assert_eq!(flow.block_of(i), last);
        }
    }

    #[test]
    fn a_sweep_gives_each_points_set_in_either_direction() {
        let ranges: Ranges = [("!a", vec![(0, 2), (4, 6)]), ("!b", vec![(1, 5)])]
            .into_iter()
            .collect();
        let want = |p: usize| -> Vec<&str> {
            ranges
                .iter()
                .filter(|(_, r)| is_active(r, p))
                .map(|(l, _)| l)
                .collect()
        };
        let mut s = Sweep::new(&ranges);
        // Forward, then backward (a restart), then forward again.
        for p in (0..8).chain((0..8).rev()).chain(0..8) {
            let got: Vec<&str> = s.at(p).iter().copied().collect();
            assert_eq!(got, want(p), "at {p}");
        }
    }

    proptest::proptest! {
        /// [`Flow::block_of`] gives each instruction the block whose
        /// `first..end` holds it, over functions of blocks of 0 to 40
        /// instructions and runs of up to 60 empty blocks (longer than the
        /// coarse table's stride).
        #[test]
        fn each_instruction_is_found_in_its_block(
            functions in proptest::collection::vec(
                proptest::collection::vec((0usize..40, 0usize..4, 0usize..60), 1..30),
                1..4,
            ),
        ) {
            let functions: Vec<Vec<usize>> = functions
                .iter()
                .map(|f| {
                    // A block of `size` instructions, then (one time in
                    // four) a run of `empty` empty blocks.
                    f.iter()
                        .flat_map(|&(size, run, empty)| {
                            std::iter::once(size).chain(std::iter::repeat_n(0, if run == 0 { empty } else { 0 }))
                        })
                        .collect()
                })
                .collect();
            let m = listing_of_blocks(&functions);
            let flow = Flow::of(&m);
            let mut k = 0;
            for f in &m.functions {
                for b in &f.blocks {
                    for i in b.first..b.end {
                        proptest::prop_assert_eq!(flow.block_of(i), k, "instruction {}", i);
                    }
                    k += 1;
                }
            }
        }

        /// `Intrinsics`, kept by node, answers what a map from each named
        /// id to its instructions would: for ids of nodes and ids no node
        /// has (long and short, so that both of `NodeMap`'s comparisons
        /// are taken), in id order, with each id's instructions in order.
        #[test]
        fn intrinsics_by_node_are_intrinsics_by_id(
            calls in proptest::collection::vec((0u8..3, 0usize..8), 0..40),
            defined in proptest::collection::vec(proptest::bool::ANY, 8),
        ) {
            const IDS: [&str; 8] = ["!1", "!2", "!10", "!l2", "!long_name_1", "!long_name_2", "!c1", "!c2"];
            let mut text = String::new();
            // Each def's referrer is its call's number, so that it can be
            // told from every other.
            for (k, &(kind, id)) in calls.iter().enumerate() {
                let id = IDS[id];
                text.push_str(&match kind {
                    0 => format!("call void @llvm.dbg.def(metadata {id}, metadata i32 {k})\n"),
                    1 => format!("call void @llvm.dbg.kill(metadata {id})\n"),
                    _ => format!("call void @llvm.dbg.label(metadata {id})\n"),
                });
            }
            for (id, on) in IDS.iter().zip(&defined) {
                if *on {
                    text.push_str(&format!("{id} = distinct !DILifetime(object: !9, location: !DIExpr(DIOpReferrer(i32)))\n"));
                }
            }
            let m = crate::lifetime::parse_module(&text).unwrap();
            let x = Intrinsics::of(&m);
            // The model: each id's instructions of each kind, in id order.
            let model = |want: fn(&InstKind) -> bool| {
                let mut by: std::collections::BTreeMap<(u64, &str), Vec<usize>> = Default::default();
                for (i, inst) in m.insts.iter().enumerate() {
                    if want(&inst.kind) {
                        let id = inst.named().unwrap();
                        by.entry((id_prefix(id), id)).or_default().push(i);
                    }
                }
                by.into_iter().map(|((_, id), v)| (id, v)).collect::<Vec<_>>()
            };
            let defs = model(|k| matches!(k, InstKind::Def { .. }));
            let kills = model(|k| matches!(k, InstKind::Kill { .. }));
            let labels = model(|k| matches!(k, InstKind::Label { .. }));
            let listed = [
                (x.each_defs().collect::<Vec<_>>(), &defs),
                (x.each_kills().collect(), &kills),
                (x.each_labels().collect(), &labels),
            ];
            for (got, want) in listed {
                for n in &got {
                    proptest::prop_assert_eq!(n.node, m.nodes.index_of(n.id()));
                    // Another kind's instructions of the same id, found
                    // from `n` without a look-up.
                    proptest::prop_assert_eq!(x.defs_of(n), x.defs(n.id()));
                    proptest::prop_assert_eq!(x.kills_of(n), x.kills(n.id()));
                }
                let got: Vec<(&str, Vec<usize>)> = got.iter().map(|n| (n.id(), n.insts.to_vec())).collect();
                proptest::prop_assert_eq!(&got, want);
            }
            let find = |v: &[(&str, Vec<usize>)], id: &str| {
                v.iter().find(|(k, _)| *k == id).map(|(_, v)| v.clone())
            };
            // Every def keeps its own referrer, and a lifetime's first
            // referrer is its first def's, with or without a node.
            let number = |r: &Referrer| match r {
                Referrer::Constant(_, lit) => match &**lit {
                    crate::syntax::Literal::Int(v) => v.to_string(),
                    other => format!("{other:?}"),
                },
                other => format!("{other:?}"),
            };
            for (k, inst) in m.insts.iter().enumerate() {
                if let InstKind::Def { referrer, .. } = &inst.kind {
                    proptest::prop_assert_eq!(number(m.referrer(*referrer)), k.to_string());
                }
            }
            for id in IDS {
                let first = defs.iter().find(|(k, _)| *k == id).map(|(_, v)| v[0].to_string());
                proptest::prop_assert_eq!(x.first_referrer(id).map(number), first.clone());
                if let Some(i) = m.nodes.index_of(id) {
                    proptest::prop_assert_eq!(m.first_referrer_at(i).map(number), first);
                }
            }
            for id in IDS {
                let i = m.nodes.index_of(id);
                proptest::prop_assert_eq!(i.is_some(), defined[IDS.iter().position(|&k| k == id).unwrap()]);
                let d = find(&defs, id);
                proptest::prop_assert_eq!(x.defs(id).to_vec(), d.clone().unwrap_or_default());
                proptest::prop_assert_eq!(x.kills(id).to_vec(), find(&kills, id).unwrap_or_default());
                proptest::prop_assert_eq!(x.labels(id).to_vec(), find(&labels, id).unwrap_or_default());
                let bounded = d.or_else(|| find(&kills, id).map(|_| Vec::new()));
                proptest::prop_assert_eq!(x.bounded_defs(id).map(<[usize]>::to_vec), bounded.clone());
                proptest::prop_assert_eq!(x.is_bounded(id), bounded.is_some());
                if let Some(i) = i {
                    proptest::prop_assert_eq!(x.bounded_defs_at(i).map(<[usize]>::to_vec), bounded);
                    proptest::prop_assert_eq!(x.labels_at(i), x.labels(id));
                }
            }
        }
    }
}
