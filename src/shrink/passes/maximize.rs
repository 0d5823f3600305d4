//! Lowering a choice while raising later ones as far as they go.
//!
//! Where a failure needs an amount (a product, a sum, a date), lowering one choice alone loses
//! it and moving a fixed amount to a neighbour (`redistribute.rs`) rarely matches what the
//! other must gain. Setting the later choices to their largest index instead keeps the failure
//! whenever any value of them would; the earlier choice decides shortlex order, so the
//! candidate is smaller whatever the later ones hold, and `minimize_choices` lowers them
//! afterwards. Writing `u64::MAX` asks for the largest index of whatever range the later choice
//! has by then (the shrinker replays out-of-range indices clamped): a range that depends on
//! the lowered choice (a `flat_map`) is refitted, and a choice already at its largest index
//! is raised too for that reason. Where indices alternate sides of the simplest value, the
//! largest index is the far end of one side only (a signed integer's most negative value):
//! the far end of the other side is tried too where the generator named it
//! ([`crate::tape::ValueStep::far_side`]).

use super::super::Shrinker;
use super::super::search::find_integer_between;
use super::super::shrinker::Tried;
use super::delete::without_ending;
use crate::tape::Kind;

/// Later amounts (choices with three or more options, or two with a value step) a choice is
/// paired with.
const WINDOW: usize = 4;
/// Largest index tried in the next choice when raising made the tape longer.
const PROBE: u64 = 7;

impl Shrinker<'_> {
    /// Whether position `i` holds a choice of two options that picks what comes next (an
    /// integer `0..=1`, a union of two) rather than whether something is there at all (a
    /// collection's "one more?", an option's "some?", a recursion's "branch?", a mutation's
    /// "one more step?": lowering those deletes, which the deletion passes do).
    fn branch_choice(&self, i: usize) -> bool {
        (self.best.labels.get(i)).is_some_and(|l| {
            !matches!(
                l.kind(),
                Kind::More | Kind::Optional | Kind::Branch | Kind::Neighbour(_)
            )
        })
    }

    /// What the generator said of position `i`'s index order, if it did.
    pub(super) fn value_order(&self, i: usize) -> Option<crate::tape::ValueStep> {
        let steps = &self.best.value_steps;
        let at = steps.partition_point(|v| v.at < i);
        steps.get(at).filter(|v| v.at == i).copied()
    }

    /// Lowers the choices at `lowered` (which hold the same index) by `step · k` with every
    /// one of `raised` at its largest index, for the largest `k` that still fails.
    fn lower_raising(&mut self, lowered: &[usize], raised: &[usize], step: u64) -> bool {
        self.lower_raising_to(lowered, raised, step, false)
    }

    /// [`Shrinker::lower_raising`]; with `other_side`, a raised choice whose generator named
    /// the far end of the side its last index is not on ([`crate::tape::ValueStep::far_side`]:
    /// a signed integer's last index is its most negative value) goes there instead, and
    /// when none did, nothing is tried.
    fn lower_raising_to(
        &mut self,
        lowered: &[usize],
        raised: &[usize],
        step: u64,
        other_side: bool,
    ) -> bool {
        let Some(a) = self.choices().get(lowered[0]).map(|c| c.index) else {
            return false;
        };
        let same = lowered
            .iter()
            .all(|&i| self.free(i) && self.choices()[i].index == a);
        if a < step || !same || raised.iter().any(|&j| !self.free(j)) {
            return false;
        }
        let base = self.choices().to_vec();
        // Where each raised choice goes, read once from the tape the search starts from.
        let targets: Vec<u64> = raised
            .iter()
            .map(|&j| {
                let far = self.value_order(j).and_then(|v| v.far_side);
                match far {
                    Some(f) if other_side && f > base[j].index => f,
                    _ => u64::MAX,
                }
            })
            .collect();
        if other_side && targets.iter().all(|&t| t == u64::MAX) {
            return false;
        }
        find_integer_between(a / step, |k| {
            let Some(d) = k.checked_mul(step).filter(|&d| d <= a) else {
                return false;
            };
            let mut v = base.clone();
            for &i in lowered {
                v[i].index = a - d;
            }
            for (&j, &t) in raised.iter().zip(&targets) {
                v[j].index = t;
            }
            self.consider(&v)
        }) > 0
    }
}

