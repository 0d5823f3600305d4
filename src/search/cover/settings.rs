//! The settings of the `cover` strategy and their environment variables.

use super::CoverSearch;
use crate::engine::{Search, Strategy};
use crate::env::{ConfigError, Env, Variable};
use std::sync::Arc;

/// Settings of the `cover` strategy. [`Cover::default`] documents the defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Cover {
    /// The first strength: every `strength`-way combination of the parameters' values (of
    /// their digits, for split parameters) appears in some test case. Default 2.
    pub strength: usize,
    /// The last strength: when the array of one strength has run, the next one is built and
    /// run, up to this one (at most 6). Default 3 (the paper's TCAS study used 2 and 3; a
    /// strength-4 array over TCAS's 36 digit columns takes about 4 s to build, during which
    /// nothing runs, and strength 5 has more than 20 million tuples).
    pub max_strength: usize,
    /// A parameter with more options than this is split into digits (Radix Coverage). Default
    /// 10 (the paper: covering-array tools handle up to 8–10 values a parameter well).
    pub radix_above: u64,
    /// The widest parameter: a leading choice with more options ends the parameters (a
    /// 64-bit integer is not a configuration option). Default 2^24.
    pub widest: u64,
    /// Test cases drawn at random first, to find the parameters (the leading choices all of
    /// them draw alike). Default 16.
    pub probes: u64,
    /// Largest number of t-tuples an array may have to cover: a larger one is not built, and
    /// the search goes on at random. Default 20,000,000.
    pub max_tuples: u64,
    /// While the arrays run, every other test case is random: a bug random testing finds
    /// at once is not held up by thousands of rows (true by default; false runs the rows
    /// back to back).
    pub alternate: bool,
}

impl Default for Cover {
    fn default() -> Cover {
        Cover {
            strength: 2,
            max_strength: 3,
            radix_above: 10,
            widest: 1 << 24,
            probes: 16,
            max_tuples: 20_000_000,
            alternate: true,
        }
    }
}

/// The variables of [`Cover::with_env`].
pub(crate) const VARS: &[Variable] = &[
    Variable {
        name: "TAPEFUZZ_COVER_STRENGTH",
        values: "1 to 6",
        default: "2",
        meaning: "The strength of the first covering array: every combination of this many leading choices is run.",
    },
    Variable {
        name: "TAPEFUZZ_COVER_MAX_STRENGTH",
        values: "1 to 6",
        default: "3",
        meaning: "The strength of the last array (strengths grow one by one); then the search goes on at random.",
    },
];

impl Cover {
    /// These settings with `TAPEFUZZ_COVER_STRENGTH` (first strength, 1 to 6) and
    /// `TAPEFUZZ_COVER_MAX_STRENGTH` (last strength, 1 to 6; below the first, it is the
    /// first) applied.
    pub fn with_env(mut self, env: &Env) -> Result<Cover, ConfigError> {
        if let Some(t) = env.whole("TAPEFUZZ_COVER_STRENGTH", 1..=6)? {
            self.strength = t as usize;
        }
        if let Some(t) = env.whole("TAPEFUZZ_COVER_MAX_STRENGTH", 1..=6)? {
            self.max_strength = t as usize;
        }
        Ok(self)
    }
}

impl Strategy for Cover {
    fn name(&self) -> &'static str {
        "cover"
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(CoverSearch::new(self.clone()))
    }
}

/// The registry's entry.
pub(crate) fn from_env(env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(Cover::default().with_env(env)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_from_the_environment() {
        let env = Env::from_pairs([
            ("TAPEFUZZ_COVER_STRENGTH", "3"),
            ("TAPEFUZZ_COVER_MAX_STRENGTH", "4"),
        ]);
        let c = Cover::default().with_env(&env).unwrap();
        assert_eq!((c.strength, c.max_strength), (3, 4));
        let bad = Env::from_pairs([("TAPEFUZZ_COVER_STRENGTH", "7")]);
        assert!(Cover::default().with_env(&bad).is_err());
    }
}
