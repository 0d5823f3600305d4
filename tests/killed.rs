//! A healthy run killed from outside (SIGKILL, SIGTERM: a CI timeout, the OOM killer) leaves
//! its test case in flight on disk. The next run replays it in a process of its own; it
//! passes there, so the run was stopped, not crashed: no failure, nothing saved, the record
//! gone.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tapefuzz::prelude::*;

/// A property that holds, 1 ms per test case; runs only when the test below spawns it
/// (`KILLED_TEST_MODE`: `long` runs until killed — its 50th test case marks `KILLED_TEST_MARK`
/// and sleeps, so the kill lands inside a test case, never between two —, `short` runs 10
/// test cases).
#[test]
fn healthy_property() {
    let Some(mode) = std::env::var_os("KILLED_TEST_MODE") else {
        return;
    };
    let long = mode == "long";
    let mark = std::env::var_os("KILLED_TEST_MARK");
    let calls = std::sync::atomic::AtomicU64::new(0);
    Property::new("healthy")
        .tests(if long { 1_000_000_000 } else { 10 })
        .check(vecs(ints::<u8>(..), 0..=5), |v: Vec<u8>| {
            std::thread::sleep(Duration::from_millis(1));
            if long && calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 49 {
                std::fs::write(mark.as_ref().expect("a mark file"), b"").unwrap();
                std::thread::sleep(Duration::from_secs(600));
            }
            std::hint::black_box(v);
        });
}

fn spawn(dir: &Path, mode: &str) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["healthy_property", "--exact", "--nocapture"])
        .env("KILLED_TEST_MODE", mode)
        .env("KILLED_TEST_MARK", dir.with_extension("mark"))
        .env("TAPEFUZZ_CORPORA", dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn flight_records(dir: &Path) -> usize {
    std::fs::read_dir(dir.join(".inflight")).map_or(0, |r| {
        r.flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "flight"))
            .count()
    })
}

fn files_under(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |r| r.flatten().count())
}

#[test]
fn a_run_killed_from_outside_is_not_a_failure_next_time() {
    for signal in ["KILL", "TERM"] {
        let dir =
            std::env::temp_dir().join(format!("tapefuzz-killed-{}-{signal}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mark = dir.with_extension("mark");
        let _ = std::fs::remove_file(&mark);
        // 1. A long healthy run, killed inside a test case (its record is on disk).
        let mut long = spawn(&dir, "long");
        let started = Instant::now();
        while !mark.exists() && started.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(flight_records(&dir), 1, "the run's record is on disk");
        let status = Command::new("kill")
            .args([format!("-{signal}"), long.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        assert!(!long.wait().unwrap().success(), "killed by SIG{signal}");
        assert_eq!(flight_records(&dir), 1, "the test case in flight is left");
        // 2. The next run passes, says why, saves nothing and removes the record.
        let next = spawn(&dir, "short").wait_with_output().unwrap();
        let out = String::from_utf8_lossy(&next.stdout).to_string()
            + &String::from_utf8_lossy(&next.stderr);
        assert!(next.status.success(), "SIG{signal}: {out}");
        assert!(out.contains("an earlier run was stopped"), "{out}");
        assert_eq!(flight_records(&dir), 0, "{out}");
        assert_eq!(
            files_under(&dir.join("healthy").join("regressions")),
            0,
            "nothing saved: {out}"
        );
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&mark);
    }
}
