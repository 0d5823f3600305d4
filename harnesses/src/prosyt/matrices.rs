//! The matrix programs: matrix_mult, det_tri_matrix.

use super::{HI, LO, Mode, Program, sized, test_in};
use tapefuzz::generators::constrained::{Constrain, Num, nums};
use tapefuzz::prelude::*;
use tapefuzz::property::Test;

fn num<N: Num>() -> impl Gen<Value = N> {
    nums::<N>(LO..=HI)
}

/// Whether every row has the same, non-zero length.
fn rectangular<N>(m: &[Vec<N>]) -> bool {
    !m.is_empty() && !m[0].is_empty() && m.iter().all(|r| r.len() == m[0].len())
}

// ---- matrix_mult ------------------------------------------------------------------------

/// Two rectangular matrices, the first's columns as many as the second's rows, 10..=100
/// entries in all.
pub struct MatrixMult;
impl Constrain for MatrixMult {
    type Value<N: Num> = (Vec<Vec<N>>, Vec<Vec<N>>);
    fn generator<N: Num>(&self) -> impl Gen<Value = (Vec<Vec<N>>, Vec<Vec<N>>)> {
        let matrix = || vecs(vecs(num::<N>(), 1..=8), 1..=8);
        (matrix(), matrix())
    }
    fn valid<N: Num>(&self, (a, b): &(Vec<Vec<N>>, Vec<Vec<N>>)) -> bool {
        rectangular(a)
            && rectangular(b)
            && a[0].len() == b.len()
            && sized(a.len() * a[0].len() + b.len() * b[0].len())
    }
}

/// The product of `a` and `b` (wrapping). With `last_column`, a product of four or more
/// columns leaves its last column zero.
pub fn multiply(a: &[Vec<i64>], b: &[Vec<i64>], last_column: bool) -> Vec<Vec<i64>> {
    let cols = b[0].len();
    let used = if last_column && cols >= 4 {
        cols - 1
    } else {
        cols
    };
    a.iter()
        .map(|row| {
            (0..cols)
                .map(|j| {
                    if j >= used {
                        return 0;
                    }
                    row.iter()
                        .zip(b)
                        .fold(0i64, |s, (&x, r)| s.wrapping_add(x.wrapping_mul(r[j])))
                })
                .collect()
        })
        .collect()
}

fn transpose(m: &[Vec<i64>]) -> Vec<Vec<i64>> {
    (0..m[0].len())
        .map(|j| m.iter().map(|r| r[j]).collect())
        .collect()
}

fn matrix_mult(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let last = bug == Some("last_column");
    test_in(
        MatrixMult,
        mode,
        move |(a, b): (Vec<Vec<i64>>, Vec<Vec<i64>>)| {
            // (AB)ᵀ = BᵀAᵀ, the right side by the correct product.
            let ab = multiply(&a, &b, last);
            let bt_at = multiply(&transpose(&b), &transpose(&a), false);
            ensure_eq!(transpose(&ab), bt_at);
            Ok(())
        },
    )
}

/// `matrix_mult`.
pub const MATRIX_MULT: Program = Program {
    name: "matrix_mult",
    description: "matrix product against (AB)ᵀ = BᵀAᵀ (filter: two rectangular matrices, columns of the first = rows of the second)",
    bugs: &[(
        "last_column",
        "a product of four or more columns leaves its last column zero",
    )],
    test: matrix_mult,
};

// ---- det_tri_matrix ---------------------------------------------------------------------

/// A lower triangular matrix by rows: row i holds i + 1 entries; 10..=100 entries in all.
pub struct DetTriMatrix;
impl Constrain for DetTriMatrix {
    type Value<N: Num> = Vec<Vec<N>>;
    fn generator<N: Num>(&self) -> impl Gen<Value = Vec<Vec<N>>> {
        vecs(vecs(num::<N>(), 1..=13), 4..=13)
    }
    fn valid<N: Num>(&self, m: &Vec<Vec<N>>) -> bool {
        m.iter().enumerate().all(|(i, r)| r.len() == i + 1) && sized(m.iter().map(Vec::len).sum())
    }
}

/// The determinant of a lower triangular matrix: the product of its diagonal (wrapping).
/// With `first_entry`, rows of five or more entries give their first entry, not the last.
pub fn determinant(m: &[Vec<i64>], first_entry: bool) -> i64 {
    m.iter().fold(1i64, |p, r| {
        let d = if first_entry && r.len() >= 5 {
            r[0]
        } else {
            r[r.len() - 1]
        };
        p.wrapping_mul(d)
    })
}

fn det_tri_matrix(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let first = bug == Some("first_entry");
    test_in(DetTriMatrix, mode, move |m: Vec<Vec<i64>>| {
        // Against the transpose: an upper triangular matrix, whose diagonal is the first
        // entry of each of its rows.
        let n = m.len();
        let upper: Vec<Vec<i64>> = (0..n).map(|j| (j..n).map(|i| m[i][j]).collect()).collect();
        let expected = upper.iter().fold(1i64, |p, r| p.wrapping_mul(r[0]));
        ensure_eq!(determinant(&m, first), expected);
        Ok(())
    })
}

/// `det_tri_matrix`.
pub const DET_TRI_MATRIX: Program = Program {
    name: "det_tri_matrix",
    description: "determinant of a lower triangular matrix (filter: row i has i + 1 entries)",
    bugs: &[(
        "first_entry",
        "rows of five or more entries give their first entry as the diagonal",
    )],
    test: det_tri_matrix,
};
