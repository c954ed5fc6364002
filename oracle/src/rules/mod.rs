//! Rewrite rules: an Alive-style rule language and a checker that proves a
//! rule for every instantiation of its types (grammar: corpus/rules/README.md).
//!
//! A rule is checked by turning each instantiation into two expressions
//! over the same inputs: the rule's stack inputs `%x` become `DIOpArg`s (in
//! any place the symbolic world allows, D-smt-input-shapes), and every
//! `DIOpConstant` whose literal is a symbolic constant or a constant
//! expression becomes an input whose location is an implicit value holding
//! that term. The SMT prover then looks for a context and constants, under
//! the precondition, where the two differ; a counterexample is re-run
//! through the interpreter with the constants written back as literals.

mod classic;
mod smt;

use smt::{
    constant_term, find_difference, inapplicable, model_values, precondition, symbolic_constants,
};

use crate::equiv::address_spaces;
use dioptra_semantics::bits::Bits;
use dioptra_semantics::classic::{High, Intrinsic};
use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::eval::eval;
use dioptra_semantics::location::same_location;
use dioptra_semantics::smt::loc::{SLoc, SStorage};
use dioptra_semantics::smt::world::SInput;
use dioptra_semantics::smt::{encode, World};
use dioptra_semantics::syntax::{Expr, Literal, Op};
use dioptra_semantics::text::{parse_expr, parse_type, split_top_level};
use dioptra_semantics::types::{DataLayout, Type};
use num_bigint::BigInt;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What a rule's file says it should be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    Valid,
    Invalid,
}

/// The kind of a type variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer type `iN`, for each width listed (default 1..=64).
    Int(Vec<u64>),
    /// An address space number.
    AddrSpace,
}

/// One range of an `upper` clause: the register bits from the previous
/// range's end (at first, the value's width) up to bit `to` hold zeros,
/// copies of the value's sign bit, or anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Upper {
    pub kind: High,
    pub to: u64,
}

/// One rule of a file.
#[derive(Clone, Debug)]
pub struct Rule {
    pub name: String,
    pub line: u32,
    pub types: Vec<(String, Kind)>,
    pub pre: Vec<String>,
    pub inputs: Vec<(String, String)>,
    pub source: String,
    pub target: String,
    pub expect: Expected,
    /// `decision D-...`: the decision-register entries the rule backs.
    pub decisions: Vec<String>,
    /// `classic value | declare | addr`: source and target are classic
    /// debug records (rules/classic.rs).
    pub classic: Option<Intrinsic>,
    /// `high zero, sign, any`: the upper-bit parameters checked (default
    /// all three).
    pub highs: Vec<High>,
    /// `upper %x: sign 32, zero 48`: what the register bits above a narrow
    /// value hold, by range (a classic rule, checked under `high any`).
    pub upper: Vec<(String, Vec<Upper>)>,
    /// `variable TYPE`: the variable's type (default: what the source
    /// describes).
    pub variable: Option<String>,
    /// `pointers 32, 64`: the pointer sizes checked, as a target has one
    /// (default both, when the rule involves pointers or is classic).
    pub pointers: Vec<u32>,
    /// `let %y = INSTRUCTION`: IR values computed from the inputs.
    pub lets: Vec<(String, String)>,
    /// `witness ...`: concrete counterexamples the interpreter confirms.
    pub witnesses: Vec<(u32, String)>,
    /// `around ITEM, ..., ..., ITEM`: enclosing expressions (a classic
    /// rule): the source's and the target's items stand where `...` is,
    /// and the rule is checked in each (an instance parameter, `around =
    /// K`, the K-th clause).
    pub around: Vec<String>,
    /// `explain ...`: the paragraph a bug report quotes (joined lines).
    pub explain: String,
}

fn rule_error(file: &str, line: u32, reason: &'static str, msg: impl Into<String>) -> Diag {
    Diag::malformed("Rule", reason, format!("{file}:{line}: {}", msg.into()))
}

/// Parses a rule file.
pub fn parse_rules(file: &str, text: &str) -> Result<Vec<Rule>, Diag> {
    let mut rules: Vec<Rule> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        // An `explain` line is prose: a `;` in it is punctuation.
        let l = if raw.trim_start().starts_with("explain ") {
            raw.trim()
        } else {
            raw.split(';').next().unwrap_or("").trim()
        };
        if l.is_empty() {
            continue;
        }
        let (key, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        let rest = rest.trim();
        if key == "rule" {
            let r = new_rule(file, line, rest, &rules)?;
            rules.push(r);
            continue;
        }
        let Some(r) = rules.last_mut() else {
            return Err(rule_error(
                file,
                line,
                "bad-form",
                "a clause before any `rule NAME`",
            ));
        };
        parse_clause(file, line, key, rest, r)?;
    }
    for r in &rules {
        check_rule_form(file, r)?;
    }
    Ok(rules)
}

/// `rule NAME`: a new rule, its name kebab-case and new in the file.
fn new_rule(file: &str, line: u32, rest: &str, rules: &[Rule]) -> Result<Rule, Diag> {
    if rest.is_empty() || !rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(rule_error(
            file,
            line,
            "bad-name",
            "a rule name is kebab-case: rule NAME",
        ));
    }
    if rules.iter().any(|r| r.name == rest) {
        return Err(rule_error(
            file,
            line,
            "duplicate",
            format!("rule `{rest}` twice"),
        ));
    }
    Ok(Rule {
        name: rest.to_string(),
        line,
        types: Vec::new(),
        pre: Vec::new(),
        inputs: Vec::new(),
        source: String::new(),
        target: String::new(),
        expect: Expected::Valid,
        decisions: Vec::new(),
        classic: None,
        highs: Vec::new(),
        upper: Vec::new(),
        variable: None,
        pointers: Vec::new(),
        lets: Vec::new(),
        witnesses: Vec::new(),
        around: Vec::new(),
        explain: String::new(),
    })
}

