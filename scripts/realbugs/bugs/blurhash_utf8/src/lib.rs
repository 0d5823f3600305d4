//! `blurhash` 0.1.1: `decode` slices and indexes the hash string by bytes, so a multi-byte
//! UTF-8 character or a short hash panics.
//!
//! - Advisory: RUSTSEC-2023-0083 / CVE-2023-42447,
//!   <https://github.com/whisperfish/blurhash-rs/security/advisories/GHSA-cxvp-82cq-57h2>
//! - Buggy: `blurhash = "=0.1.1"`; fixed: `blurhash = "=0.2.0"` (returns `Result`).
//! - Input: text (`&str`).
//! - Failure: panic (byte index is not a char boundary / index out of bounds).

/// Decodes `s` into a 4×3 image, as a user would (0.1: `Vec<u8>`, 0.2: `Result`).
pub fn entry(s: &str) {
    let _ = blurhash::decode(s, 4, 3, 1.0);
}
