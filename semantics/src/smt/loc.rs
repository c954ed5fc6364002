//! Symbolic location descriptions: the twin of `location.rs` over z3 terms.
//!
//! The shape of a location (which storage kind, how a composite is built) is
//! known when the formula is built; offsets, values, memory and register
//! contents are terms. Where a value decides the shape (`DIOpSelect`'s mask,
//! an input that may be in a register or in memory) the location is an
//! if-then-else of shapes. Failure ("not well-formed" dynamic rules and
//! evaluation errors, D-dynamic-rules) is a `Bool` kept beside the location,
//! never folded into its value.

use super::term::{and, bv_u, const_u128, ff, off_u, resize, tt, OFF};
use super::world::World;
use crate::diag::Diag;
use crate::limits::MAX_LOCATION_DEPTH;
use std::rc::Rc;
use z3::ast::{Ast, Bool, BV};

/// A location storage whose shape is known.
#[derive(Clone, Debug)]
pub enum SStorage {
    Memory {
        addrspace: u32,
    },
    Register {
        number: u32,
        bits: u64,
    },
    /// An implicit storage holding this value (its width is the size).
    Implicit(BV),
    ImplicitAddress {
        addrspace: u32,
        bits: u64,
        target: SLoc,
    },
    Undefined,
    Composite {
        parts: Vec<SPart>,
    },
}

#[derive(Clone, Debug)]
pub struct SPart {
    pub bits: u64,
    pub loc: SLoc,
}

/// A symbolic (single) location description.
#[derive(Clone, Debug)]
pub enum SLoc {
    /// A storage and a bit offset (an `OFF`-bit term).
    One(Rc<SStorage>, BV),
    /// `if c then a else b`.
    Ite(Bool, Rc<SLoc>, Rc<SLoc>),
    /// Several places at once (an input of a concrete context): each is a
    /// `One` or an `Ite`, in the order of `LocDesc`'s sorted singles.
    Multi(Rc<Vec<SLoc>>),
}

/// A value read from a location, and whether the read succeeds.
pub struct Read {
    pub value: BV,
    pub ok: Bool,
}

pub fn unsupported(reason: &'static str, msg: impl Into<crate::diag::Message>) -> Diag {
    Diag::unsupported("SMT", reason, msg)
}

impl SLoc {
    pub fn at(storage: SStorage, offset: BV) -> SLoc {
        SLoc::One(Rc::new(storage), offset)
    }
    pub fn start(storage: SStorage) -> SLoc {
        SLoc::at(storage, off_u(0))
    }
    pub fn ite(c: &Bool, a: SLoc, b: SLoc) -> SLoc {
        match c.simplify().as_bool() {
            Some(true) => a,
            Some(false) => b,
            None => SLoc::Ite(c.clone(), Rc::new(a), Rc::new(b)),
        }
    }
    pub fn depth(&self) -> u32 {
        match self {
            SLoc::Ite(_, a, b) => a.depth().max(b.depth()),
            SLoc::Multi(v) => v.iter().map(SLoc::depth).max().unwrap_or(0),
            SLoc::One(s, _) => match &**s {
                SStorage::ImplicitAddress { target, .. } => 1 + target.depth(),
                SStorage::Composite { parts } => {
                    1 + parts.iter().map(|p| p.loc.depth()).max().unwrap_or(0)
                }
                _ => 0,
            },
        }
    }
}

/// The size in bits of a storage; `None` for the undefined storage.
pub fn size(w: &World, s: &SStorage) -> Option<u128> {
    Some(match s {
        SStorage::Memory { addrspace } => 1u128 << (w.layout.pointer_bits(*addrspace) + 3),
        SStorage::Register { bits, .. } => *bits as u128,
        SStorage::Implicit(v) => v.get_size() as u128,
        SStorage::ImplicitAddress { bits, .. } => *bits as u128,
        SStorage::Undefined => return None,
        SStorage::Composite { parts } => parts.iter().map(|p| p.bits as u128).sum(),
    })
}

