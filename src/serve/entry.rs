//! Where a property starts: the one place that reads what the process is asked
//! ([`Ask::from_env`]) and either runs the property or serves the request.

use super::commands;
use super::request::Ask;
use crate::engine::{Identity, Observer, RunReport};
use crate::generators::Gen;
use crate::property::{Outcome, Property, Report, Test, isolation, property, test_property_name};
use std::fmt::Debug;

impl Property {
    /// Runs a test through the engine and describes the shrunk failure, if any.
    pub fn run_test(&self, test: &dyn Test) -> Report {
        self.run_test_observed(test, &mut Identity)
    }

    /// [`Property::run_test`] with `observer` watching each test case (a
    /// [`crate::coverage::CoverageObserver`] for greybox mode: the `greybox` search keeps
    /// tapes that reach new coverage, `rl` rewards new coverage traces).
    ///
    /// Under `cargo tapefuzz` (a command in the environment, see [`crate::serve`]) this
    /// serves the command instead of an ordinary run; in a process started to run one test
    /// case in isolation (see [`isolation`]), it serves that request and exits, or, for
    /// another property, returns at once without running. A request that cannot be read
    /// ends the process with exit status 2, saying why.
    pub fn run_test_observed(&self, test: &dyn Test, observer: &mut dyn Observer) -> Report {
        match Ask::from_env(self.name()) {
            Ok(Ask::Nothing) => self.run_engine(test, observer),
            Ok(Ask::Child(path)) => {
                isolation::serve_child(&path, self.name(), test, self.config_ref().max_choices);
                self.report(RunReport::default())
            }
            Ok(Ask::Command(request)) => commands::serve(&request, self, test),
            Err(e) => super::output::Answers::new(Ask::out_file()).fatal(&e),
        }
    }

    /// Runs "`prop` holds for every value of `gen`" and returns the report. The explicit
    /// examples ([`Property::example`]) run first; the first that fails is the report's
    /// failure (shrunk from it when `generator` can run backwards to it), and nothing is
    /// generated.
    ///
    /// Panics when an explicit example is not of the generator's value type.
    #[track_caller]
    pub fn run<G, F, R>(&self, generator: G, prop: F) -> Report
    where
        G: Gen,
        G::Value: Debug + 'static,
        F: Fn(G::Value) -> R,
        R: Outcome,
    {
        if Ask::from_env(self.name()).is_ok_and(|a| a.runs_examples())
            && let Some(failed) = self.failing_example(&generator, &prop)
        {
            return failed;
        }
        self.run_test(&property(generator, prop))
    }

    /// Like [`Property::run`], but panics with the failure report: for `#[test]`s. The panic
    /// is located at the caller (`#[track_caller]`), the user's test.
    #[track_caller]
    pub fn check<G, F, R>(&self, generator: G, prop: F)
    where
        G: Gen,
        G::Value: Debug + 'static,
        F: Fn(G::Value) -> R,
        R: Outcome,
    {
        let report = self.run(generator, prop);
        if !report.passed() {
            panic!("\n{report}");
        }
    }
}

/// Checks `prop` for values of `gen` in a `#[test]` and panics with the failure report.
///
/// The property is named `<crate>::<test>`: the test target's crate (the test executable's
/// name without cargo's hash: `x1` for `tests/x1.rs`) and the libtest name of the test (its
/// thread's name, `tests::roundtrip` for a unit test in `mod tests`), as [`property!`]
/// names its tests. So `fn roundtrip` in `tests/x1.rs` and in `tests/x2.rs` are
/// `x1::roundtrip` and `x2::roundtrip`, with corpora `corpora/x1.roundtrip/` and
/// `corpora/x2.roundtrip/`.
///
/// [`property!`]: crate::property!
///
/// Panics located at the caller (`#[track_caller]`).
#[track_caller]
pub fn check<G, F, R>(generator: G, prop: F)
where
    G: Gen,
    G::Value: Debug + 'static,
    F: Fn(G::Value) -> R,
    R: Outcome,
{
    let test = std::thread::current()
        .name()
        .unwrap_or("property")
        .to_string();
    Property::new(test_property_name(&test))
        .replay_command(format!(
            "cargo test -- --exact {test}  (replays regressions first)"
        ))
        .with_test_name(test)
        .check(generator, prop)
}
