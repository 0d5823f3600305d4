//! Helpers shared by the integration tests that compare generators on fixed tapes (each
//! test file uses what it needs).
#![allow(dead_code)]

pub mod kv;

use std::fmt::Debug;
use tapefuzz::generators::{Gen, value_from_bytes};
use tapefuzz::search::random::{ramp_length, ramp_source};
use tapefuzz::tape::{RandomSource, Recording, Rng, Source, Status, Tape};

/// The first failing test case of a random run with `seed` as the `random` strategy makes
/// it with the default 256 tests (the first [`ramp_length`] test cases small, see
/// [`ramp_source`]; test case `i` after them drawn from `Rng::derive(seed, i)`), recorded,
/// going on past 256 test cases; `None` after `max_tests` test cases.
pub fn first_failure(
    test: &mut dyn FnMut(&mut Tape<'_>) -> Status,
    seed: u64,
    max_tests: u64,
) -> Option<Recording> {
    let ramp = ramp_length(256);
    (0..max_tests).find_map(|i| {
        let (mut sized, mut random);
        let src: &mut dyn Source = if i < ramp {
            sized = ramp_source(seed, i, ramp);
            &mut sized
        } else {
            random = RandomSource::new(Rng::derive(seed, i));
            &mut random
        };
        // Suggestions included, as the engine's confirming replay records them.
        let mut tape = Tape::recording(src).with_suggestions();
        (test(&mut tape) == Status::Interesting).then(|| tape.finish())
    })
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
