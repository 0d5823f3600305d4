//! The settings of the `sa` strategy and their environment variables.

use super::AnnealSearch;
use crate::engine::{Search, Strategy};
use crate::env::{ConfigError, Env, Variable};
use crate::mutate::Neighbourhood;
use std::sync::Arc;

/// How the temperature falls over a cycle of `n` steps; step `k` counts from 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// `t0 · (1 − k/n)`: PropEr's default, over the whole test budget.
    Linear,
    /// `t0 · alpha^k`.
    Exponential(f64),
    /// `t0 / (1 + k)` ("fast annealing").
    Fast,
}

/// Settings of the `sa` strategy. [`Anneal::default`] documents the defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anneal {
    /// The constructed neighbourhood's rates.
    pub neighbourhood: Neighbourhood,
    /// Temperature at the start of each cycle (0.3: it scales both the neighbourhood and
    /// the acceptance of worse inputs; tuned on graph_sink).
    pub temperature: f64,
    /// How it falls (linear).
    pub schedule: Schedule,
    /// Steps per cycle: the run's test budget when it has one, else this many (10,000);
    /// the temperature starts again at the end of a cycle.
    pub cycle: u64,
    /// Restart from a fresh random input after this many steps without a new best
    /// (`None`: never). Default 2,000.
    pub restart_after: Option<u64>,
}

impl Default for Anneal {
    fn default() -> Anneal {
        Anneal {
            neighbourhood: Neighbourhood::default(),
            temperature: 0.3,
            schedule: Schedule::Linear,
            cycle: 10_000,
            restart_after: Some(2_000),
        }
    }
}

/// The variables of [`Anneal::with_env`].
pub(crate) const VARS: &[Variable] = &[
    Variable {
        name: "TAPEFUZZ_SA_T0",
        values: "a number, not negative",
        default: "0.3",
        meaning: "The starting temperature; it falls linearly over each cycle.",
    },
    Variable {
        name: "TAPEFUZZ_SA_CYCLE",
        values: "a whole number",
        default: "the test budget (10000 under a time budget)",
        meaning: "Steps in one cooling cycle.",
    },
    Variable {
        name: "TAPEFUZZ_SA_RESTART",
        values: "a whole number; 0: never",
        default: "2000",
        meaning: "Restart from a fresh input after this many steps without a new best utility.",
    },
    Variable {
        name: "TAPEFUZZ_SA_RESIZE",
        values: "a number, not negative",
        default: "0.2",
        meaning: "Per list element: probability (times the temperature) of inserting or deleting one.",
    },
    Variable {
        name: "TAPEFUZZ_SA_MODIFY",
        values: "a number, not negative",
        default: "0.1",
        meaning: "Per list element: probability (times the temperature) that it is modified.",
    },
    Variable {
        name: "TAPEFUZZ_SA_FIELD",
        values: "a number, not negative",
        default: "0.5",
        meaning: "Per choice outside any list element: probability (times the temperature) that it is modified.",
    },
    Variable {
        name: "TAPEFUZZ_SA_LEAF",
        values: "a number, not negative",
        default: "0.5",
        meaning: "Per choice inside a modified element: probability that it is modified.",
    },
    Variable {
        name: "TAPEFUZZ_SA_WINDOW",
        values: "a number, not negative",
        default: "0.05",
        meaning: "Half-width of a number's move, as a share of its range (times the temperature).",
    },
];

impl Anneal {
    /// These settings with the `TAPEFUZZ_SA_*` variables of `env` applied: `T0`
    /// (temperature), `CYCLE`, `RESTART` (0 = never), `RESIZE`, `MODIFY`, `FIELD`, `LEAF`,
    /// `WINDOW` (the neighbourhood's rates; every rate finite and not negative).
    pub fn with_env(mut self, env: &Env) -> Result<Anneal, ConfigError> {
        let rate = |name: &str, slot: &mut f64| -> Result<(), ConfigError> {
            if let Some(x) = env.number(name, 0.0..=f64::MAX)? {
                *slot = x;
            }
            Ok(())
        };
        let n = &mut self.neighbourhood;
        rate("TAPEFUZZ_SA_T0", &mut self.temperature)?;
        rate("TAPEFUZZ_SA_RESIZE", &mut n.resize)?;
        rate("TAPEFUZZ_SA_MODIFY", &mut n.modify)?;
        rate("TAPEFUZZ_SA_FIELD", &mut n.field)?;
        rate("TAPEFUZZ_SA_LEAF", &mut n.leaf)?;
        rate("TAPEFUZZ_SA_WINDOW", &mut n.window)?;
        if let Some(c) = env.parse::<u64>("TAPEFUZZ_SA_CYCLE", "a whole number")? {
            self.cycle = c.max(1);
        }
        if let Some(r) = env.parse::<u64>("TAPEFUZZ_SA_RESTART", "a whole number")? {
            self.restart_after = (r > 0).then_some(r);
        }
        Ok(self)
    }

    /// The temperature at step `k` of a cycle of `n` steps.
    pub fn temperature_at(&self, k: u64, n: u64) -> f64 {
        let t0 = self.temperature;
        let n = n.max(1);
        let k = k % n;
        match self.schedule {
            Schedule::Linear => t0 * (1.0 - k as f64 / n as f64),
            Schedule::Exponential(alpha) => t0 * alpha.powf(k as f64),
            Schedule::Fast => t0 / (1.0 + k as f64),
        }
    }
}

impl Strategy for Anneal {
    fn name(&self) -> &'static str {
        "sa"
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(AnnealSearch::new(*self))
    }
}

/// The registry's entry.
pub(crate) fn from_env(env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(Anneal::default().with_env(env)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_start_at_t0_and_fall() {
        let a = Anneal {
            temperature: 1.0,
            ..Anneal::default()
        };
        assert_eq!(a.temperature_at(0, 100), 1.0);
        assert!((a.temperature_at(50, 100) - 0.5).abs() < 1e-12);
        assert_eq!(a.temperature_at(100, 100), 1.0, "a new cycle starts hot");
        let fast = Anneal {
            schedule: Schedule::Fast,
            ..a
        };
        assert!((fast.temperature_at(3, 100) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn settings_from_the_environment() {
        let env = Env::from_pairs([("TAPEFUZZ_SA_T0", "0.5"), ("TAPEFUZZ_SA_RESTART", "0")]);
        let a = Anneal::default().with_env(&env).unwrap();
        assert_eq!(a.temperature, 0.5);
        assert_eq!(a.restart_after, None);
        let bad = Env::from_pairs([("TAPEFUZZ_SA_LEAF", "-1")]);
        assert!(Anneal::default().with_env(&bad).is_err());
    }
}
