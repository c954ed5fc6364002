//! The table of laws: each law once, with its name, its one-line
//! statement, the strategy its cases are drawn from, the law itself, how a
//! failing case is written as corpus text, and what its test runs. The
//! property tests (`tests/laws.rs`, one `#[test]` per entry) and
//! `dioptra fuzz` both run this table, so a law cannot be tested under one
//! name and fuzzed under another.
//!
//! A campaign ([`AnyLaw::campaign`]) runs `cases` cases from a seed (the
//! same seed gives the same cases), shrinks a failure, and returns it as
//! corpus text. A test ([`AnyLaw::test`]) runs the entry's [`Budget`] and
//! asserts its floor: the share of cases that must be compared, for the laws
//! whose cases can be left uncompared (unsupported, or the solver gave up).

use crate::laws::*;
use dioptra_generators::classic::{
    arb_classic_context, arb_classic_expr, arb_reversible_expr, CLASSIC_ARGS,
};
use dioptra_generators::narrow::arb_narrow_expr;
use dioptra_generators::programs::{arb_multi_program, arb_program, MultiProgram, Program};
use dioptra_generators::transform::{arb_forms, arb_transform, instance, Form, Transform};
use dioptra_generators::{
    arb_any_expr, arb_context, arb_laneless_expr, arb_rewritable_expr, arb_wellformed_expr,
    fixed_context, FIXED_CONTEXT,
};
use dioptra_semantics::classic::{ClassicExpr, Params};
use dioptra_semantics::context::Context;
use dioptra_semantics::lifetime::ranges::Reading;
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::wellformed::check;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// How many cases a law's test runs, and how they are drawn.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// proptest's case count (`PROPTEST_CASES`, 256 when unset) from a
    /// fresh seed each run, with proptest's failure persistence: a cheap law.
    Random,
    /// A fixed sweep of `PROPTEST_CASES × times` cases (at least `64 ×
    /// times`) from seed 0: a law whose test asserts a floor, which must not
    /// depend on luck.
    Sweep { times: u32 },
    /// A fixed sweep from seed 0 where every case calls the solver:
    /// `DIOPTRA_SMT_CASES` cases, this many when unset.
    Solver(u32),
}

impl Budget {
    fn cases(self) -> u32 {
        let env = |v: &str| std::env::var(v).ok().and_then(|s| s.parse::<u32>().ok());
        match self {
            Budget::Random => env("PROPTEST_CASES").unwrap_or(256),
            Budget::Sweep { times } => env("PROPTEST_CASES").unwrap_or(256).max(64) * times,
            Budget::Solver(n) => env("DIOPTRA_SMT_CASES").unwrap_or(n),
        }
    }
}

/// One law of the table; `T` is what its strategy draws.
pub struct Law<T> {
    /// The law's name: `dioptra fuzz --property NAME`, `prop_NAME` in tests.
    pub name: &'static str,
    /// What it says, in one line (the README's table of laws says the same).
    pub says: &'static str,
    pub strategy: fn() -> BoxedStrategy<T>,
    pub law: fn(&T) -> Result<Checked, String>,
    /// A failing case as corpus text (contexts, modules, assertions, or
    /// `;;` comments where no assertion can state it), given the failure.
    pub corpus: fn(&T, &str) -> String,
    pub budget: Budget,
    /// In tests: at least this percentage of the cases must be compared.
    pub floor: u32,
}

/// What a campaign found.
pub struct Campaign {
    pub law: &'static str,
    pub cases: u32,
    /// A shrunk counterexample, in corpus syntax, when the law failed.
    pub counterexample: Option<String>,
    /// Cases the law could not compare (unsupported by the encoding or the
    /// target, or the context lacks what the case reads), and cases the
    /// solver gave up on; neither is a pass.
    pub unsupported: u32,
    pub unknown: u32,
}

impl Campaign {
    pub fn not_compared(&self) -> u32 {
        self.unsupported + self.unknown
    }
}

