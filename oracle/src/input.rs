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

#[cfg(test)]
mod tests {
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
