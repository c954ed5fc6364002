//! The tokens of textual LLVM IR, as LLVM's own lexer (`LLLexer.cpp`) cuts
//! them, each with its line, column and byte span.
//!
//! Why a lexer of our own: no maintained Rust crate reads textual LLVM IR
//! (the `llvm-ir` crate reads bitcode through the LLVM C API of one fixed
//! version, which this machine's LLVM 14 and rustc's LLVM 22 cannot both
//! satisfy), and the reader must take every version from 14 to 22 as text.

use dioptra_semantics::diag::Diag;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// `%name`, `%"quoted name"`, `%12`: a local value, block or named type.
    Local(String),
    /// `@name`, `@"quoted"`, `@0`: a global.
    Global(String),
    /// `!12`, `!llvm.dbg.cu`, `!dbg`, `!DILocation`: a metadata id, a
    /// named node, an attachment kind or a node kind (followed by `(`).
    Meta(String),
    /// `!"text"`: a metadata string (escapes decoded).
    MetaStr(String),
    /// `"text"` (escapes decoded).
    Str(String),
    /// `name:`, `"quoted":`, `12:`: a block label or a metadata field name.
    Key(String),
    /// Numbers as written: `42`, `-1`, `0x3FF0000000000000`, `1.5e+00`.
    Num(String),
    /// Keywords, types, opcodes, `DW_*` constants, `#dbg_value`, `#0`,
    /// `$comdat`, `^0`, `...`.
    Word(String),
    /// One of `= , ( ) [ ] { } < > * | !`.
    Punct(char),
}

/// A token and where it stands.
#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
    /// Byte offsets into the source.
    pub start: usize,
    pub end: usize,
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

/// Decodes a quoted string's `\XX` hex escapes and `\\`.
fn unescape(raw: &[u8]) -> String {
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
    String::from_utf8_lossy(&out).into_owned()
}

/// Cuts `src` into tokens; comments (`;` to the end of the line) are
/// dropped. An unterminated string or a character IR never holds is
/// `Module: bad-token` with its line and column.
pub fn tokens(src: &str) -> Result<Vec<Token>, Diag> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1u32, 0usize);
    let bad = |line: u32, col: usize, msg: String| {
        Diag::malformed(
            "Module",
            "bad-token",
            format!("line {line}, column {col}: {msg}"),
        )
    };
    // A quoted string from `at` (the opening quote): its body and the
    // index after the closing quote.
    let quoted = |at: usize, line: u32, col: usize| -> Result<(String, usize), Diag> {
        let mut j = at + 1;
        while j < b.len() && b[j] != b'"' {
            j += 1;
        }
        if j >= b.len() {
            return Err(bad(line, col, "a string is never closed".into()));
        }
        Ok((unescape(&b[at + 1..j]), j + 1))
    };
    while i < b.len() {
        let c = b[i];
        let col = i - line_start + 1;
        let start = i;
        let at_line = line;
        let push = |out: &mut Vec<Token>, tok: Tok, end: usize| {
            out.push(Token {
                tok,
                line: at_line,
                col: col as u32,
                start,
                end,
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
                let (name, end) = if next == Some(b'"') {
                    let (s, e) = quoted(i + 1, line, col)?;
                    (Some(s), e)
                } else {
                    let mut j = i + 1;
                    while j < b.len() && (is_name_char(b[j]) || (c == b'!' && b[j] == b'\\')) {
                        j += 1;
                    }
                    ((j > i + 1).then(|| src[i + 1..j].to_string()), j)
                };
                let tok = match (c, name) {
                    (b'%', Some(n)) => Tok::Local(n),
                    (b'@', Some(n)) => Tok::Global(n),
                    (b'!', Some(n)) if next == Some(b'"') => Tok::MetaStr(n),
                    (b'!', Some(n)) => Tok::Meta(n),
                    (b'!', None) => Tok::Punct('!'),
                    _ => return Err(bad(line, col, format!("`{}` names nothing", c as char))),
                };
                // Newlines inside a quoted name keep the line count right.
                line += src[i..end].matches('\n').count() as u32;
                push(&mut out, tok, end);
                i = end;
            }
            b'"' => {
                let (s, end) = quoted(i, line, col)?;
                let lines_in = src[i..end].matches('\n').count() as u32;
                if b.get(end) == Some(&b':') {
                    push(&mut out, Tok::Key(s), end + 1);
                    i = end + 1;
                } else {
                    push(&mut out, Tok::Str(s), end);
                    i = end;
                }
                line += lines_in;
            }
            b'=' | b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b'*' | b'|' => {
                push(&mut out, Tok::Punct(c as char), i + 1);
                i += 1;
            }
            // `^0`: a summary entry (ThinLTO modules).
            b'^' => {
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                push(&mut out, Tok::Word(src[i..j].to_string()), j);
                i = j;
            }
            b'#' => {
                let mut j = i + 1;
                while j < b.len() && is_name_char(b[j]) {
                    j += 1;
                }
                push(&mut out, Tok::Word(src[i..j].to_string()), j);
                i = j;
            }
            b'.' if src[i..].starts_with("...") => {
                push(&mut out, Tok::Word("...".into()), i + 3);
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
                    push(&mut out, Tok::Key(src[i..j].to_string()), j + 1);
                    i = j + 1;
                } else {
                    push(&mut out, Tok::Num(src[i..j].to_string()), j);
                    i = j;
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'.' => {
                let mut j = i + 1;
                while j < b.len() && is_name_char(b[j]) {
                    j += 1;
                }
                let w = src[i..j].to_string();
                if b.get(j) == Some(&b':') {
                    push(&mut out, Tok::Key(w), j + 1);
                    i = j + 1;
                } else {
                    push(&mut out, Tok::Word(w), j);
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
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokens(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn cuts_names_labels_and_metadata() {
        assert_eq!(
            toks("%\"a b\" = add i32 %x, -1 ; c\n\"l.1\":\nlabel.a: !12 !\"s\\22\" !{"),
            vec![
                Tok::Local("a b".into()),
                Tok::Punct('='),
                Tok::Word("add".into()),
                Tok::Word("i32".into()),
                Tok::Local("x".into()),
                Tok::Punct(','),
                Tok::Num("-1".into()),
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
                Tok::Word("#dbg_value".into()),
                Tok::Punct('('),
                Tok::Word("i64".into()),
                Tok::Num("1.5e+00".into()),
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
        let t = tokens("\"a\nb\" x").unwrap();
        assert_eq!(t[1].line, 2);
    }
}
