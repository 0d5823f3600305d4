use std::hint::black_box;
use tapefuzz::generators::*;
use tapefuzz::tape::{RandomSource, Rng, Tape};
fn main() {
    let g = vecs(ints::<u64>(..), 0..=100).average(50.0);
    let mut tot = 0;
    for i in 0..200_000u64 {
        let mut src = RandomSource::new(Rng::derive(7, i));
        let mut tape = Tape::new(&mut src, false);
        let v = g.generate(&mut tape).unwrap();
        black_box(&v);
        tot += v.len();
    }
    println!("{tot}");
}
