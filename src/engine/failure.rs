//! The one confirm-shrink-save path: every failure a search finds, every failing saved tape
//! and every libFuzzer crash imported goes through [`settle`].

use super::{Config, Failure, Found, TestFn};
use crate::corpus::{Corpus, EntryMeta, Folder};
use crate::shrink::Shrinker;
use crate::tape::{BytesSource, Recording, ReplaySource, Status, Tape, encoding};
use std::time::{Duration, Instant};

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
/// without the timeout), and, when `config.save` and a corpus is given, saves the shrunk tape
/// to `regressions/` noting `strategy`. A failed save is kept in [`Failure::save_error`],
/// never lost silently.
pub fn settle(
    test: &mut TestFn<'_>,
    found: Found,
    original: Recording,
    config: &Config,
    corpus: Option<&mut Corpus>,
    strategy: &str,
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
    let mut failure = Failure {
        found,
        original,
        shrunk,
        shrink_calls,
        bytes,
        saved: None,
        save_error: None,
        flaky,
        timed_out,
    };
    if config.save
        && let Some(c) = corpus
    {
        failure.save(c, strategy);
    }
    failure
}

/// Imports a failing tape from outside a run (a libFuzzer crash file, a tape a user saved):
/// decodes `bytes`, and when `test` fails on them, [`settle`]s the failure (shrunk, saved to
/// `regressions/` noting `strategy`). `None` when the test does not fail on the tape (not
/// imported). `found` says where the tape came from ([`Found::Reuse`] with its path).
pub fn import(
    test: &mut TestFn<'_>,
    bytes: &[u8],
    found: Found,
    config: &Config,
    corpus: Option<&mut Corpus>,
    strategy: &str,
) -> Option<Failure> {
    let mut src = BytesSource::new(bytes);
    let mut tape = Tape::recording(&mut src).with_max_choices(config.max_choices);
    let status = timed(config.timeout, &mut *test)(&mut tape);
    if status != Status::Interesting {
        return None;
    }
    let original = tape.finish();
    Some(settle(test, found, original, config, corpus, strategy))
}

impl Failure {
    /// Saves the shrunk tape to `corpus`'s `regressions/`, noting `strategy` in the manifest;
    /// records where it went ([`Failure::saved`]) or why it could not ([`Failure::save_error`]).
    pub fn save(&mut self, corpus: &mut Corpus, strategy: &str) {
        let meta = EntryMeta {
            strategy: strategy.into(),
            status: "interesting".into(),
            ..EntryMeta::default()
        };
        match corpus.save(Folder::Regressions, &self.bytes, meta) {
            Ok(p) => self.saved = Some(p),
            Err(e) => {
                self.save_error = Some(format!(
                    "{}: {e}",
                    corpus.folder(Folder::Regressions).display()
                ))
            }
        }
    }
}
