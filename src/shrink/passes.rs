//! The shrink passes. Each builds candidates from the current best tape; none looks at
//! values, only at choices and spans.

use super::Shrinker;
use crate::tape::Choice;
use std::collections::BTreeMap;

/// How far apart two choices may be for the pair passes.
const WINDOW: usize = 8;
/// Largest index the probe pass writes into a later choice.
const PROBE: u64 = 7;

impl Shrinker<'_> {
    fn choices(&self) -> &[Choice] {
        &self.best.choices
    }

    fn without(&self, start: usize, end: usize) -> Vec<Choice> {
        let c = self.choices();
        let mut v = Vec::with_capacity(c.len() - (end - start));
        v.extend_from_slice(&c[..start]);
        v.extend_from_slice(&c[end..]);
        v
    }

    fn with_index(&self, i: usize, index: u64) -> Vec<Choice> {
        let mut v = self.choices().to_vec();
        v[i].index = index;
        v
    }

    fn free(&self, i: usize) -> bool {
        self.choices().get(i).is_some_and(|c| !c.forced)
    }

    /// Deletes each span (outer spans first): a list element, a subtree, a field.
    pub(super) fn delete_spans(&mut self) {
        let mut i = 0;
        while i < self.best.spans.len() && !self.exhausted() {
            let s = self.best.spans[i];
            if s.is_empty() || !self.try_choices(&self.without(s.start, s.end)) {
                i += 1;
            }
        }
    }

    /// Replaces a span by one of its descendants with the same label: a tree by a subtree,
    /// an expression by a sub-expression.
    pub(super) fn promote_descendants(&mut self) {
        let mut i = 0;
        'spans: while i < self.best.spans.len() && !self.exhausted() {
            let outer = self.best.spans[i];
            for j in i + 1..self.best.spans.len() {
                let inner = self.best.spans[j];
                if inner.start >= outer.end {
                    break;
                }
                if inner.label != outer.label || inner.len() >= outer.len() {
                    continue;
                }
                let c = self.choices();
                let mut v = Vec::with_capacity(c.len() - outer.len() + inner.len());
                v.extend_from_slice(&c[..outer.start]);
                v.extend_from_slice(&c[inner.start..inner.end]);
                v.extend_from_slice(&c[outer.end..]);
                if self.try_choices(&v) {
                    continue 'spans;
                }
            }
            i += 1;
        }
    }

    /// Deletes runs of 8, 4, 2 and 1 consecutive choices.
    pub(super) fn delete_blocks(&mut self) {
        for k in [8, 4, 2, 1] {
            let mut i = 0;
            while i + k <= self.choices().len() && !self.exhausted() {
                if !self.try_choices(&self.without(i, i + k)) {
                    i += 1;
                }
            }
        }
    }

    /// Sets every unforced choice inside a span to 0.
    pub(super) fn zero_spans(&mut self) {
        let mut i = 0;
        while i < self.best.spans.len() && !self.exhausted() {
            let s = self.best.spans[i];
            let mut v = self.choices().to_vec();
            let mut changed = false;
            for c in v[s.start..s.end.min(self.choices().len())].iter_mut() {
                if !c.forced && c.index != 0 {
                    c.index = 0;
                    changed = true;
                }
            }
            if changed {
                self.try_choices(&v);
            }
            i += 1;
        }
    }

    /// Lowers each index: to 0 if possible, else by binary search for the smallest that
    /// still fails.
    pub(super) fn minimize_indices(&mut self) {
        let mut i = 0;
        while i < self.choices().len() && !self.exhausted() {
            if self.free(i) && self.choices()[i].index > 0 {
                self.minimize_index(i);
            }
            i += 1;
        }
    }

    fn minimize_index(&mut self, i: usize) {
        if self.try_choices(&self.with_index(i, 0)) {
            return;
        }
        let (mut lo, mut hi) = (0u64, self.choices()[i].index);
        while lo + 1 < hi && !self.exhausted() {
            let mid = lo + (hi - lo) / 2;
            if !self.free(i) {
                return;
            }
            if self.try_choices(&self.with_index(i, mid)) {
                hi = mid.min(self.choices().get(i).map_or(mid, |c| c.index));
            } else {
                lo = mid;
            }
        }
    }

    /// For pairs of nearby choices: lowers both by the same amount, or moves an amount from
    /// the earlier to the later one (the earlier decides shortlex order, so both are smaller).
    pub(super) fn lower_pairs(&mut self) {
        let mut i = 0;
        while i < self.choices().len() && !self.exhausted() {
            let mut j = i + 1;
            while j < (i + 1 + WINDOW).min(self.choices().len()) && !self.exhausted() {
                if self.free(i) && self.free(j) && self.choices()[i].index > 0 {
                    let (a, b, bmax) = {
                        let c = self.choices();
                        (c[i].index, c[j].index, c[j].max)
                    };
                    let m = a.min(b);
                    if m > 0 {
                        self.largest_working(m, |d| (a - d, b - d), i, j);
                    }
                    if self.free(i) && self.free(j) && self.choices()[i].index == a {
                        let room = (bmax - b).min(a);
                        if room > 0 {
                            self.largest_working(room, |d| (a - d, b + d), i, j);
                        }
                    }
                }
                j += 1;
            }
            i += 1;
        }
    }

    /// Tries the largest `d` in `1..=top` with `pair(d)` written at `(i, j)`: `top` first,
    /// then binary search.
    fn largest_working(&mut self, top: u64, pair: impl Fn(u64) -> (u64, u64), i: usize, j: usize) {
        let base = self.choices().to_vec();
        let build = |d: u64| {
            let mut v = base.clone();
            let (x, y) = pair(d);
            v[i].index = x;
            v[j].index = y;
            v
        };
        if self.try_choices(&build(top)) || top == 1 {
            return;
        }
        if !self.try_choices(&build(1)) {
            return;
        }
        let (mut lo, mut hi) = (1u64, top);
        while lo + 1 < hi && !self.exhausted() {
            let mid = lo + (hi - lo) / 2;
            if self.try_choices(&build(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
    }

    /// Sorts sibling spans with the same label (list elements, tree children) into shortlex
    /// order of their contents, or swaps an adjacent pair that is out of order.
    pub(super) fn reorder_siblings(&mut self) {
        let mut groups: BTreeMap<(Option<usize>, u64), Vec<usize>> = BTreeMap::new();
        for (k, s) in self.best.spans.iter().enumerate() {
            if !s.is_empty() {
                groups
                    .entry((s.parent, s.label.hash()))
                    .or_default()
                    .push(k);
            }
        }
        for (_, members) in groups {
            if members.len() < 2 || self.exhausted() {
                continue;
            }
            let mut spans: Vec<_> = members.iter().map(|&k| self.best.spans[k]).collect();
            // A collection's last element span is its terminator (a lone "no more" choice,
            // index 0): it would always sort first and cut the collection short.
            if let Some(last) = spans.last()
                && last.len() == 1
                && self.choices()[last.start].index == 0
            {
                spans.pop();
            }
            if spans.len() < 2 {
                continue;
            }
            if spans.windows(2).any(|w| w[0].end > w[1].start) {
                continue;
            }
            let c = self.choices().to_vec();
            let contents: Vec<&[Choice]> = spans.iter().map(|s| &c[s.start..s.end]).collect();
            let mut order: Vec<usize> = (0..spans.len()).collect();
            order.sort_by(|&x, &y| super::shortlex_cmp(contents[x], contents[y]));
            let rebuild = |order: &[usize]| {
                let mut v = Vec::with_capacity(c.len());
                let mut at = 0;
                for (slot, s) in spans.iter().enumerate() {
                    v.extend_from_slice(&c[at..s.start]);
                    v.extend_from_slice(contents[order[slot]]);
                    at = s.end;
                }
                v.extend_from_slice(&c[at..]);
                v
            };
            if order.iter().enumerate().any(|(a, &b)| a != b) && self.try_choices(&rebuild(&order))
            {
                return;
            }
            for k in 0..spans.len() - 1 {
                if super::shortlex_less(contents[k + 1], contents[k]) {
                    let mut o: Vec<usize> = (0..spans.len()).collect();
                    o.swap(k, k + 1);
                    if self.try_choices(&rebuild(&o)) {
                        return;
                    }
                }
            }
        }
    }

    /// Lowers a choice by one and deletes one nearby later choice: shrinks a size drawn up
    /// front together with the element it counted.
    pub(super) fn lower_and_delete(&mut self) {
        let mut i = 0;
        while i < self.choices().len() && !self.exhausted() {
            if self.free(i) && self.choices()[i].index > 0 {
                let end = (i + 1 + WINDOW).min(self.choices().len());
                for j in i + 1..end {
                    let mut v = self.with_index(i, self.choices()[i].index - 1);
                    v.remove(j);
                    if self.try_choices(&v) {
                        break;
                    }
                }
            }
            i += 1;
        }
    }

    /// Lowers a choice by one and tries small indices in a nearby later choice: the later
    /// value may need to change for the failure to survive (x lowered, y below x).
    pub(super) fn lower_and_probe(&mut self) {
        let mut i = 0;
        while i < self.choices().len() && !self.exhausted() {
            if self.free(i) && self.choices()[i].index > 0 {
                let end = (i + 1 + WINDOW / 2).min(self.choices().len());
                'outer: for j in i + 1..end {
                    if !self.free(j) {
                        continue;
                    }
                    for v in 0..=PROBE.min(self.choices()[j].max) {
                        let mut cand = self.with_index(i, self.choices()[i].index - 1);
                        cand[j].index = v;
                        if self.try_choices(&cand) {
                            break 'outer;
                        }
                    }
                }
            }
            i += 1;
        }
    }
}
