//! Monte Carlo Control learners (paper 002, Algorithm 1): one table of Q-values per choice
//! point and state, each the average reward of the episodes that made that choice there.

use crate::tape::Rng;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How a Q-value follows the rewards it is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Update {
    /// The plain average of every reward (Algorithm 1).
    Average,
    /// The average while fewer than `1 / alpha` rewards have come, then an exponentially
    /// decayed one (`q += alpha · (r − q)`): old episodes are forgotten, against the plateau
    /// of paper 002 §5.2.
    Decayed(f64),
}

/// Keys are already hashes: hash them as themselves.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// One (state, arm) pair: its Q-value and how many rewards made it.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    q: f32,
    n: u32,
}

/// Every learner's Q-table, in one arena: a (choice point, state, width) key maps to the
/// first of its arms' cells.
#[derive(Default)]
pub(crate) struct Table {
    slots: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    cells: Vec<Cell>,
}

impl Table {
    /// The first cell of `key`'s `arms` arms, created (all Q = 0) on first sight.
    #[inline]
    pub(crate) fn slot(&mut self, key: u64, arms: usize) -> u32 {
        let cells = &mut self.cells;
        *self.slots.entry(key).or_insert_with(|| {
            let at = cells.len() as u32;
            cells.resize(cells.len() + arms, Cell::default());
            at
        })
    }

    /// The greedy arm of the slot at `at`: the largest Q (plus `bonus / sqrt(n + 1)` when
    /// `bonus > 0`), ties broken uniformly at random; `None` when no arm has had a reward yet
    /// (a state never visited).
    #[inline]
    pub(crate) fn greedy(&self, at: u32, arms: usize, bonus: f64, rng: &mut Rng) -> Option<usize> {
        let cells = &self.cells[at as usize..at as usize + arms];
        let mut tried = false;
        let mut best = f32::NEG_INFINITY;
        let mut chosen = 0;
        let mut ties = 0u64;
        for (arm, c) in cells.iter().enumerate() {
            tried |= c.n > 0;
            let v = if bonus > 0.0 {
                c.q + (bonus / f64::from(c.n + 1).sqrt()) as f32
            } else {
                c.q
            };
            if v > best {
                best = v;
                chosen = arm;
                ties = 1;
            } else if v == best {
                // Reservoir choice among the ties.
                ties += 1;
                if rng.below_or_eq(ties - 1) == 0 {
                    chosen = arm;
                }
            }
        }
        tried.then_some(chosen)
    }

    /// Adds `reward` to the cell at `cell`.
    #[inline]
    pub(crate) fn credit(&mut self, cell: u32, reward: f64, update: Update) {
        let c = &mut self.cells[cell as usize];
        c.n = c.n.saturating_add(1);
        let step = match update {
            Update::Average => 1.0 / f64::from(c.n),
            Update::Decayed(alpha) => (1.0 / f64::from(c.n)).max(alpha),
        };
        c.q += (step * (reward - f64::from(c.q))) as f32;
    }

    /// How many (choice point, state) pairs have a learner.
    pub(crate) fn states(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_is_the_average_reward() {
        let mut t = Table::default();
        let at = t.slot(7, 3);
        assert_eq!(t.slot(7, 3), at);
        for r in [20.0, 0.0, -1.0, 1.0] {
            t.credit(at + 1, r, Update::Average);
        }
        assert!((t.cells[at as usize + 1].q - 5.0).abs() < 1e-6);
        let mut rng = Rng::new(1);
        assert_eq!(t.greedy(at, 3, 0.0, &mut rng), Some(1));
    }

    #[test]
    fn decayed_values_forget() {
        let mut t = Table::default();
        let at = t.slot(1, 1);
        for _ in 0..100 {
            t.credit(at, 20.0, Update::Decayed(0.1));
        }
        for _ in 0..30 {
            t.credit(at, -1.0, Update::Decayed(0.1));
        }
        // The plain average would still be about 15.
        assert!(t.cells[at as usize].q < 0.0);
    }

    #[test]
    fn ties_are_broken_at_random_and_the_bonus_favours_untried_arms() {
        let mut t = Table::default();
        let at = t.slot(1, 4);
        let mut rng = Rng::new(5);
        assert_eq!(t.greedy(at, 4, 0.0, &mut rng), None, "untried");
        t.credit(at, 0.0, Update::Average);
        let mut seen = [0; 4];
        for _ in 0..400 {
            seen[t.greedy(at, 4, 0.0, &mut rng).unwrap()] += 1;
        }
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
        for _ in 0..10 {
            t.credit(at, 0.0, Update::Average);
            t.credit(at + 1, 0.0, Update::Average);
            t.credit(at + 2, 0.0, Update::Average);
        }
        assert_eq!(t.greedy(at, 4, 1.0, &mut rng), Some(3));
    }
}
