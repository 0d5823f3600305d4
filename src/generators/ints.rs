//! Integers of every width, over any range.

use super::{Gen, NoInverse, Reflection, SizeRange};
use crate::tape::{Hint, Label, Reject, Tape};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::ops::{Bound, RangeBounds};

const INT: Label = crate::tape::builtin::INT;
const INT_HIGH: Label = crate::tape::builtin::INT_HIGH;

/// An integer type: maps to an order-preserving `u128` key.
pub trait Int: Copy + Debug + PartialOrd + 'static {
    /// Smallest value.
    const MIN: Self;
    /// Largest value.
    const MAX: Self;
    /// The zero of the type.
    const ZERO: Self;
    /// Order-preserving key.
    fn to_key(self) -> u128;
    /// Inverse of [`Int::to_key`].
    fn from_key(key: u128) -> Self;
}

macro_rules! unsigned {
    ($($t:ty)*) => {$(
        impl Int for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            const ZERO: Self = 0;
            #[inline] fn to_key(self) -> u128 { self as u128 }
            #[inline] fn from_key(key: u128) -> Self { key as $t }
        }
    )*};
}
macro_rules! signed {
    ($($t:ty)*) => {$(
        impl Int for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            const ZERO: Self = 0;
            #[inline] fn to_key(self) -> u128 { (self as i128 as u128) ^ (1 << 127) }
            #[inline] fn from_key(key: u128) -> Self { (key ^ (1 << 127)) as i128 as $t }
        }
    )*};
}
unsigned!(u8 u16 u32 u64 u128 usize);
signed!(i8 i16 i32 i64 i128 isize);

/// Integers in a range; see [`ints`].
#[derive(Clone, Debug)]
pub struct Ints<T> {
    lo: u128,
    hi: u128,
    simplest: u128,
    /// Values on each side of the simplest before one side runs out.
    both: u128,
    /// The range starts at its simplest value: index i is simply `lo + i`.
    ascending: bool,
    _t: PhantomData<fn() -> T>,
}

/// Integers of type `T` in `range` (`..` for every value).
///
/// Simplicity order: the value closest to zero inside the range first, then alternating
/// above and below it (0, 1, −1, 2, −2, … clipped to the range), then the rest of the longer
/// side outwards. Index `i` is the `i`-th value in that order. Ranges of up to 2^64 values
/// take one choice; wider ones (128-bit) two, high part first. Running out: the simplest
/// value. A random source favours small indices (a quarter below 256), spreads 12 draws in
/// 32 over every magnitude between (a `u64` below 2^16 about 42% of the time), and
/// takes the two ends of the range and, 1 draw in 32, the value it drew last over the same
/// range (two equal values, as a duplicate key needs); a third of the draws are uniform
/// (see [`crate::tape::RandomSource`]).
///
/// Panics if the range is empty.
pub fn ints<T: Int>(range: impl RangeBounds<T>) -> Ints<T> {
    let lo = match range.start_bound() {
        Bound::Included(&v) => v.to_key(),
        Bound::Excluded(&v) => v.to_key().checked_add(1).expect("empty integer range"),
        Bound::Unbounded => T::MIN.to_key(),
    };
    let hi = match range.end_bound() {
        Bound::Included(&v) => v.to_key(),
        Bound::Excluded(&v) => v.to_key().checked_sub(1).expect("empty integer range"),
        Bound::Unbounded => T::MAX.to_key(),
    };
    assert!(lo <= hi, "empty integer range");
    let simplest = T::ZERO.to_key().clamp(lo, hi);
    Ints {
        lo,
        hi,
        simplest,
        both: (simplest - lo).min(hi - simplest),
        ascending: simplest == lo,
        _t: PhantomData,
    }
}

