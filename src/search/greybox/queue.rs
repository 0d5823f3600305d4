//! The kept tapes, and which one to mutate next.

use crate::tape::{Recording, Rng};

/// A tape that reached a feature no earlier one had.
#[derive(Clone, Debug)]
pub struct Kept {
    /// Its record: choices and spans, for the structure-aware operators.
    pub recording: Recording,
    /// Features it was the first to reach.
    pub new_features: u32,
    /// Whether the property held on it (only those go to `corpus/`).
    pub valid: bool,
    /// Whether it came from the generate phase (not replayed from disk).
    pub generated: bool,
    /// The integer pairs its code compared, when it ran with the comparison log on: the
    /// input-to-state candidates of its own bytes (Redqueen works on the comparisons of the
    /// input it mutates).
    pub compared: Vec<(u64, u64)>,
}

/// Kept tapes in the order they were found.
#[derive(Clone, Debug, Default)]
pub struct Queue {
    entries: Vec<Kept>,
}

/// How many of the latest entries count as recent.
const RECENT: usize = 8;

impl Queue {
    /// Adds a tape.
    pub fn push(&mut self, kept: Kept) {
        self.entries.push(kept);
    }

    /// Number of kept tapes.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The kept tapes, oldest first.
    pub fn entries(&self) -> &[Kept] {
        &self.entries
    }

    /// The kept tape at `i`, mutably.
    pub fn entry_mut(&mut self, i: usize) -> &mut Kept {
        &mut self.entries[i]
    }

    /// The tape at `i`.
    pub fn get(&self, i: usize) -> &Recording {
        &self.entries[i].recording
    }

    /// The index of a tape to mutate (the queue must not be empty). Half the time one of the
    /// 8 latest: a tape that just reached new code is where the next step deeper is
    /// most likely. Otherwise the shorter of two uniform picks: short tapes run fast, and an
    /// edit of a short tape more often hits the choice that matters.
    pub fn pick(&self, rng: &mut Rng) -> usize {
        let n = self.entries.len();
        debug_assert!(n > 0, "pick from an empty queue");
        if rng.next_u64() & 1 == 0 {
            return n - 1 - rng.below_or_eq((n.min(RECENT) - 1) as u64) as usize;
        }
        let a = rng.below_or_eq(n as u64 - 1) as usize;
        let b = rng.below_or_eq(n as u64 - 1) as usize;
        let len = |i: usize| self.entries[i].recording.choices.len();
        if len(a) <= len(b) { a } else { b }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::{Choice, PointId};

    fn kept(len: usize) -> Kept {
        let c = Choice {
            point: PointId(0),
            max: 1,
            index: 1,
            forced: false,
            in_run: false,
        };
        Kept {
            recording: Recording {
                choices: vec![c; len],
                ..Recording::default()
            },
            new_features: 1,
            valid: true,
            generated: true,
            compared: Vec::new(),
        }
    }

    #[test]
    fn picks_favour_recent_and_short_tapes() {
        let mut q = Queue::default();
        for i in 0..100 {
            // Alternately short and long; the last 8 are recent.
            q.push(kept(if i % 2 == 0 { 1 } else { 100 }));
        }
        let mut rng = Rng::new(3);
        let (mut recent, mut old, mut short) = (0, 0, 0);
        for _ in 0..10_000 {
            let i = q.pick(&mut rng);
            if i >= 92 {
                recent += 1;
            } else {
                old += 1;
                short += (i % 2 == 0) as u32;
            }
        }
        // Uniform picks would give 8% recent, and half the older picks short.
        assert!(recent > 4_500, "recent {recent}");
        assert!(short * 100 > old * 65, "short {short} of {old}");
    }
}
