//! `ci`, the job a CI system runs on every push, with its rules once for every client
//! (`cargo tapefuzz ci`, the harnesses' `ci`): each property replays its regressions and
//! corpus, then runs a campaign of [`CI_SECONDS`] with the [`CI_STRATEGY`] search that adds
//! at most [`CI_KEEP`] new unique valid tapes to its corpus; a failure is shrunk and saved.
//! The job fails when a property fails, when a save fails (nothing found may be lost
//! silently) or when a property could not run; [`CiJob`] keeps the tally, writes the
//! JUnit report and says how the job ended.
//!
//! ```
//! use tapefuzz::serve::CiJob;
//!
//! let mut job = CiJob::new("my-tool");
//! let line = r#"{"target":"x1::roundtrip","seconds":1.5,"save_errors":0,"corpus_added":3}"#;
//! job.ran("x1::roundtrip", line, true, "property `x1::roundtrip` passed");
//! job.broke("x2::roundtrip", "the test binary died", 0.2);
//! // A property that could not run: exit status 2 (a failure alone is 1).
//! assert_eq!(job.finish(None), Ok(2));
//! ```

use crate::junit::{TestCase, render};
use serde_json::Value;
use std::path::Path;

/// Seconds of campaign per property, by default.
pub const CI_SECONDS: f64 = 10.0;
/// New unique valid tapes one property's campaign adds to its corpus, at most, by default.
pub const CI_KEEP: usize = 8;
/// The search a `ci` campaign runs by default (RLCheck's guidance towards unique valid
/// inputs, which makes the corpus it keeps diverse).
pub const CI_STRATEGY: &str = "rl";

/// The results of one `ci` job, property by property.
#[derive(Debug)]
pub struct CiJob {
    tool: String,
    cases: Vec<TestCase>,
    failed: usize,
    /// Of the failed, those that could not run at all ([`CiJob::broke`]).
    broken: usize,
    save_errors: u64,
    added: u64,
    started: std::time::Instant,
}

impl CiJob {
    /// A job run by `tool` (`cargo-tapefuzz`, `tapefuzz`: how its lines on stderr start).
    pub fn new(tool: &str) -> CiJob {
        CiJob {
            tool: tool.to_string(),
            cases: Vec::new(),
            failed: 0,
            broken: 0,
            save_errors: 0,
            added: 0,
            started: std::time::Instant::now(),
        }
    }

    /// Says on stderr that the campaign of `name` starts (`detail`: what is special about
    /// it, such as a planted bug; may be empty).
    pub fn starting(&self, name: &str, strategy: &str, seconds: f64, detail: &str) {
        eprintln!(
            "{} ci: {name} ({seconds}s {strategy} campaign{detail})",
            self.tool
        );
    }

    /// One property that ran: its JSON summary line (the design page's fields, kept in
    /// their order as the JUnit output; `seconds`, `save_errors` and `corpus_added` are
    /// read), whether it passed, and its report (the first line is the JUnit failure's
    /// message). A property that passed but could not save something is a failure of the job
    /// too.
    pub fn ran(&mut self, name: &str, line: &str, passed: bool, report: &str) {
        let summary: Value = serde_json::from_str(line).unwrap_or_default();
        let save_errors = summary["save_errors"].as_u64().unwrap_or(0);
        self.save_errors += save_errors;
        self.added += summary["corpus_added"].as_u64().unwrap_or(0);
        let failure = (!passed || save_errors > 0).then(|| {
            let first = report.lines().next().unwrap_or("failed").to_string();
            (first, report.to_string())
        });
        self.failed += usize::from(failure.is_some());
        self.cases.push(TestCase {
            name: name.to_string(),
            seconds: summary["seconds"].as_f64().unwrap_or(0.0),
            failure,
            output: Some(line.to_string()),
        });
    }

    /// One property that could not run (`error` says why, after `seconds`): a failure.
    pub fn broke(&mut self, name: &str, error: &str, seconds: f64) {
        eprintln!("{}: {error}", self.tool);
        self.failed += 1;
        self.broken += 1;
        self.cases.push(TestCase {
            name: name.to_string(),
            seconds,
            failure: Some((error.to_string(), error.to_string())),
            output: None,
        });
    }

    /// Ends the job: writes the JUnit report to `junit` (atomically), says on stderr how
    /// many properties ran and failed, and returns the exit status: 2 when a property could
    /// not run at all ([`CiJob::broke`]: the job vouches for nothing), else as
    /// [`super::exit_status`] (1 when any failed, else 130 / 143 when SIGINT / SIGTERM
    /// stopped the job, else 0). A report that cannot be written is an error.
    pub fn finish(self, junit: Option<&Path>) -> Result<i32, String> {
        if let Some(path) = junit {
            let xml = render(&format!("{} ci", self.tool), &self.cases);
            crate::corpus::write_atomic(path, xml.as_bytes())
                .map_err(|e| format!("cannot write the JUnit report {}: {e}", path.display()))?;
        }
        eprintln!(
            "{} ci: {} properties, {} failed ({} could not run), {} tapes added to corpora, {} saves failed, {:.1}s",
            self.tool,
            self.cases.len(),
            self.failed,
            self.broken,
            self.added,
            self.save_errors,
            self.started.elapsed().as_secs_f64()
        );
        if self.broken > 0 {
            return Ok(2);
        }
        Ok(super::interrupt::exit_status(self.failed > 0))
    }
}

/// Checks, before any campaign, that the JUnit report `path` can be written: a bad path is
/// an error at once, not after the whole job. Creates nothing that was not there.
pub fn check_junit_path(path: &Path) -> Result<(), String> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot write the JUnit report {}: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}
