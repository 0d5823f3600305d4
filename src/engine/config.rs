//! Run configuration: a struct with defaults, overridable from the environment.

use crate::env::{ConfigError, Env};
use crate::shrink::Budget;
use crate::tape::DEFAULT_MAX_CHOICES;
use std::time::Duration;

/// How a run goes (the strategy is not here: the loop is handed a search). [`Config::default`]
/// gives 256 tests, a fresh seed, the default shrink budget; [`Config::with_env`] applies
/// these variables on top:
///
/// | variable | field |
/// |---|---|
/// | `TAPEFUZZ_TESTS` | `tests` |
/// | `TAPEFUZZ_VALID_TESTS` | `valid_tests` (and `tests` 10× that, unless `TAPEFUZZ_TESTS` is set) |
/// | `TAPEFUZZ_SECONDS` | `seconds` (a time budget; with it, `tests` is unbounded unless also set) |
/// | `TAPEFUZZ_SEED` | `seed` |
/// | `TAPEFUZZ_TIMEOUT_MS` | `timeout` (at least 1) |
/// | `TAPEFUZZ_MALLOC_LIMIT_MB` | `malloc_limit_mb` (`0`: none) |
/// | `TAPEFUZZ_SHRINK_CALLS` | `shrink.calls` |
/// | `TAPEFUZZ_SHRINK_SECONDS` | `shrink.time` |
/// | `TAPEFUZZ_KEEP` | `keep` |
/// | `TAPEFUZZ_STATS` | `stats` (`1`, `true`, `yes`, `on`; or `0`, `false`, `no`, `off`) |
/// | `TAPEFUZZ_OBSERVABILITY` | `observability` (a file, or a folder for its `testcases.jsonl`; empty: off) |
/// | `TAPEFUZZ_MAX_REJECT_SHARE` | `max_reject_share` (a number in 0..=1) |
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Most counted test cases of the search phase, valid and rejected (it ends at the first
    /// failure too).
    pub tests: u64,
    /// Most valid test cases of the search phase, if the run should end there: the
    /// valid-test budget, apart from `tests`, which then bounds the rejected inputs too
    /// (Hypothesis's `max_examples`). `None` (the default): only `tests` counts.
    pub valid_tests: Option<u64>,
    /// Time budget of the search phase, if any.
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
    /// A test case that asks for this many megabytes (2^20 bytes) or more in one
    /// allocation fails, as under libFuzzer's `-malloc_limit_mb` (default 2,048; `None`: no
    /// limit). Checked only in the instrumented builds of `cargo tapefuzz` on glibc Linux
    /// ([`crate::allocation`]); a plain `cargo test` build has no limit.
    pub malloc_limit_mb: Option<u64>,
    /// Replay `regressions/` and `corpus/` first.
    pub reuse: bool,
    /// Save the shrunk failure to `regressions/`, and kept tapes to `corpus/`.
    pub save: bool,
    /// Print progress to stderr about once a second.
    pub progress: bool,
    /// Most tapes a search adds to `corpus/` in one run (0, the default, adds none for the
    /// searches that keep a sample of what they found).
    pub keep: usize,
    /// Collect and print statistics on stderr at the end of the run (see
    /// [`super::render_statistics`]): counts, events, choices per test case, the time split,
    /// why the run stopped. Off by default; when off, events and timings cost one
    /// thread-local read per test case.
    pub stats: bool,
    /// Append one JSON line per test case to this file (or to `testcases.jsonl` in this
    /// folder), in Hypothesis's observability format (see [`super::observability`]).
    pub observability: Option<std::path::PathBuf>,
    /// The share of generated test cases (0 to 1) that may be invalid — rejected or over the
    /// size budget — before the run warns (default 0.9; 1 never warns). A run with no valid
    /// test case at all fails whatever this says.
    pub max_reject_share: f64,
    /// A run in which no test case was valid — none generated, none replayed — fails its
    /// health check (Hypothesis's `Unsatisfiable`), as it tested nothing. On by default;
    /// off, the run only warns: for targets whose point is that valid values are hard to
    /// find (a benchmark of searches that learn to make them).
    pub fail_without_valid: bool,
    /// Where the run's words for a person go: the seed line, warnings, progress, a search's
    /// note, statistics ([`crate::reporter`]; stderr by default). The loop itself writes
    /// nothing.
    pub reporter: crate::reporter::Reporting,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            tests: 256,
            valid_tests: None,
            seconds: None,
            seed: None,
            max_choices: DEFAULT_MAX_CHOICES,
            shrink: Budget::default(),
            timeout: None,
            malloc_limit_mb: Some(crate::allocation::DEFAULT_LIMIT_MB),
            reuse: true,
            save: true,
            progress: false,
            keep: 0,
            stats: false,
            observability: None,
            max_reject_share: 0.9,
            fail_without_valid: true,
            reporter: crate::reporter::Reporting::default(),
        }
    }
}

