//! Size bounds of collections and the "one more element?" loop they share.

use super::{NoInverse, Reflection};
use crate::tape::{Label, Reject, Tape};
use std::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

const ELEMENT: Label = crate::tape::builtin::ELEMENT;
const MORE: Label = crate::tape::builtin::MORE;
const MAX_MISSES: usize = 64;

/// Bounds on the number of elements of a collection, and the average a random source aims
/// for (by default `min(max(2·min, min + 5), (min + max) / 2)`, as Hypothesis does).
///
/// # How many elements a random source makes
///
/// Past `min`, each further element is one more "one more?" coin that comes up with
/// probability `p = e / (1 + e)`, where `e = average − min`: the length is `min` plus a
/// geometric number of extra elements, cut at `max`. So **the upper bound hardly matters**:
/// `0..=100`, `0..=1000` and `..` all average about **5** elements (a length of 20 or more
/// about 1 time in 40, 50 or more about 1 time in 10,000). Means measured over 200,000 random
/// test cases:
///
/// | size | `average` | mean length | longest seen |
/// |---|---:|---:|---:|
/// | `0..=5` | 2.5 | 2.03 | 5 |
/// | `0..=10` | 5 | 4.19 | 10 |
/// | `0..=20` | 5 | 4.87 | 20 |
/// | `0..=100`, `0..=1000`, `..` | 5 | 5.00 | 78 |
/// | `1..=100` | 6 | 5.98 | 76 |
/// | `10..=100` | 20 | 19.97 | 100 |
/// | `50..=100` | 75 | 71.5 | 100 |
/// | `0..=100` with `.average(20.0)` | 20 | 19.7 | 100 |
/// | `0..=100` with `.average(50.0)` | 50 | 43.0 | 100 |
/// | `5` (exactly) | 5 | 5 | 5 |
///
/// (The cut at `max` pulls the mean below `average` when `average` is near `max`.)
///
/// For more elements, **raise the minimum** (`10..=100` averages 20) or **set the average**
/// (`vecs(g, 0..=100).average(50.0)`, [`SizeRange::with_average`]): both keep the
/// simplest value and the shrinking of the bounds you give. This distribution is part of the
/// value a seed makes; it does not change between versions without a note (saved corpora
/// are tapes, so they replay whatever it is). Shrinking and enumeration ignore it: they
/// prefer fewer elements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizeRange {
    /// Fewest elements.
    pub min: usize,
    /// Most elements.
    pub max: usize,
    /// Average number of elements a random source aims for.
    pub average: f64,
}

impl SizeRange {
    /// Between `min` and `max` elements (inclusive).
    pub fn new(min: usize, max: usize) -> SizeRange {
        assert!(min <= max, "empty size range");
        let average = ((2 * min).max(min + 5) as f64).min((min as f64 + max as f64) / 2.0);
        SizeRange { min, max, average }
    }

    /// The same bounds aiming for `average` elements (clamped to the bounds).
    pub fn with_average(mut self, average: f64) -> SizeRange {
        self.average = average.clamp(self.min as f64, self.max as f64);
        self
    }

    /// Probability that a random source draws "one more" once `min` elements exist.
    pub(crate) fn p_more(&self) -> f64 {
        let extra = self.average - self.min as f64;
        if extra <= 0.0 {
            0.0
        } else {
            extra / (1.0 + extra)
        }
    }