/// One clause of the rule `r`: `key rest` on `line`.
fn parse_clause(file: &str, line: u32, key: &str, rest: &str, r: &mut Rule) -> Result<(), Diag> {
    match key {
        "types" => {
            r.types.extend(parse_types(file, line, rest)?);
        }
        "pre" => r.pre.push(rest.to_string()),
        "inputs" => {
            for decl in split_top_level(rest) {
                let (name, ty) = decl.split_once(':').ok_or_else(|| {
                    rule_error(file, line, "bad-form", format!("`{decl}`: %NAME: TYPE"))
                })?;
                let name = percent_name(file, line, name, "inputs are %names")?;
                r.inputs.push((name, ty.trim().to_string()));
            }
        }
        "source" => r.source = rest.to_string(),
        "decision" => r.decisions.push(rest.to_string()),
        "classic" => {
            r.classic = Some(Intrinsic::parse(rest).ok_or_else(|| {
                rule_error(file, line, "bad-form", "classic value | declare | addr")
            })?)
        }
        "high" => {
            for h in rest.split(',') {
                r.highs.push(High::parse(h.trim()).ok_or_else(|| {
                    rule_error(
                        file,
                        line,
                        "bad-form",
                        format!("`{}`: high zero, sign, any", h.trim()),
                    )
                })?);
            }
        }
        "variable" => r.variable = Some(rest.to_string()),
        "upper" => {
            let form = "upper %NAME: zero|sign|any BIT, ... (rising bit positions)";
            let bad = || rule_error(file, line, "bad-form", form);
            let (name, segs) = rest.split_once(':').ok_or_else(bad)?;
            let name = percent_name(file, line, name, "upper names a %value")?;
            let mut out = Vec::new();
            for seg in segs.split(',') {
                let mut w = seg.split_whitespace();
                let (Some(kind), Some(to), None) = (w.next(), w.next(), w.next()) else {
                    return Err(bad());
                };
                let kind = match kind {
                    "zero" => High::Zero,
                    "sign" => High::Sign,
                    "any" => High::Any,
                    _ => return Err(bad()),
                };
                let to: u64 = to.parse().map_err(|_| bad())?;
                if to > 1024 || out.last().is_some_and(|u: &Upper| u.to >= to) {
                    return Err(bad());
                }
                out.push(Upper { kind, to });
            }
            r.upper.push((name, out));
        }
        "pointers" => {
            for w in rest.split(',') {
                match w.trim() {
                    "32" => r.pointers.push(32),
                    "64" => r.pointers.push(64),
                    other => {
                        return Err(rule_error(
                            file,
                            line,
                            "bad-form",
                            format!("`{other}`: pointers 32, 64"),
                        ))
                    }
                }
            }
        }
        "let" => {
            let (name, inst) = rest
                .split_once('=')
                .ok_or_else(|| rule_error(file, line, "bad-form", "let %NAME = INSTRUCTION"))?;
            let name = percent_name(file, line, name, "a let defines a %name")?;
            r.lets.push((name, inst.trim().to_string()));
        }
        "witness" => r.witnesses.push((line, rest.to_string())),
        "around" => {
            let holes = split_top_level(rest)
                .iter()
                .filter(|i| i.trim() == "...")
                .count();
            if holes != 1 {
                return Err(rule_error(
                    file,
                    line,
                    "bad-form",
                    "around ITEM, ..., ..., ITEM: one `...` where the rule's items go",
                ));
            }
            r.around.push(rest.to_string());
        }
        "explain" => {
            if !r.explain.is_empty() {
                r.explain.push(' ');
            }
            r.explain.push_str(rest);
        }
        "target" => r.target = rest.to_string(),
        "expect" => {
            r.expect = match rest {
                "valid" => Expected::Valid,
                "invalid" => Expected::Invalid,
                _ => {
                    return Err(rule_error(
                        file,
                        line,
                        "bad-form",
                        "expect valid | expect invalid",
                    ))
                }
            }
        }
        other => {
            return Err(rule_error(
                file,
                line,
                "bad-form",
                format!("unknown clause `{other}`"),
            ))
        }
    }
    Ok(())
}

/// `types NAME: int | int(W, ...) | addrspace, ...`.
fn parse_types(file: &str, line: u32, rest: &str) -> Result<Vec<(String, Kind)>, Diag> {
    let mut types = Vec::new();
    for decl in split_top_level(rest) {
        let (name, kind) = decl.split_once(':').ok_or_else(|| {
            rule_error(
                file,
                line,
                "bad-form",
                format!("`{decl}`: NAME: int or NAME: addrspace"),
            )
        })?;
        let (name, kind) = (name.trim(), kind.trim());
        let kind = if kind == "addrspace" {
            Kind::AddrSpace
        } else if kind == "int" {
            Kind::Int((1..=64).collect())
        } else if let Some(list) = kind.strip_prefix("int(").and_then(|k| k.strip_suffix(')')) {
            let widths = list
                .split(',')
                .map(|w| {
                    w.trim()
                        .parse::<u64>()
                        .ok()
                        .filter(|w| (1..=1024).contains(w))
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    rule_error(file, line, "bad-form", format!("`{kind}`: widths 1..=1024"))
                })?;
            Kind::Int(widths)
        } else {
            return Err(rule_error(
                file,
                line,
                "bad-form",
                format!("unknown kind `{kind}`"),
            ));
        };
        if !is_ident(name) {
            return Err(rule_error(
                file,
                line,
                "bad-form",
                format!("`{name}` is not a name"),
            ));
        }
        types.push((name.to_string(), kind));
    }
    Ok(types)
}

