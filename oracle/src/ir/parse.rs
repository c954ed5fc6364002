//! The module grammar: top-level entities, function bodies, metadata.
//!
//! Entities end where LLVM's printer ends them: at the end of a line whose
//! brackets balance (a `define` at its closing `}`; a `landingpad`'s clauses
//! continue it on the lines after). Within an entity the grammar is read as
//! far as meaning needs it: metadata to every field, a debug record to each
//! operand, a terminator to its `label` operands; the rest of an
//! instruction is kept as text.

use super::lex::{tokens, Kind, Tok, Token};
use super::*;
use dioptra_semantics::diag::Diag;
use dioptra_semantics::limits::MAX_INPUT_BYTES;

/// The deepest metadata nesting read (`!{!{!{...}}}` written in place).
pub const MAX_MD_DEPTH: usize = 64;

/// Terminators: the instructions that end a block.
const TERMINATORS: &[&str] = &[
    "ret",
    "br",
    "switch",
    "indirectbr",
    "invoke",
    "callbr",
    "resume",
    "unreachable",
    "cleanupret",
    "catchret",
    "catchswitch",
];

/// Words that begin a type.
fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "void"
            | "ptr"
            | "half"
            | "bfloat"
            | "float"
            | "double"
            | "x86_fp80"
            | "fp128"
            | "ppc_fp128"
            | "label"
            | "metadata"
            | "token"
            | "x86_mmx"
            | "x86_amx"
            | "opaque"
    ) || (w.len() > 1 && w.starts_with('i') && w[1..].bytes().all(|c| c.is_ascii_digit()))
}

struct P<'s> {
    src: &'s str,
    t: Vec<Token>,
    /// Records whose location is a metadata reference (`metadata !985`),
    /// with the reference's token: resolved once every node is read (a
    /// node may be defined after its use).
    location_refs: std::cell::RefCell<Vec<(String, usize)>>,
}

fn mal(reason: &'static str, line: u32, col: u32, msg: impl Into<String>) -> Diag {
    Diag::malformed(
        "Module",
        reason,
        format!("line {line}, column {col}: {}", msg.into()),
    )
}

fn show(t: &Tok) -> String {
    match t {
        Tok::Local(n) => format!("%{n}"),
        Tok::Global(n) => format!("@{n}"),
        Tok::Meta(n) => format!("!{n}"),
        Tok::MetaStr(s) => format!("!\"{s}\""),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Key(k) => format!("{k}:"),
        Tok::Num(n) | Tok::Word(n) => n.to_string(),
        Tok::Punct(c) => c.to_string(),
    }
}

