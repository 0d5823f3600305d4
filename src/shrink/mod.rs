//! Shrinking: passes over the choice sequence that look for a shortlex-smaller tape that
//! still fails. The shrinker knows tapes and statuses only, never generators or value types.
//!
//! Every pass builds candidate tapes from the current best one; a candidate is run only if
//! it is shortlex-smaller than the best (or is a probe of a shape, see `passes/reshape.rs`)
//! and no earlier run already decided it (a cache of every run, keyed by the tape it
//! recorded), and neither the budget nor a stalled joint or last-resort pass (see [`Shrinker`])
//! holds it back; it is accepted only if the tape actually recorded still fails and is
//! shortlex-smaller. See [`Shrinker`] for the passes and [`Shrunk`] for what is counted.

mod budget;
mod cache;
mod passed;
mod passes;
mod search;
mod shortlex;
mod shrinker;

pub use budget::Budget;
pub use passed::Passed;
pub use shortlex::{shortlex_cmp, shortlex_less};
pub use shrinker::{PassStats, Shrinker, Shrunk};
