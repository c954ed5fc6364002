//! The location description of an object at a program point.
//!
//! Spec, `DILifetime`: "If the `DIObject` is a global variable fragment, then
//! the location description is comprised of an implicit location description
//! that has a pointer value to the global variable [...]. Otherwise, if the
//! current program location is defined, and any bounded lifetime segment is
//! active, then the location description is comprised of all of the location
//! descriptions of all active bounded lifetime segments. Otherwise, if there
//! is a computed lifetime segment, then the location description is comprised
//! of the location description of the computed lifetime segment. Otherwise,
//! the location description is the undefined location description."
//!
//! LLVM entities (`%x`, `$r0`, `@g`, and `^label` for code locations) are
//! located by the context's bindings; an unbound entity is its own abstract
//! storage `ent(BITS, NAME)`, whose contents are unknown.

use super::listing::{IdMap, IdRefMap, Kind, Module, Referrer, Tag};
use super::ranges::{all_ranges_by_node, is_active, Intrinsics, Ranges, Reading};
use super::wellformed::{
    global_fragments, object_types, type_property_fragments, ObjectKey, ObjectLifetimes,
};
use crate::bits::Bits;
use crate::context::{ConcreteContext, Context, Input};
use crate::diag::Diag;
use crate::eval::eval;
use crate::location::{LocDesc, ReadFail, Storage};
use crate::syntax::Op;
use crate::types::{DataLayout, Type};
use crate::value::literal_bits;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

/// Deepest chain of inputs (`argObjects`) followed when locating an object.
pub const MAX_INPUT_DEPTH: usize = 256;

/// An object's location at a point.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub loc: LocDesc,
    /// The type of the segments' results (`None` when undefined by default).
    pub ty: Option<Type>,
    /// The segments that gave the location: the active bounded ones, or the
    /// computed one; empty when the location is undefined by default, or the
    /// global for a global variable fragment.
    pub segments: Vec<String>,
}

/// Segment locations remembered by (segment, object), each as its node's
/// index in the module, in one flat table. (Its first form, a map per
/// segment inside a map by segment, spent about 8% of locating's simulated
/// cache misses on a 100 000-instruction listing just in being dropped; its
/// second, keyed by the two ids as strings, allocated both for every
/// entry.)
type Fixed = RefCell<
    std::collections::HashMap<(u32, u32), Result<(Type, LocDesc), Diag>, rustc_hash::FxBuildHasher>,
>;

/// How many segment locations a [`SegmentCache`] holds before it starts
/// over. Unbounded, it held one per segment of every object located: on a
/// listing of 10 000 segments a table of 10 000 entries, with their
/// locations, read at random, which made locating grow faster than the
/// listing; and memory grew with the listing for no answer that needed
/// it. A forgotten location is computed again when asked for: the answers
/// are the same.
pub const SEGMENT_CACHE_ENTRIES: usize = 1024;

/// The most segment inputs (`argObjects`) located with one
/// [`SegmentCache`], over every object and point located with it; past
/// it, a segment with inputs is `DILifetime: limit-exceeded`.
///
/// One of the bounds of D-size-bounds (`crate::limits`): what a listing
/// can make locating do is bounded by this count, not by the listing's
/// size alone. An object whose
/// computed segment has N inputs changes location at up to 2N points, and
/// each is located with all N inputs: 5 000 inputs (a 400 KB listing) took
/// 11 s, 20 000 past 100 s (now 20 000 stop at the bound in 12 s, exit
/// 3). At about 0.3 us an input this is seconds of work; the listings of
/// the corpus and the benchmarks locate a few thousand at most.
pub const MAX_LOCATED_INPUTS: u64 = 1 << 24;

/// Locating in one context: the locations of the segments without inputs
/// (`args`), which do not depend on the point, computed once. Locating an
/// object at N points otherwise evaluates each of its segments N times.
pub struct SegmentCache<'c> {
    ctx: &'c ConcreteContext,
    fixed: Fixed,
    /// The segment inputs located so far (bounded by
    /// [`MAX_LOCATED_INPUTS`]).
    inputs: Cell<u64>,
}

impl<'c> SegmentCache<'c> {
    pub fn new(ctx: &'c ConcreteContext) -> SegmentCache<'c> {
        SegmentCache {
            ctx,
            fixed: RefCell::new(std::collections::HashMap::default()),
            inputs: Cell::new(0),
        }
    }
    /// Whether some segment was left unevaluated because locating with this
    /// cache reached [`MAX_LOCATED_INPUTS`].
    pub fn exhausted(&self) -> bool {
        self.inputs.get() > MAX_LOCATED_INPUTS
    }
}

/// What one locating remembers: the objects located so far (an object can
/// be an input of several segments), the cache of its context and the
/// count of inputs located with it.
struct Memo<'f> {
    objects: BTreeMap<String, Result<Located, Diag>>,
    fixed: &'f Fixed,
    inputs: &'f Cell<u64>,
}

