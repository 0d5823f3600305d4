//! Finite floating-point numbers.

use super::float_order::{self, Layout};
use super::{Gen, NoInverse, Reflection};
use crate::tape::{Hint, Label, Reject, Tape};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::ops::{Bound, RangeBounds};

const FLOAT: Label = crate::tape::builtin::FLOAT;
/// How many integers on each side of the simplest value come before the other floats.
const SMALL_SIDE: u64 = 1 << 16;
/// The largest amount [`Floats`] names a shift for ([`Tape::value_shift`]).
const SHIFT_MOST: f64 = (1 << 20) as f64;
/// 2^53: every integer up to it is an `f64`.
const MAX_PRECISE: f64 = 9_007_199_254_740_992.0;

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
    /// How many integers of the small region lie above and below the simplest value.
    up: u64,
    down: u64,
    _t: PhantomData<fn() -> T>,
}

/// Finite floats of type `T` in `range` (`..` for every finite value; NaN and infinities are
/// never generated; an excluded bound is never generated either).
///
/// Simplicity order: the value closest to 0.0 in the range; then the integers of the range
/// around it, alternating above and below (1, −1, 2, −2, …, up to 65,536 on each side, then
/// the rest of the longer side), as [`super::ints`] orders them; then every other float in
/// an order that puts short fractions first (after Hypothesis's float encoding): positive
/// before negative, by binade — `[0.5, 1)`, `[1, 2)`, `[2, 4)`, … up to the largest, then
/// `[0.25, 0.5)` down to the subnormals — and within a binade its integers first, then the
/// values with one fraction bit (`10.5`), then two (`10.25`, `10.75`), and so on. So a
/// failure that needs `x > 10` and a fraction shrinks to `10.5`, one that needs a negative
/// fraction to `-0.5`. Over a bounded range, a value of that order outside the range is
/// folded into it (the low bound plus its magnitude modulo the range's width). The last
/// indices (the codes of infinities and NaNs) are the ends of the range, the largest index
/// its high end. Every finite value of the range has an index. Running out:
/// the simplest value.
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
    let base = 0f64.clamp(lo, hi).trunc();
    let count = |d: f64| {
        if d >= 1.0 {
            d.min(SMALL_SIDE as f64) as u64
        } else {
            0
        }
    };
    Floats {
        lo,
        hi,
        full,
        up: count(hi - base),
        down: count(base - lo),
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

/// The field widths of `T`.
fn layout<T: Float>() -> Layout {
    if T::MAX_INDEX == u32::MAX as u64 {
        float_order::F32
    } else {
        float_order::F64
    }
}

impl<T: Float> Floats<T> {
    /// The simplest value, and the integer its neighbours count from.
    fn simplest(&self) -> (f64, f64) {
        let s = 0f64.clamp(self.lo, self.hi);
        (s, s.trunc())
    }

    /// The first index past the small integers around the simplest value.
    fn small_end(&self) -> u64 {
        1 + self.up + self.down
    }

    /// The value at index `i` of the simplicity order.
    pub fn value_at(&self, i: u64) -> T {
        let (s, base) = self.simplest();
        let (up, down) = (self.up, self.down);
        let n = 1 + up + down;
        if i == 0 {
            return T::from_f64(s);
        }
        if i < n {
            let both = up.min(down);
            let (above, k) = if i <= 2 * both {
                (i % 2 == 1, i.div_ceil(2))
            } else {
                (up > down, i - both)
            };
            return T::from_f64(if above {
                base + k as f64
            } else {
                base - k as f64
            });
        }
        let v = T::from_index_bits(float_order::bits_of_code(i - n, layout::<T>())).to_f64();
        if !v.is_finite() {
            // The exponent of infinities and NaNs (the last codes): an end of the range, by
            // the code's sign; the largest index is the largest value.
            let negative = v.is_sign_negative() && i != T::MAX_INDEX;
            return T::from_f64(if negative { self.lo } else { self.hi });
        }
        if self.full || (self.lo..=self.hi).contains(&v) {
            return T::from_f64(v);
        }
        let width = self.hi - self.lo;
        let folded = if width > 0.0 && width.is_finite() {
            self.lo + v.abs() % width
        } else {
            v
        };
        T::from_f64(folded.clamp(self.lo, self.hi))
    }

    /// An index whose value (in [`Floats::value_at`]) is `value`, bit for bit (`-0.0` is not
    /// `0.0`): the simplest value's, a small integer's, or else the value's place in the order
    /// of all floats (a bounded range's folded values may also sit at a smaller index).
    /// `None` for NaN, an infinity or a value outside the range.
    pub fn index_of(&self, value: T) -> Option<u64> {
        let v = value.to_f64();
        if !v.is_finite() || v < self.lo || v > self.hi {
            return None;
        }
        let bits = bits_of(value);
        let same = |i: u64| bits_of(self.value_at(i)) == bits;
        if same(0) {
            return Some(0);
        }
        let (_, base) = self.simplest();
        let (up, down) = (self.up, self.down);
        let n = 1 + up + down;
        let k = (v - base).abs();
        if v.fract() == 0.0 && (1.0..=SMALL_SIDE as f64).contains(&k) {
            let (k, above, both) = (k as u64, v > base, up.min(down));
            let i = if k <= both {
                2 * k - u64::from(above)
            } else {
                k + both
            };
            if i < n && same(i) {
                return Some(i);
            }
        }
        let i = n.checked_add(float_order::code_of_bits(bits, layout::<T>()))?;
        (i <= T::MAX_INDEX && same(i)).then_some(i)
    }
}

impl<T: Float> Floats<T> {
    /// For a fraction, the values 1, 2, 4, … (up to 2^20) units above it that are in range
    /// and exact ([`Tape::value_shift`]): index arithmetic does not move a fraction's value,
    /// so an amount moved into it from an earlier number needs these (Hypothesis's float
    /// pairs move such amounts by value); a larger amount moves in several steps.
    fn shift(&self, x: f64, tape: &mut Tape<'_>) {
        if x.fract() == 0.0 || !x.is_finite() || x.abs() >= MAX_PRECISE {
            return;
        }
        let mut d = 1.0f64;
        while d <= SHIFT_MOST {
            let y = x + d;
            // Exact in `f64`, and in `T` (an `f32` rounds where an `f64` need not).
            if y > self.hi || y - d != x || T::from_f64(y).to_f64() != y {
                return;
            }
            if let Some(j) = self.index_of(T::from_f64(y)) {
                tape.value_shift(d as u64, j);
            }
            d *= 2.0;
        }
    }

    /// Simpler values a shrinker should try for `x` ([`Tape::suggest`]), as Hypothesis's
    /// float shrinker tries them: first `x` itself where its own index is lower (a range's
    /// end reached from the last indices), then `x` with fewer fraction bits (rounded down, then up,
    /// to 0, 1, … 9 bits: `10.90403947465802` → `10.0`, `11.0`, `10.5`, …), then the same
    /// magnitude positive, then the integer part lowered with the fraction kept (`1234.5` →
    /// `0.5`, `1.5`, `2.5`, `4.5`, … `617.5` by halving, then `926.5`, … `1233.5` closing in from
    /// below; for a small integer, whose index orders it by magnitude, only its half). Each
    /// lies far below `x` in the order of indices only past many values that are not simpler
    /// in any way a person sees (longer fractions of smaller binades), so a
    /// search of the index range alone needs a call per bit.
    fn suggest(&self, x: f64, tape: &mut Tape<'_>) {
        let mut offer = |y: f64| {
            if y.is_finite()
                && let Some(j) = self.index_of(T::from_f64(y))
            {
                tape.suggest(j);
            }
        };
        // The same value at its own index: an end of a bounded range is also reached from
        // the last indices, and a small integer from the order of all floats.
        offer(x);
        if x.fract() != 0.0 {
            for p in 0..10 {
                let scale = f64::from(1u32 << p);
                let scaled = x * scale;
                offer(scaled.floor() / scale);
                offer(scaled.ceil() / scale);
            }
        }
        if x < 0.0 {
            offer(-x);
        }
        let (k, r) = (x.abs().trunc(), x.abs().fract());
        let sign = x.signum();
        // Past 2^53 every float is an integer and the halvings would number up to a
        // thousand: the index search is cheaper there.
        if !(1.0..=MAX_PRECISE).contains(&k) {
            return;
        }
        // A small integer's index already orders it by magnitude: the index search does
        // better than the halvings there; half of it is worth one call (in a sparse failing
        // set the search's first steps down all pass).
        if r == 0.0
            && self
                .index_of(T::from_f64(x))
                .is_some_and(|i| i < self.small_end())
        {
            offer(sign * (k / 2.0).floor());
            return;
        }
        offer(sign * r);
        // Smaller magnitudes first: halvings from the smallest up, then steps closing in on
        // `k` (for a failure above a threshold, the first that fails is close to it).
        let halvings: Vec<f64> = std::iter::successors(Some((k / 2.0).floor()), |&h| {
            (h >= 1.0).then(|| (h / 2.0).floor())
        })
        .collect();
        for &h in halvings.iter().rev() {
            offer(sign * (h + r));
        }
        for &h in &halvings {
            offer(sign * (k - h + r));
        }
    }
}

impl<T: Float> Gen for Floats<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let i = tape.draw(FLOAT, T::MAX_INDEX, Hint::Int)?;
        let v = self.value_at(i);
        if tape.wants_suggestions() && i > 0 {
            // The integers around the simplest value are ordered as `ints` orders them: one
            // step of value is two of index while they alternate sides. The fractions after
            // them have no such step.
            if i <= self.up + self.down {
                let alternating = i <= 2 * self.up.min(self.down);
                // The last index is the range's high end, not the far end of a side. These
                // indices hold integers: the magnitude is the value's (a count drawn as a
                // float matches the length it counts).
                let x = v.to_f64();
                let magnitude =
                    (x.fract() == 0.0 && x.abs() <= MAX_PRECISE).then(|| x.abs() as u64);
                tape.value_step(if alternating { 2 } else { 1 }, None, magnitude);
                // The other values (fractions, then wider integers) come after these.
                tape.value_order_ends(self.up + self.down);
            }
            self.suggest(v.to_f64(), tape);
            self.shift(v.to_f64(), tape);
        }
        Ok(v)
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
                    "{value:?} is not a finite value of {:?}..={:?}",
                    T::from_f64(self.lo),
                    T::from_f64(self.hi),
                )
            })),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::{Fallback, ReplaySource};

    #[test]
    fn the_integers_say_their_value_step_and_magnitude_and_the_fractions_nothing() {
        let steps = |g: &Floats<f64>, x: f64| {
            let mut src = ReplaySource::new(vec![g.index_of(x).unwrap()], Fallback::Simplest);
            let mut tape = Tape::recording(&mut src).with_suggestions();
            g.generate(&mut tape).unwrap();
            tape.finish().value_steps
        };
        // Both sides of zero: integers alternate (1, -1, 2, …); the magnitude is the value's;
        // the order of integers ends at the last one before the fractions.
        let step = |step, magnitude, end| {
            vec![crate::tape::ValueStep {
                at: 0,
                step,
                far_side: None,
                magnitude: Some(magnitude),
                end: Some(end),
            }]
        };
        assert_eq!(steps(&floats(..), -3.0), step(2, 3, 2 * SMALL_SIDE));
        // One side only: they count up, to 100.0 at index 100.
        assert_eq!(steps(&floats(0.0..=100.0), 7.0), step(1, 7, 100));
        // Past the shorter side, the longer side counts up (-2.0 and -1.0 among them).
        assert_eq!(steps(&floats(-2.0..=100.0), 50.0), step(1, 50, 102));
        // A fraction, and the simplest value: nothing said.
        assert!(steps(&floats(..), 10.5).is_empty());
        assert!(steps(&floats(..), 0.0).is_empty());
    }

    /// The values `g` suggests for `x` when a shrinker asks, in order.
    fn suggested(g: &Floats<f64>, x: f64) -> Vec<f64> {
        let mut src = ReplaySource::new(vec![g.index_of(x).unwrap()], Fallback::Simplest);
        let mut tape = Tape::recording(&mut src).with_suggestions();
        assert_eq!(g.generate(&mut tape).unwrap().to_bits(), x.to_bits());
        let rec = tape.finish();
        rec.suggested.iter().map(|&(_, i)| g.value_at(i)).collect()
    }

    #[test]
    fn suggestions_are_shorter_fractions_then_smaller_integer_parts() {
        let g = floats::<f64>(..);
        let s = suggested(&g, 10.90403947465802);
        assert_eq!(&s[..3], [10.0, 11.0, 10.5]);
        let s = suggested(&g, 1234.5);
        assert_eq!(&s[..5], [1234.0, 1235.0, 0.5, 1.5, 2.5]);
        assert!(s.contains(&617.5) && s.contains(&1233.5));
        assert!(suggested(&g, -2.5).contains(&2.5));
        // A small integer is left to the index search but for its half; the same value at a
        // lower index is suggested (a bounded range's end is also its last index).
        assert_eq!(suggested(&g, 122.0), [61.0]);
        let b = floats::<f64>(0.0..=100.0);
        let mut src = ReplaySource::new(vec![u64::MAX], Fallback::Simplest);
        let mut tape = Tape::recording(&mut src).with_suggestions();
        assert_eq!(b.generate(&mut tape).unwrap(), 100.0);
        assert_eq!(tape.finish().suggested, [(0, 100), (0, 50)]);
        // Nobody asked: nothing suggested.
        let mut src = ReplaySource::new(vec![g.index_of(10.75).unwrap()], Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        g.generate(&mut tape).unwrap();
        assert!(tape.finish().suggested.is_empty());
    }

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
        let tiny = f64::from_bits(1);
        assert_eq!(full.value_at(full.index_of(tiny).unwrap()), tiny);
        // Short fractions first, positive before negative.
        let at = |v: f64| full.index_of(v).unwrap();
        assert!(at(10.5) < at(10.25) && at(10.25) < at(10.000000000000002));
        assert!(at(1001.0) < at(1000.5000000000001));
        assert!(at(-0.5) < at(-1.5) && at(0.5) < at(-0.5));
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
