//! The shrinker: holds the best failing tape and tries candidates against the test.

use super::{Budget, shortlex_less};
use crate::tape::{Choice, Fallback, Recording, ReplaySource, Status, Tape};
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

/// The outcome of a shrink.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The smallest failing tape found.
    pub best: Recording,
    /// Test calls made.
    pub calls: u64,
    /// Candidates accepted.
    pub improvements: u64,
    /// Whether the budget ran out before a fixpoint.
    pub budget_exhausted: bool,
}

/// Shrinks a failing tape. Deterministic: the same test and start give the same result.
///
/// Every accepted candidate is the tape actually recorded when replaying it, and it is
/// accepted only if the test is still [`Status::Interesting`] and the tape is strictly
/// smaller in shortlex order, so a shrink never makes the tape larger.
pub struct Shrinker<'a> {
    test: &'a mut dyn FnMut(&mut Tape<'_>) -> Status,
    pub(super) best: Recording,
    budget: Budget,
    started: Instant,
    calls: u64,
    improvements: u64,
    seen: HashSet<u64>,
}

impl<'a> Shrinker<'a> {
    /// A shrinker for `test`, starting from the failing tape `start`.
    pub fn new(
        test: &'a mut dyn FnMut(&mut Tape<'_>) -> Status,
        start: Recording,
        budget: Budget,
    ) -> Shrinker<'a> {
        Shrinker {
            test,
            best: start,
            budget,
            started: Instant::now(),
            calls: 0,
            improvements: 0,
            seen: HashSet::new(),
        }
    }

    /// Runs the passes until a whole round improves nothing or the budget runs out.
    pub fn run(mut self) -> Shrunk {
        loop {
            let before = self.improvements;
            self.delete_spans();
            self.promote_descendants();
            self.delete_blocks();
            self.zero_spans();
            self.minimize_indices();
            self.lower_pairs();
            self.reorder_siblings();
            if self.improvements == before && !self.exhausted() {
                // Costlier passes, only at a fixpoint of the cheap ones.
                self.lower_and_delete();
                self.lower_and_probe();
            }
            if self.improvements == before || self.exhausted() {
                break;
            }
        }
        Shrunk {
            budget_exhausted: self.exhausted(),
            best: self.best,
            calls: self.calls,
            improvements: self.improvements,
        }
    }

    /// Whether the budget has run out.
    pub(super) fn exhausted(&self) -> bool {
        self.calls >= self.budget.calls || self.started.elapsed() >= self.budget.time
    }

    /// Tries a candidate tape (its forced choices are dropped: the generator re-forces them).
    /// Returns whether it was accepted as the new best.
    pub(super) fn try_choices(&mut self, candidate: &[Choice]) -> bool {
        let indices: Vec<u64> = candidate
            .iter()
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect();
        self.try_indices(indices)
    }

    fn try_indices(&mut self, indices: Vec<u64>) -> bool {
        if self.exhausted() {
            return false;
        }
        let mut h = DefaultHasher::new();
        indices.hash(&mut h);
        if !self.seen.insert(h.finish()) {
            return false;
        }
        self.calls += 1;
        let mut source = ReplaySource::new(indices, Fallback::Simplest);
        // A candidate longer than the best can never be accepted: stop it early.
        let mut tape = Tape::recording(&mut source).with_max_choices(self.best.choices.len());
        let status = (self.test)(&mut tape);
        let rec = tape.finish();
        if status == Status::Interesting && shortlex_less(&rec.choices, &self.best.choices) {
            self.best = rec;
            self.improvements += 1;
            true
        } else {
            false
        }
    }
}
