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

/// The store: bounds, edges and a trail to undo trial additions. `lo.len()` is the number of
/// variables; `out`, `inn`, `queued` and `count` may be longer (entries kept from an earlier
/// use, so a recycled store allocates nothing for its first variables).
#[derive(Debug)]
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
    /// Times each variable was queued in the current propagation, as `(propagation, times)`:
    /// a count from an earlier propagation is 0 (no pass over every variable per edge).
    count: Vec<(u32, u32)>,
    /// The current propagation.
    propagation: u32,
}

impl Default for Store {
    /// An empty placeholder that allocates nothing (not even [`ZERO`]): what a session is
    /// left holding while its store is lent out. [`Store::new`] makes a store to use.
    fn default() -> Store {
        Store {
            lo: Vec::new(),
            hi: Vec::new(),
            out: Vec::new(),
            inn: Vec::new(),
            trail: Vec::new(),
            queue: VecDeque::new(),
            queued: Vec::new(),
            count: Vec::new(),
            propagation: 0,
        }
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
            count: vec![(0, 0)],
            propagation: 0,
        }
    }

    /// A new variable in `lo..=hi`.
    pub(crate) fn var(&mut self, lo: i64, hi: i64) -> u32 {
        let v = self.lo.len();
        self.lo.push(lo);
        self.hi.push(hi);
        if v < self.out.len() {
            self.out[v].clear();
            self.inn[v].clear();
            self.queued[v] = false;
            self.count[v] = (0, 0);
        } else {
            self.out.push(Vec::new());
            self.inn.push(Vec::new());
            self.queued.push(false);
            self.count.push((0, 0));
        }
        v as u32
    }

    /// Back to a store holding only [`ZERO`], as [`Store::new`], keeping its allocations.
    pub(crate) fn recycle(&mut self) {
        if self.lo.is_empty() {
            // A placeholder (see `Default`).
            *self = Store::new();
            return;
        }
        self.lo.truncate(1);
        self.hi.truncate(1);
        // ZERO is 0 again, whatever a failed addition left.
        (self.lo[0], self.hi[0]) = (0, 0);
        self.out[0].clear();
        self.inn[0].clear();
        self.trail.clear();
        while let Some(q) = self.queue.pop_front() {
            self.queued[q as usize] = false;
        }
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

    /// The current bounds of every variable, into `lo` and `hi` (to reset to later).
    pub(crate) fn snapshot_into(&self, lo: &mut Vec<i64>, hi: &mut Vec<i64>) {
        lo.clone_from(&self.lo);
        hi.clone_from(&self.hi);
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
        if self.excludes(a, b, k) {
            // Clamped bounds could otherwise miss a `k` below what any two values differ by.
            return false;
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
        // Only the variables a failed propagation left queued are marked.
        while let Some(q) = self.queue.pop_front() {
            self.queued[q as usize] = false;
        }
        self.propagation = self.propagation.wrapping_add(1);
        if self.propagation == 0 {
            // Wrapped: no old count may pass for a current one.
            self.count.iter_mut().for_each(|c| *c = (0, 0));
            self.propagation = 1;
        }
        self.queue.push_back(v);
        self.queued[v as usize] = true;
    }

    fn enqueue(&mut self, v: u32) -> bool {
        if !self.queued[v as usize] {
            self.queued[v as usize] = true;
            let c = &mut self.count[v as usize];
            if c.0 != self.propagation {
                *c = (self.propagation, 0);
            }
            c.1 += 1;
            // More rounds than variables: a negative cycle.
            if c.1 as usize > self.lo.len() + 1 {
                self.queued[v as usize] = false;
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

impl Clone for Store {
    fn clone(&self) -> Store {
        let mut s = Store::new();
        s.clone_from(self);
        s
    }

    /// A copy of `source` in this store's allocations (a constrained generator copies its
    /// last solved skeleton into every instantiation).
    fn clone_from(&mut self, source: &Store) {
        let n = source.lo.len();
        self.lo.clone_from(&source.lo);
        self.hi.clone_from(&source.hi);
        for (edges, from) in [(&mut self.out, &source.out), (&mut self.inn, &source.inn)] {
            if edges.len() < n {
                edges.resize_with(n, Vec::new);
            }
            for (e, f) in edges.iter_mut().zip(&from[..n]) {
                e.clone_from(f);
            }
        }
        self.trail.clone_from(&source.trail);
        self.queue.clear();
        self.queued.clear();
        self.queued.resize(self.out.len(), false);
        self.count.clear();
        self.count.resize(self.out.len(), (0, 0));
        self.propagation = 0;
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

    /// Random variables, edges (kept or tried and undone) and fixes on `s`, logging every
    /// answer and bound.
    fn random_work(s: &mut Store, seed: u64) -> Vec<(bool, Vec<(i64, i64)>)> {
        let mut rng = crate::tape::Rng::new(seed);
        let vars: Vec<u32> = (0..1 + rng.below_or_eq(7))
            .map(|_| s.var(-(rng.below_or_eq(20) as i64), rng.below_or_eq(20) as i64))
            .collect();
        let mut log = Vec::new();
        for _ in 0..30 {
            let a = vars[rng.below_or_eq(vars.len() as u64 - 1) as usize];
            let b = vars[rng.below_or_eq(vars.len() as u64 - 1) as usize];
            let k = rng.below_or_eq(30) as i128 - 15;
            let m = s.mark();
            let ok = match rng.below_or_eq(2) {
                0 => s.allows(a, b, k),
                1 => s.add(a, b, k),
                _ => {
                    let (lo, hi) = s.bounds(a);
                    s.fix(a, lo.midpoint(hi))
                }
            };
            if !ok {
                s.undo(m);
            }
            log.push((ok, vars.iter().map(|&v| s.bounds(v)).collect()));
        }
        log
    }

    #[test]
    fn a_recycled_or_copied_store_works_as_a_new_one() {
        for seed in 0..300 {
            let fresh = random_work(&mut Store::new(), seed);
            // Used on other work first (a failed propagation may leave variables queued).
            let mut used = Store::new();
            random_work(&mut used, seed + 1_000);
            used.recycle();
            assert_eq!(random_work(&mut used, seed), fresh, "recycled, seed {seed}");
            // A copy of a store, into one that held more variables.
            let mut original = Store::new();
            random_work(&mut original, seed + 2_000);
            let mut copy = Store::new();
            random_work(&mut copy, seed + 3_000);
            random_work(&mut copy, seed + 4_000);
            copy.clone_from(&original);
            assert_eq!(
                random_work(&mut copy, seed),
                random_work(&mut original, seed)
            );
        }
    }

    #[test]
    fn every_answer_is_what_brute_force_says() {
        // Four variables in −3..=3 and ZERO: every edge's answer against all 2,401
        // assignments, through successes and failures (which leave variables queued).
        let feasible = |edges: &[(u32, u32, i128)]| {
            (0..7i128.pow(4)).any(|n| {
                let x = [0, n % 7 - 3, n / 7 % 7 - 3, n / 49 % 7 - 3, n / 343 - 3];
                edges
                    .iter()
                    .all(|&(a, b, k)| x[a as usize] - x[b as usize] <= k)
            })
        };
        let mut rng = crate::tape::Rng::new(11);
        for round in 0..300 {
            let mut s = Store::new();
            if round % 2 == 1 {
                // A recycled store, after work of its own.
                random_work(&mut s, round);
                s.recycle();
            }
            let vars: Vec<u32> = (0..4).map(|_| s.var(-3, 3)).collect();
            let mut kept: Vec<(u32, u32, i128)> = Vec::new();
            for _ in 0..12 {
                let pick = |rng: &mut crate::tape::Rng| match rng.below_or_eq(4) {
                    0 => ZERO,
                    i => vars[i as usize - 1],
                };
                let (a, b) = (pick(&mut rng), pick(&mut rng));
                let k = rng.below_or_eq(8) as i128 - 4;
                let mut with = kept.clone();
                with.push((a, b, k));
                let expected = feasible(&with);
                if rng.below_or_eq(1) == 0 {
                    assert_eq!(s.allows(a, b, k), expected, "round {round}: {with:?}");
                } else {
                    let m = s.mark();
                    let ok = s.add(a, b, k);
                    assert_eq!(ok, expected, "round {round}: {with:?}");
                    if ok {
                        kept = with;
                    } else {
                        s.undo(m);
                    }
                }
            }
        }
    }
}
