//! The module model and its parser.
//!
//! A listing is read line by line: metadata definitions (`!N = [distinct]
//! !DIKind(...)`, possibly over several lines, with numbered or named ids),
//! named metadata (`!llvm.dbg.cu = !{...}`), globals (`@g = ... !dbg.def !N`),
//! functions (`define ... {` ... `}`, or bare instructions, which form one
//! implicit function), block labels (`name:`), and instructions. Instructions
//! other than the debug intrinsics, branches and exits are opaque.
//!
//! DECISION (D-listing-control-flow): a block that does not end in a branch
//! or an exit falls through to the next block (the spec's pseudo listings
//! mark regions with labels and no branches); the last block of a function
//! is an exit block. Exits are `ret`, `return`, `RETURN`, `S_ENDPGM`,
//! `unreachable`, `resume` and MIR's returns (D-listing-mir-successors);
//! branches are IR's terminators (`br`, `switch`, `indirectbr`, `invoke`,
//! `callbr`, `catchswitch`, `catchret`, `cleanupret`), each block named
//! after a `label` keyword a successor, and MIR's `successors:` lines.

use crate::diag::Diag;
use crate::limits::MAX_INPUT_BYTES;
use crate::syntax::{Expr, Literal};
use crate::text::expr::{literal, parse_type_at};
use crate::text::lex::{Tok, Tokens};
use crate::text::parse_expr;
use crate::text::split_top_level;
use crate::types::Type;
use rustc_hash::FxHashMap;
use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The kinds of metadata node the lifetime rules look at.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    LocalVariable {
        name: Option<String>,
        scope: Option<String>,
    },
    GlobalVariable {
        name: Option<String>,
        /// `isDefinition:` (LLVM's default: true). A declaration
        /// (`isDefinition: false`, a variable of another unit that a C++
        /// using-declaration imports) is not one of the unit's globals.
        definition: bool,
    },
    Fragment,
    Lifetime {
        object: Option<String>,
        location: Option<String>,
        args: Vec<String>,
    },
    ExprCode,
    Label {
        name: Option<String>,
        scope: Option<String>,
    },
    /// `dataLocation`, `associated`, `rank` (field, node) when the tag is `DW_TAG_array_type`.
    CompositeType {
        props: Vec<(String, String)>,
    },
    Subprogram {
        retained: Vec<String>,
        active_lane_pc: Option<String>,
    },
    CompileUnit {
        globals: Vec<String>,
    },
    Expr(Expr),
    /// `DIGlobalVariableExpression(var: ...)`: how LLVM lists a global
    /// variable in a compile unit's `globals`.
    GlobalVariableExpression {
        var: Option<String>,
    },
    /// `DILexicalBlock`, `DILexicalBlockFile`: a scope inside `scope`.
    LexicalBlock {
        scope: Option<String>,
    },
    Tuple(Vec<String>),
    Other(String),
}

/// A node's [`Kind`] without its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    LocalVariable,
    GlobalVariable,
    Fragment,
    Lifetime,
    ExprCode,
    Label,
    CompositeType,
    Subprogram,
    CompileUnit,
    Expr,
    GlobalVariableExpression,
    LexicalBlock,
    Tuple,
    Other,
}

impl Tag {
    /// `DIObject`s: variables and fragments.
    pub const OBJECTS: &'static [Tag] = &[Tag::LocalVariable, Tag::GlobalVariable, Tag::Fragment];
    /// `DICode`s: labels and expression code locations.
    pub const CODES: &'static [Tag] = &[Tag::ExprCode, Tag::Label];
    /// `DIVariable`s.
    pub const VARIABLES: &'static [Tag] = &[Tag::LocalVariable, Tag::GlobalVariable];
}

impl Kind {
    pub fn tag(&self) -> Tag {
        match self {
            Kind::LocalVariable { .. } => Tag::LocalVariable,
            Kind::GlobalVariable { .. } => Tag::GlobalVariable,
            Kind::Fragment => Tag::Fragment,
            Kind::Lifetime { .. } => Tag::Lifetime,
            Kind::ExprCode => Tag::ExprCode,
            Kind::Label { .. } => Tag::Label,
            Kind::CompositeType { .. } => Tag::CompositeType,
            Kind::Subprogram { .. } => Tag::Subprogram,
            Kind::CompileUnit { .. } => Tag::CompileUnit,
            Kind::Expr(_) => Tag::Expr,
            Kind::GlobalVariableExpression { .. } => Tag::GlobalVariableExpression,
            Kind::LexicalBlock { .. } => Tag::LexicalBlock,
            Kind::Tuple(_) => Tag::Tuple,
            Kind::Other(_) => Tag::Other,
        }
    }
}

/// A metadata node.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub id: String,
    pub line: u32,
    pub distinct: bool,
    pub kind: Kind,
}

impl Node {
    /// A `DIObject`: a variable or a fragment.
    pub fn is_object(&self) -> bool {
        Tag::OBJECTS.contains(&self.kind.tag())
    }
    /// A `DICode`: a label or an expression code location.
    pub fn is_code(&self) -> bool {
        Tag::CODES.contains(&self.kind.tag())
    }
    pub fn is_variable(&self) -> bool {
        Tag::VARIABLES.contains(&self.kind.tag())
    }
    /// The source name, for display.
    pub fn display_name(&self) -> Option<&str> {
        match &self.kind {
            Kind::LocalVariable { name, .. }
            | Kind::GlobalVariable { name, .. }
            | Kind::Label { name, .. } => name.as_deref(),
            _ => None,
        }
    }
}

/// The second argument of `llvm.dbg.def`: the referrer.
#[derive(Clone, Debug, PartialEq)]
pub enum Referrer {
    /// `undef`, `poison`, `$noreg`: the undefined location description.
    Undef,
    /// An LLVM entity (`%x`, `$r0`, `%frame.index.0`, `@g`), typed in IR and
    /// untyped in MIR.
    Entity { name: String, ty: Option<Type> },
    /// A constant (`metadata i32 5`). The literal is boxed (it is 48
    /// bytes, where the other variants need at most 48 in all): a referrer
    /// is 48 bytes, not 80, and the module's referrers, which locating
    /// reads in the order of the objects' ids rather than in theirs, take
    /// 480 KB on the bench's 100 000-instruction listing, not 800.
    Constant(Type, Box<Literal>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    Def {
        lifetime: String,
        /// Where the referrer is in `Module::referrers` ([`Module::referrer`]).
        /// Not inline: a referrer is 48 bytes (it was 80) and few
        /// instructions are defs; inline, at 80, it made every
        /// instruction 144 bytes, and the module's
        /// instructions are what the checks and the range walks scan. Not
        /// boxed: the referrers are kept in the order of their lifetimes'
        /// nodes, so that a pass over the lifetimes that reads each one's
        /// referrer reads forward through one array (reading each def's
        /// instruction and then its box missed the caches twice per
        /// lifetime on a 100 000-instruction listing).
        referrer: usize,
    },
    Kill {
        lifetime: String,
    },
    Label {
        code: String,
    },
    Branch {
        targets: Vec<String>,
    },
    Exit,
    Other,
}

/// An instruction: a program point.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// 1-based line in the listing; names the program point.
    pub line: u32,
    pub func: usize,
    pub block: usize,
    pub kind: InstKind,
    /// Where in `Module::nodes` the node the instruction names is (a def's
    /// or a kill's lifetime, a label's code), [`NO_NODE`] when it names
    /// none or no node has that id. Resolved once, when the listing is
    /// read, so that the passes that gather each node's instructions
    /// index arrays instead of looking every id up.
    target: u32,
}

/// An [`Inst`]'s target when it has none.
const NO_NODE: u32 = u32::MAX;

