//! DeleteElement: one element fewer.

use super::{Mutator, position};
use crate::tape::{Reject, Tape};

/// Removes one element of a list (Synthia's `DeleteElement`). Draws the position (index `i`
/// = element `i`); an empty list is returned as it is, drawing nothing. Simplest: the
/// first element removed. Running out: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::mutated;
/// use tapefuzz::generators::mutators::DeleteElement;
///
/// let shorter = mutated(vecs(bools(), 1..=4), DeleteElement);
/// check(shorter, |v: Vec<bool>| v.len() <= 4);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct DeleteElement;

impl<T> Mutator<Vec<T>> for DeleteElement {
    fn mutate(&self, mut value: Vec<T>, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        if !value.is_empty() {
            let i = position(tape, value.len())?;
            value.remove(i);
        }
        Ok(value)
    }
}
