//! `dioptra serve`: the reference on the line protocol.

use dioptra_oracle::script::protocol::answer_line;
use std::io::BufRead;
use std::process::ExitCode;

pub fn cmd_serve() -> ExitCode {
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            return ExitCode::from(2);
        };
        if line.trim().is_empty() {
            continue;
        }
        let r = answer_line(&line);
        outln!(
            "{}",
            serde_json::to_string(&r).unwrap_or_else(|_| "{}".into())
        );
    }
    ExitCode::SUCCESS
}
