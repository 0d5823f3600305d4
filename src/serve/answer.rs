//! What a command on tape files answers, typed, and how a person reads it: each command's
//! work ([`Replayed::of`], [`Imported::of`]), its summary (`Tally`) and its text
//! ([`Replayed::human`], [`Imported::human`]) exist once, here. The test binary serves them
//! to `cargo tapefuzz` as JSON lines; an in-process client (the harnesses' CLI) gets the
//! same values from [`super::answer`].

use super::explain::explain_bytes;
use super::request::Command;
use crate::engine::Summary;
use crate::property::{Property, Test};
use crate::tape::{Recording, Status};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One tape file replayed (`replay FILE…`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replayed {
    /// The tape file.
    pub file: PathBuf,
    /// `Valid`, `Invalid`, `Overrun` or `Interesting` (the property fails).
    pub status: String,
    /// The value generated (Debug); `None` when generation stopped before a value.
    pub value: Option<String>,
    /// Why the property failed, when it did.
    pub failure: Option<String>,
}

impl Replayed {
    /// Runs `test` once on `bytes` (the tape of `file`); the recording says which choices
    /// it made (two files with the same choices are one distinct test case).
    pub fn of(test: &dyn Test, file: &Path, bytes: &[u8]) -> (Replayed, Recording) {
        let (e, rec) = explain_bytes(test, bytes);
        let replayed = Replayed {
            file: file.to_path_buf(),
            status: format!("{:?}", e.status),
            value: e.value,
            failure: e.message,
        };
        (replayed, rec)
    }

    /// The answer for a tape that ran over the timeout: failed, with no value.
    pub fn hang(file: &Path, failure: String) -> Replayed {
        Replayed {
            file: file.to_path_buf(),
            status: format!("{:?}", Status::Interesting),
            value: None,
            failure: Some(failure),
        }
    }

    /// Whether the property fails on the tape.
    pub fn fails(&self) -> bool {
        self.status == format!("{:?}", Status::Interesting)
    }

    /// The JSON answer line (`"type": "replay"`).
    pub fn to_line(&self) -> Value {
        let mut v = serde_json::to_value(self).expect("a replay answer serializes");
        v["type"] = json!("replay");
        v
    }

    /// The line a person reads: `file: Status value`, and the failure under it.
    pub fn human(&self) -> String {
        format!(
            "{}: {} {}{}",
            self.file.display(),
            self.status,
            self.value.as_deref().unwrap_or("<no value>"),
            self.failure
                .as_ref()
                .map(|m| format!("\n  failure: {m}"))
                .unwrap_or_default()
        )
    }
}

/// Whether the tape file `file` may kill the process that runs it: every file but those
/// libFuzzer names for inputs that only ran long (`timeout-…`, `slow-unit-…`), which would
/// cost their whole timeout in a process of their own first (a hang is watched in-process).
fn may_kill(file: &Path) -> bool {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    !(name.starts_with("timeout-") || name.starts_with("slow-unit-"))
}

/// One tape file shrunk (`shrink`), and saved to `regressions/` (`import`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Imported {
    /// The tape file.
    pub file: PathBuf,
    /// Whether the property fails on it; `false`: nothing else is set.
    pub fails: bool,
    /// The shrunk value (Debug).
    #[serde(default)]
    pub value: Option<String>,
    /// Why the property fails on the shrunk tape.
    #[serde(default)]
    pub failure: Option<String>,
    /// The file's size in bytes.
    #[serde(default)]
    pub bytes: Option<usize>,
    /// Choices of the tape before shrinking; `None` for a tape that hung (not shrunk).
    #[serde(default)]
    pub from_choices: Option<usize>,
    /// Choices of the shrunk tape.
    #[serde(default)]
    pub to_choices: Option<usize>,
    /// Test cases the shrinker ran.
    #[serde(default)]
    pub shrink_calls: Option<u64>,
    /// The shrinker stopped at its budget (the value may not be minimal).
    #[serde(default)]
    pub shrink_budget_exhausted: bool,
    /// Where the shrunk tape was saved (`import` only).
    #[serde(default)]
    pub saved: Option<PathBuf>,
    /// Why it could not be saved.
    #[serde(default)]
    pub save_error: Option<String>,
    /// The failure report, as `cargo test` prints it; `None` for a tape that hung.
    #[serde(default)]
    pub report: Option<String>,
}

