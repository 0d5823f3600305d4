//! The shrink passes, one family per file. Each builds candidates from the current best tape
//! and hands them to [`Shrinker::attempt`]; none looks at values, only at choice indices,
//! their ranges (`max`), forced flags and spans (compared by label with `==`).
//!
//! Every pass is written so that the index it works at stays valid when the best tape changes
//! under it, and it never iterates to a fixpoint by itself: the shrinker repeats the passes.

mod absorb;
mod chars;
mod copy;
mod delete;
mod digits;
mod duplicates;
mod lift;
mod maximize;
mod minimize;
mod promote;
mod raise;
mod recount;
mod redistribute;
mod relate;
mod rename;
mod reorder;
mod reshape;
mod runs;
mod suggested;
mod zero;

pub(super) use chars::char_bytes;
pub(super) use redistribute::lower_common_offset;

use super::Shrinker;
use super::shrinker::Tried;
use crate::tape::builtin;
use crate::tape::{Choice, Kind, Label, Span};
use delete::without_ending;

/// For each position of the tape `choices` (with its `spans`), whether it holds a byte of a
/// run read as text ([`builtin::TEXT`]; not the run's length). Computed once per best tape,
/// as [`char_bytes`]: the passes ask it for every partner they look at.
pub(super) fn text_bytes(choices: &[Choice], spans: &[Span]) -> Vec<bool> {
    let mut mask = vec![false; choices.len()];
    for t in spans.iter().filter(|t| t.label == builtin::TEXT) {
        let end = t.end.min(mask.len());
        if t.start + 1 < end {
            mask[t.start + 1..end].fill(true);
        }
    }
    mask
}

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
        name: "zero_elements",
        tier: Tier::Structure,
        run: zero::zero_elements,
    },
    Pass {
        name: "delete_spans",
        tier: Tier::Structure,
        run: delete::delete_spans,
    },
    Pass {
        name: "zero_inner_elements",
        tier: Tier::Structure,
        run: zero::zero_inner_elements,
    },
    Pass {
        name: "delete_run_bytes",
        tier: Tier::Structure,
        run: runs::delete_run_bytes,
    },
    Pass {
        name: "shrink_run_chars",
        tier: Tier::Structure,
        run: chars::shrink_run_chars,
    },
    Pass {
        name: "promote_children",
        tier: Tier::Structure,
        run: promote::promote_children,
    },
    Pass {
        name: "duplicate_choices",
        tier: Tier::Structure,
        run: duplicates::duplicate_choices,
    },
    Pass {
        name: "try_suggested",
        tier: Tier::Structure,
        run: suggested::try_suggested,
    },
    Pass {
        name: "minimize_choices",
        tier: Tier::Structure,
        run: minimize::minimize_choices,
    },
    Pass {
        name: "reorder_spans",
        tier: Tier::Structure,
        run: reorder::reorder_spans,
    },
    Pass {
        name: "sort_and_renumber",
        tier: Tier::Structure,
        run: reorder::sort_and_renumber,
    },
    Pass {
        name: "step_over_choices",
        tier: Tier::LastResort,
        run: minimize::step_over_choices,
    },
    Pass {
        name: "duplicate_spans",
        tier: Tier::LastResort,
        run: duplicates::duplicate_spans,
    },
    Pass {
        name: "zero_spans",
        tier: Tier::Joint,
        run: zero::zero_spans,
    },
    Pass {
        name: "delete_and_absorb",
        tier: Tier::Joint,
        run: absorb::delete_and_absorb,
    },
    Pass {
        name: "redistribute",
        tier: Tier::Joint,
        run: redistribute::redistribute,
    },
    Pass {
        name: "lower_and_maximize",
        tier: Tier::Joint,
        run: maximize::lower_and_maximize,
    },
    Pass {
        name: "delete_and_renumber",
        tier: Tier::Joint,
        run: delete::delete_and_renumber,
    },
    Pass {
        name: "delete_and_recount",
        tier: Tier::Joint,
        run: recount::delete_and_recount,
    },
    Pass {
        name: "promote_descendants",
        tier: Tier::LastResort,
        run: promote::promote_descendants,
    },
    Pass {
        name: "reshape_spans",
        tier: Tier::LastResort,
        run: reshape::reshape_spans,
    },
    Pass {
        name: "reshape_duplicates",
        tier: Tier::LastResort,
        run: duplicates::reshape_duplicates,
    },
    Pass {
        name: "redistribute_other_steps",
        tier: Tier::LastResort,
        run: redistribute::redistribute_other_steps,
    },
    Pass {
        name: "redistribute_into_shifts",
        tier: Tier::LastResort,
        run: redistribute::redistribute_into_shifts,
    },
    Pass {
        name: "lower_text_pairs",
        tier: Tier::LastResort,
        run: chars::lower_text_pairs,
    },
    Pass {
        name: "copy_spans",
        tier: Tier::LastResort,
        run: copy::copy_spans,
    },
    Pass {
        name: "delete_pairs",
        tier: Tier::LastResort,
        run: delete::delete_pairs,
    },
    Pass {
        name: "delete_run_pairs",
        tier: Tier::LastResort,
        run: runs::delete_run_pairs,
    },
    Pass {
        name: "delete_choices",
        tier: Tier::LastResort,
        run: delete::delete_choices,
    },
    Pass {
        name: "swap_fields",
        tier: Tier::LastResort,
        run: reorder::swap_fields,
    },
    Pass {
        name: "delete_and_maximize",
        tier: Tier::LastResort,
        run: maximize::delete_and_maximize,
    },
    Pass {
        name: "swap_choices",
        tier: Tier::LastResort,
        run: reorder::swap_choices,
    },
    Pass {
        name: "relate_pairs",
        tier: Tier::LastResort,
        run: relate::relate_pairs,
    },
    Pass {
        name: "drop_digits",
        tier: Tier::LastResort,
        run: digits::drop_digits,
    },
    Pass {
        name: "raise_to_shorten",
        tier: Tier::LastResort,
        run: raise::raise_to_shorten,
    },
    Pass {
        name: "rename_values",
        tier: Tier::LastResort,
        run: rename::rename_values,
    },
    Pass {
        name: "move_run_length",
        tier: Tier::LastResort,
        run: runs::move_run_length,
    },
    Pass {
        name: "move_element",
        tier: Tier::LastResort,
        run: reorder::move_element,
    },
    Pass {
        name: "lift_into_list",
        tier: Tier::LastResort,
        run: lift::lift_into_list,
    },
];