/// The twin of `Single::offset_by`: the location moved by `delta` (a signed
/// `OFF`-bit term, exact when `fits` holds; a displacement that does not fit
/// leaves every storage), and the condition that it stays inside its storage
/// (D-offset-bounds; D-undefined-offset).
pub fn offset_by(w: &World, l: &SLoc, delta: &BV, fits: &Bool) -> (SLoc, Bool) {
    match l {
        SLoc::Ite(c, a, b) => {
            let (a, oa) = offset_by(w, a, delta, fits);
            let (b, ob) = offset_by(w, b, delta, fits);
            (SLoc::ite(c, a, b), c.ite(&oa, &ob))
        }
        SLoc::Multi(v) => {
            let mut ok = tt();
            let moved = v
                .iter()
                .map(|l| {
                    let (m, o) = offset_by(w, l, delta, fits);
                    ok = and(&ok, &o);
                    m
                })
                .collect();
            (SLoc::Multi(Rc::new(moved)), ok)
        }
        SLoc::One(s, off) => match size(w, s) {
            None => (l.clone(), tt()),
            Some(n) => {
                let new = off.bvadd(delta);
                let ok = Bool::and(&[fits, &new.bvsge(off_u(0)), &new.bvsle(off_u(n))]);
                (SLoc::One(s.clone(), new), ok)
            }
        },
    }
}

/// The twin of `read(L, T)` for `n` bits (D-dynamic-rules: reading
/// undefined bits or outside the storage fails).
pub fn read(w: &World, l: &SLoc, n: u64) -> Result<Read, Diag> {
    read_at(w, l, 0, n)
}

fn read_at(w: &World, l: &SLoc, rel: u128, n: u64) -> Result<Read, Diag> {
    w.charge(1)?;
    match l {
        SLoc::Ite(c, a, b) => {
            let ra = read_at(w, a, rel, n)?;
            let rb = read_at(w, b, rel, n)?;
            Ok(Read {
                value: c.ite(&ra.value, &rb.value),
                ok: c.ite(&ra.ok, &rb.ok),
            })
        }
        // D-multi-location-read: every place is read and must hold the same
        // bits (`conflicting-locations` otherwise).
        SLoc::Multi(v) => {
            let mut reads = v.iter().map(|l| read_at(w, l, rel, n));
            let first = reads.next().expect("a location has a place")?;
            let mut ok = first.ok.clone();
            for r in reads {
                let r = r?;
                ok = Bool::and(&[&ok, &r.ok, &r.value.eq(&first.value)]);
            }
            Ok(Read {
                value: first.value,
                ok,
            })
        }
        SLoc::One(s, off) => read_single(w, s, &off.bvadd(off_u(rel)), n),
    }
}

fn read_single(w: &World, s: &SStorage, off: &BV, n: u64) -> Result<Read, Diag> {
    let nb = n as u32;
    let in_range = match size(w, s) {
        Some(size) => off.bvadd(off_u(n as u128)).bvule(off_u(size)),
        None => tt(),
    };
    let r = match s {
        SStorage::Memory { addrspace } => w.read_memory(*addrspace, off, n),
        SStorage::Register { number, bits } => {
            let (value, defined) = w.register(*number, *bits)?;
            let v = shift_out(&value, off, n);
            let d = shift_out(&defined, off, n);
            Read {
                value: v,
                ok: d.eq(BV::from_i64(-1, nb)),
            }
        }
        SStorage::Implicit(v) => Read {
            value: shift_out(v, off, n),
            ok: tt(),
        },
        SStorage::ImplicitAddress { .. } => Read {
            value: bv_u(nb, 0),
            ok: ff(),
        },
        SStorage::Undefined => Read {
            value: bv_u(nb, 0),
            ok: Bool::from_bool(n == 0),
        },
        SStorage::Composite { parts } => {
            let size: u128 = parts.iter().map(|p| p.bits as u128).sum();
            let mut alts = offset_cases(off, size.saturating_sub(n as u128))?
                .into_iter()
                .rev();
            let (_, k) = alts.next().expect("at least one case");
            let mut r = read_composite(w, parts, k, n)?;
            for (c, k) in alts {
                let x = read_composite(w, parts, k, n)?;
                r = Read {
                    value: c.ite(&x.value, &r.value),
                    ok: c.ite(&x.ok, &r.ok),
                };
            }
            r
        }
    };
    Ok(Read {
        value: r.value,
        ok: and(&in_range, &r.ok),
    })
}

