//! Deleting an element together with what counts the elements: a declared length drawn
//! before or after the list (a header's count, a length field after a payload), or a second
//! list or a byte string that must stay as long as the first (two columns zipped together).

use super::super::Shrinker;
use super::runs::cut;
use crate::tape::{Choice, Kind, Span, builtin};

/// What the items of one collection share: their parent span, their label's hash (or one
/// mark for every variant of a union), and how many built-in collections of that label
/// ended before them under that parent (two lists drawn in one span are two collections).
type Group = (Option<usize>, u64, usize);

/// One collection of the best tape: its items (span indices, in order) and whether it is a
/// built-in collection (elements with "one more?" coins) rather than a counted loop's items.
struct Collection {
    items: Vec<usize>,
    built_in: bool,
}

impl Shrinker<'_> {
    /// Whether `t` is a collection's element (not its closing "no more" coin, a span of one
    /// choice that holds a drawn 0).
    fn element(&self, t: Span) -> bool {
        t.label == builtin::ELEMENT && !self.closing(t) && t.end <= self.choices().len()
    }

    /// Whether `t` is a collection's closing "no more" coin.
    pub(super) fn closing(&self, t: Span) -> bool {
        t.label == builtin::ELEMENT
            && t.len() == 1
            && self.more_coin(t.start)
            && self.choices().get(t.start).is_some_and(|c| c.index == 0)
    }

    /// Every collection of the best tape: a built-in collection's elements (up to its "no
    /// more" coin), and runs of two or more sibling spans with one label of another kind (a
    /// counted loop's items, drawn without "one more?" coins: the variants of a `one_of!`
    /// drawn `n` times).
    fn collections(&self) -> Vec<Collection> {
        let mut groups: Vec<(Group, Vec<usize>)> = Vec::new();
        // Per parent, built-in collections closed so far.
        let mut ended: Vec<(Option<usize>, usize)> = Vec::new();
        let closed_under = |ended: &[(Option<usize>, usize)], p: Option<usize>| {
            ended.iter().find(|(q, _)| *q == p).map_or(0, |(_, n)| *n)
        };
        for (k, t) in self.spans().iter().enumerate() {
            if self.closing(*t) {
                match ended.iter_mut().find(|(q, _)| *q == t.parent) {
                    Some((_, n)) => *n += 1,
                    None => ended.push((t.parent, 1)),
                }
                continue;
            }
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
            let generation = if t.label == builtin::ELEMENT {
                closed_under(&ended, t.parent)
            } else {
                0
            };
            let key = (t.parent, kind, generation);
            match groups.iter_mut().find(|(g, _)| *g == key) {
                Some((_, ks)) => ks.push(k),
                None => groups.push((key, vec![k])),
            }
        }
        groups
            .into_iter()
            .map(|((_, kind, _), items)| Collection {
                built_in: kind == builtin::ELEMENT.hash(),
                items,
            })
            .filter(|c| c.built_in || c.items.len() >= 2)
            .collect()
    }

    /// The best tape without the item at span `k`: a built-in collection's element as
    /// [`Shrinker::element_deletion`] deletes it; a union's variant with the union's choice of
    /// it, drawn just before its span; else the span's choices.
    fn item_deletion(&self, k: usize, built_in: bool) -> Vec<Choice> {
        if built_in {
            return self.element_deletion(k);
        }
        let t = self.spans()[k];
        let union = t.label.kind() == Kind::Variant
            && t.start > 0
            && (self.best.labels.get(t.start - 1)).is_some_and(|l| l.kind() == Kind::Union);
        let mut v = self.choices().to_vec();
        v.drain(t.start - usize::from(union)..t.end);
        v
    }
}

/// For each item of each collection: its deletion together with (1) one step of value off a
/// choice elsewhere whose magnitude is the collection's length (its generator said so, see
/// [`crate::tape::Tape::value_step`]); for a built-in collection's element, (2) the deletion
/// of the element at the same place in another collection as long, and (3) the last byte of
/// a payload run as long; then, for a collection of two items or more, (1) again with one bare
/// choice of a later run of as many (a second group the same count sizes, [`bare_runs`]).
/// A counted loop's item drawn as several sibling spans side by side (a tuple's fields, a
/// group each) goes as the row they make ([`row_of`]). Last, (4) for a count followed by as
/// many bare choices of one label (a hand-written counted loop of integers,
/// [`recount_bare`]), each of them deleted with the count one step lower. Where one element
/// fewer loses the failure because a count no longer matches, no pass that edits one place
/// at a time gets past it (the count alone lowered loses it too). A joint pass, run after
/// the passes that move values: a call per item and per matching count or list (none where
/// no count matches a collection or a run); the collections and the bare runs are found once
/// per round, and again after each improvement. A deletion with its fix-up shortens the
/// tape, so it runs before the last-resort passes (as Hypothesis tries the passes that
/// shortened first).
pub(in crate::shrink) fn delete_and_recount(s: &mut Shrinker<'_>) {
    'round: while !s.stopped() {
        let collections = s.collections();
        let magnitudes = s.magnitudes();
        let bare: Vec<Bare> = (magnitudes.iter())
            .filter(|&&(_, _, m)| m >= 2 && m <= s.choices().len() as u64)
            .map(|&(i, _, m)| (i, m as usize, bare_runs(s, i, m as usize)))
            .filter(|(_, _, runs)| !runs.is_empty())
            .collect();
        for c in &collections {
            for (at, &k) in c.items.iter().enumerate() {
                if s.stopped() {
                    return;
                }
                if recount_at(s, &collections, &magnitudes, &bare, c, at, k) {
                    continue 'round;
                }
            }
        }
        for &(i, step, m) in &magnitudes {
            if s.stopped() {
                return;
            }
            if recount_bare(s, i, step, m) {
                continue 'round;
            }
        }
        return;
    }
}

