//! A constant.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Reject, Tape};

/// Always `value`; draws nothing.
#[derive(Clone, Debug)]
pub struct Just<T>(T);

/// Always `value` (cloned); draws no choice.
///
/// Reflects ([`Gen::reflect`]) only a value of a zero-sized type (`()`, a unit struct: it
/// has one value); for any other type it cannot tell whether the value is its constant (`T`
/// has no `PartialEq` bound here) and fails. To reflect a constant, compare it yourself:
/// `just(()).map_with(move |()| x.clone(), move |v| (v == &x).then_some(()))` for an `x`
/// that is `PartialEq`.
pub fn just<T: Clone>(value: T) -> Just<T> {
    Just(value)
}

impl<T: Clone> Gen for Just<T> {
    type Value = T;
    #[inline]
    fn generate(&self, _: &mut Tape<'_>) -> Result<T, Reject> {
        Ok(self.0.clone())
    }

    fn reflect(&self, _: &T, _: &mut Reflection) -> Result<(), NoInverse> {
        if std::mem::size_of::<T>() == 0 {
            return Ok(());
        }
        Err(NoInverse::of::<Self>(
            "`just` cannot tell whether the value is its constant (no `PartialEq` bound): \
             write `just(()).map_with(|()| x.clone(), |v| (v == &x).then_some(()))`",
        ))
    }
}
