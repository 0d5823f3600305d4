//! Vectors, deques, sets and maps with size bounds.
//!
//! All of them draw a "one more element?" boolean before each element (see
//! [`SizeRange`]): simplest is the fewest elements allowed, each simplest; a lower index on
//! a "more" boolean ends the collection earlier. Running out: the collection ends at its
//! minimum size with simplest elements.

use super::{Gen, Ints, NoInverse, Reflection, SizeRange, ints};
use crate::tape::{Reject, Tape};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::Hash;

/// Room for twice the elements a random source aims for: lengths are geometric, so about a
/// third of them pass the average, and one allocation is cheaper than a reallocation.
#[inline]
fn expected_len(size: &SizeRange) -> usize {
    ((2.0 * size.average) as usize)
        .max(size.min)
        .min(size.max)
        .min(1 << 12)
}

/// A collection's elements reflected in the order given ([`Gen::reflect`]).
fn reflect_in_order<'v, C: ?Sized, G: Gen>(
    element: &G,
    size: &SizeRange,
    values: impl ExactSizeIterator<Item = &'v G::Value>,
    out: &mut Reflection,
) -> Result<(), NoInverse>
where
    G::Value: 'v,
{
    size.reflect::<C, _>(values, out, |v, out| element.reflect(v, out))
}

/// A set's elements reflected in a canonical order: by their own choices, shortest and
/// then lowest first (simplest first), so the tape of a set does not depend on the order it
/// iterates in (a `HashSet`'s depends on its hasher). Generating them in that order inserts
/// each once: the same set.
fn reflect_canonical<'v, C: ?Sized, G: Gen>(
    element: &G,
    size: &SizeRange,
    values: impl ExactSizeIterator<Item = &'v G::Value>,
    out: &mut Reflection,
) -> Result<(), NoInverse>
where
    G::Value: 'v,
{
    size.check_len::<C>(values.len())?;
    // Each element's choices alone, from where the collection starts.
    let start = out.mark();
    let mut keyed = Vec::with_capacity(values.len());
    for (i, v) in values.enumerate() {
        element
            .reflect(v, out)
            .map_err(|e| e.at(format!("[{i}]")))?;
        keyed.push((out.since(start).to_vec(), v));
        out.rewind(start);
    }
    keyed.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| a.0.cmp(&b.0)));
    reflect_in_order::<C, G>(element, size, keyed.iter().map(|(_, v)| *v), out)
}

macro_rules! collection {
    ($(#[$doc:meta])* $name:ident, $ctor:ident, $out:ty, [$($bound:tt)*], |$c:ident, $v:ident| $push:expr, $new:expr, $reflect:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name<G> {
            element: G,
            size: SizeRange,
        }

        $(#[$doc])*
        pub fn $ctor<G: Gen>(element: G, size: impl Into<SizeRange>) -> $name<G> {
            $name { element, size: size.into() }
        }

        impl<G> $name<G> {
            /// Aims for `average` elements from a random source (bounds unchanged).
            pub fn average(mut self, average: f64) -> Self {
                self.size = self.size.with_average(average);
                self
            }
        }

        impl<G: Gen> Gen for $name<G> where G::Value: $($bound)* {
            type Value = $out;
            fn generate(&self, tape: &mut Tape<'_>) -> Result<$out, Reject> {
                let mut $c: $out = $new(expected_len(&self.size));
                self.size.repeat(tape, |t| {
                    let $v = self.element.generate(t)?;
                    Ok($push)
                })?;
                Ok($c)
            }

            fn reflect(&self, value: &$out, out: &mut Reflection) -> Result<(), NoInverse> {
                $reflect::<Self, G>(&self.element, &self.size, value.iter(), out)
            }
        }
    };
}

/// `Vec`s of elements from a generator, sized within bounds.
#[derive(Clone, Debug)]
pub struct Vecs<G> {
    element: G,
    size: SizeRange,
}

/// `Vec`s of elements from a generator, sized within bounds (`0..=10`, `1..`, `..`, `5`…;
/// see [`SizeRange`]).
///
/// A random source makes about **5 elements on average** whatever the upper bound
/// (`0..=100` included); a higher minimum or [`Vecs::average`] gives more (table on
/// [`SizeRange`]):
///
/// ```
/// use tapefuzz::prelude::*;
///
/// let short = vecs(ints::<u8>(..), 0..=100); // mean length about 5
/// let long = vecs(ints::<u8>(..), 0..=100).average(50.0); // about 43 (the cut at 100)
/// let at_least_ten = vecs(ints::<u8>(..), 10..=100); // about 20
/// # let _ = (short, long, at_least_ten);
/// ```
///
/// Simplest: `min` simplest elements. Running out: the vector ends at `min` elements.
pub fn vecs<G: Gen>(element: G, size: impl Into<SizeRange>) -> Vecs<G> {
    Vecs {
        element,
        size: size.into(),
    }
}

impl<G> Vecs<G> {
    /// Aims for `average` elements from a random source (bounds unchanged; clamped to them).
    /// The mean length is a little lower when `average` is near the maximum (see
    /// [`SizeRange`]).
    pub fn average(mut self, average: f64) -> Self {
        self.size = self.size.with_average(average);
        self
    }
}

impl<G: Gen> Gen for Vecs<G> {
    type Value = Vec<G::Value>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<G::Value>, Reject> {
        let mut out = Vec::with_capacity(expected_len(&self.size));
        self.element.fill_vec(tape, &self.size, &mut out)?;
        Ok(out)
    }

    fn reflect(&self, value: &Vec<G::Value>, out: &mut Reflection) -> Result<(), NoInverse> {
        self.element.reflect_vec(value, &self.size, out)
    }
}
collection!(
    /// `VecDeque`s of elements from a generator, sized within bounds.
    VecDeques, vec_deques, VecDeque<G::Value>, [Sized], |c, v| { c.push_back(v); true }, VecDeque::with_capacity, reflect_in_order);
collection!(
    /// `BTreeSet`s: duplicates do not count towards the size (too many reject the case).
    BTreeSets, btree_sets, BTreeSet<G::Value>, [Ord], |c, v| c.insert(v), |_| BTreeSet::new(), reflect_canonical);
collection!(
    /// `HashSet`s: duplicates do not count towards the size (too many reject the case).
    HashSets, hash_sets, HashSet<G::Value>, [Eq + Hash], |c, v| c.insert(v), HashSet::with_capacity, reflect_canonical);

/// Maps from a generator of `(key, value)` pairs: a duplicate key does not count towards the
/// size and keeps the first value.
///
/// No inverse ([`Gen::reflect`] fails): the entry generator reflects `(key, value)` pairs,
/// and a map holds its keys and values apart (a pair would have to be cloned out of it).
/// To shrink a map you hold, generate it from `vecs` of pairs with
/// [`map_with`](super::GenExt::map_with).
#[derive(Clone, Debug)]
pub struct BTreeMaps<G> {
    entry: G,
    size: SizeRange,
}

/// `BTreeMap`s from a generator of `(key, value)` pairs; see [`BTreeMaps`].
pub fn btree_maps<G: Gen>(entry: G, size: impl Into<SizeRange>) -> BTreeMaps<G> {
    BTreeMaps {
        entry,
        size: size.into(),
    }
}

impl<G: Gen<Value = (K, V)>, K: Ord, V> Gen for BTreeMaps<G> {
    type Value = BTreeMap<K, V>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<BTreeMap<K, V>, Reject> {
        let mut m = BTreeMap::new();
        self.size.repeat(tape, |t| {
            let (k, v) = self.entry.generate(t)?;
            Ok(match m.entry(k) {
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(v);
                    true
                }
                _ => false,
            })
        })?;
        Ok(m)
    }

    fn reflect(&self, _: &Self::Value, _: &mut Reflection) -> Result<(), NoInverse> {
        Err(no_map_inverse::<Self>())
    }
}