/// `n` bits of a composite from the constant bit offset `o`.
fn read_composite(w: &World, parts: &[SPart], o: u128, n: u64) -> Result<Read, Diag> {
    let nb = n as u32;
    let mut acc: Option<BV> = None;
    let mut ok = tt();
    for (p, at, len) in covered(parts, o, n as u128) {
        let r = read_at(w, &p.loc, at, len as u64)?;
        ok = and(&ok, &r.ok);
        acc = Some(match acc {
            None => r.value,
            Some(low) => r.value.concat(&low),
        });
    }
    let value = match acc {
        // Out of range: any value, the read fails.
        Some(v) if v.get_size() == nb => v,
        _ => bv_u(nb, 0),
    };
    Ok(Read { value, ok })
}

/// The parts of a composite that bits `off..off + n` of it cover, each
/// with the offset into the part and the number of bits covered, in order:
/// the twin of `location::covered`.
fn covered(parts: &[SPart], off: u128, n: u128) -> impl Iterator<Item = (&SPart, u128, u128)> {
    crate::location::spans(parts, |p| p.bits, off, n)
}

/// The most offsets a symbolic offset into a composite is split into.
const MAX_OFFSET_CASES: u128 = 256;

/// The values a bit offset into a composite can take, `0..=max`, each with
/// its condition: one case when the offset is a constant. Beyond `max` the
/// caller's range condition fails, so the last case stands for those.
fn offset_cases(off: &BV, max: u128) -> Result<Vec<(Bool, u128)>, Diag> {
    if let Some(o) = const_u128(off) {
        return Ok(vec![(tt(), o)]);
    }
    if max >= MAX_OFFSET_CASES {
        return Err(unsupported(
            "symbolic-offset-into-composite",
            format!(
                "a location inside a composite of more than {MAX_OFFSET_CASES} bits at an offset that depends on the context"
            ),
        ));
    }
    // Simplified first, so that two locations at the same offset (an
    // expression's and its lowering's) split on the same conditions.
    let off = off.simplify();
    Ok((0..=max).map(|k| (off.eq(off_u(k)), k)).collect())
}

/// `n` bits of `v` from bit `off` (bits past the end read as zero; callers
/// check the range).
pub fn shift_out(v: &BV, off: &BV, n: u64) -> BV {
    let width = (v.get_size() as u64).max(n) as u32;
    let wide = resize(v, width);
    // An offset past the width shifts everything out, as bvlshr does.
    let amount = if width >= OFF {
        resize(off, width)
    } else {
        let fits = off.bvult(off_u(1u128 << width.min(127)));
        fits.ite(&resize(off, width), &BV::from_i64(-1, width))
    };
    wide.bvlshr(&amount).extract(n as u32 - 1, 0)
}

/// The twin of `location::composite`: the composite of `parts` (listed from
/// offset 0 up) and the overlap rule of `DIOpComposite` as a condition
/// (D-dynamic-rules, D-addrspaces-distinct).
pub fn composite(w: &World, parts: Vec<SPart>) -> Result<(SLoc, Bool), Diag> {
    let depth = 1 + parts.iter().map(|p| p.loc.depth()).max().unwrap_or(0);
    if depth > MAX_LOCATION_DEPTH {
        return Err(unsupported(
            "limit-exceeded",
            format!("composites nested deeper than {MAX_LOCATION_DEPTH}"),
        ));
    }
    let mut leaves = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        collect_leaves(w, &p.loc, &off_u(0), p.bits as u128, i, &tt(), &mut leaves)?;
    }
    let mut ok = tt();
    for (i, a) in leaves.iter().enumerate() {
        for b in &leaves[i + 1..] {
            if a.key != b.key || a.part == b.part {
                continue;
            }
            let disjoint = Bool::or(&[&a.end.bvule(&b.start), &b.end.bvule(&a.start)]);
            let clash = Bool::and(&[&a.guard, &b.guard, &disjoint.not()]);
            ok = and(&ok, &clash.not());
        }
    }
    Ok((SLoc::start(SStorage::Composite { parts }), ok))
}

/// Bound on the pieces compared by the overlap rule (pairs grow
/// quadratically in the formula).
const MAX_SMT_LEAVES: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Memory(u32),
    Register(u32),
}

struct Leaf {
    guard: Bool,
    key: Key,
    start: BV,
    end: BV,
    part: usize,
}

