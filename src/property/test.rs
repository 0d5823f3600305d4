//! A generator and a property as one object-safe test.

use super::memo::ValueMemo;
use super::outcome::{Fail, Outcome};
use super::panic::{Caught, catch};
use super::rejected::{clear_rejected, take_rejected};
use crate::engine;
use crate::generators::Gen;
use crate::tape::{Status, Tape};
use std::fmt::Debug;
use std::time::{Duration, Instant};

/// What a test case was and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// The value's Debug form (`None` when no value was generated).
    pub value: Option<String>,
    /// How the test case ended.
    pub status: Status,
    /// The failure message, for a failing test case.
    pub message: Option<String>,
}

/// A test the engine can run: generate a value from the tape and check it. Object-safe, so
/// registries hold `Box<dyn Test>`.
pub trait Test {
    /// Runs one test case. A panic in the generator or the property is a failure
    /// ([`Status::Interesting`]), never a crash of the harness; `assume!` gives
    /// [`Status::Invalid`].
    fn run(&self, tape: &mut Tape<'_>) -> Status;

    /// Runs one test case and also reports the value and the failure message.
    fn explain(&self, tape: &mut Tape<'_>) -> Explained;

    /// Runs only the generator (to record a tape's structure without checking the property);
    /// [`Status::Valid`] when it produced a value. Defaults to [`Test::run`].
    fn generate_only(&self, tape: &mut Tape<'_>) -> Status {
        self.run(tape)
    }

    /// The value the generator makes of the tape (its Debug), without running the property:
    /// how a test case that kills its process is described. `None` by default, and when the
    /// generator makes no value.
    fn render(&self, tape: &mut Tape<'_>) -> Option<String> {
        let _ = tape;
        None
    }

    /// Runs one shrink candidate as [`Test::run`] does, unless `memo` knows the value the
    /// generator makes (by its Debug form, see [`ValueMemo`]): then the status it had, without
    /// running the property again; a value that did not fail joins `memo`. [`Test::run`]
    /// unchanged by default (a test that cannot say its value, or whose verdict on one value
    /// may change: a race).
    fn run_memo(&self, tape: &mut Tape<'_>, memo: &mut ValueMemo) -> Status {
        let _ = memo;
        self.run(tape)
    }

    /// How many runs of a shrink candidate that passes before it counts as passing: more
    /// than 1 for a failure that shows only on some runs (a race). 1 by default; see
    /// [`engine::Subject::attempts`].
    fn attempts(&self) -> usize {
        1
    }
}

impl<T: Test + ?Sized> Test for Box<T> {
    fn run(&self, tape: &mut Tape<'_>) -> Status {
        (**self).run(tape)
    }
    fn explain(&self, tape: &mut Tape<'_>) -> Explained {
        (**self).explain(tape)
    }
    fn generate_only(&self, tape: &mut Tape<'_>) -> Status {
        (**self).generate_only(tape)
    }
    fn render(&self, tape: &mut Tape<'_>) -> Option<String> {
        (**self).render(tape)
    }
    fn run_memo(&self, tape: &mut Tape<'_>, memo: &mut ValueMemo) -> Status {
        (**self).run_memo(tape, memo)
    }
    fn attempts(&self) -> usize {
        (**self).attempts()
    }
}

/// `test` with every shrink candidate run ([`Test::run_memo`] left at its default) and
/// `attempts` runs of a candidate that passes before it counts as passing: for a test whose
/// value's Debug form leaves out what it checks, or whose verdict on one value may change
/// from run to run (a race).
pub(crate) struct Unremembered<T> {
    pub(crate) test: T,
    pub(crate) attempts: usize,
}

impl<T: Test> Test for Unremembered<T> {
    fn run(&self, tape: &mut Tape<'_>) -> Status {
        self.test.run(tape)
    }
    fn explain(&self, tape: &mut Tape<'_>) -> Explained {
        self.test.explain(tape)
    }
    fn generate_only(&self, tape: &mut Tape<'_>) -> Status {
        self.test.generate_only(tape)
    }
    fn render(&self, tape: &mut Tape<'_>) -> Option<String> {
        self.test.render(tape)
    }
    fn attempts(&self) -> usize {
        self.attempts
    }
}

/// Provenance regenerates a test's values through this.
impl<T: Test + ?Sized> crate::provenance::Regenerate for T {
    fn render(&self, tape: &mut Tape<'_>) -> Option<String> {
        Test::render(self, tape)
    }
    fn value(&self, tape: &mut Tape<'_>) -> Option<String> {
        self.explain(tape).value
    }
}

/// See [`property`].
pub struct PropertyTest<G, F> {
    generator: G,
    prop: F,
}

/// The test "for every value of `gen`, `prop` holds".
pub fn property<G, F, R>(generator: G, prop: F) -> PropertyTest<G, F>
where
    G: Gen,
    G::Value: Debug,
    F: Fn(G::Value) -> R,
    R: Outcome,
{
    PropertyTest { generator, prop }
}

/// How a test case ended: the generator's or the property's outcome as a status and a
/// failure message (a rejection marks the tape). Inlined: it is on the hot path of every
/// test case.
#[inline(always)]
fn conclude(
    r: Result<Result<Result<(), Fail>, Status>, Caught>,
    tape: &mut Tape<'_>,
) -> (Status, Option<String>) {
    // The property's `into_result` took the flag when it returned; still up, it means an
    // `assume!` in an inner closure rejected before the property panicked: the rejection
    // came first, so the test case is invalid, as after `reject()`.
    let r = match r {
        Err(Caught::Panic(_)) if take_rejected() => Err(Caught::Rejected),
        r => r,
    };
    match r {
        Ok(Err(status)) => (status, None),
        Ok(Ok(Ok(()))) => (Status::Valid, None),
        Ok(Ok(Err(Fail::Rejected))) | Err(Caught::Rejected) => {
            tape.reject();
            (Status::Invalid, None)
        }
        Ok(Ok(Err(Fail::Failed(m)))) | Err(Caught::Panic(m)) => (Status::Interesting, Some(m)),
    }
}

impl<G, F, R> PropertyTest<G, F>
where
    G: Gen,
    G::Value: Debug,
    F: Fn(G::Value) -> R,
    R: Outcome,
{
    fn go(&self, tape: &mut Tape<'_>, show: bool) -> Explained {
        // One thread-local read: with statistics and observability off nothing else is paid.
        if engine::collecting() {
            return self.go_noted(tape, show);
        }
        let mut value = None;
        // A flag left by an `assume!` outside any property must not reject this test case;
        // the property's `into_result` takes the flag its own `assume!` raises.
        clear_rejected();
        let r = catch(|| match self.generator.generate(tape) {
            Err(reject) => Err(reject.status()),
            Ok(v) => {
                if show {
                    value = Some(format!("{v:?}"));
                }
                Ok((self.prop)(v).into_result())
            }
        });
        let (status, message) = conclude(r, tape);
        Explained {
            value,
            status,
            message,
        }
    }

    /// [`PropertyTest::go`] with notes for the statistics and the observability log: the
    /// time in the generator and in the property, and when observing, the value's Debug
    /// form and the failure message.
    #[cold]
    #[inline(never)]
    fn go_noted(&self, tape: &mut Tape<'_>, show: bool) -> Explained {
        // The test case's notes start here: what a describe or a shrink noted in between
        // belongs to no test case the loop tallies.
        engine::clear_case();
        clear_rejected();
        let observing = engine::observing();
        let mut value = None;
        let start = Instant::now();
        let mut generated = None;
        let r = catch(|| match self.generator.generate(tape) {
            Err(reject) => Err(reject.status()),
            Ok(v) => {
                generated = Some(Instant::now());
                if show || observing {
                    value = Some(format!("{v:?}"));
                }
                Ok((self.prop)(v).into_result())
            }
        });
        let end = Instant::now();
        let (generating, testing) = match generated {
            Some(g) => (g - start, end - g),
            None => (end - start, Duration::ZERO),
        };
        engine::note_timing(generating, testing);
        let (status, message) = conclude(r, tape);
        if observing {
            if let Some(v) = &value {
                engine::note_representation(v.clone());
            }
            if let Some(m) = &message {
                engine::note_message(m);
            }
        }
        Explained {
            value: if show { value } else { None },
            status,
            message,
        }
    }
}

impl<G, F, R> Test for PropertyTest<G, F>
where
    G: Gen,
    G::Value: Debug,
    F: Fn(G::Value) -> R,
    R: Outcome,
{
    fn run(&self, tape: &mut Tape<'_>) -> Status {
        self.go(tape, false).status
    }

    fn explain(&self, tape: &mut Tape<'_>) -> Explained {
        self.go(tape, true)
    }

    fn run_memo(&self, tape: &mut Tape<'_>, memo: &mut ValueMemo) -> Status {
        // With statistics or observability on, every test case is tallied as it ran.
        if engine::collecting() {
            return self.run(tape);
        }
        clear_rejected();
        let mut key = None;
        let known = &*memo;
        let r = catch(|| match self.generator.generate(tape) {
            Err(reject) => Err(reject.status()),
            Ok(v) => {
                // A `Debug` that panics gives no key: the property decides, as without a memo.
                key = catch(|| ValueMemo::key(&v)).ok().flatten();
                match key.and_then(|k| known.get(k)) {
                    // Answered: no key, so nothing is inserted again below.
                    Some(status) => {
                        key = None;
                        Ok(match status {
                            Status::Invalid => Err(Fail::Rejected),
                            _ => Ok(()),
                        })
                    }
                    None => Ok((self.prop)(v).into_result()),
                }
            }
        });
        let (status, _) = conclude(r, tape);
        if let Some(k) = key {
            memo.insert(k, status);
        }
        status
    }

    fn render(&self, tape: &mut Tape<'_>) -> Option<String> {
        match catch(|| self.generator.generate(tape)) {
            Ok(Ok(v)) => Some(format!("{v:?}")),
            _ => None,
        }
    }

    fn generate_only(&self, tape: &mut Tape<'_>) -> Status {
        match catch(|| self.generator.generate(tape)) {
            Ok(Ok(_)) => Status::Valid,
            Ok(Err(reject)) => reject.status(),
            Err(Caught::Rejected) => Status::Invalid,
            Err(Caught::Panic(_)) => Status::Interesting,
        }
    }
}
