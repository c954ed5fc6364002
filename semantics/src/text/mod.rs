//! Text syntax: expressions, types and literals in LLVM's spellings, location
//! descriptions, and the s-expressions of context files and corpus scripts.
//!
//! Every parse error is a `malformed` diagnostic that says where: line,
//! column, and a caret under the place.

pub mod expr;
pub mod lex;
pub mod location;
pub mod sexpr;

pub use expr::{parse_expr, parse_type, parse_typed_literal};
pub use location::parse_location;
