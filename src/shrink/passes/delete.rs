//! Deletion: runs of sibling spans (list elements, subtrees) and blocks of choices.

use super::super::Shrinker;
use super::super::search::find_integer;
use super::super::shrinker::Tried;
use crate::tape::{Choice, Kind};

/// `base` without `start..end`.
fn without(base: &[Choice], start: usize, end: usize) -> Vec<Choice> {
    let mut v = Vec::with_capacity(base.len() - (end - start));
    v.extend_from_slice(&base[..start]);
    v.extend_from_slice(&base[end..]);
    v
}

/// [`without`] for a deletion of elements of a collection whose "no more" coin at `end_coin`
/// (a position in `base`) was forced: at its largest size, the collection did not ask the
/// source whether to go on. With elements gone it asks, so the coin is replayed as a drawn
/// `0` (forced choices are dropped from a candidate): else the collection would read the
/// choices after it as "one more?" and more elements, and the candidate would overrun.
pub(super) fn without_ending(
    base: &[Choice],
    start: usize,
    end: usize,
    end_coin: Option<usize>,
) -> Vec<Choice> {
    let mut v = without(base, start, end);
    if let Some(t) = end_coin.filter(|&t| t >= end) {
        v[t - (end - start)].forced = false;
    }
    v
}

impl Shrinker<'_> {
    /// The units a deletion starting at span `k` may take: span `k`, then the siblings with
    /// its label that follow with nothing but bare choices (in no span) between them, each
    /// unit running from the end of the one before. Empty when span `k` has nothing to
    /// delete (no choice, or only forced and zero ones: a collection's "no more" terminator,
    /// whose deletion would only misalign what follows).
    pub(super) fn sibling_run(&self, k: usize) -> Vec<(usize, usize)> {
        let spans = self.spans();
        let first = spans[k];
        if first.is_empty() || self.trivial(first) {
            return Vec::new();
        }
        let mut run = vec![(first.start, first.end)];
        let mut end = first.end;
        for t in &spans[k + 1..] {
            if t.start < end {
                continue; // inside the run
            }
            if t.parent != first.parent
                || t.label != first.label
                || t.is_empty()
                || self.trivial(*t)
            {
                break;
            }
            run.push((end, t.end));
            end = t.end;
        }
        run
    }

    /// Where the forced "no more" coin is that ends the collection span `k` is an element of,
    /// when the collection is at its largest size (see [`without_ending`]). A set whose
    /// deleted element was a duplicate is still at its largest size, and forces the coin
    /// again: that candidate misreads and fails (a call, not a worse result).
    pub(super) fn forced_end_coin(&self, k: usize) -> Option<usize> {
        let spans = self.spans();
        let first = spans[k];
        if first.label.kind() != Kind::Element {
            return None;
        }
        // The collection's own end: its first "no more" coin, drawn or forced (a later
        // collection under the same parent, drawn by the same generator, has one too).
        spans[k + 1..]
            .iter()
            .find(|t| {
                t.parent == first.parent
                    && t.label == first.label
                    && t.len() == 1
                    && self.choices()[t.start].index == 0
                    && (self.best.labels.get(t.start)).is_some_and(|l| l.kind() == Kind::More)
            })
            .filter(|t| self.choices()[t.start].forced)
            .map(|t| t.start)
    }

    /// Where a deletion of span `k` may start: at the span, then at the bare choices before
    /// it (a "one more?" flag kept outside a repeated span), if there are any.
    pub(super) fn deletion_starts(&self, k: usize) -> Vec<usize> {
        let (start, bare) = (self.spans()[k].start, self.bare_start(k));
        if bare < start {
            vec![start, bare]
        } else {
            vec![start]
        }
    }

    /// Where the bare choices just before span `k` begin: the end of the span before it
    /// (a sibling or one nested in a sibling), else its parent's start.
    pub(super) fn bare_start(&self, k: usize) -> usize {
        let spans = self.spans();
        let span = spans[k];
        let floor = span.parent.map_or(0, |p| spans[p].start);
        spans[..k]
            .iter()
            .filter(|t| t.end <= span.start)
            .map(|t| t.end)
            .fold(floor, usize::max)
    }
}

