//! Sorting and swapping spans with the same label, and choices of the same kind, towards
//! shortlex order; moving an element from one list to the next.

use super::super::Shrinker;
use super::super::shrinker::Tried;
use crate::tape::{Choice, Kind, Span};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The order of contents that makes their concatenation smallest: `a` before `b` when
/// `a ++ b` is lexicographically below `b ++ a` (as in building the smallest number from
/// digit strings). Shortlex order of the contents alone would put a short content first even
/// where a longer one that starts lower makes the tape smaller.
fn concat_cmp(a: &[Choice], b: &[Choice]) -> Ordering {
    let ab = a.iter().chain(b).map(|c| c.index);
    let ba = b.iter().chain(a).map(|c| c.index);
    ab.cmp(ba)
}

impl Shrinker<'_> {
    /// Spans grouped by label and depth, each group in tape order. Spans at one depth never
    /// nest, so a group's members are disjoint: siblings (list elements, children of a
    /// node) and also cousins (the same field's contents in different tuple fields).
    pub(super) fn same_label_groups(&self) -> Vec<Vec<usize>> {
        let mut by_depth: BTreeMap<usize, Vec<Vec<usize>>> = BTreeMap::new();
        let spans = self.spans();
        for (k, s) in spans.iter().enumerate() {
            if s.is_empty() || s.end > self.choices().len() {
                continue;
            }
            let groups = by_depth.entry(s.depth).or_default();
            match groups.iter_mut().find(|g| spans[g[0]].label == s.label) {
                Some(g) => g.push(k),
                None => groups.push(vec![k]),
            }
        }
        by_depth
            .into_values()
            .flatten()
            .filter(|g| g.len() >= 2)
            .collect()
    }

    /// The best tape with the contents of `spans` permuted: slot `i` gets the contents of
    /// `spans[order[i]]`.
    fn permuted(&self, spans: &[Span], order: &[usize]) -> Vec<Choice> {
        permute(self.choices(), spans, order)
    }

    /// Sorts one group, else swaps an adjacent out-of-order pair; true when accepted.
    fn reorder_group(&mut self, group: &[usize]) -> bool {
        let spans: Vec<Span> = group.iter().map(|&k| self.spans()[k]).collect();
        let contents = |s: &Self, k: usize| s.choices()[spans[k].start..spans[k].end].to_vec();
        // A collection's "no more" terminator (a lone zero after its siblings) would sort
        // first and cut the collection short: leave it out of the sort (a swap may move it).
        let mut sortable = spans.len();
        if let [.., before, last] = spans[..]
            && last.len() == 1
            && last.parent == before.parent
            && self.choices()[last.start].index == 0
        {
            sortable -= 1;
        }
        let all: Vec<Vec<Choice>> = (0..spans.len()).map(|k| contents(self, k)).collect();
        let mut order: Vec<usize> = (0..spans.len()).collect();
        order[..sortable].sort_by(|&x, &y| concat_cmp(&all[x], &all[y]));
        if order.iter().enumerate().any(|(a, &b)| a != b)
            && self.consider(&self.permuted(&spans, &order))
        {
            return true;
        }
        // Swaps: `consider` runs only those that make the tape smaller.
        for k in 0..spans.len() - 1 {
            let mut o: Vec<usize> = (0..spans.len()).collect();
            o.swap(k, k + 1);
            if self.consider(&self.permuted(&spans, &o)) {
                return true;
            }
        }
        false
    }
}

/// Sorts spans with the same label and depth into the order of their contents that makes the
/// tape smallest (see [`concat_cmp`]), or swaps an adjacent pair that is out of order: list
/// elements, the children of a node, and the contents of different fields made by one
/// generator (an element moved to a later list).
pub(in crate::shrink) fn reorder_spans(s: &mut Shrinker<'_>) {
    let mut g = 0;
    loop {
        let groups = s.same_label_groups();
        if g >= groups.len() || s.stopped() {
            return;
        }
        // After an accepted reordering the spans moved: regroup and try this group again.
        if !s.reorder_group(&groups[g]) {
            g += 1;
        }
    }
}

