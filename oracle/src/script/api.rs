//! The Rust API for an implementation under test: what another project
//! implements to run dioptra's conformance corpus from its own `cargo test`.
//!
//! An implementation answers the questions it can ([`Implementation`]):
//!
//! * `check`: is an expression well-formed, and of which type;
//! * `eval`: the location an expression describes in a context;
//! * `lower`: the DWARF 5 of an expression, where the context puts the
//!   inputs (a DWARF producer);
//! * `eval_dwarf`: the location some DWARF 5 describes in a machine state
//!   (a DWARF consumer: a debugger's or a library's evaluator), answered as
//!   the pieces DWARF 5 Section 2.6.1.2 defines.
//!
//! A question it does not answer (`None`) is skipped, never passed.
//! [`run_corpus`] runs the cases of the scripts under some paths: `check`
//! and `eval` against each case's assertion; `lower` by comparing the
//! implementation's DWARF with the expression in the case's context (the
//! lowering law: same location, both fail, or more defined); `eval_dwarf`
//! on the reference's plain DWARF 5 lowering of each expression evaluated in
//! a context, and on each hand-written DWARF of `assert_dwarf_equiv`, by
//! comparing the pieces with the reference's location.
//!
//! ```no_run
//! use dioptra_oracle::script::api::{run_corpus, Implementation};
//! struct Mine;
//! impl Implementation for Mine {}
//! let report = run_corpus(&["corpus".into()], &mut Mine);
//! assert!(report.failures().is_empty(), "{report}");
//! ```

use super::parse::{parse_script, Case, Env, Expect};
use super::protocol::Response;
use super::run::{check_case, request, script_files};
use crate::input::read_file;
use crate::lower::compare::{compare_many, compare_result, described, parse_dwarf, Agreement};
use crate::lower::{lower, Target};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::classic::Params;
use dioptra_semantics::context::{ConcreteContext, Context, Signature};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::dwarf::unit::{BaseType as UnitBaseType, Listing, Unit};
use dioptra_semantics::dwarf::{decode, encode, DwarfOp, Encoding};
use dioptra_semantics::location::{read, LocDesc, Part, Storage};
use dioptra_semantics::text::{parse_expr, parse_type};
use num_bigint::BigInt;
use std::fmt;
use std::path::PathBuf;

/// Why an implementation gives no result: an outcome of the taxonomy
/// (malformed, ill-formed, evaluation error, unsupported) and its
/// diagnostic, which should start with `Construct: reason-code:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub outcome: Outcome,
    pub diagnostic: String,
}

impl Refusal {
    pub fn new(outcome: Outcome, diagnostic: impl Into<String>) -> Refusal {
        Refusal {
            outcome,
            diagnostic: diagnostic.into(),
        }
    }
}

/// Where one piece of a DWARF result is (DWARF 5 Section 2.6.1.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceLocation {
    /// No location: the piece is undefined (optimized out).
    Undefined,
    /// A register, by DWARF register number.
    Register(u32),
    /// Memory in address space 0, at a byte address.
    Memory(u64),
    /// An implicit value (`DW_OP_stack_value`), as many bits as it has.
    Value(Bits),
    /// An implicit value given as bytes (`DW_OP_implicit_value`).
    Bytes(Vec<u8>),
}

/// One piece of a DWARF result: the whole result when it is the only piece
/// and has no size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub size_in_bits: Option<u64>,
    /// `DW_OP_bit_piece`'s offset into the location.
    pub bit_offset: u64,
    pub location: PieceLocation,
}

/// A base type a DWARF expression names by its DIE offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseType {
    /// `DW_ATE_*`.
    pub encoding: u8,
    pub byte_size: u64,
    /// `DW_AT_name`: it tells two formats of one size and encoding apart
    /// (`half` and `bfloat` are both 2-byte `DW_ATE_float`).
    pub name: String,
}

/// What a DWARF producer answers for `lower`: the expression's bytes
/// (DWARF 5, 64-bit addresses, little endian) and the base types its typed
/// operations name, by DIE offset. DIEs of other kinds (an implicit
/// pointer's target, a `DW_OP_call*` procedure) are not part of the
/// answer: an implementation refuses such a lowering as unsupported.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DwarfAnswer {
    pub bytes: Vec<u8>,
    pub base_types: Vec<(u64, BaseType)>,
}

/// What a DWARF consumer is asked: evaluate `bytes` (DWARF 5, 64-bit
/// addresses, little endian, AMD operations in the `DW_OP_LLVM_user`
/// encoding) in a machine state, which it reads through this question.
pub struct DwarfQuestion<'a> {
    pub bytes: &'a [u8],
    listing: &'a Listing,
    ctx: &'a ConcreteContext,
}

