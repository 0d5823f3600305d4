//! A covering array: rows of values, and the check of what it covers.

use super::Spec;

/// Rows of values, one per parameter of the [`Spec`] it was built for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoveringArray {
    width: usize,
    cells: Vec<u32>,
}

impl CoveringArray {
    /// An array of `width` columns from its rows (each of `width` values).
    pub fn from_rows(width: usize, rows: impl IntoIterator<Item = Vec<u32>>) -> CoveringArray {
        let mut cells = Vec::new();
        for r in rows {
            assert_eq!(r.len(), width, "a row of {} values, not {width}", r.len());
            cells.extend(r);
        }
        CoveringArray { width, cells }
    }

    /// The rows, in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        // `chunks_exact(0)` panics: an array of no columns has no rows worth reading.
        self.cells.chunks_exact(self.width.max(1))
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.cells.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether it has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// How many of the tuples `spec` requires (those no constraint rules out) no row covers:
    /// 0 for a covering array of `spec`. Rows that break a constraint cover nothing.
    pub fn missing(&self, spec: &Spec) -> u64 {
        let values = spec.values();
        let mut missing = 0;
        let rows: Vec<Vec<Option<u32>>> = self
            .rows()
            .map(|r| r.iter().map(|&v| Some(v)).collect())
            .filter(|r: &Vec<Option<u32>>| spec.allows(r))
            .collect();
        for set in spec.column_sets() {
            let total: usize = set.iter().map(|&c| values[c] as usize).product();
            let mut seen = vec![false; total];
            for r in &rows {
                let mut k = 0;
                for &c in &set {
                    k = k * values[c] as usize + r[c].unwrap_or(0) as usize;
                }
                seen[k] = true;
            }
            let mut partial = vec![None; values.len()];
            for (k, s) in seen.iter().enumerate() {
                if *s {
                    continue;
                }
                let mut rest = k;
                for &c in set.iter().rev() {
                    partial[c] = Some((rest % values[c] as usize) as u32);
                    rest /= values[c] as usize;
                }
                if spec.allows(&partial) {
                    missing += 1;
                }
                for &c in &set {
                    partial[c] = None;
                }
            }
        }
        missing
    }
}
