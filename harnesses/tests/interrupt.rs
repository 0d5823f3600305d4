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

/// How the signal is sent.
#[derive(Clone, Copy, PartialEq)]
enum Send {
    /// Once, to the process.
    Once,
    /// To the process and then to its process group, as `timeout` does: it arrives twice.
    ProcessAndGroup,
}

/// How a signalled run ended.
struct Ended {
    /// Its stderr, whole.
    seen: String,
    stdout: String,
    code: Option<i32>,
}

/// Starts the harnesses CLI with `args` on the corpora folder `corpora` (in a process group of
/// its own, SIGINT at its default: a test runner started in the background passes SIGINT on
/// ignored), sends `signal` once its first progress line is out, and collects how it ended.
fn signalled(args: &[&std::ffi::OsStr], corpora: &Path, signal: &str, send: Send) -> Ended {
    let mut command = Command::new(env!("CARGO_BIN_EXE_harnesses"));
    command
        .args(args)
        .env("TAPEFUZZ_CORPORA", corpora)
        .env_remove("TAPEFUZZ_TESTS")
        .env_remove("TAPEFUZZ_SECONDS")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    // SAFETY: signal(2) only, between fork and exec.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
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
    let pid = child.id().to_string();
    let group = format!("-{pid}");
    let targets: &[&str] = match send {
        Send::Once => &[&pid],
        Send::ProcessAndGroup => &[&pid, &group],
    };
    for target in targets {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), "--", target])
            .status()
            .unwrap();
        assert!(sent.success());
    }
    stderr.read_to_string(&mut seen).unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let code = child.wait().unwrap().code();
    Ended { seen, stdout, code }
}

/// Starts a long healthy run of `args`, sends `signal` once its first progress line is
/// out, and checks how it ended: exit status `status`, its JSON summary last, no flight
/// record; and the next run passes with no note about an earlier run.
fn stopped_by(name: &str, args: &[&str], signal: &str, send: Send, status: i32) {
    let d = temp_dir(name);
    let os: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let Ended { seen, stdout, code } = signalled(&os, &d, signal, send);
    assert_eq!(code, Some(status), "{seen}");
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
        .args(["run", args[1], "--tests", "0"])
        .env("TAPEFUZZ_CORPORA", &d)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&next.stderr);
    assert_eq!(next.status.code(), Some(0), "{err}");
    assert!(!err.contains("earlier run"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

const LONG_RUN: &[&str] = &["run", "bst_valid", "--tests", "1000000000", "--seed", "1"];

#[test]
fn sigint_stops_a_run_cleanly() {
    stopped_by("int", LONG_RUN, "INT", Send::Once, 130);
}

#[test]
fn sigterm_stops_a_run_cleanly() {
    stopped_by("term", LONG_RUN, "TERM", Send::Once, 143);
}

/// `timeout` sends SIGTERM to the process and to its group: the second one is ignored.
#[test]
fn a_sigterm_that_arrives_twice_still_stops_cleanly() {
    stopped_by("term-twice", LONG_RUN, "TERM", Send::ProcessAndGroup, 143);
}

/// Parallel runs (`--jobs 2`) all stop; the targets not started yet never start.
#[test]
fn parallel_runs_stop_together() {
    stopped_by(
        "jobs",
        &[
            "run",
            "--all",
            "--tests",
            "1000000000",
            "--jobs",
            "2",
            "--seed",
            "1",
        ],
        "INT",
        Send::Once,
        130,
    );
}

/// `ci` stopped by SIGINT: the running campaign ends cleanly, no further target starts, the
/// JUnit report is written with the targets that ran, and the exit status is 130.
#[test]
fn ci_stops_cleanly_and_writes_its_report() {
    let d = temp_dir("ci");
    let junit = d.join("junit.xml");
    let args =
        ["ci", "--seconds-per-target", "60", "--seed", "1", "--junit"].map(std::ffi::OsStr::new);
    let all: Vec<&std::ffi::OsStr> = args.iter().copied().chain([junit.as_os_str()]).collect();
    let Ended { seen, stdout, code } = signalled(&all, &d, "INT", Send::Once);
    assert_eq!(code, Some(130), "{seen}");
    // One target ran (the one the signal stopped), of the many `ci` would run.
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(seen.contains("ci: 1 properties, 0 failed"), "{seen}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 1, "{xml}");
    assert_eq!(flight_records(&d), 0);
    let _ = std::fs::remove_dir_all(&d);
}
