//! The runner: sends each case to an implementation (the reference, or an
//! external command speaking the line protocol) and compares the answer with
//! the assertion.

use super::parse::{parse_script, Case, Env, Expect};
use crate::input::{read_file, read_line_bounded};
use crate::script::protocol::{Request, Response};
use dioptra_semantics::diag::shown;

/// The time limit of each solver query of a corpus rule. The hardest rules
/// of `corpus/rules/llvm/` take up to 8 s per query on an idle 2-core
/// machine; under load (a test binary running the corpus twice at once)
/// the 10 s of `dioptra rule` turned three of them into `unknown`, which
/// fails their case. A corpus rule states a verdict; the headroom keeps it
/// a property of the rule, not of the machine's load.
pub const CORPUS_RULE_TIMEOUT_MS: u32 = 60_000;
use dioptra_semantics::text::{parse_location, parse_type, parse_typed_literal};
use dioptra_semantics::value::literal_bits;
use num_bigint::BigUint;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// Something that answers protocol requests.
pub trait Responder {
    fn respond(&mut self, req: &Request) -> Result<Response, String>;
    /// Does this implementation check rule files (`*.rules`)? Only the
    /// reference does: rules are dioptra's own, not part of the protocol.
    fn checks_rules(&self) -> bool {
        false
    }
}

/// The reference semantics, called in process (through the same JSON
/// encoding of requests an external implementation receives, so the
/// protocol's encoding of contexts is exercised by every run).
pub struct Reference;

impl Responder for Reference {
    fn respond(&mut self, req: &Request) -> Result<Response, String> {
        let line = serde_json::to_string(req).map_err(|e| e.to_string())?;
        Ok(crate::script::protocol::answer_line(&line))
    }
    fn checks_rules(&self) -> bool {
        true
    }
}

/// An external implementation: a command reading requests on stdin and
/// writing responses on stdout, one JSON object per line.
///
/// Writes go through a thread, so a child that stops reading cannot block
/// the runner; after the first timeout or exit the implementation is
/// considered dead and the remaining cases fail at once (the run is bounded
/// by one timeout). An answer line is read up to `max_line` bytes (a longer
/// one kills the implementation: it is not buffered), and what a failure
/// quotes of an answer is cut short. The command runs in a process group of
/// its own, killed whole when the runner is done with it, so a hung
/// implementation leaves no children behind.
pub struct External {
    child: Child,
    requests: Option<Sender<String>>,
    lines: Receiver<std::io::Result<String>>,
    timeout: Duration,
    dead: Option<String>,
}

/// The longest answer line read from an implementation.
pub const MAX_ANSWER_BYTES: usize = crate::input::MAX_FILE_BYTES;

/// How much of an answer a failure quotes.
const QUOTED_CHARS: usize = 300;

impl External {
    pub fn start(cmd: &str, timeout: Duration) -> Result<External, String> {
        External::start_with(cmd, timeout, MAX_ANSWER_BYTES)
    }

