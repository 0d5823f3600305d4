//! Fewer decimal digits: an integer's leading digits dropped, or its trailing ones.
//!
//! The index order makes a smaller magnitude simpler, and the minimizing passes search it by
//! bisection, which assumes the failing values form a range above some threshold. A failure
//! that recurs with a period (`m % 1000 >= 500`) or lives on a sparse lattice (`m % 1000 ==
//! 0`) defeats the search: it lands on some failing value in the gap it was searching
//! (`20500`), or finds no smaller one at all (`1000000000`). People write such periods and
//! lattices in decimal, so the value with its leading digit dropped (`20500 → 500`, the
//! value modulo the power of ten below it) keeps a period of any power of ten, and the value
//! with its last digits dropped (`10^9 → 10^8 → …`, divided by a power of ten) keeps a
//! lattice of one. Hypothesis's integer shrinker makes the binary moves of the same kinds
//! (masking the high bits, shifting right); binary periods are rarer in properties than
//! decimal ones, and bisection already halves.
//!
//! Read from the values' magnitudes, which the generators give
//! ([`crate::tape::ValueStep::magnitude`]): integers, and floats at integer values.

use super::super::Shrinker;
use super::super::search::find_integer;
use super::relate::lowest_reachable;

/// The smallest magnitude tried: a single digit has no digit to drop.
const FLOOR: u64 = 10;

/// The index that puts the choice at `index` (magnitude `m`, `step` indices per unit of
/// magnitude) at magnitude `to`, when index arithmetic reaches it
/// ([`lowest_reachable`]: past the end of an alternating order, a small magnitude is at an
/// index the step does not give).
fn index_at(index: u64, m: u64, step: u64, to: u64) -> Option<u64> {
    if to < lowest_reachable(index, m, step) {
        return None;
    }
    index.checked_sub((m - to).checked_mul(step)?)
}

/// For each integer choice of at least two digits, left to right, with every later choice
/// that holds the same value (equal values change together, as a group, as the duplicate
/// passes change them): drops the leading digit (the value modulo the largest power of ten
/// below it), else drops trailing zeros (divided by 10, 100, 1000, 10^4, 10^8, …, as
/// [`find_integer`] counts).
/// One call for a value that keeps its digits, two where it ends in a zero.
pub(in crate::shrink) fn drop_digits(s: &mut Shrinker<'_>) {
    let mut a = 0;
    while !s.stopped() {
        let values = s.magnitudes();
        let Some(&(at, step, m)) = values.get(a) else {
            return;
        };
        a += 1;
        let index = s.choices()[at].index;
        let earlier = (values[..a - 1].iter())
            .any(|&(i, st, mi)| st == step && mi == m && s.choices()[i].index == index);
        if m < FLOOR || earlier {
            continue; // too small, or changed with the first of its group
        }
        let group: Vec<usize> = (values[a - 1..].iter())
            .filter(|&&(i, st, mi)| st == step && mi == m && s.choices()[i].index == index)
            .map(|&(i, _, _)| i)
            .collect();
        let base = s.choices().to_vec();
        let try_magnitude = |s: &mut Shrinker<'_>, to: u64| {
            let Some(i) = index_at(index, m, step, to) else {
                return false;
            };
            let mut v = base.clone();
            for &g in &group {
                v[g].index = i;
            }
            s.consider(&v)
        };
        let top = 10u64.pow(m.ilog10());
        if try_magnitude(s, m % top) {
            a -= 1; // the same choice again, at its new magnitude
            continue;
        }
        // Trailing zeros only: dividing drops them without changing the other digits.
        let zeros = (1..=m.ilog10())
            .take_while(|&j| m.is_multiple_of(10u64.pow(j)))
            .count() as u64;
        let dropped = find_integer(|j| j <= zeros && try_magnitude(s, m / 10u64.pow(j as u32)));
        if dropped > 0 {
            a -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_arithmetic_stays_on_the_choices_side() {
        // Value order from 0: index is the magnitude.
        assert_eq!(index_at(20500, 20500, 1, 500), Some(500));
        // Alternating order (0, 1, −1, …): two indices per unit.
        assert_eq!(index_at(41000, 20500, 2, 500), Some(1000));
        // A range from 1: index `value − 1`, so magnitude 0 is out of reach.
        assert_eq!(index_at(19, 20, 1, 0), None);
        assert_eq!(index_at(19, 20, 1, 5), Some(4));
        // Past the end of an alternating order (`-5..=1000` at 20: index 25): magnitudes at
        // or below the alternation's length are elsewhere.
        assert_eq!(index_at(25, 20, 1, 5), None);
        assert_eq!(index_at(25, 20, 1, 6), Some(11));
    }
}