/// Swaps the contents of two fields of one struct or tuple (sibling spans of [`Kind::Field`])
/// when the later one's makes the tape smaller and both open with the same kind of choice
/// (same label, same range: most likely one generator twice, as `(a, b, c)` of one type):
/// `(∞, 0.0)` to `(0.0, ∞)`, where the failure needs one of each and the fields' labels
/// differ, so [`reorder_spans`] does not group them. A last resort: a call per such pair.
pub(in crate::shrink) fn swap_fields(s: &mut Shrinker<'_>) {
    let mut k = 0;
    'spans: while k < s.spans().len() && !s.stopped() {
        let a = s.spans()[k];
        if a.label.kind() != Kind::Field || a.is_empty() || a.end > s.choices().len() {
            k += 1;
            continue;
        }
        let siblings: Vec<Span> = (s.spans()[k + 1..].iter())
            .filter(|b| {
                b.parent == a.parent
                    && b.label.kind() == Kind::Field
                    && !b.is_empty()
                    && b.start >= a.end
                    && b.end <= s.choices().len()
            })
            .copied()
            .collect();
        for b in siblings {
            let c = s.choices();
            let (ca, cb) = (&c[a.start..a.end], &c[b.start..b.end]);
            let same_kind =
                ca[0].max == cb[0].max && s.best.labels.get(a.start) == s.best.labels.get(b.start);
            if !same_kind || concat_cmp(cb, ca) != Ordering::Less {
                continue;
            }
            if s.consider(&s.permuted(&[a, b], &[1, 0])) {
                continue 'spans; // the span at `k` holds other choices now
            }
        }
        k += 1;
    }
}

/// Swaps two choices of the same kind (same label, same range) anywhere in the tape when
/// the later one is simpler: two values that must differ, drawn far apart (a variable bound
/// twice), end with the simpler one first. For each choice, the two simplest later ones.
pub(in crate::shrink) fn swap_choices(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.choices().len() && !s.stopped() {
        let mut later: Vec<(u64, usize)> = Vec::new();
        if let (Some(a), Some(&la)) = (s.choices().get(i), s.best.labels.get(i))
            && s.free(i)
            && a.index > 0
        {
            for j in i + 1..s.choices().len() {
                let b = s.choices()[j];
                if s.free(j)
                    && b.max == a.max
                    && b.index < a.index
                    && s.best.labels.get(j) == Some(&la)
                {
                    later.push((b.index, j));
                }
            }
        }
        later.sort();
        for &(_, j) in later.iter().take(2) {
            let (a, b) = (s.choices()[i].index, s.choices()[j].index);
            if s.consider(&s.with_indices(&[(i, b), (j, a)])) {
                break;
            }
        }
        i += 1;
    }
}

/// Sorts the elements of one list (siblings with the same label) when later choices range
/// over exactly its positions — an index into it drawn after it, as a dependent generator
/// (`flat_map`) draws one — with those choices following their elements to their new
/// positions; else swaps an adjacent pair the same way. [`reorder_spans`] moves the elements
/// alone, which makes the indices name other elements.
pub(in crate::shrink) fn sort_and_renumber(s: &mut Shrinker<'_>) {
    let mut g = 0;
    loop {
        let lists = s.sibling_lists();
        if g >= lists.len() || s.stopped() {
            return;
        }
        let (list, end) = &lists[g];
        if !s.renumber_list(list, *end) {
            g += 1;
        }
    }
}

