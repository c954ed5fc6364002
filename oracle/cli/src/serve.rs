//! `dioptra serve`: the reference on the line protocol. Every line gets an
//! answer, with its id where one can be read: a line that is not UTF-8 or
//! not a request is a `malformed` answer, and the lines after it are
//! answered as usual. A line is read up to `MAX_REQUEST_BYTES`; the rest of
//! a longer one is skipped, not buffered.

use dioptra_oracle::script::protocol::{answer_bytes, MAX_REQUEST_BYTES};
use std::io::BufRead;
use std::process::ExitCode;

pub fn cmd_serve() -> ExitCode {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        let (line, cut) = match read_line(&mut input, MAX_REQUEST_BYTES) {
            Ok(Some(l)) => l,
            Ok(None) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("Protocol: unreadable: {e}");
                return ExitCode::from(2);
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) && !cut {
            continue;
        }
        let r = answer_bytes(&line, cut);
        outln!(
            "{}",
            serde_json::to_string(&r).unwrap_or_else(|_| "{}".into())
        );
    }
}

/// The next line without its newline, at most `max` bytes of it, and
/// whether it was longer (the rest is read and dropped); `None` at the end
/// of the input.
fn read_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Option<(Vec<u8>, bool)>> {
    let mut line = Vec::new();
    let mut cut = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((!line.is_empty() || cut).then_some((line, cut)));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(k) => (&buf[..k], Some(k + 1)),
            None => (buf, None),
        };
        let room = max.saturating_sub(line.len());
        if chunk.len() > room {
            cut = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some((line, cut)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::read_line;

    #[test]
    fn lines_are_read_up_to_the_bound_and_the_rest_skipped() {
        let mut input: &[u8] = b"short\r\n0123456789abcdef\nlast";
        assert_eq!(
            read_line(&mut input, 8).unwrap(),
            Some((b"short".to_vec(), false))
        );
        assert_eq!(
            read_line(&mut input, 8).unwrap(),
            Some((b"01234567".to_vec(), true))
        );
        assert_eq!(
            read_line(&mut input, 8).unwrap(),
            Some((b"last".to_vec(), false))
        );
        assert_eq!(read_line(&mut input, 8).unwrap(), None);
    }
}
