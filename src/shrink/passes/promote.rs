//! Replacing a span by a descendant with the same label: a tree by a subtree.

use super::super::Shrinker;
use crate::tape::Span;

impl Shrinker<'_> {
    /// Tries replacing span `k` by its children with its label (`children`: the nearest
    /// descendants with it) or by its deeper descendants with it; true when one was accepted.
    fn promote(&mut self, k: usize, children: bool) -> bool {
        let spans = self.spans();
        let outer = spans[k];
        let mut all: Vec<Span> = Vec::new();
        for t in &spans[k + 1..] {
            if t.start >= outer.end {
                break;
            }
            if t.label == outer.label && !t.is_empty() && t.len() < outer.len() {
                all.push(*t);
            }
        }
        // Spans open parents first, so an enclosing descendant comes before what it holds.
        let picked: Vec<Span> = all
            .iter()
            .enumerate()
            .filter(|&(i, t)| {
                let nested = all[..i]
                    .iter()
                    .any(|p| p.start <= t.start && t.end <= p.end);
                nested != children
            })
            .map(|(_, t)| *t)
            .collect();
        for t in picked {
            let contents = self.choices()[t.start..t.end].to_vec();
            if self.replace_span(k, outer, &contents) {
                return true;
            }
        }
        false
    }
}

/// Replaces each span by each of its children with the same label (the nearest descendants
/// with it), outer spans first: an expression by one of its operands, a heap by a sub-heap.
/// Repeated, this reaches any descendant through the ones between, one call per child.
pub(in crate::shrink) fn promote_children(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        if !s.promote(k, true) {
            k += 1;
        }
    }
}

/// Replaces each span by each deeper descendant with its label (past the children): for a
/// failure that lives in a grandchild while no child alone fails.
pub(in crate::shrink) fn promote_descendants(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        if !s.promote(k, false) {
            k += 1;
        }
    }
}
