//! Offset: moves a number.

use super::Mutator;
use crate::generators::{Gen, Increment};
use crate::tape::{Label, Reject, Tape};

const OPERAND: Label = crate::tape::builtin::MUTATOR_OPERAND;

/// See [`offset`].
#[derive(Clone, Debug)]
pub struct Offset<G>(pub G);

/// Moves a number by an amount from `amounts` (Synthia's `Offset`: noise on a precise
/// value), with [`Increment`] (integers wrap around). Draws the amount (span
/// `mutator.operand`). Simplest: the simplest amount (with `ints`, 0: the value
/// unchanged). Running out: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::mutated;
/// use tapefuzz::generators::mutators::offset;
///
/// let noisy = mutated(ints::<i32>(0..=100), offset(ints::<i32>(-2..=2)));
/// check(noisy, |x: i32| (-2..=102).contains(&x));
/// ```
pub fn offset<G: Gen>(amounts: G) -> Offset<G> {
    Offset(amounts)
}

impl<T: Increment<G::Value>, G: Gen> Mutator<T> for Offset<G> {
    fn mutate(&self, value: T, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let by = tape.span(OPERAND, |t| self.0.generate(t))?;
        Ok(value.increment(&by))
    }
}
