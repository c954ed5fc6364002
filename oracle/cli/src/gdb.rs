//! `dioptra gdb`: the corpus (and generated cases) through a real gdb.

use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// `dioptra gdb`: the corpus (and generated cases) through a real gdb.
pub fn cmd_gdb(
    paths: &[PathBuf],
    generated: u32,
    seed: u64,
    keep: Option<PathBuf>,
    lldb: bool,
    json: bool,
) -> ExitCode {
    use dioptra_oracle::diff::gdb::{check, machine::mmap_min_addr};
    use dioptra_properties::gdb::generated_cases;
    if paths.is_empty() && generated == 0 {
        errln!("Gdb: usage: name script paths, or --generated N");
        return ExitCode::from(2);
    }
    let min_addr = mmap_min_addr();
    let mut collected = match dioptra_oracle::diff::gdb::corpus::corpus_cases(paths, min_addr) {
        Ok(c) => c,
        Err(e) => {
            errln!("{e}");
            return ExitCode::from(2);
        }
    };
    if generated > 0 {
        let (cases, skipped) = generated_cases(generated, seed, min_addr);
        collected.cases.extend(cases);
        for (k, n) in skipped {
            collected
                .skipped
                .entry(k)
                .or_insert((0, "generated".into()))
                .0 += n;
        }
    }
    let kept = keep.is_some();
    let dir = keep.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("dioptra-gdb-{}", std::process::id()))
    });
    if let Err(e) = std::fs::create_dir_all(&dir) {
        errln!("Gdb: unwritable: {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let result = check(&collected.cases, &dir, lldb);
    if !kept {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            outln!("gdb: NOT CHECKED: {e}");
            return ExitCode::from(3);
        }
    };
    if json {
        let skipped: serde_json::Map<String, serde_json::Value> = collected
            .skipped
            .iter()
            .map(|(k, (n, first))| (k.to_string(), json!({"count": n, "first": first})))
            .collect();
        let findings = |f: &[dioptra_oracle::diff::gdb::Finding]| {
            f.iter()
                .map(|f| json!({"case": f.label, "what": f.what, "source": f.source, "dwarf": f.listing, "context": f.context}))
                .collect::<Vec<_>>()
        };
        outln!(
            "{}",
            json!({
                "outcome": if report.holds() { "agree" } else { "differ" },
                "gdb": report.gdb, "cases": report.cases, "readings": report.readings,
                "agree": report.agree, "both_fail": report.both_fail,
                "known": report.known, "differ": findings(&report.differ),
                "law": findings(&report.law), "skipped": skipped,
                "lldb": match &report.lldb {
                    None => serde_json::Value::Null,
                    Some(Err(e)) => json!({"not_checked": e}),
                    Some(Ok(o)) => json!({
                        "version": o.version, "readings": o.readings, "agree": o.agree,
                        "both_fail": o.both_fail, "known": o.known,
                        "differ": findings(&o.differ), "left_out": o.left_out,
                    }),
                },
                "seconds": report.elapsed.as_secs_f64(), "readings_per_second": report.rate(),
            })
        );
    } else {
        outln!("gdb: {}", report.summary());
        for (k, (n, first)) in &collected.skipped {
            outln!("  left out: {n} {k} (first: {first})");
        }
        match &report.lldb {
            Some(Ok(o)) => outln!("lldb: {}", o.summary()),
            Some(Err(e)) => outln!("lldb: NOT CHECKED: {e}"),
            None => {}
        }
        let lldb_differ = match &report.lldb {
            Some(Ok(o)) => &o.differ[..],
            _ => &[],
        };
        for f in report.law.iter().chain(&report.differ).chain(lldb_differ) {
            outln!("\n{}: {}", f.label, f.what);
            if !f.source.is_empty() {
                outln!("{}", f.source);
            }
            outln!("{}\n{}", f.listing, f.context);
        }
    }
    if !report.holds() {
        ExitCode::from(1)
    } else if matches!(report.lldb, Some(Err(_))) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}