fn collect_leaves(
    w: &World,
    l: &SLoc,
    rel: &BV,
    len: u128,
    part: usize,
    guard: &Bool,
    out: &mut Vec<Leaf>,
) -> Result<(), Diag> {
    w.charge(1)?;
    if out.len() >= MAX_SMT_LEAVES {
        return Err(unsupported(
            "limit-exceeded",
            format!("more than {MAX_SMT_LEAVES} storage pieces to compare for overlap"),
        ));
    }
    match l {
        SLoc::Ite(c, a, b) => {
            collect_leaves(w, a, rel, len, part, &and(guard, c), out)?;
            collect_leaves(w, b, rel, len, part, &and(guard, &c.not()), out)
        }
        // The places of one part may overlap each other (D-addrspaces-distinct).
        SLoc::Multi(v) => v
            .iter()
            .try_for_each(|l| collect_leaves(w, l, rel, len, part, guard, out)),
        SLoc::One(s, off) => {
            let start = off.bvadd(rel);
            let key = match &**s {
                SStorage::Memory { addrspace } => Key::Memory(*addrspace),
                SStorage::Register { number, .. } => Key::Register(*number),
                SStorage::Composite { parts } => {
                    let size: u128 = parts.iter().map(|p| p.bits as u128).sum();
                    for (c, o) in offset_cases(&start, size)? {
                        let g = and(guard, &c);
                        for (p, at, n) in covered(parts, o, len) {
                            collect_leaves(w, &p.loc, &off_u(at), n, part, &g, out)?;
                        }
                    }
                    return Ok(());
                }
                _ => return Ok(()),
            };
            out.push(Leaf {
                guard: guard.clone(),
                key,
                end: start.bvadd(off_u(len)),
                start,
                part,
            });
            Ok(())
        }
    }
}

/// What one run of bits of a location is, for comparing locations.
#[derive(Clone, Debug)]
enum Seg {
    /// Bits of memory or a register from this offset.
    Store(Key, BV),
    /// Bits of an implicit value `v` from offset `off`; bits past its end are
    /// outside the storage.
    Value(BV, BV),
    Undefined,
    /// Bits of an implicit address from offset `off`.
    Address {
        addrspace: u32,
        bits: u64,
        target: SLoc,
        off: BV,
    },
    /// Bits past the end of a composite.
    Beyond,
    Ite(Bool, Box<Seg>, Box<Seg>),
}

impl Seg {
    /// The same kind of run starting `k` bits further on.
    fn advance(&self, w: &World, k: u64) -> Result<Seg, Diag> {
        w.charge(1)?;
        let add = |o: &BV| o.bvadd(off_u(k as u128));
        Ok(match self {
            Seg::Store(key, o) => Seg::Store(*key, add(o)),
            Seg::Value(v, o) => Seg::Value(v.clone(), add(o)),
            Seg::Address {
                addrspace,
                bits,
                target,
                off,
            } => Seg::Address {
                addrspace: *addrspace,
                bits: *bits,
                target: target.clone(),
                off: add(off),
            },
            Seg::Ite(c, a, b) => Seg::Ite(
                c.clone(),
                Box::new(a.advance(w, k)?),
                Box::new(b.advance(w, k)?),
            ),
            Seg::Undefined | Seg::Beyond => self.clone(),
        })
    }
}

/// The `n` bits of a location as runs `(length, what)`, lowest first.
fn flatten(w: &World, l: &SLoc, n: u64) -> Result<Vec<(u64, Seg)>, Diag> {
    flatten_at(w, l, 0, n)
}

/// The `n` bits of a location from `rel` bits past its offset as runs. The
/// offset is applied before a composite is cut into its parts: moving the
/// runs of a composite's start afterwards would run one part's bits on past
/// its end instead of into the next part.
fn flatten_at(w: &World, l: &SLoc, rel: u128, n: u64) -> Result<Vec<(u64, Seg)>, Diag> {
    w.charge(1)?;
    match l {
        SLoc::Ite(c, a, b) => {
            let fa = flatten_at(w, a, rel, n)?;
            let fb = flatten_at(w, b, rel, n)?;
            Ok(merge(w, &fa, &fb)?
                .into_iter()
                .map(|(len, x, y)| (len, Seg::Ite(c.clone(), Box::new(x), Box::new(y))))
                .collect())
        }
        SLoc::Multi(_) => Err(unsupported(
            "multi-location-compare",
            "the SMT encoding does not compare locations in several places at once",
        )),
        SLoc::One(s, off) => {
            let moved;
            let off = if rel == 0 {
                off
            } else {
                moved = off.bvadd(off_u(rel));
                &moved
            };
            flatten_single(w, s, off, n)
        }
    }
}

