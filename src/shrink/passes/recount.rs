//! Deleting an element together with what counts the elements: a declared length drawn
//! before or after the list (a header's count, a length field after a payload), or a second
//! list that must stay as long as the first (two columns zipped together).

use super::super::Shrinker;
use super::delete::without_ending;
use crate::tape::{Choice, Span, builtin};

impl Shrinker<'_> {
    /// Whether `t` is a collection's element (not its closing "no more" coin, a span of one
    /// choice that holds a drawn 0).
    fn element(&self, t: Span) -> bool {
        t.label == builtin::ELEMENT
            && !(t.len() == 1 && self.more_coin(t.start) && self.choices()[t.start].index == 0)
            && t.end <= self.choices().len()
    }

    /// The elements of every collection of the best tape, one list per collection (by the
    /// span indices of its elements, in order).
    fn collections(&self) -> Vec<Vec<usize>> {
        let mut by_parent: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
        for (k, t) in self.spans().iter().enumerate() {
            if !self.element(*t) {
                continue;
            }
            match by_parent.iter_mut().find(|(p, _)| *p == t.parent) {
                Some((_, ks)) => ks.push(k),
                None => by_parent.push((t.parent, vec![k])),
            }
        }
        by_parent.into_iter().map(|(_, ks)| ks).collect()
    }
}

/// For each element of each collection: its deletion together with (1) one step of value off
/// a choice elsewhere whose magnitude is the collection's length (its generator said so, see
/// [`crate::tape::Tape::value_step`]), then (2) the deletion of the element at the same place
/// in another collection as long. Where one element fewer loses the failure because a count
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
    if !s.element(t) || t.is_empty() {
        return false;
    }
    let collections = s.collections();
    let Some(own) = collections.iter().find(|c| c.contains(&k)) else {
        return false;
    };
    let len = own.len();
    let at = own.iter().position(|&j| j == k).unwrap_or(0);
    let deleted = s.element_deletion(k);
    let removed = s.choices().len() - deleted.len();
    let counts: Vec<(usize, u64)> = (s.magnitudes().into_iter())
        .filter(|&(i, step, m)| {
            m == len as u64 && (i < t.start || i >= t.end) && s.choices()[i].index >= step
        })
        .map(|(i, step, _)| (i, step))
        .collect();
    for (i, step) in counts {
        let mut v = deleted.clone();
        let p = if i < t.start { i } else { i - removed };
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
    let others: Vec<usize> = (collections.iter())
        .filter(|c| c.len() == len && !c.contains(&k) && !rows(c))
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
