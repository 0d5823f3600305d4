//! One of a list of values.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Hint, Label, Reject, Tape};

const PICK: Label = crate::tape::builtin::SAMPLED_FROM;

/// See [`sampled_from`].
#[derive(Clone, Debug)]
pub struct SampledFrom<T>(Vec<T>);

/// One of `values`, uniformly. Simplest: the first listed; index i is `values[i]`.
/// Running out: the first. Panics if `values` is empty.
///
/// No inverse ([`Gen::reflect`] fails): `T` has no `PartialEq` bound here, so a value
/// cannot be found among `values`. To reflect, pick an index and map it with
/// [`map_with`](super::GenExt::map_with):
/// `ints::<usize>(0..values.len()).map_with(move |i| values[i].clone(), move |v| values.iter().position(|x| x == v))`
/// (the same choice, an index in `0..values.len()`: the same tapes make the same values;
/// only a random source's distribution differs, uniform here, small indices favoured there).
pub fn sampled_from<T: Clone>(values: impl Into<Vec<T>>) -> SampledFrom<T> {
    let values = values.into();
    assert!(!values.is_empty(), "sampled_from needs at least one value");
    SampledFrom(values)
}

impl<T: Clone> Gen for SampledFrom<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let i = tape.draw(PICK, (self.0.len() - 1) as u64, Hint::Uniform)?;
        Ok(self.0[i as usize].clone())
    }

    fn reflect(&self, _: &T, _: &mut Reflection) -> Result<(), NoInverse> {
        Err(NoInverse::of::<Self>(
            "`sampled_from` cannot find the value among its values (no `PartialEq` bound): \
             write `ints::<usize>(0..n).map_with(|i| values[i].clone(), \
             |v| values.iter().position(|x| x == v))`",
        ))
    }
}
