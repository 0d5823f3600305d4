//! Configuration from the environment, read in one place.
//!
//! An [`Env`] is a snapshot of the `TAPEFUZZ_*` variables. The engine's settings
//! ([`crate::engine::Config::with_env`]) and each strategy's ([`crate::search::registry`])
//! parse their variables from it, so a test can hand them a made-up environment; and every
//! variable nobody knows — a misspelt `TAPEFUZZ_TEST=100000` — gets a one-line warning
//! naming the valid ones ([`Env::unknown`], [`crate::settings`]).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// One `TAPEFUZZ_*` variable with what it takes and what it does: the lists of this module
/// and of each strategy are made of them, so the configuration reference of the guide
/// (`guide/src/configuration.md`, checked by `tests/docs.rs`) is generated from the code
/// that reads the variables ([`crate::settings::reference`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variable {
    /// The variable's name, `TAPEFUZZ_…`.
    pub name: &'static str,
    /// What a valid value looks like.
    pub values: &'static str,
    /// What happens when it is unset.
    pub default: &'static str,
    /// What it does, in a sentence.
    pub meaning: &'static str,
}

/// Variables the engine reads ([`crate::engine::Config::with_env`]) and the property layer
/// (`TAPEFUZZ_CORPORA`, `TAPEFUZZ_STRATEGY`).
pub const CORE: &[Variable] = &[
    Variable {
        name: "TAPEFUZZ_TESTS",
        values: "a whole number",
        default: "256 (`cargo tapefuzz run`: 10,000, over this variable and `.tests(n)` unless `--tests` is given)",
        meaning: "Most test cases of the search phase, valid and rejected; 0 replays saved tapes only.",
    },
    Variable {
        name: "TAPEFUZZ_VALID_TESTS",
        values: "a whole number",
        default: "unset: only `TAPEFUZZ_TESTS` counts",
        meaning: "Most valid test cases; the test budget becomes 10 times this unless `TAPEFUZZ_TESTS` is set.",
    },
    Variable {
        name: "TAPEFUZZ_SECONDS",
        values: "seconds, not negative",
        default: "unset: no time budget",
        meaning: "A time budget for the search phase; with it the test budget is unbounded unless also set.",
    },
    Variable {
        name: "TAPEFUZZ_SEED",
        values: "a whole number",
        default: "a fresh seed, printed on stderr",
        meaning: "The run's seed: the same seed gives the same test cases.",
    },
    Variable {
        name: "TAPEFUZZ_TIMEOUT_MS",
        values: "milliseconds, at least 1",
        default: "unset: no timeout (`cargo tapefuzz run --seconds S` and `ci`: S + 10 s)",
        meaning: "A test case running longer fails as a hang; a watchdog ends a run whose test case never returns.",
    },
    Variable {
        name: "TAPEFUZZ_MALLOC_LIMIT_MB",
        values: "megabytes, `0` for none",
        default: "2048 (libFuzzer's `-malloc_limit_mb` under `cargo tapefuzz fuzz`)",
        meaning: "A test case that asks for this much or more in one allocation fails (a length field that reserves gigabytes); checked in `cargo tapefuzz`'s instrumented builds on glibc Linux, not under plain `cargo test`.",
    },
    Variable {
        name: "TAPEFUZZ_SHRINK_CALLS",
        values: "a whole number",
        default: "20000",
        meaning: "Most calls of the property while shrinking one failure; 0 reports the failure as found.",
    },
    Variable {
        name: "TAPEFUZZ_SHRINK_SECONDS",
        values: "seconds, not negative",
        default: "60",
        meaning: "Most time spent shrinking one failure.",
    },
    Variable {
        name: "TAPEFUZZ_KEEP",
        values: "a whole number",
        default: "0 (`cargo tapefuzz ci`: 8)",
        meaning: "Most tapes a search adds to `corpus/` in one run: rl's unique valid tapes, constrain's skeletons (greybox keeps up to 100 whatever this says).",
    },
    Variable {
        name: "TAPEFUZZ_STATS",
        values: "`1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`",
        default: "off",
        meaning: "Print the run's statistics on stderr at its end: counts, events, sizes, the time split.",
    },
    Variable {
        name: "TAPEFUZZ_OBSERVABILITY",
        values: "a file, or a folder (for its `testcases.jsonl`); empty: off",
        default: "off",
        meaning: "Append one JSON line per test case in Hypothesis's observability format.",
    },
    Variable {
        name: "TAPEFUZZ_MAX_REJECT_SHARE",
        values: "a number in 0..=1",
        default: "0.9",
        meaning: "Warn when more than this share of the generated test cases was invalid (1 never warns).",
    },
    Variable {
        name: "TAPEFUZZ_STRATEGY",
        values: "a strategy's name: `random`, `sa`, `rl`, `greybox`, `enumerate`, `patterns`, `cover`, `constrain`, `swarm`",
        default: "`random` (or the property's own `Property::strategy`; `cargo tapefuzz ci`: `rl`)",
        meaning: "The search that proposes test cases.",
    },
    Variable {
        name: "TAPEFUZZ_CORPORA",
        values: "a folder (made when missing)",
        default: "`corpora/` in the crate's folder",
        meaning: "Where every property's corpus folder lives.",
    },
];

