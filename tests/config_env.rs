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

    unsafe { std::env::remove_var("TAPEFUZZ_TESTS") };

    // The rl strategy's settings.
    unsafe {
        std::env::set_var("TAPEFUZZ_STRATEGY", "rl");
        std::env::set_var("TAPEFUZZ_KEEP", "3");
        std::env::set_var("TAPEFUZZ_RL_EPSILON", "0.1");
        std::env::set_var("TAPEFUZZ_RL_WINDOW", "6");
        std::env::set_var("TAPEFUZZ_RL_STATE", "sequence");
        std::env::set_var("TAPEFUZZ_RL_RECENT", "2");
        std::env::set_var("TAPEFUZZ_RL_LEARNERS", "point");
        std::env::set_var("TAPEFUZZ_RL_INVALID", "-2");
        std::env::set_var("TAPEFUZZ_RL_DECAY", "0.05");
        std::env::set_var("TAPEFUZZ_RL_BONUS", "1.5");
        std::env::set_var("TAPEFUZZ_RL_BOOTSTRAP", "1");
    }
    let c = Config::from_env().unwrap();
    assert_eq!(c.keep, 3);
    let tapefuzz::engine::Strategy::Learn(l) = c.strategy else {
        panic!("rl expected")
    };
    use tapefuzz::guide::{Abstraction, Learners, Update};
    assert_eq!(l.epsilon, 0.1);
    assert_eq!(l.window, 6);
    assert_eq!(l.abstraction, Abstraction::Sequence);
    assert_eq!(l.recent, 2);
    assert_eq!(l.learners, Learners::ByPoint);
    assert_eq!(l.rewards.invalid, -2.0);
    assert_eq!(l.rewards.unique, 20.0);
    assert_eq!(l.update, Update::Decayed(0.05));
    assert_eq!(l.bonus, 1.5);
    assert!(l.bootstrap);
    for (var, bad) in [
        ("TAPEFUZZ_RL_EPSILON", "1.5"),
        ("TAPEFUZZ_RL_STATE", "forest"),
        ("TAPEFUZZ_RL_WINDOW", "2.5"),
        ("TAPEFUZZ_RL_DECAY", "-1"),
        ("TAPEFUZZ_RL_BOOTSTRAP", "yes"),
    ] {
        let old = std::env::var(var).unwrap();
        unsafe { std::env::set_var(var, bad) };
        let e = Config::from_env().unwrap_err();
        assert!(e.to_string().contains(var), "{e}");
        unsafe { std::env::set_var(var, old) };
    }
}
