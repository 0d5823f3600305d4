//! A generator whose choices sit in a span of the user's naming.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Label, Reject, Tape};

/// See [`super::GenExt::labelled`]. Same choices and order as the inner generator.
#[derive(Clone, Debug)]
pub struct Labelled<G> {
    inner: G,
    label: Label,
}

impl<G> Labelled<G> {
    pub(crate) fn new(inner: G, label: Label) -> Self {
        Labelled { inner, label }
    }
}

impl<G: Gen> Gen for Labelled<G> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        tape.span(self.label, |t| self.inner.generate(t))
    }

    fn reflect(&self, value: &G::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        self.inner.reflect(value, out)
    }
}
