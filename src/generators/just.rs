//! A constant.

use super::Gen;
use crate::tape::{Reject, Tape};

/// Always `value`; draws nothing.
#[derive(Clone, Debug)]
pub struct Just<T>(T);

/// Always `value` (cloned); draws no choice.
pub fn just<T: Clone>(value: T) -> Just<T> {
    Just(value)
}

impl<T: Clone> Gen for Just<T> {
    type Value = T;
    fn generate(&self, _: &mut Tape<'_>) -> Result<T, Reject> {
        Ok(self.0.clone())
    }
}
