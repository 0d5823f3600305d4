//! `png` 0.12.0: panics while decoding malformed PNG files (a paletted image without a `PLTE`
//! chunk hits `info.palette.as_ref().unwrap()` in `expand_paletted`; the same issue lists an
//! out-of-bounds slice in `unfilter` and a shift overflow for 16-bit paletted images).
//!
//! - Issue: <https://github.com/image-rs/image-png/issues/79> (fixes in PR
//!   <https://github.com/image-rs/image-png/pull/81>, commit 4e44045 for the palette unwrap)
//! - Buggy: `png = "=0.12.0"`; fixed: `png = "=0.13.0"` (returns `Err("missing palette")`).
//! - Input: a PNG file (binary, magic signature). **Needs structure**: every chunk carries a
//!   CRC-32 that 0.12.0 checks (no `cfg(fuzzing)` bypass before 0.13), and the pixel data is a
//!   zlib stream in `IDAT` — raw bytes rarely get two valid CRCs and a zlib header.
//!   `tests/props.rs` has a `structured` property whose generator builds valid chunks.
//! - Failure: panic (`called Option::unwrap() on a None value`).

/// Decodes `data` as a user of png 0.12 would: header, then the first frame into a buffer
/// of the announced size (images over 16 MiB decoded are skipped, as a caller with a memory
/// budget would).
pub fn entry(data: &[u8]) {
    let decoder = png::Decoder::new(data);
    let Ok((info, mut reader)) = decoder.read_info() else {
        return;
    };
    let size = (info.line_size as u64).saturating_mul(info.height as u64);
    if size > 1 << 24 {
        return;
    }
    let mut buf = vec![0u8; size as usize];
    let _ = reader.next_frame(&mut buf);
}

/// Builds a PNG file from chunks: the signature, then each chunk as length, type, data and
/// the CRC-32 of type and data. Used by the structured property and to make `crash.bin`.
pub fn png_file(chunks: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (ty, data) in chunks {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(ty);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    out
}

/// CRC-32 (ISO-HDLC, as PNG and gzip use it).
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Adler-32, the zlib trailer.
pub fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + x as u32) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// A zlib stream of `raw` in stored (uncompressed) deflate blocks.
pub fn zlib_stored(raw: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    let mut chunks = raw.chunks(65535).peekable();
    if raw.is_empty() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(c) = chunks.next() {
        out.push(if chunks.peek().is_none() { 1 } else { 0 });
        let n = c.len() as u16;
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&(!n).to_le_bytes());
        out.extend_from_slice(c);
    }
    out.extend_from_slice(&adler32(raw).to_be_bytes());
    out
}

/// An `IHDR` chunk's data.
pub fn ihdr(width: u32, height: u32, bit_depth: u8, color_type: u8, interlace: u8) -> Vec<u8> {
    let mut d = Vec::with_capacity(13);
    d.extend_from_slice(&width.to_be_bytes());
    d.extend_from_slice(&height.to_be_bytes());
    d.extend_from_slice(&[bit_depth, color_type, 0, 0, interlace]);
    d
}
