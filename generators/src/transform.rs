//! Compiler transformations from the spec's examples, applied to generated
//! programs the way the spec says a pass must update the debug metadata.
//!
//! A source program gives each variable `!vL` (an `i64` with a known value)
//! one bounded segment `!lL`, either in memory (an `alloca` at a known
//! address: "Variable Located In An alloca") or in an SSA value (a register).
//! A transformation rewrites the listing and the context (where the values
//! now are) together:
//!
//! * `Mem2Reg`: "Variable Promoted To An SSA Register" (`DIOpReferrer(i64),
//!   DIOpAddrOf(5), DIOpDeref(i64)`), and `Mem2RegCanonical` (`DIOpReferrer(i64)`);
//! * `Spill`: "Spilling" (SSA value to a stack slot);
//! * `SroaSplit`: "Local Variable Broken Into Two Scalars", with the halves
//!   in the normative composite order; `SroaSplitAsInSpec` pushes them in the
//!   order the spec's example does (known wrong: see E-sroa-composite-order);
//! * `ProvenConstant`: "Proven Constant";
//! * `CseReadOnly`: the CSE example's read-only location (`DIOpRead()`);
//! * `SroaFurther`: "Further Decomposition": the high half split again;
//! * `SpillKeepRegister`: "Multiple Live Ranges": the value is spilled while
//!   it stays in its register, two segments active at once;
//! * `Induction`: "Induction Variable": the variable is not kept, but
//!   computed from another object (an artificial fragment holding
//!   `value - 5`) with `DIOpArg(0, i64), DIOpConstant(i64 5), DIOpAdd()`;
//! * `GlobalSplit`: "Global Variable Broken Into Two Scalars", for a global
//!   `g` every program also has;
//! * `ImplicitPointerChain`: "Implicit Pointer Location Description", both
//!   mem2reg rounds at once, for `x` and `p = &x` every program also has (in
//!   memory from the start of the function): `x` moves to a register and `p`
//!   becomes an implicit pointer to it;
//! * `DeadStore`: the `DW_OP_LLVM_memory` RFC's dead-store elimination, for
//!   `d` every program also has: its alloca (address space 0, at 0x40000)
//!   is stored
//!   `value(97)` at the start of the function and `value(96)` at the start
//!   of the last block (which no loop contains), so the first store is dead
//!   and is deleted; the pass then records `dbg.value(i64 value(97), !d,
//!   !DIExpression())` where the store was ("mark x as the constant 42")
//!   and `dbg.value(ptr %d.addr, !d, !DIExpression(DW_OP_LLVM_memory))`
//!   before the killing store ("x is in memory again"). The classic records
//!   are written as lifetimes through their DIOp translations
//!   (`dioptra_semantics::classic::translate`), the operand as referrer.
//!   Memory changes at the killing store: an instance has a second context
//!   for the points after it, where the deleted store leaves its bytes
//!   stale before it.

use super::programs::{PInst, Program};
use proptest::prelude::*;

/// Where a source variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Memory,
    Ssa,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transform {
    Mem2Reg,
    Mem2RegCanonical,
    Spill,
    SroaSplit,
    SroaSplitAsInSpec,
    ProvenConstant,
    CseReadOnly,
    SroaFurther,
    SpillKeepRegister,
    Induction,
    GlobalSplit,
    ImplicitPointerChain,
    DeadStore,
}

impl Transform {
    /// The transformations that must preserve values.
    pub const SOUND: [Transform; 12] = [
        Transform::Mem2Reg,
        Transform::Mem2RegCanonical,
        Transform::Spill,
        Transform::SroaSplit,
        Transform::ProvenConstant,
        Transform::CseReadOnly,
        Transform::SroaFurther,
        Transform::SpillKeepRegister,
        Transform::Induction,
        Transform::GlobalSplit,
        Transform::ImplicitPointerChain,
        Transform::DeadStore,
    ];
    /// The form of the variables it rewrites.
    fn applies_to(self) -> Form {
        match self {
            Transform::Mem2Reg | Transform::Mem2RegCanonical => Form::Memory,
            _ => Form::Ssa,
        }
    }
}

