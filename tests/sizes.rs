//! The mean collection lengths documented on `SizeRange` (measured on a random source).

use tapefuzz::generators::{Gen, SizeRange, ints, vecs};
use tapefuzz::tape::{RandomSource, Rng, Tape};

fn mean_len(size: SizeRange) -> f64 {
    let g = vecs(ints::<u8>(..), size);
    let n = 20_000u64;
    let total: usize = (0..n)
        .map(|i| {
            let mut src = RandomSource::new(Rng::derive(42, i));
            let mut tape = Tape::new(&mut src, false);
            g.generate(&mut tape).expect("a vec").len()
        })
        .sum();
    total as f64 / n as f64
}

#[test]
fn documented_means() {
    // (size, documented mean); 20,000 samples of a geometric length with mean ≤ 20 have a
    // standard error below 0.15.
    let table = [
        (SizeRange::new(0, 5), 2.03),
        (SizeRange::new(0, 10), 4.19),
        (SizeRange::new(0, 100), 5.0),
        (SizeRange::from(..), 5.0),
        (SizeRange::new(1, 100), 5.98),
        (SizeRange::new(10, 100), 19.97),
        (SizeRange::new(0, 100).with_average(20.0), 19.7),
        (SizeRange::new(0, 100).with_average(50.0), 43.0),
    ];
    for (size, documented) in table {
        let m = mean_len(size);
        let tolerance = 0.05 * documented + 0.1;
        assert!(
            (m - documented).abs() <= tolerance,
            "{size:?}: mean {m:.3}, documented {documented}"
        );
    }
}