impl Imported {
    /// Shrinks the failing tape `bytes` of `file` for `property` and, when `save`, saves
    /// the result to its `regressions/` (the library's one confirm-shrink-save path,
    /// [`Property::import`]). A tape on which the property does not fail answers
    /// `fails: false`. With `isolating` (a test binary run by `cargo tapefuzz`, whose test
    /// cases can run in processes of their own), a crash file runs in a process of its own
    /// first, and one that kills or hangs it is shrunk in processes of their own.
    pub fn of(
        property: &Property,
        test: &dyn Test,
        file: &Path,
        bytes: &[u8],
        save: bool,
        isolating: bool,
    ) -> Imported {
        let mut config = property.config_ref().clone();
        config.save = save;
        let p = property.clone().config(config);
        let isolate_first = isolating && may_kill(file);
        let Some(report) = p.import_isolating(test, bytes, file, isolate_first) else {
            return Imported {
                file: file.to_path_buf(),
                ..Imported::default()
            };
        };
        let fail = report.failure.as_ref().expect("an imported failure");
        Imported {
            file: file.to_path_buf(),
            fails: true,
            value: report.value.clone(),
            failure: report.message.clone(),
            bytes: Some(bytes.len()),
            from_choices: Some(fail.original.choices.len()),
            to_choices: Some(fail.shrunk.choices.len()),
            shrink_calls: Some(fail.shrink_calls),
            shrink_budget_exhausted: fail.shrink_budget_exhausted,
            saved: fail.saved.clone(),
            save_error: fail.save_error.clone(),
            report: Some(report.to_string()),
        }
    }

    /// The answer for a tape that ran over the timeout: failing, neither shrunk nor saved.
    pub fn hang(file: &Path, failure: String) -> Imported {
        Imported {
            file: file.to_path_buf(),
            fails: true,
            failure: Some(failure),
            ..Imported::default()
        }
    }

    /// The JSON answer line (`"type": "import"`).
    pub fn to_line(&self) -> Value {
        let mut v = serde_json::to_value(self).expect("an import answer serializes");
        v["type"] = json!("import");
        v
    }

    /// What a person reads about the file under `command` (`shrink` or `import`).
    pub fn human(&self, command: Command) -> String {
        let file = self.file.display();
        let import = command == Command::Import;
        if !self.fails {
            return format!(
                "{file}: the property does not fail on this tape{}",
                if import { " (not imported)" } else { "" }
            );
        }
        let failure = self.failure.as_deref().unwrap_or("(none)");
        let (Some(from), Some(to), Some(calls)) =
            (self.from_choices, self.to_choices, self.shrink_calls)
        else {
            return format!(
                "{file}: {failure} (not shrunk{}; the input stays in {file})",
                if import { ", not saved" } else { "" }
            );
        };
        let budget = if self.shrink_budget_exhausted {
            " (shrink budget ran out)"
        } else {
            ""
        };
        let kept = match (&self.saved, &self.save_error) {
            (Some(p), _) => format!("\n  saved to {}", p.display()),
            (None, Some(e)) => format!("\n  cannot save the shrunk tape: {e}"),
            (None, None) => String::new(),
        };
        format!(
            "{file}: {} bytes, {from} → {to} choices in {calls} calls{budget}: {}\n  failure: {failure}{kept}",
            self.bytes.unwrap_or(0),
            self.value.as_deref().unwrap_or("<no value>"),
        )
    }
}

/// The JSON summary of a command on tape files (the design page's line): each file a test
/// case, distinct valid tapes counted once, the first failing file's value as `shrunk`.
#[derive(Debug)]
pub(crate) struct Tally {
    summary: Summary,
    unique: HashSet<Vec<u64>>,
    started: std::time::Instant,
}

impl Tally {
    /// A tally for `command` on the property `name`.
    pub(crate) fn new(name: &str, command: Command) -> Tally {
        // Imported tapes are libFuzzer's crashes: the greybox side of the contract.
        let mode = if command == Command::Import {
            "greybox"
        } else {
            "blackbox"
        };
        Tally {
            summary: Summary::empty(name, command.name(), mode),
            unique: HashSet::new(),
            started: std::time::Instant::now(),
        }
    }

    fn one(&mut self, valid: bool, failing: Option<&Option<String>>) {
        self.summary.tests += 1;
        if valid {
            self.summary.valid += 1;
        }
        if let Some(value) = failing {
            self.summary.failures += 1;
            self.summary
                .first_failure_test
                .get_or_insert(self.summary.tests);
            self.summary
                .shrunk
                .get_or_insert(value.clone().unwrap_or_default());
        }
    }

