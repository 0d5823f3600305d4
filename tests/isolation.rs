//! A property that kills its process, under libtest: the input is on disk before the process
//! dies, and the next run replays it first — in a process of its own, through libtest's
//! filter — shrinks it and reports it with its value.

use std::process::Command;
use tapefuzz::prelude::*;

/// Aborts the process on a number of 100 or more, when the test that spawned us asks.
#[test]
fn crashing_property() {
    let crash = std::env::var_os("ISOLATION_TEST_CRASH").is_some();
    let p = Property::new("crashing").tests(2_000).seed(3);
    // Run on its own (not spawned by the test below) it keeps nothing.
    let p = if crash { p } else { p.no_corpus() };
    p.check(vecs(ints::<u8>(..), 0..=5), move |v: Vec<u8>| {
        if crash && v.iter().any(|&x| x >= 100) {
            std::process::abort();
        }
    });
}

#[test]
fn a_crash_is_replayed_first_shrunk_and_reported_by_the_next_run() {
    let dir = std::env::temp_dir().join(format!("tapefuzz-isolation-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = || {
        Command::new(std::env::current_exe().unwrap())
            .args(["crashing_property", "--exact", "--nocapture"])
            .env("ISOLATION_TEST_CRASH", "1")
            .env("TAPEFUZZ_CORPORA", &dir)
            .output()
            .unwrap()
    };
    // 1. The run dies: nothing saved but the test case in flight.
    let first = run();
    assert!(!first.status.success());
    let inflight = dir.join(".inflight");
    let records: Vec<_> = std::fs::read_dir(&inflight)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "flight"))
        .collect();
    assert_eq!(records.len(), 1, "the test case in flight is on disk");
    // 2. The next run fails on it first, shrunk in processes of their own, with the value.
    let second = run();
    let err = String::from_utf8_lossy(&second.stdout).to_string()
        + &String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success());
    assert!(err.contains("failed on saved tape"), "{err}");
    assert!(err.contains("minimal failing value: [100]"), "{err}");
    assert!(
        err.contains("crashed: killed by signal 6 (SIGABRT)"),
        "{err}"
    );
    // It is a regression now (replayed in a process of its own), not a flight record.
    let saved = std::fs::read_dir(dir.join("crashing").join("regressions"))
        .unwrap()
        .count();
    assert_eq!(saved, 1);
    let third = run();
    let err = String::from_utf8_lossy(&third.stdout).to_string()
        + &String::from_utf8_lossy(&third.stderr);
    assert!(err.contains("regressions"), "{err}");
    assert!(err.contains("minimal failing value: [100]"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
