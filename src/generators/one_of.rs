//! Unions of generators.

use super::{Boxed, Gen};
use crate::tape::{Hint, Label, Reject, Tape};

const VARIANT: Label = crate::tape::builtin::ONE_OF;
const CHOSEN: Label = crate::tape::builtin::VARIANT;

/// See [`one_of`].
#[derive(Clone, Debug)]
pub struct OneOf<T>(Vec<Boxed<T>>);

/// One of several generators, uniformly. Simplicity order: the first listed variant first (a
/// variant choice, index i = the i-th generator), then that variant's order; the variant's
/// choices sit in a span `variant`#i. Running out: the first variant's simplest value.
/// Panics if `variants` is empty.
pub fn one_of<T>(variants: Vec<Boxed<T>>) -> OneOf<T> {
    assert!(!variants.is_empty(), "one_of needs at least one variant");
    OneOf(variants)
}

impl<T> Gen for OneOf<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let i = tape.draw(VARIANT, (self.0.len() - 1) as u64, Hint::Uniform)?;
        tape.span(CHOSEN.indexed(i), |t| self.0[i as usize].generate(t))
    }
}

/// `one_of![g1, g2, …]`: a union of generators of the same value type (boxing each).
#[macro_export]
macro_rules! one_of {
    ($($g:expr),+ $(,)?) => {
        $crate::generators::one_of(vec![$($crate::generators::GenExt::boxed($g)),+])
    };
}