/// Variables a user may set that are read elsewhere: the libFuzzer glue's tape-level
/// features, and what `cargo tapefuzz explain` asks about a part ([`crate::serve`]).
pub const OTHER: &[Variable] = &[
    Variable {
        name: "TAPEFUZZ_FEATURES",
        values: "`1` or `0`",
        default: "off",
        meaning: "Under libFuzzer, also report each valid input's tape features as counters of their own (read once, at start-up).",
    },
    Variable {
        name: "TAPEFUZZ_EXPLAIN_PATH",
        values: "a path into a value, such as `.1[0].x`",
        default: "unset: explain the whole value",
        meaning: "The part whose provenance `cargo tapefuzz explain` shows (`--path`).",
    },
    Variable {
        name: "TAPEFUZZ_EXPLAIN_DOT",
        values: "a file",
        default: "unset",
        meaning: "Where `explain --path` writes the provenance graph in Graphviz's DOT (`--dot`).",
    },
    Variable {
        name: "TAPEFUZZ_EXPLAIN_SVG",
        values: "a file",
        default: "unset",
        meaning: "Where `explain --path` writes the provenance graph as SVG (`--svg`).",
    },
];

/// Variables of the protocol between `cargo tapefuzz` (or a parent test process) and a test
/// binary ([`crate::serve`]): known, so never warned about, but never suggested either.
pub const PROTOCOL: &[&str] = &[
    "TAPEFUZZ_CHILD",
    "TAPEFUZZ_COMMAND",
    "TAPEFUZZ_PROPERTY",
    "TAPEFUZZ_OUT",
    "TAPEFUZZ_ARGS",
    "TAPEFUZZ_MODE",
    "TAPEFUZZ_STANDALONE",
    "TAPEFUZZ_STANDALONE_PID",
];

/// The path in the variable `name` as the operating system gives it (not trimmed, not
/// required to be UTF-8); `None` when unset or empty.
pub fn path_var(name: &str) -> Option<std::path::PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
}

/// The value of the variable `name` as an [`Env`] holds it (read lossily, trimmed), read
/// from the process now; `None` when unset. For one variable where a snapshot of them all
/// would cost more than the rest of a short run.
pub fn text_var(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().trim().to_string())
}

/// A variable with a value that does not parse or is out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The variable.
    pub var: String,
    /// Its value.
    pub value: String,
    /// What a valid value looks like (`a number`, `one of random, sa, rl`, …).
    pub expected: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}={:?} is not valid (expected {})",
            self.var, self.value, self.expected
        )
    }
}

impl std::error::Error for ConfigError {}

/// A snapshot of the `TAPEFUZZ_*` variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Env {
    vars: BTreeMap<String, String>,
}

