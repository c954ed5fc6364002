//! The tokens of textual LLVM IR, as LLVM's own lexer (`LLLexer.cpp`) cuts
//! them, each with its line, column and byte span.
//!
//! Why a lexer of our own: no maintained Rust crate reads textual LLVM IR
//! (the `llvm-ir` crate reads bitcode through the LLVM C API of one fixed
//! version, which this machine's LLVM 14 and rustc's LLVM 22 cannot both
//! satisfy), and the reader must take every version from 14 to 22 as text.

use dioptra_semantics::diag::Diag;
use std::borrow::Cow;

/// What a token is, its text borrowed from the source where it needs no
/// decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok<'s> {
    /// `%name`, `%"quoted name"`, `%12`: a local value, block or named type.
    Local(Cow<'s, str>),
    /// `@name`, `@"quoted"`, `@0`: a global.
    Global(Cow<'s, str>),
    /// `!12`, `!llvm.dbg.cu`, `!dbg`, `!DILocation`: a metadata id, a
    /// named node, an attachment kind or a node kind (followed by `(`).
    Meta(Cow<'s, str>),
    /// `!"text"`: a metadata string (escapes decoded).
    MetaStr(Cow<'s, str>),
    /// `"text"` (escapes decoded).
    Str(Cow<'s, str>),
    /// `name:`, `"quoted":`, `12:`: a block label or a metadata field name.
    Key(Cow<'s, str>),
    /// Numbers as written: `42`, `-1`, `0x3FF0000000000000`, `1.5e+00`.
    Num(&'s str),
    /// Keywords, types, opcodes, `DW_*` constants, `#dbg_value`, `#0`,
    /// `$comdat`, `^0`, `...`.
    Word(&'s str),
    /// One of `= , ( ) [ ] { } < > * | !`.
    Punct(char),
}

/// A token's kind: [`Tok`] without its text, which [`Token::tok`] reads
/// from the source when it is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Local,
    Global,
    Meta,
    MetaStr,
    Str,
    Key,
    Num,
    Word,
    Punct(u8),
}

/// A token and where it stands: 16 bytes, its text left in the source.
///
/// Why not the text with each token: a module is cut into all its tokens
/// before it is read, and a token can be one byte (`=`, `,`). With a
/// `String` in each, the tokens of a 60 MB file of `=` took 6 GB; now they
/// take 16 bytes a token, allocated once at their exact number.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    /// Byte offsets into the source (which is at most `MAX_INPUT_BYTES`).
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub kind: Kind,
}

impl Token {
    /// The token with its text, read from `src` (the source it was cut
    /// from): a quoted name or string decoded, anything else borrowed.
    pub fn tok<'s>(&self, src: &'s str) -> Tok<'s> {
        let raw = &src[self.start as usize..self.end as usize];
        // `"body"` decoded; a name written without quotes as it stands.
        let name = |r: &'s str| match r.strip_prefix('"') {
            Some(q) => unescape(q.strip_suffix('"').unwrap_or(q)),
            None => Cow::Borrowed(r),
        };
        match self.kind {
            Kind::Local => Tok::Local(name(&raw[1..])),
            Kind::Global => Tok::Global(name(&raw[1..])),
            Kind::Meta => Tok::Meta(name(&raw[1..])),
            Kind::MetaStr => Tok::MetaStr(name(&raw[1..])),
            Kind::Str => Tok::Str(name(raw)),
            Kind::Key => Tok::Key(name(&raw[..raw.len() - 1])),
            Kind::Num => Tok::Num(raw),
            Kind::Word => Tok::Word(raw),
            Kind::Punct(c) => Tok::Punct(char::from(c)),
        }
    }
    /// The token's column on its line (from 1, in bytes), found from
    /// `src`: asked for only by diagnostics.
    pub fn col(&self, src: &str) -> u32 {
        let start = self.start as usize;
        let line_start = src[..start].rfind('\n').map_or(0, |k| k + 1);
        (start - line_start + 1) as u32
    }
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

/// Decodes a quoted string's `\XX` hex escapes and `\\`; borrowed when it
/// has none.
fn unescape(raw: &str) -> Cow<'_, str> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw);
    }
    let raw = raw.as_bytes();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' {
            if raw.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            let hex = raw.get(i + 1..i + 3).and_then(|h| {
                std::str::from_utf8(h)
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            });
            if let Some(b) = hex {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(raw[i]);
        i += 1;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// Cuts `src` into tokens; comments (`;` to the end of the line) are
/// dropped. An unterminated string or a character IR never holds is
/// `Module: bad-token` with its line and column.
///
/// The source is cut twice: once to count the tokens, once to keep them in
/// a list of exactly that length (grown by doubling, the list and its copy
/// took three times the tokens' size at once).
pub fn tokens(src: &str) -> Result<Vec<Token>, Diag> {
    if src.len() > u32::MAX as usize {
        return Err(Diag::malformed(
            "Module",
            "too-large",
            "the module is larger than 4 GiB",
        ));
    }
    let mut n = 0usize;
    cut(src, &mut |_| n += 1)?;
    let mut out = Vec::with_capacity(n);
    cut(src, &mut |t| out.push(t))?;
    Ok(out)
}

/// Cuts `src` into tokens, giving each to `each` in turn.
fn cut(src: &str, each: &mut dyn FnMut(Token)) -> Result<(), Diag> {
    let b = src.as_bytes();
    let (mut i, mut line, mut line_start) = (0usize, 1u32, 0usize);
    let bad = |line: u32, col: usize, msg: String| {
        Diag::malformed(
            "Module",
            "bad-token",
            format!("line {line}, column {col}: {msg}"),
        )
    };
    // The index after the closing quote of a quoted string from `at` (the
    // opening quote).
    let quoted = |at: usize, line: u32, col: usize| -> Result<usize, Diag> {
        match b[at + 1..].iter().position(|&c| c == b'"') {
            Some(k) => Ok(at + 1 + k + 1),
            None => Err(bad(line, col, "a string is never closed".into())),
        }
    };
    while i < b.len() {
        let c = b[i];
        let col = i - line_start + 1;
        let start = i;
        let at_line = line;
        let mut push = |kind: Kind, end: usize| {
            each(Token {
                start: start as u32,
                end: end as u32,
                line: at_line,
                kind,
            })
        };
        match c {
            b'\n' => {
                i += 1;
                line += 1;
                line_start = i;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'%' | b'@' | b'!' => {
                let next = b.get(i + 1).copied();
                let (named, end) = if next == Some(b'"') {
                    (true, quoted(i + 1, line, col)?)
                } else {
                    let mut j = i + 1;
                    while j < b.len() && (is_name_char(b[j]) || (c == b'!' && b[j] == b'\\')) {
                        j += 1;
                    }
                    (j > i + 1, j)
                };
                let kind = match (c, named) {
                    (b'%', true) => Kind::Local,
                    (b'@', true) => Kind::Global,
                    (b'!', true) if next == Some(b'"') => Kind::MetaStr,
                    (b'!', true) => Kind::Meta,
                    (b'!', false) => Kind::Punct(b'!'),
                    _ => return Err(bad(line, col, format!("`{}` names nothing", c as char))),
                };
                // Newlines inside a quoted name keep the line count (and
                // the next token's column) right.
                line += newlines(&b[i..end]);
                line_start = line_start_after(b, start, end, line_start);
                push(kind, end);
                i = end;
            }
            b'"' => {
                let end = quoted(i, line, col)?;
                let lines_in = newlines(&b[i..end]);
                if b.get(end) == Some(&b':') {
                    push(Kind::Key, end + 1);
                    i = end + 1;
                } else {
                    push(Kind::Str, end);
                    i = end;
                }
                line += lines_in;
                line_start = line_start_after(b, start, end, line_start);
            }
            b'=' | b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b'*' | b'|' => {
                push(Kind::Punct(c), i + 1);
                i += 1;
            }
            // `^0`: a summary entry (ThinLTO modules).
            b'^' => {
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                push(Kind::Word, j);
                i = j;
            }
            b'#' => {
                let mut j = i + 1;
                while j < b.len() && is_name_char(b[j]) {
                    j += 1;
                }
                push(Kind::Word, j);
                i = j;
            }
            b'.' if src[i..].starts_with("...") => {
                push(Kind::Word, i + 3);
                i += 3;
            }
            b'-' | b'+' | b'0'..=b'9' => {
                let mut j = i + 1;
                while j < b.len() {
                    let d = b[j];
                    let exp_sign = matches!(d, b'+' | b'-') && matches!(b[j - 1], b'e' | b'E');
                    if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exp_sign {
                        j += 1;
                    } else {
                        break;
                    }
                }
                if b.get(j) == Some(&b':') && c.is_ascii_digit() {
                    push(Kind::Key, j + 1);
                    i = j + 1;
                } else {
                    push(Kind::Num, j);
                    i = j;
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'.' => {
                let mut j = i + 1;
                while j < b.len() && is_name_char(b[j]) {
                    j += 1;
                }
                if b.get(j) == Some(&b':') {
                    push(Kind::Key, j + 1);
                    i = j + 1;
                } else {
                    push(Kind::Word, j);
                    i = j;
                }
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return Err(bad(
                    line,
                    col,
                    format!("`{}` does not begin any LLVM IR token", ch.escape_default()),
                ));
            }
        }
    }
    Ok(())
}

/// Where the line of the text after `b[start..end]` starts: after the last
/// newline in it, or `line_start` when it has none.
fn line_start_after(b: &[u8], start: usize, end: usize, line_start: usize) -> usize {
    b[start..end]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(line_start, |k| start + k + 1)
}

/// The newlines in `b`.
fn newlines(b: &[u8]) -> u32 {
    b.iter().filter(|&&c| c == b'\n').count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok<'_>> {
        tokens(s).unwrap().iter().map(|t| t.tok(s)).collect()
    }

    #[test]
    fn cuts_names_labels_and_metadata() {
        assert_eq!(
            toks("%\"a b\" = add i32 %x, -1 ; c\n\"l.1\":\nlabel.a: !12 !\"s\\22\" !{"),
            vec![
                Tok::Local("a b".into()),
                Tok::Punct('='),
                Tok::Word("add"),
                Tok::Word("i32"),
                Tok::Local("x".into()),
                Tok::Punct(','),
                Tok::Num("-1"),
                Tok::Key("l.1".into()),
                Tok::Key("label.a".into()),
                Tok::Meta("12".into()),
                Tok::MetaStr("s\"".into()),
                Tok::Punct('!'),
                Tok::Punct('{'),
            ]
        );
        assert_eq!(
            toks("#dbg_value(i64 1.5e+00, 7:"),
            vec![
                Tok::Word("#dbg_value"),
                Tok::Punct('('),
                Tok::Word("i64"),
                Tok::Num("1.5e+00"),
                Tok::Punct(','),
                Tok::Key("7".into()),
            ]
        );
    }

    #[test]
    fn bad_tokens_name_their_place() {
        let e = tokens("define void @f() {\n  ` \n}").unwrap_err();
        assert!(e.to_string().contains("line 2, column 3"), "{e}");
        let e = tokens("@s = constant [2 x i8] c\"ab").unwrap_err();
        assert!(e.to_string().contains("never closed"), "{e}");
    }

    #[test]
    fn lines_count_through_quoted_newlines() {
        let src = "\"a\nb\" x";
        let t = tokens(src).unwrap();
        assert_eq!(t[1].line, 2);
        // Its column is counted from the start of its own line, and so is
        // that of a bad token after it.
        assert_eq!(t[1].col(src), 4);
        let e = tokens("\"a\nb\" `").unwrap_err();
        assert!(e.to_string().contains("line 2, column 4"), "{e}");
    }
}