/// Deletes runs of sibling spans with the same label, outer spans first: a list element, a
/// subtree, a filter's failed attempt, a step with the flag before it. When a span cannot go
/// alone but bare choices precede it (a "one more?" flag kept outside the repeated span),
/// it goes with them. From each span it deletes 1, 2, 3, 4, then doubling numbers of the
/// siblings that follow ([`find_integer`]), so dropping `n` elements of a list costs
/// `O(log n)` calls, and a span that cannot go costs one or two.
pub(in crate::shrink) fn delete_spans(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let mut run = s.sibling_run(k);
        if run.is_empty() {
            k += 1;
            continue;
        }
        let base = s.choices().to_vec();
        let end_coin = s.forced_end_coin(k);
        let without = |base: &[Choice], start, end| without_ending(base, start, end, end_coin);
        let mut first_gone = false;
        let mut shifted = false;
        let strict_kind = matches!(s.spans()[k].label.kind(), Kind::Field | Kind::Combinator);
        let strict_at = |end: usize| strict_kind && end < base.len();
        // A product's field (or a combinator's bookkeeping span) with choices after it is
        // deleted strictly: the later fields shift into its place and the end would be read
        // as the simplest, a value the minimizing passes reach without the misreading. The
        // property runs only when the shorter tape holds the choices its run draws (the
        // field shaped what follows). Elements and variants keep the simplest end: there
        // the shifted read often is a smaller value.
        let cut = |s: &mut Shrinker<'_>, v: &[Choice], end: usize| {
            if strict_at(end) {
                s.attempt_strict(v)
            } else {
                s.attempt(v)
            }
        };
        let (span_start, bare) = (run[0].0, s.bare_start(k));
        let starts = if bare < span_start {
            vec![span_start, bare]
        } else {
            vec![span_start]
        };
        for start in starts {
            run[0].0 = start;
            // A deletion that leaves the tape as long as before only shifted the later
            // siblings into the gap (a collection of fixed size, refilled at its end):
            // deleting more of them one by one would only shift again, so such a run is
            // left to the other passes.
            let candidate = without(&base, start, run[0].1);
            let tried = cut(s, &candidate, run[0].1);
            match tried {
                Tried::Improved => {
                    shifted = s.choices().len() == base.len();
                    first_gone = true;
                    break;
                }
                // (A strict run that overran says nothing of a shift: the run of fields may
                // hold collections whose elements the spans after it delete.)
                Tried::Ran(rec) => shifted |= rec.choices.len() == base.len(),
                Tried::Known(len) => shifted |= len == base.len(),
                // (As long as the best tape or longer: the later choices read out of place.)
                Tried::Cut(_) => shifted = true,
                Tried::Skipped => {}
            }
            if shifted {
                break;
            }
        }
        if shifted {
            let last = run[run.len() - 1].1;
            k += 1;
            while k < s.spans().len() && s.spans()[k].start < last {
                k += 1;
            }
            continue;
        }
        if !first_gone {
            // Repeated spans behind flags: two may only go together (a step and the step
            // that undoes it).
            if bare == span_start
                || run.len() < 2
                || !matches!(
                    cut(s, &without(&base, bare, run[1].1), run[1].1),
                    Tried::Improved
                )
            {
                k += 1;
            }
            continue;
        }
        // The first went: delete 2, 3, 4, 8, … from the same place.
        let start = run[0].0;
        find_integer(|n| {
            let end = run.get(n as usize).map(|u| u.1);
            end.is_some_and(|end| {
                matches!(cut(s, &without(&base, start, end), end), Tried::Improved)
            })
        });
    }
}

/// How far apart (in siblings) the two spans [`delete_pairs`] deletes together may be.
const PAIR_REACH: usize = 3;

/// Deletes two sibling spans together where neither can go alone: an action and the action
/// that undoes it in a stateful trace (an insert and the delete of what it inserted, with
/// up to two other actions between them), two elements whose effects cancel. A last resort:
/// at most [`PAIR_REACH`] calls per span that has siblings after it, once the cheaper passes
/// are stuck.
pub(in crate::shrink) fn delete_pairs(s: &mut Shrinker<'_>) {
    let mut k = 0;
    'spans: while k < s.spans().len() && !s.stopped() {
        let run = s.sibling_run(k);
        let base = s.choices().to_vec();
        let end_coin = s.forced_end_coin(k);
        for j in 1..run.len().min(PAIR_REACH + 1) {
            let (a, b) = (run[0], run[j]);
            let mut candidate = without_ending(&base, b.0, b.1, end_coin);
            candidate.drain(a.0..a.1);
            if s.consider(&candidate) {
                continue 'spans; // the span now at `k` is a new one
            }
        }
        k += 1;
    }
}