/// How much of a campaign to run.
#[derive(Clone, Copy, Debug)]
pub enum Extent {
    /// Cases `0..n`.
    Cases(u32),
    /// As many cases as start before the deadline (at least one).
    Until(Instant),
}

/// A campaign's plan: what to run, from which seed, on how many threads,
/// and whom to tell of each case done.
pub struct Plan<'a> {
    pub extent: Extent,
    pub seed: u64,
    /// Worker threads (at least 1). The cases and the verdict do not depend
    /// on it: case `i` is drawn from its own seed, and the counterexample is
    /// the failing case of lowest index, shrunk alone.
    pub jobs: usize,
    /// Called after each case, from the worker that ran it.
    pub progress: Option<&'a (dyn Fn() + Sync)>,
}

/// The seed of case `index` of a campaign (splitmix64 of the two): every
/// case has its own, so workers can take cases in any order.
pub fn case_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A law of any case type: what the tests and `dioptra fuzz` call.
pub trait AnyLaw: Sync {
    fn name(&self) -> &'static str;
    fn says(&self) -> &'static str;
    /// Runs `cases` cases from `seed` on one thread; the same seed gives
    /// the same cases.
    fn campaign(&self, cases: u32, seed: u64) -> Campaign {
        self.run_plan(&Plan {
            extent: Extent::Cases(cases),
            seed,
            jobs: 1,
            progress: None,
        })
    }
    /// Runs a campaign's plan.
    fn run_plan(&self, plan: &Plan) -> Campaign;
    /// The law's property test: runs its [`Budget`] and panics with the
    /// shrunk counterexample, or when fewer than its floor were compared.
    /// `source_file` (the test's `file!()`) keeps proptest's failure
    /// persistence beside it.
    fn test(&self, source_file: &'static str);
}

/// The runner of campaigns and fixed sweeps: ChaCha keyed by the seed.
pub(crate) fn runner(cases: u32, seed: u64) -> TestRunner {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key))
}

/// The failure message as corpus comments, every line of it.
fn header(name: &str, seed: Option<u64>, msg: &str) -> String {
    let seed = seed.map(|s| format!(" (seed {s})")).unwrap_or_default();
    let mut out = format!(
        ";; counterexample of prop_{}{seed}:",
        name.replace('-', "_")
    );
    for (k, line) in msg.lines().enumerate() {
        out += if k == 0 { " " } else { "\n;;   " };
        out += line;
    }
    out + "\n"
}

/// What one case of a campaign gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Compared,
    Unsupported,
    Unknown,
    Failed,
}

/// The most shrinking steps spent on a counterexample.
const MAX_SHRINK_STEPS: u32 = 4096;

