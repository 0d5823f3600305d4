//! Where coverage comes from: the trait the engine reads, and counters a test bumps itself.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// A source of per-edge hit counters for one test case at a time. The engine resets it before
/// each test case and reads the hits after; it never knows what an edge is.
///
/// [`super::Sancov`] reads the SanitizerCoverage counters of an instrumented binary;
/// [`ManualCounters`] are bumped by the test itself (engine tests, or targets that report
/// their own progress).
pub trait Coverage {
    /// Number of edges: every edge index passed to [`Coverage::for_each_hit`] is below it.
    fn edges(&self) -> usize;

    /// Sets every counter to zero (called before each test case).
    fn reset(&mut self);

    /// Calls `f(edge, count)` for every counter that is not zero.
    fn for_each_hit(&mut self, f: &mut dyn FnMut(usize, u8));
}

/// Counters in memory that the code under test bumps with [`ManualCounters::hit`]: a
/// coverage source without instrumentation. Clones share the same counters, so the test keeps
/// one handle and the engine another.
#[derive(Clone, Debug)]
pub struct ManualCounters {
    counters: Arc<[AtomicU8]>,
}

impl ManualCounters {
    /// `edges` counters, all zero.
    pub fn new(edges: usize) -> ManualCounters {
        ManualCounters {
            counters: (0..edges).map(|_| AtomicU8::new(0)).collect(),
        }
    }

    /// Counts one pass over `edge` (saturating at 255). Out-of-range edges are ignored.
    pub fn hit(&self, edge: usize) {
        if let Some(c) = self.counters.get(edge) {
            // Relaxed load and store, not a read-modify-write: the engine reads only after the
            // test case returns, on the same thread, and this is the hot path of a fake.
            let v = c.load(Ordering::Relaxed);
            c.store(v.saturating_add(1), Ordering::Relaxed);
        }
    }
}

impl Coverage for ManualCounters {
    fn edges(&self) -> usize {
        self.counters.len()
    }

    fn reset(&mut self) {
        for c in self.counters.iter() {
            c.store(0, Ordering::Relaxed);
        }
    }

    fn for_each_hit(&mut self, f: &mut dyn FnMut(usize, u8)) {
        for (i, c) in self.counters.iter().enumerate() {
            let v = c.load(Ordering::Relaxed);
            if v != 0 {
                f(i, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_counters_count_saturate_and_reset() {
        let mut cov = ManualCounters::new(4);
        let handle = cov.clone();
        handle.hit(1);
        for _ in 0..300 {
            handle.hit(3);
        }
        handle.hit(99);
        let mut hits = Vec::new();
        cov.for_each_hit(&mut |e, c| hits.push((e, c)));
        assert_eq!(hits, vec![(1, 1), (3, 255)]);
        cov.reset();
        let mut n = 0;
        cov.for_each_hit(&mut |_, _| n += 1);
        assert_eq!(n, 0);
        assert_eq!(cov.edges(), 4);
    }
}
