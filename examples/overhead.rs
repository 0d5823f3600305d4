//! The cost of the run loop per test case, for measuring what statistics and observability
//! cost when they are off: `cargo run --release --example overhead [TESTS]` prints the
//! median nanoseconds per test case over 7 runs of two properties (a plain integer and a
//! small vector).

use std::time::Instant;
use tapefuzz::prelude::*;

/// Median nanoseconds per test case of `run` over 7 timed runs of `tests` test cases.
fn median_ns(tests: u64, run: impl Fn(&Property)) -> f64 {
    let mut times: Vec<f64> = (0..7)
        .map(|_| {
            let p = Property::new("overhead").no_corpus().tests(tests).seed(1);
            let start = Instant::now();
            run(&p);
            start.elapsed().as_nanos() as f64 / tests as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[3]
}

fn main() {
    let tests = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000u64);
    let int = median_ns(tests, |p| {
        assert!(
            p.run(ints::<u64>(..), |x: u64| x.count_ones() <= 64)
                .passed()
        );
    });
    let vec = median_ns(tests, |p| {
        assert!(
            p.run(vecs(ints::<u32>(..), 0..=10), |v: Vec<u32>| v.len() <= 10)
                .passed()
        );
    });
    println!("ints: {int:.1} ns/test case; vecs: {vec:.1} ns/test case");
}
