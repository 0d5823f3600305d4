//! A report as the design page's one-line JSON summary, which every `run` and `ci` prints
//! last on stdout.

use super::Report;
use serde::Serialize;

/// One target run, as the design page's JSON contract lists it (`null` where a field does
/// not apply): the serialized form of a [`Report`] (or of a command on tape files).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Summary {
    /// Target name.
    pub target: String,
    /// Strategy (`random`, `replay`, …).
    pub strategy: String,
    /// `blackbox` or `greybox`.
    pub mode: String,
    /// The run's seed.
    pub seed: u64,
    /// Test cases run, saved tapes replayed included.
    pub tests: u64,
    /// Valid test cases.
    pub valid: u64,
    /// Distinct valid test cases.
    pub unique_valid: u64,
    /// Failures found (0 or 1: a run stops at its first).
    pub failures: u64,
    /// The test case (1-based, replays first) that first failed.
    pub first_failure_test: Option<u64>,
    /// Seconds from the start to the first failure, before shrinking and saving.
    pub first_failure_seconds: Option<f64>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Test cases per second.
    pub tests_per_second: f64,
    /// Best utility value, for targeted search.
    pub best_utility: Option<f64>,
    /// The shrunk failing value (Debug).
    pub shrunk: Option<String>,
    /// Entries added to `corpus/`.
    pub corpus_added: u64,
    /// Coverage features reached (edge × hit-count bucket): greybox mode only, `null` in
    /// the others.
    pub features: Option<u64>,
    /// Saves that failed (corpus tapes and the shrunk failure; each reported on stderr with
    /// its path and the OS error).
    pub save_errors: u64,
}

impl Summary {
    /// A summary of nothing run yet: zero counts, every optional field `null`.
    pub(crate) fn empty(target: &str, strategy: &str, mode: &str) -> Summary {
        Summary {
            target: target.into(),
            strategy: strategy.into(),
            mode: mode.into(),
            seed: 0,
            tests: 0,
            valid: 0,
            unique_valid: 0,
            failures: 0,
            first_failure_test: None,
            first_failure_seconds: None,
            seconds: 0.0,
            tests_per_second: 0.0,
            best_utility: None,
            shrunk: None,
            corpus_added: 0,
            features: None,
            save_errors: 0,
        }
    }

    /// The summary as one line of JSON.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).expect("summary serializes")
    }
}

impl Report {
    /// The design page's JSON summary of this run, as one line: `strategy` as the command
    /// line named it (`random`, `greybox`, …) and `mode` (`blackbox` or `greybox`) are the
    /// caller's words; every other field comes from the report. Saved tapes replayed count
    /// as test cases; fields that do not apply (no failure, no utility, no coverage) are
    /// `null`.
    pub fn summary_json(&self, strategy: &str, mode: &str) -> String {
        self.summary(strategy, mode).to_json()
    }

    /// The summary's fields, for a caller that changes some before writing the line.
    pub(crate) fn summary(&self, strategy: &str, mode: &str) -> Summary {
        let tests = self.total_tests();
        Summary {
            target: self.name.clone(),
            strategy: strategy.into(),
            mode: mode.into(),
            seed: self.seed,
            tests,
            // Like `tests`, the replayed tapes count.
            valid: self.total_valid(),
            unique_valid: self.unique_valid,
            failures: self.failure.is_some() as u64,
            first_failure_test: self.first_failure_test(),
            first_failure_seconds: self.first_failure_seconds,
            seconds: self.seconds,
            tests_per_second: if self.seconds > 0.0 {
                tests as f64 / self.seconds
            } else {
                0.0
            },
            best_utility: self.best_utility(),
            shrunk: self.value.clone(),
            corpus_added: self.corpus_added,
            features: self.stat("features"),
            save_errors: self.save_errors.len() as u64,
        }
    }
}
