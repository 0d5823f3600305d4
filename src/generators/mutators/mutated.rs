//! Applying a mutator to a generator's values.

use super::Mutator;
use crate::generators::Gen;
use crate::tape::{Label, Reject, Tape};

const MUTATE: Label = crate::tape::builtin::MUTATE;
const BASE: Label = crate::tape::builtin::MUTATE_BASE;
const MUTATION: Label = crate::tape::builtin::MUTATION;

/// See [`mutated`].
#[derive(Clone, Debug)]
pub struct Mutated<G, M> {
    base: G,
    mutator: M,
    p: f64,
}

/// The values of `base`, sometimes mutated by `mutator` (Synthia's `Mutate`): near-invalid
/// values from a generator of valid ones.
///
/// **On the tape**: a "mutate?" coin (a random source mutates with probability
/// [`Mutated::probability`], by default 0.5), the base value (span `mutated.base`), then,
/// if the coin said so, the mutation's decisions (span `mutated.mutation`).
///
/// **Simplicity order**: index 0 of the coin is the **unmutated** base value; a tape of
/// zeros gives the base generator's simplest value, unmutated. So shrinking removes a
/// mutation that a failure does not need, and a failure that needs one shrinks to the
/// simplest base value with the simplest mutation. **Running out**: the base value's
/// simplest completion, unmutated if the coin was not drawn yet, else with the mutation's
/// simplest decisions.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::mutated;
/// use tapefuzz::generators::mutators::Swap;
///
/// let ascending = vecs(ints::<u8>(..), 0..=5).map(|mut v| {
///     v.sort();
///     v
/// });
/// // Swapping two elements keeps the elements.
/// check(mutated(ascending, Swap), |v: Vec<u8>| v.len() <= 5);
/// ```
pub fn mutated<G: Gen, M: Mutator<G::Value>>(base: G, mutator: M) -> Mutated<G, M> {
    Mutated {
        base,
        mutator,
        p: 0.5,
    }
}

impl<G, M> Mutated<G, M> {
    /// The probability that a random source mutates a value (clamped to `0..=1`; the tape
    /// and the simplicity order do not change).
    pub fn probability(mut self, p: f64) -> Mutated<G, M> {
        self.p = p.clamp(0.0, 1.0);
        self
    }
}

impl<G: Gen, M: Mutator<G::Value>> Gen for Mutated<G, M> {
    type Value = G::Value;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        let mutate = tape.draw_bool(MUTATE, self.p)?;
        let value = tape.span(BASE, |t| self.base.generate(t))?;
        if mutate {
            tape.span(MUTATION, |t| self.mutator.mutate(value, t))
        } else {
            Ok(value)
        }
    }
}
