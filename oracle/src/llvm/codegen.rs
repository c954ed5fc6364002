//! LLVM's code generator and a real debugger under test: the module a pass
//! wrote is compiled with `llc`, linked with a driver that calls its
//! functions on chosen inputs, and run under gdb, which steps through each
//! call an instruction at a time and prints every variable it can. Each
//! value gdb prints is compared with the value the *input* function gives
//! the variable on that input ([`super::execute`]): a difference is wrong
//! debug information a user would see.
//!
//! So a record is judged where it matters, in the machine state the target
//! really has: arguments where the ABI puts them, with the extension bits
//! the caller really wrote (x86-64 extends a `signext i8` to 32 bits and
//! leaves the rest of the register as it was).
//!
//! No libc: the driver is `_start`, calling the functions in turn and
//! ending with the `exit` system call, linked statically with `libgcc`
//! (i686 divides 64-bit values through it). Supported targets
//! ([`super::target::Arch`]): x86-64, i686 (which needs `gcc -m32`'s
//! libgcc, `gcc-multilib`) and aarch64, linked by the cross compiler and
//! run in `qemu-aarch64`, which gdb-multiarch debugs over a socket.

use super::execute::{run, Expected};
use super::readback::{self, DwarfReading, Program, Says, State};
use super::target::Arch;
use super::tools::{self, Tool};
use crate::ir::{Function, Module};
use dioptra_semantics::bits::Bits;
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The most instructions gdb steps through in one call.
const MAX_STEPS: usize = 256;

/// What compiling and running takes.
#[derive(Clone, Debug)]
pub struct Codegen {
    pub llc: Tool,
    /// gdb's version line.
    pub gdb: String,
    /// Sampled inputs per function (witnesses of wrong records come on
    /// top).
    pub inputs: usize,
    /// The most one gdb run may take.
    pub limit: Duration,
}

impl Codegen {
    /// `llc` of `version` (or the newest), and the linker, emulator and gdb
    /// `triple` needs, or why not.
    pub fn find(version: Option<u32>, inputs: usize, triple: &str) -> Result<Codegen, String> {
        let arch = Arch::of(triple)?;
        let llc = tools::find("llc", version)?;
        arch.tools_present()?;
        let gdb = crate::diff::gdb::session::gdb_version(arch.gdb())
            .ok_or_else(|| format!("`{}` does not say its version", arch.gdb()))?;
        Ok(Codegen {
            llc,
            gdb,
            inputs,
            limit: Duration::from_secs(120),
        })
    }
}

/// A call of a function on one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub function: String,
    /// One value per parameter, of its width.
    pub args: Vec<Bits>,
}

/// A parameter's type and attributes as the `define` line writes them
/// (`i8 signext`), without its name.
pub(super) fn param_decls(f: &Function) -> Vec<String> {
    let h = &f.header;
    let Some(open) = h.find(&format!("@{}(", f.name)) else {
        return Vec::new();
    };
    let rest = &h[open + f.name.len() + 2..];
    let close = rest.find(')').unwrap_or(rest.len());
    dioptra_semantics::text::split_top_level(&rest[..close])
        .into_iter()
        .map(|p| match p.rsplit_once(' ') {
            Some((ty, name)) if name.starts_with('%') => ty.trim().to_string(),
            _ => p.trim().to_string(),
        })
        .collect()
}

/// The return type of `f` (`void`, `i32`).
fn return_type(f: &Function) -> String {
    let h = f.header.trim_start_matches("define").trim();
    let before = h.split(&format!("@{}(", f.name)).next().unwrap_or("void");
    before
        .split_whitespace()
        .last()
        .unwrap_or("void")
        .to_string()
}

/// The driver module: `_start` calls each function of `calls` in turn, as
/// the input module `before` declares them, then exits with status 0.
pub fn driver(before: &Module, calls: &[Call], triple: &str) -> Result<String, String> {
    let arch = Arch::of(triple)?;
    let ptr_bits = arch.pointer_bits();
    let mut out = format!("target triple = \"{triple}\"\n\n");
    let mut declared = Vec::new();
    let mut body = String::new();
    for (k, c) in calls.iter().enumerate() {
        let f = before
            .functions
            .iter()
            .find(|f| f.name == c.function)
            .ok_or_else(|| format!("no function `{}` in the module", c.function))?;
        let decls = param_decls(f);
        if decls.len() != c.args.len() {
            return Err(format!(
                "`{}` takes {} arguments, the call gives {}",
                f.name,
                decls.len(),
                c.args.len()
            ));
        }
        let ret = return_type(f);
        let passed: Vec<Passed> = decls.iter().map(|d| Passed::of(d, arch)).collect();
        if !declared.contains(&f.name) {
            let types: Vec<String> = passed.iter().map(|p| p.decl.clone()).collect();
            let _ = writeln!(out, "declare {ret} @{}({})", f.name, types.join(", "));
            declared.push(f.name.clone());
        }
        let dirty = k % 2 == 1;
        let args: Vec<String> = passed
            .iter()
            .zip(&c.args)
            .enumerate()
            .map(|(j, (p, v))| {
                if p.decl.starts_with("ptr") {
                    format!("{} inttoptr (i{ptr_bits} {} to ptr)", p.decl, v.unsigned())
                } else {
                    let salt = crate::sample::splitmix64((k * 64 + j) as u64);
                    format!("{} {}", p.decl, p.value(v, dirty.then_some(salt)))
                }
            })
            .collect();
        let _ = writeln!(body, "  call {ret} @{}({})", f.name, args.join(", "));
    }
    let (exit, clobbers) = arch.exit_asm();
    let _ = write!(
        out,
        "\ndefine void @_start() {{\n{body}  call void asm sideeffect \"{exit}\", \"{clobbers}\"()\n  unreachable\n}}\n"
    );
    Ok(out)
}

/// How the driver passes one argument: as the callee declares it, or
/// (narrow integers) as the whole register or stack slot it arrives in.
///
/// DECISION (D-llvm-dirty-upper-bits): every other call passes the bits of
/// a narrow integer argument's register (x86-64, aarch64) or stack slot
/// (i686) that the ABI leaves unspecified as pseudo-random bits, the
/// driver declaring the callee with the whole register's type: a caller
/// may leave them so (one that computed the value in 32 bits, say), and a
/// location that reads them shows it. The bits the ABI does promise are
/// written as promised: a `signext`/`zeroext` `i1`, `i8` or `i16` extended
/// to 32 bits; a value without an attribute, its own bits only. The other
/// calls pass clean registers (the value zero- or sign-extended), as
/// LLVM's own caller writes them.
struct Passed {
    /// The type the driver declares and passes (`i64` for an `i8` on
    /// x86-64).
    decl: String,
    /// The argument's own width, and how many low bits the ABI promises.
    width: u64,
    promised: u64,
    signed: bool,
}

