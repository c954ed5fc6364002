//! The public API for implementations under test (`script::api`): an
//! implementation that answers with dioptra's own semantics passes every
//! question the corpus puts, and one that answers wrongly fails them.

use dioptra_oracle::lower::{lower, Target};
use dioptra_oracle::script::api::{
    location_of_pieces, run_corpus, BaseType, DwarfAnswer, Implementation, Piece, PieceLocation,
    Question, Refusal, Verdict,
};
use dioptra_semantics::bits::Bits;
use dioptra_semantics::classic::any::parse_any;
use dioptra_semantics::classic::Params;
use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::diag::{Diag, Outcome};
use dioptra_semantics::dwarf::{encode, Encoding};
use dioptra_semantics::location::LocDesc;
use dioptra_semantics::text::parse_expr;
use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn refusal(d: Diag) -> Refusal {
    Refusal::new(d.outcome, d.to_string())
}

/// dioptra's semantics behind the API.
struct Reference;

impl Implementation for Reference {
    fn check(
        &mut self,
        expr: &str,
        sig: &Signature,
        classic: Option<&Params>,
    ) -> Option<Result<String, Refusal>> {
        let p = classic.cloned().unwrap_or_default();
        Some(
            parse_any(expr)
                .and_then(|e| e.check(sig, &p))
                .map(|(t, _)| t.to_string())
                .map_err(refusal),
        )
    }
    fn eval(
        &mut self,
        expr: &str,
        ctx: &ConcreteContext,
        classic: Option<&Params>,
    ) -> Option<Result<(String, LocDesc), Refusal>> {
        let p = classic.cloned().unwrap_or_default();
        Some(
            parse_any(expr)
                .and_then(|e| e.eval(ctx, &p))
                .map(|ev| (ev.ty.to_string(), ev.loc))
                .map_err(refusal),
        )
    }
    fn lower(&mut self, expr: &str, ctx: &ConcreteContext) -> Option<Result<DwarfAnswer, Refusal>> {
        let unsupported = |m: String| Refusal::new(Outcome::Unsupported, m);
        let l = match parse_expr(expr).and_then(|e| lower(&e, ctx, Target::Dwarf5)) {
            Ok(l) => l,
            Err(d) => return Some(Err(unsupported(d.to_string()))),
        };
        if !l.listing.unit.dies.is_empty() {
            return Some(Err(unsupported("a DIE other than a base type".into())));
        }
        Some(
            encode(&l.listing.ops, Encoding::default())
                .map(|bytes| DwarfAnswer {
                    bytes,
                    base_types: l
                        .listing
                        .unit
                        .base_types
                        .iter()
                        .map(|(k, b)| {
                            (
                                *k,
                                BaseType {
                                    encoding: b.encoding.0,
                                    byte_size: b.byte_size,
                                    name: b.name.clone(),
                                },
                            )
                        })
                        .collect(),
                })
                .map_err(refusal),
        )
    }
}

#[test]
fn the_reference_behind_the_api_passes_every_question() {
    let report = run_corpus(&[corpus()], &mut Reference);
    eprintln!(
        "reference through the API: {report}; asked check {}, eval {}, lower {}",
        report.asked(Question::Check),
        report.asked(Question::Eval),
        report.asked(Question::Lower)
    );
    assert!(report.failures().is_empty(), "{report}");
    assert!(
        report.asked(Question::Check) >= 230,
        "{}",
        report.asked(Question::Check)
    );
    assert!(
        report.asked(Question::Eval) >= 300,
        "{}",
        report.asked(Question::Eval)
    );
    assert!(
        report.asked(Question::Lower) >= 350,
        "{}",
        report.asked(Question::Lower)
    );
    // Nothing answers eval_dwarf here, so it is never asked of this one.
    assert_eq!(report.asked(Question::EvalDwarf), 0);
    assert!(report.passed() >= 850, "only {} passed", report.passed());
}

/// Answers every check with `i32` and every evaluation with an undefined
/// `i32` and every lowering with `DW_OP_lit0, DW_OP_stack_value`.
struct Wrong;

impl Implementation for Wrong {
    fn check(
        &mut self,
        _: &str,
        _: &Signature,
        _: Option<&Params>,
    ) -> Option<Result<String, Refusal>> {
        Some(Ok("i32".into()))
    }
    fn eval(
        &mut self,
        _: &str,
        _: &ConcreteContext,
        _: Option<&Params>,
    ) -> Option<Result<(String, LocDesc), Refusal>> {
        Some(Ok(("i32".into(), LocDesc::undefined())))
    }
    fn lower(&mut self, _: &str, _: &ConcreteContext) -> Option<Result<DwarfAnswer, Refusal>> {
        Some(Ok(DwarfAnswer {
            bytes: vec![0x30, 0x9f],
            base_types: vec![],
        }))
    }
}

#[test]
fn a_wrong_implementation_fails_every_kind_of_question() {
    let report = run_corpus(&[corpus().join("ops")], &mut Wrong);
    let failed = |q: Question| {
        report
            .results
            .iter()
            .filter(|r| r.question == q && matches!(r.verdict, Verdict::Fail(_)))
            .count()
    };
    for q in [Question::Check, Question::Eval, Question::Lower] {
        assert!(
            failed(q) * 2 > report.asked(q),
            "{q:?}: only {} of {} failed",
            failed(q),
            report.asked(q)
        );
    }
}

/// An implementation that answers nothing is asked nothing and passes
/// nothing: silence is never conformance.
#[test]
fn an_implementation_that_answers_nothing_passes_nothing() {
    struct Silent;
    impl Implementation for Silent {}
    let report = run_corpus(&[corpus().join("ops")], &mut Silent);
    assert!(report.results.is_empty());
    assert_eq!(report.passed(), 0);
}

#[test]
fn a_missing_corpus_is_an_error() {
    let report = run_corpus(&[corpus().join("no-such-folder")], &mut Reference);
    assert_eq!(report.failures().len(), 1, "{report}");
}

#[test]
fn pieces_make_a_composite_location() {
    let ctx = ConcreteContext::parse("(context c (register 3 \"01 02 03 04\"))").unwrap();
    let pieces = [
        Piece {
            size_in_bits: Some(16),
            bit_offset: 8,
            location: PieceLocation::Register(3),
        },
        Piece {
            size_in_bits: Some(32),
            bit_offset: 0,
            location: PieceLocation::Memory(0x1000),
        },
        Piece {
            size_in_bits: Some(8),
            bit_offset: 0,
            location: PieceLocation::Value(Bits::from_u64(8, 0x7f)),
        },
    ];
    let l = location_of_pieces(&pieces, &ctx).unwrap();
    assert_eq!(
        l.to_string(),
        "comp(16: reg(3)+8, 32: mem(0, 0x1000), 8: imp(8, 0x7f))"
    );
    let one = location_of_pieces(
        &[Piece {
            size_in_bits: None,
            bit_offset: 0,
            location: PieceLocation::Bytes(vec![1, 2]),
        }],
        &ctx,
    )
    .unwrap();
    assert_eq!(one.to_string(), "imp(16, 0x0201)");
    let sizeless = [
        pieces[0].clone(),
        Piece {
            size_in_bits: None,
            ..pieces[1].clone()
        },
    ];
    assert!(location_of_pieces(&sizeless, &ctx).is_err());
}
