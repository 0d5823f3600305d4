//! Features: an edge together with how often it was hit, on libFuzzer's log scale.

/// A coverage feature: edge `edge` hit a number of times in bucket `bucket` (see [`bucket`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Feature {
    /// The edge (counter index).
    pub edge: usize,
    /// The hit-count bucket, `0..8`.
    pub bucket: u8,
}

impl Feature {
    /// The feature as one number (`edge << 8 | bucket`), as observers report features
    /// ([`crate::engine::Observation::features`]).
    #[inline]
    pub fn code(self) -> u64 {
        ((self.edge as u64) << 8) | u64::from(self.bucket)
    }

    /// The feature of a [`Feature::code`].
    #[inline]
    pub fn from_code(code: u64) -> Feature {
        Feature {
            edge: (code >> 8) as usize,
            bucket: (code & 0xff) as u8,
        }
    }
}

/// The hit-count bucket of a non-zero counter, as libFuzzer counts them: 1, 2, 3, 4–7, 8–15,
/// 16–31, 32–127 and 128+ are buckets 0 to 7. A loop that runs a few more times is new
/// coverage; one that runs 40 rather than 41 times is not. A zero count has no bucket (it is
/// not a hit); this returns 0 for it.
#[inline]
pub fn bucket(count: u8) -> u8 {
    match count {
        0..=3 => count.saturating_sub(1),
        4..=7 => 3,
        8..=15 => 4,
        16..=31 => 5,
        32..=127 => 6,
        128..=255 => 7,
    }
}

/// Every feature seen so far: one byte per edge, one bit per bucket. A test case is kept when
/// it reaches a feature this map does not have.
#[derive(Clone, Debug, Default)]
pub struct FeatureMap {
    seen: Vec<u8>,
    features: u64,
    edges: u64,
}

impl FeatureMap {
    /// A map for `edges` edges with nothing seen (it grows if a larger edge comes).
    pub fn new(edges: usize) -> FeatureMap {
        FeatureMap {
            seen: vec![0; edges],
            features: 0,
            edges: 0,
        }
    }

    /// The feature of a counter value (`count > 0`).
    #[inline]
    pub fn feature(edge: usize, count: u8) -> Feature {
        Feature {
            edge,
            bucket: bucket(count),
        }
    }

    /// Whether `feature` has not been seen.
    #[inline]
    pub fn is_new(&self, feature: Feature) -> bool {
        let bits = self.seen.get(feature.edge).copied().unwrap_or(0);
        bits & (1 << feature.bucket) == 0
    }

    /// Adds `feature`; returns whether it was new.
    pub fn add(&mut self, feature: Feature) -> bool {
        if feature.edge >= self.seen.len() {
            self.seen.resize(feature.edge + 1, 0);
        }
        let bits = &mut self.seen[feature.edge];
        let bit = 1 << feature.bucket;
        if *bits & bit != 0 {
            return false;
        }
        self.edges += (*bits == 0) as u64;
        *bits |= bit;
        self.features += 1;
        true
    }

    /// Number of features seen.
    pub fn features(&self) -> u64 {
        self.features
    }

    /// Number of edges hit at least once.
    pub fn edges(&self) -> u64 {
        self.edges
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_libfuzzer() {
        let want = [
            (1, 0),
            (2, 1),
            (3, 2),
            (4, 3),
            (7, 3),
            (8, 4),
            (15, 4),
            (16, 5),
            (31, 5),
            (32, 6),
            (127, 6),
            (128, 7),
            (255, 7),
        ];
        for (count, b) in want {
            assert_eq!(bucket(count), b, "count {count}");
        }
        // Monotone, and every bucket is used.
        let all: Vec<u8> = (1..=255).map(bucket).collect();
        assert!(all.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(all.last(), Some(&7));
    }

    #[test]
    fn novelty_is_per_edge_and_bucket() {
        let mut map = FeatureMap::new(4);
        let f = FeatureMap::feature;
        assert!(map.is_new(f(2, 1)));
        assert!(map.add(f(2, 1)));
        assert!(!map.is_new(f(2, 1)));
        assert!(!map.add(f(2, 1)));
        // Another bucket of the same edge is new, but not a new edge; 5 and 6 share a bucket.
        assert!(map.is_new(f(2, 5)));
        assert!(map.add(f(2, 5)));
        assert!(!map.add(f(2, 6)));
        assert_eq!((map.features(), map.edges()), (2, 1));
        // Another edge; and an edge past the initial size grows the map.
        assert!(map.add(f(0, 200)));
        assert!(map.is_new(f(10, 1)));
        assert!(map.add(f(10, 1)));
        assert_eq!((map.features(), map.edges()), (4, 3));
    }
}
