//! Solver time per equivalence query (issue: median and maximum over
//! corpus/equiv and over 1 000 generated pairs, by bit width 8, 32, 64).
//!
//! `cargo bench -p dioptra-oracle --bench equiv` prints the figures; the
//! number of generated pairs per width is `DIOPTRA_BENCH_PAIRS` (1000).
//! Unknown answers are counted and printed apart, never timed as answers.

use dioptra_oracle::equiv::{prove, Verdict};
use dioptra_oracle::script::{parse_script, Env, Expect};
use dioptra_semantics::context::Signature;
use dioptra_semantics::smt::DEFAULT_TIMEOUT_MS;
use dioptra_semantics::text::{parse_expr, parse_type};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// The allocator the `dioptra` command runs with, so that the figures are
/// the command's.
#[global_allocator]
static ALLOCATOR: dioptra_alloc::Mimalloc = dioptra_alloc::Mimalloc;

struct Stats {
    times: Vec<Duration>,
    verdicts: BTreeMap<&'static str, u32>,
}

impl Stats {
    fn new() -> Stats {
        Stats {
            times: Vec::new(),
            verdicts: BTreeMap::new(),
        }
    }
    fn add(&mut self, src: &str, tgt: &str, sig: &Signature) {
        let (s, t) = (parse_expr(src).unwrap(), parse_expr(tgt).unwrap());
        match prove(&s, &t, sig, DEFAULT_TIMEOUT_MS) {
            Ok(p) => {
                *self.verdicts.entry(p.verdict.word()).or_default() += 1;
                if !matches!(p.verdict, Verdict::Unknown(_)) {
                    self.times.push(p.solver_time);
                }
            }
            Err(d) => *self.verdicts.entry(d.reason).or_default() += 1,
        }
    }
    fn print(&mut self, what: &str) {
        self.times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let n = self.times.len();
        if n == 0 {
            println!("{what}: no answered queries; {:?}", self.verdicts);
            return;
        }
        println!(
            "{what}: {n} answered, median {:.2} ms, p90 {:.2} ms, max {:.2} ms; verdicts {:?}",
            ms(self.times[n / 2]),
            ms(self.times[n * 9 / 10]),
            ms(self.times[n - 1]),
            self.verdicts
        );
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random arithmetic expression over two `iW` inputs, and a rewrite of it:
/// the operands of a commutative op swapped or a multiplication by 4 as a
/// shift by 2 (equivalent), a constant changed or a read appended (not
/// equivalent).
fn pair(r: &mut Rng, w: u32) -> (String, String) {
    const OPS: [&str; 7] = [
        "DIOpAdd()",
        "DIOpSub()",
        "DIOpMul()",
        "DIOpAnd()",
        "DIOpOr()",
        "DIOpXor()",
        "DIOpShl()",
    ];
    let leaf = |r: &mut Rng| match r.below(3) {
        0 => format!("DIOpArg(0, i{w})"),
        1 => format!("DIOpArg(1, i{w})"),
        _ => format!("DIOpConstant(i{w} {})", r.below(1 << (w.min(16) - 1))),
    };
    let mut ops = vec![leaf(r)];
    for _ in 0..1 + r.below(4) {
        ops.push(leaf(r));
        ops.push(OPS[r.below(OPS.len() as u64) as usize].to_string());
    }
    let base = ops.join(", ");
    match r.below(4) {
        0 => {
            let (a, b) = (leaf(r), leaf(r));
            let op = ["DIOpAdd()", "DIOpMul()", "DIOpXor()"][r.below(3) as usize];
            (
                format!("{base}, {a}, {b}, {op}, DIOpAdd()"),
                format!("{base}, {b}, {a}, {op}, DIOpAdd()"),
            )
        }
        1 => (
            format!("{base}, DIOpConstant(i{w} 4), DIOpMul()"),
            format!("{base}, DIOpConstant(i{w} 2), DIOpShl()"),
        ),
        2 => (
            format!("{base}, DIOpConstant(i{w} 3), DIOpAdd()"),
            format!("{base}, DIOpConstant(i{w} 5), DIOpAdd()"),
        ),
        _ => (base.clone(), format!("{base}, DIOpRead()")),
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/equiv");
    let mut corpus = Stats::new();
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for case in parse_script(&f.display().to_string(), &text).unwrap().cases {
            if let Expect::Equiv { target, .. } = &case.expect {
                let sig = match &case.env {
                    Env::Sig(s) => (**s).clone(),
                    Env::Ctx(_) => case.env.signature(),
                };
                corpus.add(&case.expr, target, &sig);
            }
        }
    }
    corpus.print("corpus/equiv");
    let pairs: u32 = std::env::var("DIOPTRA_BENCH_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    for w in [8u32, 32, 64] {
        let ty = parse_type(&format!("i{w}")).unwrap();
        let sig = Signature {
            args: vec![ty.clone(), ty],
            ..Signature::default()
        };
        let mut s = Stats::new();
        let mut r = Rng(0x9e37_79b9_7f4a_7c15 ^ w as u64);
        for _ in 0..pairs {
            let (a, b) = pair(&mut r, w);
            s.add(&a, &b, &sig);
        }
        s.print(&format!("generated i{w} pairs"));
    }
}
