//! The `rl` strategy: RLCheck (paper 002). A [`Guide`] makes every choice; after each test
//! case it is rewarded for a unique valid characteristic, a valid one seen before, or an
//! invalid one, and learns. The characteristic is the observer's: the tape itself in
//! blackbox mode, a coverage trace with a coverage observer (greybox RLCheck, §5.3).

mod guide;
mod search;
mod settings;

pub use guide::{
    Abstraction, Arms, EXACT, Follow, Guide, Learn, Learners, Rewards, StateFn, Update,
};
pub use search::LearnSearch;
pub(crate) use settings::{VARS, from_env};