/// What a whole rule must have: a source, classic clauses only in classic
/// rules, witnesses only where the rule is expected invalid.
fn check_rule_form(file: &str, r: &Rule) -> Result<(), Diag> {
    if r.source.is_empty() {
        return Err(rule_error(
            file,
            r.line,
            "bad-form",
            format!("rule `{}` has no source", r.name),
        ));
    }
    if !r.upper.is_empty() && r.highs.iter().any(|h| *h != High::Any) {
        return Err(rule_error(
            file,
            r.line,
            "bad-form",
            format!(
                "rule `{}`: an upper clause states the upper bits itself: its rule is checked under `high any` alone",
                r.name
            ),
        ));
    }
    let classic_only = !r.highs.is_empty()
        || !r.upper.is_empty()
        || !r.around.is_empty()
        || r.variable.is_some()
        || !r.lets.is_empty()
        || !r.witnesses.is_empty();
    if r.classic.is_none() && classic_only {
        return Err(rule_error(
            file,
            r.line,
            "bad-form",
            format!(
                "rule `{}`: high, upper, variable, let, around and witness belong to classic rules (add `classic value`)",
                r.name
            ),
        ));
    }
    if r.expect == Expected::Valid && !r.witnesses.is_empty() {
        return Err(rule_error(
            file,
            r.line,
            "bad-form",
            format!(
                "rule `{}`: a witness shows a rule invalid; this one expects valid",
                r.name
            ),
        ));
    }
    Ok(())
}