/// Everything about a module that locating objects needs, computed once.
pub struct Analysis<'m> {
    pub m: &'m Module,
    pub x: Intrinsics<'m>,
    pub reading: Reading,
    /// Per bounded segment, where it is active.
    pub ranges: Ranges<'m>,
    /// The objects with lifetime segments, in id order, each by its node
    /// (or its id when it names no node); an object's place here is its
    /// slot. Its segments are kept by slot in `by_segments`, not as a list
    /// of ids per object: ten thousand lists were allocated and freed by
    /// every analysis of a large listing, and reading one was a cache miss
    /// ([`Analysis::segment_ranges`] gives them). Nor is it a set of the
    /// objects' ids: building one read and hashed every object's id (two
    /// cache misses per object on a large listing), where an object is
    /// found by its node ([`Analysis::slot_of`]).
    by: Vec<ObjectKey<'m>>,
    /// The slots of the objects that name no node, by id.
    lost_slots: IdRefMap<'m, u32>,
    /// Each object's segments, in `by`'s order: the segments of the object at
    /// slot `s` of `by` are `by_segments[by_start[s]..by_start[s + 1]]`,
    /// each with its node and the place of its runs in `ranges`, so that
    /// finding an object's active segments and evaluating them looks up no
    /// name, and nothing is copied to build this.
    by_segments: Vec<SegmentAt>,
    by_start: Vec<u32>,
    /// Each node's place in `by` when it is an object with segments
    /// (`u32::MAX` otherwise), so that [`Analysis::objects_at`] finds the
    /// places without looking an id up.
    slot_at_node: Vec<u32>,
    /// Global variable fragment to its global.
    pub global_of: IdMap<String>,
    pub types: IdMap<Type>,
    pub type_props: IdMap<Vec<(String, String)>>,
}

