//! Runs one test case: the subject's test with its timeout, the observer around it, the
//! flight record before it, its notes to the statistics and the observability log.

use super::events;
use super::observability::{How, Log};
use super::{Config, Observer, Replay, Statistics, Subject};
use crate::corpus::{CrashedInput, Flight};
use crate::tape::{
    Fallback, RandomSource, Recording, ReplaySource, Source, Status, Tape, encoding,
};
use std::time::Instant;

/// What the flight record says about the test case about to run.
#[derive(Clone, Copy)]
pub(super) enum Flying {
    /// Nothing (re-runs for a recording).
    Not,
    /// A random test case: its number and seed.
    Seed(u64, u64),
    /// Test case number n: its indices are traced as drawn.
    Traced(u64),
}

/// What a test case is to the statistics and the observability log.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    /// A saved tape replayed in the reuse phase: tallied and logged.
    Replay,
    /// The n-th counted test case of the generate phase: tallied, timed and logged.
    Test(u64),
    /// An uncounted test case of the generate phase (a warm-up): logged only.
    Warmup,
    /// A re-run to record a tape already run: neither.
    Record,
}

/// Runs test cases: the subject's test with its timeout, the observer around it, the
/// flight record before it.
pub(super) struct Runner<'a> {
    pub(super) config: &'a Config,
    pub(super) subject: &'a mut dyn Subject,
    pub(super) observer: &'a mut dyn Observer,
    /// [`Observer::watches`], asked once.
    pub(super) watching: bool,
    pub(super) flight: Option<Flight>,
    /// Statistics or an observability log are on: each test case's notes are taken.
    pub(super) collect: bool,
    pub(super) stats: Option<Statistics>,
    pub(super) log: Option<Log>,
    /// The search's name (the log's `how_generated`).
    pub(super) strategy: &'static str,
}

impl Runner<'_> {
    /// Runs one test case: its status, its record (empty unless `record`), fingerprint and
    /// length ([`Tape::drawn`]).
    #[inline]
    pub(super) fn call(
        &mut self,
        source: &mut dyn Source,
        record: bool,
        flying: Flying,
        kind: Kind,
    ) -> (Status, Recording, u64, usize) {
        if self.watching {
            self.observer.before();
        }
        let trace = match (&mut self.flight, flying) {
            (Some(f), Flying::Seed(n, seed)) => {
                f.begin_seed(n, seed);
                None
            }
            (Some(f), Flying::Traced(n)) => Some(f.begin_trace(n)),
            _ => None,
        };
        let mut tape = Tape::new(source, record)
            .with_max_choices(self.config.max_choices)
            .with_trace(trace);
        let status = match self.config.timeout {
            None => self.subject.run(&mut tape),
            Some(limit) => {
                let start = Instant::now();
                let status = self.subject.run(&mut tape);
                if start.elapsed() > limit {
                    Status::Interesting
                } else {
                    status
                }
            }
        };
        let fingerprint = tape.fingerprint();
        let drawn = tape.drawn();
        let recording = tape.take_recording();
        if let Some(f) = &mut self.flight {
            f.end();
        }
        if self.collect {
            // One branch on the hot path; the notes are taken off it.
            self.collected(kind, status, drawn);
        }
        if self.watching {
            self.observer.after(fingerprint);
        }
        (status, recording, fingerprint, drawn)
    }

    /// Tallies and logs the notes of the test case just run (statistics or observability
    /// on: off the hot path).
    #[cold]
    #[inline(never)]
    fn collected(&mut self, kind: Kind, status: Status, drawn: usize) {
        let case = events::take_case();
        let (tallied, timed, how, test) = match kind {
            Kind::Replay => (true, false, How::Replay, 0),
            Kind::Test(n) => (true, true, How::Generated(self.strategy), n),
            Kind::Warmup => (false, false, How::Generated(self.strategy), 0),
            Kind::Record => return,
        };
        if tallied && let Some(s) = self.stats.as_mut() {
            s.tally(&case, drawn, timed);
        }
        if let Some(log) = self.log.as_mut() {
            let utilities = super::utility::peek_utilities();
            log.test_case(how, status, &case, &utilities, drawn, test);
        }
    }

    /// The observer's characteristic of the last test case.
    #[inline]
    pub(super) fn characteristic(&self, fingerprint: u64) -> u64 {
        if self.watching {
            self.observer.characteristic(fingerprint)
        } else {
            fingerprint
        }
    }

    /// The observer's features of the last test case.
    #[inline]
    pub(super) fn features(&self) -> &[u64] {
        if self.watching {
            self.observer.features()
        } else {
            &[]
        }
    }

    /// Replays `replay` recording, with the utilities it reports dropped.
    pub(super) fn record(&mut self, replay: &Replay) -> (Status, Recording) {
        let (status, rec, ..) = self.call(&mut *replay.source(), true, Flying::Not, Kind::Record);
        super::clear_utilities();
        (status, rec)
    }

    /// The tape of a dead run's test case, recorded by the generator alone.
    pub(super) fn crashed_tape(&mut self, input: &CrashedInput) -> Vec<u8> {
        let mut source: Box<dyn Source> = match input {
            CrashedInput::Seed(s) => Box::new(RandomSource::new(*s)),
            CrashedInput::Indices(i) => Box::new(ReplaySource::new(i.clone(), Fallback::Simplest)),
        };
        let mut tape = Tape::recording(&mut *source).with_max_choices(self.config.max_choices);
        self.subject.generate(&mut tape);
        encoding::encode(tape.choices())
    }
}
