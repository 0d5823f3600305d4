//! Constructor patterns (paper 003 §3): which constructor indices the first descent of a
//! tape takes, `fineness` levels deep, chosen so that every `strength`-way interaction of
//! constructors at distinct depths appears in some pattern.

/// The patterns of one configuration: rows of a `strength`-way covering array over
/// `fineness` positions of `v` constructors each (every combination when the strength is at
/// least the fineness, `v^fineness` rows). Deterministic for a seed.
pub fn pattern_rows(v: u64, fineness: usize, strength: usize, seed: u64) -> Vec<Vec<u64>> {
    let f = fineness.max(1);
    let t = strength.clamp(1, f);
    let v = v.max(1);
    if t == f {
        let total = v.checked_pow(f as u32).unwrap_or(u64::MAX);
        // Every pattern, in order; a product too large to run is cut (the covering array
        // below is what large ones should use).
        return (0..total.min(1 << 20))
            .map(|mut k| {
                let mut row = vec![0; f];
                for slot in row.iter_mut().rev() {
                    *slot = k % v;
                    k /= v;
                }
                row
            })
            .collect();
    }
    greedy(v, f, t, seed)
}

/// A small greedy covering array (AETG-style: of 50 random candidates, the row covering
/// the most uncovered tuples), for pattern positions (a handful of columns).
fn greedy(v: u64, f: usize, t: usize, seed: u64) -> Vec<Vec<u64>> {
    use std::collections::HashSet;
    let mut rng = crate::tape::Rng::new(seed);
    let subsets: Vec<Vec<usize>> = (0..1u32 << f)
        .filter(|m| m.count_ones() as usize == t)
        .map(|m| (0..f).filter(|&i| m >> i & 1 == 1).collect())
        .collect();
    let key = |s: &[usize], row: &[u64]| -> Vec<u64> {
        s.iter().map(|&i| i as u64 * v + row[i]).collect()
    };
    let mut missing: HashSet<Vec<u64>> = HashSet::new();
    for s in &subsets {
        let total = v.pow(t as u32);
        for mut k in 0..total {
            let mut row = vec![0; f];
            for &i in s.iter().rev() {
                row[i] = k % v;
                k /= v;
            }
            missing.insert(key(s, &row));
        }
    }
    let mut rows = Vec::new();
    while !missing.is_empty() {
        let mut best = (0, Vec::new());
        for _ in 0..50 {
            let row: Vec<u64> = (0..f).map(|_| rng.below_or_eq(v - 1)).collect();
            let gain = subsets
                .iter()
                .filter(|s| missing.contains(&key(s, &row)))
                .count();
            if gain > best.0 {
                best = (gain, row);
            }
        }
        if best.0 == 0 {
            // Take any missing tuple and fill the rest at random.
            let any = missing.iter().next().expect("non-empty").clone();
            let mut row: Vec<u64> = (0..f).map(|_| rng.below_or_eq(v - 1)).collect();
            for k in any {
                row[(k / v) as usize] = k % v;
            }
            best = (1, row);
        }
        for s in &subsets {
            missing.remove(&key(s, &best.1));
        }
        rows.push(best.1);
    }
    rows
}