impl Inst {
    /// The id the instruction names: a def's or a kill's lifetime, a
    /// label's code.
    pub fn named(&self) -> Option<&str> {
        match &self.kind {
            InstKind::Def { lifetime, .. } | InstKind::Kill { lifetime } => Some(lifetime),
            InstKind::Label { code } => Some(code),
            _ => None,
        }
    }
    /// The node [`Inst::named`] names, as its [`NodeMap::index_of`]; `None`
    /// when no node has that id.
    pub fn target(&self) -> Option<usize> {
        (self.target != NO_NODE).then_some(self.target as usize)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub label: Option<String>,
    /// Instructions `first..end` (indices into `Module::insts`).
    pub first: usize,
    pub end: usize,
    pub succs: Vec<usize>,
    pub exit: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    /// The `!dbg` attachment of `define`, if any.
    pub subprogram: Option<String>,
    pub blocks: Vec<Block>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub line: u32,
    /// The `!dbg.def` attachment: a global variable fragment.
    pub def: Option<String>,
}

/// A map keyed by node id (or entity name) that is looked up by hash and
/// iterated in the order its entries were inserted. Every builder in
/// `lifetime` (the intrinsics, the ranges, `lifetimes_of`, `object_types`,
/// the type-property fragments, `Analysis`) inserts in id order or sorts
/// the keys when it is done, so a visit is in id order, as a
/// `BTreeMap<String, V>`'s is.
///
/// Why not a `BTreeMap`: a look-up compares the id with a dozen keys down
/// the tree, each behind its own pointer; on a 100 000-instruction listing
/// those comparisons missed the caches and made the check grow 26 times for
/// 10 times the input. Why FxHash: the keys are short ids, and SipHash's
/// resistance to chosen collisions buys nothing for a bounded listing
/// (`limits` caps its size) while costing as much as the look-up itself.
pub type IdMap<V> = indexmap::IndexMap<String, V, rustc_hash::FxBuildHasher>;

/// [`IdMap`] with the ids borrowed (from a [`Module`]'s nodes).
pub type IdRefMap<'m, V> = indexmap::IndexMap<&'m str, V, rustc_hash::FxBuildHasher>;

/// The set of [`IdRefMap`]'s keys alone, in insertion order.
pub type IdRefSet<'m> = indexmap::IndexSet<&'m str, rustc_hash::FxBuildHasher>;

/// The first 8 bytes of `id`, big-endian, padded with zeros: sorting by
/// `(id_prefix(id), id)` gives the order of `id` alone, and compares the
/// strings themselves only when their prefixes tie. For a pair of ids, the
/// first byte where they differ decides both orders if it lies in the
/// prefix; an id that is a proper prefix of the other pads with zeros, which
/// sort no later than any byte. Sorting ids by the prefix first keeps the
/// sort from reading each string through its pointer at every comparison
/// (on a 100 000-instruction listing, reads that miss the caches): the
/// check and the ranges run 6-10% fewer instructions.
pub fn id_prefix(id: &str) -> u64 {
    let mut b = [0u8; 8];
    let n = id.len().min(8);
    b[..n].copy_from_slice(&id.as_bytes()[..n]);
    u64::from_be_bytes(b)
}

/// An id in 8 bytes, for comparing ids without reading them through their
/// pointers: an id of at most 7 bytes is its bytes and its length (so two
/// such ids are equal exactly when their packed forms are), a longer one its
/// first 7 bytes and [`LONG_ID`] (equal packed forms then only say that the
/// strings may be equal).
fn packed_id(id: &str) -> u64 {
    let b = id.as_bytes();
    let mut a = [0u8; 8];
    if b.len() <= 7 {
        a[..b.len()].copy_from_slice(b);
        a[7] = b.len() as u8;
    } else {
        a[..7].copy_from_slice(&b[..7]);
        a[7] = LONG_ID;
    }
    u64::from_le_bytes(a)
}

/// The last byte of a [`packed_id`] of more than 7 bytes.
const LONG_ID: u8 = 0xFF;

/// Whether a [`packed_id`] is the whole id.
fn is_whole(packed: u64) -> bool {
    packed >> 56 != u64::from(LONG_ID)
}

/// The hash of an id in [`NodeMap`]'s table: of its packed form when that is
/// the whole id (one multiplication), of its bytes otherwise (ids sharing 7
/// bytes must not share a hash).
fn id_hash(id: &str, packed: u64) -> u64 {
    use std::hash::BuildHasher;
    if is_whole(packed) {
        rustc_hash::FxBuildHasher.hash_one(packed)
    } else {
        rustc_hash::FxBuildHasher.hash_one(id)
    }
}

/// The metadata nodes of a listing by id: looked up by hash and visited in
/// id order, as a `BTreeMap<String, Node>` is. (That map was the listing's
/// first model; its look-ups compared ids byte by byte down the tree, most
/// of the well-formedness check's time on a 100 000-instruction listing.)
///
/// The table holds only node indices (4 bytes a slot) and compares an id
/// with a node's [`packed_id`] in `packed`, which for the ids real listings
/// use (`!123`) is the whole id. Its first form, a `HashMap<String, usize>`,
/// read a 32-byte slot and then the key's own allocation at every look-up:
/// on a 100 000-instruction listing (20 000 nodes) slots and keys together
/// outgrew the core's cache, and look-ups were the largest item of the
/// check's profile.
#[derive(Clone, Default)]
pub struct NodeMap {
    nodes: Vec<Node>,
    /// Each node's [`packed_id`], by index.
    packed: Vec<u64>,
    /// Each node's tag, by index: what a rule that asks only a referenced
    /// node's kind reads ([`NodeMap::tag_of`]), 1 byte where the node is
    /// about 100 (a check of each def's lifetime read each lifetime's node,
    /// and missed the caches for it on a 100 000-instruction listing).
    tags: Vec<Tag>,
    index: hashbrown::HashTable<u32>,
    /// `nodes`' indices in id order, each with its node's tag, computed at
    /// the first ordered visit after a new id or a change of kind. The tags
    /// are what [`NodeMap::of_kinds`] reads: the well-formedness rules make
    /// a dozen passes over the nodes, most of them for one or two kinds,
    /// and a pass that read every node to learn its kind missed the caches
    /// once per node on a 100 000-instruction listing (the nodes, about 100
    /// bytes each, in megabytes; these entries, 8 bytes each, in a fraction
    /// of one). Kept beside the index rather than in an array by node, which
    /// cost the check 3.6% more instructions.
    order: OnceLock<Vec<(u32, Tag)>>,
}

impl NodeMap {
    pub fn get<K: Borrow<str> + ?Sized>(&self, id: &K) -> Option<&Node> {
        self.index_of(id.borrow()).map(|i| &self.nodes[i])
    }
    pub fn contains_key<K: Borrow<str> + ?Sized>(&self, id: &K) -> bool {
        self.index_of(id.borrow()).is_some()
    }
    /// Adds `node` under its id, or replaces the node of that id; the node
    /// it replaces, if any.
    pub fn insert(&mut self, node: Node) -> Option<Node> {
        match self.index_of(&node.id) {
            Some(i) => {
                let tag = node.kind.tag();
                if tag != self.tags[i] {
                    self.order = OnceLock::new();
                    self.tags[i] = tag;
                }
                Some(std::mem::replace(&mut self.nodes[i], node))
            }
            None => {
                self.order = OnceLock::new();
                let p = packed_id(&node.id);
                // A node takes about 100 bytes: 2^32 of them cannot be in memory.
                let i = self.nodes.len() as u32;
                let (nodes, packed) = (&self.nodes, &self.packed);
                self.index.insert_unique(id_hash(&node.id, p), i, |&j| {
                    id_hash(&nodes[j as usize].id, packed[j as usize])
                });
                self.tags.push(node.kind.tag());
                self.nodes.push(node);
                self.packed.push(p);
                None
            }
        }
    }
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
    fn order(&self) -> &[(u32, Tag)] {
        self.order.get_or_init(|| {
            let mut ids: Vec<(u64, &str, usize)> = self
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (id_prefix(&n.id), n.id.as_str(), i))
                .collect();
            ids.sort_unstable();
            ids.into_iter()
                .map(|(_, _, i)| (i as u32, self.tags[i]))
                .collect()
        })
    }
    /// The nodes in id order.
    pub fn values(&self) -> impl Iterator<Item = &Node> {
        self.order()
            .iter()
            .map(move |&(i, _)| &self.nodes[i as usize])
    }
    /// The nodes of the kinds `tags` in id order: [`NodeMap::values`]
    /// filtered by kind, without reading the nodes of other kinds.
    pub fn of_kinds<'a>(&'a self, tags: &'a [Tag]) -> impl Iterator<Item = &'a Node> + 'a {
        self.of_kinds_indexed(tags).map(|(_, n)| n)
    }
    /// How many nodes [`NodeMap::of_kinds`] visits: what a pass that
    /// collects from them reserves room for (growing a list of 10 000
    /// entries copies it a dozen times, and on a large listing the copies
    /// miss the caches).
    pub fn count_of(&self, tags: &[Tag]) -> usize {
        // Every node is visited in some order: the count needs none (and
        // sorts nothing, so the reader can ask it).
        self.tags.iter().filter(|t| tags.contains(t)).count()
    }
    /// [`NodeMap::of_kinds`], each node with its [`NodeMap::index_of`].
    pub fn of_kinds_indexed<'a>(
        &'a self,
        tags: &'a [Tag],
    ) -> impl Iterator<Item = (usize, &'a Node)> + 'a {
        self.order()
            .iter()
            .filter(move |(_, t)| tags.contains(t))
            .map(move |&(i, _)| (i as usize, &self.nodes[i as usize]))
    }
    /// Where the node `id` is: a number below [`NodeMap::len`] that stays
    /// the node's (an `insert` of a new id appends, one of an old id
    /// replaces in place), so that a pass can keep what it knows of each
    /// node in an array instead of a map keyed by id.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        let p = packed_id(id);
        let whole = is_whole(p);
        self.index
            .find(id_hash(id, p), |&i| {
                let i = i as usize;
                self.packed[i] == p && (whole || self.nodes[i].id == id)
            })
            .map(|&i| i as usize)
    }
    /// The nodes' indices in id order.
    pub fn order_indices(&self) -> impl Iterator<Item = u32> + '_ {
        self.order().iter().map(|&(i, _)| i)
    }
    /// The kind of the node at `i`, an [`NodeMap::index_of`].
    pub fn tag_at(&self, i: usize) -> Tag {
        self.tags[i]
    }
    /// [`Node::is_code`] of the node at `i`, without reading the node.
    pub fn is_code_at(&self, i: usize) -> bool {
        Tag::CODES.contains(&self.tags[i])
    }
    /// The kind of the node `id`, without reading the node.
    pub fn tag_of(&self, id: &str) -> Option<Tag> {
        self.index_of(id).map(|i| self.tags[i])
    }
    /// The node at `i`, an [`NodeMap::index_of`].
    pub fn at(&self, i: usize) -> &Node {
        &self.nodes[i]
    }
    /// (id, node) in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Node)> {
        self.values().map(|n| (&n.id, n))
    }
    /// Changes the node `id` in place with `f` (which keeps its id; its
    /// kind may change): what `f` gives, `None` if there is no such node.
    pub fn update<R>(&mut self, id: &str, f: impl FnOnce(&mut Node) -> R) -> Option<R> {
        let i = self.index_of(id)?;
        let r = f(&mut self.nodes[i]);
        // The table finds the node by its id: a changed one would be lost.
        assert_eq!(self.nodes[i].id, id, "update keeps the node's id");
        let tag = self.nodes[i].kind.tag();
        if tag != self.tags[i] {
            self.order = OnceLock::new();
            self.tags[i] = tag;
        }
        Some(r)
    }
}

impl<K: Borrow<str> + ?Sized> std::ops::Index<&K> for NodeMap {
    type Output = Node;
    fn index(&self, id: &K) -> &Node {
        self.get(id)
            .unwrap_or_else(|| panic!("no node `{}`", id.borrow()))
    }
}

impl PartialEq for NodeMap {
    fn eq(&self, other: &NodeMap) -> bool {
        self.len() == other.len()
            && self
                .nodes
                .iter()
                .all(|n| other.get(n.id.as_str()) == Some(n))
    }
}

impl std::fmt::Debug for NodeMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Each node's def, kill and label instructions (see [`Inst::target`]),
/// grouped once when the listing is read: the check and the analysis both
/// ask for them, and grouping them is a pass over every instruction.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct InstIndex {
    pub(crate) defs: ByNode,
    pub(crate) kills: ByNode,
    pub(crate) labels: ByNode,
}

