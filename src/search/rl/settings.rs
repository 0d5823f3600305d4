//! The `rl` strategy's environment variables, and [`Learn`] as a strategy.

use super::{Abstraction, Learn, LearnSearch, Learners, Update};
use crate::engine::{Search, Strategy};
use crate::env::{ConfigError, Env, Variable};
use std::sync::Arc;

/// The variables of [`Learn::with_env`].
pub(crate) const VARS: &[Variable] = &[
    Variable {
        name: "TAPEFUZZ_RL_EPSILON",
        values: "a number in 0..=1",
        default: "0.25",
        meaning: "Probability of an exploring (random) choice instead of the learned best one.",
    },
    Variable {
        name: "TAPEFUZZ_RL_WINDOW",
        values: "0 to 64",
        default: "5",
        meaning: "How many recent tokens (choices, span labels) a learner's state keeps.",
    },
    Variable {
        name: "TAPEFUZZ_RL_STATE",
        values: "`tree`, `sequence` or `none`",
        default: "`tree`",
        meaning: "The state: the enclosing spans and their own choices, the last choices in order, or nothing.",
    },
    Variable {
        name: "TAPEFUZZ_RL_RECENT",
        values: "0 to 64",
        default: "0",
        meaning: "With `tree`, also the last this many choices of the test case, wherever drawn.",
    },
    Variable {
        name: "TAPEFUZZ_RL_LEARNERS",
        values: "`label` or `point`",
        default: "`label`",
        meaning: "One learner per choice-point label, or per choice point.",
    },
    Variable {
        name: "TAPEFUZZ_RL_UNIQUE",
        values: "a number",
        default: "20",
        meaning: "Reward of a valid test case not seen before.",
    },
    Variable {
        name: "TAPEFUZZ_RL_VALID",
        values: "a number",
        default: "0",
        meaning: "Reward of a valid test case seen before.",
    },
    Variable {
        name: "TAPEFUZZ_RL_INVALID",
        values: "a number",
        default: "-1",
        meaning: "Reward of a rejected test case.",
    },
    Variable {
        name: "TAPEFUZZ_RL_DECAY",
        values: "a number in 0..=1; 0: plain averages",
        default: "0",
        meaning: "Step size of the value updates (recent rewards weigh more).",
    },
    Variable {
        name: "TAPEFUZZ_RL_BONUS",
        values: "a number, not negative",
        default: "0",
        meaning: "Count-based exploration bonus: the greedy choice maximises Q + bonus / sqrt(n + 1).",
    },
    Variable {
        name: "TAPEFUZZ_RL_BOOTSTRAP",
        values: "`0` or `1`",
        default: "0",
        meaning: "Teach the learners the valid tapes of `corpus/` before the campaign.",
    },
];

impl Learn {
    /// These settings with the `TAPEFUZZ_RL_*` variables of `env` applied: `EPSILON`
    /// (0..=1), `WINDOW` and `RECENT` (0..=64), `STATE` (`tree`, `sequence` or `none`),
    /// `LEARNERS` (`label` or `point`), `UNIQUE`, `VALID`, `INVALID` (rewards), `DECAY`
    /// (alpha of [`Update::Decayed`] in 0..=1; 0 = plain averages), `BONUS` (not negative),
    /// `BOOTSTRAP` (0 or 1).
    pub fn with_env(mut self, env: &Env) -> Result<Learn, ConfigError> {
        if let Some(e) = env.number("TAPEFUZZ_RL_EPSILON", 0.0..=1.0)? {
            self.epsilon = e;
        }
        if let Some(w) = env.whole("TAPEFUZZ_RL_WINDOW", 0..=64)? {
            self.window = w as usize;
        }
        if let Some(r) = env.whole("TAPEFUZZ_RL_RECENT", 0..=64)? {
            self.recent = r as usize;
        }
        if let Some(s) = env.choice("TAPEFUZZ_RL_STATE", &["tree", "sequence", "none"])? {
            self.abstraction = match s {
                "tree" => Abstraction::Tree,
                "sequence" => Abstraction::Sequence,
                _ => Abstraction::None,
            };
        }
        if let Some(s) = env.choice("TAPEFUZZ_RL_LEARNERS", &["label", "point"])? {
            self.learners = match s {
                "label" => Learners::ByLabel,
                _ => Learners::ByPoint,
            };
        }
        for (name, slot) in [
            ("TAPEFUZZ_RL_UNIQUE", &mut self.rewards.unique),
            ("TAPEFUZZ_RL_VALID", &mut self.rewards.valid),
            ("TAPEFUZZ_RL_INVALID", &mut self.rewards.invalid),
        ] {
            if let Some(r) = env.number(name, f64::MIN..=f64::MAX)? {
                *slot = r;
            }
        }
        if let Some(a) = env.number("TAPEFUZZ_RL_DECAY", 0.0..=1.0)? {
            self.update = if a == 0.0 {
                Update::Average
            } else {
                Update::Decayed(a)
            };
        }
        if let Some(b) = env.number("TAPEFUZZ_RL_BONUS", 0.0..=f64::MAX)? {
            self.bonus = b;
        }
        if let Some(b) = env.whole("TAPEFUZZ_RL_BOOTSTRAP", 0..=1)? {
            self.bootstrap = b == 1;
        }
        Ok(self)
    }
}

impl Strategy for Learn {
    fn name(&self) -> &'static str {
        "rl"
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(LearnSearch::new(self.clone()))
    }
}

/// The registry's entry.
pub(crate) fn from_env(env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(Learn::default().with_env(env)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_from_the_environment_and_bad_values_named() {
        let env = Env::from_pairs([
            ("TAPEFUZZ_RL_EPSILON", "0.1"),
            ("TAPEFUZZ_RL_WINDOW", "6"),
            ("TAPEFUZZ_RL_STATE", "sequence"),
            ("TAPEFUZZ_RL_RECENT", "2"),
            ("TAPEFUZZ_RL_LEARNERS", "point"),
            ("TAPEFUZZ_RL_INVALID", "-2"),
            ("TAPEFUZZ_RL_DECAY", "0.05"),
            ("TAPEFUZZ_RL_BONUS", "1.5"),
            ("TAPEFUZZ_RL_BOOTSTRAP", "1"),
        ]);
        let l = Learn::default().with_env(&env).unwrap();
        assert_eq!(l.epsilon, 0.1);
        assert_eq!(l.window, 6);
        assert_eq!(l.abstraction, Abstraction::Sequence);
        assert_eq!(l.recent, 2);
        assert_eq!(l.learners, Learners::ByPoint);
        assert_eq!(l.rewards.invalid, -2.0);
        assert_eq!(l.rewards.unique, 20.0);
        assert_eq!(l.update, Update::Decayed(0.05));
        assert_eq!(l.bonus, 1.5);
        assert!(l.bootstrap);
        for (var, bad) in [
            ("TAPEFUZZ_RL_EPSILON", "1.5"),
            ("TAPEFUZZ_RL_STATE", "forest"),
            ("TAPEFUZZ_RL_WINDOW", "2.5"),
            ("TAPEFUZZ_RL_DECAY", "-1"),
            ("TAPEFUZZ_RL_BOOTSTRAP", "yes"),
        ] {
            let e = Learn::default()
                .with_env(&Env::from_pairs([(var, bad)]))
                .unwrap_err();
            assert!(e.to_string().contains(var), "{e}");
        }
    }
}
