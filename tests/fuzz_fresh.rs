//! The libFuzzer mutator also writes fresh inputs of the random strategy, so a bug that
//! random testing finds at once (a boundary value) is found under `cargo tapefuzz fuzz` too,
//! where byte mutations alone rarely write the four `0xff` bytes of `i32::MIN`'s choice.

use tapefuzz::fuzz::{FRESH_OF, mutate};
use tapefuzz::prelude::*;
use tapefuzz::property::property;
use tapefuzz::tape::{BytesSource, Tape};

#[test]
fn fresh_inputs_reach_boundary_values() {
    let g = (ints::<i32>(..), ints::<u8>(0..=3));
    let test = property(g.clone(), |_: (i32, u8)| true);
    // A byte mutator that changes nothing: whatever changes comes from tapefuzz.
    let mut unchanged = |_: &mut [u8], size: usize, _: usize| size;
    let mut found_at = None;
    let mut fresh = 0;
    for seed in 0..2000u32 {
        let mut data = vec![0u8; 64];
        let n = mutate(&test, &mut data, 0, 64, seed, &mut unchanged);
        let mut src = BytesSource::new(&data[..n]);
        let (x, _) = g.generate(&mut Tape::new(&mut src, false)).unwrap();
        fresh += (n > 0) as u32;
        if x == i32::MIN && found_at.is_none() {
            found_at = Some(seed);
        }
    }
    assert!(found_at.is_some(), "no i32::MIN in 2000 mutations");
    // About one call in FRESH_OF writes a fresh input (the tape operators on an empty input
    // change little).
    let expected = 2000 / FRESH_OF as u32;
    assert!(fresh >= expected / 2, "{fresh} fresh inputs of 2000 calls");
}
