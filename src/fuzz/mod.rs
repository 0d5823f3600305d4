//! libFuzzer glue: run a [`Test`](crate::property::Test) on fuzzer input, and mutate that
//! input on the tape.
//!
//! libFuzzer's input is a tape's byte encoding ([`crate::tape::encoding`]), so a fuzz target
//! shares its corpus folder with every other strategy. [`fuzz_target!`](crate::fuzz_target)
//! wraps `libfuzzer_sys::fuzz_target!`, `fuzz_mutator!` and `fuzz_crossover!` around the
//! functions here; this crate itself does not link libFuzzer (the macros expand in the fuzz
//! crate, which depends on `libfuzzer-sys`).
//!
//! **Mutation mix.** Of the mutator's calls, [`TAPE_SHARE`] in [`SHARE_OF`] apply one
//! structure-aware tape operator ([`crate::mutate`]); the rest are libFuzzer's own byte
//! mutations, which keep its comparison-guided and dictionary mutations available. A
//! property whose tape is one payload run ([`SingleRun`]: `bytes(..)`, `strings(..)`) gets
//! libFuzzer's mix unchanged: every mutation is libFuzzer's on the payload, and the custom
//! crossover declines (libFuzzer's own crossover is one of its byte mutations).
//!
//! **Tape features.** With `TAPEFUZZ_FEATURES=1` a fuzz target also reports what its valid
//! inputs' tapes look like, as counters of its own ([`tape_features`]).

#[cfg(all(feature = "libfuzzer", unix))]
mod alarm;
pub mod driver;
mod features;
mod glue;
mod macros;

pub use features::{COUNTERS, FeatureCounters, Switch, index_bucket, tape_features};
pub use glue::{
    FRESH_OF, FRESH_SHARE, RUN_OF, RUN_SHARE, SHARE_OF, SingleRun, TAPE_SHARE, check,
    check_counting, crossover, feature_pc_table, feature_switch, mostly_runs, mutate, record,
    single_run,
};
