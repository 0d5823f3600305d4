//! IPOG (Lei, Kacker, Kuhn, Okun, Lawrence 2007): grow the array one parameter at a time —
//! horizontally (a value for the new parameter in every row, the one covering the most new
//! tuples) and vertically (rows for the tuples still missing) — generalised to
//! mixed-strength relations and constraints over partial rows.

use super::{CoveringArray, Spec};
use crate::tape::Rng;

/// The tuples of one parameter set and which of them are covered.
struct Set {
    /// The parameters, in the order they are added.
    cols: Vec<usize>,
    /// Mixed-radix multiplier of each parameter in a tuple's index.
    mults: Vec<usize>,
    /// Covered (or ruled out by a constraint) tuples, one bit each.
    covered: Vec<u64>,
    /// Tuples still to cover.
    left: usize,
}

impl Set {
    fn is_covered(&self, k: usize) -> bool {
        self.covered[k / 64] >> (k % 64) & 1 == 1
    }

    /// Marks tuple `k`; true when it was not covered yet.
    fn cover(&mut self, k: usize) -> bool {
        let (w, b) = (k / 64, 1u64 << (k % 64));
        if self.covered[w] & b == 0 {
            self.covered[w] |= b;
            self.left -= 1;
            true
        } else {
            false
        }
    }

    /// The tuple's index in a row with every one of its parameters set, else `None`.
    fn index(&self, row: &[Option<u32>]) -> Option<usize> {
        let mut k = 0;
        for (c, m) in self.cols.iter().zip(&self.mults) {
            k += row[*c]? as usize * m;
        }
        Some(k)
    }
}

/// Builds an array covering `spec` by IPOG (no post-optimisation). `seed` breaks ties.
pub fn ipog(spec: &Spec, seed: u64) -> CoveringArray {
    let values = spec.values();
    let width = values.len();
    if width == 0 {
        return CoveringArray::from_rows(0, Vec::new());
    }
    let mut rng = Rng::new(seed);
    // Parameters with more values first (IPOG's order): the first sets are the largest.
    let mut order: Vec<usize> = (0..width).collect();
    order.sort_by_key(|&c| std::cmp::Reverse(values[c]));
    let mut owned = owned_sets(spec, values, &order);
    let mut rows: Vec<Vec<Option<u32>>> = Vec::new();
    for &c in &order {
        let sets = &mut owned[c];
        if sets.iter().all(|s| s.left == 0) {
            continue;
        }
        grow_horizontally(spec, &mut rows, sets, c, values[c] as usize, &mut rng);
        grow_vertically(spec, &mut rows, sets, values);
    }
    let rows = rows
        .into_iter()
        .map(|row| without_dont_cares(spec, values, row));
    CoveringArray::from_rows(width, rows)
}

/// The column sets to cover, each with the tuples a constraint rules out already covered,
/// by the parameter (in `order`) each belongs to: the one of it added last.
fn owned_sets(spec: &Spec, values: &[u32], order: &[usize]) -> Vec<Vec<Set>> {
    let width = values.len();
    let mut pos = vec![0; width];
    for (i, &c) in order.iter().enumerate() {
        pos[c] = i;
    }
    let mut owned: Vec<Vec<Set>> = (0..width).map(|_| Vec::new()).collect();
    for mut cols in spec.column_sets() {
        cols.sort_by_key(|&c| pos[c]);
        let mut mults = vec![0; cols.len()];
        let mut m = 1usize;
        for (i, &c) in cols.iter().enumerate().rev() {
            mults[i] = m;
            m *= values[c] as usize;
        }
        let mut set = Set {
            covered: vec![0; m.div_ceil(64)],
            left: m,
            cols,
            mults,
        };
        // Tuples a constraint rules out need no row.
        let mut partial = vec![None; width];
        for k in 0..m {
            let mut rest = k;
            for (i, &c) in set.cols.iter().enumerate() {
                partial[c] = Some((rest / set.mults[i]) as u32);
                rest %= set.mults[i];
            }
            if !spec.allows(&partial) {
                set.cover(k);
            }
        }
        let last = *set.cols.last().expect("a set has parameters");
        owned[last].push(set);
    }
    owned
}

