//! Editing every copy of a repeated span or choice in one step: a failure that needs two
//! equal parts (a shared factor, a duplicated element) survives no edit of one copy alone.

use super::super::Shrinker;
use super::zeroed;
use crate::tape::{Choice, Span};
use std::collections::HashMap;

impl Shrinker<'_> {
    /// Groups of at least two disjoint spans with one label and the same choices (two or
    /// more, not all simplest), in tape order of their first copies.
    fn duplicate_span_groups(&self) -> Vec<Vec<Span>> {
        // Keyed by contents; labels are told apart with `==` inside a key.
        let mut by_contents: HashMap<Vec<u64>, Vec<Vec<Span>>> = HashMap::new();
        for s in self.spans() {
            if s.len() < 2 || s.end > self.choices().len() || self.trivial(*s) {
                continue;
            }
            let indices = self.choices()[s.start..s.end]
                .iter()
                .map(|c| c.index)
                .collect();
            let same = by_contents.entry(indices).or_default();
            match same.iter_mut().find(|g| g[0].label == s.label) {
                Some(g) => g.push(*s),
                None => same.push(vec![*s]),
            }
        }
        let mut groups: Vec<Vec<Span>> = by_contents
            .into_values()
            .flatten()
            .filter_map(|members| {
                // Copies inside an earlier copy are edited with it.
                let mut kept: Vec<Span> = Vec::new();
                for m in members {
                    if kept.iter().all(|k| m.start >= k.end) {
                        kept.push(m);
                    }
                }
                (kept.len() >= 2).then_some(kept)
            })
            .collect();
        groups.sort_by_key(|g| {
            let starts: Vec<usize> = g.iter().map(|s| s.start).collect();
            (g[0].start, std::cmp::Reverse(g[0].len()), starts)
        });
        groups
    }

    /// The best tape with `rel_start..rel_end` of every copy replaced by `with`.
    fn in_every_copy(
        &self,
        copies: &[Span],
        rel_start: usize,
        rel_end: usize,
        with: &[Choice],
    ) -> Vec<Choice> {
        let mut v = self.choices().to_vec();
        for c in copies.iter().rev() {
            v.splice(c.start + rel_start..c.start + rel_end, with.iter().copied());
        }
        v
    }

    /// Tries the edits of one group of copies; true when one was accepted.
    fn edit_copies(&mut self, copies: &[Span]) -> bool {
        let first = copies[0];
        let len = first.len();
        let contents = self.choices()[first.start..first.end].to_vec();
        // All of it: gone, or simplest.
        if self.consider(&self.in_every_copy(copies, 0, len, &[]))
            || self.consider(&self.in_every_copy(copies, 0, len, &zeroed(&contents)))
        {
            return true;
        }
        // Its parts, at the same place in every copy: each sub-span deleted, made simplest,
        // or replaced by a descendant with its label (which includes the whole copy by one).
        let inner: Vec<Span> = self
            .spans()
            .iter()
            .filter(|t| t.start >= first.start && t.end <= first.end && !t.is_empty())
            .copied()
            .collect();
        for (a, t) in inner.iter().enumerate() {
            let (rs, re) = (t.start - first.start, t.end - first.start);
            let part = &contents[rs..re];
            for d in &inner[a + 1..] {
                if d.start < t.end && d.label == t.label && d.len() < t.len() {
                    let sub = &contents[d.start - first.start..d.end - first.start];
                    if self.consider(&self.in_every_copy(copies, rs, re, sub)) {
                        return true;
                    }
                }
            }
            if (rs, re) != (0, len)
                && !self.trivial(*t)
                && (self.consider(&self.in_every_copy(copies, rs, re, &[]))
                    || self.consider(&self.in_every_copy(copies, rs, re, &zeroed(part))))
            {
                return true;
            }
        }
        // Each choice, lowered in every copy at once.
        for p in 0..len {
            if self.stopped() {
                break;
            }
            let positions: Vec<usize> = copies.iter().map(|c| c.start + p).collect();
            if positions.iter().all(|&i| self.free(i))
                && self.choices()[positions[0]].index > 0
                && self.minimize_together(&positions)
            {
                return true;
            }
        }
        false
    }
}

/// Edits every copy of a repeated span together (a subtree shared by two operands, equal
/// list elements): deletes or zeroes all copies, deletes, zeroes or promotes the same part
/// of each, and lowers each choice in all copies at once.
pub(in crate::shrink) fn duplicate_spans(s: &mut Shrinker<'_>) {
    let mut g = 0;
    loop {
        let groups = s.duplicate_span_groups();
        if g >= groups.len() || s.stopped() {
            return;
        }
        if !s.edit_copies(&groups[g]) {
            g += 1;
        }
    }
}

/// Lowers equal choices (same index, same range) together: a value that must appear twice,
/// such as an element and the element looked up.
pub(in crate::shrink) fn duplicate_choices(s: &mut Shrinker<'_>) {
    let mut g = 0;
    loop {
        let mut by_value: HashMap<(u64, u64), Vec<usize>> = HashMap::new();
        for (i, c) in s.choices().iter().enumerate() {
            if !c.forced && c.index > 0 {
                by_value.entry((c.index, c.max)).or_default().push(i);
            }
        }
        let mut groups: Vec<Vec<usize>> = by_value.into_values().filter(|g| g.len() >= 2).collect();
        groups.sort();
        if g >= groups.len() || s.stopped() {
            return;
        }
        if !s.minimize_together(&groups[g]) {
            g += 1;
        }
    }
}
