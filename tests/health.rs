//! Health checks: a run that tests nothing fails, one that tests little or runs a search
//! without what it needs warns, flaky failures and regressions that pass now are named.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use tapefuzz::prelude::*;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tapefuzz-health-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_property_rejecting_everything_fails_with_advice() {
    let p = Property::new("rejects_all").no_corpus().seed(1).tests(200);
    let r = p.run(ints::<u8>(..), |_x: u8| assume!(false));
    assert!(!r.passed());
    assert!(r.failure.is_none(), "no failing value: {r}");
    let text = r.to_string();
    assert!(
        text.contains("failed a health check after 200 tests"),
        "{text}"
    );
    assert!(text.contains("200 rejected by `assume!`"), "{text}");
    assert!(
        text.contains("--strategy rl") && text.contains("TAPEFUZZ_STRATEGY=rl"),
        "{text}"
    );
    // `check` panics with it.
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        p.check(ints::<u8>(..).filter(|_| false), |_x: u8| {});
    }))
    .unwrap_err();
    let message = panicked.downcast_ref::<String>().unwrap();
    assert!(message.contains("no valid test case"), "{message}");
}

#[test]
fn a_run_asked_for_no_tests_is_not_failed() {
    let r = Property::new("rejects_all_0")
        .no_corpus()
        .tests(0)
        .run(ints::<u8>(..), |_x: u8| assume!(false));
    assert!(r.passed(), "{r}");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn rejecting_95_percent_warns() {
    let r = Property::new("rejects_most")
        .no_corpus()
        .seed(3)
        .tests(2000)
        .run(ints::<u32>(0..=99), |x: u32| assume!(x < 5));
    assert!(r.passed(), "{r}");
    let w = r
        .warnings
        .iter()
        .find(|w| w.contains("of the generated test cases were invalid"))
        .unwrap_or_else(|| panic!("no warning: {:?}", r.warnings));
    assert!(w.contains("TAPEFUZZ_MAX_REJECT_SHARE"), "{w}");
    // The report a person reads says it too.
    assert!(r.to_string().contains("warning: 9"), "{r}");
    // A higher limit silences it.
    let mut config = Property::new("x").config_ref().clone();
    config.max_reject_share = 0.99;
    config.tests = 2000;
    config.seed = Some(3);
    let r = Property::new("rejects_most")
        .no_corpus()
        .config(config)
        .run(ints::<u32>(0..=99), |x: u32| assume!(x < 5));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn sa_without_target_warns_that_it_ran_as_random_search() {
    let r = Property::new("sa_untargeted")
        .no_corpus()
        .seed(4)
        .tests(100)
        .strategy_named("sa")
        .unwrap()
        .run(ints::<u8>(..), |_x: u8| {});
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("sa ran as random search")),
        "{:?}",
        r.warnings
    );
    // With a utility value, no warning.
    let r = Property::new("sa_targeted")
        .no_corpus()
        .seed(4)
        .tests(100)
        .strategy_named("sa")
        .unwrap()
        .run(ints::<u8>(..), |x: u8| target(f64::from(x)));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn a_failure_that_does_not_reproduce_is_reported_flaky() {
    static FAILED_ONCE: AtomicBool = AtomicBool::new(false);
    let r = Property::new("flaky")
        .no_corpus()
        .seed(5)
        .run(ints::<u8>(..), |_x: u8| {
            // Fails the first time only: the re-run on the same tape passes.
            FAILED_ONCE.swap(true, Ordering::Relaxed)
        });
    assert!(!r.passed());
    assert!(r.failure.as_ref().unwrap().flaky);
    let text = r.to_string();
    assert!(text.contains("failed (flaky) after 1 tests"), "{text}");
    assert!(
        text.contains("FLAKY: the failure did not happen again"),
        "{text}"
    );
}

#[test]
fn a_regression_that_passes_now_is_named() {
    let d = temp_dir("fixed");
    let failing = Property::new("fixed_bug")
        .corpora(&d)
        .seed(6)
        .run(ints::<u8>(..), |x: u8| x < 10);
    let saved = failing.failure.unwrap().saved.expect("saved");
    // The bug is fixed: the saved regression replays and passes.
    let fixed = Property::new("fixed_bug")
        .corpora(&d)
        .seed(6)
        .tests(10)
        .run(ints::<u8>(..), |_x: u8| true);
    assert!(fixed.passed(), "{fixed}");
    let w = fixed
        .warnings
        .iter()
        .find(|w| w.contains("passes now"))
        .unwrap_or_else(|| panic!("{:?}", fixed.warnings));
    assert!(w.contains(&saved.display().to_string()), "{w}");
    assert!(w.contains("fixed, or the failure is flaky"), "{w}");
    let _ = std::fs::remove_dir_all(&d);
}
