//! The `random` strategy: independent random tapes, one per test case, each from a seed
//! derived from the run's seed and the test's number (after the small start below). The hot
//! path of random testing: the tape is not recorded (values are a function of the per-test seed, so a failure is
//! re-run with recording by seed).
//!
//! A run's first test case is the simplest one: every choice its simplest (Hypothesis runs
//! this test case first too). A bug the simplest value shows is found at once and needs no
//! shrink; otherwise the shrink knows the simplest value passes and never runs it again
//! (its attempts that land on it are answered from the passed test cases).
//!
//! The test cases after it are small: the first [`ramp_length`] of them draw from a
//! [`SizedSource`] whose size grows from 0 (collections at their smallest, recursive values
//! leaves, integers next to the simplest) to 1, as QuickCheck's size parameter grows and as
//! Hypothesis starts with small test cases. A failure that a small value shows is then found
//! small, and shrinks in a few calls; the rest of the run is the plain random source. After
//! each of those first test cases comes a chain of [`DUPLICATES`] test cases, each the one
//! before with one part copied over another of its kind ([`duplicate`]): equal elements,
//! strings and characters (three alike after two copies), which chance rarely gives; then,
//! when it has [`TRUNCATED_FROM`] free choices or more, one [`truncation`] of it: its first
//! few choices with the simplest after them (one element of its list, the rest at their
//! simplest), as Hypothesis zero-extends the new prefixes of its first test cases. Those test cases are recorded (a failure among them is not re-run
//! by seed) and counted.

mod duplicate;

pub use duplicate::duplicate;

use crate::engine::{Observation, Proposal, Replay, Search, Start, Strategy, Verdict};
use crate::env::{ConfigError, Env};
use crate::tape::{Fallback, RandomSource, Recording, ReplaySource, Rng, SizedSource, Status};
use std::sync::Arc;

/// Duplicates ([`duplicate`]) tried after each of a run's first, small test cases, each
/// made from the one before.
pub const DUPLICATES: usize = 2;

/// The fewest unforced choices a small test case has for a [`truncation`] of it to run.
pub const TRUNCATED_FROM: usize = 4;

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
    /// Whether the simplest test case is still to run (the first proposal of a run).
    simplest: bool,
    source: RandomSource,
    sized: SizedSource,
    /// The next duplicate to run (and how many copies it holds), and the source of the one
    /// running.
    pending: Option<(Vec<u64>, usize)>,
    copy: ReplaySource,
    /// The next truncation to run ([`truncation`]), after the duplicates.
    tail: Option<Vec<u64>>,
    /// What the last proposal was.
    last_was: Drawn,
    /// Chooses the parts a duplicate copies.
    rng: Rng,
    /// Chooses where a truncation cuts (apart from `rng`: the duplicates stay as they were).
    cuts: Rng,
}

/// Where the last proposed test case came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drawn {
    /// The simplest test case.
    Simplest,
    Random,
    Small,
    /// A duplicate holding this many copies.
    Duplicate(usize),
    /// A truncation of a small test case.
    Truncated,
}

impl Default for RandomSearch {
    fn default() -> RandomSearch {
        RandomSearch {
            seed: 0,
            next: 0,
            last: 0,
            ramp: 0,
            simplest: false,
            source: RandomSource::new(0),
            sized: SizedSource::new(0, 0.0),
            pending: None,
            tail: None,
            copy: ReplaySource::new(Vec::new(), Fallback::Simplest),
            last_was: Drawn::Random,
            rng: Rng::new(0),
            cuts: Rng::new(0),
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
        self.simplest = true;
        self.pending = None;
        self.tail = None;
        self.rng = Rng::new(Rng::derive(start.seed, u64::MAX));
        self.cuts = Rng::new(Rng::derive(start.seed, u64::MAX - 1));
    }

    #[inline]
    fn propose(&mut self) -> Option<Proposal<'_>> {
        if self.simplest {
            // A test case of the run's budget, but no seed index: the test cases after it
            // keep their seeds (the run's last one is left out).
            self.simplest = false;
            self.last_was = Drawn::Simplest;
            self.copy = ReplaySource::new(Vec::new(), Fallback::Simplest);
            return Some(Proposal::new(&mut self.copy).recorded());
        }
        if let Some((indices, copies)) = self.pending.take() {
            self.last_was = Drawn::Duplicate(copies);
            self.copy = ReplaySource::new(indices, Fallback::Simplest);
            return Some(Proposal::new(&mut self.copy).recorded());
        }
        if let Some(indices) = self.tail.take() {
            self.last_was = Drawn::Truncated;
            self.copy = ReplaySource::new(indices, Fallback::Simplest);
            return Some(Proposal::new(&mut self.copy).recorded());
        }
        let i = self.next;
        self.next += 1;
        if i < self.ramp {
            self.last_was = Drawn::Small;
            self.sized = ramp_source(self.seed, i, self.ramp);
            return Some(Proposal::new(&mut self.sized).recorded());
        }
        self.last_was = Drawn::Random;
        self.last = Rng::derive(self.seed, i);
        self.source = RandomSource::new(self.last);
        Some(Proposal::new(&mut self.source).seeded(self.last))
    }

