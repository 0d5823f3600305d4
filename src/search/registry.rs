//! The registry of strategies by name: what `TAPEFUZZ_STRATEGY`, the CLI's `--strategy`
//! and [`crate::property::Property::strategy_named`] look names up in.

use crate::engine::Strategy;
use crate::env::{ConfigError, Env, Variable};
use std::sync::Arc;

/// One strategy the registry knows.
#[derive(Clone, Copy, Debug)]
pub struct Registered {
    /// Its name.
    pub name: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// The environment variables its settings read.
    pub vars: &'static [Variable],
    /// Its settings: the defaults with its variables of the environment applied.
    pub from_env: fn(&Env) -> Result<Arc<dyn Strategy>, ConfigError>,
}

/// Every built-in strategy, one line each.
pub const STRATEGIES: &[Registered] = &[
    Registered {
        name: "random",
        about: "independent random tapes",
        vars: &[],
        from_env: super::random::from_env,
    },
    Registered {
        name: "sa",
        about: "simulated annealing on the property's target() values",
        vars: super::sa::VARS,
        from_env: super::sa::from_env,
    },
    Registered {
        name: "rl",
        about: "reinforcement learning towards unique valid values (RLCheck)",
        vars: super::rl::VARS,
        from_env: super::rl::from_env,
    },
    Registered {
        name: "greybox",
        about: "coverage-guided mutation of kept tapes (needs coverage counters)",
        vars: &[],
        from_env: super::greybox::from_env,
    },
    Registered {
        name: "enumerate",
        about: "every tape, smallest first, pruned at rejections (bounded-exhaustive)",
        vars: super::enumerate::VARS,
        from_env: super::enumerate::from_env,
    },
    Registered {
        name: "patterns",
        about: "enumeration reprioritised by constructor patterns (paper 003's portfolio)",
        vars: super::enumerate::VARS,
        from_env: super::enumerate::patterns_from_env,
    },
    Registered {
        name: "cover",
        about: "rows of t-way covering arrays over the leading choices (Radix Coverage), then random",
        vars: super::cover::VARS,
        from_env: super::cover::from_env,
    },
    Registered {
        name: "constrain",
        about: "skeleton search and repeated instantiation for constrained generators (ProSyT)",
        vars: super::constrain::VARS,
        from_env: super::constrain::from_env,
    },
    Registered {
        name: "swarm",
        about: "swarm testing: each test case turns a random subset of every union's options off",
        vars: &[],
        from_env: super::swarm::from_env,
    },
];

/// The names of every strategy, comma-separated (for messages).
pub fn names() -> String {
    STRATEGIES
        .iter()
        .map(|e| e.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The entry called `name`.
pub fn entry(name: &str) -> Option<&'static Registered> {
    STRATEGIES.iter().find(|e| e.name == name)
}

/// The strategy called `name` with its settings from `env` (an error names a malformed
/// variable, or the unknown name with the valid ones).
pub fn named(name: &str, env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    match entry(name) {
        Some(e) => (e.from_env)(env),
        None => Err(ConfigError {
            var: "strategy".into(),
            value: name.into(),
            expected: format!("one of {}", names()),
        }),
    }
}

/// The strategy `TAPEFUZZ_STRATEGY` names (`random` when unset), with its settings from
/// `env`.
pub fn from_env(env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    let name = env.get("TAPEFUZZ_STRATEGY").unwrap_or("random");
    named(name, env).map_err(|mut e| {
        if e.var == "strategy" {
            e.var = "TAPEFUZZ_STRATEGY".into();
        }
        e
    })
}

/// Every strategy's variables.
pub fn vars() -> impl Iterator<Item = &'static Variable> {
    STRATEGIES.iter().flat_map(|e| e.vars.iter())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_builds_a_search_of_its_name() {
        for e in STRATEGIES {
            let s = (e.from_env)(&Env::default()).unwrap();
            assert_eq!(s.name(), e.name);
            assert_eq!(s.search().name(), e.name);
        }
        let err = from_env(&Env::from_pairs([("TAPEFUZZ_STRATEGY", "annealing")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "TAPEFUZZ_STRATEGY=\"annealing\" is not valid (expected one of random, sa, rl, greybox, enumerate, patterns, cover, constrain, swarm)"
        );
    }
}
