//! Statistics of a run (`TAPEFUZZ_STATS=1`, `--stats`): what the generated data looked like
//! and where the time went, printed on stderr at the end of the run, as Hypothesis's
//! `--hypothesis-show-statistics`.

use super::events::{Case, EventValue};
use super::{Report, Stop};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

/// Most numbers an event keeps for its distribution: past it, the count, minimum and maximum
/// stay exact and the quartiles are those of the first numbers (a long run's memory stays
/// bounded).
pub const KEPT_NUMBERS: usize = 1 << 16;

/// Most distinct text values an event lists (the most frequent first).
const SHOWN_TEXTS: usize = 8;

/// One event label's tally.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventStats {
    /// The label.
    pub label: String,
    /// Test cases that reported it.
    pub cases: u64,
    /// Its numeric values (at most [`KEPT_NUMBERS`]), in order of report.
    pub numbers: Vec<f64>,
    /// Numeric values reported, kept or not.
    pub number_count: u64,
    /// The smallest and largest numeric values.
    pub number_range: Option<(f64, f64)>,
    /// Test cases per text value.
    pub texts: BTreeMap<String, u64>,
}

/// What a run collects with statistics on ([`super::Config::stats`]).
///
/// Tallied test cases are the ones the JSON summary counts: the saved tapes replayed in the
/// reuse phase (except those run in a process of their own) and the counted test cases of
/// the generate phase. Re-runs for a recording, the shrinker's calls and uncounted warm-up
/// test cases are not tallied (the shrinker's time is [`Statistics::shrinking`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Statistics {
    /// Each event label, in order of first report.
    pub events: Vec<EventStats>,
    /// Tallied test cases per number of choices drawn.
    pub choices: BTreeMap<usize, u64>,
    /// Time in the generator, in the generate phase.
    pub generating: Duration,
    /// Time in the property, in the generate phase.
    pub testing: Duration,
    /// Wall time of the reuse phase (replaying saved tapes).
    pub replaying: Duration,
    /// Wall time of confirming, shrinking and saving a failure.
    pub shrinking: Duration,
}

impl Statistics {
    /// Tallies one test case that drew `choices` choices; its time counts when `timed` (the
    /// generate phase).
    pub(crate) fn tally(&mut self, case: &Case, choices: usize, timed: bool) {
        *self.choices.entry(choices).or_default() += 1;
        if timed {
            self.generating += case.generating;
            self.testing += case.testing;
        }
        for (label, value) in &case.events {
            let i = match self.events.iter().position(|e| &e.label == label) {
                Some(i) => i,
                None => {
                    self.events.push(EventStats {
                        label: label.clone(),
                        ..EventStats::default()
                    });
                    self.events.len() - 1
                }
            };
            let e = &mut self.events[i];
            e.cases += 1;
            match value {
                None => {}
                Some(EventValue::Number(x)) => {
                    e.number_count += 1;
                    if e.numbers.len() < KEPT_NUMBERS {
                        e.numbers.push(*x);
                    }
                    e.number_range = Some(match e.number_range {
                        None => (*x, *x),
                        Some((lo, hi)) => (lo.min(*x), hi.max(*x)),
                    });
                }
                Some(EventValue::Text(t)) => *e.texts.entry(t.clone()).or_default() += 1,
            }
        }
    }

    /// The fewest, median and most choices drawn by a tallied test case (`None` when none
    /// was tallied).
    pub fn choices_summary(&self) -> Option<(usize, usize, usize)> {
        let total: u64 = self.choices.values().sum();
        let min = *self.choices.keys().next()?;
        let max = *self.choices.keys().next_back()?;
        let mut seen = 0;
        let mut median = max;
        for (&n, &count) in &self.choices {
            seen += count;
            if seen * 2 >= total {
                median = n;
                break;
            }
        }
        Some((min, median, max))
    }
}

/// The value at quantile `q` of sorted `xs` (nearest rank).
fn quantile(xs: &[f64], q: f64) -> f64 {
    let i = ((xs.len() - 1) as f64 * q).round() as usize;
    xs[i]
}

/// A share as a percentage of `total`, `0.0` when `total` is 0.
fn percent(part: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * part as f64 / total as f64
    }
}

