//! `Num`: the numbers a constrained value's integers are — `i64` when concrete, [`Open`]
//! while the filter constrains them — and `nums`, their generator.

use super::Open;
use super::order;
use super::session;
use crate::generators::Gen;
use crate::tape::{Hint, Reject, Tape, builtin};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::ops::{Add, Mul, RangeInclusive, Sub};

/// The integers of a constrained value's type, and of its validity filter: write the filter
/// once, generically over `N: Num`, and it runs on concrete values (`i64`) and on open ones
/// ([`Open`]) alike. Comparisons (`<`, `<=`, `==`, `partial_cmp`), adding and subtracting
/// constants keep an open value open; see [`Open`] for what does not. Every `Num` has a
/// default generator ([`crate::generators::Generate`]), so types generic over `N: Num` can
/// derive theirs.
///
/// ```
/// use tapefuzz::generators::constrained::Num;
///
/// fn ordered<N: Num>(list: &[N]) -> bool {
///     list.windows(2).all(|w| w[0] <= w[1])
/// }
/// assert!(ordered(&[1i64, 2, 2, 7]));
/// ```
pub trait Num:
    Copy
    + Debug
    + PartialEq
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + crate::generators::Generate
    + 'static
{
    /// The constant `v`.
    fn constant(v: i64) -> Self;

    /// A length as a number (saturating at `i64::MAX`).
    fn from_len(n: usize) -> Self {
        Self::constant(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// The concrete value. On an open integer this ends symbolic execution (the value falls
    /// back to generate-and-filter) and returns the lowest value the store allows.
    fn to_i64(self) -> i64;

    /// Draws one number in `lo..=hi` (what [`nums`] does).
    #[doc(hidden)]
    fn draw(lo: i64, hi: i64, tape: &mut Tape<'_>) -> Result<Self, Reject>;
}

impl Num for i64 {
    fn constant(v: i64) -> i64 {
        v
    }
    fn to_i64(self) -> i64 {
        self
    }
    #[inline]
    fn draw(lo: i64, hi: i64, tape: &mut Tape<'_>) -> Result<i64, Reject> {
        let span = (hi as i128 - lo as i128) as u64;
        let i = tape.draw(builtin::NUM, span, Hint::Int)?;
        Ok(order::value_at(lo, hi, i))
    }
}

impl Num for Open {
    fn constant(v: i64) -> Open {
        Open::constant(v)
    }
    fn to_i64(self) -> i64 {
        match self.as_constant() {
            Some(c) => c,
            None => {
                session::abort("the filter asks an open integer's concrete value");
                self.bounds().0
            }
        }
    }
    fn draw(lo: i64, hi: i64, tape: &mut Tape<'_>) -> Result<Open, Reject> {
        match session::new_var(lo, hi) {
            Some(v) => Ok(Open::var(v)),
            // Outside a constrained generator an open integer is simply drawn.
            None => i64::draw(lo, hi, tape).map(Open::constant),
        }
    }
}

/// Integers in `range` as `N`: the integer generator of a constrained value's type (see
/// [`super::Constrain`]). As `i64` it is `ints(range)`'s order and distribution (0, or the
/// end nearest it, first; running out: that value); as [`Open`] inside a constrained
/// generator it draws nothing and leaves a variable with these bounds.
///
/// Panics if the range is empty.
pub fn nums<N: Num>(range: RangeInclusive<i64>) -> Nums<N> {
    assert!(range.start() <= range.end(), "empty integer range");
    Nums {
        lo: *range.start(),
        hi: *range.end(),
        _n: PhantomData,
    }
}

/// The generator [`nums`] returns.
#[derive(Clone, Copy, Debug)]
pub struct Nums<N> {
    lo: i64,
    hi: i64,
    _n: PhantomData<fn() -> N>,
}

impl<N: Num> Gen for Nums<N> {
    type Value = N;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<N, Reject> {
        N::draw(self.lo, self.hi, tape)
    }
}

/// An open integer's default generator: `nums::<Open>(i64::MIN..=i64::MAX)`, so that a type
/// generic over `N: Num` can derive [`crate::generators::Generate`]. Give its fields their
/// ranges with `#[generate(with = nums::<N>(lo..=hi))]`: a constrained generator must draw
/// its integers with [`nums`] for both `i64` and [`Open`] (`i64`'s own default is `ints`,
/// which draws differently; see [`super::Constrained`]).
impl crate::generators::Generate for Open {
    type Generator = Nums<Open>;
    fn generator() -> Nums<Open> {
        nums(i64::MIN..=i64::MAX)
    }
}
