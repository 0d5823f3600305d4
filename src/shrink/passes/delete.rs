//! Deletion: runs of sibling spans (list elements, subtrees) and blocks of choices.

use super::super::Shrinker;
use super::super::search::find_integer;
use super::super::shrinker::Tried;
use crate::tape::{Choice, Span};

/// `base` without `start..end`.
fn without(base: &[Choice], start: usize, end: usize) -> Vec<Choice> {
    let mut v = Vec::with_capacity(base.len() - (end - start));
    v.extend_from_slice(&base[..start]);
    v.extend_from_slice(&base[end..]);
    v
}

impl Shrinker<'_> {
    /// Span `k` and the siblings with its label that follow it back to back: the run a
    /// deletion starting at `k` may take. Empty when span `k` has nothing to delete (no
    /// choice, or only forced and zero ones: a collection's "no more" terminator, whose
    /// deletion would only misalign what follows).
    fn sibling_run(&self, k: usize) -> Vec<Span> {
        let spans = self.spans();
        let first = spans[k];
        if first.is_empty() || self.trivial(first) {
            return Vec::new();
        }
        let mut run = vec![first];
        let mut end = first.end;
        for t in &spans[k + 1..] {
            if t.start < end {
                continue; // inside the run
            }
            if t.parent != first.parent
                || t.label != first.label
                || t.start != end
                || t.is_empty()
                || self.trivial(*t)
            {
                break;
            }
            run.push(*t);
            end = t.end;
        }
        run
    }
}

/// Deletes runs of sibling spans with the same label, outer spans first: a list element, a
/// subtree, a filter's failed attempt. From each span it deletes 1, 2, 3, 4, then doubling
/// numbers of the siblings that follow ([`find_integer`]), so dropping `n` elements of a
/// list costs `O(log n)` calls, and a span that cannot go costs one.
pub(in crate::shrink) fn delete_spans(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let run = s.sibling_run(k);
        if run.is_empty() {
            k += 1;
            continue;
        }
        let base = s.choices().to_vec();
        let start = run[0].start;
        // A deletion that leaves the tape as long as before only shifted the later siblings
        // into the gap (a collection of fixed size, refilled at its end): deleting more of
        // them one by one would only shift again, so such a run is left to the other passes.
        let without_first = without(&base, start, run[0].end);
        let shifted = match s.attempt(&without_first) {
            Tried::Improved => s.choices().len() == base.len(),
            Tried::Ran(rec) => rec.choices.len() == base.len(),
            Tried::Known(len) => len == base.len(),
            Tried::Skipped => false,
        };
        if shifted {
            k += 1;
            while k < s.spans().len() && s.spans()[k].start < run[run.len() - 1].end {
                k += 1;
            }
            continue;
        }
        if s.choices().len() == base.len() {
            k += 1;
            continue;
        }
        // The first went: delete 2, 3, 4, 8, … from the same place.
        find_integer(|n| {
            n as usize + 1 <= run.len() && s.consider(&without(&base, start, run[n as usize].end))
        });
    }
}

/// Deletes blocks of choices that spans do not delimit: from each position, 1, 2, … choices
/// adaptively, and a block of 2 when 1 alone fails (a flag and the value it guards).
pub(in crate::shrink) fn delete_choices(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.choices().len() && !s.stopped() {
        if !s.free(i) {
            i += 1;
            continue;
        }
        let base = s.choices().to_vec();
        let deleted = find_integer(|n| {
            let end = i + n as usize;
            end <= base.len() && s.consider(&without(&base, i, end))
        });
        if deleted == 0 && !(i + 2 <= base.len() && s.consider(&without(&base, i, i + 2))) {
            i += 1;
        }
    }
}

/// Deletes runs of sibling spans and lowers every later choice with at least three options
/// by the number deleted: elements that point at positions in their own list (an index into
/// it) keep pointing at the same elements once the ones before are gone.
pub(in crate::shrink) fn delete_and_renumber(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let run = s.sibling_run(k);
        if run.is_empty() {
            k += 1;
            continue;
        }
        let base = s.choices().to_vec();
        let start = run[0].start;
        let deleted = find_integer(|n| {
            if n as usize > run.len() {
                return false;
            }
            let end = run[n as usize - 1].end;
            let mut v = without(&base, start, end);
            let mut lowered = false;
            for c in v[start..].iter_mut() {
                if !c.forced && c.max >= 2 && c.index >= n {
                    c.index -= n;
                    lowered = true;
                }
            }
            lowered && s.consider(&v)
        });
        if deleted == 0 {
            k += 1;
        }
    }
}
