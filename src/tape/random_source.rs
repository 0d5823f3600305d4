//! Seeded random choices.

use super::{DrawContext, Hint, Rng, Source};

/// Draws each choice from a seeded [`Rng`], following the generator's [`Hint`]: coins with
/// their probability; integer-like choices with more than 256 options favour small indices
/// (1 in 4 draws below 256) and the three largest (1 in 32: the ends of an integer range,
/// whose order ends `…, MAX, -MAX, MIN` for a signed type), the rest uniform.
#[derive(Clone, Debug)]
pub struct RandomSource {
    rng: Rng,
    /// Spare random bits for coins and bias decisions, so most draws cost one RNG call.
    pool: u64,
    pool_bits: u32,
}

impl RandomSource {
    /// A source for `seed`: the same seed gives the same choices.
    pub fn new(seed: u64) -> RandomSource {
        RandomSource {
            rng: Rng::new(seed),
            pool: 0,
            pool_bits: 0,
        }
    }

    /// The RNG, for strategies that mix random draws with their own.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// `k` (at most 32) random bits from the pool.
    #[inline(always)]
    fn bits(&mut self, k: u32) -> u64 {
        if self.pool_bits < k {
            self.pool = self.rng.next_u64();
            self.pool_bits = 64;
        }
        let v = self.pool & ((1 << k) - 1);
        self.pool >>= k;
        self.pool_bits -= k;
        v
    }

    /// The index for a choice with largest index `max` and this hint.
    #[inline(always)]
    pub fn pick(&mut self, max: u64, hint: Hint) -> u64 {
        match hint {
            // 32-bit resolution is plenty for a coin's probability.
            Hint::Coin(p) => ((self.bits(32) as f64) < p * 4_294_967_296.0) as u64,
            Hint::Int if max > 255 => match self.bits(5) {
                0 => max - self.bits(2) % 3,
                1..=8 => self.bits(8),
                _ => self.rng.below_or_eq(max),
            },
            _ => self.rng.below_or_eq(max),
        }
    }
}

impl Source for RandomSource {
    #[inline]
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        self.pick(ctx.max, ctx.hint)
    }
    fn as_random(&mut self) -> Option<&mut RandomSource> {
        Some(self)
    }
    fn is_random(&self) -> bool {
        true
    }
}
