//! Arms: the options a learner chooses between for one choice.
//!
//! A choice with up to [`EXACT`] options gets one arm per index. A wider one gets buckets, so
//! a learner over a `u64` still has few arms and learns: indices 0..8 keep an arm each, and
//! every further arm holds the indices of one bit length (8..=15, 16..=31, …, clipped to the
//! choice's `max`). Since index 0 is the simplest value and integers are ordered 0, 1, −1, 2,
//! −2 …, a bucket is a band of magnitudes. The index inside a bucket is drawn uniformly.

use crate::tape::Rng;

/// Choices with at most this many options get an arm per index.
pub const EXACT: u64 = 32;

/// Indices below this keep an arm each in a bucketed choice.
const SMALL: u64 = 8;

/// How the indices `0..=max` of one choice map to arms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arms {
    max: u64,
}

impl Arms {
    /// The arms of a choice with largest index `max`.
    #[inline]
    pub fn of(max: u64) -> Arms {
        Arms { max }
    }

    fn bucketed(&self) -> bool {
        self.max >= EXACT
    }

    /// How many arms there are (at most 69).
    #[inline]
    pub fn count(&self) -> usize {
        self.arm(self.max) + 1
    }

    /// The arm that holds `index`.
    #[inline]
    pub fn arm(&self, index: u64) -> usize {
        if !self.bucketed() || index < SMALL {
            index as usize
        } else {
            // 8..=15 → 8, 16..=31 → 9, …: bit length 4 is arm 8.
            (64 - index.leading_zeros()) as usize + 4
        }
    }

    /// The indices of `arm`, as an inclusive range.
    pub fn range(&self, arm: usize) -> (u64, u64) {
        if !self.bucketed() || (arm as u64) < SMALL {
            return (arm as u64, arm as u64);
        }
        let bits = arm as u32 - 4;
        let lo = 1u64 << (bits - 1);
        let hi = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        (lo, hi.min(self.max))
    }

    /// An index of `arm`, uniform within it.
    #[inline]
    pub fn index(&self, arm: usize, rng: &mut Rng) -> u64 {
        let (lo, hi) = self.range(arm);
        if lo == hi {
            lo
        } else {
            lo + rng.below_or_eq(hi - lo)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_choices_have_an_arm_per_index() {
        let a = Arms::of(10);
        assert_eq!(a.count(), 11);
        for i in 0..=10 {
            assert_eq!(a.arm(i), i as usize);
            assert_eq!(a.range(i as usize), (i, i));
        }
    }

    #[test]
    fn wide_choices_are_bucketed_by_bit_length() {
        let a = Arms::of(u64::MAX);
        assert_eq!(a.count(), 69);
        assert_eq!(a.arm(7), 7);
        assert_eq!(a.arm(8), 8);
        assert_eq!(a.arm(15), 8);
        assert_eq!(a.arm(16), 9);
        assert_eq!(a.range(68), (1 << 63, u64::MAX));
        let b = Arms::of(40);
        assert_eq!(b.count(), 11);
        assert_eq!(b.range(10), (32, 40));
        // Every index lies in the range of its arm, and every arm's range is inside 0..=max.
        let mut rng = Rng::new(3);
        for max in [32u64, 33, 100, 1000, u64::MAX] {
            let a = Arms::of(max);
            for _ in 0..1000 {
                let i = rng.below_or_eq(max);
                let (lo, hi) = a.range(a.arm(i));
                assert!(lo <= i && i <= hi && hi <= max);
                let arm = rng.below_or_eq(a.count() as u64 - 1) as usize;
                let j = a.index(arm, &mut rng);
                assert_eq!(a.arm(j), arm);
            }
        }
    }
}
