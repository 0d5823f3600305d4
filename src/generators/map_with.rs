//! Transforming values, with an inverse to run the transformation backwards.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Reject, Tape};

/// See [`super::GenExt::map_with`]: [`super::Map`] with an inverse. The inner generator's
/// choices, order and running-out behaviour (the same tapes make the same values as
/// `map(f)`); reflects a value `u` by reflecting `inverse(&u)` through the inner generator,
/// and fails naming this generator when the inverse returns `None`.
#[derive(Clone, Debug)]
pub struct MapWith<G, F, I> {
    inner: G,
    f: F,
    inverse: I,
}

impl<G, F, I> MapWith<G, F, I> {
    pub(crate) fn new(inner: G, f: F, inverse: I) -> Self {
        MapWith { inner, f, inverse }
    }
}

impl<G, U, F, I> Gen for MapWith<G, F, I>
where
    G: Gen,
    F: Fn(G::Value) -> U,
    I: Fn(&U) -> Option<G::Value>,
{
    type Value = U;

    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<U, Reject> {
        self.inner.generate(tape).map(&self.f)
    }

    fn reflect(&self, value: &U, out: &mut Reflection) -> Result<(), NoInverse> {
        match (self.inverse)(value) {
            Some(v) => self.inner.reflect(&v, out),
            None => Err(NoInverse::of::<Self>(
                "its inverse returned `None`: the function makes no such value",
            )),
        }
    }
}
