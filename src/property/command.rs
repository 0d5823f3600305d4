//! The test binary's side of `cargo tapefuzz`: a property run by a test harness (`cargo
//! test`'s libtest) does what the environment asks instead of an ordinary run.
//!
//! `cargo tapefuzz` builds the crate's test binaries and runs one of them with
//! [`COMMAND_VAR`] set, filtered to one test (`<test> --exact`) or, for `list`, to all of
//! them. So the test harness is the registry of properties, and one property written once in
//! a test module runs under `cargo test`, the CLI's campaigns, the in-process greybox engine
//! and libFuzzer, with one corpus.
//!
//! | `TAPEFUZZ_COMMAND` | what the property does |
//! |---|---|
//! | `list` | appends its name, test and corpus to the out file; runs nothing (passes) |
//! | `run` | runs as configured by the environment (which here overrides the builder) and appends its JSON summary |
//! | `replay` | replays its regressions and corpus (no generation), or the tape files of [`ARGS_VAR`], and appends a summary |
//! | `explain` | appends each tape file's value, status, failure and span tree; with [`EXPLAIN_PATH_VAR`], the provenance of that part of the value instead of the span tree (and, with [`EXPLAIN_DOT_VAR`] / [`EXPLAIN_SVG_VAR`], its graph written to those files, for one tape file) |
//! | `shrink` | shrinks each failing tape file and appends the minimal value (saves nothing) |
//! | `import` | shrinks each failing tape file (a libFuzzer crash) and saves it to `regressions/` |
//! | `fuzz` | hands the process to libFuzzer (the `libfuzzer` feature), which runs this property on its inputs |
//!
//! Only the property named by [`PROPERTY_VAR`] serves the command (when that variable is
//! set): any other property reached in the same process returns at once, passing. Output goes
//! to the file named by [`OUT_VAR`], one JSON object per line, appended with one write each
//! (tests run in parallel under `list`). With [`MODE_VAR`]`=greybox`, `run` reads the
//! coverage counters of an instrumented build (the `sancov-callbacks` feature) and uses the
//! `greybox` strategy unless `TAPEFUZZ_STRATEGY` names another.

use super::{Property, Report, Test};
use crate::engine::{Identity, RunReport};
use crate::env::Env;
use crate::explain::span_tree;
use crate::provenance::{Provenance, ProvenanceError, explain_path};
use crate::search::registry;
use crate::tape::{BytesSource, Recording, Status, Tape};
use serde_json::{Value, json};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The command (see the module docs).
pub const COMMAND_VAR: &str = "TAPEFUZZ_COMMAND";
/// The one property that serves the command.
pub const PROPERTY_VAR: &str = "TAPEFUZZ_PROPERTY";
/// The file the property appends its JSON lines to.
pub const OUT_VAR: &str = "TAPEFUZZ_OUT";
/// The command's arguments: a JSON array of strings (tape files; libFuzzer's arguments).
pub const ARGS_VAR: &str = "TAPEFUZZ_ARGS";
/// `blackbox` (the default) or `greybox`.
pub const MODE_VAR: &str = "TAPEFUZZ_MODE";
/// `explain`: the path of the part to explain (`.1[0].x`; see
/// [`PartPath::parse`](crate::provenance::PartPath::parse)); empty or unset: the span tree
/// of the whole tape, as without it.
pub const EXPLAIN_PATH_VAR: &str = "TAPEFUZZ_EXPLAIN_PATH";
/// `explain` with [`EXPLAIN_PATH_VAR`]: a file to write the explanation graph to, in DOT.
pub const EXPLAIN_DOT_VAR: &str = "TAPEFUZZ_EXPLAIN_DOT";
/// `explain` with [`EXPLAIN_PATH_VAR`]: a file to write the explanation graph to, as SVG.
pub const EXPLAIN_SVG_VAR: &str = "TAPEFUZZ_EXPLAIN_SVG";

