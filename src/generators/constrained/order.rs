//! The simplicity order of an integer interval: the value closest to zero first, then
//! alternating above and below it, then the rest of the longer side (as `ints` orders).

/// The value at index `i` of `lo..=hi`'s simplicity order (`i` is clamped to the interval's
/// size).
pub(crate) fn value_at(lo: i64, hi: i64, i: u64) -> i64 {
    debug_assert!(lo <= hi);
    let span = (hi as i128 - lo as i128) as u128;
    let i = (i as u128).min(span);
    let s = 0i128.clamp(lo as i128, hi as i128);
    let (lo, hi) = (lo as i128, hi as i128);
    let both = (s - lo).min(hi - s) as u128;
    let v = if i > 2 * both {
        let t = (i - 2 * both) as i128;
        if hi - s > s - lo {
            s + both as i128 + t
        } else {
            s - both as i128 - t
        }
    } else if i % 2 == 1 {
        s + i.div_ceil(2) as i128
    } else {
        s - (i / 2) as i128
    };
    v as i64
}

/// The index of `v` in `lo..=hi`'s simplicity order (the inverse of [`value_at`]; `v` is
/// clamped into the interval).
pub(crate) fn index_of(lo: i64, hi: i64, v: i64) -> u64 {
    debug_assert!(lo <= hi);
    let (lo, hi) = (lo as i128, hi as i128);
    let v = (v as i128).clamp(lo, hi);
    let s = 0i128.clamp(lo, hi);
    let both = (s - lo).min(hi - s);
    let d = v - s;
    let i = if d.abs() <= both {
        if d > 0 { 2 * d - 1 } else { -2 * d }
    } else {
        2 * both + (d.abs() - both)
    };
    i as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_value_are_inverse() {
        for (lo, hi) in [
            (-5, 5),
            (-2, 9),
            (-9, 3),
            (3, 12),
            (-12, -3),
            (0, 0),
            (-10_000, 10_000),
        ] {
            let n = (hi - lo) as u64;
            let mut seen = std::collections::HashSet::new();
            for i in 0..=n {
                let v = value_at(lo, hi, i);
                assert!((lo..=hi).contains(&v), "{lo}..={hi} at {i}: {v}");
                assert_eq!(index_of(lo, hi, v), i, "{lo}..={hi} value {v}");
                assert!(seen.insert(v));
            }
        }
        assert_eq!(value_at(-3, 3, 0), 0);
        assert_eq!(value_at(-3, 3, 1), 1);
        assert_eq!(value_at(-3, 3, 2), -1);
        assert_eq!(value_at(4, 9, 0), 4);
        assert_eq!(value_at(-9, -4, 0), -4);
        assert_eq!(value_at(-9, -4, 1), -5);
    }
}