/// `%NAME`, trimmed, or a `bad-form` error saying `what`.
fn percent_name(file: &str, line: u32, name: &str, what: &str) -> Result<String, Diag> {
    let name = name.trim();
    if !name.starts_with('%') || !is_ident(&name[1..]) {
        return Err(rule_error(
            file,
            line,
            "bad-form",
            format!("`{name}`: {what}"),
        ));
    }
    Ok(name.to_string())
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Replaces whole-word occurrences of `from` by `to`.
fn subst_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let b = text.as_bytes();
    let mut i = 0;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < text.len() {
        if text[i..].starts_with(from)
            && (i == 0 || !word(b[i - 1]))
            && b.get(i + from.len()).is_none_or(|&c| !word(c))
        {
            out.push_str(to);
            i += from.len();
        } else {
            let c = text[i..].chars().next().expect("in range");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Constant expressions

#[derive(Clone, Debug)]
enum CExpr {
    Num(BigInt),
    Const(String),
    Width(u64),
    Unary(&'static str, Box<CExpr>),
    Binary(&'static str, Box<CExpr>, Box<CExpr>),
    Call(&'static str, Box<CExpr>),
}

struct CParser<'a> {
    toks: Vec<&'a str>,
    at: usize,
    layout: &'a DataLayout,
    /// Unary and parenthesis nesting so far (bounded: the parser and the
    /// evaluation recurse).
    depth: usize,
}

/// The deepest nesting of a constant expression.
const MAX_CEXPR_DEPTH: usize = 64;

/// The most instantiations a rule may have (each costs a solver query).
pub const MAX_RULE_INSTANCES: usize = 20_000;

/// The most checker threads a rule gets.
pub const MAX_RULE_THREADS: usize = 256;

fn tokenize(s: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    let b = s.as_bytes();
    while i < s.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
        // `%x` where an operand is due names an IR value (a classic rule's
        // precondition over values); after an operand, `%` is modulo.
        let operand_due = out.last().is_none_or(|t: &&str| {
            !(is_ident(t)
                || (t.starts_with('%') && t.len() > 1)
                || *t == ")"
                || t.chars().all(|c| c.is_ascii_alphanumeric()))
        });
        if c == b'%' && operand_due && b.get(i + 1).is_some_and(|&n| ident(n)) {
            i += 1;
            while i < s.len() && ident(b[i]) {
                i += 1;
            }
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            while i < s.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            let two = s.get(i..i + 2).unwrap_or("");
            i += if ["<<", ">>", "<=", ">=", "==", "!=", "&&", "||"].contains(&two) {
                2
            } else if "+-*/%&|^~!<>()".contains(c as char) {
                1
            } else {
                return Err(format!("unexpected `{}`", c as char));
            };
        }
        out.push(&s[start..i]);
    }
    Ok(out)
}

const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["==", "!="],
    &["<", "<=", ">", ">="],
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl CParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).copied()
    }
    fn next(&mut self) -> Option<&str> {
        let t = self.toks.get(self.at).copied();
        self.at += 1;
        t
    }
    fn expect(&mut self, t: &str) -> Result<(), String> {
        match self.next() {
            Some(x) if x == t => Ok(()),
            x => Err(format!("expected `{t}`, found {x:?}")),
        }
    }
    fn binary(&mut self, level: usize) -> Result<CExpr, String> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self
            .peek()
            .and_then(|t| LEVELS[level].iter().find(|o| **o == t))
        {
            self.at += 1;
            let rhs = self.binary(level + 1)?;
            lhs = CExpr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }
    fn unary(&mut self) -> Result<CExpr, String> {
        self.depth += 1;
        if self.depth > MAX_CEXPR_DEPTH {
            return Err(format!(
                "a constant expression nested deeper than {MAX_CEXPR_DEPTH}"
            ));
        }
        let e = self.unary_inner();
        self.depth -= 1;
        e
    }
    fn unary_inner(&mut self) -> Result<CExpr, String> {
        match self.next() {
            Some("-") => Ok(CExpr::Unary("-", Box::new(self.unary()?))),
            Some("~") => Ok(CExpr::Unary("~", Box::new(self.unary()?))),
            Some("!") => Ok(CExpr::Unary("!", Box::new(self.unary()?))),
            Some("(") => {
                let e = self.binary(0)?;
                self.expect(")")?;
                Ok(e)
            }
            Some(t) if t.starts_with(|c: char| c.is_ascii_digit()) => {
                let n = match t.strip_prefix("0x") {
                    Some(h) => BigInt::parse_bytes(h.as_bytes(), 16),
                    None => BigInt::parse_bytes(t.as_bytes(), 10),
                };
                n.map(CExpr::Num).ok_or_else(|| format!("bad number `{t}`"))
            }
            Some("width") => {
                self.expect("(")?;
                // The type was substituted already: collect tokens to `)`.
                let mut depth = 0;
                let mut text = String::new();
                loop {
                    match self.next() {
                        Some(")") if depth == 0 => break,
                        Some(t) => {
                            depth += (t == "(") as i32 - (t == ")") as i32;
                            text.push_str(t);
                            text.push(' ');
                        }
                        None => return Err("unclosed width(".into()),
                    }
                }
                let ty = parse_type(text.trim()).map_err(|d| d.to_string())?;
                Ok(CExpr::Width(self.layout.bitsizeof(&ty)))
            }
            Some(f @ ("signed" | "isPowerOf2" | "log2")) => {
                let f = match f {
                    "signed" => "signed",
                    "isPowerOf2" => "isPowerOf2",
                    _ => "log2",
                };
                self.expect("(")?;
                let e = self.binary(0)?;
                self.expect(")")?;
                Ok(CExpr::Call(f, Box::new(e)))
            }
            Some(t) if is_ident(t) || (t.starts_with('%') && t.len() > 1) => {
                Ok(CExpr::Const(t.to_string()))
            }
            t => Err(format!("unexpected {t:?}")),
        }
    }
}

fn parse_cexpr(text: &str, layout: &DataLayout) -> Result<CExpr, String> {
    let mut p = CParser {
        toks: tokenize(text)?,
        at: 0,
        layout,
        depth: 0,
    };
    let e = p.binary(0)?;
    if p.at != p.toks.len() {
        return Err(format!("trailing `{}`", p.toks[p.at..].join(" ")));
    }
    Ok(e)
}

// ---------------------------------------------------------------------------
// Instantiation

/// One assignment of the rule's type variables.
#[derive(Clone, Debug)]
pub struct Instance {
    /// `T = i8`, `N = 5`, and the pointer size.
    pub assignment: Vec<(String, String)>,
    pub layout: DataLayout,
    /// A classic rule's upper-bit parameter.
    pub high: Option<High>,
}

impl Instance {
    /// The enclosing expression of this instance (`around = K`), if the
    /// rule has any.
    pub fn around<'r>(&self, rule: &'r Rule) -> Option<&'r str> {
        let (_, k) = self.assignment.iter().find(|(k, _)| k == "around")?;
        let k: usize = k.parse().ok()?;
        rule.around.get(k.checked_sub(1)?).map(String::as_str)
    }
    /// `text` with the type variables replaced by this instance's types.
    pub fn substitute(&self, text: &str) -> String {
        self.assignment
            .iter()
            .fold(text.to_string(), |acc, (k, v)| subst_word(&acc, k, v))
    }
    /// A malformed pattern of `rule`, met at this instance.
    pub fn bad_pattern(&self, rule: &Rule, m: String) -> Diag {
        Diag::malformed(
            "Rule",
            "bad-pattern",
            format!("{}: {}: {m}", rule.name, self.describe()),
        )
    }
    pub fn describe(&self) -> String {
        self.assignment
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every instantiation of a rule.
///
/// DECISION (D-rule-instances): integer type variables range over the
/// widths declared (1..=64 by default, odd ones included), address-space
/// variables over 0, 5 and every address space the rule names, and every
/// pointer is 32 and then 64 bits wide when the rule involves pointers;
/// stack inputs `%x` range over the prover's input shapes
/// (D-smt-input-shapes). A rule is valid when every instantiation is; the
/// canonicalizer applies its rules only inside that domain.
pub fn instances(rule: &Rule) -> Vec<Instance> {
    let all = format!(
        "{} {} {} {:?}",
        rule.source,
        rule.target,
        rule.pre.join(" "),
        rule.inputs
    );
    let mut spaces: Vec<u64> = vec![0, 5];
    for (i, _) in all.match_indices("addrspace(") {
        let digits: String = all[i + 10..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(n) = digits.parse() {
            spaces.push(n);
        }
    }
    for (i, _) in all.match_indices("DIOpAddrOf(") {
        let digits: String = all[i + 11..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(n) = digits.parse() {
            spaces.push(n);
        }
    }
    spaces.sort();
    spaces.dedup();
    // A classic rule is checked for W = 32 and 64 (the address size is the
    // generic type's width), and for each upper-bit parameter.
    let pointers = rule.classic.is_some()
        || all.contains("ptr")
        || all.contains("AddrOf")
        || all.contains("Deref");
    let highs: Vec<Option<High>> = match (&rule.classic, rule.highs.is_empty()) {
        (None, _) => vec![None],
        // An `upper` clause states the upper bits: `high any`, narrowed.
        (Some(_), true) if !rule.upper.is_empty() => vec![Some(High::Any)],
        (Some(_), true) => vec![Some(High::Zero), Some(High::Sign), Some(High::Any)],
        (Some(_), false) => rule.highs.iter().copied().map(Some).collect(),
    };
    let sizes: &[u32] = match (pointers, rule.pointers.is_empty()) {
        (_, false) => &rule.pointers,
        (true, true) => &[32, 64],
        (false, true) => &[0],
    };
    let mut out = Vec::new();
    let mut assignments: Vec<Vec<(String, String)>> = vec![Vec::new()];
    // Each enclosing expression is one more parameter of the instance.
    if !rule.around.is_empty() {
        assignments = (1..=rule.around.len())
            .map(|k| vec![("around".to_string(), k.to_string())])
            .collect();
    }
    for (name, kind) in &rule.types {
        let values: Vec<String> = match kind {
            Kind::Int(ws) => ws.iter().map(|w| format!("i{w}")).collect(),
            Kind::AddrSpace => spaces.iter().map(u64::to_string).collect(),
        };
        assignments = assignments
            .into_iter()
            .flat_map(|a| {
                values.iter().map(move |v| {
                    let mut a = a.clone();
                    a.push((name.clone(), v.clone()));
                    a
                })
            })
            .collect();
    }
    for a in assignments {
        for &size in sizes {
            for &high in &highs {
                let mut layout = DataLayout::default();
                let mut assignment = a.clone();
                if size != 0 {
                    for s in &spaces {
                        layout.set_pointer_bits(*s as u32, size);
                    }
                    assignment.push(("pointers".into(), size.to_string()));
                }
                if let Some(h) = high {
                    assignment.push(("high".into(), h.word().to_string()));
                }
                out.push(Instance {
                    assignment,
                    layout,
                    high,
                });
            }
        }
    }
    out
}

/// A `DIOpConstant` whose literal is a term (it becomes the next input):
/// its type and constant expression.
struct TermConst {
    ty: Type,
    expr: CExpr,
}

/// A rule side made concrete for one instance: the expression (inputs and
/// term constants as `DIOpArg`s).
struct Side {
    expr: Expr,
}

/// Is `lit` a plain literal (not a symbolic constant or an expression)?
fn plain_literal(lit: &str) -> bool {
    let l = lit.trim();
    [
        "undef",
        "poison",
        "null",
        "true",
        "false",
        "zeroinitializer",
    ]
    .contains(&l)
        || l.strip_prefix('-')
            .unwrap_or(l)
            .chars()
            .all(|c| c.is_ascii_digit())
            && !l.is_empty()
        || l.starts_with("0x")
        || l.starts_with('<')
        || l.contains('.')
}

/// Splits `TYPE LITERAL` (the inside of a `DIOpConstant(...)`).
fn split_type(inner: &str) -> (String, String) {
    let s = inner.trim();
    let end = if s.starts_with('<') {
        s.find('>').map(|i| i + 1)
    } else if s.starts_with("ptr addrspace(") {
        s.find(')').map(|i| i + 1)
    } else {
        s.find(char::is_whitespace)
    }
    .unwrap_or(s.len());
    (s[..end].trim().to_string(), s[end..].trim().to_string())
}

/// Rewrites one side's text: inputs to `DIOpArg`s, term constants to
/// further `DIOpArg`s recorded in `terms`.
fn side(
    text: &str,
    inputs: &[(String, String)],
    layout: &DataLayout,
    terms: &mut Vec<TermConst>,
) -> Result<Side, String> {
    let mut ops: Vec<String> = Vec::new();
    for op in split_top_level(text) {
        if let Some((j, (_, ty))) = inputs.iter().enumerate().find(|(_, (n, _))| *n == op) {
            ops.push(format!("DIOpArg({j}, {ty})"));
            continue;
        }
        if let Some(inner) = op
            .strip_prefix("DIOpConstant(")
            .and_then(|o| o.strip_suffix(')'))
        {
            let (ty, lit) = split_type(inner);
            if !plain_literal(&lit) {
                let t = parse_type(&ty).map_err(|d| d.to_string())?;
                let expr = parse_cexpr(&lit, layout)?;
                let arg = (inputs.len() + terms.len()) as u32;
                terms.push(TermConst { ty: t, expr });
                ops.push(format!("DIOpArg({arg}, {ty})"));
                continue;
            }
        }
        if op.starts_with('%') {
            return Err(format!("`{op}` is not a declared input"));
        }
        ops.push(op);
    }
    let expr = parse_expr(&ops.join(", ")).map_err(|d| d.to_string())?;
    Ok(Side { expr })
}

/// The verdict on one instance.
#[derive(Clone, Debug)]
pub enum InstanceVerdict {
    Valid,
    /// The precondition never holds, or the source is ill-formed here.
    NotApplicable(String),
    Invalid(String),
    Unknown(String),
}

impl std::fmt::Display for InstanceVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InstanceVerdict::Valid => write!(f, "valid"),
            InstanceVerdict::NotApplicable(why) => write!(f, "not applicable: {why}"),
            InstanceVerdict::Invalid(why) => write!(f, "invalid: {why}"),
            InstanceVerdict::Unknown(why) => write!(f, "unknown: {why}"),
        }
    }
}

