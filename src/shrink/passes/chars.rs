//! Characters in text runs: text is a run of UTF-8 bytes, and a character of two to four
//! bytes is one thing to delete or lower. Byte edits mostly cannot do that: a byte less, or
//! one byte lowered alone, usually leaves an invalid sequence, which the text's repair reads
//! as other characters.

use super::super::Shrinker;
use super::super::search::find_integer_between;
use super::runs::splice;
use crate::tape::{Choice, Span, builtin};

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

/// The UTF-8 bytes of the code point `cp` (`None` for a surrogate).
fn encoded(cp: u32) -> Option<Vec<u8>> {
    let ch = char::from_u32(cp)?;
    let mut buf = [0u8; 4];
    Some(ch.encode_utf8(&mut buf).as_bytes().to_vec())
}

/// The text the bytes `b` of a payload run hold, if they read as text: UTF-8, but perhaps for
/// invalid bytes among its last three (random binary bytes stop being UTF-8 within a few
/// bytes: their chance characters are no unit to edit); its valid prefix.
fn as_text(b: &[u8]) -> Option<&str> {
    let valid = std::str::from_utf8(b).map_or_else(|e| e.valid_up_to(), |t| t.len());
    (valid + 3 >= b.len()).then(|| std::str::from_utf8(&b[..valid]).unwrap_or_default())
}

/// For each position of the tape `choices` (with its `spans`), whether it holds a byte of a
/// character of two to four bytes that appears once in the tape's text runs
/// ([`builtin::TEXT`], those that read as text). [`shrink_run_chars`] edits such a
/// character as one thing; a byte of it edited alone (lowered, moved into another, swapped)
/// reads as other characters, so the passes that edit single values leave these bytes alone
/// (see `Shrinker::free`). A character that appears more than once stays theirs: lowering
/// equal bytes together (`duplicate_choices`) lowers all its copies, where the character
/// pass edits copies together only in equal runs. Empty when the tape has no such
/// character; the deletion of runs' bytes deletes them all the same.
pub(in crate::shrink) fn char_bytes(choices: &[Choice], spans: &[Span]) -> Vec<bool> {
    let mut found: Vec<(char, usize)> = Vec::new();
    for t in spans {
        if t.label != builtin::TEXT || t.end <= t.start + 2 || t.end > choices.len() {
            continue;
        }
        let b: Vec<u8> = (choices[t.start + 1..t.end].iter())
            .map(|c| c.index.min(255) as u8)
            .collect();
        let Some(text) = as_text(&b) else {
            continue;
        };
        found.extend(
            (text.char_indices())
                .filter(|(_, c)| c.len_utf8() > 1)
                .map(|(off, c)| (c, t.start + 1 + off)),
        );
    }
    let mut sorted: Vec<char> = found.iter().map(|&(c, _)| c).collect();
    sorted.sort_unstable();
    let once =
        |c: char| sorted.partition_point(|&d| d <= c) - sorted.partition_point(|&d| d < c) == 1;
    let mut mask = Vec::new();
    for &(c, from) in &found {
        if once(c) {
            mask.resize(choices.len(), false);
            mask[from..from + c.len_utf8()].fill(true);
        }
    }
    mask
}

