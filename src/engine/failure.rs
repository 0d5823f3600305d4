//! The one confirm-shrink-save path: every failure a search finds, every failing saved tape,
//! every test case that killed an earlier run and every libFuzzer crash imported goes through
//! [`settle`] (or, for a test case that kills its process, [`settle_isolated`]).

use super::{Config, Failure, Found, Isolated, Subject};
use crate::corpus::{Corpus, Flight, Regression};
use crate::shrink::{Passed, Shrinker};
use crate::tape::{BytesSource, Recording, ReplaySource, Status, Tape, encoding};
use std::collections::HashSet;
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

/// `subject`'s test with the configured timeout applied: a test case that runs longer fails.
pub(super) fn timed<'a>(
    timeout: Option<Duration>,
    subject: &'a mut dyn Subject,
) -> impl FnMut(&mut Tape<'_>) -> Status + 'a {
    move |tape: &mut Tape<'_>| match timeout {
        None => subject.run(tape),
        Some(limit) => {
            let start = Instant::now();
            let status = subject.run(tape);
            if start.elapsed() > limit {
                Status::Interesting
            } else {
                status
            }
        }
    }
}

/// How many times [`settle`] re-runs a failing tape to confirm it, times the subject's
/// [`Subject::attempts`]: a failure that shows only now and then (a race between threads, as
/// in a concurrent state machine test) is shrunk when one re-run of these fails, and called
/// flaky only when none does. A deterministic failure is confirmed by the first.
pub const CONFIRM_ATTEMPTS: usize = 3;

/// Confirms a failure, shrinks it and saves it: replays `original` (the recorded failing
/// tape) up to [`CONFIRM_ATTEMPTS`] times to confirm that it fails again (if it never does,
/// the failure is flaky and kept unshrunk),
/// shrinks it within `config.shrink`, tells a timeout from a failure (the shrunk tape re-run
/// without the timeout), describes it ([`Subject::describe`]: the value and the message), and,
/// when `config.save` and a corpus is given, saves it to `regressions/` as a text file
/// ([`Regression`]) with the structure fingerprint of its tape. A failed save is kept in
/// [`Failure::save_error`], never lost silently.
pub fn settle(
    subject: &mut dyn Subject,
    found: Found,
    original: Recording,
    config: &Config,
    corpus: Option<&mut Corpus>,
) -> Failure {
    config.arm_allocation_limit();
    settle_watched(subject, found, original, config, corpus, None, None)
}