/// Checks one instance of a rule: its sides as DIOp expressions over the
/// same inputs, the precondition, the shapes of both sides, then the solver's
/// search for a context where they differ, confirmed by the interpreter.
pub fn check_instance(
    rule: &Rule,
    inst: &Instance,
    timeout_ms: u32,
) -> Result<InstanceVerdict, Diag> {
    if rule.classic.is_some() {
        return classic::check_instance(rule, inst, timeout_ms);
    }
    let bad = |m: String| inst.bad_pattern(rule, m);
    let sides = instance_sides(rule, inst)?;
    // Symbolic constants: a bit-vector per name, as wide as the type of the
    // first `DIOpConstant(T C)` that names it alone.
    let mut widths: BTreeMap<&String, u32> = BTreeMap::new();
    for t in &sides.terms {
        if let CExpr::Const(c) = &t.expr {
            widths
                .entry(c)
                .or_insert(inst.layout.bitsizeof(&t.ty) as u32);
        }
    }
    let consts = symbolic_constants(widths);
    let pre_holds = precondition(&sides.pre, &consts).map_err(bad)?;
    if let Some(v) = inapplicable(&pre_holds, timeout_ms) {
        return Ok(v);
    }
    if let Some(v) = shape_verdict(&sides, &inst.layout) {
        return Ok(v);
    }
    let real = Signature {
        layout: inst.layout.clone(),
        args: sides.input_types.clone(),
        ..Signature::default()
    };
    let (src, tgt) = (&sides.src.expr, &sides.tgt.expr);
    let mut world = World::symbolic(&real, &address_spaces(&real, &[src, tgt]))?;
    for t in &sides.terms {
        let w = inst.layout.bitsizeof(&t.ty) as u32;
        let v = constant_term(&t.expr, &consts, w).map_err(bad)?;
        world.args.push(SInput {
            ty: t.ty.clone(),
            loc: Ok(SLoc::start(SStorage::Implicit(v))),
        });
    }
    let s = encode(src, &world)?;
    let t = encode(tgt, &world)?;
    let n = inst.layout.bitsizeof(&s.ty);
    let model = match find_difference(&world, &s, &t, n, &pre_holds, timeout_ms)? {
        Ok(m) => m,
        Err(verdict) => return Ok(verdict),
    };
    let ctx = world.concretize(&model)?;
    let cex = Counterexample {
        context: ctx,
        real_inputs: real.args.len(),
        constants: model_values(&model, &consts),
        bits: n,
    };
    confirm_counterexample(rule, inst, &sides, cex)
}

