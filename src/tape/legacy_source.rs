//! Reads tapes of the byte encoding's version 1 (corpus entries and regressions saved before
//! payload runs).

use super::encoding::read_index;
use super::{DrawContext, Hint, Source};
use std::collections::VecDeque;

/// Decodes a version-1 tape for a generator of today: every choice reads as it did, except
/// a payload run's length ([`Hint::Length`]), which version 1 drew as a collection — before
/// each byte a "one more?" coin (forced below the minimum and at the maximum), then the byte.
/// The source reads those coins and bytes, answers the run's length, and hands the bytes
/// to the run's byte choices. Recording what a generator draws from it and encoding that
/// ([`super::encoding::encode`]) migrates a tape to the current version.
#[derive(Clone, Debug)]
pub struct LegacySource<'a> {
    bytes: &'a [u8],
    pos: usize,
    pending: VecDeque<u8>,
}

impl<'a> LegacySource<'a> {
    /// A source over the version-1 tape `bytes`.
    pub fn new(bytes: &'a [u8]) -> LegacySource<'a> {
        LegacySource {
            bytes,
            pos: 0,
            pending: VecDeque::new(),
        }
    }
}

impl Source for LegacySource<'_> {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        if let Hint::Length { min, .. } = ctx.hint {
            self.pending.clear();
            let most = min.saturating_add(ctx.max);
            let mut count = 0u64;
            loop {
                let more = if count < min {
                    true
                } else if count >= most {
                    false
                } else {
                    read_index(self.bytes, &mut self.pos, 1) == 1
                };
                if !more {
                    break;
                }
                self.pending
                    .push_back(read_index(self.bytes, &mut self.pos, 255) as u8);
                count += 1;
            }
            return count - min;
        }
        if ctx.max == 255
            && let Some(b) = self.pending.pop_front()
        {
            return u64::from(b);
        }
        read_index(self.bytes, &mut self.pos, ctx.max)
    }
    fn needs_context(&self) -> bool {
        false
    }
    fn fill_run(&mut self, len: usize, out: &mut Vec<u8>) -> bool {
        for _ in 0..len {
            out.push(self.pending.pop_front().unwrap_or(0));
        }
        true
    }
}
