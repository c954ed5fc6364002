//! Classic expressions in the prover: a classic expression with its
//! parameters is a [`Side`], so it can be compared with a DIOp expression
//! or another classic one, and every translation can be proven.

use super::{prove_sides, Proved, Side};
use dioptra_semantics::classic::any::AnyExpr;
use dioptra_semantics::classic::encode::encode_classic;
use dioptra_semantics::classic::eval::eval_classic;
use dioptra_semantics::classic::translate::translate;
use dioptra_semantics::classic::wellformed::check_classic;
use dioptra_semantics::classic::{ClassicExpr, High, Params};
use dioptra_semantics::context::{ConcreteContext, Signature};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::eval::Evaluated;
use dioptra_semantics::smt::{Encoded, World};
use dioptra_semantics::syntax::Expr;
use dioptra_semantics::types::Type;
use dioptra_semantics::wellformed::check;

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

/// Proves `source` and `target` equivalent, either spelling on either
/// side. A classic side compared with a DIOp one is read as the DIOp
/// side's result type unless `p.variable` says otherwise.
pub fn prove_any(
    source: &AnyExpr,
    target: &AnyExpr,
    sig: &Signature,
    p: &Params,
    timeout_ms: u32,
) -> Result<Proved, Diag> {
    let classic = [source, target]
        .iter()
        .any(|e| matches!(e, AnyExpr::Classic(_)));
    if classic && p.high == High::Any {
        // A counterexample must be re-run by the interpreter, which needs the
        // upper bits known.
        return Err(Diag::unsupported(
            "Classic",
            "high-bits-any",
            "`equiv` takes `--high zero` or `sign`; `any` is for the rule checker",
        ));
    }
    let mut p = p.clone();
    if p.variable.is_none() {
        for e in [source, target] {
            if let AnyExpr::Diop(d) = e {
                if let Ok(c) = check(d, sig) {
                    if c.fragment.is_none() {
                        p.variable = Some(c.result);
                        break;
                    }
                }
            }
        }
    }
    let side = |e: &AnyExpr| -> Box<dyn Side + '_> {
        match e {
            AnyExpr::Diop(d) => Box::new(d.clone()),
            AnyExpr::Classic(c) => Box::new(Classic {
                expr: c.clone(),
                params: p.clone(),
            }),
        }
    };
    let (s, t) = (side(source), side(target));
    prove_sides(&*s, &*t, sig, timeout_ms)
}
