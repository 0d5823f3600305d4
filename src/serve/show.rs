//! How a client shows the answers of a command on tape files to a person: once, for `cargo
//! tapefuzz` (answers read from the test binary's out file) and the harnesses' CLI (answers
//! from [`super::answer`]).

use super::answer::{Imported, Replayed};
use super::request::Command;
use serde_json::Value;
use std::path::Path;

/// Where a client prints, and what it calls itself.
#[derive(Clone, Copy, Debug)]
pub struct Show<'a> {
    /// Put before each message on stderr: `cargo-tapefuzz: `, `tapefuzz: `.
    pub prefix: &'a str,
    /// The JSON lines (each file's answer, the summary) go to stderr instead of stdout
    /// (`cargo tapefuzz fuzz`, whose stdout lists crash files).
    pub json_to_stderr: bool,
    /// The property's corpus folder, named when `import` saved something.
    pub corpus: Option<&'a Path>,
}

impl Show<'_> {
    fn json(&self, line: &str) {
        if self.json_to_stderr {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }

    /// Prints the answer `lines` of `command` (`replay` — of the property's saved tapes when
    /// `files` is 0 — `explain`, `shrink`, `import`) asked about `files` tape files, and returns the exit status: 1 when a
    /// replayed or shrunk file fails, or when `import` could not save a failure (a save
    /// error, or a tape that hung, which is kept where it is, not shrunk); 0 otherwise
    /// (`import` succeeds by saving). Every file's line for a person (and, for a failure, its
    /// report) goes to stderr; `replay` and `import` print each file's JSON answer and the
    /// summary to stdout; `shrink` prints each minimal value there instead; `explain` prints
    /// its text (headed by the file name when there are several).
    ///
    /// An `error` answer is the error, after the answers before it are shown. Fewer answers
    /// than files means the test binary ended early (`ended` says how): after a file that
    /// failed (a tape that hung ends the command after saying so) that is a failure (1),
    /// otherwise an error.
    pub fn answers(
        &self,
        command: Command,
        lines: &[Value],
        files: usize,
        ended: &str,
    ) -> Result<i32, String> {
        let (mut seen, mut failing, mut saved, mut unsaved) = (0, 0, 0, 0);
        let mut summary_failed = false;
        for line in lines {
            if line["type"] == "error" {
                return Err(line["message"].as_str().unwrap_or("error").to_string());
            }
            match line["type"].as_str() {
                Some("replay") => {
                    let r: Replayed = read(line)?;
                    seen += 1;
                    failing += usize::from(r.fails());
                    eprintln!("{}", r.human());
                    self.json(&line.to_string());
                }
                Some("explain") => {
                    seen += 1;
                    if files > 1 {
                        println!("== {}", line["file"].as_str().unwrap_or("?"));
                    }
                    print!("{}", line["text"].as_str().unwrap_or(""));
                }
                Some("import") => {
                    let i: Imported = read(line)?;
                    seen += 1;
                    failing += usize::from(i.fails);
                    saved += usize::from(i.saved.is_some());
                    unsaved += usize::from(i.fails && i.saved.is_none());
                    eprintln!("{}{}", self.prefix, i.human(command));
                    if let Some(report) = &i.report {
                        eprintln!("{report}");
                    }
                    if command == Command::Shrink {
                        if i.fails {
                            println!("{}", i.value.as_deref().unwrap_or("<no value>"));
                        }
                    } else {
                        self.json(&line.to_string());
                    }
                }
                Some("summary") if command != Command::Shrink => {
                    if let Some(report) = line["report"].as_str() {
                        eprintln!("{}{report}", self.prefix);
                    }
                    summary_failed |= line["passed"] == false;
                    self.json(
                        line["line"]
                            .as_str()
                            .unwrap_or(&line["summary"].to_string()),
                    );
                }
                _ => {}
            }
        }
        if seen < files {
            let why = format!("the test binary ended ({ended}) after {seen} of {files} files");
            if failing > 0 {
                eprintln!("{}{why}", self.prefix);
                return Ok(1);
            }
            return Err(why);
        }
        if command == Command::Import && unsaved > 0 {
            eprintln!(
                "{}{unsaved} failures were not saved to regressions/ (see above)",
                self.prefix
            );
            return Ok(1);
        }
        if command == Command::Import && saved > 0 {
            eprintln!(
                "{}{saved} imported into {}/regressions: `cargo test` replays them first",
                self.prefix,
                self.corpus
                    .map(|c| c.display().to_string())
                    .unwrap_or_else(|| "the corpus".into())
            );
        }
        let failed = failing > 0 || (command == Command::Replay && summary_failed);
        Ok(i32::from(
            matches!(command, Command::Replay | Command::Shrink) && failed,
        ))
    }
}

