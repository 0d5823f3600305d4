//! The rows to run for one strength: a covering array over the parameters, the wide ones
//! split into digits (Radix Coverage), read back as the leading indices of a tape.

use super::Cover;
use super::parameters::Parameter;

/// How one parameter sits in the array's columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// One column of the parameter's own values.
    Plain { column: usize },
    /// `digits` columns of base `base`, most significant first, from `first` on.
    Radix {
        first: usize,
        digits: usize,
        base: u64,
    },
}

/// The rows of one strength, as leading indices.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Each row: one index per parameter, in order.
    pub rows: Vec<Vec<u64>>,
    /// The parameters.
    pub parameters: usize,
    /// The array's columns (a split parameter has one per digit).
    pub columns: usize,
    /// The strength covered every column set of the array (so a higher one adds nothing).
    pub is_full_product: bool,
}

/// The smallest base whose 6 digits reach `values` options, and how many digits of it
/// `values` needs (paper 003 §4: the fewest values a digit, at most 6 digits).
pub fn radix(values: u64) -> (u64, usize) {
    let mut base = 2u64;
    while base.checked_pow(6).is_some_and(|p| p < values) {
        base += 1;
    }
    let mut digits = 1;
    let mut reach = base;
    while reach < values {
        reach = reach.saturating_mul(base);
        digits += 1;
    }
    (base, digits)
}

impl Plan {
    /// The array of strength `t` over `params` (wide ones split, see [`Cover::radix_above`]),
    /// or why there is none (too many tuples, [`Cover::max_tuples`]).
    pub fn build(params: &[Parameter], t: usize, seed: u64, settings: &Cover) -> Result<Plan, String> {
        let mut layouts = Vec::with_capacity(params.len());
        let mut columns: Vec<u32> = Vec::new();
        for p in params {
            if p.values > settings.radix_above {
                let (base, digits) = radix(p.values);
                layouts.push(Layout::Radix {
                    first: columns.len(),
                    digits,
                    base,
                });
                columns.extend(std::iter::repeat_n(base as u32, digits));
            } else {
                layouts.push(Layout::Plain {
                    column: columns.len(),
                });
                columns.push(p.values as u32);
            }
        }
        let t = t.clamp(1, columns.len());
        let mut spec = crate::covering::Spec::new();
        for &v in &columns {
            spec.parameter(v);
        }
        spec.strength(t);
        for (layout, p) in layouts.iter().zip(params) {
            if let &Layout::Radix { first, digits, base } = layout {
                let cols: Vec<usize> = (first..first + digits).collect();
                if digits > t {
                    spec.relation(&cols, digits);
                }
                let max = p.values - 1;
                spec.constraint(move |row: &[Option<u32>]| {
                    // The value with every digit not yet chosen at 0 must fit the range.
                    let value = (first..first + digits).fold(0u64, |acc, c| {
                        acc * base + u64::from(row.get(c).copied().flatten().unwrap_or(0))
                    });
                    value <= max
                });
            }
        }
        let tuples = spec.tuples();
        if tuples > settings.max_tuples {
            return Err(format!(
                "{tuples} tuples to cover, more than {} (Cover::max_tuples)",
                settings.max_tuples
            ));
        }
        let options = crate::covering::Options {
            seed,
            ..crate::covering::Options::default()
        };
        let array = crate::covering::build(&spec, &options).map_err(|e| e.to_string())?;
        let rows = array
            .rows()
            .map(|row| {
                layouts
                    .iter()
                    .map(|l| match *l {
                        Layout::Plain { column } => u64::from(row[column]),
                        Layout::Radix { first, digits, base } => row[first..first + digits]
                            .iter()
                            .fold(0u64, |acc, &d| acc * base + u64::from(d)),
                    })
                    .collect()
            })
            .collect();
        Ok(Plan {
            rows,
            parameters: params.len(),
            columns: columns.len(),
            is_full_product: t >= columns.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_bases() {
        assert_eq!(radix(1001), (4, 5));
        assert_eq!(radix(1000), (4, 5));
        assert_eq!(radix(64), (2, 6));
        assert_eq!(radix(65), (3, 4));
        assert_eq!(radix(11), (2, 4));
        assert_eq!(radix(1 << 24), (16, 6));
    }
}
