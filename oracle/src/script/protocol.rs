//! The line protocol that drives an implementation case by case, and the
//! reference implementation's answers.
//!
//! `dioptra run PATH --impl CMD` starts `CMD` once, writes one JSON request
//! per line to its standard input and reads one JSON response per line from
//! its standard output. `dioptra serve` is the reference speaking the same
//! protocol (corpus/README.md documents it; this module is its definition).
//!
//! Request:
//! ```json
//! {"id": 1, "command": "check", "expr": "...", "signature": {"layout": "e-p5:32:32", "referrer": "i32", "args": ["i64"], "typeobject": null, "simt": true}}
//! {"id": 2, "command": "eval",  "expr": "...", "context": {"layout": "e-p5:32:32", "memory": [{"addrspace": 5, "address": 256, "bytes": "01 02 ?? 04"}], "registers": [{"number": 3, "bytes": "05 00 00 00"}], "referrer": {"type": "i32", "location": "reg(3)"}, "args": [], "typeobject": null, "lane": null}}
//! ```
//! Response:
//! ```json
//! {"id": 1, "outcome": "ok", "type": "i32"}
//! {"id": 2, "outcome": "eval-error", "diagnostic": "DIOpRead: undefined-bits: ..."}
//! {"id": 2, "outcome": "ok", "type": "i32", "location": "imp(32, 0x0000000a)", "value": "0x0000000a"}
//! ```
//! `module-check` (the listing in `expr`) answers `ok` or the first
//! diagnostic, with all of them in `diagnostics`; `locate` (listing, context,
//! `object`, `at` = listing line, `block_local`) answers like `eval` plus the
//! `segments` used.
//!
//! A classic expression (`!DIExpression(DW_OP_...)`) may carry
//! `"classic": {"intrinsic": "declare", "high": "sign", "variable": "i8"}`.
//!
//! `outcome` is one of `ok`, `malformed`, `ill-formed`, `eval-error`,
//! `unsupported`. For `eval`, `value` is the hex of `read(L, T)` of the result
//! (most significant digit first, `ceil(bits / 4)` digits) or `null` when the
//! result cannot be read.

use crate::equiv::classic::prove_any;
use dioptra_semantics::classic::any::parse_any;
use dioptra_semantics::classic::Params;
use dioptra_semantics::context::{ConcreteContext, Context, Input, Signature};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::lifetime::locate::Analysis;
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::lifetime::wellformed::check_module;
use dioptra_semantics::location::read;
use dioptra_semantics::text::parse_type;
use dioptra_semantics::types::DataLayout;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Request {
    pub id: u64,
    /// `check`, `eval`, `module-check` or `locate`.
    pub command: String,
    /// The expression text, or for `module-check` / `locate` the listing.
    pub expr: String,
    /// `locate`: the object (`!1`), the listing line of the program point,
    /// and whether defs are block-local (after LiveDebugValues).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub block_local: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<SignatureJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextJson>,
    /// `equiv`: the target expression (`expr` is the source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The parameters of a classic `!DIExpression(DW_OP_...)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classic: Option<ClassicJson>,
}

/// The parameters of a classic expression's meaning: `"intrinsic"`
/// (`value`, `declare`), `"high"` (`zero`, `sign`, `any`), `"variable"` (an
/// LLVM type); each optional (`value`, `zero`, the result's own type).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct ClassicJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intrinsic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
}

