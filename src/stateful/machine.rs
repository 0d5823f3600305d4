//! The state machine: a model, a system under test, and the actions between them.

use crate::generators::Boxed;
use crate::property::Fail;
use std::fmt::Debug;

/// A model of a system under test and the actions to drive both with (see
/// [`super::commands`] and [`super::stateful`]).
pub trait StateMachine {
    /// The model's state: what the system should be.
    type State: Clone + Debug;
    /// The system under test.
    type Sut;
    /// One action (a method call, a request, a click).
    type Action: Clone + Debug;

    /// The model's state before any action.
    fn initial(&self) -> Self::State;

    /// A fresh system in its initial state (the reset before every sequence).
    fn reset(&self) -> Self::Sut;

    /// A generator of the actions that make sense in `state`. It is asked again for every
    /// step, with the model's state at that step, so an action that needs something to exist
    /// (a key to delete, a handle to close) can be drawn from the state. Draw such a pick as
    /// an index from a fixed range (`ints(0..=7)`, then modulo the number of candidates)
    /// rather than from a range that depends on the state (`sampled_from(keys)`): a choice
    /// whose range shrinks to one option is not drawn at all, which shifts every later
    /// choice of the tape when shrinking deletes an earlier action.
    fn actions(&self, state: &Self::State) -> Boxed<Self::Action>;

    /// Whether `action` may run in `state` (`true` by default). An action drawn where its
    /// precondition fails is left out of the sequence (and, after many in a row, the test
    /// case is rejected).
    fn precondition(&self, state: &Self::State, action: &Self::Action) -> bool {
        let _ = (state, action);
        true
    }

    /// How `action` changes the model.
    fn next_state(&self, state: &mut Self::State, action: &Self::Action);

    /// Runs `action` on the system, `state` being the model's state before it; an `Err` (or
    /// a panic) is a failure at this step. Compare results with the model here.
    fn run(
        &self,
        sut: &mut Self::Sut,
        state: &Self::State,
        action: &Self::Action,
    ) -> Result<(), Fail>;

    /// Checks the system against the model's state after every step (an invariant); `Ok` by
    /// default.
    fn check(&self, sut: &Self::Sut, state: &Self::State) -> Result<(), Fail> {
        let _ = (sut, state);
        Ok(())
    }
}