impl Passed {
    fn of(decl: &str, arch: Arch) -> Passed {
        let ty = decl.split_whitespace().next().unwrap_or("");
        let width = ty.strip_prefix('i').and_then(|w| w.parse::<u64>().ok());
        let slot = u64::from(arch.pointer_bits());
        let ext = decl.contains("signext") || decl.contains("zeroext");
        match width {
            Some(w) if w < slot => Passed {
                decl: format!("i{slot}"),
                width: w,
                promised: if ext { w.max(32) } else { w },
                signed: decl.contains("signext"),
            },
            _ => Passed {
                decl: decl.to_string(),
                width: width.unwrap_or(slot),
                promised: width.unwrap_or(slot),
                signed: false,
            },
        }
    }

    /// The argument `v` as passed: extended to the promised bits, then
    /// (with `dirt`) those bits of `dirt` above them, else the extension
    /// continued.
    fn value(&self, v: &Bits, dirt: Option<u64>) -> String {
        let slot = self
            .decl
            .strip_prefix('i')
            .and_then(|w| w.parse::<u64>().ok())
            .unwrap_or(self.width);
        if slot == self.width {
            return v.signed().to_string();
        }
        let dirt = dirt.filter(|_| self.promised < slot);
        let extend = |b: &Bits, to: u64| {
            if self.signed {
                b.sext(to)
            } else {
                b.zext(to)
            }
        };
        let low = extend(v, self.promised);
        let full = match dirt {
            Some(d) => {
                let above =
                    Bits::from_bigint(slot - self.promised, &BigInt::from(d >> self.promised));
                low.concat(&above)
            }
            None => extend(&low, slot),
        };
        full.signed().to_string()
    }
}

/// Runs `cmd`, its stdout to `out`, and fails with its stderr.
fn run_tool(cmd: Command, out: &Path, what: &str) -> Result<(), String> {
    let ran = tools::run(cmd, out, Duration::from_secs(120))?;
    let _ = std::fs::remove_file(out.with_extension("err"));
    if ran.success {
        Ok(())
    } else {
        Err(format!("{what} failed: {}", ran.stderr.trim()))
    }
}

/// `llc -O2 -filetype=obj input -o output`.
pub fn compile(llc: &Tool, input: &Path, output: &Path) -> Result<(), String> {
    let mut cmd = Command::new(&llc.path);
    cmd.args(["-O2", "-filetype=obj"])
        .arg(input)
        .arg("-o")
        .arg(output);
    run_tool(
        cmd,
        &output.with_extension("llc.out"),
        &format!("llc on {}", input.display()),
    )
}

/// The link command for `objects` into `program` (the function's object
/// first, so its addresses do not depend on the driver).
pub fn link_command(arch: Arch, objects: &[&Path], program: &Path) -> Command {
    let (gcc, flags) = arch.linker();
    let mut cmd = Command::new(gcc);
    cmd.args(["-nostdlib", "-static", "-no-pie"]).args(flags);
    cmd.arg("-o").arg(program).args(objects).arg("-lgcc");
    cmd
}

/// Compiles `after` (a module file) and `driver` (its text) in `dir` and
/// links the program; returns its path.
pub fn build(
    llc: &Tool,
    after: &Path,
    driver_text: &str,
    triple: &str,
    dir: &Path,
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let f_obj = dir.join("functions.o");
    compile(llc, after, &f_obj)?;
    let d_src = dir.join("driver.ll");
    std::fs::write(&d_src, driver_text)
        .map_err(|e| format!("cannot write {}: {e}", d_src.display()))?;
    let d_obj = dir.join("driver.o");
    compile(llc, &d_src, &d_obj)?;
    let program = dir.join("program");
    let arch = Arch::of(triple)?;
    run_tool(
        link_command(arch, &[&f_obj, &d_obj], &program),
        &dir.join("link.out"),
        &format!(
            "linking ({} -nostdlib -static; needs {})",
            arch.linker().0,
            arch.packages()
        ),
    )?;
    Ok(program)
}

/// What gdb showed of a variable at one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown {
    Value(BigInt),
    /// `<optimized out>`.
    Optimized,
    /// Reading it raised this error.
    Error(String),
}

/// One variable read at one instruction of one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    pub call: usize,
    pub pc: u64,
    pub variable: String,
    pub shown: Shown,
}

/// The gdb script: breaks on entry to each called function, steps through
/// the call with `nexti` (over any libgcc call) and reads every variable
/// of the scope at each instruction. An emulated program is reached
/// through the emulator's socket `gdb.sock` (waited for up to 5 s) instead
/// of being run by gdb.
fn script(functions: &[String], out: &Path, arch: Arch) -> String {
    let list: Vec<String> = functions.iter().map(|f| format!("{f:?}")).collect();
    let regs: Vec<String> = arch.registers().iter().map(|r| format!("{r:?}")).collect();
    let sp = arch.registers()[arch.stack_pointer()];
    let mask = if arch.pointer_bits() == 32 {
        "0xffffffff"
    } else {
        "0xffffffffffffffff"
    };
    let start = if arch.emulator().is_some() {
        r#"import os, time
    for _ in range(500):
        if os.path.exists(SOCKET):
            break
        time.sleep(0.01)
    gdb.execute("target remote " + SOCKET, to_string=True)
    gdb.execute("continue", to_string=True)"#
    } else {
        r#"gdb.execute("run", to_string=True)"#
    };
    format!(
        r#"import gdb
FUNCTIONS = [{}]
OUT = {out:?}
REGS = [{}]
for c in ("set confirm off", "set pagination off", "set may-call-functions off", "set width 0"):
    gdb.execute(c)
for f in FUNCTIONS:
    gdb.execute("break *" + f, to_string=True)
status = []
gdb.events.exited.connect(lambda ev: status.append(getattr(ev, "exit_code", -1)))
def frame():
    try:
        return gdb.selected_frame() if gdb.selected_inferior().pid else None
    except gdb.error:
        return None
def state(out, call, fr):
    regs = ",".join("%x" % (int(fr.read_register(r)) & {mask}) for r in REGS)
    start = (int(fr.read_register("{sp}")) - {below}) & {mask}
    try:
        mem = gdb.selected_inferior().read_memory(start, {bytes}).tobytes().hex()
    except gdb.error:
        mem = "-"
    out.write("state %d %x %s %x %s\n" % (call, fr.pc(), regs, start, mem))
def read(out, call, fr):
    try:
        b = fr.block()
    except RuntimeError:
        return
    state(out, call, fr)
    while b is not None:
        for s in b:
            if not (s.is_variable or s.is_argument):
                continue
            try:
                v = fr.read_var(s)
                if v.is_optimized_out:
                    shown = "--"
                elif v.type.sizeof <= 8:
                    shown = "%d" % int(v)
                else:
                    # gdb 13's int() stops at 8 bytes; its printer does not.
                    shown = v.format_string(format="d")
            except Exception as err:
                shown = "! " + str(err).replace("\n", " ")
            out.write("%d %x %s %s\n" % (call, fr.pc(), s.name, shown))
        if b.function is not None:
            break
        b = b.superblock
SOCKET = "gdb.sock"
with open(OUT, "w") as out:
    {start}
    call = -1
    fr = frame()
    while fr is not None:
        name = fr.name()
        if name in FUNCTIONS:
            call += 1
            out.write("call %d %s\n" % (call, name))
            steps = 0
            while fr is not None and fr.name() == name and steps < {MAX_STEPS}:
                read(out, call, fr)
                gdb.execute("nexti", to_string=True)
                steps += 1
                fr = frame()
        if fr is not None:
            gdb.execute("continue", to_string=True)
            fr = frame()
    out.write("exit %s\n" % (status[0] if status else "none"))
"#,
        list.join(", "),
        regs.join(", "),
        below = readback::STACK_BELOW,
        bytes = readback::STACK_BYTES,
    )
}