fn read<T: serde::de::DeserializeOwned>(line: &Value) -> Result<T, String> {
    serde_json::from_value(line.clone())
        .map_err(|e| format!("an answer that cannot be read ({e}): {line}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SHOW: Show<'static> = Show {
        prefix: "test: ",
        json_to_stderr: true,
        corpus: None,
    };

    fn replay(file: &str, status: &str) -> Value {
        json!({"type": "replay", "file": file, "status": status, "value": "[1]", "failure": null})
    }

    #[test]
    fn exit_statuses_follow_the_answers() {
        let two = [replay("a", "Valid"), replay("b", "Valid")];
        assert_eq!(SHOW.answers(Command::Replay, &two, 2, "exit 0"), Ok(0));
        let failing = [replay("a", "Valid"), replay("b", "Interesting")];
        assert_eq!(SHOW.answers(Command::Replay, &failing, 2, "exit 0"), Ok(1));
        // A replay of the saved tapes: the summary says whether it passed.
        let summary = json!({"type": "summary", "line": "{}", "passed": false, "report": "r"});
        assert_eq!(
            SHOW.answers(Command::Replay, &[summary], 0, "exit 0"),
            Ok(1)
        );

        let saved = json!({"type": "import", "file": "a", "fails": true, "value": "[1]",
                           "from_choices": 4, "to_choices": 2, "shrink_calls": 9, "saved": "r/1.txt"});
        assert_eq!(
            SHOW.answers(Command::Import, std::slice::from_ref(&saved), 1, "exit 0"),
            Ok(0)
        );
        // Shrinking the same file fails (the tape fails); a save error or a hang fails import.
        assert_eq!(SHOW.answers(Command::Shrink, &[saved], 1, "exit 0"), Ok(1));
        let save_error = json!({"type": "import", "file": "a", "fails": true, "value": "[1]",
                                "from_choices": 4, "to_choices": 2, "shrink_calls": 9,
                                "save_error": "disk full"});
        assert_eq!(
            SHOW.answers(Command::Import, &[save_error], 1, "exit 0"),
            Ok(1)
        );
        let hang = json!({"type": "import", "file": "a", "fails": true, "failure": "timed out"});
        assert_eq!(SHOW.answers(Command::Import, &[hang], 1, "exit 70"), Ok(1));
        let passes = json!({"type": "import", "file": "a", "fails": false});
        assert_eq!(SHOW.answers(Command::Import, &[passes], 1, "exit 0"), Ok(0));
    }

    #[test]
    fn an_error_or_a_short_answer_is_an_error_unless_a_file_failed() {
        let lines = [
            replay("a", "Valid"),
            json!({"type": "error", "message": "cannot read b"}),
        ];
        assert_eq!(
            SHOW.answers(Command::Replay, &lines, 2, "exit 2"),
            Err("cannot read b".into())
        );
        let short = [replay("a", "Valid")];
        let e = SHOW
            .answers(Command::Explain, &short, 2, "signal 9")
            .unwrap_err();
        assert!(e.contains("ended (signal 9) after 1 of 2 files"), "{e}");
        // A tape that hung ends the command after its failing answer: a failure.
        let hung = [replay("a", "Interesting")];
        assert_eq!(SHOW.answers(Command::Replay, &hung, 2, "exit 70"), Ok(1));
        let bad = [json!({"type": "import", "file": 3})];
        assert!(SHOW.answers(Command::Import, &bad, 1, "exit 0").is_err());
    }
}
