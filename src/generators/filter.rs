//! Rejection sampling with a bounded number of attempts.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Label, Reject, Tape};

/// How many values a [`Filter`] tries before it rejects the test case.
pub const FILTER_ATTEMPTS: usize = 100;

const ATTEMPT: Label = crate::tape::builtin::FILTER_ATTEMPT;

/// See [`super::GenExt::filter`]. Each attempt is a span `filter.attempt`, so the shrinker can
/// delete failed attempts. After [`FILTER_ATTEMPTS`] misses the tape records a rejection and
/// the test case is [`Reject::Invalid`]. Running out: the inner generator's simplest value,
/// which is kept if it passes, else the attempts go on (all simplest) and the case is rejected.
///
/// Reflects ([`Gen::reflect`]) a value the filter keeps as the inner generator's choices
/// (kept at the first attempt); a value it rejects is an error naming the filter.
#[derive(Clone, Debug)]
pub struct Filter<G, F> {
    inner: G,
    keep: F,
}

impl<G, F> Filter<G, F> {
    pub(crate) fn new(inner: G, keep: F) -> Self {
        Filter { inner, keep }
    }
}

impl<G: Gen, F: Fn(&G::Value) -> bool> Gen for Filter<G, F> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        for _ in 0..FILTER_ATTEMPTS {
            let v = tape.span(ATTEMPT, |t| self.inner.generate(t))?;
            if (self.keep)(&v) {
                return Ok(v);
            }
        }
        Err(tape.reject())
    }

    fn reflect(&self, value: &G::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        if !(self.keep)(value) {
            return Err(NoInverse::of::<Self>("the filter rejects the value"));
        }
        self.inner.reflect(value, out)
    }
}
