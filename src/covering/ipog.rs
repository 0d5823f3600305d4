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
    let mut pos = vec![0; width];
    for (i, &c) in order.iter().enumerate() {
        pos[c] = i;
    }
    // Each set belongs to the parameter of it added last.
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

    let mut rows: Vec<Vec<Option<u32>>> = Vec::new();
    for &c in &order {
        let sets = &mut owned[c];
        if sets.iter().all(|s| s.left == 0) {
            continue;
        }
        let v = values[c] as usize;
        // Horizontal growth.
        let mut gain = vec![0usize; v];
        let mut bases: Vec<Option<usize>> = vec![None; sets.len()];
        for row in rows.iter_mut() {
            gain.iter_mut().for_each(|g| *g = 0);
            for (s, base) in sets.iter().zip(bases.iter_mut()) {
                *base = None;
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
                    *base = Some(k);
                    for (x, g) in gain.iter_mut().enumerate() {
                        if !s.is_covered(k + x * mult_c) {
                            *g += 1;
                        }
                    }
                }
            }
            // The best allowed value; ties broken at random so that rows differ.
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
        // Vertical growth: every tuple still missing goes into a row whose cells allow it
        // (a don't-care or the same value), else into a new row.
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
                        let before: Vec<Option<u32>> =
                            tuple.iter().map(|&(col, _)| row[col]).collect();
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
    // Don't-care cells: the first value each constraint allows.
    let rows = rows.into_iter().map(|mut row| {
        for c in 0..width {
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
        row.into_iter()
            .map(|x| x.unwrap_or(0))
            .collect::<Vec<u32>>()
    });
    CoveringArray::from_rows(width, rows)
}
