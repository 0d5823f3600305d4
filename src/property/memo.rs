//! The values that passed in one shrink, by their Debug form.

use crate::tape::Status;
use std::collections::HashMap;
use std::fmt::{self, Debug, Write};
use std::hash::{DefaultHasher, Hasher};

/// The longest Debug form [`ValueMemo::key`] hashes, in bytes: formatting a larger value for
/// every candidate costs more than the property runs it saves.
pub const MEMO_LIMIT: usize = 4096;

/// The values that did not fail in one shrink, by a hash of their Debug form, with how they
/// ended ([`Status::Valid`], or [`Status::Invalid`] from an `assume!` in the property).
///
/// Shrink candidates made of other choices often build a value tried before: a size whose
/// elements were dropped anyway, a draw a `flat_map` ignores, a set of the same elements, a
/// `map` onto fewer values. A property is a function of its value, so the property layer
/// ([`crate::property::Test::run_memo`]) answers such a candidate from here instead of running
/// the property again; the generator still runs (the shrink needs the candidate's recording).
///
/// At the edges: a failing value is never kept, so no candidate is ever taken as failing
/// without running. A Debug form longer than [`MEMO_LIMIT`] gives no key (the value always
/// runs). Two different values with the same Debug form (a hand-written `Debug` that leaves
/// out a field, NaNs of other payloads) count as one: the second is taken as passing
/// unchecked, which may leave a shrink less small, never wrong.
///
/// ```
/// use tapefuzz::property::ValueMemo;
/// use tapefuzz::tape::Status;
///
/// let mut memo = ValueMemo::new();
/// let key = ValueMemo::key(&vec![1, 2, 3]).unwrap();
/// assert_eq!(memo.get(key), None);
/// memo.insert(key, Status::Valid);
/// assert_eq!(memo.get(ValueMemo::key(&vec![1, 2, 3]).unwrap()), Some(Status::Valid));
/// // Failures are never kept.
/// memo.insert(ValueMemo::key(&7).unwrap(), Status::Interesting);
/// assert!(memo.get(ValueMemo::key(&7).unwrap()).is_none());
/// assert!(ValueMemo::key(&vec![0u8; 5000]).is_none());
/// ```
#[derive(Clone, Debug, Default)]
pub struct ValueMemo {
    seen: HashMap<u64, Status>,
}

impl ValueMemo {
    /// An empty memo.
    pub fn new() -> ValueMemo {
        ValueMemo::default()
    }

    /// The key of `value`: a hash of its Debug form, or `None` when that is longer than
    /// [`MEMO_LIMIT`] bytes (formatting stops there) or its `Debug` returns an error.
    pub fn key(value: &impl Debug) -> Option<u64> {
        let mut w = HashWriter {
            hasher: DefaultHasher::new(),
            len: 0,
        };
        write!(w, "{value:?}").ok()?;
        w.hasher.write_usize(w.len);
        Some(w.hasher.finish())
    }

    /// How the value of `key` ended, if it did not fail before.
    pub fn get(&self, key: u64) -> Option<Status> {
        self.seen.get(&key).copied()
    }

    /// Keeps how the value of `key` ended; a [`Status::Interesting`] one (or an overrun) is
    /// not kept.
    pub fn insert(&mut self, key: u64, status: Status) {
        if matches!(status, Status::Valid | Status::Invalid) {
            self.seen.insert(key, status);
        }
    }

    /// How many values are kept.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

/// Hashes what is written to it, up to [`MEMO_LIMIT`] bytes (then fails the formatting).
struct HashWriter {
    hasher: DefaultHasher,
    len: usize,
}

impl Write for HashWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.len += s.len();
        if self.len > MEMO_LIMIT {
            return Err(fmt::Error);
        }
        self.hasher.write(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_the_debug_form_and_stop_at_the_limit() {
        assert_eq!(ValueMemo::key(&(1, "a")), ValueMemo::key(&(1, "a")));
        assert_ne!(ValueMemo::key(&(1, "a")), ValueMemo::key(&(1, "b")));
        // Pieces written in other sizes hash alike only as the same text.
        assert_ne!(ValueMemo::key(&["ab", "c"]), ValueMemo::key(&["a", "bc"]));
        let just_fits = "x".repeat(MEMO_LIMIT - 2); // the quotes make it MEMO_LIMIT
        assert!(ValueMemo::key(&just_fits).is_some());
        assert!(ValueMemo::key(&format!("{just_fits}y")).is_none());
    }

    #[test]
    fn only_values_that_did_not_fail_are_kept() {
        let mut m = ValueMemo::new();
        m.insert(1, Status::Interesting);
        m.insert(2, Status::Overrun);
        m.insert(3, Status::Invalid);
        m.insert(4, Status::Valid);
        assert_eq!((m.get(1), m.get(2)), (None, None));
        assert_eq!(
            (m.get(3), m.get(4)),
            (Some(Status::Invalid), Some(Status::Valid))
        );
        assert_eq!(m.len(), 2);
    }
}
