//! The swarm source: random choices, with each union's options cut to a random subset that
//! holds for the whole test case.

use crate::tape::{DrawContext, Kind, RandomSource, Rng, Source};

/// The most options a union may have for the swarm to cut it (a mask of 64 bits); larger
/// unions are drawn as a random source draws them.
pub const MAX_OPTIONS: u64 = 64;

/// Draws as a [`RandomSource`] does, except a [`Kind::Union`] choice (which action, which
/// variant): each of its options is on or off for the whole test case (a coin per option,
/// keyed by the union's label and size, so every step's action choice sees the same
/// configuration), and the index is drawn uniformly among the options that are on. When
/// none is on, the choice is drawn as usual.
#[derive(Clone, Debug)]
pub struct SwarmSource {
    random: RandomSource,
    configuration: u64,
}

impl SwarmSource {
    /// A source for test case `seed`: its choices and its configuration (which options are
    /// on) both follow from the seed.
    pub fn new(seed: u64) -> SwarmSource {
        SwarmSource {
            random: RandomSource::new(seed),
            configuration: Rng::derive(seed, 0x0057_524d),
        }
    }

    /// Which of the `max + 1` options of a union labelled `label` are on, one bit each.
    pub fn mask(&self, label: u64, max: u64) -> u64 {
        let all = if max >= 63 {
            u64::MAX
        } else {
            (1u64 << (max + 1)) - 1
        };
        Rng::new(Rng::derive(self.configuration, label ^ max.rotate_left(32))).next_u64() & all
    }
}

impl Source for SwarmSource {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        if ctx.label.kind() == Kind::Union && ctx.max >= 1 && ctx.max < MAX_OPTIONS {
            let mask = self.mask(ctx.label.hash(), ctx.max);
            if mask != 0 {
                let on = mask.count_ones() as u64;
                let mut k = self.random.rng().below_or_eq(on - 1);
                for i in 0..=ctx.max {
                    if mask >> i & 1 == 1 {
                        if k == 0 {
                            return i;
                        }
                        k -= 1;
                    }
                }
            }
        }
        self.random.pick(ctx.max, ctx.hint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_fit_their_union_and_vary_with_the_seed() {
        let masks: Vec<u64> = (0..64).map(|s| SwarmSource::new(s).mask(7, 3)).collect();
        assert!(masks.iter().all(|m| *m < 16));
        assert!(masks.iter().collect::<std::collections::HashSet<_>>().len() > 8);
        assert!(SwarmSource::new(1).mask(7, 63).count_ones() > 0);
    }
}
