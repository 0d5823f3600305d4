//! Picks structure-aware operators by weight.

use super::Operator;
use crate::tape::{Choice, Recording, Rng};

/// Chooses an [`Operator`] by weight and applies it, falling back to the others when the
/// chosen one does not apply to the tape.
#[derive(Clone, Debug)]
pub struct TapeMutator {
    weights: [u32; Operator::ALL.len()],
}

impl Default for TapeMutator {
    /// Moves and span edits about equally often: `move_choice` 4, `randomize_span` 2,
    /// `copy_span` 2, each other operator 1 (`splice_span` only with a donor).
    fn default() -> TapeMutator {
        TapeMutator {
            weights: [1, 1, 1, 4, 2, 1, 2],
        }
    }
}

impl TapeMutator {
    /// Sets the weight of one operator (0 turns it off).
    pub fn weight(mut self, op: Operator, weight: u32) -> TapeMutator {
        let i = Operator::ALL.iter().position(|&o| o == op).expect("listed");
        self.weights[i] = weight;
        self
    }

    /// Applies one operator to `base` (splicing from `donor` when given): the operator used
    /// and the edited choices, or `None` when no operator with a weight applies.
    pub fn mutate(
        &self,
        base: &Recording,
        donor: Option<&Recording>,
        rng: &mut Rng,
    ) -> Option<(Operator, Vec<Choice>)> {
        let mut weights = self.weights;
        loop {
            let total: u32 = weights.iter().sum();
            if total == 0 {
                return None;
            }
            let mut r = rng.below_or_eq(total as u64 - 1) as u32;
            let i = weights
                .iter()
                .position(|&w| {
                    if r < w {
                        true
                    } else {
                        r -= w;
                        false
                    }
                })
                .expect("r < total");
            let op = Operator::ALL[i];
            if let Some(out) = op.apply(base, donor, rng) {
                return Some((op, out));
            }
            weights[i] = 0;
        }
    }
}
