//! Reflections: the choices a generator would draw to build a given value.

use super::derived::ReflectFrame;
use super::{Gen, NoInverse};
use crate::tape::{Fallback, Reject, ReplaySource, Tape};

/// The choices that make a given value, found by running a generator backwards
/// ([`Gen::reflect`], after Goldstein et al., "Reflecting on Random Generation", ICFP 2023):
/// the indices of the **unforced** choices the generator draws to build the value, in draw
/// order — what a [`ReplaySource`] replays. Replaying them
/// ([`Reflection::source`], [`Reflection::replay`]) regenerates the value.
///
/// A reflection mirrors what [`Tape`] does with each draw: a choice with one option
/// (largest index 0) and a forced choice ask the source nothing, so they are not recorded;
/// a payload run ([`Tape::draw_payload`], the bytes of a byte vector or a string) is its
/// length's index then one index per byte ([`Reflection::payload`]). Spans and labels do
/// not matter to a replay and are not kept.
///
/// Where a generator could make the value in several ways, `reflect` picks the simplest it
/// finds: the first variant of a union that makes it, a leaf before a branch, the smallest
/// size budget of a derived recursive type. So the reflection of a value is a good place to
/// start shrinking from ([`Property::shrink_value`](crate::property::Property::shrink_value)).
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::Reflection;
///
/// let g = vecs(ints::<i32>(-10..=10), 0..=5);
/// let r = Reflection::of(&g, &vec![3, -1]).unwrap();
/// // "one more?" yes, 3 (index 5: 0, 1, -1, 2, -2, 3), yes, -1 (index 2), no more.
/// assert_eq!(r.indices(), &[1, 5, 1, 2, 0]);
/// assert_eq!(r.replay(&g), Ok(vec![3, -1]));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reflection {
    indices: Vec<u64>,
    /// Branches counted so far, as [`Tape::nodes`] counts them while generating.
    nodes: usize,
    /// The size budget of a derived recursive value being reflected
    /// ([`super::derived::reflect_node`]).
    pub(crate) frame: ReflectFrame,
}

/// A point to come back to in a [`Reflection`] ([`Reflection::mark`],
/// [`Reflection::rewind`]): what a union does before it tries a variant that may not make
/// the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReflectionMark {
    len: usize,
    nodes: usize,
    frame: ReflectFrame,
}

impl Reflection {
    /// An empty reflection.
    pub fn new() -> Reflection {
        Reflection::default()
    }

    /// The choices `generator` draws to make `value`, or why there are none.
    pub fn of<G: Gen + ?Sized>(generator: &G, value: &G::Value) -> Result<Reflection, NoInverse> {
        let mut out = Reflection::new();
        generator.reflect(value, &mut out)?;
        Ok(out)
    }

    /// A choice with largest index `max` that takes `index`, as [`Tape::draw`] draws it:
    /// recorded only when `max > 0` (a choice with one option asks the source nothing). An
    /// `index` above `max` is a bug of the caller: a replay would take it modulo `max + 1`.
    #[inline]
    pub fn draw(&mut self, max: u64, index: u64) {
        debug_assert!(index <= max, "reflected index {index} > max {max}");
        if max > 0 {
            self.indices.push(index);
        }
    }

    /// A boolean choice ([`Tape::draw_bool`]: index 1 is `true`).
    #[inline]
    pub fn draw_bool(&mut self, value: bool) {
        self.indices.push(u64::from(value));
    }

    /// A payload run of `bytes` with `min..=max` bytes allowed, as [`Tape::draw_payload`]
    /// (and the text of [`Tape::draw_text`] from a replay) draws it: the length's index
    /// (`bytes.len() - min`, not recorded when `min == max`: the tape forces it), then one
    /// index per byte. `bytes` of a length outside `min..=max` is an error naming
    /// `generator`.
    pub fn payload(
        &mut self,
        min: usize,
        max: usize,
        bytes: &[u8],
        generator: &str,
    ) -> Result<(), NoInverse> {
        let len = bytes.len();
        if len < min || len > max {
            return Err(NoInverse::new(
                generator,
                format!("{len} bytes, outside the {min}..={max} it draws"),
            ));
        }
        self.draw((max - min) as u64, (len - min) as u64);
        self.indices.extend(bytes.iter().map(|&b| u64::from(b)));
        Ok(())
    }

    /// Counts one branch of a recursive structure and returns the count so far, as
    /// [`Tape::count_node`] does while generating (a [`Recursive`](super::Recursive)
    /// generator stops branching at its `max_nodes`, read from this count).
    pub fn count_node(&mut self) -> usize {
        self.nodes += 1;
        self.nodes
    }

    /// Branches counted so far ([`Reflection::count_node`]).
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Where the reflection is now, to come back to with [`Reflection::rewind`].
    pub fn mark(&self) -> ReflectionMark {
        ReflectionMark {
            len: self.indices.len(),
            nodes: self.nodes,
            frame: self.frame,
        }
    }

    /// Forgets everything recorded since `mark` was taken (the choices, the branches
    /// counted and any derived size budget opened since).
    pub fn rewind(&mut self, mark: ReflectionMark) {
        self.indices.truncate(mark.len);
        self.nodes = mark.nodes;
        self.frame = mark.frame;
    }

    /// The indices recorded since `mark` was taken.
    pub fn since(&self, mark: ReflectionMark) -> &[u64] {
        &self.indices[mark.len.min(self.indices.len())..]
    }

    /// The indices, in draw order.
    pub fn indices(&self) -> &[u64] {
        &self.indices
    }

    /// Sets the index recorded at `position` (a choice recorded before the choices that
    /// decide it, such as the size budget of a derived recursive value).
    pub(crate) fn set(&mut self, position: usize, index: u64) {
        self.indices[position] = index;
    }

    /// The indices recorded between two marks.
    pub(crate) fn between(&self, from: ReflectionMark, to: ReflectionMark) -> &[u64] {
        &self.indices[from.len..to.len]
    }

    /// Removes what was recorded between two marks (the choices, the branches counted and
    /// those of a derived size budget), keeping what came after.
    pub(crate) fn cut(&mut self, from: ReflectionMark, to: ReflectionMark) {
        self.indices.drain(from.len..to.len);
        self.nodes -= to.nodes - from.nodes;
        self.frame.uncount(to.frame, from.frame);
    }

    /// Forgets one branch counted with [`Reflection::count_node`].
    pub(crate) fn uncount_node(&mut self) {
        self.nodes -= 1;
    }

    /// Number of indices recorded.
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// Whether no index is recorded (a value made without choices, or nothing reflected
    /// yet).
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// The indices, in draw order.
    pub fn into_indices(self) -> Vec<u64> {
        self.indices
    }

    /// A source that replays the indices, then answers index 0 ([`Fallback::Simplest`]).
    pub fn source(&self) -> ReplaySource {
        ReplaySource::new(self.indices.clone(), Fallback::Simplest)
    }

    /// The value `generator` makes of these indices (on a tape that does not record): for a
    /// reflection of `generator` itself, the value reflected.
    pub fn replay<G: Gen + ?Sized>(&self, generator: &G) -> Result<G::Value, Reject> {
        let mut src = self.source();
        let mut tape = Tape::new(&mut src, false);
        generator.generate(&mut tape)
    }
}
