//! Bugs at a moderate threshold and bugs at the extremes, under the default `random`
//! strategy: integers of every magnitude come up (12 draws in 32 cut to one of twelve bit
//! widths), and a run starts small. Each case asserts the median test cases to the first
//! failure over seeds 1 to 10 (printed, `--nocapture`). Measured when the widths came in
//! (before → after): `above_5000` and `list_over_10000` no failure in 100,000 test cases on
//! any seed → medians of 4 and 20; `u32_millions` 91 → 11; `sum_overflows` 9 → 31 and
//! `top_bit` 2 → 16 (fewer uniform draws, and a run's first test cases are small).

mod common;

use common::tests_to_failure;
use tapefuzz::prelude::*;

#[test]
fn a_threshold_in_the_thousands_is_found_in_a_default_run() {
    // A size check that is wrong past 5,000 (and a `u64` that is not a size of memory).
    let n = tests_to_failure("above_5000", ints::<u64>(..), |x: u64| {
        !(5_000..1_000_000).contains(&x)
    });
    assert!(n[5] <= 64, "median {}: {n:?}", n[5]);
    let n = tests_to_failure("i64_between", ints::<i64>(..), |x: i64| {
        !(-70_000..=-40_000).contains(&x)
    });
    assert!(n[5] <= 256, "median {}: {n:?}", n[5]);
}

#[test]
fn a_threshold_in_the_millions_is_found_in_a_default_run() {
    let n = tests_to_failure("u32_millions", ints::<u32>(..), |x: u32| {
        !(2_000_000..50_000_000).contains(&x)
    });
    assert!(n[5] <= 256, "median {}: {n:?}", n[5]);
}

#[test]
fn an_element_over_a_limit_is_found_in_a_list() {
    let n = tests_to_failure(
        "list_over_10000",
        vecs(ints::<i64>(..), 0..=20),
        |v: Vec<i64>| v.iter().all(|&x| !(10_000..100_000).contains(&x)),
    );
    assert!(n[5] <= 64, "median {}: {n:?}", n[5]);
}

#[test]
fn overflow_still_comes_up() {
    // Wide values stay common: a sum that overflows, and a value in the top bits.
    let n = tests_to_failure(
        "sum_overflows",
        (ints::<i64>(..), ints::<i64>(..)),
        |(a, b)| a.checked_add(b).is_some(),
    );
    assert!(n[5] <= 32, "median {}: {n:?}", n[5]);
    let n = tests_to_failure("top_bit", ints::<u64>(..), |x: u64| x < 1 << 63);
    assert!(n[5] <= 32, "median {}: {n:?}", n[5]);
}
