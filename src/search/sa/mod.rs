//! The `sa` strategy: simulated annealing over tapes (paper 000 §II-C), climbing the utility
//! values a property reports with [`crate::engine::target`].
//!
//! The first input comes from the generator (a random tape). Each step draws a neighbour of
//! the current base tape with the constructed neighbourhood ([`crate::mutate::Neighbour`]) at
//! the current temperature and runs the property on it. A neighbour with a better or equal
//! utility becomes the base; a worse one with probability e^{-(u_base − u_new)/t}. The
//! temperature falls from [`Anneal::temperature`] to zero over a cycle ([`Schedule`]); after
//! [`Anneal::restart_after`] steps without a new best, the search restarts from a fresh
//! random input. Invalid neighbours and ones that report no utility are never accepted.

mod search;
mod settings;

pub use search::AnnealSearch;
pub use settings::{Anneal, Schedule};
pub(crate) use settings::{VARS, from_env};
