//! Deleting an element together with what counts the elements: a declared length drawn
//! before or after the list (a header's count, a length field after a payload), or a second
//! list or a byte string that must stay as long as the first (two columns zipped together).

use super::super::Shrinker;
use super::delete::without_ending;
use super::runs::cut;
use crate::tape::{Choice, Kind, Span, builtin};

/// What the items of one collection share: their parent span, and their label's hash (or
/// one mark for every variant of a union).
type Group = (Option<usize>, u64);

impl Shrinker<'_> {
    /// Whether `t` is a collection's element (not its closing "no more" coin, a span of one
    /// choice that holds a drawn 0).
    fn element(&self, t: Span) -> bool {
        t.label == builtin::ELEMENT
            && !(t.len() == 1 && self.more_coin(t.start) && self.choices()[t.start].index == 0)
            && t.end <= self.choices().len()
    }

    /// The elements of every collection of the best tape, one list per collection (by the
    /// span indices of its elements, in order): a built-in collection's elements, and runs of
    /// two or more sibling spans with one label of another kind (a counted loop's items, drawn
    /// without "one more?" coins: the variants of a `one_of!` drawn `n` times).
    fn collections(&self) -> Vec<Vec<usize>> {
        let mut groups: Vec<(Group, Vec<usize>)> = Vec::new();
        for (k, t) in self.spans().iter().enumerate() {
            let counted = t.label != builtin::ELEMENT && !t.is_empty();
            if !(self.element(*t) || counted) || t.end > self.choices().len() {
                continue;
            }
            // A union's variants are one kind of item whatever the variant (their labels
            // are numbered by variant).
            let kind = match t.label.kind() {
                Kind::Variant => u64::MAX,
                _ => t.label.hash(),
            };
            let key = (t.parent, kind);
            match groups.iter_mut().find(|(g, _)| *g == key) {
                Some((_, ks)) => ks.push(k),
                None => groups.push((key, vec![k])),
            }
        }
        groups
            .into_iter()
            .filter(|((_, kind), ks)| *kind == builtin::ELEMENT.hash() || ks.len() >= 2)
            .map(|(_, ks)| ks)
            .collect()
    }
}

/// For each element of each collection: its deletion together with (1) one step of value off
/// a choice elsewhere whose magnitude is the collection's length (its generator said so, see
/// [`crate::tape::Tape::value_step`]), then (2) the deletion of the element at the same place
/// in another collection as long, then (3) the last byte of a payload run as long. Where one element fewer loses the failure because a count
/// no longer matches, no pass that edits one place at a time gets past it (the count alone
/// lowered loses it too). A last resort: a call per element and per matching count or list.
pub(in crate::shrink) fn delete_and_recount(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        if !recount_at(s, k) {
            k += 1;
        }
    }
}

/// The candidates of [`delete_and_recount`] for the element at span `k`; true when one was
/// accepted (the span now at `k` is another one).
fn recount_at(s: &mut Shrinker<'_>, k: usize) -> bool {
    let t = s.spans()[k];
    if t.is_empty() {
        return false;
    }
    let collections = s.collections();
    let Some(own) = collections.iter().find(|c| c.contains(&k)) else {
        return false;
    };
    let len = own.len();
    let at = own.iter().position(|&j| j == k).unwrap_or(0);
    let built_in = t.label == builtin::ELEMENT;
    let deleted = if built_in {
        s.element_deletion(k)
    } else {
        // A variant goes with the union's choice of it, drawn just before its span.
        let union = t.start > 0
            && (s.best.labels.get(t.start - 1)).is_some_and(|l| l.kind() == Kind::Union);
        let mut v = s.choices().to_vec();
        v.drain(t.start - usize::from(union)..t.end);
        v
    };
    let removed = s.choices().len() - deleted.len();
    let first = t.start - (s.choices().len() - deleted.len() - t.len());
    let counts: Vec<(usize, u64)> = (s.magnitudes().into_iter())
        .filter(|&(i, step, m)| {
            m == len as u64 && (i < first || i >= t.end) && s.choices()[i].index >= step
        })
        .map(|(i, step, _)| (i, step))
        .collect();
    for (i, step) in counts {
        let mut v = deleted.clone();
        let p = if i < first { i } else { i - removed };
        v[p].index -= step;
        if s.consider(&v) {
            return true;
        }
    }
    // Another collection as long, outside this element and not holding it; not a sibling
    // row of the same table (two elements of one outer list: a column goes from every row
    // at once, which `zero_spans` and the duplicate passes do, not from two).
    let rows = |c: &[usize]| {
        let parent = |j: usize| s.spans()[j].parent.map(|p| s.spans()[p]);
        match (parent(k), parent(c[0])) {
            (Some(p), Some(q)) => {
                p.label == builtin::ELEMENT && q.label == builtin::ELEMENT && p.parent == q.parent
            }
            _ => false,
        }
    };
    if !built_in {
        return false;
    }
    let others: Vec<usize> = (collections.iter())
        .filter(|c| {
            c.len() == len
                && !c.contains(&k)
                && s.spans()[c[0]].label == builtin::ELEMENT
                && !rows(c)
        })
        .map(|c| c[at])
        .filter(|&j| {
            let u = s.spans()[j];
            u.end <= t.start || u.start >= t.end
        })
        .collect();
    for j in others {
        let u = s.spans()[j];
        let v = both_deleted(s, (k, t), (j, u));
        if s.consider(&v) {
            return true;
        }
    }
    // A payload run (bytes, text) of as many bytes: its last byte goes with the element.
    let runs: Vec<Span> = (s.spans().iter())
        .filter(|u| {
            u.label.kind() == Kind::Payload
                && u.end > u.start + 1
                && u.end - u.start - 1 == len
                && u.end <= s.choices().len()
                && (u.end <= t.start || u.start >= t.end)
                && !s.choices()[u.start].forced
                && s.choices()[u.start].index > 0
        })
        .copied()
        .collect();
    for u in runs {
        let shift = |i: usize| if i > t.start { i - removed } else { i };
        let v = cut(&deleted, shift(u.start), shift(u.end) - 1, 1);
        if s.consider(&v) {
            return true;
        }
    }
    false
}

/// The best tape without the elements at spans `a` and `b` (disjoint): the later one deleted
/// as [`Shrinker::element_deletion`] does, then the earlier one's choices cut out.
fn both_deleted(s: &Shrinker<'_>, a: (usize, Span), b: (usize, Span)) -> Vec<Choice> {
    let (first, second) = if a.1.start < b.1.start {
        (a, b)
    } else {
        (b, a)
    };
    let mut v = without_ending(
        s.choices(),
        second.1.start,
        second.1.end,
        s.forced_end_coin(second.0),
    );
    v.drain(first.1.start..first.1.end);
    v
}
