//! Searches over integers that the passes share.

/// The largest `k ≥ 0` with `f(1)`, …, `f(k)` all true, assuming `f` holds up to some point
/// and fails after it (Hypothesis's `find_integer`): 1 to 4 one by one, then doubling, then
/// a binary search. Costs `O(log k)` calls; a first failure costs one.
pub(super) fn find_integer(mut f: impl FnMut(u64) -> bool) -> u64 {
    for k in 1..=4 {
        if !f(k) {
            return k - 1;
        }
    }
    let (mut lo, mut hi) = (4u64, 5u64);
    while f(hi) {
        lo = hi;
        match hi.checked_mul(2) {
            Some(h) => hi = h,
            None => return lo,
        }
    }
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if f(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_last_true_in_few_calls() {
        for answer in [0u64, 1, 3, 4, 5, 17, 1000, 1 << 40] {
            let mut calls = 0;
            let k = find_integer(|k| {
                calls += 1;
                k <= answer
            });
            assert_eq!(k, answer);
            assert!(
                calls <= 6 + 2 * (64 - answer.leading_zeros()),
                "{answer}: {calls}"
            );
        }
        // Always true: stops before overflowing.
        assert!(find_integer(|_| true) > 1 << 62);
    }
}