impl Env {
    /// The process's `TAPEFUZZ_*` variables now (values that are not UTF-8 are read lossily).
    pub fn from_process() -> Env {
        Env {
            vars: std::env::vars_os()
                .filter_map(|(k, v)| {
                    let k = k.into_string().ok()?;
                    k.starts_with("TAPEFUZZ_")
                        .then(|| (k, v.to_string_lossy().into_owned()))
                })
                .collect(),
        }
    }

    /// An environment of these pairs (for tests and embedding).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Env {
        Env {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// The raw value of `name`, trimmed.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(|v| v.trim())
    }

    /// The error for `name`'s value, expecting `expected`.
    pub fn error(&self, name: &str, expected: &str) -> ConfigError {
        ConfigError {
            var: name.into(),
            value: self.vars.get(name).cloned().unwrap_or_default(),
            expected: expected.into(),
        }
    }

    /// `name` parsed as a `T` (`None` when unset; an error naming `expected` when it does
    /// not parse).
    pub fn parse<T: FromStr>(&self, name: &str, expected: &str) -> Result<Option<T>, ConfigError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| self.error(name, expected)),
        }
    }

    /// `name` as a finite number in `range` (`None` when unset).
    pub fn number(
        &self,
        name: &str,
        range: std::ops::RangeInclusive<f64>,
    ) -> Result<Option<f64>, ConfigError> {
        let expected = format!("a number in {}..={}", range.start(), range.end());
        match self.parse::<f64>(name, &expected)? {
            Some(x) if x.is_finite() && range.contains(&x) => Ok(Some(x)),
            Some(_) => Err(self.error(name, &expected)),
            None => Ok(None),
        }
    }

    /// `name` as a whole number in `range` (`None` when unset).
    pub fn whole(
        &self,
        name: &str,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<Option<u64>, ConfigError> {
        let expected = format!("a whole number in {}..={}", range.start(), range.end());
        match self.parse::<u64>(name, &expected)? {
            Some(x) if range.contains(&x) => Ok(Some(x)),
            Some(_) => Err(self.error(name, &expected)),
            None => Ok(None),
        }
    }

    /// `name` as one of `choices` (`None` when unset).
    pub fn choice<'c>(
        &self,
        name: &str,
        choices: &[&'c str],
    ) -> Result<Option<&'c str>, ConfigError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => choices
                .iter()
                .find(|c| **c == v)
                .copied()
                .map(Some)
                .ok_or_else(|| self.error(name, &format!("one of {}", choices.join(", ")))),
        }
    }

    /// The variables set here that are not in `known`, sorted.
    pub fn unknown(&self, known: &[&str]) -> Vec<&str> {
        self.vars
            .keys()
            .map(String::as_str)
            .filter(|k| !known.contains(k))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_names_bad_values() {
        let env = Env::from_pairs([
            ("TAPEFUZZ_TESTS", " 12 "),
            ("TAPEFUZZ_SEED", "x"),
            ("TAPEFUZZ_R", "2.5"),
            ("TAPEFUZZ_MODE", "b"),
        ]);
        assert_eq!(env.whole("TAPEFUZZ_TESTS", 0..=100), Ok(Some(12)));
        assert_eq!(
            env.whole("TAPEFUZZ_TESTS", 0..=10).unwrap_err().value,
            " 12 "
        );
        let e = env.parse::<u64>("TAPEFUZZ_SEED", "a number").unwrap_err();
        assert_eq!(
            e.to_string(),
            "TAPEFUZZ_SEED=\"x\" is not valid (expected a number)"
        );
        assert_eq!(env.number("TAPEFUZZ_R", 0.0..=3.0), Ok(Some(2.5)));
        assert!(env.number("TAPEFUZZ_R", 0.0..=1.0).is_err());
        assert_eq!(env.choice("TAPEFUZZ_MODE", &["a", "b"]), Ok(Some("b")));
        assert!(env.choice("TAPEFUZZ_MODE", &["a"]).is_err());
        assert_eq!(env.whole("TAPEFUZZ_NONE", 0..=1), Ok(None));
        assert_eq!(
            env.unknown(&["TAPEFUZZ_TESTS", "TAPEFUZZ_SEED"]),
            ["TAPEFUZZ_MODE", "TAPEFUZZ_R"]
        );
    }
}
