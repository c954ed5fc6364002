//! The agreement law on the corpus: for every expression of the corpus that
//! is evaluated in a context, the model of its SMT formula over that context
//! says what the interpreter says (issue: "on every expression in the
//! corpus"). Unsupported cases are counted and reported, never passed.

use dioptra_oracle::script::{parse_script, script_files, Env};
use dioptra_properties::agreement::{agreement, Agreement};
use dioptra_semantics::text::parse_expr;
use std::path::Path;

#[test]
fn the_encoding_agrees_with_the_interpreter_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let files = script_files(&root);
    let (mut agree, mut unsupported, mut disagree) = (0, Vec::new(), Vec::new());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let script = parse_script(&f.display().to_string(), &text).unwrap();
        for case in script.cases {
            let Env::Ctx(ctx) = &case.env else { continue };
            if case.expect.is_module() {
                continue;
            }
            let Ok(expr) = parse_expr(&case.expr) else {
                continue;
            };
            match agreement(&expr, ctx, 10_000) {
                Agreement::Agree => agree += 1,
                Agreement::Unsupported(d) => {
                    unsupported.push(format!("{}:{}: {d}", case.file, case.line))
                }
                Agreement::Disagree(why) => {
                    disagree.push(format!("{}:{}: {}: {why}", case.file, case.line, case.expr))
                }
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
