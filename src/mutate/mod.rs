//! Structure-aware mutations of a recorded tape.
//!
//! An [`Operator`] edits the choices of a [`crate::tape::Recording`] using its spans: it
//! deletes, duplicates, swaps, re-randomizes or splices whole spans (a list element, a tree
//! node, a field), or moves one choice within a neighbourhood. The result is a choice
//! sequence to replay through the generator (a [`crate::tape::ReplaySource`] reads it, taking
//! out-of-range indices modulo the choice's size), so every mutant is a valid tape whatever
//! the edit did to the structure. The libFuzzer glue ([`crate::fuzz`]) and the in-process
//! engines share these operators. This module knows the tape and nothing else.

mod mutator;
mod neighbour;
mod operator;
mod runs;

pub use mutator::TapeMutator;
pub use neighbour::{Aligned, Neighbour, Neighbourhood};
pub use operator::{Operator, nudge};
pub use runs::{Run, edit_run, mutate_bytes, runs, with_run_bytes};
