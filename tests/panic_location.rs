//! A failing `check` panics at the user's call site (`#[track_caller]` down the chain).
//!
//! One `#[test]`: the panic hook is global to the process, so the cases share one hook and
//! run one after the other.

use std::panic::{self, Location};
use std::sync::{Arc, Mutex};
use tapefuzz::prelude::*;

#[test]
fn failures_panic_at_the_callers_line() {
    // `check` keeps a corpus: a scratch one, so the failure saved here stays out of the
    // checked-in corpora/.
    let scratch =
        std::env::temp_dir().join(format!("tapefuzz-panic-location-{}", std::process::id()));
    // SAFETY: the only test of this binary, before any thread reads the environment.
    unsafe { std::env::set_var("TAPEFUZZ_CORPORA", &scratch) };
    let seen: Arc<Mutex<Vec<(String, u32)>>> = Arc::default();
    let sink = seen.clone();
    let previous = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if let Some(l) = info.location() {
            sink.lock().unwrap().push((l.file().to_string(), l.line()));
        }
    }));
    // The (file, line) each case's last panic reported.
    let mut cases: Vec<(String, u32)> = Vec::new();
    let first = line!();
    let mut run = |f: &dyn Fn()| {
        seen.lock().unwrap().clear();
        let r = panic::catch_unwind(panic::AssertUnwindSafe(f));
        assert!(r.is_err(), "expected a panic");
        // The last panic is the report (the property's own panics, caught, come before).
        let last = seen
            .lock()
            .unwrap()
            .last()
            .cloned()
            .expect("a located panic");
        cases.push(last);
    };
    run(&|| {
        Property::new("located")
            .no_corpus()
            .seed(1)
            .check(ints::<u8>(..), |x: u8| x < 3)
    });
    run(&|| check(ints::<u8>(..), |x: u8| assert!(x < 3)));
    run(&|| {
        Property::new("located_example")
            .no_corpus()
            .example(9u8)
            .check(ints::<u8>(..), |x: u8| x < 3)
    });
    let last = line!();
    panic::set_hook(previous);
    let _ = std::fs::remove_dir_all(&scratch);
    assert_eq!(cases.len(), 3);
    for (file, line) in cases {
        assert_eq!(file, Location::caller().file());
        assert!((first..last).contains(&line), "line {line}");
    }
}