impl InstIndex {
    /// Resolves each instruction's target in `nodes` (which holds every
    /// node of the listing) and groups the instructions by it. `referrers`
    /// are the defs' referrers in the order read, as the defs' `referrer`
    /// fields say; they come back in the order of the grouped defs (each
    /// def's at its def's place among them, then those of defs that name no
    /// node, in instruction order), with the fields rewritten to match.
    /// Two passes over the instructions, in order, and none of them read
    /// out of order.
    fn of(
        nodes: &NodeMap,
        insts: &mut [Inst],
        referrers: Vec<Referrer>,
    ) -> (InstIndex, Vec<Referrer>) {
        // Room for a def and a kill per lifetime and a label per code, the
        // common case (see `NodeMap::count_of`).
        let lifetimes = nodes.count_of(&[Tag::Lifetime]);
        let (mut defs, mut kills, mut labels) = (
            Vec::with_capacity(lifetimes),
            Vec::with_capacity(lifetimes),
            Vec::with_capacity(nodes.count_of(Tag::CODES)),
        );
        let (mut lost_defs, mut lost_kills, mut lost_labels) = (Vec::new(), Vec::new(), Vec::new());
        for (i, inst) in insts.iter_mut().enumerate() {
            let (resolved, lost) = match &inst.kind {
                InstKind::Def { .. } => (&mut defs, &mut lost_defs),
                InstKind::Kill { .. } => (&mut kills, &mut lost_kills),
                InstKind::Label { .. } => (&mut labels, &mut lost_labels),
                _ => continue,
            };
            let id = inst.named().expect("defs, kills and labels name a node");
            match nodes.index_of(id) {
                Some(t) => {
                    // Fewer than 2^32 nodes fit in memory (see
                    // `NodeMap::insert`).
                    inst.target = t as u32;
                    resolved.push((t as u32, i));
                }
                // Only a listing that fails `undefined-node` has these.
                None => lost.push((id.to_string(), i)),
            }
        }
        let (by_defs, def_slots) = ByNode::of(nodes, &defs, lost_defs);
        // The defs in instruction order take their places: the resolved
        // ones where the grouping put them, the others after all of those.
        // `read[slot]`: where the referrer of the def at `slot` was read.
        let mut read = vec![usize::MAX; referrers.len()];
        let (mut resolved, mut lost) = (def_slots.into_iter(), defs.len()..);
        for inst in insts.iter_mut() {
            if let InstKind::Def { referrer, .. } = &mut inst.kind {
                let slot = match inst.target {
                    NO_NODE => lost.next(),
                    _ => resolved.next(),
                }
                .expect("a place for every def");
                read[slot] = *referrer;
                *referrer = slot;
            }
        }
        // Each taken once (the places are a permutation), leaving `Undef`.
        let mut referrers = referrers;
        let referrers = read
            .into_iter()
            .map(|k| std::mem::replace(&mut referrers[k], Referrer::Undef))
            .collect();
        let index = InstIndex {
            defs: by_defs,
            kills: ByNode::of(nodes, &kills, lost_kills).0,
            labels: ByNode::of(nodes, &labels, lost_labels).0,
        };
        (index, referrers)
    }
}

/// One kind of instruction, grouped by the node it names.
#[derive(Clone, Debug, Default)]
pub(crate) struct ByNode {
    /// Node `i`'s instructions are `insts[start[i]..start[i + 1]]`, in
    /// order.
    start: Vec<u32>,
    insts: Vec<usize>,
    /// The nodes with instructions, in id order: found at the first visit
    /// in id order, so that reading a listing sorts nothing.
    named: OnceLock<Vec<u32>>,
    /// The instructions naming ids that no node has, by id (in id order).
    unresolved: IdMap<Vec<usize>>,
}

/// Equal groupings are equal whether or not either has been visited in id
/// order yet (`named` is derived from the rest when first asked for).
impl PartialEq for ByNode {
    fn eq(&self, other: &ByNode) -> bool {
        self.start == other.start
            && self.insts == other.insts
            && self.unresolved == other.unresolved
    }
}

impl ByNode {
    /// Groups `(target, instruction)` pairs (instructions in increasing
    /// order) by target, for a module of `nodes` nodes: a counting sort,
    /// linear in the pairs and the nodes. With the place each pair took.
    fn of(
        nodes: &NodeMap,
        pairs: &[(u32, usize)],
        unresolved: Vec<(String, usize)>,
    ) -> (ByNode, Vec<usize>) {
        let n = nodes.len();
        let mut start = vec![0u32; n + 1];
        for &(t, _) in pairs {
            start[t as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut insts = vec![0usize; pairs.len()];
        let mut places = Vec::with_capacity(pairs.len());
        for &(t, i) in pairs {
            let slot = &mut next[t as usize];
            insts[*slot as usize] = i;
            places.push(*slot as usize);
            *slot += 1;
        }
        let by = ByNode {
            start,
            insts,
            named: OnceLock::new(),
            unresolved: grouped(unresolved.iter().map(|(id, i)| (id.as_str(), *i)).collect()),
        };
        (by, places)
    }
    /// Where the first instruction of the node at `i` is in `insts`, if it
    /// has one.
    pub(crate) fn slot_of_first(&self, i: usize) -> Option<usize> {
        self.span(i).filter(|(a, b)| a < b).map(|(a, _)| a)
    }
    /// Where the instructions of the node at `i` are in `insts`; `None` for
    /// a node added after the listing was read (none is, outside the
    /// reader), which names no instruction.
    fn span(&self, i: usize) -> Option<(usize, usize)> {
        let (&a, &b) = self.start.get(i).zip(self.start.get(i + 1))?;
        Some((a as usize, b as usize))
    }
    /// The instructions of the node at `i`.
    pub(crate) fn at(&self, i: usize) -> &[usize] {
        self.span(i).map_or(&[], |(a, b)| &self.insts[a..b])
    }
    /// The instructions naming `id`, an id that no node has.
    pub(crate) fn lost(&self, id: &str) -> &[usize] {
        self.unresolved.get(id).map_or(&[], Vec::as_slice)
    }
    /// The instructions naming `id` (empty when none do).
    pub(crate) fn of_id(&self, nodes: &NodeMap, id: &str) -> &[usize] {
        match nodes.index_of(id) {
            Some(i) => self.at(i),
            None => self.lost(id),
        }
    }
    /// Every id some instruction names, with its instructions, in id
    /// order.
    pub(crate) fn iter<'a>(&'a self, nodes: &'a NodeMap) -> impl Iterator<Item = Named<'a>> + 'a {
        let named = self.named.get_or_init(|| {
            nodes
                .order_indices()
                .filter(|&i| !self.at(i as usize).is_empty())
                .collect()
        });
        let resolved = named.iter().map(move |&i| Named {
            nodes,
            node: Some(i as usize),
            lost: "",
            insts: self.at(i as usize),
        });
        let unresolved = self.unresolved.iter().map(move |(id, v)| Named {
            nodes,
            node: None,
            lost: id,
            insts: v,
        });
        // Merged by id; without ids that name no node (a listing that
        // passes the check), no id is read.
        let (mut a, mut b) = (resolved.peekable(), unresolved.peekable());
        let key = |n: &Named<'a>| (id_prefix(n.id()), n.id());
        std::iter::from_fn(move || match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if key(y) < key(x) => b.next(),
            (Some(_), _) => a.next(),
            (None, _) => b.next(),
        })
    }
    /// [`ByNode::iter`] in no particular order: the nodes' in the order of
    /// their indices, then the ids that name no node. Reads the grouping
    /// forward, where the visit in id order jumps about it (on a large
    /// listing, a cache miss per node); for a pass whose result does not
    /// depend on the order.
    pub(crate) fn iter_unordered<'a>(
        &'a self,
        nodes: &'a NodeMap,
    ) -> impl Iterator<Item = Named<'a>> + 'a {
        let resolved = self
            .start
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[0] < w[1])
            .map(move |(i, w)| Named {
                nodes,
                node: Some(i),
                lost: "",
                insts: &self.insts[w[0] as usize..w[1] as usize],
            });
        let unresolved = self.unresolved.iter().map(move |(id, v)| Named {
            nodes,
            node: None,
            lost: id,
            insts: v,
        });
        resolved.chain(unresolved)
    }
    /// The instructions naming what `n` names (as [`ByNode::iter`] or
    /// another kind's `ByNode` gives it): without a look-up.
    pub(crate) fn of_named(&self, n: &Named) -> &[usize] {
        match n.node {
            Some(i) => self.at(i),
            None => self.lost(n.lost),
        }
    }
}

/// An id some instructions name, with those instructions.
#[derive(Clone, Copy, Debug)]
pub struct Named<'a> {
    nodes: &'a NodeMap,
    /// The id's node, as its [`NodeMap::index_of`] (`None`: no node has the
    /// id).
    pub node: Option<usize>,
    /// The id, when no node has it.
    lost: &'a str,
    /// The instructions, in order.
    pub insts: &'a [usize],
}

