//! Running properties: from a `#[test]`, a harness or the CLI.

use super::examples::{EXAMPLE_FAILED, Examples};
use super::isolation;
use super::{Outcome, Report, Test, ValueMemo, property};
use crate::corpus::Corpus;
use crate::engine::{
    self, Config, ConfigError, Described, Found, Isolated, Observer, Strategy, Subject,
};
use crate::env::Env;
use crate::generators::Gen;
use crate::search::registry;
use crate::settings::Settings;
use crate::tape::{BytesSource, Status, Tape};
use std::fmt::Debug;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A named property run: configuration, strategy, where its corpus lives, how to replay a
/// failure.
///
/// `Property::new(name)` reads the configuration and the strategy from the environment (see
/// [`Settings::from_env`]) and keeps the corpus in `$TAPEFUZZ_CORPORA/<name>` when that
/// variable is set, else in `$CARGO_MANIFEST_DIR/corpora/<name>` when run by cargo.
#[derive(Clone, Debug)]
pub struct Property {
    name: String,
    config: Config,
    strategy: Arc<dyn Strategy>,
    corpora: Option<PathBuf>,
    /// `TAPEFUZZ_CORPORA` chose `corpora` (which then wins over a test's own folder).
    corpora_chosen: bool,
    replay: Option<String>,
    /// The libtest name of the `#[test]` that runs this property, when known.
    test_name: Option<String>,
    /// Values checked before anything is generated ([`Property::example`], in
    /// `examples.rs`).
    pub(super) examples: Examples,
    /// Whether a shrink answers a value that passed in it without running the property
    /// ([`Property::remember_values`]).
    remember_values: bool,
}

/// A file-system-safe folder name for a target or test name (`a::b` becomes `a.b`, `t#2`
/// `t.2`): ASCII letters, digits, `-`, `_` and `.`, anything else `_`. The name is one folder inside the
/// corpora folder, never a way out of it or onto the store's own files: an empty name is
/// `_`, and leading dots become `_` (`..` is `__`, `.inflight` is `_inflight`).
pub fn target_dir_name(name: &str) -> String {
    let safe: String = name
        .replace("::", ".")
        // `t#2`, the second check of the test `t`: never the folder of a test named `t_2`.
        .replace('#', ".")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let dots = safe.len() - safe.trim_start_matches('.').len();
    let out = "_".repeat(dots) + &safe[dots..];
    if out.is_empty() { "_".into() } else { out }
}

impl Property {
    /// A property named `name`. Panics on a malformed `TAPEFUZZ_*` variable or a name that
    /// cannot name a corpus folder (see [`Property::try_new`]), at the caller.
    #[track_caller]
    pub fn new(name: impl Into<String>) -> Property {
        match Property::try_new(name) {
            Ok(p) => p,
            Err(e) => panic!("tapefuzz: {e}"),
        }
    }

