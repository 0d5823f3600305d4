//! Lowering two values together along the ratio they hold, or closing the gap between them
//! by a factor of it.
//!
//! A failure that needs one value to be a multiple of another (`a == 2 * b`) survives no move
//! of one value alone, no common offset (`lower_common_offset`) and no amount moved between
//! them (`redistribute`): only both scaled down together. The ratio is read from the values'
//! magnitudes, which the generator gives ([`crate::tape::ValueStep::magnitude`]; index
//! arithmetic does not show it: a range from 1 has index `value − 1`), as Exhaust's relation
//! search reads it: magnitudes `(n·g, d·g)` with a small reduced ratio `n : d` are tried at
//! `(n·k, d·k)` for `k` below `g`, one step down first, so a pair in no such relation costs
//! one call.
//!
//! A failure that needs two values to agree modulo something (two keys in one hash bucket:
//! `a % 97 == b % 97`) keeps their difference a multiple of it: the later value goes to the
//! earlier plus the difference divided by one of its prime factors, largest first, and again
//! while one keeps the failure (`(1000, 2949522583)` to `(1000, 1097)`). Only for differences
//! of at least [`GAP_FLOOR`]: values each at a bound of its own (`15` and `20`) differ by
//! little, and a value left far from every other one is what this move is for.

use super::super::Shrinker;
use super::super::search::find_integer_to;

/// The largest term of a reduced ratio tried: a pair whose magnitudes share only an
/// incidental divisor (`(64, 39)` has none; `(1000, 1001)` reduces to itself) is left alone.
const RATIO_CAP: u64 = 16;
/// How many later integer choices a choice is paired with (as `redistribute` pairs them):
/// every pair of a tape of floors (each value at its own bound) costs a call.
const WINDOW: usize = 4;

/// The smallest difference [`Shrinker::divide_gap`] divides.
const GAP_FLOOR: u64 = 64;

/// The distinct prime factors of `n`, largest first; a factor left after trial division by
/// every number below 2^16 counts as one prime.
fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut p = 2;
    while p < 1 << 16 && p * p <= n {
        if n.is_multiple_of(p) {
            out.push(p);
            while n.is_multiple_of(p) {
                n /= p;
            }
        }
        p += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out.reverse();
    out
}

/// The lowest magnitude the choice at index `index` with magnitude `m` and index step `step`
/// reaches by index arithmetic: past the end of an order that alternates sides (a lopsided
/// signed range, `-5..=1000`, counts up one side after `±5`), index is `m` plus the
/// alternation's length, and a magnitude at or below that length is at another index (and
/// either sign) that the step does not give.
pub(super) fn lowest_reachable(index: u64, m: u64, step: u64) -> u64 {
    if step == 1 && index > m {
        index - m + 1
    } else {
        0
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Shrinker<'_> {
    /// The free choices whose generator gave a step and a magnitude, with them.
    pub(super) fn magnitudes(&self) -> Vec<(usize, u64, u64)> {
        (self.best.value_steps.iter())
            .filter(|v| v.at < self.choices().len() && self.free(v.at))
            .filter_map(|v| Some((v.at, v.step, v.magnitude?)))
            .collect()
    }

    /// Lowers the choices at `i` and `j` (magnitudes `mi`, `mj`, steps of index `si`, `sj` per
    /// step of value) to magnitudes `(n·k, d·k)` for the smallest `k` below `g` that still
    /// fails, where `mi = n·g` and `mj = d·g`; true when any was accepted.
    fn scale_pair(
        &mut self,
        (i, si, mi): (usize, u64, u64),
        (j, sj, mj): (usize, u64, u64),
    ) -> bool {
        let g = gcd(mi, mj);
        let (n, d) = (mi / g, mj / g);
        let base = self.choices().to_vec();
        let (low_i, low_j) = (
            lowest_reachable(base[i].index, mi, si),
            lowest_reachable(base[j].index, mj, sj),
        );
        // `k = g − e`: each index moves down by its step per unit of magnitude.
        let moved = find_integer_to(g - 1, |e| {
            if n * (g - e) < low_i || d * (g - e) < low_j {
                return false;
            }
            let (Some(di), Some(dj)) = (
                (n * e).checked_mul(si).filter(|&x| x <= base[i].index),
                (d * e).checked_mul(sj).filter(|&x| x <= base[j].index),
            ) else {
                return false;
            };
            let mut v = base.clone();
            v[i].index -= di;
            v[j].index -= dj;
            self.consider(&v)
        });
        moved > 0
    }

    /// Moves the later choice `j` (magnitude `mj`) to the earlier one's magnitude `mi` plus
    /// their difference divided by a prime factor of it, the largest first, until none keeps
    /// the failure; true when any did. Both on the same side of zero (step 1, or alternating
    /// indices of the same parity).
    fn divide_gap(
        &mut self,
        (i, si, mi): (usize, u64, u64),
        (j, sj, mj): (usize, u64, u64),
    ) -> bool {
        let same_side =
            si == sj && (si == 1 || self.choices()[i].index % 2 == self.choices()[j].index % 2);
        // A value at the end of its range is at a bound, not left there by a relation.
        let at_end = self.choices()[j].index == self.choices()[j].max;
        if !same_side || at_end || mj < mi || mj - mi < GAP_FLOOR {
            return false;
        }
        let gap = mj - mi;
        let low = lowest_reachable(self.choices()[j].index, mj, sj);
        for p in prime_factors(gap) {
            if mi + gap / p < low {
                continue;
            }
            let Some(down) = (gap - gap / p).checked_mul(sj) else {
                continue;
            };
            if down <= self.choices()[j].index
                && self.consider(&self.with_indices(&[(j, self.choices()[j].index - down)]))
            {
                return true;
            }
        }
        false
    }
}

/// For each integer choice and the next [`WINDOW`] integer choices after it, where their
/// magnitudes are in a ratio `n : d` of small unequal terms (at most [`RATIO_CAP`]), scales
/// both down keeping it; then closes large gaps between them by a prime factor (see the
/// module docs).
pub(in crate::shrink) fn relate_pairs(s: &mut Shrinker<'_>) {
    let mut a = 0;
    while !s.stopped() {
        let values = s.magnitudes();
        let Some(&first) = values.get(a) else {
            return;
        };
        let mut improved = false;
        for &second in values[a + 1..].iter().take(WINDOW) {
            let g = gcd(first.2, second.2);
            if g == 0 {
                continue;
            }
            let (n, d) = (first.2 / g, second.2 / g);
            if n > 0
                && d > 0
                && g >= 2
                && n != d
                && n.max(d) <= RATIO_CAP
                && s.scale_pair(first, second)
            {
                improved = true;
                break;
            }
        }
        if !improved {
            for &second in values[a + 1..].iter().take(WINDOW) {
                if s.divide_gap(first, second) {
                    improved = true;
                    break;
                }
            }
        }
        // After an improvement the magnitudes changed: this choice again with the new ones.
        if !improved {
            a += 1;
        }
    }
}
