//! Finite floating-point numbers.

use super::{Gen, NoInverse, Reflection};
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

/// The bits of `v` as [`Float::from_index_bits`] reads them (`f32`: the low 32 bits).
fn bits_of<T: Float>(v: T) -> u64 {
    // Exact: an `f32` widens to `f64` and back without change, `-0.0` included.
    if T::MAX_INDEX == u32::MAX as u64 {
        u64::from((v.to_f64() as f32).to_bits())
    } else {
        v.to_f64().to_bits()
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

impl<T: Float> Floats<T> {
    /// The smallest index whose value (in [`Floats::value_at`]) is `value`, bit for bit
    /// (`-0.0` is not `0.0`), or `None` when no index makes it: NaN, an infinity, a value
    /// outside the range, a subnormal whose bit pattern is below the small integers' indices
    /// (full range), a value off the grid of evenly spaced values (bounded range).
    pub fn index_of(&self, value: T) -> Option<u64> {
        let v = value.to_f64();
        let bits = bits_of(value);
        let same = |i: u64| bits_of(self.value_at(i)) == bits;
        if !v.is_finite() || v < self.lo || v > self.hi {
            return None;
        }
        // The simplest value and the small integers around it.
        if same(0) {
            return Some(0);
        }
        let k = v - 0f64.clamp(self.lo, self.hi).trunc();
        if k.fract() == 0.0 && k.abs() <= (SMALL / 2) as f64 && k != 0.0 {
            let i = if k > 0.0 {
                2 * k as u64 - 1
            } else {
                2 * (-k) as u64
            };
            if i < SMALL && same(i) {
                return Some(i);
            }
        }
        if self.full {
            return (bits >= SMALL && same(bits)).then_some(bits);
        }
        // Bounded: values rise with the index (evenly spaced, rounded), so the first index
        // at or above `value` is found by bisection, then the few that round to it are
        // tried in order.
        let lerp = |i: u64| {
            let t = i as f64 / T::MAX_INDEX as f64;
            T::from_f64((self.lo * (1.0 - t) + self.hi * t).clamp(self.lo, self.hi)).to_f64()
        };
        let (mut a, mut b) = (0u64, T::MAX_INDEX);
        while a < b {
            let mid = a + (b - a) / 2;
            if lerp(mid) < v {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        let start = a.saturating_sub(64);
        (start..=a.saturating_add(1 << 14).min(T::MAX_INDEX)).find(|&i| same(i))
    }
}

impl<T: Float> Gen for Floats<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let i = tape.draw(FLOAT, T::MAX_INDEX, Hint::Int)?;
        Ok(self.value_at(i))
    }

    fn reflect(&self, value: &T, out: &mut Reflection) -> Result<(), NoInverse> {
        match self.index_of(*value) {
            Some(i) => {
                out.draw(T::MAX_INDEX, i);
                Ok(())
            }
            None => Err(NoInverse::of::<Self>(if self.full {
                format!("{value:?} is not a finite value it makes")
            } else {
                format!(
                    "{value:?} is not one of the values it makes in {:?}..={:?} \
                     (the simplest, small integers, and 2^{} evenly spaced values)",
                    T::from_f64(self.lo),
                    T::from_f64(self.hi),
                    T::MAX_INDEX.count_ones()
                )
            })),
        }
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

    #[test]
    fn index_of_finds_an_index_of_each_value() {
        let full = floats::<f64>(..);
        for v in [
            0.0,
            -0.0,
            1.0,
            -3.0,
            65536.0,
            0.5,
            1e300,
            -2.5e-300,
            f64::MAX,
            f64::MIN,
        ] {
            let i = full.index_of(v).unwrap();
            assert_eq!(full.value_at(i).to_bits(), v.to_bits(), "{v}");
        }
        assert_eq!(full.index_of(3.0), Some(5));
        assert_eq!(full.index_of(f64::NAN), None);
        assert_eq!(full.index_of(f64::INFINITY), None);
        assert_eq!(full.index_of(f64::from_bits(1)), None);
        let g = floats::<f32>(..);
        for v in [0.0f32, 7.0, -0.25, f32::MAX, 1e-38, -1e-40] {
            let i = g.index_of(v).unwrap();
            assert_eq!(g.value_at(i).to_bits(), v.to_bits(), "{v}");
        }
        for g in [
            floats::<f64>(2.5..=3.5),
            floats::<f64>(0.0..1.0),
            floats::<f64>(-1e9..=-3.0),
        ] {
            for i in [0u64, 1, 2, 5, 1 << 20, 1 << 40, 1 << 63, u64::MAX - 7] {
                let v = g.value_at(i);
                let j = g.index_of(v).expect("an index");
                assert!(j <= i, "{v}");
                assert_eq!(g.value_at(j).to_bits(), v.to_bits(), "{v}");
            }
        }
        let g = floats::<f32>(-1.0..1.0);
        for i in [0u64, 3, 1 << 20, u32::MAX as u64] {
            let v = g.value_at(i);
            assert_eq!(g.value_at(g.index_of(v).unwrap()).to_bits(), v.to_bits());
        }
        assert_eq!(floats::<f64>(0.0..=1.0).index_of(2.0), None);
    }
}
