//! Constrained generation (paper 001, ProSyT): valid values of a type from its generator and
//! its plain validity filter, with no hand-written generator of valid values.
//!
//! Write the generator and the filter once over a number type `N: `[`Num`] (a
//! [`Constrain`] implementation). [`constrained`] runs the filter symbolically on a skeleton
//! whose integers are still [`Open`], keeps the comparisons as difference constraints
//! (`x − y ≤ c`), and instantiates the integers within the bounds they leave; [`filtered`]
//! is generate-and-filter over the same two functions. The `constrain` strategy searches
//! skeletons and instantiates each found one many times.

mod generator;
mod num;
mod open;
mod order;
mod session;
mod store;

pub use generator::{Constrain, Constrained, DEFAULT_RUNS, Filtered, constrained, filtered};
pub use num::{Num, Nums, nums};
pub use open::Open;