impl<'m> Analysis<'m> {
    pub fn new(m: &'m Module, reading: Reading) -> Analysis<'m> {
        let x = Intrinsics::of(m);
        let (ranges, runs_at_node) = all_ranges_by_node(m, &x, reading);
        let lifetimes = ObjectLifetimes::of(m);
        let by_object = lifetimes.by_object_keys(m);
        let mut by = Vec::with_capacity(by_object.len());
        let mut lost_slots = IdRefMap::default();
        let mut by_start = Vec::with_capacity(by_object.len() + 1);
        let mut by_segments = Vec::with_capacity(by_object.iter().map(|(_, l)| l.len()).sum());
        let mut slot_at_node = vec![u32::MAX; m.nodes.len()];
        by_start.push(0);
        for &(key, nodes) in &by_object {
            let slot = by.len() as u32;
            match key {
                ObjectKey::Node(o) => {
                    if let Some(at) = slot_at_node.get_mut(o as usize) {
                        *at = slot;
                    }
                }
                ObjectKey::Lost(id) => {
                    lost_slots.insert(id, slot);
                }
            }
            by_segments.extend(nodes.iter().map(|&node| SegmentAt {
                node,
                runs: runs_at_node.get(node as usize).copied().unwrap_or(u32::MAX),
            }));
            by_start.push(by_segments.len() as u32);
            by.push(key);
        }
        let globals = global_fragments(m);
        let types = object_types(m, &lifetimes, &globals);
        let mut global_of: IdMap<String> = m
            .globals
            .iter()
            .filter_map(|g| g.def.clone().map(|d| (d, g.name.clone())))
            .collect();
        global_of.sort_unstable_keys();
        Analysis {
            m,
            x,
            reading,
            ranges,
            by,
            lost_slots,
            by_segments,
            by_start,
            slot_at_node,
            global_of,
            types,
            type_props: type_property_fragments(m),
        }
    }

    /// The slot of `object` in `by`: found by its node, or among the
    /// objects that name none; `None` when it has no segments.
    fn slot_of(&self, object: &str) -> Option<usize> {
        match self.m.nodes.index_of(object) {
            Some(i) => self.slot_at(i),
            None => self.lost_slot(object),
        }
    }

    /// The slot of the object at node `i`, if it has segments.
    fn slot_at(&self, i: usize) -> Option<usize> {
        let s = *self.slot_at_node.get(i)?;
        (s != u32::MAX).then_some(s as usize)
    }

    /// The slot of `object`, an id that names no node.
    fn lost_slot(&self, object: &str) -> Option<usize> {
        self.lost_slots.get(object).map(|&s| s as usize)
    }

    /// The lifetime segments of `object`, each with where it is active
    /// (empty for a computed segment), in `by`'s order; `None` when the
    /// object has no segments. One look-up for the object, where `by` and
    /// then `ranges` for each segment would be one more per segment (on a
    /// 100 000-instruction listing, each a cache miss).
    pub fn segment_ranges(
        &self,
        object: &str,
    ) -> Option<impl Iterator<Item = (&'m str, &[(usize, usize)])> + '_> {
        let s = self.slot_of(object)?;
        Some(self.slot_segments(s).map(|(l, _, r)| (l, r)))
    }

    /// [`Analysis::segment_ranges`] of an object of
    /// [`Analysis::objects_at`].
    pub fn segment_ranges_at(
        &self,
        object: ObjectAt<'m>,
    ) -> Option<impl Iterator<Item = (&'m str, &[(usize, usize)])> + '_> {
        let s = object.slot? as usize;
        Some(self.slot_segments(s).map(|(l, _, r)| (l, r)))
    }

    /// Each segment of the object at slot `s` of `by`, in its order: its
    /// id, its node's index and its runs (none for a computed segment).
    fn slot_segments(
        &self,
        s: usize,
    ) -> impl Iterator<Item = (&'m str, usize, &[(usize, usize)])> + '_ {
        let (a, b) = (self.by_start[s] as usize, self.by_start[s + 1] as usize);
        let runs = |k: u32| {
            self.ranges
                .get_index(k as usize)
                .map_or(&[][..], |(_, r)| r)
        };
        let m = self.m;
        self.by_segments[a..b].iter().map(move |at| {
            let node = at.node as usize;
            (m.nodes.at(node).id.as_str(), node, runs(at.runs))
        })
    }

    /// The segments of the object at `slot` of `by` active at `point`, in
    /// `by`'s order, each with its node's index.
    fn active_at(&self, slot: Option<usize>, point: usize) -> Vec<(&'m str, usize)> {
        let Some(s) = slot else {
            return Vec::new();
        };
        self.slot_segments(s)
            .filter(|(_, _, r)| is_active(r, point))
            .map(|(l, node, _)| (l, node))
            .collect()
    }

    /// What locating `object` at any point first asks: is it plain (a
    /// code, a global variable fragment or no node: no segments to choose
    /// from), and where it is in `by`.
    fn target<'o>(&self, object: &'o str) -> Target<'o> {
        let node = self.m.nodes.index_of(object);
        Target {
            object,
            node,
            plain: self.global_of.contains_key(object)
                || node.is_none_or(|i| self.m.nodes.is_code_at(i)),
            slot: node.map_or_else(|| self.lost_slot(object), |i| self.slot_at(i)),
        }
    }

    /// The objects with lifetime segments, in id order.
    pub fn objects_with_segments(&self) -> impl Iterator<Item = &'m str> + '_ {
        let m = self.m;
        self.by.iter().map(move |k| match *k {
            ObjectKey::Node(o) => m.nodes.at(o as usize).id.as_str(),
            ObjectKey::Lost(id) => id,
        })
    }

    /// The lifetime segments of `object` (their ids, borrowed from the
    /// module), in id order; `None` when it has none.
    pub fn segments_of(&self, object: &str) -> Option<impl Iterator<Item = &'m str> + '_> {
        Some(self.segment_ranges(object)?.map(|(l, _)| l))
    }

    /// The objects worth reporting: every variable and fragment with a
    /// segment, and every global variable fragment, in id order.
    pub fn objects(&self) -> Vec<&'m str> {
        self.objects_at().into_iter().map(|o| o.id).collect()
    }

    /// [`Analysis::objects`], each with what locating it asks first, so
    /// that [`Analysis::pieces_at`] and [`Analysis::segment_ranges_at`]
    /// look no id up: on a listing of 10 000 objects, each of those
    /// look-ups (the node table, `by`) is a cache miss, and they were
    /// about a quarter of locating's misses.
    pub fn objects_at(&self) -> Vec<ObjectAt<'m>> {
        let m = self.m;
        // Room for every object node at once: grown as it fills, the list
        // is copied a dozen times.
        let mut out = Vec::with_capacity(m.nodes.count_of(Tag::OBJECTS));
        out.extend(
            m.nodes
                .of_kinds_indexed(Tag::OBJECTS)
                .filter_map(|(node, n)| {
                    let slot = self
                        .slot_at_node
                        .get(node)
                        .copied()
                        .filter(|&s| s != u32::MAX);
                    // Only objects of these kinds: none is a code, so a
                    // global variable fragment is the one plain object.
                    let global = self.global_of.contains_key(&n.id);
                    (slot.is_some() || global).then_some(ObjectAt {
                        id: n.id.as_str(),
                        node: node as u32,
                        slot,
                        global,
                    })
                }),
        );
        out
    }

    /// The points where the location of `object` can change: where a run of
    /// one of its segments starts or ends, and, for a segment with inputs,
    /// where the location of an input can change (inputs followed at any
    /// depth). Sorted, without repeats.
    ///
    /// Locating reads the point only through which segments are active
    /// ("if any bounded lifetime segment is active, then the location
    /// description is comprised of all of the location descriptions of all
    /// active bounded lifetime segments"), and a segment's activity changes
    /// only at the ends of its runs; between two of these points the
    /// location is the same.
    pub fn boundaries(&self, object: &str) -> Vec<usize> {
        self.boundaries_from(object, self.slot_of(object))
    }

