//! Finding LLVM's tools (`opt`, `llc`, `llvm-dwarfdump`) on the machine by
//! version, and running one with a time limit.
//!
//! Distributions install each LLVM as `opt-22` on the path and under
//! `/usr/lib/llvm-22/bin`, with a plain `opt` for one of them. The newest
//! version found is used unless a version is asked for; the version is
//! what the tool itself prints (`opt --version`), so a plain `opt` is
//! reported truthfully.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The LLVM versions looked for, newest first.
const VERSIONS: std::ops::RangeInclusive<u32> = 14..=30;

/// One LLVM tool found on the machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tool {
    pub path: PathBuf,
    /// The major version the tool reports.
    pub major: u32,
    /// Its version line (`LLVM version 22.1.8`).
    pub version: String,
}

/// The version line and major version `path --version` prints, if it runs.
fn version_of(path: &Path) -> Option<(u32, String)> {
    let out = Command::new(path)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.contains("LLVM version"))?.trim();
    let number = line.rsplit(' ').next()?;
    let major = number.split('.').next()?.parse().ok()?;
    Some((major, line.to_string()))
}

/// Every candidate path of tool `name` for `version`: `name-V` on the path,
/// then `/usr/lib/llvm-V/bin/name`.
fn candidates(name: &str, version: u32) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            out.push(dir.join(format!("{name}-{version}")));
        }
    }
    out.push(PathBuf::from(format!("/usr/lib/llvm-{version}/bin/{name}")));
    out
}

/// The oldest LLVM whose `opt` reads the `#dbg_value` records the
/// harness writes (LLVM 19 made them its textual form); an older one
/// fails on every module.
pub const MIN_RECORDS_MAJOR: u32 = 19;

/// [`find`] `opt` for the harness: of version `version` when given, else
/// the newest; refused (with why) when it is older than
/// [`MIN_RECORDS_MAJOR`]. `Err((asked, why))`: `asked` when the version
/// asked for is the old one (a usage error), not when none was asked for
/// and only an old one is installed (nothing can be checked).
pub fn find_opt_for_records(version: Option<u32>) -> Result<Tool, (bool, String)> {
    if let Some(v) = version.filter(|&v| v < MIN_RECORDS_MAJOR) {
        return Err((
            true,
            format!("opt of LLVM {v} reads no `#dbg_value` records; the harness needs LLVM {MIN_RECORDS_MAJOR} or later"),
        ));
    }
    let t = find("opt", version).map_err(|e| (false, e))?;
    if t.major < MIN_RECORDS_MAJOR {
        return Err((
            false,
            format!(
                "the newest opt here is LLVM {} ({}), which reads no `#dbg_value` records; the harness needs LLVM {MIN_RECORDS_MAJOR} or later: install llvm-22",
                t.major,
                t.path.display()
            ),
        ));
    }
    Ok(t)
}

/// Finds `name` (`opt`, `llc`, `llvm-dwarfdump`): of major version
/// `version` when given, else the newest installed. A plain `name` on the
/// path counts with the version it reports.
pub fn find(name: &str, version: Option<u32>) -> Result<Tool, String> {
    let mut found: Vec<Tool> = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut consider = |path: PathBuf, found: &mut Vec<Tool>| {
        if !path.is_file() {
            return;
        }
        let real = std::fs::canonicalize(&path).unwrap_or(path.clone());
        if seen.contains(&real) {
            return;
        }
        seen.push(real);
        if let Some((major, line)) = version_of(&path) {
            found.push(Tool {
                path,
                major,
                version: line,
            });
        }
    };
    let wanted: Vec<u32> = match version {
        Some(v) => vec![v],
        None => VERSIONS.rev().collect(),
    };
    for v in &wanted {
        for p in candidates(name, *v) {
            consider(p, &mut found);
        }
        if found.iter().any(|t| t.major == *v) {
            break;
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            consider(dir.join(name), &mut found);
        }
    }
    found.retain(|t| version.is_none_or(|v| t.major == v));
    found.sort_by_key(|t| std::cmp::Reverse(t.major));
    found.into_iter().next().ok_or_else(|| match version {
        Some(v) => format!("no `{name}` of LLVM {v} on this machine (looked for {name}-{v} on the path, /usr/lib/llvm-{v}/bin/{name} and {name}); install llvm-{v}"),
        None => format!("no `{name}` on this machine (looked for {name}-N on the path, /usr/lib/llvm-N/bin/{name} for N in {}..={}, and {name}); install llvm-22", VERSIONS.start(), VERSIONS.end()),
    })
}

/// What a finished tool run left.
#[derive(Debug)]
pub struct Ran {
    pub success: bool,
    /// Its stderr, cut to 4 000 characters.
    pub stderr: String,
    pub time: Duration,
}

/// Runs `cmd` with no stdin, stdout to `stdout` (a file), stderr kept,
/// killed after `limit` with every process it started (its own process
/// group: gdb and the emulator it debugs, a shell's children).
pub fn run(mut cmd: Command, stdout: &Path, limit: Duration) -> Result<Ran, String> {
    use std::os::unix::process::CommandExt;
    let out = std::fs::File::create(stdout)
        .map_err(|e| format!("cannot write {}: {e}", stdout.display()))?;
    let err_path = stdout.with_extension("err");
    let err = std::fs::File::create(&err_path)
        .map_err(|e| format!("cannot write {}: {e}", err_path.display()))?;
    let program = cmd.get_program().to_string_lossy().into_owned();
    let start = Instant::now();
    let mut child = cmd
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > limit => {
                // `kill -KILL -PGID`: the group is the child's own id (no
                // `unsafe` signal call needed).
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{program} did not finish within {limit:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("waiting for {program}: {e}")),
        }
    };
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    Ok(Ran {
        success: status.success(),
        stderr: stderr.chars().take(4000).collect(),
        time: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_past_its_limit_is_killed_with_its_children() {
        let dir = std::env::temp_dir().join(format!("dioptra-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let marker = dir.join("child.pid");
        let mut cmd = Command::new("sh");
        // A background child that would outlive its shell.
        cmd.arg("-c")
            .arg("sleep 30 & echo $! > \"$0\"; wait")
            .arg(&marker);
        let err = run(cmd, &dir.join("out"), Duration::from_millis(300)).unwrap_err();
        assert!(err.contains("did not finish"), "{err}");
        let pid = std::fs::read_to_string(&marker).unwrap().trim().to_string();
        std::thread::sleep(Duration::from_millis(100));
        let alive = Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .unwrap_or_default()
                .contains(") Z ");
        assert!(!alive, "the shell's child {pid} outlived the limit");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_tool_is_a_reason_not_a_panic() {
        let e = find("dioptra-no-such-tool", None).unwrap_err();
        assert!(e.contains("no `dioptra-no-such-tool`"), "{e}");
        let e = find("dioptra-no-such-tool", Some(99)).unwrap_err();
        assert!(e.contains("LLVM 99"), "{e}");
    }
}
