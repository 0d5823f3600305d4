//! tapefuzz: property-based testing and fuzzing over one choice tape.
#![deny(missing_docs)]

pub mod tape;
pub mod generators;
pub mod shrink;
pub mod corpus;