/// What the gdb script wrote.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    pub readings: Vec<Reading>,
    /// Per call, the function gdb stopped in.
    pub calls: Vec<String>,
    /// The machine state at each stop, by (call, pc); the first of a call
    /// is at its entry.
    pub states: HashMap<(usize, u64), State>,
    /// Per call, the pc of its first stop.
    pub entries: HashMap<usize, u64>,
    /// The program's exit status, if it exited.
    pub exit: Option<i64>,
}

/// Parses what the script wrote.
fn parse(text: &str) -> Result<Transcript, String> {
    let mut t = Transcript::default();
    let (readings, calls, exit) = (&mut t.readings, &mut t.calls, &mut t.exit);
    for line in text.lines() {
        let bad = || format!("gdb transcript: bad line `{line}`");
        if let Some(rest) = line.strip_prefix("state ") {
            let w: Vec<&str> = rest.split(' ').collect();
            let [call, pc, regs, start, bytes] = w.as_slice() else {
                return Err(bad());
            };
            let call: usize = call.parse().map_err(|_| bad())?;
            let pc = u64::from_str_radix(pc, 16).map_err(|_| bad())?;
            let st = readback::parse_state(regs, start, bytes).ok_or_else(bad)?;
            t.entries.entry(call).or_insert(pc);
            t.states.entry((call, pc)).or_insert(st);
            continue;
        }
        let mut f = line.splitn(4, ' ');
        match (f.next(), f.next(), f.next(), f.next()) {
            (Some("exit"), Some(code), None, None) => *exit = code.parse().ok(),
            (Some("call"), Some(_), Some(name), None) => calls.push(name.to_string()),
            (Some(call), Some(pc), Some(var), Some(shown)) => readings.push(Reading {
                call: call.parse().map_err(|_| bad())?,
                pc: u64::from_str_radix(pc, 16).map_err(|_| bad())?,
                variable: var.to_string(),
                shown: match shown {
                    "--" => Shown::Optimized,
                    s if s.starts_with("! ") => Shown::Error(s[2..].to_string()),
                    s => Shown::Value(s.parse().map_err(|_| bad())?),
                },
            }),
            _ => return Err(bad()),
        }
    }
    Ok(t)
}

/// Runs gdb on `program` (whose calls are of `functions`, in order, for
/// `triple`), killed after `limit`. An emulated target's program runs in
/// its emulator, started first in `dir` and waiting on `gdb.sock`; it is
/// killed when gdb ends, whatever gdb did.
pub fn run_gdb(
    program: &Path,
    functions: &[String],
    triple: &str,
    dir: &Path,
    limit: Duration,
) -> Result<Transcript, String> {
    let out = dir.join("gdb.readings");
    let py = dir.join("step.py");
    let mut names: Vec<String> = functions.to_vec();
    names.sort();
    names.dedup();
    let arch = Arch::of(triple)?;
    std::fs::write(&py, script(&names, &out, arch))
        .map_err(|e| format!("cannot write {}: {e}", py.display()))?;
    let mut cmd = Command::new("sh");
    // No core files: neither gdb's nor (with `ulimit`) the emulator's of a
    // crashing guest.
    match arch.emulator() {
        None => cmd.args(["-c", "ulimit -c 0; exec gdb \"$@\"", "gdb"]),
        Some(emulator) => {
            let _ = std::fs::remove_file(dir.join("gdb.sock"));
            cmd.args([
                "-c",
                "ulimit -c 0; \"$0\" -g gdb.sock \"$1\" & q=$!; shift; \"$@\"; s=$?; kill $q 2>/dev/null; exit $s",
                emulator,
            ])
            .arg(program)
            .arg(arch.gdb())
        }
    };
    cmd.args(["-nx", "-batch", "-x"])
        .arg(&py)
        .arg(program)
        .current_dir(dir);
    let ran = tools::run(cmd, &dir.join("gdb.stdout"), limit)
        .map_err(|e| format!("Llvm: gdb-failed: {e}"))?;
    let text = std::fs::read_to_string(&out).map_err(|e| {
        format!(
            "Llvm: gdb-failed: gdb wrote no readings ({e}); stderr: {}",
            ran.stderr.trim()
        )
    })?;
    let t = parse(&text)?;
    if t.exit != Some(0) {
        let stdout = std::fs::read_to_string(dir.join("gdb.stdout")).unwrap_or_default();
        let signal = stdout
            .lines()
            .find(|l| l.contains("received signal"))
            .unwrap_or("")
            .trim();
        return Err(format!(
            "Llvm: gdb-failed: the program did not exit 0 under gdb ({:?}) {signal}; stderr: {}",
            t.exit,
            ran.stderr.trim()
        ));
    }
    if t.calls != functions {
        return Err(format!(
            "Llvm: gdb-failed: gdb stopped in {} calls, the driver makes {}",
            t.calls.len(),
            functions.len()
        ));
    }
    Ok(t)
}

/// A value gdb showed that is not the variable's, or an error gdb raised
/// reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub call: Call,
    pub pc: u64,
    /// What gdb printed (in hex, as the variable's storage reads it), or
    /// the error it raised.
    pub shown: String,
    /// The value the input function gives (hex).
    pub expected: String,
    /// The values the input or the output function computed on this call
    /// that read as what gdb printed (`%v5`): the location names a place
    /// that holds another value.
    pub other_values: Vec<String>,
    /// The variable's DWARF at the pc, evaluated by dioptra in the machine
    /// state gdb stopped in, when the program's DWARF was read.
    pub dwarf: Option<DwarfReading>,
    /// Does dioptra's evaluation of that DWARF give the expected value?
    pub dwarf_right: Option<bool>,
    /// How many low bits of the value the output's record names the output
    /// function reads, where that is fewer than it has but some
    /// ([`super::demanded`]).
    pub demanded: Option<u64>,
    /// The register the DWARF reads, and what it held at the stop.
    pub register: Option<RegisterSeen>,
    /// Each further register it reads (once each, in order), and what it
    /// held: the first tells most readings apart, but a location list can
    /// name a second register too early as well as the first.
    pub later_registers: Vec<RegisterSeen>,
    /// The stack pointer is not where the function's body has it (the
    /// stop is in the prologue, before its pushes, or in the epilogue).
    pub stack_pointer_moved: bool,
    /// The DWARF reads one register twice, for operands of the variable's
    /// records that had different values on this call: one of them is
    /// not in that register.
    pub shared_register: bool,
}

