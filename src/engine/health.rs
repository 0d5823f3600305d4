//! Health checks, as Hypothesis's: a run that tested nothing fails, and one that tested
//! little, or ran a search without what it needs, says so.

use super::{Config, Report};

/// What the run knew at its end beyond the report.
pub(crate) struct Seen {
    /// The search climbs utility values ([`super::Search::needs_utilities`]).
    pub needs_utilities: bool,
    /// Some test case of the generate phase reported a utility value.
    pub saw_utilities: bool,
}

/// Checks the finished run, after its failure (if any) was settled:
///
/// - **no valid test case**: a run that generated test cases (`tests > 0`), found no failure
///   and had none valid — each rejected by `assume!`, a filter or `Fail::Rejected`, or over
///   the size budget — and no valid saved tape either, tested nothing:
///   [`Report::health_failure`] says so, and the property fails (a warning instead when
///   `config.fail_without_valid` is off). Valid replayed tapes count, as in Hypothesis: the
///   property was tested on them (and the share check below still warns). A run asked for
///   0 tests (only replaying saved tapes) is never failed by it, nor is a run whose time
///   budget ended before its first test case.
/// - **too many rejections**: when more than `config.max_reject_share` of the generated test
///   cases were not valid (rejected or over the size budget), a warning.
/// - **a search without utilities**: a search that climbs utility values
///   ([`super::Search::needs_utilities`]) while the property reported none in the generate
///   phase ran as random search: a warning.
///
/// Warnings go to [`Report::warnings`] and the run's reporter.
pub(crate) fn check(report: &mut Report, config: &Config, seen: &Seen) {
    let tests = report.tests;
    let rejected = report.invalid + report.overrun;
    let what = || {
        let mut parts = Vec::new();
        if report.invalid > 0 {
            parts.push(format!(
                "{} rejected by `assume!`, a `.filter` or `Fail::Rejected`",
                report.invalid
            ));
        }
        if report.overrun > 0 {
            parts.push(format!(
                "{} over the size budget of {} choices",
                report.overrun, config.max_choices
            ));
        }
        parts.join(", ")
    };
    let direct = "relax the `assume!` or the filter, or generate values in the domain \
                  directly (a better generator: `.map` into it rather than `.filter`)";
    // Advice to try the search that is running already does nothing.
    let advice = if report.strategy == "rl" {
        direct.to_string()
    } else {
        format!(
            "{direct}, or let `--strategy rl` (TAPEFUZZ_STRATEGY=rl) learn to generate \
             valid values"
        )
    };
    let mut warnings = Vec::new();
    if report.failure.is_none() && tests > 0 && report.valid == 0 && report.replayed_valid == 0 {
        let why = format!(
            "no valid test case: all {tests} generated test cases were invalid ({}), so the property was never tested; {advice}",
            what()
        );
        // A run stopped by a signal after a few tests proves nothing either way.
        let stopped = matches!(report.stopped, super::Stop::Interrupted(_));
        if config.fail_without_valid && !stopped {
            report.health_failure = Some(why);
        } else {
            warnings.push(why);
        }
    } else if tests > 0 {
        let share = rejected as f64 / tests as f64;
        if share > config.max_reject_share {
            warnings.push(format!(
                "{:.1}% of the generated test cases were invalid ({}): only {} of {tests} tested the property (the limit is {:.0}%, TAPEFUZZ_MAX_REJECT_SHARE); {advice}",
                100.0 * share,
                what(),
                report.valid,
                100.0 * config.max_reject_share
            ));
        }
    }
    if seen.needs_utilities && !seen.saw_utilities && tests > 0 {
        warnings.push(format!(
            "the `{}` search climbs utility values, but the property reported none (call `target(x)` or `minimize(x)` in it): {} ran as random search",
            report.strategy, report.strategy
        ));
    }
    for w in warnings {
        config.reporter.warning(&w);
        report.warnings.push(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen() -> Seen {
        Seen {
            needs_utilities: false,
            saw_utilities: false,
        }
    }

    #[test]
    fn nothing_valid_fails_a_run_of_some_tests_only() {
        let config = Config::default();
        let mut r = Report {
            tests: 10,
            invalid: 9,
            overrun: 1,
            ..Report::default()
        };
        check(&mut r, &config, &seen());
        let h = r.health_failure.unwrap();
        assert!(h.contains("9 rejected by `assume!`"), "{h}");
        assert!(h.contains("1 over the size budget"), "{h}");
        assert!(h.contains("--strategy rl"), "{h}");
        // Under rl itself, no advice to try rl.
        let mut r = Report {
            tests: 10,
            invalid: 10,
            strategy: "rl",
            ..Report::default()
        };
        check(&mut r, &config, &seen());
        let h = r.health_failure.unwrap();
        assert!(h.contains("generate values in the domain"), "{h}");
        assert!(!h.contains("--strategy rl"), "{h}");
        // Only replays: nothing to judge.
        let mut r = Report {
            replayed: 3,
            ..Report::default()
        };
        check(&mut r, &config, &seen());
        assert_eq!((r.health_failure, r.warnings.len()), (None, 0));
    }

    #[test]
    fn valid_replays_or_the_switch_make_it_a_warning() {
        let mut r = Report {
            tests: 10,
            invalid: 10,
            replayed: 2,
            replayed_valid: 1,
            ..Report::default()
        };
        check(&mut r, &Config::default(), &seen());
        assert!(r.health_failure.is_none());
        assert!(
            r.warnings[0].starts_with("100.0% of the generated"),
            "{:?}",
            r.warnings
        );
        let mut r = Report {
            tests: 10,
            invalid: 10,
            ..Report::default()
        };
        let config = Config {
            fail_without_valid: false,
            ..Config::default()
        };
        check(&mut r, &config, &seen());
        assert!(r.health_failure.is_none());
        assert!(
            r.warnings[0].starts_with("no valid test case"),
            "{:?}",
            r.warnings
        );
    }

    #[test]
    fn a_high_reject_share_warns_and_the_limit_is_configurable() {
        let mut r = Report {
            tests: 100,
            valid: 5,
            invalid: 95,
            ..Report::default()
        };
        check(&mut r, &Config::default(), &seen());
        assert!(r.health_failure.is_none());
        assert!(r.warnings[0].starts_with("95.0% of the generated test cases were invalid"));
        let mut r = Report {
            tests: 100,
            valid: 5,
            invalid: 95,
            ..Report::default()
        };
        let config = Config {
            max_reject_share: 0.96,
            ..Config::default()
        };
        check(&mut r, &config, &seen());
        assert!(r.warnings.is_empty());
    }

    #[test]
    fn a_search_without_utilities_warns() {
        let mut r = Report {
            tests: 5,
            valid: 5,
            strategy: "sa",
            ..Report::default()
        };
        let s = Seen {
            needs_utilities: true,
            saw_utilities: false,
        };
        check(&mut r, &Config::default(), &s);
        assert!(
            r.warnings[0].contains("sa ran as random search"),
            "{:?}",
            r.warnings
        );
    }
}