/// [`settle`], with the run's flight record (and the watchdog reading it) on: it holds the
/// failing tape while each confirmation and shrink candidate runs, so that a candidate that
/// hangs (the watchdog ends the process) or kills the process leaves the failure for the
/// next run, which shrinks it again in processes of their own ([`settle_isolated`]).
/// `passed`: the valid test cases run before it, which the shrink need not run again (a
/// deterministic subject's only: see [`Shrinker::with_passed`]).
pub(super) fn settle_watched(
    subject: &mut dyn Subject,
    found: Found,
    original: Recording,
    config: &Config,
    corpus: Option<&mut Corpus>,
    mut flight: Option<&mut Flight>,
    passed: Option<&Passed>,
) -> Failure {
    let attempts = subject.attempts();
    if let Some(f) = flight.as_deref_mut() {
        let indices: Vec<u64> = original
            .choices
            .iter()
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect();
        f.begin_shrink(&indices);
    }
    let (flaky, shrunk, shrink_calls, shrink_budget_exhausted) =
        confirm_and_shrink(subject, &original, config, flight, attempts, passed);
    let bytes = encoding::encode(&shrunk.choices);
    // Without the timeout, does the shrunk tape still fail? If not, it is a timeout.
    let timed_out = config.timeout.is_some() && !flaky && {
        let mut src = ReplaySource::of(&shrunk.choices);
        let mut tape = Tape::recording(&mut src).with_max_choices(config.max_choices);
        subject.run(&mut tape) != Status::Interesting
    };
    let mut described = subject.describe(&bytes);
    // A racy failure may not show on the describing run: run it again, as the shrink did.
    if !flaky {
        for _ in 1..attempts {
            if described.message.is_some() {
                break;
            }
            described = subject.describe(&bytes);
        }
    }
    if timed_out {
        let limit = config.timeout.unwrap_or_default();
        described.message = Some(format!("timed out: ran longer than {limit:?}"));
    }
    let mut failure = Failure {
        found,
        original,
        shrunk,
        shrink_calls,
        shrink_budget_exhausted,
        bytes,
        described,
        isolated: false,
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

/// [`settle_watched`]'s first half: the failure confirmed by replaying `original` (up to
/// `CONFIRM_ATTEMPTS × attempts` times), then shrunk, each candidate in the flight record.
/// Returns whether it was flaky (never failed again), the shrunk recording, the shrink's
/// calls and whether its budget ran out.
fn confirm_and_shrink(
    subject: &mut dyn Subject,
    original: &Recording,
    config: &Config,
    mut flight: Option<&mut Flight>,
    attempts: usize,
    passed: Option<&Passed>,
) -> (bool, Recording, u64, bool) {
    let mut candidates = 0u64;
    // The confirming run records the generators' suggestions too (see
    // `Tape::with_suggestions`), so the shrink can use them from its first pass.
    let mut start = None;
    let flaky = {
        let mut timed = watched(subject, config, flight.as_deref_mut(), &mut candidates);
        !(0..CONFIRM_ATTEMPTS * attempts.max(1)).any(|_| {
            let mut replay = ReplaySource::of(&original.choices);
            let mut tape = Tape::recording(&mut replay)
                .with_max_choices(config.max_choices)
                .with_suggestions();
            let failed = timed(&mut tape) == Status::Interesting;
            let rec = tape.finish();
            if failed && rec.choices == original.choices {
                start = Some(rec);
            }
            failed
        })
    };
    if flaky {
        return (true, original.clone(), 0, false);
    }
    // The subject may remember the values that pass in the shrink (see
    // `Subject::shrinking`): not while confirming (a failure that shows on some runs gets
    // every replay), nor with a timeout (a slow run that passes fails here, out of its sight).
    subject.shrinking(config.timeout.is_none());
    let mut timed = watched(subject, config, flight, &mut candidates);
    // A failure that shows on some runs only: a candidate that passes is run again (its
    // own choices) before it counts as passing.
    let mut retried = |tape: &mut Tape<'_>| {
        let status = timed(tape);
        if status != Status::Valid || attempts <= 1 {
            return status;
        }
        let choices = tape.choices().to_vec();
        for _ in 1..attempts {
            let mut replay = ReplaySource::of(&choices);
            let mut again = Tape::recording(&mut replay).with_max_choices(config.max_choices);
            if timed(&mut again) == Status::Interesting {
                return Status::Interesting;
            }
        }
        status
    };
    let start = start.unwrap_or_else(|| original.clone());
    let mut shrinker = Shrinker::new(&mut retried, start, config.shrink);
    // A test that fails on some runs only may have passed by luck.
    if let Some(p) = passed.filter(|_| attempts <= 1) {
        shrinker = shrinker.with_passed(p);
    }
    let mut r = shrinker.run();
    let mut calls = r.calls;
    // A racy candidate may pass all its attempts and be cached as passing: shrink again
    // from the result, with a fresh cache, while that still finds something.
    for _ in 1..attempts {
        if r.budget_exhausted {
            break;
        }
        let again = Shrinker::new(&mut retried, r.best.clone(), config.shrink).run();
        calls += again.calls;
        let better = again.best.choices != r.best.choices;
        r = again;
        if !better {
            break;
        }
    }
    drop(timed);
    subject.shrinking(false);
    (false, r.best, calls, r.budget_exhausted)
}

/// `subject`'s test with the configured timeout, each test case marked in the flight record
/// as the next shrink candidate (`candidates` counts them).
fn watched<'a>(
    subject: &'a mut dyn Subject,
    config: &Config,
    mut flight: Option<&'a mut Flight>,
    candidates: &'a mut u64,
) -> impl FnMut(&mut Tape<'_>) -> Status + 'a {
    let mut unwatched = timed(config.timeout, subject);
    move |tape: &mut Tape<'_>| {
        *candidates += 1;
        if let Some(f) = flight.as_deref_mut() {
            f.candidate(*candidates);
        }
        let status = unwatched(tape);
        if let Some(f) = flight.as_deref_mut() {
            f.end();
        }
        status
    }
}

/// The recording `subject`'s generator makes of `bytes` (the generator only: safe for a
/// test case that kills the process), with its status and the generators' suggestions for a
/// shrink.
fn generated(subject: &mut dyn Subject, bytes: &[u8], config: &Config) -> (Status, Recording) {
    let mut src = BytesSource::new(bytes);
    let mut tape = Tape::recording(&mut src)
        .with_max_choices(config.max_choices)
        .with_suggestions();
    let status = subject.generate(&mut tape);
    (status, tape.finish())
}

