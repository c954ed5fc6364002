//! Diagnostics and the outcome taxonomy shared by code, tests, corpus and CLI.
//!
//! Every diagnostic prints as `Construct: reason-code: message`. Tests and the
//! corpus match the `Construct: reason-code` prefix only, so the wording of the
//! message can improve without breaking anyone.

use std::fmt;

/// What kind of failure a diagnostic reports (DESIGN.md, "Outcome taxonomy").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Text or bytes do not parse. CLI exit 2.
    Malformed,
    /// Violates a static well-formedness rule of the spec. CLI exit 1.
    IllFormed,
    /// Well-formed, but evaluation in this context hits a rule. CLI exit 1.
    EvalError,
    /// Needs something the context did not supply, or a documented limit of
    /// dioptra was reached. CLI exit 1.
    Unsupported,
}

impl Outcome {
    /// The word used for this outcome in the corpus and in `--json` output.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Malformed => "malformed",
            Outcome::IllFormed => "ill-formed",
            Outcome::EvalError => "eval-error",
            Outcome::Unsupported => "unsupported",
        }
    }
}

/// One diagnostic: `construct: reason: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub outcome: Outcome,
    /// The construct the rule belongs to: an op name (`DIOpAdd`), `DIExpr`,
    /// `Type`, `Parse`, `Context`, `read`, ...
    pub construct: String,
    /// A stable kebab-case reason code.
    pub reason: &'static str,
    /// Human-readable detail; free to change.
    pub message: String,
}

/// The longest message a diagnostic keeps (characters): messages quote
/// their input, and a 4 MB line must not come back as a 4 MB diagnostic.
pub const MAX_MESSAGE_CHARS: usize = 2000;

/// `text` as a message shows it: at most `max` characters, then how long
/// it was (a 200 MB answer is not copied into a failure).
pub fn shown(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((k, _)) => format!("{}... ({} bytes in all)", &text[..k], text.len()),
    }
}

impl Diag {
    /// A diagnostic; its message is cut to [`MAX_MESSAGE_CHARS`].
    pub fn new(
        outcome: Outcome,
        construct: impl Into<String>,
        reason: &'static str,
        message: impl Into<String>,
    ) -> Diag {
        let message = message.into();
        Diag {
            outcome,
            construct: construct.into(),
            reason,
            message: if message.len() > MAX_MESSAGE_CHARS {
                shown(&message, MAX_MESSAGE_CHARS)
            } else {
                message
            },
        }
    }
    pub fn malformed(c: impl Into<String>, r: &'static str, m: impl Into<String>) -> Diag {
        Diag::new(Outcome::Malformed, c, r, m)
    }
    pub fn ill(c: impl Into<String>, r: &'static str, m: impl Into<String>) -> Diag {
        Diag::new(Outcome::IllFormed, c, r, m)
    }
    pub fn eval(c: impl Into<String>, r: &'static str, m: impl Into<String>) -> Diag {
        Diag::new(Outcome::EvalError, c, r, m)
    }
    pub fn unsupported(c: impl Into<String>, r: &'static str, m: impl Into<String>) -> Diag {
        Diag::new(Outcome::Unsupported, c, r, m)
    }
    /// The same diagnostic with `where_: ` put before its message (a line, an
    /// op index, the lifetime it came from); construct and reason unchanged.
    pub fn at_place(mut self, where_: impl fmt::Display) -> Diag {
        self.message = shown(&format!("{where_}: {}", self.message), MAX_MESSAGE_CHARS);
        self
    }
    /// The stable prefix `Construct: reason-code` that tests match on.
    pub fn prefix(&self) -> String {
        format!("{}: {}", self.construct, self.reason)
    }
    /// Does this diagnostic match an expected prefix such as
    /// `DIOpAdd: type-mismatch` (or just `DIOpAdd`)?
    pub fn matches(&self, expected: &str) -> bool {
        let full = format!("{}: {}:", self.construct, self.reason);
        let expected = expected.trim();
        full.starts_with(expected)
            && (full.len() == expected.len()
                || full[expected.len()..].starts_with(':')
                || expected.ends_with(':'))
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.construct, self.reason, self.message)
    }
}

impl std::error::Error for Diag {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_matching_is_by_whole_components() {
        let d = Diag::ill("DIOpAdd", "type-mismatch", "i32 vs i64");
        assert!(d.matches("DIOpAdd: type-mismatch"));
        assert!(d.matches("DIOpAdd"));
        assert!(!d.matches("DIOpAd"));
        assert!(!d.matches("DIOpAdd: type"));
        assert!(!d.matches("DIOpSub: type-mismatch"));
        assert_eq!(d.to_string(), "DIOpAdd: type-mismatch: i32 vs i64");
    }

    #[test]
    fn messages_are_cut_and_say_how_long_they_were() {
        assert_eq!(shown("abc", 5), "abc");
        assert_eq!(shown("abcdefgh", 3), "abc... (8 bytes in all)");
        let d = Diag::malformed("DIExpr", "bad-syntax", "x".repeat(1 << 20));
        assert!(
            d.message.len() < MAX_MESSAGE_CHARS + 40,
            "{}",
            d.message.len()
        );
        assert!(d.message.ends_with(&format!("({} bytes in all)", 1 << 20)));
        let d = d.at_place("y".repeat(1 << 20));
        assert!(d.message.len() < MAX_MESSAGE_CHARS + 40);
    }
}
