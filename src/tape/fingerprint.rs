//! A tape's fingerprint: a hash of the indices it drew, to count distinct test cases and to
//! recognise a test case run before.

use super::Choice;
use super::label::mix;

/// One step of the fingerprint: FxHash's rotate-xor-multiply over the indices drawn, from a
/// non-zero start (so leading zeros count). Draws alternate between two such lanes (even and
/// odd positions), which halves the serial multiply chain of a long tape — the chain, not
/// the arithmetic, is what costs on the hot path; [`Fingerprint::value`] joins the lanes and
/// mixes in the length.
#[inline(always)]
pub(super) fn print_step(fp: u64, index: u64) -> u64 {
    (fp.rotate_left(5) ^ index).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// The fingerprint lanes of an empty tape.
pub(super) const PRINT_START: [u64; 2] = [0x2545_f491_4f6c_dd1d, 0x9e37_79b9_7f4a_7c15];

/// The fingerprint of a tape with lanes `prints` after `drawn` choices.
#[inline]
pub(super) fn join(prints: [u64; 2], drawn: usize) -> u64 {
    mix(print_step(prints[0], prints[1]), drawn as u64)
}

/// [`crate::tape::Tape::fingerprint`] computed from recorded choices, one at a time: after
/// the choices a tape recorded, [`Fingerprint::value`] is the fingerprint that tape had.
///
/// A choice recorded as forced is not hashed (the draws before it decided it), except one of
/// a single option (`max == 0`), which a draw hashes like any other; so a tape that called
/// [`crate::tape::Tape::force`] with one option gets another fingerprint here than it had
/// (a miss, never a false match).
///
/// ```
/// use tapefuzz::tape::{Choice, Fingerprint, Label, PointId, RandomSource, Tape, Hint};
///
/// let mut src = RandomSource::new(7);
/// let mut tape = Tape::recording(&mut src);
/// for _ in 0..5 {
///     tape.draw(Label::new("x"), 99, Hint::Int).unwrap();
/// }
/// let seen = tape.fingerprint();
/// let rec = tape.finish();
/// let mut f = Fingerprint::new();
/// rec.choices.iter().for_each(|c| f.push(c));
/// assert_eq!(f.value(), seen);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    prints: [u64; 2],
    drawn: usize,
}

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint::new()
    }
}

impl Fingerprint {
    /// The fingerprint of an empty tape.
    pub const fn new() -> Fingerprint {
        Fingerprint {
            prints: PRINT_START,
            drawn: 0,
        }
    }

    /// Adds the next recorded choice.
    #[inline]
    pub fn push(&mut self, choice: &Choice) {
        if !choice.forced || choice.max == 0 {
            let lane = &mut self.prints[self.drawn & 1];
            *lane = print_step(*lane, choice.index);
        }
        self.drawn += 1;
    }

    /// How many choices were pushed.
    pub fn len(&self) -> usize {
        self.drawn
    }

    /// Whether no choice was pushed.
    pub fn is_empty(&self) -> bool {
        self.drawn == 0
    }

    /// The fingerprint of the choices pushed so far.
    #[inline]
    pub fn value(&self) -> u64 {
        join(self.prints, self.drawn)
    }
}