/// A command of `cargo tapefuzz`, as the test binary receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Announce the property.
    List,
    /// Run it.
    Run,
    /// Replay saved tapes.
    Replay,
    /// Describe tape files.
    Explain,
    /// Shrink failing tape files, saving nothing.
    Shrink,
    /// Shrink failing tape files and save them as regressions.
    Import,
    /// Run libFuzzer on the property.
    Fuzz,
}

impl Command {
    /// Every command, by name.
    pub const ALL: [(&'static str, Command); 7] = [
        ("list", Command::List),
        ("run", Command::Run),
        ("replay", Command::Replay),
        ("explain", Command::Explain),
        ("shrink", Command::Shrink),
        ("import", Command::Import),
        ("fuzz", Command::Fuzz),
    ];

    /// The command named `name`, if there is one.
    pub fn named(name: &str) -> Option<Command> {
        Command::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| c)
    }
}

/// What the property does after [`serve`].
pub(crate) enum Served {
    /// No command: an ordinary run.
    Ordinary,
    /// The command is served (or is not for this property): this is the report.
    Done(Box<Report>),
}

/// The request in the environment, if any. A malformed one stops the process with exit
/// status 2 and says why: a command must never pass silently.
fn request() -> Option<(Command, Option<String>)> {
    let name = std::env::var(COMMAND_VAR).ok().filter(|c| !c.is_empty())?;
    let Some(command) = Command::named(&name) else {
        let valid: Vec<&str> = Command::ALL.iter().map(|(n, _)| *n).collect();
        fatal(&format!(
            "{COMMAND_VAR}={name:?} is not a command (valid: {})",
            valid.join(", ")
        ));
    };
    let property = std::env::var(PROPERTY_VAR).ok().filter(|p| !p.is_empty());
    Some((command, property))
}

fn fatal(message: &str) -> ! {
    eprintln!("tapefuzz: {message}");
    emit(&json!({"type": "error", "message": message}));
    std::process::exit(2);
}

/// Appends one JSON line to the out file (stdout without one).
fn emit(line: &Value) {
    let text = format!("{line}\n");
    match std::env::var_os(OUT_VAR) {
        Some(path) => {
            let written = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(&path)
                .and_then(|mut f| f.write_all(text.as_bytes()));
            if let Err(e) = written {
                eprintln!(
                    "tapefuzz: cannot write to {}: {e}",
                    Path::new(&path).display()
                );
                std::process::exit(2);
            }
        }
        None => print!("{text}"),
    }
}

fn files() -> Vec<PathBuf> {
    let Some(raw) = std::env::var(ARGS_VAR).ok().filter(|a| !a.is_empty()) else {
        return Vec::new();
    };
    match serde_json::from_str::<Vec<String>>(&raw) {
        Ok(v) => v.into_iter().map(PathBuf::from).collect(),
        Err(e) => fatal(&format!("{ARGS_VAR} is not a JSON array of strings: {e}")),
    }
}

/// Serves the environment's command for `property` running `test`, if there is one.
pub(crate) fn serve(property: &Property, test: &dyn Test) -> Served {
    let Some((command, only)) = request() else {
        return Served::Ordinary;
    };
    let passed = || property.report(RunReport::default());
    if command == Command::List {
        emit(&json!({
            "type": "property",
            "name": property.name(),
            "test": property.test_name_or_thread(),
            "exe": std::env::current_exe().ok(),
            "corpus": property.corpus_dir(),
        }));
        return Served::Done(Box::new(passed()));
    }
    if only.as_deref().is_some_and(|o| o != property.name()) {
        return Served::Done(Box::new(passed()));
    }
    let property = match overridden(property) {
        Ok(p) => p,
        Err(e) => fatal(&e),
    };
    let report = match command {
        Command::List => unreachable!("served above"),
        Command::Run => run(&property, test),
        Command::Replay => replay(&property, test),
        Command::Explain => {
            let part = PartRequest::from_env();
            if part.graphs() && files().len() != 1 {
                fatal(&format!(
                    "{EXPLAIN_DOT_VAR} and {EXPLAIN_SVG_VAR} go with exactly one tape file"
                ));
            }
            each_file(&property, test, |p, t, f, b| explain(p, t, f, b, &part))
        }
        Command::Shrink => each_file(&property, test, |p, t, f, b| import(p, t, f, b, false)),
        Command::Import => each_file(&property, test, |p, t, f, b| import(p, t, f, b, true)),
        Command::Fuzz => crate::fuzz::driver::fuzz(&property, test, &files()),
    };
    Served::Done(Box::new(report))
}