    /// [`External::start`] with answer lines bounded by `max_line` bytes.
    pub fn start_with(cmd: &str, timeout: Duration, max_line: usize) -> Result<External, String> {
        use std::os::unix::process::CommandExt;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("Impl: spawn-failed: `{cmd}`: {e}"))?;
        let mut stdin: ChildStdin = child.stdin.take().ok_or("Impl: spawn-failed: no stdin")?;
        let stdout = child.stdout.take().ok_or("Impl: spawn-failed: no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            loop {
                let line = match read_line_bounded(&mut out, max_line) {
                    Ok(None) => break,
                    Ok(Some((_, true))) => Err(std::io::Error::other(format!(
                        "an answer line longer than {max_line} bytes"
                    ))),
                    Ok(Some((bytes, false))) => String::from_utf8(bytes)
                        .map_err(|_| std::io::Error::other("an answer line that is not UTF-8")),
                    Err(e) => Err(e),
                };
                let stop = line.is_err();
                if tx.send(line).is_err() || stop {
                    break;
                }
            }
        });
        let (req_tx, req_rx) = channel::<String>();
        std::thread::spawn(move || {
            for line in req_rx {
                if writeln!(stdin, "{line}")
                    .and_then(|_| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        Ok(External {
            child,
            requests: Some(req_tx),
            lines: rx,
            timeout,
            dead: None,
        })
    }
}

impl Responder for External {
    fn respond(&mut self, req: &Request) -> Result<Response, String> {
        if let Some(why) = &self.dead {
            return Err(format!("Impl: dead: {why}"));
        }
        let line = serde_json::to_string(req).map_err(|e| e.to_string())?;
        let sent = self.requests.as_ref().is_some_and(|r| r.send(line).is_ok());
        if !sent {
            self.dead = Some("the implementation stopped reading its input".into());
            return Err("Impl: write-failed: the implementation stopped reading its input".into());
        }
        let got = match self.lines.recv_timeout(self.timeout) {
            Ok(Ok(l)) => l,
            Ok(Err(e)) => {
                self.dead = Some(format!("reading its output failed: {e}"));
                return Err(format!("Impl: read-failed: {e}"));
            }
            Err(RecvTimeoutError::Timeout) => {
                // A hung implementation is killed now, children and all.
                self.kill_group();
                self.dead = Some(format!(
                    "request {} got no answer within {:?}",
                    req.id, self.timeout
                ));
                return Err(format!(
                    "Impl: timeout: no answer within {:?}",
                    self.timeout
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.dead = Some("it closed its output".into());
                return Err("Impl: exited: the implementation closed its output".to_string());
            }
        };
        let resp: Response = serde_json::from_str(&got)
            .map_err(|e| format!("Impl: bad-response: {e}: `{}`", shown(&got, QUOTED_CHARS)))?;
        if resp.id != req.id {
            self.dead = Some(format!("it answered id {} for request {}", resp.id, req.id));
            return Err(format!(
                "Impl: bad-response: answered id {} for request {}",
                resp.id, req.id
            ));
        }
        Ok(resp)
    }
}

impl External {
    /// Kills the implementation's whole process group (`kill -KILL -PGID`,
    /// the group being the child's own id: no `unsafe` signal call needed),
    /// then the child itself should the group be gone already.
    fn kill_group(&mut self) {
        self.requests = None;
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.kill_group();
    }
}

/// The request a case sends.
pub fn request(id: u64, case: &Case) -> Request {
    let (command, object, at, block_local) = match &case.expect {
        Expect::Object {
            object,
            at,
            block_local,
            ..
        } => ("locate", Some(object.clone()), Some(*at), *block_local),
        e if e.is_module() => ("module-check", None, None, false),
        Expect::Equiv { .. } => ("equiv", None, None, false),
        e if e.evaluates()
            || matches!(e, Expect::Unsupported { .. }) && matches!(case.env, Env::Ctx(_)) =>
        {
            ("eval", None, None, false)
        }
        _ => ("check", None, None, false),
    };
    let with_context = matches!(command, "eval" | "locate");
    Request {
        id,
        command: command.into(),
        expr: case.expr.clone(),
        signature: matches!(command, "check" | "equiv").then(|| case.env.signature_json()),
        context: if with_context {
            case.env.context_json()
        } else {
            None
        },
        object,
        at,
        block_local,
        target: match &case.expect {
            Expect::Equiv { target, .. } => Some(target.clone()),
            _ => None,
        },
        classic: case.classic.clone(),
    }
}

/// Does a diagnostic `Construct: reason: message` start with the expected
/// `Construct: reason` (whole components only)?
pub fn prefix_matches(diag: &str, expected: &str) -> bool {
    let e = expected.trim().trim_end_matches(':');
    diag.starts_with(e) && diag[e.len()..].starts_with(':')
}

/// Compares an answer with a case's assertion.
pub fn check_case(case: &Case, r: &Response) -> Result<(), String> {
    let got = || {
        format!(
            "got {}{}",
            r.outcome,
            r.diagnostic
                .as_ref()
                .map(|d| format!(" `{}`", shown(d.lines().next().unwrap_or(""), QUOTED_CHARS)))
                .or_else(|| {
                    r.location
                        .as_ref()
                        .map(|l| format!(" location `{}`", shown(l, QUOTED_CHARS)))
                })
                .or_else(|| {
                    r.ty.as_ref()
                        .map(|t| format!(" type `{}`", shown(t, QUOTED_CHARS)))
                })
                .unwrap_or_default()
        )
    };
    let failure = |outcome: &str, reason: &str| -> Result<(), String> {
        let d = r.diagnostic.as_deref().unwrap_or("");
        if r.outcome == outcome && prefix_matches(d, reason) {
            Ok(())
        } else {
            Err(format!("expected {outcome} `{reason}`, {}", got()))
        }
    };
    let ok = || {
        if r.outcome == "ok" {
            Ok(())
        } else {
            Err(format!("expected success, {}", got()))
        }
    };
    let same_type = |want: &str| -> Result<(), String> {
        let w = parse_type(want).map_err(|e| e.to_string())?;
        let g = r.ty.as_deref().ok_or("the answer has no type")?;
        let g = parse_type(g).map_err(|e| format!("the answer's type does not parse: {e}"))?;
        if g.same(&w) {
            Ok(())
        } else {
            Err(format!(
                "expected type `{w}`, got `{}`",
                shown(&g.to_string(), QUOTED_CHARS)
            ))
        }
    };
    match &case.expect {
        Expect::WellFormed { ty } => {
            ok()?;
            same_type(ty)
        }
        Expect::IllFormed { reason } => failure("ill-formed", reason),
        Expect::Malformed { reason } => failure("malformed", reason),
        Expect::EvalError { reason } => failure("eval-error", reason),
        Expect::Unsupported { reason } => failure("unsupported", reason),
        Expect::Location { loc, ty } => {
            ok()?;
            let dl = case.env.layout();
            let want = parse_location(loc, &dl).map_err(|e| e.to_string())?;
            let g = r.location.as_deref().ok_or("the answer has no location")?;
            let g = parse_location(g, &dl)
                .map_err(|e| format!("the answer's location does not parse: {e}"))?;
            if g != want {
                return Err(format!(
                    "expected location `{want}`, got `{}`",
                    shown(&g.to_string(), QUOTED_CHARS)
                ));
            }
            match ty {
                Some(t) => same_type(t),
                None => Ok(()),
            }
        }
        Expect::Equiv { verdict, .. } => {
            ok()?;
            match r.verdict.as_deref() {
                Some(v) if v == verdict => Ok(()),
                v => Err(format!(
                    "expected verdict {verdict}, got {}{}",
                    v.unwrap_or("none"),
                    r.diagnostic
                        .as_ref()
                        .map(|d| format!(" ({d})"))
                        .unwrap_or_default()
                )),
            }
        }
        Expect::Lowering { .. }
        | Expect::DwarfEquiv { .. }
        | Expect::ModuleLowering { .. }
        | Expect::MultiLocation { .. }
        | Expect::DwarfVariable { .. }
        | Expect::IrRecord { .. }
        | Expect::Join { .. } => Err("checked in process (check_in_process)".into()),
        Expect::ModuleWellFormed => ok(),
        Expect::ModuleMalformed { reason } => failure("malformed", reason),
        Expect::ModuleIllFormed { reason } => {
            let all: Vec<&str> = if r.diagnostics.is_empty() {
                r.diagnostic.iter().map(String::as_str).collect()
            } else {
                r.diagnostics.iter().map(String::as_str).collect()
            };
            if r.outcome == "ill-formed" && all.iter().any(|d| prefix_matches(d, reason)) {
                Ok(())
            } else {
                Err(format!(
                    "expected ill-formed `{reason}`, got {} {:?}",
                    r.outcome, all
                ))
            }
        }
        Expect::Object {
            segments,
            loc,
            value,
            error,
            ..
        } => {
            if let Some(e) = error {
                let d = r.diagnostic.as_deref().unwrap_or("");
                return if r.outcome != "ok" && prefix_matches(d, e) {
                    Ok(())
                } else {
                    Err(format!("expected the error `{e}`, {}", got()))
                };
            }
            ok()?;
            if let Some(want) = segments {
                let want: std::collections::BTreeSet<&str> = want.split_whitespace().collect();
                let have: std::collections::BTreeSet<&str> =
                    r.segments.iter().flatten().map(String::as_str).collect();
                if want != have {
                    return Err(format!("expected segments {want:?}, got {have:?}"));
                }
            }
            if let Some(l) = loc {
                let dl = case.env.layout();
                let want = parse_location(l, &dl).map_err(|e| e.to_string())?;
                let g = r.location.as_deref().ok_or("the answer has no location")?;
                let g = parse_location(g, &dl)
                    .map_err(|e| format!("the answer's location does not parse: {e}"))?;
                if g != want {
                    return Err(format!(
                        "expected location `{want}`, got `{}`",
                        shown(&g.to_string(), QUOTED_CHARS)
                    ));
                }
            }
            if let Some(v) = value {
                check_value(case, r, v)?;
            }
            Ok(())
        }
        Expect::Value { value } => {
            ok()?;
            check_value(case, r, value)
        }
    }
}

/// The answer's type is the literal's and its value the literal's bits.
fn check_value(case: &Case, r: &Response, value: &str) -> Result<(), String> {
    let (t, lit) = parse_typed_literal(value).map_err(|e| e.to_string())?;
    let g = r.ty.as_deref().ok_or("the answer has no type")?;
    let g = parse_type(g).map_err(|e| format!("the answer's type does not parse: {e}"))?;
    if !g.same(&t) {
        return Err(format!(
            "expected type `{t}`, got `{}`",
            shown(&g.to_string(), QUOTED_CHARS)
        ));
    }
    let want = literal_bits(&t, &lit, &case.env.layout())
        .map_err(|e| e.to_string())?
        .ok_or("an expected value cannot be undef")?;
    let g = r
        .value
        .as_deref()
        .ok_or_else(|| "expected a readable value, the answer has none".to_string())?;
    let g = g
        .strip_prefix("0x")
        .and_then(|h| BigUint::parse_bytes(h.as_bytes(), 16))
        .ok_or_else(|| format!("the answer's value `{g}` is not 0x-hex"))?;
    if g != *want.unsigned() {
        return Err(format!(
            "expected value 0x{}, got 0x{}",
            want.hex(),
            g.to_str_radix(16)
        ));
    }
    Ok(())
}

/// Per-case result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail(String),
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub scripts: usize,
    pub passed: usize,
    pub failed: usize,
    /// `file:line: message` for each failure and each script that did not parse.
    pub failures: Vec<String>,
    /// Every case that ran, in order (for `--json` and the register checks).
    pub cases: Vec<(Case, Outcome)>,
    /// How many of `passed` + `failed` are rules of `*.rules` files (checked
    /// by the reference only), and how many rules an external
    /// implementation skipped.
    pub rules: usize,
    pub rules_skipped: usize,
    /// DWARF cases (`assert_lowering`, `assert_dwarf_equiv`) an external
    /// implementation skipped: the reference checks them in process.
    pub in_process_skipped: usize,
}

/// The listing a lowering printed is the one expected (lines trimmed,
/// blank lines ignored).
fn same_listing(got: &str, want: &str) -> Result<(), String> {
    let norm = |s: &str| {
        s.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    if norm(got) == norm(want) {
        return Ok(());
    }
    Err(format!(
        "expected the listing\n      {}\n    got\n      {}",
        norm(want).replace('\n', "\n      "),
        got.replace('\n', "\n      ")
    ))
}

/// Checks a DWARF case in process: the lowering's listing and the law, or
/// a DWARF equivalence, or a module's location lists and the lifetime law.
/// Checks a case dioptra answers in process (not over the line protocol).
pub fn check_in_process(case: &Case) -> Result<(), String> {
    match &case.expect {
        Expect::MultiLocation {
            at,
            current,
            reason,
        } => check_multilocation(case, *at, current.as_deref(), reason.as_deref()),
        Expect::Join {
            object,
            at,
            location,
        } => check_join(case, object, *at, location),
        Expect::IrRecord {
            line,
            verdict,
            error,
            killed,
        } => check_ir_record(case, *line, verdict.as_deref(), error.as_deref(), *killed),
        Expect::DwarfVariable {
            variable,
            pc,
            loc,
            value,
            error,
            outcome,
        } => check_dwarf_variable(
            case,
            variable,
            *pc,
            [loc, value, error, outcome].map(|x| x.as_deref()),
        ),
        _ => check_dwarf_case(case),
    }
}

/// `assert_ir_record`: the verdict `dioptra ir` gives the record on a line
/// of a real module.
fn check_ir_record(
    case: &Case,
    line: u32,
    verdict: Option<&str>,
    error: Option<&str>,
    killed: Option<bool>,
) -> Result<(), String> {
    let path = Path::new(&case.file)
        .parent()
        .unwrap_or(Path::new("."))
        .join(&case.expr);
    let text = crate::input::read_file(&path, "Module").map_err(|d| d.to_string())?;
    let m = crate::ir::parse(&text).map_err(|d| d.to_string())?;
    let vs = crate::ir::dbg::check_records(&m).map_err(|d| d.to_string())?;
    let v = vs.iter().find(|v| v.line == line).ok_or(format!(
        "line {line} holds no dbg_value, dbg_declare, dbg_assign or dbg_label"
    ))?;
    if let Some(k) = killed {
        if v.killed != k {
            return Err(format!("expected killed {k}, got {}", v.killed));
        }
    }
    match (verdict, error, &v.diag) {
        (Some(w), _, _) if w == v.word() => Ok(()),
        (_, Some(p), Some(d)) if d.matches(p) => Ok(()),
        _ => Err(format!(
            "expected {}, got {}",
            verdict.or(error).unwrap_or("?"),
            v.diag
                .as_ref()
                .map_or("well-formed".to_string(), ToString::to_string)
        )),
    }
}

/// `assert_dwarf_variable`: the variable named `function::name` (or just
/// `name`, when one variable has it) of the object file at `pc` in the
/// case's context: its location, value (hex, as `dioptra dwarf` prints
/// it), diagnostic or outcome.
fn check_dwarf_variable(
    case: &Case,
    variable: &str,
    pc: u64,
    [loc, value, error, outcome]: [Option<&str>; 4],
) -> Result<(), String> {
    use crate::objfile::at::{at_pc, AtPc};
    use crate::objfile::{read, variables::variables};
    let Env::Ctx(ctx) = &case.env else {
        return Err("needs a context".into());
    };
    let path = Path::new(&case.file)
        .parent()
        .unwrap_or(Path::new("."))
        .join(&case.expr);
    let obj = read(&path).map_err(|d| d.to_string())?;
    let vars = variables(&obj).map_err(|d| d.to_string())?;
    let named: Vec<_> = vars
        .variables
        .iter()
        .filter(|v| {
            v.name == variable
                || v.function
                    .as_deref()
                    .map(|f| format!("{f}::{}", v.name))
                    .as_deref()
                    == Some(variable)
        })
        .collect();
    let [v] = named.as_slice() else {
        // A skeleton whose .dwo was not read (D-dwarf-split): `(error
        // "Dwarf: split-dwarf")` expects that.
        let unread = vars
            .units
            .iter()
            .find_map(|u| u.dwo.as_deref().zip(u.dwo_missing.as_deref()));
        if let (true, Some((d, why))) = (named.is_empty(), unread) {
            let d = dioptra_semantics::diag::Diag::unsupported(
                "Dwarf",
                "split-dwarf",
                format!("no `{variable}` here: a split-DWARF skeleton's variables are in `{d}`, not read: {why}"),
            );
            return match error {
                Some(e) if d.matches(e) => Ok(()),
                _ => Err(d.to_string()),
            };
        }
        return Err(format!(
            "{} variables are named `{variable}` in {}",
            named.len(),
            path.display()
        ));
    };
    let got = at_pc(&obj, &vars, v, pc, ctx);
    let word = match &got {
        AtPc::Located { .. } => "located",
        AtPc::Unavailable(_) => "unavailable",
        AtPc::Failed(_) => "failed",
    };
    if let Some(o) = outcome {
        if o != word {
            return Err(format!("expected {o}, got {word}: {got:?}"));
        }
    }
    // `(error ...)` names why it did not evaluate, or why its value could
    // not be read where it is.
    let failure = match &got {
        AtPc::Failed(d)
        | AtPc::Located {
            value: Some(Err(d)),
            ..
        } => Some(d),
        _ => None,
    };
    match (failure, error) {
        (Some(d), Some(e)) if d.matches(e) => {}
        (Some(d), Some(e)) => return Err(format!("expected `{e}`, got {d}")),
        (None, Some(e)) => return Err(format!("expected `{e}`, got {word}: {got:?}")),
        (Some(d), None) if matches!(got, AtPc::Failed(_)) => return Err(format!("{d}")),
        _ => {}
    }
    if let AtPc::Located {
        loc: l, value: v, ..
    } = &got
    {
        if let Some(want) = loc {
            let want = dioptra_semantics::text::parse_location(want, &ctx.layout)
                .map_err(|d| d.to_string())?;
            if &want != l {
                return Err(format!("expected location {want}, got {l}"));
            }
        }
        if let Some(want) = value {
            match v {
                Some(Ok(b)) if format!("0x{}", b.hex()) == want => {}
                other => return Err(format!("expected value {want}, got {other:?}")),
            }
        }
    } else if loc.is_some() || value.is_some() {
        return Err(format!("expected a location, got {word}: {got:?}"));
    }
    Ok(())
}

/// `assert_multilocation`: the listing's translation to lifetimes agrees
/// with the proposal at every point, and the proposal's current calls at
/// `at` are those on the lines given; or the listing is rejected for
/// `reason`.
fn check_multilocation(
    case: &Case,
    at: Option<u32>,
    current: Option<&str>,
    reason: Option<&str>,
) -> Result<(), String> {
    use dioptra_semantics::lifetime::multiloc::{agreement, current_at, parse_listing};
    let parsed = crate::ir::lifetimes::multiloc_text(&case.expr)
        .and_then(|(text, _)| parse_listing(&text))
        .and_then(|l| agreement(&l).map(|a| (l, a)));
    let (l, (_, a)) = match (parsed, reason) {
        (Err(d), Some(r)) if d.matches(r) => return Ok(()),
        (Err(d), _) => return Err(format!("{d}")),
        (Ok(_), Some(r)) => return Err(format!("expected `{r}`, the listing is accepted")),
        (Ok(x), None) => x,
    };
    if let Some((line, want, got)) = a.difference {
        return Err(format!(
            "the translation disagrees at line {line}: the proposal makes current the calls on lines {want:?}, the lifetimes those on lines {got:?}"
        ));
    }
    let (Some(at), Some(current)) = (at, current) else {
        return Err("assert_multilocation needs (at) and (current)".into());
    };
    let i = l
        .module
        .inst_at_line(at)
        .ok_or(format!("line {at} holds no instruction"))?;
    let mut got: Vec<u32> = current_at(&l, i)
        .ok_or(format!("line {at} is unreachable"))?
        .iter()
        .map(|&k| l.calls[k].line)
        .collect();
    got.sort_unstable();
    let mut want: Vec<u32> = current
        .split_whitespace()
        .map(|w| w.parse().map_err(|_| format!("`{w}`: a line number")))
        .collect::<Result<_, _>>()?;
    want.sort_unstable();
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "current at line {at}: expected the calls on lines {want:?}, got {got:?}"
        ))
    }
}

/// `assert_join`: a variable's location at a point by the join rule.
fn check_join(case: &Case, object: &str, at: u32, location: &str) -> Result<(), String> {
    use dioptra_semantics::lifetime::join::{locations, parse_listing};
    let l = parse_listing(&case.expr).map_err(|d| d.to_string())?;
    let i = l
        .module
        .inst_at_line(at)
        .ok_or(format!("line {at} holds no instruction"))?;
    let all = locations(&l);
    let here = all[i].as_ref().ok_or(format!("line {at} is unreachable"))?;
    let got = here
        .get(object)
        .ok_or(format!("no llvm.dbg.value names `{object}`"))?
        .clone()
        .unwrap_or_else(|| "undef".into());
    if got == location {
        Ok(())
    } else {
        Err(format!(
            "{object} at line {at}: expected `{location}`, got `{got}`"
        ))
    }
}

pub fn check_dwarf_case(case: &Case) -> Result<(), String> {
    use crate::lower::compare::{compare_many, dwarf_equiv, parse_dwarf};
    use crate::lower::{lower, Target};
    use dioptra_semantics::dwarf::Encoding;
    let Env::Ctx(ctx) = &case.env else {
        return Err("a DWARF case needs (in CONTEXT)".into());
    };
    let enc = Encoding::default();
    if let Expect::ModuleLowering {
        target,
        listing,
        reason,
        proof,
    } = &case.expect
    {
        use crate::lower::loclist::{compare_module, lower_module};
        let m = dioptra_semantics::lifetime::parse_module(&case.expr).map_err(|d| d.to_string())?;
        let t = Target::parse(target).ok_or("bad target")?;
        return match (lower_module(&m, ctx, t), listing, reason) {
            (Ok(l), _, Some(r)) => match l.not_expressible.values().find(|d| d.matches(r)) {
                Some(_) => Ok(()),
                None => Err(format!(
                    "expected `{r}`, got {:?} and the listing {}",
                    l.not_expressible
                        .values()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>(),
                    l.unit.lines(enc).join("\n")
                )),
            },
            (Ok(l), Some(_), _) if !l.not_expressible.is_empty() => Err(format!(
                "expected a listing, got {:?}",
                l.not_expressible
                    .values()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
            )),
            (Ok(l), Some(want), _) => {
                same_listing(&l.unit.lines(enc).join("\n"), want)?;
                let (tally, first) =
                    compare_module(&m, &l, ctx, 16, case.line as u64).map_err(|d| d.to_string())?;
                match first {
                    None if tally.compared() > 0 => {}
                    None => {
                        return Err(format!(
                            "the lifetime law compared nothing: {}",
                            tally.summary()
                        ))
                    }
                    Some(f) => return Err(format!("the lifetime law fails: {f}")),
                }
                if proof.is_none() {
                    return Ok(());
                }
                use crate::lower::prove::Proof;
                let proofs = crate::lower::loclist::prove_segments(
                    &m,
                    &l,
                    ctx,
                    t,
                    dioptra_semantics::smt::DEFAULT_TIMEOUT_MS,
                );
                let mut proven = 0;
                for p in &proofs {
                    match &p.proof {
                        Ok(Proof::Proven) => proven += 1,
                        Ok(Proof::Refines(_)) => {}
                        Err(d) if d.reason == "calls-a-list" => {}
                        other => {
                            return Err(format!(
                                "segment `{}` of `{}`: expected proven, got {}",
                                p.lifetime,
                                p.object,
                                match other {
                                    Ok(x) => format!(
                                        "{}{}",
                                        x.word(),
                                        x.counterexample()
                                            .map(|c| format!(": {}", c.agreement.describe()))
                                            .unwrap_or_default()
                                    ),
                                    Err(d) => d.to_string(),
                                }
                            ))
                        }
                    }
                }
                if proven == 0 {
                    return Err("no segment's entry was proven".into());
                }
                Ok(())
            }
            (Err(d), _, Some(r)) if d.matches(r) => Ok(()),
            (Err(d), _, _) => Err(format!("got `{d}`")),
            (Ok(_), None, None) => Err("nothing expected".into()),
        };
    }
    // A classic expression is lowered through its (proven) DIOp translation.
    let p = case
        .classic
        .clone()
        .unwrap_or_default()
        .params()
        .map_err(|d| d.to_string())?;
    let expr = dioptra_semantics::classic::any::parse_any(&case.expr)
        .and_then(|e| e.to_diop(&dioptra_semantics::context::Context::signature(&**ctx), &p))
        .map_err(|d| d.to_string())?;
    match &case.expect {
        Expect::Lowering {
            target,
            listing,
            reason,
            proof,
        } => {
            let t = Target::parse(target).ok_or("bad target")?;
            match (lower(&expr, &**ctx, t), listing, reason) {
                (Ok(l), Some(want), _) => {
                    same_listing(&l.listing.print(enc), want)?;
                    let tally = compare_many(&expr, &l, ctx, enc, 16, case.line as u64);
                    if let Some((c, a)) = tally.first_difference {
                        return Err(format!(
                            "the lowering law fails: {}\n{}",
                            a.describe(),
                            c.to_script("cex")
                        ));
                    }
                    expect_proof(&expr, &l, ctx, enc, proof.as_deref())
                }
                (Ok(l), None, Some(r)) => Err(format!(
                    "expected `{r}`, got the listing {}",
                    l.listing.print(enc)
                )),
                (Err(d), _, Some(r)) if d.matches(r) => Ok(()),
                (Err(d), _, _) => Err(format!(
                    "{}, got `{d}`",
                    listing
                        .as_ref()
                        .map(|_| "expected a listing".to_string())
                        .unwrap_or_else(|| format!(
                            "expected `{}`",
                            reason.as_deref().unwrap_or("")
                        ))
                )),
                (Ok(_), None, None) => Err("nothing expected".into()),
            }
        }
        Expect::DwarfEquiv {
            dwarf,
            verdict,
            proof,
        } => {
            let listing = parse_dwarf(dwarf, enc).map_err(|d| d.to_string())?;
            let t = dwarf_equiv(&expr, listing.clone(), ctx, enc, 64, case.line as u64)
                .map_err(|d| d.to_string())?;
            let got = t.verdict().word();
            if got == verdict {
                let l = crate::lower::compare::described(&expr, &**ctx, listing)
                    .map_err(|d| d.to_string())?;
                expect_proof(&expr, &l, ctx, enc, proof.as_deref())
            } else {
                Err(format!(
                    "expected {verdict}, got {got}: {}{}",
                    t.summary(),
                    t.first_difference
                        .map(|(c, a)| format!("\n{}\n{}", a.describe(), c.to_script("cex")))
                        .unwrap_or_default()
                ))
            }
        }
        _ => Err("not a DWARF case".into()),
    }
}

/// Checks what the prover concludes about `l` when a case asks for it.
fn expect_proof(
    expr: &dioptra_semantics::syntax::Expr,
    l: &crate::lower::Lowered,
    ctx: &dioptra_semantics::context::ConcreteContext,
    enc: dioptra_semantics::dwarf::Encoding,
    want: Option<&str>,
) -> Result<(), String> {
    let Some(want) = want else { return Ok(()) };
    let p = crate::lower::prove::prove(
        expr,
        l,
        ctx,
        enc,
        dioptra_semantics::smt::DEFAULT_TIMEOUT_MS,
    )
    .map_err(|d| format!("expected the proof `{want}`, got `{d}`"))?;
    if p.proof.word() == want {
        return Ok(());
    }
    Err(format!(
        "expected the proof `{want}`, got `{}`{}",
        p.proof.word(),
        match &p.proof {
            crate::lower::prove::Proof::Unknown(r) => format!(": {r}"),
            other => other
                .counterexample()
                .map(|c| format!(
                    ": {}\n{}",
                    c.agreement.describe(),
                    c.context.to_script("cex")
                ))
                .unwrap_or_default(),
        }
    ))
}

/// Every `*.dioptra` file under `path` (or `path` itself), sorted.
pub fn script_files(path: &Path) -> Vec<PathBuf> {
    files_with(path, "dioptra")
}

/// A case whose subject is a DIOp expression evaluated in a context.
pub struct InContext {
    pub case: Case,
    pub expr: dioptra_semantics::syntax::Expr,
    pub context: dioptra_semantics::context::ConcreteContext,
}

/// Every case of the scripts under `path` whose expression is a DIOp
/// expression in a context (not a module listing; the text parses): what
/// the laws on the whole corpus run over. A script that cannot be read or
/// parsed is an error.
pub fn expressions_in_contexts(path: &Path) -> Result<Vec<InContext>, String> {
    let mut out = Vec::new();
    for f in script_files(path) {
        let name = f.display().to_string();
        let text = read_file(&f, "Script").map_err(|d| d.to_string())?;
        let script = parse_script(&name, &text).map_err(|d| d.to_string())?;
        for case in script.cases {
            let Env::Ctx(ctx) = &case.env else { continue };
            if case.expect.is_module() {
                continue;
            }
            let Ok(expr) = dioptra_semantics::text::parse_expr(&case.expr) else {
                continue;
            };
            let context = (**ctx).clone();
            out.push(InContext {
                case,
                expr,
                context,
            });
        }
    }
    Ok(out)
}

/// Every `*.rules` file under `path` (or `path` itself), sorted.
pub fn rule_files(path: &Path) -> Vec<PathBuf> {
    files_with(path, "rules")
}

fn files_with(path: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if path.is_dir() {
        let mut stack = vec![path.to_path_buf()];
        while let Some(d) = stack.pop() {
            if let Ok(rd) = std::fs::read_dir(&d) {
                for e in rd.flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == ext) {
                        out.push(p);
                    }
                }
            }
        }
    } else if (ext == "rules") == path.extension().is_some_and(|x| x == "rules") {
        out.push(path.to_path_buf());
    }
    out.sort();
    out
}

