//! The engine: runs a test function over tapes in phases reuse → generate → shrink → save.
//! It knows tapes, statuses, corpora and shrinking; never generators or value types.

mod config;
#[allow(clippy::module_inception)]
mod engine;
mod report;

pub use config::{Config, ConfigError, seconds};
pub use engine::{TestFn, run};
pub use report::{Failure, Found, RunReport};
