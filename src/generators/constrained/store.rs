//! Difference constraints over bounded integers (`x − y ≤ c`), kept bounds-consistent.
//!
//! Each variable has bounds `lo..=hi`; a constraint `a − b ≤ k` is an edge. Adding one
//! propagates the bounds (`hi(a) ≤ hi(b) + k`, `lo(b) ≥ lo(a) − k`) to a fixpoint, which is
//! Bellman–Ford on the constraint graph: the store is infeasible exactly when some bounds
//! cross or a negative cycle makes a variable's bound fall more often than there are
//! variables. At a fixpoint every variable at its lower bound is a solution, and so is any
//! value inside a variable's bounds once the others are propagated again, so values can be
//! fixed one by one without ever backtracking.

use std::collections::VecDeque;

/// The constant zero: variable 0, fixed at 0. A bound on `x` is an edge to it.
pub(crate) const ZERO: u32 = 0;

#[derive(Clone, Copy, Debug)]
enum Undo {
    Lo(u32, i64),
    Hi(u32, i64),
    Edge(u32, u32),
}

/// The store: bounds, edges and a trail to undo trial additions.
#[derive(Clone, Debug)]
pub(crate) struct Store {
    lo: Vec<i64>,
    hi: Vec<i64>,
    /// `out[b]`: edges `(a, k)` meaning `a − b ≤ k` (upper bounds flow from `b` to `a`).
    out: Vec<Vec<(u32, i128)>>,
    /// `inn[a]`: edges `(b, k)` meaning `a − b ≤ k` (lower bounds flow from `a` to `b`).
    inn: Vec<Vec<(u32, i128)>>,
    trail: Vec<Undo>,
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    count: Vec<u32>,
}

impl Default for Store {
    fn default() -> Store {
        Store::new()
    }
}

impl Store {
    /// A store holding only [`ZERO`].
    pub(crate) fn new() -> Store {
        Store {
            lo: vec![0],
            hi: vec![0],
            out: vec![Vec::new()],
            inn: vec![Vec::new()],
            trail: Vec::new(),
            queue: VecDeque::new(),
            queued: vec![false],
            count: vec![0],
        }
    }

    /// A new variable in `lo..=hi`.
    pub(crate) fn var(&mut self, lo: i64, hi: i64) -> u32 {
        self.lo.push(lo);
        self.hi.push(hi);
        self.out.push(Vec::new());
        self.inn.push(Vec::new());
        self.queued.push(false);
        self.count.push(0);
        (self.lo.len() - 1) as u32
    }

    /// The bounds of `v`.
    pub(crate) fn bounds(&self, v: u32) -> (i64, i64) {
        (self.lo[v as usize], self.hi[v as usize])
    }

    /// Back to these bounds, with no edges.
    pub(crate) fn reset(&mut self, lo: &[i64], hi: &[i64]) {
        self.lo.clear();
        self.lo.extend_from_slice(lo);
        self.hi.clear();
        self.hi.extend_from_slice(hi);
        for e in &mut self.out {
            e.clear();
        }
        for e in &mut self.inn {
            e.clear();
        }
        self.trail.clear();
    }

    /// The current bounds of every variable (to reset to later).
    pub(crate) fn snapshot(&self) -> (Vec<i64>, Vec<i64>) {
        (self.lo.clone(), self.hi.clone())
    }

