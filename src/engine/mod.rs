//! The engine: one run loop — reuse → search → shrink → save — over two traits it owns:
//! a [`Search`] that proposes test cases and is told their outcomes, and an [`Observer`]
//! that watches each test case (an identity, or coverage). It knows tapes, statuses,
//! corpora and shrinking; never generators, value types or strategies (those live above
//! it).

mod config;
mod events;
mod failure;
mod health;
mod interrupt;
mod migrate;
pub mod observability;
mod observer;
mod progress;
mod report;
mod report_text;
mod reuse;
mod run;
mod runner;
mod search;
mod stats;
mod subject;
mod summary;
mod utility;
mod watchdog;

pub use crate::env::ConfigError;
pub use config::{Config, seconds};
pub use events::{
    Case, EventValue, IntoEventValue, clear_case, collecting, event, event_value, note_message,
    note_representation, note_timing, observing,
};
pub use failure::{
    CONFIRM_ATTEMPTS, Described, HANGING_CANDIDATES, import, settle, settle_isolated,
};
pub use interrupt::{interrupt, interrupted, signal_name};
pub use migrate::{migrate_corpus, reencode};
pub use observer::{Identity, Observer};
#[allow(deprecated)]
pub use report::RunReport;
pub(crate) use report::reported_by_client;
pub use report::{Best, Failure, Found, Improvement, Report, Stop};
pub use run::{TestFn, run};
pub use search::{Finish, Observation, Proposal, Replay, Search, Start, Stat, Strategy, Verdict};
pub use stats::{EventStats, KEPT_NUMBERS, Statistics, render as render_statistics};
pub use subject::{Isolated, Subject};
pub(crate) use summary::Summary;
pub use utility::{
    Direction, Utility, clear_utilities, has_utilities, minimize, minimize_labelled,
    take_utilities, target, target_labelled, total_score,
};
pub use watchdog::{BUDGET_MARGIN, GRACE, HANG_EXIT_CODE, budget_timeout};