/// The deletions that decide a cut of a collection (see [`Shrinker::cut_deletions`]).
pub(super) struct Cut {
    /// The tape without the element cut at.
    pub(super) own: Vec<Choice>,
    /// The span of the collection's last element, where that is another one.
    pub(super) last: Option<usize>,
    /// The spans of the elements after the one cut at.
    pub(super) after: Vec<usize>,
}

impl Shrinker<'_> {
    fn spans(&self) -> &[Span] {
        &self.best.spans
    }

    /// Whether position `i` holds a choice the passes that edit single values may change:
    /// not forced, and not a byte of a character of several bytes in text (see
    /// [`chars::char_bytes`]: [`chars::shrink_run_chars`] edits those).
    fn free(&self, i: usize) -> bool {
        self.choices().get(i).is_some_and(|c| !c.forced)
            && !self.char_bytes.get(i).copied().unwrap_or(false)
    }

    /// Whether position `i` picks a union's variant (`one_of`, `weighted`, a derived enum,
    /// `sampled_from`): another index there is another variant or sample, not more of one.
    fn union_choice(&self, i: usize) -> bool {
        (self.best.labels.get(i)).is_some_and(|l| l.kind() == Kind::Union)
    }

    /// Whether position `i` holds a collection's "one more?" coin.
    fn more_coin(&self, i: usize) -> bool {
        (self.best.labels.get(i)).is_some_and(|l| l.kind() == Kind::More)
    }

    /// Whether `span` is a collection's element that opens with its "one more?" coin.
    fn opens_with_coin(&self, span: Span) -> bool {
        span.label == builtin::ELEMENT && span.start < span.end && self.more_coin(span.start)
    }

    /// Whether `candidate`, as long as the best tape, only cuts a collection where fewer
    /// elements are known to pass: its first edit lowers the drawn "one more?" coin of an
    /// element to 0, and the deletion of that element alone, or of the collection's last
    /// element, already ran without improving (as [`delete::delete_spans`] tries each
    /// element's; a run that failed without being smaller counts as not improving). A
    /// heuristic: where the collection ends the tape the cut deletes that element and every
    /// one after it, the last one too, and where one element fewer passes, fewer still
    /// mostly passes too (a length that must stay, an element that must be there), while a
    /// collection of `n` elements would cost up to `n` such calls in each pass that lowers,
    /// zeroes or swaps choices ([`Shrinker::attempt`] holds them back, in every shrink).
    /// Elsewhere the choices after the cut are read out of place by what comes next (a
    /// nested list's cut may end the outer list too); such a candidate is held back only
    /// when it raises nothing after the coin (a raise may make up for the cut: the next
    /// collection's coin raised moves the element there). Deletions (shorter candidates) are
    /// never held back: a failure that needs fewer elements but not one fewer (a parity of
    /// the length) is left to the passes that delete several.
    pub(in crate::shrink) fn cuts_known_to_fail(&self, candidate: &[Choice]) -> bool {
        (self.cut_deletions(candidate)).is_some_and(|c| {
            self.decided(&c.own)
                || c.last
                    .is_some_and(|j| self.decided(&self.element_deletion(j)))
        })
    }

    /// The best tape without the collection element at span `k` (its end coin unforced where
    /// the collection was at its largest size, see [`delete::without_ending`]).
    pub(super) fn element_deletion(&self, k: usize) -> Vec<Choice> {
        let t = self.spans()[k];
        without_ending(self.choices(), t.start, t.end, self.forced_end_coin(k))
    }

    /// For a candidate [`Shrinker::cuts_known_to_fail`] could hold back: the deletions that
    /// decide it.
    pub(super) fn cut_deletions(&self, candidate: &[Choice]) -> Option<Cut> {
        let best = self.choices();
        // A deletion (a shorter candidate) is never held back.
        if candidate.len() != best.len() {
            return None;
        }
        let i = (candidate.iter().zip(best)).position(|(a, b)| a != b)?;
        // A forced coin is not replayed: no cut.
        if !self.more_coin(i)
            || best[i].index != 1
            || candidate[i].index != 0
            || best[i].forced
            || candidate[i].forced
        {
            return None;
        }
        let spans = self.spans();
        let from = spans.partition_point(|t| t.start < i);
        let k = (from..spans.len())
            .take_while(|&k| spans[k].start == i)
            .find(|&k| self.opens_with_coin(spans[k]))?;
        let t = spans[k];
        // The collection's own end: the first "no more" coin after the element.
        let end = (k + 1..spans.len()).find(|&e| {
            let u = spans[e];
            u.parent == t.parent
                && u.label == t.label
                && u.len() == 1
                && best[u.start].index == 0
                && self.more_coin(u.start)
        });
        // Where the collection ends the tape (its own end is the last choice), nothing
        // reads what follows the cut.
        let ends_tape = end.is_some_and(|e| spans[e].start + 1 == best.len());
        // Else what follows the cut (the rest of the element included) is read by whatever
        // comes next, and a raise there may make up for it (the next collection's coin
        // raised moves the element there); an edit that only lowers cannot.
        let raises = |j: usize| candidate[j].index > best[j].index;
        if !ends_tape && (i + 1..best.len()).any(raises) {
            return None;
        }
        let own = self.element_deletion(k);
        // The later elements: the siblings of the same label before the end.
        let after: Vec<usize> = end.map_or(Vec::new(), |e| {
            (k + 1..e)
                .filter(|&j| spans[j].parent == t.parent && spans[j].label == t.label)
                .collect()
        });
        let last = (after.last().copied()).filter(|&j| self.opens_with_coin(spans[j]));
        Some(Cut { own, last, after })
    }

    /// Whether position `i` holds a payload run's length: lowering it alone leaves the run's
    /// last bytes to be read as what follows; the run's own pass lowers it with its bytes.
    fn run_length(&self, i: usize) -> bool {
        self.payload_run_at(i).is_some_and(|end| end > i)
    }

    /// Where the run of the first span opening at position `i` whose label `is` accepts
    /// ends, if one does.
    fn run_at(&self, i: usize, is: impl Fn(Label) -> bool) -> Option<usize> {
        // Spans are in the order they opened: their starts never decrease.
        let spans = self.spans();
        let from = spans.partition_point(|t| t.start < i);
        (spans[from..].iter())
            .take_while(|t| t.start == i)
            .find(|t| is(t.label))
            .map(|t| t.end)
    }

    /// Where the payload run (bytes or text) whose length is at position `i` ends, if one is.
    fn payload_run_at(&self, i: usize) -> Option<usize> {
        self.run_at(i, |l| l.kind() == Kind::Payload)
    }

    /// Whether position `i` holds a byte of a payload run (not its length): its index is
    /// the byte, so a step of 1 moves the value by 1 (no sign to keep).
    fn run_byte(&self, i: usize) -> bool {
        let spans = self.spans();
        let upto = spans.partition_point(|t| t.start < i);
        spans[..upto]
            .iter()
            .any(|t| t.label.kind() == Kind::Payload && i < t.end)
    }

    /// Whether position `i` holds a byte of a run read as text ([`builtin::TEXT`]): a
    /// character, not an amount, so `redistribute` and `lower_and_maximize` neither move
    /// amounts into it nor raise it to its largest index (see [`text_bytes`]).
    fn text_byte(&self, i: usize) -> bool {
        self.text_bytes.get(i).copied().unwrap_or(false)
    }

    /// For each position of the tape, whether it holds the length or a byte of a payload run
    /// that more choices follow (one pass over the spans). A choice deleted from such a run
    /// makes it read the next choice as its last byte; from the tape's last run, it shifts
    /// the later bytes down and the run ends with its simplest byte ("bab" to "aba").
    fn in_runs(&self) -> Vec<bool> {
        let mut mask = vec![false; self.choices().len()];
        for t in self.spans() {
            if t.label.kind() == Kind::Payload && t.end < mask.len() {
                let end = t.end.min(mask.len());
                for m in mask.iter_mut().take(end).skip(t.start) {
                    *m = true;
                }
            }
        }
        mask
    }

    /// For each position of the tape, whether it is inside a collection's element that
    /// opens with its "one more?" coin (the coin included), drawn by a built-in generator
    /// (a choice with a label of the user's may come from a hand-written generator that
    /// marks no spans), and not in a payload run.
    fn in_elements(&self) -> Vec<bool> {
        let mut mask = vec![false; self.choices().len()];
        for t in self.spans().iter().filter(|t| self.opens_with_coin(**t)) {
            let end = t.end.min(mask.len());
            let labels = self.best.labels.get(t.start..).unwrap_or(&[]);
            for (m, l) in mask[t.start..end].iter_mut().zip(labels) {
                *m = l.kind() != Kind::User;
            }
        }
        for t in self
            .spans()
            .iter()
            .filter(|t| t.label.kind() == Kind::Payload)
        {
            let end = t.end.min(mask.len());
            mask[t.start.min(end)..end].fill(false);
        }
        mask
    }

    /// Whether `span` holds one payload run and nothing else (the run's own span, or a
    /// field or element around it alone).
    fn just_a_run(&self, span: Span) -> bool {
        let spans = self.spans();
        let from = spans.partition_point(|t| t.start < span.start);
        (spans[from..].iter())
            .take_while(|t| t.start == span.start)
            .any(|t| t.label.kind() == Kind::Payload && t.end == span.end)
    }

    /// Whether every choice of `span` is forced or already index 0: nothing to simplify.
    fn trivial(&self, span: Span) -> bool {
        self.choices()[span.start..span.end.min(self.choices().len())]
            .iter()
            .all(|c| c.forced || c.index == 0)
    }

    /// The best tape with the given indices written at the given positions.
    fn with_indices(&self, edits: &[(usize, u64)]) -> Vec<Choice> {
        let mut v = self.choices().to_vec();
        for &(i, index) in edits {
            v[i].index = index;
        }
        v
    }

    /// The best tape with every one of `targets` (disjoint, in tape order) replaced by
    /// `with`.
    fn in_every(&self, targets: &[Span], with: &[Choice]) -> Vec<Choice> {
        let mut v = self.choices().to_vec();
        for t in targets.iter().rev() {
            v.splice(t.start..t.end, with.iter().copied());
        }
        v
    }

    /// Tries replacing `span` (the best tape's span number `k`) by `with`; see
    /// [`Shrinker::replace_spans`].
    fn replace_span(&mut self, k: usize, span: Span, with: &[Choice]) -> bool {
        self.replace_spans(k, &[span], with, false)
    }

    /// Tries replacing each of `targets` by `with`, where `targets[0]` is the best tape's
    /// span number `k` and the others are copies of it. When that does not fail but the
    /// recorded tape has span `k` with other contents (the replacement changed its shape: a
    /// subtree turned into a leaf, a list got shorter, the rest of the tape was read out of
    /// place), tries those contents in every target with the rest of the tape kept as it
    /// was: the tape realigned. With `probe`, the first candidate runs even if it is not
    /// smaller itself (a raised choice whose realigned shape may be).
    fn replace_spans(&mut self, k: usize, targets: &[Span], with: &[Choice], probe: bool) -> bool {
        let span = targets[0];
        let candidate = self.in_every(targets, with);
        let tried = if probe {
            self.probe(&candidate)
        } else {
            self.attempt(&candidate)
        };
        match tried {
            Tried::Improved => true,
            // (A run cut short still holds the spans that closed before it stopped.)
            Tried::Ran(rec) | Tried::Cut(rec) => match rec.spans.get(k) {
                Some(s)
                    if s.label == span.label
                        && s.start == span.start
                        && s.end <= rec.choices.len() =>
                {
                    let contents = rec.choices[s.start..s.end].to_vec();
                    contents != with && self.consider(&self.in_every(targets, &contents))
                }
                _ => false,
            },
            Tried::Known(_) | Tried::Skipped => false,
        }
    }

    /// The contents `with` would take once realigned in span `k` (see
    /// [`Shrinker::replace_spans`]), if the candidate runs or ran recently; the candidate
    /// may be accepted on the way.
    fn realigned(&mut self, k: usize, targets: &[Span], with: &[Choice]) -> Option<Vec<Choice>> {
        let span = targets[0];
        match self.attempt(&self.in_every(targets, with)) {
            // (A run cut short still holds the spans that closed before it stopped.)
            Tried::Ran(rec) | Tried::Cut(rec) => match rec.spans.get(k) {
                Some(s)
                    if s.label == span.label
                        && s.start == span.start
                        && s.end <= rec.choices.len() =>
                {
                    Some(rec.choices[s.start..s.end].to_vec())
                }
                _ => None,
            },
            Tried::Improved | Tried::Known(_) | Tried::Skipped => None,
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
