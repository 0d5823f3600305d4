//! What the benchmark binaries share: a timed loop and the median of its rounds.

use std::time::Instant;

/// One timed round of one tool: ns per value and the mean size of the values (elements or
/// nodes, as the workload counts them).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Nanoseconds per value.
    pub ns: f64,
    /// Mean size per value.
    pub size: f64,
}

/// Runs `one(i)` for `i` in `0..n` (it returns the size of the value it made) and times the
/// loop. `n` = 0 gives NaN figures.
pub fn timed(n: usize, mut one: impl FnMut(u64) -> usize) -> Sample {
    let start = Instant::now();
    let mut total = 0usize;
    for i in 0..n {
        total += one(i as u64);
    }
    Sample {
        ns: start.elapsed().as_nanos() as f64 / n as f64,
        size: total as f64 / n as f64,
    }
}

/// The median of `xs` (the mean of the two middle values for an even count; NaN sorts
/// last). Panics on an empty slice.
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// `x` rounded to two decimals, for JSON lines.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
