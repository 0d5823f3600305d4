//! A choice among mutators.

use super::Mutator;
use crate::tape::{Hint, Label, Reject, Tape};
use std::rc::Rc;

const CHOICE: Label = crate::tape::builtin::MUTATOR_CHOICE;
const VARIANT: Label = crate::tape::builtin::MUTATOR_VARIANT;

/// A type-erased mutator (cheap to clone), for [`choice`].
pub type BoxedMutator<T> = Rc<dyn Mutator<T>>;

/// Erases the type of a mutator, to list it in a [`choice`].
pub fn boxed<T, M: Mutator<T> + 'static>(mutator: M) -> BoxedMutator<T> {
    Rc::new(mutator)
}

/// See [`choice`].
pub struct MutatorChoice<T>(Vec<BoxedMutator<T>>);

impl<T> Clone for MutatorChoice<T> {
    fn clone(&self) -> Self {
        MutatorChoice(self.0.clone())
    }
}

impl<T> std::fmt::Debug for MutatorChoice<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MutatorChoice({} mutators)", self.0.len())
    }
}

/// One of several mutators, uniformly (Synthia's `Choice` feeding a `Mutate`). Draws the
/// mutator (a [`Kind::Union`](crate::tape::Kind::Union) choice, index `i` = the `i`-th
/// listed), then its decisions in a span `mutator.variant`#i. Simplest: the first listed
/// mutator's simplest mutation. Running out: the same. Panics if `mutators` is empty.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::mutated;
/// use tapefuzz::generators::mutators::{DeleteElement, Swap, boxed, choice};
///
/// let m = mutated(vecs(ints::<u8>(..), 0..=5), choice(vec![boxed(Swap), boxed(DeleteElement)]));
/// check(m, |v: Vec<u8>| v.len() <= 5);
/// ```
pub fn choice<T>(mutators: Vec<BoxedMutator<T>>) -> MutatorChoice<T> {
    assert!(!mutators.is_empty(), "choice needs at least one mutator");
    MutatorChoice(mutators)
}

impl<T> Mutator<T> for MutatorChoice<T> {
    fn mutate(&self, value: T, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let i = tape.draw(CHOICE, (self.0.len() - 1) as u64, Hint::Uniform)?;
        tape.span(VARIANT.indexed(i), |t| self.0[i as usize].mutate(value, t))
    }
}