/// The property with the environment's configuration and strategy over the builder's: on
/// the command line, what the user typed wins.
fn overridden(property: &Property) -> Result<Property, String> {
    let env = Env::from_process();
    let config = property
        .config_ref()
        .clone()
        .with_env(&env)
        .map_err(|e| e.to_string())?;
    let mut p = property.clone().config(config);
    if env.get("TAPEFUZZ_STRATEGY").is_some() {
        p = p.strategy_arc(registry::from_env(&env).map_err(|e| e.to_string())?);
    }
    Ok(p)
}

fn greybox() -> bool {
    match std::env::var(MODE_VAR).as_deref() {
        Err(_) | Ok("") | Ok("blackbox") => false,
        Ok("greybox") => true,
        Ok(m) => fatal(&format!(
            "{MODE_VAR}={m:?} is not a mode (valid: blackbox, greybox)"
        )),
    }
}

fn summary_line(report: &Report, strategy: &str, mode: &str) -> Value {
    let summary = report.summary(strategy, mode);
    json!({
        "type": "summary",
        // The line as the design page orders its fields, to print as it is.
        "line": summary.to_json(),
        "summary": summary,
        "passed": report.passed(),
        "report": report.to_string(),
    })
}

fn run(property: &Property, test: &dyn Test) -> Report {
    let mut property = property.clone();
    let mut config = property.config_ref().clone();
    config.progress = true;
    property = property.config(config);
    let report = if greybox() {
        let Some(mut counters) = crate::coverage::Sancov::new() else {
            fatal(
                "greybox mode needs an instrumented build with the `sancov-callbacks` feature: run it with `cargo tapefuzz greybox`",
            );
        };
        if std::env::var_os("TAPEFUZZ_STRATEGY").is_none() {
            property = property
                .strategy_named("greybox")
                .unwrap_or_else(|e| fatal(&e.to_string()));
        }
        // The comparisons the code under test makes (integers and byte strings) can go to
        // the comparison log: the greybox search turns it on for one run of each tape it
        // keeps.
        crate::coverage::cmplog::make_available();
        let mut observer = crate::coverage::CoverageObserver::new(&mut counters);
        property.run_engine(test, &mut observer)
    } else {
        property.run_engine(test, &mut Identity)
    };
    let mode = if greybox() { "greybox" } else { "blackbox" };
    emit(&summary_line(&report, property.strategy_ref().name(), mode));
    report
}

fn replay(property: &Property, test: &dyn Test) -> Report {
    let files = files();
    if files.is_empty() {
        let mut config = property.config_ref().clone();
        config.tests = 0;
        config.seconds = None;
        let report = property
            .clone()
            .config(config)
            .run_engine(test, &mut Identity);
        emit(&summary_line(&report, "replay", "blackbox"));
        return report;
    }
    let timeout = property.config_ref().timeout;
    each_file(property, test, |_, test, file, bytes| {
        let run = || explain_bytes(test, bytes);
        let (e, _) = match timeout {
            None => run(),
            Some(limit) => {
                let at = file.to_path_buf();
                let answer = move |failure| json!({"type": "replay", "file": at, "status": "Interesting", "value": null, "failure": failure});
                watched(limit, file, answer, run)
            }
        };
        let fails = e.status == Status::Interesting;
        emit(&json!({
            "type": "replay",
            "file": file,
            "status": format!("{:?}", e.status),
            "value": e.value,
            "failure": e.message,
        }));
        fails
    })
}

