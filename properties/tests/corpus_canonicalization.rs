//! The canonicalization law on the corpus: every corpus expression
//! evaluated in a context has a canonical form that gives the same type
//! and location there (or fails where it fails).

use dioptra_oracle::canon::canonicalize;
use dioptra_oracle::script::expressions_in_contexts;
use dioptra_semantics::eval::eval;
use dioptra_semantics::location::same_location;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Canonicalization preserves the location of every corpus expression that
/// is evaluated in a context.
#[test]
fn canonicalization_preserves_corpus_locations() {
    let cases = expressions_in_contexts(&root().join("corpus")).unwrap();
    let (mut compared, mut rewritten) = (0, 0);
    for c in &cases {
        let (case, e, ctx) = (&c.case, &c.expr, &c.context);
        let sig = dioptra_semantics::context::Context::signature(ctx);
        let Ok((c, steps)) = canonicalize(e, &sig) else {
            continue;
        };
        compared += 1;
        rewritten += !steps.is_empty() as usize;
        let ok = match (eval(e, ctx), eval(&c, ctx)) {
            (Ok(a), Ok(b)) => {
                a.ty.same(&b.ty) && same_location(&a.loc, &b.loc, ctx.layout.bitsizeof(&a.ty))
            }
            (Err(_), Err(_)) => true,
            _ => false,
        };
        assert!(
            ok,
            "{}:{}: {e} and its canonical form {c} differ",
            case.file, case.line
        );
    }
    eprintln!("{compared} corpus expressions canonicalized, {rewritten} rewritten");
    assert!(
        compared >= 250 && rewritten >= 20,
        "{compared} compared, {rewritten} rewritten"
    );
}