/// For every text run ([`builtin::TEXT`]) that reads as text (UTF-8, but perhaps for invalid bytes among its
/// last three), front to back, each character of two to four bytes, edited in the run and in
/// every equal twin of it at once (two strings that must stay equal survive no edit of one;
/// two that happen to be equal shrink alike):
/// - deleted whole;
/// - else replaced by the byte 0 (U+0000, or the class's simplest character where the
///   class has no U+0000 and the text's repair maps it);
/// - else replaced by the last code point one byte shorter (U+007F, U+07FF, U+FFFF), and
///   when that fails, looked at again as the shorter character it now is;
/// - else lowered to the first code point of its length (U+0080, U+0800, U+10000);
/// - else to the code point just below it, and when that fails too, to the smallest code
///   point of its length that still fails (a binary search, surrogates skipped; failing code
///   points are taken to be those above a threshold, as the search needs anyway).
///
/// A run of ASCII bytes costs no call, and a binary run rarely reads as text. Every
/// candidate is shortlex-smaller: a deletion or a shorter character shortens the tape, and
/// UTF-8 keeps code point order in byte order.
pub(in crate::shrink) fn shrink_run_chars(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while let Some(at) = next_text_run(s, &mut k) {
        // Position of the next byte to look at. The run's bytes, and the length choices of
        // the run and its equal twins (later ones first, so that the earlier ones' positions
        // stay put when all are edited), are read again only after an accepted edit (the
        // tape changes then, and only then).
        let mut pos = at + 1;
        let mut bytes: Option<(Vec<u8>, Vec<usize>)> = None;
        while !s.stopped() {
            let Some(run) = s.payload_at(at) else {
                break;
            };
            if pos >= run.end {
                break;
            }
            let (text, twins) = match &bytes {
                Some(b) => b,
                None => {
                    let b: Vec<u8> = (s.choices()[at + 1..run.end].iter())
                        .map(|c| c.index.min(255) as u8)
                        .collect();
                    let twins: Vec<usize> = s.twin_runs(at).iter().rev().map(|r| r.start).collect();
                    // A twin before this run had its turn (its edits were this run's too).
                    if as_text(&b).is_none() || twins.last().is_some_and(|&t| t != at) {
                        break;
                    }
                    bytes.insert((b, twins))
                }
            };
            let off = pos - at - 1;
            let Some(c) = char_at(text, off) else {
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
            // The current tape with the character replaced by `with` in every twin, tried.
            let tried = |s: &mut Shrinker<'_>, with: Option<Vec<u8>>| {
                with.is_some_and(|w| {
                    let mut v = s.choices().to_vec();
                    for &t in twins.iter() {
                        v = splice(&v, t, t + 1 + off, len, &w);
                    }
                    s.consider(&v)
                })
            };
            // Whole, as one byte 0, or one byte shorter: then the next character, the byte,
            // or the shorter character is at `pos`, and is looked at again.
            if (room >= len as u64 && tried(s, Some(Vec::new())))
                || (room >= len as u64 - 1 && tried(s, Some(vec![0])))
                || (room >= 1 && tried(s, encoded(LAST_OF_LEN[len - 2])))
            {
                bytes = None;
                continue;
            }
            let cp = c as u32;
            let first = FIRST_OF_LEN[len - 1];
            let mut accepted = false;
            if cp > first {
                accepted = tried(s, encoded(first));
            }
            let below = if cp == 0xE000 { 0xD7FF } else { cp - 1 };
            if !accepted && below > first && tried(s, encoded(below)) {
                accepted = true;
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
                    if tried(s, encoded(mid)) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
            }
            if accepted {
                bytes = None;
            }
            pos += len;
        }
    }
}

/// How many later characters of a text [`lower_text_pairs`] pairs each with.
const PAIR_REACH: usize = 2;

/// Where [`lower_text_pairs`] tries to bring the lower character of a pair when no small
/// shift keeps the failure: the starts of the ASCII capitals, small letters and digits.
const ALIGNED: [u8; 3] = [b'A', b'a', b'0'];

/// Lowers two characters of a text together by the same number of code points, where they
/// differ: a relation between them that must hold (equal ignoring case, a fixed distance
/// apart) loses the failure when either moves alone (`"Rr"` to `"Aa"`, `"Íí"` to `"Aa"`,
/// two bytes fewer). Where no small shift keeps the failure, the shifts that bring the lower
/// character to [`ALIGNED`]'s starts (`"Àà"` to `"Aa"`, where every shift by one to a few
/// dozen leaves the letters). Equal characters are lowered together by `duplicate_choices`
/// and the character pass. A last resort: each character with the next [`PAIR_REACH`] that
/// differ from it, a call when the pair cannot go lower and up to three more.
pub(in crate::shrink) fn lower_text_pairs(s: &mut Shrinker<'_>) {
    lower_byte_pairs(s);
    let mut k = 0;
    while let Some(at) = next_text_run(s, &mut k) {
        let mut p = 0;
        // Read again after each accepted edit: the text (and perhaps its length) changed.
        while let Some(chars) = text_of(s, at) {
            if p >= chars.len() || s.stopped() {
                break;
            }
            // One-byte characters are the bytes' (above).
            let partners: Vec<usize> = (p + 1..chars.len())
                .filter(|&q| chars[q] != chars[p] && !(chars[p].is_ascii() && chars[q].is_ascii()))
                .take(PAIR_REACH)
                .collect();
            let mut moved = false;
            let old: usize = chars.iter().map(|c| c.len_utf8()).sum();
            for q in partners {
                let base = s.choices().to_vec();
                let low = (chars[p] as u32).min(chars[q] as u32);
                // Both characters `d` code points lower, where both stay characters.
                let shifted = |s: &mut Shrinker<'_>, d: u32| {
                    let mut t = chars.clone();
                    let ok = d <= low
                        && [p, q]
                            .iter()
                            .all(|&x| char::from_u32(t[x] as u32 - d).map(|c| t[x] = c).is_some());
                    ok && {
                        let new: String = t.iter().collect();
                        // The length's index counts the bytes above the run's minimum: a
                        // shorter text needs that much room (none where it is forced).
                        let room = if base[at].forced { 0 } else { base[at].index };
                        let fits = (old - new.len()) as u64 <= room;
                        fits && s.consider(&splice(&base, at, at + 1, old, new.as_bytes()))
                    }
                };
                // The shifts that keep the relation may lie far from the first small ones
                // (a case pair keeps its case only where both land on letters): then the
                // shifts that bring the lower character to the start of the ASCII capitals,
                // small letters or digits, where such relations have their simplest instance.
                let aligned = ALIGNED.map(|to| low.checked_sub(u32::from(to)).filter(|&d| d > 0));
                moved = find_integer_between(u64::from(low), |d| shifted(s, d as u32)) > 0
                    || aligned.into_iter().flatten().any(|d| shifted(s, d));
                if moved {
                    break;
                }
            }
            if !moved {
                p += 1;
            }
        }
    }
}

