//! The coverage trace of one test case as the `rl` strategy's characteristic (greybox RLCheck,
//! paper 002 §5.3): the edges it hit, each with the log2 bucket of its hit count.

use super::{Coverage, bucket};
use crate::engine::Characteristic;

/// ξ = a hash of the (edge, hit-count bucket) pairs of the test case: two valid inputs are
/// the same when they exercise the code under test alike. Resets the counters before each
/// test case.
pub struct CoverageTrace<'c> {
    coverage: &'c mut dyn Coverage,
}

impl<'c> CoverageTrace<'c> {
    /// The trace of `coverage`'s counters.
    pub fn new(coverage: &'c mut dyn Coverage) -> CoverageTrace<'c> {
        CoverageTrace { coverage }
    }
}

impl Characteristic for CoverageTrace<'_> {
    fn before(&mut self) {
        self.coverage.reset();
    }

    fn of(&mut self, _fingerprint: u64) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        self.coverage.for_each_hit(&mut |edge, count| {
            let x = ((edge as u64) << 8) | u64::from(bucket(count));
            h = (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
        });
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::greybox::ManualCounters;

    #[test]
    fn the_same_edges_in_the_same_buckets_are_the_same_trace() {
        let mut cov = ManualCounters::new(8);
        let handle = cov.clone();
        let mut xi = CoverageTrace::new(&mut cov);
        let mut trace = |hits: &[(usize, usize)]| {
            xi.before();
            for &(e, n) in hits {
                for _ in 0..n {
                    handle.hit(e);
                }
            }
            xi.of(0)
        };
        let a = trace(&[(1, 1), (3, 5)]);
        assert_eq!(trace(&[(3, 6), (1, 1)]), a, "5 and 6 hits share a bucket");
        assert_ne!(trace(&[(1, 1), (3, 9)]), a, "9 hits do not");
        assert_ne!(trace(&[(1, 1)]), a);
        assert_ne!(trace(&[(2, 1), (3, 5)]), a);
    }
}