impl<'a> Named<'a> {
    /// The id: read from the node, so only where a message needs it (the
    /// passes over every lifetime's instructions read no node).
    pub fn id(&self) -> &'a str {
        match self.node {
            Some(i) => &self.nodes.at(i).id,
            None => self.lost,
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

/// A parsed listing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    pub nodes: NodeMap,
    /// Named metadata (`llvm.dbg.cu`, `llvm.dbg.retainedNodes`): ids and line.
    pub named: BTreeMap<String, (Vec<String>, u32)>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    pub insts: Vec<Inst>,
    /// The `target datalayout`, if the listing gives one.
    pub layout: Option<crate::types::DataLayout>,
    /// The instructions that name each node.
    pub(crate) index: InstIndex,
    /// The defs' referrers (see `InstKind::Def`): those of each lifetime's
    /// defs together, lifetime after lifetime in node order, as
    /// `index.defs` lists the defs; then those of defs that name no node.
    referrers: Vec<Referrer>,
    /// Each lifetime's location node, by the lifetime's index in `nodes`
    /// ([`NO_NODE`] for other nodes and for a location that names no
    /// node): resolved when the listing is read, as the instructions'
    /// targets are.
    locations: Vec<u32>,
    /// Each lifetime's object node, by the lifetime's index, as
    /// `locations` (so that the rules that follow a lifetime to its object
    /// index arrays instead of looking its id up).
    objects: Vec<u32>,
    /// The lifetimes with inputs (`argObjects`), as indices of `nodes`, in
    /// node order: the passes that gather the inputs read these nodes
    /// only, not every lifetime's (on a large listing most have none, and
    /// each read is a cache miss).
    with_inputs: Vec<u32>,
}

impl Module {
    /// The referrer a def keeps (its `InstKind::Def::referrer`, which the
    /// reader set; another number may be out of range).
    pub fn referrer(&self, k: usize) -> &Referrer {
        &self.referrers[k]
    }
    /// The referrer of the first def of the lifetime at `i` (an index of
    /// `nodes`), if it has a def: one read of an array kept in the order of
    /// the lifetimes.
    pub fn first_referrer_at(&self, i: usize) -> Option<&Referrer> {
        let slot = self.index.defs.slot_of_first(i)?;
        Some(&self.referrers[slot])
    }
    /// The subprogram a scope is or lies in: `scope` itself if it is a
    /// `DISubprogram`, else the one its lexical blocks nest in (at most 64
    /// deep).
    pub fn enclosing_subprogram(&self, scope: &str) -> Option<String> {
        let mut cur = scope.to_string();
        for _ in 0..64 {
            match &self.nodes.get(&cur)?.kind {
                Kind::Subprogram { .. } => return Some(cur),
                Kind::LexicalBlock { scope: Some(s) } => cur = s.clone(),
                _ => return None,
            }
        }
        None
    }
    /// The data layout the listing's types (named structs included) are sized in: its own, or the
    /// default (AMDGPU's address spaces).
    pub fn data_layout(&self) -> crate::types::DataLayout {
        self.layout.clone().unwrap_or_default()
    }
    /// The instruction on `line`, if any.
    pub fn inst_at_line(&self, line: u32) -> Option<usize> {
        self.insts.iter().position(|i| i.line == line)
    }
    /// The location node of the lifetime at `i` (an index of `nodes`), as
    /// its index: `None` when the node is no lifetime, has no location, or
    /// its location names no node.
    pub fn location_at(&self, i: usize) -> Option<usize> {
        let l = *self.locations.get(i)?;
        (l != NO_NODE).then_some(l as usize)
    }
    /// The object node of the lifetime at `i` (an index of `nodes`), as
    /// its index: `None` when the node is no lifetime, has no object, or
    /// its object names no node.
    pub fn object_at(&self, i: usize) -> Option<usize> {
        let o = *self.objects.get(i)?;
        (o != NO_NODE).then_some(o as usize)
    }
    /// The inputs' ids (`argObjects`) of each lifetime that has inputs, in
    /// node order.
    pub fn lifetimes_with_inputs(&self) -> impl Iterator<Item = &[String]> + '_ {
        self.with_inputs
            .iter()
            .filter_map(|&i| match &self.nodes.at(i as usize).kind {
                Kind::Lifetime { args, .. } => Some(args.as_slice()),
                _ => None,
            })
    }
    /// Does the lifetime at `i` (an index of `nodes`) have inputs
    /// (`argObjects`)? Answered without reading the node.
    pub fn has_inputs_at(&self, i: usize) -> bool {
        u32::try_from(i).is_ok_and(|i| self.with_inputs.binary_search(&i).is_ok())
    }
    /// [`Module::lifetime_expr`] of the lifetime at `i` (an index of
    /// `nodes`), without looking its location up.
    pub fn lifetime_expr_at(&self, i: usize) -> Option<&Expr> {
        match &self.nodes.at(self.location_at(i)?).kind {
            Kind::Expr(e) => Some(e),
            _ => None,
        }
    }
    /// The expression of a lifetime (inline or a reference to an expression node).
    pub fn lifetime_expr(&self, lifetime: &Node) -> Option<&Expr> {
        let Kind::Lifetime {
            location: Some(l), ..
        } = &lifetime.kind
        else {
            return None;
        };
        match &self.nodes.get(l)?.kind {
            Kind::Expr(e) => Some(e),
            _ => None,
        }
    }
}

fn mal(construct: &str, reason: &'static str, line: u32, msg: impl Into<String>) -> Diag {
    Diag::malformed(construct, reason, format!("line {line}: {}", msg.into()))
}

/// Strips a `;` comment (outside strings).
fn strip_comment(l: &str) -> &str {
    let mut in_str = false;
    for (i, c) in l.char_indices() {
        match c {
            '"' => in_str = !in_str,
            ';' if !in_str => return &l[..i],
            _ => {}
        }
    }
    l
}

/// The balance of parentheses and braces (outside strings) of a text read
/// piece by piece: each piece is scanned once, so a definition continued
/// over many lines costs its length, not its length times its lines (a
/// 300 000-line definition took 80 s when the whole text so far was
/// scanned again after each line).
#[derive(Default)]
struct Balance {
    depth: i64,
    in_str: bool,
}

impl Balance {
    fn feed(&mut self, s: &str) {
        for c in s.bytes() {
            match c {
                b'"' => self.in_str = !self.in_str,
                b'(' | b'{' if !self.in_str => self.depth += 1,
                b')' | b'}' if !self.in_str => self.depth -= 1,
                _ => {}
            }
        }
    }
}

fn is_md_id(s: &str) -> bool {
    s.starts_with('!')
        && s.len() > 1
        && s[1..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
}

/// `{!a, !b}` or `!{!a, !b}` to ids.
fn id_list(v: &str, line: u32) -> Result<Vec<String>, Diag> {
    let v = v.trim();
    let inner = v
        .strip_prefix("!{")
        .or_else(|| v.strip_prefix('{'))
        .and_then(|r| r.strip_suffix('}'))
        .ok_or_else(|| {
            mal(
                "Metadata",
                "bad-field",
                line,
                format!("expected {{!a, !b}}, found `{v}`"),
            )
        })?;
    split_top_level(inner)
        .into_iter()
        .map(|x| {
            if is_md_id(&x) {
                Ok(x)
            } else {
                Err(mal(
                    "Metadata",
                    "bad-field",
                    line,
                    format!("`{x}` is not a metadata reference"),
                ))
            }
        })
        .collect()
}

/// A list field written in place (`{!a, !b}`) or as a reference to a
/// tuple (`!71`, as LLVM prints it): the reference is kept as a
/// one-element list marked `@tuple` and resolved once every node is read
/// ([`resolve_tuple_fields`]).
fn list_or_ref(v: &str, line: u32) -> Result<Vec<String>, Diag> {
    let v = v.trim();
    if is_md_id(v) {
        return Ok(vec![format!("@tuple{v}")]);
    }
    if v == "null" {
        return Ok(Vec::new());
    }
    id_list(v, line)
}

/// Replaces each `@tuple!N` list (see [`list_or_ref`]) by the tuple's
/// references.
fn resolve_tuple_fields(m: &mut Module) -> Result<(), Diag> {
    let tuples: BTreeMap<String, Vec<String>> = m
        .nodes
        .iter()
        .filter_map(|(id, n)| match &n.kind {
            Kind::Tuple(t) => Some((id.clone(), t.clone())),
            _ => None,
        })
        .collect();
    let gve: BTreeMap<String, String> = m
        .nodes
        .iter()
        .filter_map(|(id, n)| match &n.kind {
            Kind::GlobalVariableExpression { var: Some(v) } => Some((id.clone(), v.clone())),
            _ => None,
        })
        .collect();
    // Only subprograms and compile units hold lists; visited in id order,
    // so the first bad one is reported.
    let holders: Vec<String> = m
        .nodes
        .of_kinds(&[Tag::Subprogram, Tag::CompileUnit])
        .map(|n| n.id.clone())
        .collect();
    for id in &holders {
        let expanded = m.nodes.update(id, |n| {
            let line = n.line;
            let list = match &mut n.kind {
                Kind::Subprogram { retained, .. } => retained,
                Kind::CompileUnit { globals } => globals,
                _ => return Ok(()),
            };
            if let Some(r) = list.first().and_then(|x| x.strip_prefix("@tuple")) {
                let r = r.to_string();
                *list = tuples.get(&r).cloned().ok_or_else(|| {
                    mal(
                        "Metadata",
                        "bad-field",
                        line,
                        format!("`{r}` is not a tuple `!{{...}}` the listing defines"),
                    )
                })?;
            }
            Ok(())
        });
        expanded.unwrap_or(Ok(()))?;
    }
    // A compile unit's globals name `DIGlobalVariableExpression`s: the
    // variable each names is the global listed.
    for id in &holders {
        m.nodes.update(id, |n| {
            if let Kind::CompileUnit { globals } = &mut n.kind {
                for g in globals.iter_mut() {
                    if let Some(v) = gve.get(g.as_str()) {
                        *g = v.clone();
                    }
                }
            }
        });
    }
    Ok(())
}

struct Fields {
    positional: Vec<String>,
    named: BTreeMap<String, String>,
}

fn fields(body: &str, line: u32) -> Result<Fields, Diag> {
    let mut f = Fields {
        positional: Vec::new(),
        named: BTreeMap::new(),
    };
    for part in split_top_level(body) {
        // `key: value` where key is a word; values may contain ':' only in strings.
        match part.split_once(':') {
            Some((k, v))
                if !k.contains('"')
                    && k.trim()
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                if f.named
                    .insert(k.trim().to_string(), v.trim().to_string())
                    .is_some()
                {
                    return Err(mal(
                        "Metadata",
                        "bad-field",
                        line,
                        format!("field `{}` given twice", k.trim()),
                    ));
                }
            }
            _ => f.positional.push(part),
        }
    }
    Ok(f)
}

fn unquote(s: &str) -> Option<String> {
    s.strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .map(str::to_string)
}

fn node_ref(v: Option<&String>, line: u32, field: &str) -> Result<Option<String>, Diag> {
    match v {
        None => Ok(None),
        Some(v) if is_md_id(v) => Ok(Some(v.clone())),
        Some(v) => Err(mal(
            "Metadata",
            "bad-field",
            line,
            format!("`{field}: {v}` is not a metadata reference"),
        )),
    }
}

/// The anonymous expression nodes that inline `location: !DIExpr(...)`
/// fields become, one per distinct text.
///
/// Identical inline expressions are one node, as LLVM uniques a
/// `DIExpression` (it is not `distinct`): the lifetimes that spell the same
/// expression share it. Nothing reads an expression node's identity (each
/// lifetime's expression is still checked in its own segment's signature
/// and reported at the lifetime), so the only effect is that the listing
/// keeps one parsed expression per text. One per lifetime, the check read
/// ten thousand separately allocated expressions on a 100 000-instruction
/// listing, each a cache miss once the parse had moved on.
#[derive(Default)]
struct InlineExprs {
    /// Each distinct text, with the id of its node.
    by_text: FxHashMap<String, String>,
    /// The nodes, in the order their texts were first read: (id, expression).
    nodes: Vec<(String, Expr)>,
}

impl InlineExprs {
    /// The id of the node of the inline expression `text`, written in the
    /// `location` field of `owner` on `line`: `{owner}.location` for the
    /// first lifetime that spells it.
    fn node_for(&mut self, owner: &str, text: &str, line: u32) -> Result<String, Diag> {
        if let Some(id) = self.by_text.get(text) {
            return Ok(id.clone());
        }
        let e = parse_expr(text).map_err(|d| d.at_place(format!("line {line}")))?;
        let id = format!("{owner}.location");
        self.by_text.insert(text.to_string(), id.clone());
        self.nodes.push((id.clone(), e));
        Ok(id)
    }
}

