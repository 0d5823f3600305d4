//! Dependent generation.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Label, Reject, Tape};

const OUTER: Label = crate::tape::builtin::FLAT_MAP_OUTER;
const INNER: Label = crate::tape::builtin::FLAT_MAP_INNER;

/// See [`super::GenExt::flat_map`]. The outer value's choices come first (span
/// `flat_map.outer`), then the inner generator's (span `flat_map.inner`). Simplest: the
/// simplest outer value, then the simplest inner value for it. Running out: both simplest.
/// No inverse ([`Gen::reflect`] fails naming it): the value does not say which outer value
/// made its generator.
#[derive(Clone, Debug)]
pub struct FlatMap<G, F> {
    outer: G,
    f: F,
}

impl<G, F> FlatMap<G, F> {
    pub(crate) fn new(outer: G, f: F) -> Self {
        FlatMap { outer, f }
    }
}

impl<G: Gen, H: Gen, F: Fn(G::Value) -> H> Gen for FlatMap<G, F> {
    type Value = H::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<H::Value, Reject> {
        let v = tape.span(OUTER, |t| self.outer.generate(t))?;
        let inner = (self.f)(v);
        tape.span(INNER, |t| inner.generate(t))
    }

    fn reflect(&self, _: &H::Value, _: &mut Reflection) -> Result<(), NoInverse> {
        Err(NoInverse::of::<Self>(
            "`flat_map` has no inverse: the value does not say which outer value made it",
        ))
    }
}
