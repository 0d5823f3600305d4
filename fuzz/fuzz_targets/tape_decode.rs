//! Fuzzes the tape decoder: any bytes decode, through a generator that uses every
//! combinator, and re-encoding the recorded choices replays to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tapefuzz::generators::btree_sets;
use tapefuzz::generators::value_from_bytes;
use tapefuzz::prelude::*;
use tapefuzz::tape::{BytesSource, Tape, encoding};

fuzz_target!(|data: &[u8]| {
    let g = (
        vecs(ints::<i64>(-1000..=1000), 0..=16),
        option(strings(CharClass::any(), 0..=8)),
        floats::<f64>(..),
        one_of![just(0u8), ints::<u8>(..)],
        btree_sets(ints::<u8>(0..=9), 0..=5),
    );
    let mut src = BytesSource::new(data);
    let mut tape = Tape::recording(&mut src);
    let v = g.generate(&mut tape);
    let rec = tape.finish();
    let bytes = encoding::encode(&rec.choices);
    let w = value_from_bytes(&g, &bytes);
    assert_eq!(format!("{v:?}"), format!("{w:?}"));
});
