//! The generator trait and its conveniences.

use super::{Boxed, Filter, FlatMap, Labelled, Map, SizeRange, Step, WithNeighbour};
use crate::tape::{Label, Reject, Tape};
use std::rc::Rc;
use std::sync::Arc;

/// Builds a value from choices drawn on the tape. Object-safe: `dyn Gen<Value = T>` works.
pub trait Gen {
    /// The type of value generated.
    type Value;

    /// Draws the choices for one value. Fails with [`Reject::Invalid`] when a filter rejects
    /// it (the tape records where) or [`Reject::Overrun`] past the tape's size budget.
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Self::Value, Reject>;

    /// Appends a collection of values to `out`, drawn as [`SizeRange`] describes (a "one more?"
    /// boolean before each element). Same choices as calling [`Gen::generate`] per element;
    /// generators that are a single draw override it to run faster on the random fast path.
    fn fill_vec(
        &self,
        tape: &mut Tape<'_>,
        size: &SizeRange,
        out: &mut Vec<Self::Value>,
    ) -> Result<(), Reject>
    where
        Self: Sized,
    {
        size.fill(self, tape, out)
    }

    /// The character class this generator draws from, when it is exactly one (a
    /// [`super::CharClass`]): [`super::strings`] then draws its text as one payload run of
    /// UTF-8 bytes. `None` for every other generator.
    fn char_class(&self) -> Option<&super::CharClass> {
        None
    }
}

impl<G: Gen + ?Sized> Gen for &G {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        (**self).generate(tape)
    }
}

impl<G: Gen + ?Sized> Gen for Box<G> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        (**self).generate(tape)
    }
}

impl<G: Gen + ?Sized> Gen for Arc<G> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        (**self).generate(tape)
    }
}

impl<G: Gen + ?Sized> Gen for Rc<G> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        (**self).generate(tape)
    }
}

/// Conveniences for every [`Gen`].
pub trait GenExt: Gen + Sized {
    /// Applies `f` to every value. Same choices, same simplicity order.
    fn map<U, F: Fn(Self::Value) -> U>(self, f: F) -> Map<Self, F> {
        Map::new(self, f)
    }

    /// Generates a value, then a second one from a generator that depends on it (each in its
    /// own span, so both shrink).
    fn flat_map<H: Gen, F: Fn(Self::Value) -> H>(self, f: F) -> FlatMap<Self, F> {
        FlatMap::new(self, f)
    }

    /// Keeps values for which `keep` holds, trying up to [`super::FILTER_ATTEMPTS`] times
    /// before the test case is rejected.
    fn filter<F: Fn(&Self::Value) -> bool>(self, keep: F) -> Filter<Self, F> {
        Filter::new(self, keep)
    }

    /// Wraps every value's choices in a span labelled `name`, so the choice points inside get
    /// ids of their own.
    fn labelled(self, name: &'static str) -> Labelled<Self> {
        Labelled::new(self, Label::new(name))
    }

    /// Gives the generator a hand-written neighbourhood for simulated annealing (`sa`):
    /// `neighbour(&base, step)` returns a value near `base`, drawing its decisions from
    /// `step.tape()` (so that the result replays and shrinks). A neighbour of this span is
    /// always one such step, while the rest of the input keeps the constructed neighbourhood.
    ///
    /// On the tape a value is the wrapped generator's value followed by the steps taken from
    /// it (at most [`super::MAX_STEPS`]; a neighbour at the bound starts afresh). Random
    /// generation takes no step, so the distribution is the wrapped generator's.
    fn with_neighbour<F>(self, neighbour: F) -> WithNeighbour<Self, F>
    where
        F: Fn(&Self::Value, &mut Step<'_, '_>) -> Result<Self::Value, Reject>,
    {
        WithNeighbour::new(self, neighbour)
    }

    /// Type-erases the generator (cheap to clone).
    fn boxed(self) -> Boxed<Self::Value>
    where
        Self: 'static,
    {
        Boxed::new(self)
    }
}

impl<G: Gen> GenExt for G {}

/// The value `gen` builds from `bytes` decoded as a tape (libFuzzer's view): what a fuzz
/// target or a corpus replay sees. Past the end of `bytes` every choice is index 0.
pub fn value_from_bytes<G: Gen>(generator: &G, bytes: &[u8]) -> Result<G::Value, Reject> {
    let mut src = crate::tape::BytesSource::new(bytes);
    let mut tape = Tape::new(&mut src, false);
    generator.generate(&mut tape)
}
