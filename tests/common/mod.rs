//! Helpers shared by the integration tests that compare generators on fixed tapes (each
//! test file uses what it needs).
#![allow(dead_code)]

pub mod kv;

use std::fmt::Debug;
use tapefuzz::engine::{Observation, Search, Start};
use tapefuzz::generators::{Gen, value_from_bytes};
use tapefuzz::search::random::RandomSearch;
use tapefuzz::shrink::Passed;
use tapefuzz::tape::{Recording, Status, Tape};

/// The first failing test case of a random run with `seed` as the `random` strategy makes
/// it with the default 256 tests (its search proposes every test case: the first ones
/// small, with duplicates and truncations of them, see `tapefuzz::search::random`), recorded, going on past
/// 256 test cases; `None` after `max_tests` test cases.
pub fn first_failure(
    test: &mut dyn FnMut(&mut Tape<'_>) -> Status,
    seed: u64,
    max_tests: u64,
) -> Option<Recording> {
    first_failure_passed(test, seed, max_tests, &mut Passed::new())
}

/// [`first_failure`], noting the valid and rejected test cases before it in `passed`, as the
/// engine does for its shrink (`Shrinker::with_passed`).
pub fn first_failure_passed(
    test: &mut dyn FnMut(&mut Tape<'_>) -> Status,
    seed: u64,
    max_tests: u64,
    passed: &mut Passed,
) -> Option<Recording> {
    let mut search = RandomSearch::default();
    search.start(&Start {
        seed,
        tests: 256,
        keep: 0,
    });
    for i in 1..=max_tests {
        let mut proposal = search.propose().expect("random never runs out");
        let recorded = proposal.is_recorded();
        // Suggestions included, as the engine's confirming replay records them.
        let mut tape = Tape::recording(proposal.source()).with_suggestions();
        let status = test(&mut tape);
        match status {
            Status::Valid => passed.insert(tape.fingerprint(), tape.drawn()),
            Status::Invalid => passed.insert_rejected(tape.fingerprint(), tape.drawn()),
            _ => {}
        }
        let rec = tape.finish();
        drop(proposal);
        if status == Status::Interesting {
            return Some(rec);
        }
        search.observe(&Observation {
            status,
            fingerprint: 0,
            recording: recorded.then_some(&rec),
            characteristic: 0,
            features: &[],
            score: None,
            test: i,
        });
    }
    None
}

/// The first failure of challenge `name` on `seed` (see [`first_failure_passed`]), with
/// the valid and rejected test cases before it for its shrink; panics when none comes in
/// `max_tests` test cases.
pub fn challenge_start(
    test: &mut dyn FnMut(&mut Tape<'_>) -> Status,
    name: &str,
    seed: u64,
    stream_seed: u64,
    max_tests: u64,
) -> (Recording, Passed) {
    let mut passed = Passed::new();
    let start = first_failure_passed(test, stream_seed, max_tests, &mut passed)
        .unwrap_or_else(|| panic!("{name} seed {seed}: no failure in {max_tests} tests"));
    (start, passed)
}

/// Shrinks the failing test case that replaying `indices` (then zeros) records under `test`,
/// with the default budget; the best tape (replay it with `ReplaySource::of`, which skips its
/// forced choices). Panics when the start does not fail.
pub fn shrink_from(test: &mut dyn FnMut(&mut Tape<'_>) -> Status, indices: Vec<u64>) -> Recording {
    use tapefuzz::shrink::{Budget, Shrinker};
    use tapefuzz::tape::{Fallback, ReplaySource};
    let mut src = ReplaySource::new(indices, Fallback::Simplest);
    let mut tape = Tape::recording(&mut src).with_suggestions();
    assert_eq!(test(&mut tape), Status::Interesting, "the start fails");
    let start = tape.finish();
    Shrinker::new(test, start, Budget::default()).run().best
}

/// For `SHRINK_TRACE`: call number `call`'s status and unforced indices, on stderr.
pub fn trace_call(call: u64, status: Status, tape: &Tape<'_>) {
    let c: Vec<u64> = (tape.choices().iter())
        .filter(|c| !c.forced)
        .map(|c| c.index)
        .collect();
    eprintln!("{call} {status:?} {c:?}");
}

/// 300 byte strings of 0 to 200 bytes from a fixed xorshift stream.
pub fn inputs() -> Vec<Vec<u8>> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..300)
        .map(|_| {
            let len = (next() % 201) as usize;
            (0..len).map(|_| next() as u8).collect()
        })
        .collect()
}

/// `a` and `b` make the same value (compared by Debug) of every input.
pub fn same<A, B>(a: A, b: B)
where
    A: Gen,
    B: Gen<Value = A::Value>,
    A::Value: Debug,
{
    for bytes in inputs() {
        let (x, y) = (value_from_bytes(&a, &bytes), value_from_bytes(&b, &bytes));
        assert_eq!(format!("{x:?}"), format!("{y:?}"), "bytes {bytes:?}");
    }
}

/// The shrunk failing value of `prop` over `g` (its Debug), from a random run with seed 7 of
/// at most 5,000 tests, under the property name `name`. Panics when nothing fails.
pub fn shrunk<G, F>(name: &str, g: G, prop: F) -> String
where
    G: Gen,
    G::Value: Debug + 'static,
    F: Fn(G::Value) -> bool,
{
    let report = tapefuzz::prelude::Property::new(name)
        .no_corpus()
        .seed(7)
        .tests(5_000)
        .run(g, prop);
    report
        .value
        .clone()
        .unwrap_or_else(|| panic!("{name}: no failure found\n{report}"))
}

/// Test cases until the first failure of `check` over `g` under the default strategy, for
/// seeds 1 to 10 (at most 100,000 each; panics on a seed without a failure), sorted, and
/// printed on stderr under `name`.
pub fn tests_to_failure<G, F>(name: &str, g: G, check: F) -> Vec<u64>
where
    G: Gen + Clone + 'static,
    G::Value: Debug + Clone + 'static,
    F: Fn(G::Value) -> bool + Clone + 'static,
{
    let mut n: Vec<u64> = (1..=10)
        .map(|seed| {
            let r = tapefuzz::property::Property::new(name)
                .no_corpus()
                .seed(seed)
                .tests(100_000)
                .run(g.clone(), check.clone());
            assert!(r.failure.is_some(), "{name} seed {seed}: no failure\n{r}");
            r.tests
        })
        .collect();
    n.sort_unstable();
    eprintln!("{name}: tests to failure {n:?}");
    n
}

/// How many elements a walk visits in an arena where element `i` names the element after
/// it: from element 0, until the walk leaves the list or comes back to an element seen.
pub fn arena_walk(next: &[usize]) -> usize {
    let mut seen = vec![false; next.len()];
    let (mut at, mut visited) = (0, 0);
    while at < next.len() && !seen[at] {
        seen[at] = true;
        visited += 1;
        at = next[at];
    }
    visited
}
