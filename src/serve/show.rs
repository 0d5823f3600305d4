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

    /// Prints the answer `lines` of `command` (`replay` of files, `explain`, `shrink`,
    /// `import`) asked about `files` tape files, and returns the exit status: 1 when a
    /// replayed or shrunk file fails, or when `import` could not save a shrunk failure; 0
    /// otherwise (`import` succeeds by saving). Every file's human line goes to stderr, its
    /// JSON answer and the summary to stdout; `shrink` prints each minimal value on stdout
    /// instead; `explain` prints its text (headed by the file name when there are several).
    ///
    /// An `error` answer is the error. Fewer answers than files means the test binary
    /// ended early (`ended` says how): an error, except after a replayed file that failed
    /// (a tape that hung ends the replay after saying so), which is a failure.
    pub fn answers(
        &self,
        command: Command,
        lines: &[Value],
        files: usize,
        ended: &str,
    ) -> Result<i32, String> {
        let (mut seen, mut failing, mut saved, mut save_failed) = (0, 0, 0, 0);
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
                    save_failed += usize::from(i.save_error.is_some());
                    saved += usize::from(i.saved.is_some());
                    eprintln!("{}{}", self.prefix, i.human(command));
                    if command == Command::Shrink {
                        if i.fails {
                            println!("{}", i.value.as_deref().unwrap_or("<no value>"));
                        }
                    } else {
                        self.json(&line.to_string());
                    }
                }
                Some("summary") if command != Command::Shrink => {
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
            if command == Command::Replay && failing > 0 {
                eprintln!("{}{why}", self.prefix);
                return Ok(1);
            }
            return Err(why);
        }
        if save_failed > 0 {
            eprintln!(
                "{}{save_failed} shrunk failures could not be saved (see above)",
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
        Ok(i32::from(
            matches!(command, Command::Replay | Command::Shrink) && failing > 0,
        ))
    }
}

fn read<T: serde::de::DeserializeOwned>(line: &Value) -> Result<T, String> {
    serde_json::from_value(line.clone())
        .map_err(|e| format!("an answer that cannot be read ({e}): {line}"))
}