/// The `n` bits of one storage from the offset `off` as runs.
fn flatten_single(w: &World, s: &SStorage, off: &BV, n: u64) -> Result<Vec<(u64, Seg)>, Diag> {
    Ok(match s {
        SStorage::Memory { addrspace } => {
            vec![(n, Seg::Store(Key::Memory(*addrspace), off.clone()))]
        }
        SStorage::Register { number, .. } => {
            vec![(n, Seg::Store(Key::Register(*number), off.clone()))]
        }
        SStorage::Implicit(v) => vec![(n, Seg::Value(v.clone(), off.clone()))],
        SStorage::Undefined => vec![(n, Seg::Undefined)],
        SStorage::ImplicitAddress {
            addrspace,
            bits,
            target,
        } => vec![(
            n,
            Seg::Address {
                addrspace: *addrspace,
                bits: *bits,
                target: target.clone(),
                off: off.clone(),
            },
        )],
        SStorage::Composite { parts } => {
            let size: u128 = parts.iter().map(|p| p.bits as u128).sum();
            let mut alts = offset_cases(off, size)?.into_iter().rev();
            let (_, k) = alts.next().expect("at least one case");
            let mut out = flatten_composite(w, parts, k, n)?;
            for (c, k) in alts {
                let x = flatten_composite(w, parts, k, n)?;
                out = merge(w, &x, &out)?
                    .into_iter()
                    .map(|(len, a, b)| (len, Seg::Ite(c.clone(), Box::new(a), Box::new(b))))
                    .collect();
            }
            out
        }
    })
}

/// The `n` bits of a composite from the constant bit offset `o` as runs.
fn flatten_composite(w: &World, parts: &[SPart], o: u128, n: u64) -> Result<Vec<(u64, Seg)>, Diag> {
    let mut out = Vec::new();
    for (p, at, len) in covered(parts, o, n as u128) {
        out.extend(flatten_at(w, &p.loc, at, len as u64)?);
    }
    let covered: u64 = out.iter().map(|(len, _)| *len).sum();
    if covered < n {
        out.push((n - covered, Seg::Beyond));
    }
    Ok(out)
}

/// Two run lists over the same bits, cut at the union of their boundaries.
fn merge(w: &World, a: &[(u64, Seg)], b: &[(u64, Seg)]) -> Result<Vec<(u64, Seg, Seg)>, Diag> {
    let (mut i, mut j) = (0, 0);
    let (mut ua, mut ub) = (0u64, 0u64); // bits of a[i], b[j] already used
    let mut out = Vec::new();
    while i < a.len() && j < b.len() {
        let (la, sa) = &a[i];
        let (lb, sb) = &b[j];
        let k = (la - ua).min(lb - ub);
        out.push((k, sa.advance(w, ua)?, sb.advance(w, ub)?));
        ua += k;
        ub += k;
        if ua == *la {
            i += 1;
            ua = 0;
        }
        if ub == *lb {
            j += 1;
            ub = 0;
        }
    }
    Ok(out)
}

/// Do the `n` bits of `a` and `b` denote the same bits: the same storage
/// bits for memory and registers, the same value (and the same bits past the
/// end) for implicit values, the same target for implicit addresses?
///
/// The encoding's size is charged to `w` ([`super::world::MAX_ENCODING_WORK`]).
pub fn same_location(w: &World, a: &SLoc, b: &SLoc, n: u64) -> Result<Bool, Diag> {
    compare_runs(w, a, b, n, false)
}

/// `b` refines `a` over `n` bits: the same as [`same_location`] except at
/// bits of `a` past the end of an implicit value or a composite, or outside
/// their memory or register (where reading `a` fails), which `b` may
/// define: the twin of `location::refines_places` (D-lower-refines,
/// D-lower-refines-outside).
pub fn refines_location(w: &World, a: &SLoc, b: &SLoc, n: u64) -> Result<Bool, Diag> {
    compare_runs(w, a, b, n, true)
}

fn compare_runs(w: &World, a: &SLoc, b: &SLoc, n: u64, refine: bool) -> Result<Bool, Diag> {
    let fa = flatten(w, a, n)?;
    let fb = flatten(w, b, n)?;
    let mut all = tt();
    for (len, x, y) in merge(w, &fa, &fb)? {
        all = and(&all, &seg_eq(w, &x, &y, len, refine)?);
    }
    Ok(all)
}