/// (4) of [`delete_and_recount`], for a counted loop whose items are bare choices (a
/// hand-written `n`, then `n` draws of an integer, which mark no spans): where the `m`
/// choices just after the count at `i` (magnitude `m`, `step` indices per unit) are free,
/// have one label and sit in no span opened after the count, deletes each in turn with the
/// count one step lower. True when one was accepted.
fn recount_bare(s: &mut Shrinker<'_>, i: usize, step: u64, m: u64) -> bool {
    let choices = s.choices();
    // Room for the count's items after it (in `u64`: a magnitude may be any value).
    let room = choices.len().saturating_sub(i + 1) as u64;
    if m < 2 || m > room || choices[i].index < step {
        return false;
    }
    let m = m as usize;
    let items = i + 1..i + 1 + m;
    let label = s.best.labels.get(i + 1).copied();
    let same = items.clone().all(|p| {
        s.free(p)
            && label.is_some()
            && s.best.labels.get(p).copied() == label
            && !(s.spans().iter()).any(|t| t.start > i && t.start <= p && p < t.end)
    });
    if !same {
        return false;
    }
    let base = choices.to_vec();
    for p in items {
        if s.stopped() {
            return false;
        }
        let mut v = base.clone();
        v.remove(p);
        v[i].index -= step;
        if s.consider(&v) {
            return true;
        }
    }
    false
}

/// The candidates of [`delete_and_recount`] for item `at` of `own` (span `k`); true when one
/// was accepted.
fn recount_at(
    s: &mut Shrinker<'_>,
    collections: &[Collection],
    magnitudes: &[(usize, u64, u64)],
    bare: &[Bare],
    own: &Collection,
    at: usize,
    k: usize,
) -> bool {
    let t = s.spans()[k];
    if t.is_empty() {
        return false;
    }
    let len = own.items.len();
    // A counted loop's item drawn as several sibling spans (a tuple's fields): the row they
    // make goes as one.
    let row = (!own.built_in)
        .then(|| row_of(s, collections, own, at))
        .flatten();
    let (deleted, end) = match row {
        Some((from, to)) => {
            let mut v = s.choices().to_vec();
            v.drain(from..to);
            (v, to)
        }
        None => (s.item_deletion(k, own.built_in), t.end),
    };
    let removed = s.choices().len() - deleted.len();
    // Where the deleted choices begin (a variant's union choice before its span).
    let first = end - removed;
    let counts: Vec<(usize, u64)> = (magnitudes.iter())
        .filter(|&&(i, step, m)| {
            m == len as u64 && (i < first || i >= end) && s.choices()[i].index >= step
        })
        .map(|&(i, step, _)| (i, step))
        .collect();
    let at_deleted = |i: usize| if i < first { i } else { i - removed };
    for &(i, step) in &counts {
        let mut v = deleted.clone();
        v[at_deleted(i)].index -= step;
        if s.consider(&v) {
            return true;
        }
    }
    // The count sizes a second group too, of bare choices (a hand-written loop drawn `n`
    // times more, after other draws): its item `at` goes as well. Where the group's label
    // runs on past it (bare integers before and after), where it starts is unknown: each
    // of the first few starts in the run is tried.
    let with_bare_item = |s: &mut Shrinker<'_>| {
        if len < 2 {
            return false;
        }
        for &(i, step) in &counts {
            let Some((_, _, runs)) = bare.iter().find(|&&(j, m, _)| j == i && m == len) else {
                continue;
            };
            for &(start, run) in runs {
                for o in 0..=run.saturating_sub(len).min(MAX_STARTS - 1) {
                    if s.stopped() {
                        return false;
                    }
                    let p = start + o + at;
                    if p >= first && p < end {
                        continue;
                    }
                    let mut v = deleted.clone();
                    v[at_deleted(i)].index -= step;
                    v.remove(at_deleted(p));
                    if s.consider(&v) {
                        return true;
                    }
                }
            }
        }
        false
    };
    if !own.built_in {
        return with_bare_item(s);
    }
    // Another collection as long, outside this element and not holding it; not a sibling
    // row of the same table (two elements of one outer list: a column goes from every row
    // at once, which `zero_spans` and the duplicate passes do, not from two).
    let parent = |j: usize| s.spans()[j].parent.map(|p| s.spans()[p]);
    let rows = |c: &Collection| match (parent(k), parent(c.items[0])) {
        (Some(p), Some(q)) => {
            p.label == builtin::ELEMENT && q.label == builtin::ELEMENT && p.parent == q.parent
        }
        _ => false,
    };
    let others: Vec<usize> = (collections.iter())
        .filter(|c| c.built_in && c.items.len() == len && !c.items.contains(&k) && !rows(c))
        .map(|c| c.items[at])
        .filter(|&j| {
            let u = s.spans()[j];
            u.end <= t.start || u.start >= t.end
        })
        .collect();
    for j in others {
        let v = both_deleted(s, k, j);
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
    with_bare_item(s)
}

