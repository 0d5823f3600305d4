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
        return (0..total.min(1 << 16))
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
    let spec = crate::covering::Spec::uniform(v.min(u64::from(u32::MAX)) as u32, f, t);
    let options = crate::covering::BuildOptions {
        seed,
        ..crate::covering::BuildOptions::default()
    };
    match crate::covering::build(&spec, &options) {
        Ok(array) => array
            .rows()
            .map(|r| r.iter().map(|&x| u64::from(x)).collect())
            .collect(),
        // Too large to build: the product, cut.
        Err(_) => pattern_rows(v, f, f, seed),
    }
}
