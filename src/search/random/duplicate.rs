//! Duplication: a recorded test case with one part copied over another of its kind.

use crate::tape::{Kind, Recording, Rng, Span};

/// The unforced indices of `rec` with one part copied over another, or `None` when the
/// tape has no two parts to pair. Half the time (when it can) a span's choices replace
/// those of another span with the same label that neither contains (two elements of a list,
/// two strings, two subtrees: Hypothesis's generation mutator); otherwise one choice's index
/// replaces that of another choice with the same label and range of three or more options
/// (two characters of a string, two numbers of a record; not a length or a variant). Which
/// of the two is the copy is random.
///
/// Equal parts rarely come up by chance (two equal strings, a character three times, a run
/// of equal elements), and bugs that need them are common: the random strategy tries a few
/// duplicates of each of a run's first, small test cases. The result replays with the
/// simplest choices past its end, as [`crate::tape::ReplaySource`] does.
pub fn duplicate(rec: &Recording, rng: &mut Rng) -> Option<Vec<u64>> {
    if rng.below_or_eq(1) == 0
        && let Some(v) = copy_span(rec, rng)
    {
        return Some(v);
    }
    copy_choice(rec, rng).or_else(|| copy_span(rec, rng))
}

/// `a` and a random one of `others`, in a random order (the copy first), if there is one.
fn paired<T: Copy>(a: T, others: &[T], rng: &mut Rng) -> Option<(T, T)> {
    if others.is_empty() {
        return None;
    }
    let b = others[rng.below_or_eq(others.len() as u64 - 1) as usize];
    Some(if rng.below_or_eq(1) == 0 {
        (a, b)
    } else {
        (b, a)
    })
}

/// A span's choices over another span's, both with one label and apart.
fn copy_span(rec: &Recording, rng: &mut Rng) -> Option<Vec<u64>> {
    let spans = &rec.spans;
    if spans.len() < 2 {
        return None;
    }
    // A lone 0 (a collection's "no more" coin in the span of an element that never came)
    // would only cut a collection short.
    let lone_zero = |s: &Span| s.len() == 1 && rec.choices[s.start].index == 0;
    // Forced choices are not replayed: two spans pair only where their forced choices sit
    // at the same places (an element below a collection's minimum, whose "one more?" coin
    // is forced, copied over one whose coin was drawn would shift everything after it).
    let forced = |s: &Span| rec.choices[s.start..s.end].iter().map(|c| c.forced);
    let same_forced = |a: &Span, b: &Span| {
        let n = a.len().min(b.len());
        forced(a).take(n).eq(forced(b).take(n))
            && forced(a).skip(n).chain(forced(b).skip(n)).all(|f| !f)
    };
    // A few random spans, each paired with a random other of its label.
    for _ in 0..4 {
        let a = &spans[rng.below_or_eq(spans.len() as u64 - 1) as usize];
        if lone_zero(a) {
            continue;
        }
        let same: Vec<_> = (spans.iter())
            .filter(|b| {
                b.label == a.label
                    && (b.end <= a.start || a.end <= b.start)
                    && (b.start, b.end) != (a.start, a.end)
                    && !lone_zero(b)
                    && same_forced(a, b)
            })
            .collect();
        let Some((from, to)) = paired(a, &same, rng) else {
            continue;
        };
        let unforced = |lo: usize, hi: usize| {
            rec.choices[lo..hi]
                .iter()
                .filter(|c| !c.forced)
                .map(|c| c.index)
        };
        let copy: Vec<u64> = unforced(from.start, from.end).collect();
        if copy.iter().copied().eq(unforced(to.start, to.end)) {
            continue;
        }
        let mut out: Vec<u64> = unforced(0, to.start).collect();
        out.extend(copy);
        out.extend(unforced(to.end, rec.choices.len()));
        return Some(out);
    }
    None
}

/// One unforced choice's index over another's with the same label and range.
fn copy_choice(rec: &Recording, rng: &mut Rng) -> Option<Vec<u64>> {
    let free: Vec<usize> = (0..rec.choices.len())
        // Values only: a copied length or variant would change the shape after it.
        .filter(|&i| {
            !rec.choices[i].forced
                && rec.choices[i].max >= 2
                && !(rec.labels.get(i))
                    .is_some_and(|l| matches!(l.kind(), Kind::Length | Kind::Union))
        })
        .collect();
    if free.len() < 2 {
        return None;
    }
    for _ in 0..4 {
        let a = free[rng.below_or_eq(free.len() as u64 - 1) as usize];
        let same: Vec<usize> = (free.iter().copied())
            .filter(|&b| {
                b != a
                    && rec.choices[b].max == rec.choices[a].max
                    && rec.choices[b].index != rec.choices[a].index
                    && rec.labels.get(b) == rec.labels.get(a)
            })
            .collect();
        let Some((from, to)) = paired(a, &same, rng) else {
            continue;
        };
        let index = rec.choices[from].index;
        return Some(
            (0..rec.choices.len())
                .filter(|&i| !rec.choices[i].forced)
                .map(|i| if i == to { index } else { rec.choices[i].index })
                .collect(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{Gen, ints, vecs};
    use crate::tape::{ReplaySource, Tape};

    fn record(g: &impl Gen, indices: Vec<u64>) -> Recording {
        let mut src = ReplaySource::new(indices, crate::tape::Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        g.generate(&mut tape).unwrap();
        tape.finish()
    }

    #[test]
    fn a_duplicate_copies_an_element_or_a_number() {
        // Three elements 5, 6, 7: every duplicate replays as a list with one of them twice.
        let g = vecs(ints::<u8>(0..=100), 0..=10);
        let rec = record(&g, vec![1, 5, 1, 6, 1, 7, 0]);
        let mut rng = Rng::new(3);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..100 {
            let v = duplicate(&rec, &mut rng).expect("two elements to pair");
            let mut src = ReplaySource::new(v, crate::tape::Fallback::Simplest);
            let value = g.generate(&mut Tape::recording(&mut src)).unwrap();
            assert_eq!(value.len(), 3, "{value:?}");
            let mut distinct = value.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), 2, "{value:?}");
            seen.insert(value);
        }
        // Both directions, at every pair of places.
        assert!(seen.len() >= 6, "{seen:?}");
    }

    #[test]
    fn nothing_to_pair_gives_none() {
        let rec = record(&ints::<u8>(0..=100), vec![5]);
        assert_eq!(duplicate(&rec, &mut Rng::new(1)), None);
        // Two equal elements: a copy would change nothing.
        let g = vecs(ints::<u8>(0..=100), 0..=10);
        let rec = record(&g, vec![1, 5, 1, 5, 0]);
        assert_eq!(duplicate(&rec, &mut Rng::new(1)), None);
    }
}
