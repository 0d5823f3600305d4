//! The run loop.

use super::{Config, Failure, Found, RunReport};
use crate::corpus::{Corpus, Folder};
use crate::shrink::Shrinker;
use crate::tape::{
    BytesSource, RandomSource, Recording, ReplaySource, Rng, Source, Status, Tape, encoding,
};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// A test function: runs the property on the value generated from the tape.
pub type TestFn<'a> = dyn FnMut(&mut Tape<'_>) -> Status + 'a;

fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    Rng::derive(nanos, std::process::id() as u64)
}

/// `test` with the configured timeout applied: a test case that runs longer fails.
fn with_timeout<'a>(
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

struct Runner<'c, 't, 'f> {
    config: &'c Config,
    test: &'t mut TestFn<'f>,
}

impl Runner<'_, '_, '_> {
    /// Runs one test case. Returns its status, its record (empty unless `record`) and its
    /// fingerprint.
    fn call(&mut self, source: &mut dyn Source, record: bool) -> (Status, Recording, u64) {
        let mut tape = Tape::new(source, record).with_max_choices(self.config.max_choices);
        let status = (self.test)(&mut tape);
        let fingerprint = tape.fingerprint();
        (status, tape.finish(), fingerprint)
    }
}

/// Runs `test` through the phases: reuse (`regressions/` then `corpus/` of `corpus`, if
/// given and `config.reuse`), generate (random tapes from the seed until `config.tests`,
/// `config.seconds` or a failure), shrink, and save the shrunk failure to `regressions/`.
pub fn run(config: &Config, mut corpus: Option<&mut Corpus>, test: &mut TestFn<'_>) -> RunReport {
    let started = Instant::now();
    let seed = config.seed.unwrap_or_else(fresh_seed);
    let mut report = RunReport {
        seed,
        ..RunReport::default()
    };
    let mut timed = with_timeout(config.timeout, &mut *test);
    let mut runner = Runner {
        config,
        test: &mut timed,
    };

    let mut found: Option<(Found, Recording)> = None;
    if config.reuse
        && let Some(c) = corpus.as_deref_mut()
    {
        'reuse: for folder in [Folder::Regressions, Folder::Corpus] {
            for entry in c.load(folder) {
                report.replayed += 1;
                let mut src = BytesSource::new(&entry.bytes);
                let (status, rec, _) = runner.call(&mut src, true);
                if status == Status::Interesting {
                    found = Some((Found::Reuse(entry.path), rec));
                    break 'reuse;
                }
            }
        }
    }

    if found.is_none() {
        // A budget too large to represent is no deadline at all.
        let deadline = config
            .seconds
            .and_then(|s| super::seconds(s.max(0.0)))
            .and_then(|d| started.checked_add(d));
        let mut unique = HashSet::new();
        let mut last_progress = Instant::now();
        let mut i = 0u64;
        while i < config.tests {
            if i.is_multiple_of(64) {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                if config.progress && last_progress.elapsed() >= Duration::from_secs(1) {
                    last_progress = Instant::now();
                    eprintln!(
                        "tapefuzz: {} tests, {} valid, {} unique valid, {:.1}s",
                        i,
                        report.valid,
                        unique.len(),
                        started.elapsed().as_secs_f64()
                    );
                }
            }
            let test_seed = Rng::derive(seed, i);
            let mut src = RandomSource::new(test_seed);
            let (status, _, fingerprint) = runner.call(&mut src, false);
            i += 1;
            match status {
                Status::Valid => {
                    report.valid += 1;
                    unique.insert(fingerprint);
                }
                Status::Invalid => report.invalid += 1,
                Status::Overrun => report.overrun += 1,
                Status::Interesting => {
                    // Values are a function of the per-test seed: re-run recording.
                    let mut src = RandomSource::new(test_seed);
                    let (_, rec, _) = runner.call(&mut src, true);
                    found = Some((Found::Generate(i), rec));
                    break;
                }
            }
        }
        report.tests = i;
        report.unique_valid = unique.len() as u64;
    }

    if let Some((where_found, original)) = found {
        // Confirm the failure on the recorded tape before shrinking it.
        let mut replay = ReplaySource::of(&original.choices);
        let (status, _, _) = runner.call(&mut replay, true);
        let flaky = status != Status::Interesting;
        let (shrunk, shrink_calls) = if flaky {
            (original.clone(), 0)
        } else {
            let r = Shrinker::new(&mut *runner.test, original.clone(), config.shrink).run();
            (r.best, r.calls)
        };
        let bytes = encoding::encode(&shrunk.choices);
        // Without the timeout, does the shrunk tape still fail? If not, it is a timeout.
        // (The timed wrapper borrows `test` until it is dropped.)
        drop(timed);
        let timed_out = config.timeout.is_some() && !flaky && {
            let mut src = ReplaySource::of(&shrunk.choices);
            let mut tape = Tape::recording(&mut src).with_max_choices(config.max_choices);
            test(&mut tape) != Status::Interesting
        };
        let mut failure = Failure {
            found: where_found,
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
            failure.save(c, "random");
        }
        report.failure = Some(failure);
    }
    report.seconds = started.elapsed().as_secs_f64();
    report
}
