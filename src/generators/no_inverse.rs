//! Why a generator cannot be run backwards to a value.

use std::fmt;

/// Why [`Gen::reflect`](super::Gen::reflect) found no choices that make a value: the
/// generator has no inverse (`map`, `flat_map`, a generator that does not implement
/// `reflect`), or the value is not one it makes (out of its range, rejected by its filter,
/// too long for its size bounds, a variant it never picks).
///
/// It names the generator that gave up ([`NoInverse::generator`], its type without module
/// paths: `Ints<u8>`, `Map<Ints<u8>, {{closure}}>`), the part of the value it was asked for
/// ([`NoInverse::path`], as [`provenance`](crate::provenance) writes paths: `.1[3]` is
/// element 3 of field 1; empty for the whole value) and why ([`NoInverse::reason`]).
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::Reflection;
///
/// let g = (bools(), vecs(ints::<u8>(0..=9), 0..=5));
/// let e = Reflection::of(&g, &(true, vec![1, 2, 30])).unwrap_err();
/// assert_eq!(e.generator(), "Ints<u8>");
/// assert_eq!(e.path(), ".1[2]");
/// assert_eq!(
///     e.to_string(),
///     "no inverse through `Ints<u8>` (at `.1[2]` of the value): 30 is outside its range 0..=9"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoInverse {
    generator: String,
    reason: String,
    path: String,
}

impl NoInverse {
    /// The generator `generator` (a name a person reads) cannot make the value, because of
    /// `reason`.
    pub fn new(generator: impl Into<String>, reason: impl Into<String>) -> NoInverse {
        NoInverse {
            generator: generator.into(),
            reason: reason.into(),
            path: String::new(),
        }
    }

    /// [`NoInverse::new`] naming the generator by its type `G`, without module paths
    /// (`tapefuzz::generators::Ints<u8>` is `Ints<u8>`).
    pub fn of<G: ?Sized>(reason: impl Into<String>) -> NoInverse {
        NoInverse::new(short_type_name(std::any::type_name::<G>()), reason)
    }

    /// The same error one level up: the part that failed was reached from the enclosing
    /// value by `step` (`.0` for a field or `Some`'s value, `.name` for a named field, `[3]`
    /// for an element), which goes in front of the path so far.
    pub fn at(mut self, step: impl AsRef<str>) -> NoInverse {
        self.path.insert_str(0, step.as_ref());
        self
    }

    /// The generator that gave up.
    pub fn generator(&self) -> &str {
        &self.generator
    }

    /// Why.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Where in the value (`.1[3]`); empty for the whole value.
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl fmt::Display for NoInverse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no inverse through `{}`", self.generator)?;
        if !self.path.is_empty() {
            write!(f, " (at `{}` of the value)", self.path)?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for NoInverse {}

/// `e` as a person reads it, cut to about 300 characters: what a union or a recursive
/// generator quotes of each way it tried (quoted whole, the reasons of nested unions would
/// multiply).
pub(crate) fn clipped(e: &NoInverse) -> String {
    const MOST: usize = 300;
    let text = e.to_string();
    match text.char_indices().nth(MOST) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// `full` (a [`std::any::type_name`]) with every path cut to its last segment:
/// `alloc::vec::Vec<tapefuzz::generators::Ints<u8>>` is `Vec<Ints<u8>>`.
pub(crate) fn short_type_name(full: &str) -> String {
    let mut out = String::with_capacity(full.len());
    // Where the path being read started in `out`: a `::` drops what came since.
    let mut start = 0;
    let mut rest = full;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("::") {
            out.truncate(start);
            rest = &rest[2..];
            continue;
        }
        out.push(c);
        if "<>,()[]&*;= ".contains(c) {
            start = out.len();
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::short_type_name;

    #[test]
    fn type_names_lose_their_paths() {
        assert_eq!(
            short_type_name("alloc::vec::Vec<tapefuzz::generators::ints::Ints<u8>>"),
            "Vec<Ints<u8>>"
        );
        assert_eq!(
            short_type_name(
                "tapefuzz::generators::map::Map<tapefuzz::generators::ints::Ints<u8>, shrink_value::t::{{closure}}>"
            ),
            "Map<Ints<u8>, {{closure}}>"
        );
        assert_eq!(
            short_type_name("(u8, &dyn tapefuzz::generators::Gen<Value = u8>)"),
            "(u8, &dyn Gen<Value = u8>)"
        );
    }
}