/// What the register a variable's DWARF reads held where gdb stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegisterSeen {
    /// Its DWARF number.
    pub number: u32,
    /// It held the value of an operand of the variable's records in the
    /// output (in that operand's low bits).
    pub holds_operand: bool,
    /// It held what it held at the function's entry.
    pub unchanged_since_entry: bool,
    /// The other values of the functions (`%v5`, `after:%v5`) it held, in
    /// their low bits, when not an operand's.
    pub holds: Vec<String>,
    /// Its contents (hex).
    pub contents: String,
}

/// What gdb showed of one variable over all calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// Values read that could be compared (the expected value not
    /// poison).
    pub compared: usize,
    pub agreed: usize,
    /// `<optimized out>` readings.
    pub optimized: usize,
    /// The first value that differed.
    pub differ: Option<Difference>,
    /// The calls on which a value differed.
    pub calls_differing: usize,
    /// The readings that differed, and of those the ones where gdb's value,
    /// or the register the DWARF reads, was another value the functions
    /// computed on that call (`Difference::other_values`,
    /// `RegisterSeen::holds`).
    pub readings_differing: usize,
    pub readings_as_other: usize,
    /// Differing readings where the register the DWARF reads held the
    /// record's operand (the register is right; the expression on it is
    /// what is wrong).
    pub readings_register_right: usize,
    /// The first error gdb raised reading it.
    pub error: Option<Difference>,
}

/// `value` cut or zero-extended to `bits`, as a debugger reads a variable
/// of that storage.
fn storage(value: &Bits, bits: u64) -> Bits {
    if value.width() >= bits {
        Bits::from_bigint(bits, &value.unsigned_int())
    } else {
        value.zext(bits)
    }
}

/// A variable's storage: its width, or a byte for an `i1` (DWARF's
/// boolean is a byte).
fn storage_bits(e: &Expected) -> u64 {
    e.bits.max(8)
}

/// What the runs of the functions on one call give.
struct CallValues {
    /// The input function's records.
    records: BTreeMap<String, Expected>,
    /// Every value of the input and the output function (the output's as
    /// `after:%v5`).
    values: Vec<(String, Expected)>,
}

fn call_values(before: &Module, after: Option<&Module>, c: &Call, pointer_bits: u32) -> CallValues {
    let run_of = |m: &Module| {
        m.functions
            .iter()
            .find(|f| f.name == c.function)
            .map(|f| run(m, f, &c.args, pointer_bits))
            .unwrap_or_default()
    };
    let b = run_of(before);
    let mut values: Vec<(String, Expected)> = b.values.into_iter().collect();
    if let Some(a) = after {
        values.extend(
            run_of(a)
                .values
                .into_iter()
                .map(|(k, v)| (format!("after:{k}"), v)),
        );
    }
    CallValues {
        records: b.records,
        values,
    }
}

/// The `%value` operands of `function`'s records of `variable` in `m`,
/// with their widths and whether the record's expression is empty.
fn variable_operands(
    m: &Module,
    function: &str,
    variable: &str,
    pointer_bits: u32,
) -> Vec<(String, u64, bool)> {
    let Some(f) = m.functions.iter().find(|f| f.name == function) else {
        return Vec::new();
    };
    let layout = super::execute::layout(pointer_bits);
    let mut out = Vec::new();
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        let crate::ir::InstKind::Record(r) = &i.kind else {
            continue;
        };
        let named = r
            .variable
            .as_ref()
            .and_then(|v| m.resolve(v))
            .and_then(|n| n.string("name"));
        if named != Some(variable) {
            continue;
        }
        // No operations, or only zero extensions (`DW_OP_LLVM_convert, N,
        // DW_ATE_unsigned` pairs and DW_OP_stack_value): the variable's low
        // bits are the value's.
        let empty = match &r.expr {
            Some(crate::ir::Md::Node(n)) => only_zero_extensions(&n.text),
            _ => true,
        };
        for o in r.operands.iter().filter(|o| o.value.starts_with('%')) {
            if let Ok(ty) = dioptra_semantics::text::parse_type(&o.opaque_type()) {
                out.push((
                    o.value.clone(),
                    layout.bitsizeof(&ty),
                    empty && r.operands.len() == 1,
                ));
            }
        }
    }
    out
}

/// Is `!DIExpression(...)` empty, or only unsigned conversions and
/// DW_OP_stack_value?
pub(crate) fn only_zero_extensions(expr: &str) -> bool {
    let words: Vec<&str> = expr
        .trim()
        .trim_start_matches("!DIExpression(")
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    let mut k = 0;
    while k < words.len() {
        match words[k] {
            "DW_OP_stack_value" if k + 1 == words.len() => k += 1,
            "DW_OP_LLVM_convert"
                if words.get(k + 2) == Some(&"DW_ATE_unsigned")
                    && words.get(k + 1).is_some_and(|w| w.parse::<u64>().is_ok()) =>
            {
                k += 3
            }
            _ => return false,
        }
    }
    true
}

/// The low bits the output function reads of the value its record of
/// `variable` names (an empty expression on one `%value` of `bits` bits),
/// where fewer than all but some.
fn record_demand(
    after: &Module,
    function: &str,
    variable: &str,
    bits: u64,
    pointer_bits: u32,
) -> Option<u64> {
    let f = after.functions.iter().find(|f| f.name == function)?;
    let layout = super::execute::layout(pointer_bits);
    variable_operands(after, function, variable, pointer_bits)
        .into_iter()
        .filter(|(_, _, empty)| *empty)
        .map(|(v, _, _)| super::demanded::demanded_low_bits(f, &v, bits, &layout))
        .max()
        .filter(|&k| k > 0 && k < bits)
}

/// What the register `number` held at stop `state` of call `values`,
/// against the operands of the variable's records in the output.
fn register_seen(
    number: u32,
    state: &State,
    entry: Option<&State>,
    values: &CallValues,
    operands: &[(String, u64, bool)],
) -> Option<RegisterSeen> {
    let content = *state.registers.get(number as usize)?;
    let reads = |name: &str, bits: u64| {
        values
            .values
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, e)| e.value.clone())
            .is_some_and(|v| storage(&Bits::from_u64(64, content), bits) == v)
    };
    let holds_operand = operands
        .iter()
        .any(|(name, bits, _)| reads(&format!("after:{name}"), *bits) || reads(name, *bits));
    let holds = if holds_operand {
        Vec::new()
    } else {
        values
            .values
            .iter()
            .filter(|(_, e)| {
                e.value
                    .as_ref()
                    .is_some_and(|v| storage(&Bits::from_u64(64, content), e.bits) == *v)
            })
            .map(|(n, _)| n.clone())
            .collect()
    };
    Some(RegisterSeen {
        number,
        holds_operand,
        unchanged_since_entry: entry
            .and_then(|e| e.registers.get(number as usize))
            .is_some_and(|&e| e == content),
        holds,
        contents: format!("0x{content:x}"),
    })
}

