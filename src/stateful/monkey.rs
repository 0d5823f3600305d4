//! Monkey testing (Synthia's `Monkey`): drive a reactive system with picked actions, with no
//! model, until it fails; reset it; shrink the action sequence.

use super::commands::write_numbered;
use crate::generators::{Boxed, Gen, SizeRange};
use crate::property::{Fail, Test, Unremembered, property};
use crate::tape::{Label, Reject, Tape};

const ELEMENT: Label = crate::tape::builtin::ELEMENT;
const MORE: Label = crate::tape::builtin::MORE;
use std::fmt;
use std::sync::Arc;

/// The actions of one monkey episode, run as they were drawn, and how the episode ended.
/// Its `Debug` is the actions, numbered (the failure message is the report's message).
#[derive(Clone, PartialEq)]
pub struct Episode<A> {
    /// The actions run, in order; the last one failed when [`Episode::failure`] is set.
    pub actions: Vec<A>,
    /// The failure of the last action (its `Err`, or its panic), if any.
    pub failure: Option<String>,
}

impl<A: fmt::Debug> fmt::Debug for Episode<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.actions.is_empty() {
            return write!(f, "(no actions)");
        }
        write_numbered(f, &self.actions)
    }
}

type Reset<S> = dyn Fn() -> S + Send + Sync;
type Pick<S, A> = dyn Fn(&S) -> Boxed<A> + Send + Sync;
type Execute<S, A> = dyn Fn(&mut S, &A) -> Result<(), Fail> + Send + Sync;

/// A monkey: a way to reset the system, a picker of the actions the system offers now, and a
/// way to perform one. Build it with [`monkey`]; run it with [`Monkey::test`] under any
/// strategy.
pub struct Monkey<S, A> {
    reset: Arc<Reset<S>>,
    pick: Arc<Pick<S, A>>,
    execute: Arc<Execute<S, A>>,
    budget: usize,
}

impl<S, A> Clone for Monkey<S, A> {
    fn clone(&self) -> Self {
        Monkey {
            reset: self.reset.clone(),
            pick: self.pick.clone(),
            execute: self.execute.clone(),
            budget: self.budget,
        }
    }
}

/// The discovery budget of a new [`Monkey`]: the most actions of one episode.
pub const DEFAULT_BUDGET: usize = 200;

/// A monkey over the system `reset` makes: each step asks `pick` for a generator of the
/// actions the system offers in its current state (a reactive system: what is enabled now),
/// draws one and runs `execute`; an `Err` or a panic ends the episode as a failure, and
/// `assume!` in an action (or `Err(Fail::Rejected)`) makes the episode invalid. There is no
/// model: the system's own checks (assertions, `Err`s) are the oracle.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::stateful::monkey;
///
/// /// A turnstile that jams after three coins in a row (the bug).
/// #[derive(Default)]
/// struct Turnstile {
///     locked: bool,
///     coins: u32,
/// }
///
/// #[derive(Clone, Debug)]
/// enum Act {
///     Coin,
///     Push,
/// }
///
/// let m = monkey(
///     || Turnstile { locked: true, coins: 0 },
///     |_t: &Turnstile| one_of![just(Act::Coin), just(Act::Push)].boxed(),
///     |t: &mut Turnstile, a: &Act| {
///         match a {
///             Act::Coin => {
///                 t.coins += 1;
///                 ensure!(t.coins < 3, "jammed");
///                 t.locked = false;
///             }
///             Act::Push => {
///                 if !t.locked {
///                     t.coins = 0;
///                 }
///                 t.locked = true;
///             }
///         }
///         Ok(())
///     },
/// )
/// .budget(50);
/// let report = Property::new("doc::monkey").no_corpus().seed(1).run_test(&m.test());
/// assert_eq!(report.value.as_deref(), Some("1. Coin\n2. Coin\n3. Coin"));
/// ```
pub fn monkey<S, A>(
    reset: impl Fn() -> S + Send + Sync + 'static,
    pick: impl Fn(&S) -> Boxed<A> + Send + Sync + 'static,
    execute: impl Fn(&mut S, &A) -> Result<(), Fail> + Send + Sync + 'static,
) -> Monkey<S, A> {
    Monkey {
        reset: Arc::new(reset),
        pick: Arc::new(pick),
        execute: Arc::new(execute),
        budget: DEFAULT_BUDGET,
    }
}

impl<S, A> Monkey<S, A> {
    /// The discovery budget: the most actions of one episode ([`DEFAULT_BUDGET`] by default;
    /// at least 1). A random source runs most episodes to the budget.
    pub fn budget(mut self, actions: usize) -> Self {
        self.budget = actions.max(1);
        self
    }
}

impl<S: 'static, A: Clone + fmt::Debug + 'static> Monkey<S, A> {
    /// The monkey as a test: each test case is one episode from a fresh system, failing when
    /// an action fails. The engine's discovery runs episodes until one fails, then shrinks
    /// the tape, so the failing episode is re-run (from a reset) with actions deleted and
    /// simplified: the report lists the shortest sequence found that still fails. In a
    /// `#[test]`: [`check_test`](crate::serve::check_test)`(&monkey.test())`.
    pub fn test(&self) -> impl Test + use<S, A> {
        // An episode's Debug leaves out its failure, which is what the property reads, and
        // a system under test may answer one action sequence differently on two runs: every
        // shrink candidate runs.
        Unremembered {
            test: property(self.clone(), |e: Episode<A>| match e.failure {
                Some(m) => Err(Fail::failed(format!("step {}: {m}", e.actions.len()))),
                None => Ok(()),
            }),
            attempts: 1,
        }
    }
}

impl<S, A: Clone> Gen for Monkey<S, A> {
    type Value = Episode<A>;

    /// One episode: a reset, then up to the budget of actions, each drawn (as one list
    /// element on the tape) from the picker of the system's state and run at once. The
    /// episode stops at the first failure, so the tape ends there. Simplicity order: fewer
    /// actions, each simplest. Running out: the episode ends.
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Episode<A>, Reject> {
        let mut sut = (self.reset)();
        let mut actions = Vec::new();
        let mut failure = None;
        let p_more = SizeRange::new(0, self.budget)
            .with_average(self.budget as f64)
            .p_more();
        // The list loop of a collection (an element span: the "one more?" coin, then the
        // action), except that a failure ends it with a forced "no more".
        while actions.len() < self.budget && failure.is_none() {
            let depth = tape.depth();
            tape.start_span(ELEMENT);
            let step = tape.draw_bool(MORE, p_more).and_then(|more| {
                if !more {
                    return Ok(false);
                }
                let action = (self.pick)(&sut).generate(tape)?;
                let r = crate::property::catch_or_reject(|| (self.execute)(&mut sut, &action));
                actions.push(action);
                failure = match r {
                    Ok(Ok(())) => None,
                    // `assume!` (or `Fail::Rejected`) in an action: the episode is invalid,
                    // not a failure.
                    Ok(Err(Fail::Rejected)) | Err(None) => return Err(tape.reject()),
                    Ok(Err(e)) => Some(e.to_string()),
                    Err(Some(panic)) => Some(panic),
                };
                Ok(true)
            });
            tape.close_to(depth);
            if !step? {
                return Ok(Episode { actions, failure });
            }
        }
        let depth = tape.depth();
        tape.start_span(ELEMENT);
        let end = tape.force_bool(MORE, false);
        tape.close_to(depth);
        end?;
        Ok(Episode { actions, failure })
    }
}
