//! Characters in payload runs: text is a run of UTF-8 bytes, and a character of two to four
//! bytes is one thing to delete or lower, which byte edits cannot do (a byte less, or one
//! byte lowered alone, leaves an invalid sequence that the text's repair reads as other
//! characters).

use super::super::Shrinker;
use crate::tape::{Choice, Kind};

/// The smallest code point of each UTF-8 length (index: bytes − 1).
const FIRST_OF_LEN: [u32; 4] = [0, 0x80, 0x800, 0x1_0000];

/// The character whose UTF-8 encoding starts at byte `off` of `bytes`, if one does.
fn char_at(bytes: &[u8], off: usize) -> Option<char> {
    let chunk = bytes.get(off..(off + 4).min(bytes.len()))?;
    let valid = match std::str::from_utf8(chunk) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&chunk[..e.valid_up_to()]).ok()?,
    };
    valid.chars().next()
}

/// `base` with the `len` bytes at choice position `from` (inside the run whose length choice
/// is at `at`) replaced by `with`'s bytes, the run's length changed to match.
fn replace(base: &[Choice], at: usize, from: usize, len: usize, with: &[u8]) -> Vec<Choice> {
    let mut v = Vec::with_capacity(base.len() + with.len() - len.min(with.len()));
    v.extend_from_slice(&base[..from]);
    let template = base[from];
    v.extend(with.iter().map(|&b| Choice {
        index: u64::from(b),
        ..template
    }));
    v.extend_from_slice(&base[from + len..]);
    // Only called with `with` no longer than the character (a shorter run).
    v[at].index -= (len - with.len()) as u64;
    v
}

/// For every payload run, front to back, each character of two to four bytes: deleted
/// whole; else replaced by the byte 0 (which a text's repair reads as the simplest
/// character of its class); else lowered to the first code point of its length (U+0080,
/// U+0800, U+10000), else to the smallest one of its length that still fails (a binary
/// search, surrogates skipped). Only runs that read as text (UTF-8 but perhaps for a last
/// character cut short) are edited; a run of ASCII bytes costs no call. Every
/// candidate is shortlex-smaller: a deletion shortens the tape, and UTF-8 keeps code point
/// order in byte order.
pub(in crate::shrink) fn shrink_run_chars(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let span = s.spans()[k];
        k += 1;
        if span.label.kind() != Kind::Payload || span.end <= span.start + 2 {
            continue;
        }
        let at = span.start;
        // Position of the next byte to look at; the run changes under us, so it is read
        // again at every step.
        let mut pos = at + 1;
        while !s.stopped() {
            let Some(run) = s.payload_at(at) else {
                break;
            };
            if pos >= run.end {
                break;
            }
            let bytes: Vec<u8> = s.choices()[at + 1..run.end]
                .iter()
                .map(|c| c.index.min(255) as u8)
                .collect();
            // Text: UTF-8 but perhaps for a character cut short at the end (a random text
            // run is cut to its most bytes). Random binary bytes stop being UTF-8 within a
            // few bytes; their chance characters are no unit to edit.
            let valid = std::str::from_utf8(&bytes).map_or_else(|e| e.valid_up_to(), |s| s.len());
            if valid + 3 < bytes.len() {
                break;
            }
            let Some(c) = char_at(&bytes, pos - at - 1) else {
                pos += 1;
                continue;
            };
            let len = c.len_utf8();
            if len == 1 || s.choices()[pos..pos + len].iter().any(|c| c.forced) {
                pos += len;
                continue;
            }
            let base = s.choices().to_vec();
            let room = if base[at].forced { 0 } else { base[at].index };
            if room >= len as u64 && s.consider(&replace(&base, at, pos, len, &[])) {
                // The next character now starts at `pos`.
                continue;
            }
            // One byte 0 instead: the text's repair reads it as the simplest character of
            // the class (a string that needs so many characters keeps its count).
            if room >= len as u64 - 1 && s.consider(&replace(&base, at, pos, len, &[0])) {
                pos += 1;
                continue;
            }
            let cp = c as u32;
            let same_len = |v: u32| -> Option<Vec<Choice>> {
                let ch = char::from_u32(v)?;
                let mut buf = [0u8; 4];
                Some(replace(
                    &base,
                    at,
                    pos,
                    len,
                    ch.encode_utf8(&mut buf).as_bytes(),
                ))
            };
            let first = FIRST_OF_LEN[len - 1];
            if cp > first && !same_len(first).is_some_and(|v| s.consider(&v)) {
                // `lo` passes, `hi` fails: the smallest failing code point is in `lo+1..=hi`.
                let (mut lo, mut hi) = (first, cp);
                while hi - lo > 1 && !s.stopped() {
                    let mut mid = lo + (hi - lo) / 2;
                    if (0xD800..=0xDFFF).contains(&mid) {
                        // Not characters: the last one below them stands in.
                        mid = 0xD7FF;
                        if mid <= lo {
                            lo = 0xDFFF;
                            continue;
                        }
                    }
                    if same_len(mid).is_some_and(|v| s.consider(&v)) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
            }
            pos += len;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_read_where_they_start() {
        let text = "a\u{e9}\u{10000}".as_bytes();
        assert_eq!(char_at(text, 0), Some('a'));
        assert_eq!(char_at(text, 1), Some('\u{e9}'));
        assert_eq!(char_at(text, 2), None, "inside a character");
        assert_eq!(char_at(text, 3), Some('\u{10000}'));
        assert_eq!(char_at(text, 7), None, "past the end");
        assert_eq!(char_at(&[0xf0, 0x90], 0), None, "cut short");
    }

    #[test]
    fn utf8_lengths_start_where_stated() {
        for (i, &cp) in FIRST_OF_LEN.iter().enumerate().skip(1) {
            let c = char::from_u32(cp).unwrap();
            assert_eq!(c.len_utf8(), i + 1);
            assert_eq!(char::from_u32(cp - 1).unwrap().len_utf8(), i);
        }
    }
}
