//! Shrinking: passes over the choice sequence that look for a shortlex-smaller tape that
//! still fails. The shrinker knows tapes and statuses only, never generators or value types.
//!
//! Every pass builds candidate tapes from the current best one; a candidate is run only if
//! it is shortlex-smaller than the best and no earlier run already decided it (the
//! [`cache`](self) of every run's recorded tape), and it is accepted only if the tape
//! actually recorded still fails and is shortlex-smaller. See [`Shrinker`] for the passes.

mod budget;
mod cache;
mod passes;
mod search;
mod shortlex;
mod shrinker;

pub use budget::Budget;
pub use shortlex::{shortlex_cmp, shortlex_less};
pub use shrinker::{PassStats, Shrinker, Shrunk};
