//! `mp3-metadata` 0.3.4: reading an ID3v2 tag with the unsynchronisation flag writes into an
//! empty `Vec` (`v.reserve(n); v[new_pos] = 0xFF`): index out of bounds.
//!
//! - Advisory: RUSTSEC-2025-0027, <https://rustsec.org/advisories/RUSTSEC-2025-0027.html>;
//!   issue <https://github.com/GuillaumeGomez/mp3-metadata/issues/36>
//! - Buggy: `mp3-metadata = "=0.3.4"`; fixed: `mp3-metadata = "=0.4.0"`.
//! - Input: binary audio file (magic `ID3`, flags byte with 0x80, a sync-safe size, then
//!   `FF 00` inside the tag).
//! - Failure: panic (index out of bounds).

/// Reads the MP3 metadata of an in-memory file.
pub fn entry(data: &[u8]) {
    let _ = mp3_metadata::read_from_slice(data);
}