/// How many shrink candidates that hang (each costs the timeout) [`settle_isolated`] runs
/// before it stops shrinking and reports the smallest failure so far: recovering from a hang
/// takes at most about this many timeouts.
pub const HANGING_CANDIDATES: usize = 8;

/// [`settle`] for a test case that kills its process (an abort, a stack overflow, an
/// allocation failure, a hang): every run of the test happens in a process of its own
/// ([`Subject::isolated`], killed after `config.timeout`), and the loop records tapes with the
/// generator alone. The failure is confirmed, shrunk, described (the value by
/// [`Subject::render`], the message by the isolated run) and saved as a regression marked
/// `isolate`, which later runs replay in a process of their own too. A subject that cannot
/// isolate gives the failure unconfirmed and unshrunk. A shrink candidate whose value renders
/// ([`Subject::render`]) as one whose isolated run passed earlier in the shrink is taken as
/// passing without another process.
pub fn settle_isolated(
    subject: &mut dyn Subject,
    found: Found,
    bytes: &[u8],
    config: &Config,
    corpus: Option<&mut Corpus>,
) -> Failure {
    config.arm_allocation_limit();
    let (_, original) = generated(subject, bytes, config);
    let start = encoding::encode(&original.choices);
    let first = subject.isolated(&start, config.timeout);
    let confirmed = first
        .as_ref()
        .is_some_and(|i| i.status == Status::Interesting);
    let mut message = first.as_ref().and_then(|i| i.message.clone());
    // A candidate that fails another way (a hang while the failure is a crash or a panic, or
    // the other way round) is another failure: kept aside, not shrunk into.
    let timed_out = |i: &Isolated| i.timed_out;
    let kind = first.as_ref().map(timed_out);
    let mut other: Option<(Vec<u8>, Option<String>)> = None;
    // Each candidate that hangs costs the whole timeout: after HANGING_CANDIDATES of them,
    // shrinking stops where it is (and says its budget ran out).
    let mut hanging = 0;
    // The values (as the subject renders them) whose isolated run passed: a candidate that
    // builds one again is not run in a process again (see `Subject::shrinking`).
    let mut passed: HashSet<String> = HashSet::new();
    let (shrunk, shrink_calls, shrink_budget_exhausted) = if confirmed {
        let mut test = |tape: &mut Tape<'_>| {
            let status = subject.generate(tape);
            if status != Status::Valid || hanging >= HANGING_CANDIDATES {
                return status;
            }
            let bytes = encoding::encode(tape.choices());
            let value = subject.render(&bytes);
            if value.as_ref().is_some_and(|v| passed.contains(v)) {
                return Status::Valid;
            }
            match subject.isolated(&bytes, config.timeout) {
                None => Status::Valid,
                Some(i) => {
                    hanging += usize::from(timed_out(&i));
                    if i.status == Status::Interesting && Some(timed_out(&i)) != kind {
                        other.get_or_insert((bytes, i.message));
                        Status::Valid
                    } else {
                        if i.status == Status::Valid
                            && let Some(v) = value
                        {
                            passed.insert(v);
                        }
                        i.status
                    }
                }
            }
        };
        let r = Shrinker::new(&mut test, original.clone(), config.shrink).run();
        let stopped = hanging >= HANGING_CANDIDATES;
        (r.best, r.calls, r.budget_exhausted || stopped)
    } else {
        (original.clone(), 0, false)
    };
    let bytes = encoding::encode(&shrunk.choices);
    if confirmed && let Some(i) = subject.isolated(&bytes, config.timeout) {
        message = i.message.or(message);
    }
    if first.is_none() {
        message = Some(
            "killed an earlier run; not replayed (this test cannot run in a process of its own)"
                .into(),
        );
    }
    let mut failure = Failure {
        found,
        original,
        shrunk,
        shrink_calls,
        shrink_budget_exhausted,
        described: super::Described {
            value: subject.render(&bytes),
            message,
        },
        bytes,
        isolated: true,
        saved: None,
        save_error: None,
        flaky: first.is_some() && !confirmed,
        timed_out: confirmed && kind == Some(true),
    };
    if config.save
        && let Some(c) = corpus
    {
        failure.save(c);
        if let Some((bytes, why)) = other {
            save_other(subject, &bytes, why, config, c);
        }
    }
    failure
}

