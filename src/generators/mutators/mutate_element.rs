//! MutateElement: one element, mutated.

use super::{Mutator, position};
use crate::tape::{Reject, Tape};

/// Mutates one element of a list with the mutator it holds (Synthia's `MutateElement`).
/// Draws the position (index `i` = element `i`), then the inner mutator's decisions. An
/// empty list is returned as it is, drawing nothing. Simplest: the first element, with the
/// inner mutator's simplest mutation. Running out: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::mutated;
/// use tapefuzz::generators::mutators::{MutateElement, replace};
///
/// let one_zero = mutated(vecs(ints::<u8>(1..=9), 1..=4), MutateElement(replace(just(0u8))));
/// check(one_zero, |v: Vec<u8>| v.iter().filter(|x| **x == 0).count() <= 1);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct MutateElement<M>(pub M);

impl<T, M: Mutator<T>> Mutator<Vec<T>> for MutateElement<M> {
    fn mutate(&self, mut value: Vec<T>, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        if value.is_empty() {
            return Ok(value);
        }
        let i = position(tape, value.len())?;
        // Take the element out (swap with the last, mutate, put back in place), so `T` need
        // not be `Clone` or `Default`.
        let last = value.len() - 1;
        value.swap(i, last);
        let e = value.pop().expect("not empty");
        let e = self.0.mutate(e, tape)?;
        value.push(e);
        value.swap(i, last);
        Ok(value)
    }
}
