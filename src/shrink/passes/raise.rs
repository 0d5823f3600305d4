//! Raising a choice where a higher value draws less after it.
//!
//! A gate can make a higher value the shorter test case: a coin over `0..=99` that draws a
//! pick only below 50, a variant whose last alternative is a leaf, a mode whose high values
//! skip a field. Every other pass lowers choices, deletes them or moves amounts between
//! them, and lowering the gate only keeps the pick; the all-simplest tape is then one
//! choice longer than the minimum. Hypothesis's shrinker has no such move.
//!
//! A raised choice comes first in the candidate's difference from the best tape, so the run
//! is smaller only if it is shorter: [`Shrinker::consider_shorter`] gives it a size budget one
//! choice short, and a run as long as the best tape ends before the property is called. So
//! a gate that does not shorten costs a run of the generator, not of the property.

use super::super::Shrinker;
use crate::tape::Kind;

/// For each free choice below its largest index with choices after it (not a payload run's
/// length or bytes), left to right: the choice at its largest index, the rest of the tape as
/// it is (read from there on by whatever the higher value draws). Not a "one more?", "some?"
/// or "branch?" coin (their higher value adds what they guard, which the deletion passes take
/// away). `minimize_choices` lowers an accepted choice afterwards to the least value that
/// still skips.
pub(in crate::shrink) fn raise_to_shorten(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.choices().len() && !s.stopped() {
        let c = s.choices()[i];
        let adds = (s.best.labels.get(i))
            .is_some_and(|l| matches!(l.kind(), Kind::More | Kind::Optional | Kind::Branch));
        // (The last choice has nothing after it to skip; a run's bytes have no say in what
        // follows, and its length only adds bytes.)
        let last = i + 1 == s.choices().len();
        if s.free(i) && !adds && !last && !c.in_run && !s.run_length(i) && c.index < c.max {
            let raised = s.with_indices(&[(i, c.max)]);
            if s.consider_shorter(&raised) {
                continue;
            }
        }
        i += 1;
    }
}