/// For each choice with three or more options, or of two that picks a branch (see
/// [`Shrinker::branch_choice`]; a flag lowered is a deletion, the other passes' work), lowers
/// it with the next few amounts at their largest index (choices of three or more options, or
/// of two whose generator names a value step: a range narrowed by an earlier draw, a day
/// between two dates); then the same with the choice and every later copy of its index
/// lowered together (values that must stay equal). A branch gets only the first candidate,
/// every later amount at its largest: its new continuation at the far end of its range.
pub(in crate::shrink) fn lower_and_maximize(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.choices().len() && !s.stopped() {
        if s.free(i)
            && (s.choices()[i].max >= 2 || s.choices()[i].max == 1 && s.branch_choice(i))
            && s.choices()[i].index > 0
            && !s.run_length(i)
            && !s.text_byte(i)
        {
            let c = s.choices()[i];
            let copies: Vec<usize> = (i..s.choices().len())
                .filter(|&j| {
                    s.free(j)
                        && s.choices()[j].index == c.index
                        && s.choices()[j].max == c.max
                        && (c.max > 1 || s.branch_choice(j))
                        && !s.run_length(j)
                        && !s.text_byte(j)
                })
                .collect();
            let mut lowered = vec![vec![i]];
            if copies.len() > 1 {
                lowered.push(copies);
            }
            // A choice of two options: the one candidate with every later amount at its
            // largest (a branch lowered, its new continuation at the far end of its range),
            // not the search for which later amount to raise: most such choices are flags.
            let only_first = c.max == 1;
            for group in lowered {
                maximize_after(s, &group, only_first);
            }
        }
        i += 1;
    }
}

