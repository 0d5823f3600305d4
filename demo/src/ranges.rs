//! Bug 4, found by enumeration: coalescing ranges (of free blocks, of bytes received, of
//! lines changed) into their canonical form.
//!
//! [`coalesce`] sorts the ranges and merges each one into the previous when they meet. The
//! result should be canonical: sorted, with a gap between any two ranges, so that equal
//! sets of points have equal forms. **The bug:** ranges are merged when they overlap
//! (`start < end`) but not when they only touch (`start == end`), so `0..1` and `1..2` stay
//! apart.
//!
//! **The strategy:** `enumerate` runs every input in order of size, the smallest first (a
//! tape's size is the sum of its choices' indices), so the first counterexample it meets
//! is already as small as any: shrinking has nothing left to do. A search that ends
//! without a counterexample proves that none exists up to the size it reached.
//!
//! **Minimal counterexample:** `[0..1, 1..2]`. One range is canonical, and empty ranges
//! are dropped, so a failure needs two ranges of at least one point that touch: the
//! first at 0, one point long, and the next right after it.

use std::ops::Range;
use tapefuzz::engine::Report;
use tapefuzz::prelude::*;

/// `ranges` sorted, merged where they meet, empty ones dropped; with `fixed` false, with
/// the planted bug.
pub fn coalesce(ranges: &[Range<u32>], fixed: bool) -> Vec<Range<u32>> {
    let mut sorted: Vec<Range<u32>> = ranges.iter().filter(|r| !r.is_empty()).cloned().collect();
    sorted.sort_by_key(|r| r.start);
    let mut out: Vec<Range<u32>> = Vec::new();
    for r in sorted {
        match out.last_mut() {
            // THE BUG: `<` merges overlapping ranges only; touching ones need `<=`.
            Some(last) if r.start < last.end || (fixed && r.start == last.end) => {
                last.end = last.end.max(r.end);
            }
            _ => out.push(r),
        }
    }
    out
}

/// Up to 5 ranges, each a start up to 100 and a length up to 10 (possibly empty).
pub fn ranges() -> impl Gen<Value = Vec<Range<u32>>> {
    let range = (ints::<u32>(0..=100), ints::<u32>(0..=10)).map(|(start, len)| start..start + len);
    vecs(range, 0..=5)
}

/// The property: the coalesced ranges are sorted with gaps between them, and hold the same
/// points as the ranges given.
pub fn run(property: &Property, fixed: bool) -> Report {
    property.run(ranges(), move |ranges: Vec<Range<u32>>| {
        let out = coalesce(&ranges, fixed);
        for pair in out.windows(2) {
            ensure!(
                pair[0].end < pair[1].start,
                "{:?} and {:?} should be one range or apart",
                pair[0],
                pair[1]
            );
        }
        for x in 0..=110 {
            let inside = |rs: &[Range<u32>]| rs.iter().any(|r| r.contains(&x));
            ensure!(
                inside(&ranges) == inside(&out),
                "{x} is in one only: {out:?}"
            );
        }
        Ok(())
    })
}
