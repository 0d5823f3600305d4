//! What earlier runs decided, so no tape is run twice.
//!
//! A run consumes the candidate's indices one unforced choice at a time and stops when the
//! generator and the property are done; with a deterministic test, any later candidate that
//! starts with the same consumed indices makes the same draws and ends the same way. So the
//! cache is keyed by what was *recorded*, not by the candidate: a candidate whose extra
//! indices were never read, or that ran out and was read as zeros (as
//! [`crate::tape::ReplaySource`] falls back) or had an index out of range (read as the
//! largest index: the shrinker replays with [`crate::tape::ReplaySource::clamping`]), is recognised as the run it repeats. Runs are kept as a tree of hashed
//! prefixes of their recorded unforced indices: each prefix a run went through knows the
//! range of the choice drawn next, each prefix a run stopped at knows that run's length.

use crate::tape::Recording;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// How many of the latest runs keep their whole recording (spans included), so a pass that
/// needs the shape a known candidate records gets it without running it again.
const RECENT: usize = 512;

/// The hash of a sequence of indices, one index at a time (SplitMix64's finaliser over the
/// hash so far and the index, so that small indices and zeros spread).
fn step(hash: u64, index: u64) -> u64 {
    let mut z =
        (hash ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_add(0x6a09_e667_f3bc_c909);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The hash of no index.
const EMPTY: u64 = 0x243f_6a88_85a3_08d3;

/// Keys are hashes already: used as they are.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type ByHash<V> = HashMap<u64, V, BuildHasherDefault<Identity>>;

/// The runs made so far (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Cache {
    /// Tape length of each run, by the hash of its recorded unforced indices.
    ends: ByHash<usize>,
    /// The largest index of the choice drawn after each prefix a run went through.
    maxes: ByHash<u64>,
    /// The recordings of the latest runs, by hash, oldest first.
    recent: ByHash<Recording>,
    order: VecDeque<u64>,
}

/// An earlier run that decides a candidate.
#[derive(Debug)]
pub(super) struct Hit {
    /// Its tape's length (forced choices included).
    pub(super) len: usize,
    /// Its recording, if it is one of the latest runs.
    pub(super) recording: Option<Recording>,
}

impl Cache {
    pub(super) fn new() -> Cache {
        Cache::default()
    }

    /// The earlier run that a run of `indices` (the unforced choices, then index 0 for
    /// ever, as a replay source falls back) would repeat, if there is one.
    pub(super) fn lookup(&self, indices: &[u64]) -> Option<Hit> {
        let mut hash = EMPTY;
        let mut pos = 0;
        loop {
            if let Some(&len) = self.ends.get(&hash) {
                return Some(Hit {
                    len,
                    recording: self.recent.get(&hash).cloned(),
                });
            }
            let &max = self.maxes.get(&hash)?;
            let mut index = indices.get(pos).copied().unwrap_or(0);
            index = index.min(max);
            hash = step(hash, index);
            pos += 1;
        }
    }

    /// A hash of a sequence of indices (the one runs are keyed by), for a choice among
    /// candidates that is deterministic but spread over the tape.
    pub(super) fn hash(indices: &[u64]) -> u64 {
        indices.iter().fold(EMPTY, |h, &i| step(h, i))
    }

    /// Records the run that recorded `rec`.
    pub(super) fn insert(&mut self, rec: &Recording) {
        let hash = self.path(rec);
        self.ends.insert(hash, rec.choices.len());
        // Without the generators' suggestions: only the best tape's are read, and a float's
        // can outweigh its choices.
        let kept = Recording {
            choices: rec.choices.clone(),
            spans: rec.spans.clone(),
            rejected_at: rec.rejected_at,
            labels: rec.labels.clone(),
            suggested: Vec::new(),
            value_steps: Vec::new(),
            shifts: Vec::new(),
        };
        if self.recent.insert(hash, kept).is_none() {
            self.order.push_back(hash);
            if self.order.len() > RECENT
                && let Some(old) = self.order.pop_front()
            {
                self.recent.remove(&old);
            }
        }
    }

    /// Records a run that overran a size budget below the best tape's length where nothing
    /// that starts with the choices it read can be smaller than the best tape (it rose above
    /// it there: see `Shrinker::attempt`): a later candidate that starts with them is known
    /// as a run of `len` choices, the best tape's length then, without a recording. Kept in
    /// a cache of its own (the shrinker's `rising`): the entry would hide the recordings of
    /// runs that went on through the same choices.
    pub(super) fn insert_overrun(&mut self, rec: &Recording, len: usize) {
        let hash = self.path(rec);
        self.ends.insert(hash, len);
    }

    /// Adds the prefixes `rec`'s unforced choices go through; the hash of all of them.
    fn path(&mut self, rec: &Recording) -> u64 {
        let mut hash = EMPTY;
        for c in rec.choices.iter().filter(|c| !c.forced) {
            self.maxes.insert(hash, c.max);
            hash = step(hash, c.index);
        }
        hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::{Choice, PointId};

    fn rec(choices: &[(u64, u64)]) -> Recording {
        Recording {
            choices: choices
                .iter()
                .map(|&(index, max)| Choice {
                    point: PointId(0),
                    max,
                    index,
                    forced: false,
                    in_run: false,
                })
                .collect(),
            ..Recording::default()
        }
    }

    #[test]
    fn a_candidate_that_repeats_a_recorded_run_is_known() {
        let mut c = Cache::new();
        c.insert(&rec(&[(1, 1), (5, 9)]));
        let found = |c: &Cache, i: &[u64]| c.lookup(i).map(|h| h.len);
        assert_eq!(found(&c, &[1, 5]), Some(2));
        assert_eq!(
            c.lookup(&[1, 5]).unwrap().recording,
            Some(rec(&[(1, 1), (5, 9)]))
        );
        // Indices past what the run read do not matter, nor do out-of-range ones.
        assert_eq!(found(&c, &[1, 5, 7, 7]), Some(2));
        assert_eq!(found(&c, &[1, 15]), None);
        assert_eq!(found(&c, &[1, 9]), None);
        c.insert(&rec(&[(1, 1), (9, 9)]));
        assert_eq!(found(&c, &[1, 15]), Some(2));
        assert_eq!(found(&c, &[1, 4]), None);
        assert_eq!(found(&c, &[0]), None);
        // A run that read zeros past its candidate's end decides the shorter candidate.
        c.insert(&rec(&[(0, 1), (0, 3)]));
        assert_eq!(found(&c, &[]), Some(2));
        assert_eq!(found(&c, &[0]), Some(2));
    }

    #[test]
    fn an_overrun_that_rose_first_decides_what_starts_with_its_choices() {
        let mut c = Cache::new();
        // Cut at two choices where the best tape had three: known as three, no recording.
        c.insert_overrun(&rec(&[(7, 9), (2, 3)]), 3);
        let hit = c.lookup(&[7, 2, 1, 1]).expect("known");
        assert_eq!((hit.len, hit.recording), (3, None));
        assert!(c.lookup(&[7, 1]).is_none());
    }
}
