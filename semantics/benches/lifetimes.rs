//! Scale of the lifetime analysis: generated functions of 10 000 and 100 000
//! instructions with 1 000 and 10 000 lifetime segments. Prints the time of
//! each phase (parse, check, ranges, locating every object at every point of
//! its range, each stretch between two changes located once) for both sizes
//! (the least of 9 runs at 10 000 instructions and of 5 at 100 000, the
//! runs of the two sizes taken in turn),
//! the total against issue 24's target (250 ms at 100 000 instructions), the
//! growth ratio (10 would be linear), and, as the reference, locating each
//! object-point on its own.
//!
//! `cargo bench -p dioptra-semantics --bench lifetimes`; with
//! `DIOPTRA_BENCH_SWEEP=parse|check|ranges|locate`, one phase timed from
//! 10 000 to 1 000 000 instructions instead (with `-cold`, `check-cold`
//! and so on, each run after the phases before it run afresh, as here).

use dioptra_semantics::context::ConcreteContext;
use dioptra_semantics::lifetime::listing::Kind;
use dioptra_semantics::lifetime::locate::{Analysis, SegmentCache};
use dioptra_semantics::lifetime::parse_module;
use dioptra_semantics::lifetime::ranges::{Reading, Sweep};
use dioptra_semantics::lifetime::wellformed::check_module;
use std::fmt::Write;
use std::time::Instant;

/// The allocator the `dioptra` command runs with, so that the figures are
/// the command's.
#[global_allocator]
static ALLOCATOR: dioptra_alloc::Mimalloc = dioptra_alloc::Mimalloc;

/// A function of `n` instructions in blocks of 20, each falling through or
/// branching ahead, with a loop back-edge every 50 blocks; `s` variables, each
/// with one bounded segment killed 40..240 instructions after its def, in a
/// block every path from the def goes through (so ranges stay bounded, and
/// the output grows with the input).
fn listing(n: usize, s: usize) -> String {
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let blocks = n / 20;
    // Where each def and kill goes: instruction slot -> text.
    let mut at: Vec<Vec<String>> = vec![Vec::new(); n];
    for v in 0..s {
        let d = (rnd() as usize) % (n - 300);
        let mut k = d + 40 + (rnd() as usize) % 200;
        // Blocks b with b % 7 == 4 can be skipped (b - 1 branches over them):
        // a kill there would let the segment run to the end of the function.
        if (k / 20) % 7 == 4 {
            k = (k / 20 + 1) * 20;
        }
        at[d].push(format!(
            "call void @llvm.dbg.def(metadata !l{v}, metadata i32 %v{v})"
        ));
        at[k].push(format!("call void @llvm.dbg.kill(metadata !l{v})"));
    }
    let mut t = String::new();
    t.push_str("define void @f() {\n");
    for b in 0..blocks {
        writeln!(t, "b{b}:").unwrap();
        for (i, calls) in at.iter().enumerate().take((b + 1) * 20 - 1).skip(b * 20) {
            writeln!(t, "  %t{i} = add i32 1, 2").unwrap();
            for c in calls {
                writeln!(t, "  {c}").unwrap();
            }
        }
        let last = (b + 1) * 20 - 1;
        for c in &at[last] {
            writeln!(t, "  {c}").unwrap();
        }
        if b + 1 == blocks {
            t.push_str("  ret void\n");
        } else if b % 50 == 49 {
            writeln!(t, "  br i1 %c, label %b{}, label %b{}", b - 3, b + 1).unwrap();
        } else if b % 7 == 3 && b + 2 < blocks {
            writeln!(t, "  br i1 %c, label %b{}, label %b{}", b + 1, b + 2).unwrap();
        } else {
            writeln!(t, "  br label %b{}", b + 1).unwrap();
        }
    }
    t.push_str("}\n");
    for v in 0..s {
        writeln!(t, "!v{v} = !DILocalVariable(\"v{v}\")").unwrap();
        writeln!(
            t,
            "!l{v} = distinct !DILifetime(object: !v{v}, location: !DIExpr(DIOpReferrer(i32)))"
        )
        .unwrap();
    }
    t
}

struct Times {
    parse: f64,
    check: f64,
    ranges: f64,
    locate: f64,
    /// Locating each object-point on its own (the reference).
    pointwise: f64,
    located: usize,
    insts: usize,
}