/// IPOG's horizontal growth: each row gets the value of parameter `c` (of `v` values) that
/// covers the most missing tuples of `sets` and that the constraints allow; ties broken at
/// random so that rows differ.
fn grow_horizontally(
    spec: &Spec,
    rows: &mut [Vec<Option<u32>>],
    sets: &mut [Set],
    c: usize,
    v: usize,
    rng: &mut Rng,
) {
    let mut gain = vec![0usize; v];
    for row in rows.iter_mut() {
        gain.iter_mut().for_each(|g| *g = 0);
        for s in sets.iter() {
            let mut k = 0;
            let mut mult_c = 0;
            let mut complete = true;
            for (col, m) in s.cols.iter().zip(&s.mults) {
                if *col == c {
                    mult_c = *m;
                } else if let Some(x) = row[*col] {
                    k += x as usize * m;
                } else {
                    complete = false;
                    break;
                }
            }
            if complete {
                for (x, g) in gain.iter_mut().enumerate() {
                    if !s.is_covered(k + x * mult_c) {
                        *g += 1;
                    }
                }
            }
        }
        let mut best: Option<(usize, u64, usize)> = None;
        for (x, &g) in gain.iter().enumerate() {
            if g == 0 {
                continue;
            }
            let tie = rng.next_u64();
            if best.is_none_or(|(bg, bt, _)| g > bg || (g == bg && tie > bt)) {
                row[c] = Some(x as u32);
                if spec.allows(row) {
                    best = Some((g, tie, x));
                }
                row[c] = None;
            }
        }
        if let Some((_, _, x)) = best {
            row[c] = Some(x as u32);
            for s in sets.iter_mut() {
                if let Some(k) = s.index(row) {
                    s.cover(k);
                }
            }
        }
    }
}

/// IPOG's vertical growth: every tuple of `sets` still missing goes into a row whose cells
/// allow it (a don't-care or the same value), else into a new row.
fn grow_vertically(
    spec: &Spec,
    rows: &mut Vec<Vec<Option<u32>>>,
    sets: &mut [Set],
    values: &[u32],
) {
    let width = values.len();
    for si in 0..sets.len() {
        let total = sets[si].mults[0] * values[sets[si].cols[0]] as usize;
        for k in 0..total {
            if sets[si].is_covered(k) {
                continue;
            }
            let tuple: Vec<(usize, u32)> = {
                let s = &sets[si];
                let mut rest = k;
                s.cols
                    .iter()
                    .zip(&s.mults)
                    .map(|(&col, &m)| {
                        let x = (rest / m) as u32;
                        rest %= m;
                        (col, x)
                    })
                    .collect()
            };
            let mut placed = None;
            for (ri, row) in rows.iter_mut().enumerate() {
                if tuple
                    .iter()
                    .all(|&(col, x)| row[col].is_none_or(|y| y == x))
                {
                    let before: Vec<Option<u32>> = tuple.iter().map(|&(col, _)| row[col]).collect();
                    for &(col, x) in &tuple {
                        row[col] = Some(x);
                    }
                    if spec.allows(row) {
                        placed = Some(ri);
                        break;
                    }
                    for (&(col, _), b) in tuple.iter().zip(before) {
                        row[col] = b;
                    }
                }
            }
            let ri = placed.unwrap_or_else(|| {
                let mut row = vec![None; width];
                for &(col, x) in &tuple {
                    row[col] = Some(x);
                }
                rows.push(row);
                rows.len() - 1
            });
            for s in sets.iter_mut() {
                if let Some(k) = s.index(&rows[ri]) {
                    s.cover(k);
                }
            }
        }
    }
}

/// The row with each don't-care cell set to the first value the constraints allow.
fn without_dont_cares(spec: &Spec, values: &[u32], mut row: Vec<Option<u32>>) -> Vec<u32> {
    for c in 0..values.len() {
        if row[c].is_none() {
            let x = (0..values[c])
                .find(|&x| {
                    row[c] = Some(x);
                    spec.allows(&row)
                })
                .unwrap_or(0);
            row[c] = Some(x);
        }
    }
    row.into_iter().map(|x| x.unwrap_or(0)).collect()
}
