//! Decodes a byte string as choices (libFuzzer inputs, corpus files).

use super::encoding::read_index;
use super::{DrawContext, Source};

/// Reads choices from bytes as described in [`super::encoding`]; past the end every choice
/// is index 0.
#[derive(Clone, Debug)]
pub struct BytesSource<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> BytesSource<'a> {
    /// A source over `bytes`.
    pub fn new(bytes: &'a [u8]) -> BytesSource<'a> {
        BytesSource { bytes, pos: 0 }
    }

    /// How many bytes have been read (may exceed the length: the tail reads as zeros).
    pub fn consumed(&self) -> usize {
        self.pos
    }
}

impl Source for BytesSource<'_> {
    #[inline]
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        read_index(self.bytes, &mut self.pos, ctx.max)
    }
    fn needs_context(&self) -> bool {
        false
    }
}
