//! Replace: another value altogether.

use super::Mutator;
use crate::generators::Gen;
use crate::tape::{Label, Reject, Tape};

const OPERAND: Label = crate::tape::builtin::MUTATOR_OPERAND;

/// See [`replace`].
#[derive(Clone, Debug)]
pub struct Replace<G>(pub G);

/// Replaces the value by one from `with` (Synthia's `Replace`: a `just(0)` puts a zero
/// where a valid value was). Draws the replacement (span `mutator.operand`). Simplest: the
/// simplest replacement. Running out: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::mutated;
/// use tapefuzz::generators::mutators::replace;
///
/// let maybe_zero = mutated(ints::<u32>(1..=9), replace(just(0u32)));
/// check(maybe_zero, |x: u32| x <= 9);
/// ```
pub fn replace<G: Gen>(with: G) -> Replace<G> {
    Replace(with)
}

impl<G: Gen> Mutator<G::Value> for Replace<G> {
    fn mutate(&self, _: G::Value, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        tape.span(OPERAND, |t| self.0.generate(t))
    }
}