    /// Draws elements: before each, a "one more?" boolean (forced `true` below `min`, forced
    /// `false` at `max`), the boolean and the element together in one span labelled
    /// `element`, so deleting the span deletes the element. `add` returns whether the element
    /// counted (a set's duplicate does not); after too many that do not, the test case is
    /// rejected. Running out: the boolean reads `false`, the collection ends (at `min`, with
    /// simplest elements).
    pub(crate) fn repeat(
        &self,
        tape: &mut Tape<'_>,
        mut add: impl FnMut(&mut Tape<'_>) -> Result<bool, Reject>,
    ) -> Result<(), Reject> {
        let p = self.p_more();
        let mut count = 0;
        let mut misses = 0;
        let fast = tape.is_fast();
        loop {
            let depth = tape.depth();
            if !fast {
                tape.start_span(ELEMENT);
            }
            let more = if count < self.min {
                tape.force_bool(MORE, true)
            } else if count >= self.max {
                tape.force_bool(MORE, false)
            } else {
                tape.draw_bool(MORE, p)
            };
            let step = match more {
                Ok(true) => add(tape),
                Ok(false) => {
                    tape.close_to(depth);
                    return Ok(());
                }
                Err(e) => Err(e),
            };
            if !fast {
                tape.close_to(depth);
            }
            if step? {
                count += 1;
            } else {
                misses += 1;
                if misses > MAX_MISSES + self.min {
                    return Err(tape.reject());
                }
            }
        }
    }
}

impl SizeRange {
    /// Fills `out` with elements of `element`, one `generate` per element (the general path
    /// of [`super::Gen::fill_vec`]).
    pub(crate) fn fill<G: super::Gen>(
        &self,
        element: &G,
        tape: &mut Tape<'_>,
        out: &mut Vec<G::Value>,
    ) -> Result<(), Reject> {
        self.repeat(tape, |t| {
            out.push(element.generate(t)?);
            Ok(true)
        })
    }
}

impl SizeRange {
    /// [`SizeRange::repeat`] run backwards ([`super::Gen::reflect`]) over `values`, each
    /// element's choices recorded by `each`: the "one more?" booleans that are drawn (not the
    /// forced ones: below `min`, at `max`) and the elements between them. A count outside
    /// the bounds is an error naming the collection generator `G`; an element's error gets
    /// the element's place (`[i]`) in its path.
    pub(crate) fn reflect<'v, G: ?Sized, T: 'v>(
        &self,
        values: impl ExactSizeIterator<Item = &'v T>,
        out: &mut Reflection,
        mut each: impl FnMut(&T, &mut Reflection) -> Result<(), NoInverse>,
    ) -> Result<(), NoInverse> {
        let len = values.len();
        self.check_len::<G>(len)?;
        for (i, v) in values.enumerate() {
            if i >= self.min {
                out.draw_bool(true);
            }
            each(v, out).map_err(|e| e.at(format!("[{i}]")))?;
        }
        if len < self.max {
            out.draw_bool(false);
        }
        Ok(())
    }

    /// Whether a collection of `len` elements is within the bounds; if not, an error naming
    /// the generator `G`.
    pub(crate) fn check_len<G: ?Sized>(&self, len: usize) -> Result<(), NoInverse> {
        if len < self.min || len > self.max {
            let range = if self.max == usize::MAX {
                format!("{}..", self.min)
            } else {
                format!("{}..={}", self.min, self.max)
            };
            return Err(NoInverse::of::<G>(format!(
                "{len} elements, outside its size range {range}"
            )));
        }
        Ok(())
    }
}

impl From<RangeInclusive<usize>> for SizeRange {
    fn from(r: RangeInclusive<usize>) -> SizeRange {
        SizeRange::new(*r.start(), *r.end())
    }
}
impl From<Range<usize>> for SizeRange {
    fn from(r: Range<usize>) -> SizeRange {
        assert!(r.start < r.end, "empty size range");
        SizeRange::new(r.start, r.end - 1)
    }
}
impl From<RangeFrom<usize>> for SizeRange {
    fn from(r: RangeFrom<usize>) -> SizeRange {
        SizeRange::new(r.start, usize::MAX)
    }
}
impl From<RangeTo<usize>> for SizeRange {
    fn from(r: RangeTo<usize>) -> SizeRange {
        SizeRange::from(0..r.end)
    }
}
impl From<RangeToInclusive<usize>> for SizeRange {
    fn from(r: RangeToInclusive<usize>) -> SizeRange {
        SizeRange::new(0, r.end)
    }
}
impl From<RangeFull> for SizeRange {
    fn from(_: RangeFull) -> SizeRange {
        SizeRange::new(0, usize::MAX)
    }
}
impl From<usize> for SizeRange {
    fn from(n: usize) -> SizeRange {
        SizeRange::new(n, n)
    }
}
