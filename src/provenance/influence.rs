//! Which choices a part of the value depends on, found by trying: replay the tape with one
//! choice changed, generate again (the generator only, not the property) and see whether the
//! part changes.
//!
//! For each unforced choice, the alternatives tried are index 0, the index one below and one
//! above, and the largest index (those that differ from the recorded one and are in range;
//! on a long tape only the first of them). A choice **influences** the part when some
//! alternative makes a value in which the part's `Debug` text differs, or the path no longer
//! exists. An alternative for which the generator makes no value (a filter or `assume`
//! rejects, the tape overruns, the generator panics) says nothing either way. Like the
//! paper's explanation graphs, the answer depends on the actual values: a choice can matter
//! for one tape and not for another, and a choice that matters only for alternatives not
//! tried is missed.

use super::debug_tree::DebugTree;
use super::path::PartPath;
use crate::property::Test;
use crate::tape::{Fallback, Recording, ReplaySource, Tape};

/// At most this many generations in all: past it, one alternative per choice.
pub(crate) const MAX_RUNS: usize = 20_000;

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
pub(crate) fn regenerate(
    test: &dyn Test,
    indices: Vec<u64>,
    max_choices: usize,
    with_property: bool,
) -> Option<String> {
    let mut src = ReplaySource::new(indices, Fallback::Simplest);
    let mut tape = Tape::new(&mut src, false).with_max_choices(max_choices);
    if with_property {
        test.explain(&mut tape).value
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

/// For each choice of `rec` (forced ones: `None`), the first alternative that changed the
/// part at `path` from `original`.
pub(crate) fn influences(
    test: &dyn Test,
    rec: &Recording,
    path: &PartPath,
    original: &str,
    with_property: bool,
) -> Vec<Option<Influence>> {
    let indices = rec.indices();
    let unforced = indices.len();
    let all = unforced.saturating_mul(4) <= MAX_RUNS;
    let budget = (rec.choices.len() * 4).max(1024);
    let mut out = Vec::with_capacity(rec.choices.len());
    let mut k = 0;
    for c in &rec.choices {
        if c.forced {
            out.push(None);
            continue;
        }
        let mut found = None;
        for alt in alternatives(c.index, c.max, all) {
            let mut changed = indices.clone();
            changed[k] = alt;
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
                found = Some(Influence { index: alt, change });
                break;
            }
        }
        out.push(found);
        k += 1;
    }
    out
}