/// Checks the rules of a `*.rules` file: each passes when its verdict is
/// the one the file expects (`expect invalid`, valid by default).
fn run_rules(f: &Path, s: &mut Summary) {
    use crate::rules::{check_rule, parse_rules, Expected};
    let name = f.display().to_string();
    let rules = match read_file(f, "Rule").and_then(|t| parse_rules(&name, &t)) {
        Ok(r) => r,
        Err(m) => {
            s.failed += 1;
            s.failures.push(m.to_string());
            return;
        }
    };
    s.scripts += 1;
    for r in &rules {
        s.rules += 1;
        let want = match r.expect {
            Expected::Valid => "valid",
            Expected::Invalid => "invalid",
        };
        match check_rule(r, CORPUS_RULE_TIMEOUT_MS, 2) {
            Ok(rep) if rep.verdict == want => s.passed += 1,
            Ok(rep) => {
                s.failed += 1;
                s.failures.push(format!(
                    "{name}:{}: rule {}: expected {want}, got {}: {}",
                    r.line,
                    r.name,
                    rep.verdict,
                    rep.detail
                        .as_deref()
                        .unwrap_or("")
                        .lines()
                        .next()
                        .unwrap_or("")
                ));
            }
            Err(d) => {
                s.failed += 1;
                s.failures
                    .push(format!("{name}:{}: rule {}: {d}", r.line, r.name));
            }
        }
    }
}

