//! tapefuzz: property-based testing and fuzzing over one choice tape.
//!
//! Every generator draws all its decisions from one [`tape::Tape`]. Random generation,
//! byte-mutating fuzzers, shrinking, replay and saved corpora all work on that same tape, so
//! any input found by any strategy is saved as bytes every other strategy can replay.
//!
//! Layers (dependencies point down): [`mod@property`] → [`engine`] → [`shrink`] and [`corpus`]
//! → [`generators`] → [`tape`].
//!
//! The tape's byte encoding is version [`tape::ENCODING_VERSION`]: see [`tape::encoding`].
#![deny(missing_docs)]

pub mod conformance;
pub mod corpus;
pub mod coverage;
pub mod engine;
pub mod env;
pub mod explain;
pub mod fuzz;
pub mod generators;
pub mod mutate;
pub mod property;
pub mod search;
pub mod settings;
pub mod shrink;
pub mod summary;
pub mod tape;

/// Everything a property test needs.
pub mod prelude {
    pub use crate::engine::Config;
    pub use crate::generators::*;
    pub use crate::property::{
        Direction, Fail, Property, check, minimize, minimize_labelled, property, target,
        target_labelled,
    };
    pub use crate::tape::{Reject, Status, Tape};
    pub use crate::{assume, ensure, ensure_eq, one_of};
}
