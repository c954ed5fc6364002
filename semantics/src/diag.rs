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
    pub message: Message,
}

/// A diagnostic's message: its text, or how to write it when it is first
/// read. An evaluation error's message quotes locations and values, and a
/// law that only counts evaluation errors (most generated expressions fail
/// in some context) never reads it: writing every one was nearly 4% of
/// the instructions of the property pipeline. Either way it reads as the same `str`, cut to
/// [`MAX_MESSAGE_CHARS`].
#[derive(Clone)]
pub struct Message {
    text: std::sync::OnceLock<Box<str>>,
    write: Option<Write>,
}

/// A diagnostic travels in every `Result` of the interpreters: a message
/// that can be written later keeps it at most 12 words.
const _: () = assert!(std::mem::size_of::<Diag>() <= 96);

/// How a message not yet written is written.
#[derive(Clone)]
enum Write {
    /// By a function (unwind-safe, as the diagnostics of code run under
    /// `catch_unwind` are).
    Later(std::sync::Arc<WriteFn>),
    /// `first: second`, both known up front (behind a pointer, which
    /// keeps a diagnostic small: results carry one).
    Joined(std::sync::Arc<[&'static str; 2]>),
}

type WriteFn =
    dyn Fn() -> String + Send + Sync + std::panic::RefUnwindSafe + std::panic::UnwindSafe;

impl Message {
    /// The message `write` makes, made when it is first read.
    pub fn later(
        write: impl Fn() -> String
            + Send
            + Sync
            + std::panic::RefUnwindSafe
            + std::panic::UnwindSafe
            + 'static,
    ) -> Message {
        Message {
            text: std::sync::OnceLock::new(),
            write: Some(Write::Later(std::sync::Arc::new(write))),
        }
    }
    /// The message `first: second`, written when it is first read.
    pub fn joined(first: &'static str, second: &'static str) -> Message {
        Message {
            text: std::sync::OnceLock::new(),
            write: Some(Write::Joined(std::sync::Arc::new([first, second]))),
        }
    }
    pub fn as_str(&self) -> &str {
        self.text.get_or_init(|| {
            match &self.write {
                Some(Write::Later(write)) => cut(write()),
                Some(Write::Joined(parts)) => cut(format!("{}: {}", parts[0], parts[1])),
                // Not made: a message without text has a way to write it.
                None => String::new(),
            }
            .into_boxed_str()
        })
    }
    /// Does the message begin with `prefix`? Answered without writing a
    /// [`Message::joined`] one.
    pub fn begins_with(&self, prefix: &str) -> bool {
        match (self.text.get(), &self.write) {
            (None, Some(Write::Joined(parts))) => {
                let [a, b] = **parts;
                // `a: b`, a part at a time.
                let Some(rest) = prefix.strip_prefix(a) else {
                    return a.starts_with(prefix);
                };
                match rest.strip_prefix(": ") {
                    Some(rest) => b.starts_with(rest),
                    None => ": ".starts_with(rest),
                }
            }
            _ => self.as_str().starts_with(prefix),
        }
    }
}

/// `text`, or [`shown`] when it is over [`MAX_MESSAGE_CHARS`].
fn cut(text: String) -> String {
    if text.len() > MAX_MESSAGE_CHARS {
        shown(&text, MAX_MESSAGE_CHARS)
    } else {
        text
    }
}

impl From<String> for Message {
    fn from(text: String) -> Message {
        Message {
            text: std::sync::OnceLock::from(cut(text).into_boxed_str()),
            write: None,
        }
    }
}

impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Message::from(text.to_string())
    }
}

impl From<Message> for String {
    fn from(m: Message) -> String {
        m.as_str();
        m.text.into_inner().expect("written by `as_str`").into()
    }
}

