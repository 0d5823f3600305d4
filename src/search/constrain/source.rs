//! A prefix of indices, then random choices.

use crate::tape::{DrawContext, RandomSource, Source};

/// Plays `prefix` (each index clamped to the choice's range), then draws at random.
#[derive(Debug)]
pub(crate) struct PrefixThenRandom {
    pub(crate) prefix: Vec<u64>,
    pos: usize,
    random: RandomSource,
}

impl PrefixThenRandom {
    pub(crate) fn new(prefix: Vec<u64>, seed: u64) -> PrefixThenRandom {
        PrefixThenRandom {
            prefix,
            pos: 0,
            random: RandomSource::new(seed),
        }
    }
}

impl Source for PrefixThenRandom {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let i = self.pos;
        self.pos += 1;
        match self.prefix.get(i) {
            Some(&x) => x.min(ctx.max),
            None => self.random.draw(ctx),
        }
    }
    fn needs_context(&self) -> bool {
        false
    }
}
