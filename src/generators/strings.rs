//! Strings.

use super::{CharClass, Gen, NoInverse, Reflection, SizeRange};
use crate::tape::{Hint, LegacyText, RandomSource, Reject, Tape, TextRun};

/// Strings; see [`strings`] and [`string_of`].
#[derive(Clone, Debug)]
pub struct Strings<G> {
    chars: G,
    size: SizeRange,
}

/// Strings of `size` characters from `class`.
///
/// On the tape the text is one **payload run of its UTF-8 bytes** (a length, then the
/// bytes, as [`super::bytes`]): libFuzzer's byte mutations and the comparison log's
/// keywords (`"Set-Cookie"`, `"_ZN"`) are edits of the text itself. The bytes are read
/// back into a string of the class by a fixed repair:
///
/// 1. valid UTF-8 sequences are their characters; each byte of an invalid sequence (a stray
///    continuation byte, a cut or overlong sequence, a surrogate) is the character with
///    that byte's value (Latin-1: byte `0xE9` is `é`);
/// 2. a character outside `class` ([`CharClass::repaired`]): between two of the class's
///    characters in code point order, the next one up (for [`CharClass::alphanumeric`],
///    `':'` is `'A'` and `'['` is `'a'`), so lowering a byte there never reads as a later
///    character; below the class's lowest code point or above its highest, the class's
///    character at the index of its code point (modulo the class's size): a zero byte is
///    the class's first character, and the bytes 0, 1, 2, … below the class are its
///    simplest characters in its own order (for [`CharClass::digits`], `'a'` (97) is
///    `'7'`);
/// 3. the text is cut to the most characters `size` allows, and padded with the class's
///    first character to the fewest.
///
/// The run holds from `min` to `4 · max` bytes. A random source makes the characters as
/// before (each from the class, small indices favoured; the count as any collection's) and
/// writes their bytes. Simplicity order: fewer bytes, then lower bytes: the simplest text
/// of [`CharClass::any`] is `"\0"`s (where the class's own order starts at `'0'`), of
/// other classes the class's first character. Running out: the minimum length of zero
/// bytes, repaired.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::Strings;
/// use tapefuzz::tape::{BytesSource, Tape};
///
/// let text = |g: &Strings<CharClass>, tape: &[u8]| {
///     g.generate(&mut Tape::new(&mut BytesSource::new(tape), false)).unwrap()
/// };
/// // At most 50 characters: at most 200 bytes, so the length is one byte.
/// let any = strings(CharClass::any(), 0..=50);
/// assert_eq!(text(&any, b"\x05Hello"), "Hello");
/// assert_eq!(text(&any, b"\xffHello"), "Hello"); // past the end: the rest
/// assert_eq!(text(&any, b"\x02\xc3\xa9"), "é"); // UTF-8
/// assert_eq!(text(&any, b"\x01\xe9"), "é"); // a stray byte: Latin-1
/// assert_eq!(text(&strings(CharClass::digits(), 0..=10), b"\x03a1\x00"), "710");
/// assert_eq!(text(&strings(CharClass::alphanumeric(), 0..=10), b"\x03:[\x00"), "Aa0");
/// ```
pub fn strings(class: CharClass, size: impl Into<SizeRange>) -> Strings<CharClass> {
    Strings {
        chars: class,
        size: size.into(),
    }
}

/// Strings of characters from any `char` generator; order as [`strings`].
pub fn string_of<G: Gen<Value = char>>(chars: G, size: impl Into<SizeRange>) -> Strings<G> {
    Strings {
        chars,
        size: size.into(),
    }
}

impl<G> Strings<G> {
    /// Aims for `average` characters from a random source (bounds unchanged; clamped to
    /// them), as [`super::Vecs::average`].
    pub fn average(mut self, average: f64) -> Self {
        self.size = self.size.with_average(average);
        self
    }
}

impl Gen for CharClass {
    type Value = char;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<char, Reject> {
        self.draw(tape)
    }
    fn char_class(&self) -> Option<&CharClass> {
        Some(self)
    }
    fn reflect(&self, value: &char, out: &mut Reflection) -> Result<(), NoInverse> {
        self.reflect_char::<Self>(*value, out)
    }
}

/// The string of `class` that the bytes `raw` stand for, with `min..=max` characters (the
/// repair [`strings`] documents).
pub fn repair_text(raw: &[u8], class: &CharClass, min: usize, max: usize) -> String {
    repair_with(raw, class, min, max, |c| class.repaired(c))
}

