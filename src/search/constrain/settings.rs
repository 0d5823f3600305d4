//! The settings of the `constrain` strategy and its environment variables.

use super::ConstrainSearch;
use crate::engine::{Search, Strategy};
use crate::env::{ConfigError, Env, Variable};
use std::sync::Arc;

/// Settings of the `constrain` strategy (see [`super`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkeletonSearch {
    /// Most test cases per visit of a feasible skeleton, the first included (at least 1).
    /// Default 1,500, ProSyT's setting; a visit is shorter where feasible skeletons are
    /// common, and ends at a repeated value (see [`super`]).
    pub instantiations: u64,
    /// Rejected test cases in a row before the skeleton search starts from a fresh random
    /// tape (default 32).
    pub backtracks: u32,
}

impl Default for SkeletonSearch {
    fn default() -> SkeletonSearch {
        SkeletonSearch {
            instantiations: 1_500,
            backtracks: 32,
        }
    }
}

/// The variables of [`SkeletonSearch::with_env`].
pub(crate) const VARS: &[Variable] = &[
    Variable {
        name: "TAPEFUZZ_INSTANTIATIONS",
        values: "1 to 10^9",
        default: "1500",
        meaning: "Most test cases per skeleton (a shape with its integers open); a skeleton is left earlier when its values repeat or finding another is cheap.",
    },
    Variable {
        name: "TAPEFUZZ_BACKTRACKS",
        values: "0 to 10^6",
        default: "32",
        meaning: "Randomised backtracking steps after a rejection inside a skeleton.",
    },
];

impl SkeletonSearch {
    /// These settings with the variables of `env` applied: `TAPEFUZZ_INSTANTIATIONS` (test
    /// cases per skeleton, 1 to 10^9) and `TAPEFUZZ_BACKTRACKS` (0 to 10^6).
    pub fn with_env(mut self, env: &Env) -> Result<SkeletonSearch, ConfigError> {
        if let Some(n) = env.whole("TAPEFUZZ_INSTANTIATIONS", 1..=1_000_000_000)? {
            self.instantiations = n;
        }
        if let Some(n) = env.whole("TAPEFUZZ_BACKTRACKS", 0..=1_000_000)? {
            self.backtracks = n as u32;
        }
        Ok(self)
    }
}

impl Strategy for SkeletonSearch {
    fn name(&self) -> &'static str {
        "constrain"
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(ConstrainSearch::new(self.clone()))
    }
}

/// The registry's entry of `constrain`.
pub(crate) fn from_env(env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(SkeletonSearch::default().with_env(env)?))
}