impl Shrinker<'_> {
    /// The groups of [`Shrinker::same_label_groups`] split into siblings (one parent each),
    /// without a collection's "no more" terminator (a lone zero last), of two or more; each
    /// with the end of its last span (the terminator's, where there is one).
    pub(super) fn sibling_lists(&self) -> Vec<(Vec<usize>, usize)> {
        let spans = self.spans();
        let mut lists = Vec::new();
        for group in self.same_label_groups() {
            let mut by_parent: BTreeMap<Option<usize>, Vec<usize>> = BTreeMap::new();
            for k in group {
                by_parent.entry(spans[k].parent).or_default().push(k);
            }
            for mut list in by_parent.into_values() {
                let end = list.last().map_or(0, |&k| spans[k].end);
                if let [.., last] = list[..]
                    && spans[last].len() == 1
                    && self.choices()[spans[last].start].index == 0
                    && self.starts_with_coin(&spans[last])
                {
                    list.pop();
                }
                if list.len() >= 2 {
                    lists.push((list, end));
                }
            }
        }
        lists
    }

    /// Whether span `k` starts with a collection's "one more?" coin.
    fn starts_with_coin(&self, k: &Span) -> bool {
        (self.best.labels.get(k.start)).is_some_and(|l| l.kind() == Kind::More)
    }

    /// Deletes an element of (else sorts, else swaps an adjacent pair of) the list `list`,
    /// which ends at `after`, with the later choices that range over its positions
    /// renumbered; true when accepted. No call when no later choice ranges over exactly its
    /// positions.
    fn renumber_list(&mut self, list: &[usize], after: usize) -> bool {
        let spans: Vec<Span> = list.iter().map(|&k| self.spans()[k]).collect();
        let n = spans.len();
        let mut refs: Vec<usize> = (after..self.choices().len())
            .filter(|&j| {
                let c = self.choices()[j];
                let value = (self.best.labels.get(j)).is_some_and(|l| l.kind() == Kind::Value);
                !c.forced && c.max == n as u64 - 1 && value
            })
            .collect();
        if refs.is_empty() {
            return false;
        }
        let all: Vec<Vec<Choice>> = (spans.iter())
            .map(|t| self.choices()[t.start..t.end].to_vec())
            .collect();
        let coins = spans.iter().all(|t| self.starts_with_coin(t));
        // Deleting an element: the indices past it move down, and one naming it names an
        // element with the same contents instead (none: it stays, and may name another). A
        // run that records the shorter list also shows which of the later choices range over
        // it (their range shrinks with it; an index into another list of the same length
        // does not): only those are renumbered below.
        let mut dependent: Option<Vec<usize>> = None;
        for p in (0..n).rev() {
            // Below a collection's minimum its "one more?" coins are forced: the first later
            // element with a coin of its own gives its coin up instead (none: the list is at
            // its minimum size).
            let forced = coins && all[p][0].forced;
            let given_up = (p + 1..n).find(|&q| !all[q][0].forced);
            if forced && given_up.is_none() {
                continue;
            }
            let twin = (0..n).find(|&q| q != p && all[q] == all[p]);
            let mut v = self.choices().to_vec();
            for &j in &refs {
                let i = v[j].index as usize;
                v[j].index = match (i.cmp(&p), twin) {
                    (Ordering::Greater, _) => i as u64 - 1,
                    (Ordering::Equal, Some(q)) => (if q > p { q - 1 } else { q }) as u64,
                    _ => i as u64,
                };
            }
            if let (true, Some(q)) = (forced, given_up) {
                v.remove(spans[q].start);
            }
            v.drain(spans[p].start..spans[p].end);
            // The replay forces the coins below the minimum again: the run is shorter by the
            // element alone.
            let removed = spans[p].len();
            match self.attempt(&v) {
                Tried::Improved => return true,
                Tried::Ran(rec) => {
                    // Read only a run that kept the shape after the list (the same choices
                    // there, by label): else positions past it name other choices.
                    let best = &self.best;
                    let kept = rec.choices.len() + removed == best.choices.len()
                        && rec.labels.get(after - removed..) == best.labels.get(after..);
                    if kept {
                        let shrunk = |j: usize| rec.choices[j - removed].max + 2 == n as u64;
                        let now: Vec<usize> = refs.iter().copied().filter(|&j| shrunk(j)).collect();
                        // A choice depends on the list if its range shrank in every such run.
                        dependent = Some(match dependent {
                            None => now,
                            Some(before) => {
                                before.into_iter().filter(|j| now.contains(j)).collect()
                            }
                        });
                    }
                }
                Tried::Known(_) | Tried::Cut(_) | Tried::Skipped => {}
            }
        }
        // Without a run that showed which later choices depend on the list (one at its
        // minimum size has no element to delete, a filter may reject every shorter one), a
        // few of them are also tried one at a time (an index into another list of the same
        // length follows the other list).
        let dependent = dependent.filter(|d| !d.is_empty());
        let alone = dependent.is_none() && (2..=4).contains(&refs.len());
        if let Some(seen) = dependent {
            refs = seen;
        }
        if refs.is_empty() {
            return false;
        }
        let try_order = |s: &mut Self, order: &[usize], refs: &[usize]| {
            // The element at old position `order[slot]` is now at `slot`.
            let mut slot_of = vec![0u64; n];
            for (slot, &old) in order.iter().enumerate() {
                slot_of[old] = slot as u64;
            }
            let mut v = if coins {
                s.permuted_after_coins(&spans, order)
            } else {
                s.permuted(&spans, order)
            };
            for &j in refs {
                v[j].index = slot_of[v[j].index as usize];
            }
            s.consider(&v)
        };
        let try_all = |s: &mut Self, order: &[usize]| {
            try_order(s, order, &refs) || (alone && refs.iter().any(|&j| try_order(s, order, &[j])))
        };
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&x, &y| concat_cmp(&all[x], &all[y]));
        if order.iter().enumerate().any(|(a, &b)| a != b) && try_all(self, &order) {
            return true;
        }
        for k in 0..n - 1 {
            let mut o: Vec<usize> = (0..n).collect();
            o.swap(k, k + 1);
            if try_all(self, &o) {
                return true;
            }
        }
        false
    }

    /// [`Shrinker::permuted`] for elements that start with a "one more?" coin: each coin stays
    /// in its slot (a forced one, below the collection's minimum, is not replayed, so moving
    /// it would shift everything after it) and the rest of each element moves.
    fn permuted_after_coins(&self, spans: &[Span], order: &[usize]) -> Vec<Choice> {
        let c = self.choices();
        let mut v = Vec::with_capacity(c.len());
        let mut at = 0;
        for (slot, s) in spans.iter().enumerate() {
            v.extend_from_slice(&c[at..=s.start]);
            let from = spans[order[slot]];
            v.extend_from_slice(&c[from.start + 1..from.end]);
            at = s.end;
        }
        v.extend_from_slice(&c[at..]);
        v
    }
}

