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
use std::process::Command;
use std::time::Instant;

/// The allocator the `dioptra` command runs with, so that the figures are
/// the command's.
#[global_allocator]
static ALLOCATOR: dioptra_alloc::Mimalloc = dioptra_alloc::Mimalloc;

mod generated;

fn main() {
    let Some(big) = generated::compile(
        "ir",
        260,
        true,
        &["-O2", "-g", "-S", "-emit-llvm"],
        "big.ll",
    ) else {
        return;
    };
    let ll = &big.path;
    let text = std::fs::read_to_string(ll).unwrap();
    let lines = text.lines().count();
    let t = Instant::now();
    let m = parse(&text).unwrap();
    let parsed = t.elapsed();
    let verdicts = check_records(&m).unwrap();
    let ours = t.elapsed();
    let refused = verdicts.iter().filter(|v| v.diag.is_some()).count();
    println!(
        "dioptra ir: {lines} lines, {} functions ({} generated), {} records ({refused} refused) in {:.2} s (parse {:.2} s)",
        m.functions.len(),
        big.functions,
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
            .arg(ll)
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
}