impl<T: std::fmt::Debug + Clone + 'static> Law<T> {
    /// Case `index` of a campaign from `seed`, as a value tree to shrink.
    fn tree(&self, seed: u64, index: u64) -> Box<dyn ValueTree<Value = T>> {
        (self.strategy)()
            .new_tree(&mut runner(1, case_seed(seed, index)))
            .expect("the strategies here do not reject")
    }

    fn draw(&self, seed: u64, index: u64) -> T {
        self.tree(seed, index).current()
    }

    /// The law on one case; a panic inside it is a failure of the case,
    /// with the panic's message.
    fn check(&self, v: &T) -> Result<Checked, String> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.law)(v))).unwrap_or_else(
            |p| {
                let why = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".into());
                Err(format!("the law panicked: {why}"))
            },
        )
    }

    /// Shrinks failing case `index`: the simplest value the tree reaches
    /// that still fails, and its failure.
    fn shrink(&self, seed: u64, index: u64) -> (T, String) {
        let mut tree = self.tree(seed, index);
        let mut best = tree.current();
        let mut msg = match self.check(&best) {
            Err(m) => m,
            Ok(_) => return (best, "the failing case did not fail again".into()),
        };
        let mut steps = 0;
        let mut more = tree.simplify();
        while more && steps < MAX_SHRINK_STEPS {
            steps += 1;
            let v = tree.current();
            match self.check(&v) {
                Err(m) => {
                    best = v;
                    msg = m;
                    more = tree.simplify();
                }
                Ok(_) => more = tree.complicate(),
            }
        }
        (best, msg)
    }

    /// Runs the law over `runner`'s cases; returns the shrunk failing case
    /// and the counts of cases not compared.
    fn run(&self, mut r: TestRunner) -> (Option<(T, String)>, u32, u32, u32) {
        let (compared, unsupported, unknown) = (Cell::new(0u32), Cell::new(0u32), Cell::new(0u32));
        let result = r.run(&(self.strategy)(), |v| match (self.law)(&v) {
            Ok(Checked::Compared) => {
                compared.set(compared.get() + 1);
                Ok(())
            }
            Ok(Checked::Unsupported(_)) => {
                unsupported.set(unsupported.get() + 1);
                Ok(())
            }
            Ok(Checked::Unknown(_)) => {
                unknown.set(unknown.get() + 1);
                Ok(())
            }
            Err(why) => Err(TestCaseError::fail(why)),
        });
        let failure = match result {
            Ok(()) => None,
            Err(TestError::Fail(_, v)) => {
                let msg = match (self.law)(&v) {
                    Err(m) => m,
                    Ok(_) => "the shrunk case did not fail again".into(),
                };
                Some((v, msg))
            }
            Err(TestError::Abort(why)) => Some((
                (self.strategy)()
                    .new_tree(&mut runner(1, 0))
                    .expect("the strategies here do not reject")
                    .current(),
                format!("the campaign aborted: {why}"),
            )),
        };
        (failure, compared.get(), unsupported.get(), unknown.get())
    }
}

impl<T: std::fmt::Debug + Clone + 'static> AnyLaw for Law<T> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn says(&self) -> &'static str {
        self.says
    }
    fn run_plan(&self, plan: &Plan) -> Campaign {
        let next = AtomicU64::new(0);
        // The lowest failing index found so far: cases above it need not run.
        let first_failure = AtomicU64::new(u64::MAX);
        let outcomes: Mutex<Vec<(u64, Outcome)>> = Mutex::new(Vec::new());
        let worker = || {
            let mut mine = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let more = match plan.extent {
                    Extent::Cases(n) => i < u64::from(n),
                    Extent::Until(t) => i == 0 || Instant::now() < t,
                };
                if !more || i > first_failure.load(Ordering::Relaxed) {
                    break;
                }
                let v = self.draw(plan.seed, i);
                let o = match self.check(&v) {
                    Ok(Checked::Compared) => Outcome::Compared,
                    Ok(Checked::Unsupported(_)) => Outcome::Unsupported,
                    Ok(Checked::Unknown(_)) => Outcome::Unknown,
                    Err(_) => {
                        first_failure.fetch_min(i, Ordering::Relaxed);
                        Outcome::Failed
                    }
                };
                mine.push((i, o));
                if let Some(p) = plan.progress {
                    p();
                }
            }
            outcomes.lock().expect("no worker panics").extend(mine);
        };
        std::thread::scope(|s| {
            for _ in 1..plan.jobs.max(1) {
                s.spawn(worker);
            }
            worker();
        });
        let failed = first_failure.load(Ordering::Relaxed);
        // Only the cases below the first failure count, as on one thread.
        let outcomes = outcomes.into_inner().expect("no worker panics");
        let counted = outcomes.iter().filter(|(i, _)| *i < failed);
        let (mut cases, mut unsupported, mut unknown) = (0u32, 0u32, 0u32);
        for (_, o) in counted {
            cases += 1;
            match o {
                Outcome::Unsupported => unsupported += 1,
                Outcome::Unknown => unknown += 1,
                _ => {}
            }
        }
        let counterexample = (failed != u64::MAX).then(|| {
            let (v, msg) = self.shrink(plan.seed, failed);
            cases += 1;
            header(self.name, Some(plan.seed), &format!("case {failed}: {msg}"))
                + &(self.corpus)(&v, &msg)
        });
        Campaign {
            law: self.name,
            cases,
            counterexample,
            unsupported,
            unknown,
        }
    }
    fn test(&self, source_file: &'static str) {
        let n = self.budget.cases();
        let r = match self.budget {
            Budget::Random => TestRunner::new(Config {
                cases: n,
                source_file: Some(source_file),
                failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel(
                    "proptest-regressions",
                ))),
                max_shrink_iters: 2000,
                ..Config::default()
            }),
            Budget::Sweep { .. } | Budget::Solver(_) => runner(n, 0),
        };
        let (failure, compared, unsupported, unknown) = self.run(r);
        if let Some((v, msg)) = failure {
            panic!(
                "{}{}\ncase: {v:?}",
                header(self.name, None, &msg),
                (self.corpus)(&v, &msg)
            );
        }
        // The cases run: the budget, and any persisted failures replayed first.
        let total = compared + unsupported + unknown;
        eprintln!(
            "{}: {compared} of {total} cases compared, {unsupported} unsupported, {unknown} unknown (budget {n})",
            self.name
        );
        assert!(total > 0, "{}: no case ran", self.name);
        assert!(
            u64::from(compared) * 100 >= u64::from(total) * u64::from(self.floor),
            "{}: only {compared} of {total} cases compared (floor {}%)",
            self.name,
            self.floor
        );
    }
}