    /// [`Analysis::boundaries`] of `object`, whose place in `by` is `slot`
    /// (its inputs' places are looked up once each, and their segments are
    /// read by that place from `by_segments`).
    fn boundaries_from(&self, object: &str, slot: Option<usize>) -> Vec<usize> {
        let mut out = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        // Every input reachable, however deep (locating gives up past
        // MAX_INPUT_DEPTH, the same at every point): extra boundaries cost
        // only reuse, and `seen` bounds the walk by the module's objects.
        let mut work = vec![(object, slot)];
        while let Some((o, slot)) = work.pop() {
            if !seen.insert(o) {
                continue;
            }
            let Some(s) = slot else {
                continue;
            };
            for (_, node, runs) in self.slot_segments(s) {
                out.extend(runs.iter().flat_map(|&(a, b)| [a, b]));
                if let Kind::Lifetime { args, .. } = &self.m.nodes.at(node).kind {
                    work.extend(args.iter().map(|a| (a.as_str(), self.slot_of(a))));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Locating one object at many points: [`Analysis::locate_first`] once
    /// per stretch between two [`Analysis::boundaries`], not once per point.
    pub fn pieces<'a, 'c>(
        &'a self,
        cache: &'a SegmentCache<'c>,
        object: &'a str,
        limit: usize,
    ) -> Pieces<'a, 'c, 'm> {
        self.pieces_of(cache, self.target(object), limit)
    }

    /// [`Analysis::pieces`] of an object of [`Analysis::objects_at`].
    pub fn pieces_at<'a, 'c>(
        &'a self,
        cache: &'a SegmentCache<'c>,
        object: ObjectAt<'m>,
        limit: usize,
    ) -> Pieces<'a, 'c, 'm> {
        let target = Target {
            object: object.id,
            node: Some(object.node as usize),
            plain: object.global,
            slot: object.slot.map(|s| s as usize),
        };
        self.pieces_of(cache, target, limit)
    }

    fn pieces_of<'a, 'c>(
        &'a self,
        cache: &'a SegmentCache<'c>,
        target: Target<'a>,
        limit: usize,
    ) -> Pieces<'a, 'c, 'm> {
        Pieces {
            analysis: self,
            cache,
            bounds: self.boundaries_from(target.object, target.slot),
            target,
            limit,
            last: None,
            span: (0, 0),
        }
    }

    /// The location of `object` at instruction `point`.
    pub fn locate(
        &self,
        ctx: &ConcreteContext,
        object: &str,
        point: usize,
    ) -> Result<Located, Diag> {
        self.locate_cached(&SegmentCache::new(ctx), object, point)
    }

    /// [`Analysis::locate`] in the cache's context, evaluating each segment
    /// without inputs once for all points.
    pub fn locate_cached(
        &self,
        cache: &SegmentCache,
        object: &str,
        point: usize,
    ) -> Result<Located, Diag> {
        let mut memo = Memo {
            objects: BTreeMap::new(),
            fixed: &cache.fixed,
            inputs: &cache.inputs,
        };
        self.locate_in(cache.ctx, object, point, &mut memo, 0)
    }

    /// [`Analysis::locate`] evaluating at most `limit` of the segments
    /// active at `point`: the location's places are those of the first
    /// `limit` (in the segments' order), `segments` still names them all,
    /// and the second result counts the segments left out. An object can
    /// have any number of segments active at once (a listing of N defs of
    /// one variable has N at each of N points); a caller that shows
    /// locations bounds what it evaluates with this.
    pub fn locate_first(
        &self,
        cache: &SegmentCache,
        object: &str,
        point: usize,
        limit: usize,
    ) -> Result<(Located, usize), Diag> {
        self.locate_first_of(cache, &self.target(object), point, limit)
    }

    /// [`Analysis::locate_first`] of a [`Analysis::target`], so that
    /// locating one object at many points asks its node and its place in
    /// `by` once.
    fn locate_first_of(
        &self,
        cache: &SegmentCache,
        target: &Target,
        point: usize,
        limit: usize,
    ) -> Result<(Located, usize), Diag> {
        let (ctx, object) = (cache.ctx, target.object);
        if target.plain {
            return self.locate_cached(cache, object, point).map(|l| (l, 0));
        }
        let active = self.active_at(target.slot, point);
        let mut memo = Memo {
            objects: BTreeMap::new(),
            fixed: &cache.fixed,
            inputs: &cache.inputs,
        };
        if active.len() <= limit {
            // What `locate_cached` does for an object that is neither a
            // code nor a global variable fragment, with its active segments
            // already found.
            let object = (object, target.node, target.slot);
            return self
                .locate_segments(ctx, object, active, point, &mut memo, 0)
                .map(|l| (l, 0));
        }
        let mut singles = Vec::new();
        let mut ty = None;
        for &lt in &active[..limit] {
            let r = self.eval_segment(ctx, (object, target.node), lt, point, &mut memo, 0)?;
            ty.get_or_insert(r.0);
            singles.extend(r.1.singles().iter().cloned());
        }
        let left_out = active.len() - limit;
        Ok((
            Located {
                loc: LocDesc::new(singles),
                ty,
                segments: active.iter().map(|(l, _)| l.to_string()).collect(),
            },
            left_out,
        ))
    }

    fn locate_in(
        &self,
        ctx: &ConcreteContext,
        object: &str,
        point: usize,
        memo: &mut Memo,
        depth: usize,
    ) -> Result<Located, Diag> {
        if let Some(r) = memo.objects.get(object) {
            return r.clone();
        }
        if depth > MAX_INPUT_DEPTH {
            return Err(Diag::unsupported(
                "DIObject",
                "limit-exceeded",
                format!("inputs nested deeper than {MAX_INPUT_DEPTH}"),
            ));
        }
        let r = self.locate_uncached(ctx, object, point, memo, depth);
        memo.objects.insert(object.to_string(), r.clone());
        r
    }

    fn locate_uncached(
        &self,
        ctx: &ConcreteContext,
        object: &str,
        point: usize,
        memo: &mut Memo,
        depth: usize,
    ) -> Result<Located, Diag> {
        let m = self.m;
        let at = m.nodes.index_of(object).ok_or_else(|| {
            Diag::malformed(
                "Metadata",
                "undefined-node",
                format!("`{object}` is not defined"),
            )
        })?;
        if m.nodes.is_code_at(at) {
            return Ok(self.code_location(ctx, object));
        }
        if let Some(g) = self.global_of.get(object) {
            return Ok(Located {
                loc: entity(ctx, g, 64),
                ty: Some(Type::ptr(1)),
                segments: vec![g.clone()],
            });
        }
        let slot = self.slot_at(at);
        let active = self.active_at(slot, point);
        self.locate_segments(ctx, (object, Some(at), slot), active, point, memo, depth)
    }

    /// The location of `object` (with its node's index and its place in
    /// `by`), a variable or a fragment that is not a global variable
    /// fragment, whose segments active at `point` are `active`: theirs if
    /// any is, else its computed segment's.
    fn locate_segments(
        &self,
        ctx: &ConcreteContext,
        (object, object_at, slot): (&str, Option<usize>, Option<usize>),
        active: Vec<(&str, usize)>,
        point: usize,
        memo: &mut Memo,
        depth: usize,
    ) -> Result<Located, Diag> {
        let chosen: Vec<(&str, usize)> = if !active.is_empty() {
            active
        } else {
            slot.into_iter()
                .flat_map(|s| self.slot_segments(s))
                .filter(|(l, _, _)| !self.x.is_bounded(l))
                .take(1)
                .map(|(l, node, _)| (l, node))
                .collect()
        };
        if chosen.is_empty() {
            return Ok(Located {
                loc: LocDesc::undefined(),
                ty: None,
                segments: Vec::new(),
            });
        }
        let mut singles = Vec::new();
        let mut ty = None;
        for &lt in &chosen {
            let r = self.eval_segment(ctx, (object, object_at), lt, point, memo, depth)?;
            ty.get_or_insert(r.0);
            singles.extend(r.1.singles().iter().cloned());
        }
        Ok(Located {
            loc: LocDesc::new(singles),
            ty,
            segments: chosen.iter().map(|(l, _)| l.to_string()).collect(),
        })
    }

    /// The location of a `DICode`: "a single implicit location description
    /// with a value that is the address of the start of the basic block that
    /// contain the `llvm.dbg.label` intrinsic that references it" (the entity
    /// `^LABEL` of that block).
    fn code_location(&self, ctx: &ConcreteContext, code: &str) -> Located {
        let m = self.m;
        let loc = match self.x.labels(code).first() {
            Some(&i) => {
                let inst = &m.insts[i];
                let f = &m.functions[inst.func];
                let name = match &f.blocks[inst.block].label {
                    Some(l) => format!("^{l}"),
                    None => format!("^{}.{}", f.name, inst.block),
                };
                entity(ctx, &name, 64)
            }
            None => LocDesc::undefined(),
        };
        Located {
            loc,
            ty: Some(Type::Int(64)),
            segments: Vec::new(),
        }
    }

    /// The type and location of segment `lt` of `object` (each with its
    /// node's index, which the caller has looked up once for all its
    /// segments and points).
    fn eval_segment(
        &self,
        ctx: &ConcreteContext,
        (object, object_at): (&str, Option<usize>),
        (lt, lt_at): (&str, usize),
        point: usize,
        memo: &mut Memo,
        depth: usize,
    ) -> Result<(Type, LocDesc), Diag> {
        // Without inputs a segment's location depends on the context and
        // the object (its referrer is its def's), not on the point. Only
        // such segments are cached, so a cached answer is looked up before
        // the segment's node is read (by the two nodes' indices).
        let m = self.m;
        let key =
            object_at.and_then(|o| Some((u32::try_from(lt_at).ok()?, u32::try_from(o).ok()?)));
        if let Some(r) = key.and_then(|k| memo.fixed.borrow().get(&k).cloned()) {
            return r;
        }
        let found = match &m.nodes.at(lt_at).kind {
            Kind::Lifetime { args, .. } => Some((lt_at, args)),
            _ => None,
        };
        let Some((li, args)) = found else {
            return Err(Diag::ill(
                "DILifetime",
                "bad-location",
                format!("`{lt}` is not a lifetime"),
            ));
        };
        let r = self.eval_segment_at(ctx, object, (lt, li), args, point, memo, depth);
        if args.is_empty() {
            let mut fixed = memo.fixed.borrow_mut();
            if fixed.len() >= SEGMENT_CACHE_ENTRIES {
                // Full: forgotten, and filled again from here. Locating
                // goes object by object, so what is reused is mostly the
                // object at hand's segments and its inputs', both recent.
                fixed.clear();
            }
            if fixed.is_empty() {
                // At most one entry per segment: room for all at once (up
                // to the bound), rather than growing and rehashing.
                fixed.reserve(
                    m.nodes
                        .count_of(&[Tag::Lifetime])
                        .min(SEGMENT_CACHE_ENTRIES),
                );
            }
            if let Some(k) = key {
                fixed.insert(k, r.clone());
            }
        }
        r
    }

    #[allow(clippy::too_many_arguments)] // the segment and where it is evaluated
    fn eval_segment_at(
        &self,
        ctx: &ConcreteContext,
        object: &str,
        (lt, li): (&str, usize),
        args: &[String],
        point: usize,
        memo: &mut Memo,
        depth: usize,
    ) -> Result<(Type, LocDesc), Diag> {
        let m = self.m;
        let e = m.lifetime_expr_at(li).ok_or_else(|| {
            Diag::ill(
                "DILifetime",
                "bad-location",
                format!("`{lt}` has no expression"),
            )
        })?;
        let used = |pick: &dyn Fn(&Op) -> Option<Type>| e.ops.iter().find_map(pick);
        let dl = &ctx.layout;
        // The referrer, for bounded segments.
        let referrer = match m.first_referrer_at(li) {
            Some(referrer) => {
                let expr_ty = used(&|op| match op {
                    Op::Referrer(t) => Some(t.clone()),
                    _ => None,
                });
                Some(referrer_input(ctx, referrer, expr_ty, dl)?)
            }
            None => None,
        };
        let located = memo.inputs.get().saturating_add(args.len() as u64);
        memo.inputs.set(located);
        if !args.is_empty() && located > MAX_LOCATED_INPUTS {
            return Err(Diag::unsupported(
                "DILifetime",
                "limit-exceeded",
                format!(
                    "`{lt}` is not evaluated: locating has located more than {MAX_LOCATED_INPUTS} segment inputs"
                ),
            ));
        }
        let mut inputs = Vec::with_capacity(args.len());
        for (k, a) in args.iter().enumerate() {
            let l = self.locate_in(ctx, a, point, memo, depth + 1)?;
            let ty =
                l.ty.clone()
                    .or_else(|| self.types.get(a).cloned())
                    .unwrap_or_else(|| {
                        used(&|op| match op {
                            Op::Arg(n, t) if *n as usize == k => Some(t.clone()),
                            _ => None,
                        })
                        .unwrap_or(Type::Int(64))
                    });
            inputs.push(Input { ty, loc: l.loc });
        }
        // DECISION (D-simt) for listings: a listing's target is SIMT (the
        // extensions are AMDGPU's), so DIOpPushLane is well-formed there; its
        // value needs the lane, which only the context can give.
        if ctx.lane.is_none() && e.ops.iter().any(|op| matches!(op, Op::PushLane(_))) {
            return Err(Diag::unsupported(
                "DIOpPushLane",
                "lane-not-supplied",
                format!("in `{lt}`: the context gives no (lane N)"),
            ));
        }
        let type_object = if self.type_props.contains_key(object) {
            ctx.type_object.clone()
        } else {
            None
        };
        let sc = SegmentContext {
            base: ctx,
            referrer,
            args: inputs,
            type_object,
        };
        let r = eval(e, &sc).map_err(|d| d.at_place(format!("in `{lt}`")))?;
        Ok((r.ty, r.loc))
    }
}

/// An object of [`Analysis::objects_at`]: its id, its node's index, its
/// place in `by` (none when it has no segments) and whether it is a global
/// variable fragment (located as its global).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectAt<'m> {
    pub id: &'m str,
    node: u32,
    slot: Option<u32>,
    global: bool,
}