impl DwarfQuestion<'_> {
    /// `size` bytes of address-space-0 memory at `address`; `None` where
    /// the machine state has none or some are undefined.
    pub fn memory(&self, address: u64, size: u64) -> Option<Vec<u8>> {
        let bits = self
            .ctx
            .read_memory(0, u128::from(address) * 8, size.checked_mul(8)?)
            .ok()?;
        Some(bits.to_le_bytes(size as usize))
    }
    /// The bytes of register `number` (little endian), if it has a value.
    pub fn register(&self, number: u32) -> Option<Vec<u8>> {
        let bits = self.ctx.register_bits(number)?;
        let value = self.ctx.read_register(number, 0, bits).ok()?;
        Some(value.to_le_bytes(bits.div_ceil(8) as usize))
    }
    /// Every base type the expression's unit declares.
    pub fn base_types(&self) -> Vec<BaseType> {
        self.listing
            .unit
            .base_types
            .keys()
            .filter_map(|&die| self.base_type(die))
            .collect()
    }
    /// The base type at DIE offset `die` of the expression's unit.
    pub fn base_type(&self, die: u64) -> Option<BaseType> {
        let b = self.listing.unit.base_types.get(&die)?;
        Some(BaseType {
            encoding: b.encoding.0,
            byte_size: b.byte_size,
            name: b.name.clone(),
        })
    }
    /// The address `DW_OP_push_object_address` pushes: the object's, when
    /// it is in address-space-0 memory at a whole byte.
    pub fn object_address(&self) -> Option<u64> {
        let o = self.ctx.type_object()?;
        match o.loc.singles() {
            [s] if matches!(*s.storage, Storage::Memory { addrspace: 0 }) && s.offset % 8 == 0 => {
                u64::try_from(s.offset / 8).ok()
            }
            _ => None,
        }
    }
    /// The whole machine state, for an implementation that wants more.
    pub fn context(&self) -> &ConcreteContext {
        self.ctx
    }
}

/// An implementation under test. Every question has a default that does
/// not answer it, so an implementation implements only what it does.
pub trait Implementation {
    /// The result type of `expr` (LLVM spelling) for `sig`. `classic`: the
    /// parameters of a classic `!DIExpression(DW_OP_...)`, if the case names
    /// any.
    fn check(
        &mut self,
        _expr: &str,
        _sig: &Signature,
        _classic: Option<&Params>,
    ) -> Option<Result<String, Refusal>> {
        None
    }
    /// The result type and location of `expr` in `ctx`.
    fn eval(
        &mut self,
        _expr: &str,
        _ctx: &ConcreteContext,
        _classic: Option<&Params>,
    ) -> Option<Result<(String, LocDesc), Refusal>> {
        None
    }
    /// The DWARF 5 describing `expr`'s result with the inputs where `ctx`
    /// puts them (their contents are not to be looked at).
    fn lower(
        &mut self,
        _expr: &str,
        _ctx: &ConcreteContext,
    ) -> Option<Result<DwarfAnswer, Refusal>> {
        None
    }
    /// The pieces some DWARF describes in a machine state.
    fn eval_dwarf(&mut self, _q: &DwarfQuestion) -> Option<Result<Vec<Piece>, Refusal>> {
        None
    }
}

/// The question a result answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    Check,
    Eval,
    Lower,
    EvalDwarf,
}

/// One result of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fail(String),
    /// Not compared: the implementation refused as unsupported, or the
    /// case needs what neither side has. Never a pass.
    Skipped(String),
}

#[derive(Clone, Debug)]
pub struct CaseResult {
    pub file: String,
    pub line: u32,
    pub expr: String,
    pub question: Question,
    pub verdict: Verdict,
}

/// What a run found: every question asked, in order.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub results: Vec<CaseResult>,
    /// Scripts that could not be read or parsed (`file: diagnostic`).
    pub errors: Vec<String>,
}

impl Report {
    fn count(&self, f: impl Fn(&Verdict) -> bool) -> usize {
        self.results.iter().filter(|r| f(&r.verdict)).count()
    }
    pub fn passed(&self) -> usize {
        self.count(|v| *v == Verdict::Pass)
    }
    pub fn skipped(&self) -> usize {
        self.count(|v| matches!(v, Verdict::Skipped(_)))
    }
    /// The failed results, and a failing script as a result of its own.
    pub fn failures(&self) -> Vec<String> {
        let mut out = self.errors.clone();
        for r in &self.results {
            if let Verdict::Fail(why) = &r.verdict {
                out.push(format!(
                    "{}:{}: {:?}: {why}\n    expr: {}",
                    r.file, r.line, r.question, r.expr
                ));
            }
        }
        out
    }
    /// How many results answer `q`.
    pub fn asked(&self, q: Question) -> usize {
        self.results.iter().filter(|r| r.question == q).count()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for line in self.failures() {
            writeln!(f, "{line}")?;
        }
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed(),
            self.failures().len(),
            self.skipped()
        )
    }
}

