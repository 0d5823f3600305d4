//! Settings from the environment, in one place: the engine's [`Config`], the strategy
//! (`TAPEFUZZ_STRATEGY` and its own variables), and a one-line warning for every
//! `TAPEFUZZ_*` variable that nothing reads.

use crate::engine::{Config, Strategy};
use crate::env::{self, ConfigError, Env};
use crate::search::registry;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A run's settings: the loop's configuration and the strategy.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engine's configuration.
    pub config: Config,
    /// The strategy (`random` by default).
    pub strategy: Arc<dyn Strategy>,
}

/// Every `TAPEFUZZ_*` variable tapefuzz reads: the engine's and the property layer's
/// ([`env::CORE`]), every strategy's ([`registry::vars`]) and the tools' ([`env::OTHER`]).
pub fn known_vars() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = env::CORE
        .iter()
        .copied()
        .chain(registry::vars())
        .chain(env::OTHER.iter().copied())
        .collect();
    v.sort_unstable();
    v
}

/// The warning for the variables of `env` that nothing reads (a misspelling, usually), or
/// `None` when there are none.
pub fn unknown_warning(env: &Env) -> Option<String> {
    let known = known_vars();
    let unknown = env.unknown(&known);
    (!unknown.is_empty()).then(|| {
        format!(
            "tapefuzz: warning: unknown environment variable{} {} (ignored; valid: {})",
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", "),
            known.join(", ")
        )
    })
}

impl Settings {
    /// The defaults with `env` applied.
    pub fn from(env: &Env) -> Result<Settings, ConfigError> {
        Ok(Settings {
            config: Config::default().with_env(env)?,
            strategy: registry::from_env(env)?,
        })
    }

    /// The defaults with the process's environment applied; the first time in a process
    /// that it finds an unknown `TAPEFUZZ_*` variable, it says so on stderr.
    pub fn from_env() -> Result<Settings, ConfigError> {
        static WARNED: AtomicBool = AtomicBool::new(false);
        let env = Env::from_process();
        if let Some(w) = unknown_warning(&env)
            && !WARNED.swap(true, Ordering::Relaxed)
        {
            eprintln!("{w}");
        }
        Settings::from(&env)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_variable_is_named_with_the_valid_ones() {
        let env = Env::from_pairs([("TAPEFUZZ_TEST", "100000"), ("TAPEFUZZ_TESTS", "5")]);
        let w = unknown_warning(&env).unwrap();
        assert!(w.contains("variable TAPEFUZZ_TEST (ignored"), "{w}");
        assert!(w.contains("TAPEFUZZ_TESTS, "), "{w}");
        assert!(w.contains("TAPEFUZZ_RL_EPSILON"), "{w}");
        assert_eq!(
            unknown_warning(&Env::from_pairs([("TAPEFUZZ_SEED", "1")])),
            None
        );
        let s = Settings::from(&Env::from_pairs([
            ("TAPEFUZZ_STRATEGY", "sa"),
            ("TAPEFUZZ_TESTS", "5"),
        ]))
        .unwrap();
        assert_eq!((s.strategy.name(), s.config.tests), ("sa", 5));
    }
}
