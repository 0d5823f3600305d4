//! InsertElement: one element more.

use super::{Mutator, position};
use crate::generators::Gen;
use crate::tape::{Label, Reject, Tape};

const OPERAND: Label = crate::tape::builtin::MUTATOR_OPERAND;

/// See [`insert_element`].
#[derive(Clone, Debug)]
pub struct InsertElement<G>(pub G);

/// Inserts an element from `element` into a list (Synthia's `InsertElement`). Draws the
/// position (index `i` = before element `i`; the last index appends), then the element
/// (span `mutator.operand`). Simplest: the simplest element, first. Running out: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::mutated;
/// use tapefuzz::generators::mutators::insert_element;
///
/// let longer = mutated(vecs(ints::<u8>(1..=9), 0..=4), insert_element(just(0u8)));
/// check(longer, |v: Vec<u8>| v.len() <= 5);
/// ```
pub fn insert_element<G: Gen>(element: G) -> InsertElement<G> {
    InsertElement(element)
}

impl<G: Gen> Mutator<Vec<G::Value>> for InsertElement<G> {
    fn mutate(
        &self,
        mut value: Vec<G::Value>,
        tape: &mut Tape<'_>,
    ) -> Result<Vec<G::Value>, Reject> {
        let i = position(tape, value.len() + 1)?;
        let e = tape.span(OPERAND, |t| self.0.generate(t))?;
        value.insert(i, e);
        Ok(value)
    }
}
