//! The canonicalizer (`dioptra canon`). It lives in
//! `dioptra_semantics::canon`, beside the semantics it rewrites, so that the
//! property tests can use it; its rules are proven by `dioptra rule
//! corpus/rules/canon.rules`.

pub use dioptra_semantics::canon::*;
