//! Reading a large object's DWARF (issue 22: `dioptra dwarf` on a 10 MB
//! object in seconds on one core). Generates C with many functions (loops,
//! structs, locals in location lists), compiles it with `clang-14 -O2 -g`,
//! and times dioptra's reading (relocations, every variable, every
//! location list, every expression decoded) against `llvm-dwarfdump
//! --debug-info` on the same file in the same run (LLVM's reader, which
//! also prints every location). Without clang-14 it says so and measures
//! nothing.
//!
//! `cargo bench -p dioptra-oracle --bench objfile`; `DIOPTRA_BENCH_FUNCTIONS`
//! sets the number of functions (6 000, about 10 MB of object).

use dioptra_oracle::objfile::read;
use dioptra_oracle::objfile::variables::{variables, Location};
use dioptra_semantics::dwarf::op::decode;
use std::process::Command;
use std::time::Instant;

/// The allocator the `dioptra` command runs with, so that the figures are
/// the command's.
#[global_allocator]
static ALLOCATOR: dioptra_alloc::Mimalloc = dioptra_alloc::Mimalloc;

mod generated;

fn main() {
    let Some(big) = generated::compile("objfile", 6000, false, &["-O2", "-g", "-c"], "big.o")
    else {
        return;
    };
    let (o, functions) = (&big.path, big.functions);
    let size = std::fs::metadata(o).unwrap().len();
    let t = Instant::now();
    let obj = read(o).unwrap();
    let vars = variables(&obj).unwrap();
    let mut expressions = 0usize;
    for v in &vars.variables {
        let enc = vars.units[v.unit].enc;
        match &v.location {
            Location::Expr(b) => {
                decode(b, enc).unwrap();
                expressions += 1;
            }
            Location::List(l) => {
                for (_, _, b) in l {
                    decode(b, enc).unwrap();
                    expressions += 1;
                }
            }
            _ => {}
        }
    }
    let ours = t.elapsed();
    println!(
        "dioptra: {:.1} MB object, {functions} functions, {} variables, {expressions} expressions decoded in {:.2} s",
        size as f64 / 1e6,
        vars.variables.len(),
        ours.as_secs_f64()
    );
    for tool in ["llvm-dwarfdump", "llvm-dwarfdump-14"] {
        let t = Instant::now();
        let out = Command::new(tool)
            .arg("--debug-info")
            .arg(o)
            .stdout(std::process::Stdio::null())
            .status();
        if out.is_ok_and(|s| s.success()) {
            let theirs = t.elapsed();
            println!(
                "{tool} --debug-info: {:.2} s; dioptra / {tool} = {:.2}",
                theirs.as_secs_f64(),
                ours.as_secs_f64() / theirs.as_secs_f64()
            );
            break;
        }
    }
}
