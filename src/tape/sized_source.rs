//! Random choices scaled down to a size: the small test cases a run starts with.

use super::{DrawContext, Hint, Kind, RandomSource, Source, builtin};

/// A [`RandomSource`] whose values are scaled to a `size` between 0 and 1, as QuickCheck's
/// size parameter scales its generators: the random strategy's first test cases draw from
/// it with the size growing from 0, so a failure that a small value shows is found small
/// (and shrinks in few calls), and the simplest values are tried first. At size 1 and above
/// every choice is the [`RandomSource`]'s own (text aside, below).
///
/// What the size scales, by the label's [`Kind`] and the [`Hint`]:
/// - a collection's "one more?" coin ([`Kind::More`]) and a recursion's "branch?" coin
///   ([`Kind::Branch`]): the mean number of "yes" in a row, `p / (1 − p)`, is multiplied by
///   the size (size 0: every collection at its smallest, every recursive value a leaf);
/// - a payload's length ([`Hint::Length`]): the same, on each further element;
/// - a derived type's size budget ([`builtin::DERIVE_BUDGET`]): multiplied by the size;
/// - an integer-like choice with more than 256 options ([`Hint::Int`]): only its low
///   `4 + 240 · size` bits are kept (size 0: an index below 16, the integers nearest the
///   simplest; from size 1/4: all 64, so a bug that needs a wide value is not held back
///   for the whole ramp);
/// - everything else (unions, options, small ranges): as the [`RandomSource`] draws it.
///
/// Text is the exception to "at size 1, the random source's own": a tape takes the random
/// source's own sampler of a character class only from a plain [`RandomSource`], so text
/// drawn here is a byte length and bytes read through the class (mostly its first 256
/// characters).
///
/// Sizes below 0 (and NaN) read as 0. The same seed and size give the same choices. The
/// source reads the draw context's label, so a tape over it takes the general draw path, not
/// the random fast path: a small test case costs a little more to generate.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::tape::{SizedSource, Tape};
///
/// let g = vecs(ints::<u64>(..), 0..=100);
/// // Size 0: the collection at its smallest.
/// let mut src = SizedSource::new(7, 0.0);
/// assert!(g.generate(&mut Tape::new(&mut src, false)).unwrap().is_empty());
/// // Size 0.05: short, with integers of at most 16 bits.
/// let mut src = SizedSource::new(7, 0.05);
/// let v = g.generate(&mut Tape::new(&mut src, false)).unwrap();
/// assert!(v.iter().all(|&x| x < 1 << 16));
/// ```
#[derive(Clone, Debug)]
pub struct SizedSource {
    inner: RandomSource,
    size: f64,
    /// Low bits an integer-like index keeps (`4 + 240 · size`), and a 128-bit integer's high
    /// part (`4 + 240 · size − 64`, none below).
    keep: u64,
    keep_high: u64,
}

impl SizedSource {
    /// A source for `seed` at `size` (see the type's docs for the edges).
    pub fn new(seed: u64, size: f64) -> SizedSource {
        let size = if size > 0.0 { size.min(1.0) } else { 0.0 };
        // The low `bits` bits (all 64 from 64 on).
        let mask = |bits: f64| match bits as u32 {
            b if b >= 64 => u64::MAX,
            b => (1u64 << b) - 1,
        };
        let bits = 4.0 + 240.0 * size;
        SizedSource {
            inner: RandomSource::new(seed),
            size,
            keep: mask(bits),
            keep_high: mask((bits - 64.0).max(0.0)),
        }
    }

    /// The size (clamped to `0..=1`).
    pub fn size(&self) -> f64 {
        self.size
    }

    /// `p` for a run of "yes" whose mean length is `size` times that of `p`.
    fn scaled(&self, p: f64) -> f64 {
        if self.size >= 1.0 || p >= 1.0 || p.is_nan() {
            return p;
        }
        let mean = p.max(0.0) / (1.0 - p) * self.size;
        mean / (1.0 + mean)
    }
}