/// The repair of the byte encoding's version 2: a character outside `class` was the class's
/// character at its code point modulo the class's size.
fn repair_text_v2(raw: &[u8], class: &CharClass, min: usize, max: usize) -> String {
    repair_with(raw, class, min, max, |c| class.at(c as u64))
}

/// The bytes of today's encoding for the text run `raw` of the byte encoding's version 2,
/// whose repair read a character outside `class` as the class's character at its code point
/// modulo the class's size: each character (or invalid byte) that version read as another
/// character than today's repair does is replaced by the UTF-8 of the character it read as,
/// and every other byte is kept. So the run reads as the string it was saved as, and only
/// grows where a class of characters of several bytes read a shorter one as such (a run
/// that grew past a tape's size budget is not migrated, see `engine::reencode`).
fn migrate_text_v2(raw: &[u8], class: &CharClass) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut utf8 = [0u8; 4];
    let mut rest = raw;
    while !rest.is_empty() {
        // The next unit as the repair reads it: a valid character, or one invalid byte read
        // as the character with its value (Latin-1).
        let (c, n) = match std::str::from_utf8(&rest[..rest.len().min(4)]) {
            Ok(s) => s.chars().next().map(|c| (c, c.len_utf8())),
            Err(e) if e.valid_up_to() > 0 => {
                let valid = std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default();
                valid.chars().next().map(|c| (c, c.len_utf8()))
            }
            Err(_) => None,
        }
        .unwrap_or((char::from(rest[0]), 1));
        let old = if class.contains(c) {
            c
        } else {
            class.at(c as u64)
        };
        let now = if class.contains(c) {
            c
        } else {
            class.repaired(c)
        };
        if old == now {
            out.extend_from_slice(&rest[..n]);
        } else {
            out.extend_from_slice(old.encode_utf8(&mut utf8).as_bytes());
        }
        rest = &rest[n..];
    }
    out
}

/// [`repair_text`] with `outside` giving the class's character for one outside it.
fn repair_with(
    raw: &[u8],
    class: &CharClass,
    min: usize,
    max: usize,
    outside: impl Fn(char) -> char,
) -> String {
    let mut out = String::with_capacity(raw.len().min(max.saturating_mul(4)));
    let mut count = 0;
    // Appends the valid text `s`, each character outside the class mapped into it, until
    // `max` characters are there.
    let push = |s: &str, out: &mut String, count: &mut usize| {
        if class.contains_all(s) {
            // No character to map: copied whole, up to the `max`-th character.
            let room = max - *count;
            match s.char_indices().nth(room) {
                Some((end, _)) => {
                    out.push_str(&s[..end]);
                    *count = max;
                }
                None => {
                    out.push_str(s);
                    *count += s.chars().count();
                }
            }
            return;
        }
        for c in s.chars().take(max - *count) {
            out.push(if class.contains(c) { c } else { outside(c) });
            *count += 1;
        }
    };
    let mut rest = raw;
    let mut latin1 = [0u8; 4];
    while !rest.is_empty() && count < max {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                push(s, &mut out, &mut count);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // `good` is valid UTF-8 (`valid_up_to`).
                push(
                    std::str::from_utf8(good).unwrap_or_default(),
                    &mut out,
                    &mut count,
                );
                let n = e.error_len().unwrap_or(bad.len()).max(1);
                for &b in &bad[..n] {
                    push(char::from(b).encode_utf8(&mut latin1), &mut out, &mut count);
                }
                rest = &bad[n..];
            }
        }
    }
    while count < min {
        out.push(class.at(0));
        count += 1;
    }
    out
}

impl<G: Gen<Value = char>> Gen for Strings<G> {
    type Value = String;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<String, Reject> {
        if let Some(class) = self.chars.char_class() {
            return text(class, &self.size, tape);
        }
        let mut s = String::new();
        self.size.repeat(tape, |t| {
            s.push(self.chars.generate(t)?);
            Ok(true)
        })?;
        Ok(s)
    }

