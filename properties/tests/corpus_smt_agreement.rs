//! The agreement law on the corpus: for every expression of the corpus that
//! is evaluated in a context, the model of its SMT formula over that context
//! says what the interpreter says (issue: "on every expression in the
//! corpus"). Unsupported cases are counted and reported, never passed.

use dioptra_oracle::script::expressions_in_contexts;
use dioptra_properties::agreement::{agreement, Agreement};
use std::path::Path;

#[test]
fn the_encoding_agrees_with_the_interpreter_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let cases = expressions_in_contexts(&root).unwrap();
    let (mut agree, mut unsupported, mut disagree) = (0, Vec::new(), Vec::new());
    for c in &cases {
        let (case, expr, ctx) = (&c.case, &c.expr, &c.context);
        match agreement(expr, ctx, 10_000) {
            Agreement::Agree => agree += 1,
            Agreement::Unsupported(d) => {
                unsupported.push(format!("{}:{}: {d}", case.file, case.line))
            }
            Agreement::Disagree(why) => {
                disagree.push(format!("{}:{}: {}: {why}", case.file, case.line, case.expr))
            }
        }
    }
    eprintln!(
        "agreement on the corpus: {agree} agree, {} unsupported, {} disagree",
        unsupported.len(),
        disagree.len()
    );
    for u in &unsupported {
        eprintln!("  unsupported: {u}");
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    assert!(agree >= 250, "only {agree} corpus cases were compared");
}