    fn observe(&mut self, outcome: &Observation<'_>) -> Verdict {
        let copies = match self.last_was {
            Drawn::Small => {
                self.tail = outcome
                    .recording
                    .filter(|_| outcome.status != Status::Overrun)
                    .and_then(|rec| truncation(rec, &mut self.cuts));
                0
            }
            Drawn::Duplicate(n) => n,
            Drawn::Simplest | Drawn::Random | Drawn::Truncated => return Verdict::Continue,
        };
        if copies < DUPLICATES
            && outcome.status != Status::Overrun
            && let Some(rec) = outcome.recording
        {
            self.pending = duplicate(rec, &mut self.rng).map(|v| (v, copies + 1));
        }
        Verdict::Continue
    }

    fn replay(&self) -> Option<Replay> {
        // The simplest test case, the small ones, their duplicates and truncations are
        // recorded: nothing to replay.
        (self.last_was == Drawn::Random).then_some(Replay::Seed(self.last))
    }
}

/// The unforced indices of the first choices of `rec` (a random number of them, at least
/// one, fewer than all), to be replayed with the simplest choices after them: the test case's
/// start with the simplest way to finish it (Hypothesis zero-extends each new prefix of its
/// first test cases so). A failure that needs a few large values in a small structure (one
/// element of a list, the rest at its simplest) shows up so before one that needs many
/// elements. `None` when the tape has fewer than [`TRUNCATED_FROM`] unforced choices (a
/// value of a few scalars, which the small start already draws near its simplest: the
/// test case is better spent on the run) or is at its simplest past the cut.
pub fn truncation(rec: &Recording, rng: &mut Rng) -> Option<Vec<u64>> {
    let free: Vec<u64> = (rec.choices.iter())
        .filter(|c| !c.forced)
        .map(|c| c.index)
        .collect();
    if free.len() < TRUNCATED_FROM {
        return None;
    }
    let k = 1 + rng.below_or_eq(free.len() as u64 - 2) as usize;
    (free[k..].iter().any(|&i| i != 0)).then(|| free[..k].to_vec())
}

/// The registry's entry.
pub(crate) fn from_env(_env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(Random))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::{Choice, PointId};

    fn rec(indices: &[(u64, bool)]) -> Recording {
        Recording {
            choices: (indices.iter())
                .map(|&(index, forced)| Choice {
                    point: PointId(0),
                    max: 9,
                    index,
                    forced,
                    in_run: false,
                })
                .collect(),
            ..Recording::default()
        }
    }

    #[test]
    fn a_truncation_is_a_proper_prefix_of_the_free_choices() {
        let r = rec(&[(3, false), (1, true), (5, false), (0, false), (7, false)]);
        let free = [3, 5, 0, 7];
        let mut rng = Rng::new(1);
        let mut lengths = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let t = truncation(&r, &mut rng).expect("four free choices");
            assert!(!t.is_empty() && t.len() < free.len());
            assert_eq!(t[..], free[..t.len()]);
            lengths.insert(t.len());
        }
        assert_eq!(lengths.len(), 3, "every cut comes up: {lengths:?}");
        // Too few free choices (the forced one does not count), or nothing but the simplest
        // after every cut: nothing to run.
        let few = rec(&[(3, false), (1, true), (5, false), (2, false)]);
        assert_eq!(truncation(&few, &mut rng), None);
        let simplest_tail = rec(&[(3, false), (0, false), (0, false), (0, false)]);
        assert_eq!(truncation(&simplest_tail, &mut rng), None);
    }
}
