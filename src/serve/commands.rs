//! The commands a property serves (see [`super`]): each once, for `cargo tapefuzz` and for
//! any other client that writes a [`Request`].

use super::explain::{PartRequest, explain_bytes};
use super::output::Answers;
use super::request::{Command, EXPLAIN_DOT_VAR, EXPLAIN_SVG_VAR, Mode, Request};
use crate::engine::{Identity, RunReport};
use crate::env::Env;
use crate::property::{Property, Report, Test};
use crate::settings::Settings;
use crate::tape::{Status, Tape};
use serde_json::{Value, json};
use std::path::Path;

/// Serves `request` for `property` running `test`: the command's answers go to the
/// request's out file; the report is what the property's test reports (a command about
/// given tapes passes: its outcomes are in the answers). A request that cannot be served
/// ends the process with exit status 2 and says why.
pub(crate) fn serve(request: &Request, property: &Property, test: &dyn Test) -> Report {
    let answers = Answers::new(request.out.clone());
    let passed = || property.report(RunReport::default());
    let command = request.command();
    if command == Command::List {
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
    let served = Served {
        request,
        answers: &answers,
        property: &property,
        settings: &settings,
        test,
    };
    match command {
        Command::List => unreachable!("served above"),
        Command::Run => served.run(),
        Command::Replay => served.replay(),
        Command::Explain => {
            let part = &request.part;
            if part.graphs() && request.args.len() != 1 {
                answers.fatal(&format!(
                    "{EXPLAIN_DOT_VAR} and {EXPLAIN_SVG_VAR} go with exactly one tape file"
                ));
            }
            served.each_file(|f, b| served.explain(f, b, part))
        }
        Command::Shrink => served.each_file(|f, b| served.import(f, b, false)),
        Command::Import => served.each_file(|f, b| served.import(f, b, true)),
        Command::Fuzz => crate::fuzz::driver::fuzz(&property, test, &request.files()),
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
    /// The environment's settings (what the user typed on the command line).
    settings: &'a Settings,
    test: &'a dyn Test,
}

impl Served<'_> {
    fn summary_line(&self, report: &Report, strategy: &str, mode: Mode) -> Value {
        let summary = report.summary(strategy, mode.name());
        json!({
            "type": "summary",
            // The line as the design page orders its fields, to print as it is.
            "line": summary.to_json(),
            "summary": summary,
            "passed": report.passed(),
            "report": report.to_string(),
        })
    }

    fn run(&self) -> Report {
        let mut config = self.property.config_ref().clone();
        config.progress = true;
        let mut property = self.property.clone().config(config);
        let mode = self.request.mode;
        let report = match mode {
            Mode::Greybox => {
                let Some(mut counters) = crate::coverage::Sancov::new() else {
                    self.answers.fatal(
                        "greybox mode needs an instrumented build with the `sancov-callbacks` feature: run it with `cargo tapefuzz greybox`",
                    );
                };
                if !self.settings.strategy_chosen {
                    property = property
                        .strategy_named("greybox")
                        .unwrap_or_else(|e| self.answers.fatal(&e.to_string()));
                }
                // The comparisons the code under test makes (integers and byte strings) can
                // go to the comparison log: the greybox search turns it on for one run of
                // each tape it keeps.
                crate::coverage::cmplog::make_available();
                let mut observer = crate::coverage::CoverageObserver::new(&mut counters);
                property.run_engine(self.test, &mut observer)
            }
            Mode::Blackbox => property.run_engine(self.test, &mut Identity),
        };
        self.answers
            .emit(&self.summary_line(&report, property.strategy_ref().name(), mode));
        report
    }

    fn replay(&self) -> Report {
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
            return report;
        }
        let timeout = self.property.config_ref().timeout;
        self.each_file(|file, bytes| {
            let run = || explain_bytes(self.test, bytes);
            let (e, _) = match timeout {
                None => run(),
                Some(limit) => {
                    let at = file.to_path_buf();
                    let answer = move |failure| json!({"type": "replay", "file": at, "status": "Interesting", "value": null, "failure": failure});
                    self.answers.watched(limit, file, answer, run)
                }
            };
            let fails = e.status == Status::Interesting;
            self.answers.emit(&json!({
                "type": "replay",
                "file": file,
                "status": format!("{:?}", e.status),
                "value": e.value,
                "failure": e.message,
            }));
            fails
        })
    }

    /// Runs `one` on each tape file of the arguments (`true`: the property fails on it).
    fn each_file(&self, mut one: impl FnMut(&Path, &[u8]) -> bool) -> Report {
        let files = self.request.files();
        if files.is_empty() {
            self.answers
                .fatal("this command needs at least one tape file");
        }
        for file in &files {
            let (bytes, version) =
                crate::corpus::read_tape_versioned(file).unwrap_or_else(|e| self.answers.fatal(&e));
            // A regression file of an older encoding: its tape as today's encoding writes it.
            let mut generate = |t: &mut Tape<'_>| self.test.generate_only(t);
            let bytes = crate::engine::reencode(
                &mut generate,
                &bytes,
                version,
                crate::tape::DEFAULT_MAX_CHOICES,
            );
            one(file, &bytes);
        }
        // `cargo tapefuzz` reads the outcomes from the lines written; the test itself passes.
        self.property.report(RunReport::default())
    }

    fn explain(&self, file: &Path, bytes: &[u8], part: &PartRequest) -> bool {
        let (e, text) = part
            .explain(self.test, bytes)
            .unwrap_or_else(|e| self.answers.fatal(&e));
        self.answers.emit(&json!({
            "type": "explain",
            "file": file,
            "status": format!("{:?}", e.status),
            "text": text,
        }));
        false
    }

    fn import(&self, file: &Path, bytes: &[u8], save: bool) -> bool {
        let mut config = self.property.config_ref().clone();
        config.save = save;
        // A tape that hangs (libFuzzer's `timeout-…`) is answered as such, not shrunk: with a
        // timeout, the first run is watched; once it has ended, shrinking runs as usual.
        if let Some(limit) = config.timeout {
            let at = file.to_path_buf();
            let answer = move |failure| json!({"type": "import", "file": at, "fails": true, "value": null, "failure": failure, "saved": null});
            self.answers
                .watched(limit, file, answer, || explain_bytes(self.test, bytes));
        }
        let p = self.property.clone().config(config);
        let Some(report) = p.import(self.test, bytes, file) else {
            self.answers
                .emit(&json!({"type": "import", "file": file, "fails": false}));
            return false;
        };
        let fail = report.run.failure.as_ref().expect("an imported failure");
        self.answers.emit(&json!({
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
}
