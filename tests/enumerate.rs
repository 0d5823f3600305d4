//! The `enumerate` and `patterns` strategies through the public API: order, exhaustion,
//! pruning at rejections, and constructor patterns honoured.

use std::sync::Mutex;
use std::time::Duration;
use tapefuzz::prelude::*;
use tapefuzz::search::enumerate::{Enumerate, PatternConfig};
use tapefuzz::tape::{Reject, Tape};

#[derive(Clone, Debug, PartialEq)]
enum Term {
    Leaf,
    Neg(Box<Term>),
    Add(Box<Term>, Box<Term>),
}

/// Terms of depth at most `.0`; the constructor is a `one_of` choice.
struct Terms(usize);

impl Gen for Terms {
    type Value = Term;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Term, Reject> {
        if self.0 == 0 {
            return Ok(Term::Leaf);
        }
        let d = self.0 - 1;
        one_of![
            just(Term::Leaf),
            Terms(d).map(|t| Term::Neg(Box::new(t))),
            (Terms(d), Terms(d)).map(|(a, b)| Term::Add(Box::new(a), Box::new(b))),
        ]
        .generate(tape)
    }
}

fn seen(strategy: Enumerate, depth: usize, tests: u64) -> (Vec<Term>, tapefuzz::property::Report) {
    let values = Mutex::new(Vec::new());
    let report = Property::new("enumerate::terms")
        .no_corpus()
        .tests(tests)
        .strategy(strategy)
        .run(Terms(depth), |t: Term| {
            values.lock().unwrap().push(t);
            true
        });
    (values.into_inner().unwrap(), report)
}

#[test]
fn smallest_first_each_once() {
    let (values, report) = seen(Enumerate::default(), 4, 200);
    assert!(report.passed());
    assert_eq!(values[0], Term::Leaf);
    assert_eq!(values[1], Term::Neg(Box::new(Term::Leaf)));
    let mut unique = values.clone();
    unique.dedup();
    assert_eq!(unique.len(), values.len(), "a value ran twice in a row");
    for (i, v) in values.iter().enumerate() {
        assert_eq!(
            values.iter().filter(|w| *w == v).count(),
            1,
            "test {i}: {v:?} ran twice"
        );
    }
}

#[test]
fn a_finite_space_is_exhausted_whole() {
    let values = Mutex::new(Vec::new());
    let report = Property::new("enumerate::finite")
        .no_corpus()
        .tests(10_000)
        .strategy(Enumerate::default())
        .run(Terms(2), |t: Term| {
            values.lock().unwrap().push(t);
            true
        });
    assert!(report.exhausted);
    let note = report.note.clone().unwrap_or_default();
    assert!(note.contains("the whole space ran"), "{note}");
    // Terms of depth ≤ d: a leaf, a negation of one of depth ≤ d − 1, or a sum of two.
    fn count(d: usize) -> usize {
        if d == 0 {
            1
        } else {
            1 + count(d - 1) + count(d - 1) * count(d - 1)
        }
    }
    assert_eq!(values.lock().unwrap().len(), count(2));
}

/// A number in 0..=9, rejected at once when odd.
struct EvenFirst;

impl Gen for EvenFirst {
    type Value = u8;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<u8, Reject> {
        let x = ints::<u8>(0..=9).generate(tape)?;
        if x % 2 == 1 {
            return Err(tape.reject());
        }
        Ok(x)
    }
}

#[test]
fn rejections_prune_their_prefix() {
    // The first number is rejected the moment it is drawn odd: every tape with an odd
    // first number is one test case, whatever follows.
    let runs = Mutex::new(0u64);
    let report = Property::new("enumerate::prune")
        .no_corpus()
        .tests(100_000)
        .strategy(Enumerate {
            max_size: Some(12),
            ..Enumerate::default()
        })
        .run((EvenFirst, vecs(ints::<u8>(0..=9), 0..=3)), |_| {
            *runs.lock().unwrap() += 1;
            true
        });
    assert!(report.passed());
    assert!(report.exhausted);
    let valid = *runs.lock().unwrap();
    assert_eq!(report.valid, valid);
    // Rejected test cases: one per odd first number (1, 3, 5, 7, 9), not one per (odd
    // number, list).
    assert_eq!(report.tests - valid, 5);
}

#[test]
fn patterns_fix_the_first_descent() {
    let config = PatternConfig {
        strength: 2,
        fineness: 2,
        budget: Duration::from_secs(3600),
        random: false,
    };
    let strategy = Enumerate {
        patterns: vec![config],
        ..Enumerate::default()
    };
    // Depth 6: (Neg, Neg, _) has far more than the budget's terms.
    let (values, report) = seen(strategy, 6, 40);
    assert!(report.passed());
    // The probe (the simplest tape), then the patterns in order: (Leaf, _) three times over,
    // each one test case; (Neg, Leaf): one; then (Neg, Neg) for the rest of the budget.
    assert!(
        values[..4].iter().all(|t| *t == Term::Leaf),
        "{:?}",
        &values[..4]
    );
    assert_eq!(values[4], Term::Neg(Box::new(Term::Leaf)));
    for v in &values[5..] {
        assert!(
            matches!(v, Term::Neg(inner) if matches!(**inner, Term::Neg(_))),
            "{v:?} does not follow the pattern (Neg, Neg)"
        );
    }
}
