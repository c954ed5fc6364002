//! lldb as a third opinion: the same program and DWARF, read by lldb's
//! Python API, for the basic subset lldb evaluates ([`outside_basic`]).
//!
//! lldb is optional: `dioptra gdb --lldb` and the lldb test use it, and
//! `.ci/run` installs it. Its answers go through the same transcript format
//! as gdb's ([`super::session::parse`]).

use super::session::{supervise, vars_table, Answer, Seen, Transcript};
use super::{At, Byte, Expected};
use dioptra_semantics::dwarf::DwarfOp;
use gimli::constants as c;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// How to run lldb's Python API on this machine.
#[derive(Clone, Debug)]
pub struct Lldb {
    /// `lldb --version`'s first line.
    pub version: String,
    python: PathBuf,
    /// The directory holding the `lldb` Python package.
    pythonpath: PathBuf,
    /// `lldb-server`, which launching a process needs.
    server: Option<PathBuf>,
}

/// The DWARF operations lldb does not evaluate, or evaluates otherwise
/// (../shared/dwarf-facts.md: no bit pieces, no typed operations,
/// `DW_OP_mod` signed; and `DW_OP_div` unsigned, erratum
/// E-lldb-div-unsigned): the cases that use them are not asked of lldb.
/// The reason, for those that do.
pub fn outside_basic(ops: &[DwarfOp]) -> Option<&'static str> {
    ops.iter().find_map(|op| match op {
        DwarfOp::Amd { .. } => Some("AMD extension"),
        DwarfOp::Std { code, .. } => match c::DwOp(*code) {
            c::DW_OP_bit_piece => Some("DW_OP_bit_piece"),
            c::DW_OP_const_type
            | c::DW_OP_regval_type
            | c::DW_OP_deref_type
            | c::DW_OP_convert
            | c::DW_OP_reinterpret => Some("typed operation"),
            c::DW_OP_mod => Some("DW_OP_mod (signed in lldb)"),
            c::DW_OP_div => Some("DW_OP_div (unsigned in lldb: E-lldb-div-unsigned)"),
            _ => None,
        },
    })
}