/// Parses the right-hand side of `!id = ...`.
fn parse_node(id: &str, rhs: &str, line: u32, extra_exprs: &mut InlineExprs) -> Result<Node, Diag> {
    let mut rhs = rhs.trim();
    let distinct = if let Some(r) = rhs.strip_prefix("distinct") {
        rhs = r.trim_start();
        true
    } else {
        false
    };
    if let Some(body) = rhs.strip_prefix("!{") {
        // DECISION (D-listing-tuple-values): a tuple's elements that are
        // not node references (`i32 7`, `!"Dwarf Version"`, `null`, as in
        // module flags) are values no lifetime rule reads: they are
        // skipped, and the tuple holds its references.
        let inner = body.strip_suffix('}').ok_or_else(|| {
            mal(
                "Metadata",
                "bad-field",
                line,
                format!("`{rhs}` is not closed"),
            )
        })?;
        let refs = split_top_level(inner)
            .into_iter()
            .filter(|x| is_md_id(x))
            .collect();
        return Ok(Node {
            id: id.into(),
            line,
            distinct,
            kind: Kind::Tuple(refs),
        });
    }
    let Some(rest) = rhs.strip_prefix('!') else {
        return Err(mal(
            "Metadata",
            "bad-node",
            line,
            format!("`{id} = {rhs}`: a node is written `!DIKind(...)` (the `!` is missing)"),
        ));
    };
    let open = rest.find('(').ok_or_else(|| {
        mal(
            "Metadata",
            "bad-node",
            line,
            format!("`{rhs}` has no field list"),
        )
    })?;
    let kind_name = &rest[..open];
    let body = rest[open + 1..]
        .trim_end()
        .strip_suffix(')')
        .ok_or_else(|| {
            mal(
                "Metadata",
                "bad-node",
                line,
                format!("`{rhs}` is not closed"),
            )
        })?;
    if kind_name == "DIExpression" && crate::classic::is_classic(rhs) {
        // A classic expression (`!DIExpression(DW_OP_...)`, as in
        // `DIGlobalVariableExpression`s): no lifetime reads it.
        return Ok(Node {
            id: id.into(),
            line,
            distinct,
            kind: Kind::Other(kind_name.to_string()),
        });
    }
    if kind_name == "DIExpr" || kind_name == "DIExpression" {
        let e = parse_expr(rhs).map_err(|d| d.at_place(format!("line {line}")))?;
        return Ok(Node {
            id: id.into(),
            line,
            distinct,
            kind: Kind::Expr(e),
        });
    }
    let f = fields(body, line)?;
    let get = |k: &str| f.named.get(k);
    let first_string = || {
        f.positional
            .iter()
            .find_map(|p| unquote(p))
            .or_else(|| get("name").and_then(|n| unquote(n)))
    };
    let kind = match kind_name {
        "DILocalVariable" => Kind::LocalVariable {
            name: first_string(),
            scope: node_ref(get("scope"), line, "scope")?,
        },
        "DIGlobalVariable" => Kind::GlobalVariable {
            name: first_string(),
            definition: get("isDefinition").is_none_or(|v| v.trim() != "false"),
        },
        "DIFragment" => Kind::Fragment,
        "DIExprCode" => Kind::ExprCode,
        "DILabel" => Kind::Label {
            name: first_string(),
            scope: node_ref(get("scope"), line, "scope")?,
        },
        "DILifetime" => {
            if let Some(p) = f.positional.first() {
                return Err(mal(
                    "Metadata",
                    "bad-field",
                    line,
                    format!("DILifetime has only named fields; `{p}` is not one"),
                ));
            }
            let location = match get("location") {
                None => None,
                Some(v) if is_md_id(v) => Some(v.clone()),
                Some(v) => Some(extra_exprs.node_for(id, v, line)?),
            };
            Kind::Lifetime {
                object: node_ref(get("object"), line, "object")?,
                location,
                args: match get("argObjects") {
                    Some(v) => id_list(v, line)?,
                    None => Vec::new(),
                },
            }
        }
        "DICompositeType" => {
            let array = get("tag").is_some_and(|t| t == "DW_TAG_array_type");
            let mut props = Vec::new();
            for k in ["dataLocation", "associated", "rank"] {
                if let Some(r) = node_ref(get(k), line, k)? {
                    if array {
                        props.push((k.to_string(), r));
                    }
                }
            }
            Kind::CompositeType { props }
        }
        "DISubprogram" => Kind::Subprogram {
            retained: match get("retainedNodes") {
                Some(v) => list_or_ref(v, line)?,
                None => Vec::new(),
            },
            active_lane_pc: node_ref(get("activeLanePC"), line, "activeLanePC")?,
        },
        "DICompileUnit" => Kind::CompileUnit {
            globals: match get("globals") {
                Some(v) => list_or_ref(v, line)?,
                None => Vec::new(),
            },
        },
        "DIGlobalVariableExpression" => Kind::GlobalVariableExpression {
            var: node_ref(get("var"), line, "var")?,
        },
        "DILexicalBlock" | "DILexicalBlockFile" => Kind::LexicalBlock {
            scope: node_ref(get("scope"), line, "scope")?,
        },
        other if other.starts_with("DI") => Kind::Other(other.to_string()),
        other => {
            return Err(mal(
                "Metadata",
                "unknown-node",
                line,
                format!("`!{other}` is not a metadata node kind"),
            ))
        }
    };
    Ok(Node {
        id: id.into(),
        line,
        distinct,
        kind,
    })
}

/// Reads `metadata TYPE VALUE` (IR) or `TYPE? VALUE` (MIR) as a referrer.
fn parse_referrer(text: &str, line: u32) -> Result<Referrer, Diag> {
    let text = text.trim();
    let text = text
        .strip_prefix("metadata")
        .map(str::trim_start)
        .unwrap_or(text);
    let bad = |m: String| mal("llvm.dbg.def", "bad-referrer", line, m);
    match text {
        "undef" | "poison" | "$noreg" => return Ok(Referrer::Undef),
        _ => {}
    }
    // An untyped entity (MIR): `$r0`, `%frame.index.0`, `%1`.
    if !text.contains(' ')
        && (text.starts_with('$') || text.starts_with('%') || text.starts_with('@'))
    {
        return Ok(Referrer::Entity {
            name: text.to_string(),
            ty: None,
        });
    }
    let mut t = Tokens::new(text).map_err(|d| bad(d.to_string()))?;
    let ty = parse_type_at(&mut t).map_err(|d| d.at_place(format!("line {line}")))?;
    let value = match t.peek() {
        Some(Tok::Ident(n)) if n.starts_with('%') || n.starts_with('@') || n.starts_with('$') => {
            t.advance();
            Referrer::Entity {
                name: n.to_string(),
                ty: Some(ty),
            }
        }
        // DECISION (D-undef-referrer-size): a typed `undef` or `poison`
        // referrer (`metadata i32 undef`) is the undefined location of its
        // type: "If bitsizeof(T) is not equal to bitsizeof(R)" holds for it
        // as for any referrer, so `DIOpReferrer(i64)` over `i32 undef` is
        // ill-formed. An untyped one (`undef`, `$noreg`) takes the
        // expression's type (D-untyped-entities).
        Some(Tok::Ident(n)) if n == "undef" || n == "poison" => {
            t.advance();
            let lit = if n == "undef" {
                Literal::Undef
            } else {
                Literal::Poison
            };
            Referrer::Constant(ty, Box::new(lit))
        }
        Some(_) => {
            let lit = literal(&mut t, &ty, 0).map_err(|d| bad(d.to_string()))?;
            Referrer::Constant(ty, Box::new(lit))
        }
        None => return Err(bad(format!("`{text}` has a type but no value"))),
    };
    if !t.at_end() {
        return Err(bad(format!(
            "unexpected text after the referrer in `{text}`"
        )));
    }
    Ok(value)
}

/// The argument list of a call `@llvm.dbg.NAME(...)`.
fn call_args<'a>(l: &'a str, name: &str) -> Option<&'a str> {
    let at = l.find(name)? + name.len();
    let rest = l[at..].trim_start().strip_prefix('(')?;
    let close = rest.rfind(')')?;
    Some(&rest[..close])
}

fn md_arg(a: &str, construct: &str, line: u32, want: &str) -> Result<String, Diag> {
    let a = a.trim();
    let a = a.strip_prefix("metadata").map(str::trim).unwrap_or(a);
    if is_md_id(a) {
        Ok(a.to_string())
    } else {
        Err(Diag::ill(
            construct,
            "not-a-lifetime",
            format!("line {line}: the argument `{a}` must be a {want} (a metadata reference)"),
        ))
    }
}

/// The terminators that name successor blocks (`label %x` operands).
const TERMINATORS: &[&str] = &[
    "br",
    "switch",
    "indirectbr",
    "invoke",
    "callbr",
    "cleanupret",
    "catchret",
    "catchswitch",
];

/// A block name as written after `%`: a word, or a quoted string.
fn block_name(s: &str) -> Option<(String, usize)> {
    if let Some(q) = s.strip_prefix('"') {
        let end = q.find('"')?;
        return Some((q[..end].to_string(), end + 2));
    }
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')))
        .unwrap_or(s.len());
    (end > 0).then(|| (s[..end].to_string(), end))
}

/// The blocks a terminator names: each `label %name` (or `label
/// %"quoted name"`), in order; `label` inside a name is not the keyword.
fn label_operands(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(k) = rest.find("label") {
        let before = rest[..k].chars().next_back();
        let after = &rest[k + "label".len()..];
        let keyword = before.is_none_or(|c| c.is_whitespace() || matches!(c, ',' | '[' | '('))
            && after.starts_with(char::is_whitespace);
        if keyword {
            if let Some(name) = after.trim_start().strip_prefix('%') {
                if let Some((n, len)) = block_name(name) {
                    out.push(n);
                    let consumed = rest.len() - name.len() + len;
                    rest = &rest[consumed.min(rest.len())..];
                    continue;
                }
            }
        }
        rest = &rest[k + "label".len()..];
    }
    out
}

