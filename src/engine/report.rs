//! What a run found: the one report of a run, for a program (its fields), a person (its
//! `Display`, see `report_text.rs`) and a JSON consumer ([`Report::summary_json`]).

use crate::tape::Recording;
use std::path::PathBuf;

/// Set when a command-line client (`cargo tapefuzz`) reads this process's reports from its
/// answers and prints them itself.
static REPORTED_BY_CLIENT: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Says that a command-line client prints the reports of this process's properties (from
/// the answers), so [`Report::assert_passed`] need not.
pub(crate) fn reported_by_client() {
    REPORTED_BY_CLIENT.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Where a failure was found.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// Replaying a saved tape (a regression or a corpus entry).
    Reuse(PathBuf),
    /// Generating: the n-th test case of the generate phase (1-based).
    Generate(u64),
    /// An explicit example given with the property (1-based, in the order given), checked
    /// before anything else, whose generator could not run backwards to it: the value as
    /// the user wrote it, not shrunk and not saved.
    Example(u64),
    /// A value the user gave, reflected into a tape (the generator run backwards) and
    /// shrunk from there: an explicit example (its number, 1-based) or a value handed to
    /// `Property::shrink_value` (`None`).
    Given {
        /// The explicit example's number, or `None` for a value handed in.
        example: Option<u64>,
        /// The value as given (its Debug form).
        value: String,
    },
}

/// A failure and what became of it.
#[derive(Clone, Debug)]
pub struct Failure {
    /// Where it was found.
    pub found: Found,
    /// The tape as found.
    pub original: Recording,
    /// The tape after shrinking.
    pub shrunk: Recording,
    /// Calls of the test function the shrinker made (see [`crate::shrink::Shrunk::calls`]):
    /// every candidate it ran, those the generator rejected before the property ran
    /// included. The re-run that confirms the failure before shrinking is not one of them.
    pub shrink_calls: u64,
    /// Whether the shrink budget (calls or time) stopped shrinking before no pass could
    /// improve the tape: the shrunk value may not be minimal.
    pub shrink_budget_exhausted: bool,
    /// The shrunk tape's bytes.
    pub bytes: Vec<u8>,
    /// The shrunk value and the failure message, as the property describes them.
    pub described: super::Described,
    /// The test case kills its process (a crash or a hang): it was replayed and shrunk in
    /// processes of its own, and its regression replays that way.
    pub isolated: bool,
    /// Where the shrunk tape was saved, if it was.
    pub saved: Option<PathBuf>,
    /// Why saving failed, if it did.
    pub save_error: Option<String>,
    /// The failure did not reproduce when the test case was re-run with recording.
    pub flaky: bool,
    /// The shrunk test case fails only by running longer than the configured timeout.
    pub timed_out: bool,
}

/// What a run found: its counts, its failure (shrunk, described and saved) and everything
/// worth a person's attention. The engine fills it; a property adds its name and the command
/// that replays a failure. Its `Display` is the report a person reads (what
/// [`Property::check`](crate::property::Property::check) panics with);
/// [`Report::summary_json`] is the design page's one-line JSON summary.
///
/// A report that is dropped fails nothing: in a `#[test]`, use `check` / `check_test` (they
/// panic with the report), or call [`Report::assert_passed`].
///
/// ```
/// use tapefuzz::prelude::*;
///
/// let report = Property::new("report_doc")
///     .no_corpus()
///     .seed(1)
///     .tests(200)
///     .run(ints::<u32>(..), |x: u32| x < 1000);
/// assert!(!report.passed());
/// assert_eq!(report.value.as_deref(), Some("1000")); // shrunk
/// assert!(report.tests <= 200);
/// assert!(report.to_string().contains("minimal failing value: 1000"));
/// assert!(report.summary_json("random", "blackbox").starts_with("{\"target\":\"report_doc\""));
/// ```
#[derive(Clone, Debug, Default)]
#[must_use = "a dropped report fails nothing: call `check`/`check_test`, or `report.assert_passed()`"]
pub struct Report {
    /// The property's name (empty when the engine was run without a property).
    pub name: String,
    /// The shrunk failing value (its Debug form), if the run failed: the failure's
    /// [`Described::value`](super::Described::value).
    pub value: Option<String>,
    /// The shrunk failure's message: the failure's
    /// [`Described::message`](super::Described::message).
    pub message: Option<String>,
    /// The command that replays the failure, if the property has one and the run failed.
    pub replay: Option<String>,
    /// The seed used.
    pub seed: u64,
    /// Saved tapes replayed in the reuse phase.
    pub replayed: u64,
    /// Of those, valid.
    pub replayed_valid: u64,
    /// Of those, distinct (by tape fingerprint).
    pub replayed_unique: u64,
    /// Test cases run in the generate phase.
    pub tests: u64,
    /// Of those, valid (the property held).
    pub valid: u64,
    /// Of those, rejected by a filter or `assume`.
    pub invalid: u64,
    /// Of those, over the size budget.
    pub overrun: u64,
    /// Distinct valid tapes (by fingerprint).
    pub unique_valid: u64,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// The failure, if one was found.
    pub failure: Option<Failure>,
    /// The best value of each utility label the property reported, in order of first
    /// report, with the tape that reached it.
    pub best: Vec<Best>,
    /// Every time a utility label reached a new best (its first report included), in order:
    /// the utility over tests, for plots.
    pub improvements: Vec<Improvement>,
    /// The search's name ([`super::Search::name`]).
    pub strategy: &'static str,
    /// Tapes saved to `corpus/`: a new best utility per label (targeted searches), and the
    /// tapes the search kept ([`super::Finish::keep`]).
    pub corpus_added: u64,
    /// Numbers the search reported at the end, by name ([`super::Finish::stats`]).
    pub stats: Vec<super::Stat>,
    /// Whether the search ran out of test cases to propose before the budget ended (an
    /// exhaustive search covered its whole space).
    pub exhausted: bool,
    /// The search's closing sentence ([`super::Finish::note`]), if it had one.
    pub note: Option<String>,
    /// Seconds from the start of the run to the first failure, before shrinking and saving.
    pub first_failure_seconds: Option<f64>,
    /// Saves that failed, each with its path and the OS error (also printed on stderr as
    /// they happen). A failed save never ends the run, and loses nothing that existed.
    pub save_errors: Vec<String>,
    /// Everything else worth a person's attention: files of the corpus that were skipped,
    /// regressions saved by another generator (see [`super::settle`]), regressions that pass
    /// now, the health checks' warnings (too many rejections, a search that needs utility
    /// values without any). Printed on stderr as they happen.
    pub warnings: Vec<String>,
    /// Why the run failed a health check, if it did (no valid test case at all, see
    /// [`super::run`]): the property then fails without a failing value.
    pub health_failure: Option<String>,
    /// Why the generate phase stopped.
    pub stopped: Stop,
    /// The statistics of the run, when [`super::Config::stats`] asked for them.
    pub statistics: Option<super::Statistics>,
}