impl<T: Int> Ints<T> {
    /// The value at index `i` of the simplicity order: `i` steps out from the simplest
    /// value, alternating above and below while both sides last, then on along the longer.
    #[inline]
    pub fn value_at(&self, i: u128) -> T {
        if self.ascending {
            return T::from_key(self.lo + i);
        }
        let (s, m) = (self.simplest, self.both);
        let key = if i > 2 * m {
            let t = i - 2 * m;
            if self.hi - s > s - self.lo {
                s + m + t
            } else {
                s - m - t
            }
        } else if i % 2 == 1 {
            s + i.div_ceil(2)
        } else {
            s - i / 2
        };
        T::from_key(key)
    }

    /// The index of `value` in the simplicity order (the inverse of [`Ints::value_at`]), or
    /// `None` when `value` is outside the range.
    pub fn index_of(&self, value: T) -> Option<u128> {
        let key = value.to_key();
        if key < self.lo || key > self.hi {
            return None;
        }
        if self.ascending {
            return Some(key - self.lo);
        }
        let (s, m) = (self.simplest, self.both);
        // Steps out from the simplest value: alternating while both sides last (above is
        // odd, below even), then one index per step along the longer side.
        Some(match key.cmp(&s) {
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater if key - s <= m => 2 * (key - s) - 1,
            std::cmp::Ordering::Less if s - key <= m => 2 * (s - key),
            std::cmp::Ordering::Greater => m + (key - s),
            std::cmp::Ordering::Less => m + (s - key),
        })
    }

    /// Tells the tape the value step at index `i` ([`Tape::value_step`]): two of index where
    /// the order alternates sides (above on odd indices, below on even), with the far end of
    /// the side the last index is not on (the shorter side's, or above when both are as
    /// long); one past the alternation; and the value's distance from zero.
    fn say_value_step(&self, tape: &mut Tape<'_>, i: u128) {
        let m = self.both;
        let zero = T::ZERO.to_key();
        let key = self.value_at(i).to_key();
        // A magnitude past `u64` says nothing: saturated, every such value would look alike.
        let magnitude = u64::try_from(key.abs_diff(zero)).ok();
        if self.ascending || m == 0 || i > 2 * m {
            tape.value_step(1, None, magnitude);
            return;
        }
        // The last index is on the longer side, below when both are as long (index 2m).
        let above_longer = self.hi - self.simplest > self.simplest - self.lo;
        let far = if above_longer { 2 * m } else { 2 * m - 1 };
        tape.value_step(2, u64::try_from(far).ok(), magnitude);
    }

    /// The range as a person writes it (`-5..=5`), for error messages.
    fn range_text(&self) -> String {
        format!("{:?}..={:?}", T::from_key(self.lo), T::from_key(self.hi))
    }
}

