//! Searches over integers that the passes share.

/// The largest `k ≥ 0` with `f(1)`, …, `f(k)` all true, assuming `f` holds up to some point
/// and fails after it (Hypothesis's `find_integer`): 1 to 4 one by one, then doubling, then
/// a binary search. Costs `O(log k)` calls; a first failure costs one.
pub(super) fn find_integer(f: impl FnMut(u64) -> bool) -> u64 {
    find_integer_to(u64::MAX, f)
}

/// [`find_integer`] where `f` is false past `max` anyway: once doubling would pass `max`,
/// `max` itself is tried (a pair lowered until one of them reaches 0 is a common answer,
/// found then in one call instead of a binary search's `log2(max)`).
pub(super) fn find_integer_to(max: u64, f: impl FnMut(u64) -> bool) -> u64 {
    find_integer_hinted(max, 0, f)
}

/// The end of [`find_integer_to`] once `f(lo)` is known to hold: `lo + 1`, then doubling
/// (`max` itself once doubling would pass it), then a binary search.
fn grow(mut lo: u64, max: u64, f: &mut impl FnMut(u64) -> bool) -> u64 {
    let mut hi = lo.saturating_add(1);
    loop {
        if hi >= max {
            if max > lo && f(max) {
                return max;
            }
            hi = max;
            break;
        }
        if !f(hi) {
            break;
        }
        lo = hi;
        // Saturating: past `u64::MAX / 2` the next probe is `max` itself.
        hi = hi.saturating_mul(2);
    }
    bisect(lo as u128, hi as u128, &mut |k| f(k as u64)) as u64
}

/// [`find_integer_to`] with a likely answer (none: 4 or less): after 1 to 4 one by one,
/// `f(hint)` is tried, and the search goes on above it (when it holds) or below it. An amount
/// moved from one
/// choice to another usually goes until the receiving choice reaches its largest index
/// (a sum that must stay large): found in a few calls where doubling and a binary search
/// would take `2 log2` of it. A hint below the answer goes on doubling from the hint; one
/// above it, from 4 (one call more than no hint).
pub(super) fn find_integer_hinted(max: u64, hint: u64, mut f: impl FnMut(u64) -> bool) -> u64 {
    for k in 1..=4 {
        if k > max || !f(k) {
            return k - 1;
        }
    }
    if hint <= 4 || hint > max {
        return grow(4, max, &mut f);
    }
    if f(hint) {
        grow(hint, max, &mut f)
    } else {
        grow(4, hint - 1, &mut f)
    }
}

/// [`find_integer_to`] for an answer that may lie near either end of `0..=max`: after
/// `f(1)`, probes alternately up from the bottom (2, 4, 8, …) and down from the top (`max`,
/// `max − 1`, `max − 3`, `max − 7`, …) until one side brackets the answer, then a binary
/// search. Costs about `2 log2` of the answer's distance to the nearer end plus the
/// bracket's search, where probing from one end only costs `log2(max)` when the answer is
/// at the other (two values lowered together until the smaller is small).
pub(super) fn find_integer_between(max: u64, mut f: impl FnMut(u64) -> bool) -> u64 {
    if max == 0 || !f(1) {
        return 0;
    }
    // `f(lo)` holds; `f(hi)` does not (`hi = max + 1`: past the range, hence `u128`).
    let (mut lo, mut hi) = (1u128, max as u128 + 1);
    let mut f = |k: u128| f(k as u64);
    let mut down = 1u128;
    while hi - lo > 1 {
        let up = lo * 2;
        let top = (max as u128 + 1).saturating_sub(down);
        if up >= hi && top <= lo {
            break;
        }
        if up < hi {
            if f(up) {
                lo = up;
            } else {
                hi = up;
                break;
            }
        }
        if top > lo && top < hi {
            if f(top) {
                lo = top;
                break;
            }
            hi = top;
        }
        down *= 2;
    }
    bisect(lo, hi, &mut f) as u64
}

/// The last `k` in `lo..hi` with `f(k)`, given `f(lo)` holds and `f(hi)` does not: a binary
/// search.
fn bisect(mut lo: u128, mut hi: u128, f: &mut impl FnMut(u128) -> bool) -> u128 {
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
        // An answer past `u64::MAX / 2` (doubling saturates, then `max`, then bisection).
        for answer in [u64::MAX - 1, u64::MAX / 2 + 3, 5 << 61] {
            assert_eq!(find_integer(|k| k <= answer), answer);
            assert_eq!(find_integer_hinted(u64::MAX, 5, |k| k <= answer), answer);
        }
        // A hint at the very top holds: no step past it.
        assert_eq!(find_integer_hinted(u64::MAX, u64::MAX, |_| true), u64::MAX);
        // Bounded: the bound costs one call when it is the answer.
        for (max, answer) in [(159u64, 159u64), (159, 80), (3, 3), (3, 1), (0, 0), (5, 5)] {
            let mut calls = 0;
            let k = find_integer_to(max, |k| {
                calls += 1;
                assert!(k <= max);
                k <= answer
            });
            assert_eq!(k, answer, "{max} {answer}");
            if answer == max && max > 4 {
                assert!(calls <= 10, "{calls}");
            }
        }
    }

    #[test]
    fn a_hint_that_is_the_answer_costs_a_few_calls() {
        for (max, hint, answer) in [
            (100u64, 42u64, 42u64),
            (100, 42, 43),
            (100, 42, 70),
            (100, 42, 2),
            (100, 42, 20),
            (100, 42, 100),
            (100, 3, 50),
            (100, 200, 50),
            (3, 42, 3),
            (0, 42, 0),
        ] {
            let mut calls = 0;
            let k = find_integer_hinted(max, hint, |k| {
                calls += 1;
                assert!((1..=max).contains(&k), "{k} of {max}");
                k <= answer
            });
            assert_eq!(k, answer, "{max} {hint} {answer}");
            if answer == hint {
                assert!(calls <= 6, "{calls}");
            }
            // A wrong hint costs one call more than no hint.
            let mut plain = 0;
            find_integer_to(max, |k| {
                plain += 1;
                k <= answer
            });
            assert!(
                calls <= plain + 1,
                "{max} {hint} {answer}: {calls} > {plain} + 1"
            );
        }
    }

    #[test]
    fn finds_the_last_true_from_either_end() {
        let max = (1u64 << 31) - 1;
        for answer in [
            0u64,
            1,
            2,
            5,
            1000,
            max / 2,
            max - 1000,
            max - 8,
            max - 1,
            max,
        ] {
            let mut calls = 0;
            let k = find_integer_between(max, |k| {
                calls += 1;
                assert!((1..=max).contains(&k));
                k <= answer
            });
            assert_eq!(k, answer);
            let near = answer.min(max - answer).max(1);
            let bound = 2 + 2 * (64 - near.leading_zeros()) + (64 - near.leading_zeros()) + 2;
            assert!(calls <= bound, "{answer}: {calls} > {bound}");
        }
        assert_eq!(find_integer_between(0, |_| unreachable!()), 0);
        assert_eq!(find_integer_between(1, |_| true), 1);
        assert_eq!(find_integer_between(u64::MAX, |_| true), u64::MAX);
    }
}
