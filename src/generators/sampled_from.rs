//! One of a list of values.

use super::Gen;
use crate::tape::{Hint, Label, Reject, Tape};

const PICK: Label = crate::tape::builtin::SAMPLED_FROM;

/// See [`sampled_from`].
#[derive(Clone, Debug)]
pub struct SampledFrom<T>(Vec<T>);

/// One of `values`, uniformly. Simplest: the first listed; index i is `values[i]`.
/// Running out: the first. Panics if `values` is empty.
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
}