impl<T: Int> Gen for Ints<T> {
    type Value = T;
    #[inline(always)]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let span = self.hi - self.lo;
        let i = if span <= u64::MAX as u128 {
            let i = tape.draw(INT, span as u64, Hint::Int)?;
            if tape.wants_suggestions() {
                self.say_value_step(tape, i as u128);
            }
            i as u128
        } else {
            let high = tape.draw(INT_HIGH, (span >> 64) as u64, Hint::Int)? as u128;
            let low = tape.draw(INT, u64::MAX, Hint::Int)? as u128;
            let i = (high << 64) | low;
            if span == u128::MAX { i } else { i % (span + 1) }
        };
        Ok(self.value_at(i))
    }

    fn reflect(&self, value: &T, out: &mut Reflection) -> Result<(), NoInverse> {
        let Some(i) = self.index_of(*value) else {
            return Err(NoInverse::of::<Self>(format!(
                "{value:?} is outside its range {}",
                self.range_text()
            )));
        };
        let span = self.hi - self.lo;
        if span <= u64::MAX as u128 {
            out.draw(span as u64, i as u64);
        } else {
            out.draw((span >> 64) as u64, (i >> 64) as u64);
            out.draw(u64::MAX, i as u64);
        }
        Ok(())
    }

    fn reflect_vec(
        &self,
        values: &[T],
        size: &SizeRange,
        out: &mut Reflection,
    ) -> Result<(), NoInverse> {
        // As `fill_vec`: every `u8` is one payload run.
        if self.lo == 0
            && self.hi == 255
            && std::any::TypeId::of::<T>() == std::any::TypeId::of::<u8>()
        {
            size.check_len::<super::Vecs<Self>>(values.len())?;
            let bytes: Vec<u8> = values.iter().map(|v| v.to_key() as u8).collect();
            let name = super::no_inverse::short_type_name(std::any::type_name::<Self>());
            return out.payload(size.min, size.max, &bytes, &name);
        }
        size.reflect::<super::Vecs<Self>, _>(values.iter(), out, |v, out| self.reflect(v, out))
    }

    fn fill_vec(
        &self,
        tape: &mut Tape<'_>,
        size: &SizeRange,
        out: &mut Vec<T>,
    ) -> Result<(), Reject> {
        // Every `u8` (`bytes`, `vecs(ints::<u8>(..), _)`, `any::<Vec<u8>>()`): one payload
        // run, a length then the raw bytes.
        if self.lo == 0
            && self.hi == 255
            && std::any::TypeId::of::<T>() == std::any::TypeId::of::<u8>()
        {
            // SAFETY: `T` is `u8` (checked just above), so this is the same vector.
            let bytes = unsafe { &mut *(out as *mut Vec<T> as *mut Vec<u8>) };
            return tape.draw_payload(size.min, size.max, size.p_more(), bytes);
        }
        let span = self.hi - self.lo;
        if span <= u64::MAX as u128 {
            let (min, max, p) = (size.min, size.max, size.p_more());
            // The common ascending case (ranges from 0 up) without a branch per element.
            let lo = self.lo;
            // The elements below the minimum are certain: one allocation for them, not a
            // doubling series (capped: the minimum is the user's number).
            out.reserve(min.min(1 << 12));
            let fast = if self.ascending {
                fast_fill(tape, out, (min, max, p), span as u64, |i| {
                    T::from_key(lo + i as u128)
                })
            } else {
                fast_fill(tape, out, (min, max, p), span as u64, |i| {
                    self.value_at(i as u128)
                })
            };
            if let Some(r) = fast {
                return r;
            }
        }
        size.fill(self, tape, out)
    }
}