/// `c` with the contents of `spans` (disjoint, in order) permuted: slot `i` gets the contents
/// of `spans[order[i]]`.
pub(super) fn permute(c: &[Choice], spans: &[Span], order: &[usize]) -> Vec<Choice> {
    let mut v = Vec::with_capacity(c.len());
    let mut at = 0;
    for (slot, s) in spans.iter().enumerate() {
        v.extend_from_slice(&c[at..s.start]);
        let from = spans[order[slot]];
        v.extend_from_slice(&c[from.start..from.end]);
        at = s.end;
    }
    v.extend_from_slice(&c[at..]);
    v
}

/// How many later collections [`move_element`] tries to move a collection's last element
/// into.
const ELEMENT_PARTNERS: usize = 1;

/// A collection inside a collection's element, for [`move_element`].
struct Inner {
    /// Its elements, without the "no more" coin.
    elements: Vec<Span>,
    /// Where its "no more" coin is, when it has one that was drawn (not forced: a collection
    /// at its longest takes no more).
    end: Option<usize>,
    /// Whether it ends with a "no more" coin, drawn or forced.
    closed: bool,
    /// The parent of the element holding it (the outer collection's span).
    outer: Option<usize>,
}

/// Moves the last element of a collection to the end of the next collection of its label
/// inside the same outer collection (a list of lists whose total length must stay large:
/// `[[0, 0, 0], [0, 0, 0, 0]]` with seven elements to keep becomes `[[0, 0], [0, 0, 0, 0,
/// 0]]`). The tape keeps its length and the earlier collection, which comes first, ends
/// sooner: no deletion or single edit does it (the earlier list alone shorter loses the
/// failure, the later alone longer is a longer tape). Only into a collection whose "no
/// more" coin was drawn (one at its longest takes no more), only an element whose "one
/// more?" coin was drawn (one below the collection's minimum cannot go), and only between
/// collections that are elements' contents of one collection: between a product's fields
/// (bound5's five lists) the move never paid and its call came in every last round. A last
/// resort: a call per pair of collections, for the next [`ELEMENT_PARTNERS`] ones.
pub(in crate::shrink) fn move_element(s: &mut Shrinker<'_>) {
    let mut inners: Vec<Vec<Inner>> = Vec::new();
    for group in s.same_label_groups() {
        let mut by_parent: BTreeMap<Option<usize>, Vec<usize>> = BTreeMap::new();
        for k in group {
            by_parent.entry(s.spans()[k].parent).or_default().push(k);
        }
        let mut in_group = Vec::new();
        for (parent, list) in by_parent {
            let Some(holder) = parent.filter(|&p| s.spans()[p].label.kind() == Kind::Element)
            else {
                continue;
            };
            let mut elements: Vec<Span> = list.iter().map(|&k| s.spans()[k]).collect();
            if !elements.iter().all(|t| s.starts_with_coin(t)) {
                continue;
            }
            let (mut end, mut closed) = (None, false);
            if let [.., last] = elements[..]
                && s.closing(last)
            {
                elements.pop();
                end = Some(last.start).filter(|&x| !s.choices()[x].forced);
                closed = true;
            }
            let outer = s.spans()[holder].parent;
            in_group.push(Inner {
                elements,
                end,
                closed,
                outer,
            });
        }
        // (By parent: the holders in tape order.)
        inners.push(in_group);
    }
    for group in &inners {
        for (a, inner) in group.iter().enumerate() {
            let Some(&last) = inner.elements.last() else {
                continue;
            };
            // (Its end coin takes the moved element's place: it must be there.)
            if !inner.closed || s.choices()[last.start].forced {
                continue;
            }
            let partners: Vec<usize> = (group[a + 1..].iter())
                .filter(|b| b.outer == inner.outer)
                .filter_map(|b| b.end)
                .take(ELEMENT_PARTNERS)
                .collect();
            for x in partners {
                if s.stopped() {
                    return;
                }
                let base = s.choices();
                let mut v = Vec::with_capacity(base.len());
                v.extend_from_slice(&base[..last.start]);
                v.extend_from_slice(&base[last.end..x]);
                v.extend_from_slice(&base[last.start..last.end]);
                v.extend_from_slice(&base[x..]);
                // The earlier collection's end, now at the moved element's place, is drawn
                // (it was forced where that collection was at its longest).
                v[last.start].forced = false;
                if s.consider(&v) {
                    // The spans moved: the shrinker comes back in its next round.
                    return;
                }
            }
        }
    }
}