/// Compares every reading with the input function's values on its call:
/// what gdb showed, by (function, variable). Where gdb shows a variable
/// wrong and `program` is given, its DWARF is evaluated in the machine
/// state of that stop.
///
/// DECISION (D-llvm-dwarf-judges): where gdb shows a variable other than
/// the input function's value, dioptra's own evaluation of the variable's
/// DWARF at that pc, in the registers and stack gdb stopped with, decides
/// whose error it is: a wrong value (or none) there is the code
/// generator's (or, where the output's record is already wrong in the IR,
/// opt's); the right value there is the debugger's. DWARF 5 is the
/// arbiter, as dioptra reads it, not gdb's reading of it.
pub fn compare(
    before: &Module,
    after: Option<&Module>,
    calls: &[Call],
    t: &Transcript,
    program: Option<&Program>,
    arch: Arch,
) -> BTreeMap<(String, String), Seen> {
    let pointer_bits = arch.pointer_bits();
    let runs: Vec<CallValues> = calls
        .iter()
        .map(|c| call_values(before, after, c, pointer_bits))
        .collect();
    // The DWARF at a stop, evaluated in its machine state.
    let dwarf_at = |call: usize, pc: u64, variable: &str, want: Option<&Bits>| {
        let (p, state) = (program?, t.states.get(&(call, pc))?);
        let entry = t.entries.get(&call).and_then(|e| t.states.get(&(call, *e)));
        let ctx = readback::context(state, entry, pointer_bits);
        let reading = readback::read_at(p, &calls[call].function, variable, pc, &ctx)?;
        let right = match (&reading.says, want) {
            (Says::Value(v), Some(w)) => Some(storage(v, w.width()) == *w),
            _ => None,
        };
        Some((reading, right))
    };
    let mut out: BTreeMap<(String, String), Seen> = BTreeMap::new();
    // The (call, variable) pairs already counted as differing.
    let mut differing: HashSet<(usize, &String)> = HashSet::new();
    for r in &t.readings {
        let Some(call) = calls.get(r.call) else {
            continue;
        };
        let seen = out
            .entry((call.function.clone(), r.variable.clone()))
            .or_default();
        let expected = runs[r.call].records.get(&r.variable);
        let want = expected.and_then(|e| Some(storage(e.value.as_ref()?, storage_bits(e))));
        let difference = |shown: String, others: Vec<String>| {
            let (dwarf, dwarf_right) = match dwarf_at(r.call, r.pc, &r.variable, want.as_ref()) {
                Some((d, right)) => (Some(d), right),
                None => (None, None),
            };
            let state = t.states.get(&(r.call, r.pc));
            let entry = t
                .entries
                .get(&r.call)
                .and_then(|e| t.states.get(&(r.call, *e)));
            // The register the first operation names, then every other
            // register read, once each.
            let first = dwarf.as_ref().and_then(|d| readback::register_read(&d.ops));
            let mut once: HashSet<u32> = first.into_iter().collect();
            let later: Vec<u32> = dwarf.as_ref().map_or_else(Vec::new, |d| {
                let mut all = readback::registers_read(&d.ops);
                all.retain(|n| once.insert(*n));
                all
            });
            let operands = match (after, &state) {
                (Some(a), Some(_)) if first.is_some() || !later.is_empty() => {
                    variable_operands(a, &call.function, &r.variable, pointer_bits)
                }
                _ => Vec::new(),
            };
            let seen_register = |n: u32| register_seen(n, state?, entry, &runs[r.call], &operands);
            let register = first.and_then(seen_register);
            let later_registers: Vec<RegisterSeen> =
                later.into_iter().filter_map(seen_register).collect();
            let shared_register = dwarf.as_ref().is_some_and(|d| {
                let regs = readback::registers_read(&d.ops);
                let repeated = regs.iter().enumerate().any(|(k, r)| regs[..k].contains(r));
                let operands = after.map_or_else(Vec::new, |a| {
                    variable_operands(a, &call.function, &r.variable, pointer_bits)
                });
                let mut values: Vec<&Bits> = operands
                    .iter()
                    .filter_map(|(name, _, _)| {
                        let key = format!("after:{name}");
                        runs[r.call]
                            .values
                            .iter()
                            .find(|(n, _)| *n == key)
                            .and_then(|(_, e)| e.value.as_ref())
                    })
                    .collect();
                values.sort_by_key(|b| b.unsigned_int());
                values.dedup();
                repeated && values.len() >= 2
            });
            let sp = arch.stack_pointer();
            let lowest_sp = t
                .states
                .iter()
                .filter(|((c, _), _)| *c == r.call)
                .filter_map(|(_, s)| s.registers.get(sp).copied())
                .min();
            let stack_pointer_moved = state
                .and_then(|s| s.registers.get(sp).copied())
                .zip(lowest_sp)
                .is_some_and(|(here, low)| here != low);
            Difference {
                call: call.clone(),
                pc: r.pc,
                shown,
                expected: want
                    .as_ref()
                    .map_or("poison".into(), |w| format!("0x{}", w.hex())),
                other_values: others,
                dwarf,
                dwarf_right,
                demanded: None,
                register,
                later_registers,
                stack_pointer_moved,
                shared_register,
            }
        };
        match &r.shown {
            Shown::Optimized => seen.optimized += 1,
            // An error reading a poison value is no wrong answer (a
            // division by zero, say).
            Shown::Error(e) => {
                let poison = expected.is_some_and(|x| x.value.is_none());
                if !poison && seen.error.is_none() {
                    seen.error = Some(difference(e.clone(), Vec::new()));
                }
            }
            Shown::Value(v) => {
                let (Some(e), Some(want)) = (expected, &want) else {
                    continue;
                };
                let bits = storage_bits(e);
                let shown = Bits::from_bigint(bits, v);
                seen.compared += 1;
                if shown == *want {
                    seen.agreed += 1;
                    continue;
                }
                let others: Vec<String> = runs[r.call]
                    .values
                    .iter()
                    .filter(|(_, o)| o.value.as_ref().is_some_and(|o| storage(o, bits) == shown))
                    .map(|(name, _)| name.clone())
                    .collect();
                let mut d = difference(format!("0x{}", shown.hex()), others.clone());
                let mut others = others;
                if let Some(reg) = &d.register {
                    others.extend(reg.holds.iter().cloned());
                }
                if differing.insert((r.call, &r.variable)) {
                    seen.calls_differing += 1;
                }
                seen.readings_differing += 1;
                if !others.is_empty() || d.shared_register {
                    seen.readings_as_other += 1;
                }
                if d.register.as_ref().is_some_and(|r| r.holds_operand) && !d.shared_register {
                    seen.readings_register_right += 1;
                }
                if seen.differ.is_none() {
                    d.demanded = after.and_then(|a| {
                        record_demand(a, &call.function, &r.variable, e.bits, pointer_bits)
                    });
                    seen.differ = Some(d);
                }
            }
        }
    }
    out
}