/// Saves a shrink candidate that failed another way than the failure being shrunk (a hang
/// found while shrinking a crash) as a regression of its own, unshrunk, and says so.
fn save_other(
    subject: &mut dyn Subject,
    bytes: &[u8],
    why: Option<String>,
    config: &Config,
    corpus: &mut Corpus,
) {
    let (_, rec) = generated(subject, bytes, config);
    let regression = regression(&rec, subject.render(bytes), why.clone(), true, bytes);
    let why = why.unwrap_or_else(|| "failed".into());
    match corpus.save_regression(&regression) {
        Ok(p) => config.reporter.warning(&format!(
            "a shrink candidate failed another way ({why}): kept as a regression of its own, {}; the next runs replay it first",
            p.display()
        )),
        Err(e) => config.reporter.warning(&format!(
            "a shrink candidate failed another way ({why}), and could not be saved: {e}"
        )),
    }
}

/// Imports a failing tape from outside a run (a libFuzzer crash file, a tape a user saved):
/// decodes `bytes`, and when the test fails on them, [`settle`]s the failure (shrunk, saved
/// to `regressions/`). `None` when the test does not fail on the tape (not imported).
/// `found` says where the tape came from ([`Found::Reuse`] with its path).
pub fn import(
    subject: &mut dyn Subject,
    bytes: &[u8],
    found: Found,
    config: &Config,
    mut corpus: Option<&mut Corpus>,
    isolate_first: bool,
) -> Option<Failure> {
    config.arm_allocation_limit();
    if let Some(c) = corpus.as_deref_mut() {
        super::migrate_corpus(c, &mut *subject, config.max_choices, &*config.reporter);
    }
    // A crash file may kill the process that runs it (an abort, a stack overflow, a
    // sanitizer's report) or hang it: run first in a process of its own, a tape that dies or
    // runs over the timeout there is confirmed and shrunk in processes of their own.
    if isolate_first
        && let Some(i) = subject.isolated(bytes, config.timeout)
        && i.status == Status::Interesting
        && (i.crashed || i.timed_out)
    {
        return Some(settle_isolated(subject, found, bytes, config, corpus));
    }
    let mut src = BytesSource::new(bytes);
    let mut tape = Tape::recording(&mut src).with_max_choices(config.max_choices);
    let status = timed(config.timeout, &mut *subject)(&mut tape);
    if status != Status::Interesting {
        return None;
    }
    let original = tape.finish();
    Some(settle(subject, found, original, config, corpus))
}

impl Failure {
    /// Saves the failure to `corpus`'s `regressions/` (a text file: the value, the message,
    /// the tape and its structure fingerprint); records where it went ([`Failure::saved`])
    /// or why it could not ([`Failure::save_error`], with the path and the OS error).
    pub fn save(&mut self, corpus: &mut Corpus) {
        let regression = regression(
            &self.shrunk,
            self.described.value.clone(),
            self.described.message.clone(),
            self.isolated,
            &self.bytes,
        );
        match corpus.save_regression(&regression) {
            Ok(p) => self.saved = Some(p),
            Err(e) => self.save_error = Some(e.to_string()),
        }
    }
}

