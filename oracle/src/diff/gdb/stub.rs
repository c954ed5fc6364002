//! The real program: an x86-64 assembly stub, built with the system
//! toolchain, that maps the cases' memory, then for each case copies the
//! case's memory bytes into place, loads its registers and stops at one
//! `int3` per program point, where gdb reads the variables.
//!
//! No libc: the stub is `_start` making two system calls (`mmap`, `exit`),
//! linked statically at [`PROGRAM_BASE`] so it never overlaps context
//! memory. A failed `mmap` exits with status [`MMAP_FAILED`].

use super::machine::{x86_register, PROGRAM_BASE};
use dioptra_semantics::context::ConcreteContext;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The stub's exit status when it cannot map a page of context memory.
pub const MMAP_FAILED: i32 = 97;

/// The built program.
pub struct Program {
    pub path: PathBuf,
    /// The stub's code: `[low, high)`.
    pub low: u64,
    pub high: u64,
    /// For each case, for each point, the pc gdb stops at (just after the
    /// point's `int3`).
    pub stops: Vec<Vec<u64>>,
}

fn bytes_directive(bytes: &[Option<u8>]) -> String {
    let list: Vec<String> = bytes
        .iter()
        .map(|b| format!("0x{:02x}", b.unwrap_or(0)))
        .collect();
    format!("    .byte {}\n", list.join(","))
}

/// The assembly of the stub for cases given as (machine state, number of
/// points), mapping the page runs `pages` first.
pub fn assembly(cases: &[(&ConcreteContext, usize)], pages: &[(u64, u64)]) -> String {
    // lldb reports no stop for an `int3` at the entry point itself (it
    // has just stopped there): the first instruction is a `nop`.
    let mut text = String::from("    .text\n    .globl _start\n_start:\n    nop\n");
    let mut data = String::from("    .data\n");
    for &(addr, len) in pages {
        // mmap(addr, len, PROT_READ|PROT_WRITE,
        //      MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE, -1, 0)
        let _ = write!(
            text,
            "    movl $9, %eax\n    movabsq $0x{addr:x}, %rdi\n    movabsq $0x{len:x}, %rsi\n    movl $3, %edx\n    movl $0x100022, %r10d\n    movq $-1, %r8\n    xorl %r9d, %r9d\n    syscall\n    movabsq $0x{addr:x}, %rdi\n    cmpq %rdi, %rax\n    jne dioptra_fail\n"
        );
    }
    for (k, (m, points)) in cases.iter().enumerate() {
        for (i, (&(aspace, start), bytes)) in m.memory.iter().enumerate() {
            if aspace != 0 {
                continue;
            }
            let _ = write!(
                text,
                "    movabsq $0x{start:x}, %rdi\n    leaq dioptra_m{k}_{i}(%rip), %rsi\n    movq ${}, %rcx\n    rep movsb\n",
                bytes.len()
            );
            let _ = write!(data, "dioptra_m{k}_{i}:\n{}", bytes_directive(bytes));
        }
        let mut gprs = BTreeMap::new();
        for (&n, bytes) in &m.registers {
            let Some((name, width)) = x86_register(n) else {
                continue;
            };
            if width == 16 {
                let _ = writeln!(text, "    movdqu dioptra_x{k}_{n}(%rip), %{name}");
                let _ = write!(
                    data,
                    "    .balign 16\ndioptra_x{k}_{n}:\n{}",
                    bytes_directive(bytes)
                );
            } else {
                let v = bytes
                    .iter()
                    .rev()
                    .fold(0u64, |v, b| (v << 8) | b.unwrap_or(0) as u64);
                gprs.insert(name, v);
            }
        }
        // The general registers last: the copies above use %rdi, %rsi, %rcx.
        for (name, v) in gprs {
            let _ = writeln!(text, "    movabsq $0x{v:x}, %{name}");
        }
        for p in 0..*points {
            let _ = write!(text, "dioptra_c{k}_p{p}:\n    int3\n");
        }
    }
    text += "    movl $60, %eax\n    xorl %edi, %edi\n    syscall\n";
    let _ = write!(
        text,
        "dioptra_fail:\n    movl $60, %eax\n    movl ${MMAP_FAILED}, %edi\n    syscall\ndioptra_end:\n"
    );
    text + &data
}

fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    if !out.status.success() {
        return Err(format!(
            "{:?} failed ({}): {}",
            cmd.get_program(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Assembles and links `asm` in `dir` and reads the points' addresses back
/// from the symbol table (`points[k]` points for case `k`).
pub fn build(dir: &Path, asm: &str, points: &[usize]) -> Result<Program, String> {
    let src = dir.join("stub.s");
    let path = dir.join("stub");
    std::fs::write(&src, asm).map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    run(Command::new("gcc")
        .args(["-nostdlib", "-static", "-no-pie"])
        .arg(format!("-Wl,-Ttext-segment=0x{PROGRAM_BASE:x}"))
        .arg("-o")
        .arg(&path)
        .arg(&src))?;
    let symbols = run(Command::new("nm").arg(&path))?;
    let mut at = BTreeMap::new();
    for line in symbols.lines() {
        let mut f = line.split_whitespace();
        if let (Some(a), Some(_), Some(name)) = (f.next(), f.next(), f.next()) {
            if let Ok(a) = u64::from_str_radix(a, 16) {
                at.insert(name.to_string(), a);
            }
        }
    }
    let sym = |name: &str| {
        at.get(name)
            .copied()
            .ok_or_else(|| format!("the stub has no symbol {name}"))
    };
    let mut stops = Vec::new();
    for (k, &n) in points.iter().enumerate() {
        let mut s = Vec::with_capacity(n);
        for p in 0..n {
            // `int3` is one byte; gdb reports the pc after it.
            s.push(sym(&format!("dioptra_c{k}_p{p}"))? + 1);
        }
        stops.push(s);
    }
    Ok(Program {
        low: sym("_start")?,
        high: sym("dioptra_end")?,
        path,
        stops,
    })
}

/// Adds the DWARF `sections` (name, bytes) to the program at `program`,
/// writing the result to `out`, without the points' labels.
///
/// The labels (`dioptra_cK_pP`, one per `int3`) served only to find the
/// stops' addresses, which [`build`] has read. Left in, each is a symbol gdb
/// takes for the function the stop is in, and a stop cost about 1.3 ms
/// instead of 0.3 ms in a program of 19 000 points (measured with gdb 13.1:
/// 30 s against 7 s for the same transcript).
pub fn attach(program: &Path, sections: &[(String, Vec<u8>)], out: &Path) -> Result<(), String> {
    let dir = out.parent().unwrap_or(Path::new("."));
    let mut cmd = Command::new("objcopy");
    cmd.args(["--wildcard", "--strip-symbol=dioptra_c*"]);
    for (name, bytes) in sections {
        let file = dir.join(format!("section{name}"));
        std::fs::write(&file, bytes)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        cmd.arg("--add-section")
            .arg(format!("{name}={}", file.display()));
    }
    run(cmd.arg(program).arg(out)).map(|_| ())
}