/// `HashMap`s from a generator of `(key, value)` pairs; duplicates and (no) inverse as
/// [`BTreeMaps`].
#[derive(Clone, Debug)]
pub struct HashMaps<G> {
    entry: G,
    size: SizeRange,
}

/// `HashMap`s from a generator of `(key, value)` pairs; see [`HashMaps`].
pub fn hash_maps<G: Gen>(entry: G, size: impl Into<SizeRange>) -> HashMaps<G> {
    HashMaps {
        entry,
        size: size.into(),
    }
}

impl<G: Gen<Value = (K, V)>, K: Eq + Hash, V> Gen for HashMaps<G> {
    type Value = HashMap<K, V>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<HashMap<K, V>, Reject> {
        let mut m = HashMap::new();
        self.size.repeat(tape, |t| {
            let (k, v) = self.entry.generate(t)?;
            Ok(match m.entry(k) {
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(v);
                    true
                }
                _ => false,
            })
        })?;
        Ok(m)
    }

    fn reflect(&self, _: &Self::Value, _: &mut Reflection) -> Result<(), NoInverse> {
        Err(no_map_inverse::<Self>())
    }
}

/// Why a map has no inverse (see [`BTreeMaps`]).
fn no_map_inverse<G>() -> NoInverse {
    NoInverse::of::<G>(
        "a map cannot be run backwards: its entry generator reflects `(key, value)` pairs, \
         which the map does not hold; generate it from `vecs` of pairs with `map_with`",
    )
}

/// Byte vectors: [`vecs`] of `u8`s (simplest: `min` zero bytes).
///
/// Every byte vector of every `u8` (this, `vecs(ints::<u8>(..), size)`,
/// `any::<Vec<u8>>()`) is one **payload run** on the tape: a length, then the raw bytes
/// ([`crate::tape::Tape::draw_payload`]), so libFuzzer's byte mutations (a magic number
/// copied in, a byte flipped) are mutations of the value itself, and an input that is
/// mostly payload reads as the payload (a length past the input's end is the rest of the
/// input). A random source makes the same lengths as any collection's (about 5 bytes
/// for `0..=100`; [`Vecs::average`] for more); the coverage-guided engines draw them from
/// the whole range. Shrinking deletes bytes and lowers them.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::tape::{BytesSource, Tape};
///
/// // Encoded: the length (two bytes for up to 4096), then the bytes themselves.
/// let mut src = BytesSource::new(&[0, 3, b'a', b'b', b'c', b'd']);
/// let v = bytes(0..=4096).generate(&mut Tape::new(&mut src, false)).unwrap();
/// assert_eq!(v, b"abc");
/// // A length past the end of the input is the rest of the input.
/// let mut src = BytesSource::new(&[0xff, 0xff, b'G', b'I', b'F']);
/// let v = bytes(0..=4096).generate(&mut Tape::new(&mut src, false)).unwrap();
/// assert_eq!(v, b"GIF");
/// ```
pub fn bytes(size: impl Into<SizeRange>) -> Vecs<Ints<u8>> {
    vecs(ints::<u8>(..), size)
}
