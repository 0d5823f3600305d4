//! In-process coverage-guided fuzzing ("greybox" mode) on stable Rust.
//!
//! The code under test is compiled with SanitizerCoverage's inline 8-bit counters (one byte
//! per edge, see [`Sancov`] and `scripts/greybox-build`); the loop ([`run`]) resets them,
//! runs one tape, and keeps the tape when the counters show a [`Feature`] (an edge and a
//! log2 bucket of its hit count) that no kept tape reached before. Kept tapes are mutated
//! with the structure-aware tape operators of [`crate::mutate`] and replayed through the
//! generator, so every mutant is a valid value and every find is a tape that the rest of
//! tapefuzz (shrinking, corpora, libFuzzer) replays.
//!
//! The coverage source is a trait ([`Coverage`]): [`Sancov`] reads an instrumented binary's
//! counters, [`ManualCounters`] are bumped by the test itself, which is how the engine is
//! tested without instrumentation.
//!
//! The SanitizerCoverage callbacks that register the counters are compiled only with the
//! cargo feature `sancov-callbacks`, because libFuzzer defines the same symbols.
#![deny(missing_docs)]

mod counters;
mod coverage;
mod engine;
mod features;
mod mutant;
mod options;
mod queue;
mod report;
mod trace;

#[cfg(feature = "sancov-callbacks")]
pub use counters::{__sanitizer_cov_8bit_counters_init, __sanitizer_cov_pcs_init};
pub use counters::{
    Sancov, counter_count, counters_registered, pc_count, register_counters, register_pcs,
};
pub use coverage::{Coverage, ManualCounters};
pub use engine::run;
pub use features::{Feature, FeatureMap, bucket};
pub use mutant::{mutant, tweak};
pub use options::Options;
pub use queue::{Kept, Queue};
pub use report::GreyboxReport;
pub use trace::CoverageTrace;