/// An object to locate, with what locating it at any point asks first
/// (see [`Analysis::target`]).
struct Target<'o> {
    object: &'o str,
    /// Its node's index ([`NodeMap::index_of`]).
    ///
    /// [`NodeMap::index_of`]: super::listing::NodeMap::index_of
    node: Option<usize>,
    plain: bool,
    /// Its place in `by` (its segments' in `by_segments` follow from it).
    slot: Option<usize>,
}

/// One segment of an object in [`Analysis`]'s `by`: its node's index and
/// the place of its runs in `ranges` (`u32::MAX` for a computed segment,
/// which has none).
struct SegmentAt {
    node: u32,
    runs: u32,
}

/// What [`Analysis::locate_first`] answers: the location and the number of
/// active segments left out.
pub type LocatedFirst = Result<(Located, usize), Diag>;

/// An object's locations at points, each stretch between two boundaries
/// located once (see [`Analysis::pieces`]).
pub struct Pieces<'a, 'c, 'm> {
    analysis: &'a Analysis<'m>,
    cache: &'a SegmentCache<'c>,
    target: Target<'a>,
    limit: usize,
    bounds: Vec<usize>,
    /// The stretch located last (its index among the boundaries) and its
    /// answer.
    last: Option<(usize, LocatedFirst)>,
    /// The points of that stretch, `start..end`: a point inside them is
    /// answered without searching the boundaries (points are mostly asked
    /// for in order, many per stretch).
    span: (usize, usize),
}