    /// A property named `name`, or the malformed `TAPEFUZZ_*` variable. A name that cannot
    /// name a corpus folder — empty, `.`, `..`, or with a `/` or `\` — is an error too
    /// (its `var` is `property name`).
    pub fn try_new(name: impl Into<String>) -> Result<Property, ConfigError> {
        let name = name.into();
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
            return Err(ConfigError {
                var: "property name".into(),
                value: name,
                expected: "a name that is not empty, `.` or `..` and has no `/` or `\\`, \
                           such as `parser::roundtrip`"
                    .into(),
            });
        }
        let settings = Settings::from_env()?;
        let corpora_chosen = settings.corpora.is_some();
        let corpora = settings.corpora.or_else(|| {
            // cargo's variable, not ours: the package being tested.
            std::env::var_os("CARGO_MANIFEST_DIR").map(|d| PathBuf::from(d).join("corpora"))
        });
        // libtest runs each test on a thread named after it: that test reruns this
        // property, whatever the property's own name. Outside a test, the name is a guess.
        let test = std::thread::current()
            .name()
            .filter(|t| *t != "main")
            .map_or_else(|| name.clone(), str::to_string);
        let replay = Some(format!(
            "cargo test -- --exact {test}  (replays regressions first)"
        ));
        Ok(Property {
            name,
            config: settings.config,
            strategy: settings.strategy,
            corpora,
            corpora_chosen,
            replay,
            test_name: None,
            examples: Examples::default(),
            remember_values: true,
        })
    }

    /// The property of the `#[test]` function `name` in module `module` (`module_path!()`) of
    /// the crate at `manifest_dir`: its corpus is `manifest_dir/corpora/<module>.<name>`, and
    /// the replay command names the test as libtest does (the path without the crate).
    #[track_caller]
    pub fn for_test(module: &str, name: &str, manifest_dir: &str) -> Property {
        let test = match module.split_once("::") {
            Some((_, inner)) => format!("{inner}::{name}"),
            None => name.to_string(),
        };
        let mut p = Property::new(format!("{module}::{name}")).replay_command(format!(
            "cargo test -- --exact {test}  (replays regressions first)"
        ));
        p.test_name = Some(test);
        if !p.corpora_chosen {
            p = p.corpora(PathBuf::from(manifest_dir).join("corpora"));
        }
        p
    }

    /// The property's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Replaces the configuration.
    pub fn config(mut self, config: Config) -> Property {
        self.config = config;
        self
    }

    /// The configuration.
    pub fn config_ref(&self) -> &Config {
        &self.config
    }

    /// Replaces the strategy (its settings included: `Anneal { .. }`, `Learn { .. }`, or a
    /// strategy of your own).
    pub fn strategy(mut self, strategy: impl Strategy + 'static) -> Property {
        self.strategy = Arc::new(strategy);
        self
    }

    /// Replaces the strategy by the registry's `name`, with its settings from the
    /// environment; an error names an unknown strategy with the valid ones.
    pub fn strategy_named(mut self, name: &str) -> Result<Property, ConfigError> {
        self.strategy = registry::named(name, &Env::from_process())?;
        Ok(self)
    }

    /// Replaces the strategy by a shared one (what [`crate::search::registry::named`]
    /// returns: a strategy with settings of your choosing, looked up by name).
    pub fn strategy_arc(mut self, strategy: Arc<dyn Strategy>) -> Property {
        self.strategy = strategy;
        self
    }

    /// The libtest name of the test running this property: the one given, else the current
    /// thread's name (libtest names each test's thread after the test).
    pub(crate) fn test_name_or_thread(&self) -> Option<String> {
        self.test_name
            .clone()
            .or_else(|| std::thread::current().name().map(str::to_string))
    }

    /// The strategy.
    pub fn strategy_ref(&self) -> &dyn Strategy {
        &*self.strategy
    }

    /// Sets the number of generated tests.
    pub fn tests(mut self, tests: u64) -> Property {
        self.config.tests = tests;
        self
    }

    /// Stops the search after `valid` valid test cases (rejected ones not counted), with a
    /// total budget (valid and rejected) of at least 10 × `valid`: Hypothesis's
    /// `max_examples`. `tests(n)` after this sets the total budget.
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    ///
    /// let report = Property::new("valid_doc").no_corpus().seed(1).valid_tests(100).run(
    ///     ints::<u8>(..),
    ///     |x: u8| { assume!(x % 2 == 0); true },
    /// );
    /// assert_eq!(report.valid, 100);
    /// assert!(report.invalid > 0);
    /// ```
    pub fn valid_tests(mut self, valid: u64) -> Property {
        self.config.valid_tests = Some(valid);
        self.config.tests = self.config.tests.max(valid.saturating_mul(10));
        self
    }

    /// Sets a time budget for generation.
    pub fn seconds(mut self, seconds: f64) -> Property {
        self.config.seconds = Some(seconds);
        self
    }

    /// Fixes the seed.
    pub fn seed(mut self, seed: u64) -> Property {
        self.config.seed = Some(seed);
        self
    }

    /// Fails any test case that runs longer than `limit` (checked when it returns).
    pub fn timeout(mut self, limit: std::time::Duration) -> Property {
        self.config.timeout = Some(limit);
        self
    }

    /// Keeps the corpus under `dir/<name>`.
    pub fn corpora(mut self, dir: impl Into<PathBuf>) -> Property {
        self.corpora = Some(dir.into());
        self
    }

    /// Whether a shrink may skip the property on a value that already passed in it: on by
    /// default. Shrink candidates made of other choices often build a value tried before,
    /// and the shrink then answers from the hash of the value's Debug form that passed
    /// (see [`crate::property::ValueMemo`]): the generator runs, the property does not.
    /// Turn it off where a value's `Debug` leaves out what the property reads (a redacted
    /// field), or where the property's verdict on one value changes between runs: every
    /// candidate is then checked. A failing value is always checked either way.
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    ///
    /// let report = Property::new("remember_values_doc")
    ///     .no_corpus()
    ///     .remember_values(false)
    ///     .run(vecs(ints::<u8>(..), 0..=10), |v: Vec<u8>| v.len() < 3);
    /// assert_eq!(report.value.as_deref(), Some("[0, 0, 0]"));
    /// ```
    pub fn remember_values(mut self, on: bool) -> Property {
        self.remember_values = on;
        self
    }

    /// Runs without a corpus: nothing replayed, nothing saved.
    pub fn no_corpus(mut self) -> Property {
        self.corpora = None;
        self
    }

    /// The command shown to replay a failure.
    pub fn replay_command(mut self, cmd: impl Into<String>) -> Property {
        self.replay = Some(cmd.into());
        self
    }

    /// The corpus folder of this property, if it has one.
    pub fn corpus_dir(&self) -> Option<PathBuf> {
        self.corpora
            .as_ref()
            .map(|d| d.join(target_dir_name(&self.name)))
    }

    /// Opens this property's corpus, if it has one.
    pub fn open_corpus(&self) -> Option<Corpus> {
        self.corpus_dir()
            .map(|d| Corpus::open(d).property(self.name.clone()))
    }

    /// Opens this property's corpus (if it has one) migrated to the current tape encoding
    /// (`corpus/` entries saved by an older version re-encoded through `test`'s generator:
    /// [`crate::engine::migrate_corpus`]). What a tool that reads the folder by itself
    /// (libFuzzer) needs first; runs do it on their own.
    pub fn open_corpus_migrated(&self, test: &dyn Test) -> Option<Corpus> {
        let mut corpus = self.open_corpus()?;
        let mut subject = PropertySubject::new(self, test);
        engine::migrate_corpus(
            &mut corpus,
            &mut subject,
            self.config.max_choices,
            &*self.config.reporter,
        );
        Some(corpus)
    }

    /// The run itself: reuse, search, shrink, save.
    pub(crate) fn run_engine(&self, test: &dyn Test, observer: &mut dyn Observer) -> Report {
        let mut corpus = self.open_corpus();
        let mut subject = PropertySubject::new(self, test);
        let mut search = self.strategy.search();
        let run = engine::run(
            &self.config,
            corpus.as_mut(),
            &mut subject,
            &mut *search,
            observer,
        );
        self.report(run)
    }

    /// Imports a failing tape from outside a run (a libFuzzer crash file): when `test`
    /// fails on `bytes`, the failure is shrunk and saved to this property's `regressions/`
    /// and reported; `None` when it does not fail there. `from` names the file in the report.
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    /// use tapefuzz::property::property;
    ///
    /// let test = property(vecs(ints::<u8>(..), 0..=10), |v: Vec<u8>| v.len() < 3);
    /// let p = Property::new("import_doc").no_corpus();
    /// // Four bytes: the length, then the bytes.
    /// let crash = [4, 9, 9, 9, 9];
    /// let report = p.import(&test, &crash, "crash-1").expect("it fails");
    /// assert_eq!(report.value.as_deref(), Some("[0, 0, 0]"));
    /// ```
    pub fn import(
        &self,
        test: &dyn Test,
        bytes: &[u8],
        from: impl Into<PathBuf>,
    ) -> Option<Report> {
        self.import_isolating(test, bytes, from, false)
    }

    /// [`Property::import`]; with `isolate_first`, the tape runs first in a process of its
    /// own (a test binary under `cargo tapefuzz import`), and one that kills it is shrunk in
    /// processes of their own instead of killing this one.
    pub(crate) fn import_isolating(
        &self,
        test: &dyn Test,
        bytes: &[u8],
        from: impl Into<PathBuf>,
        isolate_first: bool,
    ) -> Option<Report> {
        // A process serving one isolated test case never starts another.
        let isolate_first = isolate_first && crate::env::path_var(isolation::CHILD_VAR).is_none();
        let mut corpus = self.open_corpus();
        let mut subject = PropertySubject::new(self, test);
        let failure = engine::import(
            &mut subject,
            bytes,
            Found::Reuse(from.into()),
            &self.config,
            corpus.as_mut(),
            isolate_first,
        )?;
        let mut run = Report::failed(failure, "import");
        if let Some(e) = run.failure.as_ref().and_then(|f| f.save_error.clone()) {
            run.save_errors.push(e);
        }
        Some(self.report(run))
    }

    /// The report of a run, with the property's name and the replay command of its failure.
    pub(crate) fn report(&self, mut run: Report) -> Report {
        run.replay = match (&run.failure, &self.replay) {
            (Some(f), Some(cmd)) => Some(match &f.saved {
                Some(p) => cmd.replace("{file}", &p.display().to_string()),
                None => cmd.clone(),
            }),
            _ => None,
        };
        run.name = self.name.clone();
        run
    }

    /// The report of the first explicit example ([`Property::example`]) on which `prop`
    /// fails, if any: shrunk from it when `generator` reflects it
    /// ([`Property::shrink_value`]'s path), else as given with the reason.
    ///
    /// Panics when an explicit example is not of the property's value type.
    #[track_caller]
    pub(crate) fn failing_example<G, F, R>(&self, generator: &G, prop: &F) -> Option<Report>
    where
        G: Gen,
        G::Value: Debug + 'static,
        F: Fn(G::Value) -> R,
        R: Outcome,
    {
        let failed = self.examples.run(&self.name, prop)?;
        let index = failed.index();
        let shrunk = match self.examples.value::<G::Value>(index) {
            Some(value) => {
                let test = property(generator, prop);
                self.shrink_given(generator, &test, &value, Some(index as u64))
                    .map_err(|e| e.reason())
            }
            None => Err("its value could not be made again".to_string()),
        };
        Some(match shrunk {
            Ok(mut report) => {
                report.message = Some(format!(
                    "{EXAMPLE_FAILED}: {}",
                    report.message.as_deref().unwrap_or("")
                ));
                report
            }
            Err(why) => failed.report(&self.name, self.replay.clone(), &why),
        })
    }

    /// This property, run by the libtest test `test` (how a child process finds it again).
    pub(crate) fn with_test_name(mut self, test: String) -> Property {
        self.test_name = Some(test);
        self
    }
}

