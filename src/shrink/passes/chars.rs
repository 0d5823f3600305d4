//! Characters in payload runs: text is a run of UTF-8 bytes, and a character of two to four
//! bytes is one thing to delete or lower. Byte edits mostly cannot do that: a byte less, or
//! one byte lowered alone, usually leaves an invalid sequence, which the text's repair reads
//! as other characters.

use super::super::Shrinker;
use crate::tape::{Choice, Kind};

/// The smallest code point of each UTF-8 length (index: bytes − 1).
const FIRST_OF_LEN: [u32; 4] = [0, 0x80, 0x800, 0x1_0000];

/// The largest code point of each UTF-8 length (index: bytes − 1).
const LAST_OF_LEN: [u32; 4] = [0x7F, 0x7FF, 0xFFFF, 0x10_FFFF];

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
/// is at `at`) replaced by `with`'s bytes (no more of them than `len`), the run's length
/// lowered to match.
fn replace(base: &[Choice], at: usize, from: usize, len: usize, with: &[u8]) -> Vec<Choice> {
    debug_assert!(with.len() <= len, "a replacement never lengthens the run");
    let mut v = Vec::with_capacity(base.len() - len + with.len());
    v.extend_from_slice(&base[..from]);
    let template = base[from];
    v.extend(with.iter().map(|&b| Choice {
        index: u64::from(b),
        ..template
    }));
    v.extend_from_slice(&base[from + len..]);
    v[at].index -= (len - with.len()) as u64;
    v
}

/// The current tape with the character of `len` bytes at `pos` (in the run at `at`)
/// replaced by the code point `cp` of at most `len` bytes (`None` for a surrogate).
fn with_char(s: &Shrinker<'_>, at: usize, pos: usize, len: usize, cp: u32) -> Option<Vec<Choice>> {
    let ch = char::from_u32(cp)?;
    let mut buf = [0u8; 4];
    Some(replace(
        s.choices(),
        at,
        pos,
        len,
        ch.encode_utf8(&mut buf).as_bytes(),
    ))
}

/// For every payload run that reads as text (UTF-8, but perhaps for invalid bytes among its
/// last three) and has no equal twin (equal runs are edited together by
/// `delete_run_bytes`), front to back, each character of two to four bytes:
/// - deleted whole;
/// - else replaced by the byte 0 (U+0000, or the class's simplest character where the
///   class has no U+0000 and the text's repair maps it);
/// - else replaced by the last code point one byte shorter (U+007F, U+07FF, U+FFFF), and
///   when that fails, looked at again as the shorter character it now is;
/// - else lowered to the first code point of its length (U+0080, U+0800, U+10000), else,
///   unless the code point just below it passes, to the smallest code point of its length
///   that still fails (a binary search, surrogates skipped).
///
/// A run of ASCII bytes costs no call, and a binary run rarely reads as text. Every
/// candidate is shortlex-smaller: a deletion or a shorter character shortens the tape, and
/// UTF-8 keeps code point order in byte order.
pub(in crate::shrink) fn shrink_run_chars(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let span = s.spans()[k];
        k += 1;
        if span.label.kind() != Kind::Payload
            || span.end <= span.start + 2
            || s.twin_runs(span.start).len() > 1
        {
            continue;
        }
        let at = span.start;
        // Position of the next byte to look at. The run's bytes are read again only after
        // an accepted edit (the run changes then, and only then).
        let mut pos = at + 1;
        let mut bytes: Option<Vec<u8>> = None;
        while !s.stopped() {
            let Some(run) = s.payload_at(at) else {
                break;
            };
            if pos >= run.end {
                break;
            }
            let text = match &bytes {
                Some(b) => b,
                None => {
                    let b: Vec<u8> = (s.choices()[at + 1..run.end].iter())
                        .map(|c| c.index.min(255) as u8)
                        .collect();
                    // Random binary bytes stop being UTF-8 within a few bytes: their chance
                    // characters are no unit to edit.
                    let valid =
                        std::str::from_utf8(&b).map_or_else(|e| e.valid_up_to(), |t| t.len());
                    if valid + 3 < b.len() {
                        break;
                    }
                    bytes.insert(b)
                }
            };
            let Some(c) = char_at(text, pos - at - 1) else {
                pos += 1;
                continue;
            };
            let len = c.len_utf8();
            if len == 1 || s.choices()[pos..pos + len].iter().any(|c| c.forced) {
                pos += len;
                continue;
            }
            let room = if s.choices()[at].forced {
                0
            } else {
                s.choices()[at].index
            };
            let tried =
                |s: &mut Shrinker<'_>, v: Option<Vec<Choice>>| v.is_some_and(|v| s.consider(&v));
            // Whole, then as one byte 0: the next character, or the byte, is at `pos`.
            if room >= len as u64 && tried(s, Some(replace(s.choices(), at, pos, len, &[]))) {
                bytes = None;
                continue;
            }
            if room >= len as u64 - 1 && tried(s, Some(replace(s.choices(), at, pos, len, &[0]))) {
                bytes = None;
                continue;
            }
            // One byte shorter: looked at again as the character it now is.
            if room >= 1 && tried(s, with_char(s, at, pos, len, LAST_OF_LEN[len - 2])) {
                bytes = None;
                continue;
            }
            let cp = c as u32;
            let first = FIRST_OF_LEN[len - 1];
            if cp > first && !tried(s, with_char(s, at, pos, len, first)) {
                // Just below: when that passes, `cp` is the smallest of its length that fails
                // (one call, where the search would cost one per bit on every sweep).
                let below = if cp == 0xE000 { 0xD7FF } else { cp - 1 };
                if below > first && tried(s, with_char(s, at, pos, len, below)) {
                    // `first` passes, `hi` fails: the smallest failing code point is in
                    // `first + 1..=hi`.
                    let (mut lo, mut hi) = (first, below);
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
                        if tried(s, with_char(s, at, pos, len, mid)) {
                            hi = mid;
                        } else {
                            lo = mid;
                        }
                    }
                }
            }
            // Read again only if an edit was accepted (the character's bytes changed).
            let off = pos - at - 1;
            if (s.choices().get(pos..pos + len).into_iter().flatten())
                .map(|c| c.index)
                .ne(bytes
                    .iter()
                    .flat_map(|b| &b[off..off + len])
                    .map(|&b| u64::from(b)))
            {
                bytes = None;
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