    /// Counts a replayed file (`rec`: its choices, for distinct valid tapes).
    pub(crate) fn replayed(&mut self, r: &Replayed, rec: &Recording) {
        let valid = r.status == format!("{:?}", Status::Valid);
        if valid {
            self.unique.insert(rec.indices());
        }
        self.one(valid, r.fails().then_some(&r.value));
    }

    /// Counts an imported file: one the property does not fail on counts as valid.
    pub(crate) fn imported(&mut self, i: &Imported) {
        if !i.fails {
            self.unique.insert(vec![self.summary.tests]);
        }
        self.one(!i.fails, i.fails.then_some(&i.value));
        if i.save_error.is_some() {
            self.summary.save_errors += 1;
        }
    }

    /// The summary; it passes when no file fails.
    pub(crate) fn finish(mut self) -> Summary {
        self.summary.unique_valid = self.unique.len() as u64;
        self.summary.seconds = self.started.elapsed().as_secs_f64();
        self.summary
    }
}

/// The summary answer line of a command on tape files (`"type": "summary"`, as `run`
/// answers it, with a one-line report).
pub(crate) fn summary_line(summary: &Summary, command: Command) -> Value {
    let report = format!(
        "{} {}: {} tape files, {} failing",
        command.name(),
        summary.target,
        summary.tests,
        summary.failures
    );
    json!({
        "type": "summary",
        "line": summary.to_json(),
        "summary": summary,
        "passed": summary.failures == 0,
        "report": report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_back_as_written() {
        let r = Replayed::hang(Path::new("/t/x"), "timed out".into());
        let line = r.to_line();
        assert_eq!(line["type"], "replay");
        assert_eq!(line["status"], "Interesting");
        assert_eq!(serde_json::from_value::<Replayed>(line).unwrap(), r);
        assert!(r.fails());
        assert_eq!(
            r.human(),
            "/t/x: Interesting <no value>\n  failure: timed out"
        );

        let i = Imported::hang(Path::new("/t/y"), "timed out".into());
        assert_eq!(serde_json::from_value::<Imported>(i.to_line()).unwrap(), i);
        assert_eq!(
            i.human(Command::Import),
            "/t/y: timed out (not shrunk, not saved; the input stays in /t/y)"
        );
        // An answer from an older test binary, without the newer fields, still reads.
        let old = json!({"type": "import", "file": "/t/z", "fails": false});
        let z: Imported = serde_json::from_value(old).unwrap();
        assert_eq!(
            z.human(Command::Shrink),
            "/t/z: the property does not fail on this tape"
        );
    }

    #[test]
    fn replayed_tapes_count_once_when_their_choices_are_the_same() {
        use crate::generators::{GenExt, ints};
        let test = crate::property::property(ints::<u8>(..).filter(|x| *x < 200), |x: u8| x != 7);
        let mut t = Tally::new("p", Command::Replay);
        for (file, bytes) in [("a", [5u8]), ("b", [5]), ("c", [250]), ("d", [7])] {
            let (r, rec) = Replayed::of(&test, Path::new(file), &bytes);
            t.replayed(&r, &rec);
        }
        let s = t.finish();
        // a and b are one valid tape; c is another (the filter draws again: the tape's end
        // gives 0); d fails.
        assert_eq!((s.tests, s.valid, s.unique_valid, s.failures), (4, 3, 2, 1));
        assert_eq!(s.first_failure_test, Some(4));
        assert_eq!(s.shrunk.as_deref(), Some("7"));
        let line = summary_line(&s, Command::Replay);
        assert_eq!(line["line"], s.to_json());
        assert_eq!(line["passed"], false);
    }

    #[test]
    fn a_tally_counts_files_failures_and_distinct_valid_tapes() {
        let mut t = Tally::new("p", Command::Import);
        t.imported(&Imported::default());
        let mut failing = Imported::hang(Path::new("f"), "x".into());
        failing.value = Some("[1]".into());
        failing.save_error = Some("disk full".into());
        t.imported(&failing);
        t.imported(&failing);
        let s = t.finish();
        assert_eq!((s.tests, s.valid, s.unique_valid, s.failures), (3, 1, 1, 2));
        assert_eq!(s.first_failure_test, Some(2));
        assert_eq!(s.shrunk.as_deref(), Some("[1]"));
        assert_eq!(s.save_errors, 2);
        assert_eq!(
            (s.strategy.as_str(), s.mode.as_str()),
            ("import", "greybox")
        );
        assert_eq!(summary_line(&s, Command::Import)["passed"], false);
    }
}
