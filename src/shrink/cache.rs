//! What earlier runs decided: a tree of the recorded tapes, so no tape is run twice.
//!
//! A run consumes the candidate's indices one unforced choice at a time and stops when the
//! generator and the property are done; with a deterministic test, any later candidate that
//! starts with the same consumed indices makes the same draws and ends the same way. So the
//! tree is keyed by what was *recorded*, not by the candidate: a candidate whose extra
//! indices were never read, or whose index was out of range and read modulo the choice's
//! size (as [`crate::tape::ReplaySource`] does), is recognised as the run it repeats.

use crate::tape::Recording;
use std::collections::{HashMap, VecDeque};

/// How many of the latest runs keep their whole recording (spans included), so a pass that
/// needs the shape a known candidate records gets it without running it again.
const RECENT: usize = 512;

/// One node: a point reached after some unforced choices.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Largest index of the choice drawn here, once a run has drawn one.
    max: Option<u64>,
    /// A run stopped here, having recorded this many choices (forced ones included). How it
    /// ended need not be kept: a run decided by an earlier one cannot improve on the best
    /// tape (it either became the best then, or was no smaller than a best that has only
    /// shrunk since).
    end: Option<usize>,
}

/// The tree of recorded runs (see the module docs).
#[derive(Debug)]
pub(super) struct Cache {
    nodes: Vec<Node>,
    /// Child of (node, index drawn there).
    edges: HashMap<(u32, u64), u32>,
    /// The recordings of the latest runs, by the node they ended at, oldest first.
    recent: HashMap<u32, Recording>,
    order: VecDeque<u32>,
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
        Cache {
            nodes: vec![Node::default()],
            edges: HashMap::new(),
            recent: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// How a run of `indices` (the unforced choices, then index 0 for ever, as a replay
    /// source falls back) ends, if an earlier run decided it.
    pub(super) fn lookup(&self, indices: &[u64]) -> Option<Hit> {
        let mut node = 0u32;
        let mut pos = 0;
        loop {
            let n = self.nodes[node as usize];
            if let Some(len) = n.end {
                return Some(Hit {
                    len,
                    recording: self.recent.get(&node).cloned(),
                });
            }
            let max = n.max?;
            let mut index = indices.get(pos).copied().unwrap_or(0);
            if index > max {
                index %= max + 1;
            }
            node = *self.edges.get(&(node, index))?;
            pos += 1;
        }
    }

    /// Records the run that recorded `rec`.
    pub(super) fn insert(&mut self, rec: &Recording) {
        let mut node = 0u32;
        for c in rec.choices.iter().filter(|c| !c.forced) {
            self.nodes[node as usize].max = Some(c.max);
            let next = self.nodes.len() as u32;
            let child = *self.edges.entry((node, c.index)).or_insert(next);
            if child == next {
                self.nodes.push(Node::default());
            }
            node = child;
        }
        self.nodes[node as usize].end = Some(rec.choices.len());
        if self.recent.insert(node, rec.clone()).is_none() {
            self.order.push_back(node);
            if self.order.len() > RECENT
                && let Some(old) = self.order.pop_front()
            {
                self.recent.remove(&old);
            }
        }
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
        let valid = Some(2);
        assert_eq!(found(&c, &[1, 5]), valid);
        assert_eq!(
            c.lookup(&[1, 5]).unwrap().recording,
            Some(rec(&[(1, 1), (5, 9)]))
        );
        // Indices past what the run read do not matter, nor do out-of-range ones.
        assert_eq!(found(&c, &[1, 5, 7, 7]), valid);
        assert_eq!(found(&c, &[1, 15]), valid);
        assert_eq!(found(&c, &[1, 4]), None);
        assert_eq!(found(&c, &[0]), None);
        // A run that read zeros past its candidate's end decides the shorter candidate.
        c.insert(&rec(&[(0, 1), (0, 3)]));
        assert_eq!(found(&c, &[]), Some(2));
    }
}