/// A rule instance's two sides over the same inputs, its term constants
/// and its preconditions, the type variables substituted.
struct InstanceSides {
    src: Side,
    tgt: Side,
    input_types: Vec<Type>,
    terms: Vec<TermConst>,
    pre: Vec<CExpr>,
}

fn instance_sides(rule: &Rule, inst: &Instance) -> Result<InstanceSides, Diag> {
    let bad = |m: String| inst.bad_pattern(rule, m);
    let sub = |t: &str| inst.substitute(t);
    let inputs: Vec<(String, String)> = rule
        .inputs
        .iter()
        .map(|(n, t)| (n.clone(), sub(t)))
        .collect();
    let mut terms = Vec::new();
    let src = side(&sub(&rule.source), &inputs, &inst.layout, &mut terms).map_err(bad)?;
    let tgt = side(&sub(&rule.target), &inputs, &inst.layout, &mut terms).map_err(bad)?;
    let pre = rule
        .pre
        .iter()
        .map(|p| parse_cexpr(&sub(p), &inst.layout))
        .collect::<Result<_, _>>()
        .map_err(bad)?;
    let input_types = inputs
        .iter()
        .map(|(_, t)| parse_type(t))
        .collect::<Result<_, _>>()?;
    Ok(InstanceSides {
        src,
        tgt,
        input_types,
        terms,
        pre,
    })
}

/// `Some(verdict)` when the sides' shapes decide the instance: an
/// ill-formed source is not applicable; an ill-formed target, or one of
/// another type or fragment, is invalid.
fn shape_verdict(sides: &InstanceSides, layout: &DataLayout) -> Option<InstanceVerdict> {
    let mut sig = Signature {
        layout: layout.clone(),
        args: sides.input_types.clone(),
        ..Signature::default()
    };
    sig.args.extend(sides.terms.iter().map(|t| t.ty.clone()));
    let s_checked = match dioptra_semantics::wellformed::check(&sides.src.expr, &sig) {
        Ok(c) => c,
        Err(d) => {
            return Some(InstanceVerdict::NotApplicable(format!(
                "the source is ill-formed: {d}"
            )))
        }
    };
    let t_checked = match dioptra_semantics::wellformed::check(&sides.tgt.expr, &sig) {
        Ok(c) => c,
        Err(d) => {
            return Some(InstanceVerdict::Invalid(format!(
                "the target is ill-formed: {d}"
            )))
        }
    };
    if !s_checked.result.same(&t_checked.result) || s_checked.fragment != t_checked.fragment {
        return Some(InstanceVerdict::Invalid(format!(
            "the source gives `{}`, the target `{}`",
            s_checked.result, t_checked.result
        )));
    }
    None
}

/// What the solver found: a context (the real inputs first, then one
/// implicit input per term constant) and the constants' values.
struct Counterexample {
    context: ConcreteContext,
    real_inputs: usize,
    constants: BTreeMap<String, Bits>,
    /// The bits of the results compared.
    bits: u64,
}

