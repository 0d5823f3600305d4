//! A shrink does not run the property again on a value that already passed in it
//! (`Subject::shrinking`, `property::ValueMemo`).

use std::cell::RefCell;
use std::collections::HashMap;
use tapefuzz::prelude::*;
use tapefuzz::property::{Test, ValueMemo, property};
use tapefuzz::tape::{Fallback, RandomSource, ReplaySource, Status, Tape};

/// A draw the value ignores: many candidates of the shrink build the same list.
fn lists() -> impl Gen<Value = Vec<bool>> {
    (ints::<u16>(..), vecs(bools(), ..)).map(|(_, v)| v)
}

#[test]
fn a_shrink_checks_each_passing_value_once() {
    for seed in 1..=5 {
        // After the first failure (the end of the generation phase), how often each passing
        // value was checked.
        let failed = RefCell::new(false);
        let checks: RefCell<HashMap<Vec<bool>, u32>> = RefCell::default();
        let report =
            Property::new("value_memo")
                .no_corpus()
                .seed(seed)
                .run(lists(), |v: Vec<bool>| {
                    if v.len() >= 3 && v.iter().any(|&b| b) {
                        *failed.borrow_mut() = true;
                        return Err(Fail::Failed("long".into()));
                    }
                    if *failed.borrow() {
                        *checks.borrow_mut().entry(v).or_default() += 1;
                    }
                    Ok(())
                });
        assert_eq!(
            report.value.as_deref(),
            Some("[false, false, true]"),
            "seed {seed}"
        );
        let twice: Vec<_> = checks
            .borrow()
            .iter()
            .filter(|&(_, &n)| n > 1)
            .map(|(v, _)| v.clone())
            .collect();
        assert!(
            twice.is_empty(),
            "seed {seed}: checked more than once: {twice:?}"
        );
        assert!(!checks.borrow().is_empty());
    }
}

/// `Test::run_memo`: the second run of a passing value answers from the memo (the generator
/// runs, the property does not); a failing value always runs; an `assume!` rejection is
/// remembered as one.
#[test]
fn run_memo_answers_a_known_value_without_the_property() {
    let calls = RefCell::new(0u32);
    let test = property(ints::<u8>(0..=3), |x: u8| {
        *calls.borrow_mut() += 1;
        assume!(x != 1);
        ensure!(x != 2);
        Ok(())
    });
    let mut memo = ValueMemo::new();
    let run = |memo: &mut ValueMemo, index: u64| {
        let mut src = ReplaySource::new(vec![index], Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        let st = test.run_memo(&mut tape, memo);
        (st, tape.finish().choices.len())
    };
    for (x, status) in [
        (0, Status::Valid),
        (1, Status::Invalid),
        (2, Status::Interesting),
    ] {
        let before = *calls.borrow();
        assert_eq!(run(&mut memo, x), (status, 1));
        assert_eq!(*calls.borrow(), before + 1);
        assert_eq!(run(&mut memo, x), (status, 1), "again: the same status");
        let again = *calls.borrow() - before - 1;
        assert_eq!(
            again,
            u32::from(status == Status::Interesting),
            "{x}: property ran again?"
        );
    }
    assert_eq!(memo.len(), 2);
    // Without a memo every run checks.
    let mut src = RandomSource::new(1);
    let before = *calls.borrow();
    test.run(&mut Tape::recording(&mut src));
    assert_eq!(*calls.borrow(), before + 1);
}

/// A failure that shows on every other run is confirmed by replaying it (up to three times)
/// before anything is remembered: the memo starts with the shrink.
#[test]
fn a_failure_on_every_other_run_is_still_confirmed() {
    let runs = RefCell::new(0u32);
    let report = Property::new("every_other_run").no_corpus().seed(1).run(
        vecs(bools(), 0..=5),
        |v: Vec<bool>| {
            let mut n = runs.borrow_mut();
            *n += 1;
            ensure!(v.len() < 2 || *n % 2 == 1);
            Ok(())
        },
    );
    assert!(!report.passed(), "{report:?}");
    let flaky = report.failure.as_ref().map(|f| f.flaky);
    assert_eq!(
        flaky,
        Some(false),
        "confirmed on its second replay: {report:?}"
    );
}

/// A number whose `Debug` panics below 5 (an invariant its formatting assumes).
#[derive(Clone, Copy, PartialEq)]
struct Fragile(u8);

impl std::fmt::Debug for Fragile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        assert!(self.0 >= 5, "formatted below 5");
        write!(f, "Fragile({})", self.0)
    }
}

/// A `Debug` that panics while the shrink hashes a value is no failure of the property: the
/// value just gets no memo.
#[test]
fn a_debug_that_panics_is_not_a_failure() {
    let report = Property::new("fragile_debug")
        .no_corpus()
        .seed(2)
        .run(ints::<u8>(..).map(Fragile), |x: Fragile| {
            x.0 < 5 || x.0 < 40
        });
    assert_eq!(report.value.as_deref(), Some("Fragile(40)"), "{report:?}");
}
