//! Run configuration: a struct with defaults, overridable by environment variables.

use super::Anneal;
use crate::guide::Learn;
use crate::shrink::Budget;
use crate::tape::DEFAULT_MAX_CHOICES;
use std::fmt;
use std::time::Duration;

/// How a run goes. [`Config::default`] gives 256 tests, a random seed, the default shrink
/// budget; [`Config::from_env`] applies these environment variables on top:
///
/// | variable | field |
/// |---|---|
/// | `TAPEFUZZ_TESTS` | `tests` |
/// | `TAPEFUZZ_SECONDS` | `seconds` (a time budget; with it, `tests` is unbounded unless also set) |
/// | `TAPEFUZZ_SEED` | `seed` |
/// | `TAPEFUZZ_TIMEOUT_MS` | `timeout` |
/// | `TAPEFUZZ_SHRINK_CALLS` | `shrink.calls` |
/// | `TAPEFUZZ_SHRINK_SECONDS` | `shrink.time` |
/// | `TAPEFUZZ_STRATEGY` | `strategy` (`random`, `sa` or `rl`) |
/// | `TAPEFUZZ_KEEP` | `keep` |
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// How test cases are generated.
    pub strategy: Strategy,
    /// Most generated test cases (the generate phase ends at the first failure too).
    pub tests: u64,
    /// Time budget of the generate phase, if any.
    pub seconds: Option<f64>,
    /// Seed of the run; a fresh one is drawn when `None` and reported.
    pub seed: Option<u64>,
    /// Size budget of one test case, in choices.
    pub max_choices: usize,
    /// Shrink budget.
    pub shrink: Budget,
    /// A test case that runs longer than this counts as a failure (measured after it
    /// returns: a test case that never returns still hangs).
    pub timeout: Option<Duration>,
    /// Replay `regressions/` and `corpus/` first.
    pub reuse: bool,
    /// Save the shrunk failure to `regressions/`.
    pub save: bool,
    /// Print progress to stderr about once a second.
    pub progress: bool,
    /// Most unique valid tapes an `rl` campaign adds to `corpus/` (sampled uniformly from
    /// all it found; 0, the default, adds none).
    pub keep: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            strategy: Strategy::Random,
            tests: 256,
            seconds: None,
            seed: None,
            max_choices: DEFAULT_MAX_CHOICES,
            shrink: Budget::default(),
            timeout: None,
            reuse: true,
            save: true,
            progress: false,
            keep: 0,
        }
    }
}

/// How the generate phase makes its test cases.
#[derive(Clone, Debug, PartialEq)]
pub enum Strategy {
    /// Independent random tapes, one per test (the default).
    Random,
    /// Simulated annealing on the utility values the property reports (`sa`).
    Anneal(Anneal),
    /// Reinforcement-learning guidance towards unique valid values (`rl`, RLCheck).
    Learn(Learn),
}

impl Strategy {
    /// The strategy's name, as the CLI and the JSON summary spell it.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Anneal(_) => "sa",
            Strategy::Learn(_) => "rl",
        }
    }

    /// The strategy called `name`, with default settings.
    pub fn named(name: &str) -> Option<Strategy> {
        match name {
            "random" => Some(Strategy::Random),
            "sa" => Some(Strategy::Anneal(Anneal::default())),
            "rl" => Some(Strategy::Learn(Learn::default())),
            _ => None,
        }
    }
}

/// An environment variable with a value that does not parse or is out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The variable.
    pub var: String,
    /// Its value.
    pub value: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.var == "TAPEFUZZ_STRATEGY" {
            return write!(
                f,
                "{}={:?} is not a strategy (valid: random, sa, rl)",
                self.var, self.value
            );
        }
        write!(f, "{}={:?} is not a valid number", self.var, self.value)
    }
}

/// A number of seconds as a duration, if it is one (finite, not negative, not absurdly large).
pub fn seconds(s: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(s).ok()
}

fn seconds_var(name: &str) -> Result<Option<f64>, ConfigError> {
    let v: Option<f64> = var(name)?;
    match v {
        Some(s) if seconds(s).is_none() => Err(ConfigError {
            var: name.into(),
            value: std::env::var(name).unwrap_or_default(),
        }),
        _ => Ok(v),
    }
}

impl std::error::Error for ConfigError {}

/// The environment variable `name` parsed as a `T` (`None` when unset).
pub(super) fn var<T: std::str::FromStr>(name: &str) -> Result<Option<T>, ConfigError> {
    match std::env::var(name) {
        Ok(v) => v.trim().parse().map(Some).map_err(|_| ConfigError {
            var: name.into(),
            value: v,
        }),
        Err(_) => Ok(None),
    }
}

impl Config {
    /// This configuration with the `TAPEFUZZ_*` environment variables applied.
    pub fn with_env(mut self) -> Result<Config, ConfigError> {
        let tests: Option<u64> = var("TAPEFUZZ_TESTS")?;
        let budget = seconds_var("TAPEFUZZ_SECONDS")?;
        if let Some(s) = budget {
            self.seconds = Some(s);
            self.tests = u64::MAX;
        }
        if let Some(t) = tests {
            self.tests = t;
        }
        if let Some(s) = var("TAPEFUZZ_SEED")? {
            self.seed = Some(s);
        }
        if let Some(ms) = var::<u64>("TAPEFUZZ_TIMEOUT_MS")? {
            self.timeout = Some(Duration::from_millis(ms));
        }
        if let Some(c) = var("TAPEFUZZ_SHRINK_CALLS")? {
            self.shrink.calls = c;
        }
        if let Some(s) = seconds_var("TAPEFUZZ_SHRINK_SECONDS")? {
            self.shrink.time = seconds(s).unwrap_or_default();
        }
        if let Ok(name) = std::env::var("TAPEFUZZ_STRATEGY") {
            self.strategy = Strategy::named(name.trim()).ok_or(ConfigError {
                var: "TAPEFUZZ_STRATEGY".into(),
                value: name,
            })?;
        }
        if let Some(k) = var::<usize>("TAPEFUZZ_KEEP")? {
            self.keep = k;
        }
        match &mut self.strategy {
            Strategy::Anneal(a) => a.apply_env()?,
            Strategy::Learn(l) => l.apply_env()?,
            Strategy::Random => {}
        }
        Ok(self)
    }

    /// The defaults with the environment applied.
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::default().with_env()
    }
}