/// Re-runs a counterexample through the interpreter with the term
/// constants written back as literals, minimizes it, and writes it as the
/// verdict. One the interpreter does not confirm is a dioptra bug.
fn confirm_counterexample(
    rule: &Rule,
    inst: &Instance,
    sides: &InstanceSides,
    cex: Counterexample,
) -> Result<InstanceVerdict, Diag> {
    let bad = |m: String| inst.bad_pattern(rule, m);
    let (ctx, real_n, n, constants) = (cex.context, cex.real_inputs, cex.bits, cex.constants);
    let mut values: BTreeMap<u32, Bits> = BTreeMap::new();
    for (k, input) in ctx.args.iter().enumerate().skip(real_n) {
        let [single] = input.loc.singles() else {
            return Err(bad("a constant in several places".into()));
        };
        if let dioptra_semantics::location::Storage::Implicit(b) = &*single.storage {
            values.insert(k as u32, b.clone());
        }
    }
    let concrete = |e: &Expr| Expr {
        spelling: e.spelling,
        ops: e
            .ops
            .iter()
            .map(|op| match op {
                Op::Arg(k, ty) if (*k as usize) >= real_n => {
                    let v = values
                        .get(k)
                        .map(|b| b.unsigned().into_owned())
                        .unwrap_or_default();
                    Op::Constant(ty.clone(), Literal::Int(v.into()))
                }
                other => other.clone(),
            })
            .collect(),
    };
    let (cs, ct) = (concrete(&sides.src.expr), concrete(&sides.tgt.expr));
    let mut cctx: ConcreteContext = ctx.clone();
    cctx.args.truncate(real_n);
    let (a, b) = (eval(&cs, &cctx), eval(&ct, &cctx));
    let unsupported = [&a, &b]
        .iter()
        .any(|r| matches!(r, Err(d) if d.outcome == Outcome::Unsupported));
    let differ = match (&a, &b) {
        (Ok(x), Ok(y)) => !same_location(&x.loc, &y.loc, n),
        (Err(_), Err(_)) => false,
        _ => true,
    };
    if unsupported || !differ {
        return Err(Diag::new(
            Outcome::Unsupported,
            "SMT",
            "unconfirmed-counterexample",
            format!(
                "a dioptra bug: rule {} ({}): the interpreter does not confirm the counterexample",
                rule.name,
                inst.describe()
            ),
        ));
    }
    let cex = crate::equiv::minimize(
        &cs,
        &ct,
        crate::equiv::Counterexample {
            context: cctx,
            source: a,
            target: b,
        },
        n,
    );
    let (cctx, a, b) = (cex.context, cex.source, cex.target);
    let consts_text: Vec<String> = constants
        .iter()
        .map(|(name, b)| format!("{name} = {}", b.unsigned()))
        .collect();
    let show = |r: &Result<dioptra_semantics::eval::Evaluated, Diag>| match r {
        Ok(ev) => format!("location {}", ev.loc),
        Err(d) => format!("error `{}: {}`", d.construct, d.reason),
    };
    Ok(InstanceVerdict::Invalid(format!(
        "{}{}\n{}\n;; source: {cs}\n;;   gives {}\n;; target: {ct}\n;;   gives {}",
        inst.describe(),
        if consts_text.is_empty() {
            String::new()
        } else {
            format!("; {}", consts_text.join(", "))
        },
        cctx.to_script("cex"),
        show(&a),
        show(&b)
    )))
}

/// Looks for a counterexample to one instance of a classic rule by
/// running it on `samples` inputs, without the solver: the invalid verdict
/// (with a witness the interpreter confirmed) when one is found, `None`
/// when none is (which proves nothing) or the rule is not classic.
pub fn search_instance(
    rule: &Rule,
    inst: &Instance,
    samples: u64,
) -> Result<Option<InstanceVerdict>, Diag> {
    if rule.classic.is_none() {
        return Ok(None);
    }
    classic::search_instance(rule, inst, samples)
}

/// The verdict on a rule over all its instances.
#[derive(Clone, Debug)]
pub struct RuleReport {
    pub name: String,
    pub expect: Expected,
    /// `valid`, `invalid` or `unknown`.
    pub verdict: &'static str,
    pub instances: usize,
    pub applicable: usize,
    /// The first counterexample (smallest instance), or why unknown.
    pub detail: Option<String>,
    /// How many `witness` clauses the interpreter confirmed.
    pub witnessed: usize,
    /// The rule's `explain` paragraph.
    pub explain: String,
    pub time: Duration,
}