impl Source for SizedSource {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let kind = ctx.label.kind();
        match ctx.hint {
            Hint::Coin(p) if matches!(kind, Kind::More | Kind::Branch) => {
                self.inner.pick(ctx.max, Hint::Coin(self.scaled(p)))
            }
            Hint::Length { p_more, min } => self.inner.pick(
                ctx.max,
                Hint::Length {
                    p_more: self.scaled(p_more),
                    min,
                },
            ),
            // A 128-bit integer's high part keeps the bits past the low part's 64.
            Hint::Int if ctx.label == builtin::INT_HIGH => {
                self.inner.pick(ctx.max, ctx.hint) & self.keep_high
            }
            Hint::Int if ctx.max > 255 => self.inner.pick(ctx.max, ctx.hint) & self.keep,
            _ if ctx.label == builtin::DERIVE_BUDGET => {
                let i = self.inner.pick(ctx.max, ctx.hint);
                ((i as f64 * self.size) as u64).min(ctx.max)
            }
            _ => self.inner.pick(ctx.max, ctx.hint),
        }
    }

    fn needs_context(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::Tape;

    /// The mean run of "one more?" coins (probability 5/6: a mean of 5) at `size`.
    fn mean_run(size: f64) -> f64 {
        let n = 4_000;
        let total: u64 = (0..n)
            .map(|s| {
                let mut src = SizedSource::new(s, size);
                let mut tape = Tape::new(&mut src, false);
                let mut k = 0;
                while tape.draw_bool(builtin::MORE, 5.0 / 6.0).unwrap() {
                    k += 1;
                }
                k
            })
            .sum();
        total as f64 / n as f64
    }

    #[test]
    fn size_scales_runs_and_magnitudes() {
        assert_eq!(mean_run(0.0), 0.0);
        let (half, full) = (mean_run(0.5), mean_run(1.0));
        assert!((half - 2.5).abs() < 0.3, "half {half}");
        assert!((full - 5.0).abs() < 0.5, "full {full}");
        // Size 0: integer-like indices below 16; NaN and negative sizes read as 0. A small
        // range and a union are drawn as the random source draws them.
        for size in [0.0, -1.0, f64::NAN] {
            let mut src = SizedSource::new(3, size);
            let mut tape = Tape::new(&mut src, false);
            let mut wide = 0;
            for _ in 0..200 {
                let v = tape.draw(builtin::INT, u64::MAX, Hint::Int).unwrap();
                assert!(v < 16, "{v}");
                wide = wide.max(tape.draw(builtin::INT, 200, Hint::Int).unwrap());
            }
            assert!(wide > 100, "{wide}");
        }
        // A derived type's budget scales with the size.
        let mut src = SizedSource::new(9, 0.25);
        let mut tape = Tape::new(&mut src, false);
        for _ in 0..100 {
            assert!(
                tape.draw(builtin::DERIVE_BUDGET, 24, Hint::Uniform)
                    .unwrap()
                    <= 6
            );
        }
    }

    #[test]
    fn at_full_size_it_is_the_random_source() {
        for seed in 0..50 {
            let mut a = SizedSource::new(seed, 1.0);
            let mut b = RandomSource::new(seed);
            let (mut x, mut y) = (Tape::recording(&mut a), Tape::recording(&mut b));
            for max in [1, 7, 300, u64::MAX] {
                for hint in [Hint::Int, Hint::Uniform, Hint::Coin(0.8)] {
                    let max = if matches!(hint, Hint::Coin(_)) {
                        1
                    } else {
                        max
                    };
                    assert_eq!(
                        x.draw(builtin::MORE, max, hint).unwrap(),
                        y.draw(builtin::MORE, max, hint).unwrap(),
                        "seed {seed}"
                    );
                }
            }
        }
    }
}
