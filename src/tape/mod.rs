//! The choice tape: the vocabulary every other part of tapefuzz speaks.
//!
//! A generator turns a sequence of **choices** into a value. Each choice picks an index in
//! `0..=max` at a **choice point**; index 0 is always the simplest option. **Spans** group the
//! choices that made one part of the value (a list element, a field, a tree node), and a
//! [`Status`] says how a test case ended. A [`Source`] decides each choice: decoded bytes
//! ([`BytesSource`], libFuzzer's view), a seeded RNG ([`RandomSource`]) or a recorded sequence
//! ([`ReplaySource`]). The [`Tape`] sits between a generator and its source and records what
//! was drawn.
//!
//! This module depends on nothing else in the crate.
//!
//! # Byte encoding, version 3
//!
//! See [`encoding`]: a choice with `max + 1` options reads `ceil(bits(max) / 8)` bytes
//! big-endian, index = raw mod (max + 1); past the end, the stream reads as zeros, so a short
//! input is a simple value. Forced choices read no bytes. A payload run (byte vectors, text)
//! is a length, then the raw bytes; a length past the input's end reads as the rest of the
//! input. Versions 1 (no payload runs) and 2 (the same layout, text repaired by another
//! rule) are read by [`LegacySource`].

pub mod builtin;
mod bytes_source;
mod choice;
pub mod encoding;
mod fingerprint;
mod kind;
mod label;
mod legacy_source;
mod mixed;
mod random_source;
mod replay_source;
mod rng;
mod segment;
mod sized_source;
mod source;
mod span;
mod status;
#[allow(clippy::module_inception)]
mod tape;
mod trace;

pub use bytes_source::BytesSource;
pub use choice::Choice;
pub use encoding::ENCODING_VERSION;
pub use fingerprint::Fingerprint;
pub use kind::{Kind, NeighbourPart};
pub(crate) use label::mix as mix_hashes;
pub use label::{Label, PointId};
pub use legacy_source::LegacySource;
pub use mixed::{HashesMap, HashesSet, PassThrough};
pub use random_source::{RandomSource, coin_threshold};
pub use replay_source::{Fallback, ReplaySource};
pub use rng::Rng;
pub(crate) use segment::Segment;
pub use sized_source::SizedSource;
pub use source::{DrawContext, Hint, OpenSpan, Source};
pub use span::Span;
pub use status::{Reject, Status};
pub use tape::{DEFAULT_MAX_CHOICES, LegacyText, Recording, Shift, Tape, TextRun, ValueStep};
pub use trace::{Trace, TraceRoom};