fn parse_inst(l: &str, line: u32, referrers: &mut Vec<Referrer>) -> Result<InstKind, Diag> {
    let mut keep = |r: Referrer| {
        referrers.push(r);
        referrers.len() - 1
    };
    let t = l.trim();
    let first = t.split_whitespace().next().unwrap_or("");
    // The opcode: after `%x =`, if the instruction has a result.
    let opcode = match t.split_once('=') {
        Some((lhs, rhs)) if lhs.trim().starts_with('%') && !lhs.trim().contains(' ') => {
            rhs.split_whitespace().next().unwrap_or("")
        }
        _ => first,
    };
    // One search for the three intrinsics' common prefix: most lines are
    // other instructions.
    let dbg = |name| {
        t.contains("@llvm.dbg.")
            .then(|| call_args(t, name))
            .flatten()
    };
    if let Some(args) = dbg("@llvm.dbg.def") {
        let a = split_top_level(args);
        if a.len() != 2 {
            return Err(mal(
                "llvm.dbg.def",
                "wrong-arity",
                line,
                "takes (metadata DILifetime, metadata VALUE)",
            ));
        }
        let lifetime = md_arg(&a[0], "llvm.dbg.def", line, "DILifetime")?;
        let referrer = keep(parse_referrer(&a[1], line)?);
        return Ok(InstKind::Def { lifetime, referrer });
    }
    if let Some(args) = dbg("@llvm.dbg.kill") {
        return Ok(InstKind::Kill {
            lifetime: md_arg(args, "llvm.dbg.kill", line, "DILifetime")?,
        });
    }
    if let Some(args) = dbg("@llvm.dbg.label") {
        let code = md_arg(args, "llvm.dbg.label", line, "DICode")
            .map_err(|d| Diag::ill("llvm.dbg.label", "not-a-code", d.message))?;
        return Ok(InstKind::Label { code });
    }
    match opcode {
        "DBG_DEF" => {
            let rest = t["DBG_DEF".len()..].trim();
            let (lt, r) = rest.split_once(',').ok_or_else(|| {
                mal(
                    "DBG_DEF",
                    "wrong-arity",
                    line,
                    "takes `DBG_DEF !lifetime, value`",
                )
            })?;
            let lifetime = md_arg(lt, "DBG_DEF", line, "DILifetime")?;
            let referrer = keep(parse_referrer(r, line)?);
            Ok(InstKind::Def { lifetime, referrer })
        }
        "DBG_KILL" => Ok(InstKind::Kill {
            lifetime: md_arg(t["DBG_KILL".len()..].trim(), "DBG_KILL", line, "DILifetime")?,
        }),
        "DBG_LABEL" => Ok(InstKind::Label {
            code: md_arg(t["DBG_LABEL".len()..].trim(), "DBG_LABEL", line, "DICode")
                .map_err(|d| Diag::ill("DBG_LABEL", "not-a-code", d.message))?,
        }),
        _ if TERMINATORS.contains(&opcode) => {
            let targets = label_operands(t);
            if targets.is_empty() && opcode == "br" {
                return Err(mal(
                    "br",
                    "bad-branch",
                    line,
                    format!("cannot read the targets of `{t}`"),
                ));
            }
            if targets.is_empty() {
                // `cleanupret ... unwind to caller`, `catchswitch ... unwind
                // to caller` with no handler: control leaves the function.
                return Ok(InstKind::Exit);
            }
            Ok(InstKind::Branch { targets })
        }
        "ret"
        | "return"
        | "RETURN"
        | "S_ENDPGM"
        | "unreachable"
        | "resume"
        | "RET64"
        | "RETQ"
        | "RET"
        | "SI_RETURN"
        | "SI_RETURN_TO_EPILOG"
        | "S_SETPC_B64_return" => Ok(InstKind::Exit),
        _ => Ok(InstKind::Other),
    }
}

/// A label line: `name:` alone (optionally `%name:` or `$name:`).
fn label_of(t: &str) -> Option<String> {
    if let Some(bb) = mir_block(t) {
        return Some(bb);
    }
    let name = t.strip_suffix(':')?;
    let name = name.trim_start_matches(['%', '$']);
    if let Some(q) = name.strip_prefix('"').and_then(|q| q.strip_suffix('"')) {
        return (!q.contains('"')).then(|| q.to_string());
    }
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '$')))
    .then(|| name.to_string())
}

/// A MIR block header, `bb.N[.name][ (attributes)]:`, as `bb.N` (how MIR
/// names it in `%bb.N` operands).
fn mir_block(t: &str) -> Option<String> {
    let rest = t.strip_suffix(':')?.strip_prefix("bb.")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = &rest[digits.len()..];
    let ok = !digits.is_empty()
        && (after.is_empty() || after.starts_with('.') || after.starts_with(" ("));
    ok.then(|| format!("bb.{digits}"))
}

/// A MIR `successors: %bb.2(0x50000000), %bb.1(0x30000000)` line: the
/// blocks it names.
fn mir_successors(t: &str) -> Option<Vec<String>> {
    let list = t.strip_prefix("successors:")?;
    Some(
        list.split(',')
            .filter_map(|x| {
                let x = x.trim().strip_prefix("%bb.")?;
                let d: String = x.chars().take_while(char::is_ascii_digit).collect();
                (!d.is_empty()).then(|| format!("bb.{d}"))
            })
            .collect(),
    )
}

struct FnBuilder {
    name: String,
    subprogram: Option<String>,
    /// MIR blocks' `successors:` lines: block label to (line, successors).
    mir_succs: BTreeMap<String, (u32, Vec<String>)>,
    /// (label, line, instruction indices)
    blocks: Vec<(Option<String>, u32, Vec<usize>)>,
}

/// Parses a listing.
pub fn parse_module(text: &str) -> Result<Module, Diag> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(Diag::malformed(
            "Module",
            "too-large",
            "the listing is larger than 64 MiB",
        ));
    }
    let mut m = Module::default();
    let mut extra_exprs = InlineExprs::default();
    let mut funcs: Vec<FnBuilder> = Vec::new();
    let mut current: Option<FnBuilder> = None;
    let mut implicit: Option<FnBuilder> = None;
    let mut type_lines: Vec<(u32, String)> = Vec::new();
    let mut kinds: Vec<(u32, InstKind, bool)> = Vec::new(); // (line, kind, in implicit function)
    let mut referrers: Vec<Referrer> = Vec::new(); // the defs', in the order read
                                                   // Read as they come, not gathered first: at 100 000 instructions a
                                                   // list of every line was 2 MB, copied as it grew.
    let mut lines = Numbered {
        lines: text.lines(),
        read: 0,
    };
    while let Some(raw) = lines.next() {
        let line = lines.read;
        let t = strip_comment(raw).trim();
        if t.is_empty() || t == "..." {
            continue;
        }
        if t.starts_with('!') && t.contains('=') {
            parse_metadata_definition(t, line, &mut lines, &mut m, &mut extra_exprs)?;
            continue;
        }
        if t.starts_with('@')
            && t.split_once('=').is_some_and(|(_, r)| {
                !r.trim_start().starts_with("call") && !r.contains("@llvm.dbg.")
            })
        {
            m.globals.push(parse_global(t, line)?);
            continue;
        }
        if t.starts_with("define") {
            if current.is_some() {
                return Err(mal(
                    "Function",
                    "nested-define",
                    line,
                    "`define` inside a function",
                ));
            }
            current = Some(parse_define(t, line));
            continue;
        }
        if t == "}" {
            match current.take() {
                Some(f) => funcs.push(f),
                None => {
                    return Err(mal(
                        "Function",
                        "unbalanced",
                        line,
                        "`}` outside a function",
                    ))
                }
            }
            continue;
        }
        if t.starts_with("declare ") || t.starts_with("source_filename") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("target ") {
            if let Some(dl) = rest.trim_start().strip_prefix("datalayout") {
                let s = dl.trim().trim_start_matches('=').trim().trim_matches('"');
                m.layout = Some(
                    crate::types::DataLayout::parse(s)
                        .map_err(|d| d.at_place(format!("line {line}")))?,
                );
            }
            continue;
        }
        // A named struct type, as a module defines it (`%s = type { ... }`).
        if current.is_none() && is_type_definition(t) {
            type_lines.push((line, t.to_string()));
            continue;
        }
        let in_implicit = current.is_none();
        let f = match current.as_mut() {
            Some(f) => f,
            None => implicit.get_or_insert_with(|| FnBuilder {
                name: "<listing>".into(),
                subprogram: None,
                mir_succs: BTreeMap::new(),
                blocks: vec![(None, line, Vec::new())],
            }),
        };
        if let Some(label) = label_of(t) {
            f.blocks.push((Some(label), line, Vec::new()));
            continue;
        }
        // DECISION (D-listing-mir-successors): a MIR block takes its
        // successors from its `successors:` line, the control flow as LLVM
        // prints it, whatever its target-specific branches (`JCC_1`,
        // `S_CBRANCH_SCC1`); `liveins:` lines are not program points.
        if let Some(succs) = mir_successors(t) {
            if let Some(Some(label)) = f.blocks.last().map(|b| b.0.clone()) {
                f.mir_succs.insert(label, (line, succs));
            }
            continue;
        }
        if t.starts_with("liveins:") {
            continue;
        }
        let kind = parse_inst(t, line, &mut referrers)?;
        let ends = matches!(kind, InstKind::Branch { .. } | InstKind::Exit);
        let idx = kinds.len();
        kinds.push((line, kind, in_implicit));
        f.blocks
            .last_mut()
            .expect("a function has a block")
            .2
            .push(idx);
        if ends {
            f.blocks.push((None, line, Vec::new()));
        }
    }
    if current.is_some() {
        return Err(Diag::malformed(
            "Function",
            "unbalanced",
            "a `define` is never closed with `}`",
        ));
    }
    // Named types are laid out in the listing's layout, wherever its
    // `target datalayout` line stands.
    if !type_lines.is_empty() {
        // All at once: a definition may name one that comes after it.
        let layout = m.layout.get_or_insert_with(Default::default);
        let text: Vec<&str> = type_lines.iter().map(|(_, t)| t.as_str()).collect();
        layout.define_types(&text.join("\n")).map_err(|d| {
            let first = type_lines[0].0;
            d.at_place(format!("the type definitions from line {first}"))
        })?;
    }
    for (id, e) in extra_exprs.nodes {
        m.nodes.insert(Node {
            id,
            line: 0,
            distinct: false,
            kind: Kind::Expr(e),
        });
    }
    resolve_tuple_fields(&mut m)?;
    if let Some(f) = implicit {
        funcs.insert(0, f);
    }
    // Number the instructions function by function, block by block.
    let mut insts = Vec::with_capacity(kinds.len());
    let mut kinds: Vec<Option<(u32, InstKind, bool)>> = kinds.into_iter().map(Some).collect();
    for (fi, f) in funcs.into_iter().enumerate() {
        let function = build_function(fi, f, &mut kinds, &mut insts)?;
        m.functions.push(function);
    }
    // Every node is known now: each instruction's target is resolved.
    (m.index, m.referrers) = InstIndex::of(&m.nodes, &mut insts, referrers);
    let resolve = |id: &Option<String>| {
        id.as_deref()
            .and_then(|id| m.nodes.index_of(id))
            .map_or(NO_NODE, |i| i as u32)
    };
    let mut with_inputs = Vec::new();
    (m.locations, m.objects) = (0..m.nodes.len())
        .map(|i| match &m.nodes.at(i).kind {
            Kind::Lifetime {
                location,
                object,
                args,
            } => {
                if !args.is_empty() {
                    with_inputs.push(i as u32);
                }
                (resolve(location), resolve(object))
            }
            _ => (NO_NODE, NO_NODE),
        })
        .unzip();
    m.with_inputs = with_inputs;
    m.insts = insts;
    Ok(m)
}

