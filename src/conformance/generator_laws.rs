//! The laws of a generator: the ones every picker and mutator is checked against.

use crate::generators::Gen;
use crate::tape::{
    BytesSource, Choice, Fallback, RandomSource, Reject, ReplaySource, Source, Tape, encoding,
};
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Generates from `source`, recording or not; a panic is caught and reported naming `what`.
fn run<G: Gen>(
    generator: &G,
    source: &mut dyn Source,
    record: bool,
    what: &dyn Fn() -> String,
) -> (Result<G::Value, Reject>, Vec<Choice>) {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut tape = Tape::new(source, record);
        let v = generator.generate(&mut tape);
        (v, tape.finish().choices)
    }));
    match r {
        Ok(r) => r,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{}: generating panicked: {msg}", what())
        }
    }
}

/// The value of `choices` replayed, as choices and as bytes, must be `value` (and the
/// replayed choices the same).
fn check_replays<G: Gen>(
    generator: &G,
    value: &Result<G::Value, Reject>,
    choices: &[Choice],
    what: &dyn Fn() -> String,
) where
    G::Value: Debug + PartialEq,
{
    let (r, again) = run(generator, &mut ReplaySource::of(choices), true, what);
    assert!(
        &r == value,
        "{}: law `replay`: its choices replay to {r:?}, not {value:?}",
        what()
    );
    assert!(
        again == choices,
        "{}: law `replay`: its choices replay to other choices (value {value:?})",
        what()
    );
    let bytes = encoding::encode(choices);
    let (b, _) = run(generator, &mut BytesSource::new(&bytes), true, what);
    assert!(
        &b == value,
        "{}: law `bytes`: its bytes {bytes:?} replay to {b:?}, not {value:?}",
        what()
    );
}

/// 200 byte strings of 0 to 64 bytes from a fixed xorshift stream.
fn byte_strings() -> Vec<Vec<u8>> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..200)
        .map(|_| {
            let len = (next() % 65) as usize;
            (0..len).map(|_| next() as u8).collect()
        })
        .collect()
}

/// Runs the generator laws on `generator` (named `name` in failures), with `cases` random
/// seeds:
///
/// - **`record`**: a seed gives the same value whether the tape records or not;
/// - **`replay`**: the recorded choices replay (through a [`ReplaySource`]) to the same
///   value and the same choices;
/// - **`bytes`**: the recorded choices, encoded as bytes ([`encoding::encode`]), replay
///   through a [`BytesSource`] to the same value;
/// - **`empty`**: an empty byte tape (which runs out at once) gives a value — not a
///   rejection, not a panic — equal to the value of an all-zero-index replay (every choice
///   the simplest);
/// - **`bytes-never-panic`**: 200 arbitrary byte strings each give a value or a rejection
///   (never a panic), and the choices of each replay to it as above.
///
/// Panics naming the law, the case and the value when a law fails.
///
/// ```
/// use tapefuzz::conformance::check_generator;
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::tick;
///
/// check_generator("vecs", &vecs(ints::<u8>(..), 0..=5), 50);
/// check_generator("tick", &tick(ints::<i32>(..), ints::<i32>(-3..=3), 0..=6), 50);
/// ```
pub fn check_generator<G: Gen>(name: &str, generator: &G, cases: u64)
where
    G::Value: Debug + PartialEq,
{
    for case in 0..cases {
        let what = || format!("{name} seed {case}");
        let (v, choices) = run(generator, &mut RandomSource::new(case), true, &what);
        let (w, _) = run(generator, &mut RandomSource::new(case), false, &what);
        assert!(
            v == w,
            "{name} seed {case}: law `record`: recording gave {v:?}, not recording {w:?}"
        );
        check_replays(generator, &v, &choices, &what);
    }
    let what = || format!("{name} empty tape");
    let (e, _) = run(generator, &mut BytesSource::new(&[]), true, &what);
    assert!(
        e.is_ok(),
        "{name} empty tape: law `empty`: no value ({e:?})"
    );
    let (z, _) = run(
        generator,
        &mut ReplaySource::new(Vec::new(), Fallback::Simplest),
        true,
        &what,
    );
    assert!(
        e == z,
        "{name} empty tape: law `empty`: {e:?}, but the all-zero replay gives {z:?}"
    );
    for (k, bytes) in byte_strings().iter().enumerate() {
        let what = || format!("{name} byte string {k} ({bytes:?})");
        let (v, choices) = run(generator, &mut BytesSource::new(bytes), true, &what);
        check_replays(generator, &v, &choices, &what);
    }
}
