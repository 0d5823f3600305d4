//! `run --mode greybox` from a binary built without instrumentation (as `cargo test` builds
//! it): a one-line error naming the build script, exit status 2.

use std::process::Command;

fn cli(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_harnesses"))
        .args(args)
        .env(
            "TAPEFUZZ_CORPORA",
            std::env::temp_dir().join("tapefuzz-greybox-cli"),
        )
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn greybox_mode_without_counters_names_the_build_script() {
    let (code, err) = cli(&["run", "magic_chain", "--mode", "greybox", "--tests", "10"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("tapefuzz: error: "), "{err}");
    assert!(err.contains("scripts/greybox-build"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn greybox_mode_checks_its_strategy_and_jobs() {
    for (args, needle) in [
        (
            vec![
                "run",
                "magic_chain",
                "--mode",
                "greybox",
                "--strategy",
                "annealing",
            ],
            "unknown strategy `annealing` (valid: random, sa, rl, greybox, enumerate, patterns",
        ),
        (
            vec!["run", "magic_chain", "--strategy", "greybox"],
            "strategy `greybox` needs coverage",
        ),
        (
            vec!["run", "magic_chain", "--mode", "whitebox"],
            "blackbox, greybox",
        ),
        (
            vec!["run", "--all", "--mode", "greybox", "--jobs", "2"],
            "one target at a time",
        ),
    ] {
        let (code, err) = cli(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
