//! Classic expressions in the prover: a classic expression with its
//! parameters is a [`Side`], so it can be compared with a DIOp expression
//! or another classic one, and every translation can be proven.

use super::encode::encode_classic;
use super::eval::eval_classic;
use super::translate::translate;
use super::wellformed::check_classic;
use super::{ClassicExpr, Params};
use crate::context::{ConcreteContext, Signature};
use crate::diag::Diag;
use crate::eval::Evaluated;
use crate::smt::equiv::{prove_sides, Proved, Side};
use crate::smt::{Encoded, World};
use crate::syntax::Expr;
use crate::types::Type;

/// A classic expression with the parameters of its meaning.
#[derive(Clone, Debug)]
pub struct Classic {
    pub expr: ClassicExpr,
    pub params: Params,
}

impl Side for Classic {
    fn checked(&self, sig: &Signature) -> Result<(Type, Option<(u64, u64)>), Diag> {
        let c = check_classic(&self.expr, sig, &self.params)?;
        Ok((c.result, c.fragment))
    }
    fn encode(&self, world: &World) -> Result<Encoded, Diag> {
        encode_classic(&self.expr, world, &self.params)
    }
    fn eval(&self, ctx: &ConcreteContext) -> Result<Evaluated, Diag> {
        eval_classic(&self.expr, ctx, &self.params)
    }
}

/// Translates `e` to DIOp and proves the translation: the DIOp expression
/// and the verdict of classic against it (`Equivalent` when the
/// translation is right).
pub fn prove_translation(
    e: &ClassicExpr,
    sig: &Signature,
    p: &Params,
    timeout_ms: u32,
) -> Result<(Expr, Proved), Diag> {
    let d = translate(e, sig, p)?;
    let classic = Classic {
        expr: e.clone(),
        params: p.clone(),
    };
    let proved = prove_sides(&classic, &d, sig, timeout_ms)?;
    Ok((d, proved))
}
