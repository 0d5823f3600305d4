//! The `random` strategy: independent random tapes, one per test case, each from a seed
//! derived from the run's seed and the test's number. The hot path of random testing: the
//! tape is not recorded (values are a function of the per-test seed, so a failure is
//! re-run with recording by seed).

use crate::engine::{Proposal, Replay, Search, Start, Strategy};
use crate::env::{ConfigError, Env};
use crate::tape::{RandomSource, Rng};
use std::sync::Arc;

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
    source: RandomSource,
}

impl Default for RandomSearch {
    fn default() -> RandomSearch {
        RandomSearch {
            seed: 0,
            next: 0,
            last: 0,
            source: RandomSource::new(0),
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
    }

    #[inline]
    fn propose(&mut self) -> Option<Proposal<'_>> {
        self.last = Rng::derive(self.seed, self.next);
        self.next += 1;
        self.source = RandomSource::new(self.last);
        Some(Proposal::new(&mut self.source).seeded(self.last))
    }

    fn replay(&self) -> Option<Replay> {
        Some(Replay::Seed(self.last))
    }
}

/// The registry's entry.
pub(crate) fn from_env(_env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(Random))
}
