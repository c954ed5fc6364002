//! What the CLI tests on real artifacts share: the artifacts' paths and
//! running the binary.

use std::process::Command;

/// A file of corpus/real (not every test file that shares this module
/// reads one).
#[allow(dead_code)]
pub fn real(name: &str) -> String {
    format!("{}/../../corpus/real/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `dioptra args`: exit code, stdout, stderr.
pub fn dioptra(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dioptra"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
