use std::hint::black_box;
use std::time::Instant;
use tapefuzz::generators::*;
use tapefuzz::tape::{RandomSource, Rng, Tape};

fn time(name: &str, n: u64, mut f: impl FnMut(u64) -> usize) {
    let mut tot = 0;
    for i in 0..n / 10 {
        tot += f(i);
    }
    let mut all = vec![];
    for _ in 0..9 {
        let t = Instant::now();
        for i in 0..n / 4 {
            tot += f(i);
        }
        all.push(t.elapsed().as_nanos() as f64 / (n / 4) as f64);
    }
    all.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "{name:14} min {:7.1} med {:7.1} ns/value  {}",
        all[0],
        all[4],
        tot % 2
    );
}

fn main() {
    let n = 1_000_000;
    let g = vecs(ints::<u64>(..), 0..=100).average(50.0);
    let g0 = vecs(ints::<u64>(..), 0..=0);
    time("current", n, |i| {
        let mut src = RandomSource::new(Rng::derive(7, i));
        let mut tape = Tape::new(&mut src, false);
        let v = g.generate(&mut tape).unwrap();
        black_box(&v);
        v.len()
    });
    time("empty vec gen", n, |i| {
        let mut src = RandomSource::new(Rng::derive(7, i));
        let mut tape = Tape::new(&mut src, false);
        let v = g0.generate(&mut tape).unwrap();
        black_box(&v);
        v.len()
    });
    time("src+tape", n, |i| {
        let mut src = RandomSource::new(Rng::derive(7, i));
        let tape = Tape::new(&mut src, false);
        black_box(&tape);
        0
    });
    time("alloc100", n, |_| {
        let v: Vec<u64> = Vec::with_capacity(100);
        black_box(&v);
        0
    });
    time("rng only", n, |i| {
        let mut r = Rng::new(Rng::derive(7, i));
        black_box(r.next_u64());
        0
    });
}