impl<'s> P<'s> {
    /// Token `i` with its text (a quoted one decoded).
    fn tok(&self, i: usize) -> Option<Tok<'s>> {
        self.t.get(i).map(|t| t.tok(self.src))
    }
    /// Token `i`'s punctuation character, if it is one: what the bracket
    /// scans ask, without reading any text.
    fn punct(&self, i: usize) -> Option<char> {
        match self.t.get(i)?.kind {
            Kind::Punct(c) => Some(char::from(c)),
            _ => None,
        }
    }
    fn is_punct(&self, i: usize, c: char) -> bool {
        self.punct(i) == Some(c)
    }
    fn is_word(&self, i: usize, w: &str) -> bool {
        self.t.get(i).is_some_and(|t| {
            t.kind == Kind::Word && &self.src[t.start as usize..t.end as usize] == w
        })
    }
    fn err_at(&self, i: usize, reason: &'static str, msg: impl Into<String>) -> Diag {
        match self.t.get(i).or(self.t.last()) {
            Some(t) => mal(reason, t.line, t.col(self.src), msg),
            None => Diag::malformed("Module", reason, msg.into()),
        }
    }
    /// Tokens `a..b` as written, on one line: a single space wherever the
    /// source had whitespace or a comment between two tokens.
    fn text(&self, a: usize, b: usize) -> String {
        let mut s = String::new();
        for k in a..b {
            if k > a && self.t[k].start > self.t[k - 1].end {
                s.push(' ');
            }
            s.push_str(&self.src[self.t[k].start as usize..self.t[k].end as usize]);
        }
        s
    }
    /// The end of the entity or instruction starting at `a`: the first
    /// token past a line end at bracket depth 0 (`{` closing at depth 0
    /// included, so a `define` runs to its `}`).
    fn statement_end(&self, a: usize) -> Result<usize, Diag> {
        let mut depth = 0i64;
        let mut k = a;
        let landingpad =
            |p: &Self, from: usize, to: usize| (from..to).any(|j| p.is_word(j, "landingpad"));
        while k < self.t.len() {
            match self.punct(k) {
                Some('(' | '[' | '{') => depth += 1,
                Some(')' | ']' | '}') => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(self.err_at(
                            k,
                            "unbalanced",
                            "a closing bracket closes nothing",
                        ));
                    }
                }
                _ => {}
            }
            k += 1;
            let next_line = self.t.get(k).map(|n| n.line > self.t[k - 1].line);
            if depth == 0 && next_line != Some(false) {
                // Continuation lines as LLVM prints them: an invoke's or a
                // callbr's `to label ...`, a landingpad's clauses.
                let to = self.is_word(k, "to");
                let clause = self.is_word(k, "cleanup")
                    || self.is_word(k, "catch")
                    || self.is_word(k, "filter");
                if !(to || (clause && landingpad(self, a, k))) {
                    return Ok(k);
                }
            }
        }
        Err(self.err_at(a, "unbalanced", "the brackets opened here are never closed"))
    }
    /// The matching close of the bracket at `open` (`(`, `[`, `{`, `<`).
    fn close_of(&self, open: usize) -> Result<usize, Diag> {
        let (o, c) = match self.punct(open) {
            Some('(') => ('(', ')'),
            Some('[') => ('[', ']'),
            Some('{') => ('{', '}'),
            Some('<') => ('<', '>'),
            _ => return Err(self.err_at(open, "expected-bracket", "a bracket was expected")),
        };
        let mut d = 0usize;
        for k in open..self.t.len() {
            if self.is_punct(k, o) {
                d += 1;
            } else if self.is_punct(k, c) {
                d -= 1;
                if d == 0 {
                    return Ok(k);
                }
            }
        }
        Err(self.err_at(open, "unbalanced", format!("`{o}` is never closed")))
    }
    /// Splits `a..b` at the commas outside brackets.
    fn split_commas(&self, a: usize, b: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let (mut d, mut s) = (0i64, a);
        for k in a..b {
            match self.punct(k) {
                Some('(' | '[' | '{' | '<') => d += 1,
                Some(')' | ']' | '}' | '>') => d -= 1,
                Some(',') if d == 0 => {
                    out.push((s, k));
                    s = k + 1;
                }
                _ => {}
            }
        }
        if s < b || !out.is_empty() {
            out.push((s, b));
        }
        out
    }
    /// The end of the type starting at `a` (before `b`), if one starts
    /// there.
    fn type_end(&self, a: usize, b: usize) -> Result<Option<usize>, Diag> {
        let mut k = match self.tok(a) {
            Some(Tok::Word(w)) if is_type_word(w) => a + 1,
            Some(Tok::Local(_)) => a + 1,
            Some(Tok::Punct('{' | '[' | '<')) => self.close_of(a)? + 1,
            _ => return Ok(None),
        };
        if self.is_punct(a, '<') && self.is_punct(a + 1, '{') {
            k = self.close_of(a)? + 1;
        }
        loop {
            if k < b && self.is_word(k, "addrspace") && self.is_punct(k + 1, '(') {
                k = self.close_of(k + 1)? + 1;
            } else if k < b && self.is_punct(k, '*') {
                k += 1;
            } else if k < b && self.is_punct(k, '(') {
                // A function type, as in `void (i32)*`: only before a `*`.
                let c = self.close_of(k)?;
                if c + 1 < b && self.is_punct(c + 1, '*') {
                    k = c + 1;
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        Ok(Some(k.min(b)))
    }

    /// A metadata value in `a..b` (one comma-separated element).
    fn md(&self, a: usize, b: usize, depth: usize) -> Result<Md, Diag> {
        if depth > MAX_MD_DEPTH {
            return Err(self.err_at(
                a,
                "too-deep",
                format!("metadata nested deeper than {MAX_MD_DEPTH}"),
            ));
        }
        if a >= b {
            return Err(self.err_at(a, "bad-metadata", "a metadata value is missing"));
        }
        let a = if self.is_word(a, "metadata") && a + 1 < b {
            a + 1
        } else {
            a
        };
        match self.tok(a) {
            Some(Tok::Word("distinct")) => {
                let Md::Node(mut n) = self.md(a + 1, b, depth + 1)? else {
                    return Err(self.err_at(a, "bad-metadata", "`distinct` stands before a node"));
                };
                n.distinct = true;
                Ok(Md::Node(n))
            }
            Some(Tok::Meta(n)) if self.is_punct(a + 1, '(') => {
                let close = self.close_of(a + 1)?;
                if close + 1 != b {
                    return Err(self.err_at(
                        close + 1,
                        "bad-metadata",
                        "text after a metadata node",
                    ));
                }
                let mut fields = Vec::new();
                for (x, y) in self.split_commas(a + 2, close) {
                    if let Some(Tok::Key(k)) = self.tok(x) {
                        let v = if x + 1 < y {
                            self.md_field(x + 1, y, depth + 1)?
                        } else {
                            return Err(self.err_at(
                                x,
                                "bad-metadata",
                                format!("field `{k}` has no value"),
                            ));
                        };
                        fields.push((Some(k.into_owned()), v));
                    } else {
                        fields.push((None, self.md_field(x, y, depth + 1)?));
                    }
                }
                Ok(Md::Node(Box::new(MdNode {
                    line: self.t[a].line,
                    distinct: false,
                    kind: n.into_owned(),
                    fields,
                    text: self.text(a, b),
                })))
            }
            Some(Tok::Meta(n)) if a + 1 == b => Ok(Md::Ref(format!("!{n}"))),
            Some(Tok::Word("null")) if a + 1 == b => Ok(Md::Word("null".to_string())),
            Some(Tok::MetaStr(s)) if a + 1 == b => Ok(Md::Str(s.into_owned())),
            Some(Tok::Punct('!')) if self.is_punct(a + 1, '{') => {
                let close = self.close_of(a + 1)?;
                if close + 1 != b {
                    return Err(self.err_at(close + 1, "bad-metadata", "text after a tuple"));
                }
                let elems = self
                    .split_commas(a + 2, close)
                    .into_iter()
                    .map(|(x, y)| self.md(x, y, depth + 1))
                    .collect::<Result<_, _>>()?;
                Ok(Md::Tuple(elems))
            }
            _ => {
                if let Some(t) = self.type_end(a, b)? {
                    if t < b {
                        return Ok(Md::Typed {
                            ty: self.text(a, t),
                            value: self.text(t, b),
                        });
                    }
                }
                Err(self.err_at(
                    a,
                    "bad-metadata",
                    format!("`{}` is not a metadata value", self.text(a, b)),
                ))
            }
        }
    }
    /// A node's field value: metadata, or a word, number, string or flag
    /// expression (`DIFlagA | DIFlagB`).
    fn md_field(&self, a: usize, b: usize, depth: usize) -> Result<Md, Diag> {
        match self.tok(a) {
            Some(Tok::Str(s)) if a + 1 == b => Ok(Md::Str(s.into_owned())),
            Some(Tok::Num(_) | Tok::Word(_))
                if (a..b).all(|k| {
                    matches!(
                        self.tok(k),
                        Some(Tok::Num(_) | Tok::Word(_) | Tok::Punct('|'))
                    )
                }) && !(a + 1 < b
                    && matches!(self.tok(a), Some(Tok::Word(w)) if is_type_word(w))) =>
            {
                Ok(Md::Word(self.text(a, b)))
            }
            // Anything else in a node (a DIOp with its operands, a
            // constant expression) is kept as written; the expression
            // parsers read the node's text.
            _ => Ok(self
                .md(a, b, depth)
                .unwrap_or_else(|_| Md::Word(self.text(a, b)))),
        }
    }
}

/// Parses a module. Every top-level entity is read or refused with its
/// line and column.
pub fn parse(src: &str) -> Result<Module, Diag> {
    if src.len() > MAX_INPUT_BYTES {
        return Err(Diag::malformed(
            "Module",
            "too-large",
            format!("the module is larger than {} MiB", MAX_INPUT_BYTES >> 20),
        ));
    }
    let p = P {
        src,
        t: tokens(src)?,
        location_refs: Default::default(),
    };
    let mut m = Module {
        lines: src.lines().count() as u32,
        ..Module::default()
    };
    let mut i = 0;
    while i < p.t.len() {
        let end = p.statement_end(i)?;
        match p.t[i].tok(p.src) {
            Tok::Word("source_filename") => {
                m.source_filename = string_after_eq(&p, i, end)?;
            }
            Tok::Word("target") => match p.tok(i + 1) {
                Some(Tok::Word("datalayout")) => {
                    m.datalayout = string_after_eq(&p, i + 1, end)?;
                    m.datalayout_line = p.t[i].line;
                }
                Some(Tok::Word("triple")) => m.triple = string_after_eq(&p, i + 1, end)?,
                _ => return Err(p.err_at(i + 1, "unexpected-token", "`target` takes `datalayout` or `triple`")),
            },
            Tok::Word("define") => {
                m.functions.push(function(&p, i, end)?);
            }
            Tok::Word("declare") => *m.skipped.entry("declare").or_default() += 1,
            Tok::Word("attributes") => *m.skipped.entry("attributes").or_default() += 1,
            Tok::Word("module") => *m.skipped.entry("module asm").or_default() += 1,
            Tok::Word("uselistorder" | "uselistorder_bb") => {
                *m.skipped.entry("uselistorder").or_default() += 1
            }
            Tok::Word(w) if w.starts_with('^') && p.is_punct(i + 1, '=') => {
                *m.skipped.entry("summary").or_default() += 1
            }
            Tok::Word(w) if w.starts_with('$') && p.is_punct(i + 1, '=') => {
                *m.skipped.entry("comdat").or_default() += 1
            }
            Tok::Local(_) if p.is_punct(i + 1, '=') && p.is_word(i + 2, "type") => {
                m.types.push((p.t[i].line, p.text(i, end)));
            }
            Tok::Global(name) if p.is_punct(i + 1, '=') => {
                m.globals.push(Global {
                    name: name.into_owned(),
                    line: p.t[i].line,
                    attachments: attachments(&p, i + 2, end),
                });
            }
            Tok::Meta(id) if p.is_punct(i + 1, '=') => {
                let line = p.t[i].line;
                m.metadata_text.push((line, p.text(i, end)));
                let numbered = id.bytes().all(|c| c.is_ascii_digit());
                if numbered {
                    let mut distinct = false;
                    let mut a = i + 2;
                    if p.is_word(a, "distinct") {
                        distinct = true;
                        a += 1;
                    }
                    let node = match p.md(a, end, 0)? {
                        Md::Node(n) => MdNode { distinct, ..*n },
                        Md::Tuple(elems) => MdNode {
                            line,
                            distinct,
                            kind: String::new(),
                            fields: elems.into_iter().map(|e| (None, e)).collect(),
                            text: p.text(a, end),
                        },
                        other => MdNode {
                            line,
                            distinct,
                            kind: String::new(),
                            fields: vec![(None, other)],
                            text: p.text(a, end),
                        },
                    };
                    if m.metadata.insert(format!("!{id}"), MdNode { line, ..node }).is_some() {
                        return Err(p.err_at(i, "duplicate-node", format!("`!{id}` is defined twice")));
                    }
                } else {
                    let Md::Tuple(elems) = p.md(i + 2, end, 0)? else {
                        return Err(p.err_at(i + 2, "bad-metadata", format!("named metadata `!{id}` is a tuple `!{{...}}`")));
                    };
                    if m.named.insert(id.to_string(), (elems, line)).is_some() {
                        return Err(p.err_at(i, "duplicate-node", format!("`!{id}` is defined twice")));
                    }
                }
            }
            other => {
                return Err(p.err_at(
                    i,
                    "unexpected-token",
                    format!("`{}` does not begin a top-level entity (define, declare, a global, metadata, attributes, a type, a comdat, target, source_filename)", show(&other)),
                ))
            }
        }
        i = end;
    }
    for (r, at) in p.location_refs.take() {
        location_node(&p, &m, &r, at)?;
    }
    Ok(m)
}

/// A debug record's location given as a node reference (`metadata !985`,
/// as clang 14 writes for a variable with no location): LLVM's verifier
/// takes a node there only when it is empty (`!985 = !{}`), which says
/// what `metadata !{}` says (D-ir-killed-records).
fn location_node(p: &P, m: &Module, r: &str, at: usize) -> Result<(), Diag> {
    match m.metadata.get(r) {
        Some(n) if n.kind.is_empty() && n.fields.is_empty() => Ok(()),
        Some(n) => Err(p.err_at(
            at,
            "bad-record",
            format!(
                "the location operand `{r}` is `{}`; a location is a typed value, a DIArgList or the empty node `!{{}}`",
                n.text
            ),
        )),
        None => Err(p.err_at(
            at,
            "unknown-node",
            format!("the location operand `{r}` is not defined in the module"),
        )),
    }
}

/// `KEYWORD = "text"`'s text.
fn string_after_eq(p: &P, i: usize, end: usize) -> Result<Option<String>, Diag> {
    match (p.is_punct(i + 1, '='), p.tok(i + 2)) {
        (true, Some(Tok::Str(s))) if i + 3 == end => Ok(Some(s.into_owned())),
        _ => Err(p.err_at(i, "unexpected-token", "expected `= \"text\"`")),
    }
}

/// Metadata attachments in `a..b`: `!kind !N` pairs (at bracket depth 0).
fn attachments(p: &P, a: usize, b: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut d = 0i64;
    for k in a..b {
        match p.tok(k) {
            Some(Tok::Punct('(' | '[' | '{')) => d += 1,
            Some(Tok::Punct(')' | ']' | '}')) => d -= 1,
            Some(Tok::Meta(kind)) if d == 0 && !kind.bytes().all(|c| c.is_ascii_digit()) => {
                if let Some(Tok::Meta(n)) = p.tok(k + 1) {
                    if !p.is_punct(k + 2, '(') {
                        out.push((kind.into_owned(), format!("!{n}")));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A `define` from `a` to its closing `}` (the token before `end`).
fn function(p: &P, a: usize, end: usize) -> Result<Function, Diag> {
    // The header runs to the `{` at bracket depth 0.
    let mut d = 0i64;
    let mut open = None;
    for k in a..end {
        match p.tok(k) {
            // The body's `{` ends the header's line (a struct return type
            // `{ i64, i64 }` opens one too, mid-line).
            Some(Tok::Punct('{'))
                if d == 0 && p.t.get(k + 1).is_none_or(|n| n.line > p.t[k].line) =>
            {
                open = Some(k);
                break;
            }
            Some(Tok::Punct('(' | '[' | '{')) => d += 1,
            Some(Tok::Punct(')' | ']' | '}')) => d -= 1,
            _ => {}
        }
    }
    let open = open.ok_or_else(|| p.err_at(a, "bad-function", "a `define` without a body"))?;
    let close = end - 1;
    if !p.is_punct(close, '}') {
        return Err(p.err_at(close, "bad-function", "a function body ends with `}`"));
    }
    let name = (a..open)
        .find_map(|k| match p.tok(k) {
            Some(Tok::Global(n)) => Some(n.into_owned()),
            _ => None,
        })
        .ok_or_else(|| p.err_at(a, "bad-function", "a `define` names no function"))?;
    let subprogram = attachments(p, a, open)
        .into_iter()
        .find(|(k, _)| k == "dbg")
        .map(|(_, n)| n);
    let mut f = Function {
        name,
        line: p.t[a].line,
        subprogram,
        header: p.text(a, open + 1),
        blocks: Vec::new(),
        end_line: p.t[close].line,
    };
    let mut i = open + 1;
    while i < close {
        if let Some(Tok::Key(label)) = p.tok(i) {
            f.blocks.push(Block {
                label: Some(label.into_owned()),
                line: p.t[i].line,
                insts: Vec::new(),
            });
            i += 1;
            continue;
        }
        let e = p.statement_end(i)?.min(close);
        let inst = instruction(p, i, e)?;
        if f.blocks.is_empty() {
            f.blocks.push(Block {
                label: None,
                line: inst.line,
                insts: Vec::new(),
            });
        }
        f.blocks.last_mut().expect("a block").insts.push(inst);
        i = e;
    }
    Ok(f)
}

/// The intrinsic names of the debug records.
fn intrinsic_kind(name: &str) -> Option<RecordKind> {
    Some(match name {
        "llvm.dbg.value" => RecordKind::Value,
        "llvm.dbg.declare" | "llvm.dbg.addr" => RecordKind::Declare,
        "llvm.dbg.assign" => RecordKind::Assign,
        "llvm.dbg.label" => RecordKind::Label,
        "llvm.dbg.def" => RecordKind::Def,
        "llvm.dbg.kill" => RecordKind::Kill,
        _ => return None,
    })
}

fn record_kind(word: &str) -> Option<RecordKind> {
    Some(match word {
        "#dbg_value" => RecordKind::Value,
        "#dbg_declare" => RecordKind::Declare,
        "#dbg_assign" => RecordKind::Assign,
        "#dbg_label" => RecordKind::Label,
        _ => return None,
    })
}

/// One instruction or debug record in `a..b`.
fn instruction(p: &P, a: usize, b: usize) -> Result<Inst, Diag> {
    let (line, col) = (p.t[a].line, p.t[a].col(p.src));
    let mut k = a;
    let mut result = None;
    if let (Some(Tok::Local(n)), true) = (p.tok(k), p.is_punct(k + 1, '=')) {
        result = Some(n.into_owned());
        k += 2;
    }
    while matches!(p.tok(k), Some(Tok::Word("tail" | "musttail" | "notail"))) {
        k += 1;
    }
    let opcode = match p.tok(k) {
        Some(Tok::Word(w)) if k < b => w.to_string(),
        _ => {
            return Err(p.err_at(
                k,
                "unexpected-token",
                "an instruction begins with its opcode",
            ))
        }
    };
    let dbg = attachments(p, k, b)
        .into_iter()
        .find(|(x, _)| x == "dbg")
        .map(|(_, n)| n);
    let kind = if let Some(rk) = record_kind(&opcode) {
        InstKind::Record(Box::new(record(p, rk, Form::Record, k + 1, b)?))
    } else if opcode == "call" {
        let callee = (k..b).find_map(|j| match p.tok(j) {
            Some(Tok::Global(n)) if p.is_punct(j + 1, '(') => Some((j, n.into_owned())),
            _ => None,
        });
        match callee.and_then(|(j, n)| intrinsic_kind(&n).map(|rk| (j, rk))) {
            Some((j, rk)) => {
                let mut r = record(p, rk, Form::Intrinsic, j + 1, b)?;
                r.loc = dbg.clone();
                InstKind::Record(Box::new(r))
            }
            None => InstKind::Plain,
        }
    } else if TERMINATORS.contains(&opcode.as_str()) {
        let succs = (k..b)
            .filter_map(|j| match (p.tok(j), p.tok(j + 1)) {
                (Some(Tok::Word("label")), Some(Tok::Local(n))) => Some(n.into_owned()),
                _ => None,
            })
            .collect();
        InstKind::Terminator { succs }
    } else {
        InstKind::Plain
    };
    Ok(Inst {
        line,
        col,
        end_line: p.t[b - 1].line,
        result,
        opcode,
        kind,
        dbg,
        text: p.text(a, b),
    })
}

/// The argument list `( ... )` starting at `open` of a debug record or
/// intrinsic call.
fn record(p: &P, kind: RecordKind, form: Form, open: usize, b: usize) -> Result<Record, Diag> {
    if !p.is_punct(open, '(') {
        return Err(p.err_at(
            open,
            "bad-record",
            "a debug record's operands are in parentheses",
        ));
    }
    let close = p.close_of(open)?;
    if close >= b {
        return Err(p.err_at(open, "bad-record", "the operand list is not closed"));
    }
    let args = p.split_commas(open + 1, close);
    let md = |n: usize| -> Result<Md, Diag> {
        let (x, y) = args[n];
        p.md(x, y, 0)
    };
    let want = |n: usize, shape: &str| -> Result<(), Diag> {
        if args.len() == n {
            Ok(())
        } else {
            Err(p.err_at(
                open,
                "wrong-arity",
                format!(
                    "`{}` takes {n} operands ({shape}); found {}",
                    kind.name(),
                    args.len()
                ),
            ))
        }
    };
    let mut r = Record {
        kind,
        form,
        operands: Vec::new(),
        arglist: false,
        variable: None,
        expr: None,
        address: None,
        address_expr: None,
        loc: None,
    };
    let location = |m: Md, r: &mut Record| -> Result<(), Diag> {
        match m {
            Md::Typed { ty, value } => r.operands.push(Operand { ty, value }),
            Md::Node(n) if n.kind == "DIArgList" => {
                r.arglist = true;
                for (_, v) in n.fields {
                    match v {
                        Md::Typed { ty, value } => r.operands.push(Operand { ty, value }),
                        other => {
                            return Err(p.err_at(
                                open,
                                "bad-record",
                                format!("a DIArgList holds typed values, not `{other:?}`"),
                            ))
                        }
                    }
                }
            }
            // `metadata !{}` (an empty location, older LLVM) and
            // `metadata !12` (a node as the location, which must be
            // empty: checked once the module's nodes are read): no operand.
            Md::Tuple(t) if t.is_empty() => {}
            Md::Ref(node) => p.location_refs.borrow_mut().push((node, args[0].1 - 1)),
            other => {
                return Err(p.err_at(
                    open,
                    "bad-record",
                    format!(
                        "the location operand is a typed value or a DIArgList, not `{other:?}`"
                    ),
                ))
            }
        }
        Ok(())
    };
    let loc_arg = |n: usize| -> Result<Option<String>, Diag> {
        match md(n)? {
            Md::Ref(r) => Ok(Some(r)),
            _ => Err(p.err_at(
                args[n].0,
                "bad-record",
                "the last operand of a record is its !DILocation",
            )),
        }
    };
    match (kind, form) {
        (RecordKind::Value | RecordKind::Declare, _) => {
            want(
                if form == Form::Record { 4 } else { 3 },
                "location, variable, expression",
            )?;
            location(md(0)?, &mut r)?;
            r.variable = Some(md(1)?);
            r.expr = Some(md(2)?);
            if form == Form::Record {
                r.loc = loc_arg(3)?;
            }
        }
        (RecordKind::Assign, _) => {
            want(
                if form == Form::Record { 7 } else { 6 },
                "value, variable, expression, DIAssignID, address, address expression",
            )?;
            location(md(0)?, &mut r)?;
            r.variable = Some(md(1)?);
            r.expr = Some(md(2)?);
            if let Md::Typed { ty, value } = md(4)? {
                r.address = Some(Operand { ty, value });
            }
            r.address_expr = Some(md(5)?);
            if form == Form::Record {
                r.loc = loc_arg(6)?;
            }
        }
        (RecordKind::Label, _) => {
            want(if form == Form::Record { 2 } else { 1 }, "label")?;
            r.variable = Some(md(0)?);
            if form == Form::Record {
                r.loc = loc_arg(1)?;
            }
        }
        (RecordKind::Def, _) => {
            want(2, "lifetime, referrer")?;
            r.variable = Some(md(0)?);
            if let Md::Typed { ty, value } = md(1)? {
                r.operands.push(Operand { ty, value });
            }
        }
        (RecordKind::Kill, _) => {
            want(1, "lifetime")?;
            r.variable = Some(md(0)?);
        }
        (RecordKind::GlobalExpression, _) => {
            return Err(p.err_at(
                open,
                "bad-record",
                "a global's expression is metadata, not a call",
            ))
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dioptra_semantics::types::Type;

    const M: &str = r#"source_filename = "t.c"
target datalayout = "e-m:e-i64:64"
%struct.S = type { i32, i8 }
$c = comdat any
@g = dso_local global i32 0, align 4, !dbg !0
define dso_local i32 @f(i32 noundef %a) #0 personality ptr @p !dbg !7 {
entry:
  call void @llvm.dbg.value(metadata i32 %a, metadata !9, metadata !DIExpression()), !dbg !10
  #dbg_value(!DIArgList(i32 %a, i32 %a), !9, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !10)
  switch i32 %a, label %"d x" [
    i32 0, label %label.a
    i32 1, label %3
  ]
label.a:
  %r = invoke i32 @h()
          to label %"d x" unwind label %lp
lp:
  %l = landingpad { ptr, i32 }
          cleanup
  resume { ptr, i32 } %l
3:
  unreachable
"d x":
  ret i32 %a
}
declare void @llvm.dbg.value(metadata, metadata, metadata) #1
attributes #0 = { nounwind "frame-pointer"="none" }
^0 = module: (path: "t.o", hash: (0, 0, 0, 0, 0))
!llvm.module.flags = !{!5, !6}
!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!5 = !{i32 7, !"Dwarf Version", i32 5}
!6 = distinct !{!6, !{!"llvm.loop.mustprogress"}}
!7 = distinct !DISubprogram(name: "f", flags: DIFlagPrototyped | DIFlagAllCallsDescribed, retainedNodes: !8)
!8 = !{}
"#;

    #[test]
    fn reads_a_module_with_every_terminator_kind() {
        let m = parse(M).unwrap();
        assert_eq!(m.datalayout.as_deref(), Some("e-m:e-i64:64"));
        assert_eq!(m.globals[0].attachments, vec![("dbg".into(), "!0".into())]);
        let f = &m.functions[0];
        assert_eq!(f.subprogram.as_deref(), Some("!7"));
        let labels: Vec<_> = f.blocks.iter().map(|b| b.label.clone()).collect();
        assert_eq!(
            labels,
            vec![
                Some("entry".into()),
                Some("label.a".into()),
                Some("lp".into()),
                Some("3".into()),
                Some("d x".into())
            ]
        );
        let succ = |b: usize| match &f.blocks[b].insts.last().unwrap().kind {
            InstKind::Terminator { succs } => succs.clone(),
            k => panic!("{k:?}"),
        };
        assert_eq!(succ(0), vec!["d x", "label.a", "3"]);
        assert_eq!(succ(1), vec!["d x", "lp"]);
        assert_eq!(
            f.blocks[2].insts.len(),
            2,
            "the landingpad's clause continues it"
        );
        assert_eq!(succ(2), Vec::<String>::new());
        let recs: Vec<_> = m.records().map(|(_, _, r)| r.clone()).collect();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].form, Form::Intrinsic);
        assert_eq!(recs[0].loc.as_deref(), Some("!10"));
        assert_eq!(recs[1].operands.len(), 2);
        assert!(recs[1].arglist);
        let n7 = m.node("!7").unwrap();
        assert_eq!(
            n7.field("flags"),
            Some(&Md::Word(
                "DIFlagPrototyped | DIFlagAllCallsDescribed".into()
            ))
        );
        assert_eq!(m.node("!5").unwrap().fields.len(), 3);
        assert_eq!(m.named["llvm.module.flags"].0.len(), 2);
        assert_eq!(m.skipped["declare"], 1);
        assert_eq!(m.skipped["summary"], 1);
        // The named struct is read into the module's layout: { i32, i8 }
        // is 8 bytes (LLVM pads it to i32's alignment).
        assert_eq!(
            m.types,
            vec![(3, "%struct.S = type { i32, i8 }".to_string())]
        );
        let layout = m.layout().unwrap();
        assert_eq!(layout.bitsizeof(&Type::Named("%struct.S".into())), 64);
    }

    /// clang-14's `-O0` module of `vars.c`: its `struct point { int x;
    /// short y; char z; }` is `%struct.point = type { i32, i16, i8 }`,
    /// 8 bytes as clang lays it out (`sizeof(struct point)` in C).
    #[test]
    fn reads_clang_s_named_structs() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/real/c/vars-O0.ll");
        let m = parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let layout = m.layout().unwrap();
        assert_eq!(layout.bitsizeof(&Type::Named("%struct.point".into())), 64);
    }

    /// A record's location may name a node, which LLVM's verifier takes
    /// only when it is the empty `!{}` (clang 14 writes `metadata !4` for
    /// a deleted value when `!4 = !{}` is numbered for another use; LLVM
    /// 22 writes `#dbg_value(!4, ...)`), defined before or after its use:
    /// no operand, as `metadata !{}`. A node with operands, or one the
    /// module does not define, is refused at the reference.
    #[test]
    fn a_location_naming_the_empty_node_is_no_location() {
        let module = |loc: &str, node: &str| {
            format!(
                "define void @f(i32 %a) {{\nentry:\n  call void @llvm.dbg.value(metadata {loc}, metadata !9, metadata !DIExpression()), !dbg !10\n    #dbg_value({loc}, !9, !DIExpression(), !10)\n  ret void\n}}\n{node}\n"
            )
        };
        let m = parse(&module("!4", "!4 = !{}")).unwrap();
        let recs: Vec<_> = m.records().map(|(_, _, r)| r.clone()).collect();
        assert_eq!(recs.len(), 2);
        for r in &recs {
            assert!(r.operands.is_empty() && !r.arglist, "{r:?}");
        }
        let e = parse(&module("!4", "!4 = !{i32 1}")).unwrap_err();
        assert!(e.matches("Module: bad-record"), "{e}");
        assert!(e.to_string().contains("line 3, column 38"), "{e}");
        let e = parse(&module("!5", "!4 = !{}")).unwrap_err();
        assert!(e.matches("Module: unknown-node"), "{e}");
    }

    /// clang 14's typed pointer to a function returning `void`, in a named
    /// struct (corpus/real/c/ops.ll): a pointer like any other.
    #[test]
    fn a_pointer_to_a_void_function_is_a_pointer() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/real/c/ops.ll");
        let m = parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let layout = m.layout().unwrap();
        assert_eq!(layout.bitsizeof(&Type::Named("%struct.ops".into())), 192);
    }

    #[test]
    fn refuses_what_begins_nothing_with_its_place() {
        let e = parse("define void @f() {\n  ret void\n}\nbogus thing\n").unwrap_err();
        assert!(e.to_string().contains("line 4, column 1"), "{e}");
        let e = parse("define void @f() {\n  ret void\n").unwrap_err();
        assert!(e.to_string().contains("never closed"), "{e}");
        let e = parse("!0 = !{!1, ]\n").unwrap_err();
        assert!(e.to_string().starts_with("Module:"), "{e}");
    }
}
