//! Decodes a byte string as choices (libFuzzer inputs, corpus files).

use super::encoding::read_index;
use super::{DrawContext, Hint, PointId, Source};

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

    /// The bytes of a payload run of `min..=max` bytes, read as a tape reads one from this
    /// source: its length (clipped to the input left), then its bytes.
    pub(crate) fn payload(&mut self, min: usize, max: usize) -> Vec<u8> {
        let spread = max.saturating_sub(min) as u64;
        let extra = if spread == 0 {
            0
        } else {
            self.draw(&DrawContext {
                point: PointId(0),
                label: super::builtin::PAYLOAD_LEN,
                max: spread,
                hint: Hint::Length {
                    p_more: 0.0,
                    min: min as u64,
                },
                position: 0,
                path: &[],
                choices: &[],
            })
        };
        let mut out = Vec::new();
        self.fill_run(min + extra as usize, &mut out);
        out
    }
}

impl Source for BytesSource<'_> {
    #[inline]
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let index = read_index(self.bytes, &mut self.pos, ctx.max);
        match ctx.hint {
            // A run's length past the end of the input reads as the rest of the input (the
            // run's bytes are one byte each): libFuzzer's inputs end where they end, and a
            // random length field does not pad the payload with zeros.
            Hint::Length { min, .. } => {
                let left = self.bytes.len().saturating_sub(self.pos) as u64;
                index.min(left.saturating_sub(min))
            }
            _ => index,
        }
    }
    fn needs_context(&self) -> bool {
        false
    }
    fn fill_run(&mut self, len: usize, out: &mut Vec<u8>) -> bool {
        let start = self.pos.min(self.bytes.len());
        let end = self.pos.saturating_add(len).min(self.bytes.len());
        out.extend_from_slice(&self.bytes[start..end]);
        out.resize(out.len() + (len - (end - start)), 0);
        self.pos = self.pos.saturating_add(len);
        true
    }
}
