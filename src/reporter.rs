//! Where a run's words for a person go: the seed line, warnings, the progress of the
//! generate phase, a search's note, the statistics. The engine writes nothing itself; it
//! hands each to the run's [`Reporter`] ([`crate::engine::Config::reporter`]), so that a
//! library user, libtest's capture, `cargo tapefuzz` and a JSON consumer each get what they
//! need. [`Stderr`] (the default) prints them as tapefuzz always has; [`Silent`] drops them
//! (they stay in the run's report: warnings in `Report::warnings`, the note in
//! `Report::note`, statistics in `Report::statistics`).
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use tapefuzz::reporter::{Reporter, Reporting};
//!
//! /// Keeps the warnings, drops the rest.
//! #[derive(Default)]
//! struct Warnings(Mutex<Vec<String>>);
//!
//! impl Reporter for Warnings {
//!     fn warning(&self, warning: &str) {
//!         self.0.lock().unwrap().push(warning.to_string());
//!     }
//! }
//!
//! let warnings = Arc::new(Warnings::default());
//! let mut config = tapefuzz::engine::Config::default();
//! config.reporter = Reporting::new(warnings.clone());
//! assert!(warnings.0.lock().unwrap().is_empty());
//! ```

use std::fmt;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a run says to a person. Every method has a default that does nothing, so a
/// reporter implements only what it wants. Called from the run's thread, except
/// [`Reporter::note`] for a hang, which the watchdog's thread reports just before it ends
/// the process.
pub trait Reporter: Send + Sync {
    /// One line (no `tapefuzz: ` prefix, no newline): the run's seed, a search's note, a
    /// test case of a dead run being replayed, a corpus migrated.
    fn note(&self, line: &str) {
        let _ = line;
    }

    /// A warning (no prefix, no newline); the run's report keeps it too.
    fn warning(&self, warning: &str) {
        let _ = warning;
    }

    /// The progress of the generate phase: a line (with its own `tapefuzz: ` prefix) and,
    /// when the run has a budget, the share of it spent (0 to 1). Comes four times a second
    /// when [`Reporter::redraws`], else once a second, and only with `Config::progress`.
    fn progress(&self, line: &str, done: Option<f64>) {
        let _ = (line, done);
    }

    /// The progress is over (the generate phase ended).
    fn progress_end(&self) {}

    /// Whether progress is redrawn in place (a terminal), so it may come more often.
    fn redraws(&self) -> bool {
        false
    }

    /// A block of text, each line ending with a newline: the statistics at the end of a run
    /// (`Config::stats`).
    fn text(&self, text: &str) {
        let _ = text;
    }
}

/// Prints on stderr: notes as `tapefuzz: …`, warnings as `tapefuzz: warning: …`; progress on
/// a terminal as a bar redrawn in place, elsewhere (a log, libtest's captured output) as one
/// plain line each time. Notes, progress and text go through `eprint!`, so libtest captures
/// them (shown when the test fails); warnings are written past the capture, shown always.
#[derive(Debug, Default)]
pub struct Stderr {
    /// A bar is drawn in place and needs a newline before anything else.
    drawn: AtomicBool,
}

impl Reporter for Stderr {
    fn note(&self, line: &str) {
        eprintln!("tapefuzz: {line}");
    }

    fn warning(&self, warning: &str) {
        // Written to the handle, past libtest's capture (which takes `eprint!` only): a
        // warning is for the user also when the test passes — a regression that passes now,
        // a generator that changed, a missing flight record.
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "tapefuzz: warning: {warning}");
    }

    fn progress(&self, line: &str, done: Option<f64>) {
        if self.redraws() {
            eprint!("\r\x1b[2K{}{line}", bar(done));
            self.drawn.store(true, Ordering::Relaxed);
        } else {
            eprintln!("{line}");
        }
    }

    fn progress_end(&self) {
        if self.drawn.swap(false, Ordering::Relaxed) {
            eprintln!();
        }
    }

    fn redraws(&self) -> bool {
        std::io::stderr().is_terminal()
    }

    fn text(&self, text: &str) {
        eprint!("{text}");
    }
}

/// Says nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Reporter for Silent {}

/// A bar of 20 cells and the percentage (`[#########...........]  45% `; shares outside
/// 0..=1 are clamped), or nothing when the share is unknown.
pub fn bar(done: Option<f64>) -> String {
    let Some(f) = done else {
        return String::new();
    };
    let f = f.clamp(0.0, 1.0);
    const CELLS: usize = 20;
    let full = ((f * CELLS as f64).round() as usize).min(CELLS);
    format!(
        "[{}{}] {:>3.0}% ",
        "#".repeat(full),
        ".".repeat(CELLS - full),
        f * 100.0
    )
}

/// A run's reporter, shared (a configuration is cloned; the watchdog's thread holds one
/// too). [`Stderr`] by default. Any two are equal: where a run's words go is not part of
/// what a configuration is, so `Config::default() == Config::default()`.
#[derive(Clone)]
pub struct Reporting(Arc<dyn Reporter>);

impl Reporting {
    /// Reports to `reporter`.
    pub fn new(reporter: Arc<dyn Reporter>) -> Reporting {
        Reporting(reporter)
    }

    /// Says nothing ([`Silent`]).
    pub fn silent() -> Reporting {
        Reporting(Arc::new(Silent))
    }
}

impl Default for Reporting {
    fn default() -> Reporting {
        Reporting(Arc::new(Stderr::default()))
    }
}

impl std::ops::Deref for Reporting {
    type Target = dyn Reporter;
    fn deref(&self) -> &(dyn Reporter + 'static) {
        &*self.0
    }
}

impl fmt::Debug for Reporting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reporting(..)")
    }
}

impl PartialEq for Reporting {
    fn eq(&self, _: &Reporting) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reporters_do_not_count_in_a_configurations_equality() {
        assert_eq!(Reporting::default(), Reporting::silent());
    }
}