/// Locates every object at every point of its segments' ranges, each
/// stretch between two boundaries once, in a fresh cache; how many
/// object-points.
fn locate_all(a: &Analysis, ctx: &ConcreteContext) -> usize {
    let cache = SegmentCache::new(ctx);
    let mut located = 0;
    for o in a.objects_at() {
        let mut pieces = a.pieces_at(&cache, o, usize::MAX);
        for (_, runs) in a.segment_ranges_at(o).into_iter().flatten() {
            for &(start, end) in runs {
                for p in start..end {
                    assert!(pieces.at(p).is_ok());
                    located += 1;
                }
            }
        }
    }
    located
}

fn run(n: usize, s: usize) -> Times {
    let text = listing(n, s);
    let t0 = Instant::now();
    let m = parse_module(&text).unwrap();
    let t1 = Instant::now();
    let ds = check_module(&m);
    assert!(ds.is_empty(), "{}", ds[0]);
    let t2 = Instant::now();
    let a = Analysis::new(&m, Reading::ControlFlow);
    let t3 = Instant::now();
    let ctx = ConcreteContext::default();
    let located = locate_all(&a, &ctx);
    let t4 = Instant::now();
    // The reference: each object-point located on its own, in a fresh
    // cache (how `locate` was used before pieces).
    let cache = SegmentCache::new(&ctx);
    let mut sweep = Sweep::new(&a.ranges);
    let mut pointwise = 0;
    for p in 0..m.insts.len() {
        let active: Vec<&str> = sweep.at(p).iter().copied().collect();
        for lt in active {
            let Some(Kind::Lifetime {
                object: Some(o), ..
            }) = m.nodes.get(lt).map(|n| &n.kind)
            else {
                continue;
            };
            a.locate_cached(&cache, o, p).unwrap();
            pointwise += 1;
        }
    }
    assert_eq!(pointwise, located, "both visit every object-point");
    let t5 = Instant::now();
    let s = |a: Instant, b: Instant| (b - a).as_secs_f64();
    Times {
        parse: s(t0, t1),
        check: s(t1, t2),
        ranges: s(t2, t3),
        locate: s(t3, t4),
        pointwise: s(t4, t5),
        located,
        insts: m.insts.len(),
    }
}

/// Keeps each phase's least time of `t` and `r` (the first run of a size
/// also pays for page faults and cold caches; a single run of a few
/// milliseconds is mostly noise).
fn keep_least(t: &mut Times, r: Times) {
    t.parse = t.parse.min(r.parse);
    t.check = t.check.min(r.check);
    t.ranges = t.ranges.min(r.ranges);
    t.locate = t.locate.min(r.locate);
    t.pointwise = t.pointwise.min(r.pointwise);
}

/// Each phase's least time over `small_reps` runs of the smaller function
/// and `big_reps` of the larger, the runs of the two sizes taken in turn:
/// on a shared machine the speed drifts by a quarter from one second to the
/// next, and timing all of one size before the other put that drift into
/// the growth ratios.
fn best_of_both(
    small: (usize, usize),
    big: (usize, usize),
    small_reps: usize,
    big_reps: usize,
) -> (Times, Times) {
    let (mut s, mut b) = (run(small.0, small.1), run(big.0, big.1));
    for k in 1..small_reps.max(big_reps) {
        if k < small_reps {
            keep_least(&mut s, run(small.0, small.1));
        }
        if k < big_reps {
            keep_least(&mut b, run(big.0, big.1));
        }
    }
    (s, b)
}

