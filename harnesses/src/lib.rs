//! Systems under test for tapefuzz, each with a correct version and planted bugs, registered
//! as targets for the CLI, the `#[test]`s and the fuzz targets.
#![deny(missing_docs)]

pub mod bst;
pub mod expr;
pub mod graph_sink;
pub mod ifc;
pub mod lang;
pub mod magic;
pub mod misbehave;
pub mod peers;
pub mod peers_stateful;
pub mod prosyt;
pub mod registry;
pub mod sorted_insert;
pub mod stateful;
pub mod stlc;
pub mod systemf;
pub mod tcas;
pub mod timing;
pub mod xml;

pub use registry::{Target, corpora_dir, find, fuzz_test, property_for, targets};
