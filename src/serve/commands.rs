//! The commands a property serves (see [`super`]): each once, for `cargo tapefuzz` and for
//! any other client that writes a [`Request`].

use super::answer::{Imported, Replayed, Tally, summary_line};
use super::explain::{PartRequest, explain_bytes};
use super::output::Answers;
use super::request::{Command, EXPLAIN_DOT_VAR, EXPLAIN_SVG_VAR, Mode, Request};
use crate::engine::{Identity, Report};
use crate::env::Env;
use crate::property::{Property, Test};
use crate::settings::Settings;
use crate::tape::Tape;
use serde_json::{Value, json};
use std::path::Path;

/// Test cases of a `run` from the command line when neither a number of tests nor a time
/// budget is given (`cargo tapefuzz run`, the harnesses' `run`).
pub const RUN_TESTS: u64 = 10_000;

/// Serves `request` for `property` running `test`: the command's answers go to the
/// request's out file; the report is what the property's test reports (a command about
/// given tapes passes: its outcomes are in the answers). A request that cannot be served
/// ends the process with exit status 2 and says why.
pub(crate) fn serve(request: &Request, property: &Property, test: &dyn Test) -> Report {
    let answers = Answers::new(request.out.clone());
    let passed = || property.report(Report::default());
    if request.command() == Command::List {
        answers.emit(&json!({
            "type": "property",
            "name": property.name(),
            "test": property.test_name_or_thread(),
            "exe": std::env::current_exe().ok(),
            "corpus": property.corpus_dir(),
        }));
        return passed();
    }
    if request
        .property
        .as_deref()
        .is_some_and(|o| o != property.name())
    {
        return passed();
    }
    let (property, settings) = overridden(property).unwrap_or_else(|e| answers.fatal(&e));
    if request.command() == Command::Run {
        // A run asked by `cargo tapefuzz`: Ctrl-C or a CI's SIGTERM stops it cleanly.
        super::interrupt::stop_cleanly_on_signals();
        // `cargo tapefuzz` prints the report from the answers: a failing test says less.
        crate::engine::reported_by_client();
    }
    served(
        request,
        &answers,
        &property,
        settings.strategy_chosen,
        test,
        true,
    )
    .unwrap_or_else(|e| answers.fatal(&e))
}

/// Serves `request` for `property` running `test` in this process, for a client that is
/// not a separate program (the harnesses' CLI): the answers that `cargo tapefuzz` would read
/// from the out file, as JSON values, in order. A request that cannot be served, or a file
/// that cannot be read partway, ends the answers with an `error` line (what came before it
/// stays: a tape already imported was saved), as the out file would. `property` is used as
/// configured, its strategy included (the environment is not read again). `list` and `fuzz`
/// are not served this way (an error).
///
/// A test case that runs over the property's timeout cannot be stopped in-process: past the
/// limit, the answers so far and the hang's go to stdout as JSON lines and the process exits
/// with [`crate::engine::HANG_EXIT_CODE`], as a served command does (a `run` request's
/// watchdog does the same for its own test cases).
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::serve::{Command, Replayed, Request};
///
/// let dir = std::env::temp_dir().join(format!("tapefuzz-answer-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let file = dir.join("tape");
/// std::fs::write(&file, [0u8]).unwrap(); // the empty list
/// let prop = Property::new("lists");
/// let test = tapefuzz::property::property(vecs(ints::<u8>(..), 0..=4), |v| v.len() <= 4);
/// let request = Request {
///     command: Some(Command::Replay),
///     args: vec![file.display().to_string()],
///     ..Request::default()
/// };
/// let lines = tapefuzz::serve::answer(&request, &prop, &test).unwrap();
/// let replayed: Replayed = serde_json::from_value(lines[0].clone()).unwrap();
/// assert_eq!(replayed.status, "Valid");
/// assert_eq!(lines[1]["type"], "summary");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn answer(
    request: &Request,
    property: &Property,
    test: &dyn Test,
) -> Result<Vec<Value>, String> {
    if matches!(request.command(), Command::List | Command::Fuzz) {
        return Err(format!(
            "`{}` is not served in-process",
            request.command().name()
        ));
    }
    // A process started to run one test case in isolation (a program that serves its
    // commands in-process starts itself again with its own arguments): that test case, and
    // nothing else, whatever command the arguments name.
    if let Some(path) = crate::env::path_var(crate::property::isolation::CHILD_VAR) {
        crate::property::isolation::serve_child(
            &path,
            property.name(),
            test,
            property.config_ref().max_choices,
        );
        return Ok(Vec::new());
    }
    let answers = Answers::in_memory();
    if let Err(e) = served(request, &answers, property, true, test, false) {
        answers.emit(&json!({"type": "error", "message": e}));
    }
    Ok(answers.taken())
}

