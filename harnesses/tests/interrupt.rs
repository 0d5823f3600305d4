//! SIGINT and SIGTERM stop a command-line run cleanly (as libFuzzer does): its statistics
//! and JSON summary printed, exit status 128 + the signal, no flight record left, and the
//! next run is no false failure.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tapefuzz-interrupt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn flight_records(corpora: &Path) -> usize {
    std::fs::read_dir(corpora.join(".inflight"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".flight"))
                .count()
        })
        .unwrap_or(0)
}

/// Starts a long healthy run, sends `signal` once its first progress line is out, and
/// checks how it ended.
fn stopped_by(signal: &str, status: i32) {
    let d = temp_dir(signal);
    let mut child = Command::new(env!("CARGO_BIN_EXE_harnesses"))
        .args(["run", "bst_valid", "--tests", "1000000000", "--seed", "1"])
        .env("TAPEFUZZ_CORPORA", &d)
        .env_remove("TAPEFUZZ_TESTS")
        .env_remove("TAPEFUZZ_SECONDS")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    // A progress line (once a second) says the generate phase is running.
    loop {
        let mut line = String::new();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the run ended before its first progress line: {seen}"
        );
        seen.push_str(&line);
        if line.contains(" tests (") {
            break;
        }
    }
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    stderr.read_to_string(&mut seen).unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let ended = child.wait().unwrap();
    assert_eq!(ended.code(), Some(status), "{seen}");
    assert!(
        seen.contains(&format!("stopped early by SIG{signal}")),
        "{seen}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(stdout.lines().last().expect("a summary")).unwrap();
    assert_eq!(summary["failures"], 0);
    assert!(summary["tests"].as_u64().unwrap() > 0, "{summary}");
    assert_eq!(
        flight_records(&d),
        0,
        "a clean stop leaves no flight record"
    );

    let next = Command::new(env!("CARGO_BIN_EXE_harnesses"))
        .args(["run", "bst_valid", "--tests", "0"])
        .env("TAPEFUZZ_CORPORA", &d)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&next.stderr);
    assert_eq!(next.status.code(), Some(0), "{err}");
    assert!(!err.contains("earlier run"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn sigint_stops_a_run_cleanly() {
    stopped_by("INT", 130);
}

#[test]
fn sigterm_stops_a_run_cleanly() {
    stopped_by("TERM", 143);
}
