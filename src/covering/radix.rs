//! Radix Coverage (paper 003 §4): a parameter with a wide range becomes digits of a small
//! base, the digits of one number interact fully (so every value of the range appears in
//! some row), and a constraint keeps the number within its range.

use super::Spec;

/// A wide parameter added to a [`Spec`] as digits: where they are and how to read a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Radix {
    /// The first digit's parameter (the most significant; the others follow it).
    pub first: usize,
    /// How many digits (0 for a range of at most one value).
    pub digits: usize,
    /// The base.
    pub base: u64,
    /// The range's size: values `0..size`.
    pub size: u64,
}

/// The smallest base whose 6 digits reach `size` values, and how many digits of it `size`
/// needs: fewer values a digit keep arrays small (their size grows with the values a
/// parameter far more than with the number of parameters). `size ≤ 1`: no digit.
pub fn split(size: u64) -> (u64, usize) {
    if size <= 1 {
        return (2, 0);
    }
    let mut base = 2u64;
    while base.checked_pow(6).is_some_and(|p| p < size) {
        base += 1;
    }
    let mut digits = 1;
    let mut reach = base;
    while reach < size {
        reach = reach.saturating_mul(base);
        digits += 1;
    }
    (base, digits)
}

impl Radix {
    /// Adds a parameter of `size` values (`0..size`) to `spec` as digits ([`split`]), with a
    /// sub-relation of strength = its number of digits over them and the constraint "value
    /// ≤ size − 1" (checked on partial rows: unassigned digits read as 0).
    pub fn add(spec: &mut Spec, size: u64) -> Radix {
        let (base, digits) = split(size);
        let first = spec.values().len();
        for _ in 0..digits {
            spec.parameter(base as u32);
        }
        let r = Radix {
            first,
            digits,
            base,
            size,
        };
        if digits > 0 {
            let cols: Vec<usize> = (first..first + digits).collect();
            spec.relation(&cols, digits);
            if base
                .checked_pow(digits as u32)
                .is_none_or(|reach| reach > size)
            {
                spec.constraint(move |row: &[Option<u32>]| r.partial(row) < size);
            }
        }
        r
    }

    /// The number a full row's digits spell (0 with no digits).
    pub fn value(&self, row: &[u32]) -> u64 {
        row[self.first..self.first + self.digits]
            .iter()
            .fold(0u64, |acc, &d| acc * self.base + u64::from(d))
    }

    /// The smallest number a partial row's digits can still spell.
    fn partial(&self, row: &[Option<u32>]) -> u64 {
        row[self.first..self.first + self.digits]
            .iter()
            .fold(0u64, |acc, d| acc * self.base + u64::from(d.unwrap_or(0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::covering::{BuildOptions, build};

    #[test]
    fn bases() {
        assert_eq!(split(1001), (4, 5));
        assert_eq!(split(64), (2, 6));
        assert_eq!(split(65), (3, 4));
        assert_eq!(split(11), (2, 4));
        assert_eq!(split(1 << 24), (16, 6));
        assert_eq!(split(1).1, 0);
        assert_eq!(split(0).1, 0);
    }

    #[test]
    fn every_value_appears_and_none_exceeds_the_range() {
        for size in [2u64, 11, 100, 1001] {
            let mut spec = Spec::new();
            spec.parameter(2);
            let r = Radix::add(&mut spec, size);
            spec.strength(2);
            let a = build(&spec, &BuildOptions::default()).unwrap();
            assert_eq!(a.missing(&spec), 0);
            let mut seen = vec![false; size as usize];
            for row in a.rows() {
                let v = r.value(row);
                assert!(v < size, "{v} ≥ {size}");
                seen[v as usize] = true;
            }
            assert!(seen.iter().all(|&s| s), "size {size}");
        }
    }
}
