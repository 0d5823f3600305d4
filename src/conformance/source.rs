//! The laws of a source.

use super::{Value, generator};
use crate::generators::Gen;
use crate::tape::{BytesSource, Choice, Reject, ReplaySource, Source, Tape, encoding};

/// Generates the suite's value from `source`, recording or not: the value and the choices.
fn generate(source: &mut dyn Source, record: bool) -> (Result<Value, Reject>, Vec<Choice>) {
    let mut tape = Tape::new(source, record);
    let v = generator().generate(&mut tape);
    (v, tape.finish().choices)
}

/// Checks that `choices`, which generated `value`, replay to it: through a replay source
/// (to the same choices too) and, encoded as bytes, through the bytes source. Panics naming
/// `what` otherwise.
pub fn replays(what: &str, value: &Result<Value, Reject>, choices: &[Choice]) {
    let (r, again) = generate(&mut ReplaySource::of(choices), true);
    assert_eq!(&r, value, "{what}: its choices replay to another value");
    assert_eq!(
        again, choices,
        "{what}: its choices replay to other choices"
    );
    let bytes = encoding::encode(choices);
    let (b, _) = generate(&mut BytesSource::new(&bytes), true);
    assert_eq!(&b, value, "{what}: its bytes replay to another value");
}

/// Runs the source laws on `cases` sources built by `make(case)` (a seed, or whatever the
/// case number means to the source): the same case built twice gives the same value, recording
/// or not; the source gives a value (never a rejection: the suite's generator has no filter);
/// its recorded choices replay to the value ([`replays`]).
pub fn check_source(name: &str, cases: u64, mut make: impl FnMut(u64) -> Box<dyn Source>) {
    for case in 0..cases {
        let (v, choices) = generate(&mut *make(case), true);
        let (w, _) = generate(&mut *make(case), false);
        assert_eq!(v, w, "{name} case {case}: recording changed the value");
        assert!(v.is_ok(), "{name} case {case}: no value: {v:?}");
        replays(&format!("{name} case {case}"), &v, &choices);
    }
}
