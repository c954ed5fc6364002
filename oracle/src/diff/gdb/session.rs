//! One gdb run: a Python script that runs the stub, and at every stop reads
//! the variables of that point byte by byte; and the parser of what it
//! wrote.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What gdb said about one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    Value(u8),
    /// `is_optimized_out`.
    Optimized,
    /// Reading the element raised an error.
    Error,
}

/// What gdb said about one variable at one stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Bytes(Vec<Seen>),
    /// `read_var` raised this error.
    Error(String),
}

/// Everything one run printed.
#[derive(Debug, Default)]
pub struct Transcript {
    /// By (pc, variable name).
    pub answers: BTreeMap<(u64, String), Answer>,
    /// Stops at a pc with no variables (a signal, a stray trap).
    pub stray: Vec<String>,
    /// The stub's exit status, when gdb saw it exit.
    pub exit: Option<i64>,
}

/// Is `gdb` (`gdb`, `gdb-multiarch`) on this machine? Its version line
/// when it is.
pub fn gdb_version(gdb: &str) -> Option<String> {
    let out = Command::new(gdb).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    out.status
        .success()
        .then(|| text.lines().next().unwrap_or("gdb").to_string())
}

/// The Python table of what to read where: a stop's pc to its variables
/// (name, bytes).
pub(super) fn vars_table(vars_at: &BTreeMap<u64, Vec<(String, u64)>>) -> String {
    let mut table = String::from("VARS = {\n");
    for (pc, vars) in vars_at {
        let list: Vec<String> = vars
            .iter()
            .map(|(n, b)| format!("(\"{n}\", {b})"))
            .collect();
        let _ = writeln!(table, "    0x{pc:x}: [{}],", list.join(", "));
    }
    table += "}\n";
    table
}

/// The gdb Python script: `vars_at` maps a stop's pc to its variables
/// (name, bytes).
fn script(vars_at: &BTreeMap<u64, Vec<(String, u64)>>, out: &Path, max_stops: usize) -> String {
    let table = vars_table(vars_at);
    format!(
        r#"import gdb
{table}
OUT = {out:?}
for c in ("set confirm off", "set pagination off", "set may-call-functions off",
          "set print elements unlimited", "set width 0"):
    gdb.execute(c)
status = []
gdb.events.exited.connect(lambda ev: status.append(getattr(ev, "exit_code", -1)))
with open(OUT, "w") as out:
    gdb.execute("run", to_string=True)
    stops = 0
    while gdb.selected_inferior().pid and stops < {max_stops}:
        stops += 1
        frame = gdb.selected_frame()
        pc = int(frame.pc())
        if pc not in VARS:
            out.write("stray %x\n" % pc)
        for name, n in VARS.get(pc, ()):
            try:
                v = frame.read_var(name)
                cells = []
                for i in range(n):
                    try:
                        e = v[i]
                        cells.append("--" if e.is_optimized_out else "%02x" % int(e))
                    except gdb.error:
                        cells.append("!!")
                out.write("%x %s %s\n" % (pc, name, " ".join(cells)))
            except Exception as err:
                out.write("%x %s ! %s\n" % (pc, name, str(err).replace("\n", " ")))
        gdb.execute("continue", to_string=True)
    if gdb.selected_inferior().pid:
        gdb.execute("kill")
    out.write("exit %s\n" % (status[0] if status else "none"))
"#
    )
}