/// The lines of a listing, with how many have been read (the number of
/// the last one read, from 1).
struct Numbered<'t> {
    lines: std::str::Lines<'t>,
    read: u32,
}

impl<'t> Numbered<'t> {
    fn next(&mut self) -> Option<&'t str> {
        let l = self.lines.next()?;
        self.read += 1;
        Some(l)
    }
}

/// A metadata definition `!id = ...` (or a named one, `!llvm.x = !{...}`),
/// starting with `first` on `line` and continued over the lines after it
/// until its parentheses and braces balance.
fn parse_metadata_definition(
    first: &str,
    line: u32,
    lines: &mut Numbered<'_>,
    m: &mut Module,
    extra_exprs: &mut InlineExprs,
) -> Result<(), Diag> {
    let mut full = first.to_string();
    let mut balance = Balance::default();
    balance.feed(first);
    while balance.depth > 0 {
        let Some(next) = lines.next() else { break };
        let next = strip_comment(next).trim();
        full.push(' ');
        full.push_str(next);
        balance.feed(next);
    }
    if balance.depth != 0 {
        return Err(mal(
            "Metadata",
            "unbalanced",
            line,
            "parentheses or braces do not balance",
        ));
    }
    let (lhs, rhs) = full.split_once('=').expect("checked above");
    let id = lhs.trim().to_string();
    if !is_md_id(&id) {
        return Err(mal(
            "Metadata",
            "bad-node",
            line,
            format!("`{id}` is not a metadata id"),
        ));
    }
    if let Some(named) = id.strip_prefix("!llvm.") {
        let list = id_list(rhs, line)?;
        if m.named
            .insert(format!("llvm.{named}"), (list, line))
            .is_some()
        {
            return Err(mal(
                "Metadata",
                "duplicate-node",
                line,
                format!("`{id}` is defined twice"),
            ));
        }
        return Ok(());
    }
    let node = parse_node(&id, rhs, line, extra_exprs)?;
    if m.nodes.insert(node).is_some() {
        return Err(mal(
            "Metadata",
            "duplicate-node",
            line,
            format!("`{id}` is defined twice"),
        ));
    }
    Ok(())
}

/// A global `@name = ... !dbg.def !N`.
fn parse_global(t: &str, line: u32) -> Result<Global, Diag> {
    let name = t.split(['=', ' ']).next().unwrap_or("").to_string();
    let def = match t.find("!dbg.def") {
        Some(k) => {
            let r = t[k + "!dbg.def".len()..].trim();
            let r = r.split([' ', ',']).next().unwrap_or("");
            if !is_md_id(r) {
                return Err(mal(
                    "Global",
                    "bad-attachment",
                    line,
                    format!("`!dbg.def {r}` is not a metadata reference"),
                ));
            }
            Some(r.to_string())
        }
        None => None,
    };
    Ok(Global { name, line, def })
}

/// `%name = type ...`: a named struct type's definition.
fn is_type_definition(t: &str) -> bool {
    let Some((name, rest)) = t.split_once('=') else {
        return false;
    };
    crate::text::is_type_name(name.trim())
        && rest
            .trim_start()
            .strip_prefix("type")
            .is_some_and(|r| r.starts_with(char::is_whitespace))
}

/// A function's `define` line: its name and `!dbg` subprogram.
fn parse_define(t: &str, line: u32) -> FnBuilder {
    let name = t
        .split('@')
        .nth(1)
        .map(|r| r.split('(').next().unwrap_or("").to_string())
        .unwrap_or_default();
    let subprogram = t
        .find("!dbg")
        .map(|k| {
            t[k + 4..]
                .trim()
                .split([' ', '{'])
                .next()
                .unwrap_or("")
                .to_string()
        })
        .filter(|s| is_md_id(s));
    FnBuilder {
        name,
        subprogram,
        mir_succs: BTreeMap::new(),
        blocks: vec![(None, line, Vec::new())],
    }
}

/// Function `fi` of the module: its instructions numbered after `insts`
/// (taken from `kinds`), its empty unlabelled blocks dropped, and each
/// block's successors from its terminator.
fn build_function(
    fi: usize,
    f: FnBuilder,
    kinds: &mut [Option<(u32, InstKind, bool)>],
    insts: &mut Vec<Inst>,
) -> Result<Function, Diag> {
    // Drop empty unlabelled blocks (made after a terminator).
    let raw: Vec<_> = f
        .blocks
        .into_iter()
        .filter(|(label, _, is)| label.is_some() || !is.is_empty())
        .collect();
    let mut blocks = Vec::with_capacity(raw.len());
    for (bi, (label, _, is)) in raw.iter().enumerate() {
        let first = insts.len();
        for &k in is {
            let (line, kind, _) = kinds[k].take().expect("each instruction once");
            insts.push(Inst {
                line,
                func: fi,
                block: bi,
                kind,
                target: NO_NODE,
            });
        }
        blocks.push(Block {
            label: label.clone(),
            first,
            end: insts.len(),
            succs: Vec::new(),
            exit: false,
        });
    }
    let labels: BTreeMap<String, usize> = blocks
        .iter()
        .enumerate()
        .filter_map(|(k, b)| b.label.clone().map(|l| (l, k)))
        .collect();
    let n = blocks.len();
    for k in 0..n {
        let last = (blocks[k].first < blocks[k].end).then(|| &insts[blocks[k].end - 1]);
        match last.map(|x| &x.kind) {
            Some(InstKind::Branch { targets }) => {
                let mut succs = Vec::new();
                for tname in targets {
                    let s = labels.get(tname).copied().ok_or_else(|| {
                        mal(
                            "Function",
                            "unknown-label",
                            last.map(|x| x.line).unwrap_or(0),
                            format!("no block `{tname}`"),
                        )
                    })?;
                    succs.push(s);
                }
                blocks[k].succs = succs;
            }
            Some(InstKind::Exit) => blocks[k].exit = true,
            _ if k + 1 < n => blocks[k].succs = vec![k + 1],
            _ => blocks[k].exit = true,
        }
        let mir = blocks[k].label.as_ref().and_then(|l| f.mir_succs.get(l));
        if let Some((line, names)) = mir {
            let mut succs = Vec::new();
            for tname in names {
                succs.push(labels.get(tname).copied().ok_or_else(|| {
                    mal(
                        "Function",
                        "unknown-label",
                        *line,
                        format!("no block `{tname}`"),
                    )
                })?);
            }
            blocks[k].exit = succs.is_empty();
            blocks[k].succs = succs;
        }
    }
    Ok(Function {
        name: f.name,
        subprogram: f.subprogram,
        blocks,
    })
}

#[cfg(test)]
mod tests {

    /// LLVM's value names take `-` (`[%@][-a-zA-Z$._][-a-zA-Z$._0-9]*`):
    /// GVN names a value `%hash_builder.1.pre-phi` (rustc's strsim crate),
    /// which was `Parse: bad-character` as a referrer.
    #[test]
    fn a_value_name_with_a_dash_is_a_referrer() {
        let m = parse_module(
            "%x.pre-phi = add i64 1, 2
call void @llvm.dbg.def(metadata !2, metadata i64 %x.pre-phi)
ret void
!1 = !DILocalVariable(name: \"x\")
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))",
        )
        .unwrap();
        assert!(matches!(
            &m.insts[1].kind,
            InstKind::Def { referrer, .. }
                if matches!(m.referrer(*referrer), Referrer::Entity { name, ty: Some(_) } if name == "%x.pre-phi")
        ));
    }
    use super::*;

    proptest::proptest! {
        /// Sorting by `(id_prefix(id), id)` is sorting by `id`: ids that
        /// share a prefix, are prefixes of each other, or hold NUL bytes
        /// (which pad the same as a missing byte) included.
        #[test]
        fn id_prefix_keeps_the_order_of_ids(
            a in "[a-c\\x00]{0,10}",
            b in "[a-c\\x00]{0,10}",
        ) {
            proptest::prop_assert_eq!((id_prefix(&a), &a).cmp(&(id_prefix(&b), &b)), a.cmp(&b));
        }

        /// `values` is every node in id order, `of_kinds` is `values`
        /// filtered by kind (and `count_of` its length), and `get`, `index_of` and `tag_of` find every
        /// id the map holds and no other, after each `insert` of a new id or
        /// of an old one (replacing its node) and after `update` changed a
        /// node's kind (both of which must bring its tag up to date). The
        /// ids mix the short ones a packed id holds whole with longer ones
        /// sharing their first 7 bytes, and ids of 7 and 8 bytes that
        /// differ only in the 8th.
        #[test]
        fn of_kinds_is_values_filtered_by_kind(
            nodes in proptest::collection::vec((0u8..40, 0u8..4), 0..30),
            changed in 0u8..40,
            to in 0u8..4,
            wanted in proptest::collection::vec(0u8..4, 0..4),
        ) {
            let kind = |k: u8| match k {
                0 => Kind::Fragment,
                1 => Kind::ExprCode,
                2 => Kind::Lifetime { object: None, location: None, args: Vec::new() },
                _ => Kind::Other(String::new()),
            };
            let node = |id: &str, k: u8| Node { id: id.to_string(), line: 1, distinct: false, kind: kind(k) };
            let id_of = |k: u8| match k % 5 {
                0 => format!("!{k}"),
                1 => format!("!longname{k}"),
                2 => "!abcdefg"[..usize::from(k) % 8].to_string(),
                3 => format!("!abcdef{k}"),
                _ => format!("!abcdefg{k}"),
            };
            let tags: Vec<Tag> = wanted.iter().map(|&k| kind(k).tag()).collect();
            let mut map = NodeMap::default();
            // The nodes the map should hold, by id.
            let mut model = std::collections::BTreeMap::new();
            let check = |map: &NodeMap, model: &std::collections::BTreeMap<String, Node>| {
                let all: Vec<&Node> = map.values().collect();
                proptest::prop_assert_eq!(all, model.values().collect::<Vec<_>>());
                let filtered: Vec<&Node> =
                    map.values().filter(|n| tags.contains(&n.kind.tag())).collect();
                let direct: Vec<&Node> = map.of_kinds(&tags).collect();
                proptest::prop_assert_eq!(map.count_of(&tags), direct.len());
                proptest::prop_assert_eq!(direct, filtered);
                for k in 0..40 {
                    let id = id_of(k);
                    let want = model.get(&id);
                    proptest::prop_assert_eq!(map.get(&id), want);
                    proptest::prop_assert_eq!(map.index_of(&id).map(|i| map.at(i)), want);
                    proptest::prop_assert_eq!(map.tag_of(&id), want.map(|n| n.kind.tag()));
                }
                Ok(())
            };
            for (id, k) in &nodes {
                let id = id_of(*id);
                check(&map, &model)?;
                map.insert(node(&id, *k));
                model.insert(id.clone(), node(&id, *k));
            }
            check(&map, &model)?;
            let changed = id_of(changed);
            map.update(&changed, |n| n.kind = kind(to));
            if let Some(n) = model.get_mut(&changed) {
                n.kind = kind(to);
            }
            check(&map, &model)?;
        }
    }

    #[test]
    fn reads_ir_and_mir_forms() {
        let m = parse_module(
            r#"
  %x.addr = alloca i64, addrspace(5)
  call void @llvm.dbg.def(metadata !2, metadata i64 addrspace(5)* %x.addr)
  br i1 %c, label %a, label %b
a:
  DBG_DEF !3, $r0
  br label %b
b:
  call void @llvm.dbg.kill(metadata !2)
  ret void

!1 = !DILocalVariable("x", ...)
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64)))
!3 = distinct !DILifetime(
       object: !1,
       location: !DIExpr(DIOpReferrer(i64)))