/// Do runs `a` and `b` of `len` bits denote the same bits (with `refine`:
/// does `b` refine `a`, free where `a` is past its end)?
fn seg_eq(w: &World, a: &Seg, b: &Seg, len: u64, refine: bool) -> Result<Bool, Diag> {
    w.charge(1)?;
    Ok(match (a, b) {
        // Both sides split on one condition (the same offset into the same
        // composite, as an expression and its lowering do): compare branch
        // with branch, not every branch with every other.
        (Seg::Ite(c, x1, y1), Seg::Ite(d, x2, y2)) if c == d => c.ite(
            &seg_eq(w, x1, x2, len, refine)?,
            &seg_eq(w, y1, y2, len, refine)?,
        ),
        (Seg::Ite(c, x, y), _) => c.ite(
            &seg_eq(w, x, b, len, refine)?,
            &seg_eq(w, y, b, len, refine)?,
        ),
        (_, Seg::Ite(c, x, y)) => c.ite(
            &seg_eq(w, a, x, len, refine)?,
            &seg_eq(w, a, y, len, refine)?,
        ),
        (Seg::Beyond, _) if refine => tt(),
        (Seg::Value(v1, o1), Seg::Value(v2, o2)) if refine => {
            // The bits of `a` inside its value are inside `b`'s, and equal.
            let (c1, x1) = value_view(v1, o1, len);
            let (c2, x2) = value_view(v2, o2, len);
            and(&c2.bvuge(&c1), &x1.eq(low_bits(&x2, &c1, len)))
        }
        (Seg::Value(v, o), _) if refine => value_view(v, o, len).0.eq(off_u(0)),
        // D-lower-refines-outside: bits past the end of their storage.
        (Seg::Store(k, o), _) if refine => match storage_bits(w, *k) {
            Some(size) => Bool::or(&[&o.bvuge(off_u(size)), &seg_eq(w, a, b, len, false)?]),
            None => seg_eq(w, a, b, len, false)?,
        },
        (Seg::Store(k1, o1), Seg::Store(k2, o2)) => {
            if k1 == k2 {
                o1.eq(o2)
            } else {
                ff()
            }
        }
        (Seg::Value(v1, o1), Seg::Value(v2, o2)) => {
            let (c1, x1) = value_view(v1, o1, len);
            let (c2, x2) = value_view(v2, o2, len);
            and(&c1.eq(&c2), &x1.eq(&x2))
        }
        (Seg::Value(v, o), Seg::Beyond) | (Seg::Beyond, Seg::Value(v, o)) => {
            value_view(v, o, len).0.eq(off_u(0))
        }
        (Seg::Undefined, Seg::Undefined) | (Seg::Beyond, Seg::Beyond) => tt(),
        (
            Seg::Address {
                addrspace: s1,
                bits: b1,
                target: t1,
                off: o1,
            },
            Seg::Address {
                addrspace: s2,
                bits: b2,
                target: t2,
                off: o2,
            },
        ) => {
            if s1 != s2 || b1 != b2 {
                ff()
            } else if refine {
                and(&o1.eq(o2), &target_refines(w, t1, t2)?)
            } else {
                and(&o1.eq(o2), &same_structure(w, t1, t2)?)
            }
        }
        _ => ff(),
    })
}

/// The twin of `location::address_refines` (D-lower-refines-targets): the
/// DWARF's implicit-pointer target `b` is the reference's target `a`, or
/// both are one implicit value at one offset and `b`'s is `a`'s widened.
fn target_refines(w: &World, a: &SLoc, b: &SLoc) -> Result<Bool, Diag> {
    if let (SLoc::One(s1, o1), SLoc::One(s2, o2)) = (a, b) {
        if let (SStorage::Implicit(x), SStorage::Implicit(y)) = (&**s1, &**s2) {
            let (n, m) = (x.get_size(), y.get_size());
            return Ok(if m >= n {
                and(&o1.eq(o2), &y.extract(n - 1, 0).eq(x))
            } else {
                ff()
            });
        }
    }
    same_structure(w, a, b)
}

