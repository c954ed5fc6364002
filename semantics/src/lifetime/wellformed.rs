//! The well-formedness rules of the metadata and the intrinsics.
//!
//! Each sentence of the spec that makes metadata "not well-formed" has its own
//! reason code. The expression of every lifetime segment is also checked
//! (`wellformed::check`) against the signature its segment gives it: a
//! referrer only for bounded segments, the inputs' types from `argObjects`.

use super::listing::{id_prefix, IdMap, IdRefMap, Kind, Module, Named, Node, Referrer, Tag};
use super::ranges::{Intrinsics, Walker};
use crate::context::Signature;
use crate::diag::Diag;
use crate::syntax::{Expr, Op};
use crate::types::Type;
use crate::wellformed::{check, Checked};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet};

fn ill(c: &str, r: &'static str, line: u32, m: impl Into<String>) -> Diag {
    Diag::ill(c, r, format!("line {line}: {}", m.into()))
}

/// Checks a module; returns every diagnostic (empty when well-formed).
pub fn check_module(m: &Module) -> Vec<Diag> {
    let mut out = Vec::new();
    let x = Intrinsics::of(m);
    check_references(m, &x, &mut out);
    if !out.is_empty() {
        return out; // later rules assume the references resolve
    }
    check_lifetime_kinds(m, &x, &mut out);
    check_kills(m, &x, &mut out);
    check_global_fragments(m, &mut out);
    check_type_property_fragments(m, &mut out);
    check_codes(m, &x, &mut out);
    let by = ObjectLifetimes::of(m);
    check_graph(m, &by, &mut out);
    check_computed(m, &x, &by, &mut out);
    check_expressions(m, &x, &by, &mut out);
    check_retention(m, &x, &mut out);
    out
}

/// The kind of the node `id`: what a rule that checks a reference's kind
/// reads, without reading the node.
fn tag(m: &Module, id: &str) -> Option<Tag> {
    m.nodes.tag_of(id)
}

/// Every reference names a node of the right kind.
fn check_references(m: &Module, x: &Intrinsics, out: &mut Vec<Diag>) {
    let missing = |id: &str, line: u32, what: &str| {
        Diag::malformed(
            "Metadata",
            "undefined-node",
            format!("line {line}: {what} `{id}` is not defined"),
        )
    };
    // The instructions' references, from what each names (resolved when
    // the listing was read), reported in instruction order.
    let mut at_insts: Vec<(usize, Diag)> = Vec::new();
    let kinds: [(&mut dyn Iterator<Item = Named>, _, &[Tag]); 3] = [
        (&mut x.each_defs(), "llvm.dbg.def", &[Tag::Lifetime]),
        (&mut x.each_kills(), "llvm.dbg.kill", &[Tag::Lifetime]),
        (&mut x.each_labels(), "llvm.dbg.label", Tag::CODES),
    ];
    for (named, c, fits) in kinds {
        for n in named {
            let (wrong, what) = match c {
                "llvm.dbg.label" => (("not-a-code", "DICode"), "the code location"),
                _ => (("not-a-lifetime", "DILifetime"), "the lifetime"),
            };
            // The instructions are read only to report them.
            let line = |i: usize| m.insts[i].line;
            match n.node {
                Some(k) if fits.contains(&m.nodes.tag_at(k)) => {}
                None => {
                    at_insts.extend(n.insts.iter().map(|&i| (i, missing(n.id(), line(i), what))))
                }
                Some(_) => at_insts.extend(n.insts.iter().map(|&i| {
                    let msg = format!("`{}` is not a {}", n.id(), wrong.1);
                    (i, ill(c, wrong.0, line(i), msg))
                })),
            }
        }
    }
    at_insts.sort_by_key(|(i, _)| *i);
    out.extend(at_insts.into_iter().map(|(_, d)| d));
    let holders = [
        Tag::Lifetime,
        Tag::Subprogram,
        Tag::CompileUnit,
        Tag::CompositeType,
        Tag::LocalVariable,
        Tag::Label,
    ];
    for (i, n) in m.nodes.of_kinds_indexed(&holders) {
        // A lifetime without inputs whose object and location were resolved
        // when the listing was read, to an object and an expression, breaks
        // none of the rules below: known from the node's indices and tags,
        // without reading the node (on a large listing, a cache miss per
        // lifetime).
        if m.nodes.tag_at(i) == Tag::Lifetime
            && !m.has_inputs_at(i)
            && m.object_at(i)
                .is_some_and(|o| Tag::OBJECTS.contains(&m.nodes.tag_at(o)))
            && m.location_at(i)
                .is_some_and(|l| m.nodes.tag_at(l) == Tag::Expr)
        {
            continue;
        }
        match &n.kind {
            Kind::Lifetime {
                object,
                location,
                args,
            } => {
                // The object was resolved when the listing was read.
                let resolved = m.object_at(i).map(|o| m.nodes.tag_at(o));
                match object.as_deref().map(|o| (o, resolved)) {
                    None => out.push(ill(
                        "DILifetime",
                        "bad-object",
                        n.line,
                        format!("`{}` has no object field", n.id),
                    )),
                    Some((o, None)) => out.push(missing(o, n.line, "the object")),
                    Some((o, Some(t))) if !Tag::OBJECTS.contains(&t) => out.push(ill(
                        "DILifetime",
                        "bad-object",
                        n.line,
                        format!("`{o}` is not a DIObject"),
                    )),
                    _ => {}
                }
                // The location was resolved when the listing was read.
                let resolved = m.location_at(i).map(|l| m.nodes.tag_at(l));
                match location.as_deref().map(|l| (l, resolved)) {
                    None => out.push(ill(
                        "DILifetime",
                        "bad-location",
                        n.line,
                        format!("`{}` has no location field", n.id),
                    )),
                    Some((l, None)) => out.push(missing(l, n.line, "the location")),
                    Some((l, Some(t))) if t != Tag::Expr => out.push(ill(
                        "DILifetime",
                        "bad-location",
                        n.line,
                        format!("`{l}` is not a DIExpr"),
                    )),
                    _ => {}
                }
                for a in args {
                    match tag(m, a) {
                        None => out.push(missing(a, n.line, "the argObject")),
                        Some(t) if !Tag::OBJECTS.contains(&t) && !Tag::CODES.contains(&t) => out
                            .push(ill(
                                "DILifetime",
                                "bad-arg",
                                n.line,
                                format!("`{a}` is not a DIObject or DICode"),
                            )),
                        _ => {}
                    }
                }
            }
            Kind::Subprogram {
                retained,
                active_lane_pc,
            } => {
                for r in retained.iter().chain(active_lane_pc) {
                    if tag(m, r).is_none() {
                        out.push(missing(r, n.line, "the node"));
                    }
                }
            }
            Kind::CompileUnit { globals } => {
                for g in globals {
                    if tag(m, g).is_none() {
                        out.push(missing(g, n.line, "the global"));
                    }
                }
            }
            Kind::CompositeType { props } => {
                for (_, p) in props {
                    match tag(m, p) {
                        None => out.push(missing(p, n.line, "the type property")),
                        Some(t) if t != Tag::Fragment => out.push(ill(
                            "DICompositeType",
                            "property-not-fragment",
                            n.line,
                            format!("`{p}` is not a DIFragment"),
                        )),
                        _ => {}
                    }
                }
            }
            Kind::LocalVariable { scope: Some(s), .. } | Kind::Label { scope: Some(s), .. }
                if tag(m, s).is_none() =>
            {
                out.push(missing(s, n.line, "the scope"))
            }
            _ => {}
        }
    }
    for (name, (ids, line)) in &m.named {
        for id in ids {
            if tag(m, id).is_none() {
                out.push(missing(id, *line, &format!("`!{name}` names")));
            }
        }
    }
    for g in &m.globals {
        if let Some(d) = &g.def {
            match tag(m, d) {
                None => out.push(missing(d, g.line, "the global variable fragment")),
                Some(t) if t != Tag::Fragment => out.push(ill(
                    "Global",
                    "dbg-def-not-fragment",
                    g.line,
                    format!("`!dbg.def {d}` is not a DIFragment"),
                )),
                _ => {}
            }
        }
    }
}

