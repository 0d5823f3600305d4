//! A report as a person reads it: what `check` panics with and `cargo tapefuzz` prints.

use super::{Found, Report};
use std::fmt;

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self;
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
            if let super::Stop::Interrupted(s) = r.stopped {
                write!(
                    f,
                    "; stopped early by {} (no failure up to then)",
                    super::signal_name(s)
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
