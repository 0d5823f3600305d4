//! One recorded decision.

use super::PointId;

/// A decision: index `index` out of `0..=max` at choice point `point`. Index 0 is the simplest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    /// Where the choice was made.
    pub point: PointId,
    /// The largest index allowed (`n - 1` for `n` options; `u64::MAX` for 2^64 options).
    pub max: u64,
    /// The index chosen.
    pub index: u64,
    /// The generator had only one option here: recorded, never mutated, not encoded as bytes.
    pub forced: bool,
    /// A byte of a payload run ([`super::Tape::draw_payload`]): the encoding keeps it even
    /// when it and everything after it are zeros, because a bytes source clips a run's
    /// length to the input's end.
    pub in_run: bool,
}
