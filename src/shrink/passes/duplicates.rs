//! Editing every copy of a repeated span or choice in one step: a failure that needs two
//! equal parts (a shared factor, a duplicated element) survives no edit of one copy alone.

use super::super::Shrinker;
use super::zeroed;
use crate::tape::{Kind, Span};
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

    /// The spans inside `copies[0]` (with their indices) and, for each, the same span in
    /// every copy.
    fn parts_of_copies(&self, copies: &[Span]) -> Vec<(usize, Vec<Span>)> {
        let first = copies[0];
        self.spans()
            .iter()
            .enumerate()
            .filter(|(_, t)| t.start >= first.start && t.end <= first.end && !t.is_empty())
            .map(|(k, t)| {
                let targets = copies
                    .iter()
                    .map(|c| Span {
                        start: c.start + (t.start - first.start),
                        end: c.start + (t.end - first.start),
                        ..*t
                    })
                    .collect();
                (k, targets)
            })
            .collect()
    }

    /// Tries the edits of one group of copies; true when one was accepted.
    fn edit_copies(&mut self, copies: &[Span]) -> bool {
        let first = copies[0];
        let contents = self.choices()[first.start..first.end].to_vec();
        let parts = self.parts_of_copies(copies);
        for (a, (k, targets)) in parts.iter().enumerate() {
            let t = targets[0];
            let part = self.choices()[t.start..t.end].to_vec();
            // Deleted, or simplest (realigned), in every copy.
            if !self.trivial(t)
                && (self.consider(&self.in_every(targets, &[]))
                    || self.replace_spans(*k, targets, &zeroed(&part), false))
            {
                return true;
            }
            // A payload run: the same bytes deleted from every copy.
            if t.label.kind() == Kind::Payload && t.len() > 1 && self.cut_runs_together(targets) {
                return true;
            }
            // Replaced by a descendant with its label in every copy.
            for (_, d) in &parts[a + 1..] {
                let d = d[0];
                if d.start < t.end && d.label == t.label && d.len() < t.len() {
                    let sub = contents[d.start - first.start..d.end - first.start].to_vec();
                    if self.replace_spans(*k, targets, &sub, false) {
                        return true;
                    }
                }
            }
        }
        // Each choice, lowered in every copy at once.
        for p in 0..contents.len() {
            if self.stopped() {
                break;
            }
            let positions: Vec<usize> = copies.iter().map(|c| c.start + p).collect();
            // A payload run's length lowered without its bytes reads them as what follows
            // (`cut_runs_together` lowers it with them).
            if positions.iter().all(|&i| self.free(i))
                && !self.run_length(positions[0])
                && self.choices()[positions[0]].index > 0
                && self.minimize_together(&positions)
            {
                return true;
            }
        }
        false
    }

    /// Tries other shapes (see [`Shrinker::reshape`]) for each part of the copies, in every
    /// copy at once; true when one was accepted.
    fn reshape_copies(&mut self, copies: &[Span]) -> bool {
        for (k, targets) in self.parts_of_copies(copies) {
            if targets[0].len() >= 2 && self.reshape(k, &targets) {
                return true;
            }
        }
        false
    }
}

/// Edits every copy of a repeated span together (a subtree shared by two operands, equal
/// list elements): deletes, zeroes or promotes the same part of each copy (the whole copy
/// included), and lowers each choice in all copies at once.
pub(in crate::shrink) fn duplicate_spans(s: &mut Shrinker<'_>) {
    for_each_group(s, |s, g| s.edit_copies(g));
}

/// Gives every copy of a repeated span the same other shape (see [`Shrinker::reshape`]).
pub(in crate::shrink) fn reshape_duplicates(s: &mut Shrinker<'_>) {
    for_each_group(s, |s, g| s.reshape_copies(g));
}

/// Runs `edit` on each group of copies, regrouping after every accepted edit.
fn for_each_group(s: &mut Shrinker<'_>, edit: fn(&mut Shrinker<'_>, &[Span]) -> bool) {
    let mut g = 0;
    loop {
        let groups = s.duplicate_span_groups();
        if g >= groups.len() || s.stopped() {
            return;
        }
        if !edit(s, &groups[g]) {
            g += 1;
        }
    }
}

/// Lowers equal choices (same index, same range) together: a value that must appear twice,
/// such as an element and the element looked up. Flags (two options) are left out: lowering
/// a group of "one more?" flags together deletes elements, the deletion passes' work.
pub(in crate::shrink) fn duplicate_choices(s: &mut Shrinker<'_>) {
    let mut g = 0;
    loop {
        let mut by_value: HashMap<(u64, u64), Vec<usize>> = HashMap::new();
        for (i, c) in s.choices().iter().enumerate() {
            // A payload run's length lowered without its bytes reads them as what follows:
            // equal runs lose bytes together in `delete_run_bytes`.
            if s.free(i) && c.index > 0 && c.max >= 2 && !s.run_length(i) {
                by_value.entry((c.index, c.max)).or_default().push(i);
            }
        }
        let mut groups: Vec<Vec<usize>> = by_value.into_values().filter(|g| g.len() >= 2).collect();
        groups.sort();
        if g >= groups.len() || s.stopped() {
            return;
        }
        if !suggested_together(s, &groups[g]) && !s.minimize_together(&groups[g]) {
            g += 1;
        }
    }
}

/// Sets the equal choices at `group` together to the first of the simpler indices their
/// generator suggested for the first of them that still fails ([`super::suggested`]): a
/// float's integer part lies far below its index among the fractions (or at a range's end),
/// where a search of the index range finds a long fraction first. Not where the generator
/// names a value step: there the search walks the values. Whether one did.
fn suggested_together(s: &mut Shrinker<'_>, group: &[usize]) -> bool {
    let Some(&first) = group.first() else {
        return false;
    };
    // Where the generator names a value step, the index search already walks values.
    if s.value_order(first).is_some() {
        return false;
    }
    let now = s.choices()[first].index;
    let tried = s.suggestions(first);
    tried.into_iter().filter(|&i| i < now).any(|i| {
        let edits: Vec<(usize, u64)> = group.iter().map(|&j| (j, i)).collect();
        s.consider(&s.with_indices(&edits))
    })
}
