//! Shrinking: passes over the choice sequence that look for a shortlex-smaller tape that
//! still fails. The shrinker knows tapes and statuses only, never generators or value types.

mod budget;
mod passes;
mod shortlex;
mod shrinker;

pub use budget::Budget;
pub use shortlex::{shortlex_cmp, shortlex_less};
pub use shrinker::{Shrinker, Shrunk};
