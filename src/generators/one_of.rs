//! Unions of generators.

use super::{Boxed, Gen, NoInverse, Reflection};
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
///
/// Reflects ([`Gen::reflect`]) a value through the first variant, in the order listed, that
/// reflects it; fails when none does, with each variant's reason.
pub fn one_of<T>(variants: Vec<Boxed<T>>) -> OneOf<T> {
    assert!(!variants.is_empty(), "one_of needs at least one variant");
    OneOf(variants)
}

impl<T> Gen for OneOf<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let i = tape.draw(VARIANT, (self.0.len() - 1) as u64, Hint::Uniform)?;
        let variant = &self.0[i as usize];
        if tape.is_fast() {
            // No span to open: skip computing its label.
            return variant.generate(tape);
        }
        tape.span(CHOSEN.indexed(i), |t| variant.generate(t))
    }

    fn reflect(&self, value: &T, out: &mut Reflection) -> Result<(), NoInverse> {
        let max = (self.0.len() - 1) as u64;
        reflect_union::<Self, T>(&self.0, value, out, |i| (max, i as u64))
    }
}

/// A union's reflection: the first of `variants` that reflects `value`, behind the choice
/// `choice(i)` (its largest index and the index of variant `i`); else an error naming `U`
/// with every variant's reason.
pub(crate) fn reflect_union<U: ?Sized, T>(
    variants: &[Boxed<T>],
    value: &T,
    out: &mut Reflection,
    choice: impl Fn(usize) -> (u64, u64),
) -> Result<(), NoInverse> {
    reflect_first::<U, T>(variants.len(), value, out, choice, |i, v, out| {
        variants[i].reflect(v, out)
    })
}

/// [`reflect_union`] over `count` variants that `reflect(i, …)` reflects through.
pub(crate) fn reflect_first<U: ?Sized, T>(
    count: usize,
    value: &T,
    out: &mut Reflection,
    choice: impl Fn(usize) -> (u64, u64),
    reflect: impl Fn(usize, &T, &mut Reflection) -> Result<(), NoInverse>,
) -> Result<(), NoInverse> {
    let mut why = Vec::new();
    for i in 0..count {
        let mark = out.mark();
        let (max, index) = choice(i);
        out.draw(max, index);
        match reflect(i, value, out) {
            Ok(()) => return Ok(()),
            Err(e) => {
                why.push(format!("variant {i}: {}", super::no_inverse::clipped(&e)));
                out.rewind(mark);
            }
        }
    }
    Err(NoInverse::of::<U>(format!(
        "no variant makes the value ({})",
        why.join("; ")
    )))
}

/// `one_of![g1, g2, …]`: a union of generators of the same value type, a
/// [`Union`](crate::generators::Union) of 1 to 24 generators (for more, or a list built at
/// run time, [`one_of`](crate::generators::one_of) over boxed generators: the same choices).
#[macro_export]
macro_rules! one_of {
    ($($g:expr),+ $(,)?) => {
        $crate::generators::Union::new(($($g,)+))
    };
}
