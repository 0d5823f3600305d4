//! `kamadak-exif` 0.5.2: an infinite loop reading the Exif data of a PNG file whose chunk
//! length runs past the end of the input (`util::discard_exact` spins on an empty
//! `fill_buf()`).
//!
//! - Advisory: RUSTSEC-2021-0143, <https://rustsec.org/advisories/RUSTSEC-2021-0143.html>;
//!   fix: <https://github.com/kamadak/exif-rs/commit/1b05eab57e484cd7d576d4357b9cda7fdc57df8c>
//! - Buggy: `kamadak-exif = "=0.5.2"`; fixed: `kamadak-exif = "=0.5.3"`.
//! - Input: binary, a container file (PNG signature `\x89PNG\r\n\x1a\n`, then a chunk header
//!   whose length exceeds the data left).
//! - Failure: hang (infinite loop).

/// Reads Exif from a container (JPEG, TIFF, PNG, HEIF, WebP…) as a user would.
pub fn entry(data: &[u8]) {
    let mut cursor = std::io::Cursor::new(data);
    let _ = exif::Reader::new().read_from_container(&mut cursor);
}
