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
            Hint::Coin(p) => self.coin(coin_threshold(p)),
            Hint::Int if max > 255 => self.int(max),
            _ => self.rng.below_or_eq(max),
        }
    }

    /// A coin: 1 when 32 random bits fall below `threshold` (see [`coin_threshold`]).
    #[inline(always)]
    pub fn coin(&mut self, threshold: u64) -> u64 {
        (self.bits(32) < threshold) as u64
    }

    /// An integer-like index in `0..=max` (`max > 255`): uniform, except that 8 draws in 32
    /// keep only the low byte (an index below 256) and 1 in 32 is one of the three largest.
    /// The small and large cases reuse bits of the uniform draw and the choice between them
    /// is a select, not a branch: the bias is what finds edge-case bugs, and this keeps its
    /// cost to 5 pooled bits.
    #[inline(always)]
    pub fn int(&mut self, max: u64) -> u64 {
        let r = self.rng.below_or_eq(max);
        let kind = self.bits(5);
        Self::bias(r, kind, max)
    }

    /// The biased integer index from a uniform `r` in `0..=max` and 5 random bits `kind`.
    #[inline(always)]
    pub(crate) fn bias(r: u64, kind: u64, max: u64) -> u64 {
        let low2 = r & 3;
        let end = max - (low2 - 3 * (low2 == 3) as u64);
        let v = if kind > 8 { r } else { r & 0xff };
        if kind == 0 { end } else { v }
    }

    /// Random bits left in the pool.
    #[inline(always)]
    pub(crate) fn pool_bits(&self) -> u32 {
        self.pool_bits
    }

    /// Sets the pool to the low `bits` bits of `pool` (the rest must be zero).
    #[inline(always)]
    pub(crate) fn set_pool(&mut self, pool: u64, bits: u32) {
        self.pool = pool;
        self.pool_bits = bits;
    }
}

/// The 32-bit threshold below which a coin with probability `p` comes up 1: exactly
/// `ceil(p · 2³²)`, clamped to `0..=2³²`.
#[inline(always)]
pub fn coin_threshold(p: f64) -> u64 {
    let t = (p * 4_294_967_296.0).ceil();
    if t >= 4_294_967_296.0 {
        1 << 32
    } else if t > 0.0 {
        t as u64
    } else {
        0
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
