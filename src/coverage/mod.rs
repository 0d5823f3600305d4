//! Coverage in-process, on stable Rust: the observer of greybox mode.
//!
//! The code under test is compiled with SanitizerCoverage's inline 8-bit counters (one byte
//! per edge, see [`Sancov`] and `scripts/greybox-build`). A [`CoverageObserver`] resets them
//! before each test case and, after it, reports its features (an edge and a log2 bucket of
//! its hit count, [`Feature`]) and a hash of them as the test case's characteristic. Any
//! search reads them: the `greybox` search keeps tapes that reach new features, the `rl`
//! search rewards new coverage traces.
//!
//! The coverage source is a trait ([`Coverage`]): [`Sancov`] reads an instrumented binary's
//! counters, [`ManualCounters`] are bumped by the test itself, which is how the searches are
//! tested without instrumentation.
//!
//! The other thing an instrumented build observes, the size of each allocation, is
//! [`crate::allocation`]'s.
//!
//! The SanitizerCoverage callbacks that register the counters are compiled only with the
//! cargo feature `sancov-callbacks`, because libFuzzer defines the same symbols.

pub mod cmplog;
mod counters;
#[allow(clippy::module_inception)]
mod coverage;
mod features;
mod observer;
pub mod stack_depth;

#[cfg(feature = "sancov-callbacks")]
pub use counters::{__sanitizer_cov_8bit_counters_init, __sanitizer_cov_pcs_init};
pub use counters::{
    Sancov, counter_count, counters_registered, pc_count, register_counters, register_pcs,
};
pub use coverage::{Coverage, ManualCounters};
pub use features::{Feature, FeatureMap, bucket};
pub use observer::CoverageObserver;