/// The location a DWARF consumer's pieces describe, in the machine state
/// `ctx` (for a piece's bit offset into its storage).
pub fn location_of_pieces(pieces: &[Piece], ctx: &dyn Context) -> Result<LocDesc, Diag> {
    let one = |p: &Piece| -> LocDesc {
        match &p.location {
            PieceLocation::Undefined => LocDesc::undefined(),
            PieceLocation::Register(n) => LocDesc::single(Storage::Register { number: *n }, 0),
            PieceLocation::Memory(a) => {
                LocDesc::single(Storage::Memory { addrspace: 0 }, u128::from(*a) * 8)
            }
            PieceLocation::Value(v) => LocDesc::implicit(v.clone()),
            PieceLocation::Bytes(b) => {
                LocDesc::implicit(Bits::from_le_bytes(b.len() as u64 * 8, b))
            }
        }
    };
    match pieces {
        [] => Ok(LocDesc::undefined()),
        [p] if p.size_in_bits.is_none() => Ok(one(p)),
        _ => {
            let mut parts = Vec::new();
            for p in pieces {
                let bits = p.size_in_bits.ok_or_else(|| {
                    Diag::eval("DWARF", "piece-without-size", "a piece without a size")
                })?;
                let mut l = one(p);
                if p.bit_offset > 0 {
                    l = l
                        .offset_by(ctx, &BigInt::from(p.bit_offset))
                        .map_err(|f| f.at("DWARF"))?;
                }
                parts.push(Part { bits, loc: l });
            }
            Ok(LocDesc::single(Storage::composite(parts), 0))
        }
    }
}

fn refusal_diag(r: Refusal) -> Diag {
    let mut d = Diag::eval("Implementation", "refused", r.diagnostic);
    d.outcome = r.outcome;
    d
}

/// The protocol's answer from a typed one (so the protocol's comparison,
/// `check_case`, judges both).
fn response(r: Result<Response, Refusal>) -> Response {
    r.unwrap_or_else(|f| Response {
        outcome: f.outcome.word().into(),
        diagnostic: Some(f.diagnostic),
        ..Response::default()
    })
}

/// The value an evaluation's location holds, read as its type, in hex.
fn value_hex(ctx: &ConcreteContext, ty: &str, loc: &LocDesc) -> Option<String> {
    let t = parse_type(ty).ok()?;
    let v = read(ctx, loc, ctx.layout.bitsizeof(&t)).ok()?;
    Some(format!("0x{}", v.hex()))
}

/// Runs every script under `paths` against `imp`.
pub fn run_corpus(paths: &[PathBuf], imp: &mut dyn Implementation) -> Report {
    let mut report = Report::default();
    for root in paths {
        let files = script_files(root);
        if files.is_empty() {
            report.errors.push(format!(
                "{}: Script: not-found: no .dioptra files",
                root.display()
            ));
        }
        for f in files {
            let name = f.display().to_string();
            let script = read_file(&f, "Script")
                .and_then(|text| parse_script(&name, &text))
                .map_err(|d| d.to_string());
            match script {
                Ok(s) => s.cases.iter().for_each(|c| ask(c, imp, &mut report)),
                Err(e) => report.errors.push(e),
            }
        }
    }
    report
}

/// Asks `imp` every question `case` can put.
fn ask(case: &Case, imp: &mut dyn Implementation, report: &mut Report) {
    let mut push = |question: Question, verdict: Verdict| {
        report.results.push(CaseResult {
            file: case.file.clone(),
            line: case.line,
            expr: case.expr.clone(),
            question,
            verdict,
        })
    };
    if !case.expect.in_process() && !case.expect.is_module() {
        if let Some((q, v)) = ask_protocol(case, imp) {
            push(q, v);
        }
    }
    let Env::Ctx(ctx) = &case.env else {
        return;
    };
    if case.classic.is_some() || !case.expect.evaluates() {
        return;
    }
    let Ok(expr) = parse_expr(&case.expr) else {
        return;
    };
    if let Some(v) = ask_lower(&expr, case, ctx, imp) {
        push(Question::Lower, v);
    }
    if let Some(v) = ask_eval_dwarf(&expr, case, ctx, imp) {
        push(Question::EvalDwarf, v);
    }
}

