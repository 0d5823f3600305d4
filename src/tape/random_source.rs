//! Seeded random choices.

use super::{DrawContext, Hint, Rng, Source};

/// Draws each choice from a seeded [`Rng`], following the generator's [`Hint`]: coins with
/// their probability; integer-like choices favour small indices (1 in 4 draws below 256) and
/// the two largest indices (1 in 32, the extremes of a range), the rest uniform.
#[derive(Clone, Debug)]
pub struct RandomSource {
    rng: Rng,
}

impl RandomSource {
    /// A source for `seed`: the same seed gives the same choices.
    pub fn new(seed: u64) -> RandomSource {
        RandomSource {
            rng: Rng::new(seed),
        }
    }

    /// The RNG, for strategies that mix random draws with their own.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }
}

impl Source for RandomSource {
    #[inline]
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let max = ctx.max;
        match ctx.hint {
            Hint::Coin(p) => self.rng.chance(p) as u64,
            Hint::Int if max > 255 => {
                let r = self.rng.next_u64();
                match r & 31 {
                    0 => max - ((r >> 5) & 1),
                    1..=8 => (r >> 8) & 255,
                    _ => self.rng.below_or_eq(max),
                }
            }
            _ => self.rng.below_or_eq(max),
        }
    }
}
