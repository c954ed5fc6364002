//! Generated C compiled by clang-14, for the benchmarks that read real
//! compiler output (`objfile`, `ir`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// C with `functions` functions: loops, structs passed by value, locals in
/// location lists, and (with `switch`) a switch per function.
fn source(functions: usize, switch: bool) -> String {
    let mut s = String::from("struct p { int x; short y; char t; long z; };\n");
    for i in 0..functions {
        let sw = if switch {
            format!("switch (n & 3) {{ case 0: acc += 7; break; case 1: acc -= r.y; break; case 2: acc ^= {i}; break; default: break; }}\n")
        } else {
            String::new()
        };
        let _ = write!(
            s,
            "__attribute__((noinline)) long f{i}(const int *a, int n, struct p q, long k) {{\n\
               long acc = k * {i};\n\
               struct p r = q;\n\
               for (int j = 0; j < n; j++) {{ acc += a[j] * (j + {i}); r.x ^= a[j]; }}\n\
               {sw}\
               long t = acc - r.x + r.y * r.t;\n\
               return t + r.z + q.z;\n\
             }}\n"
        );
    }
    s
}

/// The compiled file in a scratch directory (removed when dropped).
pub struct Compiled {
    dir: PathBuf,
    pub path: PathBuf,
    pub functions: usize,
}

impl Drop for Compiled {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Generates the C (`DIOPTRA_BENCH_FUNCTIONS` functions, else
/// `default_functions`) and compiles it with `clang-14 ARGS -o OUT`;
/// `None`, having said so, when clang-14 is not installed.
pub fn compile(
    name: &str,
    default_functions: usize,
    switch: bool,
    args: &[&str],
    out: &str,
) -> Option<Compiled> {
    let functions: usize = std::env::var("DIOPTRA_BENCH_FUNCTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_functions);
    let dir = std::env::temp_dir().join(format!("dioptra-bench-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("big.c");
    std::fs::write(&c, source(functions, switch)).unwrap();
    let compiled = Compiled {
        path: dir.join(out),
        dir,
        functions,
    };
    let built = Command::new("clang-14")
        .args(args)
        .arg(&c)
        .arg("-o")
        .arg(&compiled.path)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        println!(
            "skipped: clang-14 is not installed (apt-get install -y clang-14); nothing measured"
        );
        return None;
    }
    Some(compiled)
}
