//! The generator trait and its conveniences.

use super::{
    Boxed, Filter, FlatMap, Labelled, Map, MapWith, NoInverse, Reflection, SizeRange, Step,
    WithNeighbour,
};
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

    /// Runs the generator backwards: records in `out` the choices [`Gen::generate`] would
    /// draw to build `value` ([`Reflection`]: the unforced choices' indices, in draw order),
    /// so that replaying them regenerates `value`. Where several tapes make the value, the
    /// simplest the generator finds (the first variant of a union that makes it, a leaf
    /// before a branch).
    ///
    /// Fails with [`NoInverse`] naming the generator when it has no inverse (`map`:
    /// use [`GenExt::map_with`]; `flat_map`; any generator that does not implement this
    /// method, the default) or the value is not one it makes (out of range, rejected by a
    /// filter, outside the size bounds). On failure `out` may hold a part of the choices:
    /// take a [`Reflection::mark`] and [`Reflection::rewind`] to it to try something else.
    ///
    /// Implementations draw exactly what `generate` draws: a choice with one option or a
    /// forced one is not recorded ([`Reflection::draw`] skips it), a payload run is its
    /// length then its bytes ([`Reflection::payload`]).
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    /// use tapefuzz::generators::Reflection;
    ///
    /// let g = (ints::<u8>(..), option(bools()));
    /// let mut r = Reflection::new();
    /// g.reflect(&(7, Some(true)), &mut r).unwrap();
    /// assert_eq!(r.indices(), &[7, 1, 1]);
    /// assert_eq!(r.replay(&g), Ok((7, Some(true))));
    /// ```
    fn reflect(&self, value: &Self::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        let _ = (value, out);
        Err(NoInverse::of::<Self>(
            "this generator cannot be run backwards (it does not implement `Gen::reflect`)",
        ))
    }

    /// [`Gen::reflect`] for the elements of a collection drawn by [`Gen::fill_vec`] with
    /// `size`: the "one more?" booleans (not the forced ones) and each element's choices.
    /// Generators that override `fill_vec` with other draws (every `u8`: a payload run)
    /// override this to match.
    fn reflect_vec(
        &self,
        values: &[Self::Value],
        size: &SizeRange,
        out: &mut Reflection,
    ) -> Result<(), NoInverse>
    where
        Self: Sized,
    {
        size.reflect::<Self, _>(values.iter(), out, |v, out| self.reflect(v, out))
    }
}

impl<G: Gen + ?Sized> Gen for &G {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        (**self).generate(tape)
    }
    fn reflect(&self, value: &G::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        (**self).reflect(value, out)
    }
}

impl<G: Gen + ?Sized> Gen for Box<G> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        (**self).generate(tape)
    }
    fn reflect(&self, value: &G::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        (**self).reflect(value, out)
    }
}

impl<G: Gen + ?Sized> Gen for Arc<G> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        (**self).generate(tape)
    }
    fn reflect(&self, value: &G::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        (**self).reflect(value, out)
    }
}

impl<G: Gen + ?Sized> Gen for Rc<G> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        (**self).generate(tape)
    }
    fn reflect(&self, value: &G::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        (**self).reflect(value, out)
    }
}

/// Conveniences for every [`Gen`].
pub trait GenExt: Gen + Sized {
    /// Applies `f` to every value. Same choices, same simplicity order. Has no inverse
    /// ([`Gen::reflect`] fails naming it): use [`GenExt::map_with`] to give one.
    fn map<U, F: Fn(Self::Value) -> U>(self, f: F) -> Map<Self, F> {
        Map::new(self, f)
    }

    /// Applies `f` to every value, as [`GenExt::map`] does (same choices, same simplicity
    /// order, the same tapes make the same values), with `inverse` to run it backwards:
    /// `inverse(&u)` is a value `t` of this generator with `f(t) == u`, or `None` when `f`
    /// makes no such `u`. With it the mapped generator reflects ([`Gen::reflect`]: a value
    /// is reflected by reflecting `inverse(value)`), so
    /// [`Property::shrink_value`](crate::property::Property::shrink_value) and failing
    /// explicit examples can shrink its values; a plain `map` cannot.
    ///
    /// The inverse is trusted: one that returns a `t` with `f(t) != u` makes a reflection
    /// that replays to another value (`shrink_value` checks and says so). `None` is a
    /// [`NoInverse`] naming this generator.
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    /// use tapefuzz::generators::Reflection;
    ///
    /// // Even numbers, as twice a number.
    /// let evens = ints::<i32>(-1000..=1000)
    ///     .map_with(|x| 2 * x, |&y: &i32| (y % 2 == 0).then_some(y / 2));
    /// let r = Reflection::of(&evens, &-8).unwrap();
    /// assert_eq!(r.replay(&evens), Ok(-8));
    /// // Odd numbers are not in its image.
    /// assert!(Reflection::of(&evens, &7).is_err());
    /// ```
    fn map_with<U, F, I>(self, f: F, inverse: I) -> MapWith<Self, F, I>
    where
        F: Fn(Self::Value) -> U,
        I: Fn(&U) -> Option<Self::Value>,
    {
        MapWith::new(self, f, inverse)
    }

    /// Generates a value, then a second one from a generator that depends on it (each in its
    /// own span, so both shrink). Has no inverse ([`Gen::reflect`] fails): the value made
    /// does not say which outer value it came from.
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
