//! Monte Carlo Control learners (paper 002, Algorithm 1): one table of Q-values per choice
//! point and state, each the average reward of the episodes that made that choice there.

use crate::tape::Rng;

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

/// Where `key` starts probing in a table of `2^(64 - shift)` entries: Fibonacci hashing,
/// the top bits of a multiply.
#[inline(always)]
fn home(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize
}

/// An open-addressing map from keys that are already hashes to the first cell of their
/// slot: linear probing, at most a quarter full. The key 0 marks an empty entry (a real key of 0
/// is stored as 1; two keys meeting that way share a learner, as any two colliding hashes
/// would). Cheaper per lookup than a general hash map, which is most of a guided draw.
#[derive(Default)]
struct Slots {
    /// (key, first cell) pairs: one cache line read per probe.
    entries: Vec<(u64, u32)>,
    len: usize,
    /// 64 minus log2 of the table size (kept, not recounted: baseline x86-64 has no
    /// popcount instruction).
    shift: u32,
}

impl Slots {
    /// The slot of `key` when it has one (a found key is almost always at its home: the
    /// table is at most a quarter full); `Err(i)` the empty entry where it would go.
    #[inline(always)]
    fn find(&self, key: u64) -> Result<u32, usize> {
        debug_assert!(key != 0, "0 marks an empty entry");
        let mask = self.entries.len().wrapping_sub(1);
        let mut i = home(key, self.shift) & mask;
        loop {
            // An empty table (mask of all ones, len 0) finds nothing at once.
            let Some(&(k, at)) = self.entries.get(i) else {
                return Err(i);
            };
            if k == key {
                return Ok(at);
            }
            if k == 0 {
                return Err(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Enters `key` (not present; `i` where [`Slots::find`] stopped) with first cell `at`.
    /// Out of line: new states are rare once learning is under way, and keeping this out of
    /// the draw keeps the draw's registers free.
    #[cold]
    #[inline(never)]
    fn insert(&mut self, key: u64, mut i: usize, at: u32) {
        debug_assert!(key != 0, "0 marks an empty entry");
        // At most a quarter full: grow before inserting (then probe afresh). Each lookup
        // that needs a second probe is a branch the processor mispredicts.
        if self.entries.is_empty() || (self.len + 1) * 4 > self.entries.len() {
            self.grow();
            let mask = self.entries.len() - 1;
            i = home(key, self.shift);
            while self.entries[i].0 != 0 {
                i = (i + 1) & mask;
            }
        }
        self.entries[i] = (key, at);
        self.len += 1;
    }

    #[cold]
    fn grow(&mut self) {
        let cap = (self.entries.len() * 2).max(1024);
        let old = std::mem::replace(&mut self.entries, vec![(0, 0); cap]);
        let mask = cap - 1;
        self.shift = 64 - cap.trailing_zeros();
        for (k, a) in old {
            if k != 0 {
                let mut i = home(k, self.shift);
                while self.entries[i].0 != 0 {
                    i = (i + 1) & mask;
                }
                self.entries[i] = (k, a);
            }
        }
    }
}

/// A Q-value as an integer with the same order (Q-values are never NaN): positive floats
/// order as their bits do, negative ones reversed, so flip the sign bit of the one and every
/// bit of the other. Always above 0 for a real number.
#[inline(always)]
fn ordered(q: f32) -> u32 {
    let bits = q.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }
}

/// One (state, arm) pair: its Q-value (stored [`ordered`], so the greedy pass compares
/// integers) and how many rewards made it.
#[derive(Clone, Copy, Debug)]
struct Cell {
    key: u32,
    n: u32,
}

impl Cell {
    fn q(&self) -> f32 {
        unordered(self.key)
    }
}

impl Default for Cell {
    fn default() -> Cell {
        Cell {
            key: ordered(0.0),
            n: 0,
        }
    }
}

/// The inverse of [`ordered`].
#[inline(always)]
fn unordered(key: u32) -> f32 {
    f32::from_bits(if key >> 31 == 1 {
        key & !(1 << 31)
    } else {
        !key
    })
}

/// See [`Table::coin`].
pub(crate) struct CoinArms {
    /// The arm with the larger Q (1 when the second).
    pub(crate) better: u64,
    /// Both arms have the same Q.
    pub(crate) tie: bool,
    /// Neither arm was ever rewarded.
    pub(crate) unseen: bool,
}

/// Every learner's Q-table, in one arena: a (choice point, state, width) key maps to the
/// first of its arms' cells.
#[derive(Default)]
pub(crate) struct Table {
    slots: Slots,
    cells: Vec<Cell>,
}

impl Table {
    /// The first cell of `key`'s `arms` arms, created (all Q = 0) on first sight.
    #[inline(always)]
    pub(crate) fn slot(&mut self, key: u64, arms: usize) -> u32 {
        let key = key.max(1);
        match self.slots.find(key) {
            Ok(at) => at,
            Err(i) => self.add(key, i, arms),
        }
    }

    #[cold]
    #[inline(never)]
    fn add(&mut self, key: u64, i: usize, arms: usize) -> u32 {
        let at = self.cells.len() as u32;
        self.cells.resize(self.cells.len() + arms, Cell::default());
        self.slots.insert(key, i, at);
        at
    }

    /// The greedy arm of the slot at `at`: the largest Q (plus `bonus / sqrt(n + 1)` when
    /// `bonus > 0`), ties broken uniformly at random; `None` when no arm has had a reward yet
    /// (a state never visited).
    #[inline(always)]
    pub(crate) fn greedy(&self, at: u32, arms: usize, bonus: f64, rng: &mut Rng) -> Option<usize> {
        let cells = &self.cells[at as usize..at as usize + arms];
        if bonus > 0.0 {
            return self.greedy_with_bonus(cells, bonus, rng);
        }
        // Q-values compared as integers ([`ordered`]): cheaper than float compares and max.
        // One branch-free pass (Q-values are data: a compare-and-branch per arm mispredicts),
        // counting the ties of the best; a second pass only to pick among several.
        let mut best = 0u32;
        let mut first = 0usize;
        let mut ties = 0u64;
        for (arm, c) in cells.iter().enumerate() {
            let above = c.key > best;
            let level = c.key == best;
            first = std::hint::select_unpredictable(above, arm, first);
            ties = if above { 1 } else { ties + level as u64 };
            best = best.max(c.key);
        }
        // Every arm at Q = 0 is also what a slot never rewarded looks like: only then count.
        if ties == cells.len() as u64 && best == ordered(0.0) && cells.iter().all(|c| c.n == 0) {
            return None;
        }
        if ties == 1 {
            return Some(first);
        }
        let mut k = rng.below_or_eq(ties - 1);
        for (arm, c) in cells.iter().enumerate().skip(first) {
            if c.key == best {
                if k == 0 {
                    return Some(arm);
                }
                k -= 1;
            }
        }
        unreachable!("the best Q is one of the arms'")
    }

    /// What the two arms of the slot at `at` (a coin) say, without a branch: which is
    /// better, whether they tie, and whether neither was ever rewarded (a state never
    /// visited, which [`Table::greedy`] reports as `None`).
    #[inline(always)]
    pub(crate) fn coin(&self, at: u32) -> CoinArms {
        let (a, b) = (self.cells[at as usize], self.cells[at as usize + 1]);
        let tie = a.key == b.key;
        CoinArms {
            better: u64::from(b.key > a.key),
            tie,
            unseen: tie & ((a.n | b.n) == 0),
        }
    }

    /// [`Table::greedy`] with a count-based bonus.
    fn greedy_with_bonus(&self, cells: &[Cell], bonus: f64, rng: &mut Rng) -> Option<usize> {
        if cells.iter().all(|c| c.n == 0) {
            return None;
        }
        let score = |c: &Cell| f64::from(c.q()) + bonus / f64::from(c.n + 1).sqrt();
        let mut best = f64::NEG_INFINITY;
        let mut chosen = 0;
        let mut ties = 0u64;
        for (arm, c) in cells.iter().enumerate() {
            let v = score(c);
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
        Some(chosen)
    }

    /// Adds `reward` to the cell at `cell`.
    #[inline]
    pub(crate) fn credit(&mut self, cell: u32, reward: f64, update: Update) {
        let c = &mut self.cells[cell as usize];
        c.n = c.n.saturating_add(1);
        // In `f32`, the precision Q is stored in (a double division costs twice as long).
        let step = match update {
            Update::Average => 1.0 / c.n as f32,
            Update::Decayed(alpha) => (1.0 / c.n as f32).max(alpha as f32),
        };
        let q = c.q();
        c.key = ordered(q + step * (reward as f32 - q));
    }

    /// How many (choice point, state) pairs have a learner.
    pub(crate) fn states(&self) -> usize {
        self.slots.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_keeps_the_order_of_q_values() {
        let qs = [-20.0f32, -1.0, -0.5, -0.0, 0.0, 1e-9, 0.5, 1.0, 20.0];
        for w in qs.windows(2) {
            assert!(ordered(w[0]) <= ordered(w[1]), "{w:?}");
            assert_eq!(
                ordered(w[0]) == ordered(w[1]),
                w[0].to_bits() == w[1].to_bits()
            );
        }
        assert!(ordered(-f32::MAX) > 0);
        for q in qs {
            assert_eq!(unordered(ordered(q)).to_bits(), q.to_bits());
        }
    }

    #[test]
    fn q_is_the_average_reward() {
        let mut t = Table::default();
        let at = t.slot(7, 3);
        assert_eq!(t.slot(7, 3), at);
        for r in [20.0, 0.0, -1.0, 1.0] {
            t.credit(at + 1, r, Update::Average);
        }
        assert!((t.cells[at as usize + 1].q() - 5.0).abs() < 1e-6);
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
        assert!(t.cells[at as usize].q() < 0.0);
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
