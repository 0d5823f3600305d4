//! Helpers shared by the integration tests that compare generators on fixed tapes (each
//! test file uses what it needs).
#![allow(dead_code)]

use std::fmt::Debug;
use tapefuzz::generators::{Gen, value_from_bytes};

/// 300 byte strings of 0 to 200 bytes from a fixed xorshift stream.
pub fn inputs() -> Vec<Vec<u8>> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..300)
        .map(|_| {
            let len = (next() % 201) as usize;
            (0..len).map(|_| next() as u8).collect()
        })
        .collect()
}

/// `a` and `b` make the same value (compared by Debug) of every input.
pub fn same<A, B>(a: A, b: B)
where
    A: Gen,
    B: Gen<Value = A::Value>,
    A::Value: Debug,
{
    for bytes in inputs() {
        let (x, y) = (value_from_bytes(&a, &bytes), value_from_bytes(&b, &bytes));
        assert_eq!(format!("{x:?}"), format!("{y:?}"), "bytes {bytes:?}");
    }
}
