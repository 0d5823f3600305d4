//! Renaming: two values swapped wherever they occur among choices of one kind, as the names of
//! nodes are swapped (an id that links records to each other, a position an arena's links
//! point at). Moving one value alone breaks every link that uses it.

use super::super::Shrinker;
use super::reorder::permute;
use crate::tape::{Choice, Label, Span};

/// Most distinct values of one kind the pass pairs up (the pairs grow as their square).
const MAX_NAMES: usize = 8;

/// For each kind of choice (one label, one range) with three values or more, one repeated (a
/// name used twice: a link and what it links to), each pair of its values swapped
/// everywhere; then, for a list of two to eight elements that each hold one such value below
/// the list's length (links by position), each pair of elements swapped with the values
/// naming their positions. Every pair is built; only those that make the tape smaller run
/// (where the larger value of the pair comes first), so this is a last resort of a call per
/// such pair. Choices of the same label and range that are not names (two sizes that happen
/// to share a type) are swapped too: calls that fail, never a wrong result.
pub(in crate::shrink) fn rename_values(s: &mut Shrinker<'_>) {
    'round: while !s.stopped() {
        for (group, values) in name_groups(s) {
            for (x, &a) in values.iter().enumerate() {
                for &b in &values[..x] {
                    if s.stopped() {
                        return;
                    }
                    let mut v = s.choices().to_vec();
                    swap_values(&mut v, &group, a, b);
                    if s.consider(&v) {
                        continue 'round;
                    }
                }
            }
        }
        for (list, _) in s.sibling_lists() {
            let spans: Vec<Span> = list.iter().map(|&k| s.spans()[k]).collect();
            let Some(at) = element_values(s, &spans) else {
                continue;
            };
            let len = spans.len();
            for q in 1..len {
                for p in 0..q {
                    if s.stopped() {
                        return;
                    }
                    let mut v = s.choices().to_vec();
                    swap_values(&mut v, &at, p as u64, q as u64);
                    let mut order: Vec<usize> = (0..len).collect();
                    order.swap(p, q);
                    if s.consider(&permute(&v, &spans, &order)) {
                        continue 'round;
                    }
                }
            }
        }
        return;
    }
}

/// The positions of the free choices of each kind (label and range) that holds three to
/// [`MAX_NAMES`] distinct values, one of them at least twice (with two, a swap is one value
/// lowered and another raised, which `redistribute` and `swap_choices` try), with those
/// values ascending.
fn name_groups(s: &Shrinker<'_>) -> Vec<(Vec<usize>, Vec<u64>)> {
    let mut groups: Vec<((Label, u64), Vec<usize>)> = Vec::new();
    for (i, c) in s.choices().iter().enumerate() {
        let Some(&label) = s.best.labels.get(i) else {
            break;
        };
        if !s.free(i) || c.max == 0 || s.more_coin(i) {
            continue;
        }
        match groups.iter_mut().find(|(k, _)| *k == (label, c.max)) {
            Some((_, g)) => g.push(i),
            None => groups.push(((label, c.max), vec![i])),
        }
    }
    groups
        .into_iter()
        .map(|(_, g)| {
            let values = distinct(s.choices(), &g);
            (g, values)
        })
        .filter(|(g, values)| (3..=MAX_NAMES).contains(&values.len()) && values.len() < g.len())
        .collect()
}

/// The distinct indices at `positions`, ascending.
fn distinct(choices: &[Choice], positions: &[usize]) -> Vec<u64> {
    let mut v: Vec<u64> = positions.iter().map(|&i| choices[i].index).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Swaps the indices `a` and `b` at `positions` of `v`.
fn swap_values(v: &mut [Choice], positions: &[usize], a: u64, b: u64) {
    for &i in positions {
        if v[i].index == a {
            v[i].index = b;
        } else if v[i].index == b {
            v[i].index = a;
        }
    }
}

/// Where each element of a list (`spans`, two to [`MAX_NAMES`] of them) holds its one free
/// value besides its "one more?" coin, when each is below the list's length and can name
/// every position (a link by position): those positions, in order.
fn element_values(s: &Shrinker<'_>, spans: &[Span]) -> Option<Vec<usize>> {
    let len = spans.len();
    if !(2..=MAX_NAMES).contains(&len) {
        return None;
    }
    let mut at = Vec::with_capacity(len);
    for t in spans {
        let mut own = (t.start..t.end).filter(|&p| s.free(p) && !s.more_coin(p));
        let (Some(p), None) = (own.next(), own.next()) else {
            return None;
        };
        let c = s.choices()[p];
        if c.index >= len as u64 || c.max < len as u64 - 1 {
            return None;
        }
        at.push(p);
    }
    Some(at)
}