impl Pieces<'_, '_, '_> {
    /// The answer of [`Analysis::locate_first`] at `point`.
    pub fn at(&mut self, point: usize) -> &LocatedFirst {
        let (start, end) = self.span;
        if self.last.is_none() || point < start || point >= end {
            let piece = self.bounds.partition_point(|&b| b <= point);
            if self.last.as_ref().is_none_or(|(k, _)| *k != piece) {
                let r = self
                    .analysis
                    .locate_first_of(self.cache, &self.target, point, self.limit);
                self.last = Some((piece, r));
            }
            // Stretch `k` is the points from boundary `k - 1` (or 0) to
            // boundary `k` (or the end).
            let from = piece.checked_sub(1).map_or(0, |k| self.bounds[k]);
            self.span = (from, self.bounds.get(piece).copied().unwrap_or(usize::MAX));
        }
        &self.last.as_ref().expect("located at the first point").1
    }

    /// The stretch `point` lies in, as an index: two points with the same
    /// index have the same answer.
    pub fn piece_of(&self, point: usize) -> usize {
        self.bounds.partition_point(|&b| b <= point)
    }

    /// The first point after `point`'s stretch (`usize::MAX` for the last
    /// stretch): the points from `point` up to it have its answer.
    pub fn stretch_end(&self, point: usize) -> usize {
        self.bounds
            .get(self.piece_of(point))
            .copied()
            .unwrap_or(usize::MAX)
    }
}

