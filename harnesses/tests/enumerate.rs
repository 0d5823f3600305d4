//! Quality tier for the `enumerate` strategy: it finds every planted bug of sorted_insert and
//! bst_insert with a counterexample of the smallest size first, and proves the correct
//! versions free of counterexamples up to a stated size.

use harnesses::find;
use tapefuzz::engine::Found;
use tapefuzz::prelude::*;
use tapefuzz::search::enumerate::Enumerate;

fn enumerate(name: &str, bug: Option<&str>, max_size: Option<u64>) -> tapefuzz::property::Report {
    let target = find(name).unwrap();
    let test = target.test(bug).unwrap();
    Property::new(name)
        .no_corpus()
        .tests(u64::MAX)
        .seconds(60.0)
        .strategy(Enumerate {
            max_size,
            ..Enumerate::default()
        })
        .run_test(test.as_ref())
}

/// The size of a tape: the sum of its unforced indices.
fn size(rec: &tapefuzz::tape::Recording) -> u64 {
    rec.choices
        .iter()
        .filter(|c| !c.forced)
        .map(|c| c.index)
        .sum()
}

/// Finds `bug` and checks that nothing smaller fails: the run had exhausted every size
/// below the counterexample's before it found it (and, for small ones, a second run bounded
/// one size below finds nothing).
fn smallest_first(name: &str, bug: &str) -> (u64, u64) {
    let r = enumerate(name, Some(bug), None);
    let fail = r
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("{name}/{bug}: not found ({} tests)", r.tests));
    let Found::Generate(n) = fail.found else {
        panic!("{name}/{bug}: found by {:?}", fail.found)
    };
    let s = size(&fail.original);
    if s > 0 {
        assert_eq!(r.stat("exhausted_size"), Some(s - 1), "{name}/{bug}");
    }
    if (1..=10).contains(&s) {
        let below = enumerate(name, Some(bug), Some(s - 1));
        assert!(
            below.passed(),
            "{name}/{bug}: a counterexample smaller than size {s} exists: {:?}",
            below.value
        );
        assert!(
            below.exhausted,
            "{name}/{bug}: size {} not exhausted",
            s - 1
        );
    }
    (n, s)
}

#[test]
fn sorted_insert_swapped_smallest_first() {
    let (n, s) = smallest_first("sorted_insert", "swapped");
    // ([1], 0): one element 1 (index 1), the end of the list, 0 — size 2.
    assert_eq!(s, 2, "found at test {n}");
}

#[test]
fn bst_insert_bugs_smallest_first() {
    for (bug, size) in [("duplicate", 0), ("lose_right", 4), ("wrong_side", 4)] {
        let (n, s) = smallest_first("bst_insert", bug);
        assert_eq!(s, size, "bst_insert/{bug} found at test {n}");
    }
}

/// `crowded` needs a tree of 8 keys: size 35 at the least (keys 0..=7 and 7 "child?"
/// coins). Every tape of size ≤ 34 runs first — about 840,000 test cases, feasible only
/// because the tree generator rejects a key outside its bounds the moment it is drawn.
#[test]
fn bst_insert_crowded_smallest_first() {
    let (n, s) = smallest_first("bst_insert", "crowded");
    assert_eq!(s, 35, "found at test {n}");
}

#[test]
fn correct_versions_are_exhausted_up_to_a_size() {
    for (name, size) in [("sorted_insert", 8), ("bst_insert", 8)] {
        let r = enumerate(name, None, Some(size));
        assert!(r.passed(), "{name}: {:?}", r.value);
        assert!(r.exhausted, "{name}: not exhausted");
        assert_eq!(r.stat("exhausted_size"), Some(size));
        assert!(
            r.note
                .as_deref()
                .is_some_and(|n| n.contains(&format!("no counterexample of size ≤ {size} exists"))),
            "{name}: {:?}",
            r.note
        );
    }
}
