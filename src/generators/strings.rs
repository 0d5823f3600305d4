//! Strings.

use super::{CharClass, Gen, SizeRange};
use crate::tape::{Reject, Tape};

/// Strings; see [`strings`] and [`string_of`].
#[derive(Clone, Debug)]
pub struct Strings<G> {
    chars: G,
    size: SizeRange,
}

/// Strings of `size` characters from `class`. Simplicity order: fewer characters first, then
/// each character in the class's order (shortest: the minimum length of the class's first
/// character). Running out: as for collections, with the class's first character.
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

impl Gen for CharClass {
    type Value = char;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<char, Reject> {
        self.draw(tape)
    }
}

impl<G: Gen<Value = char>> Gen for Strings<G> {
    type Value = String;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<String, Reject> {
        let mut s = String::new();
        self.size.repeat(tape, |t| {
            s.push(self.chars.generate(t)?);
            Ok(true)
        })?;
        Ok(s)
    }
}