/// The lldb behaviours the harness knows (README, "gdb conformance"),
/// recognised narrowly from the DWARF at `at`, the reference and lldb's
/// answer.
pub fn known_limitation(at: &At, expected: &Expected, answer: &Answer) -> Option<&'static str> {
    let ops: Vec<&DwarfOp> = at.expressions().into_iter().flatten().collect();
    let has = |code: c::DwOp| {
        ops.iter()
            .any(|op| matches!(op, DwarfOp::Std { code: k, .. } if *k == code.0))
    };
    let optimized = |e: &[Byte]| e.iter().filter(|b| **b == Byte::Optimized).count();
    match (expected, answer) {
        (Expected::Bytes(e), Answer::Error(m))
            if optimized(e) == e.len()
                && (m.contains("not available") || m.contains("optimized out")) =>
        {
            Some("lldb reports a wholly optimized-out variable as unavailable")
        }
        (Expected::Bytes(e), Answer::Bytes(g))
            if optimized(e) > 0
                && e.len() == g.len()
                && e.iter().zip(g).all(|(e, g)| match (e, g) {
                    (Byte::Optimized, Seen::Value(0)) => true,
                    (Byte::Value { bits, mask }, Seen::Value(v)) => v & mask == *bits,
                    _ => false,
                }) =>
        {
            Some("lldb reads an empty piece as zero bytes (no partial availability)")
        }
        (_, Answer::Error(m))
            if has(c::DW_OP_addr)
                && (m.contains("from file address")
                    || m.contains("nvalid value for DW_OP_deref_size")) =>
        {
            Some("lldb resolves DW_OP_addr through the module's sections: memory outside them is unreadable")
        }
        (Expected::Error(m), Answer::Bytes(_)) if m.contains("value-required") => {
            Some("lldb uses a register location as the register's value (dioptra: value-required, D-dwarf-value-required)")
        }
        (Expected::Error(m), Answer::Bytes(g)) if m.contains("offset-outside-storage") => {
            // "byte K: ... of comp(...)" or "... of reg(N)": lldb reads on
            // with zeros.
            let k: usize = m.strip_prefix("byte ")?.split(':').next()?.parse().ok()?;
            let zero_to = |end: usize| g.get(k..end.min(g.len()))?.iter().all(|s| *s == Seen::Value(0)).then_some(());
            if m.contains("of comp(") {
                zero_to(g.len())?;
                Some("lldb reads the bytes past a composite's last piece as zero (dioptra: offset-outside-storage)")
            } else if m.contains("of reg(") {
                // Zeros to the end of the register's piece.
                let ops = at.expressions().into_iter().next()?;
                let bit = 8 * k as u64;
                let (start, bits, _) = super::known::pieces(ops, 8 * g.len() as u64)
                    .into_iter()
                    .find(|(start, bits, _)| *start <= bit && bit < start + bits)?;
                zero_to((start + bits).div_ceil(8) as usize)?;
                Some("lldb reads a piece wider than its register with zeros past the register (dioptra: offset-outside-storage)")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Finds lldb and its Python package; `dir` holds the package shim.
///
/// Debian's lldb 14 ships the package under
/// `/usr/lib/llvm-N/lib/python3.X/dist-packages/lldb` with a `_lldb`
/// symlink that points nowhere, and `lldb -P` names a directory that does
/// not exist; so the harness builds a copy of the package made of symlinks,
/// with `_lldb` pointing at the real `liblldb`, and runs it with the
/// matching `python3.X`. No crate drives lldb, hence this.
pub fn find(dir: &Path) -> Result<Lldb, String> {
    let out = Command::new("lldb")
        .arg("--version")
        .output()
        .map_err(|_| "lldb is not installed".to_string())?;
    let version = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("lldb")
        .to_string();
    let mut found = Vec::new();
    for llvm in read_dir("/usr/lib") {
        let Some(n) = llvm
            .file_name()
            .and_then(|f| f.to_str())
            .and_then(|f| f.strip_prefix("llvm-"))
            .and_then(|v| v.parse::<u32>().ok())
        else {
            continue;
        };
        for py in read_dir(llvm.join("lib")) {
            let Some(pyver) = py
                .file_name()
                .and_then(|f| f.to_str())
                .filter(|f| f.starts_with("python3."))
                .map(str::to_string)
            else {
                continue;
            };
            let package = py.join("dist-packages/lldb");
            if package.join("__init__.py").exists() {
                found.push((n, pyver, llvm.clone(), package));
            }
        }
    }
    found.sort();
    let (_, pyver, llvm, package) = found
        .pop()
        .ok_or("lldb's Python package is not installed (python3-lldb)")?;
    let python = PathBuf::from("/usr/bin").join(&pyver);
    if !python.exists() {
        return Err(format!("{} is missing", python.display()));
    }
    let liblldb = std::fs::canonicalize(llvm.join("lib/liblldb.so.1"))
        .map_err(|e| format!("liblldb is missing: {e}"))?;
    let shim = dir.join("pylldb");
    let shim_package = shim.join("lldb");
    let _ = std::fs::remove_dir_all(&shim);
    std::fs::create_dir_all(&shim_package)
        .map_err(|e| format!("cannot create {}: {e}", shim_package.display()))?;
    for entry in read_dir(&package) {
        let name = entry.file_name().unwrap_or_default().to_owned();
        let target = if name.to_string_lossy().starts_with("_lldb") {
            liblldb.clone()
        } else {
            entry.clone()
        };
        std::os::unix::fs::symlink(&target, shim_package.join(&name))
            .map_err(|e| format!("cannot link {}: {e}", target.display()))?;
    }
    let server = Some(llvm.join("bin/lldb-server")).filter(|s| s.exists());
    Ok(Lldb {
        version,
        python,
        pythonpath: shim,
        server,
    })
}

fn read_dir(p: impl AsRef<Path>) -> Vec<PathBuf> {
    std::fs::read_dir(p)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

/// The Python script: run the stub under lldb and, at every stop, read
/// each variable of that pc (the whole value, then byte by byte).
fn script(
    program: &Path,
    vars_at: &BTreeMap<u64, Vec<(String, u64)>>,
    out: &Path,
    max_stops: usize,
) -> String {
    let table = vars_table(vars_at);
    format!(
        r#"import lldb
{table}
OUT = {out:?}
dbg = lldb.SBDebugger.Create()
dbg.SetAsync(False)
target = dbg.CreateTarget({program:?})
info = lldb.SBLaunchInfo(None)
err = lldb.SBError()
proc = target.Launch(info, err)
with open(OUT, "w") as out:
    stops = 0
    while err.Success() and proc.GetState() == lldb.eStateStopped and stops < {max_stops}:
        stops += 1
        frame = proc.GetSelectedThread().GetFrameAtIndex(0)
        pc = frame.GetPC()
        if pc not in VARS:
            out.write("stray %x\n" % pc)
        for name, n in VARS.get(pc, ()):
            v = frame.FindVariable(name)
            e = v.GetError()
            if not v.IsValid() or e.Fail():
                msg = e.GetCString() or "no such variable"
                out.write("%x %s ! %s\n" % (pc, name, msg.replace("\n", " ")))
                continue
            data = v.GetData()
            cells = []
            for i in range(n):
                be = lldb.SBError()
                b = data.GetUnsignedInt8(be, i)
                cells.append("!!" if be.Fail() else "%02x" % b)
            out.write("%x %s %s\n" % (pc, name, " ".join(cells)))
        proc.Continue()
    if proc.GetState() == lldb.eStateExited:
        out.write("exit %d\n" % proc.GetExitStatus())
    else:
        if not err.Success():
            out.write("stray launch failed: %s\n" % err.GetCString())
        proc.Kill()
        out.write("exit none\n")
"#
    )
}

/// Runs lldb on `program`, which stops `stops` times, in `dir`, killing it
/// after `limit`.
pub fn run(
    lldb: &Lldb,
    program: &Path,
    dir: &Path,
    vars_at: &BTreeMap<u64, Vec<(String, u64)>>,
    stops: usize,
    limit: Duration,
) -> Result<Transcript, String> {
    let out = dir.join("lldb.out");
    let py = dir.join("read_lldb.py");
    std::fs::write(&py, script(program, vars_at, &out, stops + 16))
        .map_err(|e| format!("cannot write {}: {e}", py.display()))?;
    let mut cmd = Command::new(&lldb.python);
    cmd.arg(&py)
        .current_dir(dir)
        .env("PYTHONPATH", &lldb.pythonpath);
    if let Some(s) = &lldb.server {
        cmd.env("LLDB_DEBUGSERVER_PATH", s);
    }
    supervise(cmd, "lldb", dir, &out, limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dioptra_semantics::dwarf::unit::Listing;
    use dioptra_semantics::dwarf::Encoding;

    fn at(src: &str) -> At {
        At::Expr(ops(src))
    }
    fn ops(src: &str) -> Vec<DwarfOp> {
        Listing::parse(src, Encoding::default()).unwrap().ops
    }
    const V: fn(u8) -> Byte = |bits| Byte::Value { bits, mask: 0xff };

    /// An empty piece read as zero is known only when every other byte
    /// agrees; a wholly optimized-out variable only when every byte is.
    #[test]
    fn known_lldb_behaviours_are_narrow() {
        let a = at("DW_OP_piece 0x1, DW_OP_lit7, DW_OP_stack_value, DW_OP_piece 0x1");
        let e = Expected::Bytes(vec![Byte::Optimized, V(7)]);
        let read = |b: [u8; 2]| Answer::Bytes(b.map(Seen::Value).to_vec());
        assert!(known_limitation(&a, &e, &read([0, 7])).is_some_and(|k| k.contains("empty piece")));
        assert_eq!(known_limitation(&a, &e, &read([0, 8])), None);
        assert_eq!(known_limitation(&a, &e, &read([1, 7])), None);
        let gone = Answer::Error("variable not available".into());
        assert_eq!(known_limitation(&a, &e, &gone), None);
        let all = Expected::Bytes(vec![Byte::Optimized, Byte::Optimized]);
        assert!(known_limitation(&a, &all, &gone).is_some_and(|k| k.contains("wholly")));
        // Without DW_OP_addr, a memory error is not the file-address one.
        let mem =
            Answer::Error("failed to read memory DW_OP_piece(2) from file address 0x10010".into());
        assert_eq!(
            known_limitation(&a, &Expected::Bytes(vec![V(1), V(7)]), &mem),
            None
        );
        let b = at("DW_OP_addr 0x10010, DW_OP_piece 0x2");
        assert!(known_limitation(&b, &Expected::Bytes(vec![V(1), V(7)]), &mem).is_some());
    }

    /// A register piece read on with zeros (generated expression 7399,
    /// seed 7) is known up to the end of that piece only.
    #[test]
    fn a_wide_register_piece_reads_zeros_to_its_end() {
        let a = at("DW_OP_piece 0x1, DW_OP_reg3, DW_OP_piece 0x10, DW_OP_lit7, DW_OP_stack_value, DW_OP_piece 0x1");
        let e = Expected::Error(
            "byte 9: read: offset-outside-storage: reading bits 64..72 of reg(3) (64 bits)".into(),
        );
        let mut g = vec![Seen::Optimized];
        g.extend([1u8; 8].map(Seen::Value));
        g.extend([0u8; 8].map(Seen::Value));
        g.push(Seen::Value(7));
        let k = known_limitation(&a, &e, &Answer::Bytes(g.clone()));
        assert!(
            k.is_some_and(|k| k.contains("wider than its register")),
            "{k:?}"
        );
        g[12] = Seen::Value(5);
        assert_eq!(known_limitation(&a, &e, &Answer::Bytes(g)), None);
    }

    /// The basic subset leaves out what lldb evaluates otherwise.
    #[test]
    fn the_basic_subset_leaves_out_what_lldb_reads_otherwise() {
        assert_eq!(outside_basic(&ops("DW_OP_reg3, DW_OP_piece 0x4")), None);
        for (src, why) in [
            ("DW_OP_lit1, DW_OP_lit2, DW_OP_div, DW_OP_stack_value", "E-lldb-div-unsigned"),
            ("DW_OP_lit1, DW_OP_lit2, DW_OP_mod, DW_OP_stack_value", "DW_OP_mod"),
            ("DW_OP_reg3, DW_OP_bit_piece 0x4 0x0", "bit_piece"),
            ("DW_OP_regval_type 0x3 0x1, DW_OP_stack_value\n0x1: DW_TAG_base_type DW_ATE_unsigned 4 \"u32\"", "typed"),
        ] {
            assert!(outside_basic(&ops(src)).is_some_and(|w| w.contains(why)), "{src}");
        }
    }
}
