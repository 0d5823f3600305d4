//! Searches: the strategies, each in its own folder, each a [`crate::engine::Search`] made
//! by a [`crate::engine::Strategy`] (its settings). The [`registry`] maps names to them.
//!
//! | name | folder | what it does |
//! |---|---|---|
//! | `random` | [`random`] | independent random tapes (the default) |
//! | `sa` | [`sa`] | simulated annealing on the utility values a property reports |
//! | `rl` | [`rl`] | reinforcement learning towards unique valid values (RLCheck) |
//! | `greybox` | [`greybox`] | coverage-guided mutation of kept tapes (with a coverage observer) |
//! | `enumerate` | [`enumerate`] | every tape, smallest first, pruned at rejections; says when a size is exhausted |
//! | `patterns` | [`enumerate`] | enumeration reprioritised by constructor patterns (paper 003) |
//! | `cover` | [`cover`] | rows of t-way covering arrays over the leading choices (Radix Coverage), then random |
//! | `constrain` | [`constrain`] | skeleton search and repeated instantiation for constrained generators (ProSyT) |
//! | `swarm` | [`swarm`] | swarm testing: each test case turns a random subset of every union's options off |
//!
//! Adding a strategy is one folder implementing `Search` and `Strategy`, plus one line in
//! [`registry::STRATEGIES`]; the engine does not change.

pub mod constrain;
pub mod cover;
pub mod enumerate;
pub mod greybox;
pub mod random;
pub mod registry;
pub mod rl;
pub mod sa;
pub mod swarm;

pub use registry::{Registered, STRATEGIES, from_env, named};
