//! A warning that matters reaches the user under libtest's capture: a saved regression that
//! passes now, replayed by a test that passes, is not a silent `ok`.

use std::process::Command;
use tapefuzz::prelude::*;

/// `WARNINGS_TEST_MODE=fail` saves a regression (fails on 10 or more); `fixed` replays it
/// with the bug fixed and generates nothing. Runs only when the test below spawns it.
#[test]
fn replayed_property() {
    let Some(mode) = std::env::var_os("WARNINGS_TEST_MODE") else {
        return;
    };
    let fixed = mode == "fixed";
    Property::new("replayed")
        .tests(if fixed { 0 } else { 1_000 })
        .check(ints::<u32>(0..=1000), move |x: u32| fixed || x < 10);
}

#[test]
fn a_regression_that_passes_now_is_said_under_capture() {
    let dir = std::env::temp_dir().join(format!("tapefuzz-warnings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |mode: &str| {
        // No --nocapture: libtest captures what the test prints.
        Command::new(std::env::current_exe().unwrap())
            .args(["replayed_property", "--exact"])
            .env("WARNINGS_TEST_MODE", mode)
            .env("TAPEFUZZ_CORPORA", &dir)
            .output()
            .unwrap()
    };
    let failing = run("fail");
    assert!(!failing.status.success(), "the bug is found and saved");
    let fixed = run("fixed");
    let out = String::from_utf8_lossy(&fixed.stdout).to_string()
        + &String::from_utf8_lossy(&fixed.stderr);
    assert!(fixed.status.success(), "{out}");
    assert!(out.contains("passes now"), "the warning is shown: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}
