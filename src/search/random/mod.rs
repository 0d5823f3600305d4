//! The `random` strategy: independent random tapes, one per test case, each from a seed
//! derived from the run's seed and the test's number. The hot path of random testing: the
//! tape is not recorded (values are a function of the per-test seed, so a failure is
//! re-run with recording by seed).
//!
//! The first test cases of a run are small: the first [`ramp_length`] of them draw from a
//! [`SizedSource`] whose size grows from 0 (collections at their smallest, recursive values
//! leaves, integers next to the simplest) to 1, as QuickCheck's size parameter grows and as
//! Hypothesis starts with small test cases. A failure that a small value shows is then found
//! small, and shrinks in a few calls; the rest of the run is the plain random source. Those
//! first test cases are recorded (a failure among them is not re-run by seed).

use crate::engine::{Proposal, Replay, Search, Start, Strategy};
use crate::env::{ConfigError, Env};
use crate::tape::{RandomSource, Rng, SizedSource};
use std::sync::Arc;

/// How many test cases at the start of a run of at most `tests` draw from a growing
/// [`SizedSource`]: a tenth of the run, at most 50 (Hypothesis's share of small test cases).
/// A run of 256 tests (the default) starts with 25; a run of fewer than 10 has none.
pub fn ramp_length(tests: u64) -> u64 {
    (tests / 10).min(50)
}

/// The [`SizedSource`] of test case `i` (from 0) of a ramp of `ramp` test cases: size
/// `i / ramp`; its seed is the one the plain random source would have had.
pub fn ramp_source(seed: u64, i: u64, ramp: u64) -> SizedSource {
    SizedSource::new(Rng::derive(seed, i), i as f64 / ramp.max(1) as f64)
}

/// The `random` strategy (no settings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Random;

impl Strategy for Random {
    fn name(&self) -> &'static str {
        "random"
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(RandomSearch::default())
    }
}

/// The search of [`Random`].
#[derive(Debug)]
pub struct RandomSearch {
    seed: u64,
    next: u64,
    last: u64,
    /// Test cases that start the run small ([`ramp_length`]).
    ramp: u64,
    source: RandomSource,
    sized: SizedSource,
}

impl Default for RandomSearch {
    fn default() -> RandomSearch {
        RandomSearch {
            seed: 0,
            next: 0,
            last: 0,
            ramp: 0,
            source: RandomSource::new(0),
            sized: SizedSource::new(0, 0.0),
        }
    }
}

impl Search for RandomSearch {
    fn name(&self) -> &'static str {
        "random"
    }

    fn start(&mut self, start: &Start) {
        self.seed = start.seed;
        self.next = 0;
        self.ramp = ramp_length(start.tests);
    }

    #[inline]
    fn propose(&mut self) -> Option<Proposal<'_>> {
        let i = self.next;
        self.next += 1;
        if i < self.ramp {
            self.sized = ramp_source(self.seed, i, self.ramp);
            return Some(Proposal::new(&mut self.sized).recorded());
        }
        self.last = Rng::derive(self.seed, i);
        self.source = RandomSource::new(self.last);
        Some(Proposal::new(&mut self.source).seeded(self.last))
    }

    fn replay(&self) -> Option<Replay> {
        // The ramp's test cases are recorded: nothing to replay.
        (self.next > self.ramp).then_some(Replay::Seed(self.last))
    }
}

/// The registry's entry.
pub(crate) fn from_env(_env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(Random))
}
