//! dioptra's DWARF evaluator against `gimli::Evaluation` on the same plain
//! DWARF 5 expressions, in one run, as a ratio; and lowering throughput.
//!
//! The expressions are `--target dwarf5` lowerings of generated well-formed
//! expressions, each in the generated context it was made for, kept only
//! where gimli evaluates it to completion and agrees with dioptra (so both
//! sides do the same work). Both start from the encoded bytes and read each
//! operation as they run it (dioptra's `evaluate_bytes`, gimli's
//! `Evaluation`); both answer memory and register reads from the same
//! context and build a location description. Decoding to an operation list
//! first, and evaluating an already decoded list, are timed too. The best of
//! several rounds is reported.
//!
//! `cargo bench -p dioptra-properties --bench dwarf`

use dioptra_generators::{arb_context, arb_wellformed_expr};
use dioptra_oracle::diff::gimli::{differential, evaluate_bytes, Differential};
use dioptra_oracle::lower::{lower, Lowered, Target};
use dioptra_properties::laws::GIMLI_CHOICES;
use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::dwarf::eval::{self, evaluate, Env};
use dioptra_semantics::dwarf::{decode, encode, Encoding};
use dioptra_semantics::syntax::Expr;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The allocator the `dioptra` command runs with, so that the figures are
/// the command's.
#[global_allocator]
static ALLOCATOR: dioptra_alloc::Mimalloc = dioptra_alloc::Mimalloc;

const ROUNDS: usize = 20;

fn main() {
    let mut runner = TestRunner::deterministic();
    let s = (arb_wellformed_expr(GIMLI_CHOICES), arb_context());
    let mut cases: Vec<(Vec<u8>, Lowered, ConcreteContext)> = Vec::new();
    let mut exprs: Vec<(Expr, ConcreteContext)> = Vec::new();
    let mut drawn = 0;
    while cases.len() < 2_000 && drawn < 200_000 {
        drawn += 1;
        let (e, c) = s.new_tree(&mut runner).unwrap().current();
        let Ok(ctx) = ConcreteContext::parse(&c) else {
            continue;
        };
        let Ok(l) = lower(&e, &ctx, Target::Dwarf5) else {
            continue;
        };
        if differential(&l, &ctx) != Differential::Agree {
            continue;
        }
        let bytes = encode(&l.listing.ops, Encoding::default()).unwrap();
        cases.push((bytes, l, ctx));
    }
    let ops: usize = cases.iter().map(|c| c.1.listing.ops.len()).sum();
    let bytes: usize = cases.iter().map(|c| c.0.len()).sum();
    let n = cases.len() as f64;
    println!(
        "{} plain DWARF 5 expressions both evaluators complete and agree on (of {drawn} drawn), {:.1} ops, {:.1} bytes each",
        cases.len(),
        ops as f64 / n,
        bytes as f64 / n
    );

    let decoded: Vec<_> = cases
        .iter()
        .map(|(b, _, _)| decode(b, Encoding::default()).unwrap())
        .collect();
    // `DIOPTRA_BENCH_PROFILE=decode|evaluate|bytes` loops one side alone for
    // a profiler (`perf record`) and prints nothing more.
    if let Ok(which) = std::env::var("DIOPTRA_BENCH_PROFILE") {
        for _ in 0..2_000 {
            for ((b, l, ctx), ops) in cases.iter().zip(&decoded) {
                let env = Env::new(ctx, &l.listing.unit);
                match which.as_str() {
                    "decode" => drop(black_box(decode(b, Encoding::default()).unwrap())),
                    "bytes" => drop(black_box(eval::evaluate_bytes(b, env).unwrap())),
                    _ => drop(black_box(evaluate(ops, env).unwrap())),
                }
            }
        }
        return;
    }
    let (mut ours, mut theirs, mut ours_decoded) = (Duration::MAX, Duration::MAX, Duration::MAX);
    let (mut decoding, mut decode_then_evaluate) = (Duration::MAX, Duration::MAX);
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for (b, _, _) in &cases {
            black_box(decode(b, Encoding::default()).unwrap());
        }
        decoding = decoding.min(t.elapsed());
        let t = Instant::now();
        for ((_, l, ctx), ops) in cases.iter().zip(&decoded) {
            let env = Env::new(ctx, &l.listing.unit);
            black_box(evaluate(ops, env).unwrap());
        }
        ours_decoded = ours_decoded.min(t.elapsed());
        let t = Instant::now();
        for (b, l, ctx) in &cases {
            let env = Env::new(ctx, &l.listing.unit);
            black_box(eval::evaluate_bytes(b, env).unwrap());
        }
        ours = ours.min(t.elapsed());
        let t = Instant::now();
        for (b, l, ctx) in &cases {
            let ops = decode(b, Encoding::default()).unwrap();
            let env = Env::new(ctx, &l.listing.unit);
            black_box(evaluate(&ops, env).unwrap());
        }
        decode_then_evaluate = decode_then_evaluate.min(t.elapsed());
        let t = Instant::now();
        for (b, l, ctx) in &cases {
            black_box(evaluate_bytes(b, &l.listing, ctx));
        }
        theirs = theirs.min(t.elapsed());
    }
    let per = |d: Duration| d.as_secs_f64() * 1e6 / n;
    println!(
        "evaluate from bytes: dioptra {:.2} us/expr (evaluate_bytes), gimli {:.2} us/expr (evaluate + adapter); dioptra/gimli = {:.2} (best of {ROUNDS} rounds; goal <= 1)",
        per(ours),
        per(theirs),
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
    println!(
        "decode to a list of ops, then evaluate: dioptra {:.2} us/expr, of which decoding {:.2}; dioptra/gimli = {:.2}",
        per(decode_then_evaluate),
        per(decoding),
        decode_then_evaluate.as_secs_f64() / theirs.as_secs_f64()
    );
    println!(
        "evaluate already decoded ops (how dwarf-equiv runs: decode once, evaluate in many contexts): dioptra {:.2} us/expr; dioptra/gimli = {:.2}",
        per(ours_decoded),
        ours_decoded.as_secs_f64() / theirs.as_secs_f64()
    );

    // Lowering throughput on the property tests' expressions (up to 40
    // generator choices).
    let long = (arb_wellformed_expr(40), arb_context());
    while exprs.len() < 5_000 {
        let (e, c) = long.new_tree(&mut runner).unwrap().current();
        if let Ok(ctx) = ConcreteContext::parse(&c) {
            exprs.push((e, ctx));
        }
    }
    let ops: usize = exprs.iter().map(|(e, _)| e.ops.len()).sum();
    println!(
        "lowering: {} generated expressions, {:.1} DIOps each",
        exprs.len(),
        ops as f64 / exprs.len() as f64
    );
    for target in [Target::Amdgpu, Target::Dwarf5] {
        let mut best = Duration::MAX;
        let mut lowered = 0;
        for _ in 0..3 {
            lowered = 0;
            let t = Instant::now();
            for (e, ctx) in &exprs {
                if black_box(lower(e, ctx, target)).is_ok() {
                    lowered += 1;
                }
            }
            best = best.min(t.elapsed());
        }
        println!(
            "lower --target {}: {} expressions ({lowered} lowered, the rest not expressible) in {:.3} s = {:.0} expr/s",
            target.name(),
            exprs.len(),
            best.as_secs_f64(),
            exprs.len() as f64 / best.as_secs_f64()
        );
    }
}
