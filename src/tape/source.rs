//! Sources decide choices: the strategy side of the tape.

use super::{Choice, Label, PointId};

/// A hint from the generator about the distribution it would like from a random source.
/// Sources that do not sample (bytes, replay) ignore it; the index order never depends on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hint {
    /// Every index equally likely.
    Uniform,
    /// An integer-like choice: a random source may favour small indices and the extremes.
    Int,
    /// A boolean (`max == 1`) whose index 1 should come with this probability.
    Coin(f64),
    /// The length of a payload run ([`super::Tape::draw_payload`]) of at least `min`
    /// elements, as its index `length - min`. A random source draws a geometric number of
    /// extra elements, each with probability `p_more` (the distribution of a collection's
    /// "one more?" coins); a [`super::BytesSource`] clips the length to the bytes left in
    /// its input.
    Length {
        /// Probability of each further element past `min`.
        p_more: f64,
        /// Fewest elements.
        min: u64,
    },
}

/// An open span on the path from the root to the current draw.
#[derive(Clone, Copy, Debug)]
pub struct OpenSpan {
    /// The span's label.
    pub label: Label,
    /// Position of the first choice inside it (the choices before it opened it).
    pub start: usize,
    /// Hash of the path of labels down to and including this span.
    pub path: u64,
}

/// Everything a source may know about the choice it is asked to make.
#[derive(Clone, Copy, Debug)]
pub struct DrawContext<'a> {
    /// The stable id of the choice point.
    pub point: PointId,
    /// The label of the choice point.
    pub label: Label,
    /// Largest index allowed.
    pub max: u64,
    /// The distribution the generator would like.
    pub hint: Hint,
    /// Position of this choice in the tape.
    pub position: usize,
    /// The spans enclosing this choice, outermost first.
    pub path: &'a [OpenSpan],
    /// The choices recorded so far (empty when the tape does not record).
    pub choices: &'a [Choice],
}

/// Decides choices. Must return an index `<= ctx.max`.
pub trait Source {
    /// Chooses an index in `0..=ctx.max`.
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64;

    /// The source as a plain random source, if it is one and ignores the draw context: a
    /// non-recording tape then draws from it directly, skipping choice-point ids and spans
    /// (the hot path of random testing). Other sources keep the default `None`.
    fn as_random(&mut self) -> Option<&mut super::RandomSource> {
        None
    }

    /// Whether [`Source::as_random`] returns `Some` (asked first, without borrowing).
    fn is_random(&self) -> bool {
        false
    }

    /// Whether the source reads the draw context beyond `max` and `hint`. Sources that do not
    /// (bytes, replay) say `false`, and a non-recording tape then skips choice-point ids and
    /// spans for them, passing a context with an empty path and no choices.
    fn needs_context(&self) -> bool {
        true
    }

    /// Whether the source, though it does not need the draw context
    /// ([`Source::needs_context`] is `false`), follows the spans through
    /// [`Source::open_span`] and [`Source::close_span`]. A non-recording tape then keeps no
    /// span stack and computes no choice-point ids for it (a steering source's cheap path).
    fn follows_spans(&self) -> bool {
        false
    }

    /// A span labelled `label` opened; its first choice will be at `position`. Called only
    /// when [`Source::follows_spans`] says so and the tape does not pass the full context.
    fn open_span(&mut self, label: Label, position: usize) {
        let _ = (label, position);
    }

    /// The innermost open span closed; the next choice will be at `position`. Called as
    /// [`Source::open_span`] is, once for every span that closes.
    fn close_span(&mut self, position: usize) {
        let _ = position;
    }

    /// Appends the `len` bytes of a payload run to `out` in one call, each the index a
    /// [`Source::draw`] of a choice with largest index 255 and [`Hint::Int`] would give,
    /// and returns `true`; or returns `false` (appending nothing) to be asked byte by byte.
    /// Only asked by tapes that pass no draw context to this source (sources that ignore
    /// it: bytes, replay, random).
    fn fill_run(&mut self, len: usize, out: &mut Vec<u8>) -> bool {
        let _ = (len, out);
        false
    }

    /// The indices this source will give for the next draws (each clamped to its range),
    /// when it knows them in advance: asked by a generator on a tape that follows spans
    /// without the draw context ([`Source::follows_spans`]), right after it opened a span.
    /// A generator that drew those same indices before may then make the same draws from a
    /// log instead of running again, so a source that plans must also not depend on the
    /// spans inside the planned stretch. Default `None` (every source but `constrain`'s,
    /// which replays a held skeleton).
    fn planned(&self) -> Option<&[u64]> {
        None
    }

    /// For a reader of the byte encoding's version 1 ([`super::LegacySource`]): the element
    /// indices of a collection of `min..=max` elements, each with largest index
    /// `element_max`, read as version 1 laid it out (a "one more?" coin before each). Asked
    /// by [`super::Tape::draw_text`] before its run; every other source answers `None`.
    fn legacy_collection(&mut self, min: u64, max: u64, element_max: u64) -> Option<Vec<u64>> {
        let _ = (min, max, element_max);
        None
    }

    /// For a reader of the byte encoding's version 2 ([`super::LegacySource::of_version`]):
    /// the bytes of a text run of `bytes_min..=bytes_max` bytes, read as that version laid
    /// them out (a length, then the bytes: today's layout), which the string generator reads
    /// with that version's repair. Asked by [`super::Tape::draw_text`] before its run, after
    /// [`Source::legacy_collection`]; every other source answers `None`.
    fn legacy_text_bytes(&mut self, bytes_min: usize, bytes_max: usize) -> Option<Vec<u8>> {
        let _ = (bytes_min, bytes_max);
        None
    }
}

/// The pointer types a source is passed by: every method forwards to the pointee.
macro_rules! forward {
    ($($pointer:ty),*) => {$(
        impl<S: Source + ?Sized> Source for $pointer {
            fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
                (**self).draw(ctx)
            }
            fn as_random(&mut self) -> Option<&mut super::RandomSource> {
                (**self).as_random()
            }
            fn is_random(&self) -> bool {
                (**self).is_random()
            }
            fn needs_context(&self) -> bool {
                (**self).needs_context()
            }
            fn follows_spans(&self) -> bool {
                (**self).follows_spans()
            }
            fn open_span(&mut self, label: Label, position: usize) {
                (**self).open_span(label, position)
            }
            fn close_span(&mut self, position: usize) {
                (**self).close_span(position)
            }
            fn fill_run(&mut self, len: usize, out: &mut Vec<u8>) -> bool {
                (**self).fill_run(len, out)
            }
            fn planned(&self) -> Option<&[u64]> {
                (**self).planned()
            }
            fn legacy_collection(&mut self, min: u64, max: u64, element_max: u64) -> Option<Vec<u64>> {
                (**self).legacy_collection(min, max, element_max)
            }
            fn legacy_text_bytes(&mut self, bytes_min: usize, bytes_max: usize) -> Option<Vec<u8>> {
                (**self).legacy_text_bytes(bytes_min, bytes_max)
            }
        }
    )*};
}

forward!(&mut S, Box<S>);
