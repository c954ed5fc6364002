//! A small s-expression reader for context files and corpus scripts.
//!
//! Atoms, double-quoted strings (`\"`, `\\`, `\n`, `\t` escapes), lists in
//! parentheses, and `;` comments to the end of the line. Every node keeps its
//! line and column so diagnostics can say where.
//!
//! Written here rather than taken from a crate: the formats need positions on
//! every node, strings kept apart from atoms (an expression is always a
//! string), and hard bounds on depth and size, which the small s-expression
//! crates do not all offer together.

use crate::diag::Diag;
use crate::limits::MAX_INPUT_BYTES;

/// Deepest list nesting accepted.
pub const MAX_SEXPR_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Atom(String, Pos),
    Str(String, Pos),
    List(Vec<Node>, Pos),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.col)
    }
}

impl Node {
    pub fn pos(&self) -> Pos {
        match self {
            Node::Atom(_, p) | Node::Str(_, p) | Node::List(_, p) => *p,
        }
    }
    /// The atom's text, if this is an atom.
    pub fn atom(&self) -> Option<&str> {
        match self {
            Node::Atom(s, _) => Some(s),
            _ => None,
        }
    }
    /// The string's contents, if this is a string.
    pub fn str(&self) -> Option<&str> {
        match self {
            Node::Str(s, _) => Some(s),
            _ => None,
        }
    }
    /// The list's items, if this is a list.
    pub fn list(&self) -> Option<&[Node]> {
        match self {
            Node::List(v, _) => Some(v),
            _ => None,
        }
    }
    /// For a list whose head is an atom: `(head rest...)`.
    pub fn form(&self) -> Option<(&str, &[Node])> {
        let items = self.list()?;
        let head = items.first()?.atom()?;
        Some((head, &items[1..]))
    }
}

/// Reads every top-level node of `text`. `construct` names the format in
/// diagnostics (`Script`, `Context`).
pub fn read_all(text: &str, construct: &str) -> Result<Vec<Node>, Diag> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(Diag::malformed(
            construct,
            "too-large",
            format!("input is larger than {MAX_INPUT_BYTES} bytes"),
        ));
    }
    let mut r = Reader {
        chars: text.chars().collect(),
        i: 0,
        pos: Pos { line: 1, col: 1 },
        construct,
    };
    let mut out = Vec::new();
    loop {
        r.skip_ws();
        if r.i >= r.chars.len() {
            return Ok(out);
        }
        out.push(r.node(0)?);
    }
}

struct Reader<'a> {
    chars: Vec<char>,
    i: usize,
    pos: Pos,
    construct: &'a str,
}

impl Reader<'_> {
    fn err(&self, reason: &'static str, pos: Pos, msg: impl Into<String>) -> Diag {
        Diag::malformed(self.construct, reason, format!("{pos}: {}", msg.into()))
    }
    fn bump(&mut self) -> Option<char> {
        let c = *self.chars.get(self.i)?;
        self.i += 1;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.col = 1;
        } else {
            self.pos.col += 1;
        }
        Some(c)
    }
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == ';' {
                while let Some(c) = self.peek() {
                    if c == '\n' {
                        break;
                    }
                    self.bump();
                }
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }
    fn node(&mut self, depth: usize) -> Result<Node, Diag> {
        let start = self.pos;
        match self.peek() {
            Some('(') => {
                if depth >= MAX_SEXPR_DEPTH {
                    return Err(self.err(
                        "too-deep",
                        start,
                        format!("lists nested deeper than {MAX_SEXPR_DEPTH}"),
                    ));
                }
                self.bump();
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None => {
                            return Err(self.err("unclosed-list", start, "`(` is never closed"))
                        }
                        Some(')') => {
                            self.bump();
                            return Ok(Node::List(items, start));
                        }
                        _ => items.push(self.node(depth + 1)?),
                    }
                }
            }
            Some(')') => Err(self.err("unexpected-close", start, "`)` without `(`")),
            Some('"') => {
                self.bump();
                let mut s = String::new();
                loop {
                    match self.bump() {
                        None => {
                            return Err(self.err(
                                "unclosed-string",
                                start,
                                "string is never closed",
                            ))
                        }
                        Some('"') => return Ok(Node::Str(s, start)),
                        Some('\\') => match self.bump() {
                            Some('"') => s.push('"'),
                            Some('\\') => s.push('\\'),
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            other => {
                                return Err(self.err(
                                    "bad-escape",
                                    self.pos,
                                    format!("unknown escape `\\{}`", other.unwrap_or(' ')),
                                ))
                            }
                        },
                        Some(c) => s.push(c),
                    }
                }
            }
            _ => {
                let mut s = String::new();
                while let Some(c) = self.peek() {
                    if c.is_whitespace() || c == '(' || c == ')' || c == '"' || c == ';' {
                        break;
                    }
                    s.push(c);
                    self.bump();
                }
                Ok(Node::Atom(s, start))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_forms_with_positions() {
        let n = read_all("; c\n(a \"b \\\"q\\\"\" (c))", "Script").unwrap();
        assert_eq!(n.len(), 1);
        let (head, rest) = n[0].form().unwrap();
        assert_eq!(head, "a");
        assert_eq!(rest[0].str(), Some("b \"q\""));
        assert_eq!(n[0].pos(), Pos { line: 2, col: 1 });
    }

    #[test]
    fn errors_are_malformed_with_positions() {
        let e = read_all("(a\n  \"x", "Script").unwrap_err();
        assert!(e.matches("Script: unclosed-string"), "{e}");
        assert!(e.message.contains("line 2, column 3"), "{e}");
        let deep = "(".repeat(100_000);
        assert!(read_all(&deep, "Script")
            .unwrap_err()
            .matches("Script: too-deep"));
        assert!(read_all(")", "Script")
            .unwrap_err()
            .matches("Script: unexpected-close"));
    }
}
