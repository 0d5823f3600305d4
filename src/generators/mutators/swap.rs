//! Swap: two elements trade places.

use super::{Mutator, position};
use crate::tape::{Reject, Tape};

/// Swaps two different elements of a list (Synthia's `Swap`). Draws the first position `i`
/// (index = position), then the second among the *other* positions (index `j` = position
/// `j` if `j < i`, else `j + 1`), so a swap always moves two elements; with two elements the
/// second is forced and reads no bytes. A list of fewer than two elements is returned as it
/// is, drawing nothing. Simplest: the first two elements swapped. Running out: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::mutated;
/// use tapefuzz::generators::mutators::Swap;
///
/// let swapped = mutated(vecs(ints::<u8>(..), 0..=4), Swap);
/// check(swapped, |v: Vec<u8>| v.len() <= 4);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Swap;

impl<T> Mutator<Vec<T>> for Swap {
    fn mutate(&self, mut value: Vec<T>, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        let n = value.len();
        if n >= 2 {
            let i = position(tape, n)?;
            let j = position(tape, n - 1)?;
            value.swap(i, if j < i { j } else { j + 1 });
        }
        Ok(value)
    }
}
