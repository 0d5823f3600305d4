//! The order shrinking descends in: shorter tapes first, then smaller indices left to right.

use crate::tape::Choice;
use std::cmp::Ordering;

/// Compares two tapes in shortlex order (length, then indices lexicographically).
pub fn shortlex_cmp(a: &[Choice], b: &[Choice]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().map(|c| c.index).cmp(b.iter().map(|c| c.index)))
}

/// Whether `a` comes strictly before `b` in shortlex order.
pub fn shortlex_less(a: &[Choice], b: &[Choice]) -> bool {
    shortlex_cmp(a, b) == Ordering::Less
}