/// Parses what the script wrote.
pub fn parse(text: &str) -> Result<Transcript, String> {
    let mut t = Transcript::default();
    for line in text.lines() {
        let mut f = line.splitn(3, ' ');
        let (a, b, rest) = (f.next(), f.next(), f.next().unwrap_or(""));
        match (a, b) {
            (Some("exit"), Some(code)) => t.exit = code.parse().ok(),
            (Some("stray"), Some(pc)) => t.stray.push(pc.to_string()),
            (Some(pc), Some(name)) => {
                let pc = u64::from_str_radix(pc, 16)
                    .map_err(|_| format!("gdb transcript: bad line `{line}`"))?;
                let answer = if let Some(msg) = rest.strip_prefix("! ") {
                    Answer::Error(msg.to_string())
                } else {
                    let cells = rest
                        .split_whitespace()
                        .map(|c| match c {
                            "--" => Ok(Seen::Optimized),
                            "!!" => Ok(Seen::Error),
                            h => u8::from_str_radix(h, 16)
                                .map(Seen::Value)
                                .map_err(|_| format!("gdb transcript: bad byte `{h}`")),
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    Answer::Bytes(cells)
                };
                t.answers.insert((pc, name.to_string()), answer);
            }
            _ => return Err(format!("gdb transcript: bad line `{line}`")),
        }
    }
    Ok(t)
}

/// Runs gdb on `program` in `dir`, killing it after `limit`.
pub fn run(
    program: &Path,
    dir: &Path,
    vars_at: &BTreeMap<u64, Vec<(String, u64)>>,
    limit: Duration,
) -> Result<Transcript, String> {
    let out = dir.join("gdb.out");
    let py = dir.join("read.py");
    std::fs::write(&py, script(vars_at, &out, vars_at.len() + 16))
        .map_err(|e| format!("cannot write {}: {e}", py.display()))?;
    // Through `sh` with core dumps off: a gdb that aborts
    // (E-gdb-read-needs-assert) left a 50 MB core file in the work
    // directory, which `--keep` kept. In the work directory all the same,
    // so nothing it leaves lands in the caller's.
    let mut gdb = Command::new("sh");
    gdb.args(["-c", "ulimit -c 0; exec gdb \"$@\"", "gdb"])
        .args(["-nx", "-batch", "-x"])
        .arg(&py)
        .arg(program)
        .current_dir(dir);
    supervise(gdb, "gdb", dir, &out, limit)
}

/// Runs a debugger `cmd` (`who`) whose script writes the transcript `out`,
/// killing it after `limit`; its stderr goes to `dir/<who>.err`.
pub(super) fn supervise(
    mut cmd: Command,
    who: &str,
    dir: &Path,
    out: &Path,
    limit: Duration,
) -> Result<Transcript, String> {
    let err_path = dir.join(format!("{who}.err"));
    let err_file = std::fs::File::create(&err_path)
        .map_err(|e| format!("cannot write {}: {e}", err_path.display()))?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err_file)
        .spawn()
        .map_err(|e| format!("gdb-harness: {who}-failed: cannot run {who}: {e}"))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "gdb-harness: {who}-timeout: {who} did not finish within {limit:?}"
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("gdb-harness: {who}-failed: waiting for {who}: {e}")),
        }
    };
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let stderr: String = stderr.chars().take(2000).collect();
    let text = std::fs::read_to_string(out)
        .map_err(|e| format!("gdb-harness: {who}-failed: {who} wrote no transcript ({status}): {e}; stderr: {stderr}"))?;
    if !text.contains("\nexit ") && !text.starts_with("exit ") {
        return Err(format!(
            "gdb-harness: {who}-failed: {who} stopped early ({status}); stderr: {stderr}"
        ));
    }
    parse(&text)
}

/// The debugger's own crash report in `dir/<who>.err`, if it crashed: the
/// first line naming an internal error or a failed assertion.
pub fn crash(dir: &Path, who: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(format!("{who}.err"))).ok()?;
    text.lines()
        .find(|l| l.contains("internal-error") || l.contains("Assertion"))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_parse() {
        let t = parse(
            "1000 v0_0 01 -- !!\n1001 v1_0 ! value has been optimized out\nstray 1002\nexit 0\n",
        )
        .unwrap();
        assert_eq!(
            t.answers[&(0x1000, "v0_0".to_string())],
            Answer::Bytes(vec![Seen::Value(1), Seen::Optimized, Seen::Error])
        );
        assert_eq!(
            t.answers[&(0x1001, "v1_0".to_string())],
            Answer::Error("value has been optimized out".into())
        );
        assert_eq!(t.stray, vec!["1002"]);
        assert_eq!(t.exit, Some(0));
        assert!(parse("1000 v0_0 0g\n").is_err());
    }
}
