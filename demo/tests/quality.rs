//! Each planted bug is found and shrinks to its documented minimal value, whatever the seed;
//! each fixed version passes; the tour saves and replays; the command behaves. Nothing is
//! written in the source tree: runs have no corpus folder or a temporary one.

use std::process::Command;
use tapefuzz::engine::Found;
use tapefuzz_demo::tour::{self, BUGS, DEFAULT_SEED};

#[test]
fn each_bug_shrinks_to_its_minimal_value_for_every_seed() {
    for bug in &BUGS {
        for seed in 1..=10 {
            let report = (bug.run)(&tour::property(bug, seed), false);
            assert_eq!(
                report.value.as_deref(),
                Some(bug.minimal),
                "{} with seed {seed}:\n{report}",
                bug.name
            );
            let failure = report.failure.as_ref().unwrap();
            assert!(!failure.shrink_budget_exhausted, "{}", bug.name);
            assert!(report.tests <= 1_000, "{}: found late: {report}", bug.name);
        }
    }
}

#[test]
fn each_fixed_version_passes() {
    for bug in &BUGS {
        let report = (bug.run)(&tour::property(bug, DEFAULT_SEED).tests(500), true);
        assert!(report.passed(), "{} fixed:\n{report}", bug.name);
        assert_eq!(report.tests, 500, "{}", bug.name);
    }
}

#[test]
fn the_tour_saves_each_regression_and_replays_it() {
    let scratch = tempfile::tempdir().unwrap();
    for bug in &BUGS {
        let h = tour::hunt(bug, DEFAULT_SEED, scratch.path());
        assert_eq!(h.problems(), Vec::<String>::new(), "{}", bug.name);
        let saved = h.found.failure.as_ref().unwrap().saved.clone().unwrap();
        assert!(saved.starts_with(scratch.path()), "{}", saved.display());
        let text = std::fs::read_to_string(&saved).unwrap();
        assert!(text.contains(&format!("property: {}", bug.name)), "{text}");
        let replay = h.replay.unwrap();
        let found = &replay.failure.as_ref().unwrap().found;
        assert!(matches!(found, Found::Reuse(_)), "{found:?}");
        assert_eq!(replay.total_tests(), 1, "the regression fails first");
    }
}

#[test]
fn a_trace_fits_on_one_line() {
    assert_eq!(tour::one_line("1. Push(0)\n2. Pop"), "Push(0), Pop");
    assert_eq!(tour::one_line("[0..1, 1..2]"), "[0..1, 1..2]");
}

fn demo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tapefuzz-demo"))
}

#[test]
fn the_command_finds_every_bug_whatever_the_environment_says() {
    let cwd = tempfile::tempdir().unwrap();
    let out = demo()
        .current_dir(cwd.path())
        .env("TAPEFUZZ_TESTS", "1")
        .env("TAPEFUZZ_STRATEGY", "no-such-strategy")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("ignoring TAPEFUZZ_TESTS"), "{stderr}");
    assert!(stderr.contains("every bug found"), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    // Two runs a bug (the search, then the replay), one JSON line each.
    assert_eq!(stdout.lines().count(), 2 * BUGS.len(), "{stdout}");
    assert!(stdout.lines().all(|l| l.starts_with("{\"target\":")));
    // Nothing is written where the command runs.
    assert_eq!(std::fs::read_dir(cwd.path()).unwrap().count(), 0);
}

#[test]
fn the_command_keeps_the_scratch_folder_when_asked() {
    let out = demo().args(["--keep", "--seed", "7"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let kept = stderr
        .lines()
        .find_map(|l| l.strip_prefix("the regressions are kept in "))
        .expect("the kept folder's path");
    let kept = std::path::Path::new(kept);
    for bug in &BUGS {
        let dir = kept.join(tapefuzz::property::target_dir_name(bug.name));
        assert!(dir.join("regressions").is_dir(), "{}", dir.display());
    }
    std::fs::remove_dir_all(kept).unwrap();
}

#[test]
fn the_command_rejects_bad_arguments() {
    for args in [&["--seed"][..], &["--seed", "x"], &["--frobnicate"]] {
        let out = demo().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error"));
    }
    let help = demo().arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("--seed N"));
}
