//! Replays the fuzz targets' seed corpus (fuzz/corpus/TARGET/*) on stable:
//! no input may panic.

use dioptra_oracle::fuzzing::TARGETS;
use std::path::Path;

#[test]
fn seed_corpus_replays_without_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let mut replayed = 0;
    for (name, target) in TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no seeds for {name}");
        for f in files {
            let data = std::fs::read(&f).unwrap();
            let r = std::panic::catch_unwind(|| target(&data));
            assert!(r.is_ok(), "{name} panicked on {}", f.display());
            replayed += 1;
        }
    }
    assert!(replayed > 100, "replayed only {replayed} seeds");
}
