//! The conformance corpus through a real gdb (issue 9): every corpus case
//! that lowers to plain DWARF 5 in its context, every hand-written DWARF of
//! `assert_dwarf_equiv` and every module with a context is read by gdb, byte
//! by byte, and must match the reference or be a listed gdb limitation.
//! Needs gdb (`.ci/run` installs it); a missing gdb fails.

use dioptra_oracle::diff::gdb::corpus::corpus_cases;
use dioptra_oracle::diff::gdb::{check, machine::mmap_min_addr};
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

/// lldb, the third opinion, on the corpus's basic subset (no bit pieces,
/// typed operations, `DW_OP_mod` or `DW_OP_div`): every reading agrees or
/// is a listed lldb limitation. Needs lldb and its Python package
/// (`.ci/run` installs them); a missing lldb fails.
#[test]
fn lldb_reads_the_basic_subset_of_the_corpus_as_dioptra_does() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let c = corpus_cases(&[root.join("corpus")], mmap_min_addr()).unwrap();
    let dir = std::env::temp_dir().join(format!("dioptra-lldb-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let r = check(&c.cases, &dir, true).unwrap_or_else(|e| panic!("NOT CHECKED: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let o = match r.lldb {
        Some(Ok(o)) => o,
        Some(Err(e)) => panic!("NOT CHECKED: {e}"),
        None => panic!("lldb was not asked"),
    };
    let mut text = String::new();
    for f in &o.differ {
        text += &format!("\n{}: {}\n{}\n{}\n", f.label, f.what, f.listing, f.context);
    }
    assert!(o.differ.is_empty(), "{}{text}", o.summary());
    // Not vacuous: lldb reads most of the corpus's plain DWARF 5, and much
    // of it agrees outright.
    assert!(o.readings >= 200 && o.agree >= 150, "{}", o.summary());
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for k in o.known.keys().chain(o.left_out.keys()) {
        assert!(
            readme.contains(k),
            "README does not list the lldb behaviour `{k}`"
        );
    }
    let errata = std::fs::read_to_string(root.join("corpus/errata/README.md")).unwrap();
    for k in o.left_out.keys() {
        if let Some(id) = k.split_whitespace().find(|w| w.starts_with("E-lldb-")) {
            let id = id.trim_end_matches(')');
            assert!(
                errata.contains(&format!("| {id} |")),
                "no errata entry {id}"
            );
        }
    }
}
