//! Evaluation speed: a fixed set of expressions of 4 to 64 ops, checked and
//! evaluated in a fixed context. Criterion reports the time per expression and
//! the throughput in ops; the summary printed last gives nanoseconds per op
//! of `eval` (narrow evaluation, which answers every expression of the set,
//! see `dioptra_semantics::narrow`), of the reference alone
//! (`eval_reference`: the whole check, then the evaluation) in the same
//! run, their ratio, and the reference's check alone.
//! `DIOPTRA_BENCH_PROFILE=eval|reference|check` runs only the summary's
//! rounds of one side, for a profiler (`DIOPTRA_BENCH_EXPR=NAME`: only the
//! expressions whose name starts with NAME).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use dioptra_semantics::context::{ConcreteContext, Context};
use dioptra_semantics::eval::{eval, eval_reference};
use dioptra_semantics::narrow::eval_narrow;
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::text::parse_expr;
use dioptra_semantics::wellformed::check;
use std::time::Instant;

/// The allocator the `dioptra` command runs with, so that the figures are
/// the command's.
#[global_allocator]
static ALLOCATOR: dioptra_alloc::Mimalloc = dioptra_alloc::Mimalloc;

fn context() -> ConcreteContext {
    ConcreteContext::parse(
        r#"(context
             (register 3 "00 01 00 00")
             (register 4 "01 02 03 04 05 06 07 08")
             (memory 5 0x100 "2a 00 00 00 ff ff ff ff 10 20 30 40 50 60 70 80")
             (referrer "ptr addrspace(5)" "reg(3)")
             (arg "i64" "reg(4)")
             (arg "i32" "mem(5, 0x104)")
             (lane 7))"#,
    )
    .unwrap()
}

/// (name, expression): memory locations, arithmetic, composites, selects.
fn expressions() -> Vec<(String, Expr)> {
    let mut v = vec![
        ("deref-offset-4", "DIOpReferrer(ptr addrspace(5)), DIOpDeref(i64), DIOpConstant(i32 4), DIOpByteOffset(i32)".to_string()),
        (
            "arith-8",
            "DIOpArg(0, i64), DIOpConstant(i64 3), DIOpMul(), DIOpArg(0, i64), DIOpAdd(), DIOpConstant(i64 1), DIOpShl(), DIOpRead()".to_string(),
        ),
        (
            "composite-16",
            "DIOpReferrer(ptr addrspace(5)), DIOpDeref(i32), DIOpReferrer(ptr addrspace(5)), DIOpDeref(i32), DIOpConstant(i8 4), DIOpByteOffset(i32), \
             DIOpReferrer(ptr addrspace(5)), DIOpDeref(i32), DIOpConstant(i8 8), DIOpByteOffset(i32), DIOpConstant(i32 9), DIOpComposite(4, i128), \
             DIOpConstant(i8 32), DIOpBitOffset(i64), DIOpRead(), DIOpFragment(0, 64)"
                .to_string(),
        ),
    ];
    // 32 and 64 ops: lane arithmetic and selects over extended values.
    let mut e32 = vec!["DIOpPushLane(i32)".to_string()];
    while e32.len() < 31 {
        e32.push("DIOpConstant(i32 3), DIOpMul()".into());
        e32.push("DIOpArg(1, i32), DIOpXor()".into());
    }
    e32.truncate(16);
    let mut s32 = e32.join(", ");
    s32.push_str(", DIOpRead()");
    let mut e64 = String::from("DIOpConstant(i16 1), DIOpExtend(4)");
    for k in 0..15 {
        e64.push_str(&format!(
            ", DIOpConstant(i16 {k}), DIOpExtend(4), DIOpConstant(i4 {}), DIOpSelect()",
            k % 16
        ));
    }
    e64.push_str(", DIOpRead(), DIOpFragment(0, 64)");
    v.push(("lane-arith-32", s32));
    v.push(("select-64", e64));
    v.into_iter()
        .map(|(n, s)| {
            let e = parse_expr(&s).unwrap();
            (format!("{n}:{}", e.ops.len()), e)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let ctx = context();
    let exprs = expressions();
    // `DIOPTRA_BENCH_PROFILE=eval|check` repeats the summary's rounds of one
    // side alone, for `perf record` or `valgrind --tool=callgrind`.
    // `DIOPTRA_BENCH_EXPR=NAME` keeps only the expressions whose name
    // starts with NAME.
    if let Ok(side) = std::env::var("DIOPTRA_BENCH_PROFILE") {
        let sig = ctx.signature();
        let only = std::env::var("DIOPTRA_BENCH_EXPR").unwrap_or_default();
        for _ in 0..20_000 {
            for (_, e) in exprs.iter().filter(|(n, _)| n.starts_with(&only)) {
                match side.as_str() {
                    "eval" => drop(black_box(eval(black_box(e), &ctx).unwrap())),
                    "reference" => drop(black_box(eval_reference(black_box(e), &ctx).unwrap())),
                    "check" => drop(black_box(check(black_box(e), &sig).unwrap())),
                    other => panic!("DIOPTRA_BENCH_PROFILE: eval, reference or check, not {other}"),
                }
            }
        }
        return;
    }
    let mut g = c.benchmark_group("eval");
    for (name, e) in &exprs {
        let r = eval_reference(e, &ctx).unwrap_or_else(|d| panic!("{name}: {d}"));
        // The figures are narrow evaluation's: it answers each of them, and
        // gives the reference's result.
        assert_eq!(eval_narrow(e, &ctx), Some(r), "{name}: narrow evaluation");
        g.throughput(Throughput::Elements(e.ops.len() as u64));
        g.bench_function(name.as_str(), |b| {
            b.iter(|| eval(black_box(e), &ctx).unwrap())
        });
    }
    g.finish();
    // A plain summary: nanoseconds per op over the whole set.
    let (mut ops, rounds) = (0u64, 20_000u32);
    let t = Instant::now();
    for _ in 0..rounds {
        for (_, e) in &exprs {
            black_box(eval(black_box(e), &ctx).unwrap());
            ops += e.ops.len() as u64;
        }
    }
    let ns = t.elapsed().as_nanos() as f64 / ops as f64;
    println!("summary: {ops} ops evaluated (check + eval) in total, {ns:.1} ns per op");
    // The reference alone, the same rounds.
    let t = Instant::now();
    for _ in 0..rounds {
        for (_, e) in &exprs {
            black_box(eval_reference(black_box(e), &ctx).unwrap());
        }
    }
    let reference_ns = t.elapsed().as_nanos() as f64 / ops as f64;
    println!(
        "the reference (eval_reference: check, then evaluate): {reference_ns:.1} ns per op; eval / reference = {:.2}",
        ns / reference_ns
    );
    // The reference's check alone: the same rounds, checking only.
    let sig = ctx.signature();
    let t = Instant::now();
    for _ in 0..rounds {
        for (_, e) in &exprs {
            black_box(check(black_box(e), &sig).unwrap());
        }
    }
    let check_ns = t.elapsed().as_nanos() as f64 / ops as f64;
    println!("of which the reference's check: {check_ns:.1} ns per op");
}

criterion_group!(benches, bench);
criterion_main!(benches);
