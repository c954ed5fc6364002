//! An external implementation under `run --impl` cannot exhaust or outlive
//! the runner (issue 24, item 3): its answer lines are bounded, its process
//! group is killed when the runner is done, and a failure quotes only a
//! little of what it said.

use dioptra_oracle::script::protocol::Request;
use dioptra_oracle::script::{External, Responder};
use std::time::Duration;

fn request(id: u64) -> Request {
    Request {
        id,
        command: "check".into(),
        expr: "DIOpReferrer(i32)".into(),
        object: None,
        at: None,
        block_local: false,
        signature: None,
        context: None,
        target: None,
        classic: None,
    }
}

/// An endless answer line is cut at the bound and ends the implementation,
/// instead of being buffered.
#[test]
fn an_endless_answer_line_is_not_buffered() {
    let mut ext =
        External::start_with("yes x | tr -d '\\n'", Duration::from_secs(20), 1 << 20).unwrap();
    let e = ext.respond(&request(1)).unwrap_err();
    assert!(
        e.starts_with("Impl: read-failed:") && e.contains("longer than 1048576 bytes"),
        "{e}"
    );
    assert!(ext
        .respond(&request(2))
        .unwrap_err()
        .starts_with("Impl: dead:"));
}

/// A long answer that is not a response is quoted in a few hundred bytes.
#[test]
fn a_huge_bad_answer_is_quoted_short() {
    let cmd = "read -r l; head -c 2000000 /dev/zero | tr '\\0' 'a'; echo";
    let mut ext = External::start(cmd, Duration::from_secs(20)).unwrap();
    let e = ext.respond(&request(1)).unwrap_err();
    assert!(
        e.starts_with("Impl: bad-response:"),
        "{}",
        &e[..e.len().min(200)]
    );
    assert!(
        e.len() < 1_000 && e.contains("2000000 bytes in all"),
        "{}",
        e.len()
    );
}

/// A hung implementation's children die with it.
#[test]
fn a_hung_implementation_leaves_no_children() {
    let pidfile = std::env::temp_dir().join(format!("dioptra-ext-{}.pid", std::process::id()));
    let cmd = format!(
        "sleep 300 & echo $! > {}; while read -r l; do :; done",
        pidfile.display()
    );
    let mut ext = External::start(&cmd, Duration::from_millis(500)).unwrap();
    let e = ext.respond(&request(1)).unwrap_err();
    assert!(e.starts_with("Impl: timeout:"), "{e}");
    let pid = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .to_string();
    let alive = |pid: &str| {
        std::process::Command::new("kill")
            .args(["-0", pid])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
            .success()
    };
    // Killed at the timeout, not only when the runner is done with it:
    // the group was sent SIGKILL; give the kernel a moment to reap it.
    let gone = (0..50).any(|_| {
        std::thread::sleep(Duration::from_millis(20));
        !alive(&pid) || zombie(&pid)
    });
    let _ = std::fs::remove_file(&pidfile);
    assert!(
        gone,
        "the implementation's child {pid} outlived its timeout"
    );
    assert!(ext
        .respond(&request(2))
        .unwrap_err()
        .starts_with("Impl: dead:"));
}

/// A killed child whose parent has not reaped it yet is a zombie: dead.
fn zombie(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.split_whitespace().nth(2) == Some("Z"))
        .unwrap_or(true)
}
