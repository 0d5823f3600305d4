//! Insertion into a non-decreasing list (ProSyT's `ord_insert`, paper 001).

use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::property::property;

/// Inserts `i` into the non-decreasing list `l`, as the paper's Erlang program does:
/// `insert(I, []) = [I]; insert(I, [X|Xs]) = if I =< X -> [I, X | Xs]; true -> [X | insert(I, Xs)]`.
/// With `swapped`, the `I =< X` case returns `[X, I | Xs]`.
pub fn insert(i: i64, l: &[i64], swapped: bool) -> Vec<i64> {
    let mut out = Vec::with_capacity(l.len() + 1);
    for (k, &x) in l.iter().enumerate() {
        if i <= x {
            if swapped {
                out.extend([x, i]);
            } else {
                out.extend([i, x]);
            }
            out.extend_from_slice(&l[k + 1..]);
            return out;
        }
        out.push(x);
    }
    out.push(i);
    out
}

/// A non-decreasing list of up to 20 integers in [−10000, 10000] (sorted after drawing)
/// and an integer to insert.
pub fn generator() -> impl Gen<Value = (Vec<i64>, i64)> {
    let int = || ints::<i64>(-10_000..=10_000);
    (
        vecs(int(), 0..=20).map(|mut v: Vec<i64>| {
            v.sort();
            v
        }),
        int(),
    )
}

/// The property: the result is sorted and is the list with `i` added.
pub fn check(l: &[i64], i: i64, swapped: bool) -> Result<(), Fail> {
    let out = insert(i, l, swapped);
    ensure!(out.windows(2).all(|w| w[0] <= w[1]), "not sorted: {out:?}");
    let mut expected = l.to_vec();
    expected.push(i);
    expected.sort();
    let mut got = out.clone();
    got.sort();
    ensure_eq!(got, expected);
    Ok(())
}

/// The target's test.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let swapped = bug == Some("swapped");
    Box::new(property(generator(), move |(l, i): (Vec<i64>, i64)| {
        check(&l, i, swapped)
    }))
}
