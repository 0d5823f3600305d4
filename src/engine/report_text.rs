//! A report as a person reads it: what `check` panics with and `cargo tapefuzz` prints.

use super::{Failure, Found, Report};
use std::fmt;

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.failure, &self.health_failure) {
            (None, Some(why)) => self.write_unhealthy(f, why),
            (None, None) => self.write_passed(f),
            (Some(fail), _) if matches!(fail.found, Found::Example(_)) => self.write_example(f),
            (Some(fail), _) => self.write_failure(f, fail),
        }
    }
}

impl Report {
    /// A run that failed a health check (no valid test case) without a failing value.
    fn write_unhealthy(&self, f: &mut fmt::Formatter<'_>, why: &str) -> fmt::Result {
        write!(
            f,
            "property `{}` failed a health check after {} tests ({} valid), seed {}\n  {why}",
            self.name, self.tests, self.valid, self.seed
        )?;
        self.write_warnings(f, "\n  warning: ", "")
    }

    /// A run that passed, with the totals of the JSON summary and the statistics (replayed
    /// tapes included).
    fn write_passed(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "property `{}` passed: {} tests ({} valid, {} unique valid), {} of them saved tapes replayed, seed {}",
            self.name,
            self.total_tests(),
            self.total_valid(),
            self.unique_valid,
            self.replayed,
            self.seed
        )?;
        if let super::Stop::Interrupted(s) = self.stopped {
            write!(
                f,
                "; stopped early by {} (no failure up to then)",
                super::signal_name(s)
            )?;
        }
        self.write_warnings(f, "\n  warning: ", "")
    }

    /// A failure on an explicit example that could not be shrunk (the message says why).
    fn write_example(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = match self.failure.as_ref().map(|x| &x.found) {
            Some(Found::Example(n)) => *n,
            _ => 0,
        };
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
        Ok(())
    }

    /// A failure found, shrunk and (maybe) saved: where it was found, the minimal value and
    /// message, the shrink, where it was saved, how to rerun and replay it.
    fn write_failure(&self, f: &mut fmt::Formatter<'_>, fail: &Failure) -> fmt::Result {
        self.write_found(f, fail)?;
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
                self.seed, self.seed
            )?;
        }
        self.write_warnings(f, "  warning: ", "\n")?;
        if let Some(cmd) = &self.replay {
            write!(f, "  replay: {cmd}")?;
        }
        Ok(())
    }

    /// The first line of a failure: where it was found.
    fn write_found(&self, f: &mut fmt::Formatter<'_>, fail: &Failure) -> fmt::Result {
        let flaky = if fail.flaky { " (flaky)" } else { "" };
        match &fail.found {
            Found::Example(n) => writeln!(
                f,
                "property `{}` failed{flaky} on explicit example #{n}",
                self.name
            ),
            Found::Reuse(p) => writeln!(
                f,
                "property `{}` failed{flaky} on saved tape {}",
                self.name,
                p.display()
            ),
            Found::Generate(n) => writeln!(
                f,
                "property `{}` failed{flaky} after {n} tests (seed {})",
                self.name, self.seed
            ),
            Found::Given {
                example: Some(n),
                value,
            } => writeln!(
                f,
                "property `{}` failed{flaky} on explicit example #{n}, shrunk from it\n  explicit example:{}",
                self.name,
                Block(value),
            ),
            Found::Given {
                example: None,
                value,
            } => writeln!(
                f,
                "property `{}` failed{flaky} on the value given to shrink, shrunk from it\n  given value:{}",
                self.name,
                Block(value),
            ),
        }
    }

    /// Every warning and failed save, each as `before` + the text + `after`.
    fn write_warnings(&self, f: &mut fmt::Formatter<'_>, before: &str, after: &str) -> fmt::Result {
        for w in self.warnings.iter().chain(&self.save_errors) {
            write!(f, "{before}{w}{after}")?;
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