/// Why the generate phase stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stop {
    /// It ran its tests budget ([`super::Config::tests`]; a budget of 0 included).
    #[default]
    Tests,
    /// It ran its valid-test budget ([`super::Config::valid_tests`]).
    ValidTests,
    /// Its time budget ended ([`super::Config::seconds`]).
    Time,
    /// A failure was found (replaying a saved tape, or generating).
    Failure,
    /// The search had nothing more to propose ([`Report::exhausted`]).
    Exhausted,
    /// A signal asked the process to stop (the signal's number; see
    /// [`super::interrupted`]): the run ended at the next test case, cleanly.
    Interrupted(i32),
}

/// The best value of one utility label in a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// The utility as reported.
    pub utility: super::Utility,
    /// The tape that reached it (byte encoding).
    pub bytes: Vec<u8>,
}

/// The report type's name before it took in the property's report (0.x): the same type.
#[deprecated(
    note = "`RunReport` and `property::Report` are one type now: `tapefuzz::engine::Report`"
)]
pub type RunReport = Report;

impl Report {
    /// A warning: to the run's reporter now, and kept here.
    pub(crate) fn warn(&mut self, config: &super::Config, w: String) {
        config.reporter.warning(&w);
        self.warnings.push(w);
    }

    /// The report of a failure settled outside a run ([`super::import`]): no test cases,
    /// only the failure (its value and message copied to [`Report::value`] and
    /// [`Report::message`]).
    pub fn failed(failure: Failure, strategy: &'static str) -> Report {
        let mut report = Report {
            strategy,
            ..Report::default()
        };
        report.set_failure(failure);
        report
    }

    /// Records the run's failure, its described value and message included.
    pub(crate) fn set_failure(&mut self, failure: Failure) {
        self.value = failure.described.value.clone();
        self.message = failure.described.message.clone();
        self.failure = Some(failure);
    }

    /// Whether the run passed: no failure was found (a flaky one included) and the run
    /// passed its health checks (a run in which no generated test case was valid fails, see
    /// [`Report::health_failure`]).
    pub fn passed(&self) -> bool {
        self.failure.is_none() && self.health_failure.is_none()
    }

    /// Panics with the report (located at the caller) unless the run passed: what
    /// [`Property::check`](crate::property::Property::check) does with its report. When
    /// `cargo tapefuzz` asked for the run, it prints the report itself: the panic then only
    /// names the property, so the report is not printed twice.
    #[track_caller]
    pub fn assert_passed(&self) {
        if self.passed() {
            return;
        }
        if REPORTED_BY_CLIENT.load(std::sync::atomic::Ordering::Relaxed) {
            panic!(
                "property `{}` failed (cargo tapefuzz prints its report)",
                self.name
            );
        }
        panic!("\n{self}");
    }

    /// Test cases run, saved tapes replayed included: the JSON summary's `tests`, the
    /// statistics' and the progress line's.
    pub fn total_tests(&self) -> u64 {
        self.replayed + self.tests
    }

    /// Valid test cases, valid replayed tapes included: the JSON summary's `valid`.
    pub fn total_valid(&self) -> u64 {
        self.replayed_valid + self.valid
    }

    /// The value of the stat named `name`, if the search reported one.
    pub fn stat(&self, name: &str) -> Option<u64> {
        self.stats.iter().find(|s| s.name == name).map(|s| s.value)
    }

    /// The best value of the first utility label reported, if any (the JSON summary's
    /// `best_utility`).
    pub fn best_utility(&self) -> Option<f64> {
        self.best.first().map(|b| b.utility.value)
    }

    /// The test case (1-based, replayed tapes first) that first failed.
    pub fn first_failure_test(&self) -> Option<u64> {
        self.failure.as_ref().map(|f| match f.found {
            Found::Reuse(_) => self.replayed,
            Found::Generate(n) => self.replayed + n,
            // Examples run before the saved tapes.
            Found::Example(n)
            | Found::Given {
                example: Some(n), ..
            } => n,
            Found::Given { example: None, .. } => 1,
        })
    }
}

/// A utility label's new best value and the test (1-based, in the generate phase) that
/// reached it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Improvement {
    /// The test that reached it.
    pub test: u64,
    /// The utility's label.
    pub label: &'static str,
    /// The value as reported.
    pub value: f64,
}