/// Runs `f` (one run of the tape in `file`) under `limit` (`TAPEFUZZ_TIMEOUT_MS`): a tape
/// that hangs cannot be stopped, so past the limit the process emits `answer(failure)` (the
/// command's answer for `file`, failed as "timed out") and exits with
/// [`crate::engine::HANG_EXIT_CODE`] instead of never ending.
fn watched<R>(
    limit: std::time::Duration,
    file: &Path,
    answer: impl FnOnce(String) -> serde_json::Value + Send + 'static,
    f: impl FnOnce() -> R,
) -> R {
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (flag, file) = (done.clone(), file.to_path_buf());
    std::thread::spawn(move || {
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            std::thread::sleep(std::time::Duration::from_millis(10));
            if flag.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
        }
        emit(&answer(format!(
            "timed out: ran over the timeout ({limit:?})"
        )));
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

/// Runs `one` on each tape file of the arguments (`true`: the property fails on it).
fn each_file(
    property: &Property,
    test: &dyn Test,
    mut one: impl FnMut(&Property, &dyn Test, &Path, &[u8]) -> bool,
) -> Report {
    let files = files();
    if files.is_empty() {
        fatal("this command needs at least one tape file");
    }
    for file in &files {
        let (bytes, version) =
            crate::corpus::read_tape_versioned(file).unwrap_or_else(|e| fatal(&e));
        // A regression file of an older encoding: its tape as today's encoding writes it.
        let mut generate = |t: &mut Tape<'_>| test.generate_only(t);
        let bytes = crate::engine::reencode(
            &mut generate,
            &bytes,
            version,
            crate::tape::DEFAULT_MAX_CHOICES,
        );
        one(property, test, file, &bytes);
    }
    // `cargo tapefuzz` reads the outcomes from the lines written; the test itself passes.
    property.report(RunReport::default())
}

fn explain_bytes(test: &dyn Test, bytes: &[u8]) -> (super::Explained, Recording) {
    let mut src = BytesSource::new(bytes);
    let mut tape = Tape::recording(&mut src);
    let e = test.explain(&mut tape);
    (e, tape.finish())
}

/// The text of `explain`: value, status, failure, choices and the span tree.
pub fn explanation(test: &dyn Test, bytes: &[u8]) -> (super::Explained, String) {
    let (e, rec) = explain_bytes(test, bytes);
    let mut text = format!(
        "value: {}\nstatus: {:?}\n",
        e.value.as_deref().unwrap_or("<no value>"),
        e.status
    );
    if let Some(m) = &e.message {
        text.push_str(&format!("failure: {m}\n"));
    }
    text.push_str(&format!(
        "choices: {} ({} forced), {} bytes\n",
        rec.choices.len(),
        rec.choices.iter().filter(|c| c.forced).count(),
        bytes.len()
    ));
    text.push_str(&span_tree(&rec));
    (e, text)
}

/// What `explain` is asked about a part: its path and where to write its graph.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartRequest {
    /// The part's path (`None`: the whole tape's span tree).
    pub path: Option<String>,
    /// Where to write the explanation graph in DOT.
    pub dot: Option<PathBuf>,
    /// Where to write the explanation graph as SVG.
    pub svg: Option<PathBuf>,
}

impl PartRequest {
    /// The request in [`EXPLAIN_PATH_VAR`], [`EXPLAIN_DOT_VAR`] and [`EXPLAIN_SVG_VAR`]
    /// (empty values count as unset).
    pub fn from_env() -> PartRequest {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        PartRequest {
            path: var(EXPLAIN_PATH_VAR),
            dot: var(EXPLAIN_DOT_VAR).map(PathBuf::from),
            svg: var(EXPLAIN_SVG_VAR).map(PathBuf::from),
        }
    }

    /// Whether a graph file is asked for.
    pub fn graphs(&self) -> bool {
        self.dot.is_some() || self.svg.is_some()
    }

    /// The text of `explain` for this request: [`explanation`] without a path; with one,
    /// the test case's status and failure, then the part's provenance
    /// ([`Provenance::render_text`]), and the graph written (atomically) to the DOT and SVG
    /// files asked for. Errors: a bad path or one not in the value
    /// ([`ProvenanceError`]), a graph asked for without a path, a file that cannot be
    /// written — each as one line of text.
    pub fn explain(
        &self,
        test: &dyn Test,
        bytes: &[u8],
    ) -> Result<(super::Explained, String), String> {
        let Some(path) = &self.path else {
            if self.graphs() {
                return Err("a DOT or SVG graph needs the path of a part to explain".into());
            }
            return Ok(explanation(test, bytes));
        };
        let (e, p, text) = part_explanation(test, bytes, path).map_err(|e| e.to_string())?;
        if let Some(f) = &self.dot {
            write_graph(f, &p.render_dot())?;
        }
        if let Some(f) = &self.svg {
            write_graph(f, &p.render_svg())?;
        }
        Ok((e, text))
    }
}

/// Writes a graph file atomically, into a folder that must exist (none is created).
fn write_graph(file: &Path, text: &str) -> Result<(), String> {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(format!(
            "cannot write {}: no folder {}",
            file.display(),
            dir.display()
        ));
    }
    let Some(name) = file.file_name() else {
        return Err(format!("cannot write {}: not a file name", file.display()));
    };
    crate::corpus::write_atomic(&dir.join(name), text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// The text of `explain` for the part at `path`: the test case's status and failure (the
/// property runs once), then the part's provenance ([`explain_path`]).
pub fn part_explanation(
    test: &dyn Test,
    bytes: &[u8],
    path: &str,
) -> Result<(super::Explained, Provenance, String), ProvenanceError> {
    let p = explain_path(test, bytes, path)?;
    let (e, _) = explain_bytes(test, bytes);
    let mut text = format!("status: {:?}\n", e.status);
    if let Some(m) = &e.message {
        text.push_str(&format!("failure: {m}\n"));
    }
    text.push_str(&p.render_text());
    Ok((e, p, text))
}

fn explain(_: &Property, test: &dyn Test, file: &Path, bytes: &[u8], part: &PartRequest) -> bool {
    let (e, text) = part.explain(test, bytes).unwrap_or_else(|e| fatal(&e));
    emit(&json!({
        "type": "explain",
        "file": file,
        "status": format!("{:?}", e.status),
        "text": text,
    }));
    false
}

fn import(property: &Property, test: &dyn Test, file: &Path, bytes: &[u8], save: bool) -> bool {
    let mut config = property.config_ref().clone();
    config.save = save;
    // A tape that hangs (libFuzzer's `timeout-…`) is answered as such, not shrunk: with a
    // timeout, the first run is watched; once it has ended, shrinking runs as usual.
    if let Some(limit) = config.timeout {
        let at = file.to_path_buf();
        let answer = move |failure| json!({"type": "import", "file": at, "fails": true, "value": null, "failure": failure, "saved": null});
        watched(limit, file, answer, || explain_bytes(test, bytes));
    }
    let p = property.clone().config(config);
    let Some(report) = p.import(test, bytes, file) else {
        emit(&json!({"type": "import", "file": file, "fails": false}));
        return false;
    };
    let fail = report.run.failure.as_ref().expect("an imported failure");
    emit(&json!({
        "type": "import",
        "file": file,
        "fails": true,
        "value": report.value,
        "failure": report.message,
        "from_choices": fail.original.choices.len(),
        "to_choices": fail.shrunk.choices.len(),
        "shrink_calls": fail.shrink_calls,
        "saved": fail.saved,
        "save_error": fail.save_error,
        "report": report.to_string(),
    }));
    true
}

/// Whether the environment asks this process for a command (for code that must behave
/// differently, e.g. a progress line).
pub fn requested() -> bool {
    std::env::var_os(COMMAND_VAR).is_some_and(|c| !c.is_empty())
}

/// Whether a property's explicit examples run before its search: in an ordinary run and
/// under `run`, not under the other commands (`list` runs nothing; `explain`, `import`, …
/// are about given tapes) nor in a process serving one isolated test case.
pub(crate) fn runs_examples() -> bool {
    if std::env::var_os(super::isolation::CHILD_VAR).is_some() {
        return false;
    }
    match std::env::var(COMMAND_VAR) {
        Err(_) => true,
        Ok(c) => c.is_empty() || c == "run",
    }
}