/// A law that compares every case it does not fail.
fn compared<E>(r: Result<impl Sized, E>) -> Result<Checked, E> {
    r.map(|_| Checked::Compared)
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

type ExprCtx = (Expr, String);
type Transformed = (Program, Vec<Form>, Transform);
type ClassicCase = ((ClassicExpr, Params), String);

/// The laws, in the README's order.
pub static LAWS: &[&dyn AnyLaw] = &[
    &Law::<Expr> {
        name: "print-parse-round-trip",
        says: "parsing the printed form of any expression gives it back",
        strategy: || arb_any_expr().boxed(),
        law: |e| compared(law_print_parse_round_trip(e)),
        corpus: |e, _| format!(";; the expression: {e}\n;; its AST: {e:?}\n"),
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<ExprCtx> {
        name: "wellformed-evaluates-to-its-static-type",
        says: "a well-formed expression, and each well-formed prefix, evaluates without panicking to its static type, in random contexts",
        strategy: || (arb_wellformed_expr(40), arb_context()).boxed(),
        law: |(e, c)| compared(law_wellformed_evaluates_to_its_static_type(e, c)),
        corpus: |(e, c), _| static_type_case(e, c),
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<Expr> {
        name: "fixed-context-evaluates-to-its-static-type",
        says: "the same law in the fixed context the expression builder targets, where every input the builder uses is present",
        strategy: || arb_wellformed_expr(40).boxed(),
        law: |e| compared(law_wellformed_evaluates_to_its_static_type(e, FIXED_CONTEXT)),
        corpus: |e, _| static_type_case(e, FIXED_CONTEXT),
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<(Expr, usize)> {
        name: "mutation-rejected-with-its-reason",
        says: "each of 18 single ill-formed mutations of a well-formed expression is rejected with the reason code it names",
        strategy: || (arb_wellformed_expr(30), any::<usize>()).boxed(),
        law: |(e, k)| {
            law_mutation_rejected_with_its_reason(e, *k)
                .map(|()| Checked::Compared)
                .map_err(|(m, x, _)| format!("{x}: {m}"))
        },
        corpus: |(e, k), _| match law_mutation_rejected_with_its_reason(e, *k) {
            Err((_, m, expect)) => format!(
                "{FIXED_CONTEXT}\n(assert_illformed \"{}\" (in fuzz) (reason \"{expect}\"))\n",
                quote(&m.to_string())
            ),
            Ok(()) => ";; did not reproduce\n".into(),
        },
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<(Expr, String, usize)> {
        name: "narrow-evaluation-is-the-reference",
        says: "narrow evaluation (the typed interpreter `eval` asks first) gives exactly the reference's result where it answers, and declines where the reference fails, in random contexts and on an ill-formed mutation",
        strategy: || {
            let expr = prop_oneof![arb_narrow_expr(40), arb_wellformed_expr(40)];
            (expr, arb_context(), any::<usize>()).boxed()
        },
        law: |(e, c, k)| law_narrow_evaluation_is_the_reference(e, c, *k),
        corpus: |(e, c, _), _| narrow_case(e, c),
        budget: Budget::Sweep { times: 4 },
        floor: 75,
    },
    &Law::<MultiProgram> {
        name: "ranges-match-the-path-model",
        says: "in generated modules of one to three functions, where segments are active agrees with a model that runs a def/kill state machine along every control-flow path of the segment's function (and with the block-local model); no segment is active in another function",
        strategy: || arb_multi_program().boxed(),
        law: |p| {
            law_ranges_match_the_path_model(p)
                .map(|()| Checked::Compared)
                .map_err(|(m, ..)| format!("{m}\n{p}"))
        },
        corpus: |p, _| ranges_case(p),
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<ExprCtx> {
        name: "smt-agrees-with-interpreter",
        says: "the model of the SMT formula of a well-formed expression over a random concrete context says what the interpreter says: the outcome, the location and the value",
        strategy: || (arb_wellformed_expr(30), arb_context()).boxed(),
        law: |(e, c)| law_smt_agrees_with_interpreter(e, c),
        corpus: |(e, c), _| {
            format!(
                "{c}\n;; the encoding disagrees on:\n;; {}\n",
                quote(&e.to_string())
            )
        },
        budget: Budget::Solver(150),
        floor: 50,
    },
    &Law::<(Expr, String, usize)> {
        name: "dwarf-smt-agrees-with-evaluator",
        says: "the model of the SMT encoding of DWARF (both targets' lowerings of a generated expression, and each with one operation cut out) over a random concrete context says what the DWARF evaluator says: both fail, or the same location",
        strategy: || (arb_wellformed_expr(30), arb_lowering_context(), any::<usize>()).boxed(),
        law: |(e, c, k)| law_dwarf_smt_agrees_with_evaluator(e, c, *k),
        corpus: |(e, c, k), _| {
            format!(
                "{c}\n;; the DWARF encoding disagrees with the evaluator on the lowerings of:\n;; {}\n;; (cut at operation {k})\n",
                quote(&e.to_string())
            )
        },
        budget: Budget::Solver(150),
        floor: 50,
    },
    &Law::<(Expr, usize)> {
        name: "equiv-verdicts-are-confirmed",
        says: "every expression is equivalent to itself; every counterexample for a variant (a no-op offset, a read, a changed constant) is confirmed by the interpreter; an `equivalent` verdict holds in the fixed context",
        strategy: || (arb_wellformed_expr(20), any::<usize>()).boxed(),
        law: |(e, k)| law_equiv_verdicts_are_confirmed(e, *k),
        corpus: |(e, k), _| format!(";; variant {} of: {}\n", k % 3, quote(&e.to_string())),
        budget: Budget::Solver(40),
        floor: 50,
    },
    &Law::<ExprCtx> {
        name: "canonicalization-preserves-location",
        says: "the canonical form evaluates to the same location (or fails where the expression fails) in random contexts, and canonicalizing again changes nothing",
        strategy: || (arb_wellformed_expr(40), arb_context()).boxed(),
        law: |(e, c)| compared(law_canonicalization_preserves_location(e, c)),
        corpus: |(e, c), _| canon_case(e, c),
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<ExprCtx> {
        name: "canonicalization-preserves-location-of-rewritable-windows",
        says: "the same law on expressions built of windows the canonicalizer's rules rewrite",
        strategy: || (arb_rewritable_expr(), arb_context()).boxed(),
        law: |(e, c)| compared(law_canonicalization_preserves_location(e, c)),
        corpus: |(e, c), _| canon_case(e, c),
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<ExprCtx> {
        name: "lowering-preserves-location",
        says: "for both targets the lowered DWARF of a generated expression, evaluated by dioptra's DWARF evaluator in a random context and 4 variants, gives the reference's location, fails where it fails, or is more defined (D-lower-refines); not-expressible cases are counted, never passed",
        strategy: || (arb_wellformed_expr(40), arb_lowering_context()).boxed(),
        law: |(e, c)| law_lowering_preserves_location(e, c),
        corpus: |(e, c), _| {
            format!(
                "{c}\n;; the lowering changes the location of:\n;; {}\n",
                quote(&e.to_string())
            )
        },
        budget: Budget::Sweep { times: 1 },
        floor: 80,
    },
    &Law::<ExprCtx> {
        name: "lowering-is-proven",
        says: "for both targets the lowered DWARF of a generated expression of a few ops is proven the same as the expression (or refining it, D-lower-refines) by the SMT solver for every context with the inputs where a random context puts them; every counterexample is confirmed by both interpreters",
        strategy: || (arb_wellformed_expr(8), arb_lowering_context()).boxed(),
        law: |(e, c)| law_lowering_is_proven(e, c),
        corpus: |(e, c), _| {
            format!(
                "{c}\n;; the lowering is not proven for:\n;; {}\n",
                quote(&e.to_string())
            )
        },
        budget: Budget::Solver(40),
        floor: 30,
    },
    &Law::<ExprCtx> {
        name: "gimli-agrees-on-plain-dwarf5",
        says: "gimli and dioptra's DWARF evaluator agree on the `dwarf5` lowering of a generated expression, or differ in one of the listed, understood ways",
        strategy: || (arb_laneless_expr(GIMLI_CHOICES), arb_lowering_context()).boxed(),
        law: |(e, c)| law_gimli_agrees_on_plain_dwarf5(e, c),
        corpus: |(e, c), _| {
            format!(
                "{c}\n;; gimli and dioptra disagree on the dwarf5 lowering of:\n;; {}\n",
                quote(&e.to_string())
            )
        },
        budget: Budget::Sweep { times: 1 },
        floor: 60,
    },
    &Law::<(Expr, String, (usize, u8))> {
        name: "bytes-evaluation-matches-decoded",
        says: "evaluating DWARF from its bytes (no operation list) gives the location or diagnostic that decoding and then evaluating gives, on both targets' lowerings in both AMD encodings and on them with one byte replaced or cut short",
        strategy: || (arb_wellformed_expr(40), arb_context(), any::<(usize, u8)>()).boxed(),
        law: |(e, c, m)| compared(law_bytes_evaluation_matches_decoded(e, c, *m)),
        corpus: |(e, c, m), _| {
            format!(
                "{c}\n;; evaluating from bytes and decoding first differ on the lowering of:\n;; {}\n;; with byte {} set to {:#04x}\n",
                quote(&e.to_string()),
                m.0,
                m.1
            )
        },
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<Transformed> {
        name: "lifetime-lowering-preserves-locations",
        says: "the location lists of a generated, transformed lifetime program give every object's location at every instruction, for both targets",
        strategy: || (arb_program(), arb_forms(), arb_transform()).boxed(),
        law: |(p, f, t)| match law_lifetime_lowering_preserves_locations(p, f, *t)? {
            0 => Ok(Checked::Unsupported("no object the targets express".into())),
            _ => Ok(Checked::Compared),
        },
        corpus: |(p, f, t), _| {
            let i = instance(&p.well_formed(), f, Some(*t));
            format!(
                "(module fuzz \"{}\")\n{}\n",
                quote(&i.listing),
                i.context.replacen("(context", "(context fuzz-values", 1)
            )
        },
        // Almost every generated program has an object the targets
        // express (200-case sweep: at least 90%).
        budget: Budget::Random,
        floor: 90,
    },
    &Law::<ClassicCase> {
        name: "classic-translation-agrees",
        says: "a generated well-formed classic expression (every modelled `DW_OP`, both `--high` settings, all four endings, fragments) and its DIOp translation give the same outcome and, on success, the same type and location in a random context",
        strategy: || (arb_classic_expr(24), arb_classic_context()).boxed(),
        law: |((e, p), c)| law_classic_translation_agrees(e, p, c),
        corpus: |((e, p), c), _| {
            format!(
                "{c}\n;; (high \"{}\") the translation disagrees on:\n;; {}\n",
                p.high.word(),
                quote(&e.to_string())
            )
        },
        // About three in four are compared (seeds 1-2 x 5 000: 76%); the
        // rest read memory the context does not supply.
        budget: Budget::Sweep { times: 4 },
        floor: 60,
    },
    &Law::<Program> {
        name: "multiloc-translation-agrees",
        says: "a generated multi-location listing (calls that break the thread's invariants dropped) translates to lifetimes whose active segments are, at every reachable point, exactly the calls the proposal makes current",
        strategy: || arb_program().boxed(),
        law: |p| compared(law_multiloc_translation_agrees(p)),
        corpus: |p, _| {
            format!(
                "(module fuzz \"{}\")\n",
                quote(&multiloc_listing(p).unwrap_or_else(|e| e))
            )
        },
        budget: Budget::Random,
        floor: 100,
    },
    &Law::<ExprCtx> {
        name: "classic-reverse-agrees",
        says: "the classic form of a DIOp expression (where one exists) gives the DIOp expression's outcome and location in random contexts",
        strategy: || (arb_reversible_expr(16), arb_classic_context()).boxed(),
        law: |(d, c)| law_classic_reverse_agrees(d, c),
        corpus: |(d, c), _| {
            format!(
                "{c}\n;; the classic form of this expression disagrees with it:\n;; {}\n",
                quote(&d.to_string())
            )
        },
        budget: Budget::Sweep { times: 4 },
        floor: 80,
    },
    &Law::<(ClassicExpr, Params)> {
        name: "classic-translation-proven",
        says: "the prover proves the translation of a generated classic expression (equivalent, or refining only at `INT_MIN / -1`, D-classic-div-wrap)",
        strategy: || arb_classic_expr(12).boxed(),
        law: |(e, p)| law_classic_translation_proven(e, p),
        corpus: |(e, p), _| {
            format!(
                ";; (high \"{}\") operands {:?}; the translation is not proven for:\n;; {}\n",
                p.high.word(),
                CLASSIC_ARGS,
                quote(&e.to_string())
            )
        },
        // Seed 1 x 200: 186 proven, 14 unknown (5 s per query).
        budget: Budget::Solver(40),
        floor: 70,
    },
    &Law::<Transformed> {
        name: "transformation-preserves-values",
        says: "every generated compiler transformation keeps every variable's readable value at every point, invents none, and never makes a read-only location writable",
        strategy: || (arb_program(), arb_forms(), arb_transform()).boxed(),
        law: |(p, f, t)| compared(law_transformation_preserves_values(p, f, *t)),
        corpus: |(p, f, t), _| {
            let p = p.well_formed();
            let (src, tgt) = (instance(&p, f, None), instance(&p, f, Some(*t)));
            format!(
                "(module source \"{}\")\n{}\n(module transformed \"{}\")\n{}\n",
                quote(&src.listing),
                src.context
                    .replacen("(context", "(context source-values", 1),
                quote(&tgt.listing),
                tgt.context
                    .replacen("(context", "(context transformed-values", 1)
            )
        },
        budget: Budget::Random,
        floor: 100,
    },
];

/// The law named `name`.
pub fn law(name: &str) -> Option<&'static dyn AnyLaw> {
    LAWS.iter().copied().find(|l| l.name() == name)
}

/// The names of the laws, in the table's order.
pub fn names() -> Vec<&'static str> {
    LAWS.iter().map(|l| l.name()).collect()
}

fn static_type_case(e: &Expr, c: &str) -> String {
    let ty = check(e, &fixed_context().signature())
        .map(|c| c.result.to_string())
        .unwrap_or_default();
    format!(
        "{c}\n(assert_wellformed \"{}\" (in fuzz) (type \"{ty}\"))\n",
        quote(&e.to_string())
    )
}

/// A disagreement of narrow evaluation as a corpus case: the reference's
/// location, which `dioptra run` (through `eval`, so narrow evaluation
/// first) must give.
fn narrow_case(e: &Expr, c: &str) -> String {
    use dioptra_semantics::context::ConcreteContext;
    use dioptra_semantics::eval::eval_reference;
    let reference = ConcreteContext::parse(c).map(|ctx| eval_reference(e, &ctx));
    match reference {
        Ok(Ok(r)) => format!(
            "{c}\n(assert_location \"{}\" (in fuzz) (location \"{}\"))\n",
            quote(&e.to_string()),
            quote(&r.loc.to_string())
        ),
        other => format!(
            "{c}\n;; the reference gives {other:?} for:\n;; {}\n",
            quote(&e.to_string())
        ),
    }
}

fn canon_case(e: &Expr, c: &str) -> String {
    format!(
        "{c}\n;; canonicalizing changes the location of:\n;; {}\n",
        quote(&e.to_string())
    )
}

fn ranges_case(p: &MultiProgram) -> String {
    let Err((_, line, reading, want)) = law_ranges_match_the_path_model(p) else {
        return ";; did not reproduce\n".into();
    };
    let mut out = format!("(module fuzz \"{}\")\n", quote(&p.to_string()));
    for (k, f) in p.functions.iter().enumerate() {
        for l in 0..f.lifetimes {
            let seg = MultiProgram::segment(k, l);
            out += &format!(
                "(assert_object fuzz (object \"!f{k}v{l}\") (at {line}){} (segments \"{}\"))\n",
                if reading == Reading::BlockLocal {
                    " (block_local)"
                } else {
                    ""
                },
                if want.contains(&seg) {
                    seg.as_str()
                } else {
                    ""
                }
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut n = names();
        n.sort_unstable();
        let len = n.len();
        n.dedup();
        assert_eq!(n.len(), len, "a law is named twice");
    }

    #[test]
    fn a_failing_law_gives_its_case_as_corpus_text() {
        let always_fails = Law::<u8> {
            name: "always-fails",
            says: "",
            strategy: || any::<u8>().boxed(),
            law: |_| Err("no\nreally".into()),
            corpus: |v, _| format!(";; value {v}\n"),
            budget: Budget::Random,
            floor: 0,
        };
        let c = always_fails.campaign(10, 3);
        let text = c.counterexample.expect("a failure");
        // The first case (index 0) failed; shrunk to the smallest u8, and
        // every line of the message commented.
        assert_eq!(
            text,
            ";; counterexample of prop_always_fails (seed 3): case 0: no\n;;   really\n;; value 0\n"
        );
    }

    #[test]
    fn a_campaign_counts_what_it_did_not_compare() {
        let half = Law::<u8> {
            name: "half",
            says: "",
            strategy: || any::<u8>().boxed(),
            law: |v| {
                Ok(if v % 2 == 0 {
                    Checked::Compared
                } else {
                    Checked::Unknown("odd".into())
                })
            },
            corpus: |_, _| String::new(),
            budget: Budget::Sweep { times: 1 },
            floor: 0,
        };
        let c = half.campaign(200, 1);
        assert!(c.counterexample.is_none());
        assert_eq!(c.unsupported, 0);
        assert!(c.unknown > 50 && c.unknown < 150, "{}", c.unknown);
    }
}
