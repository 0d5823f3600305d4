//! A test case that is already dying when its timeout passes (an abort after a slow
//! backtrace, an allocation failure on a loaded machine) is a crash, never a timeout.

use std::process::Command;
use tapefuzz::prelude::*;

/// Aborts after 400 ms on a number of 100 or more (a 200 ms timeout is set by the test
/// below); runs only when spawned by it.
#[test]
fn slowly_dying_property() {
    if std::env::var_os("DYING_TEST").is_none() {
        return;
    }
    Property::new("dying")
        .tests(2_000)
        .seed(3)
        .check(vecs(ints::<u8>(..), 0..=5), |v: Vec<u8>| {
            if v.iter().any(|&x| x >= 100) {
                std::thread::sleep(std::time::Duration::from_millis(400));
                std::process::abort();
            }
        });
}

#[test]
fn an_abort_after_the_timeout_is_a_crash_not_a_hang() {
    let dir = std::env::temp_dir().join(format!("tapefuzz-dying-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = || {
        Command::new(std::env::current_exe().unwrap())
            .args(["slowly_dying_property", "--exact", "--nocapture"])
            .env("DYING_TEST", "1")
            .env("TAPEFUZZ_CORPORA", &dir)
            .env("TAPEFUZZ_TIMEOUT_MS", "200")
            .output()
            .unwrap()
    };
    let first = run();
    let out = String::from_utf8_lossy(&first.stderr).to_string();
    assert!(!first.status.success());
    assert!(!out.contains("ran over the timeout"), "{out}");
    let second = run();
    let out = String::from_utf8_lossy(&second.stdout).to_string()
        + &String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success());
    assert!(out.contains("crashed: killed by signal 6"), "{out}");
    assert!(!out.contains("timed out"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
