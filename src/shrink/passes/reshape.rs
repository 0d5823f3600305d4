//! Giving a span another shape: a branch taken differently, or its simplest contents made a
//! little less simple. Lowering alone cannot reach a smaller tape that needs a raised choice
//! (`x` is a union's second variant but shorter than the first one's constant; a subtree
//! that must stay compound is shorter as a negation than as a sum), so these candidates
//! raise one choice and let realignment (see `Shrinker::replace_spans`) find what the
//! new shape reads, keeping the tape after the span as it was.

use super::super::shrinker::Tried;
use super::super::{Shrinker, shortlex_less};
use super::zeroed;
use crate::tape::builtin::FLAT_MAP_INNER;
use crate::tape::{Choice, Kind, Span};

/// How far above its index a branch choice is raised, and the largest index written into
/// the simplest contents.
const ALTERNATIVES: u64 = 3;

impl Shrinker<'_> {
    /// Positions (relative to `span`, the best tape's span number `k`) of unforced choices
    /// that decide the shape of what follows: a span nested in `span` starts right after
    /// them (a union's variant, a recursive generator's "branch?"). With each, the relative
    /// starts of that span's children: where the new shape may pick up the old contents.
    fn branch_points(&self, k: usize, span: Span) -> Vec<(usize, Vec<usize>)> {
        let spans = self.spans();
        let mut points = Vec::new();
        for i in (span.start..span.end).filter(|&i| self.free(i)) {
            let Some(next) = (k + 1..spans.len())
                .take_while(|&n| spans[n].start <= i + 1)
                .find(|&n| spans[n].start == i + 1 && spans[n].end <= span.end)
            else {
                continue;
            };
            if self.plain_value(i) && spans[next].label != FLAT_MAP_INNER {
                continue;
            }
            let children = (next + 1..spans.len())
                .take_while(|&n| spans[n].start < spans[next].end)
                .filter(|&n| spans[n].parent == Some(next))
                .map(|n| spans[n].start - span.start)
                .collect();
            points.push((i - span.start, children));
        }
        points
    }

    /// Whether position `i` holds a number drawn by a built-in value generator (an integer,
    /// a float, a char: [`Kind::Value`] with three or more options). Such a choice that
    /// precedes a span is a value beside its sibling (a leaf's number), not what decides the
    /// span's shape, unless `flat_map` builds that span from it (a hand-written union:
    /// `ints(0..=2).flat_map(|tag| …)`): raising it to probe would cost a call per leaf.
    /// A bool may decide a shape: it stays a branch point.
    fn plain_value(&self, i: usize) -> bool {
        self.choices()[i].max >= 2
            && (self.best.labels.get(i)).is_some_and(|l| l.kind() == Kind::Value)
    }

    /// Tries other shapes for span `k` in every one of `targets` (the span and its copies):
    /// each branch point raised by 1 to [`ALTERNATIVES`], read on by the old contents from
    /// where they were or from one of the old branch's children on (`Sub(0, x)` becomes
    /// `Neg(x)`); then the span's simplest contents (realigned) with one choice set to 1 to
    /// [`ALTERNATIVES`]. A collection element's "one more?" coin is never a branch point; an
    /// element that holds one choice or one payload run besides it is not reshaped at all;
    /// and one whose coin is free (zeroed, it would cut the collection) gets no simplest
    /// contents. True when one was accepted (a candidate accepted on the way to realigning
    /// the simplest contents returns false).
    pub(super) fn reshape(&mut self, k: usize, targets: &[Span]) -> bool {
        let span = targets[0];
        // A collection's element opens with its "one more?" coin: that is the collection's
        // length, not the element's shape. Lowered, it cuts the collection there (and the
        // element's "simplest contents" below would be that cut with a choice raised after
        // it): the deletion passes shorten collections. So an element is reshaped at its
        // branch points after the coin only, and one of a single choice has no shape. A
        // forced coin (below the collection's smallest size) stays as it is when zeroed: such
        // an element's simplest contents are tried as any span's.
        let keep = usize::from(self.opens_with_coin(span));
        // A payload run (or a span around one alone) has no shape but its length, which its
        // own pass lowers with its bytes: a raised byte or length is only a larger run.
        let inner = Span {
            start: span.start + keep,
            ..span
        };
        if span.len() < keep + 2 || self.just_a_run(inner) {
            return false;
        }
        let contents = self.choices()[span.start..span.end].to_vec();
        for (q, children) in self.branch_points(k, span) {
            if q < keep {
                continue;
            }
            let c = contents[q];
            if c.index >= c.max {
                continue;
            }
            // Raised by one and read on as before: when that leaves every span where it
            // was, the choice is a value that happens to precede a span (a leaf's number
            // before its sibling), not a branch: larger raises and the other read-on points
            // only make larger tapes of that shape, or deletions other passes make.
            let mut raised = contents.clone();
            raised[q].index += 1;
            match self.probe(&self.in_every(targets, &raised)) {
                Tried::Improved => return true,
                Tried::Ran(rec)
                    if rec.spans == self.best.spans
                        && rec.choices.len() == self.best.choices.len() =>
                {
                    continue;
                }
                _ => {}
            }
            for v in c.index + 1..=c.max.min(c.index.saturating_add(ALTERNATIVES)) {
                for from in std::iter::once(q + 1).chain(children.iter().copied()) {
                    let mut with = contents[..=q].to_vec();
                    with[q].index = v;
                    with.extend_from_slice(&contents[from..]);
                    if self.replace_spans(k, targets, &with, true) {
                        return true;
                    }
                }
            }
        }
        if keep > 0 && self.free(span.start) {
            return false;
        }
        let zeros = zeroed(&contents);
        let Some(simplest) = self.realigned(k, targets, &zeros) else {
            return false;
        };
        // The spans the simplest contents record: a cache hit when realigning left the zeros as
        // they were, else one call (a lookup that never runs would save it: a follow-up).
        let shape = |s: &mut Self, with: &[Choice]| match s.probe(&s.in_every(targets, with)) {
            Tried::Ran(rec) => Some(rec.spans),
            _ => None,
        };
        let simplest_shape = shape(self, &simplest);
        for q in 0..simplest.len() {
            let c = simplest[q];
            if c.forced {
                continue;
            }
            for v in 1..=c.max.min(ALTERNATIVES) {
                let mut with: Vec<Choice> = simplest.clone();
                with[q].index = v;
                if self.replace_spans(k, targets, &with, true) {
                    return true;
                }
                // Raised by one, the choice made a tape no smaller than the best (a probe
                // for another shape) and left every span where it was: it is a value, not a
                // branch, and raising it further only makes larger tapes of the same shape.
                // (Where the candidate is smaller, a larger value may be what the failure
                // needs: a constant that is neither 0 nor 1.)
                // A smaller candidate of the same shape is a value too: the third value (a
                // constant neither 0 nor 1) is worth a try, the fourth rarely.
                if v < ALTERNATIVES
                    && simplest_shape.is_some()
                    && (v == 1 || v + 1 == ALTERNATIVES)
                    && shape(self, &with) == simplest_shape
                {
                    let smaller = shortlex_less(&self.in_every(targets, &with), self.choices());
                    if v == 1 && !smaller || v + 1 == ALTERNATIVES {
                        break;
                    }
                }
            }
        }
        false
    }
}

/// Tries other shapes for every span of two or more choices, outer spans first (see
/// [`Shrinker::reshape`]). Equal spans are each tried where they are: which one a property
/// needs reshaped can depend on where it is (the last of five equal actions made another
/// action), so one that found nothing says nothing of the others.
pub(in crate::shrink) fn reshape_spans(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let span = s.spans()[k];
        if span.len() < 2 || !s.reshape(k, &[span]) {
            k += 1;
        }
    }
}
