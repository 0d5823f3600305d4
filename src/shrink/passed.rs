//! Test cases that ran without failing before a shrink began, so that a shrink candidate
//! repeating one is not run again.

use crate::tape::{Choice, Fingerprint, HashesSet, PointId};

/// Tapes longer than this are counted but never matched: a shrink candidate seldom repeats a
/// long tape of the generation phase, and each length kept costs a fingerprint lookup per
/// candidate.
const LONGEST: usize = 1 << 16;

/// How many rejected test cases are kept at most: a campaign whose inputs are mostly
/// invalid would otherwise keep a fingerprint for each (valid ones are kept anyway, to count
/// the distinct ones).
const MOST_REJECTED: usize = 1 << 16;

/// How many zeros past a candidate's end [`Passed::repeated`] reads: a tape that ends early
/// mostly ends within a few more choices (a list's "no more" coin, a string's length).
const ZEROS_AFTER: usize = 32;

/// Test cases that passed before the shrink (the generation phase's valid ones, and up to
/// 65,536 it rejected: [`Passed::insert_rejected`]), known by their tapes' fingerprints ([`crate::tape::Tape::fingerprint`]) and lengths. Hypothesis's
/// engine does the same with its tree of every run: a list its generation already found too
/// short to fail is not tried again when shrinking.
///
/// Give it to [`super::Shrinker::with_passed`]. A candidate whose recorded choices begin
/// with a passed tape's (same indices, same forced choices, then anything or nothing) would
/// make the same draws and stop at the same place, so it passes too and is not run; it is
/// counted as a run that did not improve, without a recording (a pass that learns from the
/// shape a candidate records runs it all the same). Only for a deterministic test:
/// a flaky one must not use it (a pass may have been luck). Fingerprints are 64-bit hashes:
/// two tapes that collide would make a candidate look passed when it was not, at a chance of
/// about one in 2^64 per pair.
///
/// ```
/// use tapefuzz::shrink::Passed;
///
/// let mut passed = Passed::new();
/// passed.insert(0x1234, 3);
/// assert!(passed.contains(0x1234));
/// assert_eq!(passed.len(), 1);
/// // Tapes longer than 65,536 choices are counted, never matched by a candidate.
/// passed.insert(0x5678, 1 << 20);
/// assert_eq!(passed.len(), 2);
/// // A rejected test case is known, not counted.
/// passed.insert_rejected(0x9abc, 2);
/// assert!(passed.contains(0x9abc));
/// assert_eq!(passed.len(), 2);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Passed {
    prints: HashesSet,
    /// Rejected ones (at most [`MOST_REJECTED`]), apart so that `prints` counts valid ones.
    rejected: HashesSet,
    /// Bit `n` is set when a tape of `n` choices passed.
    lengths: Vec<u64>,
}

impl Passed {
    /// No test case known.
    pub fn new() -> Passed {
        Passed::default()
    }

    /// Notes that the tape with this fingerprint, `len` choices long (forced ones included:
    /// [`crate::tape::Tape::drawn`]), passed. Past 65,536 choices it is counted but no
    /// candidate is matched against it.
    pub fn insert(&mut self, fingerprint: u64, len: usize) {
        self.prints.insert(fingerprint);
        self.note_length(len);
    }

    /// Notes that the tape with this fingerprint, `len` choices long, was rejected (an
    /// `assume!` or a filter: [`crate::tape::Status::Invalid`]), which the shrink treats as
    /// passing. Known but not counted ([`Passed::len`]); past 65,536 rejected tapes, or 65,536
    /// choices, ignored.
    pub fn insert_rejected(&mut self, fingerprint: u64, len: usize) {
        if self.rejected.len() < MOST_REJECTED && len <= LONGEST {
            self.rejected.insert(fingerprint);
            self.note_length(len);
        }
    }

    fn note_length(&mut self, len: usize) {
        if len > LONGEST {
            return;
        }
        let (word, bit) = (len / 64, len % 64);
        if self.lengths.len() <= word {
            self.lengths.resize(word + 1, 0);
        }
        self.lengths[word] |= 1 << bit;
    }

    /// Whether a tape with this fingerprint passed or was rejected.
    pub fn contains(&self, fingerprint: u64) -> bool {
        self.prints.contains(&fingerprint) || self.rejected.contains(&fingerprint)
    }

