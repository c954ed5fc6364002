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

/// Random bytes, and random splices of the seeds, never make a target panic
/// (a cheap stand-in for the coverage-guided fuzzers on a stable toolchain).
#[test]
fn random_inputs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (name, target) in TARGETS {
        let seeds: Vec<Vec<u8>> = std::fs::read_dir(root.join(name))
            .unwrap()
            .flatten()
            .map(|e| std::fs::read(e.path()).unwrap())
            .collect();
        for _ in 0..3000 {
            let mut data = seeds[(next() % seeds.len() as u64) as usize].clone();
            // Flip, insert or cut a few bytes.
            for _ in 0..1 + next() % 4 {
                let n = data.len().max(1);
                let at = (next() as usize) % n;
                match next() % 3 {
                    0 if !data.is_empty() => data[at] ^= 1 << (next() % 8),
                    1 => data.insert(at.min(data.len()), next() as u8),
                    _ => data.truncate(at),
                }
            }
            let r = std::panic::catch_unwind(|| target(&data));
            assert!(r.is_ok(), "{name} panicked on {data:x?}");
        }
    }
}
