//! The canonical frame address at a pc, from the call frame information
//! (`.debug_frame` first, then `.eh_frame`): DWARF 5 Section 6.4. Only the
//! "register plus offset" CFA rule is read; a CFA given by an expression is
//! reported as such.

use super::Object;
use dioptra_semantics::context::Context;
use gimli::{BaseAddresses, CfaRule, EndianSlice, LittleEndian, UnwindContext, UnwindSection};

/// The CFA at `pc` with the registers of `ctx`, or why it is not known.
pub fn cfa_at(obj: &Object, pc: u64, ctx: &dyn Context) -> Result<u64, String> {
    let rule = rule_at(obj, pc)?;
    let (register, offset) = match rule {
        CfaRule::RegisterAndOffset { register, offset } => (register, offset),
        CfaRule::Expression(_) => {
            return Err(format!(
                "the CFA at {pc:#x} is given by an expression (not read)"
            ))
        }
    };
    // The register is as wide as an address (32 bits on i686).
    let width = u64::from(ctx.layout().memory_pointer_bits(0).unwrap_or(64).min(64));
    let bits = ctx
        .read_register(register.0 as u32, 0, width)
        .map_err(|f| {
            format!(
                "the CFA is register {} + {offset}: {}",
                register.0, f.message
            )
        })?;
    Ok(bits.low_u64().wrapping_add(offset as u64))
}

/// The CFA rule at `pc`.
pub fn rule_at(obj: &Object, pc: u64) -> Result<CfaRule<usize>, String> {
    let mut why = Vec::new();
    let debug_frame = obj.section(".debug_frame");
    if !debug_frame.is_empty() {
        let section = gimli::DebugFrame::new(debug_frame, LittleEndian);
        match rule_in(&section, &BaseAddresses::default(), pc) {
            Ok(r) => return Ok(r),
            Err(e) => why.push(format!(".debug_frame: {e}")),
        }
    }
    let eh_frame = obj.section(".eh_frame");
    if !eh_frame.is_empty() {
        let section = gimli::EhFrame::new(eh_frame, LittleEndian);
        let mut bases = BaseAddresses::default();
        if let Some(a) = obj.address_of(".eh_frame") {
            bases = bases.set_eh_frame(a);
        }
        if let Some(a) = obj.address_of(".text") {
            bases = bases.set_text(a);
        }
        match rule_in(&section, &bases, pc) {
            Ok(r) => return Ok(r),
            Err(e) => why.push(format!(".eh_frame: {e}")),
        }
    }
    if why.is_empty() {
        why.push("the file has no call frame information".to_string());
    }
    Err(why.join("; "))
}

fn rule_in<'a, S>(section: &S, bases: &BaseAddresses, pc: u64) -> Result<CfaRule<usize>, String>
where
    S: UnwindSection<EndianSlice<'a, LittleEndian>>,
{
    let mut ctx: UnwindContext<usize> = UnwindContext::new();
    let row = section
        .unwind_info_for_address(bases, &mut ctx, pc, S::cie_from_offset)
        .map_err(|e| format!("no unwind row for {pc:#x} ({e})"))?;
    Ok(match row.cfa() {
        CfaRule::RegisterAndOffset { register, offset } => CfaRule::RegisterAndOffset {
            register: *register,
            offset: *offset,
        },
        CfaRule::Expression(e) => CfaRule::Expression(*e),
    })
}
