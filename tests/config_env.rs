//! Configuration from the environment (its own test binary: variables are process-wide).

use tapefuzz::engine::Config;

#[test]
fn environment_overrides_defaults_and_bad_values_are_named() {
    // SAFETY: the only test in this binary, so no other thread reads the environment.
    unsafe {
        std::env::set_var("TAPEFUZZ_SEED", "42");
        std::env::set_var("TAPEFUZZ_SECONDS", "1.5");
        std::env::set_var("TAPEFUZZ_SHRINK_CALLS", "77");
    }
    let c = Config::from_env().unwrap();
    assert_eq!(c.seed, Some(42));
    assert_eq!(c.seconds, Some(1.5));
    assert_eq!(c.tests, u64::MAX, "a time budget lifts the test count");
    assert_eq!(c.shrink.calls, 77);
    unsafe { std::env::set_var("TAPEFUZZ_TESTS", "12") };
    assert_eq!(Config::from_env().unwrap().tests, 12);
    unsafe { std::env::set_var("TAPEFUZZ_TESTS", "lots") };
    let e = Config::from_env().unwrap_err();
    assert_eq!(
        e.to_string(),
        "TAPEFUZZ_TESTS=\"lots\" is not a valid number"
    );
}
