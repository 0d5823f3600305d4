//! What a covering array must cover: parameters, relations of a strength, constraints.

use std::fmt;
use std::sync::Arc;

/// A constraint over a partial row: `row[c]` is `Some(value)` for the columns assigned so far
/// and `None` for the others. It answers `false` only when the assigned values already break
/// it, whatever the others become.
pub type Constraint = Arc<dyn Fn(&[Option<u32>]) -> bool + Send + Sync>;

/// One relation: a set of parameters and the strength of the interactions among them that
/// must be covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    /// The parameters, sorted, without repeats.
    pub parameters: Vec<usize>,
    /// Every combination of values of every `strength` of them must appear in some row
    /// (clamped to the number of parameters).
    pub strength: usize,
}

/// What an array must cover: parameters with their numbers of values, a main strength over
/// all of them, mixed-strength sub-relations, and constraints.
///
/// ```
/// use tapefuzz::covering::{BuildOptions, Spec, build};
///
/// // Five flags, every pair of values of every two of them: 6 rows (not 32).
/// let spec = Spec::uniform(2, 5, 2);
/// let array = build(&spec, &BuildOptions::default()).unwrap();
/// assert_eq!(array.missing(&spec), 0);
/// assert!(array.len() <= 7);
/// ```
#[derive(Clone, Default)]
pub struct Spec {
    values: Vec<u32>,
    strength: usize,
    relations: Vec<Relation>,
    constraints: Vec<Constraint>,
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Spec")
            .field("values", &self.values)
            .field("strength", &self.strength)
            .field("relations", &self.relations)
            .field("constraints", &self.constraints.len())
            .finish()
    }
}

impl Spec {
    /// No parameters, strength 2, no sub-relation, no constraint.
    pub fn new() -> Spec {
        Spec {
            strength: 2,
            ..Spec::default()
        }
    }

    /// `k` parameters of `v` values each at strength `t`: the uniform arrays of the
    /// literature (CA(N; t, k, v)), written `v^k`.
    pub fn uniform(v: u32, k: usize, t: usize) -> Spec {
        let mut s = Spec::new();
        for _ in 0..k {
            s.parameter(v);
        }
        s.strength(t);
        s
    }

    /// Adds a parameter of `values` values (`0..values`; 0 is taken as 1) and returns its
    /// index.
    pub fn parameter(&mut self, values: u32) -> usize {
        self.values.push(values.max(1));
        self.values.len() - 1
    }

    /// The main strength over all parameters (at least 1; more than the number of parameters
    /// means every combination of all of them).
    pub fn strength(&mut self, t: usize) -> &mut Spec {
        self.strength = t.max(1);
        self
    }

    /// Adds a sub-relation: every combination of values of every `strength` of `parameters`
    /// must appear, whatever the main strength (mixed strength; Radix Coverage relates the
    /// digits of one number at full strength). Unknown indices are ignored.
    pub fn relation(&mut self, parameters: &[usize], strength: usize) -> &mut Spec {
        let mut p: Vec<usize> = parameters
            .iter()
            .copied()
            .filter(|&i| i < self.values.len())
            .collect();
        p.sort_unstable();
        p.dedup();
        if !p.is_empty() {
            self.relations.push(Relation {
                strength: strength.clamp(1, p.len()),
                parameters: p,
            });
        }
        self
    }

    /// Adds a constraint ([`Constraint`]): rows that break it are never made, and tuples that
    /// break it need no covering.
    pub fn constraint(
        &mut self,
        holds: impl Fn(&[Option<u32>]) -> bool + Send + Sync + 'static,
    ) -> &mut Spec {
        self.constraints.push(Arc::new(holds));
        self
    }

    /// The parameters' numbers of values.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The main strength, clamped to the number of parameters.
    pub fn main_strength(&self) -> usize {
        self.strength.min(self.values.len())
    }

