//! Characters from character classes.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Hint, Label, Reject, Tape};

const CHAR: Label = crate::tape::builtin::CHAR;

/// A set of characters listed as inclusive ranges **in simplicity order**: the first
/// character of the first range is index 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharClass {
    ranges: Vec<(u32, u32)>,
    /// The same characters in code point order, overlapping and adjacent ranges merged.
    by_code: Vec<(u32, u32)>,
    len: u64,
    /// Whether the ranges cover every Unicode scalar value (then no text needs repair).
    all: bool,
}

/// Printable ASCII in simplicity order: digits, lowercase, uppercase, then space and
/// punctuation.
const PRINTABLE_ASCII: [(char, char); 7] = [
    ('0', '9'),
    ('a', 'z'),
    ('A', 'Z'),
    (' ', '/'),
    (':', '@'),
    ('[', '`'),
    ('{', '~'),
];

impl CharClass {
    /// A class from ranges in simplicity order (overlaps are allowed but count twice).
    /// Panics on an empty class or a range holding a surrogate.
    pub fn from_ranges(ranges: &[(char, char)]) -> CharClass {
        let ranges: Vec<(u32, u32)> = ranges.iter().map(|&(a, b)| (a as u32, b as u32)).collect();
        for &(a, b) in &ranges {
            assert!(a <= b, "empty char range");
            assert!(b < 0xD800 || a > 0xDFFF, "char range spans surrogates");
        }
        let len = ranges.iter().map(|&(a, b)| (b - a + 1) as u64).sum();
        assert!(len > 0, "empty char class");
        let mut sorted = ranges.clone();
        sorted.sort_unstable();
        let mut by_code: Vec<(u32, u32)> = Vec::with_capacity(sorted.len());
        for (a, b) in sorted {
            match by_code.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => by_code.push((a, b)),
            }
        }
        // Every scalar value: everything but the surrogates, which no range holds.
        let all = by_code == [(0, 0xD7FF), (0xE000, 0x10FFFF)];
        CharClass {
            ranges,
            by_code,
            len,
            all,
        }
    }

    /// The characters of `s`, in the order given.
    pub fn from_chars(s: &str) -> CharClass {
        let ranges: Vec<(char, char)> = s.chars().map(|c| (c, c)).collect();
        CharClass::from_ranges(&ranges)
    }

    /// Every Unicode scalar value: digits, lower- and uppercase ASCII letters, space, other
    /// printable ASCII, then the rest of Unicode, then control characters.
    pub fn any() -> CharClass {
        let rest = [
            ('\u{80}', '\u{D7FF}'),
            ('\u{E000}', '\u{10FFFF}'),
            ('\0', '\u{1F}'),
            ('\u{7F}', '\u{7F}'),
        ];
        CharClass::from_ranges(&[&PRINTABLE_ASCII[..], &rest].concat())
    }

    /// Printable ASCII and newline: digits, letters, space, punctuation, `\n`.
    pub fn ascii() -> CharClass {
        CharClass::from_ranges(&[&PRINTABLE_ASCII[..], &[('\n', '\n')]].concat())
    }

    /// ASCII digits and letters.
    pub fn alphanumeric() -> CharClass {
        CharClass::from_ranges(&[('0', '9'), ('a', 'z'), ('A', 'Z')])
    }

    /// Lowercase ASCII letters.
    pub fn lowercase() -> CharClass {
        CharClass::from_ranges(&[('a', 'z')])
    }

    /// ASCII digits.
    pub fn digits() -> CharClass {
        CharClass::from_ranges(&[('0', '9')])
    }

    /// Number of characters in the class.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the class is empty (never: constructors reject empty classes).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The character at index `i` (taken modulo the class size).
    #[inline]
    pub fn at(&self, i: u64) -> char {
        let mut i = i % self.len;
        for &(a, b) in &self.ranges {
            let n = (b - a + 1) as u64;
            if i < n {
                return char::from_u32(a + i as u32).unwrap_or('\u{FFFD}');
            }
            i -= n;
        }
        unreachable!("index below class size")
    }

    /// The class's character that stands for `c` in repaired text ([`super::strings`]): `c`
    /// itself when the class holds it; between two of the class's characters (in code
    /// point order), the next one up; below the class's lowest code point or above its
    /// highest, the class's character at the index of `c`'s code point (modulo the class's
    /// size). So between its lowest and highest characters a lower code point never stands
    /// for a later character (lowering a byte of text lowers its character or leaves it),
    /// and the code points below its lowest character, from 0, stand for its simplest
    /// characters in the class's own order.
    pub fn repaired(&self, c: char) -> char {
        let c = c as u32;
        // The first range that reaches `c` (the ranges are sorted and disjoint).
        let k = self.by_code.partition_point(|&(_, b)| b < c);
        match self.by_code.get(k) {
            Some(&(a, _)) if k > 0 || a <= c => char::from_u32(a.max(c)).unwrap_or('\u{FFFD}'),
            _ => self.at(u64::from(c)),
        }
    }

    /// The index of `c` in the class (the inverse of [`CharClass::at`]: its first place,
    /// when ranges overlap), or `None` when `c` is not in the class.
    pub fn index_of(&self, c: char) -> Option<u64> {
        let c = c as u32;
        let mut before = 0u64;
        for &(a, b) in &self.ranges {
            if a <= c && c <= b {
                return Some(before + (c - a) as u64);
            }
            before += (b - a + 1) as u64;
        }
        None
    }

    /// Records the choice [`CharClass::draw`] draws for `c` ([`super::Gen::reflect`]); an
    /// error naming `G` when `c` is not in the class.
    pub(crate) fn reflect_char<G: ?Sized>(
        &self,
        c: char,
        out: &mut Reflection,
    ) -> Result<(), NoInverse> {
        match self.index_of(c) {
            Some(i) => {
                out.draw(self.len - 1, i);
                Ok(())
            }
            None => Err(NoInverse::of::<G>(format!(
                "{c:?} is not in its character class"
            ))),
        }
    }

    /// Whether `s`'s characters are all in the class (`true` for `""`).
    pub fn contains_all(&self, s: &str) -> bool {
        self.all || s.chars().all(|c| self.contains(c))
    }

    /// Whether `c` is in the class.
    pub fn contains(&self, c: char) -> bool {
        let c = c as u32;
        self.ranges.iter().any(|&(a, b)| a <= c && c <= b)
    }

    /// Draws one character from the class (see [`chars`]).
    #[inline]
    pub fn draw(&self, tape: &mut Tape<'_>) -> Result<char, Reject> {
        let i = tape.draw(CHAR, self.len - 1, Hint::Int)?;
        Ok(self.at(i))
    }
}

