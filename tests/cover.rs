//! The `cover` strategy through the public API: parameters found, every pair of values of
//! two parameters covered, every value of a split (radix) parameter drawn, then random.

use std::collections::HashSet;
use std::sync::Mutex;
use tapefuzz::prelude::*;
use tapefuzz::search::cover::Cover;

type Config = (bool, bool, u8, u16);

fn configs() -> impl Gen<Value = Config> {
    (bools(), bools(), ints::<u8>(0..=3), ints::<u16>(0..=1000))
}

fn run(strategy: Cover, tests: u64) -> (Vec<Config>, tapefuzz::property::Report) {
    let seen = Mutex::new(Vec::new());
    let report = Property::new("cover::configs")
        .no_corpus()
        .tests(tests)
        .strategy(strategy)
        .run(configs(), |c: Config| {
            seen.lock().unwrap().push(c);
            true
        });
    (seen.into_inner().unwrap(), report)
}

#[test]
fn strength_two_covers_pairs_and_every_value_of_a_wide_parameter() {
    let settings = Cover {
        max_strength: 2,
        alternate: false,
        ..Cover::default()
    };
    let (seen, report) = run(settings.clone(), 100_000);
    assert!(report.passed());
    assert_eq!(report.stat("parameters"), Some(4));
    assert_eq!(report.stat("strength"), Some(2));
    let rows = report.stat("rows").unwrap() as usize;
    // The array's rows come after the probes.
    let array = &seen[settings.probes as usize..settings.probes as usize + rows];
    // Radix Coverage: every value of 0..=1000 appears.
    let levels: HashSet<u16> = array.iter().map(|c| c.3).collect();
    assert_eq!(levels.len(), 1001, "values of the wide parameter drawn");
    // Every pair of values of the small parameters appears.
    for a in [false, true] {
        for b in [false, true] {
            for k in 0..=3u8 {
                assert!(array.iter().any(|c| c.0 == a && c.1 == b), "({a}, {b})");
                assert!(array.iter().any(|c| c.0 == a && c.2 == k), "({a}, {k})");
                assert!(array.iter().any(|c| c.1 == b && c.2 == k), "({b}, {k})");
            }
        }
    }
    // Far fewer rows than all combinations (2·2·4·1001 = 16,016).
    assert!(rows < 1300, "{rows} rows");
    let note = report.note.unwrap_or_default();
    assert!(note.contains("4 parameters"), "{note}");
}

#[test]
fn a_bug_of_two_parameters_is_found() {
    let report = Property::new("cover::bug")
        .no_corpus()
        .seed(1)
        .tests(200_000)
        .strategy(Cover::default())
        .run(configs(), |(a, _, k, level): Config| {
            !(a && k == 2 && level == 777)
        });
    assert!(!report.passed());
}

#[test]
fn no_parameters_means_random() {
    // A list first (not of bytes, which is one payload run): its "one more?" coin repeats
    // at one choice point, so no parameters.
    let report = Property::new("cover::none")
        .no_corpus()
        .tests(200)
        .strategy(Cover::default())
        .run(vecs(ints::<u16>(..), 0..=5), |_v: Vec<u16>| true);
    assert!(report.passed());
    assert_eq!(report.stat("parameters"), Some(0));
    assert_eq!(report.total_tests(), 200);
    let note = report.note.unwrap_or_default();
    assert!(note.contains("no parameters"), "{note}");
}
