//! The settings of the `enumerate` and `patterns` strategies and their environment variables.

use super::EnumerateSearch;
use crate::engine::{Search, Strategy};
use crate::env::{ConfigError, Env, Variable};
use std::sync::Arc;
use std::time::Duration;

/// One configuration of constructor patterns (paper 003 §3): patterns of `fineness`
/// constructors along the first descent, a `strength`-way covering array over those
/// positions, and `budget` of enumeration per pattern before the next one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternConfig {
    /// Interactions covered between constructor positions (clamped to the fineness: a
    /// strength of at least the fineness is every pattern).
    pub strength: usize,
    /// Constructor positions a pattern fixes (the depth of the first descent).
    pub fineness: usize,
    /// Time spent enumerating one pattern before moving to the next; patterns resume where
    /// they stopped when their turn comes again.
    pub budget: Duration,
    /// Fill the rest of each tape at random instead of enumerating it (random testing
    /// within each pattern; such a pattern never runs out).
    pub random: bool,
}

impl PatternConfig {
    /// The paper's portfolio (§5.2), three configurations run side by side: strength 1,
    /// fineness 1, 50 s a pattern (one per root constructor: shallow bugs); strength 5,
    /// fineness 5, 75 s (deep patterns); strength 7, fineness 3, 10 s (every pattern of
    /// three constructors, briefly).
    pub fn portfolio() -> Vec<PatternConfig> {
        vec![
            PatternConfig {
                strength: 1,
                fineness: 1,
                budget: Duration::from_secs(50),
                random: false,
            },
            PatternConfig {
                strength: 5,
                fineness: 5,
                budget: Duration::from_secs(75),
                random: false,
            },
            PatternConfig {
                strength: 7,
                fineness: 3,
                budget: Duration::from_secs(10),
                random: false,
            },
        ]
    }
}

/// Settings of the `enumerate` strategy (and of `patterns`, which is `enumerate` with the
/// paper's portfolio of constructor patterns). [`Enumerate::default`] documents the defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumerate {
    /// The largest size to enumerate (the sum of the indices of a tape's choices; see
    /// [`super::Tree`]); `None`: sizes grow until the run's budget ends. When every tape up
    /// to the size has run, the search is exhausted and the report says that no
    /// counterexample of that size or smaller exists.
    pub max_size: Option<u64>,
    /// Most nodes the tree of tapes run may hold (each run adds about as many as it has
    /// choices past the prefix it shares); at the limit the search stops as exhausted and
    /// says so. Default 16,000,000 (32 bytes a node: 512 MB at most).
    pub nodes: usize,
    /// Constructor-pattern configurations, run side by side (empty: plain enumeration).
    pub patterns: Vec<PatternConfig>,
    /// Multiplies every pattern budget (1.0; the paper's budgets suit searches of minutes, a
    /// short run may want 0.1).
    pub budget_scale: f64,
}

impl Default for Enumerate {
    fn default() -> Enumerate {
        Enumerate {
            max_size: None,
            nodes: 16_000_000,
            patterns: Vec::new(),
            budget_scale: 1.0,
        }
    }
}

/// The variables of [`Enumerate::with_env`].
pub(crate) const VARS: &[Variable] = &[
    Variable {
        name: "TAPEFUZZ_ENUMERATE_SIZE",
        values: "a whole number",
        default: "unset: until the budget ends",
        meaning: "The largest tape size (sum of its indices) enumerated; a run that finds nothing proves there is no counterexample that small.",
    },
    Variable {
        name: "TAPEFUZZ_ENUMERATE_NODES",
        values: "a whole number, at least 1",
        default: "16000000",
        meaning: "The limit of the tree of tapes run so far (32 bytes a node).",
    },
    Variable {
        name: "TAPEFUZZ_PATTERNS",
        values: "`none`, `portfolio`, or `t:f:seconds[:random]`, comma-separated",
        default: "`none` for `enumerate` (a value makes it `patterns`); `portfolio` for `patterns` (which reads `none` as `portfolio`)",
        meaning: "The constructor-pattern configurations of `--strategy patterns`.",
    },
    Variable {
        name: "TAPEFUZZ_PATTERN_SCALE",
        values: "a positive number",
        default: "1",
        meaning: "A factor on every pattern's time budget.",
    },
];

impl Enumerate {
    /// Plain enumeration with the paper's portfolio of constructor patterns
    /// ([`PatternConfig::portfolio`]): the `patterns` strategy.
    pub fn patterns() -> Enumerate {
        Enumerate {
            patterns: PatternConfig::portfolio(),
            ..Enumerate::default()
        }
    }

