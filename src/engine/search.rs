//! The search: what the run loop asks for each next test case, and tells how it ended.
//!
//! A search proposes a [`Source`] (a fresh one, a neighbour of a base tape, an edited tape
//! replayed, a learner…) and is told the [`Observation`] of the test case run on it. Everything
//! else — replaying saved tapes first, counting, deadlines, utilities, confirming, shrinking
//! and saving a failure, keeping tapes in `corpus/` — is the run loop's ([`super::run`]), so
//! a search is only its own idea. The searches and the registry of their names live above
//! the engine, which names none.

use crate::tape::{BytesSource, Fallback, RandomSource, Recording, ReplaySource, Source, Status};
use std::fmt;

/// What a run tells its search before anything runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    /// The run's seed: a search derives all its randomness from it, so a run is reproducible.
    pub seed: u64,
    /// Most counted test cases of the generate phase (`u64::MAX`: unbounded, a deadline
    /// ends the run).
    pub tests: u64,
    /// Most tapes the search may hand back to keep in `corpus/` ([`Finish::keep`]); 0 when
    /// the run saves nothing.
    pub keep: usize,
}

/// The source of a proposal: borrowed from the search (no allocation on the hot path) or
/// owned by the proposal.
enum Held<'a> {
    Borrowed(&'a mut dyn Source),
    Owned(Box<dyn Source + 'a>),
}

/// One test case to run: a source, whether the tape should be recorded, and whether it
/// counts as a test of the generate phase.
pub struct Proposal<'a> {
    source: Held<'a>,
    record: bool,
    counted: bool,
    seed: Option<u64>,
}

impl<'a> Proposal<'a> {
    /// A counted test case on `source`, not recorded (the fast path: the loop asks
    /// [`Search::replay`] when it needs the tape).
    pub fn new(source: &'a mut dyn Source) -> Proposal<'a> {
        Proposal {
            source: Held::Borrowed(source),
            record: false,
            counted: true,
            seed: None,
        }
    }

    /// [`Proposal::new`] over a source the proposal owns.
    pub fn boxed(source: Box<dyn Source + 'a>) -> Proposal<'a> {
        Proposal {
            source: Held::Owned(source),
            record: false,
            counted: true,
            seed: None,
        }
    }

    /// Records the tape: the [`Observation`] then carries the choices and spans.
    pub fn recorded(mut self) -> Proposal<'a> {
        self.record = true;
        self
    }

    /// A warm-up test case that the run does not count or tally (a learner taught a saved
    /// tape). A failure on it is still a failure.
    pub fn uncounted(mut self) -> Proposal<'a> {
        self.counted = false;
        self
    }

    /// Says that the source is a [`RandomSource`] made with `seed`: the run's flight record
    /// then keeps only the seed (three stores), not every index drawn, so that a test case that
    /// kills the process can be replayed. A search proposing a random source should say so.
    pub fn seeded(mut self, seed: u64) -> Proposal<'a> {
        self.seed = Some(seed);
        self
    }

    /// The seed [`Proposal::seeded`] gave.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Whether the tape is recorded.
    pub fn is_recorded(&self) -> bool {
        self.record
    }

    /// Whether the test case counts.
    pub fn is_counted(&self) -> bool {
        self.counted
    }

    /// The source to draw from.
    pub fn source(&mut self) -> &mut dyn Source {
        match &mut self.source {
            Held::Borrowed(s) => &mut **s,
            Held::Owned(s) => &mut **s,
        }
    }
}

/// How a test case ended, as a search sees it.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'a> {
    /// Its status.
    pub status: Status,
    /// A hash of every index drawn (equal tapes, equal fingerprints).
    pub fingerprint: u64,
    /// The recording, when the proposal asked for one (always in the reuse phase).
    pub recording: Option<&'a Recording>,
    /// The observer's characteristic ([`super::Observer::characteristic`]): the fingerprint
    /// itself in blackbox mode, a coverage trace in greybox mode.
    pub characteristic: u64,
    /// The observer's features of this test case ([`super::Observer::features`]; empty in
    /// blackbox mode).
    pub features: &'a [u64],
    /// The sum of the utility scores the property reported ([`super::total_score`]), if any.
    pub score: Option<f64>,
    /// The test's number in the generate phase (1-based; 0 in the reuse phase and for
    /// uncounted test cases).
    pub test: u64,
}

/// What a search asks of the loop after an outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing: go on.
    Continue,
    /// Re-run the (unrecorded) test case with recording and hand the recording to
    /// [`Search::recorded`] (a search keeps an unrecorded tape that reached new coverage).
    Record,
}

