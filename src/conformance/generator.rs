//! The generator the suite draws with: every kind of choice and span.

use crate::generators::{CharClass, ints};
use crate::generators::{Gen, GenExt, just, option, recursive, strings, vecs};
use crate::one_of;

/// The suite's values: a list, an optional string, a union, a recursive sum, rendered as
/// text.
pub type Value = String;

/// A generator with lists, an option, strings, a union of a constant and a wide integer,
/// and a recursive structure: every kind of choice and span the built-in generators make.
pub fn generator() -> impl Gen<Value = Value> {
    (
        vecs(ints::<i32>(-50..=50), 0..=8),
        option(strings(CharClass::ascii(), 0..=4)),
        one_of![just(0u64), ints::<u64>(..)],
        recursive(just(0usize), 3, 20, 0.5, |inner| {
            vecs(inner, 0..=3).map(|v: Vec<usize>| v.iter().sum::<usize>() + 1)
        }),
    )
        .map(|v| format!("{v:?}"))
}