/// Runs every script under `paths` against `imp`.
pub fn run_files(paths: &[PathBuf], imp: &mut dyn Responder) -> Summary {
    let mut s = Summary::default();
    let mut id = 0;
    for root in paths {
        let files = script_files(root);
        let rules = rule_files(root);
        if imp.checks_rules() {
            for f in &rules {
                run_rules(f, &mut s);
            }
        } else {
            for f in &rules {
                if let Ok(t) = read_file(f, "Rule") {
                    s.rules_skipped += t
                        .lines()
                        .filter(|l| l.trim_start().starts_with("rule "))
                        .count();
                }
            }
        }
        if files.is_empty() && rules.is_empty() {
            s.failed += 1;
            s.failures.push(format!(
                "{}: Script: not-found: no .dioptra files",
                root.display()
            ));
        }
        for f in files {
            let name = f.display().to_string();
            let text = match read_file(&f, "Script") {
                Ok(t) => t,
                Err(d) => {
                    s.failed += 1;
                    s.failures.push(d.to_string());
                    continue;
                }
            };
            let script = match parse_script(&name, &text) {
                Ok(sc) => sc,
                Err(e) => {
                    s.failed += 1;
                    s.failures.push(e.to_string());
                    continue;
                }
            };
            s.scripts += 1;
            for case in script.cases {
                id += 1;
                let res = if case.expect.in_process() {
                    if !imp.checks_rules() {
                        s.in_process_skipped += 1;
                        continue;
                    }
                    check_in_process(&case)
                } else {
                    imp.respond(&request(id, &case))
                        .and_then(|r| check_case(&case, &r))
                };
                let outcome = match res {
                    Ok(()) => {
                        s.passed += 1;
                        Outcome::Pass
                    }
                    Err(m) => {
                        s.failed += 1;
                        s.failures.push(format!(
                            "{}:{}: {m}\n    expr: {}",
                            case.file, case.line, case.expr
                        ));
                        Outcome::Fail(m)
                    }
                };
                s.cases.push((case, outcome));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_match_whole_components() {
        assert!(prefix_matches(
            "DIOpAdd: type-mismatch: x",
            "DIOpAdd: type-mismatch"
        ));
        assert!(prefix_matches("DIOpAdd: type-mismatch: x", "DIOpAdd"));
        assert!(!prefix_matches(
            "DIOpAdd: type-mismatch: x",
            "DIOpAdd: type"
        ));
        assert!(!prefix_matches("DIOpAddX: y: x", "DIOpAdd"));
    }
}