/// The regression file of the failing tape `bytes` (recorded as `rec`), in today's encoding;
/// the corpus fills in the property's name.
fn regression(
    rec: &crate::tape::Recording,
    value: Option<String>,
    failure: Option<String>,
    isolate: bool,
    bytes: &[u8],
) -> Regression {
    Regression {
        property: String::new(),
        generator: rec.structure(),
        value,
        failure,
        isolate,
        tape: bytes.to_vec(),
        encoding: crate::tape::ENCODING_VERSION,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{Gen, ints, vecs};

    /// A subject whose every test case of a list adding up to more than 500 hangs in its
    /// process of its own (shrinking it to the minimum takes dozens of hanging steps).
    struct Hangs {
        isolated_runs: usize,
    }

    impl Subject for Hangs {
        fn run(&mut self, tape: &mut Tape<'_>) -> Status {
            self.generate(tape)
        }
        fn generate(&mut self, tape: &mut Tape<'_>) -> Status {
            match vecs(ints::<u8>(..), 0..=50).generate(tape) {
                Ok(_) => Status::Valid,
                Err(_) => Status::Overrun,
            }
        }
        fn isolated(&mut self, bytes: &[u8], _: Option<Duration>) -> Option<Isolated> {
            self.isolated_runs += 1;
            let mut src = BytesSource::new(bytes);
            let v = vecs(ints::<u8>(..), 0..=50).generate(&mut Tape::new(&mut src, false));
            let hangs = v.is_ok_and(|v| v.iter().map(|&x| u32::from(x)).sum::<u32>() > 500);
            Some(if hangs {
                Isolated::hang(Duration::from_millis(1))
            } else {
                Isolated {
                    status: Status::Valid,
                    message: None,
                    timed_out: false,
                    crashed: false,
                }
            })
        }
    }

    /// A subject that crashes on a list of three or more `true`s, whose rendered value drops
    /// a draw the list ignores, and counts the isolated runs of each passing value.
    #[derive(Default)]
    struct Crashes {
        runs: std::collections::HashMap<String, usize>,
    }

    impl Crashes {
        fn value(bytes: &[u8]) -> Option<Vec<bool>> {
            let mut src = BytesSource::new(bytes);
            let g = (ints::<u16>(..), vecs(crate::generators::bools(), 0..=10));
            g.generate(&mut Tape::new(&mut src, false))
                .ok()
                .map(|(_, v)| v)
        }
    }

    impl Subject for Crashes {
        fn run(&mut self, tape: &mut Tape<'_>) -> Status {
            self.generate(tape)
        }
        fn generate(&mut self, tape: &mut Tape<'_>) -> Status {
            let g = (ints::<u16>(..), vecs(crate::generators::bools(), 0..=10));
            match g.generate(tape) {
                Ok(_) => Status::Valid,
                Err(_) => Status::Overrun,
            }
        }
        fn render(&mut self, bytes: &[u8]) -> Option<String> {
            Crashes::value(bytes).map(|v| format!("{v:?}"))
        }
        fn isolated(&mut self, bytes: &[u8], _: Option<Duration>) -> Option<Isolated> {
            let v = Crashes::value(bytes)?;
            let crashes = v.iter().filter(|&&b| b).count() >= 3;
            if !crashes {
                *self.runs.entry(format!("{v:?}")).or_default() += 1;
            }
            Some(Isolated {
                status: if crashes {
                    Status::Interesting
                } else {
                    Status::Valid
                },
                message: None,
                timed_out: false,
                crashed: crashes,
            })
        }
    }

    #[test]
    fn a_crash_shrinks_without_running_a_passing_value_twice() {
        use crate::tape::{Fallback, ReplaySource};
        // `(999, [true, false, true, true, false, true])`: a coin and a bool per element.
        let indices = vec![999, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0];
        let mut src = ReplaySource::new(indices, Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        let g = (ints::<u16>(..), vecs(crate::generators::bools(), 0..=10));
        g.generate(&mut tape).unwrap();
        let bytes = encoding::encode(tape.choices());
        let mut subject = Crashes::default();
        let config = Config {
            save: false,
            ..Config::default()
        };
        let f = settle_isolated(&mut subject, Found::Generate(1), &bytes, &config, None);
        assert_eq!(
            Crashes::value(&encoding::encode(&f.shrunk.choices)),
            Some(vec![true, true, true])
        );
        let twice: Vec<_> = subject.runs.iter().filter(|&(_, &n)| n > 1).collect();
        assert!(twice.is_empty(), "ran again in a process: {twice:?}");
        assert!(!subject.runs.is_empty());
    }

    #[test]
    fn shrinking_a_hang_stops_after_so_many_hanging_candidates() {
        // A long list of large numbers: a full shrink would take dozens of hanging steps.
        let mut rng = crate::tape::RandomSource::new(1);
        let mut tape = Tape::recording(&mut rng);
        let v: Vec<u8> = vecs(ints::<u8>(200..=255), 40..=50)
            .generate(&mut tape)
            .unwrap();
        assert!(v.len() >= 40);
        let bytes = encoding::encode(tape.choices());
        let mut subject = Hangs { isolated_runs: 0 };
        let config = Config {
            save: false,
            ..Config::default()
        };
        let f = settle_isolated(&mut subject, Found::Generate(1), &bytes, &config, None);
        assert!(f.shrink_budget_exhausted, "said to be maybe not minimal");
        // The first replay, the hanging candidates, the final re-run; candidates that pass
        // are cheap and not counted against the budget.
        let hanging_runs = subject.isolated_runs;
        assert!(hanging_runs > HANGING_CANDIDATES, "{hanging_runs}");
        assert!(
            f.shrunk.choices.len() < f.original.choices.len(),
            "it shrank before it stopped"
        );
    }
}
