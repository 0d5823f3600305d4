//! Transforming values.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Reject, Tape};

/// See [`super::GenExt::map`]: the inner generator's choices, order and running-out behaviour.
/// No inverse ([`Gen::reflect`] fails naming it): [`super::MapWith`] has one.
#[derive(Clone, Debug)]
pub struct Map<G, F> {
    inner: G,
    f: F,
}

impl<G, F> Map<G, F> {
    pub(crate) fn new(inner: G, f: F) -> Self {
        Map { inner, f }
    }
}

impl<G: Gen, U, F: Fn(G::Value) -> U> Gen for Map<G, F> {
    type Value = U;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<U, Reject> {
        self.inner.generate(tape).map(&self.f)
    }

    fn reflect(&self, _: &U, _: &mut Reflection) -> Result<(), NoInverse> {
        Err(NoInverse::of::<Self>(
            "`map` has no inverse: give one with `map_with(f, inverse)`",
        ))
    }
}
