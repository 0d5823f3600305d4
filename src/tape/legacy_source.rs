//! Reads tapes of the byte encoding's versions 1 (saved before payload runs) and 2 (saved
//! before text's repair became monotone).

use super::encoding::read_index;
use super::{BytesSource, DrawContext, Hint, Source};
use std::collections::VecDeque;

/// Decodes a tape of an older byte encoding for a generator of today. Recording what a
/// generator draws from it and encoding that ([`super::encoding::encode`]) migrates the
/// tape to the current version, with the value it was saved as.
///
/// - **Version 1** ([`LegacySource::new`]): every choice reads as it did, except a payload
///   run's length ([`Hint::Length`]), which version 1 drew as a collection — before each
///   byte a "one more?" coin (forced below the minimum and at the maximum), then the byte.
///   The source reads those coins and bytes, answers the run's length, and hands the bytes
///   to the run's byte choices; a text run's characters were class indices
///   ([`Source::legacy_collection`]).
/// - **Version 2** ([`LegacySource::of_version`]): laid out as today; only a text run's
///   bytes meant other characters where they fell outside the class (the class's
///   character at the code point modulo its size). The source reads every choice as a
///   [`BytesSource`] does and hands a text run's bytes over whole
///   ([`Source::legacy_text_bytes`]), for the string generator to read with that repair.
#[derive(Clone, Debug)]
pub struct LegacySource<'a> {
    bytes: &'a [u8],
    pos: usize,
    pending: VecDeque<u8>,
    /// Version 2 (read as bytes, text handed over); `None` for version 1.
    v2: Option<BytesSource<'a>>,
}

impl<'a> LegacySource<'a> {
    /// A source over the version-1 tape `bytes`.
    pub fn new(bytes: &'a [u8]) -> LegacySource<'a> {
        LegacySource {
            bytes,
            pos: 0,
            pending: VecDeque::new(),
            v2: None,
        }
    }

    /// A source over the tape `bytes` of encoding `version`: 1 as [`LegacySource::new`],
    /// 2 as documented on the type. `None` for any other version (0, or the current one and
    /// later: read those with a [`BytesSource`]).
    pub fn of_version(bytes: &'a [u8], version: u32) -> Option<LegacySource<'a>> {
        match version {
            1 => Some(LegacySource::new(bytes)),
            2 => Some(LegacySource {
                v2: Some(BytesSource::new(bytes)),
                ..LegacySource::new(bytes)
            }),
            _ => None,
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
        if let Some(v2) = &mut self.v2 {
            return v2.draw(ctx);
        }
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
        if let Some(v2) = &mut self.v2 {
            return v2.fill_run(len, out);
        }
        for _ in 0..len {
            out.push(self.pending.pop_front().unwrap_or(0));
        }
        true
    }
    fn legacy_collection(&mut self, min: u64, max: u64, element_max: u64) -> Option<Vec<u64>> {
        if self.v2.is_some() {
            return None;
        }
        Some(self.collection(min, max, element_max))
    }
    fn legacy_text_bytes(&mut self, bytes_min: usize, bytes_max: usize) -> Option<Vec<u8>> {
        let v2 = self.v2.as_mut()?;
        Some(v2.payload(bytes_min, bytes_max))
    }
}