/// A number of seconds as a duration, if it is one (finite, not negative, not absurdly large).
pub fn seconds(s: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(s).ok()
}

/// `name` as a number of seconds.
fn seconds_var(env: &Env, name: &str) -> Result<Option<f64>, ConfigError> {
    let expected = "a number of seconds (not negative)";
    match env.parse::<f64>(name, expected)? {
        Some(s) if seconds(s).is_none() => Err(env.error(name, expected)),
        v => Ok(v),
    }
}

impl Config {
    /// Sets the process's allocation limit to [`Config::malloc_limit_mb`]: each entry point
    /// of the loop calls it before it runs a test case.
    pub(crate) fn arm_allocation_limit(&self) {
        crate::allocation::set_limit(self.malloc_limit_mb.map(|mb| mb.saturating_mul(1 << 20)));
    }

    /// This configuration with the engine's variables of `env` applied (see the table on
    /// [`Config`]); the first malformed one is the error.
    pub fn with_env(mut self, env: &Env) -> Result<Config, ConfigError> {
        let tests = env.parse::<u64>("TAPEFUZZ_TESTS", "a whole number")?;
        if let Some(s) = seconds_var(env, "TAPEFUZZ_SECONDS")? {
            self.seconds = Some(s);
            self.tests = u64::MAX;
        }
        if let Some(v) = env.parse::<u64>("TAPEFUZZ_VALID_TESTS", "a whole number")? {
            self.valid_tests = Some(v);
            self.tests = v.saturating_mul(10);
        }
        if let Some(t) = tests {
            self.tests = t;
        }
        if let Some(s) = env.parse("TAPEFUZZ_SEED", "a whole number")? {
            self.seed = Some(s);
        }
        if let Some(ms) = env.whole("TAPEFUZZ_TIMEOUT_MS", 1..=u64::MAX)? {
            self.timeout = Some(Duration::from_millis(ms));
        }
        if let Some(mb) = env.whole(
            "TAPEFUZZ_MALLOC_LIMIT_MB",
            0..=crate::allocation::MAX_LIMIT_MB,
        )? {
            self.malloc_limit_mb = (mb > 0).then_some(mb);
        }
        if let Some(c) = env.parse("TAPEFUZZ_SHRINK_CALLS", "a whole number")? {
            self.shrink.calls = c;
        }
        if let Some(s) = seconds_var(env, "TAPEFUZZ_SHRINK_SECONDS")? {
            self.shrink.time = seconds(s).unwrap_or_default();
        }
        if let Some(k) = env.parse("TAPEFUZZ_KEEP", "a whole number")? {
            self.keep = k;
        }
        if let Some(on) = env.choice(
            "TAPEFUZZ_STATS",
            &["1", "true", "yes", "on", "0", "false", "no", "off"],
        )? {
            self.stats = matches!(on, "1" | "true" | "yes" | "on");
        }
        if let Some(path) = env.get("TAPEFUZZ_OBSERVABILITY") {
            self.observability = (!path.is_empty()).then(|| path.into());
        }
        if let Some(share) = env.number("TAPEFUZZ_MAX_REJECT_SHARE", 0.0..=1.0)? {
            self.max_reject_share = share;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_compare_by_their_settings_not_their_reporter() {
        assert_eq!(Config::default(), Config::default());
        let quiet = Config {
            reporter: crate::reporter::Reporting::silent(),
            ..Config::default()
        };
        assert_eq!(quiet, Config::default());
        assert_ne!(Config { tests: 1, ..quiet }, Config::default());
    }

    #[test]
    fn the_allocation_limit_is_libfuzzers_unless_set() {
        let with = |v: &str| {
            Config::default().with_env(&Env::from_pairs([("TAPEFUZZ_MALLOC_LIMIT_MB", v)]))
        };
        assert_eq!(Config::default().malloc_limit_mb, Some(2048));
        assert_eq!(with("512").unwrap().malloc_limit_mb, Some(512));
        assert_eq!(with("0").unwrap().malloc_limit_mb, None);
        let e = with("lots").unwrap_err().to_string();
        assert!(e.starts_with("TAPEFUZZ_MALLOC_LIMIT_MB=\"lots\""), "{e}");
        assert!(with("99999999").is_err());
    }
}
