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

impl LegacySource<'_> {
    /// A version-1 collection: a coin before each element (forced below `min` and at
    /// `most`), then the element's index.
    fn collection(&mut self, min: u64, most: u64, element_max: u64) -> Vec<u64> {
        let mut out = Vec::new();
        loop {
            let count = out.len() as u64;
            let more = if count < min {
                true
            } else if count >= most {
                false
            } else {
                read_index(self.bytes, &mut self.pos, 1) == 1
            };
            if !more {
                return out;
            }
            out.push(read_index(self.bytes, &mut self.pos, element_max));
        }
    }
}

impl Source for LegacySource<'_> {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        if let Hint::Length { min, .. } = ctx.hint {
            let most = min.saturating_add(ctx.max);
            let elements = self.collection(min, most, 255);
            let count = elements.len() as u64;
            self.pending = elements.into_iter().map(|b| b as u8).collect();
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
    fn legacy_collection(&mut self, min: u64, max: u64, element_max: u64) -> Option<Vec<u64>> {
        Some(self.collection(min, max, element_max))
    }
}