/// A property's test as the run loop sees it: the test, its description of a tape, its
/// generator alone, and its test cases run in processes of their own.
pub(super) struct PropertySubject<'a> {
    property: &'a Property,
    test: &'a dyn Test,
    /// While a shrink runs: the values that passed in it (see [`Subject::shrinking`]).
    memo: Option<ValueMemo>,
}

impl<'a> PropertySubject<'a> {
    pub(super) fn new(property: &'a Property, test: &'a dyn Test) -> PropertySubject<'a> {
        PropertySubject {
            property,
            test,
            memo: None,
        }
    }

    fn tape<'s>(&self, src: &'s mut BytesSource<'_>) -> Tape<'s> {
        Tape::recording(src).with_max_choices(self.property.config.max_choices)
    }
}

impl Subject for PropertySubject<'_> {
    fn run(&mut self, tape: &mut Tape<'_>) -> Status {
        match &mut self.memo {
            Some(memo) => self.test.run_memo(tape, memo),
            None => self.test.run(tape),
        }
    }

    /// A shrink remembers the values that passed in it, unless the property says not to
    /// ([`Property::remember_values`]) or a candidate's verdict may change from one run to
    /// the next (more than one attempt: a race).
    fn shrinking(&mut self, on: bool) {
        let remember = on && self.property.remember_values && self.test.attempts() <= 1;
        self.memo = remember.then(ValueMemo::new);
    }

    fn name(&self) -> &str {
        &self.property.name
    }

    fn describe(&mut self, bytes: &[u8]) -> Described {
        let mut src = BytesSource::new(bytes);
        let e = self.test.explain(&mut self.tape(&mut src));
        Described {
            value: e.value,
            message: e.message,
        }
    }

    fn render(&mut self, bytes: &[u8]) -> Option<String> {
        let mut src = BytesSource::new(bytes);
        self.test.render(&mut self.tape(&mut src))
    }

    fn generate(&mut self, tape: &mut Tape<'_>) -> Status {
        self.test.generate_only(tape)
    }

    fn isolated(&mut self, bytes: &[u8], timeout: Option<Duration>) -> Option<Isolated> {
        isolation::run_isolated(
            &self.property.name,
            self.property.test_name.as_deref(),
            bytes,
            timeout,
        )
    }

    fn attempts(&self) -> usize {
        self.test.attempts()
    }
}

