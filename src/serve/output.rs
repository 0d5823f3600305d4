//! Where a served command's answers go: one JSON object a line, appended to the request's
//! out file (stdout without one), with one write each (tests run in parallel under `list`).

use serde_json::{Value, json};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The answer file of one request, or the answers kept in memory for an in-process client.
#[derive(Clone, Debug)]
pub(crate) struct Answers {
    out: Option<PathBuf>,
    kept: Option<Arc<Mutex<Vec<Value>>>>,
}

impl Answers {
    /// Answers to `out` (stdout for `None`).
    pub(crate) fn new(out: Option<PathBuf>) -> Answers {
        Answers { out, kept: None }
    }

    /// Answers kept in memory ([`Answers::taken`]).
    pub(crate) fn in_memory() -> Answers {
        Answers {
            out: None,
            kept: Some(Arc::default()),
        }
    }

    /// The answers kept in memory so far (none for a file).
    pub(crate) fn taken(&self) -> Vec<Value> {
        self.kept
            .as_ref()
            .map(|k| std::mem::take(&mut *k.lock().unwrap_or_else(|e| e.into_inner())))
            .unwrap_or_default()
    }

    /// Appends one JSON line. A file that cannot be written ends the process with exit
    /// status 2: an answer must never be lost silently.
    pub(crate) fn emit(&self, line: &Value) {
        if let Some(kept) = &self.kept {
            kept.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(line.clone());
            return;
        }
        let text = format!("{line}\n");
        match &self.out {
            Some(path) => {
                let written = std::fs::OpenOptions::new()
                    .append(true)
                    .create(true)
                    .open(path)
                    .and_then(|mut f| f.write_all(text.as_bytes()));
                if let Err(e) = written {
                    eprintln!("tapefuzz: cannot write to {}: {e}", path.display());
                    std::process::exit(2);
                }
            }
            None => print!("{text}"),
        }
    }

    /// Says why the request cannot be served (on stderr and as an `error` line) and ends the
    /// process with exit status 2.
    pub(crate) fn fatal(&self, message: &str) -> ! {
        eprintln!("tapefuzz: {message}");
        self.emit(&json!({"type": "error", "message": message}));
        std::process::exit(2);
    }

    /// Runs `f` (one run of the tape in `file`) under `limit` (`TAPEFUZZ_TIMEOUT_MS`): a tape
    /// that hangs cannot be stopped, so past the limit the process emits `answer(failure)`
    /// (the command's answer for `file`, failed as "timed out") and exits with
    /// [`crate::engine::HANG_EXIT_CODE`] instead of never ending.
    pub(crate) fn watched<R>(
        &self,
        limit: Duration,
        file: &Path,
        answer: impl FnOnce(String) -> Value + Send + 'static,
        f: impl FnOnce() -> R,
    ) -> R {
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (flag, file, answers) = (done.clone(), file.to_path_buf(), self.clone());
        std::thread::spawn(move || {
            let start = std::time::Instant::now();
            while start.elapsed() < limit {
                std::thread::sleep(Duration::from_millis(10));
                if flag.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
            }
            let line = answer(format!("timed out: ran over the timeout ({limit:?})"));
            if answers.kept.is_some() {
                // The in-process client never gets its answers back: they go to stdout, the
                // ones before the hang first.
                for kept in answers.taken() {
                    println!("{kept}");
                }
                println!("{line}");
            }
            answers.emit(&line);
            eprintln!(
                "tapefuzz: {} ran over the timeout ({limit:?}); ending the command",
                file.display()
            );
            std::process::exit(crate::engine::HANG_EXIT_CODE);
        });
        let r = f();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        r
    }
}
