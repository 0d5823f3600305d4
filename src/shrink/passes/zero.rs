//! Replacing a span by its simplest choices.

use super::super::Shrinker;
use super::super::shrinker::Tried;
use super::zeroed;
use crate::tape::{Span, builtin};

/// Sets every unforced choice of a span to index 0, outer spans first: a list emptied, a
/// subtree turned into the simplest leaf, a field made simplest. When the zeros change the
/// span's shape, the shape they recorded is spliced back in with the rest of the tape kept
/// ([`Shrinker::replace_span`]), so a subtree can become a leaf in the middle of a tree.
/// A joint pass: the structural passes delete spans and lower each choice to 0 on its own,
/// which leaves this pass the spans whose choices go to 0 only together (as a structural
/// pass it improved 3 times in 1,815 calls over the challenge suite, every sweep paying).
pub(in crate::shrink) fn zero_spans(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let span = s.spans()[k];
        if !span.is_empty() && !s.trivial(span) {
            let zeros = zeroed(&s.choices()[span.start..span.end]);
            s.replace_span(k, span, &zeros);
        }
        k += 1;
    }
}

/// Sets the contents of every element of a collection to their simplest choices at once,
/// keeping its length (each element's "one more?" coin): a list whose length is what fails
/// needs one call where zeroing or lowering its elements one by one needs one each. When the
/// zeros change an element's shape (a string emptied, a nested list ended early, another
/// variant), so that the rest is read out of place, the contents the first element recorded
/// are tried in every element (a collection's elements: see [`element_groups`]). Only in the
/// first sweep of the structural tier: a collection whose contents do not matter shows it at
/// once, and one whose contents do would cost a failed call after every later edit.
///
/// This pass takes the outermost collections (not inside another collection's element), and
/// runs before any deletion: one call makes every element of a long list simplest, after
/// which each deletion of an element is tried on the simpler tape (and equal elements are
/// found equal). [`zero_inner_elements`] takes the nested ones after the deletions, which
/// remove most of them first (a list of lists zeroed inner list by inner list before any is
/// deleted costs a call per inner list).
pub(in crate::shrink) fn zero_elements(s: &mut Shrinker<'_>) {
    zero_groups(s, false);
}

/// [`zero_elements`] for the collections nested in another collection's element.
pub(in crate::shrink) fn zero_inner_elements(s: &mut Shrinker<'_>) {
    zero_groups(s, true);
}

fn zero_groups(s: &mut Shrinker<'_>, nested: bool) {
    if s.sweeps > 1 {
        return;
    }
    let mut g = 0;
    loop {
        let groups = element_groups(s);
        let groups: Vec<_> = (groups.into_iter())
            .filter(|group| in_element(s, group[0]) == nested)
            .collect();
        if g >= groups.len() || s.stopped() {
            return;
        }
        if !zero_group(s, &groups[g]) {
            g += 1;
        }
    }
}

/// Whether span `k` lies inside a collection's element.
fn in_element(s: &Shrinker<'_>, k: usize) -> bool {
    let mut up = s.spans()[k].parent;
    while let Some(p) = up {
        let t = s.spans()[p];
        if s.opens_with_coin(t) {
            return true;
        }
        up = t.parent;
    }
    false
}

/// The elements of each collection (span numbers, in tape order) with two or more elements
/// whose contents are not already simplest: `element` spans of one parent, each starting
/// where the one before ended (two lists drawn side by side are two groups), without the
/// element that only holds the "no more" coin.
fn element_groups(s: &Shrinker<'_>) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (k, t) in s.spans().iter().enumerate() {
        if !s.opens_with_coin(*t) || t.end > s.choices().len() || t.len() < 2 {
            continue;
        }
        let follows = groups.last().and_then(|g| g.last()).is_some_and(|&j| {
            let prev = s.spans()[j];
            prev.parent == t.parent && prev.end == t.start
        });
        match groups.last_mut() {
            Some(g) if follows => g.push(k),
            _ => groups.push(vec![k]),
        }
    }
    groups.retain(|g| {
        let busy = g.iter().filter(|&&k| {
            let t = s.spans()[k];
            s.choices()[t.start + 1..t.end]
                .iter()
                .any(|c| !c.forced && c.index > 0)
        });
        busy.count() >= 2
    });
    groups
}

/// Tries the elements `group` (span numbers) with their contents zeroed, then realigned;
/// whether that was accepted.
fn zero_group(s: &mut Shrinker<'_>, group: &[usize]) -> bool {
    let targets: Vec<Span> = group.iter().map(|&k| s.spans()[k]).collect();
    let mut v = s.choices().to_vec();
    for t in &targets {
        let zeros = zeroed(&v[t.start + 1..t.end]);
        v[t.start + 1..t.end].copy_from_slice(&zeros);
    }
    let rec = match s.attempt_for_shape(&v) {
        Tried::Improved => return true,
        Tried::Ran(rec) => rec,
        Tried::Known(_) | Tried::Cut(_) | Tried::Skipped => return false,
    };
    let first = targets[0];
    let Some(now) = rec.spans.get(group[0]).filter(|t| {
        t.label == builtin::ELEMENT && t.start == first.start && t.end <= rec.choices.len()
    }) else {
        return false;
    };
    let contents = &rec.choices[now.start + 1..now.end];
    let mut w = s.choices().to_vec();
    for t in targets.iter().rev() {
        w.splice(t.start + 1..t.end, contents.iter().copied());
    }
    // Where every element read its zeros as the first one did, this is the same candidate.
    w != v && s.consider(&w)
}