    /// These settings with the variables of `env` applied: `TAPEFUZZ_ENUMERATE_SIZE` (the
    /// largest size, a whole number), `TAPEFUZZ_ENUMERATE_NODES` (at least 1),
    /// `TAPEFUZZ_PATTERNS` (`none`, `portfolio`, or configurations `t:f:seconds` separated
    /// by commas, e.g. `2:4:5,1:1:20`; `t:f:seconds:random` fills the rest of each tape at
    /// random), `TAPEFUZZ_PATTERN_SCALE` (a positive factor on every
    /// budget).
    pub fn with_env(mut self, env: &Env) -> Result<Enumerate, ConfigError> {
        if let Some(n) = env.parse::<u64>("TAPEFUZZ_ENUMERATE_SIZE", "a whole number")? {
            self.max_size = Some(n);
        }
        if let Some(n) = env.parse::<usize>("TAPEFUZZ_ENUMERATE_NODES", "a whole number")? {
            self.nodes = n.max(1);
        }
        if let Some(p) = env.get("TAPEFUZZ_PATTERNS") {
            self.patterns = parse_patterns(p).ok_or_else(|| {
                env.error(
                    "TAPEFUZZ_PATTERNS",
                    "none, portfolio, or strength:fineness:seconds[:random][,…] with whole strength and fineness ≥ 1",
                )
            })?;
        }
        if let Some(x) = env.number("TAPEFUZZ_PATTERN_SCALE", f64::MIN_POSITIVE..=1e9)? {
            self.budget_scale = x;
        }
        Ok(self)
    }
}

/// Parses `none`, `portfolio` or `t:f:seconds,…`.
fn parse_patterns(s: &str) -> Option<Vec<PatternConfig>> {
    match s.trim() {
        "none" | "" => return Some(Vec::new()),
        "portfolio" => return Some(PatternConfig::portfolio()),
        _ => {}
    }
    s.split(',')
        .map(|one| {
            let mut parts = one.trim().split(':');
            let strength: usize = parts.next()?.trim().parse().ok()?;
            let fineness: usize = parts.next()?.trim().parse().ok()?;
            let seconds: f64 = parts.next()?.trim().parse().ok()?;
            let random = match parts.next().map(str::trim) {
                None => false,
                Some("random") => true,
                Some(_) => return None,
            };
            if parts.next().is_some()
                || strength == 0
                || fineness == 0
                || !(seconds.is_finite() && seconds > 0.0)
            {
                return None;
            }
            Some(PatternConfig {
                strength,
                fineness,
                budget: Duration::from_secs_f64(seconds),
                random,
            })
        })
        .collect()
}

impl Strategy for Enumerate {
    fn name(&self) -> &'static str {
        if self.patterns.is_empty() {
            "enumerate"
        } else {
            "patterns"
        }
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(EnumerateSearch::new(self.clone()))
    }
}

/// The registry's entry of `enumerate`.
pub(crate) fn from_env(env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    let mut e = Enumerate::default().with_env(env)?;
    // `enumerate` is plain unless the variable asks for patterns; then it is `patterns`.
    if env.get("TAPEFUZZ_PATTERNS").is_none() {
        e.patterns.clear();
    }
    Ok(Arc::new(e))
}

/// The registry's entry of `patterns`.
pub(crate) fn patterns_from_env(env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    let mut e = Enumerate::patterns().with_env(env)?;
    if e.patterns.is_empty() {
        e.patterns = PatternConfig::portfolio();
    }
    Ok(Arc::new(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_from_the_environment() {
        let env = Env::from_pairs([
            ("TAPEFUZZ_ENUMERATE_SIZE", "12"),
            ("TAPEFUZZ_PATTERNS", "2:4:0.5, 1:1:20:random"),
            ("TAPEFUZZ_PATTERN_SCALE", "0.1"),
        ]);
        let e = Enumerate::default().with_env(&env).unwrap();
        assert_eq!(e.max_size, Some(12));
        assert_eq!(e.patterns.len(), 2);
        assert_eq!(e.patterns[0].strength, 2);
        assert_eq!(e.patterns[0].fineness, 4);
        assert_eq!(e.patterns[0].budget, Duration::from_millis(500));
        assert_eq!(e.budget_scale, 0.1);
        assert!(!e.patterns[0].random && e.patterns[1].random);
        for bad in [
            "2:4",
            "0:1:1",
            "1:1:-1",
            "a:b:c",
            "1:1:1:1",
            "1:1:1:random:x",
        ] {
            let env = Env::from_pairs([("TAPEFUZZ_PATTERNS", bad)]);
            assert!(Enumerate::default().with_env(&env).is_err(), "{bad}");
        }
        assert_eq!(parse_patterns("portfolio").unwrap().len(), 3);
        assert!(parse_patterns("none").unwrap().is_empty());
    }
}