/// Checks every instance of `rule`, on `threads` threads (each with its own
/// z3 context).
pub fn check_rule(rule: &Rule, timeout_ms: u32, threads: usize) -> Result<RuleReport, Diag> {
    let started = Instant::now();
    let count = rule.types.iter().fold(1usize, |n, (_, k)| {
        n.saturating_mul(match k {
            Kind::Int(ws) => ws.len(),
            Kind::AddrSpace => 4,
        })
    });
    if count > MAX_RULE_INSTANCES {
        return Err(Diag::unsupported(
            "Rule",
            "too-many-instances",
            format!(
                "rule `{}` has about {count} instantiations; dioptra checks at most {MAX_RULE_INSTANCES} (declare fewer widths: T: int(8, 32))",
                rule.name
            ),
        ));
    }
    let insts = instances(rule);
    if insts.len() > MAX_RULE_INSTANCES {
        return Err(Diag::unsupported(
            "Rule",
            "too-many-instances",
            format!(
                "rule `{}` has {} instantiations; dioptra checks at most {MAX_RULE_INSTANCES}",
                rule.name,
                insts.len()
            ),
        ));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    // No more threads than instances or than MAX_RULE_THREADS; a thread
    // the system refuses is one fewer worker, and none at all is an error.
    let wanted = threads.clamp(1, MAX_RULE_THREADS).min(insts.len().max(1));
    let results: Vec<Result<(usize, InstanceVerdict), Diag>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..wanted)
            .map_while(|_| {
                std::thread::Builder::new()
                    .spawn_scoped(s, || {
                        let mut out = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(inst) = insts.get(i) else { break };
                            out.push(check_instance(rule, inst, timeout_ms).map(|v| (i, v)));
                        }
                        out
                    })
                    .ok()
            })
            .collect();
        if workers.is_empty() {
            return vec![Err(Diag::unsupported(
                "Rule",
                "no-threads",
                "the system refused to start a checker thread",
            ))];
        }
        workers
            .into_iter()
            .flat_map(|w| {
                w.join().unwrap_or_else(|_| {
                    vec![Err(Diag::unsupported(
                        "Rule",
                        "internal-error",
                        "a checker thread panicked (a dioptra bug)",
                    ))]
                })
            })
            .collect()
    });
    let mut verdicts: Vec<(usize, InstanceVerdict)> =
        results.into_iter().collect::<Result<_, _>>()?;
    verdicts.sort_by_key(|(i, _)| *i);
    let applicable = verdicts
        .iter()
        .filter(|(_, v)| !matches!(v, InstanceVerdict::NotApplicable(_)))
        .count();
    let invalid = verdicts.iter().find_map(|(_, v)| match v {
        InstanceVerdict::Invalid(d) => Some(d.clone()),
        _ => None,
    });
    let unknown = verdicts.iter().find_map(|(i, v)| match v {
        InstanceVerdict::Unknown(r) => Some(format!("{}: {r}", insts[*i].describe())),
        _ => None,
    });
    if applicable == 0 && invalid.is_none() {
        let why = verdicts
            .first()
            .map(|(i, v)| format!("{}: {v}", insts[*i].describe()))
            .unwrap_or_default();
        return Err(Diag::ill(
            "Rule",
            "never-applicable",
            format!("rule `{}` applies to no instance: {why}", rule.name),
        ));
    }
    let (verdict, detail) = match (invalid, unknown) {
        (Some(d), _) => ("invalid", Some(d)),
        (None, Some(u)) => ("unknown", Some(u)),
        (None, None) => ("valid", None),
    };
    for (line, w) in &rule.witnesses {
        classic::check_witness(rule, *line, w)?;
    }
    Ok(RuleReport {
        witnessed: rule.witnesses.len(),
        explain: rule.explain.clone(),
        name: rule.name.clone(),
        expect: rule.expect,
        verdict,
        instances: verdicts.len(),
        applicable,
        detail,
        time: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pointers_clause_keeps_the_instances_of_that_size() {
        let text = "rule r\n  classic value\n  high zero\n  pointers 64\n  inputs %x: i8\n  source %x, !DIExpression()\n  target %x, !DIExpression()\n";
        let rules = parse_rules("t", text).unwrap();
        let sizes: Vec<String> = instances(&rules[0]).iter().map(|i| i.describe()).collect();
        assert_eq!(sizes, vec!["pointers = 64, high = zero".to_string()]);
        let both = parse_rules("t", &text.replace("  pointers 64\n", "")).unwrap();
        assert_eq!(instances(&both[0]).len(), 2);
        let bad = parse_rules("t", &text.replace("pointers 64", "pointers 16"));
        assert!(bad.unwrap_err().to_string().contains("pointers 32, 64"));
    }

    #[test]
    fn constant_expressions_parse_with_c_precedence() {
        let dl = DataLayout::default();
        let e = parse_cexpr("C1 + C2 << 1 == 4 && !(C != 0)", &dl).unwrap();
        assert!(matches!(e, CExpr::Binary("&&", _, _)), "{e:?}");
        assert!(parse_cexpr("C1 +", &dl).is_err());
        assert!(parse_cexpr("width(i17) - 1", &dl).is_ok());
        assert!(parse_cexpr("C $ 1", &dl).is_err());
    }

    #[test]
    fn upper_clauses_state_the_bits_above_an_input_by_range() {
        let rule = |upper: &str| {
            parse_rules(
                "t",
                &format!("rule r\n  classic value\n  upper {upper}\n  inputs %x: i8\n  source %x, !DIExpression()\n  target %x, !DIExpression()\n"),
            )
        };
        let r = rule("%x: sign 32, any 48, zero 64").unwrap();
        assert_eq!(
            r[0].upper,
            vec![(
                "%x".to_string(),
                vec![
                    Upper {
                        kind: High::Sign,
                        to: 32
                    },
                    Upper {
                        kind: High::Any,
                        to: 48
                    },
                    Upper {
                        kind: High::Zero,
                        to: 64
                    }
                ]
            )]
        );
        for bad in [
            "%x: sign 32, zero 16",
            "%x sign 32",
            "%x: ones 32",
            "x: sign 32",
            "%x: sign",
        ] {
            assert!(rule(bad).is_err(), "{bad}");
        }
        // The ranges imposed on sampled upper bits (bit j is register bit
        // 8 + j): an i8 0x80 under `sign 32, any 48, zero 64` has ones in
        // register bits 8..32, the sample's bits in 32..48, zeros above.
        let imposed = |sample: u64| {
            classic::impose_upper(
                &Bits::from_u64(8, 0x80),
                &Bits::from_u64(56, sample),
                &r[0].upper[0].1,
                64,
            )
        };
        assert_eq!(
            imposed(0x00ff_ff00_0000_0000),
            Bits::from_u64(56, 0xff_ffff)
        );
        assert_eq!(
            imposed(0x00ff_ffff_ffff_ffff),
            Bits::from_u64(56, 0xff_ffff_ffff)
        );
        assert_eq!(
            imposed(0x0000_0012_3400_0000),
            Bits::from_u64(56, 0x12_34ff_ffff)
        );
    }

    #[test]
    fn a_percent_sign_names_a_value_where_an_operand_is_due() {
        assert_eq!(tokenize("%x % 3").unwrap(), vec!["%x", "%", "3"]);
        assert_eq!(tokenize("C%8").unwrap(), vec!["C", "%", "8"]);
        assert_eq!(
            tokenize("(%y) %%z").unwrap(),
            vec!["(", "%y", ")", "%", "%z"]
        );
        assert_eq!(
            tokenize("signed(%b.1)").unwrap(),
            vec!["signed", "(", "%b.1", ")"]
        );
        let dl = DataLayout::default();
        assert!(matches!(
            parse_cexpr("signed(%x) >= 0", &dl).unwrap(),
            CExpr::Binary(">=", _, _)
        ));
        assert!(parse_cexpr("%", &dl).is_err());
    }

    #[test]
    fn words_are_substituted_whole() {
        assert_eq!(
            subst_word("DIOpConstant(T C), T2, <2 x T>", "T", "i8"),
            "DIOpConstant(i8 C), T2, <2 x i8>"
        );
    }
}
