//! The machine a context becomes: which DWARF registers the x86-64 stub can
//! set, which memory it can map, and the concrete state (no undefined bytes,
//! registers at their machine width) that both dioptra and gdb read.

use dioptra_semantics::context::ConcreteContext;
use std::collections::BTreeSet;

/// Where the stub program is linked: far above any address a context
/// names, so context memory never collides with the program.
pub const PROGRAM_BASE: u64 = 0x100_0000_0000;

/// The page size the stub maps context memory with.
pub const PAGE: u64 = 4096;

/// The x86-64 register a DWARF register number names (System V psABI,
/// DWARF register number mapping) and its width in bytes, for the
/// registers the stub can set: the general registers but `%rsp`, and
/// `%xmm0`-`%xmm15`. `%rsp` (7) is the stub's stack and `%rip` (16) its
/// program counter; the x87 and MMX registers are not set by the stub.
pub fn x86_register(n: u32) -> Option<(&'static str, u64)> {
    const GPR: [&str; 16] = [
        "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12",
        "r13", "r14", "r15",
    ];
    const XMM: [&str; 16] = [
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
    ];
    match n {
        7 => None,
        0..=15 => Some((GPR[n as usize], 8)),
        17..=32 => Some((XMM[n as usize - 17], 16)),
        _ => None,
    }
}

/// The smallest address the kernel lets a process map
/// (`vm.mmap_min_addr`); 65536, the common default, when it cannot be read.
pub fn mmap_min_addr() -> u64 {
    std::fs::read_to_string("/proc/sys/vm/mmap_min_addr")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(65536)
}

/// A byte for an undefined (`??`) byte of the context: the real machine has
/// some value there, so the machine state picks one that differs from
/// byte to byte.
fn filler(k: usize) -> u8 {
    0x5a ^ (k as u8).wrapping_mul(37)
}

/// The concrete machine state for `ctx`: every undefined byte gets a
/// value, every register its x86-64 width (the bytes the context does not
/// declare are zero), so dioptra reads exactly what gdb reads. An error
/// names what the stub cannot reproduce: a register it cannot set or that
/// is wider than the machine's, or address-space-0 memory below
/// `min_addr` or reaching the program. Memory in other address spaces is
/// kept (plain DWARF 5 cannot name it, so neither side reads it).
pub fn machine_context(ctx: &ConcreteContext, min_addr: u64) -> Result<ConcreteContext, String> {
    let mut m = ctx.clone();
    for (&n, bytes) in m.registers.iter_mut() {
        let Some((name, width)) = x86_register(n) else {
            return Err(format!(
                "register {n} is not one the x86-64 stub sets (rsp, rip, x87, MMX or not x86-64)"
            ));
        };
        if bytes.len() as u64 > width {
            return Err(format!(
                "register {n} has {} bytes in the context; %{name} has {width}",
                bytes.len()
            ));
        }
        bytes.resize(width as usize, Some(0));
        for (k, b) in bytes.iter_mut().enumerate() {
            b.get_or_insert(filler(k));
        }
    }
    for (&(aspace, start), bytes) in m.memory.iter_mut() {
        if aspace == 0 {
            // In u128: memory may end at 2^64 (the last byte of the
            // address space), where a u64 end wraps to 0.
            let end = start as u128 + bytes.len() as u128;
            if start < min_addr {
                return Err(format!(
                    "memory at 0x{start:x} is below vm.mmap_min_addr (0x{min_addr:x})"
                ));
            }
            if end > PROGRAM_BASE as u128 {
                return Err(format!(
                    "memory at 0x{start:x} reaches the stub program (0x{PROGRAM_BASE:x})"
                ));
            }
        }
        for (k, b) in bytes.iter_mut().enumerate() {
            b.get_or_insert(filler(k));
        }
    }
    if let Some(e) = m.entry.as_mut() {
        for bytes in e.registers.values_mut().chain(e.memory.values_mut()) {
            for (k, b) in bytes.iter_mut().enumerate() {
                b.get_or_insert(filler(k));
            }
        }
    }
    Ok(m)
}

/// The pages the stub must map for the address-space-0 memory of `ctxs`,
/// as runs of (first address, length).
pub fn page_runs<'a>(ctxs: impl Iterator<Item = &'a ConcreteContext>) -> Vec<(u64, u64)> {
    let mut pages = BTreeSet::new();
    for c in ctxs {
        for (&(aspace, start), bytes) in &c.memory {
            if aspace != 0 {
                continue;
            }
            let end = start + bytes.len() as u64;
            let mut p = start / PAGE * PAGE;
            while p < end {
                pages.insert(p);
                p += PAGE;
            }
        }
    }
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for p in pages {
        match runs.last_mut() {
            Some((s, len)) if *s + *len == p => *len += PAGE,
            _ => runs.push((p, PAGE)),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_are_widened_and_undefined_bytes_filled() {
        let c = ConcreteContext::parse(
            r#"(context (register 3 "01 ??") (register 17 "ff") (memory 0 0x10000 "?? 02"))"#,
        )
        .unwrap();
        let m = machine_context(&c, 4096).unwrap();
        let r3 = &m.registers[&3];
        assert_eq!(r3.len(), 8);
        assert_eq!(r3[0], Some(1));
        assert_eq!(r3[1], Some(filler(1)));
        assert_eq!(r3[2..], [Some(0); 6]);
        assert_eq!(m.registers[&17].len(), 16);
        assert_eq!(m.memory[&(0, 0x10000)], vec![Some(filler(0)), Some(2)]);
    }

    #[test]
    fn what_the_stub_cannot_reproduce_is_refused() {
        let parse = |s: &str| ConcreteContext::parse(s).unwrap();
        let sp = parse(r#"(context (register 7 "00"))"#);
        assert!(machine_context(&sp, 4096)
            .unwrap_err()
            .contains("register 7"));
        let wide = parse(r#"(context (register 0 "00 00 00 00 00 00 00 00 00"))"#);
        assert!(machine_context(&wide, 4096)
            .unwrap_err()
            .contains("%rax has 8"));
        let low = parse(r#"(context (memory 0 0x40 "00"))"#);
        assert!(machine_context(&low, 4096)
            .unwrap_err()
            .contains("mmap_min_addr"));
        let other = parse(r#"(context (memory 5 0x40 "00"))"#);
        assert!(machine_context(&other, 4096).is_ok());
        // Memory that ends at the top of the address space (its end wraps
        // to 0 in 64 bits) is past the program, not before it.
        let top = parse(r#"(context (memory 0 0xfffffffffffffff8 "01 02 03 04 05 06 07 08"))"#);
        assert!(machine_context(&top, 4096)
            .unwrap_err()
            .contains("reaches the stub program"));
    }

    #[test]
    fn pages_are_merged_into_runs() {
        let c = ConcreteContext::parse(
            r#"(context (memory 0 0x10ffe "01 02 03") (memory 0 0x20000 "00") (memory 5 0x0 "00"))"#,
        )
        .unwrap();
        assert_eq!(
            page_runs([c].iter()),
            vec![(0x10000, 2 * PAGE), (0x20000, PAGE)]
        );
    }
}
