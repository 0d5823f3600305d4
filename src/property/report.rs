//! The result of running a property, and how it reads to a person.

use crate::engine::{Found, RunReport};
use crate::summary::Summary;
use std::fmt;

/// Set when a command-line client (`cargo tapefuzz`) reads this process's reports from its
/// answers and prints them itself.
static REPORTED_BY_CLIENT: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Says that a command-line client prints the reports of this process's properties (from
/// the answers), so [`Report::assert_passed`] need not.
pub(crate) fn reported_by_client() {
    REPORTED_BY_CLIENT.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// A property run: the engine's counts plus the shrunk value and message of a failure.
///
/// A report that is dropped fails nothing: in a `#[test]`, use [`Property::check`] /
/// [`Property::check_test`] (they panic with the report), or assert [`Report::passed`].
///
/// [`Property::check`]: crate::property::Property::check
/// [`Property::check_test`]: crate::property::Property::check_test
#[derive(Clone, Debug)]
#[must_use = "a dropped report fails nothing: call `check`/`check_test`, or assert `report.passed()`"]
pub struct Report {
    /// The property's name.
    pub name: String,
    /// The engine's report.
    pub run: RunReport,
    /// The shrunk failing value (Debug), if the property failed.
    pub value: Option<String>,
    /// The shrunk failure's message.
    pub message: Option<String>,
    /// The command that replays the failure.
    pub replay: Option<String>,
}

impl Report {
    /// Whether the property passed: no failure was found (a flaky one included) and the run
    /// passed its health checks (a run in which no generated test case was valid fails, see
    /// [`RunReport::health_failure`]).
    pub fn passed(&self) -> bool {
        self.run.failure.is_none() && self.run.health_failure.is_none()
    }

    /// Panics with the report (located at the caller) unless the property passed: what
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

    /// The JSON summary of the run (see the design page).
    pub fn summary(&self, strategy: &str, mode: &str) -> Summary {
        let r = &self.run;
        let first_failure_test = r.first_failure_test();
        let tests = r.total_tests();
        Summary {
            target: self.name.clone(),
            strategy: strategy.into(),
            mode: mode.into(),
            seed: r.seed,
            tests,
            // Like `tests`, the replayed tapes count.
            valid: r.total_valid(),
            unique_valid: r.unique_valid,
            failures: r.failure.is_some() as u64,
            first_failure_test,
            first_failure_seconds: r.first_failure_seconds,
            seconds: r.seconds,
            tests_per_second: if r.seconds > 0.0 {
                tests as f64 / r.seconds
            } else {
                0.0
            },
            best_utility: r.best_utility(),
            shrunk: self.value.clone(),
            corpus_added: r.corpus_added,
            features: r.stat("features"),
            save_errors: r.save_errors.len() as u64,
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.run;
        if let (None, Some(why)) = (&r.failure, &r.health_failure) {
            write!(
                f,
                "property `{}` failed a health check after {} tests ({} valid), seed {}\n  {why}",
                self.name, r.tests, r.valid, r.seed
            )?;
            for w in r.warnings.iter().chain(&r.save_errors) {
                write!(f, "\n  warning: {w}")?;
            }
            return Ok(());
        }
        let Some(fail) = &r.failure else {
            // The totals of the JSON summary and the statistics: replayed tapes included.
            write!(
                f,
                "property `{}` passed: {} tests ({} valid, {} unique valid), {} of them saved tapes replayed, seed {}",
                self.name,
                r.total_tests(),
                r.total_valid(),
                r.unique_valid,
                r.replayed,
                r.seed
            )?;
            if let crate::engine::Stop::Interrupted(s) = r.stopped {
                write!(
                    f,
                    "; stopped early by {} (no failure up to then)",
                    crate::engine::signal_name(s)
                )?;
            }
            for w in r.warnings.iter().chain(&r.save_errors) {
                write!(f, "\n  warning: {w}")?;
            }
            return Ok(());
        };
        if let Found::Example(n) = fail.found {
            // The message says why it was not shrunk.
            write!(
                f,
                "property `{}` failed on explicit example #{n}, not shrunk\n  value:{}\n  failure:{}",
                self.name,
                Block(self.value.as_deref().unwrap_or("<none>")),
                Block(self.message.as_deref().unwrap_or(""))
            )?;
            if let Some(cmd) = &self.replay {
                write!(f, "\n  replay: {cmd}")?;
            }
            return Ok(());
        }
        match &fail.found {
            Found::Example(_) => unreachable!("written above"),
            Found::Reuse(p) => writeln!(
                f,
                "property `{}` failed{} on saved tape {}",
                self.name,
                if fail.flaky { " (flaky)" } else { "" },
                p.display()
            )?,
            Found::Generate(n) => writeln!(
                f,
                "property `{}` failed{} after {n} tests (seed {})",
                self.name,
                if fail.flaky { " (flaky)" } else { "" },
                r.seed
            )?,
            Found::Given {
                example: Some(n),
                value,
            } => writeln!(
                f,
                "property `{}` failed{} on explicit example #{n}, shrunk from it\n  explicit example:{}",
                self.name,
                if fail.flaky { " (flaky)" } else { "" },
                Block(value),
            )?,
            Found::Given {
                example: None,
                value,
            } => writeln!(
                f,
                "property `{}` failed{} on the value given to shrink, shrunk from it\n  given value:{}",
                self.name,
                if fail.flaky { " (flaky)" } else { "" },
                Block(value),
            )?,
        }
        if fail.flaky {
            writeln!(
                f,
                "  FLAKY: the failure did not happen again when the same test case was re-run on the same tape: the property depends on something besides its input (time, randomness, global or thread state), so the value below is as found, not shrunk"
            )?;
        }
        writeln!(
            f,
            "  {} failing value:{}",
            if fail.flaky { "flaky" } else { "minimal" },
            Block(self.value.as_deref().unwrap_or("<none>"))
        )?;
        if let Some(m) = &self.message {
            writeln!(f, "  failure:{}", Block(m))?;
        }
        writeln!(
            f,
            "  shrunk from {} to {} choices in {} calls{}",
            fail.original.choices.len(),
            fail.shrunk.choices.len(),
            fail.shrink_calls,
            if fail.flaky {
                " (flaky: did not fail again on replay)"
            } else if fail.shrink_budget_exhausted {
                " (the shrink budget ran out: maybe not minimal; TAPEFUZZ_SHRINK_CALLS, \
                 TAPEFUZZ_SHRINK_SECONDS raise it)"
            } else {
                ""
            }
        )?;
        match (&fail.saved, &fail.save_error) {
            (Some(p), _) => writeln!(f, "  saved to {}", p.display())?,
            (None, Some(e)) => writeln!(f, "  could not save the tape: {e}")?,
            (None, None) => writeln!(f, "  not saved (no corpus)")?,
        }
        // A failure of a saved tape or a given value came from no search: a seed reruns
        // nothing.
        if matches!(fail.found, Found::Generate(_)) {
            writeln!(
                f,
                "  seed: {} (TAPEFUZZ_SEED={} reruns the search)",
                r.seed, r.seed
            )?;
        }
        for w in r.warnings.iter().chain(&r.save_errors) {
            writeln!(f, "  warning: {w}")?;
        }
        if let Some(cmd) = &self.replay {
            write!(f, "  replay: {cmd}")?;
        }
        Ok(())
    }
}

/// A value or message after a label: on the label's line when it is one line; else from the
/// next line, every line indented, so a trace or an `assert_eq!`'s left/right keep their
/// layout.
struct Block<'a>(&'a str);

impl fmt::Display for Block<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.0.contains('\n') {
            return write!(f, " {}", self.0);
        }
        for line in self.0.lines() {
            write!(f, "\n    {line}")?;
        }
        Ok(())
    }
}
