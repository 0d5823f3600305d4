//! A tour of tapefuzz: four small pieces of code, each with a bug planted the way real code
//! gets one, and the property that finds it.
//!
//! `cargo run --release -p tapefuzz-demo` runs the tour ([`tour`]): each property is run
//! until it fails, the failure is shrunk to a minimal value and saved as a regression file
//! in a scratch folder, and the property is run again to show that the saved regression is
//! replayed first and fails again.
//!
//! | module | code under test | property | strategy | minimal counterexample |
//! |---|---|---|---|---|
//! | [`codec`] | run-length encoding | `decode(encode(data)) == data` | `random` | one run of 256 zeros |
//! | [`ring`] | a ring buffer that overwrites its oldest item when full | against a `VecDeque` model ([`tapefuzz::stateful`]) | `random` | 4 pushes and a pop |
//! | [`config`] | a `key=value; key="quoted \" value"` line parser | `parse(print(entries)) == entries` | `random` | a value of one backslash |
//! | [`ranges`] | coalescing ranges | the result is sorted, disjoint, not touching, and covers the same points | `enumerate` | `[0..1, 1..2]` |
//!
//! Each module's `run` function is the property: it takes the [`Property`] to run it with
//! (its name, budget, seed, strategy and corpus folder are the caller's) and whether to test
//! the code with its bug fixed. `tests/quality.rs` checks that each bug is found and shrinks
//! to its minimal value, and that each fixed version passes.
//!
//! [`Property`]: tapefuzz::prelude::Property
#![deny(missing_docs)]

pub mod codec;
pub mod config;
pub mod ranges;
pub mod ring;
pub mod tour;