    /// Whether the spec is one main strength alone: no constraint, and no sub-relation
    /// stronger than the main strength (the uniform arrays of the literature).
    pub fn is_plain(&self) -> bool {
        self.constraints.is_empty()
            && self
                .relations
                .iter()
                .all(|r| r.strength <= self.main_strength())
    }

    /// Whether the spec has constraints.
    pub fn has_constraints(&self) -> bool {
        !self.constraints.is_empty()
    }

    /// Whether a partial row breaks no constraint.
    pub fn allows(&self, row: &[Option<u32>]) -> bool {
        self.constraints.iter().all(|c| c(row))
    }

    /// Every parameter set whose combinations must all be covered, each sorted, without
    /// repeats: the `t`-subsets of all parameters and those of each sub-relation (a set
    /// inside a larger required one is left out: covering the larger covers it).
    pub fn column_sets(&self) -> Vec<Vec<usize>> {
        let t = self.main_strength();
        // Sub-relations no stronger than the main strength add nothing: the main relation
        // covers every `t`-subset of all parameters, so every smaller one too.
        let mut related: Vec<Vec<usize>> = Vec::new();
        for r in &self.relations {
            if r.strength > t {
                subsets(&r.parameters, r.strength, &mut related);
            }
        }
        related.sort();
        related.dedup();
        let contains = |big: &[usize], small: &[usize]| {
            big.len() > small.len() && small.iter().all(|c| big.contains(c))
        };
        let snapshot = related.clone();
        related.retain(|s| !snapshot.iter().any(|b| contains(b, s)));
        let mut sets = Vec::new();
        if t > 0 {
            let all: Vec<usize> = (0..self.values.len()).collect();
            subsets(&all, t, &mut sets);
            // A main set inside a stronger sub-relation's set is covered with it.
            if !related.is_empty() {
                sets.retain(|s| !related.iter().any(|b| contains(b, s)));
            }
        }
        sets.extend(related);
        sets.sort();
        sets
    }

    /// How many tuples must be covered (before constraints remove any): the sum over
    /// [`Spec::column_sets`] of the product of their values. Saturates at `u64::MAX`.
    pub fn tuples(&self) -> u64 {
        self.column_sets()
            .iter()
            .map(|s| {
                s.iter()
                    .try_fold(1u64, |acc, &c| acc.checked_mul(u64::from(self.values[c])))
                    .unwrap_or(u64::MAX)
            })
            .fold(0u64, u64::saturating_add)
    }
}

/// Pushes every `t`-subset of `of` (in order) onto `out`.
fn subsets(of: &[usize], t: usize, out: &mut Vec<Vec<usize>>) {
    let t = t.min(of.len());
    let mut idx: Vec<usize> = (0..t).collect();
    loop {
        out.push(idx.iter().map(|&i| of[i]).collect());
        // Next combination.
        let mut k = t;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            if idx[k] < of.len() - t + k {
                idx[k] += 1;
                for j in k + 1..t {
                    idx[j] = idx[j - 1] + 1;
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_sets_and_tuples() {
        let mut s = Spec::new();
        for v in [2, 3, 4, 5] {
            s.parameter(v);
        }
        s.strength(2);
        assert_eq!(s.column_sets().len(), 6);
        assert_eq!(s.tuples(), 2 * 3 + 2 * 4 + 2 * 5 + 3 * 4 + 3 * 5 + 4 * 5);
        // A sub-relation of strength 3 over three of them replaces its three pairs.
        s.relation(&[1, 2, 3], 3);
        assert_eq!(s.column_sets().len(), 4);
        assert_eq!(s.tuples(), 2 * 3 + 2 * 4 + 2 * 5 + 3 * 4 * 5);
        // Strength beyond the parameters: all of them.
        s.strength(9);
        assert_eq!(s.column_sets(), vec![vec![0, 1, 2, 3]]);
        assert_eq!(Spec::new().tuples(), 0);
    }
}