/// Serves every command but `list` for `property` (configured; `strategy_chosen`: the user
/// named its strategy, which greybox mode then keeps): the answers go to `answers`; an
/// error says why the request cannot be served.
fn served(
    request: &Request,
    answers: &Answers,
    property: &Property,
    strategy_chosen: bool,
    test: &dyn Test,
    in_test_binary: bool,
) -> Result<Report, String> {
    let served = Served {
        request,
        answers,
        property,
        strategy_chosen,
        test,
        in_test_binary,
    };
    match request.command() {
        Command::List => unreachable!("served by `serve`"),
        Command::Run => served.run(),
        Command::Replay => served.replay(),
        Command::Explain => {
            let part = &request.part;
            if part.graphs() && request.args.len() != 1 {
                return Err(format!(
                    "{EXPLAIN_DOT_VAR} and {EXPLAIN_SVG_VAR} go with exactly one tape file"
                ));
            }
            served.each_file(|f, b| served.explain(f, b, part))
        }
        Command::Shrink => served.each_file(|f, b| served.import(f, b, false).map(drop)),
        Command::Import => {
            let mut tally = Tally::new(property.name(), Command::Import);
            let report = served.each_file(|f, b| {
                tally.imported(&served.import(f, b, true)?);
                Ok(())
            })?;
            answers.emit(&summary_line(&tally.finish(), Command::Import));
            Ok(report)
        }
        Command::Fuzz => {
            super::standalone::keep_hook();
            Ok(crate::fuzz::driver::fuzz(property, test, &request.files()))
        }
        Command::Cmin => {
            let m = super::cmin::cmin(property, test)?;
            answers.emit(&json!({
                "type": "cmin",
                "property": property.name(),
                "entries": m.entries,
                "kept": m.kept,
                "removed": m.removed.len(),
                "failing": m.failing,
                "invalid": m.invalid,
                "features": m.features,
                "skipped": m.skipped,
            }));
            Ok(Report::default())
        }
    }
}

/// The property with the environment's configuration and strategy over the builder's: on
/// the command line, what the user typed wins.
fn overridden(property: &Property) -> Result<(Property, Settings), String> {
    let env = Env::from_process();
    let settings = Settings::from(&env).map_err(|e| e.to_string())?;
    let config = property
        .config_ref()
        .clone()
        .with_env(&env)
        .map_err(|e| e.to_string())?;
    let mut p = property.clone().config(config);
    if settings.strategy_chosen {
        p = p.strategy_arc(settings.strategy.clone());
    }
    Ok((p, settings))
}

/// One request being served.
struct Served<'a> {
    request: &'a Request,
    answers: &'a Answers,
    property: &'a Property,
    /// The user named the strategy (greybox mode keeps it instead of `greybox`).
    strategy_chosen: bool,
    test: &'a dyn Test,
    /// Served in a test binary run by `cargo tapefuzz` (one test, `--exact`), whose test
    /// cases can run in processes of their own; not in-process ([`answer`]), where the
    /// program's own arguments would start the command again.
    in_test_binary: bool,
}

