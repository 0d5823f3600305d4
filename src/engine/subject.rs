//! What the run loop tests: a test function, and what else the loop may ask of it.

use super::Described;
use crate::tape::{Status, Tape};
use std::time::Duration;

/// How a test case ended in a process of its own ([`Subject::isolated`]). Built by
/// [`Isolated::hang`] or by the property layer; more fields may come.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Isolated {
    /// [`Status::Interesting`] when it failed — also by killing its process (an abort, a
    /// stack overflow, an allocation failure) or by running over the timeout.
    pub status: Status,
    /// What happened, for a person (`crashed: killed by signal 6 (SIGABRT)`, `timed out: …`,
    /// or the failure message).
    pub message: Option<String>,
    /// Whether it failed by running over the timeout (a hang), not by a panic or a crash:
    /// shrinking a failure keeps to candidates that fail the same way.
    pub timed_out: bool,
    /// Whether its process died (an abort, a signal, a sanitizer's report) instead of
    /// reporting how the test case ended: such a test case cannot run in the process that
    /// asks.
    pub crashed: bool,
}

impl Isolated {
    /// A test case that ran longer than `limit`: interesting, timed out, and says so.
    pub fn hang(limit: std::time::Duration) -> Isolated {
        Isolated {
            status: Status::Interesting,
            message: Some(format!("timed out: ran longer than {limit:?}")),
            timed_out: true,
            crashed: false,
        }
    }
}

/// What the loop runs: [`Subject::run`] is the test; the rest have defaults, and a property
/// gives them (the property layer's subject). Any `FnMut(&mut Tape) -> Status` is a subject.
pub trait Subject {
    /// Runs one test case on the tape.
    fn run(&mut self, tape: &mut Tape<'_>) -> Status;

    /// The name progress lines, statistics and the observability log give the subject (a
    /// property's name); empty by default, which they show as `property`.
    fn name(&self) -> &str {
        ""
    }

    /// The value (Debug) and the failure message of the tape `bytes`, for a person: what a
    /// regression file and a report say. Runs the test; nothing by default.
    fn describe(&mut self, bytes: &[u8]) -> Described {
        let _ = bytes;
        Described::default()
    }

    /// The value of the tape `bytes` only (the generator, not the test): the description of a
    /// tape whose test case kills the process. Nothing by default.
    fn render(&mut self, bytes: &[u8]) -> Option<String> {
        let _ = bytes;
        None
    }

    /// Runs only the generator on the tape ([`Status::Valid`] when it made a value), so that
    /// the loop can record a tape without running a test that kills the process. Runs the
    /// whole test by default.
    fn generate(&mut self, tape: &mut Tape<'_>) -> Status {
        self.run(tape)
    }

    /// Runs the test case of the tape `bytes` in a process of its own, killed after
    /// `timeout`: how the loop replays and shrinks a test case that killed an earlier run.
    /// `None` when this subject cannot (the default): such a failure is then reported
    /// unshrunk.
    fn isolated(&mut self, bytes: &[u8], timeout: Option<Duration>) -> Option<Isolated> {
        let _ = (bytes, timeout);
        None
    }

    /// Called with `on` (`true`, or `false` where the run has a timeout: a slow run that
    /// passes is a failure the subject does not see) after the loop confirmed a failure and
    /// before it shrinks it, and with `false` after. While on, a subject may answer a test
    /// case whose value it saw pass since then without running the test again (the property
    /// layer does, by a hash of the value's Debug form): shrink candidates made of other
    /// choices often build a value tried before. It must never answer a test case as
    /// failing without running it. Never called while a failure is confirmed, nor by
    /// [`super::settle_isolated`] (which skips a value its `render` gave before). Nothing by
    /// default.
    fn shrinking(&mut self, on: bool) {
        let _ = on;
    }

    /// How many times shrinking runs a candidate that does not fail before it takes it as
    /// passing: more than 1 for a failure that shows only on some runs (a race between
    /// threads), so that a smaller case is not rejected for one lucky run. It also multiplies
    /// the confirming replays of a found failure ([`CONFIRM_ATTEMPTS`]), starts the shrink
    /// again from its result (a fresh cache) up to this many times while that finds a smaller
    /// case, and re-runs the describing run until it fails. 1 by default.
    ///
    /// [`CONFIRM_ATTEMPTS`]: super::CONFIRM_ATTEMPTS
    fn attempts(&self) -> usize {
        1
    }
}

impl<F: FnMut(&mut Tape<'_>) -> Status> Subject for F {
    fn run(&mut self, tape: &mut Tape<'_>) -> Status {
        self(tape)
    }
}
