//! The observability log (`TAPEFUZZ_OBSERVABILITY=<file or folder>`): one JSON object per
//! test case, in Hypothesis's test-case format, so tools written for Hypothesis's
//! observability output (Tyche, notebooks) read tapefuzz runs too.
//!
//! Each line is a `"type": "test_case"` object with Hypothesis's fields — `status`
//! (`passed`, `failed`, `gave_up`), `status_reason`, `representation` (the value's Debug),
//! `arguments` (`{"value": <Debug>}`: a property has one generated argument), `how_generated`
//! (the strategy's name, `replay` or `shrink`), `features` (the events, and each utility as
//! `target:<label>`), `coverage` (`null`), `timing` (`generate:value` and `execute:test`,
//! seconds), `property`, `run_start` (seconds since the Unix epoch) and `metadata` (the
//! seed, the test's number, the choices drawn, the status, the phase and the failure
//! message as `traceback`). Each run starts with a `"type": "info"` line saying which run it
//! is.
//!
//! The file is opened in append mode and each line is written with one `write`, so that
//! test binaries running in parallel (libtest's threads, several processes) can share one
//! file without their lines mixing.

use super::Utility;
use super::events::{Case, EventValue};
use crate::tape::Status;
use serde_json::{Map, Value, json};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file the log goes to in a folder given as `TAPEFUZZ_OBSERVABILITY`.
pub const FILE_NAME: &str = "testcases.jsonl";

/// How a test case came about: Hypothesis's `how_generated` and the metadata's `phase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum How {
    /// A saved tape replayed in the reuse phase.
    Replay,
    /// Proposed by the search (its name).
    Generated(&'static str),
    /// A candidate of the shrinker (confirming the failure included).
    Shrink,
}

/// An open log.
pub(crate) struct Log {
    file: File,
    path: PathBuf,
    property: String,
    run_start: f64,
    seed: u64,
    /// The first write error: the log stops there, and the run reports it once.
    pub(crate) error: Option<String>,
}

/// Where the log of `target` goes: `target` itself, or [`FILE_NAME`] inside it when it is a
/// folder (or is spelt as one, with a trailing `/`; the folder is then created).
pub fn log_path(target: &Path) -> PathBuf {
    let spelt_as_dir = target.as_os_str().to_string_lossy().ends_with('/');
    if target.is_dir() || spelt_as_dir {
        target.join(FILE_NAME)
    } else {
        target.to_path_buf()
    }
}

impl Log {
    /// Opens (appending, creating) the log at [`log_path`]`(target)` for a run of `property`,
    /// and writes the run's `info` line.
    pub(crate) fn open(
        target: &Path,
        property: &str,
        strategy: &str,
        seed: u64,
    ) -> std::io::Result<Log> {
        let path = log_path(target);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().append(true).create(true).open(&path)?;
        let run_start = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        let mut log = Log {
            file,
            path,
            property: property.to_string(),
            run_start,
            seed,
            error: None,
        };
        log.line(json!({
            "type": "info",
            "property": log.property,
            "run_start": run_start,
            "title": "tapefuzz run",
            "content": {"strategy": strategy, "seed": seed, "pid": std::process::id()},
        }));
        match log.error.take() {
            Some(e) => Err(std::io::Error::other(e)),
            None => Ok(log),
        }
    }

    /// Appends one test case: `status` with the notes of `case`, the utilities it reported,
    /// the choices it drew, its number in the generate phase (0 elsewhere).
    pub(crate) fn test_case(
        &mut self,
        how: How,
        status: Status,
        case: &Case,
        utilities: &[Utility],
        choices: usize,
        test: u64,
    ) {
        if self.error.is_some() {
            return;
        }
        let (status_name, reason) = match status {
            Status::Valid => ("passed", String::new()),
            Status::Interesting => (
                "failed",
                case.message.clone().unwrap_or_else(|| "failed".into()),
            ),
            Status::Invalid => (
                "gave_up",
                "rejected by assume!, a filter or Fail::Rejected".into(),
            ),
            Status::Overrun => ("gave_up", "overran the size budget of a test case".into()),
        };
        let mut features = Map::new();
        for u in utilities {
            features.insert(format!("target:{}", u.label), json!(u.value));
        }
        for (label, value) in &case.events {
            let v = match value {
                None => json!(""),
                Some(EventValue::Number(x)) => json!(x),
                Some(EventValue::Text(t)) => json!(t),
            };
            features.insert(label.clone(), v);
        }
        let (how_generated, phase) = match how {
            How::Replay => ("replay".to_string(), "reuse"),
            How::Generated(strategy) => (strategy.to_string(), "generate"),
            How::Shrink => ("shrink".to_string(), "shrink"),
        };
        let representation = case
            .representation
            .clone()
            .unwrap_or_else(|| "<no value>".into());
        let arguments = match &case.representation {
            Some(r) => json!({ "value": r }),
            None => json!({}),
        };
        self.line(json!({
            "type": "test_case",
            "property": self.property,
            "run_start": self.run_start,
            "status": status_name,
            "status_reason": reason,
            "representation": representation,
            "arguments": arguments,
            "how_generated": how_generated,
            "features": features,
            "coverage": Value::Null,
            "timing": {
                "generate:value": case.generating.as_secs_f64(),
                "execute:test": case.testing.as_secs_f64(),
            },
            "metadata": {
                "traceback": case.message,
                "seed": self.seed,
                "test": test,
                "choices": choices,
                "data_status": format!("{status:?}"),
                "phase": phase,
            },
        }));
    }

    /// Writes `value` and a newline with one `write` (append mode: lines of concurrent
    /// writers do not mix).
    fn line(&mut self, value: Value) {
        let mut text = value.to_string();
        text.push('\n');
        if let Err(e) = self.file.write_all(text.as_bytes()) {
            self.error = Some(format!(
                "cannot write the observability log {}: {e}",
                self.path.display()
            ));
        }
    }
}