/// How to replay a test case: what a search answers [`Search::replay`] with, and what it
/// hands back to keep ([`Finish::keep`]). Owned and cheap to hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// A [`RandomSource`] with this seed.
    Seed(u64),
    /// These unforced indices ([`ReplaySource`], the simplest choices past their end).
    Indices(Vec<u64>),
    /// These bytes ([`BytesSource`]).
    Bytes(Vec<u8>),
}

impl Replay {
    /// A source that replays the test case.
    pub fn source(&self) -> Box<dyn Source + '_> {
        match self {
            Replay::Seed(s) => Box::new(RandomSource::new(*s)),
            Replay::Indices(i) => Box::new(ReplaySource::new(i.clone(), Fallback::Simplest)),
            Replay::Bytes(b) => Box::new(BytesSource::new(b)),
        }
    }
}

/// A named number a search or observer reports at the end of a run (`"kept"`,
/// `"features"`, …); the JSON summary and the CLI read the ones they know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    /// Its name.
    pub name: &'static str,
    /// Its value.
    pub value: u64,
}

/// What a search hands back at the end of the generate phase.
#[derive(Clone, Debug, Default)]
pub struct Finish {
    /// Tapes to add to `corpus/` (at most [`Start::keep`]): the loop replays each, and saves
    /// the valid ones `corpus/` does not hold yet.
    pub keep: Vec<Replay>,
    /// Whether the best tape of each utility label goes to `corpus/` too (a targeted search
    /// keeps its bests; plain runs, every `cargo test`, leave `corpus/` alone).
    pub keep_bests: bool,
    /// Numbers for the report ([`super::Report::stats`]).
    pub stats: Vec<Stat>,
    /// A sentence for a person, printed on stderr at the end of the run and kept in
    /// [`super::Report::note`]: what an exhaustive search proved ("no counterexample of
    /// size ≤ 12 exists"), or why it ran otherwise than asked.
    pub note: Option<String>,
}

/// Proposes test cases and learns from their outcomes: the one interface every strategy
/// implements. The loop calls, in order: [`Search::start`]; [`Search::reused`] for every
/// saved tape it replays; then, until the budget ends, a failure is found or `propose`
/// returns `None`: [`Search::propose`], the test case runs, [`Search::observe`] (and
/// [`Search::recorded`] when it asked for the recording); finally [`Search::finish`].
///
/// [`Search::replay`] may be asked right after `observe`, for the test case just observed,
/// when it ran without recording (the loop needs its tape: a failure, a best utility).
///
/// A search that ignores everything but `propose` and `replay` is a complete one (a fixed
/// list of tapes, say): reuse, counting, shrinking and saving come with the loop. Every
/// search should pass the public conformance suite ([`crate::conformance`]).
pub trait Search {
    /// The name reports and the JSON summary use.
    fn name(&self) -> &'static str;

    /// Called once, before the reuse phase.
    fn start(&mut self, start: &Start) {
        let _ = start;
    }

    /// A saved tape was replayed (recorded) in the reuse phase.
    fn reused(&mut self, outcome: &Observation<'_>) {
        let _ = outcome;
    }

    /// The next test case, or `None` when the search has nothing more to propose (the
    /// generate phase then ends, and the report says the search was exhausted).
    fn propose(&mut self) -> Option<Proposal<'_>>;

    /// How the last proposed test case ended.
    fn observe(&mut self, outcome: &Observation<'_>) -> Verdict {
        let _ = outcome;
        Verdict::Continue
    }

    /// The recording asked for by [`Verdict::Record`].
    fn recorded(&mut self, recording: Recording) {
        let _ = recording;
    }

    /// How to replay the last proposed test case, when it ran without recording (`None` for
    /// a recorded one).
    fn replay(&self) -> Option<Replay>;

    /// Whether the search climbs the utility values a property reports (`target(x)`,
    /// `minimize(x)`): when it does and the property reports none, the run warns that the
    /// search ran as random search. `false` by default.
    fn needs_utilities(&self) -> bool {
        false
    }

    /// A few words about the search's state for the progress line (empty by default).
    fn progress(&self) -> String {
        String::new()
    }

    /// The end of the generate phase: tapes to keep, and numbers for the report.
    fn finish(&mut self) -> Finish {
        Finish::default()
    }
}

/// A configured strategy: makes a fresh [`Search`] for each run. Settings types implement it
/// so a property holds its strategy as a value.
pub trait Strategy: fmt::Debug + Send + Sync {
    /// The strategy's name, as the registry, the CLI and the JSON summary spell it.
    fn name(&self) -> &'static str;

    /// A fresh search with these settings.
    fn search(&self) -> Box<dyn Search>;
}
