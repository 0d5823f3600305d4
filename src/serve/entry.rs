//! Where a property starts: the one place that reads what the process is asked
//! ([`Ask::from_env`]) and either runs the property or serves the request.

use super::commands;
use super::request::Ask;
use crate::engine::{Identity, Observer, Report};
use crate::generators::Gen;
use crate::property::{Outcome, Property, Test, isolation, property, test_property_name};
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
                self.report(Report::default())
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
        self.run(generator, prop).assert_passed();
    }

    /// Like [`Property::run_test`], but panics with the failure report: the `#[test]` entry
    /// for properties that are a [`Test`] rather than a generator and a closure — state
    /// machines ([`crate::stateful::stateful`], [`crate::stateful::concurrent`],
    /// [`crate::stateful::Monkey::test`]) and constrained generators among them. The panic is
    /// located at the caller.
    ///
    /// ```should_panic
    /// use tapefuzz::prelude::*;
    ///
    /// // A counter that forgets its count after three increments.
    /// struct Model;
    /// #[derive(Clone, Debug)]
    /// struct Add;
    /// impl StateMachine for Model {
    ///     type State = u32;
    ///     type Sut = u32;
    ///     type Action = Add;
    ///     fn initial(&self) -> u32 { 0 }
    ///     fn reset(&self) -> u32 { 0 }
    ///     fn actions(&self, _: &u32) -> tapefuzz::generators::Boxed<Add> { just(Add).boxed() }
    ///     fn next_state(&self, s: &mut u32, _: &Add) { *s += 1 }
    ///     fn run(&self, sut: &mut u32, _: &u32, _: &Add) -> Result<(), Fail> {
    ///         *sut = if *sut == 3 { 0 } else { *sut + 1 };
    ///         Ok(())
    ///     }
    ///     fn check(&self, sut: &u32, s: &u32) -> Result<(), Fail> {
    ///         ensure_eq!(*sut, *s);
    ///         Ok(())
    ///     }
    /// }
    ///
    /// // Panics: the minimal trace is four `Add`s.
    /// Property::new("doc::forgetful").no_corpus().check_test(&stateful(Model, 0..=10));
    /// ```
    #[track_caller]
    pub fn check_test(&self, test: &dyn Test) {
        self.run_test(test).assert_passed();
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
    named_after_test().check(generator, prop)
}

/// [`check`] for a property that is a [`Test`] (a state machine, a constrained generator):
/// runs it in a `#[test]` and panics with the failure report, named after the test as
/// [`check`] names its properties.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::Boxed;
///
/// // A stack against a `Vec` as its model.
/// struct Model;
/// #[derive(Clone, Debug)]
/// enum Op { Push(u8), Pop }
/// impl StateMachine for Model {
///     type State = Vec<u8>;
///     type Sut = std::collections::VecDeque<u8>;
///     type Action = Op;
///     fn initial(&self) -> Vec<u8> { Vec::new() }
///     fn reset(&self) -> Self::Sut { Default::default() }
///     fn actions(&self, _: &Vec<u8>) -> Boxed<Op> {
///         one_of![ints(0..=9u8).map(Op::Push), just(Op::Pop)].boxed()
///     }
///     fn next_state(&self, s: &mut Vec<u8>, op: &Op) {
///         match op { Op::Push(x) => s.push(*x), Op::Pop => { s.pop(); } }
///     }
///     fn run(&self, sut: &mut Self::Sut, s: &Vec<u8>, op: &Op) -> Result<(), Fail> {
///         match op {
///             Op::Push(x) => sut.push_back(*x),
///             Op::Pop => ensure_eq!(sut.pop_back(), s.last().copied()),
///         }
///         Ok(())
///     }
/// }
///
/// // In a `#[test] fn stack_matches_model()`: the property `<crate>::stack_matches_model`.
/// tapefuzz::serve::check_test(&stateful(Model, 0..=20));
/// ```
///
/// Panics located at the caller (`#[track_caller]`).
#[track_caller]
pub fn check_test(test: &dyn Test) {
    named_after_test().check_test(test)
}

thread_local! {
    /// How many properties [`check`] and [`check_test`] have named on this thread: libtest
    /// runs each test on a thread of its own, so this counts the calls of one test.
    static NAMED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The property of the running `#[test]`, named `<crate>::<test>`; the n-th of one test
/// (n ≥ 2) is `<crate>::<test>#n`, with a warning, so that two checks in one test never
/// share a corpus and `cargo tapefuzz` can run either. Numbers follow call order, on the
/// test's own thread (libtest names it after the test); a check on the main thread or on a
/// thread of the test's own is not numbered.
#[track_caller]
fn named_after_test() -> Property {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("property").to_string();
    // Only a libtest test's own thread (named after the test, one per test) counts its
    // checks: the main thread and unnamed threads run code of many tests, or of none.
    let counted = thread.name().is_some_and(|t| t != "main");
    let n = if counted {
        NAMED.with(|c| {
            c.set(c.get() + 1);
            c.get()
        })
    } else {
        1
    };
    let mut name = test_property_name(&test);
    if n > 1 {
        name = format!("{name}#{n}");
        eprintln!(
            "tapefuzz: warning: check number {n} in the test `{test}` is the property `{name}` \
             (numbered in call order: inserting a check before it renames it and its corpus); \
             name it: Property::new(\"…\").check(…) (or .check_test(…))"
        );
    }
    Property::new(name)
        .replay_command(format!(
            "cargo test -- --exact {test}  (replays regressions first)"
        ))
        .with_test_name(test)
}
