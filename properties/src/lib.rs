//! # dioptra-properties
//!
//! The laws of dioptra as property tests, one file per law family under
//! `tests/`. Each `prop_*` states its law in its first doc line. The case
//! count is proptest's (`PROPTEST_CASES`, bounded in CI).