/// [`Tape::fast_repeat`] for a vector of integers (`size`: its minimum, maximum and "one
/// more?" probability), `value` making each element from its index. The elements go into
/// `out`'s spare capacity through a slice, so the loop keeps the slot count in a register
/// (a `push` reloads and stores the vector's length and checks its capacity per element);
/// any past that capacity go into a vector of their own, appended after.
#[inline(always)]
fn fast_fill<T>(
    tape: &mut Tape<'_>,
    out: &mut Vec<T>,
    size: (usize, usize, f64),
    max: u64,
    value: impl Fn(u64) -> T,
) -> Option<Result<(), Reject>> {
    let start = out.len();
    let spare = out.spare_capacity_mut();
    let mut written = 0;
    let mut rest = Vec::new();
    let each = |i: u64| {
        let v = value(i);
        match spare.get_mut(written) {
            Some(slot) => {
                slot.write(v);
                written += 1;
            }
            None => rest.push(v),
        }
    };
    let fast = tape.fast_repeat(size.0, size.1, size.2, max, Hint::Int, each);
    // SAFETY: the first `written` slots of the spare capacity were written just above, in
    // order, and nothing else touched `out` since.
    unsafe { out.set_len(start + written) };
    out.append(&mut rest);
    fast
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `g` tells the tape of the index of `v` (see [`Tape::value_step`]).
    fn said<T: Int>(g: &Ints<T>, v: T) -> Vec<crate::tape::ValueStep> {
        use crate::tape::{Fallback, ReplaySource};
        let i = g.index_of(v).unwrap();
        // A range of more than 2^64 values draws the high part first.
        let tape_of = if g.hi - g.lo > u64::MAX as u128 {
            vec![(i >> 64) as u64, i as u64]
        } else {
            vec![i as u64]
        };
        let mut src = ReplaySource::new(tape_of, Fallback::Simplest);
        let mut tape = Tape::recording(&mut src).with_suggestions();
        assert_eq!(g.generate(&mut tape), Ok(v));
        tape.finish().value_steps
    }

    #[test]
    fn the_value_step_and_the_far_end_of_the_other_side() {
        let one = |g: &Ints<i64>, v: i64| {
            let s = said(g, v);
            assert_eq!(s.len(), 1);
            (s[0].step, s[0].far_side.map(|f| g.value_at(f as u128)))
        };
        // Sides as long: the last index is the low end, the far side the high end.
        assert_eq!(one(&ints(-1000..=1000), -3), (2, Some(1000)));
        // The low side longer, by one (every i64), or by more.
        assert_eq!(one(&ints(i64::MIN..=i64::MAX), 5), (2, Some(i64::MAX)));
        assert_eq!(one(&ints(-1000..=10), 3), (2, Some(10)));
        assert_eq!(one(&ints(-1000..=10), -500), (1, None));
        // The high side longer: the far side is the low end.
        assert_eq!(one(&ints(-10..=1000), 4), (2, Some(-10)));
        assert_eq!(one(&ints(-10..=1000), 500), (1, None));
        // One side only: value order, at every index (the simplest value too).
        assert_eq!(one(&ints(0..=100), 7), (1, None));
        assert_eq!(one(&ints(-100..=-1), -1), (1, None));
        assert_eq!(one(&ints(-100..=-1), -50), (1, None));
        let i8s = ints::<i8>(..);
        let s = said(&i8s, -2)[0];
        assert_eq!(
            (s.step, s.far_side.map(|f| i8s.value_at(f as u128))),
            (2, Some(127))
        );
        // A range of more than 2^64 values takes two choices and says nothing.
        assert!(said(&ints::<i128>(..), 5).is_empty());
    }

    #[test]
    fn order_around_zero() {
        let g = ints::<i32>(-2..=4);
        let order: Vec<i32> = (0..7).map(|i| g.value_at(i)).collect();
        assert_eq!(order, vec![0, 1, -1, 2, -2, 3, 4]);
        let g = ints::<u8>(5..=7);
        assert_eq!(
            (0..3).map(|i| g.value_at(i)).collect::<Vec<_>>(),
            vec![5, 6, 7]
        );
        let g = ints::<i64>(..);
        // …, MAX, -MAX, MIN: the range's ends are the last three indices.
        assert_eq!(g.value_at(u64::MAX as u128), i64::MIN);
        assert_eq!(g.value_at(u64::MAX as u128 - 1), -i64::MAX);
        assert_eq!(g.value_at(u64::MAX as u128 - 2), i64::MAX);
        let g = ints::<i8>(-10..=-3);
        assert_eq!(g.value_at(0), -3);
        assert_eq!(g.value_at(7), -10);
    }

    #[test]
    fn index_of_inverts_value_at() {
        fn each<T: Int>(g: Ints<T>, indices: impl Iterator<Item = u128>) {
            for i in indices {
                let v = g.value_at(i);
                assert_eq!(g.index_of(v), Some(i), "{v:?}");
            }
        }
        each(ints::<i32>(-2..=4), 0..7);
        each(ints::<i32>(-9..=3), 0..13);
        each(ints::<u8>(5..=7), 0..3);
        each(ints::<i8>(..), 0..256);
        each(ints::<i8>(-10..=-3), 0..8);
        let g = ints::<i64>(..);
        each(
            g.clone(),
            (0..100).chain(u64::MAX as u128 - 100..=u64::MAX as u128),
        );
        each(
            ints::<i128>(..),
            [0, 1, 2, u128::MAX, u128::MAX - 1, 1 << 100].into_iter(),
        );
        each(ints::<u128>(3..), [0, 1, u128::MAX - 3].into_iter());
        assert_eq!(ints::<u8>(5..=7).index_of(8), None);
        assert_eq!(ints::<i32>(-2..=4).index_of(-3), None);
    }
}
