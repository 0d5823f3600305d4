//! The engine: runs a test function over tapes in phases reuse → generate → shrink → save.
//! It knows tapes, statuses, corpora and shrinking; never generators or value types.

mod anneal;
mod characteristic;
mod config;
#[allow(clippy::module_inception)]
mod engine;
mod learn;
mod report;
mod utility;

pub use anneal::{Anneal, Schedule};
pub use characteristic::{Characteristic, Identity};
pub use config::{Config, ConfigError, Strategy, seconds};
pub use engine::{TestFn, run, run_with};
pub use report::{Best, Failure, Found, Improvement, RunReport};
pub use utility::{
    Direction, Utility, clear_utilities, has_utilities, minimize, minimize_labelled,
    take_utilities, target, target_labelled, total_score,
};