/// [`lower_text_pairs`] for the bytes of text that other passes edit one at a time (see
/// `Shrinker::free`: not a byte of a character of several bytes that appears once, see
/// [`char_bytes`]), each with the next [`PAIR_REACH`] that differ from it: an ASCII
/// character, or a byte that is no UTF-8, which the text's repair reads as the character
/// of that code point (so `[205, 237]`, `"Íí"`, lowers to `[65, 97]`, `"Aa"`); the bytes of
/// a character of several that appears twice are lowered too, as by the other byte passes.
fn lower_byte_pairs(s: &mut Shrinker<'_>) {
    let byte = |s: &Shrinker<'_>, i: usize| {
        s.free(i) && s.text_byte(i) && (1..=255).contains(&s.choices()[i].index)
    };
    let mut i = 0;
    while i < s.choices().len() && !s.stopped() {
        if byte(s, i) {
            let partners: Vec<usize> = (i + 1..s.choices().len())
                .filter(|&j| byte(s, j) && s.choices()[j].index != s.choices()[i].index)
                .take(PAIR_REACH)
                .collect();
            for j in partners {
                let base = s.choices().to_vec();
                let low = base[i].index.min(base[j].index);
                let shifted = |s: &mut Shrinker<'_>, d: u64| {
                    d <= low && {
                        let mut v = base.clone();
                        v[i].index -= d;
                        v[j].index -= d;
                        s.consider(&v)
                    }
                };
                if find_integer_between(low, |d| shifted(s, d)) > 0 {
                    break;
                }
                // As in `lower_text_pairs`: the shifts to the starts of the ASCII ranges.
                let aligned = ALIGNED.map(|to| low.checked_sub(u64::from(to)).filter(|&d| d > 0));
                if aligned.into_iter().flatten().any(|d| shifted(s, d)) {
                    break;
                }
            }
        }
        i += 1;
    }
}

/// Where the next text run of two or more bytes from span `*k` on starts (its length's
/// position), moving `*k` past it; `None` at the end or once the shrink stopped. Spans keep
/// their order when a run's bytes change, so `*k` stays valid across edits.
fn next_text_run(s: &Shrinker<'_>, k: &mut usize) -> Option<usize> {
    while *k < s.spans().len() && !s.stopped() {
        let span = s.spans()[*k];
        *k += 1;
        if span.label == builtin::TEXT && span.end > span.start + 2 {
            return Some(span.start);
        }
    }
    None
}

/// The characters of the text run whose length is at `at`, if it reads as whole text.
fn text_of(s: &Shrinker<'_>, at: usize) -> Option<Vec<char>> {
    let run = s.payload_at(at)?;
    if run.label != builtin::TEXT || run.end > s.choices().len() {
        return None;
    }
    let b: Vec<u8> = (s.choices()[at + 1..run.end].iter())
        .map(|c| c.index.min(255) as u8)
        .collect();
    let text = std::str::from_utf8(&b).ok()?;
    Some(text.chars().collect())
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
