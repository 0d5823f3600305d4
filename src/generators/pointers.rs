//! `Box`, `Rc` and `Arc` of a generator's values.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Reject, Tape};
use std::marker::PhantomData;
use std::ops::Deref;

/// The values of a generator behind a pointer `P` (`Box<T>`, `Rc<T>`, `Arc<T>`): the
/// default generator of those types ([`any`](super::any)`::<Box<T>>()`). The inner
/// generator's choices, order and running-out behaviour, as `inner.map(Box::new)`; unlike a
/// `map`, it reflects ([`Gen::reflect`]): a pointer's value is reflected through the inner
/// generator.
pub struct Pointers<G, P> {
    inner: G,
    _p: PhantomData<fn() -> P>,
}

impl<G, P> Pointers<G, P> {
    /// `inner`'s values behind a `P`.
    pub fn new(inner: G) -> Self {
        Pointers {
            inner,
            _p: PhantomData,
        }
    }
}

impl<G: Clone, P> Clone for Pointers<G, P> {
    fn clone(&self) -> Self {
        Pointers::new(self.inner.clone())
    }
}

impl<G: std::fmt::Debug, P> std::fmt::Debug for Pointers<G, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Pointers").field(&self.inner).finish()
    }
}

impl<G, P> Gen for Pointers<G, P>
where
    G: Gen,
    P: From<G::Value> + Deref<Target = G::Value>,
{
    type Value = P;

    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<P, Reject> {
        self.inner.generate(tape).map(P::from)
    }

    fn reflect(&self, value: &P, out: &mut Reflection) -> Result<(), NoInverse> {
        self.inner.reflect(value, out)
    }
}
