//! A hang reached only while shrinking another failure, under a timeout: the run ends (the
//! watchdog covers shrinking), the next run shrinks the failure in processes of its own and
//! keeps the hang as a failure of its own, and no later run hangs.

use std::process::Command;
use std::time::{Duration, Instant};
use tapefuzz::prelude::*;

/// Fails on any element of 1000 or more; loops forever on `[999]` (which only the shrinker
/// tries, as it checks that `[1000]` is minimal: the simplest value `[0]` is the run's first
/// test case, so a hang there would end generation, not the shrink). Runs only when spawned
/// by the test below.
#[test]
fn hangs_on_999_while_shrinking() {
    if std::env::var_os("SHRINK_HANG_TEST").is_none() {
        return;
    }
    Property::new("shrink_hang").tests(1_000).seed(5).check(
        vecs(ints::<u16>(0..=2000), 1..=3),
        |v: Vec<u16>| {
            if v == [999] {
                loop {
                    std::hint::spin_loop();
                }
            }
            v.iter().all(|&x| x < 1000)
        },
    );
}

#[test]
fn a_hang_while_shrinking_ends_the_run_and_is_kept() {
    let dir = std::env::temp_dir().join(format!("tapefuzz-shrink-hang-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = || {
        let started = Instant::now();
        let out = Command::new(std::env::current_exe().unwrap())
            .args(["hangs_on_999_while_shrinking", "--exact", "--nocapture"])
            .env("SHRINK_HANG_TEST", "1")
            .env("TAPEFUZZ_CORPORA", &dir)
            .env("TAPEFUZZ_TIMEOUT_MS", "200")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status, text, started.elapsed())
    };
    // 1. The shrinker reaches the hang: the watchdog ends the run.
    let (status, text, took) = run();
    assert!(!status.success(), "{text}");
    assert!(took < Duration::from_secs(60), "{took:?}: {text}");
    assert!(text.contains("shrink candidate"), "{text}");
    // 2. The next run shrinks the failure again, each candidate in a process of its own:
    //    the failure shrinks to its minimum, and the hang is kept as a failure of its own.
    let (status, text, took) = run();
    assert!(!status.success(), "{text}");
    assert!(took < Duration::from_secs(120), "{took:?}: {text}");
    assert!(text.contains("minimal failing value: [1000]"), "{text}");
    assert!(text.contains("failed another way"), "{text}");
    let saved = std::fs::read_dir(dir.join("shrink_hang").join("regressions"))
        .unwrap()
        .count();
    assert_eq!(saved, 2, "{text}");
    // 3. No later run hangs: a saved failure is reported first.
    let (status, text, took) = run();
    assert!(!status.success(), "{text}");
    assert!(took < Duration::from_secs(60), "{took:?}: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}
