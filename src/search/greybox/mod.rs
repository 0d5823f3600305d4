//! The `greybox` strategy: coverage-guided fuzzing in-process. With a coverage observer
//! ([`crate::coverage::CoverageObserver`]), a test case that reaches a feature (an edge and
//! a log2 bucket of its hit count) that no kept tape reached before is kept; kept tapes are
//! mutated with the structure-aware tape operators of [`crate::mutate`] and replayed through
//! the generator, so every mutant is a valid value and every find is a tape the rest of
//! tapefuzz (shrinking, corpora, libFuzzer) replays.
//!
//! Without features (a blackbox observer) nothing is ever new: the search is random tapes.

mod mutant;
mod options;
mod queue;
mod search;

pub use mutant::{mutant, tweak};
pub use options::Options;
pub use queue::{Kept, Queue};
pub use search::GreyboxSearch;
pub(crate) use search::from_env;