impl std::ops::Deref for Message {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Message {
    fn eq(&self, other: &Message) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Message {}

impl PartialEq<str> for Message {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Message {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
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
        message: impl Into<Message>,
    ) -> Diag {
        Diag {
            outcome,
            construct: construct.into(),
            reason,
            message: message.into(),
        }
    }
    pub fn malformed(c: impl Into<String>, r: &'static str, m: impl Into<Message>) -> Diag {
        Diag::new(Outcome::Malformed, c, r, m)
    }
    pub fn ill(c: impl Into<String>, r: &'static str, m: impl Into<Message>) -> Diag {
        Diag::new(Outcome::IllFormed, c, r, m)
    }
    pub fn eval(c: impl Into<String>, r: &'static str, m: impl Into<Message>) -> Diag {
        Diag::new(Outcome::EvalError, c, r, m)
    }
    pub fn unsupported(c: impl Into<String>, r: &'static str, m: impl Into<Message>) -> Diag {
        Diag::new(Outcome::Unsupported, c, r, m)
    }
    /// The same diagnostic with `where_: ` put before its message (a line, an
    /// op index, the lifetime it came from); construct and reason unchanged.
    pub fn at_place(mut self, where_: impl fmt::Display) -> Diag {
        self.message = shown(&format!("{where_}: {}", self.message), MAX_MESSAGE_CHARS).into();
        self
    }
    /// The stable prefix `Construct: reason-code` that tests match on.
    pub fn prefix(&self) -> String {
        format!("{}: {}", self.construct, self.reason)
    }
    /// Does this diagnostic match an expected prefix such as
    /// `DIOpAdd: type-mismatch` (or just `DIOpAdd`)?
    pub fn matches(&self, expected: &str) -> bool {
        // `Construct: reason:` matched piece by piece, without writing it.
        let expected = expected.trim();
        let Some(rest) = expected.strip_prefix(self.construct.as_str()) else {
            return false;
        };
        let Some(rest) = rest.strip_prefix(':') else {
            return rest.is_empty();
        };
        let Some(rest) = rest.strip_prefix(' ') else {
            return rest.is_empty();
        };
        matches!(rest.strip_prefix(self.reason), Some("" | ":"))
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
        assert!(d.matches("DIOpAdd:"));
        assert!(d.matches("  DIOpAdd: type-mismatch:  "));
        assert!(!d.matches("DIOpAdd:type-mismatch"));
        assert!(!d.matches("DIOpAdd: type-mismatch: i32"));
        assert!(!d.matches("DIOpAdd: type-mismatchx"));
        assert!(!d.matches(""));
        assert_eq!(d.to_string(), "DIOpAdd: type-mismatch: i32 vs i64");
    }

    /// A message written later is written once, when first read, and then
    /// reads as a message given as text does (cut alike); a joined one
    /// answers `begins_with` from its first part without being written.
    #[test]
    fn messages_are_written_when_first_read() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        let writes = Arc::new(AtomicUsize::new(0));
        let w = Arc::clone(&writes);
        let d = Diag::eval(
            "DIOpRead",
            "undefined-bits",
            Message::later(move || {
                w.fetch_add(1, Ordering::SeqCst);
                format!("{} bits", 8)
            }),
        );
        let copy = d.clone();
        assert_eq!(writes.load(Ordering::SeqCst), 0);
        assert_eq!(d.to_string(), "DIOpRead: undefined-bits: 8 bits");
        assert_eq!(d, Diag::eval("DIOpRead", "undefined-bits", "8 bits"));
        assert_eq!(writes.load(Ordering::SeqCst), 1);
        assert_eq!(copy.message, "8 bits");
        assert_eq!(String::from(copy.message), "8 bits");
        assert_eq!(
            writes.load(Ordering::SeqCst),
            2,
            "a copy made before it was written writes its own"
        );
        let long = Message::later(|| "z".repeat(1 << 16));
        assert_eq!(
            long.as_str(),
            shown(&"z".repeat(1 << 16), MAX_MESSAGE_CHARS)
        );
        let j = Message::joined("lane", "no lane op");
        let text = "lane: no lane op";
        let prefixes = [
            "", "la", "lane", "lane:", "lane: ", "lane: no", text, "lane:x", "lane: nx",
        ];
        let longer = format!("{text}!");
        let more = [longer.as_str(), "lanes", "multi-location-input", "x"];
        for p in prefixes.iter().chain(&more) {
            assert_eq!(j.begins_with(p), text.starts_with(p), "{p:?}");
        }
        assert!(j.text.get().is_none(), "answered from the parts");
        assert_eq!(j, text);
        assert!(
            j.begins_with("lane: no") && !j.begins_with("lane:x"),
            "and once written"
        );
        assert_eq!(format!("{j:?}"), "\"lane: no lane op\"");
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