impl Served<'_> {
    fn summary_line(&self, report: &Report, strategy: &str, mode: Mode) -> Value {
        let mut summary = report.summary(strategy, mode.name());
        if strategy == "replay" {
            // Nothing was generated: no seed to repeat, and the distinct valid test cases
            // are the distinct valid saved tapes.
            summary.seed = 0;
            summary.unique_valid = report.replayed_unique;
        }
        // The signal's number when one stopped the run (cleanly: this line is its summary).
        let interrupted = match report.stopped {
            crate::engine::Stop::Interrupted(s) => Some(s),
            _ => None,
        };
        json!({
            "type": "summary",
            // The line as the design page orders its fields, to print as it is.
            "line": summary.to_json(),
            "summary": summary,
            "passed": report.passed(),
            "report": report.to_string(),
            "interrupted": interrupted,
        })
    }

    fn run(&self) -> Result<Report, String> {
        let mut config = self.property.config_ref().clone();
        config.progress = true;
        let mut property = self.property.clone().config(config);
        let mode = self.request.mode;
        let report = match mode {
            Mode::Greybox => {
                let Some(mut counters) = crate::coverage::Sancov::new() else {
                    return Err("greybox mode needs an instrumented build with the `sancov-callbacks` feature: run it with `cargo tapefuzz greybox`".into());
                };
                if !self.strategy_chosen {
                    property = property
                        .strategy_named("greybox")
                        .map_err(|e| e.to_string())?;
                }
                // The comparisons the code under test makes (integers and byte strings) can
                // go to the comparison log: the greybox search turns it on for one run of
                // each tape it keeps.
                crate::coverage::cmplog::make_available();
                let mut observer = crate::coverage::CoverageObserver::new(&mut counters);
                // Searches other than `greybox` (rl, random…) do not count features: the
                // observer does.
                if property.strategy_ref().name() != "greybox" {
                    observer = observer.counting();
                }
                let mut report = property.run_engine(self.test, &mut observer);
                if let (None, Some(value)) = (report.stat("features"), observer.distinct_features())
                {
                    report.stats.push(crate::engine::Stat {
                        name: "features",
                        value,
                    });
                }
                report
            }
            Mode::Blackbox => property.run_engine(self.test, &mut Identity),
        };
        self.answers
            .emit(&self.summary_line(&report, property.strategy_ref().name(), mode));
        Ok(report)
    }

    fn replay(&self) -> Result<Report, String> {
        if self.request.args.is_empty() {
            let mut config = self.property.config_ref().clone();
            config.tests = 0;
            config.seconds = None;
            let report = self
                .property
                .clone()
                .config(config)
                .run_engine(self.test, &mut Identity);
            self.answers
                .emit(&self.summary_line(&report, "replay", Mode::Blackbox));
            return Ok(report);
        }
        let timeout = self.property.config_ref().timeout;
        let tally = std::cell::RefCell::new(Tally::new(self.property.name(), Command::Replay));
        let report = self.each_file(|file, bytes| {
            let run = || Replayed::of(self.test, file, bytes);
            let (replayed, rec) = match timeout {
                None => run(),
                Some(limit) => {
                    let at = file.to_path_buf();
                    let answer = move |failure| Replayed::hang(&at, failure).to_line();
                    self.answers.watched(limit, file, answer, run)
                }
            };
            tally.borrow_mut().replayed(&replayed, &rec);
            self.answers.emit(&replayed.to_line());
            Ok(())
        })?;
        let summary = tally.into_inner().finish();
        self.answers.emit(&summary_line(&summary, Command::Replay));
        Ok(report)
    }

    /// Runs `one` on each tape file of the arguments, read and brought to today's encoding.
    fn each_file(
        &self,
        mut one: impl FnMut(&Path, &[u8]) -> Result<(), String>,
    ) -> Result<Report, String> {
        let files = self.request.files();
        if files.is_empty() {
            return Err("this command needs at least one tape file".into());
        }
        for file in &files {
            let (bytes, version) = crate::corpus::read_tape_versioned(file)?;
            // A regression file of an older encoding: its tape as today's encoding writes it.
            let mut generate = |t: &mut Tape<'_>| self.test.generate_only(t);
            let bytes = crate::engine::reencode(
                &mut generate,
                &bytes,
                version,
                crate::tape::DEFAULT_MAX_CHOICES,
            );
            one(file, &bytes)?;
        }
        // `cargo tapefuzz` reads the outcomes from the lines written; the test itself passes.
        Ok(self.property.report(Report::default()))
    }

    fn explain(&self, file: &Path, bytes: &[u8], part: &PartRequest) -> Result<(), String> {
        let (e, text) = part.explain(self.test, bytes)?;
        self.answers.emit(&json!({
            "type": "explain",
            "file": file,
            "status": format!("{:?}", e.status),
            "text": text,
        }));
        Ok(())
    }

    fn import(&self, file: &Path, bytes: &[u8], save: bool) -> Result<Imported, String> {
        // A tape that hangs (libFuzzer's `timeout-…`) is answered as such, not shrunk: with a
        // timeout, the first run is watched; once it has ended, shrinking runs as usual.
        if let Some(limit) = self.property.config_ref().timeout {
            let at = file.to_path_buf();
            let answer = move |failure| Imported::hang(&at, failure).to_line();
            self.answers
                .watched(limit, file, answer, || explain_bytes(self.test, bytes));
        }
        let imported = Imported::of(
            self.property,
            self.test,
            file,
            bytes,
            save,
            self.in_test_binary,
        );
        self.answers.emit(&imported.to_line());
        Ok(imported)
    }
}
