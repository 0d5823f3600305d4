//! Which choices a part of the value depends on, found by trying: replay the tape with one
//! choice changed, generate again (the generator only, not the property) and see whether the
//! part changes.
//!
//! For each unforced choice, the alternatives tried are index 0, the index one below and one
//! above, and the largest index (those that differ from the recorded one and are in range;
//! on a long tape only the first of them). The choices of the part's span are tried first,
//! then those before it, nearest first, then those after; on a very long tape (tens of
//! thousands of choices) the work is capped and the farthest choices are not tried
//! ([`Provenance::untried`](super::Provenance::untried) counts them). A choice **influences** the part when some
//! alternative makes a value in which the part's `Debug` text differs, or the path no longer
//! exists. An alternative for which the generator makes no value (a filter or `assume`
//! rejects, the tape overruns, the generator panics) says nothing either way. Like the
//! paper's explanation graphs, the answer depends on the actual values: a choice can matter
//! for one tape and not for another, and a choice that matters only for alternatives not
//! tried is missed.

use super::Regenerate;
use super::debug_tree::DebugTree;
use super::path::PartPath;
use crate::tape::{Fallback, Recording, ReplaySource, Tape};
use std::ops::Range;

/// At most this many generations in all: past it, one alternative per choice.
pub(crate) const MAX_RUNS: usize = 20_000;

/// At most this many draws in all (generations times the tape's length): a long tape gets
/// fewer generations (but at least 1000), and the choices farthest from the part are not
/// tried.
pub(crate) const MAX_WORK: usize = 20_000_000;

/// What happened to the part when one choice was changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The part's `Debug` text became this.
    To(String),
    /// The value no longer has the part (a shorter list, another variant).
    Gone,
}

/// The result for one choice: the first alternative that changed the part, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Influence {
    /// The alternative index tried.
    pub index: u64,
    /// What the part became.
    pub change: Change,
}

/// The value's `Debug` text for `indices` (the unforced choices), generated only.
pub(crate) fn regenerate<T: Regenerate + ?Sized>(
    test: &T,
    indices: Vec<u64>,
    max_choices: usize,
    with_property: bool,
) -> Option<String> {
    let mut src = ReplaySource::new(indices, Fallback::Simplest);
    let mut tape = Tape::new(&mut src, false).with_max_choices(max_choices);
    if with_property {
        test.value(&mut tape)
    } else {
        test.render(&mut tape)
    }
}

/// The alternatives tried for a choice with index `index` of `0..=max`.
pub(crate) fn alternatives(index: u64, max: u64, all: bool) -> Vec<u64> {
    let mut out = Vec::new();
    let mut add = |i: u64| {
        if i != index && i <= max && !out.contains(&i) {
            out.push(i);
        }
    };
    add(0);
    if index > 0 {
        add(index - 1);
    }
    add(index.saturating_add(1));
    add(max);
    if !all {
        out.truncate(1);
    }
    out
}

/// What [`influences`] found: per choice, the first alternative that changed the part, and
/// how many unforced choices were not tried for lack of budget.
pub(crate) struct Found {
    /// Per choice (forced ones and untried ones: `None`).
    pub changes: Vec<Option<Influence>>,
    /// Unforced choices not tried.
    pub untried: usize,
}

/// For each choice of `rec` (forced ones: `None`), the first alternative that changed the
/// part at `path` from `original`. Choices inside `focus` are tried first, then those before
/// it (nearest first), then those after; a long tape stops at [`MAX_WORK`] draws in all.
pub(crate) fn influences<T: Regenerate + ?Sized>(
    test: &T,
    rec: &Recording,
    path: &PartPath,
    original: &str,
    with_property: bool,
    focus: Range<usize>,
) -> Found {
    let indices = rec.indices();
    let unforced = indices.len();
    let n = rec.choices.len();
    let max_runs = (MAX_WORK / n.max(1)).clamp(1000, MAX_RUNS);
    let all = unforced.saturating_mul(4) <= max_runs;
    let budget = (n * 4).max(1024);
    // The rank of each unforced choice among the unforced ones (its index in `indices`).
    let mut rank = vec![usize::MAX; n];
    let mut k = 0;
    for (i, c) in rec.choices.iter().enumerate() {
        if !c.forced {
            rank[i] = k;
            k += 1;
        }
    }
    let order = focus
        .clone()
        .chain((0..focus.start).rev())
        .chain(focus.end..n)
        .filter(|&i| !rec.choices[i].forced);
    let mut changes = vec![None; n];
    let mut runs = 0;
    let mut tried = 0;
    for i in order {
        if runs >= max_runs {
            break;
        }
        tried += 1;
        let c = rec.choices[i];
        for alt in alternatives(c.index, c.max, all) {
            runs += 1;
            let mut changed = indices.clone();
            changed[rank[i]] = alt;
            let Some(text) = regenerate(test, changed, budget, with_property) else {
                continue;
            };
            let change = match DebugTree::parse(&text) {
                Ok(tree) => match tree.select(path) {
                    Ok(node) => {
                        let part = tree.text_of(node);
                        (part != original).then(|| Change::To(part.to_string()))
                    }
                    Err(_) => Some(Change::Gone),
                },
                // Unreadable: only the whole value can be compared.
                Err(_) if path.steps.is_empty() => {
                    (text != original).then_some(Change::To(text.clone()))
                }
                Err(_) => Some(Change::Gone),
            };
            if let Some(change) = change {
                changes[i] = Some(Influence { index: alt, change });
                break;
            }
        }
    }
    Found {
        changes,
        untried: unforced - tried,
    }
}