/// "If a bounded lifetime segment is not referenced by exactly one call `D`
/// to the `llvm.dbg.def` intrinsic, then the metadata is not well-formed."
/// and "A `DILifetime` which does not match exactly one of the above kinds is
/// not well-formed."
fn check_lifetime_kinds(m: &Module, x: &Intrinsics, out: &mut Vec<Diag>) {
    for n in x.each_defs() {
        let defs = n.insts;
        if defs.len() > 1 {
            let lt = n.id();
            out.push(ill(
                "DILifetime",
                "multiple-defs",
                m.insts[defs[1]].line,
                format!(
                    "`{lt}` is defined by {} calls to llvm.dbg.def (lines {})",
                    defs.len(),
                    defs.iter()
                        .map(|d| m.insts[*d].line.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    for n in x.each_kills() {
        let kills = n.insts;
        if x.defs_of(&n).is_empty() {
            let lt = n.id();
            out.push(ill(
                "DILifetime",
                "kill-without-def",
                m.insts[kills[0]].line,
                format!("`{lt}` is killed but never defined: it is neither bounded (one def) nor computed (no reference)"),
            ));
        }
    }
}

/// "If any member of `K` is not reachable from `D` by following control flow,
/// or if every control flow path for every member of `K` passes through
/// another member of `K`, then the metadata is not well-formed." (Read per
/// member, as `llvm.dbg.kill` also says: "Every call to the `llvm.dbg.kill`
/// intrinsic is required to be reachable from a call to the `llvm.dbg.def`
/// intrinsic which specifies the same `DILifetime`".)
fn check_kills(m: &Module, x: &Intrinsics, out: &mut Vec<Diag>) {
    let mut walker = Walker::new(m);
    // The lifetimes walked in the order their kills are grouped in (a
    // forward read; in id order, a jump per lifetime), the diagnostics
    // then put in id order, each lifetime's in the order of its kills.
    let mut found: Vec<(u64, &str, Diag)> = Vec::new();
    for n in x.each_kills_unordered() {
        let (kills, defs) = (n.insts, x.defs_of(&n));
        if defs.len() != 1 {
            continue;
        }
        let d = defs[0];
        let reached = walker.kills_reached(d, kills);
        let unreached: Vec<usize> = kills
            .iter()
            .copied()
            .filter(|k| reached.binary_search(k).is_err())
            .collect();
        if unreached.is_empty() {
            continue;
        }
        let reachable = walker.reachable_each(d, &unreached);
        for (&k, reachable) in unreached.iter().zip(reachable) {
            let lt = n.id();
            let diag = if reachable {
                ill(
                    "llvm.dbg.kill",
                    "shadowed",
                    m.insts[k].line,
                    format!("every path from the def of `{lt}` (line {}) to this kill passes through another kill of it", m.insts[d].line),
                )
            } else {
                ill(
                    "llvm.dbg.kill",
                    "unreachable-from-def",
                    m.insts[k].line,
                    format!(
                        "this kill of `{lt}` cannot be reached from its def (line {})",
                        m.insts[d].line
                    ),
                )
            };
            found.push((id_prefix(lt), lt, diag));
        }
    }
    // Stable: a lifetime's diagnostics keep the order of its kills.
    found.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    out.extend(found.into_iter().map(|(_, _, d)| d));
}

/// "If a global variable fragment is referenced by more than one global
/// variable `dbg.def` field, then it is not well-formed. If a global variable
/// fragment is referenced by the `object` field of a `DILifetime` then it is
/// not well-formed."
fn check_global_fragments(m: &Module, out: &mut Vec<Diag>) {
    let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for g in &m.globals {
        if let Some(d) = &g.def {
            by.entry(d).or_default().push(&g.name);
        }
    }
    if by.is_empty() {
        return;
    }
    // The lifetimes of each object, in id order: one pass over the nodes,
    // not one per fragment (which was quadratic in the listing).
    let mut of_object: FxHashMap<&str, Vec<&Node>> = FxHashMap::default();
    for n in m.nodes.of_kinds(&[Tag::Lifetime]) {
        if let Kind::Lifetime {
            object: Some(o), ..
        } = &n.kind
        {
            of_object.entry(o.as_str()).or_default().push(n);
        }
    }
    for (f, gs) in &by {
        if gs.len() > 1 {
            let line = m.nodes[*f].line;
            out.push(ill(
                "DIFragment",
                "global-fragment-shared",
                line,
                format!("`{f}` is the dbg.def of {}", gs.join(" and ")),
            ));
        }
        for n in of_object.get(f).into_iter().flatten() {
            out.push(ill(
                "DIFragment",
                "global-fragment-object",
                n.line,
                format!(
                    "`{}` has the global variable fragment `{f}` as its object",
                    n.id
                ),
            ));
        }
    }
}

/// "If a type property fragment is referenced by the `argObjects` field of a
/// `DILifetime` or by more than one `DICompositeType` field, then the metadata
/// is not well-formed."
pub fn type_property_fragments(m: &Module) -> IdMap<Vec<(String, String)>> {
    let mut props: IdMap<Vec<(String, String)>> = IdMap::default();
    for n in m.nodes.of_kinds(&[Tag::CompositeType]) {
        if let Kind::CompositeType { props: ps } = &n.kind {
            for (field, f) in ps {
                props
                    .entry(f.clone())
                    .or_default()
                    .push((n.id.clone(), field.clone()));
            }
        }
    }
    props.sort_unstable_keys();
    props
}

fn check_type_property_fragments(m: &Module, out: &mut Vec<Diag>) {
    let props = type_property_fragments(m);
    if props.is_empty() {
        return;
    }
    // The lifetimes that have each object in `argObjects`, in id order:
    // one pass over the nodes, where a pass per fragment made the rule
    // quadratic (60 000 array types with a `dataLocation` each: 14 s).
    let mut in_args: FxHashMap<&str, Vec<&Node>> = FxHashMap::default();
    for n in m.nodes.of_kinds(&[Tag::Lifetime]) {
        if let Kind::Lifetime { args, .. } = &n.kind {
            for a in args {
                let users = in_args.entry(a.as_str()).or_default();
                if users.last().is_none_or(|u| u.id != n.id) {
                    users.push(n);
                }
            }
        }
    }
    for (f, users) in &props {
        if users.len() > 1 {
            out.push(ill(
                "DIFragment",
                "type-property-shared",
                m.nodes[f].line,
                format!(
                    "`{f}` is referenced by {} DICompositeType fields",
                    users.len()
                ),
            ));
        }
        for n in in_args.get(f.as_str()).into_iter().flatten() {
            out.push(ill(
                "DIFragment",
                "type-property-in-args",
                n.line,
                format!(
                    "`{}` has the type property fragment `{f}` in argObjects",
                    n.id
                ),
            ));
        }
    }
}

/// "If a `DICode` is not referenced by exactly one call to the
/// `llvm.dbg.label` intrinsic, then the metadata is not well-formed."
fn check_codes(m: &Module, x: &Intrinsics, out: &mut Vec<Diag>) {
    for (i, n) in m.nodes.of_kinds_indexed(Tag::CODES) {
        let k = x.labels_at(i).len();
        if k != 1 {
            out.push(ill(
                "DICode",
                "label-count",
                n.line,
                format!("`{}` is referenced by {k} calls to llvm.dbg.label", n.id),
            ));
        }
    }
}

/// The roots of the reachable lifetime graph: every `DIVariable`, every
/// `DICompositeType`, and (DECISION (D-lane-pc-root)) the `activeLanePC`
/// fragment of every `DISubprogram`, which the divergent-lane example needs
/// and the graph's definition does not list.
fn roots(m: &Module) -> Vec<usize> {
    const KINDS: [Tag; 4] = [
        Tag::LocalVariable,
        Tag::GlobalVariable,
        Tag::CompositeType,
        Tag::Subprogram,
    ];
    let mut r = Vec::with_capacity(m.nodes.count_of(&KINDS));
    for (i, n) in m.nodes.of_kinds_indexed(&KINDS) {
        // A variable or a type is a root by its kind alone: only a
        // subprogram's node is read.
        if m.nodes.tag_at(i) != Tag::Subprogram {
            r.push(i);
        } else if let Kind::Subprogram {
            active_lane_pc: Some(f),
            ..
        } = &n.kind
        {
            r.extend(m.nodes.index_of(f));
        }
    }
    r
}

/// The ids of the nodes at `nodes`, borrowed from the module.
pub(super) fn ids_at<'m>(m: &'m Module, nodes: &[u32]) -> Vec<&'m str> {
    nodes
        .iter()
        .map(|&l| m.nodes.at(l as usize).id.as_str())
        .collect()
}

/// The lifetimes of each object.
pub fn lifetimes_of(m: &Module) -> IdRefMap<'_, Vec<&str>> {
    ObjectLifetimes::of(m).by_id(m)
}

/// [`lifetimes_of`] by node index: the lifetimes of the object at node
/// `o` are `at(o)`, as node indices in id order. Built by counting from the
/// objects the listing's reader resolved ([`Module::object_at`]), so that
/// the rules that go from an object to its lifetimes (the graph, the
/// computed segments, the inputs' types) index arrays: by id, each object
/// and each lifetime was a string allocated for the map and a look-up
/// that missed the caches on a large listing.
pub struct ObjectLifetimes {
    /// The lifetimes of node `o` are `lts[start[o]..start[o + 1]]`.
    start: Vec<u32>,
    lts: Vec<u32>,
    /// The lifetimes whose object names no node (a listing that fails
    /// `undefined-node`), by that id, in id order.
    lost: IdMap<Vec<u32>>,
}

impl ObjectLifetimes {
    pub fn of(m: &Module) -> ObjectLifetimes {
        let n = m.nodes.len();
        let mut start = vec![0u32; n + 1];
        let mut lost: IdMap<Vec<u32>> = IdMap::default();
        let lifetimes: Vec<(usize, &Node)> = m.nodes.of_kinds_indexed(&[Tag::Lifetime]).collect();
        for &(i, node) in &lifetimes {
            match (m.object_at(i), &node.kind) {
                (Some(o), _) => start[o + 1] += 1,
                (
                    None,
                    Kind::Lifetime {
                        object: Some(o), ..
                    },
                ) => lost.entry(o.clone()).or_default().push(i as u32),
                _ => {}
            }
        }
        for o in 0..n {
            start[o + 1] += start[o];
        }
        let mut next = start.clone();
        let mut lts = vec![0u32; start[n] as usize];
        for &(i, _) in &lifetimes {
            if let Some(o) = m.object_at(i) {
                lts[next[o] as usize] = i as u32;
                next[o] += 1;
            }
        }
        lost.sort_unstable_keys();
        ObjectLifetimes { start, lts, lost }
    }
    /// The lifetimes of the object at node `o`, in id order.
    pub fn at(&self, o: usize) -> &[u32] {
        match (self.start.get(o), self.start.get(o + 1)) {
            (Some(&a), Some(&b)) => &self.lts[a as usize..b as usize],
            _ => &[],
        }
    }
    /// The same by id: [`lifetimes_of`]. The objects in id order: those
    /// with a node as the node table orders them, merged with those that
    /// name none.
    pub fn by_id<'m>(&self, m: &'m Module) -> IdRefMap<'m, Vec<&'m str>> {
        self.by_object(m)
            .into_iter()
            .map(|(o, _, lts)| (o, ids_at(m, lts)))
            .collect()
    }
    /// Each object with its node's index (none for an object that names no
    /// node) and its lifetimes' node indices, as [`lifetimes_of`] orders
    /// them: the objects in id order, those with a node as the node table
    /// orders them merged with those that name none.
    pub(super) fn by_object<'s, 'm>(
        &'s self,
        m: &'m Module,
    ) -> Vec<(&'m str, Option<u32>, &'s [u32])> {
        // An object's id is read from its first lifetime's `object` field,
        // which names it: the object's own node is not read, and an object
        // that names no node has one too. (Every entry is a lifetime with an
        // object, so none is left out.)
        let object_id = |lts: &[u32]| match &m.nodes.at(*lts.first()? as usize).kind {
            Kind::Lifetime {
                object: Some(o), ..
            } => Some(o.as_str()),
            _ => None,
        };
        let mut by: Vec<(&'m str, Option<u32>, &'s [u32])> = m
            .nodes
            .order_indices()
            .map(|o| (o, self.at(o as usize)))
            .filter_map(|(o, lts)| Some((object_id(lts)?, Some(o), lts)))
            .collect();
        if !self.lost.is_empty() {
            let lost = self
                .lost
                .values()
                .map(|lts| Some((object_id(lts)?, None, lts.as_slice())));
            by.extend(lost.flatten());
            by.sort_by(|a, b| (id_prefix(a.0), a.0).cmp(&(id_prefix(b.0), b.0)));
        }
        by
    }
    /// [`ObjectLifetimes::by_object`], in its order, each object by its
    /// node where it has one: no object's id is read (on a large listing,
    /// a cache miss per object) unless some object names no node, whose
    /// id orders it among the others.
    pub(super) fn by_object_keys<'s, 'm>(
        &'s self,
        m: &'m Module,
    ) -> Vec<(ObjectKey<'m>, &'s [u32])> {
        if self.lost.is_empty() {
            return m
                .nodes
                .order_indices()
                .map(|o| (ObjectKey::Node(o), self.at(o as usize)))
                .filter(|(_, lts)| !lts.is_empty())
                .collect();
        }
        self.by_object(m)
            .into_iter()
            .map(|(id, node, lts)| (node.map_or(ObjectKey::Lost(id), ObjectKey::Node), lts))
            .collect()
    }
    /// The lifetimes of the object `id`, in id order.
    pub fn of_id(&self, m: &Module, id: &str) -> &[u32] {
        match m.nodes.index_of(id) {
            Some(o) => self.at(o),
            None => self.lost.get(id).map_or(&[], Vec::as_slice),
        }
    }
}

/// An object of [`ObjectLifetimes::by_object_keys`]: its node's index, or
/// its id when it names no node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ObjectKey<'m> {
    Node(u32),
    Lost(&'m str),
}

/// The edges of the reachable lifetime graph from the node at `node`.
fn edges<'m>(m: &'m Module, by: &'m ObjectLifetimes, node: usize) -> Edges<'m> {
    match &m.nodes.at(node).kind {
        Kind::CompositeType { props } => Edges::Props(props),
        Kind::Lifetime { args, .. } => Edges::Ids(args),
        _ => Edges::Nodes(by.at(node)),
    }
}

/// A node's edges, borrowed from the node or from [`ObjectLifetimes`].
enum Edges<'m> {
    Ids(&'m [String]),
    /// A composite type's properties: (field, fragment).
    Props(&'m [(String, String)]),
    /// An object's lifetimes.
    Nodes(&'m [u32]),
}

impl Edges<'_> {
    /// The `k`th edge's node (`Some(None)` for an id that names no node).
    fn get(&self, m: &Module, k: usize) -> Option<Option<usize>> {
        match self {
            Edges::Ids(ids) => ids.get(k).map(|id| m.nodes.index_of(id)),
            Edges::Props(props) => props.get(k).map(|(_, f)| m.nodes.index_of(f)),
            Edges::Nodes(ns) => ns.get(k).map(|&i| Some(i as usize)),
        }
    }
}

/// "If the reachable lifetime graph has any cycles or if any `DILifetime`,
/// `DIFragment`, or `DIExprCode` are not in the reachable lifetime graph, then
/// the metadata is not well-formed."
fn check_graph(m: &Module, by: &ObjectLifetimes, out: &mut Vec<Diag>) {
    let roots = roots(m);
    // Iterative three-colour DFS (no recursion: graphs can be deep), the
    // colours in an array by node index (a map keyed by id hashed and
    // compared the id at every edge). Every id in the graph names a node:
    // `check_references` has passed.
    const WHITE: u8 = 0;
    const ON_STACK: u8 = 1;
    const DONE: u8 = 2;
    let mut colour = vec![WHITE; m.nodes.len()];
    let mut cycle_reported = false;
    let mut stack = Vec::new();
    let id = |i: usize| m.nodes.at(i).id.as_str();
    for r in roots {
        if colour[r] != WHITE {
            continue;
        }
        stack.push((r, edges(m, by, r), 0usize));
        colour[r] = ON_STACK;
        while let Some((i, es, k)) = stack.last_mut() {
            let Some(next) = es.get(m, *k) else {
                colour[*i] = DONE;
                stack.pop();
                continue;
            };
            *k += 1;
            let here = *i;
            let Some(j) = next else {
                continue;
            };
            match colour[j] {
                ON_STACK if !cycle_reported => {
                    cycle_reported = true;
                    let path: Vec<&str> = stack.iter().map(|(i, _, _)| id(*i)).collect();
                    let line = m.nodes.at(here).line;
                    out.push(ill(
                        "lifetime-graph",
                        "cycle",
                        line,
                        format!("{} -> {}", path.join(" -> "), id(j)),
                    ));
                }
                WHITE => {
                    colour[j] = ON_STACK;
                    stack.push((j, edges(m, by, j), 0));
                }
                _ => {}
            }
        }
    }
    for (i, n) in m
        .nodes
        .of_kinds_indexed(&[Tag::Lifetime, Tag::Fragment, Tag::ExprCode])
    {
        if colour[i] == WHITE {
            out.push(ill(
                "lifetime-graph",
                "unreachable",
                n.line,
                format!(
                    "`{}` is not reachable from any variable, composite type or activeLanePC",
                    n.id
                ),
            ));
        }
    }
}

/// DECISION (D-one-computed): an object has at most one computed lifetime
/// segment (`multiple-computed`): the spec speaks of "the computed lifetime
/// segment" (the DWARF default location list entry), of which there is one.
fn check_computed(m: &Module, x: &Intrinsics, by: &ObjectLifetimes, out: &mut Vec<Diag>) {
    // The objects in id order. Every object names a node
    // (`check_references` has passed), and one with fewer than two
    // segments cannot have two computed ones.
    for o in m.nodes.order_indices() {
        let lts = by.at(o as usize);
        if lts.len() < 2 {
            continue;
        }
        let computed: Vec<&str> = lts
            .iter()
            .filter(|&&l| x.bounded_defs_at(l as usize).is_none())
            .map(|&l| m.nodes.at(l as usize).id.as_str())
            .collect();
        if computed.len() > 1 {
            let line = m.nodes[computed[1]].line;
            out.push(ill(
                "DIObject",
                "multiple-computed",
                line,
                format!(
                    "`{}` has computed lifetime segments {}",
                    m.nodes.at(o as usize).id,
                    computed.join(", ")
                ),
            ));
        }
    }
}

/// Every object that is some lifetime segment's input (`argObjects`).
fn input_objects(m: &Module) -> FxHashSet<&str> {
    m.lifetimes_with_inputs()
        .flat_map(|args| args.iter().map(String::as_str))
        .collect()
}

/// The type of each object as an input (`DIOpArg`): the result type of its
/// lifetime segments, a pointer for a global variable fragment, `i64` (a code
/// address) for a `DICode`. Objects with no segment have no entry, nor do
/// objects that are no segment's input (`argObjects`): the type is asked
/// only of inputs, and an input's type depends only on its own inputs', so
/// leaving the others out changes no answer and spares a second check of
/// most expressions. Computed as a fixpoint (at most 64 rounds), so shared
/// inputs cost nothing extra and cycles (reported by `check_graph`) cannot
/// make it loop.
pub fn object_types(m: &Module, by: &ObjectLifetimes, globals: &BTreeSet<String>) -> IdMap<Type> {
    let type_props = type_property_fragments(m);
    let mut types: IdMap<Type> = IdMap::default();
    for n in m.nodes.of_kinds(Tag::CODES) {
        types.insert(n.id.clone(), Type::Int(64));
    }
    for g in globals {
        if m.nodes.get(g).is_some_and(|n| !n.is_code()) {
            types.insert(g.clone(), Type::ptr(1));
        }
    }
    // The inputs in id order, each with its segments.
    let mut inputs: Vec<(u64, &str)> = input_objects(m)
        .into_iter()
        .map(|o| (id_prefix(o), o))
        .collect();
    inputs.sort_unstable();
    let inputs: Vec<(&str, &[u32])> = inputs
        .into_iter()
        .map(|(_, o)| (o, by.of_id(m, o)))
        .filter(|(_, lts)| !lts.is_empty())
        .collect();
    for _ in 0..64 {
        let mut changed = false;
        for &(o, lts) in &inputs {
            if types.contains_key(o) {
                continue;
            }
            for &lt in lts {
                let ln = m.nodes.at(lt as usize);
                let Some(e) = m.lifetime_expr(ln) else {
                    continue;
                };
                let referrer = Some(Referrer::Undef);
                if let Ok(c) = check(
                    e,
                    &static_signature(m, ln, &types, &type_props, referrer.as_ref()),
                ) {
                    types.insert(o.to_string(), c.result);
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
    types.sort_unstable_keys();
    types
}

/// The signature a lifetime segment gives its expression. `referrer` is the
/// def's referrer for bounded segments; `types` the inputs' types.
///
/// DECISION (D-untyped-entities): where the listing does not give a type (a
/// MIR register `$r0`, a frame index, an input object with no segments), the
/// type the expression itself uses (`DIOpReferrer(T)`, `DIOpArg(N, T)`,
/// `DIOpTypeObject(T)`) is taken, so the size rules hold trivially there.
pub fn static_signature(
    m: &Module,
    lifetime: &Node,
    types: &IdMap<Type>,
    type_props: &IdMap<Vec<(String, String)>>,
    referrer: Option<&Referrer>,
) -> Signature {
    let e = m.lifetime_expr(lifetime);
    signature_for(m, lifetime, e, types, type_props, referrer)
}

/// [`static_signature`] of `lifetime`, whose expression `e` is.
fn signature_for(
    m: &Module,
    lifetime: &Node,
    e: Option<&Expr>,
    types: &IdMap<Type>,
    type_props: &IdMap<Vec<(String, String)>>,
    referrer: Option<&Referrer>,
) -> Signature {
    let Kind::Lifetime { args, .. } = &lifetime.kind else {
        return Signature::default();
    };
    let used = |pick: &dyn Fn(&Op) -> Option<Type>| e.and_then(|e| e.ops.iter().find_map(pick));
    let referrer_ty = referrer.map(|r| match r {
        Referrer::Entity { ty: Some(t), .. } | Referrer::Constant(t, _) => t.clone(),
        _ => used(&|op| match op {
            Op::Referrer(t) => Some(t.clone()),
            _ => None,
        })
        .unwrap_or(Type::Int(64)),
    });
    let arg_types = args
        .iter()
        .enumerate()
        .map(|(k, a)| {
            types.get(a).cloned().unwrap_or_else(|| {
                used(&|op| match op {
                    Op::Arg(n, t) if *n as usize == k => Some(t.clone()),
                    _ => None,
                })
                .unwrap_or(Type::Int(64))
            })
        })
        .collect();
    let is_type_property = matches!(&lifetime.kind, Kind::Lifetime { object: Some(o), .. } if type_props.contains_key(o));
    Signature {
        layout: m.data_layout(),
        referrer: referrer_ty,
        args: arg_types,
        type_object: is_type_property.then(|| {
            used(&|op| match op {
                Op::TypeObject(t) => Some(t.clone()),
                _ => None,
            })
            .unwrap_or(Type::Int(64))
        }),
        simt: true,
    }
}

/// The global variable fragments (`!dbg.def` of some global).
pub fn global_fragments(m: &Module) -> BTreeSet<String> {
    m.globals.iter().filter_map(|g| g.def.clone()).collect()
}

/// Every lifetime's expression is well-formed in its segment's signature
/// (which makes `DIOpReferrer` in a computed segment `DIOpReferrer:
/// not-bounded`, and `DIOpTypeObject` outside a type property
/// `DIOpTypeObject: not-type-property`).
fn check_expressions(m: &Module, x: &Intrinsics, by: &ObjectLifetimes, out: &mut Vec<Diag>) {
    let globals = global_fragments(m);
    let types = object_types(m, by, &globals);
    let type_props = type_property_fragments(m);
    // Each segment's expression checked once, in its segment's signature:
    // the sizes below and the verdicts after them both read it.
    let mut checked: Vec<(&Node, Result<Checked, Diag>)> =
        Vec::with_capacity(m.nodes.count_of(&[Tag::Lifetime]));
    for (i, n) in m.nodes.of_kinds_indexed(&[Tag::Lifetime]) {
        let Some(e) = m.lifetime_expr_at(i) else {
            continue;
        };
        let referrer = x
            .bounded_defs_at(i)
            .map(|_| m.first_referrer_at(i).unwrap_or(&Referrer::Undef));
        let sig = signature_for(m, n, Some(e), &types, &type_props, referrer);
        checked.push((n, check(e, &sig)));
    }
    let sizes = segment_sizes(m, &input_objects(m), &checked);
    for (n, verdict) in &checked {
        // DECISION (D-arg-object-sizes): an input's size must not depend on
        // which of its object's segments is active: checked against every
        // segment, not the first that checks (which would make the verdict
        // depend on how the nodes are numbered). Without inputs anywhere
        // there are no sizes, and the lifetime is not read again.
        let args: &[String] = if sizes.is_empty() {
            &[]
        } else {
            match &n.kind {
                Kind::Lifetime { args, .. } => args,
                _ => &[],
            }
        };
        let conflict = args.iter().enumerate().find_map(|(k, a)| {
            let s = sizes.get(a.as_str())?;
            let mut it = s.iter();
            let (b1, l1) = it.next()?;
            let (b2, l2) = it.next()?;
            Some(ill(
                "DIOpArg",
                "segment-sizes-differ",
                n.line,
                format!(
                    "`{}`: input {k}, `{a}`, has a segment of {b1} bits (`{l1}`) and one of {b2} bits (`{l2}`): `bitsizeof(I)` depends on the point",
                    n.id
                ),
            ))
        });
        if let Some(d) = conflict {
            out.push(d);
            continue;
        }
        if let Err(d) = verdict {
            out.push(d.clone().at_place(format!("line {} (`{}`)", n.line, n.id)));
        }
    }
}

/// The result sizes of each input object's segments (those whose
/// expression checks), each with the first segment (in id order) of that
/// size. `checked` is every segment with an expression, in id order, with
/// its verdict. (Only an input's sizes are asked for: an object that is no
/// segment's input has none, which spares a map per object.)
fn segment_sizes<'m>(
    m: &Module,
    inputs: &FxHashSet<&str>,
    checked: &[(&'m Node, Result<Checked, Diag>)],
) -> FxHashMap<&'m str, BTreeMap<u64, &'m str>> {
    let dl = m.data_layout();
    let mut out: FxHashMap<&str, BTreeMap<u64, &str>> = FxHashMap::default();
    if inputs.is_empty() {
        return out;
    }
    for (n, verdict) in checked {
        let (
            Kind::Lifetime {
                object: Some(o), ..
            },
            Ok(c),
        ) = (&n.kind, verdict)
        else {
            continue;
        };
        if inputs.contains(o.as_str()) {
            out.entry(o.as_str())
                .or_default()
                .entry(dl.bitsizeof(&c.result))
                .or_insert(n.id.as_str());
        }
    }
    out
}

/// `DISubprogram` and `DICompileUnit` retention rules.
///
/// DECISION (D-retention-scope): the rules are checked where the listing has
/// what they talk about: a local variable or label with a `scope:` must be in
/// that subprogram's `retainedNodes`; a `DIExprCode` labelled in a function
/// with a subprogram must be retained by it; computed segments are checked
/// only when the listing has a subprogram or `!llvm.dbg.retainedNodes`;
/// globals only when it has a `DICompileUnit`. The spec's examples elide all
/// of this with `...`. A computed segment that involves nothing of any
/// function (an all-undef fragment) may be retained by either.
fn check_retention(m: &Module, x: &Intrinsics, out: &mut Vec<Diag>) {
    // Each subprogram's retainedNodes as a set, and every node some
    // subprogram retains: built once, where a look-up per node copied and
    // scanned the list (quadratic in a subprogram's retained nodes).
    let retained: FxHashMap<&str, FxHashSet<&str>> = m
        .nodes
        .of_kinds(&[Tag::Subprogram])
        .filter_map(|n| match &n.kind {
            Kind::Subprogram { retained, .. } => {
                Some((n.id.as_str(), retained.iter().map(String::as_str).collect()))
            }
            _ => None,
        })
        .collect();
    let retained_by_any: FxHashSet<&str> = retained.values().flatten().copied().collect();
    let is_retained_by = |sp: &str, id: &str| retained.get(sp).is_some_and(|r| r.contains(id));
    // "All DILocalVariable local variables, DILabel labels, and DIExprCode code
    // locations of the function are required to be referenced by the
    // retainedNodes field of the DISubprogram."
    // (The rule asks only of a scope that is a subprogram: with none in the
    // listing, the variables and labels are not visited.)
    let scoped: &[Tag] = if retained.is_empty() {
        &[]
    } else {
        &[Tag::LocalVariable, Tag::Label]
    };
    for n in m.nodes.of_kinds(scoped) {
        if let Kind::LocalVariable { scope: Some(s), .. } | Kind::Label { scope: Some(s), .. } =
            &n.kind
        {
            if retained.contains_key(s.as_str()) && !is_retained_by(s, &n.id) {
                out.push(ill(
                    "DISubprogram",
                    "not-retained",
                    n.line,
                    format!(
                        "`{}` belongs to `{s}` but is not in its retainedNodes",
                        n.id
                    ),
                ));
            }
        }
    }
    // A listing with one subprogram and one function pairs them.
    let lone_subprogram = (retained.len() == 1 && m.functions.len() == 1)
        .then(|| retained.keys().next().map(|sp| sp.to_string()))
        .flatten();
    let subprogram_of_inst = |i: usize| {
        m.functions[m.insts[i].func]
            .subprogram
            .clone()
            .or_else(|| lone_subprogram.clone())
    };
    for (c, n) in m.nodes.of_kinds_indexed(&[Tag::ExprCode]) {
        if let Some(&i) = x.labels_at(c).first() {
            if let Some(sp) = subprogram_of_inst(i) {
                if !is_retained_by(&sp, &n.id) {
                    out.push(ill(
                        "DISubprogram",
                        "not-retained",
                        n.line,
                        format!(
                            "`{}` is labelled in `{sp}`'s function but is not in its retainedNodes",
                            n.id
                        ),
                    ));
                }
            }
        }
    }
    // Computed lifetime segments.
    let has_sp = !retained.is_empty();
    let module_retained: FxHashSet<&str> = m
        .named
        .get("llvm.dbg.retainedNodes")
        .map(|(v, _)| v.iter().map(String::as_str).collect())
        .unwrap_or_default();
    if has_sp || m.named.contains_key("llvm.dbg.retainedNodes") {
        let by = lifetimes_of(m);
        let mut memo = FxHashMap::default();
        for (i, n) in m.nodes.of_kinds_indexed(&[Tag::Lifetime]) {
            let Kind::Lifetime {
                object: Some(o),
                args,
                ..
            } = &n.kind
            else {
                continue;
            };
            if x.bounded_defs_at(i).is_some() {
                continue;
            }
            let mut involved = vec![o.clone()];
            involved.extend(args.iter().cloned());
            let home = local_home(m, x, &by, &involved, &subprogram_of_inst, 0, &mut memo);
            let in_sp = |sp: &str| is_retained_by(sp, &n.id);
            let any_sp = retained_by_any.contains(n.id.as_str());
            let (ok, want) = match &home {
                Home::Local(sp) => (in_sp(sp), format!("the retainedNodes of `{sp}`")),
                Home::Module => (
                    module_retained.contains(n.id.as_str()),
                    "!llvm.dbg.retainedNodes".to_string(),
                ),
                Home::Neutral => (
                    any_sp || module_retained.contains(n.id.as_str()),
                    "a retainedNodes list (it involves nothing function-specific)".to_string(),
                ),
            };
            if !ok {
                out.push(ill(
                    "DILifetime",
                    "wrong-retainer",
                    n.line,
                    format!(
                        "the computed segment `{}` must be referenced by {want}",
                        n.id
                    ),
                ));
            }
        }
    }
    // "All DIGlobalVariable global variables of the compile unit are required
    // to be referenced by the globals field of the DICompileUnit." and "All
    // DICompileUnit compile units are required to be referenced by the
    // !llvm.dbg.cu named metadata node".
    let cus: Vec<&Node> = m.nodes.of_kinds(&[Tag::CompileUnit]).collect();
    if !cus.is_empty() {
        let listed: BTreeSet<String> = cus
            .iter()
            .flat_map(|c| match &c.kind {
                Kind::CompileUnit { globals } => globals.clone(),
                _ => Vec::new(),
            })
            .collect();
        // DECISION (D-global-declarations): a declaration
        // (`isDefinition: false`) is a variable of another unit, not one
        // of this unit's globals: clang++ writes one for each `using` of a
        // namespace-scope variable, referenced by a DIImportedEntity and
        // in no `globals:` list (a TU including <z3++.h> holds one).
        for n in m.nodes.of_kinds(&[Tag::GlobalVariable]) {
            let declaration = matches!(
                n.kind,
                Kind::GlobalVariable {
                    definition: false,
                    ..
                }
            );
            if !declaration && !listed.contains(&n.id) {
                out.push(ill(
                    "DICompileUnit",
                    "global-not-listed",
                    n.line,
                    format!("`{}` is not in any DICompileUnit's globals", n.id),
                ));
            }
        }
        let cu_list: FxHashSet<&str> = m
            .named
            .get("llvm.dbg.cu")
            .map(|(v, _)| v.iter().map(String::as_str).collect())
            .unwrap_or_default();
        for c in cus {
            if !cu_list.contains(c.id.as_str()) {
                out.push(ill(
                    "DICompileUnit",
                    "not-in-llvm-dbg-cu",
                    c.line,
                    format!("`{}` is not referenced by !llvm.dbg.cu", c.id),
                ));
            }
        }
    }
}

/// Where a computed segment belongs.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Home {
    /// It involves nothing of any function (constants, all-undef fragments):
    /// either retainer will do.
    Neutral,
    /// Only things of one function (with this subprogram).
    Local(String),
    /// Globals, or things of several functions.
    Module,
}

fn join_home(a: Home, b: Home) -> Home {
    match (a, b) {
        (Home::Neutral, x) | (x, Home::Neutral) => x,
        (Home::Local(p), Home::Local(q)) if p == q => Home::Local(p),
        _ => Home::Module,
    }
}

/// Where the involved nodes put a computed segment ("If only involve
/// DILocalVariables, DICompositeTypes, and bounded lifetime segments of the
/// same function").
///
/// A fragment's home, at a depth, is computed once (`memo`): fragments
/// whose segments take the next fragment as an input twice made the walk
/// exponential in the chain (40 of them, a 4 KB listing, ran past a
/// minute). The depth is part of the key, so the bound of 64 cuts a chain
/// exactly where it did.
fn local_home(
    m: &Module,
    x: &Intrinsics,
    by: &IdRefMap<Vec<&str>>,
    involved: &[String],
    sp_of: &dyn Fn(usize) -> Option<String>,
    depth: usize,
    memo: &mut FxHashMap<(String, usize), Home>,
) -> Home {
    if depth > 64 {
        return Home::Module;
    }
    let local = |sp: Option<String>| sp.map(Home::Local).unwrap_or(Home::Module);
    let mut home = Home::Neutral;
    for id in involved {
        let Some(n) = m.nodes.get(id) else {
            return Home::Module;
        };
        let h = match &n.kind {
            // DECISION (D-local-home-lexical-block): a variable declared in
            // a lexical block is a variable of the function of the
            // subprogram the block nests in.
            Kind::LocalVariable { scope, .. } => local(
                scope
                    .as_deref()
                    .map(|s| m.enclosing_subprogram(s).unwrap_or_else(|| s.to_string())),
            ),
            Kind::CompositeType { .. } => Home::Neutral,
            Kind::ExprCode | Kind::Label { .. } => {
                local(x.labels(id).first().and_then(|&i| sp_of(i)))
            }
            Kind::Fragment if memo.contains_key(&(id.clone(), depth)) => {
                memo[&(id.clone(), depth)].clone()
            }
            Kind::Fragment => {
                // A fragment is where its segments are: bounded ones in the
                // function of their def, computed ones where their inputs are.
                let mut h = Home::Neutral;
                for &lt in by.get(id.as_str()).into_iter().flatten() {
                    let one = if let Some(d) = x.defs(lt).first() {
                        local(sp_of(*d))
                    } else if let Some(Kind::Lifetime { args, .. }) =
                        m.nodes.get(lt).map(|n| &n.kind)
                    {
                        local_home(m, x, by, args, sp_of, depth + 1, memo)
                    } else {
                        Home::Module
                    };
                    h = join_home(h, one);
                }
                memo.insert((id.clone(), depth), h.clone());
                h
            }
            _ => Home::Module,
        };
        home = join_home(home, h);
    }
    home
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifetime::parse_module;

    /// The check of `m` reports exactly `want`, in that order: each
    /// diagnostic's place (its message up to the first colon) and reason.
    fn assert_reports(m: &Module, want: &[(&str, &str)]) {
        let got: Vec<(String, &str)> = check_module(m)
            .iter()
            .map(|d| (d.message.split(':').next().unwrap().to_string(), d.reason))
            .collect();
        let want: Vec<(String, &str)> = want.iter().map(|(l, r)| (l.to_string(), *r)).collect();
        assert_eq!(got, want);
    }

    /// The instructions' references are reported in instruction order,
    /// whatever kind names what: the index groups them by node, and the
    /// check sorts them back.
    #[test]
    fn bad_references_are_reported_in_instruction_order() {
        let m = parse_module(
            "call void @llvm.dbg.kill(metadata !9)
call void @llvm.dbg.def(metadata !1, metadata i32 0)
call void @llvm.dbg.label(metadata !2)
call void @llvm.dbg.def(metadata !8, metadata i32 0)
call void @llvm.dbg.label(metadata !7)
call void @llvm.dbg.kill(metadata !1)
!1 = !DILocalVariable(\"x\")
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))
",
        )
        .unwrap();
        assert_reports(
            &m,
            &[
                ("line 1", "undefined-node"),
                ("line 2", "not-a-lifetime"),
                ("line 3", "not-a-code"),
                ("line 4", "undefined-node"),
                ("line 5", "undefined-node"),
                ("line 6", "not-a-lifetime"),
            ],
        );
    }

    /// An inline expression that several lifetimes share (one node) is
    /// still checked in each lifetime's own signature: `DIOpReferrer` is
    /// well-formed in the bounded segment and reported in each computed one.
    #[test]
    fn a_shared_inline_expression_is_checked_per_lifetime() {
        let m = parse_module(
            "call void @llvm.dbg.def(metadata !l2, metadata i32 0)
!1 = !DILocalVariable(\"x\")
!2 = !DILocalVariable(\"y\")
!l1 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))
!l2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))
!l3 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpReferrer(i32)))
",
        )
        .unwrap();
        let at = |id: &str| m.nodes.index_of(id).unwrap();
        assert_eq!(m.location_at(at("!l1")), m.location_at(at("!l2")));
        let got: Vec<(String, &str)> = check_module(&m)
            .iter()
            .map(|d| (d.message.to_string(), d.reason))
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        for ((message, reason), id) in got.iter().zip(["`!l1`", "`!l3`"]) {
            assert_eq!(*reason, "not-bounded");
            assert!(message.contains(id), "{message}");
        }
    }

    /// The kills are walked in the order of the nodes, and their
    /// diagnostics reported in id order: `!l10` before `!l9` (whose node
    /// comes first), each lifetime's in the order of its kills.
    #[test]
    fn kill_diagnostics_are_in_id_order_whatever_the_node_order() {
        let m = parse_module(
            "call void @llvm.dbg.kill(metadata !l9)
call void @llvm.dbg.kill(metadata !l10)
call void @llvm.dbg.def(metadata !l9, metadata i8 undef)
call void @llvm.dbg.def(metadata !l10, metadata i8 undef)
call void @llvm.dbg.kill(metadata !l10)
call void @llvm.dbg.kill(metadata !l10)
call void @llvm.dbg.kill(metadata !l9)
ret void
!1 = !DILocalVariable(\"x\")
!2 = !DILocalVariable(\"y\")
!l9 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpConstant(i8 1)))
!l10 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpConstant(i8 1)))
",
        )
        .unwrap();
        assert_reports(
            &m,
            &[
                ("line 2", "unreachable-from-def"),
                ("line 6", "shadowed"),
                ("line 1", "unreachable-from-def"),
            ],
        );
    }

    /// [`ObjectLifetimes`] (and `lifetimes_of`, built from it) gives each
    /// object the lifetimes whose `object` names it, in id order, and the
    /// objects in id order, whatever order the nodes are defined in: an
    /// object with three lifetimes defined out of id order, one with one,
    /// one that names no node. The reference groups the nodes' own fields
    /// in a `BTreeMap` (string order is id order).
    #[test]
    fn object_lifetimes_group_the_lifetimes_by_object_in_id_order() {
        const LOST: &str =
            "!l5 = distinct !DILifetime(object: !nowhere, location: !DIExpr(DIOpConstant(i8 1)))\n";
        let text = format!(
            "!x = !DILocalVariable(\"x\")
!y = !DILocalVariable(\"y\")
!l9 = distinct !DILifetime(object: !x, location: !DIExpr(DIOpConstant(i8 1)))
!l10 = distinct !DILifetime(object: !y, location: !DIExpr(DIOpConstant(i8 1)))
!l2 = distinct !DILifetime(object: !x, location: !DIExpr(DIOpConstant(i8 1)))
!l100 = distinct !DILifetime(object: !x, location: !DIExpr(DIOpConstant(i8 1)))
{LOST}"
        );
        let m = parse_module(&text).unwrap();
        let mut want: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for n in m.nodes.values() {
            if let Kind::Lifetime {
                object: Some(o), ..
            } = &n.kind
            {
                want.entry(o.clone()).or_default().push(n.id.clone());
            }
        }
        assert_eq!(want["!x"], ["!l100", "!l2", "!l9"]);
        let got: Vec<(String, Vec<String>)> = lifetimes_of(&m)
            .into_iter()
            .map(|(o, lts)| (o.to_string(), lts.into_iter().map(str::to_string).collect()))
            .collect();
        assert_eq!(got, want.clone().into_iter().collect::<Vec<_>>());
        let at = ObjectLifetimes::of(&m);
        // By key, in the same order: `!nowhere` by its id, the rest by node.
        let keys: Vec<(String, &[u32])> = at
            .by_object_keys(&m)
            .into_iter()
            .map(|(k, lts)| match k {
                ObjectKey::Node(o) => (m.nodes.at(o as usize).id.clone(), lts),
                ObjectKey::Lost(id) => (format!("lost {id}"), lts),
            })
            .collect();
        let by_id: Vec<(String, &[u32])> = at
            .by_object(&m)
            .into_iter()
            .map(|(id, node, lts)| (node.map_or(format!("lost {id}"), |_| id.to_string()), lts))
            .collect();
        assert_eq!(keys, by_id);
        assert_eq!(
            keys.iter().map(|k| k.0.as_str()).collect::<Vec<_>>(),
            ["lost !nowhere", "!x", "!y"]
        );
        // Without an object that names no node (no id read), the same.
        let found = parse_module(&text.replace(LOST, "")).unwrap();
        let of = ObjectLifetimes::of(&found);
        let keys: Vec<(ObjectKey, &[u32])> = of.by_object_keys(&found);
        let by_id: Vec<(ObjectKey, &[u32])> = of
            .by_object(&found)
            .into_iter()
            .map(|(_, node, lts)| (ObjectKey::Node(node.unwrap()), lts))
            .collect();
        assert_eq!(keys, by_id);
        assert_eq!(keys.len(), 2);
        for (o, lts) in &want {
            let ids: Vec<&str> = at
                .of_id(&m, o)
                .iter()
                .map(|&l| m.nodes.at(l as usize).id.as_str())
                .collect();
            assert_eq!(&ids, lts, "the lifetimes of `{o}`");
        }
        assert!(
            at.of_id(&m, "!l9").is_empty(),
            "a lifetime is no object here"
        );
    }

    /// `object_types` answers for every input, through a chain of inputs,
    /// and leaves out objects that are no segment's input.
    #[test]
    fn object_types_covers_the_inputs_and_only_them() {
        let m = parse_module(
            "define void @f() {
  ret void
}
!1 = !DILocalVariable(name: \"x\")
!2 = !DIFragment()
!3 = !DIFragment()
!11 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpArg(0, i16)), argObjects: {!2})
!12 = distinct !DILifetime(object: !2, location: !DIExpr(DIOpArg(0, i8), DIOpZExt(i16)), argObjects: {!3})
!13 = distinct !DILifetime(object: !3, location: !DIExpr(DIOpConstant(i8 7)))
!9 = distinct !DIExprCode()
",
        )
        .unwrap();
        let by = ObjectLifetimes::of(&m);
        let types = object_types(&m, &by, &global_fragments(&m));
        assert_eq!(types.get("!2"), Some(&Type::Int(16)));
        assert_eq!(types.get("!3"), Some(&Type::Int(8)));
        assert_eq!(
            types.get("!9"),
            Some(&Type::Int(64)),
            "a code is an address"
        );
        assert_eq!(types.get("!1"), None, "`!1` is no segment's input");
        // The code is typed before the inputs' fixpoint runs: the map is
        // still visited in id order.
        let ids: Vec<&str> = types.keys().map(String::as_str).collect();
        assert_eq!(ids, ["!2", "!3", "!9"], "visited in id order");
    }
}
