//! Labels name choice points and spans; ids derived from them are stable across runs and builds.

use super::Kind;

/// A name for a choice point or a span, with its [`Kind`] and its hash computed once (at
/// compile time for `const` labels). Ids derive from the hash, never from addresses or type
/// names. Two labels are equal when their hashes are; the hash covers the kind, so a user's
/// label never equals a built-in one of the same name.
#[derive(Clone, Copy, Debug)]
pub struct Label {
    name: &'static str,
    hash: u64,
    kind: Kind,
}

/// FNV-1a of a name.
const fn fnv(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

impl Label {
    /// A user's label with the given name ([`Kind::User`]; FNV-1a hash, usable in `const`
    /// items). Any name is allowed, built-in ones included: the label stays the user's.
    pub const fn new(name: &'static str) -> Label {
        Label {
            name,
            hash: fnv(name),
            kind: Kind::User,
        }
    }

    /// A label of a built-in kind: for generators that play a built-in part (a collection of
    /// one's own whose elements strategies should treat as list elements, say). Its hash is
    /// in the kind's own domain, apart from every user label.
    pub const fn builtin(kind: Kind, name: &'static str) -> Label {
        let hash = match kind {
            Kind::User => fnv(name),
            _ => mix(fnv(name), 0x6b69_6e64_0000_0000 ^ kind.code()),
        };
        Label { name, hash, kind }
    }

    /// What the label marks.
    #[inline]
    pub const fn kind(&self) -> Kind {
        self.kind
    }

    /// The same name, told apart by `index` (a tuple field, a union variant).
    #[inline]
    pub const fn indexed(self, index: u64) -> Label {
        Label {
            name: self.name,
            hash: mix(self.hash, index.wrapping_add(0x5851_f42d_4c95_7f2d)),
            kind: self.kind,
        }
    }

    /// The label's name.
    #[inline]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The label's stable hash.
    #[inline]
    pub const fn hash(&self) -> u64 {
        self.hash
    }
}

impl PartialEq for Label {
    fn eq(&self, other: &Label) -> bool {
        self.hash == other.hash
    }
}
impl Eq for Label {}

/// The stable id of a choice point: its label mixed with the labels of the enclosing spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct PointId(pub u64);

/// Mixes two 64-bit hashes (order matters). Cheap: it runs on every draw.
#[inline]
pub(crate) const fn mix(a: u64, b: u64) -> u64 {
    let x = (a.rotate_left(23) ^ b).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ (x >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_pinned() {
        // Ids are persisted (corpus manifests, learners): they must never change.
        assert_eq!(Label::new("").hash(), 0xcbf2_9ce4_8422_2325);
        assert_eq!(Label::new("a").hash(), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(Label::new("x").indexed(0), Label::new("x").indexed(1));
    }
}
