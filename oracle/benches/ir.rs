//! Reading a large LLVM IR module (issue 22: `dioptra ir` on a 50 000-line
//! module in seconds on one core). Generates C with many functions (loops,
//! a switch, structs: dbg.value calls with fragments and location changes),
//! compiles it with `clang-14 -O2 -g -S -emit-llvm`, and times dioptra's
//! reading and record check (`dioptra ir`) and its reading as lifetimes
//! (the multi-location translation, `dioptra lifetimes`'s first step)
//! against `llvm-as` (LLVM's own parser and verifier) on the same file in
//! the same run. Without clang-14 it says so and measures nothing.
//!
//! `cargo bench -p dioptra-oracle --bench ir`; `DIOPTRA_BENCH_FUNCTIONS`
//! sets the number of functions (260 make about 50 000 lines).

use dioptra_oracle::ir::dbg::check_records;
use dioptra_oracle::ir::{lifetimes, parse};
use std::fmt::Write as _;
use std::process::Command;
use std::time::Instant;

fn source(functions: usize) -> String {
    let mut s = String::from("struct p { int x; short y; char t; long z; };\n");
    for i in 0..functions {
        let _ = write!(
            s,
            "__attribute__((noinline)) long f{i}(const int *a, int n, struct p q, long k) {{\n\
               long acc = k * {i};\n\
               struct p r = q;\n\
               for (int j = 0; j < n; j++) {{ acc += a[j] * (j + {i}); r.x ^= a[j]; }}\n\
               switch (n & 3) {{ case 0: acc += 7; break; case 1: acc -= r.y; break; case 2: acc ^= {i}; break; default: break; }}\n\
               long t = acc - r.x + r.y * r.t;\n\
               return t + r.z + q.z;\n\
             }}\n"
        );
    }
    s
}

fn main() {
    let functions: usize = std::env::var("DIOPTRA_BENCH_FUNCTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(260);
    let dir = std::env::temp_dir().join(format!("dioptra-bench-ir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("big.c");
    let ll = dir.join("big.ll");
    std::fs::write(&c, source(functions)).unwrap();
    let built = Command::new("clang-14")
        .args(["-O2", "-g", "-S", "-emit-llvm"])
        .arg(&c)
        .arg("-o")
        .arg(&ll)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        println!(
            "skipped: clang-14 is not installed (apt-get install -y clang-14); nothing measured"
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let text = std::fs::read_to_string(&ll).unwrap();
    let lines = text.lines().count();
    let t = Instant::now();
    let m = parse(&text).unwrap();
    let parsed = t.elapsed();
    let verdicts = check_records(&m).unwrap();
    let ours = t.elapsed();
    let refused = verdicts.iter().filter(|v| v.diag.is_some()).count();
    println!(
        "dioptra ir: {lines} lines, {} functions, {} records ({refused} refused) in {:.2} s (parse {:.2} s)",
        m.functions.len(),
        verdicts.len(),
        ours.as_secs_f64(),
        parsed.as_secs_f64()
    );
    let t = Instant::now();
    let lt = lifetimes::read(&text).unwrap();
    let translated = t.elapsed();
    println!(
        "read as lifetimes (translation included): {} instructions in {:.2} s",
        lt.module.insts.len(),
        translated.as_secs_f64()
    );
    for tool in ["llvm-as-14", "llvm-as"] {
        let t = Instant::now();
        let out = Command::new(tool)
            .arg(&ll)
            .arg("-o")
            .arg("/dev/null")
            .status();
        if out.is_ok_and(|s| s.success()) {
            let theirs = t.elapsed();
            println!(
                "{tool}: {:.2} s; dioptra ir / {tool} = {:.2}; lifetimes read / {tool} = {:.2}",
                theirs.as_secs_f64(),
                ours.as_secs_f64() / theirs.as_secs_f64(),
                translated.as_secs_f64() / theirs.as_secs_f64()
            );
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