"#,
        )
        .unwrap();
        assert_eq!(m.functions.len(), 1);
        let f = &m.functions[0];
        assert_eq!(f.blocks.len(), 3);
        assert_eq!(f.blocks[0].succs, vec![1, 2]);
        assert_eq!(f.blocks[1].succs, vec![2]);
        assert!(f.blocks[2].exit);
        assert!(
            matches!(&m.insts[1].kind, InstKind::Def { lifetime, referrer } if lifetime == "!2" && matches!(m.referrer(*referrer), Referrer::Entity { name, ty: Some(_) } if name == "%x.addr"))
        );
        assert!(matches!(
            &m.insts[3].kind,
            InstKind::Def { referrer, .. } if matches!(m.referrer(*referrer), Referrer::Entity { ty: None, .. })
        ));
        assert_eq!(m.insts[1].line, 3);
        assert!(matches!(&m.nodes["!3"].kind, Kind::Lifetime { object: Some(o), .. } if o == "!1"));
        assert!(m.lifetime_expr(&m.nodes["!2"]).is_some());
    }

    /// A module is equal to another reading of its text after a pass in id
    /// order over its intrinsics (which fills the order in lazily).
    #[test]
    fn a_visited_module_equals_a_fresh_reading() {
        let text = "call void @llvm.dbg.def(metadata !2, metadata i32 0)
call void @llvm.dbg.kill(metadata !2)
!1 = !DILocalVariable(\"x\")
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))
";
        let (a, b) = (parse_module(text).unwrap(), parse_module(text).unwrap());
        let x = crate::lifetime::ranges::Intrinsics::of(&a);
        assert_eq!(x.each_defs().count(), 1);
        assert_eq!(x.each_kills().count(), 1);
        assert_eq!(a, b);
    }

    /// A lifetime's location, resolved when the listing is read, is the one
    /// its id names: inline, defined later, missing, not an expression, or
    /// absent.
    #[test]
    fn a_lifetimes_resolved_location_is_the_one_its_id_names() {
        let m = parse_module(
            "!1 = !DILocalVariable(\"x\")
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))
!3 = distinct !DILifetime(object: !1, location: !9)
!4 = distinct !DILifetime(object: !1, location: !8)
!5 = distinct !DILifetime(object: !1, location: !1)
!6 = distinct !DILifetime(object: !1)
!9 = !DIExpr(DIOpReferrer(i64))
",
        )
        .unwrap();
        for n in m.nodes.values() {
            let i = m.nodes.index_of(&n.id).unwrap();
            let named = match &n.kind {
                Kind::Lifetime { location, .. } => location.as_deref(),
                _ => None,
            };
            assert_eq!(
                m.location_at(i),
                named.and_then(|l| m.nodes.index_of(l)),
                "{}",
                n.id
            );
            assert_eq!(m.lifetime_expr_at(i), m.lifetime_expr(n), "{}", n.id);
        }
        let at = |id: &str| m.nodes.index_of(id).unwrap();
        assert!(m.lifetime_expr_at(at("!2")).is_some());
        assert_eq!(m.location_at(at("!3")), Some(at("!9")));
        assert_eq!(m.location_at(at("!4")), None);
        assert_eq!(m.location_at(at("!5")), Some(at("!1")));
        assert_eq!(m.lifetime_expr_at(at("!5")), None);
        assert_eq!(m.location_at(at("!6")), None);
    }

    /// Lifetimes that spell the same inline expression share its node, and
    /// those that spell another (even one that differs only in a type) do
    /// not; a named expression node is never merged with an inline one.
    #[test]
    fn identical_inline_expressions_are_one_node() {
        let m = parse_module(
            "!1 = !DILocalVariable(\"x\")
!2 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))
!3 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i64)))
!4 = distinct !DILifetime(object: !1, location: !DIExpr(DIOpReferrer(i32)))
!5 = distinct !DILifetime(object: !1, location: !9)
!9 = !DIExpr(DIOpReferrer(i32))
",
        )
        .unwrap();
        let at = |id: &str| m.nodes.index_of(id).unwrap();
        let loc = |id: &str| m.location_at(at(id)).unwrap();
        assert_eq!(loc("!2"), loc("!4"));
        assert_ne!(loc("!2"), loc("!3"));
        assert_eq!(loc("!5"), at("!9"));
        assert_ne!(loc("!2"), at("!9"));
        // Six named nodes and the two distinct inline texts.
        assert_eq!(m.nodes.len(), 8);
        let text = |i: usize| match &m.nodes.at(i).kind {
            Kind::Expr(e) => e.to_string(),
            other => panic!("not an expression: {other:?}"),
        };
        assert_eq!(text(loc("!4")), text(at("!9")));
        assert_ne!(text(loc("!3")), text(at("!9")));
    }

    /// Every terminator names its successors; labels may be quoted, numbered
    /// or contain `label`; `resume` leaves the function.
    #[test]
    fn every_terminator_has_its_successors() {
        let m = parse_module(
            "define void @f(i32 %a) {
entry:
  switch i32 %a, label %\"d x\" [ i32 0, label %label.a i32 1, label %3 ]
label.a:
  %r = invoke i32 @g() to label %\"d x\" unwind label %lp
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
3:
  indirectbr ptr %a, [label %label.a, label %3]
\"d x\":
  br label %label.a
}",
        )
        .unwrap();
        let f = &m.functions[0];
        let succs: Vec<Vec<usize>> = f.blocks.iter().map(|b| b.succs.clone()).collect();
        assert_eq!(
            succs,
            vec![vec![4, 1, 3], vec![4, 2], vec![], vec![1, 3], vec![1]]
        );
        assert!(f.blocks[2].exit, "resume leaves the function");
    }

    /// A listing's named struct types are laid out in its layout, whichever
    /// line comes first, forward references included.
    #[test]
    fn named_types_of_a_listing() {
        let m = parse_module(
            "%outer = type { i8, %inner }
%inner = type { i8, i64 }
target datalayout = \"e\"
!0 = !DILocalVariable(name: \"x\")",
        )
        .unwrap();
        let dl = m.data_layout();
        assert_eq!(
            dl.bitsizeof(&crate::types::Type::Named("%outer".into())),
            128
        );
        assert!(parse_module("%a = type { %a }").is_err());
    }

    /// Tuples of values (module flags) and list fields naming a tuple.
    #[test]
    fn tuples_of_values_and_fields_naming_tuples() {
        let m = parse_module(
            "target datalayout = \"e-p5:64:64\"
!llvm.module.flags = !{!0}
!0 = !{i32 7, !\"Dwarf Version\", i32 5}
!1 = distinct !DISubprogram(name: \"f\", retainedNodes: !2)
!2 = !{!3, null}
!3 = !DILocalVariable(name: \"x\", scope: !1)
!4 = distinct !DICompileUnit(globals: !5)
!5 = !{!6}
!6 = !DIGlobalVariableExpression(var: !7, expr: !DIExpression())
!7 = distinct !DIGlobalVariable(name: \"g\")",
        )
        .unwrap();
        assert_eq!(m.nodes["!0"].kind, Kind::Tuple(vec![]));
        assert_eq!(
            m.nodes["!1"].kind,
            Kind::Subprogram {
                retained: vec!["!3".into()],
                active_lane_pc: None
            }
        );
        assert_eq!(
            m.nodes["!4"].kind,
            Kind::CompileUnit {
                globals: vec!["!7".into()]
            }
        );
        assert_eq!(m.data_layout().pointer_bits(5), 64);
        let e = parse_module("!1 = distinct !DISubprogram(retainedNodes: !9)").unwrap_err();
        assert!(e.to_string().contains("not a tuple"), "{e}");
    }

    #[test]
    fn bad_listings_are_malformed() {
        for (text, prefix) in [
            ("br label %nowhere", "Function: unknown-label"),
            (
                "!1 = !DIFragment()\n!1 = !DIFragment()",
                "Metadata: duplicate-node",
            ),
            ("!2 = distinct DIFragment()", "Metadata: bad-node"),
            ("!2 = distinct !DIFragment(", "Metadata: unbalanced"),
            ("define void @f() {\n ret void", "Function: unbalanced"),
            ("}", "Function: unbalanced"),
            (
                "call void @llvm.dbg.def(metadata !2)",
                "llvm.dbg.def: wrong-arity",
            ),
            (
                "call void @llvm.dbg.def(metadata i32* %bar, metadata !19)",
                "llvm.dbg.def: not-a-lifetime",
            ),
            ("DBG_DEF !x, u64 %1", "Type: unknown-type"),
            ("!5 = !DExprCode()", "Metadata: unknown-node"),
        ] {
            let e = parse_module(text).unwrap_err();
            assert!(e.matches(prefix), "{text}: {e}");
        }
    }
}
