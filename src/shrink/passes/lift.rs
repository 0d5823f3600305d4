//! Lifting a part of a collection's element into another collection as an element of its
//! own.

use super::super::Shrinker;
use crate::tape::builtin::ELEMENT;
use crate::tape::{Choice, Kind, Span};

/// How many collection ends before an element [`lift_into_list`] tries each of its parts at
/// (the nearest first).
const LIFT_PARTNERS: usize = 2;

impl Shrinker<'_> {
    /// The outermost fields inside element `e`, the best tape's span `k` (spans of
    /// [`Kind::Field`] within it with no field, and no element of a collection nested in it,
    /// between them and `e`): the whole values the element is made of, a statement's
    /// expression inside its variant.
    fn element_parts(&self, k: usize, e: Span) -> Vec<Span> {
        let spans = self.spans();
        (k + 1..spans.len())
            .take_while(|&n| spans[n].start < e.end)
            .filter(|&n| {
                let t = spans[n];
                if t.label.kind() != Kind::Field || t.is_empty() || t.end > e.end {
                    return false;
                }
                // No field, and no element of a nested collection, between it and the
                // element.
                let mut p = t.parent;
                while let Some(q) = p {
                    if q == k {
                        return true;
                    }
                    if matches!(spans[q].label.kind(), Kind::Field | Kind::Element) {
                        return false;
                    }
                    p = spans[q].parent;
                }
                false
            })
            .map(|n| spans[n])
            .collect()
    }
}

/// Moves a part of a collection's element (an outermost field inside it: a statement's
/// expression) into an earlier collection as an element of its own, deleting the element it
/// came from: a program whose failing expression sits in a `return` statement fails as well
/// with that expression as a function's argument, a shorter tape (one coin moves with the
/// part; the element's variant choice and its other fields go) that no deletion or lowering
/// reaches, since the earlier collection must grow while the later one shrinks. The part's
/// choices are read as the other collection's element; where its type differs the run reads
/// something else, and the candidate mostly fails to improve. Only into a collection whose
/// "no more" coin was drawn, only an element whose "one more?" coin was drawn. A last
/// resort: a call per part and each of the [`LIFT_PARTNERS`] nearest collection ends before
/// its element.
pub(in crate::shrink) fn lift_into_list(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let e = s.spans()[k];
        let c = s.choices();
        let drawn_coin = |i: usize| c.get(i).is_some_and(|ch| !ch.forced) && s.more_coin(i);
        if e.label != ELEMENT
            || e.len() < 3
            || e.end > c.len()
            || !drawn_coin(e.start)
            || c[e.start].index != 1
        {
            k += 1;
            continue;
        }
        // The drawn "no more" coins before the element, the nearest first.
        let ends: Vec<usize> = (s.spans()[..k].iter().rev())
            .filter(|t| s.closing(**t) && !c[t.start].forced)
            .map(|t| t.start)
            .take(LIFT_PARTNERS)
            .collect();
        if ends.is_empty() {
            k += 1;
            continue;
        }
        let coin: Choice = c[e.start];
        for part in s.element_parts(k, e) {
            for &end in &ends {
                if s.stopped() {
                    return;
                }
                // (Spans open in tape order: a one-choice span before `e` ends before it.)
                debug_assert!(end < e.start);
                let base = s.choices();
                let mut v = Vec::with_capacity(base.len());
                v.extend_from_slice(&base[..end]);
                v.push(coin);
                v.extend_from_slice(&base[part.start..part.end]);
                v.extend_from_slice(&base[end..e.start]);
                v.extend_from_slice(&base[e.end..]);
                if s.consider(&v) {
                    // The spans moved: the shrinker comes back in its next round.
                    return;
                }
            }
        }
        k += 1;
    }
}

#[cfg(test)]
mod tests {
    use crate::generators::{Gen, bools, ints, vecs};
    use crate::shrink::{Budget, Shrinker};
    use crate::tape::{Fallback, ReplaySource, Status, Tape};

    #[test]
    fn a_part_of_a_later_element_becomes_an_element_of_an_earlier_list() {
        // Fails when some number reaches 100, in the first list or in a pair of the second.
        // From `([], [(true, 150)])`, the smallest tape holds the number in the first list:
        // `([100], [])` is four choices where `([], [(false, 100)])` is five, and only moving
        // the number between the lists gets there.
        let g = (
            vecs(ints::<u16>(0..=1000), 0..=3),
            vecs((bools(), ints::<u16>(0..=1000)), 0..=3),
        );
        let fails = |v: &(Vec<u16>, Vec<(bool, u16)>)| {
            v.0.iter().any(|&b| b >= 100) || v.1.iter().any(|p| p.1 >= 100)
        };
        let mut test = |tape: &mut Tape<'_>| match g.generate(tape) {
            Ok(v) if fails(&v) => Status::Interesting,
            Ok(_) => Status::Valid,
            Err(r) => r.status(),
        };
        let mut src = ReplaySource::new(vec![0, 1, 1, 150, 0], Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        assert_eq!(g.generate(&mut tape).unwrap(), (vec![], vec![(true, 150)]));
        let start = tape.finish();
        let shrunk = Shrinker::new(&mut test, start, Budget::default()).run();
        let mut src = ReplaySource::of(&shrunk.best.choices);
        let value = g.generate(&mut Tape::recording(&mut src)).unwrap();
        assert_eq!(value, (vec![100], vec![]));
        let lift = shrunk.passes.iter().find(|p| p.name == "lift_into_list");
        assert!(
            lift.is_some_and(|p| p.improvements >= 1),
            "{:?}",
            shrunk.passes
        );
    }
}
