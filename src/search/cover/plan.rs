//! The rows to run for one strength: a covering array over the parameters, the wide ones
//! split into digits (Radix Coverage), read back as the leading indices of a tape.

use super::Cover;
use super::parameters::Parameter;
use crate::covering::radix::Radix;
use crate::covering::{BuildOptions, Spec, build};

/// How one parameter sits in the array's columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// One column of the parameter's own values.
    Plain(usize),
    /// Digits (Radix Coverage).
    Radix(Radix),
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

impl Plan {
    /// The array of strength `t` over `params` (wide ones split, see [`Cover::radix_above`]),
    /// or why there is none (too many tuples, [`Cover::max_tuples`]).
    pub fn build(
        params: &[Parameter],
        t: usize,
        seed: u64,
        settings: &Cover,
    ) -> Result<Plan, String> {
        let mut spec = Spec::new();
        let layouts: Vec<Layout> = params
            .iter()
            .map(|p| {
                if p.values > settings.radix_above {
                    Layout::Radix(Radix::add(&mut spec, p.values))
                } else {
                    Layout::Plain(spec.parameter(p.values as u32))
                }
            })
            .collect();
        let columns = spec.values().len();
        let t = t.clamp(1, columns.max(1));
        spec.strength(t);
        let tuples = spec.tuples();
        if tuples > settings.max_tuples {
            return Err(format!(
                "{tuples} tuples to cover, more than {} (Cover::max_tuples)",
                settings.max_tuples
            ));
        }
        let options = BuildOptions {
            seed,
            ..BuildOptions::default()
        };
        let array = build(&spec, &options).map_err(|e| e.to_string())?;
        let rows = array
            .rows()
            .map(|row| {
                layouts
                    .iter()
                    .map(|l| match l {
                        Layout::Plain(column) => u64::from(row[*column]),
                        Layout::Radix(r) => r.value(row),
                    })
                    .collect()
            })
            .collect();
        Ok(Plan {
            rows,
            parameters: params.len(),
            columns,
            is_full_product: t >= columns,
        })
    }
}
