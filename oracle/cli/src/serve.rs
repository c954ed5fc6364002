//! `dioptra serve`: the reference on the line protocol. Every line gets an
//! answer, with its id where one can be read: a line that is not UTF-8 or
//! not a request is a `malformed` answer, and the lines after it are
//! answered as usual. A line is read up to `MAX_REQUEST_BYTES`; the rest of
//! a longer one is skipped, not buffered.

use dioptra_oracle::input::{read_line_bounded, skip_line};
use dioptra_oracle::script::protocol::{answer_bytes, MAX_REQUEST_BYTES};
use std::process::ExitCode;

pub fn cmd_serve() -> ExitCode {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        let (line, cut) = match read_line_bounded(&mut input, MAX_REQUEST_BYTES) {
            Ok(Some(l)) => l,
            Ok(None) => return ExitCode::SUCCESS,
            Err(e) => {
                errln!("Protocol: unreadable: {e}");
                return ExitCode::from(2);
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) && !cut {
            continue;
        }
        let r = answer_bytes(&line, cut);
        if cut {
            if let Err(e) = skip_line(&mut input) {
                errln!("Protocol: unreadable: {e}");
                return ExitCode::from(2);
            }
        }
        outln!(
            "{}",
            serde_json::to_string(&r).unwrap_or_else(|_| "{}".into())
        );
    }
}
