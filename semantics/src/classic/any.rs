//! Either kind of expression, told apart by its text (D-classic-spelling),
//! so that every command taking a DIOp expression takes a classic one.

use super::eval::eval_classic;
use super::translate::translate;
use super::wellformed::check_classic;
use super::{is_classic, parse_classic, ClassicExpr, High, Intrinsic, Params};
use crate::context::{ConcreteContext, Signature};
use crate::diag::Diag;
use crate::eval::{eval, Evaluated};
use crate::syntax::Expr;
use crate::text::{parse_expr, parse_type};
use crate::types::Type;
use crate::wellformed::check;

/// A DIOp or a classic expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyExpr {
    Diop(Expr),
    Classic(ClassicExpr),
}

/// Parses either spelling.
pub fn parse_any(text: &str) -> Result<AnyExpr, Diag> {
    if is_classic(text) {
        parse_classic(text).map(AnyExpr::Classic)
    } else {
        parse_expr(text).map(AnyExpr::Diop)
    }
}

impl Params {
    /// The parameters from their words (`value`/`declare`,
    /// `zero`/`sign`/`any`, an LLVM type), each optional.
    pub fn from_words(
        intrinsic: Option<&str>,
        high: Option<&str>,
        variable: Option<&str>,
    ) -> Result<Params, Diag> {
        let bad = |what: &str, v: &str, allowed: &str| {
            Diag::malformed(
                "Classic",
                "bad-parameter",
                format!("{what} `{v}`: {allowed}"),
            )
        };
        Ok(Params {
            intrinsic: match intrinsic {
                None => Intrinsic::Value,
                Some(w) => Intrinsic::parse(w)
                    .ok_or_else(|| bad("intrinsic", w, "value, declare, addr or global"))?,
            },
            high: match high {
                None => High::Zero,
                Some(w) => High::parse(w).ok_or_else(|| bad("high", w, "zero, sign or any"))?,
            },
            variable: variable.map(parse_type).transpose()?,
        })
    }
}

impl AnyExpr {
    /// The result type and fragment.
    pub fn check(&self, sig: &Signature, p: &Params) -> Result<(Type, Option<(u64, u64)>), Diag> {
        match self {
            AnyExpr::Diop(e) => check(e, sig).map(|c| (c.result, c.fragment)),
            AnyExpr::Classic(e) => check_classic(e, sig, p).map(|c| (c.result, c.fragment)),
        }
    }
    pub fn eval(&self, ctx: &ConcreteContext, p: &Params) -> Result<Evaluated, Diag> {
        match self {
            AnyExpr::Diop(e) => eval(e, ctx),
            AnyExpr::Classic(e) => eval_classic(e, ctx, p),
        }
    }
    /// The DIOp expression: itself, or the translation.
    pub fn to_diop(&self, sig: &Signature, p: &Params) -> Result<Expr, Diag> {
        match self {
            AnyExpr::Diop(e) => Ok(e.clone()),
            AnyExpr::Classic(e) => translate(e, sig, p),
        }
    }
}