/// A number as short as it reads well.
fn short(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

/// Why the run stopped, for a person.
fn stopped(report: &Report) -> String {
    match report.stopped {
        Stop::Tests => format!("the tests budget ({} generated)", report.tests),
        Stop::ValidTests => format!("the valid-test budget ({} valid)", report.valid),
        Stop::Time => "the time budget".into(),
        Stop::Failure => "a failure".into(),
        Stop::Exhausted => "the search had nothing more to propose (exhausted)".into(),
        Stop::Interrupted(s) => format!("{} (the run was asked to stop)", super::signal_name(s)),
    }
}

/// The statistics block of `report` for the property `name`, as printed on stderr: the
/// counts (the same as the JSON summary's `tests`, `valid`, `unique_valid`), why the run
/// stopped, the choices per test case, the time split and the events. A failing run says so
/// and includes the shrinking time; a run of 0 tests says there was nothing to tally.
pub fn render(name: &str, report: &Report) -> String {
    let r = report;
    let s = r.statistics.clone().unwrap_or_default();
    let mut out = String::new();
    let (tests, valid) = (r.total_tests(), r.total_valid());
    let _ = writeln!(
        out,
        "tapefuzz: statistics of `{name}` ({}, seed {}):",
        r.strategy, r.seed
    );
    let _ = writeln!(
        out,
        "  tests: {tests}, valid: {valid} ({:.1}%), unique valid: {}, rejected: {}, overrun: {} ({} saved tapes replayed, {} valid)",
        percent(valid, tests),
        r.unique_valid,
        r.invalid,
        r.overrun,
        r.replayed,
        r.replayed_valid
    );
    let outcome = match (&r.failure, &r.health_failure) {
        (Some(f), _) if f.flaky => "failed (flaky)",
        (Some(_), _) => "failed",
        (None, Some(_)) => "failed a health check",
        (None, None) => "passed",
    };
    let _ = writeln!(out, "  {outcome}; stopped by {}", stopped(r));
    match s.choices_summary() {
        Some((min, median, max)) => {
            let _ = writeln!(
                out,
                "  choices per test case: min {min}, median {median}, max {max}"
            );
        }
        None => {
            let _ = writeln!(out, "  choices per test case: no test case tallied");
        }
    }
    let total = r.seconds;
    let secs = |d: Duration| d.as_secs_f64();
    let share = |x: f64| if total > 0.0 { 100.0 * x / total } else { 0.0 };
    let other =
        (total - secs(s.generating) - secs(s.testing) - secs(s.replaying) - secs(s.shrinking))
            .max(0.0);
    let _ = writeln!(
        out,
        "  time: {total:.3}s: generating {:.3}s ({:.0}%), testing {:.3}s ({:.0}%), replaying saved tapes {:.3}s ({:.0}%), shrinking {:.3}s ({:.0}%), search and bookkeeping {other:.3}s ({:.0}%)",
        secs(s.generating),
        share(secs(s.generating)),
        secs(s.testing),
        share(secs(s.testing)),
        secs(s.replaying),
        share(secs(s.replaying)),
        secs(s.shrinking),
        share(secs(s.shrinking)),
        share(other),
    );
    if s.events.is_empty() {
        let _ = writeln!(
            out,
            "  events: none (tapefuzz::event!(\"label\") or event!(\"label\", value) in the property)"
        );
    } else {
        let _ = writeln!(out, "  events:");
    }
    for e in &s.events {
        let _ = write!(
            out,
            "    {}: {} test cases ({:.1}%)",
            e.label,
            e.cases,
            percent(e.cases, tests)
        );
        if let Some((lo, hi)) = e.number_range {
            let mut xs = e.numbers.clone();
            xs.sort_by(f64::total_cmp);
            let _ = write!(
                out,
                "; values: min {}, 25% {}, median {}, 75% {}, max {}",
                short(lo),
                short(quantile(&xs, 0.25)),
                short(quantile(&xs, 0.5)),
                short(quantile(&xs, 0.75)),
                short(hi)
            );
        }
        if !e.texts.is_empty() {
            let mut texts: Vec<(&String, &u64)> = e.texts.iter().collect();
            texts.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let n: u64 = e.texts.values().sum();
            let shown: Vec<String> = texts
                .iter()
                .take(SHOWN_TEXTS)
                .map(|(t, c)| format!("{t:?} {c} ({:.0}%)", percent(**c, n)))
                .collect();
            let more = texts.len().saturating_sub(SHOWN_TEXTS);
            let _ = write!(out, "; values: {}", shown.join(", "));
            if more > 0 {
                let _ = write!(out, " and {more} more");
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_events_sizes_and_renders_them() {
        let mut s = Statistics::default();
        for k in 0..10u32 {
            let case = Case {
                events: vec![
                    ("n".into(), Some(EventValue::Number(f64::from(k)))),
                    (
                        "kind".into(),
                        Some(EventValue::Text(if k < 7 { "a" } else { "b" }.into())),
                    ),
                ],
                generating: Duration::from_millis(1),
                ..Case::default()
            };
            s.tally(&case, k as usize % 3, true);
        }
        assert_eq!(s.choices_summary(), Some((0, 1, 2)));
        assert_eq!(s.generating, Duration::from_millis(10));
        let report = Report {
            tests: 10,
            valid: 10,
            unique_valid: 9,
            statistics: Some(s),
            seconds: 1.0,
            ..Report::default()
        };
        let text = render("p", &report);
        assert!(
            text.contains("tests: 10, valid: 10 (100.0%), unique valid: 9"),
            "{text}"
        );
        assert!(text.contains("stopped by the tests budget"), "{text}");
        assert!(text.contains("choices per test case: min 0, median 1, max 2"));
        assert!(
            text.contains(
                "n: 10 test cases (100.0%); values: min 0, 25% 2, median 5, 75% 7, max 9"
            ),
            "{text}"
        );
        assert!(text.contains("\"a\" 7 (70%), \"b\" 3 (30%)"), "{text}");
    }

    #[test]
    fn a_run_of_nothing_renders() {
        let text = render("p", &Report::default());
        assert!(text.contains("tests: 0, valid: 0 (0.0%)"), "{text}");
        assert!(text.contains("no test case tallied"), "{text}");
    }
}
