//! The progress of a run on stderr: a line with the property, the totals so far and the
//! budgets, and on a terminal a bar in front of it, redrawn in place.

use super::{Config, Report, Search, Utility};
use std::time::{Duration, Instant};

/// How much of the run's budget is spent, in 0..=1: the larger share of the tests budget and
/// of the time budget; `None` when the run has neither (a search that ends by itself).
pub(super) fn fraction(config: &Config, tests: u64, elapsed: Duration) -> Option<f64> {
    let by_tests =
        (config.tests != u64::MAX && config.tests > 0).then(|| tests as f64 / config.tests as f64);
    let by_time = config
        .seconds
        .filter(|s| *s > 0.0)
        .map(|s| elapsed.as_secs_f64() / s);
    let f = match (by_tests, by_time) {
        (Some(a), Some(b)) => a.max(b),
        (a, b) => a.or(b)?,
    };
    Some(f.clamp(0.0, 1.0))
}

/// The progress line: the property, the totals so far (saved tapes replayed included, as in
/// the JSON summary) against the budgets, the best utility (of the first label) and the
/// search's own words.
#[allow(clippy::too_many_arguments)]
pub(super) fn line(
    name: &str,
    config: &Config,
    report: &Report,
    tests: u64,
    unique: usize,
    best: Option<&Utility>,
    search: &dyn Search,
    started: Instant,
) -> String {
    let best = best
        .map(|u| format!(", best {} {}", u.label, u.value))
        .unwrap_or_default();
    let more = search.progress();
    let more = if more.is_empty() {
        more
    } else {
        format!(", {more}")
    };
    let budget = if config.tests == u64::MAX {
        String::new()
    } else {
        format!("/{}", config.tests)
    };
    let seconds = config
        .seconds
        .map(|s| format!("/{s:.0}s"))
        .unwrap_or_else(|| "s".into());
    format!(
        "tapefuzz: {name} ({}): {} tests ({tests}{budget} generated, {} replayed), {} valid, {} unique valid{best}{more}, {:.1}{seconds}",
        report.strategy,
        report.replayed + tests,
        report.replayed,
        report.total_valid(),
        unique as u64,
        started.elapsed().as_secs_f64()
    )
}

/// The progress of the generate phase, to the run's reporter: four times a second when it
/// redraws in place (a terminal), else once a second.
pub(super) struct Progress {
    on: bool,
    tty: bool,
    last: Instant,
}

impl Progress {
    pub(super) fn new(config: &Config) -> Progress {
        Progress {
            on: config.progress,
            tty: config.progress && config.reporter.redraws(),
            last: Instant::now(),
        }
    }

    /// Whether a line is due now.
    pub(super) fn due(&mut self) -> bool {
        let every = if self.tty {
            Duration::from_millis(250)
        } else {
            Duration::from_secs(1)
        };
        if self.on && self.last.elapsed() >= every {
            self.last = Instant::now();
            return true;
        }
        false
    }

    pub(super) fn show(&mut self, config: &Config, tests: u64, started: Instant, line: &str) {
        let done = fraction(config, tests, started.elapsed());
        config.reporter.progress(line, done);
    }

    /// The generate phase is over.
    pub(super) fn end(&mut self, config: &Config) {
        if self.on {
            config.reporter.progress_end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reporter::bar;

    #[test]
    fn the_bar_follows_the_larger_budget_share() {
        let mut c = Config {
            tests: 1000,
            ..Config::default()
        };
        assert_eq!(fraction(&c, 250, Duration::ZERO), Some(0.25));
        c.seconds = Some(10.0);
        assert_eq!(fraction(&c, 250, Duration::from_secs(5)), Some(0.5));
        c.tests = u64::MAX;
        c.seconds = None;
        assert_eq!(fraction(&c, 250, Duration::from_secs(5)), None);
        assert_eq!(bar(None), "");
        assert_eq!(bar(Some(0.5)), "[##########..........]  50% ");
        assert_eq!(bar(Some(2.0)), "[####################] 100% ");
    }
}
