//! Action sequences on the tape, and the property that runs them.

use super::StateMachine;
use crate::generators::{Gen, SizeRange};
use crate::property::{Fail, Test, property};
use crate::tape::{Reject, Tape};
use std::fmt;
use std::sync::Arc;

/// The actions of one test case, in order: what [`commands`] generates. Its `Debug` is one
/// action a line, numbered, as a failure report shows the trace.
#[derive(Clone, PartialEq)]
pub struct Steps<A>(pub Vec<A>);

impl<A: fmt::Debug> fmt::Debug for Steps<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "(no actions)");
        }
        write_numbered(f, &self.0)
    }
}

/// Writes `items` one a line, numbered from 1.
pub(crate) fn write_numbered<A: fmt::Debug>(
    f: &mut fmt::Formatter<'_>,
    items: &[A],
) -> fmt::Result {
    for (i, a) in items.iter().enumerate() {
        if i > 0 {
            writeln!(f)?;
        }
        write!(f, "{}. {a:?}", i + 1)?;
    }
    Ok(())
}

/// The generator [`commands`] returns.
pub struct Commands<M> {
    machine: Arc<M>,
    steps: SizeRange,
}

impl<M> Clone for Commands<M> {
    fn clone(&self) -> Self {
        Commands {
            machine: self.machine.clone(),
            steps: self.steps,
        }
    }
}

/// Sequences of `steps` actions of `machine` (a [`SizeRange`]: `0..=50`, `1..`, …), drawn
/// by running the model: each step draws an action from
/// [`StateMachine::actions`] of the model's current state, keeps it if its
/// [`StateMachine::precondition`] holds, and moves the model on.
///
/// On the tape each action is a list element (a "one more?" coin and the action's choices
/// in one span), so shrinking deletes actions and simplifies their arguments. Simplicity
/// order: fewer actions, each the simplest its generator draws. Running out: the sequence
/// ends (at the least number of steps, each action simplest).
pub fn commands<M: StateMachine>(machine: M, steps: impl Into<SizeRange>) -> Commands<M> {
    Commands {
        machine: Arc::new(machine),
        steps: steps.into(),
    }
}

impl<M: StateMachine> Gen for Commands<M> {
    type Value = Steps<M::Action>;

    fn generate(&self, tape: &mut Tape<'_>) -> Result<Steps<M::Action>, Reject> {
        let mut state = self.machine.initial();
        draw_steps(&*self.machine, &mut state, self.steps, tape).map(Steps)
    }
}

/// Draws `steps` actions of `m` from `state` on, moving `state` along: each action one list
/// element on the tape, kept only when its precondition holds.
pub(crate) fn draw_steps<M: StateMachine>(
    m: &M,
    state: &mut M::State,
    steps: SizeRange,
    tape: &mut Tape<'_>,
) -> Result<Vec<M::Action>, Reject> {
    let mut out = Vec::new();
    steps.repeat(tape, |tape| {
        let action = m.actions(state).generate(tape)?;
        if !m.precondition(state, &action) {
            return Ok(false);
        }
        m.next_state(state, &action);
        out.push(action);
        Ok(true)
    })?;
    Ok(out)
}

/// Runs `actions` on a fresh system and, in lockstep, on the model: for each action, its
/// precondition (an action whose precondition fails is skipped), [`StateMachine::run`] with
/// the model's state before it, the model's step, then [`StateMachine::check`]. The first
/// failure names its step.
pub fn run_commands<M: StateMachine>(machine: &M, actions: &[M::Action]) -> Result<(), Fail> {
    let mut sut = machine.reset();
    let mut state = machine.initial();
    for (i, action) in actions.iter().enumerate() {
        if !machine.precondition(&state, action) {
            continue;
        }
        let step = |e: Fail| match e {
            Fail::Failed(msg) => Fail::Failed(format!("step {} ({action:?}): {msg}", i + 1)),
            other => other,
        };
        machine.run(&mut sut, &state, action).map_err(step)?;
        machine.next_state(&mut state, action);
        machine.check(&sut, &state).map_err(step)?;
    }
    Ok(())
}

/// The stateful property of `machine`: sequences of `steps` actions ([`commands`]) run by
/// [`run_commands`]. A failure shrinks to a minimal sequence (fewer actions, simpler
/// arguments, preconditions kept) and its report lists it one action a line. In a
/// `#[test]`, [`check_test`](crate::serve::check_test) runs it and fails the test;
/// `Property::run_test` returns the report instead.
pub fn stateful<M>(machine: M, steps: impl Into<SizeRange>) -> impl Test
where
    M: StateMachine + 'static,
{
    let g = commands(machine, steps);
    let m = g.machine.clone();
    property(g, move |s: Steps<M::Action>| run_commands(&*m, &s.0))
}