/// `check` and `eval`, judged as the line protocol's answers are.
fn ask_protocol(case: &Case, imp: &mut dyn Implementation) -> Option<(Question, Verdict)> {
    let req = request(0, case);
    let params = match case.classic.as_ref().map(|c| c.params()).transpose() {
        Ok(p) => p,
        Err(d) => return Some((Question::Check, Verdict::Fail(d.to_string()))),
    };
    let (question, answer) = match req.command.as_str() {
        "check" => {
            let sig = case.env.signature();
            let a = imp.check(&case.expr, &sig, params.as_ref())?;
            let r = a.map(|ty| Response {
                outcome: "ok".into(),
                ty: Some(ty),
                ..Response::default()
            });
            (Question::Check, response(r))
        }
        "eval" => {
            let Env::Ctx(ctx) = &case.env else {
                return None;
            };
            let a = imp.eval(&case.expr, ctx, params.as_ref())?;
            let r = a.map(|(ty, loc)| Response {
                outcome: "ok".into(),
                value: value_hex(ctx, &ty, &loc),
                location: Some(loc.to_string()),
                ty: Some(ty),
                ..Response::default()
            });
            (Question::Eval, response(r))
        }
        _ => return None,
    };
    let verdict = match check_case(case, &answer) {
        Ok(()) => Verdict::Pass,
        Err(_) if answer.outcome == "unsupported" => {
            Verdict::Skipped(answer.diagnostic.unwrap_or_default())
        }
        Err(m) => Verdict::Fail(m),
    };
    Some((question, verdict))
}

/// The implementation's DWARF for a case evaluated in a context, compared
/// with the expression there and in 16 variants of the context.
fn ask_lower(
    expr: &dioptra_semantics::syntax::Expr,
    case: &Case,
    ctx: &ConcreteContext,
    imp: &mut dyn Implementation,
) -> Option<Verdict> {
    let answer = match imp.lower(&case.expr, ctx)? {
        Ok(a) => a,
        Err(r) if r.outcome == Outcome::Unsupported => return Some(Verdict::Skipped(r.diagnostic)),
        Err(r) => return Some(Verdict::Fail(format!("refused: {}", r.diagnostic))),
    };
    let enc = Encoding::default();
    let mut unit = Unit::default();
    for (die, b) in &answer.base_types {
        unit.base_types.insert(
            *die,
            UnitBaseType {
                encoding: gimli::DwAte(b.encoding),
                byte_size: b.byte_size,
                name: b.name.clone(),
            },
        );
    }
    let listing = match decode(&answer.bytes, enc) {
        Ok(ops) => Listing { ops, unit },
        Err(d) => return Some(Verdict::Fail(format!("the DWARF does not decode: {d}"))),
    };
    let l = match described(expr, ctx, listing) {
        Ok(l) => l,
        Err(d) => return Some(Verdict::Skipped(d.to_string())),
    };
    let t = compare_many(expr, &l, ctx, enc, 16, u64::from(case.line));
    Some(match t.first_difference {
        Some((_, a)) => Verdict::Fail(a.describe()),
        None if t.compared() == 0 => Verdict::Skipped(format!("not compared: {}", t.summary())),
        None => Verdict::Pass,
    })
}

/// The implementation's reading of plain DWARF 5: the reference's lowering
/// of the case's expression, or the case's own DWARF (`assert_dwarf_equiv`).
fn ask_eval_dwarf(
    expr: &dioptra_semantics::syntax::Expr,
    case: &Case,
    ctx: &ConcreteContext,
    imp: &mut dyn Implementation,
) -> Option<Verdict> {
    let enc = Encoding::default();
    let (lowered, verdict) = match &case.expect {
        Expect::DwarfEquiv { dwarf, verdict, .. } => {
            let listing = parse_dwarf(dwarf, enc).ok()?;
            // Plain DWARF 5 only: AMD's operations are for dioptra's evaluator.
            if listing
                .ops
                .iter()
                .any(|o| !matches!(o, DwarfOp::Std { .. }))
            {
                return None;
            }
            (described(expr, ctx, listing).ok()?, Some(verdict.as_str()))
        }
        _ => (lower(expr, ctx, Target::Dwarf5).ok()?, None),
    };
    let bytes = encode(&lowered.listing.ops, enc).ok()?;
    let q = DwarfQuestion {
        bytes: &bytes,
        listing: &lowered.listing,
        ctx,
    };
    let dwarf = match imp.eval_dwarf(&q)? {
        Ok(pieces) => location_of_pieces(&pieces, ctx),
        Err(r) => Err(refusal_diag(r)),
    };
    let a = compare_result(expr, &lowered, ctx, dwarf);
    Some(match (a, verdict) {
        (Agreement::NotCompared(d), _) => Verdict::Skipped(d.to_string()),
        (a, None | Some("same")) if a.holds() => Verdict::Pass,
        (a, None | Some("same")) => Verdict::Fail(a.describe()),
        // The case says this DWARF differs from the expression: a reading
        // that makes them agree is wrong.
        (a, Some(_)) if a.holds() => Verdict::Fail(format!(
            "the DWARF should differ from the expression here, but {}",
            a.describe()
        )),
        (_, Some(_)) => Verdict::Pass,
    })
}
