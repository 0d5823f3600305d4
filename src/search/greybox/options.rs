//! Knobs of the greybox loop beyond the run's [`crate::engine::Config`].

use crate::mutate::TapeMutator;

/// How the greybox loop divides its test cases and what it saves.
#[derive(Clone, Debug)]
pub struct Options {
    /// Test cases generated at random before mutation starts (random ones also run whenever
    /// nothing is kept yet).
    pub warmup: u64,
    /// After the warm-up, one test case in `random_one_in` is a fresh random tape and the rest
    /// are mutants of kept ones. Fresh tapes keep the search from narrowing to the first
    /// structures it found; a small share is enough since mutants re-randomize spans too.
    pub random_one_in: u64,
    /// Most kept tapes saved to `corpus/` in one run (the ones credited with the most new
    /// features), so a long run does not flood the checked-in corpus.
    pub corpus_cap: u64,
    /// The structure-aware operators and their weights.
    pub mutator: TapeMutator,
    /// Seconds between progress lines on stderr (when [`crate::engine::Config::progress`]).
    pub progress_every: f64,
}

impl Default for Options {
    /// 32 random tapes first, then 1 in 16 random; at most 100 tapes saved; the default
    /// operator weights; progress twice a second.
    fn default() -> Options {
        Options {
            warmup: 32,
            random_one_in: 16,
            corpus_cap: 100,
            mutator: TapeMutator::default(),
            progress_every: 0.5,
        }
    }
}
