//! # dioptra-semantics
//!
//! The executable reference semantics of LLVM debug-information location
//! expressions as defined by "AMDGPU LLVM Extensions for Heterogeneous
//! Debugging": the DIOp expression language, its location model, static
//! well-formedness and evaluation. Nothing else in dioptra defines meaning.
//!
//! ```
//! use dioptra_semantics::{text::parse_expr, context::ConcreteContext, eval::eval};
//!
//! let ctx = ConcreteContext::parse(r#"(context
//!     (register 3 "05 00 00 00")
//!     (referrer "i32" "reg(3)"))"#).unwrap();
//! let e = parse_expr("!DIExpr(DIOpReferrer(i32), DIOpConstant(i32 2), DIOpMul())").unwrap();
//! let r = eval(&e, &ctx).unwrap();
//! assert_eq!(r.loc.to_string(), "imp(32, 0x0000000a)");
//! ```
//!
//! Modules, in the order the spec builds them up:
//!
//! * [`types`]: LLVM types, `bitsizeof`, the data layout;
//! * [`syntax`]: the `Op` enum (every DIOp) and expressions;
//! * [`text`]: parsers and printers for both spellings, locations, s-expressions;
//! * [`location`]: location storages, single location descriptions, `read`;
//! * [`context`]: what evaluation may ask for, and a concrete context;
//! * [`wellformed`]: static stack typing, one `check_<op>` per op;
//! * [`eval`]: evaluation, one `eval_<op>` per op;
//! * [`narrow`]: a typed interpreter for expressions of narrow types, one
//!   `narrow_<op>` per op, which `eval` asks first and which answers only
//!   what the reference would;
//! * [`lifetime`]: module listings, lifetime segments, the location of an
//!   object at a program point;
//! * [`value`], [`bits`]: the arithmetic underneath;
//! * [`classic`]: the classic `DW_OP` DIExpression upstream LLVM uses,
//!   and its translation to DIOp;
//! * [`smt`] (feature `smt`, links z3): one `encode_<op>` per op, the
//!   symbolic world, the solver and its queries;
//! * [`dwarf`] (feature `dwarf`, on gimli's constants): DWARF expression
//!   operations as bytes and as text, and the DWARF evaluator;
//! * [`diag`], [`limits`]: diagnostics and the bounds on input.
//!
//! Only meaning lives here. The tools built on it -- canonicalizer,
//! equivalence prover, lowering to DWARF, rule checker, corpus runner,
//! differential harnesses -- are `dioptra-oracle`; the laws they satisfy
//! are `dioptra-properties`. Both features are on by default;
//! `--no-default-features` builds the interpreter without z3 and gimli.

#[cfg(any(feature = "arbitrary", feature = "quickcheck"))]
pub mod arb;
pub mod bits;
pub mod classic;
pub mod context;
pub mod diag;
#[cfg(feature = "dwarf")]
pub mod dwarf;
pub mod eval;
pub mod float;
pub mod lifetime;
pub mod limits;
pub mod location;
pub mod narrow;
#[cfg(feature = "smt")]
pub mod smt;
pub mod syntax;
pub mod text;
pub mod types;
pub mod value;
pub mod wellformed;

pub use diag::{Diag, Outcome};
