//! A variable's location at a pc in a machine state: the entry of its
//! location list that covers the pc (or its one expression), evaluated with
//! the frame base of its function and the CFA at the pc.

use super::variables::{Location, Variable, Variables};
use super::{frame, Object};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::context::{ConcreteContext, Context as _};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::dwarf::eval::{evaluate, evaluate_list, Env, Frame};
use dioptra_semantics::dwarf::op::{decode, DwarfOp};
use dioptra_semantics::dwarf::unit::ListEntry;
use dioptra_semantics::location::{read, LocDesc, Storage};
use gimli::constants::DW_OP_GNU_uninit;

/// What a variable is at a pc.
#[derive(Debug)]
pub enum AtPc {
    /// Its location there, and its value where the type's size is known
    /// (`None`) and the bits can be read.
    Located {
        loc: LocDesc,
        value: Option<Result<Bits, Diag>>,
        /// The expression ends with `DW_OP_GNU_uninit`: the compiler
        /// marks the value uninitialized there (D-dwarf-gnu-uninit).
        uninitialized: bool,
    },
    /// It has no location at the pc (no list entry covers it, or no
    /// location at all): optimized out there, which is legal.
    Unavailable(String),
    /// Its DWARF does not evaluate there.
    Failed(Diag),
}

/// `v` at `pc` in `ctx`.
pub fn at_pc(obj: &Object, vars: &Variables, v: &Variable, pc: u64, ctx: &ConcreteContext) -> AtPc {
    let info = &vars.units[v.unit];
    let unit = info.dwarf_unit();
    let table = |i: u64| info.addresses.get(i as usize).copied();
    let cfa = frame::cfa_at(obj, pc, ctx);
    let base = Frame {
        frame_base: None,
        cfa: cfa.as_ref().ok().copied(),
        address: Some(&table),
    };
    let env = |frame| Env {
        enc: info.enc,
        pc: Some(pc),
        frame,
        ..Env::new(ctx, &unit)
    };
    let frame_base = match &v.frame_base {
        None => Err("the variable's function has no DW_AT_frame_base".to_string()),
        Some(bytes) => frame_base(bytes, env(base), ctx),
    };
    let frame = Frame {
        frame_base: frame_base.as_ref().ok().copied(),
        ..base
    };
    let decoded = |bytes: &[u8]| decode(bytes, info.enc);
    let ends_uninit = |bytes: &[u8]| {
        decoded(bytes).is_ok_and(|ops| {
            matches!(ops.last(), Some(DwarfOp::Std { code, .. }) if *code == DW_OP_GNU_uninit.0)
        })
    };
    let uninitialized = match &v.location {
        Location::Expr(bytes) => ends_uninit(bytes),
        Location::List(list) => list
            .iter()
            .any(|(lo, hi, bytes)| (*lo..*hi).contains(&pc) && ends_uninit(bytes)),
        Location::None | Location::Constant(_) => false,
    };
    let result = match &v.location {
        Location::None => return AtPc::Unavailable("no DW_AT_location".into()),
        Location::Constant(_) => {
            return AtPc::Unavailable("a DW_AT_const_value, not a location".into())
        }
        Location::Expr(bytes) => decoded(bytes).and_then(|ops| evaluate(&ops, env(frame))),
        Location::List(list) => {
            if !list.iter().any(|(lo, hi, _)| (*lo..*hi).contains(&pc)) {
                return AtPc::Unavailable(format!("no entry of its location list covers {pc:#x}"));
            }
            let entries: Result<Vec<ListEntry>, Diag> = list
                .iter()
                .filter(|(lo, hi, _)| (*lo..*hi).contains(&pc))
                .map(|(lo, hi, bytes)| {
                    Ok(ListEntry::Bounded {
                        lo: *lo,
                        hi: *hi,
                        ops: decoded(bytes)?,
                    })
                })
                .collect();
            entries.and_then(|e| evaluate_list(&e, env(frame)))
        }
    };
    // Say why the frame was not known rather than that it was not.
    let result = result.map_err(|d| match (d.reason, &frame_base, &cfa) {
        ("no-frame-base", Err(why), _) => {
            Diag::unsupported(d.construct.clone(), "no-frame-base", why.clone())
        }
        ("no-frame-state", _, Err(why)) if d.construct == "DW_OP_call_frame_cfa" => {
            Diag::unsupported(d.construct.clone(), "no-frame-state", why.clone())
        }
        _ => d,
    });
    match result {
        Err(d) => AtPc::Failed(d),
        Ok(loc) => {
            let value = v
                .byte_size
                .map(|n| read(ctx, &loc, n * 8).map_err(|f| f.at("read")));
            AtPc::Located {
                loc,
                value,
                uninitialized,
            }
        }
    }
}

/// DECISION (D-frame-base-location): the frame base is the address the
/// subprogram's `DW_AT_frame_base` location description holds: the value of
/// the register for a register location (`DW_OP_reg6`, what LLVM emits: the
/// frame pointer's value, as gdb, lldb and gimli read it), the address for
/// a memory location (`DW_OP_call_frame_cfa` gives the CFA).
fn frame_base(bytes: &[u8], env: Env, ctx: &ConcreteContext) -> Result<u64, String> {
    let describe = |d: Diag| format!("the frame base does not evaluate: {d}");
    let ops = decode(bytes, env.enc).map_err(describe)?;
    let loc = evaluate(&ops, env).map_err(describe)?;
    match loc.singles() {
        [s] => match (&*s.storage, s.offset) {
            (Storage::Register { number }, 0) => ctx
                .read_register(*number, 0, env.enc.address_size as u64 * 8)
                .map(|b| b.low_u64())
                .map_err(|f| format!("the frame base is register {number}: {}", f.message)),
            (Storage::Memory { addrspace: 0 }, off) if off % 8 == 0 => Ok((off / 8) as u64),
            _ => Err(format!(
                "the frame base is {loc}, not a register or an address"
            )),
        },
        _ => Err(format!("the frame base is {loc}, not one location")),
    }
}
