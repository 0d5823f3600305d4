//! Bug 1, a codec: run-length encoding whose roundtrip breaks on long runs.
//!
//! The format is a list of `(count, byte)` pairs, the count in one byte, so a run longer
//! than 255 bytes must be split over several pairs. **The bug:** the encoder lets a run
//! grow to 256 bytes, whose count `256 as u8` is 0, and the decoder drops the whole run.
//!
//! **The property:** `decode(encode(data)) == data`. Uniform random bytes almost never
//! repeat 256 times in a row, so the generator draws the data as runs (a byte and a
//! length), which is what run-length encoding is about anyway; the property expands them.
//!
//! **Minimal counterexample:** `[(0, 256)]`, one run of 256 zero bytes. A run of at most
//! 255 bytes roundtrips, and runs of different bytes are encoded apart, so a failure needs
//! 256 equal bytes in a row: one run does it with the fewest elements, 256 is the shortest
//! length that wraps the count, and 0 is the simplest byte. (Two runs of one byte that
//! together make 256, `[(0, 1), (0, 255)]`, fail too, but have one element more.)

use tapefuzz::engine::Report;
use tapefuzz::prelude::*;

/// The longest run one `(count, byte)` pair can hold.
pub const LONGEST_RUN: usize = u8::MAX as usize;

/// The run-length encoding of `data`: `(count, byte)` pairs. With `fixed` false, the
/// planted bug: a run may reach 256 bytes, one more than a count can hold.
pub fn encode(data: &[u8], fixed: bool) -> Vec<u8> {
    // THE BUG: `LONGEST_RUN + 1` (an off-by-one a `<=` for a `<` makes in a loop).
    let longest = if fixed { LONGEST_RUN } else { LONGEST_RUN + 1 };
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(&byte) = rest.first() {
        let run = rest
            .iter()
            .take(longest)
            .take_while(|&&b| b == byte)
            .count();
        out.push(run as u8); // 256 wraps to 0
        out.push(byte);
        rest = &rest[run..];
    }
    out
}

/// The data of `(count, byte)` pairs.
pub fn decode(encoded: &[u8]) -> Vec<u8> {
    encoded
        .chunks_exact(2)
        .flat_map(|pair| std::iter::repeat_n(pair[1], pair[0] as usize))
        .collect()
}

/// Data as runs: up to 8 of them, each a byte and a length from 1 to 1000.
pub fn runs() -> impl Gen<Value = Vec<(u8, u16)>> {
    vecs((ints::<u8>(..), ints::<u16>(1..=1000)), 0..=8)
}

/// The bytes of `runs`, one after the other.
pub fn expand(runs: &[(u8, u16)]) -> Vec<u8> {
    runs.iter()
        .flat_map(|&(byte, len)| std::iter::repeat_n(byte, len as usize))
        .collect()
}

/// The property: encoding then decoding gives the data back.
pub fn run(property: &Property, fixed: bool) -> Report {
    property.run(runs(), move |runs: Vec<(u8, u16)>| {
        let data = expand(&runs);
        let back = decode(&encode(&data, fixed));
        ensure!(
            back == data,
            "{} bytes encoded, {} decoded",
            data.len(),
            back.len()
        );
        Ok(())
    })
}
