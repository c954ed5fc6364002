//! Differential harnesses: real implementations driven against the
//! reference semantics, every difference classified.
//!
//! * [`gimli`]: gimli's DWARF expression evaluator on plain DWARF 5;
//! * [`gdb`]: gdb (and lldb as a third opinion) reading variables of a real
//!   program whose DWARF is dioptra's lowering.
//!
//! The laws that run these harnesses on generated input are in
//! `dioptra-properties`; the harnesses themselves only need a case.

pub mod gdb;
pub mod gimli;

use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::location::LocDesc;

/// `ctx` with every input in its first single location only: what a code
/// generator places (one register or one address), as plain DWARF 5 and
/// the debuggers can name it.
pub fn one_place(ctx: &ConcreteContext) -> ConcreteContext {
    let first = |i: &mut dioptra_semantics::context::Input| {
        i.loc = LocDesc::new(vec![i.loc.singles()[0].clone()]);
    };
    let mut c = ctx.clone();
    c.referrer.iter_mut().for_each(first);
    c.args.iter_mut().for_each(first);
    c.type_object.iter_mut().for_each(first);
    c
}
