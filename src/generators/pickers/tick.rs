//! Tick: running totals.

use super::steps;
use crate::generators::{Gen, SizeRange};
use crate::tape::{Label, Reject, Tape};

const START: Label = crate::tape::builtin::TICK_START;
const INCREMENT: Label = crate::tape::builtin::TICK_INCREMENT;

/// A value that can be moved by an amount ([`tick`]'s increments, the
/// [`Offset`](crate::generators::mutators::Offset) mutator). Integers wrap around (a
/// generator never panics on overflow); floats add.
pub trait Increment<By = Self> {
    /// `self` moved by `by`.
    fn increment(&self, by: &By) -> Self;
}

macro_rules! wrapping {
    ($($t:ty)*) => {$(
        impl Increment for $t {
            #[inline]
            fn increment(&self, by: &$t) -> $t {
                self.wrapping_add(*by)
            }
        }
    )*};
}
wrapping!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize);

impl Increment for f32 {
    fn increment(&self, by: &f32) -> f32 {
        self + by
    }
}
impl Increment for f64 {
    fn increment(&self, by: &f64) -> f64 {
        self + by
    }
}

/// See [`tick`].
#[derive(Clone, Debug)]
pub struct Tick<S, I> {
    start: S,
    increment: I,
    size: SizeRange,
}

/// Running totals (Synthia's `Tick`): a start value from `start`, then each value the
/// previous one moved by an increment from `increment` ([`Increment`]: integers wrap).
/// `size` bounds the number of values, as for [`vecs`](crate::generators::vecs).
///
/// **On the tape**: the start value (span `tick.start`, always drawn), then one element span
/// per value: its "one more?" coin and, from the second value on, its increment (span
/// `tick.increment`). Deleting an element deletes a value and its increment; the later
/// values all move by it.
///
/// **Simplicity order**: the fewest values (`size.min`), the simplest start, the simplest
/// increments (with `ints`, 0: every value equals the start). **Running out**: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::tick;
///
/// // Timestamps that never go backwards.
/// let stamps = tick(ints::<u64>(0..=1_000), ints::<u64>(0..=60), 1..=10);
/// check(stamps, |ts: Vec<u64>| ts.windows(2).all(|w| w[0] <= w[1]));
/// ```
pub fn tick<S, I>(start: S, increment: I, size: impl Into<SizeRange>) -> Tick<S, I>
where
    S: Gen,
    I: Gen,
    S::Value: Increment<I::Value> + Clone,
{
    Tick {
        start,
        increment,
        size: size.into(),
    }
}

impl<S, I> Gen for Tick<S, I>
where
    S: Gen,
    I: Gen,
    S::Value: Increment<I::Value> + Clone,
{
    type Value = Vec<S::Value>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<S::Value>, Reject> {
        let start = tape.span(START, |t| self.start.generate(t))?;
        let mut state = (Vec::new(), start);
        steps(
            &self.size,
            tape,
            &mut state,
            |_| true,
            |(out, current), t| {
                if !out.is_empty() {
                    let by = t.span(INCREMENT, |t| self.increment.generate(t))?;
                    *current = current.increment(&by);
                }
                out.push(current.clone());
                Ok(true)
            },
        )?;
        Ok(state.0)
    }
}
