//! The one confirm-shrink-save path: every failure a search finds, every failing saved tape
//! and every libFuzzer crash imported goes through [`settle`].

use super::{Config, Failure, Found, TestFn};
use crate::corpus::{Corpus, Regression};
use crate::shrink::Shrinker;
use crate::tape::{BytesSource, Recording, ReplaySource, Status, Tape, encoding};
use std::time::{Duration, Instant};

/// What a person reads about a tape: the value the property saw (its Debug) and the failure
/// message, as the property layer describes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Described {
    /// The value's Debug form (`None` when no value was generated).
    pub value: Option<String>,
    /// The failure message, if the tape fails.
    pub message: Option<String>,
}

/// Describes a tape (its bytes): what a saved regression file says about its failure.
pub type DescribeFn<'a> = dyn FnMut(&[u8]) -> Described + 'a;

/// A [`DescribeFn`] that knows nothing (for tests that run bare test functions).
pub fn no_description(_bytes: &[u8]) -> Described {
    Described::default()
}

/// `test` with the configured timeout applied: a test case that runs longer fails.
pub(super) fn timed<'a>(
    timeout: Option<Duration>,
    test: &'a mut TestFn<'_>,
) -> impl FnMut(&mut Tape<'_>) -> Status + 'a {
    move |tape: &mut Tape<'_>| match timeout {
        None => test(tape),
        Some(limit) => {
            let start = Instant::now();
            let status = test(tape);
            if start.elapsed() > limit {
                Status::Interesting
            } else {
                status
            }
        }
    }
}

/// Confirms a failure, shrinks it and saves it: replays `original` (the recorded failing
/// tape) to confirm that it fails again (if not, the failure is flaky and kept unshrunk),
/// shrinks it within `config.shrink`, tells a timeout from a failure (the shrunk tape re-run
/// without the timeout), describes it (`describe`: the value and the message), and, when
/// `config.save` and a corpus is given, saves it to `regressions/` as a text file
/// ([`Regression`]) with the structure fingerprint of its tape. A failed save is kept in
/// [`Failure::save_error`], never lost silently.
pub fn settle(
    test: &mut TestFn<'_>,
    describe: &mut DescribeFn<'_>,
    found: Found,
    original: Recording,
    config: &Config,
    corpus: Option<&mut Corpus>,
) -> Failure {
    let (flaky, shrunk, shrink_calls) = {
        let mut timed = timed(config.timeout, &mut *test);
        let mut replay = ReplaySource::of(&original.choices);
        let mut tape = Tape::recording(&mut replay).with_max_choices(config.max_choices);
        let flaky = timed(&mut tape) != Status::Interesting;
        if flaky {
            (true, original.clone(), 0)
        } else {
            let r = Shrinker::new(&mut timed, original.clone(), config.shrink).run();
            (false, r.best, r.calls)
        }
    };
    let bytes = encoding::encode(&shrunk.choices);
    // Without the timeout, does the shrunk tape still fail? If not, it is a timeout.
    let timed_out = config.timeout.is_some() && !flaky && {
        let mut src = ReplaySource::of(&shrunk.choices);
        let mut tape = Tape::recording(&mut src).with_max_choices(config.max_choices);
        test(&mut tape) != Status::Interesting
    };
    let mut described = describe(&bytes);
    if timed_out {
        let limit = config.timeout.unwrap_or_default();
        described.message = Some(format!("timed out: ran longer than {limit:?}"));
    }
    let mut failure = Failure {
        found,
        original,
        shrunk,
        shrink_calls,
        bytes,
        described,
        saved: None,
        save_error: None,
        flaky,
        timed_out,
    };
    if config.save
        && let Some(c) = corpus
    {
        failure.save(c);
    }
    failure
}

/// Imports a failing tape from outside a run (a libFuzzer crash file, a tape a user saved):
/// decodes `bytes`, and when `test` fails on them, [`settle`]s the failure (shrunk, saved to
/// `regressions/`). `None` when the test does not fail on the tape (not
/// imported). `found` says where the tape came from ([`Found::Reuse`] with its path).
pub fn import(
    test: &mut TestFn<'_>,
    describe: &mut DescribeFn<'_>,
    bytes: &[u8],
    found: Found,
    config: &Config,
    corpus: Option<&mut Corpus>,
) -> Option<Failure> {
    let mut src = BytesSource::new(bytes);
    let mut tape = Tape::recording(&mut src).with_max_choices(config.max_choices);
    let status = timed(config.timeout, &mut *test)(&mut tape);
    if status != Status::Interesting {
        return None;
    }
    let original = tape.finish();
    Some(settle(test, describe, found, original, config, corpus))
}

impl Failure {
    /// Saves the failure to `corpus`'s `regressions/` (a text file: the value, the message,
    /// the tape and its structure fingerprint); records where it went ([`Failure::saved`])
    /// or why it could not ([`Failure::save_error`], with the path and the OS error).
    pub fn save(&mut self, corpus: &mut Corpus) {
        let regression = Regression {
            property: String::new(),
            generator: self.shrunk.structure(),
            value: self.described.value.clone(),
            failure: self.described.message.clone(),
            tape: self.bytes.clone(),
        };
        match corpus.save_regression(&regression) {
            Ok(p) => self.saved = Some(p),
            Err(e) => self.save_error = Some(e.to_string()),
        }
    }
}
