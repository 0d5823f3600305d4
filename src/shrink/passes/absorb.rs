//! Deleting a span whose amount another choice takes over.

use super::super::Shrinker;
use super::delete::without_ending;
use crate::tape::{Choice, Kind};

impl Shrinker<'_> {
    /// The one choice in `start..end` that holds an amount (unforced, three or more options,
    /// above index 0), if there is exactly one: flags and forced choices hold none, and a
    /// span of several amounts is rarely one quantity.
    fn lone_amount(&self, start: usize, end: usize) -> Option<usize> {
        let mut held = (start..end).filter(|&i| {
            let c = self.choices()[i];
            !c.forced && c.max >= 2 && c.index > 0
        });
        let first = held.next()?;
        held.next().is_none().then_some(first)
    }

    /// The nearest choice before `start` that can take `amount` more: unforced, three or more
    /// options, not a payload run's length, room for the amount.
    fn taker_before(&self, start: usize, amount: u64) -> Option<usize> {
        (0..start).rev().find(|&i| {
            let c = self.choices()[i];
            !c.forced
                && c.max >= 2
                && !self.run_length(i)
                && c.index.checked_add(amount).is_some_and(|n| n <= c.max)
        })
    }
}

/// Deletes each element of something repeated (a list element, a subtree, with the bare
/// "one more?" flag before it if it cannot go alone) that holds one amount, and adds that
/// amount to the nearest choice before it with room for it: a size that must stay reached
/// moves from a deleted node to a kept one in one call (a directory's size to its parent or
/// the sibling before it), where moving it step by step into a neighbour and then deleting
/// the emptied node costs a search, and deleting it with every other choice raised
/// ([`delete_and_maximize`](super::maximize::delete_and_maximize)) a long way back down.
///
/// The amount is the element's index. Integers whose index order alternates signs (0, 1,
/// −1, 2, …) hold a positive value `v` at index `2v − 1`, so when both indices are odd
/// their sum is one short of the index of the sum of their values: that index is tried
/// too, as `redistribute` tries steps of 2 and of 1 without knowing the kind of range. At
/// most four calls per element, none for one with no amount.
pub(in crate::shrink) fn delete_and_absorb(s: &mut Shrinker<'_>) {
    let mut k = 0;
    'spans: while k < s.spans().len() && !s.stopped() {
        let span = s.spans()[k];
        // Only a collection's element: a tuple's field or a subtree of a fixed arity cannot
        // go without the rest of the tape being read as something else.
        if span.label.kind() != Kind::Element || s.sibling_run(k).is_empty() {
            k += 1;
            continue;
        }
        let end_coin = s.forced_end_coin(k);
        for start in s.deletion_starts(k) {
            let Some(held) = s.lone_amount(start, span.end) else {
                continue;
            };
            let amount = s.choices()[held].index;
            let Some(t) = s.taker_before(start, amount) else {
                continue;
            };
            let c = s.choices()[t];
            let both_odd = amount & c.index & 1 == 1;
            let adds = [Some(amount), amount.checked_add(1).filter(|_| both_odd)];
            for add in adds.into_iter().flatten() {
                let Some(index) = c.index.checked_add(add).filter(|&x| x <= c.max) else {
                    continue;
                };
                let mut v: Vec<Choice> = without_ending(s.choices(), start, span.end, end_coin);
                v[t].index = index;
                if s.consider(&v) {
                    continue 'spans;
                }
            }
        }
        k += 1;
    }
}
