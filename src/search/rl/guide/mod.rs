//! Reinforcement-learning guidance (RLCheck, paper 002): the source behind the `rl` strategy.
//!
//! A [`Guide`] makes each choice of a generator with one Monte Carlo Control learner per
//! choice point, rewarded at the end of each test case for a unique valid value (20), a
//! valid one seen before (0) or an invalid one (−1). The learner's state is derived from the
//! tape's spans ([`Abstraction::Tree`]: the choices of the enclosing spans, as RLCheck's
//! "Tree L/R" builds by hand), so no generator needs state code. Wide choices are learned
//! over buckets ([`Arms`]).
//!
//! The guide knows the tape and nothing else; the `rl` search ([`super::LearnSearch`]) runs
//! the episodes.

mod arms;
#[allow(clippy::module_inception)]
mod guide;
mod learner;
mod settings;
mod state;

pub use arms::{Arms, EXACT};
pub use guide::{Follow, Guide};
pub use learner::Update;
pub use settings::{Learn, Learners, Rewards};
pub use state::{Abstraction, StateFn};
