//! Input files read with a bound. Every file a command or the corpus runner
//! takes is read up to [`MAX_FILE_BYTES`] (and one byte more, to know it is
//! larger), never whole first: `@/dev/zero`, a pipe that never ends or a
//! 2 GB file gets `Construct: too-large:` after reading 64 MiB, not an
//! exhausted machine.

use dioptra_semantics::diag::Diag;
use std::io::Read;
use std::path::Path;

/// The largest input file dioptra reads (the bound on listings and
/// expressions, `limits::MAX_INPUT_BYTES`).
pub const MAX_FILE_BYTES: usize = dioptra_semantics::limits::MAX_INPUT_BYTES;

/// The text of the file at `path`, at most `MAX_FILE_BYTES` of UTF-8;
/// failures are `construct`'s `unreadable`, `too-large` or `not-utf8`.
pub fn read_file(path: &Path, construct: &str) -> Result<String, Diag> {
    read_bounded(path, construct, MAX_FILE_BYTES)
}

/// [`read_file`] with the bound `max`.
pub fn read_bounded(path: &Path, construct: &str, max: usize) -> Result<String, Diag> {
    let shown = path.display();
    let file = std::fs::File::open(path)
        .map_err(|e| Diag::malformed(construct, "unreadable", format!("{shown}: {e}")))?;
    let mut bytes = Vec::new();
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Diag::malformed(construct, "unreadable", format!("{shown}: {e}")))?;
    if bytes.len() > max {
        return Err(Diag::malformed(
            construct,
            "too-large",
            format!("{shown}: larger than {max} bytes"),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|e| Diag::malformed(construct, "not-utf8", format!("{shown}: {e}")))
}

/// The next line of `input` without its newline (or `\r\n`), at most `max`
/// bytes of it, and whether it was longer: then the rest of the line is
/// left unread (see [`skip_line`]), never buffered; `None` at the end of the
/// input. What a line protocol reads from a peer it does not trust.
pub fn read_line_bounded(
    input: &mut impl std::io::BufRead,
    max: usize,
) -> std::io::Result<Option<(Vec<u8>, bool)>> {
    let mut line = Vec::new();
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((!line.is_empty()).then_some((line, false)));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(k) => (&buf[..k], Some(k + 1)),
            None => (buf, None),
        };
        let room = max.saturating_sub(line.len());
        if chunk.len() > room {
            line.extend_from_slice(&chunk[..room]);
            input.consume(room);
            return Ok(Some((line, true)));
        }
        line.extend_from_slice(chunk);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some((line, false)));
        }
    }
}

/// Reads and drops the rest of the current line, newline included.
pub fn skip_line(input: &mut impl std::io::BufRead) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(k) => {
                input.consume(k + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_are_read_up_to_the_bound_and_the_rest_skipped() {
        let mut input: &[u8] = b"short\r\n0123456789abcdef\nlast";
        assert_eq!(
            read_line_bounded(&mut input, 8).unwrap(),
            Some((b"short".to_vec(), false))
        );
        assert_eq!(
            read_line_bounded(&mut input, 8).unwrap(),
            Some((b"01234567".to_vec(), true))
        );
        skip_line(&mut input).unwrap();
        assert_eq!(
            read_line_bounded(&mut input, 8).unwrap(),
            Some((b"last".to_vec(), false))
        );
        assert_eq!(read_line_bounded(&mut input, 8).unwrap(), None);
    }

    use super::*;

    #[test]
    fn a_file_past_the_bound_is_too_large_and_the_rest_unread() {
        let dir = std::env::temp_dir().join(format!("dioptra-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("f");
        std::fs::write(&p, "0123456789").unwrap();
        assert_eq!(read_bounded(&p, "Input", 10).unwrap(), "0123456789");
        let d = read_bounded(&p, "Input", 9).unwrap_err();
        assert!(d.to_string().starts_with("Input: too-large:"), "{d}");
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        let d = read_bounded(&p, "Context", 10).unwrap_err();
        assert!(d.to_string().starts_with("Context: not-utf8:"), "{d}");
        let d = read_bounded(&dir.join("none"), "Rule", 10).unwrap_err();
        assert!(d.to_string().starts_with("Rule: unreadable:"), "{d}");
        // A device that never ends stops at the bound.
        let d = read_bounded(Path::new("/dev/zero"), "Input", 1 << 20).unwrap_err();
        assert!(d.to_string().starts_with("Input: too-large:"), "{d}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
