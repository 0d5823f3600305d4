//! Settings of the `rl` strategy.

use super::{Abstraction, Update};
use crate::tape::Label;

/// The reward of a test case, from its status and characteristic (paper 002, Eq. 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rewards {
    /// Valid, with a characteristic not seen before (default 20). A failing test case counts
    /// as unique.
    pub unique: f64,
    /// Valid, with a characteristic already seen (default 0).
    pub valid: f64,
    /// Rejected by a filter or `assume`, or over the size budget (default −1).
    pub invalid: f64,
}

impl Default for Rewards {
    fn default() -> Rewards {
        Rewards {
            unique: 20.0,
            valid: 0.0,
            invalid: -1.0,
        }
    }
}

/// Which choices share a learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Learners {
    /// One learner per choice-point label, as RLCheck has one per program location; the
    /// labels of the enclosing spans enter the state as tokens (so "left child" and "right
    /// child" tell states apart, as in the paper's Tree L/R). The default.
    #[default]
    ByLabel,
    /// One learner per choice-point id (label and the whole span path): finer, but each
    /// learner sees fewer episodes. On bst_valid it found about half as many unique valid
    /// trees.
    ByPoint,
}

/// Settings of the `rl` strategy. The defaults are the paper's — ε = 0.25, rewards
/// 20 / 0 / −1, the tree abstraction, plain averages — with a window of 5 tokens (span labels
/// count as tokens here; 5 did best on bst_valid, see BENCHMARKS.md), no exploration bonus
/// and no bootstrapping.
#[derive(Clone, Debug, PartialEq)]
pub struct Learn {
    /// Probability of an exploring choice (drawn as a random source would, following the
    /// generator's hint) instead of the greedy one.
    pub epsilon: f64,
    /// Rewards for unique valid, valid and invalid test cases.
    pub rewards: Rewards,
    /// How many tokens (abstracted choices, and span labels with [`Learners::ByLabel`]) a
    /// state keeps.
    pub window: usize,
    /// Which choices share a learner.
    pub learners: Learners,
    /// With [`Abstraction::Tree`], the last this many choices of the test case join the
    /// state, wherever they were drawn (0, the default: none). Helps where siblings
    /// constrain each other (attributes of one element: 2 on xml_doc found 12× more unique
    /// valid documents) and costs a little on trees (bst_valid: about 5% fewer).
    pub recent: usize,
    /// The state abstraction of every choice point ...
    pub abstraction: Abstraction,
    /// ... except those with these labels.
    pub overrides: Vec<(Label, Abstraction)>,
    /// How Q-values follow rewards.
    pub update: Update,
    /// Count-based exploration bonus: the greedy choice maximizes `Q + bonus / sqrt(n + 1)`
    /// (0: plain ε-greedy).
    pub bonus: f64,
    /// Before the campaign, teach the learners the valid tapes of `corpus/` (as unique
    /// finds), so a strict validity needs no lucky first find (paper 002 §6).
    pub bootstrap: bool,
}

impl Default for Learn {
    fn default() -> Learn {
        Learn {
            epsilon: 0.25,
            rewards: Rewards::default(),
            window: 5,
            learners: Learners::ByLabel,
            recent: 0,
            abstraction: Abstraction::Tree,
            overrides: Vec::new(),
            update: Update::Average,
            bonus: 0.0,
            bootstrap: false,
        }
    }
}

impl Learn {
    /// The abstraction of the choice point labelled `label`.
    #[inline]
    pub(crate) fn abstraction_of(&self, label: Label) -> &Abstraction {
        if self.overrides.is_empty() {
            return &self.abstraction;
        }
        self.overrides
            .iter()
            .find(|(l, _)| *l == label)
            .map_or(&self.abstraction, |(_, a)| a)
    }
}
