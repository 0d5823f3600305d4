//! What a greybox run did and found.

use crate::engine::RunReport;
use crate::summary::Summary;

/// A greybox run: the engine's counts and failure (the same [`RunReport`] a blackbox run
/// gives, so reports print alike) plus what coverage feedback added.
#[derive(Clone, Debug, Default)]
pub struct GreyboxReport {
    /// Counts, seconds and the shrunk failure. `tests` counts the generated test cases
    /// (random and mutants); `replayed` the saved tapes run first.
    pub run: RunReport,
    /// Coverage features reached (edge × hit-count bucket), replayed tapes included.
    pub features: u64,
    /// Edges hit at least once.
    pub edges: u64,
    /// Tapes kept for reaching a new feature.
    pub kept: u64,
    /// Kept tapes saved to `corpus/`.
    pub corpus_added: u64,
    /// Seconds from the start of the run to the failure, before shrinking and saving.
    pub failure_seconds: Option<f64>,
    /// The shrunk failing value (Debug, from [`crate::property::Test::explain`]).
    pub value: Option<String>,
    /// The shrunk failure's message.
    pub message: Option<String>,
}

impl GreyboxReport {
    /// Whether no failure was found.
    pub fn passed(&self) -> bool {
        self.run.failure.is_none()
    }

    /// The test case (1-based, replayed tapes first) that first failed.
    pub fn first_failure_test(&self) -> Option<u64> {
        self.run.first_failure_test()
    }

    /// The shrunk failing tape's bytes.
    pub fn shrunk_bytes(&self) -> Option<&[u8]> {
        self.run.failure.as_ref().map(|f| f.bytes.as_slice())
    }

    /// The JSON summary line of the run (mode and strategy `greybox`).
    pub fn summary(&self, target: &str) -> Summary {
        let r = &self.run;
        let tests = r.replayed + r.tests;
        Summary {
            target: target.into(),
            strategy: "greybox".into(),
            mode: "greybox".into(),
            seed: r.seed,
            tests,
            // Like `tests`, the replayed tapes count.
            valid: r.replayed_valid + r.valid,
            unique_valid: r.unique_valid,
            failures: r.failure.is_some() as u64,
            first_failure_test: self.first_failure_test(),
            seconds: r.seconds,
            tests_per_second: if r.seconds > 0.0 {
                tests as f64 / r.seconds
            } else {
                0.0
            },
            best_utility: None,
            shrunk: self.value.clone(),
            corpus_added: self.corpus_added,
            features: Some(self.features),
        }
    }
}
