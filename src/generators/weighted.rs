//! Weighted unions of generators.

use super::{Boxed, Gen, NoInverse, Reflection};
use crate::tape::{Hint, Label, Reject, Tape};

const VARIANT: Label = crate::tape::builtin::WEIGHTED;
const CHOSEN: Label = crate::tape::builtin::VARIANT;

/// See [`weighted`].
#[derive(Clone, Debug)]
pub struct Weighted<T> {
    variants: Vec<Boxed<T>>,
    /// Cumulative weights: variant i owns indices `ends[i-1]..ends[i]`.
    ends: Vec<u64>,
}

/// One of several generators, variant i with probability `weight_i / Σ weights`.
///
/// The variant choice has `Σ weights` options, and variant i owns a block of `weight_i`
/// consecutive indices, so index 0 is the first listed variant. Simplicity order: the first
/// listed variant first, then that variant's order. Running out: the first variant's
/// simplest value. Panics if there is no variant or every weight is 0.
///
/// Reflects ([`Gen::reflect`]) as [`super::one_of`] does, through the first index of the
/// chosen variant's block.
pub fn weighted<T>(variants: Vec<(u32, Boxed<T>)>) -> Weighted<T> {
    let mut total = 0u64;
    let mut ends = Vec::new();
    let mut gens = Vec::new();
    for (w, g) in variants {
        if w == 0 {
            continue;
        }
        total += w as u64;
        ends.push(total);
        gens.push(g);
    }
    assert!(total > 0, "weighted needs a variant with a positive weight");
    Weighted {
        variants: gens,
        ends,
    }
}

impl<T> Gen for Weighted<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let total = *self.ends.last().expect("non-empty");
        let i = tape.draw(VARIANT, total - 1, Hint::Uniform)?;
        let v = self.ends.partition_point(|&end| end <= i);
        let variant = &self.variants[v];
        if tape.is_fast() {
            // No span to open: skip computing its label.
            return variant.generate(tape);
        }
        tape.span(CHOSEN.indexed(v as u64), |t| variant.generate(t))
    }

    fn reflect(&self, value: &T, out: &mut Reflection) -> Result<(), NoInverse> {
        let total = *self.ends.last().expect("non-empty");
        let ends = &self.ends;
        super::one_of::reflect_union::<Self, T>(&self.variants, value, out, |v| {
            (total - 1, if v == 0 { 0 } else { ends[v - 1] })
        })
    }
}