/// A listing and the context that places its entities: `context` up to
/// the store at line `after_line` (the store to `d` in the last block),
/// `context_after` from the next line on.
#[derive(Clone, Debug)]
pub struct Instance {
    pub listing: String,
    pub context: String,
    pub after_line: u32,
    pub context_after: String,
}

/// The DIOp location, with the operand as referrer, of a classic record
/// `dbg.value(OPERAND, !var, EXPR)` whose operand is of type `ty`.
fn classic_location(expr: &str, ty: &str) -> String {
    use dioptra_semantics::classic::{parse_classic, translate::translate, Params};
    use dioptra_semantics::context::Signature;
    use dioptra_semantics::syntax::{Expr, Op};
    let e = parse_classic(expr).expect("a classic expression");
    let sig = Signature {
        args: vec![dioptra_semantics::text::parse_type(ty).expect("a type")],
        ..Signature::default()
    };
    let p = Params {
        variable: Some(dioptra_semantics::types::Type::Int(64)),
        ..Params::default()
    };
    let d = translate(&e, &sig, &p).expect("a translation");
    let ops = d
        .ops
        .into_iter()
        .map(|op| match op {
            Op::Arg(0, t) => Op::Referrer(t),
            other => other,
        })
        .collect::<Vec<_>>();
    Expr {
        spelling: d.spelling,
        ops,
    }
    .to_string()
}

/// The value of variable `l`.
pub fn value(l: usize) -> u64 {
    0x0102_0304_0506_0708u64.wrapping_mul(l as u64 + 1) ^ 0x00F0_0000_0000_0F00
}