/// The name of the property run by the test `test` (its libtest name) in this executable:
/// `<crate>::<test>`, the crate read from the executable's name (cargo names a test
/// executable `<crate>-<16 hex digits>`); `test` alone when the executable is named
/// otherwise (run outside cargo).
pub fn test_property_name(test: &str) -> String {
    match executable_crate() {
        Some(krate) => format!("{krate}::{test}"),
        None => test.to_string(),
    }
}

fn executable_crate() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let stem = exe.file_stem()?.to_str()?;
    let (krate, hash) = stem.rsplit_once('-')?;
    (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) && !krate.is_empty())
        .then(|| krate.to_string())
}

/// Declares `#[test]` properties:
///
/// ```ignore
/// tapefuzz::property! {
///     fn sum_is_small(v in vecs(ints::<u32>(..), 0..=10)) {
///         assert!(v.iter().map(|&x| x as u64).sum::<u64>() < 1000);
///     }
///     fn two_values(a in ints::<u8>(..), b in bools()) { /* … */ }
///     // Explicit examples, checked first (one argument: the value; several: a tuple).
///     fn halves(x in ints::<i32>(..)) examples(0, -1, i32::MIN) {
///         assert!((x / 2).unsigned_abs() <= x.unsigned_abs());
///     }
/// }
/// ```
///
/// Each becomes a `#[test]` named after the function, whose corpus is
/// `corpora/<module path>.<name>` in the crate under test. One argument is passed as is;
/// several are generated as a tuple. An `examples(v1, v2, …)` clause after the arguments adds
/// explicit examples ([`Property::example_of`]: their type is the generator's), checked in
/// order before anything is generated; a failing one is reported as "explicit example
/// failed", shrunk from it when the generator can run backwards to it (see
/// [`Property::example`]).
#[macro_export]
macro_rules! property {
    () => {};
    // The `examples(…)` rules come first: a literal `examples` that does not match fails the
    // rule cleanly, where a `$body:block` would try to parse it.
    ($(#[$meta:meta])* fn $name:ident($arg:pat in $g:expr $(,)?) examples($($ex:expr),+ $(,)?) $body:block $($rest:tt)*) => {
        $crate::property! { @test [$(#[$meta])*] $name, $g, |$arg| $body, [$($ex),+] }
        $crate::property! { $($rest)* }
    };
    ($(#[$meta:meta])* fn $name:ident($($arg:pat in $g:expr),+ $(,)?) examples($($ex:expr),+ $(,)?) $body:block $($rest:tt)*) => {
        $crate::property! { @test [$(#[$meta])*] $name, ($($g,)+), |($($arg,)+)| $body, [$($ex),+] }
        $crate::property! { $($rest)* }
    };
    ($(#[$meta:meta])* fn $name:ident($arg:pat in $g:expr $(,)?) $body:block $($rest:tt)*) => {
        $crate::property! { @test [$(#[$meta])*] $name, $g, |$arg| $body, [] }
        $crate::property! { $($rest)* }
    };
    ($(#[$meta:meta])* fn $name:ident($($arg:pat in $g:expr),+ $(,)?) $body:block $($rest:tt)*) => {
        $crate::property! { @test [$(#[$meta])*] $name, ($($g,)+), |($($arg,)+)| $body, [] }
        $crate::property! { $($rest)* }
    };
    (@test [$($meta:tt)*] $name:ident, $g:expr, $prop:expr, [$($ex:expr),*]) => {
        $($meta)*
        #[test]
        fn $name() {
            let generator = $g;
            $crate::property::Property::for_test(
                module_path!(),
                stringify!($name),
                env!("CARGO_MANIFEST_DIR"),
            )
            $(.example_of(&generator, $ex))*
            .check(generator, $prop);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::target_dir_name;

    #[test]
    fn folder_names_stay_inside_the_corpora_folder() {
        for (name, folder) in [
            ("a::b", "a.b"),
            ("sorted_insert", "sorted_insert"),
            ("with space/and slash", "with_space_and_slash"),
            ("", "_"),
            (".", "_"),
            ("..", "__"),
            ("../x", "___x"),
            (".inflight", "_inflight"),
            ("a..b", "a..b"),
        ] {
            assert_eq!(target_dir_name(name), folder, "{name:?}");
        }
    }
}
