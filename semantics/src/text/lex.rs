//! The lexer shared by the expression, type, literal and location parsers.

use crate::diag::Diag;
use crate::limits::MAX_INPUT_BYTES;

/// A token, its text borrowed from the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    /// A word: `DIOpAdd`, `i32`, `addrspace`, `undef`, `u0x1F`.
    Ident(&'a str),
    /// A number as written: `-1`, `0x10`, `1.5e-3`, `0xH3C00`.
    Num(&'a str),
    /// One punctuation character: `( ) , * < > { } [ ] ! : | + =`.
    Punct(char),
}

impl std::fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident(s) | Tok::Num(s) => write!(f, "`{s}`"),
            Tok::Punct(c) => write!(f, "`{c}`"),
        }
    }
}

/// What a token is, without its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Num,
    Punct(u8),
}

/// A token and where it stands: 12 bytes, its text left in the input.
///
/// Why not the text with each token: an input is cut into all its tokens
/// before it is parsed, and a token can be one byte (`,`). With a `String`
/// in each (40 bytes and an allocation a token, three times the list while
/// it grew), 20 MB of commas took 2.2 GB to be refused at the first one.
#[derive(Clone, Copy, Debug)]
struct Spanned {
    /// Byte offset of the token's start (the input is at most
    /// `MAX_INPUT_BYTES`).
    at: u32,
    len: u32,
    kind: Kind,
}

/// A tokenized input that knows how to point at a place in it.
pub struct Tokens<'a> {
    pub text: &'a str,
    toks: Vec<Spanned>,
    pub i: usize,
}

impl<'a> Tokens<'a> {
    /// The tokens of `text`, counted first and kept in a list of exactly
    /// that length.
    pub fn new(text: &'a str) -> Result<Tokens<'a>, Diag> {
        if text.len() > MAX_INPUT_BYTES {
            return Err(Diag::malformed(
                "Parse",
                "too-large",
                format!("input is larger than {MAX_INPUT_BYTES} bytes"),
            ));
        }
        let mut n = 0usize;
        cut(text, &mut |_| n += 1)?;
        let mut toks = Vec::with_capacity(n);
        cut(text, &mut |t| toks.push(t))?;
        Ok(Tokens { text, toks, i: 0 })
    }

    /// Token `k` with its text.
    fn tok(&self, k: usize) -> Option<Tok<'a>> {
        let s = self.toks.get(k)?;
        let text = &self.text[s.at as usize..(s.at + s.len) as usize];
        Some(match s.kind {
            Kind::Ident => Tok::Ident(text),
            Kind::Num => Tok::Num(text),
            Kind::Punct(c) => Tok::Punct(char::from(c)),
        })
    }