/// The location of an LLVM entity: its binding, or its own abstract storage.
pub(crate) fn entity(ctx: &ConcreteContext, name: &str, bits: u64) -> LocDesc {
    ctx.bindings.get(name).cloned().unwrap_or_else(|| {
        LocDesc::single(
            Storage::Entity {
                name: name.to_string(),
                bits,
            },
            0,
        )
    })
}

/// The referrer of a def as an input: "A value of `undef` is allowed and
/// specifies the undefined location description."
pub fn referrer_input(
    ctx: &ConcreteContext,
    r: &Referrer,
    expr_ty: Option<Type>,
    dl: &DataLayout,
) -> Result<Input, Diag> {
    Ok(match r {
        Referrer::Undef => Input {
            ty: expr_ty.unwrap_or(Type::Int(64)),
            loc: LocDesc::undefined(),
        },
        Referrer::Entity { name, ty } => {
            let ty = ty.clone().or(expr_ty).unwrap_or(Type::Int(64));
            Input {
                loc: entity(ctx, name, dl.bitsizeof(&ty)),
                ty,
            }
        }
        Referrer::Constant(t, lit) => Input {
            ty: t.clone(),
            loc: match literal_bits(t, lit, dl)? {
                Some(b) => LocDesc::implicit(b),
                None => LocDesc::undefined(),
            },
        },
    })
}

/// A segment's evaluation context: the module context's memory, registers
/// and lane, with the segment's referrer, inputs and type object.
struct SegmentContext<'a> {
    base: &'a ConcreteContext,
    referrer: Option<Input>,
    args: Vec<Input>,
    type_object: Option<Input>,
}