/// The size in bits of the memory or register a run is in, if known.
fn storage_bits(w: &World, k: Key) -> Option<u128> {
    match k {
        Key::Memory(a) => Some(1u128 << (w.layout.pointer_bits(a) + 3)),
        Key::Register(n) => w.register_bits(n).map(u128::from),
    }
}

/// The low `count` bits of the `len`-bit `x` (an `OFF`-bit count), the rest
/// zero.
fn low_bits(x: &BV, count: &BV, len: u64) -> BV {
    let l = len as u32;
    let ones = BV::from_i64(-1, l + 1);
    let mask = ones
        .bvshl(resize(&bv_min(count, &off_u(len as u128)), l + 1))
        .bvnot()
        .extract(l - 1, 0);
    x.bvand(&mask)
}

/// The bits of implicit value `v` seen from offset `off` over `len` bits:
/// how many are inside the storage (an `OFF`-bit count) and those bits (the
/// rest zero).
fn value_view(v: &BV, off: &BV, len: u64) -> (BV, BV) {
    let w = v.get_size() as u128;
    let inside = off.bvuge(off_u(w)).ite(
        &off_u(0),
        &bv_min(&off_u(w).bvsub(off), &off_u(len as u128)),
    );
    let x = shift_out(v, off, len);
    let l = len as u32;
    let ones = BV::from_i64(-1, l + 1);
    let mask = ones.bvshl(resize(&inside, l + 1)).bvnot().extract(l - 1, 0);
    (inside, x.bvand(&mask))
}

fn bv_min(a: &BV, b: &BV) -> BV {
    a.bvule(b).ite(a, b)
}

/// DECISION (D-address-identity): an implicit address (made by
/// `DIOpAddrOf`) "conceptually holds a reference to the storage that `L`
/// denotes", so two are the same when they refer to the same location
/// *structurally*: the same storage kinds, offsets, values and composite
/// parts. A target rebuilt with a different composite structure is a
/// different reference, as two `DW_OP_implicit_pointer`s to different
/// DIEs are.
pub fn same_structure(w: &World, a: &SLoc, b: &SLoc) -> Result<Bool, Diag> {
    w.charge(1)?;
    Ok(match (a, b) {
        (SLoc::Ite(c, x, y), _) => c.ite(&same_structure(w, x, b)?, &same_structure(w, y, b)?),
        (_, SLoc::Ite(c, x, y)) => c.ite(&same_structure(w, a, x)?, &same_structure(w, a, y)?),
        (SLoc::One(s1, o1), SLoc::One(s2, o2)) => and(&o1.eq(o2), &same_storage(w, s1, s2)?),
        (SLoc::Multi(x), SLoc::Multi(y)) if x.len() == y.len() => {
            let mut all = tt();
            for (p, q) in x.iter().zip(y.iter()) {
                all = and(&all, &same_structure(w, p, q)?);
            }
            all
        }
        _ => ff(),
    })
}

fn same_storage(w: &World, a: &SStorage, b: &SStorage) -> Result<Bool, Diag> {
    Ok(match (a, b) {
        (SStorage::Memory { addrspace: x }, SStorage::Memory { addrspace: y }) => {
            Bool::from_bool(x == y)
        }
        (SStorage::Register { number: x, .. }, SStorage::Register { number: y, .. }) => {
            Bool::from_bool(x == y)
        }
        (SStorage::Implicit(x), SStorage::Implicit(y)) => {
            if x.get_size() == y.get_size() {
                x.eq(y)
            } else {
                ff()
            }
        }
        (SStorage::Undefined, SStorage::Undefined) => tt(),
        (
            SStorage::ImplicitAddress {
                addrspace: s1,
                bits: b1,
                target: t1,
            },
            SStorage::ImplicitAddress {
                addrspace: s2,
                bits: b2,
                target: t2,
            },
        ) => {
            if s1 != s2 || b1 != b2 {
                ff()
            } else {
                same_structure(w, t1, t2)?
            }
        }
        (SStorage::Composite { parts: p }, SStorage::Composite { parts: q }) => {
            if p.len() != q.len() || p.iter().zip(q).any(|(x, y)| x.bits != y.bits) {
                return Ok(ff());
            }
            let mut all = tt();
            for (x, y) in p.iter().zip(q) {
                all = and(&all, &same_structure(w, &x.loc, &y.loc)?);
            }
            all
        }
        _ => ff(),
    })
}
