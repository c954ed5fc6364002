//! Every DWARF expression the lowering writes passes the static check of
//! `dioptra_semantics::dwarf::check`: for every expression of the corpus in
//! its context, on both targets (AMD's by the extensions' rules, plain DWARF
//! 5 by DWARF 5's). A lowering that left a location where a
//! value is needed, popped an empty stack, mixed base types or followed a
//! register location with an operation (plain DWARF 5) fails here without
//! a context that happens to show it.

use dioptra_oracle::lower::{lower, Target};
use dioptra_oracle::script::expressions_in_contexts;
use dioptra_semantics::dwarf::check::{check, Checked, Model};
use dioptra_semantics::dwarf::Encoding;
use std::path::Path;

#[test]
fn every_lowering_of_the_corpus_passes_the_static_check() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let cases = expressions_in_contexts(&corpus).unwrap();
    let enc = Encoding::default();
    let mut checked = [0usize; 2];
    let mut failures = Vec::new();
    for c in &cases {
        for (k, target) in [Target::Amdgpu, Target::Dwarf5].into_iter().enumerate() {
            let Ok(l) = lower(&c.expr, &c.context, target) else {
                continue;
            };
            let model = match target {
                Target::Amdgpu => Model::Extensions,
                Target::Dwarf5 => Model::Dwarf5,
            };
            match check(&l.listing.ops, &l.listing.unit, enc, model) {
                Ok(Checked::Complete) => checked[k] += 1,
                Ok(Checked::StoppedAtCall) => {}
                Err(d) => failures.push(format!(
                    "{}:{} {target:?}: {d}\n  {}",
                    c.case.file,
                    c.case.line,
                    l.listing.print(enc)
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Most of the corpus lowers on each target.
    assert!(checked[0] > 300 && checked[1] > 200, "checked {checked:?}");
}
