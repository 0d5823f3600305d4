//! The conformance suite, public so a test anywhere can run it on its own source or search
//! (as Hypothesis's `provider_conformance`): every built-in strategy passes it, and so should
//! a user's.
//!
//! - [`check_source`]: a [`Source`](crate::tape::Source) is deterministic for its input,
//!   gives the same value whether the tape records or not, and the choices it makes replay
//!   to the same value — as choices and as the bytes libFuzzer sees.
//! - [`check_search`]: a [`Search`](crate::engine::Search) proposes sources that do all of
//!   that, is deterministic for its seed, answers [`Search::replay`] with a tape that
//!   reproduces an unrecorded test case, never proposes more than asked once told to stop,
//!   and hands back kept tapes that replay to valid values.
//! - [`check_generator`]: a [`Gen`](crate::generators::Gen) gives the same value recording
//!   or not, its choices replay to the value (as choices and as bytes), an empty tape gives
//!   its simplest value, and no byte string makes it panic (`generator_laws`; every picker
//!   and mutator passes it).
//!
//! Each check panics with the law, the case and the value when a law fails.
//!
//! ```
//! use tapefuzz::conformance;
//! use tapefuzz::search::random::Random;
//! use tapefuzz::tape::RandomSource;
//!
//! conformance::check_source("random", 50, |case| Box::new(RandomSource::new(case)));
//! conformance::check_search(&Random, 20);
//! ```
//!
//! [`Search::replay`]: crate::engine::Search::replay

mod generator;
mod generator_laws;
mod search;
mod source;

pub use generator::{Value, generator};
pub use generator_laws::check_generator;
pub use search::check_search;
pub use source::{check_source, replays};
