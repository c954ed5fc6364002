//! The conformance corpus through a real gdb (issue 9): every corpus case
//! that lowers to plain DWARF 5 in its context, every hand-written DWARF of
//! `assert_dwarf_equiv` and every module with a context is read by gdb, byte
//! by byte, and must match the reference or be a listed gdb limitation.
//! Needs gdb (`.ci/run` installs it); a missing gdb fails.

use dioptra_oracle::gdb::corpus_cases;
use dioptra_properties::gdb::{check, machine::mmap_min_addr};
use std::path::PathBuf;

#[test]
fn gdb_reads_every_lowerable_corpus_case_as_dioptra_does() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let c = corpus_cases(&[corpus], mmap_min_addr()).unwrap();
    let dir = std::env::temp_dir().join(format!("dioptra-gdb-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let r = check(&c.cases, &dir, false).unwrap_or_else(|e| panic!("NOT CHECKED: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let mut text = String::new();
    for f in r.law.iter().chain(&r.differ) {
        text += &format!("\n{}: {}\n{}\n{}\n", f.label, f.what, f.listing, f.context);
    }
    assert!(r.holds(), "{}{text}", r.summary());
    // Not vacuous: the corpus's plain DWARF 5 reaches gdb, with location
    // lists among it, and most readings agree outright.
    assert!(r.readings >= 300, "{}", r.summary());
    assert!(r.agree * 10 >= r.readings * 8, "{}", r.summary());
    assert!(
        c.cases.iter().any(|c| c.points.len() > 1),
        "no module reached gdb"
    );
    // Every known limitation met is documented in the README, and each gdb
    // bug has its errata entry.
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let errata = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/errata/README.md"),
    )
    .unwrap();
    for k in r.known.keys() {
        assert!(
            readme.contains(k),
            "README does not list the gdb limitation `{k}`"
        );
        if let Some(id) = k.split_whitespace().find(|w| w.starts_with("E-gdb-")) {
            let id = id.trim_end_matches(':');
            assert!(
                errata.contains(&format!("| {id} |")),
                "no errata entry {id}"
            );
        }
    }
}
