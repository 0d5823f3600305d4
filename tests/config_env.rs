//! Configuration from the process environment (its own test binary: variables are
//! process-wide). The parsing itself is tested on made-up environments beside the code.

use std::sync::Mutex;
use tapefuzz::settings::{Settings, unknown_warning};

/// Held by every test of this binary while it sets or reads the process environment (a
/// property run reads it): the tests run on parallel threads.
static ENV: Mutex<()> = Mutex::new(());

/// The variables the first test sets, removed when it ends (also when it fails).
const SET: [&str; 9] = [
    "TAPEFUZZ_SEED",
    "TAPEFUZZ_SECONDS",
    "TAPEFUZZ_SHRINK_CALLS",
    "TAPEFUZZ_TESTS",
    "TAPEFUZZ_TIMEOUT_MS",
    "TAPEFUZZ_STRATEGY",
    "TAPEFUZZ_KEEP",
    "TAPEFUZZ_RL_EPSILON",
    "TAPEFUZZ_TEST",
];

struct Cleared;

impl Drop for Cleared {
    fn drop(&mut self) {
        for v in SET {
            // SAFETY: the caller holds `ENV`, so no other thread of this binary reads it.
            unsafe { std::env::remove_var(v) };
        }
    }
}

#[test]
fn environment_overrides_defaults_and_bad_values_are_named() {
    let _env = ENV.lock().unwrap_or_else(|e| e.into_inner());
    let _cleared = Cleared;
    // SAFETY: `ENV` is held, so no other thread of this binary reads the environment.
    unsafe {
        std::env::set_var("TAPEFUZZ_SEED", "42");
        std::env::set_var("TAPEFUZZ_SECONDS", "1.5");
        std::env::set_var("TAPEFUZZ_SHRINK_CALLS", "77");
    }
    let c = Settings::from_env().unwrap().config;
    assert_eq!(c.seed, Some(42));
    assert_eq!(c.seconds, Some(1.5));
    assert_eq!(c.tests, u64::MAX, "a time budget lifts the test count");
    assert_eq!(c.shrink.calls, 77);
    unsafe { std::env::set_var("TAPEFUZZ_TESTS", "12") };
    assert_eq!(Settings::from_env().unwrap().config.tests, 12);
    unsafe { std::env::set_var("TAPEFUZZ_TESTS", "lots") };
    let e = Settings::from_env().unwrap_err();
    assert_eq!(
        e.to_string(),
        "TAPEFUZZ_TESTS=\"lots\" is not valid (expected a whole number)"
    );
    unsafe { std::env::remove_var("TAPEFUZZ_TESTS") };
    unsafe { std::env::set_var("TAPEFUZZ_TIMEOUT_MS", "0") };
    let e = Settings::from_env().unwrap_err();
    assert!(
        e.to_string().starts_with("TAPEFUZZ_TIMEOUT_MS=\"0\""),
        "{e}"
    );
    unsafe { std::env::remove_var("TAPEFUZZ_TIMEOUT_MS") };

    // The strategy and its settings.
    unsafe {
        std::env::set_var("TAPEFUZZ_STRATEGY", "rl");
        std::env::set_var("TAPEFUZZ_KEEP", "3");
        std::env::set_var("TAPEFUZZ_RL_EPSILON", "0.1");
    }
    let s = Settings::from_env().unwrap();
    assert_eq!(s.config.keep, 3);
    assert_eq!(s.strategy.name(), "rl");
    assert!(format!("{:?}", s.strategy).contains("epsilon: 0.1"));
    unsafe { std::env::set_var("TAPEFUZZ_RL_EPSILON", "1.5") };
    let e = Settings::from_env().unwrap_err();
    assert!(e.to_string().contains("TAPEFUZZ_RL_EPSILON"), "{e}");
    unsafe { std::env::set_var("TAPEFUZZ_STRATEGY", "annealing") };
    let e = Settings::from_env().unwrap_err();
    assert!(e.to_string().contains("random, sa, rl, greybox"), "{e}");
    unsafe { std::env::remove_var("TAPEFUZZ_STRATEGY") };

    // A misspelt variable is named, with the one it most likely meant.
    unsafe { std::env::set_var("TAPEFUZZ_TEST", "100000") };
    let w = unknown_warning(&tapefuzz::env::Env::from_process()).expect("a warning");
    assert!(
        w.contains(
            "TAPEFUZZ_TEST is not a tapefuzz variable (ignored); did you mean TAPEFUZZ_TESTS?"
        ),
        "{w}"
    );
}

#[test]
fn a_valid_test_budget_counts_valid_tests_only() {
    // The property run reads the process environment, which the test above changes.
    let _env = ENV.lock().unwrap_or_else(|e| e.into_inner());
    let env = tapefuzz::env::Env::from_pairs([("TAPEFUZZ_VALID_TESTS", "50")]);
    let c = tapefuzz::engine::Config::default().with_env(&env).unwrap();
    assert_eq!((c.valid_tests, c.tests), (Some(50), 500));
    let env =
        tapefuzz::env::Env::from_pairs([("TAPEFUZZ_VALID_TESTS", "50"), ("TAPEFUZZ_TESTS", "70")]);
    let c = tapefuzz::engine::Config::default().with_env(&env).unwrap();
    assert_eq!((c.valid_tests, c.tests), (Some(50), 70));
    // A third of the values are rejected: 60 valid ones take about 90 tests.
    let report = tapefuzz::prelude::Property::new("valid_budget")
        .no_corpus()
        .seed(7)
        .valid_tests(60)
        .run(tapefuzz::prelude::ints::<u8>(0..=2), |x: u8| {
            tapefuzz::assume!(x != 1);
            true
        });
    assert_eq!(report.valid, 60);
    assert!(report.invalid > 10, "{}", report.invalid);
    assert_eq!(report.tests, report.valid + report.invalid);
}
