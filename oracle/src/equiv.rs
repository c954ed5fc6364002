//! The equivalence prover (`dioptra equiv`, the `equiv` protocol command,
//! `assert_equiv` cases). It lives beside the SMT encoding in
//! `dioptra_semantics::smt::equiv`, so that the property tests can use it.

pub use dioptra_semantics::smt::equiv::*;