/// Inputs for `f`'s parameters: first the edge values (the sign bit, all
/// ones, the largest positive, one, zero), then pseudo-random ones from
/// `seed`; `n` in all.
pub fn sample_inputs(f: &Function, pointer_bits: u32, seed: u64, n: usize) -> Vec<Vec<Bits>> {
    let layout = super::execute::layout(pointer_bits);
    let widths: Vec<u64> = super::validate::params(f)
        .iter()
        .map(|(_, t)| {
            dioptra_semantics::text::parse_type(t)
                .map(|ty| layout.bitsizeof(&ty))
                .unwrap_or(64)
        })
        .collect();
    let mut state = seed;
    (0..n)
        .map(|k| {
            widths
                .iter()
                .map(|&w| {
                    let one = BigInt::from(1);
                    let v: BigInt = match k {
                        0 => one << (w - 1),
                        1 => BigInt::from(-1),
                        2 => (one << (w - 1)) - 1,
                        3 => one,
                        4 => BigInt::from(0),
                        _ => {
                            state = crate::sample::splitmix64(state);
                            BigInt::from(state)
                        }
                    };
                    Bits::from_bigint(w, &v)
                })
                .collect()
        })
        .collect()
}

/// The input a witness line names (`witness pointers = 64, high = sign,
/// %x0 = 0xff, %x1 = 0x1`), in `f`'s parameter order, if it names them
/// all.
pub fn witness_input(f: &Function, witness: &str, pointer_bits: u32) -> Option<Vec<Bits>> {
    let layout = super::execute::layout(pointer_bits);
    let given: BTreeMap<&str, &str> = witness
        .trim_start_matches("witness ")
        .split(", ")
        .filter_map(|kv| kv.split_once(" = "))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect();
    super::validate::params(f)
        .iter()
        .map(|(name, t)| {
            let w = layout.bitsizeof(&dioptra_semantics::text::parse_type(t).ok()?);
            let text = given.get(name.as_str())?;
            let v = match text.strip_prefix("0x") {
                Some(h) => BigInt::parse_bytes(h.as_bytes(), 16)?,
                None => text.parse().ok()?,
            };
            Some(Bits::from_bigint(w, &v))
        })
        .collect()
}

/// What one module's run under gdb found.
#[derive(Debug)]
pub struct Outcome {
    pub seen: BTreeMap<(String, String), Seen>,
    /// Each variable's DWARF at its function's entry, judged for every
    /// input ([`super::entry`]).
    pub entry: BTreeMap<(String, String), super::entry::AtEntry>,
    pub calls: usize,
    pub readings: usize,
    pub time: Phases,
}

/// Where a run's time went, phase by phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct Phases {
    /// `llc` of the module and the driver, and the link.
    pub build: Duration,
    /// gdb (and the emulator) running the program.
    pub gdb: Duration,
    /// Reading the output module and the program's DWARF back, comparing
    /// gdb's readings with it, and proving each variable's DWARF at the
    /// entry against its record.
    pub compare: Duration,
}

impl Phases {
    pub fn total(&self) -> Duration {
        self.build + self.gdb + self.compare
    }
}

impl std::ops::AddAssign for Phases {
    fn add_assign(&mut self, o: Phases) {
        self.build += o.build;
        self.gdb += o.gdb;
        self.compare += o.compare;
    }
}

/// An error of compiling or running, with the `Llvm: run-failed:` prefix
/// unless it already has its own (`Llvm: gdb-failed:`).
fn run_failed(e: String) -> String {
    if e.starts_with("Llvm: ") {
        e
    } else {
        format!("Llvm: run-failed: {e}")
    }
}

/// What [`check`] needs of the record comparison at each entry
/// ([`super::entry`]): the solver's limit per query, and the verdicts
/// already reached, by rule.
pub struct EntryCheck<'c> {
    pub timeout_ms: u32,
    pub cache: &'c mut HashMap<String, super::Verdict>,
}

/// Compiles the module at `after`, calls each function of `before` on
/// `calls`, runs it all under gdb in `dir` and compares; checks each
/// variable's DWARF at its function's entry against its record.
#[allow(clippy::too_many_arguments)]
pub fn check(
    cg: &Codegen,
    before: &Module,
    after: &Path,
    calls: &[Call],
    triple: &str,
    dir: &Path,
    entry: EntryCheck<'_>,
) -> Result<Outcome, String> {
    check_run(cg, before, after, calls, triple, dir, entry).map_err(run_failed)
}

#[allow(clippy::too_many_arguments)]
fn check_run(
    cg: &Codegen,
    before: &Module,
    after: &Path,
    calls: &[Call],
    triple: &str,
    dir: &Path,
    entry: EntryCheck<'_>,
) -> Result<Outcome, String> {
    let started = Instant::now();
    let arch = Arch::of(triple)?;
    let text = driver(before, calls, triple)?;
    let program = build(&cg.llc, after, &text, triple, dir)?;
    let built = Instant::now();
    let functions: Vec<String> = calls.iter().map(|c| c.function.clone()).collect();
    let t = run_gdb(&program, &functions, triple, dir, cg.limit)?;
    let ran = Instant::now();
    let (after_module, dwarf) = read_output(after, &program)?;
    let seen = compare(before, Some(&after_module), calls, &t, Some(&dwarf), arch);
    let entry = super::entry::check(before, &dwarf, arch, entry.timeout_ms, entry.cache);
    Ok(Outcome {
        seen,
        entry,
        calls: calls.len(),
        readings: t.readings.len(),
        time: Phases {
            build: built - started,
            gdb: ran - built,
            compare: ran.elapsed(),
        },
    })
}

/// The output module at `after` and the DWARF of the program compiled
/// from it.
fn read_output(after: &Path, program: &Path) -> Result<(Module, Program), String> {
    let text = std::fs::read_to_string(after)
        .map_err(|e| format!("cannot read {}: {e}", after.display()))?;
    let module = crate::ir::parse(&text).map_err(|d| format!("Llvm: unreadable: {d}"))?;
    let dwarf = Program::read(program).map_err(|e| format!("Llvm: unreadable-dwarf: {e}"))?;
    Ok((module, dwarf))
}

/// A wrong value reproduced under gdb, with the files that show it.
#[derive(Debug)]
pub struct Reproduced {
    pub difference: Difference,
    /// The shell commands that rebuild the program and rerun gdb, in
    /// `dir`.
    pub commands: Vec<String>,
    /// What gdb printed running `gdb.cmd`.
    pub transcript: String,
}

/// Rebuilds, in `dir`, a program calling `function` of `before` (compiled
/// from `after`) on each of `candidates`, finds the first instruction where
/// gdb shows `variable` wrong, and writes the evidence: `after.s` (llc's
/// assembly), `dwarfdump.txt` (the function's DIE and its variables), `driver.ll` and
/// `program` calling the function on that one input, `gdb.cmd` (break at
/// that instruction, print the variable) and `gdb.txt` (its transcript).
/// `None` when gdb shows it right on every candidate.
#[allow(clippy::too_many_arguments)]
pub fn reproduce(
    cg: &Codegen,
    before: &Module,
    after: &Path,
    function: &str,
    variable: &str,
    candidates: &[Vec<Bits>],
    triple: &str,
    dir: &Path,
) -> Result<Option<Reproduced>, String> {
    reproduce_run(
        cg, before, after, function, variable, candidates, triple, dir,
    )
    .map_err(run_failed)
}