impl Context for SegmentContext<'_> {
    fn layout(&self) -> &DataLayout {
        &self.base.layout
    }
    fn referrer(&self) -> Option<&Input> {
        self.referrer.as_ref()
    }
    fn args(&self) -> &[Input] {
        &self.args
    }
    fn type_object(&self) -> Option<&Input> {
        self.type_object.as_ref()
    }
    fn lane(&self) -> Option<u64> {
        self.base.lane
    }
    fn register_bits(&self, n: u32) -> Option<u64> {
        self.base.register_bits(n)
    }
    fn read_register(&self, n: u32, offset: u64, len: u64) -> Result<Bits, ReadFail> {
        self.base.read_register(n, offset, len)
    }
    fn read_memory(&self, addrspace: u32, offset: u128, len: u64) -> Result<Bits, ReadFail> {
        self.base.read_memory(addrspace, offset, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifetime::parse_module;

    /// `!1` has one computed segment whose input `!3` has a bounded segment
    /// from its def to its kill: `!1`'s location changes where `!3`'s
    /// segment starts and ends although `!1`'s own segment never does.
    const SPLIT: &str = "%x.lo = i32 0
call void @llvm.dbg.def(metadata !4, metadata i32 %x.lo)
%y = add i32 1, 2
call void @llvm.dbg.kill(metadata !4)
%z = add i32 1, 2
!1 = !DILocalVariable(\"x\")
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i32)), argObjects: {!3})
!3 = distinct !DIFragment()
!4 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpReferrer(i32)))
";

    /// More segments without inputs than a cache holds, each also the
    /// input of another object's computed segment (cached are the segments
    /// without inputs): the cache fills to its bound and no further, and
    /// every object located through it, before and after it started over,
    /// is where locating afresh puts it.
    #[test]
    fn a_full_segment_cache_starts_over_and_answers_the_same() {
        let n = SEGMENT_CACHE_ENTRIES + 100;
        let mut t = String::new();
        for k in 0..n {
            t += &format!(
                "%v{k} = add i32 1, 2\ncall void @llvm.dbg.def(metadata !l{k}, metadata i32 %v{k})\n"
            );
        }
        t += "%end = add i32 1, 2\n";
        for k in 0..n {
            t += &format!(
                "!v{k} = !DILocalVariable(\"v{k}\")\n!l{k} = distinct !DILifetime(object: !v{k}, location: !DIExpr(DIOpReferrer(i32)))\n"
            );
            t += &format!(
                "!u{k} = !DILocalVariable(\"u{k}\")\n!c{k} = distinct !DILifetime(object: !u{k}, location: !DIExpr(DIOpArg(0, i32)), argObjects: {{!v{k}}})\n"
            );
        }
        let m = parse_module(&t).unwrap();
        let a = Analysis::new(&m, Reading::ControlFlow);
        let ctx = ConcreteContext::default();
        let cache = SegmentCache::new(&ctx);
        let end = m.insts.len() - 1;
        let objects = a.objects();
        assert_eq!(objects.len(), 2 * n);
        let mut most = 0;
        for &o in objects.iter().chain(objects.iter().take(50)) {
            let shared = a.locate_cached(&cache, o, end).unwrap();
            let fresh = a.locate(&ctx, o, end).unwrap();
            assert_eq!(shared, fresh, "{o}");
            // Each is its own value's register or entity, not undefined.
            assert!(fresh.loc.to_string().contains("%v"), "{o}: {}", fresh.loc);
            most = most.max(cache.fixed.borrow().len());
        }
        assert_eq!(most, SEGMENT_CACHE_ENTRIES);
    }

    /// An object that names no node keeps its segments by its id, in id
    /// order among the objects with nodes.
    #[test]
    fn an_object_without_a_node_is_found_by_its_id() {
        let m = parse_module(
            "%x = add i32 1, 2
call void @llvm.dbg.def(metadata !l2, metadata i32 %x)
!z = !DILocalVariable(\"z\")
!a = !DILocalVariable(\"a\")
!l1 = distinct !DILifetime(object: !z, location: !DIExpr(DIOpReferrer(i32)))
!l2 = distinct !DILifetime(object: !nowhere, location: !DIExpr(DIOpReferrer(i32)))
!l3 = distinct !DILifetime(object: !a, location: !DIExpr(DIOpReferrer(i32)))
",
        )
        .unwrap();
        let a = Analysis::new(&m, Reading::ControlFlow);
        assert_eq!(
            a.objects_with_segments().collect::<Vec<_>>(),
            ["!a", "!nowhere", "!z"]
        );
        let of = |o: &str| a.segments_of(o).map(|it| it.collect::<Vec<_>>());
        assert_eq!(of("!nowhere"), Some(vec!["!l2"]));
        assert_eq!(of("!a"), Some(vec!["!l3"]));
        assert_eq!(of("!z"), Some(vec!["!l1"]));
        assert_eq!(of("!l1"), None);
        assert_eq!(of("!elsewhere"), None);
        assert_eq!(
            a.segment_ranges("!nowhere")
                .map(|it| it.map(|(_, r)| r.to_vec()).collect::<Vec<_>>()),
            Some(vec![vec![(1, 2)]])
        );
    }

    #[test]
    fn an_input_segment_bounds_the_stretches_of_its_user() {
        let m = parse_module(SPLIT).unwrap();
        let a = Analysis::new(&m, Reading::ControlFlow);
        // The def is instruction 1 and the kill 3: `!4` is active at 1 and 2.
        assert_eq!(a.boundaries("!3"), vec![1, 3]);
        assert_eq!(a.boundaries("!1"), vec![1, 3]);
        let ctx = ConcreteContext::default();
        let cache = SegmentCache::new(&ctx);
        let mut pieces = a.pieces(&cache, "!1", usize::MAX);
        let mut got = Vec::new();
        // Backwards and forwards: the answer depends on the point only.
        for p in (0..m.insts.len()).rev().chain(0..m.insts.len()) {
            let (l, _) = pieces.at(p).as_ref().unwrap();
            assert_eq!(l, &a.locate(&ctx, "!1", p).unwrap(), "at {p}");
            got.push((p, l.loc.to_string()));
        }
        let at = |p: usize| got.iter().find(|g| g.0 == p).unwrap().1.clone();
        assert_eq!(at(0), "undef");
        assert_eq!(at(1), at(2));
        assert_ne!(at(1), "undef");
        assert_eq!(at(3), "undef");
        assert_eq!(at(4), "undef");
    }

    /// `segment_ranges` gives each segment of an object with its own runs
    /// (a computed one with none), and nothing for an object without
    /// segments.
    #[test]
    fn segment_ranges_pairs_each_segment_with_its_runs() {
        let m = parse_module(SPLIT).unwrap();
        let a = Analysis::new(&m, Reading::ControlFlow);
        let of = |o: &str| {
            a.segment_ranges(o).map(|it| {
                it.map(|(lt, r)| (lt.to_string(), r.to_vec()))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(of("!3"), Some(vec![("!4".to_string(), vec![(1, 3)])]));
        assert_eq!(of("!1"), Some(vec![("!2".to_string(), vec![])]));
        assert_eq!(of("!4"), None);
        assert_eq!(of("!9"), None);
    }
}