    /// How many distinct tapes passed (the rejected ones not counted).
    pub fn len(&self) -> usize {
        self.prints.len()
    }

    /// Whether none is known, passed or rejected (so it may be false while [`Passed::len`],
    /// which counts the passed ones only, is 0).
    pub fn is_empty(&self) -> bool {
        self.prints.is_empty() && self.rejected.is_empty()
    }

    fn has_length(&self, len: usize) -> bool {
        self.lengths
            .get(len / 64)
            .is_some_and(|w| w & (1 << (len % 64)) != 0)
    }

    /// The length of the passed tape that `choices` begin with, if one does. Past its end a
    /// candidate reads index 0 (as the shrink's replay falls back), so up to [`ZEROS_AFTER`]
    /// zeros after it count too.
    ///
    /// The first `recorded` choices are a recorded run's (the best tape's, before the
    /// candidate's first edit), so their forced flags are what a run makes; past them a flag
    /// was copied and may be wrong, and the replay skips forced choices: a fold that treats
    /// them as forced could match a tape that fed the same indices in another order, or one
    /// more. So the check stops at the first forced choice past `recorded` (a miss, never a
    /// false match: with every flag right, equal folds mean equal indices fed).
    pub(super) fn repeated(&self, choices: &[Choice], recorded: usize) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        let mut f = Fingerprint::new();
        if self.has_length(0) && self.contains(f.value()) {
            return Some(0);
        }
        let longest = self.lengths.len() * 64;
        let zero = Choice {
            point: PointId(0),
            max: u64::MAX,
            index: 0,
            forced: false,
            in_run: false,
        };
        let padded = choices
            .iter()
            .chain(std::iter::repeat_n(&zero, ZEROS_AFTER));
        for (i, c) in padded.take(longest).enumerate() {
            if c.forced && i >= recorded {
                return None;
            }
            f.push(c);
            if self.has_length(f.len()) && self.contains(f.value()) {
                return Some(f.len());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::{Fallback, Hint, Label, ReplaySource, Tape};

    fn recorded(indices: &[u64]) -> (u64, Vec<Choice>) {
        let mut src = ReplaySource::new(indices.to_vec(), Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        for _ in indices {
            tape.draw(Label::new("x"), 9, Hint::Uniform).unwrap();
        }
        let print = tape.fingerprint();
        (print, tape.finish().choices)
    }

    #[test]
    fn a_candidate_that_begins_with_a_passed_tape_is_known() {
        let mut passed = Passed::new();
        let (print, choices) = recorded(&[1, 2]);
        passed.insert(print, choices.len());
        assert_eq!(passed.repeated(&choices, 0), Some(2));
        let (_, longer) = recorded(&[1, 2, 3]);
        assert_eq!(passed.repeated(&longer, 0), Some(2));
        let (_, other) = recorded(&[1, 3]);
        assert_eq!(passed.repeated(&other, 0), None);
        let (_, shorter) = recorded(&[1]);
        assert_eq!(passed.repeated(&shorter, 0), None);
        // Past its end a candidate reads zeros.
        let (print, zeros) = recorded(&[3, 0, 0]);
        passed.insert(print, zeros.len());
        assert_eq!(passed.repeated(&zeros[..1], 0), Some(3));
    }

    #[test]
    fn a_copied_forced_flag_past_the_first_edit_stops_the_match() {
        // Generation passed `[0, 0, 3]` (a variant, then two draws). The best tape is the
        // other variant, `[1, forced 0, 3, 4]` (a fixed-length run: its length forced);
        // lowering the variant copies the forced flag, which the replay then skips, so the
        // run reads `3, 4` as the first variant's draws: not the passed tape.
        let mut passed = Passed::new();
        let (print, choices) = recorded(&[0, 0, 3]);
        passed.insert(print, choices.len());
        let c = |index: u64, forced: bool| Choice {
            point: PointId(0),
            max: if forced { 0 } else { 9 },
            index,
            forced,
            in_run: false,
        };
        let candidate = [c(0, false), c(0, true), c(3, false), c(4, false)];
        assert_eq!(
            passed.repeated(&candidate, 4),
            Some(3),
            "the fold alone matches"
        );
        assert_eq!(passed.repeated(&candidate, 0), None);
    }
}
