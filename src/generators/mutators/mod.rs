//! Synthia's mutators on the tape: a valid value, slightly broken.
//!
//! In Synthia a *mutator* is a picker that receives an object, applies an elementary
//! transformation and returns the mutated object, so that a chain of pickers producing valid
//! inputs yields near-invalid ones. Here a [`Mutator`] draws every decision of its
//! transformation (where, by how much, which mutation) from the tape, and [`mutated`] wraps a
//! generator of valid values: a "mutate?" coin first, whose index 0 is **the unmutated
//! value**, then the base value, then the mutation. So a mutation that a failure does not
//! need shrinks away (the coin goes to 0), and one it needs shrinks to its simplest form.
//!
//! | Synthia | here | does |
//! |---|---|---|
//! | `Mutate` | [`mutated`] | applies a mutator to a generator's values |
//! | `Offset` | [`Offset`] ([`offset`]) | moves a number by an amount from a generator |
//! | `Replace` | [`Replace`] ([`replace`]) | replaces the value by one from a generator |
//! | `DeleteElement` | [`DeleteElement`] | removes one element of a list |
//! | `InsertElement` | [`InsertElement`] ([`insert_element`]) | inserts a generated element |
//! | `Swap` | [`Swap`] | swaps two elements of a list |
//! | `MutateElement` | [`MutateElement`] | mutates one element with another mutator |
//! | `Choice` of mutators | [`MutatorChoice`] ([`choice`]) | one of several mutators |
//!
//! A mutator that finds nothing to change (a list too short) returns the value unchanged
//! and draws nothing.
//!
//! ```
//! use tapefuzz::prelude::*;
//! use tapefuzz::generators::mutated;
//! use tapefuzz::generators::mutators::{DeleteElement, MutateElement, Swap, boxed, choice, offset};
//!
//! // Sorted lists, then lists that are almost sorted.
//! let sorted = vecs(ints::<i32>(-50..=50), 0..=8).map(|mut v| {
//!     v.sort();
//!     v
//! });
//! let near = mutated(
//!     sorted,
//!     choice(vec![
//!         boxed(Swap),
//!         boxed(DeleteElement),
//!         boxed(MutateElement(offset(ints::<i32>(-3..=3)))),
//!     ]),
//! );
//! check(near, |v: Vec<i32>| v.len() <= 8);
//! ```

mod choice;
mod delete_element;
mod insert_element;
mod mutate_element;
mod mutated;
mod offset;
mod replace;
mod swap;

pub use choice::{BoxedMutator, MutatorChoice, boxed, choice};
pub use delete_element::DeleteElement;
pub use insert_element::{InsertElement, insert_element};
pub use mutate_element::MutateElement;
pub use mutated::{Mutated, mutated};
pub use offset::{Offset, offset};
pub use replace::{Replace, replace};
pub use swap::Swap;

use crate::tape::{Hint, Label, Reject, Tape};

const POSITION: Label = crate::tape::builtin::MUTATOR_POSITION;

/// An elementary transformation of a value, whose decisions are drawn from the tape.
///
/// Implementations draw as any generator does (index 0 the simplest decision: the first
/// position, the simplest operand) so that the mutation replays and shrinks; one with
/// nothing to change returns the value as it is.
pub trait Mutator<T> {
    /// `value`, mutated.
    fn mutate(&self, value: T, tape: &mut Tape<'_>) -> Result<T, Reject>;
}

impl<T, M: Mutator<T> + ?Sized> Mutator<T> for &M {
    fn mutate(&self, value: T, tape: &mut Tape<'_>) -> Result<T, Reject> {
        (**self).mutate(value, tape)
    }
}

impl<T, M: Mutator<T> + ?Sized> Mutator<T> for std::rc::Rc<M> {
    fn mutate(&self, value: T, tape: &mut Tape<'_>) -> Result<T, Reject> {
        (**self).mutate(value, tape)
    }
}

/// A position in a list of `len > 0` elements: index `i` is position `i`.
fn position(tape: &mut Tape<'_>, len: usize) -> Result<usize, Reject> {
    Ok(tape.draw(POSITION, (len - 1) as u64, Hint::Uniform)? as usize)
}
