//! Replays a recorded sequence of indices.

use super::{DrawContext, Hint, Rng, Source};

/// What a [`ReplaySource`] does once its indices are used up.
#[derive(Clone, Debug)]
pub enum Fallback {
    /// Every further choice is index 0 (shrinking, regressions).
    Simplest,
    /// Further choices are random from this RNG (extending a prefix).
    Random(Rng),
}

/// Replays the indices of the unforced choices of a tape, in order. An index larger than the
/// choice's `max` (the structure changed) is taken modulo `max + 1`, as the byte decoder does,
/// or as `max` with [`ReplaySource::clamping`].
#[derive(Clone, Debug)]
pub struct ReplaySource {
    indices: Vec<u64>,
    pos: usize,
    fallback: Fallback,
    /// Out-of-range indices are read as the largest index, not modulo.
    clamp: bool,
    /// Most bytes a payload run gets past its minimum ([`ReplaySource::with_run_cap`]).
    run_cap: u64,
    /// Bytes of the run being filled that the cap cut off: skipped after it.
    skip: usize,
}

impl ReplaySource {
    /// Replays `indices`, then falls back as told.
    pub fn new(indices: Vec<u64>, fallback: Fallback) -> ReplaySource {
        ReplaySource {
            indices,
            pos: 0,
            fallback,
            clamp: false,
            run_cap: u64::MAX,
            skip: 0,
        }
    }

    /// The same source, reading an index larger than its choice's `max` as `max` (a payload
    /// byte above 255 as 255) instead of modulo: what the shrinker replays, so that a later
    /// choice whose range shrank after an earlier one was lowered keeps the largest value
    /// that fits (and `u64::MAX` asks for the largest value, whatever the range).
    pub fn clamping(mut self) -> ReplaySource {
        self.clamp = true;
        self
    }

    /// The same source, cutting every payload run to at most `cap` bytes past its minimum
    /// (libFuzzer's `-len_control`, on the tape: a search keeps mutants short until they stop
    /// finding anything). A cut run's other bytes are skipped, so the choices after the run
    /// keep their indices. `u64::MAX` (the default) cuts nothing.
    pub fn with_run_cap(mut self, cap: u64) -> ReplaySource {
        self.run_cap = cap;
        self
    }

    /// Replays the unforced choices of a recorded tape, then index 0.
    pub fn of(choices: &[super::Choice]) -> ReplaySource {
        let indices = choices
            .iter()
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect();
        ReplaySource::new(indices, Fallback::Simplest)
    }

    /// How many indices have been replayed.
    pub fn used(&self) -> usize {
        self.pos.min(self.indices.len())
    }
}

impl Source for ReplaySource {
    #[inline]
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let i = self.pos;
        self.pos += 1;
        let index = match self.indices.get(i) {
            Some(&index) if index <= ctx.max => index,
            Some(_) if self.clamp => ctx.max,
            Some(&index) => index % (ctx.max + 1),
            None => match &mut self.fallback {
                Fallback::Simplest => 0,
                Fallback::Random(rng) => rng.below_or_eq(ctx.max),
            },
        };
        if index > self.run_cap && matches!(ctx.hint, Hint::Length { .. }) {
            // A payload length (its run follows, through `fill_run`).
            self.skip = usize::try_from(index - self.run_cap).unwrap_or(usize::MAX);
            return self.run_cap;
        }
        index
    }
    fn needs_context(&self) -> bool {
        false
    }
    fn fill_run(&mut self, len: usize, out: &mut Vec<u8>) -> bool {
        for _ in 0..len {
            let i = self.pos;
            self.pos += 1;
            out.push(match self.indices.get(i) {
                Some(&index) if self.clamp => index.min(255) as u8,
                Some(&index) => (index % 256) as u8,
                None => match &mut self.fallback {
                    Fallback::Simplest => 0,
                    Fallback::Random(rng) => rng.below_or_eq(255) as u8,
                },
            });
        }
        self.pos = self.pos.saturating_add(std::mem::take(&mut self.skip));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::Tape;

    /// Draws `maxes` in order and returns the indices answered.
    fn answers(mut src: ReplaySource, maxes: &[u64]) -> Vec<u64> {
        let mut tape = Tape::recording(&mut src);
        let label = crate::tape::Label::new("t");
        maxes
            .iter()
            .map(|&m| tape.draw(label, m, Hint::Int).unwrap())
            .collect()
    }

    #[test]
    fn out_of_range_indices_wrap_or_clamp() {
        let indices = vec![3, 12, u64::MAX, 4];
        let maxes = [9, 9, 9, 9];
        assert_eq!(
            answers(
                ReplaySource::new(indices.clone(), Fallback::Simplest),
                &maxes
            ),
            [3, 2, u64::MAX % 10, 4]
        );
        assert_eq!(
            answers(
                ReplaySource::new(indices, Fallback::Simplest).clamping(),
                &maxes
            ),
            [3, 9, 9, 4]
        );
    }
}