/// Characters; see [`chars`].
#[derive(Clone, Debug)]
pub struct Chars(CharClass);

/// Characters of `class`. Simplicity order: the class's own order (for
/// [`CharClass::any`]: `'0'`, `'1'`, …). Running out: the class's first character. A random
/// source favours the first 256 characters of the class.
pub fn chars(class: CharClass) -> Chars {
    Chars(class)
}

impl Gen for Chars {
    type Value = char;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<char, Reject> {
        self.0.draw(tape)
    }

    fn reflect(&self, value: &char, out: &mut Reflection) -> Result<(), NoInverse> {
        self.0.reflect_char::<Self>(*value, out)
    }
}

#[cfg(test)]
mod tests {
    use super::CharClass;

    #[test]
    fn contains_all_knows_a_class_of_every_scalar_value() {
        assert!(CharClass::any().all);
        assert!(CharClass::from_ranges(&[('\u{E000}', '\u{10FFFF}'), ('\0', '\u{D7FF}')]).all);
        assert!(!CharClass::from_ranges(&[('\0', '\u{D7FE}'), ('\u{E000}', '\u{10FFFF}')]).all);
        assert!(!CharClass::ascii().all);
        assert!(CharClass::ascii().contains_all("a b\n"));
        assert!(!CharClass::ascii().contains_all("é"));
        assert!(CharClass::digits().contains_all(""));
    }

    #[test]
    fn repaired_is_monotone_within_the_class_span() {
        let classes = [
            CharClass::alphanumeric(),
            CharClass::digits(),
            CharClass::ascii(),
            CharClass::from_chars("zaqb"),
            CharClass::from_ranges(&[('a', 'f'), ('c', 'k'), ('\u{E000}', '\u{E010}')]),
        ];
        for class in &classes {
            let lowest = class.by_code[0].0;
            let top = class.by_code.last().unwrap().1;
            let mut before = char::from_u32(lowest).unwrap();
            for c in (0..=top + 300).filter_map(char::from_u32) {
                let r = class.repaired(c);
                assert!(class.contains(r), "{c:?} -> {r:?}");
                if class.contains(c) {
                    assert_eq!(r, c);
                } else if (c as u32) < lowest || (c as u32) > top {
                    // Outside the span: the class's order, from its simplest.
                    assert_eq!(r, class.at(c as u64), "{c:?}");
                } else {
                    assert!(r >= before, "{c:?} -> {r:?} after {before:?}");
                    assert!(r > c, "{c:?} -> {r:?}");
                }
                if (lowest..=top).contains(&(c as u32)) {
                    before = r;
                }
            }
        }
        let an = CharClass::alphanumeric();
        assert_eq!(
            (an.repaired(':'), an.repaired('['), an.repaired('{')),
            ('A', 'a', 'Z')
        );
        assert_eq!((an.repaired('\0'), an.repaired('\u{A}')), ('0', 'a'));
        assert_eq!(CharClass::ascii().repaired('\u{B}'), ' ');
    }

    #[test]
    fn index_of_inverts_at() {
        for class in [
            CharClass::any(),
            CharClass::ascii(),
            CharClass::from_chars("abca"),
        ] {
            for i in (0..class.len().min(300)).chain([class.len() - 1]) {
                let c = class.at(i);
                assert_eq!(class.at(class.index_of(c).unwrap()), c);
            }
        }
        assert_eq!(CharClass::from_chars("abca").index_of('a'), Some(0));
        assert_eq!(CharClass::digits().index_of('a'), None);
    }
}
