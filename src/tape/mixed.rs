//! Sets and maps keyed by hashes that are already well mixed (fingerprints, path keys):
//! hashed as themselves, since SipHash cost more than everything else a fast loop does per
//! test case.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher that passes a `u64` key through (other keys are folded byte by byte). Only for
/// keys that are already hashes: anything else would collide.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassThrough(u64);

impl Hasher for PassThrough {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    #[inline]
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// A set of hashes (tape fingerprints, characteristics).
pub type HashesSet = HashSet<u64, BuildHasherDefault<PassThrough>>;

/// A map keyed by hashes.
pub type HashesMap<V> = HashMap<u64, V, BuildHasherDefault<PassThrough>>;