fn bytes(v: u64, n: usize) -> String {
    v.to_le_bytes()[..n]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How one variable is written: (def lines, kill lines, metadata, context clauses).
struct Var {
    defs: Vec<String>,
    kills: Vec<String>,
    md: String,
    ctx: String,
}

fn var(l: usize, form: Form, t: Option<Transform>) -> Var {
    let v = value(l);
    let def = |r: &str| {
        vec![format!(
            "call void @llvm.dbg.def(metadata !l{l}, metadata {r})"
        )]
    };
    let kill = vec![format!("call void @llvm.dbg.kill(metadata !l{l})")];
    let lt = |e: &str| {
        format!("!v{l} = !DILocalVariable(\"v{l}\")\n!l{l} = distinct !DILifetime(object: !v{l}, location: !DIExpr({e}))\n")
    };
    let addr = 0x100 + 0x10 * l as u64;
    let memory = format!(
        "(memory 5 {addr} \"{}\") (bind \"%v{l}.addr\" \"imp(ptr addrspace(5) {addr})\")",
        bytes(v, 8)
    );
    let register = format!(
        "(register {} \"{}\") (bind \"%v{l}\" \"reg({})\")",
        10 + l,
        bytes(v, 8),
        10 + l
    );
    let in_memory = || Var {
        defs: def(&format!("i64 addrspace(5)* %v{l}.addr")),
        kills: kill.clone(),
        md: lt("DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64)"),
        ctx: memory.clone(),
    };
    let in_register = |e: &str| Var {
        defs: def(&format!("i64 %v{l}")),
        kills: kill.clone(),
        md: lt(e),
        ctx: register.clone(),
    };
    let applies = t.filter(|t| t.applies_to() == form);
    match (form, applies) {
        (Form::Memory, None) => in_memory(),
        (Form::Ssa, None) => in_register("DIOpReferrer(i64)"),
        (_, Some(Transform::Mem2Reg)) => {
            in_register("DIOpReferrer(i64), DIOpAddrOf(5), DIOpDeref(i64)")
        }
        (_, Some(Transform::Mem2RegCanonical)) => in_register("DIOpReferrer(i64)"),
        (_, Some(Transform::Spill)) => in_memory(),
        (_, Some(Transform::CseReadOnly)) => in_register("DIOpReferrer(i64), DIOpRead()"),
        (_, Some(Transform::ProvenConstant)) => Var {
            defs: def("i64 undef"),
            kills: kill,
            md: lt(&format!("DIOpConstant(i64 {})", v as i64)),
            ctx: String::new(),
        },
        (
            _,
            Some(Transform::GlobalSplit | Transform::ImplicitPointerChain | Transform::DeadStore),
        ) => in_register("DIOpReferrer(i64)"),
        (_, Some(Transform::SpillKeepRegister)) => {
            let mut md = lt("DIOpReferrer(i64)");
            md += &format!("!l{l}s = distinct !DILifetime(object: !v{l}, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64)))\n");
            Var {
                defs: vec![
                    format!("call void @llvm.dbg.def(metadata !l{l}, metadata i64 %v{l})"),
                    format!("call void @llvm.dbg.def(metadata !l{l}s, metadata i64 addrspace(5)* %v{l}.addr)"),
                ],
                kills: vec![
                    format!("call void @llvm.dbg.kill(metadata !l{l})"),
                    format!("call void @llvm.dbg.kill(metadata !l{l}s)"),
                ],
                md,
                ctx: format!("{register} {memory}"),
            }
        }
        (_, Some(Transform::Induction)) => {
            let md = format!(
                "!v{l} = !DILocalVariable(\"v{l}\")\n\
                 !l{l} = distinct !DILifetime(object: !v{l}, location: !DIExpr(DIOpArg(0, i64), DIOpConstant(i64 5), DIOpAdd()), argObjects: {{!b{l}}})\n\
                 !b{l} = distinct !DIFragment()\n\
                 !l{l}b = distinct !DILifetime(object: !b{l}, location: !DIExpr(DIOpReferrer(i64)))\n"
            );
            Var {
                defs: vec![format!(
                    "call void @llvm.dbg.def(metadata !l{l}b, metadata i64 %b{l})"
                )],
                kills: vec![format!("call void @llvm.dbg.kill(metadata !l{l}b)")],
                md,
                ctx: format!(
                    "(register {} \"{}\") (bind \"%b{l}\" \"reg({})\")",
                    70 + l,
                    bytes(v.wrapping_sub(5), 8),
                    70 + l
                ),
            }
        }
        (_, Some(Transform::SroaFurther)) => {
            let md = format!(
                "!v{l} = !DILocalVariable(\"v{l}\")\n\
                 !l{l} = distinct !DILifetime(object: !v{l}, location: !DIExpr(DIOpArg(0, i32), DIOpArg(1, i32), DIOpComposite(2, i64)), argObjects: {{!f{l}lo, !f{l}hi}})\n\
                 !f{l}lo = distinct !DIFragment()\n\
                 !l{l}lo = distinct !DILifetime(object: !f{l}lo, location: !DIExpr(DIOpReferrer(i32)))\n\
                 !f{l}hi = distinct !DIFragment()\n\
                 !l{l}hi = distinct !DILifetime(object: !f{l}hi, location: !DIExpr(DIOpArg(0, i16), DIOpArg(1, i16), DIOpComposite(2, i32)), argObjects: {{!f{l}hl, !f{l}hh}})\n\
                 !f{l}hl = distinct !DIFragment()\n\
                 !l{l}hl = distinct !DILifetime(object: !f{l}hl, location: !DIExpr(DIOpReferrer(i16)))\n\
                 !f{l}hh = distinct !DIFragment()\n\
                 !l{l}hh = distinct !DILifetime(object: !f{l}hh, location: !DIExpr(DIOpReferrer(i16)))\n"
            );
            let (lo, hl, hh) = (v & 0xffff_ffff, (v >> 32) & 0xffff, v >> 48);
            let (a, b, c) = (50 + 3 * l, 51 + 3 * l, 52 + 3 * l);
            Var {
                defs: vec![
                    format!("call void @llvm.dbg.def(metadata !l{l}lo, metadata i32 %v{l}.lo)"),
                    format!("call void @llvm.dbg.def(metadata !l{l}hl, metadata i16 %v{l}.hl)"),
                    format!("call void @llvm.dbg.def(metadata !l{l}hh, metadata i16 %v{l}.hh)"),
                ],
                kills: vec![
                    format!("call void @llvm.dbg.kill(metadata !l{l}hh)"),
                    format!("call void @llvm.dbg.kill(metadata !l{l}hl)"),
                    format!("call void @llvm.dbg.kill(metadata !l{l}lo)"),
                ],
                md,
                ctx: format!(
                    "(register {a} \"{}\") (register {b} \"{}\") (register {c} \"{}\") \
                     (bind \"%v{l}.lo\" \"reg({a})\") (bind \"%v{l}.hl\" \"reg({b})\") (bind \"%v{l}.hh\" \"reg({c})\")",
                    bytes(lo, 4),
                    bytes(hl, 2),
                    bytes(hh, 2),
                ),
            }
        }
        (_, Some(t @ (Transform::SroaSplit | Transform::SroaSplitAsInSpec))) => {
            let args = if t == Transform::SroaSplit {
                "DIOpArg(0, i32), DIOpArg(1, i32)"
            } else {
                "DIOpArg(1, i32), DIOpArg(0, i32)"
            };
            let md = format!(
                "!v{l} = !DILocalVariable(\"v{l}\")\n\
                 !l{l} = distinct !DILifetime(object: !v{l}, location: !DIExpr({args}, DIOpComposite(2, i64)), argObjects: {{!f{l}lo, !f{l}hi}})\n\
                 !f{l}lo = distinct !DIFragment()\n\
                 !l{l}lo = distinct !DILifetime(object: !f{l}lo, location: !DIExpr(DIOpReferrer(i32)))\n\
                 !f{l}hi = distinct !DIFragment()\n\
                 !l{l}hi = distinct !DILifetime(object: !f{l}hi, location: !DIExpr(DIOpReferrer(i32)))\n"
            );
            let (lo, hi) = (v & 0xffff_ffff, v >> 32);
            Var {
                defs: vec![
                    format!("call void @llvm.dbg.def(metadata !l{l}lo, metadata i32 %v{l}.lo)"),
                    format!("call void @llvm.dbg.def(metadata !l{l}hi, metadata i32 %v{l}.hi)"),
                ],
                kills: vec![
                    format!("call void @llvm.dbg.kill(metadata !l{l}hi)"),
                    format!("call void @llvm.dbg.kill(metadata !l{l}lo)"),
                ],
                md,
                ctx: format!(
                    "(register {} \"{}\") (register {} \"{}\") (bind \"%v{l}.lo\" \"reg({})\") (bind \"%v{l}.hi\" \"reg({})\")",
                    40 + 2 * l,
                    bytes(lo, 4),
                    41 + 2 * l,
                    bytes(hi, 4),
                    40 + 2 * l,
                    41 + 2 * l
                ),
            }
        }
    }
}

/// The source program (`t = None`) or its transformation.
/// Only variables with a def are written out (an undefined segment would be
/// computed, and `DIOpReferrer` is not well-formed there).
pub fn instance(p: &Program, forms: &[Form], t: Option<Transform>) -> Instance {
    let vars: Vec<Var> = (0..p.lifetimes)
        .map(|l| var(l, forms[l % forms.len()], t))
        .collect();
    let mut md: String = p.defined().iter().map(|&l| vars[l].md.as_str()).collect();
    let mut ctx: Vec<String> = p.defined().iter().map(|&l| vars[l].ctx.clone()).collect();
    // The global g (value `value(99)`): whole at 0x2000, or split at 0x3000 / 0x3008.
    let g = value(99);
    let (head, gmd, gctx) = if t == Some(Transform::GlobalSplit) {
        (
            "@g.lo = i32 !dbg.def !gl\n@g.hi = i32 !dbg.def !gh\n",
            "!g = !DIGlobalVariable(\"g\")\n!gl = distinct !DIFragment()\n!gh = distinct !DIFragment()\n\
             !gt = distinct !DILifetime(object: !g, location: !DIExpr(DIOpArg(0, ptr addrspace(1)), DIOpDeref(i32), DIOpArg(1, ptr addrspace(1)), DIOpDeref(i32), DIOpComposite(2, i64)), argObjects: {!gl, !gh})\n"
                .to_string(),
            format!(
                "(memory 1 0x3000 \"{}\") (memory 1 0x3008 \"{}\") (bind \"@g.lo\" \"imp(ptr addrspace(1) 12288)\") (bind \"@g.hi\" \"imp(ptr addrspace(1) 12296)\")",
                bytes(g & 0xffff_ffff, 4),
                bytes(g >> 32, 4)
            ),
        )
    } else {
        (
            "@g = i64 !dbg.def !gf\n",
            "!g = !DIGlobalVariable(\"g\")\n!gf = distinct !DIFragment()\n\
             !gt = distinct !DILifetime(object: !g, location: !DIExpr(DIOpArg(0, ptr addrspace(1)), DIOpDeref(i64)), argObjects: {!gf})\n"
                .to_string(),
            format!("(memory 1 0x2000 \"{}\") (bind \"@g\" \"imp(ptr addrspace(1) 8192)\")", bytes(g, 8)),
        )
    };
    md += &gmd;
    ctx.push(gctx);
    // x (value `value(98)`) and p = &x, defined at the start of the function.
    let x = value(98);
    let (start, xp_md, xp_ctx) = if t == Some(Transform::ImplicitPointerChain) {
        (
            "  call void @llvm.dbg.def(metadata !xl, metadata i64 %x)\n  call void @llvm.dbg.def(metadata !pl, metadata i64 %x)\n",
            "!x = !DILocalVariable(\"x\")\n!xl = distinct !DILifetime(object: !x, location: !DIExpr(DIOpReferrer(i64), DIOpAddrOf(5), DIOpDeref(i64)))\n\
             !p = !DILocalVariable(\"p\")\n!pl = distinct !DILifetime(object: !p, location: !DIExpr(DIOpReferrer(i64), DIOpAddrOf(5)))\n",
            format!("(register 90 \"{}\") (bind \"%x\" \"reg(90)\")", bytes(x, 8)),
        )
    } else {
        (
            "  call void @llvm.dbg.def(metadata !xl, metadata i64 addrspace(5)* %x.addr)\n  call void @llvm.dbg.def(metadata !pl, metadata i64 addrspace(5)* addrspace(5)* %p.addr)\n",
            "!x = !DILocalVariable(\"x\")\n!xl = distinct !DILifetime(object: !x, location: !DIExpr(DIOpReferrer(i64 addrspace(5)*), DIOpDeref(i64)))\n\
             !p = !DILocalVariable(\"p\")\n!pl = distinct !DILifetime(object: !p, location: !DIExpr(DIOpReferrer(i64 addrspace(5)* addrspace(5)*), DIOpDeref(i64 addrspace(5)*)))\n",
            format!(
                "(memory 5 0x500 \"{}\") (memory 5 0x508 \"00 05 00 00\") (bind \"%x.addr\" \"imp(ptr addrspace(5) 1280)\") (bind \"%p.addr\" \"imp(ptr addrspace(5) 1288)\")",
                bytes(x, 8)
            ),
        )
    };
    md += xp_md;
    ctx.push(xp_ctx);
    // d: stored twice; the first store dead (DeadStore deletes it).
    let (d0, d1) = (value(97), value(96));
    let dse = t == Some(Transform::DeadStore);
    let memory_again = classic_location("!DIExpression(DW_OP_LLVM_memory)", "ptr");
    md += &format!(
        "!d = !DILocalVariable(\"d\")\n!dl = distinct !DILifetime(object: !d, location: {memory_again})\n"
    );
    let d_def = "  call void @llvm.dbg.def(metadata !dl, metadata ptr %d.addr)\n";
    let store = |v: u64| format!("  store i64 {}, ptr %d.addr\n", v as i64);
    let (d_start, d_last) = if dse {
        md += &format!(
            "!dc = distinct !DILifetime(object: !d, location: {})\n",
            classic_location("!DIExpression()", "i64")
        );
        (
            format!(
                "  call void @llvm.dbg.def(metadata !dc, metadata i64 {})\n",
                d0 as i64
            ),
            format!(
                "  call void @llvm.dbg.kill(metadata !dc)\n{d_def}{}",
                store(d1)
            ),
        )
    } else {
        (format!("{d_def}{}", store(d0)), store(d1))
    };
    // At 0x40000: above the lowest address a process may map, so the gdb
    // harness can put it in its stub's memory.
    let d_memory = |v: u64| {
        format!(
            "(memory 0 0x40000 \"{}\") (bind \"%d.addr\" \"imp(ptr 262144)\")",
            bytes(v, 8)
        )
    };
    // Before the killing store the source's memory holds d0; after DSE it
    // holds what was there before (stale bytes).
    let stale = 0xdead_beef_dead_beefu64;
    let before = format!(
        "(context {} {})",
        ctx.join(" "),
        d_memory(if dse { stale } else { d0 })
    );
    let after = format!("(context {} {})", ctx.join(" "), d_memory(d1));
    let last = format!("b{}:\n", p.blocks.len() - 1);
    let mut body = p
        .render(&|l| vars[l].defs.clone(), &|l| vars[l].kills.clone(), &md)
        .replacen("b0:\n", &format!("b0:\n{start}{d_start}"), 1);
    let mut at = body.rfind(&last).expect("the last block") + last.len();
    if p.blocks.len() == 1 {
        // One block: the killing store after the dead one.
        at += start.len() + d_start.len();
    }
    body.insert_str(at, &d_last);
    let listing = format!("{head}{body}");
    let after_line = listing[..at + head.len() + d_last.len()].lines().count() as u32;
    Instance {
        listing,
        context: before,
        after_line,
        context_after: after,
    }
}

pub fn arb_forms() -> impl Strategy<Value = Vec<Form>> {
    prop::collection::vec(prop_oneof![Just(Form::Memory), Just(Form::Ssa)], 4)
}

pub fn arb_transform() -> impl Strategy<Value = Transform> {
    prop::sample::select(Transform::SOUND.to_vec())
}

impl Program {
    /// The segments that have a def.
    pub fn defined(&self) -> Vec<usize> {
        (0..self.lifetimes)
            .filter(|l| {
                self.blocks
                    .iter()
                    .any(|b| b.insts.contains(&PInst::Def(*l)))
            })
            .collect()
    }

    /// The program with its kills made well-formed: each segment keeps its
    /// first kill reachable from its def (blocks form a DAG, in order), and a
    /// segment without a def keeps none.
    pub fn well_formed(&self) -> Program {
        let mut p = self.clone();
        let n = p.blocks.len();
        let mut reach = vec![vec![false; n]; n];
        for a in (0..n).rev() {
            reach[a][a] = true;
            for &s in &p.blocks[a].succs.clone() {
                let from_s = reach[s].clone();
                for (r, f) in reach[a].iter_mut().zip(from_s) {
                    *r |= f;
                }
            }
        }
        for l in 0..p.lifetimes {
            let def = p.blocks.iter().enumerate().find_map(|(b, blk)| {
                blk.insts
                    .iter()
                    .position(|i| *i == PInst::Def(l))
                    .map(|k| (b, k))
            });
            let mut kept = false;
            for (b, block) in p.blocks.iter_mut().enumerate() {
                let insts = std::mem::take(&mut block.insts);
                block.insts = insts
                    .into_iter()
                    .enumerate()
                    .filter_map(|(k, i)| {
                        if i != PInst::Kill(l) {
                            return Some(i);
                        }
                        let ok = !kept
                            && def.is_some_and(
                                |(db, dk)| if db == b { dk < k } else { reach[db][b] },
                            );
                        kept |= ok;
                        ok.then_some(i).or(Some(PInst::Other))
                    })
                    .collect();
            }
        }
        p
    }
}