    /// A point to [`Store::undo`] back to.
    pub(crate) fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes everything since `mark`.
    pub(crate) fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop().expect("longer than mark") {
                Undo::Lo(v, x) => self.lo[v as usize] = x,
                Undo::Hi(v, x) => self.hi[v as usize] = x,
                Undo::Edge(b, a) => {
                    self.out[b as usize].pop();
                    self.inn[a as usize].pop();
                }
            }
        }
    }

    /// Adds `a − b ≤ k`; `false` (with the store in some inconsistent state: undo it) when it
    /// makes the store infeasible.
    pub(crate) fn add(&mut self, a: u32, b: u32, k: i128) -> bool {
        if a == b {
            return k >= 0;
        }
        self.out[b as usize].push((a, k));
        self.inn[a as usize].push((b, k));
        self.trail.push(Undo::Edge(b, a));
        self.propagate_hi(b) && self.propagate_lo(a)
    }

    /// Fixes `v` at `x` (inside its bounds); `false` when that is infeasible.
    pub(crate) fn fix(&mut self, v: u32, x: i64) -> bool {
        let (lo, hi) = self.bounds(v);
        if x < lo || x > hi {
            return false;
        }
        if hi != x {
            self.trail.push(Undo::Hi(v, hi));
            self.hi[v as usize] = x;
        }
        if lo != x {
            self.trail.push(Undo::Lo(v, lo));
            self.lo[v as usize] = x;
        }
        self.propagate_hi(v) && self.propagate_lo(v)
    }

    /// Whether every solution within the bounds has `a − b ≤ k` (`hi(a) − lo(b) ≤ k`): then
    /// adding it changes nothing.
    #[inline]
    pub(crate) fn entails(&self, a: u32, b: u32, k: i128) -> bool {
        if a == b {
            return k >= 0;
        }
        let (a, b) = (a as usize, b as usize);
        (self.hi[a] as i128) - (self.lo[b] as i128) <= k
    }

    /// Whether the bounds alone rule out `a − b ≤ k` (`lo(a) − hi(b) > k`: no values within
    /// them satisfy it).
    #[inline]
    fn excludes(&self, a: u32, b: u32, k: i128) -> bool {
        if a == b {
            return k < 0;
        }
        let (a, b) = (a as usize, b as usize);
        (self.lo[a] as i128) - (self.hi[b] as i128) > k
    }

    /// Whether the bounds alone decide that adding all of `constraints` together keeps the
    /// store feasible: `Some(false)` when one is excluded, `Some(true)` when all are
    /// entailed, `None` when only propagation can tell.
    pub(crate) fn settled(&self, constraints: &[(u32, u32, i128)]) -> Option<bool> {
        if constraints.iter().any(|&(a, b, k)| self.excludes(a, b, k)) {
            return Some(false);
        }
        constraints
            .iter()
            .all(|&(a, b, k)| self.entails(a, b, k))
            .then_some(true)
    }

    /// Whether adding `a − b ≤ k` keeps the store feasible (the store is left unchanged).
    #[cfg(test)]
    pub(crate) fn allows(&mut self, a: u32, b: u32, k: i128) -> bool {
        let m = self.mark();
        let ok = self.add(a, b, k);
        self.undo(m);
        ok
    }

    fn start(&mut self, v: u32) {
        self.queue.clear();
        self.queued.iter_mut().for_each(|q| *q = false);
        self.count.iter_mut().for_each(|c| *c = 0);
        self.queue.push_back(v);
        self.queued[v as usize] = true;
    }

    fn enqueue(&mut self, v: u32) -> bool {
        if !self.queued[v as usize] {
            self.queued[v as usize] = true;
            self.count[v as usize] += 1;
            // More rounds than variables: a negative cycle.
            if self.count[v as usize] as usize > self.lo.len() + 1 {
                return false;
            }
            self.queue.push_back(v);
        }
        true
    }

    fn propagate_hi(&mut self, from: u32) -> bool {
        self.start(from);
        while let Some(b) = self.queue.pop_front() {
            self.queued[b as usize] = false;
            let hb = self.hi[b as usize];
            for i in 0..self.out[b as usize].len() {
                let (a, k) = self.out[b as usize][i];
                let nh = clamp(hb as i128 + k);
                if nh < self.hi[a as usize] {
                    self.trail.push(Undo::Hi(a, self.hi[a as usize]));
                    self.hi[a as usize] = nh;
                    if nh < self.lo[a as usize] || !self.enqueue(a) {
                        return false;
                    }
                }
            }
        }
        true
    }

    fn propagate_lo(&mut self, from: u32) -> bool {
        self.start(from);
        while let Some(a) = self.queue.pop_front() {
            self.queued[a as usize] = false;
            let la = self.lo[a as usize];
            for i in 0..self.inn[a as usize].len() {
                let (b, k) = self.inn[a as usize][i];
                let nl = clamp(la as i128 - k);
                if nl > self.lo[b as usize] {
                    self.trail.push(Undo::Lo(b, self.lo[b as usize]));
                    self.lo[b as usize] = nl;
                    if nl > self.hi[b as usize] || !self.enqueue(b) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// A bound computed exactly, as the nearest `i64` (a variable's values are `i64`s, so a bound
/// past them says no more than the type's end).
#[inline]
fn clamp(x: i128) -> i64 {
    x.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_narrow_bounds_and_cycles_are_infeasible() {
        let mut s = Store::new();
        let x = s.var(0, 10);
        let y = s.var(0, 10);
        let z = s.var(0, 10);
        // x < y < z
        assert!(s.add(x, y, -1));
        assert!(s.add(y, z, -1));
        assert_eq!(s.bounds(x), (0, 8));
        assert_eq!(s.bounds(y), (1, 9));
        assert_eq!(s.bounds(z), (2, 10));
        // z < x closes a negative cycle
        assert!(!s.allows(z, x, -1));
        assert_eq!(s.bounds(x), (0, 8), "a trial leaves the store as it was");
        // x = y - 1 is fine; then fixing y fixes x
        assert!(s.add(y, x, 1));
        assert!(s.fix(y, 5));
        assert_eq!(s.bounds(x), (4, 4));
        assert_eq!(s.bounds(z).0, 6);
    }

    #[test]
    fn the_bounds_settle_what_they_entail_or_exclude() {
        let mut s = Store::new();
        let x = s.var(0, 3);
        let y = s.var(5, 9);
        // x − y ≤ −2 holds for all of them; y − x ≤ 1 for none; x − y ≤ −6 for some.
        assert_eq!(s.settled(&[(x, y, -2)]), Some(true));
        assert_eq!(s.settled(&[(y, x, 1)]), Some(false));
        assert_eq!(s.settled(&[(x, y, -6)]), None);
        assert_eq!(s.settled(&[(x, y, -2), (y, x, 1)]), Some(false));
        assert_eq!(s.settled(&[(x, y, -2), (ZERO, ZERO, 0)]), Some(true));
        // What settling says is what propagation says.
        for (a, b, k) in [(x, y, -2), (y, x, 1), (x, y, -6), (y, x, 9), (x, y, -10)] {
            if let Some(answer) = s.settled(&[(a, b, k)]) {
                assert_eq!(answer, s.allows(a, b, k), "{a} − {b} ≤ {k}");
            }
        }
        // Extreme bounds do not overflow: `big − x ≤ MAX` always holds, `x − big ≤ MIN`
        // would need `big` past `i64::MAX`.
        let big = s.var(i64::MIN, i64::MAX);
        assert_eq!(s.settled(&[(big, x, i64::MAX as i128)]), Some(true));
        assert_eq!(s.settled(&[(x, big, i64::MIN as i128)]), Some(false));
        assert_eq!(s.settled(&[(x, big, 0)]), None);
    }

    #[test]
    fn negative_cycles_within_wide_bounds_end_quickly() {
        let mut s = Store::new();
        let x = s.var(-1_000_000_000, 1_000_000_000);
        let y = s.var(-1_000_000_000, 1_000_000_000);
        assert!(s.add(x, y, -1));
        assert!(!s.allows(y, x, -1));
        assert!(s.allows(y, x, 1));
    }

    #[test]
    fn every_value_inside_the_bounds_extends_to_a_solution() {
        // x ≤ y, y ≤ z + 3, z ≤ x: fix them one by one at random values in their bounds.
        let mut rng = crate::tape::Rng::new(7);
        for _ in 0..200 {
            let mut s = Store::new();
            let v: Vec<u32> = (0..4).map(|_| s.var(-20, 20)).collect();
            assert!(s.add(v[0], v[1], 0));
            assert!(s.add(v[1], v[2], 3));
            assert!(s.add(v[2], v[0], 0));
            assert!(s.add(v[3], v[0], -2));
            for &x in &v {
                let (lo, hi) = s.bounds(x);
                let pick = lo + rng.below_or_eq((hi - lo) as u64) as i64;
                assert!(s.fix(x, pick), "{pick} in {lo}..={hi}");
            }
        }
    }
}
