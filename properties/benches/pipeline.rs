//! Cases per second of the property pipeline on one core, without a solver:
//! generate a well-formed expression, check it, evaluate it and every
//! well-formed prefix, read the result, check one ill-formed mutation,
//! canonicalize (when that rewrites: canonicalize again, evaluate the
//! canonical form and compare), lower for both targets, evaluate the
//! expression in the context and 4 variants and, where it gives a location,
//! the DWARF, and compare.
//!
//! `cargo bench -p dioptra-properties --bench pipeline`;
//! `DIOPTRA_BENCH_PROFILE=expressions` runs the expression cases alone (for
//! `perf record` or callgrind).

use dioptra_generators::arb_wellformed_expr;
use dioptra_generators::programs::{arb_multi_program, arb_program};
use dioptra_generators::transform::{arb_forms, arb_transform};
use dioptra_properties::laws::{
    law_canonicalization_preserves_location, law_lowering_preserves_location,
    law_mutation_rejected_with_its_reason, law_ranges_match_the_path_model,
    law_transformation_preserves_values, law_wellformed_evaluates_to_its_static_type,
};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::time::Instant;

/// The allocator the `dioptra` command runs with, so that the figures are
/// the command's.
#[global_allocator]
static ALLOCATOR: dioptra_alloc::Mimalloc = dioptra_alloc::Mimalloc;

fn main() {
    let mut runner = TestRunner::deterministic();
    expressions(&mut runner);
    if let Ok(which) = std::env::var("DIOPTRA_BENCH_PROFILE") {
        assert_eq!(
            which, "expressions",
            "DIOPTRA_BENCH_PROFILE: only `expressions`"
        );
        return;
    }
    programs(&mut runner);
}

/// The expression laws' cases, with each step's share of the time.
fn expressions(runner: &mut TestRunner) {
    let strategy = arb_wellformed_expr(40);
    let n = 20_000;
    let t = Instant::now();
    let mut ops = 0;
    // Each step's share of the time (generation and the four laws), timed
    // on every 8th case: reading the clock between the steps of every case
    // was 1% of the time.
    let mut steps = Steps::default();
    for k in 0..n {
        let timed = k % 8 == 0;
        if timed {
            steps.start();
        }
        let e = strategy.new_tree(runner).unwrap().current();
        ops += e.ops.len();
        steps.lap(0, timed);
        law_wellformed_evaluates_to_its_static_type(&e, dioptra_generators::FIXED_CONTEXT).unwrap();
        steps.lap(1, timed);
        law_mutation_rejected_with_its_reason(&e, k).unwrap();
        steps.lap(2, timed);
        law_canonicalization_preserves_location(&e, dioptra_generators::FIXED_CONTEXT).unwrap();
        steps.lap(3, timed);
        law_lowering_preserves_location(&e, dioptra_generators::FIXED_CONTEXT).unwrap();
        steps.lap(4, timed);
    }
    let s = t.elapsed().as_secs_f64();
    let names = [
        "generate",
        "evaluate prefixes",
        "mutate",
        "canonicalize",
        "lower",
    ];
    let total: f64 = steps.shares.iter().sum();
    let shares: Vec<String> = names
        .iter()
        .zip(steps.shares)
        .map(|(n, x)| format!("{n} {:.0}%", 100.0 * x / total))
        .collect();
    println!("expression steps: {}", shares.join(", "));
    println!(
        "expressions: {n} cases in {s:.2} s = {:.0} cases/s ({:.1} ops per case; generate, check, evaluate all prefixes, read, mutate, check, canonicalize (again, evaluate and compare when it rewrites), lower for both targets, evaluate in 5 contexts and the DWARF where that gives a location, compare)",
        n as f64 / s,
        ops as f64 / n as f64
    );
}

/// The time of each step of the timed cases.
#[derive(Default)]
struct Steps {
    shares: [f64; 5],
    at: Option<Instant>,
}

impl Steps {
    fn start(&mut self) {
        self.at = Some(Instant::now());
    }
    /// Step `k` of a case ends (counted if the case is timed).
    fn lap(&mut self, k: usize, timed: bool) {
        if let (true, Some(at)) = (timed, self.at) {
            let now = Instant::now();
            self.shares[k] += (now - at).as_secs_f64();
            self.at = Some(now);
        }
    }
}

/// The lifetime programs' and the transformations' cases.
fn programs(runner: &mut TestRunner) {
    let programs = arb_multi_program();
    let m = 5_000;
    let t = Instant::now();
    for _ in 0..m {
        let p = programs.new_tree(runner).unwrap().current();
        law_ranges_match_the_path_model(&p).unwrap();
    }
    let s = t.elapsed().as_secs_f64();
    println!("lifetime programs: {m} cases in {s:.2} s = {:.0} cases/s (generate, print, parse, both readings, path model)", m as f64 / s);
    let cases = (arb_program(), arb_forms(), arb_transform());
    let k = 2_000;
    let t = Instant::now();
    for _ in 0..k {
        let (p, f, tr) = cases.new_tree(runner).unwrap().current();
        law_transformation_preserves_values(&p, &f, tr).unwrap();
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "transformations: {k} cases in {s:.2} s = {:.0} cases/s (generate, transform, parse and check both, locate every object at every point, compare)",
        k as f64 / s
    );
}
