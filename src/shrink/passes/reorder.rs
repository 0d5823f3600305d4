//! Sorting and swapping spans with the same label towards shortlex order.

use super::super::{Shrinker, shortlex_cmp, shortlex_less};
use crate::tape::{Choice, Span};
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
    fn same_label_groups(&self) -> Vec<Vec<usize>> {
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
        let c = self.choices();
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
/// tape smallest (see [`concat_cmp`]), or swaps
/// an adjacent pair that is out of order: list elements, the children of a node, and the
/// contents of different fields made by one generator (an element moved to a later list).
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

/// Copies the contents of a span over a larger span with the same label and depth: two parts
/// that must be equal only in meaning (`0 + 7` and `-(-7)`) become equal on the tape, where
/// the passes over duplicates can shrink them together.
pub(in crate::shrink) fn copy_spans(s: &mut Shrinker<'_>) {
    let mut g = 0;
    loop {
        let groups = s.same_label_groups();
        if g >= groups.len() || s.stopped() {
            return;
        }
        if !s.copy_within(&groups[g]) {
            g += 1;
        }
    }
}

impl Shrinker<'_> {
    /// Copies each member's contents over each larger member of `group`, smaller sources
    /// first; true when one was accepted.
    fn copy_within(&mut self, group: &[usize]) -> bool {
        let spans: Vec<Span> = group.iter().map(|&k| self.spans()[k]).collect();
        let all: Vec<Vec<Choice>> = spans
            .iter()
            .map(|s| self.choices()[s.start..s.end].to_vec())
            .collect();
        let mut sources: Vec<usize> = (0..spans.len())
            // A lone zero (a collection's terminator) would only cut a collection short.
            .filter(|&j| !(all[j].len() == 1 && all[j][0].index == 0))
            .collect();
        sources.sort_by(|&x, &y| shortlex_cmp(&all[x], &all[y]));
        for (i, target) in spans.iter().enumerate() {
            for &j in &sources {
                if !shortlex_less(&all[j], &all[i]) {
                    break;
                }
                if self.replace_span(group[i], *target, &all[j]) {
                    return true;
                }
            }
        }
        false
    }
}