/// Deletes blocks of choices that spans do not delimit: from each position, 1, 2, … choices
/// adaptively, and a block of 2 when 1 alone fails (a flag and the value it guards). Not
/// from a payload run's length, nor from a run that more choices follow (see
/// `delete_run_bytes`; a run of fixed length keeps its bytes there), nor from a choice a
/// built-in generator drew inside a collection's element, but from a "no more" coin (a
/// collection's end): there the element's spans delimit what goes, and a block cut out of
/// an element only reads the next element's choices out of place (on the challenge suite
/// those candidates never improved); an inner list's "no more" with the outer list's "one
/// more?" after it joins two inner lists. Choices with the user's labels (a hand-written
/// generator's, which may mark no spans) are still cut anywhere. A block with choices after
/// it is cut strictly ([`Shrinker::attempt_strict`], as `delete_spans` deletes a field),
/// but in a run's bytes.
pub(in crate::shrink) fn delete_choices(s: &mut Shrinker<'_>) {
    let mut i = 0;
    let mut in_run = s.in_runs();
    let mut in_element = s.in_elements();
    while i < s.choices().len() && !s.stopped() {
        // A run's length, or a byte of a run that more choices follow (see
        // `Shrinker::in_runs`): the run's own pass deletes bytes with the length that
        // counts them. Inside a collection's element, spans delimit the blocks, except
        // where they start at a "no more" coin (a collection's end): an inner list's, with
        // the outer list's "one more?" after it, joins two inner lists.
        let no_more = s.more_coin(i) && s.choices()[i].index == 0;
        if !s.free(i) || in_run[i] || s.run_length(i) || in_element[i] && !no_more {
            i += 1;
            continue;
        }
        let base = s.choices().to_vec();
        // Strictly (see `delete_spans`) where choices follow the block, unless it is a
        // run's bytes: the run's later bytes shifting into the gap, its end read as the
        // simplest byte, is an edit of the text.
        let in_payload =
            (s.spans().iter()).any(|t| t.label.kind() == Kind::Payload && t.start < i && i < t.end);
        let cut = |s: &mut Shrinker<'_>, end: usize| {
            let v = without(&base, i, end);
            let tried = if end < base.len() && !in_payload {
                s.attempt_strict(&v)
            } else {
                s.attempt(&v)
            };
            matches!(tried, Tried::Improved)
        };
        let deleted = find_integer(|n| {
            let end = i + n as usize;
            end <= base.len() && cut(s, end)
        });
        if deleted == 0 && !(i + 2 <= base.len() && cut(s, i + 2)) {
            i += 1;
        } else {
            in_run = s.in_runs();
            in_element = s.in_elements();
        }
    }
}

/// Deletes runs of sibling spans and lowers every later choice with at least three options
/// by the number deleted: elements that point at positions in their own list (an index into
/// it) keep pointing at the same elements once the ones before are gone. Only where some
/// lowered choice could be such a position (below the number of siblings): a list of large
/// values costs no call. A joint pass (a deletion with its fix-up: it shortens the tape, so it
/// runs before the last-resort passes).
pub(in crate::shrink) fn delete_and_renumber(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let run = s.sibling_run(k);
        if run.is_empty() {
            k += 1;
            continue;
        }
        let base = s.choices().to_vec();
        let start = run[0].0;
        // How many siblings the list has: a later choice can only be a position in it below
        // that.
        let span = s.spans()[k];
        let siblings = (s.spans().iter())
            .filter(|t| t.parent == span.parent && t.label == span.label)
            .count() as u64;
        let deleted = find_integer(|n| {
            if n as usize > run.len() {
                return false;
            }
            let end = run[n as usize - 1].1;
            let mut v = without(&base, start, end);
            let (mut lowered, mut position) = (false, false);
            for c in v[start..].iter_mut() {
                if !c.forced && c.max >= 2 && c.index >= n {
                    position |= c.index < siblings;
                    c.index -= n;
                    lowered = true;
                }
            }
            lowered && position && s.consider(&v)
        });
        if deleted == 0 {
            k += 1;
        }
    }
}