/// Repeats `phase` on a function of `n` instructions (`n / 10` segments),
/// `20 * 100_000 / n` times (the same total work at any size): the least
/// and the median time of one run, in seconds, and the number of runs.
///
/// `phase-cold` (`check-cold`, ...) runs the phases before it afresh
/// before each timed run, untimed, as the summary does: the phase then
/// finds its input where those phases left it (at 100 000 instructions
/// partly out of the caches), where plain `phase` finds it as its own
/// previous run left it. The two differ where a phase reads its input
/// scattered.
fn repeat_phase(phase: &str, n: usize) -> (f64, f64, usize) {
    let (phase, cold) = match phase.strip_suffix("-cold") {
        Some(p) => (p, true),
        None => (phase, false),
    };
    let text = listing(n, n / 10);
    let warm = parse_module(&text).unwrap();
    let warm_analysis = Analysis::new(&warm, Reading::ControlFlow);
    let ctx = ConcreteContext::default();
    let mut times = Vec::new();
    for _ in 0..(20 * 100_000 / n.max(1)).max(1) {
        let fresh = cold.then(|| parse_module(&text).unwrap());
        let m = fresh.as_ref().unwrap_or(&warm);
        if cold && phase != "check" {
            assert!(check_module(m).is_empty());
        }
        let fresh_analysis =
            (cold && phase == "locate").then(|| Analysis::new(m, Reading::ControlFlow));
        let a = fresh_analysis.as_ref().unwrap_or(&warm_analysis);
        let t = Instant::now();
        match phase {
            "parse" => drop(parse_module(&text).unwrap()),
            "check" => assert!(check_module(m).is_empty()),
            "ranges" => drop(Analysis::new(m, Reading::ControlFlow)),
            "locate" => drop(locate_all(a, &ctx)),
            other => panic!("a phase is parse, check, ranges or locate, not {other}"),
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (times[0], times[times.len() / 2], times.len())
}

fn main() {
    // `DIOPTRA_BENCH_PROFILE=parse|check|ranges|locate` repeats one phase on the
    // larger function, for `perf record`; `check-cold`, `ranges-cold` and
    // `locate-cold` run the phases before it afresh first (untimed).
    // `DIOPTRA_BENCH_PROFILE_SIZE=N` profiles N instructions (N / 10
    // segments) instead, repeated to the same total, to compare the phase's
    // profile at two sizes.
    if let Ok(phase) = std::env::var("DIOPTRA_BENCH_PROFILE") {
        let n: usize = std::env::var("DIOPTRA_BENCH_PROFILE_SIZE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(100_000);
        let (least, median, runs) = repeat_phase(&phase, n);
        println!(
            "{phase} at {n} instructions, {runs} runs: least {:.3} ms, median {:.3} ms",
            least * 1e3,
            median * 1e3
        );
        return;
    }
    // `DIOPTRA_BENCH_SWEEP=parse|check|ranges|locate` times one phase from 10 000
    // to 1 000 000 instructions and prints the growth of each step, so
    // that where the time grows faster than the input shows.
    if let Ok(phase) = std::env::var("DIOPTRA_BENCH_SWEEP") {
        let mut last: Option<(usize, f64)> = None;
        for n in [10_000, 30_000, 100_000, 300_000, 1_000_000] {
            let (least, _, runs) = repeat_phase(&phase, n);
            let step = last
                .map(|(m, t)| {
                    format!(
                        ", {:.1}x the time for {:.1}x the input",
                        least / t,
                        n as f64 / m as f64
                    )
                })
                .unwrap_or_default();
            println!(
                "{phase} at {n} instructions: least {:.3} ms of {runs} runs{step}",
                least * 1e3
            );
            last = Some((n, least));
        }
        return;
    }
    let (small, big) = best_of_both((10_000, 1_000), (100_000, 10_000), 9, 5);
    for (name, t) in [
        ("10k instructions, 1k segments", &small),
        ("100k instructions, 10k segments", &big),
    ] {
        println!(
            "{name}: {} points, parse {:.2} ms, check {:.2} ms, ranges {:.2} ms, locate {:.2} ms ({} object-points, {:.0} ns each; {:.0} ns each located one by one, {:.1}x)",
            t.insts,
            t.parse * 1e3,
            t.check * 1e3,
            t.ranges * 1e3,
            t.locate * 1e3,
            t.located,
            t.locate * 1e9 / t.located.max(1) as f64,
            t.pointwise * 1e9 / t.located.max(1) as f64,
            t.pointwise / t.locate
        );
    }
    let total = |t: &Times| t.parse + t.check + t.ranges + t.locate;
    println!(
        "growth (x10 input): parse {:.1}x, check {:.1}x, ranges {:.1}x, locate {:.1}x, total {:.1}x (10x is linear)",
        big.parse / small.parse,
        big.check / small.check,
        big.ranges / small.ranges,
        big.locate / small.locate,
        total(&big) / total(&small)
    );
    println!(
        "total at 100k instructions: {:.3} s (target 0.250 s)",
        total(&big)
    );
}
