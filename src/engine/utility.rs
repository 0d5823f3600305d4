//! Utility values for targeted search: a property reports how close a value came to failing
//! (`target(distance)`), and a targeted search climbs it.
//!
//! ```
//! use tapefuzz::engine::minimize_labelled;
//! use tapefuzz::prelude::*;
//!
//! Property::new("target_doc").no_corpus().tests(100).check(
//!     vecs(ints::<u8>(..), 0..=10),
//!     |v: Vec<u8>| {
//!         target(v.len() as f64); // maximize the length
//!         minimize_labelled("first", f64::from(v.first().copied().unwrap_or(0)));
//!         Ok::<(), Fail>(())
//!     },
//! );
//! ```

use std::cell::RefCell;

/// Whether a utility is to be made large or small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Larger is better.
    Maximize,
    /// Smaller is better.
    Minimize,
}

/// One utility value reported by a test case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Utility {
    /// The label (`"utility"` for [`target`]).
    pub label: &'static str,
    /// The value as reported.
    pub value: f64,
    /// Which way is better.
    pub direction: Direction,
}

impl Utility {
    /// The value oriented so that larger is better (negated when minimizing).
    pub fn score(&self) -> f64 {
        match self.direction {
            Direction::Maximize => self.value,
            Direction::Minimize => -self.value,
        }
    }
}

thread_local! {
    static UTILITIES: RefCell<Vec<Utility>> = const { RefCell::new(Vec::new()) };
}

/// Reports a utility value to maximize, labelled `"utility"`.
pub fn target(value: f64) {
    target_labelled("utility", value, Direction::Maximize);
}

/// Reports a utility value to minimize, labelled `"utility"`.
pub fn minimize(value: f64) {
    target_labelled("utility", value, Direction::Minimize);
}

/// Reports a labelled utility value to minimize.
pub fn minimize_labelled(label: &'static str, value: f64) {
    target_labelled(label, value, Direction::Minimize);
}

/// Reports a utility value under `label`. A test case may report several labels; reported
/// twice, a label keeps its better value. NaN is ignored.
pub fn target_labelled(label: &'static str, value: f64, direction: Direction) {
    if value.is_nan() {
        return;
    }
    let u = Utility {
        label,
        value,
        direction,
    };
    UTILITIES.with(|us| {
        let mut us = us.borrow_mut();
        match us.iter_mut().find(|x| x.label == label) {
            Some(old) if u.score() > old.score() => *old = u,
            Some(_) => {}
            None => us.push(u),
        }
    });
}

/// Takes the utilities reported since the last call (the engines call it after each test
/// case; the order is the order of first report).
pub fn take_utilities() -> Vec<Utility> {
    UTILITIES.with(|us| std::mem::take(&mut *us.borrow_mut()))
}

/// The utilities reported since the last take or clear, left in place (the observability
/// log reads them before the loop takes them).
pub(crate) fn peek_utilities() -> Vec<Utility> {
    UTILITIES.with(|us| us.borrow().clone())
}

/// Forgets the utilities reported so far (before a test case starts).
pub fn clear_utilities() {
    UTILITIES.with(|us| us.borrow_mut().clear());
}

/// Whether any utility was reported since the last take or clear (cheap: engines ask this on
/// the hot path before taking).
pub fn has_utilities() -> bool {
    UTILITIES.with(|us| !us.borrow().is_empty())
}

/// The sum of the scores: the single number a search climbs when a test case reports several
/// labels. `None` when it reported none.
pub fn total_score(us: &[Utility]) -> Option<f64> {
    (!us.is_empty()).then(|| us.iter().map(Utility::score).sum())
}
