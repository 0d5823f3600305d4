//! The shrink passes, one family per file. Each builds candidates from the current best tape
//! and hands them to [`Shrinker::attempt`]; none looks at values, only at choice indices,
//! their ranges (`max`), forced flags and spans (compared by label with `==`).
//!
//! Every pass is written so that the index it works at stays valid when the best tape changes
//! under it, and it never iterates to a fixpoint by itself: the shrinker repeats the passes.

mod delete;
mod duplicates;
mod minimize;
mod promote;
mod redistribute;
mod reorder;
mod zero;

pub(super) use redistribute::lower_common_offset;

use super::Shrinker;
use super::shrinker::Tried;
use crate::tape::{Choice, Span};

/// When a pass runs (see [`Shrinker::run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tier {
    /// Cheap passes that change the structure or single choices: run to a fixpoint first.
    Structure,
    /// Passes that edit several places together: run when the first tier finds nothing.
    Joint,
    /// Costly, rarely useful passes: run when both tiers above find nothing.
    LastResort,
}

/// A pass: its name (for [`super::PassStats`]), its tier and what it does.
pub(super) struct Pass {
    pub(super) name: &'static str,
    pub(super) tier: Tier,
    pub(super) run: fn(&mut Shrinker<'_>),
}

/// Every pass, in the order they run within a tier.
pub(super) const PASSES: &[Pass] = &[
    Pass {
        name: "delete_spans",
        tier: Tier::Structure,
        run: delete::delete_spans,
    },
    Pass {
        name: "promote_children",
        tier: Tier::Structure,
        run: promote::promote_children,
    },
    Pass {
        name: "minimize_choices",
        tier: Tier::Structure,
        run: minimize::minimize_choices,
    },
    Pass {
        name: "zero_spans",
        tier: Tier::Structure,
        run: zero::zero_spans,
    },
    Pass {
        name: "reorder_spans",
        tier: Tier::Structure,
        run: reorder::reorder_spans,
    },
    Pass {
        name: "duplicate_spans",
        tier: Tier::Joint,
        run: duplicates::duplicate_spans,
    },
    Pass {
        name: "duplicate_choices",
        tier: Tier::Joint,
        run: duplicates::duplicate_choices,
    },
    Pass {
        name: "redistribute",
        tier: Tier::Joint,
        run: redistribute::redistribute,
    },
    Pass {
        name: "promote_descendants",
        tier: Tier::Joint,
        run: promote::promote_descendants,
    },
    Pass {
        name: "delete_choices",
        tier: Tier::LastResort,
        run: delete::delete_choices,
    },
    Pass {
        name: "delete_and_renumber",
        tier: Tier::LastResort,
        run: delete::delete_and_renumber,
    },
    Pass {
        name: "lower_and_probe",
        tier: Tier::LastResort,
        run: redistribute::lower_and_probe,
    },
];

impl Shrinker<'_> {
    fn spans(&self) -> &[Span] {
        &self.best.spans
    }

    /// Whether position `i` holds a choice the shrinker may change.
    fn free(&self, i: usize) -> bool {
        self.choices().get(i).is_some_and(|c| !c.forced)
    }

    /// Whether every choice of `span` is forced or already index 0: nothing to simplify.
    fn trivial(&self, span: Span) -> bool {
        self.choices()[span.start..span.end.min(self.choices().len())]
            .iter()
            .all(|c| c.forced || c.index == 0)
    }

    /// The best tape with `start..end` replaced by `with`.
    fn replaced(&self, start: usize, end: usize, with: &[Choice]) -> Vec<Choice> {
        let c = self.choices();
        let mut v = Vec::with_capacity(c.len() - (end - start) + with.len());
        v.extend_from_slice(&c[..start]);
        v.extend_from_slice(with);
        v.extend_from_slice(&c[end..]);
        v
    }

    /// The best tape with the given indices written at the given positions.
    fn with_indices(&self, edits: &[(usize, u64)]) -> Vec<Choice> {
        let mut v = self.choices().to_vec();
        for &(i, index) in edits {
            v[i].index = index;
        }
        v
    }

    /// Tries replacing `span` (the best tape's span number `k`) by `with`; when that does
    /// not fail but the recorded tape has the same span with other contents (the
    /// replacement changed its shape: a subtree turned into a leaf, a list got shorter),
    /// tries those contents spliced into the best tape, keeping everything after the span
    /// as it was — the rest of the tape realigned.
    fn replace_span(&mut self, k: usize, span: Span, with: &[Choice]) -> bool {
        let candidate = self.replaced(span.start, span.end, with);
        match self.attempt(&candidate) {
            Tried::Improved => true,
            Tried::Ran(rec) => match rec.spans.get(k) {
                Some(s)
                    if s.label == span.label
                        && s.start == span.start
                        && s.end <= rec.choices.len() =>
                {
                    let contents = rec.choices[s.start..s.end].to_vec();
                    contents != with
                        && self.consider(&self.replaced(span.start, span.end, &contents))
                }
                _ => false,
            },
            Tried::Known(_) | Tried::Skipped => false,
        }
    }
}

/// `choices` with every unforced index set to 0.
fn zeroed(choices: &[Choice]) -> Vec<Choice> {
    choices
        .iter()
        .map(|c| Choice {
            index: if c.forced { c.index } else { 0 },
            ..*c
        })
        .collect()
}