#[allow(clippy::too_many_arguments)]
fn reproduce_run(
    cg: &Codegen,
    before: &Module,
    after: &Path,
    function: &str,
    variable: &str,
    candidates: &[Vec<Bits>],
    triple: &str,
    dir: &Path,
) -> Result<Option<Reproduced>, String> {
    let arch = Arch::of(triple)?;
    let pointer_bits = arch.pointer_bits();
    // An input on which the input function has undefined behaviour may
    // trap: not one to show.
    let defined = |args: &&Vec<Bits>| {
        before
            .functions
            .iter()
            .find(|f| f.name == function)
            .is_some_and(|f| run(before, f, args, pointer_bits).undefined.is_none())
    };
    let calls: Vec<Call> = candidates
        .iter()
        .filter(defined)
        .map(|args| Call {
            function: function.to_string(),
            args: args.clone(),
        })
        .collect();
    let probe = dir.join("probe");
    let program = build(
        &cg.llc,
        after,
        &driver(before, &calls, triple)?,
        triple,
        &probe,
    )?;
    let names: Vec<String> = calls.iter().map(|c| c.function.clone()).collect();
    let t = run_gdb(&program, &names, triple, &probe, cg.limit)?;
    let (after_module, dwarf) = read_output(after, &program)?;
    let seen = compare(before, Some(&after_module), &calls, &t, Some(&dwarf), arch);
    let Some(d) = seen
        .get(&(function.to_string(), variable.to_string()))
        .and_then(|s| s.differ.clone().or_else(|| s.error.clone()))
    else {
        return Ok(None);
    };
    // The program of the one input: the functions' object first, so the
    // instruction's address is the probe's.
    let f_obj = dir.join("functions.o");
    std::fs::copy(probe.join("functions.o"), &f_obj)
        .map_err(|e| format!("cannot write {}: {e}", f_obj.display()))?;
    let d_src = dir.join("driver.ll");
    std::fs::write(
        &d_src,
        driver(before, std::slice::from_ref(&d.call), triple)?,
    )
    .map_err(|e| format!("cannot write {}: {e}", d_src.display()))?;
    let d_obj = dir.join("driver.o");
    compile(&cg.llc, &d_src, &d_obj)?;
    let program = dir.join("program");
    run_tool(
        link_command(arch, &[&f_obj, &d_obj], &program),
        &dir.join("link.out"),
        "linking",
    )?;
    let mut asm = Command::new(&cg.llc.path);
    asm.arg("-O2").arg(after).arg("-o").arg(dir.join("after.s"));
    run_tool(asm, &dir.join("after.s.out"), "llc -S")?;
    if let Ok(dump) = tools::find("llvm-dwarfdump", Some(cg.llc.major)) {
        let mut cmd = Command::new(&dump.path);
        // The function's DIE with its variables (the bundle's module has
        // that one function).
        cmd.arg("--debug-info")
            .arg(format!("--name={function}"))
            .arg("--show-children")
            .arg(&f_obj);
        run_tool(cmd, &dir.join("dwarfdump.txt"), "llvm-dwarfdump")?;
    }
    // An emulated program waits in its emulator for gdb on `gdb.sock`.
    let debug = format!("{} -nx -batch -readnow -x gdb.cmd ./program", arch.gdb());
    let (start, gdb_line, shell) = match arch.emulator() {
        None => ("run", debug.clone(), format!("exec {debug} 2>&1")),
        Some(emulator) => (
            "target remote gdb.sock\ncontinue",
            format!("{emulator} -g gdb.sock ./program & {debug}"),
            // gdb attaches once the emulator's socket is there (5 s at most).
            format!(
                "{emulator} -g gdb.sock ./program & q=$!; for i in $(seq 500); do [ -S gdb.sock ] && break; sleep 0.01; done; {debug} 2>&1; s=$?; kill $q 2>/dev/null; exit $s"
            ),
        ),
    };
    let script = format!(
        "set pagination off\nbreak *0x{:x}\n{start}\nprint {variable}\nprint/x {variable}\ninfo registers\nkill\nquit\n",
        d.pc
    );
    std::fs::write(dir.join("gdb.cmd"), script)
        .map_err(|e| format!("cannot write gdb.cmd: {e}"))?;
    let _ = std::fs::remove_file(dir.join("gdb.sock"));
    let mut gdb = Command::new("sh");
    gdb.args(["-c", &format!("ulimit -c 0; {shell}")])
        .current_dir(dir);
    let out = dir.join("gdb.txt");
    tools::run(gdb, &out, cg.limit).map_err(|e| format!("Llvm: gdb-failed: {e}"))?;
    let _ = std::fs::remove_file(out.with_extension("err"));
    let transcript = std::fs::read_to_string(&out).unwrap_or_default();
    // What the tools printed to their stdout (nothing, with `-o`) and the
    // probe are not evidence.
    let _ = std::fs::remove_dir_all(&probe);
    for f in ["link.out", "after.s.out", "driver.llc.out"] {
        let _ = std::fs::remove_file(dir.join(f));
    }
    let (gcc, flags) = arch.linker();
    let flags: String = flags.iter().map(|f| format!("{f} ")).collect();
    Ok(Some(Reproduced {
        difference: d,
        commands: vec![
            format!(
                "{} -O2 -filetype=obj after.ll -o functions.o",
                cg.llc.path.display()
            ),
            format!(
                "{} -O2 -filetype=obj driver.ll -o driver.o",
                cg.llc.path.display()
            ),
            format!("{gcc} {flags}-nostdlib -static -no-pie -o program functions.o driver.o -lgcc"),
            gdb_line,
        ],
        transcript,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "define i32 @f(i8 signext %x0, ptr %x1, i64 %x2) !dbg !0 {\nentry:\n  %v0 = sext i8 %x0 to i32\n    #dbg_value(i32 %v0, !1, !DIExpression(), !0)\n  ret i32 %v0\n}\n!0 = distinct !DISubprogram(name: \"f\")\n!1 = !DILocalVariable(name: \"v0\", scope: !0)\n";

    #[test]
    fn the_driver_calls_as_the_input_declares() {
        let m = crate::ir::parse(MODULE).unwrap();
        let call = Call {
            function: "f".into(),
            args: vec![
                Bits::from_u64(8, 0x80),
                Bits::from_u64(64, 16),
                Bits::from_u64(64, u64::MAX),
            ],
        };
        let d = driver(&m, &[call.clone(), call], "x86_64-pc-linux-gnu").unwrap();
        // The i8 is passed as the whole register (D-llvm-dirty-upper-bits).
        assert_eq!(d.matches("declare i32 @f(i64, ptr, i64)").count(), 1, "{d}");
        // The first call clean: -128 sign-extended to 64 bits.
        assert_eq!(
            d.matches("call i32 @f(i64 -128, ptr inttoptr (i64 16 to ptr), i64 -1)")
                .count(),
            1,
            "{d}"
        );
        // The second with bits 32-63 the ABI leaves unspecified set, bits
        // 8-31 the sign's copies as `signext` promises.
        let second = d
            .lines()
            .filter(|l| l.contains("call i32 @f("))
            .nth(1)
            .unwrap();
        let value: i64 = second["  call i32 @f(i64 ".len()..]
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(value as u64 & 0xffff_ffff, 0xffff_ff80, "{second}");
        assert_ne!(
            value as u64 >> 32,
            0xffff_ffff,
            "{second}: dirt above bit 31"
        );
        assert!(d.contains("syscall"));
        let short = Call {
            function: "f".into(),
            args: vec![],
        };
        assert!(driver(&m, &[short], "x86_64-pc-linux-gnu").is_err());
        assert!(driver(&m, &[], "riscv64-linux-gnu").is_err());
    }

    #[test]
    fn an_aarch64_program_exits_by_svc_and_is_debugged_in_its_emulator() {
        let m = crate::ir::parse(MODULE).unwrap();
        let call = Call {
            function: "f".into(),
            args: vec![
                Bits::from_u64(8, 1),
                Bits::from_u64(64, 16),
                Bits::from_u64(64, 2),
            ],
        };
        let d = driver(&m, &[call], "aarch64-unknown-linux-gnu").unwrap();
        assert!(d.contains("target triple = \"aarch64-unknown-linux-gnu\""));
        assert!(
            d.contains("call void asm sideeffect \"mov x8, #93\\0Amov x0, #0\\0Asvc #0\", \"\"()"),
            "{d}"
        );
        assert!(!d.contains("syscall") && !d.contains("dirflag"), "{d}");
        let link = link_command(Arch::AArch64, &[Path::new("f.o")], Path::new("p"));
        assert_eq!(link.get_program(), "aarch64-linux-gnu-gcc");
        let py = script(&["f".into()], Path::new("out"), Arch::AArch64);
        assert!(
            py.contains("gdb.execute(\"target remote \" + SOCKET"),
            "{py}"
        );
        assert!(!py.contains("gdb.execute(\"run\""), "{py}");
        assert!(py.contains("REGS = [\"x0\", \"x1\""), "{py}");
        assert!(py.contains("read_register(\"sp\")"), "{py}");
        let native = script(&["f".into()], Path::new("out"), Arch::X86_64);
        assert!(native.contains("gdb.execute(\"run\""));
        assert!(native.contains("read_register(\"rsp\")"));
    }

    #[test]
    fn readings_are_compared_with_the_input_function() {
        let m = crate::ir::parse(MODULE).unwrap();
        let call = Call {
            function: "f".into(),
            args: vec![
                Bits::from_u64(8, 0x80),
                Bits::from_u64(64, 0),
                Bits::zero(64),
            ],
        };
        let t = parse(
            "call 0 f\nstate 0 401000 1,2 7ff0 0a0b\n0 401000 v0 -128\n0 401004 v0 4294967168\n0 401008 v0 --\n0 40100c v0 128\n0 40100c x0 ! no frame\nstate 0 40100c 3,4 7ff0 -\nexit 0\n",
        )
        .unwrap();
        assert_eq!((&t.calls, t.exit), (&vec!["f".to_string()], Some(0)));
        // The machine state of each stop, and where the call entered.
        assert_eq!(t.states[&(0, 0x40100c)].registers, vec![3, 4]);
        assert_eq!(t.states[&(0, 0x401000)].memory, vec![0x0a, 0x0b]);
        assert_eq!(t.entries[&0], 0x401000);
        let seen = compare(&m, None, &[call], &t, None, Arch::X86_64);
        let v0 = &seen[&("f".to_string(), "v0".to_string())];
        // -128 and its 32-bit zero-extension read the same as an i32.
        assert_eq!((v0.compared, v0.agreed, v0.optimized), (3, 2, 1));
        let d = v0.differ.as_ref().unwrap();
        assert_eq!(
            (d.pc, d.shown.as_str(), d.expected.as_str()),
            (0x40100c, "0x00000080", "0xffffff80")
        );
        // The 0x00000080 gdb printed is another value of the function:
        // %x0, the i8 0x80, zero-extended to the variable's 32 bits.
        assert_eq!(d.other_values, vec!["%x0".to_string()]);
        assert_eq!(
            (
                v0.calls_differing,
                v0.readings_differing,
                v0.readings_as_other
            ),
            (1, 1, 1)
        );
        assert_eq!(
            seen[&("f".to_string(), "x0".to_string())]
                .error
                .as_ref()
                .map(|e| e.shown.as_str()),
            Some("no frame")
        );
        assert!(parse("0 zz v0 1\n").is_err());
        assert!(parse("state 0 40 zz 0 -\n").is_err());
    }

    #[test]
    fn run_errors_carry_a_reason_code() {
        assert_eq!(
            run_failed("llc on x.ll failed: bad".into()),
            "Llvm: run-failed: llc on x.ll failed: bad"
        );
        assert_eq!(
            run_failed("Llvm: gdb-failed: no readings".into()),
            "Llvm: gdb-failed: no readings"
        );
        // An unsupported target is refused with the prefix.
        let m = crate::ir::parse(MODULE).unwrap();
        let cg = Codegen {
            llc: super::super::tools::Tool {
                path: "/nonexistent/llc".into(),
                major: 22,
                version: "none".into(),
            },
            gdb: "none".into(),
            inputs: 1,
            limit: Duration::from_secs(1),
        };
        let dir = std::env::temp_dir();
        let mut cache = HashMap::new();
        let entry = EntryCheck {
            timeout_ms: 100,
            cache: &mut cache,
        };
        let e = check(
            &cg,
            &m,
            &dir.join("x.ll"),
            &[],
            "aarch64-linux-gnu",
            &dir,
            entry,
        )
        .unwrap_err();
        assert!(e.starts_with("Llvm: run-failed: "), "{e}");
    }

    #[test]
    fn witnesses_and_samples_give_an_input_per_parameter() {
        let m = crate::ir::parse(MODULE).unwrap();
        let f = &m.functions[0];
        let w = witness_input(
            f,
            "witness pointers = 64, high = sign, %x0 = 0xff, %x1 = 0x1, %x2 = 0x7f",
            64,
        )
        .unwrap();
        assert_eq!(
            w,
            vec![
                Bits::from_u64(8, 0xff),
                Bits::from_u64(64, 1),
                Bits::from_u64(64, 0x7f)
            ]
        );
        assert!(witness_input(f, "witness high = zero, %x0 = 0x1", 64).is_none());
        let s = sample_inputs(f, 64, 1, 7);
        assert_eq!(s.len(), 7);
        assert_eq!(s[0][0], Bits::from_u64(8, 0x80));
        assert_eq!(s[1][2], Bits::from_u64(64, u64::MAX));
        assert_eq!(s[2][0], Bits::from_u64(8, 0x7f));
        assert_ne!(s[5], s[6]);
    }
}
