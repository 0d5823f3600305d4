//! Coverage as an observer: each test case's features, and its trace as the characteristic.

use super::{Coverage, FeatureMap};
use crate::engine::Observer;

/// Observes a [`Coverage`] source: resets it before each test case; after it, collects the
/// features hit ([`super::Feature::code`]) and hashes them into the characteristic ξ (two
/// valid inputs are the same when they exercise the code under test alike: greybox
/// RLCheck, paper 002 §5.3).
pub struct CoverageObserver<'c> {
    coverage: &'c mut dyn Coverage,
    features: Vec<u64>,
    trace: u64,
    /// Every feature any test case hit, when counted ([`CoverageObserver::counting`]).
    seen: Option<std::collections::HashSet<u64>>,
}

impl<'c> CoverageObserver<'c> {
    /// An observer of `coverage`'s counters.
    pub fn new(coverage: &'c mut dyn Coverage) -> CoverageObserver<'c> {
        CoverageObserver {
            coverage,
            features: Vec::new(),
            trace: 0,
            seen: None,
        }
    }

    /// The observer, also counting the distinct features of every test case it observes
    /// (a set insert per feature hit: for a search that does not count them itself).
    pub fn counting(mut self) -> CoverageObserver<'c> {
        self.seen = Some(std::collections::HashSet::new());
        self
    }

    /// How many distinct features the test cases observed so far hit together, when
    /// [`CoverageObserver::counting`]: the JSON summary's `features` under a search that
    /// does not count them itself. `None` when not counting.
    pub fn distinct_features(&self) -> Option<u64> {
        self.seen.as_ref().map(|s| s.len() as u64)
    }
}

impl Observer for CoverageObserver<'_> {
    fn before(&mut self) {
        self.coverage.reset();
        super::cmplog::clear();
    }

    fn after(&mut self, _fingerprint: u64) {
        self.features.clear();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let features = &mut self.features;
        self.coverage.for_each_hit(&mut |edge, count| {
            let x = FeatureMap::feature(edge, count).code();
            features.push(x);
            h = (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
        });
        self.trace = h;
        if let Some(seen) = &mut self.seen {
            seen.extend(self.features.iter().copied());
        }
    }

    fn characteristic(&self, _fingerprint: u64) -> u64 {
        self.trace
    }

    fn features(&self) -> &[u64] {
        &self.features
    }

    fn mode(&self) -> &'static str {
        "greybox"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::ManualCounters;

    #[test]
    fn the_same_edges_in_the_same_buckets_are_the_same_trace() {
        let mut cov = ManualCounters::new(8);
        let handle = cov.clone();
        let mut obs = CoverageObserver::new(&mut cov);
        let mut trace = |hits: &[(usize, usize)]| {
            obs.before();
            for &(e, n) in hits {
                for _ in 0..n {
                    handle.hit(e);
                }
            }
            obs.after(0);
            (obs.characteristic(0), obs.features().len())
        };
        let a = trace(&[(1, 1), (3, 5)]);
        assert_eq!(a.1, 2);
        assert_eq!(trace(&[(3, 6), (1, 1)]), a, "5 and 6 hits share a bucket");
        assert_ne!(trace(&[(1, 1), (3, 9)]), a, "9 hits do not");
        assert_ne!(trace(&[(1, 1)]).0, a.0);
        assert_ne!(trace(&[(2, 1), (3, 5)]), a);
    }

    #[test]
    fn counting_observers_count_distinct_features_over_test_cases() {
        let mut cov = ManualCounters::new(8);
        let handle = cov.clone();
        let obs = CoverageObserver::new(&mut cov);
        assert_eq!(obs.distinct_features(), None);
        let mut obs = obs.counting();
        for hits in [&[1usize, 3][..], &[3, 1], &[2]] {
            obs.before();
            for &e in hits {
                handle.hit(e);
            }
            obs.after(0);
        }
        assert_eq!(obs.distinct_features(), Some(3));
    }
}