impl ClassicJson {
    pub fn params(&self) -> Result<Params, Diag> {
        Params::from_words(
            self.intrinsic.as_deref(),
            self.high.as_deref(),
            self.variable.as_deref(),
        )
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct SignatureJson {
    pub layout: String,
    /// Named struct types (`%s = type { i8, i32 }`), when there are any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    pub referrer: Option<String>,
    pub args: Vec<String>,
    pub typeobject: Option<String>,
    pub simt: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TypedLocJson {
    #[serde(rename = "type")]
    pub ty: String,
    pub location: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MemoryJson {
    pub addrspace: u32,
    pub address: u64,
    pub bytes: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RegisterJson {
    pub number: u32,
    pub bytes: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct ContextJson {
    pub layout: String,
    /// Named struct types (`%s = type { i8, i32 }`), when there are any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    pub memory: Vec<MemoryJson>,
    pub registers: Vec<RegisterJson>,
    pub referrer: Option<TypedLocJson>,
    pub args: Vec<TypedLocJson>,
    pub typeobject: Option<TypedLocJson>,
    pub lane: Option<u64>,
    /// LLVM entity name to location text (lifetimes).
    #[serde(default)]
    pub bindings: std::collections::BTreeMap<String, String>,
    /// The machine state on entry to the function (entry values), when the
    /// case gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<EntryJson>,
}

/// The registers and memory on entry to the function.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct EntryJson {
    pub memory: Vec<MemoryJson>,
    pub registers: Vec<RegisterJson>,
}

fn memory_json(c: &ConcreteContext) -> Vec<MemoryJson> {
    c.memory
        .iter()
        .map(|(&(a, s), b)| MemoryJson {
            addrspace: a,
            address: s,
            bytes: bytes_text(b),
        })
        .collect()
}

fn registers_json(c: &ConcreteContext) -> Vec<RegisterJson> {
    c.registers
        .iter()
        .map(|(&n, b)| RegisterJson {
            number: n,
            bytes: bytes_text(b),
        })
        .collect()
}

/// `(memory ...)` and `(register ...)` clauses.
fn state_clauses(memory: &[MemoryJson], registers: &[RegisterJson]) -> String {
    let q = |s: &str| format!("{s:?}");
    let mut text = String::new();
    for m in memory {
        text += &format!(" (memory {} {} {})", m.addrspace, m.address, q(&m.bytes));
    }
    for r in registers {
        text += &format!(" (register {} {})", r.number, q(&r.bytes));
    }
    text
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Response {
    pub id: u64,
    pub outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostic: Option<String>,
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `module-check`: every diagnostic; `locate`: the segments used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segments: Option<Vec<String>>,
    /// `equiv`: `equivalent`, `refines`, `not-equivalent` or `unknown`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// `equiv`: the confirmed counterexample as corpus cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<String>,
}

fn bytes_text(b: &[Option<u8>]) -> String {
    b.iter()
        .map(|x| x.map(|v| format!("{v:02x}")).unwrap_or_else(|| "??".into()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn input_json(i: &Input) -> TypedLocJson {
    TypedLocJson {
        ty: i.ty.to_string(),
        location: i.loc.to_string(),
    }
}

impl SignatureJson {
    pub fn from_signature(s: &Signature) -> SignatureJson {
        SignatureJson {
            layout: s.layout.to_layout_string(),
            types: s.layout.type_definitions(),
            referrer: s.referrer.as_ref().map(ToString::to_string),
            args: s.args.iter().map(ToString::to_string).collect(),
            typeobject: s.type_object.as_ref().map(ToString::to_string),
            simt: s.simt,
        }
    }
    pub fn to_signature(&self) -> Result<Signature, Diag> {
        let mut layout = DataLayout::parse(&self.layout)?;
        for d in &self.types {
            layout.define_types(d)?;
        }
        Ok(Signature {
            layout,
            referrer: self.referrer.as_deref().map(parse_type).transpose()?,
            args: self
                .args
                .iter()
                .map(|a| parse_type(a))
                .collect::<Result<_, _>>()?,
            type_object: self.typeobject.as_deref().map(parse_type).transpose()?,
            simt: self.simt,
        })
    }
}

impl ContextJson {
    pub fn from_context(c: &ConcreteContext) -> ContextJson {
        ContextJson {
            layout: c.layout.to_layout_string(),
            types: c.layout.type_definitions(),
            memory: memory_json(c),
            registers: registers_json(c),
            entry: c.entry.as_deref().map(|e| EntryJson {
                memory: memory_json(e),
                registers: registers_json(e),
            }),
            referrer: c.referrer.as_ref().map(input_json),
            args: c.args.iter().map(input_json).collect(),
            typeobject: c.type_object.as_ref().map(input_json),
            lane: c.lane,
            bindings: c
                .bindings
                .iter()
                .map(|(k, v)| (k.clone(), v.to_string()))
                .collect(),
        }
    }

    /// Rebuilds the context through the context-file syntax, so both paths
    /// share one validation.
    pub fn to_context(&self) -> Result<ConcreteContext, Diag> {
        let q = |s: &str| format!("{s:?}");
        let mut text = format!("(context (layout {})", q(&self.layout));
        if !self.types.is_empty() {
            let defs: Vec<String> = self.types.iter().map(|d| q(d)).collect();
            text += &format!(" (types {})", defs.join(" "));
        }
        text += &state_clauses(&self.memory, &self.registers);
        if let Some(e) = &self.entry {
            text += &format!(" (entry{})", state_clauses(&e.memory, &e.registers));
        }
        let tl = |k: &str, t: &TypedLocJson| format!(" ({k} {} {})", q(&t.ty), q(&t.location));
        if let Some(r) = &self.referrer {
            text += &tl("referrer", r);
        }
        for a in &self.args {
            text += &tl("arg", a);
        }
        if let Some(t) = &self.typeobject {
            text += &tl("typeobject", t);
        }
        if let Some(l) = self.lane {
            text += &format!(" (lane {l})");
        }
        for (k, v) in &self.bindings {
            text += &format!(" (bind {} {})", q(k), q(v));
        }
        text += ")";
        ConcreteContext::parse(&text)
    }
}

fn failure(id: u64, d: &Diag) -> Response {
    Response {
        id,
        outcome: d.outcome.word().to_string(),
        diagnostic: Some(d.to_string()),
        ..Response::default()
    }
}

/// The reference's answer to `check`.
pub fn answer_check(id: u64, expr: &str, sig: &Signature, p: &Params) -> Response {
    let e = match parse_any(expr) {
        Ok(e) => e,
        Err(d) => return failure(id, &d),
    };
    match e.check(sig, p) {
        Ok((ty, _)) => Response {
            id,
            outcome: "ok".into(),
            ty: Some(ty.to_string()),
            ..Response::default()
        },
        Err(d) => failure(id, &d),
    }
}

/// The reference's answer to `eval`.
pub fn answer_eval(id: u64, expr: &str, ctx: &ConcreteContext, p: &Params) -> Response {
    let e = match parse_any(expr) {
        Ok(e) => e,
        Err(d) => return failure(id, &d),
    };
    match e.eval(ctx, p) {
        Ok(r) => Response {
            id,
            outcome: "ok".into(),
            ty: Some(r.ty.to_string()),
            location: Some(r.loc.to_string()),
            value: r
                .value(ctx as &dyn Context)
                .ok()
                .map(|b| format!("0x{}", b.hex())),
            ..Response::default()
        },
        Err(d) => failure(id, &d),
    }
}

/// The reference's answer to `module-check`.
pub fn answer_module_check(id: u64, text: &str) -> Response {
    let m = match crate::ir::lifetimes::read(text) {
        Ok(lt) => lt.module,
        Err(d) => return failure(id, &d),
    };
    let ds = check_module(&m);
    match ds.first() {
        None => Response {
            id,
            outcome: "ok".into(),
            ..Response::default()
        },
        Some(d) => Response {
            diagnostics: ds.iter().map(ToString::to_string).collect(),
            ..failure(id, d)
        },
    }
}

/// The reference's answer to `locate`: the object's location at the
/// instruction on listing line `at`.
pub fn answer_locate(
    id: u64,
    text: &str,
    ctx: &ConcreteContext,
    object: &str,
    at: u32,
    block_local: bool,
) -> Response {
    // A compiler's module is read as `dioptra lifetimes` reads it; lines
    // are the file's (D-ir-detect).
    let lt = match crate::ir::lifetimes::read(text) {
        Ok(lt) => lt,
        Err(d) => return failure(id, &d),
    };
    let m = &lt.module;
    if let Some(d) = check_module(m).first() {
        return failure(id, d);
    }
    // Line 0 is a program point outside every function: no bounded segment
    // is active there (global variables exist for the whole program).
    let point = match at {
        0 => usize::MAX,
        _ => match lt.inst_at_line(at) {
            Some(p) => p,
            None => {
                return failure(
                    id,
                    &Diag::malformed(
                        "Lifetimes",
                        "no-instruction",
                        format!("line {at} holds no instruction"),
                    ),
                )
            }
        },
    };
    let reading = if block_local {
        Reading::BlockLocal
    } else {
        Reading::ControlFlow
    };
    let a = Analysis::new(m, reading);
    match a.locate(ctx, object, point) {
        Ok(l) => {
            let value =
                l.ty.as_ref()
                    .and_then(|t| read(ctx, &l.loc, ctx.layout.bitsizeof(t)).ok());
            Response {
                id,
                outcome: "ok".into(),
                ty: l.ty.as_ref().map(ToString::to_string),
                location: Some(l.loc.to_string()),
                value: value.map(|b| format!("0x{}", b.hex())),
                segments: Some(l.segments),
                ..Response::default()
            }
        }
        Err(d) => failure(id, &d),
    }
}

/// `equiv`: the verdict of the SMT equivalence prover, with the default
/// time limit per query.
pub fn answer_equiv(id: u64, source: &str, target: &str, sig: &Signature, p: &Params) -> Response {
    use crate::equiv::{counterexample_script, Verdict};
    let proved = parse_any(source).and_then(|s| {
        let t = parse_any(target)?;
        prove_any(&s, &t, sig, p, dioptra_semantics::smt::DEFAULT_TIMEOUT_MS)
    });
    match proved {
        Ok(p) => Response {
            id,
            outcome: "ok".into(),
            verdict: Some(p.verdict.word().into()),
            counterexample: match &p.verdict {
                Verdict::Refines(c) | Verdict::NotEquivalent(c) => {
                    Some(counterexample_script(c, source, target))
                }
                _ => None,
            },
            diagnostic: match &p.verdict {
                Verdict::Different(w) | Verdict::Unknown(w) => Some(w.clone()),
                _ => None,
            },
            ..Response::default()
        },
        Err(d) => failure(id, &d),
    }
}

/// Answers one request line as the reference implementation.
pub fn answer_line(line: &str) -> Response {
    let req: Request = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => {
            return failure(
                request_id(line),
                &Diag::malformed("Protocol", "bad-request", e.to_string()),
            );
        }
    };
    let p = match req.classic.clone().unwrap_or_default().params() {
        Ok(p) => p,
        Err(d) => return failure(req.id, &d),
    };
    match req.command.as_str() {
        "check" => match req.signature.unwrap_or_default().to_signature() {
            Ok(sig) => answer_check(req.id, &req.expr, &sig, &p),
            Err(d) => failure(req.id, &d),
        },
        "eval" => match req.context.unwrap_or_default().to_context() {
            Ok(ctx) => answer_eval(req.id, &req.expr, &ctx, &p),
            Err(d) => failure(req.id, &d),
        },
        "module-check" => answer_module_check(req.id, &req.expr),
        "equiv" => match (req.signature.unwrap_or_default().to_signature(), req.target) {
            (Ok(sig), Some(t)) => answer_equiv(req.id, &req.expr, &t, &sig, &p),
            (Err(d), _) => failure(req.id, &d),
            (_, None) => failure(
                req.id,
                &Diag::malformed("Protocol", "bad-request", "equiv needs target"),
            ),
        },
        "locate" => match (
            req.context.unwrap_or_default().to_context(),
            req.object,
            req.at,
        ) {
            (Ok(ctx), Some(o), Some(at)) => {
                answer_locate(req.id, &req.expr, &ctx, &o, at, req.block_local)
            }
            (Err(d), _, _) => failure(req.id, &d),
            _ => failure(
                req.id,
                &Diag::malformed("Protocol", "bad-request", "locate needs object and at"),
            ),
        },
        other => failure(
            req.id,
            &Diag::malformed("Protocol", "unknown-command", format!("`{other}`")),
        ),
    }
}

/// The id of a line that is not a request, where one can be read: the
/// `"id"` of its JSON object, or the number after the first `"id":` of
/// text that is not JSON at all; 0 when there is none.
pub fn request_id(line: &str) -> u64 {
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
        return v.get("id").and_then(|i| i.as_u64()).unwrap_or(0);
    }
    let Some(k) = line.find("\"id\"") else {
        return 0;
    };
    let rest = line[k + 4..].trim_start();
    let Some(rest) = rest.strip_prefix(':') else {
        return 0;
    };
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .take(20)
        .collect();
    digits.parse().unwrap_or(0)
}

/// The longest request line `dioptra serve` reads.
pub const MAX_REQUEST_BYTES: usize = dioptra_semantics::limits::MAX_INPUT_BYTES;

/// The answer to one line of bytes as `dioptra serve` reads it: a line that
/// is not UTF-8, or longer than [`MAX_REQUEST_BYTES`] (`cut`: the rest of it
/// was not read), is a `malformed` answer with the id that can be read.
pub fn answer_bytes(line: &[u8], cut: bool) -> Response {
    let text = String::from_utf8_lossy(line);
    if cut {
        return failure(
            request_id(&text),
            &Diag::malformed(
                "Protocol",
                "too-large",
                format!("a request line longer than {MAX_REQUEST_BYTES} bytes"),
            ),
        );
    }
    match std::str::from_utf8(line) {
        Ok(t) => answer_line(t),
        Err(e) => failure(
            request_id(&text),
            &Diag::malformed("Protocol", "not-utf8", e.to_string()),
        ),
    }
}