/// Lowers `lowered` with the few choices after its first (not in it) at their largest index:
/// raising all of them keeps the failure whenever raising any would (an amount), so one
/// candidate per step size stands for most subsets; then with the next choice alone raised;
/// then, where a later choice's generator named the far end of its other side (a signed
/// integer's largest positive value), with the later choices there. Where raising reshaped
/// the tape (a width lowered, a height raised: more cells than the
/// best tape holds; a string's length raised after an amount), the next choice alone raised
/// is still tried, and then the next choice at small indices, which may keep the tape as
/// long. Bytes of text are neither raised nor lowered here (characters, not amounts).
fn maximize_after(s: &mut Shrinker<'_>, lowered: &[usize], only_first: bool) {
    if lowered.iter().any(|&i| i >= s.choices().len()) {
        return;
    }
    // An amount of two options is one too (not a flag: its generator says its value step):
    // its range may have narrowed with an earlier choice (a day between two dates).
    let amount = |j: usize| {
        let max = s.choices()[j].max;
        max >= 2 || max == 1 && s.value_order(j).is_some()
    };
    let later: Vec<usize> = (lowered[0] + 1..s.choices().len())
        .filter(|&j| s.free(j) && amount(j) && !lowered.contains(&j) && !s.text_byte(j))
        .take(WINDOW)
        .collect();
    if later
        .iter()
        .all(|&j| s.choices()[j].index == s.choices()[j].max)
    {
        return;
    }
    let len = s.choices().len();
    // The first candidate by hand, to see whether raising made the tape longer. (An earlier
    // group may have changed the tape: the positions must still hold one nonzero index.)
    let a = s.choices()[lowered[0]].index;
    if a == 0
        || lowered
            .iter()
            .any(|&i| !s.free(i) || s.choices()[i].index != a)
    {
        return;
    }
    let mut first: Vec<(usize, u64)> = lowered.iter().map(|&i| (i, a - 1)).collect();
    first.extend(later.iter().map(|&j| (j, u64::MAX)));
    let reshaped = match s.attempt(&s.with_indices(&first)) {
        Tried::Improved => {
            s.lower_raising(lowered, &later, 1);
            return;
        }
        // A raised choice that sizes what follows changed the shape (the run too long for
        // the best tape's length is cut short).
        Tried::Ran(rec) => rec.choices.len() != len,
        Tried::Known(n) => n != len,
        Tried::Cut(_) => false,
        Tried::Skipped => return,
    };
    if only_first {
        return;
    }
    if s.lower_raising(lowered, &later, 2) {
        return;
    }
    // Raising them all can lose the failure where raising one keeps it (a later value that
    // must stay as it is), or reshape the tape where a later one sizes what follows (a
    // string's length after the amount): the next one alone.
    if later.len() > 1 && s.lower_raising(lowered, &later[..1], 1) {
        return;
    }
    // Where indices alternate sides, the last index is the far end of one side only (a
    // signed integer's most negative value): the other side's far end, where the generator
    // named it.
    if !reshaped {
        let step = s.value_order(lowered[0]).map_or(1, |v| v.step);
        if s.lower_raising_to(lowered, &later, step, true) {
            return;
        }
    }
    if reshaped {
        // Probe the next choice low instead, with the others as they are.
        let j = later[0];
        let mut previous = None;
        for v in 0..=PROBE.min(s.choices()[j].max) {
            let a = s.choices()[lowered[0]].index;
            if a == 0 || !s.free(j) {
                return;
            }
            let mut edits: Vec<(usize, u64)> = lowered.iter().map(|&i| (i, a - 1)).collect();
            edits.push((j, v));
            let shape = match s.attempt(&s.with_indices(&edits)) {
                Tried::Improved => return,
                Tried::Ran(rec) => Some((rec.choices.len(), rec.spans)),
                Tried::Known(_) | Tried::Cut(_) | Tried::Skipped => None,
            };
            // One step up left the tape as long and its spans in place: the next choice is
            // a value here, not a size, and higher values of it only make larger tapes.
            if shape.is_some() && shape == previous {
                return;
            }
            previous = shape;
        }
    }
}

/// Deletes a span (with the bare choices before it, a "one more?" flag, if it cannot go
/// alone) where deleting it alone loses the failure, with the choices of three or more options
/// around it at their largest index: first those of its parent span, then all of the tape's.
/// An element of a sum, a node of a tree whose sizes must reach an amount: the others make
/// up for it, and `minimize_choices` lowers them afterwards. A last resort: at most four calls
/// per deletable span.
pub(in crate::shrink) fn delete_and_maximize(s: &mut Shrinker<'_>) {
    let mut k = 0;
    'spans: while k < s.spans().len() && !s.stopped() {
        let run = s.sibling_run(k);
        if run.is_empty() {
            k += 1;
            continue;
        }
        let base = s.choices().to_vec();
        let span = s.spans()[k];
        let parent = span
            .parent
            .map_or(0..base.len(), |p| s.spans()[p].start..s.spans()[p].end);
        let end_coin = s.forced_end_coin(k);
        for start in s.deletion_starts(k) {
            let gone = span.end - start;
            let mut v = without_ending(&base, start, span.end, end_coin);
            let raise = |v: &mut Vec<crate::tape::Choice>, range: std::ops::Range<usize>| {
                let mut any = false;
                for (pos, c) in v.iter_mut().enumerate() {
                    let old = if pos < start { pos } else { pos + gone };
                    // One at its largest index is raised too: its range may widen when an
                    // earlier choice rises (an element bounded by a drawn maximum).
                    if range.contains(&old) && !c.forced && c.max >= 2 {
                        any |= c.index < c.max;
                        c.index = u64::MAX;
                    }
                }
                any
            };
            let mut near = v.clone();
            if raise(&mut near, parent.clone()) && s.consider(&near) {
                continue 'spans;
            }
            if parent != (0..base.len()) && raise(&mut v, 0..base.len()) && s.consider(&v) {
                continue 'spans;
            }
        }
        k += 1;
    }
}
