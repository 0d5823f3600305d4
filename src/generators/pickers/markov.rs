//! Markov chains: walks over states with weighted transitions.

use super::steps;
use crate::generators::{Boxed, Gen, GenExt, SizeRange};
use crate::tape::{Hint, Label, Reject, Tape};

const STEP: Label = crate::tape::builtin::MARKOV_STEP;
const STATE: Label = crate::tape::builtin::MARKOV_STATE;

/// One state of a [`markov`] chain: the generator of the value it emits and its weighted
/// successors. A state without successors is **terminal**: a walk that reaches it ends.
#[derive(Debug)]
pub struct MarkovState<T> {
    value: Boxed<T>,
    successors: Vec<usize>,
    /// Cumulative weights: successor i owns the indices `ends[i-1]..ends[i]`.
    ends: Vec<u64>,
}

// By hand: a derive would ask `T: Clone`, and the generator is shared, not `T`.
impl<T> Clone for MarkovState<T> {
    fn clone(&self) -> Self {
        MarkovState {
            value: self.value.clone(),
            successors: self.successors.clone(),
            ends: self.ends.clone(),
        }
    }
}

impl<T> MarkovState<T> {
    /// A state that emits values of `value`, with no successor yet (terminal until
    /// [`MarkovState::to`] adds one).
    pub fn new(value: impl Gen<Value = T> + 'static) -> MarkovState<T> {
        MarkovState {
            value: value.boxed(),
            successors: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// Adds a transition to the state at index `next` (of the list given to [`markov`]) with
    /// weight `weight`. The first transition added is the simplest; a weight of 0 is ignored.
    pub fn to(mut self, next: usize, weight: u32) -> MarkovState<T> {
        if weight > 0 {
            let total = self.ends.last().copied().unwrap_or(0) + weight as u64;
            self.successors.push(next);
            self.ends.push(total);
        }
        self
    }

    fn is_terminal(&self) -> bool {
        self.successors.is_empty()
    }
}

/// See [`markov`].
#[derive(Debug)]
pub struct Markov<T> {
    states: Vec<MarkovState<T>>,
    start: usize,
    size: SizeRange,
}

impl<T> Clone for Markov<T> {
    fn clone(&self) -> Self {
        Markov {
            states: self.states.clone(),
            start: self.start,
            size: self.size,
        }
    }
}

/// A walk of a Markov chain (Synthia's `MarkovChain`): the value of state `start`, then one
/// value per step, each step moving to a successor of the current state (chosen by weight)
/// and emitting that state's value. `size` bounds the number of **steps** (the walk has one
/// more value), as for [`vecs`](crate::generators::vecs); reaching a terminal state ends the
/// walk, below `size.min` if it must.
///
/// **On the tape**: the start state's value (in a span `markov.state`#start), then per step
/// an element span holding the "one more?" coin, the transition and the new state's value
/// (in a span `markov.state`#state). The transition is drawn as an index into the *current*
/// state's successors (each owning a block of indices as wide as its weight, as in
/// [`weighted`](crate::generators::weighted)), not as a state number: deleting a step's span
/// (what shrinking does) makes the next step's index a transition from the state before, so
/// the walk stays a valid walk of the chain — only the states after the deletion may change.
///
/// **Simplicity order**: the fewest steps (`size.min`), each taking the first listed
/// transition, each state's simplest value; index 0 of a transition is the first successor
/// added with [`MarkovState::to`]. **Running out**: the walk ends at `size.min` steps (or
/// earlier, at a terminal state) along first transitions.
///
/// Panics if `states` is empty or `start` or a successor is not a state's index.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::{MarkovState, markov};
///
/// // A traffic light that may break down (a terminal state).
/// let light = markov(
///     vec![
///         MarkovState::new(just("green")).to(1, 1),
///         MarkovState::new(just("amber")).to(2, 1),
///         MarkovState::new(just("red")).to(0, 9).to(3, 1),
///         MarkovState::new(just("broken")),
///     ],
///     0,
///     0..=12,
/// );
/// check(light, |walk: Vec<&str>| {
///     walk[0] == "green" && walk.windows(2).all(|w| w != ["green", "red"])
/// });
/// ```
pub fn markov<T>(
    states: Vec<MarkovState<T>>,
    start: usize,
    size: impl Into<SizeRange>,
) -> Markov<T> {
    assert!(!states.is_empty(), "markov needs at least one state");
    assert!(
        start < states.len(),
        "markov: start state {start} out of range"
    );
    for (i, s) in states.iter().enumerate() {
        for &n in &s.successors {
            assert!(
                n < states.len(),
                "markov: state {i} moves to unknown state {n}"
            );
        }
    }
    Markov {
        states,
        start,
        size: size.into(),
    }
}

impl<T> Markov<T> {
    fn emit(&self, state: usize, tape: &mut Tape<'_>) -> Result<T, Reject> {
        tape.span(STATE.indexed(state as u64), |t| {
            self.states[state].value.generate(t)
        })
    }
}

impl<T> Gen for Markov<T> {
    type Value = Vec<T>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        let first = self.emit(self.start, tape)?;
        let mut walk = (vec![first], self.start);
        steps(
            &self.size,
            tape,
            &mut walk,
            |(_, at)| !self.states[*at].is_terminal(),
            |(out, at), t| {
                let here = &self.states[*at];
                let total = *here.ends.last().expect("not terminal");
                let i = t.draw(STEP, total - 1, Hint::Uniform)?;
                *at = here.successors[here.ends.partition_point(|&end| end <= i)];
                out.push(self.emit(*at, t)?);
                Ok(true)
            },
        )?;
        Ok(walk.0)
    }
}