    pub fn peek(&self) -> Option<Tok<'a>> {
        self.tok(self.i)
    }
    pub fn peek2(&self) -> Option<Tok<'a>> {
        self.tok(self.i + 1)
    }
    pub fn advance(&mut self) -> Option<Tok<'a>> {
        let t = self.tok(self.i);
        if t.is_some() {
            self.i += 1;
        }
        t
    }
    pub fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }
    /// Byte offset of the current token (or the end of the text).
    pub fn here(&self) -> usize {
        self.toks
            .get(self.i)
            .map_or(self.text.len(), |s| s.at as usize)
    }
    /// A diagnostic pointing at the current token.
    pub fn err(&self, d: Diag) -> Diag {
        point(self.text, self.here(), d)
    }
    /// `Parse: unexpected-token` at the current token.
    pub fn expected(&self, what: &str) -> Diag {
        let found = match self.peek() {
            Some(t) => format!("found {t}"),
            None => "found the end of the text".to_string(),
        };
        self.err(Diag::malformed(
            "Parse",
            "unexpected-token",
            format!("expected {what}, {found}"),
        ))
    }
    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(Tok::Punct(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    pub fn expect(&mut self, c: char) -> Result<(), Diag> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{c}`")))
        }
    }
    pub fn eat_ident(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Ident(s)) if s == w) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    /// An unsigned decimal (or `0x` hex) number that fits in `max`.
    pub fn unsigned(&mut self, what: &str, max: u64) -> Result<u64, Diag> {
        let at = self.here();
        match self.peek() {
            Some(Tok::Num(s)) => {
                let v = parse_u64(s);
                match v {
                    Some(v) if v <= max => {
                        self.i += 1;
                        Ok(v)
                    }
                    _ => Err(point(
                        self.text,
                        at,
                        Diag::malformed(
                            "Parse",
                            "bad-number",
                            format!("{what} must be an unsigned number at most {max}, found `{s}`"),
                        ),
                    )),
                }
            }
            _ => Err(self.expected(what)),
        }
    }
}

/// Cuts `text` into tokens, giving each to `each` in turn.
fn cut(text: &str, each: &mut dyn FnMut(Spanned)) -> Result<(), Diag> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut push = |kind: Kind, start: usize, end: usize| {
        each(Spanned {
            at: start as u32,
            len: (end - start) as u32,
            kind,
        })
    };
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let is_ident_start =
            |c: u8| c.is_ascii_alphabetic() || matches!(c, b'_' | b'$' | b'.' | b'%' | b'@' | b'^');
        if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < b.len() {
                let d = b[i];
                let prev = b[i - 1];
                let hex = text[start..i].trim_start_matches('-').starts_with("0x");
                if d.is_ascii_alphanumeric()
                    || d == b'.'
                    || ((d == b'-' || d == b'+') && !hex && (prev == b'e' || prev == b'E'))
                {
                    i += 1;
                } else {
                    break;
                }
            }
            push(Kind::Num, start, i);
        } else if matches!(c, b'c' | b'%') && b.get(i + 1) == Some(&b'"') {
            // An LLVM string constant, `c"hi\00"`, or a quoted name,
            // `%"class.std::vector"`: one word, to the closing quote.
            let (reason, what) = if c == b'c' {
                ("unterminated-string", "a `c\"...\"` string")
            } else {
                ("unterminated-name", "a quoted name")
            };
            let close = text[i + 2..].find('"').ok_or_else(|| {
                point(
                    text,
                    start,
                    Diag::malformed("Parse", reason, format!("{what} has no closing `\"`")),
                )
            })?;
            i += close + 3;
            push(Kind::Ident, start, i);
        } else if is_ident_start(c) {
            i += 1; // the first character may be a sigil (%, @, ^) that cannot continue a name
                    // LLVM's value names, `[%@][-a-zA-Z$._][-a-zA-Z$._0-9]*`, take
                    // `-` too (`%x.pre-phi`, as LLVM's passes name values).
            let value_name = matches!(c, b'%' | b'@');
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || matches!(b[i], b'_' | b'$' | b'.')
                    || (value_name && b[i] == b'-'))
            {
                i += 1;
            }
            push(Kind::Ident, start, i);
        } else if b"(),*<>{}[]!:|+=".contains(&c) {
            i += 1;
            push(Kind::Punct(c), start, i);
        } else {
            let ch = text[start..].chars().next().unwrap_or('?');
            return Err(point(
                text,
                start,
                Diag::malformed(
                    "Parse",
                    "bad-character",
                    format!("unexpected character `{ch}`"),
                ),
            ));
        }
    }
    Ok(())
}

/// Decimal or `0x` hexadecimal.
pub fn parse_u64(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else if s.bytes().all(|c| c.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// Adds "line L, column C" and a caret under the place to a diagnostic.
pub fn point(text: &str, at: usize, mut d: Diag) -> Diag {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line_end = text[at..].find('\n').map(|i| at + i).unwrap_or(text.len());
    let line_no = text[..at].matches('\n').count() + 1;
    let col = text[line_start..at].chars().count() + 1;
    let line = &text[line_start..line_end];
    // Long lines: show a window around the place.
    let chars = line.chars().count();
    let (shown, caret_col) = if chars > 100 {
        let c = col - 1;
        let lo = c.saturating_sub(50);
        let hi = (c + 50).min(chars);
        // The byte where character `n` of the line starts (not the line
        // copied as characters: 4 bytes a byte, on a line that may be the
        // whole input).
        let byte = |n: usize| line.char_indices().nth(n).map_or(line.len(), |(b, _)| b);
        (format!("...{}...", &line[byte(lo)..byte(hi)]), c - lo + 3)
    } else {
        (line.to_string(), col - 1)
    };
    d.message = format!(
        "line {line_no}, column {col}: {}\n  {shown}\n  {}^",
        d.message,
        " ".repeat(caret_col)
    )
    .into();
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long line is shown as the 50 characters before the place and the
    /// 50 from it, counted in characters (the line holds multi-byte ones),
    /// with the caret under the place.
    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_place() {
        let line: String = (0..300)
            .map(|k| if k % 3 == 0 { 'é' } else { 'x' })
            .collect();
        let text = format!("first\n{line}\nlast");
        for col in [1usize, 30, 51, 150, 280, 300] {
            let at = text.char_indices().nth(6 + col - 1).unwrap().0;
            let d = point(&text, at, Diag::malformed("Parse", "x", "here"));
            let chars: Vec<char> = line.chars().collect();
            let lo = (col - 1).saturating_sub(50);
            let hi = (col - 1 + 50).min(chars.len());
            let window: String = chars[lo..hi].iter().collect();
            let want = format!(
                "line 2, column {col}: here\n  ...{window}...\n  {}^",
                " ".repeat(col - 1 - lo + 3)
            );
            assert_eq!(d.message.as_str(), want, "column {col}");
        }
    }
}
