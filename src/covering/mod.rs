//! Covering arrays: test suites in which every combination of values of every `t`
//! parameters appears in some row (combinatorial interaction testing; paper 003 §2, §4).
//!
//! | item | what it is |
//! |---|---|
//! | [`Spec`] | parameters with their numbers of values, a main strength, mixed-strength sub-relations ([`Spec::relation`]), constraints over partial rows ([`Spec::constraint`]) |
//! | [`build`] | an array for a spec: the smaller of IPOG ([`ipog`]) and a direct construction where one applies ([`construct`]: Bush's orthogonal arrays over GF(q), binary Katona arrays), then a post-optimisation pass ([`optimise`], within [`BuildOptions::budget`]) |
//! | [`CoveringArray`] | the rows, and [`CoveringArray::missing`], the check |
//! | [`radix`] | Radix Coverage: a wide parameter as digits that fully interact, within its range |
//!
//! ```
//! use tapefuzz::covering::{BuildOptions, Spec, build, radix};
//!
//! // A flag, a mode of 3, and a level in 0..=1000 split into digits (base 4, 5 digits):
//! // every pair of values across parameters' digits, and every level value, appear.
//! let mut spec = Spec::new();
//! spec.parameter(2);
//! spec.parameter(3);
//! let level = radix::Radix::add(&mut spec, 1001);
//! spec.strength(2);
//! let array = build(&spec, &BuildOptions::default()).unwrap();
//! assert_eq!(array.missing(&spec), 0);
//! let mut levels: Vec<u64> = array.rows().map(|r| level.value(r)).collect();
//! levels.sort();
//! levels.dedup();
//! assert_eq!(levels.len(), 1001);
//! ```
//!
//! Edges: a spec with no parameters gives an empty array; a parameter of 0 values counts as
//! 1; a strength above the number of parameters covers every combination of all of them;
//! a constraint that rules out every value of a parameter leaves that cell at 0 in rows
//! that then break it (and [`CoveringArray::missing`] counts nothing for such rows).

mod array;
pub mod construct;
mod ipog;
mod optimise;
pub mod radix;
mod spec;

pub use array::CoveringArray;
pub use ipog::ipog;
pub use optimise::optimise;
pub use spec::{Constraint, Relation, Spec};

use std::time::Duration;

/// How [`build`] works.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildOptions {
    /// Seed of every random choice (ties, the post-optimisation's moves): the same seed gives
    /// the same array.
    pub seed: u64,
    /// Time the post-optimisation may spend shrinking the array (zero: IPOG's array as it
    /// is). Default zero.
    pub budget: Duration,
    /// The post-optimisation stops as soon as the array has at most this many rows (0: it
    /// goes on for its whole budget). Default 0.
    pub enough: usize,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            seed: 0,
            budget: Duration::ZERO,
            enough: 0,
        }
    }
}

/// Why an array was not built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// Tuples the spec requires.
    pub tuples: u64,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} tuples to cover, more than this builder holds ({MAX_TUPLES})",
            self.tuples
        )
    }
}

impl std::error::Error for TooLarge {}

/// Most tuples [`build`] takes on (a bit each, and IPOG's time grows with them).
pub const MAX_TUPLES: u64 = 1 << 31;

/// An array covering `spec`: IPOG's, then shrunk by the post-optimisation within
/// `options.budget`. An error when the spec requires more than [`MAX_TUPLES`] tuples.
pub fn build(spec: &Spec, options: &BuildOptions) -> Result<CoveringArray, TooLarge> {
    let tuples = spec.tuples();
    if tuples > MAX_TUPLES {
        return Err(TooLarge { tuples });
    }
    let greedy = ipog(spec, options.seed);
    let start = match construct::direct(spec) {
        Some(direct) if direct.len() <= greedy.len() => direct,
        _ => greedy,
    };
    if start.len() <= options.enough {
        return Ok(start);
    }
    Ok(optimise(
        spec,
        start,
        options.budget,
        options.seed,
        options.enough,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipog_covers_uniform_specs() {
        for (v, k, t) in [
            (2, 5, 2),
            (3, 4, 2),
            (3, 13, 2),
            (4, 5, 2),
            (2, 6, 3),
            (3, 6, 3),
            (2, 10, 4),
        ] {
            let s = Spec::uniform(v, k, t);
            let a = build(&s, &BuildOptions::default()).unwrap();
            assert_eq!(a.missing(&s), 0, "{v}^{k} t={t}");
            assert!(
                a.len() >= (v as usize).pow(t as u32),
                "{v}^{k} t={t}: {} rows",
                a.len()
            );
        }
    }

    #[test]
    fn mixed_strength_and_constraints() {
        let mut s = Spec::uniform(3, 6, 2);
        s.relation(&[0, 1, 2], 3);
        // Parameters 4 and 5 never both 2.
        s.constraint(|r: &[Option<u32>]| !(r[4] == Some(2) && r[5] == Some(2)));
        let a = build(&s, &BuildOptions::default()).unwrap();
        assert_eq!(a.missing(&s), 0);
        assert!(a.len() >= 27);
        for r in a.rows() {
            assert!(!(r[4] == 2 && r[5] == 2), "{r:?}");
        }
    }

    #[test]
    fn edges() {
        let empty = Spec::new();
        assert!(build(&empty, &BuildOptions::default()).unwrap().is_empty());
        let mut one = Spec::new();
        one.parameter(0);
        one.parameter(3);
        one.strength(5);
        let a = build(&one, &BuildOptions::default()).unwrap();
        assert_eq!(a.len(), 3);
        assert_eq!(a.missing(&one), 0);
    }
}