    /// A string of a character class is its UTF-8 bytes as one payload run (the text
    /// needs no repair, so it replays as itself); of another `char` generator, one
    /// reflected character per element.
    fn reflect(&self, value: &String, out: &mut Reflection) -> Result<(), NoInverse> {
        let count = value.chars().count();
        if let Some(class) = self.chars.char_class() {
            self.size.check_len::<Self>(count)?;
            if let Some((i, c)) = value.char_indices().find(|&(_, c)| !class.contains(c)) {
                return Err(NoInverse::of::<Self>(format!(
                    "{c:?} (at byte {i}) is not in its character class"
                )));
            }
            let name = super::no_inverse::short_type_name(std::any::type_name::<Self>());
            let max = self.size.max.saturating_mul(4);
            return out.payload(self.size.min, max, value.as_bytes(), &name);
        }
        let chars: Vec<char> = value.chars().collect();
        self.size
            .reflect::<Self, _>(chars.iter(), out, |c, out| self.chars.reflect(c, out))
    }
}

/// A string of `class` drawn as one payload run of UTF-8 bytes (see [`strings`]).
fn text(class: &CharClass, size: &SizeRange, tape: &mut Tape<'_>) -> Result<String, Reject> {
    let (min, max) = (size.min, size.max);
    let p = size.p_more();
    let spec = TextRun {
        bytes_min: min,
        bytes_max: max.saturating_mul(4),
        p_more: p,
        elements: (min as u64, max as u64, class.len() - 1),
    };
    let mut raw = Vec::new();
    let mut random = |src: &mut RandomSource, out: &mut Vec<u8>| {
        let extra = src.pick(
            (max - min) as u64,
            Hint::Length {
                p_more: p,
                min: min as u64,
            },
        );
        let mut utf8 = [0u8; 4];
        for _ in 0..(min as u64).saturating_add(extra) {
            let c = class.at(src.pick(class.len() - 1, Hint::Int));
            out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        }
    };
    let legacy = |old: LegacyText<'_>, out: &mut Vec<u8>| match old {
        LegacyText::Indices(indices) => {
            let mut utf8 = [0u8; 4];
            for &i in indices {
                out.extend_from_slice(class.at(i).encode_utf8(&mut utf8).as_bytes());
            }
        }
        LegacyText::Bytes(raw) => {
            let migrated = migrate_text_v2(raw, class);
            if migrated.len() <= spec.bytes_max {
                out.extend_from_slice(&migrated);
            } else {
                // Grown past the run's bound: the string it was saved as, whole (at most
                // four bytes a character, so within it).
                out.extend_from_slice(repair_text_v2(raw, class, min, max).as_bytes());
            }
        }
    };
    tape.draw_text(&spec, &mut raw, &mut random, &legacy)?;
    // Text that needs no repair is taken as it is: what `repair_text` would return, without
    // a second buffer.
    match String::from_utf8(raw) {
        Ok(s) if (min..=max).contains(&s.chars().count()) && class.contains_all(&s) => Ok(s),
        Ok(s) => Ok(repair_text(s.as_bytes(), class, min, max)),
        Err(e) => Ok(repair_text(e.as_bytes(), class, min, max)),
    }
}

#[cfg(test)]
mod tests {
    use super::repair_text;
    use crate::generators::CharClass;

    /// The repair as `strings` documents it, one character at a time.
    fn reference(raw: &[u8], class: &CharClass, min: usize, max: usize) -> String {
        let mut chars = Vec::new();
        let mut rest = raw;
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    chars.extend(s.chars());
                    break;
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    chars.extend(std::str::from_utf8(good).unwrap().chars());
                    let n = e.error_len().unwrap_or(bad.len()).max(1);
                    chars.extend(bad[..n].iter().map(|&b| char::from(b)));
                    rest = &bad[n..];
                }
            }
        }
        chars.truncate(max);
        let mut out: String = chars
            .into_iter()
            .map(|c| {
                if class.contains(c) {
                    c
                } else {
                    class.repaired(c)
                }
            })
            .collect();
        for _ in out.chars().count()..min {
            out.push(class.at(0));
        }
        out
    }

    #[test]
    fn repair_text_maps_bytes_as_documented() {
        let classes = [CharClass::any(), CharClass::ascii(), CharClass::digits()];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..3000 {
            let len = round % 40;
            let raw: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Mostly ASCII, some multi-byte starts and continuation bytes.
                    [x as u8 & 0x7f, x as u8, 0xc3, 0xa9, 0xe2][(x >> 8) as usize % 5]
                })
                .collect();
            for class in &classes {
                for (min, max) in [(0, 100), (0, 3), (5, 8), (2, 2)] {
                    assert_eq!(
                        repair_text(&raw, class, min, max),
                        reference(&raw, class, min, max),
                        "{raw:?} {min}..={max}"
                    );
                }
            }
        }
    }
}
