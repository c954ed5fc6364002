//! The targets the code generator is run on, and what each needs on this
//! machine: how the driver ends the program, what links it, what runs it
//! (the machine itself, or `qemu-aarch64` in user mode behind gdb's remote
//! protocol) and which gdb reads it, and the registers gdb dumps at a stop.

use std::process::Command;

/// A target `dioptra llvm` can compile for, run and debug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    X86_64,
    I686,
    /// 64-bit Arm: registers of their own DWARF numbering, narrow arguments
    /// in `w` registers, run under `qemu-aarch64`.
    AArch64,
}

impl Arch {
    /// The target of `triple`, or why the code generator is not run on it.
    pub fn of(triple: &str) -> Result<Arch, String> {
        match triple.split('-').next().unwrap_or("") {
            "x86_64" => Ok(Arch::X86_64),
            "i386" | "i486" | "i586" | "i686" => Ok(Arch::I686),
            "aarch64" => Ok(Arch::AArch64),
            _ => Err(format!(
                "the code generator is run on x86-64, i686 and aarch64 only, not `{triple}`"
            )),
        }
    }

    pub fn pointer_bits(self) -> u32 {
        match self {
            Arch::I686 => 32,
            Arch::X86_64 | Arch::AArch64 => 64,
        }
    }

    /// The general registers gdb dumps, by gdb's names, in DWARF register
    /// number order: the System V x86-64 psABI's 0 to 16 (`%rip` last),
    /// the i386 psABI's 0 to 8 (`%eip` last), and AArch64's `x0` to `x30`
    /// (0 to 30) and `sp` (31), with `pc` after them.
    pub fn registers(self) -> &'static [&'static str] {
        const X86_64: [&str; 17] = [
            "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11",
            "r12", "r13", "r14", "r15", "rip",
        ];
        const I386: [&str; 9] = [
            "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "eip",
        ];
        const AARCH64: [&str; 33] = [
            "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
            "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25",
            "x26", "x27", "x28", "x29", "x30", "sp", "pc",
        ];
        match self {
            Arch::X86_64 => &X86_64,
            Arch::I686 => &I386,
            Arch::AArch64 => &AARCH64,
        }
    }

    /// The DWARF numbers of the registers the integer and pointer
    /// arguments arrive in, in order: the System V x86-64 psABI's `%rdi`,
    /// `%rsi`, `%rdx`, `%rcx`, `%r8`, `%r9` (5, 4, 1, 2, 8, 9) and AAPCS64's
    /// `x0` to `x7`; none on i686, whose arguments are on the stack.
    pub fn argument_registers(self) -> &'static [u32] {
        match self {
            Arch::X86_64 => &[5, 4, 1, 2, 8, 9],
            Arch::I686 => &[],
            Arch::AArch64 => &[0, 1, 2, 3, 4, 5, 6, 7],
        }
    }

    /// The DWARF number of the stack pointer (`%esp` 4, `%rsp` 7, `sp` 31).
    pub fn stack_pointer(self) -> usize {
        match self {
            Arch::I686 => 4,
            Arch::X86_64 => 7,
            Arch::AArch64 => 31,
        }
    }

    /// The inline assembly (and its clobbers) that ends the program with
    /// the `exit` system call, status 0, as an LLVM `asm sideeffect`
    /// string.
    pub fn exit_asm(self) -> (&'static str, &'static str) {
        match self {
            Arch::X86_64 => (
                "movl $$60, %eax\\0Axorl %edi, %edi\\0Asyscall",
                "~{dirflag},~{fpsr},~{flags}",
            ),
            Arch::I686 => (
                "movl $$1, %eax\\0Axorl %ebx, %ebx\\0Aint $$0x80",
                "~{dirflag},~{fpsr},~{flags}",
            ),
            Arch::AArch64 => ("mov x8, #93\\0Amov x0, #0\\0Asvc #0", ""),
        }
    }

    /// The compiler driver that links (with its `libgcc`: i686 divides
    /// 64-bit values through it) and its target flags.
    pub fn linker(self) -> (&'static str, &'static [&'static str]) {
        match self {
            Arch::X86_64 => ("gcc", &[]),
            Arch::I686 => ("gcc", &["-m32"]),
            Arch::AArch64 => ("aarch64-linux-gnu-gcc", &[]),
        }
    }

    /// The user-mode emulator the program runs in, behind gdb's remote
    /// protocol, when this machine cannot run it itself.
    pub fn emulator(self) -> Option<&'static str> {
        match self {
            Arch::AArch64 => Some("qemu-aarch64"),
            Arch::X86_64 | Arch::I686 => None,
        }
    }

    /// The gdb that debugs the target.
    pub fn gdb(self) -> &'static str {
        match self {
            Arch::AArch64 => "gdb-multiarch",
            Arch::X86_64 | Arch::I686 => "gdb",
        }
    }

    /// The distribution's packages that give the linker, emulator and gdb.
    pub fn packages(self) -> &'static str {
        match self {
            Arch::X86_64 => "gcc gdb",
            Arch::I686 => "gcc-multilib gdb",
            Arch::AArch64 => "gcc-aarch64-linux-gnu qemu-user gdb-multiarch",
        }
    }

    /// Are the linker, emulator and gdb on this machine? The first that is
    /// missing, with the packages to install, when not.
    pub fn tools_present(self) -> Result<(), String> {
        let tools = [Some(self.linker().0), self.emulator(), Some(self.gdb())];
        for tool in tools.into_iter().flatten() {
            let found = Command::new(tool)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success());
            if !found {
                return Err(format!(
                    "no `{tool}` on this machine (apt-get install -y {})",
                    self.packages()
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_told_by_their_triple() {
        assert_eq!(Arch::of("x86_64-pc-linux-gnu"), Ok(Arch::X86_64));
        assert_eq!(Arch::of("i686-pc-linux-gnu"), Ok(Arch::I686));
        assert_eq!(Arch::of("aarch64-unknown-linux-gnu"), Ok(Arch::AArch64));
        assert!(Arch::of("riscv64-unknown-linux-gnu")
            .unwrap_err()
            .contains("riscv64"));
    }

    #[test]
    fn the_stack_pointer_is_among_the_registers_dumped() {
        for (arch, sp) in [
            (Arch::X86_64, "rsp"),
            (Arch::I686, "esp"),
            (Arch::AArch64, "sp"),
        ] {
            assert_eq!(arch.registers()[arch.stack_pointer()], sp);
        }
    }
}