/// The choices of row `at` of a counted collection `own` whose items are one of several
/// sibling groups as long (the fields of a tuple drawn `n` times: a group per field): the
/// range of the `at`-th spans of those groups that sit side by side with `own`'s (a variant
/// with the union choice just before it). `None` when no other group's span adjoins it.
fn row_of(
    s: &Shrinker<'_>,
    collections: &[Collection],
    own: &Collection,
    at: usize,
) -> Option<(usize, usize)> {
    let t = s.spans()[own.items[at]];
    let part = |u: Span| {
        let union = u.label.kind() == Kind::Variant
            && u.start > 0
            && (s.best.labels.get(u.start - 1)).is_some_and(|l| l.kind() == Kind::Union);
        (u.start - usize::from(union), u.end)
    };
    let mut parts: Vec<(usize, usize)> = (collections.iter())
        .filter(|c| !c.built_in && c.items.len() == own.items.len())
        .map(|c| s.spans()[c.items[at]])
        .filter(|u| u.parent == t.parent)
        .map(part)
        .collect();
    parts.sort_unstable();
    parts.dedup();
    let mine = parts.iter().position(|&p| p == part(t))?;
    let (mut lo, mut hi) = (mine, mine);
    while lo > 0 && parts[lo - 1].1 == parts[lo].0 {
        lo -= 1;
    }
    while hi + 1 < parts.len() && parts[hi].1 == parts[hi + 1].0 {
        hi += 1;
    }
    (hi > lo).then(|| (parts[lo].0, parts[hi].1))
}

/// A count's position, its magnitude and the runs of at least that many bare choices after
/// it ([`bare_runs`]).
type Bare = (usize, usize, Vec<(usize, usize)>);

/// How many starts of a bare group inside a longer run of its label `recount_at` tries.
const MAX_STARTS: usize = 3;

/// The runs (first position, length) of at least `len` consecutive bare choices after the
/// count at `i`: free, of one label, in no span opened after the count (so not the
/// collection's own items, and not another structure's parts).
fn bare_runs(s: &Shrinker<'_>, i: usize, len: usize) -> Vec<(usize, usize)> {
    let n = s.choices().len();
    // Whether a span opened after the count covers each position.
    let mut covered = vec![false; n];
    for t in s.spans().iter().filter(|t| t.start > i) {
        covered[t.start.min(n)..t.end.min(n)].fill(true);
    }
    let bare = |p: usize| s.free(p) && !covered[p];
    let mut runs = Vec::new();
    let mut p = i + 1;
    while p < n {
        if !bare(p) {
            p += 1;
            continue;
        }
        let label = s.best.labels.get(p).copied();
        let start = p;
        while p < n && bare(p) && s.best.labels.get(p).copied() == label {
            p += 1;
        }
        if label.is_some() && p - start >= len {
            runs.push((start, p - start));
        }
    }
    runs
}

/// The best tape without the elements at spans `a` and `b` (disjoint elements of two
/// collections), each collection's forced "no more" coin replayed as drawn where it was at its
/// largest size (see [`super::delete::without_ending`]).
fn both_deleted(s: &Shrinker<'_>, a: usize, b: usize) -> Vec<Choice> {
    let mut v = s.choices().to_vec();
    let (ta, tb) = (s.spans()[a], s.spans()[b]);
    for (k, t) in [(a, ta), (b, tb)] {
        if let Some(e) = s.forced_end_coin(k).filter(|&e| e >= t.end && e < v.len()) {
            v[e].forced = false;
        }
    }
    let (first, second) = if ta.start < tb.start {
        (ta, tb)
    } else {
        (tb, ta)
    };
    v.drain(second.start..second.end);
    v.drain(first.start..first.end);
    v
}
