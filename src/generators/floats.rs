//! Finite floating-point numbers.

use super::Gen;
use crate::tape::{Hint, Label, Reject, Tape};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::ops::{Bound, RangeBounds};

const FLOAT: Label = crate::tape::builtin::FLOAT;
/// Indices below this are the small integers 0, 1, −1, 2, −2, … (±65,536).
const SMALL: u64 = 1 << 17;

/// `f32` or `f64`.
pub trait Float: Copy + Debug + PartialOrd + 'static {
    /// Largest index of a full-range choice (2^bits − 1).
    const MAX_INDEX: u64;
    /// Smallest finite value.
    const LOWEST: Self;
    /// Largest finite value.
    const HIGHEST: Self;
    /// The value with these bits (the low bits of `bits`).
    fn from_index_bits(bits: u64) -> Self;
    /// Conversion to f64.
    fn to_f64(self) -> f64;
    /// Conversion from f64 (rounding).
    fn from_f64(v: f64) -> Self;
    /// The next larger value of the type.
    fn next_up(self) -> Self;
    /// The next smaller value of the type.
    fn next_down(self) -> Self;
}

impl Float for f64 {
    const MAX_INDEX: u64 = u64::MAX;
    const LOWEST: f64 = f64::MIN;
    const HIGHEST: f64 = f64::MAX;
    fn from_index_bits(bits: u64) -> f64 {
        f64::from_bits(bits)
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn next_up(self) -> f64 {
        f64::next_up(self)
    }
    fn next_down(self) -> f64 {
        f64::next_down(self)
    }
}

impl Float for f32 {
    const MAX_INDEX: u64 = u32::MAX as u64;
    const LOWEST: f32 = f32::MIN;
    const HIGHEST: f32 = f32::MAX;
    fn from_index_bits(bits: u64) -> f32 {
        f32::from_bits(bits as u32)
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> f32 {
        v as f32
    }
    fn next_up(self) -> f32 {
        f32::next_up(self)
    }
    fn next_down(self) -> f32 {
        f32::next_down(self)
    }
}

/// Finite floats in a range; see [`floats`].
#[derive(Clone, Debug)]
pub struct Floats<T> {
    lo: f64,
    hi: f64,
    full: bool,
    _t: PhantomData<fn() -> T>,
}

/// Finite floats of type `T` in `range` (`..` for every finite value; NaN and infinities are
/// never generated; an excluded bound is never generated either).
///
/// Simplicity order: the value closest to 0.0 in the range, then small integers alternating
/// around it (1, −1, 2, −2, … up to ±65,536, those inside the range), then the rest: over the
/// full range, the float whose bit pattern is the index; over a bounded range, evenly spaced
/// from the low end to the high end. Running out: the simplest value.
///
/// Panics if the range is empty or has a non-finite bound.
pub fn floats<T: Float>(range: impl RangeBounds<T>) -> Floats<T> {
    let lo = match range.start_bound() {
        Bound::Included(v) => v.to_f64(),
        Bound::Excluded(v) => v.next_up().to_f64(),
        Bound::Unbounded => T::LOWEST.to_f64(),
    };
    let hi = match range.end_bound() {
        Bound::Included(v) => v.to_f64(),
        Bound::Excluded(v) => v.next_down().to_f64(),
        Bound::Unbounded => T::HIGHEST.to_f64(),
    };
    assert!(
        lo.is_finite() && hi.is_finite() && lo <= hi,
        "bad float range"
    );
    let full = lo == T::LOWEST.to_f64() && hi == T::HIGHEST.to_f64();
    Floats {
        lo,
        hi,
        full,
        _t: PhantomData,
    }
}

fn small_int(i: u64) -> f64 {
    let k = i.div_ceil(2) as f64;
    if i % 2 == 1 { k } else { -k }
}

impl<T: Float> Floats<T> {
    /// The value at index `i` of the simplicity order.
    pub fn value_at(&self, i: u64) -> T {
        let s = 0f64.clamp(self.lo, self.hi);
        if i < SMALL {
            let c = s.trunc() + small_int(i);
            if i == 0 || (self.lo..=self.hi).contains(&c) {
                return T::from_f64(if i == 0 { s } else { c });
            }
        }
        if self.full {
            let v = T::from_index_bits(i);
            if v.to_f64().is_finite() {
                v
            } else {
                T::from_f64(small_int(i % SMALL))
            }
        } else {
            let t = i as f64 / T::MAX_INDEX as f64;
            let v = self.lo * (1.0 - t) + self.hi * t;
            T::from_f64(v.clamp(self.lo, self.hi))
        }
    }
}

impl<T: Float> Gen for Floats<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let i = tape.draw(FLOAT, T::MAX_INDEX, Hint::Int)?;
        Ok(self.value_at(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplest_first() {
        let g = floats::<f64>(..);
        assert_eq!(g.value_at(0), 0.0);
        assert_eq!(g.value_at(1), 1.0);
        assert_eq!(g.value_at(2), -1.0);
        let g = floats::<f32>(2.5..=3.5);
        assert_eq!(g.value_at(0), 2.5);
        assert_eq!(g.value_at(1), 3.0);
        for i in [5u64, 1 << 20, u32::MAX as u64] {
            assert!((2.5..=3.5).contains(&g.value_at(i)));
        }
        let g = floats::<f64>(0.0..1.0);
        assert!(g.value_at(u64::MAX) < 1.0);
        let g = floats::<f32>(-1.0..1.0);
        assert!(g.value_at(u32::MAX as u64) < 1.0);
    }
}
