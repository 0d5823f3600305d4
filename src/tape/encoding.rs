//! The byte encoding of choices (libFuzzer's view of the tape), version [`ENCODING_VERSION`].
//!
//! - A choice with largest index `max` reads `k = ceil(bits(max) / 8)` bytes big-endian as `raw`
//!   (0 bytes when `max == 0`), and its index is `raw mod (max + 1)`.
//! - Past the end of the input the stream reads as zero bytes, so every further choice is
//!   index 0, the simplest; a choice cut off by the end reads its missing low bytes as zeros.
//! - Forced choices read and write no bytes.
//! - A payload run (bytes, byte vectors: [`super::Tape::draw_payload`]) is its length
//!   choice, then one byte per byte. A length that reaches past the end of the input reads
//!   as the rest of the input (at least the run's minimum), so a fuzzer's input that is
//!   mostly payload is the payload, and a random length field does not pad it with zeros.
//!   Encoding keeps a run's trailing zero bytes.
//! - Encoding writes each index as its `k` bytes and drops trailing zero bytes, which the
//!   decoder reads back as zeros: `decode(encode(c)) == c`, and every byte string decodes.

use super::Choice;

/// The version of this encoding, recorded in corpus folders (`FORMAT`) and regression files.
/// Version 1 drew byte vectors and byte strings as collections (a "one more?" coin before
/// each byte); version 2 laid tapes out as today, but read a text byte outside the string's
/// character class as the class's character at its code point modulo the class's size
/// (today: between two of the class's characters, the next one up; see the string
/// generator);
/// [`super::LegacySource`] reads both.
pub const ENCODING_VERSION: u32 = 3;

/// Number of bytes a choice with largest index `max` reads.
#[inline]
pub fn width(max: u64) -> usize {
    (64 - max.leading_zeros() as usize).div_ceil(8)
}

/// Reads one index with largest index `max` from `bytes` at `*pos`, advancing `*pos`.
#[inline]
pub fn read_index(bytes: &[u8], pos: &mut usize, max: u64) -> u64 {
    let k = width(max);
    let mut raw: u64 = 0;
    for i in 0..k {
        let b = bytes.get(*pos + i).copied().unwrap_or(0);
        raw = (raw << 8) | b as u64;
    }
    *pos += k;
    if max == u64::MAX {
        raw
    } else {
        raw % (max + 1)
    }
}

/// Appends the `width(max)` big-endian bytes of `index`.
#[inline]
pub fn write_index(out: &mut Vec<u8>, max: u64, index: u64) {
    let k = width(max);
    for i in (0..k).rev() {
        out.push((index >> (8 * i)) as u8);
    }
}

/// Encodes the unforced choices of a tape as bytes (trailing zeros dropped, but never a
/// payload run's: a bytes source clips a run's length to the bytes left).
pub fn encode(choices: &[Choice]) -> Vec<u8> {
    let mut out = Vec::with_capacity(choices.len() * 2);
    let mut keep = 0;
    for c in choices.iter().filter(|c| !c.forced) {
        write_index(&mut out, c.max, c.index);
        if c.in_run {
            keep = out.len();
        }
    }
    while out.len() > keep && out.last() == Some(&0) {
        out.pop();
    }
    out
}

/// Encodes `(max, index)` pairs (none forced) as bytes (trailing zeros dropped).
pub fn encode_indices(pairs: &[(u64, u64)]) -> Vec<u8> {
    let mut out = Vec::new();
    for &(max, index) in pairs {
        write_index(&mut out, max, index);
    }
    trim_zeros(&mut out);
    out
}

/// Decodes one index per entry of `maxes` from `bytes`.
pub fn decode_indices(bytes: &[u8], maxes: &[u64]) -> Vec<u64> {
    let mut pos = 0;
    maxes
        .iter()
        .map(|&m| read_index(bytes, &mut pos, m))
        .collect()
}

fn trim_zeros(out: &mut Vec<u8>) {
    while out.last() == Some(&0) {
        out.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        assert_eq!(width(0), 0);
        assert_eq!(width(1), 1);
        assert_eq!(width(255), 1);
        assert_eq!(width(256), 2);
        assert_eq!(width(u64::MAX), 8);
    }

    #[test]
    fn short_input_reads_zeros() {
        let mut pos = 0;
        assert_eq!(read_index(&[1], &mut pos, 65535), 256);
        assert_eq!(read_index(&[1], &mut pos, 10), 0);
    }
}
