//! The `random` strategy's start (`tapefuzz::search::random`): its first test cases are
//! small and growing, each followed by duplicates; a failure among them is recorded as it
//! runs, shrunk, saved and replayed like any other. Two equal strings of three or more
//! characters (below): a median of 1,824 test cases before the duplicates, 31 with them.

use std::path::PathBuf;
use tapefuzz::engine::Found;
use tapefuzz::prelude::*;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tapefuzz-random-start-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_first_test_case_is_the_simplest() {
    // Fails on every value: the first test case is the simplest, the empty list, so
    // nothing is left to shrink.
    let r = Property::new("random_start::first")
        .no_corpus()
        .seed(3)
        .run(vecs(ints::<u64>(..), 0..=10), |_v: Vec<u64>| false);
    let f = r.failure.as_ref().expect("fails");
    assert!(matches!(f.found, Found::Generate(1)), "{:?}", f.found);
    assert_eq!(r.value.as_deref(), Some("[]"));
}

#[test]
fn sizes_grow_over_the_ramp() {
    // The lengths of the first 25 test cases of a default run (256 tests) grow.
    let lens = std::sync::Mutex::new(Vec::new());
    let r = Property::new("random_start::grow")
        .no_corpus()
        .seed(5)
        .tests(256)
        .run(vecs(ints::<u8>(..), 0..=100), |v: Vec<u8>| {
            lens.lock().unwrap().push(v.len());
        });
    assert!(r.passed());
    let lens = lens.into_inner().unwrap();
    assert_eq!(lens.len(), 256);
    let mean = |s: &[usize]| s.iter().sum::<usize>() as f64 / s.len() as f64;
    // The simplest test case, then 25 small ones, each with up to two duplicates and a
    // truncation (up to 101 in all), then plain random ones (a mean of about 5).
    let (start, rest) = (mean(&lens[..20]), mean(&lens[100..]));
    assert!(start < rest, "start {start}, rest {rest}");
    assert!((3.5..6.5).contains(&rest), "rest {rest}");
}

#[test]
fn a_failure_at_the_start_is_shrunk_saved_and_replayed() {
    // Two equal strings of three or more characters: chance gives them rarely (a random
    // test case about one time in a thousand), a duplicate at once.
    let root = temp_dir("dup");
    let ab = || strings(CharClass::from_chars("abc"), 0..=8);
    let prop = |(a, b): (String, String)| a != b || a.chars().count() < 3;
    let r = Property::new("p")
        .corpora(&root)
        .seed(11)
        .run((ab(), ab()), prop);
    let f = r.failure.as_ref().expect("fails");
    let Found::Generate(n) = f.found else {
        panic!("{:?}", f.found)
    };
    assert!(n <= 75, "found at test case {n}");
    assert_eq!(r.value.as_deref(), Some("(\"aaa\", \"aaa\")"));
    let saved = f.saved.clone().expect("saved");
    // The next run fails on the saved tape first.
    let r = Property::new("p")
        .corpora(&root)
        .seed(99)
        .tests(0)
        .run((ab(), ab()), prop);
    assert!(matches!(&r.failure.as_ref().unwrap().found, Found::Reuse(p) if *p == saved));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn duplicates_give_equal_parts_early() {
    // Median over seeds 1 to 10 of the test cases to two equal strings (of 3 or more
    // characters) and to an element three times in a list of `u32`s.
    let median = |name: &str, run: &dyn Fn(u64) -> Option<u64>| {
        let mut n: Vec<u64> = (1..=10).map(|s| run(s).expect("fails")).collect();
        n.sort_unstable();
        eprintln!("{name}: test cases to the failure {n:?}");
        n[5]
    };
    let found = |r: &tapefuzz::engine::Report| match r.failure.as_ref()?.found {
        Found::Generate(n) => Some(n),
        _ => None,
    };
    let ab = || strings(CharClass::from_chars("abc"), 0..=8);
    let strings_equal = median("equal strings", &|seed| {
        found(
            &Property::new("random_start::eq")
                .no_corpus()
                .seed(seed)
                .tests(100_000)
                .run((ab(), ab()), |(a, b): (String, String)| {
                    a != b || a.chars().count() < 3
                }),
        )
    });
    assert!(strings_equal <= 40, "{strings_equal}");
    let thrice = median("an element three times", &|seed| {
        found(
            &Property::new("random_start::three")
                .no_corpus()
                .seed(seed)
                .tests(100_000)
                .run(vecs(ints::<u32>(..), 0..=10), |v: Vec<u32>| {
                    v.iter().all(|x| v.iter().filter(|y| *y == x).count() < 3)
                }),
        )
    });
    assert!(thrice <= 75, "{thrice}");
}
