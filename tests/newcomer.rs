//! What a newcomer writes from the README fails the test when the property fails, under the
//! right name, with the right replay command and the panic's own location.
//!
//! One `#[test]`: the cases name their properties after threads named like libtest's tests,
//! and keep their corpora in one scratch folder set through the environment before any
//! thread reads it.

use std::panic::{self, AssertUnwindSafe};
use tapefuzz::generators::Boxed;
use tapefuzz::prelude::*;

/// A counter that forgets its count after three increments: the minimal trace is four `Add`s.
struct Forgetful;

#[derive(Clone, Debug)]
struct Add;

impl StateMachine for Forgetful {
    type State = u32;
    type Sut = u32;
    type Action = Add;
    fn initial(&self) -> u32 {
        0
    }
    fn reset(&self) -> u32 {
        0
    }
    fn actions(&self, _: &u32) -> Boxed<Add> {
        just(Add).boxed()
    }
    fn next_state(&self, s: &mut u32, _: &Add) {
        *s += 1
    }
    fn run(&self, sut: &mut u32, _: &u32, _: &Add) -> Result<(), Fail> {
        *sut = if *sut == 3 { 0 } else { *sut + 1 };
        Ok(())
    }
    fn check(&self, sut: &u32, s: &u32) -> Result<(), Fail> {
        ensure_eq!(*sut, *s);
        Ok(())
    }
}

/// A library function that panics inside itself (not at the `check` call).
fn first_bytes(s: &str, n: usize) -> &str {
    if s.len() <= n { s } else { &s[..n] } // PANIC_LINE
}

/// A test with two checks: the first passes, the second fails (at 3).
fn two_checks() {
    check(ints::<u8>(..), |_: u8| true);
    check(ints::<u8>(..), |x: u8| x < 3);
}

/// Runs `f` on a thread named `test` (as libtest names a test's thread) and returns the
/// message it panicked with, or `None` when it returned.
fn on_test_thread(test: &str, f: impl FnOnce() + Send + 'static) -> Option<String> {
    let handle = std::thread::Builder::new()
        .name(test.to_string())
        .spawn(move || panic::catch_unwind(AssertUnwindSafe(f)))
        .expect("spawn");
    match handle.join().expect("join") {
        Ok(()) => None,
        Err(p) => Some(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default(),
        ),
    }
}

#[test]
fn newcomer_paths() {
    let scratch = std::env::temp_dir().join(format!("tapefuzz-newcomer-{}", std::process::id()));
    // SAFETY: the only test of this binary, before any thread reads the environment.
    unsafe { std::env::set_var("TAPEFUZZ_CORPORA", &scratch) };

    // A state machine checked with `check_test` fails its test, named after the test.
    let m = on_test_thread("stateful_red", || {
        tapefuzz::serve::check_test(&stateful(Forgetful, 0..=10))
    })
    .expect("a failing state machine fails its test");
    assert!(m.contains("property `newcomer::stateful_red`"), "{m}");
    // The trace keeps its layout: one action a line, indented under its label.
    assert!(
        m.contains(
            "\n  minimal failing value:\n    1. Add\n    2. Add\n    3. Add\n    4. Add\n  \
             failure: step 4 (Add): ensure_eq failed: *sut = 0, *s = 4\n"
        ),
        "{m}"
    );
    // So does the regression file (the value's later lines indented).
    let folder = scratch.join("newcomer.stateful_red").join("regressions");
    let file = std::fs::read_dir(&folder)
        .expect("saved")
        .next()
        .expect("one file")
        .expect("entry")
        .path();
    let text = std::fs::read_to_string(file).expect("readable");
    assert!(
        text.contains("\nvalue: 1. Add\n  2. Add\n  3. Add\n  4. Add\nfailure: "),
        "{text}"
    );
    // The same with a name of one's own; the replay command names the test, not the
    // property.
    let m = on_test_thread("lru_matches_model", || {
        Property::new("lru").check_test(&stateful(Forgetful, 0..=10))
    })
    .expect("fails");
    assert!(m.contains("property `lru`"), "{m}");
    assert!(
        m.contains("replay: cargo test -- --exact lru_matches_model "),
        "{m}"
    );
    // `run_test` returns the report: nothing fails unless it is asserted.
    assert!(
        on_test_thread("reported", || {
            let report = Property::new("reported")
                .no_corpus()
                .run_test(&stateful(Forgetful, 0..=10));
            assert!(!report.passed());
        })
        .is_none()
    );

    // Two checks in one test: two properties, two corpora; the second is numbered.
    let m = on_test_thread("two_checks", two_checks).expect("the second check fails");
    assert!(m.contains("property `newcomer::two_checks#2`"), "{m}");
    assert!(m.contains("minimal failing value: 3"), "{m}");
    assert!(
        scratch
            .join("newcomer.two_checks.2")
            .join("regressions")
            .is_dir(),
        "the second check's failure is saved in its own folder"
    );
    assert!(
        !scratch
            .join("newcomer.two_checks")
            .join("regressions")
            .exists()
    );
    // Run again, the first check does not replay the second's failure (it passes), and the
    // second fails first on its saved tape.
    let m = on_test_thread("two_checks", two_checks).expect("the second check fails again");
    assert!(m.contains("two_checks#2` failed on saved tape"), "{m}");

    // A panic inside library code is reported where it happened.
    let m = on_test_thread("abbreviate", || {
        check(
            (strings(CharClass::any(), 0..=4), ints::<usize>(0..=4)),
            |(s, n): (String, usize)| {
                let _ = first_bytes(&s, n);
            },
        )
    })
    .expect("slicing inside a character panics");
    let line = include_str!("newcomer.rs")
        .lines()
        .position(|l| l.ends_with("// PANIC_LINE"))
        .expect("the marked line")
        + 1;
    assert!(
        m.contains(&format!("panicked at tests/newcomer.rs:{line}:")),
        "{m}"
    );
    assert!(m.contains("is not a char boundary"), "{m}");

    // Names that cannot name a corpus folder are refused, saying why.
    for bad in ["", ".", "..", "a/b", "a\\b"] {
        let Err(e) = Property::try_new(bad) else {
            panic!("{bad:?} was taken");
        };
        assert_eq!(e.var, "property name");
        assert!(e.to_string().contains("is not valid"), "{e}");
    }
    assert!(Property::try_new("parser::roundtrip#2").is_ok());

    let _ = std::fs::remove_dir_all(&scratch);
}
